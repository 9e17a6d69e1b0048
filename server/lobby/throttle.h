/*
 * throttle — limits by key (a peer address, an account name) rather than by connection, for the
 * things a stranger could otherwise do without end from many connections: new guests, failed
 * joins of private tables, failed logins.
 *
 * Each key has a token bucket (`rate` a second on average, bursts of `burst`) and, for failures,
 * a growing delay: after the bucket is spent each further failure doubles the time the key must
 * wait (from base_delay_ms up to max_delay_ms, never for ever, so a stranger cannot lock anyone
 * out for good). A key untouched for idle_ms is forgotten. Time is the loop's clock in ms, passed
 * in; nothing here reads a clock or allocates per call beyond a new key's entry.
 *
 * The memory is bounded: at most max_keys keys; when full, the oldest idle key is forgotten first,
 * and if none is idle the request is refused (a flood of fresh keys cannot grow it).
 */
#ifndef THROTTLE_H
#define THROTTLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct throttle_config {
    double rate;           /* tokens a second */
    double burst;          /* bucket size */
    uint64_t base_delay_ms; /* 0: no growing delay, the bucket alone */
    uint64_t max_delay_ms;
    uint64_t idle_ms;      /* a key this long untouched (and not waiting) is forgotten */
    size_t max_keys;
} throttle_config;

typedef struct throttle throttle;

throttle *throttle_create(const throttle_config *config);
void throttle_destroy(throttle *t);

/* May key do one more now? Takes a token when yes. When no, *wait_ms (if not NULL) is how long
 * until it may. */
bool throttle_allow(throttle *t, const char *key, uint64_t now_ms, uint64_t *wait_ms);

/* Would key be refused now (waiting out its delay, or no token left)? Takes nothing and makes no
 * entry: for a gate where only failures count, checked before the outcome is known and followed,
 * on a failure, by throttle_allow and throttle_fail. A key not yet known is refused only when the
 * table is full (as throttle_allow would refuse it when no key is idle). */
bool throttle_blocked(const throttle *t, const char *key, uint64_t now_ms, uint64_t *wait_ms);

/* A failure by key (a wrong password, a code that names no table): spends a token and, once the
 * bucket is empty, doubles the key's delay. */
void throttle_fail(throttle *t, const char *key, uint64_t now_ms);

/* A success: the key's delay is forgiven (its bucket is left as it is). */
void throttle_succeed(throttle *t, const char *key, uint64_t now_ms);

/* Forgets keys idle for idle_ms; returns how many are kept. */
size_t throttle_sweep(throttle *t, uint64_t now_ms);

size_t throttle_size(const throttle *t);

#endif
