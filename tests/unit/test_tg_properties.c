/*
 * test_tg_properties — properties every Tien Gow hand must have, checked over many random hands.
 *
 * Hands are dealt by tg_deal from fixed seeds, with random options, banker and multiplier, and
 * played by random legal actions chosen from an engine rng (so a failure is reproducible from
 * the hand number printed with it). What must hold, from rules/tiengow.md §3-§6 and the
 * promises of tg_hand.h:
 *   - a hand ends within 32 actions (8 tiles each, one per seat per trick tile);
 *   - the stacks total 8, the winner holds at least 2, the outcome is one settle mode accepts;
 *   - the nets sum to zero and are the bonuses plus the settlement;
 *   - bonuses are paid only on tricks before the final one, and only positive amounts;
 *   - tg_check_action accepts exactly the actions tg_legal_actions lists (random tile lists,
 *     wrong seats and wrong counts are refused), and a refused tg_apply_action changes no byte;
 *   - replaying the same deal and actions gives a byte-identical state.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "tg_hand.h"

#define RANDOM_HANDS 20000
#define MAX_HAND_ACTIONS 32 /* 8 tiles a seat, at least one tile per action */
#define PROBES_PER_STEP 6

/*
 * Check's own assertions report every passing check to the test's parent process, a system call
 * each; over millions of checks that is most of the run time, so the hot paths test first and
 * only call into Check on a failure.
 */
#define REQUIRE(cond, ...)                                                                                          \
    do {                                                                                                            \
        if (!(cond))                                                                                                \
            ck_abort_msg(__VA_ARGS__);                                                                              \
    } while (0)

typedef struct coverage {
    int hands, naturals, endings[TG_END_KINDS], bonuses[3];
} coverage;

static tg_options random_options(rng_state *rng)
{
    tg_options o = tg_options_default();
    o.wen_zun = rng_below(rng, 2);
    o.rotation = (uint8_t)rng_below(rng, 2);
    o.qin_multiplier = rng_below(rng, 2) ? 4 : 2;
    o.qin_pays_all = rng_below(rng, 2);
    o.quartet_bonus = (uint8_t)rng_below(rng, 2);
    /* The optional natural hands are each on a quarter of the time, so most hands are played. */
    o.seven_civil = rng_below(rng, 4) == 0;
    o.seven_military = rng_below(rng, 4) == 0;
    o.eight_civil = rng_below(rng, 4) == 0;
    o.eight_military = rng_below(rng, 4) == 0;
    o.four_pairs = rng_below(rng, 4) == 0;
    return o;
}

static bool same_action(const tg_action *a, const tg_action *b)
{
    return a->seat == b->seat && a->kind == b->kind && a->n == b->n && memcmp(a->tiles, b->tiles, a->n) == 0;
}

static bool listed(const tg_action *a, const tg_action *legal, int n_legal)
{
    for (int i = 0; i < n_legal; i++)
        if (same_action(a, &legal[i]))
            return true;
    return false;
}

/* A refused action must be refused the same way by apply, leaving every byte as it was. */
static void expect_refused_without_change(tg_state *st, const tg_action *a, tg_status why, int hand)
{
    static tg_state before;
    REQUIRE(why != TG_OK, "hand %d: an illegal action was accepted", hand);
    memcpy(&before, st, sizeof before);
    tg_status applied = tg_apply_action(st, a);
    REQUIRE(applied == why, "hand %d: check said %s, apply said %s", hand, tg_status_name(why),
                  tg_status_name(applied));
    REQUIRE(memcmp(&before, st, sizeof before) == 0, "hand %d: a refused action changed the state", hand);
}

/* Random tiles, often from the seat's own hand so that some probes come close to legal. */
static tg_action random_tiles_action(const tg_state *st, rng_state *rng, int seat)
{
    uint8_t held[TG_HAND_TILES], tiles[4];
    int n_held = tg_held_tiles(st, seat, held);
    int n = 1 + (int)rng_below(rng, 4);
    for (int i = 0; i < n; i++)
        tiles[i] = n_held > 0 && rng_below(rng, 4) != 0 ? held[rng_below(rng, (uint32_t)n_held)]
                                                         : (uint8_t)rng_below(rng, TG_KINDS + 4);
    tg_action a = tg_action_make(seat, rng_below(rng, 2) ? TG_PLAY : TG_DISCARD, tiles, n);
    if (rng_below(rng, 16) == 0)
        a.kind = (uint8_t)(2 + rng_below(rng, 250)); /* neither play nor discard */
    return a;
}

static void probe_illegal_actions(tg_state *st, rng_state *rng, const tg_action *legal, int n_legal, int hand)
{
    int seat = st->to_act;
    for (int p = 0; p < PROBES_PER_STEP; p++) {
        tg_action a = legal[rng_below(rng, (uint32_t)n_legal)];
        switch (p % 3) {
        case 0: /* a legal move by a seat whose turn it is not, or by no seat at all */
            a.seat = rng_below(rng, 4) == 0 ? (uint8_t)(TG_SEATS + rng_below(rng, 250))
                                            : (uint8_t)((seat + 1 + rng_below(rng, 3)) % TG_SEATS);
            expect_refused_without_change(st, &a, tg_check_action(st, &a), hand);
            REQUIRE(tg_check_action(st, &a) == (a.seat >= TG_SEATS ? TG_ERR_BAD_SEAT : TG_ERR_NOT_YOUR_TURN),
                    "hand %d: a move out of turn refused as %s", hand, tg_status_name(tg_check_action(st, &a)));
            break;
        case 1: { /* a count other than the trick's (or than 1..4 for a lead) */
            const tg_trick *open = tg_open_trick(st);
            uint8_t held[TG_HAND_TILES];
            int n_held = tg_held_tiles(st, seat, held);
            int n = (int)rng_below(rng, 6); /* 0..5 */
            if (open != NULL ? n == open->n : (n >= 1 && n <= 4))
                n = 5;
            a.n = (uint8_t)n;
            for (int i = 0; i < n && i < 4; i++)
                a.tiles[i] = held[i % n_held];
            expect_refused_without_change(st, &a, tg_check_action(st, &a), hand);
            break;
        }
        default: { /* random tiles: accepted exactly when tg_legal_actions lists them */
            a = random_tiles_action(st, rng, seat);
            tg_status status = tg_check_action(st, &a);
            bool is_listed = listed(&a, legal, n_legal);
            REQUIRE((status == TG_OK) == is_listed, "hand %d: check says %s but the action is %slisted",
                          hand, tg_status_name(status), is_listed ? "" : "not ");
            if (status != TG_OK)
                expect_refused_without_change(st, &a, status, hand);
            break;
        }
        }
    }
}

/* Picks a legal action; plays are favoured so that endings and bonuses come up often. */
static const tg_action *choose(rng_state *rng, const tg_action *legal, int n_legal)
{
    int plays = 0;
    for (int i = 0; i < n_legal; i++)
        plays += legal[i].kind == TG_PLAY;
    if (plays > 0 && rng_below(rng, 3) != 0) {
        int pick = (int)rng_below(rng, (uint32_t)plays);
        for (int i = 0; i < n_legal; i++)
            if (legal[i].kind == TG_PLAY && pick-- == 0)
                return &legal[i];
    }
    return &legal[rng_below(rng, (uint32_t)n_legal)];
}

static void check_finished_hand(const tg_state *st, int hand)
{
    const tg_result *r = &st->result;
    int total = 0;
    for (int s = 0; s < TG_SEATS; s++)
        total += r->stacks[s];
    REQUIRE(total == 8, "hand %d: stacks total %d", hand, total);
    REQUIRE(r->stacks[r->winner] >= 2, "hand %d: the winner holds %d stacks", hand, r->stacks[r->winner]);

    tg_outcome outcome = {.banker = st->banker,
                          .multiplier = st->multiplier,
                          .winner = r->winner,
                          .endings = (uint8_t)(r->endings & ~TG_END_NATURAL),
                          .qin_captured = r->qin_captured};
    memcpy(outcome.stacks, r->stacks, sizeof outcome.stacks);
    REQUIRE(tg_outcome_check(&outcome) == TG_OK, "hand %d: impossible outcome (%s)", hand,
                  tg_status_name(tg_outcome_check(&outcome)));

    int64_t net_sum = 0, bonus_net[TG_SEATS] = {0, 0, 0, 0};
    int final_trick = st->n_tricks - 1;
    for (int i = 0; i < st->n_bonuses; i++) {
        const tg_bonus *b = &st->bonuses[i];
        REQUIRE(b->trick < final_trick, "hand %d: a bonus on trick %d of %d", hand, b->trick, st->n_tricks);
        REQUIRE(b->units > 0 && b->from != b->to, "hand %d: a malformed bonus", hand);
        bonus_net[b->from] -= b->units;
        bonus_net[b->to] += b->units;
    }
    for (int s = 0; s < TG_SEATS; s++) {
        REQUIRE(r->net[s] == bonus_net[s] + r->settlement.net[s], "hand %d: seat %d net is not bonuses + settlement",
                      hand, s);
        net_sum += r->net[s];
    }
    REQUIRE(net_sum == 0, "hand %d: nets sum to %lld", hand, (long long)net_sum);
    if (st->natural_seat >= 0)
        REQUIRE(st->n_actions == 0 && st->n_bonuses == 0, "hand %d: a natural hand was played", hand);
}

static void note_coverage(coverage *c, const tg_state *st)
{
    c->hands++;
    c->naturals += st->natural_seat >= 0;
    for (int bit = 0; bit < TG_END_KINDS; bit++)
        c->endings[bit] += (st->result.endings >> bit) & 1;
    for (int i = 0; i < st->n_bonuses; i++)
        c->bonuses[st->bonuses[i].kind]++;
}

/* Plays one random hand with every check on the way; returns through cov what came up. */
static void play_random_hand(int hand, coverage *cov)
{
    static tg_state st, replay;
    static tg_action legal[TG_MAX_ACTIONS];
    tg_action taken[MAX_HAND_ACTIONS];
    uint8_t deal[TG_SEATS][TG_HAND_TILES];
    rng_state rng;
    rng_seed(&rng, 0x7469656e676f77ULL + (uint64_t)hand);

    tg_deal(0x5eed0000ULL + (uint64_t)hand, deal);
    const uint8_t(*rows)[TG_HAND_TILES] = (const uint8_t(*)[TG_HAND_TILES])deal;
    tg_options options = random_options(&rng);
    int banker = (int)rng_below(&rng, TG_SEATS);
    uint32_t multiplier = 2 + rng_below(&rng, 5);
    REQUIRE(tg_start(&st, &options, banker, multiplier, rows) == TG_OK, "hand %d: the deal was refused", hand);

    int n_taken = 0;
    while (!tg_is_over(&st)) {
        REQUIRE(n_taken < MAX_HAND_ACTIONS, "hand %d: still going after %d actions", hand, n_taken);
        int seat = st.to_act;
        int n_legal = tg_legal_actions(&st, seat, legal, TG_MAX_ACTIONS);
        REQUIRE(n_legal > 0 && n_legal < TG_MAX_ACTIONS, "hand %d: %d legal actions", hand, n_legal);
        int other = (seat + 1 + (int)rng_below(&rng, 3)) % TG_SEATS;
        REQUIRE(tg_legal_actions(&st, other, legal + n_legal, TG_MAX_ACTIONS - n_legal) == 0,
                "hand %d: seat %d has legal actions out of turn", hand, other);
        for (int i = 0; i < n_legal; i++)
            REQUIRE(tg_check_action(&st, &legal[i]) == TG_OK, "hand %d: listed action %d refused: %s", hand,
                          i, tg_status_name(tg_check_action(&st, &legal[i])));
        probe_illegal_actions(&st, &rng, legal, n_legal, hand);
        const tg_action *a = choose(&rng, legal, n_legal);
        REQUIRE(tg_apply_action(&st, a) == TG_OK, "hand %d: the chosen legal action was refused", hand);
        taken[n_taken++] = *a;
    }
    REQUIRE(st.n_actions == n_taken, "hand %d: %d actions counted, %d taken", hand, st.n_actions, n_taken);
    check_finished_hand(&st, hand);

    /* Nothing is taken once the hand is over. */
    tg_action late = taken[0];
    if (n_taken == 0) {
        uint8_t tile = deal[banker][0];
        late = tg_action_make(banker, TG_PLAY, &tile, 1);
    }
    expect_refused_without_change(&st, &late, tg_check_action(&st, &late), hand);
    REQUIRE(tg_check_action(&st, &late) == TG_ERR_HAND_OVER, "hand %d: an action after the end", hand);

    /* The same deal, options and actions rebuild the same state, bit for bit. */
    memset(&replay, 0xa5, sizeof replay);
    REQUIRE(tg_start(&replay, &options, banker, multiplier, rows) == TG_OK, "hand %d: replay refused", hand);
    for (int i = 0; i < n_taken; i++)
        REQUIRE(tg_apply_action(&replay, &taken[i]) == TG_OK, "hand %d: replayed action %d refused", hand, i);
    REQUIRE(memcmp(&st, &replay, sizeof st) == 0, "hand %d: the replay differs", hand);
    note_coverage(cov, &st);
}

START_TEST(test_random_hands_keep_every_invariant)
{
    coverage cov;
    memset(&cov, 0, sizeof cov);
    for (int hand = 0; hand < RANDOM_HANDS; hand++)
        play_random_hand(hand, &cov);

    printf("%d hands, %d natural; endings:", cov.hands, cov.naturals);
    for (int bit = 0; bit < TG_END_KINDS; bit++)
        printf(" %s %d", tg_ending_name(bit), cov.endings[bit]);
    printf("; bonus payments: he_zun %d qin_zun %d quartet %d\n", cov.bonuses[TG_BONUS_HE_ZUN],
           cov.bonuses[TG_BONUS_QIN_ZUN], cov.bonuses[TG_BONUS_QUARTET]);
    /* The random play must reach the cases the properties are about, or it proves little. */
    ck_assert_int_eq(cov.hands, RANDOM_HANDS);
    ck_assert_int_gt(cov.naturals, 0);
    ck_assert_int_lt(cov.naturals, RANDOM_HANDS / 4);
    ck_assert_int_gt(cov.bonuses[TG_BONUS_HE_ZUN], 0);
    ck_assert_int_gt(cov.bonuses[TG_BONUS_QUARTET], 0);
}
END_TEST

static Suite *properties_suite(void)
{
    Suite *s = suite_create("tg_properties");
    TCase *tc = tcase_create("random hands");
    tcase_set_timeout(tc, 280);
    tcase_add_test(tc, test_random_hands_keep_every_invariant);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(properties_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
