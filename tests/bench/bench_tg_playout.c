/*
 * bench_tg_playout — how fast the Tien Gow engine plays whole hands on one core.
 *
 * Each hand is dealt from its own seed and played to the end with every action chosen
 * uniformly at random from tg_legal_actions, so the figure includes legal-action generation,
 * checking and applying actions, bonuses and settlement: the work a bot search or a replay
 * does. A second pass times tg_legal_actions alone over a sample of the positions met.
 *
 *   bench_tg_playout [hands]        (default 200000)
 *
 * Prints hands/s, actions/s and ns per legal-action generation. Exits 1 if the engine ever
 * offers no action to the seat to act, refuses one of its own legal actions, or ends a hand
 * with a net that does not sum to zero.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rng.h"
#include "tg_hand.h"

#define SAMPLE_POSITIONS 4096
#define LEGAL_REPEATS 64

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct playout_totals {
    long hands;
    long naturals;
    long actions;
    long legal_listed; /* sum of the sizes of every legal list generated */
    long errors;
    int64_t checksum;  /* keeps the optimiser honest: depends on every result */
} playout_totals;

/* Plays one hand from its seed with uniform random legal actions; may save one position. */
static void play_random_hand(uint64_t seed, int banker, playout_totals *totals, tg_state *sample)
{
    uint8_t deal[TG_SEATS][TG_HAND_TILES];
    tg_options options = tg_options_default();
    tg_state st;
    rng_state rng;
    tg_action legal[TG_MAX_ACTIONS];

    tg_deal(seed, deal);
    rng_seed(&rng, seed ^ 0x706c61796f757421ULL);
    /* C11 does not convert uint8_t (*)[8] to const uint8_t (*)[8] by itself. */
    if (tg_start(&st, &options, banker, 2, (const uint8_t(*)[TG_HAND_TILES])deal) != TG_OK) {
        totals->errors++;
        return;
    }
    totals->hands++;
    if (tg_is_over(&st))
        totals->naturals++;
    uint32_t sample_at = rng_below(&rng, 24);
    for (uint32_t step = 0; !tg_is_over(&st); step++) {
        if (sample != NULL && step == sample_at)
            *sample = st;
        int count = tg_legal_actions(&st, st.to_act, legal, TG_MAX_ACTIONS);
        if (count <= 0 || tg_apply_action(&st, &legal[rng_below(&rng, (uint32_t)count)]) != TG_OK) {
            totals->errors++;
            return;
        }
        totals->actions++;
        totals->legal_listed += count;
    }
    int64_t sum = 0;
    for (int s = 0; s < TG_SEATS; s++) {
        sum += st.result.net[s];
        totals->checksum += st.result.net[s] * (s + 1);
    }
    if (sum != 0)
        totals->errors++;
}

/* Mean time of one tg_legal_actions call over saved positions. */
static double legal_generation_ns(const tg_state *positions, int n, int64_t *checksum)
{
    tg_action legal[TG_MAX_ACTIONS];
    double start = now_seconds();
    for (int r = 0; r < LEGAL_REPEATS; r++)
        for (int i = 0; i < n; i++)
            *checksum += tg_legal_actions(&positions[i], positions[i].to_act, legal, TG_MAX_ACTIONS);
    double elapsed = now_seconds() - start;
    return elapsed * 1e9 / ((double)n * LEGAL_REPEATS);
}

int main(int argc, char **argv)
{
    long hands = argc > 1 ? strtol(argv[1], NULL, 10) : 200000;
    if (hands <= 0) {
        fprintf(stderr, "usage: %s [hands > 0]\n", argv[0]);
        return 2;
    }
    playout_totals totals = {0};
    double start = now_seconds();
    for (long i = 0; i < hands; i++)
        play_random_hand(0x5eed0000ULL + (uint64_t)i, (int)(i % TG_SEATS), &totals, NULL);
    double elapsed = now_seconds() - start;

    /* Positions for the legal-generation pass: one random point of each of the first hands. */
    static tg_state positions[SAMPLE_POSITIONS];
    int n_positions = 0;
    playout_totals sample_totals = {0};
    for (uint64_t i = 0; n_positions < SAMPLE_POSITIONS && i < 4 * SAMPLE_POSITIONS; i++) {
        positions[n_positions].phase = TG_PHASE_OVER;
        play_random_hand(0xabcd0000ULL + i, (int)(i % TG_SEATS), &sample_totals, &positions[n_positions]);
        if (positions[n_positions].phase == TG_PHASE_PLAY)
            n_positions++;
    }
    int64_t legal_checksum = 0;
    double ns_per_legal = legal_generation_ns(positions, n_positions, &legal_checksum);

    printf("random playouts: %ld hands (%ld natural), %ld actions in %.3f s\n", totals.hands, totals.naturals,
           totals.actions, elapsed);
    printf("hands/s:   %.0f\n", (double)totals.hands / elapsed);
    printf("actions/s: %.0f\n", (double)totals.actions / elapsed);
    printf("mean legal actions offered: %.1f\n", (double)totals.legal_listed / (double)totals.actions);
    printf("ns per legal-action generation: %.1f (over %d positions)\n", ns_per_legal, n_positions);
    printf("checksum: %lld %lld\n", (long long)totals.checksum, (long long)legal_checksum);
    if (totals.errors + sample_totals.errors > 0) {
        fprintf(stderr, "engine errors: %ld\n", totals.errors + sample_totals.errors);
        return 1;
    }
    return 0;
}
