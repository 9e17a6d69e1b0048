/*
 * admin — the admin web API (admin.h): routing, the session, login and logout. Each request
 * becomes an admin_req that follows it through the store's callbacks: the session is looked up
 * (and the anti-forgery token compared) first, then the route (a file per concern,
 * admin_internal.h) does its work and answers.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "admin_internal.h"
#include "log.h"

#define COOKIE_NAME "teahouse_admin"
#define POST_BODY_MAX 4096 /* a login, or an adjustment with its reason */

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

void admin_req_free(admin_req *r)
{
    if (r->prev)
        r->prev->next = r->next;
    else
        r->a->live = r->next;
    if (r->next)
        r->next->prev = r->prev;
    sodium_memzero(r->token, sizeof r->token);
    json_decref(r->answer);
    free(r);
}

void admin_respond_json(net_request *request, unsigned status, json_t *body)
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

void admin_respond_error(net_request *request, unsigned status, const char *code, const char *message)
{
    admin_respond_json(request, status, json_pack("{s:s, s:s}", "error", code, "message", message));
}

/* Answers r (when it has a request still) and frees it. */
void admin_finish_json(admin_req *r, unsigned status, json_t *body)
{
    admin_respond_json(r->request, status, body);
    admin_req_free(r);
}

void admin_finish_error(admin_req *r, unsigned status, const char *code, const char *message)
{
    admin_respond_error(r->request, status, code, message);
    admin_req_free(r);
}

void admin_finish_store_error(admin_req *r, const store_error *error)
{
    log_warn("admin API: %s", error->message);
    const unsigned status = error->status == STORE_INVALID ? 400 : error->status == STORE_NOT_FOUND ? 404 : 503;
    admin_finish_error(r, status, store_status_name(error->status), error->message);
}

void admin_finish_closed(admin_req *r)
{
    admin_finish_error(r, 503, "closed", "The server is stopping.");
}

static void forbidden(admin_req *r, const char *message)
{
    admin_finish_error(r, 403, "forbidden", message);
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
        admin_finish_store_error(r, error);
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
        admin_finish_closed(r);
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
        admin_finish_store_error(r, error);
        return;
    }
    char cookie[256];
    snprintf(cookie, sizeof cookie, COOKIE_NAME "=%s; HttpOnly; SameSite=Strict; Path=/api/admin; Max-Age=%d%s",
             r->session.token, ADMIN_SESSION_SECONDS, net_request_secure(r->request) ? "; Secure" : "");
    net_response_header(r->request, "set-cookie", cookie);
    admin_finish_json(r, 200, json_pack("{s:s, s:s, s:I, s:I}", "csrf", r->session.csrf, "account",
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
        admin_finish_store_error(r, error);
        return;
    }
    r->session = *session;
    json_t *details = json_pack("{s:s}", "peer", net_request_peer(r->request));
    bool asked = store_audit_append(r->a->st, session->player_id, "login", details, on_login_audited, r);
    json_decref(details);
    if (!asked)
        admin_finish_closed(r);
}

static void on_login(void *ctx, const store_error *error, const store_session *session)
{
    admin_req *r = ctx;
    if (error->status == STORE_BAD_LOGIN) {
        login_failed(r);
        admin_finish_error(r, 401, "bad_login", "Wrong account name or password.");
        return;
    }
    if (error->status != STORE_OK) {
        admin_finish_store_error(r, error);
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
        admin_finish_closed(r);
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
        admin_finish_error(r, 400, "bad_request", "Login takes a JSON object {\"name\":…, \"password\":…}.");
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
        admin_finish_error(r, 429, "too_many_attempts", "Too many failed logins; wait and try again.");
        return;
    }
    bool asked = store_login(r->a->st, name, password, on_login, r);
    json_decref(json);
    if (!asked)
        admin_finish_closed(r);
}

/* ---- Logout ---- */

static void on_logout_audited(void *ctx, const store_error *error, int64_t id)
{
    admin_req *r = ctx;
    (void)id;
    if (error->status != STORE_OK) {
        admin_finish_store_error(r, error);
        return;
    }
    net_response_header(r->request, "set-cookie",
                        COOKIE_NAME "=; HttpOnly; SameSite=Strict; Path=/api/admin; Max-Age=0");
    admin_finish_json(r, 200, json_pack("{s:b}", "ok", 1));
}

static void on_closed(void *ctx, const store_error *error)
{
    admin_req *r = ctx;
    if (error->status != STORE_OK && error->status != STORE_NOT_FOUND) {
        admin_finish_store_error(r, error);
        return;
    }
    if (!store_audit_append(r->a->st, r->session.player_id, "logout", NULL, on_logout_audited, r))
        admin_finish_closed(r);
}

/* ---- Filters from the query ---- */

bool admin_int_param(const net_request *request, const char *name, int64_t min, int64_t max, int64_t *out,
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

bool admin_text_param(const net_request *request, const char *name, char *out, size_t cap, char *why,
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


/* ---- Routing ---- */

static void route_authenticated(admin_req *r)
{
    switch (r->route) {
    case ROUTE_LOGOUT:
        if (!store_admin_session_close(r->a->st, r->token, on_closed, r))
            admin_finish_closed(r);
        return;
    case ROUTE_LEDGER:
        admin_ledger_page(r);
        return;
    case ROUTE_LEDGER_CSV:
        admin_ledger_export(r);
        return;
    case ROUTE_AUDIT:
        admin_audit_list(r);
        return;
    case ROUTE_PLAYERS:
        admin_players(r);
        return;
    case ROUTE_PLAYER:
        admin_player(r);
        return;
    case ROUTE_TABLES:
        admin_tables(r);
        return;
    case ROUTE_TABLE:
        admin_table(r);
        return;
    case ROUTE_HAND:
        admin_hand(r);
        return;
    case ROUTE_INTEGRITY_START:
        admin_integrity_start(r);
        return;
    case ROUTE_INTEGRITY:
        admin_integrity_status(r);
        return;
    case ROUTE_ADJUST:
        admin_adjust(r);
        return;
    case ROUTE_LIVE:
        admin_live(r);
        return;
    case ROUTE_LOGIN:
        break;
    }
    admin_finish_error(r, 500, "internal", "No such route.");
}

/* "players/12" with prefix "players/": 12 (1 or more, digits only); 0 when not that form. */
static int64_t path_id(const char *path, const char *prefix)
{
    size_t len = strlen(prefix);
    if (strncmp(path, prefix, len) != 0)
        return 0;
    const char *digits = path + len;
    if (*digits < '1' || *digits > '9' || strlen(digits) > 18)
        return 0;
    for (const char *p = digits; *p; p++)
        if (!isdigit((unsigned char)*p))
            return 0;
    return strtoll(digits, NULL, 10);
}

typedef struct route_entry {
    const char *path;      /* exact, or a prefix ending in '/' followed by an id */
    const char *method;
    route_kind route;
} route_entry;

static const route_entry ROUTES[] = {
    {"login", "POST", ROUTE_LOGIN},           {"logout", "POST", ROUTE_LOGOUT},
    {"ledger", "GET", ROUTE_LEDGER},          {"ledger.csv", "GET", ROUTE_LEDGER_CSV},
    {"audit", "GET", ROUTE_AUDIT},            {"players", "GET", ROUTE_PLAYERS},
    {"players/", "GET", ROUTE_PLAYER},        {"tables", "GET", ROUTE_TABLES},
    {"tables/", "GET", ROUTE_TABLE},          {"hands/", "GET", ROUTE_HAND},
    {"integrity", "POST", ROUTE_INTEGRITY_START}, {"integrity", "GET", ROUTE_INTEGRITY},
    {"adjustments", "POST", ROUTE_ADJUST},    {"live", "GET", ROUTE_LIVE},
};

static void on_request(void *ctx, net_request *request)
{
    admin *a = ctx;
    const char *path = net_request_path(request) + strlen("/api/admin/");
    const char *method = net_request_method(request);
    const char *allowed = NULL;
    for (size_t i = 0; i < sizeof ROUTES / sizeof ROUTES[0]; i++) {
        const route_entry *e = &ROUTES[i];
        const bool with_id = e->path[strlen(e->path) - 1] == '/';
        const int64_t id = with_id ? path_id(path, e->path) : 0;
        if (with_id ? id == 0 : strcmp(path, e->path) != 0)
            continue;
        if (strcmp(e->method, method) != 0) {
            allowed = allowed ? "GET, POST" : e->method;
            continue;
        }
        admin_req *r = req_new(a, request, e->route);
        if (r == NULL) {
            admin_respond_error(request, 500, "internal", "Out of memory.");
            return;
        }
        r->id = id;
        if (r->route == ROUTE_LOGIN)
            login(r);
        else
            authenticate(r);
        return;
    }
    if (allowed != NULL) {
        net_response_header(request, "allow", allowed);
        admin_respond_error(request, 405, "method_not_allowed", strcmp(allowed, "POST") == 0 ? "Use POST." : "Use GET.");
        return;
    }
    admin_respond_error(request, 404, "not_found", "No such admin route.");
}

static void on_writable(void *ctx, net_request *request)
{
    (void)ctx;
    admin_req *r = net_request_data(request);
    if (r != NULL && r->route == ROUTE_LEDGER_CSV)
        admin_ledger_writable(r);
}

admin *admin_create(uv_loop_t *loop, net_server *server, store *st, const admin_config *config)
{
    admin *a = calloc(1, sizeof *a);
    if (a == NULL)
        return NULL;
    a->loop = loop;
    a->st = st;
    if (config != NULL)
        a->config = *config;
    /* Five failures in a row (each spends two tokens, the try and the miss, as the lobby's gates
     * do), then a wait that doubles from 2 s up to 5 min; a token comes back each minute. */
    const throttle_config tc = {.rate = 1.0 / 60, .burst = 10, .base_delay_ms = 2000, .max_delay_ms = 300000,
                                .idle_ms = 3600 * 1000, .max_keys = 10000};
    a->logins = throttle_create(&tc);
    a->integrity = admin_integrity_create();
    static const char *const headers[] = {"cookie", "x-csrf-token", NULL};
    const net_route get = {.method = "GET", .prefix = "/api/admin/", .headers = headers, .on_request = on_request,
                           .on_writable = on_writable, .ctx = a};
    net_route post = get;
    post.method = "POST";
    post.max_body = POST_BODY_MAX;
    if (a->logins == NULL || a->integrity == NULL || !net_route_add(server, &get) || !net_route_add(server, &post)) {
        log_error("cannot add the admin API's routes");
        throttle_destroy(a->logins);
        admin_integrity_destroy(a->integrity);
        free(a);
        return NULL;
    }
    return a;
}

void admin_destroy(admin *a)
{
    if (a == NULL)
        return;
    admin_integrity_destroy(a->integrity);
    while (a->live)
        admin_req_free(a->live);
    throttle_destroy(a->logins);
    free(a);
}
