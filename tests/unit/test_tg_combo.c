/*
 * test_tg_combo — Tien Gow combinations and their ranking (engine/tg_combo.h) against
 * rules/tiengow.md §2.
 *
 * Two kinds of test: sentences about particular tiles (written as tile faces, "6-6 3-6"), and an
 * exhaustive comparison with a small reference classifier written here from the table of §2.
 * The reference looks at faces, suits and ranks of §1 only, never at the engine's table.
 */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tg_combo.h"

/* ---- tiles written as faces ---- */

/* Parses up to 4 space-separated tiles ("6-6 3-6"); returns how many. */
static int parse_tiles(const char *text, uint8_t kinds[4])
{
    char copy[64];
    int n = 0;
    snprintf(copy, sizeof copy, "%s", text);
    for (char *save = NULL, *word = strtok_r(copy, " ", &save); word != NULL; word = strtok_r(NULL, " ", &save)) {
        int kind = tg_tile_parse(word);
        ck_assert_msg(kind >= 0 && n < 4, "bad tile list \"%s\"", text);
        kinds[n++] = (uint8_t)kind;
    }
    return n;
}

static tg_combo combo(const char *text)
{
    uint8_t kinds[4];
    int n = parse_tiles(text, kinds);
    return tg_classify(kinds, n);
}

static bool beats(const char *a, const char *b)
{
    tg_combo x = combo(a), y = combo(b);
    return tg_combo_outranks(&x, &y);
}

static void assert_type(const char *text, tg_combo_type type)
{
    tg_combo c = combo(text);
    ck_assert_msg(c.type == type, "\"%s\" is type %s, expected %s", text, tg_combo_type_name(c.type),
                  tg_combo_type_name(type));
}

/* Each listed combination beats every later one, and none beats an earlier one or itself. */
static void assert_strictly_descending(const char *const *list, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            ck_assert_msg(beats(list[i], list[j]) == (i < j), "\"%s\" vs \"%s\"", list[i], list[j]);
}

static void assert_neither_beats(const char *a, const char *b)
{
    ck_assert_msg(!beats(a, b), "\"%s\" should not beat \"%s\"", a, b);
    ck_assert_msg(!beats(b, a), "\"%s\" should not beat \"%s\"", b, a);
}

/* ---- singles ---- */

START_TEST(test_every_tile_is_a_single_of_its_suit)
{
    static const char *const civil[] = {"6-6", "1-1", "4-4", "1-3", "5-5", "3-3", "2-2", "5-6", "4-6", "1-6", "1-5"};
    static const char *const military[] = {"3-6", "4-5", "2-6", "3-5", "2-5", "3-4", "2-4", "2-3", "1-4", "1-2"};
    for (int i = 0; i < 11; i++)
        assert_type(civil[i], TG_SINGLE_CIVIL);
    for (int i = 0; i < 10; i++)
        assert_type(military[i], TG_SINGLE_MILITARY);
}
END_TEST

START_TEST(test_civil_singles_rank_heaven_down_to_copper_hammer)
{
    static const char *const order[] = {"6-6", "1-1", "4-4", "1-3", "5-5", "3-3", "2-2", "5-6", "4-6", "1-6", "1-5"};
    assert_strictly_descending(order, 11);
}
END_TEST

START_TEST(test_military_singles_rank_nine_eight_seven_six_five_three)
{
    static const char *const order[] = {"3-6", "2-6", "2-5", "2-4", "2-3", "1-2"};
    assert_strictly_descending(order, 6);
    static const char *const other_order[] = {"4-5", "3-5", "3-4", "2-4", "1-4", "1-2"};
    assert_strictly_descending(other_order, 6);
}
END_TEST

START_TEST(test_the_two_military_nines_are_equal_singles)
{
    assert_neither_beats("3-6", "4-5");
    assert_neither_beats("2-6", "3-5");
    assert_neither_beats("2-5", "3-4");
    assert_neither_beats("2-3", "1-4");
}
END_TEST

START_TEST(test_a_single_does_not_beat_itself)
{
    ck_assert(!beats("6-6", "6-6"));
    ck_assert(!beats("1-2", "1-2"));
}
END_TEST

START_TEST(test_civil_and_military_singles_never_beat_each_other)
{
    assert_neither_beats("6-6", "1-2");
    assert_neither_beats("1-5", "3-6");
    assert_neither_beats("6-6", "3-6");
}
END_TEST

/* ---- pairs ---- */

START_TEST(test_two_identical_civil_tiles_are_a_civil_pair)
{
    static const char *const pairs[] = {"6-6 6-6", "1-1 1-1", "4-4 4-4", "1-3 1-3", "5-5 5-5", "3-3 3-3",
                                        "2-2 2-2", "5-6 5-6", "4-6 4-6", "1-6 1-6", "1-5 1-5"};
    for (int i = 0; i < 11; i++)
        assert_type(pairs[i], TG_PAIR_CIVIL);
    assert_strictly_descending(pairs, 11);
}
END_TEST

START_TEST(test_pair_of_hatchets_loses_to_plum_pair)
{
    ck_assert(beats("5-5 5-5", "5-6 5-6"));
    ck_assert(!beats("5-6 5-6", "5-5 5-5"));
}
END_TEST

START_TEST(test_pair_of_long_leg_sevens_beats_pair_of_copper_hammers)
{
    /* Without the 文尊 option the pair of 1-5 is simply the lowest civil pair. */
    ck_assert(beats("1-6 1-6", "1-5 1-5"));
    ck_assert(!beats("1-5 1-5", "1-6 1-6"));
    ck_assert(!beats("1-5 1-5", "4-6 4-6"));
}
END_TEST

START_TEST(test_military_pairs_are_the_two_tiles_of_one_total)
{
    static const char *const order[] = {"3-6 4-5", "2-6 3-5", "2-5 3-4", "2-3 1-4"};
    for (int i = 0; i < 4; i++)
        assert_type(order[i], TG_PAIR_MILITARY);
    assert_strictly_descending(order, 4);
}
END_TEST

START_TEST(test_big_head_six_and_little_three_pair_with_no_other_military_tile)
{
    assert_type("2-4 1-4", TG_COMBO_NONE);
    assert_type("2-4 2-3", TG_COMBO_NONE);
    assert_type("2-4 2-5", TG_COMBO_NONE);
    assert_type("1-2 2-3", TG_COMBO_NONE);
    assert_type("1-2 1-4", TG_COMBO_NONE);
    assert_type("1-2 3-6", TG_COMBO_NONE);
}
END_TEST

START_TEST(test_military_tiles_of_different_totals_are_not_a_pair)
{
    assert_type("3-6 2-6", TG_COMBO_NONE);
    assert_type("4-5 3-4", TG_COMBO_NONE);
    assert_type("2-5 1-4", TG_COMBO_NONE);
}
END_TEST

START_TEST(test_heaven_with_either_nine_is_a_mixed_pair)
{
    assert_type("6-6 3-6", TG_PAIR_MIXED);
    assert_type("6-6 4-5", TG_PAIR_MIXED);
    assert_type("1-1 2-6", TG_PAIR_MIXED);
    assert_type("1-1 3-5", TG_PAIR_MIXED);
    assert_type("4-4 2-5", TG_PAIR_MIXED);
    assert_type("4-4 3-4", TG_PAIR_MIXED);
    assert_type("1-3 2-3", TG_PAIR_MIXED);
    assert_type("1-3 1-4", TG_PAIR_MIXED);
}
END_TEST

START_TEST(test_heaven_nine_with_the_other_nine_is_equal_and_does_not_beat)
{
    assert_neither_beats("6-6 3-6", "6-6 4-5");
    assert_neither_beats("1-1 2-6", "1-1 3-5");
    assert_neither_beats("4-4 2-5", "4-4 3-4");
    assert_neither_beats("1-3 2-3", "1-3 1-4");
}
END_TEST

START_TEST(test_mixed_pairs_rank_heaven_nine_earth_eight_man_seven_goose_five)
{
    static const char *const order[] = {"6-6 4-5", "1-1 3-5", "4-4 3-4", "1-3 1-4"};
    assert_strictly_descending(order, 4);
    static const char *const other_order[] = {"6-6 3-6", "1-1 2-6", "4-4 2-5", "1-3 2-3"};
    assert_strictly_descending(other_order, 4);
}
END_TEST

START_TEST(test_heaven_with_an_eight_is_not_a_combination)
{
    assert_type("6-6 2-6", TG_COMBO_NONE);
    assert_type("6-6 3-5", TG_COMBO_NONE);
    assert_type("1-1 3-6", TG_COMBO_NONE);
    assert_type("4-4 2-6", TG_COMBO_NONE);
    assert_type("1-3 3-4", TG_COMBO_NONE);
    assert_type("6-6 2-4", TG_COMBO_NONE);
    assert_type("6-6 1-2", TG_COMBO_NONE);
}
END_TEST

START_TEST(test_civil_tiles_below_goose_make_no_mixed_pair)
{
    /* Only 天, 地, 人 and 和 pair with military tiles. */
    assert_type("5-5 2-3", TG_COMBO_NONE);
    assert_type("3-3 3-6", TG_COMBO_NONE);
    assert_type("2-2 2-4", TG_COMBO_NONE);
    assert_type("5-6 1-2", TG_COMBO_NONE);
    assert_type("4-6 4-5", TG_COMBO_NONE);
    assert_type("1-6 2-5", TG_COMBO_NONE);
    assert_type("1-5 2-4", TG_COMBO_NONE);
}
END_TEST

START_TEST(test_two_different_civil_tiles_are_not_a_combination)
{
    assert_type("6-6 1-1", TG_COMBO_NONE);
    assert_type("5-5 5-6", TG_COMBO_NONE);
    assert_type("1-6 1-5", TG_COMBO_NONE);
}
END_TEST

START_TEST(test_civil_military_and_mixed_pairs_never_beat_each_other)
{
    assert_neither_beats("6-6 6-6", "3-6 4-5");
    assert_neither_beats("6-6 6-6", "6-6 3-6");
    assert_neither_beats("3-6 4-5", "6-6 3-6");
    assert_neither_beats("1-5 1-5", "2-3 1-4");
    assert_neither_beats("1-5 1-5", "1-3 1-4");
    assert_neither_beats("2-3 1-4", "1-3 1-4");
}
END_TEST

/* ---- 至尊 ---- */

START_TEST(test_supreme_is_little_three_with_big_head_six)
{
    assert_type("1-2 2-4", TG_SUPREME);
    assert_type("2-4 1-2", TG_SUPREME);
}
END_TEST

START_TEST(test_supreme_neither_beats_nor_is_beaten)
{
    static const char *const pairs[] = {"6-6 6-6", "1-5 1-5", "3-6 4-5", "2-3 1-4", "6-6 3-6", "1-3 1-4"};
    for (int i = 0; i < 6; i++)
        assert_neither_beats("1-2 2-4", pairs[i]);
    ck_assert(!beats("1-2 2-4", "1-2 2-4"));
}
END_TEST

/* ---- triples and quartets ---- */

START_TEST(test_two_civil_with_their_military_tile_are_a_civil_triple)
{
    static const char *const order[] = {"6-6 6-6 3-6", "1-1 1-1 2-6", "4-4 4-4 2-5", "1-3 1-3 2-3"};
    for (int i = 0; i < 4; i++)
        assert_type(order[i], TG_TRIPLE_CIVIL);
    assert_type("6-6 6-6 4-5", TG_TRIPLE_CIVIL);
    assert_type("1-1 1-1 3-5", TG_TRIPLE_CIVIL);
    assert_type("4-4 4-4 3-4", TG_TRIPLE_CIVIL);
    assert_type("1-3 1-3 1-4", TG_TRIPLE_CIVIL);
    assert_strictly_descending(order, 4);
    assert_neither_beats("6-6 6-6 3-6", "6-6 6-6 4-5");
}
END_TEST

START_TEST(test_one_civil_with_both_its_military_tiles_is_a_military_triple)
{
    static const char *const order[] = {"6-6 3-6 4-5", "1-1 2-6 3-5", "4-4 2-5 3-4", "1-3 2-3 1-4"};
    for (int i = 0; i < 4; i++)
        assert_type(order[i], TG_TRIPLE_MILITARY);
    assert_strictly_descending(order, 4);
}
END_TEST

START_TEST(test_civil_triple_and_military_triple_never_beat_each_other)
{
    assert_neither_beats("6-6 6-6 3-6", "1-3 2-3 1-4");
    assert_neither_beats("1-3 1-3 2-3", "6-6 3-6 4-5");
    assert_neither_beats("6-6 6-6 3-6", "6-6 3-6 4-5");
}
END_TEST

START_TEST(test_quartets_rank_heaven_earth_man_goose)
{
    static const char *const order[] = {"6-6 6-6 3-6 4-5", "1-1 1-1 2-6 3-5", "4-4 4-4 2-5 3-4", "1-3 1-3 2-3 1-4"};
    for (int i = 0; i < 4; i++)
        assert_type(order[i], TG_QUARTET);
    assert_strictly_descending(order, 4);
}
END_TEST

START_TEST(test_near_misses_of_three_and_four_tiles_are_not_combinations)
{
    static const char *const none[] = {
        "6-6 6-6 2-6",     /* 天天 with an 8 */
        "6-6 1-1 3-6",     /* two different civil tiles */
        "6-6 6-6 6-6",     /* three of a kind (only two exist) */
        "6-6 3-6 2-6",     /* 天 with a 9 and an 8 */
        "5-5 5-5 2-3",     /* 梅 has no military partner */
        "1-2 2-4 6-6",     /* 至尊 with a third tile */
        "3-6 4-5 2-6",     /* three military tiles */
        "6-6 6-6 3-6 2-6", /* 天天 9 8 */
        "6-6 1-1 3-6 4-5", /* 天地 99 */
        "6-6 6-6 1-1 1-1", /* two civil pairs */
        "3-6 4-5 2-6 3-5", /* two military pairs */
        "6-6 3-6 1-1 2-6", /* two mixed pairs */
        "1-2 2-4 2-3 1-4", /* 至尊 with a military pair */
    };
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        assert_type(none[i], TG_COMBO_NONE);
}
END_TEST

START_TEST(test_zero_or_five_tiles_are_not_a_combination)
{
    uint8_t kinds[5];
    parse_tiles("6-6 6-6 3-6 4-5", kinds);
    kinds[4] = kinds[0];
    ck_assert_int_eq(tg_classify(kinds, 0).type, TG_COMBO_NONE);
    ck_assert_int_eq(tg_classify(kinds, 5).type, TG_COMBO_NONE);
}
END_TEST

START_TEST(test_types_of_different_sizes_never_beat_each_other)
{
    assert_neither_beats("6-6", "1-5 1-5");
    assert_neither_beats("6-6 6-6", "1-3 1-3 2-3");
    assert_neither_beats("6-6 6-6 3-6", "1-3 1-3 2-3 1-4");
}
END_TEST

START_TEST(test_only_the_pair_of_copper_hammers_can_be_wen_zun)
{
    tg_combo wen = combo("1-5 1-5"), seven = combo("1-6 1-6"), single = combo("1-5"), heaven = combo("6-6 6-6");
    ck_assert(tg_combo_is_wen_zun_pair(&wen));
    ck_assert(!tg_combo_is_wen_zun_pair(&seven));
    ck_assert(!tg_combo_is_wen_zun_pair(&single));
    ck_assert(!tg_combo_is_wen_zun_pair(&heaven));
}
END_TEST

START_TEST(test_type_names_are_distinct)
{
    for (int a = 0; a < TG_COMBO_TYPES; a++) {
        ck_assert_int_gt((int)strlen(tg_combo_type_name(a)), 0);
        for (int b = a + 1; b < TG_COMBO_TYPES; b++)
            ck_assert_str_ne(tg_combo_type_name(a), tg_combo_type_name(b));
    }
}
END_TEST

/* ---- the reference classifier, from §1 and §2 only ---- */

typedef struct ref_tile {
    int low, high;
    bool civil;
    int value; /* higher is stronger: civil 11 (天) .. 1 (銅錘六); military the pip total */
} ref_tile;

static const ref_tile REF_TILES[TG_KINDS] = {
    {6, 6, true, 11}, {1, 1, true, 10}, {4, 4, true, 9}, {1, 3, true, 8}, {5, 5, true, 7}, {3, 3, true, 6},
    {2, 2, true, 5},  {5, 6, true, 4},  {4, 6, true, 3}, {1, 6, true, 2}, {1, 5, true, 1}, {3, 6, false, 9},
    {4, 5, false, 9}, {2, 6, false, 8}, {3, 5, false, 8}, {2, 5, false, 7}, {3, 4, false, 7}, {2, 4, false, 6},
    {2, 3, false, 5}, {1, 4, false, 5}, {1, 2, false, 3},
};

/* ref_of[kind]: the reference tile of an engine kind, found through the faces. */
static const ref_tile *ref_of[TG_KINDS];

static void map_reference_tiles(void)
{
    for (int i = 0; i < TG_KINDS; i++) {
        int kind = tg_tile_from_faces(REF_TILES[i].low, REF_TILES[i].high);
        ck_assert(kind >= 0 && kind < TG_KINDS);
        ref_of[kind] = &REF_TILES[i];
    }
}

/* The military total that goes with 天, 地, 人 and 和 in mixed pairs, triples and quartets (0: none). */
static int partner_total(const ref_tile *civil)
{
    switch (civil->value) {
    case 11: return 9; /* 天 */
    case 10: return 8; /* 地 */
    case 9: return 7;  /* 人 */
    case 8: return 5;  /* 和 */
    default: return 0;
    }
}

typedef struct ref_combo {
    tg_combo_type type;
    int value; /* higher beats lower within a type */
} ref_combo;

static bool is_face(const ref_tile *t, int low, int high) { return t->low == low && t->high == high; }

static ref_combo ref_classify(const uint8_t *kinds, int n)
{
    ref_combo none = {TG_COMBO_NONE, 0};
    const ref_tile *civ[4], *mil[4];
    int nc = 0, nm = 0;
    for (int i = 0; i < n; i++) {
        const ref_tile *t = ref_of[kinds[i]];
        if (t->civil)
            civ[nc++] = t;
        else
            mil[nm++] = t;
    }
    if (n == 1)
        return (ref_combo){nc ? TG_SINGLE_CIVIL : TG_SINGLE_MILITARY, nc ? civ[0]->value : mil[0]->value};
    /* Two military tiles go together only if they are different tiles of one total. */
    bool mil_pair = nm == 2 && mil[0] != mil[1] && mil[0]->value == mil[1]->value;
    if (n == 2) {
        if (nc == 2 && civ[0] == civ[1])
            return (ref_combo){TG_PAIR_CIVIL, civ[0]->value};
        if (mil_pair && mil[0]->value != 6 && mil[0]->value != 3)
            return (ref_combo){TG_PAIR_MILITARY, mil[0]->value};
        if (nm == 2 && ((is_face(mil[0], 1, 2) && is_face(mil[1], 2, 4)) ||
                        (is_face(mil[0], 2, 4) && is_face(mil[1], 1, 2))))
            return (ref_combo){TG_SUPREME, 0};
        if (nc == 1 && nm == 1 && partner_total(civ[0]) == mil[0]->value)
            return (ref_combo){TG_PAIR_MIXED, civ[0]->value};
        return none;
    }
    if (n == 3 && nc == 2 && nm == 1 && civ[0] == civ[1] && partner_total(civ[0]) == mil[0]->value)
        return (ref_combo){TG_TRIPLE_CIVIL, civ[0]->value};
    if (n == 3 && nc == 1 && mil_pair && partner_total(civ[0]) == mil[0]->value)
        return (ref_combo){TG_TRIPLE_MILITARY, civ[0]->value};
    if (n == 4 && nc == 2 && civ[0] == civ[1] && mil_pair && partner_total(civ[0]) == mil[0]->value)
        return (ref_combo){TG_QUARTET, civ[0]->value};
    return none;
}

/* Every multiset of 1..4 kinds (copies unlimited), in ascending order of kinds. */
typedef struct multiset {
    uint8_t n;
    uint8_t kinds[4];
} multiset;

static int all_multisets(multiset *out)
{
    int count = 0;
    for (int n = 1; n <= 4; n++) {
        int k[4] = {0, 0, 0, 0};
        for (;;) {
            out[count].n = (uint8_t)n;
            for (int i = 0; i < n; i++)
                out[count].kinds[i] = (uint8_t)k[i];
            count++;
            int i = n - 1;
            while (i >= 0 && k[i] == TG_KINDS - 1)
                i--;
            if (i < 0)
                break;
            k[i]++;
            for (int j = i + 1; j < n; j++)
                k[j] = k[i];
        }
    }
    return count;
}

#define MULTISETS (21 + 231 + 1771 + 10626) /* C(21,1) + C(22,2) + C(23,3) + C(24,4) */

static multiset sets[MULTISETS];

START_TEST(test_every_multiset_of_tiles_is_classified_as_the_rules_say)
{
    map_reference_tiles();
    int count = all_multisets(sets);
    ck_assert_int_eq(count, MULTISETS);
    int combinations = 0;
    for (int i = 0; i < count; i++) {
        ref_combo want = ref_classify(sets[i].kinds, sets[i].n);
        tg_combo got = tg_classify(sets[i].kinds, sets[i].n);
        char names[4][4] = {"", "", "", ""};
        for (int t = 0; t < sets[i].n; t++)
            tg_tile_format(sets[i].kinds[t], names[t]);
        ck_assert_msg(got.type == (uint8_t)want.type, "%s %s %s %s: %s, expected %s", names[0], names[1], names[2],
                      names[3], tg_combo_type_name(got.type), tg_combo_type_name(want.type));
        if (want.type != TG_COMBO_NONE) {
            ck_assert_uint_eq(got.n, sets[i].n);
            combinations++;
        }
    }
    /* By hand from §2: 21 singles, 11 civil, 4 military and 8 mixed pairs, 至尊, 8 三文, 4 三武, 4 quartets. */
    ck_assert_int_eq(combinations, 21 + 11 + 4 + 8 + 1 + 8 + 4 + 4);
}
END_TEST

START_TEST(test_every_two_combinations_compare_as_the_rules_say)
{
    map_reference_tiles();
    int count = all_multisets(sets);
    static multiset valid[64];
    int n_valid = 0;
    for (int i = 0; i < count; i++)
        if (ref_classify(sets[i].kinds, sets[i].n).type != TG_COMBO_NONE) {
            ck_assert_int_lt(n_valid, 64);
            valid[n_valid++] = sets[i];
        }
    for (int i = 0; i < n_valid; i++)
        for (int j = 0; j < n_valid; j++) {
            ref_combo ra = ref_classify(valid[i].kinds, valid[i].n), rb = ref_classify(valid[j].kinds, valid[j].n);
            bool want = ra.type == rb.type && ra.type != TG_SUPREME && ra.value > rb.value;
            tg_combo a = tg_classify(valid[i].kinds, valid[i].n), b = tg_classify(valid[j].kinds, valid[j].n);
            ck_assert_msg(tg_combo_outranks(&a, &b) == want, "combination %d vs %d", i, j);
        }
}
END_TEST

START_TEST(test_the_table_holds_exactly_the_combinations_of_the_rules)
{
    map_reference_tiles();
    ck_assert_int_eq(tg_combo_count(), 61);
    for (int r = 0; r < tg_combo_count(); r++) {
        const tg_combo *row = tg_combo_at(r);
        ck_assert(row->n >= 1 && row->n <= 4);
        ref_combo want = ref_classify(row->tiles, row->n);
        ck_assert_int_ne(want.type, TG_COMBO_NONE);
        ck_assert_int_eq(row->type, want.type);
        /* A row can be held: no kind more often than its copies. */
        for (int i = 0; i < row->n; i++) {
            int same = 0;
            for (int j = 0; j < row->n; j++)
                same += row->tiles[j] == row->tiles[i];
            ck_assert_int_le(same, tg_tile(row->tiles[i])->copies);
        }
        for (int q = 0; q < r; q++)
            ck_assert_msg(tg_combo_at(q)->n != row->n || memcmp(tg_combo_at(q)->tiles, row->tiles, row->n) != 0,
                          "rows %d and %d are the same tiles", q, r);
    }
}
END_TEST

START_TEST(test_classify_ignores_the_order_of_tiles)
{
    uint8_t forward[4], backward[4];
    parse_tiles("6-6 6-6 3-6 4-5", forward);
    parse_tiles("4-5 6-6 3-6 6-6", backward);
    tg_combo a = tg_classify(forward, 4), b = tg_classify(backward, 4);
    ck_assert_int_eq(a.type, TG_QUARTET);
    ck_assert_int_eq(b.type, TG_QUARTET);
    ck_assert_int_eq(a.rank, b.rank);
    ck_assert_mem_eq(a.tiles, b.tiles, 4);
}
END_TEST

static Suite *combo_suite(void)
{
    Suite *s = suite_create("tg_combo");
    TCase *tc = tcase_create("combinations");
    tcase_add_test(tc, test_every_tile_is_a_single_of_its_suit);
    tcase_add_test(tc, test_civil_singles_rank_heaven_down_to_copper_hammer);
    tcase_add_test(tc, test_military_singles_rank_nine_eight_seven_six_five_three);
    tcase_add_test(tc, test_the_two_military_nines_are_equal_singles);
    tcase_add_test(tc, test_a_single_does_not_beat_itself);
    tcase_add_test(tc, test_civil_and_military_singles_never_beat_each_other);
    tcase_add_test(tc, test_two_identical_civil_tiles_are_a_civil_pair);
    tcase_add_test(tc, test_pair_of_hatchets_loses_to_plum_pair);
    tcase_add_test(tc, test_pair_of_long_leg_sevens_beats_pair_of_copper_hammers);
    tcase_add_test(tc, test_military_pairs_are_the_two_tiles_of_one_total);
    tcase_add_test(tc, test_big_head_six_and_little_three_pair_with_no_other_military_tile);
    tcase_add_test(tc, test_military_tiles_of_different_totals_are_not_a_pair);
    tcase_add_test(tc, test_heaven_with_either_nine_is_a_mixed_pair);
    tcase_add_test(tc, test_heaven_nine_with_the_other_nine_is_equal_and_does_not_beat);
    tcase_add_test(tc, test_mixed_pairs_rank_heaven_nine_earth_eight_man_seven_goose_five);
    tcase_add_test(tc, test_heaven_with_an_eight_is_not_a_combination);
    tcase_add_test(tc, test_civil_tiles_below_goose_make_no_mixed_pair);
    tcase_add_test(tc, test_two_different_civil_tiles_are_not_a_combination);
    tcase_add_test(tc, test_civil_military_and_mixed_pairs_never_beat_each_other);
    tcase_add_test(tc, test_supreme_is_little_three_with_big_head_six);
    tcase_add_test(tc, test_supreme_neither_beats_nor_is_beaten);
    tcase_add_test(tc, test_two_civil_with_their_military_tile_are_a_civil_triple);
    tcase_add_test(tc, test_one_civil_with_both_its_military_tiles_is_a_military_triple);
    tcase_add_test(tc, test_civil_triple_and_military_triple_never_beat_each_other);
    tcase_add_test(tc, test_quartets_rank_heaven_earth_man_goose);
    tcase_add_test(tc, test_near_misses_of_three_and_four_tiles_are_not_combinations);
    tcase_add_test(tc, test_zero_or_five_tiles_are_not_a_combination);
    tcase_add_test(tc, test_types_of_different_sizes_never_beat_each_other);
    tcase_add_test(tc, test_only_the_pair_of_copper_hammers_can_be_wen_zun);
    tcase_add_test(tc, test_type_names_are_distinct);
    tcase_add_test(tc, test_every_multiset_of_tiles_is_classified_as_the_rules_say);
    tcase_add_test(tc, test_every_two_combinations_compare_as_the_rules_say);
    tcase_add_test(tc, test_the_table_holds_exactly_the_combinations_of_the_rules);
    tcase_add_test(tc, test_classify_ignores_the_order_of_tiles);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(combo_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
