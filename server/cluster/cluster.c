/*
 * cluster — a node's heartbeat and takeovers (cluster.h).
 *
 * Statements, each one round trip:
 *   register (at start): upsert the node's row with a fresh lease, and a slot of its own the
 *                      first time.
 *   claim (at start):  open tables of no node, or of a node whose lease lapsed, become this
 *                      node's (its own stay its own).
 *   beat (each 2 s):   renew the node's lease: one row, whatever its number of tables.
 *   lost (each 2 s):   which of the stored tables the loop plays another node owns now.
 *   peers (each 2 s):  the listings of the other live nodes (lobby_listing.h), freshest last.
 *   take (each 2 s):   open tables of a node whose lease lapsed become this node's; the ids
 *                      returned are counted, and the loop woken when there are any.
 *   publish (at most once a second, when the loop's listing changed): the node's listing.
 * Two nodes taking at once: PostgreSQL locks each row the first UPDATE changes and the second
 * UPDATE, once the first commits, checks its WHERE again on the new row, whose owner is the
 * first taker (alive), and skips it, so each table has exactly one winner.
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
    int slot;                     /* the node's slot (cluster_slot) */
    PGconn *conn;                 /* the heartbeat thread's only */
    uv_thread_t thread;
    uv_mutex_t lock;
    uv_cond_t wake;
    bool stopping;                /* guarded by lock */
    size_t taken;                 /* guarded by lock: tables taken over, not yet told to the loop */
    char *to_publish;             /* guarded by lock: the loop's new listing, not yet written */
    void *digest;                 /* guarded by lock: the other nodes' rows digested, not yet told */
    char *kept;                   /* guarded by lock: the loop's stored tables, "{3,17}" */
    cluster_lost *lost;           /* guarded by lock: tables another node owns now, not yet told */
    size_t n_lost;
    uv_async_t async;
    uv_timer_t publish_timer;     /* the loop's: builds the listing */
    char *published;              /* the loop's: the listing last handed to the thread */
    cluster_hooks hooks;
};

/* Open tables of no node, or of a node whose lease lapsed, become this node's. */
static const char CLAIM_SQL[] =
    "UPDATE game_tables SET owner_node = $1 WHERE state <> 'closed' AND (owner_node IS NULL OR owner_node IN"
    " (SELECT id FROM nodes WHERE lease_until < now() AND id <> $1))";

/* One row: the node's lease holds all its tables. */
static const char BEAT_SQL[] = "UPDATE nodes SET address = $3, heartbeat_at = now(),"
                               " lease_until = now() + make_interval(secs => $2::int) WHERE id = $1";

/* A new node takes the lowest free slot (two new nodes at once may collide: the loser fails to
 * start, and starts again); a known one keeps its own. */
static const char START_SQL[] =
    "INSERT INTO nodes (id, address, slot, lease_until) VALUES ($1, $2,"
    " (SELECT min(s) FROM generate_series(0, " CLUSTER_SLOTS_TEXT " - 1) AS s WHERE s NOT IN (SELECT slot FROM nodes)),"
    " now() + make_interval(secs => $3::int))"
    " ON CONFLICT (id) DO UPDATE SET address = excluded.address, started_at = now(), heartbeat_at = now(),"
    " lease_until = excluded.lease_until RETURNING slot";

/* The set of lapsed nodes is the statement's (computed once): a table another taker changed
 * meanwhile is checked again on its new row, whose owner is alive, and skipped. */
static const char TAKE_SQL[] =
    "UPDATE game_tables SET owner_node = $1 WHERE state <> 'closed' AND owner_node IN"
    " (SELECT id FROM nodes WHERE lease_until < now() AND id <> $1) RETURNING id";

static bool connected(cluster *c);

static const char PEERS_SQL[] = "SELECT id, address, listing FROM nodes"
                                " WHERE id <> $1 AND lease_until > now() ORDER BY heartbeat_at";

static const char PUBLISH_SQL[] = "UPDATE nodes SET listing = $2 WHERE id = $1";

static const char LOST_SQL[] =
    "SELECT t.id, coalesce(t.owner_node, ''), coalesce(n.address, '') FROM game_tables AS t"
    " LEFT JOIN nodes AS n ON n.id = t.owner_node"
    " WHERE t.id = ANY ($2::bigint[]) AND t.state <> 'closed' AND t.owner_node IS DISTINCT FROM $1";

/* Reads the other live nodes' rows and digests them here, off the loop (parsing every other
 * node's listing takes milliseconds a thousand tables); the digest is left for the loop. */
static void read_peers(cluster *c)
{
    if (!connected(c))
        return;
    const char *params[1] = {c->node_id};
    PGresult *r = PQexecParams(c->conn, PEERS_SQL, 1, NULL, params, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        log_warn("node %s: reading the other nodes' tables failed: %s", c->node_id, PQerrorMessage(c->conn));
        PQclear(r);
        return;
    }
    size_t n = (size_t)PQntuples(r);
    cluster_peer *peers = n > 0 ? calloc(n, sizeof *peers) : NULL;
    if (n > 0 && peers == NULL) {
        PQclear(r);
        return;
    }
    for (size_t i = 0; i < n; i++)
        peers[i] = (cluster_peer){.node = PQgetvalue(r, (int)i, 0),
                                  .ws = PQgetvalue(r, (int)i, 1),
                                  .text = PQgetvalue(r, (int)i, 2)};
    void *digest = c->hooks.digest(peers, n);
    free(peers);
    PQclear(r);
    if (digest == NULL)
        return;
    uv_mutex_lock(&c->lock);
    void *old = c->digest;
    c->digest = digest;
    uv_mutex_unlock(&c->lock);
    if (old != NULL)
        c->hooks.discard(old);
}

char *cluster_uri(const char *uri, const char *node_id)
{
    /* A URI's option: "-c teahouse.node=ID", percent-encoded (ID is letters, digits and '-'). */
    const char *sep = strchr(uri, '?') ? "&" : "?";
    size_t n = strlen(uri) + strlen(node_id) + 64;
    char *out = malloc(n);
    if (out != NULL)
        snprintf(out, n, "%s%soptions=-c%%20teahouse.node%%3D%s", uri, sep, node_id);
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

/* Upserts the node's row and reads its slot. */
static bool register_node(cluster *c)
{
    const char *params[3] = {c->node_id, c->address, c->lease};
    PGresult *r = PQexecParams(c->conn, START_SQL, 3, NULL, params, NULL, NULL, 0);
    bool ok = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1;
    if (ok)
        c->slot = atoi(PQgetvalue(r, 0, 0));
    else
        log_warn("node %s: registering the node failed: %s", c->node_id, PQerrorMessage(c->conn));
    PQclear(r);
    return ok;
}

int cluster_slot(const cluster *c) { return c->slot; }

/* Which of the tables the loop plays another node owns now; left for the loop. */
static void check_lost(cluster *c)
{
    uv_mutex_lock(&c->lock);
    char *kept = c->kept != NULL ? strdup(c->kept) : NULL;
    uv_mutex_unlock(&c->lock);
    if (kept == NULL || strcmp(kept, "{}") == 0 || !connected(c)) {
        free(kept);
        return;
    }
    const char *params[2] = {c->node_id, kept};
    PGresult *r = PQexecParams(c->conn, LOST_SQL, 2, NULL, params, NULL, NULL, 0);
    free(kept);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        log_warn("node %s: checking which tables are still its own failed: %s", c->node_id, PQerrorMessage(c->conn));
        PQclear(r);
        return;
    }
    size_t n = (size_t)PQntuples(r);
    cluster_lost *lost = n > 0 ? calloc(n, sizeof *lost) : NULL;
    for (size_t i = 0; lost != NULL && i < n; i++) {
        lost[i].id = strtoll(PQgetvalue(r, (int)i, 0), NULL, 10);
        snprintf(lost[i].node, sizeof lost[i].node, "%s", PQgetvalue(r, (int)i, 1));
        snprintf(lost[i].ws, sizeof lost[i].ws, "%s", PQgetvalue(r, (int)i, 2));
    }
    PQclear(r);
    if (lost == NULL)
        return;
    log_warn("node %s: %zu of its tables were taken over by another node; letting them go", c->node_id, n);
    uv_mutex_lock(&c->lock);
    free(c->lost);
    c->lost = lost;
    c->n_lost = n;
    uv_mutex_unlock(&c->lock);
}

static void beat(cluster *c)
{
    run(c, BEAT_SQL, c->node_id, c->lease, c->address, "the heartbeat");
    check_lost(c);
    read_peers(c);
    long taken = run(c, TAKE_SQL, c->node_id, NULL, NULL, "taking over lapsed tables");
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
    void *digest = c->digest;
    c->digest = NULL;
    cluster_lost *lost = c->lost;
    size_t n_lost = c->n_lost;
    c->lost = NULL;
    c->n_lost = 0;
    uv_mutex_unlock(&c->lock);
    if (!stopping && n_lost > 0)
        c->hooks.on_lost(c->hooks.data, lost, n_lost);
    free(lost);
    if (!stopping && taken > 0)
        c->hooks.on_takeover(c->hooks.data, taken);
    if (!stopping && digest != NULL)
        c->hooks.on_peers(c->hooks.data, digest);
    else if (digest != NULL)
        c->hooks.discard(digest);
}

/* Each second on the loop: the listing, handed to the thread when it changed. */
static void on_publish_timer(uv_timer_t *timer)
{
    cluster *c = timer->data;
    char *kept = c->hooks.kept(c->hooks.data);
    if (kept != NULL) {
        uv_mutex_lock(&c->lock);
        free(c->kept);
        c->kept = kept;
        uv_mutex_unlock(&c->lock);
    }
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
    if (c->digest != NULL)
        c->hooks.discard(c->digest);
    free(c->kept);
    free(c->lost);
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
    if (!register_node(c) ||
        (claimed = run(c, CLAIM_SQL, c->node_id, NULL, NULL, "claiming the node's tables")) < 0) {
        snprintf(error, error_cap, "cannot register node %s (is the database migrated?)", c->node_id);
        free_fields(c);
        return NULL;
    }
    log_info("node %s (%s): slot %d; %ld open table(s) of no node or of a stopped node claimed", c->node_id,
             c->address, c->slot, claimed);
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
