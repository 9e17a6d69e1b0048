/*
 * game_tianjin — Tianjin Mahjong's entry points beyond its game_ops, for Tianjin's own tools only:
 * the calculator's replay mode may be given a wall instead of a seed, and it and the tests read the
 * engine's state of a hand. The rooms never include this header; they know the game only as
 * game_tianjin (game.h).
 */
#ifndef GAME_TIANJIN_H
#define GAME_TIANJIN_H

#include <stdint.h>

#include "game.h"
#include "mj_hand.h"

extern const game_ops game_tianjin;

/* A hand of these options (as options_parse stores them) and table state whose wall is exactly
 * `wall` and whose dice total `dice` (mj_hand_deal). NULL when memory runs out, the options or
 * state are not this game's, or the wall or dice are not a deal (mj_hand_deal refuses them). */
game_hand *tianjin_hand_from_wall(const json_t *options, const uint8_t wall[MJ_TILES], int dice,
                                  const json_t *state);

/* The engine's state of a hand made by game_tianjin (read only). Before the pre-hand decisions are
 * made it holds the deal with the banker not sitting (sitting under must_sit) and no pulls. */
const mj_hand *tianjin_hand_engine(const game_hand *hand);

#endif
