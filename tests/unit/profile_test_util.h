/*
 * profile_test_util — a small world of players, tables and finished hands written through the
 * store's own requests, for the profile's suites (test_store_profile on both backends,
 * test_profile through the lobby). Each helper waits for its answer, running the loop.
 */
#ifndef PROFILE_TEST_UTIL_H
#define PROFILE_TEST_UTIL_H

#include <check.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>
#include <uv.h>

#include "store.h"

typedef struct pt_answer {
    bool called;
    store_error error;
    int64_t id;
} pt_answer;

static void pt_on_id(void *ctx, const store_error *error, int64_t id)
{
    pt_answer *a = ctx;
    a->called = true;
    a->error = *error;
    a->id = id;
}

static void pt_on_done(void *ctx, const store_error *error)
{
    pt_on_id(ctx, error, 0);
}

static inline int64_t pt_wait(uv_loop_t *loop, pt_answer *a)
{
    while (!a->called)
        uv_run(loop, UV_RUN_ONCE);
    ck_assert_msg(a->error.status == STORE_OK, "%s: %s", store_status_name(a->error.status), a->error.message);
    return a->id;
}

static inline int64_t pt_guest(uv_loop_t *loop, store *st, const char *nickname)
{
    pt_answer a = {0};
    ck_assert(store_player_save(st, 0, nickname, pt_on_id, &a));
    return pt_wait(loop, &a);
}

/* A table of game ("tiengow", "tianjin") with that code, public or not, seated by player and bots. */
static inline int64_t pt_table(uv_loop_t *loop, store *st, const char *game, const char *code, bool is_public,
                               int64_t player)
{
    store_table t;
    memset(&t, 0, sizeof t);
    snprintf(t.game, sizeof t.game, "%s", game);
    snprintf(t.code, sizeof t.code, "%s", code);
    snprintf(t.state, sizeof t.state, "waiting");
    t.options = json_object();
    t.game_state = json_object();
    t.is_public = is_public;
    t.turn_seconds = 30;
    t.host_player_id = player;
    t.seats[0].player_id = player;
    for (int s = 1; s < STORE_SEATS; s++)
        t.seats[s].bot = true;
    pt_answer a = {0};
    ck_assert(store_table_save(st, &t, pt_on_id, &a));
    int64_t id = pt_wait(loop, &a);
    json_decref(t.options);
    json_decref(t.game_state);
    return id;
}

/* Closes table id (saved again with state "closed"); the other fields as pt_table made them. */
static inline void pt_close(uv_loop_t *loop, store *st, int64_t id, const char *game, const char *code, bool is_public,
                            int64_t player)
{
    store_table t;
    memset(&t, 0, sizeof t);
    t.id = id;
    snprintf(t.game, sizeof t.game, "%s", game);
    snprintf(t.code, sizeof t.code, "%s", code);
    snprintf(t.state, sizeof t.state, "closed");
    t.options = json_object();
    t.game_state = json_object();
    t.is_public = is_public;
    t.turn_seconds = 30;
    t.host_player_id = player;
    pt_answer a = {0};
    ck_assert(store_table_save(st, &t, pt_on_id, &a));
    pt_wait(loop, &a);
    json_decref(t.options);
    json_decref(t.game_state);
}

/* Hand `number` of the table, finished at once: player (seat 0) wins `units` from the bot of seat 1
 * (a second player, when other is not 0, sits at seat 2 and wins nothing). */
static inline void pt_hand(uv_loop_t *loop, store *st, int64_t table, int64_t number, int64_t player, int64_t units,
                           int64_t other)
{
    json_t *deal = json_array();
    json_t *state = json_object();
    store_hand_start h = {.table_id = table, .number = number, .seed = 7, .deal = deal, .game_state = state};
    pt_answer begun = {0};
    ck_assert(store_hand_begin(st, &h, pt_on_id, &begun));
    int64_t hand = pt_wait(loop, &begun);
    store_ledger_entry e[3] = {{.player_id = player, .seat = 0, .units = units},
                               {.player_id = 0, .seat = 1, .units = -units},
                               {.player_id = other, .seat = 2, .units = 0}};
    for (int i = 0; i < 3; i++)
        snprintf(e[i].reason, sizeof e[i].reason, "settle");
    json_t *result = json_pack("{s:s}", "winner", "seat 0");
    store_hand_end end = {.hand_id = hand, .result = result, .entries = e, .n_entries = other != 0 ? 3 : 2,
                          .next_game_state = state};
    pt_answer done = {0};
    ck_assert(store_hand_finish(st, &end, pt_on_done, &done));
    pt_wait(loop, &done);
    json_decref(result);
    json_decref(deal);
    json_decref(state);
}

#endif
