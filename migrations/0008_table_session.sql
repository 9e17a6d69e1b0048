-- 0008_table_session — what a host may change during a session (PROTOCOL.md, "Host controls").
--
-- A table's options may change between hands, so each hand keeps the options it was played under:
-- its replay, its history and the check of its ledger rebuild it with those, not the table's
-- newer ones. Hands stored before this step have none (NULL): they were played under their
-- table's options, which could not change then.
--
-- held: the host holds the table after the hand on; a restart keeps it held. spectator_chat: 0
-- when the host turned watchers' chat off; a restart keeps that too.
ALTER TABLE hands ADD COLUMN options TEXT;
ALTER TABLE game_tables ADD COLUMN held INTEGER NOT NULL DEFAULT 0 CHECK (held IN (0, 1));
ALTER TABLE game_tables ADD COLUMN spectator_chat INTEGER NOT NULL DEFAULT 1 CHECK (spectator_chat IN (0, 1));
