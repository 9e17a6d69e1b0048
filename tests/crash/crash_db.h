/*
 * crash_db — the crash test's read-only view of a house's database, whichever store it is: an
 * SQLite file (a path), or PostgreSQL (a postgresql:// or postgres:// URI, through libpq). The
 * checks (crash_check, crash_score) send the same SQL to both: plain SELECTs over the tables the
 * two schemas share (game_tables, hands, hand_actions, ledger), with every value read as text.
 *
 * A query's rows are read whole into memory (a test run's database is small). Integers are
 * formatted into the SQL by the caller, never strings, so no value needs quoting.
 */
#ifndef CRASH_DB_H
#define CRASH_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

typedef struct crash_db crash_db;
typedef struct crash_rows crash_rows;

/* True if where names a PostgreSQL database rather than an SQLite file. */
bool crash_db_is_pg(const char *where);

/* Opens the database read-only; NULL with the reason in error. */
crash_db *crash_db_open(const char *where, char *error, size_t error_cap);
void crash_db_close(crash_db *db);

/* Runs one SELECT; NULL with the reason in error. */
crash_rows *crash_db_query(crash_db *db, const char *sql, char *error, size_t error_cap);
void crash_rows_free(crash_rows *rows);

size_t crash_rows_count(const crash_rows *rows);
/* The value as text, NULL for SQL NULL (or a row or column out of range). */
const char *crash_rows_text(const crash_rows *rows, size_t row, int column);
/* The value as a 64-bit integer (0 for NULL); a bigint seed comes back with the same bits. */
int64_t crash_rows_int(const crash_rows *rows, size_t row, int column);
/* The value parsed as JSON (a new reference), NULL for SQL NULL or text that is not JSON. */
json_t *crash_rows_json(const crash_rows *rows, size_t row, int column);

#endif
