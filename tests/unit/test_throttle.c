/*
 * throttle — limits by key: the bucket, the growing delay of failures (doubling, capped, forgiven
 * by a success), forgetting idle keys, and a bounded table that a flood of new keys cannot grow.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

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

int main(void)
{
    Suite *s = suite_create("throttle");
    TCase *tc = tcase_create("throttle");
    tcase_add_test(tc, test_a_key_gets_its_burst_then_waits_for_the_rate);
    tcase_add_test(tc, test_failures_past_the_burst_double_the_delay_up_to_its_cap_and_a_success_forgives_it);
    tcase_add_test(tc, test_idle_keys_are_forgotten_and_a_flood_of_new_keys_cannot_grow_the_table);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
