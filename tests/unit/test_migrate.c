/*
 * migrate — numbered steps bring a database up to date one transaction at a time, PRAGMA
 * user_version says where it is, and a database newer than the binary is refused untouched.
 * The upgrade cases use a test-only step set (a notes table, then a column added to it), and the
 * real one: a database left at 0001 upgraded by the built-in steps.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "migrate.h"
#include "store.h"
#include "store_ledger.h"
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
    char state[64];
    db_text(db, "SELECT game_state FROM game_tables WHERE code = 'OLD1'", state, sizeof state);
    ck_assert_str_eq(state, "{\"banker\":2,\"multiplier\":4}");
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

/* The rows of a table as text (each column quoted, so NULL and '' differ), in a fixed order. */
static void table_rows(const char *table, const char *columns, char *out, size_t cap)
{
    char expr[1024] = "", list[512];
    snprintf(list, sizeof list, "%s", columns);
    for (char *save = NULL, *col = strtok_r(list, ", ", &save); col != NULL; col = strtok_r(NULL, ", ", &save)) {
        size_t used = strlen(expr);
        snprintf(expr + used, sizeof expr - used, "%squote(%s)", used ? " || ',' || " : "", col);
    }
    char sql[1536];
    snprintf(sql, sizeof sql, "SELECT group_concat(r, '|') FROM (SELECT %s AS r FROM %s ORDER BY 1)", expr, table);
    db_text(db, sql, out, cap);
}

/* A version-2 database with rows in every table (two tables, three hands, actions, a ledger, a
 * session), brought to the current version: every row is kept, each table and hand has its banker
 * and multiplier as its game state, and the two columns are gone. */
START_TEST(test_upgrade_from_0002_moves_banker_and_multiplier_into_the_game_state_and_keeps_every_row)
{
    size_t count = 0;
    const migrate_step *steps = migrate_builtin(&count);
    ck_assert_uint_ge(count, 3);
    ck_assert_str_eq(steps[2].name, "game_state");
    store_error error;
    ck_assert_int_eq(migrate_apply(db, steps, 2, NULL, NULL, &error), STORE_OK);
    db_exec(db,
            "INSERT INTO players (id, kind, nickname, account_name, password_hash, created_at, last_seen_at) VALUES"
            " (7, 'guest', 'Lan', NULL, NULL, 1, 2), (8, 'account', 'Mei', 'Mei', '$argon2id$x', 3, 4);"
            "INSERT INTO sessions (token_hash, player_id, created_at, expires_at) VALUES (x'0102', 8, 5, 6);"
            "INSERT INTO game_tables (id, game, options, host_player_id, code, is_public, seats, state, banker,"
            " multiplier, hands_played, created_at, updated_at, turn_seconds) VALUES"
            " (3, 'tiengow', '{\"stake\":1}', 7, 'OLD1', 1, '[7,\"bot\",8,null]', 'playing', 2, 4, 2, 1, 9, 45),"
            " (4, 'tiengow', '{}', NULL, 'OLD2', 0, '[null,null,null,null]', 'closed', -1, 2, 0, 1, 1, 30);"
            "INSERT INTO hands (id, table_id, number, seed, deal, banker, multiplier, started_at, result, finished_at)"
            " VALUES (11, 3, 1, 42, '[[1]]', 1, 2, 5, '{\"winner\":0}', 6), (12, 3, 2, -5, '[[2]]', 2, 4, 7, NULL, NULL),"
            " (13, 4, 1, 9, '[]', 0, 8, 8, '{}', 9);"
            "INSERT INTO hand_actions (id, hand_id, seq, seat, action, at) VALUES"
            " (1, 11, 1, 1, '{\"play\":[3]}', 5), (2, 12, 1, 2, '{\"play\":[4]}', 7), (3, 12, 2, 3, '{}', 8);"
            "INSERT INTO ledger (id, table_id, hand_id, player_id, seat, units, reason, balance_after, at, prev_hash,"
            " hash) VALUES (1, 3, 11, 7, 0, 2, 'settle', 2, 6, 'p1', 'h1'), (2, 3, 11, NULL, 1, -2, 'settle', NULL, 6,"
            " 'h1', 'h2');");
    const struct {
        const char *table, *columns;
    } kept[] = {
        {"players", "id, kind, nickname, account_name, password_hash, is_admin, created_at, last_seen_at"},
        {"sessions", "hex(token_hash), player_id, created_at, expires_at"},
        {"game_tables", "id, game, options, host_player_id, code, is_public, seats, state, hands_played, created_at,"
                        " updated_at, turn_seconds"},
        {"hands", "id, table_id, number, seed, deal, started_at, result, finished_at"},
        {"hand_actions", "id, hand_id, seq, seat, action, at"},
        {"ledger", "id, table_id, hand_id, player_id, seat, units, reason, balance_after, at, prev_hash, hash"},
    };
    enum { N_KEPT = sizeof kept / sizeof kept[0] };
    char before[N_KEPT][1024];
    for (size_t i = 0; i < N_KEPT; i++)
        table_rows(kept[i].table, kept[i].columns, before[i], sizeof before[i]);

    int from = -1, to = -1;
    ck_assert_int_eq(migrate_apply(db, steps, count, &from, &to, &error), STORE_OK);
    ck_assert_int_eq(from, 2);
    ck_assert_int_eq(to, (int)count);
    for (size_t i = 0; i < N_KEPT; i++) {
        char after[1024];
        table_rows(kept[i].table, kept[i].columns, after, sizeof after);
        ck_assert_msg(strcmp(before[i], after) == 0, "%s: %s became %s", kept[i].table, before[i], after);
    }
    ck_assert_int_eq(db_int(db, "SELECT count(*) FROM players") + db_int(db, "SELECT count(*) FROM ledger"), 4);

    char states[256];
    db_text(db, "SELECT group_concat(id || '=' || game_state, ' ') FROM (SELECT id, game_state FROM game_tables"
                " ORDER BY id)", states, sizeof states);
    ck_assert_str_eq(states, "3={\"banker\":2,\"multiplier\":4} 4={\"banker\":-1,\"multiplier\":2}");
    db_text(db, "SELECT group_concat(id || '=' || game_state, ' ') FROM (SELECT id, game_state FROM hands ORDER BY id)",
            states, sizeof states);
    ck_assert_str_eq(states, "11={\"banker\":1,\"multiplier\":2} 12={\"banker\":2,\"multiplier\":4}"
                             " 13={\"banker\":0,\"multiplier\":8}");
    ck_assert_int_eq(db_int(db, "SELECT count(*) FROM pragma_table_info('game_tables') WHERE name IN ('banker',"
                                " 'multiplier')"), 0);
    ck_assert_int_eq(db_int(db, "SELECT count(*) FROM pragma_table_info('hands') WHERE name IN ('banker',"
                                " 'multiplier')"), 0);
    /* The schema keeps a game state an object from now on. */
    ck_assert_int_ne(sqlite3_exec(db, "UPDATE game_tables SET game_state = '[1]' WHERE id = 3", NULL, NULL, NULL),
                     SQLITE_OK);
    ck_assert_int_ne(sqlite3_exec(db, "UPDATE hands SET game_state = 'not json' WHERE id = 11", NULL, NULL, NULL),
                     SQLITE_OK);
    char integrity[32];
    db_text(db, "PRAGMA integrity_check", integrity, sizeof integrity);
    ck_assert_str_eq(integrity, "ok");
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
    char *state = json_dumps(t->game_state, JSON_COMPACT | JSON_SORT_KEYS);
    ck_assert_str_eq(state, "{\"banker\":2,\"multiplier\":4}");
    free(state);
    ck_assert_str_eq(t->seats[0].nickname, "Lan");
    ck_assert(t->seats[1].bot);
    store_recovery_free(r);
    store_close(s);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    ck_assert_int_eq(migrate_version(db), (int)count);
}
END_TEST

/* The ledger of a database written before the ledger had a key (0003: "teahouse-ledger-v1" rows,
 * no key): the first store to open it makes the key and the key record, the old rows still
 * verify, new rows are keyed (v2), and an unkeyed row added after them is caught. */
static void insert_v1_row(int64_t id, int64_t hand, int64_t player, int seat, int64_t units, int64_t balance,
                          char prev[STORE_HASH_HEX])
{
    store_ledger_row row = {.id = id, .table_id = 3, .hand_id = hand, .is_bot = player == 0, .player_id = player,
                            .seat = seat, .units = units, .reason = "settle", .balance_after = balance, .at_ms = 5,
                            .prev_hash = prev};
    char hash[STORE_HASH_HEX], sql[512], player_text[24] = "NULL", balance_text[24] = "NULL";
    store_ledger_hash(&row, NULL, hash);
    if (player != 0) {
        snprintf(player_text, sizeof player_text, "%lld", (long long)player);
        snprintf(balance_text, sizeof balance_text, "%lld", (long long)balance);
    }
    snprintf(sql, sizeof sql,
             "INSERT INTO ledger (id, table_id, hand_id, player_id, seat, units, reason, balance_after, at,"
             " prev_hash, hash) VALUES (%lld, 3, %lld, %s, %d, %lld, 'settle', %s, 5, '%s', '%s')",
             (long long)id, (long long)hand, player_text, seat, (long long)units, balance_text, prev, hash);
    db_exec(db, sql);
    memcpy(prev, hash, STORE_HASH_HEX);
}

static void on_finished(void *ctx, const store_error *error)
{
    *(store_status *)ctx = error->status;
}

START_TEST(test_a_ledger_from_before_the_key_is_keyed_at_the_first_start_and_its_old_rows_still_verify)
{
    size_t count = 0;
    const migrate_step *steps = migrate_builtin(&count);
    store_error error;
    ck_assert_int_eq(migrate_apply(db, steps, 3, NULL, NULL, &error), STORE_OK);
    db_exec(db, "INSERT INTO players (id, kind, nickname, created_at, last_seen_at) VALUES (7, 'guest', 'Lan', 1, 1);"
                "INSERT INTO game_tables (id, game, options, host_player_id, code, is_public, seats, state,"
                " hands_played, created_at, updated_at, game_state) VALUES (3, 'tiengow', '{}', 7, 'OLD1', 1,"
                " '[7,\"bot\",null,null]', 'playing', 2, 1, 1, '{}');"
                "INSERT INTO hands (id, table_id, number, seed, deal, started_at, result, finished_at, game_state)"
                " VALUES (11, 3, 1, 42, '[]', 5, '{}', 5, '{}'), (12, 3, 2, 43, '[]', 6, NULL, NULL, '{}');");
    char prev[STORE_HASH_HEX] = STORE_LEDGER_ZERO_HASH;
    insert_v1_row(1, 11, 7, 0, 2, 2, prev);
    insert_v1_row(2, 11, 0, 1, -2, 0, prev);

    uv_loop_t loop;
    uv_loop_init(&loop);
    store *s = store_open(&loop, dir.db, NULL, &error);
    ck_assert_msg(s != NULL, "%s", error.message);
    ck_assert_int_eq(db_int(db, "SELECT v1_rows FROM ledger_key"), 2);
    const store_ledger_entry rows[] = {{.player_id = 7, .seat = 0, .units = -3, .reason = "settle"},
                                       {.player_id = 0, .seat = 1, .units = 3, .reason = "settle"}};
    json_t *result = json_object(), *state = json_object();
    store_hand_end end = {.hand_id = 12, .result = result, .entries = rows, .n_entries = 2, .next_game_state = state};
    store_status finished = STORE_CLOSED;
    ck_assert(store_hand_finish(s, &end, on_finished, &finished));
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(finished, STORE_OK);
    store_close(s);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    json_decref(result);
    json_decref(state);

    char key_path[160];
    snprintf(key_path, sizeof key_path, "%s.key", dir.db);
    struct stat sb;
    ck_assert_int_eq(stat(key_path, &sb), 0);
    ck_assert_int_eq(sb.st_mode & 0777, 0600);
    store_ledger_check check;
    ck_assert_msg(store_ledger_verify_path(dir.db, NULL, &check, &error), "%s", error.message);
    ck_assert_msg(check.ok, "row %lld: %s", (long long)check.first_bad_row, check.why);
    ck_assert(check.keyed);
    ck_assert_int_eq(check.rows_checked, 4);
    ck_assert_int_eq(check.v1_rows, 2);
    ck_assert_int_eq(db_int(db, "SELECT balance_after FROM ledger WHERE id = 3"), -1);

    /* A forger appends an unkeyed row after the keyed ones. */
    db_text(db, "SELECT hash FROM ledger WHERE id = 4", prev, sizeof prev);
    insert_v1_row(5, 12, 0, 1, 0, 0, prev);
    ck_assert_msg(store_ledger_verify_path(dir.db, NULL, &check, &error), "%s", error.message);
    ck_assert(!check.ok);
    ck_assert_int_eq(check.first_bad_row, 5);
}
END_TEST

/* An older database that an earlier start already gave a key but no key record (it stopped
 * between the two), or a forger who removed the record: a ledger with rows is not keyed behind
 * an existing key's back. */
START_TEST(test_a_ledger_with_rows_and_no_key_record_beside_an_existing_key_is_refused)
{
    size_t count = 0;
    const migrate_step *steps = migrate_builtin(&count);
    store_error error;
    ck_assert_int_eq(migrate_apply(db, steps, 3, NULL, NULL, &error), STORE_OK);
    db_exec(db, "INSERT INTO players (id, kind, nickname, created_at, last_seen_at) VALUES (7, 'guest', 'Lan', 1, 1);"
                "INSERT INTO game_tables (id, game, options, host_player_id, code, is_public, seats, state,"
                " hands_played, created_at, updated_at, game_state) VALUES (3, 'tiengow', '{}', 7, 'OLD1', 1,"
                " '[7,\"bot\",null,null]', 'playing', 1, 1, 1, '{}');");
    char prev[STORE_HASH_HEX] = STORE_LEDGER_ZERO_HASH;
    insert_v1_row(1, 11, 7, 0, 2, 2, prev);
    insert_v1_row(2, 11, 0, 1, -2, 0, prev);
    char key_path[160];
    snprintf(key_path, sizeof key_path, "%s.key", dir.db);
    FILE *f = fopen(key_path, "wb");
    ck_assert_uint_eq(fwrite("0123456789abcdef0123456789abcdef", 1, 32, f), 32);
    fclose(f);
    ck_assert_int_eq(chmod(key_path, 0600), 0);

    uv_loop_t loop;
    uv_loop_init(&loop);
    store *s = store_open(&loop, dir.db, NULL, &error);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(error.status, STORE_CORRUPT);
    ck_assert_ptr_nonnull(strstr(error.message, "no key record"));
    ck_assert_ptr_nonnull(strstr(error.message, "move"));
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    ck_assert_int_eq(db_int(db, "SELECT count(*) FROM ledger_key"), 0);

    /* Moved away, as the sentence says: a new key, and the old rows verify. */
    char moved[176];
    snprintf(moved, sizeof moved, "%s.old", key_path);
    ck_assert_int_eq(rename(key_path, moved), 0);
    uv_loop_init(&loop);
    s = store_open(&loop, dir.db, NULL, &error);
    ck_assert_msg(s != NULL, "%s", error.message);
    store_close(s);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    store_ledger_check check;
    ck_assert_msg(store_ledger_verify_path(dir.db, NULL, &check, &error), "%s", error.message);
    ck_assert(check.ok);
    ck_assert_int_eq(check.v1_rows, 2);
}
END_TEST

typedef struct adjusted {
    store_status status;
    int64_t row;
} adjusted;

static void on_adjusted(void *ctx, const store_error *error, int64_t row)
{
    adjusted *a = ctx;
    a->status = error->status;
    a->row = row;
}

/* Books one adjustment on s (by admin 7) and waits for it. */
static adjusted adjust_now(uv_loop_t *loop, store *s, int64_t player, int64_t units, const char *reason)
{
    adjusted a = {.status = STORE_CLOSED};
    ck_assert(store_adjust(s, 7, player, units, reason, on_adjusted, &a));
    uv_run(loop, UV_RUN_DEFAULT);
    return a;
}

/* Migration 0007 adds an index and nothing else: every row and hash of a ledger written before it
 * stays as it was and still verifies; and the upgraded database takes adjustments in the chain,
 * the first one making the adjustments account (id -1) without moving the ids the store gives. */
START_TEST(test_upgrade_to_0007_keeps_every_row_and_hash_and_the_upgraded_ledger_takes_adjustments)
{
    size_t count = 0;
    const migrate_step *steps = migrate_builtin(&count);
    ck_assert_uint_ge(count, 7);
    ck_assert_str_eq(steps[6].name, "admin_indexes");
    store_error error;
    ck_assert_int_eq(migrate_apply(db, steps, 6, NULL, NULL, &error), STORE_OK);
    db_exec(db, "INSERT INTO players (id, kind, nickname, created_at, last_seen_at) VALUES (7, 'guest', 'Lan', 1, 1);"
                "INSERT INTO game_tables (id, game, options, host_player_id, code, is_public, seats, state,"
                " hands_played, created_at, updated_at, game_state) VALUES (3, 'tiengow', '{}', 7, 'OLD1', 1,"
                " '[7,\"bot\",null,null]', 'playing', 2, 1, 1, '{}');"
                "INSERT INTO hands (id, table_id, number, seed, deal, started_at, result, finished_at, game_state)"
                " VALUES (11, 3, 1, 42, '[]', 5, '{}', 5, '{}');");
    char prev[STORE_HASH_HEX] = STORE_LEDGER_ZERO_HASH;
    insert_v1_row(1, 11, 7, 0, 2, 2, prev);
    insert_v1_row(2, 11, 0, 1, -2, 0, prev);
    static const char ledger_text[] = "SELECT group_concat(id || ',' || table_id || ',' || hand_id || ','"
                                      " || coalesce(player_id, '') || ',' || seat || ',' || units || ',' || reason"
                                      " || ',' || coalesce(balance_after, '') || ',' || at || ',' || prev_hash || ','"
                                      " || hash, ';') FROM ledger";
    char before[1024], after[1024];
    db_text(db, ledger_text, before, sizeof before);

    uv_loop_t loop;
    uv_loop_init(&loop);
    store *s = store_open(&loop, dir.db, NULL, &error);
    ck_assert_msg(s != NULL, "%s", error.message);
    ck_assert_int_eq(db_int(db, "PRAGMA user_version"), (long long)count);
    db_text(db, ledger_text, after, sizeof after);
    ck_assert_str_eq(after, before);
    ck_assert_int_eq(db_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'ledger_by_player_reason'"), 1);
    ck_assert_int_eq(db_int(db, "SELECT count(*) FROM players"), 1);

    adjusted a = adjust_now(&loop, s, 7, 10, "Refund for a hand cut short");
    ck_assert_int_eq(a.status, STORE_OK);
    ck_assert_int_eq(a.row, 3);
    a = adjust_now(&loop, s, 7, -4, "茶 for the house");
    ck_assert_int_eq(a.status, STORE_OK);
    ck_assert_int_eq(a.row, 5);
    int64_t reserved = 0;
    char token[STORE_TOKEN_SIZE];
    ck_assert(store_guest_reserve(s, &reserved, token));
    ck_assert_int_eq(reserved, 8); /* one past the highest player: the account's -1 moves nothing */
    /* Refused, each writing nothing: no units, too many, no reason, a control character, a
     * player who does not exist, the adjustments account itself. */
    ck_assert_int_eq(adjust_now(&loop, s, 7, 0, "none").status, STORE_INVALID);
    ck_assert_int_eq(adjust_now(&loop, s, 7, STORE_ADJUST_UNITS_MAX + 1, "many").status, STORE_INVALID);
    ck_assert_int_eq(adjust_now(&loop, s, 7, 1, "").status, STORE_INVALID);
    ck_assert_int_eq(adjust_now(&loop, s, 7, 1, "a\nb").status, STORE_INVALID);
    ck_assert_int_eq(adjust_now(&loop, s, 99, 1, "nobody").status, STORE_INVALID);
    ck_assert_int_eq(adjust_now(&loop, s, STORE_ADJUSTMENTS_ID, 1, "itself").status, STORE_INVALID);
    store_close(s);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(uv_loop_close(&loop), 0);

    ck_assert_int_eq(db_int(db, "SELECT count(*) FROM ledger"), 6);
    ck_assert_int_eq(db_int(db, "SELECT count(*) FROM hands"), 3);
    ck_assert_int_eq(db_int(db, "SELECT count(*) FROM players WHERE id = -1 AND account_name = '~adjustments'"), 1);
    ck_assert_int_eq(db_int(db, "SELECT count(*) FROM game_tables WHERE game = 'adjustment' AND state = 'closed'"), 1);
    ck_assert_int_eq(db_int(db, "SELECT sum(units) FROM ledger WHERE reason = 'adjustment'"), 0);
    ck_assert_int_eq(db_int(db, "SELECT balance_after FROM ledger WHERE id = 5"), 8);  /* 2 + 10 - 4 */
    ck_assert_int_eq(db_int(db, "SELECT balance_after FROM ledger WHERE id = 6"), -6); /* the account's */
    store_ledger_check check;
    ck_assert_msg(store_ledger_verify_path(dir.db, NULL, &check, &error), "%s", error.message);
    ck_assert_msg(check.ok, "row %lld: %s", (long long)check.first_bad_row, check.why);
    ck_assert_int_eq(check.rows_checked, 6);
    ck_assert_int_eq(check.v1_rows, 2);
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
    tcase_add_test(tc, test_upgrade_from_0002_moves_banker_and_multiplier_into_the_game_state_and_keeps_every_row);
    tcase_add_test(tc, test_a_ledger_from_before_the_key_is_keyed_at_the_first_start_and_its_old_rows_still_verify);
    tcase_add_test(tc, test_a_ledger_with_rows_and_no_key_record_beside_an_existing_key_is_refused);
    tcase_add_test(tc, test_upgrade_to_0007_keeps_every_row_and_hash_and_the_upgraded_ledger_takes_adjustments);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
