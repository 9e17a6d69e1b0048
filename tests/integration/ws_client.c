/*
 * ws_client — blocking RFC 6455 client for integration tests. See ws_client.h.
 *
 * Self-contained on purpose (its own SHA-1 and base64 for the handshake check) so a test links
 * nothing but libc. Received bytes collect in one growing buffer; frames are parsed from its
 * front and whole messages assembled in a second buffer.
 */
#include "ws_client.h"

#include "http_client.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define WS_GUID "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

struct ws_client {
    int fd;
    unsigned char *rx;     /* bytes received and not yet parsed */
    size_t rx_len, rx_cap;
    char *msg;             /* the message being assembled from fragments */
    size_t msg_len, msg_cap;
    int msg_opcode;        /* 0 when no message is in progress */
    bool auto_pong;
    bool sent_close;
    uint16_t close_code;
    char close_reason[128];  /* a control frame carries at most 123 bytes of reason */
    unsigned pings_seen;
};

/* ---- SHA-1 and base64, for Sec-WebSocket-Accept ------------------------------------------ */

static uint32_t rotl(uint32_t x, int n)
{
    return (x << n) | (x >> (32 - n));
}

static void sha1_block(uint32_t h[5], const unsigned char *block)
{
    uint32_t w[80];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 |
               (uint32_t)block[4 * i + 2] << 8 | block[4 * i + 3];
    for (int i = 16; i < 80; i++)
        w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; i++) {
        uint32_t f, k;
        if (i < 20) {
            f = (b & c) | (~b & d);
            k = 0x5A827999;
        } else if (i < 40) {
            f = b ^ c ^ d;
            k = 0x6ED9EBA1;
        } else if (i < 60) {
            f = (b & c) | (b & d) | (c & d);
            k = 0x8F1BBCDC;
        } else {
            f = b ^ c ^ d;
            k = 0xCA62C1D6;
        }
        uint32_t t = rotl(a, 5) + f + e + k + w[i];
        e = d;
        d = c;
        c = rotl(b, 30);
        b = a;
        a = t;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
}

static void sha1(const void *data, size_t len, unsigned char out[20])
{
    uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    const unsigned char *p = data;
    size_t full = len / 64 * 64;
    for (size_t i = 0; i < full; i += 64)
        sha1_block(h, p + i);

    unsigned char tail[128] = {0};
    size_t rest = len - full;
    memcpy(tail, p + full, rest);
    tail[rest] = 0x80;
    size_t tail_len = rest + 9 <= 64 ? 64 : 128;
    uint64_t bits = (uint64_t)len * 8;
    for (size_t i = 0; i < 8; i++)
        tail[tail_len - 1 - i] = (unsigned char)(bits >> (8 * i));
    for (size_t i = 0; i < tail_len; i += 64)
        sha1_block(h, tail + i);
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 4; j++)
            out[4 * i + j] = (unsigned char)(h[i] >> (24 - 8 * j));
}

static void base64(const unsigned char *in, size_t len, char *out)
{
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16;
        if (i + 1 < len)
            v |= (uint32_t)in[i + 1] << 8;
        if (i + 2 < len)
            v |= in[i + 2];
        out[o++] = alphabet[(v >> 18) & 63];
        out[o++] = alphabet[(v >> 12) & 63];
        out[o++] = i + 1 < len ? alphabet[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < len ? alphabet[v & 63] : '=';
    }
    out[o] = '\0';
}

/* ---- socket helpers ---------------------------------------------------------------------- */

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool send_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        len -= (size_t)n;
    }
    return true;
}

static bool grow(void *buf_ptr, size_t *cap, size_t needed)
{
    unsigned char **buf = buf_ptr;
    if (needed <= *cap)
        return true;
    size_t new_cap = *cap ? *cap : 4096;
    while (new_cap < needed)
        new_cap *= 2;
    unsigned char *grown = realloc(*buf, new_cap);
    if (!grown)
        return false;
    *buf = grown;
    *cap = new_cap;
    return true;
}

/* Reads whatever arrives before the deadline into rx: >0 bytes, 0 timeout, -1 error, -2 EOF. */
static int read_some(ws_client *client, long long deadline)
{
    int wait = (int)(deadline - now_ms());
    if (wait < 0)
        wait = 0;
    struct pollfd pfd = {.fd = client->fd, .events = POLLIN};
    int ready = poll(&pfd, 1, wait);
    if (ready < 0)
        return errno == EINTR ? 0 : -1;
    if (ready == 0)
        return 0;
    if (!grow(&client->rx, &client->rx_cap, client->rx_len + 65536))
        return -1;
    /* one byte kept spare so the handshake can NUL-terminate what it got */
    ssize_t n =
        recv(client->fd, client->rx + client->rx_len, client->rx_cap - client->rx_len - 1, 0);
    if (n == 0)
        return -2;
    if (n < 0)
        return errno == EINTR || errno == EAGAIN ? 0 : (errno == ECONNRESET ? -2 : -1);
    client->rx_len += (size_t)n;
    return (int)n;
}

/* ---- handshake --------------------------------------------------------------------------- */

static void random_bytes(unsigned char *out, size_t len)
{
    static unsigned seed;
    if (!seed)
        seed = (unsigned)now_ms() ^ (unsigned)getpid();
    for (size_t i = 0; i < len; i++)
        out[i] = (unsigned char)(rand_r(&seed) >> 7);
}

/* Finds a header's value (case-insensitive name) in the response head; copies it to out. */
static bool find_header(const char *head, const char *name, char *out, size_t cap)
{
    size_t name_len = strlen(name);
    for (const char *line = strstr(head, "\r\n"); line; line = strstr(line + 2, "\r\n")) {
        const char *start = line + 2;
        if (strncasecmp(start, name, name_len) == 0 && start[name_len] == ':') {
            const char *value = start + name_len + 1;
            while (*value == ' ')
                value++;
            const char *end = strstr(value, "\r\n");
            size_t len = end ? (size_t)(end - value) : strlen(value);
            if (len >= cap)
                return false;
            memcpy(out, value, len);
            out[len] = '\0';
            return true;
        }
    }
    return false;
}

static bool handshake(ws_client *client, const char *host, int port, const char *path,
                      const char *headers, int timeout_ms, char *error, size_t error_cap)
{
    unsigned char nonce[16];
    char key[32], request[4096];
    random_bytes(nonce, sizeof nonce);
    base64(nonce, sizeof nonce, key);
    int n = snprintf(request, sizeof request,
                     "GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\n"
                     "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                     "Sec-WebSocket-Version: 13\r\n%s\r\n",
                     path, host, port, key, headers ? headers : "");
    if (n < 0 || (size_t)n >= sizeof request) {
        snprintf(error, error_cap, "handshake headers too long");
        return false;
    }
    if (!send_all(client->fd, request, (size_t)n)) {
        snprintf(error, error_cap, "sending the handshake failed");
        return false;
    }

    long long deadline = now_ms() + timeout_ms;
    char *end = NULL;
    while (!end) {
        int got = read_some(client, deadline);
        if (got <= 0) {
            snprintf(error, error_cap, "no handshake answer (%s)",
                     got == 0 ? "timeout" : "connection closed");
            return false;
        }
        client->rx[client->rx_len] = '\0'; /* read_some always leaves spare room */
        end = strstr((char *)client->rx, "\r\n\r\n");
    }
    size_t head_len = (size_t)(end - (char *)client->rx) + 4;
    char head[4096];
    snprintf(head, sizeof head, "%.*s", (int)head_len, (char *)client->rx);
    if (strncmp(head, "HTTP/1.1 101", 12) != 0) {
        snprintf(error, error_cap, "upgrade refused: %.*s", (int)strcspn(head, "\r"), head);
        return false;
    }

    char accept[64], expected[64], joined[96];
    unsigned char digest[20];
    snprintf(joined, sizeof joined, "%s%s", key, WS_GUID);
    sha1(joined, strlen(joined), digest);
    base64(digest, sizeof digest, expected);
    if (!find_header(head, "Sec-WebSocket-Accept", accept, sizeof accept) ||
        strcmp(accept, expected) != 0) {
        snprintf(error, error_cap, "bad Sec-WebSocket-Accept");
        return false;
    }
    memmove(client->rx, client->rx + head_len, client->rx_len - head_len);
    client->rx_len -= head_len;
    return true;
}

ws_client *ws_client_connect(const char *host, int port, const char *path, int timeout_ms,
                             char *error, size_t error_cap)
{
    return ws_client_connect_with(host, port, path, NULL, timeout_ms, error, error_cap);
}

ws_client *ws_client_connect_with(const char *host, int port, const char *path,
                                  const ws_client_options *options, int timeout_ms, char *error,
                                  size_t error_cap)
{
    ws_client *client = calloc(1, sizeof *client);
    if (!client) {
        snprintf(error, error_cap, "out of memory");
        return NULL;
    }
    client->auto_pong = true;
    client->fd = http_connect_tcp(host, port, options ? options->source_address : NULL,
                                  timeout_ms);
    if (client->fd < 0) {
        snprintf(error, error_cap, "cannot connect to %s:%d: %s", host, port, strerror(errno));
        free(client);
        return NULL;
    }
    if (!handshake(client, host, port, path, options ? options->headers : NULL, timeout_ms, error,
                   error_cap)) {
        close(client->fd);
        free(client->rx);
        free(client);
        return NULL;
    }
    return client;
}

/* ---- frames ------------------------------------------------------------------------------ */

ws_client_result ws_client_send_frame(ws_client *client, int opcode, bool fin, const void *data,
                                      size_t len)
{
    unsigned char head[14];
    size_t head_len = 0;
    head[head_len++] = (unsigned char)((fin ? 0x80 : 0) | (opcode & 0x0F));
    if (len < 126) {
        head[head_len++] = (unsigned char)(0x80 | len);
    } else if (len <= 0xFFFF) {
        head[head_len++] = 0x80 | 126;
        head[head_len++] = (unsigned char)(len >> 8);
        head[head_len++] = (unsigned char)len;
    } else {
        head[head_len++] = 0x80 | 127;
        for (int i = 7; i >= 0; i--)
            head[head_len++] = (unsigned char)((uint64_t)len >> (8 * i));
    }
    unsigned char mask[4];
    random_bytes(mask, sizeof mask);
    memcpy(head + head_len, mask, 4);
    head_len += 4;

    unsigned char *frame = malloc(head_len + len);
    if (!frame)
        return WS_CLIENT_ERROR;
    memcpy(frame, head, head_len);
    const unsigned char *payload = data;
    for (size_t i = 0; i < len; i++)
        frame[head_len + i] = payload[i] ^ mask[i & 3];
    bool ok = send_all(client->fd, frame, head_len + len);
    free(frame);
    return ok ? WS_CLIENT_OK : WS_CLIENT_ERROR;
}

ws_client_result ws_client_send_text(ws_client *client, const char *text, size_t len)
{
    return ws_client_send_frame(client, WS_OP_TEXT, true, text, len);
}

/* One parsed frame, pointing into rx. */
typedef struct frame {
    bool fin;
    int opcode;
    const unsigned char *payload;
    size_t len;
    size_t total; /* header + payload bytes to consume */
} frame;

/* 1 if a whole frame is at the front of rx, 0 if more bytes are needed, -1 if it is invalid. */
static int parse_frame(const ws_client *client, frame *out)
{
    const unsigned char *p = client->rx;
    size_t have = client->rx_len;
    if (have < 2)
        return 0;
    if (p[1] & 0x80)
        return -1; /* a server must not mask */
    uint64_t len = p[1] & 0x7F;
    size_t head = 2;
    if (len == 126) {
        if (have < 4)
            return 0;
        len = (uint64_t)p[2] << 8 | p[3];
        head = 4;
    } else if (len == 127) {
        if (have < 10)
            return 0;
        len = 0;
        for (int i = 0; i < 8; i++)
            len = len << 8 | p[2 + i];
        head = 10;
    }
    if (len > (uint64_t)64 * 1024 * 1024)
        return -1;
    if (have < head + len)
        return 0;
    out->fin = p[0] & 0x80;
    out->opcode = p[0] & 0x0F;
    out->payload = p + head;
    out->len = (size_t)len;
    out->total = head + (size_t)len;
    return 1;
}

static void consume(ws_client *client, size_t n)
{
    memmove(client->rx, client->rx + n, client->rx_len - n);
    client->rx_len -= n;
}

/* Handles a control frame; returns WS_CLIENT_CLOSED for close, WS_CLIENT_OK otherwise. */
static ws_client_result handle_control(ws_client *client, const frame *f)
{
    if (f->opcode == WS_OP_PING) {
        client->pings_seen++;
        if (client->auto_pong)
            ws_client_send_frame(client, WS_OP_PONG, true, f->payload, f->len);
        return WS_CLIENT_OK;
    }
    if (f->opcode == WS_OP_CLOSE) {
        client->close_code = f->len >= 2 ? (uint16_t)(f->payload[0] << 8 | f->payload[1]) : 0;
        size_t reason_len = f->len > 2 ? f->len - 2 : 0;
        if (reason_len >= sizeof client->close_reason)
            reason_len = sizeof client->close_reason - 1;
        memcpy(client->close_reason, f->payload + 2, reason_len);
        client->close_reason[reason_len] = '\0';
        if (!client->sent_close) {
            client->sent_close = true;
            ws_client_send_frame(client, WS_OP_CLOSE, true, f->payload, f->len >= 2 ? 2 : 0);
        }
        return WS_CLIENT_CLOSED;
    }
    return WS_CLIENT_OK; /* unsolicited pong */
}

/* Adds a data frame to the message in progress; 1 when the message is complete. */
static int add_data_frame(ws_client *client, const frame *f)
{
    if (f->opcode != WS_OP_CONTINUATION) {
        if (client->msg_opcode)
            return -1; /* a new message before the last one ended */
        client->msg_opcode = f->opcode;
        client->msg_len = 0;
    } else if (!client->msg_opcode) {
        return -1;
    }
    if (!grow(&client->msg, &client->msg_cap, client->msg_len + f->len + 1))
        return -1;
    memcpy(client->msg + client->msg_len, f->payload, f->len);
    client->msg_len += f->len;
    client->msg[client->msg_len] = '\0';
    return f->fin ? 1 : 0;
}

ws_client_result ws_client_recv(ws_client *client, ws_message *message, int timeout_ms)
{
    long long deadline = now_ms() + timeout_ms;
    for (;;) {
        frame f;
        int parsed = parse_frame(client, &f);
        if (parsed < 0)
            return WS_CLIENT_ERROR;
        if (parsed == 0) {
            int got = read_some(client, deadline);
            if (got == 0 && now_ms() >= deadline)
                return WS_CLIENT_TIMEOUT;
            if (got == -2)
                return WS_CLIENT_EOF;
            if (got < 0)
                return WS_CLIENT_ERROR;
            continue;
        }
        if (f.opcode >= 0x8) {
            ws_client_result r = handle_control(client, &f);
            consume(client, f.total);
            if (r != WS_CLIENT_OK)
                return r;
            continue;
        }
        int complete = add_data_frame(client, &f);
        consume(client, f.total);
        if (complete < 0)
            return WS_CLIENT_ERROR;
        if (complete) {
            message->opcode = client->msg_opcode;
            message->data = client->msg ? client->msg : "";
            message->len = client->msg_len;
            client->msg_opcode = 0;
            return WS_CLIENT_OK;
        }
    }
}

uint16_t ws_client_close_code(const ws_client *client)
{
    return client->close_code;
}

const char *ws_client_close_reason(const ws_client *client)
{
    return client->close_reason;
}

unsigned ws_client_pings_seen(const ws_client *client)
{
    return client->pings_seen;
}

void ws_client_set_auto_pong(ws_client *client, bool on)
{
    client->auto_pong = on;
}

int ws_client_fd(const ws_client *client)
{
    return client->fd;
}

static void free_client(ws_client *client)
{
    close(client->fd);
    free(client->rx);
    free(client->msg);
    free(client);
}

ws_client_result ws_client_close(ws_client *client, uint16_t code, int timeout_ms)
{
    ws_client_result result = WS_CLIENT_OK;
    if (!client->sent_close) {
        unsigned char payload[2] = {(unsigned char)(code >> 8), (unsigned char)code};
        client->sent_close = true;
        if (ws_client_send_frame(client, WS_OP_CLOSE, true, payload, 2) != WS_CLIENT_OK) {
            free_client(client);
            return WS_CLIENT_ERROR;
        }
        /* Skip any messages still in flight until the server's close arrives. */
        ws_message ignored;
        do
            result = ws_client_recv(client, &ignored, timeout_ms);
        while (result == WS_CLIENT_OK);
        result = result == WS_CLIENT_CLOSED ? WS_CLIENT_OK : result;
    }
    free_client(client);
    return result;
}

void ws_client_abort(ws_client *client)
{
    struct linger hard = {.l_onoff = 1, .l_linger = 0};
    setsockopt(client->fd, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
    free_client(client);
}
