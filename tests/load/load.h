/*
 * load — what the load generator's modes share: the command-line options and the server
 * under load (started by the tool or given by address and pid). load.c parses and reports;
 * load_hold.c and load_play.c are the two modes.
 */
#ifndef LOAD_H
#define LOAD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define LOAD_MAX_SERVER_ARGS 32

typedef struct load_options {
    const char *mode;           /* "hold" or "play" */
    /* the server: started from a binary, or already running */
    const char *server_binary;
    const char *web_root;
    const char *server_args[LOAD_MAX_SERVER_ARGS]; /* extra flags for a server we start */
    int n_server_args;
    const char *host;
    int port;
    int pid;                    /* of a server already running, 0 if not given */
    /* hold */
    int connections;
    int procs;
    double hold_seconds;
    /* play */
    int tables;
    double seconds;
    double warmup_seconds;
    int think_ms;
    const char *game;           /* "tiengow", "tianjin" or "mix" (odd tables Tianjin) */
    int watchers;               /* spectators, one on each of the first tables */
    /* both */
    int inflight;               /* handshakes in progress at most */
    int sources;                /* loopback source addresses to spread connections over, 0: one */
    int source_octet;           /* the last octet of those addresses (so two runs differ) */
    double setup_seconds;       /* time allowed for connecting (and seating) */
    bool verbose;
} load_options;

/* The server under load. */
typedef struct load_target {
    char host[64];
    int port;
    pid_t pid;                  /* for /proc readings; 0 if unknown */
    bool ours;                  /* we started it (and stop it) */
    bool stop_requested;        /* SIGTERM has been sent */
} load_target;

/* Each returns the process exit status: 0 when the run worked and broke no promise. */
int load_hold(const load_options *options, const load_target *target);
int load_play(const load_options *options, load_target *target);

/* Asks a server we started to shut down (SIGTERM); the modes call it while their connections
 * are still open, so the shutdown path is exercised under load too. */
void load_target_request_stop(load_target *target);

#endif
