/*
 * admin_ledger — the ledger for admins, as JSON pages with the filter's totals or as a CSV export
 * streamed a page at a time (asking for the next page only once the client has read what was
 * written, so a slow reader costs one page of memory, not the whole ledger); and the audit log,
 * with its filters.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "admin_internal.h"
#include "log.h"

#define LEDGER_PAGE_DEFAULT 100
#define AUDIT_PAGE_DEFAULT 50
#define CSV_PAGE 500
#define CSV_QUEUE_LOW (64 * 1024)   /* write the next page once the queue is below this */

/* The ledger's filter, cursor and page size from the query; false (answered 400) when bad. */
static bool parse_ledger_query(admin_req *r, int default_limit)
{
    const net_request *q = r->request;
    char why[160] = "";
    store_ledger_filter *f = &r->filter;
    int64_t limit = default_limit;
    bool ok = admin_int_param(q, "player", 1, INT64_MAX, &f->player_id, why, sizeof why) &&
              admin_int_param(q, "table", 1, INT64_MAX, &f->table_id, why, sizeof why) &&
              admin_text_param(q, "code", f->code, sizeof f->code, why, sizeof why) &&
              admin_text_param(q, "game", f->game, sizeof f->game, why, sizeof why) &&
              admin_text_param(q, "reason", f->reason, sizeof f->reason, why, sizeof why) &&
              admin_int_param(q, "from", 0, INT64_MAX, &f->from_ms, why, sizeof why) &&
              admin_int_param(q, "to", 0, INT64_MAX, &f->to_ms, why, sizeof why) &&
              admin_int_param(q, "before", 1, INT64_MAX, &r->before, why, sizeof why) &&
              admin_int_param(q, "limit", 1, STORE_LEDGER_PAGE_MAX, &limit, why, sizeof why);
    if (ok && f->to_ms != 0 && f->to_ms < f->from_ms) {
        snprintf(why, sizeof why, "'to' is before 'from'.");
        ok = false;
    }
    if (!ok) {
        admin_finish_error(r, 400, "bad_filter", why);
        return false;
    }
    r->limit = (int)limit;
    return true;
}

static json_t *filter_json(const store_ledger_filter *f)
{
    json_t *o = json_object();
    if (f->player_id)
        json_object_set_new(o, "player", json_integer(f->player_id));
    if (f->table_id)
        json_object_set_new(o, "table", json_integer(f->table_id));
    if (f->code[0])
        json_object_set_new(o, "code", json_string(f->code));
    if (f->game[0])
        json_object_set_new(o, "game", json_string(f->game));
    if (f->reason[0])
        json_object_set_new(o, "reason", json_string(f->reason));
    if (f->from_ms)
        json_object_set_new(o, "from", json_integer(f->from_ms));
    if (f->to_ms)
        json_object_set_new(o, "to", json_integer(f->to_ms));
    return o;
}

/* ---- The ledger as JSON ---- */

static json_t *row_json(const store_ledger_line *l)
{
    json_t *o = json_pack("{s:I, s:I, s:I, s:s, s:s, s:I, s:I, s:i, s:I, s:s}", "id", (json_int_t)l->id, "at",
                          (json_int_t)l->at_ms, "table", (json_int_t)l->table_id, "code", l->code, "game", l->game,
                          "hand", (json_int_t)l->hand_id, "hand_number", (json_int_t)l->hand_number, "seat", l->seat,
                          "units", (json_int_t)l->units, "reason", l->reason);
    if (o == NULL)
        return NULL;
    json_object_set_new(o, "player", l->player_id ? json_integer(l->player_id) : json_null());
    json_object_set_new(o, "nickname", l->player_id ? json_string(l->nickname) : json_null());
    json_object_set_new(o, "balance", l->player_id ? json_integer(l->balance_after) : json_null());
    return o;
}

static void on_ledger_page(void *ctx, const store_error *error, const store_ledger_line *rows, size_t n,
                           const store_ledger_totals *totals)
{
    admin_req *r = ctx;
    if (error->status != STORE_OK) {
        admin_finish_store_error(r, error);
        return;
    }
    json_t *list = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(list, row_json(&rows[i]));
    json_t *body = json_pack("{s:o, s:{s:I, s:I, s:I, s:I}}", "rows", list, "totals", "rows",
                             (json_int_t)totals->rows, "units", (json_int_t)totals->units, "won",
                             (json_int_t)totals->won, "lost", (json_int_t)totals->lost);
    if (body)
        json_object_set_new(body, "next", n == (size_t)r->limit && n > 0 ? json_integer(rows[n - 1].id) : json_null());
    admin_finish_json(r, 200, body);
}

/* ---- The ledger as CSV, streamed ---- */

/* Appends one field to out (RFC 4180: quoted when it holds a comma, quote or line break, quotes doubled). */
static void csv_field(char *out, size_t cap, size_t *len, const char *text)
{
    bool quote = strpbrk(text, ",\"\r\n") != NULL;
    if (quote && *len < cap)
        out[(*len)++] = '"';
    for (const char *p = text; *p && *len + 2 < cap; p++) {
        if (*p == '"')
            out[(*len)++] = '"';
        out[(*len)++] = *p;
    }
    if (quote && *len < cap)
        out[(*len)++] = '"';
}

static const char csv_header[] =
    "id,at,table,code,game,hand,hand_number,player,nickname,seat,units,reason,balance\r\n";

static void csv_query_next(admin_req *r);

static void csv_end(admin_req *r)
{
    net_stream_end(r->request);
    admin_req_free(r);
}

static void on_csv_page(void *ctx, const store_error *error, const store_ledger_line *rows, size_t n,
                        const store_ledger_totals *totals)
{
    admin_req *r = ctx;
    (void)totals;
    r->querying = false;
    if (error->status != STORE_OK) {
        log_warn("admin ledger export: %s", error->message);
        csv_end(r); /* the client sees a cut-short file: no status can be sent mid-stream */
        return;
    }
    if (net_request_gone(r->request)) {
        csv_end(r);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const store_ledger_line *l = &rows[i];
        /* Worst case: seven 20-digit numbers, a nickname of STORE_NAME_MAX quotes (doubled, quoted),
         * code, game and reason likewise: well under 1 KiB. */
        char line[1024];
        int len = snprintf(line, sizeof line, "%" PRId64 ",%" PRId64 ",%" PRId64 ",", l->id, l->at_ms, l->table_id);
        size_t used = (size_t)len;
        csv_field(line, sizeof line, &used, l->code);
        used += (size_t)snprintf(line + used, sizeof line - used, ",");
        csv_field(line, sizeof line, &used, l->game);
        used += (size_t)snprintf(line + used, sizeof line - used, ",%" PRId64 ",%" PRId64 ",", l->hand_id,
                                 l->hand_number);
        if (l->player_id)
            used += (size_t)snprintf(line + used, sizeof line - used, "%" PRId64, l->player_id);
        used += (size_t)snprintf(line + used, sizeof line - used, ",");
        csv_field(line, sizeof line, &used, l->nickname);
        used += (size_t)snprintf(line + used, sizeof line - used, ",%d,%" PRId64 ",", l->seat, l->units);
        csv_field(line, sizeof line, &used, l->reason);
        used += (size_t)snprintf(line + used, sizeof line - used, ",");
        if (l->player_id)
            used += (size_t)snprintf(line + used, sizeof line - used, "%" PRId64, l->balance_after);
        used += (size_t)snprintf(line + used, sizeof line - used, "\r\n");
        if (!net_stream_write(r->request, line, used)) {
            csv_end(r);
            return;
        }
        r->rows_sent++;
    }
    if (n < CSV_PAGE) {
        csv_end(r);
        return;
    }
    r->before = rows[n - 1].id;
    if (net_stream_queued(r->request) < CSV_QUEUE_LOW)
        csv_query_next(r);
}

static void csv_query_next(admin_req *r)
{
    r->querying = true;
    if (!store_ledger_query(r->a->st, &r->filter, r->before, CSV_PAGE, false, on_csv_page, r)) {
        r->querying = false;
        csv_end(r);
    }
}

static void on_export_audited(void *ctx, const store_error *error, int64_t id)
{
    admin_req *r = ctx;
    (void)id;
    if (error->status != STORE_OK) {
        admin_finish_store_error(r, error);
        return;
    }
    net_response_header(r->request, "content-disposition", "attachment; filename=\"ledger.csv\"");
    net_response_header(r->request, "cache-control", "no-store");
    net_stream_begin(r->request, 200, "text/csv; charset=utf-8");
    r->streaming = true;
    if (!net_stream_write(r->request, csv_header, sizeof csv_header - 1)) {
        csv_end(r);
        return;
    }
    csv_query_next(r);
}

void admin_ledger_export(admin_req *r)
{
    if (!parse_ledger_query(r, CSV_PAGE))
        return;
    json_t *details = json_pack("{s:o}", "filter", filter_json(&r->filter));
    if (r->before)
        json_object_set_new(details, "before", json_integer(r->before));
    bool asked = store_audit_append(r->a->st, r->session.player_id, "ledger.export", details, on_export_audited, r);
    json_decref(details);
    if (!asked)
        admin_finish_closed(r);
}

/* ---- The audit log ---- */

static void on_audit_page(void *ctx, const store_error *error, const store_audit_entry *entries, size_t n)
{
    admin_req *r = ctx;
    if (error->status != STORE_OK) {
        admin_finish_store_error(r, error);
        return;
    }
    json_t *list = json_array();
    for (size_t i = 0; i < n; i++) {
        const store_audit_entry *e = &entries[i];
        json_t *details = json_loads(e->details, 0, NULL);
        json_array_append_new(list, json_pack("{s:I, s:I, s:I, s:s, s:s, s:o}", "id", (json_int_t)e->id, "at",
                                              (json_int_t)e->at_ms, "player", (json_int_t)e->player_id, "account",
                                              e->account_name, "action", e->action, "details",
                                              details ? details : json_object()));
    }
    json_t *body = json_pack("{s:o}", "entries", list);
    if (body)
        json_object_set_new(body, "next", n == (size_t)r->limit && n > 0 ? json_integer(entries[n - 1].id) : json_null());
    admin_finish_json(r, 200, body);
}

void admin_audit_list(admin_req *r)
{
    char why[160] = "";
    int64_t limit = AUDIT_PAGE_DEFAULT;
    if (!admin_int_param(r->request, "before", 1, INT64_MAX, &r->before, why, sizeof why) ||
        !admin_int_param(r->request, "limit", 1, STORE_AUDIT_PAGE_MAX, &limit, why, sizeof why) ||
        !admin_int_param(r->request, "player", 1, INT64_MAX, &r->audit.player_id, why, sizeof why) ||
        !admin_text_param(r->request, "action", r->audit.action, sizeof r->audit.action, why, sizeof why)) {
        admin_finish_error(r, 400, "bad_filter", why);
        return;
    }
    for (const char *p = r->audit.action; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '.')) {
            admin_finish_error(r, 400, "bad_filter", "'action' is an audit action: a-z, 0-9, '_' and '.'.");
            return;
        }
    r->limit = (int)limit;
    if (!store_audit_query(r->a->st, &r->audit, r->before, r->limit, on_audit_page, r))
        admin_finish_closed(r);
}

void admin_ledger_page(admin_req *r)
{
    if (!parse_ledger_query(r, LEDGER_PAGE_DEFAULT))
        return;
    if (!store_ledger_query(r->a->st, &r->filter, r->before, r->limit, true, on_ledger_page, r))
        admin_finish_closed(r);
}

void admin_ledger_writable(admin_req *r)
{
    if (!r->streaming || r->querying)
        return; /* a page is on its way: its answer looks at the client again */
    if (net_request_gone(r->request)) {
        csv_end(r);
        return;
    }
    if (net_stream_queued(r->request) < CSV_QUEUE_LOW)
        csv_query_next(r);
}
