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

#include "game.h"
#include "http_client.h"
#include "server_process.h"
#include "table_client.h"

static const char *binary;
static const char *web_root;
static server_process server;
static char db_dir[64];
static char db_path[96];

/* ---- The server on a database of the test's own ---- */

/* (Re)starts the server on the test's database. */
static void start_server(void)
{
    const char *args[] = {"--bot-delay-ms", "5", "--next-hand-seconds", "0", "--web-root", web_root, "--db", db_path,
                          NULL};
    ck_assert_msg(server_process_start(&server, binary, args, 10000), "the server did not start");
}

static void start(void)
{
    snprintf(db_dir, sizeof db_dir, "/tmp/teahouse-admin-XXXXXX");
    ck_assert(mkdtemp(db_dir) != NULL);
    snprintf(db_path, sizeof db_path, "%s/teahouse.db", db_dir);
    start_server();
}

/* Stops the server, keeping its database. */
static void stop_server(void)
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
}

static void remove_db_files(void)
{
    static const char *const SUFFIXES[] = {"", "-wal", "-shm", ".lock", ".key"};
    for (size_t i = 0; i < sizeof SUFFIXES / sizeof SUFFIXES[0]; i++) {
        char path[sizeof db_path + 8];
        snprintf(path, sizeof path, "%s%s", db_path, SUFFIXES[i]);
        unlink(path);
    }
    rmdir(db_dir);
}

static void stop(void)
{
    stop_server();
    remove_db_files();
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
    {"GET", "/api/admin/ledger"},       {"GET", "/api/admin/ledger.csv"}, {"GET", "/api/admin/audit"},
    {"POST", "/api/admin/logout"},      {"GET", "/api/admin/players"},    {"GET", "/api/admin/players/1"},
    {"GET", "/api/admin/tables"},       {"GET", "/api/admin/tables/1"},   {"GET", "/api/admin/hands/1"},
    {"POST", "/api/admin/integrity"},   {"GET", "/api/admin/integrity"},  {"POST", "/api/admin/adjustments"},
    {"GET", "/api/admin/live"},
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
    grant("lan"); /* an admin whose flag is taken away loses the session at once */
    admin_client was = admin_login("lan");
    json_decref(admin_get(&was, "/api/admin/players"));
    char command[512];
    snprintf(command, sizeof command, "'%s' admin revoke lan --db '%s' >/dev/null 2>&1", binary, db_path);
    ck_assert_int_eq(system(command), 0);
    all_forbidden(was.cookie, was.csrf);
    json_t *log = admin_get(&a, "/api/admin/audit?action=revoke"); /* the command line's change is audited */
    json_t *entries = json_object_get(log, "entries");
    ck_assert_uint_eq(json_array_size(entries), 1);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(json_array_get(entries, 0), "details"), "account")),
                     "lan");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(entries, 0), "account")), "lan");
    json_decref(log);
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


/* ---- Players, tables, hands, adjustments, integrity, live ---- */

static http_response admin_post(const admin_client *a, const char *path, const char *body)
{
    return call("POST", path, a->cookie, a->csrf, body);
}

/* c opens a table of `game` with four bots (c only watches) and waits for its one hand to end
 * (a table of bots alone stops after it). Answers the table's code in c->code. */
static void bots_play_a_hand(table_client *c, const char *game)
{
    json_t *reply = request_ok(
        c, json_pack("{s:s, s:s, s:{}, s:b}", "type", "create_table", "game", game, "options", "public", false),
        "snapshot");
    snprintf(c->code, sizeof c->code, "%s", json_string_value(json_object_get(reply, "table")));
    json_decref(reply);
    json_decref(request_ok(c, json_pack("{s:s, s:s}", "type", "leave_seat", "code", c->code), "ok"));
    for (int s = 0; s < 4; s++)
        json_decref(request_ok(c, json_pack("{s:s, s:i, s:s}", "type", "add_bot", "seat", s, "code", c->code), "ok"));
    const int before = c->hands_over;
    json_decref(request_ok(c, json_pack("{s:s, s:s}", "type", "start", "code", c->code), "ok"));
    ck_assert_msg(tc_play_until(c, before + 1, 60000, false), "the %s hand did not end", game);
}


/* A Tianjin hand played by the engine's bots here (a table of bots plays Tianjin slowly: each
 * claim window lasts its full seconds, by design) and written into the database as the server
 * writes a hand: a closed table, the hand with its seed, deal, state and result, and its actions.
 * No ledger rows: the chain is the server's to write. Answers the hand's id; code_out the
 * table's code. */
static int64_t insert_tianjin_hand(char code_out[16])
{
    const game_ops *g = game_find("tianjin");
    ck_assert_ptr_nonnull(g);
    char msg[GAME_MESSAGE_SIZE];
    json_t *options = g->options_parse(NULL, msg, sizeof msg);
    const uint64_t seed = 20261124;
    json_t *state = g->table_state_new(options, seed);
    game_hand *h = g->hand_new(options, seed, state);
    ck_assert_ptr_nonnull(h);
    json_t *deal = g->deal_json(h);
    json_t *actions = json_array();
    for (int guard = 0; guard < 5000 && !g->is_over(h); guard++) {
        game_decision d[GAME_SEATS];
        ck_assert_int_gt(g->decisions(h, d), 0);
        json_t *a = g->bot_action(h, d[0].seat);
        if (a == NULL)
            a = g->timeout_action ? g->timeout_action(h, d[0].seat) : NULL;
        ck_assert_ptr_nonnull(a);
        ck_assert_msg(g->act(h, d[0].seat, a, msg, sizeof msg) == NULL, "%s", msg);
        json_array_append_new(actions, json_pack("{s:i, s:o}", "seat", d[0].seat, "action", a));
    }
    ck_assert(g->is_over(h));
    json_t *result = g->result_json(h);
    char *options_text = json_dumps(options, JSON_COMPACT);
    char *state_text = json_dumps(state, JSON_COMPACT | JSON_SORT_KEYS);
    char *deal_text = json_dumps(deal, JSON_COMPACT);
    char *result_text = json_dumps(result, JSON_COMPACT);
    snprintf(code_out, 16, "MJ%06d", rand() % 1000000);

    sqlite3 *db = NULL;
    ck_assert_int_eq(sqlite3_open(db_path, &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    ck_assert_int_eq(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_stmt *st = NULL;
    ck_assert_int_eq(sqlite3_prepare_v2(db,
                                        "INSERT INTO game_tables (game, options, code, is_public, seats, state,"
                                        " hands_played, created_at, updated_at, turn_seconds, game_state) VALUES"
                                        " ('tianjin', ?1, ?2, 0, '[\"bot\",\"bot\",\"bot\",\"bot\"]', 'closed', 1,"
                                        " 1700000000000, 1700000000000, 30, ?3)",
                                        -1, &st, NULL),
                     SQLITE_OK);
    sqlite3_bind_text(st, 1, options_text, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, code_out, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, state_text, -1, SQLITE_STATIC);
    ck_assert_int_eq(sqlite3_step(st), SQLITE_DONE);
    sqlite3_finalize(st);
    const int64_t table_id = sqlite3_last_insert_rowid(db);
    ck_assert_int_eq(sqlite3_prepare_v2(db,
                                        "INSERT INTO hands (table_id, number, seed, deal, game_state, started_at,"
                                        " result, finished_at) VALUES (?1, 1, ?2, ?3, ?4, 1700000000000, ?5,"
                                        " 1700000060000)",
                                        -1, &st, NULL),
                     SQLITE_OK);
    sqlite3_bind_int64(st, 1, table_id);
    sqlite3_bind_int64(st, 2, (int64_t)seed);
    sqlite3_bind_text(st, 3, deal_text, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, state_text, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, result_text, -1, SQLITE_STATIC);
    ck_assert_int_eq(sqlite3_step(st), SQLITE_DONE);
    sqlite3_finalize(st);
    const int64_t hand_id = sqlite3_last_insert_rowid(db);
    ck_assert_int_eq(sqlite3_prepare_v2(db, "INSERT INTO hand_actions (hand_id, seq, seat, action, at)"
                                            " VALUES (?1, ?2, ?3, ?4, 1700000030000)",
                                        -1, &st, NULL),
                     SQLITE_OK);
    size_t i;
    json_t *a;
    json_array_foreach(actions, i, a)
    {
        char *text = json_dumps(json_object_get(a, "action"), JSON_COMPACT);
        sqlite3_bind_int64(st, 1, hand_id);
        sqlite3_bind_int64(st, 2, (int64_t)i + 1);
        sqlite3_bind_int(st, 3, (int)json_integer_value(json_object_get(a, "seat")));
        sqlite3_bind_text(st, 4, text, -1, SQLITE_TRANSIENT);
        ck_assert_int_eq(sqlite3_step(st), SQLITE_DONE);
        sqlite3_reset(st);
        free(text);
    }
    sqlite3_finalize(st);
    ck_assert_int_eq(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    free(options_text);
    free(state_text);
    free(deal_text);
    free(result_text);
    json_decref(result);
    json_decref(actions);
    json_decref(deal);
    g->hand_free(h);
    json_decref(state);
    json_decref(options);
    return hand_id;
}

/* The id of the newest table whose code is `code`. */
static int64_t table_id_of(const admin_client *a, const char *code)
{
    char path[128];
    snprintf(path, sizeof path, "/api/admin/tables?code=%s", code);
    json_t *page = admin_get(a, path);
    json_t *tables = json_object_get(page, "tables");
    ck_assert_uint_eq(json_array_size(tables), 1);
    int64_t id = json_integer_value(json_object_get(json_array_get(tables, 0), "id"));
    json_decref(page);
    return id;
}

static int64_t ledger_rows(const admin_client *a)
{
    json_t *page = admin_get(a, "/api/admin/ledger?limit=1");
    int64_t rows = json_integer_value(json_object_get(json_object_get(page, "totals"), "rows"));
    json_decref(page);
    return rows;
}

START_TEST(test_players_are_listed_newest_first_filtered_by_name_and_kind_and_paged)
{
    start();
    table_client mei, lan, bo;
    int64_t mei_id = register_account(&mei, "Mei", "mei");
    int64_t lan_id = register_account(&lan, "Lanfen", "lanfen");
    connect_as(&bo, "Bo", NULL);
    grant("mei");
    play_with_bots(&mei, 1);
    play_with_bots(&bo, 1); /* a guest who played is kept */
    admin_client a = admin_login("mei");

    json_t *page = admin_get(&a, "/api/admin/players?kind=account");
    json_t *players = json_object_get(page, "players");
    ck_assert_uint_eq(json_array_size(players), 2); /* never the adjustments account */
    json_t *first = json_array_get(players, 0), *second = json_array_get(players, 1);
    ck_assert_int_eq(json_integer_value(json_object_get(first, "id")), lan_id); /* newest first */
    ck_assert_str_eq(json_string_value(json_object_get(first, "account")), "lanfen");
    ck_assert(json_is_false(json_object_get(first, "admin")));
    ck_assert_int_eq(json_integer_value(json_object_get(second, "id")), mei_id);
    ck_assert(json_is_true(json_object_get(second, "admin")));
    /* her settle rows: one hand played, and more if the next deal was a natural hand (the table
     * deals on at once, and a natural hand ends without her) */
    char settled_path[96];
    snprintf(settled_path, sizeof settled_path, "/api/admin/ledger?limit=1&reason=settle&player=%lld", (long long)mei_id);
    json_t *settled = admin_get(&a, settled_path);
    const json_int_t settled_rows = json_integer_value(json_object_get(json_object_get(settled, "totals"), "rows"));
    json_decref(settled);
    ck_assert_int_ge(settled_rows, 1);
    ck_assert_int_eq(json_integer_value(json_object_get(second, "hands")), settled_rows);
    ck_assert_int_gt(json_integer_value(json_object_get(second, "created_at")), 0);
    ck_assert(json_is_integer(json_object_get(second, "balance")));
    ck_assert(json_is_null(json_object_get(page, "next")));
    json_decref(page);

    page = admin_get(&a, "/api/admin/players?q=LAN"); /* a prefix of the account, any case */
    ck_assert_uint_eq(json_array_size(json_object_get(page, "players")), 1);
    json_decref(page);
    page = admin_get(&a, "/api/admin/players?q=an"); /* not a prefix */
    ck_assert_uint_eq(json_array_size(json_object_get(page, "players")), 0);
    json_decref(page);
    page = admin_get(&a, "/api/admin/players?q=%25"); /* a wildcard is a character like any other */
    ck_assert_uint_eq(json_array_size(json_object_get(page, "players")), 0);
    json_decref(page);
    page = admin_get(&a, "/api/admin/players?kind=guest");
    players = json_object_get(page, "players");
    ck_assert_uint_ge(json_array_size(players), 1);
    size_t i;
    json_t *p;
    json_array_foreach(players, i, p) ck_assert(json_is_null(json_object_get(p, "account")));
    json_decref(page);

    /* Paging: one at a time, each page below the last id, none twice. */
    page = admin_get(&a, "/api/admin/players?limit=1");
    ck_assert_uint_eq(json_array_size(json_object_get(page, "players")), 1);
    int64_t next = json_integer_value(json_object_get(page, "next"));
    ck_assert_int_gt(next, 0);
    json_decref(page);
    char path[128];
    snprintf(path, sizeof path, "/api/admin/players?limit=1&before=%" PRId64, next);
    page = admin_get(&a, path);
    ck_assert_int_lt(json_integer_value(json_object_get(json_array_get(json_object_get(page, "players"), 0), "id")),
                     next);
    json_decref(page);

    static const char *const bad[] = {"/api/admin/players?kind=admin", "/api/admin/players?limit=0",
                                      "/api/admin/players?limit=201", "/api/admin/players?before=-3",
                                      "/api/admin/players?q=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        http_response r = call("GET", bad[k], a.cookie, NULL, NULL);
        expect_status(&r, 400, "bad_filter");
    }
    http_response r = call("GET", "/api/admin/players/999999", a.cookie, NULL, NULL);
    expect_status(&r, 404, "not_found");
    r = call("GET", "/api/admin/players/abc", a.cookie, NULL, NULL);
    expect_status(&r, 404, "not_found");
    r = call("GET", "/api/admin/players/-1", a.cookie, NULL, NULL);
    expect_status(&r, 404, "not_found");
    tc_close(&mei);
    tc_close(&lan);
    tc_close(&bo);
    stop();
}
END_TEST

START_TEST(test_a_player_shows_net_by_day_and_the_tables_they_played)
{
    start();
    table_client mei;
    int64_t mei_id = register_account(&mei, "Mei", "mei");
    grant("mei");
    play_with_bots(&mei, 1);
    char first_code[16];
    snprintf(first_code, sizeof first_code, "%s", mei.code);
    json_decref(request_ok(&mei, json_pack("{s:s, s:s}", "type", "leave_table", "code", first_code), "ok"));
    usleep(300 * 1000); /* a hand begun meanwhile is played out by a bot, for her */
    play_with_bots(&mei, mei.hands_over + 1); /* a second table */
    admin_client a = admin_login("mei");

    char path[128];
    snprintf(path, sizeof path, "/api/admin/players/%" PRId64, mei_id);
    json_t *j = admin_get(&a, path);
    json_t *player = json_object_get(j, "player");
    ck_assert_int_eq(json_integer_value(json_object_get(player, "id")), mei_id);
    snprintf(path, sizeof path, "/api/admin/ledger?player=%" PRId64 "&reason=settle", mei_id);
    json_t *settles = admin_get(&a, path);
    const int64_t played = json_integer_value(json_object_get(json_object_get(settles, "totals"), "rows"));
    json_decref(settles);
    ck_assert_int_ge(played, 2);
    ck_assert_int_eq(json_integer_value(json_object_get(player, "hands")), played);
    json_t *days = json_object_get(j, "by_day");
    ck_assert_uint_eq(json_array_size(days), 1); /* all today */
    const char *day = json_string_value(json_object_get(json_array_get(days, 0), "day"));
    ck_assert_uint_eq(strlen(day), 10);
    ck_assert(day[4] == '-' && day[7] == '-');
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(days, 0), "hands")), played);
    const int64_t day_net = json_integer_value(json_object_get(json_array_get(days, 0), "net"));
    /* The day's net is the player's balance (no other rows) and the sum of the ledger's rows. */
    ck_assert_int_eq(day_net, json_integer_value(json_object_get(player, "balance")));
    snprintf(path, sizeof path, "/api/admin/ledger?player=%" PRId64, mei_id);
    json_t *ledger = admin_get(&a, path);
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(ledger, "totals"), "units")), day_net);
    json_decref(ledger);
    json_t *tables = json_object_get(j, "tables");
    ck_assert_uint_eq(json_array_size(tables), 2);
    int64_t hands = 0, net = 0;
    size_t i;
    json_t *t;
    json_array_foreach(tables, i, t)
    {
        hands += json_integer_value(json_object_get(t, "hands"));
        net += json_integer_value(json_object_get(t, "net"));
        ck_assert_str_eq(json_string_value(json_object_get(t, "game")), "tiengow");
        ck_assert_int_gt(json_integer_value(json_object_get(t, "last_at")), 0);
    }
    ck_assert_int_eq(hands, played);
    ck_assert_int_eq(net, day_net);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(tables, 1), "code")), first_code); /* latest first */
    json_decref(j);
    tc_close(&mei);
    stop();
}
END_TEST

START_TEST(test_tables_are_filtered_by_code_game_and_state_and_a_table_shows_every_hand_with_its_seats)
{
    start();
    table_client mei, w;
    int64_t mei_id = register_account(&mei, "Mei", "mei");
    grant("mei");
    play_with_bots(&mei, 2);
    connect_as(&w, "Watcher", NULL);
    insert_tianjin_hand(w.code);
    admin_client a = admin_login("mei");

    json_t *page = admin_get(&a, "/api/admin/tables");
    ck_assert_uint_eq(json_array_size(json_object_get(page, "tables")), 2); /* no adjustments table */
    json_decref(page);
    page = admin_get(&a, "/api/admin/tables?game=tianjin");
    json_t *tables = json_object_get(page, "tables");
    ck_assert_uint_eq(json_array_size(tables), 1);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(tables, 0), "code")), w.code);
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(tables, 0), "hands")), 1);
    json_decref(page);
    page = admin_get(&a, "/api/admin/tables?state=closed");
    ck_assert_uint_eq(json_array_size(json_object_get(page, "tables")), 1);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(page, "tables"), 0), "game")),
                     "tianjin");
    json_decref(page);
    page = admin_get(&a, "/api/admin/tables?state=open&limit=1");
    ck_assert_uint_eq(json_array_size(json_object_get(page, "tables")), 1);
    ck_assert(json_is_integer(json_object_get(page, "next")));
    json_decref(page);
    static const char *const bad[] = {"/api/admin/tables?state=ajar", "/api/admin/tables?limit=300",
                                      "/api/admin/tables?before=x"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        http_response r = call("GET", bad[k], a.cookie, NULL, NULL);
        expect_status(&r, 400, "bad_filter");
    }

    char path[128];
    snprintf(path, sizeof path, "/api/admin/tables/%" PRId64, table_id_of(&a, mei.code));
    json_t *j = admin_get(&a, path);
    json_t *table = json_object_get(j, "table");
    ck_assert_str_eq(json_string_value(json_object_get(table, "game")), "tiengow");
    ck_assert(json_is_object(json_object_get(table, "options")));
    ck_assert(json_is_integer(json_object_get(json_object_get(table, "game_state"), "banker")));
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(table, "host"), "id")), mei_id);
    json_t *hands = json_object_get(j, "hands");
    ck_assert_uint_ge(json_array_size(hands), 2);
    json_t *h0 = json_array_get(hands, 0);
    ck_assert_int_eq(json_integer_value(json_object_get(h0, "number")), 1); /* oldest first */
    ck_assert(json_is_integer(json_object_get(json_object_get(h0, "game_state"), "multiplier")));
    json_t *seats = json_object_get(h0, "seats");
    ck_assert_uint_eq(json_array_size(seats), 4);
    int64_t sum = 0, humans = 0;
    for (size_t s = 0; s < 4; s++) {
        json_t *seat = json_array_get(seats, s);
        sum += json_integer_value(json_object_get(seat, "net"));
        if (!json_is_true(json_object_get(seat, "bot"))) {
            humans++;
            ck_assert_int_eq(json_integer_value(json_object_get(seat, "player")), mei_id);
            ck_assert_str_eq(json_string_value(json_object_get(seat, "nickname")), "Mei");
        }
    }
    ck_assert_int_eq(sum, 0);
    ck_assert_int_eq(humans, 1);
    json_t *summary = json_object_get(h0, "summary"); /* Tien Gow: who won, nothing more */
    ck_assert_uint_eq(json_object_size(summary), 1);
    ck_assert(json_is_integer(json_object_get(summary, "winner")) || json_is_null(json_object_get(summary, "winner")));
    ck_assert_ptr_null(json_object_get(h0, "result"));
    json_decref(j);

    snprintf(path, sizeof path, "/api/admin/tables/%" PRId64, table_id_of(&a, w.code));
    j = admin_get(&a, path);
    json_t *state = json_object_get(json_array_get(json_object_get(j, "hands"), 0), "game_state");
    ck_assert(json_is_integer(json_object_get(state, "banker")));
    ck_assert(json_is_integer(json_object_get(state, "count")));
    ck_assert_ptr_nonnull(json_object_get(state, "must_sit"));
    /* Tianjin: whether the banker sat and each seat's pulls, from the stored result */
    json_t *mj = json_array_get(json_object_get(j, "hands"), 0);
    summary = json_object_get(mj, "summary");
    ck_assert(json_is_boolean(json_object_get(summary, "sat")));
    json_t *pulls = json_object_get(summary, "pulls");
    ck_assert_uint_eq(json_array_size(pulls), 4);
    for (size_t s = 0; s < 4; s++)
        ck_assert(json_is_integer(json_array_get(pulls, s)));
    ck_assert_ptr_nonnull(json_object_get(summary, "winner"));
    ck_assert_uint_eq(json_object_size(summary), 3);
    ck_assert_ptr_null(json_object_get(mj, "result"));
    json_decref(j);
    http_response r = call("GET", "/api/admin/tables/424242", a.cookie, NULL, NULL);
    expect_status(&r, 404, "not_found");
    tc_close(&mei);
    tc_close(&w);
    stop();
}
END_TEST

/* The hand's steps: the deal shows all four hands, each step follows an action, the last is over. */
static void check_steps(const admin_client *a, int64_t hand_id, const char *game, size_t deal_tiles_min,
                        bool with_rows)
{
    char path[128];
    snprintf(path, sizeof path, "/api/admin/hands/%" PRId64, hand_id);
    json_t *j = admin_get(a, path);
    json_t *hand = json_object_get(j, "hand");
    ck_assert_str_eq(json_string_value(json_object_get(hand, "game")), game);
    ck_assert(json_is_object(json_object_get(hand, "result")));
    ck_assert(json_is_integer(json_object_get(hand, "finished_at")));
    ck_assert_uint_eq(json_array_size(json_object_get(hand, "seats")), 4);
    json_t *lines = json_object_get(j, "lines");
    ck_assert_uint_ge(json_array_size(lines), with_rows ? 4 : 0);
    json_t *seat0 = json_array_get(json_object_get(hand, "seats"), 0);
    ck_assert(with_rows ? json_is_integer(json_object_get(seat0, "net")) : json_is_null(json_object_get(seat0, "net")));
    int64_t sum = 0;
    size_t i;
    json_t *l;
    json_array_foreach(lines, i, l) sum += json_integer_value(json_object_get(l, "units"));
    ck_assert_int_eq(sum, 0);
    json_t *steps = json_object_get(j, "steps");
    ck_assert_uint_ge(json_array_size(steps), 2);
    json_t *deal = json_array_get(steps, 0);
    ck_assert_int_eq(json_integer_value(json_object_get(deal, "n")), 0);
    ck_assert(json_is_null(json_object_get(deal, "action")));
    json_t *hands = json_object_get(json_object_get(deal, "view"), "hands");
    ck_assert_uint_eq(json_array_size(hands), 4);
    for (size_t s = 0; s < 4; s++)
        ck_assert_uint_ge(json_array_size(json_array_get(hands, s)), deal_tiles_min);
    ck_assert(json_is_false(json_object_get(json_object_get(deal, "view"), "over")));
    json_t *step;
    json_array_foreach(steps, i, step)
    {
        ck_assert_int_eq(json_integer_value(json_object_get(step, "n")), (int64_t)i);
        if (i > 0) {
            ck_assert(json_is_object(json_object_get(step, "action")));
            ck_assert(json_is_integer(json_object_get(step, "seat")));
        }
    }
    json_t *last = json_array_get(steps, json_array_size(steps) - 1);
    ck_assert(json_is_true(json_object_get(json_object_get(last, "view"), "over")));
    json_decref(j);
}

/* The id of hand 1 of the table with that code. */
static int64_t first_hand_of(const admin_client *a, const char *code)
{
    char path[128];
    snprintf(path, sizeof path, "/api/admin/tables/%" PRId64, table_id_of(a, code));
    json_t *j = admin_get(a, path);
    int64_t id = json_integer_value(json_object_get(json_array_get(json_object_get(j, "hands"), 0), "id"));
    json_decref(j);
    return id;
}

START_TEST(test_a_hand_replays_step_by_step_for_both_games_from_the_deal_to_the_finished_hand)
{
    start();
    table_client mei, w;
    register_account(&mei, "Mei", "mei");
    grant("mei");
    connect_as(&w, "Watcher", NULL);
    bots_play_a_hand(&w, "tiengow");
    char mj_code[16];
    const int64_t mj_hand = insert_tianjin_hand(mj_code);
    admin_client a = admin_login("mei");

    const int64_t tg_hand = first_hand_of(&a, w.code);
    ck_assert_int_eq(first_hand_of(&a, mj_code), mj_hand);
    check_steps(&a, tg_hand, "tiengow", 8, true);
    check_steps(&a, mj_hand, "tianjin", 13, false); /* written without ledger rows */
    json_t *log = admin_get(&a, "/api/admin/audit?action=hand.view");
    json_t *entries = json_object_get(log, "entries");
    ck_assert_uint_eq(json_array_size(entries), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(json_array_get(entries, 0), "details"), "hand")),
                     mj_hand);
    json_decref(log);
    http_response r = call("GET", "/api/admin/hands/987654", a.cookie, NULL, NULL);
    expect_status(&r, 404, "not_found");
    r = call("GET", "/api/admin/hands/0", a.cookie, NULL, NULL);
    expect_status(&r, 404, "not_found");
    r = call("GET", "/api/admin/hands/1x", a.cookie, NULL, NULL);
    expect_status(&r, 404, "not_found");
    tc_close(&mei);
    tc_close(&w);
    stop();
}
END_TEST

/* Starts the integrity check and waits for it; answers its final state (owned). */
static json_t *run_integrity(const admin_client *a)
{
    http_response r = admin_post(a, "/api/admin/integrity", NULL);
    ck_assert_msg(r.status == 202, "start: %d %s", r.status, r.body);
    http_response_free(&r);
    for (int i = 0; i < 600; i++) {
        json_t *j = admin_get(a, "/api/admin/integrity");
        if (strcmp(json_string_value(json_object_get(j, "state")), "done") == 0)
            return j;
        ck_assert_str_eq(json_string_value(json_object_get(j, "state")), "running");
        json_decref(j);
        usleep(50 * 1000);
    }
    ck_abort_msg("the integrity check did not finish");
    return NULL;
}

/* Copies stored hand `hand_id` (with its actions) n times at its table, as hands numbered after
 * it: enough hands that a check over them takes a while. */
static void copy_hand(int64_t hand_id, int n)
{
    sqlite3 *db = NULL;
    ck_assert_int_eq(sqlite3_open(db_path, &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    char sql[1024];
    snprintf(sql, sizeof sql,
             "BEGIN IMMEDIATE;"
             " INSERT INTO hands (table_id, number, seed, deal, game_state, started_at, result, finished_at)"
             " SELECT h.table_id, h.number + c.k, h.seed, h.deal, h.game_state, h.started_at, h.result, h.finished_at"
             " FROM hands AS h, (WITH RECURSIVE c(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM c WHERE k < %d)"
             " SELECT k FROM c) AS c WHERE h.id = %" PRId64 ";"
             " INSERT INTO hand_actions (hand_id, seq, seat, action, at) SELECT h.id, a.seq, a.seat, a.action, a.at"
             " FROM hands AS h JOIN hand_actions AS a ON a.hand_id = %" PRId64 " WHERE h.table_id ="
             " (SELECT table_id FROM hands WHERE id = %" PRId64 ") AND h.id <> %" PRId64 ";"
             " COMMIT;",
             n, hand_id, hand_id, hand_id, hand_id);
    char *err = NULL;
    ck_assert_msg(sqlite3_exec(db, sql, NULL, NULL, &err) == SQLITE_OK, "%s", err ? err : "");
    sqlite3_close(db);
}

START_TEST(test_a_second_start_while_the_check_runs_is_refused_and_starts_nothing)
{
    start();
    table_client mei;
    register_account(&mei, "Mei", "mei");
    grant("mei");
    char code[16];
    copy_hand(insert_tianjin_hand(code), 4000); /* thousands of hands: the check runs a good while */
    admin_client a = admin_login("mei");
    http_response r = admin_post(&a, "/api/admin/integrity", NULL);
    ck_assert_msg(r.status == 202, "start: %d %s", r.status, r.body);
    http_response_free(&r);
    r = admin_post(&a, "/api/admin/integrity", NULL);
    expect_status(&r, 409, "running");
    json_t *j = admin_get(&a, "/api/admin/integrity");
    ck_assert_str_eq(json_string_value(json_object_get(j, "state")), "running");
    json_decref(j);
    json_t *done = NULL;
    for (int i = 0; i < 1200 && done == NULL; i++) {
        j = admin_get(&a, "/api/admin/integrity");
        if (strcmp(json_string_value(json_object_get(j, "state")), "done") == 0)
            done = j;
        else {
            json_decref(j);
            usleep(50 * 1000);
        }
    }
    ck_assert_msg(done != NULL, "the integrity check did not finish");
    ck_assert_int_eq(json_integer_value(json_object_get(done, "hands_checked")), 4001);
    json_decref(done);
    json_t *log = admin_get(&a, "/api/admin/audit?action=integrity.start");
    ck_assert_uint_eq(json_array_size(json_object_get(log, "entries")), 1); /* the refused start is not one */
    json_decref(log);
    tc_close(&mei);
    stop();
}
END_TEST

START_TEST(test_an_adjustment_writes_a_zero_sum_pair_in_the_chain_and_bad_ones_write_nothing)
{
    start();
    table_client mei, lan;
    int64_t mei_id = register_account(&mei, "Mei", "mei");
    int64_t lan_id = register_account(&lan, "Lan", "lan");
    grant("mei");
    play_with_bots(&mei, 1);
    admin_client a = admin_login("mei");
    const int64_t rows_before = ledger_rows(&a);

    char body[1024];
    snprintf(body, sizeof body, "{\"player\":%" PRId64 ",\"units\":-250,\"reason\":\"Refund, \\\"lost\\\" hand 茶\"}",
             lan_id);
    http_response r = call("POST", "/api/admin/adjustments", a.cookie, NULL, body); /* no anti-forgery token */
    expect_status(&r, 403, "forbidden");
    ck_assert_int_eq(ledger_rows(&a), rows_before);

    r = admin_post(&a, "/api/admin/adjustments", body);
    ck_assert_msg(r.status == 200, "%d %s", r.status, r.body);
    json_t *j = body_json(&r);
    http_response_free(&r);
    json_t *rows = json_object_get(j, "rows");
    ck_assert_uint_eq(json_array_size(rows), 2);
    json_t *mine = json_array_get(rows, 0), *counter = json_array_get(rows, 1);
    ck_assert_int_eq(json_integer_value(json_object_get(mine, "player")), lan_id);
    ck_assert_int_eq(json_integer_value(json_object_get(mine, "units")), -250);
    ck_assert_int_eq(json_integer_value(json_object_get(mine, "balance")), -250);
    ck_assert_int_eq(json_integer_value(json_object_get(counter, "units")), 250);
    ck_assert_int_ne(json_integer_value(json_object_get(counter, "player")), lan_id);
    ck_assert_str_eq(json_string_value(json_object_get(mine, "reason")), "adjustment");
    ck_assert_str_eq(json_string_value(json_object_get(counter, "reason")), "adjustment");
    ck_assert_int_eq(json_integer_value(json_object_get(counter, "id")), json_integer_value(json_object_get(mine, "id")) + 1);
    const int64_t first_row = json_integer_value(json_object_get(mine, "id"));
    json_decref(j);
    ck_assert_int_eq(ledger_rows(&a), rows_before + 2);
    json_t *totals = admin_get(&a, "/api/admin/ledger");
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(totals, "totals"), "units")), 0);
    json_decref(totals);

    /* Refused, each with nothing written. */
    static const char *const bad[] = {
        "{\"player\":%lld,\"units\":0,\"reason\":\"zero\"}",
        "{\"player\":%lld,\"units\":1000001,\"reason\":\"too much\"}",
        "{\"player\":%lld,\"units\":-1000001,\"reason\":\"too little\"}",
        "{\"player\":%lld,\"units\":5,\"reason\":\"\"}",
        "{\"player\":%lld,\"units\":5}",
        "{\"player\":%lld,\"units\":5,\"reason\":\"tab\\there\"}",
        "{\"player\":%lld,\"units\":\"5\",\"reason\":\"text units\"}",
        "{\"player\":%lld,\"units\":5.5,\"reason\":\"half\"}",
        "{\"player\":%lld,\"units\":5,\"reason\":\"extra\",\"table\":1}",
        "[%lld]",
        "{\"player\":%lld999,\"units\":5,\"reason\":\"nobody\"}",
        "{\"player\":-1,\"units\":5,\"reason\":\"the adjustments account\"}",
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        snprintf(body, sizeof body, bad[k], (long long)lan_id);
        r = admin_post(&a, "/api/admin/adjustments", body);
        ck_assert_msg(r.status == 400, "%s: %d %s", body, r.status, r.body);
        http_response_free(&r);
    }
    char reason[700];
    memset(reason, 'x', 201);
    reason[201] = '\0';
    snprintf(body, sizeof body, "{\"player\":%lld,\"units\":5,\"reason\":\"%s\"}", (long long)lan_id, reason);
    r = admin_post(&a, "/api/admin/adjustments", body);
    expect_status(&r, 400, "invalid");
    ck_assert_int_eq(ledger_rows(&a), rows_before + 2);

    /* A reason is counted in characters: 200 of Chinese (600 bytes) is one. */
    reason[0] = '\0';
    for (int c = 0; c < 200; c++)
        strcat(reason, "茶");
    snprintf(body, sizeof body, "{\"player\":%lld,\"units\":7,\"reason\":\"%s\"}", (long long)mei_id, reason);
    r = admin_post(&a, "/api/admin/adjustments", body);
    expect_status(&r, 200, NULL);

    /* The chain verifies with them, and the audit log holds both with their rows. */
    json_t *check = run_integrity(&a);
    ck_assert_msg(json_is_true(json_object_get(check, "ok")), "%s", json_dumps(check, 0));
    ck_assert_int_eq(json_integer_value(json_object_get(check, "rows_checked")), rows_before + 4);
    json_decref(check);
    json_t *log = admin_get(&a, "/api/admin/audit?action=adjustment");
    json_t *entries = json_object_get(log, "entries");
    ck_assert_uint_eq(json_array_size(entries), 2);
    json_t *details = json_object_get(json_array_get(entries, 1), "details");
    ck_assert_int_eq(json_integer_value(json_object_get(details, "player")), lan_id);
    ck_assert_int_eq(json_integer_value(json_object_get(details, "units")), -250);
    ck_assert_str_eq(json_string_value(json_object_get(details, "reason")), "Refund, \"lost\" hand 茶");
    ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(details, "rows"), 0)), first_row);
    json_decref(log);
    tc_close(&mei);
    tc_close(&lan);
    stop_server();

    /* The command line agrees. */
    char command[512];
    snprintf(command, sizeof command, "'%s' admin verify --db '%s' >/dev/null 2>&1", binary, db_path);
    ck_assert_int_eq(system(command), 0);
    remove_db_files();
}
END_TEST

/* ---- Integrity on tampered databases ---- */

static void sql_on_db(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    char *err = NULL;
    ck_assert_msg(sqlite3_exec(db, sql, NULL, NULL, &err) == SQLITE_OK, "%s: %s", sql, err ? err : "");
    sqlite3_close(db);
}

static int64_t int_on_db(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_stmt *st = NULL;
    ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
    int64_t v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

/* The database (stopped) as it was, back from the copy; its key file never changes. */
static void restore(const char *copy)
{
    char path[160];
    snprintf(path, sizeof path, "%s-wal", db_path);
    unlink(path);
    snprintf(path, sizeof path, "%s-shm", db_path);
    unlink(path);
    unlink(db_path);
    char sql[256];
    snprintf(sql, sizeof sql, "VACUUM INTO '%s'", db_path);
    sql_on_db(copy, sql);
}

/* The problems of a check run on the tampered database (owned); the server is stopped after. */
static json_t *problems_after(const char *tamper)
{
    sql_on_db(db_path, "DROP TRIGGER ledger_is_append_only_update; DROP TRIGGER ledger_is_append_only_delete;");
    sql_on_db(db_path, tamper);
    start_server();
    admin_client a = admin_login("mei");
    json_t *check = run_integrity(&a);
    stop_server();
    ck_assert(json_is_false(json_object_get(check, "ok")));
    ck_assert_int_eq(json_integer_value(json_object_get(check, "hands_checked")),
                     json_integer_value(json_object_get(check, "hands_total")));
    json_t *problems = json_incref(json_object_get(check, "problems"));
    json_decref(check);
    return problems;
}

/* The first problem of that check (and, unless 0, that row), or NULL. */
static json_t *find_problem(json_t *problems, const char *check, int64_t row)
{
    size_t i;
    json_t *p;
    json_array_foreach(problems, i, p)
    {
        if (strcmp(json_string_value(json_object_get(p, "check")), check) == 0 &&
            (row == 0 || json_integer_value(json_object_get(p, "row")) == row))
            return p;
    }
    return NULL;
}

START_TEST(test_the_integrity_check_names_a_changed_amount_a_deleted_row_a_reordered_row_and_a_result_its_replay_denies)
{
    start();
    table_client mei;
    register_account(&mei, "Mei", "mei");
    grant("mei");
    play_with_bots(&mei, 3);
    admin_client a = admin_login("mei");
    json_t *clean = run_integrity(&a);
    ck_assert_msg(json_is_true(json_object_get(clean, "ok")), "%s", json_dumps(clean, 0));
    ck_assert_int_ge(json_integer_value(json_object_get(clean, "hands_checked")), 3);
    ck_assert_int_eq(json_integer_value(json_object_get(clean, "rows_checked")),
                     json_integer_value(json_object_get(clean, "rows_total")));
    ck_assert_uint_eq(json_array_size(json_object_get(clean, "problems")), 0);
    ck_assert_int_gt(json_integer_value(json_object_get(clean, "finished_at")), 0);
    json_decref(clean);
    json_t *log = admin_get(&a, "/api/admin/audit?action=integrity.start");
    ck_assert_uint_eq(json_array_size(json_object_get(log, "entries")), 1);
    json_decref(log);
    tc_close(&mei);
    stop_server();
    char copy[160];
    snprintf(copy, sizeof copy, "%s/clean.db", db_dir);
    char sql[256];
    snprintf(sql, sizeof sql, "VACUUM INTO '%s'", copy);
    sql_on_db(db_path, sql);

    /* A changed amount: its hash no longer matches, its hand no longer sums to zero, and its
     * replay gives another amount. */
    json_t *problems = problems_after("UPDATE ledger SET units = units + 5 WHERE id = 3");
    json_t *p = find_problem(problems, "chain", 3);
    ck_assert_msg(p != NULL, "%s", json_dumps(problems, 0));
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(p, "message")), "hash"));
    const int64_t hand_of_3 = int_on_db(db_path, "SELECT hand_id FROM ledger WHERE id = 3");
    ck_assert_int_eq(json_integer_value(json_object_get(find_problem(problems, "zero_sum", 0), "hand")), hand_of_3);
    ck_assert_int_eq(json_integer_value(json_object_get(find_problem(problems, "replay", 3), "hand")), hand_of_3);
    json_decref(problems);

    /* A deleted row (one that moved money, so its hand no longer sums to zero; the deals are
     * random, so it is looked up): the ids jump over it. */
    restore(copy);
    const int64_t gone =
        int_on_db(db_path, "SELECT min(id) FROM ledger WHERE units <> 0 AND id > 1 AND id < (SELECT max(id) FROM ledger)");
    ck_assert_int_gt(gone, 1);
    char delete_sql[96];
    snprintf(delete_sql, sizeof delete_sql, "DELETE FROM ledger WHERE id = %lld", (long long)gone);
    problems = problems_after(delete_sql);
    p = find_problem(problems, "chain", gone + 1);
    ck_assert_msg(p != NULL, "%s", json_dumps(problems, 0));
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(p, "message")), "missing"));
    ck_assert_ptr_nonnull(find_problem(problems, "zero_sum", 0));
    json_decref(problems);

    /* Two rows swapped: the first no longer follows the row before it. */
    restore(copy);
    problems = problems_after("UPDATE ledger SET id = -3 WHERE id = 3; UPDATE ledger SET id = 3 WHERE id = 2;"
                              " UPDATE ledger SET id = 2 WHERE id = -3;");
    ck_assert_msg(find_problem(problems, "chain", 2) != NULL, "%s", json_dumps(problems, 0));
    json_decref(problems);

    /* A stored result its replay does not give (the hands are not in the chain: only the replay
     * can tell). */
    restore(copy);
    const int64_t second_hand = int_on_db(db_path, "SELECT id FROM hands ORDER BY id LIMIT 1 OFFSET 1");
    problems = problems_after("UPDATE hands SET result = json_set(result, '$.forged', 1)"
                              " WHERE id = (SELECT id FROM hands ORDER BY id LIMIT 1 OFFSET 1)");
    ck_assert_uint_eq(json_array_size(problems), 1);
    p = json_array_get(problems, 0);
    ck_assert_str_eq(json_string_value(json_object_get(p, "check")), "replay");
    ck_assert_int_eq(json_integer_value(json_object_get(p, "hand")), second_hand);
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(p, "message")), "result"));
    json_decref(problems);

    /* And `teahouse admin verify` finds it too, naming the hand. */
    char command[512], out[2048] = "";
    snprintf(command, sizeof command, "'%s' admin verify --db '%s' 2>&1", binary, db_path);
    FILE *f = popen(command, "r");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    int status = pclose(f);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 1, "%s", out);
    char named[64];
    snprintf(named, sizeof named, "Hand %" PRId64 " (replay", second_hand);
    ck_assert_msg(strstr(out, named) != NULL, "%s", out);
    unlink(copy);
    remove_db_files();
}
END_TEST

START_TEST(test_live_shows_the_open_tables_their_seats_and_the_health_figures)
{
    start();
    table_client mei, w;
    register_account(&mei, "Mei", "mei");
    grant("mei");
    play_with_bots(&mei, 1);
    connect_as(&w, "Watcher", NULL);
    json_decref(request_ok(&w, json_pack("{s:s, s:s}", "type", "join_table", "code", mei.code), "snapshot"));
    admin_client a = admin_login("mei");
    json_t *j = admin_get(&a, "/api/admin/live");
    json_t *tables = json_object_get(j, "tables");
    ck_assert_uint_eq(json_array_size(tables), 1);
    json_t *t = json_array_get(tables, 0);
    ck_assert_str_eq(json_string_value(json_object_get(t, "code")), mei.code);
    ck_assert_str_eq(json_string_value(json_object_get(t, "game")), "tiengow");
    ck_assert(json_is_false(json_object_get(t, "public")));
    ck_assert(json_is_false(json_object_get(t, "paused")));
    ck_assert_int_ge(json_integer_value(json_object_get(t, "hand")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(t, "spectators")), 1);
    json_t *seats = json_object_get(t, "seats");
    ck_assert_uint_eq(json_array_size(seats), 4);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(seats, 0), "nickname")), "Mei");
    ck_assert(json_is_true(json_object_get(json_array_get(seats, 0), "connected")));
    ck_assert(json_is_false(json_object_get(json_array_get(seats, 0), "bot")));
    ck_assert(json_is_true(json_object_get(json_array_get(seats, 3), "bot")));
    ck_assert(json_is_null(json_object_get(json_array_get(seats, 3), "nickname")));
    json_t *health = json_object_get(j, "health");
    ck_assert_int_ge(json_integer_value(json_object_get(health, "connections")), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(health, "tables")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(health, "tables_paused")), 0);
    ck_assert_int_ge(json_integer_value(json_object_get(health, "uptime_s")), 0);
    ck_assert_int_gt(json_integer_value(json_object_get(health, "rss_bytes")), 1000000);
    ck_assert(json_is_integer(json_object_get(health, "store_queue")));
    json_decref(j);
    tc_close(&mei);
    tc_close(&w);
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
    tcase_add_test(tc, test_players_are_listed_newest_first_filtered_by_name_and_kind_and_paged);
    tcase_add_test(tc, test_a_player_shows_net_by_day_and_the_tables_they_played);
    tcase_add_test(tc, test_tables_are_filtered_by_code_game_and_state_and_a_table_shows_every_hand_with_its_seats);
    tcase_add_test(tc, test_a_hand_replays_step_by_step_for_both_games_from_the_deal_to_the_finished_hand);
    tcase_add_test(tc, test_an_adjustment_writes_a_zero_sum_pair_in_the_chain_and_bad_ones_write_nothing);
    tcase_add_test(tc,
                   test_the_integrity_check_names_a_changed_amount_a_deleted_row_a_reordered_row_and_a_result_its_replay_denies);
    tcase_add_test(tc, test_a_second_start_while_the_check_runs_is_refused_and_starts_nothing);
    tcase_add_test(tc, test_live_shows_the_open_tables_their_seats_and_the_health_figures);
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? 0 : 1;
}
