/*
 * server_process — starts the real teahouse binary for a test and stops it again.
 *
 * The server is started with --port 0 --bind 127.0.0.1 (plus the test's own flags), with a
 * fresh database in a temporary directory unless the test gives --db, and its stderr goes to a
 * temporary log file; the port is read from the "listening on http://HOST:PORT"
 * line it logs. Unless the test gives --metrics-port, the operator's port (/metrics) is a free
 * one found here (tried again with another should it be taken meanwhile) and read from the
 * "metrics on" line. The child dies with the test process (PR_SET_PDEATHSIG), so a failing
 * test never leaves a server behind.
 */
#ifndef SERVER_PROCESS_H
#define SERVER_PROCESS_H

#include <stdbool.h>
#include <sys/types.h>

typedef struct server_process {
    pid_t pid;        /* 0 once reaped */
    int port;
    int metrics_port; /* the operator's port, for /metrics (0: none) */
    char host[64];
    char log_path[64];
    char db_dir[64];   /* the temporary directory of its database, unless the test gave --db */
    char db_path[96];
} server_process;

/* Starts binary with the given extra arguments (NULL-terminated list, may be NULL) and waits
 * up to timeout_ms for it to listen. On failure the log is printed to stderr. */
bool server_process_start(server_process *server, const char *binary,
                          const char *const extra_args[], int timeout_ms);

/* Sends signum and waits up to timeout_ms for the exit. True if it exited in time; *status is
 * the waitpid status. */
bool server_process_stop(server_process *server, int signum, int timeout_ms, int *status);

/* Waits up to timeout_ms for an exit already under way (see server_process_stop). */
bool server_process_wait(server_process *server, int timeout_ms, int *status);

/* The log so far, NUL-terminated (free it). */
char *server_process_log(const server_process *server);

/* Kills the server if it still runs and removes its log. */
void server_process_cleanup(server_process *server);

#endif
