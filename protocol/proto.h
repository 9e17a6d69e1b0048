/*
 * proto — the table protocol's client messages (PROTOCOL.md): decoding and validation in one place.
 *
 * proto_decode takes the raw text of one WebSocket frame and either fills a proto_msg whose
 * fields are all checked (types, ranges, lengths, allowed keys) or returns why not, with a
 * sentence for a person. Nothing else in the server reads client JSON, except a game reading its
 * own `options` and `action` objects. Pure: no I/O, no globals, safe on any input (fuzzed).
 */
#ifndef PROTO_H
#define PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "errors.h"
#include "house_limits.h"

#define PROTO_VERSION 1
/* The protocol's names for the limits of house_limits.h, which they follow. */
#define PROTO_NAME_MAX LIMIT_NAME_CHARS          /* characters of a player name */
#define PROTO_NAME_BYTES LIMIT_NAME_BYTES        /* bytes of a player or account name, at most */
#define PROTO_CHAT_MAX LIMIT_CHAT_CHARS          /* characters of a chat line */
#define PROTO_ID_MAX LIMIT_ID_BYTES              /* bytes of a string id */
#define PROTO_TOKEN_MIN LIMIT_TOKEN_MIN_CHARS    /* characters of a resume token, at least */
#define PROTO_TOKEN_LEN LIMIT_TOKEN_MAX_CHARS    /* characters of a resume token, at most ([A-Za-z0-9_-]) */
#define PROTO_ACCOUNT_MIN LIMIT_ACCOUNT_MIN_CHARS /* characters of an account name */
#define PROTO_ACCOUNT_MAX LIMIT_ACCOUNT_MAX_CHARS
#define PROTO_PASSWORD_MIN LIMIT_PASSWORD_MIN_BYTES /* bytes of a password in UTF-8 */
#define PROTO_PASSWORD_MAX LIMIT_PASSWORD_MAX_BYTES
#define PROTO_CODE_LEN LIMIT_CODE_CHARS          /* characters of a table code, at most (a new table's) */
#define PROTO_CODE_MIN LIMIT_CODE_MIN_CHARS      /* characters of a table code, at least (older tables') */
#define PROTO_TURN_SECONDS_MIN LIMIT_TURN_SECONDS_MIN
#define PROTO_TURN_SECONDS_MAX LIMIT_TURN_SECONDS_MAX
#define PROTO_MESSAGE_SIZE 256                   /* bytes of an error's sentence (a buffer, not a limit) */

/* Table codes use letters and digits that cannot be mistaken for one another (no I, L, O, 0, 1). */
#define PROTO_CODE_ALPHABET "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

typedef enum {
    PROTO_HELLO = 0,
    PROTO_LIST_TABLES,
    PROTO_CREATE_TABLE,
    PROTO_JOIN_TABLE,
    PROTO_LEAVE_TABLE,
    PROTO_TAKE_SEAT,
    PROTO_LEAVE_SEAT,
    PROTO_ADD_BOT,
    PROTO_REMOVE_BOT,
    PROTO_START,
    PROTO_READY,
    PROTO_ACT,
    PROTO_CHAT,
    PROTO_PING,
    PROTO_REGISTER,
    PROTO_LOGIN,
    PROTO_LOGOUT,
    PROTO_HISTORY,
    PROTO_REPLAY,
    PROTO_LOCK_TABLE,
    PROTO_REMOVE_MEMBER,
    PROTO_MY_TABLES,
    PROTO_PRESENCE,
    PROTO_PROFILE,
    PROTO_SET_HOST,
    PROTO_SET_OPTIONS,
    PROTO_HOLD_TABLE,
    PROTO_END_TABLE,
    PROTO_SPECTATOR_CHAT,
    PROTO_TYPES
} proto_type;

/* list_tables' `state` filter. */
typedef enum {
    PROTO_TABLES_ANY = 0,
    PROTO_TABLES_WAITING, /* "waiting": no hand played or between them, waiting for the host */
    PROTO_TABLES_PLAYING  /* "playing": a hand on, or the pause between two */
} proto_tables_state;

typedef enum {
    PROTO_OK = 0,
    PROTO_BAD_JSON,
    PROTO_BAD_REQUEST,
    PROTO_UNKNOWN_TYPE,
    PROTO_UNSUPPORTED_VERSION,
} proto_status;

typedef struct proto_msg {
    proto_type type;
    json_t *root;        /* the whole message, owned; release with proto_msg_free */
    json_t *id;          /* borrowed from root, or NULL */
    /* fields, set for the types that have them */
    char name[PROTO_NAME_BYTES + 1];   /* UTF-8 in NFC, trimmed (names.h): a player name, or for register and
                                          login an account name (PROTOCOL.md's rule) */
    char token[PROTO_TOKEN_LEN + 1];   /* "" if none; 16-64 of [A-Za-z0-9_-] */
    char code[PROTO_CODE_LEN + 1];     /* upper case, PROTO_CODE_MIN to PROTO_CODE_LEN characters */
    int seat;                          /* 0..LIMIT_SEATS - 1; -1 when not given (join_table's is optional) */
    int turn_seconds;                  /* 0 when not given */
    bool is_public;
    const char *game;                  /* borrowed */
    json_t *options;                   /* borrowed, NULL when not given (create_table, set_options) */
    json_t *action;                    /* borrowed */
    const char *text;                  /* borrowed, chat */
    const char *password;              /* borrowed, register and login: 8-1024 bytes, as sent */
    int64_t hand;                      /* replay: a hand number >= 1 */
    int64_t before;                    /* history: a hand number >= 1, 0 when not given */
    /* list_tables */
    int limit;                         /* 1..LIMIT_TABLES_PAGE, LIMIT_TABLES_PAGE when not given */
    uint64_t after;                    /* the `next` cursor of the page before, 0 for the first page */
    proto_tables_state state;          /* PROTO_TABLES_ANY when not given */
    bool free_seat;                    /* only tables with an empty seat one may take */
    char search[PROTO_NAME_BYTES + 1]; /* trimmed, "" when not given: a host's name or a code's start */
    /* (`game`, above, is the game filter: NULL when not given) */
    bool locked;                       /* lock_table */
    bool here;                         /* presence: the table's page is shown */
    int64_t player;                    /* remove_member, set_host, profile: the player's id ("p12" is 12) */
    int64_t tables_before;             /* profile: a table's cursor from an earlier reply, 0 when not given */
    int64_t hands_before;              /* profile: a hand's cursor from an earlier reply, 0 when not given */
    bool held;                         /* hold_table: hold the table after this hand (false: resume) */
    bool on;                           /* spectator_chat: watchers may chat */
} proto_msg;

/* The error code of a refusal (PROTO_ERR_BAD_JSON, …); PROTO_ERR_INTERNAL for PROTO_OK. */
proto_error_code proto_status_error(proto_status status);

/* The stable wire name of a status: "ok", or its error code's name ("bad_json", …). */
const char *proto_status_name(proto_status status);

/* The wire name of a message type ("hello", …). */
const char *proto_type_name(proto_type type);

/* Decodes one frame. On PROTO_OK the caller owns out->root (proto_msg_free); otherwise nothing is
 * held and msg says what is wrong. out->id is set whenever the frame was an object with a valid id,
 * even if it is refused, so the error can echo it (then out->root is kept: free it all the same). */
proto_status proto_decode(const char *text, size_t len, proto_msg *out, char *msg, size_t msg_size);

void proto_msg_free(proto_msg *msg);

/* {"type":"error","id":…,"code":…,"message":…} (id left out when NULL). code is a house code's
 * name (proto_error_name) or a game's own code. */
json_t *proto_error(const json_t *id, const char *code, const char *message);

/* The limits a client should know (house_limits.h), as PROTOCOL.md's `welcome` shows them:
 * {"seats":4,"name_chars":24,…}. A new reference. */
json_t *proto_limits_json(void);

/* True if text is a table code (any case, PROTO_CODE_MIN to PROTO_CODE_LEN characters); writes
 * it upper-cased into out. */
bool proto_parse_code(const char *text, char out[PROTO_CODE_LEN + 1]);

#endif
