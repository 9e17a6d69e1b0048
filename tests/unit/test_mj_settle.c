/*
 * Unit tests of mj_settle (rules/tianjin-mahjong.md §5, §6, §7 settle mode): the worked example of
 * §7 payment by payment, 坐庄 and 拉庄 factors, kongs whether or not their owner wins, 金杠, 铲,
 * the wild-discard penalty, the base, the bank and the must-sit flag, and every outcome that
 * cannot arise. Each expected amount is worked out by hand in the comment beside it.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "mj_settle.h"

static mj_outcome outcome(int banker, bool sat, int winner, uint32_t fan)
{
    mj_outcome o;
    memset(&o, 0, sizeof o);
    o.banker = (uint8_t)banker;
    o.sat = sat;
    o.winner = (int8_t)winner;
    o.fan = winner >= 0 ? fan : 0;
    return o;
}

static void add_kong(mj_outcome *o, int seat, mj_kong_kind kind)
{
    o->kongs[o->n_kongs++] = (mj_kong_made){(uint8_t)seat, (uint8_t)kind};
}

static mj_settlement settle(const mj_options *options, const mj_outcome *o)
{
    ck_assert_int_eq(mj_outcome_check(options, o), MJ_OK);
    mj_settlement s;
    mj_settle(options, o, &s);
    int64_t sum = 0;
    for (int seat = 0; seat < MJ_SEATS; seat++)
        sum += s.net[seat];
    ck_assert_int_eq(sum, 0);
    for (int i = 0; i < s.count; i++)
        ck_assert_int_gt(s.payments[i].units, 0);
    return s;
}

static void assert_payment(const mj_settlement *s, int i, int from, int to, int64_t units, mj_payment_why why)
{
    ck_assert_int_lt(i, s->count);
    ck_assert_msg(s->payments[i].from == from && s->payments[i].to == to && s->payments[i].units == units &&
                      s->payments[i].why == why,
                  "payment %d is %d->%d %lld (%d), expected %d->%d %lld (%d)", i, s->payments[i].from,
                  s->payments[i].to, (long long)s->payments[i].units, s->payments[i].why, from, to, (long long)units,
                  why);
}

static void assert_net(const mj_settlement *s, int64_t a, int64_t b, int64_t c, int64_t d)
{
    ck_assert_msg(s->net[0] == a && s->net[1] == b && s->net[2] == c && s->net[3] == d,
                  "net [%lld,%lld,%lld,%lld], expected [%lld,%lld,%lld,%lld]", (long long)s->net[0],
                  (long long)s->net[1], (long long)s->net[2], (long long)s->net[3], (long long)a, (long long)b,
                  (long long)c, (long long)d);
}

START_TEST(test_the_example_of_section_seven_pays_exactly_as_written)
{
    mj_options opt = mj_options_default();
    opt.max_pulls = 2;
    mj_outcome o = outcome(0, true, 2, 6);
    o.pulls[1] = 2;
    o.pulls[3] = 1;
    add_kong(&o, 1, MJ_KONG_EXPOSED);
    add_kong(&o, 2, MJ_KONG_CONCEALED);
    o.wild_discards[o.n_wild_discards++] = 3;
    mj_settlement s = settle(&opt, &o);
    ck_assert_int_eq(s.count, 9);
    assert_payment(&s, 0, 0, 2, 12, MJ_PAY_WIN);            /* 6 × 2 (sat); seat 2 did not pull */
    assert_payment(&s, 1, 1, 2, 6, MJ_PAY_WIN);             /* between non-bankers: as written */
    assert_payment(&s, 2, 3, 2, 6, MJ_PAY_WIN);
    assert_payment(&s, 3, 0, 1, 8, MJ_PAY_KONG);            /* 1 × 2 (sat) × 4 (two pulls of seat 1) */
    assert_payment(&s, 4, 2, 1, 1, MJ_PAY_KONG);
    assert_payment(&s, 5, 3, 1, 1, MJ_PAY_KONG);
    assert_payment(&s, 6, 0, 2, 4, MJ_PAY_CONCEALED_KONG);  /* 2 × 2 (sat) */
    assert_payment(&s, 7, 1, 2, 2, MJ_PAY_CONCEALED_KONG);
    assert_payment(&s, 8, 3, 2, 2, MJ_PAY_CONCEALED_KONG);
    assert_net(&s, -24, 2, 31, -9);
    ck_assert_int_eq(s.next_banker, 1);
    ck_assert(!s.next_must_sit);
}
END_TEST

START_TEST(test_a_win_without_sitting_costs_each_other_seat_the_fan)
{
    mj_options opt = mj_options_default();
    mj_outcome o = outcome(0, false, 3, 4);
    mj_settlement s = settle(&opt, &o);
    ck_assert_int_eq(s.count, 3);
    assert_payment(&s, 0, 0, 3, 4, MJ_PAY_WIN);
    assert_payment(&s, 1, 1, 3, 4, MJ_PAY_WIN);
    assert_payment(&s, 2, 2, 3, 4, MJ_PAY_WIN);
    assert_net(&s, -4, -4, -4, 12);
}
END_TEST

START_TEST(test_a_sitting_banker_who_wins_collects_double)
{
    mj_options opt = mj_options_default();
    mj_outcome o = outcome(1, true, 1, 8);
    mj_settlement s = settle(&opt, &o);
    assert_net(&s, -16, 48, -16, -16);
    ck_assert_int_eq(s.next_banker, 1);
    ck_assert(s.next_must_sit); /* sat and keeps the bank: must sit again */
}
END_TEST

START_TEST(test_a_puller_pays_a_winning_banker_four_times_and_the_others_twice)
{ /* the seed's example: banker sat, seat 2 pulled once */
    mj_options opt = mj_options_default();
    mj_outcome o = outcome(0, true, 0, 2);
    o.pulls[2] = 1;
    mj_settlement s = settle(&opt, &o);
    assert_payment(&s, 0, 1, 0, 4, MJ_PAY_WIN);
    assert_payment(&s, 1, 2, 0, 8, MJ_PAY_WIN);
    assert_payment(&s, 2, 3, 0, 4, MJ_PAY_WIN);
}
END_TEST

START_TEST(test_two_pulls_multiply_by_four_on_top_of_sitting)
{
    mj_options opt = mj_options_default();
    opt.max_pulls = 2;
    mj_outcome o = outcome(2, true, 3, 2);
    o.pulls[3] = 2;
    mj_settlement s = settle(&opt, &o);
    assert_payment(&s, 2, 2, 3, 16, MJ_PAY_WIN); /* 2 × 2 × 4 */
    assert_net(&s, -2, -2, -16, 20);
    ck_assert_int_eq(s.next_banker, 3);
}
END_TEST

START_TEST(test_kongs_pay_whether_or_not_their_owner_wins)
{
    mj_options opt = mj_options_default();
    mj_outcome o = outcome(0, false, 1, 2);
    add_kong(&o, 3, MJ_KONG_CONCEALED);
    add_kong(&o, 2, MJ_KONG_EXPOSED);
    mj_settlement s = settle(&opt, &o);
    ck_assert_int_eq(s.count, 9);
    assert_payment(&s, 3, 0, 3, 2, MJ_PAY_CONCEALED_KONG); /* kongs in the order given */
    assert_payment(&s, 6, 0, 2, 1, MJ_PAY_KONG);
    assert_net(&s, -2 - 2 - 1, 6 - 2 - 1, -2 - 2 + 3, -2 + 6 - 1);
}
END_TEST

START_TEST(test_a_gold_kong_pays_gold_kong_fan)
{
    mj_options opt = mj_options_default();
    mj_outcome o = outcome(0, false, -1, 0);
    add_kong(&o, 0, MJ_KONG_GOLD);
    mj_settlement s = settle(&opt, &o);
    assert_net(&s, 24, -8, -8, -8);
    ck_assert(s.payments[0].why == MJ_PAY_GOLD_KONG);
    opt.gold_kong_fan = 4;
    s = settle(&opt, &o);
    assert_net(&s, 12, -4, -4, -4);
}
END_TEST

START_TEST(test_kongs_pay_in_a_drawn_hand)
{
    mj_options opt = mj_options_default();
    mj_outcome o = outcome(0, false, -1, 0);
    add_kong(&o, 2, MJ_KONG_EXPOSED);
    mj_settlement s = settle(&opt, &o);
    assert_net(&s, -1, -1, 3, -1);
}
END_TEST

START_TEST(test_gua_da_feng_kongs_pay_nothing_in_a_drawn_hand)
{
    mj_options opt = mj_options_default();
    opt.gua_da_feng = true;
    mj_outcome o = outcome(0, false, -1, 0);
    add_kong(&o, 2, MJ_KONG_CONCEALED);
    mj_settlement s = settle(&opt, &o);
    ck_assert_int_eq(s.count, 0);
    assert_net(&s, 0, 0, 0, 0);
    ck_assert_int_eq(s.next_banker, 1); /* the kong still passes the bank */
    o = outcome(0, false, 1, 2); /* with a winner they pay */
    add_kong(&o, 2, MJ_KONG_CONCEALED);
    s = settle(&opt, &o);
    ck_assert_int_eq(s.count, 6);
}
END_TEST

START_TEST(test_chan_makes_the_banker_pay_each_other_seat_one_fan)
{
    mj_options opt = mj_options_default();
    opt.chan = true;
    mj_outcome o = outcome(1, true, -1, 0);
    o.pulls[3] = 1;
    o.chan = true;
    mj_settlement s = settle(&opt, &o);
    ck_assert_int_eq(s.count, 3);
    assert_payment(&s, 0, 1, 0, 2, MJ_PAY_CHAN);
    assert_payment(&s, 1, 1, 2, 2, MJ_PAY_CHAN);
    assert_payment(&s, 2, 1, 3, 4, MJ_PAY_CHAN); /* 1 × 2 (sat) × 2 (pull) */
    assert_net(&s, 2, -8, 2, 4);
}
END_TEST

START_TEST(test_a_wild_discard_costs_nothing_without_the_option)
{
    mj_options opt = mj_options_default();
    mj_outcome o = outcome(0, false, -1, 0);
    o.wild_discards[o.n_wild_discards++] = 2;
    mj_settlement s = settle(&opt, &o);
    ck_assert_int_eq(s.count, 0);
}
END_TEST

START_TEST(test_the_wild_discard_penalty_pays_each_other_seat_one_fan_in_the_order_given)
{
    mj_options opt = mj_options_default();
    opt.wild_discard_penalty = true;
    mj_outcome o = outcome(0, true, 1, 2);
    o.wild_discards[o.n_wild_discards++] = 3;
    o.wild_discards[o.n_wild_discards++] = 0;
    mj_settlement s = settle(&opt, &o);
    ck_assert_int_eq(s.count, 9);
    assert_payment(&s, 3, 3, 0, 2, MJ_PAY_WILD_DISCARD); /* with the sitting banker: × 2 */
    assert_payment(&s, 4, 3, 1, 1, MJ_PAY_WILD_DISCARD);
    assert_payment(&s, 5, 3, 2, 1, MJ_PAY_WILD_DISCARD);
    assert_payment(&s, 6, 0, 1, 2, MJ_PAY_WILD_DISCARD);
    assert_payment(&s, 8, 0, 3, 2, MJ_PAY_WILD_DISCARD);
}
END_TEST

START_TEST(test_payments_come_win_then_kongs_then_chan_then_wild_discards)
{
    mj_options opt = mj_options_default();
    opt.chan = true;
    opt.wild_discard_penalty = true;
    mj_outcome o = outcome(0, false, 2, 2);
    add_kong(&o, 1, MJ_KONG_EXPOSED);
    o.chan = true;
    o.wild_discards[o.n_wild_discards++] = 3;
    mj_settlement s = settle(&opt, &o);
    ck_assert_int_eq(s.count, 12);
    static const mj_payment_why ORDER[] = {MJ_PAY_WIN, MJ_PAY_KONG, MJ_PAY_CHAN, MJ_PAY_WILD_DISCARD};
    for (int i = 0; i < 12; i++)
        ck_assert_int_eq(s.payments[i].why, ORDER[i / 3]);
}
END_TEST

START_TEST(test_the_base_multiplies_every_amount)
{
    mj_options opt = mj_options_default();
    opt.base = 5;
    mj_outcome o = outcome(0, true, 2, 6);
    add_kong(&o, 1, MJ_KONG_EXPOSED);
    mj_settlement s = settle(&opt, &o);
    assert_payment(&s, 0, 0, 2, 60, MJ_PAY_WIN);
    assert_payment(&s, 3, 0, 1, 10, MJ_PAY_KONG);
}
END_TEST

START_TEST(test_the_largest_amounts_do_not_overflow)
{
    mj_options opt = mj_options_default();
    opt.base = MJ_BASE_MAX;
    opt.max_pulls = 2;
    mj_outcome o = outcome(0, true, 0, MJ_MAX_FAN);
    o.pulls[1] = o.pulls[2] = o.pulls[3] = 2;
    mj_settlement s = settle(&opt, &o);
    ck_assert_int_eq(s.net[0], 3 * 8 * (int64_t)MJ_MAX_FAN * MJ_BASE_MAX);
}
END_TEST

START_TEST(test_the_banker_keeps_the_bank_after_winning_and_it_passes_after_another_wins)
{
    mj_options opt = mj_options_default();
    mj_outcome o = outcome(3, false, 3, 2);
    ck_assert_int_eq(settle(&opt, &o).next_banker, 3);
    o = outcome(3, false, 1, 2);
    ck_assert_int_eq(settle(&opt, &o).next_banker, 0); /* the next seat, not the winner */
}
END_TEST

START_TEST(test_a_drawn_hand_keeps_the_bank_unless_only_others_made_kongs)
{
    mj_options opt = mj_options_default();
    mj_outcome o = outcome(2, false, -1, 0);
    ck_assert_int_eq(settle(&opt, &o).next_banker, 2);
    add_kong(&o, 0, MJ_KONG_CONCEALED);
    ck_assert_int_eq(settle(&opt, &o).next_banker, 3);
    add_kong(&o, 2, MJ_KONG_EXPOSED);
    ck_assert_int_eq(settle(&opt, &o).next_banker, 2);
    o = outcome(2, false, -1, 0);
    add_kong(&o, 2, MJ_KONG_GOLD);
    ck_assert_int_eq(settle(&opt, &o).next_banker, 2);
}
END_TEST

START_TEST(test_must_sit_is_true_with_the_option_else_when_a_sitting_banker_keeps_the_bank)
{
    mj_options opt = mj_options_default();
    mj_outcome o = outcome(0, true, 1, 2);
    ck_assert(!settle(&opt, &o).next_must_sit); /* the bank passes */
    o = outcome(0, false, 0, 2);
    ck_assert(!settle(&opt, &o).next_must_sit); /* kept, but did not sit */
    o = outcome(0, true, -1, 0);
    ck_assert(settle(&opt, &o).next_must_sit);
    opt.must_sit = true;
    o = outcome(0, true, 1, 2);
    ck_assert(settle(&opt, &o).next_must_sit);
}
END_TEST

START_TEST(test_outcomes_that_cannot_arise_are_refused_in_order)
{
    mj_options opt = mj_options_default();
    mj_outcome o = outcome(0, true, 1, 2);
    o.pulls[0] = 1;
    ck_assert_int_eq(mj_outcome_check(&opt, &o), MJ_ERR_BANKER_PULLED);
    o = outcome(0, false, 1, 2);
    o.pulls[2] = 1;
    ck_assert_int_eq(mj_outcome_check(&opt, &o), MJ_ERR_PULL_WITHOUT_SIT);
    opt.must_sit = true;
    o = outcome(0, false, 1, 2);
    ck_assert_int_eq(mj_outcome_check(&opt, &o), MJ_ERR_MUST_SIT);
    opt = mj_options_default();
    o.chan = true;
    ck_assert_int_eq(mj_outcome_check(&opt, &o), MJ_ERR_CHAN_OFF);
    o.chan = false;
    add_kong(&o, 2, MJ_KONG_GOLD);
    opt.gold_kong_fan = 0;
    ck_assert_int_eq(mj_outcome_check(&opt, &o), MJ_ERR_GOLD_KONG_BARRED);
    opt = mj_options_default();
    for (int i = 0; i < 4; i++)
        add_kong(&o, 2, MJ_KONG_EXPOSED);
    ck_assert_int_eq(mj_outcome_check(&opt, &o), MJ_ERR_TOO_MANY_KONGS);
    o = outcome(0, false, 1, 2);
    o.wild_discards[o.n_wild_discards++] = 1;
    ck_assert_int_eq(mj_outcome_check(&opt, &o), MJ_ERR_WINNER_DISCARDED_WILD);
    /* the first that applies */
    o = outcome(0, false, 1, 2);
    o.pulls[0] = 1;
    o.chan = true;
    ck_assert_int_eq(mj_outcome_check(&opt, &o), MJ_ERR_BANKER_PULLED);
}
END_TEST

START_TEST(test_values_out_of_range_are_bad_input)
{
    mj_options opt = mj_options_default();
    mj_outcome o = outcome(0, true, 1, 1);
    ck_assert_int_eq(mj_outcome_check(&opt, &o), MJ_ERR_BAD_INPUT); /* fan under 2 */
    o = outcome(0, true, -1, 0);
    o.fan = 4;
    ck_assert_int_eq(mj_outcome_check(&opt, &o), MJ_ERR_BAD_INPUT); /* fan without a winner */
    o = outcome(0, true, 1, 2);
    o.pulls[1] = 2;
    ck_assert_int_eq(mj_outcome_check(&opt, &o), MJ_ERR_BAD_INPUT); /* over max_pulls */
    o = outcome(0, true, 1, 2);
    o.wild_discards[0] = o.wild_discards[1] = 2;
    o.n_wild_discards = 2;
    ck_assert_int_eq(mj_outcome_check(&opt, &o), MJ_ERR_BAD_INPUT); /* a seat twice */
}
END_TEST

static Suite *settle_suite(void)
{
    Suite *s = suite_create("mj_settle");
    TCase *pay = tcase_create("payments");
    tcase_add_test(pay, test_the_example_of_section_seven_pays_exactly_as_written);
    tcase_add_test(pay, test_a_win_without_sitting_costs_each_other_seat_the_fan);
    tcase_add_test(pay, test_a_sitting_banker_who_wins_collects_double);
    tcase_add_test(pay, test_a_puller_pays_a_winning_banker_four_times_and_the_others_twice);
    tcase_add_test(pay, test_two_pulls_multiply_by_four_on_top_of_sitting);
    tcase_add_test(pay, test_kongs_pay_whether_or_not_their_owner_wins);
    tcase_add_test(pay, test_a_gold_kong_pays_gold_kong_fan);
    tcase_add_test(pay, test_kongs_pay_in_a_drawn_hand);
    tcase_add_test(pay, test_gua_da_feng_kongs_pay_nothing_in_a_drawn_hand);
    tcase_add_test(pay, test_chan_makes_the_banker_pay_each_other_seat_one_fan);
    tcase_add_test(pay, test_a_wild_discard_costs_nothing_without_the_option);
    tcase_add_test(pay, test_the_wild_discard_penalty_pays_each_other_seat_one_fan_in_the_order_given);
    tcase_add_test(pay, test_payments_come_win_then_kongs_then_chan_then_wild_discards);
    tcase_add_test(pay, test_the_base_multiplies_every_amount);
    tcase_add_test(pay, test_the_largest_amounts_do_not_overflow);
    suite_add_tcase(s, pay);
    TCase *bank = tcase_create("bank");
    tcase_add_test(bank, test_the_banker_keeps_the_bank_after_winning_and_it_passes_after_another_wins);
    tcase_add_test(bank, test_a_drawn_hand_keeps_the_bank_unless_only_others_made_kongs);
    tcase_add_test(bank, test_must_sit_is_true_with_the_option_else_when_a_sitting_banker_keeps_the_bank);
    suite_add_tcase(s, bank);
    TCase *check = tcase_create("check");
    tcase_add_test(check, test_outcomes_that_cannot_arise_are_refused_in_order);
    tcase_add_test(check, test_values_out_of_range_are_bad_input);
    suite_add_tcase(s, check);
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
