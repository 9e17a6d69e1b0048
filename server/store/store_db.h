/*
 * store_db — the SQLite database of the store, one connection at a time and without threads
 * (store_db.c; the ledger's key record and check: store_db_ledger.c). Every function fills error
 * (a status and a sentence naming the file) when it fails; a connection returned is the caller's
 * to sqlite3_close.
 */
#ifndef STORE_DB_H
#define STORE_DB_H

#include <stdbool.h>

#include <sqlite3.h>

#include "store.h"
#include "store_ledger.h"

/* Opens (creating if need be) the database for writing: WAL, the options' pragmas, and the
 * migrations it lacks (a database newer than this binary is refused). NULL on failure. */
sqlite3 *store_db_open(const char *path, const store_options *options, store_error *error);

/* Opens the database read-only; it must already be at this binary's schema version. */
sqlite3 *store_db_open_readonly(const char *path, const store_options *options, store_error *error);

/* The pragmas every connection of the store uses (durability, cache, foreign keys off, …). */
bool store_db_configure(sqlite3 *db, const char *path, const store_options *options, store_error *error);

/* The ledger's key record; *found is false when the database has none. */
bool store_db_anchor_read(sqlite3 *db, const char *path, store_ledger_anchor *anchor, bool *found,
                          store_error *error);

/* Readies the ledger of a database opened for writing to take rows with its key: reads the key
 * file at key_path, or makes it when there is none and the database has no key record; writes
 * the key record when there is none yet and the ledger may get one (it is empty, or its key was
 * made just now); refuses a key that does not match the record, a missing key for a keyed
 * ledger, and a ledger with rows but no record beside a key that already existed. */
bool store_db_ledger_key(sqlite3 *db, const char *path, const char *key_path, const store_options *options,
                         unsigned char key[STORE_LEDGER_KEY_BYTES], store_error *error);

/* Checks the whole ledger in one read transaction (see store_ledger_verify in store.h). key is
 * NULL when there is none (key_path names where it was looked for, for the answer). */
bool store_db_verify_ledger(sqlite3 *db, const char *path, const unsigned char *key, const char *key_path,
                            store_ledger_check *check, store_error *error);

#endif
