/*
 * store_db — the SQLite database of the store, one connection at a time and without threads
 * (see store_db.c). Every function fills error (a status and a sentence naming the file) when it
 * fails; a connection returned is the caller's to sqlite3_close.
 */
#ifndef STORE_DB_H
#define STORE_DB_H

#include <stdbool.h>

#include <sqlite3.h>

#include "store.h"

/* Opens (creating if need be) the database for writing: WAL, the options' pragmas, and the
 * migrations it lacks (a database newer than this binary is refused). NULL on failure. */
sqlite3 *store_db_open(const char *path, const store_options *options, store_error *error);

/* Opens the database read-only; it must already be at this binary's schema version. */
sqlite3 *store_db_open_readonly(const char *path, const store_options *options, store_error *error);

/* The pragmas every connection of the store uses (durability, cache, foreign keys off, …). */
bool store_db_configure(sqlite3 *db, const char *path, const store_options *options, store_error *error);

/* Checks the whole ledger in one read transaction (see store_ledger_verify in store.h). */
bool store_db_verify_ledger(sqlite3 *db, const char *path, store_ledger_check *check, store_error *error);

#endif
