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
 *
 * The table (games/tianjin) also speaks through here: its options (§7's table and the claim
 * window's length), the actions a seat sends, and the pieces its views and results are made of
 * (tiles, melds, a win with its fans, payments with their factors). protocol/PROTOCOL.md
 * ("Tianjin") documents them.
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
    MJJ_ILLEGAL_ACTION, /* replay mode: an action the rules refuse, or too few to finish the hand */
} mjj_error;

/* "ok", "bad_request", "impossible", "not_a_win", "under_minimum", "illegal_action". */
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

/* --- the table (games/tianjin) --- */

/* The claim window's length in seconds, a table option of its own (not a rule of §7). */
#define MJJ_CLAIM_SECONDS_DEFAULT 5
#define MJJ_CLAIM_SECONDS_MIN 2
#define MJJ_CLAIM_SECONDS_MAX 30

/* A table's options: those of mjj_parse_options plus claim_seconds (an integer 2..30, default 5). */
mjj_error mjj_parse_table_options(const json_t *value, mj_options *out, int *claim_seconds, char *msg,
                                  size_t msg_size);

/* Every table option with its value, in §7's order, claim_seconds last. */
json_t *mjj_table_options_to_json(const mj_options *options, int claim_seconds);

/* What a seat may send: exactly one key, its value of the listed type. */
typedef enum {
    MJJ_ACT_SIT = 0,         /* {"sit":true|false}: the banker sits (坐庄) or not */
    MJJ_ACT_PULL,            /* {"pull":0..2}: a non-banker pulls (拉庄) so many times */
    MJJ_ACT_DISCARD,         /* {"discard":"5m"} */
    MJJ_ACT_WIN,             /* {"win":true}: by self-draw */
    MJJ_ACT_CONCEALED_KONG,  /* {"concealed_kong":"5m"} */
    MJJ_ACT_ADDED_KONG,      /* {"added_kong":"5m"} */
    MJJ_ACT_PUNG,            /* {"pung":true}: the discard in the claim window */
    MJJ_ACT_KONG,            /* {"kong":true}: the same, as an exposed kong */
    MJJ_ACT_PASS,            /* {"pass":true}: no claim */
    MJJ_ACT_KINDS
} mjj_action_kind;

#define MJJ_MAX_PULLS 2 /* the most any table allows (option max_pulls) */

typedef struct mjj_action {
    mjj_action_kind kind;
    int value; /* sit: 1 or 0; pull: the count; discard and kongs: the tile's kind; else 0 */
} mjj_action;

/* The action's key ("sit", "discard", …). */
const char *mjj_action_key(mjj_action_kind kind);

/* One action object; a sentence naming `where` when it is not one of the shapes above. */
mjj_error mjj_parse_action(const json_t *value, const char *where, mjj_action *out, char *msg, size_t msg_size);
json_t *mjj_action_to_json(const mjj_action *action);

/* Tiles as names: a list of kinds, or counts in kind order. */
json_t *mjj_tiles_to_json(const uint8_t *kinds, int n);
json_t *mjj_counts_to_json(const mj_counts *counts);

/* The wild kinds, in kind order. */
json_t *mjj_kind_set_to_json(mj_kind_set set);

/* A meld as score mode reads it: {"kind":"pung"|"kong"|"concealed_kong","tiles":[…]}. */
json_t *mjj_meld_to_json(const mj_meld *meld);
json_t *mjj_melds_to_json(const mj_meld *melds, int n);

/* Every kong made: [{"seat":S,"kind":"kong"|"concealed_kong"|"gold_kong"}…], as settle mode reads. */
json_t *mjj_kongs_to_json(const mj_kong_made *kongs, int n);

/*
 * A win: the winning hand as score mode reads it (concealed, melds, win_tile, kong_replacement,
 * first_draw, dealer) and its score (fan, names, the fans with their values under these options,
 * reading): {"seat":S,"concealed":[…],…,"fan":F,"names":[…],"fans":[{"name":"zhuo_wu","zh":"捉五",
 * "value":3}…],"reading":[[…]…]}.
 */
json_t *mjj_win_to_json(int seat, const mj_options *options, const mj_winning_hand *hand, const mj_score *score);

/* The payments as mjj_settlement_to_json writes them, each with "factor": the banker's factor
 * between its two seats (mj_seat_factor; 1 between non-bankers). */
json_t *mjj_payments_to_json(const mj_settlement *settlement, const mj_outcome *outcome);

#endif
