/*
 * The toy game (toy_game.h) through the game interface: simultaneous decisions resolved by
 * priority, private decisions, refusals that change nothing, hidden secrets, bot and timeout
 * choices, the ledger, the table state, and replays through game_replay.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "game_replay.h"
#include "toy_game.h"

static json_t *options_of(int stake)
{
    char msg[GAME_MESSAGE_SIZE];
    json_t *given = stake > 0 ? json_pack("{s:i}", "stake", stake) : NULL;
    json_t *options = toy_game.options_parse(given, msg, sizeof msg);
    ck_assert_ptr_nonnull(options);
    json_decref(given);
    return options;
}

/* A hand of stake 1 led by leader in round 1. */
static game_hand *new_hand(uint64_t seed, int leader)
{
    json_t *options = options_of(0);
    json_t *state = json_pack("{s:i, s:i}", "leader", leader, "round", 1);
    game_hand *hand = toy_game.hand_new(options, seed, state);
    ck_assert_ptr_nonnull(hand);
    json_decref(state);
    json_decref(options);
    return hand;
}

/* Acts with an action written as JSON text; the error code, or NULL when accepted. */
static const char *act_text(game_hand *hand, int seat, const char *text)
{
    char msg[GAME_MESSAGE_SIZE] = "";
    json_t *action = json_loads(text, JSON_DECODE_ANY, NULL);
    ck_assert_ptr_nonnull(action);
    const char *code = toy_game.act(hand, seat, action, msg, sizeof msg);
    if (code != NULL)
        ck_assert_int_gt((int)strlen(msg), 0);
    json_decref(action);
    return code;
}

static void act_ok(game_hand *hand, int seat, const char *text)
{
    const char *code = act_text(hand, seat, text);
    ck_assert_msg(code == NULL, "seat %d %s refused: %s", seat, text, code);
}

static void bid_all(game_hand *hand, const int bids[GAME_SEATS])
{
    for (int s = 0; s < GAME_SEATS; s++) {
        char text[32];
        snprintf(text, sizeof text, "{\"bid\":%d}", bids[s]);
        act_ok(hand, s, text);
    }
}

/* Four takes of one token from the leader on: the last taker is the seat before the leader. */
static void take_round(game_hand *hand, int leader)
{
    for (int i = 0; i < GAME_SEATS; i++)
        act_ok(hand, (leader + i) % GAME_SEATS, "{\"take\":1}");
}

/* The admin view and the last event in one value, for before/after comparisons. */
static json_t *everything(const game_hand *hand)
{
    json_t *last = toy_game.last_event(hand);
    return json_pack("{s:o, s:o}", "admin", toy_game.view_admin(hand), "last", last != NULL ? last : json_string("private"));
}

START_TEST(test_every_seat_bids_at_once_and_a_bid_clears_only_its_own_decision)
{
    game_hand *hand = new_hand(1, 2);
    game_decision d[GAME_SEATS];
    ck_assert_int_eq(toy_game.decisions(hand, d), 4);
    for (int s = 0; s < GAME_SEATS; s++) {
        ck_assert_int_eq(d[s].seat, s);
        ck_assert_int_eq(d[s].kind, GAME_DECISION_PRE_HAND);
        ck_assert_str_eq(game_decision_kind_name(d[s].kind), "pre_hand");
    }
    act_ok(hand, 2, "{\"bid\":1}");
    ck_assert_int_eq(toy_game.decisions(hand, d), 3);
    ck_assert(!game_seat_decides(&toy_game, hand, 2));
    ck_assert(game_seat_decides(&toy_game, hand, 0) && game_seat_decides(&toy_game, hand, 3));
    ck_assert_str_eq(act_text(hand, 2, "{\"bid\":3}"), "not_your_turn"); /* one bid a hand */
    toy_game.hand_free(hand);
}
END_TEST

START_TEST(test_a_bid_stays_private_until_the_fourth_then_all_are_shown)
{
    game_hand *hand = new_hand(3, 0);
    json_t *before[GAME_SEATS + 1];
    for (int v = GAME_SPECTATOR; v < GAME_SEATS; v++)
        before[v + 1] = toy_game.view(hand, v);
    act_ok(hand, 1, "{\"bid\":2}");
    ck_assert_ptr_null(toy_game.last_event(hand));
    /* nobody else can tell that seat 1 has bid, nor what */
    for (int v = GAME_SPECTATOR; v < GAME_SEATS; v++) {
        json_t *now = toy_game.view(hand, v);
        if (v == 1)
            ck_assert_int_eq(json_integer_value(json_object_get(now, "my_bid")), 2);
        else
            ck_assert(json_equal(now, before[v + 1]));
        json_decref(now);
        json_decref(before[v + 1]);
    }
    act_ok(hand, 3, "{\"bid\":0}");
    ck_assert_ptr_null(toy_game.last_event(hand));
    act_ok(hand, 0, "{\"bid\":3}");
    ck_assert_ptr_null(toy_game.last_event(hand));
    act_ok(hand, 2, "{\"bid\":1}");
    json_t *event = toy_game.last_event(hand);
    json_t *expected = json_pack("{s:s, s:[i,i,i,i]}", "kind", "bids", "bids", 3, 2, 1, 0);
    ck_assert(json_equal(event, expected));
    json_decref(event);
    json_decref(expected);
    game_decision d[GAME_SEATS];
    ck_assert_int_eq(toy_game.decisions(hand, d), 1);
    ck_assert_int_eq(d[0].seat, 0); /* the leader */
    ck_assert_int_eq(d[0].kind, GAME_DECISION_TURN);
    toy_game.hand_free(hand);
}
END_TEST

START_TEST(test_turns_go_round_from_the_leader_one_seat_at_a_time)
{
    game_hand *hand = new_hand(5, 2);
    bid_all(hand, (const int[]){0, 0, 0, 0});
    for (int i = 0; i < GAME_SEATS; i++) {
        int seat = (2 + i) % GAME_SEATS;
        game_decision d[GAME_SEATS];
        ck_assert_int_eq(toy_game.decisions(hand, d), 1);
        ck_assert_int_eq(d[0].seat, seat);
        ck_assert_str_eq(act_text(hand, (seat + 1) % GAME_SEATS, "{\"take\":1}"), "not_your_turn");
        act_ok(hand, seat, "{\"take\":2}");
        json_t *event = toy_game.last_event(hand);
        ck_assert_int_eq(json_integer_value(json_object_get(event, "seat")), seat);
        json_decref(event);
    }
    toy_game.hand_free(hand);
}
END_TEST

/* Claim window after a take round led by 0: the last taker is 3, the window seats 0, 1 and 2. */
static game_hand *hand_at_claims(const int bids[GAME_SEATS])
{
    game_hand *hand = new_hand(9, 0);
    bid_all(hand, bids);
    take_round(hand, 0);
    game_decision d[GAME_SEATS];
    ck_assert_int_eq(toy_game.decisions(hand, d), 3);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(d[i].seat, i);
        ck_assert_int_eq(d[i].kind, GAME_DECISION_CLAIM);
    }
    return hand;
}

static int claimed_seat(const game_hand *hand)
{
    json_t *event = toy_game.last_event(hand);
    ck_assert_str_eq(json_string_value(json_object_get(event, "kind")), "claim");
    json_t *seat = json_object_get(event, "seat");
    int result = json_is_null(seat) ? -1 : (int)json_integer_value(seat);
    json_decref(event);
    return result;
}

START_TEST(test_simultaneous_claims_go_to_the_highest_bid_whatever_their_order)
{
    game_hand *hand = hand_at_claims((const int[]){1, 3, 2, 0});
    act_ok(hand, 0, "{\"claim\":true}");
    ck_assert_ptr_null(toy_game.last_event(hand)); /* private until the window resolves */
    act_ok(hand, 2, "{\"claim\":true}");
    ck_assert_ptr_null(toy_game.last_event(hand));
    ck_assert(!toy_game.is_over(hand));
    act_ok(hand, 1, "{\"claim\":true}"); /* the last to answer, but the highest bid */
    ck_assert(toy_game.is_over(hand));
    ck_assert_int_eq(claimed_seat(hand), 1);
    game_decision d[GAME_SEATS];
    ck_assert_int_eq(toy_game.decisions(hand, d), 0);
    toy_game.hand_free(hand);
}
END_TEST

START_TEST(test_equal_claims_go_to_the_first_seat_after_the_last_taker)
{
    game_hand *hand = hand_at_claims((const int[]){2, 2, 2, 0});
    act_ok(hand, 2, "{\"claim\":true}");
    act_ok(hand, 1, "{\"claim\":true}");
    act_ok(hand, 0, "{\"claim\":true}");
    ck_assert_int_eq(claimed_seat(hand), 0); /* 0 follows the last taker, 3 */
    toy_game.hand_free(hand);

    hand = hand_at_claims((const int[]){3, 1, 1, 0});
    act_ok(hand, 0, "{\"claim\":false}"); /* the highest bid passes */
    act_ok(hand, 2, "{\"claim\":true}");
    act_ok(hand, 1, "{\"claim\":true}");
    ck_assert_int_eq(claimed_seat(hand), 1);
    toy_game.hand_free(hand);

    hand = hand_at_claims((const int[]){3, 1, 1, 0});
    for (int s = 0; s < 3; s++)
        act_ok(hand, s, "{\"claim\":false}");
    ck_assert_int_eq(claimed_seat(hand), -1);
    toy_game.hand_free(hand);
}
END_TEST

START_TEST(test_a_refused_action_changes_nothing)
{
    static const struct {
        int seat;
        const char *action;
        const char *code;
    } BID[] = {
        {0, "{\"bid\":4}", "bad_request"},  {0, "{\"bid\":-1}", "bad_request"},
        {0, "{\"take\":1}", "bad_request"}, {0, "{\"bid\":1,\"x\":1}", "bad_request"},
        {0, "[1]", "bad_request"},          {1, "{\"bid\":1}", "not_your_turn"}, /* already bid */
        {4, "{\"bid\":1}", "not_your_turn"}, {GAME_SPECTATOR, "{\"bid\":1}", "not_your_turn"},
    },
      TAKE[] = {
          {1, "{\"take\":1}", "not_your_turn"}, {0, "{\"take\":0}", "bad_request"},
          {0, "{\"take\":4}", "bad_request"},   {0, "{\"take\":1.0}", "bad_request"},
          {0, "{\"claim\":true}", "bad_request"},
      },
      CLAIM[] = {
          {3, "{\"claim\":true}", "not_your_turn"}, /* the last taker */
          {0, "{\"claim\":1}", "bad_request"},
          {1, "{\"claim\":false}", "not_your_turn"}, /* already answered */
      };
    game_hand *hand = new_hand(11, 0);
    act_ok(hand, 1, "{\"bid\":2}");
    for (size_t i = 0; i < sizeof BID / sizeof BID[0]; i++) {
        json_t *before = everything(hand);
        ck_assert_str_eq(act_text(hand, BID[i].seat, BID[i].action), BID[i].code);
        json_t *after = everything(hand);
        ck_assert_msg(json_equal(before, after), "%s changed the hand", BID[i].action);
        json_decref(before);
        json_decref(after);
    }
    act_ok(hand, 0, "{\"bid\":1}");
    act_ok(hand, 2, "{\"bid\":1}");
    act_ok(hand, 3, "{\"bid\":1}");
    for (size_t i = 0; i < sizeof TAKE / sizeof TAKE[0]; i++) {
        json_t *before = everything(hand);
        ck_assert_str_eq(act_text(hand, TAKE[i].seat, TAKE[i].action), TAKE[i].code);
        json_t *after = everything(hand);
        ck_assert_msg(json_equal(before, after), "%s changed the hand", TAKE[i].action);
        json_decref(before);
        json_decref(after);
    }
    take_round(hand, 0);
    act_ok(hand, 1, "{\"claim\":true}");
    for (size_t i = 0; i < sizeof CLAIM / sizeof CLAIM[0]; i++) {
        json_t *before = everything(hand);
        ck_assert_str_eq(act_text(hand, CLAIM[i].seat, CLAIM[i].action), CLAIM[i].code);
        json_t *after = everything(hand);
        ck_assert_msg(json_equal(before, after), "%s changed the hand", CLAIM[i].action);
        json_decref(before);
        json_decref(after);
    }
    act_ok(hand, 0, "{\"claim\":false}");
    act_ok(hand, 2, "{\"claim\":false}");
    json_t *before = everything(hand);
    ck_assert_str_eq(act_text(hand, 0, "{\"claim\":true}"), "hand_over");
    json_t *after = everything(hand);
    ck_assert(json_equal(before, after));
    json_decref(before);
    json_decref(after);
    toy_game.hand_free(hand);
}
END_TEST

START_TEST(test_each_seat_sees_only_its_own_secret_and_the_admin_sees_all)
{
    for (uint64_t seed = 1; seed <= 50; seed++) {
        game_hand *hand = new_hand(seed, (int)(seed % 4));
        json_t *admin = toy_game.view_admin(hand);
        json_t *secrets = json_object_get(admin, "secrets");
        ck_assert_int_eq(json_array_size(secrets), GAME_SEATS);
        json_t *deal = toy_game.deal_json(hand);
        ck_assert(json_equal(json_object_get(deal, "secrets"), secrets));
        for (int v = GAME_SPECTATOR; v < GAME_SEATS; v++) {
            json_t *view = toy_game.view(hand, v);
            ck_assert_ptr_null(json_object_get(view, "secrets"));
            if (v == GAME_SPECTATOR)
                ck_assert(json_is_null(json_object_get(view, "secret")));
            else
                ck_assert(json_equal(json_object_get(view, "secret"), json_array_get(secrets, (size_t)v)));
            json_decref(view);
        }
        json_decref(deal);
        json_decref(admin);
        toy_game.hand_free(hand);
    }
}
END_TEST

START_TEST(test_the_timeout_chooses_otherwise_than_the_bot_and_both_are_accepted)
{
    game_hand *hand = new_hand(21, 1);
    while (!toy_game.is_over(hand)) {
        game_decision d[GAME_SEATS];
        int n = toy_game.decisions(hand, d);
        for (int i = 0; i < n; i++) {
            json_t *bot = toy_game.bot_action(hand, d[i].seat);
            json_t *timeout = toy_game.timeout_action(hand, d[i].seat);
            ck_assert_ptr_nonnull(bot);
            ck_assert_ptr_nonnull(timeout);
            ck_assert(!json_equal(bot, timeout));
            game_hand *copy = toy_game.hand_copy(hand);
            char msg[GAME_MESSAGE_SIZE];
            ck_assert_ptr_null(toy_game.act(copy, d[i].seat, timeout, msg, sizeof msg));
            toy_game.hand_free(copy);
            ck_assert_ptr_null(toy_game.act(hand, d[i].seat, bot, msg, sizeof msg));
            json_decref(bot);
            json_decref(timeout);
        }
        for (int s = 0; s < GAME_SEATS; s++)
            if (!game_seat_decides(&toy_game, hand, s))
                ck_assert_ptr_null(toy_game.bot_action(hand, s)); /* nothing owed, nothing chosen */
    }
    toy_game.hand_free(hand);
}
END_TEST

/* Plays a hand to its end: each decision by the bot or the timeout, simultaneous ones in an
 * order drawn from the seed; the accepted actions go into log (seat, new references). */
static size_t play_out(game_hand *hand, uint64_t seed, game_logged_action *log)
{
    size_t n = 0;
    uint64_t x = seed;
    while (!toy_game.is_over(hand)) {
        game_decision d[GAME_SEATS];
        int count = toy_game.decisions(hand, d);
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        int pick = (int)((x >> 33) % (uint64_t)count);
        int seat = d[pick].seat;
        json_t *action = (x >> 40) % 3 == 0 ? toy_game.timeout_action(hand, seat) : toy_game.bot_action(hand, seat);
        char msg[GAME_MESSAGE_SIZE];
        ck_assert_ptr_null(toy_game.act(hand, seat, action, msg, sizeof msg));
        log[n++] = (game_logged_action){.seat = seat, .action = action};
        ck_assert_uint_le(n, 11);
    }
    return n;
}

static void free_log(game_logged_action *log, size_t n)
{
    for (size_t i = 0; i < n; i++)
        json_decref((json_t *)log[i].action);
}

START_TEST(test_ledger_lines_sum_to_zero_by_reason_and_to_the_net)
{
    json_t *options = options_of(7);
    int claims = 0;
    for (uint64_t seed = 1; seed <= 200; seed++) {
        json_t *state = toy_game.table_state_new(options, seed);
        game_hand *hand = toy_game.hand_new(options, seed, state);
        game_logged_action log[16];
        size_t n = play_out(hand, seed, log);
        ck_assert_uint_eq(n, 11); /* 4 bids, 4 takes, 3 claims */
        game_result r;
        toy_game.result(hand, &r);
        int64_t by_seat[GAME_SEATS] = {0}, settle = 0, claim = 0;
        for (int i = 0; i < r.n_lines; i++) {
            by_seat[r.lines[i].seat] += r.lines[i].units;
            if (strcmp(r.lines[i].reason, "settle") == 0)
                settle += r.lines[i].units;
            else if (strcmp(r.lines[i].reason, "claim") == 0)
                claim += r.lines[i].units, claims++;
            else
                ck_abort_msg("unknown reason %s", r.lines[i].reason);
        }
        ck_assert_int_eq(settle, 0);
        ck_assert_int_eq(claim, 0);
        for (int s = 0; s < GAME_SEATS; s++)
            ck_assert_int_eq(by_seat[s], r.net[s]);
        /* settle: the winner 3 × 7 from the others; a claim: 7 to the claimer from the last taker */
        for (int i = 0; i < GAME_SEATS; i++) {
            ck_assert_int_eq(r.lines[i].seat, i);
            ck_assert_int_eq(r.lines[i].units, i == r.winner ? 21 : -7);
        }
        ck_assert(r.n_lines == 4 || (r.n_lines == 6 && r.lines[4].units == 7 && r.lines[5].units == -7));
        free_log(log, n);
        toy_game.hand_free(hand);
        json_decref(state);
    }
    ck_assert_int_gt(claims, 0);
    json_decref(options);
}
END_TEST

START_TEST(test_the_table_state_carries_the_winner_as_leader_and_counts_rounds)
{
    json_t *options = options_of(0);
    json_t *state = toy_game.table_state_new(options, 6);
    json_t *expected = json_pack("{s:i, s:i}", "leader", 2, "round", 1);
    ck_assert(json_equal(state, expected));
    json_decref(expected);
    for (int round = 1; round <= 5; round++) {
        game_hand *hand = toy_game.hand_new(options, (uint64_t)round, state);
        ck_assert_ptr_nonnull(hand);
        ck_assert_ptr_null(toy_game.next_table_state(hand)); /* not before the end */
        game_logged_action log[16];
        free_log(log, play_out(hand, (uint64_t)round, log));
        game_result r;
        toy_game.result(hand, &r);
        json_decref(state);
        state = toy_game.next_table_state(hand);
        ck_assert_int_eq(json_integer_value(json_object_get(state, "leader")), r.winner);
        ck_assert_int_eq(json_integer_value(json_object_get(state, "round")), round + 1);
        toy_game.hand_free(hand);
    }
    json_decref(state);
    const char *bad[] = {"null", "[]", "{\"leader\":4,\"round\":1}", "{\"leader\":0,\"round\":0}",
                         "{\"leader\":\"0\",\"round\":1}", "{\"leader\":0}", "{\"leader\":0,\"round\":1,\"x\":1}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *given = json_loads(bad[i], JSON_DECODE_ANY, NULL);
        ck_assert_msg(toy_game.hand_new(options, 1, given) == NULL, "state %s accepted", bad[i]);
        json_decref(given);
    }
    json_decref(options);
}
END_TEST

START_TEST(test_the_one_option_is_the_stake)
{
    char msg[GAME_MESSAGE_SIZE];
    json_t *options = options_of(0);
    ck_assert_int_eq(json_integer_value(json_object_get(options, "stake")), 1);
    ck_assert_int_eq(json_object_size(options), 1);
    json_decref(options);
    const char *bad[] = {"{\"stake\":0}", "{\"stake\":1001}", "{\"stake\":true}", "{\"stakes\":2}", "[]"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *given = json_loads(bad[i], JSON_DECODE_ANY, NULL);
        ck_assert_msg(toy_game.options_parse(given, msg, sizeof msg) == NULL, "%s accepted", bad[i]);
        ck_assert_int_gt((int)strlen(msg), 0);
        json_decref(given);
    }
}
END_TEST

START_TEST(test_a_replay_through_game_replay_rebuilds_the_admin_view)
{
    json_t *options = options_of(3);
    for (uint64_t seed = 1; seed <= 100; seed++) {
        json_t *state = toy_game.table_state_new(options, seed * 31);
        game_hand *hand = toy_game.hand_new(options, seed, state);
        game_logged_action log[16];
        size_t n = play_out(hand, seed, log);
        game_replay_error err;
        game_hand *again = game_replay(&toy_game, options, seed, state, log, n, NULL, NULL, &err);
        ck_assert_ptr_nonnull(again);
        json_t *a = everything(hand), *b = everything(again);
        ck_assert(json_equal(a, b));
        json_decref(a);
        json_decref(b);
        toy_game.hand_free(again);
        free_log(log, n);
        toy_game.hand_free(hand);
        json_decref(state);
    }
    json_decref(options);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("toy_game");
    TCase *tc = tcase_create("interface");
    tcase_add_test(tc, test_every_seat_bids_at_once_and_a_bid_clears_only_its_own_decision);
    tcase_add_test(tc, test_a_bid_stays_private_until_the_fourth_then_all_are_shown);
    tcase_add_test(tc, test_turns_go_round_from_the_leader_one_seat_at_a_time);
    tcase_add_test(tc, test_simultaneous_claims_go_to_the_highest_bid_whatever_their_order);
    tcase_add_test(tc, test_equal_claims_go_to_the_first_seat_after_the_last_taker);
    tcase_add_test(tc, test_a_refused_action_changes_nothing);
    tcase_add_test(tc, test_each_seat_sees_only_its_own_secret_and_the_admin_sees_all);
    tcase_add_test(tc, test_the_timeout_chooses_otherwise_than_the_bot_and_both_are_accepted);
    tcase_add_test(tc, test_ledger_lines_sum_to_zero_by_reason_and_to_the_net);
    tcase_add_test(tc, test_the_table_state_carries_the_winner_as_leader_and_counts_rounds);
    tcase_add_test(tc, test_the_one_option_is_the_stake);
    tcase_add_test(tc, test_a_replay_through_game_replay_rebuilds_the_admin_view);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
