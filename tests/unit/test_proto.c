/*
 * proto — every client message decodes into checked fields, and every malformed one is refused
 * with the right status and a message naming what is wrong. The limits tested are PROTOCOL.md's
 * (house_limits.h): names 1-24 characters of any script, account names 3-24, passwords 8-1024
 * bytes, tokens 16-64 characters, table codes 6-12 characters, pages of 1-50 tables; names in
 * NFC without invisible characters, account names that look alike sharing a key (names.h).
 * PROTOCOL.md's tables of error codes and limits are read and
 * compared with errors.h and proto_limits_json, both ways.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "proto.h"
#include "tg_status.h"

#define PROTOCOL_MD TEAHOUSE_SOURCE_ROOT "/protocol/PROTOCOL.md"

static proto_status decode(const char *text, proto_msg *m, char *msg)
{
    return proto_decode(text, strlen(text), m, msg, PROTO_MESSAGE_SIZE);
}

/* Decodes, checks the status, frees; returns the message for further checks. */
static void expect(const char *text, proto_status want, const char *fragment)
{
    proto_msg m;
    char msg[PROTO_MESSAGE_SIZE] = "";
    proto_status got = decode(text, &m, msg);
    ck_assert_msg(got == want, "%s: got %s (%s), want %s", text, proto_status_name(got), msg, proto_status_name(want));
    if (fragment != NULL)
        ck_assert_msg(strstr(msg, fragment) != NULL, "%s: message \"%s\" lacks \"%s\"", text, msg, fragment);
    proto_msg_free(&m);
}

START_TEST(test_hello_decodes_name_and_token)
{
    proto_msg m;
    char msg[PROTO_MESSAGE_SIZE];
    const char *text = "{\"type\":\"hello\",\"v\":1,\"name\":\"  Ah Ma  \",\"id\":7,"
                       "\"token\":\"00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\"}";
    ck_assert_int_eq(decode(text, &m, msg), PROTO_OK);
    ck_assert_int_eq(m.type, PROTO_HELLO);
    ck_assert_str_eq(m.name, "Ah Ma");
    ck_assert_int_eq(json_integer_value(m.id), 7);
    ck_assert_str_eq(m.token, "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff");
    proto_msg_free(&m);
}
END_TEST

START_TEST(test_every_type_decodes_with_its_fields)
{
    proto_msg m;
    char msg[PROTO_MESSAGE_SIZE];
    ck_assert_int_eq(decode("{\"type\":\"create_table\",\"game\":\"tiengow\",\"options\":{},\"public\":true,"
                            "\"turn_seconds\":45}",
                            &m, msg),
                     PROTO_OK);
    ck_assert_str_eq(m.game, "tiengow");
    ck_assert(m.is_public);
    ck_assert_int_eq(m.turn_seconds, 45);
    proto_msg_free(&m);
    ck_assert_int_eq(decode("{\"type\":\"take_seat\",\"code\":\"k7m2qx\",\"seat\":3}", &m, msg), PROTO_OK);
    ck_assert_str_eq(m.code, "K7M2QX");
    ck_assert_int_eq(m.seat, 3);
    proto_msg_free(&m);
    ck_assert_int_eq(decode("{\"type\":\"act\",\"code\":\"K7M2QX\",\"action\":{\"play\":[\"6-6\"]}}", &m, msg),
                     PROTO_OK);
    ck_assert(json_is_object(m.action));
    proto_msg_free(&m);
    ck_assert_int_eq(decode("{\"type\":\"chat\",\"code\":\"K7M2QX\",\"text\":\"好牌!\"}", &m, msg), PROTO_OK);
    ck_assert_str_eq(m.text, "好牌!");
    proto_msg_free(&m);
    const char *plain[] = {"{\"type\":\"list_tables\"}", "{\"type\":\"ping\",\"id\":\"x\"}",
                           "{\"type\":\"join_table\",\"code\":\"ABCDEF\"}", "{\"type\":\"leave_table\",\"code\":\"ABCDEF\"}",
                           "{\"type\":\"leave_seat\",\"code\":\"ABCDEF\"}", "{\"type\":\"add_bot\",\"code\":\"ABCDEF\",\"seat\":1}",
                           "{\"type\":\"remove_bot\",\"code\":\"ABCDEF\",\"seat\":1}", "{\"type\":\"start\",\"code\":\"ABCDEF\"}",
                           "{\"type\":\"ready\",\"code\":\"ABCDEF\"}"};
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        expect(plain[i], PROTO_OK, NULL);
}
END_TEST

START_TEST(test_not_json_or_not_an_object_is_bad_json)
{
    expect("", PROTO_BAD_JSON, NULL);
    expect("{\"type\":", PROTO_BAD_JSON, NULL);
    expect("[1,2]", PROTO_BAD_JSON, "object");
    expect("\"hello\"", PROTO_BAD_JSON, NULL);
    expect("{\"type\":\"ping\",\"type\":\"ping\"}", PROTO_BAD_JSON, NULL); /* a repeated key */
}
END_TEST

START_TEST(test_unknown_type_and_missing_type)
{
    expect("{\"type\":\"fold\"}", PROTO_UNKNOWN_TYPE, "fold");
    expect("{\"id\":1}", PROTO_BAD_REQUEST, "type");
    expect("{\"type\":5}", PROTO_BAD_REQUEST, "type");
}
END_TEST

START_TEST(test_keys_not_in_the_schema_are_refused)
{
    expect("{\"type\":\"ping\",\"admin\":true}", PROTO_BAD_REQUEST, "admin");
    expect("{\"type\":\"act\",\"code\":\"ABCDEF\",\"action\":{},\"seat\":2}", PROTO_BAD_REQUEST, "seat");
}
END_TEST

START_TEST(test_required_keys_and_types_are_checked)
{
    expect("{\"type\":\"hello\",\"v\":1}", PROTO_BAD_REQUEST, "name");
    expect("{\"type\":\"hello\",\"name\":\"a\"}", PROTO_BAD_REQUEST, "\"v\"");
    expect("{\"type\":\"hello\",\"v\":\"1\",\"name\":\"a\"}", PROTO_BAD_REQUEST, "v must");
    expect("{\"type\":\"hello\",\"v\":2,\"name\":\"a\"}", PROTO_UNSUPPORTED_VERSION, "version 1");
    expect("{\"type\":\"take_seat\",\"code\":\"ABCDEF\"}", PROTO_BAD_REQUEST, "seat");
    expect("{\"type\":\"take_seat\",\"code\":\"ABCDEF\",\"seat\":4}", PROTO_BAD_REQUEST, "seat");
    expect("{\"type\":\"take_seat\",\"code\":\"ABCDEF\",\"seat\":-1}", PROTO_BAD_REQUEST, "seat");
    expect("{\"type\":\"take_seat\",\"code\":\"ABCDEF\",\"seat\":1.0}", PROTO_BAD_REQUEST, "seat");
    expect("{\"type\":\"create_table\",\"game\":7}", PROTO_BAD_REQUEST, "game");
    expect("{\"type\":\"create_table\",\"game\":\"tiengow\",\"options\":[]}", PROTO_BAD_REQUEST, "options");
    expect("{\"type\":\"create_table\",\"game\":\"tiengow\",\"public\":1}", PROTO_BAD_REQUEST, "public");
    expect("{\"type\":\"create_table\",\"game\":\"tiengow\",\"turn_seconds\":4}", PROTO_BAD_REQUEST, "turn_seconds");
    expect("{\"type\":\"create_table\",\"game\":\"tiengow\",\"turn_seconds\":301}", PROTO_BAD_REQUEST, "turn_seconds");
    expect("{\"type\":\"act\",\"code\":\"ABCDEF\",\"action\":[\"6-6\"]}", PROTO_BAD_REQUEST, "action");
}
END_TEST

START_TEST(test_names_are_trimmed_bounded_and_plain)
{
    expect("{\"type\":\"hello\",\"v\":1,\"name\":\"   \"}", PROTO_BAD_REQUEST, "1 to 24");
    expect("{\"type\":\"hello\",\"v\":1,\"name\":\"\"}", PROTO_BAD_REQUEST, "1 to 24");
    expect("{\"type\":\"hello\",\"v\":1,\"name\":\"abcdefghijklmnopqrstuvwxy\"}", PROTO_BAD_REQUEST, NULL);
    expect("{\"type\":\"hello\",\"v\":1,\"name\":\"abcdefghijklmnopqrstuvwx\"}", PROTO_OK, NULL);
    /* 24 Chinese characters are 24 characters, though 72 bytes */
    expect("{\"type\":\"hello\",\"v\":1,\"name\":\"天天天天天天天天天天天天天天天天天天天天天天天天\"}", PROTO_OK, NULL);
    expect("{\"type\":\"hello\",\"v\":1,\"name\":\"a\\nb\"}", PROTO_BAD_REQUEST, "control");
    expect("{\"type\":\"hello\",\"v\":1,\"name\":\"a\\u0085b\"}", PROTO_BAD_REQUEST, "control");
}
END_TEST

START_TEST(test_codes_tokens_chat_and_ids_are_bounded)
{
    expect("{\"type\":\"join_table\",\"code\":\"ABCDE\"}", PROTO_BAD_REQUEST, "6 to 12");
    expect("{\"type\":\"join_table\",\"code\":\"ABCDEFGHJKMNP\"}", PROTO_BAD_REQUEST, "6 to 12");
    expect("{\"type\":\"join_table\",\"code\":\"ABCDE0\"}", PROTO_BAD_REQUEST, "code"); /* 0 looks like O */
    expect("{\"type\":\"join_table\",\"code\":\"ABCDEI\"}", PROTO_BAD_REQUEST, "code");
    expect("{\"type\":\"hello\",\"v\":1,\"name\":\"a\",\"token\":\"abc\"}", PROTO_BAD_REQUEST, "token");
    expect("{\"type\":\"hello\",\"v\":1,\"name\":\"a\",\"token\":"
           "\"+/112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\"}",
           PROTO_BAD_REQUEST, "token");
    expect("{\"type\":\"chat\",\"code\":\"ABCDEF\",\"text\":\"\"}", PROTO_BAD_REQUEST, "text");
    char chat[1200];
    snprintf(chat, sizeof chat, "{\"type\":\"chat\",\"code\":\"ABCDEF\",\"text\":\"%0301d\"}", 0);
    expect(chat, PROTO_BAD_REQUEST, "text");
    expect("{\"type\":\"ping\",\"id\":[1]}", PROTO_BAD_REQUEST, "id");
    expect("{\"type\":\"ping\",\"id\":\"01234567890123456789012345678901234567890123456789012345678901234\"}",
           PROTO_BAD_REQUEST, "id");
}
END_TEST

/* A message with a string field of n copies of c, e.g. a password of n bytes. */
static char *with_repeated(const char *head, char c, size_t n, const char *tail)
{
    size_t size = strlen(head) + n + strlen(tail) + 1;
    char *text = malloc(size);
    ck_assert_ptr_nonnull(text);
    memcpy(text, head, strlen(head));
    memset(text + strlen(head), c, n);
    memcpy(text + strlen(head) + n, tail, strlen(tail) + 1);
    return text;
}

START_TEST(test_new_types_have_their_wire_names_in_order)
{
    /* the lobby indexes tables by these values: appended after ping, in this order */
    ck_assert_int_eq(PROTO_REGISTER, PROTO_PING + 1);
    ck_assert_str_eq(proto_type_name(PROTO_REGISTER), "register");
    ck_assert_str_eq(proto_type_name(PROTO_LOGIN), "login");
    ck_assert_str_eq(proto_type_name(PROTO_LOGOUT), "logout");
    ck_assert_str_eq(proto_type_name(PROTO_HISTORY), "history");
    ck_assert_str_eq(proto_type_name(PROTO_REPLAY), "replay");
    ck_assert_str_eq(proto_type_name(PROTO_LOCK_TABLE), "lock_table");
    ck_assert_str_eq(proto_type_name(PROTO_REMOVE_MEMBER), "remove_member");
    ck_assert_int_eq(PROTO_LOCK_TABLE, PROTO_REPLAY + 1);
    ck_assert_str_eq(proto_type_name(PROTO_MY_TABLES), "my_tables");
    ck_assert_str_eq(proto_type_name(PROTO_PRESENCE), "presence");
    ck_assert_int_eq(PROTO_MY_TABLES, PROTO_REMOVE_MEMBER + 1);
    ck_assert_str_eq(proto_type_name(PROTO_PROFILE), "profile");
    ck_assert_int_eq(PROTO_PROFILE, PROTO_PRESENCE + 1);
    ck_assert_str_eq(proto_type_name(PROTO_SET_HOST), "set_host");
    ck_assert_int_eq(PROTO_SET_HOST, PROTO_PROFILE + 1);
    ck_assert_str_eq(proto_type_name(PROTO_SET_OPTIONS), "set_options");
    ck_assert_str_eq(proto_type_name(PROTO_HOLD_TABLE), "hold_table");
    ck_assert_str_eq(proto_type_name(PROTO_END_TABLE), "end_table");
    ck_assert_str_eq(proto_type_name(PROTO_SPECTATOR_CHAT), "spectator_chat");
    ck_assert_int_eq(PROTO_TYPES, PROTO_SPECTATOR_CHAT + 1);
}
END_TEST

START_TEST(test_the_host_controls_decode_their_target_options_and_switches_and_refuse_anything_else)
{
    proto_msg m;
    char msg[PROTO_MESSAGE_SIZE];
    ck_assert_int_eq(decode("{\"type\":\"set_host\",\"code\":\"K7M2QX\",\"player\":\"p5\"}", &m, msg), PROTO_OK);
    ck_assert_int_eq(m.type, PROTO_SET_HOST);
    ck_assert_int_eq(m.player, 5);
    proto_msg_free(&m);
    expect("{\"type\":\"set_host\",\"code\":\"K7M2QX\",\"player\":5}", PROTO_BAD_REQUEST, "player");
    expect("{\"type\":\"set_host\",\"code\":\"K7M2QX\"}", PROTO_BAD_REQUEST, "player");
    ck_assert_int_eq(decode("{\"type\":\"set_options\",\"code\":\"K7M2QX\",\"options\":{\"stake\":2}}", &m, msg), PROTO_OK);
    ck_assert_int_eq(m.type, PROTO_SET_OPTIONS);
    ck_assert_int_eq(json_integer_value(json_object_get(m.options, "stake")), 2);
    proto_msg_free(&m);
    expect("{\"type\":\"set_options\",\"code\":\"K7M2QX\"}", PROTO_BAD_REQUEST, "options");
    expect("{\"type\":\"set_options\",\"code\":\"K7M2QX\",\"options\":[1]}", PROTO_BAD_REQUEST, "options");
    ck_assert_int_eq(decode("{\"type\":\"hold_table\",\"code\":\"K7M2QX\",\"held\":true}", &m, msg), PROTO_OK);
    ck_assert(m.held);
    proto_msg_free(&m);
    expect("{\"type\":\"hold_table\",\"code\":\"K7M2QX\",\"held\":1}", PROTO_BAD_REQUEST, "held");
    expect("{\"type\":\"hold_table\",\"code\":\"K7M2QX\"}", PROTO_BAD_REQUEST, "held");
    ck_assert_int_eq(decode("{\"type\":\"end_table\",\"code\":\"K7M2QX\"}", &m, msg), PROTO_OK);
    ck_assert_int_eq(m.type, PROTO_END_TABLE);
    proto_msg_free(&m);
    expect("{\"type\":\"end_table\",\"code\":\"K7M2QX\",\"now\":true}", PROTO_BAD_REQUEST, "now");
    ck_assert_int_eq(decode("{\"type\":\"spectator_chat\",\"code\":\"K7M2QX\",\"on\":false}", &m, msg), PROTO_OK);
    ck_assert(!m.on);
    proto_msg_free(&m);
    expect("{\"type\":\"spectator_chat\",\"code\":\"K7M2QX\",\"on\":\"off\"}", PROTO_BAD_REQUEST, "on");
}
END_TEST

START_TEST(test_my_tables_takes_nothing_and_presence_takes_a_code_and_here)
{
    proto_msg m;
    char msg[256];
    ck_assert_int_eq(decode("{\"type\":\"my_tables\",\"id\":3}", &m, msg), PROTO_OK);
    ck_assert_int_eq(m.type, PROTO_MY_TABLES);
    proto_msg_free(&m);
    expect("{\"type\":\"my_tables\",\"code\":\"K7M2QX\"}", PROTO_BAD_REQUEST, "code");
    ck_assert_int_eq(decode("{\"type\":\"presence\",\"code\":\"k7m2qx\",\"here\":false}", &m, msg), PROTO_OK);
    ck_assert_int_eq(m.type, PROTO_PRESENCE);
    ck_assert_str_eq(m.code, "K7M2QX");
    ck_assert(!m.here);
    proto_msg_free(&m);
    ck_assert_int_eq(decode("{\"type\":\"presence\",\"code\":\"K7M2QX\",\"here\":true}", &m, msg), PROTO_OK);
    ck_assert(m.here);
    proto_msg_free(&m);
    expect("{\"type\":\"presence\",\"code\":\"K7M2QX\"}", PROTO_BAD_REQUEST, "here");
    expect("{\"type\":\"presence\",\"here\":true}", PROTO_BAD_REQUEST, "code");
    expect("{\"type\":\"presence\",\"code\":\"K7M2QX\",\"here\":1}", PROTO_BAD_REQUEST, "here");
    expect("{\"type\":\"presence\",\"code\":\"K7M2QX\",\"here\":\"yes\"}", PROTO_BAD_REQUEST, "here");
    expect("{\"type\":\"presence\",\"code\":\"K7!\",\"here\":true}", PROTO_BAD_REQUEST, "code");
}
END_TEST

START_TEST(test_new_tables_get_12_character_codes_and_codes_of_6_to_12_are_taken)
{
    ck_assert_int_eq(PROTO_CODE_LEN, 12);
    ck_assert_int_eq(PROTO_CODE_MIN, 6);
    char out[PROTO_CODE_LEN + 1];
    ck_assert(proto_parse_code("k7m2qx", out)); /* a table from before codes grew */
    ck_assert_str_eq(out, "K7M2QX");
    ck_assert(proto_parse_code("K7M2QXAB3CDE", out));
    ck_assert_str_eq(out, "K7M2QXAB3CDE");
    ck_assert(proto_parse_code("K7M2QXA", out));
    ck_assert_str_eq(out, "K7M2QXA");
    ck_assert(!proto_parse_code("K7M2Q", out));
    ck_assert(!proto_parse_code("K7M2QXAB3CDEF", out));
    ck_assert(!proto_parse_code("K7M2QXAB3CD1", out)); /* 1 looks like I or L */
    ck_assert(!proto_parse_code("K7M2QX AB3CD", out));
    ck_assert(!proto_parse_code(NULL, out));
}
END_TEST

START_TEST(test_list_tables_takes_a_page_size_a_cursor_and_filters)
{
    proto_msg m;
    char msg[PROTO_MESSAGE_SIZE];
    ck_assert_int_eq(decode("{\"type\":\"list_tables\"}", &m, msg), PROTO_OK);
    ck_assert_int_eq(m.limit, LIMIT_TABLES_PAGE); /* an older client gets one full page */
    ck_assert_uint_eq(m.after, 0);
    ck_assert_ptr_null(m.game);
    ck_assert_int_eq(m.state, PROTO_TABLES_ANY);
    ck_assert(!m.free_seat);
    ck_assert_str_eq(m.search, "");
    proto_msg_free(&m);
    ck_assert_int_eq(decode("{\"type\":\"list_tables\",\"limit\":20,\"after\":\"1234\",\"game\":\"tiengow\","
                            "\"state\":\"playing\",\"free_seat\":true,\"search\":\"  Ah Ma \"}",
                            &m, msg),
                     PROTO_OK);
    ck_assert_int_eq(m.limit, 20);
    ck_assert_uint_eq(m.after, 1234);
    ck_assert_str_eq(m.game, "tiengow");
    ck_assert_int_eq(m.state, PROTO_TABLES_PLAYING);
    ck_assert(m.free_seat);
    ck_assert_str_eq(m.search, "Ah Ma");
    proto_msg_free(&m);
    ck_assert_int_eq(decode("{\"type\":\"list_tables\",\"state\":\"waiting\"}", &m, msg), PROTO_OK);
    ck_assert_int_eq(m.state, PROTO_TABLES_WAITING);
    proto_msg_free(&m);
    expect("{\"type\":\"list_tables\",\"limit\":0}", PROTO_BAD_REQUEST, "limit");
    expect("{\"type\":\"list_tables\",\"limit\":51}", PROTO_BAD_REQUEST, "1 to 50");
    expect("{\"type\":\"list_tables\",\"limit\":\"20\"}", PROTO_BAD_REQUEST, "limit");
    expect("{\"type\":\"list_tables\",\"after\":12}", PROTO_BAD_REQUEST, "after");
    expect("{\"type\":\"list_tables\",\"after\":\"0\"}", PROTO_BAD_REQUEST, "after");
    expect("{\"type\":\"list_tables\",\"after\":\"-1\"}", PROTO_BAD_REQUEST, "after");
    expect("{\"type\":\"list_tables\",\"after\":\"1234567890123456789\"}", PROTO_BAD_REQUEST, "after");
    expect("{\"type\":\"list_tables\",\"state\":\"between_hands\"}", PROTO_BAD_REQUEST, "state");
    expect("{\"type\":\"list_tables\",\"free_seat\":1}", PROTO_BAD_REQUEST, "free_seat");
    expect("{\"type\":\"list_tables\",\"search\":\"   \"}", PROTO_BAD_REQUEST, "search");
    expect("{\"type\":\"list_tables\",\"search\":\"abcdefghijklmnopqrstuvwxy\"}", PROTO_BAD_REQUEST, "search");
    expect("{\"type\":\"list_tables\",\"search\":\"a\\tb\"}", PROTO_BAD_REQUEST, "control");
    expect("{\"type\":\"list_tables\",\"sort\":\"name\"}", PROTO_BAD_REQUEST, "sort");
}
END_TEST

START_TEST(test_join_takes_an_optional_seat_and_lock_and_remove_name_their_target)
{
    proto_msg m;
    char msg[PROTO_MESSAGE_SIZE];
    ck_assert_int_eq(decode("{\"type\":\"join_table\",\"code\":\"K7M2QXAB3CDE\"}", &m, msg), PROTO_OK);
    ck_assert_int_eq(m.seat, -1);
    proto_msg_free(&m);
    ck_assert_int_eq(decode("{\"type\":\"join_table\",\"code\":\"K7M2QXAB3CDE\",\"seat\":3}", &m, msg), PROTO_OK);
    ck_assert_int_eq(m.seat, 3);
    proto_msg_free(&m);
    expect("{\"type\":\"join_table\",\"code\":\"K7M2QXAB3CDE\",\"seat\":4}", PROTO_BAD_REQUEST, "seat");
    ck_assert_int_eq(decode("{\"type\":\"lock_table\",\"code\":\"K7M2QX\",\"locked\":true}", &m, msg), PROTO_OK);
    ck_assert_int_eq(m.type, PROTO_LOCK_TABLE);
    ck_assert(m.locked);
    proto_msg_free(&m);
    ck_assert_int_eq(decode("{\"type\":\"lock_table\",\"code\":\"K7M2QX\",\"locked\":false}", &m, msg), PROTO_OK);
    ck_assert(!m.locked);
    proto_msg_free(&m);
    expect("{\"type\":\"lock_table\",\"code\":\"K7M2QX\"}", PROTO_BAD_REQUEST, "locked");
    expect("{\"type\":\"lock_table\",\"code\":\"K7M2QX\",\"locked\":\"yes\"}", PROTO_BAD_REQUEST, "locked");
    ck_assert_int_eq(decode("{\"type\":\"remove_member\",\"code\":\"K7M2QX\",\"player\":\"p12\"}", &m, msg), PROTO_OK);
    ck_assert_int_eq(m.type, PROTO_REMOVE_MEMBER);
    ck_assert_int_eq(m.player, 12);
    proto_msg_free(&m);
    const char *bad[] = {"12", "p", "p0", "p-1", "P12", "p12x", "p 12", "p1234567890123456789"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "{\"type\":\"remove_member\",\"code\":\"K7M2QX\",\"player\":\"%s\"}", bad[i]);
        expect(text, PROTO_BAD_REQUEST, "player");
    }
    expect("{\"type\":\"remove_member\",\"code\":\"K7M2QX\",\"player\":12}", PROTO_BAD_REQUEST, "player");
    expect("{\"type\":\"remove_member\",\"code\":\"K7M2QX\"}", PROTO_BAD_REQUEST, "player");
}
END_TEST

START_TEST(test_register_and_login_decode_the_account_name_and_password)
{
    proto_msg m;
    char msg[PROTO_MESSAGE_SIZE];
    ck_assert_int_eq(decode("{\"type\":\"register\",\"id\":\"r1\",\"name\":\"  Ah_Ma-2.0 \",\"password\":\" pass word \"}",
                            &m, msg),
                     PROTO_OK);
    ck_assert_int_eq(m.type, PROTO_REGISTER);
    ck_assert_str_eq(m.name, "Ah_Ma-2.0");
    ck_assert_str_eq(m.password, " pass word "); /* a password is never trimmed */
    ck_assert_str_eq(json_string_value(m.id), "r1");
    proto_msg_free(&m);
    ck_assert_int_eq(decode("{\"type\":\"login\",\"name\":\"ann\",\"password\":\"12345678\"}", &m, msg), PROTO_OK);
    ck_assert_int_eq(m.type, PROTO_LOGIN);
    ck_assert_str_eq(m.name, "ann");
    ck_assert_str_eq(m.password, "12345678");
    proto_msg_free(&m);
    /* letters of other scripts: Chinese, Japanese with 々, Greek, Cyrillic, Vietnamese, Korean, Arabic */
    const char *names[] = {"阿媽好", "佐々木", "Νίκος", "Иван_2", "Nguyễn", "김민준", "علي", "李_ann", "123", "ann.lee"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char text[200];
        snprintf(text, sizeof text, "{\"type\":\"register\",\"name\":\"%s\",\"password\":\"12345678\"}", names[i]);
        ck_assert_msg(decode(text, &m, msg) == PROTO_OK, "%s: %s", names[i], msg);
        ck_assert_str_eq(m.name, names[i]);
        proto_msg_free(&m);
    }
}
END_TEST

START_TEST(test_account_names_are_3_to_24_characters_of_any_script)
{
    expect("{\"type\":\"register\",\"name\":\"ab\",\"password\":\"12345678\"}", PROTO_BAD_REQUEST, "3 to 24");
    expect("{\"type\":\"register\",\"name\":\"  ab  \",\"password\":\"12345678\"}", PROTO_BAD_REQUEST, "3 to 24");
    expect("{\"type\":\"register\",\"name\":\"\",\"password\":\"12345678\"}", PROTO_BAD_REQUEST, "3 to 24");
    expect("{\"type\":\"register\",\"name\":\"abc\",\"password\":\"12345678\"}", PROTO_OK, NULL);
    expect("{\"type\":\"login\",\"name\":\"abcdefghijklmnopqrstuvwx\",\"password\":\"12345678\"}", PROTO_OK, NULL);
    expect("{\"type\":\"login\",\"name\":\"abcdefghijklmnopqrstuvwxy\",\"password\":\"12345678\"}", PROTO_BAD_REQUEST,
           "3 to 24");
    /* 22 Chinese characters are 66 bytes, 24 are 72; 24 of CJK Extension B are 96 bytes: all names */
    expect("{\"type\":\"register\",\"name\":\"天天天天天天天天天天天天天天天天天天天天天天\",\"password\":\"12345678\"}",
           PROTO_OK, NULL);
    expect("{\"type\":\"register\",\"name\":\"天天天天天天天天天天天天天天天天天天天天天天天天\",\"password\":\"12345678\"}",
           PROTO_OK, NULL);
    expect("{\"type\":\"register\",\"name\":\"𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀\",\"password\":\"12345678\"}",
           PROTO_OK, NULL);
    expect("{\"type\":\"register\",\"name\":\"天天天天天天天天天天天天天天天天天天天天天天天天天\",\"password\":\"12345678\"}",
           PROTO_BAD_REQUEST, "3 to 24");
    expect("{\"type\":\"register\",\"name\":\"𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀\",\"password\":\"12345678\"}",
           PROTO_BAD_REQUEST, "3 to 24");
    /* far too long: refused before it is copied */
    char *text = with_repeated("{\"type\":\"register\",\"name\":\"", 'a', 5000, "\",\"password\":\"12345678\"}");
    expect(text, PROTO_BAD_REQUEST, "name");
    free(text);
}
END_TEST

static bool look_alike(const char *a, const char *b);

START_TEST(test_two_wide_characters_are_an_account_name_but_two_latin_letters_are_not)
{
    const char *names[] = {"小明", "阿媽", "阿妈", "さく", "サク", "민준", "𠀀𠀀", " 小明 "};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char text[200];
        snprintf(text, sizeof text, "{\"type\":\"register\",\"name\":\"%s\",\"password\":\"12345678\"}", names[i]);
        expect(text, PROTO_OK, NULL);
    }
    /* two narrow characters, one wide and one narrow, one wide alone, halfwidth katakana (narrow
     * look-alikes of サク) and fullwidth Latin */
    const char *refused[] = {"ab", "a明", "明a", "明", "ｻｸ", "ａｂ", "小_", "_小", "1明"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char text[200];
        snprintf(text, sizeof text, "{\"type\":\"register\",\"name\":\"%s\",\"password\":\"12345678\"}", refused[i]);
        expect(text, PROTO_BAD_REQUEST, "name");
    }
    expect("{\"type\":\"register\",\"name\":\"ab\",\"password\":\"12345678\"}", PROTO_BAD_REQUEST, "2 wide ones");
    expect("{\"type\":\"login\",\"name\":\"小明\",\"password\":\"12345678\"}", PROTO_OK, NULL);
}
END_TEST

START_TEST(test_two_character_names_that_look_alike_share_a_key)
{
    ck_assert(look_alike("口口", "口口"));
    ck_assert(look_alike("工口", "エロ"));       /* Han 工口 beside katakana エロ: Unicode confusables */
    ck_assert(!look_alike("小明", "小朋"));
    ck_assert(!look_alike("阿媽", "阿妈"));       /* traditional and simplified are two names */
    ck_assert(!look_alike("小明", "明小"));
}
END_TEST

START_TEST(test_account_names_hold_only_letters_digits_and_separators)
{
    const char *refused[] = {
        "ann smith",       /* a space inside */
        "ann!",            /* punctuation */
        "ann@home",        /* a symbol */
        "ann\\u200b",      /* a zero-width space */
        "ann\\u202e",      /* a right-to-left override */
        "ann\\u00a0x",     /* a no-break space */
        "ann\\u00b7x",     /* a middle dot */
        "\\u00d7\\u00d7\\u00d7", /* multiplication signs */
        "ann\\ud83d\\ude00", /* an emoji */
        "\\uff41\\uff4e\\uff4e", /* fullwidth ａｎｎ, a look-alike of ann */
        "q\\u0303q",      /* a combining accent with no precomposed letter (NFC composes the others) */
        "ann\\u3000x",     /* an ideographic space */
        "a\\tb\\tc",       /* control characters */
        "ann\\u0085",      /* a C1 control */
        "佐・木",          /* the katakana middle dot */
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char text[200];
        snprintf(text, sizeof text, "{\"type\":\"register\",\"name\":\"%s\",\"password\":\"12345678\"}", refused[i]);
        expect(text, PROTO_BAD_REQUEST, "letters, digits");
    }
    /* separators alone name nobody */
    expect("{\"type\":\"register\",\"name\":\"...\",\"password\":\"12345678\"}", PROTO_BAD_REQUEST, "letter or a digit");
    expect("{\"type\":\"login\",\"name\":\"_-_\",\"password\":\"12345678\"}", PROTO_BAD_REQUEST, "letter or a digit");
    expect("{\"type\":\"login\",\"name\":\"_-_1\",\"password\":\"12345678\"}", PROTO_OK, NULL);
}
END_TEST

START_TEST(test_account_names_mix_scripts_only_as_icus_moderately_restrictive_level_allows)
{
    /* "pаypal" with a Cyrillic а (U+0430) would pass for the Latin name */
    expect("{\"type\":\"register\",\"name\":\"p\\u0430ypal\",\"password\":\"12345678\"}", PROTO_BAD_REQUEST, "mix");
    expect("{\"type\":\"register\",\"name\":\"Ivan_Иван\",\"password\":\"12345678\"}", PROTO_BAD_REQUEST, "mix");
    expect("{\"type\":\"login\",\"name\":\"Νίκος_Иван\",\"password\":\"12345678\"}", PROTO_BAD_REQUEST, "mix");
    expect("{\"type\":\"login\",\"name\":\"Ά_nikos\",\"password\":\"12345678\"}", PROTO_BAD_REQUEST, "mix");
    /* only Latin goes with Han, kana or Hangul: Cyrillic with Han is refused */
    expect("{\"type\":\"login\",\"name\":\"Иван李\",\"password\":\"12345678\"}", PROTO_BAD_REQUEST, "mix");
    expect("{\"type\":\"login\",\"name\":\"ann_かな_7\",\"password\":\"12345678\"}", PROTO_OK, NULL);
    expect("{\"type\":\"login\",\"name\":\"Kim김민준\",\"password\":\"12345678\"}", PROTO_OK, NULL);
    /* one script alone is fine, even one whose letters look like Latin ones: the store refuses
     * a name that looks like an account's (ВОВ beside BOB), not the script */
    expect("{\"type\":\"register\",\"name\":\"ВОВ\",\"password\":\"12345678\"}", PROTO_OK, NULL);
    expect("{\"type\":\"register\",\"name\":\"adm\\u0131n\",\"password\":\"12345678\"}", PROTO_OK, NULL);
}
END_TEST

/* The name a message decodes to, or "" if it is refused. */
static const char *decoded_name(const char *type, const char *name_json, char out[PROTO_NAME_BYTES + 1])
{
    char text[600];
    snprintf(text, sizeof text, "{\"type\":\"%s\",\"v\":1,\"name\":\"%s\"%s}", type, name_json,
             strcmp(type, "hello") == 0 ? "" : ",\"password\":\"12345678\"");
    if (strcmp(type, "hello") != 0) /* register and login take no v */
        snprintf(text, sizeof text, "{\"type\":\"%s\",\"name\":\"%s\",\"password\":\"12345678\"}", type, name_json);
    proto_msg m;
    char msg[PROTO_MESSAGE_SIZE];
    out[0] = '\0';
    if (decode(text, &m, msg) == PROTO_OK)
        snprintf(out, PROTO_NAME_BYTES + 1, "%s", m.name);
    proto_msg_free(&m);
    return out;
}

START_TEST(test_names_are_made_nfc_so_a_letter_and_its_accent_are_the_precomposed_letter)
{
    char name[PROTO_NAME_BYTES + 1];
    ck_assert_str_eq(decoded_name("hello", "Jose\\u0301", name), "José");
    ck_assert_str_eq(decoded_name("register", "Jose\\u0301", name), "José");
    ck_assert_str_eq(decoded_name("login", "Jos\\u00e9", name), "José");
    /* Hangul written as jamo is the syllable */
    ck_assert_str_eq(decoded_name("register", "\\u1112\\u1161\\u11ab\\u1100\\u1173\\u11af\\u110b\\u1175", name), "한글이");
    /* 24 letters written with an accent each are 48 characters sent, 24 once composed */
    char text[400] = "";
    for (int i = 0; i < 24; i++)
        strcat(text, "e\\u0301");
    ck_assert_str_eq(decoded_name("hello", text, name), "éééééééééééééééééééééééé");
}
END_TEST

START_TEST(test_display_names_refuse_direction_controls_and_invisible_characters)
{
    static const struct {
        const char *name, *why;
    } refused[] = {
        {"evil\\u202egnp.exe", "direction"}, /* a right-to-left override */
        {"\\u2066Ann\\u2069", "direction"},  /* an isolate */
        {"Ann\\u200e", "direction"},          /* a left-to-right mark */
        {"Ann\\u061c", "direction"},          /* the Arabic letter mark */
        {"B\\u200dob", "invisible"},          /* a zero-width joiner inside a copy of Bob */
        {"Bo\\u200bb", "invisible"},          /* a zero-width space */
        {"Bob\\u2060", "invisible"},          /* a word joiner */
        {"\\ufeffBob", "invisible"},          /* a byte order mark */
        {"Bo\\u00adb", "invisible"},          /* a soft hyphen */
        {"\\u3164", "invisible"},             /* the Hangul filler, a blank letter */
        {"Bob\\ufe0f", "invisible"},          /* a variation selector after a letter */
        {"\\ufe0f", "invisible"},             /* and alone */
        {"Bob\\udb40\\udc41", "invisible"},   /* a tag character */
        {"\\ue000", "Unicode assigns"},       /* private use */
        {"\\u0301abc", "start with"},         /* a mark with no letter */
        {"a\\u0300\\u0301\\u0302\\u0303\\u0304\\u0306", "stack"}, /* marks piled over the rows around */
        {"Ann\\u2028Bob", "line breaks"},     /* a line separator */
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char text[200];
        snprintf(text, sizeof text, "{\"type\":\"hello\",\"v\":1,\"name\":\"%s\"}", refused[i].name);
        expect(text, PROTO_BAD_REQUEST, refused[i].why);
    }
}
END_TEST

START_TEST(test_display_names_that_show_nothing_are_refused)
{
    const char *blank[] = {"\\u3000", "\\u00a0\\u00a0", "\\u2800", " \\u2800 \\u3000"};
    for (size_t i = 0; i < sizeof blank / sizeof blank[0]; i++) {
        char text[200];
        snprintf(text, sizeof text, "{\"type\":\"hello\",\"v\":1,\"name\":\"%s\"}", blank[i]);
        expect(text, PROTO_BAD_REQUEST, "name");
    }
    /* white space of any kind is trimmed */
    char name[PROTO_NAME_BYTES + 1];
    ck_assert_str_eq(decoded_name("hello", "\\u3000Ah Ma\\u00a0", name), "Ah Ma");
}
END_TEST

START_TEST(test_ordinary_names_of_any_script_still_pass)
{
    const char *names[] = {"小明", "阿媽", "José", "Ah Ma", "Nguyễn Văn An", "محمد", "ภูมิ", "佐々木", "김민준",
                           "❤\\ufe0f Mei", "Ann 🀄", "葛\\udb40\\udd00飾", "O'Brien", "1️⃣ Lee"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char text[200];
        snprintf(text, sizeof text, "{\"type\":\"hello\",\"v\":1,\"name\":\"%s\"}", names[i]);
        expect(text, PROTO_OK, NULL);
    }
    /* account names are 3 characters at least, or 2 wide ones */
    const char *accounts[] = {"王小明", "阿媽好", "José", "Nguyễn", "ภูมิ", "admin", "BOB", "小明", "阿媽"};
    for (size_t i = 0; i < sizeof accounts / sizeof accounts[0]; i++) {
        char text[200];
        snprintf(text, sizeof text, "{\"type\":\"register\",\"name\":\"%s\",\"password\":\"12345678\"}", accounts[i]);
        expect(text, PROTO_OK, NULL);
    }
}
END_TEST

static bool look_alike(const char *a, const char *b)
{
    names_keys ka, kb;
    ck_assert(names_account_keys(a, &ka));
    ck_assert(names_account_keys(b, &kb));
    return strcmp(ka.look, kb.look) == 0 || strcmp(ka.fold, kb.fold) == 0;
}

START_TEST(test_account_names_that_look_alike_share_a_key)
{
    ck_assert(look_alike("BOB", "ВОВ"));       /* Cyrillic */
    ck_assert(look_alike("bob", "ВОВ"));       /* and in other case */
    ck_assert(look_alike("admin", "adm\u0131n")); /* dotless ı */
    ck_assert(look_alike("ADMIN", "adm\u0131n"));
    ck_assert(look_alike("bill", "biII"));     /* capital I for l */
    ck_assert(look_alike("micky", "rnicky"));  /* r n for m */
    ck_assert(look_alike("google", "g\u0585\u0585gle")); /* Armenian o */
    ck_assert(look_alike("Ann", "ann"));       /* case alone */
    ck_assert(look_alike("Jose\u0301", "José")); /* NFC */
    ck_assert(!look_alike("José", "Jose"));
    ck_assert(!look_alike("小明", "小朋"));
    ck_assert(!look_alike("阿媽", "阿妈"));
    ck_assert(!look_alike("ann", "anna"));
}
END_TEST


START_TEST(test_passwords_are_8_to_1024_bytes_of_text)
{
    expect("{\"type\":\"register\",\"name\":\"ann\",\"password\":\"1234567\"}", PROTO_BAD_REQUEST, "8 to 1024");
    expect("{\"type\":\"login\",\"name\":\"ann\",\"password\":\"\"}", PROTO_BAD_REQUEST, "password");
    /* bytes, not characters: 密碼 is 6 bytes, 密碼密 is 9 */
    expect("{\"type\":\"login\",\"name\":\"ann\",\"password\":\"密碼\"}", PROTO_BAD_REQUEST, "8 to 1024");
    expect("{\"type\":\"login\",\"name\":\"ann\",\"password\":\"密碼密\"}", PROTO_OK, NULL);
    char *text = with_repeated("{\"type\":\"register\",\"name\":\"ann\",\"password\":\"", 'x', 1024, "\"}");
    expect(text, PROTO_OK, NULL);
    free(text);
    text = with_repeated("{\"type\":\"register\",\"name\":\"ann\",\"password\":\"", 'x', 1025, "\"}");
    expect(text, PROTO_BAD_REQUEST, "8 to 1024");
    free(text);
    expect("{\"type\":\"login\",\"name\":\"ann\",\"password\":12345678}", PROTO_BAD_REQUEST, "password");
    expect("{\"type\":\"login\",\"name\":\"ann\",\"password\":null}", PROTO_BAD_REQUEST, "password");
    expect("{\"type\":\"login\",\"name\":\"ann\",\"password\":[\"12345678\"]}", PROTO_BAD_REQUEST, "password");
}
END_TEST

START_TEST(test_register_and_login_refuse_missing_keys_wrong_types_and_extra_keys)
{
    const char *types[] = {"register", "login"};
    for (int i = 0; i < 2; i++) {
        char text[200];
        snprintf(text, sizeof text, "{\"type\":\"%s\",\"password\":\"12345678\"}", types[i]);
        expect(text, PROTO_BAD_REQUEST, "\"name\"");
        snprintf(text, sizeof text, "{\"type\":\"%s\",\"name\":\"ann\"}", types[i]);
        expect(text, PROTO_BAD_REQUEST, "\"password\"");
        snprintf(text, sizeof text, "{\"type\":\"%s\",\"name\":42,\"password\":\"12345678\"}", types[i]);
        expect(text, PROTO_BAD_REQUEST, "name must be a string");
        snprintf(text, sizeof text, "{\"type\":\"%s\",\"name\":null,\"password\":\"12345678\"}", types[i]);
        expect(text, PROTO_BAD_REQUEST, "name must be a string");
        snprintf(text, sizeof text, "{\"type\":\"%s\",\"name\":\"ann\",\"password\":\"12345678\",\"v\":1}", types[i]);
        expect(text, PROTO_BAD_REQUEST, "\"v\"");
        snprintf(text, sizeof text, "{\"type\":\"%s\",\"name\":\"ann\",\"password\":\"12345678\",\"token\":"
                                    "\"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG\"}", types[i]);
        expect(text, PROTO_BAD_REQUEST, "\"token\"");
    }
}
END_TEST

START_TEST(test_a_refused_password_is_never_quoted_back)
{
    proto_msg m;
    char msg[PROTO_MESSAGE_SIZE];
    ck_assert_int_eq(decode("{\"type\":\"login\",\"name\":\"a b\",\"password\":\"hunter22secret\",\"id\":3}", &m, msg),
                     PROTO_BAD_REQUEST);
    ck_assert_ptr_null(strstr(msg, "hunter22"));
    ck_assert_int_eq(json_integer_value(m.id), 3);
    proto_msg_free(&m);
    ck_assert_int_eq(decode("{\"type\":\"login\",\"name\":\"ann\",\"password\":\"short\"}", &m, msg), PROTO_BAD_REQUEST);
    ck_assert_ptr_null(strstr(msg, "short"));
    proto_msg_free(&m);
}
END_TEST

START_TEST(test_logout_takes_no_keys)
{
    proto_msg m;
    char msg[PROTO_MESSAGE_SIZE];
    ck_assert_int_eq(decode("{\"type\":\"logout\",\"id\":9}", &m, msg), PROTO_OK);
    ck_assert_int_eq(m.type, PROTO_LOGOUT);
    ck_assert_int_eq(json_integer_value(m.id), 9);
    proto_msg_free(&m);
    expect("{\"type\":\"logout\",\"token\":\"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG\"}", PROTO_BAD_REQUEST, "token");
    expect("{\"type\":\"logout\",\"name\":\"ann\"}", PROTO_BAD_REQUEST, "name");
}
END_TEST

START_TEST(test_history_takes_a_code_and_an_optional_hand_number_before)
{
    proto_msg m;
    char msg[PROTO_MESSAGE_SIZE];
    ck_assert_int_eq(decode("{\"type\":\"history\",\"code\":\"k7m2qx\",\"id\":4}", &m, msg), PROTO_OK);
    ck_assert_int_eq(m.type, PROTO_HISTORY);
    ck_assert_str_eq(m.code, "K7M2QX");
    ck_assert_int_eq(m.before, 0);
    ck_assert_int_eq(json_integer_value(m.id), 4);
    proto_msg_free(&m);
    ck_assert_int_eq(decode("{\"type\":\"history\",\"code\":\"K7M2QX\",\"before\":21}", &m, msg), PROTO_OK);
    ck_assert_int_eq(m.before, 21);
    proto_msg_free(&m);
    ck_assert_int_eq(decode("{\"type\":\"history\",\"code\":\"K7M2QX\",\"before\":1}", &m, msg), PROTO_OK);
    ck_assert_int_eq(m.before, 1);
    proto_msg_free(&m);
    const char *bad_before[] = {"0", "-1", "1.5", "2.0", "\"5\"", "null", "true", "[5]"};
    for (size_t i = 0; i < sizeof bad_before / sizeof bad_before[0]; i++) {
        char text[120];
        snprintf(text, sizeof text, "{\"type\":\"history\",\"code\":\"K7M2QX\",\"before\":%s}", bad_before[i]);
        expect(text, PROTO_BAD_REQUEST, "before must be");
    }
    expect("{\"type\":\"history\"}", PROTO_BAD_REQUEST, "\"code\"");
    expect("{\"type\":\"history\",\"before\":3}", PROTO_BAD_REQUEST, "\"code\"");
    expect("{\"type\":\"history\",\"code\":\"K7M2Q0\"}", PROTO_BAD_REQUEST, "code");
    expect("{\"type\":\"history\",\"code\":7}", PROTO_BAD_REQUEST, "code");
    expect("{\"type\":\"history\",\"code\":\"K7M2QX\",\"limit\":5}", PROTO_BAD_REQUEST, "limit");
    expect("{\"type\":\"history\",\"code\":\"K7M2QX\",\"hand\":5}", PROTO_BAD_REQUEST, "hand");
}
END_TEST

START_TEST(test_replay_takes_a_code_and_a_hand_number)
{
    proto_msg m;
    char msg[PROTO_MESSAGE_SIZE];
    ck_assert_int_eq(decode("{\"type\":\"replay\",\"code\":\"abcdef\",\"hand\":3,\"id\":\"x\"}", &m, msg), PROTO_OK);
    ck_assert_int_eq(m.type, PROTO_REPLAY);
    ck_assert_str_eq(m.code, "ABCDEF");
    ck_assert_int_eq(m.hand, 3);
    ck_assert_str_eq(json_string_value(m.id), "x");
    proto_msg_free(&m);
    /* a hand number beyond 32 bits is kept whole */
    ck_assert_int_eq(decode("{\"type\":\"replay\",\"code\":\"ABCDEF\",\"hand\":4294967301}", &m, msg), PROTO_OK);
    ck_assert(m.hand == INT64_C(4294967301));
    proto_msg_free(&m);
    const char *bad_hand[] = {"0", "-3", "3.5", "3.0", "\"3\"", "null", "false", "{}", "1e3"};
    for (size_t i = 0; i < sizeof bad_hand / sizeof bad_hand[0]; i++) {
        char text[120];
        snprintf(text, sizeof text, "{\"type\":\"replay\",\"code\":\"ABCDEF\",\"hand\":%s}", bad_hand[i]);
        expect(text, PROTO_BAD_REQUEST, "hand must be");
    }
    expect("{\"type\":\"replay\",\"code\":\"ABCDEF\"}", PROTO_BAD_REQUEST, "\"hand\"");
    expect("{\"type\":\"replay\",\"hand\":3}", PROTO_BAD_REQUEST, "\"code\"");
    expect("{\"type\":\"replay\",\"code\":\"ABCDE\",\"hand\":3}", PROTO_BAD_REQUEST, "code");
    expect("{\"type\":\"replay\",\"code\":\"ABCDEF\",\"hand\":3,\"seat\":0}", PROTO_BAD_REQUEST, "seat");
    expect("{\"type\":\"replay\",\"code\":\"ABCDEF\",\"hand\":3,\"before\":2}", PROTO_BAD_REQUEST, "before");
}
END_TEST

START_TEST(test_tokens_are_16_to_64_url_safe_base64_characters)
{
    const char *accepted[] = {
        "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff", /* a guest's 64 hex digits */
        "Zm9vYmFyLWJhei1xdXV4XzAxMjM0NTY3ODlhYmNkZWZn",                     /* a session: 43 of base64url */
        "abcdefghijklmnop",                                                 /* 16, the least */
        "-_-_-_-_-_-_-_-_",
    };
    for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++) {
        proto_msg m;
        char msg[PROTO_MESSAGE_SIZE];
        char text[200];
        snprintf(text, sizeof text, "{\"type\":\"hello\",\"v\":1,\"name\":\"a\",\"token\":\"%s\"}", accepted[i]);
        ck_assert_msg(decode(text, &m, msg) == PROTO_OK, "%s: %s", accepted[i], msg);
        ck_assert_str_eq(m.token, accepted[i]);
        proto_msg_free(&m);
    }
    const char *refused[] = {
        "abcdefghijklmno",  /* 15 */
        "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff0", /* 65 */
        "Zm9vYmFyLWJhei1xdXV4XzAxMjM0NTY3ODlh+mNkZWZn", /* '+' is plain base64, not URL-safe */
        "Zm9vYmFyLWJhei1xdXV4XzAxMjM0NTY3ODlh/mNkZWZn",
        "Zm9vYmFyLWJhei1xdXV4XzAxMjM0NTY3ODlhYmNkZWZn=", /* no padding */
        "abcdefgh ijklmnop",
        "abcdefghijklmnopé",
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char text[200];
        snprintf(text, sizeof text, "{\"type\":\"hello\",\"v\":1,\"name\":\"a\",\"token\":\"%s\"}", refused[i]);
        expect(text, PROTO_BAD_REQUEST, "token");
    }
    expect("{\"type\":\"hello\",\"v\":1,\"name\":\"a\",\"token\":1234567890123456}", PROTO_BAD_REQUEST, "token");
    expect("{\"type\":\"hello\",\"v\":1,\"name\":\"a\",\"token\":null}", PROTO_BAD_REQUEST, "token");
}
END_TEST

START_TEST(test_an_error_echoes_the_id)
{
    json_t *id = json_integer(42);
    json_t *e = proto_error(id, "does_not_beat", "No.");
    ck_assert_str_eq(json_string_value(json_object_get(e, "type")), "error");
    ck_assert_str_eq(json_string_value(json_object_get(e, "code")), "does_not_beat");
    ck_assert_int_eq(json_integer_value(json_object_get(e, "id")), 42);
    json_decref(e);
    json_decref(id);
    e = proto_error(NULL, "bad_json", "No.");
    ck_assert_ptr_null(json_object_get(e, "id"));
    json_decref(e);
}
END_TEST

START_TEST(test_an_error_quoting_a_cut_character_is_still_valid_utf8)
{
    /* the type is quoted cut to 40 bytes, which falls inside an é */
    const char *text = "{\"type\":\"helloQQQQ\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"
                       "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\"}";
    proto_msg m;
    char msg[PROTO_MESSAGE_SIZE];
    ck_assert_int_eq(decode(text, &m, msg), PROTO_UNKNOWN_TYPE);
    json_t *e = proto_error(m.id, proto_status_name(PROTO_UNKNOWN_TYPE), msg);
    ck_assert_ptr_nonnull(e);
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(e, "message")), "helloQQQQ"));
    json_decref(e);
    proto_msg_free(&m);
    /* and a sentence that is plainly broken is repaired, not dropped */
    e = proto_error(NULL, "bad_request", "bad \xc3 byte \xff end");
    ck_assert_str_eq(json_string_value(json_object_get(e, "message")), "bad ? byte ? end");
    json_decref(e);
}
END_TEST

/* n copies of a UTF-8 character, NUL-terminated, into out. */
static void repeat_character(char *out, size_t size, const char *character, int n)
{
    out[0] = '\0';
    for (int i = 0; i < n; i++)
        strncat(out, character, size - strlen(out) - 1);
}

static proto_status hello_named(const char *name, proto_msg *m, char *msg)
{
    char text[1024];
    snprintf(text, sizeof text, "{\"type\":\"hello\",\"v\":1,\"name\":\"%s\"}", name);
    return decode(text, m, msg);
}

START_TEST(test_a_name_of_22_chinese_characters_is_welcomed_and_fits_what_the_store_keeps)
{
    /* 22 characters of 3 bytes: 66 bytes, once refused by a store that kept 64 */
    char name[256];
    repeat_character(name, sizeof name, "茶", 22);
    proto_msg m;
    char msg[PROTO_MESSAGE_SIZE];
    ck_assert_msg(hello_named(name, &m, msg) == PROTO_OK, "%s", msg);
    ck_assert_str_eq(m.name, name);
    ck_assert_uint_eq(strlen(m.name), 66);
    ck_assert_uint_le(strlen(m.name), PROTO_NAME_BYTES);
    proto_msg_free(&m);
    /* the longest name in bytes: 24 characters of 4 bytes each, exactly the bytes kept */
    repeat_character(name, sizeof name, "𠀀", LIMIT_NAME_CHARS);
    ck_assert_msg(hello_named(name, &m, msg) == PROTO_OK, "%s", msg);
    ck_assert_uint_eq(strlen(m.name), LIMIT_NAME_BYTES);
    ck_assert_int_eq(LIMIT_NAME_BYTES, 96);
    proto_msg_free(&m);
}
END_TEST

START_TEST(test_a_name_over_24_characters_is_a_bad_request_whatever_its_bytes)
{
    char name[256];
    const char *characters[] = {"a", "é", "茶", "𠀀"};
    for (size_t i = 0; i < sizeof characters / sizeof characters[0]; i++) {
        proto_msg m;
        char msg[PROTO_MESSAGE_SIZE];
        repeat_character(name, sizeof name, characters[i], LIMIT_NAME_CHARS + 1);
        ck_assert_int_eq(hello_named(name, &m, msg), PROTO_BAD_REQUEST);
        ck_assert_msg(strstr(msg, "1 to 24 characters") != NULL, "%s: %s", characters[i], msg);
        ck_assert_str_eq(proto_status_name(PROTO_BAD_REQUEST), "bad_request");
        proto_msg_free(&m);
    }
}
END_TEST

START_TEST(test_the_turn_timer_and_seats_follow_the_house_limits)
{
    char text[200];
    snprintf(text, sizeof text, "{\"type\":\"create_table\",\"game\":\"tiengow\",\"turn_seconds\":%d}",
             LIMIT_TURN_SECONDS_MIN);
    expect(text, PROTO_OK, NULL);
    snprintf(text, sizeof text, "{\"type\":\"create_table\",\"game\":\"tiengow\",\"turn_seconds\":%d}",
             LIMIT_TURN_SECONDS_MAX);
    expect(text, PROTO_OK, NULL);
    snprintf(text, sizeof text, "{\"type\":\"create_table\",\"game\":\"tiengow\",\"turn_seconds\":%d}",
             LIMIT_TURN_SECONDS_MAX + 1);
    expect(text, PROTO_BAD_REQUEST, "5 to 300");
    snprintf(text, sizeof text, "{\"type\":\"add_bot\",\"code\":\"ABCDEF\",\"seat\":%d}", LIMIT_SEATS - 1);
    expect(text, PROTO_OK, NULL);
    snprintf(text, sizeof text, "{\"type\":\"add_bot\",\"code\":\"ABCDEF\",\"seat\":%d}", LIMIT_SEATS);
    expect(text, PROTO_BAD_REQUEST, "0 to 3");
}
END_TEST

START_TEST(test_every_error_code_has_its_own_wire_name_that_parses_back)
{
    for (int code = 0; code < PROTO_ERR_COUNT; code++) {
        const char *name = proto_error_name((proto_error_code)code);
        ck_assert_msg(name[0] != '\0' && strspn(name, "abcdefghijklmnopqrstuvwxyz_") == strlen(name),
                      "code %d: \"%s\" is not a lower-case wire name", code, name);
        proto_error_code back;
        ck_assert_msg(proto_error_parse(name, &back) && back == (proto_error_code)code,
                      "\"%s\" does not name code %d alone (a missing or repeated name)", name, code);
    }
    proto_error_code unused;
    ck_assert(!proto_error_parse("does_not_beat", &unused)); /* a game's code, not the house's */
    ck_assert(!proto_error_parse("ok", &unused));
    ck_assert(!proto_error_parse(NULL, &unused));
    ck_assert_str_eq(proto_error_name(PROTO_ERR_COUNT), "internal");
    ck_assert_str_eq(proto_error_name(PROTO_ERR_TABLE_FULL), "table_full");
}
END_TEST

START_TEST(test_a_refused_message_is_named_by_its_error_code)
{
    ck_assert_str_eq(proto_status_name(PROTO_OK), "ok");
    ck_assert_int_eq(proto_status_error(PROTO_BAD_JSON), PROTO_ERR_BAD_JSON);
    ck_assert_int_eq(proto_status_error(PROTO_BAD_REQUEST), PROTO_ERR_BAD_REQUEST);
    ck_assert_int_eq(proto_status_error(PROTO_UNKNOWN_TYPE), PROTO_ERR_UNKNOWN_TYPE);
    ck_assert_int_eq(proto_status_error(PROTO_UNSUPPORTED_VERSION), PROTO_ERR_UNSUPPORTED_VERSION);
    ck_assert_str_eq(proto_status_name(PROTO_UNSUPPORTED_VERSION), "unsupported_version");
}
END_TEST

/* --- PROTOCOL.md's tables --- */

#define DOC_ROWS 64

typedef struct doc_row {
    char key[48];   /* the first cell's `name` */
    char value[48]; /* the second cell, trimmed */
} doc_row;

static char *read_protocol_md(void)
{
    FILE *f = fopen(PROTOCOL_MD, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", PROTOCOL_MD);
    static char text[1 << 17];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    ck_assert_uint_lt(n, sizeof text - 1);
    text[n] = '\0';
    return text;
}

/* The rows of the first table under the line `heading`, up to the next heading: each row's first
 * cell must be one `code` in backquotes. Returns how many. */
static int doc_table(const char *doc, const char *heading, doc_row rows[DOC_ROWS])
{
    const char *at = strstr(doc, heading);
    ck_assert_msg(at != NULL, "PROTOCOL.md has no \"%s\"", heading);
    at = strchr(at + 1, '\n'); /* the end of the heading's line */
    int n = 0;
    while (at != NULL && at[1] != '#') {
        const char *line = at + 1;
        at = strchr(line, '\n');
        if (strncmp(line, "| `", 3) != 0)
            continue;
        const char *end = strchr(line + 3, '`');
        ck_assert(end != NULL && end - (line + 3) < (long)sizeof rows[n].key && n < DOC_ROWS);
        doc_row *row = &rows[n++];
        snprintf(row->key, sizeof row->key, "%.*s", (int)(end - (line + 3)), line + 3);
        ck_assert_msg(strncmp(end, "` | ", 4) == 0, "PROTOCOL.md: the row of %s names more than one code", row->key);
        const char *value = end + 4, *bar = strchr(value, '|');
        ck_assert(bar != NULL);
        while (bar > value && bar[-1] == ' ')
            bar--;
        snprintf(row->value, sizeof row->value, "%.*s", (int)(bar - value), value);
    }
    return n;
}

static bool documented(const doc_row *rows, int n, const char *key)
{
    for (int i = 0; i < n; i++)
        if (strcmp(rows[i].key, key) == 0)
            return true;
    return false;
}

START_TEST(test_protocol_md_lists_every_error_code_the_server_sends_and_no_other)
{
    doc_row rows[DOC_ROWS];
    int n = doc_table(read_protocol_md(), "\n## Errors\n", rows);
    for (int code = 0; code < PROTO_ERR_COUNT; code++)
        ck_assert_msg(documented(rows, n, proto_error_name((proto_error_code)code)),
                      "PROTOCOL.md's table of errors lacks %s", proto_error_name((proto_error_code)code));
    for (int i = 0; i < n; i++) {
        proto_error_code code;
        ck_assert_msg(proto_error_parse(rows[i].key, &code), "PROTOCOL.md lists %s, which errors.h lacks", rows[i].key);
        ck_assert_msg(!documented(rows + i + 1, n - i - 1, rows[i].key), "PROTOCOL.md lists %s twice", rows[i].key);
    }
    ck_assert_int_eq(n, PROTO_ERR_COUNT);
}
END_TEST

START_TEST(test_protocol_md_lists_tien_gows_action_codes_apart_from_the_houses)
{
    doc_row rows[DOC_ROWS];
    int n = doc_table(read_protocol_md(), "\n### Game codes\n", rows);
    /* the engine's refusals of an action (tg_status.h, "actions") */
    for (int status = TG_ERR_HAND_OVER; status <= TG_ERR_BARRED_FROM_FINAL; status++)
        ck_assert_msg(documented(rows, n, tg_status_name((tg_status)status)), "PROTOCOL.md's game codes lack %s",
                      tg_status_name((tg_status)status));
    for (int i = 0; i < n; i++) {
        bool engine = false;
        for (int status = TG_ERR_HAND_OVER; status <= TG_ERR_BARRED_FROM_FINAL; status++)
            engine |= strcmp(rows[i].key, tg_status_name((tg_status)status)) == 0;
        ck_assert_msg(engine, "PROTOCOL.md lists %s as Tien Gow's, which its engine does not send", rows[i].key);
        proto_error_code code;
        ck_assert_msg(!proto_error_parse(rows[i].key, &code), "%s is both a game code and a house code", rows[i].key);
    }
}
END_TEST

START_TEST(test_protocol_md_states_the_limits_that_welcome_sends)
{
    doc_row rows[DOC_ROWS];
    int n = doc_table(read_protocol_md(), "\n## Limits\n", rows);
    json_t *limits = proto_limits_json();
    ck_assert_ptr_nonnull(limits);
    for (int i = 0; i < n; i++) {
        json_t *value = json_object_get(limits, rows[i].key);
        ck_assert_msg(json_is_integer(value), "PROTOCOL.md states the limit %s, which welcome lacks", rows[i].key);
        char sent[48];
        snprintf(sent, sizeof sent, "%lld", (long long)json_integer_value(value));
        ck_assert_msg(strcmp(sent, rows[i].value) == 0, "%s: PROTOCOL.md says %s, welcome sends %s", rows[i].key,
                      rows[i].value, sent);
    }
    const char *key;
    json_t *value;
    json_object_foreach (limits, key, value)
        ck_assert_msg(documented(rows, n, key), "welcome sends the limit %s, which PROTOCOL.md does not state", key);
    ck_assert_int_eq(json_integer_value(json_object_get(limits, "name_chars")), 24);
    ck_assert_int_eq(json_integer_value(json_object_get(limits, "turn_seconds_min")), 5);
    ck_assert_int_eq(json_integer_value(json_object_get(limits, "turn_seconds_max")), 300);
    json_decref(limits);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("proto");
    TCase *tc = tcase_create("decode");
    tcase_add_test(tc, test_hello_decodes_name_and_token);
    tcase_add_test(tc, test_every_type_decodes_with_its_fields);
    tcase_add_test(tc, test_not_json_or_not_an_object_is_bad_json);
    tcase_add_test(tc, test_unknown_type_and_missing_type);
    tcase_add_test(tc, test_keys_not_in_the_schema_are_refused);
    tcase_add_test(tc, test_required_keys_and_types_are_checked);
    tcase_add_test(tc, test_names_are_trimmed_bounded_and_plain);
    tcase_add_test(tc, test_codes_tokens_chat_and_ids_are_bounded);
    tcase_add_test(tc, test_new_types_have_their_wire_names_in_order);
    tcase_add_test(tc, test_new_tables_get_12_character_codes_and_codes_of_6_to_12_are_taken);
    tcase_add_test(tc, test_list_tables_takes_a_page_size_a_cursor_and_filters);
    tcase_add_test(tc, test_join_takes_an_optional_seat_and_lock_and_remove_name_their_target);
    tcase_add_test(tc, test_the_host_controls_decode_their_target_options_and_switches_and_refuse_anything_else);
    tcase_add_test(tc, test_register_and_login_decode_the_account_name_and_password);
    tcase_add_test(tc, test_account_names_are_3_to_24_characters_of_any_script);
    tcase_add_test(tc, test_account_names_hold_only_letters_digits_and_separators);
    tcase_add_test(tc, test_two_wide_characters_are_an_account_name_but_two_latin_letters_are_not);
    tcase_add_test(tc, test_my_tables_takes_nothing_and_presence_takes_a_code_and_here);
    tcase_add_test(tc, test_two_character_names_that_look_alike_share_a_key);
    tcase_add_test(tc, test_account_names_mix_scripts_only_as_icus_moderately_restrictive_level_allows);
    tcase_add_test(tc, test_names_are_made_nfc_so_a_letter_and_its_accent_are_the_precomposed_letter);
    tcase_add_test(tc, test_display_names_refuse_direction_controls_and_invisible_characters);
    tcase_add_test(tc, test_display_names_that_show_nothing_are_refused);
    tcase_add_test(tc, test_ordinary_names_of_any_script_still_pass);
    tcase_add_test(tc, test_account_names_that_look_alike_share_a_key);
    tcase_add_test(tc, test_passwords_are_8_to_1024_bytes_of_text);
    tcase_add_test(tc, test_register_and_login_refuse_missing_keys_wrong_types_and_extra_keys);
    tcase_add_test(tc, test_a_refused_password_is_never_quoted_back);
    tcase_add_test(tc, test_logout_takes_no_keys);
    tcase_add_test(tc, test_history_takes_a_code_and_an_optional_hand_number_before);
    tcase_add_test(tc, test_replay_takes_a_code_and_a_hand_number);
    tcase_add_test(tc, test_tokens_are_16_to_64_url_safe_base64_characters);
    tcase_add_test(tc, test_an_error_echoes_the_id);
    tcase_add_test(tc, test_an_error_quoting_a_cut_character_is_still_valid_utf8);
    tcase_add_test(tc, test_a_name_of_22_chinese_characters_is_welcomed_and_fits_what_the_store_keeps);
    tcase_add_test(tc, test_a_name_over_24_characters_is_a_bad_request_whatever_its_bytes);
    tcase_add_test(tc, test_the_turn_timer_and_seats_follow_the_house_limits);
    suite_add_tcase(s, tc);
    TCase *codes = tcase_create("codes and limits");
    tcase_add_test(codes, test_every_error_code_has_its_own_wire_name_that_parses_back);
    tcase_add_test(codes, test_a_refused_message_is_named_by_its_error_code);
    tcase_add_test(codes, test_protocol_md_lists_every_error_code_the_server_sends_and_no_other);
    tcase_add_test(codes, test_protocol_md_lists_tien_gows_action_codes_apart_from_the_houses);
    tcase_add_test(codes, test_protocol_md_states_the_limits_that_welcome_sends);
    suite_add_tcase(s, codes);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
