/*
 * throttle — limits by key: the bucket, the growing delay of failures (doubling, capped, forgiven
 * by a success), forgetting idle keys, and a bounded table that a flood of new keys cannot grow.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "lobby.h"
#include "throttle.h"

static throttle_config config(void)
{
    return (throttle_config){.rate = 1.0, .burst = 3, .base_delay_ms = 1000, .max_delay_ms = 8000,
                             .idle_ms = 60000, .max_keys = 4};
}

START_TEST(test_a_key_gets_its_burst_then_waits_for_the_rate)
{
    throttle_config c = config();
    throttle *t = throttle_create(&c);
    uint64_t wait = 0;
    for (int i = 0; i < 3; i++)
        ck_assert(throttle_allow(t, "1.2.3.4", 0, &wait));
    ck_assert(!throttle_allow(t, "1.2.3.4", 0, &wait));
    ck_assert_uint_gt(wait, 900);
    ck_assert_uint_le(wait, 1001);
    ck_assert(!throttle_allow(t, "1.2.3.4", 500, NULL));
    ck_assert(throttle_allow(t, "1.2.3.4", 1000, NULL));
    /* another key is not touched by the first's use */
    ck_assert(throttle_allow(t, "5.6.7.8", 1000, NULL));
    throttle_destroy(t);
}
END_TEST

START_TEST(test_failures_past_the_burst_double_the_delay_up_to_its_cap_and_a_success_forgives_it)
{
    throttle_config c = config();
    c.rate = 0.001; /* no refill to speak of */
    throttle *t = throttle_create(&c);
    for (int i = 0; i < 3; i++)
        throttle_fail(t, "mei", 0);
    ck_assert(!throttle_allow(t, "mei", 0, NULL)); /* the bucket is spent */
    uint64_t wait = 0;
    uint64_t now = 0;
    uint64_t expected[] = {1000, 2000, 4000, 8000, 8000};
    for (int i = 0; i < 5; i++) {
        throttle_fail(t, "mei", now);
        ck_assert(!throttle_allow(t, "mei", now, &wait));
        ck_assert_uint_eq(wait, expected[i]);
        now += wait;
    }
    throttle_succeed(t, "mei", now);
    ck_assert(!throttle_allow(t, "mei", now, &wait)); /* still no token: the bucket is its own */
    ck_assert_uint_lt(wait, 1000000);
    throttle_destroy(t);
}
END_TEST

START_TEST(test_idle_keys_are_forgotten_and_a_flood_of_new_keys_cannot_grow_the_table)
{
    throttle_config c = config();
    throttle *t = throttle_create(&c);
    char key[16];
    for (int i = 0; i < 4; i++) {
        snprintf(key, sizeof key, "k%d", i);
        ck_assert(throttle_allow(t, key, 0, NULL));
    }
    ck_assert_uint_eq(throttle_size(t), 4);
    /* full of busy keys: a fifth is refused, the table does not grow */
    ck_assert(!throttle_allow(t, "k4", 10, NULL));
    ck_assert_uint_eq(throttle_size(t), 4);
    /* once keys are idle, a new one takes the oldest's place */
    ck_assert(throttle_allow(t, "k4", 60000, NULL));
    ck_assert_uint_eq(throttle_size(t), 4);
    ck_assert_uint_eq(throttle_sweep(t, 200000), 0);
    throttle_destroy(t);
}
END_TEST

START_TEST(test_a_peek_takes_nothing_and_says_how_long_a_key_must_wait)
{
    throttle_config c = config();
    c.rate = 0.001;
    throttle *t = throttle_create(&c);
    uint64_t wait = 1;
    ck_assert(!throttle_blocked(t, "new", 0, &wait)); /* unknown: free, and no entry is made */
    ck_assert_uint_eq(wait, 0);
    ck_assert_uint_eq(throttle_size(t), 0);
    for (int i = 0; i < 10; i++)
        ck_assert(!throttle_blocked(t, "new", 0, NULL)); /* peeking spends nothing */
    for (int i = 0; i < 3; i++)
        ck_assert(throttle_allow(t, "new", 0, NULL));
    ck_assert(throttle_blocked(t, "new", 0, &wait)); /* the bucket is spent */
    ck_assert_uint_gt(wait, 0);
    throttle_fail(t, "new", 0);                      /* a failure past it: the growing delay */
    ck_assert(throttle_blocked(t, "new", 500, &wait));
    ck_assert_uint_eq(wait, 500);
    /* a full table refuses an unknown key, as throttle_allow would */
    throttle_config small = config();
    small.max_keys = 1;
    throttle *full = throttle_create(&small);
    ck_assert(throttle_allow(full, "a", 0, NULL));
    ck_assert(throttle_blocked(full, "b", 0, &wait));
    ck_assert_uint_eq(wait, 1000);
    throttle_destroy(full);
    throttle_destroy(t);
}
END_TEST

/* The lobby's gate on join_table: a peek before, a try and a failure on each miss. Returns the
 * misses of a guesser who tries again the moment the gate lets it, over seconds of time. */
static int greedy_misses(throttle *t, const char *key, uint64_t seconds)
{
    int misses = 0;
    for (uint64_t now = 0; now < seconds * 1000;) {
        uint64_t wait = 0;
        if (throttle_blocked(t, key, now, &wait)) {
            now += wait;
            continue;
        }
        throttle_allow(t, key, now, NULL);
        throttle_fail(t, key, now);
        misses++;
        now += 1; /* a millisecond a try */
    }
    return misses;
}

START_TEST(test_a_greedy_guesser_misses_10_at_once_then_fewer_than_one_a_minute)
{
    throttle_config c = lobby_code_miss_config();
    throttle *t = throttle_create(&c);
    ck_assert_int_eq(greedy_misses(t, "burst", 1), 10);
    int hour = greedy_misses(t, "hour", 3600);
    int day = greedy_misses(t, "day", 24 * 3600);
    fprintf(stderr, "code misses of one address: 10 at once, %d in an hour, %d in a day\n", hour, day);
    ck_assert_int_le(hour, 10 + 60);
    ck_assert_int_le(day, 10 + 24 * 60);
    throttle_destroy(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("throttle");
    TCase *tc = tcase_create("throttle");
    tcase_add_test(tc, test_a_key_gets_its_burst_then_waits_for_the_rate);
    tcase_add_test(tc, test_failures_past_the_burst_double_the_delay_up_to_its_cap_and_a_success_forgives_it);
    tcase_add_test(tc, test_idle_keys_are_forgotten_and_a_flood_of_new_keys_cannot_grow_the_table);
    tcase_add_test(tc, test_a_peek_takes_nothing_and_says_how_long_a_key_must_wait);
    tcase_add_test(tc, test_a_greedy_guesser_misses_10_at_once_then_fewer_than_one_a_minute);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
