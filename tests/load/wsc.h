/*
 * wsc — the client side of WebSocket (RFC 6455) as pure functions, for the load generator:
 * the opening handshake (request and the check of the server's 101 answer), masked frames
 * out, and a decoder for the server's unmasked frames that joins fragments and reports pings
 * and closes. No I/O and no clock: the caller owns the sockets, so one process can drive
 * thousands of connections on one loop.
 */
#ifndef WSC_H
#define WSC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    WSC_OP_CONTINUATION = 0x0,
    WSC_OP_TEXT = 0x1,
    WSC_OP_BINARY = 0x2,
    WSC_OP_CLOSE = 0x8,
    WSC_OP_PING = 0x9,
    WSC_OP_PONG = 0xA,
};

#define WSC_KEY_LEN 24          /* base64 of 16 random bytes */
#define WSC_MAX_HEADER 14       /* the longest client frame header: 2 + 8 length + 4 mask */
#define WSC_MAX_MESSAGE (1u << 20) /* a bigger message from the server is a protocol error */

/* Writes the GET request for ws://host:port/path with the given key (WSC_KEY_LEN characters,
 * see wsc_make_key). Returns its length, or 0 if it does not fit in cap. */
size_t wsc_handshake_request(char *out, size_t cap, const char *host, int port, const char *path,
                             const char *key);

/* Encodes 16 bytes of randomness as a Sec-WebSocket-Key (WSC_KEY_LEN characters + NUL). */
void wsc_make_key(const unsigned char random[16], char key[WSC_KEY_LEN + 1]);

/* The Sec-WebSocket-Accept value the server must answer to key (28 characters + NUL). */
void wsc_accept_for_key(const char *key, char accept[29]);

typedef enum wsc_handshake_result {
    WSC_HANDSHAKE_INCOMPLETE, /* the header block has not all arrived yet */
    WSC_HANDSHAKE_OK,         /* 101 with the right accept value; *header_len bytes were the head */
    WSC_HANDSHAKE_REFUSED,    /* any other answer */
} wsc_handshake_result;

/* Looks at what the server has sent so far in answer to a request made with key. */
wsc_handshake_result wsc_handshake_check(const char *in, size_t len, const char *key,
                                         size_t *header_len);

/* Writes one masked frame (fin set) of the given opcode and payload into out, which must have
 * room for len + WSC_MAX_HEADER bytes. Returns the frame's length. */
size_t wsc_encode(unsigned char *out, int opcode, const void *payload, size_t len, uint32_t mask);

typedef enum wsc_result {
    WSC_NEED_MORE, /* no whole frame left in the input: keep the rest and read more */
    WSC_MESSAGE,   /* a whole text (or binary) message, fragments joined */
    WSC_PING,      /* answer with a pong carrying the same payload */
    WSC_CLOSE,     /* the server's close frame; close_code is its status (1005 if none) */
    WSC_ERROR,     /* the server broke the protocol; drop the connection */
} wsc_result;

/* Per-connection decoder state: only a fragmented message in progress needs memory. */
typedef struct wsc_decoder {
    unsigned char *joined; /* the fragments of the current message so far, or NULL */
    size_t joined_len, joined_cap;
    bool in_message;       /* a first fragment has come and its final one has not */
    int message_opcode;
} wsc_decoder;

typedef struct wsc_output {
    int opcode;          /* of a WSC_MESSAGE: WSC_OP_TEXT or WSC_OP_BINARY */
    const unsigned char *data; /* payload of the message, ping or close reason */
    size_t len;
    uint16_t close_code;
    const char *error;   /* what was wrong, for WSC_ERROR */
} wsc_output;

/*
 * Decodes frames from in[0..len) until one of them has something to report. *used is how many
 * bytes were consumed (frames that needed no report, such as pongs or the first fragments of a
 * message, are consumed silently). out->data points into in or into the decoder and stays valid
 * until the next call with this decoder.
 */
wsc_result wsc_decode(wsc_decoder *d, const unsigned char *in, size_t len, size_t *used,
                      wsc_output *out);

/* Frees what the decoder holds. */
void wsc_decoder_free(wsc_decoder *d);

#endif
