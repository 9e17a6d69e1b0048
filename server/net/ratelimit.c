/*
 * ratelimit — the token bucket and its strikes. See ratelimit.h.
 */
#include "ratelimit.h"

void rate_init(rate_bucket *bucket, double burst, uint64_t now_ms)
{
    bucket->tokens = burst;
    bucket->last_ms = now_ms;
    bucket->strikes = 0;
}

bool rate_take(rate_bucket *bucket, double rate, double burst, uint64_t now_ms)
{
    if (now_ms > bucket->last_ms) {
        bucket->tokens += (double)(now_ms - bucket->last_ms) * rate / 1000.0;
        if (bucket->tokens >= burst) {
            bucket->tokens = burst;
            bucket->strikes = 0; /* the spell of flooding, if any, is over */
        }
        bucket->last_ms = now_ms;
    }
    if (bucket->tokens < 1.0)
        return false;
    bucket->tokens -= 1.0;
    return true;
}

rate_verdict rate_check(rate_bucket *bucket, double rate, double burst, uint64_t now_ms)
{
    if (rate_take(bucket, rate, burst, now_ms))
        return RATE_PASS;
    if (bucket->strikes < RATE_STRIKES_TO_CLOSE) {
        bucket->strikes++;
        return RATE_REFUSE;
    }
    return RATE_CLOSE;
}
