/*
 * admin — the admin web API (admin.h). Each request becomes an admin_req that follows it through
 * the store's callbacks: the session is looked up (and the anti-forgery token compared) first,
 * then the route does its work and answers. A CSV export asks the store for one page of rows at
 * a time, and asks for the next only when the client has read what was written (on_writable), so
 * a slow reader costs one page of memory, not the whole ledger.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "admin.h"
#include "log.h"
#include "throttle.h"

#define COOKIE_NAME "teahouse_admin"
#define LEDGER_PAGE_DEFAULT 100
#define AUDIT_PAGE_DEFAULT 50
#define CSV_PAGE 500
#define CSV_QUEUE_LOW (64 * 1024)   /* write the next page once the queue is below this */
#define LOGIN_BODY_MAX 1024

typedef enum route_kind { ROUTE_LOGIN, ROUTE_LOGOUT, ROUTE_LEDGER, ROUTE_LEDGER_CSV, ROUTE_AUDIT } route_kind;

typedef struct admin_req admin_req;

struct admin {
    uv_loop_t *loop;
    store *st;
    throttle *logins;   /* failed logins, per "addr:<peer>" and "name:<account name>" */
    admin_req *live;    /* requests not yet answered */
};

struct admin_req {
    admin_req *prev, *next;
    admin *a;
    net_request *request;
    route_kind route;
    store_admin_session session;   /* the caller's, once looked up */
    char token[STORE_TOKEN_SIZE];  /* the cookie's */
    /* login */
    char name[STORE_NAME_MAX + 1];
    char peer_key[80], name_key[STORE_NAME_MAX + 8];
    char player_token[STORE_TOKEN_SIZE];
    /* ledger */
    store_ledger_filter filter;
    int64_t before;
    int limit;
    /* CSV export */
    bool streaming, querying, finished;
    int64_t rows_sent;
};

/* ---- Requests and answers ---- */

static admin_req *req_new(admin *a, net_request *request, route_kind route)
{
    admin_req *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->a = a;
    r->request = request;
    r->route = route;
    r->next = a->live;
    if (a->live)
        a->live->prev = r;
    a->live = r;
    net_request_set_data(request, r);
    return r;
}

static void req_free(admin_req *r)
{
    if (r->prev)
        r->prev->next = r->next;
    else
        r->a->live = r->next;
    if (r->next)
        r->next->prev = r->prev;
    sodium_memzero(r->token, sizeof r->token);
    free(r);
}

static void respond_json(net_request *request, unsigned status, json_t *body)
{
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    json_decref(body);
    net_response_header(request, "cache-control", "no-store");
    if (text == NULL) {
        static const char oom[] = "{\"error\":\"internal\",\"message\":\"Out of memory.\"}";
        net_respond(request, 500, "application/json", oom, sizeof oom - 1);
        return;
    }
    net_respond(request, status, "application/json", text, strlen(text));
    free(text);
}

static void respond_error(net_request *request, unsigned status, const char *code, const char *message)
{
    respond_json(request, status, json_pack("{s:s, s:s}", "error", code, "message", message));
}

/* Answers r (when it has a request still) and frees it. */
static void finish_json(admin_req *r, unsigned status, json_t *body)
{
    respond_json(r->request, status, body);
    req_free(r);
}

static void finish_error(admin_req *r, unsigned status, const char *code, const char *message)
{
    respond_error(r->request, status, code, message);
    req_free(r);
}

static void finish_store_error(admin_req *r, const store_error *error)
{
    log_warn("admin API: %s", error->message);
    finish_error(r, error->status == STORE_INVALID ? 400 : 503, store_status_name(error->status), error->message);
}

static void forbidden(admin_req *r, const char *message)
{
    finish_error(r, 403, "forbidden", message);
}

/* ---- The session: the cookie, then the store, then the anti-forgery token ---- */

/* The value of cookie `name` in a Cookie header, copied; false if absent or too long. */
static bool cookie_value(const char *header, const char *name, char *out, size_t cap)
{
    const size_t name_len = strlen(name);
    for (const char *p = header; p && *p;) {
        while (*p == ' ' || *p == ';')
            p++;
        const char *end = strchr(p, ';');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > name_len && strncmp(p, name, name_len) == 0 && p[name_len] == '=') {
            size_t value_len = len - name_len - 1;
            if (value_len >= cap)
                return false;
            memcpy(out, p + name_len + 1, value_len);
            out[value_len] = '\0';
            return true;
        }
        p = end;
    }
    return false;
}

static void route_authenticated(admin_req *r);

static void on_session(void *ctx, const store_error *error, const store_admin_session *session)
{
    admin_req *r = ctx;
    if (error->status == STORE_NOT_FOUND) {
        forbidden(r, "No admin session: log in at /api/admin/login.");
        return;
    }
    if (error->status != STORE_OK) {
        finish_store_error(r, error);
        return;
    }
    r->session = *session;
    if (strcmp(net_request_method(r->request), "POST") == 0) {
        const char *csrf = net_request_header(r->request, "x-csrf-token");
        if (csrf == NULL || strlen(csrf) != strlen(session->csrf) ||
            sodium_memcmp(csrf, session->csrf, strlen(session->csrf)) != 0) {
            forbidden(r, "A POST needs the X-CSRF-Token header that login answered.");
            return;
        }
    }
    route_authenticated(r);
}

static void authenticate(admin_req *r)
{
    const char *cookie = net_request_header(r->request, "cookie");
    if (cookie == NULL || !cookie_value(cookie, COOKIE_NAME, r->token, sizeof r->token)) {
        forbidden(r, "No admin session: log in at /api/admin/login.");
        return;
    }
    if (!store_admin_session_lookup(r->a->st, r->token, on_session, r))
        finish_error(r, 503, "closed", "The server is stopping.");
}

/* ---- Login ---- */

static uint64_t now_ms(const admin *a)
{
    return uv_now(a->loop);
}

static void login_failed(admin_req *r)
{
    throttle *t = r->a->logins;
    const uint64_t now = now_ms(r->a);
    throttle_allow(t, r->peer_key, now, NULL);
    throttle_fail(t, r->peer_key, now);
    throttle_allow(t, r->name_key, now, NULL);
    throttle_fail(t, r->name_key, now);
}

static void on_player_session_ended(void *ctx, const store_error *error)
{
    (void)ctx;
    (void)error;
}

static void on_login_audited(void *ctx, const store_error *error, int64_t id)
{
    admin_req *r = ctx;
    (void)id;
    if (error->status != STORE_OK) {
        finish_store_error(r, error);
        return;
    }
    char cookie[256];
    snprintf(cookie, sizeof cookie, COOKIE_NAME "=%s; HttpOnly; SameSite=Strict; Path=/api/admin; Max-Age=%d%s",
             r->session.token, ADMIN_SESSION_SECONDS, net_request_secure(r->request) ? "; Secure" : "");
    net_response_header(r->request, "set-cookie", cookie);
    finish_json(r, 200, json_pack("{s:s, s:s, s:I, s:I}", "csrf", r->session.csrf, "account",
                                  r->session.account_name, "player", (json_int_t)r->session.player_id,
                                  "expires_at", (json_int_t)r->session.expires_at_ms));
}

static void on_admin_opened(void *ctx, const store_error *error, const store_admin_session *session)
{
    admin_req *r = ctx;
    if (error->status == STORE_NOT_FOUND) {
        forbidden(r, "This account is not an admin.");
        return;
    }
    if (error->status != STORE_OK) {
        finish_store_error(r, error);
        return;
    }
    r->session = *session;
    json_t *details = json_pack("{s:s}", "peer", net_request_peer(r->request));
    bool asked = store_audit_append(r->a->st, session->player_id, "login", details, on_login_audited, r);
    json_decref(details);
    if (!asked)
        finish_error(r, 503, "closed", "The server is stopping.");
}

static void on_login(void *ctx, const store_error *error, const store_session *session)
{
    admin_req *r = ctx;
    if (error->status == STORE_BAD_LOGIN) {
        login_failed(r);
        finish_error(r, 401, "bad_login", "Wrong account name or password.");
        return;
    }
    if (error->status != STORE_OK) {
        finish_store_error(r, error);
        return;
    }
    /* store_login opened a player's session too: the admin API has its own, so that one goes. */
    store_logout(r->a->st, session->token, on_player_session_ended, NULL);
    if (!session->is_admin) {
        login_failed(r);
        forbidden(r, "This account is not an admin.");
        return;
    }
    throttle_succeed(r->a->logins, r->peer_key, now_ms(r->a));
    throttle_succeed(r->a->logins, r->name_key, now_ms(r->a));
    if (!store_admin_session_open(r->a->st, session->player_id, ADMIN_SESSION_SECONDS, on_admin_opened, r))
        finish_error(r, 503, "closed", "The server is stopping.");
}

static void login(admin_req *r)
{
    size_t len;
    const char *body = net_request_body(r->request, &len);
    json_error_t jerr;
    json_t *json = json_loadb(body, len, 0, &jerr);
    const char *name = NULL, *password = NULL;
    if (json == NULL || json_unpack(json, "{s:s, s:s}", "name", &name, "password", &password) != 0) {
        json_decref(json);
        finish_error(r, 400, "bad_request", "Login takes a JSON object {\"name\":…, \"password\":…}.");
        return;
    }
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->peer_key, sizeof r->peer_key, "addr:%s", net_request_peer(r->request));
    snprintf(r->name_key, sizeof r->name_key, "name:%s", r->name);
    for (char *p = r->name_key; *p; p++) /* account names compare without ASCII case */
        *p = (char)tolower((unsigned char)*p);
    uint64_t wait_ms = 0, wait2 = 0;
    const uint64_t now = now_ms(r->a);
    if (throttle_blocked(r->a->logins, r->peer_key, now, &wait_ms) ||
        throttle_blocked(r->a->logins, r->name_key, now, &wait2)) {
        json_decref(json);
        char retry[32];
        snprintf(retry, sizeof retry, "%" PRIu64, ((wait_ms > wait2 ? wait_ms : wait2) + 999) / 1000);
        net_response_header(r->request, "retry-after", retry);
        finish_error(r, 429, "too_many_attempts", "Too many failed logins; wait and try again.");
        return;
    }
    bool asked = store_login(r->a->st, name, password, on_login, r);
    json_decref(json);
    if (!asked)
        finish_error(r, 503, "closed", "The server is stopping.");
}

/* ---- Logout ---- */

static void on_logout_audited(void *ctx, const store_error *error, int64_t id)
{
    admin_req *r = ctx;
    (void)id;
    if (error->status != STORE_OK) {
        finish_store_error(r, error);
        return;
    }
    net_response_header(r->request, "set-cookie",
                        COOKIE_NAME "=; HttpOnly; SameSite=Strict; Path=/api/admin; Max-Age=0");
    finish_json(r, 200, json_pack("{s:b}", "ok", 1));
}

static void on_closed(void *ctx, const store_error *error)
{
    admin_req *r = ctx;
    if (error->status != STORE_OK && error->status != STORE_NOT_FOUND) {
        finish_store_error(r, error);
        return;
    }
    if (!store_audit_append(r->a->st, r->session.player_id, "logout", NULL, on_logout_audited, r))
        finish_error(r, 503, "closed", "The server is stopping.");
}

/* ---- Filters from the query ---- */

/* An integer parameter: absent leaves *out alone; false (with why) if not a whole number in range. */
static bool int_param(const net_request *request, const char *name, int64_t min, int64_t max, int64_t *out,
                      char *why, size_t cap)
{
    const char *text = net_request_query(request, name);
    if (text == NULL)
        return true;
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (*text == '\0' || *end != '\0' || errno != 0 || v < min || v > max || !isdigit((unsigned char)text[0])) {
        snprintf(why, cap, "'%s' is a whole number from %lld to %lld.", name, (long long)min, (long long)max);
        return false;
    }
    *out = v;
    return true;
}

static bool text_param(const net_request *request, const char *name, char *out, size_t cap, char *why,
                       size_t why_cap)
{
    const char *text = net_request_query(request, name);
    if (text == NULL)
        return true;
    if (strlen(text) >= cap) {
        snprintf(why, why_cap, "'%s' is at most %zu bytes.", name, cap - 1);
        return false;
    }
    snprintf(out, cap, "%s", text);
    return true;
}

/* The ledger's filter, cursor and page size from the query; false (answered 400) when bad. */
static bool parse_ledger_query(admin_req *r, int default_limit)
{
    const net_request *q = r->request;
    char why[160] = "";
    store_ledger_filter *f = &r->filter;
    int64_t limit = default_limit;
    bool ok = int_param(q, "player", 1, INT64_MAX, &f->player_id, why, sizeof why) &&
              int_param(q, "table", 1, INT64_MAX, &f->table_id, why, sizeof why) &&
              text_param(q, "code", f->code, sizeof f->code, why, sizeof why) &&
              text_param(q, "game", f->game, sizeof f->game, why, sizeof why) &&
              text_param(q, "reason", f->reason, sizeof f->reason, why, sizeof why) &&
              int_param(q, "from", 0, INT64_MAX, &f->from_ms, why, sizeof why) &&
              int_param(q, "to", 0, INT64_MAX, &f->to_ms, why, sizeof why) &&
              int_param(q, "before", 1, INT64_MAX, &r->before, why, sizeof why) &&
              int_param(q, "limit", 1, STORE_LEDGER_PAGE_MAX, &limit, why, sizeof why);
    if (ok && f->to_ms != 0 && f->to_ms < f->from_ms) {
        snprintf(why, sizeof why, "'to' is before 'from'.");
        ok = false;
    }
    if (!ok) {
        finish_error(r, 400, "bad_filter", why);
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
        finish_store_error(r, error);
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
    finish_json(r, 200, body);
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
    req_free(r);
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
        finish_store_error(r, error);
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

static void export_ledger(admin_req *r)
{
    json_t *details = json_pack("{s:o}", "filter", filter_json(&r->filter));
    if (r->before)
        json_object_set_new(details, "before", json_integer(r->before));
    bool asked = store_audit_append(r->a->st, r->session.player_id, "ledger.export", details, on_export_audited, r);
    json_decref(details);
    if (!asked)
        finish_error(r, 503, "closed", "The server is stopping.");
}

/* ---- The audit log ---- */

static void on_audit_page(void *ctx, const store_error *error, const store_audit_entry *entries, size_t n)
{
    admin_req *r = ctx;
    if (error->status != STORE_OK) {
        finish_store_error(r, error);
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
    finish_json(r, 200, body);
}

static void list_audit(admin_req *r)
{
    char why[160] = "";
    int64_t limit = AUDIT_PAGE_DEFAULT;
    if (!int_param(r->request, "before", 1, INT64_MAX, &r->before, why, sizeof why) ||
        !int_param(r->request, "limit", 1, STORE_AUDIT_PAGE_MAX, &limit, why, sizeof why)) {
        finish_error(r, 400, "bad_filter", why);
        return;
    }
    r->limit = (int)limit;
    if (!store_audit_list(r->a->st, r->before, r->limit, on_audit_page, r))
        finish_error(r, 503, "closed", "The server is stopping.");
}

/* ---- Routing ---- */

static void route_authenticated(admin_req *r)
{
    switch (r->route) {
    case ROUTE_LOGOUT:
        if (!store_admin_session_close(r->a->st, r->token, on_closed, r))
            finish_error(r, 503, "closed", "The server is stopping.");
        return;
    case ROUTE_LEDGER:
        if (!parse_ledger_query(r, LEDGER_PAGE_DEFAULT))
            return;
        if (!store_ledger_query(r->a->st, &r->filter, r->before, r->limit, true, on_ledger_page, r))
            finish_error(r, 503, "closed", "The server is stopping.");
        return;
    case ROUTE_LEDGER_CSV:
        if (parse_ledger_query(r, CSV_PAGE))
            export_ledger(r);
        return;
    case ROUTE_AUDIT:
        list_audit(r);
        return;
    case ROUTE_LOGIN:
        break;
    }
    finish_error(r, 500, "internal", "No such route.");
}

static void on_request(void *ctx, net_request *request)
{
    admin *a = ctx;
    const char *path = net_request_path(request) + strlen("/api/admin/");
    const bool post = strcmp(net_request_method(request), "POST") == 0;
    static const struct {
        const char *path;
        bool post;
        route_kind route;
    } routes[] = {
        {"login", true, ROUTE_LOGIN},       {"logout", true, ROUTE_LOGOUT}, {"ledger", false, ROUTE_LEDGER},
        {"ledger.csv", false, ROUTE_LEDGER_CSV}, {"audit", false, ROUTE_AUDIT},
    };
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
        if (strcmp(path, routes[i].path) != 0)
            continue;
        if (routes[i].post != post) {
            net_response_header(request, "allow", routes[i].post ? "POST" : "GET");
            respond_error(request, 405, "method_not_allowed", routes[i].post ? "Use POST." : "Use GET.");
            return;
        }
        admin_req *r = req_new(a, request, routes[i].route);
        if (r == NULL) {
            respond_error(request, 500, "internal", "Out of memory.");
            return;
        }
        if (r->route == ROUTE_LOGIN)
            login(r);
        else
            authenticate(r);
        return;
    }
    respond_error(request, 404, "not_found", "No such admin route.");
}

static void on_writable(void *ctx, net_request *request)
{
    (void)ctx;
    admin_req *r = net_request_data(request);
    if (r == NULL || !r->streaming || r->querying)
        return; /* a page is on its way: its answer looks at the client again */
    if (net_request_gone(request)) {
        csv_end(r);
        return;
    }
    if (net_stream_queued(request) < CSV_QUEUE_LOW)
        csv_query_next(r);
}

admin *admin_create(uv_loop_t *loop, net_server *server, store *st)
{
    admin *a = calloc(1, sizeof *a);
    if (a == NULL)
        return NULL;
    a->loop = loop;
    a->st = st;
    /* Five failures in a row (each spends two tokens, the try and the miss, as the lobby's gates
     * do), then a wait that doubles from 2 s up to 5 min; a token comes back each minute. */
    const throttle_config tc = {.rate = 1.0 / 60, .burst = 10, .base_delay_ms = 2000, .max_delay_ms = 300000,
                                .idle_ms = 3600 * 1000, .max_keys = 10000};
    a->logins = throttle_create(&tc);
    static const char *const headers[] = {"cookie", "x-csrf-token", NULL};
    const net_route get = {.method = "GET", .prefix = "/api/admin/", .headers = headers, .on_request = on_request,
                           .on_writable = on_writable, .ctx = a};
    net_route post = get;
    post.method = "POST";
    post.max_body = LOGIN_BODY_MAX;
    if (a->logins == NULL || !net_route_add(server, &get) || !net_route_add(server, &post)) {
        log_error("cannot add the admin API's routes");
        throttle_destroy(a->logins);
        free(a);
        return NULL;
    }
    return a;
}

void admin_destroy(admin *a)
{
    if (a == NULL)
        return;
    while (a->live)
        req_free(a->live);
    throttle_destroy(a->logins);
    free(a);
}
