/*
 * tg_view — copies only what a seat may see. Built field by field (never a copy of the whole
 * state) so that a field added to the state later stays hidden until it is added here.
 */
#include "tg_view.h"

#include <string.h>

void tg_view_of(const tg_state *st, int seat, tg_view *v)
{
    memset(v, 0, sizeof *v);
    v->seat = (int8_t)(seat >= 0 && seat < TG_SEATS ? seat : TG_SPECTATOR);
    v->options = st->options;
    v->banker = st->banker;
    v->multiplier = st->multiplier;
    v->phase = st->phase;
    v->to_act = st->to_act;
    memcpy(v->held, st->held, sizeof v->held);
    memcpy(v->stacks, st->stacks, sizeof v->stacks);
    if (v->seat != TG_SPECTATOR)
        memcpy(v->hand, st->hand[seat], sizeof v->hand);
    v->n_tricks = st->n_tricks;
    for (int i = 0; i < st->n_tricks; i++) {
        v->tricks[i] = st->tricks[i];
        tg_trick *t = &v->tricks[i];
        for (int j = 0; j < t->count; j++) {
            tg_action *a = &t->actions[j];
            if (a->kind == TG_DISCARD && a->seat != v->seat)
                memset(a->tiles, TG_HIDDEN_TILE, sizeof a->tiles);
        }
    }
    v->n_bonuses = st->n_bonuses;
    memcpy(v->bonuses, st->bonuses, sizeof v->bonuses);
    v->natural_seat = st->natural_seat;
    if (st->natural_seat >= 0)
        memcpy(v->natural_tiles, st->deal[st->natural_seat], sizeof v->natural_tiles);
    if (st->phase == TG_PHASE_OVER)
        v->result = st->result;
}

const tg_trick *tg_view_open_trick(const tg_view *v)
{
    if (v->phase != TG_PHASE_PLAY || v->n_tricks == 0)
        return NULL;
    const tg_trick *t = &v->tricks[v->n_tricks - 1];
    return t->count < TG_SEATS ? t : NULL;
}

int tg_view_legal_actions(const tg_view *v, tg_action *out, int cap)
{
    if (v->seat == TG_SPECTATOR || v->phase != TG_PHASE_PLAY || v->to_act != v->seat)
        return 0;
    return tg_legal_for_seat(&v->options, v->hand, v->seat, v->stacks[v->seat], tg_view_open_trick(v), out, cap);
}
