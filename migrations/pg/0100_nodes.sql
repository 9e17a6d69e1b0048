-- Several nodes on one database (server/cluster/): the nodes that serve it, each under a lease
-- that its heartbeat renews, and which node plays each open table.
--
-- Numbered 0100 so as not to collide with the steps 0002... written meanwhile; the PostgreSQL
-- migrations apply in the order of their numbers and record the number reached (store_pg.c).
--
-- A node names itself on its connections (the connection option teahouse.node): a table a node
-- creates is its own through the column's default, so that the store's INSERT need not know about
-- nodes. Without a node name (one server alone) owner_node stays NULL, as before this step.
--
-- The lease is the node's, not each table's: its heartbeat renews one row (nodes.lease_until),
-- and all its tables are held as long as it holds. (Renewing each table's row raced the node's own
-- game writes to those rows, and PostgreSQL broke the deadlocks by failing one or the other.)
-- Once a node's lease lapses, another node takes its open tables over by changing their owner.
CREATE TABLE nodes (
    id           text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9-]{1,32}$'),
    address      text NOT NULL,
    started_at   timestamptz NOT NULL DEFAULT now(),
    heartbeat_at timestamptz NOT NULL DEFAULT now(),
    lease_until  timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE game_tables
    ADD COLUMN owner_node text DEFAULT nullif(current_setting('teahouse.node', true), '');

-- The takeover's search and the check of a node's own tables look at open tables by owner.
CREATE INDEX game_tables_open_by_owner ON game_tables (owner_node) WHERE state <> 'closed';
