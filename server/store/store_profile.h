/*
 * store_profile — the SQLite store's read of a player's profile (store.h, store_profile_get):
 * the player, totals per game, end-of-day balances, and a page of tables and of hands, each
 * paged by a cursor (the id of the player's last ledger row there). Called by the SQLite backend
 * on the store thread inside the batch's transaction; it knows no requests and no threads.
 */
#ifndef STORE_PROFILE_H
#define STORE_PROFILE_H

#include <sqlite3.h>

#include "store_backend.h"

/* Reads the profile q asks for from db (the file at path, for error sentences) into a new *out
 * (store_profile_free). STORE_NOT_FOUND when no player has that id; *out is NULL unless STORE_OK. */
store_status store_profile_read(sqlite3 *db, const char *path, const store_profile_query *q, store_profile **out,
                                store_error *error);

#endif
