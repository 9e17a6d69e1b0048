/*
 * store_sqlite_admin — admin sessions, the audit log (tables of migration 0006) and adjustments
 * (a hand of their own at the adjustments table, with the adjustments account's counter-row) on
 * SQLite.
 * A session is keyed by its token's hash, like a player's; its lookup joins players so that an
 * account whose admin flag was cleared (`teahouse admin revoke`) loses its sessions at once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_sqlite.h"

static const char *const sql[STMT_COUNT] = {
    [STMT_ADMIN_ACCOUNT] = "SELECT account_name FROM players WHERE id = ?1 AND kind = 'account' AND is_admin = 1",
    [STMT_ADMIN_SESSIONS_PURGE] = "DELETE FROM admin_sessions WHERE expires_at <= ?1",
    [STMT_ADMIN_SESSION_INSERT] = "INSERT INTO admin_sessions (token_hash, player_id, csrf_token, created_at,"
                                  " expires_at) VALUES (?1, ?2, ?3, ?4, ?5)",
    [STMT_ADMIN_SESSION_LOOKUP] = "SELECT s.player_id, p.account_name, s.csrf_token, s.expires_at"
                                  " FROM admin_sessions AS s JOIN players AS p ON p.id = s.player_id"
                                  " WHERE s.token_hash = ?1 AND p.is_admin = 1",
    [STMT_ADMIN_SESSION_DELETE] = "DELETE FROM admin_sessions WHERE token_hash = ?1",
    [STMT_AUDIT_INSERT] = "INSERT INTO admin_audit (at, player_id, action, details)"
                          " SELECT ?1, id, ?3, ?4 FROM players WHERE id = ?2",
    [STMT_AUDIT_PAGE] = "SELECT a.id, a.at, a.player_id, p.account_name, a.action, a.details"
                        " FROM admin_audit AS a LEFT JOIN players AS p ON p.id = a.player_id"
                        " WHERE (?1 = 0 OR a.id < ?1) AND (?3 = '' OR a.action = ?3) AND (?4 = 0 OR a.player_id = ?4)"
                        " ORDER BY a.id DESC LIMIT ?2",
    /* The adjustments account and table (NULL and 0 until the first adjustment makes them), and
     * the table's last hand. */
    [STMT_ADJUST_BOOK] = "SELECT (SELECT id FROM players WHERE id = " STORE_ADJUSTMENTS_ID_TEXT " AND account_name = '"
                         STORE_ADJUSTMENTS_ACCOUNT "' AND kind = 'account'), coalesce(t.id, 0), (SELECT coalesce(max(number), 0) FROM hands"
                         " WHERE table_id = t.id) FROM (SELECT 1) LEFT JOIN game_tables AS t ON t.game = '"
                         STORE_ADJUSTMENTS_GAME "'",
    /* The account's id is -1: outside the ids the store gives players (1, 2, 3, …), so making it
     * moves no one's id, and never 0 (a bot's seat). Its name holds '~', which no account name
     * may (protocol/names.h), so nobody can register it; its password hash is no hash at all, so
     * nobody can log in as it; its look-alike keys are its own name, which no real name's key can
     * be. */
    [STMT_ADJUST_ACCOUNT] = "INSERT INTO players (id, kind, nickname, account_name, password_hash, is_admin, created_at,"
                            " last_seen_at, account_look_key, account_fold_key) VALUES (" STORE_ADJUSTMENTS_ID_TEXT
                            ", 'account', 'adjustments', '" STORE_ADJUSTMENTS_ACCOUNT "', '!', 0, ?1, ?1, '"
                            STORE_ADJUSTMENTS_ACCOUNT "', '" STORE_ADJUSTMENTS_ACCOUNT "')",
    [STMT_ADJUST_TABLE] = "INSERT INTO game_tables (game, options, host_player_id, code, is_public, seats, state,"
                          " hands_played, created_at, updated_at, turn_seconds, game_state) VALUES ('"
                          STORE_ADJUSTMENTS_GAME "', '{}', NULL, '" STORE_ADJUSTMENTS_CODE "', 0,"
                          " '[null,null,null,null]', 'closed', 0, ?1, ?1, 30, '{}')",
    [STMT_ADJUST_HAND] = "INSERT INTO hands (table_id, number, seed, deal, game_state, started_at, result, finished_at)"
                         " VALUES (?1, ?2, 0, '{}', '{}', ?3, ?4, ?3)",
};

static const char no_session[] = "There is no such admin session (unknown, or logged out); log in again.";

static sqlite3_stmt *stmt(store_sqlite *q, sqlite_stmt_id id, store_error *error)
{
    return store_sqlite_stmt(q, id, sql[id], error);
}

store_status store_sqlite_admin_open(void *b, const store_in_admin_open *in, store_admin_session *session,
                                     store_error *error)
{
    store_sqlite *q = b;
    sqlite3_stmt *account = stmt(q, STMT_ADMIN_ACCOUNT, error);
    sqlite3_stmt *purge = account ? stmt(q, STMT_ADMIN_SESSIONS_PURGE, error) : NULL;
    sqlite3_stmt *insert = purge ? stmt(q, STMT_ADMIN_SESSION_INSERT, error) : NULL;
    if (insert == NULL)
        return error->status;
    sqlite3_bind_int64(account, 1, in->player_id);
    int rc = sqlite3_step(account);
    if (rc == SQLITE_ROW)
        store_sqlite_column_text(session->account_name, sizeof session->account_name, account, 0);
    sqlite3_reset(account);
    if (rc == SQLITE_DONE)
        return store_error_set(error, STORE_NOT_FOUND, "Player %lld is not an admin account.",
                               (long long)in->player_id);
    if (rc != SQLITE_ROW)
        return store_sqlite_fail(q, rc, "looking up an admin", error);
    const int64_t now = store_now_ms(&q->options);
    const int64_t expires = now + in->seconds * 1000;
    sqlite3_bind_int64(purge, 1, now);
    rc = store_sqlite_step_reset(purge);
    if (rc == SQLITE_OK) {
        sqlite3_bind_blob(insert, 1, in->token_hash, STORE_TOKEN_HASH_BYTES, SQLITE_STATIC);
        sqlite3_bind_int64(insert, 2, in->player_id);
        store_sqlite_bind_text(insert, 3, in->csrf);
        sqlite3_bind_int64(insert, 4, now);
        sqlite3_bind_int64(insert, 5, expires);
        rc = store_sqlite_step_reset(insert);
    }
    if (rc != SQLITE_OK)
        return store_sqlite_fail(q, rc, "opening an admin session", error);
    session->player_id = in->player_id;
    snprintf(session->csrf, sizeof session->csrf, "%s", in->csrf);
    session->expires_at_ms = expires;
    return STORE_OK;
}

store_status store_sqlite_admin_lookup(void *b, const store_in_session *in, store_admin_session *session,
                                       store_error *error)
{
    store_sqlite *q = b;
    sqlite3_stmt *st = stmt(q, STMT_ADMIN_SESSION_LOOKUP, error);
    if (st == NULL)
        return error->status;
    sqlite3_bind_blob(st, 1, in->token_hash, STORE_TOKEN_HASH_BYTES, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        session->player_id = sqlite3_column_int64(st, 0);
        store_sqlite_column_text(session->account_name, sizeof session->account_name, st, 1);
        store_sqlite_column_text(session->csrf, sizeof session->csrf, st, 2);
        session->expires_at_ms = sqlite3_column_int64(st, 3);
    }
    sqlite3_reset(st);
    if (rc == SQLITE_DONE)
        return store_error_set(error, STORE_NOT_FOUND, "%s", no_session);
    if (rc != SQLITE_ROW)
        return store_sqlite_fail(q, rc, "looking up an admin session", error);
    if (session->expires_at_ms <= store_now_ms(&q->options))
        return store_error_set(error, STORE_NOT_FOUND, "%s", no_session);
    return STORE_OK;
}

store_status store_sqlite_admin_close(void *b, const store_in_session *in, store_error *error)
{
    store_sqlite *q = b;
    return store_sqlite_session_delete(q, stmt(q, STMT_ADMIN_SESSION_DELETE, error), in->token_hash,
                                       "ending an admin session",
                                       "There is no such admin session (unknown, or already logged out).", error);
}

store_status store_sqlite_audit_append(void *b, const store_in_audit *in, int64_t *id, store_error *error)
{
    store_sqlite *q = b;
    sqlite3_stmt *st = stmt(q, STMT_AUDIT_INSERT, error);
    if (st == NULL)
        return error->status;
    sqlite3_bind_int64(st, 1, store_now_ms(&q->options));
    sqlite3_bind_int64(st, 2, in->player_id);
    store_sqlite_bind_text(st, 3, in->action);
    store_sqlite_bind_text(st, 4, in->details);
    int rc = store_sqlite_step_reset(st);
    if (rc != SQLITE_OK)
        return store_sqlite_fail(q, rc, "appending to the audit log", error);
    if (sqlite3_changes(q->db) == 0) /* foreign keys are off: the SELECT checks the player */
        return store_error_set(error, STORE_NOT_FOUND, "There is no player %lld.", (long long)in->player_id);
    *id = sqlite3_last_insert_rowid(q->db);
    return STORE_OK;
}

store_status store_sqlite_audit_list(void *b, const store_in_audit_list *in, store_audit_entry **entries,
                                     size_t *n, store_error *error)
{
    store_sqlite *q = b;
    *entries = NULL;
    *n = 0;
    sqlite3_stmt *st = stmt(q, STMT_AUDIT_PAGE, error);
    if (st == NULL)
        return error->status;
    *entries = malloc((size_t)in->limit * sizeof **entries);
    if (*entries == NULL)
        return store_error_set(error, STORE_INTERNAL, "Out of memory reading the audit log.");
    sqlite3_bind_int64(st, 1, in->before);
    sqlite3_bind_int(st, 2, in->limit);
    store_sqlite_bind_text(st, 3, in->filter.action);
    sqlite3_bind_int64(st, 4, in->filter.player_id);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && *n < (size_t)in->limit) {
        store_audit_entry *e = &(*entries)[(*n)++];
        memset(e, 0, sizeof *e);
        e->id = sqlite3_column_int64(st, 0);
        e->at_ms = sqlite3_column_int64(st, 1);
        e->player_id = sqlite3_column_int64(st, 2);
        store_sqlite_column_text(e->account_name, sizeof e->account_name, st, 3);
        store_sqlite_column_text(e->action, sizeof e->action, st, 4);
        store_sqlite_column_text(e->details, sizeof e->details, st, 5);
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return store_sqlite_fail(q, rc, "reading the audit log", error);
    return STORE_OK;
}

/* An adjustment is a hand of its own at the adjustments table, finished as it starts, whose two
 * rows go through the same chain writer as a played hand's. */
store_status store_sqlite_adjust(void *b, const store_in_adjust *in, int64_t *id, store_error *error)
{
    store_sqlite *q = b;
    sqlite3_stmt *book = stmt(q, STMT_ADJUST_BOOK, error);
    sqlite3_stmt *hand = book ? stmt(q, STMT_ADJUST_HAND, error) : NULL;
    if (hand == NULL)
        return error->status;
    int rc = sqlite3_step(book);
    const bool found = rc == SQLITE_ROW;
    const bool has_account = found && sqlite3_column_type(book, 0) != SQLITE_NULL;
    int64_t table = found ? sqlite3_column_int64(book, 1) : 0;
    const int64_t number = found ? sqlite3_column_int64(book, 2) + 1 : 0;
    sqlite3_reset(book);
    if (rc != SQLITE_ROW)
        return store_sqlite_fail(q, rc, "finding the adjustments account", error);
    if (in->player_id == STORE_ADJUSTMENTS_ID)
        return store_error_set(error, STORE_INVALID, "The adjustments account itself cannot be adjusted.");
    const int64_t now = store_now_ms(&q->options);
    if (!has_account) {
        sqlite3_stmt *make = stmt(q, STMT_ADJUST_ACCOUNT, error);
        if (make == NULL)
            return error->status;
        sqlite3_bind_int64(make, 1, now);
        rc = store_sqlite_step_reset(make);
        if (rc != SQLITE_OK)
            return store_sqlite_fail(q, rc, "making the adjustments account", error);
    }
    if (table == 0) {
        sqlite3_stmt *make = stmt(q, STMT_ADJUST_TABLE, error);
        if (make == NULL)
            return error->status;
        sqlite3_bind_int64(make, 1, now);
        rc = store_sqlite_step_reset(make);
        if (rc != SQLITE_OK)
            return store_sqlite_fail(q, rc, "making the adjustments table", error);
        table = sqlite3_last_insert_rowid(q->db);
    }
    sqlite3_bind_int64(hand, 1, table);
    sqlite3_bind_int64(hand, 2, number);
    sqlite3_bind_int64(hand, 3, now);
    store_sqlite_bind_text(hand, 4, in->result);
    rc = store_sqlite_step_reset(hand);
    if (rc != SQLITE_OK)
        return store_sqlite_fail(q, rc, "recording an adjustment", error);
    const int64_t hand_id = sqlite3_last_insert_rowid(q->db);
    store_ledger_entry rows[2] = {
        {.player_id = in->player_id, .seat = 0, .units = in->units, .reason = "adjustment"},
        {.player_id = STORE_ADJUSTMENTS_ID, .seat = 1, .units = -in->units, .reason = "adjustment"},
    };
    if (store_sqlite_append_ledger(q, hand_id, table, rows, 2, now, error) != STORE_OK)
        return error->status;
    *id = sqlite3_last_insert_rowid(q->db) - 1;
    return STORE_OK;
}
