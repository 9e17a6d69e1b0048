/*
 * wsc — the client side of WebSocket as pure functions. See wsc.h.
 *
 * The handshake check computes Sec-WebSocket-Accept (SHA-1 of the key and the RFC's GUID, in
 * base64), so a server that answers 101 to anything would be caught. SHA-1 is written out here
 * from FIPS 180-4 because neither libuv nor libsodium offers it and the load tool should not
 * need OpenSSL for one hash per connection.
 */
#include "wsc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define WSC_GUID "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

/* ---- SHA-1 and base64 -------------------------------------------------------------------- */

static uint32_t rotate_left(uint32_t x, int n)
{
    return (x << n) | (x >> (32 - n));
}

static void sha1_block(uint32_t h[5], const unsigned char block[64])
{
    uint32_t w[80];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 |
               (uint32_t)block[4 * i + 2] << 8 | (uint32_t)block[4 * i + 3];
    for (int i = 16; i < 80; i++)
        w[i] = rotate_left(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);

    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; i++) {
        uint32_t f, k;
        if (i < 20) {
            f = (b & c) | (~b & d);
            k = 0x5A827999u;
        } else if (i < 40) {
            f = b ^ c ^ d;
            k = 0x6ED9EBA1u;
        } else if (i < 60) {
            f = (b & c) | (b & d) | (c & d);
            k = 0x8F1BBCDCu;
        } else {
            f = b ^ c ^ d;
            k = 0xCA62C1D6u;
        }
        uint32_t t = rotate_left(a, 5) + f + e + k + w[i];
        e = d;
        d = c;
        c = rotate_left(b, 30);
        b = a;
        a = t;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
}

static void sha1(const unsigned char *data, size_t len, unsigned char digest[20])
{
    uint32_t h[5] = {0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u, 0xC3D2E1F0u};
    size_t full = len - len % 64;
    for (size_t i = 0; i < full; i += 64)
        sha1_block(h, data + i);

    /* The tail, the 0x80 marker and the length in bits: one block, or two if it overflows. */
    unsigned char tail[128] = {0};
    size_t rest = len - full;
    memcpy(tail, data + full, rest);
    tail[rest] = 0x80;
    size_t tail_len = rest + 1 + 8 <= 64 ? 64 : 128;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++)
        tail[tail_len - 1 - (size_t)i] = (unsigned char)(bits >> (8 * i));
    for (size_t i = 0; i < tail_len; i += 64)
        sha1_block(h, tail + i);

    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 4; j++)
            digest[4 * i + j] = (unsigned char)(h[i] >> (24 - 8 * j));
}

/* Standard base64 with padding; out needs 4 * ceil(len / 3) + 1 bytes. */
static void base64(const unsigned char *in, size_t len, char *out)
{
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < len; i += 3) {
        uint32_t group = (uint32_t)in[i] << 16;
        if (i + 1 < len)
            group |= (uint32_t)in[i + 1] << 8;
        if (i + 2 < len)
            group |= in[i + 2];
        out[o++] = alphabet[group >> 18 & 63];
        out[o++] = alphabet[group >> 12 & 63];
        out[o++] = i + 1 < len ? alphabet[group >> 6 & 63] : '=';
        out[o++] = i + 2 < len ? alphabet[group & 63] : '=';
    }
    out[o] = '\0';
}

/* ---- handshake --------------------------------------------------------------------------- */

void wsc_make_key(const unsigned char random[16], char key[WSC_KEY_LEN + 1])
{
    base64(random, 16, key);
}

void wsc_accept_for_key(const char *key, char accept[29])
{
    char joined[128];
    int n = snprintf(joined, sizeof joined, "%s%s", key, WSC_GUID);
    unsigned char digest[20];
    sha1((const unsigned char *)joined, n > 0 ? (size_t)n : 0, digest);
    base64(digest, sizeof digest, accept);
}

size_t wsc_handshake_request(char *out, size_t cap, const char *host, int port, const char *path,
                             const char *key)
{
    int n = snprintf(out, cap,
                     "GET %s HTTP/1.1\r\n"
                     "Host: %s:%d\r\n"
                     "Upgrade: websocket\r\n"
                     "Connection: Upgrade\r\n"
                     "Sec-WebSocket-Key: %s\r\n"
                     "Sec-WebSocket-Version: 13\r\n"
                     "\r\n",
                     path, host, port, key);
    return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

/* The value of header `name` in the head (case-insensitive name, trimmed value). */
static bool header_value(const char *head, size_t head_len, const char *name, char *out,
                         size_t cap)
{
    size_t name_len = strlen(name);
    const char *line = memchr(head, '\n', head_len); /* skip the status line */
    const char *end = head + head_len;
    while (line != NULL && line + 1 < end) {
        line++;
        const char *eol = memchr(line, '\n', (size_t)(end - line));
        if (eol == NULL)
            eol = end;
        if ((size_t)(eol - line) > name_len && line[name_len] == ':' &&
            strncasecmp(line, name, name_len) == 0) {
            const char *v = line + name_len + 1;
            while (v < eol && (*v == ' ' || *v == '\t'))
                v++;
            const char *v_end = eol;
            while (v_end > v && isspace((unsigned char)v_end[-1]))
                v_end--;
            size_t n = (size_t)(v_end - v);
            if (n >= cap)
                return false;
            memcpy(out, v, n);
            out[n] = '\0';
            return true;
        }
        line = eol < end ? eol : NULL;
    }
    return false;
}

static const char *find_head_end(const char *in, size_t len)
{
    for (size_t i = 0; i + 4 <= len; i++)
        if (in[i] == '\r' && memcmp(in + i, "\r\n\r\n", 4) == 0)
            return in + i + 4;
    return NULL;
}

wsc_handshake_result wsc_handshake_check(const char *in, size_t len, const char *key,
                                         size_t *header_len)
{
    const char *end = find_head_end(in, len);
    if (end == NULL)
        return len > 8192 ? WSC_HANDSHAKE_REFUSED : WSC_HANDSHAKE_INCOMPLETE;
    *header_len = (size_t)(end - in);
    static const char status[] = "HTTP/1.1 101";
    if (*header_len < sizeof status || memcmp(in, status, sizeof status - 1) != 0)
        return WSC_HANDSHAKE_REFUSED;
    char expected[29], got[64];
    wsc_accept_for_key(key, expected);
    if (!header_value(in, *header_len, "Sec-WebSocket-Accept", got, sizeof got) ||
        strcmp(got, expected) != 0)
        return WSC_HANDSHAKE_REFUSED;
    return WSC_HANDSHAKE_OK;
}

/* ---- frames out -------------------------------------------------------------------------- */

size_t wsc_encode(unsigned char *out, int opcode, const void *payload, size_t len, uint32_t mask)
{
    size_t h = 0;
    out[h++] = (unsigned char)(0x80 | (opcode & 0x0f));
    if (len < 126) {
        out[h++] = (unsigned char)(0x80 | len);
    } else if (len <= 0xffff) {
        out[h++] = 0x80 | 126;
        out[h++] = (unsigned char)(len >> 8);
        out[h++] = (unsigned char)len;
    } else {
        out[h++] = 0x80 | 127;
        for (int i = 7; i >= 0; i--)
            out[h++] = (unsigned char)((uint64_t)len >> (8 * i));
    }
    unsigned char key[4] = {(unsigned char)(mask >> 24), (unsigned char)(mask >> 16),
                            (unsigned char)(mask >> 8), (unsigned char)mask};
    memcpy(out + h, key, 4);
    h += 4;
    const unsigned char *p = payload;
    for (size_t i = 0; i < len; i++)
        out[h + i] = p[i] ^ key[i & 3];
    return h + len;
}

/* ---- frames in --------------------------------------------------------------------------- */

typedef struct frame_header {
    bool fin;
    int opcode;
    size_t header_len;
    uint64_t payload_len;
} frame_header;

/* Reads a frame header; false if it has not all arrived. Sets out->error for a broken one. */
static bool read_header(const unsigned char *in, size_t len, frame_header *h, wsc_output *out)
{
    if (len < 2)
        return false;
    h->fin = (in[0] & 0x80) != 0;
    h->opcode = in[0] & 0x0f;
    if ((in[0] & 0x70) != 0)
        out->error = "reserved bits set (no extension was agreed)";
    if ((in[1] & 0x80) != 0)
        out->error = "a server frame is masked";
    uint64_t n = in[1] & 0x7f;
    size_t h_len = 2;
    if (n == 126) {
        if (len < 4)
            return false;
        n = (uint64_t)in[2] << 8 | in[3];
        h_len = 4;
    } else if (n == 127) {
        if (len < 10)
            return false;
        n = 0;
        for (int i = 0; i < 8; i++)
            n = n << 8 | in[2 + i];
        h_len = 10;
    }
    h->header_len = h_len;
    h->payload_len = n;
    if (n > WSC_MAX_MESSAGE)
        out->error = "frame larger than the client accepts";
    if (h->opcode >= WSC_OP_CLOSE && (!h->fin || n > 125)) /* said at once, not after 2^63 bytes */
        out->error = "fragmented or oversized control frame";
    return true;
}

static bool append_fragment(wsc_decoder *d, const unsigned char *data, size_t len)
{
    if (d->joined_len + len > WSC_MAX_MESSAGE)
        return false;
    if (d->joined_len + len > d->joined_cap) {
        size_t cap = d->joined_cap ? d->joined_cap * 2 : 4096;
        while (cap < d->joined_len + len)
            cap *= 2;
        unsigned char *grown = realloc(d->joined, cap);
        if (grown == NULL)
            return false;
        d->joined = grown;
        d->joined_cap = cap;
    }
    memcpy(d->joined + d->joined_len, data, len);
    d->joined_len += len;
    return true;
}

/* A control frame: pings and closes are reported, pongs are swallowed (returns NEED_MORE). */
static wsc_result control_frame(const frame_header *h, const unsigned char *payload,
                                wsc_output *out)
{
    out->data = payload;
    out->len = (size_t)h->payload_len;
    switch (h->opcode) {
    case WSC_OP_PING:
        return WSC_PING;
    case WSC_OP_PONG:
        return WSC_NEED_MORE;
    default: /* close */
        if (h->payload_len == 1) {
            out->error = "close frame with a one-byte payload";
            return WSC_ERROR;
        }
        out->close_code = h->payload_len >= 2 ? (uint16_t)(payload[0] << 8 | payload[1]) : 1005;
        out->data = payload + (h->payload_len >= 2 ? 2 : 0);
        out->len = h->payload_len >= 2 ? (size_t)h->payload_len - 2 : 0;
        return WSC_CLOSE;
    }
}

/* A text, binary or continuation frame. */
static wsc_result data_frame(wsc_decoder *d, const frame_header *h, const unsigned char *payload,
                             wsc_output *out)
{
    size_t len = (size_t)h->payload_len;
    if (h->opcode != WSC_OP_CONTINUATION) {
        if (d->in_message) {
            out->error = "a new message began before the last one ended";
            return WSC_ERROR;
        }
        if (h->fin) { /* the common case: the whole message in one frame, no copy */
            out->opcode = h->opcode;
            out->data = payload;
            out->len = len;
            return WSC_MESSAGE;
        }
        d->in_message = true;
        d->message_opcode = h->opcode;
        d->joined_len = 0;
    } else if (!d->in_message) {
        out->error = "continuation frame outside a message";
        return WSC_ERROR;
    }
    if (!append_fragment(d, payload, len)) {
        out->error = "fragmented message too large";
        return WSC_ERROR;
    }
    if (!h->fin)
        return WSC_NEED_MORE;
    d->in_message = false;
    out->opcode = d->message_opcode;
    out->data = d->joined;
    out->len = d->joined_len;
    return WSC_MESSAGE;
}

wsc_result wsc_decode(wsc_decoder *d, const unsigned char *in, size_t len, size_t *used,
                      wsc_output *out)
{
    memset(out, 0, sizeof *out);
    *used = 0;
    /* The last joined message has been handed out: an idle connection keeps no buffer. */
    if (!d->in_message && d->joined != NULL) {
        free(d->joined);
        d->joined = NULL;
        d->joined_len = d->joined_cap = 0;
    }
    for (;;) {
        frame_header h;
        if (!read_header(in + *used, len - *used, &h, out))
            return WSC_NEED_MORE;
        if (out->error != NULL)
            return WSC_ERROR;
        if (len - *used - h.header_len < h.payload_len)
            return WSC_NEED_MORE;
        const unsigned char *payload = in + *used + h.header_len;
        *used += h.header_len + (size_t)h.payload_len;

        wsc_result r;
        switch (h.opcode) {
        case WSC_OP_CONTINUATION:
        case WSC_OP_TEXT:
        case WSC_OP_BINARY:
            r = data_frame(d, &h, payload, out);
            break;
        case WSC_OP_CLOSE:
        case WSC_OP_PING:
        case WSC_OP_PONG:
            r = control_frame(&h, payload, out);
            break;
        default:
            out->error = "unknown opcode";
            return WSC_ERROR;
        }
        if (r != WSC_NEED_MORE)
            return r;
    }
}

void wsc_decoder_free(wsc_decoder *d)
{
    free(d->joined);
    memset(d, 0, sizeof *d);
}
