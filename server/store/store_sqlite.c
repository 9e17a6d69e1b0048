/*
 * store_sqlite — the SQLite backend of store.h.
 *
 * One connection, owned by the store thread. The loop thread turns each request into a
 * `request` (copying its strings, JSON already serialised) and holds it until the loop is about
 * to wait for I/O (a uv_prepare handle), then hands everything made in that loop iteration to
 * the store thread at once. The store thread takes everything queued, runs it in one transaction
 * (group commit: one WAL append and, with FULL durability, one fsync for the whole batch), moves
 * the answered requests to a done list and wakes the loop through one uv_async, whose callback
 * runs the requests' callbacks in order. Prepared statements are made once and reused.
 *
 * Each request is atomic without a savepoint (which would copy every page it touches): requests
 * check what they can before writing, a failing statement is undone by SQLite, and in the rare
 * case that a request fails after writing part of itself, the transaction is rolled back and the
 * batch runs again without it (run_pass).
 *
 * Reads for players (a table's hand history) are requests like the others, in the same queue and
 * transactions, so an answer reflects every write requested before it; their SQL, and that of
 * recovery's actions, scores and nicknames, is in store_history.c.
 *
 * The store thread keeps the state of open hands (table, last action number) in a small cache,
 * so an action is one INSERT; the cache is cleared whenever a transaction is rolled back.
 *
 * Password hashing (argon2id, ~0.1 s and 64 MiB on purpose) runs on libuv's thread pool between
 * two visits to the store thread, so that logins never delay the hands being written.
 *
 * A third thread, the checkpointer, copies the WAL back into the database file (with its fsync)
 * on a connection of its own, so that the store thread does not stop writing for it. Only when
 * the WAL grows past WAL_FOREGROUND_PAGES, because writing never pauses long enough for the
 * checkpointer to catch up, does the store thread finish a checkpoint itself, which lets the WAL
 * start again from its beginning.
 *
 * Invariants: only the store thread touches the connection and the hand cache while the thread
 * runs; only the loop thread touches the held list, `closing`, `in_pool` and `open_handles`; the
 * queue, the done list and `stopping` are guarded by `lock`.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>
#include <sqlite3.h>

#include "store.h"
#include "store_db.h"
#include "store_history.h"
#include "store_ledger.h"
#include "store_sqlite_error.h"

#define BATCH_MAX 4096          /* requests in one transaction at most, to bound a batch's latency */
#define ENTRIES_MAX 64          /* ledger rows of one hand at most */
#define TOKEN_BYTES 32
#define TOKEN_HASH_BYTES 32
#define FLUSH_AT 1024           /* held requests that go to the store thread without waiting for the loop */
#define WAL_BACKGROUND_PAGES 2000   /* the checkpointer runs each time the WAL grows by this many pages */
#define WAL_FOREGROUND_PAGES 16000  /* the store thread finishes a checkpoint itself from this size (~64 MiB) */
#define TURN_SECONDS_MIN 1      /* a table's turn timer (store.h; the schema checks it too) */
#define TURN_SECONDS_MAX 3600
#define HISTORY_PAGE_MAX 100    /* hands in one answer of store_table_hands at most */

/* ---- The statements ---- */

typedef enum stmt_id {
    SQL_BEGIN_READ,
    SQL_BEGIN_WRITE,
    SQL_COMMIT,
    SQL_ROLLBACK,
    SQL_GUEST_INSERT,
    SQL_PLAYER_RENAME,
    SQL_ACCOUNT_INSERT,
    SQL_ACCOUNT_FROM_GUEST,
    SQL_LOGIN_FETCH,
    SQL_SESSIONS_PURGE,
    SQL_SESSION_INSERT,
    SQL_PLAYER_SEEN,
    SQL_SESSION_LOOKUP,
    SQL_SESSION_DELETE,
    SQL_PLAYER_EXISTS,
    SQL_TABLE_INSERT,
    SQL_TABLE_UPDATE,
    SQL_HAND_OPEN_ON_TABLE,
    SQL_HAND_INSERT,
    SQL_HAND_STATE,
    SQL_ACTION_INSERT,
    SQL_HAND_RESULT,
    SQL_LEDGER_LAST,
    SQL_PLAYER_BALANCE,
    SQL_LEDGER_INSERT,
    SQL_TABLE_GAME_STATE,
    SQL_OPEN_TABLES,
    SQL_UNFINISHED_HAND,
    SQL_COUNT
} stmt_id;

/* The statements run for every action and hand use OR FAIL: each changes one row and SQLite checks
 * every constraint before writing it, so a failure leaves nothing, and FAIL (unlike the default
 * ABORT) needs no statement journal, a copy of every page the statement touches. */
static const char *const sql_text[SQL_COUNT] = {
    [SQL_BEGIN_READ] = "BEGIN",
    [SQL_BEGIN_WRITE] = "BEGIN IMMEDIATE",
    [SQL_COMMIT] = "COMMIT",
    [SQL_ROLLBACK] = "ROLLBACK",
    [SQL_GUEST_INSERT] = "INSERT INTO players (kind, nickname, created_at, last_seen_at) VALUES ('guest', ?1, ?2, ?2)",
    [SQL_PLAYER_RENAME] = "UPDATE players SET nickname = ?2, last_seen_at = ?3 WHERE id = ?1",
    [SQL_ACCOUNT_INSERT] = "INSERT INTO players (kind, nickname, account_name, password_hash, created_at, last_seen_at)"
                           " VALUES ('account', ?1, ?1, ?2, ?3, ?3)",
    [SQL_ACCOUNT_FROM_GUEST] = "UPDATE players SET kind = 'account', account_name = ?2, password_hash = ?3,"
                               " last_seen_at = ?4 WHERE id = ?1 AND kind = 'guest'",
    [SQL_LOGIN_FETCH] = "SELECT id, password_hash, is_admin, nickname, account_name FROM players"
                        " WHERE account_name = ?1 AND kind = 'account'",
    [SQL_SESSIONS_PURGE] = "DELETE FROM sessions WHERE expires_at <= ?1",
    [SQL_SESSION_INSERT] = "INSERT INTO sessions (token_hash, player_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)",
    [SQL_PLAYER_SEEN] = "UPDATE players SET last_seen_at = ?2 WHERE id = ?1",
    [SQL_SESSION_LOOKUP] = "SELECT p.id, p.nickname, p.account_name, p.is_admin, s.expires_at"
                           " FROM sessions AS s JOIN players AS p ON p.id = s.player_id WHERE s.token_hash = ?1",
    [SQL_SESSION_DELETE] = "DELETE FROM sessions WHERE token_hash = ?1",
    [SQL_PLAYER_EXISTS] = "SELECT 1 FROM players WHERE id = ?1",
    [SQL_TABLE_INSERT] = "INSERT INTO game_tables (game, options, host_player_id, code, is_public, seats, state,"
                         " game_state, hands_played, created_at, updated_at, turn_seconds)"
                         " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?10, ?11, ?11, ?13)",
    [SQL_TABLE_UPDATE] = "UPDATE game_tables SET game = ?1, options = ?2, host_player_id = ?3, code = ?4, is_public = ?5,"
                         " seats = ?6, state = ?7, game_state = ?8, hands_played = ?10, updated_at = ?11,"
                         " turn_seconds = ?13 WHERE id = ?12",
    [SQL_HAND_OPEN_ON_TABLE] = "SELECT EXISTS (SELECT 1 FROM game_tables WHERE id = ?1),"
                               " (SELECT number FROM hands WHERE table_id = ?1 AND finished_at IS NULL LIMIT 1)",
    [SQL_HAND_INSERT] = "INSERT OR FAIL INTO hands (table_id, number, seed, deal, game_state, started_at)"
                        " VALUES (?1, ?2, ?3, ?4, ?5, ?7)",
    [SQL_HAND_STATE] = "SELECT table_id, finished_at IS NULL,"
                       " (SELECT coalesce(max(seq), 0) FROM hand_actions WHERE hand_id = ?1) FROM hands WHERE id = ?1",
    [SQL_ACTION_INSERT] = "INSERT OR FAIL INTO hand_actions (hand_id, seq, seat, action, at) VALUES (?1, ?2, ?3, ?4, ?5)",
    [SQL_HAND_RESULT] = "UPDATE OR FAIL hands SET result = ?2, finished_at = ?3 WHERE id = ?1 AND finished_at IS NULL",
    [SQL_LEDGER_LAST] = "SELECT id, hash FROM ledger ORDER BY id DESC LIMIT 1",
    [SQL_PLAYER_BALANCE] = "SELECT EXISTS (SELECT 1 FROM players WHERE id = ?1),"
                           " (SELECT balance_after FROM ledger WHERE player_id = ?1 ORDER BY id DESC LIMIT 1)",
    [SQL_LEDGER_INSERT] = "INSERT OR FAIL INTO ledger (id, table_id, hand_id, player_id, seat, units, reason, balance_after, at,"
                          " prev_hash, hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    [SQL_TABLE_GAME_STATE] = "UPDATE OR FAIL game_tables SET game_state = ?2, updated_at = ?4 WHERE id = ?1",
    /* A hand's start does not touch its table (one page less a hand): the count comes from both. */
    [SQL_OPEN_TABLES] = "SELECT id, game, options, host_player_id, code, is_public, seats, state, game_state,"
                        " max(hands_played, coalesce((SELECT max(number) FROM hands WHERE table_id = t.id), 0)),"
                        " turn_seconds FROM game_tables AS t WHERE state <> 'closed' ORDER BY id",
    [SQL_UNFINISHED_HAND] = "SELECT id, number, seed, deal, game_state FROM hands"
                            " WHERE table_id = ?1 AND finished_at IS NULL ORDER BY number LIMIT 1",
};

/* ---- Requests ---- */

typedef enum request_kind {
    REQ_PLAYER_SAVE,
    REQ_GUEST_CREATE,     /* the token is made on the loop thread; the guest and its session in one visit */
    REQ_ACCOUNT_CREATE,   /* stage 0: hash on the pool; stage 1: insert */
    REQ_LOGIN,            /* stage 0: fetch the hash; stage 1: verify on the pool; stage 2: open the session */
    REQ_SESSION_LOOKUP,
    REQ_LOGOUT,
    REQ_TABLE_SAVE,
    REQ_HAND_BEGIN,
    REQ_ACTION_APPEND,
    REQ_HAND_FINISH,
    REQ_TABLE_HANDS,      /* read-only, in turn with the writes */
    REQ_HAND_GET,         /* read-only, in turn with the writes */
    REQ_RECOVER,          /* synchronous: the caller waits on sync_done */
    REQ_VERIFY,           /* on the pool only, with its own connection */
} request_kind;

typedef struct request request;
struct request {
    request *next;
    store *s;
    request_kind kind;
    int stage;
    bool sync;
    bool sync_finished;       /* guarded by the store's lock */
    store_error error;
    union {
        store_done_cb done;
        store_id_cb id;
        store_session_cb session;
        store_verify_cb verify;
        store_hands_cb hands;
        store_hand_cb hand;
    } cb;
    void *ctx;
    uv_work_t work;

    /* What the request is about. */
    int64_t id;                                  /* player, guest, table or hand */
    char name[STORE_NAME_MAX + 1];               /* nickname or account name */
    char *password;                              /* wiped and freed once hashed or checked */
    char password_hash[crypto_pwhash_STRBYTES];
    unsigned char token_hash[TOKEN_HASH_BYTES];
    bool found;                                  /* login: the account exists */
    bool verified;                               /* login: the password is right */
    store_table table;                           /* options NULL: see json_a */
    store_hand_start hand;                       /* deal NULL: see json_a */
    store_hand_end end;                          /* JSON NULL: see json_a, json_b; entries below */
    store_ledger_entry *entries;
    int64_t seq;
    int seat;
    int64_t number;                              /* history: the hand's number, or the page's bound */
    int limit;                                   /* history: hands in a page at most */
    char *json_a;                                /* options, deal, action or last action */
    char *json_b;                                /* seats or result */
    char *json_c;                                /* game state: of the table, the hand, or the next */

    /* The answer. */
    int64_t result_id;
    store_session session;
    store_ledger_check check;
    store_recovery *recovery;
    store_hand_summary *summaries;               /* store_table_hands */
    size_t n_summaries;
    store_hand *found_hand;                      /* store_hand_get, with `summary` */
    store_hand_summary summary;
};

struct store {
    uv_loop_t *loop;
    char *path;
    store_options options;
    sqlite3 *db;
    sqlite3_stmt *stmts[SQL_COUNT];
    store_history *history;          /* store thread: the reads of hands, scores and nicknames */
    struct hand_slot *hands;         /* store thread: the open hands' cache */
    size_t hands_used;

    uv_thread_t thread;
    uv_mutex_t lock;
    uv_cond_t wake;          /* the store thread waits here for requests */
    uv_cond_t sync_done;     /* store_recover waits here */
    request *queue_head, *queue_tail;
    request *done_head, *done_tail;
    bool stopping;

    uv_thread_t checkpoint_thread;
    sqlite3 *checkpoint_db;
    uv_mutex_t checkpoint_lock;
    uv_cond_t checkpoint_wake;
    bool checkpoint_wanted;
    bool checkpoint_stopping;
    int wal_pages_at_request;        /* store thread: the WAL's size when a checkpoint was last asked for */

    request *held_head, *held_tail;  /* made in this loop iteration, not yet queued */
    int held_count;
    uv_prepare_t flush;              /* queues the held requests before the loop waits */
    uv_async_t async;
    bool closing;
    int open_handles;                /* flush and async, until their close callbacks */
    int in_pool;
    long unanswered;                 /* requests made and not yet answered: the loop stays alive */
};

static int64_t real_clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t options_now_ms(const store_options *o)
{
    return o->clock_ms ? o->clock_ms(o->clock_ctx) : real_clock_ms();
}

/* Frees what a history request read (a pass of a batch that is run again reads it anew). */
static void forget_history(request *r)
{
    store_history_summaries_free(r->summaries, r->n_summaries);
    r->summaries = NULL;
    r->n_summaries = 0;
    store_history_hand_free(r->found_hand);
    r->found_hand = NULL;
    json_decref(r->summary.game_state);
    json_decref(r->summary.result);
    memset(&r->summary, 0, sizeof r->summary);
}

static void request_free(request *r)
{
    if (r->password) {
        sodium_memzero(r->password, strlen(r->password));
        free(r->password);
    }
    sodium_memzero(r->password_hash, sizeof r->password_hash);
    free(r->entries);
    free(r->json_a);
    free(r->json_b);
    free(r->json_c);
    store_recovery_free(r->recovery);
    forget_history(r);
    free(r);
}

static store_status request_fail(request *r, store_status status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static store_status request_fail(request *r, store_status status, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(r->error.message, sizeof r->error.message, format, args);
    va_end(args);
    r->error.status = status;
    return status;
}

/* ---- Statement helpers (store thread) ---- */

/* The prepared statement, made on first use; NULL with r's error set. */
static sqlite3_stmt *prepare(store *s, request *r, stmt_id id)
{
    if (s->stmts[id] == NULL) {
        int rc = sqlite3_prepare_v3(s->db, sql_text[id], -1, SQLITE_PREPARE_PERSISTENT, &s->stmts[id], NULL);
        if (rc != SQLITE_OK) {
            store_sqlite_error(&r->error, s->db, s->path, rc, "preparing a statement");
            return NULL;
        }
    }
    return s->stmts[id];
}

/* Steps a statement that returns no row we need, then resets it: SQLITE_OK or the error. */
static int step_reset(sqlite3_stmt *stmt)
{
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : rc;
}

static store_status sql_fail(store *s, request *r, int rc, const char *doing)
{
    return store_sqlite_error(&r->error, s->db, s->path, rc, doing);
}

/* Runs one of the parameterless statements (BEGIN, COMMIT, ROLLBACK). */
static int run_simple(store *s, stmt_id id, store_error *error)
{
    sqlite3_stmt *stmt = s->stmts[id];
    if (stmt == NULL) {
        int rc = sqlite3_prepare_v3(s->db, sql_text[id], -1, SQLITE_PREPARE_PERSISTENT, &s->stmts[id], NULL);
        if (rc != SQLITE_OK) {
            store_sqlite_error(error, s->db, s->path, rc, sql_text[id]);
            return rc;
        }
        stmt = s->stmts[id];
    }
    int rc = step_reset(stmt);
    if (rc != SQLITE_OK)
        store_sqlite_error(error, s->db, s->path, rc, sql_text[id]);
    return rc;
}

static void bind_text(sqlite3_stmt *stmt, int index, const char *text)
{
    sqlite3_bind_text(stmt, index, text, -1, SQLITE_STATIC);
}

/* Binds a positive id, or NULL for 0. */
static void bind_id_or_null(sqlite3_stmt *stmt, int index, int64_t id)
{
    if (id > 0)
        sqlite3_bind_int64(stmt, index, id);
    else
        sqlite3_bind_null(stmt, index);
}

static void copy_column_text(char *out, size_t cap, sqlite3_stmt *stmt, int column)
{
    const unsigned char *text = sqlite3_column_text(stmt, column);
    snprintf(out, cap, "%s", text ? (const char *)text : "");
}

/* ---- Players, accounts and sessions (store thread) ---- */

static store_status do_player_save(store *s, request *r)
{
    const int64_t now = options_now_ms(&s->options);
    const bool create = r->id == 0;
    sqlite3_stmt *stmt = prepare(s, r, create ? SQL_GUEST_INSERT : SQL_PLAYER_RENAME);
    if (stmt == NULL)
        return r->error.status;
    if (create) {
        bind_text(stmt, 1, r->name);
        sqlite3_bind_int64(stmt, 2, now);
    } else {
        sqlite3_bind_int64(stmt, 1, r->id);
        bind_text(stmt, 2, r->name);
        sqlite3_bind_int64(stmt, 3, now);
    }
    int rc = step_reset(stmt);
    if (rc != SQLITE_OK)
        return sql_fail(s, r, rc, "saving a player");
    if (!create && sqlite3_changes(s->db) == 0)
        return request_fail(r, STORE_NOT_FOUND, "There is no player %" PRId64 ".", r->id);
    r->result_id = create ? sqlite3_last_insert_rowid(s->db) : r->id;
    return STORE_OK;
}

static store_status do_account_insert(store *s, request *r)
{
    const int64_t now = options_now_ms(&s->options);
    const bool from_guest = r->id != 0;
    sqlite3_stmt *stmt = prepare(s, r, from_guest ? SQL_ACCOUNT_FROM_GUEST : SQL_ACCOUNT_INSERT);
    if (stmt == NULL)
        return r->error.status;
    if (from_guest) {
        sqlite3_bind_int64(stmt, 1, r->id);
        bind_text(stmt, 2, r->name);
        bind_text(stmt, 3, r->password_hash);
        sqlite3_bind_int64(stmt, 4, now);
    } else {
        bind_text(stmt, 1, r->name);
        bind_text(stmt, 2, r->password_hash);
        sqlite3_bind_int64(stmt, 3, now);
    }
    int rc = step_reset(stmt);
    if (store_sqlite_status(rc) == STORE_CONFLICT)
        return request_fail(r, STORE_CONFLICT, "The name %s is taken; choose another.", r->name);
    if (rc != SQLITE_OK)
        return sql_fail(s, r, rc, "creating an account");
    if (from_guest && sqlite3_changes(s->db) == 0)
        return request_fail(r, STORE_NOT_FOUND, "There is no guest %" PRId64 " (unknown, or already an account).",
                            r->id);
    r->result_id = from_guest ? r->id : sqlite3_last_insert_rowid(s->db);
    return STORE_OK;
}

/* Login, first visit: the account's hash and details, if the account exists. */
static store_status do_login_fetch(store *s, request *r)
{
    sqlite3_stmt *stmt = prepare(s, r, SQL_LOGIN_FETCH);
    if (stmt == NULL)
        return r->error.status;
    bind_text(stmt, 1, r->name);
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
        r->found = true;
        r->session.player_id = sqlite3_column_int64(stmt, 0);
        copy_column_text(r->password_hash, sizeof r->password_hash, stmt, 1);
        r->session.is_admin = sqlite3_column_int(stmt, 2) != 0;
        copy_column_text(r->session.nickname, sizeof r->session.nickname, stmt, 3);
        copy_column_text(r->session.account_name, sizeof r->session.account_name, stmt, 4);
        rc = SQLITE_DONE;
    }
    sqlite3_reset(stmt);
    if (rc != SQLITE_DONE)
        return sql_fail(s, r, rc, "looking up an account");
    return STORE_OK;
}

/* Login, last visit: the session row (expired ones are swept on the way). */
static store_status do_session_open(store *s, request *r)
{
    const int64_t now = options_now_ms(&s->options);
    const int64_t expires = now + s->options.session_seconds * 1000;
    sqlite3_stmt *purge = prepare(s, r, SQL_SESSIONS_PURGE);
    sqlite3_stmt *insert = prepare(s, r, SQL_SESSION_INSERT);
    sqlite3_stmt *seen = prepare(s, r, SQL_PLAYER_SEEN);
    if (purge == NULL || insert == NULL || seen == NULL)
        return r->error.status;
    sqlite3_bind_int64(purge, 1, now);
    int rc = step_reset(purge);
    if (rc == SQLITE_OK) {
        sqlite3_bind_blob(insert, 1, r->token_hash, sizeof r->token_hash, SQLITE_STATIC);
        sqlite3_bind_int64(insert, 2, r->session.player_id);
        sqlite3_bind_int64(insert, 3, now);
        sqlite3_bind_int64(insert, 4, expires);
        rc = step_reset(insert);
    }
    if (rc == SQLITE_OK) {
        sqlite3_bind_int64(seen, 1, r->session.player_id);
        sqlite3_bind_int64(seen, 2, now);
        rc = step_reset(seen);
    }
    if (rc != SQLITE_OK)
        return sql_fail(s, r, rc, "opening a session");
    r->session.expires_at_ms = expires;
    return STORE_OK;
}

/* A new guest and its session (the token was made with the request): if the session cannot be
 * written, the guest's row goes with the rolled-back pass (run_pass). */
static store_status do_guest_create(store *s, request *r)
{
    if (do_player_save(s, r) != STORE_OK)
        return r->error.status;
    r->session.player_id = r->result_id;
    snprintf(r->session.nickname, sizeof r->session.nickname, "%s", r->name);
    return do_session_open(s, r);
}

static store_status do_session_lookup(store *s, request *r)
{
    sqlite3_stmt *stmt = prepare(s, r, SQL_SESSION_LOOKUP);
    if (stmt == NULL)
        return r->error.status;
    sqlite3_bind_blob(stmt, 1, r->token_hash, sizeof r->token_hash, SQLITE_STATIC);
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
        r->session.player_id = sqlite3_column_int64(stmt, 0);
        copy_column_text(r->session.nickname, sizeof r->session.nickname, stmt, 1);
        copy_column_text(r->session.account_name, sizeof r->session.account_name, stmt, 2);
        r->session.is_admin = sqlite3_column_int(stmt, 3) != 0;
        r->session.expires_at_ms = sqlite3_column_int64(stmt, 4);
    }
    sqlite3_reset(stmt);
    if (rc == SQLITE_DONE)
        return request_fail(r, STORE_NOT_FOUND, "There is no such session (unknown, or logged out); log in again.");
    if (rc != SQLITE_ROW)
        return sql_fail(s, r, rc, "looking up a session");
    if (r->session.expires_at_ms <= options_now_ms(&s->options))
        return request_fail(r, STORE_NOT_FOUND, "The session has expired; log in again.");
    return STORE_OK;
}

static store_status do_logout(store *s, request *r)
{
    sqlite3_stmt *stmt = prepare(s, r, SQL_SESSION_DELETE);
    if (stmt == NULL)
        return r->error.status;
    sqlite3_bind_blob(stmt, 1, r->token_hash, sizeof r->token_hash, SQLITE_STATIC);
    int rc = step_reset(stmt);
    if (rc != SQLITE_OK)
        return sql_fail(s, r, rc, "ending a session");
    if (sqlite3_changes(s->db) == 0)
        return request_fail(r, STORE_NOT_FOUND, "There is no such session (unknown, or already logged out).");
    return STORE_OK;
}

/* ---- The open hands' cache (store thread) ---- */

/* What an action or a hand's end checks first. The store thread keeps it for open hands, so that
 * an action is one INSERT; the cache follows the current transaction and is cleared whenever a
 * transaction is rolled back, so it never holds what the database does not. */
typedef struct hand_state {
    int64_t table_id;
    bool open;
    int64_t last_seq;
} hand_state;

typedef struct hand_slot {
    int64_t hand_id;  /* 0: never used; HAND_GONE: its hand was finished */
    int64_t table_id;
    int64_t last_seq;
} hand_slot;

#define HAND_CACHE_SLOTS 8192 /* a power of two */
#define HAND_GONE (-1)

static void hand_cache_clear(store *s)
{
    memset(s->hands, 0, HAND_CACHE_SLOTS * sizeof *s->hands);
    s->hands_used = 0;
}

/* The slot of hand_id, or the first free one after it (open addressing, linear probing). */
static hand_slot *hand_cache_slot(store *s, int64_t hand_id)
{
    size_t i = (size_t)((uint64_t)hand_id * UINT64_C(0x9e3779b97f4a7c15) >> 51) & (HAND_CACHE_SLOTS - 1);
    while (s->hands[i].hand_id != 0 && s->hands[i].hand_id != hand_id)
        i = (i + 1) & (HAND_CACHE_SLOTS - 1);
    return &s->hands[i];
}

static bool hand_cache_get(store *s, int64_t hand_id, hand_state *out)
{
    const hand_slot *slot = hand_cache_slot(s, hand_id);
    if (slot->hand_id != hand_id)
        return false;
    *out = (hand_state){.table_id = slot->table_id, .open = true, .last_seq = slot->last_seq};
    return true;
}

static void hand_cache_put(store *s, int64_t hand_id, const hand_state *hs)
{
    hand_slot *slot = hand_cache_slot(s, hand_id);
    if (slot->hand_id == 0) {
        /* Slots are not reused after a hand ends: start afresh when half are taken. */
        if (s->hands_used >= HAND_CACHE_SLOTS / 2) {
            hand_cache_clear(s);
            slot = hand_cache_slot(s, hand_id);
        }
        s->hands_used++;
    }
    *slot = (hand_slot){.hand_id = hand_id, .table_id = hs->table_id, .last_seq = hs->last_seq};
}

static void hand_cache_forget(store *s, int64_t hand_id)
{
    hand_slot *slot = hand_cache_slot(s, hand_id);
    if (slot->hand_id == hand_id)
        slot->hand_id = HAND_GONE;
}

/* ---- Tables and hands (store thread) ---- */

static store_status check_player_exists(store *s, request *r, int64_t player_id, const char *role)
{
    sqlite3_stmt *stmt = prepare(s, r, SQL_PLAYER_EXISTS);
    if (stmt == NULL)
        return r->error.status;
    sqlite3_bind_int64(stmt, 1, player_id);
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    if (rc == SQLITE_DONE)
        return request_fail(r, STORE_INVALID, "There is no player %" PRId64 " to %s.", player_id, role);
    return rc == SQLITE_ROW ? STORE_OK : sql_fail(s, r, rc, "looking up a player");
}

static store_status do_table_save(store *s, request *r)
{
    const store_table *t = &r->table;
    const bool create = t->id == 0;
    if (t->host_player_id > 0 && check_player_exists(s, r, t->host_player_id, "host the table") != STORE_OK)
        return r->error.status;
    sqlite3_stmt *stmt = prepare(s, r, create ? SQL_TABLE_INSERT : SQL_TABLE_UPDATE);
    if (stmt == NULL)
        return r->error.status;
    bind_text(stmt, 1, t->game);
    bind_text(stmt, 2, r->json_a);
    bind_id_or_null(stmt, 3, t->host_player_id);
    bind_text(stmt, 4, t->code);
    sqlite3_bind_int(stmt, 5, t->is_public);
    bind_text(stmt, 6, r->json_b);
    bind_text(stmt, 7, t->state);
    bind_text(stmt, 8, r->json_c);
    sqlite3_bind_int64(stmt, 10, t->hands_played);
    sqlite3_bind_int64(stmt, 11, options_now_ms(&s->options));
    sqlite3_bind_int(stmt, 13, t->turn_seconds);
    if (!create)
        sqlite3_bind_int64(stmt, 12, t->id);
    int rc = step_reset(stmt);
    if (rc == SQLITE_CONSTRAINT_UNIQUE)
        return request_fail(r, STORE_CONFLICT, "The code %s belongs to another open table.", t->code);
    if (rc != SQLITE_OK)
        return sql_fail(s, r, rc, "saving a table");
    if (!create && sqlite3_changes(s->db) == 0)
        return request_fail(r, STORE_NOT_FOUND, "There is no table %" PRId64 ".", t->id);
    r->result_id = create ? sqlite3_last_insert_rowid(s->db) : t->id;
    return STORE_OK;
}

static store_status do_hand_begin(store *s, request *r)
{
    const store_hand_start *h = &r->hand;
    sqlite3_stmt *open_hand = prepare(s, r, SQL_HAND_OPEN_ON_TABLE);
    sqlite3_stmt *insert = prepare(s, r, SQL_HAND_INSERT);
    if (open_hand == NULL || insert == NULL)
        return r->error.status;

    /* The table exists, and has no unfinished hand (so that recovery knows which to resume). */
    sqlite3_bind_int64(open_hand, 1, h->table_id);
    int rc = sqlite3_step(open_hand);
    const bool table_exists = rc == SQLITE_ROW && sqlite3_column_int(open_hand, 0) != 0;
    const bool hand_open = rc == SQLITE_ROW && sqlite3_column_type(open_hand, 1) != SQLITE_NULL;
    const int64_t open_number = rc == SQLITE_ROW ? sqlite3_column_int64(open_hand, 1) : 0;
    sqlite3_reset(open_hand);
    if (rc != SQLITE_ROW)
        return sql_fail(s, r, rc, "starting a hand");
    if (!table_exists)
        return request_fail(r, STORE_NOT_FOUND, "There is no table %" PRId64 ".", h->table_id);
    if (hand_open)
        return request_fail(r, STORE_CONFLICT, "Table %" PRId64 " has not finished its hand %" PRId64 ".", h->table_id,
                            open_number);

    sqlite3_bind_int64(insert, 1, h->table_id);
    sqlite3_bind_int64(insert, 2, h->number);
    sqlite3_bind_int64(insert, 3, (int64_t)h->seed); /* the same 64 bits, read back as uint64_t */
    bind_text(insert, 4, r->json_a);
    bind_text(insert, 5, r->json_c);
    sqlite3_bind_int64(insert, 7, options_now_ms(&s->options));
    rc = step_reset(insert);
    if (store_sqlite_status(rc) == STORE_CONFLICT)
        return request_fail(r, STORE_CONFLICT, "Table %" PRId64 " already has a hand %" PRId64 ".", h->table_id,
                            h->number);
    if (rc != SQLITE_OK)
        return sql_fail(s, r, rc, "starting a hand");
    r->result_id = sqlite3_last_insert_rowid(s->db);
    hand_cache_put(s, r->result_id, &(hand_state){.table_id = h->table_id, .open = true, .last_seq = 0});
    return STORE_OK;
}

static store_status read_hand_state(store *s, request *r, int64_t hand_id, hand_state *out)
{
    if (hand_cache_get(s, hand_id, out))
        return STORE_OK;
    sqlite3_stmt *stmt = prepare(s, r, SQL_HAND_STATE);
    if (stmt == NULL)
        return r->error.status;
    sqlite3_bind_int64(stmt, 1, hand_id);
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
        out->table_id = sqlite3_column_int64(stmt, 0);
        out->open = sqlite3_column_int(stmt, 1) != 0;
        out->last_seq = sqlite3_column_int64(stmt, 2);
    }
    sqlite3_reset(stmt);
    if (rc == SQLITE_DONE)
        return request_fail(r, STORE_NOT_FOUND, "There is no hand %" PRId64 ".", hand_id);
    if (rc != SQLITE_ROW)
        return sql_fail(s, r, rc, "reading a hand");
    if (!out->open)
        return request_fail(r, STORE_INVALID, "Hand %" PRId64 " is over.", hand_id);
    hand_cache_put(s, hand_id, out);
    return STORE_OK;
}

/* Appends action seq of an open hand; hs is the hand's state before it. */
static store_status insert_action(store *s, request *r, int64_t hand_id, const hand_state *hs, int64_t seq, int seat,
                                  const char *action, int64_t now)
{
    if (seq <= hs->last_seq)
        return request_fail(r, STORE_CONFLICT, "Action %" PRId64 " of hand %" PRId64 " is already recorded.", seq,
                            hand_id);
    if (seq != hs->last_seq + 1)
        return request_fail(r, STORE_INVALID,
                            "Action %" PRId64 " of hand %" PRId64 " would leave a gap: the last recorded is %" PRId64
                            ".",
                            seq, hand_id, hs->last_seq);
    sqlite3_stmt *stmt = prepare(s, r, SQL_ACTION_INSERT);
    if (stmt == NULL)
        return r->error.status;
    sqlite3_bind_int64(stmt, 1, hand_id);
    sqlite3_bind_int64(stmt, 2, seq);
    sqlite3_bind_int(stmt, 3, seat);
    bind_text(stmt, 4, action);
    sqlite3_bind_int64(stmt, 5, now);
    int rc = step_reset(stmt);
    if (rc != SQLITE_OK)
        return sql_fail(s, r, rc, "recording an action");
    hand_cache_put(s, hand_id, &(hand_state){.table_id = hs->table_id, .open = true, .last_seq = seq});
    return STORE_OK;
}

static store_status do_action_append(store *s, request *r)
{
    hand_state hs;
    if (read_hand_state(s, r, r->id, &hs) != STORE_OK)
        return r->error.status;
    return insert_action(s, r, r->id, &hs, r->seq, r->seat, r->json_a, options_now_ms(&s->options));
}

/* The player's balance before a new row: that of the player's last row, or 0. */
static store_status player_balance(store *s, request *r, int64_t player_id, int64_t *balance)
{
    sqlite3_stmt *stmt = prepare(s, r, SQL_PLAYER_BALANCE);
    if (stmt == NULL)
        return r->error.status;
    sqlite3_bind_int64(stmt, 1, player_id);
    int rc = sqlite3_step(stmt);
    const bool exists = rc == SQLITE_ROW && sqlite3_column_int(stmt, 0) != 0;
    *balance = rc == SQLITE_ROW ? sqlite3_column_int64(stmt, 1) : 0; /* NULL reads as 0 */
    sqlite3_reset(stmt);
    if (rc != SQLITE_ROW)
        return sql_fail(s, r, rc, "reading a balance");
    if (!exists)
        return request_fail(r, STORE_INVALID, "A ledger row names player %" PRId64 ", who does not exist.", player_id);
    return STORE_OK;
}

static store_status ledger_tail(store *s, request *r, int64_t *last_id, char prev_hash[STORE_HASH_HEX])
{
    sqlite3_stmt *stmt = prepare(s, r, SQL_LEDGER_LAST);
    if (stmt == NULL)
        return r->error.status;
    int rc = sqlite3_step(stmt);
    *last_id = 0;
    snprintf(prev_hash, STORE_HASH_HEX, "%s", STORE_LEDGER_ZERO_HASH);
    if (rc == SQLITE_ROW) {
        *last_id = sqlite3_column_int64(stmt, 0);
        copy_column_text(prev_hash, STORE_HASH_HEX, stmt, 1);
    }
    sqlite3_reset(stmt);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sql_fail(s, r, rc, "reading the end of the ledger");
    return STORE_OK;
}

static store_status insert_ledger_row(store *s, request *r, const store_ledger_row *row, const char *hash)
{
    sqlite3_stmt *stmt = prepare(s, r, SQL_LEDGER_INSERT);
    if (stmt == NULL)
        return r->error.status;
    sqlite3_bind_int64(stmt, 1, row->id);
    sqlite3_bind_int64(stmt, 2, row->table_id);
    sqlite3_bind_int64(stmt, 3, row->hand_id);
    bind_id_or_null(stmt, 4, row->is_bot ? 0 : row->player_id);
    sqlite3_bind_int(stmt, 5, row->seat);
    sqlite3_bind_int64(stmt, 6, row->units);
    bind_text(stmt, 7, row->reason);
    if (row->is_bot)
        sqlite3_bind_null(stmt, 8);
    else
        sqlite3_bind_int64(stmt, 8, row->balance_after);
    sqlite3_bind_int64(stmt, 9, row->at_ms);
    bind_text(stmt, 10, row->prev_hash);
    bind_text(stmt, 11, hash);
    int rc = step_reset(stmt);
    if (rc != SQLITE_OK)
        return sql_fail(s, r, rc, "writing the ledger");
    return STORE_OK;
}

/* Appends the hand's rows to the chain, each with the player's running balance. */
static store_status append_ledger(store *s, request *r, int64_t table_id, int64_t now)
{
    int64_t last_id;
    char prev[STORE_HASH_HEX];
    if (ledger_tail(s, r, &last_id, prev) != STORE_OK)
        return r->error.status;
    for (size_t i = 0; i < r->end.n_entries; i++) {
        const store_ledger_entry *e = &r->entries[i];
        store_ledger_row row = {
            .id = last_id + 1 + (int64_t)i,
            .table_id = table_id,
            .hand_id = r->end.hand_id,
            .is_bot = e->player_id == 0,
            .player_id = e->player_id,
            .seat = e->seat,
            .units = e->units,
            .reason = e->reason,
            .at_ms = now,
            .prev_hash = prev,
        };
        if (!row.is_bot) {
            int64_t before = 0;
            if (player_balance(s, r, e->player_id, &before) != STORE_OK)
                return r->error.status;
            if (__builtin_add_overflow(before, e->units, &row.balance_after))
                return request_fail(r, STORE_INVALID, "Player %" PRId64 "'s balance would overflow.", e->player_id);
        }
        char hash[STORE_HASH_HEX];
        store_ledger_hash(&row, hash);
        if (insert_ledger_row(s, r, &row, hash) != STORE_OK)
            return r->error.status;
        memcpy(prev, hash, sizeof prev);
    }
    return STORE_OK;
}

static store_status do_hand_finish(store *s, request *r)
{
    const store_hand_end *e = &r->end;
    const int64_t now = options_now_ms(&s->options);
    hand_state hs;
    if (read_hand_state(s, r, e->hand_id, &hs) != STORE_OK)
        return r->error.status;
    if (e->last_seq > 0 && insert_action(s, r, e->hand_id, &hs, e->last_seq, e->last_seat, r->json_a, now) != STORE_OK)
        return r->error.status;

    sqlite3_stmt *result = prepare(s, r, SQL_HAND_RESULT);
    if (result == NULL)
        return r->error.status;
    sqlite3_bind_int64(result, 1, e->hand_id);
    bind_text(result, 2, r->json_b);
    sqlite3_bind_int64(result, 3, now);
    int rc = step_reset(result);
    if (rc != SQLITE_OK)
        return sql_fail(s, r, rc, "recording a hand's result");

    if (append_ledger(s, r, hs.table_id, now) != STORE_OK)
        return r->error.status;

    sqlite3_stmt *state = prepare(s, r, SQL_TABLE_GAME_STATE);
    if (state == NULL)
        return r->error.status;
    sqlite3_bind_int64(state, 1, hs.table_id);
    bind_text(state, 2, r->json_c);
    sqlite3_bind_int64(state, 4, now);
    rc = step_reset(state);
    if (rc != SQLITE_OK)
        return sql_fail(s, r, rc, "recording the table's game state");
    hand_cache_forget(s, e->hand_id);
    return STORE_OK;
}

/* ---- Recovery (store thread) ---- */

static json_t *parse_stored_json(request *r, const unsigned char *text, const char *what, int64_t id)
{
    json_error_t jerr;
    json_t *value = text ? json_loads((const char *)text, JSON_DECODE_ANY, &jerr) : NULL;
    if (value == NULL)
        request_fail(r, STORE_CORRUPT, "The %s of %" PRId64 " in the database is not JSON.", what, id);
    return value;
}

/* seats as stored: [player id, "bot" or null] × 4. */
static bool parse_seats(const unsigned char *text, store_seat seats[STORE_SEATS])
{
    json_t *array = text ? json_loads((const char *)text, 0, NULL) : NULL;
    bool ok = json_is_array(array) && json_array_size(array) == STORE_SEATS;
    for (size_t i = 0; ok && i < STORE_SEATS; i++) {
        const json_t *seat = json_array_get(array, i);
        seats[i] = (store_seat){.player_id = json_is_integer(seat) ? json_integer_value(seat) : 0,
                                .bot = json_is_string(seat)};
        ok = json_is_null(seat) || json_is_integer(seat) || (json_is_string(seat) && !strcmp(json_string_value(seat), "bot"));
    }
    json_decref(array);
    return ok;
}

static store_status read_table_row(request *r, sqlite3_stmt *stmt, store_table *t)
{
    memset(t, 0, sizeof *t);
    t->id = sqlite3_column_int64(stmt, 0);
    copy_column_text(t->game, sizeof t->game, stmt, 1);
    t->options = parse_stored_json(r, sqlite3_column_text(stmt, 2), "options of table", t->id);
    if (t->options == NULL)
        return r->error.status;
    t->host_player_id = sqlite3_column_int64(stmt, 3);
    copy_column_text(t->code, sizeof t->code, stmt, 4);
    t->is_public = sqlite3_column_int(stmt, 5) != 0;
    if (!parse_seats(sqlite3_column_text(stmt, 6), t->seats))
        return request_fail(r, STORE_CORRUPT, "The seats of table %" PRId64 " in the database are damaged.", t->id);
    copy_column_text(t->state, sizeof t->state, stmt, 7);
    t->game_state = parse_stored_json(r, sqlite3_column_text(stmt, 8), "game state of table", t->id);
    if (t->game_state == NULL)
        return r->error.status;
    t->hands_played = sqlite3_column_int64(stmt, 9);
    t->turn_seconds = sqlite3_column_int(stmt, 10);
    return STORE_OK;
}

/* The table's unfinished hand with its actions into *out, or *out NULL when there is none. */
static store_status read_unfinished_hand(store *s, request *r, int64_t table_id, store_hand **out)
{
    *out = NULL;
    sqlite3_stmt *stmt = prepare(s, r, SQL_UNFINISHED_HAND);
    if (stmt == NULL)
        return r->error.status;
    sqlite3_bind_int64(stmt, 1, table_id);
    int rc = sqlite3_step(stmt);
    if (rc != SQLITE_ROW) {
        sqlite3_reset(stmt);
        return rc == SQLITE_DONE ? STORE_OK : sql_fail(s, r, rc, "loading an unfinished hand");
    }
    store_hand *hand = calloc(1, sizeof *hand);
    if (hand == NULL) {
        sqlite3_reset(stmt);
        return request_fail(r, STORE_INTERNAL, "Out of memory while loading table %" PRId64 ".", table_id);
    }
    *out = hand;
    hand->id = sqlite3_column_int64(stmt, 0);
    hand->number = sqlite3_column_int64(stmt, 1);
    hand->seed = (uint64_t)sqlite3_column_int64(stmt, 2);
    hand->deal = parse_stored_json(r, sqlite3_column_text(stmt, 3), "deal of hand", hand->id);
    hand->game_state = hand->deal ? parse_stored_json(r, sqlite3_column_text(stmt, 4), "game state of hand", hand->id)
                                  : NULL;
    sqlite3_reset(stmt);
    if (hand->game_state == NULL)
        return r->error.status;
    return store_history_actions(s->history, hand, &r->error);
}

/* What recovery adds to a table's row: its unfinished hand, running scores and seat nicknames. */
static store_status recover_table_details(store *s, request *r, store_open_table *ot)
{
    if (read_unfinished_hand(s, r, ot->table.id, &ot->hand) != STORE_OK)
        return r->error.status;
    r->recovery->n_unfinished_hands += ot->hand != NULL;
    if (store_history_scores(s->history, ot->table.id, ot->scores, &r->error) != STORE_OK)
        return r->error.status;
    return store_history_nicknames(s->history, ot->table.seats, &r->error);
}

static store_status do_recover(store *s, request *r)
{
    store_recovery_free(r->recovery); /* from an earlier pass of the batch, rolled back */
    r->recovery = NULL;
    store_recovery *rec = calloc(1, sizeof *rec);
    sqlite3_stmt *stmt = prepare(s, r, SQL_OPEN_TABLES);
    if (rec == NULL || stmt == NULL) {
        free(rec);
        return stmt == NULL ? r->error.status : request_fail(r, STORE_INTERNAL, "Out of memory while recovering.");
    }
    r->recovery = rec; /* freed with the request unless handed over */
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (rec->n_tables == cap) {
            cap = cap ? cap * 2 : 16;
            store_open_table *grown = realloc(rec->tables, cap * sizeof *grown);
            if (grown == NULL)
                break;
            rec->tables = grown;
        }
        store_open_table *ot = &rec->tables[rec->n_tables];
        memset(ot, 0, sizeof *ot);
        store_status status = read_table_row(r, stmt, &ot->table);
        rec->n_tables++; /* counted even when half read, so that its options are freed */
        if (status != STORE_OK) {
            sqlite3_reset(stmt);
            return status;
        }
    }
    sqlite3_reset(stmt);
    if (rc == SQLITE_ROW)
        return request_fail(r, STORE_INTERNAL, "Out of memory while recovering.");
    if (rc != SQLITE_DONE)
        return sql_fail(s, r, rc, "loading the open tables");
    for (size_t i = 0; i < rec->n_tables; i++)
        if (recover_table_details(s, r, &rec->tables[i]) != STORE_OK)
            return r->error.status;
    return STORE_OK;
}

/* ---- A table's history (store thread) ---- */

/* The reads run inside the batch's transaction, after the requests made before them: an answer
 * reflects every write requested earlier. A pass that is run again reads afresh. */
static store_status do_table_hands(store *s, request *r)
{
    forget_history(r);
    return store_history_hands(s->history, r->id, r->number, r->limit, &r->summaries, &r->n_summaries, &r->error);
}

static store_status do_hand_get(store *s, request *r)
{
    forget_history(r);
    return store_history_hand(s->history, r->id, r->number, &r->found_hand, &r->summary, &r->error);
}

/* ---- The batch: one transaction for everything queued (store thread) ---- */

static bool request_writes(const request *r)
{
    switch (r->kind) {
    case REQ_SESSION_LOOKUP:
    case REQ_TABLE_HANDS:
    case REQ_HAND_GET:
    case REQ_RECOVER:
        return false;
    case REQ_LOGIN:
        return r->stage == 2;
    default:
        return true;
    }
}

static store_status run_request(store *s, request *r)
{
    switch (r->kind) {
    case REQ_PLAYER_SAVE:
        return do_player_save(s, r);
    case REQ_GUEST_CREATE:
        return do_guest_create(s, r);
    case REQ_ACCOUNT_CREATE:
        return do_account_insert(s, r);
    case REQ_LOGIN:
        return r->stage == 0 ? do_login_fetch(s, r) : do_session_open(s, r);
    case REQ_SESSION_LOOKUP:
        return do_session_lookup(s, r);
    case REQ_LOGOUT:
        return do_logout(s, r);
    case REQ_TABLE_SAVE:
        return do_table_save(s, r);
    case REQ_HAND_BEGIN:
        return do_hand_begin(s, r);
    case REQ_ACTION_APPEND:
        return do_action_append(s, r);
    case REQ_HAND_FINISH:
        return do_hand_finish(s, r);
    case REQ_TABLE_HANDS:
        return do_table_hands(s, r);
    case REQ_HAND_GET:
        return do_hand_get(s, r);
    case REQ_RECOVER:
        return do_recover(s, r);
    case REQ_VERIFY:
        break;
    }
    return request_fail(r, STORE_INTERNAL, "The store thread was given a request it does not run.");
}

/* The requests from first up to (not including) end that had succeeded lose their writes. */
static void fail_succeeded(request *first, const request *end, const store_error *error)
{
    for (request *r = first; r != end; r = r->next)
        if (r->error.status == STORE_OK)
            r->error = *error;
}

static bool any_writes(const request *r)
{
    for (; r != NULL; r = r->next)
        if (r->error.status == STORE_OK && request_writes(r))
            return true;
    return false;
}

static void rollback(store *s)
{
    hand_cache_clear(s);
    if (!sqlite3_get_autocommit(s->db)) {
        store_error ignored;
        run_simple(s, SQL_ROLLBACK, &ignored);
    }
}

static void commit(store *s, request *txn_first)
{
    store_error error;
    if (run_simple(s, SQL_COMMIT, &error) == SQLITE_OK)
        return;
    rollback(s);
    fail_succeeded(txn_first, NULL, &error);
}

/* One pass over the batch in one transaction. A request that fails leaves nothing of itself:
 * its failing statement is undone by SQLite; if it had already written other rows, the pass is
 * rolled back and false returned, and the batch runs again without it (rare: the requests are
 * checked first; savepoints for every request would cost a copy of each page they touch). */
static bool run_pass(store *s, request *batch)
{
    request *txn_first = NULL; /* the first request of the open transaction, or NULL */
    for (request *r = batch; r != NULL; r = r->next) {
        if (r->error.status != STORE_OK) /* refused when it was made, or in an earlier pass */
            continue;
        if (txn_first == NULL) {
            store_error error;
            if (run_simple(s, any_writes(r) ? SQL_BEGIN_WRITE : SQL_BEGIN_READ, &error) != SQLITE_OK) {
                fail_succeeded(r, NULL, &error);
                return true;
            }
            txn_first = r;
        }
        const int changes = sqlite3_total_changes(s->db);
        if (run_request(s, r) == STORE_OK)
            continue;
        if (sqlite3_get_autocommit(s->db)) {
            /* SQLite rolled the whole transaction back (disk full, I/O error): the earlier
             * requests of it are not written either. The next request opens a new one. */
            hand_cache_clear(s);
            fail_succeeded(txn_first, r, &r->error);
            txn_first = NULL;
        } else if (sqlite3_total_changes(s->db) != changes) {
            rollback(s);
            return false;
        }
    }
    if (txn_first != NULL)
        commit(s, txn_first);
    return true;
}

static void run_batch(store *s, request *batch)
{
    while (!run_pass(s, batch))
        ;
}

/* ---- The checkpointer ---- */

/* After each commit on the store thread, with the WAL's size in pages. */
static int on_wal_commit(void *arg, sqlite3 *db, const char *name, int pages)
{
    store *s = arg;
    if (pages < s->wal_pages_at_request) /* the WAL started again from its beginning */
        s->wal_pages_at_request = 0;
    if (pages >= WAL_FOREGROUND_PAGES) {
        sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        s->wal_pages_at_request = pages;
    } else if (pages - s->wal_pages_at_request >= WAL_BACKGROUND_PAGES) {
        /* Once per so many new pages: a page written many times is copied back once. */
        uv_mutex_lock(&s->checkpoint_lock);
        s->checkpoint_wanted = true;
        uv_cond_signal(&s->checkpoint_wake);
        uv_mutex_unlock(&s->checkpoint_lock);
        s->wal_pages_at_request = pages;
    }
    return SQLITE_OK;
}

static void checkpoint_thread(void *arg)
{
    store *s = arg;
    for (;;) {
        uv_mutex_lock(&s->checkpoint_lock);
        while (!s->checkpoint_wanted && !s->checkpoint_stopping)
            uv_cond_wait(&s->checkpoint_wake, &s->checkpoint_lock);
        bool stop = s->checkpoint_stopping;
        s->checkpoint_wanted = false;
        uv_mutex_unlock(&s->checkpoint_lock);
        if (stop)
            break;
        /* PASSIVE: copies what no reader needs, never blocks the writer; an error here only
         * means the WAL stays longer, and the store thread's own commits report real trouble. */
        sqlite3_wal_checkpoint_v2(s->checkpoint_db, "main", SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    }
}

/* Opens the checkpointer's connection and hands checkpoints from the store's connection to it. */
static bool start_checkpointer(store *s, store_error *error)
{
    int rc = sqlite3_open_v2(s->path, &s->checkpoint_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) {
        store_sqlite_error(error, s->checkpoint_db, s->path, rc, "opening the checkpointer's connection");
        sqlite3_close(s->checkpoint_db);
        s->checkpoint_db = NULL;
        return false;
    }
    sqlite3_busy_timeout(s->checkpoint_db, s->options.busy_timeout_ms);
    if (!store_db_configure(s->checkpoint_db, s->path, &s->options, error) ||
        uv_thread_create(&s->checkpoint_thread, checkpoint_thread, s) != 0) {
        if (error->status == STORE_OK)
            store_error_set(error, STORE_INTERNAL, "Cannot start the checkpointer thread.");
        sqlite3_close(s->checkpoint_db);
        s->checkpoint_db = NULL;
        return false;
    }
    sqlite3_wal_hook(s->db, on_wal_commit, s); /* replaces SQLite's automatic checkpoints */
    return true;
}

static void stop_checkpointer(store *s)
{
    uv_mutex_lock(&s->checkpoint_lock);
    s->checkpoint_stopping = true;
    uv_cond_signal(&s->checkpoint_wake);
    uv_mutex_unlock(&s->checkpoint_lock);
    uv_thread_join(&s->checkpoint_thread);
    sqlite3_close(s->checkpoint_db);
    s->checkpoint_db = NULL;
}

/* ---- The store thread ---- */

static request *take_batch(store *s)
{
    request *head = s->queue_head;
    if (head == NULL)
        return NULL;
    request *tail = head;
    for (int n = 1; tail->next != NULL && n < BATCH_MAX; n++)
        tail = tail->next;
    s->queue_head = tail->next;
    if (s->queue_head == NULL)
        s->queue_tail = NULL;
    tail->next = NULL;
    return head;
}

/* Hands the answered batch to the loop: synchronous requests to their waiter, the rest to the
 * done list and the uv_async. */
static void hand_back(store *s, request *batch)
{
    bool any_async = false;
    uv_mutex_lock(&s->lock);
    for (request *r = batch, *next; r != NULL; r = next) {
        next = r->next;
        r->next = NULL;
        if (r->sync) {
            r->sync_finished = true; /* the waiter owns r from here */
            continue;
        }
        if (s->done_tail)
            s->done_tail->next = r;
        else
            s->done_head = r;
        s->done_tail = r;
        any_async = true;
    }
    uv_cond_broadcast(&s->sync_done);
    uv_mutex_unlock(&s->lock);
    if (any_async)
        uv_async_send(&s->async);
}

static void close_database(store *s)
{
    free(s->hands);
    s->hands = NULL;
    for (int i = 0; i < SQL_COUNT; i++) {
        sqlite3_finalize(s->stmts[i]);
        s->stmts[i] = NULL;
    }
    store_history_free(s->history);
    s->history = NULL;
    sqlite3_close(s->db);
    s->db = NULL;
}

static void store_thread(void *arg)
{
    store *s = arg;
    for (;;) {
        uv_mutex_lock(&s->lock);
        while (s->queue_head == NULL && !s->stopping)
            uv_cond_wait(&s->wake, &s->lock);
        request *batch = take_batch(s);
        uv_mutex_unlock(&s->lock);
        if (batch == NULL) /* stopping, and everything queued is written */
            break;
        run_batch(s, batch);
        hand_back(s, batch);
    }
    close_database(s);
}

/* ---- The loop side: submitting, the thread pool, answering ---- */

static void store_free(store *s)
{
    uv_cond_destroy(&s->wake);
    uv_cond_destroy(&s->sync_done);
    uv_mutex_destroy(&s->lock);
    uv_cond_destroy(&s->checkpoint_wake);
    uv_mutex_destroy(&s->checkpoint_lock);
    free(s->path);
    free(s);
}

static void free_when_idle(store *s)
{
    if (s->open_handles == 0 && s->in_pool == 0)
        store_free(s);
}

/* Like a libuv request, an unanswered request keeps the loop running; an idle store does not. */
static void count_request(store *s, int delta)
{
    s->unanswered += delta;
    if (s->unanswered == 1 && delta > 0)
        uv_ref((uv_handle_t *)&s->async);
    else if (s->unanswered == 0)
        uv_unref((uv_handle_t *)&s->async);
}

static request *request_new(store *s, request_kind kind, void *ctx)
{
    if (s == NULL || s->closing)
        return NULL;
    request *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->s = s;
    r->kind = kind;
    r->ctx = ctx;
    count_request(s, +1);
    return r;
}

/* Moves the held requests to the store thread's queue and wakes it (once for all of them). */
static void flush_held(store *s)
{
    if (s->held_head == NULL)
        return;
    uv_mutex_lock(&s->lock);
    if (s->queue_tail)
        s->queue_tail->next = s->held_head;
    else
        s->queue_head = s->held_head;
    s->queue_tail = s->held_tail;
    uv_cond_signal(&s->wake);
    uv_mutex_unlock(&s->lock);
    s->held_head = s->held_tail = NULL;
    s->held_count = 0;
}

static void on_flush(uv_prepare_t *prepare)
{
    store *s = prepare->data;
    uv_prepare_stop(prepare); /* an idle store keeps no handle active */
    flush_held(s);
}

/* Holds r until the loop is about to wait, so that the requests made by all the callbacks of one
 * loop iteration reach the store thread together and share a transaction; past FLUSH_AT they go
 * at once, so that the store thread writes them while the loop makes the next ones. */
static void enqueue(store *s, request *r)
{
    if (s->held_tail)
        s->held_tail->next = r;
    else
        s->held_head = r;
    s->held_tail = r;
    if (++s->held_count >= FLUSH_AT)
        flush_held(s);
    else if (!uv_is_active((uv_handle_t *)&s->flush))
        uv_prepare_start(&s->flush, on_flush);
}

static void deliver(request *r)
{
    const bool ok = r->error.status == STORE_OK;
    switch (r->kind) {
    case REQ_PLAYER_SAVE:
    case REQ_ACCOUNT_CREATE:
    case REQ_TABLE_SAVE:
    case REQ_HAND_BEGIN:
        r->cb.id(r->ctx, &r->error, ok ? r->result_id : 0);
        break;
    case REQ_GUEST_CREATE:
    case REQ_LOGIN:
    case REQ_SESSION_LOOKUP:
        r->cb.session(r->ctx, &r->error, ok ? &r->session : NULL);
        break;
    case REQ_TABLE_HANDS:
        r->cb.hands(r->ctx, &r->error, ok ? r->summaries : NULL, ok ? r->n_summaries : 0);
        break;
    case REQ_HAND_GET:
        r->cb.hand(r->ctx, &r->error, ok ? r->found_hand : NULL, ok ? &r->summary : NULL);
        break;
    case REQ_LOGOUT:
    case REQ_ACTION_APPEND:
    case REQ_HAND_FINISH:
        r->cb.done(r->ctx, &r->error);
        break;
    case REQ_VERIFY:
        r->cb.verify(r->ctx, &r->error, ok ? &r->check : NULL);
        break;
    case REQ_RECOVER:
        break;
    }
    count_request(r->s, -1);
    request_free(r);
}

static void deliver_closed(request *r)
{
    request_fail(r, STORE_CLOSED, "The store closed before the request was done.");
    deliver(r);
}

static void pool_work(uv_work_t *work);
static void pool_done(uv_work_t *work, int status);

static void to_pool(request *r)
{
    store *s = r->s;
    if (s->closing) {
        deliver_closed(r);
        return;
    }
    r->work.data = r;
    if (uv_queue_work(s->loop, &r->work, pool_work, pool_done) != 0) {
        request_fail(r, STORE_INTERNAL, "The thread pool refused the work.");
        deliver(r);
        return;
    }
    s->in_pool++;
}

static void to_store(request *r)
{
    if (r->s->closing) {
        deliver_closed(r);
        return;
    }
    enqueue(r->s, r);
}

/* A request came back from the store thread or the pool: send it on, or answer it. */
static void advance(request *r)
{
    if (r->error.status != STORE_OK) {
        deliver(r);
        return;
    }
    switch (r->kind) {
    case REQ_ACCOUNT_CREATE:
        if (r->stage++ == 0)
            to_store(r);
        else
            deliver(r);
        return;
    case REQ_LOGIN:
        if (r->stage == 0) {
            r->stage = 1;
            to_pool(r);
        } else if (r->stage == 1) {
            if (!r->verified) {
                request_fail(r, STORE_BAD_LOGIN, "Wrong account name or password.");
                deliver(r);
                return;
            }
            r->stage = 2;
            to_store(r);
        } else {
            deliver(r);
        }
        return;
    default:
        deliver(r);
        return;
    }
}

static void deliver_done(store *s)
{
    uv_mutex_lock(&s->lock);
    request *list = s->done_head;
    s->done_head = s->done_tail = NULL;
    uv_mutex_unlock(&s->lock);
    while (list != NULL) {
        request *r = list;
        list = r->next;
        r->next = NULL;
        advance(r);
    }
}

static void on_async(uv_async_t *async)
{
    deliver_done(async->data);
}

static void on_handle_closed(uv_handle_t *handle)
{
    store *s = handle->data;
    s->open_handles--;
    free_when_idle(s);
}

/* ---- Work on the thread pool: passwords and ledger checks ---- */

static void hash_password(request *r)
{
    if (crypto_pwhash_str_alg(r->password_hash, r->password, strlen(r->password), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                              crypto_pwhash_MEMLIMIT_INTERACTIVE, crypto_pwhash_ALG_ARGON2ID13) != 0)
        request_fail(r, STORE_INTERNAL, "Out of memory while hashing the password.");
}

/* A new session's token for the answer, and its hash, the only form in which it is stored. */
static void make_session_token(request *r)
{
    unsigned char raw[TOKEN_BYTES];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2base64(r->session.token, sizeof r->session.token, raw, sizeof raw,
                      sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    sodium_memzero(raw, sizeof raw);
    crypto_generichash(r->token_hash, sizeof r->token_hash, (const unsigned char *)r->session.token,
                       strlen(r->session.token), NULL, 0);
}

/* Verifies the password; for an unknown account, spends the same effort hashing it, so the answer
 * takes as long either way. On success makes the session token. */
static void check_password(request *r)
{
    const size_t len = strlen(r->password);
    if (r->found) {
        r->verified = crypto_pwhash_str_verify(r->password_hash, r->password, len) == 0;
    } else {
        unsigned char ignored[32], salt[crypto_pwhash_SALTBYTES] = {0};
        int spent = crypto_pwhash(ignored, sizeof ignored, r->password, len, salt, crypto_pwhash_OPSLIMIT_INTERACTIVE,
                                  crypto_pwhash_MEMLIMIT_INTERACTIVE, crypto_pwhash_ALG_ARGON2ID13);
        (void)spent; /* only the time it took matters */
        r->verified = false;
    }
    if (r->verified)
        make_session_token(r);
}

static void verify_in_pool(request *r)
{
    store_options o = r->s->options;
    sqlite3 *db = store_db_open_readonly(r->s->path, &o, &r->error);
    if (db == NULL)
        return;
    store_db_verify_ledger(db, r->s->path, &r->check, &r->error);
    sqlite3_close(db);
}

static void pool_work(uv_work_t *work)
{
    request *r = work->data;
    switch (r->kind) {
    case REQ_ACCOUNT_CREATE:
        hash_password(r);
        break;
    case REQ_LOGIN:
        check_password(r);
        break;
    case REQ_VERIFY:
        verify_in_pool(r);
        break;
    default:
        request_fail(r, STORE_INTERNAL, "The thread pool was given a request it does not run.");
        break;
    }
    /* The password is not needed any more: do not keep it in memory. */
    if (r->password) {
        sodium_memzero(r->password, strlen(r->password));
        free(r->password);
        r->password = NULL;
    }
}

static void pool_done(uv_work_t *work, int status)
{
    request *r = work->data;
    store *s = r->s;
    s->in_pool--;
    if (status != 0)
        deliver_closed(r);
    else
        advance(r);
    free_when_idle(s);
}

/* ---- Opening and closing ---- */

static bool options_valid(const store_options *o, store_error *error)
{
    if (o->busy_timeout_ms < 0 || o->session_seconds <= 0 || o->max_pages < 0 ||
        (o->durability != STORE_DURABILITY_NORMAL && o->durability != STORE_DURABILITY_FULL)) {
        store_error_set(error, STORE_INVALID, "The store options are out of range.");
        return false;
    }
    return true;
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
    store *s = calloc(1, sizeof *s);
    if (s == NULL || (s->path = strdup(path)) == NULL) {
        free(s);
        store_error_set(error, STORE_INTERNAL, "Out of memory opening the store.");
        return NULL;
    }
    s->loop = loop;
    s->options = o;
    s->hands = calloc(HAND_CACHE_SLOTS, sizeof *s->hands);
    s->db = s->hands ? store_db_open(path, &o, error) : NULL;
    s->history = s->db ? store_history_new(s->db, s->path) : NULL;
    if (s->history == NULL) {
        if (s->hands == NULL || s->db != NULL)
            store_error_set(error, STORE_INTERNAL, "Out of memory opening the store.");
        sqlite3_close(s->db);
        free(s->hands);
        free(s->path);
        free(s);
        return NULL;
    }
    uv_mutex_init(&s->lock);
    uv_cond_init(&s->wake);
    uv_cond_init(&s->sync_done);
    uv_mutex_init(&s->checkpoint_lock);
    uv_cond_init(&s->checkpoint_wake);
    if (!start_checkpointer(s, error)) {
        close_database(s);
        store_free(s);
        return NULL;
    }
    s->async.data = s;
    s->flush.data = s;
    if (uv_async_init(loop, &s->async, on_async) != 0) {
        store_error_set(error, STORE_INTERNAL, "Cannot set up the store's wake-up handle.");
        stop_checkpointer(s);
        close_database(s);
        store_free(s);
        return NULL;
    }
    s->open_handles = 1;
    uv_unref((uv_handle_t *)&s->async); /* until a request is made */
    uv_prepare_init(loop, &s->flush); /* cannot fail */
    s->open_handles = 2;
    if (uv_thread_create(&s->thread, store_thread, s) != 0) {
        store_error_set(error, STORE_INTERNAL, "Cannot start the store thread.");
        stop_checkpointer(s);
        close_database(s);
        uv_close((uv_handle_t *)&s->async, on_handle_closed); /* s is freed when the loop runs */
        uv_close((uv_handle_t *)&s->flush, on_handle_closed);
        return NULL;
    }
    return s;
}

void store_close(store *s)
{
    if (s == NULL || s->closing)
        return;
    s->closing = true;
    flush_held(s);
    uv_mutex_lock(&s->lock);
    s->stopping = true;
    uv_cond_signal(&s->wake);
    uv_mutex_unlock(&s->lock);
    /* The checkpointer's connection closes first, so that the store's, closing last, checkpoints
     * the whole WAL and removes it. */
    stop_checkpointer(s);
    uv_thread_join(&s->thread);
    deliver_done(s); /* everything the thread wrote is answered before we return */
    uv_close((uv_handle_t *)&s->async, on_handle_closed);
    uv_close((uv_handle_t *)&s->flush, on_handle_closed);
}

/* ---- The request functions of store.h (loop thread) ---- */

/* Queues r. One refused as it was made (error already set) is queued too: the store thread skips
 * it, and it is answered in turn, so answers keep the order of the requests. */
static bool submit(request *r)
{
    enqueue(r->s, r);
    return true;
}

static char *dump_json(const json_t *value)
{
    return value ? json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
}

/* A game state as stored: compact, keys sorted, so that equal states are equal text. */
static char *dump_state(const json_t *state)
{
    return state ? json_dumps(state, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
}

bool store_player_save(store *s, int64_t player_id, const char *nickname, store_id_cb cb, void *ctx)
{
    request *r = request_new(s, REQ_PLAYER_SAVE, ctx);
    if (r == NULL)
        return false;
    r->cb.id = cb;
    r->id = player_id;
    if (player_id < 0 || !store_text_is_clean(nickname, STORE_NAME_MAX))
        request_fail(r, STORE_INVALID, "A nickname is 1 to %d bytes of text without control characters.",
                     STORE_NAME_MAX);
    else
        snprintf(r->name, sizeof r->name, "%s", nickname);
    return submit(r);
}

bool store_guest_create(store *s, const char *nickname, store_session_cb cb, void *ctx)
{
    request *r = request_new(s, REQ_GUEST_CREATE, ctx);
    if (r == NULL)
        return false;
    r->cb.session = cb;
    if (!store_text_is_clean(nickname, STORE_NAME_MAX)) {
        request_fail(r, STORE_INVALID, "A nickname is 1 to %d bytes of text without control characters.",
                     STORE_NAME_MAX);
        return submit(r);
    }
    snprintf(r->name, sizeof r->name, "%s", nickname);
    make_session_token(r); /* a few microseconds: no need for the thread pool */
    return submit(r);
}

bool store_account_create(store *s, const char *name, const char *password, int64_t guest_id, store_id_cb cb,
                          void *ctx)
{
    request *r = request_new(s, REQ_ACCOUNT_CREATE, ctx);
    if (r == NULL)
        return false;
    r->cb.id = cb;
    r->id = guest_id;
    size_t len = password ? strnlen(password, STORE_PASSWORD_MAX + 1) : 0;
    if (guest_id < 0 || !store_text_is_clean(name, STORE_NAME_MAX))
        request_fail(r, STORE_INVALID, "An account name is 1 to %d bytes of text without control characters.",
                     STORE_NAME_MAX);
    else if (len < STORE_PASSWORD_MIN || len > STORE_PASSWORD_MAX)
        request_fail(r, STORE_INVALID, "A password is %d to %d bytes long.", STORE_PASSWORD_MIN, STORE_PASSWORD_MAX);
    else if ((r->password = strdup(password)) == NULL)
        request_fail(r, STORE_INTERNAL, "Out of memory.");
    if (r->error.status != STORE_OK)
        return submit(r); /* answered in turn, through the store thread */
    snprintf(r->name, sizeof r->name, "%s", name);
    to_pool(r);
    return true;
}

bool store_login(store *s, const char *name, const char *password, store_session_cb cb, void *ctx)
{
    request *r = request_new(s, REQ_LOGIN, ctx);
    if (r == NULL)
        return false;
    r->cb.session = cb;
    size_t len = password ? strnlen(password, STORE_PASSWORD_MAX + 1) : STORE_PASSWORD_MAX + 1;
    /* No account has such a name or password: refuse at once, as for a wrong password. */
    if (!store_text_is_clean(name, STORE_NAME_MAX) || len > STORE_PASSWORD_MAX)
        request_fail(r, STORE_BAD_LOGIN, "Wrong account name or password.");
    else if ((r->password = strdup(password)) == NULL)
        request_fail(r, STORE_INTERNAL, "Out of memory.");
    else
        snprintf(r->name, sizeof r->name, "%s", name);
    return submit(r);
}

/* Hashes a token as sessions are keyed; false if it cannot be one of ours. */
static bool hash_token(const char *token, unsigned char out[TOKEN_HASH_BYTES])
{
    if (token == NULL || strnlen(token, STORE_TOKEN_SIZE) != STORE_TOKEN_SIZE - 1)
        return false;
    crypto_generichash(out, TOKEN_HASH_BYTES, (const unsigned char *)token, STORE_TOKEN_SIZE - 1, NULL, 0);
    return true;
}

bool store_session_lookup(store *s, const char *token, store_session_cb cb, void *ctx)
{
    request *r = request_new(s, REQ_SESSION_LOOKUP, ctx);
    if (r == NULL)
        return false;
    r->cb.session = cb;
    if (!hash_token(token, r->token_hash))
        request_fail(r, STORE_NOT_FOUND, "There is no such session (unknown, or logged out); log in again.");
    return submit(r);
}

bool store_logout(store *s, const char *token, store_done_cb cb, void *ctx)
{
    request *r = request_new(s, REQ_LOGOUT, ctx);
    if (r == NULL)
        return false;
    r->cb.done = cb;
    if (!hash_token(token, r->token_hash))
        request_fail(r, STORE_NOT_FOUND, "There is no such session (unknown, or already logged out).");
    return submit(r);
}

static bool seat_ok(int seat) { return seat >= 0 && seat < STORE_SEATS; }

/* seats as stored: [player id, "bot" or null] × 4. */
static char *seats_json(const store_seat seats[STORE_SEATS])
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

static const char *table_problem(const store_table *t)
{
    if (t == NULL)
        return "The table is missing.";
    if (t->id < 0 || t->host_player_id < 0 || t->hands_played < 0)
        return "A table's ids and counts are not negative.";
    if (!store_text_is_clean(t->game, STORE_SHORT_TEXT - 1) || !store_text_is_clean(t->code, STORE_SHORT_TEXT - 1) ||
        !store_text_is_clean(t->state, STORE_SHORT_TEXT - 1))
        return "A table's game, code and state are 1 to 32 bytes of text without control characters.";
    if (!json_is_object(t->game_state))
        return "A table's game state is a JSON object.";
    if (t->options != NULL && !json_is_object(t->options))
        return "A table's options are a JSON object.";
    if (t->turn_seconds < TURN_SECONDS_MIN || t->turn_seconds > TURN_SECONDS_MAX)
        return "A table's turn timer is 1 to 3600 seconds.";
    for (int i = 0; i < STORE_SEATS; i++)
        if (t->seats[i].player_id < 0 || (t->seats[i].bot && t->seats[i].player_id != 0))
            return "A seat holds a player or a bot, not both.";
    return NULL;
}

bool store_table_save(store *s, const store_table *t, store_id_cb cb, void *ctx)
{
    request *r = request_new(s, REQ_TABLE_SAVE, ctx);
    if (r == NULL)
        return false;
    r->cb.id = cb;
    const char *problem = table_problem(t);
    if (problem != NULL) {
        request_fail(r, STORE_INVALID, "%s", problem);
        return submit(r);
    }
    r->table = *t;
    r->table.options = NULL;
    r->json_a = t->options ? dump_json(t->options) : strdup("{}");
    r->table.game_state = NULL;
    r->json_b = seats_json(t->seats);
    r->json_c = dump_state(t->game_state);
    if (r->json_a == NULL || r->json_b == NULL || r->json_c == NULL)
        request_fail(r, STORE_INTERNAL, "Out of memory.");
    return submit(r);
}

bool store_hand_begin(store *s, const store_hand_start *h, store_id_cb cb, void *ctx)
{
    request *r = request_new(s, REQ_HAND_BEGIN, ctx);
    if (r == NULL)
        return false;
    r->cb.id = cb;
    if (h == NULL || h->table_id <= 0 || h->number <= 0 || h->deal == NULL || !json_is_object(h->game_state)) {
        request_fail(r, STORE_INVALID, "A hand needs its table, a number from 1, a deal and a game state (a JSON object).");
        return submit(r);
    }
    r->hand = *h;
    r->hand.deal = NULL;
    r->hand.game_state = NULL;
    r->json_a = dump_json(h->deal);
    r->json_c = dump_state(h->game_state);
    if (r->json_a == NULL || r->json_c == NULL)
        request_fail(r, STORE_INTERNAL, "Out of memory.");
    return submit(r);
}

bool store_action_append(store *s, int64_t hand_id, int64_t seq, int seat, const json_t *action, store_done_cb cb,
                         void *ctx)
{
    request *r = request_new(s, REQ_ACTION_APPEND, ctx);
    if (r == NULL)
        return false;
    r->cb.done = cb;
    r->id = hand_id;
    r->seq = seq;
    r->seat = seat;
    if (hand_id <= 0 || seq <= 0 || !seat_ok(seat) || action == NULL)
        request_fail(r, STORE_INVALID, "An action needs its hand, a number from 1, a seat and the action.");
    else if ((r->json_a = dump_json(action)) == NULL)
        request_fail(r, STORE_INTERNAL, "Out of memory.");
    return submit(r);
}

static const char *ledger_problem(const store_ledger_entry *entries, size_t n)
{
    if (n > ENTRIES_MAX || (n > 0 && entries == NULL))
        return "A hand has at most 64 ledger rows.";
    int64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (entries[i].player_id < 0 || !seat_ok(entries[i].seat))
            return "A ledger row names a seat and a player (0 for a bot).";
        if (!store_text_is_clean(entries[i].reason, STORE_SHORT_TEXT - 1))
            return "A ledger reason is 1 to 32 bytes of text without control characters.";
        if (__builtin_add_overflow(sum, entries[i].units, &sum))
            return "The ledger rows overflow.";
    }
    return sum == 0 ? NULL : "A hand's ledger rows must sum to zero.";
}

static const char *hand_end_problem(const store_hand_end *e)
{
    if (e == NULL || e->hand_id <= 0 || e->result == NULL)
        return "A hand's end needs its hand and its result.";
    if (e->last_seq < 0 || (e->last_seq > 0 && (e->last_action == NULL || !seat_ok(e->last_seat))))
        return "The last action needs its number, seat and action (or number 0 when no action ended the hand).";
    if (!json_is_object(e->next_game_state))
        return "The table's next game state is a JSON object.";
    return ledger_problem(e->entries, e->n_entries);
}

bool store_hand_finish(store *s, const store_hand_end *e, store_done_cb cb, void *ctx)
{
    request *r = request_new(s, REQ_HAND_FINISH, ctx);
    if (r == NULL)
        return false;
    r->cb.done = cb;
    const char *problem = hand_end_problem(e);
    if (problem != NULL) {
        request_fail(r, STORE_INVALID, "%s", problem);
        return submit(r);
    }
    r->end = *e;
    r->end.last_action = NULL;
    r->end.result = NULL;
    r->end.entries = NULL;
    r->end.next_game_state = NULL;
    if (e->n_entries > 0 && (r->entries = malloc(e->n_entries * sizeof *r->entries)) != NULL)
        memcpy(r->entries, e->entries, e->n_entries * sizeof *r->entries);
    r->json_a = e->last_seq > 0 ? dump_json(e->last_action) : NULL;
    r->json_b = dump_json(e->result);
    r->json_c = dump_state(e->next_game_state);
    if ((e->n_entries > 0 && r->entries == NULL) || (e->last_seq > 0 && r->json_a == NULL) || r->json_b == NULL ||
        r->json_c == NULL)
        request_fail(r, STORE_INTERNAL, "Out of memory.");
    return submit(r);
}

bool store_recover(store *s, store_recovery **out, store_error *error)
{
    *out = NULL;
    request *r = request_new(s, REQ_RECOVER, NULL);
    if (r == NULL) {
        store_error_set(error, s && s->closing ? STORE_CLOSED : STORE_INTERNAL, "The store cannot take requests.");
        return false;
    }
    r->sync = true;
    enqueue(s, r);
    flush_held(s); /* we wait here: the loop will not reach its prepare phase */
    uv_mutex_lock(&s->lock);
    while (!r->sync_finished)
        uv_cond_wait(&s->sync_done, &s->lock);
    uv_mutex_unlock(&s->lock);
    *error = r->error;
    if (r->error.status == STORE_OK) {
        *out = r->recovery;
        r->recovery = NULL;
    }
    count_request(s, -1);
    request_free(r);
    return *out != NULL;
}

bool store_table_hands(store *s, int64_t table_id, int64_t before, int limit, store_hands_cb cb, void *ctx)
{
    request *r = request_new(s, REQ_TABLE_HANDS, ctx);
    if (r == NULL)
        return false;
    r->cb.hands = cb;
    r->id = table_id;
    r->number = before;
    r->limit = limit;
    if (limit < 1 || limit > HISTORY_PAGE_MAX || before < 0)
        request_fail(r, STORE_INVALID, "A page of hands is 1 to %d hands, numbered below a bound of 0 or more.",
                     HISTORY_PAGE_MAX);
    return submit(r);
}

bool store_hand_get(store *s, int64_t table_id, int64_t number, store_hand_cb cb, void *ctx)
{
    request *r = request_new(s, REQ_HAND_GET, ctx);
    if (r == NULL)
        return false;
    r->cb.hand = cb;
    r->id = table_id;
    r->number = number;
    return submit(r);
}

bool store_ledger_verify(store *s, store_verify_cb cb, void *ctx)
{
    request *r = request_new(s, REQ_VERIFY, ctx);
    if (r == NULL)
        return false;
    r->cb.verify = cb;
    to_pool(r);
    return true;
}
