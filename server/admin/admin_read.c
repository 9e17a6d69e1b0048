/*
 * admin_read — players, tables and one hand for admins. The reads (store_reader.h) run on libuv's
 * thread pool over a read-only connection of their own, so a heavy page never stalls the loop nor
 * the store's writer; a hand is also replayed there, through the engine (games/game_replay.h),
 * into every step's admin view. Back on the loop the answer is sent (a hand only once its viewing
 * is in the audit log).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin_internal.h"
#include "game.h"
#include "game_replay.h"

#define PAGE_DEFAULT 50

/* ---- Off the loop ---- */

static store_status read_players(admin_req *r, store_reader *rd)
{
    return store_reader_players(rd, &r->players, &r->answer, &r->error);
}

static store_status read_player(admin_req *r, store_reader *rd)
{
    return store_reader_player(rd, r->id, &r->answer, &r->error);
}

static store_status read_tables(admin_req *r, store_reader *rd)
{
    return store_reader_tables(rd, &r->tables, &r->answer, &r->error);
}

/* Each hand's stored result becomes its `summary`: the keys its game shows in a listing. */
static void summarise_hands(json_t *answer)
{
    const game_ops *game = game_find(json_string_value(json_object_get(json_object_get(answer, "table"), "game")));
    size_t i;
    json_t *hand;
    json_array_foreach(json_object_get(answer, "hands"), i, hand) {
        json_t *result = json_object_get(hand, "result");
        json_t *summary = json_object();
        for (const char *const *key = game ? game->result_summary_keys : NULL; key && *key; key++) {
            json_t *value = json_object_get(result, *key);
            if (value != NULL)
                json_object_set(summary, *key, value);
        }
        json_object_set_new(hand, "summary", json_is_object(result) ? summary : json_null());
        if (!json_is_object(result))
            json_decref(summary);
        json_object_del(hand, "result");
    }
}

static store_status read_table(admin_req *r, store_reader *rd)
{
    store_status status = store_reader_table(rd, r->id, &r->answer, &r->error);
    if (status == STORE_OK)
        summarise_hands(r->answer);
    return status;
}

static store_status read_hand(admin_req *r, store_reader *rd)
{
    json_t *stored = NULL;
    if (store_reader_hand(rd, r->id, &stored, &r->error) != STORE_OK)
        return r->error.status;
    char why[GAME_MESSAGE_SIZE + 64] = "";
    r->answer = admin_hand_steps(stored, why, sizeof why);
    json_decref(stored);
    if (r->answer == NULL) {
        r->error.status = STORE_CORRUPT;
        snprintf(r->error.message, sizeof r->error.message, "Hand %" PRId64 " does not replay: %.400s", r->id, why);
    }
    return r->error.status;
}

static void work(uv_work_t *w)
{
    admin_req *r = w->data;
    r->error = (store_error){.status = STORE_OK};
    store_reader *rd = store_reader_open(r->a->config.db_path, r->a->config.ledger_key_path, &r->error);
    if (rd == NULL)
        return;
    switch (r->route) {
    case ROUTE_PLAYERS:
        read_players(r, rd);
        break;
    case ROUTE_PLAYER:
        read_player(r, rd);
        break;
    case ROUTE_TABLES:
        read_tables(r, rd);
        break;
    case ROUTE_TABLE:
        read_table(r, rd);
        break;
    case ROUTE_HAND:
        read_hand(r, rd);
        break;
    default:
        r->error.status = STORE_INTERNAL;
        snprintf(r->error.message, sizeof r->error.message, "No such read.");
        break;
    }
    store_reader_close(rd);
}

/* ---- Back on the loop ---- */

static void on_hand_audited(void *ctx, const store_error *error, int64_t id)
{
    admin_req *r = ctx;
    (void)id;
    json_t *answer = r->answer;
    r->answer = NULL;
    if (error->status != STORE_OK) {
        json_decref(answer);
        admin_finish_store_error(r, error);
        return;
    }
    admin_finish_json(r, 200, answer);
}

static void after_work(uv_work_t *w, int status)
{
    admin_req *r = w->data;
    if (status != 0 || r->error.status != STORE_OK) {
        json_decref(r->answer);
        r->answer = NULL;
        if (status != 0) {
            r->error.status = STORE_CLOSED;
            snprintf(r->error.message, sizeof r->error.message, "The read was cancelled.");
        }
        admin_finish_store_error(r, &r->error);
        return;
    }
    if (r->route == ROUTE_HAND) {
        json_t *details = json_pack("{s:I}", "hand", (json_int_t)r->id);
        bool asked = store_audit_append(r->a->st, r->session.player_id, "hand.view", details, on_hand_audited, r);
        json_decref(details);
        if (!asked) {
            json_decref(r->answer);
            r->answer = NULL;
            admin_finish_closed(r);
        }
        return;
    }
    json_t *answer = r->answer;
    r->answer = NULL;
    admin_finish_json(r, 200, answer);
}

static void read_off_loop(admin_req *r)
{
    if (r->a->config.db_path == NULL) {
        admin_finish_error(r, 503, "unsupported", "This server keeps no database to read.");
        return;
    }
    r->work.data = r;
    if (uv_queue_work(r->a->loop, &r->work, work, after_work) != 0)
        admin_finish_closed(r);
}

/* ---- The routes ---- */

void admin_players(admin_req *r)
{
    char why[160] = "";
    int64_t limit = PAGE_DEFAULT;
    store_player_filter *f = &r->players;
    if (!admin_text_param(r->request, "q", f->q, sizeof f->q, why, sizeof why) ||
        !admin_text_param(r->request, "kind", f->kind, sizeof f->kind, why, sizeof why) ||
        !admin_int_param(r->request, "before", 1, INT64_MAX, &f->before, why, sizeof why) ||
        !admin_int_param(r->request, "limit", 1, STORE_READER_PAGE_MAX, &limit, why, sizeof why)) {
        admin_finish_error(r, 400, "bad_filter", why);
        return;
    }
    if (f->kind[0] && strcmp(f->kind, "guest") != 0 && strcmp(f->kind, "account") != 0) {
        admin_finish_error(r, 400, "bad_filter", "'kind' is guest or account.");
        return;
    }
    f->limit = (int)limit;
    read_off_loop(r);
}

void admin_player(admin_req *r)
{
    read_off_loop(r);
}

void admin_tables(admin_req *r)
{
    char why[160] = "";
    int64_t limit = PAGE_DEFAULT;
    store_table_filter *f = &r->tables;
    if (!admin_text_param(r->request, "code", f->code, sizeof f->code, why, sizeof why) ||
        !admin_text_param(r->request, "game", f->game, sizeof f->game, why, sizeof why) ||
        !admin_text_param(r->request, "state", f->state, sizeof f->state, why, sizeof why) ||
        !admin_int_param(r->request, "before", 1, INT64_MAX, &f->before, why, sizeof why) ||
        !admin_int_param(r->request, "limit", 1, STORE_READER_PAGE_MAX, &limit, why, sizeof why)) {
        admin_finish_error(r, 400, "bad_filter", why);
        return;
    }
    if (f->state[0] && strcmp(f->state, "open") != 0 && strcmp(f->state, "closed") != 0) {
        admin_finish_error(r, 400, "bad_filter", "'state' is open or closed.");
        return;
    }
    f->limit = (int)limit;
    read_off_loop(r);
}

void admin_table(admin_req *r)
{
    read_off_loop(r);
}

void admin_hand(admin_req *r)
{
    read_off_loop(r);
}

/* ---- A hand, step by step ---- */

typedef struct steps_ctx {
    const game_ops *game;
    const game_logged_action *actions;
    json_t *steps;
} steps_ctx;

static bool on_step(void *ctx, const game_hand *hand, size_t index)
{
    steps_ctx *s = ctx;
    if (index == SIZE_MAX) {
        json_array_append_new(s->steps, json_pack("{s:i, s:n, s:n, s:n, s:o}", "n", 0, "seat", "action", "event",
                                                  "view", s->game->view_admin(hand)));
        return true;
    }
    json_t *event = s->game->last_event(hand);
    json_array_append_new(s->steps, json_pack("{s:I, s:i, s:O, s:o, s:o}", "n", (json_int_t)index + 1, "seat",
                                              s->actions[index].seat, "action", s->actions[index].action, "event",
                                              event ? event : json_null(), "view", s->game->view_admin(hand)));
    return true;
}

json_t *admin_hand_steps(json_t *stored, char *why, size_t cap)
{
    json_t *hand = json_object_get(stored, "hand");
    json_t *replay = json_object_get(stored, "replay");
    json_t *logged = json_object_get(replay, "actions");
    const game_ops *game = game_find(json_string_value(json_object_get(hand, "game")));
    json_t *steps = json_array();
    if (game != NULL) { /* an adjustment is a hand of no game: it has no steps */
        size_t n = json_array_size(logged);
        game_logged_action *actions = calloc(n ? n : 1, sizeof *actions);
        if (actions == NULL) {
            json_decref(steps);
            snprintf(why, cap, "out of memory");
            return NULL;
        }
        for (size_t i = 0; i < n; i++) {
            const json_t *a = json_array_get(logged, i);
            actions[i] = (game_logged_action){.seat = (int)json_integer_value(json_object_get(a, "seat")),
                                              .action = json_object_get(a, "action")};
        }
        steps_ctx ctx = {.game = game, .actions = actions, .steps = steps};
        game_replay_error err;
        const uint64_t seed = (uint64_t)json_integer_value(json_object_get(replay, "seed"));
        game_hand *h = game_replay(game, json_object_get(hand, "options"), seed, json_object_get(hand, "game_state"),
                                   actions, n, on_step, &ctx, &err);
        free(actions);
        if (h == NULL) {
            json_decref(steps);
            snprintf(why, cap, "action %zu: %s", err.index + 1, err.message);
            return NULL;
        }
        game->hand_free(h);
    }
    return json_pack("{s:O, s:O, s:o}", "hand", hand, "lines", json_object_get(stored, "lines"), "steps", steps);
}
