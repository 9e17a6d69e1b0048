/*
 * ratelimit — a token bucket per connection: `rate` messages a second on average, bursts of
 * `burst`. Time is the loop's clock in milliseconds, passed in, so it is testable.
 */
#ifndef RATELIMIT_H
#define RATELIMIT_H

#include <stdbool.h>
#include <stdint.h>

typedef struct rate_bucket {
    double tokens;
    uint64_t last_ms;
} rate_bucket;

void rate_init(rate_bucket *bucket, double burst, uint64_t now_ms);

/* Takes one token if there is one; false means the message is over the limit. */
bool rate_take(rate_bucket *bucket, double rate, double burst, uint64_t now_ms);

#endif
