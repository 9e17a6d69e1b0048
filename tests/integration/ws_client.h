/*
 * ws_client — a small blocking WebSocket client (RFC 6455) for tests against the real server.
 *
 * Plain POSIX sockets, one connection per ws_client, every call bounded by a timeout in
 * milliseconds. It can send what a test needs, including what a browser never would: frames
 * split at any point, binary frames, oversized messages. Received fragments are joined; pings
 * are answered automatically (unless switched off, to play a dead peer); a close frame is
 * answered and reported as WS_CLIENT_CLOSED.
 */
#ifndef WS_CLIENT_H
#define WS_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    WS_OP_CONTINUATION = 0x0,
    WS_OP_TEXT = 0x1,
    WS_OP_BINARY = 0x2,
    WS_OP_CLOSE = 0x8,
    WS_OP_PING = 0x9,
    WS_OP_PONG = 0xA,
};

typedef enum ws_client_result {
    WS_CLIENT_OK = 0,
    WS_CLIENT_TIMEOUT = 1,   /* nothing complete arrived in time */
    WS_CLIENT_CLOSED = 2,    /* the server sent a close frame (close_code says which) */
    WS_CLIENT_EOF = 3,       /* the TCP connection ended without a close frame */
    WS_CLIENT_ERROR = -1,    /* socket error or protocol violation by the server */
} ws_client_result;

typedef struct ws_client ws_client;

/* One received message; data is NUL-terminated and owned by the client until the next recv. */
typedef struct ws_message {
    int opcode;          /* WS_OP_TEXT or WS_OP_BINARY */
    const char *data;
    size_t len;
} ws_message;

/* Opens ws://host:port/path; NULL on failure with the reason in error. */
ws_client *ws_client_connect(const char *host, int port, const char *path, int timeout_ms,
                             char *error, size_t error_cap);

typedef struct ws_client_options {
    const char *source_address; /* connect from this local address (NULL: any) */
    const char *headers;        /* more handshake header lines, each ending in "\r\n" (NULL) */
} ws_client_options;

/* ws_client_connect with options (may be NULL). A refused upgrade's status line is in error
 * ("upgrade refused: HTTP/1.1 403 Forbidden"). */
ws_client *ws_client_connect_with(const char *host, int port, const char *path,
                                  const ws_client_options *options, int timeout_ms, char *error,
                                  size_t error_cap);

/* One whole text message in one frame. */
ws_client_result ws_client_send_text(ws_client *client, const char *text, size_t len);

/* One frame exactly as given (fin bit, opcode, payload); masked as a client must. */
ws_client_result ws_client_send_frame(ws_client *client, int opcode, bool fin, const void *data,
                                      size_t len);

/* Waits for the next text or binary message; control frames are handled on the way. */
ws_client_result ws_client_recv(ws_client *client, ws_message *message, int timeout_ms);

/* Close code of the server's close frame once recv returned WS_CLIENT_CLOSED (0 if none). */
uint16_t ws_client_close_code(const ws_client *client);

/* Reason text of that close frame, NUL-terminated ("" if none). */
const char *ws_client_close_reason(const ws_client *client);

/* Number of pings received from the server so far. */
unsigned ws_client_pings_seen(const ws_client *client);

/* When off, pings are counted but not answered (a peer that looks alive to TCP only). */
void ws_client_set_auto_pong(ws_client *client, bool on);

/* Sends a close frame, waits up to timeout_ms for the server's answer, frees the client.
 * Returns WS_CLIENT_OK if the server answered the close. */
ws_client_result ws_client_close(ws_client *client, uint16_t code, int timeout_ms);

/* Drops the TCP connection at once (RST, no close frame) and frees the client. */
void ws_client_abort(ws_client *client);

/* The socket, for tests that want to poll it themselves. */
int ws_client_fd(const ws_client *client);

#endif
