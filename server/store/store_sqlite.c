/*
 * store_sqlite — the SQLite backend's connection (store_sqlite.h): opening it for store_open,
 * its transactions, the checkpointer, closing, and the helpers its other files share.
 *
 * Each request is atomic without a savepoint: the request's statements check what they can
 * before writing, and a failing statement is undone by SQLite. mark and undo tell the core what a
 * failed request left: nothing when no row changed; part of itself when rows changed (the core
 * rolls back and runs the batch again without it); everything lost when SQLite rolled the whole
 * transaction back itself (a full disk, an I/O error).
 *
 * A second thread, the checkpointer, copies the WAL back into the database file (with its fsync)
 * on a connection of its own, so that the store thread does not stop writing for it. Only when
 * the WAL grows past WAL_FOREGROUND_PAGES, because writing never pauses long enough for the
 * checkpointer to catch up, does the store thread finish a checkpoint itself, which lets the WAL
 * start again from its beginning.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "store_db.h"
#include "store_key.h"
#include "store_profile.h"
#include "store_pg.h"
#include "store_sqlite.h"
#include "store_sqlite_error.h"

#define WAL_BACKGROUND_PAGES 2000   /* the checkpointer runs each time the WAL grows by this many pages */
#define WAL_FOREGROUND_PAGES 16000  /* the store thread finishes a checkpoint itself from this size (~64 MiB) */

static const char *const sql[STMT_COUNT] = {
    [STMT_BEGIN_READ] = "BEGIN",
    [STMT_BEGIN_WRITE] = "BEGIN IMMEDIATE",
    [STMT_COMMIT] = "COMMIT",
    [STMT_ROLLBACK] = "ROLLBACK",
};

/* ---- Helpers ---- */

sqlite3_stmt *store_sqlite_stmt(store_sqlite *q, sqlite_stmt_id id, const char *text, store_error *error)
{
    if (q->stmts[id] == NULL) {
        int rc = sqlite3_prepare_v3(q->db, text, -1, SQLITE_PREPARE_PERSISTENT, &q->stmts[id], NULL);
        if (rc != SQLITE_OK) {
            store_sqlite_error(error, q->db, q->path, rc, "preparing a statement");
            return NULL;
        }
    }
    return q->stmts[id];
}

int store_sqlite_step_reset(sqlite3_stmt *stmt)
{
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : rc;
}

store_status store_sqlite_fail(const store_sqlite *q, int rc, const char *doing, store_error *error)
{
    return store_sqlite_error(error, q->db, q->path, rc, doing);
}

void store_sqlite_bind_text(sqlite3_stmt *stmt, int index, const char *text)
{
    sqlite3_bind_text(stmt, index, text, -1, SQLITE_STATIC);
}

void store_sqlite_bind_id_or_null(sqlite3_stmt *stmt, int index, int64_t id)
{
    if (id != 0) /* the adjustments account is -1 (migration 0007) */
        sqlite3_bind_int64(stmt, index, id);
    else
        sqlite3_bind_null(stmt, index);
}

void store_sqlite_column_text(char *out, size_t cap, sqlite3_stmt *stmt, int column)
{
    const unsigned char *text = sqlite3_column_text(stmt, column);
    snprintf(out, cap, "%s", text ? (const char *)text : "");
}

char *store_sqlite_seats_json(const store_seat seats[STORE_SEATS])
{
    char text[STORE_SEATS * 24 + 8];
    size_t used = 0;
    for (int i = 0; i < STORE_SEATS; i++) {
        const char *sep = i == 0 ? "[" : ",";
        if (seats[i].bot)
            used += (size_t)snprintf(text + used, sizeof text - used, "%s\"bot\"", sep);
        else if (seats[i].player_id > 0)
            used += (size_t)snprintf(text + used, sizeof text - used, "%s%" PRId64, sep, seats[i].player_id);
        else
            used += (size_t)snprintf(text + used, sizeof text - used, "%snull", sep);
    }
    snprintf(text + used, sizeof text - used, "]");
    return strdup(text);
}

bool store_sqlite_parse_seats(const unsigned char *text, store_seat seats[STORE_SEATS])
{
    json_t *array = text ? json_loads((const char *)text, 0, NULL) : NULL;
    bool ok = json_is_array(array) && json_array_size(array) == STORE_SEATS;
    for (size_t i = 0; ok && i < STORE_SEATS; i++) {
        const json_t *seat = json_array_get(array, i);
        seats[i] = (store_seat){.player_id = json_is_integer(seat) ? json_integer_value(seat) : 0,
                                .bot = json_is_string(seat)};
        ok = json_is_null(seat) || json_is_integer(seat) ||
             (json_is_string(seat) && !strcmp(json_string_value(seat), "bot"));
    }
    json_decref(array);
    return ok;
}

/* ---- Transactions ---- */

static int run_simple(store_sqlite *q, sqlite_stmt_id id, store_error *error)
{
    sqlite3_stmt *stmt = store_sqlite_stmt(q, id, sql[id], error);
    if (stmt == NULL)
        return SQLITE_ERROR;
    int rc = store_sqlite_step_reset(stmt);
    if (rc != SQLITE_OK)
        store_sqlite_error(error, q->db, q->path, rc, sql[id]);
    return rc;
}

static bool sqlite_begin(void *b, bool writes, store_error *error)
{
    return run_simple(b, writes ? STMT_BEGIN_WRITE : STMT_BEGIN_READ, error) == SQLITE_OK;
}

static void sqlite_rollback(void *b)
{
    store_sqlite *q = b;
    store_sqlite_hands_clear(q);
    if (!sqlite3_get_autocommit(q->db)) {
        store_error ignored;
        run_simple(q, STMT_ROLLBACK, &ignored);
    }
}

static bool sqlite_commit(void *b, store_error *error)
{
    return run_simple(b, STMT_COMMIT, error) == SQLITE_OK;
}

static void sqlite_mark(void *b)
{
    store_sqlite *q = b;
    q->changes_mark = sqlite3_total_changes(q->db);
}

static store_undo sqlite_undo(void *b)
{
    store_sqlite *q = b;
    if (sqlite3_get_autocommit(q->db)) {
        /* SQLite rolled the whole transaction back (disk full, I/O error). */
        store_sqlite_hands_clear(q);
        return STORE_UNDO_LOST;
    }
    return sqlite3_total_changes(q->db) != q->changes_mark ? STORE_UNDO_BATCH : STORE_UNDO_NONE;
}

/* ---- The reads (store_history.c) ---- */

static store_status sqlite_table_hands(void *b, const store_in_hands *in, store_hand_summary **out, size_t *n,
                                       store_error *error)
{
    store_sqlite *q = b;
    return store_history_hands(q->history, in->table_id, in->before, in->limit, out, n, error);
}

static store_status sqlite_hand_get(void *b, const store_in_hand_get *in, store_hand **hand,
                                    store_hand_summary *summary, store_error *error)
{
    store_sqlite *q = b;
    return store_history_hand(q->history, in->table_id, in->number, hand, summary, error);
}

static store_status sqlite_player_tables(void *b, const store_in_player_tables *in, store_played_table **out,
                                         size_t *n, store_error *error)
{
    store_sqlite *q = b;
    return store_history_player_tables(q->history, in->player_id, in->code, in->limit, out, n, error);
}

static store_status sqlite_profile(void *b, const store_in_profile *in, store_profile **out, store_error *error)
{
    store_sqlite *q = b;
    return store_profile_read(q->db, q->path, &in->query, out, error);
}

static store_status sqlite_recover(void *b, store_recovery **out, store_error *error)
{
    store_sqlite *q = b;
    return store_history_recover(q->history, out, error);
}

/* On the thread pool, over a read-only connection of its own, so that writes go on. */
static store_status sqlite_verify_ledger(void *b, store_ledger_check *check, store_error *error)
{
    const store_sqlite *q = b;
    sqlite3 *db = store_db_open_readonly(q->path, &q->options, error);
    if (db == NULL)
        return error->status;
    store_db_verify_ledger(db, q->path, q->ledger_key, q->key_path, check, error);
    sqlite3_close(db);
    return error->status;
}

/* ---- The checkpointer ---- */

/* After each commit on the store thread, with the WAL's size in pages. */
static int on_wal_commit(void *arg, sqlite3 *db, const char *name, int pages)
{
    store_sqlite *q = arg;
    if (pages < q->wal_pages_at_request) /* the WAL started again from its beginning */
        q->wal_pages_at_request = 0;
    if (pages >= WAL_FOREGROUND_PAGES) {
        sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        q->wal_pages_at_request = pages;
    } else if (pages - q->wal_pages_at_request >= WAL_BACKGROUND_PAGES) {
        /* Once per so many new pages: a page written many times is copied back once. */
        uv_mutex_lock(&q->checkpoint_lock);
        q->checkpoint_wanted = true;
        uv_cond_signal(&q->checkpoint_wake);
        uv_mutex_unlock(&q->checkpoint_lock);
        q->wal_pages_at_request = pages;
    }
    return SQLITE_OK;
}

static void checkpoint_thread(void *arg)
{
    store_sqlite *q = arg;
    for (;;) {
        uv_mutex_lock(&q->checkpoint_lock);
        while (!q->checkpoint_wanted && !q->checkpoint_stopping)
            uv_cond_wait(&q->checkpoint_wake, &q->checkpoint_lock);
        bool stop = q->checkpoint_stopping;
        q->checkpoint_wanted = false;
        uv_mutex_unlock(&q->checkpoint_lock);
        if (stop)
            break;
        /* PASSIVE: copies what no reader needs, never blocks the writer; an error here only
         * means the WAL stays longer, and the store thread's own commits report real trouble. */
        sqlite3_wal_checkpoint_v2(q->checkpoint_db, "main", SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    }
}

/* Opens the checkpointer's connection and hands checkpoints from the store's connection to it. */
static bool start_checkpointer(store_sqlite *q, store_error *error)
{
    int rc = sqlite3_open_v2(q->path, &q->checkpoint_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) {
        store_sqlite_error(error, q->checkpoint_db, q->path, rc, "opening the checkpointer's connection");
        sqlite3_close(q->checkpoint_db);
        q->checkpoint_db = NULL;
        return false;
    }
    sqlite3_busy_timeout(q->checkpoint_db, q->options.busy_timeout_ms);
    if (!store_db_configure(q->checkpoint_db, q->path, &q->options, error) ||
        uv_thread_create(&q->checkpoint_thread, checkpoint_thread, q) != 0) {
        if (error->status == STORE_OK)
            store_error_set(error, STORE_INTERNAL, "Cannot start the checkpointer thread.");
        sqlite3_close(q->checkpoint_db);
        q->checkpoint_db = NULL;
        return false;
    }
    sqlite3_wal_hook(q->db, on_wal_commit, q); /* replaces SQLite's automatic checkpoints */
    return true;
}

static void stop_checkpointer(store_sqlite *q)
{
    if (q->checkpoint_db == NULL)
        return;
    uv_mutex_lock(&q->checkpoint_lock);
    q->checkpoint_stopping = true;
    uv_cond_signal(&q->checkpoint_wake);
    uv_mutex_unlock(&q->checkpoint_lock);
    uv_thread_join(&q->checkpoint_thread);
    sqlite3_close(q->checkpoint_db);
    q->checkpoint_db = NULL;
}

/* ---- Opening and closing ---- */

/* The checkpointer's connection closes first, so that the store's, closing last, checkpoints the
 * whole WAL and removes it. */
static void sqlite_close(void *b)
{
    store_sqlite *q = b;
    stop_checkpointer(q);
    for (int i = 0; i < STMT_COUNT; i++) {
        sqlite3_finalize(q->stmts[i]);
        q->stmts[i] = NULL;
    }
    store_history_free(q->history);
    q->history = NULL;
    sqlite3_close(q->db);
    q->db = NULL;
    store_sqlite_hands_free(q);
}

static void sqlite_free(void *b)
{
    store_sqlite *q = b;
    uv_cond_destroy(&q->checkpoint_wake);
    uv_mutex_destroy(&q->checkpoint_lock);
    sodium_memzero(q->ledger_key, sizeof q->ledger_key);
    free(q->key_path);
    free(q->path);
    free(q);
}

static const store_backend_ops sqlite_ops = {
    .name = "sqlite",
    .begin = sqlite_begin,
    .commit = sqlite_commit,
    .rollback = sqlite_rollback,
    .mark = sqlite_mark,
    .undo = sqlite_undo,
    .player_save = store_sqlite_player_save,
    .guest_create = store_sqlite_guest_create,
    .account_create = store_sqlite_account_create,
    .login_fetch = store_sqlite_login_fetch,
    .session_open = store_sqlite_session_open,
    .session_lookup = store_sqlite_session_lookup,
    .logout = store_sqlite_logout,
    .table_save = store_sqlite_table_save,
    .hand_begin = store_sqlite_hand_begin,
    .action_append = store_sqlite_action_append,
    .hand_finish = store_sqlite_hand_finish,
    .table_hands = sqlite_table_hands,
    .player_tables = sqlite_player_tables,
    .hand_get = sqlite_hand_get,
    .recover = sqlite_recover,
    .guests_expire = store_sqlite_guests_expire,
    .ledger_query = store_sqlite_ledger_query,
    .admin_session_open = store_sqlite_admin_open,
    .admin_session_lookup = store_sqlite_admin_lookup,
    .admin_session_close = store_sqlite_admin_close,
    .audit_append = store_sqlite_audit_append,
    .audit_list = store_sqlite_audit_list,
    .adjust = store_sqlite_adjust,
    .profile = sqlite_profile,
    .max_player_id = store_sqlite_max_player_id,
    .verify_ledger = sqlite_verify_ledger,
    .close = sqlite_close,
    .free = sqlite_free,
};

static bool options_valid(const store_options *o, store_error *error)
{
    if (o->busy_timeout_ms < 0 || o->session_seconds <= 0 || o->max_bytes < 0 ||
        (o->durability != STORE_DURABILITY_NORMAL && o->durability != STORE_DURABILITY_FULL)) {
        store_error_set(error, STORE_INVALID, "The store options are out of range.");
        return false;
    }
    return true;
}

/* The backend on the database at path, migrated, its ledger keyed, with its checkpointer running;
 * NULL with error filled. */
static store_sqlite *backend_open(const char *path, const store_options *o, store_error *error)
{
    char key_path[4096];
    if (!store_key_path(o->ledger_key_path, path, key_path, sizeof key_path, error))
        return NULL;
    store_sqlite *q = calloc(1, sizeof *q);
    if (q == NULL || (q->path = strdup(path)) == NULL || (q->key_path = strdup(key_path)) == NULL ||
        uv_mutex_init(&q->checkpoint_lock) != 0) {
        if (q != NULL) {
            free(q->path);
            free(q->key_path);
        }
        free(q);
        store_error_set(error, STORE_INTERNAL, "Out of memory opening the store.");
        return NULL;
    }
    uv_cond_init(&q->checkpoint_wake);
    q->options = *o;
    q->options.ledger_key_path = NULL; /* the caller's string; q->key_path is ours */
    if (!store_sqlite_hands_init(q)) {
        store_error_set(error, STORE_INTERNAL, "Out of memory opening the store.");
    } else if ((q->db = store_db_open(path, o, error)) != NULL &&
               store_db_ledger_key(q->db, path, q->key_path, o, q->ledger_key, error)) {
        if ((q->history = store_history_new(q->db, q->path)) == NULL)
            store_error_set(error, STORE_INTERNAL, "Out of memory opening the store.");
        else if (start_checkpointer(q, error))
            return q;
    }
    sqlite_close(q);
    sqlite_free(q);
    return NULL;
}

store *store_open(uv_loop_t *loop, const char *path, const store_options *options, store_error *error)
{
    error->status = STORE_OK;
    error->message[0] = '\0';
    const store_options o = options ? *options : store_options_default();
    if (!options_valid(&o, error))
        return NULL;
    if (sodium_init() < 0) {
        store_error_set(error, STORE_INTERNAL, "libsodium could not start.");
        return NULL;
    }
    if (store_pg_is_uri(path))
        return store_pg_open(loop, path, &o, error);
    store_sqlite *q = backend_open(path, &o, error);
    if (q == NULL)
        return NULL;
    return store_core_new(loop, &o, &sqlite_ops, q, &store_thread_runner, error);
}

store_status store_sqlite_session_delete(store_sqlite *q, sqlite3_stmt *st, const unsigned char *token_hash,
                                         const char *doing, const char *missing, store_error *error)
{
    if (st == NULL)
        return error->status;
    sqlite3_bind_blob(st, 1, token_hash, STORE_TOKEN_HASH_BYTES, SQLITE_STATIC);
    int rc = store_sqlite_step_reset(st);
    if (rc != SQLITE_OK)
        return store_sqlite_fail(q, rc, doing, error);
    if (sqlite3_changes(q->db) == 0)
        return store_error_set(error, STORE_NOT_FOUND, "%s", missing);
    return STORE_OK;
}
