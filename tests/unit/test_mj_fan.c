/*
 * Unit tests of mj_fan (rules/tianjin-mahjong.md §3-§4, §6): every worked result of §4 exactly,
 * each fan's definition, how fans combine, the highest reading, the minimum, the 刮大风 changes and
 * the hands that cannot arise. Wilds in these hands: indicator E makes E and S wild, 4m makes 4m
 * and 5m, 9m makes 9m and 1m, 9p makes 9p and 1p (§2).
 */
#include <check.h>
#include <stdlib.h>

#include "mj_test_util.h"

static const int KR = MJT_REPLACEMENT;

/* --- the worked results of §4, in the page's order --- */

START_TEST(test_kong_replacement_with_wild_pair_is_4)
{ /* 杠开混儿吊 4: 7m drawn after the 9p kong pairs with the wild E */
    mj_winning_hand h = mjt_hand("1m 2m 3m 6s 7s 8s 2p 3p 4p E", "kong:9p", "E", "7m", KR);
    mjt_assert_fan(&h, 4, "混儿吊 杠开");
}
END_TEST

START_TEST(test_two_wilds_catching_five_is_6)
{ /* 双混儿捉五 6: E and S stand for 4m and 6m */
    mj_winning_hand h = mjt_hand("1m 2m 3m 4s 5s 6s N N N 2p 2p E S", "", "E", "5m", 0);
    mjt_assert_fan(&h, 6, "混儿吊 捉五");
}
END_TEST

START_TEST(test_two_wilds_catching_five_is_6_when_the_drawn_tile_is_a_wild)
{ /* 双混儿捉五 6, the drawn S standing for 5m */
    mj_winning_hand h = mjt_hand("1m 2m 3m 4s 5s 6s N N N 2p 2p E S", "", "E", "S", 0);
    mjt_assert_fan(&h, 6, "混儿吊 捉五");
}
END_TEST

START_TEST(test_no_wild_catching_five_is_6)
{ /* 素捉五 6 */
    mj_winning_hand h = mjt_hand("4m 6m 2p 2p 2p 7s 8s 9s 1s 1s 1s N N", "", "E", "5m", 0);
    mjt_assert_fan(&h, 6, "素 捉五");
}
END_TEST

START_TEST(test_no_wild_kong_replacement_is_4)
{ /* 没混杠开 4 */
    mj_winning_hand h = mjt_hand("1m 2m 3m 6s 7s 8s 2p 3p 4p N", "kong:9p", "E", "N", KR);
    mjt_assert_fan(&h, 4, "素 杠开");
}
END_TEST

START_TEST(test_kong_replacement_catching_five_is_6)
{ /* 杠开捉五 6: the wild E is 3s */
    mj_winning_hand h = mjt_hand("4m 6m 1s 2s E 6s 7s 8s N N", "kong:9p", "E", "5m", KR);
    mjt_assert_fan(&h, 6, "捉五 杠开");
}
END_TEST

START_TEST(test_wild_pair_with_dragon_is_8)
{ /* 混吊龙 8 */
    mj_winning_hand h = mjt_hand("1m 2m 3m 4m 5m 6m 7m 8m 9m 2s 3s 4s E", "", "E", "N", 0);
    mjt_assert_fan(&h, 8, "混儿吊 龙");
}
END_TEST

START_TEST(test_catching_five_in_a_dragon_is_3_plus_4)
{ /* 捉五龙 7 */
    mj_winning_hand h = mjt_hand("1m 2m 3m 4m 6m 7m 8m 9m 2s 2s E N N", "", "E", "5m", 0);
    mjt_assert_fan(&h, 7, "捉五 龙");
}
END_TEST

START_TEST(test_kong_replacement_dragon_is_8)
{ /* 杠开龙 8: E is 9m */
    mj_winning_hand h = mjt_hand("1m 2m 3m 4m 5m 6m 7m 8m E N", "kong:9p", "E", "N", KR);
    mjt_assert_fan(&h, 8, "杠开 龙");
}
END_TEST

START_TEST(test_no_wild_dragon_is_8)
{ /* 素龙 8 */
    mj_winning_hand h = mjt_hand("1m 2m 3m 4m 5m 6m 7m 8m 9m 2s 2s 2s N", "", "E", "N", 0);
    mjt_assert_fan(&h, 8, "素 龙");
}
END_TEST

START_TEST(test_dragon_in_the_wilds_suit_is_8)
{ /* 本混龙 8: 4m and 5m are wilds standing for themselves */
    mj_winning_hand h = mjt_hand("1m 2m 3m 4m 5m 6m 7m 8m 9m 2s 2s 2s N", "", "4m", "N", 0);
    mjt_assert_fan(&h, 8, "龙 本混");
}
END_TEST

START_TEST(test_kong_replacement_two_wilds_catching_five_is_12)
{ /* 杠开双混捉五 12 */
    mj_winning_hand h = mjt_hand("1m 2m 3m 7s 8s 9s N N E S", "kong:9p", "E", "5m", KR);
    mjt_assert_fan(&h, 12, "混儿吊 捉五 杠开");
}
END_TEST

START_TEST(test_kong_replacement_no_wild_catching_five_is_12)
{ /* 杠开素捉五 12 */
    mj_winning_hand h = mjt_hand("4m 6m 1s 2s 3s 7s 8s 9s N N", "kong:9p", "E", "5m", KR);
    mjt_assert_fan(&h, 12, "素 捉五 杠开");
}
END_TEST

START_TEST(test_kong_replacement_wild_pair_dragon_is_16)
{ /* 杠开混吊龙 16 */
    mj_winning_hand h = mjt_hand("1m 2m 3m 4m 5m 6m 7m 8m 9m E", "kong:9s", "E", "N", KR);
    mjt_assert_fan(&h, 16, "混儿吊 杠开 龙");
}
END_TEST

START_TEST(test_wild_pair_with_dragon_in_the_wilds_suit_is_16)
{ /* 混吊本混龙 16: the second 5m is the wild in the pair */
    mj_winning_hand h = mjt_hand("1m 2m 3m 4m 5m 6m 7m 8m 9m 2s 2s 2s 5m", "", "4m", "N", 0);
    mjt_assert_fan(&h, 16, "混儿吊 龙 本混");
}
END_TEST

START_TEST(test_two_wilds_catching_five_with_a_dragon_is_14)
{ /* 双混捉五龙 14 = 2 × (3 + 4) */
    mj_winning_hand h = mjt_hand("1p 2p 3p 4p 5p 6p 7p 8p 9p N N E S", "", "E", "5m", 0);
    mjt_assert_fan(&h, 14, "混儿吊 捉五 龙");
}
END_TEST

START_TEST(test_two_wilds_catching_five_with_a_dragon_is_14_when_the_drawn_tile_is_a_wild)
{ /* 双混捉五龙 14, the drawn E standing for 5m */
    mj_winning_hand h = mjt_hand("1p 2p 3p 4p 5p 6p 7p 8p 9p N N E S", "", "E", "E", 0);
    mjt_assert_fan(&h, 14, "混儿吊 捉五 龙");
}
END_TEST

START_TEST(test_kong_replacement_catching_five_in_a_dragon_is_14)
{ /* 杠开捉五龙 14 */
    mj_winning_hand h = mjt_hand("1m 2m 3m 4m 6m 7m 8m E N N", "kong:9s", "E", "5m", KR);
    mjt_assert_fan(&h, 14, "捉五 杠开 龙");
}
END_TEST

START_TEST(test_kong_replacement_dragon_in_the_wilds_suit_is_16)
{ /* 杠开本混龙 16 */
    mj_winning_hand h = mjt_hand("1m 2m 3m 4m 5m 6m 7m 8m 9m N", "kong:9s", "4m", "N", KR);
    mjt_assert_fan(&h, 16, "杠开 龙 本混");
}
END_TEST

START_TEST(test_kong_replacement_no_wild_dragon_is_16)
{ /* 杠开素龙 16 */
    mj_winning_hand h = mjt_hand("1m 2m 3m 4m 5m 6m 7m 8m 9m N", "kong:9s", "E", "N", KR);
    mjt_assert_fan(&h, 16, "素 杠开 龙");
}
END_TEST

START_TEST(test_no_wild_catching_five_in_a_dragon_is_14)
{ /* 素捉五龙 14 */
    mj_winning_hand h = mjt_hand("1m 2m 3m 4m 6m 7m 8m 9m 2s 2s 2s N N", "", "E", "5m", 0);
    mjt_assert_fan(&h, 14, "素 捉五 龙");
}
END_TEST

START_TEST(test_catching_five_in_a_dragon_of_the_wilds_suit_is_14)
{ /* 本混捉五龙 14: 9m and 1m are wilds standing for themselves */
    mj_winning_hand h = mjt_hand("1m 2m 3m 4m 6m 7m 8m 9m 2s 2s 2s N N", "", "9m", "5m", 0);
    mjt_assert_fan(&h, 14, "捉五 龙 本混");
}
END_TEST

START_TEST(test_kong_replacement_wild_pair_dragon_in_the_wilds_suit_is_32)
{ /* 杠开混吊本混龙 32 */
    mj_winning_hand h = mjt_hand("1m 2m 3m 4m 5m 6m 7m 8m 9m 5m", "kong:9s", "4m", "N", KR);
    mjt_assert_fan(&h, 32, "混儿吊 杠开 龙 本混");
}
END_TEST

START_TEST(test_two_wilds_catching_five_with_a_dragon_of_the_wilds_suit_is_28)
{ /* 双混捉五本混龙 28: the spare 1p and 9p stand for 4m and 6m */
    mj_winning_hand h = mjt_hand("1p 2p 3p 4p 5p 6p 7p 8p 9p N N 1p 9p", "", "9p", "5m", 0);
    mjt_assert_fan(&h, 28, "混儿吊 捉五 龙 本混");
}
END_TEST

START_TEST(test_kong_replacement_no_wild_catching_five_in_a_dragon_is_28)
{ /* 杠开素捉五龙 28 */
    mj_winning_hand h = mjt_hand("1m 2m 3m 4m 6m 7m 8m 9m N N", "kong:9s", "E", "5m", KR);
    mjt_assert_fan(&h, 28, "素 捉五 杠开 龙");
}
END_TEST

START_TEST(test_kong_replacement_catching_five_in_a_dragon_of_the_wilds_suit_is_28)
{ /* 杠开本混捉五龙 28 */
    mj_winning_hand h = mjt_hand("1m 2m 3m 4m 6m 7m 8m 9m N N", "kong:9s", "9m", "5m", KR);
    mjt_assert_fan(&h, 28, "捉五 杠开 龙 本混");
}
END_TEST

/* --- each fan's definition --- */

START_TEST(test_a_drawn_tile_paired_with_one_wild_is_hun_diao_alone_worth_2)
{
    mj_winning_hand h = mjt_hand("1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m E", "", "E", "N", 0);
    mjt_assert_fan(&h, 2, "混儿吊");
}
END_TEST

START_TEST(test_a_drawn_tile_in_a_set_with_two_wilds_is_hun_diao)
{
    mj_winning_hand h = mjt_hand("1m 2m 3m 4p 5p 6p 7s 7s 2m 3m 4m E S", "", "E", "C", 0);
    mjt_assert_fan(&h, 2, "混儿吊");
}
END_TEST

START_TEST(test_a_drawn_wild_paired_with_another_wild_is_hun_diao)
{
    mj_winning_hand h = mjt_hand("1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m E", "", "E", "S", 0);
    mjt_assert_fan(&h, 2, "混儿吊");
}
END_TEST

START_TEST(test_a_drawn_tile_completed_by_a_natural_is_not_hun_diao)
{ /* the wild E is 2m inside a chow; N pairs with the natural N: no fan at all */
    mj_winning_hand h = mjt_hand("1m E 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N", "", "E", "N", 0);
    mj_options o = mj_options_default();
    mjt_assert_refused(&o, &h, MJ_ERR_UNDER_MINIMUM);
}
END_TEST

START_TEST(test_a_drawn_tile_with_one_wild_and_one_natural_is_not_hun_diao)
{ /* 7s 7s + E: 7s drawn with a natural 7s and a wild in the set */
    mj_winning_hand h = mjt_hand("1m 2m 3m 4p 5p 6p 7s E 2m 3m 4m N N", "", "E", "7s", 0);
    mj_options o = mj_options_default();
    mjt_assert_refused(&o, &h, MJ_ERR_UNDER_MINIMUM);
}
END_TEST

START_TEST(test_no_tile_of_a_wild_kind_is_su_worth_2)
{
    mj_winning_hand h = mjt_hand("1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N", "", "E", "N", 0);
    mjt_assert_fan(&h, 2, "素");
}
END_TEST

START_TEST(test_a_wild_standing_for_itself_is_no_su)
{
    mj_winning_hand h = mjt_hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E E N", "", "C", "N", 0);
    mjt_assert_fan(&h, 2, "素"); /* C makes C and F wild: E is natural here */
    /* with E wild the E pung is wilds standing for themselves: no 素 (only 混儿吊, N with an E) */
    h = mjt_hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E E N", "", "E", "N", 0);
    mjt_assert_fan(&h, 2, "混儿吊");
}
END_TEST

START_TEST(test_a_drawn_wild_is_no_su)
{ /* the drawn S is a wild standing for N beside the natural N: no 素, no 混儿吊, no fan */
    mj_winning_hand h = mjt_hand("1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N", "", "E", "S", 0);
    mj_options o = mj_options_default();
    mjt_assert_refused(&o, &h, MJ_ERR_UNDER_MINIMUM);
}
END_TEST

START_TEST(test_a_gold_kong_hand_is_never_su)
{
    mj_winning_hand h = mjt_hand("1m 2m 3m 4p 5p 6p 7s 8s 9s N", "concealed_kong:S", "E", "N", KR);
    mjt_assert_fan(&h, 2, "杠开");
}
END_TEST

START_TEST(test_five_wan_in_the_middle_of_four_and_six_wan_is_zhuo_wu_worth_3)
{
    mj_winning_hand h = mjt_hand("4m 6m 1p 2p 3p 7s 8s 9s C C C E N", "", "E", "5m", 0);
    mjt_assert_fan(&h, 3, "捉五"); /* E stands for N */
}
END_TEST

START_TEST(test_five_wan_at_the_edge_of_a_chow_is_not_zhuo_wu)
{ /* 5m can only close 3-4-5万 */
    mj_winning_hand h = mjt_hand("3m 4m 1p 2p 3p 7s 8s 9s C C C N N", "", "E", "5m", 0);
    mjt_assert_fan(&h, 2, "素");
}
END_TEST

START_TEST(test_five_of_dots_or_bamboo_is_not_zhuo_wu)
{
    mj_winning_hand h = mjt_hand("4p 6p 1m 2m 3m 7s 8s 9s C C C N N", "", "E", "5p", 0);
    mjt_assert_fan(&h, 2, "素");
    h = mjt_hand("4s 6s 1m 2m 3m 7p 8p 9p C C C N N", "", "E", "5s", 0);
    mjt_assert_fan(&h, 2, "素");
}
END_TEST

START_TEST(test_five_wan_in_a_pung_is_not_zhuo_wu)
{
    mj_winning_hand h = mjt_hand("5m 5m 1p 2p 3p 7s 8s 9s C C C N N", "", "E", "5m", 0);
    mjt_assert_fan(&h, 2, "素");
}
END_TEST

START_TEST(test_a_drawn_wild_between_four_and_six_wan_is_zhuo_wu_without_hun_diao)
{
    mj_winning_hand h = mjt_hand("4m 6m 1p 2p 3p 7s 8s 9s C C C N N", "", "E", "S", 0);
    mjt_assert_fan(&h, 3, "捉五");
}
END_TEST

START_TEST(test_one_wild_beside_a_natural_catches_five_without_hun_diao)
{ /* 4m natural, E as 6m */
    mj_winning_hand h = mjt_hand("4m E 1p 2p 3p 7s 8s 9s C C C N N", "", "E", "5m", 0);
    mjt_assert_fan(&h, 3, "捉五");
}
END_TEST

START_TEST(test_a_kong_replacement_win_is_gang_kai_worth_2)
{
    mj_winning_hand h = mjt_hand("1m E 3m 4p 5p 6p 7s 8s 9s N", "concealed_kong:2s", "E", "N", KR);
    mjt_assert_fan(&h, 2, "杠开");
}
END_TEST

START_TEST(test_one_to_nine_as_three_chows_is_long_worth_4)
{ /* the wild E fills 5p */
    mj_winning_hand h = mjt_hand("1p 2p 3p 4p E 6p 7p 8p 9p C C C N", "", "E", "N", 0);
    mjt_assert_fan(&h, 4, "龙");
}
END_TEST

START_TEST(test_one_to_nine_not_read_as_the_three_chows_is_no_long)
{ /* 1-2-3, 3-4-5, 6-7-8, 9-9-9: every 1..9 is there, but not as 1-2-3 4-5-6 7-8-9 */
    mj_winning_hand h = mjt_hand("1m 2m 3m 3m 4m 5m 6m 7m 8m 9m 9m 9m N", "", "E", "N", 0);
    mjt_assert_fan(&h, 2, "素");
}
END_TEST

START_TEST(test_a_dragon_of_another_suit_than_the_wilds_is_no_ben_hun)
{ /* wilds 4m 5m, dragon in dots */
    mj_winning_hand h = mjt_hand("1p 2p 3p 4p 5p 6p 7p 8p 9p 2s 2s 2s 5m", "", "4m", "N", 0);
    mjt_assert_fan(&h, 8, "混儿吊 龙");
}
END_TEST

START_TEST(test_honour_wilds_never_give_ben_hun)
{ /* wilds C and F: the dragon is in 万 but the wilds are honours */
    mj_winning_hand h = mjt_hand("1m 2m 3m 4m 5m 6m 7m 8m 9m 2s 2s 2s C", "", "C", "N", 0);
    mjt_assert_fan(&h, 8, "混儿吊 龙");
}
END_TEST

START_TEST(test_the_bankers_dealt_winning_hand_is_tian_hu_worth_4)
{
    mj_winning_hand h = mjt_hand("1m E 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N", "", "E", "N", MJT_FIRST_DRAW | MJT_DEALER);
    mjt_assert_fan(&h, 4, "天胡");
}
END_TEST

START_TEST(test_a_non_banker_winning_on_the_first_draw_is_di_hu_worth_4)
{
    mj_winning_hand h = mjt_hand("1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N", "", "E", "N", MJT_FIRST_DRAW);
    mjt_assert_fan(&h, 8, "素 地胡");
}
END_TEST

/* --- how they combine --- */

START_TEST(test_fans_multiply)
{ /* 天胡 4 × 素 2 × 捉五 3 */
    mj_winning_hand h = mjt_hand("4m 6m 1p 2p 3p 7s 8s 9s C C C N N", "", "E", "5m", MJT_FIRST_DRAW | MJT_DEALER);
    mjt_assert_fan(&h, 24, "素 捉五 天胡");
}
END_TEST

START_TEST(test_zhuo_wu_and_long_add_before_multiplying)
{
    mj_options o = mj_options_default();
    ck_assert_uint_eq(mj_fan_total(MJ_FAN_BIT(MJ_FAN_ZHUO_WU) | MJ_FAN_BIT(MJ_FAN_LONG), &o), 7);
    ck_assert_uint_eq(mj_fan_total(MJ_FAN_BIT(MJ_FAN_ZHUO_WU) | MJ_FAN_BIT(MJ_FAN_LONG) | MJ_FAN_BIT(MJ_FAN_DI_HU), &o),
                      28);
    ck_assert_uint_eq(mj_fan_total(MJ_FAN_BIT(MJ_FAN_ZHUO_WU) | MJ_FAN_BIT(MJ_FAN_SU), &o), 6);
    ck_assert_uint_eq(mj_fan_total(MJ_FAN_BIT(MJ_FAN_LONG) | MJ_FAN_BIT(MJ_FAN_BEN_HUN), &o), 8);
    ck_assert_uint_eq(mj_fan_total(0, &o), 1);
}
END_TEST

START_TEST(test_hun_diao_whose_group_is_a_dragon_set_counts_only_the_dragon)
{ /* 7m with the two wilds is 7-8-9万 of the dragon: 龙 4, not 混儿吊 × 龙 */
    mj_winning_hand h = mjt_hand("1m 2m 3m 4m 5m 6m E S 2s 2s 2s N N", "", "E", "7m", 0);
    mjt_assert_fan(&h, 4, "龙");
}
END_TEST

START_TEST(test_two_wilds_catching_five_inside_the_dragon_count_zhuo_wu_long_not_hun_diao)
{ /* 4-5-6万 made of 5m and two wilds can only be the dragon's: 捉五龙 7, not 14 */
    mj_winning_hand h = mjt_hand("1m 2m 3m 7m 8m 9m E S 2s 2s 2s N N", "", "E", "5m", 0);
    mjt_assert_fan(&h, 7, "捉五 龙");
    h = mjt_hand("1m 2m 3m 7m 8m 9m 4m 5m 2s 2s 2s N N", "", "4m", "5m", 0);
    mjt_assert_fan(&h, 14, "捉五 龙 本混");
}
END_TEST

START_TEST(test_the_highest_reading_counts)
{ /* the drawn 5m pairs with the wild E (混儿吊 2), or is caught in 4-5-6万 while the other 5m pairs
   * with E (捉五 3): the higher counts */
    mj_winning_hand h = mjt_hand("4m 5m 6m E 1p 2p 3p 7s 8s 9s C C C", "", "E", "5m", 0);
    mjt_assert_fan(&h, 3, "捉五");
}
END_TEST

START_TEST(test_the_winning_tile_has_one_place)
{ /* 5m can be caught (捉五) or paired with the wild (混儿吊), never both: 3, not 6 */
    mj_winning_hand h = mjt_hand("4m 5m 6m E 1p 2p 3p 7s 8s 9s C C C", "", "E", "5m", 0);
    mj_options o = mj_options_default();
    mj_score score;
    ck_assert_int_eq(mj_score_hand(&o, &h, &score), MJ_OK);
    ck_assert(!(score.fans & MJ_FAN_BIT(MJ_FAN_HUN_DIAO)) || !(score.fans & MJ_FAN_BIT(MJ_FAN_ZHUO_WU)));
}
END_TEST

START_TEST(test_equal_totals_name_the_fans_that_come_first_in_section_seven)
{ /* all seven wilds (1m 2m): 龙 in 万 with wilds is 本混龙 8; 4s with a wild as the pair and a
   * dragon in 条 made with wilds is 混儿吊龙 8. Equal totals: the set whose first differing fan comes
   * first in §7's order (混儿吊 before 龙) is named. */
    mj_winning_hand h = mjt_hand("1m 1m 1m 2m 2m 2m 2m 4m 5m 6m 2s 3s 5s", "", "1m", "4s", 0);
    mjt_assert_fan(&h, 8, "混儿吊 龙");
}
END_TEST

/* --- the minimum --- */

START_TEST(test_a_win_with_no_fan_is_under_the_minimum)
{
    mj_winning_hand h = mjt_hand("1m E 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N", "", "E", "N", 0);
    mj_options o = mj_options_default();
    mjt_assert_refused(&o, &h, MJ_ERR_UNDER_MINIMUM);
}
END_TEST

START_TEST(test_kong_payments_do_not_lift_a_hand_over_the_minimum)
{ /* a concealed kong alone is no fan */
    mj_winning_hand h = mjt_hand("1m E 3m 4p 5p 6p 7s 8s 9s N", "concealed_kong:2s", "E", "N", 0);
    mj_options o = mj_options_default();
    mjt_assert_refused(&o, &h, MJ_ERR_UNDER_MINIMUM);
}
END_TEST

START_TEST(test_tiles_that_are_not_four_sets_and_a_pair_are_not_a_win)
{
    mj_options o = mj_options_default();
    mj_winning_hand h = mjt_hand("1m 1m 3m 3m 5p 5p 7p 7p 2s 2s C C N", "", "E", "N", 0); /* seven pairs */
    mjt_assert_refused(&o, &h, MJ_ERR_NOT_A_WIN);
    h = mjt_hand("1m 9m 1p 9p 1s 9s W N C F P P N", "", "E", "S", 0); /* thirteen orphans with a wild */
    mjt_assert_refused(&o, &h, MJ_ERR_NOT_A_WIN);
}
END_TEST

/* --- 刮大风 (§6) --- */

START_TEST(test_gua_da_feng_refuses_hun_diao_alone)
{
    mj_winning_hand h = mjt_hand("1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m S", "", "E", "N", 0);
    mj_options o = mj_options_default();
    o.gua_da_feng = true;
    mjt_assert_refused(&o, &h, MJ_ERR_UNDER_MINIMUM);
    mjt_assert_fan(&h, 2, "混儿吊"); /* the normal preset allows it */
}
END_TEST

START_TEST(test_gua_da_feng_counts_hun_diao_with_another_fan)
{
    mj_winning_hand h = mjt_hand("1m 2m 3m 6s 7s 8s 2p 3p 4p E", "kong:9p", "E", "7m", KR);
    mjt_assert_gua_fan(&h, 4, "混儿吊 杠开");
}
END_TEST

START_TEST(test_gua_da_feng_su_is_worth_4_also_combined)
{
    mj_winning_hand h = mjt_hand("1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N", "", "C", "N", 0);
    mjt_assert_gua_fan(&h, 4, "素");
    h = mjt_hand("4m 6m 2p 2p 2p 7s 8s 9s 1s 1s 1s N N", "", "C", "5m", 0);
    mjt_assert_gua_fan(&h, 12, "素 捉五");
}
END_TEST

START_TEST(test_gua_da_feng_makes_the_kind_before_the_indicator_wild)
{ /* indicator 2p: 1p 2p 3p wild, so 1p can stand for 1s; in the normal preset it cannot */
    mj_winning_hand h = mjt_hand("1p 2s 3s 4m 5m 6m 7s 8s 9s N", "kong:C", "2p", "N", KR);
    mjt_assert_gua_fan(&h, 2, "杠开");
    mj_options o = mj_options_default();
    mjt_assert_refused(&o, &h, MJ_ERR_NOT_A_WIN);
}
END_TEST

START_TEST(test_gua_da_feng_has_no_tian_hu_but_the_hand_may_win_on_other_fans)
{
    mj_winning_hand h = mjt_hand("1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N", "", "C", "N", MJT_FIRST_DRAW | MJT_DEALER);
    mjt_assert_gua_fan(&h, 4, "素");
    h = mjt_hand("1m F 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N", "", "C", "N", MJT_FIRST_DRAW | MJT_DEALER);
    mj_options o = mj_options_default();
    o.gua_da_feng = true;
    mjt_assert_refused(&o, &h, MJ_ERR_UNDER_MINIMUM);
}
END_TEST

START_TEST(test_gua_da_feng_keeps_di_hu)
{
    mj_winning_hand h = mjt_hand("1m F 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N", "", "C", "N", MJT_FIRST_DRAW);
    mjt_assert_gua_fan(&h, 4, "地胡");
}
END_TEST

START_TEST(test_gua_da_feng_with_a_wind_indicator_makes_every_wind_wild)
{ /* indicator W: E S W N wild. N is no natural pair partner any more: N with E is 混儿吊 */
    mj_winning_hand h = mjt_hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E", "kong:9p", "W", "N", KR);
    mjt_assert_gua_fan(&h, 4, "混儿吊 杠开");
}
END_TEST

/* --- hands that cannot arise (§7 impossible, in order) --- */

START_TEST(test_a_fifth_tile_of_a_kind_is_impossible)
{
    mj_options o = mj_options_default();
    mj_winning_hand h = mjt_hand("1m 1m 1m 1m 2m 3m 4p 5p 6p 7s 8s 9s N", "", "E", "1m", 0);
    mjt_assert_refused(&o, &h, MJ_ERR_TOO_MANY_OF_A_KIND);
    h = mjt_hand("2m 3m 4m 4p 5p 6p 7s 8s 9s N", "pung:N", "E", "N", 0); /* across a meld */
    mjt_assert_refused(&o, &h, MJ_ERR_TOO_MANY_OF_A_KIND);
    int kind;
    ck_assert_int_eq(mj_winning_hand_check(&o, &h, &kind), MJ_ERR_TOO_MANY_OF_A_KIND);
    ck_assert_int_eq(kind, mjt_kind("N"));
}
END_TEST

START_TEST(test_a_fourth_tile_of_the_indicators_kind_is_impossible)
{
    mj_options o = mj_options_default();
    mj_winning_hand h = mjt_hand("E E E 1m 2m 3m 4p 5p 6p 7s 8s 9s N", "", "E", "E", 0);
    mjt_assert_refused(&o, &h, MJ_ERR_TOO_MANY_OF_INDICATOR);
    h = mjt_hand("E E E 1m 2m 3m 4p 5p 6p 7s 8s 9s N", "", "E", "N", 0); /* three are fine */
    ck_assert_int_eq(mj_winning_hand_check(&o, &h, NULL), MJ_OK);
}
END_TEST

START_TEST(test_a_pung_or_exposed_kong_of_a_wild_kind_is_impossible)
{
    mj_options o = mj_options_default();
    mj_winning_hand h = mjt_hand("1m 2m 3m 4p 5p 6p 7s 8s 9s N", "pung:S", "E", "N", 0);
    mjt_assert_refused(&o, &h, MJ_ERR_WILD_IN_MELD);
    h = mjt_hand("1m 2m 3m 4p 5p 6p 7s 8s 9s N", "kong:S", "E", "N", 0);
    mjt_assert_refused(&o, &h, MJ_ERR_WILD_IN_MELD);
    h = mjt_hand("1m 2m 3m 4p 5p 6p 7s 8s 9s N", "pung:4m", "5m", "N", 0);
    o.gua_da_feng = true; /* 4m is wild only under 刮大风 */
    mjt_assert_refused(&o, &h, MJ_ERR_WILD_IN_MELD);
}
END_TEST

START_TEST(test_a_gold_kong_is_impossible_when_gold_kong_fan_is_0)
{
    mj_options o = mj_options_default();
    mj_winning_hand h = mjt_hand("1m 2m 3m 4p 5p 6p 7s 8s 9s N", "concealed_kong:S", "E", "N", KR);
    ck_assert_int_eq(mj_winning_hand_check(&o, &h, NULL), MJ_OK);
    o.gold_kong_fan = 0;
    mjt_assert_refused(&o, &h, MJ_ERR_GOLD_KONG_BARRED);
}
END_TEST

START_TEST(test_a_kong_replacement_without_a_kong_is_impossible)
{
    mj_options o = mj_options_default();
    mj_winning_hand h = mjt_hand("1m 2m 3m 4p 5p 6p 7s 8s 9s N", "pung:2s", "E", "N", KR);
    mjt_assert_refused(&o, &h, MJ_ERR_REPLACEMENT_WITHOUT_KONG);
    h = mjt_hand("1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 2s 2s N", "", "E", "N", KR);
    mjt_assert_refused(&o, &h, MJ_ERR_REPLACEMENT_WITHOUT_KONG);
}
END_TEST

START_TEST(test_a_first_draw_win_with_a_meld_is_impossible)
{
    mj_options o = mj_options_default();
    mj_winning_hand h = mjt_hand("1m 2m 3m 4p 5p 6p 7s 8s 9s N", "pung:2s", "E", "N", MJT_FIRST_DRAW);
    mjt_assert_refused(&o, &h, MJ_ERR_FIRST_DRAW_NOT_FIRST);
    h = mjt_hand("1m 2m 3m 4p 5p 6p 7s 8s 9s N", "concealed_kong:2s", "E", "N", MJT_FIRST_DRAW | KR);
    mjt_assert_refused(&o, &h, MJ_ERR_FIRST_DRAW_NOT_FIRST);
}
END_TEST

START_TEST(test_impossibility_comes_before_not_a_win)
{
    mj_options o = mj_options_default();
    mj_winning_hand h = mjt_hand("1m 1m 1m 1m 3m 3m 5p 5p 7p 7p 2s 2s C", "", "E", "1m", 0);
    mjt_assert_refused(&o, &h, MJ_ERR_TOO_MANY_OF_A_KIND);
}
END_TEST

START_TEST(test_a_reading_uses_every_tile_of_the_hand)
{
    mj_winning_hand h = mjt_hand("1p 2p 3p 4p 5p 6p 7p 8p 9p N N 1p 9p", "", "9p", "5m", 0);
    mj_options o = mj_options_default();
    mj_score score;
    ck_assert_int_eq(mj_score_hand(&o, &h, &score), MJ_OK);
    ck_assert_int_eq(score.n_groups, 5);
    int places[MJ_KINDS] = {0}, wilds = 0, pairs = 0;
    for (int g = 0; g < score.n_groups; g++) {
        for (int i = 0; i < mj_group_size(&score.groups[g]); i++)
            places[mj_group_tile(&score.groups[g], i)]++;
        wilds += score.groups[g].wilds;
        pairs += score.groups[g].kind == MJ_GROUP_PAIR;
    }
    ck_assert_int_eq(pairs, 1);
    ck_assert_int_eq(wilds, 4); /* 1p 1p 9p 9p */
    ck_assert_int_eq(places[mjt_kind("4m")], 1);
    ck_assert_int_eq(places[mjt_kind("5m")], 1);
    ck_assert_int_eq(places[mjt_kind("6m")], 1);
    ck_assert_int_eq(places[mjt_kind("N")], 2);
}
END_TEST

static Suite *fan_suite(void)
{
    Suite *s = suite_create("mj_fan");
    TCase *worked = tcase_create("worked results of section 4");
    tcase_add_test(worked, test_kong_replacement_with_wild_pair_is_4);
    tcase_add_test(worked, test_two_wilds_catching_five_is_6);
    tcase_add_test(worked, test_two_wilds_catching_five_is_6_when_the_drawn_tile_is_a_wild);
    tcase_add_test(worked, test_no_wild_catching_five_is_6);
    tcase_add_test(worked, test_no_wild_kong_replacement_is_4);
    tcase_add_test(worked, test_kong_replacement_catching_five_is_6);
    tcase_add_test(worked, test_wild_pair_with_dragon_is_8);
    tcase_add_test(worked, test_catching_five_in_a_dragon_is_3_plus_4);
    tcase_add_test(worked, test_kong_replacement_dragon_is_8);
    tcase_add_test(worked, test_no_wild_dragon_is_8);
    tcase_add_test(worked, test_dragon_in_the_wilds_suit_is_8);
    tcase_add_test(worked, test_kong_replacement_two_wilds_catching_five_is_12);
    tcase_add_test(worked, test_kong_replacement_no_wild_catching_five_is_12);
    tcase_add_test(worked, test_kong_replacement_wild_pair_dragon_is_16);
    tcase_add_test(worked, test_wild_pair_with_dragon_in_the_wilds_suit_is_16);
    tcase_add_test(worked, test_two_wilds_catching_five_with_a_dragon_is_14);
    tcase_add_test(worked, test_two_wilds_catching_five_with_a_dragon_is_14_when_the_drawn_tile_is_a_wild);
    tcase_add_test(worked, test_kong_replacement_catching_five_in_a_dragon_is_14);
    tcase_add_test(worked, test_kong_replacement_dragon_in_the_wilds_suit_is_16);
    tcase_add_test(worked, test_kong_replacement_no_wild_dragon_is_16);
    tcase_add_test(worked, test_no_wild_catching_five_in_a_dragon_is_14);
    tcase_add_test(worked, test_catching_five_in_a_dragon_of_the_wilds_suit_is_14);
    tcase_add_test(worked, test_kong_replacement_wild_pair_dragon_in_the_wilds_suit_is_32);
    tcase_add_test(worked, test_two_wilds_catching_five_with_a_dragon_of_the_wilds_suit_is_28);
    tcase_add_test(worked, test_kong_replacement_no_wild_catching_five_in_a_dragon_is_28);
    tcase_add_test(worked, test_kong_replacement_catching_five_in_a_dragon_of_the_wilds_suit_is_28);
    suite_add_tcase(s, worked);

    TCase *fans = tcase_create("each fan");
    tcase_add_test(fans, test_a_drawn_tile_paired_with_one_wild_is_hun_diao_alone_worth_2);
    tcase_add_test(fans, test_a_drawn_tile_in_a_set_with_two_wilds_is_hun_diao);
    tcase_add_test(fans, test_a_drawn_wild_paired_with_another_wild_is_hun_diao);
    tcase_add_test(fans, test_a_drawn_tile_completed_by_a_natural_is_not_hun_diao);
    tcase_add_test(fans, test_a_drawn_tile_with_one_wild_and_one_natural_is_not_hun_diao);
    tcase_add_test(fans, test_no_tile_of_a_wild_kind_is_su_worth_2);
    tcase_add_test(fans, test_a_wild_standing_for_itself_is_no_su);
    tcase_add_test(fans, test_a_drawn_wild_is_no_su);
    tcase_add_test(fans, test_a_gold_kong_hand_is_never_su);
    tcase_add_test(fans, test_five_wan_in_the_middle_of_four_and_six_wan_is_zhuo_wu_worth_3);
    tcase_add_test(fans, test_five_wan_at_the_edge_of_a_chow_is_not_zhuo_wu);
    tcase_add_test(fans, test_five_of_dots_or_bamboo_is_not_zhuo_wu);
    tcase_add_test(fans, test_five_wan_in_a_pung_is_not_zhuo_wu);
    tcase_add_test(fans, test_a_drawn_wild_between_four_and_six_wan_is_zhuo_wu_without_hun_diao);
    tcase_add_test(fans, test_one_wild_beside_a_natural_catches_five_without_hun_diao);
    tcase_add_test(fans, test_a_kong_replacement_win_is_gang_kai_worth_2);
    tcase_add_test(fans, test_one_to_nine_as_three_chows_is_long_worth_4);
    tcase_add_test(fans, test_one_to_nine_not_read_as_the_three_chows_is_no_long);
    tcase_add_test(fans, test_a_dragon_of_another_suit_than_the_wilds_is_no_ben_hun);
    tcase_add_test(fans, test_honour_wilds_never_give_ben_hun);
    tcase_add_test(fans, test_the_bankers_dealt_winning_hand_is_tian_hu_worth_4);
    tcase_add_test(fans, test_a_non_banker_winning_on_the_first_draw_is_di_hu_worth_4);
    suite_add_tcase(s, fans);

    TCase *combine = tcase_create("combining");
    tcase_add_test(combine, test_fans_multiply);
    tcase_add_test(combine, test_zhuo_wu_and_long_add_before_multiplying);
    tcase_add_test(combine, test_hun_diao_whose_group_is_a_dragon_set_counts_only_the_dragon);
    tcase_add_test(combine, test_two_wilds_catching_five_inside_the_dragon_count_zhuo_wu_long_not_hun_diao);
    tcase_add_test(combine, test_the_highest_reading_counts);
    tcase_add_test(combine, test_the_winning_tile_has_one_place);
    tcase_add_test(combine, test_equal_totals_name_the_fans_that_come_first_in_section_seven);
    tcase_add_test(combine, test_a_win_with_no_fan_is_under_the_minimum);
    tcase_add_test(combine, test_kong_payments_do_not_lift_a_hand_over_the_minimum);
    tcase_add_test(combine, test_tiles_that_are_not_four_sets_and_a_pair_are_not_a_win);
    tcase_add_test(combine, test_a_reading_uses_every_tile_of_the_hand);
    suite_add_tcase(s, combine);

    TCase *gua = tcase_create("gua da feng");
    tcase_add_test(gua, test_gua_da_feng_refuses_hun_diao_alone);
    tcase_add_test(gua, test_gua_da_feng_counts_hun_diao_with_another_fan);
    tcase_add_test(gua, test_gua_da_feng_su_is_worth_4_also_combined);
    tcase_add_test(gua, test_gua_da_feng_makes_the_kind_before_the_indicator_wild);
    tcase_add_test(gua, test_gua_da_feng_has_no_tian_hu_but_the_hand_may_win_on_other_fans);
    tcase_add_test(gua, test_gua_da_feng_keeps_di_hu);
    tcase_add_test(gua, test_gua_da_feng_with_a_wind_indicator_makes_every_wind_wild);
    suite_add_tcase(s, gua);

    TCase *impossible = tcase_create("impossible");
    tcase_add_test(impossible, test_a_fifth_tile_of_a_kind_is_impossible);
    tcase_add_test(impossible, test_a_fourth_tile_of_the_indicators_kind_is_impossible);
    tcase_add_test(impossible, test_a_pung_or_exposed_kong_of_a_wild_kind_is_impossible);
    tcase_add_test(impossible, test_a_gold_kong_is_impossible_when_gold_kong_fan_is_0);
    tcase_add_test(impossible, test_a_kong_replacement_without_a_kong_is_impossible);
    tcase_add_test(impossible, test_a_first_draw_win_with_a_meld_is_impossible);
    tcase_add_test(impossible, test_impossibility_comes_before_not_a_win);
    suite_add_tcase(s, impossible);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(fan_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
