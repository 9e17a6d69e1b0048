/*
 * store_pg — the PostgreSQL backend's connection (store_pg.h): parameters and errors, its
 * transactions, the migrations of migrations/pg/, the ledger's key record, opening and closing.
 *
 * Errors. PostgreSQL names each failure with a SQLSTATE; its class says what the store reports:
 * 23 (a constraint) STORE_CONFLICT for a unique key and STORE_INVALID for the rest, 53 (no
 * resources: disk, memory, connections) STORE_FULL, 08 and a broken connection STORE_IO, 40
 * (serialization, deadlock) and 55P03 (lock not available) STORE_BUSY, XX (data corrupted)
 * STORE_CORRUPT, 25006 (a read-only standby) STORE_READONLY, anything else STORE_INTERNAL.
 *
 * One server per database, unless it is a node of several: a server's connection holds a session
 * advisory lock for as long as it lives (taken again when the connection is made again), so that a
 * second server on the same database is refused instead of reopening and playing the same tables
 * twice. A node (its URI names it with the option teahouse.node, server/cluster/) takes no lock:
 * each table is owned by one node under a lease, and recovery reads only the node's own tables.
 *
 * Actions are the bulk of the writes: each is checked when it comes (store_pg_hands.c) and sent
 * with the others of its batch in one statement, before the next statement of any other kind and
 * before the commit; a failure there fails the commit, and so every request of the batch.
 *
 * Migrations. teahouse_schema holds the version reached; each step runs in one transaction with
 * its new version, under an advisory lock, so that two servers starting together migrate once.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "migrate.h"
#include "store_key.h"
#include "store_pg.h"

#define PG_MIGRATE_LOCK 0x7465616d  /* the advisory lock taken while migrating ("team") */
#define PG_SERVER_LOCK 0x73657276   /* held by the one server writing the database ("serv") */

const migrate_step *migrate_builtin_pg(size_t *count); /* generated from migrations/pg/ */

/* ---- Parameters and results ---- */

static const char *next_number(pg_params *p, int64_t value)
{
    snprintf(p->numbers[p->n], sizeof p->numbers[0], "%" PRId64, value);
    return p->numbers[p->n];
}

static void push(pg_params *p, const char *value, int length, int format)
{
    if (p->n >= PG_PARAMS_MAX)
        abort(); /* a statement with more parameters than this is a bug in this file's callers */
    p->values[p->n] = value;
    p->lengths[p->n] = length;
    p->formats[p->n] = format;
    p->n++;
}

void pg_int(pg_params *p, int64_t value)
{
    push(p, next_number(p, value), 0, 0);
}

void pg_text(pg_params *p, const char *text)
{
    push(p, text, 0, 0);
}

void pg_id_or_null(pg_params *p, int64_t id)
{
    if (id != 0) /* the adjustments account is -1 */
        pg_int(p, id);
    else
        pg_null(p);
}

void pg_null(pg_params *p)
{
    push(p, NULL, 0, 0);
}

void pg_bytes(pg_params *p, const unsigned char *bytes, int length)
{
    push(p, (const char *)bytes, length, 1);
}

void pg_bool(pg_params *p, bool value)
{
    push(p, value ? "true" : "false", 0, 0);
}

int64_t pg_get_int(const PGresult *r, int row, int column)
{
    if (PQgetisnull(r, row, column))
        return 0;
    const char *text = PQgetvalue(r, row, column);
    if (text[0] == 't' || text[0] == 'f') /* a boolean */
        return text[0] == 't';
    return strtoll(text, NULL, 10);
}

bool pg_is_null(const PGresult *r, int row, int column)
{
    return PQgetisnull(r, row, column) != 0;
}

void pg_get_text(char *out, size_t cap, const PGresult *r, int row, int column)
{
    snprintf(out, cap, "%s", PQgetisnull(r, row, column) ? "" : PQgetvalue(r, row, column));
}

/* ---- Errors ---- */

static store_status status_of_state(const char *state)
{
    if (state == NULL || strlen(state) != 5)
        return STORE_IO;
    if (!strcmp(state, "23505"))
        return STORE_CONFLICT;
    if (!strncmp(state, "23", 2) || !strncmp(state, "22", 2))
        return STORE_INVALID;
    if (!strncmp(state, "53", 2))
        return STORE_FULL;
    if (!strncmp(state, "08", 2) || !strncmp(state, "57", 2) || !strncmp(state, "58", 2))
        return STORE_IO;
    if (!strncmp(state, "40", 2) || !strcmp(state, "55P03"))
        return STORE_BUSY;
    if (!strncmp(state, "XX", 2))
        return STORE_CORRUPT;
    if (!strcmp(state, "25006"))
        return STORE_READONLY;
    return STORE_INTERNAL;
}

/* libpq's message without its trailing newline. */
static void trimmed(char *out, size_t cap, const char *message)
{
    snprintf(out, cap, "%s", message ? message : "");
    size_t len = strlen(out);
    while (len > 0 && (out[len - 1] == '\n' || out[len - 1] == ' '))
        out[--len] = '\0';
}

store_status store_pg_conn_fail(store_pg *q, PGconn *conn, const char *doing, store_error *error)
{
    char message[256];
    trimmed(message, sizeof message, conn ? PQerrorMessage(conn) : "out of memory");
    return store_error_set(error, STORE_IO, "PostgreSQL %s, %s: %s", q->shown, doing, message);
}

/* The name of sql's prepared statement, preparing it first if need be; NULL to run it unprepared
 * (the connection's table of them is full, or preparing failed: then running it says why). */
static const char *prepared_name(store_pg *q, const char *sql, const pg_params *p, char name[16])
{
    int i = 0;
    while (i < q->n_prepared && q->prepared[i] != sql)
        i++;
    snprintf(name, 16, "s%d", i);
    if (i < q->n_prepared)
        return name;
    if (i >= PG_PREPARED_MAX || q->aborted)
        return NULL;
    PGresult *r = PQprepare(q->conn, name, sql, p ? p->n : 0, NULL);
    const bool ok = r != NULL && PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    if (!ok)
        return NULL;
    q->prepared[q->n_prepared++] = sql;
    return name;
}

static PGresult *run(store_pg *q, const char *sql, const pg_params *p, bool prepare, const char *doing,
                     store_error *error)
{
    if (q->conn == NULL || q->lost) {
        store_error_set(error, STORE_IO, "PostgreSQL %s, %s: the connection is closed.", q->shown, doing);
        return NULL;
    }
    if (q->n_pending > 0 && !q->flushing && !store_pg_flush_actions(q, error))
        return NULL;
    char name_buf[16];
    const char *name = prepare ? prepared_name(q, sql, p, name_buf) : NULL;
    PGresult *r = name ? PQexecPrepared(q->conn, name, p ? p->n : 0, p ? p->values : NULL, p ? p->lengths : NULL,
                                        p ? p->formats : NULL, 0)
                       : PQexecParams(q->conn, sql, p ? p->n : 0, NULL, p ? p->values : NULL,
                                      p ? p->lengths : NULL, p ? p->formats : NULL, 0);
    ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
        const char *changed = PQcmdTuples(r);
        if (changed[0] != '\0' && strcmp(changed, "0") != 0 && strncmp(sql, "SELECT", 6) != 0)
            q->writes++;
        return r;
    }
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    char message[256];
    trimmed(message, sizeof message, r ? PQresultErrorMessage(r) : PQerrorMessage(q->conn));
    if (PQstatus(q->conn) != CONNECTION_OK)
        q->lost = true;
    else
        q->aborted = q->in_transaction;
    store_error_set(error, q->lost ? STORE_IO : status_of_state(state), "PostgreSQL %s, %s: %s", q->shown, doing,
                    message);
    PQclear(r);
    return NULL;
}

PGresult *store_pg_run(store_pg *q, const char *sql, const pg_params *p, const char *doing, store_error *error)
{
    return run(q, sql, p, true, doing, error);
}

PGresult *store_pg_run_once(store_pg *q, const char *sql, const pg_params *p, const char *doing, store_error *error)
{
    return run(q, sql, p, false, doing, error);
}

long store_pg_exec(store_pg *q, const char *sql, const pg_params *p, const char *doing, store_error *error)
{
    PGresult *r = store_pg_run(q, sql, p, doing, error);
    if (r == NULL)
        return -1;
    long changed = strtol(PQcmdTuples(r), NULL, 10);
    PQclear(r);
    return changed;
}

/* ---- The connection ---- */

bool store_pg_is_uri(const char *path)
{
    return path != NULL && (!strncmp(path, "postgresql://", 13) || !strncmp(path, "postgres://", 11));
}

/* The URI as shown in messages: "postgresql://user@host/db", any password left out. */
static char *shown_uri(const char *uri)
{
    char *shown = strdup(uri);
    if (shown == NULL)
        return NULL;
    char *start = strstr(shown, "://");
    char *at = start ? strchr(start + 3, '@') : NULL;
    char *colon = start ? strchr(start + 3, ':') : NULL;
    if (at != NULL && colon != NULL && colon < at)
        memmove(colon, at, strlen(at) + 1);
    return shown;
}

static bool connect_db(store_pg *q, store_error *error)
{
    if (q->conn != NULL)
        PQfinish(q->conn);
    q->conn = PQconnectdb(q->uri);
    q->n_prepared = 0;
    q->lost = false;
    q->in_transaction = false;
    if (q->conn == NULL || PQstatus(q->conn) != CONNECTION_OK) {
        store_pg_conn_fail(q, q->conn, "connecting", error);
        PQfinish(q->conn);
        q->conn = NULL;
        return false;
    }
    /* What the store promises a caller is on disk when it is answered: never weaken that here. */
    if (store_pg_exec(q, "SET synchronous_commit = on", NULL, "configuring the connection", error) < 0 ||
        store_pg_exec(q, "SET client_min_messages = warning", NULL, "configuring the connection", error) < 0)
        return false;
    if (!q->serving)
        return true;
    pg_params lock = {0};
    pg_int(&lock, PG_SERVER_LOCK);
    /* A node of several (a connection naming its node, server/cluster/) shares the database under
     * a lease per table instead: no lock. CASE evaluates the lock only for a server alone. */
    PGresult *r = store_pg_run(q,
                               "SELECT CASE WHEN coalesce(current_setting('teahouse.node', true), '') <> ''"
                               " THEN true ELSE pg_try_advisory_lock($1) END",
                               &lock, "taking the server's lock", error);
    const bool held = r != NULL && pg_get_int(r, 0, 0) != 0;
    PQclear(r);
    if (r != NULL && !held)
        store_error_set(error, STORE_BUSY, "Another teahouse is serving PostgreSQL %s; stop it first.", q->shown);
    return held;
}

bool store_pg_connect(store_pg *q, const char *uri, store_error *error)
{
    if ((q->uri = strdup(uri)) == NULL || (q->shown = shown_uri(uri)) == NULL) {
        store_error_set(error, STORE_INTERNAL, "Out of memory connecting to PostgreSQL.");
        return false;
    }
    q->options = store_options_default();
    return connect_db(q, error);
}

void store_pg_disconnect(store_pg *q)
{
    PQfinish(q->conn);
    q->conn = NULL;
    free(q->uri);
    free(q->shown);
    q->uri = q->shown = NULL;
}

/* ---- Transactions ---- */

static bool pg_begin(void *b, bool writes, store_error *error)
{
    store_pg *q = b;
    if ((q->conn == NULL || q->lost || PQstatus(q->conn) != CONNECTION_OK) && !connect_db(q, error))
        return false;
    q->aborted = false;
    q->writes = 0;
    const char *sql = writes ? "BEGIN ISOLATION LEVEL READ COMMITTED" : "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY";
    if (store_pg_exec(q, sql, NULL, "beginning a transaction", error) < 0)
        return false;
    q->in_transaction = true;
    return true;
}

static bool pg_commit(void *b, store_error *error)
{
    store_pg *q = b;
    long rc = store_pg_exec(q, "COMMIT", NULL, "committing", error);
    q->in_transaction = false;
    return rc >= 0;
}

static void pg_rollback(void *b)
{
    store_pg *q = b;
    store_pg_hands_forget(q);
    if (q->in_transaction && !q->lost) {
        store_error ignored;
        store_pg_exec(q, "ROLLBACK", NULL, "rolling back", &ignored);
    }
    q->in_transaction = false;
    q->aborted = false;
}

static void pg_mark(void *b)
{
    store_pg *q = b;
    q->writes_mark = q->writes;
}

static store_undo pg_undo(void *b)
{
    store_pg *q = b;
    if (q->lost) {
        q->in_transaction = false;
        store_pg_hands_forget(q);
        return STORE_UNDO_LOST;
    }
    return q->aborted || q->writes != q->writes_mark ? STORE_UNDO_BATCH : STORE_UNDO_NONE;
}

/* ---- Migrations ---- */

static store_status schema_version(store_pg *q, int *version, store_error *error)
{
    if (store_pg_exec(q, "CREATE TABLE IF NOT EXISTS teahouse_schema (version integer NOT NULL)", NULL,
                      "reading the schema's version", error) < 0)
        return error->status;
    PGresult *r = store_pg_run(q, "SELECT max(version) FROM teahouse_schema", NULL, "reading the schema's version",
                               error);
    if (r == NULL)
        return error->status;
    *version = (int)pg_get_int(r, 0, 0);
    PQclear(r);
    return STORE_OK;
}

static store_status apply_step(store_pg *q, const migrate_step *step, store_error *error)
{
    char doing[128];
    snprintf(doing, sizeof doing, "applying migration %04d_%s", step->version, step->name);
    if (store_pg_exec(q, "BEGIN", NULL, doing, error) < 0)
        return error->status;
    /* A step's text holds several statements and no value: the simple protocol runs it whole. */
    PGresult *r = PQexec(q->conn, step->sql);
    bool ok = r != NULL && PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok) {
        char message[256];
        trimmed(message, sizeof message, r ? PQresultErrorMessage(r) : PQerrorMessage(q->conn));
        store_error_set(error, STORE_INTERNAL, "PostgreSQL %s, %s: %s", q->shown, doing, message);
    }
    PQclear(r);
    pg_params p = {0};
    pg_int(&p, step->version);
    if (ok && (store_pg_exec(q, "DELETE FROM teahouse_schema", NULL, doing, error) < 0 ||
               store_pg_exec(q, "INSERT INTO teahouse_schema (version) VALUES ($1)", &p, doing, error) < 0 ||
               store_pg_exec(q, "COMMIT", NULL, doing, error) < 0))
        ok = false;
    if (!ok) {
        store_error ignored;
        store_pg_exec(q, "ROLLBACK", NULL, doing, &ignored);
    }
    return ok ? STORE_OK : error->status;
}

static store_status migrate(store_pg *q, store_error *error)
{
    size_t count = 0;
    const migrate_step *steps = migrate_builtin_pg(&count);
    pg_params lock = {0};
    pg_int(&lock, PG_MIGRATE_LOCK);
    if (store_pg_exec(q, "SELECT pg_advisory_lock($1)", &lock, "waiting for the migrations' lock", error) < 0)
        return error->status;
    int version = 0;
    store_status status = schema_version(q, &version, error);
    /* Steps go by their numbers, which may leave gaps (0100_nodes.sql): the version recorded is
     * the number of the last step applied. */
    const int newest = count > 0 ? steps[count - 1].version : 0;
    if (status == STORE_OK && version > newest)
        status = store_error_set(error, STORE_TOO_NEW,
                                 "PostgreSQL %s is at schema version %d, newer than this teahouse knows (%d).",
                                 q->shown, version, newest);
    for (size_t i = 0; status == STORE_OK && i < count; i++)
        if (steps[i].version > version)
            status = apply_step(q, &steps[i], error);
    store_error ignored;
    store_pg_exec(q, "SELECT pg_advisory_unlock($1)", &lock, "releasing the migrations' lock", &ignored);
    return status;
}

/* ---- The ledger's key ---- */

static store_status anchor_read(store_pg *q, store_ledger_anchor *anchor, bool *found, store_error *error)
{
    memset(anchor, 0, sizeof *anchor);
    PGresult *r = store_pg_run(q, "SELECT v1_rows, v1_last_hash, keyed_at, mac FROM ledger_key WHERE id = 1", NULL,
                               "reading the ledger's key record", error);
    if (r == NULL)
        return error->status;
    *found = PQntuples(r) == 1;
    if (*found) {
        anchor->v1_rows = pg_get_int(r, 0, 0);
        pg_get_text(anchor->v1_last_hash, sizeof anchor->v1_last_hash, r, 0, 1);
        anchor->keyed_at_ms = pg_get_int(r, 0, 2);
        pg_get_text(anchor->mac, sizeof anchor->mac, r, 0, 3);
    }
    PQclear(r);
    return STORE_OK;
}

/* Writes the key record for a ledger that has no rows (a ledger on PostgreSQL is keyed from its
 * first row); the table lock keeps rows from coming meanwhile. */
static store_status anchor_now(store_pg *q, store_error *error)
{
    store_ledger_anchor anchor = {.keyed_at_ms = store_now_ms(&q->options)};
    snprintf(anchor.v1_last_hash, sizeof anchor.v1_last_hash, "%s", STORE_LEDGER_ZERO_HASH);
    store_ledger_anchor_mac(&anchor, q->ledger_key, anchor.mac);
    if (store_pg_exec(q, "BEGIN", NULL, "writing the ledger's key record", error) < 0)
        return error->status;
    PGresult *r = NULL;
    pg_params p = {0};
    pg_int(&p, anchor.v1_rows);
    pg_text(&p, anchor.v1_last_hash);
    pg_int(&p, anchor.keyed_at_ms);
    pg_text(&p, anchor.mac);
    bool ok = store_pg_exec(q, "LOCK TABLE ledger IN EXCLUSIVE MODE", NULL, "writing the ledger's key record", error) >= 0 &&
              (r = store_pg_run(q, "SELECT count(*) FROM ledger", NULL, "writing the ledger's key record", error));
    if (ok && pg_get_int(r, 0, 0) > 0) {
        store_error_set(error, STORE_CORRUPT,
                        "The ledger of %s has rows but no key record: the database was changed.", q->shown);
        ok = false;
    }
    PQclear(r);
    ok = ok &&
         store_pg_exec(q, "INSERT INTO ledger_key (id, v1_rows, v1_last_hash, keyed_at, mac) VALUES (1, $1, $2, $3, $4)",
                       &p, "writing the ledger's key record", error) >= 0 &&
         store_pg_exec(q, "COMMIT", NULL, "writing the ledger's key record", error) >= 0;
    if (!ok) {
        store_error ignored;
        store_pg_exec(q, "ROLLBACK", NULL, "writing the ledger's key record", &ignored);
    }
    return ok ? STORE_OK : error->status;
}

static store_status ledger_key(store_pg *q, store_error *error)
{
    store_ledger_anchor anchor;
    bool found = false;
    if (anchor_read(q, &anchor, &found, error) != STORE_OK)
        return error->status;
    store_status status = store_key_load(q->key_path, q->ledger_key, error);
    bool key_is_new = false;
    if (status == STORE_NOT_FOUND && found)
        return store_error_set(error, STORE_NOT_FOUND,
                               "The ledger of %s was keyed with %s, which is missing: restore that file from a backup.",
                               q->shown, q->key_path);
    if (status == STORE_NOT_FOUND) {
        error->status = STORE_OK;
        status = store_key_create(q->key_path, q->ledger_key, error);
        key_is_new = status == STORE_OK;
    }
    if (status != STORE_OK)
        return status;
    if (found && !store_ledger_anchor_valid(&anchor, q->ledger_key)) {
        sodium_memzero(q->ledger_key, sizeof q->ledger_key);
        return store_error_set(error, STORE_CORRUPT,
                               "The ledger key %s is not the key of %s (its key record does not match).", q->key_path,
                               q->shown);
    }
    if (found || anchor_now(q, error) == STORE_OK)
        return STORE_OK;
    if (key_is_new)
        remove(q->key_path);
    sodium_memzero(q->ledger_key, sizeof q->ledger_key);
    return error->status;
}

/* ---- Opening and closing ---- */

static void pg_close(void *b)
{
    store_pg *q = b;
    store_pg_hands_free(q);
    PQfinish(q->conn);
    q->conn = NULL;
}

static void pg_free(void *b)
{
    store_pg *q = b;
    sodium_memzero(q->ledger_key, sizeof q->ledger_key);
    free(q->key_path);
    free(q->shown);
    free(q->uri);
    free(q);
}

static const store_backend_ops pg_ops = {
    .name = "postgresql",
    .begin = pg_begin,
    .commit = pg_commit,
    .rollback = pg_rollback,
    .mark = pg_mark,
    .undo = pg_undo,
    .player_save = store_pg_player_save,
    .guest_create = store_pg_guest_create,
    .account_create = store_pg_account_create,
    .login_fetch = store_pg_login_fetch,
    .session_open = store_pg_session_open,
    .session_lookup = store_pg_session_lookup,
    .logout = store_pg_logout,
    .table_save = store_pg_table_save,
    .hand_begin = store_pg_hand_begin,
    .action_append = store_pg_action_append,
    .hand_finish = store_pg_hand_finish,
    .table_hands = store_pg_table_hands,
    .player_tables = store_pg_player_tables,
    .hand_get = store_pg_hand_get,
    .recover = store_pg_recover,
    .guests_expire = store_pg_guests_expire,
    .ledger_query = store_pg_ledger_query,
    .admin_session_open = store_pg_admin_open,
    .admin_session_lookup = store_pg_admin_lookup,
    .admin_session_close = store_pg_admin_close,
    .audit_append = store_pg_audit_append,
    .audit_list = store_pg_audit_list,
    .adjust = store_pg_adjust,
    .max_player_id = store_pg_max_player_id,
    .verify_ledger = store_pg_verify_ledger,
    .profile = store_pg_profile,
    .close = pg_close,
    .free = pg_free,
};

store *store_pg_open(uv_loop_t *loop, const char *uri, const store_options *o, store_error *error)
{
    if (o->ledger_key_path == NULL || o->ledger_key_path[0] == '\0') {
        store_error_set(error, STORE_INVALID,
                        "A PostgreSQL store needs its ledger key file named (--ledger-key FILE): there is no"
                        " database file to keep it beside.");
        return NULL;
    }
    store_pg *q = calloc(1, sizeof *q);
    if (q == NULL || (q->uri = strdup(uri)) == NULL || (q->shown = shown_uri(uri)) == NULL ||
        (q->key_path = strdup(o->ledger_key_path)) == NULL) {
        if (q != NULL)
            pg_free(q);
        store_error_set(error, STORE_INTERNAL, "Out of memory opening the store.");
        return NULL;
    }
    q->options = *o;
    q->options.ledger_key_path = NULL; /* the caller's string; q->key_path is ours */
    q->serving = true;
    if (!store_pg_hands_init(q))
        store_error_set(error, STORE_INTERNAL, "Out of memory opening the store.");
    else if (connect_db(q, error) && migrate(q, error) == STORE_OK && ledger_key(q, error) == STORE_OK)
        return store_core_new(loop, o, &pg_ops, q, &store_thread_runner, error);
    pg_close(q);
    pg_free(q);
    return NULL;
}
