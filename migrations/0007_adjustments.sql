-- 0007_adjustments — admins correct balances with adjustments (server/store/store.h: store_adjust),
-- never by editing a row: each is a zero-sum pair of ledger rows in the hash chain, the player's
-- row and a counter-row of the adjustments account, booked as a hand of its own at the
-- adjustments table. Nothing already stored changes: the ledger's columns, rows and hashes stay
-- as they are.
--
-- The account's id is -1: outside the ids the store gives players (1, 2, 3, …), so making it
-- moves no one's id, and never 0 (a bot's seat). The account's name holds '~', which
-- no account name may (protocol/names.h), so nobody can register it; its password hash is no hash at all, so nobody can log in as it; its look-alike
-- keys are its own name, which no real name's key can be. The adjustments table is made by the
-- first adjustment (server/store/store_sqlite_admin.c), closed and of no game, so that no room
-- opens it and the lobby never lists it.
INSERT INTO players (id, kind, nickname, account_name, password_hash, is_admin, created_at, last_seen_at,
                     account_look_key, account_fold_key)
VALUES (-1, 'account', 'adjustments', '~adjustments', '!', 0, 0, 0, '~adjustments', '~adjustments');
