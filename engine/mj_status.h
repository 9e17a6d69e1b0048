/*
 * mj_status — why the Tianjin engine refuses something. Every value has a stable lower-case name
 * and a sentence for a person. The calculator (rules/tianjin-mahjong.md §7) reports most of them
 * as "impossible"; mj_status_is_impossible says which.
 */
#ifndef MJ_STATUS_H
#define MJ_STATUS_H

#include <stdbool.h>

typedef enum {
    MJ_OK = 0,
    /* input the engine's callers must never pass (the JSON layer refuses it first) */
    MJ_ERR_BAD_INPUT,
    /* a winning hand that cannot arise */
    MJ_ERR_TOO_MANY_OF_A_KIND,
    MJ_ERR_TOO_MANY_OF_INDICATOR,
    MJ_ERR_WILD_IN_MELD,
    MJ_ERR_GOLD_KONG_BARRED,
    MJ_ERR_REPLACEMENT_WITHOUT_KONG,
    MJ_ERR_FIRST_DRAW_NOT_FIRST,
    /* a hand that can arise but does not win */
    MJ_ERR_NOT_A_WIN,
    MJ_ERR_UNDER_MINIMUM,
    /* a settle outcome that cannot arise */
    MJ_ERR_BANKER_PULLED,
    MJ_ERR_PULL_WITHOUT_SIT,
    MJ_ERR_MUST_SIT,
    MJ_ERR_CHAN_OFF,
    MJ_ERR_TOO_MANY_KONGS,
    MJ_ERR_WINNER_DISCARDED_WILD,
    /* the flow of a hand (mj_hand) */
    MJ_ERR_BAD_START,
    MJ_ERR_HAND_OVER,
    MJ_ERR_NOT_YOUR_TURN,
    MJ_ERR_NOT_NOW,
    MJ_ERR_TILE_NOT_IN_HAND,
    MJ_ERR_CANNOT_CLAIM,
    MJ_ERR_NO_SUCH_KONG,
    MJ_ERR_NO_WIN,
    MJ_ERR_WILD_DISCARDED,
    MJ_STATUS_COUNT
} mj_status;

const char *mj_status_name(mj_status status);
const char *mj_status_message(mj_status status);

/* True for the refusals the calculator calls "impossible". */
bool mj_status_is_impossible(mj_status status);

#endif
