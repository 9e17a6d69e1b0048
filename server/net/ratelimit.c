#include "ratelimit.h"

void rate_init(rate_bucket *bucket, double burst, uint64_t now_ms)
{
    bucket->tokens = burst;
    bucket->last_ms = now_ms;
}

bool rate_take(rate_bucket *bucket, double rate, double burst, uint64_t now_ms)
{
    if (now_ms > bucket->last_ms) {
        bucket->tokens += (double)(now_ms - bucket->last_ms) * rate / 1000.0;
        if (bucket->tokens > burst)
            bucket->tokens = burst;
        bucket->last_ms = now_ms;
    }
    if (bucket->tokens < 1.0)
        return false;
    bucket->tokens -= 1.0;
    return true;
}
