-- Each node's open tables as the other nodes see them (server/lobby/lobby_listing.h): a JSON text
-- the node writes when its tables change (at most once a second) and the others read with each
-- heartbeat, for the public lobby of every node's tables and join_table's "moved". Kept as text:
-- the database never looks inside it.
ALTER TABLE nodes ADD COLUMN listing text NOT NULL DEFAULT '[]';
