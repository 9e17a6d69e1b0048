/*
 * store_backend — the seam inside the store between what every backend shares and what keeps the
 * data. Internal to server/store: the rooms and the lobby see only store.h.
 *
 * The shared part (the core) is the request functions of store.h (store_request.c), which check
 * every input (store_validate.c) and copy it into a typed request; the queue of requests made in
 * one turn of the loop and the group commit that runs them (store_core.c); the store thread that
 * a blocking backend runs on (store_thread.c); and password hashing on libuv's thread pool
 * (store_password.c). A backend (SQLite: store_sqlite*.c; PostgreSQL: store_pg*.c; memory:
 * store_memory.c) is a store_backend_ops: one function per kind of request, taking that kind's
 * input, plus begin, commit and rollback.
 *
 * Inputs reach a backend already checked and copied: texts within their limits, JSON as compact
 * text (game states with sorted keys), so a backend never parses what it writes nor shares a
 * json_t with the loop thread.
 *
 * Transactions. The core runs a batch (the requests of one or more turns of the loop) as one
 * transaction: begin, each request in order, commit; callbacks run only after the commit. Each
 * request is atomic: when one fails the backend says what it left behind (store_undo): nothing
 * (the transaction goes on), part of itself (the core rolls back and runs the batch again
 * without it), or the whole transaction was lost (the requests before it fail with its error).
 *
 * Runners. Who calls the backend, and on which thread, is a store_runner: the store thread
 * (store_thread.c) for a backend that blocks (SQLite, PostgreSQL), which then calls
 * verify_ledger on libuv's thread pool; or the loop thread itself (the in-memory store, which
 * also decides when answers come, for tests).
 */
#ifndef STORE_BACKEND_H
#define STORE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#include "names.h"
#include "store.h"
#include "store_kind.h"

#define STORE_TOKEN_HASH_BYTES 32     /* a session is kept as BLAKE2b-256 of its token */
#define STORE_PASSWORD_HASH_SIZE 128  /* an encoded password hash and its NUL (crypto_pwhash_STRBYTES) */
#define STORE_ENTRIES_MAX 64          /* ledger rows of one hand at most */
#define STORE_HISTORY_PAGE_MAX 100    /* hands in one answer of store_table_hands at most */
#define STORE_EXPIRE_MAX 10000        /* guests one store_guests_expire deletes at most */
#define STORE_SEEN_PRECISION_MS (3600 * 1000) /* a session lookup marks its player seen this often at most */
#define STORE_TURN_SECONDS_MIN LIMIT_TURN_SECONDS_MIN /* a table's turn timer: the house's range */
#define STORE_TURN_SECONDS_MAX LIMIT_TURN_SECONDS_MAX

/* ---- One input per kind of request ---- */

/* A new player's id comes from the core (store_core_player_id), never from the backend, so that
 * ids reserved for guests not stored yet (store_guest_reserve) are never given twice. */

typedef struct store_in_player {      /* store_player_save */
    int64_t player_id;                /* the player renamed, or the new guest's id */
    bool create;                      /* a new guest */
    char nickname[STORE_NAME_MAX + 1];
} store_in_player;

typedef struct store_in_guest {       /* store_guest_create, store_guest_keep */
    int64_t player_id;                /* reserved by the core */
    char nickname[STORE_NAME_MAX + 1];
    unsigned char token_hash[STORE_TOKEN_HASH_BYTES];
} store_in_guest;

typedef struct store_in_account {     /* store_account_create, once its password is hashed */
    char name[STORE_NAME_MAX + 1];    /* in NFC */
    names_keys keys;                  /* its look-alike keys: no two accounts share one */
    int64_t guest_id;                 /* 0: a new player, of id new_id */
    int64_t new_id;
    char *password;                   /* wiped and freed once hashed */
    char password_hash[STORE_PASSWORD_HASH_SIZE];
} store_in_account;

typedef struct store_in_login {       /* store_login: fetch, verify (pool), open the session */
    char name[STORE_NAME_MAX + 1];    /* in NFC */
    char *password;                   /* wiped and freed once checked */
    bool found;                       /* set by login_fetch: the account exists */
    char password_hash[STORE_PASSWORD_HASH_SIZE]; /* set by login_fetch */
    bool verified;
    unsigned char token_hash[STORE_TOKEN_HASH_BYTES];
} store_in_login;

typedef struct store_in_session {     /* store_session_lookup, store_logout */
    unsigned char token_hash[STORE_TOKEN_HASH_BYTES];
} store_in_session;

typedef struct store_in_table {       /* store_table_save */
    store_table table;                /* options and game_state NULL, nicknames ignored: see below */
    char *options;                    /* compact JSON object */
    char *game_state;                 /* compact JSON object, keys sorted */
} store_in_table;

typedef struct store_in_hand_begin {  /* store_hand_begin */
    int64_t table_id;
    int64_t number;
    uint64_t seed;
    char *deal;                       /* compact JSON */
    char *game_state;                 /* compact JSON object, keys sorted */
    char *options;                    /* compact JSON object, or NULL: the table's */
} store_in_hand_begin;

typedef struct store_in_action {      /* store_action_append */
    int64_t hand_id;
    int64_t seq;
    int seat;
    char *action;                     /* compact JSON */
} store_in_action;

typedef struct store_in_hand_end {    /* store_hand_finish */
    int64_t hand_id;
    int64_t last_seq;                 /* 0: no action ended the hand */
    int last_seat;
    char *last_action;                /* compact JSON, NULL when last_seq is 0 */
    char *result;                     /* compact JSON */
    store_ledger_entry *entries;      /* summing to zero, at most STORE_ENTRIES_MAX */
    size_t n_entries;
    char *next_game_state;            /* compact JSON object, keys sorted */
} store_in_hand_end;

typedef struct store_in_hands {       /* store_table_hands */
    int64_t table_id;
    int64_t before;                   /* 0: from the newest */
    int limit;                        /* 1 to STORE_HISTORY_PAGE_MAX */
} store_in_hands;

typedef struct store_in_player_tables { /* store_player_tables */
    int64_t player_id;
    char code[STORE_SHORT_TEXT];      /* "": every table */
    int limit;                        /* 1 to STORE_PLAYER_TABLES_MAX */
} store_in_player_tables;

typedef struct store_in_profile {    /* store_profile_get */
    store_profile_query query;        /* checked: limit 1 to STORE_PROFILE_PAGE_MAX, cursors >= 0 */
} store_in_profile;

typedef struct store_in_hand_get {    /* store_hand_get */
    int64_t table_id;
    int64_t number;
} store_in_hand_get;

typedef struct store_in_expire {      /* store_guests_expire */
    int64_t seen_before_ms;           /* guests last seen before this are expired */
    int limit;                        /* 1 to STORE_EXPIRE_MAX */
} store_in_expire;

typedef struct store_in_ledger {      /* store_ledger_query */
    store_ledger_filter filter;
    int64_t before;                   /* 0: from the newest */
    int limit;                        /* 1 to STORE_LEDGER_PAGE_MAX */
    bool with_totals;
} store_in_ledger;

typedef struct store_in_admin_open {  /* store_admin_session_open */
    int64_t player_id;
    int64_t seconds;
    unsigned char token_hash[STORE_TOKEN_HASH_BYTES];
    char csrf[STORE_TOKEN_SIZE];
} store_in_admin_open;

typedef struct store_in_audit {       /* store_audit_append */
    int64_t player_id;
    char action[STORE_AUDIT_ACTION_MAX + 1];
    char details[STORE_AUDIT_DETAILS_MAX + 1]; /* compact JSON object */
} store_in_audit;

typedef struct store_in_audit_list {  /* store_audit_list, store_audit_query */
    int64_t before;                   /* 0: from the newest */
    int limit;                        /* 1 to STORE_AUDIT_PAGE_MAX */
    store_audit_filter filter;
} store_in_audit_list;

typedef struct store_in_adjust {      /* store_adjust */
    int64_t admin_id;
    int64_t player_id;
    int64_t units;
    char *result;                     /* the adjustment hand's result: compact JSON */
} store_in_adjust;

/* What a request answers (the fields of its kind). Owned by the request until delivered. */
typedef struct store_out {
    int64_t id;                       /* or a count */
    store_session session;
    store_ledger_check check;
    store_recovery *recovery;
    store_hand_summary *summaries;
    size_t n_summaries;
    store_hand *hand;
    store_hand_summary summary;
    store_played_table *played;        /* malloc'd, each options owned */
    size_t n_played;
    store_ledger_line *rows;           /* malloc'd */
    size_t n_rows;
    store_ledger_totals totals;
    store_admin_session admin;
    store_audit_entry *audit;          /* malloc'd */
    size_t n_audit;
    store_profile *profile;            /* store_profile_free */
} store_out;

typedef struct store_req store_req;
struct store_req {
    store_req *next;
    store *s;
    store_kind kind;
    int stage;            /* login: 0 fetch, 1 verify, 2 open the session; account: 0 hash, 1 insert */
    bool revisit;         /* sent to the backend again after an earlier visit (login's session) */
    bool sync;            /* store_recover: its caller waits; nobody is called back */
    bool sync_finished;   /* for the runner that ran it */
    uint64_t due_ms;      /* for a runner that answers later on purpose (the in-memory store) */
    store_error error;    /* STORE_OK until something refuses it */
    union {
        store_done_cb done;
        store_id_cb id;
        store_session_cb session;
        store_verify_cb verify;
        store_hands_cb hands;
        store_played_cb played;
        store_hand_cb hand;
        store_count_cb count;
        store_ledger_cb ledger;
        store_admin_session_cb admin;
        store_audit_cb audit;
        store_profile_cb profile;
        store_recovery_cb recovery; /* store_recover_async; NULL for store_recover */
    } cb;
    void *ctx;
    uv_work_t work;
    union {
        store_in_player player;
        store_in_guest guest;
        store_in_account account;
        store_in_login login;
        store_in_session session;
        store_in_table table;
        store_in_hand_begin hand_begin;
        store_in_action action;
        store_in_hand_end hand_end;
        store_in_hands hands;
        store_in_hand_get hand_get;
        store_in_player_tables player_tables;
        store_in_expire expire;
        store_in_ledger ledger;
        store_in_admin_open admin_open;
        store_in_audit audit;
        store_in_audit_list audit_list;
        store_in_adjust adjust;
        store_in_profile profile;
    } in;
    store_out out;
};

/* ---- A backend ---- */

typedef enum store_undo {
    STORE_UNDO_NONE = 0, /* the failed request wrote nothing; the transaction goes on */
    STORE_UNDO_BATCH,    /* it wrote part of itself: roll back, run the batch again without it */
    STORE_UNDO_LOST,     /* the backend lost the whole transaction (it is rolled back) */
} store_undo;

/* Every function but verify_ledger, close and free is called by one thread at a time, inside a
 * transaction (begin … commit or rollback), and fills error when it fails. Answers the caller
 * frees: recoveries, summaries and hands (store_recovery_free, store_summaries_free,
 * store_hand_free). A session answer's token is the core's: backends leave it alone. */
typedef struct store_backend_ops {
    const char *name;

    bool (*begin)(void *b, bool writes, store_error *error);
    bool (*commit)(void *b, store_error *error);
    void (*rollback)(void *b);
    void (*mark)(void *b);      /* before each request; undo says what it left after a failure */
    store_undo (*undo)(void *b);

    store_status (*player_save)(void *b, const store_in_player *in, int64_t *id, store_error *error);
    store_status (*guest_create)(void *b, const store_in_guest *in, store_session *session, store_error *error);
    store_status (*account_create)(void *b, const store_in_account *in, int64_t *id, store_error *error);
    /* Login: the account's hash and session fields, in->found false when there is none. */
    store_status (*login_fetch)(void *b, store_in_login *in, store_session *session, store_error *error);
    store_status (*session_open)(void *b, const store_in_login *in, store_session *session, store_error *error);
    store_status (*session_lookup)(void *b, const store_in_session *in, store_session *session, store_error *error);
    store_status (*logout)(void *b, const store_in_session *in, store_error *error);
    store_status (*table_save)(void *b, const store_in_table *in, int64_t *id, store_error *error);
    store_status (*hand_begin)(void *b, const store_in_hand_begin *in, int64_t *id, store_error *error);
    store_status (*action_append)(void *b, const store_in_action *in, store_error *error);
    store_status (*hand_finish)(void *b, const store_in_hand_end *in, store_error *error);
    store_status (*table_hands)(void *b, const store_in_hands *in, store_hand_summary **out, size_t *n,
                                store_error *error);
    store_status (*hand_get)(void *b, const store_in_hand_get *in, store_hand **hand, store_hand_summary *summary,
                             store_error *error);
    /* The tables a player played at (*out malloc'd; store_played_free). */
    store_status (*player_tables)(void *b, const store_in_player_tables *in, store_played_table **out, size_t *n,
                                  store_error *error);
    store_status (*recover)(void *b, store_recovery **out, store_error *error);
    store_status (*guests_expire)(void *b, const store_in_expire *in, int64_t *count, store_error *error);
    /* A page of rows (*rows malloc'd, the caller frees it) and, if asked, the totals. */
    store_status (*ledger_query)(void *b, const store_in_ledger *in, store_ledger_line **rows, size_t *n,
                                 store_ledger_totals *totals, store_error *error);

    /* Admin sessions: open (STORE_NOT_FOUND unless in->player_id is an admin account), look up
     * by token hash (in->token_hash only; the answer's token left alone), close. */
    store_status (*admin_session_open)(void *b, const store_in_admin_open *in, store_admin_session *session,
                                       store_error *error);
    store_status (*admin_session_lookup)(void *b, const store_in_session *in, store_admin_session *session,
                                         store_error *error);
    store_status (*admin_session_close)(void *b, const store_in_session *in, store_error *error);
    store_status (*audit_append)(void *b, const store_in_audit *in, int64_t *id, store_error *error);
    /* A page of entries (*entries malloc'd, the caller frees it). */
    store_status (*audit_list)(void *b, const store_in_audit_list *in, store_audit_entry **entries, size_t *n,
                               store_error *error);

    /* An adjustment (store_adjust): *id is its first ledger row's. */
    store_status (*adjust)(void *b, const store_in_adjust *in, int64_t *id, store_error *error);

    /* A player's profile (*out: a new store_profile, store_profile_free); STORE_NOT_FOUND when
     * there is no such player. NULL in a backend that cannot: the core answers STORE_INTERNAL. */
    store_status (*profile)(void *b, const store_in_profile *in, store_profile **out, store_error *error);

    /* The highest player id stored (0 when none), before the runner starts (loop thread). */
    store_status (*max_player_id)(void *b, int64_t *id, store_error *error);

    /* The whole ledger check (store_ledger_verify): on the thread pool for a blocking runner, so
     * it must not touch what the other functions use. */
    store_status (*verify_ledger)(void *b, store_ledger_check *check, store_error *error);

    void (*close)(void *b); /* no request will come any more (loop thread, store thread stopped) */
    void (*free)(void *b);  /* nothing uses b any more, not even the pool */
} store_backend_ops;

/* ---- A runner ---- */

typedef struct store_runner {
    /* Sets the runner up for s; its data, or NULL with error filled. */
    void *(*start)(store *s, store_error *error);
    /* Takes the requests made in one turn of the loop, in order (loop thread). */
    void (*push)(store *s, store_req *list);
    /* Runs r now, after everything pushed, and returns once it has run (store_recover). */
    void (*run_now)(store *s, store_req *r);
    /* Requests are waiting (true) or none is: whether the store keeps the loop running. */
    void (*busy)(store *s, bool busy);
    /* Runs and answers everything pushed, then stops; once its handles are closed it frees its
     * data and calls store_core_unref. */
    void (*close)(store *s);
    /* Password hashing and ledger checks go to libuv's thread pool (else they run on the loop). */
    bool blocking;
} store_runner;

/* The store thread (store_thread.c), for backends that block. */
extern const store_runner store_thread_runner;

/* ---- The core, for runners and for the request functions ---- */

/* A store with this backend and runner; the store owns the backend from here, even on failure
 * (NULL, with error filled). */
store *store_core_new(uv_loop_t *loop, const store_options *options, const store_backend_ops *ops, void *backend,
                      const store_runner *runner, store_error *error);

void *store_core_backend(const store *s);
const store_backend_ops *store_core_ops(const store *s);
void *store_core_runner(const store *s);
uv_loop_t *store_core_loop(const store *s);
const store_options *store_core_options(const store *s);
bool store_core_closing(const store *s);
/* Requests of that kind made so far. */
long store_core_made(const store *s, store_kind kind);
/* Loop thread: a new player id, never given before by this store (nor stored when it opened). */
int64_t store_core_player_id(store *s);
/* Whether id was given by store_core_player_id. */
bool store_core_player_id_given(const store *s, int64_t id);

/* Runs a batch in one transaction (group commit), on the runner's thread. */
void store_core_run_batch(store *s, store_req *batch);
/* Loop thread: the requests of list ran; answers them (or sends them on to their next stage). */
void store_core_answer(store *s, store_req *list);
/* Loop thread: pushes the requests held since the last turn of the loop to the runner now. */
void store_core_flush(store *s);
/* The runner's memory is gone: the store may be freed once its other handles are closed. */
void store_core_unref(store *s);

/* Password hashing is the cheap test-only stand-in (store_password.h); set before any request. */
void store_core_cheap_passwords(store *s, bool cheap);

/* For store_request.c: a new request (NULL when closing or out of memory), and sending it on. */
store_req *store_req_new(store *s, store_kind kind, void *ctx);
void store_req_submit(store_req *r);    /* to the backend, in turn (also when already refused) */
void store_req_hash(store_req *r);      /* account creation: hash the password first */
void store_req_verify(store_req *r);    /* the ledger check */
void store_req_sync(store_req *r);      /* store_recover: runs it and returns once it has run */
void store_req_done(store_req *r);      /* after store_req_sync: r is answered and freed */
store_status store_req_fail(store_req *r, store_status status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- Answers, freed alike whoever made them (store.c) ---- */

void store_hand_free(store_hand *hand);
void store_summaries_free(store_hand_summary *summaries, size_t n);
void store_played_free(store_played_table *tables, size_t n);
void store_profile_free(store_profile *profile);
void store_summary_clear(store_hand_summary *summary);

/* ---- Shared helpers (store.c) ---- */

int64_t store_now_ms(const store_options *options);
/* Fills error with a status and a formatted sentence; returns the status. */
store_status store_error_set(store_error *error, store_status status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

#endif
