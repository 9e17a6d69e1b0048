/*
 * fuzz_proto — proto_decode on arbitrary bytes: the text of a WebSocket frame from anyone.
 *
 * Beyond "no crash, no leak, no read past the frame", an accepted message must hold exactly what
 * PROTOCOL.md allows: only the keys listed for its type, every required one, and fields in their
 * ranges (names 1-24 characters without control characters and trimmed, account names 3-24
 * characters (at most 96 bytes) with no space, control or ASCII punctuation but '_', '-', '.'
 * and no mix of Latin, Greek and Cyrillic, passwords of 8-1024 bytes as sent, codes of 6-12
 * characters from the code alphabet, seats 0-3, turn_seconds 5-300, hand numbers from 1, tokens of 16-64 URL-safe
 * base64 characters). The table of keys below is written from PROTOCOL.md, not from proto.c, so
 * it checks one against the other. A refused frame must come with a sentence, and its id (when
 * it had a valid one) for the error reply.
 */
#include <jansson.h>

#include "fuzz.h"
#include "proto.h"

/* The keys of each client message of PROTOCOL.md besides "type" and "id"; '*' marks required. */
static const struct {
    const char *type;
    const char *keys[6];
} DOCUMENTED[] = {
    {"hello", {"*v", "*name", "token"}},
    {"list_tables", {"limit", "after", "game", "state", "free_seat", "search"}},
    {"create_table", {"*game", "options", "public", "turn_seconds"}},
    {"join_table", {"*code", "seat"}},
    {"leave_table", {"*code"}},
    {"take_seat", {"*code", "*seat"}},
    {"leave_seat", {"*code"}},
    {"add_bot", {"*code", "*seat"}},
    {"remove_bot", {"*code", "*seat"}},
    {"start", {"*code"}},
    {"ready", {"*code"}},
    {"act", {"*code", "*action"}},
    {"chat", {"*code", "*text"}},
    {"ping", {NULL}},
    {"register", {"*name", "*password"}},
    {"login", {"*name", "*password"}},
    {"logout", {NULL}},
    {"history", {"*code", "before"}},
    {"replay", {"*code", "*hand"}},
    {"lock_table", {"*code", "*locked"}},
    {"remove_member", {"*code", "*player"}},
    {"set_host", {"*code", "*player"}},
    {"set_options", {"*code", "*options"}},
    {"hold_table", {"*code", "*held"}},
    {"end_table", {"*code"}},
    {"spectator_chat", {"*code", "*on"}},
};
#define DOCUMENTED_TYPES (sizeof DOCUMENTED / sizeof DOCUMENTED[0])

static int documented_index(const char *type)
{
    for (size_t i = 0; i < DOCUMENTED_TYPES; i++)
        if (strcmp(DOCUMENTED[i].type, type) == 0)
            return (int)i;
    return -1;
}

/* 0 if the key is not listed for the type, 1 if optional, 2 if required. */
static int key_rule(int type, const char *key)
{
    for (int k = 0; k < 6 && DOCUMENTED[type].keys[k] != NULL; k++) {
        const char *listed = DOCUMENTED[type].keys[k];
        bool required = listed[0] == '*';
        if (strcmp(listed + required, key) == 0)
            return required ? 2 : 1;
    }
    return 0;
}

/* Characters of valid UTF-8 text (jansson has checked the encoding). */
static size_t utf8_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xc0) != 0x80)
            n++;
    return n;
}

/* No C0 control, DEL or C1 control (U+0080-U+009F, encoded 0xC2 0x80-0x9F). */
static bool free_of_controls(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f || (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
            return false;
    return true;
}

static void check_keys(const proto_msg *m, int type)
{
    const char *key;
    json_t *value;
    json_object_foreach (m->root, key, value) {
        if (strcmp(key, "type") != 0 && strcmp(key, "id") != 0)
            FUZZ_CHECK(key_rule(type, key) != 0, "%s accepted with the key \"%s\"", DOCUMENTED[type].type, key);
    }
    for (int k = 0; k < 6 && DOCUMENTED[type].keys[k] != NULL; k++) {
        const char *listed = DOCUMENTED[type].keys[k];
        if (listed[0] == '*')
            FUZZ_CHECK(json_object_get(m->root, listed + 1) != NULL, "%s accepted without \"%s\"",
                       DOCUMENTED[type].type, listed + 1);
    }
}

static void check_name_and_token(const proto_msg *m)
{
    size_t len = strlen(m->name);
    FUZZ_CHECK(len > 0 && m->name[0] != ' ' && m->name[len - 1] != ' ', "name \"%s\" is not trimmed", m->name);
    FUZZ_CHECK(utf8_chars(m->name) <= PROTO_NAME_MAX, "name \"%s\" is too long", m->name);
    FUZZ_CHECK(free_of_controls(m->name), "name holds a control character");
    json_int_t v = json_integer_value(json_object_get(m->root, "v"));
    FUZZ_CHECK(json_is_integer(json_object_get(m->root, "v")) && v == PROTO_VERSION, "hello with v other than 1");
    const char *token = json_string_value(json_object_get(m->root, "token"));
    if (token == NULL) {
        FUZZ_CHECK(m->token[0] == '\0', "a token without \"token\"");
        return;
    }
    size_t token_len = strlen(m->token);
    FUZZ_CHECK(token_len >= 16 && token_len <= 64 &&
                   strspn(m->token, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") == token_len,
               "token \"%s\" is not 16-64 URL-safe base64 characters", m->token);
    FUZZ_CHECK(strcmp(m->token, token) == 0, "token differs from the message's");
}

/* The next code point of valid UTF-8 text (jansson has checked the encoding). */
static uint32_t next_code_point(const unsigned char **p)
{
    const unsigned char *s = *p;
    size_t n = s[0] < 0x80 ? 1 : s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
    uint32_t c = n == 1 ? s[0] : s[0] & (0x3fu >> (n - 1));
    for (size_t i = 1; i < n; i++)
        c = (c << 6) | (s[i] & 0x3fu);
    *p = s + n;
    return c;
}

/* Spaces and invisible characters of Unicode that PROTOCOL.md's "no spaces" must keep out. */
static bool space_or_invisible(uint32_t c)
{
    return c == 0xa0 || c == 0xad || c == 0x1680 || (c >= 0x2000 && c <= 0x200f) || (c >= 0x2028 && c <= 0x202f) ||
           (c >= 0x205f && c <= 0x206f) || c == 0x3000 || c == 0xfeff;
}

/* 1 Latin, 2 Greek, 3 Cyrillic, 0 anything else: the look-alike scripts a name may not mix. */
static int look_alike_script(uint32_t c)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= 0xc0 && c <= 0x24f) || (c >= 0x1e00 && c <= 0x1eff))
        return 1;
    if ((c >= 0x370 && c <= 0x3ff) || (c >= 0x1f00 && c <= 0x1fff))
        return 2;
    if (c >= 0x400 && c <= 0x52f)
        return 3;
    return 0;
}

static void check_account(const proto_msg *m)
{
    const char *given = json_string_value(json_object_get(m->root, "name"));
    FUZZ_CHECK(given != NULL, "an account name that is not a string");
    while (*given == ' ')
        given++;
    size_t len = strlen(m->name);
    FUZZ_CHECK(strncmp(given, m->name, len) == 0 && strspn(given + len, " ") == strlen(given + len),
               "account name \"%s\" is not the message's, trimmed", m->name);
    FUZZ_CHECK(len <= 96, "account name of %zu bytes", len);
    size_t chars = utf8_chars(m->name);
    FUZZ_CHECK(chars >= 3 && chars <= 24, "account name of %zu characters", chars);
    FUZZ_CHECK(free_of_controls(m->name), "account name holds a control character");
    bool letter_or_digit = false;
    int script = 0;
    for (const unsigned char *p = (const unsigned char *)m->name; *p;) {
        uint32_t c = next_code_point(&p);
        bool separator = c == '_' || c == '-' || c == '.';
        FUZZ_CHECK(c >= 0x80 || separator || (c >= '0' && c <= '9') || look_alike_script(c) == 1,
                   "account name \"%s\" holds '%c'", m->name, (char)c);
        FUZZ_CHECK(!space_or_invisible(c), "account name holds U+%04X", (unsigned)c);
        letter_or_digit |= !separator;
        int here = look_alike_script(c);
        FUZZ_CHECK(here == 0 || script == 0 || here == script, "account name \"%s\" mixes scripts", m->name);
        if (here != 0)
            script = here;
    }
    FUZZ_CHECK(letter_or_digit, "account name \"%s\" has no letter or digit", m->name);
    const json_t *password = json_object_get(m->root, "password");
    FUZZ_CHECK(m->password != NULL && m->password == json_string_value(password), "password differs");
    FUZZ_CHECK(json_string_length(password) >= 8 && json_string_length(password) <= 1024, "password of %zu bytes",
               json_string_length(password));
}

/* hand (replay) and before (history) are hand numbers, integers from 1; before is 0 when absent. */
static void check_hand_number(const proto_msg *m, const char *key, int64_t decoded)
{
    const json_t *given = json_object_get(m->root, key);
    if (given == NULL) {
        FUZZ_CHECK(decoded == 0, "%s %lld without \"%s\"", key, (long long)decoded, key);
        return;
    }
    FUZZ_CHECK(json_is_integer(given) && json_integer_value(given) >= 1, "%s is not a hand number", key);
    FUZZ_CHECK(decoded == (int64_t)json_integer_value(given), "%s differs", key);
}

static void check_code(const proto_msg *m)
{
    const char *given = json_string_value(json_object_get(m->root, "code"));
    size_t len = given != NULL ? strlen(given) : 0;
    FUZZ_CHECK(len >= 6 && len <= 12, "code is not 6 to 12 characters");
    FUZZ_CHECK(strlen(m->code) == len, "decoded code is not the code given");
    for (size_t i = 0; i < len; i++) {
        FUZZ_CHECK(strchr("ABCDEFGHJKMNPQRSTUVWXYZ23456789", m->code[i]) != NULL, "code %s has a look-alike",
                   m->code);
        char upper = given[i] >= 'a' && given[i] <= 'z' ? (char)(given[i] - 'a' + 'A') : given[i];
        FUZZ_CHECK(upper == m->code[i], "code %s is not %s upper-cased", m->code, given);
    }
}

/* list_tables: a page of 1-50, a cursor of digits, a state of two words, a search like a name. */
static void check_list_filters(const proto_msg *m)
{
    const json_t *root = m->root;
    FUZZ_CHECK(m->limit >= 1 && m->limit <= 50, "limit %d", m->limit);
    if (json_object_get(root, "limit") == NULL)
        FUZZ_CHECK(m->limit == 50, "limit %d without \"limit\"", m->limit);
    const char *after = json_string_value(json_object_get(root, "after"));
    FUZZ_CHECK(after == NULL ? m->after == 0 : m->after >= 1, "after %llu", (unsigned long long)m->after);
    FUZZ_CHECK(after == NULL || (strlen(after) >= 1 && strspn(after, "0123456789") == strlen(after)),
               "after \"%s\" is not digits", after);
    const char *state = json_string_value(json_object_get(root, "state"));
    FUZZ_CHECK(state == NULL || strcmp(state, "waiting") == 0 || strcmp(state, "playing") == 0, "state \"%s\"", state);
    FUZZ_CHECK(m->free_seat == json_is_true(json_object_get(root, "free_seat")), "free_seat differs");
    size_t len = strlen(m->search);
    FUZZ_CHECK((json_object_get(root, "search") == NULL) == (len == 0), "search given but empty, or not given");
    if (len > 0) {
        FUZZ_CHECK(m->search[0] != ' ' && m->search[len - 1] != ' ', "search \"%s\" is not trimmed", m->search);
        FUZZ_CHECK(utf8_chars(m->search) <= PROTO_NAME_MAX, "search \"%s\" is too long", m->search);
        FUZZ_CHECK(free_of_controls(m->search), "search holds a control character");
    }
}

static void check_fields(const proto_msg *m, int type)
{
    const char *name = DOCUMENTED[type].type;
    if (strcmp(name, "hello") == 0)
        check_name_and_token(m);
    if (key_rule(type, "code") != 0)
        check_code(m);
    if (key_rule(type, "seat") != 0 && json_object_get(m->root, "seat") != NULL) {
        FUZZ_CHECK(m->seat >= 0 && m->seat <= 3, "seat %d", m->seat);
        FUZZ_CHECK(json_integer_value(json_object_get(m->root, "seat")) == m->seat, "seat differs");
    } else {
        FUZZ_CHECK(m->seat == -1, "seat %d without \"seat\"", m->seat);
    }
    if (strcmp(name, "list_tables") == 0)
        check_list_filters(m);
    if (strcmp(name, "lock_table") == 0)
        FUZZ_CHECK(m->locked == json_is_true(json_object_get(m->root, "locked")), "locked differs");
    if (strcmp(name, "hold_table") == 0)
        FUZZ_CHECK(m->held == json_is_true(json_object_get(m->root, "held")), "held differs");
    if (strcmp(name, "spectator_chat") == 0)
        FUZZ_CHECK(m->on == json_is_true(json_object_get(m->root, "on")), "on differs");
    if (strcmp(name, "set_options") == 0)
        FUZZ_CHECK(json_is_object(m->options) && m->options == json_object_get(m->root, "options"), "options differs");
    if (strcmp(name, "remove_member") == 0 || strcmp(name, "set_host") == 0) {
        char ref[24];
        snprintf(ref, sizeof ref, "p%lld", (long long)m->player);
        FUZZ_CHECK(m->player >= 1 && strcmp(ref, json_string_value(json_object_get(m->root, "player"))) == 0,
                   "player p%lld differs", (long long)m->player);
    }
    if (strcmp(name, "create_table") == 0) {
        FUZZ_CHECK(m->game != NULL && strcmp(m->game, json_string_value(json_object_get(m->root, "game"))) == 0,
                   "game differs");
        FUZZ_CHECK(m->options == NULL || json_is_object(m->options), "options is not an object");
        FUZZ_CHECK(m->options == json_object_get(m->root, "options"), "options differs");
        FUZZ_CHECK(m->turn_seconds == 0 || (m->turn_seconds >= 5 && m->turn_seconds <= 300), "turn_seconds %d",
                   m->turn_seconds);
        FUZZ_CHECK(m->is_public == json_is_true(json_object_get(m->root, "public")), "public differs");
    }
    if (strcmp(name, "register") == 0 || strcmp(name, "login") == 0)
        check_account(m);
    if (strcmp(name, "history") == 0)
        check_hand_number(m, "before", m->before);
    if (strcmp(name, "replay") == 0)
        check_hand_number(m, "hand", m->hand);
    if (strcmp(name, "act") == 0)
        FUZZ_CHECK(json_is_object(m->action) && m->action == json_object_get(m->root, "action"), "action");
    if (strcmp(name, "chat") == 0) {
        FUZZ_CHECK(m->text != NULL, "chat without text");
        size_t chars = utf8_chars(m->text);
        FUZZ_CHECK(chars >= 1 && chars <= PROTO_CHAT_MAX, "chat of %zu characters", chars);
        FUZZ_CHECK(free_of_controls(m->text), "chat holds a control character");
    }
}

static void check_accepted(const proto_msg *m)
{
    FUZZ_CHECK(json_is_object(m->root), "accepted a frame that is not an object");
    const char *type = json_string_value(json_object_get(m->root, "type"));
    FUZZ_CHECK(type != NULL, "accepted a message without a type string");
    int t = documented_index(type);
    FUZZ_CHECK(t >= 0, "accepted the undocumented type \"%s\"", type);
    FUZZ_CHECK(strcmp(proto_type_name(m->type), type) == 0, "decoded as %s, sent as %s", proto_type_name(m->type),
               type);
    check_keys(m, t);
    check_fields(m, t);
}

/* PROTOCOL.md: the id is an integer or a string of at most 64 (bytes, says proto.h). */
static bool valid_id(const json_t *id)
{
    return json_is_integer(id) || (json_is_string(id) && json_string_length(id) <= PROTO_ID_MAX);
}

static void check_refused(const proto_msg *m, proto_status status, const char *msg)
{
    FUZZ_CHECK(memchr(msg, '\0', PROTO_MESSAGE_SIZE) != NULL && msg[0] != '\0', "refused without a message");
    const char *code = proto_status_name(status);
    FUZZ_CHECK(strcmp(code, "bad_json") == 0 || strcmp(code, "bad_request") == 0 ||
                   strcmp(code, "unknown_type") == 0 || strcmp(code, "unsupported_version") == 0,
               "refused with code %s", code);
    json_t *id = json_is_object(m->root) ? json_object_get(m->root, "id") : NULL;
    if (valid_id(id))
        FUZZ_CHECK(m->id == id, "the refusal lost the frame's id");
    else
        FUZZ_CHECK(m->id == NULL, "the refusal kept an invalid id");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    proto_msg m;
    char msg[PROTO_MESSAGE_SIZE];
    memset(msg, 'x', sizeof msg); /* so a message left unterminated shows */
    proto_status status = proto_decode((const char *)data, size, &m, msg, sizeof msg);
    if (status == PROTO_OK)
        check_accepted(&m);
    else
        check_refused(&m, status, msg);

    /* The error reply the lobby would build must be writable whatever the id was. */
    json_t *reply = proto_error(m.id, proto_status_name(status), status == PROTO_OK ? "ok" : msg);
    char *text = json_dumps(reply, JSON_COMPACT);
    FUZZ_CHECK(text != NULL || (FUZZ_KNOWN_ERROR_TEXT_NOT_UTF8 && !fuzz_valid_utf8(msg)),
               "the error reply cannot be written");
    if (status != PROTO_OK && !FUZZ_KNOWN_ERROR_TEXT_NOT_UTF8)
        FUZZ_CHECK(fuzz_valid_utf8(msg), "the refusal's sentence is not valid UTF-8");
    free(text);
    json_decref(reply);
    proto_msg_free(&m);
    return 0;
}
