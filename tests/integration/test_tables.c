/*
 * Tables over real WebSockets against the real teahouse binary: a private table with bots, four
 * people at one table, reconnection mid-hand, the turn timer, bad messages, graceful shutdown,
 * names the store must keep.
 * Every frame every client receives is checked for tiles it may not see (table_client).
 *
 * Usage: test_tables PATH_TO_TEAHOUSE WEB_ROOT
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "server_process.h"
#include "table_client.h"

static const char *binary;
static const char *web_root;
static server_process server;

static void start_server(const char *bot_delay_ms)
{
    const char *args[] = {"--bot-delay-ms", bot_delay_ms, "--next-hand-seconds", "0",
                          "--web-root", web_root, NULL};
    ck_assert_msg(server_process_start(&server, binary, args, 10000), "the server did not start");
}

/* With --deal-seed N (a test-only flag): every new table deals from the same seed. */
static void start_server_dealt(const char *bot_delay_ms, const char *seed)
{
    const char *args[] = {"--bot-delay-ms", bot_delay_ms, "--next-hand-seconds", "0", "--deal-seed", seed,
                          "--web-root", web_root, NULL};
    ck_assert_msg(server_process_start(&server, binary, args, 10000), "the server did not start");
}

static void start_server_seeded(const char *seed)
{
    start_server_dealt("60000", seed);
}

static void stop_server(void)
{
    int status = 0;
    ck_assert(server_process_stop(&server, SIGTERM, 10000, &status));
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the server did not exit cleanly");
    server_process_cleanup(&server);
}

static const char *type_of(const json_t *frame) { return json_string_value(json_object_get(frame, "type")); }

static void connect_as(table_client *c, const char *name)
{
    ck_assert_msg(tc_connect(c, server.host, server.port, name, NULL), "%s could not connect", name);
}

/* Sends a table command and expects "ok". */
static void command_ok(table_client *c, json_t *message)
{
    json_object_set_new(message, "code", json_string(c->code));
    json_t *reply = tc_request(c, message, 5000);
    ck_assert_ptr_nonnull(reply);
    char *text = json_dumps(reply, JSON_COMPACT);
    ck_assert_msg(strcmp(type_of(reply), "ok") == 0, "%s: %s", c->name, text);
    free(text);
    json_decref(reply);
}

/* Sends a message and expects an error with this code; returns nothing. */
static void command_error(table_client *c, json_t *message, const char *code)
{
    json_t *reply = tc_request(c, message, 5000);
    ck_assert_ptr_nonnull(reply);
    char *text = json_dumps(reply, JSON_COMPACT);
    ck_assert_msg(strcmp(type_of(reply), "error") == 0 && strcmp(json_string_value(json_object_get(reply, "code")), code) == 0,
                  "want %s, got %s", code, text);
    ck_assert_msg(json_string_length(json_object_get(reply, "message")) > 0, "no message: %s", text);
    free(text);
    json_decref(reply);
}

static void create_table(table_client *c, bool is_public, int turn_seconds)
{
    json_t *reply = tc_request(c,
                               json_pack("{s:s, s:s, s:{}, s:b, s:i}", "type", "create_table", "game", "tiengow",
                                         "options", "public", is_public, "turn_seconds", turn_seconds),
                               5000);
    ck_assert_ptr_nonnull(reply);
    ck_assert_str_eq(type_of(reply), "snapshot");
    snprintf(c->code, sizeof c->code, "%s", json_string_value(json_object_get(reply, "table")));
    ck_assert_int_eq(strlen(c->code), 12); /* a new table's code */
    ck_assert_int_eq(json_integer_value(json_object_get(reply, "seat")), 0);
    json_decref(reply);
}

static void join(table_client *c, const char *code)
{
    snprintf(c->code, sizeof c->code, "%s", code);
    json_t *reply = tc_request(c, json_pack("{s:s, s:s}", "type", "join_table", "code", code), 5000);
    ck_assert_ptr_nonnull(reply);
    ck_assert_str_eq(type_of(reply), "snapshot");
    json_decref(reply);
}

static void add_bots(table_client *host, int from_seat)
{
    for (int s = from_seat; s < 4; s++)
        command_ok(host, json_pack("{s:s, s:i}", "type", "add_bot", "seat", s));
}

static int64_t net_sum(const json_t *result)
{
    int64_t sum = 0;
    for (int s = 0; s < 4; s++)
        sum += json_integer_value(json_array_get(json_object_get(result, "net"), (size_t)s));
    return sum;
}

START_TEST(test_private_table_with_three_bots_plays_whole_hands)
{
    start_server("0");
    table_client a, watcher, other;
    connect_as(&a, "Ah Ma");
    create_table(&a, false, 30);
    add_bots(&a, 1);
    connect_as(&watcher, "Watcher");
    join(&watcher, a.code);
    command_ok(&a, json_pack("{s:s}", "type", "start"));
    ck_assert_msg(tc_play_until(&a, 3, 30000, true), "three hands did not finish");
    ck_assert_int_eq(net_sum(a.last_result), 0);
    ck_assert(tc_play_until(&watcher, 3, 10000, false));
    ck_assert_int_eq(a.leaks, 0);
    ck_assert_int_eq(watcher.leaks, 0);
    ck_assert_int_eq(watcher.seat, -1);

    /* a private table is not listed, and a spectator cannot act */
    connect_as(&other, "Other");
    json_t *tables = tc_request(&other, json_pack("{s:s}", "type", "list_tables"), 5000);
    ck_assert_str_eq(type_of(tables), "tables");
    ck_assert_int_eq(json_array_size(json_object_get(tables, "tables")), 0);
    json_decref(tables);
    command_error(&watcher, json_pack("{s:s, s:s, s:{s:[s]}}", "type", "act", "code", a.code, "action", "play", "6-6"),
                  "not_seated");
    tc_close(&a);
    tc_close(&watcher);
    tc_close(&other);
    stop_server();
}
END_TEST

START_TEST(test_four_people_join_by_code_and_play_a_hand)
{
    start_server("0");
    table_client p[4];
    const char *names[] = {"East", "South", "West", "North"};
    connect_as(&p[0], names[0]);
    create_table(&p[0], true, 30);
    for (int i = 1; i < 4; i++) {
        connect_as(&p[i], names[i]);
        /* codes are case-insensitive */
        char lower[16];
        for (int k = 0; k < 13; k++)
            lower[k] = (char)(p[0].code[k] >= 'A' && p[0].code[k] <= 'Z' ? p[0].code[k] + 32 : p[0].code[k]);
        join(&p[i], lower);
        snprintf(p[i].code, sizeof p[i].code, "%s", p[0].code);
        command_ok(&p[i], json_pack("{s:s, s:i}", "type", "take_seat", "seat", i));
    }
    /* the public table is listed with its four seats taken */
    json_t *tables = tc_request(&p[1], json_pack("{s:s}", "type", "list_tables"), 5000);
    ck_assert_int_eq(json_array_size(json_object_get(tables, "tables")), 1);
    json_decref(tables);
    command_error(&p[1], json_pack("{s:s, s:s}", "type", "start", "code", p[0].code), "not_host");
    command_ok(&p[0], json_pack("{s:s}", "type", "start"));
    for (int waited = 0; waited < 30000; waited += 40) {
        bool done = true;
        for (int i = 0; i < 4; i++) {
            tc_act_if_my_turn(&p[i], 2000);
            json_decref(tc_next(&p[i], 10));
            done = done && p[i].hands_over >= 1;
        }
        if (done)
            break;
    }
    for (int i = 0; i < 4; i++) {
        ck_assert_msg(p[i].hands_over >= 1, "%s did not see the hand end", names[i]);
        ck_assert_int_eq(p[i].leaks, 0);
        ck_assert_int_eq(p[i].seat, i);
        /* hand 1's result (a next hand may already be over for some: a natural hand ends at once) */
        ck_assert(json_equal(json_object_get(p[i].results, "1"), json_object_get(p[0].results, "1")));
    }
    ck_assert_int_eq(net_sum(json_object_get(p[0].results, "1")), 0);
    for (int i = 0; i < 4; i++)
        tc_close(&p[i]);
    stop_server();
}
END_TEST

START_TEST(test_a_dropped_player_resumes_with_its_token_mid_hand)
{
    start_server("300");
    table_client a;
    connect_as(&a, "Ah Ma");
    create_table(&a, false, 30);
    add_bots(&a, 1);
    command_ok(&a, json_pack("{s:s}", "type", "start"));
    json_decref(tc_next(&a, 200));
    char token[80], code[16];
    snprintf(token, sizeof token, "%s", a.token);
    snprintf(code, sizeof code, "%s", a.code);
    ws_client_abort(a.ws); /* the network drops */
    a.ws = NULL;
    tc_close(&a);
    usleep(700 * 1000); /* the bots, and the bot covering seat 0, play on meanwhile */

    table_client back;
    ck_assert(tc_connect(&back, server.host, server.port, "Ah Ma", token));
    snprintf(back.code, sizeof back.code, "%s", code);
    bool saw_events = false, saw_snapshot = false;
    for (int i = 0; i < 100 && !saw_snapshot; i++) {
        json_t *frame = tc_next(&back, 100);
        if (frame != NULL && strcmp(type_of(frame), "events") == 0)
            saw_events = json_array_size(json_object_get(frame, "events")) > 0;
        if (frame != NULL && strcmp(type_of(frame), "snapshot") == 0) {
            saw_snapshot = true;
            ck_assert_int_eq(json_integer_value(json_object_get(frame, "seat")), 0);
            ck_assert(json_is_object(json_object_get(frame, "view")));
        }
        json_decref(frame);
    }
    ck_assert_msg(saw_events, "the resumed connection was not sent what it missed");
    ck_assert_msg(saw_snapshot, "the resumed connection got no snapshot");
    ck_assert(tc_play_until(&back, 1, 30000, true));
    ck_assert_int_eq(back.leaks, 0);

    /* a second connection for the same player replaces the first */
    table_client twin;
    ck_assert(tc_connect(&twin, server.host, server.port, "Ah Ma", token));
    bool replaced = false;
    for (int i = 0; i < 50 && !replaced; i++) {
        json_t *frame = tc_next(&back, 100);
        replaced = frame != NULL && strcmp(type_of(frame), "error") == 0 &&
                   strcmp(json_string_value(json_object_get(frame, "code")), "replaced") == 0;
        json_decref(frame);
    }
    ck_assert_msg(replaced, "the older connection was not told it was replaced");
    tc_close(&back);
    tc_close(&twin);
    stop_server();
}
END_TEST

START_TEST(test_the_bot_plays_for_a_seat_whose_turn_timer_runs_out)
{
    start_server("0");
    table_client a;
    connect_as(&a, "Slow");
    create_table(&a, false, 5);
    add_bots(&a, 1);
    command_ok(&a, json_pack("{s:s}", "type", "start"));
    bool by_bot = false;
    for (int i = 0; i < 120 && !by_bot; i++) { /* up to 12 s; the timer is 5 s */
        json_t *frame = tc_next(&a, 100);
        json_t *event = json_object_get(frame, "event");
        by_bot = json_is_true(json_object_get(event, "by_bot")) &&
                 json_integer_value(json_object_get(event, "seat")) == 0;
        json_decref(frame);
    }
    ck_assert_msg(by_bot, "seat 0's turn timer did not hand the turn to the bot");
    ck_assert_int_eq(a.leaks, 0);
    tc_close(&a);
    stop_server();
}
END_TEST

START_TEST(test_bad_messages_get_errors_and_change_nothing)
{
    start_server("0");
    table_client a;
    /* before hello */
    char error[128];
    ws_client *raw = ws_client_connect(server.host, server.port, "/ws", 5000, error, sizeof error);
    ck_assert_ptr_nonnull(raw);
    const char *before_hello = "{\"type\":\"list_tables\"}";
    ws_client_send_text(raw, before_hello, strlen(before_hello));
    ws_message m;
    ck_assert_int_eq(ws_client_recv(raw, &m, 5000), WS_CLIENT_OK);
    ck_assert_ptr_nonnull(strstr(m.data, "not_hello"));
    const char *bad_version = "{\"type\":\"hello\",\"v\":9,\"name\":\"x\"}";
    ws_client_send_text(raw, bad_version, strlen(bad_version));
    ck_assert_int_eq(ws_client_recv(raw, &m, 5000), WS_CLIENT_OK);
    ck_assert_ptr_nonnull(strstr(m.data, "unsupported_version"));
    ws_client_close(raw, 1000, 1000);

    connect_as(&a, "Host");
    create_table(&a, false, 30);
    add_bots(&a, 2);
    /* a table that is not full does not start */
    command_error(&a, json_pack("{s:s, s:s}", "type", "start", "code", a.code), "table_not_full");
    command_ok(&a, json_pack("{s:s, s:i}", "type", "add_bot", "seat", 1));
    command_error(&a, json_pack("{s:s, s:s, s:i}", "type", "add_bot", "code", a.code, "seat", 1), "seat_taken");
    command_error(&a, json_pack("{s:s, s:s, s:i}", "type", "take_seat", "code", a.code, "seat", 2), "already_seated");
    command_error(&a, json_pack("{s:s, s:s}", "type", "join_table", "code", "ZZZZZZ"), "no_such_table");
    command_error(&a, json_pack("{s:s, s:s}", "type", "create_table", "game", "poker"), "unknown_game");
    command_error(&a, json_pack("{s:s, s:s, s:{s:i}}", "type", "create_table", "game", "tiengow", "options",
                                "qin_multiplier", 3),
                  "bad_options");
    command_error(&a, json_pack("{s:s, s:s}", "type", "fold", "code", a.code), "unknown_type");
    command_error(&a, json_pack("{s:s, s:s, s:i}", "type", "take_seat", "code", a.code, "seat", 9), "bad_request");
    command_error(&a, json_pack("{s:s, s:s, s:{s:[s]}}", "type", "act", "code", a.code, "action", "play", "6-6"),
                  "no_hand");

    command_ok(&a, json_pack("{s:s}", "type", "start"));
    /* wait until it is seat 0's turn (the bots have no pause) */
    for (int i = 0; i < 100; i++) {
        json_decref(tc_next(&a, 50));
        if (a.last_view && json_integer_value(json_object_get(a.last_view, "to_act")) == 0 &&
            json_is_object(json_object_get(a.last_view, "legal")))
            break;
    }
    json_t *before = json_deep_copy(a.last_view);
    ck_assert(json_is_object(json_object_get(before, "legal")));
    const char *cases[][2] = {
        {"{\"type\":\"act\",\"code\":\"%s\",\"action\":{\"play\":[\"9-9\"]}}", "bad_request"},
        {"{\"type\":\"act\",\"code\":\"%s\",\"action\":{\"play\":[]}}", "wrong_count"},
        {"{\"type\":\"act\",\"code\":\"%s\",\"action\":{\"pass\":true}}", "bad_request"},
        {"{\"type\":\"act\",\"code\":\"%s\",\"action\":{\"seat\":1,\"play\":[\"6-6\"]}}", "bad_request"},
        {"{\"type\":\"act\",\"code\":\"%s\",\"action\":{\"play\":[\"6-6\"]},\"extra\":1}", "bad_request"},
        {"{\"type\":\"leave_seat\",\"code\":\"%s\"}", "hand_in_progress"},
        {"not json at all %s", "bad_json"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, cases[i][0], a.code);
        ws_client_send_text(a.ws, text, strlen(text));
        bool got = false;
        for (int k = 0; k < 50 && !got; k++) {
            json_t *frame = tc_next(&a, 100);
            if (frame != NULL && strcmp(type_of(frame), "error") == 0) {
                ck_assert_msg(strcmp(json_string_value(json_object_get(frame, "code")), cases[i][1]) == 0,
                              "%s: got %s", text, json_string_value(json_object_get(frame, "code")));
                got = true;
            }
            json_decref(frame);
        }
        ck_assert_msg(got, "no error for %s", text);
    }
    /* a tile not held, a discard by the leader, or a non-combination: refused by the engine */
    json_t *hand = json_object_get(before, "hand");
    bool leading = json_is_null(json_object_get(json_object_get(before, "legal"), "discard"));
    if (leading)
        command_error(&a, json_pack("{s:s, s:s, s:{s:[O]}}", "type", "act", "code", a.code, "action", "discard",
                                    json_array_get(hand, 0)),
                      "leader_must_play");
    /* nothing changed: the view is what it was */
    json_t *snapshot = tc_request(&a, json_pack("{s:s, s:s}", "type", "join_table", "code", a.code), 5000);
    ck_assert(json_equal(json_object_get(snapshot, "view"), before));
    json_decref(snapshot);
    json_decref(before);

    /* an oversized frame is refused and the connection still works */
    size_t big = 17 * 1024;
    char *huge = malloc(big + 1);
    memset(huge, 'x', big);
    huge[big] = '\0';
    ws_client_send_text(a.ws, huge, big);
    free(huge);
    bool too_large = false;
    for (int k = 0; k < 50 && !too_large; k++) {
        json_t *frame = tc_next(&a, 100);
        too_large = frame != NULL && strcmp(json_string_value(json_object_get(frame, "code")), "too_large") == 0;
        json_decref(frame);
    }
    ck_assert(too_large);

    /* a flood is rate limited */
    table_client flood;
    connect_as(&flood, "Flood");
    const char *ping = "{\"type\":\"ping\"}";
    for (int i = 0; i < 120; i++)
        ws_client_send_text(flood.ws, ping, strlen(ping));
    int limited = 0;
    for (int k = 0; k < 200; k++) {
        json_t *frame = tc_next(&flood, 20);
        if (frame != NULL && json_object_get(frame, "code") != NULL &&
            strcmp(json_string_value(json_object_get(frame, "code")), "rate_limited") == 0)
            limited++;
        json_decref(frame);
    }
    ck_assert_int_gt(limited, 0);
    ck_assert_int_eq(a.leaks, 0);
    tc_close(&flood);
    tc_close(&a);
    stop_server();
}
END_TEST

START_TEST(test_sigterm_mid_hand_tells_clients_and_exits_cleanly)
{
    start_server("500");
    table_client a;
    connect_as(&a, "Ah Ma");
    create_table(&a, false, 30);
    add_bots(&a, 1);
    command_ok(&a, json_pack("{s:s}", "type", "start"));
    json_decref(tc_next(&a, 200));
    kill(server.pid, SIGTERM);
    bool told = false;
    for (int k = 0; k < 50 && !told; k++) {
        json_t *frame = tc_next(&a, 100);
        const char *code = json_string_value(json_object_get(frame, "code"));
        const char *kind = json_string_value(json_object_get(json_object_get(frame, "event"), "kind"));
        told = (code != NULL && strcmp(code, "shutting_down") == 0) || (kind != NULL && strcmp(kind, "closing") == 0);
        json_decref(frame);
    }
    ck_assert_msg(told, "the client was not told the server is stopping");
    int status = 0;
    ck_assert(server_process_wait(&server, 10000, &status));
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    server_process_cleanup(&server);
    tc_close(&a);
}
END_TEST

/* A client may send on without waiting for its welcome: the messages are answered after it, in order. */
START_TEST(test_messages_sent_right_after_hello_are_answered_after_the_welcome)
{
    start_server("0");
    table_client c = {0};
    c.seat = -1;
    snprintf(c.name, sizeof c.name, "Hasty");
    char error[128];
    c.ws = ws_client_connect(server.host, server.port, "/ws", 5000, error, sizeof error);
    ck_assert_ptr_nonnull(c.ws);
    const char *burst[] = {"{\"type\":\"hello\",\"v\":1,\"name\":\"Hasty\",\"id\":1}",
                           "{\"type\":\"ping\",\"id\":2}",
                           "{\"type\":\"create_table\",\"game\":\"tiengow\",\"public\":false,\"id\":3}",
                           "{\"type\":\"list_tables\",\"id\":4}"};
    for (size_t i = 0; i < 4; i++)
        ck_assert_int_eq(ws_client_send_text(c.ws, burst[i], strlen(burst[i])), WS_CLIENT_OK);
    const char *want[] = {"welcome", "pong", "snapshot", "tables"};
    int next = 0;
    for (int i = 0; i < 100 && next < 4; i++) {
        json_t *frame = tc_next(&c, 50);
        json_t *id = json_object_get(frame, "id");
        if (json_is_integer(id)) {
            ck_assert_int_eq(json_integer_value(id), next + 1); /* in order */
            ck_assert_str_eq(type_of(frame), want[next]);
            next++;
        }
        json_decref(frame);
    }
    ck_assert_int_eq(next, 4);
    tc_close(&c);
    stop_server();
}
END_TEST

/* Says hello on a new connection of c and returns the reply (owned), whatever it is. */
static json_t *hello_as(table_client *c, const char *name)
{
    memset(c, 0, sizeof *c);
    c->seat = -1;
    snprintf(c->name, sizeof c->name, "hello_as");
    char error[128];
    c->ws = ws_client_connect(server.host, server.port, "/ws", 5000, error, sizeof error);
    ck_assert_msg(c->ws != NULL, "cannot connect: %s", error);
    return tc_request(c, json_pack("{s:s, s:i, s:s}", "type", "hello", "v", 1, "name", name), 5000);
}

/* What the protocol accepts the store keeps: 22 Chinese characters are 66 bytes (a store that
 * kept 64 once answered `unavailable`), and a name over 24 characters is the client's mistake. */
START_TEST(test_a_name_of_22_chinese_characters_is_welcomed_and_one_over_24_is_a_bad_request)
{
    start_server("0");
    char name[200] = "";
    for (int i = 0; i < 22; i++)
        strcat(name, "茶");
    table_client a;
    json_t *welcome = hello_as(&a, name);
    ck_assert_ptr_nonnull(welcome);
    char *text = json_dumps(welcome, JSON_COMPACT);
    ck_assert_msg(strcmp(type_of(welcome), "welcome") == 0, "want a welcome, got %s", text);
    free(text);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(welcome, "player"), "name")), name);
    /* the welcome tells the client the limits */
    json_t *limits = json_object_get(welcome, "limits");
    ck_assert_int_eq(json_integer_value(json_object_get(limits, "name_chars")), 24);
    ck_assert_int_eq(json_integer_value(json_object_get(limits, "turn_seconds_min")), 5);
    ck_assert_int_eq(json_integer_value(json_object_get(limits, "turn_seconds_max")), 300);
    /* and the games it seats players at, in the registry's order */
    json_t *games = json_object_get(welcome, "games");
    ck_assert_msg(json_is_array(games) && json_array_size(games) == 2, "want the two games announced");
    ck_assert_str_eq(json_string_value(json_array_get(games, 0)), "tiengow");
    ck_assert_str_eq(json_string_value(json_array_get(games, 1)), "tianjin");
    json_decref(welcome);
    tc_close(&a);

    for (int i = 22; i < 25; i++)
        strcat(name, "茶");
    table_client b;
    json_t *refusal = hello_as(&b, name);
    ck_assert_ptr_nonnull(refusal);
    text = json_dumps(refusal, JSON_COMPACT);
    ck_assert_msg(strcmp(type_of(refusal), "error") == 0 &&
                      strcmp(json_string_value(json_object_get(refusal, "code")), "bad_request") == 0 &&
                      strstr(json_string_value(json_object_get(refusal, "message")), "24") != NULL,
                  "want bad_request naming 24 characters, got %s", text);
    free(text);
    json_decref(refusal);
    tc_close(&b);
    stop_server();
}
END_TEST

/* The tiles seat 0 is dealt at a new Tien Gow table with three bots (the caller frees the text). */
static char *first_deal(table_client *c)
{
    json_decref(c->last_view); /* the last table's */
    c->last_view = NULL;
    create_table(c, false, 30);
    add_bots(c, 1);
    command_ok(c, json_pack("{s:s}", "type", "start"));
    for (int i = 0; i < 100; i++) {
        json_t *hand = c->last_view != NULL ? json_object_get(c->last_view, "hand") : NULL;
        if (json_is_array(hand) && json_array_size(hand) > 0)
            return json_dumps(hand, JSON_COMPACT);
        json_decref(tc_next(c, 50));
    }
    ck_abort_msg("no hand was dealt");
    return NULL;
}

START_TEST(test_deal_seed_deals_every_new_table_the_same_tiles_and_no_seed_does_not)
{
    start_server_seeded("42");
    table_client a;
    connect_as(&a, "Seeded");
    char *first = first_deal(&a), *second = first_deal(&a);
    ck_assert_str_eq(first, second);
    free(first);
    free(second);
    tc_close(&a);
    stop_server();

    start_server("60000");
    connect_as(&a, "Random");
    first = first_deal(&a);
    second = first_deal(&a);
    char *third = first_deal(&a);
    ck_assert_msg(strcmp(first, second) != 0 || strcmp(first, third) != 0, "three random deals were the same");
    free(first);
    free(second);
    free(third);
    tc_close(&a);
    stop_server();
}
END_TEST

/* Reads c's frames until an event of this kind (returned, owned), or NULL after timeout_ms. */
static json_t *wait_event(table_client *c, const char *kind, int timeout_ms)
{
    for (int waited = 0; waited < timeout_ms; waited += 100) {
        json_t *frame = tc_next(c, 100);
        if (frame == NULL)
            continue;
        const char *k = json_string_value(json_object_get(json_object_get(frame, "event"), "kind"));
        if (strcmp(type_of(frame), "event") == 0 && k != NULL && strcmp(k, kind) == 0)
            return frame;
        json_decref(frame);
    }
    return NULL;
}

START_TEST(test_the_host_controls_over_the_wire_refuse_what_they_must_and_end_with_a_scoreboard)
{
    start_server_dealt("0", "7"); /* a deal that is no natural hand: the hand is played, not over at once */
    table_client a, w;
    connect_as(&a, "Ah Ma");
    create_table(&a, false, 30);
    add_bots(&a, 1);
    connect_as(&w, "Watcher");
    join(&w, a.code);
    /* bad input and a non-host change nothing */
    command_error(&w, json_pack("{s:s, s:s, s:{s:i}}", "type", "set_options", "code", a.code, "options", "stake", 2),
                  "not_host");
    command_error(&a, json_pack("{s:s, s:s, s:{s:i}}", "type", "set_options", "code", a.code, "options", "bogus", 1),
                  "bad_options");
    command_error(&a, json_pack("{s:s, s:s, s:{s:s}}", "type", "set_options", "code", a.code, "options", "stake", "two"),
                  "bad_options");
    command_error(&a, json_pack("{s:s, s:s, s:s}", "type", "set_host", "code", a.code, "player", "p999999"),
                  "not_at_table");
    command_error(&a, json_pack("{s:s, s:s, s:s}", "type", "hold_table", "code", a.code, "held", "yes"), "bad_request");
    command_error(&w, json_pack("{s:s, s:s, s:b}", "type", "spectator_chat", "code", a.code, "on", 0), "not_host");
    /* watchers' chat off: refused with its own code, the seated host still chats */
    command_ok(&a, json_pack("{s:s, s:b}", "type", "spectator_chat", "on", 0));
    command_error(&w, json_pack("{s:s, s:s, s:s}", "type", "chat", "code", a.code, "text", "hi"), "chat_off");
    command_ok(&a, json_pack("{s:s, s:s}", "type", "chat", "text", "quiet please"));
    /* held during the hand: it is played out, then no next hand starts */
    command_ok(&a, json_pack("{s:s}", "type", "start"));
    command_ok(&a, json_pack("{s:s, s:b}", "type", "hold_table", "held", 1));
    command_error(&a, json_pack("{s:s, s:s, s:{s:i}}", "type", "set_options", "code", a.code, "options", "stake", 3),
                  "hand_in_progress");
    command_error(&a, json_pack("{s:s, s:s}", "type", "end_table", "code", a.code), "hand_in_progress");
    ck_assert_msg(tc_play_until(&a, 1, 30000, true), "the hand did not finish");
    json_t *next = wait_event(&a, "hand_started", 500);
    ck_assert_msg(next == NULL, "a held table started a hand");
    command_ok(&a, json_pack("{s:s, s:{s:i}}", "type", "set_options", "options", "stake", 3));
    json_t *snap = tc_request(&w, json_pack("{s:s, s:s}", "type", "join_table", "code", a.code), 5000);
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(json_object_get(snap, "info"), "options"), "stake")), 3);
    ck_assert(json_is_true(json_object_get(json_object_get(snap, "info"), "held")));
    ck_assert(json_is_false(json_object_get(json_object_get(snap, "info"), "spectator_chat")));
    json_decref(snap);
    /* hosting handed to the watcher, who ends the session */
    command_ok(&a, json_pack("{s:s, s:s}", "type", "set_host", "player", w.player_id));
    command_error(&a, json_pack("{s:s, s:s}", "type", "end_table", "code", a.code), "not_host");
    command_ok(&w, json_pack("{s:s}", "type", "end_table"));
    json_t *ended = wait_event(&a, "table_ended", 5000);
    ck_assert_ptr_nonnull(ended);
    const json_t *board = json_object_get(json_object_get(ended, "event"), "scoreboard");
    ck_assert_uint_eq(json_array_size(board), 1);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(board, 0), "name")), "Ah Ma");
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(board, 0), "hands")), 1);
    json_decref(ended);
    command_error(&a, json_pack("{s:s, s:s}", "type", "join_table", "code", a.code), "no_such_table");
    ck_assert_int_eq(a.leaks + w.leaks, 0);
    tc_close(&a);
    tc_close(&w);
    stop_server();
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
    Suite *s = suite_create("tables");
    TCase *tc = tcase_create("tables");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_private_table_with_three_bots_plays_whole_hands);
    tcase_add_test(tc, test_four_people_join_by_code_and_play_a_hand);
    tcase_add_test(tc, test_a_dropped_player_resumes_with_its_token_mid_hand);
    tcase_add_test(tc, test_the_bot_plays_for_a_seat_whose_turn_timer_runs_out);
    tcase_add_test(tc, test_bad_messages_get_errors_and_change_nothing);
    tcase_add_test(tc, test_sigterm_mid_hand_tells_clients_and_exits_cleanly);
    tcase_add_test(tc, test_messages_sent_right_after_hello_are_answered_after_the_welcome);
    tcase_add_test(tc, test_a_name_of_22_chinese_characters_is_welcomed_and_one_over_24_is_a_bad_request);
    tcase_add_test(tc, test_deal_seed_deals_every_new_table_the_same_tiles_and_no_seed_does_not);
    tcase_add_test(tc, test_the_host_controls_over_the_wire_refuse_what_they_must_and_end_with_a_scoreboard);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
