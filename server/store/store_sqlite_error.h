/*
 * store_sqlite_error — turns a SQLite result code into a store_error: the status the rooms act on
 * (busy, corrupt, read-only, full, …) and a sentence that names the file and says what to do.
 * Shared by the SQLite store and the migrations.
 */
#ifndef STORE_SQLITE_ERROR_H
#define STORE_SQLITE_ERROR_H

#include <sqlite3.h>

#include "store_backend.h" /* store_error_set */

/* The store status for a SQLite primary or extended result code (never STORE_OK for an error). */
store_status store_sqlite_status(int rc);

/* Fills error for rc, which db (may be NULL) returned while doing `doing` ("opening", "writing
 * a hand's end", …) on the file at path (may be NULL: taken from db). Returns the status. */
store_status store_sqlite_error(store_error *error, sqlite3 *db, const char *path, int rc, const char *doing);

#endif
