/*
 * net — HTTP and WebSocket on the server's libuv loop, built on libwebsockets 4.1 with a
 * foreign loop. See net.h for the contract; this file is organised as:
 *
 *   1. connections: the outgoing queue, closing and dropping, keepalive
 *   2. incoming WebSocket messages: joining fragments, refusing big or binary ones, UTF-8
 *   3. admission: sockets per client address (peers.h), proxies, the WebSocket upgrade
 *   4. HTTP: /healthz, /metrics and the static files
 *   5. the lws protocol callback that routes every event to the above
 *   6. timers: loop lag, keepalive and hello sweep, shutdown drain
 *   7. start, stop, destroy
 *
 * One lws context holds two vhosts: the game port and the operator's port (/metrics). Every
 * HTTP request reaches our callback (there are no lws mounts), so one function decides what
 * each port serves; static files go out through lws_serve_http_file() once their real path has
 * been checked.
 *
 * Memory per idle connection is what lws needs (its wsi, the uv poll handle, one rx buffer of
 * NET_RX_CHUNK bytes) plus struct net_conn; incoming and outgoing buffers exist only while a
 * message is in flight.
 *
 * Keepalive is ours, not lws's "validity" timers: lws keeps its timers in one sorted linked
 * list, so with tens of thousands of sockets each re-arm walks the whole list. One sweep timer
 * over our own connection list costs a few microseconds per thousand connections instead.
 */
#include "net.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <uv.h> /* before libwebsockets.h, so lws builds its libuv glue */

#include <libwebsockets.h>

#include "log.h"
#include "metrics.h"
#include "net_http.h"
#include "peers.h"
#include "text.h"

#define NET_PROTOCOL_NAME "teahouse"
#define NET_METRICS_VHOST "teahouse-metrics"
#define NET_WS_PATH "/ws"
#define NET_RX_CHUNK 2048             /* lws rx buffer: messages arrive in pieces this big */
#define NET_METRICS_CAP (64 * 1024)   /* room for the /metrics text */
#define NET_LAG_INTERVAL_MS 500       /* loop-lag probe period */
#define NET_DEFAULT_PING_SECONDS 30
#define NET_DEFAULT_HELLO_SECONDS 10
#define NET_REFUSAL_LOG_MS 10000      /* at most one warning this often about refused sockets */
#define NET_FORWARDED_CAP 2048        /* the longest X-Forwarded-For we read */
#define NET_DRAIN_MS 2000             /* net_stop waits this long for close handshakes */
#define NET_CLOSE_GRACE_SECONDS 5     /* net_close: time for the queue and close frame to go */

/* lws frames a close with this write type; its public header leaves it out ("handled by
 * lws_close_reason") but lib/roles/ws/private-lib-roles-ws.h has defined it as 4 from 4.0
 * through 4.3. See write_close_frame() for why we write the frame ourselves. */
#define NET_LWS_WRITE_CLOSE ((enum lws_write_protocol)4)

/* ---- types ------------------------------------------------------------------------------- */

/* One queued outgoing text message, with lws's header room in front of the text. */
typedef struct net_out_msg {
    struct net_out_msg *next;
    size_t len;
    unsigned char bytes[]; /* LWS_PRE bytes of headroom, then len bytes of text */
} net_out_msg;

typedef enum net_rx_state {
    NET_RX_IDLE,       /* between messages */
    NET_RX_COLLECTING, /* joining the fragments of a text message */
    NET_RX_DISCARDING, /* the current message was refused; skip to its last fragment */
} net_rx_state;

struct net_conn {
    net_server *server;     /* NULL until established and again once closed */
    struct lws *wsi;
    net_conn *prev, *next;  /* the server's list of open connections */
    void *data;             /* the application's pointer */

    net_out_msg *out_head, *out_tail;
    size_t out_bytes;

    char *rx_buf;           /* the message being joined; NULL between messages */
    size_t rx_len, rx_cap;
    net_rx_state rx_state;

    uint64_t opened_ms;     /* loop time it was established */
    uint64_t last_heard_ms; /* loop time of the last bytes received */
    bool identified;        /* the application knows who it is (net_conn_identified) */
    bool ping_due;          /* the next WRITEABLE sends a ping */
    bool ping_sent;         /* a ping is out and nothing was heard since */
    bool closing;           /* no more sends; close frame once the queue is empty */
    bool close_sent;        /* the close frame has been handed to lws */
    uint64_t close_deadline_ms; /* net_close: drop if the close has not finished by then */
    bool dropped;           /* being killed without a close handshake */
    uint16_t close_status;
    char close_reason[64];
    char peer[PEERS_ADDR_TEXT];
};

/* One accepted socket of the game port and whom it counts against; lws keeps it as the wsi's
 * opaque user data from accept to WSI_DESTROY, across the upgrade to WebSocket. */
typedef struct net_socket {
    struct lws *wsi;            /* its own wsi: a pointer copied to another wsi is not ours */
    peers_entry *entry;         /* its count; NULL while it counts against nobody */
    peers_addr peer;            /* the peer's address */
    bool via_proxy;             /* the peer is a trusted proxy */
    char client[PEERS_ADDR_TEXT]; /* the client's address as text (the proxy's word for it) */
} net_socket;

/* lws's per-connection user data, for HTTP and WebSocket connections alike. */
typedef struct net_session {
    unsigned char *http_body; /* LWS_PRE + http_body_len bytes waiting for HTTP_WRITEABLE */
    size_t http_body_len;
    net_request *request;     /* an application route's request (net_http.c), or NULL */
    net_conn conn;            /* used once the connection is a WebSocket */
} net_session;

struct net_server {
    uv_loop_t *loop;
    struct lws_context *context;
    struct lws_vhost *game_vhost;
    struct lws_vhost *metrics_vhost; /* NULL when there is no operator's port */
    net_handlers handlers;
    metrics metrics;
    peers *peers;
    net_routes *routes;

    net_conn *conns;
    size_t conn_count;

    int port;
    int metrics_port;
    uint64_t ping_ms, hangup_ms, hello_ms;
    uint64_t refusal_logged_ms; /* when a refused socket was last worth a warning */
    char **allowed_origins;
    size_t n_allowed_origins;
    bool stopping;
    bool teardown_started;    /* the first lws_context_destroy() has run */

    uv_timer_t lag_timer;
    uint64_t lag_last_ns;
    uv_timer_t keepalive_timer;
    uv_timer_t drain_timer;

    /* Everything lws keeps pointers to lives here, as long as the context. */
    char web_root[PATH_MAX];   /* its real path, symbolic links resolved */
    char iface[INET6_ADDRSTRLEN];
    char metrics_iface[INET6_ADDRSTRLEN];
    struct lws_protocols protocols[2];
    struct lws_http_mount mime_mount; /* only to hand our types to lws_get_mimetype() */
    struct lws_protocol_vhost_options mimetypes[10];
    struct lws_protocol_vhost_options extra_headers[3];
    lws_retry_bo_t idle_policy;
};

static const char error_too_large[] =
    "{\"type\":\"error\",\"code\":\"too_large\",\"message\":\"a message may be at most 16384 "
    "bytes\"}";
static const char error_binary[] =
    "{\"type\":\"error\",\"code\":\"binary_not_supported\",\"message\":\"send JSON as text "
    "frames; binary frames are not accepted\"}";

_Static_assert(NET_MAX_MESSAGE == 16384, "error_too_large names the limit");

/* ---- 1. connections ---------------------------------------------------------------------- */

static void free_queue(net_conn *conn)
{
    net_out_msg *msg = conn->out_head;
    while (msg) {
        net_out_msg *next = msg->next;
        free(msg);
        msg = next;
    }
    conn->out_head = conn->out_tail = NULL;
    conn->out_bytes = 0;
}

/*
 * Kills a connection without a close handshake: its peer is not reading or not answering.
 * Shutting the socket down makes lws find a dead socket on its next poll and close the
 * connection from its own event, so on_close never runs inside our caller (often the
 * application itself). lws_set_timeout(LWS_TO_KILL_ASYNC) would do the same through lws's
 * timer list, whose sorted insertion costs O(open connections) each: dropping ten thousand
 * silent peers at once stalled the loop for a second that way.
 */
static void drop_connection(net_conn *conn, const char *why)
{
    if (conn->dropped)
        return;
    conn->dropped = true;
    conn->closing = true;
    free_queue(conn);
    log_info("net: dropping %s: %s", conn->peer, why);
    lws_sockfd_type fd = lws_get_socket_fd(conn->wsi);
    if (fd >= 0)
        shutdown(fd, SHUT_RDWR);
}

/* Copies a close reason, cut short if need be on a UTF-8 character boundary: a close frame
 * with broken UTF-8 makes browsers report a protocol error instead of our reason. */
static void copy_close_reason(char *out, size_t cap, const char *reason)
{
    size_t len = strlen(reason);
    if (len >= cap) {
        len = cap - 1;
        while (len > 0 && ((unsigned char)reason[len] & 0xC0) == 0x80)
            len--; /* reason[len] would continue a character we cannot finish */
    }
    memcpy(out, reason, len);
    out[len] = '\0';
}

/* Starts an orderly close: queued messages still go out, then a close frame. */
static void begin_close(net_conn *conn, uint16_t status, const char *reason, bool with_deadline)
{
    if (conn->closing)
        return;
    conn->closing = true;
    conn->close_status = status;
    copy_close_reason(conn->close_reason, sizeof conn->close_reason, reason ? reason : "");
    lws_callback_on_writable(conn->wsi);
    /* A peer that never drains its socket would otherwise hold the close open forever; the
     * keepalive sweep enforces the deadline (net_stop has its own drain instead). */
    if (with_deadline)
        conn->close_deadline_ms = uv_now(conn->server->loop) + NET_CLOSE_GRACE_SECONDS * 1000u;
}

/* Appends to the outgoing queue; a full queue means a slow reader, which is dropped. */
static bool enqueue(net_conn *conn, const char *text, size_t len)
{
    if (len > NET_MAX_QUEUED_BYTES - conn->out_bytes) {
        conn->server->metrics.slow_readers_dropped++;
        drop_connection(conn, "outgoing queue full (slow reader)");
        return false;
    }
    net_out_msg *msg = malloc(sizeof *msg + LWS_PRE + len);
    if (!msg) {
        drop_connection(conn, "out of memory");
        return false;
    }
    msg->next = NULL;
    msg->len = len;
    memcpy(msg->bytes + LWS_PRE, text, len);
    if (conn->out_tail)
        conn->out_tail->next = msg;
    else
        conn->out_head = msg;
    conn->out_tail = msg;
    conn->out_bytes += len;
    lws_callback_on_writable(conn->wsi);
    return true;
}

bool net_send(net_conn *conn, const char *text, size_t len)
{
    if (conn->closing || conn->dropped)
        return false;
    return enqueue(conn, text, len);
}

void net_close(net_conn *conn, const char *reason)
{
    begin_close(conn, LWS_CLOSE_STATUS_NORMAL, reason, true);
}

void net_conn_identified(net_conn *conn)
{
    if (conn)
        conn->identified = true;
}

void net_conn_set_data(net_conn *conn, void *data)
{
    conn->data = data;
}

void *net_conn_data(const net_conn *conn)
{
    return conn->data;
}

const char *net_conn_peer(const net_conn *conn)
{
    return conn->peer;
}

size_t net_connection_count(const net_server *server)
{
    return server->conn_count;
}

bool net_route_add(net_server *server, const net_route *route)
{
    return net_routes_add(server->routes, route);
}

int net_port(const net_server *server)
{
    return server->port;
}

int net_metrics_port(const net_server *server)
{
    return server->metrics_port;
}

/*
 * Writes our close frame (status, reason) as an ordinary lws_write. lws's own route — set
 * lws_close_reason() and return -1 — is avoided for two reasons: Debian's lws 4.1.6 is a debug
 * build whose libuv path then closes a second time and cuts the socket before the frame goes
 * out, and lws would arm a close timer per connection, each insertion walking its sorted timer
 * list (seconds of CPU when thousands close at once). The peer's answering close arrives as
 * LWS_CALLBACK_WS_PEER_INITIATED_CLOSE, where we hang up; a peer that never answers is cut by
 * net_close's deadline or by net_stop's drain.
 */
static int write_close_frame(net_conn *conn)
{
    unsigned char frame[LWS_PRE + 2 + sizeof conn->close_reason];
    unsigned char *payload = frame + LWS_PRE;
    size_t reason_len = strlen(conn->close_reason);

    payload[0] = (unsigned char)(conn->close_status >> 8);
    payload[1] = (unsigned char)(conn->close_status & 0xff);
    memcpy(payload + 2, conn->close_reason, reason_len);
    conn->close_sent = true;
    if (lws_write(conn->wsi, payload, 2 + reason_len, NET_LWS_WRITE_CLOSE) < 0)
        return -1;
    return 0;
}

/* Exactly one lws_write per WRITEABLE callback: a pending ping first, then the oldest queued
 * message, and once the queue is empty the close frame if a close was asked for. */
static int on_ws_writeable(net_conn *conn)
{
    struct lws *wsi = conn->wsi;

    if (conn->dropped)
        return -1;
    if (conn->ping_due) {
        /* Not empty: lws 4.1 does not report an empty pong to the protocol callback. */
        unsigned char ping[LWS_PRE + 4] = {0};
        memcpy(ping + LWS_PRE, "tea?", 4);
        conn->ping_due = false;
        if (lws_write(wsi, ping + LWS_PRE, 4, LWS_WRITE_PING) < 0)
            return -1;
        if (conn->out_head || conn->closing)
            lws_callback_on_writable(wsi);
        return 0;
    }
    net_out_msg *msg = conn->out_head;
    if (msg) {
        int written = lws_write(wsi, msg->bytes + LWS_PRE, msg->len, LWS_WRITE_TEXT);
        if (written < 0 || (size_t)written < msg->len)
            return -1;
        conn->server->metrics.messages_out++;
        conn->server->metrics.bytes_out += msg->len;
        conn->out_head = msg->next;
        if (!conn->out_head)
            conn->out_tail = NULL;
        conn->out_bytes -= msg->len;
        free(msg);
        if (conn->out_head || conn->closing)
            lws_callback_on_writable(wsi);
        return 0;
    }
    if (conn->closing && !conn->close_sent)
        return write_close_frame(conn);
    return 0;
}

static net_socket *socket_of(struct lws *wsi);

static void on_ws_established(net_server *server, struct lws *wsi, net_session *session)
{
    net_conn *conn = &session->conn;
    const net_socket *sock = socket_of(wsi);

    memset(conn, 0, sizeof *conn);
    conn->server = server;
    conn->wsi = wsi;
    conn->opened_ms = conn->last_heard_ms = uv_now(server->loop);
    if (sock)
        snprintf(conn->peer, sizeof conn->peer, "%s", sock->client);
    else if (!lws_get_peer_simple(wsi, conn->peer, sizeof conn->peer))
        snprintf(conn->peer, sizeof conn->peer, "unknown");

    conn->next = server->conns;
    if (server->conns)
        server->conns->prev = conn;
    server->conns = conn;
    server->conn_count++;
    server->metrics.connections_opened++;
    log_debug("net: websocket open from %s (%zu open)", conn->peer, server->conn_count);

    if (server->handlers.on_open)
        server->handlers.on_open(server->handlers.ctx, conn);
}

static void start_teardown_soon(net_server *server);

/* The connection is gone: tell the application, then free what it held. */
static void on_ws_closed(net_conn *conn)
{
    net_server *server = conn->server;
    if (!server)
        return; /* never established, or already handled */

    conn->closing = true; /* net_send from inside on_close must not queue */
    if (conn->prev)
        conn->prev->next = conn->next;
    else
        server->conns = conn->next;
    if (conn->next)
        conn->next->prev = conn->prev;
    server->conn_count--;
    log_debug("net: websocket from %s closed (%zu open)", conn->peer, server->conn_count);

    if (server->handlers.on_close)
        server->handlers.on_close(server->handlers.ctx, conn);

    free_queue(conn);
    free(conn->rx_buf);
    conn->rx_buf = NULL;
    conn->server = NULL;

    if (server->stopping && server->conn_count == 0)
        start_teardown_soon(server);
}

/* ---- 2. incoming messages ---------------------------------------------------------------- */

static void refuse_message(net_conn *conn, bool too_large)
{
    net_server *server = conn->server;

    free(conn->rx_buf);
    conn->rx_buf = NULL;
    conn->rx_len = conn->rx_cap = 0;
    conn->rx_state = NET_RX_DISCARDING;
    if (too_large) {
        server->metrics.refused_too_large++;
        enqueue(conn, error_too_large, sizeof error_too_large - 1);
    } else {
        server->metrics.refused_binary++;
        enqueue(conn, error_binary, sizeof error_binary - 1);
    }
}

/* Grows the message buffer to hold `needed` bytes plus the NUL; `expected` is how much more
 * the current frame announces, so a single-frame message is allocated once. */
static bool reserve_rx(net_conn *conn, size_t needed, size_t expected)
{
    if (needed + 1 <= conn->rx_cap)
        return true;
    size_t cap = needed + expected + 1;
    if (cap < conn->rx_cap * 2)
        cap = conn->rx_cap * 2;
    if (cap > NET_MAX_MESSAGE + 1)
        cap = NET_MAX_MESSAGE + 1;
    char *grown = realloc(conn->rx_buf, cap);
    if (!grown)
        return false;
    conn->rx_buf = grown;
    conn->rx_cap = cap;
    return true;
}

/* RFC 6455 wants text frames in UTF-8 (NUL included); text is NUL-terminated after len, which
 * stops text_utf8_character() at the end. */
static bool is_utf8(const char *text, size_t len)
{
    const unsigned char *p = (const unsigned char *)text;
    for (size_t i = 0; i < len;) {
        size_t n = p[i] == 0 ? 1 : text_utf8_character(p + i);
        if (n == 0 || n > len - i)
            return false;
        i += n;
    }
    return true;
}

static void deliver_message(net_conn *conn)
{
    net_server *server = conn->server;
    static const char empty[] = "";

    const char *text = conn->rx_buf ? conn->rx_buf : empty;
    if (conn->rx_buf)
        conn->rx_buf[conn->rx_len] = '\0';
    if (!is_utf8(text, conn->rx_len)) {
        server->metrics.invalid_utf8++;
        log_info("net: closing %s: a text message that is not UTF-8", conn->peer);
        begin_close(conn, LWS_CLOSE_STATUS_INVALID_PAYLOAD, "text must be UTF-8", true);
        return;
    }
    server->metrics.messages_in++;
    if (server->handlers.on_message)
        server->handlers.on_message(server->handlers.ctx, conn, text, conn->rx_len);
}

/* One piece of a WebSocket message as lws delivers it (at most NET_RX_CHUNK bytes). */
static void on_ws_receive(net_conn *conn, const void *data, size_t len)
{
    struct lws *wsi = conn->wsi;
    net_server *server = conn->server;

    conn->last_heard_ms = uv_now(server->loop);
    conn->ping_sent = false;
    server->metrics.bytes_in += len;
    if (conn->closing)
        return; /* nothing more reaches the application once a close has begun */

    if (conn->rx_state == NET_RX_IDLE) {
        conn->rx_state = NET_RX_COLLECTING;
        if (lws_frame_is_binary(wsi))
            refuse_message(conn, false);
    }
    if (conn->rx_state == NET_RX_COLLECTING) {
        size_t needed = conn->rx_len + len;
        size_t rest_of_frame = lws_remaining_packet_payload(wsi);
        /* Refuse as soon as the frame header says it cannot fit: no point buffering it. */
        if (needed > NET_MAX_MESSAGE || rest_of_frame > NET_MAX_MESSAGE - needed) {
            refuse_message(conn, true);
        } else if (!reserve_rx(conn, needed, rest_of_frame)) {
            drop_connection(conn, "out of memory");
            return;
        } else {
            memcpy(conn->rx_buf + conn->rx_len, data, len);
            conn->rx_len = needed;
        }
    }
    if (!lws_is_final_fragment(wsi))
        return;

    if (conn->rx_state == NET_RX_COLLECTING)
        deliver_message(conn);
    free(conn->rx_buf);
    conn->rx_buf = NULL;
    conn->rx_len = conn->rx_cap = 0;
    conn->rx_state = NET_RX_IDLE;
}

/* ---- 3. admission ------------------------------------------------------------------------ */

static net_socket *socket_of(struct lws *wsi)
{
    net_socket *sock = lws_get_opaque_user_data(wsi);
    return sock && sock->wsi == wsi ? sock : NULL;
}

static void count_refusal(net_server *server, peers_verdict verdict)
{
    switch (verdict) {
    case PEERS_NO_DESCRIPTORS: server->metrics.refused_fd_limit++; break;
    case PEERS_ADDRESS_FULL: server->metrics.refused_per_address++; break;
    case PEERS_RESERVE: server->metrics.refused_reserve++; break;
    case PEERS_ADMIT: break;
    }
}

/* A refused socket is logged, but an attack makes thousands: one warning per few seconds. */
static void log_refusal(net_server *server, const char *who, const char *why, int fd)
{
    uint64_t now = uv_now(server->loop);
    if (server->refusal_logged_ms && now - server->refusal_logged_ms < NET_REFUSAL_LOG_MS) {
        log_debug("net: refusing %s: %s (descriptor %d)", who, why, fd);
        return;
    }
    server->refusal_logged_ms = now;
    log_warn("net: refusing %s: %s (descriptor %d; more are counted in "
             "teahouse_connections_refused_total, not logged)", who, why, fd);
}

/* LWS_CALLBACK_FILTER_NETWORK_CONNECTION: the socket is accepted and nothing read yet. Those
 * refused are closed at once, so accept() never spins on EMFILE. */
static int filter_new_socket(net_server *server, struct lws *listener,
                             const struct lws_filter_network_conn_args *args)
{
    bool operator_port = lws_get_vhost(listener) == server->metrics_vhost;
    peers_addr addr;
    bool known = peers_addr_from_sockaddr((const struct sockaddr *)&args->cli_addr, &addr);
    const peers_addr *counted =
        known && !operator_port && !peers_is_trusted(server->peers, &addr) ? &addr : NULL;
    peers_verdict verdict = peers_admit(server->peers, counted, (int)args->accept_fd,
                                        operator_port);
    if (verdict == PEERS_ADMIT)
        return 0;
    count_refusal(server, verdict);
    char who[PEERS_ADDR_TEXT] = "a socket";
    if (known)
        peers_addr_format(&addr, who, sizeof who);
    log_refusal(server, who, peers_verdict_name(verdict), (int)args->accept_fd);
    return 1;
}

/* LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED: a game-port socket starts counting against its
 * peer (a trusted proxy's counts against nobody until its client is named). Without memory
 * the socket goes uncounted rather than refused. */
static void on_new_socket(net_server *server, struct lws *wsi)
{
    struct sockaddr_storage ss;
    socklen_t ss_len = sizeof ss;
    lws_sockfd_type fd = lws_get_socket_fd(wsi);
    peers_addr addr;

    if (lws_get_vhost(wsi) != server->game_vhost || fd < 0 ||
        getpeername(fd, (struct sockaddr *)&ss, &ss_len) != 0 ||
        !peers_addr_from_sockaddr((const struct sockaddr *)&ss, &addr))
        return;
    net_socket *sock = calloc(1, sizeof *sock);
    if (!sock)
        return;
    sock->wsi = wsi;
    sock->peer = addr;
    sock->via_proxy = peers_is_trusted(server->peers, &addr);
    if (!sock->via_proxy)
        sock->entry = peers_add(server->peers, &addr);
    peers_addr_format(&addr, sock->client, sizeof sock->client);
    lws_set_opaque_user_data(wsi, sock);
}

/* LWS_CALLBACK_WSI_DESTROY: the socket is gone; so is its count. */
static void forget_socket(net_server *server, struct lws *wsi)
{
    net_socket *sock = socket_of(wsi);
    if (!sock)
        return;
    lws_set_opaque_user_data(wsi, NULL);
    if (sock->entry)
        peers_release(server->peers, sock->entry);
    free(sock);
}

/* Through a trusted proxy, a WebSocket counts against the client the proxy names, or against
 * the proxy itself when it names none (a proxy set up without X-Forwarded-For then shows as
 * one address at its cap instead of an open door). */
static peers_verdict admit_proxied(net_server *server, struct lws *wsi, net_socket *sock)
{
    char forwarded[NET_FORWARDED_CAP], real_ip[PEERS_ADDR_TEXT + 16];
    bool has_forwarded =
        lws_hdr_copy(wsi, forwarded, sizeof forwarded, WSI_TOKEN_X_FORWARDED_FOR) > 0;
    bool has_real_ip = false;
#if defined(LWS_WITH_HTTP_UNCOMMON_HEADERS)
    has_real_ip = lws_hdr_copy(wsi, real_ip, sizeof real_ip, WSI_TOKEN_HTTP_X_REAL_IP) > 0;
#endif
    peers_addr client;
    if (!peers_forwarded(server->peers, has_forwarded ? forwarded : NULL,
                         has_real_ip ? real_ip : NULL, &client))
        client = sock->peer;
    peers_addr_format(&client, sock->client, sizeof sock->client);
    peers_verdict verdict =
        peers_admit(server->peers, &client, (int)lws_get_socket_fd(wsi), false);
    if (verdict == PEERS_ADMIT)
        sock->entry = peers_add(server->peers, &client);
    return verdict;
}

/* The page asking for a WebSocket is the server's own (its origin is the Host it asked for,
 * over http or https), one the operator allowed, or no browser at all (no Origin header:
 * browsers always send one, our test clients and the load tool do not). */
static bool origin_allowed(const net_server *server, struct lws *wsi)
{
    char origin[256], host[256], own[300];

    if (lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN) <= 0)
        return true;
    if (lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) <= 0)
        return false;
    for (size_t i = 0; i < server->n_allowed_origins; i++)
        if (strcasecmp(origin, server->allowed_origins[i]) == 0)
            return true;
    if (lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) <= 0)
        return false;
    snprintf(own, sizeof own, "http://%s", host);
    if (strcasecmp(origin, own) == 0)
        return true;
    snprintf(own, sizeof own, "https://%s", host);
    return strcasecmp(origin, own) == 0;
}

/* Answers an upgrade with an HTTP status instead; the connection stays usable for HTTP. */
static int refuse_upgrade(struct lws *wsi, unsigned status)
{
    return lws_return_http_status(wsi, status, NULL) ? -1 : 1;
}

/* LWS_CALLBACK_HTTP_CONFIRM_UPGRADE: WebSockets only on the game port's /ws, not while
 * stopping, only from an allowed origin, and through a proxy only within the client's cap. */
static int confirm_upgrade(net_server *server, struct lws *wsi, const char *upgrade)
{
    char uri[64];

    if (lws_get_vhost(wsi) != server->game_vhost || !upgrade ||
        strcasecmp(upgrade, "websocket") != 0)
        return refuse_upgrade(wsi, HTTP_STATUS_FORBIDDEN);
    if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) <= 0 || strcmp(uri, NET_WS_PATH) != 0)
        return refuse_upgrade(wsi, HTTP_STATUS_NOT_FOUND);
    if (server->stopping)
        return refuse_upgrade(wsi, HTTP_STATUS_SERVICE_UNAVAILABLE);
    net_socket *sock = socket_of(wsi);
    if (!origin_allowed(server, wsi)) {
        server->metrics.refused_origin++;
        log_refusal(server, sock ? sock->client : "a client", "origin",
                    (int)lws_get_socket_fd(wsi));
        return refuse_upgrade(wsi, HTTP_STATUS_FORBIDDEN);
    }
    if (sock && sock->via_proxy && !sock->entry) {
        peers_verdict verdict = admit_proxied(server, wsi, sock);
        if (verdict != PEERS_ADMIT) {
            count_refusal(server, verdict);
            log_refusal(server, sock->client, peers_verdict_name(verdict),
                        (int)lws_get_socket_fd(wsi));
            return refuse_upgrade(wsi, 429); /* Too Many Requests */
        }
    }
    return 0;
}

/* LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION, just before the upgrade: the path and the port
 * once more (confirm_upgrade has answered what it refused; this only hangs up). */
static int filter_ws_upgrade(net_server *server, struct lws *wsi)
{
    char uri[64];

    if (server->stopping || lws_get_vhost(wsi) != server->game_vhost)
        return 1;
    if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) <= 0)
        return 1;
    return strcmp(uri, NET_WS_PATH) == 0 ? 0 : 1;
}

/* ---- 4. HTTP ----------------------------------------------------------------------------- */

static void free_http_body(net_session *session)
{
    free(session->http_body);
    session->http_body = NULL;
    session->http_body_len = 0;
}

/* Sends the headers now and leaves the body (allocated with LWS_PRE headroom, owned by the
 * session from here on) for the WRITEABLE callback. */
static int http_reply(struct lws *wsi, net_session *session, unsigned status,
                      const char *content_type, unsigned char *body, size_t len)
{
    unsigned char headers[LWS_PRE + 512];
    unsigned char *start = headers + LWS_PRE, *p = start, *end = headers + sizeof headers - 1;
    static const char no_store[] = "no-store";

    free_http_body(session);
    session->http_body = body;
    session->http_body_len = len;
    if (lws_add_http_common_headers(wsi, status, content_type, len, &p, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
                                    (const unsigned char *)no_store, sizeof no_store - 1, &p,
                                    end) ||
        lws_finalize_write_http_header(wsi, start, &p, end))
        return 1;
    lws_callback_on_writable(wsi);
    return 0;
}

static unsigned char *body_from_text(const char *text, size_t len)
{
    unsigned char *body = malloc(LWS_PRE + len);
    if (body)
        memcpy(body + LWS_PRE, text, len);
    return body;
}

static int serve_healthz(struct lws *wsi, net_session *session)
{
    static const char ok[] = "ok";
    unsigned char *body = body_from_text(ok, sizeof ok - 1);
    if (!body)
        return 1;
    return http_reply(wsi, session, HTTP_STATUS_OK, "text/plain; charset=utf-8", body,
                      sizeof ok - 1);
}

static int serve_metrics(net_server *server, struct lws *wsi, net_session *session)
{
    unsigned char *body = malloc(LWS_PRE + NET_METRICS_CAP);
    if (!body)
        return 1;
    char *text = (char *)body + LWS_PRE;
    size_t len = 0;
    text[0] = '\0';
    metrics_write(&server->metrics, server->conn_count, peers_address_count(server->peers), text,
                  NET_METRICS_CAP, &len);
    if (server->handlers.write_metrics)
        server->handlers.write_metrics(server->handlers.ctx, text, NET_METRICS_CAP, &len);
    if (len > NET_METRICS_CAP)
        len = NET_METRICS_CAP; /* a handler that overran cap must not make us read past it */
    return http_reply(wsi, session, HTTP_STATUS_OK, "text/plain; version=0.0.4; charset=utf-8",
                      body, len);
}

static int http_status(struct lws *wsi, unsigned status)
{
    if (lws_return_http_status(wsi, status, NULL))
        return -1;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/*
 * Finds the file a path asks for: the web root plus the path (plus index.html after a '/'),
 * with every symbolic link and ".." resolved by realpath(), must be a regular file inside the
 * web root's own real path. Whatever lws did to the path before, this is the check that counts.
 */
static bool find_static_file(const net_server *server, const char *uri, char *out, size_t cap)
{
    char joined[PATH_MAX + 16];
    size_t uri_len = strlen(uri);

    if (uri_len == 0 || uri[0] != '/')
        return false;
    int n = snprintf(joined, sizeof joined, "%s%s%s", server->web_root, uri,
                     uri[uri_len - 1] == '/' ? "index.html" : "");
    if (n < 0 || (size_t)n >= sizeof joined)
        return false;
    char real[PATH_MAX];
    if (!realpath(joined, real))
        return false;
    size_t root_len = strlen(server->web_root);
    if (strncmp(real, server->web_root, root_len) != 0 || real[root_len] != '/')
        return false;
    struct stat st;
    if (stat(real, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    if (strlen(real) >= cap)
        return false;
    memcpy(out, real, strlen(real) + 1);
    return true;
}

static int serve_static(net_server *server, struct lws *wsi, const char *uri)
{
    char path[PATH_MAX];

    if (!find_static_file(server, uri, path, sizeof path))
        return http_status(wsi, HTTP_STATUS_NOT_FOUND);
    const char *type = lws_get_mimetype(path, &server->mime_mount);
    int n = lws_serve_http_file(wsi, path, type ? type : "application/octet-stream", NULL, 0);
    if (n < 0 || (n > 0 && lws_http_transaction_completed(wsi)))
        return -1;
    return 0;
}

/* The request's method, from the token lws filled in for its request line. */
static const char *http_method(struct lws *wsi, char *uri, size_t cap)
{
    static const struct {
        enum lws_token_indexes token;
        const char *name;
    } methods[] = {
        {WSI_TOKEN_GET_URI, "GET"},       {WSI_TOKEN_POST_URI, "POST"},
        {WSI_TOKEN_PUT_URI, "PUT"},       {WSI_TOKEN_DELETE_URI, "DELETE"},
        {WSI_TOKEN_PATCH_URI, "PATCH"},   {WSI_TOKEN_OPTIONS_URI, "OPTIONS"},
#if defined(LWS_WITH_HTTP_UNCOMMON_HEADERS)
        {WSI_TOKEN_HEAD_URI, "HEAD"},
#endif
    };
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        if (lws_hdr_total_length(wsi, methods[i].token) <= 0)
            continue;
        if (lws_hdr_copy(wsi, uri, (int)cap, methods[i].token) <= 0)
            uri[0] = '\0'; /* no path that long is ours */
        return methods[i].name;
    }
    return NULL;
}

/* Over TLS: ours, or a trusted proxy's word (X-Forwarded-Proto: https). */
static bool http_secure(struct lws *wsi)
{
    if (lws_is_ssl(wsi))
        return true;
    const net_socket *sock = socket_of(wsi);
    char proto[16];
    static const char name[] = "x-forwarded-proto:";
    return sock && sock->via_proxy &&
           lws_hdr_custom_copy(wsi, proto, sizeof proto, name, sizeof name - 1) > 0 &&
           strcasecmp(proto, "https") == 0;
}

/* An application route's request (net_http.c) on the game port, if a route takes it. */
static net_http_taken take_for_route(net_server *server, struct lws *wsi, net_session *session,
                                     const char *method, const char *uri)
{
    if (!session || !uri[0])
        return NET_HTTP_NOT_OURS;
    const net_socket *sock = socket_of(wsi);
    char peer[PEERS_ADDR_TEXT] = "unknown";
    if (sock)
        snprintf(peer, sizeof peer, "%s", sock->client);
    else
        lws_get_peer_simple(wsi, peer, sizeof peer);
    net_http_taken taken = net_http_take(server->routes, wsi, &session->request, method, uri, peer,
                                         http_secure(wsi));
    if (taken != NET_HTTP_NOT_OURS)
        server->metrics.http_requests++;
    return taken;
}

/* LWS_CALLBACK_HTTP: every request that is not a WebSocket upgrade. The game port serves the
 * application's routes, /healthz and the static files; the operator's port /metrics and
 * /healthz. */
static int on_http_request(net_server *server, struct lws *wsi, net_session *session)
{
    char uri[1024];

    const char *method = http_method(wsi, uri, sizeof uri);
    if (!method)
        return http_status(wsi, HTTP_STATUS_METHOD_NOT_ALLOWED);
    bool operator_port = lws_get_vhost(wsi) == server->metrics_vhost;
    if (!operator_port) {
        switch (take_for_route(server, wsi, session, method, uri)) {
        case NET_HTTP_TAKEN: return 0;
        case NET_HTTP_FAILED: return -1;
        case NET_HTTP_NOT_OURS: break;
        }
    }
    if (strcmp(method, "GET") != 0)
        return http_status(wsi, HTTP_STATUS_METHOD_NOT_ALLOWED); /* only GET, here */
    if (!uri[0])
        return http_status(wsi, HTTP_STATUS_NOT_FOUND); /* no path that long is ours */
    if (strcmp(uri, "/healthz") == 0) {
        server->metrics.http_requests++;
        return serve_healthz(wsi, session);
    }
    if (operator_port && strcmp(uri, "/metrics") == 0) {
        server->metrics.http_requests++;
        return serve_metrics(server, wsi, session);
    }
    if (operator_port)
        return http_status(wsi, HTTP_STATUS_NOT_FOUND);
    return serve_static(server, wsi, uri);
}

static int on_http_writeable(struct lws *wsi, net_session *session)
{
    unsigned char *body = session->http_body;
    size_t len = session->http_body_len;

    session->http_body = NULL;
    session->http_body_len = 0;
    int written = lws_write(wsi, body + LWS_PRE, len, LWS_WRITE_HTTP_FINAL);
    free(body);
    if (written < 0 || (size_t)written < len)
        return -1;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* ---- 5. the lws callback ----------------------------------------------------------------- */

static int net_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                        size_t len)
{
    net_server *server = lws_context_user(lws_get_context(wsi));
    net_session *session = user; /* only for the reasons that pass per-session data */

    switch (reason) {
    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION: /* wsi is the listener, user lws's args */
        return filter_new_socket(server, wsi, user);
    case LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED:
        on_new_socket(server, wsi);
        return 0;
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
        return confirm_upgrade(server, wsi, in);
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        return filter_ws_upgrade(server, wsi);
    case LWS_CALLBACK_ESTABLISHED:
        on_ws_established(server, wsi, session);
        return 0;
    case LWS_CALLBACK_RECEIVE:
        on_ws_receive(&session->conn, in, len);
        return 0;
    case LWS_CALLBACK_RECEIVE_PONG:
        session->conn.last_heard_ms = uv_now(server->loop);
        session->conn.ping_sent = false;
        return 0;
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return on_ws_writeable(&session->conn);
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        /* Either the answer to our close frame (hang up now) or the peer's own close (lws
         * answers it); in both cases nothing more may be queued. */
        session->conn.closing = true;
        return session->conn.close_sent ? -1 : 0;
    case LWS_CALLBACK_CLOSED:
        on_ws_closed(&session->conn);
        return 0;

    case LWS_CALLBACK_HTTP:
        return on_http_request(server, wsi, session);
    case LWS_CALLBACK_HTTP_BODY:
        if (session && session->request)
            return net_http_body(session->request, in, len);
        break;
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        if (session && session->request)
            return net_http_body_done(session->request);
        break;
    case LWS_CALLBACK_HTTP_WRITEABLE:
        if (session && session->request)
            return net_http_writeable(session->request);
        if (session && session->http_body)
            return on_http_writeable(wsi, session);
        break;
    case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
    case LWS_CALLBACK_CLOSED_HTTP:
        if (session) {
            free_http_body(session);
            net_http_gone(&session->request);
        }
        break;
    case LWS_CALLBACK_WSI_DESTROY:
        /* last call for any connection, user data still intact: make sure nothing leaks */
        if (session) {
            free_http_body(session);
            net_http_gone(&session->request);
            on_ws_closed(&session->conn);
        }
        forget_socket(server, wsi);
        return 0;
    default:
        break;
    }
    /* File completion, keep-alive bookkeeping and the like. */
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}

/* ---- 6. timers --------------------------------------------------------------------------- */

/* A periodic timer that fires late measures how long the loop was busy elsewhere. */
static void on_lag_timer(uv_timer_t *timer)
{
    net_server *server = timer->data;
    uint64_t now_ns = uv_hrtime();

    if (server->lag_last_ns) {
        uint64_t elapsed = now_ns - server->lag_last_ns;
        uint64_t interval = (uint64_t)NET_LAG_INTERVAL_MS * 1000000u;
        double lag = elapsed > interval ? (double)(elapsed - interval) / 1e9 : 0.0;
        metrics_observe_loop_lag(&server->metrics, lag, uv_now(server->loop));
    }
    server->lag_last_ns = now_ns;
}

/* Pings connections that have been quiet for ping_ms, drops those quiet for hangup_ms and
 * those whose net_close has outlived its deadline, and closes those still anonymous after
 * hello_ms: answering pings is not enough to hold a descriptor. */
static void on_keepalive_timer(uv_timer_t *timer)
{
    net_server *server = timer->data;
    uint64_t now = uv_now(server->loop);

    for (net_conn *conn = server->conns; conn; conn = conn->next) {
        /* dropping only shuts the socket down: the list stays intact while we walk it */
        if (conn->dropped)
            continue;
        if (conn->closing) {
            if (conn->close_deadline_ms && now >= conn->close_deadline_ms)
                drop_connection(conn, "close did not complete in time");
            continue;
        }
        if (!conn->identified && now - conn->opened_ms >= server->hello_ms) {
            server->metrics.hello_timeouts++;
            log_debug("net: closing %s: no hello in time", conn->peer);
            begin_close(conn, LWS_CLOSE_STATUS_POLICY_VIOLATION, "say hello first", true);
            continue;
        }
        uint64_t quiet = now - conn->last_heard_ms;
        if (quiet >= server->hangup_ms) {
            server->metrics.idle_timeouts++;
            drop_connection(conn, "no answer to ping");
        } else if (!conn->ping_sent && quiet >= server->ping_ms) {
            conn->ping_sent = true;
            conn->ping_due = true;
            lws_callback_on_writable(conn->wsi);
        }
    }
}

/* Step one of lws's teardown, run from a uv timer because it must not run inside an lws
 * callback. */
static void on_drain_timer(uv_timer_t *timer)
{
    net_server *server = timer->data;

    uv_close((uv_handle_t *)timer, NULL);
    if (server->teardown_started)
        return;
    server->teardown_started = true;
    log_debug("net: closing the listener and %zu remaining connection(s)", server->conn_count);
    lws_context_destroy(server->context);
}

static void start_teardown_soon(net_server *server)
{
    if (!server->teardown_started && !uv_is_closing((uv_handle_t *)&server->drain_timer))
        uv_timer_start(&server->drain_timer, on_drain_timer, 0, 0);
}

/* ---- 7. start, stop, destroy ------------------------------------------------------------- */

/*
 * Chooses what lws binds to. lws takes an IP literal or an interface name, and uses an IPv6
 * socket unless told not to; "0.0.0.0" and IPv4 literals therefore switch IPv6 off, and host
 * names are resolved here first.
 */
static bool resolve_bind(const char *bind, char *iface, size_t cap, bool *ipv6)
{
    unsigned char addr[sizeof(struct in6_addr)];

    iface[0] = '\0';
    *ipv6 = false;
    if (!bind || !bind[0] || strcmp(bind, "0.0.0.0") == 0)
        return true;
    if (strcmp(bind, "::") == 0) {
        *ipv6 = true;
        return true;
    }
    if (inet_pton(AF_INET, bind, addr) == 1 || inet_pton(AF_INET6, bind, addr) == 1) {
        *ipv6 = strchr(bind, ':') != NULL;
        snprintf(iface, cap, "%s", bind);
        return true;
    }

    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    struct addrinfo *found = NULL;
    if (getaddrinfo(bind, NULL, &hints, &found) == 0 && found) {
        const struct addrinfo *pick = found; /* prefer IPv4, as "localhost" users expect */
        for (const struct addrinfo *ai = found; ai; ai = ai->ai_next)
            if (ai->ai_family == AF_INET) {
                pick = ai;
                break;
            }
        const void *raw = pick->ai_family == AF_INET
                              ? (const void *)&((struct sockaddr_in *)pick->ai_addr)->sin_addr
                              : (const void *)&((struct sockaddr_in6 *)pick->ai_addr)->sin6_addr;
        inet_ntop(pick->ai_family, raw, iface, (socklen_t)cap);
        *ipv6 = pick->ai_family == AF_INET6;
        freeaddrinfo(found);
        return true;
    }
    /* Not an address or a host name: lws will try it as an interface name ("eth0"). */
    snprintf(iface, cap, "%s", bind);
    return true;
}

static void setup_mimetypes(net_server *server)
{
    /* lws knows the common types; these add charsets and the ones it lacks. */
    static const char *const types[][2] = {
        {".html", "text/html; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"},
        {".json", "application/json"},
        {".svg", "image/svg+xml"},
        {".webp", "image/webp"},
        {".wasm", "application/wasm"},
        {".webmanifest", "application/manifest+json"},
        {".txt", "text/plain; charset=utf-8"},
    };
    enum { COUNT = sizeof types / sizeof types[0] };
    _Static_assert(COUNT == sizeof server->mimetypes / sizeof server->mimetypes[0],
                   "one option per type");

    for (size_t i = 0; i < COUNT; i++) {
        server->mimetypes[i].next = i + 1 < COUNT ? &server->mimetypes[i + 1] : NULL;
        server->mimetypes[i].options = NULL;
        server->mimetypes[i].name = types[i][0];
        server->mimetypes[i].value = types[i][1];
    }
}

/* Fills the lws tables kept in the server: protocol, mimetypes, headers, policy. */
static void setup_lws_tables(net_server *server)
{
    server->protocols[0] = (struct lws_protocols){
        .name = NET_PROTOCOL_NAME,
        .callback = net_callback,
        .per_session_data_size = sizeof(net_session),
        .rx_buffer_size = NET_RX_CHUNK,
        /* Without this lws would cut every send() to rx_buffer_size and copy the rest. */
        .tx_packet_size = NET_MAX_QUEUED_BYTES,
    };
    memset(&server->protocols[1], 0, sizeof server->protocols[1]);

    setup_mimetypes(server);
    memset(&server->mime_mount, 0, sizeof server->mime_mount);
    server->mime_mount.extra_mimetypes = &server->mimetypes[0];

    /* On every HTTP answer of both ports (lws adds a vhost's headers to each status line). The
     * policy is the web client's: its own scripts, styles and images (data: images for
     * generated ones), WebSockets to any host (ws: and wss:, as 'self' does not cover them in
     * every browser), and never inside a frame. */
    static const char *const headers[][2] = {
        {"content-security-policy:",
         "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
         "style-src 'self'; frame-ancestors 'none'"},
        {"x-content-type-options:", "nosniff"},
        {"referrer-policy:", "no-referrer"},
    };
    enum { COUNT = sizeof headers / sizeof headers[0] };
    _Static_assert(COUNT == sizeof server->extra_headers / sizeof server->extra_headers[0],
                   "one option per header");
    for (size_t i = 0; i < COUNT; i++)
        server->extra_headers[i] = (struct lws_protocol_vhost_options){
            .next = i + 1 < COUNT ? &server->extra_headers[i + 1] : NULL,
            .name = headers[i][0],
            .value = headers[i][1],
        };

    /* All zero: no lws validity pings (see the note at the top of the file). */
    memset(&server->idle_policy, 0, sizeof server->idle_policy);
}

static int current_fd_limit(void)
{
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY ||
        limit.rlim_cur > (rlim_t)INT32_MAX)
        return INT32_MAX;
    return (int)limit.rlim_cur;
}

/*
 * When lws 4.1 fails to create its vhost on a foreign loop it does not return NULL: it starts
 * the first teardown step itself and hands back the context, whose handles must still pass
 * through our loop before the second step may free it. A few non-blocking turns of the loop
 * are enough for those closes and, unlike UV_RUN_DEFAULT, cannot hang on handles of the caller.
 */
static void abandon_failed_context(net_server *server)
{
    for (int turn = 0; turn < 16; turn++)
        uv_run(server->loop, UV_RUN_NOWAIT);
    lws_context_destroy(server->context);
    server->context = NULL;
}

/* A context that did start but will not serve (its second vhost failed): both teardown steps,
 * with the loop turned in between as above. */
static void destroy_unused_context(net_server *server)
{
    lws_context_destroy(server->context);
    abandon_failed_context(server);
}

static bool create_context(net_server *server, const net_config *config)
{
    bool ipv6 = false;
    resolve_bind(config->bind_address, server->iface, sizeof server->iface, &ipv6);

    void *foreign_loops[1] = {server->loop};
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.options = LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND;
    if (!ipv6)
        info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
    info.foreign_loops = foreign_loops;
    info.port = config->port;
    info.iface = server->iface[0] ? server->iface : NULL;
    info.protocols = server->protocols;
    info.headers = &server->extra_headers[0];
    info.retry_and_idle_policy = &server->idle_policy;
    info.vhost_name = NET_PROTOCOL_NAME;
    info.server_string = "teahouse";
    info.user = server;

    server->context = lws_create_context(&info);
    if (!server->context)
        return false;
    server->game_vhost = lws_get_vhost_by_name(server->context, NET_PROTOCOL_NAME);
    server->port = server->game_vhost ? lws_get_vhost_listen_port(server->game_vhost) : -1;
    if (server->port > 0)
        return true;
    abandon_failed_context(server);
    return false;
}

/* The operator's port: a second vhost on the same context, with the same callback. */
static bool create_metrics_vhost(net_server *server, const net_config *config)
{
    const char *bind = config->metrics_bind && config->metrics_bind[0] ? config->metrics_bind
                                                                       : "127.0.0.1";
    bool ipv6 = false;
    resolve_bind(bind, server->metrics_iface, sizeof server->metrics_iface, &ipv6);

    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.options = LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND;
    if (!ipv6)
        info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
    info.port = config->metrics_port;
    info.iface = server->metrics_iface[0] ? server->metrics_iface : NULL;
    info.protocols = server->protocols;
    info.headers = &server->extra_headers[0];
    info.retry_and_idle_policy = &server->idle_policy;
    info.vhost_name = NET_METRICS_VHOST;

    server->metrics_vhost = lws_create_vhost(server->context, &info);
    server->metrics_port =
        server->metrics_vhost ? lws_get_vhost_listen_port(server->metrics_vhost) : -1;
    if (server->metrics_port > 0)
        return true;
    log_error("net: cannot listen on %s port %d (the operator's port; --metrics-port 0 for "
              "none)", bind, config->metrics_port);
    return false;
}

static void start_timers(net_server *server)
{
    uint64_t sweep_ms = (server->ping_ms < server->hello_ms ? server->ping_ms : server->hello_ms) / 4;
    if (sweep_ms < 250)
        sweep_ms = 250;

    uv_timer_init(server->loop, &server->lag_timer);
    server->lag_timer.data = server;
    uv_timer_start(&server->lag_timer, on_lag_timer, NET_LAG_INTERVAL_MS, NET_LAG_INTERVAL_MS);
    uv_unref((uv_handle_t *)&server->lag_timer); /* a probe must not keep the loop alive */

    uv_timer_init(server->loop, &server->keepalive_timer);
    server->keepalive_timer.data = server;
    uv_timer_start(&server->keepalive_timer, on_keepalive_timer, sweep_ms, sweep_ms);
    uv_unref((uv_handle_t *)&server->keepalive_timer);

    uv_timer_init(server->loop, &server->drain_timer);
    server->drain_timer.data = server;
}

/* Frees what net_start allocated besides the lws context. */
static void free_server(net_server *server)
{
    for (size_t i = 0; i < server->n_allowed_origins; i++)
        free(server->allowed_origins[i]);
    free(server->allowed_origins);
    peers_destroy(server->peers);
    net_routes_free(server->routes);
    free(server);
}

/* The policy's parts that are not lws's: the web root's real path, the admission rule and
 * the allowed origins. */
static bool setup_policy(net_server *server, const net_config *config)
{
    if (!realpath(config->web_root, server->web_root)) {
        log_error("net: web root '%s' cannot be resolved", config->web_root);
        return false;
    }
    char error[128];
    const peers_config peers_cfg = {.max_per_address = config->max_per_address,
                                    .fd_limit = current_fd_limit(),
                                    .trusted_proxies = config->trusted_proxies,
                                    .n_trusted_proxies = config->n_trusted_proxies};
    server->peers = peers_create(&peers_cfg, error, sizeof error);
    if (!server->peers) {
        log_error("net: %s", error);
        return false;
    }
    server->routes = net_routes_new();
    if (!server->routes)
        return false;
    if (config->n_allowed_origins) {
        server->allowed_origins = calloc(config->n_allowed_origins, sizeof(char *));
        if (!server->allowed_origins)
            return false;
    }
    for (size_t i = 0; i < config->n_allowed_origins; i++) {
        server->allowed_origins[i] = strdup(config->allowed_origins[i]);
        if (!server->allowed_origins[i])
            return false;
        server->n_allowed_origins++;
    }
    return true;
}

/* Whether another program holds host:port (the usual reason a listen fails), asked by binding a
 * socket of our own there for a moment. */
static bool port_taken(const char *host, int port)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICHOST};
    struct addrinfo *found = NULL;
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    if (port <= 0 || getaddrinfo(host, service, &hints, &found) != 0 || found == NULL)
        return false;
    bool taken = false;
    int fd = socket(found->ai_family, SOCK_STREAM, 0);
    if (fd >= 0) {
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        taken = bind(fd, found->ai_addr, found->ai_addrlen) != 0 && errno == EADDRINUSE;
        close(fd);
    }
    freeaddrinfo(found);
    return taken;
}

net_server *net_start(uv_loop_t *loop, const net_config *config, const net_handlers *handlers)
{
    struct stat st;
    if (!config->web_root || stat(config->web_root, &st) != 0 || !S_ISDIR(st.st_mode)) {
        log_error("net: web root '%s' is not a directory",
                  config->web_root ? config->web_root : "(none)");
        return NULL;
    }

    net_server *server = calloc(1, sizeof *server);
    if (!server)
        return NULL;
    server->loop = loop;
    server->handlers = *handlers;
    metrics_init(&server->metrics);
    int ping_seconds = config->ping_seconds > 0 ? config->ping_seconds : NET_DEFAULT_PING_SECONDS;
    int hello_seconds =
        config->hello_seconds > 0 ? config->hello_seconds : NET_DEFAULT_HELLO_SECONDS;
    server->ping_ms = (uint64_t)ping_seconds * 1000u;
    server->hangup_ms = server->ping_ms * 2;
    server->hello_ms = (uint64_t)hello_seconds * 1000u;
    if (!setup_policy(server, config)) {
        free_server(server);
        return NULL;
    }
    setup_lws_tables(server);

    if (!create_context(server, config)) {
        const char *host = config->bind_address && config->bind_address[0] ? config->bind_address : "0.0.0.0";
        if (port_taken(host, config->port))
            log_error("net: port %d is in use by another program on %s: stop it, or start on another "
                      "port (./run.sh --port %d)",
                      config->port, host, config->port + 1);
        else
            log_error("net: cannot listen on %s port %d", host, config->port);
        free_server(server);
        return NULL;
    }
    if (config->metrics_port != NET_METRICS_OFF && !create_metrics_vhost(server, config)) {
        destroy_unused_context(server);
        free_server(server);
        return NULL;
    }
    start_timers(server);
    return server;
}

void net_stop(net_server *server)
{
    if (!server || server->stopping)
        return;
    server->stopping = true;
    log_info("net: stopping; closing %zu connection(s)", server->conn_count);

    uv_close((uv_handle_t *)&server->lag_timer, NULL);
    uv_close((uv_handle_t *)&server->keepalive_timer, NULL);
    for (net_conn *conn = server->conns; conn; conn = conn->next)
        begin_close(conn, LWS_CLOSE_STATUS_GOINGAWAY, "server shutting down", false);

    /* With nothing to wait for, tear down on the next loop turn; otherwise give the peers a
     * moment to answer the close frames. */
    uv_timer_start(&server->drain_timer, on_drain_timer, server->conn_count ? NET_DRAIN_MS : 0,
                   0);
}

void net_destroy(net_server *server)
{
    if (!server)
        return;
    if (!server->teardown_started) {
        /* uv_run() returned before net_stop() finished: do what it would have done. Some lws
         * handles may then stay open and uv_loop_close() report EBUSY. */
        log_error("net: net_destroy before the shutdown drain ended");
        if (!server->stopping) {
            uv_close((uv_handle_t *)&server->lag_timer, NULL);
            uv_close((uv_handle_t *)&server->keepalive_timer, NULL);
        }
        if (!uv_is_closing((uv_handle_t *)&server->drain_timer))
            uv_close((uv_handle_t *)&server->drain_timer, NULL);
        server->stopping = server->teardown_started = true;
        lws_context_destroy(server->context);
    }
    /* Step two: frees the context now that the loop has closed lws's handles. */
    lws_context_destroy(server->context);
    server->context = NULL;
    free_server(server);
}
