/*
 * load_tiles — tile names as bits, for the hidden-information check. See load_tiles.h.
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
