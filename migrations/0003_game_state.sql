-- 0003_game_state — what a table carries from hand to hand is the game's own JSON object (games/game.h:
-- Tien Gow keeps {"banker":b,"multiplier":m}), no longer two columns only Tien Gow has. Tables and
-- hands get a game_state column, filled for the rows already there from their banker and
-- multiplier, and those columns go. json_object writes compact text with the keys in the order
-- given, here sorted, as the store writes it (JSON_SORT_KEYS | JSON_COMPACT).
--
-- DROP COLUMN rewrites each table once; it works because no index, view, trigger or CHECK names
-- banker or multiplier (0001_init.sql, 0002_table_turn_seconds.sql). The CHECK added with the
-- column is checked against the default on the rows already there, then against every write.
ALTER TABLE game_tables ADD COLUMN game_state TEXT NOT NULL DEFAULT '{}'
    CHECK (json_valid(game_state) AND json_type(game_state) = 'object');
UPDATE game_tables SET game_state = json_object('banker', banker, 'multiplier', multiplier);
ALTER TABLE game_tables DROP COLUMN banker;
ALTER TABLE game_tables DROP COLUMN multiplier;

ALTER TABLE hands ADD COLUMN game_state TEXT NOT NULL DEFAULT '{}'
    CHECK (json_valid(game_state) AND json_type(game_state) = 'object');
UPDATE hands SET game_state = json_object('banker', banker, 'multiplier', multiplier);
ALTER TABLE hands DROP COLUMN banker;
ALTER TABLE hands DROP COLUMN multiplier;
