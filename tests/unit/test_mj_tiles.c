/*
 * Unit tests of mj_tiles and mj_wilds: the 34 kinds and their names (rules/tianjin-mahjong.md §1,
 * §7), the order wilds are counted in, and the wild kinds of both presets (§2, §6).
 */
#include <check.h>
#include <stdlib.h>

#include "mj_tiles.h"
#include "mj_wilds.h"

static int kind(const char *name) { return mj_kind_parse(name); }

static int popcount(mj_kind_set set)
{
    int n = 0;
    for (; set; set &= set - 1)
        n++;
    return n;
}

static mj_kind_set kinds_of(const char *a, const char *b, const char *c)
{
    mj_kind_set set = 0;
    const char *names[] = {a, b, c};
    for (int i = 0; i < 3; i++)
        if (names[i] != NULL)
            set |= (mj_kind_set)1 << kind(names[i]);
    return set;
}

START_TEST(test_there_are_34_kinds_of_four_tiles)
{
    ck_assert_int_eq(MJ_KINDS, 34);
    ck_assert_int_eq(MJ_TILES, 136);
    for (int k = 0; k < MJ_KINDS; k++)
        ck_assert_int_eq(mj_kind_parse(mj_kind_name(k)), k);
}
END_TEST

START_TEST(test_wire_names_are_those_of_section_seven)
{
    static const char *const NAMES[] = {"1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "C", "F", "P"};
    static const int KINDS[] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
        ck_assert_int_eq(kind(NAMES[i]), KINDS[i]);
    ck_assert_str_eq(mj_kind_zh(kind("5m")), "五万");
    ck_assert_str_eq(mj_kind_zh(kind("C")), "中");
}
END_TEST

START_TEST(test_names_that_are_not_tiles_are_refused)
{
    static const char *const BAD[] = {"0m", "10m", "5M", "m5", "e", "Z", "", "5", "5m ", "中", "1z"};
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++)
        ck_assert_msg(mj_kind_parse(BAD[i]) < 0, "\"%s\" parsed", BAD[i]);
    ck_assert_str_eq(mj_kind_name(-1), "");
    ck_assert_str_eq(mj_kind_name(34), "");
}
END_TEST

START_TEST(test_suits_and_ranks)
{
    ck_assert_int_eq(mj_kind_suit(kind("9m")), MJ_SUIT_M);
    ck_assert_int_eq(mj_kind_suit(kind("1p")), MJ_SUIT_P);
    ck_assert_int_eq(mj_kind_suit(kind("5s")), MJ_SUIT_S);
    ck_assert_int_eq(mj_kind_suit(kind("E")), MJ_SUIT_HONOR);
    ck_assert_int_eq(mj_kind_suit(kind("P")), MJ_SUIT_HONOR);
    ck_assert_int_eq(mj_kind_rank(kind("7p")), 7);
    ck_assert_int_eq(mj_kind_rank(kind("N")), 0);
    ck_assert_int_eq(mj_number_kind(MJ_SUIT_S, 3), kind("3s"));
}
END_TEST

START_TEST(test_next_kind_wraps_nine_to_one_within_a_suit)
{
    ck_assert_int_eq(mj_next_kind(kind("5m")), kind("6m"));
    ck_assert_int_eq(mj_next_kind(kind("9m")), kind("1m"));
    ck_assert_int_eq(mj_next_kind(kind("9p")), kind("1p"));
    ck_assert_int_eq(mj_next_kind(kind("9s")), kind("1s"));
    ck_assert_int_eq(mj_prev_kind(kind("1s")), kind("9s"));
    ck_assert_int_eq(mj_prev_kind(kind("1m")), kind("9m"));
}
END_TEST

START_TEST(test_next_wind_goes_east_south_west_north_east)
{
    ck_assert_int_eq(mj_next_kind(kind("E")), kind("S"));
    ck_assert_int_eq(mj_next_kind(kind("S")), kind("W"));
    ck_assert_int_eq(mj_next_kind(kind("W")), kind("N"));
    ck_assert_int_eq(mj_next_kind(kind("N")), kind("E"));
    ck_assert_int_eq(mj_prev_kind(kind("E")), kind("N"));
}
END_TEST

START_TEST(test_next_dragon_goes_red_green_white_red)
{
    ck_assert_int_eq(mj_next_kind(kind("C")), kind("F"));
    ck_assert_int_eq(mj_next_kind(kind("F")), kind("P"));
    ck_assert_int_eq(mj_next_kind(kind("P")), kind("C"));
    ck_assert_int_eq(mj_prev_kind(kind("C")), kind("P"));
}
END_TEST

START_TEST(test_next_and_prev_undo_each_other_for_every_kind)
{
    for (int k = 0; k < MJ_KINDS; k++) {
        ck_assert_int_eq(mj_prev_kind(mj_next_kind(k)), k);
        ck_assert_int_eq(mj_kind_suit(mj_next_kind(k)), mj_kind_suit(k));
        ck_assert_int_ne(mj_next_kind(k), k);
    }
}
END_TEST

START_TEST(test_normal_wilds_are_the_indicator_and_the_next_kind)
{
    ck_assert(mj_wild_kinds(kind("5m"), false) == kinds_of("5m", "6m", NULL));
    ck_assert(mj_wild_kinds(kind("9p"), false) == kinds_of("9p", "1p", NULL));
    ck_assert(mj_wild_kinds(kind("N"), false) == kinds_of("N", "E", NULL));
    ck_assert(mj_wild_kinds(kind("P"), false) == kinds_of("P", "C", NULL));
}
END_TEST

START_TEST(test_normal_wilds_are_seven_tiles_for_every_indicator)
{
    for (int k = 0; k < MJ_KINDS; k++) {
        ck_assert_int_eq(popcount(mj_wild_kinds(k, false)), 2);
        ck_assert_int_eq(mj_wild_tiles_in_play(k, false), 7);
    }
}
END_TEST

START_TEST(test_gua_da_feng_adds_the_kind_before_the_indicator)
{
    ck_assert(mj_wild_kinds(kind("5m"), true) == kinds_of("4m", "5m", "6m"));
    ck_assert(mj_wild_kinds(kind("1s"), true) == kinds_of("9s", "1s", "2s"));
    ck_assert(mj_wild_kinds(kind("9p"), true) == kinds_of("8p", "9p", "1p"));
    ck_assert(mj_wild_kinds(kind("C"), true) == kinds_of("P", "C", "F"));
    ck_assert_int_eq(mj_wild_tiles_in_play(kind("5m"), true), 11);
    ck_assert_int_eq(mj_wild_tiles_in_play(kind("F"), true), 11);
}
END_TEST

START_TEST(test_gua_da_feng_with_a_wind_indicator_makes_all_four_winds_wild)
{
    static const char *const WINDS[] = {"E", "S", "W", "N"};
    for (int i = 0; i < 4; i++) {
        mj_kind_set set = mj_wild_kinds(kind(WINDS[i]), true);
        ck_assert(set == (kinds_of("E", "S", "W") | kinds_of("N", NULL, NULL)));
        ck_assert_int_eq(mj_wild_tiles_in_play(kind(WINDS[i]), true), 15);
    }
}
END_TEST

START_TEST(test_wilds_never_straddle_suits)
{
    for (int k = 0; k < MJ_KINDS; k++)
        for (int gua = 0; gua < 2; gua++) {
            mj_kind_set set = mj_wild_kinds(k, gua);
            for (int j = 0; j < MJ_KINDS; j++)
                if (mj_kind_set_has(set, j))
                    ck_assert_int_eq(mj_kind_suit(j), mj_wild_suit(k));
        }
}
END_TEST

static Suite *tiles_suite(void)
{
    Suite *s = suite_create("mj_tiles");
    TCase *tiles = tcase_create("tiles");
    tcase_add_test(tiles, test_there_are_34_kinds_of_four_tiles);
    tcase_add_test(tiles, test_wire_names_are_those_of_section_seven);
    tcase_add_test(tiles, test_names_that_are_not_tiles_are_refused);
    tcase_add_test(tiles, test_suits_and_ranks);
    tcase_add_test(tiles, test_next_kind_wraps_nine_to_one_within_a_suit);
    tcase_add_test(tiles, test_next_wind_goes_east_south_west_north_east);
    tcase_add_test(tiles, test_next_dragon_goes_red_green_white_red);
    tcase_add_test(tiles, test_next_and_prev_undo_each_other_for_every_kind);
    suite_add_tcase(s, tiles);
    TCase *wilds = tcase_create("wilds");
    tcase_add_test(wilds, test_normal_wilds_are_the_indicator_and_the_next_kind);
    tcase_add_test(wilds, test_normal_wilds_are_seven_tiles_for_every_indicator);
    tcase_add_test(wilds, test_gua_da_feng_adds_the_kind_before_the_indicator);
    tcase_add_test(wilds, test_gua_da_feng_with_a_wind_indicator_makes_all_four_winds_wild);
    tcase_add_test(wilds, test_wilds_never_straddle_suits);
    suite_add_tcase(s, wilds);
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
