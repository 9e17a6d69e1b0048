/*
 * store_memory_internal — what the in-memory store's two files share: its state, the data
 * (store_memory_data.c, the backend) and the test controls (store_memory.c, the runner). Table,
 * hand and ledger row ids are positions: id k is element k - 1 of its array. Players are in the
 * order stored, with the ids the core gave them (not positions: a guest reserved earlier may be
 * stored later, and expired guests leave).
 */
#ifndef STORE_MEMORY_INTERNAL_H
#define STORE_MEMORY_INTERNAL_H

#include "store_backend.h"
#include "store_ledger.h"
#include "store_memory.h"

typedef struct mem_player {
    store_memory_player pub;
    char password_hash[STORE_PASSWORD_HASH_SIZE];  /* accounts only */
    names_keys keys;                               /* accounts only: unique, as SQLite's UNIQUE keeps them */
} mem_player;

typedef struct mem_session {
    unsigned char token_hash[STORE_TOKEN_HASH_BYTES];
    int64_t player_id;
    int64_t expires_at_ms;
} mem_session;

typedef struct mem_admin_session {
    unsigned char token_hash[STORE_TOKEN_HASH_BYTES];
    int64_t player_id;
    char csrf[STORE_TOKEN_SIZE];
    int64_t expires_at_ms;
} mem_admin_session;

typedef struct mem_hand {
    store_memory_hand pub;
    size_t cap_actions;
} mem_hand;

typedef struct store_memory {
    store *s;
    store_options options;

    /* The runner (store_memory.c). */
    uv_timer_t timer;
    bool closing;
    int delay_ms;
    bool hold;
    size_t released;                  /* held requests let go, not yet run */
    store_req *pending_head, *pending_tail;
    store_kind fail_kind;             /* STORE_KIND_ANY: any */
    int fail_count;
    store_status fail_status;

    /* The data (store_memory_data.c). */
    mem_player *players;
    size_t n_players, cap_players;
    mem_session *sessions;
    size_t n_sessions, cap_sessions;
    store_table *tables;              /* JSON owned; seats without nicknames */
    size_t n_tables, cap_tables;
    mem_hand *hands;
    size_t n_hands, cap_hands;
    store_memory_row *ledger;
    size_t n_rows, cap_rows;
    unsigned char ledger_key[STORE_LEDGER_KEY_BYTES]; /* random, made at opening: every row is v2 */
    mem_admin_session *admin_sessions;  /* store_memory_admin.c */
    size_t n_admin_sessions, cap_admin_sessions;
    store_audit_entry *audit;         /* id k is element k - 1; account_name filled when listed */
    size_t n_audit, cap_audit;
} store_memory;

extern const store_backend_ops store_memory_ops;

/* True (with error filled) when the test asked this request to fail (store_memory_fail). */
bool store_memory_injected(store_memory *m, store_kind kind, store_error *error);

/* The account named name (ASCII letters compared without case, as SQLite's NOCASE), or NULL. */
mem_player *store_memory_account(store_memory *m, const char *name);

/* The player of that id, or NULL. */
mem_player *store_memory_find_player(store_memory *m, int64_t id);

/* Admin sessions and the audit log (store_memory_admin.c). */
store_status store_memory_admin_open(void *b, const store_in_admin_open *in, store_admin_session *session,
                                     store_error *error);
store_status store_memory_admin_lookup(void *b, const store_in_session *in, store_admin_session *session,
                                       store_error *error);
store_status store_memory_admin_close(void *b, const store_in_session *in, store_error *error);
store_status store_memory_audit_append(void *b, const store_in_audit *in, int64_t *id, store_error *error);
store_status store_memory_audit_list(void *b, const store_in_audit_list *in, store_audit_entry **entries,
                                     size_t *n, store_error *error);

/* Grows *array (of elements of size bytes) to hold need; false when out of memory. */
bool store_memory_reserve(void **array, size_t *cap, size_t need, size_t size);

/* Frees the data (store_memory_ops.free does, with the rest). */
void store_memory_data_free(store_memory *m);

store_status store_memory_adjust(void *b, const store_in_adjust *in, int64_t *id, store_error *error);

/* A player's profile (store_memory_profile.c). */
store_status store_memory_profile(void *b, const store_in_profile *in, store_profile **out, store_error *error);

#endif
