/*
 * bench_mj_playout — how fast the Tianjin engine plays whole hands on one core.
 *
 * Each hand is dealt from its own seed (the banker going round) and played to the end with every
 * action chosen uniformly at random from mj_hand_legal_actions, so the figure includes listing
 * the legal actions (with the win test, mj_score_hand, at every turn), checking and applying
 * them, and the settlement: the work a bot's search or a replay does.
 *
 *   bench_mj_playout [hands]        (default 200000)
 *
 * Prints hands/s, actions/s, and how the random hands ended. Exits 1 if the engine ever offers
 * no action to the seat deciding, refuses one of its own legal actions, or settles a hand whose
 * net does not sum to zero.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mj_hand.h"
#include "rng.h"

/* CPU time of this process: the figures are per core even when the machine is shared. */
static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct playout_totals {
    long hands, won, kongs, actions, errors;
    int64_t checksum; /* depends on every result, so nothing is optimised away */
} playout_totals;

static void play_random_hand(uint64_t seed, int banker, playout_totals *t)
{
    static const uint8_t no_pulls[MJ_SEATS] = {0, 0, 0, 0};
    mj_options options = mj_options_default();
    mj_hand h;
    rng_state rng;
    mj_action legal[MJ_MAX_ACTIONS];

    rng_seed(&rng, seed ^ 0x706c61796f757421ULL);
    if (mj_hand_start(&h, &options, seed, banker, false, no_pulls) != MJ_OK) {
        t->errors++;
        return;
    }
    while (!mj_hand_over(&h)) {
        int n = mj_hand_legal_actions(&h, legal);
        if (n <= 0 || mj_hand_act(&h, &legal[rng_below(&rng, (uint32_t)n)]) != MJ_OK) {
            t->errors++;
            return;
        }
        t->actions++;
    }
    t->hands++;
    t->won += h.winner >= 0;
    t->kongs += h.n_kongs;
    int64_t sum = 0;
    for (int s = 0; s < MJ_SEATS; s++) {
        sum += h.settlement.net[s];
        t->checksum += h.settlement.net[s] * (s + 1);
    }
    if (sum != 0)
        t->errors++;
}

int main(int argc, char **argv)
{
    long hands = argc > 1 ? strtol(argv[1], NULL, 10) : 200000;
    if (hands <= 0) {
        fprintf(stderr, "usage: %s [hands > 0]\n", argv[0]);
        return 2;
    }
    playout_totals t = {0};
    double start = now_seconds();
    for (long i = 0; i < hands; i++)
        play_random_hand(0x6d6a000000000000ULL + (uint64_t)i, (int)(i % MJ_SEATS), &t);
    double seconds = now_seconds() - start;
    printf("random playouts: %ld hands in %.2f s CPU: %.0f hands/s, %.0f actions/s (%.1f actions a hand)\n",
           t.hands, seconds, (double)t.hands / seconds, (double)t.actions / seconds,
           t.hands ? (double)t.actions / (double)t.hands : 0.0);
    printf("  won %.2f%%, drawn %.2f%%, %.2f kongs a hand (checksum %lld)\n",
           t.hands ? 100.0 * (double)t.won / (double)t.hands : 0.0,
           t.hands ? 100.0 * (double)(t.hands - t.won) / (double)t.hands : 0.0,
           t.hands ? (double)t.kongs / (double)t.hands : 0.0, (long long)t.checksum);
    if (t.errors != 0) {
        fprintf(stderr, "%ld errors\n", t.errors);
        return 1;
    }
    return 0;
}
