/*
 * test_tg_view — what one seat may see of a Tien Gow hand (engine/tg_view.h), by rules/tiengow.md §3
 * ("discarded tiles are never shown to the other players") and §6 (a natural hand is revealed).
 *
 * Sentences about hand-built deals, then a property test over many seeded hands played with
 * random legal actions: at every step, for every seat and a spectator, the view holds the seat's
 * own tiles and nothing of another seat's hidden tiles. The strongest check shuffles every tile
 * the viewer cannot see (the others' held tiles and discards) between the other seats and asks
 * for a view identical byte for byte: a view that copied any hidden tile would change.
 */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "tg_test_util.h"
#include "tg_view.h"

/* ---- writing tiles, deals and actions as text ---- */

static void counts_of(const char *text, uint8_t count[TG_KINDS])
{
    uint8_t kinds[TG_HAND_TILES];
    int n = tgt_parse_tiles(text, kinds, TG_HAND_TILES);
    memset(count, 0, TG_KINDS);
    for (int i = 0; i < n; i++)
        count[kinds[i]]++;
}

static void start(tg_state *st, const char *const hands[TG_SEATS], int banker)
{
    uint8_t deal[TG_SEATS][TG_HAND_TILES];
    tgt_parse_deal(hands, deal);
    tg_options options = tg_options_default();
    ck_assert_int_eq(tgt_start_deal(st, &options, banker, 2, deal), TG_OK);
}

/* "S P tiles" or "S D tiles", which must be accepted. */
static void act(tg_state *st, const char *text)
{
    uint8_t kinds[4];
    int n = tgt_parse_tiles(text + 4, kinds, 4);
    tg_action a = tg_action_make(text[0] - '0', text[2] == 'P' ? TG_PLAY : TG_DISCARD, kinds, n);
    ck_assert_msg(tg_apply_action(st, &a) == TG_OK, "\"%s\" refused", text);
}

static bool all_hidden(const tg_action *a)
{
    for (int i = 0; i < 4; i++)
        if (a->tiles[i] != TG_HIDDEN_TILE)
            return false;
    return true;
}

/* Deal A (no natural hand: red pips 21, 9, 22, 12). */
static const char *const DEAL_A[TG_SEATS] = {
    "6-6 6-6 3-6 4-5 1-2 2-4 5-5 5-5",
    "1-1 1-1 2-6 3-5 3-3 3-3 1-4 2-3",
    "4-4 4-4 2-5 3-4 2-2 2-2 1-3 1-3",
    "5-6 5-6 4-6 4-6 1-6 1-6 1-5 1-5",
};

/* Seat 2 holds no red pip: a natural 八支, revealed at once. */
static const char *const NATURAL_AT_TWO[TG_SEATS] = {
    "6-6 6-6 3-6 4-5 1-2 2-4 1-3 1-3",
    "1-1 1-1 2-6 3-5 1-4 2-3 1-6 1-6",
    "5-5 5-5 3-3 3-3 2-2 2-2 5-6 5-6",
    "4-4 4-4 2-5 3-4 4-6 4-6 1-5 1-5",
};

/* ---- sentences ---- */

START_TEST(test_a_seat_sees_its_own_tiles_and_no_others)
{
    tg_state st;
    tg_view v;
    start(&st, DEAL_A, 0);
    for (int s = 0; s < TG_SEATS; s++) {
        uint8_t want[TG_KINDS];
        counts_of(DEAL_A[s], want);
        tg_view_of(&st, s, &v);
        ck_assert_int_eq(v.seat, s);
        ck_assert_mem_eq(v.hand, want, TG_KINDS);
        for (int o = 0; o < TG_SEATS; o++)
            ck_assert_int_eq(v.held[o], 8); /* how many each holds is public */
    }
}
END_TEST

START_TEST(test_a_spectator_sees_no_tiles)
{
    tg_state st;
    tg_view v;
    uint8_t none[TG_KINDS] = {0};
    start(&st, DEAL_A, 0);
    tg_view_of(&st, TG_SPECTATOR, &v);
    ck_assert_int_eq(v.seat, TG_SPECTATOR);
    ck_assert_mem_eq(v.hand, none, TG_KINDS);
    tg_view_of(&st, 7, &v); /* a seat number that is no seat sees what a spectator sees */
    ck_assert_int_eq(v.seat, TG_SPECTATOR);
    ck_assert_mem_eq(v.hand, none, TG_KINDS);
    tg_action out[TG_MAX_ACTIONS];
    ck_assert_int_eq(tg_view_legal_actions(&v, out, TG_MAX_ACTIONS), 0);
}
END_TEST

START_TEST(test_others_discards_are_hidden_and_own_discards_shown)
{
    tg_state st;
    tg_view v;
    start(&st, DEAL_A, 0);
    act(&st, "0 P 5-5");
    act(&st, "1 D 1-4");
    act(&st, "2 D 2-2");
    act(&st, "3 D 1-5");
    uint8_t one_four = (uint8_t)tg_tile_parse("1-4"), bench = (uint8_t)tg_tile_parse("2-2");
    for (int viewer = TG_SPECTATOR; viewer < TG_SEATS; viewer++) {
        tg_view_of(&st, viewer, &v);
        ck_assert_int_eq(v.n_tricks, 1);
        const tg_trick *t = &v.tricks[0];
        ck_assert_int_eq(t->count, 4);
        for (int i = 1; i < 4; i++) {
            const tg_action *a = &t->actions[i];
            ck_assert_int_eq(a->kind, TG_DISCARD);
            ck_assert_int_eq(a->n, 1); /* how many were discarded is public */
            if (a->seat == viewer)
                ck_assert(!all_hidden(a));
            else
                ck_assert_msg(all_hidden(a), "seat %d sees seat %d's discard", viewer, a->seat);
        }
    }
    tg_view_of(&st, 1, &v);
    ck_assert_uint_eq(v.tricks[0].actions[1].tiles[0], one_four);
    tg_view_of(&st, 2, &v);
    ck_assert_uint_eq(v.tricks[0].actions[2].tiles[0], bench);
}
END_TEST

START_TEST(test_played_tiles_are_visible_to_everyone)
{
    tg_state st;
    tg_view v;
    start(&st, DEAL_A, 0);
    act(&st, "0 P 5-5 5-5");
    act(&st, "1 P 1-1 1-1");
    act(&st, "2 D 2-2 2-2");
    uint8_t plum = (uint8_t)tg_tile_parse("5-5"), earth = (uint8_t)tg_tile_parse("1-1");
    for (int viewer = TG_SPECTATOR; viewer < TG_SEATS; viewer++) {
        tg_view_of(&st, viewer, &v);
        const tg_trick *t = tg_view_open_trick(&v);
        ck_assert_ptr_nonnull(t);
        ck_assert_uint_eq(t->actions[0].tiles[0], plum);
        ck_assert_uint_eq(t->actions[0].tiles[1], plum);
        ck_assert_uint_eq(t->actions[1].tiles[0], earth);
        ck_assert_uint_eq(t->actions[1].tiles[1], earth);
        ck_assert_uint_eq(t->best.tiles[0], earth);
        ck_assert_int_eq(t->winner, 1);
        ck_assert_int_eq(v.held[0], 6);
        ck_assert_int_eq(v.to_act, 3);
    }
}
END_TEST

START_TEST(test_a_revealed_natural_hand_is_visible_to_all)
{
    tg_state st;
    tg_view v;
    uint8_t natural[TG_HAND_TILES];
    tgt_parse_tiles(NATURAL_AT_TWO[2], natural, TG_HAND_TILES);
    start(&st, NATURAL_AT_TWO, 0);
    ck_assert(tg_is_over(&st));
    for (int viewer = TG_SPECTATOR; viewer < TG_SEATS; viewer++) {
        tg_view_of(&st, viewer, &v);
        ck_assert_int_eq(v.natural_seat, 2);
        /* The same tiles, whatever order the view keeps them in. */
        uint8_t shown[TG_KINDS] = {0}, want[TG_KINDS] = {0};
        for (int i = 0; i < TG_HAND_TILES; i++) {
            ck_assert_uint_lt(v.natural_tiles[i], TG_KINDS);
            shown[v.natural_tiles[i]]++;
            want[natural[i]]++;
        }
        ck_assert_mem_eq(shown, want, TG_KINDS);
        ck_assert_int_eq(v.result.winner, 2);
        ck_assert_int_eq(v.phase, TG_PHASE_OVER);
    }
    /* Only the natural hand is revealed: seat 0 still sees only its own other tiles. */
    uint8_t own[TG_KINDS];
    counts_of(NATURAL_AT_TWO[0], own);
    tg_view_of(&st, 0, &v);
    ck_assert_mem_eq(v.hand, own, TG_KINDS);
}
END_TEST

START_TEST(test_no_natural_hand_means_nothing_is_revealed)
{
    tg_state st;
    tg_view v;
    start(&st, DEAL_A, 0);
    tg_view_of(&st, 0, &v);
    ck_assert_int_eq(v.natural_seat, -1);
}
END_TEST

START_TEST(test_the_view_of_the_seat_to_act_offers_the_engines_legal_actions)
{
    tg_state st;
    tg_view v;
    start(&st, DEAL_A, 0);
    act(&st, "0 P 5-5");
    tg_action from_state[TG_MAX_ACTIONS], from_view[TG_MAX_ACTIONS];
    int n = tg_legal_actions(&st, 1, from_state, TG_MAX_ACTIONS);
    tg_view_of(&st, 1, &v);
    ck_assert_int_eq(tg_view_legal_actions(&v, from_view, TG_MAX_ACTIONS), n);
    ck_assert_mem_eq(from_view, from_state, (size_t)n * sizeof from_state[0]);
    tg_view_of(&st, 2, &v);
    ck_assert_int_eq(tg_view_legal_actions(&v, from_view, TG_MAX_ACTIONS), 0);
}
END_TEST

/* ---- the property: nothing hidden reaches a view ---- */

/* Every tile of seat o the viewer may not see: its held tiles and its discards. */
static bool hidden_from(int viewer, int owner) { return viewer == TG_SPECTATOR || owner != viewer; }

static void sort_kinds(uint8_t *k, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && k[j - 1] > k[j]; j--) {
            uint8_t t = k[j];
            k[j] = k[j - 1];
            k[j - 1] = t;
        }
}

/*
 * A copy of the state in which every tile hidden from the viewer is shuffled among the seats
 * that hide them, keeping how many each holds and discards; their deals are rebuilt to match.
 */
static void scramble_hidden(const tg_state *st, int viewer, rng_state *rng, tg_state *out)
{
    uint8_t pool[TG_TILES];
    int n = 0;
    *out = *st;
    for (int o = 0; o < TG_SEATS; o++) {
        if (!hidden_from(viewer, o))
            continue;
        for (int k = 0; k < TG_KINDS; k++)
            for (int c = 0; c < st->hand[o][k]; c++)
                pool[n++] = (uint8_t)k;
    }
    for (int t = 0; t < st->n_tricks; t++)
        for (int i = 0; i < st->tricks[t].count; i++) {
            const tg_action *a = &st->tricks[t].actions[i];
            if (a->kind == TG_DISCARD && hidden_from(viewer, a->seat))
                for (int j = 0; j < a->n; j++)
                    pool[n++] = a->tiles[j];
        }
    rng_shuffle(rng, pool, n);
    int next = 0;
    for (int o = 0; o < TG_SEATS; o++) {
        if (!hidden_from(viewer, o))
            continue;
        memset(out->hand[o], 0, TG_KINDS);
        for (int c = 0; c < st->held[o]; c++)
            out->hand[o][pool[next++]]++;
    }
    for (int t = 0; t < out->n_tricks; t++)
        for (int i = 0; i < out->tricks[t].count; i++) {
            tg_action *a = &out->tricks[t].actions[i];
            if (a->kind != TG_DISCARD || !hidden_from(viewer, a->seat))
                continue;
            for (int j = 0; j < a->n; j++)
                a->tiles[j] = pool[next++];
            sort_kinds(a->tiles, a->n);
        }
    if (next != n)
        ck_abort_msg("the scramble lost tiles");
    /* Each deal: what the seat holds now plus everything it put out. */
    for (int o = 0; o < TG_SEATS; o++) {
        if (!hidden_from(viewer, o))
            continue;
        int d = 0;
        for (int k = 0; k < TG_KINDS; k++)
            for (int c = 0; c < out->hand[o][k]; c++)
                out->deal[o][d++] = (uint8_t)k;
        for (int t = 0; t < out->n_tricks; t++)
            for (int i = 0; i < out->tricks[t].count; i++) {
                const tg_action *a = &out->tricks[t].actions[i];
                if (a->seat == o)
                    for (int j = 0; j < a->n; j++)
                        out->deal[o][d++] = a->tiles[j];
            }
        if (d != TG_HAND_TILES)
            ck_abort_msg("seat %d's rebuilt deal has %d tiles", o, d);
        sort_kinds(out->deal[o], TG_HAND_TILES);
    }
}

/*
 * The checks of one view: own tiles exactly; each tile kind accounted for between the viewer's
 * hand, tiles face up, the viewer's own discards and tiles hidden elsewhere (so no hidden tile is
 * in v.hand); tricks as in the state but with the others' discards hidden. Returns what is
 * wrong, or NULL. (One assertion per view: Check reports every passing assertion to its parent.)
 */
static const char *view_fault(const tg_state *st, int viewer, const tg_view *v)
{
    uint8_t none[TG_KINDS] = {0};
    if (viewer == TG_SPECTATOR && memcmp(v->hand, none, TG_KINDS) != 0)
        return "a spectator holds tiles";
    if (viewer != TG_SPECTATOR) {
        if (memcmp(v->hand, st->hand[viewer], TG_KINDS) != 0)
            return "the seat's tiles differ from its hand";
        int hidden_elsewhere[TG_KINDS] = {0}, face_up[TG_KINDS] = {0}, own_out[TG_KINDS] = {0};
        for (int o = 0; o < TG_SEATS; o++)
            if (o != viewer)
                for (int k = 0; k < TG_KINDS; k++)
                    hidden_elsewhere[k] += st->hand[o][k];
        for (int t = 0; t < st->n_tricks; t++)
            for (int i = 0; i < st->tricks[t].count; i++) {
                const tg_action *a = &st->tricks[t].actions[i];
                for (int j = 0; j < a->n; j++) {
                    if (a->kind == TG_PLAY)
                        face_up[a->tiles[j]]++;
                    else if (a->seat == viewer)
                        own_out[a->tiles[j]]++;
                    else
                        hidden_elsewhere[a->tiles[j]]++;
                }
            }
        for (int k = 0; k < TG_KINDS; k++)
            if (v->hand[k] + hidden_elsewhere[k] + face_up[k] + own_out[k] != tg_tile(k)->copies)
                return "the seat holds a tile that is elsewhere";
    }
    if (v->n_tricks != st->n_tricks)
        return "the number of tricks differs";
    for (int t = 0; t < st->n_tricks; t++) {
        const tg_trick *a = &st->tricks[t], *b = &v->tricks[t];
        if (a->count != b->count || a->winner != b->winner || memcmp(&a->best, &b->best, sizeof a->best) != 0)
            return "a trick differs";
        for (int i = 0; i < a->count; i++) {
            const tg_action *x = &a->actions[i], *y = &b->actions[i];
            if (x->seat != y->seat || x->kind != y->kind || x->n != y->n)
                return "an action differs";
            if (x->kind == TG_DISCARD && x->seat != viewer) {
                if (!all_hidden(y))
                    return "another seat's discard is shown";
            } else if (memcmp(x->tiles, y->tiles, x->n) != 0) {
                return "a face-up or own tile is not shown as it is";
            }
        }
    }
    return NULL;
}

START_TEST(test_no_view_ever_holds_a_tile_hidden_from_its_seat)
{
    int hands = 0, scrambles = 0, changed = 0;
    for (uint64_t seed = 1; hands < 1000; seed++) {
        uint8_t deal[TG_SEATS][TG_HAND_TILES];
        tg_options options = tg_options_default();
        tg_state st;
        static tg_state scrambled;
        tg_view v, w;
        rng_state play_rng, scramble_rng;
        tg_deal(seed, deal);
        rng_seed(&play_rng, seed ^ 0x7669657773ULL);
        rng_seed(&scramble_rng, seed * 31 + 7);
        ck_assert_int_eq(tgt_start_deal(&st, &options, (int)(seed % TG_SEATS), 2, deal), TG_OK);
        if (tg_is_over(&st))
            continue; /* a natural hand is revealed on purpose */
        hands++;
        for (;;) {
            for (int viewer = TG_SPECTATOR; viewer < TG_SEATS; viewer++) {
                tg_view_of(&st, viewer, &v);
                const char *fault = view_fault(&st, viewer, &v);
                if (fault != NULL)
                    ck_abort_msg("seed %llu, seat %d: %s", (unsigned long long)seed, viewer, fault);
                scramble_hidden(&st, viewer, &scramble_rng, &scrambled);
                tg_view_of(&scrambled, viewer, &w);
                scrambles++;
                changed += memcmp(&st, &scrambled, sizeof st) != 0;
                if (memcmp(&v, &w, sizeof v) != 0)
                    ck_abort_msg("seed %llu: seat %d's view changes with tiles it cannot see",
                                 (unsigned long long)seed, viewer);
            }
            if (tg_is_over(&st))
                break;
            tg_action legal[TG_MAX_ACTIONS];
            int count = tg_legal_actions(&st, st.to_act, legal, TG_MAX_ACTIONS);
            ck_assert_int_gt(count, 0);
            ck_assert_int_eq(tg_apply_action(&st, &legal[rng_below(&play_rng, (uint32_t)count)]), TG_OK);
        }
    }
    /* The shuffle must actually move hidden tiles most of the time, or the check proves little. */
    ck_assert_int_gt(changed, scrambles * 9 / 10);
}
END_TEST

START_TEST(test_a_bot_sees_the_same_legal_actions_from_its_view)
{
    for (uint64_t seed = 1; seed <= 100; seed++) {
        uint8_t deal[TG_SEATS][TG_HAND_TILES];
        tg_options options = tg_options_default();
        tg_state st;
        rng_state rng;
        tg_deal(seed, deal);
        rng_seed(&rng, seed);
        ck_assert_int_eq(tgt_start_deal(&st, &options, 0, 2, deal), TG_OK);
        while (!tg_is_over(&st)) {
            tg_action from_state[TG_MAX_ACTIONS], from_view[TG_MAX_ACTIONS];
            tg_view v;
            int n = tg_legal_actions(&st, st.to_act, from_state, TG_MAX_ACTIONS);
            tg_view_of(&st, st.to_act, &v);
            ck_assert_int_eq(tg_view_legal_actions(&v, from_view, TG_MAX_ACTIONS), n);
            ck_assert_mem_eq(from_view, from_state, (size_t)n * sizeof from_state[0]);
            ck_assert_int_eq(tg_apply_action(&st, &from_state[rng_below(&rng, (uint32_t)n)]), TG_OK);
        }
    }
}
END_TEST

static Suite *view_suite(void)
{
    Suite *s = suite_create("tg_view");
    TCase *tc = tcase_create("view");
    tcase_add_test(tc, test_a_seat_sees_its_own_tiles_and_no_others);
    tcase_add_test(tc, test_a_spectator_sees_no_tiles);
    tcase_add_test(tc, test_others_discards_are_hidden_and_own_discards_shown);
    tcase_add_test(tc, test_played_tiles_are_visible_to_everyone);
    tcase_add_test(tc, test_a_revealed_natural_hand_is_visible_to_all);
    tcase_add_test(tc, test_no_natural_hand_means_nothing_is_revealed);
    tcase_add_test(tc, test_the_view_of_the_seat_to_act_offers_the_engines_legal_actions);
    suite_add_tcase(s, tc);

    TCase *property = tcase_create("property");
    tcase_set_timeout(property, 120);
    tcase_add_test(property, test_no_view_ever_holds_a_tile_hidden_from_its_seat);
    tcase_add_test(property, test_a_bot_sees_the_same_legal_actions_from_its_view);
    suite_add_tcase(s, property);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(view_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
