/*
 * store_hand_cache — the open hands' cache of a backend's writer (store_hand_cache.h).
 */
#include <stdlib.h>
#include <string.h>

#include "store_hand_cache.h"

#define SLOTS 8192 /* a power of two */
#define GONE (-1)

bool store_hand_cache_init(store_hand_cache *c)
{
    c->slots = calloc(SLOTS, sizeof *c->slots);
    c->used = 0;
    return c->slots != NULL;
}

void store_hand_cache_clear(store_hand_cache *c)
{
    if (c->slots != NULL)
        memset(c->slots, 0, SLOTS * sizeof *c->slots);
    c->used = 0;
}

void store_hand_cache_free(store_hand_cache *c)
{
    free(c->slots);
    c->slots = NULL;
    c->used = 0;
}

/* The slot of hand_id, or the first free one after it. */
static store_hand_slot *slot_of(store_hand_cache *c, int64_t hand_id)
{
    size_t i = (size_t)((uint64_t)hand_id * UINT64_C(0x9e3779b97f4a7c15) >> 51) & (SLOTS - 1);
    while (c->slots[i].hand_id != 0 && c->slots[i].hand_id != hand_id)
        i = (i + 1) & (SLOTS - 1);
    return &c->slots[i];
}

bool store_hand_cache_get(store_hand_cache *c, int64_t hand_id, store_hand_state *out)
{
    const store_hand_slot *slot = slot_of(c, hand_id);
    if (slot->hand_id != hand_id)
        return false;
    *out = slot->state;
    return true;
}

void store_hand_cache_put(store_hand_cache *c, int64_t hand_id, const store_hand_state *state)
{
    store_hand_slot *slot = slot_of(c, hand_id);
    if (slot->hand_id == 0) {
        if (c->used >= SLOTS / 2) { /* slots are not reused after a hand ends: start afresh */
            store_hand_cache_clear(c);
            slot = slot_of(c, hand_id);
        }
        c->used++;
    }
    *slot = (store_hand_slot){.hand_id = hand_id, .state = *state};
}

void store_hand_cache_forget(store_hand_cache *c, int64_t hand_id)
{
    store_hand_slot *slot = slot_of(c, hand_id);
    if (slot->hand_id == hand_id)
        slot->hand_id = GONE;
}
