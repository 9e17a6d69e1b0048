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
