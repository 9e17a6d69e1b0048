-- 0002_table_turn_seconds — each table keeps its turn timer (the seconds a seat has to act), so a
-- table resumed after a restart keeps the timer it was made with. Tables made before this step get
-- the house default of 30 seconds. SQLite checks a CHECK added here against the rows already there.
ALTER TABLE game_tables ADD COLUMN turn_seconds INTEGER NOT NULL DEFAULT 30
    CHECK (turn_seconds BETWEEN 1 AND 3600);
