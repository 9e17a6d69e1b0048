/*
 * test_tg_settle — settlement of a finished Tien Gow hand and the next bank (engine/tg_settle.h).
 *
 * Every expected amount here is worked out by hand from rules/tiengow.md §3-§4 and §8: the seven
 * worked examples A-G, the loser units for 0..6 stacks, the banker factor (with the losing
 * banker's unmultiplied 入一/入二), the special-ending product M, 擒 in both payment modes, the
 * impossible outcomes of settle mode and both bank rotations. A last sweep runs every possible
 * outcome against a small reference written straight from the §4 text.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tg_settle.h"

typedef struct expected_payment {
    int from, to;
    int64_t units;
} expected_payment;

static tg_outcome make_outcome(int banker, uint32_t m, const int stacks[TG_SEATS], int winner, uint8_t endings,
                               int qin_captured)
{
    tg_outcome o;
    memset(&o, 0, sizeof o);
    o.banker = (uint8_t)banker;
    o.multiplier = m;
    for (int s = 0; s < TG_SEATS; s++)
        o.stacks[s] = (uint8_t)stacks[s];
    o.winner = (uint8_t)winner;
    o.endings = endings;
    o.qin_captured = (int8_t)qin_captured;
    return o;
}

/* Checks the outcome is possible, settles it and compares every payment and every net. */
static void expect_settlement(const tg_options *options, const tg_outcome *o, const expected_payment *pay,
                              int n_pay, const int64_t net[TG_SEATS], tg_payment_why why)
{
    ck_assert_str_eq(tg_status_name(tg_outcome_check(o)), "ok");
    tg_settlement s;
    tg_settle(options, o, &s);
    ck_assert_int_eq(s.count, n_pay);
    for (int i = 0; i < n_pay; i++) {
        ck_assert_msg(s.payments[i].from == pay[i].from && s.payments[i].to == pay[i].to &&
                          s.payments[i].units == pay[i].units,
                      "payment %d: got %d->%d %lld, expected %d->%d %lld", i, s.payments[i].from,
                      s.payments[i].to, (long long)s.payments[i].units, pay[i].from, pay[i].to,
                      (long long)pay[i].units);
        ck_assert_int_eq(s.payments[i].why, why);
    }
    for (int seat = 0; seat < TG_SEATS; seat++)
        ck_assert_msg(s.net[seat] == net[seat], "net of seat %d: got %lld, expected %lld", seat,
                      (long long)s.net[seat], (long long)net[seat]);
}

static tg_options defaults(void) { return tg_options_default(); }

/* ---- worked examples of §4 (East 0, South 1, West 2, North 3; A-D are seats 0-3) ---- */

START_TEST(test_example_a_east_banker_north_wins_with_three_stacks)
{
    const tg_options o = defaults();
    const int stacks[] = {1, 4, 0, 3};
    tg_outcome out = make_outcome(0, 2, stacks, 3, 0, -1);
    /* East: (4-1) x m2 = 6; South 4 stacks owes 0 (no entry); West: 4+1 = 5. */
    const expected_payment pay[] = {{0, 3, 6}, {2, 3, 5}};
    const int64_t net[] = {-6, 0, -5, 11};
    expect_settlement(&o, &out, pay, 2, net, TG_PAY_SETTLEMENT);
}
END_TEST

START_TEST(test_example_b_south_with_five_stacks_is_refunded_one)
{
    const tg_options o = defaults();
    const int stacks[] = {1, 5, 0, 2};
    tg_outcome out = make_outcome(0, 2, stacks, 3, 0, -1);
    const expected_payment pay[] = {{0, 3, 6}, {3, 1, 1}, {2, 3, 5}};
    const int64_t net[] = {-6, 1, -5, 10};
    expect_settlement(&o, &out, pay, 3, net, TG_PAY_SETTLEMENT);
}
END_TEST

START_TEST(test_example_c_winning_banker_multiplies_every_loser)
{
    const tg_options o = defaults();
    const int stacks[] = {2, 5, 1, 0};
    tg_outcome out = make_outcome(0, 4, stacks, 0, 0, -1);
    /* B: -1 x 4 (the winner banks) so A pays B 4; C: 3 x 4 = 12; D: 5 x 4 = 20. */
    const expected_payment pay[] = {{0, 1, 4}, {2, 0, 12}, {3, 0, 20}};
    const int64_t net[] = {28, 4, -12, -20};
    expect_settlement(&o, &out, pay, 3, net, TG_PAY_SETTLEMENT);
}
END_TEST

START_TEST(test_example_d_losing_banker_pays_times_m)
{
    const tg_options o = defaults();
    const int stacks[] = {2, 2, 4, 0};
    tg_outcome out = make_outcome(0, 5, stacks, 1, 0, -1);
    const expected_payment pay[] = {{0, 1, 10}, {3, 1, 5}};
    const int64_t net[] = {-10, 15, 0, -5};
    expect_settlement(&o, &out, pay, 2, net, TG_PAY_SETTLEMENT);
}
END_TEST

START_TEST(test_example_e_eight_stacks_by_a_non_banker)
{
    const tg_options o = defaults();
    const int stacks[] = {0, 0, 0, 8};
    tg_outcome out = make_outcome(1, 2, stacks, 3, TG_END_EIGHT, -1);
    const expected_payment pay[] = {{0, 3, 20}, {1, 3, 40}, {2, 3, 20}};
    const int64_t net[] = {-20, -40, -20, 80};
    expect_settlement(&o, &out, pay, 3, net, TG_PAY_SETTLEMENT);
}
END_TEST

START_TEST(test_example_f_losing_banker_refund_is_not_multiplied)
{
    const tg_options o = defaults();
    const int stacks[] = {5, 2, 1, 0};
    tg_outcome out = make_outcome(0, 3, stacks, 1, 0, -1);
    const expected_payment pay[] = {{1, 0, 1}, {2, 1, 3}, {3, 1, 5}};
    const int64_t net[] = {1, 7, -3, -5};
    expect_settlement(&o, &out, pay, 3, net, TG_PAY_SETTLEMENT);
}
END_TEST

START_TEST(test_example_g_captured_leader_pays_for_all)
{
    const tg_options o = defaults();
    const int stacks[] = {2, 2, 1, 3};
    tg_outcome out = make_outcome(0, 2, stacks, 3, TG_END_QIN, 1);
    /* a(East) = 2 x 2, a(South) = 2, a(West) = 3; (4 + 2 + 3) x 4 = 36 from South alone. */
    const expected_payment pay[] = {{1, 3, 36}};
    const int64_t net[] = {0, -36, 0, 36};
    expect_settlement(&o, &out, pay, 1, net, TG_PAY_QIN);
}
END_TEST

START_TEST(test_example_g_without_qin_pays_all_each_loser_pays_its_own)
{
    tg_options o = defaults();
    o.qin_pays_all = false;
    const int stacks[] = {2, 2, 1, 3};
    tg_outcome out = make_outcome(0, 2, stacks, 3, TG_END_QIN, 1);
    const expected_payment pay[] = {{0, 3, 16}, {1, 3, 8}, {2, 3, 12}};
    const int64_t net[] = {-16, -8, -12, 36};
    expect_settlement(&o, &out, pay, 3, net, TG_PAY_QIN);
}
END_TEST

/* ---- 擒 with the other options ---- */

START_TEST(test_qin_multiplier_two_halves_the_captured_leaders_payment)
{
    tg_options o = defaults();
    o.qin_multiplier = 2;
    const int stacks[] = {2, 2, 1, 3};
    tg_outcome out = make_outcome(0, 2, stacks, 3, TG_END_QIN, 1);
    const expected_payment pay[] = {{1, 3, 18}};
    const int64_t net[] = {0, -18, 0, 18};
    expect_settlement(&o, &out, pay, 1, net, TG_PAY_QIN);

    o.qin_pays_all = false;
    const expected_payment each[] = {{0, 3, 8}, {1, 3, 4}, {2, 3, 6}};
    const int64_t net_each[] = {-8, -4, -6, 18};
    expect_settlement(&o, &out, each, 3, net_each, TG_PAY_QIN);
}
END_TEST

START_TEST(test_qin_nets_a_refund_into_the_captured_leaders_sum)
{
    /* Banker 2 (m 3) wins 擒 with 2 stacks; seat 0 led the 丁三 and holds 1; seat 1 holds 5. */
    tg_options o = defaults();
    const int stacks[] = {1, 5, 2, 0};
    tg_outcome out = make_outcome(2, 3, stacks, 2, TG_END_QIN, 0);
    /* a(0) = 3 x 3 = 9, a(1) = -1 x 3 = -3, a(3) = 5 x 3 = 15; (9 - 3 + 15) x 4 = 84. */
    const expected_payment pay[] = {{0, 2, 84}};
    const int64_t net[] = {-84, 0, 84, 0};
    expect_settlement(&o, &out, pay, 1, net, TG_PAY_QIN);

    /* Each for itself: the refund is multiplied by qin_multiplier too (3 x 4 = 12). */
    o.qin_pays_all = false;
    const expected_payment each[] = {{0, 2, 36}, {2, 1, 12}, {3, 2, 60}};
    const int64_t net_each[] = {-36, 12, 84, -60};
    expect_settlement(&o, &out, each, 3, net_each, TG_PAY_QIN);
}
END_TEST

START_TEST(test_qin_losing_banker_refund_stays_unmultiplied_by_m)
{
    /* Banker 1 (m 4) holds 6 stacks and loses to 擒 by seat 3; seat 0 was captured. */
    tg_options o = defaults();
    o.qin_pays_all = false;
    const int stacks[] = {1, 5, 0, 2};
    tg_outcome out = make_outcome(1, 4, stacks, 3, TG_END_QIN, 0);
    /* a(0) = 3, a(1) = -1 (banker's 入一, not x m), a(2) = 5; each x 4. */
    const expected_payment each[] = {{0, 3, 12}, {3, 1, 4}, {2, 3, 20}};
    const int64_t net_each[] = {-12, 4, -20, 28};
    expect_settlement(&o, &out, each, 3, net_each, TG_PAY_QIN);
}
END_TEST

/* ---- loser units, banker factor, M ---- */

START_TEST(test_loser_units_for_zero_to_six_stacks)
{
    const int expected[7] = {5, 3, 2, 1, 0, -1, -2};
    for (int s = 0; s <= 6; s++)
        ck_assert_msg(tg_loser_units(s) == expected[s], "%d stacks: got %d, expected %d", s, tg_loser_units(s),
                      expected[s]);
}
END_TEST

START_TEST(test_losing_banker_refund_of_two_is_not_multiplied)
{
    const tg_options o = defaults();
    const int stacks[] = {6, 2, 0, 0};
    tg_outcome out = make_outcome(0, 3, stacks, 1, 0, -1);
    const expected_payment pay[] = {{1, 0, 2}, {2, 1, 5}, {3, 1, 5}};
    const int64_t net[] = {2, 8, -5, -5};
    expect_settlement(&o, &out, pay, 3, net, TG_PAY_SETTLEMENT);
}
END_TEST

START_TEST(test_refund_is_multiplied_when_the_winner_is_banker)
{
    const tg_options o = defaults();
    const int stacks[] = {2, 6, 0, 0};
    tg_outcome out = make_outcome(0, 3, stacks, 0, 0, -1);
    /* Seat 1's 入二 is -2 x 3 = -6 because the winner banks. */
    const expected_payment pay[] = {{0, 1, 6}, {2, 0, 15}, {3, 0, 15}};
    const int64_t net[] = {24, 6, -15, -15};
    expect_settlement(&o, &out, pay, 3, net, TG_PAY_SETTLEMENT);
}
END_TEST

START_TEST(test_losers_pay_unmultiplied_when_nobody_involved_banks)
{
    const tg_options o = defaults();
    const int stacks[] = {3, 1, 4, 0};
    /* Banker 3 with m 6 loses; seats 0 and 1 are neither banker nor winner. */
    tg_outcome out = make_outcome(3, 6, stacks, 2, 0, -1);
    const expected_payment pay[] = {{0, 2, 1}, {1, 2, 3}, {3, 2, 30}};
    const int64_t net[] = {-1, -3, 34, -30};
    expect_settlement(&o, &out, pay, 3, net, TG_PAY_SETTLEMENT);
}
END_TEST

START_TEST(test_endings_multiplier_is_the_product_of_the_endings)
{
    ck_assert_int_eq(tg_endings_multiplier(0), 1);
    ck_assert_int_eq(tg_endings_multiplier(TG_END_EIGHT), 4);
    ck_assert_int_eq(tg_endings_multiplier(TG_END_SEVEN), 2);
    ck_assert_int_eq(tg_endings_multiplier(TG_END_YAO), 2);
    ck_assert_int_eq(tg_endings_multiplier(TG_END_ZUN), 2);
    ck_assert_int_eq(tg_endings_multiplier(TG_END_QUARTET), 4);
    ck_assert_int_eq(tg_endings_multiplier(TG_END_EIGHT | TG_END_ZUN), 8);
    ck_assert_int_eq(tg_endings_multiplier(TG_END_EIGHT | TG_END_QUARTET), 16);
    ck_assert_int_eq(tg_endings_multiplier(TG_END_EIGHT | TG_END_YAO), 8);
    ck_assert_int_eq(tg_endings_multiplier(TG_END_SEVEN | TG_END_YAO), 4);
    /* A natural hand settles as 七支 or 八支 alone. */
    ck_assert_int_eq(tg_endings_multiplier(TG_END_NATURAL | TG_END_EIGHT), 4);
    ck_assert_int_eq(tg_endings_multiplier(TG_END_NATURAL | TG_END_SEVEN), 2);
}
END_TEST

START_TEST(test_eight_won_by_supreme_is_times_eight)
{
    const tg_options o = defaults();
    const int stacks[] = {8, 0, 0, 0};
    tg_outcome out = make_outcome(0, 2, stacks, 0, TG_END_EIGHT | TG_END_ZUN, -1);
    /* 5 units x m 2 x (4 x 2) = 80 from each. */
    const expected_payment pay[] = {{1, 0, 80}, {2, 0, 80}, {3, 0, 80}};
    const int64_t net[] = {240, -80, -80, -80};
    expect_settlement(&o, &out, pay, 3, net, TG_PAY_SETTLEMENT);
}
END_TEST

START_TEST(test_eight_won_by_a_quartet_is_times_sixteen)
{
    const tg_options o = defaults();
    const int stacks[] = {8, 0, 0, 0};
    tg_outcome out = make_outcome(1, 2, stacks, 0, TG_END_EIGHT | TG_END_QUARTET, -1);
    const expected_payment pay[] = {{1, 0, 160}, {2, 0, 80}, {3, 0, 80}};
    const int64_t net[] = {320, -160, -80, -80};
    expect_settlement(&o, &out, pay, 3, net, TG_PAY_SETTLEMENT);
}
END_TEST

START_TEST(test_ending_multiplier_applies_to_a_refund)
{
    const tg_options o = defaults();
    /* 么結 (x2) by seat 0 with 2 stacks; seat 1 holds 6; banker 2 (m 2) has none. */
    const int stacks[] = {2, 6, 0, 0};
    tg_outcome out = make_outcome(2, 2, stacks, 0, TG_END_YAO, -1);
    const expected_payment pay[] = {{0, 1, 4}, {2, 0, 20}, {3, 0, 10}};
    const int64_t net[] = {26, 4, -20, -10};
    expect_settlement(&o, &out, pay, 3, net, TG_PAY_SETTLEMENT);
}
END_TEST

START_TEST(test_ending_multiplier_applies_to_a_losing_bankers_refund_but_m_does_not)
{
    const tg_options o = defaults();
    /* 四大包 (x4) by seat 0 with 3 stacks; banker 1 (m 3) holds 5: -1 x 1 x 4 = -4. */
    const int stacks[] = {3, 5, 0, 0};
    tg_outcome out = make_outcome(1, 3, stacks, 0, TG_END_QUARTET, -1);
    const expected_payment pay[] = {{0, 1, 4}, {2, 0, 20}, {3, 0, 20}};
    const int64_t net[] = {36, 4, -20, -20};
    expect_settlement(&o, &out, pay, 3, net, TG_PAY_SETTLEMENT);
}
END_TEST

/* ---- outcomes that cannot arise (§8 settle mode) ---- */

static tg_status check_of(int banker, const int stacks[TG_SEATS], int winner, uint8_t endings, int captured)
{
    tg_outcome out = make_outcome(banker, 2, stacks, winner, endings, captured);
    return tg_outcome_check(&out);
}

START_TEST(test_stacks_must_sum_to_eight)
{
    const int seven[] = {2, 2, 2, 1}, nine[] = {3, 2, 2, 2}, zero[] = {0, 0, 0, 0};
    ck_assert_int_eq(check_of(0, seven, 0, 0, -1), TG_ERR_STACKS_NOT_EIGHT);
    ck_assert_int_eq(check_of(0, nine, 0, 0, -1), TG_ERR_STACKS_NOT_EIGHT);
    ck_assert_int_eq(check_of(0, zero, 0, 0, -1), TG_ERR_STACKS_NOT_EIGHT);
    /* The sum is checked first: a 1-stack winner in a bad total is still a bad total. */
    const int both[] = {1, 4, 4, 0};
    ck_assert_int_eq(check_of(0, both, 0, 0, -1), TG_ERR_STACKS_NOT_EIGHT);
}
END_TEST

START_TEST(test_winner_needs_two_stacks)
{
    const int one[] = {1, 3, 3, 1}, none[] = {0, 4, 4, 0}, two[] = {2, 3, 3, 0};
    ck_assert_int_eq(check_of(0, one, 0, 0, -1), TG_ERR_WINNER_UNDER_TWO);
    ck_assert_int_eq(check_of(0, one, 3, 0, -1), TG_ERR_WINNER_UNDER_TWO);
    ck_assert_int_eq(check_of(1, none, 0, 0, -1), TG_ERR_WINNER_UNDER_TWO);
    ck_assert_int_eq(check_of(1, two, 0, 0, -1), TG_OK);
}
END_TEST

START_TEST(test_eight_and_seven_exclude_each_other)
{
    const int all[] = {0, 8, 0, 0};
    ck_assert_int_eq(check_of(0, all, 1, TG_END_EIGHT | TG_END_SEVEN, -1), TG_ERR_EIGHT_AND_SEVEN);
    ck_assert_int_eq(check_of(0, all, 1, TG_END_EIGHT, -1), TG_OK);
    ck_assert_int_eq(check_of(0, all, 1, TG_END_SEVEN, -1), TG_OK);
}
END_TEST

START_TEST(test_eight_or_seven_needs_all_eight_stacks)
{
    const int seven[] = {1, 7, 0, 0}, two[] = {2, 2, 2, 2};
    ck_assert_int_eq(check_of(0, seven, 1, TG_END_EIGHT, -1), TG_ERR_SHUTOUT_NEEDS_EIGHT);
    ck_assert_int_eq(check_of(0, seven, 1, TG_END_SEVEN, -1), TG_ERR_SHUTOUT_NEEDS_EIGHT);
    ck_assert_int_eq(check_of(0, two, 3, TG_END_EIGHT | TG_END_YAO, -1), TG_ERR_SHUTOUT_NEEDS_EIGHT);
}
END_TEST

START_TEST(test_at_most_one_of_yao_zun_and_quartet)
{
    const int s[] = {3, 2, 2, 1}, all[] = {8, 0, 0, 0};
    ck_assert_int_eq(check_of(0, s, 0, TG_END_YAO | TG_END_ZUN, -1), TG_ERR_TWO_TILE_ENDINGS);
    ck_assert_int_eq(check_of(0, s, 0, TG_END_YAO | TG_END_QUARTET, -1), TG_ERR_TWO_TILE_ENDINGS);
    ck_assert_int_eq(check_of(0, s, 0, TG_END_ZUN | TG_END_QUARTET, -1), TG_ERR_TWO_TILE_ENDINGS);
    ck_assert_int_eq(check_of(0, s, 0, TG_END_YAO | TG_END_ZUN | TG_END_QUARTET, -1), TG_ERR_TWO_TILE_ENDINGS);
    ck_assert_int_eq(check_of(0, all, 0, TG_END_EIGHT | TG_END_ZUN | TG_END_QUARTET, -1), TG_ERR_TWO_TILE_ENDINGS);
    /* One of them, alone or with 八支/七支, is possible. */
    ck_assert_int_eq(check_of(0, s, 0, TG_END_YAO, -1), TG_OK);
    ck_assert_int_eq(check_of(0, s, 0, TG_END_ZUN, -1), TG_OK);
    ck_assert_int_eq(check_of(0, s, 0, TG_END_QUARTET, -1), TG_OK);
    ck_assert_int_eq(check_of(0, all, 0, TG_END_EIGHT | TG_END_QUARTET, -1), TG_OK);
    ck_assert_int_eq(check_of(0, all, 0, TG_END_SEVEN | TG_END_YAO, -1), TG_OK);
}
END_TEST

START_TEST(test_qin_takes_no_other_ending)
{
    const int s[] = {2, 2, 1, 3}, all[] = {0, 0, 0, 8};
    ck_assert_int_eq(check_of(0, s, 3, TG_END_QIN | TG_END_YAO, 1), TG_ERR_QIN_WITH_ENDINGS);
    ck_assert_int_eq(check_of(0, s, 3, TG_END_QIN | TG_END_ZUN, 1), TG_ERR_QIN_WITH_ENDINGS);
    ck_assert_int_eq(check_of(0, s, 3, TG_END_QIN | TG_END_QUARTET, 1), TG_ERR_QIN_WITH_ENDINGS);
    ck_assert_int_eq(check_of(0, all, 3, TG_END_QIN | TG_END_EIGHT, 1), TG_ERR_QIN_WITH_ENDINGS);
}
END_TEST

START_TEST(test_qin_captured_leader_is_a_loser_with_a_stack)
{
    const int s[] = {2, 2, 1, 3}, empty_leader[] = {2, 0, 3, 3};
    ck_assert_int_eq(check_of(0, s, 3, TG_END_QIN, 1), TG_OK);
    ck_assert_int_eq(check_of(0, s, 3, TG_END_QIN, 2), TG_OK);   /* 1 stack is enough */
    ck_assert_int_eq(check_of(0, s, 3, TG_END_QIN, 3), TG_ERR_QIN_CAPTURED); /* the winner */
    ck_assert_int_eq(check_of(0, empty_leader, 3, TG_END_QIN, 1), TG_ERR_QIN_CAPTURED);
    ck_assert_int_eq(check_of(0, s, 3, TG_END_QIN, -1), TG_ERR_QIN_CAPTURED);
    ck_assert_int_eq(check_of(0, s, 3, TG_END_QIN, 4), TG_ERR_QIN_CAPTURED);
}
END_TEST

/* ---- next bank (§3) ---- */

static void expect_next(uint8_t rotation, int banker, uint32_t m, int winner, int next_banker, uint32_t next_m)
{
    tg_options o = defaults();
    o.rotation = rotation;
    uint8_t b = 99;
    uint32_t nm = 0;
    tg_next_bank(&o, banker, m, winner, &b, &nm);
    ck_assert_msg(b == next_banker && nm == next_m,
                  "rotation %d banker %d m %u winner %d: got %d x%u, expected %d x%u", rotation, banker, m, winner,
                  b, nm, next_banker, next_m);
}

START_TEST(test_fly_rotation_gives_the_bank_to_the_winner)
{
    expect_next(TG_ROTATION_FLY, 0, 2, 0, 0, 3);
    expect_next(TG_ROTATION_FLY, 2, 5, 2, 2, 6);
    expect_next(TG_ROTATION_FLY, 0, 4, 2, 2, 2);
    expect_next(TG_ROTATION_FLY, 3, 2, 1, 1, 2);
    expect_next(TG_ROTATION_FLY, 1, 7, 0, 0, 2);
}
END_TEST

START_TEST(test_turn_rotation_passes_the_bank_in_play_order)
{
    expect_next(TG_ROTATION_TURN, 0, 2, 0, 0, 3);
    expect_next(TG_ROTATION_TURN, 1, 4, 1, 1, 5);
    expect_next(TG_ROTATION_TURN, 0, 4, 2, 1, 2);
    expect_next(TG_ROTATION_TURN, 1, 3, 3, 2, 2);
    expect_next(TG_ROTATION_TURN, 3, 2, 1, 0, 2); /* wraps from seat 3 to seat 0 */
}
END_TEST

/* ---- every possible outcome against a reference written from §4 ---- */

/* What loser l owes the winner (negative: the winner pays l), before any 擒 handling. */
static int64_t reference_a(const tg_outcome *o, int l)
{
    int s = o->stacks[l];
    int64_t units = 4 - s + (s == 0 ? 1 : 0);
    bool banker_pays_refund = l == o->banker && units < 0;
    if ((l == o->banker || o->winner == o->banker) && !banker_pays_refund)
        units *= o->multiplier;
    return units;
}

static int64_t reference_ending_product(uint8_t endings)
{
    int64_t m = 1;
    if (endings & TG_END_EIGHT)
        m *= 4;
    if (endings & TG_END_SEVEN)
        m *= 2;
    if (endings & TG_END_YAO)
        m *= 2;
    if (endings & TG_END_ZUN)
        m *= 2;
    if (endings & TG_END_QUARTET)
        m *= 4;
    return m;
}

/* Reference net of every seat. */
static void reference_net(const tg_options *opt, const tg_outcome *o, int64_t net[TG_SEATS])
{
    memset(net, 0, sizeof(int64_t) * TG_SEATS);
    int w = o->winner;
    for (int l = 0; l < TG_SEATS; l++) {
        if (l == w)
            continue;
        int64_t amount = reference_a(o, l);
        if (o->endings & TG_END_QIN)
            amount *= opt->qin_multiplier;
        else
            amount *= reference_ending_product(o->endings);
        int payer = (o->endings & TG_END_QIN) && opt->qin_pays_all ? o->qin_captured : l;
        net[payer] -= amount;
        net[w] += amount;
    }
}

static void check_against_reference(const tg_options *opt, const tg_outcome *o)
{
    ck_assert_int_eq(tg_outcome_check(o), TG_OK);
    tg_settlement s;
    tg_settle(opt, o, &s);
    int64_t want[TG_SEATS], from_payments[TG_SEATS] = {0, 0, 0, 0}, sum = 0;
    reference_net(opt, o, want);
    ck_assert_int_le(s.count, TG_SEATS - 1);
    int last_loser = -1;
    for (int i = 0; i < s.count; i++) {
        const tg_payment *p = &s.payments[i];
        ck_assert_int_gt(p->units, 0);
        ck_assert_msg(p->from == o->winner || p->to == o->winner, "a payment not involving the winner");
        int loser = p->from == o->winner ? p->to : p->from;
        ck_assert_int_gt(loser, last_loser); /* one entry per loser, in seat order */
        last_loser = loser;
        from_payments[p->from] -= p->units;
        from_payments[p->to] += p->units;
    }
    for (int seat = 0; seat < TG_SEATS; seat++) {
        ck_assert_msg(s.net[seat] == want[seat], "seat %d: got %lld, expected %lld", seat, (long long)s.net[seat],
                      (long long)want[seat]);
        ck_assert_int_eq(s.net[seat], from_payments[seat]);
        sum += s.net[seat];
    }
    ck_assert_int_eq(sum, 0);
}

START_TEST(test_every_possible_outcome_settles_as_the_rules_say_and_nets_to_zero)
{
    static const uint8_t ENDING_SETS[] = {0, TG_END_YAO, TG_END_ZUN, TG_END_QUARTET};
    int checked = 0;
    for (int a = 0; a <= 8; a++)
        for (int b = 0; a + b <= 8; b++)
            for (int c = 0; a + b + c <= 8; c++) {
                const int stacks[] = {a, b, c, 8 - a - b - c};
                for (int w = 0; w < TG_SEATS; w++) {
                    if (stacks[w] < 2)
                        continue;
                    for (int banker = 0; banker < TG_SEATS; banker++)
                        for (uint32_t m = 2; m <= 5; m += 3) {
                            tg_options opt = defaults();
                            for (size_t e = 0; e < sizeof ENDING_SETS; e++) {
                                uint8_t endings = ENDING_SETS[e];
                                tg_outcome o = make_outcome(banker, m, stacks, w, endings, -1);
                                check_against_reference(&opt, &o);
                                if (stacks[w] == 8) {
                                    o.endings = endings | TG_END_EIGHT;
                                    check_against_reference(&opt, &o);
                                    o.endings = endings | TG_END_SEVEN;
                                    check_against_reference(&opt, &o);
                                }
                                checked++;
                            }
                            for (int cap = 0; cap < TG_SEATS; cap++) {
                                if (cap == w || stacks[cap] < 1)
                                    continue;
                                tg_outcome o = make_outcome(banker, m, stacks, w, TG_END_QIN, cap);
                                for (int mode = 0; mode < 4; mode++) {
                                    opt.qin_pays_all = mode & 1;
                                    opt.qin_multiplier = (mode & 2) ? 2 : 4;
                                    check_against_reference(&opt, &o);
                                }
                                checked++;
                            }
                        }
                }
            }
    ck_assert_int_gt(checked, 1000);
}
END_TEST

static Suite *settle_suite(void)
{
    Suite *s = suite_create("tg_settle");
    TCase *examples = tcase_create("worked examples");
    tcase_add_test(examples, test_example_a_east_banker_north_wins_with_three_stacks);
    tcase_add_test(examples, test_example_b_south_with_five_stacks_is_refunded_one);
    tcase_add_test(examples, test_example_c_winning_banker_multiplies_every_loser);
    tcase_add_test(examples, test_example_d_losing_banker_pays_times_m);
    tcase_add_test(examples, test_example_e_eight_stacks_by_a_non_banker);
    tcase_add_test(examples, test_example_f_losing_banker_refund_is_not_multiplied);
    tcase_add_test(examples, test_example_g_captured_leader_pays_for_all);
    tcase_add_test(examples, test_example_g_without_qin_pays_all_each_loser_pays_its_own);
    suite_add_tcase(s, examples);

    TCase *rules = tcase_create("rules");
    tcase_add_test(rules, test_qin_multiplier_two_halves_the_captured_leaders_payment);
    tcase_add_test(rules, test_qin_nets_a_refund_into_the_captured_leaders_sum);
    tcase_add_test(rules, test_qin_losing_banker_refund_stays_unmultiplied_by_m);
    tcase_add_test(rules, test_loser_units_for_zero_to_six_stacks);
    tcase_add_test(rules, test_losing_banker_refund_of_two_is_not_multiplied);
    tcase_add_test(rules, test_refund_is_multiplied_when_the_winner_is_banker);
    tcase_add_test(rules, test_losers_pay_unmultiplied_when_nobody_involved_banks);
    tcase_add_test(rules, test_endings_multiplier_is_the_product_of_the_endings);
    tcase_add_test(rules, test_eight_won_by_supreme_is_times_eight);
    tcase_add_test(rules, test_eight_won_by_a_quartet_is_times_sixteen);
    tcase_add_test(rules, test_ending_multiplier_applies_to_a_refund);
    tcase_add_test(rules, test_ending_multiplier_applies_to_a_losing_bankers_refund_but_m_does_not);
    suite_add_tcase(s, rules);

    TCase *impossible = tcase_create("impossible outcomes");
    tcase_add_test(impossible, test_stacks_must_sum_to_eight);
    tcase_add_test(impossible, test_winner_needs_two_stacks);
    tcase_add_test(impossible, test_eight_and_seven_exclude_each_other);
    tcase_add_test(impossible, test_eight_or_seven_needs_all_eight_stacks);
    tcase_add_test(impossible, test_at_most_one_of_yao_zun_and_quartet);
    tcase_add_test(impossible, test_qin_takes_no_other_ending);
    tcase_add_test(impossible, test_qin_captured_leader_is_a_loser_with_a_stack);
    suite_add_tcase(s, impossible);

    TCase *bank = tcase_create("next bank");
    tcase_add_test(bank, test_fly_rotation_gives_the_bank_to_the_winner);
    tcase_add_test(bank, test_turn_rotation_passes_the_bank_in_play_order);
    suite_add_tcase(s, bank);

    TCase *sweep = tcase_create("every outcome");
    tcase_add_test(sweep, test_every_possible_outcome_settles_as_the_rules_say_and_nets_to_zero);
    suite_add_tcase(s, sweep);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(settle_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
