/*
 * test_tg_natural — natural hands (例牌, rules/tiengow.md §6): which dealt 8 tiles make one, with
 * and without each table option, and how tg_start ends and settles the hand at once.
 *
 * Red pips (§1): every 1 face and every 4 face, counted per pip (1-4 has 5, 4-4 has 8), and the
 * 6-6 counts 6. The tiles without any red pip are 2-2, 3-3, 5-5, 5-6 (two of each) and 2-3,
 * 2-5, 2-6, 3-5, 3-6. Every amount below is worked out by hand from §4 and §6.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tg_hand.h"

/* Parses 8 space-separated tile names ("1-2 6-6 ...") into kinds. */
static void parse_hand(const char *text, uint8_t out[TG_HAND_TILES])
{
    int n = 0;
    for (const char *p = text; *p != '\0';) {
        if (*p == ' ') {
            p++;
            continue;
        }
        char name[4] = {p[0], p[1], p[1] ? p[2] : '\0', '\0'};
        int kind = tg_tile_parse(name);
        ck_assert_msg(kind >= 0 && n < TG_HAND_TILES, "bad hand \"%s\"", text);
        out[n++] = (uint8_t)kind;
        p += 3;
    }
    ck_assert_msg(n == TG_HAND_TILES, "hand \"%s\" is not 8 tiles", text);
}

static uint8_t natural_of(const tg_options *o, const char *text)
{
    uint8_t tiles[TG_HAND_TILES];
    parse_hand(text, tiles);
    return tg_natural_hand(o, tiles);
}

static tg_options all_options_off(void) { return tg_options_default(); }

static tg_options all_options_on(void)
{
    tg_options o = tg_options_default();
    o.seven_civil = o.seven_military = o.eight_civil = o.eight_military = o.four_pairs = true;
    return o;
}

/* ---- tg_natural_hand, row by row ---- */

START_TEST(test_one_red_pip_is_seven_with_or_without_options)
{
    /* Seven tiles without red pips plus each tile with a single red pip (1-2, 1-3, 1-5, 1-6). */
    static const char *const hands[] = {
        "2-2 2-2 3-3 5-5 2-3 2-5 2-6 1-2", "2-2 2-2 3-3 5-5 2-3 2-5 2-6 1-3",
        "2-2 2-2 3-3 5-5 2-3 2-5 2-6 1-5", "2-2 2-2 3-3 5-5 2-3 2-5 2-6 1-6"};
    tg_options off = all_options_off(), on = all_options_on();
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(natural_of(&off, hands[i]), TG_END_SEVEN);
        ck_assert_int_eq(natural_of(&on, hands[i]), TG_END_SEVEN);
    }
}
END_TEST

START_TEST(test_no_red_pip_is_eight_with_or_without_options)
{
    tg_options off = all_options_off(), on = all_options_on();
    ck_assert_int_eq(natural_of(&off, "2-2 2-2 3-3 3-3 5-5 2-3 2-5 3-6"), TG_END_EIGHT);
    ck_assert_int_eq(natural_of(&on, "2-2 2-2 3-3 3-3 5-5 2-3 2-5 3-6"), TG_END_EIGHT);
    ck_assert_int_eq(natural_of(&off, "5-5 5-6 5-6 2-3 2-5 2-6 3-5 3-6"), TG_END_EIGHT);
}
END_TEST

START_TEST(test_red_pips_are_counted_per_pip)
{
    tg_options off = all_options_off();
    /* 6-6 counts 6, 1-4 counts 5, 4-4 counts 8, each 4-x tile counts 4, 1-1 counts 2. */
    ck_assert_int_eq(natural_of(&off, "6-6 2-2 2-2 3-3 3-3 5-5 2-3 2-5"), 0);
    ck_assert_int_eq(natural_of(&off, "1-4 2-2 2-2 3-3 3-3 5-5 2-3 2-5"), 0);
    ck_assert_int_eq(natural_of(&off, "4-4 2-2 2-2 3-3 3-3 5-5 2-3 2-5"), 0);
    ck_assert_int_eq(natural_of(&off, "4-5 2-2 2-2 3-3 3-3 5-5 2-3 2-5"), 0);
    ck_assert_int_eq(natural_of(&off, "2-4 2-2 2-2 3-3 3-3 5-5 2-3 2-5"), 0);
    ck_assert_int_eq(natural_of(&off, "1-1 2-2 2-2 3-3 3-3 5-5 2-3 2-5"), 0);
    /* Two tiles of one red pip each make two. */
    ck_assert_int_eq(natural_of(&off, "1-2 1-6 2-2 2-2 3-3 5-5 2-3 2-5"), 0);
}
END_TEST

START_TEST(test_seven_civil_tiles_need_the_seven_civil_option)
{
    const char *hand = "6-6 1-1 4-4 1-3 5-5 3-3 2-2 3-6";
    tg_options o = all_options_off();
    ck_assert_int_eq(natural_of(&o, hand), 0);
    o.seven_military = o.eight_civil = o.eight_military = o.four_pairs = true;
    ck_assert_int_eq(natural_of(&o, hand), 0);
    o = all_options_off();
    o.seven_civil = true;
    ck_assert_int_eq(natural_of(&o, hand), TG_END_SEVEN);
}
END_TEST

START_TEST(test_seven_military_tiles_need_the_seven_military_option)
{
    const char *hand = "3-6 4-5 2-6 3-5 2-5 3-4 2-4 6-6";
    tg_options o = all_options_off();
    ck_assert_int_eq(natural_of(&o, hand), 0);
    o.seven_civil = o.eight_civil = o.eight_military = o.four_pairs = true;
    ck_assert_int_eq(natural_of(&o, hand), 0);
    o = all_options_off();
    o.seven_military = true;
    ck_assert_int_eq(natural_of(&o, hand), TG_END_SEVEN);
}
END_TEST

START_TEST(test_eight_civil_tiles_need_the_eight_civil_option)
{
    const char *hand = "6-6 1-1 4-4 1-3 5-5 3-3 2-2 5-6";
    tg_options o = all_options_off();
    ck_assert_int_eq(natural_of(&o, hand), 0);
    o.seven_civil = true; /* "exactly 7" is not 8 */
    ck_assert_int_eq(natural_of(&o, hand), 0);
    o = all_options_off();
    o.eight_civil = true;
    ck_assert_int_eq(natural_of(&o, hand), TG_END_EIGHT);
}
END_TEST

START_TEST(test_eight_military_tiles_need_the_eight_military_option)
{
    /* The 2-4 and 1-4 are no pair, so this is not four pairs either. */
    const char *hand = "3-6 4-5 2-6 3-5 2-5 3-4 2-4 1-4";
    tg_options o = all_options_off();
    ck_assert_int_eq(natural_of(&o, hand), 0);
    o.seven_military = o.four_pairs = true;
    ck_assert_int_eq(natural_of(&o, hand), 0);
    o = all_options_off();
    o.eight_military = true;
    ck_assert_int_eq(natural_of(&o, hand), TG_END_EIGHT);
}
END_TEST

START_TEST(test_four_civil_or_military_pairs_need_the_four_pairs_option)
{
    tg_options o = all_options_off();
    /* 天 pair, 雜九, 雜八, 地 pair. */
    const char *mixed_suits = "6-6 6-6 3-6 4-5 2-6 3-5 1-1 1-1";
    /* 雜九, 雜八, 雜七, 雜五: eight military tiles, so eight_military would also take it. */
    const char *all_military = "3-6 4-5 2-6 3-5 2-5 3-4 2-3 1-4";
    ck_assert_int_eq(natural_of(&o, mixed_suits), 0);
    ck_assert_int_eq(natural_of(&o, all_military), 0);
    o.four_pairs = true;
    ck_assert_int_eq(natural_of(&o, mixed_suits), TG_END_EIGHT);
    ck_assert_int_eq(natural_of(&o, all_military), TG_END_EIGHT);
    ck_assert_int_eq(natural_of(&o, "1-5 1-5 1-6 1-6 4-6 4-6 2-3 1-4"), TG_END_EIGHT);
}
END_TEST

START_TEST(test_mixed_pairs_and_supreme_do_not_make_four_pairs)
{
    tg_options o = all_options_off();
    o.four_pairs = true;
    /* 天九, 地八, 人七, 和五: four mixed pairs. */
    ck_assert_int_eq(natural_of(&o, "6-6 3-6 1-1 2-6 4-4 2-5 1-3 2-3"), 0);
    /* 至尊 and three civil pairs. */
    ck_assert_int_eq(natural_of(&o, "1-2 2-4 6-6 6-6 1-1 1-1 4-4 4-4"), 0);
    /* Military tiles of different totals (9 and 8, 8 and 7) are no pair. */
    ck_assert_int_eq(natural_of(&o, "3-6 2-6 3-5 2-5 6-6 6-6 1-1 1-1"), 0);
    /* Three civil pairs and two different civil tiles. */
    ck_assert_int_eq(natural_of(&o, "6-6 6-6 1-1 1-1 4-4 4-4 1-3 5-5"), 0);
}
END_TEST

START_TEST(test_a_hand_that_qualifies_both_ways_is_eight)
{
    tg_options o = all_options_off();
    /* One red pip (七支) and eight civil tiles (八支 with eight_civil). */
    const char *one_red_all_civil = "2-2 2-2 3-3 3-3 5-5 5-5 5-6 1-6";
    ck_assert_int_eq(natural_of(&o, one_red_all_civil), TG_END_SEVEN);
    o.eight_civil = true;
    ck_assert_int_eq(natural_of(&o, one_red_all_civil), TG_END_EIGHT);
    /* No red pip (八支) and seven civil tiles (七支 with seven_civil). */
    o = all_options_off();
    o.seven_civil = true;
    ck_assert_int_eq(natural_of(&o, "2-2 2-2 3-3 3-3 5-5 5-5 5-6 2-6"), TG_END_EIGHT);
    /* One red pip and seven civil tiles are 七支 both ways: still 七支. */
    o = all_options_off();
    o.seven_civil = true;
    ck_assert_int_eq(natural_of(&o, "2-2 2-2 3-3 3-3 5-5 5-5 1-6 2-6"), TG_END_SEVEN);
}
END_TEST

/* ---- tg_start ---- */

static void start_hand(tg_state *st, const tg_options *o, int banker, uint32_t m, const char *const hands[TG_SEATS])
{
    uint8_t deal[TG_SEATS][TG_HAND_TILES];
    for (int s = 0; s < TG_SEATS; s++)
        parse_hand(hands[s], deal[s]);
    /* the cast only adds const to the rows, which C11 will not do implicitly */
    const uint8_t(*rows)[TG_HAND_TILES] = (const uint8_t(*)[TG_HAND_TILES])deal;
    ck_assert_str_eq(tg_status_name(tg_start(st, o, banker, m, rows)), "ok");
}

static void expect_natural(const tg_state *st, int seat, uint8_t ending, const int64_t pay_by_seat[TG_SEATS],
                           const int64_t net[TG_SEATS])
{
    ck_assert_msg(tg_is_over(st), "a natural hand must end the hand at once");
    ck_assert_int_eq(st->natural_seat, seat);
    ck_assert_int_eq(st->result.winner, seat);
    ck_assert_int_eq(st->result.endings, ending | TG_END_NATURAL);
    ck_assert_int_eq(st->n_tricks, 0);
    ck_assert_int_eq(st->n_bonuses, 0);
    ck_assert_int_eq(st->n_actions, 0);
    const tg_settlement *s = &st->result.settlement;
    ck_assert_int_eq(s->count, TG_SEATS - 1);
    int i = 0;
    for (int l = 0; l < TG_SEATS; l++) {
        ck_assert_int_eq(st->result.stacks[l], l == seat ? 8 : 0);
        ck_assert_int_eq(st->result.net[l], net[l]);
        if (l == seat)
            continue;
        ck_assert_int_eq(s->payments[i].from, l);
        ck_assert_int_eq(s->payments[i].to, seat);
        ck_assert_int_eq(s->payments[i].units, pay_by_seat[l]);
        i++;
    }
}

/* Seat 2 holds no red pip; nobody else holds a natural hand under any option. */
static const char *const NO_RED_AT_SEAT_2[] = {
    "6-6 1-1 4-4 1-3 5-6 4-6 4-5 2-6", "6-6 1-1 4-4 1-3 5-5 4-6 3-5 3-4",
    "2-2 2-2 3-3 3-3 5-5 2-3 2-5 3-6", "5-6 1-6 1-6 1-5 1-5 2-4 1-4 1-2"};

START_TEST(test_a_natural_hand_ends_the_hand_at_once_as_eight)
{
    /* 八支 x4, banker 0 (m 2): the banker pays 5 x 2 x 4 = 40, seats 1 and 3 pay 5 x 4 = 20. */
    tg_state st;
    tg_options o = tg_options_default();
    start_hand(&st, &o, 0, 2, NO_RED_AT_SEAT_2);
    const int64_t pay[] = {40, 20, 0, 20};
    const int64_t net[] = {-40, -20, 80, -20};
    expect_natural(&st, 2, TG_END_EIGHT, pay, net);
    ck_assert_int_eq(st.result.next_banker, 2);
    ck_assert_uint_eq(st.result.next_multiplier, 2);

    /* Nothing more is played. */
    tg_action out[TG_MAX_ACTIONS];
    ck_assert_int_eq(tg_legal_actions(&st, 0, out, TG_MAX_ACTIONS), 0);
    const uint8_t six = (uint8_t)tg_tile_parse("6-6");
    tg_action lead = tg_action_make(0, TG_PLAY, &six, 1);
    ck_assert_int_eq(tg_check_action(&st, &lead), TG_ERR_HAND_OVER);
    ck_assert_int_eq(tg_apply_action(&st, &lead), TG_ERR_HAND_OVER);
}
END_TEST

START_TEST(test_a_natural_hand_counts_as_a_win_for_the_turn_rotation)
{
    tg_state st;
    tg_options o = tg_options_default();
    o.rotation = TG_ROTATION_TURN;
    start_hand(&st, &o, 0, 3, NO_RED_AT_SEAT_2);
    /* Banker 0 loses: the bank passes to seat 1 with m 2. Banker 0 pays 5 x 3 x 4 = 60. */
    const int64_t pay[] = {60, 20, 0, 20};
    const int64_t net[] = {-60, -20, 100, -20};
    expect_natural(&st, 2, TG_END_EIGHT, pay, net);
    ck_assert_int_eq(st.result.next_banker, 1);
    ck_assert_uint_eq(st.result.next_multiplier, 2);
}
END_TEST

START_TEST(test_a_banker_with_one_red_pip_wins_seven_times_m)
{
    /* Banker 1 (m 3) holds one red pip: 七支 x2, each pays 5 x 3 x 2 = 30; the bank stays, m 4. */
    static const char *const deal[] = {"6-6 1-1 4-4 1-3 5-5 3-6 4-5 1-2", "2-2 2-2 3-3 5-5 2-3 2-5 2-6 1-6",
                                       "6-6 1-1 4-4 1-3 3-3 5-6 3-5 3-4", "5-6 4-6 4-6 1-6 1-5 1-5 2-4 1-4"};
    tg_state st;
    tg_options o = tg_options_default();
    start_hand(&st, &o, 1, 3, deal);
    const int64_t pay[] = {30, 0, 30, 30};
    const int64_t net[] = {-30, 90, -30, -30};
    expect_natural(&st, 1, TG_END_SEVEN, pay, net);
    ck_assert_int_eq(st.result.next_banker, 1);
    ck_assert_uint_eq(st.result.next_multiplier, 4);
}
END_TEST

/* With eight_civil and seven_military: seat 1 holds 8 civil (八支), seat 3 7 military (七支). */
static const char *const TWO_NATURALS[] = {
    "3-3 3-3 2-2 4-6 1-6 1-5 5-6 2-3", "6-6 1-1 1-1 4-4 4-4 1-3 1-3 5-5",
    "5-5 2-2 5-6 4-6 1-6 1-5 1-4 1-2", "3-6 4-5 2-6 3-5 2-5 3-4 2-4 6-6"};

static tg_options two_naturals_options(void)
{
    tg_options o = tg_options_default();
    o.eight_civil = true;
    o.seven_military = true;
    return o;
}

START_TEST(test_natural_hands_are_checked_from_the_banker_in_play_order)
{
    tg_options o = two_naturals_options();
    tg_state st;

    /* Banker 2: seats 2, 3, 0, 1 in turn, so seat 3's 七支 comes first although seat 1's is 八支.
     * Seats 0 and 1 pay 5 x 2 = 10, the banker 5 x 2 x 2 = 20. */
    start_hand(&st, &o, 2, 2, TWO_NATURALS);
    const int64_t pay_b2[] = {10, 10, 20, 0};
    const int64_t net_b2[] = {-10, -10, -20, 40};
    expect_natural(&st, 3, TG_END_SEVEN, pay_b2, net_b2);

    /* Banker 0: seats 0, 1, ...: seat 1's 八支. Banker 5 x 2 x 4 = 40, others 20. */
    start_hand(&st, &o, 0, 2, TWO_NATURALS);
    const int64_t pay_b0[] = {40, 0, 20, 20};
    const int64_t net_b0[] = {-40, 80, -20, -20};
    expect_natural(&st, 1, TG_END_EIGHT, pay_b0, net_b0);

    /* Banker 1 holds it himself: 40 from each. */
    start_hand(&st, &o, 1, 2, TWO_NATURALS);
    const int64_t pay_b1[] = {40, 0, 40, 40};
    const int64_t net_b1[] = {-40, 120, -40, -40};
    expect_natural(&st, 1, TG_END_EIGHT, pay_b1, net_b1);

    /* Banker 3 holds the 七支: 5 x 2 x 2 = 20 from each. */
    start_hand(&st, &o, 3, 2, TWO_NATURALS);
    const int64_t pay_b3[] = {20, 20, 20, 0};
    const int64_t net_b3[] = {-20, -20, -20, 60};
    expect_natural(&st, 3, TG_END_SEVEN, pay_b3, net_b3);
}
END_TEST

START_TEST(test_optional_natural_hands_do_not_count_when_their_option_is_off)
{
    tg_state st;
    tg_options o = tg_options_default();
    start_hand(&st, &o, 0, 2, TWO_NATURALS);
    ck_assert(!tg_is_over(&st));
    ck_assert_int_eq(st.natural_seat, -1);

    /* Only seven_military: seat 3 wins from any banker. */
    o.seven_military = true;
    start_hand(&st, &o, 0, 2, TWO_NATURALS);
    const int64_t pay[] = {20, 10, 10, 0};
    const int64_t net[] = {-20, -10, -10, 40};
    expect_natural(&st, 3, TG_END_SEVEN, pay, net);
}
END_TEST

START_TEST(test_four_pairs_wins_at_the_deal_only_with_civil_or_military_pairs)
{
    /* Seat 1: 天 pair, 雜九, 雜八, 地 pair. Nobody else holds four pairs or another natural. */
    static const char *const pairs[] = {"4-4 1-3 5-5 3-3 2-2 5-6 2-5 1-2", "6-6 6-6 3-6 4-5 2-6 3-5 1-1 1-1",
                                        "4-4 1-3 5-5 3-3 2-2 5-6 3-4 2-3", "4-6 4-6 1-6 1-6 1-5 1-5 2-4 1-4"};
    /* Seat 1: 天九, 地八, 人七, 和五, four mixed pairs. */
    static const char *const mixed[] = {"6-6 1-1 5-5 3-3 2-2 5-6 4-6 4-5", "6-6 3-6 1-1 2-6 4-4 2-5 1-3 2-3",
                                        "4-4 1-3 5-5 3-3 2-2 5-6 4-6 3-5", "1-6 1-6 1-5 1-5 3-4 2-4 1-4 1-2"};
    tg_state st;
    tg_options o = tg_options_default();
    start_hand(&st, &o, 0, 2, pairs);
    ck_assert(!tg_is_over(&st));

    o.four_pairs = true;
    start_hand(&st, &o, 0, 2, pairs);
    const int64_t pay[] = {40, 0, 20, 20};
    const int64_t net[] = {-40, 80, -20, -20};
    expect_natural(&st, 1, TG_END_EIGHT, pay, net);

    start_hand(&st, &o, 0, 2, mixed);
    ck_assert(!tg_is_over(&st));
    ck_assert_int_eq(st.natural_seat, -1);
}
END_TEST

static Suite *natural_suite(void)
{
    Suite *s = suite_create("tg_natural");
    TCase *rows = tcase_create("the table of natural hands");
    tcase_add_test(rows, test_one_red_pip_is_seven_with_or_without_options);
    tcase_add_test(rows, test_no_red_pip_is_eight_with_or_without_options);
    tcase_add_test(rows, test_red_pips_are_counted_per_pip);
    tcase_add_test(rows, test_seven_civil_tiles_need_the_seven_civil_option);
    tcase_add_test(rows, test_seven_military_tiles_need_the_seven_military_option);
    tcase_add_test(rows, test_eight_civil_tiles_need_the_eight_civil_option);
    tcase_add_test(rows, test_eight_military_tiles_need_the_eight_military_option);
    tcase_add_test(rows, test_four_civil_or_military_pairs_need_the_four_pairs_option);
    tcase_add_test(rows, test_mixed_pairs_and_supreme_do_not_make_four_pairs);
    tcase_add_test(rows, test_a_hand_that_qualifies_both_ways_is_eight);
    suite_add_tcase(s, rows);

    TCase *start = tcase_create("at the deal");
    tcase_add_test(start, test_a_natural_hand_ends_the_hand_at_once_as_eight);
    tcase_add_test(start, test_a_natural_hand_counts_as_a_win_for_the_turn_rotation);
    tcase_add_test(start, test_a_banker_with_one_red_pip_wins_seven_times_m);
    tcase_add_test(start, test_natural_hands_are_checked_from_the_banker_in_play_order);
    tcase_add_test(start, test_optional_natural_hands_do_not_count_when_their_option_is_off);
    tcase_add_test(start, test_four_pairs_wins_at_the_deal_only_with_civil_or_military_pairs);
    suite_add_tcase(s, start);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(natural_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
