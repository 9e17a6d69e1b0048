/*
 * test_rng — the engine's deterministic random numbers (engine/rng.h).
 *
 * A hand is rebuilt from its seed, so the generator must repeat itself exactly for one seed,
 * move apart for different seeds, keep rng_below inside its bound without favouring any value
 * (including the modulo bias a naive `x % bound` would show), and shuffle by permuting.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

#define SEQUENCE_LENGTH 1000

START_TEST(test_same_seed_gives_the_same_sequence)
{
    const uint64_t seeds[] = {0, 1, 42, 0xdeadbeefcafef00dULL, UINT64_MAX};
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        rng_state a, b;
        rng_seed(&a, seeds[i]);
        rng_seed(&b, seeds[i]);
        for (int n = 0; n < SEQUENCE_LENGTH; n++)
            ck_assert_uint_eq(rng_next(&a), rng_next(&b));
    }
}
END_TEST

START_TEST(test_reseeding_restarts_the_sequence)
{
    rng_state rng;
    uint64_t first[16];
    rng_seed(&rng, 7);
    for (int n = 0; n < 16; n++)
        first[n] = rng_next(&rng);
    rng_seed(&rng, 7);
    for (int n = 0; n < 16; n++)
        ck_assert_uint_eq(rng_next(&rng), first[n]);
}
END_TEST

START_TEST(test_different_seeds_give_different_sequences)
{
    /* Neighbouring seeds are the usual case (table counters), so compare seed s with s + 1. */
    for (uint64_t s = 0; s < 200; s++) {
        rng_state a, b;
        rng_seed(&a, s);
        rng_seed(&b, s + 1);
        int same = 0;
        for (int n = 0; n < 64; n++)
            same += rng_next(&a) == rng_next(&b);
        ck_assert_int_lt(same, 2);
    }
}
END_TEST

START_TEST(test_seed_zero_does_not_give_a_stuck_sequence)
{
    rng_state rng;
    rng_seed(&rng, 0);
    uint64_t previous = rng_next(&rng);
    int changes = 0;
    for (int n = 0; n < 100; n++) {
        uint64_t x = rng_next(&rng);
        changes += x != previous;
        previous = x;
    }
    ck_assert_int_eq(changes, 100);
}
END_TEST

START_TEST(test_below_stays_in_range_for_every_bound)
{
    const uint32_t bounds[] = {1, 2, 3, 4, 6, 7, 10, 32, 1000, 65537, 0x80000001u, 0xc0000000u, UINT32_MAX};
    rng_state rng;
    rng_seed(&rng, 99);
    for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++)
        for (int n = 0; n < 5000; n++)
            ck_assert_uint_lt(rng_below(&rng, bounds[i]), bounds[i]);
}
END_TEST

START_TEST(test_below_one_is_always_zero)
{
    rng_state rng;
    rng_seed(&rng, 5);
    for (int n = 0; n < 1000; n++)
        ck_assert_uint_eq(rng_below(&rng, 1), 0);
}
END_TEST

/*
 * Chi-square of 60,000 die rolls against the uniform law, 5 degrees of freedom. The 99.9% point
 * is 20.5; the seeds are fixed, so a pass is stable, and a biased generator fails by far.
 */
START_TEST(test_below_six_is_roughly_uniform)
{
    const int draws = 60000;
    for (uint64_t seed = 1; seed <= 5; seed++) {
        rng_state rng;
        long count[6] = {0};
        rng_seed(&rng, seed);
        for (int n = 0; n < draws; n++)
            count[rng_below(&rng, 6)]++;
        double expected = draws / 6.0, chi2 = 0;
        for (int v = 0; v < 6; v++)
            chi2 += (count[v] - expected) * (count[v] - expected) / expected;
        ck_assert_double_lt(chi2, 20.5);
    }
}
END_TEST

/*
 * With bound = 3 * 2^30, `x % bound` on a 32-bit x would land below 2^30 half the time
 * (x in [0, 2^30) and in [3 * 2^30, 2^32)). A uniform draw lands there a third of the time.
 */
START_TEST(test_below_a_large_bound_shows_no_modulo_bias)
{
    const uint32_t bound = 0xc0000000u;
    const int draws = 30000;
    rng_state rng;
    rng_seed(&rng, 2024);
    int low = 0;
    for (int n = 0; n < draws; n++)
        low += rng_below(&rng, bound) < 0x40000000u;
    double share = (double)low / draws;
    ck_assert_double_gt(share, 1.0 / 3 - 0.02);
    ck_assert_double_lt(share, 1.0 / 3 + 0.02);
}
END_TEST

static int compare_bytes(const void *a, const void *b)
{
    return (int)*(const uint8_t *)a - (int)*(const uint8_t *)b;
}

START_TEST(test_shuffle_is_a_permutation)
{
    rng_state rng;
    rng_seed(&rng, 3);
    for (int round = 0; round < 200; round++) {
        uint8_t items[32], sorted[32];
        for (int i = 0; i < 32; i++)
            items[i] = (uint8_t)i;
        rng_shuffle(&rng, items, 32);
        memcpy(sorted, items, sizeof sorted);
        qsort(sorted, 32, 1, compare_bytes);
        for (int i = 0; i < 32; i++)
            ck_assert_uint_eq(sorted[i], i);
    }
}
END_TEST

START_TEST(test_shuffle_keeps_repeated_items)
{
    /* The tile set has two copies of every civil kind: a shuffle must keep the multiset. */
    uint8_t items[8] = {4, 4, 1, 1, 1, 9, 0, 0}, before[8];
    memcpy(before, items, sizeof items);
    rng_state rng;
    rng_seed(&rng, 11);
    rng_shuffle(&rng, items, 8);
    qsort(items, 8, 1, compare_bytes);
    qsort(before, 8, 1, compare_bytes);
    ck_assert_mem_eq(items, before, sizeof items);
}
END_TEST

START_TEST(test_shuffle_of_zero_or_one_item_changes_nothing)
{
    rng_state rng;
    uint8_t one = 17;
    rng_seed(&rng, 1);
    rng_shuffle(&rng, &one, 1);
    ck_assert_uint_eq(one, 17);
    rng_shuffle(&rng, &one, 0);
    ck_assert_uint_eq(one, 17);
}
END_TEST

START_TEST(test_shuffle_depends_on_the_seed)
{
    uint8_t a[32], b[32];
    for (int i = 0; i < 32; i++)
        a[i] = b[i] = (uint8_t)i;
    rng_state ra, rb;
    rng_seed(&ra, 1000);
    rng_seed(&rb, 1001);
    rng_shuffle(&ra, a, 32);
    rng_shuffle(&rb, b, 32);
    ck_assert_int_ne(memcmp(a, b, sizeof a), 0);
}
END_TEST

/* Each of the 24 orders of 4 items should come up about 1/24 of the time (chi-square, 23 d.f.). */
START_TEST(test_shuffle_reaches_every_order_about_equally)
{
    const int rounds = 48000;
    long count[4][4][4][4];
    memset(count, 0, sizeof count);
    rng_state rng;
    rng_seed(&rng, 77);
    for (int r = 0; r < rounds; r++) {
        uint8_t items[4] = {0, 1, 2, 3};
        rng_shuffle(&rng, items, 4);
        count[items[0]][items[1]][items[2]][items[3]]++;
    }
    double expected = rounds / 24.0, chi2 = 0;
    int orders = 0;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            for (int c = 0; c < 4; c++)
                for (int d = 0; d < 4; d++) {
                    if (a == b || a == c || a == d || b == c || b == d || c == d) {
                        ck_assert_int_eq(count[a][b][c][d], 0);
                        continue;
                    }
                    orders++;
                    chi2 += (count[a][b][c][d] - expected) * (count[a][b][c][d] - expected) / expected;
                }
    ck_assert_int_eq(orders, 24);
    ck_assert_double_lt(chi2, 49.7); /* the 99.9% point of chi-square with 23 d.f. */
}
END_TEST

static Suite *rng_suite(void)
{
    Suite *s = suite_create("rng");
    TCase *tc = tcase_create("rng");
    tcase_add_test(tc, test_same_seed_gives_the_same_sequence);
    tcase_add_test(tc, test_reseeding_restarts_the_sequence);
    tcase_add_test(tc, test_different_seeds_give_different_sequences);
    tcase_add_test(tc, test_seed_zero_does_not_give_a_stuck_sequence);
    tcase_add_test(tc, test_below_stays_in_range_for_every_bound);
    tcase_add_test(tc, test_below_one_is_always_zero);
    tcase_add_test(tc, test_below_six_is_roughly_uniform);
    tcase_add_test(tc, test_below_a_large_bound_shows_no_modulo_bias);
    tcase_add_test(tc, test_shuffle_is_a_permutation);
    tcase_add_test(tc, test_shuffle_keeps_repeated_items);
    tcase_add_test(tc, test_shuffle_of_zero_or_one_item_changes_nothing);
    tcase_add_test(tc, test_shuffle_depends_on_the_seed);
    tcase_add_test(tc, test_shuffle_reaches_every_order_about_equally);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(rng_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
