/*
 * test_tg_bot — the Tien Gow bot (engine/tg_bot.h): it always returns a legal action from its
 * seat's view, declines when it is not its turn, and makes the plays the rules call for in
 * positions where only one answer is right (rules/tiengow.md):
 *  - discarding, it gives up its weakest tiles (§1 ranks);
 *  - on the final trick it plays a beating combination whenever it may, since only the final
 *    trick's winner wins the hand and a discard can never win it (§3);
 *  - leading with every tile in one combination it plays them all;
 *  - leading 至尊 collects 賀尊 and nothing can beat it (§2, §5), so it leads it;
 * and, over a fixed set of seeded hands against players who pick uniformly among their legal
 * actions, its mean net is positive.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rng.h"
#include "tg_bot.h"
#include "tg_hand.h"
#include "tg_view.h"

/* ---- helpers ---- */

/* Parses space-separated tile names ("1-2 6-6 ...") into kinds; returns how many. */
static int parse_tiles(const char *text, uint8_t *out, int cap)
{
    int n = 0;
    for (const char *p = text; *p != '\0';) {
        if (*p == ' ') {
            p++;
            continue;
        }
        char name[4] = {p[0], p[1], p[1] ? p[2] : '\0', '\0'};
        int kind = tg_tile_parse(name);
        ck_assert_msg(kind >= 0 && n < cap, "bad tiles \"%s\"", text);
        out[n++] = (uint8_t)kind;
        p += 3;
    }
    return n;
}

/* Starts a hand with default options from four hands written as tile names. */
static void start_hand(tg_state *st, int banker, const char *const hands[TG_SEATS])
{
    uint8_t deal[TG_SEATS][TG_HAND_TILES];
    for (int s = 0; s < TG_SEATS; s++)
        ck_assert_int_eq(parse_tiles(hands[s], deal[s], TG_HAND_TILES), TG_HAND_TILES);
    tg_options options = tg_options_default();
    ck_assert_int_eq(tg_start(st, &options, banker, 2, (const uint8_t(*)[TG_HAND_TILES])deal), TG_OK);
    ck_assert(!tg_is_over(st));
}

/* Applies one action given as tile names; it must be legal. */
static void act(tg_state *st, int seat, tg_action_kind kind, const char *tiles)
{
    uint8_t kinds[4];
    int n = parse_tiles(tiles, kinds, 4);
    tg_action a = tg_action_make(seat, kind, kinds, n);
    ck_assert_int_eq(tg_apply_action(st, &a), TG_OK);
}

/* The bot's action for the seat to act, which must be chosen. */
static tg_action bot_action(const tg_state *st)
{
    static tg_view view;
    tg_action a;
    tg_view_of(st, st->to_act, &view);
    ck_assert(tg_bot_choose(&view, &a));
    return a;
}

/* True if the action is this kind with exactly these tiles (names, any order). */
static bool action_is(const tg_action *a, tg_action_kind kind, const char *tiles)
{
    uint8_t kinds[4];
    int n = parse_tiles(tiles, kinds, 4);
    tg_action want = tg_action_make(a->seat, kind, kinds, n);
    return a->kind == want.kind && a->n == want.n && memcmp(a->tiles, want.tiles, (size_t)a->n) == 0;
}

static void format_action(const tg_action *a, char out[32])
{
    int len = snprintf(out, 32, "%s", a->kind == TG_PLAY ? "play" : "discard");
    for (int i = 0; i < a->n && len < 27; i++) {
        char name[4];
        tg_tile_format(a->tiles[i], name);
        len += snprintf(out + len, (size_t)(32 - len), " %s", name);
    }
}

static tg_options random_options(rng_state *rng)
{
    tg_options o = tg_options_default();
    o.wen_zun = rng_below(rng, 2);
    o.rotation = (uint8_t)rng_below(rng, 2);
    o.qin_multiplier = rng_below(rng, 2) ? 4 : 2;
    o.qin_pays_all = rng_below(rng, 2);
    o.quartet_bonus = (uint8_t)rng_below(rng, 2);
    o.seven_civil = rng_below(rng, 4) == 0;
    o.eight_military = rng_below(rng, 4) == 0;
    o.four_pairs = rng_below(rng, 4) == 0;
    return o;
}

/* The seat to act's place in the open trick: 0 when it leads, else how many acted before it. */
static int trick_position(const tg_state *st)
{
    const tg_trick *t = tg_open_trick(st);
    return t == NULL ? 0 : t->count;
}

/* ---- legality and turns ---- */

/*
 * Over many seeded hands with random options (文尊 among them), the bot is asked at every turn
 * of every seat; each answer must pass the engine's own check and be the same when asked again.
 * The hands go on with the bot's action or a random legal one, so every seat meets every place
 * in a trick, the final trick included.
 */
START_TEST(test_bot_always_chooses_a_legal_action)
{
    static tg_state st;
    static tg_view view;
    long asked[TG_SEATS][TG_SEATS] = {{0}}, asked_final[TG_SEATS] = {0};
    rng_state rng;
    rng_seed(&rng, 20261122);
    for (int hand = 0; hand < 3000; hand++) {
        uint8_t deal[TG_SEATS][TG_HAND_TILES];
        tg_options options = random_options(&rng);
        tg_deal(rng_next(&rng), deal);
        int banker = (int)rng_below(&rng, TG_SEATS);
        uint32_t multiplier = 2 + rng_below(&rng, 4);
        ck_assert_int_eq(tg_start(&st, &options, banker, multiplier, (const uint8_t(*)[TG_HAND_TILES])deal), TG_OK);
        while (!tg_is_over(&st)) {
            int seat = st.to_act;
            tg_action chosen, again;
            tg_view_of(&st, seat, &view);
            ck_assert(tg_bot_choose(&view, &chosen));
            ck_assert(tg_bot_choose(&view, &again));
            ck_assert_int_eq(chosen.seat, seat);
            ck_assert_msg(memcmp(&chosen, &again, sizeof chosen) == 0, "hand %d: same view, other action", hand);
            tg_status status = tg_check_action(&st, &chosen);
            ck_assert_msg(status == TG_OK, "hand %d seat %d: illegal bot action (%s)", hand, seat,
                          tg_status_name(status));
            const tg_trick *open = tg_open_trick(&st);
            asked[seat][trick_position(&st)]++;
            if (open != NULL && open->final)
                asked_final[trick_position(&st)]++;
            if (rng_below(&rng, 2) == 0) {
                tg_action legal[TG_MAX_ACTIONS];
                int count = tg_legal_actions(&st, seat, legal, TG_MAX_ACTIONS);
                ck_assert_int_gt(count, 0);
                chosen = legal[rng_below(&rng, (uint32_t)count)];
            }
            ck_assert_int_eq(tg_apply_action(&st, &chosen), TG_OK);
        }
    }
    for (int s = 0; s < TG_SEATS; s++)
        for (int p = 0; p < TG_SEATS; p++)
            ck_assert_msg(asked[s][p] > 0, "seat %d never asked at place %d of a trick", s, p);
    for (int p = 1; p < TG_SEATS; p++)
        ck_assert_msg(asked_final[p] > 0, "never asked at place %d of a final trick", p);
}
END_TEST

START_TEST(test_bot_declines_when_it_is_not_its_turn)
{
    static tg_state st;
    static tg_view view;
    uint8_t deal[TG_SEATS][TG_HAND_TILES];
    tg_options options = tg_options_default();
    uint64_t seed = 7;
    do { /* a hand that is played, not ended at once by a natural hand */
        tg_deal(seed++, deal);
        ck_assert_int_eq(tg_start(&st, &options, 2, 2, (const uint8_t(*)[TG_HAND_TILES])deal), TG_OK);
    } while (tg_is_over(&st));
    tg_action a;
    for (int s = 0; s < TG_SEATS; s++) {
        tg_view_of(&st, s, &view);
        ck_assert_int_eq(tg_bot_choose(&view, &a), s == 2);
    }
    tg_view_of(&st, TG_SPECTATOR, &view);
    ck_assert(!tg_bot_choose(&view, &a));

    while (!tg_is_over(&st)) { /* the bot plays the hand out for everyone */
        tg_view_of(&st, st.to_act, &view);
        ck_assert(tg_bot_choose(&view, &a));
        ck_assert_int_eq(tg_apply_action(&st, &a), TG_OK);
    }
    for (int s = 0; s < TG_SEATS; s++) {
        tg_view_of(&st, s, &view);
        ck_assert(!tg_bot_choose(&view, &a));
    }
}
END_TEST

/* ---- positions with one right answer ---- */

/*
 * Seat 2 holds eight civil tiles with no two alike, so no combination but singles, and seat 1
 * leads military: seat 2 can only discard. Its weakest tiles by §1 are 銅錘六 (1-5, rank 11),
 * then 板凳 (2-2, rank 7).
 */
static const char *const DISCARD_DEAL[TG_SEATS] = {
    "6-6 1-1 4-4 1-3 5-6 5-6 3-5 2-6",
    "4-5 3-6 5-5 3-3 2-2 1-5 4-6 4-6",
    "6-6 1-1 4-4 1-3 5-5 3-3 2-2 1-5",
    "1-6 1-6 2-5 3-4 2-4 2-3 1-4 1-2",
};

START_TEST(test_bot_discards_its_weakest_tile)
{
    static tg_state st;
    start_hand(&st, 1, DISCARD_DEAL);
    act(&st, 1, TG_PLAY, "4-5");
    tg_action a = bot_action(&st);
    char text[32];
    format_action(&a, text);
    ck_assert_msg(action_is(&a, TG_DISCARD, "1-5"), "chose %s", text);
}
END_TEST

START_TEST(test_bot_discards_its_two_weakest_tiles)
{
    static tg_state st;
    start_hand(&st, 1, DISCARD_DEAL);
    act(&st, 1, TG_PLAY, "3-6 4-5"); /* 雜九, a military pair */
    tg_action a = bot_action(&st);
    char text[32];
    format_action(&a, text);
    ck_assert_msg(action_is(&a, TG_DISCARD, "2-2 1-5"), "chose %s", text);
}
END_TEST

/*
 * Seat 0 holds two quartets, 人人77 and 地地88; seat 1 holds 天天99 and four loose tiles. Seat 0
 * leads 人人77 and everyone discards; seat 0 then leads 地地88, its whole hand, as the final trick.
 */
static const char *const QUARTET_DEAL[TG_SEATS] = {
    "4-4 4-4 2-5 3-4 1-1 1-1 2-6 3-5",
    "6-6 6-6 3-6 4-5 2-2 2-2 1-5 5-6",
    "1-3 1-3 5-5 5-5 3-3 4-6 1-6 2-4",
    "3-3 5-6 4-6 1-6 1-5 2-3 1-4 1-2",
};

static void play_first_quartet_trick(tg_state *st)
{
    act(st, 0, TG_PLAY, "4-4 4-4 2-5 3-4");
    act(st, 1, TG_DISCARD, "2-2 2-2 1-5 5-6");
    act(st, 2, TG_DISCARD, "1-3 1-3 5-5 5-5");
    act(st, 3, TG_DISCARD, "3-3 5-6 4-6 1-6");
    ck_assert_int_eq(st->stacks[0], 4);
    ck_assert_int_eq(st->to_act, 0);
}

START_TEST(test_bot_leads_its_whole_hand_when_it_is_one_combination)
{
    static tg_state st;
    start_hand(&st, 0, QUARTET_DEAL);
    play_first_quartet_trick(&st);
    tg_action a = bot_action(&st); /* it could also split 地地88 into pairs, triples or singles */
    char text[32];
    format_action(&a, text);
    ck_assert_msg(action_is(&a, TG_PLAY, "1-1 1-1 2-6 3-5"), "chose %s", text);
}
END_TEST

START_TEST(test_bot_beats_the_final_trick_when_it_can)
{
    static tg_state st;
    start_hand(&st, 0, QUARTET_DEAL);
    play_first_quartet_trick(&st);
    act(&st, 0, TG_PLAY, "1-1 1-1 2-6 3-5");
    ck_assert(tg_open_trick(&st)->final);
    tg_action a = bot_action(&st); /* seat 1: 天天99 outranks 地地88 (§2); 0 stacks + 4 tiles >= 2 */
    char text[32];
    format_action(&a, text);
    ck_assert_msg(action_is(&a, TG_PLAY, "6-6 6-6 3-6 4-5"), "chose %s", text);
    ck_assert_int_eq(tg_apply_action(&st, &a), TG_OK);
    act(&st, 2, TG_DISCARD, "3-3 4-6 1-6 2-4");
    act(&st, 3, TG_DISCARD, "1-5 2-3 1-4 1-2");
    ck_assert(tg_is_over(&st));
    ck_assert_int_eq(st.result.winner, 1);
}
END_TEST

/*
 * Whenever the bot follows a final trick with a legal play, it plays (a discard cannot win the
 * hand); when it is the last to act that play wins the hand. Checked over seeded random hands.
 */
START_TEST(test_bot_always_plays_to_the_final_trick_when_allowed)
{
    static tg_state st;
    rng_state rng;
    rng_seed(&rng, 99);
    int checked = 0, checked_last = 0;
    for (int hand = 0; hand < 4000; hand++) {
        uint8_t deal[TG_SEATS][TG_HAND_TILES];
        tg_options options = random_options(&rng);
        tg_deal(rng_next(&rng), deal);
        ck_assert_int_eq(tg_start(&st, &options, hand % TG_SEATS, 2, (const uint8_t(*)[TG_HAND_TILES])deal), TG_OK);
        while (!tg_is_over(&st)) {
            tg_action legal[TG_MAX_ACTIONS], a;
            int count = tg_legal_actions(&st, st.to_act, legal, TG_MAX_ACTIONS);
            const tg_trick *open = tg_open_trick(&st);
            bool can_play = false;
            for (int i = 0; i < count; i++)
                can_play = can_play || legal[i].kind == TG_PLAY;
            if (open != NULL && open->final && can_play) {
                int seat = st.to_act;
                bool last = open->count == TG_SEATS - 1;
                a = bot_action(&st);
                ck_assert_msg(a.kind == TG_PLAY, "hand %d: discarded on the final trick with a play", hand);
                ck_assert_int_eq(tg_apply_action(&st, &a), TG_OK);
                checked++;
                if (last) {
                    ck_assert(tg_is_over(&st));
                    ck_assert_int_eq(st.result.winner, seat);
                    checked_last++;
                }
                continue;
            }
            a = legal[rng_below(&rng, (uint32_t)count)];
            ck_assert_int_eq(tg_apply_action(&st, &a), TG_OK);
        }
    }
    ck_assert_int_gt(checked, 100);
    ck_assert_int_gt(checked_last, 30);
}
END_TEST

/* Leading with several tiles that make one combination, the bot plays them all; and it leads 至尊
 * whenever it holds both tiles and has others. Checked over seeded hands of random play. */
START_TEST(test_bot_leads_whole_hands_and_supreme_in_random_play)
{
    static tg_state st;
    rng_state rng;
    rng_seed(&rng, 4242);
    int whole = 0, supreme = 0;
    for (int hand = 0; hand < 4000; hand++) {
        uint8_t deal[TG_SEATS][TG_HAND_TILES];
        tg_options options = random_options(&rng);
        tg_deal(rng_next(&rng), deal);
        ck_assert_int_eq(tg_start(&st, &options, hand % TG_SEATS, 2, (const uint8_t(*)[TG_HAND_TILES])deal), TG_OK);
        while (!tg_is_over(&st)) {
            int seat = st.to_act;
            tg_action legal[TG_MAX_ACTIONS], a;
            int count = tg_legal_actions(&st, seat, legal, TG_MAX_ACTIONS);
            if (tg_open_trick(&st) == NULL) {
                uint8_t tiles[TG_HAND_TILES];
                int held = tg_held_tiles(&st, seat, tiles);
                bool one_combination = held >= 2 && tg_classify(tiles, held).type != TG_COMBO_NONE;
                bool holds_supreme = st.hand[seat][TG_THREE_12] && st.hand[seat][TG_SIX_24] && held > 2;
                if (one_combination || holds_supreme) {
                    a = bot_action(&st);
                    if (one_combination) {
                        ck_assert_msg(a.n == held, "hand %d: split a hand that is one combination", hand);
                        whole++;
                    } else {
                        ck_assert_msg(tg_classify(a.tiles, a.n).type == TG_SUPREME, "hand %d: kept 至尊", hand);
                        supreme++;
                    }
                    ck_assert_int_eq(tg_apply_action(&st, &a), TG_OK);
                    continue;
                }
            }
            a = legal[rng_below(&rng, (uint32_t)count)];
            ck_assert_int_eq(tg_apply_action(&st, &a), TG_OK);
        }
    }
    ck_assert_int_gt(whole, 100);
    ck_assert_int_gt(supreme, 100);
}
END_TEST

/* The banker holds 丁三 and 大頭六: its first lead is 至尊, which pays it 賀尊 (§5). */
START_TEST(test_bot_leads_supreme_for_he_zun)
{
    static tg_state st;
    static const char *const deal[TG_SEATS] = {
        "6-6 1-1 4-4 5-5 3-6 4-5 2-4 1-2",
        "6-6 1-1 4-4 1-3 3-3 2-2 5-6 4-6",
        "1-3 5-5 3-3 2-2 5-6 4-6 1-6 2-6",
        "1-6 1-5 1-5 3-5 2-5 3-4 2-3 1-4",
    };
    start_hand(&st, 0, deal);
    tg_action a = bot_action(&st);
    char text[32];
    format_action(&a, text);
    ck_assert_msg(action_is(&a, TG_PLAY, "2-4 1-2"), "chose %s", text);
}
END_TEST

/* ---- strength ---- */

/*
 * 5,000 seeded hands, the bot in one seat (every seat and banker pairing equally often) and
 * three players picking uniformly among their legal actions: the bot's mean net per hand must be
 * positive by more than three standard errors.
 */
START_TEST(test_bot_wins_against_random_players)
{
    static tg_state st;
    static tg_view view;
    const int hands = 5000;
    double sum = 0.0, sum_sq = 0.0;
    for (int i = 0; i < hands; i++) {
        uint8_t deal[TG_SEATS][TG_HAND_TILES];
        tg_options options = tg_options_default();
        rng_state rng;
        rng_seed(&rng, 0xb07ULL + (uint64_t)i);
        tg_deal(rng_next(&rng), deal);
        int bot = (i / TG_SEATS) % TG_SEATS;
        ck_assert_int_eq(tg_start(&st, &options, i % TG_SEATS, 2, (const uint8_t(*)[TG_HAND_TILES])deal), TG_OK);
        while (!tg_is_over(&st)) {
            tg_action a;
            if (st.to_act == bot) {
                tg_view_of(&st, bot, &view);
                ck_assert(tg_bot_choose(&view, &a));
            } else {
                tg_action legal[TG_MAX_ACTIONS];
                int count = tg_legal_actions(&st, st.to_act, legal, TG_MAX_ACTIONS);
                a = legal[rng_below(&rng, (uint32_t)count)];
            }
            ck_assert_int_eq(tg_apply_action(&st, &a), TG_OK);
        }
        double net = (double)st.result.net[bot];
        sum += net;
        sum_sq += net * net;
    }
    double mean = sum / hands;
    double std_error = sqrt((sum_sq / hands - mean * mean) / (hands - 1));
    ck_assert_msg(mean > 3.0 * std_error, "mean net %.3f, standard error %.3f", mean, std_error);
}
END_TEST

static Suite *tg_bot_suite(void)
{
    Suite *s = suite_create("tg_bot");
    TCase *turns = tcase_create("legality");
    tcase_set_timeout(turns, 120);
    tcase_add_test(turns, test_bot_always_chooses_a_legal_action);
    tcase_add_test(turns, test_bot_declines_when_it_is_not_its_turn);
    suite_add_tcase(s, turns);

    TCase *positions = tcase_create("positions");
    tcase_set_timeout(positions, 120);
    tcase_add_test(positions, test_bot_discards_its_weakest_tile);
    tcase_add_test(positions, test_bot_discards_its_two_weakest_tiles);
    tcase_add_test(positions, test_bot_leads_its_whole_hand_when_it_is_one_combination);
    tcase_add_test(positions, test_bot_beats_the_final_trick_when_it_can);
    tcase_add_test(positions, test_bot_always_plays_to_the_final_trick_when_allowed);
    tcase_add_test(positions, test_bot_leads_whole_hands_and_supreme_in_random_play);
    tcase_add_test(positions, test_bot_leads_supreme_for_he_zun);
    suite_add_tcase(s, positions);

    TCase *strength = tcase_create("strength");
    tcase_set_timeout(strength, 300);
    tcase_add_test(strength, test_bot_wins_against_random_players);
    suite_add_tcase(s, strength);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(tg_bot_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? 0 : 1;
}
