/*
 * load_tiles — tile names as bits, for the hidden-information check of both games. See load_tiles.h.
 */
#include "load_tiles.h"

#include <string.h>

int load_tile_bit(const char *s, size_t len)
{
    if (len != 3 || s[1] != '-' || s[0] < '1' || s[0] > '6' || s[2] < '1' || s[2] > '6')
        return -1;
    /* Both orders name the same tile, so a leak in an unusual spelling is still one. */
    int a = s[0] - '1', b = s[2] - '1';
    return a <= b ? a * 6 + b : b * 6 + a;
}

uint64_t load_tiles_of(const json_t *list)
{
    uint64_t bits = 0;
    size_t i;
    const json_t *t;
    json_array_foreach(list, i, t)
    {
        int bit = json_is_string(t) ? load_tile_bit(json_string_value(t), json_string_length(t)) : -1;
        if (bit >= 0)
            bits |= 1ull << bit;
    }
    return bits;
}

/* Scans the text rather than the parsed tree: a tile hidden under any key, however deep, is
 * found, and the scan costs one memchr per string. */
uint64_t load_tiles_in_text(const char *text, size_t len)
{
    uint64_t bits = 0;
    const char *p = text, *end = text + len;
    while ((p = memchr(p, '"', (size_t)(end - p))) != NULL && end - p >= 5) {
        if (p[4] == '"') {
            int bit = load_tile_bit(p + 1, 3);
            if (bit >= 0)
                bits |= 1ull << bit;
        }
        p++;
    }
    return bits;
}

/* ---- Tianjin ------------------------------------------------------------------------------ */

static const char MJ_HONOURS[] = "ESWNCFP"; /* kinds 27-33 */

int load_mj_kind(const char *s, size_t len)
{
    if (len == 1) {
        const char *at = s[0] != '\0' ? strchr(MJ_HONOURS, s[0]) : NULL;
        return at != NULL ? 27 + (int)(at - MJ_HONOURS) : -1;
    }
    if (len != 2 || s[0] < '1' || s[0] > '9')
        return -1;
    const char *suit = strchr("mps", s[1]);
    return s[1] != '\0' && suit != NULL ? (int)(suit - "mps") * 9 + (s[0] - '1') : -1;
}

uint64_t load_mj_tiles_in_text(const char *text, size_t len)
{
    uint64_t bits = 0;
    const char *p = text, *end = text + len;
    while ((p = memchr(p, '"', (size_t)(end - p))) != NULL) {
        /* "X" or "Xy": a closing quote two or three characters on */
        for (size_t n = 1; n <= 2; n++)
            if ((size_t)(end - p) > n + 1 && p[n + 1] == '"' && memchr(p + 1, '"', n) == NULL) {
                int kind = load_mj_kind(p + 1, n);
                if (kind >= 0)
                    bits |= 1ull << kind;
            }
        p++;
    }
    return bits;
}

void load_mj_seat_init(load_mj_seat *k, int seat)
{
    memset(k, 0, sizeof *k);
    k->seat = seat;
}

/* Every tile named by a string anywhere in a JSON value. */
static uint64_t kinds_in(const json_t *value)
{
    uint64_t bits = 0;
    if (json_is_string(value)) {
        int kind = load_mj_kind(json_string_value(value), json_string_length(value));
        return kind >= 0 ? 1ull << kind : 0;
    }
    size_t i;
    const char *key;
    json_t *item;
    if (json_is_array(value))
        json_array_foreach(value, i, item) bits |= kinds_in(item);
    else if (json_is_object(value))
        json_object_foreach((json_t *)value, key, item) bits |= kinds_in(item);
    return bits;
}

/* What a view shows every seat and spectator: the table's face-up tiles and a finished hand's result. */
static uint64_t public_kinds(const json_t *view)
{
    static const char *const PUBLIC[] = {"indicator", "wilds", "melds", "discards", "discard", "result"};
    uint64_t bits = 0;
    for (size_t i = 0; i < sizeof PUBLIC / sizeof PUBLIC[0]; i++)
        bits |= kinds_in(json_object_get(view, PUBLIC[i]));
    return bits;
}

static bool count_hand(const json_t *list, uint8_t count[LOAD_MJ_KINDS])
{
    memset(count, 0, LOAD_MJ_KINDS);
    size_t i;
    const json_t *t;
    json_array_foreach(list, i, t)
    {
        int kind = json_is_string(t) ? load_mj_kind(json_string_value(t), json_string_length(t)) : -1;
        if (kind < 0)
            return false;
        count[kind]++;
    }
    return true;
}

/* Learns the seat's own tiles from its view: the deal as it comes, then only changes its draw
 * explains (one more of the drawn kind). */
static load_mj_problem learn_own(load_mj_seat *k, const json_t *view)
{
    const json_t *hand = json_object_get(view, "hand");
    if (k->seat < 0) {
        const json_t *drawn = json_object_get(view, "drawn"), *legal = json_object_get(view, "legal");
        bool sees = (hand != NULL && !json_is_null(hand)) || (drawn != NULL && !json_is_null(drawn)) ||
                    (legal != NULL && !json_is_null(legal));
        return sees ? LOAD_MJ_SPECTATOR_SEES : LOAD_MJ_OK;
    }
    if (!json_is_array(hand))
        return LOAD_MJ_OK; /* not dealt yet */
    uint8_t now[LOAD_MJ_KINDS];
    if (!count_hand(hand, now))
        return LOAD_MJ_HIDDEN_TILE; /* not a list of tiles: the scan names what it can */
    const json_t *drawn = json_object_get(view, "drawn");
    int drawn_kind = json_is_string(drawn) ? load_mj_kind(json_string_value(drawn), json_string_length(drawn)) : -1;
    if (k->dealt)
        for (int kind = 0; kind < LOAD_MJ_KINDS; kind++)
            if (now[kind] > k->hand[kind] + (kind == drawn_kind ? 1 : 0))
                return LOAD_MJ_HAND_GREW;
    k->dealt = true;
    memcpy(k->hand, now, sizeof now);
    for (int kind = 0; kind < LOAD_MJ_KINDS; kind++)
        if (now[kind] > 0)
            k->known |= 1ull << kind;
    return LOAD_MJ_OK;
}

load_mj_problem load_mj_check_frame(load_mj_seat *k, const json_t *frame, const char *text, size_t len,
                                    bool private_asked)
{
    const char *type = json_string_value(json_object_get(frame, "type"));
    const json_t *event = json_object_get(frame, "event");
    const json_t *view = json_object_get(frame, "view");
    if (type != NULL && strcmp(type, "view") == 0 && !private_asked)
        return LOAD_MJ_UNASKED_VIEW;
    const char *kind = json_string_value(json_object_get(event, "kind"));
    if (kind != NULL && strcmp(kind, "hand_started") == 0)
        load_mj_seat_init(k, k->seat);
    if (json_is_object(view)) {
        const json_t *seat = json_object_get(view, "seat");
        if (!json_is_integer(seat) || json_integer_value(seat) != k->seat)
            return LOAD_MJ_WRONG_SEAT;
        load_mj_problem own = learn_own(k, view);
        if (own != LOAD_MJ_OK)
            return own;
        k->known |= public_kinds(view);
    }
    if (kind != NULL && strcmp(kind, "action") == 0)
        k->known |= kinds_in(event); /* a discard, claim, kong or win is shown to the table */
    if (kind != NULL && strcmp(kind, "hand_over") == 0)
        k->known |= kinds_in(json_object_get(event, "result"));
    return (load_mj_tiles_in_text(text, len) & ~k->known) != 0 ? LOAD_MJ_HIDDEN_TILE : LOAD_MJ_OK;
}

const char *load_mj_problem_text(load_mj_problem problem)
{
    switch (problem) {
    case LOAD_MJ_OK:
        return "no problem";
    case LOAD_MJ_HIDDEN_TILE:
        return "frame holds a tile this seat may not see";
    case LOAD_MJ_WRONG_SEAT:
        return "frame holds another seat's view";
    case LOAD_MJ_SPECTATOR_SEES:
        return "a spectator's view holds concealed tiles or actions";
    case LOAD_MJ_HAND_GREW:
        return "the seat's own tiles grew by more than its draw";
    case LOAD_MJ_UNASKED_VIEW:
        return "a private view frame the seat did not ask for";
    }
    return "?";
}
