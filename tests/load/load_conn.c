/*
 * load_conn — non-blocking WebSocket client connections on libuv. See load_conn.h.
 */
#include "load_conn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOAD_READ_BUFFER (256 * 1024)
#define LOAD_STACK_FRAME 4096

typedef struct queued_write {
    uv_write_t req;
    unsigned char bytes[];
} queued_write;

/* xorshift64*: masking keys and handshake nonces need to vary, not to be secret. */
static uint64_t next_random(load_net *net)
{
    net->rng ^= net->rng >> 12;
    net->rng ^= net->rng << 25;
    net->rng ^= net->rng >> 27;
    return net->rng * 2685821657736338717ull;
}

bool load_net_init(load_net *net, uv_loop_t *loop, const char *host, int port)
{
    memset(net, 0, sizeof *net);
    net->loop = loop;
    net->port = port;
    snprintf(net->host, sizeof net->host, "%s", host);
    if (uv_ip4_addr(host, port, (struct sockaddr_in *)&net->addr) != 0 &&
        uv_ip6_addr(host, port, (struct sockaddr_in6 *)&net->addr) != 0)
        return false;
    net->read_buffer_size = LOAD_READ_BUFFER;
    net->read_buffer = malloc(net->read_buffer_size);
    net->rng = uv_hrtime() | 1;
    return net->read_buffer != NULL;
}

void load_net_free(load_net *net)
{
    free(net->read_buffer);
    net->read_buffer = NULL;
}

/* ---- ending ------------------------------------------------------------------------------ */

static void on_handle_closed(uv_handle_t *handle)
{
    load_conn *c = handle->data;
    free(c->pending);
    c->pending = NULL;
    c->pending_len = 0;
    wsc_decoder_free(&c->decoder);
    c->handlers->on_closed(c, c->close_why);
}

/* The one way a connection ends: its handle is closed and on_closed follows from the close
 * callback, when libuv no longer needs the memory. */
static void finish(load_conn *c, const char *why)
{
    if (c->state == LOAD_CONN_CLOSED)
        return;
    c->state = LOAD_CONN_CLOSED;
    c->close_why = why;
    uv_close((uv_handle_t *)&c->tcp, on_handle_closed);
}

void load_conn_abort(load_conn *conn, const char *why)
{
    finish(conn, why);
}

/* ---- writing ----------------------------------------------------------------------------- */

static void on_write_done(uv_write_t *req, int status)
{
    load_conn *c = req->handle->data;
    free(req);
    if (status < 0 && status != UV_ECANCELED)
        finish(c, "write failed");
}

/* Writes now if the socket takes it, else queues a copy of what is left. libuv's try_write
 * refuses while writes are queued, so the order of frames is kept. */
static bool write_bytes(load_conn *c, const unsigned char *data, size_t len)
{
    uv_buf_t buf = uv_buf_init((char *)data, (unsigned)len);
    int n = uv_try_write((uv_stream_t *)&c->tcp, &buf, 1);
    if (n >= 0 && (size_t)n == len)
        return true;
    if (n < 0 && n != UV_EAGAIN) {
        finish(c, "write failed");
        return false;
    }
    size_t done = n > 0 ? (size_t)n : 0;
    queued_write *w = malloc(sizeof *w + len - done);
    if (w == NULL) {
        finish(c, "out of memory");
        return false;
    }
    memcpy(w->bytes, data + done, len - done);
    buf = uv_buf_init((char *)w->bytes, (unsigned)(len - done));
    if (uv_write(&w->req, (uv_stream_t *)&c->tcp, &buf, 1, on_write_done) != 0) {
        free(w);
        finish(c, "write failed");
        return false;
    }
    return true;
}

static bool send_frame(load_conn *c, int opcode, const void *payload, size_t len)
{
    unsigned char stack[LOAD_STACK_FRAME];
    unsigned char *frame = len + WSC_MAX_HEADER <= sizeof stack ? stack : malloc(len + WSC_MAX_HEADER);
    if (frame == NULL) {
        finish(c, "out of memory");
        return false;
    }
    size_t n = wsc_encode(frame, opcode, payload, len, (uint32_t)next_random(c->net));
    bool ok = write_bytes(c, frame, n);
    if (frame != stack)
        free(frame);
    if (ok) {
        c->net->bytes_out += n;
        c->net->frames_out++;
    }
    return ok;
}

bool load_conn_send_text(load_conn *conn, const char *text, size_t len)
{
    if (conn->state != LOAD_CONN_OPEN)
        return false;
    return send_frame(conn, WSC_OP_TEXT, text, len);
}

void load_conn_close(load_conn *conn, uint16_t code)
{
    if (conn->state == LOAD_CONN_OPEN) {
        unsigned char payload[2] = {(unsigned char)(code >> 8), (unsigned char)code};
        conn->close_sent = true;
        conn->state = LOAD_CONN_CLOSING;
        send_frame(conn, WSC_OP_CLOSE, payload, sizeof payload);
    } else if (conn->state != LOAD_CONN_CLOSING) {
        finish(conn, "closed before it opened");
    }
}

/* ---- reading ----------------------------------------------------------------------------- */

/* Handles the server's close frame: answer it (once) and wait for the server to hang up. */
static void on_close_frame(load_conn *c, const wsc_output *out)
{
    if (!c->close_sent) {
        unsigned char payload[2] = {(unsigned char)(out->close_code >> 8),
                                    (unsigned char)out->close_code};
        c->close_sent = true;
        send_frame(c, WSC_OP_CLOSE, payload, out->close_code == 1005 ? 0 : sizeof payload);
    }
    if (c->state == LOAD_CONN_OPEN)
        c->state = LOAD_CONN_CLOSING;
    c->close_why = "closed by the server";
}

/* Consumes the handshake answer and then frames; returns how many bytes were used. */
static size_t process(load_conn *c, const unsigned char *data, size_t len)
{
    size_t off = 0;
    if (c->state == LOAD_CONN_HANDSHAKE) {
        size_t head = 0;
        switch (wsc_handshake_check((const char *)data, len, c->key, &head)) {
        case WSC_HANDSHAKE_INCOMPLETE:
            return 0;
        case WSC_HANDSHAKE_REFUSED:
            finish(c, "handshake refused");
            return len;
        case WSC_HANDSHAKE_OK:
            off = head;
            c->state = LOAD_CONN_OPEN;
            c->handlers->on_open(c);
            break;
        }
    }
    while (off < len && (c->state == LOAD_CONN_OPEN || c->state == LOAD_CONN_CLOSING)) {
        size_t used = 0;
        wsc_output out;
        wsc_result r = wsc_decode(&c->decoder, data + off, len - off, &used, &out);
        off += used;
        switch (r) {
        case WSC_NEED_MORE:
            return off;
        case WSC_MESSAGE:
            if (c->state == LOAD_CONN_OPEN && out.opcode == WSC_OP_TEXT)
                c->handlers->on_message(c, (const char *)out.data, out.len);
            break;
        case WSC_PING:
            c->pings++;
            if (c->state == LOAD_CONN_OPEN)
                send_frame(c, WSC_OP_PONG, out.data, out.len);
            break;
        case WSC_CLOSE:
            on_close_frame(c, &out);
            break;
        case WSC_ERROR:
            finish(c, out.error);
            return len;
        }
    }
    return off;
}

static void on_alloc(uv_handle_t *handle, size_t suggested, uv_buf_t *buf)
{
    (void)suggested;
    load_conn *c = handle->data;
    *buf = uv_buf_init((char *)c->net->read_buffer, (unsigned)c->net->read_buffer_size);
}

/* Keeps the unused tail of this read for the next one. */
static void keep_tail(load_conn *c, const unsigned char *data, size_t len, size_t used)
{
    size_t rest = len - used;
    if (data == c->pending) {
        if (rest == 0) {
            free(c->pending);
            c->pending = NULL;
        } else if (used > 0) {
            memmove(c->pending, c->pending + used, rest);
        }
        c->pending_len = rest;
        return;
    }
    if (rest == 0)
        return;
    c->pending = malloc(rest);
    if (c->pending == NULL) {
        finish(c, "out of memory");
        return;
    }
    memcpy(c->pending, data + used, rest);
    c->pending_len = rest;
}

static void on_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf)
{
    load_conn *c = stream->data;
    if (nread == 0 || c->state == LOAD_CONN_CLOSED)
        return;
    if (nread < 0) {
        finish(c, nread == UV_EOF ? (c->state == LOAD_CONN_CLOSING ? c->close_why
                                                                   : "server hung up")
                                  : uv_strerror((int)nread));
        return;
    }
    c->net->bytes_in += (uint64_t)nread;
    const unsigned char *data = (const unsigned char *)buf->base;
    size_t len = (size_t)nread;
    if (c->pending_len > 0) { /* a frame cut by the last read: join the two */
        unsigned char *grown = realloc(c->pending, c->pending_len + len);
        if (grown == NULL) {
            finish(c, "out of memory");
            return;
        }
        memcpy(grown + c->pending_len, data, len);
        c->pending = grown;
        c->pending_len += len;
        data = grown;
        len = c->pending_len;
    }
    size_t used = process(c, data, len);
    if (c->state != LOAD_CONN_CLOSED)
        keep_tail(c, data, len, used);
}

/* ---- connecting -------------------------------------------------------------------------- */

static void on_connect(uv_connect_t *req, int status)
{
    load_conn *c = req->data;
    if (status == UV_ECANCELED || c->state == LOAD_CONN_CLOSED)
        return;
    if (status < 0) {
        finish(c, uv_strerror(status));
        return;
    }
    uv_tcp_nodelay(&c->tcp, 1); /* one small frame per move: never wait to coalesce */
    unsigned char nonce[16];
    uint64_t r1 = next_random(c->net), r2 = next_random(c->net);
    memcpy(nonce, &r1, 8);
    memcpy(nonce + 8, &r2, 8);
    wsc_make_key(nonce, c->key);
    char request[512];
    size_t n = wsc_handshake_request(request, sizeof request, c->net->host, c->net->port, "/ws",
                                     c->key);
    c->state = LOAD_CONN_HANDSHAKE;
    if (uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read) != 0) {
        finish(c, "cannot read");
        return;
    }
    write_bytes(c, (const unsigned char *)request, n);
}

void load_net_spread(load_net *net, int n, int octet)
{
    net->n_sources = n > 0 ? n : 0;
    net->source_octet = octet;
}

void load_conn_start(load_net *net, load_conn *conn, const load_conn_handlers *handlers,
                     void *user)
{
    memset(conn, 0, sizeof *conn);
    conn->net = net;
    conn->handlers = handlers;
    conn->user = user;
    conn->state = LOAD_CONN_CONNECTING;
    uv_tcp_init(net->loop, &conn->tcp);
    conn->tcp.data = conn;
    conn->connect_req.data = conn;
    if (net->n_sources > 0) {
        int i = (int)(net->started++ % (uint64_t)net->n_sources);
        char source[32];
        snprintf(source, sizeof source, "127.%d.%d.%d", 1 + i / 250, i % 250 + 1, net->source_octet);
        struct sockaddr_in from;
        uv_ip4_addr(source, 0, &from);
        int bound = uv_tcp_bind(&conn->tcp, (const struct sockaddr *)&from, 0);
        if (bound != 0) {
            finish(conn, uv_strerror(bound));
            return;
        }
    }
    int rc = uv_tcp_connect(&conn->connect_req, &conn->tcp, (const struct sockaddr *)&net->addr,
                            on_connect);
    if (rc != 0)
        finish(conn, uv_strerror(rc));
}
