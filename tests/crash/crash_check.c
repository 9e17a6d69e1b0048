/*
 * crash_check — the database against the clients' records and the engine. See crash_check.h.
 *
 * The whole database is small after a test run (hundreds of hands), so it is read into memory
 * once: tables, hands with their actions and per-seat ledger sums. Every problem is printed as
 * one sentence naming the table code and the hand number, so a failure can be found in the file
 * (kept by the test when something fails).
 */
#include "crash_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash_db.h"
#include "game.h"
#include "game_replay.h"
#include "mj_tiles.h"
#include "tg_tiles.h"

#define MAX_PRINTED_PROBLEMS 40

typedef struct check_table {
    int64_t id;
    char code[16];
    char game[32];
    json_t *options;
    json_t *state;            /* the game state it keeps for its next hand */
    bool tianjin;
    int banker;               /* from the game state */
    int64_t multiplier;       /* Tianjin: the banker's count */
} check_table;

typedef struct check_hand {
    int64_t id, table_id, number;
    uint64_t seed;
    json_t *deal;
    json_t *game_state;       /* the game's table state the hand started from */
    int banker;               /* read from game_state */
    int64_t multiplier;       /* Tianjin: the banker's count */
    json_t *result;           /* NULL while unfinished */
    json_t *actions;          /* [{"seq":…,"seat":…,"action":…}, …] in seq order */
    int64_t ledger_sum[GAME_SEATS];
    long ledger_rows;
    const check_table *table;
} check_hand;

typedef struct checker {
    crash_db *db;
    check_table *tables;
    size_t n_tables;
    check_hand *hands;
    size_t n_hands;
    int problems;
} checker;

__attribute__((format(printf, 2, 3))) static void problem(checker *c, const char *format, ...)
{
    c->problems++;
    if (c->problems > MAX_PRINTED_PROBLEMS) {
        if (c->problems == MAX_PRINTED_PROBLEMS + 1)
            fprintf(stderr, "crash: (more problems; only the first %d are printed)\n", MAX_PRINTED_PROBLEMS);
        return;
    }
    va_list args;
    va_start(args, format);
    fprintf(stderr, "crash: PROBLEM: ");
    vfprintf(stderr, format, args);
    fprintf(stderr, "\n");
    va_end(args);
}

/* The rows of a query, or NULL with the problem told. */
static crash_rows *query(checker *c, const char *sql)
{
    char error[256];
    crash_rows *rows = crash_db_query(c->db, sql, error, sizeof error);
    if (rows == NULL)
        problem(c, "the query \"%s\" failed: %s", sql, error);
    return rows;
}

/* ---- loading --------------------------------------------------------------------------------- */

static bool load_tables(checker *c)
{
    crash_rows *rows = query(c, "SELECT id, code, game, options, game_state FROM game_tables ORDER BY id");
    if (rows == NULL)
        return false;
    size_t n = crash_rows_count(rows);
    c->tables = calloc(n ? n : 1, sizeof *c->tables);
    for (size_t r = 0; r < n; r++) {
        check_table *t = &c->tables[c->n_tables++];
        t->id = crash_rows_int(rows, r, 0);
        snprintf(t->code, sizeof t->code, "%s", crash_rows_text(rows, r, 1) ? crash_rows_text(rows, r, 1) : "");
        snprintf(t->game, sizeof t->game, "%s", crash_rows_text(rows, r, 2) ? crash_rows_text(rows, r, 2) : "");
        t->options = crash_rows_json(rows, r, 3);
        t->state = crash_rows_json(rows, r, 4);
        t->tianjin = strcmp(t->game, "tianjin") == 0;
        t->banker = (int)json_integer_value(json_object_get(t->state, "banker"));
        t->multiplier = json_integer_value(json_object_get(t->state, t->tianjin ? "count" : "multiplier"));
    }
    crash_rows_free(rows);
    return true;
}

static const check_table *table_by_id(const checker *c, int64_t id)
{
    for (size_t i = 0; i < c->n_tables; i++)
        if (c->tables[i].id == id)
            return &c->tables[i];
    return NULL;
}

static check_hand *hand_by_id(const checker *c, int64_t id)
{
    for (size_t i = 0; i < c->n_hands; i++)
        if (c->hands[i].id == id)
            return &c->hands[i];
    return NULL;
}

static check_hand *hand_by_number(const checker *c, int64_t table_id, int64_t number)
{
    for (size_t i = 0; i < c->n_hands; i++)
        if (c->hands[i].table_id == table_id && c->hands[i].number == number)
            return &c->hands[i];
    return NULL;
}

static bool load_hands(checker *c)
{
    crash_rows *rows = query(c, "SELECT id, table_id, number, seed, deal, game_state, result FROM hands "
                                "ORDER BY table_id, number");
    if (rows == NULL)
        return false;
    size_t n = crash_rows_count(rows);
    c->hands = calloc(n ? n : 1, sizeof *c->hands);
    for (size_t r = 0; r < n; r++) {
        check_hand *h = &c->hands[c->n_hands++];
        h->id = crash_rows_int(rows, r, 0);
        h->table_id = crash_rows_int(rows, r, 1);
        h->number = crash_rows_int(rows, r, 2);
        h->seed = (uint64_t)crash_rows_int(rows, r, 3); /* the same 64 bits (migrations/0001_init.sql) */
        h->deal = crash_rows_json(rows, r, 4);
        h->game_state = crash_rows_json(rows, r, 5);
        h->result = crash_rows_json(rows, r, 6);
        h->actions = json_array();
        h->table = table_by_id(c, h->table_id);
        bool tianjin = h->table != NULL && h->table->tianjin;
        h->banker = (int)json_integer_value(json_object_get(h->game_state, "banker"));
        h->multiplier = json_integer_value(json_object_get(h->game_state, tianjin ? "count" : "multiplier"));
        if (h->table == NULL)
            problem(c, "hand id %lld names table id %lld, which does not exist", (long long)h->id,
                    (long long)h->table_id);
    }
    crash_rows_free(rows);
    return true;
}

static bool load_actions(checker *c)
{
    crash_rows *rows = query(c, "SELECT hand_id, seq, seat, action FROM hand_actions ORDER BY hand_id, seq");
    if (rows == NULL)
        return false;
    for (size_t r = 0; r < crash_rows_count(rows); r++) {
        int64_t hand_id = crash_rows_int(rows, r, 0);
        check_hand *h = hand_by_id(c, hand_id);
        if (h == NULL) {
            problem(c, "an action (seq %lld) of hand id %lld, which does not exist", (long long)crash_rows_int(rows, r, 1),
                    (long long)hand_id);
            continue;
        }
        json_t *action = crash_rows_json(rows, r, 3);
        json_array_append_new(h->actions, json_pack("{s:I, s:i, s:o}", "seq", (json_int_t)crash_rows_int(rows, r, 1),
                                                    "seat", (int)crash_rows_int(rows, r, 2), "action",
                                                    action != NULL ? action : json_null()));
    }
    crash_rows_free(rows);
    return true;
}

static bool load_ledger(checker *c)
{
    crash_rows *rows = query(c, "SELECT hand_id, seat, SUM(units), COUNT(*) FROM ledger GROUP BY hand_id, seat");
    if (rows == NULL)
        return false;
    for (size_t r = 0; r < crash_rows_count(rows); r++) {
        int64_t hand_id = crash_rows_int(rows, r, 0);
        int seat = (int)crash_rows_int(rows, r, 1);
        check_hand *h = hand_by_id(c, hand_id);
        if (h == NULL || seat < 0 || seat >= GAME_SEATS) {
            problem(c, "ledger rows of hand id %lld, seat %d: no such hand or seat", (long long)hand_id, seat);
            continue;
        }
        h->ledger_sum[seat] = crash_rows_int(rows, r, 2);
        h->ledger_rows += crash_rows_int(rows, r, 3);
    }
    crash_rows_free(rows);
    return true;
}

/* ---- (a) and (b): the ledger ----------------------------------------------------------------------- */

static int64_t result_net(const json_t *result, int seat)
{
    return json_integer_value(json_array_get(json_object_get(result, "net"), (size_t)seat));
}

static void check_ledger_rows(checker *c, crash_figures *figures)
{
    crash_rows *dup = query(c, "SELECT hand_id, seat, reason, COUNT(*) FROM ledger GROUP BY hand_id, seat, reason "
                               "HAVING COUNT(*) > 1");
    for (size_t r = 0; r < crash_rows_count(dup); r++) {
        const check_hand *h = hand_by_id(c, crash_rows_int(dup, r, 0));
        const char *reason = crash_rows_text(dup, r, 2);
        problem(c, "the ledger has %lld rows for table %s hand %lld, seat %lld, reason %s: a hand's rows were written "
                   "more than once",
                (long long)crash_rows_int(dup, r, 3), h && h->table ? h->table->code : "?",
                h ? (long long)h->number : -1LL, (long long)crash_rows_int(dup, r, 1), reason ? reason : "?");
    }
    crash_rows_free(dup);

    crash_rows *cross = query(c, "SELECT l.id, l.table_id, h.table_id FROM ledger l "
                                 "JOIN hands h ON h.id = l.hand_id WHERE l.table_id <> h.table_id");
    for (size_t r = 0; r < crash_rows_count(cross); r++)
        problem(c, "ledger row %lld names table id %lld but its hand belongs to table id %lld",
                (long long)crash_rows_int(cross, r, 0), (long long)crash_rows_int(cross, r, 1),
                (long long)crash_rows_int(cross, r, 2));
    crash_rows_free(cross);

    for (size_t i = 0; i < c->n_hands; i++) {
        const check_hand *h = &c->hands[i];
        const char *code = h->table ? h->table->code : "?";
        figures->ledger_rows += h->ledger_rows;
        if (h->result == NULL) {
            if (h->ledger_rows > 0)
                problem(c, "table %s hand %lld is unfinished but has %ld ledger rows", code, (long long)h->number,
                        h->ledger_rows);
            continue;
        }
        int64_t sum = 0;
        for (int s = 0; s < GAME_SEATS; s++) {
            sum += h->ledger_sum[s];
            if (h->ledger_sum[s] != result_net(h->result, s))
                problem(c, "table %s hand %lld: seat %d's ledger rows sum to %lld but its stored result's net is %lld",
                        code, (long long)h->number, s, (long long)h->ledger_sum[s],
                        (long long)result_net(h->result, s));
        }
        if (sum != 0)
            problem(c, "table %s hand %lld: its ledger rows sum to %lld, not zero", code, (long long)h->number,
                    (long long)sum);
    }
}

/* One hand_over as some client saw it. */
typedef struct seen_over {
    const crash_player *who;
    int64_t table_id;
    crash_hand_over over;
} seen_over;

static int64_t table_id_of(const checker *c, const char *code)
{
    int64_t id = 0;
    int found = 0;
    for (size_t i = 0; i < c->n_tables; i++)
        if (strcmp(c->tables[i].code, code) == 0) {
            id = c->tables[i].id;
            found++;
        }
    return found == 1 ? id : -found; /* 0: none; < 0: several */
}

/* A table's running totals after hand `number`: per seat, its ledger rows of hands 1 to number. */
static void running_scores(const checker *c, int64_t table_id, int64_t number, int64_t scores[GAME_SEATS])
{
    memset(scores, 0, GAME_SEATS * sizeof scores[0]);
    for (size_t i = 0; i < c->n_hands; i++)
        if (c->hands[i].table_id == table_id && c->hands[i].number <= number)
            for (int s = 0; s < GAME_SEATS; s++)
                scores[s] += c->hands[i].ledger_sum[s];
}

static void check_seen_scores(checker *c, const seen_over *seen)
{
    int64_t scores[GAME_SEATS];
    running_scores(c, seen->table_id, seen->over.hand, scores);
    for (int s = 0; s < GAME_SEATS; s++)
        if (scores[s] != seen->over.scores[s])
            problem(c, "table %s hand %lld: %s saw seat %d's running score %lld (server %d) but the ledger of hands 1 "
                       "to %lld sums to %lld",
                    seen->who->code, (long long)seen->over.hand, seen->who->name, s, (long long)seen->over.scores[s],
                    seen->over.epoch, (long long)seen->over.hand, (long long)scores[s]);
}

static void check_seen_over(checker *c, const seen_over *seen, const seen_over *first, crash_figures *figures)
{
    const char *code = seen->who->code;
    long long number = (long long)seen->over.hand;
    check_seen_scores(c, seen);
    if (first != NULL) { /* the same hand_over seen again (another client, or after a resume) */
        for (int s = 0; s < GAME_SEATS; s++)
            if (first->over.net[s] != seen->over.net[s])
                problem(c, "table %s hand %lld: %s saw seat %d's net %lld (server %d), %s saw %lld (server %d): the "
                           "hand ended twice, differently",
                        code, number, first->who->name, s, (long long)first->over.net[s], first->over.epoch,
                        seen->who->name, (long long)seen->over.net[s], seen->over.epoch);
        return;
    }
    figures->hands_seen_over++;
    const check_hand *h = hand_by_number(c, seen->table_id, seen->over.hand);
    if (h == NULL || h->result == NULL) {
        problem(c, "table %s hand %lld: %s saw its hand_over (server %d) but the store has %s", code, number,
                seen->who->name, seen->over.epoch, h == NULL ? "no such hand" : "it unfinished");
        return;
    }
    bool all_zero = true;
    for (int s = 0; s < GAME_SEATS; s++) {
        all_zero = all_zero && seen->over.net[s] == 0;
        if (h->ledger_sum[s] != seen->over.net[s])
            problem(c, "table %s hand %lld: %s saw seat %d's net %lld (server %d) but the ledger sums to %lld", code,
                    number, seen->who->name, s, (long long)seen->over.net[s], seen->over.epoch,
                    (long long)h->ledger_sum[s]);
    }
    if (h->ledger_rows == 0 && !all_zero)
        problem(c, "table %s hand %lld: %s saw its hand_over but it has no ledger rows", code, number, seen->who->name);
}

static void check_hand_overs(checker *c, crash_player *const players[], size_t n_players, crash_figures *figures)
{
    size_t total = 0;
    for (size_t i = 0; i < n_players; i++)
        total += players[i]->n_overs;
    seen_over *all = calloc(total ? total : 1, sizeof *all);
    size_t n = 0;
    for (size_t i = 0; i < n_players; i++) {
        int64_t table_id = table_id_of(c, players[i]->code);
        if (table_id <= 0) {
            problem(c, "table %s (%s's) is %s in game_tables", players[i]->code, players[i]->name,
                    table_id == 0 ? "not" : "more than once");
            continue;
        }
        for (size_t k = 0; k < players[i]->n_overs; k++)
            all[n++] = (seen_over){.who = players[i], .table_id = table_id, .over = players[i]->overs[k]};
    }
    for (size_t i = 0; i < n; i++) {
        const seen_over *first = NULL;
        for (size_t k = 0; k < i && first == NULL; k++)
            if (all[k].table_id == all[i].table_id && all[k].over.hand == all[i].over.hand)
                first = &all[k];
        check_seen_over(c, &all[i], first, figures);
    }
    free(all);
}

/* ---- (d): replays ----------------------------------------------------------------------------------- */

/* The stored deal of one seat as tile counts (Tien Gow's deal is four lists of tile names,
 * Tianjin's {"hands":[four lists],"wall":[…],"dice":…}). */
static bool deal_of_seat(const check_hand *h, int seat, uint8_t count[CRASH_KINDS])
{
    bool tianjin = h->table != NULL && h->table->tianjin;
    const json_t *hands = tianjin ? json_object_get(h->deal, "hands") : h->deal;
    return json_array_size(hands) == GAME_SEATS &&
           crash_count_tiles(tianjin, json_array_get(hands, (size_t)seat), count);
}

static bool subset(const uint8_t a[CRASH_KINDS], const uint8_t b[CRASH_KINDS])
{
    for (int k = 0; k < CRASH_KINDS; k++)
        if (a[k] > b[k])
            return false;
    return true;
}

static void tiles_text(bool tianjin, const uint8_t count[CRASH_KINDS], char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    for (int k = 0; k < CRASH_KINDS; k++)
        for (int i = 0; i < count[k] && len + 5 < cap; i++) {
            char name[4];
            if (tianjin)
                snprintf(name, sizeof name, "%s", mj_kind_name(k));
            else
                tg_tile_format(k, name);
            len += (size_t)snprintf(out + len, cap - len, "%s%s", len ? " " : "", name);
        }
}

/* The stored deal is the one the seed deals: the view of each seat before any action. */
static void check_deal(checker *c, const game_ops *game, const game_hand *hand, const check_hand *h)
{
    if (h->table->tianjin) { /* nothing is dealt before the pre-hand choices: the whole stored deal */
        json_t *dealt = game->deal_json(hand);
        if (!json_equal(dealt, h->deal))
            problem(c, "table %s hand %lld: its stored deal is not what its seed deals", h->table->code,
                    (long long)h->number);
        json_decref(dealt);
        return;
    }
    for (int s = 0; s < GAME_SEATS; s++) {
        uint8_t stored[CRASH_KINDS], dealt[CRASH_KINDS];
        json_t *view = game->view(hand, s);
        bool ok = crash_count_tiles(false, json_object_get(view, "hand"), dealt);
        json_decref(view);
        if (!deal_of_seat(h, s, stored)) {
            char *text = json_dumps(h->deal, JSON_COMPACT | JSON_ENCODE_ANY);
            problem(c, "table %s hand %lld: its stored deal is not four lists of tiles: %.200s", h->table->code,
                    (long long)h->number, text ? text : "(null)");
            free(text);
            return;
        }
        if (!ok || memcmp(stored, dealt, sizeof stored) != 0)
            problem(c, "table %s hand %lld: seat %d's stored deal is not what its seed deals", h->table->code,
                    (long long)h->number, s);
    }
}

/* Applies the stored actions through the shared replay helper; false (with a problem) at the
 * first refused one. */
static bool replay_actions(checker *c, const game_ops *game, game_hand *hand, const check_hand *h)
{
    size_t n = json_array_size(h->actions);
    game_logged_action *log = calloc(n + 1, sizeof *log);
    size_t i;
    json_t *item;
    json_array_foreach(h->actions, i, item)
    {
        int64_t seq = json_integer_value(json_object_get(item, "seq"));
        if (seq != (int64_t)i + 1) {
            problem(c, "table %s hand %lld: action number %zu is stored as seq %lld", h->table->code,
                    (long long)h->number, i + 1, (long long)seq);
            free(log);
            return false;
        }
        log[i] = (game_logged_action){.seat = (int)json_integer_value(json_object_get(item, "seat")),
                                      .action = json_object_get(item, "action")};
    }
    game_replay_error err;
    bool ok = game_replay_actions(game, hand, log, n, NULL, NULL, &err);
    free(log);
    if (!ok) {
        char *text = json_dumps(json_array_get(h->actions, err.index), JSON_COMPACT);
        problem(c, "table %s hand %lld: stored action %s does not replay: %s (%s)", h->table->code,
                (long long)h->number, text ? text : "?", err.code, err.message);
        free(text);
    }
    return ok;
}

static void replay_hand(checker *c, const check_hand *h)
{
    const game_ops *game = h->table ? game_find(h->table->game) : NULL;
    if (game == NULL || h->table->options == NULL) {
        problem(c, "hand id %lld: its table's game or options cannot be read", (long long)h->id);
        return;
    }
    game_hand *hand = game->hand_new(h->table->options, h->seed, h->game_state);
    if (hand == NULL) {
        problem(c, "table %s hand %lld: hand_new failed", h->table->code, (long long)h->number);
        return;
    }
    check_deal(c, game, hand, h);
    if (replay_actions(c, game, hand, h)) {
        bool over = game->is_over(hand);
        if (h->result == NULL && over)
            problem(c, "table %s hand %lld: unfinished in the store, yet its %zu stored actions end it",
                    h->table->code, (long long)h->number, json_array_size(h->actions));
        if (h->result != NULL && !over)
            problem(c, "table %s hand %lld: finished in the store, yet its %zu stored actions do not end it",
                    h->table->code, (long long)h->number, json_array_size(h->actions));
        if (h->result != NULL && over) {
            json_t *result = game->result_json(hand);
            if (!game_result_equal(h->result, result)) {
                char *want = json_dumps(result, JSON_COMPACT), *got = json_dumps(h->result, JSON_COMPACT);
                problem(c, "table %s hand %lld: the replay's result %.400s differs from the stored %.400s",
                        h->table->code, (long long)h->number, want ? want : "?", got ? got : "?");
                free(want);
                free(got);
            }
            json_decref(result);
        }
    }
    game->hand_free(hand);
}

/* The table state a finished hand's result names for the next hand (Tien Gow: banker and
 * multiplier; Tianjin: banker, count and whether it must sit). */
static json_t *next_state_of(const check_table *t, const json_t *result)
{
    if (t->tianjin)
        return json_pack("{s:O, s:O, s:O}", "banker", json_object_get(result, "next_banker"), "count",
                         json_object_get(result, "next_count"), "must_sit", json_object_get(result, "next_must_sit"));
    return json_pack("{s:O, s:O}", "banker", json_object_get(result, "next_banker"), "multiplier",
                     json_object_get(result, "next_multiplier"));
}

static void state_problem(checker *c, const check_table *t, const char *where, const json_t *has,
                          const check_hand *previous, const json_t *named)
{
    char *got = json_dumps(has, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    char *want = named ? json_dumps(named, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    problem(c, "table %s: %s starts from %s, but hand %lld's result named %s", t->code, where, got ? got : "nothing",
            (long long)previous->number, want ? want : "(missing keys)");
    free(got);
    free(want);
}

/* Hand numbers, unfinished hands and the table state that carries from hand to hand. */
static void check_table_chain(checker *c, const check_table *t)
{
    const check_hand *previous = NULL;
    int64_t expected = 1;
    for (size_t i = 0; i < c->n_hands; i++) {
        const check_hand *h = &c->hands[i];
        if (h->table_id != t->id)
            continue;
        if (h->number != expected)
            problem(c, "table %s: hand %lld follows hand %lld", t->code, (long long)h->number, (long long)expected - 1);
        expected = h->number + 1;
        if (previous != NULL && previous->result == NULL)
            problem(c, "table %s: hand %lld is unfinished but hand %lld began after it", t->code,
                    (long long)previous->number, (long long)h->number);
        if (previous != NULL && previous->result != NULL) {
            json_t *named = next_state_of(t, previous->result);
            if (named == NULL || !json_equal(named, h->game_state)) {
                char where[32];
                snprintf(where, sizeof where, "hand %lld", (long long)h->number);
                state_problem(c, t, where, h->game_state, previous, named);
            }
            json_decref(named);
        }
        previous = h;
    }
    if (previous == NULL)
        return;
    /* the table keeps the state its next hand will start from */
    json_t *named = previous->result ? next_state_of(t, previous->result) : json_incref(previous->game_state);
    if (named == NULL || !json_equal(named, t->state))
        state_problem(c, t, "its next hand", t->state, previous, named);
    json_decref(named);
}

/* ---- (e): the tiles each seated client held ------------------------------------------------------------ */

/* ---- (e) at Tianjin: a seat's tiles change with every draw, so each view it saw must be its
 * seat's view after some number of the hand's stored actions, and later views after no fewer. */

typedef struct step_hands { /* the seat's concealed tiles after each stored action (0: none yet) */
    int seat;
    uint8_t (*count)[CRASH_KINDS];
    bool *dealt;
    size_t n, cap;
    const game_ops *game;
} step_hands;

static bool record_step(void *ctx, const game_hand *hand, size_t index)
{
    (void)index;
    step_hands *steps = ctx;
    if (steps->n == steps->cap) {
        size_t cap = steps->cap ? steps->cap * 2 : 256;
        void *count = realloc(steps->count, cap * sizeof *steps->count);
        if (count != NULL)
            steps->count = count;
        void *dealt = realloc(steps->dealt, cap * sizeof *steps->dealt);
        if (dealt != NULL)
            steps->dealt = dealt;
        if (count == NULL || dealt == NULL)
            return false;
        steps->cap = cap;
    }
    json_t *view = steps->game->view(hand, steps->seat);
    const json_t *tiles = json_object_get(view, "hand");
    steps->dealt[steps->n] = crash_count_tiles(true, tiles, steps->count[steps->n]);
    json_decref(view);
    steps->n++;
    return true;
}

/* Replays hand h and records the seat's tiles after each action; false if it does not replay
 * (which the replay check reports). */
static bool replay_steps(const check_hand *h, int seat, step_hands *steps)
{
    steps->n = 0;
    steps->seat = seat;
    steps->game = game_find(h->table->game);
    if (steps->game == NULL)
        return false;
    size_t n = json_array_size(h->actions);
    game_logged_action *log = calloc(n + 1, sizeof *log);
    size_t i;
    json_t *item;
    json_array_foreach(h->actions, i, item)
        log[i] = (game_logged_action){.seat = (int)json_integer_value(json_object_get(item, "seat")),
                                      .action = json_object_get(item, "action")};
    game_replay_error err;
    game_hand *hand = game_replay(steps->game, h->table->options, h->seed, h->game_state, log, n, record_step, steps,
                                  &err);
    free(log);
    if (hand == NULL)
        return false; /* reported by the replay check */
    steps->game->hand_free(hand);
    return steps->n > 0;
}

static void check_tianjin_tiles(checker *c, const crash_player *p, int64_t table_id, crash_figures *figures)
{
    step_hands steps = {0};
    int64_t steps_of = -1;  /* the hand steps holds */
    size_t at = 0;          /* the step the previous view of that hand matched */
    long previous = -1;     /* the previous view of that hand */
    long first = -1;
    bool continued = false;
    for (size_t i = 0; i < p->n_seen; i++) {
        const crash_tiles_seen *seen = &p->seen[i];
        char held[256];
        tiles_text(true, seen->count, held, sizeof held);
        const check_hand *h = hand_by_number(c, table_id, seen->hand);
        if (h == NULL) {
            problem(c, "table %s hand %lld: %s held [%s] (server %d) but the store has no such hand", p->code,
                    (long long)seen->hand, p->name, held, seen->epoch);
            continue;
        }
        if (seen->banker != h->banker || seen->multiplier != h->multiplier)
            problem(c, "table %s hand %lld: %s's view (server %d) has banker %d count %lld, the store %d and %lld",
                    p->code, (long long)seen->hand, p->name, seen->epoch, seen->banker, (long long)seen->multiplier,
                    h->banker, (long long)h->multiplier);
        if (steps_of != seen->hand) {
            steps_of = seen->hand;
            at = 0;
            previous = -1;
            first = (long)i;
            continued = false;
            if (!replay_steps(h, p->seat, &steps)) {
                steps.n = 0;
                continue;
            }
        }
        if (steps.n == 0)
            continue;
        size_t k = at;
        while (k < steps.n && !(steps.dealt[k] && memcmp(steps.count[k], seen->count, CRASH_KINDS) == 0))
            k++;
        if (k == steps.n) {
            problem(c, "table %s hand %lld: %s held [%s] (server %d), which is not its seat's tiles after any of the "
                       "stored actions from the %zu-th on",
                    p->code, (long long)seen->hand, p->name, held, seen->epoch, at);
            continue;
        }
        at = k;
        if (previous >= 0 && p->seen[previous].epoch < seen->epoch && !p->seen[previous].over && !continued) {
            continued = true;
            figures->hands_continued++;
            figures->continued_tianjin++;
            if (p->seen[first].source == CRASH_VIEW_DEAL || p->seen[first].source == CRASH_VIEW_EVENT)
                figures->continued_from_deal++; /* its first view was its first dealt one */
        }
        previous = (long)i;
    }
    free(steps.count);
    free(steps.dealt);
}

static void check_player_tiles(checker *c, const crash_player *p, crash_figures *figures)
{
    if (p->seat < 0 || p->n_seen == 0)
        return;
    if (p->tianjin) {
        int64_t table_id = table_id_of(c, p->code);
        if (table_id > 0)
            check_tianjin_tiles(c, p, table_id, figures);
        return;
    }
    int64_t table_id = table_id_of(c, p->code);
    if (table_id <= 0)
        return; /* reported with the hand_over checks */
    int64_t max_hand = 0;
    for (size_t i = 0; i < p->n_seen; i++)
        max_hand = p->seen[i].hand > max_hand ? p->seen[i].hand : max_hand;
    /* per hand number: the index of the latest view of it so far, its first one, whether continued */
    long *last = malloc((size_t)(max_hand + 1) * sizeof *last);
    long *first = malloc((size_t)(max_hand + 1) * sizeof *first);
    bool *continued = calloc((size_t)max_hand + 1, sizeof *continued);
    for (int64_t k = 0; k <= max_hand; k++)
        last[k] = first[k] = -1;

    for (size_t i = 0; i < p->n_seen; i++) {
        const crash_tiles_seen *seen = &p->seen[i];
        char held[128], other[128];
        tiles_text(false, seen->count, held, sizeof held);
        const check_hand *h = hand_by_number(c, table_id, seen->hand);
        uint8_t deal[CRASH_KINDS];
        if (h == NULL || !deal_of_seat(h, p->seat, deal)) {
            problem(c, "table %s hand %lld: %s held [%s] (server %d) but the store has %s", p->code,
                    (long long)seen->hand, p->name, held, seen->epoch, h == NULL ? "no such hand" : "no deal for it");
            continue;
        }
        tiles_text(false, deal, other, sizeof other);
        if (seen->banker != h->banker || seen->multiplier != h->multiplier)
            problem(c, "table %s hand %lld: %s's view (server %d) has banker %d multiplier %lld, the store %d and %lld",
                    p->code, (long long)seen->hand, p->name, seen->epoch, seen->banker, (long long)seen->multiplier,
                    h->banker, (long long)h->multiplier);
        if (seen->source == CRASH_VIEW_DEAL && memcmp(seen->count, deal, sizeof deal) != 0)
            problem(c, "table %s hand %lld: %s was dealt [%s] (server %d) but the stored deal of seat %d is [%s]",
                    p->code, (long long)seen->hand, p->name, held, seen->epoch, p->seat, other);
        else if (!subset(seen->count, deal))
            problem(c, "table %s hand %lld: %s held [%s] (server %d), not within the stored deal [%s]", p->code,
                    (long long)seen->hand, p->name, held, seen->epoch, other);
        long before = last[seen->hand];
        if (before >= 0) {
            const crash_tiles_seen *prev = &p->seen[before];
            tiles_text(false, prev->count, other, sizeof other);
            if (!subset(seen->count, prev->count))
                problem(c, "table %s hand %lld: %s held [%s] (server %d), after [%s] (server %d): tiles came back",
                        p->code, (long long)seen->hand, p->name, held, seen->epoch, other, prev->epoch);
            if (prev->epoch < seen->epoch && !prev->over && !continued[seen->hand]) {
                continued[seen->hand] = true;
                figures->hands_continued++;
                if (p->seen[first[seen->hand]].source == CRASH_VIEW_DEAL)
                    figures->continued_from_deal++;
            }
        } else {
            first[seen->hand] = (long)i;
        }
        last[seen->hand] = (long)i;
    }
    free(last);
    free(first);
    free(continued);
}

/* An act answered ok was stored (PROTOCOL.md: ok comes after the move is stored and its event
 * sent), so each one is among its hand's stored actions for that seat: the same discard may be
 * made twice in a hand (civil tiles come in pairs), so the n-th such act needs n stored ones. */
static void check_acts_stored(checker *c, const crash_player *p, crash_figures *figures)
{
    int64_t table_id = table_id_of(c, p->code);
    for (size_t i = 0; i < p->n_acts; i++) {
        const crash_act *act = &p->acts[i];
        figures->acts_ok++;
        size_t same_before = 0, stored = 0, k;
        for (k = 0; k < i; k++)
            same_before += p->acts[k].hand == act->hand && json_equal(p->acts[k].action, act->action);
        const check_hand *h = table_id > 0 ? hand_by_number(c, table_id, act->hand) : NULL;
        json_t *item;
        if (h != NULL)
            json_array_foreach(h->actions, k, item) stored +=
                json_integer_value(json_object_get(item, "seat")) == p->seat &&
                json_equal(json_object_get(item, "action"), act->action);
        if (stored <= same_before) {
            figures->acts_ok_not_stored++;
            char *text = json_dumps(act->action, JSON_COMPACT);
            problem(c, "table %s hand %lld: %s's act %s was answered ok (server %d) but is not stored", p->code,
                    (long long)act->hand, p->name, text ? text : "?", act->epoch);
            free(text);
        }
    }
}

/* ---- driver ------------------------------------------------------------------------------------------------- */

static void free_checker(checker *c)
{
    for (size_t i = 0; i < c->n_tables; i++)
        json_decref(c->tables[i].options);
    for (size_t i = 0; i < c->n_hands; i++) {
        json_decref(c->hands[i].deal);
        json_decref(c->hands[i].game_state);
        json_decref(c->hands[i].result);
        json_decref(c->hands[i].actions);
    }
    for (size_t i = 0; i < c->n_tables; i++)
        json_decref(c->tables[i].state);
    free(c->tables);
    free(c->hands);
    crash_db_close(c->db);
}

int crash_check_store(const char *db_path, crash_player *const players[], size_t n_players, crash_figures *figures)
{
    checker c = {0};
    memset(figures, 0, sizeof *figures);
    char error[512];
    c.db = crash_db_open(db_path, error, sizeof error);
    if (c.db == NULL) {
        problem(&c, "%s", error);
        free_checker(&c);
        return c.problems;
    }
    if (load_tables(&c) && load_hands(&c) && load_actions(&c) && load_ledger(&c)) {
        check_ledger_rows(&c, figures);
        check_hand_overs(&c, players, n_players, figures);
        for (size_t i = 0; i < c.n_hands; i++) {
            const check_hand *h = &c.hands[i];
            figures->hands_stored++;
            figures->actions_stored += (long)json_array_size(h->actions);
            if (h->result != NULL)
                figures->hands_finished++;
            else
                figures->hands_unfinished++;
            if (h->table != NULL)
                replay_hand(&c, h);
        }
        for (size_t i = 0; i < c.n_tables; i++)
            check_table_chain(&c, &c.tables[i]);
        for (size_t i = 0; i < n_players; i++) {
            check_player_tiles(&c, players[i], figures);
            check_acts_stored(&c, players[i], figures);
        }
    }
    int problems = c.problems;
    free_checker(&c);
    return problems;
}
