/*
 * test_tg_tiles — the 32 Tien Gow tiles (engine/tg_tiles.h) against rules/tiengow.md §1.
 *
 * The expected values below are copied from the rules page, not from the engine: the faces of
 * every tile, its suit and rank, how many copies there are, and the red pips counted by hand
 * (every 1 face is one red pip, every 4 face four, and 6-6 counts 6). The engine's kind numbers
 * are only reached through tg_tile_from_faces, so the test does not depend on their order.
 */
#include <check.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tg_tiles.h"

typedef struct expected_tile {
    int low, high;
    tg_suit suit;
    int rank;           /* civil: 1 (天) .. 11 (銅錘六); military: the pip total */
    const char *zh;     /* a name the rules page gives (NULL: none given) */
    const char *zh_alt; /* the other name of the page, if it gives two */
    const char *en;
} expected_tile;

/* §1, in the page's order: civil high to low, then military high to low. */
static const expected_tile RULES[] = {
    {6, 6, TG_CIVIL, 1, "天", NULL, "Heaven"},
    {1, 1, TG_CIVIL, 2, "地", NULL, "Earth"},
    {4, 4, TG_CIVIL, 3, "人", NULL, "Man"},
    {1, 3, TG_CIVIL, 4, "和", "鵝", "Goose"},
    {5, 5, TG_CIVIL, 5, "梅", NULL, "Plum"},
    {3, 3, TG_CIVIL, 6, "長三", NULL, "Long three"},
    {2, 2, TG_CIVIL, 7, "板凳", NULL, "Bench"},
    {5, 6, TG_CIVIL, 8, "斧頭", NULL, "Hatchet"},
    {4, 6, TG_CIVIL, 9, "紅頭十", "屏風", "Red-head ten"},
    {1, 6, TG_CIVIL, 10, "高腳七", NULL, "Long-leg seven"},
    {1, 5, TG_CIVIL, 11, "銅錘六", "伶冧六", "Copper-hammer six"},
    {3, 6, TG_MILITARY, 9, NULL, NULL, NULL},
    {4, 5, TG_MILITARY, 9, NULL, NULL, NULL},
    {2, 6, TG_MILITARY, 8, NULL, NULL, NULL},
    {3, 5, TG_MILITARY, 8, NULL, NULL, NULL},
    {2, 5, TG_MILITARY, 7, NULL, NULL, NULL},
    {3, 4, TG_MILITARY, 7, NULL, NULL, NULL},
    {2, 4, TG_MILITARY, 6, "大頭六", NULL, NULL},
    {2, 3, TG_MILITARY, 5, NULL, NULL, NULL},
    {1, 4, TG_MILITARY, 5, NULL, NULL, NULL},
    {1, 2, TG_MILITARY, 3, "丁三", NULL, NULL},
};
#define RULE_TILES ((int)(sizeof RULES / sizeof RULES[0]))
#define CIVIL_KINDS 11

static int kind_of(const expected_tile *e)
{
    int kind = tg_tile_from_faces(e->low, e->high);
    ck_assert_msg(kind >= 0 && kind < TG_KINDS, "no tile %d-%d", e->low, e->high);
    return kind;
}

/* Red pips by the rule of §1. */
static int red_pips_by_rule(int low, int high)
{
    if (low == 6 && high == 6)
        return 6;
    int red = 0;
    const int faces[2] = {low, high};
    for (int i = 0; i < 2; i++)
        red += faces[i] == 1 ? 1 : faces[i] == 4 ? 4 : 0;
    return red;
}

START_TEST(test_the_rules_list_twenty_one_distinct_kinds)
{
    bool seen[TG_KINDS] = {false};
    ck_assert_int_eq(RULE_TILES, TG_KINDS);
    for (int i = 0; i < RULE_TILES; i++) {
        int kind = kind_of(&RULES[i]);
        ck_assert_msg(!seen[kind], "two tiles of the rules share kind %d", kind);
        seen[kind] = true;
    }
}
END_TEST

START_TEST(test_full_set_has_32_tiles_two_of_each_civil_one_of_each_military)
{
    uint8_t set[TG_TILES];
    int count[TG_KINDS] = {0};
    tg_full_set(set);
    for (int i = 0; i < TG_TILES; i++) {
        ck_assert_uint_lt(set[i], TG_KINDS);
        count[set[i]]++;
    }
    int civil = 0, military = 0;
    for (int i = 0; i < RULE_TILES; i++) {
        int kind = kind_of(&RULES[i]);
        int copies = RULES[i].suit == TG_CIVIL ? 2 : 1;
        ck_assert_int_eq(count[kind], copies);
        ck_assert_uint_eq(tg_tile(kind)->copies, copies);
        if (RULES[i].suit == TG_CIVIL)
            civil += count[kind];
        else
            military += count[kind];
    }
    ck_assert_int_eq(civil, 22);
    ck_assert_int_eq(military, 10);
}
END_TEST

START_TEST(test_every_tile_has_its_faces_and_suit)
{
    for (int i = 0; i < RULE_TILES; i++) {
        const tg_tile_info *t = tg_tile(kind_of(&RULES[i]));
        ck_assert_int_eq(t->low, RULES[i].low);
        ck_assert_int_eq(t->high, RULES[i].high);
        ck_assert_int_eq(t->suit, RULES[i].suit);
        ck_assert_int_eq(tg_tile_suit(kind_of(&RULES[i])), RULES[i].suit);
    }
}
END_TEST

START_TEST(test_civil_tiles_rank_in_the_order_of_the_rules)
{
    /* RULES lists the civil kinds from rank 1 down to rank 11: strength must fall strictly. */
    for (int i = 0; i + 1 < CIVIL_KINDS; i++) {
        int higher = kind_of(&RULES[i]), lower = kind_of(&RULES[i + 1]);
        ck_assert_msg(tg_tile_strength(higher) > tg_tile_strength(lower), "%d-%d should outrank %d-%d",
                      RULES[i].low, RULES[i].high, RULES[i + 1].low, RULES[i + 1].high);
    }
}
END_TEST

START_TEST(test_military_tiles_rank_by_pip_total)
{
    for (int i = CIVIL_KINDS; i < RULE_TILES; i++)
        for (int j = CIVIL_KINDS; j < RULE_TILES; j++) {
            int a = kind_of(&RULES[i]), b = kind_of(&RULES[j]);
            int total_a = RULES[i].low + RULES[i].high, total_b = RULES[j].low + RULES[j].high;
            ck_assert_int_eq(total_a, RULES[i].rank);
            if (total_a > total_b)
                ck_assert_uint_gt(tg_tile_strength(a), tg_tile_strength(b));
            else if (total_a == total_b)
                ck_assert_uint_eq(tg_tile_strength(a), tg_tile_strength(b));
        }
}
END_TEST

START_TEST(test_equal_military_totals_are_equal)
{
    const int pairs[][4] = {{3, 6, 4, 5}, {2, 6, 3, 5}, {2, 5, 3, 4}, {2, 3, 1, 4}};
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(tg_tile_strength(tg_tile_from_faces(pairs[i][0], pairs[i][1])),
                          tg_tile_strength(tg_tile_from_faces(pairs[i][2], pairs[i][3])));
}
END_TEST

START_TEST(test_big_head_six_and_little_three_are_military_singles)
{
    int six = tg_tile_from_faces(2, 4), three = tg_tile_from_faces(1, 2);
    ck_assert_int_eq(tg_tile_suit(six), TG_MILITARY);
    ck_assert_int_eq(tg_tile_suit(three), TG_MILITARY);
    ck_assert_uint_gt(tg_tile_strength(six), tg_tile_strength(tg_tile_from_faces(2, 3)));
    ck_assert_uint_lt(tg_tile_strength(six), tg_tile_strength(tg_tile_from_faces(2, 5)));
    ck_assert_uint_lt(tg_tile_strength(three), tg_tile_strength(tg_tile_from_faces(1, 4)));
}
END_TEST

START_TEST(test_red_pips_are_every_one_and_four_with_heaven_counting_six)
{
    for (int i = 0; i < RULE_TILES; i++)
        ck_assert_msg(tg_tile(kind_of(&RULES[i]))->red_pips == red_pips_by_rule(RULES[i].low, RULES[i].high),
                      "red pips of %d-%d", RULES[i].low, RULES[i].high);
    /* A few by hand, as a check on red_pips_by_rule itself. */
    ck_assert_uint_eq(tg_tile(tg_tile_from_faces(6, 6))->red_pips, 6);
    ck_assert_uint_eq(tg_tile(tg_tile_from_faces(4, 4))->red_pips, 8);
    ck_assert_uint_eq(tg_tile(tg_tile_from_faces(1, 1))->red_pips, 2);
    ck_assert_uint_eq(tg_tile(tg_tile_from_faces(1, 4))->red_pips, 5);
    ck_assert_uint_eq(tg_tile(tg_tile_from_faces(4, 6))->red_pips, 4);
    ck_assert_uint_eq(tg_tile(tg_tile_from_faces(1, 2))->red_pips, 1);
    ck_assert_uint_eq(tg_tile(tg_tile_from_faces(5, 5))->red_pips, 0);
    ck_assert_uint_eq(tg_tile(tg_tile_from_faces(3, 6))->red_pips, 0);
}
END_TEST

START_TEST(test_red_pips_of_the_whole_set_add_up)
{
    /* By hand: civil 2 x (6+2+8+1+0+0+0+0+4+1+1) = 46, military 0+4+0+0+0+4+4+0+5+1 = 18. */
    uint8_t set[TG_TILES];
    int total = 0;
    tg_full_set(set);
    for (int i = 0; i < TG_TILES; i++)
        total += tg_tile(set[i])->red_pips;
    ck_assert_int_eq(total, 64);
}
END_TEST

START_TEST(test_every_pair_of_dice_faces_is_a_tile)
{
    /* 21 pairs L <= H of faces 1..6 and 21 kinds: every face pair names exactly one tile. */
    bool seen[TG_KINDS] = {false};
    int pairs = 0;
    for (int low = 1; low <= 6; low++)
        for (int high = low; high <= 6; high++) {
            int kind = tg_tile_from_faces(low, high);
            ck_assert_msg(kind >= 0 && kind < TG_KINDS, "%d-%d", low, high);
            ck_assert(!seen[kind]);
            seen[kind] = true;
            pairs++;
        }
    ck_assert_int_eq(pairs, TG_KINDS);
}
END_TEST

START_TEST(test_faces_are_found_in_either_order)
{
    for (int i = 0; i < RULE_TILES; i++)
        ck_assert_int_eq(tg_tile_from_faces(RULES[i].high, RULES[i].low), kind_of(&RULES[i]));
}
END_TEST

START_TEST(test_faces_off_the_die_are_no_tile)
{
    ck_assert_int_eq(tg_tile_from_faces(0, 1), -1);
    ck_assert_int_eq(tg_tile_from_faces(1, 7), -1);
    ck_assert_int_eq(tg_tile_from_faces(0, 0), -1);
    ck_assert_int_eq(tg_tile_from_faces(7, 7), -1);
    ck_assert_int_eq(tg_tile_from_faces(-1, 3), -1);
}
END_TEST

START_TEST(test_every_tile_parses_from_its_faces_low_first)
{
    for (int i = 0; i < RULE_TILES; i++) {
        char text[4] = {(char)('0' + RULES[i].low), '-', (char)('0' + RULES[i].high), '\0'};
        ck_assert_int_eq(tg_tile_parse(text), kind_of(&RULES[i]));
    }
    ck_assert_int_eq(tg_tile_parse("1-2"), tg_tile_from_faces(1, 2));
    ck_assert_int_eq(tg_tile_parse("6-6"), tg_tile_from_faces(6, 6));
    ck_assert_int_eq(tg_tile_parse("1-1"), tg_tile_from_faces(1, 1));
    ck_assert_int_eq(tg_tile_parse("5-5"), tg_tile_from_faces(5, 5));
}
END_TEST

START_TEST(test_parse_refuses_malformed_or_high_first_names)
{
    const char *bad[] = {"2-1", "6-3", "0-1", "1-7", "0-0", "7-7", "12",   "",     "1-2x", "1-",  "-1",
                         "1",   " 1-2", "1-2 ", "1_2", "1--2", "a-b", "1-22", "11-2", "6-6-6", "1:2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(tg_tile_parse(bad[i]) == -1, "\"%s\" should not parse", bad[i]);
}
END_TEST

START_TEST(test_format_writes_low_face_first_and_round_trips)
{
    for (int i = 0; i < RULE_TILES; i++) {
        char out[4], expected[4] = {(char)('0' + RULES[i].low), '-', (char)('0' + RULES[i].high), '\0'};
        tg_tile_format(kind_of(&RULES[i]), out);
        ck_assert_str_eq(out, expected);
        ck_assert_int_eq(tg_tile_parse(out), kind_of(&RULES[i]));
    }
}
END_TEST

START_TEST(test_every_tile_has_names_in_chinese_and_english)
{
    for (int k = 0; k < TG_KINDS; k++) {
        const tg_tile_info *t = tg_tile(k);
        ck_assert_ptr_nonnull(t->zh_hant);
        ck_assert_ptr_nonnull(t->zh_hans);
        ck_assert_ptr_nonnull(t->en);
        ck_assert_int_gt((int)strlen(t->zh_hant), 0);
        ck_assert_int_gt((int)strlen(t->zh_hans), 0);
        ck_assert_int_gt((int)strlen(t->en), 0);
    }
}
END_TEST

START_TEST(test_names_are_those_of_the_rules)
{
    for (int i = 0; i < RULE_TILES; i++) {
        const tg_tile_info *t = tg_tile(kind_of(&RULES[i]));
        if (RULES[i].zh != NULL)
            ck_assert_msg(strstr(t->zh_hant, RULES[i].zh) != NULL ||
                              (RULES[i].zh_alt != NULL && strstr(t->zh_hant, RULES[i].zh_alt) != NULL),
                          "%d-%d is called %s", RULES[i].low, RULES[i].high, t->zh_hant);
        if (RULES[i].en != NULL)
            ck_assert_str_eq(t->en, RULES[i].en);
    }
    /* The three top tiles are written the same way in simplified characters. */
    ck_assert_ptr_nonnull(strstr(tg_tile(tg_tile_from_faces(6, 6))->zh_hans, "天"));
    ck_assert_ptr_nonnull(strstr(tg_tile(tg_tile_from_faces(1, 1))->zh_hans, "地"));
    ck_assert_ptr_nonnull(strstr(tg_tile(tg_tile_from_faces(4, 4))->zh_hans, "人"));
}
END_TEST

static Suite *tiles_suite(void)
{
    Suite *s = suite_create("tg_tiles");
    TCase *tc = tcase_create("tiles");
    tcase_add_test(tc, test_the_rules_list_twenty_one_distinct_kinds);
    tcase_add_test(tc, test_full_set_has_32_tiles_two_of_each_civil_one_of_each_military);
    tcase_add_test(tc, test_every_tile_has_its_faces_and_suit);
    tcase_add_test(tc, test_civil_tiles_rank_in_the_order_of_the_rules);
    tcase_add_test(tc, test_military_tiles_rank_by_pip_total);
    tcase_add_test(tc, test_equal_military_totals_are_equal);
    tcase_add_test(tc, test_big_head_six_and_little_three_are_military_singles);
    tcase_add_test(tc, test_red_pips_are_every_one_and_four_with_heaven_counting_six);
    tcase_add_test(tc, test_red_pips_of_the_whole_set_add_up);
    tcase_add_test(tc, test_every_pair_of_dice_faces_is_a_tile);
    tcase_add_test(tc, test_faces_are_found_in_either_order);
    tcase_add_test(tc, test_faces_off_the_die_are_no_tile);
    tcase_add_test(tc, test_every_tile_parses_from_its_faces_low_first);
    tcase_add_test(tc, test_parse_refuses_malformed_or_high_first_names);
    tcase_add_test(tc, test_format_writes_low_face_first_and_round_trips);
    tcase_add_test(tc, test_every_tile_has_names_in_chinese_and_english);
    tcase_add_test(tc, test_names_are_those_of_the_rules);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(tiles_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
