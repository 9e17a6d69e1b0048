/*
 * tg_combo — the combination table of rules §2, built once from the rows below.
 */
#include "tg_combo.h"

#include <string.h>

/* Rows are written as kinds; classify sorts its input and compares with the sorted row. */
#define ROW(type, rank, n, a, b, c, d) {type, rank, n, {a, b, c, d}}
#define X 255

static const tg_combo TABLE[] = {
    /* civil singles, rank = strength */
    ROW(TG_SINGLE_CIVIL, 11, 1, TG_HEAVEN, X, X, X),
    ROW(TG_SINGLE_CIVIL, 10, 1, TG_EARTH, X, X, X),
    ROW(TG_SINGLE_CIVIL, 9, 1, TG_MAN, X, X, X),
    ROW(TG_SINGLE_CIVIL, 8, 1, TG_GOOSE, X, X, X),
    ROW(TG_SINGLE_CIVIL, 7, 1, TG_PLUM, X, X, X),
    ROW(TG_SINGLE_CIVIL, 6, 1, TG_LONG_THREE, X, X, X),
    ROW(TG_SINGLE_CIVIL, 5, 1, TG_BENCH, X, X, X),
    ROW(TG_SINGLE_CIVIL, 4, 1, TG_HATCHET, X, X, X),
    ROW(TG_SINGLE_CIVIL, 3, 1, TG_RED_HEAD_TEN, X, X, X),
    ROW(TG_SINGLE_CIVIL, 2, 1, TG_LONG_LEG_SEVEN, X, X, X),
    ROW(TG_SINGLE_CIVIL, 1, 1, TG_COPPER_HAMMER, X, X, X),
    /* military singles, rank = pip total; equal totals are equal */
    ROW(TG_SINGLE_MILITARY, 9, 1, TG_NINE_36, X, X, X),
    ROW(TG_SINGLE_MILITARY, 9, 1, TG_NINE_45, X, X, X),
    ROW(TG_SINGLE_MILITARY, 8, 1, TG_EIGHT_26, X, X, X),
    ROW(TG_SINGLE_MILITARY, 8, 1, TG_EIGHT_35, X, X, X),
    ROW(TG_SINGLE_MILITARY, 7, 1, TG_SEVEN_25, X, X, X),
    ROW(TG_SINGLE_MILITARY, 7, 1, TG_SEVEN_34, X, X, X),
    ROW(TG_SINGLE_MILITARY, 6, 1, TG_SIX_24, X, X, X),
    ROW(TG_SINGLE_MILITARY, 5, 1, TG_FIVE_23, X, X, X),
    ROW(TG_SINGLE_MILITARY, 5, 1, TG_FIVE_14, X, X, X),
    ROW(TG_SINGLE_MILITARY, 3, 1, TG_THREE_12, X, X, X),
    /* civil pairs 文對 */
    ROW(TG_PAIR_CIVIL, 11, 2, TG_HEAVEN, TG_HEAVEN, X, X),
    ROW(TG_PAIR_CIVIL, 10, 2, TG_EARTH, TG_EARTH, X, X),
    ROW(TG_PAIR_CIVIL, 9, 2, TG_MAN, TG_MAN, X, X),
    ROW(TG_PAIR_CIVIL, 8, 2, TG_GOOSE, TG_GOOSE, X, X),
    ROW(TG_PAIR_CIVIL, 7, 2, TG_PLUM, TG_PLUM, X, X),
    ROW(TG_PAIR_CIVIL, 6, 2, TG_LONG_THREE, TG_LONG_THREE, X, X),
    ROW(TG_PAIR_CIVIL, 5, 2, TG_BENCH, TG_BENCH, X, X),
    ROW(TG_PAIR_CIVIL, 4, 2, TG_HATCHET, TG_HATCHET, X, X),
    ROW(TG_PAIR_CIVIL, 3, 2, TG_RED_HEAD_TEN, TG_RED_HEAD_TEN, X, X),
    ROW(TG_PAIR_CIVIL, 2, 2, TG_LONG_LEG_SEVEN, TG_LONG_LEG_SEVEN, X, X),
    ROW(TG_PAIR_CIVIL, 1, 2, TG_COPPER_HAMMER, TG_COPPER_HAMMER, X, X),
    /* military pairs 武對: the two tiles of one total */
    ROW(TG_PAIR_MILITARY, 4, 2, TG_NINE_36, TG_NINE_45, X, X),
    ROW(TG_PAIR_MILITARY, 3, 2, TG_EIGHT_26, TG_EIGHT_35, X, X),
    ROW(TG_PAIR_MILITARY, 2, 2, TG_SEVEN_25, TG_SEVEN_34, X, X),
    ROW(TG_PAIR_MILITARY, 1, 2, TG_FIVE_23, TG_FIVE_14, X, X),
    /* mixed pairs 文武對 */
    ROW(TG_PAIR_MIXED, 4, 2, TG_HEAVEN, TG_NINE_36, X, X),
    ROW(TG_PAIR_MIXED, 4, 2, TG_HEAVEN, TG_NINE_45, X, X),
    ROW(TG_PAIR_MIXED, 3, 2, TG_EARTH, TG_EIGHT_26, X, X),
    ROW(TG_PAIR_MIXED, 3, 2, TG_EARTH, TG_EIGHT_35, X, X),
    ROW(TG_PAIR_MIXED, 2, 2, TG_MAN, TG_SEVEN_25, X, X),
    ROW(TG_PAIR_MIXED, 2, 2, TG_MAN, TG_SEVEN_34, X, X),
    ROW(TG_PAIR_MIXED, 1, 2, TG_GOOSE, TG_FIVE_23, X, X),
    ROW(TG_PAIR_MIXED, 1, 2, TG_GOOSE, TG_FIVE_14, X, X),
    /* 至尊 */
    ROW(TG_SUPREME, 1, 2, TG_SIX_24, TG_THREE_12, X, X),
    /* 三文: two civil + one military */
    ROW(TG_TRIPLE_CIVIL, 4, 3, TG_HEAVEN, TG_HEAVEN, TG_NINE_36, X),
    ROW(TG_TRIPLE_CIVIL, 4, 3, TG_HEAVEN, TG_HEAVEN, TG_NINE_45, X),
    ROW(TG_TRIPLE_CIVIL, 3, 3, TG_EARTH, TG_EARTH, TG_EIGHT_26, X),
    ROW(TG_TRIPLE_CIVIL, 3, 3, TG_EARTH, TG_EARTH, TG_EIGHT_35, X),
    ROW(TG_TRIPLE_CIVIL, 2, 3, TG_MAN, TG_MAN, TG_SEVEN_25, X),
    ROW(TG_TRIPLE_CIVIL, 2, 3, TG_MAN, TG_MAN, TG_SEVEN_34, X),
    ROW(TG_TRIPLE_CIVIL, 1, 3, TG_GOOSE, TG_GOOSE, TG_FIVE_23, X),
    ROW(TG_TRIPLE_CIVIL, 1, 3, TG_GOOSE, TG_GOOSE, TG_FIVE_14, X),
    /* 三武: one civil + two military */
    ROW(TG_TRIPLE_MILITARY, 4, 3, TG_HEAVEN, TG_NINE_36, TG_NINE_45, X),
    ROW(TG_TRIPLE_MILITARY, 3, 3, TG_EARTH, TG_EIGHT_26, TG_EIGHT_35, X),
    ROW(TG_TRIPLE_MILITARY, 2, 3, TG_MAN, TG_SEVEN_25, TG_SEVEN_34, X),
    ROW(TG_TRIPLE_MILITARY, 1, 3, TG_GOOSE, TG_FIVE_23, TG_FIVE_14, X),
    /* quartets */
    ROW(TG_QUARTET, 4, 4, TG_HEAVEN, TG_HEAVEN, TG_NINE_36, TG_NINE_45),
    ROW(TG_QUARTET, 3, 4, TG_EARTH, TG_EARTH, TG_EIGHT_26, TG_EIGHT_35),
    ROW(TG_QUARTET, 2, 4, TG_MAN, TG_MAN, TG_SEVEN_25, TG_SEVEN_34),
    ROW(TG_QUARTET, 1, 4, TG_GOOSE, TG_GOOSE, TG_FIVE_23, TG_FIVE_14),
};

#define TABLE_ROWS ((int)(sizeof TABLE / sizeof TABLE[0]))

int tg_combo_count(void) { return TABLE_ROWS; }

const tg_combo *tg_combo_at(int i) { return &TABLE[i]; }

static void sort_kinds(uint8_t *k, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && k[j - 1] > k[j]; j--) {
            uint8_t t = k[j];
            k[j] = k[j - 1];
            k[j - 1] = t;
        }
}

tg_combo tg_classify(const uint8_t *kinds, int n)
{
    tg_combo none = {TG_COMBO_NONE, 0, 0, {X, X, X, X}};
    if (n < 1 || n > 4)
        return none;
    uint8_t sorted[4] = {X, X, X, X};
    for (int i = 0; i < n; i++) {
        if (kinds[i] >= TG_KINDS)
            return none;
        sorted[i] = kinds[i];
    }
    sort_kinds(sorted, n);
    for (int r = 0; r < TABLE_ROWS; r++)
        if (TABLE[r].n == n && memcmp(TABLE[r].tiles, sorted, (size_t)n) == 0)
            return TABLE[r];
    none.n = (uint8_t)n;
    memcpy(none.tiles, sorted, sizeof sorted);
    return none;
}

bool tg_combo_outranks(const tg_combo *a, const tg_combo *b)
{
    return a->type != TG_COMBO_NONE && a->type != TG_SUPREME && a->type == b->type && a->rank > b->rank;
}

bool tg_combo_is_wen_zun_pair(const tg_combo *c)
{
    return c->type == TG_PAIR_CIVIL && c->tiles[0] == TG_COPPER_HAMMER;
}

const char *tg_combo_type_name(int type)
{
    static const char *const NAMES[TG_COMBO_TYPES] = {
        "none",        "civil_single", "military_single", "civil_pair",    "military_pair",
        "mixed_pair",  "supreme",      "civil_triple",    "military_triple", "quartet",
    };
    return type >= 0 && type < TG_COMBO_TYPES ? NAMES[type] : "none";
}
