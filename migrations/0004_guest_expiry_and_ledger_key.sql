-- 0004_guest_expiry_and_ledger_key — guests that nobody uses any more can be found and expired,
-- and the ledger gets a key (server/store/store.h).
--
-- Guests are expired oldest first (store_guests_expire): the index holds guests only, by when
-- they were last seen, so the sweep reads no account and no recent guest.
CREATE INDEX players_guests_by_seen ON players (last_seen_at) WHERE kind = 'guest';

-- The ledger's key record, one row, written by the server when the ledger gets its key (the key
-- itself is in a file outside the database). Rows 1 to v1_rows were hashed before there was a
-- key ("teahouse-ledger-v1", no key); every later row is "teahouse-ledger-v2", keyed. mac is the
-- keyed BLAKE2b of the other fields, so that the record cannot be moved by someone without the
-- key. A database migrated here has no record until the server opens it with its key.
CREATE TABLE ledger_key (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    v1_rows      INTEGER NOT NULL CHECK (v1_rows >= 0),
    v1_last_hash TEXT NOT NULL,
    keyed_at     INTEGER NOT NULL,
    mac          TEXT NOT NULL
);
