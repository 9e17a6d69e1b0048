/*
 * server_process — run the teahouse binary as a child of a test. See server_process.h.
 */
#include "server_process.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void sleep_ms(int ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

char *server_process_log(const server_process *server)
{
    FILE *f = fopen(server->log_path, "rb");
    if (!f)
        return strdup("");
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    size_t n;
    while (text && (n = fread(text + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len - 1 == 0) {
            char *grown = realloc(text, cap * 2);
            if (!grown) {
                free(text);
                text = NULL;
                break;
            }
            text = grown;
            cap *= 2;
        }
    }
    fclose(f);
    if (text)
        text[len] = '\0';
    return text;
}

/* The port of "metrics on http://HOST:PORT/metrics" in the log; 0 if there is none. */
static int find_metrics_port(const char *log)
{
    const char *marker = log ? strstr(log, "metrics on http://") : NULL;
    if (!marker)
        return 0;
    const char *end = strstr(marker, "/metrics");
    const char *colon = NULL;
    for (const char *c = marker + strlen("metrics on http://"); end && c < end; c++)
        if (*c == ':')
            colon = c;
    return colon ? atoi(colon + 1) : 0;
}

/* Parses "listening on http://HOST:PORT" out of the log; true once it is there. */
static bool find_listen_line(server_process *server)
{
    char *log = server_process_log(server);
    server->metrics_port = find_metrics_port(log);
    const char *marker = log ? strstr(log, "listening on http://") : NULL;
    bool found = false;
    if (marker) {
        const char *host = marker + strlen("listening on http://");
        const char *end = host + strcspn(host, " \n");
        const char *colon = NULL;
        for (const char *c = host; c < end; c++) /* the last colon: IPv6 hosts have more */
            if (*c == ':')
                colon = c;
        bool whole_line = *end == ' ' || *end == '\n'; /* not a line still being written */
        if (whole_line && colon && (size_t)(colon - host) < sizeof server->host) {
            memcpy(server->host, host, (size_t)(colon - host));
            server->host[colon - host] = '\0';
            server->port = atoi(colon + 1);
            found = server->port > 0;
        }
    }
    free(log);
    return found;
}

static bool has_flag(const char *const extra_args[], const char *flag)
{
    size_t len = strlen(flag);
    for (int i = 0; extra_args && extra_args[i]; i++)
        if (strncmp(extra_args[i], flag, len) == 0 &&
            (extra_args[i][len] == '\0' || extra_args[i][len] == '='))
            return true;
    return false;
}

/* A port nobody listens on right now (the kernel's pick for a socket bound to port 0). */
static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof addr;
    int port = 0;
    if (fd >= 0 && bind(fd, (struct sockaddr *)&addr, sizeof addr) == 0 &&
        getsockname(fd, (struct sockaddr *)&addr, &len) == 0)
        port = ntohs(addr.sin_port);
    if (fd >= 0)
        close(fd);
    return port;
}

static void exec_server(const char *binary, const char *const extra_args[], const char *log_path,
                        const char *db_path, int metrics_port)
{
    const char *argv[64];
    int argc = 0;
    argv[argc++] = binary;
    argv[argc++] = "--port";
    argv[argc++] = "0";
    argv[argc++] = "--bind";
    argv[argc++] = "127.0.0.1";
    if (db_path[0]) {
        argv[argc++] = "--db";
        argv[argc++] = db_path;
    }
    char metrics_text[16];
    if (metrics_port > 0) {
        snprintf(metrics_text, sizeof metrics_text, "%d", metrics_port);
        argv[argc++] = "--metrics-port";
        argv[argc++] = metrics_text;
    }
    for (int i = 0; extra_args && extra_args[i] && argc < 62; i++)
        argv[argc++] = extra_args[i];
    argv[argc] = NULL;

    prctl(PR_SET_PDEATHSIG, SIGKILL);
    int log_fd = open(log_path, O_WRONLY | O_TRUNC);
    if (log_fd >= 0) {
        dup2(log_fd, STDERR_FILENO);
        close(log_fd);
    }
    execv(binary, (char *const *)argv);
    fprintf(stderr, "exec %s: %s\n", binary, strerror(errno));
    _exit(127);
}

/* One try: forks the server and waits for its listen line. */
static bool start_once(server_process *server, const char *binary, const char *const extra_args[],
                       int metrics_port, int timeout_ms)
{
    int fd = open(server->log_path, O_WRONLY | O_TRUNC);
    if (fd >= 0)
        close(fd);
    pid_t pid = fork();
    if (pid < 0)
        return false;
    if (pid == 0)
        exec_server(binary, extra_args, server->log_path, server->db_path, metrics_port);
    server->pid = pid;

    for (int waited = 0; waited < timeout_ms; waited += 10) {
        if (find_listen_line(server))
            return true;
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid) {
            server->pid = 0;
            break;
        }
        sleep_ms(10);
    }
    return false;
}

bool server_process_start(server_process *server, const char *binary,
                          const char *const extra_args[], int timeout_ms)
{
    memset(server, 0, sizeof *server);
    snprintf(server->log_path, sizeof server->log_path, "/tmp/teahouse-test-XXXXXX");
    int fd = mkstemp(server->log_path);
    if (fd < 0)
        return false;
    close(fd);
    if (!has_flag(extra_args, "--db")) { /* a database of its own, so tests never share one */
        snprintf(server->db_dir, sizeof server->db_dir, "/tmp/teahouse-db-XXXXXX");
        if (mkdtemp(server->db_dir) == NULL)
            return false;
        snprintf(server->db_path, sizeof server->db_path, "%s/teahouse.db", server->db_dir);
    }

    bool own_metrics_port = !has_flag(extra_args, "--metrics-port");
    for (int attempt = 0; attempt < 3; attempt++) {
        if (start_once(server, binary, extra_args, own_metrics_port ? free_port() : 0,
                       timeout_ms))
            return true;
        char *log = server_process_log(server);
        /* another process took the free port between our look and the server's bind */
        bool port_taken = own_metrics_port && log && strstr(log, "the operator's port");
        if (!port_taken || attempt == 2)
            fprintf(stderr, "server did not start; its log:\n%s\n", log ? log : "");
        free(log);
        if (server->pid) {
            kill(server->pid, SIGKILL);
            waitpid(server->pid, NULL, 0);
            server->pid = 0;
        }
        if (!port_taken)
            break;
    }
    return false;
}

bool server_process_wait(server_process *server, int timeout_ms, int *status)
{
    if (!server->pid)
        return false;
    for (int waited = 0; waited <= timeout_ms; waited += 10) {
        if (waitpid(server->pid, status, WNOHANG) == server->pid) {
            server->pid = 0;
            return true;
        }
        sleep_ms(10);
    }
    return false;
}

bool server_process_stop(server_process *server, int signum, int timeout_ms, int *status)
{
    if (!server->pid)
        return false;
    kill(server->pid, signum);
    return server_process_wait(server, timeout_ms, status);
}

void server_process_cleanup(server_process *server)
{
    if (server->pid) {
        kill(server->pid, SIGKILL);
        waitpid(server->pid, NULL, 0);
        server->pid = 0;
    }
    if (server->log_path[0])
        unlink(server->log_path);
    if (server->db_dir[0]) {
        static const char *const SUFFIXES[] = {"", "-wal", "-shm", "-journal", ".lock", ".key"};
        for (size_t i = 0; i < sizeof SUFFIXES / sizeof SUFFIXES[0]; i++) {
            char path[sizeof server->db_path + 16];
            snprintf(path, sizeof path, "%s%s", server->db_path, SUFFIXES[i]);
            unlink(path);
        }
        rmdir(server->db_dir);
    }
}
