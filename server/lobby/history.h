/*
 * history — a table's past hands as players see them, built from what the store kept: the list
 * answered to `history` and one hand replayed step by step for `replay` (PROTOCOL.md). Pure: no
 * I/O; the lobby fetches the store's records and sends what these return.
 */
#ifndef HISTORY_H
#define HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "game.h"
#include "store.h"

/* {"type":"history","table":code,"hands":[…]} for the summaries, newest first as given. */
json_t *history_hands_json(const char *code, const store_hand_summary *hands, size_t n);

/* {"type":"replay", …}: the finished hand rebuilt through the game from its seed and actions, with
 * the open view (every seat's tiles) after the deal and after every public action, the seat
 * player_id played in it (null when none), and the calculator's document for it. NULL with the
 * reason in msg if the stored hand does not replay or is not over. */
json_t *history_replay_json(const game_ops *game, const json_t *options, const char *code, const store_hand *hand,
                            const store_hand_summary *summary, int64_t player_id, char *msg, size_t msg_size);

#endif
