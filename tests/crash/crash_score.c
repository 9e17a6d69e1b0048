/*
 * crash_score — the stored hands against the score calculator's replay mode. See crash_score.h.
 */
#include "crash_score.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>
#include "crash_db.h"
#include "game.h"

#define MAX_PRINTED 20
#define SEATS 4

typedef struct scorer {
    crash_db *db;
    const char *binary;
    int problems;
} scorer;

__attribute__((format(printf, 2, 3))) static void problem(scorer *s, const char *format, ...)
{
    if (++s->problems > MAX_PRINTED)
        return;
    va_list args;
    va_start(args, format);
    fprintf(stderr, "crash: CALCULATOR: ");
    vfprintf(stderr, format, args);
    fprintf(stderr, "\n");
    va_end(args);
}

/* The rows of a query, or NULL with the problem told. */
static crash_rows *query(scorer *s, const char *sql)
{
    char error[256];
    crash_rows *rows = crash_db_query(s->db, sql, error, sizeof error);
    if (rows == NULL)
        problem(s, "the query \"%s\" failed: %s", sql, error);
    return rows;
}

/* ---- running the calculator ------------------------------------------------------------------ */

/* The calculator's answer to the document (parsed), or NULL with a problem told. */
static json_t *run_calculator(scorer *s, const json_t *document, const char *what)
{
    char *text = json_dumps(document, JSON_COMPACT);
    int in[2], out[2];
    if (text == NULL || pipe(in) != 0) {
        free(text);
        problem(s, "%s: cannot prepare the calculator's input", what);
        return NULL;
    }
    if (pipe(out) != 0) {
        close(in[0]);
        close(in[1]);
        free(text);
        problem(s, "%s: cannot prepare the calculator's output", what);
        return NULL;
    }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        execl(s->binary, s->binary, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    /* the calculator reads all of its input before it writes, so writing first cannot block forever */
    size_t len = strlen(text), done = 0;
    while (pid > 0 && done < len) {
        ssize_t n = write(in[1], text + done, len - done);
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    close(in[1]);
    free(text);
    size_t cap = 1 << 16, got = 0;
    char *answer = malloc(cap);
    ssize_t n;
    while (answer != NULL && (n = read(out[0], answer + got, cap - got)) > 0) {
        got += (size_t)n;
        if (got == cap) {
            char *bigger = realloc(answer, cap * 2);
            if (bigger == NULL)
                break;
            answer = bigger;
            cap *= 2;
        }
    }
    close(out[0]);
    int status = 0;
    if (pid > 0)
        waitpid(pid, &status, 0);
    json_t *parsed = answer != NULL ? json_loadb(answer, got, 0, NULL) : NULL;
    if (pid <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || parsed == NULL) {
        problem(s, "%s: the calculator answered (status %d) %.300s", what, status,
                answer != NULL ? answer : "(nothing)");
        json_decref(parsed);
        parsed = NULL;
    }
    free(answer);
    return parsed;
}

/* ---- the documents ----------------------------------------------------------------------------- */

/* Each stored action with its seat, as the replay document lists them. */
static json_t *stored_actions(scorer *s, int64_t hand_id)
{
    json_t *actions = json_array();
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT seat, action FROM hand_actions WHERE hand_id = %lld ORDER BY seq",
             (long long)hand_id);
    crash_rows *rows = query(s, sql);
    for (size_t r = 0; r < crash_rows_count(rows); r++) {
        json_t *action = crash_rows_json(rows, r, 1);
        if (!json_is_object(action)) {
            json_decref(action);
            action = json_object();
        }
        json_object_set_new(action, "seat", json_integer(crash_rows_int(rows, r, 0)));
        json_array_append_new(actions, action);
    }
    crash_rows_free(rows);
    return actions;
}

/* The calculator's document for a kept hand, as the game writes it for every export (game.h). */
static json_t *replay_document(const char *game_name, const json_t *options, const json_t *deal, const json_t *state,
                               json_t *actions)
{
    const game_ops *game = game_find(game_name);
    if (game == NULL || game->score_request == NULL) {
        json_decref(actions);
        return NULL;
    }
    return game->score_request(options, deal, state, actions);
}

/* ---- the comparisons ------------------------------------------------------------------------------ */

/* The ledger's reason for a calculator payment's `why` (Tianjin: mj_settle's sentences). */
static const char *ledger_reason(bool tianjin, const char *why)
{
    static const char *const TIANJIN[][2] = {
        {"self-drawn win (自摸)", "settle"},        {"exposed kong (明杠)", "kong"},
        {"concealed kong (暗杠)", "concealed_kong"}, {"gold kong (金杠)", "gold_kong"},
        {"铲: the banker's first discard followed by all three", "chan"},
        {"discarded a wild", "wild_discard"},
    };
    if (!tianjin)
        return strcmp(why, "settlement") == 0 ? "settle" : NULL;
    for (size_t i = 0; i < sizeof TIANJIN / sizeof TIANJIN[0]; i++)
        if (strcmp(why, TIANJIN[i][0]) == 0)
            return TIANJIN[i][1];
    return NULL;
}

/* Adds units moved from one seat to another under a reason to the per-seat, per-reason sums. */
static void add_move(json_t *expected, const char *reason, int from, int to, json_int_t units)
{
    json_t *row = json_object_get(expected, reason);
    if (row == NULL) {
        row = json_pack("[i,i,i,i]", 0, 0, 0, 0);
        json_object_set_new(expected, reason, row);
    }
    if (from >= 0 && from < SEATS)
        json_array_set_new(row, (size_t)from, json_integer(json_integer_value(json_array_get(row, (size_t)from)) - units));
    if (to >= 0 && to < SEATS)
        json_array_set_new(row, (size_t)to, json_integer(json_integer_value(json_array_get(row, (size_t)to)) + units));
}

/* The ledger rows the answer implies: {"settle":[u0,u1,u2,u3], "kong":[…], …}. */
static json_t *expected_ledger(scorer *s, bool tianjin, const json_t *answer, const char *what)
{
    json_t *expected = json_object();
    add_move(expected, "settle", -1, -1, 0); /* every seat has a settle row, even of 0 */
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(answer, "payments"), i, p)
    {
        const char *why = json_string_value(json_object_get(p, "why"));
        const char *reason = why != NULL ? ledger_reason(tianjin, why) : NULL;
        if (reason == NULL) {
            problem(s, "%s: a payment for a reason the ledger does not know: %s", what, why ? why : "(none)");
            continue;
        }
        add_move(expected, reason, (int)json_integer_value(json_object_get(p, "from")),
                 (int)json_integer_value(json_object_get(p, "to")), json_integer_value(json_object_get(p, "units")));
    }
    json_array_foreach(json_object_get(answer, "bonuses"), i, p) /* Tien Gow's, by kind */
        add_move(expected, json_string_value(json_object_get(p, "kind")), (int)json_integer_value(json_object_get(p, "from")),
                 (int)json_integer_value(json_object_get(p, "to")), json_integer_value(json_object_get(p, "units")));
    return expected;
}

static json_t *stored_ledger(scorer *s, int64_t hand_id, long *rows)
{
    json_t *stored = json_object();
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT seat, reason, units FROM ledger WHERE hand_id = %lld", (long long)hand_id);
    crash_rows *found = query(s, sql);
    for (size_t r = 0; r < crash_rows_count(found); r++) {
        const char *reason = crash_rows_text(found, r, 1);
        int seat = (int)crash_rows_int(found, r, 0);
        add_move(stored, reason != NULL ? reason : "?", -1, seat, crash_rows_int(found, r, 2));
        (*rows)++;
    }
    crash_rows_free(found);
    return stored;
}

static void compare_ledger(scorer *s, bool tianjin, const json_t *answer, int64_t hand_id, const char *what)
{
    long rows = 0;
    json_t *expected = expected_ledger(s, tianjin, answer, what), *stored = stored_ledger(s, hand_id, &rows);
    if (!json_equal(expected, stored)) {
        char *want = json_dumps(expected, JSON_COMPACT | JSON_SORT_KEYS), *got = json_dumps(stored, JSON_COMPACT | JSON_SORT_KEYS);
        problem(s, "%s: the calculator's payments by reason per seat are %s, the ledger's %ld rows %s", what,
                want ? want : "?", rows, got ? got : "?");
        free(want);
        free(got);
    }
    json_decref(expected);
    json_decref(stored);
}

/* Every key both have must agree; the ones that must be there, must. */
static void compare_result(scorer *s, bool tianjin, const json_t *answer, const json_t *result, const char *what)
{
    static const char *const tianjin_keys[] = {"payments", "net", "winner", "next_banker", "next_count", "next_must_sit",
                                               "win", "kongs", "pulls"};
    static const char *const tiengow_keys[] = {"net", "winner", "next_banker", "next_multiplier", "bonuses", "endings"};
    const char *const *required = tianjin ? tianjin_keys : tiengow_keys;
    size_t n_required = tianjin ? sizeof tianjin_keys / sizeof *tianjin_keys : sizeof tiengow_keys / sizeof *tiengow_keys;
    for (size_t i = 0; i < n_required; i++)
        if (json_object_get(answer, required[i]) == NULL || json_object_get(result, required[i]) == NULL)
            problem(s, "%s: \"%s\" is missing from the %s", what, required[i],
                    json_object_get(answer, required[i]) == NULL ? "calculator's answer" : "stored result");
    const char *key;
    const json_t *value;
    json_object_foreach((json_t *)answer, key, value)
    {
        const json_t *stored = json_object_get(result, key);
        if (stored == NULL || json_equal(value, stored))
            continue;
        char *want = json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY), *got = json_dumps(stored, JSON_COMPACT | JSON_ENCODE_ANY);
        problem(s, "%s: the calculator's \"%s\" is %.300s, the stored result's %.300s", what, key, want ? want : "?",
                got ? got : "?");
        free(want);
        free(got);
    }
}

/* The table state the answer names must be the one play went on from. */
static void compare_next_state(scorer *s, bool tianjin, const json_t *answer, const json_t *next_state,
                               const char *what, const char *whose)
{
    json_t *named = tianjin ? json_pack("{s:O, s:O, s:O}", "banker", json_object_get(answer, "next_banker"), "count",
                                        json_object_get(answer, "next_count"), "must_sit",
                                        json_object_get(answer, "next_must_sit"))
                            : json_pack("{s:O, s:O}", "banker", json_object_get(answer, "next_banker"), "multiplier",
                                        json_object_get(answer, "next_multiplier"));
    if (named == NULL || !json_equal(named, next_state)) {
        char *want = named ? json_dumps(named, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
        char *got = json_dumps(next_state, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
        problem(s, "%s: the calculator says play goes on from %s, %s has %s", what, want ? want : "(missing keys)",
                whose, got ? got : "nothing");
        free(want);
        free(got);
    }
    json_decref(named);
}

/* ---- driver ----------------------------------------------------------------------------------------- */

typedef struct stored_hand {
    int64_t id, table_id, number;
    uint64_t seed;
    json_t *deal, *state, *result;
} stored_hand;

static void check_hand(scorer *s, const stored_hand *h, const stored_hand *next, crash_score_figures *figures)
{
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT code, game, options, game_state FROM game_tables WHERE id = %lld",
             (long long)h->table_id);
    crash_rows *table = query(s, sql);
    if (crash_rows_count(table) != 1 || crash_rows_text(table, 0, 1) == NULL) {
        problem(s, "hand id %lld: no table", (long long)h->id);
        crash_rows_free(table);
        return;
    }
    char what[96];
    snprintf(what, sizeof what, "table %s hand %lld", crash_rows_text(table, 0, 0) ? crash_rows_text(table, 0, 0) : "?",
             (long long)h->number);
    const char *game = crash_rows_text(table, 0, 1);
    bool tianjin = strcmp(game, "tianjin") == 0;
    json_t *options = crash_rows_json(table, 0, 2), *table_state = crash_rows_json(table, 0, 3);
    json_t *document = replay_document(game, options, h->deal, h->state, stored_actions(s, h->id));
    crash_rows_free(table);
    json_t *answer = document != NULL ? run_calculator(s, document, what) : NULL;
    if (document == NULL)
        problem(s, "%s: its options, deal or table state cannot make a replay document", what);
    if (answer != NULL) {
        figures->hands++;
        if (tianjin) {
            figures->tianjin_hands++;
            figures->tianjin_won += !json_is_null(json_object_get(answer, "winner"));
            bool kong = false;
            size_t i;
            const json_t *p;
            json_array_foreach(json_object_get(answer, "payments"), i, p)
            {
                const char *why = json_string_value(json_object_get(p, "why"));
                kong = kong || (why != NULL && strstr(why, "kong") != NULL);
            }
            figures->tianjin_kongs += kong;
        }
        compare_result(s, tianjin, answer, h->result, what);
        compare_ledger(s, tianjin, answer, h->id, what);
        if (next != NULL)
            compare_next_state(s, tianjin, answer, next->state, what, "the next hand");
        else
            compare_next_state(s, tianjin, answer, table_state, what, "the table");
    }
    json_decref(answer);
    json_decref(document);
    json_decref(options);
    json_decref(table_state);
}

static void free_hand(stored_hand *h)
{
    json_decref(h->deal);
    json_decref(h->state);
    json_decref(h->result);
    memset(h, 0, sizeof *h);
}

static void read_hand(const crash_rows *rows, size_t r, stored_hand *h)
{
    h->id = crash_rows_int(rows, r, 0);
    h->table_id = crash_rows_int(rows, r, 1);
    h->number = crash_rows_int(rows, r, 2);
    h->seed = (uint64_t)crash_rows_int(rows, r, 3); /* the same 64 bits (migrations/0001_init.sql) */
    h->deal = crash_rows_json(rows, r, 4);
    h->state = crash_rows_json(rows, r, 5);
    h->result = crash_rows_json(rows, r, 6);
}

int crash_score_check(const char *db_path, const char *score_binary, crash_score_figures *figures)
{
    scorer s = {.binary = score_binary};
    memset(figures, 0, sizeof *figures);
    char error[512];
    s.db = crash_db_open(db_path, error, sizeof error);
    if (s.db == NULL) {
        problem(&s, "%s", error);
        return s.problems;
    }
    crash_rows *hands = query(&s, "SELECT id, table_id, number, seed, deal, game_state, result FROM hands "
                                  "ORDER BY table_id, number");
    size_t n = crash_rows_count(hands);
    /* each hand is checked with the next one, which holds the table state it started from */
    stored_hand current = {0}, next = {0};
    if (n > 0)
        read_hand(hands, 0, &current);
    for (size_t r = 0; r < n; r++) {
        bool more = r + 1 < n;
        if (more)
            read_hand(hands, r + 1, &next);
        bool same_table = more && next.table_id == current.table_id;
        if (current.result != NULL && !json_is_null(current.result))
            check_hand(&s, &current, same_table ? &next : NULL, figures);
        free_hand(&current);
        current = next;
        memset(&next, 0, sizeof next);
    }
    crash_rows_free(hands);
    crash_db_close(s.db);
    return s.problems;
}
