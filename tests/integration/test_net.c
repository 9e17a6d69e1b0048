/*
 * Integration tests of the network layer against the real teahouse binary: static files,
 * /healthz, /metrics, WebSocket messages and their limits, keepalive, slow readers, shutdown
 * and the command line. Each test starts its own server on a free port.
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
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    ck_assert(http_get(server->host, server->port, "/metrics", TIMEOUT_MS, &response));
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
    ck_assert(http_get(server.host, server.port, "/metrics", TIMEOUT_MS, &response));
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

/* The client (after hello) opens a private table, gives up the seat it is given, seats four
 * bots and starts. From then on the bots play hand after hand and every move is an event for
 * the table's only member: the client. */
static void start_bot_table(ws_client *client)
{
    static const char create[] =
        "{\"type\":\"create_table\",\"id\":1,\"game\":\"tiengow\",\"public\":false}";
    json_t *snapshot = request(client, create, 1);
    ck_assert_str_eq(type_of(snapshot), "snapshot");
    const char *table = json_string_value(json_object_get(snapshot, "table"));
    ck_assert_msg(table && strlen(table) == 6, "no table code");
    char code[8], text[128];
    snprintf(code, sizeof code, "%s", table);
    json_decref(snapshot);

    snprintf(text, sizeof text, "{\"type\":\"leave_seat\",\"id\":2,\"code\":\"%s\"}", code);
    expect_ok(request(client, text, 2));
    for (int seat = 0; seat < 4; seat++) {
        snprintf(text, sizeof text, "{\"type\":\"add_bot\",\"id\":%d,\"code\":\"%s\",\"seat\":%d}",
                 3 + seat, code, seat);
        expect_ok(request(client, text, 3 + seat));
    }
    snprintf(text, sizeof text, "{\"type\":\"start\",\"id\":7,\"code\":\"%s\"}", code);
    expect_ok(request(client, text, 7));
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
    /* A small receive buffer, so our kernel holds little of what the slow client leaves unread.
     * Not smaller than a loopback segment (64 KiB): below that the kernel drops the server's
     * segments, and the end of the connection can then never reach us. */
    int rcvbuf = 64 * 1024;
    ck_assert_int_eq(setsockopt(ws_client_fd(slow), SOL_SOCKET, SO_RCVBUF, &rcvbuf,
                                sizeof rcvbuf),
                     0);
    start_bot_table(slow);

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
    static const char *const flags[] = {"--port",         "--bind",         "--web-root",
                                        "--db",           "--log-level",    "--turn-seconds",
                                        "--reconnect-seconds", "--help",    "--version"};
    char output[8192];
    const char *args[] = {"--help", NULL};
    int status = run_binary(args, output, sizeof output);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        ck_assert_msg(strstr(output, flags[i]) != NULL, "--help does not mention %s", flags[i]);
    /* the defaults the brief asks for */
    ck_assert(strstr(output, "8080") != NULL);
    ck_assert(strstr(output, "0.0.0.0") != NULL);
    ck_assert(strstr(output, "teahouse.db") != NULL);
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
    ck_assert_msg(strstr(output, "cannot listen") != NULL, "output: %s", output);
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
