/*
 * admin_integrity — the integrity check (admin_integrity.h) and the admin API's background run of
 * it: POST integrity starts it on a thread of its own (one at a time), GET integrity reads its
 * progress and problems. The thread reads over its own read-only connection, so neither the loop
 * nor the store's writer waits for it; the loop only polls the counters (under their lock) when
 * asked, so no wake-up crosses threads.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin_integrity.h"
#include "admin_internal.h"
#include "game.h"
#include "game_replay.h"
#include "log.h"

/* ---- The check ---- */

bool integrity_progress_init(integrity_progress *p)
{
    memset(p, 0, sizeof *p);
    return uv_mutex_init(&p->lock) == 0;
}

void integrity_progress_destroy(integrity_progress *p)
{
    uv_mutex_destroy(&p->lock);
}

static void problem(integrity_progress *p, const char *check, int64_t hand, int64_t row, const char *format, ...)
    __attribute__((format(printf, 5, 6)));

static void problem(integrity_progress *p, const char *check, int64_t hand, int64_t row, const char *format, ...)
{
    uv_mutex_lock(&p->lock);
    p->problems_total++;
    if (p->n_problems < INTEGRITY_PROBLEMS_MAX) {
        integrity_problem *q = &p->problems[p->n_problems++];
        snprintf(q->check, sizeof q->check, "%s", check);
        q->hand = hand;
        q->row = row;
        va_list args;
        va_start(args, format);
        vsnprintf(q->message, sizeof q->message, format, args);
        va_end(args);
    }
    uv_mutex_unlock(&p->lock);
}

/* The replayed hand's ledger lines against the stored rows; false (problem noted) at the first
 * difference. */
static bool lines_match(integrity_progress *p, const store_scan_hand *h, const game_result *res)
{
    const size_t n = h->n_lines < (size_t)res->n_lines ? h->n_lines : (size_t)res->n_lines;
    for (size_t i = 0; i < n; i++) {
        const store_scan_line *l = &h->lines[i];
        const game_ledger_line *g = &res->lines[i];
        if (l->seat != g->seat || l->units != g->units || strcmp(l->reason, g->reason) != 0) {
            problem(p, "replay", h->id, l->id,
                    "row %" PRId64 " is seat %d, %" PRId64 " units, \"%s\"; the replay gives seat %d, %" PRId64
                    " units, \"%s\"",
                    l->id, l->seat, l->units, l->reason, g->seat, g->units, g->reason);
            return false;
        }
    }
    if (h->n_lines != (size_t)res->n_lines) {
        problem(p, "replay", h->id, h->n_lines > n ? h->lines[n].id : 0,
                "the hand has %zu ledger rows; its replay gives %d", h->n_lines, res->n_lines);
        return false;
    }
    return true;
}

static void replay_hand(integrity_progress *p, const game_ops *game, const store_scan_hand *h)
{
    game_logged_action stack[256] = {{0}};
    game_logged_action *actions = h->n_actions <= 256 ? stack : calloc(h->n_actions, sizeof *actions);
    if (actions == NULL) {
        problem(p, "replay", h->id, 0, "out of memory replaying the hand");
        return;
    }
    for (size_t i = 0; i < h->n_actions; i++)
        actions[i] = (game_logged_action){.seat = h->actions[i].seat, .action = h->actions[i].action};
    game_replay_error err;
    game_hand *hand = game_replay(game, h->options, h->seed, h->state, actions, h->n_actions, NULL, NULL, &err);
    if (actions != stack)
        free(actions);
    if (hand == NULL) {
        problem(p, "replay", h->id, 0, "its action %zu is refused by the engine: %s", err.index + 1, err.message);
        return;
    }
    if (!game->is_over(hand)) {
        problem(p, "replay", h->id, 0, "its stored actions do not finish the hand");
    } else {
        json_t *result = game->result_json(hand);
        if (h->result == NULL || !json_equal(result, h->result)) {
            problem(p, "replay", h->id, h->n_lines ? h->lines[0].id : 0,
                    "its stored result differs from the result its replay gives");
        } else {
            game_result res;
            game->result(hand, &res);
            lines_match(p, h, &res);
        }
        json_decref(result);
    }
    game->hand_free(hand);
}

static bool check_hand(void *ctx, const store_scan_hand *h)
{
    integrity_progress *p = ctx;
    int64_t sum = 0;
    for (size_t i = 0; i < h->n_lines; i++)
        sum += h->lines[i].units;
    if (sum != 0)
        problem(p, "zero_sum", h->id, h->n_lines ? h->lines[0].id : 0, "its %zu ledger rows sum to %" PRId64 ", not zero",
                h->n_lines, sum);
    const game_ops *game = game_find(h->game);
    if (game != NULL) /* an adjustment's hand is of no game: nothing to replay */
        replay_hand(p, game, h);
    uv_mutex_lock(&p->lock);
    p->hands_checked++;
    const bool go_on = !p->cancel;
    uv_mutex_unlock(&p->lock);
    return go_on;
}

static void check_chain(integrity_progress *p, store_reader *rd, const store_ledger_check *check)
{
    (void)rd;
    uv_mutex_lock(&p->lock);
    p->rows_checked = check->rows_checked;
    uv_mutex_unlock(&p->lock);
    /* A hand that does not sum to zero is the scan's to name (with its hand); every other fault is
     * the chain's. */
    if (!check->ok && strstr(check->why, "sum to") == NULL)
        problem(p, "chain", 0, check->first_bad_row, "row %" PRId64 ": %s", check->first_bad_row, check->why);
}

void integrity_cancel(integrity_progress *p)
{
    uv_mutex_lock(&p->lock);
    p->cancel = true;
    if (p->reader != NULL)
        store_reader_interrupt(p->reader);
    uv_mutex_unlock(&p->lock);
}

/* Publishes the check's connection (or NULL) for integrity_cancel; false when already cancelled. */
static bool publish_reader(integrity_progress *p, store_reader *rd)
{
    uv_mutex_lock(&p->lock);
    p->reader = rd;
    const bool go_on = !p->cancel;
    uv_mutex_unlock(&p->lock);
    return go_on;
}

bool integrity_check(const char *db_path, const char *key_path, bool with_chain, integrity_progress *p,
                     store_error *error)
{
    store_reader *rd = store_reader_open(db_path, key_path, error);
    if (rd == NULL)
        return false;
    if (!publish_reader(p, rd)) {
        store_reader_close(rd);
        return true; /* cancelled before it began */
    }
    int64_t hands, rows;
    bool ok = store_reader_counts(rd, &hands, &rows, error) == STORE_OK;
    if (ok) {
        uv_mutex_lock(&p->lock);
        p->hands_total = hands;
        p->rows_total = with_chain ? rows : 0;
        uv_mutex_unlock(&p->lock);
    }
    if (ok && with_chain) {
        store_ledger_check check;
        ok = store_reader_verify_chain(rd, &check, error) == STORE_OK;
        if (ok)
            check_chain(p, rd, &check);
    }
    if (ok)
        ok = store_reader_scan(rd, check_hand, p, error) == STORE_OK;
    publish_reader(p, NULL);
    store_reader_close(rd);
    return ok;
}

/* ---- The background run ---- */

typedef enum run_state { RUN_IDLE, RUN_RUNNING, RUN_DONE } run_state;

struct admin_integrity {
    integrity_progress progress;    /* its lock also guards the fields below */
    run_state state;
    int64_t started_at, finished_at;
    char error[STORE_MESSAGE_SIZE]; /* why the check could not run, "" when it ran */
    bool joinable;                  /* a thread was started and not joined yet */
    uv_thread_t thread;
    char *db_path, *key_path;
};

static int64_t wall_ms(void)
{
    uv_timeval64_t tv;
    uv_gettimeofday(&tv);
    return (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

admin_integrity *admin_integrity_create(void)
{
    admin_integrity *ig = calloc(1, sizeof *ig);
    if (ig == NULL || !integrity_progress_init(&ig->progress)) {
        free(ig);
        return NULL;
    }
    return ig;
}

static void join(admin_integrity *ig)
{
    if (ig->joinable)
        uv_thread_join(&ig->thread);
    ig->joinable = false;
}

void admin_integrity_destroy(admin_integrity *ig)
{
    if (ig == NULL)
        return;
    integrity_cancel(&ig->progress);
    join(ig);
    integrity_progress_destroy(&ig->progress);
    free(ig->db_path);
    free(ig->key_path);
    free(ig);
}

static void run(void *arg)
{
    admin_integrity *ig = arg;
    store_error error = {.status = STORE_OK};
    bool ran = integrity_check(ig->db_path, ig->key_path, true, &ig->progress, &error);
    uv_mutex_lock(&ig->progress.lock);
    if (!ran)
        snprintf(ig->error, sizeof ig->error, "%s", error.message);
    ig->finished_at = wall_ms();
    ig->state = RUN_DONE;
    uv_mutex_unlock(&ig->progress.lock);
}

static bool running(admin_integrity *ig)
{
    uv_mutex_lock(&ig->progress.lock);
    bool is = ig->state == RUN_RUNNING;
    uv_mutex_unlock(&ig->progress.lock);
    return is;
}

static void answer_running(admin_req *r)
{
    admin_finish_error(r, 409, "running", "An integrity check is running already: wait for it to finish.");
}

static void on_start_audited(void *ctx, const store_error *error, int64_t id)
{
    admin_req *r = ctx;
    (void)id;
    admin_integrity *ig = r->a->integrity;
    if (error->status != STORE_OK) {
        admin_finish_store_error(r, error);
        return;
    }
    if (running(ig)) { /* another start won the race while this one was audited */
        answer_running(r);
        return;
    }
    join(ig);
    integrity_progress *p = &ig->progress;
    uv_mutex_lock(&p->lock);
    p->hands_checked = p->hands_total = p->rows_checked = p->rows_total = 0;
    p->n_problems = 0;
    p->problems_total = 0;
    p->cancel = false;
    ig->error[0] = '\0';
    ig->started_at = wall_ms();
    ig->finished_at = 0;
    ig->state = RUN_RUNNING;
    uv_mutex_unlock(&p->lock);
    free(ig->db_path);
    free(ig->key_path);
    ig->db_path = strdup(r->a->config.db_path);
    ig->key_path = r->a->config.ledger_key_path ? strdup(r->a->config.ledger_key_path) : NULL;
    if (ig->db_path == NULL || uv_thread_create(&ig->thread, run, ig) != 0) {
        uv_mutex_lock(&p->lock);
        ig->state = RUN_IDLE;
        uv_mutex_unlock(&p->lock);
        admin_finish_error(r, 500, "internal", "The integrity check could not start.");
        return;
    }
    ig->joinable = true;
    log_info("admin: integrity check started by player %" PRId64, r->session.player_id);
    admin_finish_json(r, 202, json_pack("{s:s}", "state", "running"));
}

void admin_integrity_start(admin_req *r)
{
    if (r->a->config.db_path == NULL) {
        admin_finish_error(r, 503, "unsupported", "This server keeps no database to check.");
        return;
    }
    if (running(r->a->integrity)) {
        answer_running(r);
        return;
    }
    if (!store_audit_append(r->a->st, r->session.player_id, "integrity.start", NULL, on_start_audited, r))
        admin_finish_closed(r);
}

static json_t *time_or_null(int64_t ms)
{
    return ms ? json_integer(ms) : json_null();
}

void admin_integrity_status(admin_req *r)
{
    admin_integrity *ig = r->a->integrity;
    integrity_progress *p = &ig->progress;
    static const char *const STATES[] = {"idle", "running", "done"};
    uv_mutex_lock(&p->lock);
    json_t *problems = json_array();
    for (int i = 0; i < p->n_problems; i++) {
        const integrity_problem *q = &p->problems[i];
        json_array_append_new(problems, json_pack("{s:s, s:o, s:o, s:s}", "check", q->check, "hand",
                                                  q->hand ? json_integer(q->hand) : json_null(), "row",
                                                  q->row ? json_integer(q->row) : json_null(), "message", q->message));
    }
    const bool done = ig->state == RUN_DONE;
    json_t *body = json_pack("{s:s, s:o, s:o, s:I, s:I, s:I, s:I, s:o, s:I, s:o}", "state", STATES[ig->state],
                             "started_at", time_or_null(ig->started_at), "finished_at", time_or_null(ig->finished_at),
                             "hands_checked", (json_int_t)p->hands_checked, "hands_total", (json_int_t)p->hands_total,
                             "rows_checked", (json_int_t)p->rows_checked, "rows_total", (json_int_t)p->rows_total,
                             "problems", problems, "problems_total", (json_int_t)p->problems_total, "ok",
                             done && ig->error[0] == '\0' ? json_boolean(p->problems_total == 0) : json_null());
    if (body && ig->error[0])
        json_object_set_new(body, "error", json_string(ig->error));
    uv_mutex_unlock(&p->lock);
    admin_finish_json(r, 200, body);
}
