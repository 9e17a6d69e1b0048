/*
 * rng — the engine's deterministic random numbers (xoshiro256** seeded by splitmix64).
 *
 * The same seed gives the same sequence on every machine; shuffles and dice of every game
 * come from here so a hand is rebuilt bit for bit from its seed. Not for secrets.
 */
#ifndef RNG_H
#define RNG_H

#include <stdint.h>

typedef struct rng_state {
    uint64_t s[4];
} rng_state;

void rng_seed(rng_state *rng, uint64_t seed);
uint64_t rng_next(rng_state *rng);

/* A uniform integer in [0, bound), bound > 0, without modulo bias. */
uint32_t rng_below(rng_state *rng, uint32_t bound);

/* Shuffles n bytes in place (Fisher-Yates). */
void rng_shuffle(rng_state *rng, uint8_t *items, int n);

#endif
