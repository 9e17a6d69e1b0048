/*
 * net — HTTP and WebSocket on the server's libuv loop (libwebsockets with a foreign uv loop).
 *
 * The game port serves the static files of the web root, GET /healthz and the WebSocket
 * endpoint /ws. The operator's port (metrics_bind:metrics_port, this machine only by default)
 * serves GET /metrics (Prometheus text from the metrics module) and GET /healthz; nothing else.
 * The rest of the server sees WebSocket connections only through this header: it is told when a
 * connection opens, sends a text message and closes, and it queues text to send. net never
 * parses a message.
 *
 * Promises: every callback runs on the loop thread; a message handed to on_message is one whole
 * text frame (fragments joined) of at most NET_MAX_MESSAGE bytes of valid UTF-8, NUL-terminated;
 * a larger or binary message is refused by net itself (an error frame is sent and on_message is
 * not called). net_send never blocks: each connection's outgoing queue is bounded
 * (NET_MAX_QUEUED_BYTES) and a connection whose queue would overflow (a slow reader) is closed,
 * never the server.
 *
 * Policies: a refused message (too_large, binary_not_supported) leaves the connection open — its
 * bytes are discarded as they arrive, so it costs no memory, and rate limits belong to the
 * protocol layer. A text message that is not UTF-8 closes the connection (1007), as RFC 6455
 * asks. WebSockets live only on /ws and open only for a page of the server's own origin (the
 * Host it was asked for, over http or https), one of allowed_origins, or a client that sends no
 * Origin (not a browser); others get 403. A connection silent for ping_seconds gets a ping and
 * is dropped when nothing at all (pong or message) has come back within twice that. A
 * connection the application has not marked identified (net_conn_identified) within
 * hello_seconds is closed (1008). Every HTTP answer carries a Content-Security-Policy that lets
 * the page load only from its own origin and never be framed, X-Content-Type-Options: nosniff
 * and Referrer-Policy: no-referrer. Static files are served only if they are regular files
 * whose real path (symbolic links resolved) lies inside the real web root.
 *
 * HTTP routes of the application (net_route_add): a method and a path prefix of the game port
 * whose requests net hands to the application, which answers them when it likes — at once, or
 * later from a store callback — with one whole body (net_respond) or a streamed one written in
 * chunks as they come (net_stream_*), paced by the client's reading. See "HTTP routes" below.
 *
 * Hostile clients: sockets are admitted by peers.h's rule (a cap per client address, a reserve
 * of descriptors for new addresses and one for the operator's port); behind a reverse proxy the
 * client address is the one a trusted proxy names. net_close() flushes what is already queued,
 * then sends a close frame (1000, reason); a peer that does not let the queue drain is cut off
 * after a few seconds.
 */
#ifndef NET_H
#define NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#include "house_limits.h"

#define NET_MAX_MESSAGE LIMIT_MESSAGE_BYTES
#define NET_MAX_QUEUED_BYTES (256 * 1024)

typedef struct net_server net_server;
typedef struct net_conn net_conn;

typedef struct net_handlers {
    void *ctx;
    /* A WebSocket connection has opened. */
    void (*on_open)(void *ctx, net_conn *conn);
    /* One text message (NUL-terminated, len bytes). */
    void (*on_message)(void *ctx, net_conn *conn, const char *text, size_t len);
    /* The connection is gone; conn is invalid after this returns. */
    void (*on_close)(void *ctx, net_conn *conn);
    /* Appends extra Prometheus lines to /metrics (may be NULL): buf holds *len bytes already;
     * write at buf + *len, never past cap, and advance *len (metrics_appendf does all that). */
    void (*write_metrics)(void *ctx, char *buf, size_t cap, size_t *len);
} net_handlers;

#define NET_METRICS_OFF (-1) /* net_config.metrics_port: no operator's listener */

typedef struct net_config {
    const char *bind_address; /* NULL or "" for every interface */
    int port;                 /* 0 picks a free port; see net_port() */
    const char *web_root;     /* directory of static files */
    int ping_seconds;         /* keepalive: ping after this much silence; 0 means 30 */
    int hello_seconds;        /* close a connection not identified by then; 0 means 10 */
    int max_per_address;      /* connections one client address may hold; 0 means no cap */
    const char *const *trusted_proxies; /* IP addresses (items may be comma lists) */
    size_t n_trusted_proxies;
    const char *const *allowed_origins; /* "scheme://host[:port]", besides the page's own */
    size_t n_allowed_origins;
    const char *metrics_bind; /* NULL or "" for 127.0.0.1 */
    int metrics_port;         /* 0 picks a free port; NET_METRICS_OFF for none */
} net_config;

/* Starts serving on loop. Returns NULL (and logs why) if the port cannot be opened. */
net_server *net_start(uv_loop_t *loop, const net_config *config, const net_handlers *handlers);

/* The port actually listened on. */
int net_port(const net_server *server);

/* The operator's port actually listened on; 0 when there is none. */
int net_metrics_port(const net_server *server);

/* Queues one text message; false if the connection is closing or was dropped for a full queue. */
bool net_send(net_conn *conn, const char *text, size_t len);

/* Closes one connection (its on_close follows). */
void net_close(net_conn *conn, const char *reason);

/* The application knows who this connection is (the lobby: a successful hello): it is no
 * longer closed for staying anonymous past hello_seconds. conn may be NULL (then nothing). */
void net_conn_identified(net_conn *conn);

/* Per-connection user pointer. */
void net_conn_set_data(net_conn *conn, void *data);
void *net_conn_data(const net_conn *conn);

/* The client's address as text, for logs and rate limits: the peer's, or behind a trusted
 * proxy the one the proxy names. */
const char *net_conn_peer(const net_conn *conn);

/* Number of open WebSocket connections. */
size_t net_connection_count(const net_server *server);

/* ---- HTTP routes --------------------------------------------------------------------------
 *
 * A request is handed over whole: its method, path (before '?', percent-decoded by lws), query
 * parameters (decoded), the headers its route asked for, the client's address, and for a
 * method with a body the body (at most the route's max_body bytes: a longer one is answered
 * 413 by net and never handed over). The routes are matched in the order added, by exact
 * method and path prefix, on the game port only; a path under a route's prefix whose method no
 * route takes is answered 405. Everything else (static files, /healthz, /ws) is as before.
 *
 * Every request handed to on_request is answered exactly once by the application, with
 * net_respond() or net_stream_begin() … net_stream_end(), even when its client has gone away
 * (net_request_gone() says so; the answer is then dropped). Until that answer the request stays
 * valid, whatever the client does; after it the application must not touch it. Requests are
 * answered before net_destroy() (which frees any left, unanswered).
 *
 * A streamed answer has no Content-Length: its body ends when the connection closes (HTTP/1.1,
 * "Connection: close"). net_stream_write() copies the bytes into the request's queue and never
 * blocks; the application keeps net_stream_queued() small — writing, say, up to 64 KiB — and
 * writes more when on_writable says the queue has gone out to the socket. on_writable is called
 * once also when the client goes away while a stream is open (net_stream_write then answers
 * false): that is the moment to stop producing and call net_stream_end().
 */

#define NET_ROUTES_MAX 8
#define NET_ROUTE_HEADERS_MAX 8   /* headers one route may ask for */
#define NET_HEADER_VALUE_MAX 4096 /* a longer header value is not read (as if absent) */
#define NET_RESPONSE_HEADERS_CAP 2048 /* bytes of extra response headers one answer may add */

typedef struct net_request net_request;

typedef struct net_route {
    const char *method;       /* "GET", "POST", "PUT", "DELETE" or "PATCH" */
    const char *prefix;       /* a path prefix, e.g. "/api/admin/" */
    size_t max_body;          /* bytes of request body accepted (0: none) */
    /* Header names the handler reads (lowercase, no colon: "cookie", "x-csrf-token"), at most
     * NET_ROUTE_HEADERS_MAX; NULL-terminated, NULL for none. Copied. */
    const char *const *headers;
    void (*on_request)(void *ctx, net_request *request);
    /* A streamed answer's queue has gone out, or its client went away (may be NULL when the
     * route never streams). */
    void (*on_writable)(void *ctx, net_request *request);
    void *ctx;
} net_route;

/* Adds a route (copied). False when NET_ROUTES_MAX are taken or the route is malformed. */
bool net_route_add(net_server *server, const net_route *route);

const char *net_request_method(const net_request *request);
const char *net_request_path(const net_request *request);
/* The decoded value of the first query parameter `name`, "" for "?name" alone; NULL if absent. */
const char *net_request_query(const net_request *request, const char *name);
/* A header the route asked for (name as given there); NULL if absent or too long. */
const char *net_request_header(const net_request *request, const char *name);
/* The body (NUL-terminated after *len bytes; "" when none). */
const char *net_request_body(const net_request *request, size_t *len);
/* The client's address, as net_conn_peer gives it. */
const char *net_request_peer(const net_request *request);
/* The client reached us over TLS: ours, or a trusted proxy's saying X-Forwarded-Proto: https. */
bool net_request_secure(const net_request *request);
/* The client is known to have gone away: the answer will be dropped. lws learns it when it
 * next reads or writes the socket; a client that leaves while its request waits for a whole
 * answer may only be found gone when that answer is written (and dropped). */
bool net_request_gone(const net_request *request);
void net_request_set_data(net_request *request, void *data);
void *net_request_data(const net_request *request);

/* Adds a response header ("set-cookie", "value") before the answer begins; false when the
 * room (NET_RESPONSE_HEADERS_CAP) is used up or the text holds a line break. */
bool net_response_header(net_request *request, const char *name, const char *value);

/* The whole answer (body copied); the request is the application's no more. */
void net_respond(net_request *request, unsigned status, const char *content_type, const char *body,
                 size_t len);

/* A streamed answer: its status and type, then chunks, then the end. */
void net_stream_begin(net_request *request, unsigned status, const char *content_type);
bool net_stream_write(net_request *request, const char *data, size_t len);
size_t net_stream_queued(const net_request *request);
void net_stream_end(net_request *request); /* the request is the application's no more */

/*
 * Shutdown in two steps, on a foreign loop as libwebsockets 4.1 requires: net_stop() stops
 * accepting and starts closing every connection; after uv_run() has returned, net_destroy()
 * finishes the teardown (the caller then runs the loop once more before uv_loop_close()).
 *
 * In detail: net_stop() refuses new WebSockets, sends every open one a close frame (1001, going
 * away) and gives the peers up to two seconds to answer before libwebsockets' own teardown cuts
 * what is left. Every on_close has been called by the time uv_run() returns; no handler is
 * called after that. net_stop() may be called more than once.
 */
void net_stop(net_server *server);
void net_destroy(net_server *server);

#endif
