/*
 * hostile — the attacks of one anonymous client on the lobby, each sent to the real server over
 * real WebSockets, with what it must not achieve checked from outside (replies, and the database
 * read directly):
 *   - tables past the per-player cap are refused before anything is made or stored, and a table
 *     nobody ever played leaves no row;
 *   - a table of bots alone stops after its hand, however long someone watches;
 *   - chat is rate-limited apart from play, and a table's kept events are bounded in bytes;
 *   - a login racing a new table leaves no guest seated without its connection;
 *   - a password-guessing loop is slowed to a few guesses, while another address logs in, and
 *     the owner logs in once the wait is over;
 *   - a flood of logins from one address leaves password slots for everyone else;
 *   - names that look like an account's, or hide invisible characters, are refused.
 * Each case failed on the server before its fix. The login cases listen on every address (--bind
 * ::) so that the attacker (127.0.0.1) and everyone else (::1) come from different addresses.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include <jansson.h>
#include <sqlite3.h>

#include "server_process.h"
#include "table_client.h"
#include "ws_client.h"

static const char *binary;
static const char *web_root;
static server_process server;

static void start_server(const char *const *extra)
{
    const char *args[32] = {"--bot-delay-ms", "0", "--next-hand-seconds", "0", "--web-root", web_root};
    int n = 6;
    for (int i = 0; extra != NULL && extra[i] != NULL && n < 31; i++)
        args[n++] = extra[i];
    args[n] = NULL;
    ck_assert_msg(server_process_start(&server, binary, args, 10000), "the server did not start");
}

static void stop_server(void)
{
    int status = 0;
    ck_assert(server_process_stop(&server, SIGTERM, 10000, &status));
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the server did not exit cleanly");
}

static const char *type_of(const json_t *frame) { return json_string_value(json_object_get(frame, "type")); }
static const char *code_of(const json_t *frame) { return json_string_value(json_object_get(frame, "code")); }

static int64_t count_rows(const char *sql)
{
    sqlite3 *db = NULL;
    ck_assert_int_eq(sqlite3_open_v2(server.db_path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *stmt = NULL;
    ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(stmt), SQLITE_ROW);
    int64_t n = sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return n;
}

static json_t *create_table(table_client *c)
{
    return tc_request(c,
                      json_pack("{s:s, s:s, s:{}, s:b}", "type", "create_table", "game", "tiengow", "options",
                                "public", 1),
                      5000);
}

/* Issue: past the cap of 8 tables a player, create_table answered too_many_tables but still made
 * and stored the table, so one connection filled --max-tables and the database. */
START_TEST(test_tables_past_the_players_cap_are_refused_before_anything_is_made)
{
    const char *extra[] = {"--max-tables", "20", NULL};
    start_server(extra);
    table_client a;
    ck_assert(tc_connect(&a, server.host, server.port, "Flood", NULL));
    int made = 0, refused = 0;
    for (int i = 0; i < 24; i++) {
        json_t *reply = create_table(&a);
        ck_assert_msg(reply != NULL, "no answer to table %d", i + 1);
        if (strcmp(type_of(reply), "snapshot") == 0)
            made++;
        else if (strcmp(type_of(reply), "error") == 0 && strcmp(code_of(reply), "too_many_tables") == 0)
            refused++;
        json_decref(reply);
    }
    ck_assert_int_eq(made, 8);
    ck_assert_int_eq(refused, 16);
    /* a second player can still open tables: the house's cap (20) was not filled by the refusals */
    table_client b;
    ck_assert(tc_connect(&b, server.host, server.port, "Honest", NULL));
    json_t *reply = create_table(&b);
    ck_assert_str_eq(type_of(reply), "snapshot");
    json_decref(reply);
    json_t *list = tc_request(&b, json_pack("{s:s}", "type", "list_tables"), 5000);
    ck_assert_ptr_nonnull(list);
    ck_assert_uint_le(json_array_size(json_object_get(list, "tables")), 9);
    json_decref(list);
    tc_close(&a);
    tc_close(&b);
    stop_server();
    /* none of them was played: nothing of them lasts */
    ck_assert_int_eq(count_rows("SELECT count(*) FROM game_tables"), 0);
    server_process_cleanup(&server);
}
END_TEST

/* Sends a table command for c's table and returns the reply (owned). */
static json_t *command(table_client *c, json_t *message)
{
    json_object_set_new(message, "code", json_string(c->code));
    return tc_request(c, message, 5000);
}

static void command_ok(table_client *c, json_t *message)
{
    json_t *reply = command(c, message);
    ck_assert_ptr_nonnull(reply);
    ck_assert_str_eq(type_of(reply), "ok");
    json_decref(reply);
}

static void open_table(table_client *c)
{
    json_t *reply = create_table(c);
    ck_assert_str_eq(type_of(reply), "snapshot");
    snprintf(c->code, sizeof c->code, "%s", json_string_value(json_object_get(reply, "table")));
    json_decref(reply);
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Reads frames until an event of this kind; false if none came within timeout_ms in all. */
static bool wait_event(table_client *c, const char *kind, int timeout_ms)
{
    int64_t end = now_ms() + timeout_ms;
    for (int64_t left; (left = end - now_ms()) > 0;) {
        json_t *f = tc_next(c, (int)left);
        if (f == NULL)
            return false;
        const char *k = json_string_value(json_object_get(json_object_get(f, "event"), "kind"));
        bool found = k != NULL && strcmp(k, kind) == 0;
        json_decref(f);
        if (found)
            return true;
    }
    return false;
}

/* Issue: a table of bots alone played on for ever while anyone, even a spectator, watched
 * (~2.8 KB of database a hand). With nobody seated it now stops after its current hand. */
START_TEST(test_a_table_of_bots_alone_stops_after_its_hand)
{
    start_server(NULL);
    table_client host;
    ck_assert(tc_connect(&host, server.host, server.port, "Watcher", NULL));
    open_table(&host);
    command_ok(&host, json_pack("{s:s}", "type", "leave_seat"));
    for (int s = 0; s < 4; s++)
        command_ok(&host, json_pack("{s:s, s:i}", "type", "add_bot", "seat", s));
    command_ok(&host, json_pack("{s:s}", "type", "start"));
    ck_assert_msg(wait_event(&host, "hand_over", 20000), "the hand did not end");
    ck_assert_msg(wait_event(&host, "waiting", 5000), "the table did not stop to wait");
    ck_assert_msg(!wait_event(&host, "hand_started", 1500), "another hand started with nobody seated");
    ck_assert_int_eq(host.hands_over, 1);
    tc_close(&host);
    stop_server();
    ck_assert_int_eq(count_rows("SELECT count(*) FROM hands"), 1);
    server_process_cleanup(&server);
}
END_TEST

/* Issue: chat filled each table's ring of 200 kept events (~179 kB a table). Now chat has its own
 * rate limit per person, and the kept events are bounded in bytes: a member who resumes after a
 * flood of long lines is sent no more than the bound (or a snapshot alone). */
START_TEST(test_chat_is_rate_limited_and_the_kept_events_are_bounded_in_bytes)
{
    start_server(NULL);
    table_client host;
    ck_assert(tc_connect(&host, server.host, server.port, "Host", NULL));
    open_table(&host);
    char token[80];
    snprintf(token, sizeof token, "%s", host.token);
    char line[1024] = "";
    for (int i = 0; i < 300; i++)
        strcat(line, "茶");
    /* one person: a burst of 5 lines, then refused */
    int said = 0, limited = 0;
    for (int i = 0; i < 8; i++) {
        json_t *reply = command(&host, json_pack("{s:s, s:s}", "type", "chat", "text", line));
        ck_assert_ptr_nonnull(reply);
        if (strcmp(type_of(reply), "ok") == 0)
            said++;
        else if (strcmp(type_of(reply), "error") == 0 && strcmp(code_of(reply), "rate_limited") == 0)
            limited++;
        json_decref(reply);
    }
    ck_assert_int_eq(said, 5);
    ck_assert_int_eq(limited, 3);
    /* the host drops; 24 others each say 5 long lines (120 lines of ~900 bytes) */
    tc_close(&host);
    for (int k = 0; k < 24; k++) {
        table_client c;
        char name[16];
        snprintf(name, sizeof name, "Chatter%d", k);
        ck_assert(tc_connect(&c, server.host, server.port, name, NULL));
        snprintf(c.code, sizeof c.code, "%s", host.code);
        json_t *joined = tc_request(&c, json_pack("{s:s, s:s}", "type", "join_table", "code", host.code), 5000);
        ck_assert_str_eq(type_of(joined), "snapshot");
        json_decref(joined);
        for (int i = 0; i < 5; i++)
            command_ok(&c, json_pack("{s:s, s:s}", "type", "chat", "text", line));
        tc_close(&c);
    }
    /* the host comes back: what it is sent of the missed events stays within the bound */
    table_client back;
    ck_assert(tc_connect(&back, server.host, server.port, "Host", token));
    size_t events_bytes = 0;
    for (json_t *f; (f = tc_next(&back, 3000)) != NULL; json_decref(f)) {
        if (strcmp(type_of(f), "events") == 0) {
            char *text = json_dumps(f, JSON_COMPACT);
            events_bytes = strlen(text);
            free(text);
        }
        if (strcmp(type_of(f), "snapshot") == 0) {
            json_decref(f);
            break;
        }
    }
    ck_assert_msg(events_bytes <= 70 * 1024, "a resuming member was sent %zu bytes of kept events", events_bytes);
    tc_close(&back);
    stop_server();
    server_process_cleanup(&server);
}
END_TEST

static void send_raw(table_client *c, json_t *message)
{
    char *text = json_dumps(message, JSON_COMPACT);
    json_decref(message);
    ck_assert_int_eq(ws_client_send_text(c->ws, text, strlen(text)), WS_CLIENT_OK);
    free(text);
}

/* Issue: a login racing a create_table (the password check takes a while) switched the
 * connection to the account and left the guest seated at the new table with no connection. */
START_TEST(test_a_login_racing_a_new_table_leaves_no_seat_without_its_connection)
{
    start_server(NULL);
    table_client a;
    ck_assert(tc_connect(&a, server.host, server.port, "Mei", NULL));
    json_t *reply = tc_request(&a, json_pack("{s:s, s:s, s:s}", "type", "register", "name", "meitest", "password",
                                             "jasmine tea"),
                               10000);
    ck_assert_str_eq(type_of(reply), "welcome");
    json_decref(reply);
    tc_close(&a);

    table_client g;
    ck_assert(tc_connect(&g, server.host, server.port, "Guest", NULL));
    send_raw(&g, json_pack("{s:s, s:i, s:s, s:s}", "type", "login", "id", 501, "name", "meitest", "password",
                           "jasmine tea"));
    send_raw(&g, json_pack("{s:s, s:i, s:s, s:{}, s:b}", "type", "create_table", "id", 502, "game", "tiengow",
                           "options", "public", 0));
    json_t *login_reply = NULL, *table_reply = NULL;
    for (json_t *f; (login_reply == NULL || table_reply == NULL) && (f = tc_next(&g, 10000)) != NULL;) {
        json_int_t id = json_integer_value(json_object_get(f, "id"));
        if (id == 501)
            login_reply = f;
        else if (id == 502)
            table_reply = f;
        else
            json_decref(f);
    }
    ck_assert_ptr_nonnull(login_reply);
    ck_assert_ptr_nonnull(table_reply);
    ck_assert_str_eq(type_of(table_reply), "snapshot");
    ck_assert_str_eq(type_of(login_reply), "error");
    ck_assert_str_eq(code_of(login_reply), "at_table");
    /* the guest is still the connection's player, seated and connected */
    const char *code = json_string_value(json_object_get(table_reply, "table"));
    json_t *again = tc_request(&g, json_pack("{s:s, s:s}", "type", "join_table", "code", code), 5000);
    ck_assert_str_eq(type_of(again), "snapshot");
    json_t *seat0 = json_array_get(json_object_get(json_object_get(again, "info"), "seats"), 0);
    ck_assert(json_is_true(json_object_get(seat0, "connected")));
    ck_assert_int_eq(json_integer_value(json_object_get(again, "seat")), 0);
    json_decref(again);
    json_decref(login_reply);
    json_decref(table_reply);
    tc_close(&g);
    stop_server();
    server_process_cleanup(&server);
}
END_TEST

/* The attacker's address and everyone else's: the server sees ::ffff:127.0.0.1 and ::1. */
#define ATTACKER_HOST "127.0.0.1"
#define HONEST_HOST "::1"

static void start_server_on_every_address(void)
{
    const char *extra[] = {"--bind", "::", NULL};
    start_server(extra);
}

static json_t *login_request(table_client *c, const char *name, const char *password)
{
    return tc_request(c, json_pack("{s:s, s:s, s:s}", "type", "login", "name", name, "password", password), 10000);
}

static void register_as(const char *host, const char *name, const char *password)
{
    table_client c;
    ck_assert_msg(tc_connect(&c, host, server.port, "Owner", NULL), "cannot connect from %s", host);
    json_t *reply =
        tc_request(&c, json_pack("{s:s, s:s, s:s}", "type", "register", "name", name, "password", password), 10000);
    ck_assert_ptr_nonnull(reply);
    ck_assert_str_eq(type_of(reply), "welcome");
    json_decref(reply);
    tc_close(&c);
}

static void sleep_ms(int64_t ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

/* Issue 14: a loop tried 17-26 passwords a second against one account, for as long as it liked,
 * and the right password still worked afterwards. Now 5 wrong guesses, then a wait that grows. */
START_TEST(test_a_guessing_loop_is_slowed_another_address_logs_in_meanwhile_and_the_owner_after_the_wait)
{
    start_server_on_every_address();
    register_as(HONEST_HOST, "meitest", "jasmine tea");
    register_as(HONEST_HOST, "lantest", "oolong leaf");

    table_client attacker, honest;
    ck_assert(tc_connect(&attacker, ATTACKER_HOST, server.port, "Guesser", NULL));
    ck_assert(tc_connect(&honest, HONEST_HOST, server.port, "Lan", NULL));
    int guesses = 0, limited = 0;
    bool honest_logged_in = false;
    json_int_t retry_ms = 0;
    const int64_t start = now_ms();
    for (int i = 0; now_ms() - start < 10000; i++) {
        const int64_t sent = now_ms();
        char guess[32];
        snprintf(guess, sizeof guess, "guess number %d", i);
        json_t *reply = login_request(&attacker, "meitest", guess);
        ck_assert_ptr_nonnull(reply);
        if (strcmp(code_of(reply), "bad_login") == 0) {
            guesses++;
        } else {
            ck_assert_str_eq(code_of(reply), "rate_limited");
            retry_ms = json_integer_value(json_object_get(reply, "retry_ms"));
            ck_assert_int_gt(retry_ms, 0);
            limited++;
        }
        json_decref(reply);
        if (!honest_logged_in && now_ms() - start >= 5000) { /* midway, someone else logs in */
            json_t *welcome = login_request(&honest, "lantest", "oolong leaf");
            ck_assert_str_eq(type_of(welcome), "welcome");
            json_decref(welcome);
            honest_logged_in = true;
        }
        sleep_ms(50 - (now_ms() - sent) > 0 ? 50 - (now_ms() - sent) : 0); /* within the message rate */
    }
    fprintf(stderr, "hostile: %d guesses answered in 10 s, %d refused as rate_limited (last wait %lld ms)\n",
            guesses, limited, (long long)retry_ms);
    ck_assert_int_le(guesses, 8);
    ck_assert_int_gt(limited, 0);
    ck_assert(honest_logged_in);

    /* the owner, from another address: told to wait while the wait lasts, then let in */
    table_client owner;
    ck_assert(tc_connect(&owner, HONEST_HOST, server.port, "Mei", NULL));
    json_t *reply = login_request(&owner, "meitest", "jasmine tea");
    if (strcmp(type_of(reply), "welcome") != 0) {
        ck_assert_str_eq(code_of(reply), "rate_limited");
        json_int_t wait = json_integer_value(json_object_get(reply, "retry_ms"));
        ck_assert_int_le(wait, 60 * 1000);
        fprintf(stderr, "hostile: the owner was told to wait %lld ms\n", (long long)wait);
        json_decref(reply);
        sleep_ms(wait + 200);
        reply = login_request(&owner, "meitest", "jasmine tea");
    }
    ck_assert_str_eq(type_of(reply), "welcome");
    json_decref(reply);
    tc_close(&owner);
    tc_close(&attacker);
    tc_close(&honest);
    stop_server();
    server_process_cleanup(&server);
}
END_TEST

/* Issue 14: a flood of logins from one address took the 8 password slots, so everyone else's
 * login was answered busy. Now one address holds two at most. */
START_TEST(test_a_login_flood_from_one_address_leaves_password_slots_for_others)
{
    start_server_on_every_address();
    register_as(HONEST_HOST, "meitest", "jasmine tea");
    enum { FLOOD = 8 };
    table_client flood[FLOOD], honest;
    for (int i = 0; i < FLOOD; i++)
        ck_assert(tc_connect(&flood[i], ATTACKER_HOST, server.port, "Flood", NULL));
    ck_assert(tc_connect(&honest, HONEST_HOST, server.port, "Mei", NULL));
    for (int i = 0; i < FLOOD; i++) {
        char name[16];
        snprintf(name, sizeof name, "victim%d", i);
        send_raw(&flood[i], json_pack("{s:s, s:i, s:s, s:s}", "type", "login", "id", 900, "name", name, "password",
                                      "summer2024"));
    }
    json_t *reply = login_request(&honest, "meitest", "jasmine tea");
    ck_assert_ptr_nonnull(reply);
    ck_assert_msg(strcmp(type_of(reply), "welcome") == 0, "the honest login was answered %s", code_of(reply));
    json_decref(reply);
    int busy = 0;
    for (int i = 0; i < FLOOD; i++) {
        for (json_t *f; (f = tc_next(&flood[i], 10000)) != NULL;) {
            bool answer = json_integer_value(json_object_get(f, "id")) == 900;
            busy += answer && strcmp(code_of(f), "busy") == 0;
            json_decref(f);
            if (answer)
                break;
        }
        tc_close(&flood[i]);
    }
    fprintf(stderr, "hostile: %d of %d flooding logins from one address answered busy\n", busy, FLOOD);
    tc_close(&honest);
    stop_server();
    server_process_cleanup(&server);
}
END_TEST

static json_t *hello_as(ws_client **ws, const char *name)
{
    char error[128];
    *ws = ws_client_connect(HONEST_HOST, server.port, "/ws", 5000, error, sizeof error);
    ck_assert_msg(*ws != NULL, "%s", error);
    json_t *hello = json_pack("{s:s, s:i, s:s}", "type", "hello", "v", 1, "name", name);
    char *text = json_dumps(hello, JSON_COMPACT);
    json_decref(hello);
    ck_assert_int_eq(ws_client_send_text(*ws, text, strlen(text)), WS_CLIENT_OK);
    free(text);
    ws_message m;
    ck_assert_int_eq(ws_client_recv(*ws, &m, 5000), WS_CLIENT_OK);
    return json_loads(m.data, 0, NULL);
}

/* Issue 14: display names could hide direction controls and zero-width characters, and account
 * names could copy another's with letters of another script. */
START_TEST(test_names_that_look_like_an_account_or_hide_invisible_characters_are_refused)
{
    start_server_on_every_address();
    register_as(HONEST_HOST, "BOB", "jasmine tea");
    register_as(HONEST_HOST, "admin", "jasmine tea");
    table_client m;
    ck_assert(tc_connect(&m, HONEST_HOST, server.port, "Mallory", NULL));
    const char *copies[] = {"\u0412\u041e\u0412", "adm\u0131n"}; /* ВОВ, admın */
    for (size_t i = 0; i < sizeof copies / sizeof copies[0]; i++) {
        json_t *reply = tc_request(
            &m, json_pack("{s:s, s:s, s:s}", "type", "register", "name", copies[i], "password", "jasmine tea"), 10000);
        ck_assert_str_eq(code_of(reply), "name_taken");
        ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(reply, "message")), "looks like"));
        json_decref(reply);
    }
    json_t *fine = tc_request(
        &m, json_pack("{s:s, s:s, s:s}", "type", "register", "name", "\u738b\u5c0f\u660e", "password", "jasmine tea"),
        10000); /* 王小明 */
    ck_assert_str_eq(type_of(fine), "welcome");
    json_decref(fine);
    tc_close(&m);

    const char *hidden[] = {"\u202eBOB", "B\u200dOB", "BOB\u200b", "\u2066BOB\u2069", "\u3164"};
    for (size_t i = 0; i < sizeof hidden / sizeof hidden[0]; i++) {
        ws_client *ws;
        json_t *reply = hello_as(&ws, hidden[i]);
        ck_assert_str_eq(code_of(reply), "bad_request");
        json_decref(reply);
        ws_client_abort(ws);
    }
    const char *ordinary[] = {"\u5c0f\u660e", "\u963f\u5abd", "Jos\u00e9", "Jose\u0301"}; /* 小明, 阿媽 */
    for (size_t i = 0; i < sizeof ordinary / sizeof ordinary[0]; i++) {
        ws_client *ws;
        json_t *reply = hello_as(&ws, ordinary[i]);
        ck_assert_str_eq(type_of(reply), "welcome");
        if (i >= 2) /* made NFC: the same name however it was typed */
            ck_assert_str_eq(json_string_value(json_object_get(json_object_get(reply, "player"), "name")), "Jos\u00e9");
        json_decref(reply);
        ws_client_abort(ws);
    }
    stop_server();
    server_process_cleanup(&server);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s PATH_TO_TEAHOUSE WEB_ROOT\n", argv[0]);
        return 2;
    }
    binary = argv[1];
    web_root = argv[2];
    signal(SIGPIPE, SIG_IGN);
    Suite *s = suite_create("hostile");
    TCase *tc = tcase_create("lobby");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_tables_past_the_players_cap_are_refused_before_anything_is_made);
    tcase_add_test(tc, test_a_table_of_bots_alone_stops_after_its_hand);
    tcase_add_test(tc, test_chat_is_rate_limited_and_the_kept_events_are_bounded_in_bytes);
    tcase_add_test(tc, test_a_login_racing_a_new_table_leaves_no_seat_without_its_connection);
    tcase_add_test(tc, test_a_guessing_loop_is_slowed_another_address_logs_in_meanwhile_and_the_owner_after_the_wait);
    tcase_add_test(tc, test_a_login_flood_from_one_address_leaves_password_slots_for_others);
    tcase_add_test(tc, test_names_that_look_like_an_account_or_hide_invisible_characters_are_refused);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
