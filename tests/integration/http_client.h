/*
 * http_client — one blocking HTTP/1.1 GET for integration tests, with the request path sent
 * exactly as given (no normalisation), so tests can try "/../" and friends.
 */
#ifndef HTTP_CLIENT_H
#define HTTP_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct http_response {
    int status;    /* 0 if no status line arrived */
    char *head;    /* status line and headers, NUL-terminated */
    char *body;    /* NUL-terminated; body_len excludes the NUL */
    size_t body_len;
} http_response;

/* Sends "GET raw_path" with Connection: close and reads the whole answer; false on a socket
 * failure or timeout. Free the response with http_response_free() either way. */
bool http_get(const char *host, int port, const char *raw_path, int timeout_ms,
              http_response *response);

typedef struct http_options {
    const char *source_address; /* connect from this local address (NULL: any) */
    const char *headers;        /* more header lines, each ending in "\r\n" (NULL: none) */
} http_options;

/* http_get with options (options may be NULL). */
bool http_get_with(const char *host, int port, const char *raw_path,
                   const http_options *options, int timeout_ms, http_response *response);

/* Any method, with an optional body (sent with its Content-Length); options may be NULL. */
bool http_request(const char *host, int port, const char *method, const char *raw_path,
                  const http_options *options, const char *body, size_t body_len,
                  int timeout_ms, http_response *response);

/* Opens a TCP connection to host:port, from source_address if not NULL; -1 on failure. Shared
 * with ws_client. */
int http_connect_tcp(const char *host, int port, const char *source_address, int timeout_ms);

/* Copies a header's value (name without the colon, case-insensitive); false if absent. */
bool http_header(const http_response *response, const char *name, char *out, size_t cap);

void http_response_free(http_response *response);

#endif
