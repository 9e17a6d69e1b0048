-- 0007_adjustments — admins correct balances with adjustments (server/store/store.h: store_adjust),
-- never by editing a row: each is a zero-sum pair of ledger rows in the hash chain, the player's
-- row and a counter-row of the adjustments account, booked as a hand of its own at the
-- adjustments table. Nothing already stored changes: the ledger's columns, rows and hashes stay
-- as they are.
--
-- The account's and the table's ids are -1: outside the ids the store gives (1, 2, 3, …), so
-- making them moves no one's id, and never 0 (a bot's seat). The account's name holds '~', which
-- no account name may (protocol/names.h), so nobody can register it; its password hash is no hash at all, so nobody can log in as it; its look-alike
-- keys are its own name, which no real name's key can be. The table is closed from the start and
-- its game is no game's, so no room ever opens it and the lobby never lists it.
INSERT INTO players (id, kind, nickname, account_name, password_hash, is_admin, created_at, last_seen_at,
                     account_look_key, account_fold_key)
VALUES (-1, 'account', 'adjustments', '~adjustments', '!', 0, 0, 0, '~adjustments', '~adjustments');

INSERT INTO game_tables (id, game, options, host_player_id, code, is_public, seats, state, hands_played, created_at,
                         updated_at, turn_seconds, game_state)
VALUES (-1, 'adjustment', '{}', NULL, '~ADJUST', 0, '[null,null,null,null]', 'closed', 0, 0, 0, 30, '{}');
