/*
 * game_replay — a hand rebuilt from its options, seed, table state and accepted actions
 * (game_replay.h). The engine's act is the only judge: nothing here knows a game's rules, so a
 * log means the same to the rooms, history, the crash test's check and the calculator. The
 * calculator's document for a kept hand is listed here too, so that history's export and the
 * crash test's check write the same one.
 */
#include "game_replay.h"

#include <stdio.h>
#include <string.h>

static void report(game_replay_error *err, size_t index, const char *code, const char *message)
{
    if (err == NULL)
        return;
    err->index = index;
    err->code = code;
    snprintf(err->message, sizeof err->message, "%s", message);
}

bool game_replay_actions(const game_ops *game, game_hand *hand, const game_logged_action *actions, size_t n,
                         game_replay_step_cb step, void *ctx, game_replay_error *err)
{
    /* Stopping early at the callback's word is not a refusal: every action applied was accepted. */
    if (step != NULL && !step(ctx, hand, SIZE_MAX))
        return true;
    for (size_t i = 0; i < n; i++) {
        char msg[GAME_MESSAGE_SIZE] = "";
        const char *code = game->act(hand, actions[i].seat, actions[i].action, msg, sizeof msg);
        if (code != NULL) {
            report(err, i, code, msg);
            return false;
        }
        if (step != NULL && !step(ctx, hand, i))
            return true;
    }
    return true;
}

game_hand *game_replay(const game_ops *game, const json_t *options, uint64_t seed, const json_t *state,
                       const game_logged_action *actions, size_t n, game_replay_step_cb step, void *ctx,
                       game_replay_error *err)
{
    game_hand *hand = game->hand_new(options, seed, state);
    if (hand == NULL) {
        report(err, n, "internal",
               "The hand could not be started: memory ran out, or the table state is not one this game wrote.");
        return NULL;
    }
    if (!game_replay_actions(game, hand, actions, n, step, ctx, err)) {
        game->hand_free(hand);
        return NULL;
    }
    return hand;
}

bool game_result_equal(const json_t *stored, const json_t *replayed)
{
    if (!json_is_object(stored) || !json_is_object(replayed))
        return json_equal(stored, replayed);
    json_t *game_part = json_copy((json_t *)stored); /* shallow: only the top keys are dropped */
    if (game_part == NULL)
        return false;
    json_object_del(game_part, GAME_RESULT_PLAYERS_KEY);
    bool same = json_equal(game_part, replayed);
    json_decref(game_part);
    return same;
}

json_t *game_score_request(const game_ops *game, const json_t *options, const json_t *deal, const json_t *state,
                           const game_logged_action *actions, size_t n)
{
    if (game->score_request == NULL)
        return NULL;
    json_t *list = json_array();
    for (size_t i = 0; i < n && list != NULL; i++) {
        json_t *one = json_is_object(actions[i].action) ? json_copy((json_t *)actions[i].action) : NULL;
        if (one != NULL && json_object_set_new(one, "seat", json_integer(actions[i].seat)) != 0) {
            json_decref(one);
            one = NULL;
        }
        if (one == NULL || json_array_append_new(list, one) != 0) {
            json_decref(list);
            list = NULL;
        }
    }
    return list != NULL ? game->score_request(options, deal, state, list) : NULL;
}
