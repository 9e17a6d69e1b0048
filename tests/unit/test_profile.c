/*
 * profile — the `profile` request through the lobby (net.h stubbed, the in-memory store):
 *   - malformed player ids and cursors are bad_request, an unknown player no_such_player;
 *   - anyone sees a player's name, totals for both games and balance series, but another
 *     player's private table never: its code is nowhere in the reply; the player sees their own;
 *   - tables and hands come 20 a page, with the cursor of the next page;
 *   - a guest the store does not keep yet gets an empty profile of their own.
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
#include "profile_test_util.h"
#include "store_memory.h"

#define CONNS 4
#define MAX_FRAMES 256

struct net_conn {
    void *data;
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
    (void)conn;
    return "127.0.0.1";
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

/* The frame answering message id on connection c, once the store has answered. */
static const json_t *answer(int c, int id)
{
    store_memory_pump(st);
    for (int i = 0; i < conns[c].n_frames; i++)
        if (json_integer_value(json_object_get(conns[c].frames[i], "id")) == id)
            return conns[c].frames[i];
    ck_abort_msg("no answer to message %d", id);
    return NULL;
}

static const char *str(const json_t *o, const char *key) { return json_string_value(json_object_get(o, key)); }

/* Welcomes a guest on connection c; answers its player id. */
static int64_t hello(int c, const char *name)
{
    say(c, json_pack("{s:s, s:i, s:s, s:i}", "type", "hello", "v", 1, "name", name, "id", 1));
    const char *ref = str(json_object_get(answer(c, 1), "player"), "id");
    return strtoll(ref + 1, NULL, 10);
}

static void on_kept(void *ctx, const store_error *error, const store_session *session)
{
    (void)session;
    pt_on_done(ctx, error);
}

/* Stores the guest welcomed on c, as its first table would. */
static void keep(int c, int64_t id, const char *name)
{
    pt_answer a = {0};
    ck_assert(store_guest_keep(st, id, name, str(answer(c, 1), "token"), on_kept, &a));
    pt_wait(&loop, &a);
}

static const json_t *profile(int c, int id, json_t *player)
{
    say(c, json_pack("{s:s, s:i, s:o}", "type", "profile", "id", id, "player", player));
    return answer(c, id);
}

static const char *error_code(const json_t *frame)
{
    ck_assert_str_eq(str(frame, "type"), "error");
    return str(frame, "code");
}

static json_t *ref(int64_t id)
{
    char text[24];
    snprintf(text, sizeof text, "p%lld", (long long)id);
    return json_string(text);
}

/* Ann (on connection 0) plays a public Tien Gow table, a private one (SECRET) and a Tianjin one;
 * Bob is on connection 1. */
static int64_t ann, bob;

static void make_world(void)
{
    ann = hello(0, "Ann");
    bob = hello(1, "Bob");
    keep(0, ann, "Ann");
    keep(1, bob, "Bob");
    int64_t pub = pt_table(&loop, st, "tiengow", "PUBTG1", true, ann);
    int64_t priv = pt_table(&loop, st, "tiengow", "SECRET", false, ann);
    int64_t mj = pt_table(&loop, st, "tianjin", "PUBMJ1", true, ann);
    pt_hand(&loop, st, pub, 1, ann, 5, bob);
    pt_hand(&loop, st, priv, 1, ann, -3, 0);
    pt_hand(&loop, st, mj, 1, ann, 10, 0);
}

/* ---- tests ---- */

START_TEST(test_malformed_player_ids_and_cursors_are_bad_requests_and_an_unknown_player_is_no_such_player)
{
    make_world();
    json_t *bad[] = {json_string("p0"), json_string("12"), json_integer(12), json_string("p"), json_string("p1x"),
                     json_string("P1"), json_string("p-1"), json_string("p12345678901234567890"), json_null()};
    int id = 10;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++, id++)
        ck_assert_str_eq(error_code(profile(1, id, bad[i])), "bad_request");
    say(1, json_pack("{s:s, s:i}", "type", "profile", "id", ++id));
    ck_assert_str_eq(error_code(answer(1, id)), "bad_request");
    say(1, json_pack("{s:s, s:i, s:o, s:i}", "type", "profile", "id", ++id, "player", ref(ann), "tables_before", 0));
    ck_assert_str_eq(error_code(answer(1, id)), "bad_request");
    say(1, json_pack("{s:s, s:i, s:o, s:s}", "type", "profile", "id", ++id, "player", ref(ann), "hands_before", "9"));
    ck_assert_str_eq(error_code(answer(1, id)), "bad_request");
    say(1, json_pack("{s:s, s:i, s:o, s:b}", "type", "profile", "id", ++id, "player", ref(ann), "secret", 1));
    ck_assert_str_eq(error_code(answer(1, id)), "bad_request");
    ck_assert_str_eq(error_code(profile(1, ++id, ref(bob + 1000))), "no_such_player");
}
END_TEST

START_TEST(test_another_player_sees_the_name_totals_and_chart_but_never_a_private_table_s_code)
{
    make_world();
    const json_t *seen = profile(1, 20, ref(ann));
    ck_assert_str_eq(str(seen, "type"), "profile");
    ck_assert_str_eq(str(json_object_get(seen, "player"), "name"), "Ann");
    ck_assert_str_eq(str(json_object_get(seen, "player"), "kind"), "guest");
    ck_assert(json_is_false(json_object_get(seen, "you")));
    ck_assert_int_eq(json_integer_value(json_object_get(seen, "balance")), 12);
    const json_t *games = json_object_get(seen, "games");
    ck_assert_int_eq(json_array_size(games), 2);
    ck_assert_str_eq(str(json_array_get(games, 0), "game"), "tianjin");
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(games, 1), "net")), 2); /* the private hand counts */
    ck_assert_int_eq(json_array_size(json_object_get(json_object_get(seen, "series"), "days")), 1);
    ck_assert_int_eq(json_array_size(json_object_get(seen, "tables")), 2);
    ck_assert_int_eq(json_array_size(json_object_get(seen, "hands")), 2);
    char *text = json_dumps(seen, 0);
    ck_assert_msg(strstr(text, "SECRET") == NULL, "a private code reached another player: %s", text);
    ck_assert_ptr_nonnull(strstr(text, "PUBTG1"));
    free(text);

    const json_t *own = profile(0, 21, ref(ann));
    ck_assert(json_is_true(json_object_get(own, "you")));
    ck_assert_int_eq(json_array_size(json_object_get(own, "tables")), 3);
    text = json_dumps(own, 0);
    ck_assert_ptr_nonnull(strstr(text, "SECRET"));
    free(text);
}
END_TEST

START_TEST(test_tables_and_hands_come_twenty_a_page_with_the_next_page_s_cursor)
{
    make_world();
    for (int t = 0; t < 20; t++) {
        char code[16];
        snprintf(code, sizeof code, "MORE%02d", t);
        pt_hand(&loop, st, pt_table(&loop, st, "tiengow", code, true, ann), 1, ann, 1, 0);
    }
    const json_t *first = profile(1, 30, ref(ann));
    ck_assert_int_eq(json_array_size(json_object_get(first, "tables")), 20);
    ck_assert_int_eq(json_array_size(json_object_get(first, "hands")), 20);
    ck_assert_str_eq(str(json_array_get(json_object_get(first, "tables"), 0), "code"), "MORE19");
    json_t *tables_next = json_object_get(first, "tables_next"), *hands_next = json_object_get(first, "hands_next");
    ck_assert(json_is_integer(tables_next) && json_is_integer(hands_next));
    say(1, json_pack("{s:s, s:i, s:o, s:O, s:O}", "type", "profile", "id", 31, "player", ref(ann), "tables_before",
                     tables_next, "hands_before", hands_next));
    const json_t *second = answer(1, 31);
    const json_t *tables = json_object_get(second, "tables");
    ck_assert_int_eq(json_array_size(tables), 2); /* PUBMJ1 and PUBTG1: SECRET is not Bob's to see */
    ck_assert_str_eq(str(json_array_get(tables, 0), "code"), "PUBMJ1");
    ck_assert_str_eq(str(json_array_get(tables, 1), "code"), "PUBTG1");
    ck_assert(json_is_null(json_object_get(second, "tables_next")));
    ck_assert_int_eq(json_array_size(json_object_get(second, "hands")), 2);
    ck_assert(json_is_null(json_object_get(second, "hands_next")));
}
END_TEST

START_TEST(test_a_guest_the_store_does_not_keep_yet_gets_an_empty_profile_of_their_own)
{
    int64_t me = hello(2, "Cai");
    const json_t *own = profile(2, 40, ref(me));
    ck_assert_str_eq(str(own, "type"), "profile");
    ck_assert_str_eq(str(json_object_get(own, "player"), "name"), "Cai");
    ck_assert(json_is_true(json_object_get(own, "you")));
    ck_assert_int_eq(json_array_size(json_object_get(own, "tables")), 0);
    /* and to anyone else that id names nobody */
    hello(3, "Dee");
    ck_assert_str_eq(error_code(profile(3, 41, ref(me))), "no_such_player");
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("profile");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_malformed_player_ids_and_cursors_are_bad_requests_and_an_unknown_player_is_no_such_player);
    tcase_add_test(tc, test_another_player_sees_the_name_totals_and_chart_but_never_a_private_table_s_code);
    tcase_add_test(tc, test_tables_and_hands_come_twenty_a_page_with_the_next_page_s_cursor);
    tcase_add_test(tc, test_a_guest_the_store_does_not_keep_yet_gets_an_empty_profile_of_their_own);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
