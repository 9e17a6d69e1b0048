/*
 * lobby — the lobby in-process, as the network layer drives it (net.h's functions are stubs
 * here that keep what is sent), on the in-memory store whose answers the tests hold and fail:
 *   - a hello with a token waits for the store, and the messages sent meanwhile are answered
 *     after the welcome, in order;
 *   - a hello without one stores nothing: the guest is stored when it first makes or joins a
 *     table or registers, with the id and token it was welcomed with, the messages sent
 *     meanwhile waiting in order; one that only looks around is never stored;
 *   - new guests are limited per client address (an IPv6 one by its /64);
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
#include <time.h>

#include <jansson.h>
#include <uv.h>

#include "lobby.h"
#include "lobby_listing.h"
#include "log.h"
#include "net.h"
#include "store_memory.h"

#define CONNS 40
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
void net_conn_identified(net_conn *conn) { (void)conn; }
const char *net_conn_peer(const net_conn *conn)
{
    return conn->peer ? conn->peer : "127.0.0.1";
}

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

static void hello_with_token(int c, const char *name, const char *token, int id)
{
    say(c, json_pack("{s:s, s:i, s:s, s:s, s:i}", "type", "hello", "v", 1, "name", name, "token", token, "id", id));
}

static const char *type_of(const json_t *frame) { return json_string_value(json_object_get(frame, "type")); }

/* The welcome's player id ("p7" → 7) and token. */
static int64_t welcomed_id(int c, int id)
{
    const json_t *w = answer(c, id);
    ck_assert_ptr_nonnull(w);
    ck_assert_str_eq(type_of(w), "welcome");
    const char *ref = json_string_value(json_object_get(json_object_get(w, "player"), "id"));
    return strtoll(ref + 1, NULL, 10);
}

static const char *welcomed_token(int c, int id)
{
    return json_string_value(json_object_get(answer(c, id), "token"));
}

static void on_found(void *ctx, const store_error *error, const store_session *session)
{
    int64_t *player = ctx;
    *player = error->status == STORE_OK ? session->player_id : -1;
}

/* The player the store has for token, or -1. */
static int64_t stored_session(const char *token)
{
    int64_t player = 0;
    ck_assert(store_session_lookup(st, token, on_found, &player));
    store_memory_pump(st);
    return player;
}

static void create_table(int c, int id)
{
    say(c, json_pack("{s:s, s:i, s:s, s:{}}", "type", "create_table", "id", id, "game", "tiengow", "options"));
}

/* ---- tests ---- */

START_TEST(test_a_hello_with_a_token_waits_for_the_store_and_what_came_meanwhile_follows_the_welcome)
{
    store_memory_hold(st, true);
    hello_with_token(0, "Ann", "unknownTokenFromAnotherServer_0123456789abc", 1);
    say(0, json_pack("{s:s, s:i}", "type", "ping", "id", 2));
    say(0, json_pack("{s:s, s:i}", "type", "list_tables", "id", 3));
    ck_assert_int_eq(conns[0].n_frames, 0); /* nothing before the store has looked the token up */
    store_memory_hold(st, false);
    store_memory_release(st, SIZE_MAX);
    store_memory_pump(st);
    ck_assert_int_ge(conns[0].n_frames, 3);
    ck_assert_str_eq(type_at(0, 0), "welcome"); /* an unknown token: a new guest */
    ck_assert_str_eq(type_at(0, 1), "pong");
    ck_assert_str_eq(type_at(0, 2), "tables");
    ck_assert_uint_eq(store_memory_n_players(st), 0);
}
END_TEST

START_TEST(test_a_hello_without_a_token_is_welcomed_at_once_and_stores_nothing)
{
    store_memory_hold(st, true);
    hello(0, "Ann", 1);
    ck_assert_int_eq(conns[0].n_frames, 1);
    ck_assert_int_gt(welcomed_id(0, 1), 0);
    ck_assert_uint_eq(strlen(welcomed_token(0, 1)), 43);
    ck_assert_int_eq(store_memory_count(st, STORE_KIND_ANY), 0);
    store_memory_hold(st, false);

    /* Looking around stores nothing either: the list, an unknown code, a second hello with the token. */
    say(0, json_pack("{s:s, s:i}", "type", "list_tables", "id", 2));
    say(0, json_pack("{s:s, s:i, s:s}", "type", "join_table", "id", 3, "code", "ZZZZZZ"));
    ck_assert_str_eq(code_of(answer(0, 3)), "no_such_table");
    hello_with_token(1, "Ann", welcomed_token(0, 1), 1);
    ck_assert_int_eq(welcomed_id(1, 1), welcomed_id(0, 1)); /* the same guest, found in memory */
    ck_assert(json_is_true(json_object_get(answer(1, 1), "resumed")));
    store_memory_pump(st);
    ck_assert_int_eq(store_memory_count(st, STORE_KIND_ANY), 0);
    ck_assert_uint_eq(store_memory_n_players(st), 0);
    ck_assert_uint_eq(store_memory_n_sessions(st), 0);
}
END_TEST

START_TEST(test_a_guest_is_stored_with_its_id_and_token_when_it_first_makes_a_table_and_the_rest_waits)
{
    hello(0, "Ann", 1);
    const int64_t id = welcomed_id(0, 1);
    char token[64];
    snprintf(token, sizeof token, "%s", welcomed_token(0, 1));
    store_memory_hold(st, true);
    create_table(0, 2);
    say(0, json_pack("{s:s, s:i}", "type", "ping", "id", 3));
    ck_assert_ptr_null(answer(0, 2)); /* no room sees the guest before the store has it */
    ck_assert_ptr_null(answer(0, 3));
    store_memory_hold(st, false);
    store_memory_release(st, SIZE_MAX);
    store_memory_pump(st);
    ck_assert_str_eq(type_of(answer(0, 2)), "snapshot");
    ck_assert_str_eq(type_of(answer(0, 3)), "pong");
    int at_snapshot = -1, at_pong = -1;
    for (int i = 0; i < conns[0].n_frames; i++) {
        const json_int_t frame_id = json_integer_value(json_object_get(conns[0].frames[i], "id"));
        at_snapshot = frame_id == 2 ? i : at_snapshot;
        at_pong = frame_id == 3 ? i : at_pong;
    }
    ck_assert_int_lt(at_snapshot, at_pong);
    ck_assert_uint_eq(store_memory_n_players(st), 1);
    ck_assert_ptr_nonnull(store_memory_player_at(st, id));
    ck_assert_str_eq(store_memory_player_at(st, id)->nickname, "Ann");
    ck_assert_int_eq(stored_session(token), id);
    ck_assert_int_eq(store_memory_count(st, STORE_KIND_GUEST_CREATE), 1);

    /* Stored once: a second table needs nothing more. */
    say(0, json_pack("{s:s, s:i, s:s}", "type", "leave_table", "id", 4, "code",
                     json_string_value(json_object_get(answer(0, 2), "table"))));
    create_table(0, 5);
    store_memory_pump(st);
    ck_assert_str_eq(type_of(answer(0, 5)), "snapshot");
    ck_assert_int_eq(store_memory_count(st, STORE_KIND_GUEST_CREATE), 1);
}
END_TEST

START_TEST(test_joining_a_table_or_registering_stores_the_guest_first)
{
    hello(0, "Host", 1);
    create_table(0, 2);
    store_memory_pump(st);
    const char *code = json_string_value(json_object_get(answer(0, 2), "table"));

    hello(1, "Watcher", 1);
    const int64_t watcher = welcomed_id(1, 1);
    ck_assert_ptr_null(store_memory_player_at(st, watcher));
    say(1, json_pack("{s:s, s:i, s:s}", "type", "join_table", "id", 2, "code", code));
    store_memory_pump(st);
    ck_assert_str_eq(type_of(answer(1, 2)), "snapshot");
    ck_assert_ptr_nonnull(store_memory_player_at(st, watcher));

    hello(2, "Lan", 1);
    const int64_t lan = welcomed_id(2, 1);
    say(2, json_pack("{s:s, s:i, s:s, s:s}", "type", "register", "id", 2, "name", "lantest", "password",
                     "jasmine tea"));
    store_memory_pump(st);
    ck_assert_str_eq(type_of(answer(2, 2)), "welcome");
    ck_assert_int_eq(welcomed_id(2, 2), lan); /* the guest became the account */
    ck_assert(store_memory_player_at(st, lan)->is_account);
    ck_assert_uint_eq(store_memory_n_players(st), 3);
}
END_TEST

START_TEST(test_a_store_refusal_of_the_input_is_a_bad_request_and_an_unreachable_store_is_unavailable)
{
    hello(0, "Ann", 1);
    store_memory_fail(st, STORE_KIND_GUEST_CREATE, 1, STORE_INVALID);
    create_table(0, 2);
    store_memory_pump(st);
    ck_assert_ptr_nonnull(answer(0, 2));
    ck_assert_str_eq(code_of(answer(0, 2)), "bad_request");

    hello(1, "Bo", 1);
    store_memory_fail(st, STORE_KIND_GUEST_CREATE, 1, STORE_IO);
    create_table(1, 2);
    say(1, json_pack("{s:s, s:i}", "type", "ping", "id", 3));
    store_memory_pump(st);
    ck_assert_ptr_nonnull(answer(1, 2));
    ck_assert_str_eq(code_of(answer(1, 2)), "unavailable");
    ck_assert_str_eq(type_of(answer(1, 3)), "pong"); /* what waited behind it is answered */
    ck_assert_uint_eq(store_memory_n_players(st), 0);

    /* Once the store is back, the same guest is stored and seated. */
    create_table(1, 4);
    store_memory_pump(st);
    ck_assert_str_eq(type_of(answer(1, 4)), "snapshot");
    ck_assert_ptr_nonnull(store_memory_player_at(st, welcomed_id(1, 1)));
}
END_TEST

START_TEST(test_the_thirty_first_new_guest_of_an_address_in_a_minute_is_rate_limited)
{
    for (int c = 0; c < 30; c++) {
        hello(c, "Visitor", 1);
        ck_assert_str_eq(type_of(answer(c, 1)), "welcome");
    }
    hello(30, "Visitor", 1);
    ck_assert_str_eq(code_of(answer(30, 1)), "rate_limited");
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(answer(30, 1), "message")), "new guests"));
    /* A guest coming back with its token is not a new one. */
    hello_with_token(31, "Visitor", welcomed_token(0, 1), 1);
    ck_assert_str_eq(type_of(answer(31, 1)), "welcome");
    /* Another address has its own allowance. */
    conns[32].peer = "192.0.2.7";
    hello(32, "Neighbour", 1);
    ck_assert_str_eq(type_of(answer(32, 1)), "welcome");
    ck_assert_int_eq(store_memory_count(st, STORE_KIND_ANY), 0);
}
END_TEST

START_TEST(test_an_ipv6_address_counts_new_guests_by_its_56_bit_prefix)
{
    for (int c = 0; c < 30; c++) {
        conns[c].peer = c % 2 ? "2001:db8:1:2::1" : "2001:db8:1:ff:ffff:eeee:dddd:cccc";
        hello(c, "Visitor", 1);
        ck_assert_str_eq(type_of(answer(c, 1)), "welcome");
    }
    conns[30].peer = "2001:db8:1:2::99";
    hello(30, "Visitor", 1);
    ck_assert_str_eq(code_of(answer(30, 1)), "rate_limited");
    conns[31].peer = "2001:db8:1:100::1"; /* the next /56 */
    hello(31, "Visitor", 1);
    ck_assert_str_eq(type_of(answer(31, 1)), "welcome");
    conns[32].peer = "::ffff:127.0.0.1"; /* IPv4 through IPv6: its own IPv4 address, not the rest */
    hello(32, "Visitor", 1);
    ck_assert_str_eq(type_of(answer(32, 1)), "welcome");
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
    create_table(1, 5); /* stored, then out again: sitting down below needs no store */
    store_memory_pump(st);
    say(1, json_pack("{s:s, s:i, s:s}", "type", "leave_table", "id", 6, "code",
                     json_string_value(json_object_get(answer(1, 5), "table"))));
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

/* ---- several nodes: the other nodes' tables (lobby_listing.h) ---- */

static uint64_t wall_us(void)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
}

/* A public entry of another node's listing text. */
static json_t *far_public(const char *code, uint64_t serial, const char *game, const char *state, int free_seats,
                          bool locked, const char *host)
{
    json_t *summary = json_pack("{s:s, s:s, s:b, s:s, s:s}", "code", code, "game", game, "public", true, "state", state,
                                "host", host);
    const lobby_table_facts facts = {.code = code, .game = game, .state = state, .host = host,
                                     .free_seats = free_seats, .locked = locked};
    json_t *e = lobby_listing_entry(serial, true, &facts, summary);
    json_decref(summary);
    return e;
}

static json_t *far_private(const char *code, uint64_t serial)
{
    const lobby_table_facts facts = {.code = code};
    return lobby_listing_entry(serial, false, &facts, NULL);
}

/* A listing of two nodes, n2 then n3 (the fresher), from their lists of entries (taken). */
static lobby_listing *two_nodes(json_t *n2, json_t *n3)
{
    char *t2 = json_dumps(n2, JSON_COMPACT), *t3 = json_dumps(n3, JSON_COMPACT);
    json_decref(n2);
    json_decref(n3);
    const lobby_listing_source nodes[2] = {{.node = "n2", .ws = "/n/n2/ws", .text = t2},
                                           {.node = "n3", .ws = "/n/n3/ws", .text = t3}};
    lobby_listing *l = lobby_listing_parse(nodes, 2);
    free(t2);
    free(t3);
    ck_assert_ptr_nonnull(l);
    return l;
}

static const char *summary_code(const json_t *tables_reply, size_t i)
{
    return code_of(json_array_get(json_object_get(tables_reply, "tables"), i));
}

START_TEST(test_the_public_list_pages_through_this_nodes_and_the_other_nodes_tables_newest_first_in_one_order)
{
    hello(0, "Ann", 1);
    say(0, json_pack("{s:s, s:i, s:s, s:{}, s:b}", "type", "create_table", "id", 2, "game", "tiengow", "options",
                     "public", true));
    store_memory_pump(st);
    const char *here = json_string_value(json_object_get(answer(0, 2), "table"));
    ck_assert_msg(here != NULL, "%s", json_dumps(answer(0, 2), 0));
    ck_assert_ptr_nonnull(here);
    const uint64_t now = wall_us();
    lobby_set_others(lob, two_nodes(json_pack("[o, o]", far_public("NEWERAAAAAAA", now + 60000000u, "tianjin",
                                                                   "waiting", 3, false, "Bo Zhang"),
                                              far_private("SECRETAAAAAA", now + 50000000u)),
                                    json_pack("[o, o]", far_public("PASTAAAAAAAA", 1000, "tiengow", "playing", 0,
                                                                   false, "Cy"),
                                              far_public("SHUTAAAAAAAA", 900, "tiengow", "waiting", 2, true, "Di"))));

    say(0, json_pack("{s:s, s:i, s:i}", "type", "list_tables", "id", 3, "limit", 2));
    const json_t *page = answer(0, 3);
    ck_assert_int_eq(json_integer_value(json_object_get(page, "total")), 4); /* the private one is never listed */
    ck_assert_uint_eq(json_array_size(json_object_get(page, "tables")), 2);
    ck_assert_str_eq(summary_code(page, 0), "NEWERAAAAAAA");
    ck_assert_str_eq(summary_code(page, 1), here);
    const char *next = json_string_value(json_object_get(page, "next"));
    ck_assert_ptr_nonnull(next);
    say(0, json_pack("{s:s, s:i, s:i, s:s}", "type", "list_tables", "id", 4, "limit", 2, "after", next));
    page = answer(0, 4);
    ck_assert_uint_eq(json_array_size(json_object_get(page, "tables")), 2);
    ck_assert_str_eq(summary_code(page, 0), "PASTAAAAAAAA");
    ck_assert_str_eq(summary_code(page, 1), "SHUTAAAAAAAA");
    ck_assert(json_is_null(json_object_get(page, "next")));

    /* every filter looks at the other nodes' tables as at this node's */
    say(0, json_pack("{s:s, s:i, s:s}", "type", "list_tables", "id", 5, "game", "tianjin"));
    ck_assert_int_eq(json_integer_value(json_object_get(answer(0, 5), "total")), 1);
    ck_assert_str_eq(summary_code(answer(0, 5), 0), "NEWERAAAAAAA");
    say(0, json_pack("{s:s, s:i, s:b}", "type", "list_tables", "id", 6, "free_seat", true));
    ck_assert_int_eq(json_integer_value(json_object_get(answer(0, 6), "total")), 2); /* here and NEWER */
    say(0, json_pack("{s:s, s:i, s:s}", "type", "list_tables", "id", 7, "state", "playing"));
    ck_assert_int_eq(json_integer_value(json_object_get(answer(0, 7), "total")), 1);
    ck_assert_str_eq(summary_code(answer(0, 7), 0), "PASTAAAAAAAA");
    say(0, json_pack("{s:s, s:i, s:s}", "type", "list_tables", "id", 8, "search", "zhang"));
    ck_assert_int_eq(json_integer_value(json_object_get(answer(0, 8), "total")), 1);
    ck_assert_str_eq(summary_code(answer(0, 8), 0), "NEWERAAAAAAA");
}
END_TEST

START_TEST(test_a_join_for_a_table_another_node_lists_is_moved_there_private_or_not_and_an_unlisted_code_is_no_table)
{
    hello(0, "Ann", 1);
    lobby_set_others(lob, two_nodes(json_pack("[o]", far_private("SECRETAAAAAA", 5)),
                                    json_pack("[o, o]", far_public("PUBAAAAAAAAA", 6, "tiengow", "waiting", 3, false, "B"),
                                              far_private("SECRETAAAAAA", 7))));
    ck_assert_uint_eq(store_memory_n_players(st), 0);
    say(0, json_pack("{s:s, s:i, s:s}", "type", "join_table", "id", 2, "code", "SECRETAAAAAA"));
    store_memory_pump(st);
    /* the guest is stored first: its token is then good on the node it is sent to */
    ck_assert_uint_eq(store_memory_n_players(st), 1);
    const json_t *moved = answer(0, 2);
    ck_assert_str_eq(type_of(moved), "moved");
    ck_assert_str_eq(json_string_value(json_object_get(moved, "table")), "SECRETAAAAAA");
    ck_assert_str_eq(json_string_value(json_object_get(moved, "node")), "n3"); /* the fresher of the two */
    ck_assert_str_eq(json_string_value(json_object_get(moved, "ws")), "/n/n3/ws");
    say(0, json_pack("{s:s, s:i, s:s}", "type", "join_table", "id", 3, "code", "PUBAAAAAAAAA"));
    ck_assert_str_eq(json_string_value(json_object_get(answer(0, 3), "node")), "n3");
    say(0, json_pack("{s:s, s:i, s:s}", "type", "join_table", "id", 4, "code", "NXWHERAAAAAA"));
    ck_assert_str_eq(code_of(answer(0, 4)), "no_such_table");
    /* a command other than join_table for a table elsewhere tells nothing of it */
    say(0, json_pack("{s:s, s:i, s:s}", "type", "leave_table", "id", 5, "code", "SECRETAAAAAA"));
    ck_assert_str_eq(code_of(answer(0, 5)), "no_such_table");
    /* the others' tables go when the next listing does not have them */
    lobby_set_others(lob, two_nodes(json_array(), json_array()));
    say(0, json_pack("{s:s, s:i, s:s}", "type", "join_table", "id", 6, "code", "SECRETAAAAAA"));
    ck_assert_str_eq(code_of(answer(0, 6)), "no_such_table");
}
END_TEST

START_TEST(test_a_listing_skips_entries_that_are_not_tables_and_keeps_one_entry_a_code)
{
    const char *text_a = "[{\"code\":\"GOODAAAAAAAA\",\"serial\":3},{\"serial\":4},{\"code\":7,\"serial\":5},"
                         "{\"code\":\"NEGATIVEAAAA\",\"serial\":-1},{\"code\":\"PUBNOSUMMARY\",\"serial\":6,\"public\":true},"
                         "\"nonsense\",{\"code\":\"TWICEAAAAAAA\",\"serial\":8}]";
    const char *text_b = "{\"not\":\"a list\"}";
    const char *text_c = "[{\"code\":\"TWICEAAAAAAA\",\"serial\":9}]";
    const lobby_listing_source nodes[3] = {{.node = "a", .ws = "/n/a/ws", .text = text_a},
                                           {.node = "b", .ws = "/n/b/ws", .text = text_b},
                                           {.node = "c", .ws = "/n/c/ws", .text = text_c}};
    lobby_listing *l = lobby_listing_parse(nodes, 3);
    ck_assert_uint_eq(lobby_listing_count(l), 2);
    ck_assert_str_eq(lobby_listing_at(l, 0)->code, "TWICEAAAAAAA"); /* newest first */
    ck_assert_uint_eq(lobby_listing_at(l, 0)->serial, 9);
    ck_assert_str_eq(lobby_listing_node(l, lobby_listing_find(l, "TWICEAAAAAAA")), "c");
    ck_assert_str_eq(lobby_listing_ws(l, lobby_listing_find(l, "GOODAAAAAAAA")), "/n/a/ws");
    ck_assert_ptr_null(lobby_listing_find(l, "PUBNOSUMMARY"));
    ck_assert_ptr_null(lobby_listing_find(l, "NEGATIVEAAAA"));
    lobby_listing_free(l);
    l = lobby_listing_parse(NULL, 0);
    ck_assert_uint_eq(lobby_listing_count(l), 0);
    ck_assert_ptr_null(lobby_listing_find(l, "GOODAAAAAAAA"));
    lobby_listing_free(l);
}
END_TEST


END_TEST

int main(void)
{
    Suite *s = suite_create("lobby");
    TCase *tc = tcase_create("lobby");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_a_hello_with_a_token_waits_for_the_store_and_what_came_meanwhile_follows_the_welcome);
    tcase_add_test(tc, test_a_hello_without_a_token_is_welcomed_at_once_and_stores_nothing);
    tcase_add_test(tc, test_a_guest_is_stored_with_its_id_and_token_when_it_first_makes_a_table_and_the_rest_waits);
    tcase_add_test(tc, test_joining_a_table_or_registering_stores_the_guest_first);
    tcase_add_test(tc, test_a_store_refusal_of_the_input_is_a_bad_request_and_an_unreachable_store_is_unavailable);
    tcase_add_test(tc, test_the_thirty_first_new_guest_of_an_address_in_a_minute_is_rate_limited);
    tcase_add_test(tc, test_an_ipv6_address_counts_new_guests_by_its_56_bit_prefix);
    tcase_add_test(tc, test_a_login_that_ends_after_its_guest_sat_down_is_refused_and_the_seat_keeps_its_connection);
    tcase_add_test(tc, test_a_table_never_started_leaves_nothing_in_the_store);
    tcase_add_test(tc, test_failed_logins_to_one_account_must_wait_after_five_and_the_wait_is_said);
    tcase_add_test(tc, test_failed_logins_from_one_address_must_wait_after_twenty_whatever_the_accounts);
    tcase_add_test(tc, test_one_address_holds_at_most_two_password_slots_and_another_still_gets_one);
    tcase_add_test(tc, test_registering_a_name_that_looks_like_an_account_is_name_taken_saying_so);
    tcase_add_test(tc, test_the_public_list_pages_through_this_nodes_and_the_other_nodes_tables_newest_first_in_one_order);
    tcase_add_test(tc, test_a_join_for_a_table_another_node_lists_is_moved_there_private_or_not_and_an_unlisted_code_is_no_table);
    tcase_add_test(tc, test_a_listing_skips_entries_that_are_not_tables_and_keeps_one_entry_a_code);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
