/*
 * mj_json — strict readers and plain writers of Tianjin JSON (rules/tianjin-mahjong.md §7).
 *
 * Readers name what is wrong by its path in the document ("melds[1].tiles[2]", "options.base")
 * so a person can find it.
 */
#include "mj_json.h"
#include "json_read.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define WHERE_SIZE JSON_PATH_SIZE
#define FIELD_SIZE (WHERE_SIZE + 16) /* a path and one key after it */
#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

const char *mjj_error_name(mjj_error error)
{
    static const char *const NAMES[] = {"ok",        "bad_request",  "impossible",
                                        "not_a_win", "under_minimum", "illegal_action"};
    return (unsigned)error < COUNT(NAMES) ? NAMES[error] : "bad_request";
}

mjj_error mjj_error_of_status(mj_status status)
{
    if (status == MJ_OK)
        return MJJ_OK;
    if (status == MJ_ERR_NOT_A_WIN)
        return MJJ_NOT_A_WIN;
    if (status == MJ_ERR_UNDER_MINIMUM)
        return MJJ_UNDER_MINIMUM;
    return mj_status_is_impossible(status) ? MJJ_IMPOSSIBLE : MJJ_BAD_REQUEST;
}

/* Writes the message and returns the error, so a refusal is one line at the call site. */
__attribute__((format(printf, 4, 5))) static mjj_error fail(mjj_error error, char *msg, size_t msg_size,
                                                           const char *format, ...)
{
    va_list args;
    va_start(args, format);
    json_vsay(msg, msg_size, format, args);
    va_end(args);
    return error;
}

static mjj_error parse_int_range(const json_t *value, const char *where, json_int_t low, json_int_t high,
                                 json_int_t *out, char *msg, size_t msg_size)
{
    if (!json_is_integer(value))
        return fail(MJJ_BAD_REQUEST, msg, msg_size, "%s must be an integer from %lld to %lld, not %s.", where,
                    (long long)low, (long long)high, json_type_phrase(value));
    json_int_t v = json_integer_value(value);
    if (v < low || v > high)
        return fail(MJJ_BAD_REQUEST, msg, msg_size, "%s must be an integer from %lld to %lld, not %lld.", where,
                    (long long)low, (long long)high, (long long)v);
    *out = v;
    return MJJ_OK;
}

static mjj_error parse_bool(const json_t *value, const char *where, bool *out, char *msg, size_t msg_size)
{
    if (!json_is_boolean(value))
        return fail(MJJ_BAD_REQUEST, msg, msg_size, "%s must be true or false, not %s.", where,
                    json_type_phrase(value));
    *out = json_is_true(value);
    return MJJ_OK;
}

static mjj_error parse_seat(const json_t *value, const char *where, int *seat, char *msg, size_t msg_size)
{
    json_int_t v;
    mjj_error e = parse_int_range(value, where, 0, MJ_SEATS - 1, &v, msg, msg_size);
    if (e == MJJ_OK)
        *seat = (int)v;
    return e;
}

static bool listed(const char *key, const char *const *keys, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(key, keys[i]) == 0)
            return true;
    return false;
}

/* No key but these, and (when required) every one of them except "options". */
static mjj_error check_keys(const json_t *object, const char *where, const char *const *keys, size_t n,
                            bool required, char *msg, size_t msg_size)
{
    const char *key;
    json_t *value;
    json_object_foreach ((json_t *)object, key, value) {
        if (!listed(key, keys, n))
            return fail(MJJ_BAD_REQUEST, msg, msg_size, "%s has an unknown key \"%.40s\".", where, key);
    }
    for (size_t i = 0; required && i < n; i++)
        if (strcmp(keys[i], "options") != 0 && json_object_get(object, keys[i]) == NULL)
            return fail(MJJ_BAD_REQUEST, msg, msg_size, "%s has no \"%s\"; it is required.", where, keys[i]);
    return MJJ_OK;
}

/* --- tiles --- */

mjj_error mjj_parse_tile(const json_t *value, const char *where, int *kind, char *msg, size_t msg_size)
{
    if (!json_is_string(value))
        return fail(MJJ_BAD_REQUEST, msg, msg_size, "%s must be a tile name such as \"5m\" or \"E\", not %s.", where,
                    json_type_phrase(value));
    const char *text = json_string_value(value);
    /* mj_kind_parse stops at a NUL; a string with an embedded NUL is no tile name either. */
    int k = json_string_length(value) == strlen(text) ? mj_kind_parse(text) : -1;
    if (k < 0)
        return fail(MJJ_BAD_REQUEST, msg, msg_size,
                    "%s is \"%.16s\", which is not a tile: \"1m\"..\"9m\", \"1p\"..\"9p\", \"1s\"..\"9s\", "
                    "\"E\" \"S\" \"W\" \"N\" or \"C\" \"F\" \"P\".",
                    where, text);
    *kind = k;
    return MJJ_OK;
}

json_t *mjj_tile_to_json(int kind) { return json_string(mj_kind_name(kind)); }

/* --- options --- */

static const char *const OPTION_KEYS[] = {"gua_da_feng", "wild_discard_penalty", "gold_kong_fan", "chan",
                                          "must_sit",    "max_pulls",            "no_replacement", "base"};

static mjj_error parse_option(const char *key, const json_t *value, mj_options *o, char *msg, size_t msg_size)
{
    char where[WHERE_SIZE];
    snprintf(where, sizeof where, "options.%s", key);
    json_int_t v;
    mjj_error e;
    if (strcmp(key, "gua_da_feng") == 0)
        return parse_bool(value, where, &o->gua_da_feng, msg, msg_size);
    if (strcmp(key, "wild_discard_penalty") == 0)
        return parse_bool(value, where, &o->wild_discard_penalty, msg, msg_size);
    if (strcmp(key, "chan") == 0)
        return parse_bool(value, where, &o->chan, msg, msg_size);
    if (strcmp(key, "must_sit") == 0)
        return parse_bool(value, where, &o->must_sit, msg, msg_size);
    if (strcmp(key, "gold_kong_fan") == 0) {
        if (!json_is_integer(value))
            return fail(MJJ_BAD_REQUEST, msg, msg_size, "%s must be the integer 8, 4 or 0, not %s.", where,
                        json_type_phrase(value));
        v = json_integer_value(value);
        if (v != 8 && v != 4 && v != 0)
            return fail(MJJ_BAD_REQUEST, msg, msg_size, "%s must be 8, 4 or 0 (金杠 not allowed), not %lld.", where,
                        (long long)v);
        o->gold_kong_fan = (uint8_t)v;
        return MJJ_OK;
    }
    if (strcmp(key, "max_pulls") == 0) {
        if ((e = parse_int_range(value, where, 1, 2, &v, msg, msg_size)) == MJJ_OK)
            o->max_pulls = (uint8_t)v;
        return e;
    }
    if (strcmp(key, "base") == 0) {
        if ((e = parse_int_range(value, where, 1, MJ_BASE_MAX, &v, msg, msg_size)) == MJJ_OK)
            o->base = (uint32_t)v;
        return e;
    }
    /* no_replacement */
    const char *text = json_string_value(value);
    if (text != NULL && strcmp(text, "draw") == 0 && json_string_length(value) == 4)
        o->no_replacement = MJ_NO_REPLACEMENT_DRAW;
    else if (text != NULL && strcmp(text, "skip_indicator") == 0 && json_string_length(value) == 14)
        o->no_replacement = MJ_NO_REPLACEMENT_SKIP_INDICATOR;
    else
        return fail(MJJ_BAD_REQUEST, msg, msg_size, "%s must be \"draw\" or \"skip_indicator\".", where);
    return MJJ_OK;
}

mjj_error mjj_parse_options(const json_t *value, mj_options *out, char *msg, size_t msg_size)
{
    mj_options o = mj_options_default();
    if (value != NULL) {
        if (!json_is_object(value))
            return fail(MJJ_BAD_REQUEST, msg, msg_size, "options must be an object, not %s.", json_type_phrase(value));
        mjj_error e = check_keys(value, "options", OPTION_KEYS, COUNT(OPTION_KEYS), false, msg, msg_size);
        if (e != MJJ_OK)
            return e;
        const char *key;
        json_t *option;
        json_object_foreach ((json_t *)value, key, option) {
            if ((e = parse_option(key, option, &o, msg, msg_size)) != MJJ_OK)
                return e;
        }
    }
    *out = o;
    return MJJ_OK;
}

/* --- score mode --- */

static const char *const SCORE_KEYS[] = {"mode",     "game",      "options",          "concealed",  "melds",
                                         "indicator", "win_tile", "kong_replacement", "first_draw", "dealer"};
static const char *const MELD_KEYS[] = {"kind", "tiles"};

/* The fixed "mode" and "game" of a document. */
static mjj_error parse_header(const json_t *doc, const char *mode, char *msg, size_t msg_size)
{
    const char *m = json_string_value(json_object_get(doc, "mode"));
    if (m == NULL || strcmp(m, mode) != 0)
        return fail(MJJ_BAD_REQUEST, msg, msg_size, "mode must be \"score\" or \"settle\".");
    const char *g = json_string_value(json_object_get(doc, "game"));
    if (g == NULL || strcmp(g, "tianjin") != 0)
        return fail(MJJ_BAD_REQUEST, msg, msg_size, "game must be \"tianjin\" for a Tianjin document.");
    return MJJ_OK;
}

/* A list of tile names, every name checked; *n is the list's length (kinds holds the first `room`). */
static mjj_error parse_tile_list(const json_t *value, const char *where, uint8_t *kinds, size_t room, size_t *n,
                                 char *msg, size_t msg_size)
{
    if (!json_is_array(value))
        return fail(MJJ_BAD_REQUEST, msg, msg_size, "%s must be a list of tile names, not %s.", where,
                    json_type_phrase(value));
    *n = json_array_size(value);
    for (size_t i = 0; i < *n; i++) {
        char at[WHERE_SIZE];
        int kind;
        json_path_index(at, where, i);
        mjj_error e = mjj_parse_tile(json_array_get(value, i), at, &kind, msg, msg_size);
        if (e != MJJ_OK)
            return e;
        if (i < room)
            kinds[i] = (uint8_t)kind;
    }
    return MJJ_OK;
}

static mjj_error parse_meld(const json_t *value, const char *where, mj_meld *meld, char *msg, size_t msg_size)
{
    static const char *const KINDS[] = {[MJ_MELD_PUNG] = "pung", [MJ_MELD_KONG] = "kong",
                                        [MJ_MELD_CONCEALED_KONG] = "concealed_kong"};
    if (!json_is_object(value))
        return fail(MJJ_BAD_REQUEST, msg, msg_size, "%s must be an object {\"kind\":…,\"tiles\":[…]}, not %s.", where,
                    json_type_phrase(value));
    mjj_error e = check_keys(value, where, MELD_KEYS, COUNT(MELD_KEYS), true, msg, msg_size);
    if (e != MJJ_OK)
        return e;
    const char *kind = json_string_value(json_object_get(value, "kind"));
    int k = -1;
    for (int i = 0; kind != NULL && i < (int)COUNT(KINDS); i++)
        if (strcmp(kind, KINDS[i]) == 0)
            k = i;
    if (k < 0)
        return fail(MJJ_BAD_REQUEST, msg, msg_size, "%s.kind must be \"pung\", \"kong\" or \"concealed_kong\".", where);
    char at[FIELD_SIZE];
    snprintf(at, sizeof at, "%s.tiles", where);
    uint8_t tiles[4];
    size_t n;
    if ((e = parse_tile_list(json_object_get(value, "tiles"), at, tiles, 4, &n, msg, msg_size)) != MJJ_OK)
        return e;
    size_t want = k == MJ_MELD_PUNG ? 3 : 4;
    if (n != want)
        return fail(MJJ_BAD_REQUEST, msg, msg_size, "%s has %zu tiles; a %s has %zu.", at, n, KINDS[k], want);
    for (size_t i = 1; i < n; i++)
        if (tiles[i] != tiles[0])
            return fail(MJJ_BAD_REQUEST, msg, msg_size, "%s are not all one kind; a %s is %zu of one tile.", at,
                        KINDS[k], want);
    *meld = (mj_meld){.kind = (uint8_t)k, .tile = tiles[0]};
    return MJJ_OK;
}

static mjj_error parse_melds(const json_t *value, mj_winning_hand *hand, char *msg, size_t msg_size)
{
    if (!json_is_array(value))
        return fail(MJJ_BAD_REQUEST, msg, msg_size, "melds must be a list of melds, not %s.", json_type_phrase(value));
    if (json_array_size(value) > MJ_MAX_MELDS)
        return fail(MJJ_BAD_REQUEST, msg, msg_size, "melds has %zu melds; a hand has at most 4.",
                    json_array_size(value));
    hand->n_melds = (uint8_t)json_array_size(value);
    for (size_t i = 0; i < hand->n_melds; i++) {
        char at[WHERE_SIZE];
        json_path_index(at, "melds", i);
        mjj_error e = parse_meld(json_array_get(value, i), at, &hand->melds[i], msg, msg_size);
        if (e != MJJ_OK)
            return e;
    }
    return MJJ_OK;
}

mjj_error mjj_parse_score_request(const json_t *doc, mj_options *options, mj_winning_hand *hand, char *msg,
                                  size_t msg_size)
{
    memset(hand, 0, sizeof *hand);
    if (!json_is_object(doc))
        return fail(MJJ_BAD_REQUEST, msg, msg_size, "The document must be a JSON object.");
    mjj_error e = check_keys(doc, "The score document", SCORE_KEYS, COUNT(SCORE_KEYS), true, msg, msg_size);
    if (e == MJJ_OK)
        e = parse_header(doc, "score", msg, msg_size);
    if (e == MJJ_OK)
        e = mjj_parse_options(json_object_get(doc, "options"), options, msg, msg_size);
    if (e == MJJ_OK)
        e = parse_melds(json_object_get(doc, "melds"), hand, msg, msg_size);
    if (e != MJJ_OK)
        return e;

    uint8_t concealed[MJ_HAND_TILES];
    size_t n;
    e = parse_tile_list(json_object_get(doc, "concealed"), "concealed", concealed, MJ_HAND_TILES, &n, msg, msg_size);
    if (e != MJJ_OK)
        return e;
    size_t want = (size_t)(MJ_HAND_TILES - 3 * hand->n_melds);
    if (n != want)
        return fail(MJJ_BAD_REQUEST, msg, msg_size,
                    "concealed has %zu tiles; with %d meld%s the hand before the winning tile has %zu.", n,
                    hand->n_melds, hand->n_melds == 1 ? "" : "s", want);
    for (size_t i = 0; i < n; i++)
        hand->concealed.n[concealed[i]]++;

    int kind;
    if ((e = mjj_parse_tile(json_object_get(doc, "indicator"), "indicator", &kind, msg, msg_size)) != MJJ_OK)
        return e;
    hand->indicator = (uint8_t)kind;
    if ((e = mjj_parse_tile(json_object_get(doc, "win_tile"), "win_tile", &kind, msg, msg_size)) != MJJ_OK)
        return e;
    hand->win_tile = (uint8_t)kind;
    e = parse_bool(json_object_get(doc, "kong_replacement"), "kong_replacement", &hand->kong_replacement, msg,
                   msg_size);
    if (e == MJJ_OK)
        e = parse_bool(json_object_get(doc, "first_draw"), "first_draw", &hand->first_draw, msg, msg_size);
    if (e == MJJ_OK)
        e = parse_bool(json_object_get(doc, "dealer"), "dealer", &hand->dealer, msg, msg_size);
    return e;
}

/* --- settle mode --- */

static const char *const SETTLE_KEYS[] = {"mode",   "game", "options", "banker", "sat",          "pulls",
                                          "winner", "fan",  "kongs",   "chan",   "wild_discards"};
static const char *const KONG_KEYS[] = {"seat", "kind"};

static mjj_error parse_pulls(const json_t *value, const mj_options *options, mj_outcome *o, char *msg,
                             size_t msg_size)
{
    if (!json_is_array(value) || json_array_size(value) != MJ_SEATS)
        return fail(MJJ_BAD_REQUEST, msg, msg_size, "pulls must be a list of 4 integers, one per seat.");
    for (size_t s = 0; s < MJ_SEATS; s++) {
        char at[WHERE_SIZE];
        json_int_t v;
        json_path_index(at, "pulls", s);
        mjj_error e = parse_int_range(json_array_get(value, s), at, 0, options->max_pulls, &v, msg, msg_size);
        if (e != MJJ_OK)
            return e;
        o->pulls[s] = (uint8_t)v;
    }
    return MJJ_OK;
}

/* winner and fan together: a seat with an integer 2..MJ_MAX_FAN, or null with null. */
static mjj_error parse_winner_and_fan(const json_t *doc, mj_outcome *o, char *msg, size_t msg_size)
{
    const json_t *winner = json_object_get(doc, "winner"), *fan = json_object_get(doc, "fan");
    if (json_is_null(winner)) {
        if (!json_is_null(fan))
            return fail(MJJ_BAD_REQUEST, msg, msg_size, "fan must be null when winner is null (a drawn hand).");
        o->winner = -1;
        o->fan = 0;
        return MJJ_OK;
    }
    int seat;
    json_int_t v;
    mjj_error e = parse_seat(winner, "winner", &seat, msg, msg_size);
    if (e != MJJ_OK) {
        if (!json_is_integer(winner))
            return fail(MJJ_BAD_REQUEST, msg, msg_size, "winner must be a seat 0 to 3, or null for a drawn hand, not %s.",
                        json_type_phrase(winner));
        return e;
    }
    if ((e = parse_int_range(fan, "fan", 2, MJ_MAX_FAN, &v, msg, msg_size)) != MJJ_OK)
        return e;
    o->winner = (int8_t)seat;
    o->fan = (uint32_t)v;
    return MJJ_OK;
}

static mjj_error parse_kongs(const json_t *value, mj_outcome *o, int per_seat[MJ_SEATS], char *msg, size_t msg_size)
{
    static const char *const KINDS[] = {[MJ_KONG_EXPOSED] = "kong", [MJ_KONG_CONCEALED] = "concealed_kong",
                                        [MJ_KONG_GOLD] = "gold_kong"};
    if (!json_is_array(value))
        return fail(MJJ_BAD_REQUEST, msg, msg_size, "kongs must be a list of {\"seat\":S,\"kind\":K}, not %s.",
                    json_type_phrase(value));
    for (size_t i = 0; i < json_array_size(value); i++) {
        const json_t *kong = json_array_get(value, i);
        char at[WHERE_SIZE], field[FIELD_SIZE];
        json_path_index(at, "kongs", i);
        if (!json_is_object(kong))
            return fail(MJJ_BAD_REQUEST, msg, msg_size, "%s must be an object {\"seat\":S,\"kind\":K}, not %s.", at,
                        json_type_phrase(kong));
        mjj_error e = check_keys(kong, at, KONG_KEYS, COUNT(KONG_KEYS), true, msg, msg_size);
        if (e != MJJ_OK)
            return e;
        int seat;
        snprintf(field, sizeof field, "%s.seat", at);
        if ((e = parse_seat(json_object_get(kong, "seat"), field, &seat, msg, msg_size)) != MJJ_OK)
            return e;
        const char *kind = json_string_value(json_object_get(kong, "kind"));
        int k = -1;
        for (int j = 0; kind != NULL && j < (int)COUNT(KINDS); j++)
            if (strcmp(kind, KINDS[j]) == 0)
                k = j;
        if (k < 0)
            return fail(MJJ_BAD_REQUEST, msg, msg_size,
                        "%s.kind must be \"kong\", \"concealed_kong\" or \"gold_kong\".", at);
        per_seat[seat]++;
        if (i < MJ_MAX_KONGS)
            o->kongs[o->n_kongs++] = (mj_kong_made){.seat = (uint8_t)seat, .kind = (uint8_t)k};
    }
    return MJJ_OK;
}

static mjj_error parse_wild_discards(const json_t *value, mj_outcome *o, char *msg, size_t msg_size)
{
    if (!json_is_array(value))
        return fail(MJJ_BAD_REQUEST, msg, msg_size, "wild_discards must be a list of seats, not %s.",
                    json_type_phrase(value));
    unsigned seen = 0;
    for (size_t i = 0; i < json_array_size(value); i++) {
        char at[WHERE_SIZE];
        int seat;
        json_path_index(at, "wild_discards", i);
        mjj_error e = parse_seat(json_array_get(value, i), at, &seat, msg, msg_size);
        if (e != MJJ_OK)
            return e;
        if (seen & (1u << seat))
            return fail(MJJ_BAD_REQUEST, msg, msg_size, "wild_discards names seat %d twice; list each seat once.",
                        seat);
        seen |= 1u << seat;
        o->wild_discards[o->n_wild_discards++] = (uint8_t)seat;
    }
    return MJJ_OK;
}

mjj_error mjj_parse_settle_request(const json_t *doc, mj_options *options, mj_outcome *o, char *msg,
                                   size_t msg_size)
{
    memset(o, 0, sizeof *o);
    if (!json_is_object(doc))
        return fail(MJJ_BAD_REQUEST, msg, msg_size, "The document must be a JSON object.");
    mjj_error e = check_keys(doc, "The settle document", SETTLE_KEYS, COUNT(SETTLE_KEYS), true, msg, msg_size);
    if (e == MJJ_OK)
        e = parse_header(doc, "settle", msg, msg_size);
    if (e == MJJ_OK)
        e = mjj_parse_options(json_object_get(doc, "options"), options, msg, msg_size);
    int banker = 0;
    if (e == MJJ_OK)
        e = parse_seat(json_object_get(doc, "banker"), "banker", &banker, msg, msg_size);
    o->banker = (uint8_t)banker;
    if (e == MJJ_OK)
        e = parse_bool(json_object_get(doc, "sat"), "sat", &o->sat, msg, msg_size);
    if (e == MJJ_OK)
        e = parse_pulls(json_object_get(doc, "pulls"), options, o, msg, msg_size);
    if (e == MJJ_OK)
        e = parse_winner_and_fan(doc, o, msg, msg_size);
    int per_seat[MJ_SEATS] = {0};
    if (e == MJJ_OK)
        e = parse_kongs(json_object_get(doc, "kongs"), o, per_seat, msg, msg_size);
    if (e == MJJ_OK)
        e = parse_bool(json_object_get(doc, "chan"), "chan", &o->chan, msg, msg_size);
    if (e == MJJ_OK)
        e = parse_wild_discards(json_object_get(doc, "wild_discards"), o, msg, msg_size);
    if (e != MJJ_OK)
        return e;
    for (int s = 0; s < MJ_SEATS; s++) /* a list too long for any outcome: some seat has more than four */
        if (per_seat[s] > MJ_MAX_KONGS_PER_SEAT)
            return fail(MJJ_IMPOSSIBLE, msg, msg_size, "Seat %d makes %d kongs; a seat makes at most four.", s,
                        per_seat[s]);
    return MJJ_OK;
}

/* --- answers --- */

/* The answer once every key is set; NULL (memory ran out) if any was not. */
static json_t *complete(json_t *value, int failed)
{
    if (failed) {
        json_decref(value);
        return NULL;
    }
    return value;
}

static json_t *group_to_json(const mj_group *group)
{
    json_t *tiles = json_array();
    int failed = tiles == NULL;
    for (int i = 0; !failed && i < mj_group_size(group); i++)
        failed |= json_array_append_new(tiles, mjj_tile_to_json(mj_group_tile(group, i)));
    return complete(tiles, failed);
}

json_t *mjj_score_to_json(const mj_score *score)
{
    json_t *answer = json_object(), *names = json_array(), *reading = json_array();
    int failed = answer == NULL || names == NULL || reading == NULL;
    for (int f = 0; !failed && f < MJ_FAN_COUNT; f++)
        if (score->fans & MJ_FAN_BIT(f))
            failed |= json_array_append_new(names, json_string(mj_fan_zh((mj_fan)f)));
    for (int g = 0; !failed && g < score->n_groups; g++)
        failed |= json_array_append_new(reading, group_to_json(&score->groups[g]));
    if (failed) {
        json_decref(names);
        json_decref(reading);
        json_decref(answer);
        return NULL;
    }
    failed |= json_object_set_new(answer, "fan", json_integer(score->fan));
    failed |= json_object_set_new(answer, "names", names);
    failed |= json_object_set_new(answer, "reading", reading);
    return complete(answer, failed);
}

static json_t *payment_to_json(const mj_payment *p)
{
    json_t *entry = json_object();
    if (entry == NULL)
        return NULL;
    int failed = json_object_set_new(entry, "from", json_integer(p->from));
    failed |= json_object_set_new(entry, "to", json_integer(p->to));
    failed |= json_object_set_new(entry, "units", json_integer(p->units));
    failed |= json_object_set_new(entry, "why", json_string(mj_payment_why_text((mj_payment_why)p->why)));
    return complete(entry, failed);
}

json_t *mjj_settlement_to_json(const mj_settlement *s)
{
    json_t *answer = json_object(), *payments = json_array(), *net = json_array();
    int failed = answer == NULL || payments == NULL || net == NULL;
    for (int i = 0; !failed && i < s->count; i++)
        failed |= json_array_append_new(payments, payment_to_json(&s->payments[i]));
    for (int seat = 0; !failed && seat < MJ_SEATS; seat++)
        failed |= json_array_append_new(net, json_integer(s->net[seat]));
    if (failed) {
        json_decref(payments);
        json_decref(net);
        json_decref(answer);
        return NULL;
    }
    failed |= json_object_set_new(answer, "payments", payments);
    failed |= json_object_set_new(answer, "net", net);
    failed |= json_object_set_new(answer, "next_banker", json_integer(s->next_banker));
    failed |= json_object_set_new(answer, "next_must_sit", json_boolean(s->next_must_sit));
    return complete(answer, failed);
}

/* --- the table (games/tianjin) --- */

mjj_error mjj_parse_table_options(const json_t *value, mj_options *out, int *claim_seconds, char *msg,
                                  size_t msg_size)
{
    if (value != NULL && !json_is_object(value))
        return fail(MJJ_BAD_REQUEST, msg, msg_size, "options must be an object, not %s.", json_type_phrase(value));
    const json_t *seconds = json_object_get(value, "claim_seconds");
    json_int_t v = MJJ_CLAIM_SECONDS_DEFAULT;
    if (seconds != NULL) {
        mjj_error e = parse_int_range(seconds, "options.claim_seconds", MJJ_CLAIM_SECONDS_MIN, MJJ_CLAIM_SECONDS_MAX,
                                      &v, msg, msg_size);
        if (e != MJJ_OK)
            return e;
    }
    /* The rules' options are read by the calculator's own reader, which knows no claim_seconds. */
    json_t *rules = value != NULL ? json_copy((json_t *)value) : NULL;
    if (value != NULL && (rules == NULL || (seconds != NULL && json_object_del(rules, "claim_seconds") != 0))) {
        json_decref(rules);
        return fail(MJJ_BAD_REQUEST, msg, msg_size, "Out of memory.");
    }
    mjj_error e = mjj_parse_options(rules, out, msg, msg_size);
    json_decref(rules);
    if (e == MJJ_OK)
        *claim_seconds = (int)v;
    return e;
}

json_t *mjj_table_options_to_json(const mj_options *o, int claim_seconds)
{
    json_t *object = json_object();
    if (object == NULL)
        return NULL;
    int failed = json_object_set_new(object, "gua_da_feng", json_boolean(o->gua_da_feng));
    failed |= json_object_set_new(object, "wild_discard_penalty", json_boolean(o->wild_discard_penalty));
    failed |= json_object_set_new(object, "gold_kong_fan", json_integer(o->gold_kong_fan));
    failed |= json_object_set_new(object, "chan", json_boolean(o->chan));
    failed |= json_object_set_new(object, "must_sit", json_boolean(o->must_sit));
    failed |= json_object_set_new(object, "max_pulls", json_integer(o->max_pulls));
    failed |= json_object_set_new(object, "no_replacement",
                                  json_string(o->no_replacement == MJ_NO_REPLACEMENT_SKIP_INDICATOR ? "skip_indicator"
                                                                                                    : "draw"));
    failed |= json_object_set_new(object, "base", json_integer(o->base));
    failed |= json_object_set_new(object, "claim_seconds", json_integer(claim_seconds));
    return complete(object, failed);
}

/* --- actions --- */

/* What each action's value is: rows in mjj_action_kind's order. */
typedef enum { VALUE_BOOL, VALUE_PULLS, VALUE_TILE, VALUE_TRUE } action_value;

static const struct {
    const char *key;
    action_value value;
} ACTIONS[MJJ_ACT_KINDS] = {
    [MJJ_ACT_SIT] = {"sit", VALUE_BOOL},
    [MJJ_ACT_PULL] = {"pull", VALUE_PULLS},
    [MJJ_ACT_DISCARD] = {"discard", VALUE_TILE},
    [MJJ_ACT_WIN] = {"win", VALUE_TRUE},
    [MJJ_ACT_CONCEALED_KONG] = {"concealed_kong", VALUE_TILE},
    [MJJ_ACT_ADDED_KONG] = {"added_kong", VALUE_TILE},
    [MJJ_ACT_PUNG] = {"pung", VALUE_TRUE},
    [MJJ_ACT_KONG] = {"kong", VALUE_TRUE},
    [MJJ_ACT_PASS] = {"pass", VALUE_TRUE},
};

const char *mjj_action_key(mjj_action_kind kind) { return (unsigned)kind < MJJ_ACT_KINDS ? ACTIONS[kind].key : ""; }

mjj_error mjj_parse_action(const json_t *value, const char *where, mjj_action *out, char *msg, size_t msg_size)
{
    static const char SHAPES[] = "{\"sit\":true|false}, {\"pull\":0..2}, {\"discard\":\"5m\"}, {\"win\":true}, "
                                 "{\"concealed_kong\":\"5m\"}, {\"added_kong\":\"5m\"}, {\"pung\":true}, "
                                 "{\"kong\":true} or {\"pass\":true}";
    if (!json_is_object(value) || json_object_size(value) != 1)
        return fail(MJJ_BAD_REQUEST, msg, msg_size, "%s must be an object of one key: %s.", where, SHAPES);
    const char *key = json_object_iter_key(json_object_iter((json_t *)value));
    const json_t *given = json_object_iter_value(json_object_iter((json_t *)value));
    int kind = -1;
    for (int k = 0; k < MJJ_ACT_KINDS; k++)
        if (strcmp(key, ACTIONS[k].key) == 0)
            kind = k;
    if (kind < 0)
        return fail(MJJ_BAD_REQUEST, msg, msg_size, "%s has the unknown key \"%.40s\"; an action is %s.", where, key,
                    SHAPES);
    char at[FIELD_SIZE];
    snprintf(at, sizeof at, "%s.%s", where, key);
    mjj_action a = {.kind = (mjj_action_kind)kind, .value = 0};
    mjj_error e = MJJ_OK;
    json_int_t v;
    bool flag = false;
    switch (ACTIONS[kind].value) {
    case VALUE_BOOL:
        if ((e = parse_bool(given, at, &flag, msg, msg_size)) == MJJ_OK)
            a.value = flag;
        break;
    case VALUE_PULLS:
        if ((e = parse_int_range(given, at, 0, MJJ_MAX_PULLS, &v, msg, msg_size)) == MJJ_OK)
            a.value = (int)v;
        break;
    case VALUE_TILE:
        e = mjj_parse_tile(given, at, &a.value, msg, msg_size);
        break;
    case VALUE_TRUE:
        if (!json_is_true(given))
            return fail(MJJ_BAD_REQUEST, msg, msg_size, "%s must be true.", at);
        break;
    }
    if (e == MJJ_OK)
        *out = a;
    return e;
}

json_t *mjj_action_to_json(const mjj_action *a)
{
    if ((unsigned)a->kind >= MJJ_ACT_KINDS)
        return NULL;
    json_t *value;
    switch (ACTIONS[a->kind].value) {
    case VALUE_BOOL: value = json_boolean(a->value); break;
    case VALUE_PULLS: value = json_integer(a->value); break;
    case VALUE_TILE: value = mjj_tile_to_json(a->value); break;
    default: value = json_true(); break;
    }
    return json_pack("{s:o}", ACTIONS[a->kind].key, value);
}

/* --- views and results --- */

json_t *mjj_tiles_to_json(const uint8_t *kinds, int n)
{
    json_t *tiles = json_array();
    int failed = tiles == NULL;
    for (int i = 0; !failed && i < n; i++)
        failed |= json_array_append_new(tiles, mjj_tile_to_json(kinds[i]));
    return complete(tiles, failed);
}

json_t *mjj_counts_to_json(const mj_counts *counts)
{
    json_t *tiles = json_array();
    int failed = tiles == NULL;
    for (int k = 0; !failed && k < MJ_KINDS; k++)
        for (int c = 0; !failed && c < counts->n[k]; c++)
            failed |= json_array_append_new(tiles, mjj_tile_to_json(k));
    return complete(tiles, failed);
}

json_t *mjj_kind_set_to_json(mj_kind_set set)
{
    json_t *kinds = json_array();
    int failed = kinds == NULL;
    for (int k = 0; !failed && k < MJ_KINDS; k++)
        if (mj_kind_set_has(set, k))
            failed |= json_array_append_new(kinds, mjj_tile_to_json(k));
    return complete(kinds, failed);
}

static const char *const MELD_NAMES[] = {[MJ_MELD_PUNG] = "pung", [MJ_MELD_KONG] = "kong",
                                         [MJ_MELD_CONCEALED_KONG] = "concealed_kong"};

json_t *mjj_meld_to_json(const mj_meld *meld)
{
    uint8_t tiles[4] = {meld->tile, meld->tile, meld->tile, meld->tile};
    const char *kind = meld->kind < COUNT(MELD_NAMES) ? MELD_NAMES[meld->kind] : "pung";
    return json_pack("{s:s, s:o}", "kind", kind, "tiles", mjj_tiles_to_json(tiles, mj_meld_size(meld)));
}

json_t *mjj_melds_to_json(const mj_meld *melds, int n)
{
    json_t *list = json_array();
    int failed = list == NULL;
    for (int i = 0; !failed && i < n; i++)
        failed |= json_array_append_new(list, mjj_meld_to_json(&melds[i]));
    return complete(list, failed);
}

json_t *mjj_kongs_to_json(const mj_kong_made *kongs, int n)
{
    static const char *const KINDS[] = {[MJ_KONG_EXPOSED] = "kong", [MJ_KONG_CONCEALED] = "concealed_kong",
                                        [MJ_KONG_GOLD] = "gold_kong"};
    json_t *list = json_array();
    int failed = list == NULL;
    for (int i = 0; !failed && i < n; i++)
        failed |= json_array_append_new(list, json_pack("{s:i, s:s}", "seat", kongs[i].seat, "kind",
                                                        kongs[i].kind < COUNT(KINDS) ? KINDS[kongs[i].kind] : "kong"));
    return complete(list, failed);
}

json_t *mjj_win_to_json(int seat, const mj_options *options, const mj_winning_hand *hand, const mj_score *score)
{
    json_t *win = json_object(), *scored = mjj_score_to_json(score), *fans = json_array();
    int failed = win == NULL || scored == NULL || fans == NULL;
    for (int f = 0; !failed && f < MJ_FAN_COUNT; f++)
        if (score->fans & MJ_FAN_BIT(f))
            failed |= json_array_append_new(fans, json_pack("{s:s, s:s, s:i}", "name", mj_fan_name((mj_fan)f), "zh",
                                                            mj_fan_zh((mj_fan)f), "value",
                                                            mj_fan_value((mj_fan)f, options)));
    if (failed) {
        json_decref(win);
        json_decref(scored);
        json_decref(fans);
        return NULL;
    }
    failed |= json_object_set_new(win, "seat", json_integer(seat));
    failed |= json_object_set_new(win, "concealed", mjj_counts_to_json(&hand->concealed));
    failed |= json_object_set_new(win, "melds", mjj_melds_to_json(hand->melds, hand->n_melds));
    failed |= json_object_set_new(win, "win_tile", mjj_tile_to_json(hand->win_tile));
    failed |= json_object_set_new(win, "kong_replacement", json_boolean(hand->kong_replacement));
    failed |= json_object_set_new(win, "first_draw", json_boolean(hand->first_draw));
    failed |= json_object_set_new(win, "dealer", json_boolean(hand->dealer));
    failed |= json_object_set_new(win, "fan", json_incref(json_object_get(scored, "fan")));
    failed |= json_object_set_new(win, "names", json_incref(json_object_get(scored, "names")));
    failed |= json_object_set_new(win, "fans", fans);
    failed |= json_object_set_new(win, "reading", json_incref(json_object_get(scored, "reading")));
    json_decref(scored);
    return complete(win, failed);
}

json_t *mjj_payments_to_json(const mj_settlement *s, const mj_outcome *outcome)
{
    json_t *payments = json_array();
    int failed = payments == NULL;
    for (int i = 0; !failed && i < s->count; i++) {
        const mj_payment *p = &s->payments[i];
        json_t *entry = payment_to_json(p);
        failed |= entry == NULL ||
                  json_object_set_new(entry, "factor", json_integer(mj_seat_factor(outcome, p->from, p->to))) != 0;
        failed |= json_array_append_new(payments, entry);
    }
    return complete(payments, failed);
}
