/*
 * errors — every error code the house can send a client, as values with stable wire names.
 *
 * An error frame is {"type":"error","code":NAME,…} (proto_error). Clients branch on the name, so a
 * name never changes once shipped; the enum's order is not on the wire and may change. Each code
 * here is in PROTOCOL.md's table of errors and each code there is here (a unit test compares).
 * A game's refusals of an action are the game's own codes (Tien Gow: tg_status_name), passed
 * through as strings; PROTOCOL.md lists them apart.
 */
#ifndef PROTO_ERRORS_H
#define PROTO_ERRORS_H

#include <stdbool.h>

typedef enum proto_error_code {
    /* a message the protocol refuses (proto.c) */
    PROTO_ERR_BAD_JSON = 0,
    PROTO_ERR_BAD_REQUEST,
    PROTO_ERR_UNKNOWN_TYPE,
    PROTO_ERR_UNSUPPORTED_VERSION,
    PROTO_ERR_NOT_HELLO,
    /* a frame the network layer refuses (net.c) */
    PROTO_ERR_TOO_LARGE,
    PROTO_ERR_BINARY_NOT_SUPPORTED,
    /* the house: connections, tables, accounts, history (lobby) */
    PROTO_ERR_RATE_LIMITED,
    PROTO_ERR_NO_SUCH_TABLE,
    PROTO_ERR_UNKNOWN_GAME,
    PROTO_ERR_BAD_OPTIONS,
    PROTO_ERR_TOO_MANY_TABLES,
    PROTO_ERR_REPLACED,
    PROTO_ERR_SHUTTING_DOWN,
    PROTO_ERR_NAME_TAKEN,
    PROTO_ERR_ALREADY_ACCOUNT,
    PROTO_ERR_BAD_LOGIN,
    PROTO_ERR_AT_TABLE,
    PROTO_ERR_NO_ACCOUNTS,
    PROTO_ERR_NO_SUCH_HAND,
    PROTO_ERR_NO_HISTORY,
    PROTO_ERR_NO_SUCH_PLAYER,
    /* a table: seats, hands (room) */
    PROTO_ERR_NOT_AT_TABLE,
    PROTO_ERR_NOT_HOST,
    PROTO_ERR_SEAT_TAKEN,
    PROTO_ERR_SEAT_EMPTY,
    PROTO_ERR_ALREADY_SEATED,
    PROTO_ERR_NOT_SEATED,
    PROTO_ERR_TABLE_FULL,
    PROTO_ERR_TABLE_LOCKED,
    PROTO_ERR_HAND_IN_PROGRESS,
    PROTO_ERR_TABLE_NOT_FULL,
    PROTO_ERR_NO_HAND,
    PROTO_ERR_PAUSED,
    PROTO_ERR_CHAT_OFF,
    /* anywhere */
    PROTO_ERR_BUSY,
    PROTO_ERR_UNAVAILABLE,
    PROTO_ERR_INTERNAL,
    PROTO_ERR_COUNT
} proto_error_code;

/* The wire name of a code ("bad_request", "table_full", …); "internal" for a value out of range. */
const char *proto_error_name(proto_error_code code);

/* The code of a wire name; false if no house code has that name (a game's own code, say). */
bool proto_error_parse(const char *name, proto_error_code *out);

#endif
