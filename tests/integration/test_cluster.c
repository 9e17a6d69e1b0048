/*
 * test_cluster — several teahouse nodes on one PostgreSQL database (server/cluster/): each node
 * registers and heartbeats, a table belongs to the node that made it under a lease, and when that
 * node is killed (kill -9, mid-hand) or drained (SIGTERM) exactly one other node takes the table over within the lease
 * and reopens it as a restart does: the player resumes there with the same seat and tiles, the
 * hand settles once, and the ledger verifies. Tables are listed and joined through any node
 * (their node's listing), played or not, and go from the others' lists when their node stops.
 *
 *   test_cluster TEAHOUSE WEB_ROOT   (beside tests/pg/with_cluster.sh; the node cases are skipped
 *                                     without TEAHOUSE_TEST_PG, the flag cases always run)
 */
#include <check.h>
#include <inttypes.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "store_test_pg.h"

#include "server_process.h"
#include "table_client.h"

#define NODES 3
#define LEASE "3" /* seconds: a takeover comes within LEASE + a heartbeat (2 s) */

static const char *binary;
static const char *web_root;
static server_process nodes[NODES];
static bool node_running[NODES];
static char db_dir[64];
static char db_uri[512];
static char pg_name[64];
static char key_path[96];

static const char *node_name(int i)
{
    static const char *const names[NODES] = {"n1", "n2", "n3"};
    return names[i];
}

static void fresh_db(void)
{
    snprintf(db_dir, sizeof db_dir, "/tmp/teahouse-cluster-XXXXXX");
    ck_assert(mkdtemp(db_dir) != NULL);
    snprintf(key_path, sizeof key_path, "%s/ledger.key", db_dir);
    pg_test_create(pg_name, sizeof pg_name, db_uri, sizeof db_uri);
}

static void remove_db(void)
{
    pg_test_drop(pg_name);
    unlink(key_path);
    rmdir(db_dir);
}

static void start_node(int i)
{
    const char *args[] = {"--bot-delay-ms", "5", "--next-hand-seconds", "0", "--web-root", web_root,
                          "--db", db_uri, "--ledger-key", key_path, "--node-id", node_name(i),
                          "--lease-seconds", LEASE, NULL};
    ck_assert_msg(server_process_start(&nodes[i], binary, args, 10000), "node %s did not start", node_name(i));
    node_running[i] = true;
}

static void stop_node(int i, int signum)
{
    int status = 0;
    bool stopped = server_process_stop(&nodes[i], signum, 10000, &status);
    bool clean = stopped && (signum != SIGTERM || (WIFEXITED(status) && WEXITSTATUS(status) == 0));
    if (!clean) {
        char *log = server_process_log(&nodes[i]);
        fprintf(stderr, "node %s log:\n%s\n", node_name(i), log != NULL ? log : "");
        free(log);
    }
    ck_assert_msg(clean, "node %s did not stop cleanly (status 0x%x)", node_name(i), status);
    server_process_cleanup(&nodes[i]);
    node_running[i] = false;
}

/* One after the other: the first migrates the database and writes the ledger's key record. */
static void start_nodes(int n)
{
    for (int i = 0; i < n; i++)
        start_node(i);
}

static const char *type_of(const json_t *frame) { return json_string_value(json_object_get(frame, "type")); }

static json_t *request_ok(table_client *c, json_t *message, const char *want_type)
{
    json_t *reply = tc_request(c, message, 5000);
    ck_assert_msg(reply != NULL, "no answer");
    char *text = json_dumps(reply, JSON_COMPACT);
    ck_assert_msg(type_of(reply) != NULL && strcmp(type_of(reply), want_type) == 0, "want %s, got %s", want_type, text);
    free(text);
    return reply;
}

static void table_ok(table_client *c, json_t *message)
{
    json_object_set_new(message, "code", json_string(c->code));
    json_decref(request_ok(c, message, "ok"));
}

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

static void connect_to(table_client *c, int node, const char *name, const char *token)
{
    bool ok = false;
    for (int attempt = 0; attempt < 50 && !ok; attempt++) {
        ok = tc_connect(c, nodes[node].host, nodes[node].port, name, token);
        if (!ok)
            usleep(100 * 1000);
    }
    ck_assert_msg(ok, "%s could not connect to %s", name, node_name(node));
}

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

/* Acts until the view is at least `actions` trick plays into hand `hand` (or a later one). */
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

static long long db_int(const char *format, const char *code, long long number)
{
    char sql[512];
    snprintf(sql, sizeof sql, format, code, number);
    return pg_test_int(db_uri, sql);
}

/* The node owning the open table `code`: its index, -1 for none of ours. */
static int owner_of(const char *code)
{
    char sql[256];
    for (int i = 0; i < NODES; i++) {
        snprintf(sql, sizeof sql,
                 "SELECT count(*) FROM game_tables WHERE code = '%s' AND state <> 'closed' AND owner_node = '%s'", code,
                 node_name(i));
        if (pg_test_int(db_uri, sql) == 1)
            return i;
    }
    return -1;
}

/* owner_of once the table's row is written (the store writes after it answers): -1 after 5 s. */
static int owner_once_stored(const char *code)
{
    int owner = owner_of(code);
    for (int i = 0; i < 50 && owner < 0; i++) {
        usleep(100 * 1000);
        owner = owner_of(code);
    }
    return owner;
}

static bool log_has(int node, const char *text)
{
    char *log = server_process_log(&nodes[node]);
    bool has = log != NULL && strstr(log, text) != NULL;
    free(log);
    return has;
}

static void check_admin_verify(void)
{
    char command[1024];
    snprintf(command, sizeof command, "'%s' admin verify --db '%s' --ledger-key '%s' >/dev/null 2>&1", binary,
             db_uri, key_path);
    int status = system(command);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "teahouse admin verify failed (status %d)", status);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* --- the tests --- */

START_TEST(test_every_node_registers_heartbeats_owns_its_tables_and_sends_joiners_to_the_owner)
{
    fresh_db();
    start_nodes(2);
    table_client a;
    connect_to(&a, 1, "Ah Ma", NULL);
    table_with_bots(&a);
    ck_assert_int_eq(owner_once_stored(a.code), 1);
    ck_assert_int_eq(pg_test_int(db_uri, "SELECT count(*) FROM nodes WHERE id IN ('n1', 'n2')"), 2);
    ck_assert_int_eq(pg_test_int(db_uri, "SELECT count(*) FROM nodes WHERE address = '/n/n2/ws'"), 1);
    /* the lease (the node's, holding its tables) is renewed: after twice its length it is still
     * in the future */
    sleep(2 * atoi(LEASE));
    ck_assert_int_eq(pg_test_int(db_uri, "SELECT count(*) FROM nodes WHERE id = 'n2' AND lease_until > now()"), 1);
    ck_assert_int_eq(pg_test_int(db_uri, "SELECT count(*) FROM nodes WHERE heartbeat_at > now() - interval '3 s'"), 2);
    ck_assert_int_eq(owner_of(a.code), 1); /* the other node did not take a table whose lease holds */

    /* a private table joined through the other node: told where it lives, and gets in there */
    table_client b;
    connect_to(&b, 0, "Bo", NULL);
    json_t *moved = request_ok(&b, json_pack("{s:s, s:s}", "type", "join_table", "code", a.code), "moved");
    ck_assert_str_eq(json_string_value(json_object_get(moved, "table")), a.code);
    ck_assert_str_eq(json_string_value(json_object_get(moved, "node")), "n2");
    ck_assert_str_eq(json_string_value(json_object_get(moved, "ws")), "/n/n2/ws");
    json_decref(moved);
    json_t *nothing = request_ok(&b, json_pack("{s:s, s:s}", "type", "join_table", "code", "ZZZZZZ"), "error");
    ck_assert_str_eq(json_string_value(json_object_get(nothing, "code")), "no_such_table");
    json_decref(nothing);
    char token[80];
    snprintf(token, sizeof token, "%s", b.token);
    tc_close(&b);
    connect_to(&b, 1, "Bo", token); /* the same player (tokens are the shared store's) */
    json_decref(request_ok(&b, json_pack("{s:s, s:s}", "type", "join_table", "code", a.code), "snapshot"));
    tc_close(&b);
    tc_close(&a);
    stop_node(1, SIGTERM);
    stop_node(0, SIGTERM);
    remove_db();
}
END_TEST

/* n1 makes a table and plays into its second hand; n1 stops with signum; the table must come
 * back on exactly one of n2 and n3 within the lease, the player resumes there and the hand
 * settles once. */
static void take_over_after(int signum)
{
    fresh_db();
    start_nodes(NODES);
    table_client a;
    connect_to(&a, 0, "Ah Ma", NULL);
    table_with_bots(&a);
    ck_assert_int_eq(owner_once_stored(a.code), 0);
    ck_assert(tc_play_until(&a, 1, 30000, true));
    int mid = play_into_hand(&a, 2, 6);
    char before[256], token[80], code[16];
    hand_text(a.last_view, before, sizeof before);
    snprintf(token, sizeof token, "%s", a.token);
    snprintf(code, sizeof code, "%s", a.code);
    long long seq_before = a.last_seq;

    stop_node(0, signum);
    tc_close(&a);
    const double killed = now_seconds();
    int owner = -1;
    while (owner <= 0 && now_seconds() - killed < atoi(LEASE) + 4) {
        usleep(100 * 1000);
        owner = owner_of(code);
    }
    if (owner <= 0) {
        char *log = server_process_log(&nodes[1]);
        fprintf(stderr, "node n2 log:\n%s\n", log != NULL ? log : "");
        free(log);
    }
    ck_assert_msg(owner > 0, "no node took the table over within %.1f s", now_seconds() - killed);
    /* exactly one node took it and opened it */
    for (int wait = 0; wait < 50 && !log_has(owner, "taken over and reopened"); wait++)
        usleep(100 * 1000);
    ck_assert(log_has(owner, "1 table(s) taken over and reopened"));
    ck_assert(!log_has(owner == 1 ? 2 : 1, "took over"));

    table_client back;
    connect_to(&back, owner, "Ah Ma", token);
    snprintf(back.code, sizeof back.code, "%s", code);
    for (int i = 0; i < 250 && back.last_view == NULL; i++)
        json_decref(tc_next(&back, 20));
    ck_assert_msg(back.last_view != NULL, "no snapshot after resuming on the new owner");
    ck_assert_msg(back.last_seq > seq_before, "seq went back from %lld to %lld", seq_before, back.last_seq);
    ck_assert_int_eq(back.seat, 0);
    char after[256];
    hand_text(back.last_view, after, sizeof after);
    /* a move of its own may have been stored but not shown: the tiles are those or fewer */
    for (char *tile = strtok(after, " "); tile != NULL; tile = strtok(NULL, " "))
        ck_assert_msg(strstr(before, tile) != NULL, "tile %s was not in the hand before (%s)", tile, before);
    ck_assert(tc_play_until(&back, 1, 30000, true));
    ck_assert_int_eq(back.leaks, 0);
    const json_t *net = json_object_get(back.last_result, "net");
    ck_assert_ptr_nonnull(net);

    /* the hand settled once: one finished row of that number, its ledger zero-sum, four entries */
    const char *hand_q = "SELECT count(*) FROM hands h JOIN game_tables t ON t.id = h.table_id"
                         " WHERE t.code = '%s' AND h.number = %lld";
    ck_assert_int_eq(db_int(hand_q, code, mid), 1);
    ck_assert_int_eq(db_int("SELECT count(*) FROM ledger l JOIN hands h ON h.id = l.hand_id JOIN game_tables t"
                            " ON t.id = h.table_id WHERE t.code = '%s' AND h.number = %lld AND l.reason = 'settle'",
                            code, mid),
                     4);
    ck_assert_int_eq(db_int("SELECT coalesce(sum(l.units), 1) FROM ledger l JOIN hands h ON h.id = l.hand_id"
                            " JOIN game_tables t ON t.id = h.table_id WHERE t.code = '%s' AND h.number = %lld",
                            code, mid),
                     0);
    for (int s = 0; s < 4; s++) {
        char q[512];
        snprintf(q, sizeof q,
                 "SELECT coalesce(sum(l.units), 0) FROM ledger l JOIN hands h ON h.id = l.hand_id JOIN game_tables t"
                 " ON t.id = h.table_id WHERE t.code = '%%s' AND h.number = %%lld AND l.seat = %d",
                 s);
        ck_assert_int_eq(db_int(q, code, mid), json_integer_value(json_array_get(net, (size_t)s)));
    }
    tc_close(&back);
    for (int i = 1; i < NODES; i++)
        stop_node(i, SIGTERM);
    check_admin_verify();
    remove_db();
}

START_TEST(test_a_killed_nodes_table_is_taken_over_by_exactly_one_node_with_the_same_seats_and_tiles)
{
    take_over_after(SIGKILL);
}
END_TEST

START_TEST(test_a_drained_nodes_parked_table_is_taken_over_and_its_hand_goes_on)
{
    take_over_after(SIGTERM);
}
END_TEST

/* --- flags (no database needed) --- */

static int run_flags(const char *node_id, const char *db)
{
    char command[1024];
    snprintf(command, sizeof command, "'%s' --port 0 --metrics-port 0 --db '%s' --node-id '%s' >/dev/null 2>&1",
             binary, db, node_id);
    int status = system(command);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Whether node c's public list shows `code` (list_tables, one page of 50). */
static bool listed_on(table_client *c, const char *code)
{
    json_t *page = request_ok(c, json_pack("{s:s}", "type", "list_tables"), "tables");
    bool found = false;
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(page, "tables"), i, t) found |= strcmp(json_string_value(json_object_get(t, "code")), code) == 0;
    json_decref(page);
    return found;
}

/* Asks c's node to join `code` until the answer is of type want (at most 6 s: a listing is a
 * second and a heartbeat old); returns that answer. */
static json_t *join_until(table_client *c, const char *code, const char *want)
{
    for (int i = 0; i < 60; i++) {
        json_t *reply = tc_request(c, json_pack("{s:s, s:s}", "type", "join_table", "code", code), 5000);
        ck_assert_msg(reply != NULL, "no answer");
        if (strcmp(type_of(reply), want) == 0)
            return reply;
        if (i == 59) {
            char *text = json_dumps(reply, JSON_COMPACT);
            fprintf(stderr, "join_table %s: the last answer was %s\n", code, text);
            free(text);
        }
        json_decref(reply);
        usleep(100 * 1000);
    }
    ck_abort_msg("join_table %s was never answered %s", code, want);
    return NULL;
}

START_TEST(test_tables_that_never_played_are_listed_and_joined_through_any_node_and_go_with_their_node)
{
    fresh_db();
    start_nodes(2);
    table_client a, b;
    connect_to(&a, 1, "Ah Ma", NULL);
    json_t *made = request_ok(&a, json_pack("{s:s, s:s, s:{}, s:b}", "type", "create_table", "game", "tianjin",
                                            "options", "public", true),
                              "snapshot");
    char open_code[32], private_code[32];
    snprintf(open_code, sizeof open_code, "%s", json_string_value(json_object_get(made, "table")));
    json_decref(made);
    made = request_ok(&a, json_pack("{s:s, s:s, s:{}, s:b}", "type", "create_table", "game", "tiengow", "options",
                                    "public", false),
                      "snapshot");
    snprintf(private_code, sizeof private_code, "%s", json_string_value(json_object_get(made, "table")));
    json_decref(made);
    /* neither is stored (a table is kept from its first hand): only the listing knows them */
    ck_assert_int_eq(owner_of(open_code), -1);

    connect_to(&b, 0, "Bo", NULL);
    bool seen = false;
    for (int i = 0; i < 60 && !seen; i++) {
        seen = listed_on(&b, open_code);
        if (!seen)
            usleep(100 * 1000);
    }
    ck_assert_msg(seen, "n1's public list never showed n2's table %s", open_code);
    ck_assert(!listed_on(&b, private_code)); /* a private table is never listed */
    json_t *moved = join_until(&b, private_code, "moved");
    ck_assert_str_eq(json_string_value(json_object_get(moved, "node")), "n2");
    ck_assert_str_eq(json_string_value(json_object_get(moved, "ws")), "/n/n2/ws");
    json_decref(moved);
    char token[80], bo[16];
    snprintf(token, sizeof token, "%s", b.token);
    snprintf(bo, sizeof bo, "%s", b.player_id);
    tc_close(&b);
    connect_to(&b, 1, "Bo", token);
    ck_assert_str_eq(b.player_id, bo); /* the same guest on n2: stored before it was sent there */
    json_t *in = request_ok(&b, json_pack("{s:s, s:s, s:i}", "type", "join_table", "code", private_code, "seat", 1),
                            "snapshot");
    json_decref(in);
    tc_close(&b);
    tc_close(&a);

    /* n2 drains: its tables leave n1's list at once (its listing is emptied as it stops) */
    stop_node(1, SIGTERM);
    connect_to(&b, 0, "Bo", token);
    bool gone = false;
    for (int i = 0; i < 40 && !gone; i++) {
        gone = !listed_on(&b, open_code);
        if (!gone)
            usleep(100 * 1000);
    }
    ck_assert_msg(gone, "n1 still lists the table of a node that stopped");
    json_t *nothing = join_until(&b, private_code, "error");
    ck_assert_str_eq(json_string_value(json_object_get(nothing, "code")), "no_such_table");
    json_decref(nothing);
    tc_close(&b);
    stop_node(0, SIGTERM);
    remove_db();
}
END_TEST

START_TEST(test_guests_made_on_different_nodes_get_different_ids_and_are_all_stored)
{
    fresh_db();
    start_nodes(3);
    /* a new guest on each node makes a table (which stores the guest): no two share an id */
    table_client c[NODES];
    for (int i = 0; i < NODES; i++) {
        connect_to(&c[i], i, "Guest", NULL);
        json_decref(request_ok(&c[i], json_pack("{s:s, s:s, s:{}, s:b}", "type", "create_table", "game", "tiengow",
                                                "options", "public", false),
                               "snapshot"));
        json_decref(request_ok(&c[i], json_pack("{s:s}", "type", "ping"), "pong"));
    }
    for (int tries = 0; tries < 50 && pg_test_int(db_uri, "SELECT count(*) FROM players") < NODES; tries++)
        usleep(100 * 1000);
    ck_assert_int_eq(pg_test_int(db_uri, "SELECT count(*) FROM players"), NODES);
    ck_assert_int_eq(pg_test_int(db_uri, "SELECT count(DISTINCT id % 1024) FROM players"), NODES);
    for (int i = 0; i < NODES; i++) {
        ck_assert_msg(strcmp(c[i].player_id, c[(i + 1) % NODES].player_id) != 0, "two nodes gave %s", c[i].player_id);
        tc_close(&c[i]);
    }
    for (int i = NODES - 1; i >= 0; i--)
        stop_node(i, SIGTERM);
    remove_db();
}
END_TEST

/* Runs sql as node `node` would (its connection option named): the SQLSTATE of its failure, or "". */
static void run_as_node(const char *node, const char *sql, char *state, size_t cap)
{
    PGconn *c = pg_test_connect(db_uri);
    char set[128];
    snprintf(set, sizeof set, "SET teahouse.node = '%s'", node);
    PQclear(PQexec(c, set));
    PGresult *r = PQexec(c, sql);
    const char *code = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    snprintf(state, cap, "%s", PQresultStatus(r) == PGRES_COMMAND_OK || code == NULL ? "" : code);
    PQclear(r);
    PQfinish(c);
}

START_TEST(test_a_node_that_stalled_past_its_leases_lets_its_taken_tables_go_and_its_late_writes_are_refused)
{
    fresh_db();
    start_nodes(2);
    table_client a;
    connect_to(&a, 0, "Ah Ma", NULL);
    table_with_bots(&a);
    ck_assert_int_eq(owner_once_stored(a.code), 0);
    ck_assert(tc_play_until(&a, 1, 30000, true));
    int mid = play_into_hand(&a, 2, 6);
    char token[80], code[16];
    snprintf(token, sizeof token, "%s", a.token);
    snprintf(code, sizeof code, "%s", a.code);

    ck_assert_int_eq(kill(nodes[0].pid, SIGSTOP), 0); /* n1 stalls: no heartbeat, no writes */
    const double stalled = now_seconds();
    while (owner_of(code) != 1 && now_seconds() - stalled < atoi(LEASE) + 5)
        usleep(100 * 1000);
    ck_assert_msg(owner_of(code) == 1, "n2 did not take the table over");

    /* a write of n1's to the table is refused now; n2's, and a connection naming no node, are not */
    char sql[256], state[8];
    snprintf(sql, sizeof sql, "UPDATE game_tables SET updated_at = updated_at WHERE code = '%s'", code);
    run_as_node("n1", sql, state, sizeof state);
    ck_assert_str_eq(state, "TH001");
    snprintf(sql, sizeof sql,
             "INSERT INTO hand_actions (hand_id, seq, seat, action, at) SELECT h.id, 100000, 0, '{}', 0 FROM hands h"
             " JOIN game_tables t ON t.id = h.table_id WHERE t.code = '%s' AND h.number = %d",
             code, mid);
    run_as_node("n1", sql, state, sizeof state);
    ck_assert_str_eq(state, "TH001");
    snprintf(sql, sizeof sql, "UPDATE game_tables SET updated_at = updated_at WHERE code = '%s'", code);
    run_as_node("n2", sql, state, sizeof state);
    ck_assert_str_eq(state, "");

    /* n1 wakes: within a heartbeat it lets the table go, and tells its player, who joins it on n2 */
    ck_assert_int_eq(kill(nodes[0].pid, SIGCONT), 0);
    bool parked = false;
    for (int i = 0; i < 300 && !parked; i++) {
        json_t *frame = tc_next(&a, 20);
        const json_t *event = json_object_get(frame, "event");
        parked = json_is_string(json_object_get(event, "kind")) &&
                 strcmp(json_string_value(json_object_get(event, "kind")), "parked") == 0;
        json_decref(frame);
    }
    ck_assert_msg(parked, "n1 did not let the table go after waking");
    ck_assert(log_has(0, "1 table(s) let go"));
    /* at once: the node that let it go says where it went (it need not wait for n2's listing) */
    json_t *moved = request_ok(&a, json_pack("{s:s, s:s}", "type", "join_table", "code", code), "moved");
    ck_assert_str_eq(json_string_value(json_object_get(moved, "node")), "n2");
    json_decref(moved);
    tc_close(&a);

    table_client back;
    connect_to(&back, 1, "Ah Ma", token);
    snprintf(back.code, sizeof back.code, "%s", code);
    json_decref(request_ok(&back, json_pack("{s:s, s:s}", "type", "join_table", "code", code), "snapshot"));
    ck_assert(tc_play_until(&back, 1, 30000, true));
    ck_assert_int_eq(back.leaks, 0);
    ck_assert_int_eq(db_int("SELECT count(*) FROM hands h JOIN game_tables t ON t.id = h.table_id"
                            " WHERE t.code = '%s' AND h.number = %lld AND h.finished_at IS NOT NULL",
                            code, mid),
                     1);
    ck_assert_int_eq(db_int("SELECT count(*) FROM ledger l JOIN hands h ON h.id = l.hand_id JOIN game_tables t"
                            " ON t.id = h.table_id WHERE t.code = '%s' AND h.number = %lld AND l.reason = 'settle'",
                            code, mid),
                     4);
    tc_close(&back);
    stop_node(1, SIGTERM);
    stop_node(0, SIGTERM);
    check_admin_verify();
    remove_db();
}
END_TEST

START_TEST(test_a_bad_node_id_or_a_node_on_sqlite_is_refused_before_anything_starts)
{
    ck_assert_int_eq(run_flags("bad id", "postgresql:///nothing?host=/nonexistent"), 2);
    ck_assert_int_eq(run_flags("n_1", "postgresql:///nothing?host=/nonexistent"), 2);
    ck_assert_int_eq(run_flags("a23456789012345678901234567890123", "postgresql:///nothing?host=/nonexistent"), 2);
    ck_assert_int_eq(run_flags("n1", "/tmp/teahouse-cluster-never.db"), 2);
    ck_assert_int_eq(access("/tmp/teahouse-cluster-never.db", F_OK), -1); /* nothing was created */
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
    Suite *suite = suite_create("cluster");
    TCase *tc = tcase_create("cluster");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_a_bad_node_id_or_a_node_on_sqlite_is_refused_before_anything_starts);
    if (pg_test_base() != NULL) {
        tcase_add_test(tc, test_every_node_registers_heartbeats_owns_its_tables_and_sends_joiners_to_the_owner);
        tcase_add_test(tc, test_tables_that_never_played_are_listed_and_joined_through_any_node_and_go_with_their_node);
        tcase_add_test(tc, test_guests_made_on_different_nodes_get_different_ids_and_are_all_stored);
        tcase_add_test(tc, test_a_node_that_stalled_past_its_leases_lets_its_taken_tables_go_and_its_late_writes_are_refused);
        tcase_add_test(tc, test_a_killed_nodes_table_is_taken_over_by_exactly_one_node_with_the_same_seats_and_tiles);
        tcase_add_test(tc, test_a_drained_nodes_parked_table_is_taken_over_and_its_hand_goes_on);
    }
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? 0 : 1;
}
