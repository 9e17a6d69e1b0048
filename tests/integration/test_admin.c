/*
 * The admin web API (protocol/PROTOCOL.md, "Admin HTTP API") against the real binary: accounts
 * are registered over the WebSocket and made admins with `teahouse admin grant` on the test's
 * database, as an operator would; hands are played with bots so the ledger has rows. Checked:
 * every route but login refuses (403) a request without an admin session (no cookie, a forged
 * one, a player's session token, a non-admin account, a guest); an admin's login sets a strict
 * cookie and answers the anti-forgery token; the ledger's filters, its paging while hands are
 * being played, its CSV export's quoting; POSTs without the anti-forgery token are refused; what
 * admins did is in the audit log; failed logins are throttled.
 *
 * Usage: test_admin PATH_TO_TEAHOUSE WEB_ROOT
 */
#include <check.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>
#include <sqlite3.h>

#include "http_client.h"
#include "server_process.h"
#include "table_client.h"

static const char *binary;
static const char *web_root;
static server_process server;
static char db_dir[64];
static char db_path[96];

/* ---- The server on a database of the test's own ---- */

static void start(void)
{
    snprintf(db_dir, sizeof db_dir, "/tmp/teahouse-admin-XXXXXX");
    ck_assert(mkdtemp(db_dir) != NULL);
    snprintf(db_path, sizeof db_path, "%s/teahouse.db", db_dir);
    const char *args[] = {"--bot-delay-ms", "5", "--next-hand-seconds", "0", "--web-root", web_root, "--db", db_path,
                          NULL};
    ck_assert_msg(server_process_start(&server, binary, args, 10000), "the server did not start");
}

static void stop(void)
{
    int status = 0;
    bool stopped = server_process_stop(&server, SIGTERM, 10000, &status);
    bool clean = stopped && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!clean) {
        char *log = server_process_log(&server);
        fprintf(stderr, "server log:\n%s\n", log != NULL ? log : "");
        free(log);
    }
    ck_assert_msg(clean, "the server did not stop cleanly (status 0x%x)", status);
    server_process_cleanup(&server);
    static const char *const SUFFIXES[] = {"", "-wal", "-shm", ".lock", ".key"};
    for (size_t i = 0; i < sizeof SUFFIXES / sizeof SUFFIXES[0]; i++) {
        char path[sizeof db_path + 8];
        snprintf(path, sizeof path, "%s%s", db_path, SUFFIXES[i]);
        unlink(path);
    }
    rmdir(db_dir);
}

/* ---- Players over the WebSocket ---- */

static void connect_as(table_client *c, const char *name, const char *token)
{
    ck_assert_msg(tc_connect(c, server.host, server.port, name, token), "%s could not connect", name);
}

static const char *type_of(const json_t *frame) { return json_string_value(json_object_get(frame, "type")); }

static json_t *request_ok(table_client *c, json_t *message, const char *want_type)
{
    json_t *reply = tc_request(c, message, 5000);
    ck_assert_ptr_nonnull(reply);
    char *text = json_dumps(reply, JSON_COMPACT);
    ck_assert_msg(strcmp(type_of(reply), want_type) == 0, "want %s, got %s", want_type, text);
    free(text);
    return reply;
}

/* A guest named nickname who registers the account name (password "jasmine tea"); answers the
 * player id (the number of "p12"). */
static int64_t register_account(table_client *c, const char *nickname, const char *name)
{
    connect_as(c, nickname, NULL);
    json_decref(request_ok(c, json_pack("{s:s, s:s, s:s}", "type", "register", "name", name, "password", "jasmine tea"),
                           "welcome"));
    return strtoll(c->player_id + 1, NULL, 10);
}

static void grant(const char *name)
{
    char command[512];
    snprintf(command, sizeof command, "'%s' admin grant '%s' --db '%s' >/dev/null 2>&1", binary, name, db_path);
    int status = system(command);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "admin grant %s failed", name);
}

/* c creates a private table, seats 3 bots, starts it and plays until `hands` hands are over. */
static void play_with_bots(table_client *c, int hands)
{
    json_t *reply = request_ok(c,
                               json_pack("{s:s, s:s, s:{}, s:b}", "type", "create_table", "game", "tiengow", "options",
                                         "public", false),
                               "snapshot");
    snprintf(c->code, sizeof c->code, "%s", json_string_value(json_object_get(reply, "table")));
    json_decref(reply);
    for (int s = 1; s < 4; s++)
        json_decref(request_ok(c, json_pack("{s:s, s:i, s:s}", "type", "add_bot", "seat", s, "code", c->code), "ok"));
    json_decref(request_ok(c, json_pack("{s:s, s:s}", "type", "start", "code", c->code), "ok"));
    ck_assert(tc_play_until(c, hands, 60000, true));
}

/* ---- HTTP ---- */

typedef struct admin_client {
    char cookie[128];   /* "teahouse_admin=…" */
    char csrf[64];
} admin_client;

static http_response call(const char *method, const char *path, const char *cookie, const char *csrf,
                          const char *body)
{
    char headers[512] = "";
    size_t len = 0;
    if (cookie)
        len += (size_t)snprintf(headers + len, sizeof headers - len, "Cookie: theme=dark; %s\r\n", cookie);
    if (csrf)
        len += (size_t)snprintf(headers + len, sizeof headers - len, "X-CSRF-Token: %s\r\n", csrf);
    if (body && *body)
        snprintf(headers + len, sizeof headers - len, "Content-Type: application/json\r\n");
    if (body == NULL && strcmp(method, "POST") == 0)
        body = ""; /* Content-Length: 0, as a browser sends */
    const http_options options = {.headers = headers};
    http_response r;
    ck_assert_msg(http_request(server.host, server.port, method, path, &options, body, body ? strlen(body) : 0, 10000,
                               &r),
                  "%s %s: no answer", method, path);
    return r;
}

static json_t *body_json(const http_response *r)
{
    json_t *j = json_loadb(r->body, r->body_len, 0, NULL);
    ck_assert_msg(j != NULL, "not JSON: %s", r->body);
    return j;
}

static void expect_status(http_response *r, int status, const char *error_code)
{
    ck_assert_msg(r->status == status, "want %d, got %d: %s", status, r->status, r->body);
    if (error_code) {
        json_t *j = body_json(r);
        ck_assert_str_eq(json_string_value(json_object_get(j, "error")), error_code);
        ck_assert_ptr_nonnull(json_string_value(json_object_get(j, "message")));
        json_decref(j);
    }
    http_response_free(r);
}

static http_response login_call(const char *name, const char *password)
{
    char body[256];
    snprintf(body, sizeof body, "{\"name\":\"%s\",\"password\":\"%s\"}", name, password);
    return call("POST", "/api/admin/login", NULL, NULL, body);
}

static admin_client admin_login(const char *name)
{
    admin_client a;
    http_response r = login_call(name, "jasmine tea");
    ck_assert_msg(r.status == 200, "login: %d %s", r.status, r.body);
    char set_cookie[512];
    ck_assert(http_header(&r, "set-cookie", set_cookie, sizeof set_cookie));
    ck_assert_msg(strncmp(set_cookie, "teahouse_admin=", 15) == 0, "%s", set_cookie);
    ck_assert_ptr_nonnull(strstr(set_cookie, "; HttpOnly"));
    ck_assert_ptr_nonnull(strstr(set_cookie, "; SameSite=Strict"));
    ck_assert_ptr_nonnull(strstr(set_cookie, "; Path=/api/admin"));
    ck_assert_ptr_nonnull(strstr(set_cookie, "; Max-Age="));
    ck_assert_ptr_null(strstr(set_cookie, "Secure")); /* plain HTTP here */
    size_t n = strcspn(set_cookie, ";");
    ck_assert_uint_lt(n, sizeof a.cookie);
    memcpy(a.cookie, set_cookie, n);
    a.cookie[n] = '\0';
    json_t *j = body_json(&r);
    snprintf(a.csrf, sizeof a.csrf, "%s", json_string_value(json_object_get(j, "csrf")));
    ck_assert_uint_eq(strlen(a.csrf), 43);
    ck_assert_str_eq(json_string_value(json_object_get(j, "account")), name);
    json_decref(j);
    http_response_free(&r);
    return a;
}

/* GET path as the admin, expecting 200 and JSON. */
static json_t *admin_get(const admin_client *a, const char *path)
{
    http_response r = call("GET", path, a->cookie, NULL, NULL);
    ck_assert_msg(r.status == 200, "GET %s: %d %s", path, r.status, r.body);
    json_t *j = body_json(&r);
    http_response_free(&r);
    return j;
}

static const char *const GUARDED[][2] = {
    {"GET", "/api/admin/ledger"}, {"GET", "/api/admin/ledger.csv"}, {"GET", "/api/admin/audit"},
    {"POST", "/api/admin/logout"},
};

/* Every route but login answers 403 with this cookie (NULL: none). */
static void all_forbidden(const char *cookie, const char *csrf)
{
    for (size_t i = 0; i < sizeof GUARDED / sizeof GUARDED[0]; i++) {
        http_response r = call(GUARDED[i][0], GUARDED[i][1], cookie, csrf, NULL);
        ck_assert_msg(r.status == 403, "%s %s with %s: %d", GUARDED[i][0], GUARDED[i][1], cookie ? cookie : "no cookie",
                      r.status);
        expect_status(&r, 403, "forbidden");
    }
}

/* ---- Cases ---- */

START_TEST(test_every_route_refuses_no_cookie_a_forged_one_a_player_session_a_non_admin_and_a_guest)
{
    start();
    table_client lan, guest, mei;
    register_account(&lan, "Lan", "lan");
    connect_as(&guest, "Visitor", NULL);
    register_account(&mei, "Mei", "mei");
    grant("mei");

    all_forbidden(NULL, NULL);
    all_forbidden("teahouse_admin=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "AAAA");
    all_forbidden("teahouse_admin=../../etc/passwd", NULL);
    char cookie[160];
    snprintf(cookie, sizeof cookie, "teahouse_admin=%s", mei.token); /* an admin's player session is not an admin session */
    all_forbidden(cookie, NULL);
    snprintf(cookie, sizeof cookie, "teahouse_admin=%s", guest.token);
    all_forbidden(cookie, NULL);

    http_response r = login_call("lan", "jasmine tea"); /* right password, not an admin */
    ck_assert(!http_header(&r, "set-cookie", cookie, sizeof cookie));
    expect_status(&r, 403, "forbidden");
    r = login_call("Visitor", "jasmine tea");
    expect_status(&r, 401, "bad_login");
    r = login_call("mei", "green tea");
    expect_status(&r, 401, "bad_login");
    r = call("POST", "/api/admin/login", NULL, NULL, "{\"name\":3}");
    expect_status(&r, 400, "bad_request");
    r = call("GET", "/api/admin/login", NULL, NULL, NULL);
    expect_status(&r, 405, "method_not_allowed");
    r = call("GET", "/api/admin/nothing", NULL, NULL, NULL);
    expect_status(&r, 404, "not_found");

    admin_client a = admin_login("mei"); /* and the admin gets in */
    json_decref(admin_get(&a, "/api/admin/ledger"));
    tc_close(&lan);
    tc_close(&guest);
    tc_close(&mei);
    stop();
}
END_TEST

START_TEST(test_ledger_filters_narrow_the_rows_and_bad_values_are_refused_with_the_reason)
{
    start();
    table_client mei, bo;
    int64_t mei_id = register_account(&mei, "Mei", "mei");
    grant("mei");
    connect_as(&bo, "Bo", NULL);
    play_with_bots(&mei, 1);
    play_with_bots(&bo, 1);
    const int64_t bo_id = strtoll(bo.player_id + 1, NULL, 10);
    admin_client a = admin_login("mei");

    json_t *all = admin_get(&a, "/api/admin/ledger");
    json_t *rows = json_object_get(all, "rows");
    const int64_t total_rows = json_integer_value(json_object_get(json_object_get(all, "totals"), "rows"));
    ck_assert_int_eq((int64_t)json_array_size(rows), total_rows);
    ck_assert_int_ge(total_rows, 8); /* two hands, four seats each */
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(all, "totals"), "units")), 0);
    ck_assert(json_is_null(json_object_get(all, "next")));
    int64_t prev = INT64_MAX;
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row)
    {
        int64_t id = json_integer_value(json_object_get(row, "id"));
        ck_assert_int_lt(id, prev); /* newest first */
        prev = id;
        ck_assert_str_eq(json_string_value(json_object_get(row, "game")), "tiengow");
    }

    char path[256];
    snprintf(path, sizeof path, "/api/admin/ledger?player=%" PRId64, mei_id);
    json_t *mine = admin_get(&a, path);
    ck_assert_int_gt(json_array_size(json_object_get(mine, "rows")), 0);
    json_array_foreach(json_object_get(mine, "rows"), i, row)
    {
        ck_assert_int_eq(json_integer_value(json_object_get(row, "player")), mei_id);
        ck_assert_str_eq(json_string_value(json_object_get(row, "nickname")), "Mei");
        ck_assert_str_eq(json_string_value(json_object_get(row, "code")), mei.code);
    }
    json_decref(mine);

    snprintf(path, sizeof path, "/api/admin/ledger?code=%s", bo.code);
    json_t *bos = admin_get(&a, path);
    int players = 0;
    json_array_foreach(json_object_get(bos, "rows"), i, row)
    {
        ck_assert_str_eq(json_string_value(json_object_get(row, "code")), bo.code);
        if (!json_is_null(json_object_get(row, "player"))) {
            ck_assert_int_eq(json_integer_value(json_object_get(row, "player")), bo_id);
            players++;
        } else {
            ck_assert(json_is_null(json_object_get(row, "balance"))); /* a bot's seat */
        }
    }
    ck_assert_int_ge(players, 1);
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(bos, "totals"), "units")), 0);
    json_decref(bos);

    json_t *none = admin_get(&a, "/api/admin/ledger?game=mahjong&reason=settle");
    ck_assert_uint_eq(json_array_size(json_object_get(none, "rows")), 0);
    json_decref(none);
    json_t *future = admin_get(&a, "/api/admin/ledger?from=32503680000000");
    ck_assert_uint_eq(json_array_size(json_object_get(future, "rows")), 0);
    json_decref(future);

    static const char *const bad[] = {"player=abc", "player=-3", "limit=0", "limit=1001", "before=x", "from=5&to=4",
                                      "table=1e3", "code=ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        snprintf(path, sizeof path, "/api/admin/ledger?%s", bad[k]);
        http_response r = call("GET", path, a.cookie, NULL, NULL);
        ck_assert_msg(r.status == 400, "%s: %d", bad[k], r.status);
        expect_status(&r, 400, "bad_filter");
        snprintf(path, sizeof path, "/api/admin/ledger.csv?%s", bad[k]);
        r = call("GET", path, a.cookie, NULL, NULL);
        expect_status(&r, 400, "bad_filter");
    }
    json_decref(all);
    tc_close(&mei);
    tc_close(&bo);
    stop();
}
END_TEST

START_TEST(test_pages_neither_lose_nor_repeat_rows_while_hands_are_played_between_them)
{
    start();
    table_client mei;
    register_account(&mei, "Mei", "mei");
    grant("mei");
    play_with_bots(&mei, 2);
    admin_client a = admin_login("mei");

    json_t *first = admin_get(&a, "/api/admin/ledger?limit=3");
    ck_assert_uint_eq(json_array_size(json_object_get(first, "rows")), 3);
    const int64_t top = json_integer_value(json_object_get(json_array_get(json_object_get(first, "rows"), 0), "id"));
    int64_t expect = top;
    size_t i;
    json_t *row;
    json_array_foreach(json_object_get(first, "rows"), i, row)
        ck_assert_int_eq(json_integer_value(json_object_get(row, "id")), expect--);
    int64_t next = json_integer_value(json_object_get(first, "next"));
    ck_assert_int_eq(next, top - 2);
    json_decref(first);

    int pages = 1;
    while (next != 0) {
        ck_assert(tc_play_until(&mei, mei.hands_over + 1, 60000, true)); /* rows are added meanwhile */
        char path[128];
        snprintf(path, sizeof path, "/api/admin/ledger?limit=3&before=%" PRId64, next);
        json_t *page = admin_get(&a, path);
        json_array_foreach(json_object_get(page, "rows"), i, row)
            ck_assert_int_eq(json_integer_value(json_object_get(row, "id")), expect--);
        json_t *n = json_object_get(page, "next");
        next = json_is_null(n) ? 0 : json_integer_value(n);
        json_decref(page);
        pages++;
    }
    ck_assert_int_eq(expect, 0); /* every row from the top one down to row 1, each once */
    ck_assert_int_ge(pages, 3);
    json_t *now = admin_get(&a, "/api/admin/ledger?limit=1");
    ck_assert_int_gt(json_integer_value(json_object_get(json_object_get(now, "totals"), "rows")), top);
    json_decref(now);
    tc_close(&mei);
    stop();
}
END_TEST

/* The CSV's rows for player id (the lines whose 8th field is that id), counted. */
static int csv_lines_containing(const char *csv, const char *needle)
{
    int n = 0;
    for (const char *p = csv; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

START_TEST(test_the_csv_export_quotes_commas_quotes_and_keeps_chinese_names)
{
    start();
    table_client mei, wu, wang;
    register_account(&mei, "Mei", "mei");
    grant("mei");
    connect_as(&wu, "Wu, \"Tiger\"", NULL);
    connect_as(&wang, "王小明", NULL);
    play_with_bots(&wu, 1);
    play_with_bots(&wang, 1);
    admin_client a = admin_login("mei");

    json_t *all = admin_get(&a, "/api/admin/ledger?limit=1000");
    const int64_t total_rows = json_integer_value(json_object_get(json_object_get(all, "totals"), "rows"));
    json_decref(all);

    http_response r = call("GET", "/api/admin/ledger.csv", a.cookie, NULL, NULL);
    ck_assert_msg(r.status == 200, "%d %s", r.status, r.body);
    char type[128];
    ck_assert(http_header(&r, "content-type", type, sizeof type));
    ck_assert_ptr_nonnull(strstr(type, "text/csv"));
    const char *header = "id,at,table,code,game,hand,hand_number,player,nickname,seat,units,reason,balance\r\n";
    ck_assert_msg(strncmp(r.body, header, strlen(header)) == 0, "%.200s", r.body);
    ck_assert_int_eq(csv_lines_containing(r.body, "\r\n"), total_rows + 1);
    ck_assert_int_ge(csv_lines_containing(r.body, ",\"Wu, \"\"Tiger\"\"\","), 1);
    ck_assert_int_eq(csv_lines_containing(r.body, "Wu, \"Tiger\""), 0); /* never unquoted */
    ck_assert_int_ge(csv_lines_containing(r.body, ",王小明,"), 1);
    http_response_free(&r);

    char path[128];
    snprintf(path, sizeof path, "/api/admin/ledger.csv?code=%s", wang.code);
    r = call("GET", path, a.cookie, NULL, NULL);
    ck_assert_int_eq(r.status, 200);
    ck_assert_int_eq(csv_lines_containing(r.body, "Tiger"), 0);
    ck_assert_int_ge(csv_lines_containing(r.body, wang.code), 1);
    http_response_free(&r);
    tc_close(&mei);
    tc_close(&wu);
    tc_close(&wang);
    stop();
}
END_TEST

/* Copies of the ledger's rows, written beside the server (rows a verify would refuse, but the
 * export does not verify): enough rows for the export to take several pages and to fill the
 * socket, so it must wait for the client to read. */
static void add_rows_directly(int copies)
{
    sqlite3 *db = NULL;
    ck_assert_int_eq(sqlite3_open(db_path, &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    char sql[1024];
    snprintf(sql, sizeof sql,
             "WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < %d)"
             " INSERT INTO ledger (table_id, hand_id, player_id, seat, units, reason, balance_after, at, prev_hash, hash)"
             " SELECT l.table_id, l.hand_id, l.player_id, l.seat, l.units, 'copy_' || n.k, l.balance_after, l.at,"
             " l.prev_hash, l.hash FROM n, (SELECT * FROM ledger ORDER BY id LIMIT 1) AS l",
             copies);
    char *err = NULL;
    ck_assert_msg(sqlite3_exec(db, sql, NULL, NULL, &err) == SQLITE_OK, "%s", err ? err : "");
    sqlite3_close(db);
}

START_TEST(test_a_long_export_streams_every_row_once_newest_first)
{
    start();
    table_client mei;
    register_account(&mei, "Mei", "mei");
    grant("mei");
    play_with_bots(&mei, 1);
    add_rows_directly(1600);
    admin_client a = admin_login("mei");
    json_t *one = admin_get(&a, "/api/admin/ledger?limit=1");
    const int64_t total = json_integer_value(json_object_get(json_object_get(one, "totals"), "rows"));
    const int64_t top = json_integer_value(json_object_get(json_array_get(json_object_get(one, "rows"), 0), "id"));
    json_decref(one);
    ck_assert_int_eq(total, top);
    ck_assert_int_gt(total, 1600);

    http_response r = call("GET", "/api/admin/ledger.csv", a.cookie, NULL, NULL);
    ck_assert_int_eq(r.status, 200);
    ck_assert_uint_gt(r.body_len, 64 * 1024);
    const char *line = strstr(r.body, "\r\n") + 2; /* after the header */
    int64_t expect = top;
    for (; *line != '\0'; line = strstr(line, "\r\n") + 2)
        ck_assert_int_eq(strtoll(line, NULL, 10), expect--);
    ck_assert_int_eq(expect, 0);
    http_response_free(&r);
    tc_close(&mei);
    stop();
}
END_TEST

START_TEST(test_a_post_without_the_csrf_token_is_refused_and_logout_ends_the_session)
{
    start();
    table_client mei;
    register_account(&mei, "Mei", "mei");
    grant("mei");
    admin_client a = admin_login("mei");
    admin_client b = admin_login("mei");
    ck_assert_str_ne(a.csrf, b.csrf);

    http_response r = call("POST", "/api/admin/logout", a.cookie, NULL, NULL);
    expect_status(&r, 403, "forbidden");
    r = call("POST", "/api/admin/logout", a.cookie, b.csrf, NULL); /* another session's token */
    expect_status(&r, 403, "forbidden");
    r = call("POST", "/api/admin/logout", a.cookie, "", NULL);
    expect_status(&r, 403, "forbidden");
    json_decref(admin_get(&a, "/api/admin/ledger")); /* still logged in */

    r = call("POST", "/api/admin/logout", a.cookie, a.csrf, NULL);
    char set_cookie[256];
    ck_assert(http_header(&r, "set-cookie", set_cookie, sizeof set_cookie));
    ck_assert_ptr_nonnull(strstr(set_cookie, "Max-Age=0"));
    expect_status(&r, 200, NULL);
    all_forbidden(a.cookie, a.csrf);
    json_decref(admin_get(&b, "/api/admin/ledger")); /* the other session goes on */

    /* an admin whose flag is taken away is out at once */
    char command[512];
    snprintf(command, sizeof command, "'%s' admin revoke mei --db '%s' >/dev/null 2>&1", binary, db_path);
    ck_assert_int_eq(system(command), 0);
    all_forbidden(b.cookie, b.csrf);
    tc_close(&mei);
    stop();
}
END_TEST

START_TEST(test_logins_exports_and_logouts_are_in_the_audit_log_newest_first)
{
    start();
    table_client mei;
    int64_t mei_id = register_account(&mei, "Mei", "mei");
    grant("mei");
    admin_client a = admin_login("mei");
    http_response r = call("GET", "/api/admin/ledger.csv?reason=settle&game=tiengow", a.cookie, NULL, NULL);
    expect_status(&r, 200, NULL);
    r = call("POST", "/api/admin/logout", a.cookie, a.csrf, NULL);
    expect_status(&r, 200, NULL);
    admin_client b = admin_login("mei");

    json_t *log = admin_get(&b, "/api/admin/audit");
    json_t *entries = json_object_get(log, "entries");
    ck_assert_uint_eq(json_array_size(entries), 5);
    static const char *const actions[] = {"login", "logout", "ledger.export", "login", "grant"};
    for (size_t i = 0; i < 5; i++) {
        json_t *e = json_array_get(entries, i);
        ck_assert_str_eq(json_string_value(json_object_get(e, "action")), actions[i]);
        ck_assert_int_eq(json_integer_value(json_object_get(e, "player")), mei_id);
        ck_assert_str_eq(json_string_value(json_object_get(e, "account")), "mei");
        ck_assert_int_eq(json_integer_value(json_object_get(e, "id")), 5 - (int64_t)i);
    }
    json_t *filter = json_object_get(json_object_get(json_array_get(entries, 2), "details"), "filter");
    ck_assert_str_eq(json_string_value(json_object_get(filter, "reason")), "settle");
    ck_assert_str_eq(json_string_value(json_object_get(filter, "game")), "tiengow");
    ck_assert_ptr_nonnull(json_string_value(json_object_get(json_object_get(json_array_get(entries, 3), "details"), "peer")));
    /* The command line's grant names the account it changed. */
    json_t *granted = json_object_get(json_array_get(entries, 4), "details");
    ck_assert_str_eq(json_string_value(json_object_get(granted, "account")), "mei");
    ck_assert_str_eq(json_string_value(json_object_get(granted, "by")), "command line");
    json_decref(log);

    json_t *older = admin_get(&b, "/api/admin/audit?limit=2&before=4");
    ck_assert_uint_eq(json_array_size(json_object_get(older, "entries")), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(older, "next")), 2);
    json_decref(older);

    /* The filters: by action, by player, both; a bad action is refused. */
    json_t *logins = admin_get(&b, "/api/admin/audit?action=login");
    ck_assert_uint_eq(json_array_size(json_object_get(logins, "entries")), 2);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(logins, "entries"), 1), "action")),
                     "login");
    json_decref(logins);
    char path[128];
    snprintf(path, sizeof path, "/api/admin/audit?player=%" PRId64 "&action=logout", mei_id);
    json_t *mine = admin_get(&b, path);
    ck_assert_uint_eq(json_array_size(json_object_get(mine, "entries")), 1);
    json_decref(mine);
    snprintf(path, sizeof path, "/api/admin/audit?player=%" PRId64, mei_id + 1000);
    json_t *none = admin_get(&b, path);
    ck_assert_uint_eq(json_array_size(json_object_get(none, "entries")), 0);
    json_decref(none);
    r = call("GET", "/api/admin/audit?action=DROP%20TABLE", b.cookie, NULL, NULL);
    expect_status(&r, 400, "bad_filter");
    r = call("GET", "/api/admin/audit?player=abc", b.cookie, NULL, NULL);
    expect_status(&r, 400, "bad_filter");
    r = call("GET", "/api/admin/audit?limit=500", b.cookie, NULL, NULL);
    expect_status(&r, 400, "bad_filter");
    tc_close(&mei);
    stop();
}
END_TEST

START_TEST(test_failed_logins_are_throttled_per_account_and_address)
{
    start();
    table_client mei;
    register_account(&mei, "Mei", "mei");
    grant("mei");
    int refused = 0, throttled = 0;
    for (int i = 0; i < 8 && throttled == 0; i++) {
        http_response r = login_call("mei", "not the password");
        refused += r.status == 401;
        if (r.status == 429) {
            char retry[32];
            ck_assert(http_header(&r, "retry-after", retry, sizeof retry));
            ck_assert_int_gt(atoi(retry), 0);
            throttled++;
        }
        http_response_free(&r);
    }
    ck_assert_int_eq(refused, 5);
    ck_assert_int_eq(throttled, 1);
    http_response r = login_call("mei", "jasmine tea"); /* even the right password waits */
    expect_status(&r, 429, "too_many_attempts");
    tc_close(&mei);
    stop();
}
END_TEST

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s TEAHOUSE WEB_ROOT\n", argv[0]);
        return 2;
    }
    binary = argv[1];
    web_root = argv[2];
    Suite *suite = suite_create("admin");
    TCase *tc = tcase_create("admin");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_every_route_refuses_no_cookie_a_forged_one_a_player_session_a_non_admin_and_a_guest);
    tcase_add_test(tc, test_ledger_filters_narrow_the_rows_and_bad_values_are_refused_with_the_reason);
    tcase_add_test(tc, test_pages_neither_lose_nor_repeat_rows_while_hands_are_played_between_them);
    tcase_add_test(tc, test_the_csv_export_quotes_commas_quotes_and_keeps_chinese_names);
    tcase_add_test(tc, test_a_long_export_streams_every_row_once_newest_first);
    tcase_add_test(tc, test_a_post_without_the_csrf_token_is_refused_and_logout_ends_the_session);
    tcase_add_test(tc, test_logins_exports_and_logouts_are_in_the_audit_log_newest_first);
    tcase_add_test(tc, test_failed_logins_are_throttled_per_account_and_address);
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? 0 : 1;
}
