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

/* Copies a header's value (name without the colon, case-insensitive); false if absent. */
bool http_header(const http_response *response, const char *name, char *out, size_t cap);

void http_response_free(http_response *response);

#endif
