#include "text.h"

#include <stdint.h>

size_t text_utf8_character(const unsigned char *s)
{
    static const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    size_t n = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
             : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    if (s[0] == 0)
        return 0;
    if (n <= 1)
        return n;
    uint32_t code_point = s[0] & (0x3fu >> (n - 1));
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0; /* also stops at the terminating NUL */
        code_point = (code_point << 6) | (s[i] & 0x3fu);
    }
    if (code_point < least[n] || code_point > 0x10ffff || (code_point >= 0xd800 && code_point <= 0xdfff))
        return 0;
    return n;
}

void text_make_utf8(char *s)
{
    for (unsigned char *p = (unsigned char *)s; *p != '\0';) {
        size_t n = text_utf8_character(p);
        if (n == 0)
            *p++ = '?';
        else
            p += n;
    }
}
