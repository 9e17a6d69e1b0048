/*
 * tg_view — what one seat (or a spectator) may see of a hand: its own tiles, every tile played
 * face up, how many tiles each seat discarded but never their faces (a seat sees its own),
 * stacks, banker, multiplier, bonuses and, once over, the result. A natural hand is revealed,
 * as its holder shows it at the table. Nothing else of another seat's tiles is ever copied in.
 */
#ifndef TG_VIEW_H
#define TG_VIEW_H

#include "tg_hand.h"

#define TG_SPECTATOR (-1)

typedef struct tg_view {
    int8_t seat;                      /* 0..3, or TG_SPECTATOR */
    tg_options options;
    uint8_t banker;
    uint32_t multiplier;
    uint8_t phase;
    uint8_t to_act;
    uint8_t held[TG_SEATS];           /* how many tiles each seat still holds */
    uint8_t stacks[TG_SEATS];
    uint8_t hand[TG_KINDS];           /* own tiles by kind (all zero for a spectator) */
    uint8_t n_tricks;
    tg_trick tricks[TG_MAX_TRICKS];   /* others' discards as TG_HIDDEN_TILE */
    uint8_t n_bonuses;
    tg_bonus bonuses[TG_MAX_BONUSES];
    int8_t natural_seat;
    uint8_t natural_tiles[TG_HAND_TILES]; /* the revealed natural hand, if any */
    tg_result result;                 /* valid once phase is TG_PHASE_OVER */
} tg_view;

void tg_view_of(const tg_state *state, int seat, tg_view *out);

/* The open trick of a view, or NULL. */
const tg_trick *tg_view_open_trick(const tg_view *view);

/* The seat's legal actions from its view (same rules as tg_legal_actions). */
int tg_view_legal_actions(const tg_view *view, tg_action *out, int cap);

#endif
