/*
 * metrics — counters of the network layer and their Prometheus text exposition.
 */
#include "metrics.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The lag maximum covers one window plus the one before it, so a spike stays visible for at
 * least a minute whatever the scrape interval. */
#define LAG_WINDOW_MS 60000u

void metrics_init(metrics *m)
{
    memset(m, 0, sizeof *m);
}

void metrics_observe_loop_lag(metrics *m, double lag_seconds, uint64_t now_ms)
{
    if (now_ms - m->loop_lag_window_start_ms >= LAG_WINDOW_MS) {
        m->loop_lag_prev_max_seconds = m->loop_lag_max_seconds;
        m->loop_lag_max_seconds = 0;
        m->loop_lag_window_start_ms = now_ms;
    }
    m->loop_lag_seconds = lag_seconds;
    if (lag_seconds > m->loop_lag_max_seconds)
        m->loop_lag_max_seconds = lag_seconds;
}

double metrics_loop_lag_max(const metrics *m)
{
    return m->loop_lag_max_seconds > m->loop_lag_prev_max_seconds
               ? m->loop_lag_max_seconds
               : m->loop_lag_prev_max_seconds;
}

void metrics_appendf(char *buf, size_t cap, size_t *len, const char *format, ...)
{
    if (*len >= cap)
        return;
    va_list args;
    va_start(args, format);
    int n = vsnprintf(buf + *len, cap - *len, format, args);
    va_end(args);
    if (n < 0 || (size_t)n >= cap - *len) {
        buf[*len] = '\0'; /* did not fit: take back the partial line */
        return;
    }
    *len += (size_t)n;
}

static void write_header(char *buf, size_t cap, size_t *len, const char *name, const char *type,
                         const char *help)
{
    metrics_appendf(buf, cap, len, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void write_counter(char *buf, size_t cap, size_t *len, const char *name, const char *help,
                          uint64_t value)
{
    write_header(buf, cap, len, name, "counter", help);
    metrics_appendf(buf, cap, len, "%s %" PRIu64 "\n", name, value);
}

static void write_gauge(char *buf, size_t cap, size_t *len, const char *name, const char *help,
                        double value)
{
    write_header(buf, cap, len, name, "gauge", help);
    metrics_appendf(buf, cap, len, "%s %.6f\n", name, value);
}

void metrics_write(const metrics *m, size_t open_connections, size_t addresses, char *buf,
                   size_t cap, size_t *len)
{
    write_header(buf, cap, len, "teahouse_ws_connections", "gauge",
                 "Open WebSocket connections.");
    metrics_appendf(buf, cap, len, "teahouse_ws_connections %zu\n", open_connections);
    write_counter(buf, cap, len, "teahouse_ws_connections_opened_total",
                  "WebSocket connections established.", m->connections_opened);
    write_gauge(buf, cap, len, "teahouse_client_addresses",
                "Client addresses (IPv6: /64 prefixes) holding connections to the game port.",
                (double)addresses);
    write_header(buf, cap, len, "teahouse_connections_refused_total", "counter",
                 "Sockets closed on accept, or WebSocket upgrades refused, by reason.");
    metrics_appendf(buf, cap, len,
                    "teahouse_connections_refused_total{reason=\"fd_limit\"} %" PRIu64 "\n",
                    m->refused_fd_limit);
    metrics_appendf(buf, cap, len,
                    "teahouse_connections_refused_total{reason=\"per_address\"} %" PRIu64 "\n",
                    m->refused_per_address);
    metrics_appendf(buf, cap, len,
                    "teahouse_connections_refused_total{reason=\"reserve\"} %" PRIu64 "\n",
                    m->refused_reserve);
    metrics_appendf(buf, cap, len,
                    "teahouse_connections_refused_total{reason=\"origin\"} %" PRIu64 "\n",
                    m->refused_origin);
    write_counter(buf, cap, len, "teahouse_ws_messages_received_total",
                  "Whole text messages received and passed on.", m->messages_in);
    write_counter(buf, cap, len, "teahouse_ws_messages_sent_total", "Text messages sent.",
                  m->messages_out);
    write_counter(buf, cap, len, "teahouse_ws_received_bytes_total",
                  "WebSocket payload bytes received.", m->bytes_in);
    write_counter(buf, cap, len, "teahouse_ws_sent_bytes_total", "WebSocket payload bytes sent.",
                  m->bytes_out);

    write_header(buf, cap, len, "teahouse_ws_refused_total", "counter",
                 "Incoming messages refused with an error frame, by reason.");
    metrics_appendf(buf, cap, len, "teahouse_ws_refused_total{reason=\"too_large\"} %" PRIu64 "\n",
                    m->refused_too_large);
    metrics_appendf(buf, cap, len,
                    "teahouse_ws_refused_total{reason=\"binary_not_supported\"} %" PRIu64 "\n",
                    m->refused_binary);

    write_header(buf, cap, len, "teahouse_ws_dropped_total", "counter",
                 "WebSocket connections closed by the server, by reason.");
    metrics_appendf(buf, cap, len, "teahouse_ws_dropped_total{reason=\"slow_reader\"} %" PRIu64 "\n",
                    m->slow_readers_dropped);
    metrics_appendf(buf, cap, len, "teahouse_ws_dropped_total{reason=\"ping_timeout\"} %" PRIu64 "\n",
                    m->idle_timeouts);
    metrics_appendf(buf, cap, len,
                    "teahouse_ws_dropped_total{reason=\"hello_timeout\"} %" PRIu64 "\n",
                    m->hello_timeouts);
    metrics_appendf(buf, cap, len,
                    "teahouse_ws_dropped_total{reason=\"invalid_utf8\"} %" PRIu64 "\n",
                    m->invalid_utf8);

    write_counter(buf, cap, len, "teahouse_http_requests_total",
                  "Requests to /healthz and /metrics.", m->http_requests);
    write_gauge(buf, cap, len, "teahouse_loop_lag_seconds",
                "Last measured delay of the event loop behind a periodic timer.",
                m->loop_lag_seconds);
    write_gauge(buf, cap, len, "teahouse_loop_lag_max_seconds",
                "Largest event-loop delay over the last one to two minutes.",
                metrics_loop_lag_max(m));
}
