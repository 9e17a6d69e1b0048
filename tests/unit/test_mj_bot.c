/*
 * Unit tests of mj_bot: scenarios set by hand (it wins when it may, never a win without fan, keeps
 * its wilds, claims the pungs that bring it closer and passes the others, makes its kongs, sits
 * and pulls by the strength of its dealt tiles), and whole seeded hands played by bots among bots
 * and random players under several option sets: every choice is legal (and its view lists exactly
 * the engine's legal actions), it wins whenever a win is open, it discards a wild only when it
 * holds nothing else, and what it decides does not change when only what its seat cannot see
 * (the others' concealed tiles, the wall) is changed.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "mj_bot.h"
#include "mj_hand.h"
#include "mj_test_util.h"
#include "rng.h"

static const uint8_t NO_PULLS[MJ_SEATS] = {0, 0, 0, 0};

/* A hand dealt from a seed, then set by the test: indicator 东 (wilds 东 and 南), no first draw. */
static mj_hand scenario(void)
{
    mj_options o = mj_options_default();
    mj_hand h;
    ck_assert_int_eq(mj_hand_start(&h, &o, 7, 0, false, NO_PULLS), MJ_OK);
    h.indicator = MJ_EAST;
    h.wilds = mj_wild_kinds(MJ_EAST, false);
    h.first_draw = false;
    return h;
}

static void set_hand(mj_hand *h, int seat, const char *tiles)
{
    memset(&h->hand[seat], 0, sizeof h->hand[seat]);
    mjt_add_tiles(tiles, &h->hand[seat]);
}

/* Seat 0 to act holding `tiles`, the last of them just drawn. */
static mj_hand turn_with(const char *tiles, const char *drawn)
{
    mj_hand h = scenario();
    set_hand(&h, 0, tiles);
    h.phase = MJ_PHASE_TURN;
    h.turn = 0;
    h.drawn = (int8_t)mjt_kind(drawn);
    return h;
}

/* Seat 0 discarded `tile`; seat 1, holding `tiles`, may claim it. */
static mj_hand claim_with(const char *tiles, const char *tile)
{
    mj_hand h = scenario();
    set_hand(&h, 1, tiles);
    h.phase = MJ_PHASE_CLAIM;
    h.turn = 0;
    h.claimer = 1;
    h.drawn = -1;
    h.last_discard = (uint8_t)mjt_kind(tile);
    return h;
}

static bool listed(const mj_action *a, const mj_action *list, int n)
{
    for (int i = 0; i < n; i++)
        if (list[i].seat == a->seat && list[i].kind == a->kind && list[i].tile == a->tile)
            return true;
    return false;
}

/* The bot's choice for the seat deciding, which must be one of the engine's legal actions. */
static mj_action choice_of(const mj_hand *h)
{
    int seat = mj_hand_deciding(h);
    mj_action a, legal[MJ_MAX_ACTIONS];
    ck_assert(mj_bot_choose(h, seat, &a));
    int n = mj_hand_legal_actions(h, legal);
    ck_assert_msg(listed(&a, legal, n), "%s %s is not legal", mj_action_name((mj_action_kind)a.kind), mj_kind_name(a.tile));
    return a;
}

static void assert_choice(const mj_hand *h, mj_action_kind kind, const char *tile)
{
    mj_action a = choice_of(h);
    ck_assert_msg(a.kind == kind && (tile == NULL || a.tile == mjt_kind(tile)), "chose %s %s, expected %s %s",
                  mj_action_name((mj_action_kind)a.kind), mj_kind_name(a.tile), mj_action_name(kind),
                  tile != NULL ? tile : "");
}

/* --- scenarios --- */

START_TEST(test_the_bot_wins_with_a_hand_that_scores)
{
    mj_hand h = turn_with("1m 2m 3m 4p 5p 6p 7s 8s 9s 1p 2p 3p C C", "3p"); /* 素 */
    assert_choice(&h, MJ_ACT_WIN, NULL);
    h = turn_with("1m 2m 3m 4p 5p 6p 7s 8s 9s C C C E 5s", "5s"); /* 单混吊: 5s and the wild 东 */
    assert_choice(&h, MJ_ACT_WIN, NULL);
}
END_TEST

START_TEST(test_a_complete_hand_without_fan_is_not_won_and_its_wild_is_kept)
{
    /* 7s 东 9s completes the plain shape, but the wild stands beside naturals: no fan, no win */
    mj_hand h = turn_with("1m 2m 3m 5p 6p 7p 1s 2s 3s N N 9s E 7s", "7s");
    mj_action legal[MJ_MAX_ACTIONS];
    int n = mj_hand_legal_actions(&h, legal);
    for (int i = 0; i < n; i++)
        ck_assert_int_ne(legal[i].kind, MJ_ACT_WIN);
    /* the wild must stay the pair's, so the hand is one step from 混儿吊 whichever of N, 7s, 9s
     * goes; without N, 8s (four unseen) completes the fourth set, without 9s only N (two) would */
    assert_choice(&h, MJ_ACT_DISCARD, "N");
}
END_TEST

START_TEST(test_a_wild_is_never_discarded_while_another_tile_is_held)
{
    mj_hand h = turn_with("E S 1m 9m 1p 9p 1s 9s N W C F P 5m", "5m");
    mj_action a = choice_of(&h);
    ck_assert_int_eq(a.kind, MJ_ACT_DISCARD);
    ck_assert(!mj_kind_set_has(h.wilds, a.tile));
    /* four melds and two wilds after a pung: a wild must go, and it is a legal one */
    h = turn_with("E S", "E");
    h.drawn = -1;
    h.n_melds[0] = 4;
    for (int m = 0; m < 4; m++)
        h.melds[0][m] = (mj_meld){MJ_MELD_PUNG, (uint8_t)(m * 9)};
    a = choice_of(&h);
    ck_assert_int_eq(a.kind, MJ_ACT_DISCARD);
}
END_TEST

START_TEST(test_the_discard_keeps_the_hand_closest_to_a_win)
{
    /* a ready 素 hand but for one lone wind: the wind goes */
    mj_hand h = turn_with("1m 2m 3m 4p 5p 6p 7s 8s 9s 1p 2p C C N", "N");
    assert_choice(&h, MJ_ACT_DISCARD, "N");
}
END_TEST

START_TEST(test_a_pung_that_brings_the_hand_closer_is_claimed)
{
    mj_hand h = claim_with("1m 2m 3m 4p 5p 6p 7s 8s 9s C C F P", "C");
    assert_choice(&h, MJ_ACT_PUNG, "C");
}
END_TEST

START_TEST(test_a_pung_that_breaks_the_pair_of_a_ready_hand_is_passed)
{
    mj_hand h = claim_with("1m 2m 3m 4p 5p 6p 7s 8s 9s 1p 2p C C", "C");
    assert_choice(&h, MJ_ACT_PASS, NULL);
}
END_TEST

START_TEST(test_three_of_a_discarded_tile_are_konged)
{
    mj_hand h = claim_with("1m 2m 3m 4p 5p 6p 7s 8s 9s C C C F", "C");
    assert_choice(&h, MJ_ACT_KONG, "C");
}
END_TEST

START_TEST(test_four_of_a_kind_are_konged_concealed_and_four_wilds_as_a_gold_kong)
{
    mj_hand h = turn_with("1m 1m 1m 1m 4p 5p 6p 7s 8s 9s C C F P", "P");
    assert_choice(&h, MJ_ACT_CONCEALED_KONG, "1m");
    h = turn_with("S S S S 1m 5m 9m 1p 5p 9p 1s 5s 9s N", "N");
    assert_choice(&h, MJ_ACT_CONCEALED_KONG, "S");
}
END_TEST

START_TEST(test_the_fourth_tile_of_an_exposed_pung_is_added_as_a_kong)
{
    mj_hand h = turn_with("1m 2m 3m 4p 5p 6p 7s 8s 9s N C", "C");
    h.n_melds[0] = 1;
    h.melds[0][0] = (mj_meld){MJ_MELD_PUNG, (uint8_t)mjt_kind("C")};
    assert_choice(&h, MJ_ACT_ADDED_KONG, "C");
}
END_TEST

START_TEST(test_the_bot_owes_nothing_when_another_seat_decides)
{
    mj_hand h = turn_with("1m 2m 3m 4p 5p 6p 7s 8s 9s 1p 2p C C N", "N");
    mj_action a = {9, 9, 9};
    ck_assert(!mj_bot_choose(&h, 1, &a));
    ck_assert_int_eq(a.seat, 9);
    ck_assert(!mj_bot_choose(&h, 4, &a));
}
END_TEST

START_TEST(test_the_banker_sits_and_the_others_pull_by_the_strength_of_their_dealt_tiles)
{
    mj_options o = mj_options_default();
    mj_hand h = scenario();
    set_hand(&h, 0, "1m 2m 3m 4p 5p 6p 7s 8s 9s 1p 2p C C N"); /* ready after a discard */
    set_hand(&h, 1, "1m 4m 7m 1p 4p 7p 1s 4s 7s W N C F");     /* eight away */
    set_hand(&h, 2, "2m 3m 4m 5p 6p 7p 3s 4s 5s 6s 7s W N");   /* one away */
    ck_assert(mj_bot_sits(&o, &h, 0));
    ck_assert_int_eq(mj_bot_pulls(&o, &h, 1, true), 0);
    ck_assert_int_eq(mj_bot_pulls(&o, &h, 2, true), 1);
    ck_assert_int_eq(mj_bot_pulls(&o, &h, 2, false), 0); /* nobody pulls a banker who did not sit */
    ck_assert_int_eq(mj_bot_pulls(&o, &h, 0, true), 0);  /* nor the banker itself */
    o.max_pulls = 2;
    ck_assert_int_eq(mj_bot_pulls(&o, &h, 2, true), 2);
    set_hand(&h, 0, "1m 4m 7m 1p 4p 7p 1s 4s 7s W N C F P");
    ck_assert(!mj_bot_sits(&o, &h, 0));
    o.must_sit = true;
    ck_assert(mj_bot_sits(&o, &h, 0));
    /* asked before the deal: it sits only when it must and never pulls */
    ck_assert(mj_bot_sits(&o, NULL, 0));
    o.must_sit = false;
    ck_assert(!mj_bot_sits(&o, NULL, 0));
    ck_assert_int_eq(mj_bot_pulls(&o, NULL, 1, true), 0);
}
END_TEST

/* --- whole hands --- */

/* Changes what `seat` cannot see: other seats' concealed tiles swapped with live-wall tiles, the
 * live wall and the replacement tiles shuffled. Tile counts per seat stay as they were. */
static void disturb_hidden(mj_hand *h, int seat, rng_state *rng)
{
    for (int swaps = 0; swaps < 6 && h->live_end > h->front; swaps++) {
        int other = (seat + 1 + (int)rng_below(rng, 3)) % MJ_SEATS;
        int at = h->front + (int)rng_below(rng, (uint32_t)(h->live_end - h->front));
        int kind = (int)rng_below(rng, MJ_KINDS);
        for (int tries = 0; tries < MJ_KINDS && h->hand[other].n[kind] == 0; tries++)
            kind = (kind + 1) % MJ_KINDS;
        if (h->hand[other].n[kind] == 0)
            continue;
        h->hand[other].n[kind]--;
        h->hand[other].n[h->wall[at]]++;
        h->wall[at] = (uint8_t)kind;
    }
    if (h->live_end > h->front)
        rng_shuffle(rng, &h->wall[h->front], h->live_end - h->front);
    if (h->back > h->indicator_at + 1)
        rng_shuffle(rng, &h->wall[h->indicator_at + 1], h->back - h->indicator_at - 1);
}

typedef struct play_counts {
    long decisions, wins_open, hidden_checks, wild_discards_forced;
} play_counts;

/* One bot decision, with every check of the playout tests. */
static mj_action checked_bot_action(const mj_hand *h, int seat, rng_state *rng, play_counts *counts)
{
    mj_action legal[MJ_MAX_ACTIONS], view_legal[MJ_MAX_ACTIONS], a;
    int n = mj_hand_legal_actions(h, legal);
    mj_bot_view view;
    mj_bot_view_of(h, seat, &view);
    int m = mj_bot_legal_actions(&view, view_legal);
    ck_assert_int_eq(m, n);
    ck_assert(memcmp(legal, view_legal, (size_t)n * sizeof legal[0]) == 0);

    ck_assert(mj_bot_choose(h, seat, &a));
    ck_assert_msg(listed(&a, legal, n), "seat %d chose %s %s, not legal", seat, mj_action_name((mj_action_kind)a.kind),
                  mj_kind_name(a.tile));
    counts->decisions++;
    if (listed(&(mj_action){(uint8_t)seat, MJ_ACT_WIN, (uint8_t)(h->drawn >= 0 ? h->drawn : 0)}, legal, n)) {
        ck_assert_int_eq(a.kind, MJ_ACT_WIN);
        counts->wins_open++;
    }
    if (a.kind == MJ_ACT_DISCARD && mj_kind_set_has(h->wilds, a.tile)) {
        for (int k = 0; k < MJ_KINDS; k++)
            ck_assert_msg(h->hand[seat].n[k] == 0 || mj_kind_set_has(h->wilds, k),
                          "seat %d discarded the wild %s holding %s", seat, mj_kind_name(a.tile), mj_kind_name(k));
        counts->wild_discards_forced++;
    }
    if (counts->decisions % 3 == 0) {
        static mj_hand other;
        other = *h;
        disturb_hidden(&other, seat, rng);
        mj_bot_view other_view;
        mj_bot_view_of(&other, seat, &other_view);
        ck_assert(memcmp(&view, &other_view, sizeof view) == 0);
        mj_action b;
        ck_assert(mj_bot_choose(&other, seat, &b));
        ck_assert(a.seat == b.seat && a.kind == b.kind && a.tile == b.tile);
        counts->hidden_checks++;
    }
    return a;
}

/* Options that change what the bot sees or may do, by hand number. */
static mj_options options_for(long hand)
{
    mj_options o = mj_options_default();
    switch (hand % 4) {
    case 1:
        o.gua_da_feng = true;
        break;
    case 2:
        o.gold_kong_fan = 0;
        o.no_replacement = MJ_NO_REPLACEMENT_SKIP_INDICATOR;
        break;
    case 3:
        o.gold_kong_fan = 4;
        o.wild_discard_penalty = true;
        break;
    default:
        break;
    }
    return o;
}

START_TEST(test_whole_hands_the_bot_always_acts_legally_wins_when_it_may_and_keeps_wilds)
{
    rng_state rng;
    rng_seed(&rng, 0x626f74ULL + (uint64_t)_i);
    play_counts counts = {0};
    long bot_wins = 0, hands = 300;
    for (long i = 0; i < hands; i++) {
        mj_options o = options_for(i);
        mj_hand h;
        uint64_t seed = 1000 * (uint64_t)_i + (uint64_t)i;
        ck_assert_int_eq(mj_hand_start(&h, &o, seed, (int)(i % MJ_SEATS), false, NO_PULLS), MJ_OK);
        /* half the hands four bots, half one or two bots among random players */
        bool bot[MJ_SEATS];
        for (int s = 0; s < MJ_SEATS; s++)
            bot[s] = i % 2 == 0 || s == (int)(i % MJ_SEATS) || (i % 4 == 1 && s == 2);
        while (!mj_hand_over(&h)) {
            int seat = mj_hand_deciding(&h);
            mj_action a, legal[MJ_MAX_ACTIONS];
            if (bot[seat]) {
                a = checked_bot_action(&h, seat, &rng, &counts);
            } else {
                int n = mj_hand_legal_actions(&h, legal);
                a = legal[rng_below(&rng, (uint32_t)n)];
            }
            ck_assert_int_eq(mj_hand_act(&h, &a), MJ_OK);
        }
        bot_wins += h.winner >= 0 && bot[h.winner];
    }
    ck_assert_int_gt(counts.decisions, 8000);
    ck_assert_int_gt(counts.wins_open, 50);
    ck_assert_int_eq(counts.wins_open, bot_wins);
    ck_assert_int_gt(counts.hidden_checks, 3000);
}
END_TEST

static Suite *bot_suite(void)
{
    Suite *s = suite_create("mj_bot");
    TCase *play = tcase_create("scenarios");
    tcase_add_test(play, test_the_bot_wins_with_a_hand_that_scores);
    tcase_add_test(play, test_a_complete_hand_without_fan_is_not_won_and_its_wild_is_kept);
    tcase_add_test(play, test_a_wild_is_never_discarded_while_another_tile_is_held);
    tcase_add_test(play, test_the_discard_keeps_the_hand_closest_to_a_win);
    tcase_add_test(play, test_a_pung_that_brings_the_hand_closer_is_claimed);
    tcase_add_test(play, test_a_pung_that_breaks_the_pair_of_a_ready_hand_is_passed);
    tcase_add_test(play, test_three_of_a_discarded_tile_are_konged);
    tcase_add_test(play, test_four_of_a_kind_are_konged_concealed_and_four_wilds_as_a_gold_kong);
    tcase_add_test(play, test_the_fourth_tile_of_an_exposed_pung_is_added_as_a_kong);
    tcase_add_test(play, test_the_bot_owes_nothing_when_another_seat_decides);
    tcase_add_test(play, test_the_banker_sits_and_the_others_pull_by_the_strength_of_their_dealt_tiles);
    suite_add_tcase(s, play);
    TCase *whole = tcase_create("whole hands");
    tcase_set_timeout(whole, 240);
    tcase_add_loop_test(whole, test_whole_hands_the_bot_always_acts_legally_wins_when_it_may_and_keeps_wilds, 0, 4);
    suite_add_tcase(s, whole);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(bot_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
