/*
 * tg_status — why the Tien Gow engine refuses something. Every value has a stable lower-case
 * name (used as the protocol's error code) and a sentence for a person.
 */
#ifndef TG_STATUS_H
#define TG_STATUS_H

typedef enum {
    TG_OK = 0,
    /* actions */
    TG_ERR_HAND_OVER,
    TG_ERR_BAD_SEAT,
    TG_ERR_NOT_YOUR_TURN,
    TG_ERR_BAD_TILE,
    TG_ERR_TILE_NOT_IN_HAND,
    TG_ERR_WRONG_COUNT,
    TG_ERR_LEADER_MUST_PLAY,
    TG_ERR_NOT_A_COMBINATION,
    TG_ERR_SUPREME_ONLY_LED,
    TG_ERR_WRONG_TYPE,
    TG_ERR_DOES_NOT_BEAT,
    TG_ERR_NOTHING_BEATS,
    TG_ERR_ONLY_PAIR_OF_SEVENS_BEATS,
    TG_ERR_BARRED_FROM_FINAL,
    /* setting up a hand */
    TG_ERR_BAD_DEAL,
    TG_ERR_BAD_BANKER,
    TG_ERR_BAD_MULTIPLIER,
    /* an outcome that cannot arise (settle mode) */
    TG_ERR_STACKS_NOT_EIGHT,
    TG_ERR_WINNER_UNDER_TWO,
    TG_ERR_EIGHT_AND_SEVEN,
    TG_ERR_SHUTOUT_NEEDS_EIGHT,
    TG_ERR_TWO_TILE_ENDINGS,
    TG_ERR_QIN_WITH_ENDINGS,
    TG_ERR_QIN_CAPTURED,
    TG_STATUS_COUNT
} tg_status;

const char *tg_status_name(tg_status status);
const char *tg_status_message(tg_status status);

#endif
