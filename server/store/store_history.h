/*
 * store_history — the SQLite store's reads of what was played: a table's finished hands (newest
 * first, each with its players, their current nicknames and the units of its ledger rows), one
 * hand with its ordered actions, a table's running scores and its seated players' nicknames.
 * An internal part of store_sqlite.c, which calls it on the store thread inside the transaction of
 * the batch, so that every read sees the writes requested before it. It knows no requests and no
 * threads: a reader is a connection and the statements it prepared on it.
 *
 * Every function fills error (a status and a sentence naming the file) when it fails.
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

/* The table's finished hands numbered below `before` (0: no bound), newest first, at most limit
 * (1 to 100, checked by the caller) into a new array *out of *n summaries; none for an unknown
 * table. Free with store_history_summaries_free. */
store_status store_history_hands(store_history *h, int64_t table_id, int64_t before, int limit,
                                 store_hand_summary **out, size_t *n, store_error *error);

/* The finished hand `number` of the table with its actions, and its summary; STORE_NOT_FOUND
 * when there is none or it is not finished. Free *hand with store_history_hand_free and
 * summary->game_state and summary->result with json_decref (all are NULL unless STORE_OK). */
store_status store_history_hand(store_history *h, int64_t table_id, int64_t number, store_hand **hand,
                                store_hand_summary *summary, store_error *error);

/* Appends the hand's actions, in order, to hand->actions (hand->id set). On failure the actions
 * read so far stay in hand, for its owner to free. */
store_status store_history_actions(store_history *h, store_hand *hand, store_error *error);

/* Per seat, the sum of the units of the table's ledger rows (through its hands: the ledger has
 * no index on its table). */
store_status store_history_scores(store_history *h, int64_t table_id, int64_t scores[STORE_SEATS],
                                  store_error *error);

/* Fills the nickname of every seat that holds a player with the player's current nickname ("" if
 * the player is unknown); clears the others. */
store_status store_history_nicknames(store_history *h, store_seat seats[STORE_SEATS], store_error *error);

void store_history_summaries_free(store_hand_summary *summaries, size_t n);
void store_history_hand_free(store_hand *hand);

#endif
