/*
 * store — the parts of store.h that do not depend on the backend: status names, default options
 * and freeing a recovery. The SQLite backend is store_sqlite.c.
 */
#include <stdlib.h>

#include "store.h"

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

store_options store_options_default(void)
{
    return (store_options){
        .durability = STORE_DURABILITY_NORMAL,
        .busy_timeout_ms = 5000,
        .session_seconds = 30 * 24 * 3600,
        .max_pages = 0,
        .clock_ms = NULL,
        .clock_ctx = NULL,
    };
}

static void hand_free(store_hand *hand)
{
    if (hand == NULL)
        return;
    for (size_t i = 0; i < hand->n_actions; i++)
        json_decref(hand->actions[i].action);
    free(hand->actions);
    json_decref(hand->deal);
    json_decref(hand->game_state);
    free(hand);
}

void store_recovery_free(store_recovery *r)
{
    if (r == NULL)
        return;
    for (size_t i = 0; i < r->n_tables; i++) {
        json_decref(r->tables[i].table.options);
        json_decref(r->tables[i].table.game_state);
        hand_free(r->tables[i].hand);
    }
    free(r->tables);
    free(r);
}
