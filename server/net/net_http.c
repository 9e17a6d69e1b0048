/*
 * net_http — the application's HTTP routes: taking a request (its path, query, the headers its
 * route asked for, its body), handing it over, and writing the answer the application gives
 * whenever it gives it. See net.h ("HTTP routes") for the contract and net_http.h for how net.c
 * drives this file.
 *
 * An answer is a queue of chunks with lws's header room in front. The headers go out in one
 * WRITEABLE turn and each chunk in one more (lws's rule: one lws_write per turn), so a slow
 * reader holds only what the application queued, and a stream learns through on_writable when
 * its queue is empty again. lws calls WRITEABLE only once what it buffered itself has gone, which
 * is what makes that signal a real measure of the client's reading.
 *
 * A whole answer carries Content-Length and leaves the connection open for the next request
 * (lws_http_transaction_completed). A stream has no length: it says "connection: close" and its
 * end is the connection's, closed from the WRITEABLE turn after its last chunk, that is once
 * lws has sent everything.
 */
#include "net_http.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "log.h"

#define NET_HTTP_CHUNK (16 * 1024)     /* bytes per lws_write of a body */
#define NET_HTTP_ARGS_MAX 32           /* query parameters kept per request */
#define NET_HTTP_ARG_MAX 1024          /* bytes of one "name=value", decoded */
#define NET_HTTP_HEAD_CAP (LWS_PRE + 4096 + NET_RESPONSE_HEADERS_CAP)

typedef struct net_chunk {
    struct net_chunk *next;
    size_t len;
    unsigned char bytes[]; /* LWS_PRE of room, then len bytes */
} net_chunk;

typedef struct net_route_copy {
    net_route route;                            /* its strings point into the fields below */
    char *method, *prefix;
    char *header_names[NET_ROUTE_HEADERS_MAX + 1];
    size_t n_headers;
} net_route_copy;

struct net_routes {
    net_route_copy routes[NET_ROUTES_MAX];
    size_t n_routes;
    net_request *requests; /* every request not yet freed, to free at net_destroy */
};

struct net_request {
    net_routes *routes;
    const net_route_copy *route;
    net_request *prev, *next;
    struct lws *wsi;       /* NULL once the client is gone */
    net_request **slot;    /* the session's pointer to us; NULL once the client is gone */
    void *data;

    char method[8];
    char *path;
    char *args[NET_HTTP_ARGS_MAX]; /* "name=value" (or "name"), decoded */
    size_t n_args;
    char *headers[NET_ROUTE_HEADERS_MAX]; /* values, by the route's header index */
    char peer[64];
    bool secure;

    char *body;
    size_t body_len;
    bool body_too_large;
    bool handed;           /* on_request has been called */

    /* The answer. */
    bool begun;            /* status and type set (net_respond or net_stream_begin) */
    bool streaming;
    bool ended;            /* net_respond or net_stream_end: the application let go */
    bool headers_sent;
    bool end_written;      /* a stream's last chunk is out: close on the next turn */
    bool gone_told;        /* a stream's on_writable for the client's going was called */
    unsigned status;
    char content_type[128];
    char extra[NET_RESPONSE_HEADERS_CAP]; /* "name:\0value\0" pairs */
    size_t extra_len;
    size_t content_length;
    net_chunk *head, *tail;
    size_t queued;
};

/* ---- routes ------------------------------------------------------------------------------ */

net_routes *net_routes_new(void)
{
    return calloc(1, sizeof(net_routes));
}

static void free_chunks(net_request *request)
{
    net_chunk *chunk = request->head;
    while (chunk) {
        net_chunk *next = chunk->next;
        free(chunk);
        chunk = next;
    }
    request->head = request->tail = NULL;
    request->queued = 0;
}

static void request_free(net_request *request)
{
    if (request->slot)
        *request->slot = NULL;
    if (request->prev)
        request->prev->next = request->next;
    else
        request->routes->requests = request->next;
    if (request->next)
        request->next->prev = request->prev;
    free_chunks(request);
    free(request->path);
    for (size_t i = 0; i < request->n_args; i++)
        free(request->args[i]);
    for (size_t i = 0; i < NET_ROUTE_HEADERS_MAX; i++)
        free(request->headers[i]);
    free(request->body);
    free(request);
}

void net_routes_free(net_routes *routes)
{
    if (!routes)
        return;
    while (routes->requests) {
        log_warn("net: a request to %s was never answered", routes->requests->path);
        request_free(routes->requests);
    }
    for (size_t i = 0; i < routes->n_routes; i++) {
        net_route_copy *copy = &routes->routes[i];
        free(copy->method);
        free(copy->prefix);
        for (size_t h = 0; h < copy->n_headers; h++)
            free(copy->header_names[h]);
    }
    free(routes);
}

static bool method_known(const char *method)
{
    static const char *const known[] = {"GET", "POST", "PUT", "DELETE", "PATCH"};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(method, known[i]) == 0)
            return true;
    return false;
}

bool net_routes_add(net_routes *routes, const net_route *route)
{
    if (routes->n_routes == NET_ROUTES_MAX || !route->method || !method_known(route->method) ||
        !route->prefix || route->prefix[0] != '/' || !route->on_request)
        return false;
    net_route_copy *copy = &routes->routes[routes->n_routes];
    memset(copy, 0, sizeof *copy);
    copy->route = *route;
    copy->method = strdup(route->method);
    copy->prefix = strdup(route->prefix);
    bool ok = copy->method && copy->prefix;
    for (size_t i = 0; ok && route->headers && route->headers[i]; i++) {
        ok = i < NET_ROUTE_HEADERS_MAX && strlen(route->headers[i]) < 64 &&
             (copy->header_names[i] = strdup(route->headers[i])) != NULL;
        if (ok)
            copy->n_headers = i + 1;
    }
    if (!ok) {
        free(copy->method);
        free(copy->prefix);
        for (size_t h = 0; h < copy->n_headers; h++)
            free(copy->header_names[h]);
        memset(copy, 0, sizeof *copy);
        return false;
    }
    copy->route.method = copy->method;
    copy->route.prefix = copy->prefix;
    copy->route.headers = (const char *const *)copy->header_names;
    routes->n_routes++;
    return true;
}

/* ---- taking a request -------------------------------------------------------------------- */

/* lws knows the common headers as tokens ("cookie:"); the rest it keeps as custom headers. */
static char *copy_header(struct lws *wsi, const char *name)
{
    char wanted[72];
    snprintf(wanted, sizeof wanted, "%s:", name);
    int len = -1;
    int token = -1;
    for (int t = 0; t < WSI_TOKEN_COUNT; t++) {
        const unsigned char *known = lws_token_to_string((enum lws_token_indexes)t);
        if (known && strcasecmp((const char *)known, wanted) == 0) {
            token = t;
            break;
        }
    }
    if (token >= 0)
        len = lws_hdr_total_length(wsi, (enum lws_token_indexes)token);
    else
        len = lws_hdr_custom_length(wsi, wanted, (int)strlen(wanted));
    if (len < 0 || len >= NET_HEADER_VALUE_MAX)
        return NULL;
    char *value = malloc((size_t)len + 1);
    if (!value)
        return NULL;
    int copied = token >= 0 ? lws_hdr_copy(wsi, value, len + 1, (enum lws_token_indexes)token)
                            : lws_hdr_custom_copy(wsi, value, len + 1, wanted, (int)strlen(wanted));
    if (copied < 0) {
        free(value);
        return NULL;
    }
    value[copied] = '\0';
    return value;
}

static bool copy_request(net_request *request, struct lws *wsi)
{
    char arg[NET_HTTP_ARG_MAX];
    for (int i = 0; request->n_args < NET_HTTP_ARGS_MAX; i++) {
        int n = lws_hdr_copy_fragment(wsi, arg, sizeof arg, WSI_TOKEN_HTTP_URI_ARGS, i);
        if (n < 0)
            break;
        char *copy = strdup(arg);
        if (!copy)
            return false;
        request->args[request->n_args++] = copy;
    }
    for (size_t h = 0; h < request->route->n_headers; h++)
        request->headers[h] = copy_header(wsi, request->route->header_names[h]);
    return true;
}

static const net_route_copy *find_route(const net_routes *routes, const char *method,
                                        const char *path, bool *prefix_known)
{
    *prefix_known = false;
    for (size_t i = 0; i < routes->n_routes; i++) {
        const net_route_copy *copy = &routes->routes[i];
        if (strncmp(path, copy->prefix, strlen(copy->prefix)) != 0)
            continue;
        *prefix_known = true;
        if (strcmp(method, copy->method) == 0)
            return copy;
    }
    return NULL;
}

static int answer_plain(struct lws *wsi, unsigned status)
{
    if (lws_return_http_status(wsi, status, NULL))
        return -1;
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

static void hand_over(net_request *request)
{
    request->handed = true;
    if (request->body_too_large) {
        net_respond(request, 413, "text/plain; charset=utf-8", "request body too large\n", 23);
        return;
    }
    request->route->route.on_request(request->route->route.ctx, request);
}

/* Whether the request announced a body (Content-Length above 0, or chunked): only then does lws
 * report the body's end, after which the request is handed over. */
static bool expects_body(struct lws *wsi)
{
    char value[32] = "";
    if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0)
        return true;
    if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH) <= 0 ||
        lws_hdr_copy(wsi, value, sizeof value, WSI_TOKEN_HTTP_CONTENT_LENGTH) <= 0)
        return false;
    return strtoull(value, NULL, 10) > 0;
}

net_http_taken net_http_take(net_routes *routes, struct lws *wsi, net_request **slot,
                             const char *method, const char *path, const char *peer,
                             bool secure)
{
    bool prefix_known = false;
    const net_route_copy *route = routes ? find_route(routes, method, path, &prefix_known) : NULL;
    if (!route) {
        if (!prefix_known)
            return NET_HTTP_NOT_OURS;
        return answer_plain(wsi, HTTP_STATUS_METHOD_NOT_ALLOWED) ? NET_HTTP_FAILED
                                                                 : NET_HTTP_TAKEN;
    }
    net_request *request = calloc(1, sizeof *request);
    if (!request)
        return NET_HTTP_FAILED;
    request->routes = routes;
    request->route = route;
    request->wsi = wsi;
    request->next = routes->requests;
    if (routes->requests)
        routes->requests->prev = request;
    routes->requests = request;
    snprintf(request->method, sizeof request->method, "%s", method);
    snprintf(request->peer, sizeof request->peer, "%s", peer);
    request->secure = secure;
    request->path = strdup(path);
    if (!request->path || !copy_request(request, wsi)) {
        request_free(request);
        return NET_HTTP_FAILED;
    }
    request->slot = slot;
    *slot = request;
    /* The application may take its time: lws must not time the connection out meanwhile. */
    lws_set_timeout(wsi, NO_PENDING_TIMEOUT, 0);
    if (strcmp(method, "GET") == 0 || strcmp(method, "DELETE") == 0 || !expects_body(wsi))
        hand_over(request); /* nothing to wait for: lws may never report a body that is not there */
    return NET_HTTP_TAKEN;
}

int net_http_body(net_request *request, const void *in, size_t len)
{
    if (request->handed || request->body_too_large)
        return 0;
    size_t max = request->route->route.max_body;
    if (len > max - request->body_len) {
        request->body_too_large = true;
        free(request->body);
        request->body = NULL;
        request->body_len = 0;
        return 0;
    }
    char *grown = realloc(request->body, request->body_len + len + 1);
    if (!grown)
        return -1;
    memcpy(grown + request->body_len, in, len);
    request->body = grown;
    request->body_len += len;
    request->body[request->body_len] = '\0';
    return 0;
}

int net_http_body_done(net_request *request)
{
    if (!request->handed)
        hand_over(request);
    return 0;
}

/* ---- the request, for the application ---------------------------------------------------- */

const char *net_request_method(const net_request *request) { return request->method; }
const char *net_request_path(const net_request *request) { return request->path; }
const char *net_request_peer(const net_request *request) { return request->peer; }
bool net_request_secure(const net_request *request) { return request->secure; }
bool net_request_gone(const net_request *request) { return request->wsi == NULL; }
void net_request_set_data(net_request *request, void *data) { request->data = data; }
void *net_request_data(const net_request *request) { return request->data; }

const char *net_request_query(const net_request *request, const char *name)
{
    size_t name_len = strlen(name);
    for (size_t i = 0; i < request->n_args; i++) {
        const char *arg = request->args[i];
        if (strncmp(arg, name, name_len) != 0)
            continue;
        if (arg[name_len] == '=')
            return arg + name_len + 1;
        if (arg[name_len] == '\0')
            return arg + name_len;
    }
    return NULL;
}

const char *net_request_header(const net_request *request, const char *name)
{
    for (size_t h = 0; h < request->route->n_headers; h++)
        if (strcasecmp(request->route->header_names[h], name) == 0)
            return request->headers[h];
    return NULL;
}

const char *net_request_body(const net_request *request, size_t *len)
{
    *len = request->body_len;
    return request->body ? request->body : "";
}

/* ---- answering --------------------------------------------------------------------------- */

bool net_response_header(net_request *request, const char *name, const char *value)
{
    size_t name_len = strlen(name), value_len = strlen(value);
    if (request->begun || strpbrk(name, "\r\n:") || strpbrk(value, "\r\n") ||
        name_len + value_len + 3 > sizeof request->extra - request->extra_len)
        return false;
    char *p = request->extra + request->extra_len;
    memcpy(p, name, name_len);
    p[name_len] = ':';
    p[name_len + 1] = '\0';
    memcpy(p + name_len + 2, value, value_len + 1);
    request->extra_len += name_len + value_len + 3;
    return true;
}

static bool enqueue(net_request *request, const char *data, size_t len)
{
    while (len > 0) {
        size_t n = len < NET_HTTP_CHUNK ? len : NET_HTTP_CHUNK;
        net_chunk *chunk = malloc(sizeof *chunk + LWS_PRE + n);
        if (!chunk)
            return false;
        chunk->next = NULL;
        chunk->len = n;
        memcpy(chunk->bytes + LWS_PRE, data, n);
        if (request->tail)
            request->tail->next = chunk;
        else
            request->head = chunk;
        request->tail = chunk;
        request->queued += n;
        data += n;
        len -= n;
    }
    return true;
}

static void begin(net_request *request, unsigned status, const char *content_type, bool streaming)
{
    request->begun = true;
    request->streaming = streaming;
    request->status = status;
    snprintf(request->content_type, sizeof request->content_type, "%s",
             content_type ? content_type : "application/octet-stream");
}

void net_respond(net_request *request, unsigned status, const char *content_type, const char *body,
                 size_t len)
{
    if (!request->wsi) {
        request_free(request); /* nobody to tell */
        return;
    }
    if (request->begun) {
        log_error("net: a second answer to %s ignored", request->path);
        return;
    }
    begin(request, status, content_type, false);
    request->content_length = len;
    request->ended = true;
    if (!enqueue(request, body, len)) {
        log_error("net: out of memory answering %s", request->path);
        free_chunks(request);
        request->status = HTTP_STATUS_INTERNAL_SERVER_ERROR;
        request->content_length = 0;
    }
    lws_callback_on_writable(request->wsi);
}

void net_stream_begin(net_request *request, unsigned status, const char *content_type)
{
    if (request->begun)
        return;
    begin(request, status, content_type, true);
    if (request->wsi)
        lws_callback_on_writable(request->wsi);
}

bool net_stream_write(net_request *request, const char *data, size_t len)
{
    if (!request->wsi || !request->streaming || request->ended)
        return false;
    if (!enqueue(request, data, len)) {
        log_error("net: out of memory streaming %s; cutting it", request->path);
        lws_set_timeout(request->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
        return false;
    }
    lws_callback_on_writable(request->wsi);
    return true;
}

size_t net_stream_queued(const net_request *request)
{
    return request->queued;
}

void net_stream_end(net_request *request)
{
    if (!request->wsi) {
        request_free(request);
        return;
    }
    request->ended = true;
    lws_callback_on_writable(request->wsi);
}

/* ---- writing ----------------------------------------------------------------------------- */

static int write_headers(net_request *request)
{
    struct lws *wsi = request->wsi;
    unsigned char buf[NET_HTTP_HEAD_CAP];
    unsigned char *start = buf + LWS_PRE, *p = start, *end = buf + sizeof buf - 1;
    static const char no_store[] = "no-store";
    static const char close_it[] = "close";

    lws_filepos_t length = request->streaming ? LWS_ILLEGAL_HTTP_CONTENT_LEN
                                              : (lws_filepos_t)request->content_length;
    if (lws_add_http_common_headers(wsi, request->status, request->content_type, length, &p, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
                                    (const unsigned char *)no_store, sizeof no_store - 1, &p, end))
        return -1;
    if (request->streaming && !strstr((const char *)start, "connection: close") &&
        lws_add_http_header_by_token(wsi, WSI_TOKEN_CONNECTION, (const unsigned char *)close_it,
                                     sizeof close_it - 1, &p, end))
        return -1;
    for (size_t at = 0; at < request->extra_len;) {
        const char *name = request->extra + at;
        const char *value = name + strlen(name) + 1;
        if (lws_add_http_header_by_name(wsi, (const unsigned char *)name,
                                        (const unsigned char *)value, (int)strlen(value), &p, end))
            return -1;
        at += strlen(name) + strlen(value) + 2;
    }
    if (lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    request->headers_sent = true;
    return 0;
}

/* The answer is out: a whole one leaves the connection to lws for the next request. */
static int finish(net_request *request)
{
    struct lws *wsi = request->wsi;
    request_free(request);
    return lws_http_transaction_completed(wsi) ? -1 : 0;
}

int net_http_writeable(net_request *request)
{
    struct lws *wsi = request->wsi;
    if (!request->begun)
        return 0; /* the application has not answered yet */
    if (request->end_written) {
        request_free(request); /* a stream: everything is sent; its end is the connection's */
        return -1;
    }
    if (!request->headers_sent) {
        if (write_headers(request))
            return -1;
        if (request->head || request->ended)
            lws_callback_on_writable(wsi);
        else if (request->streaming && request->route->route.on_writable)
            request->route->route.on_writable(request->route->route.ctx, request);
        return 0;
    }
    net_chunk *chunk = request->head;
    if (!chunk) {
        if (!request->ended)
            return 0;
        if (!request->streaming)
            return finish(request); /* an empty body */
        request->end_written = true;
        lws_callback_on_writable(wsi);
        return 0;
    }
    request->head = chunk->next;
    if (!request->head)
        request->tail = NULL;
    request->queued -= chunk->len;
    bool last = !request->head && request->ended;
    enum lws_write_protocol kind = last && !request->streaming ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP;
    int written = lws_write(wsi, chunk->bytes + LWS_PRE, chunk->len, kind);
    size_t len = chunk->len;
    free(chunk);
    if (written < 0 || (size_t)written < len)
        return -1;
    if (last && !request->streaming)
        return finish(request);
    if (request->head || request->ended)
        lws_callback_on_writable(wsi);
    else if (request->streaming && request->route->route.on_writable)
        request->route->route.on_writable(request->route->route.ctx, request);
    return 0;
}

void net_http_gone(net_request **slot)
{
    net_request *request = *slot;
    if (!request)
        return;
    *slot = NULL;
    request->slot = NULL;
    request->wsi = NULL;
    free_chunks(request);
    if (!request->handed || request->ended) {
        request_free(request); /* never the application's, or let go already */
        return;
    }
    /* A stream waiting on its queue hears it once, to stop; any other answer will come. */
    if (request->streaming && !request->gone_told && request->route->route.on_writable) {
        request->gone_told = true;
        request->route->route.on_writable(request->route->route.ctx, request);
    }
}
