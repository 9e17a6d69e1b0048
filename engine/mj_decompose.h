/*
 * mj_decompose — whether tiles can be read as sets and a pair with the help of wilds
 * (rules/tianjin-mahjong.md §3-§4), and one such reading.
 *
 * A pool is natural tiles as counts plus a number of wilds; a wild may stand for any tile, even a
 * fifth of a kind. The question asked of a pool is whether all of it forms sets (pungs or chows)
 * and, when asked, exactly one pair. Suits are independent, so the pool keeps per suit the fewest
 * wilds that turn that suit's naturals into sets, and into sets plus the pair; the answer for the
 * whole pool is then a sum, and a change to one suit costs one suit's search. Wilds left over form
 * sets (and the pair) of their own: the count of tiles decides how many sets there are.
 *
 * Why a search per suit may fill every gap greedily with the naturals it has: in any reading, a
 * wild that stands where a natural of the same kind could stand can swap places with that natural,
 * and both readings use the same wilds. So the search never chooses a wild over a natural.
 */
#ifndef MJ_DECOMPOSE_H
#define MJ_DECOMPOSE_H

#include <stdbool.h>
#include <stdint.h>

#include "mj_tiles.h"

#define MJ_NO_WAY 0xFF /* a cost no pool can pay */

typedef enum { MJ_GROUP_PAIR = 0, MJ_GROUP_PUNG = 1, MJ_GROUP_CHOW = 2, MJ_GROUP_KONG = 3 } mj_group_kind;

/* A set or the pair of a reading, as the tiles it stands for. */
typedef struct mj_group {
    uint8_t kind;  /* mj_group_kind */
    uint8_t tile;  /* the kind it stands for; a chow's lowest kind */
    uint8_t wilds; /* how many of its tiles are wilds */
} mj_group;

#define MJ_MAX_GROUPS 5 /* four sets and the pair */

/*
 * Per suit, the fewest wilds that make its naturals sets, or sets and the pair; a number suit's
 * search stops at the pool's wilds, so a cost the pool cannot pay may be written as any value
 * above them (the pool's answers stay exact). MJ_NO_WAY: the pair in a suit with no natural.
 */
typedef struct mj_pool {
    mj_counts natural;
    int naturals;         /* how many tiles `natural` counts */
    int wilds;
    uint8_t sets_cost[4]; /* per mj_suit */
    uint8_t pair_cost[4];
} mj_pool;

/* A pool of these naturals and wilds, every suit's costs computed. */
void mj_pool_init(mj_pool *pool, const mj_counts *natural, int wilds);

/* Recomputes one suit's costs after its naturals (or the pool's wilds) changed. */
void mj_pool_update_suit(mj_pool *pool, mj_suit suit);

/* Takes one tile standing for `kind` out of the pool: a natural if it has one (true), else a wild
 * (false; the wilds may go below zero, and the pool is then never complete). Costs are not
 * updated: call mj_pool_update_suit for the suits changed. */
bool mj_pool_take(mj_pool *pool, int kind);

/* The fewest wilds that make the whole pool sets (and the pair, with_pair); MJ_NO_WAY if none. */
int mj_pool_cost(const mj_pool *pool, bool with_pair);

/* True if the pool is exactly sets (and one pair, with_pair) with its wilds. */
bool mj_pool_complete(const mj_pool *pool, bool with_pair);

/*
 * Writes one reading of a complete pool into out (at most MJ_MAX_GROUPS groups) and returns how
 * many, or -1 if the pool is not complete. Groups of wilds alone are shown as standing for
 * `shown_as` (a pung, or the pair).
 */
int mj_pool_reading(const mj_pool *pool, bool with_pair, int shown_as, mj_group *out);

/* Convenience: are these naturals and wilds four sets and a pair's worth of a complete hand? */
bool mj_tiles_complete(const mj_counts *natural, int wilds, bool with_pair);

/* The number of tiles a group has (2 for the pair, 3, 4 for a kong). */
static inline int mj_group_size(const mj_group *g)
{
    return g->kind == MJ_GROUP_PAIR ? 2 : g->kind == MJ_GROUP_KONG ? 4 : 3;
}

/* The kind of tile i (0-based) of a group. */
static inline int mj_group_tile(const mj_group *g, int i) { return g->kind == MJ_GROUP_CHOW ? g->tile + i : g->tile; }

#endif
