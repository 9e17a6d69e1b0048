/*
 * store_sqlite_ledger_query — the ledger as admins read it (store_ledger_query): filtered rows
 * newest first, a page at a time below a row id, and the totals of every row the filter keeps.
 *
 * The filter is one fixed statement whose every condition can be switched off by its own
 * parameter ("?1 = 0 OR l.player_id = ?1"): no SQL is ever built from what a client sent, and
 * the two statements are prepared once. The page walks the ledger by id downwards and stops at
 * its limit; a filter that keeps few rows therefore reads many (an index per filter is for when
 * the ledger is large enough to need it).
 */
#include <stdlib.h>
#include <string.h>

#include "store_sqlite.h"

#define LEDGER_FROM                                                                              \
    " FROM ledger l JOIN game_tables t ON t.id = l.table_id JOIN hands h ON h.id = l.hand_id"    \
    " LEFT JOIN players p ON p.id = l.player_id"                                                 \
    " WHERE (?1 = 0 OR l.player_id = ?1) AND (?2 = 0 OR l.table_id = ?2)"                       \
    " AND (?3 = '' OR t.code = ?3) AND (?4 = '' OR t.game = ?4) AND (?5 = '' OR l.reason = ?5)"  \
    " AND (?6 = 0 OR l.at >= ?6) AND (?7 = 0 OR l.at < ?7)"

static const char page_sql[] =
    "SELECT l.id, l.at, l.table_id, t.code, t.game, l.hand_id, h.number, l.player_id,"
    " p.nickname, l.seat, l.units, l.reason, l.balance_after" LEDGER_FROM
    " AND (?8 = 0 OR l.id < ?8) ORDER BY l.id DESC LIMIT ?9";

static const char totals_sql[] =
    "SELECT count(*), coalesce(sum(l.units), 0), coalesce(sum(CASE WHEN l.units > 0 THEN l.units END), 0),"
    " coalesce(sum(CASE WHEN l.units < 0 THEN l.units END), 0)" LEDGER_FROM;

static void bind_filter(sqlite3_stmt *st, const store_ledger_filter *f)
{
    sqlite3_bind_int64(st, 1, f->player_id);
    sqlite3_bind_int64(st, 2, f->table_id);
    store_sqlite_bind_text(st, 3, f->code);
    store_sqlite_bind_text(st, 4, f->game);
    store_sqlite_bind_text(st, 5, f->reason);
    sqlite3_bind_int64(st, 6, f->from_ms);
    sqlite3_bind_int64(st, 7, f->to_ms);
}

static void read_row(sqlite3_stmt *st, store_ledger_line *row)
{
    memset(row, 0, sizeof *row);
    row->id = sqlite3_column_int64(st, 0);
    row->at_ms = sqlite3_column_int64(st, 1);
    row->table_id = sqlite3_column_int64(st, 2);
    store_sqlite_column_text(row->code, sizeof row->code, st, 3);
    store_sqlite_column_text(row->game, sizeof row->game, st, 4);
    row->hand_id = sqlite3_column_int64(st, 5);
    row->hand_number = sqlite3_column_int64(st, 6);
    row->player_id = sqlite3_column_int64(st, 7); /* NULL reads as 0: a bot's seat */
    store_sqlite_column_text(row->nickname, sizeof row->nickname, st, 8);
    row->seat = sqlite3_column_int(st, 9);
    row->units = sqlite3_column_int64(st, 10);
    store_sqlite_column_text(row->reason, sizeof row->reason, st, 11);
    row->balance_after = sqlite3_column_int64(st, 12);
}

static store_status read_page(store_sqlite *q, const store_in_ledger *in, store_ledger_line **rows, size_t *n,
                              store_error *error)
{
    sqlite3_stmt *st = store_sqlite_stmt(q, STMT_LEDGER_PAGE, page_sql, error);
    if (st == NULL)
        return error->status;
    *rows = malloc((size_t)in->limit * sizeof **rows);
    if (*rows == NULL)
        return store_error_set(error, STORE_INTERNAL, "Out of memory reading the ledger.");
    bind_filter(st, &in->filter);
    sqlite3_bind_int64(st, 8, in->before);
    sqlite3_bind_int(st, 9, in->limit);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && *n < (size_t)in->limit)
        read_row(st, &(*rows)[(*n)++]);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return store_sqlite_fail(q, rc, "reading the ledger", error);
    return STORE_OK;
}

static store_status read_totals(store_sqlite *q, const store_ledger_filter *f, store_ledger_totals *totals,
                                store_error *error)
{
    sqlite3_stmt *st = store_sqlite_stmt(q, STMT_LEDGER_TOTALS, totals_sql, error);
    if (st == NULL)
        return error->status;
    bind_filter(st, f);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        totals->rows = sqlite3_column_int64(st, 0);
        totals->units = sqlite3_column_int64(st, 1);
        totals->won = sqlite3_column_int64(st, 2);
        totals->lost = sqlite3_column_int64(st, 3);
    }
    sqlite3_reset(st);
    if (rc != SQLITE_ROW)
        return store_sqlite_fail(q, rc, "totalling the ledger", error);
    return STORE_OK;
}

store_status store_sqlite_ledger_query(void *b, const store_in_ledger *in, store_ledger_line **rows, size_t *n,
                                       store_ledger_totals *totals, store_error *error)
{
    store_sqlite *q = b;
    *rows = NULL;
    *n = 0;
    if (read_page(q, in, rows, n, error) != STORE_OK)
        return error->status;
    if (in->with_totals && read_totals(q, &in->filter, totals, error) != STORE_OK)
        return error->status;
    return STORE_OK;
}
