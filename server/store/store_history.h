/*
 * store_history — the SQLite store's reads of what was played: the open tables for recovery (each
 * with its unfinished hand and that hand's actions, its running scores and its seated players'
 * current nicknames); a table's finished hands (newest first, each with its players, their
 * current nicknames and the units of its ledger rows); one hand with its ordered actions.
 * Part of the SQLite backend (store_sqlite.h), which calls it on the store thread inside the
 * batch's transaction, so that every read sees the writes requested before it. It knows no
 * requests and no threads: a reader is a connection and the statements it prepared on it.
 *
 * Every function fills error (a status and a sentence naming the file) when it fails; answers
 * are freed as store_backend.h says (store_recovery_free, store_summaries_free, store_hand_free).
 */
#ifndef STORE_HISTORY_H
#define STORE_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "store.h"

typedef struct store_history store_history;

/* A reader on db (the file at path, for error sentences); both must outlive it. NULL when out
 * of memory. */
store_history *store_history_new(sqlite3 *db, const char *path);

/* Finalises the reader's statements (before db is closed). NULL is a no-op. */
void store_history_free(store_history *h);

/* Every table not closed, by id, with its unfinished hand, scores and nicknames (store.h). */
store_status store_history_recover(store_history *h, store_recovery **out, store_error *error);

/* The table's finished hands numbered below `before` (0: no bound), newest first, at most limit
 * (1 to 100, checked by the caller) into a new array *out of *n summaries; none for an unknown
 * table. */
store_status store_history_hands(store_history *h, int64_t table_id, int64_t before, int limit,
                                 store_hand_summary **out, size_t *n, store_error *error);

/* The tables the player has ledger rows at, the most recently played first, at most limit,
 * only those of code unless it is "" (store.h, store_player_tables), into a new array *out. */
store_status store_history_player_tables(store_history *h, int64_t player_id, const char *code, int limit,
                                         store_played_table **out, size_t *n, store_error *error);

/* The finished hand `number` of the table with its actions, and its summary; STORE_NOT_FOUND
 * when there is none or it is not finished. *hand is NULL and summary empty unless STORE_OK. */
store_status store_history_hand(store_history *h, int64_t table_id, int64_t number, store_hand **hand,
                                store_hand_summary *summary, store_error *error);

#endif
