/*
 * throttle — see throttle.h. Keys live in an open hash table (chained), each with its bucket,
 * its growing delay and when it was last touched; the sweep and the "full" path both forget the
 * keys idle longest.
 */
#include "throttle.h"

#include <stdlib.h>
#include <string.h>

#define THROTTLE_KEY_MAX 96
#define THROTTLE_BUCKETS 1024

typedef struct entry {
    char key[THROTTLE_KEY_MAX];
    double tokens;
    uint64_t refilled_ms;   /* when tokens were last brought up to date */
    uint64_t delay_ms;      /* the current growing delay, 0 when none */
    uint64_t blocked_until; /* no more until then */
    uint64_t touched_ms;
    struct entry *next;
} entry;

struct throttle {
    throttle_config config;
    entry *buckets[THROTTLE_BUCKETS];
    size_t n;
};

static unsigned hash_key(const char *key)
{
    unsigned h = 2166136261u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * 16777619u;
    return h % THROTTLE_BUCKETS;
}

throttle *throttle_create(const throttle_config *config)
{
    throttle *t = calloc(1, sizeof *t);
    if (t != NULL)
        t->config = *config;
    return t;
}

void throttle_destroy(throttle *t)
{
    if (t == NULL)
        return;
    for (size_t b = 0; b < THROTTLE_BUCKETS; b++)
        for (entry *e = t->buckets[b]; e != NULL;) {
            entry *next = e->next;
            free(e);
            e = next;
        }
    free(t);
}

static bool is_idle(const throttle *t, const entry *e, uint64_t now_ms)
{
    return now_ms >= e->blocked_until && now_ms - e->touched_ms >= t->config.idle_ms;
}

/* Forgets the key idle longest; false if no key is idle. */
static bool forget_oldest_idle(throttle *t, uint64_t now_ms)
{
    entry **oldest = NULL;
    for (size_t b = 0; b < THROTTLE_BUCKETS; b++)
        for (entry **link = &t->buckets[b]; *link != NULL; link = &(*link)->next)
            if (is_idle(t, *link, now_ms) && (oldest == NULL || (*link)->touched_ms < (*oldest)->touched_ms))
                oldest = link;
    if (oldest == NULL)
        return false;
    entry *dead = *oldest;
    *oldest = dead->next;
    free(dead);
    t->n--;
    return true;
}

/* The key's entry, made with a full bucket if new; NULL when the table is full of busy keys. */
static entry *find(throttle *t, const char *key, uint64_t now_ms)
{
    unsigned b = hash_key(key);
    for (entry *e = t->buckets[b]; e != NULL; e = e->next)
        if (strncmp(e->key, key, THROTTLE_KEY_MAX - 1) == 0)
            return e;
    if (t->n >= t->config.max_keys && !forget_oldest_idle(t, now_ms))
        return NULL;
    entry *e = calloc(1, sizeof *e);
    if (e == NULL)
        return NULL;
    strncpy(e->key, key, THROTTLE_KEY_MAX - 1);
    e->tokens = t->config.burst;
    e->refilled_ms = now_ms;
    e->touched_ms = now_ms;
    e->next = t->buckets[b];
    t->buckets[b] = e;
    t->n++;
    return e;
}

static void refill(const throttle *t, entry *e, uint64_t now_ms)
{
    if (now_ms > e->refilled_ms) {
        e->tokens += (double)(now_ms - e->refilled_ms) / 1000.0 * t->config.rate;
        if (e->tokens > t->config.burst)
            e->tokens = t->config.burst;
    }
    e->refilled_ms = now_ms;
    e->touched_ms = now_ms;
}

static uint64_t until_token(const throttle *t, const entry *e)
{
    if (e->tokens >= 1.0 || t->config.rate <= 0)
        return e->tokens >= 1.0 ? 0 : UINT64_MAX;
    return (uint64_t)((1.0 - e->tokens) / t->config.rate * 1000.0) + 1;
}

bool throttle_allow(throttle *t, const char *key, uint64_t now_ms, uint64_t *wait_ms)
{
    entry *e = find(t, key, now_ms);
    if (e == NULL) {
        if (wait_ms != NULL)
            *wait_ms = 1000;
        return false;
    }
    refill(t, e, now_ms);
    if (now_ms < e->blocked_until) {
        if (wait_ms != NULL)
            *wait_ms = e->blocked_until - now_ms;
        return false;
    }
    if (e->tokens < 1.0) {
        if (wait_ms != NULL)
            *wait_ms = until_token(t, e);
        return false;
    }
    e->tokens -= 1.0;
    if (wait_ms != NULL)
        *wait_ms = 0;
    return true;
}

bool throttle_blocked(const throttle *t, const char *key, uint64_t now_ms, uint64_t *wait_ms)
{
    const entry *e = t->buckets[hash_key(key)];
    while (e != NULL && strncmp(e->key, key, THROTTLE_KEY_MAX - 1) != 0)
        e = e->next;
    uint64_t wait = 0;
    if (e == NULL) {
        wait = t->n >= t->config.max_keys ? 1000 : 0;
    } else if (now_ms < e->blocked_until) {
        wait = e->blocked_until - now_ms;
    } else {
        entry now = *e; /* the bucket brought up to date, on a copy */
        refill(t, &now, now_ms);
        wait = until_token(t, &now);
    }
    if (wait_ms != NULL)
        *wait_ms = wait;
    return wait > 0;
}

void throttle_fail(throttle *t, const char *key, uint64_t now_ms)
{
    entry *e = find(t, key, now_ms);
    if (e == NULL)
        return;
    refill(t, e, now_ms);
    if (e->tokens >= 1.0) {
        e->tokens -= 1.0;
        return;
    }
    if (t->config.base_delay_ms == 0)
        return;
    e->delay_ms = e->delay_ms == 0 ? t->config.base_delay_ms : e->delay_ms * 2;
    if (e->delay_ms > t->config.max_delay_ms)
        e->delay_ms = t->config.max_delay_ms;
    e->blocked_until = now_ms + e->delay_ms;
}

void throttle_succeed(throttle *t, const char *key, uint64_t now_ms)
{
    unsigned b = hash_key(key);
    for (entry *e = t->buckets[b]; e != NULL; e = e->next)
        if (strncmp(e->key, key, THROTTLE_KEY_MAX - 1) == 0) {
            e->delay_ms = 0;
            e->blocked_until = 0;
            e->touched_ms = now_ms;
            return;
        }
}

size_t throttle_sweep(throttle *t, uint64_t now_ms)
{
    for (size_t b = 0; b < THROTTLE_BUCKETS; b++)
        for (entry **link = &t->buckets[b]; *link != NULL;) {
            entry *e = *link;
            if (is_idle(t, e, now_ms)) {
                *link = e->next;
                free(e);
                t->n--;
            } else {
                link = &e->next;
            }
        }
    return t->n;
}

size_t throttle_size(const throttle *t) { return t->n; }
