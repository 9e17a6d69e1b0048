/*
 * migrate — numbered steps bring a database up to date one transaction at a time, PRAGMA
 * user_version says where it is, and a database newer than the binary is refused untouched.
 * The upgrade cases use a test-only step set (a notes table, then a column added to it), and the
 * real one: a database left at 0001 upgraded by the built-in steps.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "migrate.h"
#include "store.h"
#include "store_test_util.h"

static const migrate_step notes_steps[] = {
    {1, "notes", "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL);"},
    {2, "pinned",
     "ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;"
     "UPDATE notes SET pinned = 1 WHERE text = 'keep';"},
};

/* Step 2 creates a table, then fails: the table must not survive. */
static const migrate_step broken_steps[] = {
    {1, "notes", "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL);"},
    {2, "broken", "CREATE TABLE extra (x INTEGER); INSERT INTO no_such_table VALUES (1);"},
};

static scratch_dir dir;
static sqlite3 *db;

static void setup(void)
{
    scratch_make(&dir);
    db = db_open(dir.db);
}

static void teardown(void)
{
    sqlite3_close(db);
    scratch_remove(&dir);
}

static bool table_exists(const char *name)
{
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '%s'", name);
    return db_int(db, sql) == 1;
}

START_TEST(test_fresh_database_gets_every_builtin_migration)
{
    size_t count = 0;
    const migrate_step *steps = migrate_builtin(&count);
    ck_assert_uint_ge(count, 1);
    ck_assert_int_eq(steps[0].version, 1);
    ck_assert_str_eq(steps[0].name, "init");

    store_error error;
    int from = -1, to = -1;
    ck_assert_int_eq(migrate_apply(db, steps, count, &from, &to, &error), STORE_OK);
    ck_assert_int_eq(from, 0);
    ck_assert_int_eq(to, (int)count);
    ck_assert_int_eq(migrate_version(db), (int)count);
    const char *tables[] = {"players", "sessions", "game_tables", "hands", "hand_actions", "ledger"};
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        ck_assert_msg(table_exists(tables[i]), "table %s is missing", tables[i]);
}
END_TEST

START_TEST(test_applying_again_changes_nothing)
{
    store_error error;
    int from = -1, to = -1;
    ck_assert_int_eq(migrate_apply(db, notes_steps, 2, NULL, NULL, &error), STORE_OK);
    db_exec(db, "INSERT INTO notes (text) VALUES ('keep')");
    ck_assert_int_eq(migrate_apply(db, notes_steps, 2, &from, &to, &error), STORE_OK);
    ck_assert_int_eq(from, 2);
    ck_assert_int_eq(to, 2);
    ck_assert_int_eq(db_int(db, "SELECT count(*) FROM notes"), 1);
}
END_TEST

START_TEST(test_upgrade_from_version_1_to_2_keeps_and_converts_the_data)
{
    store_error error;
    ck_assert_int_eq(migrate_apply(db, notes_steps, 1, NULL, NULL, &error), STORE_OK);
    ck_assert_int_eq(migrate_version(db), 1);
    db_exec(db, "INSERT INTO notes (text) VALUES ('keep'), ('other')");

    int from = -1, to = -1;
    ck_assert_int_eq(migrate_apply(db, notes_steps, 2, &from, &to, &error), STORE_OK);
    ck_assert_int_eq(from, 1);
    ck_assert_int_eq(to, 2);
    ck_assert_int_eq(migrate_version(db), 2);
    ck_assert_int_eq(db_int(db, "SELECT pinned FROM notes WHERE text = 'keep'"), 1);
    ck_assert_int_eq(db_int(db, "SELECT pinned FROM notes WHERE text = 'other'"), 0);
}
END_TEST

START_TEST(test_database_newer_than_the_binary_is_refused_untouched)
{
    store_error error;
    ck_assert_int_eq(migrate_apply(db, notes_steps, 2, NULL, NULL, &error), STORE_OK);
    db_exec(db, "INSERT INTO notes (text) VALUES ('keep')");

    /* A binary that knows only step 1 meets a version-2 database. */
    int from = -1;
    ck_assert_int_eq(migrate_apply(db, notes_steps, 1, &from, NULL, &error), STORE_TOO_NEW);
    ck_assert_int_eq(error.status, STORE_TOO_NEW);
    ck_assert_int_eq(from, 2);
    ck_assert_ptr_nonnull(strstr(error.message, "schema version 2"));
    ck_assert_ptr_nonnull(strstr(error.message, "up to 1"));
    ck_assert_ptr_nonnull(strstr(error.message, dir.db));
    ck_assert_int_eq(migrate_version(db), 2);
    ck_assert_int_eq(db_int(db, "SELECT count(*) FROM notes WHERE text = 'keep'"), 1);
}
END_TEST

START_TEST(test_failing_step_leaves_the_previous_version_and_nothing_of_itself)
{
    store_error error;
    ck_assert_int_eq(migrate_apply(db, broken_steps, 2, NULL, NULL, &error), STORE_INTERNAL);
    ck_assert_ptr_nonnull(strstr(error.message, "0002_broken"));
    ck_assert_ptr_nonnull(strstr(error.message, "no_such_table"));
    ck_assert_int_eq(migrate_version(db), 1); /* step 1 was committed on its own */
    ck_assert(table_exists("notes"));
    ck_assert(!table_exists("extra"));
}
END_TEST

START_TEST(test_step_set_with_a_gap_is_refused_before_anything_runs)
{
    const migrate_step gap[] = {
        {1, "notes", "CREATE TABLE notes (id INTEGER PRIMARY KEY);"},
        {3, "later", "CREATE TABLE later (id INTEGER PRIMARY KEY);"},
    };
    store_error error;
    ck_assert_int_ne(migrate_apply(db, gap, 2, NULL, NULL, &error), STORE_OK);
    ck_assert_int_eq(migrate_version(db), 0);
    ck_assert(!table_exists("notes"));
}
END_TEST

START_TEST(test_store_open_migrates_a_new_file)
{
    uv_loop_t loop;
    uv_loop_init(&loop);
    store_error error;
    store *s = store_open(&loop, dir.db, NULL, &error);
    ck_assert_msg(s != NULL, "%s", error.message);
    store_close(s);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(uv_loop_close(&loop), 0);

    size_t count = 0;
    migrate_builtin(&count);
    ck_assert_int_eq(migrate_version(db), (int)count);
    char mode[16];
    db_text(db, "PRAGMA journal_mode", mode, sizeof mode);
    ck_assert_str_eq(mode, "wal");
}
END_TEST

START_TEST(test_store_open_refuses_a_database_newer_than_the_binary)
{
    size_t count = 0;
    migrate_builtin(&count);
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA user_version = %zu", count + 1);
    db_exec(db, sql);

    uv_loop_t loop;
    uv_loop_init(&loop);
    store_error error;
    store *s = store_open(&loop, dir.db, NULL, &error);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(error.status, STORE_TOO_NEW);
    ck_assert_str_eq(store_status_name(error.status), "too_new");
    ck_assert_ptr_nonnull(strstr(error.message, "newer"));
    ck_assert_ptr_nonnull(strstr(error.message, dir.db));
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    ck_assert_int_eq(migrate_version(db), (int)count + 1);
    ck_assert(!table_exists("players"));
}
END_TEST

/* A database written by a teahouse that knew only 0001: its rows stay, and its tables get the
 * default turn timer of 30 seconds, which the schema then keeps within 1 to 3600. */
START_TEST(test_upgrade_from_0001_keeps_the_rows_and_gives_tables_a_30_second_turn_timer)
{
    size_t count = 0;
    const migrate_step *steps = migrate_builtin(&count);
    ck_assert_uint_ge(count, 2);
    ck_assert_str_eq(steps[1].name, "table_turn_seconds");
    store_error error;
    ck_assert_int_eq(migrate_apply(db, steps, 1, NULL, NULL, &error), STORE_OK);
    db_exec(db, "INSERT INTO players (id, kind, nickname, created_at, last_seen_at) VALUES (7, 'guest', 'Lan', 1, 1);"
                "INSERT INTO game_tables (id, game, options, host_player_id, code, is_public, seats, state, banker,"
                " multiplier, hands_played, created_at, updated_at) VALUES"
                " (3, 'tiengow', '{}', 7, 'OLD1', 1, '[7,\"bot\",null,null]', 'playing', 2, 4, 9, 1, 1),"
                " (4, 'tiengow', '{}', NULL, 'OLD2', 0, '[null,null,null,null]', 'closed', 0, 2, 0, 1, 1);"
                "INSERT INTO hands (id, table_id, number, seed, deal, banker, multiplier, started_at)"
                " VALUES (11, 3, 9, 42, '[]', 2, 4, 5);");

    int from = -1, to = -1;
    ck_assert_int_eq(migrate_apply(db, steps, count, &from, &to, &error), STORE_OK);
    ck_assert_int_eq(from, 1);
    ck_assert_int_eq(to, (int)count);
    ck_assert_int_eq(db_int(db, "SELECT count(*) FROM game_tables"), 2);
    ck_assert_int_eq(db_int(db, "SELECT count(*) FROM game_tables WHERE turn_seconds = 30"), 2);
    ck_assert_int_eq(db_int(db, "SELECT banker * 100 + multiplier FROM game_tables WHERE code = 'OLD1'"), 204);
    ck_assert_int_eq(db_int(db, "SELECT count(*) FROM players WHERE nickname = 'Lan'"), 1);
    ck_assert_int_eq(db_int(db, "SELECT seed FROM hands WHERE id = 11"), 42);

    /* The range is the schema's too: out of it is refused, its ends are taken. */
    ck_assert_int_ne(sqlite3_exec(db, "UPDATE game_tables SET turn_seconds = 0 WHERE id = 3", NULL, NULL, NULL),
                     SQLITE_OK);
    ck_assert_int_ne(sqlite3_exec(db, "UPDATE game_tables SET turn_seconds = 3601 WHERE id = 3", NULL, NULL, NULL),
                     SQLITE_OK);
    db_exec(db, "UPDATE game_tables SET turn_seconds = 3600 WHERE id = 3; UPDATE game_tables SET turn_seconds = 1"
                " WHERE id = 4;");
    ck_assert_int_eq(db_int(db, "SELECT sum(turn_seconds) FROM game_tables"), 3601);
}
END_TEST

/* The same upgrade through the store: it migrates the old file on opening and recovers the open
 * table, timer and all. */
START_TEST(test_store_open_upgrades_a_0001_database_and_recovers_its_tables)
{
    size_t count = 0;
    const migrate_step *steps = migrate_builtin(&count);
    store_error error;
    ck_assert_int_eq(migrate_apply(db, steps, 1, NULL, NULL, &error), STORE_OK);
    db_exec(db, "INSERT INTO players (id, kind, nickname, created_at, last_seen_at) VALUES (7, 'guest', 'Lan', 1, 1);"
                "INSERT INTO game_tables (id, game, options, host_player_id, code, is_public, seats, state, banker,"
                " multiplier, hands_played, created_at, updated_at) VALUES"
                " (3, 'tiengow', '{}', 7, 'OLD1', 1, '[7,\"bot\",null,null]', 'playing', 2, 4, 9, 1, 1);");

    uv_loop_t loop;
    uv_loop_init(&loop);
    store *s = store_open(&loop, dir.db, NULL, &error);
    ck_assert_msg(s != NULL, "%s", error.message);
    store_recovery *r = NULL;
    ck_assert_msg(store_recover(s, &r, &error), "%s", error.message);
    ck_assert_uint_eq(r->n_tables, 1);
    const store_table *t = &r->tables[0].table;
    ck_assert_int_eq(t->id, 3);
    ck_assert_str_eq(t->code, "OLD1");
    ck_assert_int_eq(t->turn_seconds, 30);
    ck_assert_int_eq(t->hands_played, 9);
    ck_assert_str_eq(t->seats[0].nickname, "Lan");
    ck_assert(t->seats[1].bot);
    store_recovery_free(r);
    store_close(s);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    ck_assert_int_eq(migrate_version(db), (int)count);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("migrate");
    TCase *tc = tcase_create("steps");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_fresh_database_gets_every_builtin_migration);
    tcase_add_test(tc, test_applying_again_changes_nothing);
    tcase_add_test(tc, test_upgrade_from_version_1_to_2_keeps_and_converts_the_data);
    tcase_add_test(tc, test_database_newer_than_the_binary_is_refused_untouched);
    tcase_add_test(tc, test_failing_step_leaves_the_previous_version_and_nothing_of_itself);
    tcase_add_test(tc, test_step_set_with_a_gap_is_refused_before_anything_runs);
    tcase_add_test(tc, test_store_open_migrates_a_new_file);
    tcase_add_test(tc, test_store_open_refuses_a_database_newer_than_the_binary);
    tcase_add_test(tc, test_upgrade_from_0001_keeps_the_rows_and_gives_tables_a_30_second_turn_timer);
    tcase_add_test(tc, test_store_open_upgrades_a_0001_database_and_recovers_its_tables);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
