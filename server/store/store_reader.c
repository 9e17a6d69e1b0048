/*
 * store_reader — the admins' heavy reads on a read-only connection (store_reader.h). Each public
 * function runs in one read transaction; statements are fixed text, each filter switched off by
 * its own parameter, and prepared on each call (a few per request: the cost is microseconds next
 * to the reads). On a postgresql:// database every call goes to store_pg_reader.c, which answers
 * alike.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>
#include <sqlite3.h>

#include "store_db.h"
#include "store_key.h"
#include "store_pg_reader.h"
#include "store_reader.h"
#include "store_sqlite_error.h"

struct store_reader {
    store_pg_reader *pg;             /* a PostgreSQL database: everything is its */
    sqlite3 *db;
    char *path;
    char key_path[4096];
    bool has_key;
    unsigned char key[STORE_LEDGER_KEY_BYTES];
};

store_reader *store_reader_open(const char *path, const char *key_path, store_error *error)
{
    const bool pg = !strncmp(path, "postgresql://", 13) || !strncmp(path, "postgres://", 11);
    store_reader *r = calloc(1, sizeof *r);
    if (r == NULL || (r->path = strdup(path)) == NULL) {
        free(r);
        store_error_set(error, STORE_INTERNAL, "Out of memory opening %s for reading.", path);
        return NULL;
    }
    if (pg) {
        if ((r->pg = store_pg_reader_open(path, key_path, error)) == NULL) {
            store_reader_close(r);
            return NULL;
        }
        return r;
    }
    const store_options o = store_options_default();
    if (sodium_init() < 0 || !store_key_path(key_path, path, r->key_path, sizeof r->key_path, error) ||
        (r->db = store_db_open_readonly(path, &o, error)) == NULL) {
        if (error->status == STORE_OK)
            store_error_set(error, STORE_INTERNAL, "libsodium could not start.");
        store_reader_close(r);
        return NULL;
    }
    store_error key_error;
    r->has_key = store_key_load(r->key_path, r->key, &key_error) == STORE_OK;
    error->status = STORE_OK;
    return r;
}

void store_reader_close(store_reader *r)
{
    if (r == NULL)
        return;
    store_pg_reader_close(r->pg);
    sqlite3_close(r->db);
    sodium_memzero(r->key, sizeof r->key);
    free(r->path);
    free(r);
}

void store_reader_interrupt(store_reader *r)
{
    if (r->pg != NULL) {
        store_pg_reader_interrupt(r->pg);
        return;
    }
    sqlite3_interrupt(r->db);
}

/* ---- Helpers ---- */

static store_status fail(store_reader *r, int rc, const char *doing, store_error *error)
{
    return store_sqlite_error(error, r->db, r->path, rc, doing);
}

static sqlite3_stmt *prepare(store_reader *r, const char *sql, store_error *error)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(r->db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK) {
        fail(r, rc, "preparing an admin read", error);
        sqlite3_finalize(st);
        return NULL;
    }
    return st;
}

/* Starts a read; the error is cleared first, since a read that finds nothing leaves it untouched. */
static bool begin(store_reader *r, store_error *error)
{
    error->status = STORE_OK;
    error->message[0] = '\0';
    int rc = sqlite3_exec(r->db, "BEGIN", NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        fail(r, rc, "starting an admin read", error);
        return false;
    }
    return true;
}

static void end(store_reader *r)
{
    sqlite3_exec(r->db, "COMMIT", NULL, NULL, NULL);
}

static void bind_text(sqlite3_stmt *st, int i, const char *text)
{
    sqlite3_bind_text(st, i, text, -1, SQLITE_TRANSIENT);
}

static json_t *text_or_null(sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    return t ? json_string((const char *)t) : json_null();
}

static json_t *int_or_null(sqlite3_stmt *st, int col)
{
    return sqlite3_column_type(st, col) == SQLITE_NULL ? json_null() : json_integer(sqlite3_column_int64(st, col));
}

/* Stored JSON text as a value; {} when it does not parse (a damaged row shows as empty). */
static json_t *json_column(sqlite3_stmt *st, int col)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    json_t *v = t ? json_loads((const char *)t, JSON_DECODE_ANY, NULL) : NULL;
    return v ? v : json_object();
}

static json_t *stored_json_or_null(sqlite3_stmt *st, int col)
{
    if (sqlite3_column_type(st, col) == SQLITE_NULL)
        return json_null();
    return json_column(st, col);
}

/* Steps st through its rows, appending row(st) to list; the step's final code. */
static int collect(sqlite3_stmt *st, json_t *list, json_t *(*row)(sqlite3_stmt *st))
{
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        json_array_append_new(list, row(st));
    return rc;
}

static void set_next(json_t *page, json_t *list, int limit)
{
    size_t n = json_array_size(list);
    json_t *last = n == (size_t)limit && n > 0 ? json_object_get(json_array_get(list, n - 1), "id") : NULL;
    json_object_set_new(page, "next", last ? json_copy(last) : json_null());
}

/* ---- Players ---- */

/* A player's fields; the hands are those with a "settle" row (every seat of a played hand has one). */
#define PLAYER_COLUMNS                                                                                     \
    "SELECT p.id, p.nickname, p.account_name, p.is_admin, p.created_at, p.last_seen_at,"                   \
    " coalesce((SELECT balance_after FROM ledger WHERE player_id = p.id ORDER BY id DESC LIMIT 1), 0),"    \
    " (SELECT count(*) FROM ledger WHERE player_id = p.id AND reason = 'settle') FROM players AS p"

static const char players_sql[] =
    PLAYER_COLUMNS " WHERE p.id > 0 AND (?1 = 0 OR p.id < ?1) AND (?2 = '' OR p.kind = ?2)"
                   " AND (?3 = '' OR lower(substr(p.nickname, 1, length(?3))) = lower(?3)"
                   " OR lower(substr(coalesce(p.account_name, ''), 1, length(?3))) = lower(?3))"
                   " ORDER BY p.id DESC LIMIT ?4";
static const char player_sql[] = PLAYER_COLUMNS " WHERE p.id = ?1";
static const char player_days_sql[] =
    "SELECT strftime('%Y-%m-%d', at / 1000, 'unixepoch') AS day, sum(units),"
    " count(DISTINCT CASE WHEN reason <> 'adjustment' THEN hand_id END)"
    " FROM ledger WHERE player_id = ?1 GROUP BY day ORDER BY day";
static const char player_tables_sql[] =
    "SELECT t.id, t.code, t.game, count(DISTINCT l.hand_id), sum(l.units), max(l.at)"
    " FROM ledger AS l JOIN game_tables AS t ON t.id = l.table_id WHERE l.player_id = ?1"
    " GROUP BY t.id ORDER BY max(l.at) DESC, t.id DESC";

static json_t *player_row(sqlite3_stmt *st)
{
    json_t *o = json_pack("{s:I, s:o, s:o, s:b, s:I, s:I, s:I, s:I}", "id", (json_int_t)sqlite3_column_int64(st, 0),
                          "nickname", text_or_null(st, 1), "account", text_or_null(st, 2), "admin",
                          sqlite3_column_int(st, 3) != 0, "created_at", (json_int_t)sqlite3_column_int64(st, 4),
                          "last_seen_at", (json_int_t)sqlite3_column_int64(st, 5), "balance",
                          (json_int_t)sqlite3_column_int64(st, 6), "hands", (json_int_t)sqlite3_column_int64(st, 7));
    return o;
}

store_status store_reader_players(store_reader *r, const store_player_filter *f, json_t **out, store_error *error)
{
    *out = NULL;
    if (f->limit < 1 || f->limit > STORE_READER_PAGE_MAX || f->before < 0)
        return store_error_set(error, STORE_INVALID, "A page of players is 1 to %d, below an id of 0 or more.",
                               STORE_READER_PAGE_MAX);
    if (r->pg != NULL)
        return store_pg_reader_players(r->pg, f, out, error);
    if (!begin(r, error))
        return error->status;
    sqlite3_stmt *st = prepare(r, players_sql, error);
    if (st == NULL) {
        end(r);
        return error->status;
    }
    sqlite3_bind_int64(st, 1, f->before);
    bind_text(st, 2, f->kind);
    bind_text(st, 3, f->q);
    sqlite3_bind_int(st, 4, f->limit);
    json_t *list = json_array();
    int rc = collect(st, list, player_row);
    sqlite3_finalize(st);
    end(r);
    if (rc != SQLITE_DONE) {
        json_decref(list);
        return fail(r, rc, "reading the players", error);
    }
    *out = json_pack("{s:O}", "players", list);
    set_next(*out, list, f->limit);
    json_decref(list);
    return STORE_OK;
}

static json_t *day_row(sqlite3_stmt *st)
{
    return json_pack("{s:o, s:I, s:I}", "day", text_or_null(st, 0), "net", (json_int_t)sqlite3_column_int64(st, 1),
                     "hands", (json_int_t)sqlite3_column_int64(st, 2));
}

static json_t *player_table_row(sqlite3_stmt *st)
{
    return json_pack("{s:I, s:o, s:o, s:I, s:I, s:I}", "id", (json_int_t)sqlite3_column_int64(st, 0), "code",
                     text_or_null(st, 1), "game", text_or_null(st, 2), "hands", (json_int_t)sqlite3_column_int64(st, 3),
                     "net", (json_int_t)sqlite3_column_int64(st, 4), "last_at", (json_int_t)sqlite3_column_int64(st, 5));
}

/* Runs sql with ?1 = id, collecting its rows into a new array; NULL with error filled. */
static json_t *list_by_id(store_reader *r, const char *sql, int64_t id, json_t *(*row)(sqlite3_stmt *st),
                          const char *doing, store_error *error)
{
    sqlite3_stmt *st = prepare(r, sql, error);
    if (st == NULL)
        return NULL;
    sqlite3_bind_int64(st, 1, id);
    json_t *list = json_array();
    int rc = collect(st, list, row);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        json_decref(list);
        fail(r, rc, doing, error);
        return NULL;
    }
    return list;
}

/* The one row of sql with ?1 = id through row(), or NULL: *found says whether there was one. */
static json_t *one_by_id(store_reader *r, const char *sql, int64_t id, json_t *(*row)(sqlite3_stmt *st),
                         const char *doing, bool *found, store_error *error)
{
    *found = false;
    sqlite3_stmt *st = prepare(r, sql, error);
    if (st == NULL)
        return NULL;
    sqlite3_bind_int64(st, 1, id);
    json_t *o = NULL;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *found = true;
        o = row(st);
    } else if (rc != SQLITE_DONE) {
        fail(r, rc, doing, error);
    }
    sqlite3_finalize(st);
    return o;
}

store_status store_reader_player(store_reader *r, int64_t id, json_t **out, store_error *error)
{
    *out = NULL;
    if (r->pg != NULL)
        return store_pg_reader_player(r->pg, id, out, error);
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
    TABLE_COLUMNS " WHERE t.game <> '" STORE_ADJUSTMENTS_GAME "' AND (?1 = 0 OR t.id < ?1) AND (?2 = '' OR t.code = ?2) AND (?3 = '' OR t.game = ?3)"
                  " AND (?4 = '' OR (?4 = 'closed') = (t.state = 'closed')) ORDER BY t.id DESC LIMIT ?5";
static const char table_sql[] = TABLE_COLUMNS " WHERE t.id = ?1";
static const char table_hands_sql[] =
    "SELECT id, number, started_at, finished_at, game_state, result FROM hands WHERE table_id = ?1 ORDER BY number";
/* Each finished hand's seats from its rows, through ledger_by_hand (the ledger has no table index). */
static const char table_seats_sql[] =
    "SELECT h.id, l.seat, l.player_id, p.nickname, sum(l.units) FROM hands AS h"
    " JOIN ledger AS l ON l.hand_id = h.id LEFT JOIN players AS p ON p.id = l.player_id"
    " WHERE h.table_id = ?1 GROUP BY h.id, l.seat ORDER BY h.id, l.seat";

static json_t *host_json(sqlite3_stmt *st)
{
    if (sqlite3_column_type(st, 6) == SQLITE_NULL)
        return json_null();
    return json_pack("{s:I, s:o}", "id", (json_int_t)sqlite3_column_int64(st, 6), "nickname", text_or_null(st, 7));
}

static json_t *table_row(sqlite3_stmt *st)
{
    return json_pack("{s:I, s:o, s:o, s:b, s:o, s:I, s:I, s:o}", "id", (json_int_t)sqlite3_column_int64(st, 0), "code",
                     text_or_null(st, 1), "game", text_or_null(st, 2), "public", sqlite3_column_int(st, 3) != 0,
                     "state", text_or_null(st, 4), "created_at", (json_int_t)sqlite3_column_int64(st, 5), "hands",
                     (json_int_t)sqlite3_column_int64(st, 8), "host", host_json(st));
}

static json_t *table_detail_row(sqlite3_stmt *st)
{
    json_t *o = table_row(st);
    json_object_set_new(o, "options", json_column(st, 9));
    json_object_set_new(o, "game_state", json_column(st, 10));
    return o;
}

store_status store_reader_tables(store_reader *r, const store_table_filter *f, json_t **out, store_error *error)
{
    *out = NULL;
    if (f->limit < 1 || f->limit > STORE_READER_PAGE_MAX || f->before < 0)
        return store_error_set(error, STORE_INVALID, "A page of tables is 1 to %d, below an id of 0 or more.",
                               STORE_READER_PAGE_MAX);
    if (r->pg != NULL)
        return store_pg_reader_tables(r->pg, f, out, error);
    if (!begin(r, error))
        return error->status;
    sqlite3_stmt *st = prepare(r, tables_sql, error);
    if (st == NULL) {
        end(r);
        return error->status;
    }
    sqlite3_bind_int64(st, 1, f->before);
    bind_text(st, 2, f->code);
    bind_text(st, 3, f->game);
    bind_text(st, 4, f->state);
    sqlite3_bind_int(st, 5, f->limit);
    json_t *list = json_array();
    int rc = collect(st, list, table_row);
    sqlite3_finalize(st);
    end(r);
    if (rc != SQLITE_DONE) {
        json_decref(list);
        return fail(r, rc, "reading the tables", error);
    }
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

/* A hand of a table; its stored result (null while unfinished) is for the caller to summarise. */
static json_t *hand_row(sqlite3_stmt *st)
{
    return json_pack("{s:I, s:I, s:I, s:o, s:o, s:o, s:o}", "id", (json_int_t)sqlite3_column_int64(st, 0), "number",
                     (json_int_t)sqlite3_column_int64(st, 1), "started_at", (json_int_t)sqlite3_column_int64(st, 2),
                     "finished_at", int_or_null(st, 3), "game_state", json_column(st, 4), "seats", empty_seats(),
                     "result", stored_json_or_null(st, 5));
}

/* Fills seat `seat` of seats from a row whose columns from `col` are player, nickname, net. */
static void fill_seat(json_t *seats, int seat, sqlite3_stmt *st, int col)
{
    json_t *s = json_array_get(seats, (size_t)seat);
    if (s == NULL)
        return;
    const bool bot = sqlite3_column_type(st, col) == SQLITE_NULL;
    json_object_set_new(s, "player", int_or_null(st, col));
    json_object_set_new(s, "nickname", bot ? json_null() : text_or_null(st, col + 1));
    json_object_set_new(s, "bot", json_boolean(bot));
    json_object_set_new(s, "net", json_integer(sqlite3_column_int64(st, col + 2)));
}

/* Fills the seats of hands (oldest first, as table_hands_sql lists them) from table_seats_sql. */
static bool table_seats(store_reader *r, int64_t table_id, json_t *hands, store_error *error)
{
    sqlite3_stmt *st = prepare(r, table_seats_sql, error);
    if (st == NULL)
        return false;
    sqlite3_bind_int64(st, 1, table_id);
    size_t i = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const int64_t hand_id = sqlite3_column_int64(st, 0);
        /* Hands are numbered in the order they were made, so ids and numbers rise together. */
        while (i < json_array_size(hands) &&
               json_integer_value(json_object_get(json_array_get(hands, i), "id")) < hand_id)
            i++;
        json_t *hand = json_array_get(hands, i);
        if (hand && json_integer_value(json_object_get(hand, "id")) == hand_id)
            fill_seat(json_object_get(hand, "seats"), sqlite3_column_int(st, 1), st, 2);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        fail(r, rc, "reading a table's seats", error);
        return false;
    }
    return true;
}

store_status store_reader_table(store_reader *r, int64_t id, json_t **out, store_error *error)
{
    *out = NULL;
    if (r->pg != NULL)
        return store_pg_reader_table(r->pg, id, out, error);
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
    " h.result, h.seed FROM hands AS h JOIN game_tables AS t ON t.id = h.table_id WHERE h.id = ?1";
static const char hand_actions_sql[] = "SELECT seq, seat, action FROM hand_actions WHERE hand_id = ?1 ORDER BY seq";
static const char hand_lines_sql[] =
    "SELECT l.id, l.player_id, p.nickname, l.seat, l.units, l.reason, l.balance_after FROM ledger AS l"
    " LEFT JOIN players AS p ON p.id = l.player_id WHERE l.hand_id = ?1 ORDER BY l.id";

static json_t *hand_detail_row(sqlite3_stmt *st)
{
    json_t *o = json_pack("{s:I, s:I, s:o, s:o, s:I, s:I, s:o, s:o, s:o, s:o}", "id",
                          (json_int_t)sqlite3_column_int64(st, 0), "table", (json_int_t)sqlite3_column_int64(st, 1),
                          "code", text_or_null(st, 2), "game", text_or_null(st, 3), "number",
                          (json_int_t)sqlite3_column_int64(st, 4), "started_at", (json_int_t)sqlite3_column_int64(st, 5),
                          "finished_at", int_or_null(st, 6), "options", json_column(st, 7), "game_state",
                          json_column(st, 8), "result", stored_json_or_null(st, 9));
    json_object_set_new(o, "seed", json_integer(sqlite3_column_int64(st, 10)));
    return o;
}

static json_t *action_row(sqlite3_stmt *st)
{
    return json_pack("{s:I, s:i, s:o}", "seq", (json_int_t)sqlite3_column_int64(st, 0), "seat",
                     sqlite3_column_int(st, 1), "action", json_column(st, 2));
}

static json_t *line_row(sqlite3_stmt *st)
{
    const bool bot = sqlite3_column_type(st, 1) == SQLITE_NULL;
    return json_pack("{s:I, s:o, s:o, s:i, s:I, s:o, s:o}", "id", (json_int_t)sqlite3_column_int64(st, 0), "player",
                     int_or_null(st, 1), "nickname", bot ? json_null() : text_or_null(st, 2), "seat",
                     sqlite3_column_int(st, 3), "units", (json_int_t)sqlite3_column_int64(st, 4), "reason",
                     text_or_null(st, 5), "balance", int_or_null(st, 6));
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

store_status store_reader_hand(store_reader *r, int64_t id, json_t **out, store_error *error)
{
    *out = NULL;
    if (r->pg != NULL)
        return store_pg_reader_hand(r->pg, id, out, error);
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

store_status store_reader_counts(store_reader *r, int64_t *hands, int64_t *rows, store_error *error)
{
    *hands = *rows = 0;
    if (r->pg != NULL)
        return store_pg_reader_counts(r->pg, hands, rows, error);
    sqlite3_stmt *st = prepare(r, "SELECT (SELECT count(*) FROM hands WHERE finished_at IS NOT NULL),"
                                  " (SELECT count(*) FROM ledger)", error);
    if (st == NULL)
        return error->status;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *hands = sqlite3_column_int64(st, 0);
        *rows = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? STORE_OK : fail(r, rc, "counting hands and rows", error);
}

/* Three cursors walked together by hand id: the finished hands, every action (by its index on
 * hand and seq) and every ledger row (by its index on hand): one pass, no query per hand. */
static const char scan_hands_sql[] =
    "SELECT h.id, t.game, coalesce(h.options, t.options), h.game_state, h.result, h.seed FROM hands AS h"
    " JOIN game_tables AS t ON t.id = h.table_id WHERE h.finished_at IS NOT NULL ORDER BY h.id";
static const char scan_actions_sql[] =
    "SELECT hand_id, seq, seat, action FROM hand_actions INDEXED BY hand_actions_by_hand ORDER BY hand_id, seq";
static const char scan_lines_sql[] =
    "SELECT hand_id, id, player_id, seat, units, reason FROM ledger INDEXED BY ledger_by_hand ORDER BY hand_id, id";

typedef struct scan_state {
    sqlite3_stmt *hands, *actions, *lines;
    int actions_rc, lines_rc;   /* SQLITE_ROW while the cursor holds a row */
    store_action *acts;
    size_t n_acts, cap_acts;
    store_scan_line *rows;
    size_t n_rows, cap_rows;
} scan_state;

static bool grow(void **items, size_t *cap, size_t size)
{
    size_t want = *cap ? 2 * *cap : 64;
    void *more = realloc(*items, want * size);
    if (more == NULL)
        return false;
    *items = more;
    *cap = want;
    return true;
}

static void clear_actions(scan_state *s)
{
    for (size_t i = 0; i < s->n_acts; i++)
        json_decref(s->acts[i].action);
    s->n_acts = 0;
}

/* Moves the actions cursor past hands below hand_id and gathers hand_id's; false when out of memory. */
static bool gather_actions(scan_state *s, int64_t hand_id)
{
    clear_actions(s);
    while (s->actions_rc == SQLITE_ROW && sqlite3_column_int64(s->actions, 0) <= hand_id) {
        if (sqlite3_column_int64(s->actions, 0) == hand_id) {
            if (s->n_acts == s->cap_acts && !grow((void **)&s->acts, &s->cap_acts, sizeof *s->acts))
                return false;
            store_action *a = &s->acts[s->n_acts++];
            a->seq = sqlite3_column_int64(s->actions, 1);
            a->seat = sqlite3_column_int(s->actions, 2);
            a->action = json_column(s->actions, 3);
        }
        s->actions_rc = sqlite3_step(s->actions);
    }
    return true;
}

static bool gather_lines(scan_state *s, int64_t hand_id)
{
    s->n_rows = 0;
    while (s->lines_rc == SQLITE_ROW && sqlite3_column_int64(s->lines, 0) <= hand_id) {
        if (sqlite3_column_int64(s->lines, 0) == hand_id) {
            if (s->n_rows == s->cap_rows && !grow((void **)&s->rows, &s->cap_rows, sizeof *s->rows))
                return false;
            store_scan_line *l = &s->rows[s->n_rows++];
            l->id = sqlite3_column_int64(s->lines, 1);
            l->player_id = sqlite3_column_int64(s->lines, 2);
            l->seat = sqlite3_column_int(s->lines, 3);
            l->units = sqlite3_column_int64(s->lines, 4);
            const unsigned char *reason = sqlite3_column_text(s->lines, 5);
            snprintf(l->reason, sizeof l->reason, "%s", reason ? (const char *)reason : "");
        }
        s->lines_rc = sqlite3_step(s->lines);
    }
    return true;
}

static store_status scan_run(store_reader *r, scan_state *s, store_scan_cb cb, void *ctx, store_error *error)
{
    s->actions_rc = sqlite3_step(s->actions);
    s->lines_rc = sqlite3_step(s->lines);
    int rc;
    while ((rc = sqlite3_step(s->hands)) == SQLITE_ROW) {
        const int64_t id = sqlite3_column_int64(s->hands, 0);
        if (!gather_actions(s, id) || !gather_lines(s, id))
            return store_error_set(error, STORE_INTERNAL, "Out of memory scanning the hands.");
        const unsigned char *game = sqlite3_column_text(s->hands, 1);
        const unsigned char *result = sqlite3_column_text(s->hands, 4);
        store_scan_hand h = {
            .id = id,
            .game = game ? (const char *)game : "",
            .options = json_column(s->hands, 2),
            .state = json_column(s->hands, 3),
            .result = result ? json_loads((const char *)result, JSON_DECODE_ANY, NULL) : NULL,
            .seed = (uint64_t)sqlite3_column_int64(s->hands, 5),
            .actions = s->acts,
            .n_actions = s->n_acts,
            .lines = s->rows,
            .n_lines = s->n_rows,
        };
        bool go_on = cb(ctx, &h);
        json_decref(h.options);
        json_decref(h.state);
        json_decref(h.result);
        if (!go_on)
            return STORE_OK;
    }
    if (rc != SQLITE_DONE)
        return fail(r, rc, "scanning the hands", error);
    if ((s->actions_rc != SQLITE_ROW && s->actions_rc != SQLITE_DONE) ||
        (s->lines_rc != SQLITE_ROW && s->lines_rc != SQLITE_DONE))
        return fail(r, s->actions_rc != SQLITE_ROW && s->actions_rc != SQLITE_DONE ? s->actions_rc : s->lines_rc,
                    "scanning the hands", error);
    return STORE_OK;
}

store_status store_reader_scan(store_reader *r, store_scan_cb cb, void *ctx, store_error *error)
{
    if (r->pg != NULL)
        return store_pg_reader_scan(r->pg, cb, ctx, error);
    if (!begin(r, error))
        return error->status;
    scan_state s = {0};
    s.hands = prepare(r, scan_hands_sql, error);
    s.actions = s.hands ? prepare(r, scan_actions_sql, error) : NULL;
    s.lines = s.actions ? prepare(r, scan_lines_sql, error) : NULL;
    store_status status = s.lines ? scan_run(r, &s, cb, ctx, error) : error->status;
    clear_actions(&s);
    free(s.acts);
    free(s.rows);
    sqlite3_finalize(s.hands);
    sqlite3_finalize(s.actions);
    sqlite3_finalize(s.lines);
    end(r);
    return status;
}

store_status store_reader_verify_chain(store_reader *r, store_ledger_check *check, store_error *error)
{
    if (r->pg != NULL)
        return store_pg_reader_verify_chain(r->pg, check, error);
    if (!store_db_verify_ledger(r->db, r->path, r->has_key ? r->key : NULL, r->key_path, check, error))
        return error->status;
    return STORE_OK;
}
