/*
 * store_sqlite_ledger_query — the ledger as admins read it (store_ledger_query): filtered rows
 * newest first, a page at a time below a row id, and the totals of every row the filter keeps.
 *
 * The filter is a fixed statement whose every condition can be switched off by its own
 * parameter ("?1 = 0 OR l.player_id = ?1"): no SQL is ever built from what a client sent. Such a
 * condition can use no index, so each statement comes in variants that lead with the most
 * selective filter given as a plain condition SQLite walks an index by (a player's rows, a
 * table's hands, a time range, a reason); all are fixed text, prepared once. The page's cursor
 * is a range on the row id ("l.id < …", never "?8 = 0 OR …"), so a page below row N starts its
 * walk at N: an export of every row reads each once, not the rows above it again for each page.
 */
#include <stdlib.h>
#include <string.h>

#include "store_sqlite.h"

/* Every filter, each switched off by its own parameter; LEAD is the filter a variant walks an
 * index by (below). The totals need no hand nor nickname: only their rows are joined to them. */
#define LEDGER_WHERE(LEAD)                                                                       \
    " WHERE " LEAD " AND (?1 = 0 OR l.player_id = ?1) AND (?2 = 0 OR l.table_id = ?2)"          \
    " AND (?3 = '' OR t.code = ?3) AND (?4 = '' OR t.game = ?4) AND (?5 = '' OR l.reason = ?5)"  \
    " AND (?6 = 0 OR l.at >= ?6) AND (?7 = 0 OR l.at < ?7)"
#define LEDGER_FROM(LEAD)                                                                        \
    " FROM ledger l JOIN game_tables t ON t.id = l.table_id JOIN hands h ON h.id = l.hand_id"    \
    " LEFT JOIN players p ON p.id = l.player_id" LEDGER_WHERE(LEAD)
#define TOTALS_FROM(LEAD) " FROM ledger l JOIN game_tables t ON t.id = l.table_id" LEDGER_WHERE(LEAD)
/* Without a code or a game, the totals read the ledger alone (no lookup of a table per row). */
#define TOTALS_PLAIN_FROM(LEAD)                                                                  \
    " FROM ledger l WHERE " LEAD " AND ?3 = '' AND ?4 = '' AND (?1 = 0 OR l.player_id = ?1)"     \
    " AND (?2 = 0 OR l.table_id = ?2) AND (?5 = '' OR l.reason = ?5) AND (?6 = 0 OR l.at >= ?6)" \
    " AND (?7 = 0 OR l.at < ?7)"

/* The variants: a condition SQLite can walk an index by, for the most selective filter given. A
 * filter switched off by "?1 = 0 OR …" can use no index, so without them a filter that keeps few
 * rows reads the whole ledger, and its totals always do. */
#define LEAD_ANY "1"
#define LEAD_PLAYER "l.player_id = ?1"                                       /* ledger_by_player */
#define LEAD_TABLE "l.hand_id IN (SELECT id FROM hands WHERE table_id = ?2)" /* its hands, ledger_by_hand */
#define LEAD_CODE                                                                                \
    "l.hand_id IN (SELECT hh.id FROM game_tables tt JOIN hands hh ON hh.table_id = tt.id"         \
    " WHERE tt.code = ?3)"                                                   /* game_tables_by_code */
/* ledger_by_time */
#define LEAD_TIME "l.at >= ?6 AND l.at < (CASE WHEN ?7 = 0 THEN 9223372036854775807 ELSE ?7 END)"
#define LEAD_REASON "l.reason = ?5"                                          /* ledger_by_reason */

#define PAGE_SQL(LEAD)                                                                            \
    "SELECT l.id, l.at, l.table_id, t.code, t.game, l.hand_id, h.number, l.player_id,"            \
    " p.nickname, l.seat, l.units, l.reason, l.balance_after" LEDGER_FROM(LEAD)                   \
    " AND l.id < (CASE WHEN ?8 = 0 THEN 9223372036854775807 ELSE ?8 END) ORDER BY l.id DESC LIMIT ?9"
#define TOTALS_COLUMNS                                                                            \
    "SELECT count(*), coalesce(sum(l.units), 0), coalesce(sum(CASE WHEN l.units > 0 THEN l.units END), 0),"  \
    " coalesce(sum(CASE WHEN l.units < 0 THEN l.units END), 0)"
#define TOTALS_SQL(LEAD) TOTALS_COLUMNS TOTALS_FROM(LEAD)
#define TOTALS_PLAIN_SQL(LEAD) TOTALS_COLUMNS TOTALS_PLAIN_FROM(LEAD)

typedef enum lead { LEAD_BY_ANY, LEAD_BY_PLAYER, LEAD_BY_TABLE, LEAD_BY_CODE, LEAD_BY_TIME, LEAD_BY_REASON } lead;

static const char *const page_sql[] = {
    [LEAD_BY_ANY] = PAGE_SQL(LEAD_ANY),     [LEAD_BY_PLAYER] = PAGE_SQL(LEAD_PLAYER),
    [LEAD_BY_TABLE] = PAGE_SQL(LEAD_TABLE), [LEAD_BY_CODE] = PAGE_SQL(LEAD_CODE),
    [LEAD_BY_TIME] = PAGE_SQL(LEAD_TIME),   [LEAD_BY_REASON] = PAGE_SQL(LEAD_REASON),
};
static const char *const totals_sql[] = {
    [LEAD_BY_ANY] = TOTALS_SQL(LEAD_ANY),     [LEAD_BY_PLAYER] = TOTALS_SQL(LEAD_PLAYER),
    [LEAD_BY_TABLE] = TOTALS_SQL(LEAD_TABLE), [LEAD_BY_CODE] = TOTALS_SQL(LEAD_CODE),
    [LEAD_BY_TIME] = TOTALS_SQL(LEAD_TIME),   [LEAD_BY_REASON] = TOTALS_SQL(LEAD_REASON),
};
static const char *const totals_plain_sql[] = {
    [LEAD_BY_ANY] = TOTALS_PLAIN_SQL(LEAD_ANY),     [LEAD_BY_PLAYER] = TOTALS_PLAIN_SQL(LEAD_PLAYER),
    [LEAD_BY_TABLE] = TOTALS_PLAIN_SQL(LEAD_TABLE), [LEAD_BY_CODE] = TOTALS_PLAIN_SQL(LEAD_CODE),
    [LEAD_BY_TIME] = TOTALS_PLAIN_SQL(LEAD_TIME),   [LEAD_BY_REASON] = TOTALS_PLAIN_SQL(LEAD_REASON),
};
#define LEADS 6

/* The variant for a filter: a player's rows are fewest, then a table's, then a time range's. A
 * range with no lower bound still walks the time index from its start. */
static lead lead_of(const store_ledger_filter *f)
{
    if (f->player_id)
        return LEAD_BY_PLAYER;
    if (f->table_id)
        return LEAD_BY_TABLE;
    if (f->code[0])
        return LEAD_BY_CODE;
    if (f->from_ms || f->to_ms)
        return LEAD_BY_TIME;
    if (f->reason[0])
        return LEAD_BY_REASON;
    return LEAD_BY_ANY;
}

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
    const lead v = lead_of(&in->filter);
    sqlite3_stmt *st = store_sqlite_stmt(q, STMT_LEDGER_PAGE + (int)v, page_sql[v], error);
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
    const lead v = lead_of(f);
    const bool plain = f->code[0] == '\0' && f->game[0] == '\0';
    sqlite3_stmt *st = plain ? store_sqlite_stmt(q, STMT_LEDGER_TOTALS + LEADS + (int)v, totals_plain_sql[v], error)
                             : store_sqlite_stmt(q, STMT_LEDGER_TOTALS + (int)v, totals_sql[v], error);
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
