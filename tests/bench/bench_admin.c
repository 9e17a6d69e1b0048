/*
 * bench_admin — the admin API's reads on a large ledger: a database filled with about a million
 * ledger rows of both games, then, through the real store (store.h on SQLite), the latency of a
 * ledger page with its filter's totals (p50 and p99) unfiltered, by player, by table and by game
 * and time range; the CSV export's rate (every row, page by page, as admin_ledger.c asks for
 * them); the players page and one player's page (store_reader.h); and the integrity check's rate
 * (admin_integrity.h: the chain, then every hand replayed through its engine).
 *
 * The hands are real: a pool of hands of each game played by the engines' bots (games/game.h),
 * each written many times over at tables of three players and a bot, with ledger rows whose
 * balances and keyed hashes are what the server writes; so the integrity check must find nothing
 * (the bench fails if it does).
 *
 *   bench_admin [rows] [samples]      (defaults 1000000, 100)
 *
 * The database lives in a new directory under $TMPDIR (default /tmp), removed at the end (kept
 * when BENCH_ADMIN_KEEP is set).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>
#include <uv.h>

#include "admin_integrity.h"
#include "game.h"
#include "store.h"
#include "store_key.h"
#include "store_ledger.h"
#include "store_reader.h"

#define POOL 48             /* recorded hands per game */
#define PLAYERS 2000
#define TABLES 4000
#define DAY_MS (24LL * 3600 * 1000)
#define T0_MS 1767225600000LL /* 2026-01-01 */

typedef struct pooled_hand {
    uint64_t seed;
    char *state, *deal, *result;
    char **actions;
    int *seats;
    size_t n_actions;
    game_result lines;
} pooled_hand;

typedef struct pool {
    const game_ops *game;
    char *options;
    pooled_hand hands[POOL];
} pool;

static double now_s(void)
{
    return (double)uv_hrtime() / 1e9;
}

static void die(const char *what, const char *why)
{
    fprintf(stderr, "bench_admin: %s: %s\n", what, why);
    exit(1);
}

/* ---- The hands, played once by the engines' bots ---- */

static void record(pool *p, const char *name)
{
    p->game = game_find(name);
    char msg[GAME_MESSAGE_SIZE];
    json_t *options = p->game->options_parse(NULL, msg, sizeof msg);
    p->options = json_dumps(options, JSON_COMPACT);
    for (int i = 0; i < POOL; i++) {
        pooled_hand *h = &p->hands[i];
        h->seed = 0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1);
        json_t *state = p->game->table_state_new(options, h->seed);
        game_hand *hand = p->game->hand_new(options, h->seed, state);
        json_t *deal = p->game->deal_json(hand);
        size_t cap = 64;
        h->actions = malloc(cap * sizeof *h->actions);
        h->seats = malloc(cap * sizeof *h->seats);
        while (!p->game->is_over(hand)) {
            game_decision d[GAME_SEATS];
            if (p->game->decisions(hand, d) == 0)
                die(name, "a hand that is not over owes no decision");
            json_t *a = p->game->bot_action(hand, d[0].seat);
            if (a == NULL && p->game->timeout_action)
                a = p->game->timeout_action(hand, d[0].seat);
            if (a == NULL || p->game->act(hand, d[0].seat, a, msg, sizeof msg) != NULL)
                die(name, "the bot's action is refused");
            if (h->n_actions == cap) {
                cap *= 2;
                h->actions = realloc(h->actions, cap * sizeof *h->actions);
                h->seats = realloc(h->seats, cap * sizeof *h->seats);
            }
            h->seats[h->n_actions] = d[0].seat;
            h->actions[h->n_actions++] = json_dumps(a, JSON_COMPACT);
            json_decref(a);
        }
        json_t *result = p->game->result_json(hand);
        p->game->result(hand, &h->lines);
        h->state = json_dumps(state, JSON_COMPACT | JSON_SORT_KEYS);
        h->deal = json_dumps(deal, JSON_COMPACT);
        h->result = json_dumps(result, JSON_COMPACT);
        json_decref(result);
        json_decref(deal);
        json_decref(state);
        p->game->hand_free(hand);
    }
    json_decref(options);
}

static void pool_free(pool *p)
{
    for (int i = 0; i < POOL; i++) {
        pooled_hand *h = &p->hands[i];
        for (size_t a = 0; a < h->n_actions; a++)
            free(h->actions[a]);
        free(h->actions);
        free(h->seats);
        free(h->state);
        free(h->deal);
        free(h->result);
    }
    free(p->options);
}

/* ---- The database, filled as the server would have written it ---- */

typedef struct filler {
    sqlite3 *db;
    sqlite3_stmt *hand, *action, *row;
    unsigned char key[STORE_LEDGER_KEY_BYTES];
    int64_t balance[PLAYERS + 1];
    int64_t seats[TABLES + 1][GAME_SEATS]; /* 0: a bot */
    int64_t numbers[TABLES + 1];
    int64_t rows, hands, hand_id;
    char prev[STORE_HASH_HEX];
} filler;

static void exec(sqlite3 *db, const char *sql)
{
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK)
        die(sql, err ? err : "?");
}

static sqlite3_stmt *prepare(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        die(sql, sqlite3_errmsg(db));
    return st;
}

static void step(sqlite3 *db, sqlite3_stmt *st)
{
    if (sqlite3_step(st) != SQLITE_DONE)
        die("insert", sqlite3_errmsg(db));
    sqlite3_reset(st);
}

static void fill_players_and_tables(filler *f, const pool pools[2])
{
    sqlite3_stmt *st = prepare(f->db, "INSERT INTO players (id, kind, nickname, created_at, last_seen_at)"
                                      " VALUES (?1, 'guest', 'player ' || ?1, ?2, ?2)");
    for (int64_t id = 1; id <= PLAYERS; id++) {
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int64(st, 2, T0_MS + id);
        step(f->db, st);
    }
    sqlite3_finalize(st);
    st = prepare(f->db, "INSERT INTO game_tables (id, game, options, host_player_id, code, is_public, seats, state,"
                        " hands_played, created_at, updated_at, turn_seconds, game_state)"
                        " VALUES (?1, ?2, ?3, ?4, printf('B%06d', ?1), 1, ?5, 'closed', 0, ?6, ?6, 30, ?7)");
    for (int64_t t = 1; t <= TABLES; t++) {
        const pool *p = &pools[t % 2];
        for (int s = 0; s < GAME_SEATS - 1; s++)
            f->seats[t][s] = 1 + (t * 7 + s * 331) % PLAYERS;
        f->seats[t][GAME_SEATS - 1] = 0;
        char seats[96];
        snprintf(seats, sizeof seats, "[%" PRId64 ",%" PRId64 ",%" PRId64 ",\"bot\"]", f->seats[t][0], f->seats[t][1],
                 f->seats[t][2]);
        sqlite3_bind_int64(st, 1, t);
        sqlite3_bind_text(st, 2, p->game->name, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, p->options, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 4, f->seats[t][0]);
        sqlite3_bind_text(st, 5, seats, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 6, T0_MS);
        sqlite3_bind_text(st, 7, p->hands[0].state, -1, SQLITE_STATIC);
        step(f->db, st);
    }
    sqlite3_finalize(st);
}

static void fill_hand(filler *f, int64_t table, const pooled_hand *h, int64_t at)
{
    const int64_t id = ++f->hand_id;
    sqlite3_bind_int64(f->hand, 1, id);
    sqlite3_bind_int64(f->hand, 2, table);
    sqlite3_bind_int64(f->hand, 3, ++f->numbers[table]);
    sqlite3_bind_int64(f->hand, 4, (int64_t)h->seed);
    sqlite3_bind_text(f->hand, 5, h->deal, -1, SQLITE_STATIC);
    sqlite3_bind_text(f->hand, 6, h->state, -1, SQLITE_STATIC);
    sqlite3_bind_int64(f->hand, 7, at);
    sqlite3_bind_text(f->hand, 8, h->result, -1, SQLITE_STATIC);
    step(f->db, f->hand);
    for (size_t i = 0; i < h->n_actions; i++) {
        sqlite3_bind_int64(f->action, 1, id);
        sqlite3_bind_int64(f->action, 2, (int64_t)i + 1);
        sqlite3_bind_int(f->action, 3, h->seats[i]);
        sqlite3_bind_text(f->action, 4, h->actions[i], -1, SQLITE_STATIC);
        sqlite3_bind_int64(f->action, 5, at);
        step(f->db, f->action);
    }
    for (int i = 0; i < h->lines.n_lines; i++) {
        const game_ledger_line *l = &h->lines.lines[i];
        const int64_t player = f->seats[table][l->seat];
        store_ledger_row row = {.id = ++f->rows, .table_id = table, .hand_id = id, .is_bot = player == 0,
                                .player_id = player, .seat = l->seat, .units = l->units, .reason = l->reason,
                                .at_ms = at, .prev_hash = f->prev};
        if (player)
            row.balance_after = f->balance[player] += l->units;
        char hash[STORE_HASH_HEX];
        store_ledger_hash(&row, f->key, hash);
        sqlite3_bind_int64(f->row, 1, row.id);
        sqlite3_bind_int64(f->row, 2, table);
        sqlite3_bind_int64(f->row, 3, id);
        if (player) {
            sqlite3_bind_int64(f->row, 4, player);
            sqlite3_bind_int64(f->row, 8, row.balance_after);
        } else {
            sqlite3_bind_null(f->row, 4);
            sqlite3_bind_null(f->row, 8);
        }
        sqlite3_bind_int(f->row, 5, l->seat);
        sqlite3_bind_int64(f->row, 6, l->units);
        sqlite3_bind_text(f->row, 7, l->reason, -1, SQLITE_STATIC);
        sqlite3_bind_int64(f->row, 9, at);
        sqlite3_bind_text(f->row, 10, f->prev, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(f->row, 11, hash, -1, SQLITE_TRANSIENT);
        step(f->db, f->row);
        memcpy(f->prev, hash, sizeof f->prev);
    }
    f->hands++;
}

static void fill(const char *path, const pool pools[2], int64_t target_rows)
{
    filler *f = calloc(1, sizeof *f);
    store_error error;
    char key_path[600];
    snprintf(key_path, sizeof key_path, "%s.key", path);
    if (store_key_load(key_path, f->key, &error) != STORE_OK)
        die("key", error.message);
    snprintf(f->prev, sizeof f->prev, "%s", STORE_LEDGER_ZERO_HASH);
    if (sqlite3_open(path, &f->db) != SQLITE_OK)
        die(path, "cannot open");
    exec(f->db, "PRAGMA synchronous = OFF; BEGIN");
    fill_players_and_tables(f, pools);
    f->hand = prepare(f->db, "INSERT INTO hands (id, table_id, number, seed, deal, game_state, started_at, result,"
                             " finished_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?7 + 60000)");
    f->action = prepare(f->db, "INSERT INTO hand_actions (hand_id, seq, seat, action, at) VALUES (?1, ?2, ?3, ?4, ?5)");
    f->row = prepare(f->db, "INSERT INTO ledger (id, table_id, hand_id, player_id, seat, units, reason, balance_after,"
                            " at, prev_hash, hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
    /* About 90 days of play, evenly spread. */
    const int64_t expected_hands = target_rows / 5 + 1;
    uint64_t rng = 12345;
    while (f->rows < target_rows) {
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        const int64_t table = 1 + (int64_t)((rng >> 33) % TABLES);
        const pooled_hand *h = &pools[table % 2].hands[(rng >> 20) % POOL];
        fill_hand(f, table, h, T0_MS + f->hands * (90 * DAY_MS / expected_hands));
        if (f->hands % 20000 == 0)
            exec(f->db, "COMMIT; BEGIN");
    }
    exec(f->db, "UPDATE game_tables SET hands_played = (SELECT count(*) FROM hands WHERE table_id = game_tables.id);"
                " COMMIT; PRAGMA wal_checkpoint(TRUNCATE); ANALYZE");
    sqlite3_finalize(f->hand);
    sqlite3_finalize(f->action);
    sqlite3_finalize(f->row);
    sqlite3_close(f->db);
    printf("filled: %" PRId64 " ledger rows, %" PRId64 " hands (both games), %d players, %d tables\n", f->rows, f->hands,
           PLAYERS, TABLES);
    free(f);
}

/* ---- Timing the store's answers ---- */

typedef struct waiter {
    bool done;
    store_status status;
    size_t n;
    int64_t last_id;
    int64_t total_rows;
} waiter;

static void on_page(void *ctx, const store_error *error, const store_ledger_line *rows, size_t n,
                    const store_ledger_totals *totals)
{
    waiter *w = ctx;
    w->done = true;
    w->status = error->status;
    w->n = n;
    w->last_id = n ? rows[n - 1].id : 0;
    w->total_rows = totals ? totals->rows : 0;
    if (error->status != STORE_OK)
        die("ledger query", error->message);
}

static waiter query(uv_loop_t *loop, store *st, const store_ledger_filter *f, int64_t before, int limit, bool totals)
{
    waiter w = {0};
    if (!store_ledger_query(st, f, before, limit, totals, on_page, &w))
        die("ledger query", "refused");
    while (!w.done)
        uv_run(loop, UV_RUN_ONCE);
    return w;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(const char *what, double *ms, int n, double rows_avg)
{
    qsort(ms, (size_t)n, sizeof *ms, cmp_double);
    const int p99 = (int)((n - 1) * 0.99 + 0.5);
    printf("  %-36s p50 %8.2f ms   p99 %8.2f ms   (%d samples, %.0f rows matched on average)\n", what, ms[n / 2],
           ms[p99], n, rows_avg);
}

typedef enum { BY_NONE, BY_PLAYER, BY_TABLE, BY_GAME_TIME } filter_kind;

static void time_pages(uv_loop_t *loop, store *st, filter_kind kind, const char *what, int samples)
{
    double *ms = malloc((size_t)samples * sizeof *ms);
    double matched = 0;
    uint64_t rng = 777 + (uint64_t)kind;
    for (int i = 0; i < samples; i++) {
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        store_ledger_filter f = {0};
        if (kind == BY_PLAYER)
            f.player_id = 1 + (int64_t)((rng >> 33) % PLAYERS);
        else if (kind == BY_TABLE)
            f.table_id = 1 + (int64_t)((rng >> 33) % TABLES);
        else if (kind == BY_GAME_TIME) {
            snprintf(f.game, sizeof f.game, "%s", (rng >> 40) % 2 ? "tianjin" : "tiengow");
            f.from_ms = T0_MS + (int64_t)((rng >> 33) % 89) * DAY_MS;
            f.to_ms = f.from_ms + DAY_MS;
        }
        const double t = now_s();
        waiter w = query(loop, st, &f, 0, 100, true);
        ms[i] = (now_s() - t) * 1000;
        matched += (double)w.total_rows;
    }
    report(what, ms, samples, matched / samples);
    free(ms);
}

static void time_export(uv_loop_t *loop, store *st)
{
    const store_ledger_filter f = {0};
    int64_t before = 0, rows = 0;
    const double t = now_s();
    for (;;) {
        waiter w = query(loop, st, &f, before, 500, false);
        rows += (int64_t)w.n;
        if (w.n < 500)
            break;
        before = w.last_id;
    }
    const double s = now_s() - t;
    printf("  CSV export (pages of 500, no filter) %" PRId64 " rows in %.2f s: %.0f rows/s\n", rows, s, rows / s);
}

static void time_reader(const char *path, int samples)
{
    store_error error;
    store_reader *rd = store_reader_open(path, NULL, &error);
    if (rd == NULL)
        die("reader", error.message);
    double *ms = malloc((size_t)samples * sizeof *ms);
    for (int i = 0; i < samples; i++) {
        store_player_filter f = {.limit = 50, .before = i % 2 ? 1000 : 0};
        json_t *out = NULL;
        const double t = now_s();
        if (store_reader_players(rd, &f, &out, &error) != STORE_OK)
            die("players", error.message);
        ms[i] = (now_s() - t) * 1000;
        json_decref(out);
    }
    report("players page (50)", ms, samples, 50);
    for (int i = 0; i < samples; i++) {
        json_t *out = NULL;
        const double t = now_s();
        if (store_reader_player(rd, 1 + (i * 37) % PLAYERS, &out, &error) != STORE_OK)
            die("player", error.message);
        ms[i] = (now_s() - t) * 1000;
        json_decref(out);
    }
    report("one player (by day, tables)", ms, samples, 0);
    for (int i = 0; i < samples; i++) {
        json_t *out = NULL;
        const double t = now_s();
        if (store_reader_table(rd, 1 + (i * 53) % TABLES, &out, &error) != STORE_OK)
            die("table", error.message);
        ms[i] = (now_s() - t) * 1000;
        json_decref(out);
    }
    report("one table (every hand, seats)", ms, samples, 0);
    free(ms);
    store_reader_close(rd);
}

static void time_integrity(const char *path)
{
    store_ledger_check check;
    store_error chain_error;
    double t0 = now_s();
    if (!store_ledger_verify_path(path, NULL, &check, &chain_error) || !check.ok)
        die("chain", chain_error.message);
    printf("  of which the hash chain alone (store_ledger_verify_path): %" PRId64 " rows in %.2f s\n",
           check.rows_checked, now_s() - t0);
    integrity_progress p;
    integrity_progress_init(&p);
    store_error error;
    const double t = now_s();
    if (!integrity_check(path, NULL, true, &p, &error))
        die("integrity", error.message);
    const double s = now_s() - t;
    printf("  integrity check: %" PRId64 " hands, %" PRId64 " rows in %.2f s: %.0f hands/s, %.0f rows/s (%" PRId64
           " problems)\n",
           p.hands_checked, p.rows_checked, s, p.hands_checked / s, p.rows_checked / s, p.problems_total);
    if (p.problems_total != 0)
        die("integrity", p.problems[0].message);
    integrity_progress_destroy(&p);
}

static void remove_dir(const char *dir, const char *db)
{
    static const char *const SUFFIXES[] = {"", "-wal", "-shm", ".key"};
    for (size_t i = 0; i < sizeof SUFFIXES / sizeof SUFFIXES[0]; i++) {
        char path[640];
        snprintf(path, sizeof path, "%s%s", db, SUFFIXES[i]);
        unlink(path);
    }
    rmdir(dir);
}

int main(int argc, char **argv)
{
    const int64_t rows = argc > 1 ? atoll(argv[1]) : 1000000;
    const int samples = argc > 2 ? atoi(argv[2]) : 100;
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char dir[256], db[512];
    snprintf(dir, sizeof dir, "%s/bench-admin-XXXXXX", tmp);
    if (mkdtemp(dir) == NULL)
        die(dir, "cannot make");
    snprintf(db, sizeof db, "%s/bench.db", dir);

    uv_loop_t loop;
    uv_loop_init(&loop);
    store_error error;
    store *st = store_open(&loop, db, NULL, &error); /* the schema, the key and its record */
    if (st == NULL)
        die(db, error.message);
    store_close(st);
    uv_run(&loop, UV_RUN_DEFAULT);

    pool pools[2];
    memset(pools, 0, sizeof pools);
    double t = now_s();
    record(&pools[0], "tiengow");
    record(&pools[1], "tianjin");
    printf("recorded %d hands of each game in %.2f s\n", POOL, now_s() - t);
    t = now_s();
    fill(db, pools, rows);
    printf("filled in %.2f s\n", now_s() - t);

    st = store_open(&loop, db, NULL, &error);
    if (st == NULL)
        die(db, error.message);
    printf("ledger page of 100 with the filter's totals (store_ledger_query):\n");
    time_pages(&loop, st, BY_NONE, "no filter", samples);
    time_pages(&loop, st, BY_PLAYER, "by player", samples);
    time_pages(&loop, st, BY_TABLE, "by table", samples);
    time_pages(&loop, st, BY_GAME_TIME, "by game and a day's time range", samples);
    time_export(&loop, st);
    store_close(st);
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_loop_close(&loop);
    printf("admin reads (store_reader.h):\n");
    time_reader(db, samples);
    time_integrity(db);
    pool_free(&pools[0]);
    pool_free(&pools[1]);
    if (getenv("BENCH_ADMIN_KEEP")) /* to look at the query plans afterwards */
        printf("kept %s\n", db);
    else
        remove_dir(dir, db);
    return 0;
}
