/*
 * ratelimit — the token bucket lets a burst through, then the average rate, and refills with time.
 */
#include <check.h>
#include <stdlib.h>

#include "ratelimit.h"

START_TEST(test_a_burst_passes_then_the_bucket_is_empty)
{
    rate_bucket b;
    rate_init(&b, 40, 1000);
    int passed = 0;
    for (int i = 0; i < 100; i++)
        passed += rate_take(&b, 20, 40, 1000);
    ck_assert_int_eq(passed, 40);
}
END_TEST

START_TEST(test_tokens_come_back_at_the_rate_and_no_faster_than_the_burst)
{
    rate_bucket b;
    rate_init(&b, 40, 0);
    for (int i = 0; i < 40; i++)
        ck_assert(rate_take(&b, 20, 40, 0));
    ck_assert(!rate_take(&b, 20, 40, 0));
    /* 20 per second: 100 ms brings 2 */
    ck_assert(rate_take(&b, 20, 40, 100));
    ck_assert(rate_take(&b, 20, 40, 100));
    ck_assert(!rate_take(&b, 20, 40, 100));
    /* an hour of silence refills to the burst, not beyond */
    int passed = 0;
    for (int i = 0; i < 100; i++)
        passed += rate_take(&b, 20, 40, 3600 * 1000);
    ck_assert_int_eq(passed, 40);
}
END_TEST

START_TEST(test_a_clock_that_does_not_move_adds_nothing)
{
    rate_bucket b;
    rate_init(&b, 1, 500);
    ck_assert(rate_take(&b, 20, 1, 500));
    ck_assert(!rate_take(&b, 20, 1, 400)); /* an earlier time is not a refill */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ratelimit");
    TCase *tc = tcase_create("bucket");
    tcase_add_test(tc, test_a_burst_passes_then_the_bucket_is_empty);
    tcase_add_test(tc, test_tokens_come_back_at_the_rate_and_no_faster_than_the_burst);
    tcase_add_test(tc, test_a_clock_that_does_not_move_adds_nothing);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
