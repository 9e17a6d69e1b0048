/*
 * Integration tests of the network layer against the real teahouse binary: static files,
 * /healthz, /metrics, WebSocket messages and their limits, keepalive, slow readers, shutdown,
 * the command line, and hostile clients (connections held without a hello, one address or many
 * filling the descriptors, spoofed proxy headers, foreign origins, symbolic links out of the
 * web root, text that is not UTF-8). Each test starts its own server on a free port.
 *
 * Behind the network layer runs the real lobby, so a test learns that a message got through
 * from the lobby's answer to it (protocol/PROTOCOL.md): a ping with an id comes back as a pong
 * with that id, and a frame that is not JSON as a bad_json error. Messages the network layer
 * must refuse are built so that the lobby would answer them differently had they reached it.
 *
 * Usage: test_net TEAHOUSE_BINARY REPO_WEB_CLIENT_DIR VERSION
 * (meson passes these; CK_RUN_CASE picks one group of tests.)
 *
 * Expected values come from the contracts in server/net.h and protocol/PROTOCOL.md (limits,
 * error codes, close codes), never from the server's own source.
 */
#include <check.h>
#include <errno.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "http_client.h"
#include "server_process.h"
#include "ws_client.h"

#define TIMEOUT_MS 5000
#define MAX_MESSAGE 16384 /* NET_MAX_MESSAGE: the largest text message the server accepts */

/* What net.h promises on every HTTP answer. */
#define CSP "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; " \
            "style-src 'self'; frame-ancestors 'none'"

static const char *teahouse_binary;
static const char *repo_web_root;
static const char *project_version;

/* ---- helpers ----------------------------------------------------------------------------- */

static void sleep_ms(int ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    ck_assert(text != NULL);
    *len = fread(text, 1, (size_t)size, f);
    text[*len] = '\0';
    fclose(f);
    return text;
}

/* A web root of our own: root/www holds the site, root/secret.txt must never be served. */
typedef struct temp_site {
    char root[64];
    char www[96];
} temp_site;

static const char secret_text[] = "TOP-SECRET-NOT-FOR-THE-WEB";

static void make_site(temp_site *site)
{
    char path[160];
    snprintf(site->root, sizeof site->root, "/tmp/teahouse-site-XXXXXX");
    ck_assert(mkdtemp(site->root) != NULL);
    snprintf(site->www, sizeof site->www, "%s/www", site->root);
    ck_assert_int_eq(mkdir(site->www, 0755), 0);
    snprintf(path, sizeof path, "%s/secret.txt", site->root);
    write_file(path, secret_text);
    snprintf(path, sizeof path, "%s/index.html", site->www);
    write_file(path, "<!doctype html><title>t</title>home");
    snprintf(path, sizeof path, "%s/style.css", site->www);
    write_file(path, "body { color: black; }");
    snprintf(path, sizeof path, "%s/app.js", site->www);
    write_file(path, "console.log('hi');");
    snprintf(path, sizeof path, "%s/data.json", site->www);
    write_file(path, "{\"a\":1}");
    snprintf(path, sizeof path, "%s/logo.svg", site->www);
    write_file(path, "<svg xmlns=\"http://www.w3.org/2000/svg\"/>");
}

static void remove_site(const temp_site *site)
{
    static const char *const files[] = {"www/index.html", "www/style.css", "www/app.js",
                                        "www/data.json", "www/logo.svg", "secret.txt"};
    char path[160];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", site->root, files[i]);
        unlink(path);
    }
    rmdir(site->www);
    rmdir(site->root);
}

static void start_server(server_process *server, const char *web_root,
                         const char *const more_args[])
{
    const char *args[32];
    int n = 0;
    args[n++] = "--web-root";
    args[n++] = web_root;
    args[n++] = "--log-level";
    args[n++] = "info";
    for (int i = 0; more_args && more_args[i] && n < 30; i++)
        args[n++] = more_args[i];
    args[n] = NULL;
    ck_assert_msg(server_process_start(server, teahouse_binary, args, 10000),
                  "the server did not start");
}

static ws_client *connect_ws(const server_process *server)
{
    char error[256];
    ws_client *client =
        ws_client_connect(server->host, server->port, "/ws", TIMEOUT_MS, error, sizeof error);
    ck_assert_msg(client != NULL, "websocket connect failed: %s", error);
    return client;
}

/* Reads one metric sample ("name" or "name{labels}") from /metrics; -1 if absent. */
static double metric(const server_process *server, const char *sample)
{
    http_response response;
    ck_assert(http_get(server->host, server->metrics_port, "/metrics", TIMEOUT_MS, &response));
    ck_assert_int_eq(response.status, 200);
    double value = -1;
    size_t len = strlen(sample);
    for (const char *line = response.body; line && *line; line = strchr(line, '\n')) {
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

/* Polls a metric until it equals want or timeout_ms passes; returns the last value seen. */
static double wait_metric(const server_process *server, const char *sample, double want,
                          int timeout_ms)
{
    long long deadline = now_ms() + timeout_ms;
    double value;
    while ((value = metric(server, sample)) != want && now_ms() < deadline)
        sleep_ms(20);
    return value;
}

/* Asserts the message is {"type":"error","code":code,"message":<non-empty string>}. */
static void expect_error(const ws_message *message, const char *code)
{
    ck_assert_int_eq(message->opcode, WS_OP_TEXT);
    json_error_t error;
    json_t *root = json_loadb(message->data, message->len, 0, &error);
    ck_assert_msg(root != NULL, "reply is not JSON: %s", message->data);
    ck_assert_str_eq(json_string_value(json_object_get(root, "type")), "error");
    ck_assert_str_eq(json_string_value(json_object_get(root, "code")), code);
    const char *text = json_string_value(json_object_get(root, "message"));
    ck_assert_msg(text && text[0], "error without a message: %s", message->data);
    json_decref(root);
}

static void expect_reply(ws_client *client, const char *code)
{
    ws_message message;
    ws_client_result result = ws_client_recv(client, &message, TIMEOUT_MS);
    ck_assert_msg(result == WS_CLIENT_OK, "no reply (result %d)", result);
    expect_error(&message, code);
}

static void expect_silence(ws_client *client, int ms)
{
    ws_message message;
    ws_client_result result = ws_client_recv(client, &message, ms);
    ck_assert_msg(result == WS_CLIENT_TIMEOUT, "unexpected frame or close (result %d): %s",
                  result, result == WS_CLIENT_OK ? message.data : "");
}

/* The next message as a JSON object (owned), its payload length in *len if len is not NULL;
 * fails the test if none comes in time. */
static json_t *recv_json_len(ws_client *client, size_t *len)
{
    ws_message message;
    ws_client_result result = ws_client_recv(client, &message, TIMEOUT_MS);
    ck_assert_msg(result == WS_CLIENT_OK, "no message (result %d)", result);
    ck_assert_int_eq(message.opcode, WS_OP_TEXT);
    json_t *root = json_loadb(message.data, message.len, 0, NULL);
    ck_assert_msg(json_is_object(root), "not a JSON object: %s", message.data);
    if (len)
        *len = message.len;
    return root;
}

static json_t *recv_json(ws_client *client)
{
    return recv_json_len(client, NULL);
}

static const char *type_of(const json_t *root)
{
    const char *type = json_string_value(json_object_get(root, "type"));
    return type ? type : "(none)";
}

/* Says hello as PROTOCOL.md asks of a first message and expects the welcome. */
static void say_hello(ws_client *client, const char *name)
{
    char hello[128];
    int len = snprintf(hello, sizeof hello, "{\"type\":\"hello\",\"v\":1,\"name\":\"%s\"}", name);
    ck_assert_int_eq(ws_client_send_text(client, hello, (size_t)len), WS_CLIENT_OK);
    json_t *welcome = recv_json(client);
    ck_assert_str_eq(type_of(welcome), "welcome");
    json_decref(welcome);
}

static void send_ping(ws_client *client, int id)
{
    char ping[64];
    int len = snprintf(ping, sizeof ping, "{\"type\":\"ping\",\"id\":%d}", id);
    ck_assert_int_eq(ws_client_send_text(client, ping, (size_t)len), WS_CLIENT_OK);
}

/* Expects the next message to be {"type":"pong","id":id}; returns its payload length. */
static size_t expect_pong(ws_client *client, int id)
{
    size_t len;
    json_t *pong = recv_json_len(client, &len);
    const char *code = json_string_value(json_object_get(pong, "code"));
    ck_assert_msg(strcmp(type_of(pong), "pong") == 0, "want pong %d, got %s %s", id,
                  type_of(pong), code ? code : "");
    ck_assert_msg(json_integer_value(json_object_get(pong, "id")) == id, "pong for %lld, want %d",
                  (long long)json_integer_value(json_object_get(pong, "id")), id);
    json_decref(pong);
    return len;
}

/* The connection still works both ways: a ping reaches the lobby and its pong comes back. */
static void expect_served(ws_client *client, int id)
{
    send_ping(client, id);
    expect_pong(client, id);
}

/* A ping of exactly len bytes, {"type":"ping",   …   "id":id}: the padding is JSON white space
 * and the id comes last, so only the whole message, delivered intact, earns its pong. */
static char *padded_ping(size_t len, int id)
{
    char tail[32];
    static const char head[] = "{\"type\":\"ping\",";
    int tail_len = snprintf(tail, sizeof tail, "\"id\":%d}", id);
    ck_assert_uint_ge(len, sizeof head - 1 + (size_t)tail_len);
    char *text = malloc(len + 1);
    ck_assert(text != NULL);
    memcpy(text, head, sizeof head - 1);
    memset(text + sizeof head - 1, ' ', len - (sizeof head - 1) - (size_t)tail_len);
    memcpy(text + len - (size_t)tail_len, tail, (size_t)tail_len + 1);
    return text;
}

/* Runs the binary with args (and a database of its own in a temporary directory), collecting
 * stdout and stderr; returns the waitpid status. */
static int run_binary(const char *const args[], char *output, size_t cap)
{
    char db_dir[] = "/tmp/teahouse-flags-XXXXXX";
    ck_assert(mkdtemp(db_dir) != NULL);
    char db_path[sizeof db_dir + 16];
    snprintf(db_path, sizeof db_path, "%s/t.db", db_dir);
    int pipe_fds[2];
    ck_assert_int_eq(pipe(pipe_fds), 0);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        const char *argv[32];
        int n = 0;
        argv[n++] = teahouse_binary;
        argv[n++] = "--db";
        argv[n++] = db_path;
        for (int i = 0; args[i] && n < 31; i++)
            argv[n++] = args[i];
        argv[n] = NULL;
        dup2(pipe_fds[1], STDOUT_FILENO);
        dup2(pipe_fds[1], STDERR_FILENO);
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        execv(teahouse_binary, (char *const *)argv);
        _exit(127);
    }
    close(pipe_fds[1]);
    size_t len = 0;
    long long deadline = now_ms() + 10000;
    for (;;) {
        struct pollfd pfd = {.fd = pipe_fds[0], .events = POLLIN};
        int wait = (int)(deadline - now_ms());
        if (wait <= 0 || poll(&pfd, 1, wait) <= 0) {
            kill(pid, SIGKILL);
            break;
        }
        ssize_t got = read(pipe_fds[0], output + len, cap - len - 1);
        if (got <= 0)
            break;
        len += (size_t)got;
        if (len + 1 >= cap)
            break;
    }
    output[len] = '\0';
    close(pipe_fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    static const char *const SUFFIXES[] = {"", "-wal", "-shm", ".lock", ".key"};
    for (size_t i = 0; i < sizeof SUFFIXES / sizeof SUFFIXES[0]; i++) {
        char path[sizeof db_path + 8];
        snprintf(path, sizeof path, "%s%s", db_path, SUFFIXES[i]);
        unlink(path);
    }
    rmdir(db_dir);
    return status;
}

/* ---- HTTP -------------------------------------------------------------------------------- */

START_TEST(test_healthz_answers_200_ok)
{
    server_process server;
    start_server(&server, repo_web_root, NULL);
    http_response response;
    ck_assert(http_get(server.host, server.port, "/healthz", TIMEOUT_MS, &response));
    ck_assert_int_eq(response.status, 200);
    ck_assert_str_eq(response.body, "ok");
    http_response_free(&response);
    server_process_cleanup(&server);
}
END_TEST

START_TEST(test_root_serves_index_html_of_the_web_root)
{
    char path[512], type[128];
    size_t expected_len;
    snprintf(path, sizeof path, "%s/index.html", repo_web_root);
    char *expected = read_file(path, &expected_len);

    server_process server;
    start_server(&server, repo_web_root, NULL);
    http_response response;
    ck_assert(http_get(server.host, server.port, "/", TIMEOUT_MS, &response));
    ck_assert_int_eq(response.status, 200);
    ck_assert(http_header(&response, "content-type", type, sizeof type));
    ck_assert_msg(strncmp(type, "text/html", 9) == 0, "content-type %s", type);
    ck_assert_uint_eq(response.body_len, expected_len);
    ck_assert(memcmp(response.body, expected, expected_len) == 0);
    http_response_free(&response);
    free(expected);
    server_process_cleanup(&server);
}
END_TEST

START_TEST(test_static_files_get_their_mime_types)
{
    static const struct {
        const char *path, *type, *body;
    } cases[] = {
        {"/index.html", "text/html", "<!doctype html><title>t</title>home"},
        {"/style.css", "text/css", "body { color: black; }"},
        {"/app.js", "text/javascript", "console.log('hi');"},
        {"/data.json", "application/json", "{\"a\":1}"},
        {"/logo.svg", "image/svg+xml", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>"},
    };
    temp_site site;
    make_site(&site);
    server_process server;
    start_server(&server, site.www, NULL);

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        http_response response;
        char type[128];
        ck_assert(http_get(server.host, server.port, cases[i].path, TIMEOUT_MS, &response));
        ck_assert_msg(response.status == 200, "%s: status %d", cases[i].path, response.status);
        ck_assert(http_header(&response, "content-type", type, sizeof type));
        ck_assert_msg(strncmp(type, cases[i].type, strlen(cases[i].type)) == 0,
                      "%s: content-type %s, want %s", cases[i].path, type, cases[i].type);
        ck_assert_str_eq(response.body, cases[i].body);
        http_response_free(&response);
    }
    server_process_cleanup(&server);
    remove_site(&site);
}
END_TEST

START_TEST(test_paths_outside_the_web_root_are_refused)
{
    static const char *const attacks[] = {
        "/../secret.txt",          "/../../secret.txt",         "/./../secret.txt",
        "//../secret.txt",         "/%2e%2e/secret.txt",        "/..%2fsecret.txt",
        "/.%2e/secret.txt",        "/%2e%2e%2fsecret.txt",      "/data.json/../../secret.txt",
        "/..\\secret.txt",         "/../etc/passwd",            "/%252e%252e/secret.txt",
    };
    temp_site site;
    make_site(&site);
    server_process server;
    start_server(&server, site.www, NULL);

    for (size_t i = 0; i < sizeof attacks / sizeof attacks[0]; i++) {
        http_response response;
        ck_assert_msg(http_get(server.host, server.port, attacks[i], TIMEOUT_MS, &response),
                      "%s: no answer", attacks[i]);
        ck_assert_msg(response.status != 200, "%s was served", attacks[i]);
        ck_assert_msg(strstr(response.body, secret_text) == NULL, "%s leaked the secret",
                      attacks[i]);
        ck_assert_msg(strstr(response.body, "root:") == NULL, "%s leaked /etc/passwd",
                      attacks[i]);
        http_response_free(&response);
    }
    /* and the server is still fine */
    http_response response;
    ck_assert(http_get(server.host, server.port, "/healthz", TIMEOUT_MS, &response));
    ck_assert_int_eq(response.status, 200);
    http_response_free(&response);
    server_process_cleanup(&server);
    remove_site(&site);
}
END_TEST

START_TEST(test_missing_file_is_404)
{
    server_process server;
    start_server(&server, repo_web_root, NULL);
    http_response response;
    ck_assert(http_get(server.host, server.port, "/no-such-file.html", TIMEOUT_MS, &response));
    ck_assert_int_eq(response.status, 404);
    http_response_free(&response);
    server_process_cleanup(&server);
}
END_TEST

START_TEST(test_metrics_counts_open_websockets)
{
    server_process server;
    start_server(&server, repo_web_root, NULL);

    http_response response;
    char type[128];
    ck_assert(http_get(server.host, server.metrics_port, "/metrics", TIMEOUT_MS, &response));
    ck_assert_int_eq(response.status, 200);
    ck_assert(http_header(&response, "content-type", type, sizeof type));
    ck_assert_msg(strncmp(type, "text/plain", 10) == 0, "content-type %s", type);
    ck_assert(strstr(response.body, "# TYPE teahouse_ws_connections gauge") != NULL);
    http_response_free(&response);

    ck_assert(metric(&server, "teahouse_ws_connections") == 0);
    ws_client *a = connect_ws(&server);
    ws_client *b = connect_ws(&server);
    ck_assert(wait_metric(&server, "teahouse_ws_connections", 2, 2000) == 2);
    ck_assert(metric(&server, "teahouse_ws_connections_opened_total") == 2);
    ck_assert_int_eq(ws_client_close(a, 1000, TIMEOUT_MS), WS_CLIENT_OK);
    ck_assert(wait_metric(&server, "teahouse_ws_connections", 1, 2000) == 1);
    ck_assert_int_eq(ws_client_close(b, 1000, TIMEOUT_MS), WS_CLIENT_OK);
    ck_assert(wait_metric(&server, "teahouse_ws_connections", 0, 2000) == 0);
    /* every metric the brief asks for is there */
    ck_assert(metric(&server, "teahouse_ws_messages_received_total") == 0);
    ck_assert(metric(&server, "teahouse_ws_messages_sent_total") == 0);
    ck_assert(metric(&server, "teahouse_ws_received_bytes_total") >= 0);
    ck_assert(metric(&server, "teahouse_ws_sent_bytes_total") == 0);
    ck_assert(metric(&server, "teahouse_ws_refused_total{reason=\"too_large\"}") == 0);
    ck_assert(metric(&server, "teahouse_ws_refused_total{reason=\"binary_not_supported\"}") == 0);
    ck_assert(metric(&server, "teahouse_ws_dropped_total{reason=\"slow_reader\"}") == 0);
    ck_assert(metric(&server, "teahouse_loop_lag_seconds") >= 0);
    ck_assert(metric(&server, "teahouse_loop_lag_max_seconds") >= 0);
    server_process_cleanup(&server);
}
END_TEST

/* ---- WebSocket messages ------------------------------------------------------------------ */

START_TEST(test_text_messages_reach_the_lobby_and_its_replies_come_back)
{
    server_process server;
    start_server(&server, repo_web_root, NULL);
    ws_client *client = connect_ws(&server);

    const char hello[] = "{\"type\":\"hello\",\"v\":1,\"name\":\"Ah Ma\"}";
    ck_assert_int_eq(ws_client_send_text(client, hello, strlen(hello)), WS_CLIENT_OK);
    size_t welcome_len;
    json_t *welcome = recv_json_len(client, &welcome_len);
    ck_assert_str_eq(type_of(welcome), "welcome");
    json_decref(welcome);
    ck_assert(metric(&server, "teahouse_ws_messages_received_total") == 1);
    ck_assert(metric(&server, "teahouse_ws_messages_sent_total") == 1);
    ck_assert(metric(&server, "teahouse_ws_received_bytes_total") == (double)strlen(hello));
    /* payload bytes, counted on both sides */
    ck_assert(metric(&server, "teahouse_ws_sent_bytes_total") == (double)welcome_len);

    const char ping[] = "{\"type\":\"ping\",\"id\":41}";
    ck_assert_int_eq(ws_client_send_text(client, ping, strlen(ping)), WS_CLIENT_OK);
    size_t pong_len = expect_pong(client, 41);
    ck_assert(metric(&server, "teahouse_ws_messages_received_total") == 2);
    ck_assert(metric(&server, "teahouse_ws_messages_sent_total") == 2);
    ck_assert(metric(&server, "teahouse_ws_received_bytes_total") ==
              (double)(strlen(hello) + strlen(ping)));
    ck_assert(metric(&server, "teahouse_ws_sent_bytes_total") ==
              (double)(welcome_len + pong_len));

    ck_assert_int_eq(ws_client_close(client, 1000, TIMEOUT_MS), WS_CLIENT_OK);
    server_process_cleanup(&server);
}
END_TEST

START_TEST(test_empty_text_message_is_delivered)
{
    server_process server;
    start_server(&server, repo_web_root, NULL);
    ws_client *client = connect_ws(&server);

    /* an empty frame is no JSON object: only the lobby can have said so */
    ck_assert_int_eq(ws_client_send_text(client, "", 0), WS_CLIENT_OK);
    expect_reply(client, "bad_json");
    ck_assert(metric(&server, "teahouse_ws_messages_received_total") == 1);

    ck_assert_int_eq(ws_client_close(client, 1000, TIMEOUT_MS), WS_CLIENT_OK);
    server_process_cleanup(&server);
}
END_TEST

START_TEST(test_fragmented_message_is_delivered_once)
{
    server_process server;
    start_server(&server, repo_web_root, NULL);
    ws_client *client = connect_ws(&server);
    say_hello(client, "Ah Ma");

    /* {"type":"ping","id":7} in three pieces: any piece alone would be bad_json */
    ck_assert_int_eq(ws_client_send_frame(client, WS_OP_TEXT, false, "{\"type\":", 8), 0);
    ck_assert_int_eq(ws_client_send_frame(client, WS_OP_CONTINUATION, false, "\"ping\",\"i", 9),
                     0);
    ck_assert_int_eq(ws_client_send_frame(client, WS_OP_CONTINUATION, true, "d\":7}", 5), 0);
    expect_pong(client, 7);
    expect_silence(client, 300); /* one message, so one reply */
    ck_assert(metric(&server, "teahouse_ws_messages_received_total") == 2); /* hello, ping */

    ck_assert_int_eq(ws_client_close(client, 1000, TIMEOUT_MS), WS_CLIENT_OK);
    server_process_cleanup(&server);
}
END_TEST

START_TEST(test_message_of_exactly_16_KiB_is_accepted)
{
    server_process server;
    start_server(&server, repo_web_root, NULL);
    ws_client *client = connect_ws(&server);
    say_hello(client, "Ah Ma");

    char *text = padded_ping(MAX_MESSAGE, 1);
    ck_assert_int_eq(ws_client_send_text(client, text, MAX_MESSAGE), WS_CLIENT_OK);
    expect_pong(client, 1);
    free(text);
    /* the same size in fragments of 1000 bytes */
    text = padded_ping(MAX_MESSAGE, 2);
    for (size_t sent = 0; sent < MAX_MESSAGE; sent += 1000) {
        size_t n = MAX_MESSAGE - sent < 1000 ? MAX_MESSAGE - sent : 1000;
        ck_assert_int_eq(ws_client_send_frame(client, sent ? WS_OP_CONTINUATION : WS_OP_TEXT,
                                              sent + n == MAX_MESSAGE, text + sent, n),
                         WS_CLIENT_OK);
    }
    expect_pong(client, 2);
    ck_assert(metric(&server, "teahouse_ws_refused_total{reason=\"too_large\"}") == 0);
    free(text);

    ck_assert_int_eq(ws_client_close(client, 1000, TIMEOUT_MS), WS_CLIENT_OK);
    server_process_cleanup(&server);
}
END_TEST

START_TEST(test_17_KiB_message_is_refused_and_the_connection_keeps_working)
{
    server_process server;
    start_server(&server, repo_web_root, NULL);
    ws_client *client = connect_ws(&server);
    say_hello(client, "Ah Ma");

    /* valid pings: had the lobby seen them, it would have answered pong */
    char *big = padded_ping(17 * 1024, 1);
    ck_assert_int_eq(ws_client_send_text(client, big, 17 * 1024), WS_CLIENT_OK);
    expect_reply(client, "too_large");
    free(big);
    big = padded_ping(MAX_MESSAGE + 1, 2);
    ck_assert_int_eq(ws_client_send_text(client, big, MAX_MESSAGE + 1), WS_CLIENT_OK);
    expect_reply(client, "too_large");
    free(big);

    expect_served(client, 3);
    ws_client *other = connect_ws(&server);
    say_hello(other, "Other");
    expect_served(other, 4);

    ck_assert(metric(&server, "teahouse_ws_refused_total{reason=\"too_large\"}") == 2);
    /* two hellos and two pings; the refused messages never reached the lobby */
    ck_assert(metric(&server, "teahouse_ws_messages_received_total") == 4);
    ck_assert_int_eq(ws_client_close(client, 1000, TIMEOUT_MS), WS_CLIENT_OK);
    ck_assert_int_eq(ws_client_close(other, 1000, TIMEOUT_MS), WS_CLIENT_OK);
    server_process_cleanup(&server);
}
END_TEST

START_TEST(test_too_large_fragmented_message_is_refused_once)
{
    server_process server;
    start_server(&server, repo_web_root, NULL);
    ws_client *client = connect_ws(&server);
    say_hello(client, "Ah Ma");

    /* a ping of five fragments of 4000 bytes: each fits, together they do not */
    char *text = padded_ping(5 * 4000, 1);
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(ws_client_send_frame(client, i ? WS_OP_CONTINUATION : WS_OP_TEXT,
                                              i == 4, text + i * 4000, 4000),
                         WS_CLIENT_OK);
    free(text);
    expect_reply(client, "too_large");
    expect_silence(client, 300);

    expect_served(client, 2);
    ck_assert(metric(&server, "teahouse_ws_refused_total{reason=\"too_large\"}") == 1);
    ck_assert(metric(&server, "teahouse_ws_messages_received_total") == 2); /* hello, ping */
    ck_assert_int_eq(ws_client_close(client, 1000, TIMEOUT_MS), WS_CLIENT_OK);
    server_process_cleanup(&server);
}
END_TEST

START_TEST(test_binary_frame_is_refused)
{
    server_process server;
    start_server(&server, repo_web_root, NULL);
    ws_client *client = connect_ws(&server);
    say_hello(client, "Ah Ma");

    const unsigned char bytes[] = {0x00, 0xff, 0x10, 0x7b};
    ck_assert_int_eq(ws_client_send_frame(client, WS_OP_BINARY, true, bytes, sizeof bytes), 0);
    expect_reply(client, "binary_not_supported");
    /* a fragmented binary message is refused once too, even when its bytes are a valid ping */
    static const char ping[] = "{\"type\":\"ping\",\"id\":5}";
    ck_assert_int_eq(ws_client_send_frame(client, WS_OP_BINARY, false, ping, 10), 0);
    ck_assert_int_eq(ws_client_send_frame(client, WS_OP_CONTINUATION, true, ping + 10,
                                          sizeof ping - 1 - 10),
                     0);
    expect_reply(client, "binary_not_supported");
    expect_silence(client, 300);

    expect_served(client, 6);
    ck_assert(metric(&server, "teahouse_ws_refused_total{reason=\"binary_not_supported\"}") == 2);
    ck_assert(metric(&server, "teahouse_ws_messages_received_total") == 2); /* hello, ping */
    ck_assert_int_eq(ws_client_close(client, 1000, TIMEOUT_MS), WS_CLIENT_OK);
    server_process_cleanup(&server);
}
END_TEST

START_TEST(test_websocket_upgrade_only_on_ws_path)
{
    server_process server;
    start_server(&server, repo_web_root, NULL);
    static const char *const wrong_paths[] = {"/", "/wsx", "/ws/", "/metrics", "/index.html"};
    for (size_t i = 0; i < sizeof wrong_paths / sizeof wrong_paths[0]; i++) {
        char error[256];
        ws_client *client = ws_client_connect(server.host, server.port, wrong_paths[i], 2000,
                                              error, sizeof error);
        ck_assert_msg(client == NULL, "upgrade on %s was accepted", wrong_paths[i]);
    }
    ck_assert(metric(&server, "teahouse_ws_connections_opened_total") == 0);
    ws_client *client = connect_ws(&server);
    ck_assert_int_eq(ws_client_close(client, 1000, TIMEOUT_MS), WS_CLIENT_OK);
    server_process_cleanup(&server);
}
END_TEST

START_TEST(test_abrupt_disconnect_leaves_no_connection_counted)
{
    server_process server;
    start_server(&server, repo_web_root, NULL);
    ws_client *a = connect_ws(&server);
    ws_client *b = connect_ws(&server);
    ws_client *c = connect_ws(&server);
    say_hello(a, "A");
    say_hello(b, "B");
    say_hello(c, "C");
    ck_assert(wait_metric(&server, "teahouse_ws_connections", 3, 2000) == 3);

    ws_client_abort(a); /* RST, no close frame */
    /* half a message, then gone */
    ck_assert_int_eq(ws_client_send_frame(b, WS_OP_TEXT, false, "{\"ty", 4), WS_CLIENT_OK);
    ws_client_abort(b);
    ck_assert(wait_metric(&server, "teahouse_ws_connections", 1, 3000) == 1);

    expect_served(c, 1);
    ws_client_abort(c);
    ck_assert(wait_metric(&server, "teahouse_ws_connections", 0, 3000) == 0);
    server_process_cleanup(&server);
}
END_TEST

/* ---- keepalive and slow readers ---------------------------------------------------------- */

/* Sends one lobby message that carries "id":id and returns the reply with that id (owned),
 * passing over the table events that arrive in between. */
static json_t *request(ws_client *client, const char *text, int id)
{
    ck_assert_int_eq(ws_client_send_text(client, text, strlen(text)), WS_CLIENT_OK);
    long long deadline = now_ms() + TIMEOUT_MS;
    while (now_ms() < deadline) {
        json_t *frame = recv_json(client);
        json_t *frame_id = json_object_get(frame, "id");
        if (json_is_integer(frame_id) && json_integer_value(frame_id) == id)
            return frame;
        json_decref(frame);
    }
    ck_abort_msg("no reply to %s", text);
    return NULL;
}

static void expect_ok(json_t *reply)
{
    const char *code = json_string_value(json_object_get(reply, "code"));
    ck_assert_msg(strcmp(type_of(reply), "ok") == 0, "want ok, got %s %s", type_of(reply),
                  code ? code : "");
    json_decref(reply);
}

/* The sitter (after hello) opens a private table, keeps seat 0, seats three bots, starts and
 * drops: the bot covers its seat at once, and since a person is still seated the bots play hand
 * after hand. The watcher joins, and every move is an event for it. */
static void start_bot_table(ws_client *sitter, ws_client *watcher)
{
    static const char create[] =
        "{\"type\":\"create_table\",\"id\":1,\"game\":\"tiengow\",\"public\":false}";
    json_t *snapshot = request(sitter, create, 1);
    ck_assert_str_eq(type_of(snapshot), "snapshot");
    const char *table = json_string_value(json_object_get(snapshot, "table"));
    ck_assert_msg(table && strlen(table) == 12, "no table code");
    char code[16], text[128];
    snprintf(code, sizeof code, "%s", table);
    json_decref(snapshot);

    for (int seat = 1; seat < 4; seat++) {
        snprintf(text, sizeof text, "{\"type\":\"add_bot\",\"id\":%d,\"code\":\"%s\",\"seat\":%d}",
                 2 + seat, code, seat);
        expect_ok(request(sitter, text, 2 + seat));
    }
    snprintf(text, sizeof text, "{\"type\":\"join_table\",\"id\":8,\"code\":\"%s\"}", code);
    json_t *joined = request(watcher, text, 8);
    ck_assert_str_eq(type_of(joined), "snapshot");
    json_decref(joined);
    snprintf(text, sizeof text, "{\"type\":\"start\",\"id\":7,\"code\":\"%s\"}", code);
    expect_ok(request(sitter, text, 7));
    ws_client_abort(sitter);
}

/* Reads whatever is still on its way until the connection ends; returns how it ended
 * (WS_CLIENT_TIMEOUT if it did not end within timeout_ms). */
static ws_client_result read_to_the_end(ws_client *client, int timeout_ms)
{
    long long deadline = now_ms() + timeout_ms;
    ws_client_result result = WS_CLIENT_OK;
    while (result == WS_CLIENT_OK && now_ms() < deadline) {
        ws_message message;
        result = ws_client_recv(client, &message, (int)(deadline - now_ms()));
    }
    return result;
}

START_TEST(test_slow_reader_is_dropped_and_others_are_served)
{
    /* bots that play without a pause, one hand after another */
    static const char *const args[] = {"--bot-delay-ms", "1", "--next-hand-seconds", "0", NULL};
    server_process server;
    start_server(&server, repo_web_root, args);
    ws_client *fine = connect_ws(&server);
    say_hello(fine, "Fine");
    ws_client *slow = connect_ws(&server);
    say_hello(slow, "Slow");
    ws_client *sitter = connect_ws(&server);
    say_hello(sitter, "Sitter");
    /* A small receive buffer, so our kernel holds little of what the slow client leaves unread.
     * Not smaller than a loopback segment (64 KiB): below that the kernel drops the server's
     * segments, and the end of the connection can then never reach us. */
    int rcvbuf = 64 * 1024;
    ck_assert_int_eq(setsockopt(ws_client_fd(slow), SOL_SOCKET, SO_RCVBUF, &rcvbuf,
                                sizeof rcvbuf),
                     0);
    start_bot_table(sitter, slow);

    /* The slow client reads nothing more. The other one is still served meanwhile (its pings
     * go at under ten a second, well within the rate limit). */
    static const char dropped_sample[] = "teahouse_ws_dropped_total{reason=\"slow_reader\"}";
    long long deadline = now_ms() + 60000;
    int id = 0;
    double drops;
    while ((drops = metric(&server, dropped_sample)) < 1 && now_ms() < deadline) {
        expect_served(fine, ++id);
        sleep_ms(100);
    }
    char *log = server_process_log(&server);
    ck_assert_msg(drops == 1, "slow_reader drops %g after %d pings, %g hands played; log:\n%s",
                  drops, id, metric(&server, "teahouse_hands_played_total"), log);
    free(log);
    ck_assert(wait_metric(&server, "teahouse_ws_connections", 1, 3000) == 1);

    /* what was already in the socket buffers still arrives, then the connection ends */
    ws_client_result end = read_to_the_end(slow, 20000);
    ck_assert_msg(end != WS_CLIENT_OK && end != WS_CLIENT_TIMEOUT,
                  "the slow reader's connection did not end (result %d)", end);
    ws_client_abort(slow);

    expect_served(fine, ++id);
    ck_assert(metric(&server, dropped_sample) == 1);
    ck_assert(metric(&server, "teahouse_ws_connections") == 1);
    ck_assert_int_eq(ws_client_close(fine, 1000, TIMEOUT_MS), WS_CLIENT_OK);
    server_process_cleanup(&server);
}
END_TEST

START_TEST(test_peer_that_ignores_pings_is_dropped)
{
    static const char *const args[] = {"--ping-seconds", "1", NULL};
    server_process server;
    start_server(&server, repo_web_root, args);
    ws_client *alive = connect_ws(&server);
    ws_client *silent = connect_ws(&server);
    ws_client_set_auto_pong(silent, false);

    /* Pinged after 1 s of silence, dropped after 2 s: give it up to 6 s. */
    long long deadline = now_ms() + 6000;
    ws_client_result silent_result = WS_CLIENT_TIMEOUT;
    while (now_ms() < deadline && silent_result == WS_CLIENT_TIMEOUT) {
        ws_message message;
        ck_assert_int_eq(ws_client_recv(alive, &message, 100), WS_CLIENT_TIMEOUT);
        silent_result = ws_client_recv(silent, &message, 10);
    }
    ck_assert_msg(silent_result == WS_CLIENT_EOF || silent_result == WS_CLIENT_ERROR,
                  "the silent peer was not dropped (result %d)", silent_result);
    ck_assert_uint_ge(ws_client_pings_seen(silent), 1);
    ck_assert_uint_ge(ws_client_pings_seen(alive), 1);
    ws_client_abort(silent);

    /* the peer that answered is still connected and served */
    say_hello(alive, "Alive");
    expect_served(alive, 1);
    ck_assert(metric(&server, "teahouse_ws_dropped_total{reason=\"ping_timeout\"}") == 1);
    ck_assert(metric(&server, "teahouse_ws_connections") == 1);
    ck_assert_int_eq(ws_client_close(alive, 1000, TIMEOUT_MS), WS_CLIENT_OK);
    server_process_cleanup(&server);
}
END_TEST

/* ---- shutdown ---------------------------------------------------------------------------- */

static void expect_clean_exit(server_process *server, int status)
{
    char *log = server_process_log(server);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "server did not exit 0 (status 0x%x); log:\n%s", status, log);
    ck_assert_msg(strstr(log, "ERROR") == NULL, "errors logged:\n%s", log);
    ck_assert_msg(strstr(log, "stopped") != NULL, "no 'stopped' line:\n%s", log);
    free(log);
}

START_TEST(test_sigterm_closes_websockets_with_going_away_and_exits_0)
{
    server_process server;
    start_server(&server, repo_web_root, NULL);
    ws_client *a = connect_ws(&server);
    say_hello(a, "Ah Ma");
    ws_client *b = connect_ws(&server);
    ck_assert_int_eq(ws_client_send_frame(b, WS_OP_TEXT, false, "{\"half", 6), WS_CLIENT_OK);
    ck_assert(wait_metric(&server, "teahouse_ws_connections", 2, 2000) == 2);

    long long start = now_ms();
    kill(server.pid, SIGTERM);
    /* a player is told why (PROTOCOL.md: shutting_down, then closed); that message is queued
     * before the close begins, so it must arrive before the close frame */
    expect_reply(a, "shutting_down");
    ws_message message;
    ck_assert_int_eq(ws_client_recv(a, &message, 3000), WS_CLIENT_CLOSED);
    ck_assert_uint_eq(ws_client_close_code(a), 1001); /* going away */
    ck_assert_int_eq(ws_client_recv(b, &message, 3000), WS_CLIENT_CLOSED);
    ck_assert_uint_eq(ws_client_close_code(b), 1001);

    int status = 0;
    ck_assert_msg(server_process_wait(&server, 5000, &status), "server still running");
    ck_assert_msg(now_ms() - start < 3000, "shutdown took %lld ms", now_ms() - start);
    expect_clean_exit(&server, status);
    ws_client_abort(a);
    ws_client_abort(b);
    server_process_cleanup(&server);
}
END_TEST

START_TEST(test_sigterm_with_a_peer_that_never_answers_still_exits_0)
{
    server_process server;
    start_server(&server, repo_web_root, NULL);
    ws_client *mute = connect_ws(&server); /* never reads, never answers the close */
    ck_assert(wait_metric(&server, "teahouse_ws_connections", 1, 2000) == 1);

    long long start = now_ms();
    int status = 0;
    ck_assert_msg(server_process_stop(&server, SIGTERM, 8000, &status), "server still running");
    ck_assert_msg(now_ms() - start < 5000, "shutdown took %lld ms", now_ms() - start);
    expect_clean_exit(&server, status);
    ws_client_abort(mute);
    server_process_cleanup(&server);
}
END_TEST

START_TEST(test_sigint_without_connections_exits_0)
{
    server_process server;
    start_server(&server, repo_web_root, NULL);
    http_response response;
    ck_assert(http_get(server.host, server.port, "/healthz", TIMEOUT_MS, &response));
    http_response_free(&response);
    int status = 0;
    ck_assert_msg(server_process_stop(&server, SIGINT, 5000, &status), "server still running");
    expect_clean_exit(&server, status);
    server_process_cleanup(&server);
}
END_TEST

/* ---- command line ------------------------------------------------------------------------ */

START_TEST(test_help_lists_every_flag_and_exits_0)
{
    static const char *const flags[] = {
        "--port",          "--bind",         "--web-root",     "--db",
        "--log-level",     "--turn-seconds", "--reconnect-seconds",
        "--hello-seconds", "--max-connections-per-address",   "--trusted-proxy",
        "--allow-origin",  "--metrics-bind", "--metrics-port", "--help",
        "--version"};
    char output[8192];
    const char *args[] = {"--help", NULL};
    int status = run_binary(args, output, sizeof output);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        ck_assert_msg(strstr(output, flags[i]) != NULL, "--help does not mention %s", flags[i]);
    /* the defaults the brief asks for */
    ck_assert(strstr(output, "8080") != NULL);
    ck_assert(strstr(output, "0.0.0.0") != NULL); /* how to let other machines in */
    ck_assert(strstr(output, "teahouse.db") != NULL);
    /* this machine only, unless told otherwise; the operator's port likewise */
    ck_assert(strstr(output, "other machines in (default: 127.0.0.1)") != NULL);
    ck_assert(strstr(output, "(/metrics and /healthz) (default: 127.0.0.1)") != NULL);
    ck_assert(strstr(output, "(0 = none) (default: 9090)") != NULL);
    ck_assert(strstr(output, "(0 = no cap) (default: 64)") != NULL);
}
END_TEST

START_TEST(test_version_prints_the_project_version)
{
    char output[1024], expected[128];
    const char *args[] = {"--version", NULL};
    int status = run_binary(args, output, sizeof output);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    snprintf(expected, sizeof expected, "teahouse %s\n", project_version);
    ck_assert_str_eq(output, expected);
}
END_TEST

START_TEST(test_bad_flags_exit_2_with_a_message)
{
    static const char *const cases[][4] = {
        {"--bogus", NULL},
        {"--port", NULL},
        {"--port", "70000", NULL},
        {"--port", "-1", NULL},
        {"--port", "80x", NULL},
        {"--port=", NULL},
        {"--log-level", "loud", NULL},
        {"--turn-seconds", "0", NULL},
        {"--reconnect-seconds", "many", NULL},
        {"--web-root", "", NULL},
        {"stray-argument", NULL},
        {"--help=yes", NULL},
        {"--hello-seconds", "0", NULL},
        {"--max-connections-per-address", "-1", NULL},
        {"--trusted-proxy", "proxy.example", NULL},
        {"--trusted-proxy", "127.0.0.1,", NULL},
        {"--allow-origin", "evil.example", NULL},
        {"--allow-origin", "https://teahouse.example/", NULL},
        {"--metrics-port", "65536", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char output[2048];
        int status = run_binary(cases[i], output, sizeof output);
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 2,
                      "%s: status 0x%x, output %s", cases[i][0], status, output);
        ck_assert_msg(strncmp(output, "teahouse: ", 10) == 0, "%s: message %s", cases[i][0],
                      output);
    }
}
END_TEST

START_TEST(test_missing_web_root_exits_1)
{
    char output[4096];
    const char *args[] = {"--port", "0", "--bind", "127.0.0.1", "--web-root",
                          "/nonexistent/teahouse-web", NULL};
    int status = run_binary(args, output, sizeof output);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 1, "status 0x%x: %s", status,
                  output);
    ck_assert_msg(strstr(output, "/nonexistent/teahouse-web") != NULL, "output: %s", output);
}
END_TEST

START_TEST(test_port_in_use_exits_1)
{
    server_process server;
    start_server(&server, repo_web_root, NULL);
    char port[16], output[8192];
    snprintf(port, sizeof port, "%d", server.port);
    const char *args[] = {"--port", port, "--bind", "127.0.0.1", "--web-root", repo_web_root,
                          NULL};
    int status = run_binary(args, output, sizeof output);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 1, "status 0x%x: %s", status,
                  output);
    /* said plainly, with the way out: another port */
    char advice[64];
    snprintf(advice, sizeof advice, "./run.sh --port %d", server.port + 1);
    ck_assert_msg(strstr(output, "is in use by another program") != NULL && strstr(output, advice) != NULL,
                  "output: %s", output);
    server_process_cleanup(&server);
}
END_TEST

/* ---- hostile clients: holding connections ----------------------------------------------- */

/* A WebSocket to /ws from source (NULL: any local address) with more handshake headers (NULL:
 * none); NULL if the server refused it, with the reason in error. */
static ws_client *try_ws(const server_process *server, const char *source, const char *headers,
                         char *error, size_t error_cap)
{
    const ws_client_options options = {.source_address = source, .headers = headers};
    return ws_client_connect_with(server->host, server->port, "/ws", &options, TIMEOUT_MS, error,
                                  error_cap);
}

static ws_client *must_ws(const server_process *server, const char *source, const char *headers)
{
    char error[256];
    ws_client *client = try_ws(server, source, headers, error, sizeof error);
    ck_assert_msg(client != NULL, "websocket from %s refused: %s", source ? source : "here",
                  error);
    return client;
}

static void must_refuse_ws(const server_process *server, const char *source, const char *headers,
                           const char *why)
{
    char error[256];
    ws_client *client = try_ws(server, source, headers, error, sizeof error);
    ck_assert_msg(client == NULL, "websocket from %s with [%s] was accepted", source ? source : "here",
                  headers ? headers : "");
    if (why)
        ck_assert_msg(strstr(error, why) != NULL, "refused, but '%s', not %s", error, why);
}

/* GET /healthz on the game port from source: true if it answered 200 ok. */
static bool healthy_from(const server_process *server, const char *source)
{
    const http_options options = {.source_address = source};
    http_response response;
    bool ok = http_get_with(server->host, server->port, "/healthz", &options, TIMEOUT_MS,
                            &response) &&
              response.status == 200 && strcmp(response.body, "ok") == 0;
    http_response_free(&response);
    return ok;
}

/* Reads from a client for ms (answering pings), expecting nothing else. */
static void keep_listening(ws_client *client, int ms)
{
    long long deadline = now_ms() + ms;
    while (now_ms() < deadline)
        expect_silence(client, 100);
}

START_TEST(test_websocket_that_never_says_hello_is_closed_after_hello_seconds)
{
    /* pings every second, which the anonymous client answers: answering is not enough */
    static const char *const args[] = {"--hello-seconds", "1", "--ping-seconds", "1", NULL};
    server_process server;
    start_server(&server, repo_web_root, args);
    long long opened = now_ms();
    ws_client *anonymous = connect_ws(&server);
    ws_client *player = connect_ws(&server);
    say_hello(player, "Ah Ma");

    ws_message message;
    ws_client_result result = ws_client_recv(anonymous, &message, 5000);
    long long took = now_ms() - opened;
    ck_assert_msg(result == WS_CLIENT_CLOSED, "not closed without a hello (result %d)", result);
    ck_assert_uint_eq(ws_client_close_code(anonymous), 1008); /* policy violation */
    ck_assert_msg(took >= 900 && took < 3000, "closed after %lld ms", took);
    ws_client_abort(anonymous);

    /* who said hello stays, well past the deadline */
    keep_listening(player, 2500);
    expect_served(player, 1);
    ck_assert(metric(&server, "teahouse_ws_dropped_total{reason=\"hello_timeout\"}") == 1);
    ck_assert(metric(&server, "teahouse_ws_connections") == 1);
    ck_assert_int_eq(ws_client_close(player, 1000, TIMEOUT_MS), WS_CLIENT_OK);
    server_process_cleanup(&server);
}
END_TEST

START_TEST(test_one_address_holds_at_most_its_cap_and_others_still_get_in)
{
    static const char *const args[] = {"--max-connections-per-address", "8", "--hello-seconds",
                                        "60", NULL};
    server_process server;
    start_server(&server, repo_web_root, args);
    ws_client *held[8];
    for (int i = 0; i < 8; i++)
        held[i] = must_ws(&server, "127.0.0.1", NULL);

    /* a ninth socket from that address is closed as soon as it is accepted, HTTP or not */
    must_refuse_ws(&server, "127.0.0.1", NULL, NULL);
    ck_assert(!healthy_from(&server, "127.0.0.1"));
    /* another address does not notice */
    ws_client *other = must_ws(&server, "127.0.0.2", NULL);
    say_hello(other, "Other");
    expect_served(other, 1);
    ck_assert(healthy_from(&server, "127.0.0.2"));
    /* and the operator's port (its own connections are not counted) tells the story */
    ck_assert(metric(&server, "teahouse_connections_refused_total{reason=\"per_address\"}") == 2);
    ck_assert(metric(&server, "teahouse_client_addresses") == 2);

    /* a connection given back makes room again */
    ck_assert_int_eq(ws_client_close(held[0], 1000, TIMEOUT_MS), WS_CLIENT_OK);
    ck_assert(wait_metric(&server, "teahouse_ws_connections", 8, 3000) == 8);
    held[0] = must_ws(&server, "127.0.0.1", NULL);
    for (int i = 0; i < 8; i++)
        ws_client_abort(held[i]);
    ws_client_abort(other);
    server_process_cleanup(&server);
}
END_TEST

START_TEST(test_idle_websockets_from_one_address_cannot_lock_others_out)
{
    /* The attack of issue 14: one address opens WebSocket after WebSocket and never says hello
     * (19,918 of them locked everyone out). With the defaults but a short hello deadline. */
    enum { ATTEMPTS = 300, CAP = 64 };
    static const char *const args[] = {"--hello-seconds", "5", NULL};
    server_process server;
    start_server(&server, repo_web_root, args);
    ws_client **attack = calloc(ATTEMPTS, sizeof *attack);
    ck_assert(attack != NULL);
    long long start = now_ms();
    int held = 0;
    for (int i = 0; i < ATTEMPTS; i++) {
        char error[256];
        attack[i] = try_ws(&server, "127.0.0.1", NULL, error, sizeof error);
        held += attack[i] != NULL;
    }
    long long spent = now_ms() - start;
    ck_assert_msg(spent < 4000, "opening took %lld ms, past the hello deadline", spent);
    ck_assert_int_eq(held, CAP);

    /* meanwhile a player from elsewhere gets in and plays, and /healthz answers */
    ws_client *player = must_ws(&server, "127.0.0.2", NULL);
    say_hello(player, "Player");
    expect_served(player, 1);
    ck_assert(healthy_from(&server, "127.0.0.3"));

    /* and the idle ones are all closed once their time to say hello is up */
    int closed = 0;
    for (int i = 0; i < ATTEMPTS; i++) {
        if (!attack[i])
            continue;
        ws_message message;
        if (ws_client_recv(attack[i], &message, 8000) == WS_CLIENT_CLOSED &&
            ws_client_close_code(attack[i]) == 1008)
            closed++;
        ws_client_abort(attack[i]);
    }
    long long all_closed = now_ms() - start;
    ck_assert_int_eq(closed, CAP);
    ck_assert(wait_metric(&server, "teahouse_ws_connections", 1, 3000) == 1);
    ck_assert(metric(&server, "teahouse_connections_refused_total{reason=\"per_address\"}") ==
              ATTEMPTS - CAP);
    fprintf(stderr,
            "one address: %d of %d WebSockets held at once (opened in %lld ms), all %d closed "
            "for want of a hello %lld ms after the first; another address played meanwhile\n",
            held, ATTEMPTS, spent, closed, all_closed);
    expect_served(player, 2);
    free(attack);
    ws_client_abort(player);
    server_process_cleanup(&server);
}
END_TEST

START_TEST(test_behind_a_trusted_proxy_the_forwarded_client_is_counted)
{
    static const char *const args[] = {"--trusted-proxy", "127.0.0.1",
                                        "--max-connections-per-address", "2",
                                        "--hello-seconds", "60", NULL};
    static const char seven[] = "X-Forwarded-For: 203.0.113.7\r\n";
    server_process server;
    start_server(&server, repo_web_root, args);
    ws_client *a = must_ws(&server, "127.0.0.1", seven);
    ws_client *b = must_ws(&server, "127.0.0.1", seven);
    must_refuse_ws(&server, "127.0.0.1", seven, " 429");
    ws_client *c = must_ws(&server, "127.0.0.1", "X-Forwarded-For: 203.0.113.8\r\n");
    /* what a client writes itself stands left of what the proxy appends: not believed */
    must_refuse_ws(&server, "127.0.0.1", "X-Forwarded-For: 198.51.100.50, 203.0.113.7\r\n",
                   " 429");
    /* a proxy that sets X-Real-IP only */
    ws_client *d = must_ws(&server, "127.0.0.1", "X-Real-IP: 198.51.100.1\r\n");
    say_hello(d, "Real");
    expect_served(d, 1);
    ck_assert(metric(&server, "teahouse_connections_refused_total{reason=\"per_address\"}") == 2);
    ck_assert(metric(&server, "teahouse_client_addresses") == 3);
    ws_client_abort(a);
    ws_client_abort(b);
    ws_client_abort(c);
    ws_client_abort(d);
    server_process_cleanup(&server);
}
END_TEST

START_TEST(test_forwarded_headers_from_an_untrusted_peer_are_ignored)
{
    static const char *const args[] = {"--max-connections-per-address", "2", "--hello-seconds",
                                        "60", NULL};
    server_process server;
    start_server(&server, repo_web_root, args);
    ws_client *a = must_ws(&server, "127.0.0.1", "X-Forwarded-For: 203.0.113.1\r\n");
    ws_client *b = must_ws(&server, "127.0.0.1", "X-Forwarded-For: 203.0.113.2\r\n");
    must_refuse_ws(&server, "127.0.0.1", "X-Forwarded-For: 203.0.113.3\r\n", NULL);
    must_refuse_ws(&server, "127.0.0.1", "X-Real-IP: 203.0.113.4\r\n", NULL);
    ck_assert(metric(&server, "teahouse_client_addresses") == 1);
    ws_client_abort(a);
    ws_client_abort(b);
    server_process_cleanup(&server);
}
END_TEST

START_TEST(test_when_descriptors_run_low_new_addresses_and_health_checks_still_get_in)
{
    /* An open-file limit of 400 (for this test's process and the server it starts): no game
     * socket from descriptor 320 on, and from 256 on (the reserve: 64) only addresses holding
     * fewer than 8 connections get in. Many addresses, 64 WebSockets each, fill the house. */
    struct rlimit limit = {.rlim_cur = 400, .rlim_max = 400};
    ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &limit), 0);
    static const char *const args[] = {"--hello-seconds", "60", NULL};
    server_process server;
    start_server(&server, repo_web_root, args);

    enum { MOST = 360 };
    ws_client *clients[MOST];
    int n = 0, addresses = 0, last_got = 64;
    char source[32], error[256];
    for (int a = 10; last_got == 64 && a < 20; a++, addresses++) {
        snprintf(source, sizeof source, "127.0.0.%d", a);
        for (last_got = 0; last_got < 64 && n < MOST; last_got++) {
            ws_client *c = try_ws(&server, source, NULL, error, sizeof error);
            if (!c)
                break;
            clients[n++] = c;
        }
    }
    /* the last address was stopped by the reserve, not by its cap */
    ck_assert_int_lt(last_got, 64);
    ck_assert_int_ge(last_got, 8);
    ck_assert(metric(&server, "teahouse_connections_refused_total{reason=\"reserve\"}") == 1);

    /* a new address gets in: a player with a page and a WebSocket, up to 8 sockets ... */
    ws_client *player[8];
    ck_assert(healthy_from(&server, "127.0.0.200"));
    for (int i = 0; i < 8; i++)
        player[i] = must_ws(&server, "127.0.0.200", NULL);
    say_hello(player[0], "Newcomer");
    expect_served(player[0], 1);
    /* ... but no more than that while the house is this full */
    must_refuse_ws(&server, "127.0.0.200", NULL, NULL);
    /* the monitoring still gets its answers, on either port */
    ck_assert(healthy_from(&server, "127.0.0.201"));
    ck_assert(metric(&server, "teahouse_connections_refused_total{reason=\"reserve\"}") == 2);
    fprintf(stderr,
            "descriptor limit 400: %d WebSockets from %d addresses filled the house (the last "
            "address got %d); a new address still opened 8 and /healthz answered\n",
            n, addresses, last_got);
    for (int i = 0; i < n; i++)
        ws_client_abort(clients[i]);
    for (int i = 0; i < 8; i++)
        ws_client_abort(player[i]);
    server_process_cleanup(&server);
}
END_TEST

/* ---- hostile clients: the web side ------------------------------------------------------ */

START_TEST(test_websocket_from_a_foreign_page_is_refused_with_403)
{
    static const char *const args[] = {"--allow-origin", "https://teahouse.example", NULL};
    server_process server;
    start_server(&server, repo_web_root, args);
    char own_http[128], own_https[128];
    snprintf(own_http, sizeof own_http, "Origin: http://%s:%d\r\n", server.host, server.port);
    snprintf(own_https, sizeof own_https, "Origin: https://%s:%d\r\n", server.host, server.port);

    static const char *const foreign[] = {
        "Origin: http://evil.example\r\n",
        "Origin: null\r\n",
        "Origin: https://teahouse.example.evil.example\r\n",
        "Origin: http://teahouse.example\r\n", /* allowed over https only */
    };
    for (size_t i = 0; i < sizeof foreign / sizeof foreign[0]; i++)
        must_refuse_ws(&server, NULL, foreign[i], " 403");
    char wrong_port[128];
    snprintf(wrong_port, sizeof wrong_port, "Origin: http://%s:%d\r\n", server.host,
             server.port + 1);
    must_refuse_ws(&server, NULL, wrong_port, " 403");

    /* the page's own origin (over http or behind TLS), an allowed one, and no browser at all */
    const char *welcome[] = {own_http, own_https, "Origin: https://teahouse.example\r\n", NULL};
    for (size_t i = 0; i < sizeof welcome / sizeof welcome[0]; i++) {
        ws_client *client = must_ws(&server, NULL, welcome[i]);
        say_hello(client, "Welcome");
        ck_assert_int_eq(ws_client_close(client, 1000, TIMEOUT_MS), WS_CLIENT_OK);
    }
    ck_assert(metric(&server, "teahouse_connections_refused_total{reason=\"origin\"}") == 5);
    ck_assert(metric(&server, "teahouse_ws_connections_opened_total") == 4);
    server_process_cleanup(&server);
}
END_TEST

START_TEST(test_symbolic_links_out_of_the_web_root_are_not_followed)
{
    temp_site site;
    make_site(&site);
    char path[160], target[160];
    static const char *const links[][2] = {
        {"passwd.txt", "/etc/passwd"}, /* an absolute link out (".txt": a type lws serves) */
        {"leak.txt", "../secret.txt"}, /* a relative one */
        {"up", ".."},                  /* a directory out */
        {"inside.css", "style.css"},   /* and one that stays inside */
    };
    for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", site.www, links[i][0]);
        ck_assert_int_eq(symlink(links[i][1], path), 0);
    }
    /* the web root itself may be a link (the real root is what files must stay in) */
    snprintf(target, sizeof target, "%s/root-link", site.root);
    ck_assert_int_eq(symlink("www", target), 0);
    server_process server;
    start_server(&server, target, NULL);

    static const char *const attacks[] = {"/passwd.txt", "/leak.txt", "/up/secret.txt"};
    for (size_t i = 0; i < sizeof attacks / sizeof attacks[0]; i++) {
        http_response response;
        ck_assert_msg(http_get(server.host, server.port, attacks[i], TIMEOUT_MS, &response),
                      "%s: no answer", attacks[i]);
        ck_assert_msg(response.status == 404, "%s: status %d", attacks[i], response.status);
        ck_assert_msg(strstr(response.body, secret_text) == NULL, "%s leaked the secret",
                      attacks[i]);
        ck_assert_msg(strstr(response.body, "root:") == NULL, "%s leaked /etc/passwd",
                      attacks[i]);
        http_response_free(&response);
    }
    http_response response;
    ck_assert(http_get(server.host, server.port, "/inside.css", TIMEOUT_MS, &response));
    ck_assert_int_eq(response.status, 200);
    ck_assert_str_eq(response.body, "body { color: black; }");
    http_response_free(&response);
    ck_assert(http_get(server.host, server.port, "/", TIMEOUT_MS, &response));
    ck_assert_int_eq(response.status, 200);
    http_response_free(&response);

    server_process_cleanup(&server);
    unlink(target);
    for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", site.www, links[i][0]);
        unlink(path);
    }
    remove_site(&site);
}
END_TEST

START_TEST(test_metrics_live_on_the_operators_port_only)
{
    server_process server;
    start_server(&server, repo_web_root, NULL);
    ck_assert_int_gt(server.metrics_port, 0);
    ck_assert_int_ne(server.metrics_port, server.port);
    char *log = server_process_log(&server);
    ck_assert_msg(strstr(log, "metrics on http://127.0.0.1:") != NULL, "log:\n%s", log);
    free(log);

    http_response response;
    ck_assert(http_get(server.host, server.port, "/metrics", TIMEOUT_MS, &response));
    ck_assert_int_eq(response.status, 404);
    ck_assert(strstr(response.body, "teahouse_") == NULL);
    http_response_free(&response);
    ck_assert(http_get(server.host, server.metrics_port, "/metrics", TIMEOUT_MS, &response));
    ck_assert_int_eq(response.status, 200);
    ck_assert(strstr(response.body, "teahouse_ws_connections ") != NULL);
    http_response_free(&response);
    ck_assert(http_get(server.host, server.metrics_port, "/healthz", TIMEOUT_MS, &response));
    ck_assert_int_eq(response.status, 200);
    http_response_free(&response);
    /* the operator's port serves nothing else: no files, no WebSockets */
    ck_assert(http_get(server.host, server.metrics_port, "/index.html", TIMEOUT_MS, &response));
    ck_assert_int_eq(response.status, 404);
    http_response_free(&response);
    char error[256];
    ws_client *client = ws_client_connect(server.host, server.metrics_port, "/ws", TIMEOUT_MS,
                                          error, sizeof error);
    ck_assert_msg(client == NULL, "a WebSocket opened on the operator's port");
    server_process_cleanup(&server);

    /* --metrics-port 0: no operator's port at all */
    static const char *const none[] = {"--metrics-port", "0", NULL};
    start_server(&server, repo_web_root, none);
    ck_assert_int_eq(server.metrics_port, 0);
    log = server_process_log(&server);
    ck_assert_msg(strstr(log, "no operator's port") != NULL, "log:\n%s", log);
    free(log);
    server_process_cleanup(&server);
}
END_TEST

static void expect_security_headers(const http_response *response, const char *what)
{
    char value[512];
    ck_assert_msg(http_header(response, "content-security-policy", value, sizeof value),
                  "%s: no Content-Security-Policy", what);
    ck_assert_str_eq(value, CSP);
    ck_assert_msg(http_header(response, "x-content-type-options", value, sizeof value),
                  "%s: no X-Content-Type-Options", what);
    ck_assert_str_eq(value, "nosniff");
    ck_assert_msg(http_header(response, "referrer-policy", value, sizeof value),
                  "%s: no Referrer-Policy", what);
    ck_assert_str_eq(value, "no-referrer");
}

START_TEST(test_every_http_answer_carries_the_security_headers)
{
    server_process server;
    start_server(&server, repo_web_root, NULL);
    static const char *const paths[] = {"/", "/index.html", "/js/main.js", "/css/teahouse.css",
                                        "/no-such-file", "/healthz", "/metrics"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        http_response response;
        ck_assert(http_get(server.host, server.port, paths[i], TIMEOUT_MS, &response));
        expect_security_headers(&response, paths[i]);
        http_response_free(&response);
    }
    http_response response;
    ck_assert(http_get(server.host, server.metrics_port, "/metrics", TIMEOUT_MS, &response));
    expect_security_headers(&response, "operator's /metrics");
    http_response_free(&response);
    /* a refused upgrade too */
    const http_options foreign = {.headers = "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                                             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                                             "Sec-WebSocket-Version: 13\r\n"
                                             "Origin: http://evil.example\r\n"};
    ck_assert(http_get_with(server.host, server.port, "/ws", &foreign, TIMEOUT_MS, &response));
    ck_assert_int_eq(response.status, 403);
    expect_security_headers(&response, "refused upgrade");
    http_response_free(&response);
    server_process_cleanup(&server);
}
END_TEST

START_TEST(test_text_that_is_not_utf8_closes_the_connection_with_1007)
{
    static const char *const broken[] = {
        "{\"type\":\"ping\",\"id\":1,\"x\":\"\xff\"}",     /* a byte UTF-8 never uses */
        "{\"type\":\"ping\",\"id\":1,\"x\":\"\xc3\"}",     /* a character cut short */
        "{\"type\":\"ping\",\"id\":1,\"x\":\"\xed\xa0\x80\"}", /* a UTF-16 surrogate */
        "{\"type\":\"ping\",\"id\":1,\"x\":\"\xc0\xaf\"}", /* an overlong '/' */
    };
    server_process server;
    start_server(&server, repo_web_root, NULL);
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        ws_client *client = connect_ws(&server);
        say_hello(client, "Ah Ma");
        ck_assert_int_eq(ws_client_send_text(client, broken[i], strlen(broken[i])), WS_CLIENT_OK);
        ws_message message;
        ws_client_result result = ws_client_recv(client, &message, TIMEOUT_MS);
        ck_assert_msg(result == WS_CLIENT_CLOSED, "case %zu: not closed (result %d: %s)", i,
                      result, result == WS_CLIENT_OK ? message.data : "");
        ck_assert_uint_eq(ws_client_close_code(client), 1007);
        ws_client_abort(client);
    }
    /* a character split between two fragments is fine: only the whole message counts */
    ws_client *client = connect_ws(&server);
    static const char hello[] = "{\"type\":\"hello\",\"v\":1,\"name\":\"\xe8\x8c\xb6\"}"; /* 茶 */
    size_t cut = strlen("{\"type\":\"hello\",\"v\":1,\"name\":\"\xe8");
    ck_assert_int_eq(ws_client_send_frame(client, WS_OP_TEXT, false, hello, cut), WS_CLIENT_OK);
    ck_assert_int_eq(ws_client_send_frame(client, WS_OP_CONTINUATION, true, hello + cut,
                                          strlen(hello) - cut),
                     WS_CLIENT_OK);
    json_t *welcome = recv_json(client);
    ck_assert_str_eq(type_of(welcome), "welcome");
    json_decref(welcome);
    ck_assert(metric(&server, "teahouse_ws_dropped_total{reason=\"invalid_utf8\"}") == 4);
    ck_assert_int_eq(ws_client_close(client, 1000, TIMEOUT_MS), WS_CLIENT_OK);
    server_process_cleanup(&server);
}
END_TEST

/* ---- suite ------------------------------------------------------------------------------- */

static Suite *net_suite(void)
{
    Suite *suite = suite_create("net");

    TCase *http = tcase_create("http");
    tcase_set_timeout(http, 60);
    tcase_add_test(http, test_healthz_answers_200_ok);
    tcase_add_test(http, test_root_serves_index_html_of_the_web_root);
    tcase_add_test(http, test_static_files_get_their_mime_types);
    tcase_add_test(http, test_paths_outside_the_web_root_are_refused);
    tcase_add_test(http, test_missing_file_is_404);
    tcase_add_test(http, test_metrics_counts_open_websockets);
    suite_add_tcase(suite, http);

    TCase *ws = tcase_create("websocket");
    tcase_set_timeout(ws, 60);
    tcase_add_test(ws, test_text_messages_reach_the_lobby_and_its_replies_come_back);
    tcase_add_test(ws, test_empty_text_message_is_delivered);
    tcase_add_test(ws, test_fragmented_message_is_delivered_once);
    tcase_add_test(ws, test_message_of_exactly_16_KiB_is_accepted);
    tcase_add_test(ws, test_17_KiB_message_is_refused_and_the_connection_keeps_working);
    tcase_add_test(ws, test_too_large_fragmented_message_is_refused_once);
    tcase_add_test(ws, test_binary_frame_is_refused);
    tcase_add_test(ws, test_websocket_upgrade_only_on_ws_path);
    tcase_add_test(ws, test_abrupt_disconnect_leaves_no_connection_counted);
    suite_add_tcase(suite, ws);

    TCase *flow = tcase_create("flow");
    tcase_set_timeout(flow, 120);
    tcase_add_test(flow, test_slow_reader_is_dropped_and_others_are_served);
    tcase_add_test(flow, test_peer_that_ignores_pings_is_dropped);
    suite_add_tcase(suite, flow);

    TCase *shutdown = tcase_create("shutdown");
    tcase_set_timeout(shutdown, 60);
    tcase_add_test(shutdown, test_sigterm_closes_websockets_with_going_away_and_exits_0);
    tcase_add_test(shutdown, test_sigterm_with_a_peer_that_never_answers_still_exits_0);
    tcase_add_test(shutdown, test_sigint_without_connections_exits_0);
    suite_add_tcase(suite, shutdown);

    TCase *hostile = tcase_create("hostile_limits");
    tcase_set_timeout(hostile, 120);
    tcase_add_test(hostile, test_websocket_that_never_says_hello_is_closed_after_hello_seconds);
    tcase_add_test(hostile, test_one_address_holds_at_most_its_cap_and_others_still_get_in);
    tcase_add_test(hostile, test_idle_websockets_from_one_address_cannot_lock_others_out);
    tcase_add_test(hostile, test_behind_a_trusted_proxy_the_forwarded_client_is_counted);
    tcase_add_test(hostile, test_forwarded_headers_from_an_untrusted_peer_are_ignored);
    tcase_add_test(hostile,
                   test_when_descriptors_run_low_new_addresses_and_health_checks_still_get_in);
    suite_add_tcase(suite, hostile);

    TCase *web = tcase_create("hostile_web");
    tcase_set_timeout(web, 60);
    tcase_add_test(web, test_websocket_from_a_foreign_page_is_refused_with_403);
    tcase_add_test(web, test_symbolic_links_out_of_the_web_root_are_not_followed);
    tcase_add_test(web, test_metrics_live_on_the_operators_port_only);
    tcase_add_test(web, test_every_http_answer_carries_the_security_headers);
    tcase_add_test(web, test_text_that_is_not_utf8_closes_the_connection_with_1007);
    suite_add_tcase(suite, web);

    TCase *flags = tcase_create("flags");
    tcase_set_timeout(flags, 60);
    tcase_add_test(flags, test_help_lists_every_flag_and_exits_0);
    tcase_add_test(flags, test_version_prints_the_project_version);
    tcase_add_test(flags, test_bad_flags_exit_2_with_a_message);
    tcase_add_test(flags, test_missing_web_root_exits_1);
    tcase_add_test(flags, test_port_in_use_exits_1);
    suite_add_tcase(suite, flags);

    return suite;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s TEAHOUSE_BINARY WEB_CLIENT_DIR VERSION\n", argv[0]);
        return 2;
    }
    teahouse_binary = argv[1];
    repo_web_root = argv[2];
    project_version = argv[3];
    signal(SIGPIPE, SIG_IGN);

    SRunner *runner = srunner_create(net_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? 0 : 1;
}
