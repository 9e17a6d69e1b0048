/*
 * Tien Gow behind the game interface (server/game.h): options, whole hands played by the bot for
 * every seat, refusals that change nothing, and views that never show another seat's tiles.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "tg_tiles.h"

static const game_ops *tiengow(void) { return game_find("tiengow"); }

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
        game_hand *hand = tiengow()->hand_new(options, seed, (int)(seed % 4), 2);
        ck_assert_ptr_nonnull(hand);
        int dealt[GAME_SEATS][TG_KINDS];
        for (int s = 0; s < GAME_SEATS; s++)
            dealt_kinds(hand, s, dealt[s]);
        int public_tiles[TG_KINDS] = {0};
        int actions = 0;
        while (!tiengow()->is_over(hand)) {
            int seat = tiengow()->to_act(hand);
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
        ck_assert_int_eq(tiengow()->to_act(hand), -1);
        tiengow()->hand_free(hand);
    }
    json_decref(options);
}
END_TEST

START_TEST(test_refused_actions_name_the_reason_and_change_nothing)
{
    json_t *options = default_options();
    uint64_t seed = 7;
    game_hand *hand = tiengow()->hand_new(options, seed, 0, 2);
    while (tiengow()->is_over(hand)) { /* a natural hand: try the next seed */
        tiengow()->hand_free(hand);
        hand = tiengow()->hand_new(options, ++seed, 0, 2);
    }
    int seat = tiengow()->to_act(hand);
    json_t *before = tiengow()->view(hand, seat);
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
    }
    /* the wrong seat */
    json_t *bot = tiengow()->bot_action(hand, seat);
    ck_assert_str_eq(tiengow()->act(hand, (seat + 1) % 4, bot, msg, sizeof msg), "not_your_turn");
    json_decref(bot);
    json_decref(before);
    tiengow()->hand_free(hand);
    json_decref(options);
}
END_TEST

START_TEST(test_view_lists_legal_plays_only_for_the_seat_to_act)
{
    json_t *options = default_options();
    game_hand *hand = tiengow()->hand_new(options, 11, 2, 2);
    if (!tiengow()->is_over(hand)) {
        int seat = tiengow()->to_act(hand);
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
        int seat = tiengow()->to_act(hand);
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
        game_hand *hand = tiengow()->hand_new(options, seed, (int)(seed % 4), 2);
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
    game_hand *hand = tiengow()->hand_new(options, 77, 1, 2);
    game_hand *copy = tiengow()->hand_copy(hand);
    ck_assert_ptr_nonnull(copy);
    int seat = tiengow()->to_act(hand);
    json_t *before = tiengow()->view(hand, seat);
    json_t *action = tiengow()->bot_action(copy, seat);
    char msg[GAME_MESSAGE_SIZE];
    ck_assert_ptr_null(tiengow()->act(copy, seat, action, msg, sizeof msg));
    json_t *still = tiengow()->view(hand, seat);
    ck_assert(json_equal(before, still));
    ck_assert_int_ne(tiengow()->to_act(copy), seat);
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
        game_hand *hand = tiengow()->hand_new(options, seed, 0, 2);
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
        game_hand *hand = tiengow()->hand_new(options, seed, (int)(seed % 4), 2);
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
            int seat = tiengow()->to_act(hand);
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
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
