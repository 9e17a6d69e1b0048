/*
 * table_client — see table_client.h. The leak check: at each hand_started the client learns its
 * own 8 tiles; a tile name may appear in a frame only if it is one of them or has been played
 * face up (or revealed as a natural hand) in this hand.
 */
#include "table_client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Kind index of a tile name, -1 if the string is not one (order does not matter here). */
static int tile_index(const char *s)
{
    static const char *const NAMES[21] = {"6-6", "1-1", "4-4", "1-3", "5-5", "3-3", "2-2", "5-6", "4-6", "1-6", "1-5",
                                          "3-6", "4-5", "2-6", "3-5", "2-5", "3-4", "2-4", "2-3", "1-4", "1-2"};
    for (int i = 0; i < 21; i++)
        if (strcmp(s, NAMES[i]) == 0)
            return i;
    return -1;
}

static void mark_tiles(const json_t *list, bool set[21])
{
    size_t i;
    json_t *t;
    json_array_foreach(list, i, t)
    {
        int k = json_is_string(t) ? tile_index(json_string_value(t)) : -1;
        if (k >= 0)
            set[k] = true;
    }
}

/* Every tile name anywhere in the value must be allowed. */
static bool all_visible(const table_client *c, const json_t *v)
{
    if (json_is_string(v)) {
        int k = tile_index(json_string_value(v));
        return k < 0 || c->own[k] || c->public_tiles[k];
    }
    if (json_is_array(v)) {
        size_t i;
        json_t *item;
        json_array_foreach(v, i, item) if (!all_visible(c, item)) return false;
    }
    if (json_is_object(v)) {
        const char *key;
        json_t *item;
        json_object_foreach((json_t *)v, key, item) if (!all_visible(c, item)) return false;
    }
    return true;
}

static void learn_from_view(table_client *c, const json_t *view)
{
    if (!json_is_object(view))
        return;
    json_t *natural = json_object_get(view, "natural");
    if (json_is_object(natural))
        mark_tiles(json_object_get(natural, "tiles"), c->public_tiles);
    json_decref(c->last_view);
    c->last_view = json_incref((json_t *)view);
}

/* A replay is of a finished hand only, and then nothing in it is hidden any more: every frame
 * shows every seat's tiles ("hands"), and the last is over. A replay of a hand still being
 * played, or one whose frames are not the open view, counts as a leak. */
static bool replay_visible(const table_client *c, const json_t *replay)
{
    (void)c;
    json_t *frames = json_object_get(replay, "frames");
    size_t n = json_array_size(frames);
    if (n == 0)
        return false;
    size_t i;
    json_t *f;
    json_array_foreach(frames, i, f) if (json_array_size(json_object_get(json_object_get(f, "view"), "hands")) != 4) return false;
    return json_is_true(json_object_get(json_object_get(json_array_get(frames, n - 1), "view"), "over"));
}

/* Updates what the client may see from one frame, then checks the frame against it. */
static void record(table_client *c, json_t *frame)
{
    c->frames++;
    const char *type = json_string_value(json_object_get(frame, "type"));
    if (json_is_integer(json_object_get(frame, "seq")))
        c->last_seq = (long long)json_integer_value(json_object_get(frame, "seq"));
    if (type != NULL && strcmp(type, "replay") == 0) {
        if (!replay_visible(c, frame)) {
            c->leaks++;
            fprintf(stderr, "%s sees a hidden tile in a replay\n", c->name);
        }
        return;
    }
    if (type != NULL && strcmp(type, "history") == 0)
        return; /* results of finished hands: public */
    json_t *event = json_object_get(frame, "event");
    const char *kind = json_string_value(json_object_get(event, "kind"));
    json_t *view = json_object_get(frame, "view");
    if (type != NULL && strcmp(type, "snapshot") == 0) {
        json_t *seat = json_object_get(frame, "seat");
        c->seat = json_is_integer(seat) ? (int)json_integer_value(seat) : -1;
        memset(c->own, 0, sizeof c->own);
        memset(c->public_tiles, 0, sizeof c->public_tiles);
        /* a snapshot mid-hand: what is on the table is public; the hand is its own */
        if (json_is_object(view)) {
            mark_tiles(json_object_get(view, "hand"), c->own);
            json_t *trick;
            size_t i;
            json_array_foreach(json_object_get(view, "tricks"), i, trick)
            {
                json_t *play;
                size_t j;
                json_array_foreach(json_object_get(trick, "plays"), j, play)
                    mark_tiles(json_object_get(play, "play"), c->public_tiles);
            }
            json_t *play;
            json_array_foreach(json_object_get(json_object_get(view, "trick"), "plays"), i, play)
                mark_tiles(json_object_get(play, "play"), c->public_tiles);
        }
    }
    if (type != NULL && strcmp(type, "events") == 0) { /* what a resumed connection missed */
        size_t i;
        json_t *missed;
        json_array_foreach(json_object_get(frame, "events"), i, missed)
            mark_tiles(json_object_get(json_object_get(missed, "event"), "play"), c->public_tiles);
    }
    if (kind != NULL && strcmp(kind, "hand_started") == 0) {
        memset(c->own, 0, sizeof c->own);
        memset(c->public_tiles, 0, sizeof c->public_tiles);
        if (json_is_object(view))
            mark_tiles(json_object_get(view, "hand"), c->own);
    }
    if (kind != NULL && strcmp(kind, "action") == 0)
        mark_tiles(json_object_get(event, "play"), c->public_tiles);
    if (kind != NULL && strcmp(kind, "seat_taken") == 0 && strcmp(json_string_value(json_object_get(event, "player")),
                                                                  c->player_id) == 0)
        c->seat = (int)json_integer_value(json_object_get(event, "seat"));
    if (kind != NULL && strcmp(kind, "paused") == 0) {
        c->pauses++;
        snprintf(c->pause_store, sizeof c->pause_store, "%s", json_string_value(json_object_get(event, "store")));
    }
    if (kind != NULL && strcmp(kind, "hand_over") == 0) {
        c->hands_over++;
        json_decref(c->last_result);
        c->last_result = json_incref(json_object_get(event, "result"));
        char number[24];
        snprintf(number, sizeof number, "%" JSON_INTEGER_FORMAT, json_integer_value(json_object_get(event, "hand")));
        if (c->results == NULL)
            c->results = json_object();
        json_object_set(c->results, number, json_object_get(event, "result"));
    }
    learn_from_view(c, view);
    if (!all_visible(c, frame)) {
        c->leaks++;
        char *text = json_dumps(frame, JSON_COMPACT);
        fprintf(stderr, "%s sees a hidden tile in: %.600s\n", c->name, text);
        free(text);
    }
}

json_t *tc_next(table_client *c, int timeout_ms)
{
    ws_message m;
    if (ws_client_recv(c->ws, &m, timeout_ms) != WS_CLIENT_OK)
        return NULL;
    json_t *frame = json_loadb(m.data, m.len, 0, NULL);
    if (getenv("TC_TRACE") != NULL) /* every frame, to see what a failing test saw */
        fprintf(stderr, "%s <- %.*s\n", c->name, (int)(m.len < 300 ? m.len : 300), m.data);
    if (frame != NULL)
        record(c, frame);
    return frame;
}

json_t *tc_request(table_client *c, json_t *message, int timeout_ms)
{
    int id = ++c->next_id;
    json_object_set_new(message, "id", json_integer(id));
    char *text = json_dumps(message, JSON_COMPACT);
    json_decref(message);
    ws_client_send_text(c->ws, text, strlen(text));
    free(text);
    for (int waited = 0; waited < timeout_ms; waited += 50) {
        json_t *frame = tc_next(c, 50);
        if (frame == NULL)
            continue;
        if (json_integer_value(json_object_get(frame, "id")) == id)
            return frame;
        json_decref(frame);
    }
    return NULL;
}

bool tc_connect(table_client *c, const char *host, int port, const char *name, const char *token)
{
    memset(c, 0, sizeof *c);
    c->seat = -1;
    snprintf(c->name, sizeof c->name, "%s", name);
    char error[128];
    c->ws = ws_client_connect(host, port, "/ws", 5000, error, sizeof error);
    if (c->ws == NULL)
        return false;
    json_t *hello = json_pack("{s:s, s:i, s:s}", "type", "hello", "v", 1, "name", name);
    if (token != NULL)
        json_object_set_new(hello, "token", json_string(token));
    json_t *welcome = tc_request(c, hello, 5000);
    if (welcome == NULL || strcmp(json_string_value(json_object_get(welcome, "type")), "welcome") != 0) {
        json_decref(welcome);
        return false;
    }
    snprintf(c->token, sizeof c->token, "%s", json_string_value(json_object_get(welcome, "token")));
    snprintf(c->player_id, sizeof c->player_id, "%s",
             json_string_value(json_object_get(json_object_get(welcome, "player"), "id")));
    json_decref(welcome);
    return true;
}

bool tc_act_if_my_turn(table_client *c, int timeout_ms)
{
    json_t *view = c->last_view;
    json_t *legal = json_object_get(view, "legal");
    if (!json_is_object(legal) || c->seat < 0 || json_integer_value(json_object_get(view, "to_act")) != c->seat ||
        json_is_true(json_object_get(view, "over")))
        return false;
    json_t *plays = json_object_get(legal, "plays");
    json_t *action;
    if (json_array_size(plays) > 0) {
        action = json_pack("{s:O}", "play", json_array_get(plays, 0));
    } else {
        size_t n = (size_t)json_integer_value(json_object_get(legal, "discard"));
        json_t *tiles = json_array();
        for (size_t i = 0; i < n; i++)
            json_array_append(tiles, json_array_get(json_object_get(view, "hand"), i));
        action = json_pack("{s:o}", "discard", tiles);
    }
    json_t *reply = tc_request(c, json_pack("{s:s, s:s, s:o}", "type", "act", "code", c->code, "action", action),
                               timeout_ms);
    bool ok = reply != NULL && strcmp(json_string_value(json_object_get(reply, "type")), "ok") == 0;
    if (!ok) {
        char *text = reply ? json_dumps(reply, JSON_COMPACT) : NULL;
        fprintf(stderr, "%s: act refused: %s\n", c->name, text ? text : "(no reply)");
        free(text);
    }
    json_decref(reply);
    return ok;
}

bool tc_play_until(table_client *c, int hands, int timeout_ms, bool play)
{
    for (int waited = 0; waited < timeout_ms && c->hands_over < hands; waited += 20) {
        if (play)
            tc_act_if_my_turn(c, 2000);
        json_t *frame = tc_next(c, 20);
        json_decref(frame);
    }
    return c->hands_over >= hands;
}

void tc_close(table_client *c)
{
    if (c->ws != NULL)
        ws_client_close(c->ws, 1000, 1000);
    c->ws = NULL;
    json_decref(c->last_view);
    json_decref(c->last_result);
    json_decref(c->results);
    c->last_view = c->last_result = c->results = NULL;
}
