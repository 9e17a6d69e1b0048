/*
 * load — the load generator for the teahouse server: it speaks the real protocol over real
 * WebSockets from one libuv loop per process and prints what a server of record must show.
 *
 *   hold  N idle connections that say hello: connections held, server RSS per connection.
 *   play  T tables of 4 people acting with legal moves (--game tiengow, tianjin or mix: half
 *         and half): actions/s, latency from an act to every seat receiving its event
 *         (p50/p90/p99/max), hands, errors by code, and the hidden-tile check on every frame
 *         (leaks must be 0; at Tianjin also that no seat learns of another's pass).
 *
 * `meson test --benchmark` runs both at a small size. The full-size figures (release build;
 * the targets on the 2-core development machine are 20,000 connections held, 2,000 tables
 * playing with p99 under 20 ms, under 16 KiB of server memory per connection):
 *
 *   meson setup build-load --buildtype=release && ninja -C build-load
 *   L=build-load/tests/load/teahouse-load S="--server build-load/server/teahouse --web-root web-client"
 *   $L hold $S --connections 20000 --procs 2 --hold-seconds 70 --server-arg=--ping-seconds=20
 *   $L play $S --tables 2000 --seconds 30 --warmup 5 --think-ms 1000 --verbose
 *   $L play $S --tables 2000 --seconds 240 --think-ms 1000   (memory once every table's ring
 *                                                              of recent events is full)
 *   $L play $S --tables 2000 --seconds 30 --think-ms 700      (the pace where 2 cores run out)
 *   $L play $S --tables 2000 --seconds 30 --think-ms 1000 --game tianjin   (or --game mix)
 *
 * The generator shares the machine with the server (one loop each, about 0.4 and 0.65 of a
 * core at 2,000 actions/s) and prints how late its own timers ran: a lag p99 above a few ms
 * means something else took the CPU and the latency is not the server's alone. Run on an
 * otherwise idle machine; --verbose prints one line a second to show when a stall happened.
 *
 * Open files bound the figures: the server refuses sockets within 64 descriptors of its limit,
 * and a client process holds one descriptor per connection, so `hold` spreads its connections
 * over --procs processes (each raises its soft limit to the hard one). With a hard limit of
 * 20,000 the server can hold about 19,920 connections; more needs a higher hard limit for the
 * server process (ulimit -Hn by a privileged user, LimitNOFILE= in its systemd unit) or
 * several nodes (DESIGN.md: Scale).
 * Against a server started elsewhere use --connect HOST:PORT --pid PID (the pid is for the
 * /proc readings); a `play` server needs a high --turn-seconds so no bot takes a seat's turn.
 */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "load.h"
#include "server_process.h"

typedef struct load_server {
    server_process process;
    bool started;
} load_server;

static void usage(FILE *out)
{
    fputs("usage: teahouse-load hold|play [options]\n"
          "server (one of):\n"
          "  --server PATH         start this teahouse binary on 127.0.0.1 and a free port\n"
          "  --web-root DIR        its web root (default web-client)\n"
          "  --server-arg ARG      one more flag for it (repeatable), e.g. --server-arg=--ping-seconds=20\n"
          "  --connect HOST:PORT   use a server that is already running\n"
          "  --pid PID             that server's process id (for RSS and CPU readings)\n"
          "hold:\n"
          "  --connections N       idle connections to open (default 1000)\n"
          "  --procs P             client processes to spread them over (default 1)\n"
          "  --hold-seconds S      how long to hold them before counting (default 5)\n"
          "play:\n"
          "  --tables T            tables of 4 clients (default 50)\n"
          "  --seconds S           measuring window (default 10)\n"
          "  --warmup S            play before measuring (default 2)\n"
          "  --think-ms MS         mean pause before each act (default 1000)\n"
          "  --game G              tiengow (default), tianjin, or mix (every other table Tianjin)\n"
          "  --watchers N          a spectator on each of the first N tables (default 0)\n"
          "both:\n"
          "  --inflight N          handshakes in progress at most (default 128)\n"
          "  --sources N           spread connections over N loopback addresses 127.x.y.OCTET, so\n"
          "                        the server's per-address limits stay on (default 0: one address,\n"
          "                        and a server started here gets those limits lifted)\n"
          "  --source-octet K      the last octet of those addresses (default 1)\n"
          "  --setup-seconds S     time allowed to connect and seat everyone (default 120)\n"
          "  --verbose             progress on stderr\n",
          out);
}

static bool parse_number(const char *text, double min, double max, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (errno != 0 || end == text || *end != '\0' || v < min || v > max)
        return false;
    *out = v;
    return true;
}

static bool parse_host_port(const char *text, load_options *o)
{
    static char host[64];
    const char *colon = strrchr(text, ':');
    if (colon == NULL || (size_t)(colon - text) >= sizeof host)
        return false;
    memcpy(host, text, (size_t)(colon - text));
    host[colon - text] = '\0';
    o->host = host;
    o->port = atoi(colon + 1);
    return o->port > 0 && o->port < 65536;
}

/* The numeric options, as a table so the names, ranges and fields cannot drift apart. */
typedef struct number_option {
    const char *name;
    double min, max;
    size_t offset; /* of the field in load_options */
    bool is_int;   /* an int field, else a double */
} number_option;

static const number_option number_options[] = {
    {"--connections", 1, 1e6, offsetof(load_options, connections), true},
    {"--procs", 1, 16, offsetof(load_options, procs), true},
    {"--hold-seconds", 0, 86400, offsetof(load_options, hold_seconds), false},
    {"--tables", 1, 1e5, offsetof(load_options, tables), true},
    {"--seconds", 0.1, 86400, offsetof(load_options, seconds), false},
    {"--warmup", 0, 3600, offsetof(load_options, warmup_seconds), false},
    {"--think-ms", 0, 600000, offsetof(load_options, think_ms), true},
    {"--watchers", 0, 1e5, offsetof(load_options, watchers), true},
    {"--inflight", 1, 1e5, offsetof(load_options, inflight), true},
    {"--sources", 0, 62500, offsetof(load_options, sources), true},
    {"--source-octet", 1, 254, offsetof(load_options, source_octet), true},
    {"--setup-seconds", 1, 3600, offsetof(load_options, setup_seconds), false},
    {"--pid", 1, 1e9, offsetof(load_options, pid), true},
};

/* One "--name value" or "--name=value" option; false if it is unknown or its value bad. */
static bool parse_option(load_options *o, const char *name, const char *value)
{
    for (size_t i = 0; i < sizeof number_options / sizeof number_options[0]; i++) {
        const number_option *opt = &number_options[i];
        if (strcmp(name, opt->name) != 0)
            continue;
        double v;
        if (!parse_number(value, opt->min, opt->max, &v))
            return false;
        char *field = (char *)o + opt->offset;
        if (opt->is_int)
            *(int *)(void *)field = (int)v;
        else
            *(double *)(void *)field = v;
        return true;
    }
    if (strcmp(name, "--server") == 0) {
        o->server_binary = value;
    } else if (strcmp(name, "--web-root") == 0) {
        o->web_root = value;
    } else if (strcmp(name, "--server-arg") == 0) {
        if (o->n_server_args == LOAD_MAX_SERVER_ARGS)
            return false;
        o->server_args[o->n_server_args++] = value;
    } else if (strcmp(name, "--connect") == 0) {
        return parse_host_port(value, o);
    } else if (strcmp(name, "--game") == 0) {
        if (strcmp(value, "tiengow") != 0 && strcmp(value, "tianjin") != 0 && strcmp(value, "mix") != 0)
            return false;
        o->game = value;
    } else {
        return false;
    }
    return true;
}

static bool parse_args(int argc, char **argv, load_options *o)
{
    *o = (load_options){.web_root = "web-client", .game = "tiengow", .connections = 1000, .procs = 1,
                        .hold_seconds = 5, .tables = 50, .seconds = 10, .warmup_seconds = 2,
                        .think_ms = 1000, .inflight = 128, .setup_seconds = 120, .source_octet = 1};
    if (argc < 2 || (strcmp(argv[1], "hold") != 0 && strcmp(argv[1], "play") != 0))
        return false;
    o->mode = argv[1];
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--verbose") == 0) {
            o->verbose = true;
            continue;
        }
        char name[64];
        const char *value;
        const char *equals = strchr(argv[i], '=');
        if (equals != NULL && (size_t)(equals - argv[i]) < sizeof name) {
            memcpy(name, argv[i], (size_t)(equals - argv[i]));
            name[equals - argv[i]] = '\0';
            value = equals + 1;
        } else if (i + 1 < argc) {
            snprintf(name, sizeof name, "%s", argv[i]);
            value = argv[++i];
        } else {
            fprintf(stderr, "teahouse-load: %s wants a value\n", argv[i]);
            return false;
        }
        if (!parse_option(o, name, value)) {
            fprintf(stderr, "teahouse-load: bad option %s %s\n", name, value);
            return false;
        }
    }
    if ((o->server_binary == NULL) == (o->host == NULL)) {
        fprintf(stderr, "teahouse-load: give either --server PATH or --connect HOST:PORT\n");
        return false;
    }
    return true;
}

/* A client process holds one descriptor per connection: take all the hard limit allows. */
static void raise_fd_limit(bool verbose)
{
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return;
    if (limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &limit) != 0)
            perror("teahouse-load: setrlimit");
    }
    if (verbose && getrlimit(RLIMIT_NOFILE, &limit) == 0)
        fprintf(stderr, "load: open-file limit %llu\n", (unsigned long long)limit.rlim_cur);
}

/* Starts the server with the flags the mode needs, then the user's own (later flags win). */
static bool start_server(const load_options *o, load_server *server, load_target *target)
{
    const char *args[LOAD_MAX_SERVER_ARGS + 16];
    int n = 0;
    char max_tables[32];
    args[n++] = "--web-root";
    args[n++] = o->web_root;
    if (o->sources == 0) { /* every connection of the load comes from this machine's one address */
        args[n++] = "--max-connections-per-address";
        args[n++] = "0";
        args[n++] = "--new-guests-per-minute";
        args[n++] = "0";
    }
    if (strcmp(o->mode, "play") == 0) {
        /* people must never be replaced by the bot for being slow; ready starts each hand */
        snprintf(max_tables, sizeof max_tables, "%d", o->tables + 100);
        args[n++] = "--turn-seconds";
        args[n++] = "300"; /* the longest turn timer (house_limits.h) */
        args[n++] = "--next-hand-seconds";
        args[n++] = "60";
        args[n++] = "--max-tables";
        args[n++] = max_tables;
    }
    for (int i = 0; i < o->n_server_args; i++)
        args[n++] = o->server_args[i];
    args[n] = NULL;
    if (!server_process_start(&server->process, o->server_binary, args, 10000))
        return false;
    server->started = true;
    snprintf(target->host, sizeof target->host, "%s", server->process.host);
    target->port = server->process.port;
    target->pid = server->process.pid;
    target->ours = true;
    return true;
}

void load_target_request_stop(load_target *target)
{
    if (target->ours && target->pid > 0 && !target->stop_requested) {
        target->stop_requested = true;
        kill(target->pid, SIGTERM);
    }
}

/* Stops a server we started and says how it ended: clean is exit 0 and no error logged
 * (warnings are counted: refusing sockets at the open-file limit is one, and expected). */
static int stop_server(load_server *server, load_target *target)
{
    int status = 0;
    bool exited = target->stop_requested
                      ? server_process_wait(&server->process, 15000, &status)
                      : server_process_stop(&server->process, SIGTERM, 15000, &status);
    char *log = server_process_log(&server->process);
    int warnings = 0;
    for (const char *p = log; p != NULL && (p = strstr(p, "WARN ")) != NULL; p++)
        warnings++;
    int errors = 0;
    for (const char *p = log; p != NULL && (p = strstr(p, "ERROR")) != NULL; p++)
        errors++;
    bool clean = exited && WIFEXITED(status) && WEXITSTATUS(status) == 0 && errors == 0;
    printf("  %-26s %s; log: %d warning(s), %d error(s)\n", "server shutdown",
           !exited ? "did not exit in 15 s" : clean ? "clean, exit 0" : "exit not clean", warnings,
           errors);
    /* the first few warnings, to tell the expected ones from the rest */
    int shown = 0;
    for (const char *p = log; p != NULL && shown < 5 && (p = strstr(p, "WARN ")) != NULL; p++, shown++) {
        const char *end = strchr(p, '\n');
        printf("  %-26s %.*s\n", shown == 0 ? "server warnings" : "", (int)(end != NULL ? end - p : 200), p);
    }
    if (!clean) {
        size_t len = log != NULL ? strlen(log) : 0;
        fprintf(stderr, "load: the server's log (last part):\n%s\n", len > 3000 ? log + len - 3000 : log);
    }
    free(log);
    server_process_cleanup(&server->process);
    return clean ? 0 : 1;
}

int main(int argc, char **argv)
{
    load_options o;
    if (!parse_args(argc, argv, &o)) {
        usage(stderr);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN); /* a socket or pipe closed under a write is an error, not death */
    raise_fd_limit(o.verbose);

    load_target target = {.pid = o.pid};
    load_server server = {0};
    if (o.server_binary != NULL) {
        if (!start_server(&o, &server, &target))
            return 1;
    } else {
        snprintf(target.host, sizeof target.host, "%s", o.host);
        target.port = o.port;
    }
    if (o.verbose)
        fprintf(stderr, "load: server %s:%d (pid %d)\n", target.host, target.port, (int)target.pid);

    int status = strcmp(o.mode, "hold") == 0 ? load_hold(&o, &target) : load_play(&o, &target);
    if (server.started && stop_server(&server, &target) != 0)
        status = 1;
    return status;
}
