/*
 * net_http — the application's HTTP routes (net.h, "HTTP routes"), inside net. net.c owns the
 * lws callback and hands this module the events of a connection whose request a route took:
 * the request itself, its body, its turns to write, and its end. Internal to server/net.
 *
 * A connection's net_session holds a pointer to its current request (the slot); the request
 * knows its slot and clears it when it is freed, and net.c clears the request's hold on the
 * connection when the connection goes (net_http_gone), so neither ever points at freed memory.
 */
#ifndef NET_HTTP_H
#define NET_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include <libwebsockets.h>

#include "net.h"

typedef struct net_routes net_routes;

net_routes *net_routes_new(void);
/* Frees the routes and every request still held (net_destroy). */
void net_routes_free(net_routes *routes);
bool net_routes_add(net_routes *routes, const net_route *route);

/* What a route made of a request. */
typedef enum net_http_taken {
    NET_HTTP_NOT_OURS, /* no route's prefix: serve it as before */
    NET_HTTP_TAKEN,    /* a request exists in *slot, or an answer is on its way */
    NET_HTTP_FAILED,   /* out of memory: hang up */
} net_http_taken;

/* LWS_CALLBACK_HTTP on the game port: method ("GET", …) and path as lws parsed them. A request
 * without a body is handed to the application at once; one with a body waits for it. */
net_http_taken net_http_take(net_routes *routes, struct lws *wsi, net_request **slot,
                             const char *method, const char *path, const char *peer,
                             bool secure);

/* LWS_CALLBACK_HTTP_BODY and LWS_CALLBACK_HTTP_BODY_COMPLETION; lws's return value. */
int net_http_body(net_request *request, const void *in, size_t len);
int net_http_body_done(net_request *request);

/* LWS_CALLBACK_HTTP_WRITEABLE for a connection with a request; lws's return value. */
int net_http_writeable(net_request *request);

/* The connection is closing: the request (if any) is left to the application, marked gone. */
void net_http_gone(net_request **slot);

#endif
