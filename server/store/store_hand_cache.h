/*
 * store_hand_cache — the open hands a backend's writer has seen (store_sqlite_hands.c,
 * store_pg_hands.c): each hand's table and last action number, so that an action's checks need no
 * read. A fixed table of slots (open addressing, linear probing); slots are not reused after a
 * hand ends, and the whole table starts afresh when half are taken. Not thread-safe: the writer's.
 */
#ifndef STORE_HAND_CACHE_H
#define STORE_HAND_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct store_hand_state {
    int64_t table_id;
    int64_t last_seq;
} store_hand_state;

typedef struct store_hand_slot {
    int64_t hand_id; /* 0: never used; -1: its hand was finished */
    store_hand_state state;
} store_hand_slot;

typedef struct store_hand_cache {
    store_hand_slot *slots;
    size_t used;
} store_hand_cache;

bool store_hand_cache_init(store_hand_cache *c);  /* false when out of memory */
void store_hand_cache_clear(store_hand_cache *c); /* forgets every hand (after a rollback) */
void store_hand_cache_free(store_hand_cache *c);

/* The state of hand_id when the cache has it. */
bool store_hand_cache_get(store_hand_cache *c, int64_t hand_id, store_hand_state *out);
void store_hand_cache_put(store_hand_cache *c, int64_t hand_id, const store_hand_state *state);
/* The hand finished: it is never looked up again. */
void store_hand_cache_forget(store_hand_cache *c, int64_t hand_id);

#endif
