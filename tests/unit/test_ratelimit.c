/*
 * ratelimit — the token bucket lets a burst through, then the average rate, and refills with time;
 * strikes close a client that keeps flooding and are forgiven once it has calmed down. The rate
 * and burst are the house's (house_limits.h: 20 a second, bursts of 40); the clock is passed in.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "house_limits.h"
#include "ratelimit.h"

#define RATE LIMIT_RATE_PER_SECOND
#define BURST LIMIT_RATE_BURST

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

/* Sends `count` messages `gap_ms` apart, starting at *now; counts the verdicts. */
typedef struct tally {
    int passed, refused, closed;
} tally;

static void send_messages(rate_bucket *b, uint64_t *now, int count, uint64_t gap_ms, tally *t)
{
    for (int i = 0; i < count; i++) {
        switch (rate_check(b, RATE, BURST, *now)) {
        case RATE_PASS: t->passed++; break;
        case RATE_REFUSE: t->refused++; break;
        case RATE_CLOSE: t->closed++; break;
        }
        *now += gap_ms;
    }
}

START_TEST(test_a_client_bursting_past_the_limit_now_and_then_is_never_closed)
{
    /* 15 messages a second on average, in bursts of 45 (one every 3 s, 1 ms apart), for an
     * hour: when strikes were never forgiven, the 4 or 5 each burst costs closed it after about
     * two and a half minutes */
    rate_bucket b;
    uint64_t now = 1000;
    rate_init(&b, BURST, now);
    tally t = {0};
    for (int burst = 0; burst < 1200; burst++) {
        uint64_t start = now;
        send_messages(&b, &now, 45, 1, &t);
        now = start + 3000;
    }
    ck_assert_int_eq(t.closed, 0);
    ck_assert_int_ge(t.refused, 1200 * 4); /* it does go over the limit, every time */
    ck_assert_int_eq(t.passed + t.refused, 1200 * 45);
}
END_TEST

START_TEST(test_a_client_sending_faster_than_the_rate_is_closed)
{
    /* 30 a second, steadily: the bucket never refills, the strikes pile up */
    rate_bucket b;
    uint64_t now = 0;
    rate_init(&b, BURST, now);
    tally t = {0};
    while (t.closed == 0 && now < 600 * 1000)
        send_messages(&b, &now, 1, 33, &t);
    ck_assert_int_eq(t.closed, 1);
    ck_assert_int_eq(t.refused, RATE_STRIKES_TO_CLOSE);
    ck_assert_msg(now < 60 * 1000, "closed only after %llu ms", (unsigned long long)now);
}
END_TEST

START_TEST(test_a_client_just_over_the_rate_is_closed_too)
{
    /* 21 a second: one message a second too many, never a refill */
    rate_bucket b;
    uint64_t now = 0;
    rate_init(&b, BURST, now);
    tally t = {0};
    while (t.closed == 0 && now < 3600 * 1000)
        send_messages(&b, &now, 21, 1000 / 21, &t);
    ck_assert_int_eq(t.closed, 1);
    ck_assert_msg(now < 600 * 1000, "closed only after %llu ms", (unsigned long long)now);
}
END_TEST

START_TEST(test_one_huge_burst_is_closed_without_waiting)
{
    rate_bucket b;
    uint64_t now = 5;
    rate_init(&b, BURST, now);
    tally t = {0};
    send_messages(&b, &now, BURST + RATE_STRIKES_TO_CLOSE + 1, 0, &t);
    ck_assert_int_eq(t.passed, BURST);
    ck_assert_int_eq(t.refused, RATE_STRIKES_TO_CLOSE);
    ck_assert_int_eq(t.closed, 1);
}
END_TEST

START_TEST(test_strikes_are_forgiven_once_the_bucket_has_refilled)
{
    rate_bucket b;
    uint64_t now = 0;
    rate_init(&b, BURST, now);
    tally t = {0};
    send_messages(&b, &now, BURST + RATE_STRIKES_TO_CLOSE, 0, &t);
    ck_assert_int_eq(t.refused, RATE_STRIKES_TO_CLOSE);
    /* not yet full again (a second brings back 20 of 40): the strikes stand */
    now += 1000;
    send_messages(&b, &now, RATE + 1, 0, &t);
    ck_assert_int_eq(t.closed, 1);

    rate_init(&b, BURST, now);
    t = (tally){0};
    send_messages(&b, &now, BURST + RATE_STRIKES_TO_CLOSE, 0, &t);
    /* burst / rate seconds of quiet fill it up: a new spell starts from no strikes */
    now += 1000 * BURST / RATE;
    send_messages(&b, &now, BURST + RATE_STRIKES_TO_CLOSE, 0, &t);
    ck_assert_int_eq(t.closed, 0);
    ck_assert_int_eq(t.refused, 2 * RATE_STRIKES_TO_CLOSE);
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
    TCase *strikes = tcase_create("strikes");
    tcase_add_test(strikes, test_a_client_bursting_past_the_limit_now_and_then_is_never_closed);
    tcase_add_test(strikes, test_a_client_sending_faster_than_the_rate_is_closed);
    tcase_add_test(strikes, test_a_client_just_over_the_rate_is_closed_too);
    tcase_add_test(strikes, test_one_huge_burst_is_closed_without_waiting);
    tcase_add_test(strikes, test_strikes_are_forgiven_once_the_bucket_has_refilled);
    suite_add_tcase(s, strikes);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
