/*
 * mj_win — a winning hand as the calculator and the flow of a hand describe it
 * (rules/tianjin-mahjong.md §3, §7), and whether it can arise at all.
 *
 * The hand is the concealed tiles before the winning tile (counts), up to four melds (a pung or
 * exposed kong claimed from a discard, or a concealed kong), the winning tile, the indicator that
 * decides the wilds, and how the tile was drawn. Whether it wins, and for how much, is mj_fan.
 */
#ifndef MJ_WIN_H
#define MJ_WIN_H

#include <stdbool.h>
#include <stdint.h>

#include "mj_options.h"
#include "mj_status.h"
#include "mj_tiles.h"
#include "mj_wilds.h"

#define MJ_MAX_MELDS 4

typedef enum {
    MJ_MELD_PUNG = 0,           /* 碰: three naturals */
    MJ_MELD_KONG = 1,           /* 明杠: exposed, or a pung with the fourth added */
    MJ_MELD_CONCEALED_KONG = 2, /* 暗杠, or 金杠 when its kind is wild */
} mj_meld_kind;

typedef struct mj_meld {
    uint8_t kind; /* mj_meld_kind */
    uint8_t tile; /* the kind of its tiles */
} mj_meld;

static inline int mj_meld_size(const mj_meld *m) { return m->kind == MJ_MELD_PUNG ? 3 : 4; }
static inline bool mj_meld_is_kong(const mj_meld *m) { return m->kind != MJ_MELD_PUNG; }

typedef struct mj_winning_hand {
    mj_counts concealed;            /* before the winning tile: 13 - 3 × n_melds tiles */
    mj_meld melds[MJ_MAX_MELDS];
    uint8_t n_melds;
    uint8_t win_tile;               /* the drawn tile that wins (天胡: the 14th dealt tile) */
    uint8_t indicator;              /* the turned-up tile that decides the wilds */
    bool kong_replacement;          /* the winning tile was drawn after a kong */
    bool first_draw;                /* 天胡 with dealer, else 地胡 */
    bool dealer;                    /* the winner is the banker */
} mj_winning_hand;

/* Every tile of the hand counted once: concealed, the winning tile and the melds. */
void mj_winning_hand_tiles(const mj_winning_hand *hand, mj_counts *all);

/*
 * MJ_OK if the hand can arise, else the first reason it cannot, in the order of §7: more than four
 * of a kind, more than three of the indicator's kind, a pung or exposed kong of a wild kind, a
 * 金杠 when gold_kong_fan is 0, a kong replacement without a kong, a first-draw win with a meld or
 * on a kong replacement. *kind (may be NULL) names the tile concerned for the first three and the
 * fourth, else -1. MJ_ERR_BAD_INPUT for counts or kinds out of range (never from the calculator).
 */
mj_status mj_winning_hand_check(const mj_options *options, const mj_winning_hand *hand, int *kind);

#endif
