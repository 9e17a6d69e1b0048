-- 0002_table_session — what a host may change during a session (PROTOCOL.md, "Host controls"), the
-- same data as the SQLite store's step 0008 (migrations/0008_table_session.sql).
--
-- A table's options may change between hands, so each hand keeps the options it was played under
-- (compact JSON text, as the table's): its replay, its history and the check of its ledger rebuild
-- it with those. Hands stored before this step have none (NULL): they were played under their
-- table's options, which could not change then.
--
-- held: the host holds the table after the hand on; a restart keeps it held. spectator_chat:
-- false when the host turned watchers' chat off; a restart keeps that too.
ALTER TABLE hands ADD COLUMN options text;
ALTER TABLE game_tables ADD COLUMN held boolean NOT NULL DEFAULT false;
ALTER TABLE game_tables ADD COLUMN spectator_chat boolean NOT NULL DEFAULT true;
