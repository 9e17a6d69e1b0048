/*
 * proto — every client message decodes into checked fields, and every malformed one is refused
 * with the right status and a message naming what is wrong.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

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
    expect("{\"type\":\"join_table\",\"code\":\"ABCDE\"}", PROTO_BAD_REQUEST, "code");
    expect("{\"type\":\"join_table\",\"code\":\"ABCDEFG\"}", PROTO_BAD_REQUEST, "code");
    expect("{\"type\":\"join_table\",\"code\":\"ABCDE0\"}", PROTO_BAD_REQUEST, "code"); /* 0 looks like O */
    expect("{\"type\":\"join_table\",\"code\":\"ABCDEI\"}", PROTO_BAD_REQUEST, "code");
    expect("{\"type\":\"hello\",\"v\":1,\"name\":\"a\",\"token\":\"abc\"}", PROTO_BAD_REQUEST, "token");
    expect("{\"type\":\"hello\",\"v\":1,\"name\":\"a\",\"token\":"
           "\"ZZ112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\"}",
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
    tcase_add_test(tc, test_an_error_echoes_the_id);
    tcase_add_test(tc, test_an_error_quoting_a_cut_character_is_still_valid_utf8);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
