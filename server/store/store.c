/*
 * store — the parts of store.h that belong to no backend: status and request-kind names, default
 * options, the clock, error sentences, and freeing the answers (recoveries, hand summaries,
 * hands) that every backend makes alike.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store.h"
#include "store_backend.h"
#include "store_kind.h"

const char *store_status_name(store_status status)
{
    static const char *const names[] = {
        [STORE_OK] = "ok",
        [STORE_NOT_FOUND] = "not_found",
        [STORE_CONFLICT] = "conflict",
        [STORE_INVALID] = "invalid",
        [STORE_BAD_LOGIN] = "bad_login",
        [STORE_BUSY] = "busy",
        [STORE_CORRUPT] = "corrupt",
        [STORE_READONLY] = "readonly",
        [STORE_FULL] = "full",
        [STORE_IO] = "io",
        [STORE_TOO_NEW] = "too_new",
        [STORE_CLOSED] = "closed",
        [STORE_INTERNAL] = "internal",
    };
    if ((unsigned)status >= sizeof names / sizeof names[0] || names[status] == NULL)
        return "internal";
    return names[status];
}

const char *store_kind_name(store_kind kind)
{
    static const char *const names[STORE_KIND_COUNT] = {
        [STORE_KIND_PLAYER_SAVE] = "player_save",
        [STORE_KIND_GUEST_CREATE] = "guest_create",
        [STORE_KIND_ACCOUNT_CREATE] = "account_create",
        [STORE_KIND_LOGIN] = "login",
        [STORE_KIND_SESSION_LOOKUP] = "session_lookup",
        [STORE_KIND_LOGOUT] = "logout",
        [STORE_KIND_TABLE_SAVE] = "table_save",
        [STORE_KIND_HAND_BEGIN] = "hand_begin",
        [STORE_KIND_ACTION_APPEND] = "action_append",
        [STORE_KIND_HAND_FINISH] = "hand_finish",
        [STORE_KIND_TABLE_HANDS] = "table_hands",
        [STORE_KIND_HAND_GET] = "hand_get",
        [STORE_KIND_PLAYER_TABLES] = "player_tables",
        [STORE_KIND_RECOVER] = "recover",
        [STORE_KIND_LEDGER_VERIFY] = "ledger_verify",
        [STORE_KIND_GUESTS_EXPIRE] = "guests_expire",
        [STORE_KIND_LEDGER_QUERY] = "ledger_query",
        [STORE_KIND_ADMIN_SESSION_OPEN] = "admin_session_open",
        [STORE_KIND_ADMIN_SESSION_LOOKUP] = "admin_session_lookup",
        [STORE_KIND_ADMIN_SESSION_CLOSE] = "admin_session_close",
        [STORE_KIND_AUDIT_APPEND] = "audit_append",
        [STORE_KIND_AUDIT_LIST] = "audit_list",
        [STORE_KIND_ADJUST] = "adjust",
        [STORE_KIND_PROFILE] = "profile",
    };
    if ((unsigned)kind >= STORE_KIND_COUNT)
        return "unknown";
    return names[kind];
}

store_options store_options_default(void)
{
    return (store_options){
        .durability = STORE_DURABILITY_NORMAL,
        .busy_timeout_ms = 5000,
        .session_seconds = 30 * 24 * 3600,
        .max_bytes = 0,
        .clock_ms = NULL,
        .clock_ctx = NULL,
    };
}

int64_t store_now_ms(const store_options *o)
{
    if (o->clock_ms != NULL)
        return o->clock_ms(o->clock_ctx);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

store_status store_error_set(store_error *error, store_status status, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(error->message, sizeof error->message, format, args);
    va_end(args);
    error->status = status;
    return status;
}

/* ---- Freeing answers ---- */

void store_hand_free(store_hand *hand)
{
    if (hand == NULL)
        return;
    for (size_t i = 0; i < hand->n_actions; i++)
        json_decref(hand->actions[i].action);
    free(hand->actions);
    json_decref(hand->deal);
    json_decref(hand->game_state);
    json_decref(hand->options);
    free(hand);
}

void store_summary_clear(store_hand_summary *summary)
{
    json_decref(summary->game_state);
    json_decref(summary->result);
    json_decref(summary->options);
    memset(summary, 0, sizeof *summary);
}

void store_profile_free(store_profile *profile)
{
    if (profile == NULL)
        return;
    free(profile->days);
    free(profile->tables);
    free(profile->hands);
    free(profile);
}

void store_played_free(store_played_table *tables, size_t n)
{
    for (size_t i = 0; tables != NULL && i < n; i++)
        json_decref(tables[i].options);
    free(tables);
}

void store_summaries_free(store_hand_summary *summaries, size_t n)
{
    if (summaries == NULL)
        return;
    for (size_t i = 0; i < n; i++)
        store_summary_clear(&summaries[i]);
    free(summaries);
}

void store_recovery_free(store_recovery *r)
{
    if (r == NULL)
        return;
    for (size_t i = 0; i < r->n_tables; i++) {
        json_decref(r->tables[i].table.options);
        json_decref(r->tables[i].table.game_state);
        store_hand_free(r->tables[i].hand);
        free(r->tables[i].player_scores);
    }
    free(r->tables);
    free(r);
}
