/*
 * history's replay of a finished hand (server/lobby/history.c), for both games: every frame shows
 * every seat's tiles, a hand that is not over is never replayed, a private pass has no frame,
 * the reply names the asker's seat, and its calculator document (never the seed) gives the
 * game's own result back through the real calculator (score_run, as teahouse-score runs it).
 *
 * Hands are played here by the game's own bot (its timeout action where the bot waits), from
 * fixed seeds, and kept as the store keeps them: seed, deal, table state and actions in order.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "game_replay.h"
#include "history.h"
#include "score.h"

typedef struct kept_hand {
    store_hand hand;
    store_hand_summary summary;
    json_t *result; /* the game's result_json */
} kept_hand;

static void keep_action(store_hand *h, size_t *cap, int seat, json_t *action)
{
    if (h->n_actions == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        h->actions = realloc(h->actions, *cap * sizeof *h->actions);
        ck_assert_ptr_nonnull(h->actions);
    }
    h->actions[h->n_actions] = (store_action){.seq = (int64_t)h->n_actions + 1, .seat = seat, .action = action};
    h->n_actions++;
}

/* A whole hand of the game from seed, played by bots, kept as the store keeps it; seat 0 is p7. */
static kept_hand play_hand(const game_ops *game, uint64_t seed)
{
    kept_hand k = {0};
    char msg[GAME_MESSAGE_SIZE];
    json_t *options = game->options_parse(NULL, msg, sizeof msg);
    ck_assert_ptr_nonnull(options);
    json_t *state = game->table_state_new(options, seed);
    game_hand *g = game->hand_new(options, seed, state);
    ck_assert_ptr_nonnull(g);
    k.hand = (store_hand){.id = 1, .number = 3, .seed = seed, .deal = game->deal_json(g), .game_state = state};
    size_t cap = 0;
    for (int guard = 0; guard < 5000 && !game->is_over(g); guard++) {
        game_decision d[GAME_SEATS];
        int n = game->decisions(g, d);
        ck_assert_int_gt(n, 0);
        int seat = d[0].seat;
        json_t *action = game->bot_action(g, seat);
        if (action == NULL && game->timeout_action != NULL)
            action = game->timeout_action(g, seat);
        ck_assert_ptr_nonnull(action);
        ck_assert_ptr_null(game->act(g, seat, action, msg, sizeof msg));
        keep_action(&k.hand, &cap, seat, action);
    }
    ck_assert(game->is_over(g));
    k.result = game->result_json(g);
    k.summary = (store_hand_summary){.id = 1, .number = 3, .game_state = state, .player_ids = {7, 0, 0, 0},
                                     .result = k.result};
    strcpy(k.summary.nicknames[0], "Ann");
    game->hand_free(g);
    json_decref(options);
    return k;
}

static void kept_free(kept_hand *k)
{
    for (size_t i = 0; i < k->hand.n_actions; i++)
        json_decref(k->hand.actions[i].action);
    free(k->hand.actions);
    json_decref(k->hand.deal);
    json_decref(k->hand.game_state);
    json_decref(k->result);
}

static json_t *replay_of(const game_ops *game, const kept_hand *k, int64_t asker, char *msg, size_t msg_size)
{
    char why[GAME_MESSAGE_SIZE];
    json_t *options = game->options_parse(NULL, why, sizeof why);
    json_t *reply = history_replay_json(game, options, "K7M2QX", &k->hand, &k->summary, asker, msg, msg_size);
    json_decref(options);
    return reply;
}

/* Whether any object inside v has the key. */
static bool has_key(const json_t *v, const char *key)
{
    if (json_is_object(v)) {
        if (json_object_get(v, key) != NULL)
            return true;
        const char *k;
        json_t *item;
        json_object_foreach((json_t *)v, k, item) if (has_key(item, key)) return true;
    }
    if (json_is_array(v)) {
        size_t i;
        json_t *item;
        json_array_foreach(v, i, item) if (has_key(item, key)) return true;
    }
    return false;
}

static int by_text(const void *x, const void *y) { return strcmp(*(const char *const *)x, *(const char *const *)y); }

/* The faces of a list of tiles, sorted, as one text. */
static void sorted_faces(const json_t *tiles, char *out, size_t cap)
{
    const char *faces[32];
    size_t n = json_array_size(tiles) < 32 ? json_array_size(tiles) : 32;
    for (size_t i = 0; i < n; i++)
        faces[i] = json_string_value(json_array_get(tiles, i));
    qsort(faces, n, sizeof faces[0], by_text);
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        strncat(out, faces[i], cap - strlen(out) - 1);
        strncat(out, " ", cap - strlen(out) - 1);
    }
}

/* How many tiles a seat's entry of "hands" holds: Tien Gow lists faces, Tianjin lists them too. */
static size_t tiles_in(const json_t *hands, int seat) { return json_array_size(json_array_get(hands, (size_t)seat)); }

static void check_every_frame_open(const char *name, uint64_t seed, size_t dealt)
{
    const game_ops *game = game_find(name);
    kept_hand k = play_hand(game, seed);
    char msg[GAME_MESSAGE_SIZE] = "";
    json_t *reply = replay_of(game, &k, 7, msg, sizeof msg);
    ck_assert_msg(reply != NULL, "%s", msg);
    json_t *frames = json_object_get(reply, "frames");
    ck_assert_int_ge(json_array_size(frames), 2);
    size_t i;
    json_t *f;
    size_t most = 0;
    json_array_foreach(frames, i, f)
    {
        json_t *hands = json_object_get(json_object_get(f, "view"), "hands");
        ck_assert_int_eq(json_array_size(hands), 4);
        for (int s = 0; s < 4; s++)
            most = tiles_in(hands, s) > most ? tiles_in(hands, s) : most;
    }
    ck_assert_uint_ge(most, dealt); /* a full hand was shown for some seat */
    /* the deal frame (after the pre-hand choices for Tianjin) shows the dealt tiles of seat 0 */
    json_t *last = json_object_get(json_array_get(frames, json_array_size(frames) - 1), "view");
    ck_assert(json_is_true(json_object_get(last, "over")));
    ck_assert_str_eq(json_string_value(json_object_get(reply, "game")), name);
    json_decref(reply);
    kept_free(&k);
}

START_TEST(test_a_finished_tien_gow_hands_replay_shows_all_four_hands_at_every_step)
{
    check_every_frame_open("tiengow", 11, 8);
    /* and frame 0 holds exactly the dealt hands */
    const game_ops *game = game_find("tiengow");
    kept_hand k = play_hand(game, 12);
    char msg[GAME_MESSAGE_SIZE] = "";
    json_t *reply = replay_of(game, &k, 7, msg, sizeof msg);
    json_t *hands = json_object_get(json_object_get(json_array_get(json_object_get(reply, "frames"), 0), "view"), "hands");
    for (int s = 0; s < 4; s++) {
        json_t *dealt = json_array_get(k.hand.deal, (size_t)s), *shown = json_array_get(hands, (size_t)s);
        ck_assert_int_eq(json_array_size(shown), 8);
        /* the same faces, in whatever order each lists them */
        char a[128], b[128];
        sorted_faces(dealt, a, sizeof a);
        sorted_faces(shown, b, sizeof b);
        ck_assert_str_eq(a, b);
    }
    json_decref(reply);
    kept_free(&k);
}
END_TEST

/* Every discard in the frames' tricks (the open one and the completed ones) lists its faces. */
static int discards_shown(const json_t *frames, bool *all)
{
    int n = 0;
    size_t i, k, p;
    json_t *f, *trick, *play;
    json_array_foreach(frames, i, f)
    {
        json_t *view = json_object_get(f, "view");
        json_t *tricks = json_copy(json_object_get(view, "tricks"));
        if (json_is_object(json_object_get(view, "trick")))
            json_array_append(tricks, json_object_get(view, "trick"));
        json_array_foreach(tricks, k, trick) json_array_foreach(json_object_get(trick, "plays"), p, play)
        {
            json_t *count = json_object_get(play, "discard");
            if (!json_is_integer(count))
                continue;
            n++;
            *all = *all && json_array_size(json_object_get(play, "faces")) == (size_t)json_integer_value(count);
        }
        json_decref(tricks);
    }
    return n;
}

START_TEST(test_a_finished_tien_gow_hands_replay_shows_the_faces_of_its_discards)
{
    const game_ops *game = game_find("tiengow");
    int seen = 0;
    for (uint64_t seed = 60; seed < 70 && seen == 0; seed++) {
        kept_hand k = play_hand(game, seed);
        char msg[GAME_MESSAGE_SIZE] = "";
        json_t *reply = replay_of(game, &k, 99, msg, sizeof msg);
        bool all = true;
        seen += discards_shown(json_object_get(reply, "frames"), &all);
        ck_assert_msg(all, "seed %llu: a discard without its faces", (unsigned long long)seed);
        json_decref(reply);
        kept_free(&k);
    }
    ck_assert_int_gt(seen, 0); /* some hand had a discard */
    /* the live views never carry them */
    kept_hand k = play_hand(game, 61);
    char msg[GAME_MESSAGE_SIZE];
    json_t *options = game->options_parse(NULL, msg, sizeof msg);
    game_hand *g = game->hand_new(options, k.hand.seed, k.hand.game_state);
    for (size_t i = 0; i < k.hand.n_actions; i++) {
        ck_assert_ptr_null(game->act(g, k.hand.actions[i].seat, k.hand.actions[i].action, msg, sizeof msg));
        for (int seat = -1; seat < 4; seat++) {
            json_t *view = game->view(g, seat);
            ck_assert(!has_key(view, "faces") && !has_key(view, "hands"));
            json_decref(view);
        }
    }
    game->hand_free(g);
    json_decref(options);
    kept_free(&k);
}
END_TEST

START_TEST(test_a_finished_tianjin_hands_replay_shows_all_four_hands_at_every_step)
{
    check_every_frame_open("tianjin", 5, 13);
}
END_TEST

START_TEST(test_a_hand_not_over_is_never_replayed)
{
    static const char *const names[] = {"tiengow", "tianjin"};
    for (int n = 0; n < 2; n++) {
        const game_ops *game = game_find(names[n]);
        kept_hand k = play_hand(game, 21);
        size_t all = k.hand.n_actions;
        size_t cuts[] = {all - 1, all / 2, 0};
        for (size_t c = 0; c < 3; c++) {
            k.hand.n_actions = cuts[c];
            char msg[GAME_MESSAGE_SIZE] = "";
            json_t *reply = replay_of(game, &k, 7, msg, sizeof msg);
            ck_assert_msg(reply == NULL, "%s: a hand cut at action %zu of %zu was replayed", names[n], cuts[c], all);
            ck_assert_ptr_nonnull(strstr(msg, "not finished"));
        }
        k.hand.n_actions = all;
        kept_free(&k);
    }
}
END_TEST

START_TEST(test_a_private_pass_has_no_frame_of_its_own)
{
    const game_ops *game = game_find("tianjin");
    kept_hand k = play_hand(game, 5);
    size_t passes = 0;
    for (size_t i = 0; i < k.hand.n_actions; i++)
        passes += json_object_get(k.hand.actions[i].action, "pass") != NULL;
    char msg[GAME_MESSAGE_SIZE] = "";
    json_t *reply = replay_of(game, &k, 7, msg, sizeof msg);
    ck_assert_ptr_nonnull(reply);
    ck_assert_uint_gt(passes, 0);
    /* the deal, then every action but the passes (a window's last pass resolves it: no_claim) */
    size_t frames = json_array_size(json_object_get(reply, "frames"));
    ck_assert_uint_lt(frames, 1 + k.hand.n_actions);
    ck_assert_uint_ge(frames, 1 + k.hand.n_actions - passes);
    json_decref(reply);
    kept_free(&k);
}
END_TEST

START_TEST(test_the_replay_names_the_askers_seat_and_null_for_a_stranger)
{
    const game_ops *game = game_find("tiengow");
    kept_hand k = play_hand(game, 31);
    char msg[GAME_MESSAGE_SIZE] = "";
    json_t *mine = replay_of(game, &k, 7, msg, sizeof msg);
    json_t *theirs = replay_of(game, &k, 99, msg, sizeof msg);
    ck_assert_int_eq(json_integer_value(json_object_get(mine, "seat")), 0);
    ck_assert(json_is_null(json_object_get(theirs, "seat")));
    /* the stranger sees the same open frames */
    ck_assert(json_equal(json_object_get(mine, "frames"), json_object_get(theirs, "frames")));
    json_decref(mine);
    json_decref(theirs);
    kept_free(&k);
}
END_TEST

/* Every key of the calculator's answer that the game's result also has is equal; net always. */
static void check_export(const char *name, uint64_t seed)
{
    const game_ops *game = game_find(name);
    kept_hand k = play_hand(game, seed);
    char msg[GAME_MESSAGE_SIZE] = "";
    json_t *reply = replay_of(game, &k, 99, msg, sizeof msg);
    ck_assert_ptr_nonnull(reply);
    ck_assert_msg(!has_key(reply, "seed"), "a replay reply names the seed");
    json_t *request = json_object_get(reply, "score_request");
    ck_assert(json_is_object(request));
    ck_assert_str_eq(json_string_value(json_object_get(request, "mode")), "replay");
    ck_assert_str_eq(json_string_value(json_object_get(request, "game")), name);
    json_t *answer = score_run(request);
    ck_assert_msg(!score_is_error(answer), "%s", json_dumps(answer, JSON_COMPACT));
    ck_assert_ptr_nonnull(json_object_get(answer, "net"));
    const char *key;
    json_t *value;
    int compared = 0;
    json_object_foreach(answer, key, value)
    {
        json_t *kept = json_object_get(k.result, key);
        if (kept == NULL)
            continue;
        compared++;
        ck_assert_msg(json_equal(value, kept), "%s: the calculator's %s differs from the game's", name, key);
    }
    ck_assert_int_ge(compared, 3);
    json_decref(answer);
    json_decref(reply);
    kept_free(&k);
}

START_TEST(test_the_exported_tien_gow_document_gives_the_hands_result_through_the_calculator)
{
    for (uint64_t seed = 40; seed < 44; seed++)
        check_export("tiengow", seed);
}
END_TEST

START_TEST(test_the_exported_tianjin_document_gives_the_hands_result_through_the_calculator)
{
    for (uint64_t seed = 40; seed < 44; seed++)
        check_export("tianjin", seed);
}
END_TEST

START_TEST(test_a_kept_deal_the_game_did_not_write_has_no_document)
{
    const game_ops *game = game_find("tianjin");
    kept_hand k = play_hand(game, 50);
    json_t *deal = k.hand.deal;
    k.hand.deal = json_pack("{s:i}", "dice", 7); /* no wall */
    char msg[GAME_MESSAGE_SIZE] = "";
    json_t *reply = replay_of(game, &k, 7, msg, sizeof msg);
    ck_assert_ptr_nonnull(reply); /* the frames come from the seed: the replay itself stands */
    ck_assert(json_is_null(json_object_get(reply, "score_request")));
    json_decref(reply);
    json_decref(k.hand.deal);
    k.hand.deal = deal;
    kept_free(&k);
}
END_TEST

static json_t *admin_without_hands(const game_hand *hand)
{
    (void)hand;
    return json_object();
}

START_TEST(test_a_game_whose_open_view_cannot_be_made_gives_no_replay_rather_than_a_partial_one)
{
    game_ops broken = game_tiengow;
    broken.view_admin = admin_without_hands;
    kept_hand k = play_hand(&game_tiengow, 70);
    char msg[GAME_MESSAGE_SIZE] = "";
    json_t *reply = replay_of(&broken, &k, 7, msg, sizeof msg);
    ck_assert_ptr_null(reply);
    ck_assert_ptr_nonnull(strstr(msg, "cannot be shown open"));
    kept_free(&k);
}
END_TEST

static Suite *history_suite(void)
{
    Suite *s = suite_create("history");
    TCase *tc = tcase_create("replay");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_a_finished_tien_gow_hands_replay_shows_all_four_hands_at_every_step);
    tcase_add_test(tc, test_a_finished_tien_gow_hands_replay_shows_the_faces_of_its_discards);
    tcase_add_test(tc, test_a_finished_tianjin_hands_replay_shows_all_four_hands_at_every_step);
    tcase_add_test(tc, test_a_hand_not_over_is_never_replayed);
    tcase_add_test(tc, test_a_private_pass_has_no_frame_of_its_own);
    tcase_add_test(tc, test_the_replay_names_the_askers_seat_and_null_for_a_stranger);
    tcase_add_test(tc, test_the_exported_tien_gow_document_gives_the_hands_result_through_the_calculator);
    tcase_add_test(tc, test_the_exported_tianjin_document_gives_the_hands_result_through_the_calculator);
    tcase_add_test(tc, test_a_kept_deal_the_game_did_not_write_has_no_document);
    tcase_add_test(tc, test_a_game_whose_open_view_cannot_be_made_gives_no_replay_rather_than_a_partial_one);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(history_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
