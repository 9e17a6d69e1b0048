/*
 * mj_json — Tianjin Mahjong as JSON (rules/tianjin-mahjong.md §7): tiles, table options, the
 * documents of the calculator's score and settle modes, and their answers written back out.
 *
 * Readers check the shape strictly (a missing or unknown key, a wrong JSON type, a value not
 * listed or out of range, a bad tile name, a wrong number of tiles, a meld that is not a pung or
 * kong of one kind) and answer with an mjj_error plus a sentence for a person, naming the key or
 * element, in a buffer the caller provides. Whether the hand or outcome can arise is the engine's
 * question (mj_winning_hand_check, mj_outcome_check), asked after. Nothing here prints, exits or
 * keeps state.
 *
 * Writers return a new jansson reference (NULL only when memory runs out), keys in §7's order.
 */
#ifndef MJ_JSON_H
#define MJ_JSON_H

#include <stddef.h>

#include <jansson.h>

#include "mj_fan.h"
#include "mj_options.h"
#include "mj_settle.h"
#include "mj_status.h"
#include "mj_win.h"

/* The calculator's error codes, in §7's order of precedence. */
typedef enum {
    MJJ_OK = 0,
    MJJ_BAD_REQUEST,   /* not JSON, or not the documented shape */
    MJJ_IMPOSSIBLE,    /* well formed, but the hand or outcome cannot arise */
    MJJ_NOT_A_WIN,     /* the tiles are not four sets and a pair */
    MJJ_UNDER_MINIMUM, /* a win with no fan, or 混儿吊 alone under 刮大风 */
} mjj_error;

/* "ok", "bad_request", "impossible", "not_a_win", "under_minimum". */
const char *mjj_error_name(mjj_error error);

/* The code the calculator gives an engine refusal (MJ_ERR_BAD_INPUT: bad_request). */
mjj_error mjj_error_of_status(mj_status status);

/* A buffer this large holds any message written here without truncation. */
#define MJJ_MESSAGE_SIZE 512

/* A tile name of §7 ("1m".."9m", "1p".."9p", "1s".."9s", "E" "S" "W" "N", "C" "F" "P"). */
mjj_error mjj_parse_tile(const json_t *value, const char *where, int *kind, char *msg, size_t msg_size);
json_t *mjj_tile_to_json(int kind);

/*
 * The `options` object; NULL (left out) means all defaults. Keys, JSON types and values of §7's
 * table: gua_da_feng, wild_discard_penalty, chan, must_sit (booleans), gold_kong_fan (8, 4, 0),
 * max_pulls (1, 2), no_replacement ("draw", "skip_indicator"), base (1..1,000,000).
 */
mjj_error mjj_parse_options(const json_t *value, mj_options *out, char *msg, size_t msg_size);

/*
 * A whole score-mode document: {"mode":"score","game":"tianjin", options?, concealed, melds,
 * indicator, win_tile, kong_replacement, first_draw, dealer}. Shape only.
 */
mjj_error mjj_parse_score_request(const json_t *doc, mj_options *options, mj_winning_hand *hand, char *msg,
                                  size_t msg_size);

/*
 * A whole settle-mode document: {"mode":"settle","game":"tianjin", options?, banker, sat, pulls,
 * winner, fan, kongs, chan, wild_discards}. Shape only, except that a list of more than 16 kongs
 * (some seat with more than four) is reported as MJJ_IMPOSSIBLE once the rest of the shape is
 * checked, since the outcome cannot hold it.
 */
mjj_error mjj_parse_settle_request(const json_t *doc, mj_options *options, mj_outcome *outcome, char *msg,
                                   size_t msg_size);

/* {"fan":F,"names":[…],"reading":[[tiles]…]}. */
json_t *mjj_score_to_json(const mj_score *score);

/* {"payments":[{"from","to","units","why"}…],"net":[…],"next_banker":S,"next_must_sit":B}. */
json_t *mjj_settlement_to_json(const mj_settlement *settlement);

#endif
