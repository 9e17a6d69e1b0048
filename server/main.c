/*
 * main — the teahouse server process: parse the flags, set up the one uv loop, open the store
 * and reopen the tables it kept, serve until SIGINT or SIGTERM, then shut down in the order
 * libwebsockets 4.1 needs on a foreign loop: park the tables, net_stop, let uv_run return,
 * net_destroy, free the lobby, close the store (writing what is asked), run the loop once more
 * so every callback runs, uv_loop_close. While serving, guests nobody has used for --guest-days
 * are expired from the store at start-up and every hour.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <unistd.h>

#include <uv.h>

#include "admin.h"
#include "admin_cli.h"
#include "cluster.h"
#include "config.h"
#include "lobby.h"
#include "lobby_listing.h"
#include "log.h"
#include "net.h"
#include "store.h"

typedef struct app {
    uv_loop_t loop;
    uv_signal_t sigint;
    uv_signal_t sigterm;
    net_server *net;
    admin *admin;
    lobby *lobby;
    store *store;
    cluster *cluster;              /* NULL: a server alone (no --node-id) */
    bool stopping;
    uv_timer_t guest_sweep;
    int64_t guest_idle_seconds;    /* 0: guests are never expired */
    bool guest_sweep_asked;        /* a store_guests_expire is unanswered */
    uint64_t started_ms;           /* loop time when serving began, for the admin API's uptime */
} app;

#define GUEST_SWEEP_MS (3600 * 1000)
#define GUEST_SWEEP_BATCH 1000     /* guests one request deletes at most: a short transaction */

/* --- the admin API's live figures --- */

/* The process's resident memory in bytes (Linux: /proc/self/statm), 0 when unknown. */
static int64_t rss_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long pages_total = 0, pages_resident = 0;
    int got = f ? fscanf(f, "%ld %ld", &pages_total, &pages_resident) : 0;
    if (f)
        fclose(f);
    return got == 2 ? (int64_t)pages_resident * sysconf(_SC_PAGESIZE) : 0;
}

static json_t *admin_live_figures(void *ctx)
{
    app *a = ctx;
    int paused = 0;
    json_t *tables = a->lobby ? lobby_admin_live(a->lobby, &paused) : json_array();
    const uint64_t now = uv_now(&a->loop);
    return json_pack("{s:o, s:{s:I, s:I, s:i, s:I, s:I, s:I}}", "tables", tables, "health", "connections",
                     (json_int_t)(a->net ? net_connection_count(a->net) : 0), "tables",
                     (json_int_t)json_array_size(tables), "tables_paused", paused, "uptime_s",
                     (json_int_t)((now - a->started_ms) / 1000), "rss_bytes", (json_int_t)rss_bytes(), "store_queue",
                     (json_int_t)(a->store ? store_unanswered(a->store) : 0));
}

/* --- expiring guests nobody uses --- */

static void sweep_guests(app *a);

static void on_guests_expired(void *ctx, const store_error *error, int64_t count)
{
    app *a = ctx;
    a->guest_sweep_asked = false;
    if (error->status != STORE_OK) {
        if (error->status != STORE_CLOSED)
            log_warn("expiring guests: %s", error->message);
        return;
    }
    if (count > 0)
        log_info("expired %lld guest(s) unseen for %lld days", (long long)count,
                 (long long)(a->guest_idle_seconds / 86400));
    if (count == GUEST_SWEEP_BATCH && !a->stopping) /* there may be more: the next batch now */
        sweep_guests(a);
}

static void sweep_guests(app *a)
{
    if (a->guest_sweep_asked || a->stopping)
        return;
    a->guest_sweep_asked = store_guests_expire(a->store, a->guest_idle_seconds, GUEST_SWEEP_BATCH,
                                               on_guests_expired, a);
}

static void on_guest_sweep(uv_timer_t *timer) { sweep_guests(timer->data); }

/* The hourly sweep; it does not keep the loop running by itself. */
static void start_guest_sweep(app *a, int guest_days)
{
    uv_timer_init(&a->loop, &a->guest_sweep);
    a->guest_sweep.data = a;
    a->guest_idle_seconds = (int64_t)guest_days * 86400;
    if (guest_days > 0) {
        uv_timer_start(&a->guest_sweep, on_guest_sweep, 0, GUEST_SWEEP_MS);
        uv_unref((uv_handle_t *)&a->guest_sweep);
    }
}


/* Lets one process hold as many sockets as the hard limit allows (DESIGN.md: Scale). */
static void raise_open_file_limit(void)
{
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) {
        log_warn("getrlimit(RLIMIT_NOFILE): %s", strerror(errno));
        return;
    }
    if (limit.rlim_cur < limit.rlim_max) {
        rlim_t before = limit.rlim_cur;
        limit.rlim_cur = limit.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &limit) != 0)
            log_warn("cannot raise the open-file limit: %s", strerror(errno));
        else
            log_debug("open-file limit raised from %llu to %llu", (unsigned long long)before,
                      (unsigned long long)limit.rlim_cur);
    }
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0)
        log_info("open-file limit: %llu", (unsigned long long)limit.rlim_cur);
}

/* The first signal starts the shutdown; the handles close so that a second one, with the
 * default action restored by libuv, ends a shutdown that hangs. */
static void on_signal(uv_signal_t *handle, int signum)
{
    app *a = handle->data;
    if (a->stopping)
        return;
    a->stopping = true;
    log_info("received %s, shutting down", signum == SIGINT ? "SIGINT" : "SIGTERM");
    cluster_stop(a->cluster); /* first: no takeover opens a table while the others park */
    lobby_shutdown(a->lobby);
    net_stop(a->net);
    uv_close((uv_handle_t *)&a->guest_sweep, NULL);
    uv_close((uv_handle_t *)&a->sigint, NULL);
    uv_close((uv_handle_t *)&a->sigterm, NULL);
}

static bool start_signals(app *a)
{
    a->sigint.data = a;
    a->sigterm.data = a;
    return uv_signal_init(&a->loop, &a->sigint) == 0 &&
           uv_signal_start(&a->sigint, on_signal, SIGINT) == 0 &&
           uv_signal_init(&a->loop, &a->sigterm) == 0 &&
           uv_signal_start(&a->sigterm, on_signal, SIGTERM) == 0;
}

/* The host part of the URL we print: a wildcard bind is reachable as localhost. */
static void format_url(char *out, size_t cap, const char *bind, int port)
{
    if (!bind[0] || strcmp(bind, "0.0.0.0") == 0 || strcmp(bind, "::") == 0)
        snprintf(out, cap, "http://localhost:%d", port);
    else if (strchr(bind, ':'))
        snprintf(out, cap, "http://[%s]:%d", bind, port);
    else
        snprintf(out, cap, "http://%s:%d", bind, port);
}

static void log_open_handle(uv_handle_t *handle, void *arg)
{
    (void)arg;
    log_error("handle still open at exit: %s", uv_handle_type_name(uv_handle_get_type(handle)));
}

/* Runs the loop dry after net_destroy and closes it; nonzero means something leaked. */
static int close_loop(app *a)
{
    uv_run(&a->loop, UV_RUN_DEFAULT);
    int rc = uv_loop_close(&a->loop);
    if (rc != 0) {
        log_error("uv_loop_close: %s", uv_strerror(rc));
        uv_walk(&a->loop, log_open_handle, NULL);
    }
    cluster_free(a->cluster); /* its wake-up was closed by cluster_stop and that close has run */
    a->cluster = NULL;
    return rc;
}

/* One server per database: two would both reopen the same tables and play them twice. The lock
 * is on a file beside the database (SQLite's own locks must stay shared, for `teahouse admin`
 * and the ledger check while the server runs) and lasts as long as the process. */
static int lock_database(const char *db_path)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s.lock", db_path) >= sizeof path) {
        log_error("the database path %s is too long", db_path);
        return -1;
    }
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        log_error("cannot create %s in the database's directory: %s", path, strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK)
            log_error("another teahouse is serving the database %s (it holds %s); stop it first", db_path, path);
        else
            log_error("cannot lock %s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

/* store_recover_async's answer for a takeover: the tables read are opened (those already open
 * are skipped by lobby_restore). */
static void on_taken_read(void *ctx, const store_error *err, store_recovery *recovery)
{
    app *a = ctx;
    if (recovery == NULL) {
        if (err->status != STORE_CLOSED)
            log_error("cannot read the tables taken over: %s; they are opened at the next start", err->message);
        return;
    }
    if (a->lobby != NULL && !a->stopping)
        log_info("%zu table(s) taken over and reopened", lobby_restore(a->lobby, recovery));
    store_recovery_free(recovery);
}

/* Another node stopped beating and this one took its tables over (cluster.h): open them as a
 * restart does, once the store has read them; the loop plays on meanwhile (reading hundreds of
 * tables with their unfinished hands takes seconds). */
static void on_takeover(void *data, size_t taken)
{
    app *a = data;
    if (!store_recover_async(a->store, on_taken_read, a))
        log_error("cannot read the %zu table(s) taken over; they are opened at the next start", taken);
}

/* cluster_hooks.listing: this node's open tables as the others see them. */
static char *node_listing(void *data)
{
    app *a = data;
    return a->lobby != NULL ? lobby_listing_text(a->lobby) : NULL;
}

/* cluster_hooks.digest, on the heartbeat thread: the other nodes' tables parsed. */
static void *digest_peers(const cluster_peer *peers, size_t n)
{
    lobby_listing_source *sources = n > 0 ? calloc(n, sizeof *sources) : NULL;
    if (n > 0 && sources == NULL)
        return NULL;
    for (size_t i = 0; i < n; i++)
        sources[i] = (lobby_listing_source){.node = peers[i].node, .ws = peers[i].ws, .text = peers[i].text};
    lobby_listing *others = lobby_listing_parse(sources, n);
    free(sources);
    return others;
}

static void discard_peers(void *digest) { lobby_listing_free(digest); }

/* cluster_hooks.on_peers: the other nodes' tables, for the lobby's list and "moved". */
static void on_peers(void *data, void *digest)
{
    app *a = data;
    if (a->lobby != NULL)
        lobby_set_others(a->lobby, digest);
    else
        lobby_listing_free(digest);
}

/* cluster_hooks.kept: the stored tables this node plays. */
static char *node_kept(void *data)
{
    app *a = data;
    return a->lobby != NULL ? lobby_kept_tables_text(a->lobby) : NULL;
}

/* cluster_hooks.on_lost: tables taken over while this node stalled go. */
static void on_lost(void *data, const cluster_lost *lost, size_t n)
{
    app *a = data;
    if (a->lobby == NULL)
        return;
    size_t gone = 0;
    for (size_t i = 0; i < n; i++)
        gone += lobby_let_go(a->lobby, lost[i].id, lost[i].node, lost[i].ws);
    log_warn("%zu table(s) let go: another node plays them now", gone);
}

/* A node of several registers itself and claims its tables before the store reads them. */
static bool start_node(app *a, const config *cfg, const char *uri)
{
    char address[256];
    if (cfg->node_url[0] != '\0')
        snprintf(address, sizeof address, "%s", cfg->node_url);
    else
        snprintf(address, sizeof address, "/n/%s/ws", cfg->node_id);
    const cluster_config cc = {.uri = uri, .node_id = cfg->node_id, .address = address,
                               .lease_seconds = cfg->lease_seconds};
    char error[512];
    const cluster_hooks hooks = {.on_takeover = on_takeover,
                                 .listing = node_listing,
                                 .digest = digest_peers,
                                 .discard = discard_peers,
                                 .on_peers = on_peers,
                                 .kept = node_kept,
                                 .on_lost = on_lost,
                                 .data = a};
    a->cluster = cluster_start(&a->loop, &cc, &hooks, error, sizeof error);
    if (a->cluster == NULL)
        log_error("node %s: %s", cfg->node_id, error);
    return a->cluster != NULL;
}

static int serve(const config *cfg)
{
    app a;
    memset(&a, 0, sizeof a);
    if (uv_loop_init(&a.loop) != 0) {
        log_error("cannot create the event loop");
        return 1;
    }

    const char *trusted[CONFIG_LIST_MAX], *origins[CONFIG_LIST_MAX];
    for (int i = 0; i < cfg->trusted_proxies.count; i++)
        trusted[i] = cfg->trusted_proxies.items[i];
    for (int i = 0; i < cfg->allowed_origins.count; i++)
        origins[i] = cfg->allowed_origins.items[i];
    const net_config net_cfg = {
        .bind_address = cfg->bind_address,
        .port = cfg->port,
        .web_root = cfg->web_root,
        .ping_seconds = cfg->ping_seconds,
        .hello_seconds = cfg->hello_seconds,
        .max_per_address = cfg->max_per_address,
        .trusted_proxies = trusted,
        .n_trusted_proxies = (size_t)cfg->trusted_proxies.count,
        .allowed_origins = origins,
        .n_allowed_origins = (size_t)cfg->allowed_origins.count,
        .metrics_bind = cfg->metrics_bind,
        .metrics_port = cfg->metrics_port > 0 ? cfg->metrics_port : NET_METRICS_OFF,
    };
    lobby_config lobby_cfg = lobby_config_default();
    lobby_cfg.turn_seconds = cfg->turn_seconds;
    lobby_cfg.reconnect_seconds = cfg->reconnect_seconds;
    lobby_cfg.bot_delay_ms = cfg->bot_delay_ms;
    lobby_cfg.deal_seed = (uint64_t)cfg->deal_seed;
    lobby_cfg.next_hand_ms = cfg->next_hand_seconds * 1000;
    lobby_cfg.empty_close_ms = cfg->empty_table_seconds * 1000;
    lobby_cfg.max_tables = cfg->max_tables;
    lobby_cfg.new_guests_per_minute = cfg->new_guests_per_minute;

    /* On PostgreSQL the store holds the database's lock itself (store_pg.c): no file to lock. */
    const bool postgresql = !strncmp(cfg->db_path, "postgresql://", 13) || !strncmp(cfg->db_path, "postgres://", 11);
    int lock_fd = postgresql ? -1 : lock_database(cfg->db_path);
    if (!postgresql && lock_fd < 0) {
        close_loop(&a);
        return 1;
    }
    store_options store_opts = store_options_default();
    store_opts.durability = cfg->durability_full ? STORE_DURABILITY_FULL : STORE_DURABILITY_NORMAL;
    store_opts.max_bytes = (int64_t)cfg->db_max_pages * 4096; /* the flag counts pages of 4 KiB */
    store_opts.ledger_key_path = cfg->ledger_key_path;
    store_error store_err;
    /* A node's connections name it (cluster_uri): its tables are its own. */
    char *node_uri = cfg->node_id[0] != '\0' ? cluster_uri(cfg->db_path, cfg->node_id) : NULL;
    a.store = store_open(&a.loop, node_uri ? node_uri : cfg->db_path, &store_opts, &store_err);
    if (a.store == NULL) {
        log_error("cannot open the database %s: %s", cfg->db_path, store_err.message);
        free(node_uri);
        close_loop(&a);
        return 1;
    }
    /* After store_open (which migrates the database), before store_recover (which reads the
     * tables claimed). */
    bool node_ok = node_uri == NULL || start_node(&a, cfg, node_uri);
    free(node_uri);
    if (a.cluster != NULL) /* no two nodes give one id to two new players */
        store_player_ids(a.store, CLUSTER_SLOTS, cluster_slot(a.cluster));
    if (!node_ok) {
        store_close(a.store);
        close_loop(&a);
        return 1;
    }
    store_recovery *recovery = NULL;
    if (!store_recover(a.store, &recovery, &store_err)) {
        log_error("cannot read the open tables from %s: %s", cfg->db_path, store_err.message);
        cluster_stop(a.cluster);
        store_close(a.store);
        close_loop(&a);
        return 1;
    }
    a.lobby = lobby_create(&a.loop, &lobby_cfg, a.store);
    if (a.lobby == NULL) {
        log_error("cannot start the lobby");
        store_recovery_free(recovery);
        cluster_stop(a.cluster);
        store_close(a.store);
        close_loop(&a);
        return 1;
    }
    size_t reopened = lobby_restore(a.lobby, recovery);
    log_info("database %s: %zu table(s) reopened, %zu unfinished hand(s) replayed", cfg->db_path, reopened,
             recovery->n_unfinished_hands);
    store_recovery_free(recovery);
    net_handlers handlers = lobby_handlers(a.lobby);
    a.net = net_start(&a.loop, &net_cfg, &handlers);
    if (!a.net) {
        cluster_stop(a.cluster);
        lobby_shutdown(a.lobby);
        lobby_destroy(a.lobby);
        store_close(a.store);
        close_loop(&a);
        return 1;
    }
    /* The admin web API reads the store: it is served whenever there is one (always, here). */
    a.started_ms = uv_now(&a.loop);
    const admin_config admin_cfg = {.db_path = cfg->db_path, .ledger_key_path = cfg->ledger_key_path,
                                    .live = admin_live_figures, .live_ctx = &a};
    a.admin = a.store ? admin_create(&a.loop, a.net, a.store, &admin_cfg) : NULL;
    if (a.store && a.admin == NULL)
        log_warn("the admin API is not served");
    start_guest_sweep(&a, cfg->guest_days);
    if (!start_signals(&a)) {
        log_error("cannot watch SIGINT and SIGTERM");
        cluster_stop(a.cluster);
        lobby_shutdown(a.lobby);
        net_stop(a.net);
        uv_close((uv_handle_t *)&a.guest_sweep, NULL);
        a.stopping = true;
    }

    char url[128];
    if (net_metrics_port(a.net) > 0) {
        format_url(url, sizeof url, cfg->metrics_bind, net_metrics_port(a.net));
        log_info("metrics on %s/metrics", url);
    } else {
        log_info("metrics: no operator's port (--metrics-port 0)");
    }
    format_url(url, sizeof url, cfg->bind_address, net_port(a.net));
    log_info("listening on %s (web root %s)", url, cfg->web_root);

    uv_run(&a.loop, UV_RUN_DEFAULT);
    net_destroy(a.net);
    a.net = NULL;
    admin_destroy(a.admin);
    a.admin = NULL;
    lobby_destroy(a.lobby);
    a.lobby = NULL;
    store_close(a.store);
    a.store = NULL;
    int rc = close_loop(&a);
    if (lock_fd >= 0)
        close(lock_fd); /* after the store has closed the database */
    log_info("stopped");
    return rc == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    config cfg;
    char error[256];

    /* `teahouse admin ...` is command-line administration (admin_cli.c), not the server. */
    if (argc > 1 && strcmp(argv[1], "admin") == 0)
        return admin_command(argc - 1, argv + 1);

    switch (config_parse(&cfg, argc, argv, error, sizeof error)) {
    case CONFIG_SHOW_HELP:
        config_usage(stdout, "teahouse");
        return 0;
    case CONFIG_SHOW_VERSION:
        printf("%s\n", config_version());
        return 0;
    case CONFIG_INVALID:
        fprintf(stderr, "teahouse: %s\nTry 'teahouse --help' for the list of options.\n", error);
        return 2;
    case CONFIG_OK:
        break;
    }

    log_set_level(cfg.log_level);
    log_route_lws();
    /* A peer that vanishes mid-write must cost us an EPIPE, not the process. */
    signal(SIGPIPE, SIG_IGN);
    raise_open_file_limit();

    return serve(&cfg);
}
