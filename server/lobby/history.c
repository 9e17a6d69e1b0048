/*
 * history — the `history` list and the `replay` of one hand, from the store's records.
 *
 * A replay is rebuilt, not stored: the same options, seed, banker, multiplier and actions give
 * the same hand (game.h's promise), and the views come from the game, so a replay shows a player
 * exactly what they could see at the table and nothing more.
 */
#include "history.h"

#include <inttypes.h>
#include <stdio.h>

static json_t *players_json(const store_hand_summary *h)
{
    json_t *players = json_array();
    for (int s = 0; s < STORE_SEATS; s++) {
        json_t *seat = json_pack("{s:i, s:b}", "seat", s, "bot", h->player_ids[s] == 0);
        if (h->player_ids[s] != 0) {
            char ref[24];
            snprintf(ref, sizeof ref, "p%" PRId64, h->player_ids[s]);
            json_object_set_new(seat, "player", json_string(ref));
            json_object_set_new(seat, "name", json_string(h->nicknames[s]));
        } else {
            json_object_set_new(seat, "player", json_null());
            json_object_set_new(seat, "name", json_null());
        }
        json_array_append_new(players, seat);
    }
    return players;
}

json_t *history_hands_json(const char *code, const store_hand_summary *hands, size_t n)
{
    json_t *list = json_array();
    for (size_t i = 0; i < n; i++) {
        const store_hand_summary *h = &hands[i];
        json_array_append_new(
            list, json_pack("{s:I, s:i, s:I, s:I, s:I, s:o, s:[I,I,I,I], s:O}", "hand", (json_int_t)h->number, "banker",
                            h->banker, "multiplier", (json_int_t)h->multiplier, "started_at",
                            (json_int_t)h->started_at_ms, "finished_at", (json_int_t)h->finished_at_ms, "players",
                            players_json(h), "net", (json_int_t)h->units[0], (json_int_t)h->units[1],
                            (json_int_t)h->units[2], (json_int_t)h->units[3], "result",
                            h->result != NULL ? h->result : json_null()));
    }
    return json_pack("{s:s, s:s, s:o}", "type", "history", "table", code, "hands", list);
}

static int seat_of_player(const store_hand_summary *h, int64_t player_id)
{
    for (int s = 0; s < STORE_SEATS; s++)
        if (player_id != 0 && h->player_ids[s] == player_id)
            return s;
    return GAME_SPECTATOR;
}

json_t *history_replay_json(const game_ops *game, const json_t *options, const char *code, const store_hand *hand,
                            const store_hand_summary *summary, int64_t player_id, char *msg, size_t msg_size)
{
    game_hand *g = game->hand_new(options, hand->seed, hand->banker, hand->multiplier);
    if (g == NULL) {
        snprintf(msg, msg_size, "Hand %" PRId64 " cannot be rebuilt.", hand->number);
        return NULL;
    }
    int seat = seat_of_player(summary, player_id);
    json_t *frames = json_array();
    json_array_append_new(frames, json_pack("{s:{s:s, s:I, s:i, s:I}, s:o}", "event", "kind", "hand_started", "hand",
                                            (json_int_t)hand->number, "banker", hand->banker, "multiplier",
                                            (json_int_t)hand->multiplier, "view", game->view(g, seat)));
    for (size_t i = 0; i < hand->n_actions; i++) {
        const store_action *a = &hand->actions[i];
        char why[GAME_MESSAGE_SIZE];
        const char *error = game->act(g, a->seat, a->action, why, sizeof why);
        if (error != NULL) {
            snprintf(msg, msg_size, "Hand %" PRId64 " does not replay: action %" PRId64 " is refused (%s).",
                     hand->number, a->seq, error);
            json_decref(frames);
            game->hand_free(g);
            return NULL;
        }
        json_t *event = game->last_event(g);
        json_object_set_new(event, "kind", json_string("action"));
        json_array_append_new(frames, json_pack("{s:o, s:o}", "event", event, "view", game->view(g, seat)));
    }
    game->hand_free(g);
    return json_pack("{s:s, s:s, s:I, s:o, s:o, s:o}", "type", "replay", "table", code, "hand",
                     (json_int_t)hand->number, "seat", seat >= 0 ? json_integer(seat) : json_null(), "players",
                     players_json(summary), "frames", frames);
}
