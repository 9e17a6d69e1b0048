-- Several nodes on one database (server/cluster/): the nodes that serve it, and which node owns
-- each open table, under a lease that its node's heartbeat renews.
--
-- Numbered 0100 so as not to collide with the steps 0002... written meanwhile; the PostgreSQL
-- migrations apply in the order of their numbers and record the number reached (store_pg.c).
--
-- A node names itself on its connections (the connection option teahouse.node): a table a node
-- creates is its own through the column's default, so that the store's INSERT need not know about
-- nodes; its lease is the node's (the option teahouse.lease, 10 s without one). Without a node
-- name (one server alone) owner_node stays NULL, as before this step.
CREATE TABLE nodes (
    id           text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9-]{1,32}$'),
    address      text NOT NULL,
    started_at   timestamptz NOT NULL DEFAULT now(),
    heartbeat_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE game_tables
    ADD COLUMN owner_node  text DEFAULT nullif(current_setting('teahouse.node', true), ''),
    ADD COLUMN lease_until timestamptz NOT NULL
        DEFAULT now() + make_interval(secs => coalesce(nullif(current_setting('teahouse.lease', true), '')::int, 10));

-- The heartbeat's renewal and the takeover's search both look at open tables by owner and lease.
CREATE INDEX game_tables_open_by_owner ON game_tables (owner_node, lease_until) WHERE state <> 'closed';
