/*
 * store_sqlite — the SQLite backend of the store (store_backend.h), internal to server/store.
 * One connection, used by the store thread only (store_thread.c), spread over a file per concern:
 *
 *   store_sqlite.c          the connection and its transactions, the checkpointer, opening
 *                           (store_open) and closing, the stored form of a table's seats
 *   store_sqlite_players.c  players, accounts and sessions
 *   store_sqlite_hands.c    tables, hands, their actions and the ledger rows a hand's end writes
 *   store_history.c         the reads: recovery, a table's hand history, one hand for a replay
 *   store_db.c              the file on its own: pragmas, migrations, the ledger check, admin
 *
 * Prepared statements are made once, on first use, and reused; each file names its own SQL next
 * to the code that runs it, in a slot of the shared table below.
 */
#ifndef STORE_SQLITE_H
#define STORE_SQLITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>
#include <uv.h>

#include "store_backend.h"
#include "store_hand_cache.h"
#include "store_history.h"
#include "store_ledger.h"

typedef enum sqlite_stmt_id {
    /* store_sqlite.c */
    STMT_BEGIN_READ,
    STMT_BEGIN_WRITE,
    STMT_COMMIT,
    STMT_ROLLBACK,
    /* store_sqlite_players.c */
    STMT_GUEST_INSERT,
    STMT_PLAYER_RENAME,
    STMT_ACCOUNT_INSERT,
    STMT_ACCOUNT_FROM_GUEST,
    STMT_LOGIN_FETCH,
    STMT_SESSIONS_PURGE,
    STMT_SESSION_INSERT,
    STMT_PLAYER_SEEN,
    STMT_SESSION_LOOKUP,
    STMT_SESSION_DELETE,
    STMT_PLAYER_TOUCH,
    STMT_PLAYER_MAX_ID,
    STMT_GUESTS_STALE,
    STMT_PLAYER_SESSIONS_DELETE,
    STMT_GUEST_DELETE,
    STMT_HOSTS_GONE,
    /* store_sqlite_hands.c */
    STMT_PLAYER_EXISTS,
    STMT_TABLE_INSERT,
    STMT_TABLE_UPDATE,
    STMT_HAND_OPEN_ON_TABLE,
    STMT_HAND_INSERT,
    STMT_HAND_STATE,
    STMT_ACTION_INSERT,
    STMT_HAND_RESULT,
    STMT_LEDGER_LAST,
    STMT_PLAYER_BALANCE,
    STMT_LEDGER_INSERT,
    STMT_TABLE_GAME_STATE,
    /* store_sqlite_ledger_query.c */
    STMT_LEDGER_PAGE,                    /* and its variants, one a lead (5 more) */
    STMT_LEDGER_PAGE_LAST = STMT_LEDGER_PAGE + 5,
    STMT_LEDGER_TOTALS,                  /* and its variants: a lead, with or without the tables */
    STMT_LEDGER_TOTALS_LAST = STMT_LEDGER_TOTALS + 11,
    /* store_sqlite_admin.c */
    STMT_ADMIN_ACCOUNT,
    STMT_ADMIN_SESSIONS_PURGE,
    STMT_ADMIN_SESSION_INSERT,
    STMT_ADMIN_SESSION_LOOKUP,
    STMT_ADMIN_SESSION_DELETE,
    STMT_AUDIT_INSERT,
    STMT_AUDIT_PAGE,
    STMT_ADJUST_BOOK,
    STMT_ADJUST_HAND,
    STMT_ADJUST_TABLE,
    STMT_ADJUST_ACCOUNT,
    STMT_COUNT
} sqlite_stmt_id;

typedef struct store_sqlite {
    sqlite3 *db;
    char *path;
    store_options options;
    char *key_path;                  /* the ledger's key file */
    unsigned char ledger_key[STORE_LEDGER_KEY_BYTES];
    sqlite3_stmt *stmts[STMT_COUNT];
    store_history *history;          /* the reads, on the same connection */
    store_hand_cache hands;          /* the open hands' cache */
    int changes_mark;                /* total changes before the current request (mark, undo) */

    /* The checkpointer (store_sqlite.c). */
    uv_thread_t checkpoint_thread;
    sqlite3 *checkpoint_db;
    uv_mutex_t checkpoint_lock;
    uv_cond_t checkpoint_wake;
    bool checkpoint_wanted;
    bool checkpoint_stopping;
    int wal_pages_at_request;        /* the WAL's size when a checkpoint was last asked for */
} store_sqlite;

/* ---- Helpers (store_sqlite.c) ---- */

/* The statement in slot id, prepared from sql on first use; NULL with error filled. */
sqlite3_stmt *store_sqlite_stmt(store_sqlite *q, sqlite_stmt_id id, const char *sql, store_error *error);

/* Deletes the session row of token_hash with st, a prepared delete of players' or admins'
 * sessions (NULL: its preparation failed, error already set): STORE_NOT_FOUND with `missing`
 * when there was none; `doing` names the work in a failure. */
store_status store_sqlite_session_delete(store_sqlite *q, sqlite3_stmt *st, const unsigned char *token_hash,
                                         const char *doing, const char *missing, store_error *error);

/* Steps a statement that returns no row we need, then resets it: SQLITE_OK or the error. */
int store_sqlite_step_reset(sqlite3_stmt *stmt);

/* The error for rc while doing `doing`, with the file's name; returns its status. */
store_status store_sqlite_fail(const store_sqlite *q, int rc, const char *doing, store_error *error);

void store_sqlite_bind_text(sqlite3_stmt *stmt, int index, const char *text);
void store_sqlite_bind_id_or_null(sqlite3_stmt *stmt, int index, int64_t id); /* NULL for 0 */
void store_sqlite_column_text(char *out, size_t cap, sqlite3_stmt *stmt, int column);

/* A table's seats as stored: a JSON array of four entries, a player id, "bot" or null. */
char *store_sqlite_seats_json(const store_seat seats[STORE_SEATS]);
bool store_sqlite_parse_seats(const unsigned char *text, store_seat seats[STORE_SEATS]);

/* ---- Players, accounts, sessions (store_sqlite_players.c) ---- */

store_status store_sqlite_player_save(void *b, const store_in_player *in, int64_t *id, store_error *error);
store_status store_sqlite_guest_create(void *b, const store_in_guest *in, store_session *session, store_error *error);
store_status store_sqlite_account_create(void *b, const store_in_account *in, int64_t *id, store_error *error);
store_status store_sqlite_login_fetch(void *b, store_in_login *in, store_session *session, store_error *error);
store_status store_sqlite_session_open(void *b, const store_in_login *in, store_session *session,
                                       store_error *error);
store_status store_sqlite_session_lookup(void *b, const store_in_session *in, store_session *session,
                                         store_error *error);
store_status store_sqlite_logout(void *b, const store_in_session *in, store_error *error);
store_status store_sqlite_max_player_id(void *b, int64_t *id, store_error *error);
store_status store_sqlite_guests_expire(void *b, const store_in_expire *in, int64_t *count, store_error *error);

/* ---- Tables, hands, the ledger (store_sqlite_hands.c) ---- */

bool store_sqlite_hands_init(store_sqlite *q);   /* the cache; false when out of memory */
void store_sqlite_hands_clear(store_sqlite *q);  /* forgets the cache (after a rollback) */
void store_sqlite_hands_free(store_sqlite *q);

store_status store_sqlite_table_save(void *b, const store_in_table *in, int64_t *id, store_error *error);
store_status store_sqlite_hand_begin(void *b, const store_in_hand_begin *in, int64_t *id, store_error *error);
store_status store_sqlite_action_append(void *b, const store_in_action *in, store_error *error);
store_status store_sqlite_hand_finish(void *b, const store_in_hand_end *in, store_error *error);
/* Appends rows for hand_id at table_id to the chain (ids, balances, hashes computed here). */
store_status store_sqlite_append_ledger(store_sqlite *q, int64_t hand_id, int64_t table_id,
                                       const store_ledger_entry *entries, size_t n_entries, int64_t now,
                                       store_error *error);

/* ---- The ledger for admins (store_sqlite_ledger_query.c) ---- */

store_status store_sqlite_ledger_query(void *b, const store_in_ledger *in, store_ledger_line **rows, size_t *n,
                                       store_ledger_totals *totals, store_error *error);

/* ---- Admin sessions and the audit log (store_sqlite_admin.c) ---- */

store_status store_sqlite_admin_open(void *b, const store_in_admin_open *in, store_admin_session *session,
                                     store_error *error);
store_status store_sqlite_admin_lookup(void *b, const store_in_session *in, store_admin_session *session,
                                       store_error *error);
store_status store_sqlite_admin_close(void *b, const store_in_session *in, store_error *error);
store_status store_sqlite_audit_append(void *b, const store_in_audit *in, int64_t *id, store_error *error);
store_status store_sqlite_audit_list(void *b, const store_in_audit_list *in, store_audit_entry **entries, size_t *n,
                                     store_error *error);
store_status store_sqlite_adjust(void *b, const store_in_adjust *in, int64_t *id, store_error *error);

#endif
