/*
 * store_sqlite_hands — the writes of play in SQLite: a table's row, a hand's start, its actions,
 * and its end (the last action, the result, the ledger rows with balances and hashes, and the
 * table's new game state), each request one transaction's worth of rows that the batch commits.
 *
 * The statements run for every action and hand use OR FAIL: each changes one row and SQLite
 * checks every constraint before writing it, so a failure leaves nothing, and FAIL (unlike the
 * default ABORT) needs no statement journal, a copy of every page the statement touches.
 *
 * The open hands' cache. What an action or a hand's end checks first (its table, whether it is
 * open, its last action number) is kept for open hands, so that an action is one INSERT. The
 * cache follows the current transaction and is cleared whenever a transaction is rolled back, so
 * it never holds what the database does not.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_ledger.h"
#include "store_sqlite.h"
#include "store_sqlite_error.h"


static const char *const sql[STMT_COUNT] = {
    [STMT_PLAYER_EXISTS] = "SELECT 1 FROM players WHERE id = ?1",
    [STMT_TABLE_INSERT] = "INSERT INTO game_tables (game, options, host_player_id, code, is_public, seats, state,"
                          " game_state, hands_played, created_at, updated_at, turn_seconds, held, spectator_chat)"
                          " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, ?11, ?13, ?14)",
    [STMT_TABLE_UPDATE] = "UPDATE game_tables SET game = ?1, options = ?2, host_player_id = ?3, code = ?4,"
                          " is_public = ?5, seats = ?6, state = ?7, game_state = ?8, hands_played = ?9,"
                          " updated_at = ?10, turn_seconds = ?11, held = ?13, spectator_chat = ?14 WHERE id = ?12",
    [STMT_HAND_OPEN_ON_TABLE] = "SELECT EXISTS (SELECT 1 FROM game_tables WHERE id = ?1),"
                                " (SELECT number FROM hands WHERE table_id = ?1 AND finished_at IS NULL LIMIT 1)",
    [STMT_HAND_INSERT] = "INSERT OR FAIL INTO hands (table_id, number, seed, deal, game_state, started_at, options)"
                         " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    [STMT_HAND_STATE] = "SELECT table_id, finished_at IS NULL,"
                        " (SELECT coalesce(max(seq), 0) FROM hand_actions WHERE hand_id = ?1) FROM hands WHERE id = ?1",
    [STMT_ACTION_INSERT] = "INSERT OR FAIL INTO hand_actions (hand_id, seq, seat, action, at) VALUES (?1, ?2, ?3, ?4, ?5)",
    [STMT_HAND_RESULT] = "UPDATE OR FAIL hands SET result = ?2, finished_at = ?3 WHERE id = ?1 AND finished_at IS NULL",
    [STMT_LEDGER_LAST] = "SELECT id, hash FROM ledger ORDER BY id DESC LIMIT 1",
    [STMT_PLAYER_BALANCE] = "SELECT EXISTS (SELECT 1 FROM players WHERE id = ?1),"
                            " (SELECT balance_after FROM ledger WHERE player_id = ?1 ORDER BY id DESC LIMIT 1)",
    [STMT_LEDGER_INSERT] = "INSERT OR FAIL INTO ledger (id, table_id, hand_id, player_id, seat, units, reason,"
                           " balance_after, at, prev_hash, hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    [STMT_TABLE_GAME_STATE] = "UPDATE OR FAIL game_tables SET game_state = ?2, updated_at = ?3 WHERE id = ?1",
};

static sqlite3_stmt *stmt(store_sqlite *q, sqlite_stmt_id id, store_error *error)
{
    return store_sqlite_stmt(q, id, sql[id], error);
}

/* ---- The open hands' cache ---- */

typedef store_hand_state hand_state;

bool store_sqlite_hands_init(store_sqlite *q) { return store_hand_cache_init(&q->hands); }
void store_sqlite_hands_clear(store_sqlite *q) { store_hand_cache_clear(&q->hands); }
void store_sqlite_hands_free(store_sqlite *q) { store_hand_cache_free(&q->hands); }

/* ---- Tables ---- */

static store_status check_player_exists(store_sqlite *q, int64_t player_id, const char *role, store_error *error)
{
    sqlite3_stmt *st = stmt(q, STMT_PLAYER_EXISTS, error);
    if (st == NULL)
        return error->status;
    sqlite3_bind_int64(st, 1, player_id);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc == SQLITE_DONE)
        return store_error_set(error, STORE_INVALID, "There is no player %" PRId64 " to %s.", player_id, role);
    return rc == SQLITE_ROW ? STORE_OK : store_sqlite_fail(q, rc, "looking up a player", error);
}

store_status store_sqlite_table_save(void *b, const store_in_table *in, int64_t *id, store_error *error)
{
    store_sqlite *q = b;
    const store_table *t = &in->table;
    const bool create = t->id == 0;
    if (t->host_player_id > 0 && check_player_exists(q, t->host_player_id, "host the table", error) != STORE_OK)
        return error->status;
    char *seats = store_sqlite_seats_json(t->seats);
    sqlite3_stmt *st = seats ? stmt(q, create ? STMT_TABLE_INSERT : STMT_TABLE_UPDATE, error) : NULL;
    if (st == NULL) {
        free(seats);
        return seats ? error->status : store_error_set(error, STORE_INTERNAL, "Out of memory.");
    }
    store_sqlite_bind_text(st, 1, t->game);
    store_sqlite_bind_text(st, 2, in->options);
    store_sqlite_bind_id_or_null(st, 3, t->host_player_id);
    store_sqlite_bind_text(st, 4, t->code);
    sqlite3_bind_int(st, 5, t->is_public);
    store_sqlite_bind_text(st, 6, seats);
    store_sqlite_bind_text(st, 7, t->state);
    store_sqlite_bind_text(st, 8, in->game_state);
    sqlite3_bind_int64(st, 9, t->hands_played);
    sqlite3_bind_int64(st, 10, store_now_ms(&q->options));
    sqlite3_bind_int(st, 11, t->turn_seconds);
    if (!create)
        sqlite3_bind_int64(st, 12, t->id);
    sqlite3_bind_int(st, 13, t->held);
    sqlite3_bind_int(st, 14, !t->spectator_chat_off);
    int rc = store_sqlite_step_reset(st);
    free(seats);
    if (rc == SQLITE_CONSTRAINT_UNIQUE)
        return store_error_set(error, STORE_CONFLICT, "The code %s belongs to another open table.", t->code);
    if (rc != SQLITE_OK)
        return store_sqlite_fail(q, rc, "saving a table", error);
    if (!create && sqlite3_changes(q->db) == 0)
        return store_error_set(error, STORE_NOT_FOUND, "There is no table %" PRId64 ".", t->id);
    *id = create ? sqlite3_last_insert_rowid(q->db) : t->id;
    return STORE_OK;
}

/* ---- Hands and actions ---- */

store_status store_sqlite_hand_begin(void *b, const store_in_hand_begin *in, int64_t *id, store_error *error)
{
    store_sqlite *q = b;
    sqlite3_stmt *open_hand = stmt(q, STMT_HAND_OPEN_ON_TABLE, error);
    sqlite3_stmt *insert = open_hand ? stmt(q, STMT_HAND_INSERT, error) : NULL;
    if (insert == NULL)
        return error->status;

    /* The table exists, and has no unfinished hand (so that recovery knows which to resume). */
    sqlite3_bind_int64(open_hand, 1, in->table_id);
    int rc = sqlite3_step(open_hand);
    const bool table_exists = rc == SQLITE_ROW && sqlite3_column_int(open_hand, 0) != 0;
    const bool hand_open = rc == SQLITE_ROW && sqlite3_column_type(open_hand, 1) != SQLITE_NULL;
    const int64_t open_number = rc == SQLITE_ROW ? sqlite3_column_int64(open_hand, 1) : 0;
    sqlite3_reset(open_hand);
    if (rc != SQLITE_ROW)
        return store_sqlite_fail(q, rc, "starting a hand", error);
    if (!table_exists)
        return store_error_set(error, STORE_NOT_FOUND, "There is no table %" PRId64 ".", in->table_id);
    if (hand_open)
        return store_error_set(error, STORE_CONFLICT, "Table %" PRId64 " has not finished its hand %" PRId64 ".",
                               in->table_id, open_number);

    sqlite3_bind_int64(insert, 1, in->table_id);
    sqlite3_bind_int64(insert, 2, in->number);
    sqlite3_bind_int64(insert, 3, (int64_t)in->seed); /* the same 64 bits, read back as uint64_t */
    store_sqlite_bind_text(insert, 4, in->deal);
    store_sqlite_bind_text(insert, 5, in->game_state);
    sqlite3_bind_int64(insert, 6, store_now_ms(&q->options));
    if (in->options != NULL)
        store_sqlite_bind_text(insert, 7, in->options);
    else
        sqlite3_bind_null(insert, 7);
    rc = store_sqlite_step_reset(insert);
    if (store_sqlite_status(rc) == STORE_CONFLICT)
        return store_error_set(error, STORE_CONFLICT, "Table %" PRId64 " already has a hand %" PRId64 ".",
                               in->table_id, in->number);
    if (rc != SQLITE_OK)
        return store_sqlite_fail(q, rc, "starting a hand", error);
    *id = sqlite3_last_insert_rowid(q->db);
    store_hand_cache_put(&q->hands, *id, &(hand_state){.table_id = in->table_id, .last_seq = 0});
    return STORE_OK;
}

/* The open hand's table and last action number, from the cache or the database. */
static store_status read_hand_state(store_sqlite *q, int64_t hand_id, hand_state *out, store_error *error)
{
    if (store_hand_cache_get(&q->hands, hand_id, out))
        return STORE_OK;
    sqlite3_stmt *st = stmt(q, STMT_HAND_STATE, error);
    if (st == NULL)
        return error->status;
    sqlite3_bind_int64(st, 1, hand_id);
    int rc = sqlite3_step(st);
    bool open = false;
    if (rc == SQLITE_ROW) {
        out->table_id = sqlite3_column_int64(st, 0);
        open = sqlite3_column_int(st, 1) != 0;
        out->last_seq = sqlite3_column_int64(st, 2);
    }
    sqlite3_reset(st);
    if (rc == SQLITE_DONE)
        return store_error_set(error, STORE_NOT_FOUND, "There is no hand %" PRId64 ".", hand_id);
    if (rc != SQLITE_ROW)
        return store_sqlite_fail(q, rc, "reading a hand", error);
    if (!open)
        return store_error_set(error, STORE_INVALID, "Hand %" PRId64 " is over.", hand_id);
    store_hand_cache_put(&q->hands, hand_id, out);
    return STORE_OK;
}

/* Appends action seq of an open hand; hs is the hand's state before it. */
static store_status insert_action(store_sqlite *q, int64_t hand_id, const hand_state *hs, int64_t seq, int seat,
                                  const char *action, int64_t now, store_error *error)
{
    if (seq <= hs->last_seq)
        return store_error_set(error, STORE_CONFLICT, "Action %" PRId64 " of hand %" PRId64 " is already recorded.",
                               seq, hand_id);
    if (seq != hs->last_seq + 1)
        return store_error_set(error, STORE_INVALID,
                               "Action %" PRId64 " of hand %" PRId64 " would leave a gap: the last recorded is %" PRId64
                               ".",
                               seq, hand_id, hs->last_seq);
    sqlite3_stmt *st = stmt(q, STMT_ACTION_INSERT, error);
    if (st == NULL)
        return error->status;
    sqlite3_bind_int64(st, 1, hand_id);
    sqlite3_bind_int64(st, 2, seq);
    sqlite3_bind_int(st, 3, seat);
    store_sqlite_bind_text(st, 4, action);
    sqlite3_bind_int64(st, 5, now);
    int rc = store_sqlite_step_reset(st);
    if (rc != SQLITE_OK)
        return store_sqlite_fail(q, rc, "recording an action", error);
    store_hand_cache_put(&q->hands, hand_id, &(hand_state){.table_id = hs->table_id, .last_seq = seq});
    return STORE_OK;
}

store_status store_sqlite_action_append(void *b, const store_in_action *in, store_error *error)
{
    store_sqlite *q = b;
    hand_state hs;
    if (read_hand_state(q, in->hand_id, &hs, error) != STORE_OK)
        return error->status;
    return insert_action(q, in->hand_id, &hs, in->seq, in->seat, in->action, store_now_ms(&q->options), error);
}

/* ---- The ledger ---- */

/* The player's balance before a new row: that of the player's last row, or 0. */
static store_status player_balance(store_sqlite *q, int64_t player_id, int64_t *balance, store_error *error)
{
    sqlite3_stmt *st = stmt(q, STMT_PLAYER_BALANCE, error);
    if (st == NULL)
        return error->status;
    sqlite3_bind_int64(st, 1, player_id);
    int rc = sqlite3_step(st);
    const bool exists = rc == SQLITE_ROW && sqlite3_column_int(st, 0) != 0;
    *balance = rc == SQLITE_ROW ? sqlite3_column_int64(st, 1) : 0; /* NULL reads as 0 */
    sqlite3_reset(st);
    if (rc != SQLITE_ROW)
        return store_sqlite_fail(q, rc, "reading a balance", error);
    if (!exists)
        return store_error_set(error, STORE_INVALID, "A ledger row names player %" PRId64 ", who does not exist.",
                               player_id);
    return STORE_OK;
}

static store_status ledger_tail(store_sqlite *q, int64_t *last_id, char prev_hash[STORE_HASH_HEX], store_error *error)
{
    sqlite3_stmt *st = stmt(q, STMT_LEDGER_LAST, error);
    if (st == NULL)
        return error->status;
    int rc = sqlite3_step(st);
    *last_id = 0;
    snprintf(prev_hash, STORE_HASH_HEX, "%s", STORE_LEDGER_ZERO_HASH);
    if (rc == SQLITE_ROW) {
        *last_id = sqlite3_column_int64(st, 0);
        store_sqlite_column_text(prev_hash, STORE_HASH_HEX, st, 1);
    }
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return store_sqlite_fail(q, rc, "reading the end of the ledger", error);
    return STORE_OK;
}

static store_status insert_ledger_row(store_sqlite *q, const store_ledger_row *row, const char *hash,
                                      store_error *error)
{
    sqlite3_stmt *st = stmt(q, STMT_LEDGER_INSERT, error);
    if (st == NULL)
        return error->status;
    sqlite3_bind_int64(st, 1, row->id);
    sqlite3_bind_int64(st, 2, row->table_id);
    sqlite3_bind_int64(st, 3, row->hand_id);
    store_sqlite_bind_id_or_null(st, 4, row->is_bot ? 0 : row->player_id);
    sqlite3_bind_int(st, 5, row->seat);
    sqlite3_bind_int64(st, 6, row->units);
    store_sqlite_bind_text(st, 7, row->reason);
    if (row->is_bot)
        sqlite3_bind_null(st, 8);
    else
        sqlite3_bind_int64(st, 8, row->balance_after);
    sqlite3_bind_int64(st, 9, row->at_ms);
    store_sqlite_bind_text(st, 10, row->prev_hash);
    store_sqlite_bind_text(st, 11, hash);
    int rc = store_sqlite_step_reset(st);
    if (rc != SQLITE_OK)
        return store_sqlite_fail(q, rc, "writing the ledger", error);
    return STORE_OK;
}

/* Appends the hand's rows to the chain, each with the player's running balance. */
store_status store_sqlite_append_ledger(store_sqlite *q, int64_t hand_id, int64_t table_id,
                                       const store_ledger_entry *entries, size_t n_entries, int64_t now,
                                       store_error *error)
{
    int64_t last_id;
    char prev[STORE_HASH_HEX];
    if (ledger_tail(q, &last_id, prev, error) != STORE_OK)
        return error->status;
    for (size_t i = 0; i < n_entries; i++) {
        const store_ledger_entry *e = &entries[i];
        store_ledger_row row = {
            .id = last_id + 1 + (int64_t)i,
            .table_id = table_id,
            .hand_id = hand_id,
            .is_bot = e->player_id == 0,
            .player_id = e->player_id,
            .seat = e->seat,
            .units = e->units,
            .reason = e->reason,
            .at_ms = now,
            .prev_hash = prev,
        };
        if (!row.is_bot) {
            int64_t before = 0;
            if (player_balance(q, e->player_id, &before, error) != STORE_OK)
                return error->status;
            if (__builtin_add_overflow(before, e->units, &row.balance_after))
                return store_error_set(error, STORE_INVALID, "Player %" PRId64 "'s balance would overflow.",
                                       e->player_id);
        }
        char hash[STORE_HASH_HEX];
        store_ledger_hash(&row, q->ledger_key, hash);
        if (insert_ledger_row(q, &row, hash, error) != STORE_OK)
            return error->status;
        memcpy(prev, hash, sizeof prev);
    }
    return STORE_OK;
}

/* ---- A hand's end ---- */

static store_status record_result(store_sqlite *q, const store_in_hand_end *in, int64_t now, store_error *error)
{
    sqlite3_stmt *st = stmt(q, STMT_HAND_RESULT, error);
    if (st == NULL)
        return error->status;
    sqlite3_bind_int64(st, 1, in->hand_id);
    store_sqlite_bind_text(st, 2, in->result);
    sqlite3_bind_int64(st, 3, now);
    int rc = store_sqlite_step_reset(st);
    return rc == SQLITE_OK ? STORE_OK : store_sqlite_fail(q, rc, "recording a hand's result", error);
}

static store_status record_game_state(store_sqlite *q, int64_t table_id, const char *state, int64_t now,
                                      store_error *error)
{
    sqlite3_stmt *st = stmt(q, STMT_TABLE_GAME_STATE, error);
    if (st == NULL)
        return error->status;
    sqlite3_bind_int64(st, 1, table_id);
    store_sqlite_bind_text(st, 2, state);
    sqlite3_bind_int64(st, 3, now);
    int rc = store_sqlite_step_reset(st);
    return rc == SQLITE_OK ? STORE_OK : store_sqlite_fail(q, rc, "recording the table's game state", error);
}

store_status store_sqlite_hand_finish(void *b, const store_in_hand_end *in, store_error *error)
{
    store_sqlite *q = b;
    const int64_t now = store_now_ms(&q->options);
    hand_state hs;
    if (read_hand_state(q, in->hand_id, &hs, error) != STORE_OK)
        return error->status;
    if (in->last_seq > 0 &&
        insert_action(q, in->hand_id, &hs, in->last_seq, in->last_seat, in->last_action, now, error) != STORE_OK)
        return error->status;
    if (record_result(q, in, now, error) != STORE_OK || store_sqlite_append_ledger(q, in->hand_id, hs.table_id, in->entries, in->n_entries, now, error) != STORE_OK ||
        record_game_state(q, hs.table_id, in->next_game_state, now, error) != STORE_OK)
        return error->status;
    store_hand_cache_forget(&q->hands, in->hand_id);
    return STORE_OK;
}
