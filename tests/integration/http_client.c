/*
 * http_client — a minimal blocking HTTP/1.1 client for integration tests. See http_client.h.
 */
#include "http_client.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Binds fd to source (an address of the same family as the destination) before connecting. */
static bool bind_source(int fd, int family, const char *source)
{
    struct addrinfo hints = {.ai_family = family, .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_NUMERICHOST};
    struct addrinfo *found = NULL;
    if (getaddrinfo(source, "0", &hints, &found) != 0)
        return false;
    bool ok = bind(fd, found->ai_addr, found->ai_addrlen) == 0;
    freeaddrinfo(found);
    return ok;
}

int http_connect_tcp(const char *host, int port, const char *source_address, int timeout_ms)
{
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    struct addrinfo *found = NULL;
    if (getaddrinfo(host, service, &hints, &found) != 0)
        return -1;
    int fd = -1;
    for (struct addrinfo *ai = found; ai && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0)
            continue;
        struct timeval tv = {.tv_sec = timeout_ms / 1000, .tv_usec = (timeout_ms % 1000) * 1000};
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
        if ((source_address && !bind_source(fd, ai->ai_family, source_address)) ||
            connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(found);
    return fd;
}

/* Reads until the server closes or the deadline passes; the data is NUL-terminated. */
static bool read_all(int fd, long long deadline, char **data, size_t *len)
{
    size_t cap = 8192;
    *len = 0;
    *data = malloc(cap);
    if (!*data)
        return false;
    for (;;) {
        int wait = (int)(deadline - now_ms());
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        if (wait <= 0 || poll(&pfd, 1, wait) <= 0)
            return false;
        if (*len + 4096 + 1 > cap) {
            char *grown = realloc(*data, cap * 2);
            if (!grown)
                return false;
            *data = grown;
            cap *= 2;
        }
        ssize_t n = recv(fd, *data + *len, cap - *len - 1, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno != ECONNRESET)
            return false;
        if (n <= 0)
            break;
        *len += (size_t)n;
    }
    (*data)[*len] = '\0';
    return true;
}

bool http_get(const char *host, int port, const char *raw_path, int timeout_ms,
              http_response *response)
{
    return http_get_with(host, port, raw_path, NULL, timeout_ms, response);
}

bool http_get_with(const char *host, int port, const char *raw_path,
                   const http_options *options, int timeout_ms, http_response *response)
{
    return http_request(host, port, "GET", raw_path, options, NULL, 0, timeout_ms, response);
}

bool http_request(const char *host, int port, const char *method, const char *raw_path,
                  const http_options *options, const char *body, size_t body_len,
                  int timeout_ms, http_response *response)
{
    memset(response, 0, sizeof *response);
    int fd = http_connect_tcp(host, port, options ? options->source_address : NULL, timeout_ms);
    if (fd < 0)
        return false;

    char request[8192], length[64] = "";
    if (body)
        snprintf(length, sizeof length, "Content-Length: %zu\r\n", body_len);
    int n = snprintf(request, sizeof request,
                     "%s %s HTTP/1.1\r\nHost: %s:%d\r\n%s%sConnection: close\r\n\r\n", method,
                     raw_path, host, port, options && options->headers ? options->headers : "",
                     length);
    bool ok = n > 0 && (size_t)n < sizeof request &&
              send(fd, request, (size_t)n, MSG_NOSIGNAL) == (ssize_t)n;
    if (ok && body && body_len)
        ok = send(fd, body, body_len, MSG_NOSIGNAL) == (ssize_t)body_len;
    char *data = NULL;
    size_t len = 0;
    ok = ok && read_all(fd, now_ms() + timeout_ms, &data, &len);
    close(fd);
    if (!ok) {
        free(data);
        return false;
    }

    char *split = strstr(data, "\r\n\r\n");
    size_t head_len = split ? (size_t)(split - data) : len;
    size_t body_start = split ? head_len + 4 : len;
    response->head = strndup(data, head_len);
    response->body_len = len - body_start;
    response->body = malloc(response->body_len + 1);
    if (response->body) {
        memcpy(response->body, data + body_start, response->body_len);
        response->body[response->body_len] = '\0';
    }
    free(data);
    if (!response->head || !response->body)
        return false;
    if (sscanf(response->head, "HTTP/1.%*d %d", &response->status) != 1)
        response->status = 0;
    return true;
}

bool http_header(const http_response *response, const char *name, char *out, size_t cap)
{
    size_t name_len = strlen(name);
    for (const char *line = response->head; line; line = strstr(line, "\r\n")) {
        if (line[0] == '\r')
            line += 2;
        if (strncasecmp(line, name, name_len) == 0 && line[name_len] == ':') {
            const char *value = line + name_len + 1;
            while (*value == ' ')
                value++;
            size_t len = strcspn(value, "\r\n");
            if (len >= cap)
                return false;
            memcpy(out, value, len);
            out[len] = '\0';
            return true;
        }
    }
    return false;
}

void http_response_free(http_response *response)
{
    free(response->head);
    free(response->body);
    memset(response, 0, sizeof *response);
}
