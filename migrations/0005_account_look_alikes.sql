-- 0005_account_look_alikes — no account name may look like another's (protocol/names.h): each
-- account keeps two look-alike keys, from Unicode's confusables through ICU, and no two accounts
-- share either. "look" is what the name looks like whatever the case of its letters (BOB, ВОВ);
-- "fold" is its case-folded form's look (ADMIN, admın). Guests have none.
--
-- SQL cannot compute a key: the accounts already there get theirs when the store next opens the
-- database (server/store/store_db.c, in C with ICU), the oldest account first; of two older
-- accounts that already look alike, the younger keeps NULL for the key they share (UNIQUE lets
-- NULLs be), which no new name can take either, since the older one holds it.
ALTER TABLE players ADD COLUMN account_look_key TEXT CHECK (account_look_key IS NULL OR kind = 'account');
ALTER TABLE players ADD COLUMN account_fold_key TEXT CHECK (account_fold_key IS NULL OR kind = 'account');
CREATE UNIQUE INDEX players_by_look_key ON players (account_look_key);
CREATE UNIQUE INDEX players_by_fold_key ON players (account_fold_key);
