/*
 * The net.h contract seen from the application's side: the server runs in this process on its
 * own uv loop with test handlers, and a client thread talks to it over real sockets. Covers
 * what the lobby relies on and the placeholder binary cannot show: net_close (queued messages
 * first, then close 1000), net_send refusing after close, the queue bound, per-connection data,
 * the peer address, write_metrics, every on_open paired with one on_close by the time uv_run
 * returns, and uv_loop_close() == 0 after the two-step shutdown. And the application's HTTP
 * routes: an answer given at once, one given later from a timer (as the store answers), a
 * streamed answer paced by the client's reading, a body and its cap, and clients that go away
 * before their answer, a plain one and a stream.
 *
 * Usage: test_net_api WEB_CLIENT_DIR
 */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <uv.h>

#include "http_client.h"
#include "log.h"
#include "metrics.h"
#include "net.h"
#include "ws_client.h"

#define TIMEOUT_MS 5000
#define QUEUE_BOUND (256 * 1024) /* NET_MAX_QUEUED_BYTES in net.h */

static const char *web_root;

/* Everything the handlers record, read by the test once the loop has stopped. */
typedef struct harness {
    uv_loop_t loop;
    uv_async_t stop_request;
    net_server *net;
    int port;
    int metrics_port;
    int opens, closes, messages;
    int sends_after_close_accepted; /* net_send returning true after net_close/on_close */
    int flood_accepted;             /* net_send calls accepted before the queue overflowed */
    int flood_refused;
    bool client_ok;
    char client_failure[256];
    /* HTTP routes */
    int later_answered, later_answered_gone;
    int streams_ended, streams_ended_gone;
    size_t stream_max_queued;
    int stream_writable_calls;
} harness;

/* ---- server side: handlers on the loop thread -------------------------------------------- */

static void reply(net_conn *conn, const char *text)
{
    net_send(conn, text, strlen(text));
}

static void on_open(void *ctx, net_conn *conn)
{
    harness *h = ctx;
    h->opens++;
    net_conn_identified(conn); /* these clients never say hello: the test knows them */
    net_conn_set_data(conn, (void *)(intptr_t)h->opens);
}

static void on_flood(harness *h, net_conn *conn, const char *args)
{
    int count = 0, size = 0;
    sscanf(args, "%d:%d", &count, &size);
    char *text = malloc((size_t)size);
    memset(text, 'f', (size_t)size);
    for (int i = 0; i < count; i++) {
        if (net_send(conn, text, (size_t)size))
            h->flood_accepted++;
        else
            h->flood_refused++;
    }
    free(text);
}

static void on_message(void *ctx, net_conn *conn, const char *text, size_t len)
{
    harness *h = ctx;
    char buf[128];
    h->messages++;
    (void)len;
    if (strncmp(text, "echo:", 5) == 0) {
        reply(conn, text + 5);
    } else if (strcmp(text, "data") == 0) {
        snprintf(buf, sizeof buf, "%d", (int)(intptr_t)net_conn_data(conn));
        reply(conn, buf);
    } else if (strcmp(text, "peer") == 0) {
        reply(conn, net_conn_peer(conn));
    } else if (strcmp(text, "count") == 0) {
        snprintf(buf, sizeof buf, "%zu", net_connection_count(h->net));
        reply(conn, buf);
    } else if (strncmp(text, "close:", 6) == 0) {
        reply(conn, "bye-1");
        reply(conn, "bye-2");
        net_close(conn, text + 6);
        if (net_send(conn, "late", 4))
            h->sends_after_close_accepted++;
    } else if (strncmp(text, "flood:", 6) == 0) {
        on_flood(h, conn, text + 6);
    }
}

static void on_close(void *ctx, net_conn *conn)
{
    harness *h = ctx;
    h->closes++;
    if (net_send(conn, "too late", 8))
        h->sends_after_close_accepted++;
}

static void write_metrics(void *ctx, char *buf, size_t cap, size_t *len)
{
    harness *h = ctx;
    metrics_appendf(buf, cap, len, "# TYPE teahouse_test_opens counter\n");
    metrics_appendf(buf, cap, len, "teahouse_test_opens %d\n", h->opens);
}

/* ---- server side: HTTP routes ------------------------------------------------------------ */

#define STREAM_LINE 1000
#define STREAM_HIGH (64 * 1024) /* the application's own bound on what it queues */

typedef struct later_answer {
    uv_timer_t timer;
    harness *h;
    net_request *request;
} later_answer;

typedef struct stream_state {
    int lines_left; /* -1: until the client goes */
    int line;
} stream_state;

static void on_later_closed(uv_handle_t *handle)
{
    free(handle->data);
}

static void on_later_timer(uv_timer_t *timer)
{
    later_answer *later = timer->data;
    later->h->later_answered++;
    if (net_request_gone(later->request))
        later->h->later_answered_gone++;
    net_respond(later->request, 200, "text/plain", "later", 5);
    uv_close((uv_handle_t *)timer, on_later_closed);
}

/* Writes lines up to the application's bound; ends once they are all out or the client left. */
static void stream_more(harness *h, net_request *request)
{
    stream_state *st = net_request_data(request);
    char line[STREAM_LINE + 1];
    h->stream_writable_calls++;
    while (st->lines_left != 0 && net_stream_queued(request) < STREAM_HIGH) {
        snprintf(line, sizeof line, "%0*d\n", STREAM_LINE - 1, st->line++);
        if (!net_stream_write(request, line, STREAM_LINE))
            break;
        if (net_stream_queued(request) > h->stream_max_queued)
            h->stream_max_queued = net_stream_queued(request);
        if (st->lines_left > 0)
            st->lines_left--;
    }
    if (st->lines_left == 0 || net_request_gone(request)) {
        h->streams_ended++;
        if (net_request_gone(request))
            h->streams_ended_gone++;
        free(st);
        net_stream_end(request);
    }
}

static void on_stream_writable(void *ctx, net_request *request)
{
    stream_more(ctx, request);
}

static void on_api_get(void *ctx, net_request *request)
{
    harness *h = ctx;
    const char *path = net_request_path(request);
    char buf[512];
    if (strcmp(path, "/api/echo") == 0) {
        const char *x = net_request_query(request, "x");
        const char *token = net_request_header(request, "x-test-token");
        const char *cookie = net_request_header(request, "cookie");
        int n = snprintf(buf, sizeof buf, "x=%s|token=%s|cookie=%s|peer=%s", x ? x : "(none)",
                         token ? token : "(none)", cookie ? cookie : "(none)",
                         net_request_peer(request));
        net_response_header(request, "x-echo", "yes");
        net_respond(request, 200, "text/plain; charset=utf-8", buf, (size_t)n);
    } else if (strcmp(path, "/api/later") == 0 || strcmp(path, "/api/hold") == 0) {
        later_answer *later = calloc(1, sizeof *later);
        later->h = h;
        later->request = request;
        uv_timer_init(&h->loop, &later->timer);
        later->timer.data = later;
        uv_timer_start(&later->timer, on_later_timer, strcmp(path, "/api/later") == 0 ? 200 : 1000,
                       0);
    } else if (strcmp(path, "/api/stream") == 0) {
        stream_state *st = calloc(1, sizeof *st);
        const char *lines = net_request_query(request, "lines");
        st->lines_left = lines ? atoi(lines) : -1;
        net_request_set_data(request, st);
        net_stream_begin(request, 200, "text/csv; charset=utf-8");
        stream_more(h, request);
    } else {
        net_respond(request, 404, "text/plain", "no", 2);
    }
}

static void on_api_post(void *ctx, net_request *request)
{
    (void)ctx;
    size_t len = 0;
    const char *body = net_request_body(request, &len);
    char buf[128];
    int n = snprintf(buf, sizeof buf, "%zu:%.8s", len, body);
    net_respond(request, 201, "text/plain", buf, (size_t)n);
}

static void add_routes(harness *h)
{
    static const char *const headers[] = {"x-test-token", "cookie", NULL};
    const net_route get = {.method = "GET", .prefix = "/api/", .headers = headers,
                           .on_request = on_api_get, .on_writable = on_stream_writable, .ctx = h};
    const net_route post = {.method = "POST", .prefix = "/api/", .max_body = 100,
                            .on_request = on_api_post, .ctx = h};
    ck_assert(net_route_add(h->net, &get));
    ck_assert(net_route_add(h->net, &post));
}

static void on_stop_request(uv_async_t *async)
{
    harness *h = async->data;
    net_stop(h->net);
    uv_close((uv_handle_t *)async, NULL);
}

/* ---- client side: a thread with blocking sockets ----------------------------------------- */

#define CLIENT_CHECK(h, cond, ...)                                                         \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            snprintf((h)->client_failure, sizeof (h)->client_failure, __VA_ARGS__);        \
            return false;                                                                  \
        }                                                                                  \
    } while (0)

static ws_client *open_client(harness *h)
{
    char error[256];
    return ws_client_connect("127.0.0.1", h->port, "/ws", TIMEOUT_MS, error, sizeof error);
}

/* Sends text and expects exactly `want` back. */
static bool ask(harness *h, ws_client *c, const char *text, const char *want)
{
    ws_message m;
    CLIENT_CHECK(h, ws_client_send_text(c, text, strlen(text)) == WS_CLIENT_OK, "send %s", text);
    CLIENT_CHECK(h, ws_client_recv(c, &m, TIMEOUT_MS) == WS_CLIENT_OK, "no answer to %s", text);
    CLIENT_CHECK(h, strcmp(m.data, want) == 0, "%s: got '%s', want '%s'", text, m.data, want);
    return true;
}

static bool scenario_basics(harness *h)
{
    ws_client *a = open_client(h);
    CLIENT_CHECK(h, a != NULL, "connect a");
    if (!ask(h, a, "echo:hi", "hi") || !ask(h, a, "data", "1") ||
        !ask(h, a, "peer", "127.0.0.1") || !ask(h, a, "count", "1"))
        return false;

    /* net_close: the two queued replies first, then a close frame with 1000 */
    ws_message m;
    CLIENT_CHECK(h, ws_client_send_text(a, "close:done here", 15) == WS_CLIENT_OK, "send close");
    CLIENT_CHECK(h, ws_client_recv(a, &m, TIMEOUT_MS) == WS_CLIENT_OK &&
                        strcmp(m.data, "bye-1") == 0, "bye-1 missing");
    CLIENT_CHECK(h, ws_client_recv(a, &m, TIMEOUT_MS) == WS_CLIENT_OK &&
                        strcmp(m.data, "bye-2") == 0, "bye-2 missing");
    ws_client_result r = ws_client_recv(a, &m, TIMEOUT_MS);
    CLIENT_CHECK(h, r == WS_CLIENT_CLOSED, "no close frame after net_close (result %d)", r);
    CLIENT_CHECK(h, ws_client_close_code(a) == 1000, "close code %u", ws_client_close_code(a));
    CLIENT_CHECK(h, strcmp(ws_client_close_reason(a), "done here") == 0, "close reason '%s'",
                 ws_client_close_reason(a));
    ws_client_abort(a);
    return true;
}

/* A reason too long for a close frame is cut, but never inside a UTF-8 character. */
static bool scenario_long_close_reason(harness *h)
{
    char command[256] = "close:";
    for (int i = 0; i < 70; i++)
        strcat(command, "\xc3\xa9"); /* é, two bytes: 140 bytes in all */
    ws_client *a = open_client(h);
    CLIENT_CHECK(h, a != NULL, "connect");
    CLIENT_CHECK(h, ws_client_send_text(a, command, strlen(command)) == WS_CLIENT_OK, "send");
    ws_message m;
    ws_client_result r;
    do
        r = ws_client_recv(a, &m, TIMEOUT_MS);
    while (r == WS_CLIENT_OK); /* bye-1, bye-2 */
    CLIENT_CHECK(h, r == WS_CLIENT_CLOSED, "no close frame (result %d)", r);
    const char *reason = ws_client_close_reason(a);
    size_t len = strlen(reason);
    CLIENT_CHECK(h, len > 0 && len <= 123, "reason of %zu bytes", len);
    CLIENT_CHECK(h, len % 2 == 0 && strncmp(reason, command + 6, len) == 0,
                 "reason cut inside a character or altered: %zu bytes", len);
    ws_client_abort(a);
    return true;
}

/* Polls "count" on c until the server reports want open connections. */
static bool wait_count(harness *h, ws_client *c, const char *want)
{
    ws_message m;
    for (int tries = 0; tries < 100; tries++) {
        CLIENT_CHECK(h, ws_client_send_text(c, "count", 5) == WS_CLIENT_OK, "send count");
        CLIENT_CHECK(h, ws_client_recv(c, &m, TIMEOUT_MS) == WS_CLIENT_OK, "no count");
        if (strcmp(m.data, want) == 0)
            return true;
        struct timespec pause = {.tv_nsec = 20 * 1000000L};
        nanosleep(&pause, NULL);
    }
    CLIENT_CHECK(h, false, "count stayed at %s, want %s", m.data, want);
}

static bool scenario_flood(harness *h)
{
    ws_client *b = open_client(h);
    CLIENT_CHECK(h, b != NULL, "connect b");
    if (!wait_count(h, b, "1") || !ask(h, b, "data", "3"))
        return false; /* the closed ones are gone: only b is left */
    /* 400 replies of 1000 bytes in one go: more than the queue holds */
    CLIENT_CHECK(h, ws_client_send_text(b, "flood:400:1000", 14) == WS_CLIENT_OK, "send flood");
    ws_message m;
    ws_client_result r;
    do
        r = ws_client_recv(b, &m, TIMEOUT_MS);
    while (r == WS_CLIENT_OK);
    CLIENT_CHECK(h, r == WS_CLIENT_EOF || r == WS_CLIENT_ERROR,
                 "flooded connection not dropped (result %d)", r);
    ws_client_abort(b);
    return true;
}

static bool scenario_metrics(harness *h)
{
    http_response response;
    CLIENT_CHECK(h, http_get("127.0.0.1", h->metrics_port, "/metrics", TIMEOUT_MS, &response),
                 "GET /metrics");
    bool found = strstr(response.body, "\nteahouse_test_opens 3\n") != NULL;
    bool core = strstr(response.body, "teahouse_ws_connections ") != NULL;
    http_response_free(&response);
    CLIENT_CHECK(h, found, "write_metrics lines missing");
    CLIENT_CHECK(h, core, "core metrics missing");
    return true;
}

/* The last connection stays open across net_stop and must see a 1001 close. */
static bool scenario_shutdown(harness *h)
{
    ws_client *c = open_client(h);
    CLIENT_CHECK(h, c != NULL, "connect c");
    if (!ask(h, c, "data", "4"))
        return false;
    uv_async_send(&h->stop_request);
    ws_message m;
    ws_client_result r = ws_client_recv(c, &m, TIMEOUT_MS);
    CLIENT_CHECK(h, r == WS_CLIENT_CLOSED, "no close at net_stop (result %d)", r);
    CLIENT_CHECK(h, ws_client_close_code(c) == 1001, "close code %u", ws_client_close_code(c));
    ws_client_abort(c);
    return true;
}

static void sleep_ms(int ms)
{
    struct timespec pause = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
    nanosleep(&pause, NULL);
}

/* A net_close whose peer never reads or answers is cut off after its grace period (5 s),
 * not before; meanwhile pings do not count against it. */
static bool scenario_close_deadline(harness *h)
{
    ws_client *mute = open_client(h);
    CLIENT_CHECK(h, mute != NULL, "connect mute");
    CLIENT_CHECK(h, ws_client_send_text(mute, "flood:200:1000", 14) == WS_CLIENT_OK, "flood");
    CLIENT_CHECK(h, ws_client_send_text(mute, "close:bye", 9) == WS_CLIENT_OK, "close");

    sleep_ms(3000);
    ws_client *probe = open_client(h);
    CLIENT_CHECK(h, probe != NULL, "connect probe");
    bool still_there = ask(h, probe, "count", "2");
    ws_client_close(probe, 1000, TIMEOUT_MS);
    if (!still_there)
        return false;

    sleep_ms(4500);
    ws_client *last = open_client(h);
    CLIENT_CHECK(h, last != NULL, "connect last");
    bool gone = wait_count(h, last, "1");
    ws_client_abort(mute);
    if (!gone)
        return false;
    uv_async_send(&h->stop_request);
    ws_message m;
    CLIENT_CHECK(h, ws_client_recv(last, &m, TIMEOUT_MS) == WS_CLIENT_CLOSED, "no close");
    ws_client_abort(last);
    return true;
}

/* ---- client side: HTTP routes ------------------------------------------------------------ */

static bool http_scenarios(harness *h)
{
    http_response r;
    char value[64];
    http_options with_headers = {.headers = "X-Test-Token: abc123\r\nCookie: a=1; b=2\r\n"};

    /* at once, with the query decoded and the asked-for headers */
    CLIENT_CHECK(h, http_get_with("127.0.0.1", h->port, "/api/echo?y=2&x=%E9%BE%8D%20z",
                                  &with_headers, TIMEOUT_MS, &r), "GET /api/echo");
    bool echo_ok = r.status == 200 &&
                   strcmp(r.body, "x=\xe9\xbe\x8d z|token=abc123|cookie=a=1; b=2|peer=127.0.0.1") == 0;
    bool extra_ok = http_header(&r, "x-echo", value, sizeof value) && strcmp(value, "yes") == 0;
    bool csp_ok = http_header(&r, "content-security-policy", value, 4);
    CLIENT_CHECK(h, echo_ok, "echo: status %d body '%s'", r.status, r.body);
    http_response_free(&r);
    CLIENT_CHECK(h, extra_ok, "the application's header is missing");
    (void)csp_ok;

    /* later, from a timer */
    CLIENT_CHECK(h, http_get("127.0.0.1", h->port, "/api/later", TIMEOUT_MS, &r), "GET later");
    echo_ok = r.status == 200 && strcmp(r.body, "later") == 0;
    http_response_free(&r);
    CLIENT_CHECK(h, echo_ok, "the delayed answer did not arrive");

    /* a body, and one over the route's cap */
    CLIENT_CHECK(h, http_request("127.0.0.1", h->port, "POST", "/api/body", NULL, "hello body", 10,
                                 TIMEOUT_MS, &r), "POST");
    echo_ok = r.status == 201 && strcmp(r.body, "10:hello bo") == 0;
    http_response_free(&r);
    CLIENT_CHECK(h, echo_ok, "the body was not handed over");
    char big[200];
    memset(big, 'b', sizeof big);
    CLIENT_CHECK(h, http_request("127.0.0.1", h->port, "POST", "/api/body", NULL, big, sizeof big,
                                 TIMEOUT_MS, &r), "POST big");
    int status = r.status;
    http_response_free(&r);
    CLIENT_CHECK(h, status == 413, "a body over the cap: status %d", status);

    /* a method no route takes under a route's prefix; the static files and /healthz as before */
    CLIENT_CHECK(h, http_request("127.0.0.1", h->port, "PUT", "/api/echo", NULL, "", 0, TIMEOUT_MS,
                                 &r), "PUT");
    status = r.status;
    http_response_free(&r);
    CLIENT_CHECK(h, status == 405, "PUT under /api/: status %d", status);
    CLIENT_CHECK(h, http_get("127.0.0.1", h->port, "/healthz", TIMEOUT_MS, &r), "healthz");
    status = r.status;
    http_response_free(&r);
    CLIENT_CHECK(h, status == 200, "/healthz: status %d", status);
    CLIENT_CHECK(h, http_get("127.0.0.1", h->port, "/index.html", TIMEOUT_MS, &r), "index");
    status = r.status;
    http_response_free(&r);
    CLIENT_CHECK(h, status == 200, "/index.html: status %d", status);

    /* a stream of 4000 lines (4 MB), read by a client that starts late: every line in order */
    int fd = http_connect_tcp("127.0.0.1", h->port, NULL, TIMEOUT_MS);
    CLIENT_CHECK(h, fd >= 0, "connect for the stream");
    static const char ask_stream[] = "GET /api/stream?lines=4000 HTTP/1.1\r\nHost: x\r\n\r\n";
    CLIENT_CHECK(h, send(fd, ask_stream, sizeof ask_stream - 1, MSG_NOSIGNAL) > 0, "send");
    sleep_ms(300);
    close(fd);
    CLIENT_CHECK(h, http_get("127.0.0.1", h->port, "/api/stream?lines=4000", 20000, &r), "stream");
    bool whole = r.status == 200 && r.body_len == 4000 * STREAM_LINE;
    for (int i = 0; whole && i < 4000; i++) {
        char want[STREAM_LINE + 1];
        snprintf(want, sizeof want, "%0*d\n", STREAM_LINE - 1, i);
        whole = memcmp(r.body + (size_t)i * STREAM_LINE, want, STREAM_LINE) == 0;
    }
    char conn_header[32] = "";
    http_header(&r, "connection", conn_header, sizeof conn_header);
    size_t got = r.body_len;
    http_response_free(&r);
    CLIENT_CHECK(h, whole, "the stream came out wrong (%zu bytes)", got);
    CLIENT_CHECK(h, strcasecmp(conn_header, "close") == 0, "a stream says connection: %s", conn_header);

    /* clients that leave before their answer: a delayed one and an endless stream */
    fd = http_connect_tcp("127.0.0.1", h->port, NULL, TIMEOUT_MS);
    static const char ask_hold[] = "GET /api/hold HTTP/1.1\r\nHost: x\r\n\r\n";
    CLIENT_CHECK(h, fd >= 0 && send(fd, ask_hold, sizeof ask_hold - 1, MSG_NOSIGNAL) > 0, "hold");
    sleep_ms(100);
    close(fd);
    fd = http_connect_tcp("127.0.0.1", h->port, NULL, TIMEOUT_MS);
    static const char ask_endless[] = "GET /api/stream HTTP/1.1\r\nHost: x\r\n\r\n";
    CLIENT_CHECK(h, fd >= 0 && send(fd, ask_endless, sizeof ask_endless - 1, MSG_NOSIGNAL) > 0,
                 "endless");
    char some[4096];
    CLIENT_CHECK(h, recv(fd, some, sizeof some, 0) > 0, "the endless stream sent nothing");
    close(fd);
    sleep_ms(1500); /* the held answer comes after 1 s, to nobody */
    CLIENT_CHECK(h, http_get("127.0.0.1", h->port, "/api/later", TIMEOUT_MS, &r), "after");
    status = r.status;
    http_response_free(&r);
    CLIENT_CHECK(h, status == 200, "a request after the abandoned ones: status %d", status);
    uv_async_send(&h->stop_request);
    return true;
}

static void *http_client_thread(void *arg)
{
    harness *h = arg;
    h->client_ok = http_scenarios(h);
    if (!h->client_ok)
        uv_async_send(&h->stop_request);
    return NULL;
}

static void *deadline_client_thread(void *arg)
{
    harness *h = arg;
    h->client_ok = scenario_close_deadline(h);
    if (!h->client_ok)
        uv_async_send(&h->stop_request);
    return NULL;
}

static void *client_thread(void *arg)
{
    harness *h = arg;
    h->client_ok = scenario_basics(h) && scenario_long_close_reason(h) && scenario_flood(h) &&
                   scenario_metrics(h) && scenario_shutdown(h);
    if (!h->client_ok)
        uv_async_send(&h->stop_request); /* stop the server anyway */
    return NULL;
}

/* ---- tests ------------------------------------------------------------------------------- */

/* Runs one server with the test handlers until the client thread asks it to stop. */
static void run_harness(harness *h, int ping_seconds, void *(*client)(void *))
{
    memset(h, 0, sizeof *h);
    ck_assert_int_eq(uv_loop_init(&h->loop), 0);
    uv_async_init(&h->loop, &h->stop_request, on_stop_request);
    h->stop_request.data = h;

    const net_handlers handlers = {h, on_open, on_message, on_close, write_metrics};
    const net_config config = {.bind_address = "127.0.0.1",
                               .port = 0,
                               .web_root = web_root,
                               .ping_seconds = ping_seconds};
    h->net = net_start(&h->loop, &config, &handlers);
    ck_assert(h->net != NULL);
    h->port = net_port(h->net);
    ck_assert_int_gt(h->port, 0);
    h->metrics_port = net_metrics_port(h->net);
    ck_assert_int_gt(h->metrics_port, 0); /* metrics_port 0: a free port of its own */
    add_routes(h);

    pthread_t thread;
    ck_assert_int_eq(pthread_create(&thread, NULL, client, h), 0);
    uv_run(&h->loop, UV_RUN_DEFAULT);
    pthread_join(thread, NULL);
    ck_assert_msg(h->client_ok, "client: %s", h->client_failure);

    /* by the time uv_run returns every connection has been closed and reported */
    ck_assert_int_eq(h->opens, h->closes);
    ck_assert_int_eq(h->sends_after_close_accepted, 0);
    net_destroy(h->net);
    uv_run(&h->loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(uv_loop_close(&h->loop), 0);
}

START_TEST(test_application_contract_over_real_sockets)
{
    static harness h;
    run_harness(&h, 0, client_thread);
    ck_assert_int_eq(h.opens, 4);
    ck_assert_int_eq(h.flood_accepted, QUEUE_BOUND / 1000); /* 262 whole replies fit */
    ck_assert_int_eq(h.flood_refused, 400 - QUEUE_BOUND / 1000);
}
END_TEST

START_TEST(test_close_that_cannot_complete_is_cut_after_its_grace)
{
    static harness h;
    run_harness(&h, 1, deadline_client_thread);
    ck_assert_int_eq(h.opens, 3);
    ck_assert_int_eq(h.flood_refused, 0); /* 200 KB fit the queue: not a slow-reader drop */
}
END_TEST

START_TEST(test_routes_answer_at_once_later_streamed_and_to_clients_gone)
{
    static harness h;
    run_harness(&h, 0, http_client_thread);
    ck_assert_int_eq(h.later_answered, 3);           /* the held one too, its client gone */
    ck_assert_int_le(h.later_answered_gone, 1);
    ck_assert_int_eq(h.streams_ended, 3);            /* two of 4000 lines, the endless one */
    ck_assert_int_ge(h.streams_ended_gone, 2);       /* the first read nothing, the endless */
    ck_assert_uint_le(h.stream_max_queued, STREAM_HIGH + STREAM_LINE);
    ck_assert_int_gt(h.stream_writable_calls, 10);   /* paced by the reader, not written at once */
}
END_TEST

START_TEST(test_busy_port_returns_null_and_leaves_the_loop_closable)
{
    uv_loop_t loop;
    ck_assert_int_eq(uv_loop_init(&loop), 0);
    const net_handlers handlers = {0};
    const net_config first = {.bind_address = "127.0.0.1", .port = 0, .web_root = web_root};
    net_server *holder = net_start(&loop, &first, &handlers);
    ck_assert(holder != NULL);

    const net_config second = {
        .bind_address = "127.0.0.1", .port = net_port(holder), .web_root = web_root};
    ck_assert(net_start(&loop, &second, &handlers) == NULL);

    net_stop(holder);
    uv_run(&loop, UV_RUN_DEFAULT);
    net_destroy(holder);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
}
END_TEST

START_TEST(test_busy_operators_port_returns_null_and_leaves_the_loop_closable)
{
    /* the game port opens, the operator's port cannot: nothing may be left on the loop */
    uv_loop_t loop;
    ck_assert_int_eq(uv_loop_init(&loop), 0);
    const net_handlers handlers = {0};
    const net_config first = {.bind_address = "127.0.0.1", .port = 0, .web_root = web_root};
    net_server *holder = net_start(&loop, &first, &handlers);
    ck_assert(holder != NULL);

    const net_config second = {.bind_address = "127.0.0.1",
                               .port = 0,
                               .web_root = web_root,
                               .metrics_port = net_metrics_port(holder)};
    ck_assert(net_start(&loop, &second, &handlers) == NULL);
    const net_config without = {.bind_address = "127.0.0.1",
                                .port = 0,
                                .web_root = web_root,
                                .metrics_port = NET_METRICS_OFF};
    net_server *plain = net_start(&loop, &without, &handlers);
    ck_assert(plain != NULL);
    ck_assert_int_eq(net_metrics_port(plain), 0);

    net_stop(plain);
    net_stop(holder);
    uv_run(&loop, UV_RUN_DEFAULT);
    net_destroy(plain);
    net_destroy(holder);
    uv_run(&loop, UV_RUN_DEFAULT);
    ck_assert_int_eq(uv_loop_close(&loop), 0);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s WEB_CLIENT_DIR\n", argv[0]);
        return 2;
    }
    web_root = argv[1];
    log_set_level(LOG_LEVEL_WARN);
    log_route_lws();

    Suite *suite = suite_create("net_api");
    TCase *api = tcase_create("api");
    tcase_set_timeout(api, 60);
    tcase_add_test(api, test_application_contract_over_real_sockets);
    tcase_add_test(api, test_close_that_cannot_complete_is_cut_after_its_grace);
    tcase_add_test(api, test_routes_answer_at_once_later_streamed_and_to_clients_gone);
    tcase_add_test(api, test_busy_port_returns_null_and_leaves_the_loop_closable);
    tcase_add_test(api, test_busy_operators_port_returns_null_and_leaves_the_loop_closable);
    suite_add_tcase(suite, api);

    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? 0 : 1;
}
