/*
 * crash_db — one read-only query interface over SQLite and PostgreSQL. See crash_db.h.
 *
 * Both kinds of result end up as the same thing: a grid of NUL-terminated strings (NULL for SQL
 * NULL), copied out of SQLite's statement or out of libpq's result.
 */
#include "crash_db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>
#include <sqlite3.h>

struct crash_db {
    sqlite3 *lite;
    PGconn *pg;
};

struct crash_rows {
    size_t n_rows;
    int n_columns;
    char **cells; /* n_rows * n_columns, row by row */
};

bool crash_db_is_pg(const char *where)
{
    return strncmp(where, "postgresql://", 13) == 0 || strncmp(where, "postgres://", 11) == 0;
}

crash_db *crash_db_open(const char *where, char *error, size_t error_cap)
{
    crash_db *db = calloc(1, sizeof *db);
    if (db == NULL) {
        snprintf(error, error_cap, "out of memory");
        return NULL;
    }
    if (crash_db_is_pg(where)) {
        db->pg = PQconnectdb(where);
        if (PQstatus(db->pg) != CONNECTION_OK) {
            snprintf(error, error_cap, "cannot connect to %s: %s", where, PQerrorMessage(db->pg));
            crash_db_close(db);
            return NULL;
        }
        /* read what was committed, and change nothing */
        PQclear(PQexec(db->pg, "SET default_transaction_read_only = on"));
        return db;
    }
    if (sqlite3_open_v2(where, &db->lite, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        snprintf(error, error_cap, "cannot open %s read-only: %s", where, sqlite3_errmsg(db->lite));
        crash_db_close(db);
        return NULL;
    }
    return db;
}

void crash_db_close(crash_db *db)
{
    if (db == NULL)
        return;
    if (db->pg != NULL)
        PQfinish(db->pg);
    if (db->lite != NULL)
        sqlite3_close(db->lite);
    free(db);
}

static crash_rows *rows_new(int n_columns)
{
    crash_rows *rows = calloc(1, sizeof *rows);
    if (rows != NULL)
        rows->n_columns = n_columns;
    return rows;
}

/* Room for one more row; false when out of memory. */
static bool rows_grow(crash_rows *rows, size_t *cap)
{
    if (rows->n_rows < *cap)
        return true;
    size_t grown = *cap ? *cap * 2 : 64;
    char **cells = realloc(rows->cells, grown * (size_t)rows->n_columns * sizeof *cells);
    if (cells == NULL)
        return false;
    rows->cells = cells;
    *cap = grown;
    return true;
}

static crash_rows *query_sqlite(crash_db *db, const char *sql, char *error, size_t error_cap)
{
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v2(db->lite, sql, -1, &stmt, NULL) != SQLITE_OK) {
        snprintf(error, error_cap, "%s", sqlite3_errmsg(db->lite));
        return NULL;
    }
    crash_rows *rows = rows_new(sqlite3_column_count(stmt));
    size_t cap = 0;
    int rc;
    while (rows != NULL && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (!rows_grow(rows, &cap)) {
            crash_rows_free(rows);
            rows = NULL;
            break;
        }
        char **row = rows->cells + rows->n_rows * (size_t)rows->n_columns;
        for (int c = 0; c < rows->n_columns; c++) {
            const unsigned char *text = sqlite3_column_text(stmt, c);
            row[c] = text != NULL ? strdup((const char *)text) : NULL;
        }
        rows->n_rows++;
    }
    if (rows == NULL)
        snprintf(error, error_cap, "out of memory");
    sqlite3_finalize(stmt);
    return rows;
}

static crash_rows *query_pg(crash_db *db, const char *sql, char *error, size_t error_cap)
{
    PGresult *result = PQexec(db->pg, sql);
    if (PQresultStatus(result) != PGRES_TUPLES_OK) {
        snprintf(error, error_cap, "%s", PQerrorMessage(db->pg));
        PQclear(result);
        return NULL;
    }
    crash_rows *rows = rows_new(PQnfields(result));
    size_t n = (size_t)PQntuples(result), cap = 0;
    for (size_t r = 0; rows != NULL && r < n; r++) {
        if (!rows_grow(rows, &cap)) {
            crash_rows_free(rows);
            rows = NULL;
            break;
        }
        char **row = rows->cells + rows->n_rows * (size_t)rows->n_columns;
        for (int c = 0; c < rows->n_columns; c++)
            row[c] = PQgetisnull(result, (int)r, c) ? NULL : strdup(PQgetvalue(result, (int)r, c));
        rows->n_rows++;
    }
    if (rows == NULL)
        snprintf(error, error_cap, "out of memory");
    PQclear(result);
    return rows;
}

crash_rows *crash_db_query(crash_db *db, const char *sql, char *error, size_t error_cap)
{
    return db->pg != NULL ? query_pg(db, sql, error, error_cap) : query_sqlite(db, sql, error, error_cap);
}

void crash_rows_free(crash_rows *rows)
{
    if (rows == NULL)
        return;
    for (size_t i = 0; i < rows->n_rows * (size_t)rows->n_columns; i++)
        free(rows->cells[i]);
    free(rows->cells);
    free(rows);
}

size_t crash_rows_count(const crash_rows *rows) { return rows != NULL ? rows->n_rows : 0; }

const char *crash_rows_text(const crash_rows *rows, size_t row, int column)
{
    if (rows == NULL || row >= rows->n_rows || column < 0 || column >= rows->n_columns)
        return NULL;
    return rows->cells[row * (size_t)rows->n_columns + (size_t)column];
}

int64_t crash_rows_int(const crash_rows *rows, size_t row, int column)
{
    const char *text = crash_rows_text(rows, row, column);
    return text != NULL ? (int64_t)strtoll(text, NULL, 10) : 0;
}

json_t *crash_rows_json(const crash_rows *rows, size_t row, int column)
{
    const char *text = crash_rows_text(rows, row, column);
    return text != NULL ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
}
