/*
 * store_sqlite_players — players (guests and accounts), account creation, logins and sessions,
 * and the expiry of guests nobody uses, in SQLite. Account names are unique case-insensitively
 * for ASCII letters (the column's NOCASE collation), and so are their look-alike keys (names.h):
 * a name that looks like an account's is taken too. A session is keyed by its token's hash,
 * never the token. New players get the id the core gave them (store_backend.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_sqlite.h"
#include "store_sqlite_error.h"

static const char *const sql[STMT_COUNT] = {
    [STMT_GUEST_INSERT] = "INSERT INTO players (id, kind, nickname, created_at, last_seen_at)"
                          " VALUES (?3, 'guest', ?1, ?2, ?2)",
    [STMT_PLAYER_RENAME] = "UPDATE players SET nickname = ?2, last_seen_at = ?3 WHERE id = ?1",
    [STMT_ACCOUNT_INSERT] = "INSERT INTO players (id, kind, nickname, account_name, password_hash, created_at,"
                            " last_seen_at, account_look_key, account_fold_key)"
                            " VALUES (?4, 'account', ?1, ?1, ?2, ?3, ?3, ?5, ?6)",
    [STMT_ACCOUNT_FROM_GUEST] = "UPDATE players SET kind = 'account', account_name = ?2, password_hash = ?3,"
                                " last_seen_at = ?4, account_look_key = ?5, account_fold_key = ?6"
                                " WHERE id = ?1 AND kind = 'guest'",
    [STMT_LOGIN_FETCH] = "SELECT id, password_hash, is_admin, nickname, account_name FROM players"
                         " WHERE account_name = ?1 AND kind = 'account'",
    [STMT_SESSIONS_PURGE] = "DELETE FROM sessions WHERE expires_at <= ?1",
    [STMT_SESSION_INSERT] = "INSERT INTO sessions (token_hash, player_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)",
    [STMT_PLAYER_SEEN] = "UPDATE players SET last_seen_at = ?2 WHERE id = ?1",
    [STMT_SESSION_LOOKUP] = "SELECT p.id, p.nickname, p.account_name, p.is_admin, s.expires_at"
                            " FROM sessions AS s JOIN players AS p ON p.id = s.player_id WHERE s.token_hash = ?1",
    [STMT_SESSION_DELETE] = "DELETE FROM sessions WHERE token_hash = ?1",
    [STMT_PLAYER_TOUCH] = "UPDATE players SET last_seen_at = ?2 WHERE id = ?1 AND last_seen_at < ?3",
    [STMT_PLAYER_MAX_ID] = "SELECT max(0, coalesce(max(id), 0)) FROM players", /* not the adjustments' -1 */
    /* Guests first seen longest ago, through players_guests_by_seen; those seated at or hosting
     * an open table are read once per statement (SQLite makes the IN list a temporary index). */
    [STMT_GUESTS_STALE] = "SELECT id FROM players AS p WHERE kind = 'guest' AND last_seen_at < ?1"
                          " AND NOT EXISTS (SELECT 1 FROM ledger WHERE player_id = p.id)"
                          " AND id NOT IN (SELECT host_player_id FROM game_tables"
                          "  WHERE state <> 'closed' AND host_player_id IS NOT NULL"
                          "  UNION ALL SELECT s.value FROM game_tables AS t, json_each(t.seats) AS s"
                          "  WHERE t.state <> 'closed' AND s.type = 'integer')"
                          " ORDER BY last_seen_at LIMIT ?2",
    [STMT_PLAYER_SESSIONS_DELETE] = "DELETE FROM sessions WHERE player_id = ?1",
    [STMT_GUEST_DELETE] = "DELETE FROM players WHERE id = ?1 AND kind = 'guest'",
    /* Closed tables keep their seats as the record of who sat; a host that is gone becomes none,
     * so that every host_player_id names a player. */
    [STMT_HOSTS_GONE] = "UPDATE game_tables SET host_player_id = NULL WHERE host_player_id IS NOT NULL"
                        " AND state = 'closed' AND NOT EXISTS (SELECT 1 FROM players WHERE id = host_player_id)",
};

static sqlite3_stmt *stmt(store_sqlite *q, sqlite_stmt_id id, store_error *error)
{
    return store_sqlite_stmt(q, id, sql[id], error);
}

/* A new guest of that id (create), or the player renamed; *id is its id. */
static store_status save_player(store_sqlite *q, int64_t player_id, bool create, const char *nickname, int64_t *id,
                                store_error *error)
{
    const int64_t now = store_now_ms(&q->options);
    sqlite3_stmt *st = stmt(q, create ? STMT_GUEST_INSERT : STMT_PLAYER_RENAME, error);
    if (st == NULL)
        return error->status;
    if (create) {
        store_sqlite_bind_text(st, 1, nickname);
        sqlite3_bind_int64(st, 2, now);
        sqlite3_bind_int64(st, 3, player_id);
    } else {
        sqlite3_bind_int64(st, 1, player_id);
        store_sqlite_bind_text(st, 2, nickname);
        sqlite3_bind_int64(st, 3, now);
    }
    int rc = store_sqlite_step_reset(st);
    if (create && store_sqlite_status(rc) == STORE_CONFLICT)
        return store_error_set(error, STORE_CONFLICT, "Player %" PRId64 " is stored already.", player_id);
    if (rc != SQLITE_OK)
        return store_sqlite_fail(q, rc, "saving a player", error);
    if (!create && sqlite3_changes(q->db) == 0)
        return store_error_set(error, STORE_NOT_FOUND, "There is no player %" PRId64 ".", player_id);
    *id = player_id;
    return STORE_OK;
}

store_status store_sqlite_player_save(void *b, const store_in_player *in, int64_t *id, store_error *error)
{
    return save_player(b, in->player_id, in->create, in->nickname, id, error);
}

/* The name, or one of its look-alike keys, is an account's already: which one, said. */
static store_status account_taken(store_sqlite *q, const char *name, store_error *error)
{
    sqlite3_stmt *st = stmt(q, STMT_LOGIN_FETCH, error);
    if (st == NULL)
        return error->status;
    store_sqlite_bind_text(st, 1, name);
    const bool same_name = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_reset(st);
    if (same_name)
        return store_error_set(error, STORE_CONFLICT, "The name %s is taken; choose another.", name);
    return store_error_set(error, STORE_CONFLICT, "The name %s looks like an existing account name; choose another.",
                           name);
}

store_status store_sqlite_account_create(void *b, const store_in_account *in, int64_t *id, store_error *error)
{
    store_sqlite *q = b;
    const int64_t now = store_now_ms(&q->options);
    const bool from_guest = in->guest_id != 0;
    sqlite3_stmt *st = stmt(q, from_guest ? STMT_ACCOUNT_FROM_GUEST : STMT_ACCOUNT_INSERT, error);
    if (st == NULL)
        return error->status;
    if (from_guest) {
        sqlite3_bind_int64(st, 1, in->guest_id);
        store_sqlite_bind_text(st, 2, in->name);
        store_sqlite_bind_text(st, 3, in->password_hash);
        sqlite3_bind_int64(st, 4, now);
        store_sqlite_bind_text(st, 5, in->keys.look);
        store_sqlite_bind_text(st, 6, in->keys.fold);
    } else {
        store_sqlite_bind_text(st, 1, in->name);
        store_sqlite_bind_text(st, 2, in->password_hash);
        sqlite3_bind_int64(st, 3, now);
        sqlite3_bind_int64(st, 4, in->new_id);
        store_sqlite_bind_text(st, 5, in->keys.look);
        store_sqlite_bind_text(st, 6, in->keys.fold);
    }
    int rc = store_sqlite_step_reset(st);
    if (store_sqlite_status(rc) == STORE_CONFLICT)
        return account_taken(q, in->name, error);
    if (rc != SQLITE_OK)
        return store_sqlite_fail(q, rc, "creating an account", error);
    if (from_guest && sqlite3_changes(q->db) == 0)
        return store_error_set(error, STORE_NOT_FOUND, "There is no guest %" PRId64 " (unknown, or already an account).",
                               in->guest_id);
    *id = from_guest ? in->guest_id : in->new_id;
    return STORE_OK;
}

store_status store_sqlite_login_fetch(void *b, store_in_login *in, store_session *session, store_error *error)
{
    store_sqlite *q = b;
    sqlite3_stmt *st = stmt(q, STMT_LOGIN_FETCH, error);
    if (st == NULL)
        return error->status;
    store_sqlite_bind_text(st, 1, in->name);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        in->found = true;
        session->player_id = sqlite3_column_int64(st, 0);
        store_sqlite_column_text(in->password_hash, sizeof in->password_hash, st, 1);
        session->is_admin = sqlite3_column_int(st, 2) != 0;
        store_sqlite_column_text(session->nickname, sizeof session->nickname, st, 3);
        store_sqlite_column_text(session->account_name, sizeof session->account_name, st, 4);
        rc = SQLITE_DONE;
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE)
        return store_sqlite_fail(q, rc, "looking up an account", error);
    return STORE_OK;
}

/* The session row for a player (expired sessions are swept on the way). */
static store_status open_session(store_sqlite *q, const unsigned char token_hash[STORE_TOKEN_HASH_BYTES],
                                 store_session *session, store_error *error)
{
    const int64_t now = store_now_ms(&q->options);
    const int64_t expires = now + q->options.session_seconds * 1000;
    sqlite3_stmt *purge = stmt(q, STMT_SESSIONS_PURGE, error);
    sqlite3_stmt *insert = purge ? stmt(q, STMT_SESSION_INSERT, error) : NULL;
    sqlite3_stmt *seen = insert ? stmt(q, STMT_PLAYER_SEEN, error) : NULL;
    if (seen == NULL)
        return error->status;
    sqlite3_bind_int64(purge, 1, now);
    int rc = store_sqlite_step_reset(purge);
    if (rc == SQLITE_OK) {
        sqlite3_bind_blob(insert, 1, token_hash, STORE_TOKEN_HASH_BYTES, SQLITE_STATIC);
        sqlite3_bind_int64(insert, 2, session->player_id);
        sqlite3_bind_int64(insert, 3, now);
        sqlite3_bind_int64(insert, 4, expires);
        rc = store_sqlite_step_reset(insert);
    }
    if (rc == SQLITE_OK) {
        sqlite3_bind_int64(seen, 1, session->player_id);
        sqlite3_bind_int64(seen, 2, now);
        rc = store_sqlite_step_reset(seen);
    }
    if (rc != SQLITE_OK)
        return store_sqlite_fail(q, rc, "opening a session", error);
    session->expires_at_ms = expires;
    return STORE_OK;
}

store_status store_sqlite_session_open(void *b, const store_in_login *in, store_session *session,
                                       store_error *error)
{
    return open_session(b, in->token_hash, session, error);
}

/* A new guest and its session: if the session cannot be written, the guest's row goes with the
 * rolled-back pass (the player's insert is a change, so undo says STORE_UNDO_BATCH). */
store_status store_sqlite_guest_create(void *b, const store_in_guest *in, store_session *session, store_error *error)
{
    store_sqlite *q = b;
    if (save_player(q, in->player_id, true, in->nickname, &session->player_id, error) != STORE_OK)
        return error->status;
    snprintf(session->nickname, sizeof session->nickname, "%s", in->nickname);
    session->account_name[0] = '\0';
    session->is_admin = false;
    return open_session(q, in->token_hash, session, error);
}

store_status store_sqlite_session_lookup(void *b, const store_in_session *in, store_session *session,
                                         store_error *error)
{
    store_sqlite *q = b;
    sqlite3_stmt *st = stmt(q, STMT_SESSION_LOOKUP, error);
    if (st == NULL)
        return error->status;
    sqlite3_bind_blob(st, 1, in->token_hash, STORE_TOKEN_HASH_BYTES, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        session->player_id = sqlite3_column_int64(st, 0);
        store_sqlite_column_text(session->nickname, sizeof session->nickname, st, 1);
        store_sqlite_column_text(session->account_name, sizeof session->account_name, st, 2);
        session->is_admin = sqlite3_column_int(st, 3) != 0;
        session->expires_at_ms = sqlite3_column_int64(st, 4);
    }
    sqlite3_reset(st);
    if (rc == SQLITE_DONE)
        return store_error_set(error, STORE_NOT_FOUND,
                               "There is no such session (unknown, or logged out); log in again.");
    if (rc != SQLITE_ROW)
        return store_sqlite_fail(q, rc, "looking up a session", error);
    const int64_t now = store_now_ms(&q->options);
    if (session->expires_at_ms <= now)
        return store_error_set(error, STORE_NOT_FOUND, "The session has expired; log in again.");
    /* Seen: a guest who comes back is not expired. At most once an hour, so a lookup seldom writes. */
    sqlite3_stmt *touch = stmt(q, STMT_PLAYER_TOUCH, error);
    if (touch == NULL)
        return error->status;
    sqlite3_bind_int64(touch, 1, session->player_id);
    sqlite3_bind_int64(touch, 2, now);
    sqlite3_bind_int64(touch, 3, now - STORE_SEEN_PRECISION_MS);
    rc = store_sqlite_step_reset(touch);
    if (rc != SQLITE_OK)
        return store_sqlite_fail(q, rc, "marking a player seen", error);
    return STORE_OK;
}

store_status store_sqlite_logout(void *b, const store_in_session *in, store_error *error)
{
    store_sqlite *q = b;
    return store_sqlite_session_delete(q, stmt(q, STMT_SESSION_DELETE, error), in->token_hash, "ending a session",
                                       "There is no such session (unknown, or already logged out).", error);
}

/* ---- Guests nobody uses ---- */

store_status store_sqlite_max_player_id(void *b, int64_t *id, store_error *error)
{
    store_sqlite *q = b;
    sqlite3_stmt *st = stmt(q, STMT_PLAYER_MAX_ID, error);
    if (st == NULL)
        return error->status;
    int rc = sqlite3_step(st);
    *id = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_reset(st);
    if (rc != SQLITE_ROW)
        return store_sqlite_fail(q, rc, "reading the highest player id", error);
    return STORE_OK;
}

/* The ids of the guests to expire, at most in->limit, into ids. */
static store_status stale_guests(store_sqlite *q, const store_in_expire *in, int64_t *ids, int *n, store_error *error)
{
    *n = 0;
    sqlite3_stmt *st = stmt(q, STMT_GUESTS_STALE, error);
    if (st == NULL)
        return error->status;
    sqlite3_bind_int64(st, 1, in->seen_before_ms);
    sqlite3_bind_int(st, 2, in->limit);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && *n < in->limit)
        ids[(*n)++] = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return store_sqlite_fail(q, rc, "finding guests to expire", error);
    return STORE_OK;
}

static int delete_guest(store_sqlite *q, int64_t id, store_error *error)
{
    sqlite3_stmt *sessions = stmt(q, STMT_PLAYER_SESSIONS_DELETE, error);
    sqlite3_stmt *player = sessions ? stmt(q, STMT_GUEST_DELETE, error) : NULL;
    if (player == NULL)
        return SQLITE_ERROR;
    sqlite3_bind_int64(sessions, 1, id);
    int rc = store_sqlite_step_reset(sessions);
    if (rc == SQLITE_OK) {
        sqlite3_bind_int64(player, 1, id);
        rc = store_sqlite_step_reset(player);
    }
    return rc;
}

store_status store_sqlite_guests_expire(void *b, const store_in_expire *in, int64_t *count, store_error *error)
{
    store_sqlite *q = b;
    *count = 0;
    int64_t *ids = malloc((size_t)in->limit * sizeof *ids);
    if (ids == NULL)
        return store_error_set(error, STORE_INTERNAL, "Out of memory expiring guests.");
    int n = 0;
    store_status status = stale_guests(q, in, ids, &n, error);
    int rc = SQLITE_OK;
    for (int i = 0; status == STORE_OK && rc == SQLITE_OK && i < n; i++)
        rc = delete_guest(q, ids[i], error);
    free(ids);
    if (status != STORE_OK)
        return status;
    if (rc == SQLITE_OK && n > 0) {
        sqlite3_stmt *hosts = stmt(q, STMT_HOSTS_GONE, error);
        if (hosts == NULL)
            return error->status;
        rc = store_sqlite_step_reset(hosts);
    }
    if (rc == SQLITE_ERROR && error->status != STORE_OK)
        return error->status; /* a statement that could not be prepared */
    if (rc != SQLITE_OK)
        return store_sqlite_fail(q, rc, "expiring guests", error);
    *count = n;
    return STORE_OK;
}
