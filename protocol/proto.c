/*
 * proto — client message schemas as a table: each type lists its keys, their JSON types and
 * whether they are required. A key not in the row is refused, so a client cannot smuggle fields.
 * Names follow names.h, which says what a display name and an account name may hold.
 */
#include "proto.h"

#include "names.h"
#include "text.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef enum {
    F_NAME,
    F_TOKEN,
    F_VERSION,
    F_CODE,
    F_SEAT,
    F_GAME,
    F_OPTIONS,
    F_PUBLIC,
    F_TURN,
    F_ACTION,
    F_TEXT,
    F_ACCOUNT,
    F_PASSWORD,
    F_HAND,
    F_BEFORE,
    F_LIMIT,
    F_CURSOR,
    F_STATE,
    F_FREE_SEAT,
    F_SEARCH,
    F_LOCKED,
    F_HERE,
    F_PLAYER,
    F_TABLES_BEFORE, /* profile: cursors, integers >= 1 */
    F_HANDS_BEFORE,
    F_HELD,
    F_ON
} field;

typedef struct key_rule {
    const char *key;
    field field;
    bool required;
} key_rule;

#define MAX_KEYS 6

static const struct {
    const char *name;
    key_rule keys[MAX_KEYS];
} SCHEMAS[PROTO_TYPES] = {
    [PROTO_HELLO] = {"hello", {{"v", F_VERSION, true}, {"name", F_NAME, true}, {"token", F_TOKEN, false}}},
    [PROTO_LIST_TABLES] = {"list_tables",
                           {{"limit", F_LIMIT, false},
                            {"after", F_CURSOR, false},
                            {"game", F_GAME, false},
                            {"state", F_STATE, false},
                            {"free_seat", F_FREE_SEAT, false},
                            {"search", F_SEARCH, false}}},
    [PROTO_CREATE_TABLE] = {"create_table",
                            {{"game", F_GAME, true},
                             {"options", F_OPTIONS, false},
                             {"public", F_PUBLIC, false},
                             {"turn_seconds", F_TURN, false}}},
    [PROTO_JOIN_TABLE] = {"join_table", {{"code", F_CODE, true}, {"seat", F_SEAT, false}}},
    [PROTO_LEAVE_TABLE] = {"leave_table", {{"code", F_CODE, true}}},
    [PROTO_TAKE_SEAT] = {"take_seat", {{"code", F_CODE, true}, {"seat", F_SEAT, true}}},
    [PROTO_LEAVE_SEAT] = {"leave_seat", {{"code", F_CODE, true}}},
    [PROTO_ADD_BOT] = {"add_bot", {{"code", F_CODE, true}, {"seat", F_SEAT, true}}},
    [PROTO_REMOVE_BOT] = {"remove_bot", {{"code", F_CODE, true}, {"seat", F_SEAT, true}}},
    [PROTO_START] = {"start", {{"code", F_CODE, true}}},
    [PROTO_READY] = {"ready", {{"code", F_CODE, true}}},
    [PROTO_ACT] = {"act", {{"code", F_CODE, true}, {"action", F_ACTION, true}}},
    [PROTO_CHAT] = {"chat", {{"code", F_CODE, true}, {"text", F_TEXT, true}}},
    [PROTO_PING] = {"ping", {{NULL, 0, false}}},
    [PROTO_REGISTER] = {"register", {{"name", F_ACCOUNT, true}, {"password", F_PASSWORD, true}}},
    [PROTO_LOGIN] = {"login", {{"name", F_ACCOUNT, true}, {"password", F_PASSWORD, true}}},
    [PROTO_LOGOUT] = {"logout", {{NULL, 0, false}}},
    [PROTO_HISTORY] = {"history", {{"code", F_CODE, true}, {"before", F_BEFORE, false}}},
    [PROTO_REPLAY] = {"replay", {{"code", F_CODE, true}, {"hand", F_HAND, true}}},
    [PROTO_LOCK_TABLE] = {"lock_table", {{"code", F_CODE, true}, {"locked", F_LOCKED, true}}},
    [PROTO_REMOVE_MEMBER] = {"remove_member", {{"code", F_CODE, true}, {"player", F_PLAYER, true}}},
    [PROTO_MY_TABLES] = {"my_tables", {{NULL, 0, false}}},
    [PROTO_PRESENCE] = {"presence", {{"code", F_CODE, true}, {"here", F_HERE, true}}},
    [PROTO_PROFILE] = {"profile",
                       {{"player", F_PLAYER, true}, {"tables_before", F_TABLES_BEFORE, false},
                        {"hands_before", F_HANDS_BEFORE, false}}},
    [PROTO_SET_HOST] = {"set_host", {{"code", F_CODE, true}, {"player", F_PLAYER, true}}},
    [PROTO_SET_OPTIONS] = {"set_options", {{"code", F_CODE, true}, {"options", F_OPTIONS, true}}},
    [PROTO_HOLD_TABLE] = {"hold_table", {{"code", F_CODE, true}, {"held", F_HELD, true}}},
    [PROTO_END_TABLE] = {"end_table", {{"code", F_CODE, true}}},
    [PROTO_SPECTATOR_CHAT] = {"spectator_chat", {{"code", F_CODE, true}, {"on", F_ON, true}}},
};

proto_error_code proto_status_error(proto_status status)
{
    switch (status) {
    case PROTO_OK: break;
    case PROTO_BAD_JSON: return PROTO_ERR_BAD_JSON;
    case PROTO_BAD_REQUEST: return PROTO_ERR_BAD_REQUEST;
    case PROTO_UNKNOWN_TYPE: return PROTO_ERR_UNKNOWN_TYPE;
    case PROTO_UNSUPPORTED_VERSION: return PROTO_ERR_UNSUPPORTED_VERSION;
    }
    return PROTO_ERR_INTERNAL;
}

const char *proto_status_name(proto_status status)
{
    return status == PROTO_OK ? "ok" : proto_error_name(proto_status_error(status));
}

const char *proto_type_name(proto_type type) { return (unsigned)type < PROTO_TYPES ? SCHEMAS[type].name : "?"; }

__attribute__((format(printf, 4, 5))) static proto_status fail(proto_status status, char *msg, size_t size,
                                                              const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(msg, size, format, args);
    va_end(args);
    text_make_utf8(msg); /* a quoted key or type cut to 40 bytes may end inside a character */
    return status;
}

bool proto_parse_code(const char *text, char out[PROTO_CODE_LEN + 1])
{
    size_t len = text != NULL ? strlen(text) : 0;
    if (len < PROTO_CODE_MIN || len > PROTO_CODE_LEN)
        return false;
    for (size_t i = 0; i < len; i++) {
        char c = (char)toupper((unsigned char)text[i]);
        if (strchr(PROTO_CODE_ALPHABET, c) == NULL)
            return false;
        out[i] = c;
    }
    out[len] = '\0';
    return true;
}

/* Counts UTF-8 characters (jansson has already checked the encoding) and refuses control characters. */
static bool plain_text(const char *s, size_t *chars)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            return false;
        if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
            return false; /* C1 controls */
        if ((*p & 0xc0) != 0x80)
            n++;
    }
    *chars = n;
    return true;
}

/* A short text (a search): trimmed of spaces, 1-24 characters without control
 * characters, copied into out (PROTO_NAME_BYTES + 1). 24 characters are at most PROTO_NAME_BYTES
 * bytes, which the store keeps, so a name accepted here is stored. */
static proto_status read_short_text(const char *key, const json_t *value, char *out, char *msg, size_t size)
{
    const char *s = json_string_value(value);
    while (*s == ' ')
        s++;
    size_t len = strlen(s);
    while (len > 0 && s[len - 1] == ' ')
        len--;
    if (len > PROTO_NAME_BYTES) /* more than 24 characters, whatever they are */
        return fail(PROTO_BAD_REQUEST, msg, size, "%s must be 1 to %d characters.", key, PROTO_NAME_MAX);
    memcpy(out, s, len);
    out[len] = '\0';
    size_t chars;
    if (!plain_text(out, &chars))
        return fail(PROTO_BAD_REQUEST, msg, size, "%s may not hold control characters.", key);
    if (chars < 1 || chars > PROTO_NAME_MAX)
        return fail(PROTO_BAD_REQUEST, msg, size, "%s must be 1 to %d characters.", key, PROTO_NAME_MAX);
    return PROTO_OK;
}

/* A player name (names.h): NFC, trimmed, 1-24 characters, none invisible, at least one that
 * shows. 24 characters are at most PROTO_NAME_BYTES bytes, which the store keeps. */
static proto_status read_name(const json_t *value, proto_msg *out, char *msg, size_t size)
{
    return names_display(json_string_value(value), out->name, msg, size) ? PROTO_OK : PROTO_BAD_REQUEST;
}

/* An account name (register, login; names.h): NFC, trimmed, 3-24 letters, digits, '_', '-' or
 * '.', at least one letter or digit, scripts mixed only as ICU allows. */
static proto_status read_account(const json_t *value, proto_msg *out, char *msg, size_t size)
{
    return names_account(json_string_value(value), out->name, msg, size) ? PROTO_OK : PROTO_BAD_REQUEST;
}

/* A resume token: the 64 hex digits of a guest's earlier token or a store session token (43
 * characters of URL-safe base64), so any 16 to 64 of [A-Za-z0-9_-]. */
static bool valid_token(const char *s)
{
    static const char ALPHABET[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
    size_t len = s != NULL ? strlen(s) : 0;
    return len >= PROTO_TOKEN_MIN && len <= PROTO_TOKEN_LEN && strspn(s, ALPHABET) == len;
}

/* A whole number written in decimal digits alone (1 to 18 of them, so it fits 63 bits): a
 * cursor ("1234") or the number of a player's id ("p12"). */
static bool decimal(const char *s, uint64_t *out)
{
    size_t len = s != NULL ? strlen(s) : 0;
    if (len < 1 || len > 18 || strspn(s, "0123456789") != len)
        return false;
    uint64_t n = 0;
    for (size_t i = 0; i < len; i++)
        n = n * 10 + (uint64_t)(s[i] - '0');
    *out = n;
    return true;
}

/* A hand number (or a profile's cursor): an integer of at least 1. */
static bool hand_number(const json_t *value, int64_t *out)
{
    if (!json_is_integer(value) || json_integer_value(value) < 1)
        return false;
    *out = (int64_t)json_integer_value(value);
    return true;
}

static proto_status read_field(field f, const char *key, const json_t *value, proto_msg *out, char *msg,
                               size_t size)
{
    switch (f) {
    case F_VERSION:
        if (!json_is_integer(value))
            return fail(PROTO_BAD_REQUEST, msg, size, "v must be an integer.");
        if (json_integer_value(value) != PROTO_VERSION)
            return fail(PROTO_UNSUPPORTED_VERSION, msg, size, "This server speaks protocol version %d.",
                        PROTO_VERSION);
        return PROTO_OK;
    case F_NAME:
        if (!json_is_string(value))
            return fail(PROTO_BAD_REQUEST, msg, size, "name must be a string.");
        return read_name(value, out, msg, size);
    case F_TOKEN: {
        const char *s = json_string_value(value);
        if (!valid_token(s))
            return fail(PROTO_BAD_REQUEST, msg, size,
                        "token must be the one given in welcome: %d to %d of A-Z, a-z, 0-9, '_' and '-'.",
                        PROTO_TOKEN_MIN, PROTO_TOKEN_LEN);
        memcpy(out->token, s, strlen(s) + 1);
        return PROTO_OK;
    }
    case F_CODE:
        if (!json_is_string(value) || !proto_parse_code(json_string_value(value), out->code))
            return fail(PROTO_BAD_REQUEST, msg, size, "code must be a table code of %d to %d letters and digits.",
                        PROTO_CODE_MIN, PROTO_CODE_LEN);
        return PROTO_OK;
    case F_SEAT:
        if (!json_is_integer(value) || json_integer_value(value) < 0 || json_integer_value(value) >= LIMIT_SEATS)
            return fail(PROTO_BAD_REQUEST, msg, size, "seat must be an integer from 0 to %d.", LIMIT_SEATS - 1);
        out->seat = (int)json_integer_value(value);
        return PROTO_OK;
    case F_GAME:
        if (!json_is_string(value))
            return fail(PROTO_BAD_REQUEST, msg, size, "game must be a string.");
        out->game = json_string_value(value);
        return PROTO_OK;
    case F_OPTIONS:
        if (!json_is_object(value))
            return fail(PROTO_BAD_REQUEST, msg, size, "options must be an object.");
        out->options = (json_t *)value;
        return PROTO_OK;
    case F_PUBLIC:
        if (!json_is_boolean(value))
            return fail(PROTO_BAD_REQUEST, msg, size, "public must be true or false.");
        out->is_public = json_is_true(value);
        return PROTO_OK;
    case F_TURN:
        if (!json_is_integer(value) || json_integer_value(value) < PROTO_TURN_SECONDS_MIN ||
            json_integer_value(value) > PROTO_TURN_SECONDS_MAX)
            return fail(PROTO_BAD_REQUEST, msg, size, "turn_seconds must be an integer from %d to %d.",
                        PROTO_TURN_SECONDS_MIN, PROTO_TURN_SECONDS_MAX);
        out->turn_seconds = (int)json_integer_value(value);
        return PROTO_OK;
    case F_ACTION:
        if (!json_is_object(value))
            return fail(PROTO_BAD_REQUEST, msg, size, "action must be an object.");
        out->action = (json_t *)value;
        return PROTO_OK;
    case F_TEXT: {
        size_t chars;
        if (!json_is_string(value))
            return fail(PROTO_BAD_REQUEST, msg, size, "text must be a string.");
        if (!plain_text(json_string_value(value), &chars) || chars < 1 || chars > PROTO_CHAT_MAX)
            return fail(PROTO_BAD_REQUEST, msg, size, "text must be 1 to %d characters without control characters.",
                        PROTO_CHAT_MAX);
        out->text = json_string_value(value);
        return PROTO_OK;
    }
    case F_ACCOUNT:
        if (!json_is_string(value))
            return fail(PROTO_BAD_REQUEST, msg, size, "name must be a string.");
        return read_account(value, out, msg, size);
    case F_PASSWORD:
        /* bytes, as the store counts them; never trimmed, never quoted back */
        if (!json_is_string(value) || json_string_length(value) < PROTO_PASSWORD_MIN ||
            json_string_length(value) > PROTO_PASSWORD_MAX)
            return fail(PROTO_BAD_REQUEST, msg, size, "password must be a string of %d to %d bytes.",
                        PROTO_PASSWORD_MIN, PROTO_PASSWORD_MAX);
        out->password = json_string_value(value);
        return PROTO_OK;
    case F_HAND:
        if (!hand_number(value, &out->hand))
            return fail(PROTO_BAD_REQUEST, msg, size, "hand must be a hand number: an integer of at least 1.");
        return PROTO_OK;
    case F_BEFORE:
        if (!hand_number(value, &out->before))
            return fail(PROTO_BAD_REQUEST, msg, size, "before must be a hand number: an integer of at least 1.");
        return PROTO_OK;
    case F_LIMIT:
        if (!json_is_integer(value) || json_integer_value(value) < 1 || json_integer_value(value) > LIMIT_TABLES_PAGE)
            return fail(PROTO_BAD_REQUEST, msg, size, "limit must be an integer from 1 to %d.", LIMIT_TABLES_PAGE);
        out->limit = (int)json_integer_value(value);
        return PROTO_OK;
    case F_CURSOR:
        if (!json_is_string(value) || !decimal(json_string_value(value), &out->after) || out->after == 0)
            return fail(PROTO_BAD_REQUEST, msg, size, "after must be the \"next\" of an earlier tables reply.");
        return PROTO_OK;
    case F_STATE: {
        const char *s = json_string_value(value);
        if (s != NULL && strcmp(s, "waiting") == 0)
            out->state = PROTO_TABLES_WAITING;
        else if (s != NULL && strcmp(s, "playing") == 0)
            out->state = PROTO_TABLES_PLAYING;
        else
            return fail(PROTO_BAD_REQUEST, msg, size, "state must be \"waiting\" or \"playing\".");
        return PROTO_OK;
    }
    case F_FREE_SEAT:
        if (!json_is_boolean(value))
            return fail(PROTO_BAD_REQUEST, msg, size, "free_seat must be true or false.");
        out->free_seat = json_is_true(value);
        return PROTO_OK;
    case F_SEARCH:
        if (!json_is_string(value))
            return fail(PROTO_BAD_REQUEST, msg, size, "search must be a string.");
        return read_short_text("search", value, out->search, msg, size);
    case F_LOCKED:
        if (!json_is_boolean(value))
            return fail(PROTO_BAD_REQUEST, msg, size, "locked must be true or false.");
        out->locked = json_is_true(value);
        return PROTO_OK;
    case F_HERE:
        if (!json_is_boolean(value))
            return fail(PROTO_BAD_REQUEST, msg, size, "here must be true or false.");
        out->here = json_is_true(value);
        return PROTO_OK;
    case F_HELD:
        if (!json_is_boolean(value))
            return fail(PROTO_BAD_REQUEST, msg, size, "held must be true or false.");
        out->held = json_is_true(value);
        return PROTO_OK;
    case F_ON:
        if (!json_is_boolean(value))
            return fail(PROTO_BAD_REQUEST, msg, size, "on must be true or false.");
        out->on = json_is_true(value);
        return PROTO_OK;
    case F_PLAYER: {
        const char *s = json_string_value(value);
        uint64_t id = 0;
        if (s == NULL || s[0] != 'p' || !decimal(s + 1, &id) || id == 0)
            return fail(PROTO_BAD_REQUEST, msg, size, "player must be a player's id, such as \"p12\".");
        out->player = (int64_t)id;
        return PROTO_OK;
    }
    case F_TABLES_BEFORE:
        if (!hand_number(value, &out->tables_before))
            return fail(PROTO_BAD_REQUEST, msg, size, "tables_before must be the \"tables_next\" of an earlier profile.");
        return PROTO_OK;
    case F_HANDS_BEFORE:
        if (!hand_number(value, &out->hands_before))
            return fail(PROTO_BAD_REQUEST, msg, size, "hands_before must be the \"hands_next\" of an earlier profile.");
        return PROTO_OK;
    }
    return fail(PROTO_BAD_REQUEST, msg, size, "%s is not understood.", key);
}

static proto_status read_id(const json_t *id, proto_msg *out, char *msg, size_t size)
{
    if (id == NULL)
        return PROTO_OK;
    if (json_is_integer(id) || (json_is_string(id) && json_string_length(id) <= PROTO_ID_MAX)) {
        out->id = (json_t *)id;
        return PROTO_OK;
    }
    return fail(PROTO_BAD_REQUEST, msg, size, "id must be an integer or a string of at most %d bytes.", PROTO_ID_MAX);
}

static proto_status decode_object(proto_msg *out, char *msg, size_t size)
{
    proto_status st = read_id(json_object_get(out->root, "id"), out, msg, size);
    if (st != PROTO_OK)
        return st;
    const char *type = json_string_value(json_object_get(out->root, "type"));
    if (type == NULL)
        return fail(PROTO_BAD_REQUEST, msg, size, "A message needs a \"type\" string.");
    int t = 0;
    while (t < PROTO_TYPES && strcmp(SCHEMAS[t].name, type) != 0)
        t++;
    if (t == PROTO_TYPES)
        return fail(PROTO_UNKNOWN_TYPE, msg, size, "Unknown message type \"%.40s\".", type);
    out->type = (proto_type)t;

    const char *key;
    json_t *value;
    json_object_foreach (out->root, key, value) {
        if (strcmp(key, "type") == 0 || strcmp(key, "id") == 0)
            continue;
        const key_rule *rule = NULL;
        for (int k = 0; k < MAX_KEYS && SCHEMAS[t].keys[k].key != NULL; k++)
            if (strcmp(SCHEMAS[t].keys[k].key, key) == 0)
                rule = &SCHEMAS[t].keys[k];
        if (rule == NULL)
            return fail(PROTO_BAD_REQUEST, msg, size, "%s does not take \"%.40s\".", type, key);
        st = read_field(rule->field, key, value, out, msg, size);
        if (st != PROTO_OK)
            return st;
    }
    for (int k = 0; k < MAX_KEYS && SCHEMAS[t].keys[k].key != NULL; k++)
        if (SCHEMAS[t].keys[k].required && json_object_get(out->root, SCHEMAS[t].keys[k].key) == NULL)
            return fail(PROTO_BAD_REQUEST, msg, size, "%s needs \"%s\".", type, SCHEMAS[t].keys[k].key);
    return PROTO_OK;
}

proto_status proto_decode(const char *text, size_t len, proto_msg *out, char *msg, size_t size)
{
    memset(out, 0, sizeof *out);
    out->seat = -1;
    out->limit = LIMIT_TABLES_PAGE;
    json_error_t error;
    out->root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &error);
    if (out->root == NULL)
        return fail(PROTO_BAD_JSON, msg, size, "Not JSON: %s.", error.text);
    if (!json_is_object(out->root))
        return fail(PROTO_BAD_JSON, msg, size, "A message is one JSON object.");
    return decode_object(out, msg, size);
}

void proto_msg_free(proto_msg *m)
{
    json_decref(m->root);
    m->root = NULL;
    m->id = NULL;
}

json_t *proto_error(const json_t *id, const char *code, const char *message)
{
    char valid[PROTO_MESSAGE_SIZE * 2];
    snprintf(valid, sizeof valid, "%s", message);
    text_make_utf8(valid); /* a quoted cut may leave invalid UTF-8, which jansson would refuse */
    json_t *e = json_pack("{s:s, s:s, s:s}", "type", "error", "code", code, "message", valid);
    if (e != NULL && id != NULL)
        json_object_set(e, "id", (json_t *)id);
    return e;
}

/* What a client is told in welcome: the limits it can check before sending. PROTOCOL.md's table
 * of limits lists these keys and values (a unit test compares). */
static const struct {
    const char *key;
    json_int_t value;
} CLIENT_LIMITS[] = {
    {"seats", LIMIT_SEATS},
    {"name_chars", LIMIT_NAME_CHARS},
    {"account_min_chars", LIMIT_ACCOUNT_MIN_CHARS},
    {"account_min_wide_chars", LIMIT_ACCOUNT_MIN_WIDE_CHARS},
    {"account_max_chars", LIMIT_ACCOUNT_MAX_CHARS},
    {"password_min_bytes", LIMIT_PASSWORD_MIN_BYTES},
    {"password_max_bytes", LIMIT_PASSWORD_MAX_BYTES},
    {"chat_chars", LIMIT_CHAT_CHARS},
    {"turn_seconds_min", LIMIT_TURN_SECONDS_MIN},
    {"turn_seconds_max", LIMIT_TURN_SECONDS_MAX},
    {"stake_min", LIMIT_STAKE_MIN},
    {"stake_max", LIMIT_STAKE_MAX},
    {"code_chars", LIMIT_CODE_CHARS},
    {"code_min_chars", LIMIT_CODE_MIN_CHARS},
    {"tables_page", LIMIT_TABLES_PAGE},
    {"message_bytes", LIMIT_MESSAGE_BYTES},
    {"messages_per_second", LIMIT_RATE_PER_SECOND},
    {"message_burst", LIMIT_RATE_BURST},
    {"history_page", LIMIT_HISTORY_PAGE},
    {"tables_per_player", LIMIT_TABLES_PER_PLAYER},
    {"table_members", LIMIT_TABLE_MEMBERS},
    {"table_watchers", LIMIT_TABLE_WATCHERS},
    {"chat_burst", LIMIT_CHAT_BURST},
    {"chat_per_minute", LIMIT_CHAT_PER_MINUTE},
};

json_t *proto_limits_json(void)
{
    json_t *limits = json_object();
    for (size_t i = 0; limits != NULL && i < sizeof CLIENT_LIMITS / sizeof CLIENT_LIMITS[0]; i++)
        if (json_object_set_new(limits, CLIENT_LIMITS[i].key, json_integer(CLIENT_LIMITS[i].value)) != 0) {
            json_decref(limits);
            return NULL;
        }
    return limits;
}
