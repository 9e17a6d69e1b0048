/*
 * store_pg_profile — the PostgreSQL store's read of one player's profile (store_profile_get, the
 * backend's `profile`): who they are, their totals per game, their end-of-day balances, and a page
 * of their tables and of their hands. The same answers as the SQLite store's (store_profile.c),
 * row for row, on the store's connection inside the batch's transaction.
 *
 * Pages go by cursor, never by offset: a table's cursor is the id of the player's last ledger row
 * there, a hand's the id of their last row in it (store_profile.c says why). The privacy filter
 * (public tables only) is a condition of the statements, so a page is full whatever it leaves out.
 * The page statements switch their filters off by parameter ("$3 = false OR …"), so they are
 * planned with their values each time (store_pg_run_once).
 */
#include <stdlib.h>
#include <string.h>

#include "store_pg.h"

#define DAY_MS 86400000

static const char player_sql[] = "SELECT kind, nickname, created_at, last_seen_at FROM players WHERE id = $1";

static const char balance_sql[] = "SELECT balance_after FROM ledger WHERE player_id = $1 ORDER BY id DESC LIMIT 1";

static const char games_sql[] =
    "SELECT t.game, count(DISTINCT l.hand_id), sum(l.units) FROM ledger AS l JOIN game_tables AS t"
    " ON t.id = l.table_id WHERE l.player_id = $1 AND t.game <> $2 GROUP BY t.game ORDER BY t.game LIMIT $3";

/* The last row of each day is the day's closing balance; the newest days first. */
static const char days_sql[] =
    "SELECT l.at / 86400000, l.balance_after FROM ledger AS l WHERE l.id IN"
    " (SELECT max(id) FROM ledger WHERE player_id = $1 GROUP BY at / 86400000) ORDER BY 1 DESC LIMIT $2";

/* The balance before the first row of the day since: the row's balance less its units. */
static const char before_sql[] =
    "SELECT balance_after - units FROM ledger WHERE player_id = $1 AND at >= $2 ORDER BY id LIMIT 1";

/* Grouped by the table's (and the hand's) primary key, so that its other columns may be read. */
static const char tables_sql[] =
    "SELECT max(l.id) AS cur, t.code, t.game, t.is_public, t.state, count(DISTINCT l.hand_id), sum(l.units),"
    " max(l.at) FROM ledger AS l JOIN game_tables AS t ON t.id = l.table_id"
    " WHERE l.player_id = $1 AND t.game <> $2 AND (NOT $3::boolean OR t.is_public)"
    " GROUP BY t.id HAVING $4::bigint = 0 OR max(l.id) < $4 ORDER BY cur DESC LIMIT $5";

static const char hands_sql[] =
    "SELECT max(l.id) AS cur, t.code, t.game, t.is_public, t.state, h.number, sum(l.units), max(l.at)"
    " FROM ledger AS l JOIN game_tables AS t ON t.id = l.table_id JOIN hands AS h ON h.id = l.hand_id"
    " WHERE l.player_id = $1 AND t.game <> $2 AND (NOT $3::boolean OR t.is_public)"
    " GROUP BY h.id, t.id HAVING $4::bigint = 0 OR max(l.id) < $4 ORDER BY cur DESC LIMIT $5";

static store_status out_of_memory(store_error *error)
{
    return store_error_set(error, STORE_INTERNAL, "Out of memory reading a player's profile.");
}

static store_status read_player(store_pg *q, int64_t id, store_profile *p, store_error *error)
{
    pg_params v = {0};
    pg_int(&v, id);
    PGresult *r = store_pg_run(q, player_sql, &v, "reading a player's profile", error);
    if (r == NULL)
        return error->status;
    const bool found = PQntuples(r) > 0;
    if (found) {
        p->is_account = strcmp(PQgetvalue(r, 0, 0), "account") == 0;
        pg_get_text(p->nickname, sizeof p->nickname, r, 0, 1);
        p->created_at_ms = pg_get_int(r, 0, 2);
        p->last_seen_ms = pg_get_int(r, 0, 3);
    }
    PQclear(r);
    return found ? STORE_OK : store_error_set(error, STORE_NOT_FOUND, "No player has that id.");
}

static store_status read_totals(store_pg *q, int64_t id, store_profile *p, store_error *error)
{
    pg_params v = {0};
    pg_int(&v, id);
    PGresult *r = store_pg_run(q, balance_sql, &v, "reading a player's balance", error);
    if (r == NULL)
        return error->status;
    if (PQntuples(r) > 0)
        p->balance = pg_get_int(r, 0, 0);
    PQclear(r);
    pg_text(&v, STORE_ADJUSTMENTS_GAME);
    pg_int(&v, STORE_PROFILE_GAMES_MAX);
    if ((r = store_pg_run(q, games_sql, &v, "reading a player's totals", error)) == NULL)
        return error->status;
    for (int i = 0; i < PQntuples(r) && p->n_games < STORE_PROFILE_GAMES_MAX; i++) {
        store_profile_game *g = &p->games[p->n_games++];
        pg_get_text(g->game, sizeof g->game, r, i, 0);
        g->hands = pg_get_int(r, i, 1);
        g->units = pg_get_int(r, i, 2);
    }
    PQclear(r);
    return STORE_OK;
}

static store_status read_days(store_pg *q, int64_t id, store_profile *p, store_error *error)
{
    p->days = calloc(STORE_PROFILE_DAYS_MAX, sizeof *p->days);
    if (p->days == NULL)
        return out_of_memory(error);
    pg_params v = {0};
    pg_int(&v, id);
    pg_int(&v, STORE_PROFILE_DAYS_MAX);
    PGresult *r = store_pg_run(q, days_sql, &v, "reading a player's balances by day", error);
    if (r == NULL)
        return error->status;
    const int rows = PQntuples(r);
    for (int i = rows - 1; i >= 0; i--) /* oldest first */
        if (p->n_days < STORE_PROFILE_DAYS_MAX)
            p->days[p->n_days++] =
                (store_profile_day){.day_ms = pg_get_int(r, i, 0) * DAY_MS, .balance = pg_get_int(r, i, 1)};
    PQclear(r);
    if (p->n_days == 0)
        return STORE_OK;
    pg_params b = {0};
    pg_int(&b, id);
    pg_int(&b, p->days[0].day_ms);
    if ((r = store_pg_run(q, before_sql, &b, "reading a player's first balance", error)) == NULL)
        return error->status;
    if (PQntuples(r) > 0)
        p->balance_before = pg_get_int(r, 0, 0);
    PQclear(r);
    return STORE_OK;
}

/* The parameters the tables' and the hands' statements share. */
static void page_params(pg_params *v, const store_profile_query *query, int64_t before)
{
    pg_int(v, query->player_id);
    pg_text(v, STORE_ADJUSTMENTS_GAME);
    pg_bool(v, query->public_only);
    pg_int(v, before);
    pg_int(v, query->limit + 1); /* one more: whether there are more */
}

static store_status read_tables(store_pg *q, const store_profile_query *query, store_profile *p, store_error *error)
{
    p->tables = calloc((size_t)query->limit, sizeof *p->tables);
    if (p->tables == NULL)
        return out_of_memory(error);
    pg_params v = {0};
    page_params(&v, query, query->tables_before);
    PGresult *r = store_pg_run_once(q, tables_sql, &v, "reading a page of a player's tables", error);
    if (r == NULL)
        return error->status;
    for (int i = 0; i < PQntuples(r); i++) {
        if (p->n_tables == (size_t)query->limit) {
            p->more_tables = true;
            break;
        }
        store_profile_table *t = &p->tables[p->n_tables++];
        t->cursor = pg_get_int(r, i, 0);
        pg_get_text(t->code, sizeof t->code, r, i, 1);
        pg_get_text(t->game, sizeof t->game, r, i, 2);
        t->is_public = pg_get_int(r, i, 3) != 0;
        t->closed = strcmp(PQgetvalue(r, i, 4), "closed") == 0;
        t->hands = pg_get_int(r, i, 5);
        t->units = pg_get_int(r, i, 6);
        t->last_at_ms = pg_get_int(r, i, 7);
    }
    PQclear(r);
    return STORE_OK;
}

static store_status read_hands(store_pg *q, const store_profile_query *query, store_profile *p, store_error *error)
{
    p->hands = calloc((size_t)query->limit, sizeof *p->hands);
    if (p->hands == NULL)
        return out_of_memory(error);
    pg_params v = {0};
    page_params(&v, query, query->hands_before);
    PGresult *r = store_pg_run_once(q, hands_sql, &v, "reading a page of a player's hands", error);
    if (r == NULL)
        return error->status;
    for (int i = 0; i < PQntuples(r); i++) {
        if (p->n_hands == (size_t)query->limit) {
            p->more_hands = true;
            break;
        }
        store_profile_hand *h = &p->hands[p->n_hands++];
        h->cursor = pg_get_int(r, i, 0);
        pg_get_text(h->code, sizeof h->code, r, i, 1);
        pg_get_text(h->game, sizeof h->game, r, i, 2);
        h->is_public = pg_get_int(r, i, 3) != 0;
        h->closed = strcmp(PQgetvalue(r, i, 4), "closed") == 0;
        h->number = pg_get_int(r, i, 5);
        h->units = pg_get_int(r, i, 6);
        h->at_ms = pg_get_int(r, i, 7);
    }
    PQclear(r);
    return STORE_OK;
}

store_status store_pg_profile(void *b, const store_in_profile *in, store_profile **out, store_error *error)
{
    store_pg *q = b;
    const store_profile_query *query = &in->query;
    *out = NULL;
    store_profile *p = calloc(1, sizeof *p);
    if (p == NULL)
        return out_of_memory(error);
    p->player_id = query->player_id;
    const int64_t id = query->player_id;
    if (read_player(q, id, p, error) != STORE_OK || read_totals(q, id, p, error) != STORE_OK ||
        read_days(q, id, p, error) != STORE_OK || read_tables(q, query, p, error) != STORE_OK ||
        read_hands(q, query, p, error) != STORE_OK) {
        store_profile_free(p);
        return error->status;
    }
    *out = p;
    return STORE_OK;
}
