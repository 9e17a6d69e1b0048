/*
 * tg_json — Tien Gow as JSON (rules/tiengow.md §8): tiles, table options, actions, and the
 * records of a hand (tricks, bonuses, endings, payments, net) written back out.
 *
 * Every reader validates strictly (a missing or unknown key, a wrong JSON type, a value not
 * listed or out of range is refused) and answers with a tgj_error plus a sentence for a person,
 * written into a buffer the caller provides, that names the offending key or element. The error
 * names are the protocol's error codes. Nothing here prints, exits or keeps state; the score
 * calculator and the server's wire format share it.
 *
 * Writers return a new jansson reference (NULL only when memory runs out). Amounts are written
 * as units × stake; tile lists are written in tile-name order (low face, then high face), so the
 * same action is always written the same way whatever order its tiles came in.
 */
#ifndef TG_JSON_H
#define TG_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "house_limits.h"
#include "tg_hand.h"

/* In the order of precedence of §8: when several apply, the lowest non-zero value is reported. */
typedef enum {
    TGJ_OK = 0,
    TGJ_BAD_REQUEST,     /* not JSON, or not the documented shape */
    TGJ_IMPOSSIBLE,      /* well formed, but cannot arise (tiles, settle outcome) */
    TGJ_ILLEGAL_ACTION,  /* an action the rules refuse */
} tgj_error;

/* "ok", "bad_request", "impossible", "illegal_action". */
const char *tgj_error_name(tgj_error error);

/*
 * Bounds of the stake (the house's, house_limits.h) and of the banker multiplier. With both at
 * most 1,000,000 the largest amount (5 units × m × 16 for 八支 with 四大包, or three losers' 擒 sum
 * × 4, times the stake) stays below 10^14, far inside int64_t, and the next multiplier (m + 1)
 * fits the engine's uint32_t.
 */
#define TGJ_MIN_STAKE LIMIT_STAKE_MIN
#define TGJ_MAX_STAKE LIMIT_STAKE_MAX
#define TGJ_MAX_MULTIPLIER 1000000
_Static_assert(TGJ_MIN_STAKE >= 1 && TGJ_MAX_STAKE <= 1000000, "amounts stay far inside int64_t");

/* A buffer this large holds any message written here without truncation. */
#define TGJ_MESSAGE_SIZE 512

/* --- tiles --- */

/* The tile named by a JSON string ("1-2", low face first); `where` names it in the message. */
tgj_error tgj_parse_tile(const json_t *value, const char *where, int *kind, char *msg, size_t msg_size);

/* "L-H" as a JSON string. */
json_t *tgj_tile_to_json(int kind);

/* A list of tiles, in tile-name order. */
json_t *tgj_tiles_to_json(const uint8_t *kinds, int n);

/* `hands`: 4 lists of 8 tile names. Only the shape is checked here; tg_check_deal says whether
 * the four hands are exactly the 32 tiles. */
tgj_error tgj_parse_hands(const json_t *value, uint8_t deal[TG_SEATS][TG_HAND_TILES], char *msg, size_t msg_size);

/* --- plain values --- */

/* A seat: an integer 0..3. */
tgj_error tgj_parse_seat(const json_t *value, const char *where, int *seat, char *msg, size_t msg_size);

/* The banker multiplier m: an integer 2..TGJ_MAX_MULTIPLIER. */
tgj_error tgj_parse_multiplier(const json_t *value, const char *where, uint32_t *multiplier, char *msg,
                               size_t msg_size);

/* `stacks`: 4 integers 0..8 (whether they can arise is tg_outcome_check's question). */
tgj_error tgj_parse_stacks(const json_t *value, const char *where, uint8_t stacks[TG_SEATS], char *msg,
                           size_t msg_size);

/* --- options --- */

/*
 * The `options` object, NULL meaning left out (all defaults). Keys and values of §8: wen_zun,
 * rotation, qin_multiplier, qin_pays_all, quartet_bonus, the five natural-hand switches and stake
 * (TGJ_MIN_STAKE..TGJ_MAX_STAKE). out and stake are written only on success.
 */
tgj_error tgj_parse_options(const json_t *value, tg_options *out, int64_t *stake, char *msg, size_t msg_size);

/* Every option with its value, stake included, in the order of §8. */
json_t *tgj_options_to_json(const tg_options *options, int64_t stake);

/* --- actions --- */

/*
 * One action as read: {"seat":S,"play":[tiles]} or {"seat":S,"discard":[tiles]}. Every tile name
 * is checked, but the count is not: a list of 0 or more than 4 tiles is well-formed JSON that
 * the rules refuse (wrong count), so it is the engine's illegal_action, not a bad_request.
 */
typedef struct tgj_action {
    uint8_t seat;
    uint8_t kind;                     /* tg_action_kind */
    size_t count;                     /* tiles listed */
    uint8_t tiles[TG_HAND_TILES];     /* the first min(count, 8) of them, as listed */
} tgj_action;

tgj_error tgj_parse_action(const json_t *value, const char *where, tgj_action *out, char *msg, size_t msg_size);

/* True if the action names 1 to 4 tiles; then *engine is it as the engine takes it. */
bool tgj_action_to_engine(const tgj_action *action, tg_action *engine);

/* A sentence fragment for messages: `seat 2 plays ["1-2","2-4"]` (at most 8 tiles, then "…"). */
void tgj_describe_action(const tgj_action *action, char *out, size_t out_size);

/* {"seat":S,"play":[tiles]}, or {"seat":S,"discard":n}: a discard's faces are never shown. */
json_t *tgj_action_to_json(const tg_action *action);

/* --- the record of a hand --- */

/* [{"leader":S,"plays":[…],"winner":S,"tiles":n}] for the completed tricks. */
json_t *tgj_tricks_to_json(const tg_trick *tricks, int n);

/* [{"kind":k,"from":S,"to":S,"units":u}] with u = units × stake; k "he_zun", "qin_zun", "quartet". */
json_t *tgj_bonuses_to_json(const tg_bonus *bonuses, int n, int64_t stake);

/* The stable name of a bonus kind. */
const char *tgj_bonus_kind_name(int kind);

/* The names of the TG_END_* bits, sorted alphabetically. */
json_t *tgj_endings_to_json(uint8_t endings);

/* Settle mode's `endings`: distinct names among "eight", "seven", "yao", "zun", "quartet". */
tgj_error tgj_parse_endings(const json_t *value, const char *where, uint8_t *endings, char *msg, size_t msg_size);

/* [{"from":…,"to":…,"units":u,"why":…}] with u = units × stake; why "settlement" or "qin". */
json_t *tgj_payments_to_json(const tg_settlement *settlement, int64_t stake);

/* Four amounts × stake. */
json_t *tgj_net_to_json(const int64_t net[TG_SEATS], int64_t stake);

/* Four small integers (stacks). */
json_t *tgj_stacks_to_json(const uint8_t stacks[TG_SEATS]);

#endif
