/*
 * rng — xoshiro256** (Blackman and Vigna), state filled by splitmix64 so that any 64-bit seed,
 * zero included, gives a well-mixed non-zero state.
 */
#include "rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void rng_seed(rng_state *rng, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix64(&seed);
}

uint64_t rng_next(rng_state *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint32_t rng_below(rng_state *rng, uint32_t bound)
{
    /* Reject the top sliver of the 32-bit range that would bias the remainder. */
    uint32_t limit = (uint32_t)(0x100000000ULL - (0x100000000ULL % bound));
    for (;;) {
        uint32_t x = (uint32_t)(rng_next(rng) >> 32);
        if (limit == 0 || x < limit)
            return x % bound;
    }
}

void rng_shuffle(rng_state *rng, uint8_t *items, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(rng, (uint32_t)i + 1);
        uint8_t t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}
