/*
 * log — leveled logging to stderr with UTC timestamps; also the sink for libwebsockets' log.
 * See log.h for what it promises.
 */
#include "log.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <uv.h> /* before libwebsockets.h, which expects the event library first */

#include <libwebsockets.h>

/* The only mutable global of the server outside main.c: see the note in log.h. */
static log_level current_level = LOG_LEVEL_INFO;

static const char *const level_names[] = {
    [LOG_LEVEL_ERROR] = "error",
    [LOG_LEVEL_WARN] = "warn",
    [LOG_LEVEL_INFO] = "info",
    [LOG_LEVEL_DEBUG] = "debug",
};

/* Padded upper-case tags keep the message column aligned in the output. */
static const char *const level_tags[] = {
    [LOG_LEVEL_ERROR] = "ERROR",
    [LOG_LEVEL_WARN] = "WARN ",
    [LOG_LEVEL_INFO] = "INFO ",
    [LOG_LEVEL_DEBUG] = "DEBUG",
};

/* Which lws log classes pass at each of our levels: lws is chatty, so its notices (and the
 * info/debug classes, if the library was built with them) only show when we debug. */
static int lws_mask_for(log_level level)
{
    switch (level) {
    case LOG_LEVEL_ERROR:
        return LLL_ERR;
    case LOG_LEVEL_WARN:
    case LOG_LEVEL_INFO:
        return LLL_ERR | LLL_WARN;
    case LOG_LEVEL_DEBUG:
        return LLL_ERR | LLL_WARN | LLL_NOTICE | LLL_INFO;
    }
    return LLL_ERR | LLL_WARN;
}

void log_set_level(log_level level)
{
    current_level = level;
    lws_set_log_level(lws_mask_for(level), NULL);
}

log_level log_get_level(void)
{
    return current_level;
}

bool log_level_from_name(const char *name, log_level *level)
{
    for (size_t i = 0; i < sizeof level_names / sizeof level_names[0]; i++) {
        if (strcmp(name, level_names[i]) == 0) {
            *level = (log_level)i;
            return true;
        }
    }
    return false;
}

const char *log_level_name(log_level level)
{
    if ((unsigned)level >= sizeof level_names / sizeof level_names[0])
        return "unknown";
    return level_names[level];
}

bool log_enabled(log_level level)
{
    return level <= current_level;
}

/* Writes "YYYY-MM-DDTHH:MM:SS.mmmZ" into out (at least 25 bytes). */
static void format_timestamp(char *out, size_t cap)
{
    struct timespec now;
    struct tm utc;

    clock_gettime(CLOCK_REALTIME, &now);
    gmtime_r(&now.tv_sec, &utc);
    size_t n = strftime(out, cap, "%Y-%m-%dT%H:%M:%S", &utc);
    snprintf(out + n, cap - n, ".%03ldZ", now.tv_nsec / 1000000L);
}

void log_vmessage(log_level level, const char *format, va_list args)
{
    if (!log_enabled(level))
        return;

    char line[2048];
    char stamp[32];
    format_timestamp(stamp, sizeof stamp);
    int head = snprintf(line, sizeof line, "%s %s ", stamp, level_tags[level]);
    int body = vsnprintf(line + head, sizeof line - (size_t)head, format, args);

    size_t len = (size_t)head + (body < 0 ? 0 : (size_t)body);
    if (len > sizeof line - 2) /* truncated: keep room for the newline */
        len = sizeof line - 2;
    while (len > (size_t)head && line[len - 1] == '\n') /* callers may or may not end with \n */
        len--;
    line[len++] = '\n';

    /* One write per line so concurrent writers (the store thread later) never interleave. */
    ssize_t ignored = write(STDERR_FILENO, line, len);
    (void)ignored;
}

void log_message(log_level level, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    log_vmessage(level, format, args);
    va_end(args);
}

void log_error(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    log_vmessage(LOG_LEVEL_ERROR, format, args);
    va_end(args);
}

void log_warn(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    log_vmessage(LOG_LEVEL_WARN, format, args);
    va_end(args);
}

void log_info(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    log_vmessage(LOG_LEVEL_INFO, format, args);
    va_end(args);
}

void log_debug(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    log_vmessage(LOG_LEVEL_DEBUG, format, args);
    va_end(args);
}

/* lws hands us finished lines; map its classes onto our levels and tag them. */
static void emit_lws_line(int lws_level, const char *line)
{
    log_level level = LOG_LEVEL_DEBUG;
    if (lws_level & LLL_ERR)
        level = LOG_LEVEL_ERROR;
    else if (lws_level & LLL_WARN)
        level = LOG_LEVEL_WARN;
    log_message(level, "lws: %s", line);
}

void log_route_lws(void)
{
    lws_set_log_level(lws_mask_for(current_level), emit_lws_line);
}
