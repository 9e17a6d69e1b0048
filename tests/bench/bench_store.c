/*
 * bench_store — settled hands per second through the real store path (store.h on SQLite), and
 * the cost of recovering an unfinished hand after a restart.
 *
 * Hands are real Tien Gow hands (the engine and its bot on every seat, with the wire format of
 * protocol/tg_json: what games/tiengow writes), played once beforehand so the figure is the
 * store's, not the engine's. The bench speaks to the engine directly, so that it builds with the
 * store alone. Bots play pairs and quartets as one action, so their
 * hands have about 22 actions; the main figure stretches each hand to 30 actions by repeating its
 * own actions (the store does not read them), the second uses the hands as played. Then many tables run at once
 * on one uv loop, each as a room does: start the hand, then each action is sent only once the
 * previous one is committed (a client never sees what the database does not hold), and the last
 * action goes with the result, the ledger rows and the table's new game state in one request.
 * Concurrent tables are what lets the store thread group their writes into one commit.
 *
 * Recovery: tables are left mid-hand, the store is closed and opened again, and we time
 * store_open + store_recover (loading) and rebuilding each hand with the engine (replay).
 *
 *   bench_store [hands] [tables] [unfinished]     (defaults 20000, 256, 1000)
 *
 * With TEAHOUSE_BENCH_PG set to the URI of an empty PostgreSQL database, the same main figure
 * (30 actions a hand), the ledger check and the recovery run through PostgreSQL instead, e.g.
 *   tests/pg/with_cluster.sh sh -c 'psql "$TEAHOUSE_TEST_PG" -qc "CREATE DATABASE bench" &&
 *     TEAHOUSE_BENCH_PG="$(echo "$TEAHOUSE_TEST_PG" | sed s,/postgres?,/bench?,)" build/tests/bench/bench_store'
 *
 * The database lives in a new directory under $TMPDIR (default /tmp), removed at the end.
 * Exits 1 on any store error, a replay the engine refuses, or a ledger that does not verify.
 */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <uv.h>

#include "store.h"
#include "tg_bot.h"
#include "tg_hand.h"
#include "tg_json.h"
#include "tg_view.h"

#define RECORDED_HANDS 256
#define MAX_ACTIONS 128

#define SEATS TG_SEATS

typedef struct recorded_hand {
    uint64_t seed;
    json_t *game_state; /* {"banker":b,"multiplier":2}, as games/tiengow keeps it */
    json_t *deal;
    size_t n_actions;
    json_t *actions[MAX_ACTIONS];
    int seats[MAX_ACTIONS];
    json_t *result;
    int64_t net[SEATS];
    json_t *next_game_state;
} recorded_hand;

typedef struct bench bench;

typedef struct bench_table {
    bench *b;
    int64_t id;
    int64_t players[SEATS - 1]; /* seat 3 is a bot */
    int64_t number;
    int64_t hand_id;
    const recorded_hand *hand;
    size_t next_action;
    size_t stop_after; /* actions to write before leaving the hand unfinished (recovery phase) */
} bench_table;

struct bench {
    uv_loop_t loop;
    store *st;
    json_t *options;
    recorded_hand hands[RECORDED_HANDS];
    long target;
    long started;
    long finished;
    long actions;
    long unfinished_ready;
    size_t actions_per_hand; /* 0: as played */
    bool failed;
    char pg_key[320];        /* the ledger's key when the database is PostgreSQL's */
};

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time, user + system, of the whole process (all threads) or of the calling thread. */
static double cpu_seconds(int who)
{
    struct rusage ru;
    getrusage(who, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

static bool check(bench *b, const store_error *error, const char *what)
{
    if (error->status == STORE_OK)
        return true;
    fprintf(stderr, "bench_store: %s: %s: %s\n", what, store_status_name(error->status), error->message);
    b->failed = true;
    return false;
}

/* ---- Recording real hands ---- */

static json_t *deal_json(uint64_t seed)
{
    uint8_t deal[TG_SEATS][TG_HAND_TILES];
    tg_deal(seed, deal);
    json_t *seats = json_array();
    for (int s = 0; s < TG_SEATS; s++) {
        json_t *tiles = json_array();
        for (int i = 0; i < TG_HAND_TILES; i++)
            json_array_append_new(tiles, json_integer(deal[s][i]));
        json_array_append_new(seats, tiles);
    }
    return seats;
}

static json_t *state_json(int banker, uint32_t multiplier)
{
    return json_pack("{s:i, s:I}", "banker", banker, "multiplier", (json_int_t)multiplier);
}

/* A hand's result as games/tiengow records it (the same keys and sizes). */
static json_t *result_json(const tg_state *st)
{
    const tg_result *r = &st->result;
    json_t *qin = r->qin_captured >= 0 ? json_pack("{s:i}", "captured", r->qin_captured) : json_null();
    return json_pack("{s:i, s:I, s:o, s:i, s:o, s:o, s:o, s:o, s:o, s:i, s:I}", "banker", st->banker, "multiplier",
                     (json_int_t)st->multiplier, "qin", qin, "winner", r->winner, "stacks",
                     tgj_stacks_to_json(r->stacks), "endings", tgj_endings_to_json(r->endings), "bonuses",
                     tgj_bonuses_to_json(st->bonuses, st->n_bonuses, 1), "payments",
                     tgj_payments_to_json(&r->settlement, 1), "net", tgj_net_to_json(r->net, 1), "next_banker",
                     r->next_banker, "next_multiplier", (json_int_t)r->next_multiplier);
}

/* The bot's action for the seat to act, as a client sends it: {"play":[tiles]} or {"discard":[…]}. */
static json_t *bot_action(const tg_state *st, tg_action *out)
{
    tg_view view;
    tg_view_of(st, st->to_act, &view);
    if (!tg_bot_choose(&view, out))
        return NULL;
    return json_pack("{s:o}", out->kind == TG_PLAY ? "play" : "discard", tgj_tiles_to_json(out->tiles, out->n));
}

static bool record_hand(const tg_options *options, uint64_t seed, recorded_hand *out)
{
    memset(out, 0, sizeof *out);
    out->seed = seed;
    const int banker = tg_first_banker(seed);
    out->game_state = state_json(banker, 2);
    out->deal = deal_json(seed);
    uint8_t deal[TG_SEATS][TG_HAND_TILES];
    tg_deal(seed, deal);
    tg_state st;
    if (tg_start(&st, options, banker, 2, (const uint8_t(*)[TG_HAND_TILES])deal) != TG_OK)
        return false;
    while (!tg_is_over(&st) && out->n_actions < MAX_ACTIONS) {
        const int seat = st.to_act;
        tg_action action;
        json_t *json = bot_action(&st, &action);
        if (json == NULL || tg_apply_action(&st, &action) != TG_OK) {
            fprintf(stderr, "bench_store: the engine refused its bot's action\n");
            json_decref(json);
            return false;
        }
        out->seats[out->n_actions] = seat;
        out->actions[out->n_actions++] = json;
    }
    if (!tg_is_over(&st))
        return false;
    memcpy(out->net, st.result.net, sizeof out->net);
    out->next_game_state = state_json(st.result.next_banker, st.result.next_multiplier);
    out->result = result_json(&st);
    return true;
}

static void free_recorded(recorded_hand *h)
{
    json_decref(h->game_state);
    json_decref(h->next_game_state);
    json_decref(h->deal);
    json_decref(h->result);
    for (size_t i = 0; i < h->n_actions; i++)
        json_decref(h->actions[i]);
}

/* ---- Synchronous set-up helpers ---- */

typedef struct id_answer {
    bool called;
    store_error error;
    int64_t id;
} id_answer;

static void on_id(void *ctx, const store_error *error, int64_t id)
{
    id_answer *a = ctx;
    a->called = true;
    a->error = *error;
    a->id = id;
}

static int64_t wait_id(bench *b, id_answer *a, const char *what)
{
    while (!a->called)
        uv_run(&b->loop, UV_RUN_ONCE);
    return check(b, &a->error, what) ? a->id : 0;
}

static bool setup_table(bench *b, bench_table *t, int index)
{
    memset(t, 0, sizeof *t);
    t->b = b;
    for (int s = 0; s < SEATS - 1; s++) {
        char name[32];
        snprintf(name, sizeof name, "p%d-%d", index, s);
        id_answer a = {0};
        store_player_save(b->st, 0, name, on_id, &a);
        if ((t->players[s] = wait_id(b, &a, "creating a guest")) == 0)
            return false;
    }
    store_table row;
    memset(&row, 0, sizeof row);
    snprintf(row.game, sizeof row.game, "tiengow");
    snprintf(row.code, sizeof row.code, "B%05d", index);
    snprintf(row.state, sizeof row.state, "playing");
    row.options = b->options;
    row.host_player_id = t->players[0];
    for (int s = 0; s < SEATS - 1; s++)
        row.seats[s].player_id = t->players[s];
    row.seats[SEATS - 1].bot = true;
    row.game_state = b->hands[0].game_state;
    row.turn_seconds = 30;
    id_answer a = {0};
    store_table_save(b->st, &row, on_id, &a);
    return (t->id = wait_id(b, &a, "creating a table")) != 0;
}

/* ---- A table playing hands, one request in flight at a time ---- */

static void start_hand(bench_table *t);
static void next_step(bench_table *t);

/* The number of actions the table writes for its hand. */
static size_t hand_length(const bench_table *t)
{
    const size_t played = t->hand->n_actions;
    return t->b->actions_per_hand > 0 && played > 0 ? t->b->actions_per_hand : played;
}

static void on_finished(void *ctx, const store_error *error)
{
    bench_table *t = ctx;
    if (!check(t->b, error, "finishing a hand"))
        return;
    t->b->finished++;
    t->b->actions += (long)hand_length(t);
    start_hand(t);
}

static void on_appended(void *ctx, const store_error *error)
{
    bench_table *t = ctx;
    if (!check(t->b, error, "appending an action"))
        return;
    t->next_action++;
    next_step(t);
}

static void on_begun(void *ctx, const store_error *error, int64_t id)
{
    bench_table *t = ctx;
    if (!check(t->b, error, "starting a hand"))
        return;
    t->hand_id = id;
    t->next_action = 0;
    next_step(t);
}

static void finish_hand(bench_table *t)
{
    const recorded_hand *h = t->hand;
    store_ledger_entry rows[SEATS];
    for (int s = 0; s < SEATS; s++) {
        rows[s] = (store_ledger_entry){.player_id = s < SEATS - 1 ? t->players[s] : 0, .seat = s,
                                       .units = h->net[s]};
        snprintf(rows[s].reason, sizeof rows[s].reason, "settle");
    }
    const size_t last = hand_length(t);
    store_hand_end end = {
        .hand_id = t->hand_id,
        .last_seq = (int64_t)last,
        .last_seat = last ? h->seats[(last - 1) % h->n_actions] : 0,
        .last_action = last ? h->actions[(last - 1) % h->n_actions] : NULL,
        .result = h->result,
        .entries = rows,
        .n_entries = SEATS,
        .next_game_state = h->next_game_state,
    };
    store_hand_finish(t->b->st, &end, on_finished, t);
}

static void on_left_unfinished(void *ctx, const store_error *error)
{
    bench_table *t = ctx;
    if (check(t->b, error, "appending an action"))
        t->b->unfinished_ready++;
}

static void next_step(bench_table *t)
{
    const recorded_hand *h = t->hand;
    const size_t i = t->next_action;
    if (t->stop_after > 0 && i + 1 == t->stop_after) {
        store_action_append(t->b->st, t->hand_id, (int64_t)i + 1, h->seats[i], h->actions[i], on_left_unfinished, t);
        return;
    }
    if (i + 1 < hand_length(t)) {
        const size_t k = i % h->n_actions;
        store_action_append(t->b->st, t->hand_id, (int64_t)i + 1, h->seats[k], h->actions[k], on_appended, t);
        return;
    }
    finish_hand(t);
}

static void start_hand(bench_table *t)
{
    bench *b = t->b;
    if (b->failed || b->started >= b->target)
        return;
    t->hand = &b->hands[b->started % RECORDED_HANDS];
    b->started++;
    t->number++;
    store_hand_start h = {.table_id = t->id, .number = t->number, .seed = t->hand->seed, .deal = t->hand->deal,
                          .game_state = t->hand->game_state};
    store_hand_begin(b->st, &h, on_begun, t);
}

/* ---- Phases ---- */

static bool open_store(bench *b, const char *path, store_durability durability)
{
    store_options o = store_options_default();
    o.durability = durability;
    if (strncmp(path, "postgres", 8) == 0)
        o.ledger_key_path = b->pg_key;
    store_error error;
    b->st = store_open(&b->loop, path, &o, &error);
    if (b->st == NULL)
        fprintf(stderr, "bench_store: %s\n", error.message);
    return b->st != NULL;
}

static void close_store(bench *b)
{
    store_close(b->st);
    b->st = NULL;
    uv_run(&b->loop, UV_RUN_DEFAULT);
}

/* Plays `hands` hands of `actions_per_hand` actions (0: as played) over `n_tables` tables. */
static bool run_throughput(bench *b, const char *path, store_durability durability, long hands, int n_tables,
                           size_t actions_per_hand)
{
    b->actions_per_hand = actions_per_hand;
    if (!open_store(b, path, durability))
        return false;
    bench_table *tables = calloc((size_t)n_tables, sizeof *tables);
    bool ok = tables != NULL;
    for (int i = 0; ok && i < n_tables; i++)
        ok = setup_table(b, &tables[i], i);
    b->target = hands;
    b->started = b->finished = b->actions = 0;
    double t0 = now_seconds(), cpu0 = cpu_seconds(RUSAGE_SELF), loop0 = cpu_seconds(RUSAGE_THREAD);
    for (int i = 0; ok && i < n_tables; i++)
        start_hand(&tables[i]);
    while (ok && !b->failed && b->finished < b->target)
        uv_run(&b->loop, UV_RUN_ONCE);
    double elapsed = now_seconds() - t0, loop_cpu = cpu_seconds(RUSAGE_THREAD) - loop0;
    double cpu = cpu_seconds(RUSAGE_SELF) - cpu0;
    close_store(b);
    free(tables);
    if (!ok || b->failed)
        return false;
    printf("%-6s durability, %.1f actions a hand: %ld hands over %d tables in %.3f s: %.0f settled hands/s,"
           " %.0f actions/s\n        CPU a hand: %.0f us in all, %.0f us on the loop thread, %.0f us on the store's"
           " threads\n",
           durability == STORE_DURABILITY_FULL ? "FULL" : "NORMAL", (double)b->actions / (double)b->finished,
           b->finished, n_tables, elapsed, (double)b->finished / elapsed, (double)b->actions / elapsed,
           1e6 * cpu / (double)b->finished, 1e6 * loop_cpu / (double)b->finished,
           1e6 * (cpu - loop_cpu) / (double)b->finished);
    return true;
}

typedef struct verify_answer {
    bool called;
    store_error error;
    store_ledger_check check;
} verify_answer;

static void on_verified(void *ctx, const store_error *error, const store_ledger_check *check)
{
    verify_answer *a = ctx;
    a->called = true;
    a->error = *error;
    if (check)
        a->check = *check;
}

static bool run_verify(bench *b, const char *path)
{
    if (!open_store(b, path, STORE_DURABILITY_NORMAL))
        return false;
    verify_answer a = {0};
    double t0 = now_seconds();
    store_ledger_verify(b->st, on_verified, &a);
    while (!a.called)
        uv_run(&b->loop, UV_RUN_ONCE);
    double elapsed = now_seconds() - t0;
    close_store(b);
    if (!check(b, &a.error, "verifying the ledger"))
        return false;
    if (!a.check.ok) {
        fprintf(stderr, "bench_store: the ledger does not verify: row %" PRId64 ": %s\n", a.check.first_bad_row,
                a.check.why);
        return false;
    }
    printf("ledger check: %" PRId64 " rows verified in %.3f s (%.0f rows/s)\n", a.check.rows_checked, elapsed,
           (double)a.check.rows_checked / elapsed);
    return true;
}

/* Applies a stored action ({"play":[tiles]} without its seat) for seat, as games/tiengow does. */
static bool replay_action(tg_state *st, int seat, const json_t *action)
{
    json_t *with_seat = json_copy((json_t *)action);
    char msg[TGJ_MESSAGE_SIZE];
    tgj_action parsed;
    tg_action engine;
    bool ok = with_seat != NULL && json_object_set_new(with_seat, "seat", json_integer(seat)) == 0 &&
              tgj_parse_action(with_seat, "action", &parsed, msg, sizeof msg) == TGJ_OK &&
              tgj_action_to_engine(&parsed, &engine) && st->to_act == seat && tg_apply_action(st, &engine) == TG_OK;
    json_decref(with_seat);
    return ok;
}

/* Rebuilds one hand from its table's options, its seed, its game state and its actions. */
static bool replay_hand(const json_t *options_json, const store_hand *h)
{
    tg_options options;
    int64_t stake;
    char msg[TGJ_MESSAGE_SIZE];
    const json_t *banker = json_object_get(h->game_state, "banker");
    const json_t *multiplier = json_object_get(h->game_state, "multiplier");
    if (tgj_parse_options(options_json, &options, &stake, msg, sizeof msg) != TGJ_OK || !json_is_integer(banker) ||
        !json_is_integer(multiplier))
        return false;
    uint8_t deal[TG_SEATS][TG_HAND_TILES];
    tg_deal(h->seed, deal);
    tg_state st;
    if (tg_start(&st, &options, (int)json_integer_value(banker), (uint32_t)json_integer_value(multiplier),
                 (const uint8_t(*)[TG_HAND_TILES])deal) != TG_OK)
        return false;
    for (size_t k = 0; k < h->n_actions; k++) {
        if (!replay_action(&st, h->actions[k].seat, h->actions[k].action)) {
            fprintf(stderr, "bench_store: replay of hand %" PRId64 " refused at action %zu\n", h->id, k + 1);
            return false;
        }
    }
    return true;
}

/* Rebuilds every unfinished hand with the engine; false if it refuses an action. */
static bool replay_all(const store_recovery *rec, size_t *replayed, size_t *actions)
{
    for (size_t i = 0; i < rec->n_tables; i++) {
        const store_hand *h = rec->tables[i].hand;
        if (h == NULL)
            continue;
        if (!replay_hand(rec->tables[i].table.options, h))
            return false;
        (*replayed)++;
        *actions += h->n_actions;
    }
    return true;
}

/* Leaves `count` tables mid-hand, restarts the store and times loading and replaying them. */
static bool run_recovery(bench *b, const char *path, int count)
{
    if (!open_store(b, path, STORE_DURABILITY_NORMAL))
        return false;
    b->actions_per_hand = 0; /* these hands are replayed by the engine: as played */
    bench_table *tables = calloc((size_t)count, sizeof *tables);
    bool ok = tables != NULL;
    for (int i = 0; ok && i < count; i++)
        ok = setup_table(b, &tables[i], 100000 + i);
    b->unfinished_ready = 0;
    for (int i = 0; ok && i < count; i++) {
        while (b->hands[b->started % RECORDED_HANDS].n_actions < 2) /* a natural hand has nothing to leave half done */
            b->started++;
        b->target = b->started + 1;
        tables[i].stop_after = b->hands[b->started % RECORDED_HANDS].n_actions / 2 + 1;
        start_hand(&tables[i]);
    }
    while (ok && !b->failed && b->unfinished_ready < count)
        uv_run(&b->loop, UV_RUN_ONCE);
    close_store(b);
    free(tables);
    if (!ok || b->failed)
        return false;

    double t0 = now_seconds();
    if (!open_store(b, path, STORE_DURABILITY_NORMAL))
        return false;
    store_recovery *rec = NULL;
    store_error error;
    if (!store_recover(b->st, &rec, &error)) {
        check(b, &error, "recovering");
        close_store(b);
        return false;
    }
    double t1 = now_seconds();
    size_t replayed = 0, actions = 0;
    ok = replay_all(rec, &replayed, &actions);
    double t2 = now_seconds();
    printf("recovery: %zu open tables, %zu unfinished hands (%zu actions): open + load %.3f s, replay %.3f s;"
           " per unfinished hand %.1f us to load + %.1f us to replay\n",
           rec->n_tables, rec->n_unfinished_hands, actions, t1 - t0, t2 - t1,
           1e6 * (t1 - t0) / (double)(replayed ? replayed : 1), 1e6 * (t2 - t1) / (double)(replayed ? replayed : 1));
    ok = ok && replayed == (size_t)count && rec->n_unfinished_hands == (size_t)count;
    store_recovery_free(rec);
    close_store(b);
    return ok;
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    struct dirent *e;
    char path[512];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

int main(int argc, char **argv)
{
    long hands = argc > 1 ? atol(argv[1]) : 20000;
    int n_tables = argc > 2 ? atoi(argv[2]) : 256;
    int unfinished = argc > 3 ? atoi(argv[3]) : 1000;
    if (hands <= 0 || n_tables <= 0 || unfinished <= 0) {
        fprintf(stderr, "usage: bench_store [hands] [tables] [unfinished]\n");
        return 2;
    }

    static bench b;
    uv_loop_init(&b.loop);
    char msg[TGJ_MESSAGE_SIZE];
    tg_options options;
    int64_t stake;
    if (tgj_parse_options(NULL, &options, &stake, msg, sizeof msg) != TGJ_OK)
        return 1;
    b.options = tgj_options_to_json(&options, stake);
    size_t total_actions = 0;
    for (int i = 0; i < RECORDED_HANDS; i++) {
        if (!record_hand(&options, 0x5eed0000u + (uint64_t)i, &b.hands[i]))
            return 1;
        total_actions += b.hands[i].n_actions;
    }
    printf("bench_store: %d recorded Tien Gow hands, %.1f actions a hand on average\n", RECORDED_HANDS,
           (double)total_actions / RECORDED_HANDS);

    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char dir[256], normal_db[320], played_db[320], full_db[320];
    snprintf(dir, sizeof dir, "%s/bench-store-XXXXXX", tmp);
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(normal_db, sizeof normal_db, "%s/normal.db", dir);
    snprintf(played_db, sizeof played_db, "%s/played.db", dir);
    snprintf(full_db, sizeof full_db, "%s/full.db", dir);
    printf("database directory: %s\n", dir);

    long full_hands = hands / 4 > 0 ? hands / 4 : 1;
    const char *pg = getenv("TEAHOUSE_BENCH_PG");
    snprintf(b.pg_key, sizeof b.pg_key, "%s/pg.key", dir);
    bool ok = pg && pg[0] ? printf("through PostgreSQL\n") > 0 &&
                                run_throughput(&b, pg, STORE_DURABILITY_NORMAL, hands, n_tables, 30) &&
                                run_verify(&b, pg) && run_recovery(&b, pg, unfinished)
                          : run_throughput(&b, normal_db, STORE_DURABILITY_NORMAL, hands, n_tables, 30) &&
              run_throughput(&b, played_db, STORE_DURABILITY_NORMAL, hands, n_tables, 0) &&
              run_throughput(&b, full_db, STORE_DURABILITY_FULL, full_hands, n_tables, 30) &&
                                run_verify(&b, normal_db) && run_recovery(&b, normal_db, unfinished);

    remove_dir(dir);
    for (int i = 0; i < RECORDED_HANDS; i++)
        free_recorded(&b.hands[i]);
    json_decref(b.options);
    uv_run(&b.loop, UV_RUN_DEFAULT);
    uv_loop_close(&b.loop);
    return ok ? 0 : 1;
}
