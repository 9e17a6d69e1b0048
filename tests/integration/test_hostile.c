/*
 * hostile — the attacks of one anonymous client on the lobby, each sent to the real server over
 * real WebSockets, with what it must not achieve checked from outside (replies, and the database
 * read directly):
 *   - tables past the per-player cap are refused before anything is made or stored, and a table
 *     nobody ever played leaves no row;
 * Each case failed on the server before its fix.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

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
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
