/*
 * test_tg_rules_flow — the flow of a Tien Gow hand (engine/tg_hand.h) against rules/tiengow.md §3:
 * who leads, the order of play, stacks won by tricks, the final trick and who may play it,
 * 食夾棍, the next banker and multiplier under both rotations, the first banker's dice roll,
 * the deal, and that a hand is rebuilt bit for bit from its seed and actions.
 *
 * Hands are dealt by hand and written as tile faces; actions as "S P tiles" (seat S plays) or
 * "S D tiles" (seat S discards). Every hand-built deal is checked to hold no natural hand,
 * counting red pips by the rule of §1. Expected stacks and winners are worked out from the rules.
 */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "tg_hand.h"
#include "tg_test_util.h"

/* ---- writing tiles, deals and actions as text ---- */

/* Starts a hand from four hands of 8 tiles; none may be a natural hand. */
static void start_with(tg_state *st, const char *const hands[TG_SEATS], int banker, uint32_t multiplier,
                       tg_rotation rotation)
{
    uint8_t deal[TG_SEATS][TG_HAND_TILES];
    tgt_parse_deal(hands, deal);
    tgt_assert_no_natural(deal);
    tg_options options = tg_options_default();
    options.rotation = (uint8_t)rotation;
    ck_assert_int_eq(tgt_start_deal(st, &options, banker, multiplier, deal), TG_OK);
    ck_assert(!tg_is_over(st));
}

static void start(tg_state *st, const char *const hands[TG_SEATS], int banker)
{
    start_with(st, hands, banker, 2, TG_ROTATION_FLY);
}

static void expect(tg_state *st, const char *text, tg_status want)
{
    tg_action a = tgt_action(text);
    tg_status got = tg_apply_action(st, &a);
    ck_assert_msg(got == want, "\"%s\": %s, expected %s", text, tg_status_name(got), tg_status_name(want));
}

static void play(tg_state *st, const char *const *script, int n)
{
    for (int i = 0; i < n; i++)
        expect(st, script[i], TG_OK);
}

#define COUNT(array) ((int)(sizeof(array) / sizeof((array)[0])))

static void assert_stacks(const tg_state *st, int s0, int s1, int s2, int s3)
{
    const int want[TG_SEATS] = {s0, s1, s2, s3};
    for (int s = 0; s < TG_SEATS; s++)
        ck_assert_msg(st->stacks[s] == want[s], "seat %d has %d stacks, expected %d", s, st->stacks[s], want[s]);
}

/* ---- deals ---- */

/* Deal A: seat 0 holds the two 天, both 9s, 至尊 and two 梅 (red pips 21, 9, 22, 12). */
static const char *const DEAL_A[TG_SEATS] = {
    "6-6 6-6 3-6 4-5 1-2 2-4 5-5 5-5",
    "1-1 1-1 2-6 3-5 3-3 3-3 1-4 2-3",
    "4-4 4-4 2-5 3-4 2-2 2-2 1-3 1-3",
    "5-6 5-6 4-6 4-6 1-6 1-6 1-5 1-5",
};

/*
 * Deal D and a hand of four pairs whose final pair is won by seat 3 with no stack before it
 * (red pips 11, 30, 13, 10). Seat 0 takes the first two tricks, seat 2 the third.
 */
static const char *const DEAL_D[TG_SEATS] = {
    "6-6 3-6 1-1 2-6 1-6 1-6 1-3 2-3",
    "6-6 4-5 1-1 3-5 4-4 3-4 1-3 1-4",
    "4-6 4-6 3-3 3-3 2-2 2-2 2-4 1-2",
    "5-6 5-6 5-5 5-5 4-4 2-5 1-5 1-5",
};
static const char *const PAIRS_D[] = {
    "0 P 6-6 3-6", "1 D 1-3 1-4", "2 D 2-4 1-2", "3 D 1-5 1-5", /* seat 0: 2 */
    "0 P 1-1 2-6", "1 D 3-5 3-4", "2 D 2-2 2-2", "3 D 4-4 2-5", /* seat 0: 4 */
    "0 P 1-6 1-6", "1 D 1-1 4-5", "2 P 4-6 4-6", "3 D 5-6 5-6", /* seat 2: 2 */
};
static const char *const FINAL_PAIR_D[] = {
    "2 P 3-3 3-3", "3 P 5-5 5-5", "0 D 1-3 2-3", "1 D 6-6 4-4", /* seat 3: 0 + 2 */
};

/*
 * Deal E (red pips 21, 2, 19, 22) and a hand of two pairs then four singles; before the final
 * single trick seat 0 has 6 stacks, seat 1 one, seats 2 and 3 none.
 */
static const char *const DEAL_E[TG_SEATS] = {
    "1-1 1-1 4-6 4-6 5-6 5-5 4-4 1-5",
    "1-2 2-3 3-5 2-6 3-3 2-2 5-6 1-6",
    "4-4 5-5 3-3 2-2 1-6 1-5 2-4 1-4",
    "6-6 6-6 1-3 1-3 3-6 4-5 2-5 3-4",
};
static const char *const TO_FINAL_E[] = {
    "0 P 1-1 1-1", "1 D 1-2 2-3", "2 D 2-4 1-4", "3 D 3-6 4-5", /* seat 0: 2 */
    "0 P 4-6 4-6", "1 D 3-5 2-6", "2 D 3-3 2-2", "3 D 2-5 3-4", /* seat 0: 4 */
    "0 P 5-6",     "1 P 3-3",     "2 D 1-5",     "3 D 1-3",     /* seat 1: 1 */
    "1 P 2-2",     "2 D 1-6",     "3 D 1-3",     "0 P 5-5",     /* seat 0: 5 */
    "0 P 4-4",     "1 D 5-6",     "2 D 5-5",     "3 D 6-6",     /* seat 0: 6 */
};

/* ---- leading and the order of play ---- */

START_TEST(test_the_banker_leads_the_first_trick)
{
    for (int banker = 0; banker < TG_SEATS; banker++) {
        tg_state st;
        start(&st, DEAL_A, banker);
        ck_assert_int_eq(st.to_act, banker);
        ck_assert_ptr_null(tg_open_trick(&st));
        tg_action legal[TG_MAX_ACTIONS];
        ck_assert_int_gt(tg_legal_actions(&st, banker, legal, TG_MAX_ACTIONS), 0);
        for (int other = 0; other < TG_SEATS; other++)
            if (other != banker)
                ck_assert_int_eq(tg_legal_actions(&st, other, legal, TG_MAX_ACTIONS), 0);
    }
}
END_TEST

START_TEST(test_play_passes_to_the_next_seat_and_wraps_round)
{
    tg_state st;
    start(&st, DEAL_A, 2);
    expect(&st, "2 P 2-2", TG_OK);
    ck_assert_int_eq(st.to_act, 3);
    expect(&st, "3 D 1-5", TG_OK);
    ck_assert_int_eq(st.to_act, 0);
    expect(&st, "0 P 5-5", TG_OK); /* 梅 beats 板凳 */
    ck_assert_int_eq(st.to_act, 1);
    const tg_trick *t = tg_open_trick(&st);
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(t->leader, 2);
    ck_assert_int_eq(t->count, 3);
    ck_assert_int_eq(t->winner, 0);
    expect(&st, "1 P 1-1", TG_OK); /* 地 beats 梅 */
    ck_assert_ptr_null(tg_open_trick(&st));
    ck_assert_int_eq(st.to_act, 1);
    assert_stacks(&st, 0, 1, 0, 0);
}
END_TEST

START_TEST(test_the_winner_of_a_trick_leads_the_next)
{
    tg_state st;
    start(&st, DEAL_A, 2);
    expect(&st, "2 P 2-2", TG_OK);
    expect(&st, "3 D 1-5", TG_OK);
    expect(&st, "0 P 5-5", TG_OK);
    expect(&st, "1 D 1-4", TG_OK); /* seat 0's 梅 stands */
    ck_assert_int_eq(st.to_act, 0);
    expect(&st, "1 P 1-1", TG_ERR_NOT_YOUR_TURN);
    expect(&st, "2 P 2-2", TG_ERR_NOT_YOUR_TURN);
    expect(&st, "0 P 6-6", TG_OK);
    ck_assert_int_eq(tg_open_trick(&st)->leader, 0);
    ck_assert_int_eq(st.to_act, 1);
}
END_TEST

START_TEST(test_a_trick_of_n_tiles_gives_its_winner_n_stacks)
{
    static const char *const leads[4] = {"0 P 6-6", "0 P 6-6 6-6", "0 P 6-6 6-6 3-6", "0 P 6-6 6-6 3-6 4-5"};
    static const char *const discards[4][3] = {
        {"1 D 1-4", "2 D 2-2", "3 D 1-5"},
        {"1 D 1-4 2-3", "2 D 2-2 2-2", "3 D 1-5 1-5"},
        {"1 D 1-4 2-3 3-3", "2 D 2-2 2-2 1-3", "3 D 1-5 1-5 1-6"},
        {"1 D 1-4 2-3 3-3 3-3", "2 D 2-2 2-2 1-3 1-3", "3 D 1-5 1-5 1-6 1-6"},
    };
    for (int n = 1; n <= 4; n++) {
        tg_state st;
        start(&st, DEAL_A, 0);
        expect(&st, leads[n - 1], TG_OK);
        for (int i = 0; i < 3; i++)
            expect(&st, discards[n - 1][i], TG_OK);
        assert_stacks(&st, n, 0, 0, 0);
        for (int s = 0; s < TG_SEATS; s++)
            ck_assert_int_eq(st.held[s], TG_HAND_TILES - n);
    }
}
END_TEST

START_TEST(test_a_follower_who_wins_a_pair_trick_takes_two_stacks)
{
    tg_state st;
    start(&st, DEAL_A, 3);
    expect(&st, "3 P 1-5 1-5", TG_OK);
    expect(&st, "0 P 5-5 5-5", TG_OK);
    expect(&st, "1 P 1-1 1-1", TG_OK);
    expect(&st, "2 D 2-2 2-2", TG_OK);
    assert_stacks(&st, 0, 2, 0, 0);
    ck_assert_int_eq(st.to_act, 1);
}
END_TEST

START_TEST(test_the_stacks_of_a_whole_hand_add_up_to_eight)
{
    tg_state st;
    start(&st, DEAL_E, 0);
    play(&st, TO_FINAL_E, COUNT(TO_FINAL_E));
    assert_stacks(&st, 6, 1, 0, 0);
    expect(&st, "0 P 1-5", TG_OK);
    expect(&st, "1 P 1-6", TG_OK);
    expect(&st, "2 D 4-4", TG_OK);
    expect(&st, "3 D 6-6", TG_OK);
    ck_assert(tg_is_over(&st));
    assert_stacks(&st, 6, 2, 0, 0);
    ck_assert_int_eq(st.result.winner, 1);
    int total = 0;
    for (int s = 0; s < TG_SEATS; s++) {
        total += st.result.stacks[s];
        ck_assert_int_eq(st.held[s], 0);
    }
    ck_assert_int_eq(total, 8);
}
END_TEST

/* ---- the final trick ---- */

START_TEST(test_only_the_trick_that_empties_every_hand_is_final)
{
    tg_state st;
    start(&st, DEAL_E, 0);
    /* The leads are actions 0, 4, 8, 12, 16 of the script: none of them empties a hand. */
    for (int i = 0; i < COUNT(TO_FINAL_E); i++) {
        expect(&st, TO_FINAL_E[i], TG_OK);
        if (i % 4 == 0)
            ck_assert_msg(!tg_open_trick(&st)->final, "trick %d is not the last", i / 4 + 1);
    }
    expect(&st, "0 P 1-5", TG_OK);
    ck_assert(tg_open_trick(&st)->final);
    ck_assert(!tg_is_over(&st));

    start(&st, DEAL_D, 0);
    for (int i = 0; i < COUNT(PAIRS_D); i++) {
        expect(&st, PAIRS_D[i], TG_OK);
        if (i % 4 == 0)
            ck_assert(!tg_open_trick(&st)->final);
    }
    expect(&st, FINAL_PAIR_D[0], TG_OK);
    ck_assert(tg_open_trick(&st)->final);
}
END_TEST

START_TEST(test_a_seat_without_a_stack_may_not_play_a_single_final_trick)
{
    tg_state st;
    start(&st, DEAL_E, 0);
    play(&st, TO_FINAL_E, COUNT(TO_FINAL_E));
    expect(&st, "0 P 1-5", TG_OK);
    expect(&st, "1 D 1-6", TG_OK);
    expect(&st, "2 P 4-4", TG_ERR_BARRED_FROM_FINAL); /* 人 beats 銅錘六, but 0 + 1 < 2 */
    expect(&st, "2 D 4-4", TG_OK);
    expect(&st, "3 P 6-6", TG_ERR_BARRED_FROM_FINAL);
    expect(&st, "3 D 6-6", TG_OK);
    ck_assert(tg_is_over(&st));
    ck_assert_int_eq(st.result.winner, 0);
    assert_stacks(&st, 7, 1, 0, 0);
}
END_TEST

START_TEST(test_a_seat_with_one_stack_may_win_a_single_final_trick)
{
    tg_state st;
    start(&st, DEAL_E, 0);
    play(&st, TO_FINAL_E, COUNT(TO_FINAL_E));
    ck_assert_int_eq(st.stacks[1], 1);
    expect(&st, "0 P 1-5", TG_OK);
    expect(&st, "1 P 1-6", TG_OK); /* 1 + 1 = 2 */
    expect(&st, "2 D 4-4", TG_OK);
    expect(&st, "3 D 6-6", TG_OK);
    ck_assert(tg_is_over(&st));
    ck_assert_int_eq(st.result.winner, 1);
    ck_assert_int_eq(st.result.stacks[1], 2);
}
END_TEST

START_TEST(test_a_seat_without_a_stack_may_win_a_final_pair)
{
    tg_state st;
    start(&st, DEAL_D, 0);
    play(&st, PAIRS_D, COUNT(PAIRS_D));
    assert_stacks(&st, 4, 0, 2, 0);
    ck_assert_int_eq(st.to_act, 2);
    play(&st, FINAL_PAIR_D, COUNT(FINAL_PAIR_D)); /* 0 + 2 = 2: seat 3 may play and wins */
    ck_assert(tg_is_over(&st));
    ck_assert_int_eq(st.result.winner, 3);
    assert_stacks(&st, 4, 0, 2, 2);
}
END_TEST

START_TEST(test_final_trick_eligibility_is_stacks_plus_tiles_at_least_two)
{
    ck_assert(tg_barred_from_final(0, 1));
    ck_assert(!tg_barred_from_final(0, 2));
    ck_assert(!tg_barred_from_final(0, 3));
    ck_assert(!tg_barred_from_final(0, 4));
    ck_assert(!tg_barred_from_final(1, 1));
    ck_assert(!tg_barred_from_final(1, 2));
    ck_assert(!tg_barred_from_final(6, 1));
}
END_TEST

START_TEST(test_eligibility_applies_to_the_final_trick_only)
{
    /* From a seat's own knowledge: a led 銅錘六, and the seat holds 人 with no stack. */
    tg_options options = tg_options_default();
    uint8_t hand[TG_KINDS] = {0};
    uint8_t man = (uint8_t)tg_tile_parse("4-4"), hammer = (uint8_t)tg_tile_parse("1-5");
    hand[man] = 1;
    tg_trick trick;
    memset(&trick, 0, sizeof trick);
    trick.leader = 0;
    trick.n = 1;
    trick.count = 1;
    trick.winner = 0;
    trick.best = tg_classify(&hammer, 1);
    trick.actions[0] = tg_action_make(0, TG_PLAY, &hammer, 1);
    tg_action beat = tg_action_make(1, TG_PLAY, &man, 1), fold = tg_action_make(1, TG_DISCARD, &man, 1);

    trick.final = false;
    ck_assert_int_eq(tg_check_for_seat(&options, hand, 0, &trick, &beat), TG_OK);
    trick.final = true;
    ck_assert_int_eq(tg_check_for_seat(&options, hand, 0, &trick, &beat), TG_ERR_BARRED_FROM_FINAL);
    ck_assert_int_eq(tg_check_for_seat(&options, hand, 0, &trick, &fold), TG_OK);
    ck_assert_int_eq(tg_check_for_seat(&options, hand, 1, &trick, &beat), TG_OK);
}
END_TEST

/* ---- splitting and 食夾棍 ---- */

START_TEST(test_the_leader_may_split_a_combination)
{
    tg_state st;
    start(&st, DEAL_A, 0);
    expect(&st, "0 P 6-6", TG_OK); /* one 天 out of the quartet */
    expect(&st, "1 D 1-4", TG_OK);
    expect(&st, "2 D 2-2", TG_OK);
    expect(&st, "3 D 1-5", TG_OK);
    expect(&st, "0 P 3-6", TG_OK); /* one tile of the military pair of 9s */
    expect(&st, "1 D 2-3", TG_OK);
    expect(&st, "2 D 2-2", TG_OK);
    expect(&st, "3 D 1-5", TG_OK);
    expect(&st, "0 P 1-2", TG_OK); /* 丁三 out of 至尊, as a military single */
    ck_assert_int_eq(tg_open_trick(&st)->best.type, TG_SINGLE_MILITARY);
    expect(&st, "1 D 3-3", TG_OK);
    expect(&st, "2 D 1-3", TG_OK);
    expect(&st, "3 D 1-6", TG_OK);
    expect(&st, "0 P 6-6 4-5", TG_OK); /* what is left of 天天99 still pairs */
    ck_assert_int_eq(tg_open_trick(&st)->best.type, TG_PAIR_MIXED);
}
END_TEST

START_TEST(test_an_equal_tile_leaves_the_earlier_one_standing)
{
    tg_state st;
    start(&st, DEAL_D, 3);
    expect(&st, "3 P 2-5", TG_OK);                /* a military 7 */
    expect(&st, "0 P 3-6", TG_OK);                /* a 9 beats it */
    expect(&st, "1 P 4-5", TG_ERR_DOES_NOT_BEAT); /* the other 9 only ties */
    expect(&st, "1 D 1-4", TG_OK);
    expect(&st, "2 D 1-2", TG_OK);
    ck_assert_int_eq(st.to_act, 0);
    assert_stacks(&st, 1, 0, 0, 0);
}
END_TEST

START_TEST(test_heaven_nine_stands_against_the_other_heaven_nine)
{
    tg_state st;
    start(&st, DEAL_D, 0);
    expect(&st, "0 P 6-6 3-6", TG_OK);
    expect(&st, "1 P 6-6 4-5", TG_ERR_DOES_NOT_BEAT);
    expect(&st, "1 D 6-6 4-5", TG_OK);
    expect(&st, "2 D 2-4 1-2", TG_OK);
    expect(&st, "3 D 1-5 1-5", TG_OK);
    assert_stacks(&st, 2, 0, 0, 0);
    ck_assert_int_eq(st.to_act, 0);
}
END_TEST

/* ---- the next banker ---- */

/* Plays deal D's four pairs with seat 0 banking: seat 3 wins; returns the result. */
static tg_result pairs_won_by_seat_three(uint32_t multiplier, tg_rotation rotation)
{
    tg_state st;
    start_with(&st, DEAL_D, 0, multiplier, rotation);
    play(&st, PAIRS_D, COUNT(PAIRS_D));
    play(&st, FINAL_PAIR_D, COUNT(FINAL_PAIR_D));
    ck_assert(tg_is_over(&st));
    ck_assert_int_eq(st.result.winner, 3);
    return st.result;
}

START_TEST(test_fly_a_non_banker_winner_banks_next_with_multiplier_two)
{
    tg_result r = pairs_won_by_seat_three(4, TG_ROTATION_FLY);
    ck_assert_int_eq(r.next_banker, 3);
    ck_assert_uint_eq(r.next_multiplier, 2);
}
END_TEST

START_TEST(test_turn_a_non_banker_winner_passes_the_bank_to_the_next_seat)
{
    tg_result r = pairs_won_by_seat_three(4, TG_ROTATION_TURN);
    ck_assert_int_eq(r.next_banker, 1);
    ck_assert_uint_eq(r.next_multiplier, 2);
}
END_TEST

/* Deal E with seat 1 folding on the final trick: the banker (seat 0) wins with 7 stacks. */
static tg_result banker_wins_deal_e(uint32_t multiplier, tg_rotation rotation)
{
    tg_state st;
    start_with(&st, DEAL_E, 0, multiplier, rotation);
    play(&st, TO_FINAL_E, COUNT(TO_FINAL_E));
    expect(&st, "0 P 1-5", TG_OK);
    expect(&st, "1 D 1-6", TG_OK);
    expect(&st, "2 D 4-4", TG_OK);
    expect(&st, "3 D 6-6", TG_OK);
    ck_assert(tg_is_over(&st));
    ck_assert_int_eq(st.result.winner, 0);
    return st.result;
}

START_TEST(test_a_winning_banker_keeps_the_bank_with_multiplier_plus_one)
{
    const tg_rotation rotations[2] = {TG_ROTATION_FLY, TG_ROTATION_TURN};
    for (int i = 0; i < 2; i++) {
        tg_result r = banker_wins_deal_e(2, rotations[i]);
        ck_assert_int_eq(r.next_banker, 0);
        ck_assert_uint_eq(r.next_multiplier, 3);
        r = banker_wins_deal_e(5, rotations[i]);
        ck_assert_int_eq(r.next_banker, 0);
        ck_assert_uint_eq(r.next_multiplier, 6);
    }
}
END_TEST

START_TEST(test_a_non_banker_winner_of_deal_e_banks_next_under_both_rotations)
{
    /* Seat 1 wins while seat 0 banks: fly gives the bank to the winner, turn to seat 0 + 1. */
    const tg_rotation rotations[2] = {TG_ROTATION_FLY, TG_ROTATION_TURN};
    for (int i = 0; i < 2; i++) {
        tg_state st;
        start_with(&st, DEAL_E, 0, 3, rotations[i]);
        play(&st, TO_FINAL_E, COUNT(TO_FINAL_E));
        expect(&st, "0 P 1-5", TG_OK);
        expect(&st, "1 P 1-6", TG_OK);
        expect(&st, "2 D 4-4", TG_OK);
        expect(&st, "3 D 6-6", TG_OK);
        ck_assert_int_eq(st.result.next_banker, 1);
        ck_assert_uint_eq(st.result.next_multiplier, 2);
    }
}
END_TEST

START_TEST(test_next_bank_wraps_round_the_table)
{
    tg_options fly = tg_options_default(), turn = tg_options_default();
    turn.rotation = TG_ROTATION_TURN;
    uint8_t banker;
    uint32_t m;
    tg_next_bank(&turn, 3, 7, 1, &banker, &m);
    ck_assert_int_eq(banker, 0);
    ck_assert_uint_eq(m, 2);
    tg_next_bank(&fly, 3, 7, 1, &banker, &m);
    ck_assert_int_eq(banker, 1);
    ck_assert_uint_eq(m, 2);
    tg_next_bank(&turn, 3, 7, 3, &banker, &m);
    ck_assert_int_eq(banker, 3);
    ck_assert_uint_eq(m, 8);
    tg_next_bank(&fly, 2, 2, 2, &banker, &m);
    ck_assert_int_eq(banker, 2);
    ck_assert_uint_eq(m, 3);
}
END_TEST

START_TEST(test_a_natural_hand_counts_as_a_win_by_its_holder_for_the_bank)
{
    /* Seat 2 has no red pip (梅 長三 板凳 斧頭, two of each). */
    const char *const natural[TG_SEATS] = {
        "6-6 6-6 3-6 4-5 1-2 2-4 1-3 1-3",
        "1-1 1-1 2-6 3-5 1-4 2-3 1-6 1-6",
        "5-5 5-5 3-3 3-3 2-2 2-2 5-6 5-6",
        "4-4 4-4 2-5 3-4 4-6 4-6 1-5 1-5",
    };
    uint8_t deal[TG_SEATS][TG_HAND_TILES];
    tgt_parse_deal(natural, deal);
    tg_options fly = tg_options_default(), turn = tg_options_default();
    turn.rotation = TG_ROTATION_TURN;
    tg_state st;
    ck_assert_int_eq(tgt_start_deal(&st, &fly, 0, 3, deal), TG_OK);
    ck_assert(tg_is_over(&st));
    ck_assert_int_eq(st.result.winner, 2);
    ck_assert_int_eq(st.result.next_banker, 2);
    ck_assert_uint_eq(st.result.next_multiplier, 2);
    ck_assert_int_eq(tgt_start_deal(&st, &turn, 0, 3, deal), TG_OK);
    ck_assert_int_eq(st.result.next_banker, 1);
    ck_assert_uint_eq(st.result.next_multiplier, 2);
    ck_assert_int_eq(tgt_start_deal(&st, &turn, 2, 3, deal), TG_OK);
    ck_assert_int_eq(st.result.next_banker, 2);
    ck_assert_uint_eq(st.result.next_multiplier, 4);
}
END_TEST

/* ---- the first banker, the deal, determinism ---- */

START_TEST(test_the_first_banker_is_a_seat_and_depends_only_on_the_seed)
{
    int seen[TG_SEATS] = {0};
    const int seeds = 4000;
    for (uint64_t seed = 0; seed < (uint64_t)seeds; seed++) {
        int banker = tg_first_banker(seed);
        ck_assert_int_ge(banker, 0);
        ck_assert_int_lt(banker, TG_SEATS);
        ck_assert_int_eq(tg_first_banker(seed), banker);
        seen[banker]++;
    }
    /* A roll of two dice counted round the table reaches every seat, none much more than others. */
    for (int s = 0; s < TG_SEATS; s++)
        ck_assert_msg(seen[s] > seeds * 15 / 100 && seen[s] < seeds * 35 / 100, "seat %d banks %d times of %d", s,
                      seen[s], seeds);
}
END_TEST

START_TEST(test_the_deal_is_the_32_tiles_eight_to_a_seat_in_ascending_order)
{
    uint8_t full[TG_TILES];
    int copies[TG_KINDS] = {0};
    tg_full_set(full);
    for (int i = 0; i < TG_TILES; i++)
        copies[full[i]]++;
    for (uint64_t seed = 0; seed < 500; seed++) {
        uint8_t deal[TG_SEATS][TG_HAND_TILES];
        int count[TG_KINDS] = {0};
        tg_deal(seed, deal);
        for (int s = 0; s < TG_SEATS; s++)
            for (int i = 0; i < TG_HAND_TILES; i++) {
                ck_assert_uint_lt(deal[s][i], TG_KINDS);
                count[deal[s][i]]++;
                if (i > 0)
                    ck_assert_uint_le(deal[s][i - 1], deal[s][i]);
            }
        ck_assert_mem_eq(count, copies, sizeof count);
        ck_assert_int_eq(tg_check_deal((const uint8_t(*)[TG_HAND_TILES])deal), TG_OK);
    }
}
END_TEST

START_TEST(test_the_deal_depends_only_on_the_seed)
{
    uint8_t a[TG_SEATS][TG_HAND_TILES], b[TG_SEATS][TG_HAND_TILES];
    for (uint64_t seed = 0; seed < 100; seed++) {
        tg_deal(seed, a);
        tg_deal(seed, b);
        ck_assert_mem_eq(a, b, sizeof a);
    }
    int different = 0;
    for (uint64_t seed = 0; seed < 100; seed++) {
        tg_deal(seed, a);
        tg_deal(seed + 1, b);
        different += memcmp(a, b, sizeof a) != 0;
    }
    ck_assert_int_eq(different, 100);
}
END_TEST

/* Plays a hand from a seed with actions chosen by a second seeded generator; records them. */
static int play_seeded_hand(uint64_t seed, const tg_options *options, tg_state *st, tg_action *log)
{
    uint8_t deal[TG_SEATS][TG_HAND_TILES];
    rng_state rng;
    tg_deal(seed, deal);
    rng_seed(&rng, seed + 12345);
    ck_assert_int_eq(tgt_start_deal(st, options, tg_first_banker(seed), 2, deal), TG_OK);
    int n = 0;
    while (!tg_is_over(st)) {
        tg_action legal[TG_MAX_ACTIONS];
        int count = tg_legal_actions(st, st->to_act, legal, TG_MAX_ACTIONS);
        ck_assert_int_gt(count, 0);
        log[n] = legal[rng_below(&rng, (uint32_t)count)];
        ck_assert_int_eq(tg_apply_action(st, &log[n]), TG_OK);
        n++;
    }
    return n;
}

START_TEST(test_a_whole_hand_is_rebuilt_bit_for_bit_from_its_seed_and_actions)
{
    tg_options options = tg_options_default();
    options.rotation = TG_ROTATION_TURN;
    for (uint64_t seed = 0; seed < 200; seed++) {
        static tg_state first, second, replayed;
        tg_action log_a[64], log_b[64];
        memset(&first, 0xa5, sizeof first);
        memset(&second, 0x5a, sizeof second); /* different garbage: tg_start must clear it all */
        int na = play_seeded_hand(seed, &options, &first, log_a);
        int nb = play_seeded_hand(seed, &options, &second, log_b);
        ck_assert_int_eq(na, nb);
        ck_assert_mem_eq(log_a, log_b, (size_t)na * sizeof log_a[0]);
        ck_assert_msg(memcmp(&first, &second, sizeof first) == 0, "seed %llu", (unsigned long long)seed);

        /* Event sourcing: the deal plus the recorded actions rebuild the same state. */
        uint8_t deal[TG_SEATS][TG_HAND_TILES];
        tg_deal(seed, deal);
        memset(&replayed, 0xff, sizeof replayed);
        ck_assert_int_eq(tgt_start_deal(&replayed, &options, tg_first_banker(seed), 2, deal), TG_OK);
        for (int i = 0; i < na; i++)
            ck_assert_int_eq(tg_apply_action(&replayed, &log_a[i]), TG_OK);
        ck_assert(memcmp(&first, &replayed, sizeof first) == 0);
        ck_assert_int_eq(first.n_actions, na);
    }
}
END_TEST

static Suite *flow_suite(void)
{
    Suite *s = suite_create("tg_rules_flow");
    TCase *order = tcase_create("order");
    tcase_add_test(order, test_the_banker_leads_the_first_trick);
    tcase_add_test(order, test_play_passes_to_the_next_seat_and_wraps_round);
    tcase_add_test(order, test_the_winner_of_a_trick_leads_the_next);
    tcase_add_test(order, test_a_trick_of_n_tiles_gives_its_winner_n_stacks);
    tcase_add_test(order, test_a_follower_who_wins_a_pair_trick_takes_two_stacks);
    tcase_add_test(order, test_the_stacks_of_a_whole_hand_add_up_to_eight);
    tcase_add_test(order, test_the_leader_may_split_a_combination);
    tcase_add_test(order, test_an_equal_tile_leaves_the_earlier_one_standing);
    tcase_add_test(order, test_heaven_nine_stands_against_the_other_heaven_nine);
    suite_add_tcase(s, order);

    TCase *final = tcase_create("final");
    tcase_add_test(final, test_only_the_trick_that_empties_every_hand_is_final);
    tcase_add_test(final, test_a_seat_without_a_stack_may_not_play_a_single_final_trick);
    tcase_add_test(final, test_a_seat_with_one_stack_may_win_a_single_final_trick);
    tcase_add_test(final, test_a_seat_without_a_stack_may_win_a_final_pair);
    tcase_add_test(final, test_final_trick_eligibility_is_stacks_plus_tiles_at_least_two);
    tcase_add_test(final, test_eligibility_applies_to_the_final_trick_only);
    suite_add_tcase(s, final);

    TCase *bank = tcase_create("bank");
    tcase_add_test(bank, test_fly_a_non_banker_winner_banks_next_with_multiplier_two);
    tcase_add_test(bank, test_turn_a_non_banker_winner_passes_the_bank_to_the_next_seat);
    tcase_add_test(bank, test_a_winning_banker_keeps_the_bank_with_multiplier_plus_one);
    tcase_add_test(bank, test_a_non_banker_winner_of_deal_e_banks_next_under_both_rotations);
    tcase_add_test(bank, test_next_bank_wraps_round_the_table);
    tcase_add_test(bank, test_a_natural_hand_counts_as_a_win_by_its_holder_for_the_bank);
    suite_add_tcase(s, bank);

    TCase *seeds = tcase_create("seeds");
    tcase_set_timeout(seeds, 120);
    tcase_add_test(seeds, test_the_first_banker_is_a_seat_and_depends_only_on_the_seed);
    tcase_add_test(seeds, test_the_deal_is_the_32_tiles_eight_to_a_seat_in_ascending_order);
    tcase_add_test(seeds, test_the_deal_depends_only_on_the_seed);
    tcase_add_test(seeds, test_a_whole_hand_is_rebuilt_bit_for_bit_from_its_seed_and_actions);
    suite_add_tcase(s, seeds);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(flow_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
