/*
 * bench_mj_score — how fast Tianjin hands are judged and priced on one core.
 *
 * Win detection with the best-reading search (mj_score_hand: is it four sets and a pair, and which
 * reading gives the highest total) on random complete hands holding 0 to 8 wilds (0-7 in the normal
 * preset, 8 under 刮大风, which has 11 or 15 wild tiles), evaluations per second for each number
 * of wilds and for the mix; then settlement: mj_settle alone, and whole settle-mode answers of the
 * calculator (JSON text in, JSON text out, as teahouse-score answers).
 *
 *   bench_mj_score [evaluations per wild count]   (default 200000)
 *
 * Exits 1 if a generated hand is not a win or the answers stop summing to zero.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mj_fan.h"
#include "mj_settle.h"
#include "rng.h"
#include "score.h"

#define HANDS_PER_COUNT 512
#define MAX_WILDS 8

/* CPU time of this process: the figures are per core even when the machine is shared. */
static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct bench_hand {
    mj_winning_hand hand;
    mj_options options;
} bench_hand;

/* A random complete hand with exactly `wilds` wild tiles among its 14; false if the draw broke a count. */
static bool random_hand(rng_state *rng, int wilds, bench_hand *out)
{
    memset(out, 0, sizeof *out);
    out->options = mj_options_default();
    out->options.gua_da_feng = wilds > 7;
    mj_winning_hand *h = &out->hand;
    h->indicator = (uint8_t)rng_below(rng, MJ_KINDS);
    mj_kind_set wild = mj_wild_kinds(h->indicator, out->options.gua_da_feng);
    int wild_kinds[4], n_wild = 0;
    for (int k = 0; k < MJ_KINDS; k++)
        if (mj_kind_set_has(wild, k))
            wild_kinds[n_wild++] = k;

    uint8_t tiles[14];
    int n = 0;
    for (int set = 0; set < 4; set++) {
        bool chow = rng_below(rng, 2) == 0;
        int kind = chow ? (int)rng_below(rng, 3) * 9 + (int)rng_below(rng, 7) : (int)rng_below(rng, MJ_KINDS);
        for (int i = 0; i < 3; i++)
            tiles[n++] = (uint8_t)(chow ? kind + i : kind);
    }
    int pair = (int)rng_below(rng, MJ_KINDS);
    tiles[n++] = (uint8_t)pair;
    tiles[n++] = (uint8_t)pair;
    for (int i = 0; i < n; i++) /* the complete hand may hold wilds already: make them natural or count them */
        if (mj_kind_set_has(wild, tiles[i]))
            return false;
    uint8_t order[14];
    for (int i = 0; i < n; i++)
        order[i] = (uint8_t)i;
    rng_shuffle(rng, order, n);
    for (int i = 0; i < wilds; i++)
        tiles[order[i]] = (uint8_t)wild_kinds[rng_below(rng, (uint32_t)n_wild)];
    int win = (int)rng_below(rng, (uint32_t)n);
    h->win_tile = tiles[win];
    for (int i = 0; i < n; i++)
        if (i != win)
            h->concealed.n[tiles[i]]++;
    h->kong_replacement = false;
    return mj_winning_hand_check(&out->options, h, NULL) == MJ_OK;
}

static int make_hands(rng_state *rng, int wilds, bench_hand *hands)
{
    int made = 0;
    for (long tries = 0; made < HANDS_PER_COUNT && tries < 10000000; tries++) {
        if (!random_hand(rng, wilds, &hands[made]))
            continue;
        mj_score score;
        mj_status status = mj_score_hand(&hands[made].options, &hands[made].hand, &score);
        if (status == MJ_OK || status == MJ_ERR_UNDER_MINIMUM) /* a win, priced or below the minimum */
            made++;
    }
    return made;
}

/* Scores every hand of the list over and over, `evaluations` times in all; returns the seconds. */
static double time_scoring(const bench_hand *hands, int n, long evaluations, uint64_t *checksum)
{
    double start = now_seconds();
    for (long i = 0; i < evaluations; i++) {
        const bench_hand *b = &hands[i % n];
        mj_score score;
        if (mj_score_hand(&b->options, &b->hand, &score) == MJ_OK)
            *checksum += score.fan + score.fans;
        else
            *checksum += 1;
    }
    return now_seconds() - start;
}

static const char SETTLE_DOC[] =
    "{\"mode\":\"settle\",\"game\":\"tianjin\",\"options\":{\"max_pulls\":2},\"banker\":0,\"sat\":true,"
    "\"pulls\":[0,2,0,1],\"winner\":2,\"fan\":6,\"kongs\":[{\"seat\":1,\"kind\":\"kong\"},"
    "{\"seat\":2,\"kind\":\"concealed_kong\"}],\"chan\":false,\"wild_discards\":[3]}";

int main(int argc, char **argv)
{
    long per_count = argc > 1 ? atol(argv[1]) : 200000;
    if (per_count <= 0) {
        fprintf(stderr, "usage: %s [evaluations per wild count]\n", argv[0]);
        return 2;
    }
    static bench_hand hands[MAX_WILDS + 1][HANDS_PER_COUNT];
    int made[MAX_WILDS + 1];
    rng_state rng;
    rng_seed(&rng, 0x6d6a62656e6368ull);
    for (int w = 0; w <= MAX_WILDS; w++) {
        made[w] = make_hands(&rng, w, hands[w]);
        if (made[w] == 0) {
            fprintf(stderr, "no winning hand with %d wilds was found\n", w);
            return 1;
        }
    }

    printf("win detection + best-reading scoring (mj_score_hand), one core:\n");
    printf("  wilds  preset     hands  evaluations/s  ns/evaluation\n");
    uint64_t checksum = 0;
    double total_seconds = 0;
    for (int w = 0; w <= MAX_WILDS; w++) {
        double seconds = time_scoring(hands[w], made[w], per_count, &checksum);
        total_seconds += seconds;
        printf("  %5d  %-9s  %5d  %13.0f  %13.1f\n", w, w > 7 ? "gua" : "normal", made[w], per_count / seconds,
               seconds * 1e9 / per_count);
    }
    printf("  all 0-8 evenly mixed: %.0f evaluations/s\n", (MAX_WILDS + 1) * per_count / total_seconds);

    /* settlement: the engine alone, then the calculator's whole settle answer */
    mj_options options = mj_options_default();
    options.max_pulls = 2;
    mj_outcome outcome = {.banker = 0, .sat = true, .pulls = {0, 2, 0, 1}, .winner = 2, .fan = 6, .n_kongs = 2,
                          .kongs = {{1, MJ_KONG_EXPOSED}, {2, MJ_KONG_CONCEALED}}, .n_wild_discards = 1,
                          .wild_discards = {3}};
    long settles = per_count * 10;
    double start = now_seconds();
    for (long i = 0; i < settles; i++) {
        outcome.fan = 2 + (uint32_t)(i & 1023);
        mj_settlement s;
        mj_settle(&options, &outcome, &s);
        if (s.net[0] + s.net[1] + s.net[2] + s.net[3] != 0)
            return 1;
        checksum += (uint64_t)s.net[2];
    }
    double seconds = now_seconds() - start;
    printf("settlement (mj_settle): %.0f/s\n", settles / seconds);

    long answers = per_count / 4 > 0 ? per_count / 4 : 1;
    start = now_seconds();
    for (long i = 0; i < answers; i++) {
        bool is_error = true;
        char *out = score_run_text(SETTLE_DOC, sizeof SETTLE_DOC - 1, &is_error);
        if (out == NULL || is_error || strstr(out, "\"net\":[-24,2,31,-9]") == NULL)
            return 1;
        checksum += out[3];
        free(out);
    }
    seconds = now_seconds() - start;
    printf("settle-mode answers (score_run_text, JSON in and out): %.0f/s\n", answers / seconds);
    printf("(checksum %llu)\n", (unsigned long long)checksum);
    return 0;
}
