/*
 * bot_vs_random — how much the Tien Gow bot wins against players who choose uniformly at
 * random among their legal actions, and how fast it decides.
 *
 *   bot_vs_random [hands]      (default 100000)
 *
 * Every hand is dealt from its own seed; the random players draw from their own seeded stream,
 * so a run is repeatable. The bot plays from its seat's view only (tg_view_of), exactly as the
 * server will call it, and each of its actions goes through tg_apply_action, so an illegal
 * choice stops the run with exit status 1.
 *
 * Two ways of seating the table are reported:
 *  - "table": banker and multiplier carry over between hands through tg_next_bank, as a real
 *    table plays (fly rotation; the first banker by tg_first_banker), and the bot keeps its seat
 *    for a session of SESSION_HANDS hands, then moves on one seat, so it sits in every seat
 *    equally often and keeps the bank it wins, as a player at a table does;
 *  - "fixed": the banker goes round (hand i: seat i mod 4) with m = 2, and the bot's seat cycles
 *    so that every (banker, bot seat) pair comes up equally often.
 * Then mixes of two or three bots against the rest, and a control with no bot: the seat a bot
 * would take is played at random like the others, so its mean must be zero within its interval.
 *
 * For each line: mean net units per hand of a bot seat and of a random seat, each with a 95%
 * confidence interval (normal approximation, 1.96 standard errors), the bots' share of hands
 * won (a fair share is 25% a seat), and hands per second. With more than one bot the mean is
 * over their seats, whose nets in one hand are not independent, so treat that interval as a
 * rough guide.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rng.h"
#include "tg_bot.h"
#include "tg_hand.h"
#include "tg_view.h"

typedef enum { SEATING_TABLE, SEATING_FIXED } seating;

/* Hands a bot keeps its seat at a "table" match before moving on one seat. */
#define SESSION_HANDS 64

typedef struct running_mean {
    long n;
    double sum, sum_sq;
} running_mean;

typedef struct match_totals {
    running_mean bot_net, random_net;  /* per seat per hand; "bot" is the control seat with no bot */
    long hands, bot_seats_total, bot_wins, naturals;
    long decisions;
    double decision_seconds;
    long errors;
} match_totals;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void mean_add(running_mean *m, double x)
{
    m->n++;
    m->sum += x;
    m->sum_sq += x * x;
}

static double mean_of(const running_mean *m) { return m->n ? m->sum / (double)m->n : 0.0; }

/* Half-width of the 95% confidence interval of the mean. */
static double mean_ci95(const running_mean *m)
{
    if (m->n < 2)
        return 0.0;
    double mean = mean_of(m);
    double var = (m->sum_sq - (double)m->n * mean * mean) / (double)(m->n - 1);
    return 1.96 * sqrt(var > 0 ? var / (double)m->n : 0.0);
}

/* One action of a bot seat, timed, from that seat's view only. */
static bool bot_action(const tg_state *st, int seat, tg_action *out, match_totals *totals)
{
    static tg_view view; /* large; one at a time */
    double start = now_seconds();
    tg_view_of(st, seat, &view);
    bool ok = tg_bot_choose(&view, out);
    totals->decision_seconds += now_seconds() - start;
    totals->decisions++;
    return ok;
}

static bool random_action(const tg_state *st, int seat, rng_state *rng, tg_action *out)
{
    tg_action legal[TG_MAX_ACTIONS];
    int count = tg_legal_actions(st, seat, legal, TG_MAX_ACTIONS);
    if (count <= 0)
        return false;
    *out = legal[rng_below(rng, (uint32_t)count)];
    return true;
}

/* Plays one hand; is_bot[s] says who sits where. Returns false on an engine or bot error. */
static bool play_hand(uint64_t seed, int banker, uint32_t multiplier, const bool is_bot[TG_SEATS],
                      match_totals *totals, tg_result *result)
{
    uint8_t deal[TG_SEATS][TG_HAND_TILES];
    tg_options options = tg_options_default();
    static tg_state st;
    rng_state rng;

    tg_deal(seed, deal);
    rng_seed(&rng, seed ^ 0x72616e646f6d2121ULL);
    if (tg_start(&st, &options, banker, multiplier, (const uint8_t(*)[TG_HAND_TILES])deal) != TG_OK)
        return false;
    while (!tg_is_over(&st)) {
        int seat = st.to_act;
        tg_action action;
        bool chosen = is_bot[seat] ? bot_action(&st, seat, &action, totals) : random_action(&st, seat, &rng, &action);
        if (!chosen || tg_apply_action(&st, &action) != TG_OK)
            return false;
    }
    *result = st.result;
    return true;
}

/* Plays a match of `hands` hands with `bots` bot seats (next to each other) among 4; with no bot,
 * the seat a bot would take is still followed apart as the control. */
static match_totals play_match(long hands, int bots, seating how, uint64_t seed_base)
{
    match_totals totals = {0};
    int banker = tg_first_banker(seed_base);
    uint32_t multiplier = 2;
    for (long i = 0; i < hands; i++) {
        int first_bot = how == SEATING_TABLE ? (int)((i / SESSION_HANDS) % TG_SEATS) : (int)((i / TG_SEATS) % TG_SEATS);
        if (how == SEATING_FIXED) {
            banker = (int)(i % TG_SEATS);
            multiplier = 2;
        }
        bool is_bot[TG_SEATS] = {false, false, false, false}, followed[TG_SEATS] = {false, false, false, false};
        for (int b = 0; b < bots; b++)
            is_bot[(first_bot + b) % TG_SEATS] = true;
        for (int b = 0; b < (bots > 0 ? bots : 1); b++)
            followed[(first_bot + b) % TG_SEATS] = true;
        tg_result result;
        if (!play_hand(seed_base + (uint64_t)i, banker, multiplier, is_bot, &totals, &result)) {
            totals.errors++;
            continue;
        }
        totals.hands++;
        totals.naturals += (result.endings & TG_END_NATURAL) != 0;
        for (int s = 0; s < TG_SEATS; s++) {
            mean_add(followed[s] ? &totals.bot_net : &totals.random_net, (double)result.net[s]);
            if (followed[s]) {
                totals.bot_seats_total++;
                totals.bot_wins += result.winner == s;
            }
        }
        banker = result.next_banker;
        multiplier = result.next_multiplier;
    }
    return totals;
}

static void report(const char *label, int bots, const match_totals *t, double seconds)
{
    printf("%-30s %s %+8.4f ± %.4f  won %5.2f%%", label, bots > 0 ? "bot " : "ctrl", mean_of(&t->bot_net),
           mean_ci95(&t->bot_net), 100.0 * (double)t->bot_wins / (double)t->bot_seats_total);
    printf("  random %+8.4f ± %.4f  %7.0f hands/s\n", mean_of(&t->random_net), mean_ci95(&t->random_net),
           (double)t->hands / seconds);
}

int main(int argc, char **argv)
{
    long hands = argc > 1 ? strtol(argv[1], NULL, 10) : 100000;
    if (hands <= 0) {
        fprintf(stderr, "usage: %s [hands > 0]\n", argv[0]);
        return 2;
    }
    static const struct {
        const char *label;
        int bots;
        seating how;
    } LINEUPS[] = {
        {"1 bot, table (carried bank)", 1, SEATING_TABLE}, {"1 bot, fixed rotation", 1, SEATING_FIXED},
        {"2 bots, table", 2, SEATING_TABLE},               {"3 bots, table", 3, SEATING_TABLE},
        {"no bot (control seat), table", 0, SEATING_TABLE},
    };
    long errors = 0;
    printf("%ld hands per line; net in units per seat per hand, 95%% confidence intervals\n", hands);
    for (size_t l = 0; l < sizeof LINEUPS / sizeof LINEUPS[0]; l++) {
        double start = now_seconds();
        match_totals t = play_match(hands, LINEUPS[l].bots, LINEUPS[l].how, 0x626f740000000000ULL);
        double seconds = now_seconds() - start;
        report(LINEUPS[l].label, LINEUPS[l].bots, &t, seconds);
        if (l == 0)
            printf("%-30s %.2f us per bot decision (%ld decisions), %.2f%% natural hands\n", "",
                   t.decisions ? 1e6 * t.decision_seconds / (double)t.decisions : 0.0, t.decisions,
                   100.0 * (double)t.naturals / (double)t.hands);
        errors += t.errors;
    }
    if (errors > 0) {
        fprintf(stderr, "%ld hands stopped by an illegal action or an engine error\n", errors);
        return 1;
    }
    return 0;
}
