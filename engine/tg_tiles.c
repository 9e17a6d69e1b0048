/*
 * tg_tiles — the tile table. Ranks, names and red pips are data, not code.
 */
#include "tg_tiles.h"

#include <stddef.h>

static const tg_tile_info TILES[TG_KINDS] = {
    [TG_HEAVEN] = {6, 6, TG_CIVIL, 11, 2, 6, "天牌", "天牌", "Heaven"},
    [TG_EARTH] = {1, 1, TG_CIVIL, 10, 2, 2, "地牌", "地牌", "Earth"},
    [TG_MAN] = {4, 4, TG_CIVIL, 9, 2, 8, "人牌", "人牌", "Man"},
    [TG_GOOSE] = {1, 3, TG_CIVIL, 8, 2, 1, "和牌", "和牌", "Goose"},
    [TG_PLUM] = {5, 5, TG_CIVIL, 7, 2, 0, "梅花", "梅花", "Plum"},
    [TG_LONG_THREE] = {3, 3, TG_CIVIL, 6, 2, 0, "長三", "长三", "Long three"},
    [TG_BENCH] = {2, 2, TG_CIVIL, 5, 2, 0, "板凳", "板凳", "Bench"},
    [TG_HATCHET] = {5, 6, TG_CIVIL, 4, 2, 0, "斧頭", "斧头", "Hatchet"},
    [TG_RED_HEAD_TEN] = {4, 6, TG_CIVIL, 3, 2, 4, "紅頭十", "红头十", "Red-head ten"},
    [TG_LONG_LEG_SEVEN] = {1, 6, TG_CIVIL, 2, 2, 1, "高腳七", "高脚七", "Long-leg seven"},
    [TG_COPPER_HAMMER] = {1, 5, TG_CIVIL, 1, 2, 1, "銅錘六", "铜锤六", "Copper-hammer six"},
    [TG_NINE_36] = {3, 6, TG_MILITARY, 9, 1, 0, "雜九", "杂九", "Mixed nine"},
    [TG_NINE_45] = {4, 5, TG_MILITARY, 9, 1, 4, "雜九", "杂九", "Mixed nine"},
    [TG_EIGHT_26] = {2, 6, TG_MILITARY, 8, 1, 0, "雜八", "杂八", "Mixed eight"},
    [TG_EIGHT_35] = {3, 5, TG_MILITARY, 8, 1, 0, "雜八", "杂八", "Mixed eight"},
    [TG_SEVEN_25] = {2, 5, TG_MILITARY, 7, 1, 0, "雜七", "杂七", "Mixed seven"},
    [TG_SEVEN_34] = {3, 4, TG_MILITARY, 7, 1, 4, "雜七", "杂七", "Mixed seven"},
    [TG_SIX_24] = {2, 4, TG_MILITARY, 6, 1, 4, "大頭六", "大头六", "Big-head six"},
    [TG_FIVE_23] = {2, 3, TG_MILITARY, 5, 1, 0, "雜五", "杂五", "Mixed five"},
    [TG_FIVE_14] = {1, 4, TG_MILITARY, 5, 1, 5, "雜五", "杂五", "Mixed five"},
    [TG_THREE_12] = {1, 2, TG_MILITARY, 3, 1, 1, "丁三", "丁三", "Little three"},
};

const tg_tile_info *tg_tile(int kind) { return &TILES[kind]; }

uint8_t tg_tile_strength(int kind) { return TILES[kind].strength; }

int tg_tile_from_faces(int a, int b)
{
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    for (int k = 0; k < TG_KINDS; k++)
        if (TILES[k].low == a && TILES[k].high == b)
            return k;
    return -1;
}

int tg_tile_parse(const char *text)
{
    if (text == NULL || text[0] < '1' || text[0] > '6' || text[1] != '-' || text[2] < '1' || text[2] > '6' ||
        text[3] != '\0')
        return -1;
    int low = text[0] - '0', high = text[2] - '0';
    if (low > high)
        return -1; /* the written form is low face first */
    return tg_tile_from_faces(low, high);
}

void tg_tile_format(int kind, char out[4])
{
    out[0] = (char)('0' + TILES[kind].low);
    out[1] = '-';
    out[2] = (char)('0' + TILES[kind].high);
    out[3] = '\0';
}

void tg_full_set(uint8_t out[TG_TILES])
{
    int n = 0;
    for (int k = 0; k < TG_KINDS; k++)
        for (int c = 0; c < TILES[k].copies; c++)
            out[n++] = (uint8_t)k;
}
