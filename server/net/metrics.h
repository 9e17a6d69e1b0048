/*
 * metrics — the network layer's counters and the Prometheus text they are exposed as.
 *
 * Promises: plain counters in a struct (no globals, no locks: the loop thread owns them);
 * metrics_write() appends the text exposition format (HELP, TYPE, sample) and never writes past
 * cap; metrics_appendf() is the same safe appender for other modules' lines (a write that does
 * not fit is dropped whole, so a truncated /metrics never holds half a line).
 */
#ifndef METRICS_H
#define METRICS_H

#include <stddef.h>
#include <stdint.h>

typedef struct metrics {
    uint64_t connections_opened;     /* WebSocket connections established */
    uint64_t refused_fd_limit;       /* sockets closed at once: too few descriptors left */
    uint64_t refused_per_address;    /* sockets or upgrades over the cap of their address */
    uint64_t refused_reserve;        /* sockets turned away from the descriptor reserve */
    uint64_t refused_origin;         /* WebSocket upgrades from a page of a foreign origin */
    uint64_t messages_in;            /* whole text messages handed to the application */
    uint64_t messages_out;           /* text messages written to a socket */
    uint64_t bytes_in;               /* WebSocket payload bytes received, refused ones too */
    uint64_t bytes_out;              /* WebSocket payload bytes written */
    uint64_t refused_too_large;      /* messages over NET_MAX_MESSAGE */
    uint64_t refused_binary;         /* binary messages */
    uint64_t slow_readers_dropped;   /* connections closed because their queue overflowed */
    uint64_t idle_timeouts;          /* connections closed for not answering pings */
    uint64_t hello_timeouts;         /* connections closed for not saying hello in time */
    uint64_t invalid_utf8;           /* connections closed for a text message not in UTF-8 */
    uint64_t http_requests;          /* /healthz and /metrics requests served */
    double loop_lag_seconds;         /* last measured event-loop lag */
    double loop_lag_max_seconds;     /* largest lag in the current window */
    double loop_lag_prev_max_seconds;/* largest lag in the previous window */
    uint64_t loop_lag_window_start_ms;
} metrics;

void metrics_init(metrics *m);

/* Records one lag sample (seconds) taken at loop time now_ms; keeps a one-minute max. */
void metrics_observe_loop_lag(metrics *m, double lag_seconds, uint64_t now_ms);

/* Largest lag seen over the last one to two minutes. */
double metrics_loop_lag_max(const metrics *m);

/* Appends printf-formatted text at buf + *len; on overflow appends nothing. */
void metrics_appendf(char *buf, size_t cap, size_t *len, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

/* Appends every network metric; open_connections and addresses (client addresses holding
 * connections) are the live gauges. */
void metrics_write(const metrics *m, size_t open_connections, size_t addresses, char *buf,
                   size_t cap, size_t *len);

#endif
