/*
 * cluster — a node's heartbeat and takeovers (cluster.h).
 *
 * Statements, each one round trip:
 *   claim (at start):  every open table that is this node's, no node's, or whose lease lapsed
 *                      becomes this node's, with a fresh lease.
 *   beat (each 2 s):   upsert the node's row and, in the same statement, renew the leases of all
 *                      its open tables.
 *   peers (each 2 s):  the listings of the other live nodes (lobby_listing.h), freshest last.
 *   publish (at most once a second, when the loop's listing changed): the node's listing.
 *   take (each 2 s):   open tables of another node whose lease lapsed become this node's; the
 *                      ids returned are counted, and the loop woken when there are any.
 * Two nodes taking at once: PostgreSQL locks each row the first UPDATE changes and the second
 * UPDATE, once the first commits, evaluates WHERE lease_until < now() again on the new row and
 * skips it, so each table has exactly one winner.
 *
 * A failed statement (the database restarting) is logged and tried again at the next beat, with
 * a new connection if it broke; a node that cannot beat for a lease's time loses its tables to
 * another, which is the point.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "cluster.h"
#include "log.h"

struct cluster {
    char *uri;
    char node_id[40];
    char *address;
    char lease[16];               /* lease_seconds as text, a statement's parameter */
    PGconn *conn;                 /* the heartbeat thread's only */
    uv_thread_t thread;
    uv_mutex_t lock;
    uv_cond_t wake;
    bool stopping;                /* guarded by lock */
    size_t taken;                 /* guarded by lock: tables taken over, not yet told to the loop */
    char *to_publish;             /* guarded by lock: the loop's new listing, not yet written */
    cluster_peer *peers;          /* guarded by lock: the other nodes' rows read last, not yet told */
    size_t n_peers;
    bool peers_read;              /* guarded by lock: peers is new */
    uv_async_t async;
    uv_timer_t publish_timer;     /* the loop's: builds the listing */
    char *published;              /* the loop's: the listing last handed to the thread */
    cluster_hooks hooks;
};

static const char CLAIM_SQL[] =
    "UPDATE game_tables SET owner_node = $1, lease_until = now() + make_interval(secs => $2::int)"
    " WHERE state <> 'closed' AND (owner_node = $1 OR owner_node IS NULL OR lease_until < now())";

static const char BEAT_SQL[] =
    "WITH beat AS (INSERT INTO nodes (id, address) VALUES ($1, $3)"
    " ON CONFLICT (id) DO UPDATE SET address = excluded.address, heartbeat_at = now() RETURNING id)"
    " UPDATE game_tables SET lease_until = now() + make_interval(secs => $2::int)"
    " WHERE owner_node = (SELECT id FROM beat) AND state <> 'closed'";

static const char START_SQL[] =
    "INSERT INTO nodes (id, address) VALUES ($1, $2)"
    " ON CONFLICT (id) DO UPDATE SET address = excluded.address, started_at = now(), heartbeat_at = now()";

static const char TAKE_SQL[] =
    "UPDATE game_tables SET owner_node = $1, lease_until = now() + make_interval(secs => $2::int)"
    " WHERE state <> 'closed' AND lease_until < now() AND owner_node IS DISTINCT FROM $1 RETURNING id";

static bool connected(cluster *c);

static const char PEERS_SQL[] =
    "SELECT id, address, listing FROM nodes"
    " WHERE id <> $1 AND heartbeat_at > now() - make_interval(secs => $2::int) ORDER BY heartbeat_at";

static const char PUBLISH_SQL[] = "UPDATE nodes SET listing = $2 WHERE id = $1";

static void free_peers(cluster_peer *peers, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(peers[i].node);
        free(peers[i].ws);
        free(peers[i].text);
    }
    free(peers);
}

/* Reads the other live nodes' rows and leaves them for the loop. */
static void read_peers(cluster *c)
{
    if (!connected(c))
        return;
    const char *params[2] = {c->node_id, c->lease};
    PGresult *r = PQexecParams(c->conn, PEERS_SQL, 2, NULL, params, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        log_warn("node %s: reading the other nodes' tables failed: %s", c->node_id, PQerrorMessage(c->conn));
        PQclear(r);
        return;
    }
    size_t n = (size_t)PQntuples(r);
    cluster_peer *peers = n > 0 ? calloc(n, sizeof *peers) : NULL;
    bool ok = n == 0 || peers != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        peers[i].node = strdup(PQgetvalue(r, (int)i, 0));
        peers[i].ws = strdup(PQgetvalue(r, (int)i, 1));
        peers[i].text = strdup(PQgetvalue(r, (int)i, 2));
        ok = peers[i].node != NULL && peers[i].ws != NULL && peers[i].text != NULL;
    }
    PQclear(r);
    if (!ok) {
        free_peers(peers, n);
        return;
    }
    uv_mutex_lock(&c->lock);
    free_peers(c->peers, c->n_peers);
    c->peers = peers;
    c->n_peers = n;
    c->peers_read = true;
    uv_mutex_unlock(&c->lock);
}

char *cluster_uri(const char *uri, const char *node_id, int lease_seconds)
{
    /* A URI's option: "-c teahouse.node=ID -c teahouse.lease=N", percent-encoded (ID is letters,
     * digits and '-'). */
    const char *sep = strchr(uri, '?') ? "&" : "?";
    size_t n = strlen(uri) + strlen(node_id) + 96;
    char *out = malloc(n);
    if (out != NULL)
        snprintf(out, n, "%s%soptions=-c%%20teahouse.node%%3D%s%%20-c%%20teahouse.lease%%3D%d", uri, sep, node_id,
                 lease_seconds);
    return out;
}

static bool connected(cluster *c)
{
    if (c->conn != NULL && PQstatus(c->conn) == CONNECTION_OK)
        return true;
    PQfinish(c->conn);
    c->conn = PQconnectdb(c->uri);
    if (PQstatus(c->conn) == CONNECTION_OK)
        return true;
    log_warn("node %s: cannot reach PostgreSQL: %s", c->node_id, PQerrorMessage(c->conn));
    return false;
}

/* Runs sql with up to three text parameters; returns the rows changed or returned, -1 on failure. */
static long run(cluster *c, const char *sql, const char *p1, const char *p2, const char *p3, const char *doing)
{
    if (!connected(c))
        return -1;
    const char *params[3] = {p1, p2, p3};
    int n = p3 ? 3 : p2 ? 2 : 1;
    PGresult *r = PQexecParams(c->conn, sql, n, NULL, params, NULL, NULL, 0);
    long rows = -1;
    ExecStatusType st = PQresultStatus(r);
    if (st == PGRES_TUPLES_OK)
        rows = PQntuples(r);
    else if (st == PGRES_COMMAND_OK)
        rows = atol(PQcmdTuples(r));
    else
        log_warn("node %s: %s failed: %s", c->node_id, doing, PQerrorMessage(c->conn));
    PQclear(r);
    return rows;
}

static void beat(cluster *c)
{
    run(c, BEAT_SQL, c->node_id, c->lease, c->address, "the heartbeat");
    read_peers(c);
    long taken = run(c, TAKE_SQL, c->node_id, c->lease, NULL, "taking over lapsed tables");
    if (taken > 0) {
        log_info("node %s: took over %ld table(s) whose node stopped", c->node_id, taken);
        uv_mutex_lock(&c->lock);
        c->taken += (size_t)taken;
        uv_mutex_unlock(&c->lock);
    }
    uv_async_send(&c->async); /* the peers read, and any tables taken */
}

/* Writes the listing the loop left, if any (called with the lock held; unlocks meanwhile). */
static void publish_locked(cluster *c)
{
    char *text = c->to_publish;
    c->to_publish = NULL;
    if (text == NULL)
        return;
    uv_mutex_unlock(&c->lock);
    run(c, PUBLISH_SQL, c->node_id, text, NULL, "publishing the node's tables");
    free(text);
    uv_mutex_lock(&c->lock);
}

static void heartbeat_thread(void *arg)
{
    cluster *c = arg;
    uint64_t next_beat = uv_hrtime() + (uint64_t)CLUSTER_BEAT_MS * 1000000u;
    uv_mutex_lock(&c->lock);
    while (!c->stopping) {
        uint64_t now = uv_hrtime();
        if (now < next_beat && c->to_publish == NULL)
            uv_cond_timedwait(&c->wake, &c->lock, next_beat - now);
        if (c->stopping)
            break;
        publish_locked(c);
        if (uv_hrtime() >= next_beat) {
            next_beat = uv_hrtime() + (uint64_t)CLUSTER_BEAT_MS * 1000000u;
            uv_mutex_unlock(&c->lock);
            beat(c);
            uv_mutex_lock(&c->lock);
        }
    }
    uv_mutex_unlock(&c->lock);
    /* leaving: no node sends players here any more (the tables' leases lapse on their own) */
    run(c, PUBLISH_SQL, c->node_id, "[]", NULL, "emptying the node's listing");
}

static void on_async(uv_async_t *async)
{
    cluster *c = async->data;
    uv_mutex_lock(&c->lock);
    size_t taken = c->taken;
    c->taken = 0;
    bool stopping = c->stopping;
    cluster_peer *peers = c->peers_read ? c->peers : NULL;
    size_t n_peers = c->peers_read ? c->n_peers : 0;
    bool peers_read = c->peers_read;
    if (peers_read) {
        c->peers = NULL;
        c->n_peers = 0;
        c->peers_read = false;
    }
    uv_mutex_unlock(&c->lock);
    if (!stopping && taken > 0)
        c->hooks.on_takeover(c->hooks.data, taken);
    if (!stopping && peers_read)
        c->hooks.on_peers(c->hooks.data, peers, n_peers);
    free_peers(peers, n_peers);
}

/* Each second on the loop: the listing, handed to the thread when it changed. */
static void on_publish_timer(uv_timer_t *timer)
{
    cluster *c = timer->data;
    char *text = c->hooks.listing(c->hooks.data);
    if (text == NULL || (c->published != NULL && strcmp(text, c->published) == 0)) {
        free(text);
        return;
    }
    char *copy = strdup(text);
    if (copy == NULL) {
        free(text);
        return;
    }
    free(c->published);
    c->published = text;
    uv_mutex_lock(&c->lock);
    free(c->to_publish);
    c->to_publish = copy;
    uv_cond_signal(&c->wake);
    uv_mutex_unlock(&c->lock);
}

static void free_fields(cluster *c)
{
    free_peers(c->peers, c->n_peers);
    free(c->to_publish);
    free(c->published);
    PQfinish(c->conn);
    free(c->uri);
    free(c->address);
    free(c);
}

static void on_failed_close(uv_handle_t *handle)
{
    cluster *c = handle->data;
    uv_cond_destroy(&c->wake);
    uv_mutex_destroy(&c->lock);
    free_fields(c);
}

cluster *cluster_start(uv_loop_t *loop, const cluster_config *cfg, const cluster_hooks *hooks, char *error,
                       size_t error_cap)
{
    cluster *c = calloc(1, sizeof *c);
    if (c == NULL || (c->uri = strdup(cfg->uri)) == NULL || (c->address = strdup(cfg->address)) == NULL) {
        snprintf(error, error_cap, "out of memory");
        if (c != NULL)
            free_fields(c);
        return NULL;
    }
    snprintf(c->node_id, sizeof c->node_id, "%s", cfg->node_id);
    snprintf(c->lease, sizeof c->lease, "%d", cfg->lease_seconds);
    c->hooks = *hooks;
    c->conn = PQconnectdb(c->uri);
    if (PQstatus(c->conn) != CONNECTION_OK) {
        snprintf(error, error_cap, "cannot connect: %s", PQerrorMessage(c->conn));
        free_fields(c);
        return NULL;
    }
    long claimed;
    if (run(c, START_SQL, c->node_id, c->address, NULL, "registering the node") < 0 ||
        (claimed = run(c, CLAIM_SQL, c->node_id, c->lease, NULL, "claiming the node's tables")) < 0) {
        snprintf(error, error_cap, "cannot register node %s (is the database migrated?)", c->node_id);
        free_fields(c);
        return NULL;
    }
    log_info("node %s (%s): %ld open table(s) are this node's", c->node_id, c->address, claimed);
    uv_mutex_init(&c->lock);
    uv_cond_init(&c->wake);
    read_peers(c); /* told to the loop at its first turn */
    uv_async_init(loop, &c->async, on_async);
    c->async.data = c;
    uv_timer_init(loop, &c->publish_timer);
    c->publish_timer.data = c;
    if (uv_thread_create(&c->thread, heartbeat_thread, c) != 0) {
        snprintf(error, error_cap, "cannot start the heartbeat's thread");
        uv_close((uv_handle_t *)&c->publish_timer, NULL);
        uv_close((uv_handle_t *)&c->async, on_failed_close); /* frees c */
        return NULL;
    }
    uv_timer_start(&c->publish_timer, on_publish_timer, 0, CLUSTER_PUBLISH_MS);
    uv_async_send(&c->async);
    return c;
}

void cluster_stop(cluster *c)
{
    if (c == NULL)
        return;
    uv_mutex_lock(&c->lock);
    bool already = c->stopping;
    c->stopping = true;
    uv_cond_signal(&c->wake);
    uv_mutex_unlock(&c->lock);
    if (already)
        return;
    uv_thread_join(&c->thread);
    uv_close((uv_handle_t *)&c->publish_timer, NULL);
    uv_close((uv_handle_t *)&c->async, NULL);
}

void cluster_free(cluster *c)
{
    if (c == NULL)
        return;
    uv_cond_destroy(&c->wake);
    uv_mutex_destroy(&c->lock);
    free_fields(c);
}
