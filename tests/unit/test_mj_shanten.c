/*
 * Unit tests of mj_shanten: the distance of a hand from ready (0) and complete (-1), wilds as
 * jokers, on hands worked out by hand; the distance to a win that scores (the routes 素, 混儿吊,
 * 双混吊, 龙); and three checks against independent code on random hands: complete and ready
 * agree with mj_decompose, the plain distance with a textbook block-counting search (each wild
 * tried as every kind), and "ready to score" with what mj_score_hand accepts.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "mj_decompose.h"
#include "mj_fan.h"
#include "mj_shanten.h"
#include "mj_test_util.h"
#include "rng.h"

static mj_counts tiles_of(const char *text)
{
    mj_counts c;
    memset(&c, 0, sizeof c);
    if (text[0] != '\0')
        mjt_add_tiles(text, &c);
    return c;
}

static int plain(const char *tiles, int wilds, int melds)
{
    mj_counts c = tiles_of(tiles);
    return mj_shanten_plain(NULL, &c, wilds, melds);
}

static int scoring(const char *tiles, int wilds, int melds, bool wild_meld, int routes[MJ_ROUTES])
{
    mj_shanten_hand h;
    memset(&h, 0, sizeof h);
    h.natural = tiles_of(tiles);
    h.wilds = wilds;
    h.melds = melds;
    h.wild_meld = wild_meld;
    return mj_shanten_scoring(NULL, &h, routes);
}

/* --- hands worked by hand --- */

START_TEST(test_a_hand_one_tile_from_four_sets_and_a_pair_is_ready_and_a_complete_one_is_minus_one)
{
    ck_assert_int_eq(plain("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 4p", 0, 0), 0);
    ck_assert_int_eq(plain("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 4p 4p", 0, 0), -1);
    /* ready on 3p (1p-2p) with the pair in hand; and on a 14-tile hand, after the best discard */
    ck_assert_int_eq(plain("1m 2m 3m 4p 5p 6p 7s 8s 9s 1p 2p C C", 0, 0), 0);
    ck_assert_int_eq(plain("1m 2m 3m 4p 5p 6p 7s 8s 9s 1p 2p C C N", 0, 0), 0);
}
END_TEST

START_TEST(test_thirteen_lone_tiles_are_eight_from_ready)
{
    /* each of the four set templates and the pair holds one tile: 13 - 5 */
    ck_assert_int_eq(plain("1m 4m 7m 1p 4p 7p 1s 4s 7s E S W N", 0, 0), 8);
    /* two pairs and partial chows: sets 1m2m3m; partials 5m6m, 1p1p, 3s5s; pair 9s9s: 8 - 2 - 3 - 1 */
    ck_assert_int_eq(plain("1m 2m 3m 5m 6m 1p 1p 3s 5s 9s 9s E N", 0, 0), 2);
}
END_TEST

START_TEST(test_each_wild_fills_one_gap_of_the_plain_shape)
{
    ck_assert_int_eq(plain("1m 4m 7m 1p 4p 7p 1s 4s 7s E S W", 1, 0), 7);
    ck_assert_int_eq(plain("1m 4m 7m 1p 4p 7p 1s 4s 7s E S", 2, 0), 6);
    /* four sets and a wild: ready (the wild waits as the pair); with two wilds complete */
    ck_assert_int_eq(plain("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p", 1, 0), 0);
    ck_assert_int_eq(plain("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p", 2, 0), -1);
    /* wilds alone make sets and the pair */
    ck_assert_int_eq(plain("1m 2m 3m 4m 5m 6m 7m 8m 9m", 5, 0), -1);
}
END_TEST

START_TEST(test_melds_count_as_sets)
{
    ck_assert_int_eq(plain("1m 2m 3m 4p 5p 6p 7s 8s 9s E", 0, 1), 0);
    ck_assert_int_eq(plain("1m 2m 3m 4p 5p 6p 7s 8s 9s E E", 0, 1), -1);
    ck_assert_int_eq(plain("E", 0, 4), 0);
    ck_assert_int_eq(plain("E E", 0, 4), -1);
    ck_assert_int_eq(plain("E", 1, 4), -1);
    ck_assert_int_eq(plain("1m 5m 9m 1p", 0, 3), 2);
}
END_TEST

START_TEST(test_without_wilds_any_win_scores_as_su)
{
    int r[MJ_ROUTES];
    ck_assert_int_eq(scoring("1m 2m 3m 4p 5p 6p 7s 8s 9s 1p 2p C C", 0, 0, false, r), 0);
    ck_assert_int_eq(r[MJ_ROUTE_SU], 0);
    ck_assert_int_eq(r[MJ_ROUTE_HUN_DIAO], MJ_SHANTEN_NONE);
}
END_TEST

START_TEST(test_a_wild_makes_a_plain_ready_hand_short_of_a_win_that_scores)
{
    int r[MJ_ROUTES];
    /* ready in the plain sense (9s + wild waits on 7s 8s 9s, or E E on E) but no such win scores:
     * the wild must stay the pair's, so 9s has to go: one step from 混儿吊 */
    ck_assert_int_eq(plain("1m 2m 3m 5p 6p 7p 1s 2s 3s E E 9s", 1, 0), 0);
    ck_assert_int_eq(scoring("1m 2m 3m 5p 6p 7p 1s 2s 3s E E 9s", 1, 0, false, r), 1);
    ck_assert_int_eq(r[MJ_ROUTE_SU], MJ_SHANTEN_NONE);
    ck_assert_int_eq(r[MJ_ROUTE_HUN_DIAO], 1);
    /* plain ready (pairs 1m 2p 3s, a wild), two steps from 混儿吊: two of the pairs must become pungs */
    ck_assert_int_eq(plain("1m 1m 2p 2p 3s 3s 4m 5m 6m 7p 8p 9p", 1, 0), 0);
    ck_assert_int_eq(scoring("1m 1m 2p 2p 3s 3s 4m 5m 6m 7p 8p 9p", 1, 0, false, r), 2);
}
END_TEST

START_TEST(test_four_sets_and_a_wild_wait_on_any_tile_as_hun_diao)
{
    int r[MJ_ROUTES];
    ck_assert_int_eq(scoring("1m 2m 3m 4p 5p 6p 7s 8s 9s E E E", 1, 0, false, r), 0);
    ck_assert_int_eq(r[MJ_ROUTE_HUN_DIAO], 0);
    /* three sets, a pair and two wilds wait on any tile as 双混吊, or as 混儿吊 (E E and a wild) */
    ck_assert_int_eq(scoring("1m 2m 3m 4p 5p 6p 7s 8s 9s E E", 2, 0, false, r), 0);
    ck_assert_int_eq(r[MJ_ROUTE_HUN_DIAO], 0);
    /* under 刮大风 混儿吊 alone does not win: only a dragon route is left */
    mj_shanten_hand h;
    memset(&h, 0, sizeof h);
    h.natural = tiles_of("1m 2m 3m 4p 5p 6p 7s 8s 9s E E E");
    h.wilds = 1;
    h.gua_da_feng = true;
    ck_assert_int_eq(mj_shanten_scoring(NULL, &h, r), 4);
    ck_assert_int_eq(r[MJ_ROUTE_HUN_DIAO], MJ_SHANTEN_NONE);
}
END_TEST

START_TEST(test_the_dragon_route_counts_one_tile_of_each_rank_and_wilds_for_the_gaps)
{
    int r[MJ_ROUTES];
    /* 1-9万 but 5万, a wild, E E E and 5p: ready on 5p as 龙 (the wild is 5万) */
    ck_assert_int_eq(scoring("1m 2m 3m 4m 6m 7m 8m 9m E E E 5p", 1, 0, false, r), 0);
    ck_assert_int_eq(r[MJ_ROUTE_LONG_M], 0);
    ck_assert_int_eq(r[MJ_ROUTE_HUN_DIAO], 1);
    /* a whole 条 dragon and the pair: complete */
    ck_assert_int_eq(scoring("1s 2s 3s 4s 5s 6s 7s 8s 9s E E E N N", 0, 0, false, r), -1);
    ck_assert_int_eq(r[MJ_ROUTE_LONG_S], -1);
    /* two melds leave no room for three chows */
    scoring("1s 2s 3s 4s 5s 6s 7s", 0, 2, false, r);
    ck_assert_int_eq(r[MJ_ROUTE_LONG_S], MJ_SHANTEN_NONE);
}
END_TEST

START_TEST(test_a_gold_kong_closes_the_su_route)
{
    int r[MJ_ROUTES];
    /* plain ready, but with a 金杠 and no wild in hand nothing scores but a dragon */
    ck_assert_int_eq(plain("1m 2m 3m 4p 5p 6p 7s 8s 9s E", 0, 1), 0);
    ck_assert_int_eq(scoring("1m 2m 3m 4p 5p 6p 7s 8s 9s E", 0, 1, true, r), 6);
    ck_assert_int_eq(r[MJ_ROUTE_SU], MJ_SHANTEN_NONE);
    ck_assert_int_eq(r[MJ_ROUTE_LONG_M], 6);
}
END_TEST

START_TEST(test_a_memo_gives_the_same_tables_as_a_fresh_search)
{
    static mj_shanten_memo memo;
    mj_shanten_memo_init(&memo);
    rng_state rng;
    rng_seed(&rng, 5);
    for (int i = 0; i < 3000; i++) {
        uint8_t c[9];
        for (int r = 0; r < 9; r++)
            c[r] = (uint8_t)(rng_below(&rng, 3) == 0 ? rng_below(&rng, 5) : 0);
        static mj_shanten_memo fresh;
        mj_shanten_memo_init(&fresh);
        mj_fit a = mj_shanten_suit_fit(&memo, c, false), b = mj_shanten_suit_fit(&fresh, c, false);
        ck_assert(memcmp(&a, &b, sizeof a) == 0);
    }
}
END_TEST

/* --- against independent code --- */

/* A textbook search: 8 - 2·sets - partials - pair over every way to cut the tiles into sets,
 * partial sets (two of a kind, neighbours, one apart) and a pair, at most four sets and partials. */
static void reference_search(uint8_t *c, int i, int sets, int partials, bool pair, int *best)
{
    while (i < MJ_KINDS && c[i] == 0)
        i++;
    if (i == MJ_KINDS) {
        int p = partials < 4 - sets ? partials : 4 - sets;
        int v = 8 - 2 * sets - p - (pair ? 1 : 0);
        if (v < *best)
            *best = v;
        return;
    }
    bool number = i < 27;
    int rank = number ? i % 9 : -1;
    if (c[i] >= 3) {
        c[i] -= 3;
        reference_search(c, i, sets + 1, partials, pair, best);
        c[i] += 3;
    }
    if (number && rank <= 6 && c[i + 1] && c[i + 2]) {
        c[i]--, c[i + 1]--, c[i + 2]--;
        reference_search(c, i, sets + 1, partials, pair, best);
        c[i]++, c[i + 1]++, c[i + 2]++;
    }
    if (c[i] >= 2) {
        c[i] -= 2;
        if (!pair)
            reference_search(c, i, sets, partials, true, best);
        reference_search(c, i, sets, partials + 1, pair, best);
        c[i] += 2;
    }
    if (number && rank <= 7 && c[i + 1]) {
        c[i]--, c[i + 1]--;
        reference_search(c, i, sets, partials + 1, pair, best);
        c[i]++, c[i + 1]++;
    }
    if (number && rank <= 6 && c[i + 2]) {
        c[i]--, c[i + 2]--;
        reference_search(c, i, sets, partials + 1, pair, best);
        c[i]++, c[i + 2]++;
    }
    c[i]--;
    reference_search(c, i, sets, partials, pair, best);
    c[i]++;
}

/* The textbook distance with each wild tried as every kind (a fifth of a kind allowed). */
static int reference_plain(mj_counts c, int wilds, int melds, int from)
{
    if (wilds == 0) {
        int best = 99;
        reference_search(c.n, 0, melds, 0, false, &best);
        return best;
    }
    int best = 99;
    for (int k = from; k < MJ_KINDS; k++) {
        c.n[k]++;
        int v = reference_plain(c, wilds - 1, melds, k);
        c.n[k]--;
        if (v < best)
            best = v;
    }
    return best;
}

/* A random concealed hand of `size` tiles from a shuffled wall (at most four of a kind). */
static void random_hand(rng_state *rng, int size, int wild_share, mj_counts *natural, int *wilds)
{
    uint8_t wall[MJ_TILES];
    for (int i = 0; i < MJ_TILES; i++)
        wall[i] = (uint8_t)(i / MJ_COPIES);
    rng_shuffle(rng, wall, MJ_TILES);
    memset(natural, 0, sizeof *natural);
    *wilds = 0;
    for (int i = 0; i < size; i++) {
        if ((int)rng_below(rng, 100) < wild_share)
            (*wilds)++;
        else
            natural->n[wall[i]]++;
    }
}

START_TEST(test_complete_and_ready_agree_with_the_decomposition_of_mj_decompose)
{
    rng_state rng;
    rng_seed(&rng, 77 + (uint64_t)_i);
    static mj_shanten_memo memo;
    mj_shanten_memo_init(&memo);
    int seen_ready = 0, seen_complete = 0;
    for (int n = 0; n < 1500; n++) {
        int melds = (int)rng_below(&rng, 3), wilds;
        mj_counts natural;
        /* hands near a win are rare at random: build most from sets and a pair, then disturb one tile */
        if (rng_below(&rng, 4) != 0) {
            memset(&natural, 0, sizeof natural);
            wilds = 0;
            for (int s = 0; s < 4 - melds; s++) {
                int base = (int)rng_below(&rng, 3) * 9 + (int)rng_below(&rng, 7);
                bool chow = rng_below(&rng, 2) == 0;
                for (int t = 0; t < 3; t++)
                    natural.n[chow ? base + t : base]++;
            }
            natural.n[rng_below(&rng, MJ_KINDS)] += 2;
            int gone = (int)rng_below(&rng, MJ_KINDS);
            while (natural.n[gone] == 0)
                gone = (gone + 1) % MJ_KINDS;
            natural.n[gone]--;
            for (int k = 0; k < MJ_KINDS; k++)
                while (natural.n[k] > 0 && rng_below(&rng, 12) == 0) {
                    natural.n[k]--;
                    wilds++;
                }
        } else {
            random_hand(&rng, 13 - 3 * melds, 10, &natural, &wilds);
        }
        bool possible = true;
        for (int k = 0; k < MJ_KINDS; k++)
            possible &= natural.n[k] <= MJ_COPIES;
        if (!possible)
            continue;
        /* natural + wilds is 13 - 3m tiles: ready iff some tile or a wild completes it */
        int d13 = mj_shanten_plain(&memo, &natural, wilds, melds);
        bool ready = mj_tiles_complete(&natural, wilds + 1, true);
        for (int k = 0; k < MJ_KINDS && !ready; k++) {
            natural.n[k]++;
            ready = mj_tiles_complete(&natural, wilds, true);
            natural.n[k]--;
        }
        ck_assert_msg((d13 == 0) == ready, "distance %d but ready %d", d13, ready);
        ck_assert(d13 >= 0);
        seen_ready += ready;
        /* and with one more tile: complete iff -1 */
        int k = (int)rng_below(&rng, MJ_KINDS);
        while (natural.n[k] == MJ_COPIES)
            k = (k + 1) % MJ_KINDS;
        natural.n[k]++;
        int d14 = mj_shanten_plain(&memo, &natural, wilds, melds);
        bool complete = mj_tiles_complete(&natural, wilds, true);
        ck_assert_msg((d14 == -1) == complete, "distance %d but complete %d", d14, complete);
        ck_assert(d14 >= d13 - 1 && d14 <= d13);
        seen_complete += complete;
    }
    ck_assert_int_gt(seen_ready, 100);
    ck_assert_int_gt(seen_complete, 20);
}
END_TEST

START_TEST(test_the_plain_distance_agrees_with_a_textbook_search_trying_each_wild_as_every_kind)
{
    rng_state rng;
    rng_seed(&rng, 1234 + (uint64_t)_i);
    static mj_shanten_memo memo;
    mj_shanten_memo_init(&memo);
    for (int n = 0; n < 400; n++) {
        int melds = (int)rng_below(&rng, 2), wilds;
        mj_counts natural;
        random_hand(&rng, 13 - 3 * melds + (int)rng_below(&rng, 2), n < 40 ? 12 : n < 200 ? 5 : 0, &natural, &wilds);
        if (wilds > 2)
            continue; /* the reference tries 34^w kinds */
        int got = mj_shanten_plain(&memo, &natural, wilds, melds);
        int want = reference_plain(natural, wilds, melds, 0);
        ck_assert_msg(got == want, "hand %d: distance %d, the textbook search says %d (%d wilds, %d melds)", n, got,
                      want, wilds, melds);
    }
}
END_TEST

/* Whether drawing `kind` to these 13 tiles wins, and with which fans (indicator E: wilds E S). */
static bool wins_with(const mj_counts *natural, int wilds, int kind, mj_fan_set *fans)
{
    mj_winning_hand w;
    memset(&w, 0, sizeof w);
    w.concealed = *natural;
    w.concealed.n[MJ_EAST] = 0;
    w.concealed.n[MJ_SOUTH] = (uint8_t)wilds; /* the hand's wilds as 南 (four in play) */
    w.win_tile = (uint8_t)kind;
    w.indicator = MJ_EAST;
    mj_options o = mj_options_default();
    mj_score score;
    if (mj_score_hand(&o, &w, &score) != MJ_OK)
        return false;
    *fans = score.fans;
    return true;
}

START_TEST(test_ready_to_score_means_some_draw_wins_and_a_win_by_a_route_was_ready)
{
    rng_state rng;
    rng_seed(&rng, 99 + (uint64_t)_i);
    static mj_shanten_memo memo;
    mj_shanten_memo_init(&memo);
    int checked = 0, ready = 0;
    for (int n = 0; n < 3000; n++) {
        mj_shanten_hand h;
        memset(&h, 0, sizeof h);
        /* sets and a pair, less one tile, some tiles turned into wilds (南; 东 never appears) */
        for (int s = 0; s < 4; s++) {
            int base = (int)rng_below(&rng, 3) * 9 + (int)rng_below(&rng, 7);
            bool chow = rng_below(&rng, 2) == 0;
            for (int t = 0; t < 3; t++)
                h.natural.n[chow ? base + t : base]++;
        }
        h.natural.n[rng_below(&rng, 3) * 9 + rng_below(&rng, 9)] += 2;
        int gone = (int)rng_below(&rng, 27);
        while (h.natural.n[gone] == 0)
            gone = (gone + 1) % 27;
        h.natural.n[gone]--;
        bool possible = true;
        for (int k = 0; k < 27; k++) {
            while (h.natural.n[k] > 0 && rng_below(&rng, 14) == 0) {
                h.natural.n[k]--;
                h.wilds++;
            }
            possible &= h.natural.n[k] <= 4;
        }
        if (!possible || h.wilds > 4)
            continue;
        checked++;
        int d = mj_shanten_scoring(&memo, &h, NULL);
        bool some_win = false, route_win = false;
        for (int k = 0; k < MJ_KINDS; k++) {
            if (k == MJ_EAST || (k != MJ_SOUTH && h.natural.n[k] >= 4) || (k == MJ_SOUTH && h.wilds >= 4))
                continue;
            mj_counts natural = h.natural;
            int wilds = h.wilds;
            mj_fan_set fans;
            if (!wins_with(&natural, wilds, k, &fans))
                continue;
            some_win = true;
            route_win |= (fans & (MJ_FAN_BIT(MJ_FAN_HUN_DIAO) | MJ_FAN_BIT(MJ_FAN_SU) | MJ_FAN_BIT(MJ_FAN_LONG))) != 0;
        }
        bool holds_four = false; /* a ready hand may wait on the fifth tile of a kind only */
        for (int k = 0; k < MJ_KINDS; k++)
            holds_four |= h.natural.n[k] == MJ_COPIES;
        ready += d == 0;
        if (d == 0 && !some_win && !holds_four) {
            char text[128] = "";
            for (int k = 0; k < MJ_KINDS; k++)
                for (int c = 0; c < h.natural.n[k]; c++) {
                    strcat(text, mj_kind_name(k));
                    strcat(text, " ");
                }
            int r[MJ_ROUTES];
            mj_shanten_scoring(&memo, &h, r);
            ck_abort_msg("hand %d is ready to score but no draw wins: %s+ %d wilds (routes %d %d %d %d %d)", n, text,
                         h.wilds, r[0], r[1], r[2], r[3], r[4]);
        }
        if (route_win)
            ck_assert_msg(d == 0, "hand %d wins by 混儿吊, 素 or 龙 but its distance is %d", n, d);
        ck_assert(d >= 0);
    }
    ck_assert_int_gt(checked, 1000);
    ck_assert_int_gt(ready, 100);
}
END_TEST

static Suite *shanten_suite(void)
{
    Suite *s = suite_create("mj_shanten");
    TCase *worked = tcase_create("worked by hand");
    tcase_add_test(worked, test_a_hand_one_tile_from_four_sets_and_a_pair_is_ready_and_a_complete_one_is_minus_one);
    tcase_add_test(worked, test_thirteen_lone_tiles_are_eight_from_ready);
    tcase_add_test(worked, test_each_wild_fills_one_gap_of_the_plain_shape);
    tcase_add_test(worked, test_melds_count_as_sets);
    tcase_add_test(worked, test_without_wilds_any_win_scores_as_su);
    tcase_add_test(worked, test_a_wild_makes_a_plain_ready_hand_short_of_a_win_that_scores);
    tcase_add_test(worked, test_four_sets_and_a_wild_wait_on_any_tile_as_hun_diao);
    tcase_add_test(worked, test_the_dragon_route_counts_one_tile_of_each_rank_and_wilds_for_the_gaps);
    tcase_add_test(worked, test_a_gold_kong_closes_the_su_route);
    tcase_add_test(worked, test_a_memo_gives_the_same_tables_as_a_fresh_search);
    suite_add_tcase(s, worked);
    TCase *checked = tcase_create("against independent code");
    tcase_set_timeout(checked, 120);
    tcase_add_loop_test(checked, test_complete_and_ready_agree_with_the_decomposition_of_mj_decompose, 0, 2);
    tcase_add_loop_test(checked, test_the_plain_distance_agrees_with_a_textbook_search_trying_each_wild_as_every_kind, 0, 2);
    tcase_add_loop_test(checked, test_ready_to_score_means_some_draw_wins_and_a_win_by_a_route_was_ready, 0, 2);
    suite_add_tcase(s, checked);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(shanten_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
