/*
 * fuzz — what the fuzz targets of this folder share.
 *
 * Each target defines the libFuzzer entry point LLVMFuzzerTestOneInput. Built with -Dfuzz=true
 * (clang) it is linked with libFuzzer; otherwise driver.c feeds it a committed seed corpus plus
 * deterministic mutations, as an ordinary test. A target reports a broken promise with
 * FUZZ_CHECK, which aborts: libFuzzer and the driver both count an abort as a finding.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Findings reported to the owners of the code and not fixed yet: none. (The last,
 * FUZZ_KNOWN_ERROR_TEXT_NOT_UTF8 — an error sentence quoting a cut multi-byte character was not
 * valid UTF-8 and the reply was lost — is fixed in protocol/text.c; the targets check it fully.)
 */
#define FUZZ_KNOWN_ERROR_TEXT_NOT_UTF8 0

/* Like assert, but never compiled out, and with a sentence saying what was expected. */
#define FUZZ_CHECK(condition, ...)                                                                                     \
    do {                                                                                                               \
        if (!(condition)) {                                                                                            \
            fprintf(stderr, "%s:%d: broken promise (%s): ", __FILE__, __LINE__, #condition);                          \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
            abort();                                                                                                   \
        }                                                                                                              \
    } while (0)

/* Whether text is valid UTF-8 as jansson judges it (no overlong form, no surrogate, nothing
 * above U+10FFFF): jansson refuses to make a string of anything else. */
static inline bool fuzz_valid_utf8(const char *text)
{
    static const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    for (const unsigned char *s = (const unsigned char *)text; *s != '\0';) {
        size_t n = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
                 : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
        if (n == 0)
            return false;
        uint32_t code_point = n == 1 ? s[0] : s[0] & (0x3fu >> (n - 1));
        for (size_t i = 1; i < n; i++) {
            if ((s[i] & 0xc0) != 0x80)
                return false;
            code_point = (code_point << 6) | (s[i] & 0x3fu);
        }
        if (code_point < least[n] || code_point > 0x10ffff || (code_point >= 0xd800 && code_point <= 0xdfff))
            return false;
        s += n;
    }
    return true;
}

/* Script-style targets read their input as lines: returns the next line (without its '\n') and
 * its length, or NULL at the end. */
static inline const uint8_t *fuzz_next_line(const uint8_t **cursor, const uint8_t *end, size_t *length)
{
    if (*cursor >= end)
        return NULL;
    const uint8_t *line = *cursor;
    const uint8_t *newline = memchr(line, '\n', (size_t)(end - line));
    *length = (size_t)((newline != NULL ? newline : end) - line);
    *cursor = newline != NULL ? newline + 1 : end;
    return line;
}

#endif
