/*
 * score_mj — the Tianjin Mahjong modes of the score calculator (rules/tianjin-mahjong.md §7).
 *
 * Score mode answers what a winning hand is worth by its best reading; settle mode prices a
 * finished hand. A refusal's code is the FIRST that applies of bad_request (the shape, mj_json),
 * impossible (the engine's checks of the hand or outcome), not_a_win and under_minimum.
 *
 * Replay mode plays a whole hand through the game (games/tianjin, by game_replay.h) from its
 * options, seed (or wall and dice), table state and ordered actions, each with its seat, and
 * answers every action's public event with the game's own result (README, "The score
 * calculator"). Its refusals: bad_request (the shape), impossible (a wall that is not the 136
 * tiles), illegal_action (an action the game refuses, or actions that end before the hand does).
 */
#ifndef SCORE_MJ_H
#define SCORE_MJ_H

#include <jansson.h>

/* The answer to a parsed document whose "game" is "tianjin" (a new reference; NULL only when
 * memory runs out). */
json_t *score_mj_run(const json_t *input);

#endif
