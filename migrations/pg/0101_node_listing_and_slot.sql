-- Several nodes, continued (server/cluster/).
--
-- listing: each node's open tables as the other nodes see them (server/lobby/lobby_listing.h),
-- a JSON text the node writes when its tables change (at most once a second) and the others read
-- with each heartbeat, for the public lobby of every node's tables and join_table's "moved".
-- Kept as text: the database never looks inside it.
--
-- slot: a number of the node's own, 0 to 1023, given when it first registers and kept with its
-- id. A node gives new players the ids that are its slot modulo 1024 (store_player_ids), so that
-- nodes giving ids at once, each from memory, never give the same one.
ALTER TABLE nodes ADD COLUMN listing text NOT NULL DEFAULT '[]';
ALTER TABLE nodes ADD COLUMN slot integer UNIQUE CHECK (slot BETWEEN 0 AND 1023);
UPDATE nodes SET slot = numbered.n - 1
    FROM (SELECT id, row_number() OVER (ORDER BY started_at, id) AS n FROM nodes) AS numbered
    WHERE nodes.id = numbered.id;
ALTER TABLE nodes ALTER COLUMN slot SET NOT NULL;
