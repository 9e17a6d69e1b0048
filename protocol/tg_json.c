/*
 * tg_json — strict readers and plain writers of Tien Gow JSON (rules/tiengow.md §8).
 *
 * Readers name what is wrong by its path in the document ("options.rotation", "actions[3].play[1]")
 * so a person can find it; the caller passes that path in as `where`.
 */
#include "tg_json.h"
#include "json_read.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define WHERE_SIZE JSON_PATH_SIZE

const char *tgj_error_name(tgj_error error)
{
    static const char *const NAMES[] = {"ok", "bad_request", "impossible", "illegal_action"};
    return (unsigned)error < sizeof NAMES / sizeof NAMES[0] ? NAMES[error] : "bad_request";
}

/* Writes the message and returns the error, so a refusal is one line at the call site. */
__attribute__((format(printf, 4, 5))) static tgj_error fail(tgj_error error, char *msg, size_t msg_size,
                                                           const char *format, ...)
{
    va_list args;
    va_start(args, format);
    json_vsay(msg, msg_size, format, args);
    va_end(args);
    return error;
}

/* An integer in [low, high]; anything else (a real 2.0, a string "2", …) is a bad request. */
static tgj_error parse_int_range(const json_t *value, const char *where, json_int_t low, json_int_t high,
                                 json_int_t *out, char *msg, size_t msg_size)
{
    if (!json_is_integer(value))
        return fail(TGJ_BAD_REQUEST, msg, msg_size, "%s must be an integer from %lld to %lld, not %s.", where,
                    (long long)low, (long long)high, json_type_phrase(value));
    json_int_t v = json_integer_value(value);
    if (v < low || v > high)
        return fail(TGJ_BAD_REQUEST, msg, msg_size, "%s must be an integer from %lld to %lld, not %lld.", where,
                    (long long)low, (long long)high, (long long)v);
    *out = v;
    return TGJ_OK;
}

/* --- tiles --- */

tgj_error tgj_parse_tile(const json_t *value, const char *where, int *kind, char *msg, size_t msg_size)
{
    if (!json_is_string(value))
        return fail(TGJ_BAD_REQUEST, msg, msg_size, "%s must be a tile name such as \"1-2\", not %s.", where,
                    json_type_phrase(value));
    const char *text = json_string_value(value);
    /* tg_tile_parse stops at a NUL; a longer string with an embedded NUL is not a tile name either. */
    int k = json_string_length(value) == 3 ? tg_tile_parse(text) : -1;
    if (k < 0)
        return fail(TGJ_BAD_REQUEST, msg, msg_size,
                    "%s is \"%.16s\", which is not a tile: a tile is its two faces, low face first, such as \"1-2\".",
                    where, text);
    *kind = k;
    return TGJ_OK;
}

json_t *tgj_tile_to_json(int kind)
{
    char name[4];
    tg_tile_format(kind, name);
    return json_string(name);
}

/* Tile-name order: low face, then high face ("1-2" < "1-3" < … < "6-6"). */
static bool name_before(int a, int b)
{
    const tg_tile_info *x = tg_tile(a), *y = tg_tile(b);
    return x->low != y->low ? x->low < y->low : x->high < y->high;
}

json_t *tgj_tiles_to_json(const uint8_t *kinds, int n)
{
    uint8_t sorted[TG_HAND_TILES];
    if (n < 0 || n > TG_HAND_TILES)
        return NULL;
    memcpy(sorted, kinds, (size_t)n);
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && name_before(sorted[j], sorted[j - 1]); j--) {
            uint8_t t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    json_t *list = json_array();
    for (int i = 0; list != NULL && i < n; i++)
        if (json_array_append_new(list, tgj_tile_to_json(sorted[i])) != 0) {
            json_decref(list);
            return NULL;
        }
    return list;
}

tgj_error tgj_parse_hands(const json_t *value, uint8_t deal[TG_SEATS][TG_HAND_TILES], char *msg, size_t msg_size)
{
    if (!json_is_array(value))
        return fail(TGJ_BAD_REQUEST, msg, msg_size, "hands must be a list of 4 hands of 8 tiles, not %s.",
                    json_type_phrase(value));
    if (json_array_size(value) != TG_SEATS)
        return fail(TGJ_BAD_REQUEST, msg, msg_size, "hands has %zu hands; there is one for each of the 4 seats.",
                    json_array_size(value));
    for (int s = 0; s < TG_SEATS; s++) {
        const json_t *hand = json_array_get(value, (size_t)s);
        if (!json_is_array(hand))
            return fail(TGJ_BAD_REQUEST, msg, msg_size, "hands[%d] must be a list of 8 tiles, not %s.", s,
                        json_type_phrase(hand));
        if (json_array_size(hand) != TG_HAND_TILES)
            return fail(TGJ_BAD_REQUEST, msg, msg_size, "hands[%d] has %zu tiles; every hand is dealt 8.", s,
                        json_array_size(hand));
        for (int i = 0; i < TG_HAND_TILES; i++) {
            char where[WHERE_SIZE];
            int kind = 0;
            snprintf(where, sizeof where, "hands[%d][%d]", s, i);
            tgj_error e = tgj_parse_tile(json_array_get(hand, (size_t)i), where, &kind, msg, msg_size);
            if (e != TGJ_OK)
                return e;
            deal[s][i] = (uint8_t)kind;
        }
    }
    return TGJ_OK;
}

/* --- plain values --- */

tgj_error tgj_parse_seat(const json_t *value, const char *where, int *seat, char *msg, size_t msg_size)
{
    json_int_t v = 0;
    tgj_error e = parse_int_range(value, where, 0, TG_SEATS - 1, &v, msg, msg_size);
    if (e == TGJ_OK)
        *seat = (int)v;
    return e;
}

tgj_error tgj_parse_multiplier(const json_t *value, const char *where, uint32_t *multiplier, char *msg,
                               size_t msg_size)
{
    json_int_t v = 0;
    tgj_error e = parse_int_range(value, where, 2, TGJ_MAX_MULTIPLIER, &v, msg, msg_size);
    if (e == TGJ_OK)
        *multiplier = (uint32_t)v;
    return e;
}

tgj_error tgj_parse_stacks(const json_t *value, const char *where, uint8_t stacks[TG_SEATS], char *msg,
                           size_t msg_size)
{
    if (!json_is_array(value) || json_array_size(value) != TG_SEATS)
        return fail(TGJ_BAD_REQUEST, msg, msg_size, "%s must be a list of 4 integers from 0 to 8 (one a seat).",
                    where);
    for (int s = 0; s < TG_SEATS; s++) {
        char at[WHERE_SIZE];
        json_int_t v;
        json_path_index(at, where, (size_t)s);
        tgj_error e = parse_int_range(json_array_get(value, (size_t)s), at, 0, 8, &v, msg, msg_size);
        if (e != TGJ_OK)
            return e;
        stacks[s] = (uint8_t)v;
    }
    return TGJ_OK;
}

/* --- options --- */

typedef enum { OPT_BOOL, OPT_CHOICE, OPT_QIN_MULTIPLIER, OPT_STAKE } option_kind;

/*
 * The options of §8 as data. A choice's value is its index in `choices`, which is the value of
 * the engine's enum (TG_ROTATION_FLY = 0 "fly", …); `field` is where it lives in tg_options.
 */
static const struct option_row {
    const char *key;
    option_kind kind;
    size_t field;
    const char *choices[2];
} OPTIONS[] = {
    {"wen_zun", OPT_BOOL, offsetof(tg_options, wen_zun), {NULL, NULL}},
    {"rotation", OPT_CHOICE, offsetof(tg_options, rotation), {"fly", "turn"}},
    {"qin_multiplier", OPT_QIN_MULTIPLIER, offsetof(tg_options, qin_multiplier), {NULL, NULL}},
    {"qin_pays_all", OPT_BOOL, offsetof(tg_options, qin_pays_all), {NULL, NULL}},
    {"quartet_bonus", OPT_CHOICE, offsetof(tg_options, quartet_bonus), {"winner", "appearance"}},
    {"seven_civil", OPT_BOOL, offsetof(tg_options, seven_civil), {NULL, NULL}},
    {"seven_military", OPT_BOOL, offsetof(tg_options, seven_military), {NULL, NULL}},
    {"eight_civil", OPT_BOOL, offsetof(tg_options, eight_civil), {NULL, NULL}},
    {"eight_military", OPT_BOOL, offsetof(tg_options, eight_military), {NULL, NULL}},
    {"four_pairs", OPT_BOOL, offsetof(tg_options, four_pairs), {NULL, NULL}},
    {"stake", OPT_STAKE, 0, {NULL, NULL}},
};
#define OPTION_ROWS (sizeof OPTIONS / sizeof OPTIONS[0])

static const struct option_row *find_option(const char *key)
{
    for (size_t i = 0; i < OPTION_ROWS; i++)
        if (strcmp(OPTIONS[i].key, key) == 0)
            return &OPTIONS[i];
    return NULL;
}

/* Reads one option's value into the options (or the stake). */
static tgj_error parse_option(const struct option_row *row, const json_t *value, tg_options *options,
                              int64_t *stake, char *msg, size_t msg_size)
{
    char where[WHERE_SIZE];
    unsigned char *field = (unsigned char *)options + row->field;
    json_path_key(where, "options", row->key);
    switch (row->kind) {
    case OPT_BOOL:
        if (!json_is_boolean(value))
            return fail(TGJ_BAD_REQUEST, msg, msg_size, "%s must be true or false, not %s.", where,
                        json_type_phrase(value));
        *(bool *)field = json_is_true(value);
        return TGJ_OK;
    case OPT_CHOICE:
        if (json_is_string(value))
            for (int i = 0; i < 2; i++)
                if (strcmp(json_string_value(value), row->choices[i]) == 0) {
                    *(uint8_t *)field = (uint8_t)i;
                    return TGJ_OK;
                }
        return fail(TGJ_BAD_REQUEST, msg, msg_size, "%s must be \"%s\" or \"%s\".", where, row->choices[0],
                    row->choices[1]);
    case OPT_QIN_MULTIPLIER:
        if (!json_is_integer(value) || (json_integer_value(value) != 4 && json_integer_value(value) != 2))
            return fail(TGJ_BAD_REQUEST, msg, msg_size, "%s must be the integer 4 or 2.", where);
        *(uint8_t *)field = (uint8_t)json_integer_value(value);
        return TGJ_OK;
    case OPT_STAKE: {
        json_int_t v = 0;
        tgj_error e = parse_int_range(value, where, TGJ_MIN_STAKE, TGJ_MAX_STAKE, &v, msg, msg_size);
        if (e == TGJ_OK)
            *stake = v;
        return e;
    }
    }
    return fail(TGJ_BAD_REQUEST, msg, msg_size, "%s is not understood.", where);
}

tgj_error tgj_parse_options(const json_t *value, tg_options *out, int64_t *stake, char *msg, size_t msg_size)
{
    tg_options options = tg_options_default();
    int64_t ledger_stake = 1;
    if (value != NULL) {
        if (!json_is_object(value))
            return fail(TGJ_BAD_REQUEST, msg, msg_size, "options must be an object, not %s.",
                        json_type_phrase(value));
        const char *key;
        json_t *item;
        json_object_foreach ((json_t *)value, key, item) {
            const struct option_row *row = find_option(key);
            if (row == NULL)
                return fail(TGJ_BAD_REQUEST, msg, msg_size, "options has an unknown key \"%.40s\".", key);
            tgj_error e = parse_option(row, item, &options, &ledger_stake, msg, msg_size);
            if (e != TGJ_OK)
                return e;
        }
    }
    *out = options;
    *stake = ledger_stake;
    return TGJ_OK;
}

/* One option's value as JSON. */
static json_t *option_to_json(const struct option_row *row, const tg_options *options, int64_t stake)
{
    const unsigned char *field = (const unsigned char *)options + row->field;
    switch (row->kind) {
    case OPT_BOOL: return json_boolean(*(const bool *)field);
    case OPT_CHOICE: return json_string(row->choices[*(const uint8_t *)field ? 1 : 0]);
    case OPT_QIN_MULTIPLIER: return json_integer(*(const uint8_t *)field);
    case OPT_STAKE: return json_integer(stake);
    }
    return NULL;
}

json_t *tgj_options_to_json(const tg_options *options, int64_t stake)
{
    json_t *object = json_object();
    for (size_t i = 0; object != NULL && i < OPTION_ROWS; i++)
        if (json_object_set_new(object, OPTIONS[i].key, option_to_json(&OPTIONS[i], options, stake)) != 0) {
            json_decref(object);
            return NULL;
        }
    return object;
}

/* --- actions --- */

/* The tiles of an action: a list whose every element is a tile name; any length. */
static tgj_error parse_action_tiles(const json_t *list, const char *where, tgj_action *out, char *msg,
                                    size_t msg_size)
{
    if (!json_is_array(list))
        return fail(TGJ_BAD_REQUEST, msg, msg_size, "%s must be a list of tile names, not %s.", where,
                    json_type_phrase(list));
    out->count = json_array_size(list);
    for (size_t i = 0; i < out->count; i++) {
        char at[WHERE_SIZE];
        int kind = 0;
        json_path_index(at, where, i);
        tgj_error e = tgj_parse_tile(json_array_get(list, i), at, &kind, msg, msg_size);
        if (e != TGJ_OK)
            return e;
        if (i < TG_HAND_TILES)
            out->tiles[i] = (uint8_t)kind;
    }
    return TGJ_OK;
}

tgj_error tgj_parse_action(const json_t *value, const char *where, tgj_action *out, char *msg, size_t msg_size)
{
    if (!json_is_object(value))
        return fail(TGJ_BAD_REQUEST, msg, msg_size,
                    "%s must be an object {\"seat\":S,\"play\":[tiles]} or {\"seat\":S,\"discard\":[tiles]}, not %s.",
                    where, json_type_phrase(value));
    const char *key;
    json_t *item;
    json_object_foreach ((json_t *)value, key, item) {
        if (strcmp(key, "seat") != 0 && strcmp(key, "play") != 0 && strcmp(key, "discard") != 0)
            return fail(TGJ_BAD_REQUEST, msg, msg_size,
                        "%s has an unknown key \"%.40s\"; an action has only \"seat\" and \"play\" or \"discard\".",
                        where, key);
    }
    const json_t *seat = json_object_get(value, "seat");
    const json_t *play = json_object_get(value, "play");
    const json_t *discard = json_object_get(value, "discard");
    if (seat == NULL)
        return fail(TGJ_BAD_REQUEST, msg, msg_size, "%s has no \"seat\".", where);
    if (play != NULL && discard != NULL)
        return fail(TGJ_BAD_REQUEST, msg, msg_size, "%s has both \"play\" and \"discard\"; an action is one of them.",
                    where);
    if (play == NULL && discard == NULL)
        return fail(TGJ_BAD_REQUEST, msg, msg_size, "%s has neither \"play\" nor \"discard\".", where);

    tgj_action action;
    memset(&action, 0, sizeof action);
    char at[WHERE_SIZE];
    int s;
    json_path_key(at, where, "seat");
    tgj_error e = tgj_parse_seat(seat, at, &s, msg, msg_size);
    if (e != TGJ_OK)
        return e;
    action.seat = (uint8_t)s;
    action.kind = play != NULL ? TG_PLAY : TG_DISCARD;
    json_path_key(at, where, play != NULL ? "play" : "discard");
    e = parse_action_tiles(play != NULL ? play : discard, at, &action, msg, msg_size);
    if (e != TGJ_OK)
        return e;
    *out = action;
    return TGJ_OK;
}

bool tgj_action_to_engine(const tgj_action *action, tg_action *engine)
{
    if (action->count < 1 || action->count > 4)
        return false;
    *engine = tg_action_make(action->seat, (tg_action_kind)action->kind, action->tiles, (int)action->count);
    return true;
}

/* Appends to a message being built; once the buffer is full, further text is dropped. */
static void append(char *out, size_t out_size, size_t *used, const char *text)
{
    if (*used >= out_size)
        return;
    int n = snprintf(out + *used, out_size - *used, "%s", text);
    *used += n > 0 ? (size_t)n : 0;
}

void tgj_describe_action(const tgj_action *action, char *out, size_t out_size)
{
    size_t used = 0;
    if (out_size == 0)
        return;
    out[0] = '\0';
    char head[32];
    snprintf(head, sizeof head, "seat %d %s [", action->seat, action->kind == TG_PLAY ? "plays" : "discards");
    append(out, out_size, &used, head);
    size_t shown = action->count < TG_HAND_TILES ? action->count : TG_HAND_TILES;
    for (size_t i = 0; i < shown; i++) {
        char name[8] = "\"";
        tg_tile_format(action->tiles[i], name + 1);
        if (i > 0)
            append(out, out_size, &used, ",");
        append(out, out_size, &used, name);
        append(out, out_size, &used, "\"");
    }
    append(out, out_size, &used, action->count > shown ? ",…]" : "]");
}

json_t *tgj_action_to_json(const tg_action *action)
{
    json_t *object = json_object();
    if (object == NULL)
        return NULL;
    int failed = json_object_set_new(object, "seat", json_integer(action->seat));
    if (action->kind == TG_PLAY)
        failed |= json_object_set_new(object, "play", tgj_tiles_to_json(action->tiles, action->n));
    else
        failed |= json_object_set_new(object, "discard", json_integer(action->n));
    if (failed) {
        json_decref(object);
        return NULL;
    }
    return object;
}

/* --- the record of a hand --- */

static json_t *trick_to_json(const tg_trick *trick)
{
    json_t *object = json_object();
    json_t *plays = json_array();
    if (object == NULL || plays == NULL) {
        json_decref(object);
        json_decref(plays);
        return NULL;
    }
    int failed = json_object_set_new(object, "leader", json_integer(trick->leader));
    for (int i = 0; i < trick->count; i++)
        failed |= json_array_append_new(plays, tgj_action_to_json(&trick->actions[i]));
    failed |= json_object_set_new(object, "plays", plays);
    failed |= json_object_set_new(object, "winner", json_integer(trick->winner));
    failed |= json_object_set_new(object, "tiles", json_integer(trick->n));
    if (failed) {
        json_decref(object);
        return NULL;
    }
    return object;
}

json_t *tgj_tricks_to_json(const tg_trick *tricks, int n)
{
    json_t *list = json_array();
    for (int i = 0; list != NULL && i < n; i++)
        if (json_array_append_new(list, trick_to_json(&tricks[i])) != 0) {
            json_decref(list);
            return NULL;
        }
    return list;
}

const char *tgj_bonus_kind_name(int kind)
{
    static const char *const NAMES[] = {[TG_BONUS_HE_ZUN] = "he_zun", [TG_BONUS_QIN_ZUN] = "qin_zun",
                                        [TG_BONUS_QUARTET] = "quartet"};
    return kind >= 0 && (size_t)kind < sizeof NAMES / sizeof NAMES[0] ? NAMES[kind] : "unknown";
}

json_t *tgj_bonuses_to_json(const tg_bonus *bonuses, int n, int64_t stake)
{
    json_t *list = json_array();
    for (int i = 0; list != NULL && i < n; i++) {
        const tg_bonus *b = &bonuses[i];
        json_t *row = json_pack("{s:s, s:i, s:i, s:I}", "kind", tgj_bonus_kind_name(b->kind), "from", (int)b->from,
                                "to", (int)b->to, "units", (json_int_t)(b->units * stake));
        if (json_array_append_new(list, row) != 0) {
            json_decref(list);
            return NULL;
        }
    }
    return list;
}

json_t *tgj_endings_to_json(uint8_t endings)
{
    const char *names[TG_END_KINDS];
    int n = 0;
    for (int i = 0; i < TG_END_KINDS; i++)
        if (endings & (1u << i))
            names[n++] = tg_ending_name(i);
    for (int i = 1; i < n; i++) /* alphabetical, as §8 asks */
        for (int j = i; j > 0 && strcmp(names[j], names[j - 1]) < 0; j--) {
            const char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    json_t *list = json_array();
    for (int i = 0; list != NULL && i < n; i++)
        if (json_array_append_new(list, json_string(names[i])) != 0) {
            json_decref(list);
            return NULL;
        }
    return list;
}

/* The endings a settle document may name: the final trick's, not 擒 (its own key) nor a natural hand. */
#define SETTLE_ENDINGS (TG_END_EIGHT | TG_END_SEVEN | TG_END_YAO | TG_END_ZUN | TG_END_QUARTET)

tgj_error tgj_parse_endings(const json_t *value, const char *where, uint8_t *endings, char *msg, size_t msg_size)
{
    if (!json_is_array(value))
        return fail(TGJ_BAD_REQUEST, msg, msg_size, "%s must be a list of ending names, not %s.", where,
                    json_type_phrase(value));
    uint8_t bits = 0;
    for (size_t i = 0; i < json_array_size(value); i++) {
        const json_t *item = json_array_get(value, i);
        int found = -1;
        for (int b = 0; json_is_string(item) && b < TG_END_KINDS; b++)
            if ((SETTLE_ENDINGS & (1u << b)) && strcmp(json_string_value(item), tg_ending_name(b)) == 0)
                found = b;
        if (found < 0)
            return fail(TGJ_BAD_REQUEST, msg, msg_size,
                        "%s[%zu] must be one of \"eight\", \"seven\", \"yao\", \"zun\", \"quartet\".", where, i);
        if (bits & (1u << found))
            return fail(TGJ_BAD_REQUEST, msg, msg_size, "%s names \"%s\" twice; endings are distinct.", where,
                        tg_ending_name(found));
        bits = (uint8_t)(bits | (1u << found));
    }
    *endings = bits;
    return TGJ_OK;
}

json_t *tgj_payments_to_json(const tg_settlement *settlement, int64_t stake)
{
    json_t *list = json_array();
    for (int i = 0; list != NULL && i < settlement->count; i++) {
        const tg_payment *p = &settlement->payments[i];
        json_t *row = json_pack("{s:i, s:i, s:I, s:s}", "from", (int)p->from, "to", (int)p->to, "units",
                                (json_int_t)(p->units * stake), "why", p->why == TG_PAY_QIN ? "qin" : "settlement");
        if (json_array_append_new(list, row) != 0) {
            json_decref(list);
            return NULL;
        }
    }
    return list;
}

json_t *tgj_net_to_json(const int64_t net[TG_SEATS], int64_t stake)
{
    return json_pack("[I, I, I, I]", (json_int_t)(net[0] * stake), (json_int_t)(net[1] * stake),
                     (json_int_t)(net[2] * stake), (json_int_t)(net[3] * stake));
}

json_t *tgj_stacks_to_json(const uint8_t stacks[TG_SEATS])
{
    return json_pack("[i, i, i, i]", (int)stacks[0], (int)stacks[1], (int)stacks[2], (int)stacks[3]);
}
