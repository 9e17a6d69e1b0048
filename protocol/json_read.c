/* json_read — see json_read.h. */
#include "json_read.h"

#include <stdio.h>

const char *json_type_phrase(const json_t *value)
{
    switch (json_typeof(value)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "a list";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number with a fraction or exponent";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "an unknown value";
}

void json_path_index(char out[JSON_PATH_SIZE], const char *where, size_t index)
{
    int n = snprintf(out, JSON_PATH_SIZE, "%s[%zu]", where, index);
    if (n < 0 || n >= JSON_PATH_SIZE)
        snprintf(out, JSON_PATH_SIZE, "an element");
}

void json_path_key(char out[JSON_PATH_SIZE], const char *where, const char *key)
{
    int n = snprintf(out, JSON_PATH_SIZE, "%s.%s", where, key);
    if (n < 0 || n >= JSON_PATH_SIZE)
        snprintf(out, JSON_PATH_SIZE, "a key");
}

void json_vsay(char *msg, size_t msg_size, const char *format, va_list args)
{
    if (msg != NULL && msg_size > 0)
        vsnprintf(msg, msg_size, format, args);
}
