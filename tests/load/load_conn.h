/*
 * load_conn — one non-blocking WebSocket client connection on a libuv loop, for the load
 * generator: TCP connect, the opening handshake, masked text frames out, whole messages in
 * (fragments joined by wsc), pings answered, the server's close answered.
 *
 * An idle connection holds no buffer: reads go into one buffer shared by every connection of
 * the loop (the loop is single-threaded and each read is consumed before the next), and only
 * the tail of a frame cut by the read boundary is kept per connection. Sends try the socket
 * first and queue a copy only if it is full.
 */
#ifndef LOAD_CONN_H
#define LOAD_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#include "wsc.h"

typedef struct load_conn load_conn;
typedef struct load_net load_net;

typedef struct load_conn_handlers {
    /* The handshake succeeded: the connection may send. */
    void (*on_open)(load_conn *conn);
    /* One whole text message (not NUL-terminated; valid during the call). */
    void (*on_message)(load_conn *conn, const char *text, size_t len);
    /* The connection is gone (never opened, closed by either side, or broken); why says how.
     * Called once its handle is closed, so the owner may free conn here. */
    void (*on_closed)(load_conn *conn, const char *why);
} load_conn_handlers;

typedef enum load_conn_state {
    LOAD_CONN_IDLE,
    LOAD_CONN_CONNECTING,
    LOAD_CONN_HANDSHAKE,
    LOAD_CONN_OPEN,
    LOAD_CONN_CLOSING,   /* our close frame is out, or the server's came: waiting for EOF */
    LOAD_CONN_CLOSED,
} load_conn_state;

struct load_conn {
    uv_tcp_t tcp;
    struct load_net *net;
    uv_connect_t connect_req;
    const load_conn_handlers *handlers;
    void *user;                 /* the owner's pointer */
    load_conn_state state;
    char key[WSC_KEY_LEN + 1];
    unsigned char *pending;     /* received bytes not yet a whole frame (or handshake head) */
    size_t pending_len;
    wsc_decoder decoder;
    const char *close_why;      /* why the connection ended, for on_closed */
    uint64_t pings;             /* pings received from the server */
    bool close_sent;
};

/* Per-loop shared state: the read buffer and the masking-key generator. */
struct load_net {
    uv_loop_t *loop;
    struct sockaddr_storage addr;
    char host[64];
    int port;
    unsigned char *read_buffer;
    size_t read_buffer_size;
    uint64_t rng;
    uint64_t bytes_in, bytes_out, frames_out;
    /* With n_sources > 0 (IPv4 loopback only), connection k binds to the k-th of n_sources
     * addresses 127.<1 + i/250>.<i%250 + 1>.<from>, so the server sees many clients rather
     * than one address: its per-address limits then apply as they would to real players. */
    int n_sources;
    int source_octet;
    uint64_t started;
};

/* Prepares the shared state for connections to host:port (an IPv4 or IPv6 literal). */
bool load_net_init(load_net *net, uv_loop_t *loop, const char *host, int port);
/* Spreads the connections made from now on over n loopback source addresses ending in octet. */
void load_net_spread(load_net *net, int n, int octet);
void load_net_free(load_net *net);

/* Starts connecting; the outcome always arrives as on_open or on_closed (on_closed also when
 * the socket cannot even be created, e.g. out of file descriptors). */
void load_conn_start(load_net *net, load_conn *conn, const load_conn_handlers *handlers,
                     void *user);

/* Sends one text message; false if the connection is not open or the write failed. */
bool load_conn_send_text(load_conn *conn, const char *text, size_t len);

/* Starts an orderly close (our close frame, then wait for the server to hang up); a
 * connection not yet open is closed at once. */
void load_conn_close(load_conn *conn, uint16_t code);

/* Closes the socket at once, without a close frame. */
void load_conn_abort(load_conn *conn, const char *why);

#endif
