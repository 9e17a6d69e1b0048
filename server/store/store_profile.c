/*
 * store_profile — the SQLite store's read of one player's profile (store_profile_get): who they
 * are, their totals per game, their end-of-day balances, and a page of their tables and of their
 * hands. Part of the SQLite backend (store_sqlite.h): it runs on the store thread, inside the
 * batch's transaction, on the store's connection.
 *
 * Pages go by cursor, never by offset: a table's cursor is the id of the player's last ledger row
 * there, a hand's the id of their last row in it. Row ids only grow, so a page asked for below a
 * cursor neither repeats nor loses a table while the player goes on playing (a table played again
 * meanwhile moves up to the first page, where it belongs). The privacy filter (public tables
 * only) is a condition of the statements, so a page is full whatever it leaves out.
 *
 * Statements are fixed text with every filter bound as a parameter, prepared on each call (a
 * handful per request: microseconds next to the reads).
 */
#include "store_profile.h"

#include <stdlib.h>
#include <string.h>

#include "store_sqlite_error.h"

#define DAY_MS 86400000

static const char player_sql[] = "SELECT kind, nickname, created_at, last_seen_at FROM players WHERE id = ?1";

static const char balance_sql[] = "SELECT balance_after FROM ledger WHERE player_id = ?1 ORDER BY id DESC LIMIT 1";

static const char games_sql[] =
    "SELECT t.game, count(DISTINCT l.hand_id), sum(l.units) FROM ledger l JOIN game_tables t ON t.id = l.table_id"
    " WHERE l.player_id = ?1 AND t.game <> ?2 GROUP BY t.game ORDER BY t.game LIMIT ?3";

/* The last row of each day is the day's closing balance; the newest days first. */
static const char days_sql[] =
    "SELECT l.at / 86400000, l.balance_after FROM ledger l WHERE l.id IN"
    " (SELECT max(id) FROM ledger WHERE player_id = ?1 GROUP BY at / 86400000) ORDER BY 1 DESC LIMIT ?2";

/* The balance before the first row of the day since: the row's balance less its units. */
static const char before_sql[] =
    "SELECT balance_after - units FROM ledger WHERE player_id = ?1 AND at >= ?2 ORDER BY id LIMIT 1";

static const char tables_sql[] =
    "SELECT max(l.id) AS cur, t.code, t.game, t.is_public, t.state, count(DISTINCT l.hand_id), sum(l.units),"
    " max(l.at) FROM ledger l JOIN game_tables t ON t.id = l.table_id"
    " WHERE l.player_id = ?1 AND t.game <> ?2 AND (?3 = 0 OR t.is_public = 1)"
    " GROUP BY l.table_id HAVING ?4 = 0 OR cur < ?4 ORDER BY cur DESC LIMIT ?5";

static const char hands_sql[] =
    "SELECT max(l.id) AS cur, t.code, t.game, t.is_public, t.state, h.number, sum(l.units), max(l.at)"
    " FROM ledger l JOIN game_tables t ON t.id = l.table_id JOIN hands h ON h.id = l.hand_id"
    " WHERE l.player_id = ?1 AND t.game <> ?2 AND (?3 = 0 OR t.is_public = 1)"
    " GROUP BY l.hand_id HAVING ?4 = 0 OR cur < ?4 ORDER BY cur DESC LIMIT ?5";

typedef struct reading {
    sqlite3 *db;
    const char *path;
    store_error *error;
} reading;

static sqlite3_stmt *prepare(const reading *rd, const char *sql)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(rd->db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK) {
        store_sqlite_error(rd->error, rd->db, rd->path, rc, "preparing a profile's read");
        sqlite3_finalize(st);
        return NULL;
    }
    return st;
}

/* Finalises st after its last step rc: STORE_OK when the walk ended well. */
static store_status finish(const reading *rd, sqlite3_stmt *st, int rc)
{
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return store_sqlite_error(rd->error, rd->db, rd->path, rc, "reading a player's profile");
    return STORE_OK;
}

static void copy_text(char *out, size_t size, sqlite3_stmt *st, int column)
{
    const unsigned char *text = sqlite3_column_text(st, column);
    size_t len = text != NULL ? strlen((const char *)text) : 0;
    if (len >= size)
        len = size - 1;
    if (len > 0)
        memcpy(out, text, len);
    out[len] = '\0';
}

static store_status out_of_memory(const reading *rd)
{
    return store_error_set(rd->error, STORE_INTERNAL, "Out of memory reading a player's profile from %s.", rd->path);
}

static store_status read_player(const reading *rd, int64_t id, store_profile *p)
{
    sqlite3_stmt *st = prepare(rd, player_sql);
    if (st == NULL)
        return rd->error->status;
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        p->is_account = strcmp((const char *)sqlite3_column_text(st, 0), "account") == 0;
        copy_text(p->nickname, sizeof p->nickname, st, 1);
        p->created_at_ms = sqlite3_column_int64(st, 2);
        p->last_seen_ms = sqlite3_column_int64(st, 3);
    }
    if (finish(rd, st, rc) != STORE_OK)
        return rd->error->status;
    if (rc != SQLITE_ROW)
        return store_error_set(rd->error, STORE_NOT_FOUND, "No player has that id.");
    return STORE_OK;
}

static store_status read_totals(const reading *rd, int64_t id, store_profile *p)
{
    sqlite3_stmt *st = prepare(rd, balance_sql);
    if (st == NULL)
        return rd->error->status;
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        p->balance = sqlite3_column_int64(st, 0);
    if (finish(rd, st, rc) != STORE_OK || (st = prepare(rd, games_sql)) == NULL)
        return rd->error->status;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_text(st, 2, STORE_ADJUSTMENTS_GAME, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, STORE_PROFILE_GAMES_MAX);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && p->n_games < STORE_PROFILE_GAMES_MAX) {
        store_profile_game *g = &p->games[p->n_games++];
        copy_text(g->game, sizeof g->game, st, 0);
        g->hands = sqlite3_column_int64(st, 1);
        g->units = sqlite3_column_int64(st, 2);
    }
    return finish(rd, st, rc);
}

static store_status read_days(const reading *rd, int64_t id, store_profile *p)
{
    p->days = calloc(STORE_PROFILE_DAYS_MAX, sizeof *p->days);
    if (p->days == NULL)
        return out_of_memory(rd);
    sqlite3_stmt *st = prepare(rd, days_sql);
    if (st == NULL)
        return rd->error->status;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int(st, 2, STORE_PROFILE_DAYS_MAX);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && p->n_days < STORE_PROFILE_DAYS_MAX)
        p->days[p->n_days++] = (store_profile_day){.day_ms = sqlite3_column_int64(st, 0) * DAY_MS,
                                                   .balance = sqlite3_column_int64(st, 1)};
    if (finish(rd, st, rc) != STORE_OK)
        return rd->error->status;
    for (size_t i = 0; i < p->n_days / 2; i++) { /* oldest first */
        store_profile_day d = p->days[i];
        p->days[i] = p->days[p->n_days - 1 - i];
        p->days[p->n_days - 1 - i] = d;
    }
    if (p->n_days == 0)
        return STORE_OK;
    if ((st = prepare(rd, before_sql)) == NULL)
        return rd->error->status;
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int64(st, 2, p->days[0].day_ms);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        p->balance_before = sqlite3_column_int64(st, 0);
    return finish(rd, st, rc);
}

/* Binds the parameters the tables' and the hands' statements share. */
static void bind_page(sqlite3_stmt *st, const store_profile_query *q, int64_t before)
{
    sqlite3_bind_int64(st, 1, q->player_id);
    sqlite3_bind_text(st, 2, STORE_ADJUSTMENTS_GAME, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, q->public_only ? 1 : 0);
    sqlite3_bind_int64(st, 4, before);
    sqlite3_bind_int(st, 5, q->limit + 1); /* one more: whether there are more */
}

static store_status read_tables(const reading *rd, const store_profile_query *q, store_profile *p)
{
    p->tables = calloc((size_t)q->limit, sizeof *p->tables);
    if (p->tables == NULL)
        return out_of_memory(rd);
    sqlite3_stmt *st = prepare(rd, tables_sql);
    if (st == NULL)
        return rd->error->status;
    bind_page(st, q, q->tables_before);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (p->n_tables == (size_t)q->limit) {
            p->more_tables = true;
            break;
        }
        store_profile_table *t = &p->tables[p->n_tables++];
        t->cursor = sqlite3_column_int64(st, 0);
        copy_text(t->code, sizeof t->code, st, 1);
        copy_text(t->game, sizeof t->game, st, 2);
        t->is_public = sqlite3_column_int(st, 3) != 0;
        t->closed = strcmp((const char *)sqlite3_column_text(st, 4), "closed") == 0;
        t->hands = sqlite3_column_int64(st, 5);
        t->units = sqlite3_column_int64(st, 6);
        t->last_at_ms = sqlite3_column_int64(st, 7);
    }
    return finish(rd, st, rc);
}

static store_status read_hands(const reading *rd, const store_profile_query *q, store_profile *p)
{
    p->hands = calloc((size_t)q->limit, sizeof *p->hands);
    if (p->hands == NULL)
        return out_of_memory(rd);
    sqlite3_stmt *st = prepare(rd, hands_sql);
    if (st == NULL)
        return rd->error->status;
    bind_page(st, q, q->hands_before);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (p->n_hands == (size_t)q->limit) {
            p->more_hands = true;
            break;
        }
        store_profile_hand *h = &p->hands[p->n_hands++];
        h->cursor = sqlite3_column_int64(st, 0);
        copy_text(h->code, sizeof h->code, st, 1);
        copy_text(h->game, sizeof h->game, st, 2);
        h->is_public = sqlite3_column_int(st, 3) != 0;
        h->closed = strcmp((const char *)sqlite3_column_text(st, 4), "closed") == 0;
        h->number = sqlite3_column_int64(st, 5);
        h->units = sqlite3_column_int64(st, 6);
        h->at_ms = sqlite3_column_int64(st, 7);
    }
    return finish(rd, st, rc);
}

store_status store_profile_read(sqlite3 *db, const char *path, const store_profile_query *q, store_profile **out,
                                store_error *error)
{
    *out = NULL;
    const reading rd = {.db = db, .path = path, .error = error};
    store_profile *p = calloc(1, sizeof *p);
    if (p == NULL)
        return out_of_memory(&rd);
    p->player_id = q->player_id;
    if (read_player(&rd, q->player_id, p) != STORE_OK || read_totals(&rd, q->player_id, p) != STORE_OK ||
        read_days(&rd, q->player_id, p) != STORE_OK || read_tables(&rd, q, p) != STORE_OK ||
        read_hands(&rd, q, p) != STORE_OK) {
        store_profile_free(p);
        return error->status;
    }
    *out = p;
    return STORE_OK;
}
