/*
 * history — the `history` list and the `replay` of one hand, from the store's records.
 *
 * A replay is rebuilt, not stored (game_replay.h): the same options, seed, game state and actions
 * give the same hand (game.h's promise). Only a finished hand is replayed (the store gives no
 * other, and a rebuilt hand that is not over is refused here too), so nothing in it is hidden any
 * more: every frame is the game's open view (game_view_open), every seat's tiles at that step.
 * The reply also carries the score calculator's document for the hand (game_score_request), which
 * names the deal, never the seed (game.h says why).
 */
#include "history.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game_replay.h"

/* The name seat s's player had when the hand was played: the room writes who played into the
 * stored result ("players"); a hand stored before it did, or a player it does not name, has the
 * player's current nickname. */
static const char *name_then(const store_hand_summary *h, int s, const char *ref)
{
    const json_t *then = json_array_get(json_object_get(h->result, "players"), (size_t)s);
    const char *who = json_string_value(json_object_get(then, "player"));
    const char *name = json_string_value(json_object_get(then, "name"));
    return who != NULL && name != NULL && name[0] != '\0' && strcmp(who, ref) == 0 ? name : h->nicknames[s];
}

static json_t *players_json(const store_hand_summary *h)
{
    json_t *players = json_array();
    for (int s = 0; s < STORE_SEATS; s++) {
        json_t *seat = json_pack("{s:i, s:b}", "seat", s, "bot", h->player_ids[s] == 0);
        if (h->player_ids[s] != 0) {
            char ref[24];
            snprintf(ref, sizeof ref, "p%" PRId64, h->player_ids[s]);
            json_object_set_new(seat, "player", json_string(ref));
            json_object_set_new(seat, "name", json_string(name_then(h, s, ref)));
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
            list, json_pack("{s:I, s:O, s:I, s:I, s:o, s:[I,I,I,I], s:O}", "hand", (json_int_t)h->number, "game_state",
                            h->game_state != NULL ? h->game_state : json_null(), "started_at",
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

typedef struct replay_frames {
    const game_ops *game;
    const store_hand *hand;
    json_t *frames;
    bool failed; /* a frame could not be made (memory, or a game whose admin view lists no "hands") */
} replay_frames;

/* Appends a frame; false (and the replay stops) when it cannot be made: a replay with a step
 * missing would show a hand that never happened. */
static bool append_frame(replay_frames *rf, json_t *event, json_t *view)
{
    json_t *frame = event != NULL && view != NULL ? json_pack("{s:o, s:o}", "event", event, "view", view) : NULL;
    if (frame == NULL) {
        if (event == NULL || view == NULL) { /* json_pack took neither */
            json_decref(event);
            json_decref(view);
        }
        rf->failed = true;
        return false;
    }
    if (json_array_append_new(rf->frames, frame) != 0) {
        rf->failed = true;
        return false;
    }
    return true;
}

/* One frame for the deal and one per action with a public record: a decision kept private while
 * its window was open (a pass) changes nothing on the board and has none. */
static bool add_frame(void *ctx, const game_hand *g, size_t index)
{
    replay_frames *rf = ctx;
    const game_ops *game = rf->game;
    if (index == SIZE_MAX)
        return append_frame(rf,
                            json_pack("{s:s, s:I, s:O}", "kind", "hand_started", "hand", (json_int_t)rf->hand->number,
                                      "game_state", rf->hand->game_state != NULL ? rf->hand->game_state : json_null()),
                            game_view_open(game, g));
    json_t *event = game->last_event(g);
    if (event == NULL)
        return true;
    json_object_set_new(event, "kind", json_string("action"));
    return append_frame(rf, event, game_view_open(game, g));
}

json_t *history_replay_json(const game_ops *game, const json_t *options, const char *code, const store_hand *hand,
                            const store_hand_summary *summary, int64_t player_id, char *msg, size_t msg_size)
{
    replay_frames rf = {.game = game, .hand = hand, .frames = json_array()};
    game_logged_action *log = calloc(hand->n_actions + 1, sizeof *log);
    if (log == NULL || rf.frames == NULL) {
        free(log);
        json_decref(rf.frames);
        snprintf(msg, msg_size, "The server is out of memory.");
        return NULL;
    }
    for (size_t i = 0; i < hand->n_actions; i++)
        log[i] = (game_logged_action){.seat = hand->actions[i].seat, .action = hand->actions[i].action};
    game_replay_error err;
    game_hand *g = game_replay(game, options, hand->seed, hand->game_state, log, hand->n_actions, add_frame, &rf, &err);
    json_t *request = g != NULL ? game_score_request(game, options, hand->deal, hand->game_state, log, hand->n_actions)
                                : NULL;
    free(log);
    if (g == NULL) {
        snprintf(msg, msg_size, "Hand %" PRId64 " does not replay: action %zu is refused (%s).", hand->number,
                 err.index + 1, err.code);
        json_decref(rf.frames);
        return NULL;
    }
    /* every seat's tiles are in the frames: a hand still being played must never get here */
    bool over = game->is_over(g) && !rf.failed;
    game->hand_free(g);
    if (rf.failed) {
        snprintf(msg, msg_size, "Hand %" PRId64 " cannot be shown open: a step's view could not be made.", hand->number);
        json_decref(rf.frames);
        json_decref(request);
        return NULL;
    }
    if (!over) {
        snprintf(msg, msg_size, "Hand %" PRId64 " is not finished; only a finished hand is replayed.", hand->number);
        json_decref(rf.frames);
        json_decref(request);
        return NULL;
    }
    int seat = seat_of_player(summary, player_id);
    return json_pack("{s:s, s:s, s:s, s:O, s:I, s:o, s:o, s:o, s:o}", "type", "replay", "table", code, "game",
                     game->name, "options", options != NULL ? options : json_null(), "hand", (json_int_t)hand->number,
                     "seat", seat >= 0 ? json_integer(seat) : json_null(), "players", players_json(summary), "frames",
                     rf.frames, "score_request", request != NULL ? request : json_null());
}
