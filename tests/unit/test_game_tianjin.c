/*
 * Tianjin Mahjong behind the game interface (games/game.h): options and the table state, the
 * pre-hand decisions (sitting, private pulls), the claim window every discard opens for all three
 * other seats alike, refusals that change nothing and name their reason, views that never show
 * another seat's tile, tiles kept, the ledger split by reason, replays bit for bit through
 * game_replay, and the calculator's replay mode giving the game's own result.
 *
 * Whole hands are played by a stand-in for the bot: a random action from the deciding seat's own
 * legal list (so claims, kongs and wins all happen), usually the win when there is one. Scenarios
 * deal from a wall written by hand (tianjin_hand_from_wall).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "game_replay.h"
#include "mj_json.h"
#include "score.h"
#include "tianjin/game_tianjin.h"

#define MAX_LOG 1200

static const game_ops *tj(void) { return game_find("tianjin"); }

static json_t *parse_options(json_t *given)
{
    char msg[GAME_MESSAGE_SIZE];
    json_t *options = tj()->options_parse(given, msg, sizeof msg);
    ck_assert_msg(options != NULL, "options refused: %s", msg);
    json_decref(given);
    return options;
}

static json_t *table_state(int banker, int count, bool must_sit)
{
    return json_pack("{s:i, s:i, s:b}", "banker", banker, "count", count, "must_sit", must_sit);
}

static game_hand *new_hand(const json_t *options, uint64_t seed, int banker, int count, bool must_sit)
{
    json_t *state = table_state(banker, count, must_sit);
    game_hand *hand = tj()->hand_new(options, seed, state);
    ck_assert_ptr_nonnull(hand);
    json_decref(state);
    return hand;
}

static int decisions(const game_hand *hand, game_decision d[GAME_SEATS]) { return tj()->decisions(hand, d); }

static bool decides(const game_hand *hand, int seat) { return game_seat_decides(tj(), hand, seat); }

static const char *act(game_hand *hand, int seat, const char *action_text)
{
    static char msg[GAME_MESSAGE_SIZE];
    json_t *action = json_loads(action_text, 0, NULL);
    ck_assert_msg(action != NULL, "bad JSON in the test: %s", action_text);
    const char *code = tj()->act(hand, seat, action, msg, sizeof msg);
    json_decref(action);
    return code;
}

static void act_ok(game_hand *hand, int seat, const char *action_text)
{
    json_t *action = json_loads(action_text, 0, NULL);
    char msg[GAME_MESSAGE_SIZE];
    const char *code = tj()->act(hand, seat, action, msg, sizeof msg);
    ck_assert_msg(code == NULL, "seat %d %s refused: %s (%s)", seat, action_text, code, msg);
    json_decref(action);
}

static char *dump(const json_t *value)
{
    char *text = json_dumps(value, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    ck_assert_ptr_nonnull(text);
    return text;
}

/* A value's compact text (keys sorted) is exactly `want`. */
static void assert_text(const json_t *value, const char *want)
{
    char *text = dump(value);
    ck_assert_str_eq(text, want);
    free(text);
}

/* JSON equality with both texts in the failure message. */
static void assert_same_json(const json_t *a, const json_t *b, const char *what)
{
    if (json_equal((json_t *)a, (json_t *)b))
        return;
    char *ta = dump(a), *tb = dump(b);
    ck_abort_msg("%s differ:\n%s\n%s", what, ta, tb);
}

/* Everything anyone can see, for "a refused action changes nothing". */
static json_t *everything(const game_hand *hand)
{
    json_t *all = json_array();
    for (int seat = GAME_SPECTATOR; seat < GAME_SEATS; seat++)
        json_array_append_new(all, tj()->view(hand, seat));
    json_array_append_new(all, tj()->view_admin(hand));
    game_decision d[GAME_SEATS];
    int n = decisions(hand, d);
    json_t *owed = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(owed, json_pack("[i,i,i]", d[i].seat, (int)d[i].kind, d[i].seconds));
    json_array_append_new(all, owed);
    json_t *last = tj()->last_event(hand);
    json_array_append_new(all, last != NULL ? last : json_string("private"));
    return all;
}

/* Every code act may answer (PROTOCOL.md, "Tianjin's refusals", lists all but bad_request). */
static const char *const CODES[] = {"bad_request",   "hand_over",       "not_your_turn", "already_decided",
                                    "not_now",       "too_many_pulls",  "tile_not_in_hand", "no_such_kong",
                                    "cannot_claim",  "no_win",          "under_minimum",  "wild_discarded"};

static bool known_code(const char *code)
{
    for (size_t i = 0; i < sizeof CODES / sizeof CODES[0]; i++)
        if (strcmp(code, CODES[i]) == 0)
            return true;
    return false;
}

/* --- a random player and a log --- */

typedef struct played {
    int n;
    int seat[MAX_LOG];
    json_t *action[MAX_LOG];
} played;

static void played_free(played *p)
{
    for (int i = 0; i < p->n; i++)
        json_decref(p->action[i]);
    p->n = 0;
}

static uint64_t next_random(uint64_t *r)
{
    *r = *r * 6364136223846793005ull + 1442695040888963407ull;
    return *r >> 33;
}

/* One action of one deciding seat, chosen at random from its own legal list (the win, usually,
 * when it has one), made and logged. */
static void play_one(game_hand *hand, uint64_t *r, played *log)
{
    game_decision d[GAME_SEATS];
    int n = decisions(hand, d);
    ck_assert_int_gt(n, 0);
    int seat = d[next_random(r) % (uint64_t)n].seat;
    json_t *view = tj()->view(hand, seat);
    const json_t *actions = json_object_get(json_object_get(view, "legal"), "actions");
    size_t count = json_array_size(actions);
    ck_assert_uint_gt(count, 0);
    size_t pick = next_random(r) % count;
    if (json_object_get(json_array_get(actions, 0), "win") != NULL && next_random(r) % 4 != 0)
        pick = 0;
    json_t *action = json_incref(json_array_get(actions, pick));
    json_decref(view);
    char msg[GAME_MESSAGE_SIZE];
    const char *code = tj()->act(hand, seat, action, msg, sizeof msg);
    ck_assert_msg(code == NULL, "a listed action is refused: %s (%s)", code, msg);
    ck_assert_int_lt(log->n, MAX_LOG);
    log->seat[log->n] = seat;
    log->action[log->n++] = action;
}

/* A hand from seed played to its end; the options at random among the table's. */
static json_t *random_options(uint64_t *r)
{
    return parse_options(json_pack("{s:b, s:b, s:b, s:i, s:i, s:s, s:i}", "gua_da_feng", next_random(r) % 3 == 0,
                                   "chan", next_random(r) % 2, "wild_discard_penalty", next_random(r) % 2,
                                   "max_pulls", 1 + (int)(next_random(r) % 2), "gold_kong_fan",
                                   next_random(r) % 2 ? 8 : 4, "no_replacement",
                                   next_random(r) % 2 ? "draw" : "skip_indicator", "base",
                                   1 + (int)(next_random(r) % 3)));
}

/* --- walls written by hand --- */

/* A wall dealing these tiles: hands[s] is seat s's 13 (the banker's 14, its 14th last), then
 * `draws` from the front of the live wall, the indicator turned by `dice`, and every other tile in
 * kind order after the draws. */
static void make_wall(uint8_t wall[MJ_TILES], int banker, const char *const hands[GAME_SEATS], const char *draws,
                      const char *indicator, int dice)
{
    int left[MJ_KINDS];
    bool placed[MJ_TILES] = {false};
    for (int k = 0; k < MJ_KINDS; k++)
        left[k] = MJ_COPIES;
    for (int s = 0; s < GAME_SEATS; s++) {
        char copy[128];
        snprintf(copy, sizeof copy, "%s", hands[s]);
        int i = 0;
        for (char *save = NULL, *w = strtok_r(copy, " ", &save); w != NULL; w = strtok_r(NULL, " ", &save), i++) {
            int kind = mj_kind_parse(w), offset = (s - banker + GAME_SEATS) % GAME_SEATS;
            ck_assert_msg(kind >= 0 && --left[kind] >= 0, "tile %s of seat %d", w, s);
            int at = i < MJ_HAND_TILES ? i * GAME_SEATS + offset : MJ_HAND_TILES * GAME_SEATS;
            wall[at] = (uint8_t)kind;
            placed[at] = true;
        }
        ck_assert_int_eq(i, s == banker ? 14 : 13);
    }
    int at = MJ_HAND_TILES * GAME_SEATS + 1;
    char copy[256];
    snprintf(copy, sizeof copy, "%s", draws);
    for (char *save = NULL, *w = strtok_r(copy, " ", &save); w != NULL; w = strtok_r(NULL, " ", &save)) {
        int kind = mj_kind_parse(w);
        ck_assert_msg(kind >= 0 && --left[kind] >= 0, "draw %s", w);
        wall[at] = (uint8_t)kind;
        placed[at++] = true;
    }
    int kind = mj_kind_parse(indicator);
    ck_assert(kind >= 0 && --left[kind] >= 0);
    wall[MJ_TILES - 2 * dice] = (uint8_t)kind;
    placed[MJ_TILES - 2 * dice] = true;
    int k = 0;
    for (int i = 0; i < MJ_TILES; i++) {
        if (placed[i])
            continue;
        while (left[k] == 0)
            k++;
        wall[i] = (uint8_t)k;
        left[k]--;
    }
}

static game_hand *wall_hand(const json_t *options, const uint8_t wall[MJ_TILES], int dice, int banker)
{
    json_t *state = table_state(banker, 1, false);
    game_hand *hand = tianjin_hand_from_wall(options, wall, dice, state);
    ck_assert_ptr_nonnull(hand);
    json_decref(state);
    return hand;
}

/* ========================================================================================== */

START_TEST(test_tianjin_is_offered_by_name_after_tien_gow)
{
    ck_assert_ptr_eq(game_find("tianjin"), &game_tianjin);
    ck_assert_uint_eq(game_count(), 2);
    ck_assert_ptr_eq(game_at(1), &game_tianjin);
    ck_assert_ptr_eq(game_at(0), game_find("tiengow"));
}
END_TEST

START_TEST(test_options_default_every_rule_and_a_five_second_claim_window)
{
    json_t *options = parse_options(NULL);
    json_t *want = json_loads("{\"gua_da_feng\":false,\"wild_discard_penalty\":false,\"gold_kong_fan\":8,"
                              "\"chan\":false,\"must_sit\":false,\"max_pulls\":1,\"no_replacement\":\"draw\","
                              "\"base\":1,\"claim_seconds\":5}",
                              0, NULL);
    assert_same_json(options, want, "default options");
    json_t *again = parse_options(json_deep_copy(options));
    assert_same_json(options, again, "options parsed twice");
    json_decref(want);
    json_decref(again);
    json_decref(options);

    options = parse_options(json_pack("{s:b, s:i, s:i}", "gua_da_feng", 1, "claim_seconds", 30, "max_pulls", 2));
    ck_assert(json_is_true(json_object_get(options, "gua_da_feng")));
    ck_assert_int_eq(json_integer_value(json_object_get(options, "claim_seconds")), 30);
    ck_assert_int_eq(json_integer_value(json_object_get(options, "max_pulls")), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(options, "gold_kong_fan")), 8);
    json_decref(options);
}
END_TEST

START_TEST(test_options_outside_the_table_are_refused_with_a_sentence)
{
    static const char *const BAD[] = {
        "{\"claim_seconds\":1}",   "{\"claim_seconds\":31}",   "{\"claim_seconds\":\"5\"}", "{\"claim_seconds\":5.0}",
        "{\"gold_kong_fan\":2}",   "{\"max_pulls\":3}",        "{\"base\":0}",              "{\"chan\":1}",
        "{\"no_replacement\":\"x\"}", "{\"stake\":1}",         "[]",                        "{\"must_sit\":null}",
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        char msg[GAME_MESSAGE_SIZE] = "";
        json_t *given = json_loads(BAD[i], 0, NULL);
        ck_assert_msg(tj()->options_parse(given, msg, sizeof msg) == NULL, "%s accepted", BAD[i]);
        ck_assert_msg(strlen(msg) > 10, "no sentence for %s", BAD[i]);
        json_decref(given);
    }
    char msg[GAME_MESSAGE_SIZE];
    json_t *given = json_pack("{s:i}", "claim_seconds", 31);
    tj()->options_parse(given, msg, sizeof msg);
    ck_assert_ptr_nonnull(strstr(msg, "claim_seconds"));
    json_decref(given);
}
END_TEST

START_TEST(test_a_new_tables_first_banker_is_by_the_dice_and_hands_refuse_other_states)
{
    json_t *options = parse_options(NULL);
    int seen[GAME_SEATS] = {0};
    for (uint64_t seed = 0; seed < 200; seed++) {
        json_t *state = tj()->table_state_new(options, seed);
        json_int_t banker = json_integer_value(json_object_get(state, "banker"));
        ck_assert(banker >= 0 && banker < GAME_SEATS);
        seen[banker]++;
        ck_assert_int_eq(json_integer_value(json_object_get(state, "count")), 1);
        ck_assert(json_is_false(json_object_get(state, "must_sit")));
        game_hand *hand = tj()->hand_new(options, seed, state);
        ck_assert_ptr_nonnull(hand);
        tj()->hand_free(hand);
        json_decref(state);
    }
    for (int s = 0; s < GAME_SEATS; s++)
        ck_assert_int_gt(seen[s], 10);
    static const char *const BAD[] = {
        "{\"banker\":4,\"count\":1,\"must_sit\":false}",  "{\"banker\":0,\"count\":0,\"must_sit\":false}",
        "{\"banker\":0,\"count\":1}",                    "{\"banker\":0,\"count\":1,\"must_sit\":0}",
        "{\"banker\":0,\"count\":1,\"must_sit\":false,\"multiplier\":2}", "{\"banker\":1,\"multiplier\":2}",
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        json_t *state = json_loads(BAD[i], 0, NULL);
        ck_assert_msg(tj()->hand_new(options, 1, state) == NULL, "%s accepted", BAD[i]);
        json_decref(state);
    }
    json_decref(options);
}
END_TEST

START_TEST(test_the_banker_decides_to_sit_before_any_tile_is_shown)
{
    json_t *options = parse_options(NULL);
    game_hand *hand = new_hand(options, 7, 2, 1, false);
    game_decision d[GAME_SEATS];
    ck_assert_int_eq(decisions(hand, d), 1);
    ck_assert_int_eq(d[0].seat, 2);
    ck_assert_int_eq(d[0].kind, GAME_DECISION_PRE_HAND);
    ck_assert(json_is_null(tj()->last_event(hand)));
    for (int seat = GAME_SPECTATOR; seat < GAME_SEATS; seat++) {
        json_t *view = tj()->view(hand, seat);
        ck_assert_str_eq(json_string_value(json_object_get(view, "phase")), "sit");
        ck_assert(json_is_null(json_object_get(view, "hand")));
        ck_assert(json_is_null(json_object_get(view, "indicator")));
        ck_assert(json_is_null(json_object_get(view, "held")));
        json_decref(view);
    }
    ck_assert_str_eq(act(hand, 0, "{\"sit\":true}"), "not_your_turn");
    ck_assert_str_eq(act(hand, 2, "{\"pull\":1}"), "not_now");
    ck_assert_str_eq(act(hand, 2, "{\"sit\":1}"), "bad_request");
    json_t *timeout = tj()->timeout_action(hand, 2), *bot = tj()->bot_action(hand, 2);
    assert_text(timeout, "{\"sit\":false}");
    assert_text(bot, "{\"sit\":false}");
    json_decref(timeout);
    json_decref(bot);

    act_ok(hand, 2, "{\"sit\":false}");
    json_t *event = tj()->last_event(hand);
    assert_text(event, "{\"seat\":2,\"sit\":false}");
    json_decref(event);
    ck_assert_int_eq(decisions(hand, d), 1); /* no pulls against a banker who does not sit: the deal */
    ck_assert_int_eq(d[0].kind, GAME_DECISION_TURN);
    ck_assert_int_eq(d[0].seat, 2);
    json_t *view = tj()->view(hand, 2);
    ck_assert_uint_eq(json_array_size(json_object_get(view, "hand")), 14);
    assert_text(json_object_get(view, "pulls"), "[0,0,0,0]");
    ck_assert(json_is_false(json_object_get(view, "sat")));
    json_decref(view);
    tj()->hand_free(hand);
    json_decref(options);
}
END_TEST

START_TEST(test_pulls_are_private_until_the_third_then_shown_and_the_tiles_dealt)
{
    json_t *options = parse_options(json_pack("{s:i}", "max_pulls", 2));
    game_hand *hand = new_hand(options, 11, 1, 1, false);
    act_ok(hand, 1, "{\"sit\":true}");
    json_t *event = tj()->last_event(hand);
    assert_text(event, "{\"seat\":1,\"sit\":true}");
    json_decref(event);
    game_decision d[GAME_SEATS];
    ck_assert_int_eq(decisions(hand, d), 3);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_ne(d[i].seat, 1);
        ck_assert_int_eq(d[i].kind, GAME_DECISION_PRE_HAND);
    }
    ck_assert_str_eq(act(hand, 1, "{\"pull\":0}"), "not_your_turn");
    ck_assert_str_eq(act(hand, 0, "{\"pull\":3}"), "bad_request");

    json_t *before[GAME_SEATS + 1];
    for (int s = GAME_SPECTATOR; s < GAME_SEATS; s++)
        before[s + 1] = tj()->view(hand, s);
    act_ok(hand, 3, "{\"pull\":2}");
    ck_assert_ptr_null(tj()->last_event(hand));
    for (int s = GAME_SPECTATOR; s < GAME_SEATS; s++) {
        json_t *now = tj()->view(hand, s);
        if (s == 3) {
            ck_assert_int_eq(json_integer_value(json_object_get(now, "pull")), 2);
            ck_assert(json_is_null(json_object_get(now, "legal")));
        } else {
            assert_same_json(before[s + 1], now, "another seat's view after a private pull");
        }
        json_decref(now);
        json_decref(before[s + 1]);
    }
    ck_assert_str_eq(act(hand, 3, "{\"pull\":1}"), "already_decided");
    ck_assert_int_eq(decisions(hand, d), 2);
    act_ok(hand, 0, "{\"pull\":0}");
    ck_assert_ptr_null(tj()->last_event(hand));
    act_ok(hand, 2, "{\"pull\":1}");
    event = tj()->last_event(hand);
    assert_text(event, "{\"pulls\":[0,0,1,2]}");
    json_decref(event);
    ck_assert_int_eq(tianjin_hand_engine(hand)->pulls[3], 2);
    ck_assert(tianjin_hand_engine(hand)->sat);
    ck_assert_int_eq(decisions(hand, d), 1);
    ck_assert_int_eq(d[0].kind, GAME_DECISION_TURN);
    tj()->hand_free(hand);
    json_decref(options);
}
END_TEST

START_TEST(test_a_pull_above_the_tables_max_is_refused_and_changes_nothing)
{
    json_t *options = parse_options(NULL);
    game_hand *hand = new_hand(options, 12, 0, 1, false);
    act_ok(hand, 0, "{\"sit\":true}");
    json_t *seen = everything(hand);
    ck_assert_str_eq(act(hand, 1, "{\"pull\":2}"), "too_many_pulls");
    json_t *now = everything(hand);
    assert_same_json(seen, now, "the hand after a refused pull");
    json_decref(seen);
    json_decref(now);
    tj()->hand_free(hand);
    json_decref(options);
}
END_TEST

START_TEST(test_must_sit_skips_the_bankers_decision_by_option_or_by_table_state)
{
    json_t *options = parse_options(json_pack("{s:b}", "must_sit", 1));
    game_decision d[GAME_SEATS];
    game_hand *hand = new_hand(options, 3, 0, 1, false);
    ck_assert_int_eq(decisions(hand, d), 3);
    json_t *view = tj()->view(hand, 1);
    ck_assert_str_eq(json_string_value(json_object_get(view, "phase")), "pull");
    ck_assert(json_is_true(json_object_get(view, "sat")));
    json_decref(view);
    tj()->hand_free(hand);
    json_decref(options);

    options = parse_options(NULL);
    hand = new_hand(options, 3, 0, 4, true);
    ck_assert_int_eq(decisions(hand, d), 3);
    ck_assert_int_eq(d[0].seat, 1);
    ck_assert_str_eq(act(hand, 0, "{\"sit\":false}"), "not_your_turn");
    tj()->hand_free(hand);
    json_decref(options);
}
END_TEST

/* The pre-hand made by the defaults (no sitting, no pulls) for a hand dealt from seed. */
static game_hand *dealt_hand(const json_t *options, uint64_t seed, int banker)
{
    game_hand *hand = new_hand(options, seed, banker, 1, false);
    act_ok(hand, banker, "{\"sit\":false}");
    return hand;
}

START_TEST(test_every_discard_asks_all_three_other_seats_for_the_same_time)
{
    json_t *options = parse_options(json_pack("{s:i}", "claim_seconds", 7));
    int windows = 0, with_claimer = 0;
    uint64_t r = 99;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        game_hand *hand = dealt_hand(options, seed, (int)(seed % 4));
        played log = {0};
        while (!tj()->is_over(hand)) {
            const mj_hand *h = tianjin_hand_engine(hand);
            game_decision d[GAME_SEATS];
            int n = decisions(hand, d);
            bool window = h->phase == MJ_PHASE_CLAIM || h->phase == MJ_PHASE_WINDOW;
            if (window && n == 3) {
                windows++;
                with_claimer += h->phase == MJ_PHASE_CLAIM;
                for (int i = 0; i < 3; i++) {
                    ck_assert_int_ne(d[i].seat, h->turn);
                    ck_assert_int_eq(d[i].kind, GAME_DECISION_CLAIM);
                    ck_assert_int_eq(d[i].seconds, 7);
                }
            } else if (!window) {
                ck_assert_int_eq(n, 1);
                ck_assert_int_eq(d[0].kind, GAME_DECISION_TURN);
                ck_assert_int_eq(d[0].seconds, 0);
            }
            play_one(hand, &r, &log);
        }
        played_free(&log);
        tj()->hand_free(hand);
    }
    ck_assert_int_gt(windows, 200);
    ck_assert_int_gt(with_claimer, 5);
    ck_assert_int_lt(with_claimer, windows / 2);
    json_decref(options);
}
END_TEST

/*
 * Seat 0 (banker) discards 9s. In wall A seat 2 holds two 9s and may pung; wall B is A with those
 * two 9s swapped with two tiles deep in the live wall, so nobody can claim. Every other seat, the
 * spectator and every event must not tell A from B.
 */
static const char *const WINDOW_HANDS[GAME_SEATS] = {
    "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p N 9s",
    "1s 2s 3s 4s 5s 6s 7s 8s 1p 4p 5p 6p W",
    "9s 9s 2m 3m 4m 7p 8p 9p 2s 3s C C F",
    "5s 6s 7s 3p 4p 6m 7m 8m 2p 2p P P F",
};

static void window_walls(uint8_t a[MJ_TILES], uint8_t b[MJ_TILES])
{
    make_wall(a, 0, WINDOW_HANDS, "1s 4s 6s", "E", 5);
    memcpy(b, a, MJ_TILES);
    /* seat 2 is the third seat dealt from the banker: its first two tiles are wall[2] and wall[6] */
    ck_assert_int_eq(a[2], mj_kind_parse("9s"));
    ck_assert_int_eq(a[6], mj_kind_parse("9s"));
    ck_assert(a[100] != mj_kind_parse("9s") && a[101] != mj_kind_parse("9s"));
    b[2] = a[100];
    b[6] = a[101];
    b[100] = a[2];
    b[101] = a[6];
}

/* Every seat's view but `except`'s, the spectator's, and the decisions, as one value. */
static json_t *what_others_see(const game_hand *hand, int except)
{
    json_t *all = json_array();
    for (int seat = GAME_SPECTATOR; seat < GAME_SEATS; seat++)
        json_array_append_new(all, seat == except ? json_null() : tj()->view(hand, seat));
    game_decision d[GAME_SEATS];
    int n = decisions(hand, d);
    for (int i = 0; i < n; i++)
        json_array_append_new(all, json_pack("[i,i,i]", d[i].seat, (int)d[i].kind, d[i].seconds));
    return all;
}

static json_t *event_or_private(const game_hand *hand)
{
    json_t *event = tj()->last_event(hand);
    return event != NULL ? event : json_string("private");
}

/* Both hands take the same action; everything but seat 2's own view stays the same. */
static void both_act(game_hand *a, game_hand *b, int seat, const char *action)
{
    act_ok(a, seat, action);
    act_ok(b, seat, action);
    json_t *ea = event_or_private(a), *eb = event_or_private(b);
    assert_same_json(ea, eb, "the events");
    json_decref(ea);
    json_decref(eb);
    json_t *sa = what_others_see(a, 2), *sb = what_others_see(b, 2);
    assert_same_json(sa, sb, "what the other seats see");
    json_decref(sa);
    json_decref(sb);
}

START_TEST(test_a_window_looks_the_same_whether_or_not_anyone_can_claim)
{
    json_t *options = parse_options(NULL);
    uint8_t wall_a[MJ_TILES], wall_b[MJ_TILES];
    window_walls(wall_a, wall_b);
    game_hand *a = wall_hand(options, wall_a, 5, 0), *b = wall_hand(options, wall_b, 5, 0);
    both_act(a, b, 0, "{\"sit\":false}");
    both_act(a, b, 0, "{\"discard\":\"9s\"}");
    ck_assert_int_eq(tianjin_hand_engine(a)->phase, MJ_PHASE_CLAIM);
    ck_assert_int_eq(tianjin_hand_engine(b)->phase, MJ_PHASE_WINDOW);

    /* seat 2's own view differs only in its tiles and its legal list */
    json_t *va = tj()->view(a, 2), *vb = tj()->view(b, 2);
    assert_text(json_object_get(va, "legal"),
                     "{\"actions\":[{\"pass\":true},{\"pung\":true}],\"kind\":\"claim\"}");
    assert_text(json_object_get(vb, "legal"), "{\"actions\":[{\"pass\":true}],\"kind\":\"claim\"}");
    json_object_del(va, "hand");
    json_object_del(vb, "hand");
    json_object_del(va, "legal");
    json_object_del(vb, "legal");
    assert_same_json(va, vb, "seat 2's view apart from its tiles and legal list");
    json_decref(va);
    json_decref(vb);
    /* a seat that cannot claim sees the pass alone, in both hands */
    json_t *v1 = tj()->view(a, 1);
    assert_text(json_object_get(v1, "legal"), "{\"actions\":[{\"pass\":true}],\"kind\":\"claim\"}");
    json_decref(v1);

    /* a refused claim by another seat reads the same in both */
    char msg_a[GAME_MESSAGE_SIZE], msg_b[GAME_MESSAGE_SIZE];
    json_t *pung = json_pack("{s:b}", "pung", 1);
    const char *code_a = tj()->act(a, 3, pung, msg_a, sizeof msg_a);
    const char *code_b = tj()->act(b, 3, pung, msg_b, sizeof msg_b);
    ck_assert_str_eq(code_a, "cannot_claim");
    ck_assert_str_eq(code_b, "cannot_claim");
    ck_assert_str_eq(msg_a, msg_b);
    json_decref(pung);

    /* the bots of the seats that cannot claim wait for the window's end, in both hands (seat 2 of
     * hand a, the one that can, may claim: that shows only when it does, as a public claim) */
    for (int s = 1; s < GAME_SEATS; s++) {
        if (s != 2)
            ck_assert_ptr_null(tj()->bot_action(a, s));
        ck_assert_ptr_null(tj()->bot_action(b, s));
        json_t *timeout = tj()->timeout_action(a, s);
        assert_text(timeout, "{\"pass\":true}");
        json_decref(timeout);
    }

    both_act(a, b, 3, "{\"pass\":true}");
    ck_assert_ptr_null(tj()->last_event(a));
    both_act(a, b, 1, "{\"pass\":true}");
    ck_assert(decides(a, 2) && !decides(a, 1) && !decides(a, 3));
    ck_assert_str_eq(act(a, 1, "{\"pass\":true}"), "already_decided");
    both_act(a, b, 2, "{\"pass\":true}");
    json_t *closed = tj()->last_event(a);
    assert_text(closed, "{\"no_claim\":\"9s\"}");
    json_decref(closed);
    ck_assert_int_eq(tianjin_hand_engine(a)->turn, 1);
    ck_assert_int_eq(tianjin_hand_engine(a)->drawn, mj_kind_parse("1s"));
    tj()->hand_free(a);
    tj()->hand_free(b);
    json_decref(options);
}
END_TEST

START_TEST(test_a_claim_closes_the_window_at_once_after_private_passes)
{
    json_t *options = parse_options(NULL);
    uint8_t wall_a[MJ_TILES], wall_b[MJ_TILES];
    window_walls(wall_a, wall_b);
    game_hand *hand = wall_hand(options, wall_a, 5, 0);
    act_ok(hand, 0, "{\"sit\":false}");
    ck_assert_str_eq(act(hand, 0, "{\"discard\":\"E\"}"), "tile_not_in_hand");
    act_ok(hand, 0, "{\"discard\":\"9s\"}");
    json_t *event = tj()->last_event(hand);
    assert_text(event, "{\"discard\":\"9s\",\"seat\":0}");
    json_decref(event);
    ck_assert_str_eq(act(hand, 0, "{\"discard\":\"N\"}"), "not_your_turn");
    ck_assert_str_eq(act(hand, 1, "{\"discard\":\"1s\"}"), "not_now");
    act_ok(hand, 1, "{\"pass\":true}");
    ck_assert_ptr_null(tj()->last_event(hand));
    json_t *own = tj()->view(hand, 1);
    ck_assert(json_is_true(json_object_get(own, "passed")));
    ck_assert(json_is_null(json_object_get(own, "legal")));
    json_decref(own);
    ck_assert_str_eq(act(hand, 2, "{\"kong\":true}"), "cannot_claim"); /* two 9s: a pung, not a kong */
    act_ok(hand, 2, "{\"pung\":true}");
    event = tj()->last_event(hand);
    assert_text(event, "{\"pung\":\"9s\",\"seat\":2}");
    json_decref(event);
    game_decision d[GAME_SEATS];
    ck_assert_int_eq(decisions(hand, d), 1);
    ck_assert_int_eq(d[0].seat, 2);
    ck_assert_int_eq(d[0].kind, GAME_DECISION_TURN);
    json_t *view = tj()->view(hand, 0);
    assert_text(json_object_get(view, "melds"),
                     "[[],[],[{\"kind\":\"pung\",\"tiles\":[\"9s\",\"9s\",\"9s\"]}],[]]");
    assert_text(json_object_get(view, "discards"), "[[],[],[],[]]");
    ck_assert(json_is_false(json_object_get(view, "passed")));
    json_decref(view);
    /* after a pung the seat discards; it may not win */
    view = tj()->view(hand, 2);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(json_object_get(view, "legal"), "win_refused"),
                                                       "code")),
                     "not_now");
    json_decref(view);
    ck_assert_str_eq(act(hand, 2, "{\"win\":true}"), "not_now");
    tj()->hand_free(hand);
    json_decref(options);
}
END_TEST

START_TEST(test_a_win_under_the_minimum_is_refused_with_its_reason)
{
    /* 刮大风: no 天胡; the banker's dealt 14 read 1-2-3m 2-3-4m 4-5-6p 7-8-9s and 9p with the wild E,
     * which is no fan at all */
    static const char *const HANDS[GAME_SEATS] = {
        "1m 2m 3m 2m 3m 4m 4p 5p 6p 7s 8s 9s 9p E",
        "1s 2s 3s 4s 5s 6s 1p 1p 2p 3p C C F",
        "5m 6m 7m 8m 9m 7p 8p 2s 3s F F P P",
        "1m 5m 6m 7m 8m 9m 1p 2p 3p 4p 5p 6p C",
    };
    json_t *options = parse_options(json_pack("{s:b}", "gua_da_feng", 1));
    uint8_t wall[MJ_TILES];
    make_wall(wall, 0, HANDS, "", "N", 6);
    game_hand *hand = wall_hand(options, wall, 6, 0);
    act_ok(hand, 0, "{\"sit\":false}");
    json_t *view = tj()->view(hand, 0);
    const json_t *legal = json_object_get(view, "legal");
    ck_assert_str_eq(json_string_value(json_object_get(legal, "kind")), "turn");
    ck_assert_ptr_null(json_object_get(json_array_get(json_object_get(legal, "actions"), 0), "win"));
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(legal, "win_refused"), "code")),
                     "under_minimum");
    json_decref(view);
    char msg[GAME_MESSAGE_SIZE];
    json_t *win = json_pack("{s:b}", "win", 1);
    json_t *seen = everything(hand);
    ck_assert_str_eq(tj()->act(hand, 0, win, msg, sizeof msg), "under_minimum");
    ck_assert_ptr_nonnull(strstr(msg, "under the minimum"));
    json_t *now = everything(hand);
    assert_same_json(seen, now, "the hand after a refused win");
    json_decref(seen);
    json_decref(now);
    json_decref(win);
    tj()->hand_free(hand);
    json_decref(options);
}
END_TEST

START_TEST(test_a_seat_that_discarded_a_wild_is_told_so_when_it_would_win)
{
    /* Indicator E: wilds E and S. The banker discards S, then N; its third draw, 9p, makes 1-2-3m
     * 2-3-4m 4-5-6p 7-8-9s 9p 9p: 素, but it discarded a wild. The others discard what they draw. */
    static const char *const HANDS[GAME_SEATS] = {
        "1m 2m 3m 2m 3m 4p 5p 6p 7s 8s 9s 9p N S",
        "1s 2s 3s 4s 5s 6s 1p 1p 2p 3p C C F",
        "5m 6m 7m 8m 9m 7p 8p 2s 3s F F P P",
        "1m 5m 6m 7m 8m 9m 1p 2p 3p 4p 5p 6p C",
    };
    json_t *options = parse_options(json_pack("{s:b}", "wild_discard_penalty", 1));
    uint8_t wall[MJ_TILES];
    make_wall(wall, 0, HANDS, "W 8p 3p 4m W 6s 4s 9p", "E", 4);
    game_hand *hand = wall_hand(options, wall, 4, 0);
    act_ok(hand, 0, "{\"sit\":false}");
    const char *const SCRIPT[][2] = {
        {"0", "{\"discard\":\"S\"}"}, {"1", "{\"pass\":true}"}, {"2", "{\"pass\":true}"}, {"3", "{\"pass\":true}"},
        {"1", "{\"discard\":\"W\"}"}, {"2", "{\"pass\":true}"}, {"3", "{\"pass\":true}"}, {"0", "{\"pass\":true}"},
        {"2", "{\"discard\":\"8p\"}"}, {"3", "{\"pass\":true}"}, {"0", "{\"pass\":true}"}, {"1", "{\"pass\":true}"},
        {"3", "{\"discard\":\"3p\"}"}, {"0", "{\"pass\":true}"}, {"1", "{\"pass\":true}"}, {"2", "{\"pass\":true}"},
        {"0", "{\"discard\":\"N\"}"}, {"1", "{\"pass\":true}"}, {"2", "{\"pass\":true}"}, {"3", "{\"pass\":true}"},
        {"1", "{\"discard\":\"W\"}"}, {"2", "{\"pass\":true}"}, {"3", "{\"pass\":true}"}, {"0", "{\"pass\":true}"},
        {"2", "{\"discard\":\"6s\"}"}, {"3", "{\"pass\":true}"}, {"0", "{\"pass\":true}"}, {"1", "{\"pass\":true}"},
        {"3", "{\"discard\":\"4s\"}"}, {"0", "{\"pass\":true}"}, {"1", "{\"pass\":true}"}, {"2", "{\"pass\":true}"},
    };
    for (size_t i = 0; i < sizeof SCRIPT / sizeof SCRIPT[0]; i++)
        act_ok(hand, SCRIPT[i][0][0] - '0', SCRIPT[i][1]);
    ck_assert_int_eq(tianjin_hand_engine(hand)->turn, 0);
    ck_assert_int_eq(tianjin_hand_engine(hand)->drawn, mj_kind_parse("9p"));
    json_t *view = tj()->view(hand, 0);
    const json_t *refused = json_object_get(json_object_get(view, "legal"), "win_refused");
    ck_assert_str_eq(json_string_value(json_object_get(refused, "code")), "wild_discarded");
    ck_assert_str_eq(json_string_value(json_object_get(refused, "message")),
                     "You discarded a wild this hand, so you may not win it.");
    assert_text(json_object_get(view, "wild_discards"), "[0]");
    json_decref(view);
    ck_assert_str_eq(act(hand, 0, "{\"win\":true}"), "wild_discarded");
    tj()->hand_free(hand);
    json_decref(options);
}
END_TEST

/* --- whole hands --- */

/* Every tile name in a JSON value, counted by kind. */
static void count_tiles(const json_t *value, int count[MJ_KINDS])
{
    if (json_is_string(value)) {
        int k = mj_kind_parse(json_string_value(value));
        if (k >= 0)
            count[k]++;
    } else if (json_is_array(value)) {
        size_t i;
        json_t *item;
        json_array_foreach (value, i, item)
            count_tiles(item, count);
    } else if (json_is_object(value)) {
        const char *key;
        json_t *item;
        json_object_foreach ((json_t *)value, key, item)
            count_tiles(item, count);
    }
}

static const char *const OWN_KEYS[] = {"seat", "hand", "drawn", "pull", "passed", "legal"};

/*
 * What each seat sees is the shared view (the same for every seat and the spectator) and its own
 * part: its tiles exactly as the admin has them, its drawn tile among them, and actions naming only
 * its own tiles. The shared view names no tile beyond the melds, discards, indicator and wilds
 * (and the result's winning hand once the hand is over).
 */
static void check_views(const game_hand *hand)
{
    json_t *admin = tj()->view_admin(hand), *shared = tj()->view_shared(hand);
    bool over = tj()->is_over(hand);
    for (int seat = GAME_SPECTATOR; seat < GAME_SEATS; seat++) {
        json_t *view = tj()->view(hand, seat), *own = tj()->view_own(hand, seat);
        ck_assert_uint_eq(json_object_size(own), sizeof OWN_KEYS / sizeof OWN_KEYS[0]);
        for (size_t k = 0; k < sizeof OWN_KEYS / sizeof OWN_KEYS[0]; k++)
            ck_assert_ptr_nonnull(json_object_get(own, OWN_KEYS[k]));
        json_t *rest = json_deep_copy(view);
        for (size_t k = 0; k < sizeof OWN_KEYS / sizeof OWN_KEYS[0]; k++)
            json_object_del(rest, OWN_KEYS[k]);
        assert_same_json(rest, shared, "a view without its own part and the shared view");
        json_decref(rest);
        const json_t *tiles = json_object_get(view, "hand");
        if (seat == GAME_SPECTATOR || json_is_null(json_object_get(shared, "held"))) {
            ck_assert(json_is_null(tiles));
        } else {
            ck_assert(json_equal(tiles, json_array_get(json_object_get(admin, "hands"), (size_t)seat)));
            int mine[MJ_KINDS] = {0}, named[MJ_KINDS] = {0};
            count_tiles(tiles, mine);
            count_tiles(json_object_get(own, "drawn"), named);
            count_tiles(json_object_get(json_object_get(own, "legal"), "actions"), named);
            for (int k = 0; k < MJ_KINDS; k++)
                ck_assert_msg(named[k] == 0 || mine[k] > 0 || json_is_true(json_object_get(view, "over")),
                              "seat %d's own part names %s, which it does not hold", seat, mj_kind_name(k));
        }
        json_decref(view);
        json_decref(own);
    }
    if (!json_is_null(json_object_get(shared, "held")) && !over) {
        int visible[MJ_KINDS] = {0}, public_tiles[MJ_KINDS] = {0};
        json_t *table = json_pack("[O,O,O]", json_object_get(shared, "melds"), json_object_get(shared, "discards"),
                                  json_object_get(shared, "discard"));
        count_tiles(shared, visible);
        count_tiles(table, public_tiles);
        count_tiles(json_object_get(shared, "indicator"), public_tiles);
        count_tiles(json_object_get(shared, "wilds"), public_tiles);
        for (int k = 0; k < MJ_KINDS; k++)
            ck_assert_msg(visible[k] == public_tiles[k], "the shared view names %s %d times, the table %d",
                          mj_kind_name(k), visible[k], public_tiles[k]);
        json_decref(table);
    }
    json_decref(admin);
    json_decref(shared);
}

/* Every tile is in a hand, a meld, a discard row, the live wall, the replacements or the indicator. */
static void check_tiles_kept(const game_hand *hand)
{
    json_t *admin = tj()->view_admin(hand);
    json_t *all = json_pack("[O,O,O,O,O,O]", json_object_get(admin, "hands"), json_object_get(admin, "melds"),
                            json_object_get(admin, "discards"), json_object_get(admin, "live_wall"),
                            json_object_get(admin, "replacement_wall"), json_object_get(admin, "indicator"));
    int count[MJ_KINDS] = {0};
    count_tiles(all, count);
    for (int k = 0; k < MJ_KINDS; k++)
        ck_assert_msg(count[k] == MJ_COPIES, "%s is counted %d times", mj_kind_name(k), count[k]);
    json_decref(all);
    json_decref(admin);
}

static void check_result(const game_hand *hand)
{
    game_result result;
    tj()->result(hand, &result);
    const mj_hand *h = tianjin_hand_engine(hand);
    ck_assert_int_eq(result.winner, h->winner);
    int64_t net[GAME_SEATS] = {0}, sum = 0;
    int settle_lines = 0;
    for (int i = 0; i < result.n_lines; i++) {
        const game_ledger_line *line = &result.lines[i];
        net[line->seat] += line->units;
        settle_lines += strcmp(line->reason, "settle") == 0;
        int64_t reason_sum = 0;
        for (int j = 0; j < result.n_lines; j++)
            if (strcmp(result.lines[j].reason, line->reason) == 0)
                reason_sum += result.lines[j].units;
        ck_assert_msg(reason_sum == 0, "the lines of %s sum to %lld", line->reason, (long long)reason_sum);
    }
    ck_assert_int_eq(settle_lines, GAME_SEATS);
    for (int s = 0; s < GAME_SEATS; s++) {
        ck_assert_int_eq(net[s], result.net[s]);
        ck_assert_int_eq(result.net[s], h->settlement.net[s]);
        sum += result.net[s];
    }
    ck_assert_int_eq(sum, 0);

    json_t *record = tj()->result_json(hand), *next = tj()->next_table_state(hand);
    ck_assert_int_eq(json_integer_value(json_object_get(next, "banker")), h->settlement.next_banker);
    ck_assert_int_eq(json_is_true(json_object_get(next, "must_sit")), h->settlement.next_must_sit);
    ck_assert(json_equal(json_object_get(record, "next_count"), json_object_get(next, "count")));
    if (h->winner >= 0) {
        const json_t *win = json_object_get(record, "win");
        ck_assert_int_eq(json_integer_value(json_object_get(win, "fan")), h->score.fan);
        ck_assert_uint_eq(json_array_size(json_object_get(win, "reading")), 5);
        ck_assert_uint_ge(json_array_size(json_object_get(win, "fans")), 1);
    }
    char msg[GAME_MESSAGE_SIZE];
    json_t *options = tj()->options_parse(NULL, msg, sizeof msg);
    game_hand *following = tj()->hand_new(options, 5, next);
    ck_assert_ptr_nonnull(following);
    tj()->hand_free(following);
    json_decref(options);
    json_decref(record);
    json_decref(next);
}

START_TEST(test_random_hands_hide_other_seats_tiles_keep_every_tile_and_settle_by_reason)
{
    uint64_t r = 0x7469616e6a696eull + (uint64_t)_i;
    int wins = 0, kongs = 0, claims = 0, sat = 0, reasons_beyond_settle = 0;
    for (int game = 0; game < 40; game++) {
        json_t *options = random_options(&r);
        game_hand *hand = new_hand(options, next_random(&r), game % 4, 1, false);
        played log = {0};
        check_views(hand);
        while (!tj()->is_over(hand)) {
            play_one(hand, &r, &log);
            check_views(hand);
            if (tianjin_hand_engine(hand)->phase != MJ_PHASE_OVER)
                check_tiles_kept(hand);
        }
        const mj_hand *h = tianjin_hand_engine(hand);
        wins += h->winner >= 0;
        kongs += h->n_kongs;
        sat += h->sat;
        for (int s = 0; s < GAME_SEATS; s++)
            claims += h->n_melds[s];
        check_result(hand);
        game_result result;
        tj()->result(hand, &result);
        reasons_beyond_settle += result.n_lines > GAME_SEATS;
        played_free(&log);
        tj()->hand_free(hand);
        json_decref(options);
    }
    ck_assert_int_gt(wins, 0);
    ck_assert_int_gt(kongs, 0);
    ck_assert_int_gt(claims, 0);
    ck_assert_int_gt(sat, 0);
    ck_assert_int_gt(reasons_beyond_settle, 0);
}
END_TEST

START_TEST(test_refused_actions_change_nothing_anyone_can_see)
{
    static const char *const HOSTILE[] = {
        "{\"discard\":\"5m\"}", "{\"discard\":\"E\"}",     "{\"win\":true}",  "{\"pung\":true}",
        "{\"kong\":true}",      "{\"pass\":true}",         "{\"sit\":true}",  "{\"pull\":1}",
        "{\"concealed_kong\":\"1m\"}", "{\"added_kong\":\"9p\"}", "{\"win\":false}", "{}",
        "{\"discard\":\"5m\",\"win\":true}", "[]", "{\"discard\":\"10m\"}", "{\"pull\":2}",
    };
    uint64_t r = 4242;
    int refused = 0;
    for (int game = 0; game < 4; game++) {
        json_t *options = random_options(&r);
        game_hand *hand = new_hand(options, next_random(&r), game % 4, 1, false);
        played log = {0};
        while (!tj()->is_over(hand)) {
            json_t *seen = everything(hand);
            for (int i = 0; i < 3; i++) {
                int seat = (int)(next_random(&r) % 6) - 1;
                const char *text = HOSTILE[next_random(&r) % (sizeof HOSTILE / sizeof HOSTILE[0])];
                game_hand *copy = tj()->hand_copy(hand);
                const char *code = act(copy, seat, text);
                if (code != NULL) {
                    ck_assert_msg(known_code(code), "act answered the undocumented code %s", code);
                    json_t *now = everything(copy);
                    assert_same_json(seen, now, "the hand after a refused action");
                    json_decref(now);
                    refused++;
                }
                tj()->hand_free(copy);
            }
            json_decref(seen);
            play_one(hand, &r, &log);
        }
        ck_assert_str_eq(act(hand, 0, "{\"pass\":true}"), "hand_over");
        played_free(&log);
        tj()->hand_free(hand);
        json_decref(options);
    }
    ck_assert_int_gt(refused, 300);
}
END_TEST

typedef struct recording {
    json_t *steps; /* per action: [admin view, last event] */
    size_t checked;
} recording;

static json_t *step_record(const game_hand *hand)
{
    json_t *last = tj()->last_event(hand);
    return json_pack("[o, o, o]", tj()->view_admin(hand), last != NULL ? last : json_string("private"),
                     tj()->result_json(hand));
}

static bool check_step(void *ctx, const game_hand *hand, size_t index)
{
    recording *rec = ctx;
    if (index == SIZE_MAX)
        return true;
    json_t *now = step_record(hand);
    char *a = dump(now), *b = dump(json_array_get(rec->steps, index));
    ck_assert_msg(strcmp(a, b) == 0, "step %zu differs on replay", index);
    free(a);
    free(b);
    json_decref(now);
    rec->checked++;
    return true;
}

START_TEST(test_a_replay_rebuilds_every_step_bit_for_bit)
{
    uint64_t r = 777;
    for (int game = 0; game < 8; game++) {
        json_t *options = random_options(&r);
        uint64_t seed = next_random(&r) * 0x9e3779b97f4a7c15ull;
        json_t *state = table_state(game % 4, 1 + game, game % 3 == 0);
        game_hand *hand = tj()->hand_new(options, seed, state);
        played log = {0};
        recording rec = {.steps = json_array()};
        while (!tj()->is_over(hand)) {
            play_one(hand, &r, &log);
            json_array_append_new(rec.steps, step_record(hand));
        }
        game_logged_action actions[MAX_LOG];
        for (int i = 0; i < log.n; i++)
            actions[i] = (game_logged_action){.seat = log.seat[i], .action = log.action[i]};
        game_replay_error err;
        game_hand *again = game_replay(tj(), options, seed, state, actions, (size_t)log.n, check_step, &rec, &err);
        ck_assert_msg(again != NULL, "replayed action %zu refused: %s", err.index, err.message);
        ck_assert_uint_eq(rec.checked, (size_t)log.n);
        json_t *va = tj()->view_admin(hand), *vb = tj()->view_admin(again);
        char *a = dump(va), *b = dump(vb);
        ck_assert_str_eq(a, b);
        free(a);
        free(b);
        json_decref(va);
        json_decref(vb);
        tj()->hand_free(again);
        json_decref(rec.steps);
        played_free(&log);
        tj()->hand_free(hand);
        json_decref(state);
        json_decref(options);
    }
}
END_TEST

START_TEST(test_a_copy_goes_its_own_way)
{
    json_t *options = parse_options(NULL);
    game_hand *hand = dealt_hand(options, 21, 0);
    game_hand *copy = tj()->hand_copy(hand);
    json_t *before = tj()->view_admin(hand);
    json_t *view = tj()->view(copy, 0);
    const json_t *discard = json_array_get(json_object_get(json_object_get(view, "legal"), "actions"), 0);
    char msg[GAME_MESSAGE_SIZE];
    ck_assert_ptr_null(tj()->act(copy, 0, discard, msg, sizeof msg));
    json_t *after = tj()->view_admin(hand);
    assert_same_json(before, after, "the original after its copy acted");
    json_decref(view);
    json_decref(before);
    json_decref(after);
    tj()->hand_free(copy);
    tj()->hand_free(hand);
    json_decref(options);
}
END_TEST

START_TEST(test_the_bank_stays_with_a_winning_banker_who_then_must_sit_again)
{
    /* the banker's dealt 14 win as 素天胡: 1-2-3m 4-5-6m 1-2-3p 7-8-9s 9p 9p */
    static const char *const HANDS[GAME_SEATS] = {
        "1s 2s 3s 4s 5s 6s 1p 1p 2p 3p C C F",
        "1m 2m 3m 4m 5m 6m 1p 2p 3p 7s 8s 9s 9p 9p",
        "5m 6m 7m 8m 9m 7p 8p 2s 3s F F P P",
        "1m 5m 6m 7m 8m 9m 2p 3p 4p 5p 6p C N",
    };
    json_t *options = parse_options(NULL);
    uint8_t wall[MJ_TILES];
    make_wall(wall, 1, HANDS, "", "E", 3);
    json_t *state = table_state(1, 3, false);
    game_hand *hand = tianjin_hand_from_wall(options, wall, 3, state);
    ck_assert_ptr_nonnull(hand);
    act_ok(hand, 1, "{\"sit\":true}");
    act_ok(hand, 0, "{\"pull\":1}");
    act_ok(hand, 2, "{\"pull\":0}");
    act_ok(hand, 3, "{\"pull\":0}");
    act_ok(hand, 1, "{\"win\":true}");
    json_t *event = tj()->last_event(hand);
    assert_text(event, "{\"seat\":1,\"win\":\"9p\"}");
    json_decref(event);
    ck_assert(tj()->is_over(hand));
    json_t *next = tj()->next_table_state(hand);
    assert_text(next, "{\"banker\":1,\"count\":4,\"must_sit\":true}");
    json_t *record = tj()->result_json(hand);
    const json_t *win = json_object_get(record, "win");
    assert_text(json_object_get(win, "names"), "[\"素\",\"天胡\"]");
    ck_assert_int_eq(json_integer_value(json_object_get(win, "fan")), 8);
    assert_text(json_object_get(win, "fans"),
                     "[{\"name\":\"su\",\"value\":2,\"zh\":\"素\"},{\"name\":\"tian_hu\",\"value\":4,\"zh\":\"天胡\"}]");
    /* seat 0 pulled: 8 × 2 (sat) × 2 (one pull); seats 2, 3: 8 × 2 */
    assert_text(json_object_get(record, "net"), "[-32,64,-16,-16]");
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(json_object_get(record, "payments"), 0),
                                                        "factor")),
                     4);
    game_result result;
    tj()->result(hand, &result);
    ck_assert_int_eq(result.n_lines, 4);
    ck_assert_int_eq(result.lines[1].units, 64);
    ck_assert_str_eq(result.lines[1].reason, "settle");
    json_decref(record);
    json_decref(next);
    json_decref(state);
    tj()->hand_free(hand);
    json_decref(options);
}
END_TEST

START_TEST(test_protocol_md_lists_every_refusal_of_tianjin_and_no_other)
{
    FILE *f = fopen(TEAHOUSE_SOURCE_ROOT "/protocol/PROTOCOL.md", "rb");
    ck_assert_ptr_nonnull(f);
    static char text[1 << 17];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    const char *at = strstr(text, "\n### Tianjin's refusals\n");
    ck_assert_ptr_nonnull(at);
    int rows = 0;
    for (const char *line = strchr(at + 1, '\n'); line != NULL && line[1] != '#'; line = strchr(line + 1, '\n')) {
        if (strncmp(line + 1, "| `", 3) != 0)
            continue;
        char code[48];
        ck_assert_int_eq(sscanf(line + 4, "%47[a-z_]", code), 1);
        ck_assert_msg(known_code(code) && strcmp(code, "bad_request") != 0, "PROTOCOL.md lists %s", code);
        rows++;
    }
    ck_assert_int_eq(rows, (int)(sizeof CODES / sizeof CODES[0]) - 1);
}
END_TEST

/* --- the calculator --- */

static json_t *replay_document(const json_t *options, uint64_t seed, const json_t *state, const played *log)
{
    json_t *actions = json_array();
    for (int i = 0; i < log->n; i++) {
        json_t *a = json_deep_copy(log->action[i]);
        json_object_set_new(a, "seat", json_integer(log->seat[i]));
        json_array_append_new(actions, a);
    }
    char seed_text[32];
    snprintf(seed_text, sizeof seed_text, "%llu", (unsigned long long)seed);
    return json_pack("{s:s, s:s, s:O, s:s, s:O, s:o}", "mode", "replay", "game", "tianjin", "options", options, "seed",
                     seed_text, "table_state", state, "actions", actions);
}

START_TEST(test_the_calculator_replays_a_bots_hand_to_the_games_own_result)
{
    uint64_t r = 31337;
    for (int game = 0; game < 6; game++) {
        json_t *options = random_options(&r);
        uint64_t seed = next_random(&r) << 31 | next_random(&r);
        json_t *state = table_state(game % 4, 2, false);
        game_hand *hand = tj()->hand_new(options, seed, state);
        played log = {0};
        json_t *events = json_array();
        while (!tj()->is_over(hand)) {
            /* the bot where it acts, else the timeout's choice: the way a table of bots plays */
            game_decision d[GAME_SEATS];
            int n = decisions(hand, d);
            json_t *action = NULL;
            int seat = -1;
            for (int i = 0; i < n && action == NULL; i++)
                action = tj()->bot_action(hand, seat = d[i].seat);
            if (action == NULL)
                action = tj()->timeout_action(hand, seat = d[0].seat);
            ck_assert_ptr_nonnull(action);
            char msg[GAME_MESSAGE_SIZE];
            ck_assert_ptr_null(tj()->act(hand, seat, action, msg, sizeof msg));
            json_t *event = tj()->last_event(hand);
            json_array_append_new(events, event != NULL ? event : json_null());
            log.seat[log.n] = seat;
            log.action[log.n++] = action;
        }
        json_t *doc = replay_document(options, seed, state, &log);
        json_t *answer = score_run(doc);
        ck_assert_msg(!score_is_error(answer), "refused: %s", dump(answer));
        assert_same_json(json_object_get(answer, "events"), events, "the replay's events");
        json_object_del(answer, "events");
        json_t *record = tj()->result_json(hand);
        char *a = dump(answer), *b = dump(record);
        ck_assert_str_eq(a, b);
        free(a);
        free(b);

        /* one action fewer is a hand that does not end; a changed one is refused */
        json_array_remove(json_object_get(doc, "actions"), json_array_size(json_object_get(doc, "actions")) - 1);
        json_t *short_answer = score_run(doc);
        ck_assert_str_eq(json_string_value(json_object_get(json_object_get(short_answer, "error"), "code")),
                         "illegal_action");
        json_decref(short_answer);
        json_decref(record);
        json_decref(answer);
        json_decref(doc);
        json_decref(events);
        played_free(&log);
        tj()->hand_free(hand);
        json_decref(state);
        json_decref(options);
    }
}
END_TEST

START_TEST(test_the_calculator_refuses_replays_by_the_first_code_that_applies)
{
    static const struct {
        const char *doc;
        const char *code;
    } CASES[] = {
        {"{\"mode\":\"replay\",\"game\":\"tianjin\",\"seed\":1,\"table_state\":{\"banker\":0,\"count\":1,"
         "\"must_sit\":false},\"actions\":[],\"extra\":1}",
         "bad_request"},
        {"{\"mode\":\"replay\",\"game\":\"tianjin\",\"table_state\":{\"banker\":0,\"count\":1,\"must_sit\":false},"
         "\"actions\":[]}",
         "bad_request"},
        {"{\"mode\":\"replay\",\"game\":\"tianjin\",\"seed\":-1,\"table_state\":{\"banker\":0,\"count\":1,"
         "\"must_sit\":false},\"actions\":[]}",
         "bad_request"},
        {"{\"mode\":\"replay\",\"game\":\"tianjin\",\"seed\":\"18446744073709551616\",\"table_state\":{\"banker\":0,"
         "\"count\":1,\"must_sit\":false},\"actions\":[]}",
         "bad_request"},
        {"{\"mode\":\"replay\",\"game\":\"tianjin\",\"seed\":1,\"table_state\":{\"banker\":0,\"count\":1},"
         "\"actions\":[]}",
         "bad_request"},
        {"{\"mode\":\"replay\",\"game\":\"tianjin\",\"seed\":1,\"table_state\":{\"banker\":0,\"count\":1,"
         "\"must_sit\":false},\"actions\":[{\"seat\":0,\"sit\":\"no\"}]}",
         "bad_request"},
        {"{\"mode\":\"replay\",\"game\":\"tianjin\",\"seed\":1,\"table_state\":{\"banker\":0,\"count\":1,"
         "\"must_sit\":false},\"actions\":[{\"seat\":1,\"sit\":true}]}",
         "illegal_action"},
        {"{\"mode\":\"replay\",\"game\":\"tianjin\",\"seed\":\"1\",\"table_state\":{\"banker\":0,\"count\":1,"
         "\"must_sit\":false},\"actions\":[{\"seat\":0,\"sit\":true}]}",
         "illegal_action"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        json_t *doc = json_loads(CASES[i].doc, 0, NULL);
        ck_assert_ptr_nonnull(doc);
        json_t *answer = score_run(doc);
        const json_t *error = json_object_get(answer, "error");
        ck_assert_msg(json_is_object(error), "case %zu answered %s", i, dump(answer));
        ck_assert_msg(strcmp(json_string_value(json_object_get(error, "code")), CASES[i].code) == 0,
                      "case %zu: %s", i, dump(answer));
        json_decref(answer);
        json_decref(doc);
    }
    /* a wall of 135 kinds right and one wrong is impossible */
    json_t *wall = json_array();
    for (int i = 0; i < MJ_TILES; i++)
        json_array_append_new(wall, json_string(mj_kind_name(i == 0 ? 1 : i / MJ_COPIES)));
    json_t *doc = json_pack("{s:s, s:s, s:o, s:i, s:o, s:[]}", "mode", "replay", "game", "tianjin", "wall", wall,
                            "dice", 5, "table_state", table_state(0, 1, false), "actions");
    json_t *answer = score_run(doc);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(answer, "error"), "code")), "impossible");
    json_decref(answer);
    json_decref(doc);
}
END_TEST

static Suite *tianjin_suite(void)
{
    Suite *s = suite_create("game_tianjin");
    TCase *table = tcase_create("table");
    tcase_add_test(table, test_tianjin_is_offered_by_name_after_tien_gow);
    tcase_add_test(table, test_options_default_every_rule_and_a_five_second_claim_window);
    tcase_add_test(table, test_options_outside_the_table_are_refused_with_a_sentence);
    tcase_add_test(table, test_a_new_tables_first_banker_is_by_the_dice_and_hands_refuse_other_states);
    tcase_add_test(table, test_protocol_md_lists_every_refusal_of_tianjin_and_no_other);
    suite_add_tcase(s, table);
    TCase *pre = tcase_create("pre_hand");
    tcase_add_test(pre, test_the_banker_decides_to_sit_before_any_tile_is_shown);
    tcase_add_test(pre, test_pulls_are_private_until_the_third_then_shown_and_the_tiles_dealt);
    tcase_add_test(pre, test_a_pull_above_the_tables_max_is_refused_and_changes_nothing);
    tcase_add_test(pre, test_must_sit_skips_the_bankers_decision_by_option_or_by_table_state);
    suite_add_tcase(s, pre);
    TCase *window = tcase_create("claim_window");
    tcase_set_timeout(window, 60);
    tcase_add_test(window, test_every_discard_asks_all_three_other_seats_for_the_same_time);
    tcase_add_test(window, test_a_window_looks_the_same_whether_or_not_anyone_can_claim);
    tcase_add_test(window, test_a_claim_closes_the_window_at_once_after_private_passes);
    suite_add_tcase(s, window);
    TCase *refusals = tcase_create("refusals");
    tcase_set_timeout(refusals, 120);
    tcase_add_test(refusals, test_a_win_under_the_minimum_is_refused_with_its_reason);
    tcase_add_test(refusals, test_a_seat_that_discarded_a_wild_is_told_so_when_it_would_win);
    tcase_add_test(refusals, test_refused_actions_change_nothing_anyone_can_see);
    suite_add_tcase(s, refusals);
    TCase *hands = tcase_create("hands");
    tcase_set_timeout(hands, 120);
    tcase_add_test(hands, test_random_hands_hide_other_seats_tiles_keep_every_tile_and_settle_by_reason);
    tcase_add_test(hands, test_a_replay_rebuilds_every_step_bit_for_bit);
    tcase_add_test(hands, test_a_copy_goes_its_own_way);
    tcase_add_test(hands, test_the_bank_stays_with_a_winning_banker_who_then_must_sit_again);
    suite_add_tcase(s, hands);
    TCase *calc = tcase_create("calculator");
    tcase_set_timeout(calc, 60);
    tcase_add_test(calc, test_the_calculator_replays_a_bots_hand_to_the_games_own_result);
    tcase_add_test(calc, test_the_calculator_refuses_replays_by_the_first_code_that_applies);
    suite_add_tcase(s, calc);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(tianjin_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
