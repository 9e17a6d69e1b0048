/*
 * score_mj — the Tianjin Mahjong modes of the score calculator (rules/tianjin-mahjong.md §7).
 *
 * Score mode answers what a winning hand is worth by its best reading; settle mode prices a
 * finished hand. A refusal's code is the FIRST that applies of bad_request (the shape, mj_json),
 * impossible (the engine's checks of the hand or outcome), not_a_win and under_minimum.
 */
#ifndef SCORE_MJ_H
#define SCORE_MJ_H

#include <jansson.h>

/* The answer to a parsed document whose "game" is "tianjin" (a new reference; NULL only when
 * memory runs out). */
json_t *score_mj_run(const json_t *input);

#endif
