/*
 * store_pg_admin — on PostgreSQL (store_pg.h): admin sessions, the audit log, adjustments (a
 * hand of their own at the adjustments table, with the adjustments account's counter-row), and
 * the ledger as admins read it. The same rules as on SQLite (store_sqlite_admin.c,
 * store_sqlite_ledger_query.c).
 *
 * The ledger's filter is one fixed statement whose every condition is switched off by its own
 * parameter ("$1 = 0 OR l.player_id = $1"): no SQL is built from what a client sent. PostgreSQL
 * plans an unnamed statement with its parameters' values, so the conditions switched off fold
 * away and the plan walks the index of the filters given; the page's cursor is a range on the row
 * id, so a page below row N starts its walk at N.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "store_ledger.h"
#include "store_pg.h"

static const char no_session[] = "There is no such admin session (unknown, or logged out); log in again.";

store_status store_pg_admin_open(void *b, const store_in_admin_open *in, store_admin_session *session,
                                 store_error *error)
{
    store_pg *q = b;
    pg_params who = {0};
    pg_int(&who, in->player_id);
    PGresult *r = store_pg_run(q, "SELECT account_name FROM players WHERE id = $1 AND kind = 'account' AND is_admin",
                               &who, "looking up an admin", error);
    if (r == NULL)
        return error->status;
    const bool admin = PQntuples(r) > 0;
    if (admin)
        pg_get_text(session->account_name, sizeof session->account_name, r, 0, 0);
    PQclear(r);
    if (!admin)
        return store_error_set(error, STORE_NOT_FOUND, "Player %lld is not an admin account.",
                               (long long)in->player_id);
    const int64_t now = store_now_ms(&q->options);
    const int64_t expires = now + in->seconds * 1000;
    pg_params purge = {0}, insert = {0};
    pg_int(&purge, now);
    pg_bytes(&insert, in->token_hash, STORE_TOKEN_HASH_BYTES);
    pg_int(&insert, in->player_id);
    pg_text(&insert, in->csrf);
    pg_int(&insert, now);
    pg_int(&insert, expires);
    if (store_pg_exec(q, "DELETE FROM admin_sessions WHERE expires_at <= $1", &purge, "opening an admin session",
                      error) < 0 ||
        store_pg_exec(q,
                      "INSERT INTO admin_sessions (token_hash, player_id, csrf_token, created_at, expires_at)"
                      " VALUES ($1, $2, $3, $4, $5)",
                      &insert, "opening an admin session", error) < 0)
        return error->status;
    session->player_id = in->player_id;
    snprintf(session->csrf, sizeof session->csrf, "%s", in->csrf);
    session->expires_at_ms = expires;
    return STORE_OK;
}

store_status store_pg_admin_lookup(void *b, const store_in_session *in, store_admin_session *session,
                                   store_error *error)
{
    store_pg *q = b;
    pg_params p = {0};
    pg_bytes(&p, in->token_hash, STORE_TOKEN_HASH_BYTES);
    PGresult *r = store_pg_run(q,
                               "SELECT s.player_id, p.account_name, s.csrf_token, s.expires_at FROM admin_sessions AS s"
                               " JOIN players AS p ON p.id = s.player_id WHERE s.token_hash = $1 AND p.is_admin",
                               &p, "looking up an admin session", error);
    if (r == NULL)
        return error->status;
    const bool found = PQntuples(r) > 0;
    if (found) {
        session->player_id = pg_get_int(r, 0, 0);
        pg_get_text(session->account_name, sizeof session->account_name, r, 0, 1);
        pg_get_text(session->csrf, sizeof session->csrf, r, 0, 2);
        session->expires_at_ms = pg_get_int(r, 0, 3);
    }
    PQclear(r);
    if (!found || session->expires_at_ms <= store_now_ms(&q->options))
        return store_error_set(error, STORE_NOT_FOUND, "%s", no_session);
    return STORE_OK;
}

store_status store_pg_admin_close(void *b, const store_in_session *in, store_error *error)
{
    return store_pg_session_delete(b, true, in->token_hash, "ending an admin session",
                                   "There is no such admin session (unknown, or already logged out).", error);
}

store_status store_pg_audit_append(void *b, const store_in_audit *in, int64_t *id, store_error *error)
{
    store_pg *q = b;
    pg_params p = {0};
    pg_int(&p, store_now_ms(&q->options));
    pg_int(&p, in->player_id);
    pg_text(&p, in->action);
    pg_text(&p, in->details);
    /* The SELECT checks the player first, so that an unknown one is refused without an error. */
    PGresult *r = store_pg_run(q,
                               "INSERT INTO admin_audit (at, player_id, action, details)"
                               " SELECT $1, id, $3, $4 FROM players WHERE id = $2 RETURNING id",
                               &p, "appending to the audit log", error);
    if (r == NULL)
        return error->status;
    const bool found = PQntuples(r) > 0;
    *id = found ? pg_get_int(r, 0, 0) : 0;
    PQclear(r);
    if (!found)
        return store_error_set(error, STORE_NOT_FOUND, "There is no player %lld.", (long long)in->player_id);
    return STORE_OK;
}

store_status store_pg_audit_list(void *b, const store_in_audit_list *in, store_audit_entry **entries, size_t *n,
                                 store_error *error)
{
    store_pg *q = b;
    *entries = NULL;
    *n = 0;
    pg_params p = {0};
    pg_int(&p, in->before);
    pg_int(&p, in->limit);
    pg_text(&p, in->filter.action);
    pg_int(&p, in->filter.player_id);
    PGresult *r = store_pg_run_once(q,
                               "SELECT a.id, a.at, a.player_id, p.account_name, a.action, a.details"
                               " FROM admin_audit AS a LEFT JOIN players AS p ON p.id = a.player_id"
                               " WHERE ($1::bigint = 0 OR a.id < $1) AND ($3::text = '' OR a.action = $3)"
                               " AND ($4::bigint = 0 OR a.player_id = $4) ORDER BY a.id DESC LIMIT $2",
                               &p, "reading the audit log", error);
    if (r == NULL)
        return error->status;
    const int rows = PQntuples(r);
    *entries = malloc((size_t)(rows > 0 ? rows : 1) * sizeof **entries);
    if (*entries == NULL) {
        PQclear(r);
        return store_error_set(error, STORE_INTERNAL, "Out of memory reading the audit log.");
    }
    for (int i = 0; i < rows; i++) {
        store_audit_entry *e = &(*entries)[(*n)++];
        memset(e, 0, sizeof *e);
        e->id = pg_get_int(r, i, 0);
        e->at_ms = pg_get_int(r, i, 1);
        e->player_id = pg_get_int(r, i, 2);
        pg_get_text(e->account_name, sizeof e->account_name, r, i, 3);
        pg_get_text(e->action, sizeof e->action, r, i, 4);
        pg_get_text(e->details, sizeof e->details, r, i, 5);
    }
    PQclear(r);
    return STORE_OK;
}

/* ---- Adjustments ---- */

/* Makes the adjustments account when it is missing, and the adjustments table: *table its id,
 * *number the number of the next adjustment hand there. */
static store_status adjustments_book(store_pg *q, int64_t now, int64_t *table, int64_t *number, store_error *error)
{
    PGresult *r = store_pg_run(q,
                               "SELECT (SELECT id FROM players WHERE id = " STORE_ADJUSTMENTS_ID_TEXT
                               " AND account_name = '" STORE_ADJUSTMENTS_ACCOUNT "' AND kind = 'account'),"
                               " (SELECT id FROM game_tables WHERE game = '" STORE_ADJUSTMENTS_GAME "' LIMIT 1)",
                               NULL, "finding the adjustments account", error);
    if (r == NULL)
        return error->status;
    const bool has_account = !pg_is_null(r, 0, 0);
    *table = pg_get_int(r, 0, 1);
    PQclear(r);
    pg_params at = {0};
    pg_int(&at, now);
    /* Its id, name, password and keys as on SQLite (store_sqlite_admin.c says why nobody can use it). */
    if (!has_account &&
        store_pg_exec(q,
                      "INSERT INTO players (id, kind, nickname, account_name, password_hash, is_admin, created_at,"
                      " last_seen_at, account_look_key, account_fold_key) VALUES (" STORE_ADJUSTMENTS_ID_TEXT
                      ", 'account', 'adjustments', '" STORE_ADJUSTMENTS_ACCOUNT "', '!', false, $1, $1, '"
                      STORE_ADJUSTMENTS_ACCOUNT "', '" STORE_ADJUSTMENTS_ACCOUNT "')",
                      &at, "making the adjustments account", error) < 0)
        return error->status;
    if (*table == 0) {
        r = store_pg_run(q,
                         "INSERT INTO game_tables (game, options, host_player_id, code, is_public, seats, state,"
                         " hands_played, created_at, updated_at, turn_seconds, game_state) VALUES ('"
                         STORE_ADJUSTMENTS_GAME "', '{}', NULL, '" STORE_ADJUSTMENTS_CODE "', false,"
                         " '[null,null,null,null]', 'closed', 0, $1, $1, 30, '{}') RETURNING id",
                         &at, "making the adjustments table", error);
        if (r == NULL)
            return error->status;
        *table = pg_get_int(r, 0, 0);
        PQclear(r);
    }
    pg_params t = {0};
    pg_int(&t, *table);
    r = store_pg_run(q, "SELECT coalesce(max(number), 0) + 1 FROM hands WHERE table_id = $1", &t,
                     "finding the adjustments table", error);
    if (r == NULL)
        return error->status;
    *number = pg_get_int(r, 0, 0);
    PQclear(r);
    return STORE_OK;
}

store_status store_pg_adjust(void *b, const store_in_adjust *in, int64_t *id, store_error *error)
{
    store_pg *q = b;
    if (in->player_id == STORE_ADJUSTMENTS_ID)
        return store_error_set(error, STORE_INVALID, "The adjustments account itself cannot be adjusted.");
    const int64_t now = store_now_ms(&q->options);
    int64_t table = 0, number = 0;
    if (adjustments_book(q, now, &table, &number, error) != STORE_OK)
        return error->status;
    pg_params p = {0};
    pg_int(&p, table);
    pg_int(&p, number);
    pg_int(&p, now);
    pg_text(&p, in->result);
    PGresult *r = store_pg_run(q,
                               "INSERT INTO hands (table_id, number, seed, deal, game_state, started_at, result,"
                               " finished_at) VALUES ($1, $2, 0, '{}', '{}', $3, $4, $3) RETURNING id",
                               &p, "recording an adjustment", error);
    if (r == NULL)
        return error->status;
    const int64_t hand_id = pg_get_int(r, 0, 0);
    PQclear(r);
    store_ledger_entry rows[2] = {
        {.player_id = in->player_id, .seat = 0, .units = in->units, .reason = "adjustment"},
        {.player_id = STORE_ADJUSTMENTS_ID, .seat = 1, .units = -in->units, .reason = "adjustment"},
    };
    if (store_pg_append_ledger(q, hand_id, table, rows, 2, now, error) != STORE_OK)
        return error->status;
    r = store_pg_run(q, "SELECT max(id) - 1 FROM ledger", NULL, "recording an adjustment", error);
    if (r == NULL)
        return error->status;
    *id = pg_get_int(r, 0, 0); /* the ledger's lock is held to the commit: the last two rows are ours */
    PQclear(r);
    return STORE_OK;
}

/* ---- The ledger for admins ---- */

#define LEDGER_WHERE                                                                                       \
    " WHERE ($1::bigint = 0 OR l.player_id = $1) AND ($2::bigint = 0 OR l.table_id = $2)"                  \
    " AND ($3::text = '' OR t.code = $3) AND ($4::text = '' OR t.game = $4) AND ($5::text = '' OR l.reason = $5)" \
    " AND ($6::bigint = 0 OR l.at >= $6) AND ($7::bigint = 0 OR l.at < $7)"

static void bind_filter(pg_params *p, const store_ledger_filter *f)
{
    pg_int(p, f->player_id);
    pg_int(p, f->table_id);
    pg_text(p, f->code);
    pg_text(p, f->game);
    pg_text(p, f->reason);
    pg_int(p, f->from_ms);
    pg_int(p, f->to_ms);
}

static store_status read_page(store_pg *q, const store_in_ledger *in, store_ledger_line **rows, size_t *n,
                              store_error *error)
{
    pg_params p = {0};
    bind_filter(&p, &in->filter);
    pg_int(&p, in->before > 0 ? in->before : INT64_MAX);
    pg_int(&p, in->limit);
    PGresult *r = store_pg_run(q,
                               "SELECT l.id, l.at, l.table_id, t.code, t.game, l.hand_id, h.number, l.player_id,"
                               " p.nickname, l.seat, l.units, l.reason, l.balance_after"
                               " FROM ledger l JOIN game_tables t ON t.id = l.table_id JOIN hands h ON h.id = l.hand_id"
                               " LEFT JOIN players p ON p.id = l.player_id" LEDGER_WHERE
                               " AND l.id < $8 ORDER BY l.id DESC LIMIT $9",
                               &p, "reading the ledger", error);
    if (r == NULL)
        return error->status;
    const int count = PQntuples(r);
    *rows = malloc((size_t)(count > 0 ? count : 1) * sizeof **rows);
    if (*rows == NULL) {
        PQclear(r);
        return store_error_set(error, STORE_INTERNAL, "Out of memory reading the ledger.");
    }
    for (int i = 0; i < count; i++) {
        store_ledger_line *row = &(*rows)[(*n)++];
        memset(row, 0, sizeof *row);
        row->id = pg_get_int(r, i, 0);
        row->at_ms = pg_get_int(r, i, 1);
        row->table_id = pg_get_int(r, i, 2);
        pg_get_text(row->code, sizeof row->code, r, i, 3);
        pg_get_text(row->game, sizeof row->game, r, i, 4);
        row->hand_id = pg_get_int(r, i, 5);
        row->hand_number = pg_get_int(r, i, 6);
        row->player_id = pg_get_int(r, i, 7); /* NULL reads as 0: a bot's seat */
        pg_get_text(row->nickname, sizeof row->nickname, r, i, 8);
        row->seat = (int)pg_get_int(r, i, 9);
        row->units = pg_get_int(r, i, 10);
        pg_get_text(row->reason, sizeof row->reason, r, i, 11);
        row->balance_after = pg_get_int(r, i, 12);
    }
    PQclear(r);
    return STORE_OK;
}

static store_status read_totals(store_pg *q, const store_ledger_filter *f, store_ledger_totals *totals,
                                store_error *error)
{
    pg_params p = {0};
    bind_filter(&p, f);
    PGresult *r = store_pg_run_once(q,
                               "SELECT count(*), coalesce(sum(l.units), 0),"
                               " coalesce(sum(CASE WHEN l.units > 0 THEN l.units END), 0),"
                               " coalesce(sum(CASE WHEN l.units < 0 THEN l.units END), 0)"
                               " FROM ledger l JOIN game_tables t ON t.id = l.table_id" LEDGER_WHERE,
                               &p, "totalling the ledger", error);
    if (r == NULL)
        return error->status;
    totals->rows = pg_get_int(r, 0, 0);
    totals->units = pg_get_int(r, 0, 1);
    totals->won = pg_get_int(r, 0, 2);
    totals->lost = pg_get_int(r, 0, 3);
    PQclear(r);
    return STORE_OK;
}

store_status store_pg_ledger_query(void *b, const store_in_ledger *in, store_ledger_line **rows, size_t *n,
                                   store_ledger_totals *totals, store_error *error)
{
    store_pg *q = b;
    *rows = NULL;
    *n = 0;
    if (read_page(q, in, rows, n, error) != STORE_OK)
        return error->status;
    if (in->with_totals && read_totals(q, &in->filter, totals, error) != STORE_OK)
        return error->status;
    return STORE_OK;
}

/* ---- The admin flag, from the command line ---- */

/* The flag and its audit entry ("grant" or "revoke", naming the account, by the command line) in
 * one transaction: the log holds every change of who is an admin. */
static store_status admin_set_on(store_pg *q, const char *name, bool is_admin, store_error *error)
{
    const char *doing = is_admin ? "granting admin" : "revoking admin";
    pg_params p = {0};
    pg_bool(&p, is_admin);
    pg_text(&p, name);
    PGresult *r = store_pg_run_once(q,
                               "UPDATE players SET is_admin = $1 WHERE kind = 'account'"
                               " AND lower(account_name COLLATE \"C\") = lower($2 COLLATE \"C\") RETURNING id, account_name",
                               &p, doing, error);
    if (r == NULL)
        return error->status;
    const bool found = PQntuples(r) > 0;
    const int64_t id = found ? pg_get_int(r, 0, 0) : 0;
    json_t *details = found ? json_pack("{s:s, s:s}", "account", PQgetvalue(r, 0, 1), "by", "command line") : NULL;
    PQclear(r);
    if (!found)
        return store_error_set(error, STORE_NOT_FOUND, "There is no account named %s in %s.", name, q->shown);
    char *text = details ? json_dumps(details, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(details);
    if (text == NULL)
        return store_error_set(error, STORE_INTERNAL, "Out of memory %s.", doing);
    pg_params a = {0};
    pg_int(&a, store_now_ms(&q->options));
    pg_int(&a, id);
    pg_text(&a, is_admin ? "grant" : "revoke");
    pg_text(&a, text);
    long rc = store_pg_exec(q, "INSERT INTO admin_audit (at, player_id, action, details) VALUES ($1, $2, $3, $4)", &a,
                            doing, error);
    free(text);
    return rc < 0 ? error->status : STORE_OK;
}

bool store_pg_admin_set(const char *uri, const char *name, bool is_admin, store_error *error)
{
    error->status = STORE_OK;
    error->message[0] = '\0';
    if (!store_text_is_clean(name, STORE_NAME_MAX)) {
        store_error_set(error, STORE_INVALID, "An account name is 1 to %d bytes of text without control characters.",
                        STORE_NAME_MAX);
        return false;
    }
    store_pg q = {0};
    if (store_pg_connect(&q, uri, error) && store_pg_exec(&q, "BEGIN", NULL, "granting admin", error) >= 0) {
        q.in_transaction = true;
        if (admin_set_on(&q, name, is_admin, error) == STORE_OK)
            store_pg_exec(&q, "COMMIT", NULL, "granting admin", error);
        else
            store_pg_exec(&q, "ROLLBACK", NULL, "granting admin", &(store_error){0});
    }
    store_pg_disconnect(&q);
    return error->status == STORE_OK;
}
