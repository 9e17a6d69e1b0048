/*
 * store_pg — the PostgreSQL backend of the store (store_backend.h), internal to server/store,
 * chosen when store_open is given a postgresql:// (or postgres://) URI instead of a file. One
 * connection (libpq), used by the store thread only (store_thread.c), spread over a file per
 * concern like the SQLite backend:
 *
 *   store_pg.c          the connection, its parameters and errors, transactions, migrations
 *                       (migrations/pg/), the ledger's key record, opening and closing
 *   store_pg_players.c  players, accounts, sessions, the expiry of guests
 *   store_pg_hands.c    tables, hands, their actions and the ledger rows a hand's end writes
 *   store_pg_read.c     the reads: recovery, a table's hands, one hand, a player's tables, and
 *                       the whole-ledger check (on a connection of its own)
 *   store_pg_admin.c    admin sessions, the audit log, adjustments, the ledger for admins
 *
 * Every statement binds its values as parameters ($1, $2, …): no SQL is ever built from a value.
 * A batch is one transaction (BEGIN … COMMIT), so what a callback reports is committed
 * (synchronous_commit on: on the disk of the server, and of a synchronous standby if there is one).
 *
 * A failed statement aborts a PostgreSQL transaction, so a request never continues past one: it
 * fails, and undo says the batch must run again without it (STORE_UNDO_BATCH); a request refused
 * by its checks before it wrote anything leaves the transaction going (STORE_UNDO_NONE); a lost
 * connection loses the transaction (STORE_UNDO_LOST), and the next batch connects again.
 */
#ifndef STORE_PG_H
#define STORE_PG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libpq-fe.h>

#include "store_backend.h"
#include "store_hand_cache.h"
#include "store_ledger.h"

#define PG_PARAMS_MAX 16
#define PG_PREPARED_MAX 96  /* statements prepared on one connection at most (the rest run unprepared) */

/* An action accepted and not yet sent (store_pg_hands.c). */
typedef struct pg_action {
    int64_t hand_id;
    int64_t seq;
    int seat;
    int64_t at;
    char *action;
} pg_action;

typedef struct store_pg {
    PGconn *conn;
    char *uri;
    char *shown;                       /* the URI without its password, for messages */
    store_options options;
    char *key_path;                    /* the ledger's key file */
    unsigned char ledger_key[STORE_LEDGER_KEY_BYTES];
    bool serving;                      /* holds the server's lock (one server per database, for now) */
    bool in_transaction;
    bool aborted;                      /* a statement failed: the transaction is lost to PostgreSQL */
    bool lost;                         /* the connection broke inside the transaction */
    long writes;                       /* statements that changed rows, this transaction */
    long writes_mark;                  /* writes before the current request */
    const char *prepared[PG_PREPARED_MAX]; /* the texts prepared on this connection, named "s<index>" */
    int n_prepared;
    pg_action *pending;                /* actions accepted this transaction, sent as one statement */
    size_t n_pending, cap_pending;
    bool flushing;
    store_hand_cache hands;            /* the open hands' cache, for this transaction's checks */
} store_pg;

/* The values of one statement, as text (binary for bytea), bound as $1, $2, … in order. */
typedef struct pg_params {
    int n;
    const char *values[PG_PARAMS_MAX];
    int lengths[PG_PARAMS_MAX];
    int formats[PG_PARAMS_MAX];
    char numbers[PG_PARAMS_MAX][24];
} pg_params;

void pg_int(pg_params *p, int64_t value);
void pg_text(pg_params *p, const char *text);   /* NULL binds NULL */
void pg_id_or_null(pg_params *p, int64_t id);   /* NULL for 0 */
void pg_null(pg_params *p);
void pg_bytes(pg_params *p, const unsigned char *bytes, int length);
void pg_bool(pg_params *p, bool value);

/* Runs sql with p (NULL: none): the result (the caller PQclear's it) or NULL with error filled
 * (`doing` names the work) and the transaction marked aborted or lost. sql is a string constant:
 * it is prepared on first use and its text known by its address, so that the server parses and
 * plans it once a connection. */
PGresult *store_pg_run(store_pg *q, const char *sql, const pg_params *p, const char *doing, store_error *error);

/* As store_pg_run, never prepared: planned each time with the values of p, for the statements
 * whose conditions are switched off by a parameter ("$1 = 0 OR …"), which a plan made once for
 * every value could not serve by an index. */
PGresult *store_pg_run_once(store_pg *q, const char *sql, const pg_params *p, const char *doing, store_error *error);

/* As store_pg_run for a statement whose rows are not needed: its count of rows changed, or -1. */
long store_pg_exec(store_pg *q, const char *sql, const pg_params *p, const char *doing, store_error *error);

int64_t pg_get_int(const PGresult *r, int row, int column);     /* NULL reads as 0 */
bool pg_is_null(const PGresult *r, int row, int column);
void pg_get_text(char *out, size_t cap, const PGresult *r, int row, int column);

/* The error for a failed connection-level step (no result), with the database named. */
store_status store_pg_conn_fail(store_pg *q, PGconn *conn, const char *doing, store_error *error);

/* ---- Players, accounts, sessions (store_pg_players.c) ---- */

store_status store_pg_player_save(void *b, const store_in_player *in, int64_t *id, store_error *error);
store_status store_pg_guest_create(void *b, const store_in_guest *in, store_session *session, store_error *error);
store_status store_pg_account_create(void *b, const store_in_account *in, int64_t *id, store_error *error);
store_status store_pg_login_fetch(void *b, store_in_login *in, store_session *session, store_error *error);
store_status store_pg_session_open(void *b, const store_in_login *in, store_session *session, store_error *error);
store_status store_pg_session_lookup(void *b, const store_in_session *in, store_session *session, store_error *error);
store_status store_pg_logout(void *b, const store_in_session *in, store_error *error);
store_status store_pg_max_player_id(void *b, int64_t *id, store_error *error);
store_status store_pg_guests_expire(void *b, const store_in_expire *in, int64_t *count, store_error *error);
/* Deletes the session of token_hash from `table` (sessions or admin_sessions): STORE_NOT_FOUND
 * with `missing` when there was none. */
store_status store_pg_session_delete(store_pg *q, bool admin, const unsigned char *token_hash, const char *doing,
                                     const char *missing, store_error *error);

/* ---- Tables, hands, the ledger (store_pg_hands.c) ---- */

bool store_pg_hands_init(store_pg *q);    /* the cache; false when out of memory */
void store_pg_hands_forget(store_pg *q);  /* drops the cache and the unsent actions (a rollback) */
void store_pg_hands_free(store_pg *q);
/* Sends the actions accepted and not yet sent, in one statement; false with error filled. Every
 * statement runs it first (store_pg_run), so that what it reads or writes follows them. */
bool store_pg_flush_actions(store_pg *q, store_error *error);

store_status store_pg_table_save(void *b, const store_in_table *in, int64_t *id, store_error *error);
store_status store_pg_hand_begin(void *b, const store_in_hand_begin *in, int64_t *id, store_error *error);
store_status store_pg_action_append(void *b, const store_in_action *in, store_error *error);
store_status store_pg_hand_finish(void *b, const store_in_hand_end *in, store_error *error);
/* Appends rows for hand_id at table_id to the chain, under the ledger's transaction lock. */
store_status store_pg_append_ledger(store_pg *q, int64_t hand_id, int64_t table_id, const store_ledger_entry *entries,
                                    size_t n_entries, int64_t now, store_error *error);
/* A table's seats as stored (the same JSON array as on SQLite). */
char *store_pg_seats_json(const store_seat seats[STORE_SEATS]);
bool store_pg_parse_seats(const char *text, store_seat seats[STORE_SEATS]);

/* ---- The reads (store_pg_read.c) ---- */

store_status store_pg_recover(void *b, store_recovery **out, store_error *error);
store_status store_pg_table_hands(void *b, const store_in_hands *in, store_hand_summary **out, size_t *n,
                                  store_error *error);
store_status store_pg_hand_get(void *b, const store_in_hand_get *in, store_hand **hand, store_hand_summary *summary,
                               store_error *error);
store_status store_pg_player_tables(void *b, const store_in_player_tables *in, store_played_table **out, size_t *n,
                                    store_error *error);
store_status store_pg_verify_ledger(void *b, store_ledger_check *check, store_error *error);

/* ---- A player's profile (store_pg_profile.c) ---- */

store_status store_pg_profile(void *b, const store_in_profile *in, store_profile **out, store_error *error);

/* ---- Admin (store_pg_admin.c) ---- */

store_status store_pg_ledger_query(void *b, const store_in_ledger *in, store_ledger_line **rows, size_t *n,
                                   store_ledger_totals *totals, store_error *error);
store_status store_pg_admin_open(void *b, const store_in_admin_open *in, store_admin_session *session,
                                 store_error *error);
store_status store_pg_admin_lookup(void *b, const store_in_session *in, store_admin_session *session,
                                   store_error *error);
store_status store_pg_admin_close(void *b, const store_in_session *in, store_error *error);
store_status store_pg_audit_append(void *b, const store_in_audit *in, int64_t *id, store_error *error);
store_status store_pg_audit_list(void *b, const store_in_audit_list *in, store_audit_entry **entries, size_t *n,
                                 store_error *error);
store_status store_pg_adjust(void *b, const store_in_adjust *in, int64_t *id, store_error *error);

/* ---- Without a running store: the command line's (store.h) ---- */

/* store_admin_set on the database at uri (store_pg_admin.c). */
bool store_pg_admin_set(const char *uri, const char *name, bool is_admin, store_error *error);
/* store_ledger_verify_path on the database at uri, with the key at key_path (store_pg_read.c). */
bool store_pg_verify_path(const char *uri, const char *key_path, store_ledger_check *check, store_error *error);

/* ---- Opening (store_pg.c) ---- */

/* A connection to uri for q alone (q zeroed by the caller; its uri and shown copied, freed by
 * store_pg_disconnect), with the store's session settings; false with error filled. */
bool store_pg_connect(store_pg *q, const char *uri, store_error *error);
void store_pg_disconnect(store_pg *q);

/* Whether path names a PostgreSQL database (postgresql:// or postgres://) rather than a file. */
bool store_pg_is_uri(const char *path);

/* The store on the PostgreSQL database at uri, migrated, its ledger keyed (options' key path:
 * required, there is no file to put it beside); NULL with error filled. */
store *store_pg_open(uv_loop_t *loop, const char *uri, const store_options *options, store_error *error);

#endif
