/*
 * load_hold — the `hold` mode: N idle connections that each say hello, and the server's
 * memory per connection.
 *
 * One process cannot hold more client sockets than its open-file limit (20,000 on the
 * development machines, the same as the server's), so the connections are spread over
 * --procs child processes. The parent only coordinates, over two pipes per child:
 *
 *   child -> parent   "opened W failed F why ..."  once every connection has answered
 *   parent -> child   'c' -> "held W pings P"      after the hold, to see who is still there
 *   parent closes     the child closes its connections (close frames) and exits
 *
 * The server's VmRSS is read before the first connection and at the end of the hold; the
 * difference divided by the connections held is the memory per connection. Idle connections
 * are pinged by the server after its --ping-seconds; the clients answer, and a hold longer
 * than two ping periods shows that held connections survive the keepalive.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <uv.h>

#include "load.h"
#include "load_conn.h"
#include "load_stats.h"

#define HOLD_MAX_PROCS 16
#define HOLD_CLOSE_MS 5000

typedef struct hold_child hold_child;

typedef struct hold_conn {
    load_conn conn;
    hold_child *child;
    int number;
    bool welcomed;
} hold_conn;

struct hold_child {
    const load_options *o;
    int proc;
    uv_loop_t loop;
    load_net net;
    hold_conn *conns;
    int n;
    int next;            /* the next connection to start */
    int handshaking;
    int welcomed;        /* welcomed and still open */
    int failed;          /* never welcomed */
    int lost;            /* welcomed, then gone before we closed them */
    int live;            /* handles not yet closed */
    load_counts why_failed;
    bool reported;
    bool closing;
    int report_fd, command_fd;
    uv_poll_t command;
    uv_timer_t timer;    /* the setup deadline, then the close deadline */
};

/* ---- the child: connections -------------------------------------------------------------- */

static void child_connect_more(hold_child *h);
static void child_maybe_report(hold_child *h);

static void write_line(int fd, const char *text)
{
    size_t len = strlen(text), done = 0;
    while (done < len) {
        ssize_t n = write(fd, text + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        done += (size_t)n;
    }
}

static void hold_on_open(load_conn *conn)
{
    hold_conn *c = conn->user;
    char hello[96];
    int n = snprintf(hello, sizeof hello,
                     "{\"type\":\"hello\",\"id\":1,\"v\":1,\"name\":\"hold%d-%d\"}",
                     c->child->proc, c->number);
    load_conn_send_text(conn, hello, (size_t)n);
}

static void hold_on_message(load_conn *conn, const char *text, size_t len)
{
    hold_conn *c = conn->user;
    hold_child *h = c->child;
    if (c->welcomed)
        return; /* an idle player gets nothing else; nothing else matters here */
    json_t *frame = json_loadb(text, len, 0, NULL);
    const char *type = json_string_value(json_object_get(frame, "type"));
    if (type != NULL && strcmp(type, "welcome") == 0) {
        c->welcomed = true;
        h->welcomed++;
        h->handshaking--;
        child_connect_more(h);
        child_maybe_report(h);
    } else {
        load_counts_add(&h->why_failed, "no welcome", 10);
    }
    json_decref(frame);
}

static void child_end_loop(hold_child *h)
{
    if (!uv_is_closing((uv_handle_t *)&h->timer))
        uv_close((uv_handle_t *)&h->timer, NULL);
    if (!uv_is_closing((uv_handle_t *)&h->command))
        uv_close((uv_handle_t *)&h->command, NULL);
}

static void hold_on_closed(load_conn *conn, const char *why)
{
    hold_conn *c = conn->user;
    hold_child *h = c->child;
    h->live--;
    if (c->welcomed) {
        h->welcomed--;
        if (!h->closing)
            h->lost++;
    } else {
        h->handshaking--;
        h->failed++;
        load_counts_add(&h->why_failed, why, strlen(why));
    }
    if (h->closing) {
        if (h->live == 0)
            child_end_loop(h);
        return;
    }
    child_connect_more(h);
    child_maybe_report(h);
}

static const load_conn_handlers hold_handlers = {
    .on_open = hold_on_open,
    .on_message = hold_on_message,
    .on_closed = hold_on_closed,
};

static void child_connect_more(hold_child *h)
{
    while (!h->reported && h->next < h->n && h->handshaking < h->o->inflight) {
        hold_conn *c = &h->conns[h->next];
        c->child = h;
        c->number = h->next++;
        h->handshaking++;
        h->live++;
        load_conn_start(&h->net, &c->conn, &hold_handlers, c);
    }
}

static void child_report(hold_child *h)
{
    char line[2048];
    char why[1536];
    FILE *mem = fmemopen(why, sizeof why, "w");
    if (mem != NULL) {
        load_counts_print(&h->why_failed, mem);
        fclose(mem);
    } else {
        snprintf(why, sizeof why, "?");
    }
    snprintf(line, sizeof line, "opened %d failed %d pending %d why %s\n", h->welcomed, h->failed,
             h->handshaking + (h->n - h->next), why);
    write_line(h->report_fd, line);
    h->reported = true;
}

static void child_maybe_report(hold_child *h)
{
    if (!h->reported && h->next == h->n && h->handshaking == 0)
        child_report(h);
}

static void on_child_timer(uv_timer_t *timer)
{
    hold_child *h = timer->data;
    if (!h->closing) { /* the setup deadline: report what there is */
        if (!h->reported)
            child_report(h);
        return;
    }
    for (int i = 0; i < h->next; i++) /* the close deadline */
        load_conn_abort(&h->conns[i].conn, "close deadline");
}

static void child_close_all(hold_child *h)
{
    h->closing = true;
    uv_poll_stop(&h->command);
    for (int i = 0; i < h->next; i++)
        load_conn_close(&h->conns[i].conn, 1000);
    uv_timer_start(&h->timer, on_child_timer, HOLD_CLOSE_MS, 0);
    if (h->live == 0)
        child_end_loop(h);
}

/* The parent asks how many are still held ('c'), or closes the pipe: time to go. */
static void on_command(uv_poll_t *poll, int status, int events)
{
    (void)events;
    hold_child *h = poll->data;
    char buf[16];
    ssize_t n = status == 0 ? read(h->command_fd, buf, sizeof buf) : 0;
    if (n < 0 && errno == EINTR)
        return;
    if (n <= 0) {
        child_close_all(h);
        return;
    }
    uint64_t pings = 0;
    int answered = 0;
    for (int i = 0; i < h->next; i++) {
        pings += h->conns[i].conn.pings;
        answered += h->conns[i].welcomed && h->conns[i].conn.pings > 0;
    }
    char line[128];
    snprintf(line, sizeof line, "held %d lost %d pings %llu pinged %d\n", h->welcomed, h->lost,
             (unsigned long long)pings, answered);
    write_line(h->report_fd, line);
}

static int run_child(const load_options *o, const load_target *target, int proc, int count,
                     int report_fd, int command_fd)
{
    hold_child *h = calloc(1, sizeof *h);
    if (h == NULL)
        return 1;
    h->o = o;
    h->proc = proc;
    h->n = count;
    h->report_fd = report_fd;
    h->command_fd = command_fd;
    h->conns = calloc((size_t)(count > 0 ? count : 1), sizeof *h->conns);
    uv_loop_init(&h->loop);
    bool net_ready = h->conns != NULL && load_net_init(&h->net, &h->loop, target->host, target->port);
    if (net_ready)
        load_net_spread(&h->net, o->sources, o->source_octet);
    if (!net_ready) {
        write_line(report_fd, "opened 0 failed 0 pending 0 why setup failed\n");
        return 1;
    }
    uv_poll_init(&h->loop, &h->command, command_fd);
    h->command.data = h;
    uv_poll_start(&h->command, UV_READABLE, on_command);
    uv_timer_init(&h->loop, &h->timer);
    h->timer.data = h;
    uv_timer_start(&h->timer, on_child_timer, (uint64_t)(o->setup_seconds * 1000), 0);
    child_connect_more(h);
    child_maybe_report(h);
    uv_run(&h->loop, UV_RUN_DEFAULT);
    load_net_free(&h->net);
    int rc = uv_loop_close(&h->loop) == 0 ? 0 : 1;
    free(h->conns);
    free(h);
    return rc;
}

/* ---- the parent -------------------------------------------------------------------------- */

typedef struct hold_proc {
    pid_t pid;
    FILE *report;
    int command_fd;
    int count;
    int opened, failed, pending;
    int held, lost, pinged;
    unsigned long long pings;
    char why[1536];
} hold_proc;

static void sleep_seconds(double seconds)
{
    struct timespec ts = {.tv_sec = (time_t)seconds,
                          .tv_nsec = (long)((seconds - (double)(time_t)seconds) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* Starts child `proc`; the earlier children's pipes are closed in it, or their parent ends
 * would stay open there and those children would never see the pipe close. */
static bool spawn(const load_options *o, const load_target *target, hold_proc *procs, int proc)
{
    hold_proc *p = &procs[proc];
    int report[2], command[2];
    if (pipe(report) != 0 || pipe(command) != 0)
        return false;
    fflush(NULL);
    p->pid = fork();
    if (p->pid < 0)
        return false;
    if (p->pid == 0) {
        for (int i = 0; i < proc; i++) {
            close(procs[i].command_fd);
            fclose(procs[i].report);
        }
        close(report[0]);
        close(command[1]);
        _exit(run_child(o, target, proc, p->count, report[1], command[0]));
    }
    close(report[1]);
    close(command[0]);
    p->report = fdopen(report[0], "r");
    p->command_fd = command[1];
    return p->report != NULL;
}

static void read_opened(hold_proc *p)
{
    char line[2048];
    if (fgets(line, sizeof line, p->report) == NULL ||
        sscanf(line, "opened %d failed %d pending %d why %1535[^\n]", &p->opened, &p->failed,
               &p->pending, p->why) < 3)
        snprintf(p->why, sizeof p->why, "(no report from the child)");
}

static void read_held(hold_proc *p)
{
    char line[256];
    if (write(p->command_fd, "c", 1) != 1 || fgets(line, sizeof line, p->report) == NULL ||
        sscanf(line, "held %d lost %d pings %llu pinged %d", &p->held, &p->lost, &p->pings,
               &p->pinged) != 4)
        p->held = -1;
}

/* The server's "Max open files" soft limit, or -1. */
static long server_fd_limit(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/limits", (int)pid);
    FILE *f = fopen(path, "r");
    long limit = -1;
    while (f != NULL && fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "Max open files", 14) == 0)
            limit = strtol(line + 14, NULL, 10);
    if (f != NULL)
        fclose(f);
    return limit;
}

static int print_report(const load_options *o, const load_target *target, const hold_proc *procs,
                        long rss_before, long rss_held)
{
    int opened = 0, failed = 0, pending = 0, held = 0, lost = 0, pinged = 0;
    unsigned long long pings = 0;
    for (int i = 0; i < o->procs; i++) {
        opened += procs[i].opened;
        failed += procs[i].failed;
        pending += procs[i].pending;
        held += procs[i].held > 0 ? procs[i].held : 0;
        lost += procs[i].lost;
        pinged += procs[i].pinged;
        pings += procs[i].pings;
    }
    printf("teahouse load: hold\n");
    printf("  %-26s %d in %d process(es)\n", "connections asked", o->connections, o->procs);
    printf("  %-26s %d welcomed; %d still held after %.1f s (%d lost)\n", "connections held",
           opened, held, o->hold_seconds, lost);
    printf("  %-26s %d never welcomed, %d still pending\n", "failed", failed, pending);
    for (int i = 0; i < o->procs; i++)
        if (procs[i].failed > 0 || procs[i].why[0] == '(')
            printf("  %-26s client process %d: %s\n", "  why", i, procs[i].why);
    printf("  %-26s %llu received, %d held connections pinged and answered\n", "server pings",
           pings, pinged);
    if (target->pid > 0) {
        printf("  %-26s %ld\n", "server open-file limit", server_fd_limit(target->pid));
        printf("  %-26s %ld KiB before, %ld KiB holding\n", "server RSS", rss_before, rss_held);
        if (held > 0 && rss_before >= 0 && rss_held >= 0)
            printf("  %-26s %.2f KiB\n", "server RSS per connection",
                   (double)(rss_held - rss_before) / held);
        bool small = held > 0 && (double)(rss_held - rss_before) / held < 16.0;
        if (o->connections >= 20000)
            printf("  %-26s 20,000 held: %s; under 16 KiB per connection: %s\n", "targets",
                   held >= 20000 ? "met" : "missed", small ? "met" : "missed");
        else
            printf("  %-26s under 16 KiB per connection: %s (20,000 held needs --connections "
                   "20000)\n", "targets", small ? "met" : "missed");
    }
    fflush(stdout);
    return held > 0 && lost == 0 ? 0 : 1;
}

int load_hold(const load_options *o, const load_target *target)
{
    if (o->procs < 1 || o->procs > HOLD_MAX_PROCS) {
        fprintf(stderr, "load: --procs must be 1..%d\n", HOLD_MAX_PROCS);
        return 2;
    }
    hold_proc procs[HOLD_MAX_PROCS];
    memset(procs, 0, sizeof procs);
    long rss_before = target->pid ? load_rss_kib(target->pid) : -1;
    for (int i = 0; i < o->procs; i++) {
        procs[i].count = o->connections / o->procs + (i < o->connections % o->procs);
        if (!spawn(o, target, procs, i)) {
            fprintf(stderr, "load: cannot start client process %d\n", i);
            return 1;
        }
    }
    for (int i = 0; i < o->procs; i++)
        read_opened(&procs[i]);
    if (o->verbose) {
        int opened = 0;
        for (int i = 0; i < o->procs; i++)
            opened += procs[i].opened;
        fprintf(stderr, "load: %d connections welcomed; holding %.1f s\n", opened, o->hold_seconds);
    }
    sleep_seconds(o->hold_seconds);
    long rss_held = target->pid ? load_rss_kib(target->pid) : -1;
    for (int i = 0; i < o->procs; i++)
        read_held(&procs[i]);
    int status = print_report(o, target, procs, rss_before, rss_held);
    for (int i = 0; i < o->procs; i++) {
        close(procs[i].command_fd);
        int child_status = 0;
        waitpid(procs[i].pid, &child_status, 0);
        fclose(procs[i].report);
        if (!WIFEXITED(child_status) || WEXITSTATUS(child_status) != 0) {
            fprintf(stderr, "load: client process %d ended badly (status %d)\n", i, child_status);
            status = 1;
        }
    }
    return status;
}
