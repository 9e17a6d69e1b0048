/*
 * test_crash — kill -9 the real teahouse server again and again while tables play, restart it
 * on the same database, and check that nothing a client was shown was lost or changed.
 *
 * Several private tables play on their own threads (crash_player): Tien Gow tables with one test
 * client at seat 0 and three bots, and (by default every other table) Tianjin tables with four
 * test clients, since a Tianjin bot waits out every claim window; a spectator watches one table
 * of each game. The test kills the server at random moments (some
 * while the clients are still resuming, most during play), restarts it on the same file and the
 * same port, and the clients resume with their tokens. At the end the server is stopped with
 * SIGTERM and the database is checked (crash_check, and `teahouse admin verify` for the hash
 * chain), and every finished hand is replayed through the calculator (crash_score). The figures
 * are printed; the run takes well under a minute.
 *
 * The cluster run (--nodes, the meson test crash_nodes beside tests/pg/with_cluster.sh) does the
 * same with three nodes on one PostgreSQL database (protocol/PROTOCOL.md, "Several nodes"), with a
 * short lease: the tables are made on every node, and a random node (never the last one up) is
 * killed with -9 again and again mid-play and started again a few seconds later, so its tables
 * are taken over by another node, or reclaimed by itself when it is back first. Each client
 * talks to the nodes as if through the house's proxy (--trusted-proxy, an address of its own in
 * X-Forwarded-For); when its node dies it connects to any node that is up, resumes with its token
 * and joins its table, following `moved` (the node's address /n/NAME/ws mapped to its port).
 * At the end, with every node up, every table must be open once, owned by a live node under a
 * lease that holds, the very node its clients play on; then the same store checks, `teahouse
 * admin verify --db postgresql://…` and the calculator run on the PostgreSQL database.
 *
 * Usage: test_crash PATH_TO_TEAHOUSE WEB_ROOT PATH_TO_TEAHOUSE_SCORE
 *        test_crash --nodes PATH_TO_TEAHOUSE WEB_ROOT PATH_TO_TEAHOUSE_SCORE   (needs
 *            TEAHOUSE_TEST_PG, which tests/pg/with_cluster.sh sets; exits 77, skipped, without)
 *        test_crash --score-only DB PATH_TO_TEAHOUSE_SCORE   (the calculator check of a kept
 *                                                              database, or a tampered copy)
 * Environment: CRASH_SEED (to repeat a run's kill delays), CRASH_KILLS (default 24; 10 of nodes),
 * CRASH_TABLES (default 8; 6 in a cluster run), CRASH_GAMES (mix, the default: odd tables are
 * Tianjin; tiengow; tianjin), CRASH_DURABILITY (passed as --durability when set),
 * CRASH_KEEP=1 (keep the database directory even when the run passes; a cluster run's PostgreSQL
 * database too, until tests/pg/with_cluster.sh removes its cluster), CRASH_TRACE=1 (print
 * every frame each client sends and receives), CRASH_GUESTS_ANYWHERE=0 (a cluster run: make
 * each guest on its table's node, one node after the other, rather than on any node; see
 * first_node).
 */
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>

#include <libpq-fe.h>

#include "crash_check.h"
#include "crash_player.h"
#include "crash_score.h"
#include "server_process.h"

#define MAX_TABLES 32
#define MAX_PLAYERS (MAX_TABLES * CRASH_SEATS + 2) /* four clients a Tianjin table, two spectators */
#define START_MS 30000        /* a server (ASan, recovering every table) listens within this */
#define PLAYERS_BACK_MS 20000 /* every client has resumed within this after a restart */
#define FINAL_HANDS 2         /* hands each Tien Gow table finishes after the last restart */
#define FINAL_HANDS_TIANJIN 1 /* and each Tianjin table (some seconds each: four players at the rate limit) */
#define FINAL_HANDS_MS 60000
#define STOP_MS 20000

typedef struct crash_run {
    const char *binary, *web_root, *score_binary;
    const char *games;      /* mix, tiengow or tianjin */
    const char *durability; /* NULL: the server's default */
    uint64_t rng;
    int kills_wanted, n_tables;
    char dir[64], db[512]; /* the SQLite file, or in a cluster run the PostgreSQL URI */
    char port_text[16];
    server_process server;
    /* a cluster run (--nodes) */
    bool cluster;
    bool guests_anywhere; /* CRASH_GUESTS_ANYWHERE: see first_node */
    char pg_name[64], key_path[128];
    server_process nodes[CRASH_NODES_MAX];
    bool node_running[CRASH_NODES_MAX];
    long long node_back_at[CRASH_NODES_MAX]; /* a killed node starts again then */
    int node_starts;
    long takeovers;       /* tables the nodes' logs say they took over and reopened */
    crash_shared shared;
    crash_player players[MAX_PLAYERS]; /* the tables' clients, then the spectators */
    crash_player *all[MAX_PLAYERS];
    size_t n_players;     /* set up (or being set up) */
    size_t n_started;     /* whose threads run */
    int kills;
    int failures;         /* problems the run itself found (not the store checks) */
    int log_errors;       /* ERROR lines in the server logs */
} crash_run;

/* ---- small helpers ---------------------------------------------------------------------------- */

static uint64_t next_random(crash_run *run)
{
    uint64_t z = (run->rng += 0x9E3779B97F4A7C15ull); /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int random_between(crash_run *run, int low, int high)
{
    return low + (int)(next_random(run) % (uint64_t)(high - low + 1));
}

static int env_int(const char *name, int fallback, int min, int max)
{
    const char *text = getenv(name);
    int value = text != NULL ? atoi(text) : fallback;
    return value < min ? min : value > max ? max : value;
}

__attribute__((format(printf, 2, 3))) static void run_failure(crash_run *run, const char *format, ...)
{
    run->failures++;
    va_list args;
    va_start(args, format);
    fprintf(stderr, "crash: FAILURE: ");
    vfprintf(stderr, format, args);
    fprintf(stderr, "\n");
    va_end(args);
}

/* A free TCP port below the kernel's ephemeral range: the clients' own connections (ours and
 * other tests') take ephemeral ports, and one of them could hold the server's port while it
 * restarts (or even connect to itself on it). */
static int pick_port(crash_run *run)
{
    int ephemeral_low = 32768;
    FILE *f = fopen("/proc/sys/net/ipv4/ip_local_port_range", "r");
    if (f != NULL) {
        if (fscanf(f, "%d", &ephemeral_low) != 1)
            ephemeral_low = 32768;
        fclose(f);
    }
    int low = 10000, high = ephemeral_low - 1;
    if (high <= low) { /* an unusual range: fall back to the top of the port space */
        low = 61000;
        high = 65000;
    }
    for (int attempt = 0; attempt < 200; attempt++) {
        int port = random_between(run, low, high);
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        bool free_port = fd >= 0 && bind(fd, (struct sockaddr *)&addr, sizeof addr) == 0;
        if (fd >= 0)
            close(fd);
        if (free_port)
            return port;
    }
    return 0;
}

/* ---- the server ------------------------------------------------------------------------------------ */

/* The tables a node's log says it took over from other nodes. */
static long takeovers_in_log(const server_process *server)
{
    char *log = server_process_log(server);
    long taken = 0;
    const char *words = " table(s) taken over and reopened";
    for (const char *at = log != NULL ? strstr(log, words) : NULL; at != NULL; at = strstr(at + 1, words)) {
        const char *digits = at;
        while (digits > log && digits[-1] >= '0' && digits[-1] <= '9')
            digits--;
        taken += strtol(digits, NULL, 10);
    }
    free(log);
    return taken;
}

/* Reads a server's log for sanitizer reports (failures) and ERROR lines (printed). */
static void scan_server_log(crash_run *run, const server_process *server, int generation)
{
    char *log = server_process_log(server);
    if (log == NULL)
        return;
    if (strstr(log, "runtime error") != NULL || strstr(log, "AddressSanitizer") != NULL ||
        strstr(log, "LeakSanitizer") != NULL)
        run_failure(run, "server %d's log has a sanitizer report:\n%s", generation, log);
    for (char *line = log; line != NULL && *line != '\0';) {
        char *end = strchr(line, '\n');
        if (end != NULL)
            *end = '\0';
        if (strstr(line, "ERROR") != NULL && ++run->log_errors <= 10)
            fprintf(stderr, "crash: server %d logged: %s\n", generation, line);
        line = end != NULL ? end + 1 : NULL;
    }
    free(log);
}

static void scan_log(crash_run *run, int generation) { scan_server_log(run, &run->server, generation); }

static bool start_server(crash_run *run)
{
    const char *args[24];
    int n = 0;
    /* 25 ms per bot move keeps a client that acts at once under the server's rate limit of 20
     * messages a second (one act per trick of four moves, one ready per hand) */
    const char *fixed[] = {"--db", run->db, "--port", run->port_text, "--bot-delay-ms", "25",
                           "--next-hand-seconds", "1", "--turn-seconds", "60", "--empty-table-seconds", "3600",
                           "--reconnect-seconds", "3600", "--web-root", run->web_root};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        args[n++] = fixed[i];
    if (run->durability != NULL) {
        args[n++] = "--durability";
        args[n++] = run->durability;
    }
    args[n] = NULL;
    for (int attempt = 0; attempt < 2; attempt++) {
        if (server_process_start(&run->server, run->binary, args, START_MS)) {
            crash_shared_server_up(&run->shared, run->server.host, run->server.port);
            return true;
        }
        server_process_cleanup(&run->server);
        /* the port may have been taken meanwhile by someone else: the clients follow a new one */
        snprintf(run->port_text, sizeof run->port_text, "%d", pick_port(run));
    }
    return false;
}

static int current_generation(crash_run *run)
{
    pthread_mutex_lock(&run->shared.lock);
    int generation = run->shared.generation;
    pthread_mutex_unlock(&run->shared.lock);
    return generation;
}

/* kill -9, reap, count the next generation. False if it had died by itself. */
static bool kill_server(crash_run *run)
{
    int generation = current_generation(run);
    int status = 0;
    if (server_process_wait(&run->server, 0, &status)) {
        run_failure(run, "server %d died by itself (status %d) before kill %d", generation, status, run->kills + 1);
        scan_log(run, generation);
        char *log = server_process_log(&run->server);
        fprintf(stderr, "its log:\n%s\n", log ? log : "");
        free(log);
        return false;
    }
    bool reaped = server_process_stop(&run->server, SIGKILL, 10000, &status);
    if (!reaped) {
        run_failure(run, "server %d did not die of SIGKILL within 10 s", generation);
        return false;
    }
    run->kills++;
    scan_log(run, generation);
    server_process_cleanup(&run->server);
    crash_shared_server_down(&run->shared);
    return true;
}

/* ---- the players --------------------------------------------------------------------------------- */

static bool table_is_tianjin(const crash_run *run, int t)
{
    return strcmp(run->games, "tianjin") == 0 || (strcmp(run->games, "mix") == 0 && t % 2 == 1);
}

static crash_player *next_player(crash_run *run)
{
    crash_player *p = &run->players[run->n_players];
    if (run->cluster) /* as if behind the house's proxy, each client from an address of its own */
        snprintf(p->forwarded_for, sizeof p->forwarded_for, "10.7.%zu.%zu", run->n_players / 200,
                 run->n_players % 200 + 1);
    run->all[run->n_players++] = p;
    return p;
}

/* The node a client of table t first connects to (-1: any; t < 0: a spectator's). By default
 * (CRASH_GUESTS_ANYWHERE unset or 1) every node starts at once and the guests are made on any
 * node, so that nodes giving new players ids at once are tried (each gives ids of its own slot).
 * CRASH_GUESTS_ANYWHERE=0 makes every guest on the node of its table and starts the nodes one
 * after the other, the spectators watching tables of the last one. Either way every client
 * follows `moved` when it comes back after a kill. */
static int first_node(const crash_run *run, int t)
{
    if (!run->cluster || run->guests_anywhere)
        return run->cluster && t >= 0 ? t % CRASH_NODES_MAX : -1;
    return t >= 0 ? t % CRASH_NODES_MAX : CRASH_NODES_MAX - 1;
}

static bool start_node(crash_run *run, int i);

/* Seat 0 creates the table; at Tianjin three more clients take seats 1-3, at Tien Gow bots do. */
static bool set_up_table(crash_run *run, int t)
{
    bool tianjin = table_is_tianjin(run, t);
    crash_player *host = next_player(run);
    char name[32];
    snprintf(name, sizeof name, "Crash %d", t + 1);
    host->tianjin = tianjin;
    host->send_ready = t % 4 < 2; /* half the tables of each game skip the pause between hands */
    /* in a cluster run the tables are made on each node in turn; the others join through any */
    if (!crash_player_connect_new(host, &run->shared, name, first_node(run, t)) ||
        !crash_player_create_table(host, 60)) {
        run_failure(run, "setting up: %s", host->failure);
        return false;
    }
    for (int seat = 1; tianjin && seat < CRASH_SEATS; seat++) {
        crash_player *p = next_player(run);
        snprintf(name, sizeof name, "Crash %d.%d", t + 1, seat);
        p->tianjin = true;
        p->send_ready = host->send_ready;
        if (!crash_player_connect_new(p, &run->shared, name, run->guests_anywhere ? -1 : first_node(run, t)) ||
            !crash_player_take_seat(p, host->code, seat)) {
            run_failure(run, "setting up: %s", p->failure);
            return false;
        }
    }
    if (!crash_player_start_table(host, tianjin ? 0 : CRASH_SEATS - 1)) {
        run_failure(run, "setting up: %s", host->failure);
        return false;
    }
    return true;
}

static bool add_watcher(crash_run *run, const char *code, bool tianjin, const char *name)
{
    crash_player *watcher = next_player(run);
    watcher->tianjin = tianjin;
    if (!crash_player_connect_new(watcher, &run->shared, name, first_node(run, -1)) ||
        !crash_player_watch(watcher, code)) {
        run_failure(run, "setting up: %s", watcher->failure);
        return false;
    }
    return true;
}

static bool set_up_players(crash_run *run)
{
    const char *first_code[2] = {NULL, NULL}; /* the first table of each game */
    int rounds = run->cluster ? CRASH_NODES_MAX : 1; /* a cluster run: node by node (first_node) */
    for (int node = 0; node < rounds; node++) {
        if (run->cluster && !run->node_running[node] && !start_node(run, node))
            return false;
        for (int t = 0; t < run->n_tables; t++) {
            if (run->cluster && t % CRASH_NODES_MAX != node)
                continue;
            crash_player *host = &run->players[run->n_players];
            if (!set_up_table(run, t))
                return false;
            bool watchable = !run->cluster || run->guests_anywhere || node == first_node(run, -1);
            if (first_code[host->tianjin] == NULL && watchable)
                first_code[host->tianjin] = host->code;
        }
    }
    for (int g = 0; g < 2; g++)
        if (first_code[g] != NULL && !add_watcher(run, first_code[g], g == 1, g ? "Crash watcher 2" : "Crash watcher"))
            return false;
    for (size_t i = 0; i < run->n_players; i++) {
        if (!crash_player_start(run->all[i])) {
            run_failure(run, "cannot start a player thread");
            return false;
        }
        run->n_started++;
    }
    return true;
}

/* A player that ended on its own has failed; prints it once. Call with the lock held. */
static bool any_player_failed(crash_run *run)
{
    for (size_t i = 0; i < run->n_players; i++)
        if (run->all[i]->finished)
            return true;
    return false;
}

/* Waits until pred holds for every player, a player fails, or the time is up. */
typedef bool (*player_pred)(const crash_player *p, int generation);

static bool is_live(const crash_player *p, int generation) { return p->live_epoch == generation; }

static bool finished_hands_since(const crash_player *p, int generation)
{
    return p->seat < 0 ||
           (p->overs_epoch == generation && p->overs_in_epoch >= (p->tianjin ? FINAL_HANDS_TIANJIN : FINAL_HANDS));
}

static bool wait_players(crash_run *run, player_pred pred, int generation, int timeout_ms, const char *what)
{
    long long deadline = crash_now_ms() + timeout_ms;
    pthread_mutex_lock(&run->shared.lock);
    for (;;) {
        size_t behind = run->n_players;
        for (size_t i = 0; i < run->n_players; i++)
            if (pred(run->all[i], generation))
                behind--;
        bool failed = any_player_failed(run);
        if (behind == 0 || failed || crash_now_ms() >= deadline) {
            pthread_mutex_unlock(&run->shared.lock);
            if (behind != 0 && !failed)
                for (size_t i = 0; i < run->n_players; i++)
                    if (!pred(run->all[i], generation))
                        run_failure(run, "%s (table %s) did not %s within %d s of server %d starting",
                                    run->all[i]->name, run->all[i]->code, what, timeout_ms / 1000, generation);
            return behind == 0 && !failed;
        }
        crash_shared_wait(&run->shared, deadline);
    }
}

/* Lets the clients play for ms (the random moment of the next kill); false if a player failed. */
static bool let_play(crash_run *run, int ms)
{
    long long deadline = crash_now_ms() + ms;
    pthread_mutex_lock(&run->shared.lock);
    while (!any_player_failed(run) && crash_now_ms() < deadline)
        crash_shared_wait(&run->shared, deadline);
    bool failed = any_player_failed(run);
    pthread_mutex_unlock(&run->shared.lock);
    return !failed;
}

static void stop_players(crash_run *run)
{
    crash_shared_stop(&run->shared);
    for (size_t i = 0; i < run->n_started; i++)
        crash_player_join(run->all[i]);
    for (size_t i = 0; i < run->n_started; i++) /* set-up failures were reported already */
        if (run->all[i]->failure[0] != '\0')
            run_failure(run, "%s", run->all[i]->failure);
    if (run->failures > 0)
        for (size_t i = 0; i < run->n_started; i++) {
            char where[256];
            crash_player_describe(run->all[i], where, sizeof where);
            fprintf(stderr, "crash: at the end, %s\n", where);
        }
}

/* ---- the run -------------------------------------------------------------------------------------- */

/* The random moment of a kill: a quarter while the clients are still resuming, the rest during
 * play, from right away to a second and a half in. */
static bool kill_and_restart(crash_run *run)
{
    int generation = current_generation(run);
    bool during_play = next_random(run) % 4 != 0;
    if (during_play && !wait_players(run, is_live, generation, PLAYERS_BACK_MS, "resume"))
        return false;
    int delay = during_play ? random_between(run, 0, 1500) : random_between(run, 0, 150);
    if (!let_play(run, delay) || !kill_server(run))
        return false;
    if (!start_server(run)) {
        run_failure(run, "the server did not start again after kill %d", run->kills);
        return false;
    }
    return true;
}

static bool play_and_kill(crash_run *run)
{
    if (!set_up_players(run))
        return false;
    while (run->kills < run->kills_wanted)
        if (!kill_and_restart(run))
            return false;
    int generation = current_generation(run);
    return wait_players(run, is_live, generation, PLAYERS_BACK_MS, "resume") &&
           wait_players(run, finished_hands_since, generation, FINAL_HANDS_MS, "finish its last hands");
}

static void stop_server_cleanly(crash_run *run)
{
    int generation = current_generation(run);
    int status = 0;
    if (!server_process_stop(&run->server, SIGTERM, STOP_MS, &status))
        run_failure(run, "server %d did not exit within %d s of SIGTERM", generation, STOP_MS / 1000);
    else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        run_failure(run, "server %d exited with status %d after SIGTERM", generation, status);
    scan_log(run, generation);
    if (run->failures > 0) {
        char *log = server_process_log(&run->server);
        fprintf(stderr, "crash: the last server's log:\n%s\n", log ? log : "");
        free(log);
    }
    server_process_cleanup(&run->server);
}

/* (c): `teahouse admin verify --db FILE` must succeed. */
static bool admin_verify(crash_run *run)
{
    int out[2];
    if (pipe(out) != 0)
        return false;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(out[1], STDOUT_FILENO);
        dup2(out[1], STDERR_FILENO);
        close(out[0]);
        close(out[1]);
        if (run->cluster)
            execl(run->binary, run->binary, "admin", "verify", "--db", run->db, "--ledger-key", run->key_path,
                  (char *)NULL);
        else
            execl(run->binary, run->binary, "admin", "verify", "--db", run->db, (char *)NULL);
        _exit(127);
    }
    close(out[1]);
    char text[2048];
    size_t len = 0;
    ssize_t n;
    while (len < sizeof text - 1 && (n = read(out[0], text + len, sizeof text - 1 - len)) > 0)
        len += (size_t)n;
    text[len] = '\0';
    close(out[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    fprintf(stderr, "crash: teahouse admin verify: %s", text);
    if (!ok)
        run_failure(run, "teahouse admin verify failed (status %d)", status);
    return ok;
}

static void print_figures(const crash_run *run, const crash_figures *f, long long elapsed_ms)
{
    long frames = 0, connections = 0, refused = 0;
    for (size_t i = 0; i < run->n_players; i++) {
        frames += run->all[i]->frames;
        connections += run->all[i]->connections;
        refused += run->all[i]->refused_busy;
    }
    printf("crash: %d tables, %d kills (-9) in %.1f s\n", run->n_tables, run->kills, (double)elapsed_ms / 1000);
    printf("crash: hands finished %ld (in the store; %ld distinct hand_over seen by clients), unfinished %ld\n",
           f->hands_finished, f->hands_seen_over, f->hands_unfinished);
    printf("crash: hands interrupted by a kill and continued %ld (%ld of them held from their deal; %ld Tianjin)\n",
           f->hands_continued, f->continued_from_deal, f->continued_tianjin);
    printf("crash: actions stored %ld; client acts answered ok %ld (%ld of them not stored); acts refused as stale "
           "%ld\n",
           f->actions_stored, f->acts_ok, f->acts_ok_not_stored, refused);
    printf("crash: ledger rows %ld; connections %ld; frames %ld; ERROR lines in server logs %d\n", f->ledger_rows,
           connections, frames, run->log_errors);
    if (run->cluster) {
        long moved = 0, not_found = 0, limited = 0, fresh = 0;
        for (size_t i = 0; i < run->n_players; i++) {
            moved += run->all[i]->moved;
            not_found += run->all[i]->not_found;
            limited += run->all[i]->rate_limited;
            fresh += run->all[i]->fresh_guests;
        }
        printf("crash: nodes started %d times; tables taken over %ld; joins answered moved %ld, no_such_table while "
               "between nodes %ld, rate_limited %ld; unstored guests greeted anew by another node %ld\n",
               run->node_starts, run->takeovers, moved, not_found, limited, fresh);
    }
}

/* The run must have done what it claims, or its passing means little. */
static void check_coverage(crash_run *run, const crash_figures *f)
{
    if (run->kills < run->kills_wanted)
        run_failure(run, "only %d of %d kills were done", run->kills, run->kills_wanted);
    if (f->hands_seen_over < run->n_tables)
        run_failure(run, "clients saw only %ld hands end", f->hands_seen_over);
    if (f->hands_continued == 0)
        run_failure(run, "no hand was interrupted by a kill and continued: (e) was not exercised");
    if (strcmp(run->games, "tiengow") != 0 && f->continued_tianjin == 0)
        run_failure(run, "no Tianjin hand was interrupted by a kill and continued: (e) was not exercised for it");
    long moved = 0;
    for (size_t i = 0; i < run->n_players; i++)
        moved += run->all[i]->moved;
    if (run->cluster && run->takeovers == 0)
        run_failure(run, "no node took over a table: the takeover was not exercised");
    if (run->cluster && moved == 0)
        run_failure(run, "no join was answered moved: following moved was not exercised");
}

/* ---- a cluster run: three nodes on one PostgreSQL database ---------------------------------------- */

#define LEASE_SECONDS "3"       /* a dead node's tables are taken over within this and a heartbeat */
#define NODE_BACK_MIN_MS 1000   /* a killed node starts again this long after its kill, or up to */
#define NODE_BACK_MAX_MS 6000   /* this: sometimes before its lease ran out, mostly after */
#define CLUSTER_BACK_MS 60000   /* every client is back at its table after the last node came back */

static const char *const node_names[CRASH_NODES_MAX] = {"n1", "n2", "n3"};

/* Runs one statement on the throwaway cluster's "postgres" database (TEAHOUSE_TEST_PG). */
static bool pg_admin(crash_run *run, const char *sql)
{
    PGconn *c = PQconnectdb(getenv("TEAHOUSE_TEST_PG"));
    bool ok = PQstatus(c) == CONNECTION_OK;
    if (!ok) {
        run_failure(run, "cannot connect to TEAHOUSE_TEST_PG: %s", PQerrorMessage(c));
    } else {
        PGresult *r = PQexec(c, sql);
        ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        if (!ok)
            run_failure(run, "%s: %s", sql, PQerrorMessage(c));
        PQclear(r);
    }
    PQfinish(c);
    return ok;
}

/* A database of the run's own in the cluster; run->db becomes its URI. */
static bool create_database(crash_run *run)
{
    snprintf(run->pg_name, sizeof run->pg_name, "crash_%d_%u", (int)getpid(), (unsigned)(next_random(run) % 100000));
    char sql[128];
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", run->pg_name);
    if (!pg_admin(run, sql)) {
        run->pg_name[0] = '\0';
        return false;
    }
    const char *base = getenv("TEAHOUSE_TEST_PG");
    const char *query = strchr(base, '?');
    snprintf(run->db, sizeof run->db, "postgresql:///%s%s", run->pg_name, query != NULL ? query : "");
    snprintf(run->key_path, sizeof run->key_path, "%s/ledger.key", run->dir);
    return true;
}

static void drop_database(crash_run *run)
{
    char sql[128];
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s WITH (FORCE)", run->pg_name);
    if (run->pg_name[0] != '\0')
        pg_admin(run, sql);
}

static bool start_node(crash_run *run, int i)
{
    const char *args[] = {"--db", run->db, "--ledger-key", run->key_path, "--node-id", node_names[i],
                          "--lease-seconds", LEASE_SECONDS, "--trusted-proxy", "127.0.0.1", "--bot-delay-ms", "25",
                          "--next-hand-seconds", "1", "--turn-seconds", "60", "--empty-table-seconds", "3600",
                          "--reconnect-seconds", "3600", "--web-root", run->web_root, NULL};
    if (!server_process_start(&run->nodes[i], run->binary, args, START_MS)) {
        server_process_cleanup(&run->nodes[i]);
        run_failure(run, "node %s did not start (start %d)", node_names[i], run->node_starts + 1);
        return false;
    }
    run->node_running[i] = true;
    run->node_starts++;
    crash_shared_node_up(&run->shared, i, node_names[i], run->nodes[i].host, run->nodes[i].port);
    return true;
}

/* False (a failure) if a running node has exited by itself. */
static bool nodes_alive(crash_run *run)
{
    bool alive = true;
    for (int i = 0; i < CRASH_NODES_MAX; i++) {
        int status = 0;
        if (!run->node_running[i] || !server_process_wait(&run->nodes[i], 0, &status))
            continue;
        run_failure(run, "node %s died by itself (status %d) after %d kills", node_names[i], status, run->kills);
        char *log = server_process_log(&run->nodes[i]);
        fprintf(stderr, "its log:\n%s\n", log ? log : "");
        free(log);
        run->node_running[i] = false;
        alive = false;
    }
    return alive;
}

/* kill -9 node i, reap it, and choose when it comes back. */
static bool kill_node(crash_run *run, int i)
{
    int generation = current_generation(run), status = 0;
    if (!server_process_stop(&run->nodes[i], SIGKILL, 10000, &status)) {
        run_failure(run, "node %s did not die of SIGKILL within 10 s", node_names[i]);
        return false;
    }
    run->kills++;
    run->takeovers += takeovers_in_log(&run->nodes[i]);
    scan_server_log(run, &run->nodes[i], generation);
    server_process_cleanup(&run->nodes[i]);
    run->node_running[i] = false;
    crash_shared_node_down(&run->shared, i);
    run->node_back_at[i] = crash_now_ms() + random_between(run, NODE_BACK_MIN_MS, NODE_BACK_MAX_MS);
    return true;
}

/* Starts again every killed node whose time has come. */
static bool restart_due_nodes(crash_run *run)
{
    for (int i = 0; i < CRASH_NODES_MAX; i++)
        if (!run->node_running[i] && crash_now_ms() >= run->node_back_at[i] && !start_node(run, i))
            return false;
    return true;
}

static int nodes_running(const crash_run *run)
{
    int n = 0;
    for (int i = 0; i < CRASH_NODES_MAX; i++)
        n += run->node_running[i];
    return n;
}

static bool is_back(const crash_player *p, int generation)
{
    (void)generation;
    return p->live_epoch != 0;
}

static bool finished_hands_since_mark(const crash_player *p, int generation)
{
    (void)generation;
    return p->seat < 0 || p->overs_live - p->overs_mark >= (p->tianjin ? FINAL_HANDS_TIANJIN : FINAL_HANDS);
}

/* Kills a random node (never the last one up) at random moments; a killed node comes back
 * after a random while, so tables move between nodes and back. At the end every node is up,
 * every client back at its table, and every table finishes hands again. */
static bool play_and_kill_nodes(crash_run *run)
{
    /* one after the other: the first migrates the database (set_up_players starts them itself) */
    for (int i = 0; run->guests_anywhere && i < CRASH_NODES_MAX; i++)
        if (!start_node(run, i))
            return false;
    if (!set_up_players(run))
        return false;
    while (run->kills < run->kills_wanted) {
        if (!let_play(run, random_between(run, 200, 2000)) || !nodes_alive(run) || !restart_due_nodes(run))
            return false;
        int up = nodes_running(run);
        if (up < 2)
            continue;
        int k = random_between(run, 0, up - 1), victim = 0;
        for (int i = 0; i < CRASH_NODES_MAX; i++)
            if (run->node_running[i] && k-- == 0)
                victim = i;
        if (!kill_node(run, victim))
            return false;
    }
    while (nodes_running(run) < CRASH_NODES_MAX)
        if (!let_play(run, 100) || !nodes_alive(run) || !restart_due_nodes(run))
            return false;
    if (!wait_players(run, is_back, 0, CLUSTER_BACK_MS, "get back to its table"))
        return false;
    pthread_mutex_lock(&run->shared.lock);
    for (size_t i = 0; i < run->n_players; i++)
        run->all[i]->overs_mark = run->all[i]->overs_live;
    pthread_mutex_unlock(&run->shared.lock);
    return wait_players(run, finished_hands_since_mark, 0, FINAL_HANDS_MS, "finish its last hands") && nodes_alive(run);
}

/* No table lost: each is open once, owned by a node that is up under a lease that holds, and
 * that node is the one each of its clients plays on. Run after the players stopped, before the
 * nodes do. */
static int check_owners(crash_run *run)
{
    int problems = 0;
    PGconn *c = PQconnectdb(run->db);
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "crash: PROBLEM: cannot connect to %s: %s\n", run->db, PQerrorMessage(c));
        PQfinish(c);
        return 1;
    }
    for (size_t i = 0; i < run->n_players; i++) {
        const crash_player *p = run->all[i];
        if (strspn(p->code, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") != strlen(p->code))
            continue; /* never put into SQL; a code is letters and digits */
        char sql[320];
        snprintf(sql, sizeof sql,
                 "SELECT t.owner_node, n.lease_until > now() FROM game_tables AS t LEFT JOIN nodes AS n"
                 " ON n.id = t.owner_node WHERE t.code = '%s' AND t.state <> 'closed'",
                 p->code);
        PGresult *r = PQexec(c, sql);
        int rows = PQresultStatus(r) == PGRES_TUPLES_OK ? PQntuples(r) : -1;
        const char *owner = rows == 1 && !PQgetisnull(r, 0, 0) ? PQgetvalue(r, 0, 0) : "";
        bool lease = rows == 1 && strcmp(PQgetvalue(r, 0, 1), "t") == 0;
        int owner_index = -1;
        for (int n = 0; n < CRASH_NODES_MAX; n++)
            if (strcmp(owner, node_names[n]) == 0 && run->node_running[n])
                owner_index = n;
        if (rows != 1 || owner_index < 0 || !lease) {
            problems++;
            fprintf(stderr, "crash: PROBLEM: table %s is open %d time(s), owned by \"%s\" (%s), its lease %s\n",
                    p->code, rows, owner, owner_index < 0 ? "no node that is up" : "up",
                    lease ? "holds" : "ran out");
        } else if (p->node != owner_index) {
            problems++;
            fprintf(stderr, "crash: PROBLEM: table %s is owned by %s but %s played it on %s\n", p->code, owner,
                    p->name, p->node >= 0 ? node_names[p->node] : "no node");
        }
        PQclear(r);
    }
    PQfinish(c);
    return problems;
}

/* SIGTERM to every node at once (one stopping alone would have its parked tables taken over by
 * the others: not a takeover the run made), then each must exit cleanly. */
static void stop_nodes_cleanly(crash_run *run)
{
    int generation = current_generation(run);
    for (int i = 0; i < CRASH_NODES_MAX; i++)
        if (run->node_running[i]) {
            run->takeovers += takeovers_in_log(&run->nodes[i]);
            kill(run->nodes[i].pid, SIGTERM);
        }
    for (int i = 0; i < CRASH_NODES_MAX; i++) {
        if (!run->node_running[i])
            continue;
        int status = 0;
        if (!server_process_wait(&run->nodes[i], STOP_MS, &status))
            run_failure(run, "node %s did not exit within %d s of SIGTERM", node_names[i], STOP_MS / 1000);
        else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            run_failure(run, "node %s exited with status %d after SIGTERM", node_names[i], status);
        scan_server_log(run, &run->nodes[i], generation);
        if (run->failures > 0) {
            char *log = server_process_log(&run->nodes[i]);
            fprintf(stderr, "crash: node %s's last log:\n%s\n", node_names[i], log ? log : "");
            free(log);
        }
        server_process_cleanup(&run->nodes[i]);
        run->node_running[i] = false;
    }
}

static void remove_dir(const crash_run *run)
{
    if (run->cluster)
        unlink(run->key_path);
    const char *suffixes[] = {"", "-wal", "-shm", "-journal", ".lock", ".key"};
    for (size_t i = 0; !run->cluster && i < sizeof suffixes / sizeof suffixes[0]; i++) {
        char path[sizeof run->db + 16];
        snprintf(path, sizeof path, "%s%s", run->db, suffixes[i]);
        unlink(path);
    }
    rmdir(run->dir);
}

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN);
    if (argc == 4 && strcmp(argv[1], "--score-only") == 0) {
        crash_score_figures score;
        int problems = crash_score_check(argv[2], argv[3], &score);
        printf("crash: the calculator replayed %ld finished hands (%ld Tianjin): %d problems\n", score.hands,
               score.tianjin_hands, problems);
        return problems == 0 && score.hands > 0 ? 0 : 1;
    }
    static crash_run run; /* large: the players' records */
    if (argc == 5 && strcmp(argv[1], "--nodes") == 0) {
        run.cluster = true;
        argv++;
        argc--;
        const char *pg = getenv("TEAHOUSE_TEST_PG");
        if (pg == NULL || pg[0] == '\0') {
            printf("crash: no PostgreSQL (TEAHOUSE_TEST_PG; run beside tests/pg/with_cluster.sh): skipped\n");
            return 77;
        }
    }
    if (argc < 4) {
        fprintf(stderr, "usage: %s PATH_TO_TEAHOUSE WEB_ROOT PATH_TO_TEAHOUSE_SCORE\n"
                        "       %s --nodes PATH_TO_TEAHOUSE WEB_ROOT PATH_TO_TEAHOUSE_SCORE\n"
                        "       %s --score-only DB PATH_TO_TEAHOUSE_SCORE\n", argv[0], argv[0], argv[0]);
        return 2;
    }
    run.binary = argv[1];
    run.web_root = argv[2];
    run.score_binary = argv[3];
    run.games = getenv("CRASH_GAMES") != NULL ? getenv("CRASH_GAMES") : "mix";
    if (strcmp(run.games, "mix") != 0 && strcmp(run.games, "tiengow") != 0 && strcmp(run.games, "tianjin") != 0) {
        fprintf(stderr, "CRASH_GAMES must be mix, tiengow or tianjin\n");
        return 2;
    }
    run.durability = getenv("CRASH_DURABILITY");
    const char *anywhere = getenv("CRASH_GUESTS_ANYWHERE");
    run.guests_anywhere = run.cluster && (anywhere == NULL || strcmp(anywhere, "0") != 0);
    const char *seed_text = getenv("CRASH_SEED");
    run.rng = seed_text != NULL ? strtoull(seed_text, NULL, 0) : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    uint64_t seed = run.rng;
    run.kills_wanted = env_int("CRASH_KILLS", run.cluster ? 10 : 24, 1, 1000);
    run.n_tables = env_int("CRASH_TABLES", run.cluster ? 6 : 8, 1, MAX_TABLES);
    printf("crash: seed %llu (CRASH_SEED=%llu repeats the kill delays), %d tables (%s), %d kills%s\n",
           (unsigned long long)seed, (unsigned long long)seed, run.n_tables, run.games, run.kills_wanted,
           run.cluster ? " of nodes" : "");
    fflush(stdout);

    snprintf(run.dir, sizeof run.dir, "/tmp/teahouse-crash-XXXXXX");
    if (mkdtemp(run.dir) == NULL) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(run.db, sizeof run.db, "%s/teahouse.db", run.dir);
    snprintf(run.port_text, sizeof run.port_text, "%d", pick_port(&run));
    crash_shared_init(&run.shared);

    long long started = crash_now_ms();
    int problems = 0;
    if (run.cluster) {
        bool made = create_database(&run);
        if (made)
            play_and_kill_nodes(&run);
        stop_players(&run);
        if (made)
            problems += check_owners(&run);
        stop_nodes_cleanly(&run);
    } else {
        bool served = start_server(&run);
        if (!served)
            run_failure(&run, "the server did not start");
        else
            play_and_kill(&run);
        stop_players(&run);
        if (served)
            stop_server_cleanly(&run);
    }

    crash_figures figures;
    problems += crash_check_store(run.db, run.all, run.n_players, &figures);
    crash_score_figures score;
    problems += crash_score_check(run.db, run.score_binary, &score);
    admin_verify(&run);
    print_figures(&run, &figures, crash_now_ms() - started);
    printf("crash: the calculator replayed %ld finished hands (%ld Tianjin, %ld of them won, %ld with kong "
           "payments): payments, net, ledger rows and next table state as stored\n",
           score.hands, score.tianjin_hands, score.tianjin_won, score.tianjin_kongs);
    check_coverage(&run, &figures);
    if (strcmp(run.games, "tiengow") != 0 && score.tianjin_hands == 0)
        run_failure(&run, "no Tianjin hand finished, so none was replayed through the calculator");
    if (score.hands < figures.hands_finished)
        run_failure(&run, "the calculator replayed %ld of %ld finished hands", score.hands, figures.hands_finished);

    bool passed = problems == 0 && run.failures == 0;
    if (run.cluster && getenv("CRASH_KEEP") != NULL) /* until the throwaway cluster goes */
        fprintf(stderr, "crash: the database %s is kept\n", run.db);
    else if (run.cluster)
        drop_database(&run);
    if (!passed || getenv("CRASH_KEEP") != NULL)
        fprintf(stderr, "crash: the database%s is kept in %s\n", run.cluster ? "'s ledger key" : "", run.dir);
    else
        remove_dir(&run);
    printf("crash: %s (%d store problems, %d run failures)\n", passed ? "PASS" : "FAIL", problems, run.failures);
    for (size_t i = 0; i < run.n_players; i++)
        crash_player_free(run.all[i]);
    crash_shared_destroy(&run.shared);
    return passed ? 0 : 1;
}
