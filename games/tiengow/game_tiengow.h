/*
 * game_tiengow — Tien Gow's entry points beyond its game_ops, for Tien Gow's own tools only:
 * the score calculator (tools/score) replays a deal it is given in full, not one dealt from a
 * seed, and reads the engine's state of the replayed hand to write its answer. The rooms never
 * include this header; they know the game only as game_tiengow (game.h).
 */
#ifndef GAME_TIENGOW_H
#define GAME_TIENGOW_H

#include <stdint.h>

#include "game.h"
#include "tg_hand.h"

/* A hand of these options and stake dealt exactly `deal`. NULL with *status TG_OK when memory
 * runs out, NULL with the engine's reason when tg_start refuses the banker, multiplier or deal. */
game_hand *tiengow_hand_from_deal(const tg_options *options, int64_t stake, int banker, uint32_t multiplier,
                                  const uint8_t deal[TG_SEATS][TG_HAND_TILES], tg_status *status);

/* The engine's state of a hand made by game_tiengow (read only). */
const tg_state *tiengow_hand_state(const game_hand *hand);

#endif
