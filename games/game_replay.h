/*
 * game_replay — rebuilding a hand from what was kept: the options, the seed, the table state it
 * started from and its accepted actions in order, each with its seat. One helper for every
 * rebuilder (the rooms after a restart, history and admin replays, the crash test's check and
 * the calculator), so they cannot disagree on what a log means.
 *
 * Pure: no I/O. A refused action stops the replay; its index (from 0) and the engine's reason
 * are reported, and the hand as it stood before it is returned to nobody (freed).
 */
#ifndef GAME_REPLAY_H
#define GAME_REPLAY_H

#include <stddef.h>

#include "game.h"

typedef struct game_logged_action {
    int seat;
    const json_t *action;
} game_logged_action;

typedef struct game_replay_error {
    size_t index;                  /* the refused action, or the count given when hand_new failed */
    const char *code;              /* the engine's reason ("not_your_turn"), "internal" for memory */
    char message[GAME_MESSAGE_SIZE];
} game_replay_error;

/* Called after each action is applied (index from 0), and once before any with index SIZE_MAX;
 * may be NULL. Returns false to stop early (the hand so far is then returned). */
typedef bool (*game_replay_step_cb)(void *ctx, const game_hand *hand, size_t index);

/* Applies actions[0..n) to hand in order. true when all were accepted (or step stopped the
 * replay early); otherwise false with err filled (its message the engine's own sentence), the
 * hand holding every action before the refused one. err may be NULL. */
bool game_replay_actions(const game_ops *game, game_hand *hand, const game_logged_action *actions, size_t n,
                         game_replay_step_cb step, void *ctx, game_replay_error *err);

/* A new hand from options, seed and table state with actions[0..n) applied; NULL with err filled
 * when the hand cannot be made or an action is refused. */
game_hand *game_replay(const game_ops *game, const json_t *options, uint64_t seed, const json_t *state,
                       const game_logged_action *actions, size_t n, game_replay_step_cb step, void *ctx,
                       game_replay_error *err);

/* The key the room adds to a hand's result when it stores it: who played each seat, as they were
 * (the game's result_json never has it). */
#define GAME_RESULT_PLAYERS_KEY "players"

/* Whether a stored result is the one a replay gives: every key of the game's result equal, and
 * nothing else in the stored one but the room's GAME_RESULT_PLAYERS_KEY. */
bool game_result_equal(const json_t *stored, const json_t *replayed);

/* The score calculator's replay document for a kept hand (game_ops.score_request), its actions
 * listed from the log; NULL when the game has none, or its deal or state is not the game's. */
json_t *game_score_request(const game_ops *game, const json_t *options, const json_t *deal, const json_t *state,
                           const game_logged_action *actions, size_t n);

#endif
