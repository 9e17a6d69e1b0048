/*
 * proto — every client message decodes into checked fields, and every malformed one is refused
 * with the right status and a message naming what is wrong. The limits tested are PROTOCOL.md's:
 * account names 3-24 characters and 64 bytes, passwords 8-1024 bytes, tokens 16-64 characters.
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
    ck_assert_int_eq(PROTO_TYPES, PROTO_REPLAY + 1);
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

START_TEST(test_account_names_are_3_to_24_characters_and_at_most_64_bytes)
{
    expect("{\"type\":\"register\",\"name\":\"ab\",\"password\":\"12345678\"}", PROTO_BAD_REQUEST, "3 to 24");
    expect("{\"type\":\"register\",\"name\":\"  ab  \",\"password\":\"12345678\"}", PROTO_BAD_REQUEST, "3 to 24");
    expect("{\"type\":\"register\",\"name\":\"\",\"password\":\"12345678\"}", PROTO_BAD_REQUEST, "3 to 24");
    expect("{\"type\":\"register\",\"name\":\"abc\",\"password\":\"12345678\"}", PROTO_OK, NULL);
    expect("{\"type\":\"login\",\"name\":\"abcdefghijklmnopqrstuvwx\",\"password\":\"12345678\"}", PROTO_OK, NULL);
    expect("{\"type\":\"login\",\"name\":\"abcdefghijklmnopqrstuvwxy\",\"password\":\"12345678\"}", PROTO_BAD_REQUEST,
           "3 to 24");
    /* 21 Chinese characters are 63 bytes; 22 are 66, over the store's 64 though under 24 characters */
    expect("{\"type\":\"register\",\"name\":\"天天天天天天天天天天天天天天天天天天天天天\",\"password\":\"12345678\"}",
           PROTO_OK, NULL);
    expect("{\"type\":\"register\",\"name\":\"天天天天天天天天天天天天天天天天天天天天天天\",\"password\":\"12345678\"}",
           PROTO_BAD_REQUEST, "64 bytes");
    /* far too long: refused before it is copied */
    char *text = with_repeated("{\"type\":\"register\",\"name\":\"", 'a', 5000, "\",\"password\":\"12345678\"}");
    expect(text, PROTO_BAD_REQUEST, "name");
    free(text);
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
        "an\\u0301n",      /* a combining accent: write the letter precomposed */
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

START_TEST(test_account_names_do_not_mix_latin_greek_and_cyrillic)
{
    /* "pаypal" with a Cyrillic а (U+0430) would pass for the Latin name */
    expect("{\"type\":\"register\",\"name\":\"p\\u0430ypal\",\"password\":\"12345678\"}", PROTO_BAD_REQUEST, "mix");
    expect("{\"type\":\"register\",\"name\":\"Ivan_Иван\",\"password\":\"12345678\"}", PROTO_BAD_REQUEST, "mix");
    expect("{\"type\":\"login\",\"name\":\"Νίκος_Иван\",\"password\":\"12345678\"}", PROTO_BAD_REQUEST, "mix");
    expect("{\"type\":\"login\",\"name\":\"Ά_nikos\",\"password\":\"12345678\"}", PROTO_BAD_REQUEST, "mix");
    /* any of them with Han, kana, Hangul or digits is fine */
    expect("{\"type\":\"login\",\"name\":\"Иван李\",\"password\":\"12345678\"}", PROTO_OK, NULL);
    expect("{\"type\":\"login\",\"name\":\"ann_かな_7\",\"password\":\"12345678\"}", PROTO_OK, NULL);
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
    tcase_add_test(tc, test_register_and_login_decode_the_account_name_and_password);
    tcase_add_test(tc, test_account_names_are_3_to_24_characters_and_at_most_64_bytes);
    tcase_add_test(tc, test_account_names_hold_only_letters_digits_and_separators);
    tcase_add_test(tc, test_account_names_do_not_mix_latin_greek_and_cyrillic);
    tcase_add_test(tc, test_passwords_are_8_to_1024_bytes_of_text);
    tcase_add_test(tc, test_register_and_login_refuse_missing_keys_wrong_types_and_extra_keys);
    tcase_add_test(tc, test_a_refused_password_is_never_quoted_back);
    tcase_add_test(tc, test_logout_takes_no_keys);
    tcase_add_test(tc, test_history_takes_a_code_and_an_optional_hand_number_before);
    tcase_add_test(tc, test_replay_takes_a_code_and_a_hand_number);
    tcase_add_test(tc, test_tokens_are_16_to_64_url_safe_base64_characters);
    tcase_add_test(tc, test_an_error_echoes_the_id);
    tcase_add_test(tc, test_an_error_quoting_a_cut_character_is_still_valid_utf8);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
