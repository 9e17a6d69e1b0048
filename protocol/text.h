/*
 * text — making text safe to put in a JSON string. Error messages quote what a client sent (a
 * key or tile name cut to a few bytes, jansson's "near '…'"), and a cut can fall inside a UTF-8
 * character; jansson refuses a string that is not valid UTF-8, which would lose the whole reply.
 */
#ifndef TEXT_H
#define TEXT_H

#include <stddef.h>

/* The length of the valid UTF-8 character at s as jansson judges it (no overlong form, no
 * surrogate, at most U+10FFFF), or 0 if none starts there (the terminating NUL included). */
size_t text_utf8_character(const unsigned char *s);

/* Turns, in place, every byte that does not begin a valid UTF-8 character into '?'. */
void text_make_utf8(char *s);

#endif
