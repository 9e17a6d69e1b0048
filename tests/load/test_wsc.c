/*
 * wsc — the load generator's WebSocket codec against the worked examples of RFC 6455 (§1.3
 * handshake, §5.7 frames): the accept value, masked and unmasked frames, fragments joined
 * around a ping, the extended lengths, and the frames a client must refuse.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "wsc.h"

static const char rfc_key[] = "dGhlIHNhbXBsZSBub25jZQ==";
static const char rfc_accept[] = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";

START_TEST(test_accept_value_is_the_one_of_rfc6455)
{
    char accept[29];
    wsc_accept_for_key(rfc_key, accept);
    ck_assert_str_eq(accept, rfc_accept);
}
END_TEST

START_TEST(test_handshake_waits_for_the_blank_line_then_accepts_the_rfc_answer)
{
    const char answer[] = "HTTP/1.1 101 Switching Protocols\r\n"
                          "Upgrade: websocket\r\n"
                          "Connection: Upgrade\r\n"
                          "sec-websocket-accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"
                          "\r\n"
                          "\x81\x05Hello";
    size_t head = 0;
    size_t head_len = strlen(answer) - 7; /* the frame after the head is not part of it */
    ck_assert_int_eq(wsc_handshake_check(answer, head_len - 1, rfc_key, &head),
                     WSC_HANDSHAKE_INCOMPLETE);
    ck_assert_int_eq(wsc_handshake_check(answer, strlen(answer), rfc_key, &head),
                     WSC_HANDSHAKE_OK);
    ck_assert_uint_eq(head, head_len);
}
END_TEST

START_TEST(test_handshake_refuses_a_wrong_accept_or_another_status)
{
    const char wrong_accept[] = "HTTP/1.1 101 Switching Protocols\r\n"
                                "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOp=\r\n\r\n";
    const char not_found[] = "HTTP/1.1 404 Not Found\r\n"
                             "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n";
    const char no_accept[] = "HTTP/1.1 101 Switching Protocols\r\n\r\n";
    size_t head;
    ck_assert_int_eq(wsc_handshake_check(wrong_accept, strlen(wrong_accept), rfc_key, &head),
                     WSC_HANDSHAKE_REFUSED);
    ck_assert_int_eq(wsc_handshake_check(not_found, strlen(not_found), rfc_key, &head),
                     WSC_HANDSHAKE_REFUSED);
    ck_assert_int_eq(wsc_handshake_check(no_accept, strlen(no_accept), rfc_key, &head),
                     WSC_HANDSHAKE_REFUSED);
}
END_TEST

START_TEST(test_request_names_path_host_key_and_version)
{
    char request[512];
    size_t n = wsc_handshake_request(request, sizeof request, "127.0.0.1", 8080, "/ws", rfc_key);
    ck_assert_uint_eq(n, strlen(request));
    ck_assert(strncmp(request, "GET /ws HTTP/1.1\r\n", 18) == 0);
    ck_assert(strstr(request, "\r\nHost: 127.0.0.1:8080\r\n") != NULL);
    ck_assert(strstr(request, "\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n") != NULL);
    ck_assert(strstr(request, "\r\nSec-WebSocket-Version: 13\r\n") != NULL);
    ck_assert(strcmp(request + n - 4, "\r\n\r\n") == 0);
    ck_assert_uint_eq(wsc_handshake_request(request, 40, "127.0.0.1", 8080, "/ws", rfc_key), 0);
}
END_TEST

START_TEST(test_masked_hello_is_the_frame_of_rfc6455)
{
    static const unsigned char expected[] = {0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d,
                                             0x7f, 0x9f, 0x4d, 0x51, 0x58};
    unsigned char frame[5 + WSC_MAX_HEADER];
    size_t n = wsc_encode(frame, WSC_OP_TEXT, "Hello", 5, 0x37fa213du);
    ck_assert_uint_eq(n, sizeof expected);
    ck_assert(memcmp(frame, expected, n) == 0);
}
END_TEST

START_TEST(test_longer_payloads_get_16_and_64_bit_lengths)
{
    size_t sizes[] = {125, 126, 65535, 65536};
    size_t headers[] = {2 + 4, 4 + 4, 4 + 4, 10 + 4};
    for (int i = 0; i < 4; i++) {
        unsigned char *payload = calloc(1, sizes[i]);
        unsigned char *frame = malloc(sizes[i] + WSC_MAX_HEADER);
        size_t n = wsc_encode(frame, WSC_OP_TEXT, payload, sizes[i], 0);
        ck_assert_uint_eq(n, sizes[i] + headers[i]);
        ck_assert_int_eq(frame[1] & 0x80, 0x80); /* a client always masks */
        if (headers[i] == 8)
            ck_assert_uint_eq((size_t)frame[2] << 8 | frame[3], sizes[i]);
        if (headers[i] == 14)
            ck_assert_uint_eq((size_t)frame[7] << 16 | (size_t)frame[8] << 8 | frame[9], sizes[i]);
        free(payload);
        free(frame);
    }
}
END_TEST

START_TEST(test_an_unmasked_text_frame_is_one_message)
{
    static const unsigned char in[] = {0x81, 0x05, 'H', 'e', 'l', 'l', 'o'};
    wsc_decoder d = {0};
    wsc_output out;
    size_t used;
    ck_assert_int_eq(wsc_decode(&d, in, sizeof in, &used, &out), WSC_MESSAGE);
    ck_assert_uint_eq(used, sizeof in);
    ck_assert_int_eq(out.opcode, WSC_OP_TEXT);
    ck_assert_uint_eq(out.len, 5);
    ck_assert(memcmp(out.data, "Hello", 5) == 0);
    wsc_decoder_free(&d);
}
END_TEST

START_TEST(test_a_cut_frame_needs_more_and_consumes_nothing)
{
    static const unsigned char in[] = {0x81, 0x05, 'H', 'e', 'l', 'l', 'o', 0x81, 0x05, 'W'};
    wsc_decoder d = {0};
    wsc_output out;
    size_t used;
    ck_assert_int_eq(wsc_decode(&d, in, 1, &used, &out), WSC_NEED_MORE);
    ck_assert_uint_eq(used, 0);
    ck_assert_int_eq(wsc_decode(&d, in, 6, &used, &out), WSC_NEED_MORE);
    ck_assert_uint_eq(used, 0);
    ck_assert_int_eq(wsc_decode(&d, in, sizeof in, &used, &out), WSC_MESSAGE);
    ck_assert_uint_eq(used, 7);
    ck_assert_int_eq(wsc_decode(&d, in + 7, sizeof in - 7, &used, &out), WSC_NEED_MORE);
    ck_assert_uint_eq(used, 0);
    wsc_decoder_free(&d);
}
END_TEST

START_TEST(test_fragments_are_joined_and_a_ping_between_them_is_reported)
{
    /* RFC 6455 §5.7: "Hel" + "lo", with the unmasked ping "Hello" in between */
    static const unsigned char in[] = {0x01, 0x03, 'H', 'e', 'l', 0x89, 0x05, 'H', 'e', 'l',
                                       'l', 'o', 0x80, 0x02, 'l', 'o'};
    wsc_decoder d = {0};
    wsc_output out;
    size_t used;
    ck_assert_int_eq(wsc_decode(&d, in, sizeof in, &used, &out), WSC_PING);
    ck_assert_uint_eq(used, 12);
    ck_assert_uint_eq(out.len, 5);
    ck_assert(memcmp(out.data, "Hello", 5) == 0);
    ck_assert_int_eq(wsc_decode(&d, in + used, sizeof in - used, &used, &out), WSC_MESSAGE);
    ck_assert_uint_eq(used, 4);
    ck_assert_uint_eq(out.len, 5);
    ck_assert(memcmp(out.data, "Hello", 5) == 0);
    wsc_decoder_free(&d);
}
END_TEST

START_TEST(test_a_256_byte_binary_frame_has_a_16_bit_length)
{
    unsigned char in[4 + 256] = {0x82, 0x7E, 0x01, 0x00};
    for (int i = 0; i < 256; i++)
        in[4 + i] = (unsigned char)i;
    wsc_decoder d = {0};
    wsc_output out;
    size_t used;
    ck_assert_int_eq(wsc_decode(&d, in, sizeof in, &used, &out), WSC_MESSAGE);
    ck_assert_int_eq(out.opcode, WSC_OP_BINARY);
    ck_assert_uint_eq(out.len, 256);
    ck_assert_int_eq(out.data[255], 255);
    wsc_decoder_free(&d);
}
END_TEST

START_TEST(test_pongs_are_swallowed_and_a_close_reports_its_code)
{
    static const unsigned char in[] = {0x8A, 0x00, 0x88, 0x04, 0x03, 0xE9, 'b', 'y'};
    wsc_decoder d = {0};
    wsc_output out;
    size_t used;
    ck_assert_int_eq(wsc_decode(&d, in, sizeof in, &used, &out), WSC_CLOSE);
    ck_assert_uint_eq(used, sizeof in);
    ck_assert_uint_eq(out.close_code, 1001);
    ck_assert_uint_eq(out.len, 2);
    ck_assert(memcmp(out.data, "by", 2) == 0);
    static const unsigned char bare_close[] = {0x88, 0x00};
    ck_assert_int_eq(wsc_decode(&d, bare_close, 2, &used, &out), WSC_CLOSE);
    ck_assert_uint_eq(out.close_code, 1005);
    wsc_decoder_free(&d);
}
END_TEST

START_TEST(test_frames_a_server_may_not_send_are_errors)
{
    static const unsigned char masked[] = {0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d,
                                           0x7f, 0x9f, 0x4d, 0x51, 0x58};
    static const unsigned char stray_continuation[] = {0x80, 0x01, 'x'};
    static const unsigned char interleaved[] = {0x01, 0x01, 'a', 0x81, 0x01, 'b'};
    static const unsigned char long_ping[] = {0x89, 0x7E, 0x00, 0x7E};
    static const unsigned char reserved[] = {0xC1, 0x01, 'x'};
    struct {
        const unsigned char *in;
        size_t len;
    } cases[] = {{masked, sizeof masked},
                 {stray_continuation, sizeof stray_continuation},
                 {interleaved, sizeof interleaved},
                 {long_ping, sizeof long_ping},
                 {reserved, sizeof reserved}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        wsc_decoder d = {0};
        wsc_output out;
        size_t used;
        ck_assert_int_eq(wsc_decode(&d, cases[i].in, cases[i].len, &used, &out), WSC_ERROR);
        ck_assert_ptr_nonnull(out.error);
        wsc_decoder_free(&d);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("wsc");
    TCase *tc = tcase_create("codec");
    tcase_add_test(tc, test_accept_value_is_the_one_of_rfc6455);
    tcase_add_test(tc, test_handshake_waits_for_the_blank_line_then_accepts_the_rfc_answer);
    tcase_add_test(tc, test_handshake_refuses_a_wrong_accept_or_another_status);
    tcase_add_test(tc, test_request_names_path_host_key_and_version);
    tcase_add_test(tc, test_masked_hello_is_the_frame_of_rfc6455);
    tcase_add_test(tc, test_longer_payloads_get_16_and_64_bit_lengths);
    tcase_add_test(tc, test_an_unmasked_text_frame_is_one_message);
    tcase_add_test(tc, test_a_cut_frame_needs_more_and_consumes_nothing);
    tcase_add_test(tc, test_fragments_are_joined_and_a_ping_between_them_is_reported);
    tcase_add_test(tc, test_a_256_byte_binary_frame_has_a_16_bit_length);
    tcase_add_test(tc, test_pongs_are_swallowed_and_a_close_reports_its_code);
    tcase_add_test(tc, test_frames_a_server_may_not_send_are_errors);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
