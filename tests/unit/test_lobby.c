/*
 * lobby — the lobby in-process, as the network layer drives it (net.h's functions are stubs
 * here that keep what is sent), on the in-memory store whose answers the tests hold and fail:
 *   - hello waits for the store, and the messages sent meanwhile are answered after the welcome,
 *     in order;
 *   - the store refusing bad input is the client's `bad_request` with the store's reason, and
 *     only a store that cannot be reached is `unavailable`;
 *   - a login that completes after its guest sat down is refused, and the guest keeps its seat
 *     and its connection;
 *   - a table never started leaves nothing in the store;
 *   - failed logins are throttled by account and by address, with the wait said, and one
 *     address holds at most two of the password slots;
 *   - a name that looks like an account's is name_taken, saying so.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <uv.h>

#include "lobby.h"
#include "log.h"
#include "net.h"
#include "store_memory.h"

#define CONNS 8
#define MAX_FRAMES 512

struct net_conn {
    void *data;
    const char *peer; /* its address; NULL: 127.0.0.1 */
    bool open, closing;
    json_t *frames[MAX_FRAMES];
    int n_frames;
};

static uv_loop_t loop;
static store *st;
static lobby *lob;
static net_handlers handlers;
static net_conn conns[CONNS];

/* ---- net.h, as the lobby sees it ---- */

bool net_send(net_conn *conn, const char *text, size_t len)
{
    ck_assert_msg(conn->open, "the lobby sent to a closed connection");
    if (conn->closing)
        return false;
    json_t *frame = json_loadb(text, len, 0, NULL);
    ck_assert_ptr_nonnull(frame);
    ck_assert_int_lt(conn->n_frames, MAX_FRAMES);
    conn->frames[conn->n_frames++] = frame;
    return true;
}

void net_close(net_conn *conn, const char *reason)
{
    (void)reason;
    conn->closing = true;
}

void net_conn_set_data(net_conn *conn, void *data) { conn->data = data; }
void *net_conn_data(const net_conn *conn) { return conn->data; }
const char *net_conn_peer(const net_conn *conn) { return conn->peer != NULL ? conn->peer : "127.0.0.1"; }

/* ---- fixture ---- */

static void setup(void)
{
    log_set_level(LOG_LEVEL_ERROR);
    ck_assert_int_eq(uv_loop_init(&loop), 0);
    st = store_memory_open(&loop, NULL);
    lobby_config config = lobby_config_default();
    lob = lobby_create(&loop, &config, st);
    ck_assert_ptr_nonnull(lob);
    handlers = lobby_handlers(lob);
    memset(conns, 0, sizeof conns);
}

static void teardown(void)
{
    lobby_shutdown(lob);
    for (int i = 0; i < CONNS; i++)
        if (conns[i].open) {
            conns[i].open = false;
            handlers.on_close(handlers.ctx, &conns[i]);
        }
    store_memory_pump(st);
    lobby_destroy(lob);
    store_close(st);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    for (int i = 0; i < CONNS; i++)
        for (int f = 0; f < conns[i].n_frames; f++)
            json_decref(conns[i].frames[f]);
}

static void say(int c, json_t *message)
{
    net_conn *conn = &conns[c];
    if (!conn->open) {
        conn->open = true;
        handlers.on_open(handlers.ctx, conn);
    }
    char *text = json_dumps(message, JSON_COMPACT);
    json_decref(message);
    handlers.on_message(handlers.ctx, conn, text, strlen(text));
    free(text);
}

static const char *type_at(int c, int i) { return json_string_value(json_object_get(conns[c].frames[i], "type")); }

/* The frame answering message id on connection c, or NULL. */
static const json_t *answer(int c, int id)
{
    for (int i = 0; i < conns[c].n_frames; i++)
        if (json_integer_value(json_object_get(conns[c].frames[i], "id")) == id)
            return conns[c].frames[i];
    return NULL;
}

static const char *code_of(const json_t *frame) { return json_string_value(json_object_get(frame, "code")); }

static void hello(int c, const char *name, int id)
{
    say(c, json_pack("{s:s, s:i, s:s, s:i}", "type", "hello", "v", 1, "name", name, "id", id));
}

/* ---- tests ---- */

START_TEST(test_hello_waits_for_the_store_and_what_came_meanwhile_is_answered_after_the_welcome_in_order)
{
    store_memory_hold(st, true);
    hello(0, "Ann", 1);
    say(0, json_pack("{s:s, s:i}", "type", "ping", "id", 2));
    say(0, json_pack("{s:s, s:i}", "type", "list_tables", "id", 3));
    ck_assert_int_eq(conns[0].n_frames, 0); /* nothing before the store has the guest */
    store_memory_hold(st, false);
    store_memory_release(st, SIZE_MAX);
    store_memory_pump(st);
    ck_assert_int_ge(conns[0].n_frames, 3);
    ck_assert_str_eq(type_at(0, 0), "welcome");
    ck_assert_str_eq(type_at(0, 1), "pong");
    ck_assert_str_eq(type_at(0, 2), "tables");
}
END_TEST

START_TEST(test_a_store_refusal_of_the_input_is_a_bad_request_and_an_unreachable_store_is_unavailable)
{
    store_memory_fail(st, STORE_KIND_GUEST_CREATE, 1, STORE_INVALID);
    hello(0, "Ann", 1);
    store_memory_pump(st);
    ck_assert_ptr_nonnull(answer(0, 1));
    ck_assert_str_eq(code_of(answer(0, 1)), "bad_request");

    store_memory_fail(st, STORE_KIND_GUEST_CREATE, 1, STORE_IO);
    hello(1, "Bo", 1);
    store_memory_pump(st);
    ck_assert_ptr_nonnull(answer(1, 1));
    ck_assert_str_eq(code_of(answer(1, 1)), "unavailable");
}
END_TEST

START_TEST(test_a_login_that_ends_after_its_guest_sat_down_is_refused_and_the_seat_keeps_its_connection)
{
    hello(0, "Mei", 1);
    store_memory_pump(st);
    say(0, json_pack("{s:s, s:i, s:s, s:s}", "type", "register", "id", 2, "name", "meitest", "password",
                     "jasmine tea"));
    store_memory_pump(st);
    ck_assert_str_eq(json_string_value(json_object_get(answer(0, 2), "type")), "welcome");

    hello(1, "Guest", 1);
    store_memory_pump(st);
    store_memory_hold(st, true);
    say(1, json_pack("{s:s, s:i, s:s, s:s}", "type", "login", "id", 2, "name", "meitest", "password",
                     "jasmine tea"));
    say(1, json_pack("{s:s, s:i, s:s, s:{}}", "type", "create_table", "id", 3, "game", "tiengow", "options"));
    ck_assert_str_eq(json_string_value(json_object_get(answer(1, 3), "type")), "snapshot");
    store_memory_hold(st, false);
    store_memory_release(st, SIZE_MAX);
    store_memory_pump(st);
    ck_assert_ptr_nonnull(answer(1, 2));
    ck_assert_str_eq(code_of(answer(1, 2)), "at_table");
    /* still the guest, seated and connected */
    const char *code = json_string_value(json_object_get(answer(1, 3), "table"));
    say(1, json_pack("{s:s, s:i, s:s}", "type", "join_table", "id", 4, "code", code));
    const json_t *again = answer(1, 4);
    ck_assert_int_eq(json_integer_value(json_object_get(again, "seat")), 0);
    const json_t *seat0 = json_array_get(json_object_get(json_object_get(again, "info"), "seats"), 0);
    ck_assert(json_is_true(json_object_get(seat0, "connected")));
}
END_TEST

START_TEST(test_a_table_never_started_leaves_nothing_in_the_store)
{
    hello(0, "Ann", 1);
    store_memory_pump(st);
    say(0, json_pack("{s:s, s:i, s:s, s:{}}", "type", "create_table", "id", 2, "game", "tiengow", "options"));
    store_memory_pump(st);
    ck_assert_str_eq(json_string_value(json_object_get(answer(0, 2), "type")), "snapshot");
    ck_assert_uint_eq(store_memory_n_tables(st), 0);
}
END_TEST

static void login(int c, int id, const char *name, const char *password)
{
    say(c, json_pack("{s:s, s:i, s:s, s:s}", "type", "login", "id", id, "name", name, "password", password));
}

static void register_account(int c, int id, const char *name, const char *password)
{
    say(c, json_pack("{s:s, s:i, s:s, s:s}", "type", "register", "id", id, "name", name, "password", password));
    store_memory_pump(st);
}

static const char *type_of(const json_t *frame) { return json_string_value(json_object_get(frame, "type")); }

/* Issue 14: one address could try 17-26 passwords a second against an account, for ever. */
START_TEST(test_failed_logins_to_one_account_must_wait_after_five_and_the_wait_is_said)
{
    conns[0].peer = "198.51.100.1";
    hello(0, "Mei", 1);
    store_memory_pump(st);
    register_account(0, 2, "meitest", "jasmine tea");
    ck_assert_str_eq(type_of(answer(0, 2)), "welcome");

    conns[1].peer = "203.0.113.9";
    hello(1, "Guesser", 1);
    store_memory_pump(st);
    for (int i = 0; i < 5; i++) {
        login(1, 10 + i, "MeiTest", "wrong guess");
        store_memory_pump(st);
        ck_assert_str_eq(code_of(answer(1, 10 + i)), "bad_login");
    }
    login(1, 20, "meitest", "sixth guess");
    store_memory_pump(st);
    const json_t *limited = answer(1, 20);
    ck_assert_str_eq(code_of(limited), "rate_limited");
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(limited, "message")), "to this account"));
    json_int_t retry = json_integer_value(json_object_get(limited, "retry_ms"));
    ck_assert_int_gt(retry, 0);
    ck_assert_int_le(retry, 15 * 60 * 1000);
    ck_assert_uint_eq(store_memory_count(st, STORE_KIND_LOGIN), 5); /* the sixth never reached a hash */

    /* the wait is the account's, whoever asks (else another address would guess on) … */
    conns[2].peer = "192.0.2.77";
    hello(2, "Other", 1);
    store_memory_pump(st);
    login(2, 2, "meitest", "seventh guess");
    store_memory_pump(st);
    ck_assert_str_eq(code_of(answer(2, 2)), "rate_limited");
    /* … but not the address's: the guesser may still log in to an account of its own */
    login(1, 21, "othertest", "wrong too");
    store_memory_pump(st);
    ck_assert_str_eq(code_of(answer(1, 21)), "bad_login");
}
END_TEST

START_TEST(test_failed_logins_from_one_address_must_wait_after_twenty_whatever_the_accounts)
{
    conns[0].peer = "2001:db8:aa:bb00::1";
    hello(0, "Sprayer", 1);
    store_memory_pump(st);
    for (int i = 0; i < 20; i++) {
        char name[16];
        snprintf(name, sizeof name, "victim%02d", i);
        login(0, 10 + i, name, "summer2024");
        store_memory_pump(st);
        ck_assert_str_eq(code_of(answer(0, 10 + i)), "bad_login");
    }
    login(0, 40, "victim99", "summer2024");
    store_memory_pump(st);
    ck_assert_str_eq(code_of(answer(0, 40)), "rate_limited");
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(answer(0, 40), "message")), "your address"));
    /* another address of the same /56 is the same address … */
    conns[1].peer = "2001:db8:aa:bbff:1234::9";
    hello(1, "Sprayer2", 1);
    store_memory_pump(st);
    login(1, 2, "victim98", "summer2024");
    store_memory_pump(st);
    ck_assert_str_eq(code_of(answer(1, 2)), "rate_limited");
    /* … and another address is not */
    conns[2].peer = "2001:db8:cc::1";
    hello(2, "Honest", 1);
    store_memory_pump(st);
    login(2, 2, "victim97", "summer2024");
    store_memory_pump(st);
    ck_assert_str_eq(code_of(answer(2, 2)), "bad_login");
}
END_TEST

/* Issue 14: a login flood took the 8 password slots, so everyone else's login was busy. */
START_TEST(test_one_address_holds_at_most_two_password_slots_and_another_still_gets_one)
{
    for (int c = 0; c < 4; c++) {
        conns[c].peer = c < 3 ? "203.0.113.9" : "198.51.100.1";
        hello(c, "Someone", 1);
    }
    store_memory_pump(st);
    store_memory_hold(st, true);
    for (int c = 0; c < 4; c++)
        login(c, 2, "flooded", "whatever pass");
    ck_assert_ptr_null(answer(0, 2)); /* being checked */
    ck_assert_ptr_null(answer(1, 2));
    ck_assert_str_eq(code_of(answer(2, 2)), "busy");
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(answer(2, 2), "message")), "your address"));
    ck_assert_ptr_null(answer(3, 2)); /* the other address got a slot */
    store_memory_hold(st, false);
    store_memory_release(st, SIZE_MAX);
    store_memory_pump(st);
    for (int c = 0; c < 4; c++)
        if (c != 2)
            ck_assert_str_eq(code_of(answer(c, 2)), "bad_login");
    /* the slots are free again */
    login(2, 3, "flooded", "whatever pass");
    store_memory_pump(st);
    ck_assert_str_eq(code_of(answer(2, 3)), "bad_login");
}
END_TEST

/* Issue 14: ВОВ could be registered beside BOB. */
START_TEST(test_registering_a_name_that_looks_like_an_account_is_name_taken_saying_so)
{
    hello(0, "Bob", 1);
    hello(1, "Mallory", 1);
    store_memory_pump(st);
    register_account(0, 2, "BOB", "jasmine tea");
    ck_assert_str_eq(type_of(answer(0, 2)), "welcome");
    register_account(1, 2, "\u0412\u041e\u0412", "jasmine tea");
    ck_assert_str_eq(code_of(answer(1, 2)), "name_taken");
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(answer(1, 2), "message")), "looks like"));
    register_account(1, 3, "bob", "jasmine tea");
    ck_assert_str_eq(code_of(answer(1, 3)), "name_taken");
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(answer(1, 3), "message")), "taken"));
    register_account(1, 4, "Bobby", "jasmine tea");
    ck_assert_str_eq(type_of(answer(1, 4)), "welcome");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lobby");
    TCase *tc = tcase_create("lobby");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_hello_waits_for_the_store_and_what_came_meanwhile_is_answered_after_the_welcome_in_order);
    tcase_add_test(tc, test_a_store_refusal_of_the_input_is_a_bad_request_and_an_unreachable_store_is_unavailable);
    tcase_add_test(tc, test_a_login_that_ends_after_its_guest_sat_down_is_refused_and_the_seat_keeps_its_connection);
    tcase_add_test(tc, test_a_table_never_started_leaves_nothing_in_the_store);
    tcase_add_test(tc, test_failed_logins_to_one_account_must_wait_after_five_and_the_wait_is_said);
    tcase_add_test(tc, test_failed_logins_from_one_address_must_wait_after_twenty_whatever_the_accounts);
    tcase_add_test(tc, test_one_address_holds_at_most_two_password_slots_and_another_still_gets_one);
    tcase_add_test(tc, test_registering_a_name_that_looks_like_an_account_is_name_taken_saying_so);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
