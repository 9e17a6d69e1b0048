/*
 * mj_wilds — which kinds are wild (混儿) for an indicator (rules/tianjin-mahjong.md §2, §6).
 *
 * Normal preset (中下滾混兒): the indicator's kind and the next, 7 wild tiles in play (the
 * indicator itself stays in the dead wall). 刮大风: the kind before, the indicator's and the next
 * (11 tiles in play), or all four winds when the indicator is a wind (15). A set of kinds is a
 * 34-bit mask, bit k for kind k.
 */
#ifndef MJ_WILDS_H
#define MJ_WILDS_H

#include <stdbool.h>
#include <stdint.h>

#include "mj_tiles.h"

typedef uint64_t mj_kind_set;

static inline bool mj_kind_set_has(mj_kind_set set, int kind) { return (set >> kind) & 1u; }

/* The wild kinds for an indicator kind under either preset. */
mj_kind_set mj_wild_kinds(int indicator, bool gua_da_feng);

/* How many wild tiles can be drawn: four of each wild kind but the indicator's three. */
int mj_wild_tiles_in_play(int indicator, bool gua_da_feng);

/* The number suit the wilds belong to (they never straddle suits), or MJ_SUIT_HONOR. */
static inline mj_suit mj_wild_suit(int indicator) { return mj_kind_suit(indicator); }

#endif
