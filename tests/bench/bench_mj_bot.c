/*
 * bench_mj_bot — how well the Tianjin bot plays and how fast it decides.
 *
 *   bench_mj_bot [hands]      (default 20000 per line)
 *
 * Each line plays `hands` hands, each dealt from its own seed, the bank going round (hand i: seat
 * i mod 4 banks) and the followed seat cycling so that every (banker, seat) pair comes up equally
 * often. Every action goes through mj_hand_act, so an illegal choice stops the run (exit 1). The
 * bot decides from its seat's view only (mj_bot_choose). The other players:
 *  - random: uniform over mj_hand_legal_actions (it wins only when it happens to pick the win,
 *    and it discards wilds);
 *  - isolated: a plain player that wins whenever it may, never claims or makes a kong, never
 *    discards a wild while it holds another tile, and discards its most isolated tile: the least
 *    3 × (other tiles of its kind) + 2 × (tiles one rank away) + (two ranks away), ties to honours,
 *    then terminals, then the higher kind.
 * Lines: the bot against three random players, against three isolated ones, the control (an
 * isolated seat followed among four isolated players: its fair share of the wins is a quarter of
 * the hands won, and 0 net); the bot sitting by its rule (mj_bot_sits) against three isolated
 * players who never sit; four bots (a control: 0 net); and four bots that all sit by the rule,
 * the followed one also pulling by its rule (mj_bot_pulls) while the others never pull.
 *
 * For each line: the followed seat's share of wins, its net units per hand (mean, standard
 * deviation, 95% interval), its average fan when it wins and kongs a hand, the others' wins, the
 * drawn hands, hands/s (CPU time, every seat's decisions included). Then the bot's decisions per
 * second of CPU time, timed alone over positions sampled from those hands (turns and claims).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mj_bot.h"
#include "mj_hand.h"
#include "rng.h"

typedef enum { PLAYER_BOT, PLAYER_RANDOM, PLAYER_ISOLATED } player;

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct line_totals {
    long hands, errors, drawn;
    long wins, other_wins, kongs;
    double net_sum, net_sq;
    double fan_sum;
} line_totals;

static bool random_action(const mj_hand *h, rng_state *rng, mj_action *out)
{
    mj_action legal[MJ_MAX_ACTIONS];
    int n = mj_hand_legal_actions(h, legal);
    if (n <= 0)
        return false;
    *out = legal[rng_below(rng, (uint32_t)n)];
    return true;
}

static int centrality(int kind)
{
    int rank = mj_kind_rank(kind);
    return rank == 0 ? 0 : rank == 1 || rank == 9 ? 1 : rank == 2 || rank == 8 ? 2 : 3;
}

static int isolation(const mj_counts *c, int kind)
{
    int score = 3 * (c->n[kind] - 1);
    int rank = mj_kind_rank(kind);
    for (int d = -2; d <= 2 && rank > 0; d++) {
        if (d == 0 || rank + d < 1 || rank + d > 9)
            continue;
        score += c->n[kind + d] * (d == -1 || d == 1 ? 2 : 1);
    }
    return score;
}

static bool isolated_action(const mj_hand *h, mj_action *out)
{
    mj_action legal[MJ_MAX_ACTIONS];
    int n = mj_hand_legal_actions(h, legal);
    if (n <= 0)
        return false;
    int seat = mj_hand_deciding(h), pick = -1;
    const mj_counts *c = &h->hand[seat];
    bool only_wilds = true;
    for (int k = 0; k < MJ_KINDS; k++)
        if (c->n[k] > 0 && !mj_kind_set_has(h->wilds, k))
            only_wilds = false;
    for (int i = 0; i < n; i++) {
        if (legal[i].kind == MJ_ACT_WIN || legal[i].kind == MJ_ACT_PASS) {
            *out = legal[i];
            return true;
        }
        if (legal[i].kind != MJ_ACT_DISCARD || (mj_kind_set_has(h->wilds, legal[i].tile) && !only_wilds))
            continue;
        if (pick < 0) {
            pick = i;
            continue;
        }
        int a = legal[i].tile, b = legal[pick].tile;
        int ia = isolation(c, a), ib = isolation(c, b);
        if (ia < ib || (ia == ib && (centrality(a) < centrality(b) || (centrality(a) == centrality(b) && a > b))))
            pick = i;
    }
    if (pick < 0)
        return false;
    *out = legal[pick];
    return true;
}

/* Positions where a bot decided, a uniform sample of every line's (reservoir sampling), kept for
 * timing the decisions alone. */
#define SAMPLE_POSITIONS 4096
static mj_hand sample[SAMPLE_POSITIONS];
static int n_sample;
static long n_positions;
static rng_state sample_rng;

static bool bot_action(const mj_hand *h, int seat, mj_action *out)
{
    n_positions++;
    if (n_sample < SAMPLE_POSITIONS) {
        sample[n_sample++] = *h;
    } else {
        uint64_t at = rng_next(&sample_rng) % (uint64_t)n_positions;
        if (at < SAMPLE_POSITIONS)
            sample[at] = *h;
    }
    return mj_bot_choose(h, seat, out);
}

/* The bot's decisions per second of CPU time over the sampled positions, repeated. */
static void time_decisions(void)
{
    long decisions = 0;
    int64_t checksum = 0;
    double start = cpu_seconds(), seconds;
    do {
        for (int i = 0; i < n_sample; i++) {
            mj_action a;
            if (mj_bot_choose(&sample[i], mj_hand_deciding(&sample[i]), &a))
                checksum += a.kind * 64 + a.tile;
            decisions++;
        }
        seconds = cpu_seconds() - start;
    } while (seconds < 1.0);
    printf("bot decisions: %.0f a second of CPU (%.1f us each) over %d positions (checksum %lld)\n",
           (double)decisions / seconds, 1e6 * seconds / (double)decisions, n_sample, (long long)checksum);
}

/* Who decides 坐庄 and 拉庄 by the bot's rule (mj_bot_sits, mj_bot_pulls); the others never do. */
typedef enum { SIT_NOBODY = 0, SIT_FOLLOWED = 1, SIT_ALL_BOTS_PULL_FOLLOWED = 2 } sit_rule;

/* Plays one hand; the followed seat is `seat`. */
static bool play_hand(uint64_t seed, int banker, const player who[MJ_SEATS], int seat, sit_rule rule,
                      line_totals *t)
{
    mj_options options = mj_options_default();
    uint8_t pulls[MJ_SEATS] = {0, 0, 0, 0};
    bool sat = false;
    mj_hand h;
    rng_state rng;
    rng_seed(&rng, seed ^ 0x72616e646f6d2121ULL);
    if (mj_hand_start(&h, &options, seed, banker, false, pulls) != MJ_OK)
        return false;
    if (rule != SIT_NOBODY) { /* the deal does not depend on sitting: ask on the dealt tiles, then deal again */
        bool sits = banker == seat || (rule == SIT_ALL_BOTS_PULL_FOLLOWED && who[banker] == PLAYER_BOT);
        sat = sits && mj_bot_sits(&options, &h, banker);
        if (seat != banker)
            pulls[seat] = (uint8_t)mj_bot_pulls(&options, &h, seat, sat);
        if (mj_hand_start(&h, &options, seed, banker, sat, pulls) != MJ_OK)
            return false;
    }
    while (!mj_hand_over(&h)) {
        int s = mj_hand_deciding(&h);
        mj_action a;
        bool chosen = who[s] == PLAYER_BOT      ? bot_action(&h, s, &a)
                      : who[s] == PLAYER_RANDOM ? random_action(&h, &rng, &a)
                                                : isolated_action(&h, &a);
        if (!chosen || a.seat != s || mj_hand_act(&h, &a) != MJ_OK)
            return false;
    }
    t->hands++;
    t->drawn += h.winner < 0;
    if (h.winner == seat) {
        t->wins++;
        t->fan_sum += h.score.fan;
    } else if (h.winner >= 0) {
        t->other_wins++;
    }
    for (int k = 0; k < h.n_kongs; k++)
        t->kongs += h.kongs[k].seat == seat;
    double net = (double)h.settlement.net[seat];
    t->net_sum += net;
    t->net_sq += net * net;
    return true;
}

static void run_line(const char *label, player followed, player others, sit_rule rule, long hands)
{
    line_totals t;
    memset(&t, 0, sizeof t);
    double start = cpu_seconds();
    for (long i = 0; i < hands; i++) {
        int banker = (int)(i % MJ_SEATS), seat = (int)((i / MJ_SEATS) % MJ_SEATS);
        player who[MJ_SEATS] = {others, others, others, others};
        who[seat] = followed;
        if (!play_hand(0x6d6a626f74000000ULL + (uint64_t)i, banker, who, seat, rule, &t))
            t.errors++;
    }
    double seconds = cpu_seconds() - start;
    double n = (double)(t.hands > 0 ? t.hands : 1);
    double mean = t.net_sum / n;
    double var = t.hands > 1 ? (t.net_sq - n * mean * mean) / (n - 1) : 0.0;
    double sd = sqrt(var > 0 ? var : 0);
    printf("%-34s won %5.2f%%  net %+7.3f ± %.3f (sd %6.3f)  fan %4.2f  kongs %.3f  | others won %5.2f%%  drawn %5.2f%%  %6.0f hands/s\n",
           label, 100.0 * (double)t.wins / n, mean, 1.96 * sd / sqrt(n), sd, t.wins ? t.fan_sum / (double)t.wins : 0.0,
           (double)t.kongs / n, 100.0 * (double)t.other_wins / n, 100.0 * (double)t.drawn / n, n / seconds);
    if (t.errors != 0) {
        fprintf(stderr, "%s: %ld hands stopped on an illegal or missing action\n", label, t.errors);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    long hands = argc > 1 ? strtol(argv[1], NULL, 10) : 20000;
    if (hands <= 0) {
        fprintf(stderr, "usage: %s [hands > 0]\n", argv[0]);
        return 2;
    }
    rng_seed(&sample_rng, 1);
    printf("%ld hands a line; the followed seat's figures, net in units a hand (mean ± 95%% interval)\n", hands);
    run_line("bot vs 3 random", PLAYER_BOT, PLAYER_RANDOM, SIT_NOBODY, hands);
    run_line("bot vs 3 isolated", PLAYER_BOT, PLAYER_ISOLATED, SIT_NOBODY, hands);
    run_line("control: isolated vs 3 isolated", PLAYER_ISOLATED, PLAYER_ISOLATED, SIT_NOBODY, hands);
    run_line("bot sitting vs 3 isolated", PLAYER_BOT, PLAYER_ISOLATED, SIT_FOLLOWED, hands);
    run_line("control: bot vs 3 bots", PLAYER_BOT, PLAYER_BOT, SIT_NOBODY, hands);
    run_line("bot sitting, pulling vs 3 bots", PLAYER_BOT, PLAYER_BOT, SIT_ALL_BOTS_PULL_FOLLOWED, hands);
    time_decisions();
    return 0;
}
