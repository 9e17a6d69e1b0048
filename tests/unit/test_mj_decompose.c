/*
 * Unit tests of mj_decompose: four sets and a pair with wilds (rules/tianjin-mahjong.md §3-§4).
 * No special shapes; a wild stands for any tile, even a fifth of a kind; chows only within a number
 * suit and never round the corner 8-9-1. Every reading written must use exactly the pool's tiles.
 */
#include <check.h>
#include <stdlib.h>

#include "mj_decompose.h"
#include "mj_test_util.h"

/* A pool of naturals written as text plus wilds. */
static mj_pool pool_of(const char *naturals, int wilds)
{
    mj_counts counts;
    memset(&counts, 0, sizeof counts);
    mjt_add_tiles(naturals, &counts);
    mj_pool pool;
    mj_pool_init(&pool, &counts, wilds);
    return pool;
}

static bool complete(const char *naturals, int wilds)
{
    mj_counts counts;
    memset(&counts, 0, sizeof counts);
    mjt_add_tiles(naturals, &counts);
    return mj_tiles_complete(&counts, wilds, true);
}

/* The reading's groups hold every natural (each kind has at least as many places as naturals) and
 * exactly the pool's wilds, in four sets and one pair for a hand of 14. */
static void assert_reading_uses_the_pool(const mj_pool *pool, bool with_pair)
{
    mj_group groups[MJ_MAX_GROUPS];
    int n = mj_pool_reading(pool, with_pair, 0, groups);
    ck_assert_int_ge(n, 0);
    int places[MJ_KINDS] = {0}, wilds = 0, pairs = 0, tiles = 0;
    for (int g = 0; g < n; g++) {
        for (int i = 0; i < mj_group_size(&groups[g]); i++)
            places[mj_group_tile(&groups[g], i)]++;
        if (groups[g].kind == MJ_GROUP_CHOW) {
            ck_assert_int_lt(groups[g].tile, 27);
            ck_assert_int_le(mj_kind_rank(groups[g].tile), 7);
        }
        ck_assert_int_le(groups[g].wilds, mj_group_size(&groups[g]));
        wilds += groups[g].wilds;
        pairs += groups[g].kind == MJ_GROUP_PAIR;
        tiles += mj_group_size(&groups[g]);
    }
    int naturals = 0;
    for (int k = 0; k < MJ_KINDS; k++) {
        ck_assert_int_ge(places[k], pool->natural.n[k]);
        naturals += pool->natural.n[k];
    }
    ck_assert_int_eq(wilds, pool->wilds);
    ck_assert_int_eq(tiles, naturals + pool->wilds);
    ck_assert_int_eq(pairs, with_pair ? 1 : 0);
}

START_TEST(test_four_chows_and_a_pair_are_complete)
{
    ck_assert(complete("1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N N", 0));
    mj_pool pool = pool_of("1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N N", 0);
    assert_reading_uses_the_pool(&pool, true);
}
END_TEST

START_TEST(test_pungs_of_honours_and_a_pair_are_complete)
{
    ck_assert(complete("E E E S S S C C C P P P F F", 0));
}
END_TEST

START_TEST(test_seven_pairs_is_not_a_win)
{
    ck_assert(!complete("1m 1m 3m 3m 5p 5p 7p 7p 2s 2s E E C C", 0));
}
END_TEST

START_TEST(test_thirteen_orphans_is_not_a_win)
{
    ck_assert(!complete("1m 9m 1p 9p 1s 9s E S W N C F P P", 0));
}
END_TEST

START_TEST(test_honours_never_make_a_chow)
{
    ck_assert(!complete("E S W 1m 2m 3m 4m 5m 6m 7m 8m 9m N N", 0));
    ck_assert(!complete("C F P 1m 2m 3m 4m 5m 6m 7m 8m 9m N N", 0));
}
END_TEST

START_TEST(test_a_chow_never_goes_round_the_corner)
{
    ck_assert(!complete("8m 9m 1m 2p 3p 4p 5p 6p 7p 2s 3s 4s N N", 0));
    ck_assert(!complete("9m 1m 2m 2p 3p 4p 5p 6p 7p 2s 3s 4s N N", 0));
}
END_TEST

START_TEST(test_a_wild_fills_the_gap_of_a_chow)
{
    ck_assert(complete("1m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N N", 1));
    ck_assert(!complete("1m 4m 4p 5p 6p 7s 8s 9s 2m 3m 4m N N", 0));
}
END_TEST

START_TEST(test_eight_and_nine_with_a_wild_make_seven_eight_nine)
{
    mj_pool pool = pool_of("8m 9m 4p 5p 6p 7s 8s 9s 2m 3m 4m N N", 1);
    ck_assert(mj_pool_complete(&pool, true));
    mj_group groups[MJ_MAX_GROUPS];
    int n = mj_pool_reading(&pool, true, 0, groups);
    bool seen = false;
    for (int g = 0; g < n; g++)
        seen |= groups[g].kind == MJ_GROUP_CHOW && groups[g].tile == mjt_kind("7m") && groups[g].wilds == 1;
    ck_assert(seen);
    assert_reading_uses_the_pool(&pool, true);
}
END_TEST

START_TEST(test_a_wild_may_be_the_fifth_tile_of_a_kind)
{
    /* 1m 1m 1m as a pung and 1m with a wild as the pair: five 1m in the reading */
    ck_assert(complete("1m 1m 1m 1m 4p 5p 6p 7s 8s 9s 2m 3m 4m", 1));
    mj_pool pool = pool_of("1m 1m 1m 1m 4p 5p 6p 7s 8s 9s 2m 3m 4m", 1);
    assert_reading_uses_the_pool(&pool, true);
}
END_TEST

START_TEST(test_two_wilds_alone_make_the_pair)
{
    ck_assert(complete("1m 2m 3m 4p 5p 6p 7s 8s 9s E E E", 2));
    mj_pool pool = pool_of("1m 2m 3m 4p 5p 6p 7s 8s 9s E E E", 2);
    assert_reading_uses_the_pool(&pool, true);
}
END_TEST

START_TEST(test_three_wilds_alone_make_a_set)
{
    ck_assert(complete("1m 2m 3m 4p 5p 6p 7s 8s 9s N N", 3));
    mj_pool pool = pool_of("1m 2m 3m 4p 5p 6p 7s 8s 9s N N", 3);
    assert_reading_uses_the_pool(&pool, true);
}
END_TEST

START_TEST(test_lone_tiles_need_a_group_each_however_many_wilds)
{
    /* six tiles no two of which can share a group, and only five groups */
    ck_assert(!complete("1m 5p 9s E C N", 8));
    ck_assert(complete("1m 5p 9s E C", 9));
    mj_pool pool = pool_of("1m 5p 9s E C", 9);
    assert_reading_uses_the_pool(&pool, true);
}
END_TEST

START_TEST(test_a_hand_of_wrong_size_is_never_complete)
{
    ck_assert(!complete("1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N", 0));
    ck_assert(!complete("1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N N N", 0));
    ck_assert(!complete("1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N N N", 1));
}
END_TEST

START_TEST(test_costs_count_the_fewest_wilds_needed)
{
    mj_pool pool = pool_of("1m 3m 5p 5p E", 4);
    ck_assert_int_eq(pool.sets_cost[MJ_SUIT_M], 1);   /* 1-(2)-3 */
    ck_assert_int_eq(pool.sets_cost[MJ_SUIT_P], 1);   /* 5-5-(5) */
    ck_assert_int_eq(pool.sets_cost[MJ_SUIT_HONOR], 2);
    ck_assert_int_eq(pool.pair_cost[MJ_SUIT_P], 0);   /* the pair 5-5 */
    ck_assert_int_eq(pool.pair_cost[MJ_SUIT_HONOR], 1);
    ck_assert_int_eq(pool.pair_cost[MJ_SUIT_S], MJ_NO_WAY);
    ck_assert_int_eq(mj_pool_cost(&pool, false), 4);
    ck_assert_int_eq(mj_pool_cost(&pool, true), 3);   /* 1-(2)-3, 5-5 pair, E-(E)-(E) */
}
END_TEST

START_TEST(test_a_cost_above_the_pools_wilds_is_only_known_to_be_too_high)
{
    mj_pool pool = pool_of("1m 4m 7m 2p 5p 8p 9s", 1);
    ck_assert_int_gt(pool.sets_cost[MJ_SUIT_M], 1);
    ck_assert_int_gt(mj_pool_cost(&pool, true), 1);
    ck_assert(!mj_pool_complete(&pool, true));
    pool = pool_of("1m 4m 7m 2p 5p 8p 9s", 14);
    ck_assert_int_eq(pool.sets_cost[MJ_SUIT_M], 6);
    ck_assert_int_eq(mj_pool_cost(&pool, true), 13); /* 6 + 6 + the pair 9s-(9s) */
}
END_TEST

START_TEST(test_four_of_an_honour_cost_two_wilds_as_two_pungs)
{
    mj_pool pool = pool_of("E E E E", 0);
    ck_assert_int_eq(pool.sets_cost[MJ_SUIT_HONOR], 2);
    ck_assert_int_eq(pool.pair_cost[MJ_SUIT_HONOR], 1); /* E E E and E-(E) */
}
END_TEST

START_TEST(test_the_pool_follows_a_change_to_one_suit)
{
    mj_pool pool = pool_of("1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N N", 0);
    ck_assert(mj_pool_take(&pool, mjt_kind("2m")));
    mj_pool_update_suit(&pool, MJ_SUIT_M);
    pool.wilds = 1;
    mj_pool_update_suit(&pool, MJ_SUIT_M);
    ck_assert(mj_pool_complete(&pool, true));
    ck_assert(mj_pool_take(&pool, mjt_kind("3m")));
    mj_pool_update_suit(&pool, MJ_SUIT_M);
    ck_assert(!mj_pool_complete(&pool, true)); /* 13 tiles */
}
END_TEST

START_TEST(test_taking_a_kind_the_pool_lacks_takes_a_wild)
{
    mj_pool pool = pool_of("1m 2m", 2);
    ck_assert(!mj_pool_take(&pool, mjt_kind("3m")));
    ck_assert_int_eq(pool.wilds, 1);
    ck_assert_int_eq(pool.naturals, 2);
    ck_assert(mj_pool_take(&pool, mjt_kind("1m")));
    ck_assert_int_eq(pool.naturals, 1);
}
END_TEST

START_TEST(test_readings_of_many_pools_use_exactly_their_tiles)
{
    static const struct {
        const char *naturals;
        int wilds;
    } CASES[] = {
        {"1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m 5m", 0}, {"1m 1m 2m 2m 3m 3m 4m 4m 5m 5m 6m 6m 7m", 1},
        {"2p 2p 2p 2p 3p 3p 3p 3p 4p 4p 4p 4p", 2},        {"1s 9s E", 11},
        {"5m 5m 5m 5m 6m 6m 6m", 7},                       {"1m 2m 3m 7m 8m 9m 1p 2p 3p 7p 8p 9p", 2},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        mj_pool pool = pool_of(CASES[i].naturals, CASES[i].wilds);
        ck_assert_msg(mj_pool_complete(&pool, true), "%s + %d wilds", CASES[i].naturals, CASES[i].wilds);
        assert_reading_uses_the_pool(&pool, true);
    }
}
END_TEST

static Suite *decompose_suite(void)
{
    Suite *s = suite_create("mj_decompose");
    TCase *shapes = tcase_create("shapes");
    tcase_add_test(shapes, test_four_chows_and_a_pair_are_complete);
    tcase_add_test(shapes, test_pungs_of_honours_and_a_pair_are_complete);
    tcase_add_test(shapes, test_seven_pairs_is_not_a_win);
    tcase_add_test(shapes, test_thirteen_orphans_is_not_a_win);
    tcase_add_test(shapes, test_honours_never_make_a_chow);
    tcase_add_test(shapes, test_a_chow_never_goes_round_the_corner);
    tcase_add_test(shapes, test_a_hand_of_wrong_size_is_never_complete);
    suite_add_tcase(s, shapes);
    TCase *wilds = tcase_create("wilds");
    tcase_add_test(wilds, test_a_wild_fills_the_gap_of_a_chow);
    tcase_add_test(wilds, test_eight_and_nine_with_a_wild_make_seven_eight_nine);
    tcase_add_test(wilds, test_a_wild_may_be_the_fifth_tile_of_a_kind);
    tcase_add_test(wilds, test_two_wilds_alone_make_the_pair);
    tcase_add_test(wilds, test_three_wilds_alone_make_a_set);
    tcase_add_test(wilds, test_lone_tiles_need_a_group_each_however_many_wilds);
    suite_add_tcase(s, wilds);
    TCase *pool = tcase_create("pool");
    tcase_add_test(pool, test_costs_count_the_fewest_wilds_needed);
    tcase_add_test(pool, test_a_cost_above_the_pools_wilds_is_only_known_to_be_too_high);
    tcase_add_test(pool, test_four_of_an_honour_cost_two_wilds_as_two_pungs);
    tcase_add_test(pool, test_the_pool_follows_a_change_to_one_suit);
    tcase_add_test(pool, test_taking_a_kind_the_pool_lacks_takes_a_wild);
    tcase_add_test(pool, test_readings_of_many_pools_use_exactly_their_tiles);
    suite_add_tcase(s, pool);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(decompose_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
