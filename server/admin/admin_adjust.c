/*
 * admin_adjust — POST adjustments: an admin's correction of a player's balance, booked by the
 * store as two ledger rows in the hash chain (the player's and the adjustments account's
 * counter-row, summing to zero; store_adjust), never as an edit of a row. The body is checked
 * here and again by the store; a refused one writes nothing. Once booked it is written to the
 * audit log with its rows, then answered with them.
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "admin_internal.h"

static json_t *row_json(const store_ledger_line *l)
{
    return json_pack("{s:I, s:I, s:I, s:s, s:s, s:I, s:I, s:I, s:s, s:i, s:I, s:s, s:I}", "id", (json_int_t)l->id,
                     "at", (json_int_t)l->at_ms, "table", (json_int_t)l->table_id, "code", l->code, "game", l->game,
                     "hand", (json_int_t)l->hand_id, "hand_number", (json_int_t)l->hand_number, "player",
                     (json_int_t)l->player_id, "nickname", l->nickname, "seat", l->seat, "units", (json_int_t)l->units,
                     "reason", l->reason, "balance", (json_int_t)l->balance_after);
}

static void on_audited(void *ctx, const store_error *error, int64_t id)
{
    admin_req *r = ctx;
    (void)id;
    json_t *rows = r->answer;
    r->answer = NULL;
    if (error->status != STORE_OK) {
        json_decref(rows);
        admin_finish_store_error(r, error);
        return;
    }
    admin_finish_json(r, 200, json_pack("{s:o}", "rows", rows));
}

static void on_rows(void *ctx, const store_error *error, const store_ledger_line *lines, size_t n,
                    const store_ledger_totals *totals)
{
    admin_req *r = ctx;
    (void)totals;
    if (error->status != STORE_OK) {
        admin_finish_store_error(r, error);
        return;
    }
    /* Newest first from the store: the counter-row, then the player's. */
    r->answer = json_array();
    json_t *ids = json_array();
    for (size_t i = n; i > 0; i--) {
        json_array_append_new(r->answer, row_json(&lines[i - 1]));
        json_array_append_new(ids, json_integer(lines[i - 1].id));
    }
    json_t *details = json_pack("{s:I, s:I, s:s, s:o}", "player", (json_int_t)r->adjust_player, "units",
                                (json_int_t)r->adjust_units, "reason", r->adjust_reason, "rows", ids);
    bool asked = store_audit_append(r->a->st, r->session.player_id, "adjustment", details, on_audited, r);
    json_decref(details);
    if (!asked) {
        json_decref(r->answer);
        r->answer = NULL;
        admin_finish_closed(r);
    }
}

static void on_booked(void *ctx, const store_error *error, int64_t first_row)
{
    admin_req *r = ctx;
    if (error->status != STORE_OK) {
        admin_finish_store_error(r, error);
        return;
    }
    store_ledger_filter filter = {.code = STORE_ADJUSTMENTS_CODE};
    if (!store_ledger_query(r->a->st, &filter, first_row + 2, 2, false, on_rows, r))
        admin_finish_closed(r);
}

void admin_adjust(admin_req *r)
{
    size_t len;
    const char *body = net_request_body(r->request, &len);
    json_t *json = json_loadb(body, len, 0, NULL);
    json_int_t player = 0, units = 0;
    const char *reason = NULL;
    if (json == NULL ||
        json_unpack(json, "{s:I, s:I, s:s !}", "player", &player, "units", &units, "reason", &reason) != 0) {
        json_decref(json);
        admin_finish_error(r, 400, "bad_request",
                           "An adjustment is a JSON object {\"player\":ID, \"units\":U, \"reason\":TEXT}.");
        return;
    }
    if (strlen(reason) >= sizeof r->adjust_reason) {
        json_decref(json);
        admin_finish_error(r, 400, "invalid", "An adjustment's reason is 1 to 200 characters of text.");
        return;
    }
    r->adjust_player = player;
    r->adjust_units = units;
    snprintf(r->adjust_reason, sizeof r->adjust_reason, "%s", reason);
    json_decref(json);
    /* The store checks the values (and the player) and answers 400 through the callback. */
    if (!store_adjust(r->a->st, r->session.player_id, r->adjust_player, r->adjust_units, r->adjust_reason, on_booked,
                      r))
        admin_finish_closed(r);
}
