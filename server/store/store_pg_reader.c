/*
 * store_pg_reader — the admins' heavy reads (store_reader.h) on a PostgreSQL database: players,
 * tables, one hand with its actions, and the scan the integrity check replays, each in one
 * REPEATABLE READ READ ONLY transaction (one snapshot) on a connection of the reader's own. The
 * same JSON, field for field, as the SQLite reader's (store_reader.c), which hands every call on
 * a postgresql:// database to these.
 *
 * Statements are fixed text with every filter a parameter ("$1 = 0 OR …"), planned each time
 * with their values (store_pg_run_once). The scan reads the finished hands in one statement, then
 * each hand's actions and rows (two statements a hand, all in the one snapshot).
 */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_pg.h"
#include "store_pg_reader.h"

struct store_pg_reader {
    store_pg q;
    char *key_path;
    atomic_bool interrupted;
};

store_pg_reader *store_pg_reader_open(const char *uri, const char *key_path, store_error *error)
{
    store_pg_reader *r = calloc(1, sizeof *r);
    if (r == NULL || (key_path != NULL && key_path[0] != '\0' && (r->key_path = strdup(key_path)) == NULL)) {
        free(r);
        store_error_set(error, STORE_INTERNAL, "Out of memory opening the database for reading.");
        return NULL;
    }
    if (!store_pg_connect(&r->q, uri, error)) {
        store_pg_reader_close(r);
        return NULL;
    }
    return r;
}

void store_pg_reader_close(store_pg_reader *r)
{
    if (r == NULL)
        return;
    store_pg_disconnect(&r->q);
    free(r->key_path);
    free(r);
}

void store_pg_reader_interrupt(store_pg_reader *r)
{
    atomic_store(&r->interrupted, true);
}

/* ---- Helpers ---- */

/* Starts a read; the error is cleared first, since a read that finds nothing leaves it untouched. */
static bool begin(store_pg_reader *r, store_error *error)
{
    error->status = STORE_OK;
    error->message[0] = '\0';
    if (atomic_load(&r->interrupted)) {
        store_error_set(error, STORE_INTERNAL, "The read was interrupted.");
        return false;
    }
    return store_pg_exec(&r->q, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", NULL, "starting an admin read",
                         error) >= 0;
}

static void end(store_pg_reader *r)
{
    PQclear(PQexec(r->q.conn, "COMMIT"));
}

static json_t *text_or_null(const PGresult *res, int i, int col)
{
    return PQgetisnull(res, i, col) ? json_null() : json_string(PQgetvalue(res, i, col));
}

static json_t *int_or_null(const PGresult *res, int i, int col)
{
    return PQgetisnull(res, i, col) ? json_null() : json_integer(pg_get_int(res, i, col));
}

/* Stored JSON text as a value; {} when it does not parse (a damaged row shows as empty). */
static json_t *json_column(const PGresult *res, int i, int col)
{
    json_t *v = PQgetisnull(res, i, col) ? NULL : json_loads(PQgetvalue(res, i, col), JSON_DECODE_ANY, NULL);
    return v ? v : json_object();
}

static json_t *stored_json_or_null(const PGresult *res, int i, int col)
{
    return PQgetisnull(res, i, col) ? json_null() : json_column(res, i, col);
}

typedef json_t *(*row_fn)(const PGresult *res, int i);

/* Runs sql, every row through row() into a new array; NULL with error filled. */
static json_t *list_of(store_pg_reader *r, const char *sql, const pg_params *p, row_fn row, const char *doing,
                       store_error *error)
{
    PGresult *res = store_pg_run_once(&r->q, sql, p, doing, error);
    if (res == NULL)
        return NULL;
    json_t *list = json_array();
    for (int i = 0; i < PQntuples(res); i++)
        json_array_append_new(list, row(res, i));
    PQclear(res);
    return list;
}

/* The one row of sql with $1 = id through row(), or NULL: *found says whether there was one. */
static json_t *one_by_id(store_pg_reader *r, const char *sql, int64_t id, row_fn row, const char *doing, bool *found,
                         store_error *error)
{
    *found = false;
    pg_params p = {0};
    pg_int(&p, id);
    PGresult *res = store_pg_run_once(&r->q, sql, &p, doing, error);
    if (res == NULL)
        return NULL;
    json_t *o = NULL;
    if (PQntuples(res) > 0) {
        *found = true;
        o = row(res, 0);
    }
    PQclear(res);
    return o;
}

static json_t *list_by_id(store_pg_reader *r, const char *sql, int64_t id, row_fn row, const char *doing,
                          store_error *error)
{
    pg_params p = {0};
    pg_int(&p, id);
    return list_of(r, sql, &p, row, doing, error);
}

static void set_next(json_t *page, json_t *list, int limit)
{
    size_t n = json_array_size(list);
    json_t *last = n == (size_t)limit && n > 0 ? json_object_get(json_array_get(list, n - 1), "id") : NULL;
    json_object_set_new(page, "next", last ? json_copy(last) : json_null());
}

/* ---- Players ---- */

#define PLAYER_COLUMNS                                                                                     \
    "SELECT p.id, p.nickname, p.account_name, p.is_admin, p.created_at, p.last_seen_at,"                   \
    " coalesce((SELECT balance_after FROM ledger WHERE player_id = p.id ORDER BY id DESC LIMIT 1), 0),"    \
    " (SELECT count(*) FROM ledger WHERE player_id = p.id AND reason = 'settle') FROM players AS p"

/* ASCII case ignored, as on SQLite: lower() under the "C" collation folds ASCII letters only. */
static const char players_sql[] =
    PLAYER_COLUMNS " WHERE p.id > 0 AND ($1::bigint = 0 OR p.id < $1) AND ($2 = '' OR p.kind = $2)"
                   " AND ($3 = '' OR lower(substr(p.nickname, 1, length($3)) COLLATE \"C\") = lower($3 COLLATE \"C\")"
                   " OR lower(substr(coalesce(p.account_name, ''), 1, length($3)) COLLATE \"C\")"
                   " = lower($3 COLLATE \"C\")) ORDER BY p.id DESC LIMIT $4";
static const char player_sql[] = PLAYER_COLUMNS " WHERE p.id = $1";
static const char player_days_sql[] =
    "SELECT to_char(to_timestamp(at / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, sum(units),"
    " count(DISTINCT CASE WHEN reason <> 'adjustment' THEN hand_id END)"
    " FROM ledger WHERE player_id = $1 GROUP BY day ORDER BY day";
static const char player_tables_sql[] =
    "SELECT t.id, t.code, t.game, count(DISTINCT l.hand_id), sum(l.units), max(l.at)"
    " FROM ledger AS l JOIN game_tables AS t ON t.id = l.table_id WHERE l.player_id = $1"
    " GROUP BY t.id ORDER BY max(l.at) DESC, t.id DESC";

static json_t *player_row(const PGresult *res, int i)
{
    return json_pack("{s:I, s:o, s:o, s:b, s:I, s:I, s:I, s:I}", "id", (json_int_t)pg_get_int(res, i, 0), "nickname",
                     text_or_null(res, i, 1), "account", text_or_null(res, i, 2), "admin", pg_get_int(res, i, 3) != 0,
                     "created_at", (json_int_t)pg_get_int(res, i, 4), "last_seen_at",
                     (json_int_t)pg_get_int(res, i, 5), "balance", (json_int_t)pg_get_int(res, i, 6), "hands",
                     (json_int_t)pg_get_int(res, i, 7));
}

store_status store_pg_reader_players(store_pg_reader *r, const store_player_filter *f, json_t **out,
                                     store_error *error)
{
    *out = NULL;
    if (!begin(r, error))
        return error->status;
    pg_params p = {0};
    pg_int(&p, f->before);
    pg_text(&p, f->kind);
    pg_text(&p, f->q);
    pg_int(&p, f->limit);
    json_t *list = list_of(r, players_sql, &p, player_row, "reading the players", error);
    end(r);
    if (list == NULL)
        return error->status;
    *out = json_pack("{s:O}", "players", list);
    set_next(*out, list, f->limit);
    json_decref(list);
    return STORE_OK;
}

static json_t *day_row(const PGresult *res, int i)
{
    return json_pack("{s:o, s:I, s:I}", "day", text_or_null(res, i, 0), "net", (json_int_t)pg_get_int(res, i, 1),
                     "hands", (json_int_t)pg_get_int(res, i, 2));
}

static json_t *player_table_row(const PGresult *res, int i)
{
    return json_pack("{s:I, s:o, s:o, s:I, s:I, s:I}", "id", (json_int_t)pg_get_int(res, i, 0), "code",
                     text_or_null(res, i, 1), "game", text_or_null(res, i, 2), "hands",
                     (json_int_t)pg_get_int(res, i, 3), "net", (json_int_t)pg_get_int(res, i, 4), "last_at",
                     (json_int_t)pg_get_int(res, i, 5));
}

store_status store_pg_reader_player(store_pg_reader *r, int64_t id, json_t **out, store_error *error)
{
    *out = NULL;
    if (!begin(r, error))
        return error->status;
    bool found;
    json_t *player = one_by_id(r, player_sql, id, player_row, "reading a player", &found, error);
    json_t *days = player ? list_by_id(r, player_days_sql, id, day_row, "reading a player's days", error) : NULL;
    json_t *tables = days ? list_by_id(r, player_tables_sql, id, player_table_row, "reading a player's tables", error)
                          : NULL;
    end(r);
    if (tables == NULL) {
        json_decref(player);
        json_decref(days);
        if (error->status == STORE_OK && !found)
            return store_error_set(error, STORE_NOT_FOUND, "There is no player %" PRId64 ".", id);
        return error->status;
    }
    *out = json_pack("{s:o, s:o, s:o}", "player", player, "by_day", days, "tables", tables);
    return STORE_OK;
}

/* ---- Tables ---- */

#define TABLE_COLUMNS                                                                                 \
    "SELECT t.id, t.code, t.game, t.is_public, t.state, t.created_at, t.host_player_id, h.nickname,"  \
    " (SELECT count(*) FROM hands WHERE table_id = t.id), t.options, t.game_state"                    \
    " FROM game_tables AS t LEFT JOIN players AS h ON h.id = t.host_player_id"

static const char tables_sql[] =
    TABLE_COLUMNS " WHERE t.game <> '" STORE_ADJUSTMENTS_GAME "' AND ($1::bigint = 0 OR t.id < $1)"
                  " AND ($2 = '' OR t.code = $2) AND ($3 = '' OR t.game = $3)"
                  " AND ($4 = '' OR ($4 = 'closed') = (t.state = 'closed')) ORDER BY t.id DESC LIMIT $5";
static const char table_sql[] = TABLE_COLUMNS " WHERE t.id = $1";
static const char table_hands_sql[] =
    "SELECT id, number, started_at, finished_at, game_state, result FROM hands WHERE table_id = $1 ORDER BY number";
/* Each finished hand's seats from its rows (a seat's rows all name the same player, or none). */
static const char table_seats_sql[] =
    "SELECT h.id, l.seat, max(l.player_id), max(p.nickname), sum(l.units) FROM hands AS h"
    " JOIN ledger AS l ON l.hand_id = h.id LEFT JOIN players AS p ON p.id = l.player_id"
    " WHERE h.table_id = $1 GROUP BY h.id, l.seat ORDER BY h.id, l.seat";

static json_t *host_json(const PGresult *res, int i)
{
    if (PQgetisnull(res, i, 6))
        return json_null();
    return json_pack("{s:I, s:o}", "id", (json_int_t)pg_get_int(res, i, 6), "nickname", text_or_null(res, i, 7));
}

static json_t *table_row(const PGresult *res, int i)
{
    return json_pack("{s:I, s:o, s:o, s:b, s:o, s:I, s:I, s:o}", "id", (json_int_t)pg_get_int(res, i, 0), "code",
                     text_or_null(res, i, 1), "game", text_or_null(res, i, 2), "public", pg_get_int(res, i, 3) != 0,
                     "state", text_or_null(res, i, 4), "created_at", (json_int_t)pg_get_int(res, i, 5), "hands",
                     (json_int_t)pg_get_int(res, i, 8), "host", host_json(res, i));
}

static json_t *table_detail_row(const PGresult *res, int i)
{
    json_t *o = table_row(res, i);
    json_object_set_new(o, "options", json_column(res, i, 9));
    json_object_set_new(o, "game_state", json_column(res, i, 10));
    return o;
}

store_status store_pg_reader_tables(store_pg_reader *r, const store_table_filter *f, json_t **out, store_error *error)
{
    *out = NULL;
    if (!begin(r, error))
        return error->status;
    pg_params p = {0};
    pg_int(&p, f->before);
    pg_text(&p, f->code);
    pg_text(&p, f->game);
    pg_text(&p, f->state);
    pg_int(&p, f->limit);
    json_t *list = list_of(r, tables_sql, &p, table_row, "reading the tables", error);
    end(r);
    if (list == NULL)
        return error->status;
    *out = json_pack("{s:O}", "tables", list);
    set_next(*out, list, f->limit);
    json_decref(list);
    return STORE_OK;
}

static json_t *empty_seats(void)
{
    json_t *seats = json_array();
    for (int s = 0; s < STORE_SEATS; s++)
        json_array_append_new(seats, json_pack("{s:n, s:n, s:b, s:n}", "player", "nickname", "bot", 0, "net"));
    return seats;
}

static json_t *hand_row(const PGresult *res, int i)
{
    return json_pack("{s:I, s:I, s:I, s:o, s:o, s:o, s:o}", "id", (json_int_t)pg_get_int(res, i, 0), "number",
                     (json_int_t)pg_get_int(res, i, 1), "started_at", (json_int_t)pg_get_int(res, i, 2),
                     "finished_at", int_or_null(res, i, 3), "game_state", json_column(res, i, 4), "seats",
                     empty_seats(), "result", stored_json_or_null(res, i, 5));
}

/* Fills the seats of hands (oldest first, as table_hands_sql lists them) from table_seats_sql. */
static bool table_seats(store_pg_reader *r, int64_t table_id, json_t *hands, store_error *error)
{
    pg_params p = {0};
    pg_int(&p, table_id);
    PGresult *res = store_pg_run_once(&r->q, table_seats_sql, &p, "reading a table's seats", error);
    if (res == NULL)
        return false;
    size_t h = 0;
    for (int i = 0; i < PQntuples(res); i++) {
        const int64_t hand_id = pg_get_int(res, i, 0);
        while (h < json_array_size(hands) && json_integer_value(json_object_get(json_array_get(hands, h), "id")) < hand_id)
            h++;
        json_t *hand = json_array_get(hands, h);
        if (hand == NULL || json_integer_value(json_object_get(hand, "id")) != hand_id)
            continue;
        json_t *s = json_array_get(json_object_get(hand, "seats"), (size_t)pg_get_int(res, i, 1));
        if (s == NULL)
            continue;
        const bool bot = PQgetisnull(res, i, 2);
        json_object_set_new(s, "player", int_or_null(res, i, 2));
        json_object_set_new(s, "nickname", bot ? json_null() : text_or_null(res, i, 3));
        json_object_set_new(s, "bot", json_boolean(bot));
        json_object_set_new(s, "net", json_integer(pg_get_int(res, i, 4)));
    }
    PQclear(res);
    return true;
}

store_status store_pg_reader_table(store_pg_reader *r, int64_t id, json_t **out, store_error *error)
{
    *out = NULL;
    if (!begin(r, error))
        return error->status;
    bool found;
    json_t *table = one_by_id(r, table_sql, id, table_detail_row, "reading a table", &found, error);
    json_t *hands = table ? list_by_id(r, table_hands_sql, id, hand_row, "reading a table's hands", error) : NULL;
    bool ok = hands && table_seats(r, id, hands, error);
    end(r);
    if (!ok) {
        json_decref(table);
        json_decref(hands);
        if (error->status == STORE_OK && !found)
            return store_error_set(error, STORE_NOT_FOUND, "There is no table %" PRId64 ".", id);
        return error->status;
    }
    *out = json_pack("{s:o, s:o}", "table", table, "hands", hands);
    return STORE_OK;
}

/* ---- One hand ---- */

static const char hand_sql[] =
    "SELECT h.id, h.table_id, t.code, t.game, h.number, h.started_at, h.finished_at,"
    " coalesce(h.options, t.options), h.game_state,"
    " h.result, h.seed FROM hands AS h JOIN game_tables AS t ON t.id = h.table_id WHERE h.id = $1";
static const char hand_actions_sql[] = "SELECT seq, seat, action FROM hand_actions WHERE hand_id = $1 ORDER BY seq";
static const char hand_lines_sql[] =
    "SELECT l.id, l.player_id, p.nickname, l.seat, l.units, l.reason, l.balance_after FROM ledger AS l"
    " LEFT JOIN players AS p ON p.id = l.player_id WHERE l.hand_id = $1 ORDER BY l.id";

static json_t *hand_detail_row(const PGresult *res, int i)
{
    json_t *o = json_pack("{s:I, s:I, s:o, s:o, s:I, s:I, s:o, s:o, s:o, s:o}", "id", (json_int_t)pg_get_int(res, i, 0),
                          "table", (json_int_t)pg_get_int(res, i, 1), "code", text_or_null(res, i, 2), "game",
                          text_or_null(res, i, 3), "number", (json_int_t)pg_get_int(res, i, 4), "started_at",
                          (json_int_t)pg_get_int(res, i, 5), "finished_at", int_or_null(res, i, 6), "options",
                          json_column(res, i, 7), "game_state", json_column(res, i, 8), "result",
                          stored_json_or_null(res, i, 9));
    json_object_set_new(o, "seed", json_integer(pg_get_int(res, i, 10)));
    return o;
}

static json_t *action_row(const PGresult *res, int i)
{
    return json_pack("{s:I, s:i, s:o}", "seq", (json_int_t)pg_get_int(res, i, 0), "seat", (int)pg_get_int(res, i, 1),
                     "action", json_column(res, i, 2));
}

static json_t *line_row(const PGresult *res, int i)
{
    const bool bot = PQgetisnull(res, i, 1);
    return json_pack("{s:I, s:o, s:o, s:i, s:I, s:o, s:o}", "id", (json_int_t)pg_get_int(res, i, 0), "player",
                     int_or_null(res, i, 1), "nickname", bot ? json_null() : text_or_null(res, i, 2), "seat",
                     (int)pg_get_int(res, i, 3), "units", (json_int_t)pg_get_int(res, i, 4), "reason",
                     text_or_null(res, i, 5), "balance", int_or_null(res, i, 6));
}

/* The hand's seats from its lines (nulls while it has none). */
static json_t *seats_of_lines(const json_t *lines)
{
    json_t *seats = empty_seats();
    size_t i;
    const json_t *l;
    json_array_foreach (lines, i, l) {
        json_t *s = json_array_get(seats, (size_t)json_integer_value(json_object_get(l, "seat")));
        if (s == NULL)
            continue;
        const json_t *player = json_object_get(l, "player");
        json_object_set_new(s, "player", json_copy((json_t *)player));
        json_object_set_new(s, "nickname", json_copy(json_object_get(l, "nickname")));
        json_object_set_new(s, "bot", json_boolean(json_is_null(player)));
        json_object_set_new(s, "net", json_integer(json_integer_value(json_object_get(s, "net")) +
                                                   json_integer_value(json_object_get(l, "units"))));
    }
    return seats;
}

store_status store_pg_reader_hand(store_pg_reader *r, int64_t id, json_t **out, store_error *error)
{
    *out = NULL;
    if (!begin(r, error))
        return error->status;
    bool found;
    json_t *hand = one_by_id(r, hand_sql, id, hand_detail_row, "reading a hand", &found, error);
    json_t *actions = hand ? list_by_id(r, hand_actions_sql, id, action_row, "reading a hand's actions", error) : NULL;
    json_t *lines = actions ? list_by_id(r, hand_lines_sql, id, line_row, "reading a hand's rows", error) : NULL;
    end(r);
    if (lines == NULL) {
        json_decref(hand);
        json_decref(actions);
        if (error->status == STORE_OK && !found)
            return store_error_set(error, STORE_NOT_FOUND, "There is no hand %" PRId64 ".", id);
        return error->status;
    }
    json_t *seed = json_incref(json_object_get(hand, "seed"));
    json_object_del(hand, "seed");
    json_object_set_new(hand, "seats", seats_of_lines(lines));
    *out = json_pack("{s:o, s:o, s:{s:o, s:o}}", "hand", hand, "lines", lines, "replay", "seed", seed, "actions",
                     actions);
    return STORE_OK;
}

/* ---- The integrity check ---- */

store_status store_pg_reader_counts(store_pg_reader *r, int64_t *hands, int64_t *rows, store_error *error)
{
    *hands = *rows = 0;
    PGresult *res = store_pg_run_once(&r->q,
                                      "SELECT (SELECT count(*) FROM hands WHERE finished_at IS NOT NULL),"
                                      " (SELECT count(*) FROM ledger)",
                                      NULL, "counting hands and rows", error);
    if (res == NULL)
        return error->status;
    *hands = pg_get_int(res, 0, 0);
    *rows = pg_get_int(res, 0, 1);
    PQclear(res);
    return STORE_OK;
}

static const char scan_hands_sql[] =
    "SELECT h.id, t.game, coalesce(h.options, t.options), h.game_state, h.result, h.seed FROM hands AS h"
    " JOIN game_tables AS t ON t.id = h.table_id WHERE h.finished_at IS NOT NULL ORDER BY h.id";
static const char scan_actions_sql[] = "SELECT seq, seat, action FROM hand_actions WHERE hand_id = $1 ORDER BY seq";
static const char scan_lines_sql[] =
    "SELECT id, player_id, seat, units, reason FROM ledger WHERE hand_id = $1 ORDER BY id";

/* Hand row i of hands to cb with its actions and rows; *go_on false when cb says stop. */
static store_status scan_hand(store_pg_reader *r, const PGresult *hands, int i, store_scan_cb cb, void *ctx,
                              bool *go_on, store_error *error)
{
    const int64_t id = pg_get_int(hands, i, 0);
    pg_params p = {0};
    pg_int(&p, id);
    PGresult *acts = store_pg_run(&r->q, scan_actions_sql, &p, "scanning the hands", error);
    PGresult *lines = acts ? store_pg_run(&r->q, scan_lines_sql, &p, "scanning the hands", error) : NULL;
    const int n_acts = acts ? PQntuples(acts) : 0, n_lines = lines ? PQntuples(lines) : 0;
    store_action *actions = calloc(n_acts > 0 ? (size_t)n_acts : 1, sizeof *actions);
    store_scan_line *rows = calloc(n_lines > 0 ? (size_t)n_lines : 1, sizeof *rows);
    store_status status = lines == NULL ? error->status : STORE_OK;
    if (status == STORE_OK && (actions == NULL || rows == NULL))
        status = store_error_set(error, STORE_INTERNAL, "Out of memory scanning the hands.");
    if (status == STORE_OK) {
        for (int k = 0; k < n_acts; k++)
            actions[k] = (store_action){.seq = pg_get_int(acts, k, 0), .seat = (int)pg_get_int(acts, k, 1),
                                        .action = json_column(acts, k, 2)};
        for (int k = 0; k < n_lines; k++) {
            store_scan_line *l = &rows[k];
            l->id = pg_get_int(lines, k, 0);
            l->player_id = pg_get_int(lines, k, 1);
            l->seat = (int)pg_get_int(lines, k, 2);
            l->units = pg_get_int(lines, k, 3);
            pg_get_text(l->reason, sizeof l->reason, lines, k, 4);
        }
        store_scan_hand h = {
            .id = id,
            .game = PQgetvalue(hands, i, 1),
            .options = json_column(hands, i, 2),
            .state = json_column(hands, i, 3),
            .result = PQgetisnull(hands, i, 4) ? NULL : json_loads(PQgetvalue(hands, i, 4), JSON_DECODE_ANY, NULL),
            .seed = (uint64_t)pg_get_int(hands, i, 5),
            .actions = actions,
            .n_actions = (size_t)n_acts,
            .lines = rows,
            .n_lines = (size_t)n_lines,
        };
        *go_on = cb(ctx, &h);
        json_decref(h.options);
        json_decref(h.state);
        json_decref(h.result);
        for (int k = 0; k < n_acts; k++)
            json_decref(actions[k].action);
    }
    free(actions);
    free(rows);
    PQclear(acts);
    PQclear(lines);
    return status;
}

store_status store_pg_reader_scan(store_pg_reader *r, store_scan_cb cb, void *ctx, store_error *error)
{
    if (!begin(r, error))
        return error->status;
    PGresult *hands = store_pg_run_once(&r->q, scan_hands_sql, NULL, "scanning the hands", error);
    store_status status = hands ? STORE_OK : error->status;
    bool go_on = true;
    for (int i = 0; status == STORE_OK && go_on && hands && i < PQntuples(hands); i++) {
        if (atomic_load(&r->interrupted))
            status = store_error_set(error, STORE_INTERNAL, "The scan was interrupted.");
        else
            status = scan_hand(r, hands, i, cb, ctx, &go_on, error);
    }
    PQclear(hands);
    end(r);
    return status;
}

store_status store_pg_reader_verify_chain(store_pg_reader *r, store_ledger_check *check, store_error *error)
{
    if (r->key_path == NULL)
        return store_error_set(error, STORE_INVALID, "Checking a PostgreSQL ledger needs its key file (--ledger-key).");
    memset(error, 0, sizeof *error); /* the check reads its outcome from error (store_pg_read.c) */
    return store_pg_verify_path(r->q.uri, r->key_path, check, error) ? STORE_OK : error->status;
}
