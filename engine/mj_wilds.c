/*
 * mj_wilds — the indicator's neighbours, counted as §2 says (the order lives in mj_tiles).
 */
#include "mj_wilds.h"

#define WINDS ((mj_kind_set)0xF << MJ_EAST)

mj_kind_set mj_wild_kinds(int indicator, bool gua_da_feng)
{
    mj_kind_set set = ((mj_kind_set)1 << indicator) | ((mj_kind_set)1 << mj_next_kind(indicator));
    if (!gua_da_feng)
        return set;
    if (mj_kind_suit(indicator) == MJ_SUIT_HONOR && indicator <= MJ_NORTH)
        return WINDS;
    return set | ((mj_kind_set)1 << mj_prev_kind(indicator));
}

int mj_wild_tiles_in_play(int indicator, bool gua_da_feng)
{
    mj_kind_set set = mj_wild_kinds(indicator, gua_da_feng);
    int kinds = 0;
    for (; set; set &= set - 1)
        kinds++;
    return kinds * MJ_COPIES - 1;
}
