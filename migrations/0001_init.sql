-- 0001_init — the first schema of the teahouse store (server/store.h says what each part is for).
--
-- Conventions: times are milliseconds since the Unix epoch (UTC); JSON columns hold compact JSON
-- text as the server wrote it; a hand's 64-bit seed is kept as the same bits in a signed INTEGER.
-- Ids are SQLite rowids. Each migration runs in one transaction with its PRAGMA user_version.
-- REFERENCES name the links; the store checks them itself before writing (its connections run
-- with foreign_keys off, which keeps one-row writes free of statement journals: server/store_db.c).

-- Guests (a nickname) and accounts (a unique name and an argon2id password hash).
CREATE TABLE players (
    id            INTEGER PRIMARY KEY,
    kind          TEXT NOT NULL CHECK (kind IN ('guest', 'account')),
    nickname      TEXT NOT NULL,
    account_name  TEXT COLLATE NOCASE UNIQUE,
    password_hash TEXT,
    is_admin      INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1)),
    created_at    INTEGER NOT NULL,
    last_seen_at  INTEGER NOT NULL,
    CHECK ((kind = 'account') = (account_name IS NOT NULL AND password_hash IS NOT NULL)),
    CHECK (kind = 'account' OR is_admin = 0)
);

-- Login sessions. Only the BLAKE2b-256 hash of a token is kept: a copy of the database does not
-- let anyone log in.
CREATE TABLE sessions (
    token_hash BLOB PRIMARY KEY,
    player_id  INTEGER NOT NULL REFERENCES players (id),
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX sessions_by_player ON sessions (player_id);
CREATE INDEX sessions_by_expiry ON sessions (expires_at);

-- Tables, with what carries from hand to hand (banker, streak multiplier). seats is a JSON array
-- of four entries: a player id, "bot" or null.
CREATE TABLE game_tables (
    id             INTEGER PRIMARY KEY,
    game           TEXT NOT NULL,
    options        TEXT NOT NULL,
    host_player_id INTEGER REFERENCES players (id),
    code           TEXT NOT NULL,
    is_public      INTEGER NOT NULL CHECK (is_public IN (0, 1)),
    seats          TEXT NOT NULL,
    state          TEXT NOT NULL,
    banker         INTEGER NOT NULL,
    multiplier     INTEGER NOT NULL,
    hands_played   INTEGER NOT NULL DEFAULT 0,
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
);
-- A code names one open table; closed tables keep theirs for the record.
CREATE UNIQUE INDEX game_tables_open_code ON game_tables (code) WHERE state <> 'closed';
CREATE INDEX game_tables_by_code ON game_tables (code, id);
CREATE INDEX game_tables_by_game ON game_tables (game, id);
CREATE INDEX game_tables_open ON game_tables (id) WHERE state <> 'closed';

-- Hands: the seed, the deal, the banker and multiplier they started with, and once over the
-- result. With the table's options and the ordered actions this replays the hand exactly.
CREATE TABLE hands (
    id          INTEGER PRIMARY KEY,
    table_id    INTEGER NOT NULL REFERENCES game_tables (id),
    number      INTEGER NOT NULL,
    seed        INTEGER NOT NULL,
    deal        TEXT NOT NULL,
    banker      INTEGER NOT NULL,
    multiplier  INTEGER NOT NULL,
    started_at  INTEGER NOT NULL,
    result      TEXT,
    finished_at INTEGER,
    UNIQUE (table_id, number),
    CHECK ((result IS NULL) = (finished_at IS NULL))
);
CREATE INDEX hands_unfinished ON hands (table_id) WHERE finished_at IS NULL;

-- Every accepted action of a hand, numbered 1, 2, 3, …. Rows are appended in the order written
-- (many tables play at once), and found by hand through the small index: clustering the rows by
-- hand would rewrite a page per table at every group commit.
CREATE TABLE hand_actions (
    id      INTEGER PRIMARY KEY,
    hand_id INTEGER NOT NULL REFERENCES hands (id),
    seq     INTEGER NOT NULL CHECK (seq >= 1),
    seat    INTEGER NOT NULL,
    action  TEXT NOT NULL,
    at      INTEGER NOT NULL
);
CREATE UNIQUE INDEX hand_actions_by_hand ON hand_actions (hand_id, seq);

-- The ledger: append-only, each hand's rows sum to zero, each row's hash covers its fields and
-- the previous row's hash (the canonical text is in server/store.h). player_id and
-- balance_after are NULL for a bot's seat.
CREATE TABLE ledger (
    id            INTEGER PRIMARY KEY,
    table_id      INTEGER NOT NULL REFERENCES game_tables (id),
    hand_id       INTEGER NOT NULL REFERENCES hands (id),
    player_id     INTEGER REFERENCES players (id),
    seat          INTEGER NOT NULL,
    units         INTEGER NOT NULL,
    reason        TEXT NOT NULL,
    balance_after INTEGER,
    at            INTEGER NOT NULL,
    prev_hash     TEXT NOT NULL,
    hash          TEXT NOT NULL,
    CHECK ((player_id IS NULL) = (balance_after IS NULL))
);
-- For the admins' filters, each ending in id for cursor pagination: player, hand, reason, time.
-- A table's rows (and a code's or a game's, through game_tables) are found through its hands
-- (hands (table_id, number), then ledger_by_hand): an index on table_id would rewrite a page per
-- table at every group commit for a filter that a table's few hundred hands serve as well.
CREATE INDEX ledger_by_player ON ledger (player_id, id);
CREATE INDEX ledger_by_hand ON ledger (hand_id, id);
CREATE INDEX ledger_by_reason ON ledger (reason, id);
CREATE INDEX ledger_by_time ON ledger (at, id);

CREATE TRIGGER ledger_is_append_only_update BEFORE UPDATE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;
CREATE TRIGGER ledger_is_append_only_delete BEFORE DELETE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;
