/*
 * errors — the wire names of the house's error codes, one row each, indexed by the code: a
 * missing row leaves a NULL, which the unit test finds (its name would not parse back).
 */
#include "errors.h"

#include <stddef.h>
#include <string.h>

static const char *const NAMES[PROTO_ERR_COUNT] = {
    [PROTO_ERR_BAD_JSON] = "bad_json",
    [PROTO_ERR_BAD_REQUEST] = "bad_request",
    [PROTO_ERR_UNKNOWN_TYPE] = "unknown_type",
    [PROTO_ERR_UNSUPPORTED_VERSION] = "unsupported_version",
    [PROTO_ERR_NOT_HELLO] = "not_hello",
    [PROTO_ERR_TOO_LARGE] = "too_large",
    [PROTO_ERR_BINARY_NOT_SUPPORTED] = "binary_not_supported",
    [PROTO_ERR_RATE_LIMITED] = "rate_limited",
    [PROTO_ERR_NO_SUCH_TABLE] = "no_such_table",
    [PROTO_ERR_UNKNOWN_GAME] = "unknown_game",
    [PROTO_ERR_BAD_OPTIONS] = "bad_options",
    [PROTO_ERR_TOO_MANY_TABLES] = "too_many_tables",
    [PROTO_ERR_REPLACED] = "replaced",
    [PROTO_ERR_SHUTTING_DOWN] = "shutting_down",
    [PROTO_ERR_NAME_TAKEN] = "name_taken",
    [PROTO_ERR_ALREADY_ACCOUNT] = "already_account",
    [PROTO_ERR_BAD_LOGIN] = "bad_login",
    [PROTO_ERR_AT_TABLE] = "at_table",
    [PROTO_ERR_NO_ACCOUNTS] = "no_accounts",
    [PROTO_ERR_NO_SUCH_HAND] = "no_such_hand",
    [PROTO_ERR_NO_HISTORY] = "no_history",
    [PROTO_ERR_NO_SUCH_PLAYER] = "no_such_player",
    [PROTO_ERR_NOT_AT_TABLE] = "not_at_table",
    [PROTO_ERR_NOT_HOST] = "not_host",
    [PROTO_ERR_SEAT_TAKEN] = "seat_taken",
    [PROTO_ERR_SEAT_EMPTY] = "seat_empty",
    [PROTO_ERR_ALREADY_SEATED] = "already_seated",
    [PROTO_ERR_NOT_SEATED] = "not_seated",
    [PROTO_ERR_TABLE_FULL] = "table_full",
    [PROTO_ERR_TABLE_LOCKED] = "table_locked",
    [PROTO_ERR_HAND_IN_PROGRESS] = "hand_in_progress",
    [PROTO_ERR_TABLE_NOT_FULL] = "table_not_full",
    [PROTO_ERR_NO_HAND] = "no_hand",
    [PROTO_ERR_PAUSED] = "paused",
    [PROTO_ERR_CHAT_OFF] = "chat_off",
    [PROTO_ERR_BUSY] = "busy",
    [PROTO_ERR_UNAVAILABLE] = "unavailable",
    [PROTO_ERR_INTERNAL] = "internal",
};

const char *proto_error_name(proto_error_code code)
{
    const char *name = (unsigned)code < PROTO_ERR_COUNT ? NAMES[code] : NULL;
    return name != NULL ? name : NAMES[PROTO_ERR_INTERNAL];
}

bool proto_error_parse(const char *name, proto_error_code *out)
{
    for (int code = 0; name != NULL && code < PROTO_ERR_COUNT; code++)
        if (NAMES[code] != NULL && strcmp(NAMES[code], name) == 0) {
            *out = (proto_error_code)code;
            return true;
        }
    return false;
}
