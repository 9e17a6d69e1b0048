/*
 * store_profile — a player's profile as the store answers it (store_profile_get), on both backends
 * (each case runs on SQLite, then on the in-memory store, which must answer alike; beside a
 * PostgreSQL cluster, tests/pg/with_cluster.sh, they run on PostgreSQL instead, in a new database
 * each, which must answer alike too):
 *   - an unknown player is not_found; a bad page size or cursor is invalid;
 *   - totals per game and the balance count every table, private ones too;
 *   - for anyone else (public_only) a private table and its hands are left out of the pages;
 *   - pages of tables and of hands go by cursor, without repeating or losing one, and say when
 *     there are more;
 *   - the balance series has the end-of-day balance of each day played, oldest first, and the
 *     balance before the first of them.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <uv.h>

#include "profile_test_util.h"
#include "store.h"
#include "store_memory.h"
#include "store_test_pg.h"
#include "store_test_util.h"

#define DAY 86400000LL

static uv_loop_t loop;
static store *st;
static scratch_dir scratch;
static int64_t now_ms;
static char pg_name[64];  /* backend 2: the test's database, "" when none */
static char pg_uri[512];
static char pg_key[160];

static int64_t test_clock(void *ctx)
{
    (void)ctx;
    return now_ms;
}

/* Backend 0: SQLite in a scratch directory; 1: in memory; 2: PostgreSQL, a database of its own in
 * the cluster (its ledger key in a scratch directory). */
static void open_store(int backend)
{
    ck_assert_int_eq(uv_loop_init(&loop), 0);
    now_ms = 1767225600000LL + 10 * 3600 * 1000; /* 2026-01-01 10:00 UTC */
    store_options o = store_options_default();
    o.clock_ms = test_clock;
    pg_name[0] = '\0';
    if (backend == 0 || backend == 2) {
        scratch_make(&scratch);
        if (backend == 2) {
            pg_test_create(pg_name, sizeof pg_name, pg_uri, sizeof pg_uri);
            snprintf(pg_key, sizeof pg_key, "%s/ledger.key", scratch.dir);
            o.ledger_key_path = pg_key;
        }
        store_error error;
        st = store_open(&loop, backend == 2 ? pg_uri : scratch.db, &o, &error);
        ck_assert_msg(st != NULL, "%s", error.message);
    } else {
        scratch.dir[0] = '\0';
        st = store_memory_open(&loop, &o);
        ck_assert_ptr_nonnull(st);
    }
}

static void close_store(void)
{
    store_close(st);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    if (scratch.dir[0] != '\0')
        scratch_remove(&scratch);
    if (pg_name[0] != '\0')
        pg_test_drop(pg_name);
}

typedef struct got {
    bool called;
    store_error error;
    json_t *profile; /* a copy of what mattered, as JSON, for the asserts */
} got;

static void on_profile(void *ctx, const store_error *error, const store_profile *p)
{
    got *g = ctx;
    g->called = true;
    g->error = *error;
    if (p == NULL)
        return;
    json_t *games = json_array(), *days = json_array(), *tables = json_array(), *hands = json_array();
    for (size_t i = 0; i < p->n_games; i++)
        json_array_append_new(games, json_pack("[s,I,I]", p->games[i].game, (json_int_t)p->games[i].hands,
                                               (json_int_t)p->games[i].units));
    for (size_t i = 0; i < p->n_days; i++)
        json_array_append_new(days, json_pack("[I,I]", (json_int_t)p->days[i].day_ms, (json_int_t)p->days[i].balance));
    for (size_t i = 0; i < p->n_tables; i++)
        json_array_append_new(tables, json_pack("{s:s, s:s, s:b, s:b, s:I, s:I, s:I, s:I}", "code", p->tables[i].code,
                                                "game", p->tables[i].game, "public", p->tables[i].is_public, "closed",
                                                p->tables[i].closed, "hands", (json_int_t)p->tables[i].hands, "units",
                                                (json_int_t)p->tables[i].units, "cursor",
                                                (json_int_t)p->tables[i].cursor, "at",
                                                (json_int_t)p->tables[i].last_at_ms));
    for (size_t i = 0; i < p->n_hands; i++)
        json_array_append_new(hands, json_pack("{s:s, s:I, s:I, s:I, s:I}", "code", p->hands[i].code, "number",
                                               (json_int_t)p->hands[i].number, "units", (json_int_t)p->hands[i].units,
                                               "cursor", (json_int_t)p->hands[i].cursor, "at",
                                               (json_int_t)p->hands[i].at_ms));
    g->profile = json_pack("{s:s, s:b, s:I, s:I, s:o, s:o, s:I, s:o, s:b, s:o, s:b}", "name", p->nickname, "account",
                           p->is_account, "created", (json_int_t)p->created_at_ms, "balance", (json_int_t)p->balance,
                           "games", games, "days", days, "before", (json_int_t)p->balance_before, "tables", tables,
                           "more_tables", p->more_tables, "hands", hands, "more_hands", p->more_hands);
}

static got ask(int64_t player, bool public_only, int64_t tables_before, int64_t hands_before, int limit)
{
    got g = {0};
    store_profile_query q = {.player_id = player, .public_only = public_only, .tables_before = tables_before,
                             .hands_before = hands_before, .limit = limit};
    ck_assert(store_profile_get(st, &q, on_profile, &g));
    while (!g.called)
        uv_run(&loop, UV_RUN_ONCE);
    return g;
}

static got ask_ok(int64_t player, bool public_only, int64_t tables_before, int64_t hands_before, int limit)
{
    got g = ask(player, public_only, tables_before, hands_before, limit);
    ck_assert_msg(g.error.status == STORE_OK, "%s", g.error.message);
    return g;
}

static json_int_t num(const json_t *o, const char *key) { return json_integer_value(json_object_get(o, key)); }
static const char *str(const json_t *o, const char *key) { return json_string_value(json_object_get(o, key)); }
static const json_t *at(const json_t *o, const char *key, size_t i) { return json_array_get(json_object_get(o, key), i); }
static size_t count(const json_t *o, const char *key) { return json_array_size(json_object_get(o, key)); }

/* Ann plays a public Tien Gow table (2 hands: +5, +7), a private Tien Gow table (1 hand: -3), and
 * a public Tianjin table (1 hand: +10), which then closes. Bob played one hand at the public one. */
typedef struct world {
    int64_t ann, bob;
} world;

static world make_world(void)
{
    world w = {.ann = pt_guest(&loop, st, "Ann"), .bob = pt_guest(&loop, st, "Bob")};
    int64_t pub = pt_table(&loop, st, "tiengow", "PUBTG1", true, w.ann);
    int64_t priv = pt_table(&loop, st, "tiengow", "SECRET", false, w.ann);
    int64_t mj = pt_table(&loop, st, "tianjin", "PUBMJ1", true, w.ann);
    pt_hand(&loop, st, pub, 1, w.ann, 5, w.bob);
    pt_hand(&loop, st, priv, 1, w.ann, -3, 0);
    now_ms += DAY; /* the next day */
    pt_hand(&loop, st, pub, 2, w.ann, 7, 0);
    pt_hand(&loop, st, mj, 1, w.ann, 10, 0);
    pt_close(&loop, st, mj, "tianjin", "PUBMJ1", true, w.ann);
    return w;
}

START_TEST(test_an_unknown_player_is_not_found_and_a_bad_page_is_invalid)
{
    open_store(_i);
    world w = make_world();
    ck_assert_int_eq(ask(w.bob + 1000, false, 0, 0, 10).error.status, STORE_NOT_FOUND);
    ck_assert_int_eq(ask(w.ann, false, 0, 0, 0).error.status, STORE_INVALID);
    ck_assert_int_eq(ask(w.ann, false, 0, 0, STORE_PROFILE_PAGE_MAX + 1).error.status, STORE_INVALID);
    ck_assert_int_eq(ask(w.ann, false, -1, 0, 10).error.status, STORE_INVALID);
    ck_assert_int_eq(ask(w.ann, false, 0, -5, 10).error.status, STORE_INVALID);
    close_store();
}
END_TEST

START_TEST(test_totals_per_game_and_the_balance_count_every_table_private_ones_too)
{
    open_store(_i);
    world w = make_world();
    for (int public_only = 0; public_only < 2; public_only++) {
        got g = ask_ok(w.ann, public_only, 0, 0, 10);
        ck_assert_str_eq(str(g.profile, "name"), "Ann");
        ck_assert(!json_is_true(json_object_get(g.profile, "account")));
        ck_assert_int_eq(num(g.profile, "balance"), 5 - 3 + 7 + 10);
        ck_assert_int_eq(count(g.profile, "games"), 2);
        const json_t *mj = at(g.profile, "games", 0), *tg = at(g.profile, "games", 1);
        ck_assert_str_eq(json_string_value(json_array_get(mj, 0)), "tianjin");
        ck_assert_int_eq(json_integer_value(json_array_get(mj, 1)), 1);
        ck_assert_int_eq(json_integer_value(json_array_get(mj, 2)), 10);
        ck_assert_str_eq(json_string_value(json_array_get(tg, 0)), "tiengow");
        ck_assert_int_eq(json_integer_value(json_array_get(tg, 1)), 3);
        ck_assert_int_eq(json_integer_value(json_array_get(tg, 2)), 9);
        json_decref(g.profile);
    }
    got bob = ask_ok(w.bob, false, 0, 0, 10);
    ck_assert_int_eq(num(bob.profile, "balance"), 0);
    ck_assert_int_eq(count(bob.profile, "tables"), 1);
    ck_assert_int_eq(num(at(bob.profile, "tables", 0), "hands"), 1);
    json_decref(bob.profile);
    close_store();
}
END_TEST

START_TEST(test_for_anyone_else_a_private_table_and_its_hands_are_left_out)
{
    open_store(_i);
    world w = make_world();
    got self = ask_ok(w.ann, false, 0, 0, 10);
    ck_assert_int_eq(count(self.profile, "tables"), 3);
    ck_assert_int_eq(count(self.profile, "hands"), 4);
    char *text = json_dumps(self.profile, 0);
    ck_assert_ptr_nonnull(strstr(text, "SECRET"));
    free(text);
    got other = ask_ok(w.ann, true, 0, 0, 10);
    ck_assert_int_eq(count(other.profile, "tables"), 2);
    ck_assert_int_eq(count(other.profile, "hands"), 3);
    text = json_dumps(other.profile, 0);
    ck_assert_msg(strstr(text, "SECRET") == NULL, "a private table's code reached someone else: %s", text);
    free(text);
    json_decref(self.profile);
    json_decref(other.profile);
    close_store();
}
END_TEST

START_TEST(test_tables_come_most_recently_played_first_with_their_hands_net_and_state)
{
    open_store(_i);
    world w = make_world();
    got g = ask_ok(w.ann, false, 0, 0, 10);
    const json_t *mj = at(g.profile, "tables", 0), *pub = at(g.profile, "tables", 1), *priv = at(g.profile, "tables", 2);
    ck_assert_str_eq(str(mj, "code"), "PUBMJ1");
    ck_assert_str_eq(str(mj, "game"), "tianjin");
    ck_assert(json_is_true(json_object_get(mj, "closed")));
    ck_assert_str_eq(str(pub, "code"), "PUBTG1");
    ck_assert(!json_is_true(json_object_get(pub, "closed")));
    ck_assert_int_eq(num(pub, "hands"), 2);
    ck_assert_int_eq(num(pub, "units"), 12);
    ck_assert_int_eq(num(pub, "at"), now_ms);
    ck_assert_str_eq(str(priv, "code"), "SECRET");
    ck_assert(!json_is_true(json_object_get(priv, "public")));
    ck_assert_int_eq(num(priv, "units"), -3);
    ck_assert_int_eq(num(at(g.profile, "hands", 0), "number"), 1);
    ck_assert_str_eq(str(at(g.profile, "hands", 0), "code"), "PUBMJ1");
    ck_assert_int_eq(num(at(g.profile, "hands", 1), "number"), 2);
    ck_assert_int_eq(num(at(g.profile, "hands", 1), "units"), 7);
    json_decref(g.profile);
    close_store();
}
END_TEST

START_TEST(test_pages_go_by_cursor_without_repeating_or_losing_one_and_say_when_there_are_more)
{
    open_store(_i);
    world w = make_world();
    const char *tables[3] = {"PUBMJ1", "PUBTG1", "SECRET"};
    int64_t tables_cursor = 0, hands_cursor = 0;
    size_t n_hands = 0;
    for (int page = 0; page < 3; page++) {
        got g = ask_ok(w.ann, false, tables_cursor, hands_cursor, 1);
        ck_assert_int_eq(count(g.profile, "tables"), 1);
        ck_assert_str_eq(str(at(g.profile, "tables", 0), "code"), tables[page]);
        ck_assert_int_eq(json_is_true(json_object_get(g.profile, "more_tables")), page < 2);
        ck_assert_int_eq(json_is_true(json_object_get(g.profile, "more_hands")), true);
        tables_cursor = num(at(g.profile, "tables", 0), "cursor");
        hands_cursor = num(at(g.profile, "hands", 0), "cursor");
        n_hands += count(g.profile, "hands");
        json_decref(g.profile);
    }
    got last = ask_ok(w.ann, false, tables_cursor, hands_cursor, 1);
    ck_assert_int_eq(count(last.profile, "tables"), 0);
    ck_assert_int_eq(count(last.profile, "hands"), 1);
    ck_assert_int_eq(num(at(last.profile, "hands", 0), "units"), 5); /* the first hand of all */
    ck_assert(!json_is_true(json_object_get(last.profile, "more_hands")));
    ck_assert_int_eq(n_hands + 1, 4);
    json_decref(last.profile);
    /* for someone else, a page is full of public tables: the private one takes no room */
    got other = ask_ok(w.ann, true, 0, 0, 2);
    ck_assert_int_eq(count(other.profile, "tables"), 2);
    ck_assert(!json_is_true(json_object_get(other.profile, "more_tables")));
    json_decref(other.profile);
    close_store();
}
END_TEST

START_TEST(test_the_balance_series_has_each_day_s_closing_balance_oldest_first)
{
    open_store(_i);
    world w = make_world();
    got g = ask_ok(w.ann, true, 0, 0, 10);
    ck_assert_int_eq(count(g.profile, "days"), 2);
    const json_t *d0 = at(g.profile, "days", 0), *d1 = at(g.profile, "days", 1);
    ck_assert_int_eq(json_integer_value(json_array_get(d0, 0)), 1767225600000LL);
    ck_assert_int_eq(json_integer_value(json_array_get(d0, 1)), 5 - 3);
    ck_assert_int_eq(json_integer_value(json_array_get(d1, 0)), 1767225600000LL + DAY);
    ck_assert_int_eq(json_integer_value(json_array_get(d1, 1)), 5 - 3 + 7 + 10);
    ck_assert_int_eq(num(g.profile, "before"), 0);
    json_decref(g.profile);
    close_store();
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("store_profile");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    /* loop index: 0 SQLite, 1 in memory; beside a PostgreSQL cluster, 2 PostgreSQL alone */
    const int first = pg_test_base() != NULL ? 2 : 0, end = pg_test_base() != NULL ? 3 : 2;
    tcase_add_loop_test(tc, test_an_unknown_player_is_not_found_and_a_bad_page_is_invalid, first, end);
    tcase_add_loop_test(tc, test_totals_per_game_and_the_balance_count_every_table_private_ones_too, first, end);
    tcase_add_loop_test(tc, test_for_anyone_else_a_private_table_and_its_hands_are_left_out, first, end);
    tcase_add_loop_test(tc, test_tables_come_most_recently_played_first_with_their_hands_net_and_state, first, end);
    tcase_add_loop_test(tc, test_pages_go_by_cursor_without_repeating_or_losing_one_and_say_when_there_are_more, first,
                        end);
    tcase_add_loop_test(tc, test_the_balance_series_has_each_day_s_closing_balance_oldest_first, first, end);
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
