/*
 * test_tg_hand — legal actions and the reasons for refusing one (engine/tg_hand.h), against
 * rules/tiengow.md §2-§3.
 *
 * Hands are dealt by hand (tg_start takes any deal of exactly the 32 tiles) and written as tile
 * faces; actions are written "S P tiles" (seat S plays) or "S D tiles" (seat S discards). Every
 * deal here is checked to hold no natural hand (§6: a hand with 0 or 1 red pip wins at once),
 * with the red pips counted by the rule of §1, not by the engine. Expected legal lists are
 * counted by hand from the rules; a property test then compares tg_legal_actions with a
 * brute-force enumeration of every subset of the held tiles through tg_check_action.
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

/* Starts a hand with default options from four hands of 8 tiles; none may be a natural hand. */
static void start(tg_state *st, const char *const hands[TG_SEATS], int banker)
{
    uint8_t deal[TG_SEATS][TG_HAND_TILES];
    tgt_parse_deal(hands, deal);
    tgt_assert_no_natural(deal);
    tg_options options = tg_options_default();
    ck_assert_int_eq(tgt_start_deal(st, &options, banker, 2, deal), TG_OK);
    ck_assert(!tg_is_over(st));
    ck_assert_int_eq(st->natural_seat, -1);
}

/* Checks and applies; a refused action must leave the state exactly as it was. */
static void expect(tg_state *st, const char *text, tg_status want)
{
    tg_action a = tgt_action(text);
    tg_state before = *st;
    tg_status checked = tg_check_action(st, &a);
    ck_assert_msg(checked == want, "\"%s\": %s, expected %s", text, tg_status_name(checked), tg_status_name(want));
    ck_assert_int_eq(tg_apply_action(st, &a), want);
    if (want != TG_OK)
        ck_assert_msg(memcmp(&before, st, sizeof before) == 0, "refused \"%s\" changed the state", text);
}

static void play(tg_state *st, const char *const *script, int n)
{
    for (int i = 0; i < n; i++)
        expect(st, script[i], TG_OK);
}

#define PLAY(st, script) play((st), (script), (int)(sizeof(script) / sizeof((script)[0])))

static bool same_action(const tg_action *a, const tg_action *b)
{
    return a->seat == b->seat && a->kind == b->kind && a->n == b->n && memcmp(a->tiles, b->tiles, a->n) == 0;
}

static int find_action(const tg_action *list, int n, const tg_action *a)
{
    for (int i = 0; i < n; i++)
        if (same_action(&list[i], a))
            return i;
    return -1;
}

/* The seat's legal actions are exactly the listed ones (in any order, each once). */
static void assert_legal_exactly(const tg_state *st, int seat, const char *const *expected, int n)
{
    tg_action legal[TG_MAX_ACTIONS];
    int count = tg_legal_actions(st, seat, legal, TG_MAX_ACTIONS);
    ck_assert_int_eq(count, n);
    for (int i = 0; i < n; i++) {
        tg_action a = tgt_action(expected[i]);
        ck_assert_msg(find_action(legal, count, &a) >= 0, "\"%s\" is not listed", expected[i]);
    }
}

#define ASSERT_LEGAL(st, seat, list) assert_legal_exactly((st), (seat), (list), (int)(sizeof(list) / sizeof((list)[0])))

static int count_kind(const tg_state *st, int seat, tg_action_kind kind)
{
    tg_action legal[TG_MAX_ACTIONS];
    int count = tg_legal_actions(st, seat, legal, TG_MAX_ACTIONS), n = 0;
    for (int i = 0; i < count; i++)
        n += legal[i].kind == kind;
    return n;
}

/* ---- deals ---- */

/* Deal A: seat 0 holds the two 天, both 9s, 至尊 and two 梅 (red pips 21, 9, 22, 12). */
static const char *const DEAL_A[TG_SEATS] = {
    "6-6 6-6 3-6 4-5 1-2 2-4 5-5 5-5",
    "1-1 1-1 2-6 3-5 3-3 3-3 1-4 2-3",
    "4-4 4-4 2-5 3-4 2-2 2-2 1-3 1-3",
    "5-6 5-6 4-6 4-6 1-6 1-6 1-5 1-5",
};

/* Deal D: seats 0 and 1 share 天, 地 and 和 and each hold one tile of every military total. */
static const char *const DEAL_D[TG_SEATS] = {
    "6-6 3-6 1-1 2-6 1-6 1-6 1-3 2-3",
    "6-6 4-5 1-1 3-5 4-4 3-4 1-3 1-4",
    "4-6 4-6 3-3 3-3 2-2 2-2 2-4 1-2",
    "5-6 5-6 5-5 5-5 4-4 2-5 1-5 1-5",
};

/* Deal E and a script to its final single trick, where seats 2 and 3 have no stack. */
static const char *const DEAL_E[TG_SEATS] = {
    "1-1 1-1 4-6 4-6 5-6 5-5 4-4 1-5",
    "1-2 2-3 3-5 2-6 3-3 2-2 5-6 1-6",
    "4-4 5-5 3-3 2-2 1-6 1-5 2-4 1-4",
    "6-6 6-6 1-3 1-3 3-6 4-5 2-5 3-4",
};
static const char *const TO_FINAL_E[] = {
    "0 P 1-1 1-1", "1 D 1-2 2-3", "2 D 2-4 1-4", "3 D 3-6 4-5", /* seat 0: 2 stacks */
    "0 P 4-6 4-6", "1 D 3-5 2-6", "2 D 3-3 2-2", "3 D 2-5 3-4", /* seat 0: 4 */
    "0 P 5-6",     "1 P 3-3",     "2 D 1-5",     "3 D 1-3",     /* seat 1: 1 */
    "1 P 2-2",     "2 D 1-6",     "3 D 1-3",     "0 P 5-5",     /* seat 0: 5 */
    "0 P 4-4",     "1 D 5-6",     "2 D 5-5",     "3 D 6-6",     /* seat 0: 6 */
};

/* ---- starting a hand ---- */

START_TEST(test_start_refuses_a_deal_that_is_not_the_32_tiles)
{
    uint8_t deal[TG_SEATS][TG_HAND_TILES];
    for (int s = 0; s < TG_SEATS; s++)
        tgt_parse_tiles(DEAL_A[s], deal[s], TG_HAND_TILES);
    deal[0][3] = (uint8_t)tg_tile_parse("3-6"); /* two 3-6 and no 4-5 */
    tg_options options = tg_options_default();
    tg_state st;
    ck_assert_int_eq(tgt_start_deal(&st, &options, 0, 2, deal), TG_ERR_BAD_DEAL);
    deal[0][3] = TG_KINDS; /* not a tile */
    ck_assert_int_eq(tgt_start_deal(&st, &options, 0, 2, deal), TG_ERR_BAD_DEAL);
}
END_TEST

START_TEST(test_start_refuses_a_bad_banker_or_multiplier)
{
    uint8_t deal[TG_SEATS][TG_HAND_TILES];
    for (int s = 0; s < TG_SEATS; s++)
        tgt_parse_tiles(DEAL_A[s], deal[s], TG_HAND_TILES);
    tg_options options = tg_options_default();
    tg_state st;
    ck_assert_int_eq(tgt_start_deal(&st, &options, 4, 2, deal), TG_ERR_BAD_BANKER);
    ck_assert_int_eq(tgt_start_deal(&st, &options, -1, 2, deal), TG_ERR_BAD_BANKER);
    ck_assert_int_eq(tgt_start_deal(&st, &options, 0, 1, deal), TG_ERR_BAD_MULTIPLIER);
    ck_assert_int_eq(tgt_start_deal(&st, &options, 0, 0, deal), TG_ERR_BAD_MULTIPLIER);
    ck_assert_int_eq(tgt_start_deal(&st, &options, 3, 2, deal), TG_OK);
}
END_TEST

START_TEST(test_start_takes_the_hands_in_any_order)
{
    const char *const shuffled[TG_SEATS] = {
        "5-5 1-2 6-6 4-5 2-4 3-6 5-5 6-6",
        "2-3 1-4 3-3 3-5 2-6 3-3 1-1 1-1",
        "1-3 2-2 3-4 2-5 2-2 4-4 1-3 4-4",
        "1-5 1-6 4-6 5-6 1-5 1-6 4-6 5-6",
    };
    tg_state a, b;
    start(&a, DEAL_A, 0);
    start(&b, shuffled, 0);
    for (int s = 0; s < TG_SEATS; s++)
        ck_assert_mem_eq(a.hand[s], b.hand[s], TG_KINDS);
}
END_TEST

/* ---- refusals ---- */

START_TEST(test_a_seat_acting_out_of_turn_is_refused)
{
    tg_state st;
    start(&st, DEAL_A, 0);
    expect(&st, "1 P 1-1", TG_ERR_NOT_YOUR_TURN);
    expect(&st, "3 P 1-5", TG_ERR_NOT_YOUR_TURN);
    expect(&st, "0 P 5-5", TG_OK);
    expect(&st, "0 P 6-6", TG_ERR_NOT_YOUR_TURN); /* the leader may not act twice */
    expect(&st, "2 D 2-2", TG_ERR_NOT_YOUR_TURN); /* seat 1 comes before seat 2 */
    expect(&st, "1 D 1-4", TG_OK);
}
END_TEST

START_TEST(test_a_seat_number_above_three_is_refused)
{
    tg_state st;
    start(&st, DEAL_A, 0);
    tg_action a = tgt_action("0 P 5-5");
    a.seat = 4;
    ck_assert_int_eq(tg_check_action(&st, &a), TG_ERR_BAD_SEAT);
    a.seat = 255;
    ck_assert_int_eq(tg_check_action(&st, &a), TG_ERR_BAD_SEAT);
    ck_assert_int_eq(tg_apply_action(&st, &a), TG_ERR_BAD_SEAT);
    ck_assert_int_eq(st.n_actions, 0);
}
END_TEST

START_TEST(test_a_kind_number_that_is_no_tile_is_refused)
{
    tg_state st;
    start(&st, DEAL_A, 0);
    tg_action a = tgt_action("0 P 5-5");
    a.tiles[0] = TG_KINDS;
    ck_assert_int_eq(tg_check_action(&st, &a), TG_ERR_BAD_TILE);
}
END_TEST

START_TEST(test_a_tile_not_in_hand_is_refused)
{
    tg_state st;
    start(&st, DEAL_A, 0);
    expect(&st, "0 P 1-1", TG_ERR_TILE_NOT_IN_HAND);
    expect(&st, "0 P 6-6 1-1", TG_ERR_TILE_NOT_IN_HAND);
    expect(&st, "0 P 5-5 5-5", TG_OK);
    expect(&st, "1 D 1-1 1-5", TG_ERR_TILE_NOT_IN_HAND); /* a follower's discard too */
    expect(&st, "1 D 1-4 1-4", TG_ERR_TILE_NOT_IN_HAND); /* there is only one 1-4 */
    expect(&st, "1 D 1-4 2-3", TG_OK);
}
END_TEST

START_TEST(test_playing_two_copies_when_one_is_held_is_refused)
{
    tg_state st;
    start(&st, DEAL_A, 0);
    expect(&st, "0 P 6-6", TG_OK);
    expect(&st, "1 D 1-4", TG_OK);
    expect(&st, "2 D 2-2", TG_OK);
    expect(&st, "3 D 1-5", TG_OK);
    ck_assert_int_eq(st.to_act, 0);
    expect(&st, "0 P 6-6 6-6", TG_ERR_TILE_NOT_IN_HAND); /* one 天 is gone */
    expect(&st, "0 P 5-5 5-5 5-5", TG_ERR_TILE_NOT_IN_HAND);
    expect(&st, "0 P 6-6 3-6", TG_OK);
}
END_TEST

START_TEST(test_a_lead_of_no_tile_or_five_tiles_is_refused)
{
    tg_state st;
    start(&st, DEAL_A, 0);
    tg_action none = tgt_action("0 P 5-5");
    none.n = 0;
    ck_assert_int_eq(tg_check_action(&st, &none), TG_ERR_WRONG_COUNT);
    tg_action five = tgt_action("0 P 6-6 6-6 3-6 4-5");
    five.n = 5;
    ck_assert_int_eq(tg_check_action(&st, &five), TG_ERR_WRONG_COUNT);
    ck_assert_int_eq(tg_apply_action(&st, &five), TG_ERR_WRONG_COUNT);
    ck_assert_int_eq(st.n_actions, 0);
}
END_TEST

START_TEST(test_a_follower_must_match_the_number_of_tiles_led)
{
    tg_state st;
    start(&st, DEAL_A, 0);
    expect(&st, "0 P 5-5 5-5", TG_OK);
    expect(&st, "1 P 1-1", TG_ERR_WRONG_COUNT);
    expect(&st, "1 D 1-4", TG_ERR_WRONG_COUNT);
    expect(&st, "1 D 1-4 2-3 3-3", TG_ERR_WRONG_COUNT);
    expect(&st, "1 P 1-1 1-1 2-6", TG_ERR_WRONG_COUNT); /* a combination, but of three tiles */
    expect(&st, "1 P 1-1 1-1", TG_OK);
}
END_TEST

START_TEST(test_the_leader_may_not_discard)
{
    tg_state st;
    start(&st, DEAL_A, 0);
    expect(&st, "0 D 5-5", TG_ERR_LEADER_MUST_PLAY);
    expect(&st, "0 D 6-6 3-6", TG_ERR_LEADER_MUST_PLAY);
}
END_TEST

START_TEST(test_the_winner_of_a_trick_may_not_discard_its_next_lead)
{
    tg_state st;
    start(&st, DEAL_A, 0);
    expect(&st, "0 P 5-5", TG_OK);
    expect(&st, "1 P 1-1", TG_OK);
    expect(&st, "2 D 2-2", TG_OK);
    expect(&st, "3 D 1-5", TG_OK);
    ck_assert_int_eq(st.to_act, 1);
    expect(&st, "1 D 1-4", TG_ERR_LEADER_MUST_PLAY);
}
END_TEST

START_TEST(test_a_lead_that_is_no_combination_is_refused)
{
    tg_state st;
    start(&st, DEAL_A, 0);
    expect(&st, "0 P 6-6 5-5", TG_ERR_NOT_A_COMBINATION); /* two different civil tiles */
    expect(&st, "0 P 6-6 2-4", TG_ERR_NOT_A_COMBINATION); /* 天 with a 6 */
    expect(&st, "0 P 3-6 4-5 1-2", TG_ERR_NOT_A_COMBINATION);
    expect(&st, "0 P 6-6 6-6 5-5 5-5", TG_ERR_NOT_A_COMBINATION);
}
END_TEST

START_TEST(test_a_follow_that_is_no_combination_is_refused)
{
    tg_state st;
    start(&st, DEAL_A, 0);
    expect(&st, "0 P 5-5 5-5", TG_OK);
    expect(&st, "1 P 1-1 3-3", TG_ERR_NOT_A_COMBINATION);
    expect(&st, "1 P 2-6 1-4", TG_ERR_NOT_A_COMBINATION);
    expect(&st, "1 D 1-1 3-3", TG_OK); /* the same tiles may be discarded */
}
END_TEST

START_TEST(test_a_follower_may_not_play_supreme)
{
    tg_state st;
    start(&st, DEAL_A, 3);
    expect(&st, "3 P 5-6 5-6", TG_OK);
    expect(&st, "0 P 1-2 2-4", TG_ERR_SUPREME_ONLY_LED);
    expect(&st, "0 P 6-6 6-6", TG_OK);
}
END_TEST

START_TEST(test_a_follow_of_another_type_is_refused)
{
    tg_state st;
    start(&st, DEAL_A, 0);
    expect(&st, "0 P 5-5 5-5", TG_OK);
    expect(&st, "1 P 2-6 3-5", TG_ERR_WRONG_TYPE); /* military pair on a civil pair */
    expect(&st, "1 P 1-1 2-6", TG_ERR_WRONG_TYPE); /* mixed pair on a civil pair */
    expect(&st, "1 P 1-1 1-1", TG_OK);
}
END_TEST

START_TEST(test_a_military_single_cannot_follow_a_civil_single)
{
    tg_state st;
    start(&st, DEAL_A, 0);
    expect(&st, "0 P 5-5", TG_OK);
    expect(&st, "1 P 2-6", TG_ERR_WRONG_TYPE);
    expect(&st, "1 P 1-4", TG_ERR_WRONG_TYPE);
}
END_TEST

START_TEST(test_a_military_triple_cannot_follow_a_civil_triple)
{
    tg_state st;
    start(&st, DEAL_A, 1);
    expect(&st, "1 P 1-1 1-1 2-6", TG_OK);
    expect(&st, "2 D 2-2 2-2 1-3", TG_OK);
    expect(&st, "3 D 5-6 5-6 1-5", TG_OK);
    expect(&st, "0 P 6-6 3-6 4-5", TG_ERR_WRONG_TYPE);
    expect(&st, "0 P 6-6 6-6 3-6", TG_OK);
}
END_TEST

START_TEST(test_an_equal_combination_does_not_beat)
{
    tg_state st;
    start(&st, DEAL_D, 0);
    expect(&st, "0 P 6-6 3-6", TG_OK);
    expect(&st, "1 P 6-6 4-5", TG_ERR_DOES_NOT_BEAT); /* 天九 with the other 9 */
    expect(&st, "1 D 6-6 4-5", TG_OK);

    start(&st, DEAL_D, 0);
    expect(&st, "0 P 3-6", TG_OK);
    expect(&st, "1 P 4-5", TG_ERR_DOES_NOT_BEAT); /* the two military 9s */

    start(&st, DEAL_D, 0);
    expect(&st, "0 P 6-6", TG_OK);
    expect(&st, "1 P 6-6", TG_ERR_DOES_NOT_BEAT);
}
END_TEST

START_TEST(test_a_lower_combination_does_not_beat)
{
    tg_state st;
    start(&st, DEAL_D, 0);
    expect(&st, "0 P 1-1 2-6", TG_OK);
    expect(&st, "1 P 4-4 3-4", TG_ERR_DOES_NOT_BEAT); /* 人七 under 地八 */
    expect(&st, "1 P 1-3 1-4", TG_ERR_DOES_NOT_BEAT);
    expect(&st, "1 P 6-6 4-5", TG_OK);
}
END_TEST

START_TEST(test_a_follow_must_beat_the_best_so_far_not_only_the_lead)
{
    tg_state st;
    start(&st, DEAL_D, 0);
    expect(&st, "0 P 2-3", TG_OK);    /* military 5 */
    expect(&st, "1 P 4-5", TG_OK);    /* 9 */
    expect(&st, "2 P 2-4", TG_ERR_DOES_NOT_BEAT); /* 6 beats the 5 but not the 9 */
    expect(&st, "2 D 2-4", TG_OK);
    expect(&st, "3 P 2-5", TG_ERR_DOES_NOT_BEAT);
}
END_TEST

START_TEST(test_nothing_beats_a_led_supreme)
{
    tg_state st;
    start(&st, DEAL_D, 2);
    expect(&st, "2 P 2-4 1-2", TG_OK);
    expect(&st, "3 P 5-5 5-5", TG_ERR_NOTHING_BEATS);
    expect(&st, "3 D 5-5 5-5", TG_OK);
    expect(&st, "0 P 6-6 3-6", TG_ERR_NOTHING_BEATS);
    expect(&st, "0 P 1-6 1-6", TG_ERR_NOTHING_BEATS);
}
END_TEST

START_TEST(test_a_seat_without_a_stack_may_not_play_a_single_final_trick)
{
    tg_state st;
    start(&st, DEAL_E, 0);
    PLAY(&st, TO_FINAL_E);
    ck_assert_int_eq(st.stacks[2], 0);
    expect(&st, "0 P 1-5", TG_OK);
    expect(&st, "1 P 1-6", TG_OK);
    expect(&st, "2 P 4-4", TG_ERR_BARRED_FROM_FINAL); /* 人 would beat 高腳七 */
    expect(&st, "2 D 4-4", TG_OK);
    expect(&st, "3 P 6-6", TG_ERR_BARRED_FROM_FINAL);
}
END_TEST

START_TEST(test_no_action_is_taken_once_the_hand_is_over)
{
    tg_state st;
    start(&st, DEAL_E, 0);
    PLAY(&st, TO_FINAL_E);
    expect(&st, "0 P 1-5", TG_OK);
    expect(&st, "1 P 1-6", TG_OK);
    expect(&st, "2 D 4-4", TG_OK);
    expect(&st, "3 D 6-6", TG_OK);
    ck_assert(tg_is_over(&st));
    tg_action a = tgt_action("1 P 1-6");
    for (int s = 0; s < TG_SEATS; s++) {
        a.seat = (uint8_t)s;
        ck_assert_int_eq(tg_check_action(&st, &a), TG_ERR_HAND_OVER);
        ck_assert_int_eq(tg_legal_actions(&st, s, NULL, 0), 0);
    }
    ck_assert_int_eq(tg_apply_action(&st, &a), TG_ERR_HAND_OVER);
}
END_TEST

START_TEST(test_no_action_is_taken_after_a_natural_hand)
{
    /* Seat 2 has no red pip (梅 長三 板凳 斧頭, two of each): 八支 at once. */
    const char *const deal[TG_SEATS] = {
        "6-6 6-6 3-6 4-5 1-2 2-4 1-3 1-3",
        "1-1 1-1 2-6 3-5 1-4 2-3 1-6 1-6",
        "5-5 5-5 3-3 3-3 2-2 2-2 5-6 5-6",
        "4-4 4-4 2-5 3-4 4-6 4-6 1-5 1-5",
    };
    uint8_t tiles[TG_SEATS][TG_HAND_TILES];
    for (int s = 0; s < TG_SEATS; s++)
        tgt_parse_tiles(deal[s], tiles[s], TG_HAND_TILES);
    tg_options options = tg_options_default();
    tg_state st;
    ck_assert_int_eq(tgt_start_deal(&st, &options, 0, 2, tiles), TG_OK);
    ck_assert(tg_is_over(&st));
    ck_assert_int_eq(st.natural_seat, 2);
    tg_action a = tgt_action("0 P 6-6");
    ck_assert_int_eq(tg_check_action(&st, &a), TG_ERR_HAND_OVER);
    ck_assert_int_eq(tg_apply_action(&st, &a), TG_ERR_HAND_OVER);
    tg_action out[TG_MAX_ACTIONS];
    ck_assert_int_eq(tg_legal_actions(&st, 0, out, TG_MAX_ACTIONS), 0);
}
END_TEST

/* ---- legal action lists, counted by hand ---- */

START_TEST(test_the_leader_may_lead_every_combination_its_hand_holds)
{
    /* 天天 3-6 4-5 1-2 2-4 梅梅: 6 singles, 6 pairs, 3 triples, 1 quartet. */
    static const char *const leads[] = {
        "0 P 6-6",         "0 P 5-5",         "0 P 3-6",         "0 P 4-5",         "0 P 2-4",
        "0 P 1-2",         "0 P 6-6 6-6",     "0 P 5-5 5-5",     "0 P 3-6 4-5",     "0 P 6-6 3-6",
        "0 P 6-6 4-5",     "0 P 1-2 2-4",     "0 P 6-6 6-6 3-6", "0 P 6-6 6-6 4-5", "0 P 6-6 3-6 4-5",
        "0 P 6-6 6-6 3-6 4-5",
    };
    tg_state st;
    start(&st, DEAL_A, 0);
    ASSERT_LEGAL(&st, 0, leads);
}
END_TEST

START_TEST(test_a_hand_without_pairs_leads_its_singles_and_mixed_pairs)
{
    /* 天 4-5 地 3-5 人 3-4 和 1-4: 8 singles and the 4 mixed pairs; no two tiles of one military total. */
    static const char *const leads[] = {
        "1 P 6-6", "1 P 4-5", "1 P 1-1", "1 P 3-5", "1 P 4-4", "1 P 3-4",
        "1 P 1-3", "1 P 1-4", "1 P 6-6 4-5", "1 P 1-1 3-5", "1 P 4-4 3-4", "1 P 1-3 1-4",
    };
    tg_state st;
    start(&st, DEAL_D, 1);
    ASSERT_LEGAL(&st, 1, leads);
}
END_TEST

START_TEST(test_a_follower_lists_each_beating_single_and_each_discard_once)
{
    /* On 梅: seat 1 (地地 2-6 3-5 長三長三 1-4 2-3) beats only with 地, listed once. */
    static const char *const seat1[] = {
        "1 P 1-1", "1 D 1-1", "1 D 2-6", "1 D 3-5", "1 D 3-3", "1 D 1-4", "1 D 2-3",
    };
    /* Seat 2 (人人 2-5 3-4 板凳板凳 和和) beats 梅 with 人 and with 和, not with 板凳. */
    static const char *const seat2[] = {
        "2 P 4-4", "2 P 1-3", "2 D 4-4", "2 D 2-5", "2 D 3-4", "2 D 2-2", "2 D 1-3",
    };
    /* Seat 3 holds only civil tiles below 梅. */
    static const char *const seat3[] = {"3 D 5-6", "3 D 4-6", "3 D 1-6", "3 D 1-5"};
    tg_state st;
    start(&st, DEAL_A, 0);
    expect(&st, "0 P 5-5", TG_OK);
    ASSERT_LEGAL(&st, 1, seat1);
    expect(&st, "1 D 1-4", TG_OK);
    ASSERT_LEGAL(&st, 2, seat2);
    expect(&st, "2 D 2-2", TG_OK);
    ASSERT_LEGAL(&st, 3, seat3);
}
END_TEST

START_TEST(test_a_follower_of_a_pair_lists_its_higher_pair_and_every_two_tile_discard)
{
    /* 6 kinds, two of them doubled: C(6,2) = 15 mixed discards + 2 doubled = 17. */
    static const char *const seat1[] = {
        "1 P 1-1 1-1", "1 D 1-1 1-1", "1 D 3-3 3-3", "1 D 1-1 2-6", "1 D 1-1 3-5", "1 D 1-1 3-3",
        "1 D 1-1 1-4", "1 D 1-1 2-3", "1 D 2-6 3-5", "1 D 2-6 3-3", "1 D 2-6 1-4", "1 D 2-6 2-3",
        "1 D 3-5 3-3", "1 D 3-5 1-4", "1 D 3-5 2-3", "1 D 3-3 1-4", "1 D 3-3 2-3", "1 D 1-4 2-3",
    };
    tg_state st;
    start(&st, DEAL_A, 0);
    expect(&st, "0 P 5-5 5-5", TG_OK);
    ASSERT_LEGAL(&st, 1, seat1);
}
END_TEST

START_TEST(test_a_follower_of_a_civil_triple_lists_only_higher_civil_triples)
{
    tg_state st;
    start(&st, DEAL_A, 1);
    expect(&st, "1 P 1-1 1-1 2-6", TG_OK);
    /* Seat 2: 人人 triples are lower; 5 kinds, 3 of them doubled: C(5,3) = 10 + 3 x 4 = 22 discards. */
    ck_assert_int_eq(count_kind(&st, 2, TG_PLAY), 0);
    ck_assert_int_eq(count_kind(&st, 2, TG_DISCARD), 22);
    expect(&st, "2 D 2-2 2-2 1-3", TG_OK);
    /* Seat 3: 4 kinds, all doubled: C(4,3) = 4 + 4 x 3 = 16 discards. */
    ck_assert_int_eq(count_kind(&st, 3, TG_PLAY), 0);
    ck_assert_int_eq(count_kind(&st, 3, TG_DISCARD), 16);
    expect(&st, "3 D 5-6 5-6 1-5", TG_OK);
    /* Seat 0: 天天 with either 9 beats 地地8; 天 9 9 is a 三武, another type. 6 kinds, 2 doubled:
     * C(6,3) = 20 + 2 x 5 = 30 discards. */
    static const char *const plays[] = {"0 P 6-6 6-6 3-6", "0 P 6-6 6-6 4-5"};
    tg_action legal[TG_MAX_ACTIONS];
    int count = tg_legal_actions(&st, 0, legal, TG_MAX_ACTIONS);
    ck_assert_int_eq(count, 2 + 30);
    for (int i = 0; i < 2; i++) {
        tg_action a = tgt_action(plays[i]);
        ck_assert(find_action(legal, count, &a) >= 0);
    }
    ck_assert_int_eq(count_kind(&st, 0, TG_PLAY), 2);
}
END_TEST

START_TEST(test_nothing_beats_a_heaven_quartet_so_only_discards_are_listed)
{
    tg_state st;
    start(&st, DEAL_A, 0);
    expect(&st, "0 P 6-6 6-6 3-6 4-5", TG_OK);
    /* Seat 1's 地地88 quartet is lower. 6 kinds, 2 doubled: C(6,4) = 15 + 2 x C(5,2) = 20 + 1 = 36. */
    ck_assert_int_eq(count_kind(&st, 1, TG_PLAY), 0);
    ck_assert_int_eq(count_kind(&st, 1, TG_DISCARD), 36);
}
END_TEST

START_TEST(test_after_a_led_supreme_only_discards_are_listed)
{
    tg_state st;
    start(&st, DEAL_A, 0);
    expect(&st, "0 P 1-2 2-4", TG_OK);
    ck_assert_int_eq(count_kind(&st, 1, TG_PLAY), 0);
    ck_assert_int_eq(count_kind(&st, 1, TG_DISCARD), 17);
}
END_TEST

START_TEST(test_a_barred_seat_is_offered_only_discards_on_the_final_trick)
{
    static const char *const seat2[] = {"2 D 4-4"};
    static const char *const seat1[] = {"1 P 1-6", "1 D 1-6"};
    tg_state st;
    start(&st, DEAL_E, 0);
    PLAY(&st, TO_FINAL_E);
    expect(&st, "0 P 1-5", TG_OK);
    ASSERT_LEGAL(&st, 1, seat1); /* one stack: 1 + 1 = 2, may play */
    expect(&st, "1 P 1-6", TG_OK);
    ASSERT_LEGAL(&st, 2, seat2);
}
END_TEST

START_TEST(test_only_the_seat_to_act_has_legal_actions)
{
    tg_state st;
    tg_action out[TG_MAX_ACTIONS];
    start(&st, DEAL_A, 2);
    ck_assert_int_gt(tg_legal_actions(&st, 2, out, TG_MAX_ACTIONS), 0);
    ck_assert_int_eq(tg_legal_actions(&st, 0, out, TG_MAX_ACTIONS), 0);
    ck_assert_int_eq(tg_legal_actions(&st, 1, out, TG_MAX_ACTIONS), 0);
    ck_assert_int_eq(tg_legal_actions(&st, 3, out, TG_MAX_ACTIONS), 0);
    ck_assert_int_eq(tg_legal_actions(&st, -1, out, TG_MAX_ACTIONS), 0);
    ck_assert_int_eq(tg_legal_actions(&st, 4, out, TG_MAX_ACTIONS), 0);
}
END_TEST

START_TEST(test_legal_actions_never_write_past_the_capacity)
{
    tg_state st;
    start(&st, DEAL_A, 0);
    tg_action out[8];
    memset(out, 0xab, sizeof out);
    int n = tg_legal_actions(&st, 0, out, 3);
    ck_assert_int_le(n, 16);
    ck_assert_int_ge(n, 3);
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(tg_check_action(&st, &out[i]), TG_OK);
    const uint8_t *rest = (const uint8_t *)&out[3];
    for (size_t i = 0; i < sizeof out - 3 * sizeof out[0]; i++)
        ck_assert_uint_eq(rest[i], 0xab);
}
END_TEST

/* ---- the legal list against a brute-force enumeration ---- */

typedef struct action_set {
    int n;
    tg_action items[512];
} action_set;

static void add_unique(action_set *set, const tg_action *a)
{
    if (find_action(set->items, set->n, a) >= 0)
        return;
    if (set->n == 512)
        ck_abort_msg("more than 512 distinct legal actions");
    set->items[set->n++] = *a;
}

/* Every subset of 1..4 of the held tiles, played and discarded, that tg_check_action accepts. */
static void brute_force_legal(const tg_state *st, int seat, action_set *out)
{
    uint8_t held[TG_HAND_TILES];
    int n = tg_held_tiles(st, seat, held);
    out->n = 0;
    for (unsigned mask = 1; mask < (1u << n); mask++) {
        uint8_t pick[TG_HAND_TILES];
        int k = 0;
        for (int i = 0; i < n; i++)
            if (mask & (1u << i))
                pick[k++] = held[i];
        if (k > 4)
            continue;
        for (int kind = TG_PLAY; kind <= TG_DISCARD; kind++) {
            tg_action a = tg_action_make(seat, (tg_action_kind)kind, pick, k);
            if (tg_check_action(st, &a) == TG_OK)
                add_unique(out, &a);
        }
    }
}

/*
 * What is wrong with the legal list of the seat to act, or NULL. (One assertion per position:
 * Check reports every passing assertion to its parent process, which is slow in a tight loop.)
 */
static const char *legal_list_fault(const tg_state *st)
{
    static action_set expected;
    tg_action legal[TG_MAX_ACTIONS];
    int count = tg_legal_actions(st, st->to_act, legal, TG_MAX_ACTIONS);
    brute_force_legal(st, st->to_act, &expected);
    if (count == 0)
        return "the seat to act has nothing to do";
    if (count >= TG_MAX_ACTIONS)
        return "the list fills TG_MAX_ACTIONS";
    if (count != expected.n)
        return "the list and the enumeration differ in size";
    for (int i = 0; i < count; i++) {
        if (tg_check_action(st, &legal[i]) != TG_OK)
            return "a listed action is refused";
        if (find_action(legal, i, &legal[i]) >= 0)
            return "an action is listed twice";
        if (find_action(expected.items, expected.n, &legal[i]) < 0)
            return "a listed action is not in the enumeration";
    }
    return NULL;
}

static void assert_legal_matches_brute_force(const tg_state *st)
{
    const char *fault = legal_list_fault(st);
    if (fault != NULL)
        ck_abort_msg("after %d actions: %s", st->n_actions, fault);
}

START_TEST(test_legal_actions_match_a_brute_force_enumeration)
{
    int hands = 0;
    for (uint64_t seed = 1; hands < 500; seed++) {
        uint8_t deal[TG_SEATS][TG_HAND_TILES];
        tg_options options = tg_options_default();
        tg_state st;
        rng_state rng;
        tg_deal(seed, deal);
        rng_seed(&rng, seed * 7919);
        ck_assert_int_eq(tgt_start_deal(&st, &options, (int)(seed % TG_SEATS), 2, deal), TG_OK);
        if (tg_is_over(&st))
            continue; /* a natural hand: no action at all */
        hands++;
        while (!tg_is_over(&st)) {
            assert_legal_matches_brute_force(&st);
            tg_action legal[TG_MAX_ACTIONS];
            int count = tg_legal_actions(&st, st.to_act, legal, TG_MAX_ACTIONS);
            ck_assert_int_eq(tg_apply_action(&st, &legal[rng_below(&rng, (uint32_t)count)]), TG_OK);
        }
    }
}
END_TEST

START_TEST(test_legal_actions_match_a_brute_force_enumeration_on_the_hand_built_deals)
{
    const char *const *deals[] = {DEAL_A, DEAL_D, DEAL_E};
    for (int d = 0; d < 3; d++)
        for (int banker = 0; banker < TG_SEATS; banker++)
            for (uint64_t seed = 0; seed < 10; seed++) {
                tg_state st;
                rng_state rng;
                rng_seed(&rng, seed);
                start(&st, deals[d], banker);
                while (!tg_is_over(&st)) {
                    assert_legal_matches_brute_force(&st);
                    tg_action legal[TG_MAX_ACTIONS];
                    int count = tg_legal_actions(&st, st.to_act, legal, TG_MAX_ACTIONS);
                    ck_assert_int_eq(tg_apply_action(&st, &legal[rng_below(&rng, (uint32_t)count)]), TG_OK);
                }
            }
}
END_TEST

static Suite *hand_suite(void)
{
    Suite *s = suite_create("tg_hand");
    TCase *start_case = tcase_create("start");
    tcase_add_test(start_case, test_start_refuses_a_deal_that_is_not_the_32_tiles);
    tcase_add_test(start_case, test_start_refuses_a_bad_banker_or_multiplier);
    tcase_add_test(start_case, test_start_takes_the_hands_in_any_order);
    suite_add_tcase(s, start_case);

    TCase *refusals = tcase_create("refusals");
    tcase_add_test(refusals, test_a_seat_acting_out_of_turn_is_refused);
    tcase_add_test(refusals, test_a_seat_number_above_three_is_refused);
    tcase_add_test(refusals, test_a_kind_number_that_is_no_tile_is_refused);
    tcase_add_test(refusals, test_a_tile_not_in_hand_is_refused);
    tcase_add_test(refusals, test_playing_two_copies_when_one_is_held_is_refused);
    tcase_add_test(refusals, test_a_lead_of_no_tile_or_five_tiles_is_refused);
    tcase_add_test(refusals, test_a_follower_must_match_the_number_of_tiles_led);
    tcase_add_test(refusals, test_the_leader_may_not_discard);
    tcase_add_test(refusals, test_the_winner_of_a_trick_may_not_discard_its_next_lead);
    tcase_add_test(refusals, test_a_lead_that_is_no_combination_is_refused);
    tcase_add_test(refusals, test_a_follow_that_is_no_combination_is_refused);
    tcase_add_test(refusals, test_a_follower_may_not_play_supreme);
    tcase_add_test(refusals, test_a_follow_of_another_type_is_refused);
    tcase_add_test(refusals, test_a_military_single_cannot_follow_a_civil_single);
    tcase_add_test(refusals, test_a_military_triple_cannot_follow_a_civil_triple);
    tcase_add_test(refusals, test_an_equal_combination_does_not_beat);
    tcase_add_test(refusals, test_a_lower_combination_does_not_beat);
    tcase_add_test(refusals, test_a_follow_must_beat_the_best_so_far_not_only_the_lead);
    tcase_add_test(refusals, test_nothing_beats_a_led_supreme);
    tcase_add_test(refusals, test_a_seat_without_a_stack_may_not_play_a_single_final_trick);
    tcase_add_test(refusals, test_no_action_is_taken_once_the_hand_is_over);
    tcase_add_test(refusals, test_no_action_is_taken_after_a_natural_hand);
    suite_add_tcase(s, refusals);

    TCase *legal = tcase_create("legal");
    tcase_set_timeout(legal, 120);
    tcase_add_test(legal, test_the_leader_may_lead_every_combination_its_hand_holds);
    tcase_add_test(legal, test_a_hand_without_pairs_leads_its_singles_and_mixed_pairs);
    tcase_add_test(legal, test_a_follower_lists_each_beating_single_and_each_discard_once);
    tcase_add_test(legal, test_a_follower_of_a_pair_lists_its_higher_pair_and_every_two_tile_discard);
    tcase_add_test(legal, test_a_follower_of_a_civil_triple_lists_only_higher_civil_triples);
    tcase_add_test(legal, test_nothing_beats_a_heaven_quartet_so_only_discards_are_listed);
    tcase_add_test(legal, test_after_a_led_supreme_only_discards_are_listed);
    tcase_add_test(legal, test_a_barred_seat_is_offered_only_discards_on_the_final_trick);
    tcase_add_test(legal, test_only_the_seat_to_act_has_legal_actions);
    tcase_add_test(legal, test_legal_actions_never_write_past_the_capacity);
    tcase_add_test(legal, test_legal_actions_match_a_brute_force_enumeration);
    tcase_add_test(legal, test_legal_actions_match_a_brute_force_enumeration_on_the_hand_built_deals);
    suite_add_tcase(s, legal);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(hand_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
