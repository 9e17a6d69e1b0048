/*
 * store_memory_admin — the in-memory store's admin sessions and audit log, answering as the
 * SQLite backend does (store_sqlite_admin.c): a session dies with its account's admin flag, the
 * log only grows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_memory_internal.h"

static const char no_session[] = "There is no such admin session (unknown, or logged out); log in again.";

static mem_admin_session *find(store_memory *m, const unsigned char hash[STORE_TOKEN_HASH_BYTES])
{
    for (size_t i = 0; i < m->n_admin_sessions; i++)
        if (memcmp(m->admin_sessions[i].token_hash, hash, STORE_TOKEN_HASH_BYTES) == 0)
            return &m->admin_sessions[i];
    return NULL;
}

static const mem_player *admin_account(store_memory *m, int64_t player_id)
{
    const mem_player *p = store_memory_find_player(m, player_id);
    return p != NULL && p->pub.is_admin ? p : NULL;
}

store_status store_memory_admin_open(void *b, const store_in_admin_open *in, store_admin_session *session,
                                     store_error *error)
{
    store_memory *m = b;
    if (store_memory_injected(m, STORE_KIND_ADMIN_SESSION_OPEN, error))
        return error->status;
    const mem_player *p = admin_account(m, in->player_id);
    if (p == NULL)
        return store_error_set(error, STORE_NOT_FOUND, "Player %lld is not an admin account.",
                               (long long)in->player_id);
    const int64_t now = store_now_ms(&m->options);
    size_t kept = 0; /* expired sessions are swept on the way, as SQLite's are */
    for (size_t i = 0; i < m->n_admin_sessions; i++)
        if (m->admin_sessions[i].expires_at_ms > now)
            m->admin_sessions[kept++] = m->admin_sessions[i];
    m->n_admin_sessions = kept;
    if (!store_memory_reserve((void **)&m->admin_sessions, &m->cap_admin_sessions, m->n_admin_sessions + 1,
                              sizeof *m->admin_sessions))
        return store_error_set(error, STORE_INTERNAL, "Out of memory in the in-memory store.");
    mem_admin_session *added = &m->admin_sessions[m->n_admin_sessions++];
    memcpy(added->token_hash, in->token_hash, sizeof added->token_hash);
    added->player_id = in->player_id;
    snprintf(added->csrf, sizeof added->csrf, "%s", in->csrf);
    added->expires_at_ms = now + in->seconds * 1000;
    session->player_id = in->player_id;
    snprintf(session->account_name, sizeof session->account_name, "%s", p->pub.account_name);
    snprintf(session->csrf, sizeof session->csrf, "%s", in->csrf);
    session->expires_at_ms = added->expires_at_ms;
    return STORE_OK;
}

store_status store_memory_admin_lookup(void *b, const store_in_session *in, store_admin_session *session,
                                       store_error *error)
{
    store_memory *m = b;
    if (store_memory_injected(m, STORE_KIND_ADMIN_SESSION_LOOKUP, error))
        return error->status;
    const mem_admin_session *found = find(m, in->token_hash);
    const mem_player *p = found ? admin_account(m, found->player_id) : NULL;
    if (p == NULL || found->expires_at_ms <= store_now_ms(&m->options))
        return store_error_set(error, STORE_NOT_FOUND, "%s", no_session);
    session->player_id = found->player_id;
    snprintf(session->account_name, sizeof session->account_name, "%s", p->pub.account_name);
    snprintf(session->csrf, sizeof session->csrf, "%s", found->csrf);
    session->expires_at_ms = found->expires_at_ms;
    return STORE_OK;
}

store_status store_memory_admin_close(void *b, const store_in_session *in, store_error *error)
{
    store_memory *m = b;
    if (store_memory_injected(m, STORE_KIND_ADMIN_SESSION_CLOSE, error))
        return error->status;
    mem_admin_session *found = find(m, in->token_hash);
    if (found == NULL)
        return store_error_set(error, STORE_NOT_FOUND,
                               "There is no such admin session (unknown, or already logged out).");
    *found = m->admin_sessions[--m->n_admin_sessions];
    return STORE_OK;
}

store_status store_memory_audit_append(void *b, const store_in_audit *in, int64_t *id, store_error *error)
{
    store_memory *m = b;
    if (store_memory_injected(m, STORE_KIND_AUDIT_APPEND, error))
        return error->status;
    if (store_memory_find_player(m, in->player_id) == NULL)
        return store_error_set(error, STORE_NOT_FOUND, "There is no player %lld.", (long long)in->player_id);
    if (!store_memory_reserve((void **)&m->audit, &m->cap_audit, m->n_audit + 1, sizeof *m->audit))
        return store_error_set(error, STORE_INTERNAL, "Out of memory in the in-memory store.");
    store_audit_entry *e = &m->audit[m->n_audit];
    memset(e, 0, sizeof *e);
    e->id = (int64_t)++m->n_audit;
    e->at_ms = store_now_ms(&m->options);
    e->player_id = in->player_id;
    snprintf(e->action, sizeof e->action, "%s", in->action);
    snprintf(e->details, sizeof e->details, "%s", in->details);
    *id = e->id;
    return STORE_OK;
}

store_status store_memory_audit_list(void *b, const store_in_audit_list *in, store_audit_entry **entries,
                                     size_t *n, store_error *error)
{
    store_memory *m = b;
    *entries = NULL;
    *n = 0;
    if (store_memory_injected(m, STORE_KIND_AUDIT_LIST, error))
        return error->status;
    *entries = malloc((size_t)in->limit * sizeof **entries);
    if (*entries == NULL)
        return store_error_set(error, STORE_INTERNAL, "Out of memory in the in-memory store.");
    size_t top = in->before == 0 || (uint64_t)in->before > m->n_audit ? m->n_audit : (size_t)in->before - 1;
    for (size_t i = top; i > 0 && *n < (size_t)in->limit; i--) {
        const store_audit_entry *kept = &m->audit[i - 1];
        if ((in->filter.action[0] && strcmp(kept->action, in->filter.action) != 0) ||
            (in->filter.player_id && kept->player_id != in->filter.player_id))
            continue;
        store_audit_entry *e = &(*entries)[(*n)++];
        *e = *kept;
        const mem_player *p = store_memory_find_player(m, e->player_id);
        snprintf(e->account_name, sizeof e->account_name, "%s", p ? p->pub.account_name : "");
    }
    return STORE_OK;
}

store_status store_memory_adjust(void *b, const store_in_adjust *in, int64_t *id, store_error *error)
{
    (void)b;
    (void)in;
    *id = 0;
    return store_error_set(error, STORE_INVALID, "The in-memory store keeps no adjustments (use the SQLite store).");
}
