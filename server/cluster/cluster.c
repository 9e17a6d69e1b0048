/*
 * cluster — a node's heartbeat and takeovers (cluster.h).
 *
 * Statements, each one round trip:
 *   claim (at start):  every open table that is this node's, no node's, or whose lease lapsed
 *                      becomes this node's, with a fresh lease.
 *   beat (each 2 s):   upsert the node's row and, in the same statement, renew the leases of all
 *                      its open tables.
 *   where (each 2 s):  the open tables other live nodes own, for join_table's "moved".
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

typedef struct cluster_place {
    char code[16];
    char node[40];
    char ws[256];
} cluster_place;

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
    uv_async_t async;
    cluster_place *places;        /* guarded by lock: other nodes' open tables, by code */
    size_t n_places;
    cluster_takeover_fn on_takeover;
    void *data;
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

static const char DIRECTORY_SQL[] =
    "SELECT t.code, t.owner_node, n.address FROM game_tables AS t JOIN nodes AS n ON n.id = t.owner_node"
    " WHERE t.state <> 'closed' AND t.owner_node <> $1 AND t.lease_until > now() ORDER BY t.code LIMIT 100000";

static int by_code(const void *a, const void *b)
{
    return strcmp(((const cluster_place *)a)->code, ((const cluster_place *)b)->code);
}

/* Reads the directory (sorted by code) and swaps it in. */
static void read_directory(cluster *c)
{
    if (!connected(c))
        return;
    const char *params[1] = {c->node_id};
    PGresult *r = PQexecParams(c->conn, DIRECTORY_SQL, 1, NULL, params, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        log_warn("node %s: reading where the other tables are failed: %s", c->node_id, PQerrorMessage(c->conn));
        PQclear(r);
        return;
    }
    size_t n = (size_t)PQntuples(r);
    cluster_place *places = n > 0 ? calloc(n, sizeof *places) : NULL;
    if (n > 0 && places == NULL) {
        PQclear(r);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        snprintf(places[i].code, sizeof places[i].code, "%s", PQgetvalue(r, (int)i, 0));
        snprintf(places[i].node, sizeof places[i].node, "%s", PQgetvalue(r, (int)i, 1));
        snprintf(places[i].ws, sizeof places[i].ws, "%s", PQgetvalue(r, (int)i, 2));
    }
    PQclear(r);
    if (n > 1) /* qsort must not be given the NULL of an empty list */
        qsort(places, n, sizeof *places, by_code); /* in C's order, whatever the database's collation */
    uv_mutex_lock(&c->lock);
    cluster_place *old = c->places;
    c->places = places;
    c->n_places = n;
    uv_mutex_unlock(&c->lock);
    free(old);
}

bool cluster_where(void *ctx, const char *code, char *node, size_t node_cap, char *ws, size_t ws_cap)
{
    cluster *c = ctx;
    cluster_place key;
    snprintf(key.code, sizeof key.code, "%s", code);
    bool found = false;
    uv_mutex_lock(&c->lock);
    const cluster_place *p = c->n_places > 0 ? bsearch(&key, c->places, c->n_places, sizeof key, by_code) : NULL;
    if (p != NULL) {
        snprintf(node, node_cap, "%s", p->node);
        snprintf(ws, ws_cap, "%s", p->ws);
        found = true;
    }
    uv_mutex_unlock(&c->lock);
    return found;
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
    read_directory(c);
    long taken = run(c, TAKE_SQL, c->node_id, c->lease, NULL, "taking over lapsed tables");
    if (taken <= 0)
        return;
    log_info("node %s: took over %ld table(s) whose node stopped", c->node_id, taken);
    uv_mutex_lock(&c->lock);
    c->taken += (size_t)taken;
    uv_mutex_unlock(&c->lock);
    uv_async_send(&c->async);
}

static void heartbeat_thread(void *arg)
{
    cluster *c = arg;
    uv_mutex_lock(&c->lock);
    while (!c->stopping) {
        uv_cond_timedwait(&c->wake, &c->lock, (uint64_t)CLUSTER_BEAT_MS * 1000000u);
        if (c->stopping)
            break;
        uv_mutex_unlock(&c->lock);
        beat(c);
        uv_mutex_lock(&c->lock);
    }
    uv_mutex_unlock(&c->lock);
}

static void on_async(uv_async_t *async)
{
    cluster *c = async->data;
    uv_mutex_lock(&c->lock);
    size_t taken = c->taken;
    c->taken = 0;
    bool stopping = c->stopping;
    uv_mutex_unlock(&c->lock);
    if (taken > 0 && !stopping)
        c->on_takeover(c->data, taken);
}

static void free_fields(cluster *c)
{
    free(c->places);
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

cluster *cluster_start(uv_loop_t *loop, const cluster_config *cfg, cluster_takeover_fn on_takeover, void *data,
                       char *error, size_t error_cap)
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
    c->on_takeover = on_takeover;
    c->data = data;
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
    read_directory(c);
    uv_async_init(loop, &c->async, on_async);
    c->async.data = c;
    if (uv_thread_create(&c->thread, heartbeat_thread, c) != 0) {
        snprintf(error, error_cap, "cannot start the heartbeat's thread");
        uv_close((uv_handle_t *)&c->async, on_failed_close); /* frees c */
        return NULL;
    }
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
