/*
 * mj_shanten — the per-suit template tables, their memo, and the routes to a scoring win.
 *
 * A suit's table is searched from its lowest rank i still holding tiles: one tile of i is dropped
 * (it will be discarded), or starts a pung template (1-3 tiles of i), a chow template (i with i+1,
 * i+2 or both), or the pair template (1-2 tiles of i). Only ranks i, i+1 and i+2 can have been
 * touched when rank i is the lowest, so a state is (i, what is left of i, i+1, i+2): at most
 * 9 × 5 × 5 × 5 states, each known once per search (stamped with the search's generation).
 */
#include "mj_shanten.h"

#include <assert.h>
#include <string.h>

#define EMPTY_SLOT UINT64_MAX
#define KEY_SHIFT 40
#define HONOURS_KEY (1u << 21)

void mj_shanten_memo_init(mj_shanten_memo *memo)
{
    memset(memo->slot, 0xFF, sizeof memo->slot);
    memo->used = 0;
    memo->stamp = 0;
    memset(memo->state_stamp, 0, sizeof memo->state_stamp);
}

/* --- one table --- */

static uint64_t fit_pack(const mj_fit *f)
{
    uint64_t packed = 0;
    for (int k = 0; k <= MJ_FIT_SETS; k++)
        for (int p = 0; p < 2; p++)
            packed |= (uint64_t)(f->v[k][p] & 0xF) << (4 * (2 * k + p));
    return packed;
}

static mj_fit fit_unpack(uint64_t packed)
{
    mj_fit f;
    for (int k = 0; k <= MJ_FIT_SETS; k++)
        for (int p = 0; p < 2; p++)
            f.v[k][p] = (uint8_t)((packed >> (4 * (2 * k + p))) & 0xF);
    return f;
}

typedef struct fit_search {
    mj_shanten_memo *memo;
    uint8_t c[11]; /* the suit's counts, zero past its end */
    int len;       /* 9 ranks, or 7 honours */
    bool chows;
} fit_search;

/* best = max(best, child with one more set template holding t tiles) */
static void with_set(mj_fit *best, const mj_fit *child, int t)
{
    for (int k = 1; k <= MJ_FIT_SETS; k++)
        for (int p = 0; p < 2; p++)
            if (child->v[k - 1][p] + t > best->v[k][p])
                best->v[k][p] = (uint8_t)(child->v[k - 1][p] + t);
}

/* best = max(best, child with the pair template holding t tiles) */
static void with_pair(mj_fit *best, const mj_fit *child, int t)
{
    for (int k = 0; k <= MJ_FIT_SETS; k++)
        if (child->v[k][0] + t > best->v[k][1])
            best->v[k][1] = (uint8_t)(child->v[k][0] + t);
}

static mj_fit search_state(fit_search *s, int i, int a, int b, int c)
{
    while (a == 0) {
        if (++i >= s->len) {
            mj_fit none;
            memset(&none, 0, sizeof none);
            return none;
        }
        a = b;
        b = c;
        c = s->c[i + 2];
    }
    int index = ((i * 5 + a) * 5 + b) * 5 + c;
    mj_shanten_memo *memo = s->memo;
    if (memo->state_stamp[index] == memo->stamp)
        return memo->state_fit[index];

    mj_fit best = search_state(s, i, a - 1, b, c), child; /* the tile dropped */
    for (int t = 1; t <= a && t <= 3; t++) {
        child = search_state(s, i, a - t, b, c);
        with_set(&best, &child, t);
    }
    if (s->chows) {
        if (b > 0) { /* i, i+1 (8-9 is 7-8-9 short of its 7) */
            child = search_state(s, i, a - 1, b - 1, c);
            with_set(&best, &child, 2);
        }
        if (c > 0) {
            child = search_state(s, i, a - 1, b, c - 1);
            with_set(&best, &child, 2);
        }
        if (b > 0 && c > 0) {
            child = search_state(s, i, a - 1, b - 1, c - 1);
            with_set(&best, &child, 3);
        }
    }
    for (int t = 1; t <= a && t <= 2; t++) {
        child = search_state(s, i, a - t, b, c);
        with_pair(&best, &child, t);
    }
    memo->state_stamp[index] = memo->stamp;
    memo->state_fit[index] = best;
    return best;
}

static mj_fit search_suit(mj_shanten_memo *memo, const uint8_t *counts, bool honours)
{
    fit_search s = {.memo = memo, .len = honours ? 7 : 9, .chows = !honours};
    memset(s.c, 0, sizeof s.c);
    for (int i = 0; i < s.len; i++)
        s.c[i] = counts[i] < MJ_COPIES ? counts[i] : MJ_COPIES; /* a fifth natural cannot be held */
    if (++memo->stamp == 0) { /* the generations wrapped: forget every state */
        memset(memo->state_stamp, 0, sizeof memo->state_stamp);
        memo->stamp = 1;
    }
    return search_state(&s, 0, s.c[0], s.c[1], s.c[2]);
}

static uint32_t suit_key(const uint8_t *counts, bool honours)
{
    uint32_t key = 0;
    for (int i = (honours ? 7 : 9) - 1; i >= 0; i--)
        key = key * 5 + (counts[i] < MJ_COPIES ? counts[i] : MJ_COPIES);
    return honours ? key | HONOURS_KEY : key;
}

mj_fit mj_shanten_suit_fit(mj_shanten_memo *memo, const uint8_t *counts, bool honours)
{
    uint32_t key = suit_key(counts, honours);
    if (key == 0 || key == HONOURS_KEY) {
        mj_fit none;
        memset(&none, 0, sizeof none);
        return none;
    }
    uint32_t at = (uint32_t)((key * 0x9E3779B1u) >> 20) & (MJ_SHANTEN_MEMO_SLOTS - 1);
    for (;; at = (at + 1) & (MJ_SHANTEN_MEMO_SLOTS - 1)) {
        uint64_t slot = memo->slot[at];
        if (slot == EMPTY_SLOT)
            break;
        if ((uint32_t)(slot >> KEY_SHIFT) == key)
            return fit_unpack(slot);
    }
    mj_fit fit = search_suit(memo, counts, honours);
    if (memo->used < MJ_SHANTEN_MEMO_SLOTS * 3 / 4) { /* keep probes short; a full memo only costs time */
        memo->slot[at] = (uint64_t)key << KEY_SHIFT | fit_pack(&fit);
        memo->used++;
    }
    return fit;
}

/* --- whole hands --- */

/* One entry of the sum a + b: k set templates and p pair templates shared between them. */
static int fit_entry(const mj_fit *a, const mj_fit *b, int k, int p)
{
    int best = 0;
    for (int ka = 0; ka <= k; ka++) {
        int v = a->v[ka][0] + b->v[k - ka][p];
        if (p == 1 && a->v[ka][1] + b->v[k - ka][0] > v)
            v = a->v[ka][1] + b->v[k - ka][0];
        if (v > best)
            best = v;
    }
    return best;
}

/* The sum a + b (max-plus: the most naturals with the templates shared between them), for
 * k = 0..kmax only (a dragon leaves one or two templates to fill). */
static mj_fit fit_add_upto(const mj_fit *a, const mj_fit *b, int kmax)
{
    mj_fit sum;
    memset(&sum, 0, sizeof sum);
    for (int k = 0; k <= kmax; k++)
        for (int p = 0; p < 2; p++)
            sum.v[k][p] = (uint8_t)fit_entry(a, b, k, p);
    return sum;
}

/* Which half a suit's table is summed in, and its partner there. */
static int half_of(int suit) { return suit < 2 ? 0 : 1; }
static int partner_of(int suit) { return suit ^ 1; }

static void shape_suit(mj_shanten_memo *memo, mj_shanten_shape *sh, int suit)
{
    if (suit == MJ_SUIT_HONOR) {
        sh->fits[suit] = mj_shanten_suit_fit(memo, &sh->hand.natural.n[27], true);
    } else {
        const uint8_t *c = &sh->hand.natural.n[suit * 9];
        uint8_t rest[9];
        int ranks = 0;
        for (int i = 0; i < 9; i++) {
            rest[i] = (uint8_t)(c[i] > 0 ? c[i] - 1 : 0);
            ranks += c[i] > 0;
        }
        sh->fits[suit] = mj_shanten_suit_fit(memo, c, false);
        sh->long_rest[suit] = mj_shanten_suit_fit(memo, rest, false);
        sh->long_ranks[suit] = ranks;
    }
    int half = half_of(suit);
    sh->halves[half] = fit_add_upto(&sh->fits[2 * half], &sh->fits[2 * half + 1], MJ_FIT_SETS);
}

void mj_shanten_shape_init(mj_shanten_memo *memo, mj_shanten_shape *shape, const mj_shanten_hand *hand)
{
    memset(shape, 0, sizeof *shape);
    shape->hand = *hand;
    for (int s = 0; s < 4; s++)
        shape_suit(memo, shape, s);
}

void mj_shanten_shape_add(mj_shanten_memo *memo, mj_shanten_shape *shape, int kind, int delta)
{
    shape->hand.natural.n[kind] = (uint8_t)(shape->hand.natural.n[kind] + delta);
    shape_suit(memo, shape, (int)mj_kind_suit(kind));
}

int mj_shanten_shape_plain(const mj_shanten_shape *sh)
{
    int sets = 4 - sh->hand.melds;
    assert(sets >= 0 && sets <= MJ_FIT_SETS);
    return 13 - 3 * sh->hand.melds - sh->hand.wilds - fit_entry(&sh->halves[0], &sh->halves[1], sets, 1);
}

int mj_shanten_shape_scoring(const mj_shanten_shape *sh, int routes[MJ_ROUTES])
{
    int sets = 4 - sh->hand.melds, ready_at = 13 - 3 * sh->hand.melds, w = sh->hand.wilds;
    assert(sets >= 0 && sets <= MJ_FIT_SETS);
    const mj_fit *h0 = &sh->halves[0], *h1 = &sh->halves[1];
    int r[MJ_ROUTES];
    for (int i = 0; i < MJ_ROUTES; i++)
        r[i] = MJ_SHANTEN_NONE;
    if (w == 0 && !sh->hand.wild_meld)
        r[MJ_ROUTE_SU] = ready_at - fit_entry(h0, h1, sets, 1);
    if (w >= 1 && !sh->hand.gua_da_feng)
        r[MJ_ROUTE_HUN_DIAO] = ready_at - w - fit_entry(h0, h1, sets, 0);
    if (sets >= 3)
        for (int s = 0; s < MJ_NUMBER_SUITS; s++) {
            /* the dragon's suit without its nine, with its partner, then the other half */
            mj_fit half = fit_add_upto(&sh->long_rest[s], &sh->fits[partner_of(s)], sets - 3);
            int rest = fit_entry(&half, &sh->halves[1 - half_of(s)], sets - 3, 1);
            r[MJ_ROUTE_LONG_M + s] = ready_at - w - sh->long_ranks[s] - rest;
        }
    int best = MJ_SHANTEN_NONE;
    for (int i = 0; i < MJ_ROUTES; i++)
        if (r[i] < best)
            best = r[i];
    if (routes != NULL)
        memcpy(routes, r, sizeof r);
    return best;
}

int mj_shanten_scoring(mj_shanten_memo *memo, const mj_shanten_hand *hand, int routes[MJ_ROUTES])
{
    mj_shanten_memo own;
    if (memo == NULL) {
        mj_shanten_memo_init(&own);
        memo = &own;
    }
    mj_shanten_shape shape;
    mj_shanten_shape_init(memo, &shape, hand);
    return mj_shanten_shape_scoring(&shape, routes);
}

int mj_shanten_plain(mj_shanten_memo *memo, const mj_counts *natural, int wilds, int melds)
{
    mj_shanten_memo own;
    if (memo == NULL) {
        mj_shanten_memo_init(&own);
        memo = &own;
    }
    mj_shanten_hand hand;
    memset(&hand, 0, sizeof hand);
    hand.natural = *natural;
    hand.wilds = wilds;
    hand.melds = melds;
    mj_shanten_shape shape;
    mj_shanten_shape_init(memo, &shape, &hand);
    return mj_shanten_shape_plain(&shape);
}
