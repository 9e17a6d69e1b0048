/*
 * cluster — one node of several serving one PostgreSQL database: its row in the nodes table, its
 * heartbeat, and the takeover of the tables of a node that stopped beating.
 *
 * A node names itself on every connection it makes (the option teahouse.node, cluster_uri), so
 * that a table it creates is its own (the column's default, migrations/pg/0100_nodes.sql) and
 * the store's recovery reads only its own tables (store_pg_read.c). Each open table has an
 * owner_node and a lease_until; the owner's heartbeat (every CLUSTER_BEAT_MS, one statement)
 * upserts its node row and renews all its tables' leases. A table whose lease lapsed is taken
 * over by another node with one UPDATE ... WHERE lease_until < now() RETURNING: the row lock
 * makes exactly one node win. The winner's loop is then told (on_takeover), and opens the
 * tables as a restart does (store_recover, lobby_restore: the unfinished hand replayed from its
 * stored actions, same tiles, same seats).
 *
 * Directory: each heartbeat also reads which open tables other live nodes own (code, node, address;
 * one SELECT, at most CLUSTER_DIRECTORY_MAX rows), so that a join_table for a table elsewhere is
 * answered "moved" without a round trip; it is at most a heartbeat old.
 *
 * Threads: the heartbeat runs on a thread of its own with a connection of its own, so the loop
 * never waits on PostgreSQL for it; only the wake-up (a uv_async) touches the loop.
 * Lifecycle: cluster_start (before the store's recovery: it claims this node's tables),
 * cluster_stop (on the loop; the thread is joined and the uv_async closed), cluster_free after
 * the loop has run the close.
 */
#ifndef CLUSTER_H
#define CLUSTER_H

#include <stdbool.h>
#include <stddef.h>

#include <uv.h>

#define CLUSTER_BEAT_MS 2000 /* a node's heartbeat period */
#define CLUSTER_DIRECTORY_MAX 100000 /* other nodes' open tables known at most */

typedef struct cluster cluster;

typedef struct cluster_config {
    const char *uri;          /* the node's URI (cluster_uri) */
    const char *node_id;      /* config_node_id_valid */
    const char *address;      /* where clients reach it, e.g. /n/n1/ws */
    int lease_seconds;        /* a table's lease; a few heartbeats at least */
} cluster_config;

/* Called on the loop thread after this node took over tables; it opens them. */
typedef void (*cluster_takeover_fn)(void *data, size_t taken);

/* uri with the connection options that name the node and its lease appended (a new table's
 * lease is the column's default, from teahouse.lease); malloc'd, NULL when out of memory. */
char *cluster_uri(const char *uri, const char *node_id, int lease_seconds);

/* Connects, upserts the node's row and claims this node's tables, tables of no node and tables
 * whose lease lapsed (synchronously: before the store reads what it reopens), then starts the
 * heartbeat. NULL and a message in error on failure. */
cluster *cluster_start(uv_loop_t *loop, const cluster_config *cfg, cluster_takeover_fn on_takeover, void *data,
                       char *error, size_t error_cap);

/* Where the open table `code` lives when another live node owns it: its node and the address
 * clients reach that node at (from the directory each heartbeat reads). Any thread. */
bool cluster_where(void *c, const char *code, char *node, size_t node_cap, char *ws, size_t ws_cap);

/* Stops the heartbeat (joins its thread) and closes the wake-up; the tables' leases lapse. */
void cluster_stop(cluster *c);

/* Frees c once cluster_stop's close has run (after uv_run returns). NULL is fine. */
void cluster_free(cluster *c);

#endif
