/*
 * mj_win — the possibility checks of §7's "impossible", one after another in the page's order.
 */
#include "mj_win.h"

#include <stddef.h>

void mj_winning_hand_tiles(const mj_winning_hand *hand, mj_counts *all)
{
    *all = hand->concealed;
    all->n[hand->win_tile]++;
    for (int i = 0; i < hand->n_melds; i++)
        all->n[hand->melds[i].tile] = (uint8_t)(all->n[hand->melds[i].tile] + mj_meld_size(&hand->melds[i]));
}

static bool shape_ok(const mj_winning_hand *hand)
{
    if (hand->n_melds > MJ_MAX_MELDS || hand->win_tile >= MJ_KINDS || hand->indicator >= MJ_KINDS)
        return false;
    int total = 0;
    for (int k = 0; k < MJ_KINDS; k++) {
        if (hand->concealed.n[k] > 14)
            return false;
        total += hand->concealed.n[k];
    }
    for (int i = 0; i < hand->n_melds; i++)
        if (hand->melds[i].tile >= MJ_KINDS || hand->melds[i].kind > MJ_MELD_CONCEALED_KONG)
            return false;
    return total == MJ_HAND_TILES - 3 * hand->n_melds;
}

static mj_status refuse(int *where, int kind, mj_status status)
{
    if (where != NULL)
        *where = kind;
    return status;
}

mj_status mj_winning_hand_check(const mj_options *options, const mj_winning_hand *hand, int *kind)
{
    if (kind != NULL)
        *kind = -1;
    if (!shape_ok(hand))
        return MJ_ERR_BAD_INPUT;
    mj_counts all;
    mj_winning_hand_tiles(hand, &all);
    for (int k = 0; k < MJ_KINDS; k++)
        if (all.n[k] > MJ_COPIES)
            return refuse(kind, k, MJ_ERR_TOO_MANY_OF_A_KIND);
    if (all.n[hand->indicator] > MJ_COPIES - 1)
        return refuse(kind, hand->indicator, MJ_ERR_TOO_MANY_OF_INDICATOR);

    mj_kind_set wild = mj_wild_kinds(hand->indicator, options->gua_da_feng);
    bool has_kong = false;
    for (int i = 0; i < hand->n_melds; i++) {
        const mj_meld *m = &hand->melds[i];
        if (m->kind != MJ_MELD_CONCEALED_KONG && mj_kind_set_has(wild, m->tile))
            return refuse(kind, m->tile, MJ_ERR_WILD_IN_MELD);
        has_kong |= mj_meld_is_kong(m);
    }
    for (int i = 0; i < hand->n_melds; i++)
        if (hand->melds[i].kind == MJ_MELD_CONCEALED_KONG && mj_kind_set_has(wild, hand->melds[i].tile) &&
            options->gold_kong_fan == 0)
            return refuse(kind, hand->melds[i].tile, MJ_ERR_GOLD_KONG_BARRED);
    if (hand->kong_replacement && !has_kong)
        return MJ_ERR_REPLACEMENT_WITHOUT_KONG;
    if (hand->first_draw && (hand->n_melds > 0 || hand->kong_replacement))
        return MJ_ERR_FIRST_DRAW_NOT_FIRST;
    return MJ_OK;
}
