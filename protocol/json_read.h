/*
 * json_read — the small pieces every strict JSON reader of the house shares: naming a value's
 * type in a sentence, building the path of an element ("actions[3]", "options.base") for a
 * message, and writing a message into a caller's buffer.
 */
#ifndef TEAHOUSE_JSON_READ_H
#define TEAHOUSE_JSON_READ_H

#include <stdarg.h>
#include <stddef.h>

#include <jansson.h>

/* Large enough for any path a reader names; a longer one is cut to "an element" / "a key". */
#define JSON_PATH_SIZE 96

/* "a string", "an integer", … for messages about a wrong JSON type. */
const char *json_type_phrase(const json_t *value);

/* `where[index]` and `where.key` into out (JSON_PATH_SIZE bytes). */
void json_path_index(char out[JSON_PATH_SIZE], const char *where, size_t index);
void json_path_key(char out[JSON_PATH_SIZE], const char *where, const char *key);

/* Writes the formatted message into msg (if any room was given). */
void json_vsay(char *msg, size_t msg_size, const char *format, va_list args);

#endif
