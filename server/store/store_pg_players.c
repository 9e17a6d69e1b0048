/*
 * store_pg_players — players (guests and accounts), account creation, logins and sessions, and
 * the expiry of guests nobody uses, on PostgreSQL (store_pg.h). The same rules as on SQLite
 * (store_sqlite_players.c): account names unique whatever the case of their ASCII letters, and so
 * their look-alike keys; a session kept as its token's hash; new players get the core's id.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_pg.h"

static const char guest_insert_sql[] =
    "INSERT INTO players (id, kind, nickname, created_at, last_seen_at) VALUES ($3, 'guest', $1, $2, $2)";
static const char player_rename_sql[] = "UPDATE players SET nickname = $2, last_seen_at = $3 WHERE id = $1";
static const char account_insert_sql[] =
    "INSERT INTO players (id, kind, nickname, account_name, password_hash, created_at, last_seen_at,"
    " account_look_key, account_fold_key) VALUES ($4, 'account', $1, $1, $2, $3, $3, $5, $6)";
static const char account_from_guest_sql[] =
    "UPDATE players SET kind = 'account', account_name = $2, password_hash = $3, last_seen_at = $4,"
    " account_look_key = $5, account_fold_key = $6 WHERE id = $1 AND kind = 'guest'";
static const char login_fetch_sql[] =
    "SELECT id, password_hash, is_admin, nickname, account_name FROM players"
    " WHERE lower(account_name COLLATE \"C\") = lower($1 COLLATE \"C\") AND kind = 'account'";

/* A new guest of that id (create), or the player renamed; *id is its id. */
static store_status save_player(store_pg *q, int64_t player_id, bool create, const char *nickname, int64_t *id,
                                store_error *error)
{
    const int64_t now = store_now_ms(&q->options);
    pg_params p = {0};
    if (create) {
        pg_text(&p, nickname);
        pg_int(&p, now);
        pg_int(&p, player_id);
    } else {
        pg_int(&p, player_id);
        pg_text(&p, nickname);
        pg_int(&p, now);
    }
    long changed = store_pg_exec(q, create ? guest_insert_sql : player_rename_sql, &p, "saving a player", error);
    if (changed < 0 && create && error->status == STORE_CONFLICT)
        return store_error_set(error, STORE_CONFLICT, "Player %" PRId64 " is stored already.", player_id);
    if (changed < 0)
        return error->status;
    if (changed == 0)
        return store_error_set(error, STORE_NOT_FOUND, "There is no player %" PRId64 ".", player_id);
    *id = player_id;
    return STORE_OK;
}

store_status store_pg_player_save(void *b, const store_in_player *in, int64_t *id, store_error *error)
{
    return save_player(b, in->player_id, in->create, in->nickname, id, error);
}

/* Whether an account of that name exists, read before writing (a failed insert would abort the
 * transaction before we could tell which key it hit). */
static store_status name_taken(store_pg *q, const store_in_account *in, bool *taken, store_error *error)
{
    pg_params p = {0};
    pg_text(&p, in->name);
    pg_text(&p, in->keys.look);
    pg_text(&p, in->keys.fold);
    PGresult *r = store_pg_run(q,
                               "SELECT lower(account_name COLLATE \"C\") = lower($1 COLLATE \"C\") FROM players"
                               " WHERE lower(account_name COLLATE \"C\") = lower($1 COLLATE \"C\")"
                               " OR account_look_key = $2 OR account_fold_key = $3 ORDER BY 1 DESC LIMIT 1",
                               &p, "creating an account", error);
    if (r == NULL)
        return error->status;
    *taken = PQntuples(r) > 0;
    const bool same_name = *taken && pg_get_int(r, 0, 0) != 0;
    PQclear(r);
    if (same_name)
        return store_error_set(error, STORE_CONFLICT, "The name %s is taken; choose another.", in->name);
    if (*taken)
        return store_error_set(error, STORE_CONFLICT,
                               "The name %s looks like an existing account name; choose another.", in->name);
    return STORE_OK;
}

store_status store_pg_account_create(void *b, const store_in_account *in, int64_t *id, store_error *error)
{
    store_pg *q = b;
    const int64_t now = store_now_ms(&q->options);
    const bool from_guest = in->guest_id != 0;
    bool taken = false;
    if (name_taken(q, in, &taken, error) != STORE_OK)
        return error->status;
    pg_params p = {0};
    if (from_guest) {
        pg_int(&p, in->guest_id);
        pg_text(&p, in->name);
        pg_text(&p, in->password_hash);
        pg_int(&p, now);
    } else {
        pg_text(&p, in->name);
        pg_text(&p, in->password_hash);
        pg_int(&p, now);
        pg_int(&p, in->new_id);
    }
    pg_text(&p, in->keys.look[0] ? in->keys.look : NULL);
    pg_text(&p, in->keys.fold[0] ? in->keys.fold : NULL);
    long changed = store_pg_exec(q, from_guest ? account_from_guest_sql : account_insert_sql, &p,
                                 "creating an account", error);
    if (changed < 0 && error->status == STORE_CONFLICT) /* a name written meanwhile by another server */
        return store_error_set(error, STORE_CONFLICT, "The name %s is taken; choose another.", in->name);
    if (changed < 0)
        return error->status;
    if (changed == 0)
        return store_error_set(error, STORE_NOT_FOUND,
                               "There is no guest %" PRId64 " (unknown, or already an account).", in->guest_id);
    *id = from_guest ? in->guest_id : in->new_id;
    return STORE_OK;
}

store_status store_pg_login_fetch(void *b, store_in_login *in, store_session *session, store_error *error)
{
    store_pg *q = b;
    pg_params p = {0};
    pg_text(&p, in->name);
    PGresult *r = store_pg_run(q, login_fetch_sql, &p, "looking up an account", error);
    if (r == NULL)
        return error->status;
    if (PQntuples(r) > 0) {
        in->found = true;
        session->player_id = pg_get_int(r, 0, 0);
        pg_get_text(in->password_hash, sizeof in->password_hash, r, 0, 1);
        session->is_admin = pg_get_int(r, 0, 2) != 0;
        pg_get_text(session->nickname, sizeof session->nickname, r, 0, 3);
        pg_get_text(session->account_name, sizeof session->account_name, r, 0, 4);
    }
    PQclear(r);
    return STORE_OK;
}

/* The session row for a player (expired sessions are swept on the way). */
static store_status open_session(store_pg *q, const unsigned char token_hash[STORE_TOKEN_HASH_BYTES],
                                 store_session *session, store_error *error)
{
    const int64_t now = store_now_ms(&q->options);
    const int64_t expires = now + q->options.session_seconds * 1000;
    pg_params purge = {0}, insert = {0}, seen = {0};
    pg_int(&purge, now);
    pg_bytes(&insert, token_hash, STORE_TOKEN_HASH_BYTES);
    pg_int(&insert, session->player_id);
    pg_int(&insert, now);
    pg_int(&insert, expires);
    pg_int(&seen, session->player_id);
    pg_int(&seen, now);
    if (store_pg_exec(q, "DELETE FROM sessions WHERE expires_at <= $1", &purge, "opening a session", error) < 0 ||
        store_pg_exec(q, "INSERT INTO sessions (token_hash, player_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
                      &insert, "opening a session", error) < 0 ||
        store_pg_exec(q, "UPDATE players SET last_seen_at = $2 WHERE id = $1", &seen, "opening a session", error) < 0)
        return error->status;
    session->expires_at_ms = expires;
    return STORE_OK;
}

store_status store_pg_session_open(void *b, const store_in_login *in, store_session *session, store_error *error)
{
    return open_session(b, in->token_hash, session, error);
}

/* A new guest and its session, together or not at all (the insert counts as a write: undo then
 * says the batch runs again without this request). */
store_status store_pg_guest_create(void *b, const store_in_guest *in, store_session *session, store_error *error)
{
    store_pg *q = b;
    if (save_player(q, in->player_id, true, in->nickname, &session->player_id, error) != STORE_OK)
        return error->status;
    snprintf(session->nickname, sizeof session->nickname, "%s", in->nickname);
    session->account_name[0] = '\0';
    session->is_admin = false;
    return open_session(q, in->token_hash, session, error);
}

store_status store_pg_session_lookup(void *b, const store_in_session *in, store_session *session, store_error *error)
{
    store_pg *q = b;
    pg_params p = {0};
    pg_bytes(&p, in->token_hash, STORE_TOKEN_HASH_BYTES);
    PGresult *r = store_pg_run(q,
                               "SELECT p.id, p.nickname, p.account_name, p.is_admin, s.expires_at FROM sessions AS s"
                               " JOIN players AS p ON p.id = s.player_id WHERE s.token_hash = $1",
                               &p, "looking up a session", error);
    if (r == NULL)
        return error->status;
    const bool found = PQntuples(r) > 0;
    if (found) {
        session->player_id = pg_get_int(r, 0, 0);
        pg_get_text(session->nickname, sizeof session->nickname, r, 0, 1);
        pg_get_text(session->account_name, sizeof session->account_name, r, 0, 2);
        session->is_admin = pg_get_int(r, 0, 3) != 0;
        session->expires_at_ms = pg_get_int(r, 0, 4);
    }
    PQclear(r);
    if (!found)
        return store_error_set(error, STORE_NOT_FOUND,
                               "There is no such session (unknown, or logged out); log in again.");
    const int64_t now = store_now_ms(&q->options);
    if (session->expires_at_ms <= now)
        return store_error_set(error, STORE_NOT_FOUND, "The session has expired; log in again.");
    /* Seen: a guest who comes back is not expired. At most once an hour, so a lookup seldom writes. */
    pg_params touch = {0};
    pg_int(&touch, session->player_id);
    pg_int(&touch, now);
    pg_int(&touch, now - STORE_SEEN_PRECISION_MS);
    if (store_pg_exec(q, "UPDATE players SET last_seen_at = $2 WHERE id = $1 AND last_seen_at < $3", &touch,
                      "marking a player seen", error) < 0)
        return error->status;
    return STORE_OK;
}

store_status store_pg_session_delete(store_pg *q, bool admin, const unsigned char *token_hash, const char *doing,
                                     const char *missing, store_error *error)
{
    pg_params p = {0};
    pg_bytes(&p, token_hash, STORE_TOKEN_HASH_BYTES);
    long changed = store_pg_exec(q, admin ? "DELETE FROM admin_sessions WHERE token_hash = $1"
                                          : "DELETE FROM sessions WHERE token_hash = $1",
                                 &p, doing, error);
    if (changed < 0)
        return error->status;
    if (changed == 0)
        return store_error_set(error, STORE_NOT_FOUND, "%s", missing);
    return STORE_OK;
}

store_status store_pg_logout(void *b, const store_in_session *in, store_error *error)
{
    return store_pg_session_delete(b, false, in->token_hash, "ending a session",
                                   "There is no such session (unknown, or already logged out).", error);
}

/* ---- Guests nobody uses ---- */

store_status store_pg_max_player_id(void *b, int64_t *id, store_error *error)
{
    PGresult *r = store_pg_run(b, "SELECT greatest(0, coalesce(max(id), 0)) FROM players", NULL,
                               "reading the highest player id", error);
    if (r == NULL)
        return error->status;
    *id = pg_get_int(r, 0, 0);
    PQclear(r);
    return STORE_OK;
}

/* The guests first seen longest ago with no ledger row, neither seated at nor hosting an open
 * table, their sessions, then themselves, in three statements whatever their number. A closed
 * table a deleted guest hosted loses its host (ON DELETE SET NULL). */
store_status store_pg_guests_expire(void *b, const store_in_expire *in, int64_t *count, store_error *error)
{
    store_pg *q = b;
    *count = 0;
    pg_params p = {0};
    pg_int(&p, in->seen_before_ms);
    pg_int(&p, in->limit);
    PGresult *r = store_pg_run(
        q,
        "SELECT coalesce(array_agg(id), '{}') FROM (SELECT id FROM players AS p WHERE kind = 'guest'"
        " AND last_seen_at < $1 AND NOT EXISTS (SELECT 1 FROM ledger WHERE player_id = p.id)"
        " AND id NOT IN (SELECT host_player_id FROM game_tables WHERE state <> 'closed' AND host_player_id IS NOT NULL"
        "  UNION ALL SELECT s::text::bigint FROM game_tables AS t, jsonb_array_elements(t.seats::jsonb) AS s"
        "  WHERE t.state <> 'closed' AND jsonb_typeof(s) = 'number')"
        " ORDER BY last_seen_at LIMIT $2) AS stale",
        &p, "finding guests to expire", error);
    if (r == NULL)
        return error->status;
    char *ids = strdup(PQgetvalue(r, 0, 0));
    PQclear(r);
    if (ids == NULL)
        return store_error_set(error, STORE_INTERNAL, "Out of memory expiring guests.");
    pg_params del = {0};
    pg_text(&del, ids);
    long n = -1;
    if (store_pg_exec(q, "DELETE FROM sessions WHERE player_id = ANY ($1::bigint[])", &del, "expiring guests",
                      error) >= 0)
        n = store_pg_exec(q, "DELETE FROM players WHERE id = ANY ($1::bigint[]) AND kind = 'guest'", &del,
                          "expiring guests", error);
    free(ids);
    if (n < 0)
        return error->status;
    *count = n;
    return STORE_OK;
}
