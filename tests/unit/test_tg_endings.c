/*
 * test_tg_endings — whole hands played through tg_start and tg_apply_action that end in each
 * special ending of rules/tiengow.md §4, pay the bonuses of §5, and the worked replay of
 * rules/examples/tiengow-replay.json.
 *
 * Every deal is written out tile by tile (all 32 tiles, none a natural hand: each seat holds at
 * least 2 red pips) and every action is a line "seat p|d tiles" (p plays, d discards). The
 * expected stacks, endings, bonuses, payments and nets were worked out by hand from the rules
 * page; the comment above each test gives the arithmetic.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tg_hand.h"

typedef struct expected_payment {
    int from, to;
    int64_t units;
} expected_payment;

typedef struct expected_bonus {
    tg_bonus_kind kind;
    int trick, from, to;
    int64_t units;
} expected_bonus;

/* Parses space-separated tile names ("1-2 6-6") into kinds; returns how many. */
static int parse_tiles(const char *text, uint8_t *out, int max)
{
    int n = 0;
    for (const char *p = text; *p != '\0';) {
        if (*p == ' ') {
            p++;
            continue;
        }
        char name[4] = {p[0], p[0] ? p[1] : '\0', p[0] && p[1] ? p[2] : '\0', '\0'};
        int kind = tg_tile_parse(name);
        ck_assert_msg(kind >= 0 && n < max, "bad tile list \"%s\"", text);
        out[n++] = (uint8_t)kind;
        p += 3;
    }
    return n;
}

/* Starts a hand from four written hands and checks that it did not end as a natural hand. */
static void start_hand(tg_state *st, const tg_options *o, int banker, uint32_t m, const char *const hands[TG_SEATS])
{
    uint8_t deal[TG_SEATS][TG_HAND_TILES];
    for (int s = 0; s < TG_SEATS; s++)
        ck_assert_int_eq(parse_tiles(hands[s], deal[s], TG_HAND_TILES), TG_HAND_TILES);
    /* the cast only adds const to the rows, which C11 will not do implicitly */
    const uint8_t(*rows)[TG_HAND_TILES] = (const uint8_t(*)[TG_HAND_TILES])deal;
    ck_assert_str_eq(tg_status_name(tg_start(st, o, banker, m, rows)), "ok");
    ck_assert_msg(!tg_is_over(st), "the deal was taken for a natural hand");
}

/* "2 p 1-3 1-3": seat 2 plays two 1-3; "0 d 4-6" : seat 0 discards a 4-6. */
static tg_action parse_step(const char *step)
{
    uint8_t tiles[4];
    int n = parse_tiles(step + 4, tiles, 4);
    return tg_action_make(step[0] - '0', step[2] == 'p' ? TG_PLAY : TG_DISCARD, tiles, n);
}

static tg_status try_step(tg_state *st, const char *step)
{
    tg_action a = parse_step(step);
    return tg_apply_action(st, &a);
}

/* Applies every step of a NULL-terminated list; each must be accepted. */
static void play_steps(tg_state *st, const char *const *steps)
{
    for (int i = 0; steps[i] != NULL; i++) {
        tg_status status = try_step(st, steps[i]);
        ck_assert_msg(status == TG_OK, "step \"%s\" refused: %s", steps[i], tg_status_name(status));
    }
}

static void expect_over(const tg_state *st, int winner, const int stacks[TG_SEATS], uint8_t endings)
{
    ck_assert_msg(tg_is_over(st), "the hand is not over");
    ck_assert_int_eq(st->result.winner, winner);
    for (int s = 0; s < TG_SEATS; s++)
        ck_assert_msg(st->result.stacks[s] == stacks[s], "seat %d has %d stacks, expected %d", s,
                      st->result.stacks[s], stacks[s]);
    ck_assert_msg(st->result.endings == endings, "endings 0x%02x, expected 0x%02x", st->result.endings, endings);
}

static void expect_money(const tg_state *st, const expected_payment *pay, int n_pay, const int64_t net[TG_SEATS])
{
    const tg_settlement *s = &st->result.settlement;
    ck_assert_int_eq(s->count, n_pay);
    for (int i = 0; i < n_pay; i++)
        ck_assert_msg(s->payments[i].from == pay[i].from && s->payments[i].to == pay[i].to &&
                          s->payments[i].units == pay[i].units,
                      "payment %d: got %d->%d %lld, expected %d->%d %lld", i, s->payments[i].from,
                      s->payments[i].to, (long long)s->payments[i].units, pay[i].from, pay[i].to,
                      (long long)pay[i].units);
    for (int seat = 0; seat < TG_SEATS; seat++)
        ck_assert_msg(st->result.net[seat] == net[seat], "net of seat %d: got %lld, expected %lld", seat,
                      (long long)st->result.net[seat], (long long)net[seat]);
}

static void expect_bonuses(const tg_state *st, const expected_bonus *b, int n)
{
    ck_assert_int_eq(st->n_bonuses, n);
    for (int i = 0; i < n; i++) {
        const tg_bonus *got = &st->bonuses[i];
        ck_assert_msg(got->kind == b[i].kind && got->trick == b[i].trick && got->from == b[i].from &&
                          got->to == b[i].to && got->units == b[i].units,
                      "bonus %d: got kind %d trick %d %d->%d %lld, expected kind %d trick %d %d->%d %lld", i,
                      got->kind, got->trick, got->from, got->to, (long long)got->units, b[i].kind, b[i].trick,
                      b[i].from, b[i].to, (long long)b[i].units);
    }
}

static void expect_next_bank(const tg_state *st, int banker, uint32_t m)
{
    ck_assert_int_eq(st->result.next_banker, banker);
    ck_assert_uint_eq(st->result.next_multiplier, m);
}

static tg_options with_wen_zun(void)
{
    tg_options o = tg_options_default();
    o.wen_zun = true;
    return o;
}

/* ---- 八支 / 七支 ---- */

/* Seat 0 takes every trick; the last one is the pair of military 5s, so nobody was barred, and
 * the higher military tiles discarded on it (4-5, 2-6, ...) do not matter: no higher pair. */
static const char *const EIGHT_BY_PAIRS_DEAL[] = {
    "6-6 6-6 1-1 1-1 4-4 4-4 2-3 1-4", "5-5 5-5 3-3 3-3 4-6 4-6 4-5 2-6",
    "2-2 2-2 5-6 5-6 1-6 3-5 3-4 1-2", "1-5 1-5 1-3 1-3 1-6 3-6 2-5 2-4"};

START_TEST(test_eight_stacks_with_a_final_pair_is_eight)
{
    /* Banker 3 (m 2) leads the pair of 1-5 and seat 0 beats it with 天 pair, then leads out.
     * 八支 x4 on 5 units each: seats 1 and 2 pay 20, the banker 5 x 2 x 4 = 40; seat 0 +80. */
    static const char *const steps[] = {
        "3 p 1-5 1-5", "0 p 6-6 6-6", "1 d 5-5 5-5", "2 d 2-2 2-2", /* */
        "0 p 1-1 1-1", "1 d 3-3 3-3", "2 d 5-6 5-6", "3 d 1-3 1-3", /* */
        "0 p 4-4 4-4", "1 d 4-6 4-6", "2 d 1-6 1-2", "3 d 1-6 2-4", /* */
        "0 p 2-3 1-4", "1 d 4-5 2-6", "2 d 3-5 3-4", "3 d 3-6 2-5", NULL};
    tg_state st;
    tg_options o = tg_options_default();
    start_hand(&st, &o, 3, 2, EIGHT_BY_PAIRS_DEAL);
    play_steps(&st, steps);
    const int stacks[] = {8, 0, 0, 0};
    expect_over(&st, 0, stacks, TG_END_EIGHT);
    const expected_payment pay[] = {{1, 0, 20}, {2, 0, 20}, {3, 0, 40}};
    const int64_t net[] = {80, -20, -20, -40};
    expect_money(&st, pay, 3, net);
    expect_bonuses(&st, NULL, 0);
    expect_next_bank(&st, 0, 2);
}
END_TEST

/* Seat 0 (banker) takes three pairs and a 3-6, then leads a single 5-5 as the final trick. */
static const char *const EIGHT_BY_PLUM_DEAL[] = {
    "6-6 6-6 1-1 1-1 4-4 4-4 3-6 5-5", "1-3 1-3 5-5 3-3 3-3 4-5 2-6 3-5",
    "2-2 2-2 4-6 4-6 2-5 3-4 2-4 2-3", "5-6 5-6 1-6 1-6 1-5 1-5 1-4 1-2"};

START_TEST(test_eight_stacks_on_a_single_final_nobody_outranks_is_eight)
{
    /* Final tiles: 5-5 (梅) against 3-3, 2-2 (lower civil) and 5-6 (lower civil).
     * 八支: 5 units x m 2 (the winner banks) x 4 = 40 from each; seat 0 +120. */
    static const char *const steps[] = {
        "0 p 6-6 6-6", "1 d 1-3 1-3", "2 d 4-6 4-6", "3 d 1-6 1-6", /* */
        "0 p 1-1 1-1", "1 d 5-5 3-3", "2 d 2-5 3-4", "3 d 1-5 1-5", /* */
        "0 p 4-4 4-4", "1 d 4-5 2-6", "2 d 2-4 2-3", "3 d 1-4 1-2", /* */
        "0 p 3-6",     "1 d 3-5",     "2 d 2-2",     "3 d 5-6",     /* */
        "0 p 5-5",     "1 d 3-3",     "2 d 2-2",     "3 d 5-6",     NULL};
    tg_state st;
    tg_options o = tg_options_default();
    start_hand(&st, &o, 0, 2, EIGHT_BY_PLUM_DEAL);
    play_steps(&st, steps);
    const int stacks[] = {8, 0, 0, 0};
    expect_over(&st, 0, stacks, TG_END_EIGHT);
    const expected_payment pay[] = {{1, 0, 40}, {2, 0, 40}, {3, 0, 40}};
    const int64_t net[] = {120, -40, -40, -40};
    expect_money(&st, pay, 3, net);
    expect_next_bank(&st, 0, 3);
}
END_TEST

START_TEST(test_a_barred_players_higher_tile_of_the_same_suit_makes_it_seven)
{
    /* As above, but seat 3 keeps a 1-3 (和, civil, above 梅) for the final trick. Seat 3 has no
     * stack, so it may not play it; it still outranks: 七支, 5 x 2 x 2 = 20 from each. */
    static const char *const deal[] = {"6-6 6-6 1-1 1-1 4-4 4-4 3-6 5-5", "5-6 1-3 5-5 3-3 3-3 4-5 2-6 3-5",
                                       "2-2 2-2 4-6 4-6 2-5 3-4 2-4 2-3", "1-3 5-6 1-6 1-6 1-5 1-5 1-4 1-2"};
    static const char *const steps[] = {
        "0 p 6-6 6-6", "1 d 5-6 1-3", "2 d 4-6 4-6", "3 d 1-6 1-6", /* */
        "0 p 1-1 1-1", "1 d 5-5 3-3", "2 d 2-5 3-4", "3 d 1-5 1-5", /* */
        "0 p 4-4 4-4", "1 d 4-5 2-6", "2 d 2-4 2-3", "3 d 1-4 1-2", /* */
        "0 p 3-6",     "1 d 3-5",     "2 d 2-2",     "3 d 5-6",     /* */
        "0 p 5-5",     "1 d 3-3",     "2 d 2-2",     NULL};
    tg_state st;
    tg_options o = tg_options_default();
    start_hand(&st, &o, 0, 2, deal);
    play_steps(&st, steps);
    ck_assert_int_eq(try_step(&st, "3 p 1-3"), TG_ERR_BARRED_FROM_FINAL);
    ck_assert_int_eq(try_step(&st, "3 d 1-3"), TG_OK);
    const int stacks[] = {8, 0, 0, 0};
    expect_over(&st, 0, stacks, TG_END_SEVEN);
    const expected_payment pay[] = {{1, 0, 20}, {2, 0, 20}, {3, 0, 20}};
    const int64_t net[] = {60, -20, -20, -20};
    expect_money(&st, pay, 3, net);
}
END_TEST

/* Seat 0 (banker) takes three pairs and a 3-6, then leads a single 2-6 (military 8) last. */
static const char *const EIGHT_BY_MILITARY_DEAL[] = {
    "6-6 6-6 1-1 1-1 4-4 4-4 3-6 2-6", "1-3 1-3 5-5 5-5 3-3 3-3 4-5 3-5",
    "2-2 2-2 5-6 5-6 4-6 4-6 3-4 2-5", "1-6 1-6 1-5 1-5 2-4 2-3 1-4 1-2"};

START_TEST(test_an_equal_final_tile_does_not_outrank)
{
    /* Seat 1 keeps 3-5, a military 8 equal to the 2-6: no outranking, so 八支 (40 from each). */
    static const char *const steps[] = {
        "0 p 6-6 6-6", "1 d 1-3 1-3", "2 d 2-2 2-2", "3 d 1-6 1-6", /* */
        "0 p 1-1 1-1", "1 d 5-5 5-5", "2 d 5-6 5-6", "3 d 1-5 1-5", /* */
        "0 p 4-4 4-4", "1 d 3-3 3-3", "2 d 4-6 4-6", "3 d 2-4 2-3", /* */
        "0 p 3-6",     "1 d 4-5",     "2 d 3-4",     "3 d 1-4",     /* */
        "0 p 2-6",     "1 d 3-5",     "2 d 2-5",     "3 d 1-2",     NULL};
    tg_state st;
    tg_options o = tg_options_default();
    start_hand(&st, &o, 0, 2, EIGHT_BY_MILITARY_DEAL);
    play_steps(&st, steps);
    const int stacks[] = {8, 0, 0, 0};
    expect_over(&st, 0, stacks, TG_END_EIGHT);
    const expected_payment pay[] = {{1, 0, 40}, {2, 0, 40}, {3, 0, 40}};
    const int64_t net[] = {120, -40, -40, -40};
    expect_money(&st, pay, 3, net);
}
END_TEST

START_TEST(test_a_higher_tile_of_the_other_suit_does_not_outrank)
{
    /* Seat 0 leads a 2-3 (military 5) last; seat 1 keeps 1-3 (和, civil, 8 pips), seat 3 a 1-6
     * (civil, 7 pips): another suit, so 八支 (40 from each). */
    static const char *const deal[] = {"6-6 6-6 1-1 1-1 4-4 4-4 3-6 2-3", "1-3 1-3 5-5 5-5 3-3 3-3 4-5 2-6",
                                       "2-2 2-2 5-6 5-6 3-5 2-5 3-4 1-2", "4-6 4-6 1-6 1-6 1-5 1-5 2-4 1-4"};
    static const char *const steps[] = {
        "0 p 6-6 6-6", "1 d 1-3 4-5", "2 d 2-2 2-2", "3 d 4-6 4-6", /* */
        "0 p 1-1 1-1", "1 d 5-5 5-5", "2 d 5-6 5-6", "3 d 1-5 1-5", /* */
        "0 p 4-4 4-4", "1 d 3-3 3-3", "2 d 3-5 2-5", "3 d 2-4 1-4", /* */
        "0 p 3-6",     "1 d 2-6",     "2 d 3-4",     "3 d 1-6",     /* */
        "0 p 2-3",     "1 d 1-3",     "2 d 1-2",     "3 d 1-6",     NULL};
    tg_state st;
    tg_options o = tg_options_default();
    start_hand(&st, &o, 0, 2, deal);
    play_steps(&st, steps);
    const int stacks[] = {8, 0, 0, 0};
    expect_over(&st, 0, stacks, TG_END_EIGHT);
    const int64_t net[] = {120, -40, -40, -40};
    const expected_payment pay[] = {{1, 0, 40}, {2, 0, 40}, {3, 0, 40}};
    expect_money(&st, pay, 3, net);
}
END_TEST

/* ---- 么結 ---- */

/* Seat 2 wins five tricks and leads its last tile; seat 3 wins one trick of 2. */
static const char *const YAO_DEAL[] = {
    "1-6 1-6 4-4 4-4 4-6 1-5 1-5 2-6", "2-2 2-2 4-5 3-5 3-4 2-4 2-3 1-4",
    "6-6 6-6 1-1 1-1 3-3 3-3 3-6 1-2", "1-3 1-3 5-5 5-5 5-6 5-6 4-6 2-5"};
static const char *const YAO_STEPS[] = {
    "0 p 1-6 1-6", "1 d 2-2 2-2", "2 p 6-6 6-6", "3 d 5-6 5-6", /* */
    "2 p 1-1 1-1", "3 d 4-6 1-3", "0 d 4-4 4-4", "1 d 4-5 3-5", /* */
    "2 p 3-3 3-3", "3 p 5-5 5-5", "0 d 4-6 1-5", "1 d 3-4 2-4", /* */
    "3 p 2-5",     "0 d 1-5",     "1 d 2-3",     "2 p 3-6",     /* */
    "2 p 1-2",     "3 d 1-3",     NULL};

/* Banker 0 (m 2); 么結 x2: seat 0 5 x 2 x 2 = 20, seat 1 5 x 2 = 10, seat 3 2 x 2 = 4; +34. */
static const int YAO_STACKS[] = {0, 0, 6, 2};
static const expected_payment YAO_PAY[] = {{0, 2, 20}, {1, 2, 10}, {3, 2, 4}};
static const int64_t YAO_NET[] = {-20, -10, 34, -4};

START_TEST(test_final_trick_won_by_a_single_ding_san_is_yao)
{
    tg_state st;
    tg_options o = tg_options_default();
    start_hand(&st, &o, 0, 2, YAO_DEAL);
    play_steps(&st, YAO_STEPS);
    /* Seat 0 holds a higher military tile (2-6) but has no stack: barred, it must discard. */
    ck_assert_int_eq(try_step(&st, "0 p 2-6"), TG_ERR_BARRED_FROM_FINAL);
    ck_assert_int_eq(try_step(&st, "0 d 2-6"), TG_OK);
    ck_assert_int_eq(try_step(&st, "1 d 1-4"), TG_OK);
    expect_over(&st, 2, YAO_STACKS, TG_END_YAO);
    expect_money(&st, YAO_PAY, 3, YAO_NET);
    expect_next_bank(&st, 2, 2);
}
END_TEST

START_TEST(test_with_wen_zun_a_single_copper_hammer_winning_the_final_is_yao)
{
    /* The same hand with the 1-2 and one 1-5 swapped between seats 0 and 2. */
    static const char *const deal[] = {"1-6 1-6 4-4 4-4 4-6 1-5 1-2 2-6", "2-2 2-2 4-5 3-5 3-4 2-4 2-3 1-4",
                                       "6-6 6-6 1-1 1-1 3-3 3-3 3-6 1-5", "1-3 1-3 5-5 5-5 5-6 5-6 4-6 2-5"};
    static const char *const steps[] = {
        "0 p 1-6 1-6", "1 d 2-2 2-2", "2 p 6-6 6-6", "3 d 5-6 5-6", /* */
        "2 p 1-1 1-1", "3 d 4-6 1-3", "0 d 4-4 4-4", "1 d 4-5 3-5", /* */
        "2 p 3-3 3-3", "3 p 5-5 5-5", "0 d 4-6 1-2", "1 d 3-4 2-4", /* */
        "3 p 2-5",     "0 d 1-5",     "1 d 2-3",     "2 p 3-6",     /* */
        "2 p 1-5",     "3 d 1-3",     "0 d 2-6",     "1 d 1-4",     NULL};
    tg_state st;
    tg_options o = with_wen_zun();
    start_hand(&st, &o, 0, 2, deal);
    play_steps(&st, steps);
    expect_over(&st, 2, YAO_STACKS, TG_END_YAO);
    expect_money(&st, YAO_PAY, 3, YAO_NET);
}
END_TEST

START_TEST(test_without_wen_zun_a_single_copper_hammer_is_an_ordinary_win)
{
    static const char *const deal[] = {"1-6 1-6 4-4 4-4 4-6 1-5 1-2 2-6", "2-2 2-2 4-5 3-5 3-4 2-4 2-3 1-4",
                                       "6-6 6-6 1-1 1-1 3-3 3-3 3-6 1-5", "1-3 1-3 5-5 5-5 5-6 5-6 4-6 2-5"};
    static const char *const steps[] = {
        "0 p 1-6 1-6", "1 d 2-2 2-2", "2 p 6-6 6-6", "3 d 5-6 5-6", /* */
        "2 p 1-1 1-1", "3 d 4-6 1-3", "0 d 4-4 4-4", "1 d 4-5 3-5", /* */
        "2 p 3-3 3-3", "3 p 5-5 5-5", "0 d 4-6 1-2", "1 d 3-4 2-4", /* */
        "3 p 2-5",     "0 d 1-5",     "1 d 2-3",     "2 p 3-6",     /* */
        "2 p 1-5",     "3 d 1-3",     "0 d 2-6",     "1 d 1-4",     NULL};
    tg_state st;
    tg_options o = tg_options_default();
    start_hand(&st, &o, 0, 2, deal);
    play_steps(&st, steps);
    expect_over(&st, 2, YAO_STACKS, 0);
    const expected_payment pay[] = {{0, 2, 10}, {1, 2, 5}, {3, 2, 2}};
    const int64_t net[] = {-10, -5, 17, -2};
    expect_money(&st, pay, 3, net);
}
END_TEST

/* ---- 包尊 ---- */

START_TEST(test_a_supreme_led_on_the_final_trick_is_zun_without_he_zun)
{
    /* Seat 3 takes a pair trick, then leads 至尊 as the final trick. Stacks 2/0/2/4.
     * 包尊 x2 with banker 0 (m 2): seat 0 2 x 2 x 2 = 8, seat 1 5 x 2 = 10, seat 2 2 x 2 = 4. */
    static const char *const deal[] = {"6-6 6-6 1-5 1-5 4-6 4-6 1-6 1-6", "1-1 1-1 4-4 4-4 2-2 2-2 5-6 5-6",
                                       "5-5 5-5 3-3 3-3 3-6 4-5 2-6 1-4", "1-3 1-3 1-2 2-4 2-5 3-4 2-3 3-5"};
    static const char *const steps[] = {
        "0 p 6-6 6-6", "1 d 1-1 1-1", "2 d 3-6 4-5", "3 d 2-5 3-4", /* */
        "0 p 1-5 1-5", "1 d 4-4 4-4", "2 p 5-5 5-5", "3 d 2-3 3-5", /* */
        "2 p 3-3 3-3", "3 p 1-3 1-3", "0 d 4-6 4-6", "1 d 2-2 2-2", /* */
        "3 p 1-2 2-4", "0 d 1-6 1-6", "1 d 5-6 5-6", "2 d 2-6 1-4", NULL};
    tg_state st;
    tg_options o = tg_options_default();
    start_hand(&st, &o, 0, 2, deal);
    play_steps(&st, steps);
    const int stacks[] = {2, 0, 2, 4};
    expect_over(&st, 3, stacks, TG_END_ZUN);
    const expected_payment pay[] = {{0, 3, 8}, {1, 3, 10}, {2, 3, 4}};
    const int64_t net[] = {-8, -10, -4, 22};
    expect_money(&st, pay, 3, net);
    expect_bonuses(&st, NULL, 0);
}
END_TEST

/* Seat 3 leads the pair of 1-5 as the final trick; seat 1 holds the pair of 1-6. */
static const char *const WEN_ZUN_FINAL_DEAL[] = {
    "6-6 6-6 2-2 2-2 5-6 4-6 4-6 1-4", "1-6 1-6 1-1 1-1 4-4 4-4 5-6 2-5",
    "5-5 5-5 3-3 3-3 4-5 2-6 3-5 1-2", "1-3 1-3 1-5 1-5 2-4 2-3 3-4 3-6"};
static const char *const WEN_ZUN_FINAL_STEPS[] = {
    "0 p 6-6 6-6", "1 d 5-6 2-5", "2 d 4-5 2-6", "3 d 2-4 2-3", /* */
    "0 p 2-2 2-2", "1 d 4-4 4-4", "2 p 5-5 5-5", "3 d 3-4 3-6", /* */
    "2 p 3-3 3-3", "3 p 1-3 1-3", "0 d 5-6 4-6", "1 d 1-1 1-1", /* */
    "3 p 1-5 1-5", "0 d 4-6 1-4", NULL};

START_TEST(test_with_wen_zun_an_uncaptured_led_wen_zun_on_the_final_is_zun)
{
    /* Stacks 2/0/2/4, 包尊 x2: the same amounts as 包尊 by 至尊, and no bonus. */
    tg_state st;
    tg_options o = with_wen_zun();
    start_hand(&st, &o, 0, 2, WEN_ZUN_FINAL_DEAL);
    play_steps(&st, WEN_ZUN_FINAL_STEPS);
    ck_assert_int_eq(try_step(&st, "1 d 1-6 1-6"), TG_OK);
    ck_assert_int_eq(try_step(&st, "2 d 3-5 1-2"), TG_OK);
    const int stacks[] = {2, 0, 2, 4};
    expect_over(&st, 3, stacks, TG_END_ZUN);
    const expected_payment pay[] = {{0, 3, 8}, {1, 3, 10}, {2, 3, 4}};
    const int64_t net[] = {-8, -10, -4, 22};
    expect_money(&st, pay, 3, net);
    expect_bonuses(&st, NULL, 0);
}
END_TEST

START_TEST(test_with_wen_zun_a_captured_wen_zun_on_the_final_is_an_ordinary_win)
{
    /* Seat 1 captures with 孖高腳: stacks 2/2/2/2, no ending, no 擒尊.
     * Banker 0 pays 2 x 2 = 4, seats 2 and 3 pay 2 each; seat 1 +8. */
    tg_state st;
    tg_options o = with_wen_zun();
    start_hand(&st, &o, 0, 2, WEN_ZUN_FINAL_DEAL);
    play_steps(&st, WEN_ZUN_FINAL_STEPS);
    ck_assert_int_eq(try_step(&st, "1 p 1-6 1-6"), TG_OK);
    ck_assert_int_eq(try_step(&st, "2 d 3-5 1-2"), TG_OK);
    const int stacks[] = {2, 2, 2, 2};
    expect_over(&st, 1, stacks, 0);
    const expected_payment pay[] = {{0, 1, 4}, {2, 1, 2}, {3, 1, 2}};
    const int64_t net[] = {-4, 8, -2, -2};
    expect_money(&st, pay, 3, net);
    expect_bonuses(&st, NULL, 0);
    expect_next_bank(&st, 1, 2);
}
END_TEST

START_TEST(test_without_wen_zun_a_led_pair_of_copper_hammers_is_an_ordinary_win)
{
    /* Stacks 2/0/2/4 with no ending: seat 0 2 x 2 = 4, seat 1 5, seat 2 2; seat 3 +11. */
    tg_state st;
    tg_options o = tg_options_default();
    start_hand(&st, &o, 0, 2, WEN_ZUN_FINAL_DEAL);
    play_steps(&st, WEN_ZUN_FINAL_STEPS);
    ck_assert_int_eq(try_step(&st, "1 d 1-6 1-6"), TG_OK);
    ck_assert_int_eq(try_step(&st, "2 d 3-5 1-2"), TG_OK);
    const int stacks[] = {2, 0, 2, 4};
    expect_over(&st, 3, stacks, 0);
    const expected_payment pay[] = {{0, 3, 4}, {1, 3, 5}, {2, 3, 2}};
    const int64_t net[] = {-4, -5, -2, 11};
    expect_money(&st, pay, 3, net);
}
END_TEST

/* ---- 四大包 ---- */

static const char *const QUARTET_FINAL_DEAL[] = {
    "1-1 1-1 1-5 1-5 3-5 2-4 2-3 1-4", "6-6 6-6 5-5 5-5 4-6 1-6 1-6 2-6",
    "1-3 1-3 4-4 4-4 2-5 3-4 3-6 4-5", "3-3 3-3 2-2 2-2 5-6 5-6 4-6 1-2"};
static const char *const QUARTET_FINAL_STEPS[] = {
    "0 p 1-1 1-1",         "1 p 6-6 6-6",         "2 d 3-6 4-5",         "3 d 3-3 3-3",         /* */
    "1 p 5-5 5-5",         "2 p 1-3 1-3",         "3 d 2-2 2-2",         "0 d 1-5 1-5",         /* */
    "2 p 4-4 4-4 2-5 3-4", "3 d 5-6 5-6 4-6 1-2", "0 d 3-5 2-4 2-3 1-4", "1 d 4-6 1-6 1-6 2-6", NULL};

START_TEST(test_final_trick_won_by_a_quartet_is_four_big_and_pays_no_bonus)
{
    /* Stacks 0/2/6/0, 四大包 x4, banker 0 (m 2): seat 0 5 x 2 x 4 = 40, seat 1 2 x 4 = 8,
     * seat 3 5 x 4 = 20; seat 2 +68. No 四大賀 on the final trick in either bonus mode. */
    for (int mode = 0; mode < 2; mode++) {
        tg_state st;
        tg_options o = tg_options_default();
        o.quartet_bonus = mode == 0 ? TG_QUARTET_BONUS_WINNER : TG_QUARTET_BONUS_APPEARANCE;
        start_hand(&st, &o, 0, 2, QUARTET_FINAL_DEAL);
        play_steps(&st, QUARTET_FINAL_STEPS);
        const int stacks[] = {0, 2, 6, 0};
        expect_over(&st, 2, stacks, TG_END_QUARTET);
        const expected_payment pay[] = {{0, 2, 40}, {1, 2, 8}, {3, 2, 20}};
        const int64_t net[] = {-40, -8, 68, -20};
        expect_money(&st, pay, 3, net);
        expect_bonuses(&st, NULL, 0);
    }
}
END_TEST

/* ---- 擒 ---- */

/* East 0 banks (m 2). South 1 leads the final 丁三 with 2 stacks, North 3 holds 大頭六. */
static const char *const QIN_DEAL[] = {
    "6-6 6-6 3-3 3-3 5-6 1-3 1-5 1-5", "1-1 1-2 5-5 5-5 2-6 4-6 4-6 3-5",
    "1-1 1-3 2-2 2-3 1-6 1-6 3-6 4-5", "4-4 4-4 5-6 2-4 2-2 2-5 3-4 1-4"};
static const char *const QIN_STEPS[] = {
    "0 p 6-6 6-6", "1 d 4-6 4-6", "2 d 3-6 4-5", "3 d 2-5 3-4", /* */
    "0 p 3-3 3-3", "1 d 2-6 3-5", "2 d 1-6 1-6", "3 p 4-4 4-4", /* */
    "3 p 5-6",     "0 d 1-3",     "1 d 5-5",     "2 p 1-3",     /* */
    "2 p 2-2",     "3 d 2-2",     "0 d 1-5",     "1 p 5-5",     /* */
    "1 p 1-1",     "2 d 1-1",     "3 d 1-4",     "0 d 5-6",     /* */
    "1 p 1-2",     NULL};

/* Example G: stacks 2/2/1/3; a = 4, 2, 3; South pays (4 + 2 + 3) x 4 = 36. */
static const int QIN_STACKS[] = {2, 2, 1, 3};

static void play_qin(tg_state *st, const tg_options *o, bool west_beats_first)
{
    start_hand(st, o, 0, 2, QIN_DEAL);
    play_steps(st, QIN_STEPS);
    ck_assert_int_eq(try_step(st, west_beats_first ? "2 p 2-3" : "2 d 2-3"), TG_OK);
    ck_assert_int_eq(try_step(st, "3 p 2-4"), TG_OK);
    ck_assert_int_eq(try_step(st, "0 d 1-5"), TG_OK);
}

START_TEST(test_ding_san_captured_by_big_head_six_is_qin_as_in_example_g)
{
    tg_state st;
    tg_options o = tg_options_default();
    play_qin(&st, &o, false);
    expect_over(&st, 3, QIN_STACKS, TG_END_QIN);
    ck_assert_int_eq(st.result.qin_captured, 1);
    const expected_payment pay[] = {{1, 3, 36}};
    const int64_t net[] = {0, -36, 0, 36};
    expect_money(&st, pay, 1, net);
    expect_next_bank(&st, 3, 2);
}
END_TEST

START_TEST(test_qin_holds_when_another_military_tile_beat_the_ding_san_first)
{
    /* West (1 stack, so eligible for a final single) beats the 丁三 with 2-3 first. */
    tg_state st;
    tg_options o = tg_options_default();
    play_qin(&st, &o, true);
    expect_over(&st, 3, QIN_STACKS, TG_END_QIN);
    ck_assert_int_eq(st.result.qin_captured, 1);
    const expected_payment pay[] = {{1, 3, 36}};
    const int64_t net[] = {0, -36, 0, 36};
    expect_money(&st, pay, 1, net);
}
END_TEST

START_TEST(test_qin_without_qin_pays_all_each_loser_pays_its_share)
{
    /* Example G: East 16, South 8, West 12; North +36. With qin_multiplier 2: 8, 4, 6. */
    tg_state st;
    tg_options o = tg_options_default();
    o.qin_pays_all = false;
    play_qin(&st, &o, false);
    expect_over(&st, 3, QIN_STACKS, TG_END_QIN);
    const expected_payment pay[] = {{0, 3, 16}, {1, 3, 8}, {2, 3, 12}};
    const int64_t net[] = {-16, -8, -12, 36};
    expect_money(&st, pay, 3, net);

    o.qin_multiplier = 2;
    play_qin(&st, &o, true);
    const expected_payment half[] = {{0, 3, 8}, {1, 3, 4}, {2, 3, 6}};
    const int64_t half_net[] = {-8, -4, -6, 18};
    expect_money(&st, half, 3, half_net);
}
END_TEST

START_TEST(test_qin_of_ding_san_still_holds_with_wen_zun)
{
    tg_state st;
    tg_options o = with_wen_zun();
    play_qin(&st, &o, false);
    expect_over(&st, 3, QIN_STACKS, TG_END_QIN);
    const int64_t net[] = {0, -36, 0, 36};
    const expected_payment pay[] = {{1, 3, 36}};
    expect_money(&st, pay, 1, net);
}
END_TEST

/* The 擒 hand with the 1-2 and 2-4 exchanged for a 1-5 (South) and a 1-6 (North). */
static const char *const QIN_WEN_DEAL[] = {
    "6-6 6-6 3-3 3-3 5-6 1-3 1-5 1-2", "1-1 1-5 5-5 5-5 2-6 4-6 4-6 3-5",
    "1-1 1-3 2-2 2-3 1-6 2-4 3-6 4-5", "4-4 4-4 5-6 1-6 2-2 2-5 3-4 1-4"};
static const char *const QIN_WEN_STEPS[] = {
    "0 p 6-6 6-6", "1 d 4-6 4-6", "2 d 3-6 4-5", "3 d 2-5 3-4", /* */
    "0 p 3-3 3-3", "1 d 2-6 3-5", "2 d 1-6 2-4", "3 p 4-4 4-4", /* */
    "3 p 5-6",     "0 d 1-3",     "1 d 5-5",     "2 p 1-3",     /* */
    "2 p 2-2",     "3 d 2-2",     "0 d 1-5",     "1 p 5-5",     /* */
    "1 p 1-1",     "2 d 1-1",     "3 d 1-4",     "0 d 5-6",     /* */
    "1 p 1-5",     "2 d 2-3",     "3 p 1-6",     "0 d 1-2",     NULL};

START_TEST(test_with_wen_zun_copper_hammer_captured_by_long_leg_seven_is_qin)
{
    tg_state st;
    tg_options o = with_wen_zun();
    start_hand(&st, &o, 0, 2, QIN_WEN_DEAL);
    play_steps(&st, QIN_WEN_STEPS);
    expect_over(&st, 3, QIN_STACKS, TG_END_QIN);
    ck_assert_int_eq(st.result.qin_captured, 1);
    const expected_payment pay[] = {{1, 3, 36}};
    const int64_t net[] = {0, -36, 0, 36};
    expect_money(&st, pay, 1, net);
}
END_TEST

START_TEST(test_without_wen_zun_copper_hammer_beaten_by_long_leg_seven_is_an_ordinary_win)
{
    /* Stacks 2/2/1/3, no ending: East 2 x 2 = 4, South 2, West 3; North +9. */
    tg_state st;
    tg_options o = tg_options_default();
    start_hand(&st, &o, 0, 2, QIN_WEN_DEAL);
    play_steps(&st, QIN_WEN_STEPS);
    expect_over(&st, 3, QIN_STACKS, 0);
    const expected_payment pay[] = {{0, 3, 4}, {1, 3, 2}, {2, 3, 3}};
    const int64_t net[] = {-4, -2, -3, 9};
    expect_money(&st, pay, 3, net);
}
END_TEST

/* ---- bonuses (§5) ---- */

START_TEST(test_banker_leading_supreme_collects_two_m_from_each)
{
    /* Banker 0 (m 3) leads 至尊 first: 2 x 3 = 6 from each of 1, 2, 3. Seat 1 wins the hand
     * with 4 stacks; the banker's 4 stacks owe nothing; seats 2 and 3 pay 5.
     * Net: 18 / -6 + 10 / -6 - 5 / -6 - 5. */
    static const char *const deal[] = {"1-2 2-4 6-6 6-6 1-5 1-5 1-6 1-6", "4-4 4-4 1-1 1-1 5-6 4-6 3-6 4-5",
                                       "1-3 1-3 5-5 5-5 3-3 3-3 2-6 3-5", "2-2 2-2 5-6 4-6 2-5 3-4 2-3 1-4"};
    static const char *const steps[] = {
        "0 p 1-2 2-4", "1 d 3-6 4-5", "2 d 2-6 3-5", "3 d 2-5 3-4", /* */
        "0 p 6-6 6-6", "1 d 5-6 4-6", "2 d 3-3 3-3", "3 d 2-3 1-4", /* */
        "0 p 1-5 1-5", "1 p 4-4 4-4", "2 d 5-5 5-5", "3 d 5-6 4-6", /* */
        "1 p 1-1 1-1", "2 d 1-3 1-3", "3 d 2-2 2-2", "0 d 1-6 1-6", NULL};
    tg_state st;
    tg_options o = tg_options_default();
    start_hand(&st, &o, 0, 3, deal);
    play_steps(&st, steps);
    const int stacks[] = {4, 4, 0, 0};
    expect_over(&st, 1, stacks, 0);
    const expected_bonus bonus[] = {
        {TG_BONUS_HE_ZUN, 0, 1, 0, 6}, {TG_BONUS_HE_ZUN, 0, 2, 0, 6}, {TG_BONUS_HE_ZUN, 0, 3, 0, 6}};
    expect_bonuses(&st, bonus, 3);
    const expected_payment pay[] = {{2, 1, 5}, {3, 1, 5}};
    const int64_t net[] = {18, 4, -11, -11};
    expect_money(&st, pay, 2, net);
    expect_next_bank(&st, 1, 2);
}
END_TEST

START_TEST(test_banker_pays_two_m_for_another_players_supreme)
{
    /* Seat 1 leads 至尊 in trick 2: seats 2 and 3 pay 2, banker 0 (m 3) pays 6, payers in play
     * order from the leader. The banker then wins the final pair with 2 stacks against seat 1's
     * 6: the 入二 is -2 x 3 = -6 (the winner banks); seats 2 and 3 pay 5 x 3 = 15.
     * Net: -6 + 30 - 6 = 18 / 10 + 6 = 16 / -2 - 15 / -2 - 15. */
    static const char *const deal[] = {"1-5 1-5 6-6 6-6 3-6 4-5 2-6 3-5", "4-4 4-4 1-2 2-4 1-1 1-1 1-6 1-6",
                                       "1-3 1-3 5-5 5-5 3-3 3-3 2-5 3-4", "2-2 2-2 5-6 5-6 4-6 4-6 2-3 1-4"};
    static const char *const steps[] = {
        "0 p 1-5 1-5", "1 p 4-4 4-4", "2 d 1-3 1-3", "3 d 2-2 2-2", /* */
        "1 p 1-2 2-4", "2 d 5-5 5-5", "3 d 5-6 5-6", "0 d 3-6 4-5", /* */
        "1 p 1-1 1-1", "2 d 3-3 3-3", "3 d 4-6 4-6", "0 d 2-6 3-5", /* */
        "1 p 1-6 1-6", "2 d 2-5 3-4", "3 d 2-3 1-4", "0 p 6-6 6-6", NULL};
    tg_state st;
    tg_options o = tg_options_default();
    start_hand(&st, &o, 0, 3, deal);
    play_steps(&st, steps);
    const int stacks[] = {2, 6, 0, 0};
    expect_over(&st, 0, stacks, 0);
    const expected_bonus bonus[] = {
        {TG_BONUS_HE_ZUN, 1, 2, 1, 2}, {TG_BONUS_HE_ZUN, 1, 3, 1, 2}, {TG_BONUS_HE_ZUN, 1, 0, 1, 6}};
    expect_bonuses(&st, bonus, 3);
    const expected_payment pay[] = {{0, 1, 6}, {2, 0, 15}, {3, 0, 15}};
    const int64_t net[] = {18, 16, -17, -17};
    expect_money(&st, pay, 3, net);
    expect_next_bank(&st, 0, 4);
}
END_TEST

/* Banker 0 leads the pair of 1-5 first; seat 2 holds the pair of 1-6. */
static const char *const WEN_ZUN_LEAD_DEAL[] = {
    "1-5 1-5 4-6 4-6 3-6 4-5 2-6 2-4", "4-4 4-4 2-2 2-2 5-6 5-6 1-3 3-4",
    "1-6 1-6 6-6 6-6 1-1 1-1 3-3 3-3", "5-5 5-5 1-3 2-5 3-5 2-3 1-4 1-2"};
static const char *const WEN_ZUN_CAPTURED_STEPS[] = {
    "0 p 1-5 1-5", "1 d 2-2 2-2", "2 p 1-6 1-6", "3 d 2-3 1-4", /* */
    "2 p 6-6 6-6", "3 d 2-5 3-5", "0 d 4-6 4-6", "1 d 5-6 5-6", /* */
    "2 p 1-1 1-1", "3 d 1-3 1-2", "0 d 3-6 4-5", "1 d 4-4 4-4", /* */
    "2 p 3-3 3-3", "3 p 5-5 5-5", "0 d 2-6 2-4", "1 d 1-3 3-4", NULL};

START_TEST(test_with_wen_zun_the_capturer_of_a_wen_zun_collects_qin_zun)
{
    /* Seat 2 captures in trick 1 and collects: banker 0 pays 2 x 2 = 4, seats 1 and 3 pay 2.
     * Seat 3 wins the final pair: stacks 0/0/6/2. Seat 0 5 x 2 = 10, seat 1 5, seat 2's 入二
     * is paid back 2. Net: -4 - 10 / -2 - 5 / 8 + 2 / -2 + 13. */
    tg_state st;
    tg_options o = with_wen_zun();
    start_hand(&st, &o, 0, 2, WEN_ZUN_LEAD_DEAL);
    play_steps(&st, WEN_ZUN_CAPTURED_STEPS);
    const int stacks[] = {0, 0, 6, 2};
    expect_over(&st, 3, stacks, 0);
    const expected_bonus bonus[] = {
        {TG_BONUS_QIN_ZUN, 0, 0, 2, 4}, {TG_BONUS_QIN_ZUN, 0, 1, 2, 2}, {TG_BONUS_QIN_ZUN, 0, 3, 2, 2}};
    expect_bonuses(&st, bonus, 3);
    const expected_payment pay[] = {{0, 3, 10}, {1, 3, 5}, {3, 2, 2}};
    const int64_t net[] = {-14, -7, 10, 11};
    expect_money(&st, pay, 3, net);
}
END_TEST

START_TEST(test_without_wen_zun_beating_a_pair_of_copper_hammers_pays_no_bonus)
{
    tg_state st;
    tg_options o = tg_options_default();
    start_hand(&st, &o, 0, 2, WEN_ZUN_LEAD_DEAL);
    play_steps(&st, WEN_ZUN_CAPTURED_STEPS);
    const int stacks[] = {0, 0, 6, 2};
    expect_over(&st, 3, stacks, 0);
    expect_bonuses(&st, NULL, 0);
    const expected_payment pay[] = {{0, 3, 10}, {1, 3, 5}, {3, 2, 2}};
    const int64_t net[] = {-10, -5, 2, 13};
    expect_money(&st, pay, 3, net);
}
END_TEST

START_TEST(test_with_wen_zun_an_uncaptured_wen_zun_lead_collects_he_zun)
{
    /* Seat 2 discards its 1-6 pair: the banker's 文尊 stands and collects 2 x 2 = 4 from each.
     * Seat 2 wins with 4 stacks; the banker's 4 owe nothing, seats 1 and 3 pay 5.
     * Net: 12 / -4 - 5 / -4 + 10 / -4 - 5. */
    static const char *const steps[] = {
        "0 p 1-5 1-5", "1 d 2-2 2-2", "2 d 1-6 1-6", "3 d 2-3 1-4", /* */
        "0 p 3-6 4-5", "1 d 5-6 5-6", "2 d 3-3 3-3", "3 d 2-5 3-5", /* */
        "0 p 4-6 4-6", "1 d 4-4 4-4", "2 p 6-6 6-6", "3 d 5-5 5-5", /* */
        "2 p 1-1 1-1", "3 d 1-3 1-2", "0 d 2-6 2-4", "1 d 1-3 3-4", NULL};
    tg_state st;
    tg_options o = with_wen_zun();
    start_hand(&st, &o, 0, 2, WEN_ZUN_LEAD_DEAL);
    play_steps(&st, steps);
    const int stacks[] = {4, 0, 4, 0};
    expect_over(&st, 2, stacks, 0);
    const expected_bonus bonus[] = {
        {TG_BONUS_HE_ZUN, 0, 1, 0, 4}, {TG_BONUS_HE_ZUN, 0, 2, 0, 4}, {TG_BONUS_HE_ZUN, 0, 3, 0, 4}};
    expect_bonuses(&st, bonus, 3);
    const expected_payment pay[] = {{1, 2, 5}, {3, 2, 5}};
    const int64_t net[] = {12, -9, 6, -9};
    expect_money(&st, pay, 2, net);
}
END_TEST

/* Banker 0 leads 和和55, seat 1 discards 地地88 (a discarded quartet is not played, so it never
 * collects), seat 2 beats with 人人77; seat 3 wins the final pair. */
static const char *const QUARTET_BONUS_DEAL[] = {
    "1-3 1-3 2-3 1-4 3-3 3-6 4-5 1-2", "1-1 1-1 2-6 3-5 5-6 5-6 4-6 4-6",
    "4-4 4-4 2-5 3-4 6-6 6-6 2-2 2-2", "5-5 5-5 1-6 1-6 1-5 1-5 3-3 2-4"};
static const char *const QUARTET_BONUS_STEPS[] = {
    "0 p 1-3 1-3 2-3 1-4", "1 d 1-1 1-1 2-6 3-5", "2 p 4-4 4-4 2-5 3-4", "3 d 1-6 1-6 1-5 1-5", /* */
    "2 p 6-6 6-6",         "3 d 3-3 2-4",         "0 d 3-3 1-2",         "1 d 4-6 4-6",         /* */
    "2 p 2-2 2-2",         "3 p 5-5 5-5",         "0 d 3-6 4-5",         "1 d 5-6 5-6",         NULL};

/* Stacks 0/0/6/2, seat 3 wins: banker 0 pays 5 x 2 = 10, seat 1 5, seat 3 refunds seat 2 2. */
static const int QUARTET_BONUS_STACKS[] = {0, 0, 6, 2};
static const expected_payment QUARTET_BONUS_PAY[] = {{0, 3, 10}, {1, 3, 5}, {3, 2, 2}};

START_TEST(test_a_trick_won_by_a_quartet_pays_four_to_the_winner)
{
    /* 四大賀 to seat 2: the banker pays 4 x 2 = 8, seats 1 and 3 pay 4.
     * Net: -8 - 10 / -4 - 5 / 16 + 2 / -4 + 13. */
    tg_state st;
    tg_options o = tg_options_default();
    start_hand(&st, &o, 0, 2, QUARTET_BONUS_DEAL);
    play_steps(&st, QUARTET_BONUS_STEPS);
    expect_over(&st, 3, QUARTET_BONUS_STACKS, 0);
    const expected_bonus bonus[] = {
        {TG_BONUS_QUARTET, 0, 0, 2, 8}, {TG_BONUS_QUARTET, 0, 1, 2, 4}, {TG_BONUS_QUARTET, 0, 3, 2, 4}};
    expect_bonuses(&st, bonus, 3);
    const int64_t net[] = {-18, -9, 18, 9};
    expect_money(&st, QUARTET_BONUS_PAY, 3, net);
}
END_TEST

START_TEST(test_in_appearance_mode_every_quartet_played_collects)
{
    /* The led 和和55 (banker 0, collecting 8 from each) and the winning 人人77 (seat 2: 8 from the
     * banker, 4 from seats 1 and 3) both collect; collectors in play order from the leader.
     * Bonus nets 16 / -12 / 8 / -12, plus the settlement -10 / -5 / 2 / 13. */
    tg_state st;
    tg_options o = tg_options_default();
    o.quartet_bonus = TG_QUARTET_BONUS_APPEARANCE;
    start_hand(&st, &o, 0, 2, QUARTET_BONUS_DEAL);
    play_steps(&st, QUARTET_BONUS_STEPS);
    expect_over(&st, 3, QUARTET_BONUS_STACKS, 0);
    const expected_bonus bonus[] = {
        {TG_BONUS_QUARTET, 0, 1, 0, 8}, {TG_BONUS_QUARTET, 0, 2, 0, 8}, {TG_BONUS_QUARTET, 0, 3, 0, 8},
        {TG_BONUS_QUARTET, 0, 0, 2, 8}, {TG_BONUS_QUARTET, 0, 1, 2, 4}, {TG_BONUS_QUARTET, 0, 3, 2, 4}};
    expect_bonuses(&st, bonus, 6);
    const int64_t net[] = {6, -17, 10, 1};
    expect_money(&st, QUARTET_BONUS_PAY, 3, net);
}
END_TEST

START_TEST(test_bonuses_are_listed_in_trick_order)
{
    /* Trick 0: banker 0 (m 2) leads 至尊, 4 from each. Trick 1: seat 1's 人人77 beats the banker's
     * 和和55: 8 from the banker, 4 from seats 2 and 3. Seat 1 wins the final 天 pair with 6
     * stacks against the banker's 2: 2 x 2 = 4, seats 2 and 3 pay 5.
     * Net: 12 - 8 - 4 / -4 + 16 + 14 / -4 - 4 - 5 / -4 - 4 - 5. */
    static const char *const deal[] = {"1-2 2-4 1-3 1-3 2-3 1-4 1-5 1-5", "4-4 4-4 2-5 3-4 6-6 6-6 5-6 5-6",
                                       "1-1 5-5 5-5 3-3 3-3 4-6 1-6 3-6", "1-1 2-2 2-2 4-6 1-6 4-5 2-6 3-5"};
    static const char *const steps[] = {
        "0 p 1-2 2-4",         "1 d 5-6 5-6",         "2 d 3-3 3-3",         "3 d 2-2 2-2",         /* */
        "0 p 1-3 1-3 2-3 1-4", "1 p 4-4 4-4 2-5 3-4", "2 d 1-1 5-5 5-5 4-6", "3 d 1-1 4-6 4-5 2-6", /* */
        "1 p 6-6 6-6",         "2 d 1-6 3-6",         "3 d 1-6 3-5",         "0 d 1-5 1-5",         NULL};
    tg_state st;
    tg_options o = tg_options_default();
    start_hand(&st, &o, 0, 2, deal);
    play_steps(&st, steps);
    const int stacks[] = {2, 6, 0, 0};
    expect_over(&st, 1, stacks, 0);
    const expected_bonus bonus[] = {
        {TG_BONUS_HE_ZUN, 0, 1, 0, 4},  {TG_BONUS_HE_ZUN, 0, 2, 0, 4},  {TG_BONUS_HE_ZUN, 0, 3, 0, 4},
        {TG_BONUS_QUARTET, 1, 0, 1, 8}, {TG_BONUS_QUARTET, 1, 2, 1, 4}, {TG_BONUS_QUARTET, 1, 3, 1, 4}};
    expect_bonuses(&st, bonus, 6);
    const expected_payment pay[] = {{0, 1, 4}, {2, 1, 5}, {3, 1, 5}};
    const int64_t net[] = {0, 26, -13, -13};
    expect_money(&st, pay, 3, net);
}
END_TEST

/* ---- rules/examples/tiengow-replay.json ---- */

START_TEST(test_the_worked_replay_gives_its_recorded_answer)
{
    static const char *const deal[] = {"1-2 1-5 2-4 2-6 4-4 4-4 4-5 6-6", "1-4 1-6 1-6 2-2 2-3 3-6 5-5 5-5",
                                       "1-1 2-2 2-5 3-3 3-3 3-4 3-5 6-6", "1-1 1-3 1-3 1-5 4-6 4-6 5-6 5-6"};
    static const char *const steps[] = {
        "3 p 1-3 1-3", "0 p 4-4 4-4", "1 d 1-6 1-6", "2 d 3-4 6-6", /* */
        "0 p 4-5 6-6", "1 d 1-4 2-3", "2 d 2-2 3-3", "3 d 1-5 4-6", /* */
        "0 p 1-2 2-4", "1 d 2-2 5-5", "2 d 1-1 3-3", "3 d 4-6 5-6", /* */
        "0 p 2-6",     "1 d 5-5",     "2 d 3-5",     "3 d 5-6",     /* */
        "0 p 1-5",     "1 d 3-6",     "2 d 2-5",     "3 d 1-1",     NULL};
    static const int trick_tiles[] = {2, 2, 2, 1, 1};
    tg_state st;
    tg_options o = tg_options_default();
    start_hand(&st, &o, 3, 2, deal);
    play_steps(&st, steps);

    ck_assert_int_eq(st.n_tricks, 5);
    for (int t = 0; t < 5; t++) {
        ck_assert_int_eq(st.tricks[t].leader, t == 0 ? 3 : 0);
        ck_assert_int_eq(st.tricks[t].winner, 0);
        ck_assert_int_eq(st.tricks[t].n, trick_tiles[t]);
    }
    const expected_bonus bonus[] = {
        {TG_BONUS_HE_ZUN, 2, 1, 0, 2}, {TG_BONUS_HE_ZUN, 2, 2, 0, 2}, {TG_BONUS_HE_ZUN, 2, 3, 0, 4}};
    expect_bonuses(&st, bonus, 3);
    const int stacks[] = {8, 0, 0, 0};
    expect_over(&st, 0, stacks, TG_END_SEVEN);
    const expected_payment pay[] = {{1, 0, 10}, {2, 0, 10}, {3, 0, 20}};
    const int64_t net[] = {48, -12, -12, -24};
    expect_money(&st, pay, 3, net);
    expect_next_bank(&st, 0, 2);
}
END_TEST

static Suite *endings_suite(void)
{
    Suite *s = suite_create("tg_endings");
    TCase *shutout = tcase_create("eight and seven");
    tcase_add_test(shutout, test_eight_stacks_with_a_final_pair_is_eight);
    tcase_add_test(shutout, test_eight_stacks_on_a_single_final_nobody_outranks_is_eight);
    tcase_add_test(shutout, test_a_barred_players_higher_tile_of_the_same_suit_makes_it_seven);
    tcase_add_test(shutout, test_an_equal_final_tile_does_not_outrank);
    tcase_add_test(shutout, test_a_higher_tile_of_the_other_suit_does_not_outrank);
    suite_add_tcase(s, shutout);

    TCase *final = tcase_create("final trick endings");
    tcase_add_test(final, test_final_trick_won_by_a_single_ding_san_is_yao);
    tcase_add_test(final, test_with_wen_zun_a_single_copper_hammer_winning_the_final_is_yao);
    tcase_add_test(final, test_without_wen_zun_a_single_copper_hammer_is_an_ordinary_win);
    tcase_add_test(final, test_a_supreme_led_on_the_final_trick_is_zun_without_he_zun);
    tcase_add_test(final, test_with_wen_zun_an_uncaptured_led_wen_zun_on_the_final_is_zun);
    tcase_add_test(final, test_with_wen_zun_a_captured_wen_zun_on_the_final_is_an_ordinary_win);
    tcase_add_test(final, test_without_wen_zun_a_led_pair_of_copper_hammers_is_an_ordinary_win);
    tcase_add_test(final, test_final_trick_won_by_a_quartet_is_four_big_and_pays_no_bonus);
    suite_add_tcase(s, final);

    TCase *qin = tcase_create("qin");
    tcase_add_test(qin, test_ding_san_captured_by_big_head_six_is_qin_as_in_example_g);
    tcase_add_test(qin, test_qin_holds_when_another_military_tile_beat_the_ding_san_first);
    tcase_add_test(qin, test_qin_without_qin_pays_all_each_loser_pays_its_share);
    tcase_add_test(qin, test_qin_of_ding_san_still_holds_with_wen_zun);
    tcase_add_test(qin, test_with_wen_zun_copper_hammer_captured_by_long_leg_seven_is_qin);
    tcase_add_test(qin, test_without_wen_zun_copper_hammer_beaten_by_long_leg_seven_is_an_ordinary_win);
    suite_add_tcase(s, qin);

    TCase *bonuses = tcase_create("bonuses");
    tcase_add_test(bonuses, test_banker_leading_supreme_collects_two_m_from_each);
    tcase_add_test(bonuses, test_banker_pays_two_m_for_another_players_supreme);
    tcase_add_test(bonuses, test_with_wen_zun_the_capturer_of_a_wen_zun_collects_qin_zun);
    tcase_add_test(bonuses, test_without_wen_zun_beating_a_pair_of_copper_hammers_pays_no_bonus);
    tcase_add_test(bonuses, test_with_wen_zun_an_uncaptured_wen_zun_lead_collects_he_zun);
    tcase_add_test(bonuses, test_a_trick_won_by_a_quartet_pays_four_to_the_winner);
    tcase_add_test(bonuses, test_in_appearance_mode_every_quartet_played_collects);
    tcase_add_test(bonuses, test_bonuses_are_listed_in_trick_order);
    suite_add_tcase(s, bonuses);

    TCase *replay = tcase_create("worked replay");
    tcase_add_test(replay, test_the_worked_replay_gives_its_recorded_answer);
    suite_add_tcase(s, replay);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(endings_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
