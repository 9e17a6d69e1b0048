/*
 * cluster — one node of several serving one PostgreSQL database: its row in the nodes table, its
 * heartbeat, and the takeover of the tables of a node that stopped beating.
 *
 * A node names itself on every connection it makes (the option teahouse.node, cluster_uri), so
 * that a table it creates is its own (the column's default, migrations/pg/0100_nodes.sql) and
 * the store's recovery reads only its own tables (store_pg_read.c). Each open table has an
 * owner_node; the node holds a lease (nodes.lease_until) that its heartbeat (every
 * CLUSTER_BEAT_MS, one row) renews, and its tables are held with it. Once a node's lease lapsed,
 * another node takes its tables over with one UPDATE ... SET owner_node ... RETURNING: the row
 * lock makes exactly one node win. The winner's loop is then told (on_takeover), and opens the
 * tables as a restart does (store_recover, lobby_restore: the unfinished hand replayed from its
 * stored actions, same tiles, same seats).
 *
 * Listings: every node publishes its open tables (the loop builds the text each second and the
 * thread writes it into the node's row when it changed) and reads every other live node's with
 * each heartbeat (one SELECT), which the thread parses and the loop hands to the lobby
 * (lobby_listing.h): the public lobby lists every node's tables, and a join_table for a table elsewhere is answered
 * "moved" without a round trip. What a node sees of the others is at most a second and a
 * heartbeat old.
 *
 * Fencing: with each heartbeat the node also asks which of the stored tables it plays another
 * node owns now; it lets those go at once (their players are sent on, as when a node drains).
 * Until then the database refuses its writes to them (migrations/pg/0102_node_fence.sql).
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
#include <stdint.h>

#include <uv.h>

#define CLUSTER_BEAT_MS 2000    /* a node's heartbeat period */
#define CLUSTER_PUBLISH_MS 1000 /* how often the loop looks whether its listing changed */
#define CLUSTER_SLOTS 1024      /* nodes a database may ever know (their slots, 0 to 1023) */
#define CLUSTER_SLOTS_TEXT "1024" /* the same, in statements */

typedef struct cluster cluster;

typedef struct cluster_config {
    const char *uri;          /* the node's URI (cluster_uri) */
    const char *node_id;      /* config_node_id_valid */
    const char *address;      /* where clients reach it, e.g. /n/n1/ws */
    int lease_seconds;        /* a table's lease; a few heartbeats at least */
} cluster_config;

/* Another live node's row: its id, where clients reach it, its listing text. */
typedef struct cluster_peer {
    const char *node;
    const char *ws;
    const char *text;
} cluster_peer;

/* A table another node took over from this one: its id, and that node and its address. */
typedef struct cluster_lost {
    int64_t id;
    char node[40];
    char ws[256];
} cluster_lost;

/* What the node's loop is asked for and told, on the loop thread but for digest and discard. */
typedef struct cluster_hooks {
    /* This node took over tables of a node that stopped; it opens them. */
    void (*on_takeover)(void *data, size_t taken);
    /* This node's listing, a text to free (NULL: unchanged). */
    char *(*listing)(void *data);
    /* ON THE HEARTBEAT THREAD: the other live nodes' rows (freshest heartbeat last, borrowed for
     * the call) made into what the loop keeps (NULL: nothing, out of memory); it touches nothing
     * but its arguments. discard frees such a digest on either thread. */
    void *(*digest)(const cluster_peer *peers, size_t n);
    void (*discard)(void *digest);
    /* The latest digest, given to the loop (which frees it, with discard or otherwise). */
    void (*on_peers)(void *data, void *digest);
    /* The ids of the stored tables this node plays, as a PostgreSQL array ("{3,17}"), a text to
     * free (NULL when out of memory); asked with the listing. */
    char *(*kept)(void *data);
    /* Tables this node plays that another node owns now (this node stalled past their leases and
     * they were taken over): it lets them go. */
    void (*on_lost)(void *data, const struct cluster_lost *lost, size_t n);
    void *data;
} cluster_hooks;

/* uri with the connection option that names the node appended (a table it creates is its own,
 * and the database fences its writes); malloc'd, NULL when out of memory. */
char *cluster_uri(const char *uri, const char *node_id);

/* Connects, upserts the node's row and claims this node's tables, tables of no node and tables
 * whose lease lapsed (synchronously: before the store reads what it reopens), then starts the
 * heartbeat and the publishing of the listing. NULL and a message in error on failure. */
cluster *cluster_start(uv_loop_t *loop, const cluster_config *cfg, const cluster_hooks *hooks, char *error,
                       size_t error_cap);

/* The node's slot, 0 to CLUSTER_SLOTS - 1, its own among all nodes the database knows: the new
 * players' ids it gives are that modulo CLUSTER_SLOTS (store_player_ids). */
int cluster_slot(const cluster *c);

/* Stops the heartbeat (joins its thread; the node's listing is emptied on the way out) and
 * closes the wake-up and the publishing timer; the tables' leases lapse. */
void cluster_stop(cluster *c);

/* Frees c once cluster_stop's close has run (after uv_run returns). NULL is fine. */
void cluster_free(cluster *c);

#endif
