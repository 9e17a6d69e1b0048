/*
 * store — the store through its public interface (store.h), on both backends: players, accounts
 * and passwords, sessions of accounts and of guests, tables and their turn timers, hands and
 * their actions for recovery (with seat nicknames and running scores), a table's hand history,
 * the ledger (zero-sum, balances, hash chain), the all-or-nothing end of a hand, and the loop.
 *
 * Each behavioural case runs twice, on SQLite and on the in-memory store (store_memory.h), and
 * checks what was stored through the stored_* helpers: on SQLite a connection of the test's own
 * reads the file, in memory the read-back functions. Started beside a PostgreSQL cluster
 * (tests/pg/with_cluster.sh sets TEAHOUSE_TEST_PG), the same behavioural cases run a third time,
 * on PostgreSQL only, each on a database of its own read through a connection of the test's. Cases only SQLite has (what the file holds,
 * tampering, restarts, bad conditions: locked, read-only, corrupt, full) run on SQLite only; the
 * in-memory store's own controls (delay, hold, failures, counts, read-back) have their case.
 *
 * Expected figures come from the rules of the store (store.h), worked by hand in each test.
 */
#include <check.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>
#include <uv.h>

#include "migrate.h"
#include "store.h"
#include "store_ledger.h"
#include "store_memory.h"
#include "store_password.h"
#include "store_reader.h"
#include "store_test_pg.h"
#include "store_test_util.h"

#define T0_MS INT64_C(1700000000000)

/* ---- Fixture: a loop, a store on a scratch file, a fake clock ---- */

static _Atomic int64_t fake_now_ms;
static scratch_dir dir;
static uv_loop_t loop;
static store *st;
static bool use_memory; /* the backend of the running case */
static bool use_pg;     /* PostgreSQL: the database pg_name at pg_uri, its key in the scratch directory */
static char pg_name[64];
static char pg_uri[512];
static char pg_key[160];
static char pg_trigger_table[96]; /* the table inject_failure put its trigger on */
static json_t *next_state; /* a table's game state after a hand, where a test does not care which */

/* Tien Gow's table state, as the game writes it (the store carries it opaque). */
static json_t *game_state(int banker, int multiplier)
{
    return json_pack("{s:i, s:i}", "banker", banker, "multiplier", multiplier);
}

/* A game state as compact text with sorted keys, in a static buffer ("" for NULL). */
static const char *state_text(const json_t *state)
{
    static char text[4][128];
    static int next;
    char *out = text[next++ % 4];
    char *dumped = state ? json_dumps(state, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    snprintf(out, sizeof text[0], "%s", dumped ? dumped : "");
    free(dumped);
    return out;
}

static int64_t fake_clock(void *ctx)
{
    (void)ctx;
    return atomic_load(&fake_now_ms);
}

static store_options test_options(void)
{
    store_options o = store_options_default();
    o.clock_ms = fake_clock;
    o.busy_timeout_ms = 200;
    o.session_seconds = 3600;
    return o;
}

static store *open_store(const store_options *o)
{
    if (use_memory) {
        store *s = store_memory_open(&loop, o);
        ck_assert_ptr_nonnull(s);
        return s;
    }
    store_error error;
    store_options with_key = *o;
    if (use_pg && (with_key.ledger_key_path == NULL || with_key.ledger_key_path[0] == '\0'))
        with_key.ledger_key_path = pg_key;
    store *s = store_open(&loop, use_pg ? pg_uri : dir.db, &with_key, &error);
    ck_assert_msg(s != NULL, "store_open: %s", error.message);
    return s;
}

static void close_store(void)
{
    store_close(st);
    st = NULL;
    uv_run(&loop, UV_RUN_DEFAULT);
}

static void setup(void)
{
    use_memory = false;
    use_pg = false;
    atomic_store(&fake_now_ms, T0_MS);
    scratch_make(&dir);
    ck_assert_int_eq(uv_loop_init(&loop), 0);
    store_options o = test_options();
    st = open_store(&o);
    next_state = game_state(0, 2);
}

static void setup_pg(void)
{
    use_memory = false;
    use_pg = true;
    atomic_store(&fake_now_ms, T0_MS);
    scratch_make(&dir);
    snprintf(pg_key, sizeof pg_key, "%s/ledger.key", dir.dir);
    pg_test_create(pg_name, sizeof pg_name, pg_uri, sizeof pg_uri);
    ck_assert_int_eq(uv_loop_init(&loop), 0);
    store_options o = test_options();
    st = open_store(&o);
    next_state = game_state(0, 2);
}

static void setup_memory(void)
{
    setup();
    close_store();
    use_memory = true;
    store_options o = test_options();
    st = open_store(&o);
}

static void teardown(void)
{
    json_decref(next_state);
    next_state = NULL;
    if (st != NULL)
        close_store();
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
    scratch_remove(&dir);
    if (use_pg)
        pg_test_drop(pg_name);
}

/* ---- Answers ---- */

typedef struct answer {
    bool called;
    store_error error;
    int64_t id;
    bool has_session;
    store_session session;
    bool has_check;
    store_ledger_check check;
} answer;

static void on_id(void *ctx, const store_error *error, int64_t id)
{
    answer *a = ctx;
    a->called = true;
    a->error = *error;
    a->id = id;
}

static void on_done(void *ctx, const store_error *error)
{
    answer *a = ctx;
    a->called = true;
    a->error = *error;
}

static void on_session(void *ctx, const store_error *error, const store_session *session)
{
    answer *a = ctx;
    a->called = true;
    a->error = *error;
    a->has_session = session != NULL;
    if (session)
        a->session = *session;
}

static void on_verify(void *ctx, const store_error *error, const store_ledger_check *check)
{
    answer *a = ctx;
    a->called = true;
    a->error = *error;
    a->has_check = check != NULL;
    if (check)
        a->check = *check;
}

static void wait_for(answer *a)
{
    while (!a->called)
        uv_run(&loop, UV_RUN_ONCE);
}

static void expect_ok(const answer *a)
{
    ck_assert_msg(a->error.status == STORE_OK, "%s: %s", store_status_name(a->error.status), a->error.message);
}

static void ok(answer a)
{
    expect_ok(&a);
}

/* ---- Shorthands (each waits for its answer) ---- */

static int64_t guest(const char *nickname)
{
    answer a = {0};
    ck_assert(store_player_save(st, 0, nickname, on_id, &a));
    wait_for(&a);
    expect_ok(&a);
    return a.id;
}

static answer account(const char *name, const char *password, int64_t guest_id)
{
    answer a = {0};
    ck_assert(store_account_create(st, name, password, guest_id, on_id, &a));
    wait_for(&a);
    return a;
}

static answer login(const char *name, const char *password)
{
    answer a = {0};
    ck_assert(store_login(st, name, password, on_session, &a));
    wait_for(&a);
    return a;
}

static answer lookup(const char *token)
{
    answer a = {0};
    ck_assert(store_session_lookup(st, token, on_session, &a));
    wait_for(&a);
    return a;
}

static store_table table_template(const char *code)
{
    store_table t;
    memset(&t, 0, sizeof t);
    snprintf(t.game, sizeof t.game, "tiengow");
    snprintf(t.code, sizeof t.code, "%s", code);
    snprintf(t.state, sizeof t.state, "waiting");
    t.game_state = next_state;
    t.turn_seconds = 30;
    return t;
}

static answer save_table(const store_table *t)
{
    answer a = {0};
    ck_assert(store_table_save(st, t, on_id, &a));
    wait_for(&a);
    return a;
}

static int64_t new_table(const char *code)
{
    store_table t = table_template(code);
    answer a = save_table(&t);
    expect_ok(&a);
    return a.id;
}

static answer begin_hand_as(int64_t table_id, int64_t number, uint64_t seed, int banker, uint32_t multiplier)
{
    json_t *deal = json_loads("[[1,2],[3,4],[5,6],[7,8]]", 0, NULL);
    json_t *state = game_state(banker, (int)multiplier);
    store_hand_start h = {.table_id = table_id, .number = number, .seed = seed, .deal = deal, .game_state = state};
    answer a = {0};
    ck_assert(store_hand_begin(st, &h, on_id, &a));
    json_decref(deal);
    json_decref(state);
    wait_for(&a);
    return a;
}

static answer begin_hand(int64_t table_id, int64_t number, uint64_t seed)
{
    return begin_hand_as(table_id, number, seed, 1, 2);
}

static int64_t new_hand(int64_t table_id, int64_t number)
{
    answer a = begin_hand(table_id, number, 1000 + (uint64_t)number);
    expect_ok(&a);
    return a.id;
}

/* Action seq of a hand: {"play":[seq]} by seat (seq - 1) % 4. */
static answer append(int64_t hand_id, int64_t seq)
{
    json_t *action = json_pack("{s:[I]}", "play", (json_int_t)seq);
    answer a = {0};
    ck_assert(store_action_append(st, hand_id, seq, (int)((seq - 1) % 4), action, on_done, &a));
    json_decref(action);
    wait_for(&a);
    return a;
}

static store_ledger_entry entry(int64_t player_id, int seat, int64_t units, const char *reason)
{
    store_ledger_entry e = {.player_id = player_id, .seat = seat, .units = units};
    snprintf(e.reason, sizeof e.reason, "%s", reason);
    return e;
}

/* Ends a hand with last action seq (0: none), the entries, and the table's next game state. */
static answer finish(int64_t hand_id, int64_t last_seq, const store_ledger_entry *entries, size_t n, int banker,
                     uint32_t multiplier)
{
    json_t *last = json_pack("{s:[I]}", "play", (json_int_t)last_seq);
    json_t *result = json_pack("{s:s}", "winner", "seat 0");
    json_t *state = game_state(banker, (int)multiplier);
    store_hand_end e = {.hand_id = hand_id, .last_seq = last_seq, .last_seat = (int)((last_seq + 3) % 4),
                        .last_action = last, .result = result, .entries = entries, .n_entries = n,
                        .next_game_state = state};
    answer a = {0};
    ck_assert(store_hand_finish(st, &e, on_done, &a));
    json_decref(last);
    json_decref(result);
    json_decref(state);
    wait_for(&a);
    return a;
}

static answer verify(void)
{
    answer a = {0};
    ck_assert(store_ledger_verify(st, on_verify, &a));
    wait_for(&a);
    expect_ok(&a);
    ck_assert(a.has_check);
    return a;
}

static store_recovery *recover(void)
{
    store_recovery *r = NULL;
    store_error error;
    ck_assert_msg(store_recover(st, &r, &error), "store_recover: %s", error.message);
    return r;
}

static long long on_disk(const char *sql)
{
    if (use_pg)
        return pg_test_int(pg_uri, sql);
    sqlite3 *db = db_open(dir.db);
    long long value = db_int(db, sql);
    sqlite3_close(db);
    return value;
}

static void on_disk_exec(const char *sql)
{
    if (use_pg) {
        pg_test_exec(pg_uri, sql);
        return;
    }
    sqlite3 *db = db_open(dir.db);
    db_exec(db, sql);
    sqlite3_close(db);
}

/* ---- What is stored, on either backend ---- */

static long long stored_players(void)
{
    return use_memory ? (long long)store_memory_n_players(st) : on_disk("SELECT count(*) FROM players");
}

static long long stored_sessions(void)
{
    return use_memory ? (long long)store_memory_n_sessions(st) : on_disk("SELECT count(*) FROM sessions");
}

static long long stored_tables(void)
{
    return use_memory ? (long long)store_memory_n_tables(st) : on_disk("SELECT count(*) FROM game_tables");
}

static long long stored_ledger_rows(void)
{
    size_t n = 0;
    if (use_memory)
        store_memory_ledger(st, &n);
    return use_memory ? (long long)n : on_disk("SELECT count(*) FROM ledger");
}

/* The actions of every hand. */
static long long stored_actions(void)
{
    if (!use_memory)
        return on_disk("SELECT count(*) FROM hand_actions");
    long long n = 0;
    for (int64_t id = 1; id <= (int64_t)store_memory_n_hands(st); id++)
        n += (long long)store_memory_hand_at(st, id)->n_actions;
    return n;
}

static long long stored_hands(bool finished)
{
    if (!use_memory)
        return on_disk(finished ? "SELECT count(*) FROM hands WHERE finished_at IS NOT NULL"
                                : "SELECT count(*) FROM hands WHERE finished_at IS NULL");
    long long n = 0;
    for (int64_t id = 1; id <= (int64_t)store_memory_n_hands(st); id++)
        n += (store_memory_hand_at(st, id)->result != NULL) == finished;
    return n;
}

/* The action numbers of a hand, as "1,2". */
static const char *stored_seqs(int64_t hand)
{
    static char text[256];
    text[0] = '\0';
    if (use_pg) {
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT string_agg(seq::text, ',' ORDER BY seq) FROM hand_actions WHERE hand_id = %"
                 PRId64, hand);
        pg_test_text(pg_uri, sql, text, sizeof text);
        return text;
    }
    if (!use_memory) {
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT group_concat(seq) FROM (SELECT seq FROM hand_actions WHERE hand_id = %" PRId64
                 " ORDER BY seq)", hand);
        sqlite3 *db = db_open(dir.db);
        db_text(db, sql, text, sizeof text);
        sqlite3_close(db);
        return text;
    }
    const store_memory_hand *h = store_memory_hand_at(st, hand);
    size_t used = 0;
    for (size_t i = 0; h != NULL && i < h->n_actions; i++)
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%" PRId64, i ? "," : "", h->actions[i].seq);
    return text;
}

static const char *stored_nickname(int64_t player)
{
    static char text[STORE_NAME_MAX + 1];
    if (use_memory) {
        const store_memory_player *p = store_memory_player_at(st, player);
        snprintf(text, sizeof text, "%s", p ? p->nickname : "");
        return text;
    }
    char sql[96];
    snprintf(sql, sizeof sql, "SELECT nickname FROM players WHERE id = %" PRId64, player);
    if (use_pg) {
        pg_test_text(pg_uri, sql, text, sizeof text);
        return text;
    }
    sqlite3 *db = db_open(dir.db);
    db_text(db, sql, text, sizeof text);
    sqlite3_close(db);
    return text;
}

static long long stored_turn_seconds(int64_t table)
{
    if (use_memory) {
        const store_table *t = store_memory_table_at(st, table);
        return t ? t->turn_seconds : -1;
    }
    char sql[96];
    snprintf(sql, sizeof sql, "SELECT turn_seconds FROM game_tables WHERE id = %" PRId64, table);
    return on_disk(sql);
}

/* Ledger row id as the memory store reads it back (player and balance 0 for a bot). */
static store_memory_row stored_row(int64_t id)
{
    store_memory_row row;
    memset(&row, 0, sizeof row);
    if (use_memory) {
        size_t n = 0;
        const store_memory_row *rows = store_memory_ledger(st, &n);
        ck_assert_int_ge(id, 1);
        ck_assert_uint_le((size_t)id, n);
        return rows[id - 1];
    }
    if (use_pg) {
        char sql[256];
        snprintf(sql, sizeof sql, "SELECT concat_ws(' ', id, table_id, hand_id, coalesce(player_id, 0), seat, units,"
                 " coalesce(balance_after, 0), at, prev_hash, hash, reason) FROM ledger WHERE id = %" PRId64, id);
        char text[512];
        pg_test_text(pg_uri, sql, text, sizeof text);
        long long f[8];
        int used = 0;
        ck_assert_int_eq(sscanf(text, "%lld %lld %lld %lld %lld %lld %lld %lld %64s %64s %n", &f[0], &f[1], &f[2],
                                &f[3], &f[4], &f[5], &f[6], &f[7], row.prev_hash, row.hash, &used),
                         10);
        row.id = f[0], row.table_id = f[1], row.hand_id = f[2], row.player_id = f[3];
        row.seat = (int)f[4], row.units = f[5], row.balance_after = f[6], row.at_ms = f[7];
        snprintf(row.reason, sizeof row.reason, "%s", text + used);
        return row;
    }
    sqlite3 *db = db_open(dir.db);
    sqlite3_stmt *stmt = NULL;
    ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT id, table_id, hand_id, coalesce(player_id, 0), seat, units, reason,"
                                            " coalesce(balance_after, 0), at, prev_hash, hash FROM ledger WHERE id = ?1",
                                        -1, &stmt, NULL),
                     SQLITE_OK);
    sqlite3_bind_int64(stmt, 1, id);
    ck_assert_int_eq(sqlite3_step(stmt), SQLITE_ROW);
    row = (store_memory_row){.id = sqlite3_column_int64(stmt, 0), .table_id = sqlite3_column_int64(stmt, 1),
                             .hand_id = sqlite3_column_int64(stmt, 2), .player_id = sqlite3_column_int64(stmt, 3),
                             .seat = sqlite3_column_int(stmt, 4), .units = sqlite3_column_int64(stmt, 5),
                             .balance_after = sqlite3_column_int64(stmt, 7), .at_ms = sqlite3_column_int64(stmt, 8)};
    snprintf(row.reason, sizeof row.reason, "%s", (const char *)sqlite3_column_text(stmt, 6));
    snprintf(row.prev_hash, sizeof row.prev_hash, "%s", (const char *)sqlite3_column_text(stmt, 9));
    snprintf(row.hash, sizeof row.hash, "%s", (const char *)sqlite3_column_text(stmt, 10));
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return row;
}

/* The ledger's key: the file beside the database, or the in-memory store's. */
static void ledger_key(unsigned char key[STORE_LEDGER_KEY_BYTES])
{
    if (use_memory) {
        ck_assert(store_memory_ledger_key(st, key));
        return;
    }
    char path[160];
    snprintf(path, sizeof path, "%s.key", dir.db);
    if (use_pg)
        snprintf(path, sizeof path, "%s", pg_key);
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fread(key, 1, STORE_LEDGER_KEY_BYTES, f), STORE_LEDGER_KEY_BYTES);
    fclose(f);
}

/* A test-made failure: on SQLite the trigger (named inject_failure), in memory the next request
 * of kind fails. clear_failure undoes it. */
/* The SQLite trigger "… BEFORE INSERT ON <table> [WHEN <condition>] BEGIN …" made a PostgreSQL one. */
static void inject_pg_failure(const char *trigger)
{
    const char *on = strstr(trigger, " ON ");
    const char *begin = strstr(trigger, " BEGIN");
    ck_assert(on != NULL && begin != NULL);
    char target[96];
    snprintf(target, sizeof target, "%.*s", (int)(begin - on - 4), on + 4);
    char *when = strstr(target, " WHEN ");
    if (when != NULL)
        *when = '\0';
    snprintf(pg_trigger_table, sizeof pg_trigger_table, "%s", target);
    char sql[512];
    snprintf(sql, sizeof sql,
             "CREATE FUNCTION inject_failure() RETURNS trigger LANGUAGE plpgsql AS"
             " $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$;"
             " CREATE TRIGGER inject_failure BEFORE INSERT ON %s FOR EACH ROW %s%s%s EXECUTE FUNCTION inject_failure()",
             target, when ? "WHEN (" : "", when ? when + 6 : "", when ? ")" : "");
    on_disk_exec(sql);
}

static void inject_failure(const char *trigger, store_kind kind)
{
    if (use_memory)
        store_memory_fail(st, kind, 1, STORE_INVALID);
    else if (use_pg)
        inject_pg_failure(trigger);
    else
        on_disk_exec(trigger);
}

static void clear_failure(void)
{
    char sql[192];
    snprintf(sql, sizeof sql, "DROP TRIGGER inject_failure ON %s; DROP FUNCTION inject_failure()", pg_trigger_table);
    if (use_memory)
        store_memory_fail(st, STORE_KIND_ANY, 0, STORE_OK);
    else
        on_disk_exec(use_pg ? sql : "DROP TRIGGER inject_failure");
}

/* What a failure made by inject_failure says: the trigger's message, or the memory store's. */
static bool says_injected(const store_error *error)
{
    return strstr(error->message, use_memory ? "told to fail" : "injected failure") != NULL;
}

/* ---- Players and accounts ---- */

START_TEST(test_guest_gets_an_id_and_can_be_renamed)
{
    int64_t id = guest("Ah Wing");
    ck_assert_int_gt(id, 0);
    answer a = {0};
    ck_assert(store_player_save(st, id, "Wing", on_id, &a));
    wait_for(&a);
    expect_ok(&a);
    ck_assert_int_eq(a.id, id);
    ck_assert_str_eq(stored_nickname(id), "Wing");
    ck_assert_int_eq(stored_players(), 1);

    answer missing = {0};
    ck_assert(store_player_save(st, id + 100, "Nobody", on_id, &missing));
    wait_for(&missing);
    ck_assert_int_eq(missing.error.status, STORE_NOT_FOUND);

    answer bad = {0};
    ck_assert(store_player_save(st, 0, "two\nlines", on_id, &bad));
    wait_for(&bad);
    ck_assert_int_eq(bad.error.status, STORE_INVALID);
    ck_assert_int_eq(bad.id, 0);
}
END_TEST

START_TEST(test_account_names_are_unique_ignoring_ascii_case)
{
    answer first = account("Mei", "plum blossom", 0);
    expect_ok(&first);
    answer second = account("mei", "another one", 0);
    ck_assert_int_eq(second.error.status, STORE_CONFLICT);
    ck_assert_ptr_nonnull(strstr(second.error.message, "taken"));
    ck_assert_int_eq(stored_players(), 1);
}
END_TEST

/* Issue 14: whole-script look-alikes (ВОВ beside BOB, admın beside admin) were separate accounts. */
START_TEST(test_an_account_name_that_looks_like_an_existing_one_is_taken)
{
    ok(account("BOB", "plum blossom", 0));
    ok(account("admin", "plum blossom", 0));
    ok(account("Bill", "plum blossom", 0));
    const char *look_alikes[] = {
        "\u0412\u041e\u0412", /* ВОВ, Cyrillic */
        "\u0392\u039f\u0392", /* ΒΟΒ, Greek */
        "adm\u0131n",          /* admın, a dotless ı */
        "ADM\u0399N",          /* a Greek capital iota */
        "BiII",                 /* capital I for l */
        "B0B",                  /* a zero for the O */
    };
    for (size_t i = 0; i < sizeof look_alikes / sizeof look_alikes[0]; i++) {
        answer a = account(look_alikes[i], "another one", 0);
        ck_assert_msg(a.error.status == STORE_CONFLICT, "%s: %s", look_alikes[i], store_status_name(a.error.status));
        ck_assert_msg(strstr(a.error.message, "looks like an existing account name") != NULL, "%s", a.error.message);
    }
    /* a guest cannot become one either, and stays a guest */
    int64_t g = guest("Mallory");
    answer a = account("\u0412\u041e\u0412", "another one", g);
    ck_assert_int_eq(a.error.status, STORE_CONFLICT);
    ck_assert_int_eq(stored_players(), 4);
    /* names that only share letters are names of their own */
    ok(account("\u738b\u5c0f\u660e", "plum blossom", 0));  /* 王小明 */
    ok(account("\u738b\u5c0f\u670b", "plum blossom", 0));  /* 王小朋 */
    ok(account("Jos\u00e9", "plum blossom", 0));
    ok(account("Jose", "plum blossom", 0));
    ok(account("BOBBY", "plum blossom", 0));
}
END_TEST

START_TEST(test_an_account_name_is_kept_in_nfc_and_found_however_it_is_written)
{
    ok(account("Jose\u0301_Ruiz", "plum blossom", 0)); /* e and a combining accent */
    answer same = account("Jos\u00e9_Ruiz", "another one", 0);
    ck_assert_int_eq(same.error.status, STORE_CONFLICT);
    ck_assert_ptr_nonnull(strstr(same.error.message, "taken"));
    answer a = login("Jos\u00e9_Ruiz", "plum blossom");
    expect_ok(&a);
    ck_assert_str_eq(a.session.account_name, "Jos\u00e9_Ruiz");
    answer b = login("jose\u0301_ruiz", "plum blossom");
    expect_ok(&b);
    ck_assert_int_eq(b.session.player_id, a.session.player_id);
}
END_TEST

START_TEST(test_password_shorter_than_eight_bytes_is_refused)
{
    answer a = account("Mei", "1234567", 0);
    ck_assert_int_eq(a.error.status, STORE_INVALID);
    ck_assert_int_eq(stored_players(), 0);
    answer b = account("Mei", "12345678", 0);
    expect_ok(&b);
}
END_TEST

START_TEST(test_same_password_twice_gives_different_argon2id_hashes)
{
    ok(account("Mei", "same password", 0));
    ok(account("Lan", "same password", 0));
    char mei[256], lan[256];
    sqlite3 *db = db_open(dir.db);
    db_text(db, "SELECT password_hash FROM players WHERE account_name = 'Mei'", mei, sizeof mei);
    db_text(db, "SELECT password_hash FROM players WHERE account_name = 'Lan'", lan, sizeof lan);
    sqlite3_close(db);
    ck_assert_str_ne(mei, lan); /* each hash has its own random salt */
    ck_assert_int_eq(strncmp(mei, "$argon2id$", 10), 0);
    ck_assert_int_eq(strncmp(lan, "$argon2id$", 10), 0);
    ck_assert_ptr_null(strstr(mei, "same password"));
    /* Both verify with libsodium itself: the hash is a standard argon2id string. */
    ck_assert_int_eq(crypto_pwhash_str_verify(mei, "same password", 13), 0);
    ck_assert_int_ne(crypto_pwhash_str_verify(mei, "same passworD", 13), 0);
}
END_TEST

START_TEST(test_guest_becomes_an_account_and_keeps_its_id)
{
    int64_t id = guest("Ah Wing");
    answer a = account("Wing", "jade dragon", id);
    expect_ok(&a);
    ck_assert_int_eq(a.id, id);
    answer s = login("wing", "jade dragon");
    expect_ok(&s);
    ck_assert_int_eq(s.session.player_id, id);
    ck_assert_str_eq(s.session.nickname, "Ah Wing");
    ck_assert_str_eq(s.session.account_name, "Wing");
    /* Already an account: it cannot be made one again. */
    answer again = account("Other", "jade dragon", id);
    ck_assert_int_eq(again.error.status, STORE_NOT_FOUND);
}
END_TEST

/* ---- Login and sessions ---- */

START_TEST(test_login_with_the_right_password_opens_a_session)
{
    answer created = account("Mei", "plum blossom", 0);
    expect_ok(&created);
    answer a = login("MEI", "plum blossom");
    expect_ok(&a);
    ck_assert(a.has_session);
    ck_assert_int_eq(a.session.player_id, created.id);
    ck_assert_uint_eq(strlen(a.session.token), 43); /* 32 random bytes in unpadded base64 */
    ck_assert_int_eq(a.session.expires_at_ms, T0_MS + 3600 * 1000);
    ck_assert(!a.session.is_admin);

    answer b = lookup(a.session.token);
    expect_ok(&b);
    ck_assert_int_eq(b.session.player_id, created.id);
    ck_assert_str_eq(b.session.account_name, "Mei");
    ck_assert_str_eq(b.session.token, ""); /* given once, at login */

    answer c = login("Mei", "plum blossom");
    expect_ok(&c);
    ck_assert_str_ne(c.session.token, a.session.token);
}
END_TEST

START_TEST(test_wrong_password_and_unknown_name_are_refused_alike)
{
    ok(account("Mei", "plum blossom", 0));
    answer wrong = login("Mei", "plum blossoms");
    answer unknown = login("Lan", "plum blossom");
    ck_assert_int_eq(wrong.error.status, STORE_BAD_LOGIN);
    ck_assert_int_eq(unknown.error.status, STORE_BAD_LOGIN);
    ck_assert_str_eq(wrong.error.message, unknown.error.message);
    ck_assert(!wrong.has_session);
    ck_assert_int_eq(stored_sessions(), 0);
}
END_TEST

static bool contains(const char *bytes, size_t n, const char *text)
{
    size_t len = strlen(text);
    for (size_t i = 0; i + len <= n; i++)
        if (memcmp(bytes + i, text, len) == 0)
            return true;
    return false;
}

START_TEST(test_session_token_is_stored_only_as_its_hash)
{
    ok(account("Mei", "plum blossom", 0));
    answer a = login("Mei", "plum blossom");
    expect_ok(&a);
    char token[STORE_TOKEN_SIZE];
    snprintf(token, sizeof token, "%s", a.session.token);

    /* The stored key is BLAKE2b-256 of the token, as store.h says. */
    unsigned char expected[32];
    crypto_generichash(expected, sizeof expected, (const unsigned char *)token, strlen(token), NULL, 0);
    sqlite3 *db = db_open(dir.db);
    sqlite3_stmt *stmt = NULL;
    ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT token_hash FROM sessions", -1, &stmt, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(stmt), SQLITE_ROW);
    ck_assert_int_eq(sqlite3_column_bytes(stmt, 0), 32);
    ck_assert_int_eq(memcmp(sqlite3_column_blob(stmt, 0), expected, 32), 0);
    sqlite3_finalize(stmt);
    sqlite3_close(db);

    /* And the token itself is nowhere in the files. */
    close_store();
    const char *suffixes[] = {"", "-wal"};
    for (size_t i = 0; i < 2; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s%s", dir.db, suffixes[i]);
        FILE *f = fopen(path, "rb");
        if (f == NULL)
            continue;
        static char bytes[1 << 22];
        size_t n = fread(bytes, 1, sizeof bytes, f);
        fclose(f);
        ck_assert(!contains(bytes, n, token));
    }
}
END_TEST

START_TEST(test_session_expires_after_its_lifetime)
{
    ok(account("Mei", "plum blossom", 0));
    answer a = login("Mei", "plum blossom");
    expect_ok(&a);
    atomic_store(&fake_now_ms, T0_MS + 3600 * 1000 - 1);
    ok(lookup(a.session.token));
    atomic_store(&fake_now_ms, T0_MS + 3600 * 1000);
    answer late = lookup(a.session.token);
    ck_assert_int_eq(late.error.status, STORE_NOT_FOUND);
    ck_assert_ptr_nonnull(strstr(late.error.message, "expired"));
    ck_assert(!late.has_session);

    /* The next login sweeps the expired session away. */
    ok(login("Mei", "plum blossom"));
    ck_assert_int_eq(stored_sessions(), 1);
}
END_TEST

START_TEST(test_logout_ends_the_session)
{
    ok(account("Mei", "plum blossom", 0));
    answer a = login("Mei", "plum blossom");
    expect_ok(&a);
    answer out = {0};
    ck_assert(store_logout(st, a.session.token, on_done, &out));
    wait_for(&out);
    expect_ok(&out);
    ck_assert_int_eq(lookup(a.session.token).error.status, STORE_NOT_FOUND);
    answer again = {0};
    ck_assert(store_logout(st, a.session.token, on_done, &again));
    wait_for(&again);
    ck_assert_int_eq(again.error.status, STORE_NOT_FOUND);
    ck_assert_int_eq(lookup("not a token").error.status, STORE_NOT_FOUND);
}
END_TEST

START_TEST(test_admin_flag_is_granted_from_the_command_line_and_seen_by_sessions)
{
    ok(account("Mei", "plum blossom", 0));
    guest("Lan");
    answer a = login("Mei", "plum blossom");
    expect_ok(&a);
    ck_assert(!lookup(a.session.token).session.is_admin);

    store_error error;
    ck_assert_msg(store_admin_set(dir.db, "mei", true, &error), "%s", error.message);
    ck_assert(lookup(a.session.token).session.is_admin);
    ck_assert(store_admin_set(dir.db, "Mei", false, &error));
    ck_assert(!lookup(a.session.token).session.is_admin);

    ck_assert(!store_admin_set(dir.db, "Lan", true, &error)); /* a guest has no account */
    ck_assert_int_eq(error.status, STORE_NOT_FOUND);
    ck_assert_ptr_nonnull(strstr(error.message, "Lan"));
    ck_assert_int_eq(on_disk("SELECT count(*) FROM players WHERE is_admin = 1"), 0);
}
END_TEST

/* ---- Tables, hands, recovery ---- */

START_TEST(test_open_tables_cannot_share_a_code_but_a_closed_one_frees_it)
{
    store_table t = table_template("ABCD");
    answer first = save_table(&t);
    expect_ok(&first);
    answer clash = save_table(&t);
    ck_assert_int_eq(clash.error.status, STORE_CONFLICT);
    ck_assert_ptr_nonnull(strstr(clash.error.message, "ABCD"));

    t.id = first.id;
    snprintf(t.state, sizeof t.state, "closed");
    ok(save_table(&t));
    t.id = 0;
    snprintf(t.state, sizeof t.state, "waiting");
    answer reuse = save_table(&t);
    expect_ok(&reuse);
    ck_assert_int_ne(reuse.id, first.id);
}
END_TEST

typedef struct recovered {
    bool called;
    store_error error;
    store_recovery *recovery;
} recovered;

static void on_recovered(void *ctx, const store_error *error, store_recovery *recovery)
{
    recovered *a = ctx;
    a->called = true;
    a->error = *error;
    a->recovery = recovery;
}

START_TEST(test_a_recovery_asked_without_waiting_answers_later_with_what_was_saved_before_it)
{
    store_table t = table_template("ASYNC");
    t.hands_played = 3;
    answer saved = {0};
    ck_assert(store_table_save(st, &t, on_id, &saved));
    recovered a = {0};
    ck_assert(store_recover_async(st, on_recovered, &a)); /* asked after the save: it sees it */
    ck_assert(!a.called); /* not answered before the loop turns */
    while (!a.called)
        uv_run(&loop, UV_RUN_ONCE);
    expect_ok(&saved);
    ck_assert_msg(a.error.status == STORE_OK, "%s", a.error.message);
    ck_assert_ptr_nonnull(a.recovery);
    ck_assert_uint_eq(a.recovery->n_tables, 1);
    ck_assert_str_eq(a.recovery->tables[0].table.code, "ASYNC");
    ck_assert_int_eq(a.recovery->tables[0].table.hands_played, 3);
    store_recovery_free(a.recovery);
}
END_TEST

START_TEST(test_table_fields_come_back_in_recovery)
{
    int64_t host = guest("Host");
    int64_t other = guest("Other");
    store_table t = table_template("WXYZ");
    t.options = json_pack("{s:b, s:i}", "wen_zun", 1, "stake", 5);
    t.host_player_id = host;
    t.is_public = true;
    t.seats[0].player_id = host;
    t.seats[1].bot = true;
    t.seats[3].player_id = other;
    t.game_state = json_pack("{s:i, s:i, s:[i]}", "multiplier", 4, "banker", 3, "extra", 1);
    t.hands_played = 7;
    answer a = save_table(&t);
    json_decref(t.options);
    json_decref(t.game_state);
    expect_ok(&a);

    store_recovery *r = recover();
    ck_assert_uint_eq(r->n_tables, 1);
    const store_table *back = &r->tables[0].table;
    ck_assert_int_eq(back->id, a.id);
    ck_assert_str_eq(back->game, "tiengow");
    ck_assert_str_eq(back->code, "WXYZ");
    ck_assert_int_eq(json_integer_value(json_object_get(back->options, "stake")), 5);
    ck_assert(json_is_true(json_object_get(back->options, "wen_zun")));
    ck_assert_int_eq(back->host_player_id, host);
    ck_assert(back->is_public);
    ck_assert_int_eq(back->seats[0].player_id, host);
    ck_assert(!back->seats[0].bot);
    ck_assert(back->seats[1].bot);
    ck_assert_int_eq(back->seats[2].player_id, 0);
    ck_assert(!back->seats[2].bot);
    ck_assert_int_eq(back->seats[3].player_id, other);
    ck_assert_str_eq(state_text(back->game_state), "{\"banker\":3,\"extra\":[1],\"multiplier\":4}");
    ck_assert_int_eq(back->hands_played, 7);
    ck_assert_ptr_null(r->tables[0].hand);
    store_recovery_free(r);
}
END_TEST

START_TEST(test_a_game_state_is_stored_as_compact_json_with_sorted_keys)
{
    store_table t = table_template("SORT");
    t.game_state = json_pack("{s:i, s:i, s:{s:i, s:i}}", "multiplier", 4, "banker", 3, "z", "b", 1, "a", 2);
    answer a = save_table(&t);
    json_decref(t.game_state);
    expect_ok(&a);
    char text[128];
    sqlite3 *db = db_open(dir.db);
    db_text(db, "SELECT game_state FROM game_tables", text, sizeof text);
    ck_assert_str_eq(text, "{\"banker\":3,\"multiplier\":4,\"z\":{\"a\":2,\"b\":1}}");

    json_t *deal = json_array();
    json_t *state = json_pack("{s:i, s:i}", "multiplier", 2, "banker", 1);
    store_hand_start h = {.table_id = a.id, .number = 1, .seed = 5, .deal = deal, .game_state = state};
    answer begun = {0};
    ck_assert(store_hand_begin(st, &h, on_id, &begun));
    wait_for(&begun);
    expect_ok(&begun);
    db_text(db, "SELECT game_state FROM hands", text, sizeof text);
    ck_assert_str_eq(text, "{\"banker\":1,\"multiplier\":2}");

    json_t *result = json_object();
    store_hand_end e = {.hand_id = begun.id, .result = result, .next_game_state = state};
    answer finished = {0};
    ck_assert(store_hand_finish(st, &e, on_done, &finished));
    wait_for(&finished);
    expect_ok(&finished);
    db_text(db, "SELECT game_state FROM game_tables", text, sizeof text);
    ck_assert_str_eq(text, "{\"banker\":1,\"multiplier\":2}");
    sqlite3_close(db);
    json_decref(deal);
    json_decref(state);
    json_decref(result);
}
END_TEST

START_TEST(test_a_game_state_that_is_not_a_json_object_is_refused)
{
    json_t *not_objects[] = {NULL, json_array(), json_integer(3), json_string("banker"), json_null()};
    const size_t n = sizeof not_objects / sizeof not_objects[0];
    store_table t = table_template("BADS");
    for (size_t i = 0; i < n; i++) {
        t.game_state = not_objects[i];
        answer a = save_table(&t);
        ck_assert_msg(a.error.status == STORE_INVALID, "case %zu: %s", i, store_status_name(a.error.status));
        ck_assert_ptr_nonnull(strstr(a.error.message, "game state"));
    }
    int64_t table = new_table("GOOD");
    int64_t hand = new_hand(table, 1);
    json_t *deal = json_array(), *result = json_object();
    for (size_t i = 0; i < n; i++) {
        store_hand_start h = {.table_id = table, .number = 2, .seed = 5, .deal = deal, .game_state = not_objects[i]};
        answer begun = {0};
        ck_assert(store_hand_begin(st, &h, on_id, &begun));
        wait_for(&begun);
        ck_assert_int_eq(begun.error.status, STORE_INVALID);
        ck_assert_ptr_nonnull(strstr(begun.error.message, "game state"));
        store_hand_end e = {.hand_id = hand, .result = result, .next_game_state = not_objects[i]};
        answer finished = {0};
        ck_assert(store_hand_finish(st, &e, on_done, &finished));
        wait_for(&finished);
        ck_assert_int_eq(finished.error.status, STORE_INVALID);
        ck_assert_ptr_nonnull(strstr(finished.error.message, "game state"));
    }
    for (size_t i = 0; i < n; i++)
        json_decref(not_objects[i]);
    json_decref(deal);
    json_decref(result);
    /* Nothing was written: one table (the good one), its hand still open, no other hand. */
    store_recovery *r = recover();
    ck_assert_uint_eq(r->n_tables, 1);
    ck_assert_ptr_nonnull(r->tables[0].hand);
    ck_assert_int_eq(r->tables[0].hand->id, hand);
    ck_assert_str_eq(state_text(r->tables[0].table.game_state), "{\"banker\":0,\"multiplier\":2}");
    store_recovery_free(r);
}
END_TEST

static void on_append_count(void *ctx, const store_error *error)
{
    int *ok = ctx;
    if (error->status == STORE_OK)
        (*ok)++;
}

START_TEST(test_a_hands_actions_come_back_in_order_for_recovery)
{
    int64_t table = new_table("ORDR");
    answer begun = begin_hand(table, 1, UINT64_C(0xfedcba9876543210)); /* top bit set: survives INTEGER */
    expect_ok(&begun);
    int64_t hand = begun.id;
    /* Requested back to back, so they are likely written in one batch; the order must hold. */
    int acked = 0;
    for (int64_t seq = 1; seq <= 30; seq++) {
        json_t *action = json_pack("{s:[I]}", "play", (json_int_t)(seq * 7));
        ck_assert(store_action_append(st, hand, seq, (int)(seq % 4), action, on_append_count, &acked));
        json_decref(action);
    }
    while (acked < 30)
        uv_run(&loop, UV_RUN_ONCE);

    /* A finished hand and a closed table are not recovered. */
    int64_t done_table = new_table("DONE");
    int64_t done_hand = new_hand(done_table, 1);
    ok(finish(done_hand, 0, NULL, 0, 2, 2));
    store_table closed = table_template("SHUT");
    snprintf(closed.state, sizeof closed.state, "closed");
    ok(save_table(&closed));

    store_recovery *r = recover();
    ck_assert_uint_eq(r->n_tables, 2);
    ck_assert_uint_eq(r->n_unfinished_hands, 1);
    ck_assert_int_eq(r->tables[0].table.id, table);
    ck_assert_ptr_null(r->tables[1].hand); /* DONE: between hands */
    const store_hand *h = r->tables[0].hand;
    ck_assert_ptr_nonnull(h);
    ck_assert_int_eq(h->id, hand);
    ck_assert_int_eq(h->number, 1);
    ck_assert(h->seed == UINT64_C(0xfedcba9876543210));
    ck_assert_str_eq(state_text(h->game_state), "{\"banker\":1,\"multiplier\":2}");
    ck_assert_int_eq(json_integer_value(json_array_get(json_array_get(h->deal, 3), 1)), 8);
    ck_assert_uint_eq(h->n_actions, 30);
    for (size_t i = 0; i < h->n_actions; i++) {
        ck_assert_int_eq(h->actions[i].seq, (int64_t)i + 1);
        ck_assert_int_eq(h->actions[i].seat, (int)((i + 1) % 4));
        const json_t *tiles = json_object_get(h->actions[i].action, "play");
        ck_assert_int_eq(json_integer_value(json_array_get(tiles, 0)), ((int64_t)i + 1) * 7);
    }
    ck_assert_int_eq(r->tables[0].table.hands_played, 1); /* a hand's start counts it */
    store_recovery_free(r);
}
END_TEST

START_TEST(test_action_numbers_follow_without_gap_or_repeat)
{
    int64_t hand = new_hand(new_table("SEQS"), 1);
    ok(append(hand, 1));
    answer repeat = append(hand, 1);
    ck_assert_int_eq(repeat.error.status, STORE_CONFLICT);
    answer gap = append(hand, 3);
    ck_assert_int_eq(gap.error.status, STORE_INVALID);
    ck_assert_ptr_nonnull(strstr(gap.error.message, "gap"));
    answer unknown = append(hand + 50, 1);
    ck_assert_int_eq(unknown.error.status, STORE_NOT_FOUND);
    ok(append(hand, 2));
    ck_assert_str_eq(stored_seqs(hand), "1,2");
}
END_TEST

START_TEST(test_a_table_finishes_its_hand_before_starting_another)
{
    int64_t table = new_table("ONE1");
    int64_t hand = new_hand(table, 1);
    answer second = begin_hand(table, 2, 99);
    ck_assert_int_eq(second.error.status, STORE_CONFLICT);
    ok(finish(hand, 0, NULL, 0, 0, 2));
    answer again = begin_hand(table, 1, 99);
    ck_assert_int_eq(again.error.status, STORE_CONFLICT); /* hand numbers are unique per table */
    ok(begin_hand(table, 2, 99));
    ck_assert_int_eq(begin_hand(table + 40, 1, 99).error.status, STORE_NOT_FOUND);
}
END_TEST

START_TEST(test_a_finished_hand_takes_no_more_actions)
{
    int64_t hand = new_hand(new_table("OVER"), 1);
    ok(append(hand, 1));
    ok(finish(hand, 2, NULL, 0, 0, 2));
    answer late = append(hand, 3);
    ck_assert_int_eq(late.error.status, STORE_INVALID);
    ck_assert_ptr_nonnull(strstr(late.error.message, "over"));
    answer twice = finish(hand, 0, NULL, 0, 0, 2);
    ck_assert_int_eq(twice.error.status, STORE_INVALID);
}
END_TEST

/* ---- The end of a hand and the ledger ---- */

START_TEST(test_finishing_writes_the_last_action_result_ledger_and_game_state)
{
    int64_t a = guest("A"), b = guest("B"), c = guest("C");
    int64_t table = new_table("FINI");
    int64_t hand = new_hand(table, 1);
    ok(append(hand, 1));
    /* Seat 0 wins 6 units from the three others (one of them a bot). */
    const store_ledger_entry rows[] = {entry(a, 0, 6, "settle"), entry(b, 1, -2, "settle"), entry(c, 2, -2, "settle"),
                                       entry(0, 3, -2, "settle")};
    ok(finish(hand, 2, rows, 4, 3, 4));

    ck_assert_str_eq(stored_seqs(hand), "1,2");
    ck_assert_int_eq(stored_hands(true), 1);
    ck_assert_int_eq(stored_ledger_rows(), 4);
    int64_t sum = 0;
    for (int64_t id = 1; id <= 4; id++) {
        store_memory_row row = stored_row(id);
        sum += row.units;
        ck_assert_int_eq(row.hand_id, hand);
        ck_assert_int_eq(row.table_id, table);
        ck_assert_int_eq(row.at_ms, T0_MS);
        ck_assert_int_eq(row.player_id, rows[id - 1].player_id); /* 0 for the bot */
    }
    ck_assert_int_eq(sum, 0);
    ck_assert_int_eq(stored_row(4).balance_after, 0);
    store_recovery *r = recover();
    ck_assert_str_eq(state_text(r->tables[0].table.game_state), "{\"banker\":3,\"multiplier\":4}");
    ck_assert_ptr_null(r->tables[0].hand);
    store_recovery_free(r);
    if (use_memory) {
        const store_memory_hand *h = store_memory_hand_at(st, hand);
        ck_assert_int_eq(h->finished_at_ms, T0_MS);
        ck_assert_ptr_nonnull(h->result);
        return;
    }
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT result IS NOT NULL AND finished_at = %" PRId64 " FROM hands WHERE id = %" PRId64,
             T0_MS, hand);
    ck_assert_int_eq(on_disk(sql), 1);
    ck_assert_int_eq(on_disk("SELECT count(*) FROM ledger WHERE player_id IS NULL AND balance_after IS NULL"), 1);
}
END_TEST

START_TEST(test_ledger_rows_that_do_not_sum_to_zero_are_refused)
{
    int64_t a = guest("A"), b = guest("B");
    int64_t table = new_table("ZERO");
    int64_t hand = new_hand(table, 1);
    const store_ledger_entry rows[] = {entry(a, 0, 5, "settle"), entry(b, 1, -4, "settle")};
    answer bad = finish(hand, 1, rows, 2, 1, 2);
    ck_assert_int_eq(bad.error.status, STORE_INVALID);
    ck_assert_ptr_nonnull(strstr(bad.error.message, "zero"));
    ck_assert_int_eq(stored_ledger_rows(), 0);
    ck_assert_int_eq(stored_actions(), 0);
    ck_assert_int_eq(stored_hands(false), 1);
}
END_TEST

START_TEST(test_each_row_carries_the_players_balance_after_it)
{
    int64_t a = guest("A"), b = guest("B"), c = guest("C"), d = guest("D");
    int64_t table = new_table("BALS");
    /* Hand 1: A wins 6 (2 from each); with a bonus row 賀尊 A collects 1 more from each. */
    int64_t h1 = new_hand(table, 1);
    const store_ledger_entry r1[] = {entry(a, 0, 6, "settle"),  entry(b, 1, -2, "settle"), entry(c, 2, -2, "settle"),
                                     entry(d, 3, -2, "settle"), entry(a, 0, 3, "he_zun"),  entry(b, 1, -1, "he_zun"),
                                     entry(c, 2, -1, "he_zun"), entry(d, 3, -1, "he_zun")};
    ok(finish(h1, 0, r1, 8, 0, 2));
    /* Hand 2: B wins 4 from A only. */
    int64_t h2 = new_hand(table, 2);
    const store_ledger_entry r2[] = {entry(b, 1, 4, "settle"), entry(a, 0, -4, "settle")};
    ok(finish(h2, 0, r2, 2, 1, 2));

    /* By hand: A 6, then 9, then 5; B -2, -3, then 1; C -2, -3; D -2, -3. */
    const struct {
        int64_t player;
        const char *balances;
    } expected[] = {{a, "6,9,5"}, {b, "-2,-3,1"}, {c, "-2,-3"}, {d, "-2,-3"}};
    ck_assert_int_eq(stored_ledger_rows(), 10);
    for (size_t i = 0; i < 4; i++) {
        char list[128] = "";
        size_t used = 0;
        for (int64_t id = 1; id <= 10; id++) {
            store_memory_row row = stored_row(id);
            if (row.player_id == expected[i].player)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%" PRId64, used ? "," : "",
                                         row.balance_after);
        }
        ck_assert_str_eq(list, expected[i].balances);
    }
    char reasons[128] = "";
    size_t used = 0;
    for (int64_t id = 1; id <= 8; id++) {
        ck_assert_int_eq(stored_row(id).hand_id, h1);
        used += (size_t)snprintf(reasons + used, sizeof reasons - used, "%s%s", id > 1 ? "," : "", stored_row(id).reason);
    }
    ck_assert_str_eq(reasons, "settle,settle,settle,settle,he_zun,he_zun,he_zun,he_zun");
}
END_TEST

/* Writes n hands of four rows (seat n % 4 wins 3, the others pay 1; seat 3 is a bot). */
static void play_hands(int n)
{
    int64_t players[3] = {guest("A"), guest("B"), guest("C")};
    int64_t table = new_table("PLAY");
    for (int k = 1; k <= n; k++) {
        int64_t hand = new_hand(table, k);
        store_ledger_entry rows[4];
        for (int seat = 0; seat < 4; seat++)
            rows[seat] = entry(seat < 3 ? players[seat] : 0, seat, seat == k % 4 ? 3 : -1, "settle");
        ok(finish(hand, 0, rows, 4, k % 4, 2));
    }
}

START_TEST(test_hash_is_blake2b_of_the_documented_canonical_text)
{
    int64_t a = guest("A");
    int64_t hand = new_hand(new_table("HASH"), 1);
    const store_ledger_entry rows[] = {entry(a, 0, 3, "賀尊"), entry(0, 2, -3, "賀尊")};
    ok(finish(hand, 0, rows, 2, 0, 2));

    /* Row 1 and row 2 written out by hand from store.h, hashed with the ledger's key. */
    unsigned char key[STORE_LEDGER_KEY_BYTES];
    ledger_key(key);
    char text1[512], text2[512], hex1[65], hex2[65];
    unsigned char digest[32];
    snprintf(text1, sizeof text1,
             "teahouse-ledger-v2\nid=1\ntable=1\nhand=%" PRId64 "\nplayer=%" PRId64
             "\nseat=0\nunits=3\nreason=賀尊\nbalance=3\nat=%" PRId64 "\nprev=%s\n",
             hand, a, T0_MS, STORE_LEDGER_ZERO_HASH);
    crypto_generichash(digest, 32, (const unsigned char *)text1, strlen(text1), key, sizeof key);
    sodium_bin2hex(hex1, sizeof hex1, digest, 32);
    snprintf(text2, sizeof text2,
             "teahouse-ledger-v2\nid=2\ntable=1\nhand=%" PRId64
             "\nplayer=\nseat=2\nunits=-3\nreason=賀尊\nbalance=\nat=%" PRId64 "\nprev=%s\n",
             hand, T0_MS, hex1);
    crypto_generichash(digest, 32, (const unsigned char *)text2, strlen(text2), key, sizeof key);
    sodium_bin2hex(hex2, sizeof hex2, digest, 32);

    ck_assert_str_eq(stored_row(1).prev_hash, STORE_LEDGER_ZERO_HASH);
    ck_assert_str_eq(stored_row(1).hash, hex1);
    ck_assert_str_eq(stored_row(2).prev_hash, hex1);
    ck_assert_str_eq(stored_row(2).hash, hex2);
}
END_TEST

START_TEST(test_an_honest_ledger_verifies)
{
    play_hands(5);
    answer a = verify();
    ck_assert(a.check.ok);
    ck_assert_int_eq(a.check.rows_checked, 20);
    ck_assert_int_eq(a.check.first_bad_row, 0);
    if (use_memory)
        return;

    store_ledger_check check;
    store_error error;
    ck_assert_msg(store_ledger_verify_path(use_pg ? pg_uri : dir.db, use_pg ? pg_key : NULL, &check, &error), "%s",
                  error.message);
    ck_assert(check.ok);
    ck_assert(check.keyed);
    ck_assert_int_eq(check.rows_checked, 20);
    ck_assert_int_eq(check.v1_rows, 0);
}
END_TEST

START_TEST(test_the_ledger_refuses_updates_and_deletes)
{
    play_hands(1);
    sqlite3 *db = db_open(dir.db);
    ck_assert_int_ne(sqlite3_exec(db, "UPDATE ledger SET units = 0 WHERE id = 1", NULL, NULL, NULL), SQLITE_OK);
    ck_assert_int_ne(sqlite3_exec(db, "DELETE FROM ledger WHERE id = 1", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    ck_assert_int_eq(on_disk("SELECT count(*) FROM ledger"), 4);
}
END_TEST

static void remove_ledger_guards(void)
{
    if (use_pg) {
        on_disk_exec("ALTER TABLE ledger DISABLE TRIGGER USER");
        return;
    }
    on_disk_exec("DROP TRIGGER IF EXISTS ledger_is_append_only_update;"
                 " DROP TRIGGER IF EXISTS ledger_is_append_only_delete;");
}

START_TEST(test_a_tampered_row_is_the_first_bad_row)
{
    play_hands(4);
    remove_ledger_guards();
    on_disk_exec("UPDATE ledger SET units = units + 1 WHERE id = 7");
    answer a = verify();
    ck_assert(!a.check.ok);
    ck_assert_int_eq(a.check.first_bad_row, 7);
    ck_assert_ptr_nonnull(strstr(a.check.why, "hash"));
}
END_TEST

START_TEST(test_a_deleted_row_breaks_the_chain_at_the_next)
{
    play_hands(4);
    remove_ledger_guards();
    on_disk_exec("DELETE FROM ledger WHERE id = 10");
    answer a = verify();
    ck_assert(!a.check.ok);
    ck_assert_int_eq(a.check.first_bad_row, 11);
    ck_assert_ptr_nonnull(strstr(a.check.why, "missing"));
}
END_TEST

START_TEST(test_a_rehashed_forgery_is_caught_by_the_hand_sum)
{
    /* A forger who has the key and recomputes the hash of the last row (a bot's, so no balance to
     * fix) leaves the chain whole, but hand 3 (rows 9 to 12) no longer sums to zero. */
    unsigned char key[STORE_LEDGER_KEY_BYTES];
    ledger_key(key);
    play_hands(3);
    remove_ledger_guards();
    sqlite3 *db = db_open(dir.db);
    store_ledger_row row = {.id = 12, .is_bot = true, .seat = 3, .reason = "settle", .at_ms = T0_MS};
    row.table_id = db_int(db, "SELECT table_id FROM ledger WHERE id = 12");
    row.hand_id = db_int(db, "SELECT hand_id FROM ledger WHERE id = 12");
    row.units = db_int(db, "SELECT units FROM ledger WHERE id = 12") - 5;
    char prev[80], hash[STORE_HASH_HEX], sql[256];
    db_text(db, "SELECT prev_hash FROM ledger WHERE id = 12", prev, sizeof prev);
    row.prev_hash = prev;
    store_ledger_hash(&row, key, hash);
    snprintf(sql, sizeof sql, "UPDATE ledger SET units = %" PRId64 ", hash = '%s' WHERE id = 12", row.units, hash);
    db_exec(db, sql);
    long long hand3 = db_int(db, "SELECT hand_id FROM ledger WHERE id = 9");
    sqlite3_close(db);

    answer a = verify();
    ck_assert(!a.check.ok);
    ck_assert_int_eq(a.check.first_bad_row, 9);
    ck_assert_ptr_nonnull(strstr(a.check.why, "not zero"));
    char hand_text[32];
    snprintf(hand_text, sizeof hand_text, "hand %lld", hand3);
    ck_assert_ptr_nonnull(strstr(a.check.why, hand_text));
}
END_TEST

/* ---- The ledger's key ---- */

static void key_file(char *out, size_t cap)
{
    snprintf(out, cap, "%s.key", dir.db);
}

/* store_open on the scratch database, expected to fail with status; its sentence. */
static const char *open_fails(store_status status)
{
    static store_error error;
    store_options o = test_options();
    store *s = store_open(&loop, dir.db, &o, &error);
    ck_assert_msg(s == NULL, "the store opened");
    ck_assert_msg(error.status == status, "%s: %s", store_status_name(error.status), error.message);
    uv_run(&loop, UV_RUN_DEFAULT);
    return error.message;
}

/* A forger who can write the database (not the key): moves `units` from seat 1's player to seat
 * 0's in the hand whose rows start at row `first` (so it still sums to zero), carries every
 * balance on, and rehashes the chain from that row with key (NULL: the unkeyed v1 text). */
static void forge(int64_t first, int64_t units, const unsigned char *key)
{
    remove_ledger_guards();
    long long n = on_disk("SELECT count(*) FROM ledger");
    store_memory_row *rows = calloc((size_t)n, sizeof *rows);
    for (int64_t id = 1; id <= n; id++)
        rows[id - 1] = stored_row(id);
    rows[first - 1].units += units;
    rows[first].units -= units;
    for (int64_t i = 0; i < n; i++) { /* balances again, from each player's rows */
        int64_t sum = 0;
        for (int64_t k = 0; k <= i && rows[i].player_id != 0; k++)
            sum += rows[k].player_id == rows[i].player_id ? rows[k].units : 0;
        rows[i].balance_after = rows[i].player_id != 0 ? sum : 0;
    }
    sqlite3 *db = db_open(dir.db);
    for (int64_t i = first - 1; i < n; i++) {
        store_memory_row *r = &rows[i];
        snprintf(r->prev_hash, sizeof r->prev_hash, "%s", i == 0 ? STORE_LEDGER_ZERO_HASH : rows[i - 1].hash);
        const store_ledger_row row = {.id = r->id, .table_id = r->table_id, .hand_id = r->hand_id,
                                      .is_bot = r->player_id == 0, .player_id = r->player_id, .seat = r->seat,
                                      .units = r->units, .reason = r->reason, .balance_after = r->balance_after,
                                      .at_ms = r->at_ms, .prev_hash = r->prev_hash};
        store_ledger_hash(&row, key, r->hash);
        char sql[512];
        snprintf(sql, sizeof sql,
                 "UPDATE ledger SET units = %" PRId64 ", balance_after = CASE WHEN player_id IS NULL THEN NULL"
                 " ELSE %" PRId64 " END, prev_hash = '%s', hash = '%s' WHERE id = %" PRId64,
                 r->units, r->balance_after, r->prev_hash, r->hash, r->id);
        db_exec(db, sql);
    }
    sqlite3_close(db);
    free(rows);
}

START_TEST(test_the_key_is_made_once_with_mode_0600_beside_the_database_and_kept)
{
    char path[160];
    key_file(path, sizeof path);
    struct stat sb;
    ck_assert_int_eq(stat(path, &sb), 0);
    ck_assert_int_eq(sb.st_mode & 07777, 0600);
    ck_assert_int_eq(sb.st_size, STORE_LEDGER_KEY_BYTES);
    unsigned char first[STORE_LEDGER_KEY_BYTES], again[STORE_LEDGER_KEY_BYTES];
    ledger_key(first);
    ck_assert_int_eq(on_disk("SELECT count(*) FROM ledger_key"), 1);
    ck_assert_int_eq(on_disk("SELECT v1_rows FROM ledger_key"), 0);

    play_hands(1);
    close_store();
    store_options o = test_options();
    st = open_store(&o);
    ledger_key(again);
    ck_assert_int_eq(memcmp(first, again, sizeof first), 0);
    ck_assert_int_eq(on_disk("SELECT count(*) FROM ledger_key"), 1);
    int64_t hand = new_hand(new_table("MORE"), 1);
    const store_ledger_entry rows[] = {entry(0, 0, 1, "settle"), entry(0, 1, -1, "settle")};
    ok(finish(hand, 0, rows, 2, 0, 2));
    answer a = verify();
    ck_assert(a.check.ok);
    ck_assert_int_eq(a.check.rows_checked, 6);
}
END_TEST

START_TEST(test_a_key_file_others_may_read_is_refused_by_the_store_and_by_verify)
{
    play_hands(1);
    close_store();
    char path[160];
    key_file(path, sizeof path);
    ck_assert_int_eq(chmod(path, 0644), 0);
    const char *why = open_fails(STORE_INVALID);
    ck_assert_ptr_nonnull(strstr(why, path));
    ck_assert_ptr_nonnull(strstr(why, "chmod 600"));

    store_ledger_check check;
    store_error error;
    ck_assert(!store_ledger_verify_path(dir.db, NULL, &check, &error));
    ck_assert_int_eq(error.status, STORE_INVALID);
    ck_assert_ptr_nonnull(strstr(error.message, "0644"));

    ck_assert_int_eq(chmod(path, 0600), 0); /* put right, all is well again */
    store_options o = test_options();
    st = open_store(&o);
    ck_assert(verify().check.ok);
}
END_TEST

START_TEST(test_a_key_file_that_is_not_32_bytes_is_refused)
{
    close_store();
    char path[160];
    key_file(path, sizeof path);
    FILE *f = fopen(path, "ab");
    fputc('x', f);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(open_fails(STORE_CORRUPT), "33 bytes"));
}
END_TEST

START_TEST(test_a_keyed_ledger_whose_key_is_missing_is_refused_and_verify_says_so)
{
    play_hands(1);
    close_store();
    char path[160];
    key_file(path, sizeof path);
    ck_assert_int_eq(unlink(path), 0);
    const char *why = open_fails(STORE_NOT_FOUND);
    ck_assert_ptr_nonnull(strstr(why, path));
    ck_assert_ptr_nonnull(strstr(why, "missing"));
    ck_assert_int_ne(access(path, F_OK), 0); /* no new key was made for a keyed ledger */

    store_ledger_check check;
    store_error error;
    ck_assert(!store_ledger_verify_path(dir.db, NULL, &check, &error));
    ck_assert_int_eq(error.status, STORE_NOT_FOUND);
    ck_assert_ptr_nonnull(strstr(error.message, path));
    ck_assert_ptr_nonnull(strstr(error.message, "missing"));
}
END_TEST

START_TEST(test_another_key_is_refused_by_the_store_and_fails_verify)
{
    play_hands(1);
    close_store();
    char path[160];
    key_file(path, sizeof path);
    unsigned char other[STORE_LEDGER_KEY_BYTES];
    randombytes_buf(other, sizeof other);
    FILE *f = fopen(path, "wb");
    ck_assert_uint_eq(fwrite(other, 1, sizeof other, f), sizeof other);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(open_fails(STORE_CORRUPT), "not the key"));

    store_ledger_check check;
    store_error error;
    ck_assert_msg(store_ledger_verify_path(use_pg ? pg_uri : dir.db, use_pg ? pg_key : NULL, &check, &error), "%s",
                  error.message);
    ck_assert(!check.ok);
    ck_assert_int_eq(check.first_bad_row, 1);
    ck_assert_ptr_nonnull(strstr(check.why, "key record"));
}
END_TEST

START_TEST(test_a_forger_without_the_key_who_rehashes_the_chain_is_caught_at_the_row_changed)
{
    play_hands(3);
    unsigned char key[STORE_LEDGER_KEY_BYTES];
    ledger_key(key);
    /* With the key, the same forgery passes: only the key stops it. */
    forge(5, 5, key);
    answer a = verify();
    ck_assert_msg(a.check.ok, "row %lld: %s", (long long)a.check.first_bad_row, a.check.why);
    ck_assert_int_eq(stored_row(5).units, -1 + 5);

    /* The unkeyed (v1) hash, as an older teahouse wrote it. */
    forge(5, 5, NULL);
    a = verify();
    ck_assert(!a.check.ok);
    ck_assert_int_eq(a.check.first_bad_row, 5);
    ck_assert_ptr_nonnull(strstr(a.check.why, "key"));

    /* A key of the forger's own. */
    unsigned char wrong[STORE_LEDGER_KEY_BYTES];
    randombytes_buf(wrong, sizeof wrong);
    forge(6, -1, wrong);
    store_ledger_check check;
    store_error error;
    ck_assert_msg(store_ledger_verify_path(use_pg ? pg_uri : dir.db, use_pg ? pg_key : NULL, &check, &error), "%s",
                  error.message);
    ck_assert(!check.ok);
    ck_assert_int_eq(check.first_bad_row, 5); /* row 5 is still the unkeyed one */
    forge(5, 0, wrong);
    ck_assert_msg(store_ledger_verify_path(use_pg ? pg_uri : dir.db, use_pg ? pg_key : NULL, &check, &error), "%s",
                  error.message);
    ck_assert(!check.ok);
    ck_assert_int_eq(check.first_bad_row, 5);
    ck_assert_ptr_nonnull(strstr(check.why, "hash does not match"));
}
END_TEST

START_TEST(test_a_ledger_rewritten_as_unkeyed_without_its_key_record_is_caught_and_not_reopened)
{
    play_hands(2);
    forge(1, 2, NULL);
    on_disk_exec("DELETE FROM ledger_key");
    store_ledger_check check;
    store_error error;
    ck_assert_msg(store_ledger_verify_path(use_pg ? pg_uri : dir.db, use_pg ? pg_key : NULL, &check, &error), "%s",
                  error.message);
    ck_assert(!check.ok);
    ck_assert_int_eq(check.first_bad_row, 1);
    ck_assert_ptr_nonnull(strstr(check.why, "no key record"));
    close_store();
    ck_assert_ptr_nonnull(strstr(open_fails(STORE_CORRUPT), "no key record"));
    ck_assert_int_eq(on_disk("SELECT count(*) FROM ledger_key"), 0); /* the forgery was not vouched for */

    /* Nor does a record that claims the rows are older than the key. */
    on_disk_exec("INSERT INTO ledger_key VALUES (1, 8, (SELECT hash FROM ledger WHERE id = 8), 0, 'forged')");
    ck_assert_msg(store_ledger_verify_path(use_pg ? pg_uri : dir.db, use_pg ? pg_key : NULL, &check, &error), "%s",
                  error.message);
    ck_assert(!check.ok);
    ck_assert_ptr_nonnull(strstr(check.why, "key record does not match"));
}
END_TEST

START_TEST(test_the_end_of_a_hand_is_all_or_nothing)
{
    int64_t a = guest("A"), b = guest("B");
    int64_t table = new_table("ATOM");
    int64_t hand = new_hand(table, 1);
    ok(append(hand, 1));
    /* A failure injected between statements: the third ledger row cannot be written. */
    inject_failure("CREATE TRIGGER inject_failure BEFORE INSERT ON ledger WHEN NEW.seat = 2"
                   " BEGIN SELECT RAISE(ABORT, 'injected failure'); END;",
                   STORE_KIND_HAND_FINISH);
    const store_ledger_entry rows[] = {entry(a, 0, 4, "settle"), entry(b, 1, -2, "settle"), entry(0, 2, -2, "settle")};
    answer failed = finish(hand, 2, rows, 3, 2, 4);
    ck_assert_int_ne(failed.error.status, STORE_OK);
    ck_assert(says_injected(&failed.error));

    /* Nothing of the end is visible: no second action, no result, no ledger row, same game state. */
    store_recovery *r = recover();
    ck_assert_uint_eq(r->n_tables, 1);
    ck_assert_ptr_nonnull(r->tables[0].hand);
    ck_assert_uint_eq(r->tables[0].hand->n_actions, 1);
    ck_assert_str_eq(state_text(r->tables[0].table.game_state), "{\"banker\":0,\"multiplier\":2}");
    store_recovery_free(r);
    ck_assert_int_eq(stored_ledger_rows(), 0);
    ck_assert_int_eq(stored_hands(true), 0);

    /* The caller still has everything and retries once the cause is gone. */
    clear_failure();
    ok(finish(hand, 2, rows, 3, 2, 4));
    ck_assert_int_eq(stored_ledger_rows(), 3);
    ck_assert(verify().check.ok);
}
END_TEST

START_TEST(test_a_failing_request_does_not_undo_the_others_of_its_batch)
{
    int64_t a = guest("A");
    int64_t table1 = new_table("BAT1"), table2 = new_table("BAT2");
    int64_t h1 = new_hand(table1, 1), h2 = new_hand(table2, 1);
    inject_failure("CREATE TRIGGER inject_failure BEFORE INSERT ON ledger WHEN NEW.seat = 1"
                   " BEGIN SELECT RAISE(ABORT, 'injected failure'); END;",
                   STORE_KIND_HAND_FINISH);
    /* Three requests made before the loop runs again, so the store thread likely sees them together. */
    json_t *action = json_pack("{s:[i]}", "play", 1);
    json_t *result = json_object();
    const store_ledger_entry rows[] = {entry(a, 0, 1, "settle"), entry(0, 1, -1, "settle")};
    store_hand_end end = {.hand_id = h1, .result = result, .entries = rows, .n_entries = 2, .next_game_state = next_state};
    answer first = {0}, bad = {0}, last = {0};
    ck_assert(store_action_append(st, h1, 1, 0, action, on_done, &first));
    ck_assert(store_hand_finish(st, &end, on_done, &bad));
    ck_assert(store_action_append(st, h2, 1, 0, action, on_done, &last));
    json_decref(action);
    json_decref(result);
    wait_for(&first);
    wait_for(&bad);
    wait_for(&last);
    expect_ok(&first);
    ck_assert_int_ne(bad.error.status, STORE_OK);
    expect_ok(&last);
    ck_assert_int_eq(stored_actions(), 2);
    ck_assert_int_eq(stored_ledger_rows(), 0);
}
END_TEST

START_TEST(test_a_ledger_row_for_an_unknown_player_is_refused_whole)
{
    int64_t a = guest("A");
    int64_t hand = new_hand(new_table("GHST"), 1);
    ok(append(hand, 1));
    const store_ledger_entry rows[] = {entry(a, 0, 2, "settle"), entry(a + 500, 1, -2, "settle")};
    answer bad = finish(hand, 2, rows, 2, 1, 2);
    ck_assert_int_eq(bad.error.status, STORE_INVALID);
    char id_text[32];
    snprintf(id_text, sizeof id_text, "%" PRId64, a + 500);
    ck_assert_ptr_nonnull(strstr(bad.error.message, id_text));
    /* The last action and the first row were written before the bad row: all are gone. */
    ck_assert_int_eq(stored_ledger_rows(), 0);
    ck_assert_int_eq(stored_actions(), 1);
    ck_assert_int_eq(stored_hands(false), 1);
    const store_ledger_entry good[] = {entry(a, 0, 2, "settle"), entry(0, 1, -2, "settle")};
    ok(finish(hand, 2, good, 2, 1, 2));
}
END_TEST

START_TEST(test_an_end_undone_in_a_batch_leaves_the_hand_open_for_its_next_action)
{
    /* In one batch: action 1, an end that writes action 2 and then fails, and action 2 on its own.
     * The failed end must not leave its action 2 behind, in the database or in the store's idea
     * of the hand, so the separate action 2 goes through. */
    int64_t hand = new_hand(new_table("UNDO"), 1);
    inject_failure("CREATE TRIGGER inject_failure BEFORE INSERT ON ledger"
                   " BEGIN SELECT RAISE(ABORT, 'injected failure'); END;",
                   STORE_KIND_HAND_FINISH);
    json_t *action = json_pack("{s:[i]}", "play", 1);
    json_t *result = json_object();
    const store_ledger_entry rows[] = {entry(0, 0, 1, "settle"), entry(0, 1, -1, "settle")};
    store_hand_end end = {.hand_id = hand, .last_seq = 2, .last_seat = 1, .last_action = action, .result = result,
                          .entries = rows, .n_entries = 2, .next_game_state = next_state};
    answer first = {0}, bad = {0}, second = {0};
    ck_assert(store_action_append(st, hand, 1, 0, action, on_done, &first));
    ck_assert(store_hand_finish(st, &end, on_done, &bad));
    ck_assert(store_action_append(st, hand, 2, 1, action, on_done, &second));
    json_decref(action);
    json_decref(result);
    wait_for(&first);
    wait_for(&bad);
    wait_for(&second);
    expect_ok(&first);
    ck_assert_int_ne(bad.error.status, STORE_OK);
    expect_ok(&second);
    ck_assert_str_eq(stored_seqs(hand), "1,2");
    ck_assert_int_eq(stored_hands(false), 1);
}
END_TEST

START_TEST(test_a_reopened_store_carries_on_with_an_unfinished_hand)
{
    int64_t hand = new_hand(new_table("AGIN"), 1);
    ok(append(hand, 1));
    ok(append(hand, 2));
    close_store();
    store_options o = test_options();
    st = open_store(&o);
    ck_assert_int_eq(append(hand, 2).error.status, STORE_CONFLICT);
    ck_assert_int_eq(append(hand, 4).error.status, STORE_INVALID);
    ok(append(hand, 3));
    ok(finish(hand, 4, NULL, 0, 0, 2));
    ck_assert_int_eq(append(hand, 5).error.status, STORE_INVALID);
}
END_TEST

/* ---- The loop ---- */

START_TEST(test_an_idle_store_lets_the_loop_end_and_a_request_keeps_it_running)
{
    ck_assert_int_eq(uv_run(&loop, UV_RUN_DEFAULT), 0); /* returns at once: nothing to wait for */
    answer a = {0};
    ck_assert(store_player_save(st, 0, "Ah Wing", on_id, &a));
    ck_assert(!a.called); /* never answered from inside the request */
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert(a.called);
    expect_ok(&a);
}
END_TEST

/* ---- Closing ---- */

START_TEST(test_close_answers_everything_already_requested)
{
    int64_t hand = new_hand(new_table("CLOS"), 1);
    int acked = 0;
    for (int64_t seq = 1; seq <= 50; seq++) {
        json_t *action = json_pack("{s:[I]}", "play", (json_int_t)seq);
        ck_assert(store_action_append(st, hand, seq, 0, action, on_append_count, &acked));
        json_decref(action);
    }
    ck_assert_int_eq(stored_actions(), 0); /* nothing is written before the loop runs */
    store_close(st);
    ck_assert_int_eq(acked, 50); /* answered before store_close returned */
    if (use_memory)
        ck_assert_int_eq(stored_actions(), 50); /* its memory goes when the loop runs */
    st = NULL;
    uv_run(&loop, UV_RUN_DEFAULT);
    if (!use_memory)
        ck_assert_int_eq(on_disk("SELECT count(*) FROM hand_actions"), 50);
}
END_TEST

START_TEST(test_password_work_in_flight_at_close_is_answered_closed)
{
    answer created = {0}, logged = {0};
    ck_assert(store_account_create(st, "Mei", "plum blossom", 0, on_id, &created));
    ck_assert(store_login(st, "Mei", "plum blossom", on_session, &logged));
    store_close(st);
    st = NULL;
    ck_assert(!store_player_save(NULL, 0, "late", on_id, &created));
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert(created.called);
    ck_assert(logged.called);
    ck_assert_int_eq(created.error.status, STORE_CLOSED);
    ck_assert_int_eq(logged.error.status, STORE_CLOSED);
}
END_TEST

/* ---- Bad conditions ---- */

START_TEST(test_a_lock_held_by_another_process_gives_a_clear_busy_error)
{
    int64_t hand = new_hand(new_table("LOCK"), 1);
    sqlite3 *other = db_open(dir.db);
    db_exec(other, "BEGIN EXCLUSIVE");
    answer blocked = append(hand, 1);
    ck_assert_int_eq(blocked.error.status, STORE_BUSY);
    ck_assert_str_eq(store_status_name(blocked.error.status), "busy");
    ck_assert_ptr_nonnull(strstr(blocked.error.message, "locked by another process"));
    ck_assert_ptr_nonnull(strstr(blocked.error.message, dir.db));
    db_exec(other, "COMMIT");
    sqlite3_close(other);
    ok(append(hand, 1)); /* nothing was lost: the same request goes through */
}
END_TEST

START_TEST(test_a_database_held_exclusively_cannot_be_opened)
{
    close_store();
    sqlite3 *other = db_open(dir.db);
    db_exec(other, "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; INSERT INTO players (kind, nickname,"
                   " created_at, last_seen_at) VALUES ('guest', 'x', 0, 0);");
    store_options o = test_options();
    store_error error;
    store *s = store_open(&loop, dir.db, &o, &error);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(error.status, STORE_BUSY);
    ck_assert_ptr_nonnull(strstr(error.message, "locked by another process"));
    db_exec(other, "ROLLBACK");
    sqlite3_close(other);
}
END_TEST

START_TEST(test_a_directory_that_cannot_be_written_gives_a_clear_error)
{
    /* As root, permissions do not stop us; sysfs refuses new files even to root. */
    char ro_dir[128], path[192];
    if (geteuid() == 0) {
        snprintf(ro_dir, sizeof ro_dir, "/sys");
    } else {
        snprintf(ro_dir, sizeof ro_dir, "%s/ro", dir.dir);
        ck_assert_int_eq(mkdir(ro_dir, 0555), 0);
    }
    snprintf(path, sizeof path, "%s/teahouse-test.db", ro_dir);
    store_options o = test_options();
    store_error error;
    store *s = store_open(&loop, path, &o, &error);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(error.status, STORE_READONLY);
    ck_assert_ptr_nonnull(strstr(error.message, path));
    ck_assert_ptr_nonnull(strstr(error.message, "directory"));
    if (geteuid() != 0)
        rmdir(ro_dir);
}
END_TEST

START_TEST(test_a_file_of_garbage_is_reported_as_not_a_database)
{
    close_store();
    scratch_remove(&dir);
    scratch_make(&dir);
    FILE *f = fopen(dir.db, "wb");
    for (int i = 0; i < 8192; i++)
        fputc((i * 131 + 7) & 0xff, f);
    fclose(f);
    store_options o = test_options();
    store_error error;
    store *s = store_open(&loop, dir.db, &o, &error);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(error.status, STORE_CORRUPT);
    ck_assert_ptr_nonnull(strstr(error.message, "not a teahouse database"));
    ck_assert_ptr_nonnull(strstr(error.message, dir.db));
}
END_TEST

START_TEST(test_damaged_pages_give_a_corrupt_error_and_no_crash)
{
    play_hands(3);
    close_store();
    /* Keep page 1 (header and schema), overwrite every other page with garbage. */
    sqlite3 *db = db_open(dir.db);
    long long page_size = db_int(db, "PRAGMA page_size");
    long long pages = db_int(db, "PRAGMA page_count");
    sqlite3_close(db);
    ck_assert_int_gt(pages, 2);
    int fd = open(dir.db, O_WRONLY);
    ck_assert_int_ge(fd, 0);
    char *garbage = malloc((size_t)page_size);
    memset(garbage, 0x5a, (size_t)page_size);
    for (long long p = 1; p < pages; p++)
        ck_assert_int_eq(pwrite(fd, garbage, (size_t)page_size, (off_t)(p * page_size)), page_size);
    free(garbage);
    close(fd);

    store_options o = test_options();
    store_error error;
    st = store_open(&loop, dir.db, &o, &error);
    if (st == NULL) {
        ck_assert_int_eq(error.status, STORE_CORRUPT);
        return;
    }
    store_recovery *r = NULL;
    ck_assert(!store_recover(st, &r, &error));
    ck_assert_int_eq(error.status, STORE_CORRUPT);
    ck_assert_ptr_nonnull(strstr(error.message, "damaged"));
    answer a = {0};
    ck_assert(store_player_save(st, 0, "after", on_id, &a));
    wait_for(&a);
    ck_assert_int_eq(a.error.status, STORE_CORRUPT);
}
END_TEST

START_TEST(test_a_full_disk_fails_cleanly_and_loses_nothing)
{
    int64_t a = guest("A");
    int64_t table = new_table("FULL");
    int64_t hand = new_hand(table, 1);
    close_store();
    sqlite3 *db = db_open(dir.db);
    long long pages = db_int(db, "PRAGMA page_count");
    long long page_size = db_int(db, "PRAGMA page_size");
    sqlite3_close(db);

    /* The same database may now grow by four pages only: a disk that fills up mid-hand. */
    store_options o = test_options();
    o.max_bytes = (pages + 4) * page_size;
    st = open_store(&o);
    char big[1500];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    int64_t acknowledged = 0;
    answer full = {0};
    for (int64_t seq = 1; seq <= 200; seq++) {
        json_t *action = json_pack("{s:s}", "note", big);
        answer r = {0};
        ck_assert(store_action_append(st, hand, seq, 0, action, on_done, &r));
        json_decref(action);
        wait_for(&r);
        if (r.error.status != STORE_OK) {
            full = r;
            break;
        }
        acknowledged = seq;
    }
    ck_assert_int_eq(full.error.status, STORE_FULL);
    ck_assert_str_eq(store_status_name(full.error.status), "full");
    ck_assert_ptr_nonnull(strstr(full.error.message, "full"));
    ck_assert_int_gt(acknowledged, 0);

    /* The hand's end (with a result of several pages) does not fit either: refused whole. */
    const store_ledger_entry rows[] = {entry(a, 0, 2, "settle"), entry(0, 1, -2, "settle")};
    json_t *last = json_pack("{s:[i]}", "play", 1);
    json_t *result = json_array();
    for (int i = 0; i < 12; i++)
        json_array_append_new(result, json_string(big));
    store_hand_end e = {.hand_id = hand, .last_seq = acknowledged + 1, .last_seat = 0, .last_action = last,
                        .result = result, .entries = rows, .n_entries = 2, .next_game_state = next_state};
    answer end = {0};
    ck_assert(store_hand_finish(st, &e, on_done, &end));
    wait_for(&end);
    ck_assert_int_eq(end.error.status, STORE_FULL);
    close_store();

    /* Everything acknowledged is there, nothing half-written; with room again the hand ends. */
    db = db_open(dir.db);
    ck_assert_int_eq(db_int(db, "SELECT count(*) FROM hand_actions"), acknowledged);
    ck_assert_int_eq(db_int(db, "SELECT max(seq) FROM hand_actions"), acknowledged);
    ck_assert_int_eq(db_int(db, "SELECT count(*) FROM ledger"), 0);
    ck_assert_int_eq(db_int(db, "SELECT count(*) FROM hands WHERE finished_at IS NULL"), 1);
    sqlite3_close(db);
    o.max_bytes = 0;
    st = open_store(&o);
    answer retried = {0};
    ck_assert(store_hand_finish(st, &e, on_done, &retried));
    json_decref(last);
    json_decref(result);
    wait_for(&retried);
    expect_ok(&retried);
    answer v = verify();
    ck_assert(v.check.ok);
    ck_assert_int_eq(v.check.rows_checked, 2);
}
END_TEST

/* ---- Guest sessions ---- */

static answer guest_session(const char *nickname)
{
    answer a = {0};
    ck_assert(store_guest_create(st, nickname, on_session, &a));
    wait_for(&a);
    return a;
}

static answer logout(const char *token)
{
    answer a = {0};
    ck_assert(store_logout(st, token, on_done, &a));
    wait_for(&a);
    return a;
}

/* On disk: the guest, and its session keyed by BLAKE2b-256 of the token. */
static void check_guest_on_disk(const answer *a)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM players WHERE id = %" PRId64 " AND kind = 'guest'"
             " AND nickname = 'Ah Wing' AND account_name IS NULL", a->session.player_id);
    ck_assert_int_eq(on_disk(sql), 1);
    unsigned char expected[32];
    crypto_generichash(expected, sizeof expected, (const unsigned char *)a->session.token, 43, NULL, 0);
    if (use_pg) {
        char hex[65];
        sodium_bin2hex(hex, sizeof hex, expected, sizeof expected);
        snprintf(sql, sizeof sql, "SELECT count(*) FROM sessions WHERE token_hash = '\\x%s'::bytea AND player_id = %"
                 PRId64, hex, a->session.player_id);
        ck_assert_int_eq(on_disk(sql), 1);
        ck_assert_int_eq(on_disk("SELECT count(*) FROM sessions"), 1);
        return;
    }
    sqlite3 *db = db_open(dir.db);
    sqlite3_stmt *stmt = NULL;
    ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT token_hash, player_id FROM sessions", -1, &stmt, NULL), SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(stmt), SQLITE_ROW);
    ck_assert_int_eq(sqlite3_column_bytes(stmt, 0), 32);
    ck_assert_int_eq(memcmp(sqlite3_column_blob(stmt, 0), expected, 32), 0);
    ck_assert_int_eq(sqlite3_column_int64(stmt, 1), a->session.player_id);
    ck_assert_int_eq(sqlite3_step(stmt), SQLITE_DONE);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
}

START_TEST(test_a_new_guest_gets_a_session_that_lookup_finds_and_logout_ends)
{
    answer a = guest_session("Ah Wing");
    expect_ok(&a);
    ck_assert(a.has_session);
    ck_assert_int_gt(a.session.player_id, 0);
    ck_assert_str_eq(a.session.nickname, "Ah Wing");
    ck_assert_str_eq(a.session.account_name, "");
    ck_assert(!a.session.is_admin);
    ck_assert_int_eq(a.session.expires_at_ms, T0_MS + 3600 * 1000);
    ck_assert_uint_eq(strlen(a.session.token), 43); /* 32 random bytes in unpadded base64, as a login's */

    if (!use_memory)
        check_guest_on_disk(&a);
    ck_assert_int_eq(stored_players(), 1);
    ck_assert_str_eq(stored_nickname(a.session.player_id), "Ah Wing");

    answer found = lookup(a.session.token);
    expect_ok(&found);
    ck_assert_int_eq(found.session.player_id, a.session.player_id);
    ck_assert_str_eq(found.session.nickname, "Ah Wing");
    ck_assert_str_eq(found.session.account_name, "");
    ck_assert(!found.session.is_admin);
    ck_assert_int_eq(found.session.expires_at_ms, T0_MS + 3600 * 1000);
    ck_assert_str_eq(found.session.token, "");

    /* A second guest is another player with another token. */
    answer other = guest_session("Ah Wing");
    expect_ok(&other);
    ck_assert_int_ne(other.session.player_id, a.session.player_id);
    ck_assert_str_ne(other.session.token, a.session.token);

    ok(logout(a.session.token));
    ck_assert_int_eq(lookup(a.session.token).error.status, STORE_NOT_FOUND);
    ok(lookup(other.session.token));
    ck_assert_int_eq(stored_sessions(), 1);
}
END_TEST

START_TEST(test_a_guest_with_a_bad_nickname_is_refused_and_nothing_is_written)
{
    answer empty = guest_session("");
    ck_assert_int_eq(empty.error.status, STORE_INVALID);
    ck_assert(!empty.has_session);
    answer broken = guest_session("two\nlines");
    ck_assert_int_eq(broken.error.status, STORE_INVALID);
    char long_name[STORE_NAME_MAX + 2];
    memset(long_name, 'x', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    ck_assert_int_eq(guest_session(long_name).error.status, STORE_INVALID);
    long_name[STORE_NAME_MAX] = '\0'; /* exactly the longest allowed */
    ok(guest_session(long_name));
    ck_assert_int_eq(stored_players(), 1);
    ck_assert_int_eq(stored_sessions(), 1);
}
END_TEST

START_TEST(test_a_guest_and_its_session_are_written_together_or_not_at_all)
{
    inject_failure("CREATE TRIGGER inject_failure BEFORE INSERT ON sessions"
                   " BEGIN SELECT RAISE(ABORT, 'injected failure'); END;",
                   STORE_KIND_GUEST_CREATE);
    answer failed = guest_session("Ah Wing");
    ck_assert_int_ne(failed.error.status, STORE_OK);
    ck_assert(!failed.has_session);
    ck_assert(says_injected(&failed.error));
    ck_assert_int_eq(stored_players(), 0); /* no guest without its session */
    ck_assert_int_eq(stored_sessions(), 0);
    clear_failure();
    ok(guest_session("Ah Wing"));
    ck_assert_int_eq(stored_players(), 1);
}
END_TEST

/* Accounts made before look-alike keys (migration 0005) get theirs when the store opens: their
 * keys, oldest first, and their names in NFC. */
START_TEST(test_older_accounts_get_their_look_alike_keys_and_nfc_names_when_the_store_opens)
{
    ok(account("BOB", "plum blossom", 0));
    ok(account("Ren\u00e9", "plum blossom", 0));
    close_store();
    /* as a database of before: no keys, a name kept decomposed, and a look-alike made meanwhile */
    on_disk_exec("UPDATE players SET account_look_key = NULL, account_fold_key = NULL;"
                 "UPDATE players SET account_name = 'Rene\u0301' WHERE id = 2;"
                 "INSERT INTO players (kind, nickname, account_name, password_hash, created_at, last_seen_at)"
                 " SELECT 'account', 'twin', '\u0412\u041e\u0412', password_hash, 0, 0 FROM players WHERE id = 1;");
    ck_assert_int_eq(on_disk("SELECT count(*) FROM players WHERE account_look_key IS NULL"), 3);
    store_options o = test_options();
    st = open_store(&o);
    /* the oldest holds the key they share; the younger keeps what is its own */
    ck_assert_int_eq(on_disk("SELECT count(*) FROM players WHERE id = 1 AND account_look_key IS NOT NULL"
                             " AND account_fold_key IS NOT NULL"), 1);
    ck_assert_int_eq(on_disk("SELECT count(*) FROM players WHERE id = 3 AND account_look_key IS NULL"), 1);
    ck_assert_int_eq(on_disk("SELECT count(*) FROM players WHERE account_name = 'Ren\u00e9'"), 1);
    answer rene = login("Ren\u00e9", "plum blossom");
    expect_ok(&rene);
    /* and a new look-alike of either is refused */
    answer greek = account("\u0392\u039f\u0392", "another one", 0); /* ΒΟΒ */
    ck_assert_int_eq(greek.error.status, STORE_CONFLICT);
    answer rene2 = account("RENE\u0301", "another one", 0);
    ck_assert_int_eq(rene2.error.status, STORE_CONFLICT);
    /* once filled, opening again writes nothing */
    close_store();
    st = open_store(&o);
    ck_assert_int_eq(on_disk("SELECT count(*) FROM players WHERE account_look_key IS NULL"), 1);
}
END_TEST

START_TEST(test_a_guest_session_outlives_a_restart_and_the_guest_becoming_an_account)
{
    answer a = guest_session("Ah Wing");
    expect_ok(&a);
    char token[STORE_TOKEN_SIZE];
    snprintf(token, sizeof token, "%s", a.session.token);

    close_store();
    store_options o = test_options();
    st = open_store(&o);
    answer resumed = lookup(token);
    expect_ok(&resumed);
    ck_assert_int_eq(resumed.session.player_id, a.session.player_id);

    answer upgraded = account("Wing", "jade dragon", a.session.player_id);
    expect_ok(&upgraded);
    ck_assert_int_eq(upgraded.id, a.session.player_id);
    answer after = lookup(token);
    expect_ok(&after);
    ck_assert_int_eq(after.session.player_id, a.session.player_id);
    ck_assert_str_eq(after.session.account_name, "Wing");
    ck_assert_str_eq(after.session.nickname, "Ah Wing"); /* the guest's nickname is kept */
    ck_assert(!after.session.is_admin);
    ck_assert_int_eq(after.session.expires_at_ms, T0_MS + 3600 * 1000);

    /* The account's password works too, and the guest's token still ends its own session. */
    answer logged = login("wing", "jade dragon");
    expect_ok(&logged);
    ck_assert_int_eq(logged.session.player_id, a.session.player_id);
    ok(logout(token));
    ck_assert_int_eq(lookup(token).error.status, STORE_NOT_FOUND);
    ok(lookup(logged.session.token));
}
END_TEST

START_TEST(test_a_guest_session_expires_like_a_login)
{
    answer a = guest_session("Ah Wing");
    expect_ok(&a);
    atomic_store(&fake_now_ms, T0_MS + 3600 * 1000 - 1);
    ok(lookup(a.session.token));
    atomic_store(&fake_now_ms, T0_MS + 3600 * 1000);
    ck_assert_int_eq(lookup(a.session.token).error.status, STORE_NOT_FOUND);
}
END_TEST

/* ---- Guests kept only once they matter, and expired when nobody uses them ---- */

static answer keep(int64_t id, const char *nickname, const char *token)
{
    answer a = {0};
    ck_assert(store_guest_keep(st, id, nickname, token, on_session, &a));
    wait_for(&a);
    return a;
}

static answer expire(int64_t idle_seconds, int limit)
{
    answer a = {0};
    ck_assert(store_guests_expire(st, idle_seconds, limit, on_id, &a));
    wait_for(&a);
    return a;
}

START_TEST(test_a_reserved_guest_writes_nothing_until_kept_and_keeps_its_id_and_token)
{
    int64_t first = 0, second = 0;
    char token[STORE_TOKEN_SIZE], other[STORE_TOKEN_SIZE];
    ck_assert(store_guest_reserve(st, &first, token));
    ck_assert(store_guest_reserve(st, &second, other));
    ck_assert_int_eq(first, 1);
    ck_assert_int_eq(second, 2);
    ck_assert_uint_eq(strlen(token), 43);
    ck_assert_str_ne(token, other);
    ck_assert_int_eq(stored_players(), 0);
    ck_assert_int_eq(stored_sessions(), 0);
    ck_assert_int_eq(lookup(token).error.status, STORE_NOT_FOUND);

    /* Other requests never take a reserved id. */
    ck_assert_int_eq(guest("Later"), 3);
    ck_assert_int_eq(guest_session("Later still").session.player_id, 4);

    answer kept = keep(first, "Lan", token);
    expect_ok(&kept);
    ck_assert_int_eq(kept.session.player_id, first);
    ck_assert_str_eq(kept.session.nickname, "Lan");
    ck_assert_str_eq(kept.session.token, "");
    ck_assert_int_eq(kept.session.expires_at_ms, T0_MS + 3600 * 1000);
    ck_assert_int_eq(stored_players(), 3);
    ck_assert_str_eq(stored_nickname(first), "Lan");
    answer found = lookup(token);
    expect_ok(&found);
    ck_assert_int_eq(found.session.player_id, first);
    /* A guest reserved and never kept leaves nothing. */
    ck_assert_str_eq(stored_nickname(second), "");
}
END_TEST

START_TEST(test_a_node_gives_only_the_ids_of_its_slot_above_every_one_given_before)
{
    int64_t id = 0, before = 0;
    char token[STORE_TOKEN_SIZE];
    ck_assert(store_guest_reserve(st, &before, token)); /* 1 */
    ck_assert_int_eq(guest("Kept"), 2);
    store_player_ids(st, 1024, 5);
    ck_assert(store_guest_reserve(st, &id, token));
    ck_assert_int_eq(id, 5); /* the first id of slot 5 past 2 */
    ck_assert_int_eq(guest("Next"), 1024 + 5);
    ck_assert(store_guest_reserve(st, &id, token));
    ck_assert_int_eq(id, 2 * 1024 + 5);
    ok(keep(id, "Kept too", token));
    ck_assert_int_eq(keep(id - 1, "Not given", token).error.status, STORE_INVALID); /* another slot's id */
    store_player_ids(st, 1024, 1024); /* not a slot: nothing changes */
    store_player_ids(st, 0, 0);
    ck_assert(store_guest_reserve(st, &id, token));
    ck_assert_int_eq(id, 3 * 1024 + 5);
    store_player_ids(st, 1024, 2); /* a lower slot: the next of that slot past every id given */
    ck_assert(store_guest_reserve(st, &id, token));
    ck_assert_int_eq(id, 5 * 1024 + 2); /* 4 * 1024 + 2 is below 4 * 1024 + 5, the next slot 5 would have given */
}
END_TEST

START_TEST(test_keeping_a_guest_twice_conflicts_and_an_unreserved_id_or_a_bad_token_is_invalid)
{
    int64_t id = 0;
    char token[STORE_TOKEN_SIZE];
    ck_assert(store_guest_reserve(st, &id, token));
    ok(keep(id, "Lan", token));
    ck_assert_int_eq(keep(id, "Lan", token).error.status, STORE_CONFLICT);
    ck_assert_int_eq(keep(id + 1, "Mei", token).error.status, STORE_INVALID);
    ck_assert_int_eq(keep(0, "Mei", token).error.status, STORE_INVALID);
    int64_t next = 0;
    char fresh[STORE_TOKEN_SIZE];
    ck_assert(store_guest_reserve(st, &next, fresh));
    ck_assert_int_eq(keep(next, "Mei", "not a token").error.status, STORE_INVALID);
    ck_assert_int_eq(keep(next, "", fresh).error.status, STORE_INVALID);
    ck_assert_int_eq(stored_players(), 1);
    ck_assert_int_eq(stored_sessions(), 1);
    ok(keep(next, "Mei", fresh));
}
END_TEST

START_TEST(test_ids_after_a_restart_follow_the_highest_stored)
{
    int64_t ids[4];
    char tokens[4][STORE_TOKEN_SIZE];
    for (int i = 0; i < 4; i++)
        ck_assert(store_guest_reserve(st, &ids[i], tokens[i]));
    ok(keep(ids[2], "Third", tokens[2]));
    close_store();
    store_options o = test_options();
    st = open_store(&o);
    int64_t next = 0;
    char token[STORE_TOKEN_SIZE];
    ck_assert(store_guest_reserve(st, &next, token));
    ck_assert_int_eq(next, ids[2] + 1);
    ok(lookup(tokens[2]));
    ck_assert_int_eq(lookup(tokens[0]).error.status, STORE_NOT_FOUND); /* never kept: gone with the process */
}
END_TEST

#define DAY_MS (INT64_C(86400) * 1000)

/* Sessions that outlive the month of these cases. */
static void reopen_with_long_sessions(void)
{
    close_store();
    if (!use_memory) {
        scratch_remove(&dir);
        scratch_make(&dir);
    }
    if (use_pg) { /* a new database too, keyed with a new key */
        pg_test_drop(pg_name);
        pg_test_create(pg_name, sizeof pg_name, pg_uri, sizeof pg_uri);
        snprintf(pg_key, sizeof pg_key, "%s/ledger.key", dir.dir);
    }
    store_options o = test_options();
    o.session_seconds = 90 * 86400;
    st = open_store(&o);
}

START_TEST(test_expiry_removes_untouched_guests_and_their_sessions_and_keeps_players_that_matter)
{
    reopen_with_long_sessions();
    answer idle = guest_session("Idle");
    int64_t played = guest("Played"), seated = guest("Seated"), host = guest("Host of a closed table");
    answer mei = account("Mei", "plum blossom", 0);
    expect_ok(&mei);
    int64_t table = new_table("KEEP");
    int64_t hand = new_hand(table, 1);
    const store_ledger_entry rows[] = {entry(played, 0, 2, "settle"), entry(0, 1, -2, "settle")};
    ok(finish(hand, 0, rows, 2, 0, 2));
    store_table open = table_template("SEAT");
    open.seats[2].player_id = seated;
    ok(save_table(&open));
    store_table closed = table_template("GONE");
    closed.host_player_id = host;
    snprintf(closed.state, sizeof closed.state, "closed");
    answer closed_saved = save_table(&closed);
    expect_ok(&closed_saved);

    atomic_store(&fake_now_ms, T0_MS + 20 * DAY_MS);
    int64_t recent = guest("Recent");
    atomic_store(&fake_now_ms, T0_MS + 30 * DAY_MS);
    answer none = expire(30 * 86400, 100); /* exactly 30 days is not yet more than 30 */
    expect_ok(&none);
    ck_assert_int_eq(none.id, 0);

    atomic_store(&fake_now_ms, T0_MS + 31 * DAY_MS);
    answer gone = expire(30 * 86400, 100);
    expect_ok(&gone);
    ck_assert_int_eq(gone.id, 2);
    ck_assert_str_eq(stored_nickname(idle.session.player_id), "");
    ck_assert_str_eq(stored_nickname(host), "");
    ck_assert_int_eq(lookup(idle.session.token).error.status, STORE_NOT_FOUND);
    ck_assert_int_eq(stored_sessions(), 0);
    ck_assert_str_eq(stored_nickname(played), "Played");
    ck_assert_str_eq(stored_nickname(seated), "Seated");
    ck_assert_str_eq(stored_nickname(mei.id), "Mei");
    ck_assert_str_eq(stored_nickname(recent), "Recent");
    ck_assert_int_eq(stored_players(), 4);
    if (use_memory)
        ck_assert_int_eq(store_memory_table_at(st, closed_saved.id)->host_player_id, 0);
    else
        ck_assert_int_eq(on_disk("SELECT count(*) FROM game_tables WHERE host_player_id IS NOT NULL"), 0);
    ck_assert(verify().check.ok);
    ck_assert_int_eq(expire(30 * 86400, 100).id, 0);
}
END_TEST

START_TEST(test_a_guest_who_comes_back_with_its_token_is_not_expired)
{
    reopen_with_long_sessions();
    answer back = guest_session("Comes back");
    answer away = guest_session("Stays away");
    atomic_store(&fake_now_ms, T0_MS + 20 * DAY_MS);
    ok(lookup(back.session.token));
    atomic_store(&fake_now_ms, T0_MS + 40 * DAY_MS);
    ck_assert_int_eq(expire(30 * 86400, 100).id, 1);
    ok(lookup(back.session.token));
    ck_assert_int_eq(lookup(away.session.token).error.status, STORE_NOT_FOUND);
}
END_TEST

START_TEST(test_expiry_takes_the_oldest_guests_first_and_at_most_its_limit)
{
    reopen_with_long_sessions();
    int64_t ids[5];
    for (int i = 0; i < 5; i++) {
        atomic_store(&fake_now_ms, T0_MS + (4 - i) * DAY_MS); /* the last made is the oldest */
        ids[i] = guest("Guest");
    }
    atomic_store(&fake_now_ms, T0_MS + 60 * DAY_MS);
    ck_assert_int_eq(expire(30 * 86400, 2).id, 2);
    ck_assert_str_eq(stored_nickname(ids[4]), "");
    ck_assert_str_eq(stored_nickname(ids[3]), "");
    ck_assert_str_eq(stored_nickname(ids[2]), "Guest");
    ck_assert_int_eq(expire(30 * 86400, 2).id, 2);
    ck_assert_int_eq(expire(30 * 86400, 2).id, 1);
    ck_assert_int_eq(stored_players(), 0);
    ck_assert_int_eq(expire(0, 2).error.status, STORE_INVALID);
    ck_assert_int_eq(expire(86400, 0).error.status, STORE_INVALID);
    ck_assert_int_eq(expire(86400, 10001).error.status, STORE_INVALID);
}
END_TEST

/* ---- A table's turn timer ---- */

START_TEST(test_a_tables_turn_timer_is_saved_and_recovered)
{
    store_table t = table_template("TURN");
    t.turn_seconds = 45;
    answer created = save_table(&t);
    expect_ok(&created);
    ck_assert_int_eq(stored_turn_seconds(created.id), 45);

    store_recovery *r = recover();
    ck_assert_uint_eq(r->n_tables, 1);
    ck_assert_int_eq(r->tables[0].table.turn_seconds, 45);
    store_recovery_free(r);

    /* Both ends of the house's range (5 to 300) are accepted, on update as on creation. */
    t.id = created.id;
    t.turn_seconds = 300;
    ok(save_table(&t));
    ck_assert_int_eq(stored_turn_seconds(created.id), 300);
    t.turn_seconds = 5;
    ok(save_table(&t));
    r = recover();
    ck_assert_int_eq(r->tables[0].table.turn_seconds, 5);
    store_recovery_free(r);
}
END_TEST

START_TEST(test_a_turn_timer_outside_the_houses_five_to_300_seconds_is_refused)
{
    store_table t = table_template("TIME");
    const int bad[] = {0, -1, 4, 301, 3600, 100000};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        t.turn_seconds = bad[i];
        answer a = save_table(&t);
        ck_assert_msg(a.error.status == STORE_INVALID, "turn_seconds %d: %s", bad[i],
                      store_status_name(a.error.status));
        ck_assert_ptr_nonnull(strstr(a.error.message, "turn timer"));
    }
    ck_assert_int_eq(stored_tables(), 0);

    /* An update out of range leaves the table as it was. */
    t.turn_seconds = 20;
    answer created = save_table(&t);
    expect_ok(&created);
    t.id = created.id;
    t.turn_seconds = 0;
    ck_assert_int_eq(save_table(&t).error.status, STORE_INVALID);
    ck_assert_int_eq(stored_turn_seconds(created.id), 20);
}
END_TEST

/* ---- Recovery: seat nicknames and running scores ---- */

/* Finishes a hand with the given rows and a result naming the hand's number. */
static answer finish_numbered(int64_t hand_id, int64_t number, const store_ledger_entry *entries, size_t n)
{
    json_t *result = json_pack("{s:I}", "hand", (json_int_t)number);
    store_hand_end e = {.hand_id = hand_id, .result = result, .entries = entries, .n_entries = n,
                        .next_game_state = next_state};
    answer a = {0};
    ck_assert(store_hand_finish(st, &e, on_done, &a));
    json_decref(result);
    wait_for(&a);
    return a;
}

START_TEST(test_recovery_gives_seat_nicknames_and_each_seats_running_score)
{
    int64_t a = guest("A"), b = guest("B"), c = guest("C");
    store_table t = table_template("SCOR");
    t.seats[0].player_id = a;
    t.seats[1].player_id = b;
    t.seats[2].player_id = c;
    t.seats[3].bot = true;
    answer saved = save_table(&t);
    expect_ok(&saved);
    const int64_t table = saved.id;
    store_table t2 = table_template("OTHR");
    t2.seats[0].player_id = a;
    t2.seats[1].bot = true;
    answer saved2 = save_table(&t2);
    expect_ok(&saved2);
    const int64_t other = saved2.id;
    int64_t empty = new_table("EMPT");

    /* Hand 1: A wins 6, 2 from each. Hand 2: B wins 4 from A; then a bonus, the bot's seat
     * collecting 1 from each of the three. Hand 3 is unfinished. */
    const store_ledger_entry r1[] = {entry(a, 0, 6, "settle"), entry(b, 1, -2, "settle"), entry(c, 2, -2, "settle"),
                                     entry(0, 3, -2, "settle")};
    const store_ledger_entry r2[] = {entry(b, 1, 4, "settle"),  entry(a, 0, -4, "settle"), entry(0, 3, 3, "he_zun"),
                                     entry(a, 0, -1, "he_zun"), entry(b, 1, -1, "he_zun"), entry(c, 2, -1, "he_zun")};
    ok(finish_numbered(new_hand(table, 1), 1, r1, 4));
    /* Another table's hand, between the two: its rows must not count for the first table. */
    const store_ledger_entry r3[] = {entry(a, 0, 10, "settle"), entry(0, 1, -10, "settle")};
    ok(finish_numbered(new_hand(other, 1), 1, r3, 2));
    ok(finish_numbered(new_hand(table, 2), 2, r2, 6));
    new_hand(table, 3);

    /* Nicknames are the players' current ones. */
    answer renamed = {0};
    ck_assert(store_player_save(st, b, "Bee", on_id, &renamed));
    wait_for(&renamed);
    expect_ok(&renamed);

    store_recovery *r = recover();
    ck_assert_uint_eq(r->n_tables, 3);
    const store_open_table *ot = &r->tables[0];
    ck_assert_int_eq(ot->table.id, table);
    /* By hand: A 6 - 4 - 1 = 1; B -2 + 4 - 1 = 1; C -2 - 1 = -3; the bot -2 + 3 = 1. */
    ck_assert_int_eq(ot->scores[0], 1);
    ck_assert_int_eq(ot->scores[1], 1);
    ck_assert_int_eq(ot->scores[2], -3);
    ck_assert_int_eq(ot->scores[3], 1);
    ck_assert_str_eq(ot->table.seats[0].nickname, "A");
    ck_assert_str_eq(ot->table.seats[1].nickname, "Bee");
    ck_assert_str_eq(ot->table.seats[2].nickname, "C");
    ck_assert_str_eq(ot->table.seats[3].nickname, "");
    ck_assert_ptr_nonnull(ot->hand);
    ck_assert_int_eq(ot->hand->number, 3);

    const store_open_table *ot2 = &r->tables[1];
    ck_assert_int_eq(ot2->table.id, other);
    ck_assert_int_eq(ot2->scores[0], 10);
    ck_assert_int_eq(ot2->scores[1], -10);
    ck_assert_int_eq(ot2->scores[2], 0);
    ck_assert_int_eq(ot2->scores[3], 0);
    ck_assert_str_eq(ot2->table.seats[0].nickname, "A");
    ck_assert_str_eq(ot2->table.seats[1].nickname, "");
    ck_assert_str_eq(ot2->table.seats[2].nickname, "");

    const store_open_table *ot3 = &r->tables[2];
    ck_assert_int_eq(ot3->table.id, empty);
    for (int seat = 0; seat < STORE_SEATS; seat++) {
        ck_assert_int_eq(ot3->scores[seat], 0);
        ck_assert_str_eq(ot3->table.seats[seat].nickname, "");
    }
    store_recovery_free(r);
}
END_TEST

START_TEST(test_recovery_gives_each_seat_its_holders_own_score_not_the_seats_past)
{
    int64_t a = guest("A"), b = guest("B"), c = guest("C"), d = guest("D");
    store_table t = table_template("MOVE");
    t.seats[0].player_id = a;
    t.seats[1].player_id = b;
    t.seats[2].player_id = c;
    t.seats[3].bot = true;
    answer saved = save_table(&t);
    expect_ok(&saved);
    const int64_t table = saved.id;
    /* Hand 1: A at seat 0 wins 9; B, C and the bot pay 3 each. */
    const store_ledger_entry r1[] = {entry(a, 0, 9, "settle"), entry(b, 1, -3, "settle"), entry(c, 2, -3, "settle"),
                                     entry(0, 3, -3, "settle")};
    ok(finish_numbered(new_hand(table, 1), 1, r1, 4));
    /* Then A moves to seat 1 (B left), D sits at seat 0, and C's seat takes a bot. */
    t.id = table;
    t.seats[0] = (store_seat){.player_id = d};
    t.seats[1] = (store_seat){.player_id = a};
    t.seats[2] = (store_seat){.bot = true};
    answer resaved = save_table(&t);
    expect_ok(&resaved);

    store_recovery *r = recover();
    const store_open_table *ot = NULL;
    for (size_t i = 0; i < r->n_tables; i++)
        if (r->tables[i].table.id == table)
            ot = &r->tables[i];
    ck_assert_ptr_nonnull(ot);
    ck_assert_int_eq(ot->scores[0], 0);  /* D, a newcomer, not seat 0's +9 */
    ck_assert_int_eq(ot->scores[1], 9);  /* A's own, from seat 0 */
    ck_assert_int_eq(ot->scores[2], 0);  /* a bot where only C's rows were */
    ck_assert_int_eq(ot->scores[3], -3); /* the bot seat's bots */
    /* and every player's, seated or not, for one who sits again: A 9, B -3, C -3; none for D */
    ck_assert_uint_eq(ot->n_player_scores, 3);
    int64_t want[][2] = {{a, 9}, {b, -3}, {c, -3}};
    for (size_t i = 0; i < 3; i++) {
        bool found = false;
        for (size_t k = 0; k < ot->n_player_scores; k++)
            if (ot->player_scores[k].player_id == want[i][0]) {
                ck_assert_int_eq(ot->player_scores[k].score, want[i][1]);
                found = true;
            }
        ck_assert_msg(found, "player %zu has no score", i);
    }
    store_recovery_free(r);
}
END_TEST

/* ---- The tables a player played at ---- */

typedef struct played_answer {
    bool called;
    store_error error;
    size_t n;
    store_played_table t[8]; /* options not kept */
} played_answer;

static void on_played(void *ctx, const store_error *error, const store_played_table *tables, size_t n)
{
    played_answer *a = ctx;
    a->called = true;
    a->error = *error;
    a->n = n;
    for (size_t i = 0; i < n && i < 8; i++) {
        a->t[i] = tables[i];
        ck_assert_ptr_nonnull(tables[i].options);
        a->t[i].options = NULL;
    }
}

static played_answer played(int64_t player_id, const char *code, int limit)
{
    played_answer a = {0};
    ck_assert(store_player_tables(st, player_id, code, limit, on_played, &a));
    while (!a.called)
        uv_run(&loop, UV_RUN_ONCE);
    return a;
}

START_TEST(test_an_adjusted_players_tables_leave_out_the_adjustments_table)
{
    int64_t a = guest("A"), b = guest("B");
    store_table t = table_template("PLAYED");
    answer saved = save_table(&t);
    expect_ok(&saved);
    const store_ledger_entry rows[] = {entry(a, 0, 3, "settle"), entry(b, 1, -3, "settle")};
    ok(finish_numbered(new_hand(saved.id, 1), 1, rows, 2));
    answer adjusted = {0};
    ck_assert(store_adjust(st, b, a, 7, "a refund", on_id, &adjusted));
    wait_for(&adjusted);
    expect_ok(&adjusted);

    played_answer got = played(a, "", 10);
    ck_assert_int_eq(got.error.status, STORE_OK);
    ck_assert_uint_eq(got.n, 1); /* the table played, not the adjustments' */
    ck_assert_str_eq(got.t[0].code, "PLAYED");
    ck_assert_int_eq(got.t[0].units, 3);
}
END_TEST

START_TEST(test_a_players_tables_are_those_they_played_at_closed_too_newest_first)
{
    int64_t a = guest("A"), b = guest("B");
    store_table t1 = table_template("OLDONE");
    answer s1 = save_table(&t1);
    expect_ok(&s1);
    int64_t watched = new_table("WATCH"); /* A played no hand here */
    store_table t2 = table_template("NEWONE");
    answer s2 = save_table(&t2);
    expect_ok(&s2);
    const store_ledger_entry h1[] = {entry(a, 0, 4, "settle"), entry(b, 1, -4, "settle")};
    ok(finish_numbered(new_hand(s1.id, 1), 1, h1, 2));
    const store_ledger_entry h2[] = {entry(a, 0, -1, "settle"), entry(b, 1, 1, "settle")};
    ok(finish_numbered(new_hand(s1.id, 2), 2, h2, 2));
    const store_ledger_entry h3[] = {entry(0, 0, 2, "settle"), entry(b, 1, -2, "settle")};
    ok(finish_numbered(new_hand(watched, 1), 1, h3, 2));
    const store_ledger_entry h4[] = {entry(a, 2, 5, "settle"), entry(b, 1, -5, "settle")};
    ok(finish_numbered(new_hand(s2.id, 1), 1, h4, 2));
    /* the first table closes: it is still A's */
    t1.id = s1.id;
    snprintf(t1.state, sizeof t1.state, "closed");
    t1.hands_played = 2;
    answer closed = save_table(&t1);
    expect_ok(&closed);

    played_answer got = played(a, "", 10);
    ck_assert_int_eq(got.error.status, STORE_OK);
    ck_assert_uint_eq(got.n, 2);
    ck_assert_int_eq(got.t[0].table_id, s2.id); /* played most recently */
    ck_assert_str_eq(got.t[0].code, "NEWONE");
    ck_assert_int_eq(got.t[0].hands, 1);
    ck_assert_int_eq(got.t[0].units, 5);
    ck_assert_int_eq(got.t[1].table_id, s1.id);
    ck_assert_str_eq(got.t[1].state, "closed");
    ck_assert_str_eq(got.t[1].game, "tiengow");
    ck_assert_int_eq(got.t[1].hands, 2);
    ck_assert_int_eq(got.t[1].hands_played, 2);
    ck_assert_int_eq(got.t[1].units, 3);
    ck_assert_int_ge(got.t[0].last_at_ms, got.t[1].last_at_ms);

    got = played(a, "OLDONE", 10); /* by code */
    ck_assert_uint_eq(got.n, 1);
    ck_assert_int_eq(got.t[0].table_id, s1.id);
    ck_assert_uint_eq(played(a, "WATCH", 10).n, 0); /* not played there */
    ck_assert_uint_eq(played(a, "", 1).n, 1);        /* the limit */
    ck_assert_uint_eq(played(b, "", 10).n, 3);
    ck_assert_uint_eq(played(999999, "", 10).n, 0);
    ck_assert_int_eq(played(a, "", 0).error.status, STORE_INVALID);
    ck_assert_int_eq(played(a, "", STORE_PLAYER_TABLES_MAX + 1).error.status, STORE_INVALID);
}
END_TEST

/* ---- A table's history ---- */

typedef struct summary_copy {
    store_hand_summary s;   /* game_state and result NULL: see their texts */
    char game_state_text[128];
    bool has_result;
    char result_text[128];
    char options_text[128]; /* the options it was played under, "" for none (the table's) */
} summary_copy;

typedef struct history_answer {
    bool called;
    store_error error;
    bool has_hands;
    size_t n;
    summary_copy hands[100];
    bool has_hand;
    store_hand hand;        /* deal, game state, options and actions NULL: see below */
    char deal_text[128];
    char options_text[128]; /* "" for none */
    char game_state_text[128];
    size_t n_actions;
    store_action actions[40];  /* action NULL: see action_text */
    char action_text[40][64];
} history_answer;

/* The store frees what it passed once the callback returns: keep copies (JSON as text). */
static void copy_summary(summary_copy *out, const store_hand_summary *s)
{
    out->s = *s;
    out->s.result = NULL;
    out->s.game_state = NULL;
    snprintf(out->game_state_text, sizeof out->game_state_text, "%s", state_text(s->game_state));
    out->has_result = s->result != NULL;
    char *text = s->result ? json_dumps(s->result, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    snprintf(out->result_text, sizeof out->result_text, "%s", text ? text : "");
    free(text);
    out->s.options = NULL;
    text = s->options ? json_dumps(s->options, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    snprintf(out->options_text, sizeof out->options_text, "%s", text ? text : "");
    free(text);
}

static void on_hands(void *ctx, const store_error *error, const store_hand_summary *hands, size_t n)
{
    history_answer *a = ctx;
    a->called = true;
    a->error = *error;
    a->has_hands = hands != NULL;
    a->n = n;
    for (size_t i = 0; i < n && i < 100; i++)
        copy_summary(&a->hands[i], &hands[i]);
}

static void on_hand(void *ctx, const store_error *error, const store_hand *hand, const store_hand_summary *summary)
{
    history_answer *a = ctx;
    a->called = true;
    a->error = *error;
    a->has_hand = hand != NULL;
    a->n = summary != NULL;
    if (summary)
        copy_summary(&a->hands[0], summary);
    if (hand == NULL)
        return;
    a->hand = *hand;
    a->hand.deal = NULL;
    a->hand.game_state = NULL;
    a->hand.actions = NULL;
    a->hand.options = NULL;
    char *options = hand->options ? json_dumps(hand->options, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    snprintf(a->options_text, sizeof a->options_text, "%s", options ? options : "");
    free(options);
    snprintf(a->game_state_text, sizeof a->game_state_text, "%s", state_text(hand->game_state));
    char *deal = json_dumps(hand->deal, JSON_COMPACT);
    snprintf(a->deal_text, sizeof a->deal_text, "%s", deal ? deal : "");
    free(deal);
    a->n_actions = hand->n_actions;
    for (size_t i = 0; i < hand->n_actions && i < 40; i++) {
        a->actions[i] = hand->actions[i];
        a->actions[i].action = NULL;
        char *text = json_dumps(hand->actions[i].action, JSON_COMPACT);
        snprintf(a->action_text[i], sizeof a->action_text[i], "%s", text ? text : "");
        free(text);
    }
}

static history_answer *table_hands(int64_t table_id, int64_t before, int limit)
{
    static history_answer a;
    memset(&a, 0, sizeof a);
    ck_assert(store_table_hands(st, table_id, before, limit, on_hands, &a));
    ck_assert(!a.called); /* never answered from inside the request */
    while (!a.called)
        uv_run(&loop, UV_RUN_ONCE);
    return &a;
}

static history_answer *hand_get(int64_t table_id, int64_t number)
{
    static history_answer a;
    memset(&a, 0, sizeof a);
    ck_assert(store_hand_get(st, table_id, number, on_hand, &a));
    while (!a.called)
        uv_run(&loop, UV_RUN_ONCE);
    return &a;
}

/* The numbers of the hands answered, as "5,4,3". */
static const char *numbers_of(const history_answer *a)
{
    static char text[512];
    size_t used = 0;
    text[0] = '\0';
    for (size_t i = 0; i < a->n; i++)
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%" PRId64, i ? "," : "", a->hands[i].s.number);
    return text;
}

typedef struct history_fixture {
    int64_t players[3];
    int64_t table, other;
    int64_t hand_ids[7];  /* of `table`, by number */
} history_fixture;

/* Table `table` plays hands 1 to 5 to the end and leaves hand 6 unfinished; hand k starts at
 * T0 + k s and ends half a second later, its banker is seat k % 4, its multiplier k, seat k % 4
 * wins 3 and the others pay 1 (seat 3 is a bot). Table `other` plays hands 1 to 3 in between. */
static history_fixture play_history(void)
{
    history_fixture f = {.players = {guest("East"), guest("South"), guest("West")}};
    f.table = new_table("HIST");
    f.other = new_table("ELSE");
    for (int64_t k = 1; k <= 6; k++) {
        atomic_store(&fake_now_ms, T0_MS + k * 1000);
        answer begun = begin_hand_as(f.table, k, 7000 + (uint64_t)k, (int)(k % 4), (uint32_t)k);
        expect_ok(&begun);
        f.hand_ids[k] = begun.id;
        if (k <= 3) {
            const store_ledger_entry rows[] = {entry(f.players[0], 0, 5, "settle"), entry(0, 1, -5, "settle")};
            ok(finish_numbered(new_hand(f.other, k), 100 + k, rows, 2));
        }
        if (k == 6)
            break;
        store_ledger_entry rows[4];
        for (int seat = 0; seat < 4; seat++)
            rows[seat] = entry(seat < 3 ? f.players[seat] : 0, seat, seat == k % 4 ? 3 : -1, "settle");
        atomic_store(&fake_now_ms, T0_MS + k * 1000 + 500);
        ok(finish_numbered(f.hand_ids[k], k, rows, 4));
    }
    return f;
}

START_TEST(test_a_tables_history_pages_newest_first_without_unfinished_hands)
{
    history_fixture f = play_history();

    history_answer *a = table_hands(f.table, 0, 2);
    ck_assert_msg(a->error.status == STORE_OK, "%s", a->error.message);
    ck_assert(a->has_hands);
    ck_assert_str_eq(numbers_of(a), "5,4"); /* hand 6 is not finished */
    a = table_hands(f.table, 4, 2);
    ck_assert_int_eq(a->error.status, STORE_OK);
    ck_assert_str_eq(numbers_of(a), "3,2");
    a = table_hands(f.table, 2, 2);
    ck_assert_str_eq(numbers_of(a), "1");
    a = table_hands(f.table, 1, 2);
    ck_assert_int_eq(a->error.status, STORE_OK);
    ck_assert_uint_eq(a->n, 0);
    a = table_hands(f.table, 7, 100);
    ck_assert_str_eq(numbers_of(a), "5,4,3,2,1");
    a = table_hands(f.table, 0, 100);
    ck_assert_str_eq(numbers_of(a), "5,4,3,2,1");

    /* Only this table's hands, with their own ids. */
    for (size_t i = 0; i < a->n; i++)
        ck_assert_int_eq(a->hands[i].s.id, f.hand_ids[a->hands[i].s.number]);
    a = table_hands(f.other, 0, 100);
    ck_assert_str_eq(numbers_of(a), "3,2,1");
}
END_TEST

START_TEST(test_a_hand_summary_has_its_start_players_units_and_result)
{
    history_fixture f = play_history();
    answer renamed = {0};
    ck_assert(store_player_save(st, f.players[1], "Southwind", on_id, &renamed));
    wait_for(&renamed);
    expect_ok(&renamed);

    history_answer *a = table_hands(f.table, 0, 5);
    ck_assert_uint_eq(a->n, 5);
    for (size_t i = 0; i < a->n; i++) {
        const store_hand_summary *s = &a->hands[i].s;
        const int64_t k = 5 - (int64_t)i;
        ck_assert_int_eq(s->number, k);
        char state[64];
        snprintf(state, sizeof state, "{\"banker\":%d,\"multiplier\":%d}", (int)(k % 4), (int)k);
        ck_assert_str_eq(a->hands[i].game_state_text, state);
        ck_assert_int_eq(s->started_at_ms, T0_MS + k * 1000);
        ck_assert_int_eq(s->finished_at_ms, T0_MS + k * 1000 + 500);
        ck_assert_int_eq(s->player_ids[0], f.players[0]);
        ck_assert_int_eq(s->player_ids[1], f.players[1]);
        ck_assert_int_eq(s->player_ids[2], f.players[2]);
        ck_assert_int_eq(s->player_ids[3], 0);
        ck_assert_str_eq(s->nicknames[0], "East");
        ck_assert_str_eq(s->nicknames[1], "Southwind"); /* the current nickname */
        ck_assert_str_eq(s->nicknames[2], "West");
        ck_assert_str_eq(s->nicknames[3], "");
        for (int seat = 0; seat < 4; seat++)
            ck_assert_int_eq(s->units[seat], seat == k % 4 ? 3 : -1);
        ck_assert(a->hands[i].has_result);
        char expected[32];
        snprintf(expected, sizeof expected, "{\"hand\":%" PRId64 "}", k);
        ck_assert_str_eq(a->hands[i].result_text, expected);
    }
}
END_TEST

START_TEST(test_a_page_of_hands_is_one_to_a_hundred_and_an_unknown_table_has_none)
{
    history_fixture f = play_history();
    const int bad[] = {0, -1, 101};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        history_answer *a = table_hands(f.table, 0, bad[i]);
        ck_assert_msg(a->error.status == STORE_INVALID, "limit %d", bad[i]);
        ck_assert(!a->has_hands);
        ck_assert_uint_eq(a->n, 0);
    }
    ck_assert_int_eq(table_hands(f.table, -1, 10)->error.status, STORE_INVALID);
    history_answer *one = table_hands(f.table, 0, 1);
    ck_assert_str_eq(numbers_of(one), "5");

    history_answer *unknown = table_hands(f.table + 100, 0, 10);
    ck_assert_int_eq(unknown->error.status, STORE_OK);
    ck_assert_uint_eq(unknown->n, 0);
    ck_assert_int_eq(table_hands(0, 0, 10)->error.status, STORE_OK);
    ck_assert_uint_eq(table_hands(0, 0, 10)->n, 0);
}
END_TEST

START_TEST(test_a_finished_hand_comes_back_with_its_actions_in_order)
{
    int64_t a = guest("A"), b = guest("B");
    int64_t table = new_table("REPL");
    answer begun = begin_hand_as(table, 1, UINT64_C(0x8000000000000123), 2, 4); /* top bit set */
    expect_ok(&begun);
    int acked = 0;
    for (int64_t seq = 1; seq <= 20; seq++) { /* requested back to back: likely one batch */
        json_t *action = json_pack("{s:[I]}", "play", (json_int_t)(seq * 3));
        ck_assert(store_action_append(st, begun.id, seq, (int)(seq % 4), action, on_append_count, &acked));
        json_decref(action);
    }
    while (acked < 20)
        uv_run(&loop, UV_RUN_ONCE);
    const store_ledger_entry rows[] = {entry(a, 0, 8, "settle"), entry(b, 1, -8, "settle")};
    ok(finish(begun.id, 21, rows, 2, 0, 2)); /* action 21 ends it, by seat (21 + 3) % 4 = 0 */

    history_answer *h = hand_get(table, 1);
    ck_assert_msg(h->error.status == STORE_OK, "%s", h->error.message);
    ck_assert(h->has_hand);
    ck_assert_int_eq(h->hand.id, begun.id);
    ck_assert_int_eq(h->hand.number, 1);
    ck_assert(h->hand.seed == UINT64_C(0x8000000000000123));
    ck_assert_str_eq(h->game_state_text, "{\"banker\":2,\"multiplier\":4}");
    ck_assert_str_eq(h->hands[0].game_state_text, "{\"banker\":2,\"multiplier\":4}");
    ck_assert_str_eq(h->deal_text, "[[1,2],[3,4],[5,6],[7,8]]");
    ck_assert_uint_eq(h->n_actions, 21);
    for (size_t i = 0; i < 20; i++) {
        const int64_t seq = (int64_t)i + 1;
        char expected[32];
        snprintf(expected, sizeof expected, "{\"play\":[%" PRId64 "]}", seq * 3);
        ck_assert_int_eq(h->actions[i].seq, seq);
        ck_assert_int_eq(h->actions[i].seat, (int)(seq % 4));
        ck_assert_str_eq(h->action_text[i], expected);
    }
    ck_assert_int_eq(h->actions[20].seq, 21);
    ck_assert_int_eq(h->actions[20].seat, 0);
    ck_assert_str_eq(h->action_text[20], "{\"play\":[21]}");

    ck_assert_uint_eq(h->n, 1);
    const store_hand_summary *s = &h->hands[0].s;
    ck_assert_int_eq(s->id, begun.id);
    ck_assert_int_eq(s->player_ids[0], a);
    ck_assert_int_eq(s->player_ids[1], b);
    ck_assert_int_eq(s->player_ids[2], 0);
    ck_assert_int_eq(s->units[0], 8);
    ck_assert_int_eq(s->units[1], -8);
    ck_assert_int_eq(s->units[2], 0);
    ck_assert_str_eq(s->nicknames[1], "B");
    ck_assert_str_eq(h->hands[0].result_text, "{\"winner\":\"seat 0\"}");
}
END_TEST

START_TEST(test_a_natural_hand_comes_back_with_no_actions)
{
    int64_t table = new_table("NATU");
    int64_t hand = new_hand(table, 1);
    ok(finish(hand, 0, NULL, 0, 1, 2));
    history_answer *h = hand_get(table, 1);
    ck_assert_int_eq(h->error.status, STORE_OK);
    ck_assert(h->has_hand);
    ck_assert_uint_eq(h->n_actions, 0);
    for (int seat = 0; seat < 4; seat++) {
        ck_assert_int_eq(h->hands[0].s.player_ids[seat], 0);
        ck_assert_int_eq(h->hands[0].s.units[seat], 0);
    }
}
END_TEST

START_TEST(test_an_unfinished_or_unknown_hand_is_not_found)
{
    history_fixture f = play_history();
    const struct {
        int64_t table, number;
    } missing[] = {{f.table, 6}, {f.table, 7}, {f.table, 0}, {f.other, 4}, {f.table + 100, 1}};
    for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++) {
        history_answer *h = hand_get(missing[i].table, missing[i].number);
        ck_assert_msg(h->error.status == STORE_NOT_FOUND, "table %" PRId64 " hand %" PRId64 ": %s", missing[i].table,
                      missing[i].number, store_status_name(h->error.status));
        ck_assert(!h->has_hand);
        ck_assert_uint_eq(h->n, 0);
    }
    /* The other table's hand 2 is its own, not the first table's. */
    history_answer *h = hand_get(f.other, 2);
    ck_assert_int_eq(h->error.status, STORE_OK);
    ck_assert_int_ne(h->hand.id, f.hand_ids[2]);
    ck_assert_str_eq(h->hands[0].result_text, "{\"hand\":102}");
}
END_TEST

/* ---- Host controls: a table's hold and watchers' chat, each hand's own options ---- */

/* Begins hand number of the table under options (NULL: the table's). */
static answer begin_hand_with_options(int64_t table_id, int64_t number, const char *options)
{
    json_t *deal = json_loads("[[1,2],[3,4],[5,6],[7,8]]", 0, NULL);
    json_t *opts = options ? json_loads(options, 0, NULL) : NULL;
    ck_assert(options == NULL || opts != NULL);
    store_hand_start h = {.table_id = table_id, .number = number, .seed = 77, .deal = deal, .game_state = next_state,
                          .options = opts};
    answer a = {0};
    ck_assert(store_hand_begin(st, &h, on_id, &a));
    json_decref(deal);
    json_decref(opts);
    wait_for(&a);
    expect_ok(&a);
    return a;
}

static const char *options_text(const json_t *options)
{
    static char text[128];
    char *dumped = options ? json_dumps(options, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    snprintf(text, sizeof text, "%s", dumped ? dumped : "");
    free(dumped);
    return text;
}

START_TEST(test_a_tables_hold_watchers_chat_hand_options_and_each_players_hands_come_back_in_recovery)
{
    int64_t a = guest("A"), b = guest("B");
    store_table t = table_template("HOLD");
    t.seats[0].player_id = a;
    t.seats[1].player_id = b;
    t.held = true;
    t.spectator_chat_off = true;
    answer saved = save_table(&t);
    expect_ok(&saved);
    t.id = saved.id;
    store_table plain = table_template("PLAIN"); /* the defaults: not held, watchers may chat */
    answer saved_plain = save_table(&plain);
    expect_ok(&saved_plain);

    /* A plays both hands, at seat 0 then at seat 2; B the first only. */
    const store_ledger_entry r1[] = {entry(a, 0, 3, "settle"), entry(b, 1, -3, "settle")};
    ok(finish_numbered(begin_hand_with_options(t.id, 1, "{\"stake\":1}").id, 1, r1, 2));
    const store_ledger_entry r2[] = {entry(a, 2, 5, "settle"), entry(0, 1, -5, "settle")};
    ok(finish_numbered(begin_hand_with_options(t.id, 2, "{\"stake\":2}").id, 2, r2, 2));
    begin_hand_with_options(t.id, 3, "{\"stake\":5,\"wen_zun\":true}");
    begin_hand_with_options(saved_plain.id, 1, NULL);

    store_recovery *r = recover();
    ck_assert_uint_eq(r->n_tables, 2);
    const store_open_table *ot = &r->tables[0];
    ck_assert_int_eq(ot->table.id, t.id);
    ck_assert(ot->table.held);
    ck_assert(ot->table.spectator_chat_off);
    ck_assert_ptr_nonnull(ot->hand);
    ck_assert_str_eq(options_text(ot->hand->options), "{\"stake\":5,\"wen_zun\":true}");
    ck_assert_uint_eq(ot->n_player_scores, 2);
    for (size_t i = 0; i < ot->n_player_scores; i++) {
        const store_player_score *ps = &ot->player_scores[i];
        ck_assert_msg(ps->player_id == a || ps->player_id == b, "player %" PRId64, ps->player_id);
        ck_assert_int_eq(ps->hands, ps->player_id == a ? 2 : 1);
        ck_assert_int_eq(ps->score, ps->player_id == a ? 8 : -3);
    }
    const store_open_table *other = &r->tables[1];
    ck_assert(!other->table.held);
    ck_assert(!other->table.spectator_chat_off);
    ck_assert_ptr_nonnull(other->hand);
    ck_assert_ptr_null(other->hand->options); /* none kept: the table's */
    store_recovery_free(r);

    /* Released and chat on again: a save replaces both. */
    t.held = false;
    t.spectator_chat_off = false;
    ok(save_table(&t));
    r = recover();
    ck_assert(!r->tables[0].table.held);
    ck_assert(!r->tables[0].table.spectator_chat_off);
    store_recovery_free(r);
}
END_TEST

START_TEST(test_a_finished_hand_comes_back_with_its_own_options_and_anyones_tables_are_found_by_code)
{
    int64_t a = guest("A"), b = guest("B");
    store_table t = table_template("SHARED");
    answer saved = save_table(&t);
    expect_ok(&saved);
    const store_ledger_entry r1[] = {entry(a, 0, 4, "settle"), entry(b, 1, -4, "settle")};
    ok(finish_numbered(begin_hand_with_options(saved.id, 1, "{\"stake\":3}").id, 1, r1, 2));
    const store_ledger_entry r2[] = {entry(a, 0, -1, "settle"), entry(0, 1, 1, "settle")};
    ok(finish_numbered(begin_hand_with_options(saved.id, 2, NULL).id, 2, r2, 2));
    int64_t idle = new_table("IDLE"); /* no finished hand */
    begin_hand_with_options(idle, 1, "{\"stake\":9}");

    history_answer *page = table_hands(saved.id, 0, 10);
    ck_assert_int_eq(page->error.status, STORE_OK);
    ck_assert_uint_eq(page->n, 2);
    ck_assert_str_eq(page->hands[0].options_text, ""); /* hand 2: the table's */
    ck_assert_str_eq(page->hands[1].options_text, "{\"stake\":3}");
    history_answer *h = hand_get(saved.id, 1);
    ck_assert_int_eq(h->error.status, STORE_OK);
    ck_assert_str_eq(h->options_text, "{\"stake\":3}");
    ck_assert_str_eq(h->hands[0].options_text, "{\"stake\":3}");
    ck_assert_str_eq(hand_get(saved.id, 2)->options_text, "");

    /* Any player: the table by its code, every seat's rows counted. */
    played_answer got = played(STORE_ANY_PLAYER, "SHARED", 10);
    ck_assert_int_eq(got.error.status, STORE_OK);
    ck_assert_uint_eq(got.n, 1);
    ck_assert_int_eq(got.t[0].table_id, saved.id);
    ck_assert_int_eq(got.t[0].hands, 2);
    ck_assert_int_eq(got.t[0].units, 0);
    ck_assert_uint_eq(played(STORE_ANY_PLAYER, "IDLE", 10).n, 0);
    ck_assert_uint_eq(played(STORE_ANY_PLAYER, "NOSUCH", 10).n, 0);
    ck_assert_uint_eq(played(STORE_ANY_PLAYER, "", 10).n, 1);
    ck_assert_uint_eq(played(b, "SHARED", 10).n, 1);
    ck_assert_int_eq(played(b, "SHARED", 10).t[0].hands, 1); /* one player's: their own rows */
}
END_TEST

/* ---- The admins' reads (store_reader.h), on SQLite and on PostgreSQL alike ---- */

typedef struct scanned {
    int hands;
    char game[32];
    char options[128];
    size_t n_actions, n_lines;
    int64_t units[STORE_SEATS];
} scanned;

static bool on_scanned(void *ctx, const store_scan_hand *h)
{
    scanned *sc = ctx;
    sc->hands++;
    snprintf(sc->game, sizeof sc->game, "%s", h->game);
    snprintf(sc->options, sizeof sc->options, "%s", options_text(h->options));
    sc->n_actions = h->n_actions;
    sc->n_lines = h->n_lines;
    for (size_t i = 0; i < h->n_lines; i++)
        if (h->lines[i].seat >= 0 && h->lines[i].seat < STORE_SEATS)
            sc->units[h->lines[i].seat] += h->lines[i].units;
    return true;
}

static const char *dumped(const json_t *v)
{
    static char text[4096];
    char *d = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
    snprintf(text, sizeof text, "%s", d ? d : "");
    free(d);
    return text;
}

START_TEST(test_the_admins_reads_give_players_tables_a_hand_with_its_options_and_the_scan)
{
    int64_t ann = guest("Ann"), bob = guest("Bob");
    store_table t = table_template("READS");
    t.seats[0].player_id = ann;
    t.seats[1].player_id = bob;
    answer saved = save_table(&t);
    expect_ok(&saved);
    const int64_t hand = begin_hand_with_options(saved.id, 1, "{\"stake\":2}").id;
    ok(append(hand, 1));
    ok(append(hand, 2));
    const store_ledger_entry rows[] = {entry(ann, 0, 4, "settle"), entry(bob, 1, -4, "settle")};
    ok(finish_numbered(hand, 1, rows, 2));

    store_error error;
    store_reader *rd = store_reader_open(use_pg ? pg_uri : dir.db, use_pg ? pg_key : NULL, &error);
    ck_assert_msg(rd != NULL, "%s", error.message);
    json_t *out = NULL;

    store_player_filter pf = {.q = "aN", .limit = 10};
    ck_assert_int_eq(store_reader_players(rd, &pf, &out, &error), STORE_OK);
    const json_t *players = json_object_get(out, "players");
    ck_assert_msg(json_array_size(players) == 1, "%s", dumped(out));
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(players, 0), "id")), ann);
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(players, 0), "balance")), 4);
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(players, 0), "hands")), 1);
    ck_assert(json_is_null(json_object_get(out, "next")));
    json_decref(out);
    pf = (store_player_filter){.limit = 1};
    ck_assert_int_eq(store_reader_players(rd, &pf, &out, &error), STORE_OK);
    ck_assert_int_eq(json_integer_value(json_object_get(out, "next")), bob); /* newest first, a page of one */
    json_decref(out);

    ck_assert_int_eq(store_reader_player(rd, ann, &out, &error), STORE_OK);
    const json_t *days = json_object_get(out, "by_day");
    ck_assert_msg(json_array_size(days) == 1, "%s", dumped(out));
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(days, 0), "net")), 4);
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(days, 0), "hands")), 1);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(days, 0), "day")), "2023-11-14"); /* T0_MS, UTC */
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(out, "tables"), 0), "code")),
                     "READS");
    json_decref(out);
    error.status = STORE_INTERNAL; /* a caller's error is not cleared for it: a miss must still say not found */
    ck_assert_int_eq(store_reader_player(rd, 999999, &out, &error), STORE_NOT_FOUND);
    ck_assert_ptr_null(out);

    store_table_filter tf = {.code = "READS", .limit = 10};
    ck_assert_int_eq(store_reader_tables(rd, &tf, &out, &error), STORE_OK);
    ck_assert_uint_eq(json_array_size(json_object_get(out, "tables")), 1);
    json_decref(out);
    tf = (store_table_filter){.state = "closed", .limit = 10};
    ck_assert_int_eq(store_reader_tables(rd, &tf, &out, &error), STORE_OK);
    ck_assert_uint_eq(json_array_size(json_object_get(out, "tables")), 0);
    json_decref(out);

    ck_assert_int_eq(store_reader_table(rd, saved.id, &out, &error), STORE_OK);
    const json_t *seats = json_object_get(json_array_get(json_object_get(out, "hands"), 0), "seats");
    ck_assert_msg(json_integer_value(json_object_get(json_array_get(seats, 0), "player")) == ann, "%s", dumped(out));
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(seats, 1), "nickname")), "Bob");
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(seats, 1), "net")), -4);
    ck_assert(json_is_null(json_object_get(json_array_get(seats, 2), "player")));
    json_decref(out);
    error.status = STORE_INTERNAL;
    ck_assert_int_eq(store_reader_table(rd, saved.id + 100, &out, &error), STORE_NOT_FOUND);

    ck_assert_int_eq(store_reader_hand(rd, hand, &out, &error), STORE_OK);
    ck_assert_str_eq(options_text(json_object_get(json_object_get(out, "hand"), "options")), "{\"stake\":2}");
    ck_assert_uint_eq(json_array_size(json_object_get(json_object_get(out, "replay"), "actions")), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(out, "replay"), "seed")), 77);
    ck_assert_uint_eq(json_array_size(json_object_get(out, "lines")), 2);
    json_decref(out);
    error.status = STORE_INTERNAL;
    ck_assert_int_eq(store_reader_hand(rd, hand + 100, &out, &error), STORE_NOT_FOUND);

    int64_t hands = 0, lines = 0;
    ck_assert_int_eq(store_reader_counts(rd, &hands, &lines, &error), STORE_OK);
    ck_assert_int_eq(hands, 1);
    ck_assert_int_eq(lines, 2);
    scanned sc = {0};
    ck_assert_int_eq(store_reader_scan(rd, on_scanned, &sc, &error), STORE_OK);
    ck_assert_int_eq(sc.hands, 1);
    ck_assert_str_eq(sc.game, "tiengow");
    ck_assert_str_eq(sc.options, "{\"stake\":2}"); /* the hand's own, not the table's */
    ck_assert_uint_eq(sc.n_actions, 2);
    ck_assert_uint_eq(sc.n_lines, 2);
    ck_assert_int_eq(sc.units[0], 4);
    ck_assert_int_eq(sc.units[1], -4);
    store_ledger_check check;
    ck_assert_msg(store_reader_verify_chain(rd, &check, &error) == STORE_OK, "%s", error.message);
    ck_assert_msg(check.ok, "%s", check.why);
    ck_assert_int_eq(check.rows_checked, 2);
    store_reader_close(rd);
}
END_TEST

START_TEST(test_history_answers_reflect_every_write_requested_before_them)
{
    int64_t a = guest("A");
    int64_t table = new_table("ORDE");
    int64_t hand = new_hand(table, 1);
    /* The end and both reads are requested in the same turn of the loop, without waiting. */
    const store_ledger_entry rows[] = {entry(a, 0, 2, "settle"), entry(0, 3, -2, "settle")};
    json_t *result = json_pack("{s:i}", "hand", 1);
    store_hand_end e = {.hand_id = hand, .result = result, .entries = rows, .n_entries = 2, .next_game_state = next_state};
    answer finished = {0};
    static history_answer page, one;
    memset(&page, 0, sizeof page);
    memset(&one, 0, sizeof one);
    ck_assert(store_hand_finish(st, &e, on_done, &finished));
    ck_assert(store_table_hands(st, table, 0, 10, on_hands, &page));
    ck_assert(store_hand_get(st, table, 1, on_hand, &one));
    json_decref(result);
    while (!one.called)
        uv_run(&loop, UV_RUN_ONCE);
    ck_assert(finished.called && page.called); /* answered in the order requested */
    expect_ok(&finished);
    ck_assert_str_eq(numbers_of(&page), "1");
    ck_assert_int_eq(page.hands[0].s.units[0], 2);
    ck_assert_int_eq(page.hands[0].s.units[3], -2);
    ck_assert_int_eq(one.error.status, STORE_OK);
    ck_assert_int_eq(one.hand.id, hand);
}
END_TEST

/* ---- A real store refuses the in-memory store's test-only password hashes ---- */

START_TEST(test_a_test_only_password_hash_never_logs_in_to_a_real_store)
{
    char cheap[STORE_PASSWORD_HASH_SIZE], sql[512];
    ck_assert(store_password_hash("plum blossom", true, cheap));
    ck_assert(store_password_verify(cheap, "plum blossom", true)); /* the in-memory store takes it */
    snprintf(sql, sizeof sql, "INSERT INTO players (kind, nickname, account_name, password_hash, created_at,"
             " last_seen_at) VALUES ('account', 'Mei', 'Mei', '%s', 1, 1)", cheap);
    on_disk_exec(sql);
    ck_assert_int_eq(login("Mei", "plum blossom").error.status, STORE_BAD_LOGIN);
    ck_assert_int_eq(stored_sessions(), 0);
}
END_TEST

/* ---- The in-memory store's own controls ---- */

typedef struct order_log {
    int answered;
    int64_t ids[8];
} order_log;

static void on_id_logged(void *ctx, const store_error *error, int64_t id)
{
    order_log *log = ctx;
    ck_assert_int_eq(error->status, STORE_OK);
    log->ids[log->answered++] = id;
}

START_TEST(test_memory_answers_at_the_next_turn_of_the_loop_in_order_and_writes_with_the_answer)
{
    order_log log = {0};
    for (int i = 0; i < 3; i++)
        ck_assert(store_player_save(st, 0, "Ah Wing", on_id_logged, &log));
    ck_assert_int_eq(log.answered, 0); /* never from inside the request */
    ck_assert_int_eq(stored_players(), 0);
    uv_run(&loop, UV_RUN_NOWAIT); /* this turn queues them; they run at the next */
    ck_assert_int_eq(log.answered, 0);
    ck_assert_int_eq(stored_players(), 0);
    uv_run(&loop, UV_RUN_NOWAIT);
    ck_assert_int_eq(log.answered, 3);
    ck_assert_int_eq(log.ids[0], 1);
    ck_assert_int_eq(log.ids[1], 2);
    ck_assert_int_eq(log.ids[2], 3);
    ck_assert_int_eq(stored_players(), 3);
    /* A request its checks refuse is answered later too, in turn. */
    answer bad = {0};
    ck_assert(store_player_save(st, 0, "", on_id, &bad));
    ck_assert(!bad.called);
    wait_for(&bad);
    ck_assert_int_eq(bad.error.status, STORE_INVALID);
}
END_TEST

typedef struct stored_check {
    int64_t hand;
    int answered;
    bool stored_when_answered[4];
} stored_check;

static void on_append_checks_stored(void *ctx, const store_error *error)
{
    stored_check *c = ctx;
    ck_assert_int_eq(error->status, STORE_OK);
    c->answered++;
    /* Its action, and those of the requests run in the same batch, are stored by now. */
    c->stored_when_answered[c->answered - 1] = store_memory_hand_at(st, c->hand)->n_actions >= (size_t)c->answered;
}

START_TEST(test_memory_an_action_is_stored_when_its_answer_comes_and_not_before)
{
    stored_check c = {.hand = new_hand(new_table("SEEN"), 1)};
    for (int64_t seq = 1; seq <= 3; seq++) {
        json_t *action = json_pack("{s:[I]}", "play", (json_int_t)seq);
        ck_assert(store_action_append(st, c.hand, seq, 0, action, on_append_checks_stored, &c));
        json_decref(action);
    }
    ck_assert_uint_eq(store_memory_hand_at(st, c.hand)->n_actions, 0);
    while (c.answered < 3)
        uv_run(&loop, UV_RUN_ONCE);
    for (int i = 0; i < 3; i++)
        ck_assert(c.stored_when_answered[i]);
    const store_memory_hand *h = store_memory_hand_at(st, c.hand);
    ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(h->actions[2].action, "play"), 0)), 3);
}
END_TEST

START_TEST(test_memory_a_delay_holds_each_answer_that_many_milliseconds)
{
    store_memory_set_delay(st, 40);
    uv_update_time(&loop);
    const uint64_t t0 = uv_now(&loop);
    answer a = {0};
    ck_assert(store_player_save(st, 0, "Late", on_id, &a));
    wait_for(&a);
    expect_ok(&a);
    uv_update_time(&loop);
    ck_assert_uint_ge(uv_now(&loop) - t0, 40);
    /* A login runs twice (its account, then its session) and is delayed once. */
    ok(account("Mei", "plum blossom", 0));
    uv_update_time(&loop);
    const uint64_t t1 = uv_now(&loop);
    answer logged = login("Mei", "plum blossom");
    expect_ok(&logged);
    uv_update_time(&loop);
    ck_assert_uint_ge(uv_now(&loop) - t1, 40);
    ck_assert_uint_lt(uv_now(&loop) - t1, 80 + 1000); /* not twice the delay, give or take a slow machine */
}
END_TEST

START_TEST(test_memory_held_requests_wait_for_release_in_order_without_keeping_the_loop_running)
{
    int64_t hand = new_hand(new_table("HOLD"), 1);
    store_memory_hold(st, true);
    answer a[3] = {{0}};
    for (int64_t seq = 1; seq <= 3; seq++) {
        json_t *action = json_pack("{s:[I]}", "play", (json_int_t)seq);
        ck_assert(store_action_append(st, hand, seq, 0, action, on_done, &a[seq - 1]));
        json_decref(action);
    }
    ck_assert_uint_eq(store_memory_held(st), 3);
    ck_assert_int_eq(uv_run(&loop, UV_RUN_DEFAULT), 0); /* returns: nothing is due */
    ck_assert(!a[0].called);
    ck_assert_str_eq(stored_seqs(hand), "");

    ck_assert_uint_eq(store_memory_release(st, 1), 1);
    ck_assert(!a[0].called); /* at the next turn of the loop */
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert(a[0].called && !a[1].called && !a[2].called);
    expect_ok(&a[0]);
    ck_assert_str_eq(stored_seqs(hand), "1");
    ck_assert_uint_eq(store_memory_held(st), 2);

    ck_assert_uint_eq(store_memory_release(st, 10), 2);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert(a[1].called && a[2].called);
    ck_assert_str_eq(stored_seqs(hand), "1,2,3");
    ck_assert_uint_eq(store_memory_held(st), 0);

    /* Off again, a request runs at the next turn. */
    store_memory_hold(st, false);
    ok(append(hand, 4));
}
END_TEST

START_TEST(test_memory_a_held_login_is_answered_after_one_release)
{
    ok(account("Mei", "plum blossom", 0));
    store_memory_hold(st, true);
    answer a = {0};
    ck_assert(store_login(st, "Mei", "plum blossom", on_session, &a));
    ck_assert_uint_eq(store_memory_held(st), 1);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert(!a.called);
    ck_assert_uint_eq(store_memory_release(st, 1), 1);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert(a.called);
    expect_ok(&a);
    ck_assert_uint_eq(strlen(a.session.token), 43);
    ck_assert_uint_eq(store_memory_held(st), 0);
}
END_TEST

START_TEST(test_memory_close_answers_held_requests_and_writes_them)
{
    int64_t hand = new_hand(new_table("SHUT"), 1);
    store_memory_hold(st, true);
    answer a = {0};
    json_t *action = json_pack("{s:[i]}", "play", 1);
    ck_assert(store_action_append(st, hand, 1, 0, action, on_done, &a));
    json_decref(action);
    store *closing = st;
    store_close(st);
    st = NULL;
    ck_assert(a.called);
    expect_ok(&a);
    ck_assert_uint_eq(store_memory_hand_at(closing, hand)->n_actions, 1);
    uv_run(&loop, UV_RUN_DEFAULT);
}
END_TEST

START_TEST(test_memory_fails_the_next_requests_of_a_kind_and_writes_nothing)
{
    int64_t hand = new_hand(new_table("FAIL"), 1);
    store_memory_fail(st, STORE_KIND_ACTION_APPEND, 2, STORE_FULL);
    answer refused = append(hand, 0); /* seq 0: refused by the checks, does not count */
    ck_assert_int_eq(refused.error.status, STORE_INVALID);
    guest("Other"); /* another kind is not touched */
    answer first = append(hand, 1), second = append(hand, 1);
    ck_assert_int_eq(first.error.status, STORE_FULL);
    ck_assert_int_eq(second.error.status, STORE_FULL);
    ck_assert_str_eq(store_status_name(first.error.status), "full");
    ck_assert_ptr_nonnull(strstr(first.error.message, "action_append"));
    ck_assert_str_eq(stored_seqs(hand), "");
    ok(append(hand, 1));

    store_memory_fail(st, STORE_KIND_ANY, 1, STORE_BUSY);
    ck_assert_int_eq(append(hand, 2).error.status, STORE_BUSY);
    ok(append(hand, 2));

    store_memory_fail(st, STORE_KIND_RECOVER, 1, STORE_CORRUPT);
    store_recovery *r = NULL;
    store_error error;
    ck_assert(!store_recover(st, &r, &error));
    ck_assert_int_eq(error.status, STORE_CORRUPT);
    r = recover();
    ck_assert_uint_eq(r->tables[0].hand->n_actions, 2);
    store_recovery_free(r);

    store_memory_fail(st, STORE_KIND_HAND_FINISH, 5, STORE_IO);
    store_memory_fail(st, STORE_KIND_ANY, 0, STORE_OK); /* cancelled */
    ok(finish(hand, 3, NULL, 0, 1, 2));
}
END_TEST

START_TEST(test_memory_counts_the_requests_made_by_kind)
{
    int64_t table = new_table("CNT1");
    int64_t hand = new_hand(table, 1);
    guest("A");
    ok(append(hand, 1));
    ck_assert_int_eq(append(hand, 5).error.status, STORE_INVALID);
    answer bad = append(hand, 0);
    ck_assert_int_eq(bad.error.status, STORE_INVALID);
    table_hands(table, 0, 10);
    ck_assert_int_eq(store_memory_count(st, STORE_KIND_TABLE_SAVE), 1);
    ck_assert_int_eq(store_memory_count(st, STORE_KIND_HAND_BEGIN), 1);
    ck_assert_int_eq(store_memory_count(st, STORE_KIND_PLAYER_SAVE), 1);
    ck_assert_int_eq(store_memory_count(st, STORE_KIND_ACTION_APPEND), 3);
    ck_assert_int_eq(store_memory_count(st, STORE_KIND_TABLE_HANDS), 1);
    ck_assert_int_eq(store_memory_count(st, STORE_KIND_LOGIN), 0);
    ck_assert_int_eq(store_memory_count(st, STORE_KIND_ANY), 7);
    ck_assert_str_eq(store_kind_name(STORE_KIND_ACTION_APPEND), "action_append");
}
END_TEST

START_TEST(test_memory_reads_back_players_tables_hands_and_ledger_rows)
{
    int64_t a = guest("Ah Wing");
    ck_assert_int_eq(account("Mei", "plum blossom", 0).id, 2);
    const store_memory_player *p = store_memory_player_at(st, 2);
    ck_assert(p->is_account);
    ck_assert_str_eq(p->account_name, "Mei");
    ck_assert_str_eq(p->nickname, "Mei");
    ck_assert(!store_memory_player_at(st, a)->is_account);
    ck_assert_ptr_null(store_memory_player_at(st, 3));

    store_table t = table_template("READ");
    t.seats[0].player_id = a;
    t.seats[3].bot = true;
    t.game_state = json_pack("{s:i, s:i}", "multiplier", 3, "banker", 2);
    answer saved = save_table(&t);
    json_decref(t.game_state);
    expect_ok(&saved);
    const store_table *back = store_memory_table_at(st, saved.id);
    ck_assert_str_eq(back->code, "READ");
    ck_assert_int_eq(back->seats[0].player_id, a);
    ck_assert(back->seats[3].bot);
    ck_assert_str_eq(state_text(back->game_state), "{\"banker\":2,\"multiplier\":3}");

    int64_t hand = new_hand(saved.id, 1);
    ck_assert_int_eq(store_memory_hand_id(st, saved.id, 1), hand);
    ck_assert_int_eq(store_memory_hand_id(st, saved.id, 2), 0);
    ok(append(hand, 1));
    const store_ledger_entry rows[] = {entry(a, 0, 5, "settle"), entry(0, 3, -5, "settle")};
    ok(finish(hand, 2, rows, 2, 3, 4));
    const store_memory_hand *h = store_memory_hand_at(st, hand);
    ck_assert_uint_eq(h->n_actions, 2);
    ck_assert_int_eq(h->actions[1].seq, 2);
    ck_assert_int_eq(h->actions[1].seat, 1);
    ck_assert_ptr_nonnull(h->result);
    ck_assert_int_eq(h->finished_at_ms, T0_MS);
    ck_assert_str_eq(state_text(h->game_state), "{\"banker\":1,\"multiplier\":2}");
    ck_assert_str_eq(state_text(store_memory_table_at(st, saved.id)->game_state), "{\"banker\":3,\"multiplier\":4}");

    size_t n = 0;
    const store_memory_row *ledger = store_memory_ledger(st, &n);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(ledger[0].player_id, a);
    ck_assert_int_eq(ledger[0].balance_after, 5);
    ck_assert_int_eq(ledger[1].player_id, 0);
    ck_assert_str_eq(ledger[1].prev_hash, ledger[0].hash);
    store_ledger_row row = {.id = 2, .table_id = saved.id, .hand_id = hand, .is_bot = true, .seat = 3, .units = -5,
                            .reason = "settle", .at_ms = T0_MS, .prev_hash = ledger[0].hash};
    unsigned char key[STORE_LEDGER_KEY_BYTES];
    ck_assert(store_memory_ledger_key(st, key));
    char hash[STORE_HASH_HEX];
    store_ledger_hash(&row, key, hash);
    ck_assert_str_eq(ledger[1].hash, hash);
}
END_TEST

START_TEST(test_memory_admin_flag_is_set_by_name_and_seen_by_sessions)
{
    ok(account("Mei", "plum blossom", 0));
    guest("Lan");
    answer a = login("Mei", "plum blossom");
    expect_ok(&a);
    ck_assert_int_eq(store_memory_set_admin(st, "mei", true), STORE_OK);
    ck_assert(lookup(a.session.token).session.is_admin);
    ck_assert_int_eq(store_memory_set_admin(st, "Lan", true), STORE_NOT_FOUND);
    ck_assert_int_eq(store_memory_set_admin(st, "Mei", false), STORE_OK);
    ck_assert(!lookup(a.session.token).session.is_admin);
}
END_TEST

START_TEST(test_memory_real_passwords_hash_with_argon2id_on_the_pool)
{
    store_memory_real_passwords(st, true);
    ok(account("Mei", "plum blossom", 0));
    ok(login("mei", "plum blossom"));
    ck_assert_int_eq(login("Mei", "plum blossoms").error.status, STORE_BAD_LOGIN);
}
END_TEST

START_TEST(test_memory_functions_do_nothing_on_a_sqlite_store)
{
    ck_assert(!store_is_memory(st));
    store_memory_hold(st, true);
    ck_assert_uint_eq(store_memory_held(st), 0);
    ck_assert_ptr_null(store_memory_player_at(st, 1));
    ck_assert_int_eq(store_memory_count(st, STORE_KIND_ANY), 0);
    ck_assert_int_gt(guest("Still answered"), 0);
}
END_TEST

/* ---- The ledger for admins ---- */

typedef struct ledger_answer {
    bool called;
    store_error error;
    store_ledger_line rows[64];
    size_t n;
    bool has_totals;
    store_ledger_totals totals;
} ledger_answer;

static void on_ledger(void *ctx, const store_error *error, const store_ledger_line *rows, size_t n,
                      const store_ledger_totals *totals)
{
    ledger_answer *a = ctx;
    a->called = true;
    a->error = *error;
    a->n = n < 64 ? n : 64;
    if (rows)
        memcpy(a->rows, rows, a->n * sizeof *rows);
    a->has_totals = totals != NULL;
    if (totals)
        a->totals = *totals;
}

static ledger_answer query(const store_ledger_filter *f, int64_t before, int limit, bool totals)
{
    ledger_answer a = {0};
    ck_assert(store_ledger_query(st, f, before, limit, totals, on_ledger, &a));
    while (!a.called)
        uv_run(&loop, UV_RUN_ONCE);
    return a;
}

/* Two tables (codes LDGA and LDGB), one hand each: A wins 6 at LDGA, B wins 4 at LDGB an hour later. */
static void two_hands(int64_t *a, int64_t *b, int64_t *table_a, int64_t *table_b)
{
    *a = guest("Ann");
    *b = guest("Bo");
    *table_a = new_table("LDGA");
    *table_b = new_table("LDGB");
    int64_t hand = new_hand(*table_a, 1);
    const store_ledger_entry first[] = {entry(*a, 0, 6, "settle"), entry(*b, 1, -6, "settle")};
    ok(finish(hand, 0, first, 2, 0, 1));
    atomic_store(&fake_now_ms, T0_MS + 3600 * 1000);
    hand = new_hand(*table_b, 1);
    const store_ledger_entry second[] = {entry(*b, 0, 3, "settle"), entry(*a, 1, -3, "settle"),
                                         entry(*b, 0, 1, "he_zun"), entry(0, 2, -1, "he_zun")};
    ok(finish(hand, 0, second, 4, 0, 1));
}

START_TEST(test_the_ledger_comes_newest_first_with_its_tables_hands_and_players)
{
    int64_t a, b, ta, tb;
    two_hands(&a, &b, &ta, &tb);
    store_ledger_filter all = {0};
    ledger_answer page = query(&all, 0, 10, true);
    expect_ok((answer[]){{.error = page.error}});
    ck_assert_int_eq(page.n, 6);
    ck_assert_int_eq(page.rows[0].id, 6);
    ck_assert_int_eq(page.rows[5].id, 1);
    ck_assert_str_eq(page.rows[0].code, "LDGB");
    ck_assert_str_eq(page.rows[0].game, "tiengow");
    ck_assert_int_eq(page.rows[0].player_id, 0); /* the bot's row */
    ck_assert_str_eq(page.rows[0].nickname, "");
    ck_assert_str_eq(page.rows[0].reason, "he_zun");
    ck_assert_int_eq(page.rows[5].player_id, a);
    ck_assert_str_eq(page.rows[5].nickname, "Ann");
    ck_assert_int_eq(page.rows[5].units, 6);
    ck_assert_int_eq(page.rows[5].balance_after, 6);
    ck_assert_int_eq(page.rows[5].hand_number, 1);
    ck_assert_int_eq(page.rows[5].at_ms, T0_MS);
    ck_assert(page.has_totals);
    ck_assert_int_eq(page.totals.rows, 6);
    ck_assert_int_eq(page.totals.units, 0);
    ck_assert_int_eq(page.totals.won, 10);
    ck_assert_int_eq(page.totals.lost, -10);
    ck_assert(!query(&all, 0, 10, false).has_totals);
}
END_TEST

START_TEST(test_ledger_filters_narrow_by_player_table_code_game_reason_and_time)
{
    int64_t a, b, ta, tb;
    two_hands(&a, &b, &ta, &tb);
    store_ledger_filter f = {.player_id = a};
    ledger_answer r = query(&f, 0, 10, true);
    ck_assert_int_eq(r.n, 2);
    ck_assert_int_eq(r.totals.units, 3);
    f = (store_ledger_filter){.table_id = tb};
    ck_assert_int_eq(query(&f, 0, 10, false).n, 4);
    f = (store_ledger_filter){.code = "LDGA"};
    r = query(&f, 0, 10, true);
    ck_assert_int_eq(r.n, 2);
    ck_assert_int_eq(r.totals.units, 0); /* a whole hand sums to zero */
    f = (store_ledger_filter){.game = "tianjin"};
    ck_assert_int_eq(query(&f, 0, 10, false).n, 0);
    f = (store_ledger_filter){.reason = "he_zun", .player_id = b};
    r = query(&f, 0, 10, true);
    ck_assert_int_eq(r.n, 1);
    ck_assert_int_eq(r.rows[0].units, 1);
    f = (store_ledger_filter){.from_ms = T0_MS + 1};
    ck_assert_int_eq(query(&f, 0, 10, false).n, 4);
    f = (store_ledger_filter){.to_ms = T0_MS + 1};
    ck_assert_int_eq(query(&f, 0, 10, false).n, 2);
    /* A code that reads like SQL is only a value that matches nothing. */
    f = (store_ledger_filter){.code = "x' OR '1'='1"};
    ck_assert_int_eq(query(&f, 0, 10, true).totals.rows, 0);
}
END_TEST

START_TEST(test_ledger_pages_by_row_id_lose_and_repeat_nothing_while_rows_are_added)
{
    int64_t a, b, ta, tb;
    two_hands(&a, &b, &ta, &tb);
    store_ledger_filter all = {0};
    ledger_answer first = query(&all, 0, 4, false);
    ck_assert_int_eq(first.n, 4); /* rows 6, 5, 4, 3 */
    /* Meanwhile another hand is written: rows 7 and 8. */
    int64_t hand = new_hand(ta, 2);
    const store_ledger_entry more[] = {entry(a, 0, 2, "settle"), entry(b, 1, -2, "settle")};
    ok(finish(hand, 0, more, 2, 0, 1));
    ledger_answer second = query(&all, first.rows[first.n - 1].id, 4, false);
    ck_assert_int_eq(second.n, 2);
    ck_assert_int_eq(second.rows[0].id, 2);
    ck_assert_int_eq(second.rows[1].id, 1);
    ck_assert_int_eq(query(&all, 0, 4, false).rows[0].id, 8); /* a fresh first page shows them */
}
END_TEST

START_TEST(test_a_ledger_page_is_one_to_a_thousand_rows_and_a_range_may_not_run_backwards)
{
    store_ledger_filter all = {0};
    ck_assert_int_eq(query(&all, 0, 0, false).error.status, STORE_INVALID);
    ck_assert_int_eq(query(&all, 0, STORE_LEDGER_PAGE_MAX + 1, false).error.status, STORE_INVALID);
    ck_assert_int_eq(query(&all, -1, 10, false).error.status, STORE_INVALID);
    store_ledger_filter backwards = {.from_ms = 10, .to_ms = 5};
    ck_assert_int_eq(query(&backwards, 0, 10, false).error.status, STORE_INVALID);
    ck_assert_int_eq(query(&all, 0, STORE_LEDGER_PAGE_MAX, true).error.status, STORE_OK);
}
END_TEST

/* ---- Admin sessions and the audit log ---- */

typedef struct admin_answer {
    bool called;
    store_error error;
    bool has_session;
    store_admin_session session;
    store_audit_entry entries[8];
    size_t n;
} admin_answer;

static void on_admin(void *ctx, const store_error *error, const store_admin_session *session)
{
    admin_answer *a = ctx;
    a->called = true;
    a->error = *error;
    a->has_session = session != NULL;
    if (session)
        a->session = *session;
}

static void on_admin_done(void *ctx, const store_error *error)
{
    on_admin(ctx, error, NULL);
}

static void on_audit(void *ctx, const store_error *error, const store_audit_entry *entries, size_t n)
{
    admin_answer *a = ctx;
    a->called = true;
    a->error = *error;
    a->n = n < 8 ? n : 8;
    if (entries)
        memcpy(a->entries, entries, a->n * sizeof *entries);
}

static void admin_wait(admin_answer *a)
{
    while (!a->called)
        uv_run(&loop, UV_RUN_ONCE);
}

static admin_answer admin_open(int64_t player_id, int64_t seconds)
{
    admin_answer a = {0};
    ck_assert(store_admin_session_open(st, player_id, seconds, on_admin, &a));
    admin_wait(&a);
    return a;
}

static admin_answer admin_lookup(const char *token)
{
    admin_answer a = {0};
    ck_assert(store_admin_session_lookup(st, token, on_admin, &a));
    admin_wait(&a);
    return a;
}

static admin_answer admin_close(const char *token)
{
    admin_answer a = {0};
    ck_assert(store_admin_session_close(st, token, on_admin_done, &a));
    admin_wait(&a);
    return a;
}

static answer audit_append(int64_t player_id, const char *action, const json_t *details)
{
    answer a = {0};
    ck_assert(store_audit_append(st, player_id, action, details, on_id, &a));
    wait_for(&a);
    return a;
}

static admin_answer audit_list(int64_t before, int limit)
{
    admin_answer a = {0};
    ck_assert(store_audit_list(st, before, limit, on_audit, &a));
    admin_wait(&a);
    return a;
}

/* Sets the admin flag as an operator would: on the file with SQLite (which writes a "grant" or
 * "revoke" entry in the audit log), by the test control in memory (which writes none). */
static void set_admin(const char *name, bool is_admin)
{
    if (use_memory) {
        ck_assert_int_eq(store_memory_set_admin(st, name, is_admin), STORE_OK);
        return;
    }
    store_error error;
    ck_assert_msg(store_admin_set(use_pg ? pg_uri : dir.db, name, is_admin, &error), "%s", error.message);
}

/* An admin account "Mei" (logged in once to learn its id). */
static int64_t admin_account(void)
{
    ok(account("Mei", "plum blossom", 0));
    set_admin("Mei", true);
    answer a = login("Mei", "plum blossom");
    expect_ok(&a);
    ck_assert(a.session.is_admin);
    return a.session.player_id;
}

START_TEST(test_an_admin_session_is_found_by_its_token_with_its_csrf_until_closed)
{
    int64_t mei = admin_account();
    admin_answer opened = admin_open(mei, 3600);
    ck_assert_msg(opened.error.status == STORE_OK, "%s", opened.error.message);
    ck_assert_uint_eq(strlen(opened.session.token), STORE_TOKEN_SIZE - 1);
    ck_assert_uint_eq(strlen(opened.session.csrf), STORE_TOKEN_SIZE - 1);
    ck_assert_str_ne(opened.session.token, opened.session.csrf);
    ck_assert_str_eq(opened.session.account_name, "Mei");
    ck_assert_int_eq(opened.session.expires_at_ms, T0_MS + 3600 * 1000);

    admin_answer found = admin_lookup(opened.session.token);
    ck_assert_int_eq(found.error.status, STORE_OK);
    ck_assert_int_eq(found.session.player_id, mei);
    ck_assert_str_eq(found.session.csrf, opened.session.csrf);
    ck_assert_str_eq(found.session.token, "");
    /* A player's session token is no admin session, nor the other way round. */
    ck_assert_int_eq(lookup(opened.session.token).error.status, STORE_NOT_FOUND);

    ck_assert_int_eq(admin_close(opened.session.token).error.status, STORE_OK);
    ck_assert_int_eq(admin_lookup(opened.session.token).error.status, STORE_NOT_FOUND);
    ck_assert_int_eq(admin_close(opened.session.token).error.status, STORE_NOT_FOUND);
    ck_assert_int_eq(admin_lookup("not a token").error.status, STORE_NOT_FOUND);
}
END_TEST

START_TEST(test_an_admin_session_expires_and_dies_with_the_admin_flag)
{
    int64_t mei = admin_account();
    admin_answer a = admin_open(mei, 60);
    admin_answer b = admin_open(mei, 3600);
    atomic_store(&fake_now_ms, T0_MS + 60 * 1000);
    ck_assert_int_eq(admin_lookup(a.session.token).error.status, STORE_NOT_FOUND);
    ck_assert_int_eq(admin_lookup(b.session.token).error.status, STORE_OK);
    set_admin("Mei", false);
    ck_assert_int_eq(admin_lookup(b.session.token).error.status, STORE_NOT_FOUND);
}
END_TEST

START_TEST(test_only_an_admin_account_may_open_an_admin_session)
{
    ok(account("Lan", "orchid leaf", 0));
    answer lan = login("Lan", "orchid leaf");
    expect_ok(&lan);
    ck_assert_int_eq(admin_open(lan.session.player_id, 3600).error.status, STORE_NOT_FOUND);
    int64_t g = guest("Bo");
    ck_assert_int_eq(admin_open(g, 3600).error.status, STORE_NOT_FOUND);
    ck_assert_int_eq(admin_open(9999, 3600).error.status, STORE_NOT_FOUND);
    int64_t mei = admin_account();
    ck_assert_int_eq(admin_open(mei, 0).error.status, STORE_INVALID);
    ck_assert_int_eq(admin_open(mei, 8 * 24 * 3600).error.status, STORE_INVALID);
    ck_assert_int_eq(admin_open(0, 3600).error.status, STORE_INVALID);
}
END_TEST

/* The audit entries already there: the command line's grant on SQLite. */
static int64_t audit_entries_before(void)
{
    return use_memory ? 0 : 1;
}

START_TEST(test_the_audit_log_pages_newest_first_with_its_admin_and_details)
{
    int64_t mei = admin_account();
    const int64_t base = audit_entries_before();
    json_t *details = json_pack("{s:s, s:i}", "filter", "player=3", "rows", 12);
    answer first = audit_append(mei, "login", NULL);
    expect_ok(&first);
    atomic_store(&fake_now_ms, T0_MS + 1000);
    answer second = audit_append(mei, "ledger.export", details);
    expect_ok(&second);
    json_decref(details);
    answer third = audit_append(mei, "logout", NULL);
    ck_assert_int_eq(first.id, base + 1);
    ck_assert_int_eq(third.id, base + 3);

    admin_answer page = audit_list(0, 2);
    ck_assert_int_eq(page.error.status, STORE_OK);
    ck_assert_uint_eq(page.n, 2);
    ck_assert_int_eq(page.entries[0].id, base + 3);
    ck_assert_str_eq(page.entries[0].action, "logout");
    ck_assert_int_eq(page.entries[1].id, base + 2);
    ck_assert_str_eq(page.entries[1].action, "ledger.export");
    ck_assert_str_eq(page.entries[1].details, "{\"filter\":\"player=3\",\"rows\":12}");
    ck_assert_str_eq(page.entries[1].account_name, "Mei");
    ck_assert_int_eq(page.entries[1].player_id, mei);
    ck_assert_int_eq(page.entries[1].at_ms, T0_MS + 1000);

    admin_answer rest = audit_list(page.entries[1].id, 2);
    ck_assert_uint_eq(rest.n, 1 + (size_t)base);
    ck_assert_int_eq(rest.entries[0].id, base + 1);
    ck_assert_str_eq(rest.entries[0].details, "{}");
    ck_assert_int_eq(rest.entries[0].at_ms, T0_MS);
}
END_TEST

START_TEST(test_an_audit_entry_needs_a_known_player_a_plain_action_and_an_object)
{
    int64_t mei = admin_account();
    ck_assert_int_eq(audit_append(9999, "login", NULL).error.status, STORE_NOT_FOUND);
    ck_assert_int_eq(audit_append(mei, "", NULL).error.status, STORE_INVALID);
    ck_assert_int_eq(audit_append(mei, "Drop table", NULL).error.status, STORE_INVALID);
    json_t *array = json_array();
    ck_assert_int_eq(audit_append(mei, "login", array).error.status, STORE_INVALID);
    json_decref(array);
    char big[STORE_AUDIT_DETAILS_MAX + 1];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    json_t *huge = json_pack("{s:s}", "x", big);
    ck_assert_int_eq(audit_append(mei, "login", huge).error.status, STORE_INVALID);
    json_decref(huge);
    ck_assert_uint_eq(audit_list(0, 10).n, (size_t)audit_entries_before());
    ck_assert_int_eq(audit_list(0, 0).error.status, STORE_INVALID);
    ck_assert_int_eq(audit_list(0, STORE_AUDIT_PAGE_MAX + 1).error.status, STORE_INVALID);
}
END_TEST

START_TEST(test_the_audit_log_refuses_updates_and_deletes)
{
    int64_t mei = admin_account();
    ok(audit_append(mei, "login", NULL));
    sqlite3 *db = db_open(dir.db);
    ck_assert_int_ne(sqlite3_exec(db, "UPDATE admin_audit SET action = 'nothing'", NULL, NULL, NULL), SQLITE_OK);
    ck_assert_int_ne(sqlite3_exec(db, "DELETE FROM admin_audit", NULL, NULL, NULL), SQLITE_OK);
    ck_assert_int_eq(db_int(db, "SELECT count(*) FROM admin_audit"), 1 + audit_entries_before());
    sqlite3_close(db);
}
END_TEST

/* Texts a client can put in an action, and a reason with the characters that quote, escape or
 * separate in SQL and in PostgreSQL's array literals, come back byte for byte and hash alike. */
START_TEST(test_actions_and_reasons_with_quotes_backslashes_and_braces_come_back_exactly)
{
    int64_t a = guest("O'Brien \"Bob\" \\ {x}");
    int64_t hand = new_hand(new_table("QUOT"), 1);
    const char *nasty[] = {"\"", "\\", "{\"a\",\"b\"}", "NULL", "a,b", "'); DROP TABLE ledger; --", "\u4e00\n\t"};
    const size_t n = sizeof nasty / sizeof nasty[0];
    for (size_t i = 0; i < n; i++) {
        json_t *action = json_pack("{s:s, s:[s]}", "say", nasty[i], "list", nasty[(i + 1) % n]);
        answer done = {0};
        ck_assert(store_action_append(st, hand, (int64_t)i + 1, (int)(i % 4), action, on_done, &done));
        json_decref(action);
        wait_for(&done);
        expect_ok(&done);
    }
    const char *reason = "pay \"x\" \\ {a,b} NULL";
    const store_ledger_entry rows[] = {entry(a, 0, 3, reason), entry(0, 1, -3, reason)};
    store_recovery *r = recover();
    ck_assert_ptr_nonnull(r->tables[0].hand);
    ck_assert_uint_eq(r->tables[0].hand->n_actions, n);
    for (size_t i = 0; i < n; i++) {
        const json_t *got = r->tables[0].hand->actions[i].action;
        ck_assert_str_eq(json_string_value(json_object_get(got, "say")), nasty[i]);
        ck_assert_str_eq(json_string_value(json_array_get(json_object_get(got, "list"), 0)), nasty[(i + 1) % n]);
    }
    store_recovery_free(r);
    ok(finish(hand, (int64_t)n + 1, rows, 2, 0, 1));
    ck_assert_str_eq(stored_row(1).reason, reason);
    ck_assert_str_eq(stored_row(2).reason, reason);
    ck_assert_str_eq(stored_nickname(a), "O'Brien \"Bob\" \\ {x}");
    ck_assert(verify().check.ok);
}
END_TEST

/* ---- PostgreSQL only ---- */

START_TEST(test_pg_the_ledger_refuses_updates_deletes_and_truncation)
{
    play_hands(1);
    char why[256];
    pg_test_refused(pg_uri, "UPDATE ledger SET units = 0 WHERE id = 1", why, sizeof why);
    ck_assert_ptr_nonnull(strstr(why, "append-only"));
    pg_test_refused(pg_uri, "DELETE FROM ledger WHERE id = 1", why, sizeof why);
    pg_test_refused(pg_uri, "TRUNCATE ledger CASCADE", why, sizeof why);
    ck_assert_int_eq(on_disk("SELECT count(*) FROM ledger"), 4);
    ck_assert(verify().check.ok);
}
END_TEST

START_TEST(test_pg_a_tampered_row_fails_the_check_of_the_running_store_and_of_admin_verify)
{
    play_hands(3);
    remove_ledger_guards();
    on_disk_exec("UPDATE ledger SET balance_after = balance_after + 5 WHERE id = 6");
    answer a = verify();
    ck_assert(!a.check.ok);
    ck_assert_int_eq(a.check.first_bad_row, 6);
    store_ledger_check check;
    store_error error;
    ck_assert_msg(store_ledger_verify_path(pg_uri, pg_key, &check, &error), "%s", error.message);
    ck_assert(!check.ok);
    ck_assert_int_eq(check.first_bad_row, 6);
    /* Without its key file named, the command line's check says so rather than guessing one. */
    ck_assert(!store_ledger_verify_path(pg_uri, NULL, &check, &error));
    ck_assert_ptr_nonnull(strstr(error.message, "--ledger-key"));
}
END_TEST

START_TEST(test_pg_a_second_server_on_the_same_database_is_refused_as_busy)
{
    ok(guest_session("First"));
    store_options o = test_options();
    o.ledger_key_path = pg_key;
    store_error error;
    store *second = store_open(&loop, pg_uri, &o, &error);
    ck_assert_ptr_null(second);
    ck_assert_int_eq(error.status, STORE_BUSY);
    ck_assert_ptr_nonnull(strstr(error.message, "Another teahouse"));
    close_store();
    st = open_store(&o); /* the first one gone, the lock is free */
    ck_assert_int_eq(stored_players(), 1);
}
END_TEST

START_TEST(test_pg_a_store_needs_its_key_file_named_and_refuses_another_key)
{
    play_hands(1);
    close_store();
    store_options o = test_options();
    o.ledger_key_path = "";
    store_error error;
    ck_assert_ptr_null(store_open(&loop, pg_uri, &o, &error));
    ck_assert_int_eq(error.status, STORE_INVALID);
    ck_assert_ptr_nonnull(strstr(error.message, "--ledger-key"));

    char other[200];
    snprintf(other, sizeof other, "%s/other.key", dir.dir);
    o.ledger_key_path = other; /* missing: the ledger has a key record, so none is made */
    ck_assert_ptr_null(store_open(&loop, pg_uri, &o, &error));
    ck_assert_int_eq(error.status, STORE_NOT_FOUND);
    ck_assert_int_eq(access(other, F_OK), -1);
    unsigned char key[STORE_LEDGER_KEY_BYTES];
    randombytes_buf(key, sizeof key);
    int fd = open(other, O_WRONLY | O_CREAT | O_EXCL, 0600);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, key, sizeof key), (ssize_t)sizeof key);
    close(fd);
    ck_assert_ptr_null(store_open(&loop, pg_uri, &o, &error)); /* a key, but not the ledger's */
    ck_assert_int_eq(error.status, STORE_CORRUPT);
    ck_assert_ptr_nonnull(strstr(error.message, "not the key"));

    o.ledger_key_path = pg_key;
    st = open_store(&o);
    ck_assert(verify().check.ok);
}
END_TEST

const migrate_step *migrate_builtin_pg(size_t *count); /* generated from migrations/pg/ (store_pg.c) */

START_TEST(test_pg_a_database_of_a_newer_schema_is_refused_untouched)
{
    size_t steps = 0;
    const migrate_step *builtin = migrate_builtin_pg(&steps); /* migrations/pg/, the last step reached */
    ck_assert_uint_ge(steps, 3);
    /* the steps go by their numbers, gaps allowed (0001, 0002, then 0100_nodes) */
    ck_assert_int_eq(on_disk("SELECT max(version) FROM teahouse_schema"), builtin[steps - 1].version);
    close_store();
    on_disk_exec("DELETE FROM teahouse_schema");
    on_disk_exec("INSERT INTO teahouse_schema (version) VALUES (9999)");
    store_options o = test_options();
    o.ledger_key_path = pg_key;
    store_error error;
    ck_assert_ptr_null(store_open(&loop, pg_uri, &o, &error));
    ck_assert_int_eq(error.status, STORE_TOO_NEW);
    ck_assert_int_eq(on_disk("SELECT version FROM teahouse_schema"), 9999);
}
END_TEST

START_TEST(test_pg_an_unreachable_database_is_a_clear_io_error)
{
    store_options o = test_options();
    o.ledger_key_path = pg_key;
    store_error error;
    ck_assert_ptr_null(store_open(&loop, "postgresql:///nowhere?host=/nonexistent-teahouse-dir", &o, &error));
    ck_assert_int_eq(error.status, STORE_IO);
    ck_assert_ptr_nonnull(strstr(error.message, "connecting"));
    /* A password in the URI is never repeated in a message. */
    ck_assert_ptr_null(store_open(&loop, "postgresql://u:s3cret@/nowhere?host=/nonexistent-teahouse-dir", &o, &error));
    ck_assert_ptr_null(strstr(error.message, "s3cret"));
}
END_TEST

/* The connection dies between batches: the batch that meets the dead connection is answered with
 * an error and stores nothing; the next one connects again and is stored. */
START_TEST(test_pg_a_lost_connection_fails_its_batch_and_the_next_batch_connects_again)
{
    int64_t hand = new_hand(new_table("LOST"), 1);
    ok(append(hand, 1));
    ck_assert_int_eq(pg_test_int(pg_uri, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                                          " WHERE datname = current_database() AND pid <> pg_backend_pid()"),
                     1);
    answer lost = append(hand, 2);
    ck_assert_int_eq(lost.error.status, STORE_IO);
    ck_assert_str_eq(stored_seqs(hand), "1");
    ok(append(hand, 2));
    ck_assert_str_eq(stored_seqs(hand), "1,2");
}
END_TEST

int main(void)
{
    enum { BOTH, SQLITE_ONLY, MEMORY_ONLY, ON_DISK, PG_ONLY }; /* ON_DISK: SQLite and PostgreSQL */
    Suite *s = suite_create("store");
    struct {
        const char *name;
        int on;
        const TTest *tests[24];
    } cases[] = {
        {"players",
         BOTH,
         {test_guest_gets_an_id_and_can_be_renamed, test_account_names_are_unique_ignoring_ascii_case,
          test_password_shorter_than_eight_bytes_is_refused, test_guest_becomes_an_account_and_keeps_its_id,
          test_an_account_name_that_looks_like_an_existing_one_is_taken,
          test_an_account_name_is_kept_in_nfc_and_found_however_it_is_written}},
        {"sessions",
         BOTH,
         {test_login_with_the_right_password_opens_a_session, test_wrong_password_and_unknown_name_are_refused_alike,
          test_session_expires_after_its_lifetime, test_logout_ends_the_session}},
        {"guests",
         BOTH,
         {test_a_new_guest_gets_a_session_that_lookup_finds_and_logout_ends,
          test_a_guest_with_a_bad_nickname_is_refused_and_nothing_is_written,
          test_a_guest_and_its_session_are_written_together_or_not_at_all, test_a_guest_session_expires_like_a_login,
          test_a_reserved_guest_writes_nothing_until_kept_and_keeps_its_id_and_token,
          test_keeping_a_guest_twice_conflicts_and_an_unreserved_id_or_a_bad_token_is_invalid,
          test_a_node_gives_only_the_ids_of_its_slot_above_every_one_given_before,
          test_expiry_removes_untouched_guests_and_their_sessions_and_keeps_players_that_matter,
          test_a_guest_who_comes_back_with_its_token_is_not_expired,
          test_expiry_takes_the_oldest_guests_first_and_at_most_its_limit}},
        {"tables",
         BOTH,
         {test_open_tables_cannot_share_a_code_but_a_closed_one_frees_it, test_table_fields_come_back_in_recovery,
          test_a_recovery_asked_without_waiting_answers_later_with_what_was_saved_before_it,
          test_a_hands_actions_come_back_in_order_for_recovery, test_action_numbers_follow_without_gap_or_repeat,
          test_a_table_finishes_its_hand_before_starting_another, test_a_finished_hand_takes_no_more_actions,
          test_a_tables_turn_timer_is_saved_and_recovered, test_a_turn_timer_outside_the_houses_five_to_300_seconds_is_refused,
          test_recovery_gives_seat_nicknames_and_each_seats_running_score,
          test_recovery_gives_each_seat_its_holders_own_score_not_the_seats_past,
          test_a_players_tables_are_those_they_played_at_closed_too_newest_first,
          test_a_game_state_that_is_not_a_json_object_is_refused,
          test_actions_and_reasons_with_quotes_backslashes_and_braces_come_back_exactly}},
        {"history",
         BOTH,
         {test_a_tables_history_pages_newest_first_without_unfinished_hands,
          test_a_hand_summary_has_its_start_players_units_and_result,
          test_a_page_of_hands_is_one_to_a_hundred_and_an_unknown_table_has_none,
          test_a_finished_hand_comes_back_with_its_actions_in_order, test_a_natural_hand_comes_back_with_no_actions,
          test_an_unfinished_or_unknown_hand_is_not_found, test_history_answers_reflect_every_write_requested_before_them,
          test_a_tables_hold_watchers_chat_hand_options_and_each_players_hands_come_back_in_recovery,
          test_a_finished_hand_comes_back_with_its_own_options_and_anyones_tables_are_found_by_code}},
        {"ledger",
         BOTH,
         {test_finishing_writes_the_last_action_result_ledger_and_game_state,
          test_ledger_rows_that_do_not_sum_to_zero_are_refused, test_each_row_carries_the_players_balance_after_it,
          test_hash_is_blake2b_of_the_documented_canonical_text, test_an_honest_ledger_verifies,
          test_the_end_of_a_hand_is_all_or_nothing, test_a_failing_request_does_not_undo_the_others_of_its_batch,
          test_a_ledger_row_for_an_unknown_player_is_refused_whole,
          test_an_end_undone_in_a_batch_leaves_the_hand_open_for_its_next_action}},
        {"admin ledger",
         BOTH,
         {test_the_ledger_comes_newest_first_with_its_tables_hands_and_players,
          test_ledger_filters_narrow_by_player_table_code_game_reason_and_time,
          test_ledger_pages_by_row_id_lose_and_repeat_nothing_while_rows_are_added,
          test_a_ledger_page_is_one_to_a_thousand_rows_and_a_range_may_not_run_backwards}},
        {"admin sessions and audit",
         BOTH,
         {test_an_admin_session_is_found_by_its_token_with_its_csrf_until_closed,
          test_an_admin_session_expires_and_dies_with_the_admin_flag,
          test_only_an_admin_account_may_open_an_admin_session,
          test_the_audit_log_pages_newest_first_with_its_admin_and_details,
          test_an_audit_entry_needs_a_known_player_a_plain_action_and_an_object}},
        {"loop",
         BOTH,
         {test_an_idle_store_lets_the_loop_end_and_a_request_keeps_it_running,
          test_close_answers_everything_already_requested}},
        {"file",
         SQLITE_ONLY,
         {test_same_password_twice_gives_different_argon2id_hashes, test_session_token_is_stored_only_as_its_hash,
          test_admin_flag_is_granted_from_the_command_line_and_seen_by_sessions,
          test_a_test_only_password_hash_never_logs_in_to_a_real_store,
          test_older_accounts_get_their_look_alike_keys_and_nfc_names_when_the_store_opens,
          test_a_game_state_is_stored_as_compact_json_with_sorted_keys, test_password_work_in_flight_at_close_is_answered_closed,
          test_memory_functions_do_nothing_on_a_sqlite_store}},
        {"restarts",
         ON_DISK,
         {test_a_guest_session_outlives_a_restart_and_the_guest_becoming_an_account,
          test_a_reopened_store_carries_on_with_an_unfinished_hand, test_ids_after_a_restart_follow_the_highest_stored,
          test_an_adjusted_players_tables_leave_out_the_adjustments_table, test_a_tampered_row_is_the_first_bad_row,
          test_a_deleted_row_breaks_the_chain_at_the_next,
          test_the_admins_reads_give_players_tables_a_hand_with_its_options_and_the_scan}},
        {"database",
         PG_ONLY,
         {test_pg_the_ledger_refuses_updates_deletes_and_truncation,
          test_pg_a_tampered_row_fails_the_check_of_the_running_store_and_of_admin_verify,
          test_pg_a_second_server_on_the_same_database_is_refused_as_busy,
          test_pg_a_store_needs_its_key_file_named_and_refuses_another_key,
          test_pg_a_database_of_a_newer_schema_is_refused_untouched, test_pg_an_unreachable_database_is_a_clear_io_error,
          test_pg_a_lost_connection_fails_its_batch_and_the_next_batch_connects_again}},
        {"tampering",
         SQLITE_ONLY,
         {test_the_ledger_refuses_updates_and_deletes, test_the_audit_log_refuses_updates_and_deletes,
          test_a_rehashed_forgery_is_caught_by_the_hand_sum}},
        {"ledger key",
         SQLITE_ONLY,
         {test_the_key_is_made_once_with_mode_0600_beside_the_database_and_kept,
          test_a_key_file_others_may_read_is_refused_by_the_store_and_by_verify,
          test_a_key_file_that_is_not_32_bytes_is_refused,
          test_a_keyed_ledger_whose_key_is_missing_is_refused_and_verify_says_so,
          test_another_key_is_refused_by_the_store_and_fails_verify,
          test_a_forger_without_the_key_who_rehashes_the_chain_is_caught_at_the_row_changed,
          test_a_ledger_rewritten_as_unkeyed_without_its_key_record_is_caught_and_not_reopened}},
        {"conditions",
         SQLITE_ONLY,
         {test_a_lock_held_by_another_process_gives_a_clear_busy_error,
          test_a_database_held_exclusively_cannot_be_opened,
          test_a_directory_that_cannot_be_written_gives_a_clear_error,
          test_a_file_of_garbage_is_reported_as_not_a_database, test_damaged_pages_give_a_corrupt_error_and_no_crash,
          test_a_full_disk_fails_cleanly_and_loses_nothing}},
        {"controls",
         MEMORY_ONLY,
         {test_memory_answers_at_the_next_turn_of_the_loop_in_order_and_writes_with_the_answer,
          test_memory_an_action_is_stored_when_its_answer_comes_and_not_before,
          test_memory_a_delay_holds_each_answer_that_many_milliseconds,
          test_memory_held_requests_wait_for_release_in_order_without_keeping_the_loop_running,
          test_memory_a_held_login_is_answered_after_one_release, test_memory_close_answers_held_requests_and_writes_them,
          test_memory_fails_the_next_requests_of_a_kind_and_writes_nothing, test_memory_counts_the_requests_made_by_kind,
          test_memory_reads_back_players_tables_hands_and_ledger_rows,
          test_memory_admin_flag_is_set_by_name_and_seen_by_sessions,
          test_memory_real_passwords_hash_with_argon2id_on_the_pool}},
    };
    /* Backends: 0 SQLite, 1 memory; beside a PostgreSQL cluster, 2 PostgreSQL only (the others
     * run in the suite's own entry). */
    const bool pg = pg_test_base() != NULL;
    static const char *const backend_names[] = {"sqlite", "memory", "postgresql"};
    void (*const setups[])(void) = {setup, setup_memory, setup_pg};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int backend = pg ? 2 : 0; backend <= (pg ? 2 : 1); backend++) {
            const int on = cases[i].on;
            if ((backend != 0 && on == SQLITE_ONLY) || (backend != 1 && on == MEMORY_ONLY) ||
                (backend == 1 && on == ON_DISK) || (backend != 2 && on == PG_ONLY))
                continue;
            static char names[3 * sizeof cases / sizeof cases[0]][48]; /* Check keeps the pointer */
            char *name = names[3 * i + (size_t)backend];
            snprintf(name, sizeof names[0], "%s: %s", backend_names[backend], cases[i].name);
            TCase *tc = tcase_create(name);
            tcase_add_checked_fixture(tc, setups[backend], teardown);
            tcase_set_timeout(tc, 120);
            for (size_t k = 0; k < 24 && cases[i].tests[k] != NULL; k++)
                tcase_add_test(tc, cases[i].tests[k]);
            suite_add_tcase(s, tc);
        }
    }
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
