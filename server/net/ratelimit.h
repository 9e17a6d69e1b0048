/*
 * ratelimit — a token bucket per connection: `rate` messages a second on average, bursts of
 * `burst`, and what to do with a client that keeps going over it. Time is the loop's clock in
 * milliseconds, passed in, so it is testable.
 *
 * Strikes: each message the bucket refuses is a strike, and more than RATE_STRIKES_TO_CLOSE
 * strikes in one spell of flooding close the connection. A spell ends, and its strikes are
 * forgiven, when the bucket has filled up to its whole burst again: the client has stayed under
 * the rate for long enough to earn the burst back (burst / rate seconds of silence at most: 2 s
 * with the house's 20 a second and 40). So a client that now and then bursts past the limit (15
 * a second on average, in bursts of 45) loses a few messages per burst and is never closed,
 * while one that keeps sending faster than the rate never refills its bucket and is closed.
 */
#ifndef RATELIMIT_H
#define RATELIMIT_H

#include <stdbool.h>
#include <stdint.h>

/* Refused messages one spell of flooding may cost before the connection is closed. */
#define RATE_STRIKES_TO_CLOSE 200

typedef struct rate_bucket {
    double tokens;
    uint64_t last_ms;
    int strikes; /* messages refused since the bucket was last full */
} rate_bucket;

typedef enum rate_verdict {
    RATE_PASS,   /* handle the message */
    RATE_REFUSE, /* over the limit: refuse this message (rate_limited) */
    RATE_CLOSE,  /* over the limit for too long: close the connection */
} rate_verdict;

void rate_init(rate_bucket *bucket, double burst, uint64_t now_ms);

/* Takes one token if there is one; false means the message is over the limit. A bucket that
 * has refilled to its burst forgets its strikes. */
bool rate_take(rate_bucket *bucket, double rate, double burst, uint64_t now_ms);

/* rate_take plus the strikes: the verdict on one incoming message. */
rate_verdict rate_check(rate_bucket *bucket, double rate, double burst, uint64_t now_ms);

#endif
