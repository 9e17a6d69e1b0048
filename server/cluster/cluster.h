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
 * Listings: every node publishes its open tables (the loop builds the text each second and the
 * thread writes it into the node's row when it changed) and reads every other live node's with
 * each heartbeat (one SELECT), which the loop then hands to the lobby (lobby_listing.h): the
 * public lobby lists every node's tables, and a join_table for a table elsewhere is answered
 * "moved" without a round trip. What a node sees of the others is at most a second and a
 * heartbeat old.
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

#define CLUSTER_BEAT_MS 2000    /* a node's heartbeat period */
#define CLUSTER_PUBLISH_MS 1000 /* how often the loop looks whether its listing changed */

typedef struct cluster cluster;

typedef struct cluster_config {
    const char *uri;          /* the node's URI (cluster_uri) */
    const char *node_id;      /* config_node_id_valid */
    const char *address;      /* where clients reach it, e.g. /n/n1/ws */
    int lease_seconds;        /* a table's lease; a few heartbeats at least */
} cluster_config;

/* Another live node's row: its id, where clients reach it, its listing text. */
typedef struct cluster_peer {
    char *node;
    char *ws;
    char *text;
} cluster_peer;

/* What the node's loop is asked for and told, always on the loop thread. */
typedef struct cluster_hooks {
    /* This node took over tables of a node that stopped; it opens them. */
    void (*on_takeover)(void *data, size_t taken);
    /* This node's listing, a text to free (NULL: unchanged). */
    char *(*listing)(void *data);
    /* The other live nodes' rows, freshest heartbeat last; borrowed for the call. */
    void (*on_peers)(void *data, const cluster_peer *peers, size_t n);
    void *data;
} cluster_hooks;

/* uri with the connection options that name the node and its lease appended (a new table's
 * lease is the column's default, from teahouse.lease); malloc'd, NULL when out of memory. */
char *cluster_uri(const char *uri, const char *node_id, int lease_seconds);

/* Connects, upserts the node's row and claims this node's tables, tables of no node and tables
 * whose lease lapsed (synchronously: before the store reads what it reopens), then starts the
 * heartbeat and the publishing of the listing. NULL and a message in error on failure. */
cluster *cluster_start(uv_loop_t *loop, const cluster_config *cfg, const cluster_hooks *hooks, char *error,
                       size_t error_cap);

/* Stops the heartbeat (joins its thread; the node's listing is emptied on the way out) and
 * closes the wake-up and the publishing timer; the tables' leases lapse. */
void cluster_stop(cluster *c);

/* Frees c once cluster_stop's close has run (after uv_run returns). NULL is fine. */
void cluster_free(cluster *c);

#endif
