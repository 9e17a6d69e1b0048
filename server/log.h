/*
 * log — a tiny leveled logger for the server: one line per message on stderr, each with a UTC
 * timestamp and the level ("2024-05-01T12:00:00.123Z WARN  message").
 *
 * Promises: messages above the current level are dropped before formatting; a line is written
 * with a single write so lines from lws and from our code never interleave mid-line;
 * log_route_lws() sends libwebsockets' own log through the same function, showing lws errors and
 * warnings at every level from warn up (its notices only at debug).
 *
 * The level is the one piece of process-wide state outside main.c: lws's log hook carries no
 * context pointer, so the logger cannot be passed around like everything else.
 */
#ifndef LOG_H
#define LOG_H

#include <stdarg.h>
#include <stdbool.h>

typedef enum log_level {
    LOG_LEVEL_ERROR,
    LOG_LEVEL_WARN,
    LOG_LEVEL_INFO,
    LOG_LEVEL_DEBUG,
} log_level;

/* Sets the level for our messages and the matching mask for lws's. */
void log_set_level(log_level level);
log_level log_get_level(void);

/* "error", "warn", "info", "debug" <-> level. Parsing is case-sensitive. */
bool log_level_from_name(const char *name, log_level *level);
const char *log_level_name(log_level level);

/* True when a message at this level would be written (to skip costly formatting). */
bool log_enabled(log_level level);

void log_message(log_level level, const char *format, ...) __attribute__((format(printf, 2, 3)));
void log_vmessage(log_level level, const char *format, va_list args)
    __attribute__((format(printf, 2, 0)));

void log_error(const char *format, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *format, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *format, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* Routes libwebsockets' log lines through this logger (call once at start-up). */
void log_route_lws(void);

#endif
