/*
 * mj_decompose — the per-suit search for the fewest wilds, and the walk that writes a reading.
 *
 * A number suit is searched from its lowest tile i: that tile is in a pung (as many naturals of i
 * as there are, up to 3, the rest wilds), a chow (i with i+1 and i+2 where the suit has them,
 * wilds in the gaps; a chow that would take i alone is the same as the pung with one natural), or
 * the pair. An honour kind only makes pungs and the pair, so its cost is arithmetic.
 */
#include "mj_decompose.h"

#include <assert.h>
#include <string.h>

typedef struct suit_costs {
    uint8_t sets, pair;
} suit_costs;

static uint8_t plus(uint8_t cost, int extra)
{
    if (cost == MJ_NO_WAY)
        return MJ_NO_WAY;
    int sum = cost + extra;
    return (uint8_t)(sum < MJ_NO_WAY ? sum : MJ_NO_WAY - 1);
}

static uint8_t least(uint8_t a, uint8_t b) { return a < b ? a : b; }

/* --- honours: each kind alone --- */

/* Pungs of c naturals: each pung takes up to three, the last one's gaps are wilds. */
static uint8_t honour_sets(int c) { return (uint8_t)((3 - c % 3) % 3); }

/* The pair takes one or two naturals of the kind; the rest are pungs. */
static uint8_t honour_pair(int c)
{
    if (c == 0)
        return MJ_NO_WAY;
    uint8_t best = plus(honour_sets(c - 1), 1);
    if (c >= 2)
        best = least(best, honour_sets(c - 2));
    return best;
}

static suit_costs honour_costs(const uint8_t *c)
{
    int sets = 0;
    for (int k = 0; k < 7; k++)
        sets += honour_sets(c[k]);
    suit_costs out = {plus(0, sets), MJ_NO_WAY};
    for (int k = 0; k < 7; k++)
        if (c[k] > 0)
            out.pair = least(out.pair, plus(honour_pair(c[k]), sets - honour_sets(c[k])));
    return out;
}

/* --- number suits: a search from the lowest tile --- */

/* The naturals a chow from i takes besides i: bit 0 for i+1, bit 1 for i+2. */
static int chow_takes(const uint8_t *c, int i)
{
    return (i + 1 < 9 && c[i + 1] > 0 ? 1 : 0) | (i + 2 < 9 && c[i + 2] > 0 ? 2 : 0);
}

static void chow_apply(uint8_t *c, int i, int takes, int delta)
{
    c[i] = (uint8_t)(c[i] + delta);
    if (takes & 1)
        c[i + 1] = (uint8_t)(c[i + 1] + delta);
    if (takes & 2)
        c[i + 2] = (uint8_t)(c[i + 2] + delta);
}

static int chow_wilds(int takes) { return 2 - (takes & 1) - (takes >> 1); }

/*
 * The search of one number suit, with a budget: every way of grouping its naturals is followed
 * from the lowest tile, and a branch is dropped as soon as it has spent more wilds than the best
 * found (or than the budget), so a hand with few wilds is searched only along its cheap readings.
 * Costs above the budget are reported as budget + 1: the pool cannot pay them anyway.
 */
typedef struct number_search {
    uint8_t c[9];
    uint8_t best_sets, best_pair;
} number_search;

static void search_from(number_search *s, int i, int spent, bool pair_made)
{
    if (pair_made ? spent >= s->best_pair : spent >= s->best_sets && spent >= s->best_pair)
        return;
    uint8_t *c = s->c;
    while (i < 9 && c[i] == 0)
        i++;
    if (i == 9) {
        if (pair_made)
            s->best_pair = (uint8_t)spent;
        else if (spent < s->best_sets)
            s->best_sets = (uint8_t)spent;
        return;
    }
    int takes = chow_takes(c, i); /* the chow first: with both neighbours it is free */
    if (takes != 0) {
        chow_apply(c, i, takes, -1);
        search_from(s, i, spent + chow_wilds(takes), pair_made);
        chow_apply(c, i, takes, +1);
    }
    int take = c[i] < 3 ? c[i] : 3;
    c[i] = (uint8_t)(c[i] - take);
    search_from(s, i, spent + 3 - take, pair_made);
    c[i] = (uint8_t)(c[i] + take);
    if (!pair_made) {
        int two = c[i] < 2 ? c[i] : 2;
        c[i] = (uint8_t)(c[i] - two);
        search_from(s, i, spent + 2 - two, true);
        c[i] = (uint8_t)(c[i] + two);
    }
}

static suit_costs number_costs(const uint8_t *counts, int budget)
{
    number_search s;
    memcpy(s.c, counts, 9);
    uint8_t over = (uint8_t)(budget < 0 ? 1 : budget >= MJ_NO_WAY - 1 ? MJ_NO_WAY - 1 : budget + 1);
    s.best_sets = s.best_pair = over;
    search_from(&s, 0, 0, false);
    bool empty = true;
    for (int i = 0; i < 9; i++)
        empty &= counts[i] == 0;
    return (suit_costs){s.best_sets, empty ? MJ_NO_WAY : s.best_pair};
}

/* --- the pool --- */

void mj_pool_update_suit(mj_pool *pool, mj_suit suit)
{
    suit_costs costs;
    if (suit == MJ_SUIT_HONOR) {
        costs = honour_costs(&pool->natural.n[27]);
    } else {
        costs = number_costs(&pool->natural.n[suit * 9], pool->wilds);
    }
    pool->sets_cost[suit] = costs.sets;
    pool->pair_cost[suit] = costs.pair;
}

void mj_pool_init(mj_pool *pool, const mj_counts *natural, int wilds)
{
    pool->natural = *natural;
    pool->naturals = mj_counts_total(natural);
    pool->wilds = wilds;
    for (int s = 0; s < 4; s++)
        mj_pool_update_suit(pool, (mj_suit)s);
}

int mj_pool_cost(const mj_pool *pool, bool with_pair)
{
    int sets = 0;
    for (int s = 0; s < 4; s++)
        sets += pool->sets_cost[s];
    if (!with_pair)
        return sets;
    int best = sets + 2; /* the pair made of two wilds */
    for (int s = 0; s < 4; s++)
        if (pool->pair_cost[s] != MJ_NO_WAY && sets - pool->sets_cost[s] + pool->pair_cost[s] < best)
            best = sets - pool->sets_cost[s] + pool->pair_cost[s];
    return best;
}

bool mj_pool_take(mj_pool *pool, int kind)
{
    if (pool->natural.n[kind] > 0) {
        pool->natural.n[kind]--;
        pool->naturals--;
        return true;
    }
    pool->wilds--;
    return false;
}

bool mj_pool_complete(const mj_pool *pool, bool with_pair)
{
    int tiles = pool->naturals + pool->wilds;
    if (pool->wilds < 0 || tiles % 3 != (with_pair ? 2 : 0))
        return false;
    return mj_pool_cost(pool, with_pair) <= pool->wilds;
}

bool mj_tiles_complete(const mj_counts *natural, int wilds, bool with_pair)
{
    mj_pool pool;
    mj_pool_init(&pool, natural, wilds);
    return mj_pool_complete(&pool, with_pair);
}

/* --- writing a reading --- */

typedef struct reading_out {
    mj_group *groups;
    int n;
} reading_out;

static void emit(reading_out *out, mj_group_kind kind, int tile, int wilds)
{
    assert(out->n < MJ_MAX_GROUPS);
    out->groups[out->n++] = (mj_group){.kind = (uint8_t)kind, .tile = (uint8_t)tile, .wilds = (uint8_t)wilds};
}

/* Follows the search to a grouping that spends exactly `target` wilds (with the pair when
 * want_pair), writing its groups; false (nothing written) if there is none. */
static bool number_walk(uint8_t *c, int i, int spent, bool pair_made, bool want_pair, int target, int base,
                        reading_out *out)
{
    if (spent > target)
        return false;
    while (i < 9 && c[i] == 0)
        i++;
    if (i == 9)
        return spent == target && pair_made == want_pair;
    if (out->n == MJ_MAX_GROUPS)
        return false;
    int mark = out->n;
    int takes = chow_takes(c, i);
    if (takes != 0) {
        chow_apply(c, i, takes, -1);
        /* 8 with 9 is the chow 7-8-9, its 7 a wild (no 7 is left below the 8) */
        emit(out, MJ_GROUP_CHOW, base + (i <= 6 ? i : 6), chow_wilds(takes));
        bool found = number_walk(c, i, spent + chow_wilds(takes), pair_made, want_pair, target, base, out);
        chow_apply(c, i, takes, +1);
        if (found)
            return true;
        out->n = mark;
    }
    int take = c[i] < 3 ? c[i] : 3;
    c[i] = (uint8_t)(c[i] - take);
    emit(out, MJ_GROUP_PUNG, base + i, 3 - take);
    bool found = number_walk(c, i, spent + 3 - take, pair_made, want_pair, target, base, out);
    c[i] = (uint8_t)(c[i] + take);
    if (found)
        return true;
    out->n = mark;
    if (want_pair && !pair_made) {
        int two = c[i] < 2 ? c[i] : 2;
        c[i] = (uint8_t)(c[i] - two);
        emit(out, MJ_GROUP_PAIR, base + i, 2 - two);
        found = number_walk(c, i, spent + 2 - two, true, want_pair, target, base, out);
        c[i] = (uint8_t)(c[i] + two);
        if (found)
            return true;
        out->n = mark;
    }
    return false;
}

static void honour_walk(int kind, int c, bool pair, reading_out *out)
{
    if (pair) {
        int two = c >= 2 && honour_sets(c - 2) <= plus(honour_sets(c - 1), 1) ? 2 : 1;
        emit(out, MJ_GROUP_PAIR, kind, 2 - two);
        c -= two;
    }
    for (; c > 0; c -= 3)
        emit(out, MJ_GROUP_PUNG, kind, c >= 3 ? 0 : 3 - c);
}

/* Writes the groups of one suit, with the pair there or not. */
static void suit_walk(const mj_pool *pool, mj_suit suit, bool pair, reading_out *out)
{
    if (suit != MJ_SUIT_HONOR) {
        uint8_t c[9];
        memcpy(c, &pool->natural.n[suit * 9], 9);
        bool found = number_walk(c, 0, 0, false, pair, pair ? pool->pair_cost[suit] : pool->sets_cost[suit], suit * 9,
                                 out);
        assert(found);
        (void)found;
        return;
    }
    const uint8_t *c = &pool->natural.n[27];
    int pair_kind = -1;
    if (pair) { /* the kind whose pair costs least beside the others' pungs */
        int best = MJ_NO_WAY;
        for (int k = 0; k < 7; k++)
            if (c[k] > 0 && honour_pair(c[k]) - honour_sets(c[k]) < best) {
                best = honour_pair(c[k]) - honour_sets(c[k]);
                pair_kind = k;
            }
    }
    for (int k = 0; k < 7; k++)
        honour_walk(27 + k, c[k], k == pair_kind, out);
}

int mj_pool_reading(const mj_pool *pool, bool with_pair, int shown_as, mj_group *groups)
{
    if (!mj_pool_complete(pool, with_pair) || pool->naturals + pool->wilds > 14)
        return -1;
    int sets = mj_pool_cost(pool, false);
    int pair_suit = -1; /* -1: the pair is two wilds */
    if (with_pair) {
        int best = sets + 2;
        for (int s = 0; s < 4; s++)
            if (pool->pair_cost[s] != MJ_NO_WAY && sets - pool->sets_cost[s] + pool->pair_cost[s] < best) {
                best = sets - pool->sets_cost[s] + pool->pair_cost[s];
                pair_suit = s;
            }
    }
    reading_out out = {groups, 0};
    for (int s = 0; s < 4; s++)
        suit_walk(pool, (mj_suit)s, s == pair_suit, &out);
    int left = pool->wilds - mj_pool_cost(pool, with_pair);
    if (with_pair && pair_suit < 0)
        emit(&out, MJ_GROUP_PAIR, shown_as, 2);
    for (; left >= 3; left -= 3)
        emit(&out, MJ_GROUP_PUNG, shown_as, 3);
    assert(left == 0);
    return out.n;
}
