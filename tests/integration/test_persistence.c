/*
 * The server with its store, over real WebSockets against the real binary: tables and hands
 * come back after SIGTERM and after kill -9 with the same seats, hand and tiles; each settled
 * hand is in the ledger, zero-sum, with the nets the players were shown; accounts (register,
 * login, logout) and a guest's token survive a restart; the history and replay of a table's
 * hands; a database that runs out of room pauses the table and loses nothing; a guest is stored
 * once it sits down (and only then resumes after a restart); the ledger's key file (0600, beside
 * the database) is needed by the server and by `teahouse admin verify`.
 *
 * The database is read directly (read-only) to check what was kept.
 *
 * Usage: test_persistence PATH_TO_TEAHOUSE WEB_ROOT
 */
#include <check.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store_test_pg.h"

#include "http_client.h"
#include "server_process.h"
#include "table_client.h"

static const char *binary;
static const char *web_root;
static server_process server;
static char db_dir[64];
static char db_path[512];   /* the SQLite file, or on PostgreSQL the URI of the test's database */
static bool use_pg;         /* beside a PostgreSQL cluster (tests/pg/with_cluster.sh) */
static char pg_name[64];
static char key_path[96];   /* the ledger's key on PostgreSQL */

static void fresh_db(void)
{
    snprintf(db_dir, sizeof db_dir, "/tmp/teahouse-persist-XXXXXX");
    ck_assert(mkdtemp(db_dir) != NULL);
    snprintf(db_path, sizeof db_path, "%s/teahouse.db", db_dir);
    snprintf(key_path, sizeof key_path, "%s/ledger.key", db_dir);
    if (use_pg)
        pg_test_create(pg_name, sizeof pg_name, db_path, sizeof db_path);
}

static void remove_db(void)
{
    if (use_pg) {
        pg_test_drop(pg_name);
        unlink(key_path);
    }
    static const char *const SUFFIXES[] = {"", "-wal", "-shm", ".lock", ".key"};
    for (size_t i = 0; i < sizeof SUFFIXES / sizeof SUFFIXES[0]; i++) {
        char path[sizeof db_path + 8];
        snprintf(path, sizeof path, "%s%s", db_path, SUFFIXES[i]);
        unlink(path);
    }
    rmdir(db_dir);
}

/* Starts the server on db_path; extra may add flags (NULL-terminated, up to 4). */
static void start_server_with(const char *const extra[])
{
    const char *args[16] = {"--bot-delay-ms", "5", "--next-hand-seconds", "0", "--web-root", web_root, "--db", db_path};
    int n = 8;
    if (use_pg) {
        args[n++] = "--ledger-key";
        args[n++] = key_path;
    }
    for (int i = 0; extra != NULL && extra[i] != NULL && n < 15; i++)
        args[n++] = extra[i];
    args[n] = NULL;
    ck_assert_msg(server_process_start(&server, binary, args, 10000), "the server did not start");
}

static void start_server(void) { start_server_with(NULL); }

static void stop_server(int signum)
{
    int status = 0;
    bool stopped = server_process_stop(&server, signum, 10000, &status);
    bool clean = stopped && (signum != SIGTERM || (WIFEXITED(status) && WEXITSTATUS(status) == 0));
    if (!clean) {
        char *log = server_process_log(&server);
        fprintf(stderr, "server log:\n%s\n", log != NULL ? log : "");
        free(log);
    }
    ck_assert_msg(clean, "the server did not stop cleanly (status 0x%x)", status);
    server_process_cleanup(&server);
}

static const char *type_of(const json_t *frame) { return json_string_value(json_object_get(frame, "type")); }

static json_t *request_ok(table_client *c, json_t *message, const char *want_type)
{
    char what[64];
    snprintf(what, sizeof what, "%s", json_string_value(json_object_get(message, "type")));
    json_t *reply = tc_request(c, message, 5000);
    ck_assert_msg(reply != NULL, "no answer to %s", what);
    char *text = json_dumps(reply, JSON_COMPACT);
    ck_assert_msg(strcmp(type_of(reply), want_type) == 0, "want %s, got %s", want_type, text);
    free(text);
    return reply;
}

static void request_error(table_client *c, json_t *message, const char *code)
{
    json_t *reply = tc_request(c, message, 5000);
    ck_assert_ptr_nonnull(reply);
    char *text = json_dumps(reply, JSON_COMPACT);
    ck_assert_msg(strcmp(type_of(reply), "error") == 0 && strcmp(json_string_value(json_object_get(reply, "code")), code) == 0,
                  "want %s, got %s", code, text);
    free(text);
    json_decref(reply);
}

static void table_ok(table_client *c, json_t *message)
{
    json_object_set_new(message, "code", json_string(c->code));
    json_decref(request_ok(c, message, "ok"));
}

/* c creates a private table, seats 3 bots and starts. */
static void table_with_bots(table_client *c)
{
    json_t *reply = request_ok(c,
                               json_pack("{s:s, s:s, s:{}, s:b}", "type", "create_table", "game", "tiengow", "options",
                                         "public", false),
                               "snapshot");
    snprintf(c->code, sizeof c->code, "%s", json_string_value(json_object_get(reply, "table")));
    json_decref(reply);
    for (int s = 1; s < 4; s++)
        table_ok(c, json_pack("{s:s, s:i}", "type", "add_bot", "seat", s));
    table_ok(c, json_pack("{s:s}", "type", "start"));
}

static void connect_as(table_client *c, const char *name, const char *token)
{
    bool ok = false;
    for (int attempt = 0; attempt < 50 && !ok; attempt++) { /* a restarted server may need a moment */
        ok = tc_connect(c, server.host, server.port, name, token);
        if (!ok)
            usleep(100 * 1000);
    }
    ck_assert_msg(ok, "%s could not connect", name);
}

/* The sorted tile names of a view's hand, as one string. */
static void hand_text(const json_t *view, char *out, size_t cap)
{
    out[0] = '\0';
    size_t i;
    json_t *tile;
    json_array_foreach(json_object_get(view, "hand"), i, tile)
    {
        strncat(out, json_string_value(tile), cap - strlen(out) - 1);
        strncat(out, " ", cap - strlen(out) - 1);
    }
}

/* Reads frames until the client's view is mid-hand (at least `actions` trick plays made) in hand
 * number `hand` or a later one (a natural hand ends before any play), acting on its turns; answers
 * the number of that hand. */
static int play_into_hand(table_client *c, int hand, int actions)
{
    for (int waited = 0; waited < 30000; waited += 20) {
        const json_t *v = c->last_view;
        int plays = 0;
        size_t i;
        json_t *trick;
        json_array_foreach(json_object_get(v, "tricks"), i, trick) plays += (int)json_array_size(json_object_get(trick, "plays"));
        plays += (int)json_array_size(json_object_get(json_object_get(v, "trick"), "plays"));
        if (c->hands_over >= hand - 1 && json_is_false(json_object_get(v, "over")) && plays >= actions)
            return c->hands_over + 1;
        tc_act_if_my_turn(c, 2000);
        json_decref(tc_next(c, 20));
    }
    ck_abort_msg("hand %d did not reach %d plays", hand, actions);
    return 0;
}

/* One sample of /metrics ("name"), -1 if absent. */
static double metric(const char *sample)
{
    http_response response;
    ck_assert(http_get(server.host, server.metrics_port, "/metrics", 5000, &response));
    double value = -1;
    size_t len = strlen(sample);
    for (const char *line = response.body; line != NULL && *line; line = strchr(line, '\n')) {
        if (*line == '\n')
            line++;
        if (strncmp(line, sample, len) == 0 && line[len] == ' ') {
            value = strtod(line + len + 1, NULL);
            break;
        }
    }
    http_response_free(&response);
    return value;
}

/* --- reading the database --- */

static sqlite3 *open_db(void)
{
    sqlite3 *db = NULL;
    ck_assert_int_eq(sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    return db;
}

static int64_t query_int(sqlite3 *db, const char *sql, int64_t a, int64_t b)
{
    sqlite3_stmt *stmt = NULL;
    ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) == SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(db));
    sqlite3_bind_int64(stmt, 1, a);
    sqlite3_bind_int64(stmt, 2, b);
    int64_t value = sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : -999999;
    sqlite3_finalize(stmt);
    return value;
}

/* The ledger of hand `number` of the table with this code: per seat sums equal the nets shown. */
/* check_hand_in_ledger on PostgreSQL: the same questions through a connection of the test's. */
static void check_hand_in_pg_ledger(const char *code, int64_t number, const json_t *result)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT h.id FROM hands h JOIN game_tables t ON t.id = h.table_id WHERE t.code = '%s'"
             " AND h.number = %" PRId64 " AND h.result IS NOT NULL", code, number);
    const long long hand_id = pg_test_int(db_path, sql);
    ck_assert_msg(hand_id > 0, "hand %" PRId64 " of %s is not stored as finished", number, code);
    snprintf(sql, sizeof sql, "SELECT coalesce(sum(units), 1) FROM ledger WHERE hand_id = %lld", hand_id);
    ck_assert_int_eq(pg_test_int(db_path, sql), 0);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM ledger WHERE hand_id = %lld AND reason = 'settle'", hand_id);
    ck_assert_int_eq(pg_test_int(db_path, sql), 4);
    for (int s = 0; s < 4; s++) {
        int64_t shown = json_integer_value(json_array_get(json_object_get(result, "net"), (size_t)s));
        snprintf(sql, sizeof sql, "SELECT coalesce(sum(units), 0) FROM ledger WHERE hand_id = %lld AND seat = %d",
                 hand_id, s);
        long long kept = pg_test_int(db_path, sql);
        ck_assert_msg(shown == kept, "hand %" PRId64 " seat %d: shown %" PRId64 ", ledger %lld", number, s, shown, kept);
    }
}

static void check_hand_in_ledger(const char *code, int64_t number, const json_t *result)
{
    if (use_pg) {
        check_hand_in_pg_ledger(code, number, result);
        return;
    }
    sqlite3 *db = open_db();
    sqlite3_stmt *stmt = NULL;
    ck_assert_int_eq(sqlite3_prepare_v2(db,
                                        "SELECT h.id FROM hands h JOIN game_tables t ON t.id = h.table_id"
                                        " WHERE t.code = ?1 AND h.number = ?2 AND h.result IS NOT NULL",
                                        -1, &stmt, NULL),
                     SQLITE_OK);
    sqlite3_bind_text(stmt, 1, code, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 2, number);
    ck_assert_msg(sqlite3_step(stmt) == SQLITE_ROW, "hand %" PRId64 " of %s is not stored as finished", number, code);
    int64_t hand_id = sqlite3_column_int64(stmt, 0);
    ck_assert_int_eq(sqlite3_step(stmt), SQLITE_DONE);
    sqlite3_finalize(stmt);
    ck_assert_int_eq(query_int(db, "SELECT coalesce(sum(units), 1) FROM ledger WHERE hand_id = ?1", hand_id, 0), 0);
    ck_assert_int_eq(query_int(db, "SELECT count(*) FROM ledger WHERE hand_id = ?1 AND reason = 'settle'", hand_id, 0),
                     4);
    for (int s = 0; s < 4; s++) {
        int64_t shown = json_integer_value(json_array_get(json_object_get(result, "net"), (size_t)s));
        int64_t kept = query_int(db, "SELECT coalesce(sum(units), 0) FROM ledger WHERE hand_id = ?1 AND seat = ?2",
                                 hand_id, s);
        ck_assert_msg(shown == kept, "hand %" PRId64 " seat %d: shown %" PRId64 ", ledger %" PRId64, number, s, shown,
                      kept);
    }
    sqlite3_close(db);
}

static void check_admin_verify(void)
{
    char command[1024];
    snprintf(command, sizeof command, "'%s' admin verify --db '%s'%s%s >/dev/null 2>&1", binary, db_path,
             use_pg ? " --ledger-key " : "", use_pg ? key_path : "");
    int status = system(command);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "teahouse admin verify failed (status %d)", status);
}

/* --- the tests --- */

/* Plays hand 1 to its end and hand 2 into its middle, stops the server with signum, restarts it,
 * and checks the player resumes hand 2 with the tiles it held, then finishes it. */
static void survive_restart(int signum)
{
    fresh_db();
    start_server();
    table_client a;
    connect_as(&a, "Ah Ma", NULL);
    table_with_bots(&a);
    ck_assert(tc_play_until(&a, 1, 30000, true));
    json_t *first = json_incref(a.last_result);
    int mid = play_into_hand(&a, 2, 6);
    char before[256];
    hand_text(a.last_view, before, sizeof before);
    char token[80], code[16];
    long long seq_before = a.last_seq;
    snprintf(token, sizeof token, "%s", a.token);
    snprintf(code, sizeof code, "%s", a.code);
    if (signum == SIGTERM) { /* told the table is parked, for a moment */
        kill(server.pid, SIGTERM);
        bool parked = false;
        for (int i = 0; i < 200 && !parked; i++) {
            json_t *frame = tc_next(&a, 20);
            const char *kind = json_string_value(json_object_get(json_object_get(frame, "event"), "kind"));
            parked = kind != NULL && strcmp(kind, "parked") == 0;
            json_decref(frame);
        }
        ck_assert_msg(parked, "no parked event");
        tc_close(&a);
        int status = 0;
        ck_assert_msg(server_process_wait(&server, 10000, &status), "the server did not stop");
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the server did not exit cleanly");
        server_process_cleanup(&server);
    } else {
        stop_server(signum);
        tc_close(&a);
    }

    start_server();
    table_client back;
    connect_as(&back, "Ah Ma", token);
    snprintf(back.code, sizeof back.code, "%s", code);
    /* the resumed connection gets a snapshot of its table */
    for (int i = 0; i < 250 && back.last_view == NULL; i++)
        json_decref(tc_next(&back, 20));
    ck_assert_msg(back.last_view != NULL, "no snapshot after resuming");
    ck_assert_msg(back.last_seq > seq_before, "seq went back from %lld to %lld", seq_before, back.last_seq);
    ck_assert_int_eq(back.seat, 0);
    ck_assert_int_eq(json_integer_value(json_object_get(back.last_view, "seat")), 0);
    char after[256];
    hand_text(back.last_view, after, sizeof after);
    if (signum == SIGTERM)
        ck_assert_msg(strcmp(before, after) == 0, "tiles before %s, after %s", before, after);
    else /* a move of its own may have been stored but not shown: the tiles are those or fewer */
        for (char *tile = strtok(after, " "); tile != NULL; tile = strtok(NULL, " "))
            ck_assert_msg(strstr(before, tile) != NULL, "tile %s was not in the hand before (%s)", tile, before);
    ck_assert(tc_play_until(&back, 1, 30000, true));
    ck_assert_int_eq(back.leaks, 0);
    json_t *second = json_incref(back.last_result);
    stop_server(SIGTERM);
    tc_close(&back);

    check_hand_in_ledger(code, 1, first);
    check_hand_in_ledger(code, mid, second);
    check_admin_verify();
    json_decref(first);
    json_decref(second);
    remove_db();
}

/* Reads c's frames until one of this type (and event kind, when kind is not NULL): owned, or NULL. */
static json_t *wait_frame(table_client *c, const char *type, const char *kind, int timeout_ms)
{
    for (int waited = 0; waited < timeout_ms; waited += 50) {
        json_t *frame = tc_next(c, 50);
        if (frame == NULL)
            continue;
        const char *k = json_string_value(json_object_get(json_object_get(frame, "event"), "kind"));
        if (strcmp(type_of(frame), type) == 0 && (kind == NULL || (k != NULL && strcmp(k, kind) == 0)))
            return frame;
        json_decref(frame);
    }
    return NULL;
}

static json_t *stored_hand_options(const char *code, int64_t number)
{
    if (use_pg) { /* the same question through a connection of the test's (a code is letters and digits) */
        char sql[256], text[1024];
        snprintf(sql, sizeof sql, "SELECT h.options FROM hands h JOIN game_tables t ON t.id = h.table_id"
                 " WHERE t.code = '%s' AND h.number = %" PRId64, code, number);
        pg_test_text(db_path, sql, text, sizeof text);
        json_t *options = json_loads(text, 0, NULL);
        ck_assert_msg(options != NULL, "hand %" PRId64 " of %s has no options stored: \"%s\"", number, code, text);
        return options;
    }
    sqlite3 *db = open_db();
    sqlite3_stmt *stmt = NULL;
    ck_assert_int_eq(sqlite3_prepare_v2(db,
                                        "SELECT h.options FROM hands h JOIN game_tables t ON t.id = h.table_id"
                                        " WHERE t.code = ?1 AND h.number = ?2",
                                        -1, &stmt, NULL),
                     SQLITE_OK);
    sqlite3_bind_text(stmt, 1, code, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 2, number);
    ck_assert_int_eq(sqlite3_step(stmt), SQLITE_ROW);
    json_t *options = json_loads((const char *)sqlite3_column_text(stmt, 0), 0, NULL);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    ck_assert_ptr_nonnull(options);
    return options;
}

START_TEST(test_a_restart_keeps_the_hosts_options_hold_and_watchers_chat_and_each_hand_its_own_stake)
{
    fresh_db();
    start_server();
    table_client a;
    connect_as(&a, "Ah Ma", NULL);
    table_with_bots(&a);
    table_ok(&a, json_pack("{s:s, s:b}", "type", "hold_table", "held", 1));
    ck_assert_msg(tc_play_until(&a, 1, 30000, true), "a hold asked as the first hand starts stopped it");
    json_t *first_net = json_deep_copy(json_object_get(a.last_result, "net"));
    table_ok(&a, json_pack("{s:s, s:{s:i}}", "type", "set_options", "options", "stake", 3));
    table_ok(&a, json_pack("{s:s, s:b}", "type", "spectator_chat", "on", 0));
    char token[80], code[16], me[16];
    snprintf(token, sizeof token, "%s", a.token);
    snprintf(code, sizeof code, "%s", a.code);
    snprintf(me, sizeof me, "%s", a.player_id);
    stop_server(SIGTERM);
    tc_close(&a);

    start_server();
    table_client back;
    connect_as(&back, "Ah Ma", token);
    snprintf(back.code, sizeof back.code, "%s", code);
    json_t *snap = wait_frame(&back, "snapshot", NULL, 5000);
    ck_assert_msg(snap != NULL, "no snapshot after resuming");
    const json_t *info = json_object_get(snap, "info");
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(info, "options"), "stake")), 3);
    ck_assert_str_eq(json_string_value(json_object_get(info, "host")), me);
    ck_assert(json_is_true(json_object_get(info, "held")));
    ck_assert(json_is_false(json_object_get(info, "spectator_chat")));
    json_decref(snap);
    json_t *started = wait_frame(&back, "event", "hand_started", 600);
    ck_assert_msg(started == NULL, "a held table started a hand after the restart");
    table_ok(&back, json_pack("{s:s, s:b}", "type", "hold_table", "held", 0));
    json_t *second_start = wait_frame(&back, "event", "hand_started", 5000);
    ck_assert_msg(second_start != NULL, "resuming did not start the next hand");
    json_decref(second_start);
    table_ok(&back, json_pack("{s:s, s:b}", "type", "hold_table", "held", 1)); /* after this hand */
    ck_assert(tc_play_until(&back, 1, 30000, true));
    /* hand 1's replay settles it as it was played, at stake 1, not at the table's stake 3 now */
    json_t *replay = request_ok(&back, json_pack("{s:s, s:s, s:i}", "type", "replay", "code", code, "hand", 1), "replay");
    const json_t *frames = json_object_get(replay, "frames");
    const json_t *last = json_object_get(json_array_get(frames, json_array_size(frames) - 1), "view");
    ck_assert_msg(json_equal(json_object_get(json_object_get(last, "result"), "net"), first_net),
                  "hand 1 replays with other nets than it was settled with");
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(replay, "options"), "stake")), 1);
    json_decref(replay);
    /* and the history names each hand's own options, to explain its settlement with */
    json_t *history = request_ok(&back, json_pack("{s:s, s:s}", "type", "history", "code", code), "history");
    const json_t *hands = json_object_get(history, "hands");
    ck_assert_uint_eq(json_array_size(hands), 2);
    for (size_t i = 0; i < 2; i++) {
        const json_t *entry = json_array_get(hands, i);
        json_int_t number = json_integer_value(json_object_get(entry, "hand"));
        ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(entry, "options"), "stake")), number == 1 ? 1 : 3);
    }
    json_decref(history);
    json_decref(first_net);
    /* the session's scoreboard counts the hands of both sides of the restart (a watcher reads it:
     * the host's own copy arrives before the answer to end_table) */
    table_client w;
    connect_as(&w, "Watcher", NULL);
    json_decref(request_ok(&w, json_pack("{s:s, s:s}", "type", "join_table", "code", code), "snapshot"));
    table_ok(&back, json_pack("{s:s}", "type", "end_table"));
    json_t *ended = wait_frame(&w, "event", "table_ended", 5000);
    tc_close(&w);
    ck_assert_msg(ended != NULL, "no table_ended");
    const json_t *row = json_array_get(json_object_get(json_object_get(ended, "event"), "scoreboard"), 0);
    ck_assert_int_eq(json_integer_value(json_object_get(row, "hands")), 2);
    ck_assert_str_eq(json_string_value(json_object_get(row, "name")), "Ah Ma");
    json_decref(ended);
    stop_server(SIGTERM);
    tc_close(&back);

    json_t *first = stored_hand_options(code, 1), *second = stored_hand_options(code, 2);
    ck_assert_int_eq(json_integer_value(json_object_get(first, "stake")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(second, "stake")), 3);
    json_decref(first);
    json_decref(second);
    check_admin_verify(); /* every hand's ledger replays under its own options */
    remove_db();
}
END_TEST

START_TEST(test_a_hand_continues_after_sigterm_with_the_same_tiles)
{
    survive_restart(SIGTERM);
}
END_TEST

START_TEST(test_a_hand_continues_after_kill_9)
{
    survive_restart(SIGKILL);
}
END_TEST

/* Five hands on a server with these extra flags: each is in the ledger with the nets shown. */
static void settle_five_hands(const char *const extra[])
{
    fresh_db();
    start_server_with(extra);
    table_client a;
    connect_as(&a, "Ledger", NULL);
    table_with_bots(&a);
    ck_assert(tc_play_until(&a, 5, 60000, true));
    json_t *results = json_incref(a.results); /* by hand number, as the player was shown them */
    char code[16];
    snprintf(code, sizeof code, "%s", a.code);
    stop_server(SIGTERM);
    tc_close(&a);
    for (int hand = 1; hand <= 5; hand++) {
        char key[8];
        snprintf(key, sizeof key, "%d", hand);
        ck_assert_msg(json_object_get(results, key) != NULL, "hand %d was not shown", hand);
        check_hand_in_ledger(code, hand, json_object_get(results, key));
    }
    /* the table kept (as its game state) the banker and multiplier its last finished hand named (hand 5, or a 6th that
     * ended at once as a natural hand before the server stopped) */
    sqlite3 *db = open_db();
    sqlite3_stmt *stmt = NULL;
    ck_assert_int_eq(sqlite3_prepare_v2(db,
                                        "SELECT json_extract(t.game_state, '$.banker'), json_extract(t.game_state, '$.multiplier'),"
                                        " h.number, h.result FROM game_tables t JOIN hands h"
                                        " ON h.table_id = t.id WHERE t.code = ?1 AND h.result IS NOT NULL"
                                        " ORDER BY h.number DESC LIMIT 1",
                                        -1, &stmt, NULL),
                     SQLITE_OK);
    sqlite3_bind_text(stmt, 1, code, -1, SQLITE_STATIC);
    ck_assert_int_eq(sqlite3_step(stmt), SQLITE_ROW);
    int64_t number = sqlite3_column_int64(stmt, 2);
    json_t *last = json_loads((const char *)sqlite3_column_text(stmt, 3), 0, NULL);
    ck_assert_ptr_nonnull(last);
    ck_assert_int_ge(number, 5);
    if (number == 5)
        ck_assert(json_equal(json_object_get(last, "net"), json_object_get(json_object_get(results, "5"), "net")));
    ck_assert_int_eq(sqlite3_column_int64(stmt, 0), json_integer_value(json_object_get(last, "next_banker")));
    ck_assert_int_eq(sqlite3_column_int64(stmt, 1), json_integer_value(json_object_get(last, "next_multiplier")));
    json_decref(last);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    check_admin_verify();
    json_decref(results);
    remove_db();
}

START_TEST(test_every_settled_hand_is_in_the_ledger_with_the_nets_shown)
{
    settle_five_hands(NULL);
}
END_TEST

START_TEST(test_with_full_durability_too)
{
    const char *extra[] = {"--durability", "full", NULL};
    settle_five_hands(extra);
}
END_TEST

START_TEST(test_accounts_register_login_logout)
{
    fresh_db();
    start_server();
    table_client guest, other;
    connect_as(&guest, "Mei", NULL);
    json_t *w = request_ok(&guest, json_pack("{s:s, s:s, s:s}", "type", "register", "name", "mei", "password",
                                             "jasmine tea"),
                           "welcome");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(w, "player"), "account")), "mei");
    ck_assert_str_eq(json_string_value(json_object_get(w, "token")), guest.token); /* the same session goes on */
    json_decref(w);
    request_error(&guest, json_pack("{s:s, s:s, s:s}", "type", "register", "name", "mei2", "password", "jasmine tea"),
                  "already_account");

    connect_as(&other, "Someone", NULL);
    request_error(&other, json_pack("{s:s, s:s, s:s}", "type", "register", "name", "MEI", "password", "oolong tea"),
                  "name_taken");
    request_error(&other, json_pack("{s:s, s:s, s:s}", "type", "login", "name", "mei", "password", "wrong password"),
                  "bad_login");
    w = request_ok(&other, json_pack("{s:s, s:s, s:s}", "type", "login", "name", "mei", "password", "jasmine tea"),
                   "welcome");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(w, "player"), "id")), guest.player_id);
    char login_token[80];
    snprintf(login_token, sizeof login_token, "%s", json_string_value(json_object_get(w, "token")));
    ck_assert_str_ne(login_token, guest.token);
    json_decref(w);

    /* one password check at a time per connection: a second login sent at once is refused as busy */
    const char *twice = "{\"type\":\"login\",\"name\":\"mei\",\"password\":\"not it at all\",\"id\":\"x\"}";
    ck_assert_int_eq(ws_client_send_text(other.ws, twice, strlen(twice)), WS_CLIENT_OK);
    ck_assert_int_eq(ws_client_send_text(other.ws, twice, strlen(twice)), WS_CLIENT_OK);
    int busy = 0, bad_login = 0;
    for (int i = 0; i < 200 && busy + bad_login < 2; i++) {
        json_t *frame = tc_next(&other, 50);
        const char *code = json_string_value(json_object_get(frame, "code"));
        busy += code != NULL && strcmp(code, "busy") == 0;
        bad_login += code != NULL && strcmp(code, "bad_login") == 0;
        json_decref(frame);
    }
    ck_assert_int_eq(busy, 1);
    ck_assert_int_eq(bad_login, 1);

    /* the account's token survives a restart */
    stop_server(SIGTERM);
    tc_close(&guest);
    tc_close(&other);
    start_server();
    table_client again;
    connect_as(&again, "Mei", login_token);
    ck_assert_str_eq(again.player_id, guest.player_id);
    json_decref(request_ok(&again, json_pack("{s:s}", "type", "logout"), "ok"));
    tc_close(&again);
    table_client after;
    connect_as(&after, "Mei", login_token); /* a dead token: a new guest */
    ck_assert_str_ne(after.player_id, guest.player_id);
    tc_close(&after);
    stop_server(SIGTERM);
    remove_db();
}
END_TEST

START_TEST(test_a_table_member_reads_its_history_and_replays_a_hand)
{
    fresh_db();
    start_server();
    table_client a, stranger;
    connect_as(&a, "Historian", NULL);
    table_with_bots(&a);
    char first_hand[256] = "";
    for (int i = 0; i < 500 && !first_hand[0]; i++) { /* the tiles dealt to seat 0 in hand 1 */
        json_decref(tc_next(&a, 20));
        if (a.last_view != NULL && json_array_size(json_object_get(a.last_view, "hand")) == 8)
            hand_text(a.last_view, first_hand, sizeof first_hand);
    }
    ck_assert(tc_play_until(&a, 2, 30000, true));
    json_t *second = json_incref(a.last_result);
    /* it stops playing here: a third hand may start and wait for its turn; it is not listed */

    json_t *h = request_ok(&a, json_pack("{s:s, s:s}", "type", "history", "code", a.code), "history");
    json_t *hands = json_object_get(h, "hands");
    ck_assert_int_ge(json_array_size(hands), 2); /* a 3rd may have ended at once as a natural hand */
    json_t *top = json_array_get(hands, 0);
    ck_assert_int_eq(json_integer_value(json_object_get(top, "hand")), (json_int_t)json_array_size(hands)); /* newest first */
    json_t *two = NULL;
    size_t i;
    json_t *entry;
    json_array_foreach(hands, i, entry) if (json_integer_value(json_object_get(entry, "hand")) == 2) two = entry;
    ck_assert_ptr_nonnull(two);
    ck_assert(json_equal(json_object_get(two, "net"), json_object_get(second, "net")));
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(two, "players"), 0), "player")),
                     a.player_id);
    ck_assert(json_is_true(json_object_get(json_array_get(json_object_get(two, "players"), 1), "bot")));
    json_decref(h);

    h = request_ok(&a, json_pack("{s:s, s:s, s:i}", "type", "history", "code", a.code, "before", 2), "history");
    ck_assert_int_eq(json_array_size(json_object_get(h, "hands")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(json_object_get(h, "hands"), 0), "hand")), 1);
    json_decref(h);

    json_t *r = request_ok(&a, json_pack("{s:s, s:s, s:i}", "type", "replay", "code", a.code, "hand", 1), "replay");
    ck_assert_int_eq(json_integer_value(json_object_get(r, "seat")), 0);
    json_t *frames = json_object_get(r, "frames");
    bool natural = json_is_object(json_object_get(json_object_get(json_array_get(frames, 0), "view"), "natural"));
    /* the deal and at least two tricks of four plays, or the deal alone for a natural hand */
    ck_assert_int_ge(json_array_size(frames), natural ? 1 : 9);
    char dealt[256];
    json_t *seat0 = json_pack("{s:O}", "hand",
                              json_array_get(json_object_get(json_object_get(json_array_get(frames, 0), "view"), "hands"), 0));
    hand_text(seat0, dealt, sizeof dealt); /* the deal frame: seat 0's tiles, among every seat's */
    json_decref(seat0);
    ck_assert_str_eq(dealt, first_hand);
    json_t *last_view = json_object_get(json_array_get(frames, json_array_size(frames) - 1), "view");
    ck_assert(json_is_true(json_object_get(last_view, "over")));
    json_decref(r);
    request_error(&a, json_pack("{s:s, s:s, s:i}", "type", "replay", "code", a.code, "hand", 99), "no_such_hand");

    connect_as(&stranger, "Stranger", NULL);
    /* a private table is not told apart from no table to someone not at it */
    request_error(&stranger, json_pack("{s:s, s:s}", "type", "history", "code", a.code), "no_such_table");

    /* but a finished hand's replay is open to whoever has the code (a shared link), every seat's
     * tiles shown at every step, the same frames the player gets */
    json_t *mine = request_ok(&a, json_pack("{s:s, s:s, s:i}", "type", "replay", "code", a.code, "hand", 1), "replay");
    json_t *shared = request_ok(&stranger, json_pack("{s:s, s:s, s:i}", "type", "replay", "code", a.code, "hand", 1),
                                "replay");
    ck_assert(json_is_null(json_object_get(shared, "seat")));
    ck_assert(json_equal(json_object_get(mine, "frames"), json_object_get(shared, "frames")));
    json_t *open_deal = json_object_get(json_object_get(json_array_get(json_object_get(shared, "frames"), 0), "view"), "hands");
    ck_assert_int_eq(json_array_size(open_deal), 4);
    for (size_t s = 0; s < 4; s++)
        ck_assert_int_eq(json_array_size(json_array_get(open_deal, s)), natural ? json_array_size(json_array_get(open_deal, s)) : 8);
    json_t *request = json_object_get(shared, "score_request");
    ck_assert_str_eq(json_string_value(json_object_get(request, "mode")), "replay");
    ck_assert_ptr_null(json_object_get(request, "seed"));
    json_decref(mine);
    json_decref(shared);

    /* a hand still being played is never replayed, to anyone; a number never reached, a wrong
     * code and a bad number are told apart */
    json_t *code = json_pack("{s:s, s:s}", "type", "ready", "code", a.code);
    json_decref(tc_request(&a, code, 5000)); /* the next hand may have started already */
    json_int_t running = 0;
    for (int i = 0; i < 100 && running == 0; i++) {
        json_t *mine_now = request_ok(&a, json_pack("{s:s}", "type", "my_tables"), "my_tables");
        json_t *t = json_array_get(json_object_get(mine_now, "tables"), 0);
        if (strcmp(json_string_value(json_object_get(t, "state")), "playing") == 0)
            running = json_integer_value(json_object_get(t, "hand"));
        json_decref(mine_now);
        if (running == 0)
            usleep(50 * 1000);
    }
    ck_assert_int_ge(running, 3);
    json_t *playing = tc_request(&stranger, json_pack("{s:s, s:s, s:I}", "type", "replay", "code", a.code, "hand", running),
                                 5000);
    ck_assert_str_eq(json_string_value(json_object_get(playing, "code")), "no_such_hand");
    ck_assert(json_is_true(json_object_get(playing, "playing"))); /* told apart from a number never reached */
    json_decref(playing);
    request_error(&a, json_pack("{s:s, s:s, s:I}", "type", "replay", "code", a.code, "hand", running), "no_such_hand");
    request_error(&stranger, json_pack("{s:s, s:s, s:I}", "type", "replay", "code", a.code, "hand", running + 5),
                  "no_such_hand");
    request_error(&stranger, json_pack("{s:s, s:s, s:i}", "type", "replay", "code", a.code, "hand", 0), "bad_request");
    request_error(&stranger, json_pack("{s:s, s:s, s:i}", "type", "replay", "code", "ZZZZZZ", "hand", 1),
                  "no_such_table");
    ck_assert_int_eq(a.leaks, 0);
    ck_assert_int_eq(stranger.leaks, 0);
    json_decref(second);
    tc_close(&a);
    tc_close(&stranger);
    stop_server(SIGTERM);
    remove_db();
}
END_TEST

/* The entry of my_tables' list (`tables` or `past`) for code, or NULL. */
static json_t *listed_table(json_t *reply, const char *list, const char *code)
{
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(reply, list), i, t) if (strcmp(json_string_value(json_object_get(t, "code")), code) == 0) return t;
    return NULL;
}

START_TEST(test_a_closed_tables_history_stays_with_those_who_played_there_and_its_replays_with_the_code)
{
    fresh_db();
    const char *const quick_close[] = {"--empty-table-seconds", "1", NULL};
    start_server_with(quick_close);
    table_client a, stranger;
    connect_as(&a, "Wanderer", NULL);
    table_with_bots(&a);
    ck_assert(tc_play_until(&a, 1, 30000, true));

    /* at the table: my_tables lists it with the seat, and it is among the tables played at */
    json_t *mine = request_ok(&a, json_pack("{s:s}", "type", "my_tables"), "my_tables");
    json_t *open = listed_table(mine, "tables", a.code);
    ck_assert_ptr_nonnull(open);
    ck_assert_int_eq(json_integer_value(json_object_get(open, "seat")), 0);
    ck_assert(json_is_true(json_object_get(open, "hosting")));
    ck_assert_str_eq(json_string_value(json_object_get(open, "game")), "tiengow");
    ck_assert_int_ge(json_integer_value(json_object_get(open, "hand")), 1);
    ck_assert(json_is_boolean(json_object_get(open, "your_turn")));
    json_t *played = listed_table(mine, "past", a.code);
    ck_assert_ptr_nonnull(played);
    ck_assert(json_is_false(json_object_get(played, "closed")));
    ck_assert_int_ge(json_integer_value(json_object_get(played, "hands")), 1);
    json_decref(mine);

    /* it leaves; nobody is left, and the table closes */
    table_ok(&a, json_pack("{s:s}", "type", "leave_table"));
    usleep(2500 * 1000);
    request_error(&a, json_pack("{s:s, s:s}", "type", "join_table", "code", a.code), "no_such_table");

    /* its history and a replay are still the player's, from the records */
    json_t *h = request_ok(&a, json_pack("{s:s, s:s}", "type", "history", "code", a.code), "history");
    ck_assert_int_ge(json_array_size(json_object_get(h, "hands")), 1);
    json_t *first = json_array_get(json_object_get(h, "hands"), json_array_size(json_object_get(h, "hands")) - 1);
    ck_assert_int_eq(json_integer_value(json_object_get(first, "hand")), 1);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(first, "players"), 0), "name")),
                     "Wanderer");
    json_decref(h);
    json_t *r = request_ok(&a, json_pack("{s:s, s:s, s:i}", "type", "replay", "code", a.code, "hand", 1), "replay");
    ck_assert_int_eq(json_integer_value(json_object_get(r, "seat")), 0);
    ck_assert_int_ge(json_array_size(json_object_get(r, "frames")), 1);
    json_decref(r);
    request_error(&a, json_pack("{s:s, s:s, s:i}", "type", "replay", "code", a.code, "hand", 99), "no_such_hand");
    mine = request_ok(&a, json_pack("{s:s}", "type", "my_tables"), "my_tables");
    ck_assert_ptr_null(listed_table(mine, "tables", a.code));
    played = listed_table(mine, "past", a.code);
    ck_assert_ptr_nonnull(played);
    ck_assert(json_is_true(json_object_get(played, "closed")));
    json_decref(mine);

    /* someone who never played there cannot list its history; with the code, a shared link to a
     * finished hand still opens its replay */
    connect_as(&stranger, "Stranger", NULL);
    request_error(&stranger, json_pack("{s:s, s:s}", "type", "history", "code", a.code), "no_such_table");
    r = request_ok(&stranger, json_pack("{s:s, s:s, s:i}", "type", "replay", "code", a.code, "hand", 1), "replay");
    ck_assert(json_is_null(json_object_get(r, "seat")));
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(r, "players"), 0), "name")),
                     "Wanderer");
    json_decref(r);
    request_error(&stranger, json_pack("{s:s, s:s, s:i}", "type", "replay", "code", a.code, "hand", 99), "no_such_hand");
    mine = request_ok(&stranger, json_pack("{s:s}", "type", "my_tables"), "my_tables");
    ck_assert_int_eq(json_array_size(json_object_get(mine, "tables")), 0);
    ck_assert_int_eq(json_array_size(json_object_get(mine, "past")), 0);
    json_decref(mine);
    request_error(&stranger, json_pack("{s:s, s:s, s:b}", "type", "presence", "code", a.code, "here", false),
                  "no_such_table");
    ck_assert_int_eq(a.leaks, 0);
    tc_close(&a);
    tc_close(&stranger);
    stop_server(SIGTERM);
    remove_db();
}
END_TEST

/* A database that cannot grow pauses the table: nothing half-written, every hand shown is kept,
 * and once there is room again (a restart without the quota) the table plays on. */
START_TEST(test_a_full_database_pauses_the_table_and_loses_nothing)
{
    fresh_db();
    start_server();
    stop_server(SIGTERM);
    sqlite3 *db = open_db();
    int64_t pages = query_int(db, "PRAGMA page_count", 0, 0);
    sqlite3_close(db);
    ck_assert_int_gt(pages, 0);
    char quota[32];
    snprintf(quota, sizeof quota, "%" PRId64, pages + 8);
    const char *extra[] = {"--db-max-pages", quota, NULL};
    start_server_with(extra);

    table_client a;
    connect_as(&a, "Quota", NULL);
    table_with_bots(&a);
    for (int waited = 0; waited < 90000 && a.pauses == 0; waited += 20) {
        tc_act_if_my_turn(&a, 2000);
        json_decref(tc_next(&a, 20));
    }
    json_t *shown = json_incref(a.results); /* hand number -> the result the player was shown */
    if (shown == NULL)
        shown = json_object();
    ck_assert_msg(a.pauses > 0, "the table never paused (%zu hands)", json_object_size(shown));
    ck_assert_str_eq(a.pause_store, "full");
    ck_assert_int_eq((int)metric("teahouse_tables_paused"), 1); /* operators see it too */
    ck_assert_int_ge((int)metric("teahouse_table_writes_failed_total"), 1);
    char code[16], token[80];
    snprintf(code, sizeof code, "%s", a.code);
    snprintf(token, sizeof token, "%s", a.token);
    stop_server(SIGKILL);
    tc_close(&a);

    const char *key;
    json_t *result;
    json_object_foreach(shown, key, result) check_hand_in_ledger(code, strtoll(key, NULL, 10), result);
    db = open_db();
    /* no hand has half a ledger: each finished hand has its four settle rows and sums to zero */
    ck_assert_int_eq(query_int(db,
                               "SELECT count(*) FROM hands h WHERE h.result IS NOT NULL AND ((SELECT count(*) FROM"
                               " ledger l WHERE l.hand_id = h.id AND l.reason = 'settle') <> 4 OR (SELECT sum(units)"
                               " FROM ledger l WHERE l.hand_id = h.id) <> 0)",
                               0, 0),
                     0);
    ck_assert_int_eq(query_int(db, "SELECT count(*) FROM ledger l JOIN hands h ON h.id = l.hand_id WHERE h.result IS NULL",
                               0, 0),
                     0);
    sqlite3_close(db);
    check_admin_verify();

    start_server(); /* room again */
    table_client back;
    connect_as(&back, "Quota", token);
    snprintf(back.code, sizeof back.code, "%s", code);
    ck_assert_msg(tc_play_until(&back, 1, 60000, true), "the table did not play on");
    ck_assert_int_eq(back.leaks, 0);
    stop_server(SIGTERM);
    tc_close(&back);
    json_decref(shown);
    remove_db();
}
END_TEST

/* Runs the server on a database it cannot use: it must exit 1 at once with a sentence naming the
 * file and the trouble, and leave the file as it was. */
static void expect_refusal(const char *path, const char *words)
{
    char command[1024];
    snprintf(command, sizeof command, "'%s' --port 0 --bind 127.0.0.1 --web-root '%s' --db '%s' 2>&1", binary, web_root,
             path);
    FILE *out = popen(command, "r");
    ck_assert_ptr_nonnull(out);
    char text[4096];
    size_t len = fread(text, 1, sizeof text - 1, out);
    text[len] = '\0';
    int status = pclose(out);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 1, "status %d: %s", status, text);
    ck_assert_msg(strstr(text, path) != NULL && strstr(text, words) != NULL, "want \"%s\" about %s: %s", words, path,
                  text);
}

/* Issue 14: a token-less hello stored a guest at once. Now the guest is stored when it sits down
 * (then its token resumes it after a restart, in its seat); one who only looked is not, and its
 * token after a restart is a new guest. */
START_TEST(test_a_guest_who_sat_down_resumes_after_a_restart_and_one_who_only_looked_starts_afresh)
{
    fresh_db();
    start_server();
    table_client sitter, looker;
    connect_as(&sitter, "Sitter", NULL);
    connect_as(&looker, "Looker", NULL);
    json_decref(request_ok(&looker, json_pack("{s:s}", "type", "list_tables"), "tables"));
    sqlite3 *db = open_db();
    ck_assert_int_eq(query_int(db, "SELECT count(*) FROM players", 0, 0), 0);
    sqlite3_close(db);
    table_with_bots(&sitter);
    ck_assert_msg(tc_play_until(&sitter, 1, 60000, true), "the hand did not end");
    char sitter_token[80], sitter_id[16], looker_token[80], looker_id[16], code[16];
    ck_assert_str_eq(looker.player_id, "p2");
    snprintf(sitter_token, sizeof sitter_token, "%s", sitter.token);
    snprintf(sitter_id, sizeof sitter_id, "%s", sitter.player_id);
    snprintf(looker_token, sizeof looker_token, "%s", looker.token);
    snprintf(looker_id, sizeof looker_id, "%s", looker.player_id);
    snprintf(code, sizeof code, "%s", sitter.code);
    db = open_db();
    ck_assert_int_eq(query_int(db, "SELECT count(*) FROM players", 0, 0), 1);
    ck_assert_int_eq(query_int(db, "SELECT count(*) FROM sessions", 0, 0), 1);
    sqlite3_close(db);
    tc_close(&sitter);
    tc_close(&looker);
    stop_server(SIGTERM);

    start_server();
    table_client back, again;
    connect_as(&back, "Sitter", sitter_token);
    ck_assert_str_eq(back.player_id, sitter_id);
    snprintf(back.code, sizeof back.code, "%s", code);
    json_t *snap = request_ok(&back, json_pack("{s:s, s:s}", "type", "join_table", "code", code), "snapshot");
    ck_assert_int_eq(json_integer_value(json_object_get(snap, "seat")), 0); /* still in its seat */
    json_decref(snap);
    connect_as(&again, "Looker", looker_token);
    ck_assert_str_ne(again.token, looker_token); /* a new guest (its id may be the old one: never stored) */
    ck_assert_str_ne(again.player_id, sitter_id);
    ck_assert_str_eq(again.player_id, looker_id);
    tc_close(&back);
    tc_close(&again);
    stop_server(SIGTERM);
    check_admin_verify();
    remove_db();
}
END_TEST

/* Runs `teahouse admin verify` with extra arguments; its exit status, and its output in out. */
static int admin_verify(const char *extra, char *out, size_t cap)
{
    char command[1024];
    snprintf(command, sizeof command, "'%s' admin verify --db '%s' %s 2>&1", binary, db_path, extra);
    FILE *f = popen(command, "r");
    ck_assert_ptr_nonnull(f);
    size_t len = fread(out, 1, cap - 1, f);
    out[len] = '\0';
    int status = pclose(f);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Issue 14: anyone who could write the database could move units and rehash the chain. The
 * ledger is keyed with a file beside it, made 0600 at the first start; the server refuses one
 * that others may read, and `teahouse admin verify` says plainly when it is missing. */
START_TEST(test_the_ledger_key_is_made_0600_and_admin_verify_needs_it)
{
    fresh_db();
    start_server();
    table_client a;
    connect_as(&a, "Keyed", NULL);
    table_with_bots(&a);
    ck_assert_msg(tc_play_until(&a, 1, 60000, true), "the hand did not end");
    tc_close(&a);
    stop_server(SIGTERM);
    char key[sizeof db_path + 8], moved[176], out[2048];
    snprintf(key, sizeof key, "%s.key", db_path);
    snprintf(moved, sizeof moved, "%s/elsewhere.key", db_dir);
    struct stat sb;
    ck_assert_int_eq(stat(key, &sb), 0);
    ck_assert_int_eq(sb.st_mode & 0777, 0600);
    ck_assert_int_eq(admin_verify("", out, sizeof out), 0);

    ck_assert_int_eq(rename(key, moved), 0);
    ck_assert_int_eq(admin_verify("", out, sizeof out), 1);
    ck_assert_msg(strstr(out, "missing") != NULL && strstr(out, key) != NULL, "%s", out);
    char flag[200];
    snprintf(flag, sizeof flag, "--ledger-key '%s'", moved);
    ck_assert_msg(admin_verify(flag, out, sizeof out) == 0, "%s", out);
    expect_refusal(db_path, "missing"); /* nor does the server make a new key for a keyed ledger */

    ck_assert_int_eq(rename(moved, key), 0);
    ck_assert_int_eq(chmod(key, 0644), 0);
    expect_refusal(db_path, "chmod 600");
    ck_assert_int_eq(admin_verify("", out, sizeof out), 1);
    ck_assert_msg(strstr(out, "0644") != NULL, "%s", out);
    ck_assert_int_eq(chmod(key, 0600), 0);
    start_server();
    stop_server(SIGTERM);
    remove_db();
    unlink(moved);
}
END_TEST

START_TEST(test_a_database_it_cannot_use_stops_the_server_with_a_clear_message)
{
    fresh_db();
    FILE *f = fopen(db_path, "w"); /* not a database at all */
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < 400; i++)
        fputs("these are not the pages of a database\n", f);
    fclose(f);
    expect_refusal(db_path, "not a teahouse database");
    f = fopen(db_path, "r");
    char head[16] = "";
    ck_assert_int_eq(fread(head, 1, 5, f), 5);
    fclose(f);
    ck_assert_str_eq(head, "these"); /* left as it was */
    remove_db();

    /* a directory where no file can be made (sysfs refuses even root) */
    expect_refusal("/sys/teahouse-test.db", "directory");

    /* a database locked by another process: refused after the busy timeout, not corrupted */
    fresh_db();
    start_server();
    stop_server(SIGTERM);
    sqlite3 *other = NULL;
    ck_assert_int_eq(sqlite3_open(db_path, &other), SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(other, "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK);
    expect_refusal(db_path, "locked by another process");
    sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(other);
    start_server(); /* and once free, it opens */

    /* a second server on the same database is refused while the first serves it */
    expect_refusal(db_path, "another teahouse is serving the database");
    stop_server(SIGTERM);
    start_server(); /* the lock went with the first server */
    stop_server(SIGTERM);
    remove_db();
}
END_TEST

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s TEAHOUSE WEB_ROOT\n", argv[0]);
        return 2;
    }
    binary = argv[1];
    web_root = argv[2];
    Suite *suite = suite_create("persistence");
    TCase *tc = tcase_create("persistence");
    tcase_set_timeout(tc, 120);
    use_pg = pg_test_base() != NULL;
    if (use_pg) {
        /* On PostgreSQL: restarts and kill -9, accounts and history, through the real server. */
        tcase_add_test(tc, test_a_hand_continues_after_sigterm_with_the_same_tiles);
        tcase_add_test(tc, test_a_hand_continues_after_kill_9);
        tcase_add_test(tc, test_accounts_register_login_logout);
        tcase_add_test(tc, test_a_table_member_reads_its_history_and_replays_a_hand);
        tcase_add_test(tc, test_a_closed_tables_history_stays_with_those_who_played_there_and_its_replays_with_the_code);
        tcase_add_test(tc, test_a_restart_keeps_the_hosts_options_hold_and_watchers_chat_and_each_hand_its_own_stake);
        suite_add_tcase(suite, tc);
        SRunner *runner = srunner_create(suite);
        srunner_run_all(runner, CK_NORMAL);
        int failed = srunner_ntests_failed(runner);
        srunner_free(runner);
        return failed == 0 ? 0 : 1;
    }
    tcase_add_test(tc, test_a_hand_continues_after_sigterm_with_the_same_tiles);
    tcase_add_test(tc, test_a_hand_continues_after_kill_9);
    tcase_add_test(tc, test_every_settled_hand_is_in_the_ledger_with_the_nets_shown);
    tcase_add_test(tc, test_with_full_durability_too);
    tcase_add_test(tc, test_accounts_register_login_logout);
    tcase_add_test(tc, test_a_table_member_reads_its_history_and_replays_a_hand);
    tcase_add_test(tc, test_a_closed_tables_history_stays_with_those_who_played_there_and_its_replays_with_the_code);
    tcase_add_test(tc, test_a_full_database_pauses_the_table_and_loses_nothing);
    tcase_add_test(tc, test_a_database_it_cannot_use_stops_the_server_with_a_clear_message);
    tcase_add_test(tc, test_a_guest_who_sat_down_resumes_after_a_restart_and_one_who_only_looked_starts_afresh);
    tcase_add_test(tc, test_the_ledger_key_is_made_0600_and_admin_verify_needs_it);
    tcase_add_test(tc, test_a_restart_keeps_the_hosts_options_hold_and_watchers_chat_and_each_hand_its_own_stake);
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? 0 : 1;
}
