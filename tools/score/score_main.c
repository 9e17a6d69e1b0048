/*
 * teahouse-score — the score calculator on the command line: Tien Gow (rules/tiengow.md §8) and
 * Tianjin Mahjong (rules/tianjin-mahjong.md §7).
 *
 * Reads one JSON document on stdin, writes one JSON document and a newline on stdout. Exit
 * status 0 for an answer, 1 for an error document ({"error":{"code":C,"message":M}}) and 2 only
 * if the answer could not be written at all (memory or stdout failing).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "score.h"

/* Larger input than this is refused unread: no honest document comes near it. */
#define SCORE_MAX_INPUT (1024 * 1024)

/* Reads stdin into buf (SCORE_MAX_INPUT + 1 bytes); returns the length, or -1 if too long or unreadable. */
static long read_input(char *buf, bool *too_long)
{
    size_t length = 0, n;
    *too_long = false;
    while ((n = fread(buf + length, 1, SCORE_MAX_INPUT + 1 - length, stdin)) > 0) {
        length += n;
        if (length > SCORE_MAX_INPUT) {
            *too_long = true;
            return -1;
        }
    }
    return ferror(stdin) ? -1 : (long)length;
}

/* Writes a fixed-text error document, for when the input was not even read. */
static int write_error(const char *code, const char *message)
{
    json_t *error = score_error(code, message);
    char *text = error != NULL ? json_dumps(error, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(error);
    if (text == NULL)
        return 2;
    int ok = printf("%s\n", text) >= 0 && fflush(stdout) == 0;
    free(text);
    return ok ? 1 : 2;
}

int main(void)
{
    char *buf = malloc(SCORE_MAX_INPUT + 1);
    if (buf == NULL)
        return 2;
    bool too_long;
    long length = read_input(buf, &too_long);
    if (length < 0) {
        free(buf);
        return write_error("bad_request", too_long ? "The input is larger than 1 MiB; a document is far smaller."
                                                   : "The input could not be read.");
    }
    bool is_error = false;
    char *answer = score_run_text(buf, (size_t)length, &is_error);
    free(buf);
    if (answer == NULL)
        return 2;
    int written = printf("%s\n", answer) >= 0 && fflush(stdout) == 0;
    free(answer);
    if (!written)
        return 2;
    return is_error ? 1 : 0;
}
