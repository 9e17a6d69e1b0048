/*
 * game_replay (game_replay.h) on the toy game: a refused action is reported by index and the
 * engine's reason, the hand keeps what came before it, the step callback sees every action and
 * may stop the replay, and a hand that cannot be made is reported at the count given.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "game_replay.h"
#include "toy_game.h"

/* A whole toy hand: 4 bids, 4 takes from the leader (seat 1), 3 claims. */
static const struct {
    int seat;
    const char *action;
} HAND[] = {
    {2, "{\"bid\":1}"},  {0, "{\"bid\":3}"},  {3, "{\"bid\":0}"},      {1, "{\"bid\":2}"},
    {1, "{\"take\":2}"}, {2, "{\"take\":1}"}, {3, "{\"take\":3}"},     {0, "{\"take\":1}"},
    {3, "{\"claim\":true}"}, {1, "{\"claim\":true}"}, {2, "{\"claim\":false}"},
};
#define HAND_ACTIONS (sizeof HAND / sizeof HAND[0])

typedef struct fixture {
    json_t *options, *state;
    json_t *actions[HAND_ACTIONS];
    game_logged_action log[HAND_ACTIONS];
} fixture;

static void fixture_init(fixture *f)
{
    char msg[GAME_MESSAGE_SIZE];
    f->options = toy_game.options_parse(NULL, msg, sizeof msg);
    f->state = json_pack("{s:i, s:i}", "leader", 1, "round", 4);
    for (size_t i = 0; i < HAND_ACTIONS; i++) {
        f->actions[i] = json_loads(HAND[i].action, 0, NULL);
        ck_assert_ptr_nonnull(f->actions[i]);
        f->log[i] = (game_logged_action){.seat = HAND[i].seat, .action = f->actions[i]};
    }
}

static void fixture_free(fixture *f)
{
    for (size_t i = 0; i < HAND_ACTIONS; i++)
        json_decref(f->actions[i]);
    json_decref(f->options);
    json_decref(f->state);
}

/* The admin view after the first n actions, applied one by one with act. */
static json_t *admin_after(const fixture *f, size_t n)
{
    game_hand *hand = toy_game.hand_new(f->options, 5, f->state);
    for (size_t i = 0; i < n; i++) {
        char msg[GAME_MESSAGE_SIZE];
        ck_assert_ptr_null(toy_game.act(hand, f->log[i].seat, f->log[i].action, msg, sizeof msg));
    }
    json_t *admin = toy_game.view_admin(hand);
    toy_game.hand_free(hand);
    return admin;
}

START_TEST(test_a_whole_logged_hand_replays_to_its_end)
{
    fixture f;
    fixture_init(&f);
    game_replay_error err;
    game_hand *hand = game_replay(&toy_game, f.options, 5, f.state, f.log, HAND_ACTIONS, NULL, NULL, &err);
    ck_assert_ptr_nonnull(hand);
    ck_assert(toy_game.is_over(hand));
    json_t *event = toy_game.last_event(hand);
    ck_assert_int_eq(json_integer_value(json_object_get(event, "seat")), 1); /* bid 2 beats bid 0 */
    json_decref(event);
    toy_game.hand_free(hand);
    fixture_free(&f);
}
END_TEST

START_TEST(test_a_refused_action_reports_its_index_and_the_engines_reason)
{
    fixture f;
    fixture_init(&f);
    f.log[6].seat = 0; /* seat 3's turn */
    game_replay_error err;
    ck_assert_ptr_null(game_replay(&toy_game, f.options, 5, f.state, f.log, HAND_ACTIONS, NULL, NULL, &err));
    ck_assert_uint_eq(err.index, 6);
    ck_assert_str_eq(err.code, "not_your_turn");
    ck_assert_str_eq(err.message, "Seat 0 owes no decision now.");

    f.log[6].seat = 3;
    f.log[2].action = f.actions[4]; /* a take in the bidding */
    ck_assert_ptr_null(game_replay(&toy_game, f.options, 5, f.state, f.log, HAND_ACTIONS, NULL, NULL, &err));
    ck_assert_uint_eq(err.index, 2);
    ck_assert_str_eq(err.code, "bad_request");
    fixture_free(&f);
}
END_TEST

START_TEST(test_replaying_into_a_hand_keeps_every_action_before_the_refused_one)
{
    fixture f;
    fixture_init(&f);
    f.log[9].seat = 0; /* the last taker, outside the claim window */
    game_hand *hand = toy_game.hand_new(f.options, 5, f.state);
    game_replay_error err;
    ck_assert(!game_replay_actions(&toy_game, hand, f.log, HAND_ACTIONS, NULL, NULL, &err));
    ck_assert_uint_eq(err.index, 9);
    ck_assert_str_eq(err.code, "not_your_turn");
    json_t *got = toy_game.view_admin(hand), *want = admin_after(&f, 9);
    ck_assert(json_equal(got, want));
    json_decref(got);
    json_decref(want);
    toy_game.hand_free(hand);
    fixture_free(&f);
}
END_TEST

typedef struct steps {
    size_t seen[HAND_ACTIONS + 1];
    size_t n;
    size_t stop_after; /* the index after which to stop */
} steps;

static bool record_step(void *ctx, const game_hand *hand, size_t index)
{
    (void)hand;
    steps *s = ctx;
    s->seen[s->n++] = index;
    return index != s->stop_after;
}

START_TEST(test_the_step_callback_sees_the_start_then_every_action)
{
    fixture f;
    fixture_init(&f);
    steps s = {.stop_after = HAND_ACTIONS};
    game_replay_error err;
    game_hand *hand = game_replay(&toy_game, f.options, 5, f.state, f.log, HAND_ACTIONS, record_step, &s, &err);
    ck_assert_ptr_nonnull(hand);
    ck_assert_uint_eq(s.n, HAND_ACTIONS + 1);
    ck_assert_uint_eq(s.seen[0], SIZE_MAX);
    for (size_t i = 0; i < HAND_ACTIONS; i++)
        ck_assert_uint_eq(s.seen[i + 1], i);
    toy_game.hand_free(hand);
    fixture_free(&f);
}
END_TEST

START_TEST(test_a_step_that_says_stop_returns_the_hand_so_far)
{
    fixture f;
    fixture_init(&f);
    steps s = {.stop_after = 4};
    game_replay_error err;
    game_hand *hand = game_replay(&toy_game, f.options, 5, f.state, f.log, HAND_ACTIONS, record_step, &s, &err);
    ck_assert_ptr_nonnull(hand);
    ck_assert_uint_eq(s.n, 6); /* the start, then 0..4 */
    json_t *got = toy_game.view_admin(hand), *want = admin_after(&f, 5);
    ck_assert(json_equal(got, want));
    json_decref(got);
    json_decref(want);
    toy_game.hand_free(hand);
    fixture_free(&f);
}
END_TEST

START_TEST(test_a_state_the_game_did_not_write_is_reported_at_the_count_given)
{
    fixture f;
    fixture_init(&f);
    json_t *bad = json_pack("{s:i}", "banker", 1);
    game_replay_error err;
    ck_assert_ptr_null(game_replay(&toy_game, f.options, 5, bad, f.log, 3, NULL, NULL, &err));
    ck_assert_uint_eq(err.index, 3);
    ck_assert_str_eq(err.code, "internal");
    ck_assert_int_gt((int)strlen(err.message), 0);
    json_decref(bad);
    fixture_free(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("game_replay");
    TCase *tc = tcase_create("replay");
    tcase_add_test(tc, test_a_whole_logged_hand_replays_to_its_end);
    tcase_add_test(tc, test_a_refused_action_reports_its_index_and_the_engines_reason);
    tcase_add_test(tc, test_replaying_into_a_hand_keeps_every_action_before_the_refused_one);
    tcase_add_test(tc, test_the_step_callback_sees_the_start_then_every_action);
    tcase_add_test(tc, test_a_step_that_says_stop_returns_the_hand_so_far);
    tcase_add_test(tc, test_a_state_the_game_did_not_write_is_reported_at_the_count_given);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
