/*
 * Tien Gow behind the game interface (games/game.h): options, the table state, whole hands played
 * by the bot for every seat, one decision at a time, refusals that change nothing, views that
 * never show another seat's tiles, the admin view that shows them all, and replays.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "game_replay.h"
#include "tg_hand.h"
#include "tg_tiles.h"

static const game_ops *tiengow(void) { return game_find("tiengow"); }

static json_t *table_state(int banker, int multiplier)
{
    return json_pack("{s:i, s:i}", "banker", banker, "multiplier", multiplier);
}

/* A hand dealt from seed with this banker and multiplier. */
static game_hand *new_hand(const json_t *options, uint64_t seed, int banker, int multiplier)
{
    json_t *state = table_state(banker, multiplier);
    game_hand *hand = tiengow()->hand_new(options, seed, state);
    ck_assert_ptr_nonnull(hand);
    json_decref(state);
    return hand;
}

/* The one seat that decides (its turn, on the table's timer), or -1 when the hand is over. */
static int to_act(const game_hand *hand)
{
    game_decision d[GAME_SEATS];
    int n = tiengow()->decisions(hand, d);
    if (n == 0)
        return -1;
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(d[0].kind, GAME_DECISION_TURN);
    ck_assert_int_eq(d[0].seconds, 0);
    return d[0].seat;
}

static json_t *default_options(void)
{
    char msg[GAME_MESSAGE_SIZE];
    json_t *options = tiengow()->options_parse(NULL, msg, sizeof msg);
    ck_assert_ptr_nonnull(options);
    return options;
}

START_TEST(test_game_is_found_by_name_and_unknown_names_are_not)
{
    ck_assert_ptr_eq(game_find("tiengow"), &game_tiengow);
    ck_assert_ptr_null(game_find("poker"));
    ck_assert_ptr_null(game_find(NULL));
}
END_TEST

START_TEST(test_options_default_every_key_and_refuse_unknown_keys)
{
    char msg[GAME_MESSAGE_SIZE];
    json_t *options = default_options();
    ck_assert(json_is_false(json_object_get(options, "wen_zun")));
    ck_assert_str_eq(json_string_value(json_object_get(options, "rotation")), "fly");
    ck_assert_int_eq(json_integer_value(json_object_get(options, "stake")), 1);
    json_decref(options);

    json_t *bad = json_pack("{s:b}", "wen_zunn", 1);
    ck_assert_ptr_null(tiengow()->options_parse(bad, msg, sizeof msg));
    ck_assert_ptr_nonnull(strstr(msg, "wen_zunn"));
    json_decref(bad);
    bad = json_pack("{s:i}", "qin_multiplier", 3);
    ck_assert_ptr_null(tiengow()->options_parse(bad, msg, sizeof msg));
    json_decref(bad);
}
END_TEST

/* Kinds dealt to a seat, read from its first view (the whole hand before any action). */
static void dealt_kinds(const game_hand *hand, int seat, int counts[TG_KINDS])
{
    memset(counts, 0, sizeof(int) * TG_KINDS);
    json_t *view = tiengow()->view(hand, seat);
    json_t *tile;
    size_t i;
    json_array_foreach(json_object_get(view, "hand"), i, tile) counts[tg_tile_parse(json_string_value(tile))]++;
    json_decref(view);
}

/* Every tile name written anywhere in a JSON value. */
static void collect_tiles(const json_t *value, int seen[TG_KINDS])
{
    if (json_is_string(value)) {
        int k = tg_tile_parse(json_string_value(value));
        if (k >= 0)
            seen[k] = 1;
    } else if (json_is_array(value)) {
        size_t i;
        json_t *item;
        json_array_foreach(value, i, item) collect_tiles(item, seen);
    } else if (json_is_object(value)) {
        const char *key;
        json_t *item;
        json_object_foreach((json_t *)value, key, item) collect_tiles(item, seen);
    }
}

START_TEST(test_bots_play_whole_hands_and_views_hide_other_seats_tiles)
{
    json_t *options = default_options();
    for (uint64_t seed = 1; seed <= 300; seed++) {
        game_hand *hand = new_hand(options, seed, (int)(seed % 4), 2);
        ck_assert_ptr_nonnull(hand);
        int dealt[GAME_SEATS][TG_KINDS];
        for (int s = 0; s < GAME_SEATS; s++)
            dealt_kinds(hand, s, dealt[s]);
        int public_tiles[TG_KINDS] = {0};
        int actions = 0;
        while (!tiengow()->is_over(hand)) {
            int seat = to_act(hand);
            ck_assert_int_ge(seat, 0);
            /* every seat's and a spectator's view: no tile unless its own or played face up */
            for (int viewer = GAME_SPECTATOR; viewer < GAME_SEATS; viewer++) {
                json_t *view = tiengow()->view(hand, viewer);
                int seen[TG_KINDS] = {0};
                collect_tiles(view, seen);
                for (int k = 0; k < TG_KINDS; k++)
                    if (seen[k])
                        ck_assert_msg(public_tiles[k] || (viewer >= 0 && dealt[viewer][k]),
                                      "seed %llu: seat %d sees a hidden tile", (unsigned long long)seed, viewer);
                /* the one deciding seat is the view's seat to act */
                ck_assert_int_eq(json_integer_value(json_object_get(view, "to_act")), seat);
                if (viewer >= 0)
                    ck_assert(game_seat_decides(tiengow(), hand, viewer) == (viewer == seat));
                json_decref(view);
            }
            json_t *action = tiengow()->bot_action(hand, seat);
            ck_assert_ptr_nonnull(action);
            char msg[GAME_MESSAGE_SIZE];
            ck_assert_ptr_null(tiengow()->act(hand, seat, action, msg, sizeof msg));
            if (json_object_get(action, "play"))
                collect_tiles(json_object_get(action, "play"), public_tiles);
            json_decref(action);
            ck_assert_int_lt(++actions, 33);
        }
        game_result result;
        tiengow()->result(hand, &result);
        ck_assert_int_eq(result.net[0] + result.net[1] + result.net[2] + result.net[3], 0);
        ck_assert_int_eq(to_act(hand), -1);
        tiengow()->hand_free(hand);
    }
    json_decref(options);
}
END_TEST

START_TEST(test_refused_actions_name_the_reason_and_change_nothing)
{
    json_t *options = default_options();
    uint64_t seed = 7;
    game_hand *hand = new_hand(options, seed, 0, 2);
    while (tiengow()->is_over(hand)) { /* a natural hand: try the next seed */
        tiengow()->hand_free(hand);
        hand = new_hand(options, ++seed, 0, 2);
    }
    int seat = to_act(hand);
    json_t *before = tiengow()->view(hand, seat);
    json_t *admin_before = tiengow()->view_admin(hand);
    char msg[GAME_MESSAGE_SIZE];
    const char *cases[] = {
        "{\"discard\":[\"1-2\"]}", "{\"play\":[]}", "{\"play\":[\"9-9\"]}", "{\"play\":\"1-2\"}",
        "{\"seat\":0,\"play\":[\"6-6\"]}", "[1,2]", "{\"pass\":true}",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *action = json_loads(cases[i], 0, NULL);
        ck_assert_ptr_nonnull(action);
        const char *code = tiengow()->act(hand, seat, action, msg, sizeof msg);
        ck_assert_msg(code != NULL, "%s was accepted", cases[i]);
        ck_assert_int_gt((int)strlen(msg), 0);
        json_decref(action);
        json_t *after = tiengow()->view(hand, seat);
        ck_assert(json_equal(before, after));
        json_decref(after);
        after = tiengow()->view_admin(hand);
        ck_assert(json_equal(admin_before, after));
        json_decref(after);
    }
    /* the wrong seat */
    json_t *bot = tiengow()->bot_action(hand, seat);
    ck_assert_str_eq(tiengow()->act(hand, (seat + 1) % 4, bot, msg, sizeof msg), "not_your_turn");
    /* the wrong seat with the wrong count: the turn is checked first */
    json_t *empty = json_pack("{s:[]}", "play");
    ck_assert_str_eq(tiengow()->act(hand, (seat + 1) % 4, empty, msg, sizeof msg), "not_your_turn");
    ck_assert_str_eq(tiengow()->act(hand, seat, empty, msg, sizeof msg), "wrong_count");
    json_decref(empty);
    json_t *admin_after = tiengow()->view_admin(hand);
    ck_assert(json_equal(admin_before, admin_after));
    json_decref(admin_after);
    json_decref(admin_before);
    json_decref(bot);
    json_decref(before);
    tiengow()->hand_free(hand);
    json_decref(options);
}
END_TEST

START_TEST(test_view_lists_legal_plays_only_for_the_seat_to_act)
{
    json_t *options = default_options();
    game_hand *hand = new_hand(options, 11, 2, 2);
    if (!tiengow()->is_over(hand)) {
        int seat = to_act(hand);
        json_t *mine = tiengow()->view(hand, seat);
        json_t *other = tiengow()->view(hand, (seat + 1) % 4);
        ck_assert(json_is_object(json_object_get(mine, "legal")));
        ck_assert_int_gt((int)json_array_size(json_object_get(json_object_get(mine, "legal"), "plays")), 0);
        ck_assert(json_is_null(json_object_get(other, "legal")));
        json_decref(mine);
        json_decref(other);
    }
    tiengow()->hand_free(hand);
    json_decref(options);
}
END_TEST

/* Plays the hand to its end with the bot for every seat. */
static void play_out(game_hand *hand)
{
    while (!tiengow()->is_over(hand)) {
        int seat = to_act(hand);
        json_t *action = tiengow()->bot_action(hand, seat);
        char msg[GAME_MESSAGE_SIZE];
        ck_assert_ptr_null(tiengow()->act(hand, seat, action, msg, sizeof msg));
        json_decref(action);
    }
}

/* The ledger's lines: settle for every seat, each reason zero-sum, all lines summing to the net;
 * the bonus lines agree with the bonuses of the public result (from, to, units). */
START_TEST(test_ledger_lines_split_the_net_by_reason)
{
    char msg[GAME_MESSAGE_SIZE];
    json_t *given = json_pack("{s:i}", "stake", 3);
    json_t *options = tiengow()->options_parse(given, msg, sizeof msg);
    json_decref(given);
    ck_assert_ptr_nonnull(options);
    int hands_with_bonuses = 0;
    for (uint64_t seed = 1; seed <= 2000; seed++) {
        game_hand *hand = new_hand(options, seed, (int)(seed % 4), 2);
        play_out(hand);
        game_result result;
        tiengow()->result(hand, &result);
        json_t *record = tiengow()->result_json(hand);
        int64_t by_seat[GAME_SEATS] = {0};
        int settle_lines = 0;
        for (int i = 0; i < result.n_lines; i++) {
            const game_ledger_line *line = &result.lines[i];
            by_seat[line->seat] += line->units;
            if (strcmp(line->reason, "settle") == 0) {
                ck_assert_int_eq(line->seat, settle_lines); /* one per seat, in seat order, first */
                ck_assert_int_eq(i, settle_lines);
                settle_lines++;
            }
            int64_t reason_sum = 0;
            for (int j = 0; j < result.n_lines; j++)
                if (strcmp(result.lines[j].reason, line->reason) == 0)
                    reason_sum += result.lines[j].units;
            ck_assert_int_eq(reason_sum, 0);
        }
        ck_assert_int_eq(settle_lines, GAME_SEATS);
        for (int s = 0; s < GAME_SEATS; s++) {
            ck_assert_int_eq(by_seat[s], result.net[s]);
            ck_assert_int_eq(result.net[s], json_integer_value(json_array_get(json_object_get(record, "net"), (size_t)s)));
        }
        /* the bonus lines, rebuilt from the public record's transfers */
        json_t *bonuses = json_object_get(record, "bonuses");
        if (json_array_size(bonuses) > 0)
            hands_with_bonuses++;
        size_t k;
        json_t *b;
        int64_t expected[3][GAME_SEATS] = {{0}};
        static const char *const KINDS[3] = {"he_zun", "qin_zun", "quartet"};
        json_array_foreach(bonuses, k, b)
        {
            int kind = -1;
            for (int x = 0; x < 3; x++)
                if (strcmp(json_string_value(json_object_get(b, "kind")), KINDS[x]) == 0)
                    kind = x;
            ck_assert_int_ge(kind, 0);
            int64_t units = json_integer_value(json_object_get(b, "units"));
            expected[kind][json_integer_value(json_object_get(b, "to"))] += units;
            expected[kind][json_integer_value(json_object_get(b, "from"))] -= units;
        }
        for (int x = 0; x < 3; x++)
            for (int s = 0; s < GAME_SEATS; s++) {
                int64_t got = 0;
                int lines = 0;
                for (int i = 0; i < result.n_lines; i++)
                    if (result.lines[i].seat == s && strcmp(result.lines[i].reason, KINDS[x]) == 0) {
                        got += result.lines[i].units;
                        lines++;
                    }
                ck_assert_int_eq(got, expected[x][s]);
                ck_assert_int_eq(lines, expected[x][s] != 0 ? 1 : 0); /* no line for nothing */
            }
        json_decref(record);
        tiengow()->hand_free(hand);
    }
    ck_assert_int_gt(hands_with_bonuses, 10);
    json_decref(options);
}
END_TEST

/* A copy goes its own way: acting on it leaves the original as it was, and both answer alike. */
START_TEST(test_a_copy_of_a_hand_is_independent)
{
    json_t *options = default_options();
    game_hand *hand = new_hand(options, 77, 1, 2);
    game_hand *copy = tiengow()->hand_copy(hand);
    ck_assert_ptr_nonnull(copy);
    int seat = to_act(hand);
    json_t *before = tiengow()->view(hand, seat);
    json_t *action = tiengow()->bot_action(copy, seat);
    char msg[GAME_MESSAGE_SIZE];
    ck_assert_ptr_null(tiengow()->act(copy, seat, action, msg, sizeof msg));
    json_t *still = tiengow()->view(hand, seat);
    ck_assert(json_equal(before, still));
    ck_assert_int_ne(to_act(copy), seat);
    ck_assert_ptr_null(tiengow()->act(hand, seat, action, msg, sizeof msg));
    for (int viewer = GAME_SPECTATOR; viewer < GAME_SEATS; viewer++) {
        json_t *a = tiengow()->view(hand, viewer), *b = tiengow()->view(copy, viewer);
        ck_assert(json_equal(a, b));
        json_decref(a);
        json_decref(b);
    }
    json_decref(before);
    json_decref(still);
    json_decref(action);
    tiengow()->hand_free(hand);
    tiengow()->hand_free(copy);
    json_decref(options);
}
END_TEST

/* The deal, for the record: four seats of eight tiles, each the seat's hand before any play. */
START_TEST(test_the_deal_record_holds_every_seats_first_hand)
{
    json_t *options = default_options();
    for (uint64_t seed = 1; seed <= 50; seed++) {
        game_hand *hand = new_hand(options, seed, 0, 2);
        json_t *deal = tiengow()->deal_json(hand);
        ck_assert_int_eq(json_array_size(deal), GAME_SEATS);
        for (int s = 0; s < GAME_SEATS; s++) {
            json_t *view = tiengow()->view(hand, s);
            ck_assert_int_eq(json_array_size(json_array_get(deal, (size_t)s)), 8);
            ck_assert(json_equal(json_array_get(deal, (size_t)s), json_object_get(view, "hand")));
            json_decref(view);
        }
        json_decref(deal);
        tiengow()->hand_free(hand);
    }
    json_decref(options);
}
END_TEST

/* The split view: own and shared parts share no key, and together they are exactly the view;
 * the shared part shows no tile a spectator could not see. */
START_TEST(test_a_split_view_joins_to_the_whole_view)
{
    json_t *options = default_options();
    for (uint64_t seed = 1; seed <= 400; seed++) {
        game_hand *hand = new_hand(options, seed, (int)(seed % 4), 2);
        int public_tiles[TG_KINDS] = {0};
        for (;;) {
            json_t *shared = tiengow()->view_shared(hand);
            /* a natural hand is shown to everyone */
            collect_tiles(json_object_get(json_object_get(shared, "natural"), "tiles"), public_tiles);
            int seen[TG_KINDS] = {0};
            collect_tiles(shared, seen);
            for (int k = 0; k < TG_KINDS; k++)
                ck_assert_msg(!seen[k] || public_tiles[k], "seed %llu: the shared view shows a hidden tile",
                              (unsigned long long)seed);
            for (int viewer = GAME_SPECTATOR; viewer < GAME_SEATS; viewer++) {
                json_t *own = tiengow()->view_own(hand, viewer);
                const char *key;
                json_t *value;
                json_object_foreach(own, key, value) ck_assert_ptr_null(json_object_get(shared, key));
                json_t *joined = json_deep_copy(shared);
                ck_assert_int_eq(json_object_update(joined, own), 0);
                json_t *whole = tiengow()->view(hand, viewer);
                ck_assert(json_equal(joined, whole));
                json_decref(whole);
                json_decref(joined);
                json_decref(own);
            }
            json_decref(shared);
            if (tiengow()->is_over(hand))
                break;
            int seat = to_act(hand);
            json_t *action = tiengow()->bot_action(hand, seat);
            char msg[GAME_MESSAGE_SIZE];
            ck_assert_ptr_null(tiengow()->act(hand, seat, action, msg, sizeof msg));
            if (json_object_get(action, "play"))
                collect_tiles(json_object_get(action, "play"), public_tiles);
            json_decref(action);
        }
        tiengow()->hand_free(hand);
    }
    json_decref(options);
}
END_TEST

/* A new table starts where the rooms used to: the first banker by tg_first_banker's dice, ×2. */
START_TEST(test_a_new_tables_state_is_the_first_banker_by_the_dice_at_twice)
{
    json_t *options = default_options();
    int bankers[GAME_SEATS] = {0};
    for (uint64_t seed = 0; seed < 2000; seed++) {
        uint64_t mixed = seed * 0x9e3779b97f4a7c15ULL; /* seeds from all over the range */
        json_t *state = tiengow()->table_state_new(options, mixed);
        json_t *expected = table_state(tg_first_banker(mixed), 2);
        ck_assert_msg(json_equal(state, expected), "seed %llu", (unsigned long long)mixed);
        bankers[json_integer_value(json_object_get(state, "banker"))]++;
        game_hand *hand = tiengow()->hand_new(options, mixed, state);
        ck_assert_ptr_nonnull(hand); /* a hand starts from it */
        tiengow()->hand_free(hand);
        json_decref(expected);
        json_decref(state);
    }
    for (int s = 0; s < GAME_SEATS; s++)
        ck_assert_int_gt(bankers[s], 200);
    json_decref(options);
}
END_TEST

START_TEST(test_a_hand_refuses_a_table_state_this_game_did_not_write)
{
    json_t *options = default_options();
    const char *bad[] = {
        "null", "[0,2]", "{}", "{\"banker\":0}", "{\"multiplier\":2}",
        "{\"banker\":4,\"multiplier\":2}", "{\"banker\":-1,\"multiplier\":2}", "{\"banker\":0,\"multiplier\":1}",
        "{\"banker\":0,\"multiplier\":0}", "{\"banker\":0,\"multiplier\":1000001}", "{\"banker\":\"0\",\"multiplier\":2}",
        "{\"banker\":0,\"multiplier\":2.0}", "{\"banker\":0,\"multiplier\":2,\"streak\":1}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *state = json_loads(bad[i], JSON_DECODE_ANY, NULL);
        ck_assert_msg(tiengow()->hand_new(options, 3, state) == NULL, "state %s accepted", bad[i]);
        json_decref(state);
    }
    ck_assert_ptr_null(tiengow()->hand_new(options, 3, NULL));
    game_hand *hand = new_hand(options, 3, 3, 1000000); /* the largest multiplier */
    tiengow()->hand_free(hand);
    json_decref(options);
}
END_TEST

/* The next hand's state is the result's next banker and multiplier, and a hand starts from it. */
START_TEST(test_the_next_table_state_is_the_results_next_banker_and_multiplier)
{
    json_t *options = default_options();
    int kept = 0, passed = 0;
    json_t *state = table_state(1, 2);
    for (uint64_t seed = 1; seed <= 300; seed++) {
        game_hand *hand = tiengow()->hand_new(options, seed, state);
        ck_assert_ptr_nonnull(hand);
        if (!tiengow()->is_over(hand))
            ck_assert_ptr_null(tiengow()->next_table_state(hand));
        play_out(hand);
        json_t *record = tiengow()->result_json(hand);
        json_t *next = tiengow()->next_table_state(hand);
        json_t *expected = json_pack("{s:O, s:O}", "banker", json_object_get(record, "next_banker"), "multiplier",
                                     json_object_get(record, "next_multiplier"));
        ck_assert(json_equal(next, expected));
        if (json_equal(json_object_get(next, "banker"), json_object_get(state, "banker")))
            kept++;
        else
            passed++;
        json_decref(expected);
        json_decref(record);
        json_decref(state);
        state = next;
        tiengow()->hand_free(hand);
    }
    ck_assert_int_gt(kept, 10);
    ck_assert_int_gt(passed, 10);
    json_decref(state);
    json_decref(options);
}
END_TEST

/* Every tile name in a list, counted by kind. */
static void count_tiles(const json_t *list, int counts[TG_KINDS])
{
    size_t i;
    json_t *tile;
    json_array_foreach(list, i, tile)
    {
        int k = tg_tile_parse(json_string_value(tile));
        ck_assert_int_ge(k, 0);
        counts[k]++;
    }
}

/* The admin view holds every seat's tiles where a seat's view holds only its own; its tricks show
 * every play's faces, discards' too, which the seats see as counts only. */
START_TEST(test_the_admin_view_shows_every_seats_tiles_and_every_discards_faces)
{
    json_t *options = default_options();
    int discards = 0;
    for (uint64_t seed = 1; seed <= 100; seed++) {
        game_hand *hand = new_hand(options, seed, (int)(seed % 4), 3);
        for (;;) {
            json_t *admin = tiengow()->view_admin(hand);
            json_t *deal = tiengow()->deal_json(hand);
            ck_assert(json_equal(json_object_get(admin, "deal"), deal));
            json_decref(deal);
            /* held tiles plus every tile played or discarded: the deal */
            int in_play[TG_KINDS] = {0}, dealt[TG_KINDS] = {0};
            for (int s = 0; s < GAME_SEATS; s++) {
                json_t *mine = tiengow()->view(hand, s);
                json_t *held = json_array_get(json_object_get(admin, "hands"), (size_t)s);
                ck_assert(json_equal(held, json_object_get(mine, "hand")));
                ck_assert_int_eq(json_array_size(held),
                                 json_integer_value(json_array_get(json_object_get(admin, "held"), (size_t)s)));
                count_tiles(held, in_play);
                count_tiles(json_array_get(json_object_get(admin, "deal"), (size_t)s), dealt);
                json_decref(mine);
            }
            size_t t;
            json_t *trick;
            json_array_foreach(json_object_get(admin, "tricks"), t, trick)
            {
                size_t p;
                json_t *play;
                json_array_foreach(json_object_get(trick, "plays"), p, play)
                {
                    json_t *tiles = json_object_get(play, "play");
                    if (tiles == NULL) {
                        tiles = json_object_get(play, "discard");
                        discards++;
                    }
                    ck_assert(json_is_array(tiles));
                    ck_assert_int_eq(json_array_size(tiles), json_integer_value(json_object_get(trick, "tiles")));
                    count_tiles(tiles, in_play);
                }
            }
            ck_assert_mem_eq(in_play, dealt, sizeof dealt);
            json_t *spectator = tiengow()->view(hand, GAME_SPECTATOR);
            ck_assert(json_equal(json_object_get(admin, "result"), json_object_get(spectator, "result")));
            json_decref(spectator);
            json_decref(admin);
            if (tiengow()->is_over(hand))
                break;
            int seat = to_act(hand);
            json_t *action = tiengow()->bot_action(hand, seat);
            char msg[GAME_MESSAGE_SIZE];
            ck_assert_ptr_null(tiengow()->act(hand, seat, action, msg, sizeof msg));
            json_t *event = tiengow()->last_event(hand);
            ck_assert_ptr_nonnull(event); /* Tien Gow has no private decision */
            if (json_object_get(action, "discard") != NULL)
                ck_assert(json_is_integer(json_object_get(event, "discard"))); /* a count, not faces */
            json_decref(event);
            json_decref(action);
        }
        tiengow()->hand_free(hand);
    }
    ck_assert_int_gt(discards, 100);
    json_decref(options);
}
END_TEST

/* A person out of time plays the bot's move: Tien Gow has no timeout action of its own. */
START_TEST(test_tiengow_has_no_timeout_action_and_a_last_event_from_the_start)
{
    ck_assert(tiengow()->timeout_action == NULL);
    json_t *options = default_options();
    game_hand *hand = new_hand(options, 5, 0, 2);
    json_t *event = tiengow()->last_event(hand);
    ck_assert(json_is_null(event));
    json_decref(event);
    tiengow()->hand_free(hand);
    json_decref(options);
}
END_TEST

/* Hands played by a bot that now and then picks another legal play at random are rebuilt by
 * game_replay from the options, seed, table state and the logged actions, down to the admin view. */
START_TEST(test_a_replay_of_logged_hands_rebuilds_the_admin_view)
{
    json_t *options = default_options();
    uint64_t x = 12345;
    for (uint64_t seed = 1; seed <= 200; seed++) {
        json_t *state = table_state((int)(seed % 4), 2 + (int)(seed % 3));
        game_hand *hand = tiengow()->hand_new(options, seed, state);
        game_logged_action log[33];
        size_t n = 0;
        while (!tiengow()->is_over(hand)) {
            int seat = to_act(hand);
            json_t *view = tiengow()->view(hand, seat);
            json_t *plays = json_object_get(json_object_get(view, "legal"), "plays");
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            json_t *action = (x >> 62) != 0 && json_array_size(plays) > 0
                                 ? json_pack("{s:O}", "play", json_array_get(plays, (x >> 20) % json_array_size(plays)))
                                 : tiengow()->bot_action(hand, seat);
            json_decref(view);
            char msg[GAME_MESSAGE_SIZE];
            ck_assert_ptr_null(tiengow()->act(hand, seat, action, msg, sizeof msg));
            ck_assert_uint_lt(n, 33);
            log[n++] = (game_logged_action){.seat = seat, .action = action};
        }
        game_replay_error err;
        game_hand *again = game_replay(tiengow(), options, seed, state, log, n, NULL, NULL, &err);
        ck_assert_ptr_nonnull(again);
        json_t *a = tiengow()->view_admin(hand), *b = tiengow()->view_admin(again);
        ck_assert(json_equal(a, b));
        json_decref(a);
        json_decref(b);
        a = tiengow()->last_event(hand);
        b = tiengow()->last_event(again);
        ck_assert(json_equal(a, b));
        json_decref(a);
        json_decref(b);
        /* the last action replaced by the one before it (the same seat again): refused at its index */
        if (n >= 2) {
            game_logged_action last = log[n - 1];
            log[n - 1] = log[n - 2];
            ck_assert_ptr_null(game_replay(tiengow(), options, seed, state, log, n, NULL, NULL, &err));
            ck_assert_uint_eq(err.index, n - 1);
            ck_assert_str_eq(err.code, "not_your_turn");
            ck_assert_int_gt((int)strlen(err.message), 0);
            log[n - 1] = last;
        }
        for (size_t i = 0; i < n; i++)
            json_decref((json_t *)log[i].action);
        tiengow()->hand_free(again);
        tiengow()->hand_free(hand);
        json_decref(state);
    }
    json_decref(options);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("game_tiengow");
    TCase *tc = tcase_create("interface");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_game_is_found_by_name_and_unknown_names_are_not);
    tcase_add_test(tc, test_options_default_every_key_and_refuse_unknown_keys);
    tcase_add_test(tc, test_bots_play_whole_hands_and_views_hide_other_seats_tiles);
    tcase_add_test(tc, test_refused_actions_name_the_reason_and_change_nothing);
    tcase_add_test(tc, test_view_lists_legal_plays_only_for_the_seat_to_act);
    tcase_add_test(tc, test_ledger_lines_split_the_net_by_reason);
    tcase_add_test(tc, test_a_copy_of_a_hand_is_independent);
    tcase_add_test(tc, test_the_deal_record_holds_every_seats_first_hand);
    tcase_add_test(tc, test_a_split_view_joins_to_the_whole_view);
    tcase_add_test(tc, test_a_new_tables_state_is_the_first_banker_by_the_dice_at_twice);
    tcase_add_test(tc, test_a_hand_refuses_a_table_state_this_game_did_not_write);
    tcase_add_test(tc, test_the_next_table_state_is_the_results_next_banker_and_multiplier);
    tcase_add_test(tc, test_the_admin_view_shows_every_seats_tiles_and_every_discards_faces);
    tcase_add_test(tc, test_tiengow_has_no_timeout_action_and_a_last_event_from_the_start);
    tcase_add_test(tc, test_a_replay_of_logged_hands_rebuilds_the_admin_view);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
