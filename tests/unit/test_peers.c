/*
 * peers — connections counted per address (IPv6 per /64), the admission rule with its
 * descriptor reserve, and the client a trusted proxy names.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peers.h"

static peers *make(int max_per_address, int fd_limit, const char *const *trusted, size_t n)
{
    char error[128];
    const peers_config config = {.max_per_address = max_per_address,
                                 .fd_limit = fd_limit,
                                 .trusted_proxies = trusted,
                                 .n_trusted_proxies = n};
    peers *p = peers_create(&config, error, sizeof error);
    ck_assert_msg(p != NULL, "peers_create: %s", error);
    return p;
}

static peers_addr addr(const char *text)
{
    peers_addr a;
    ck_assert_msg(peers_addr_parse(text, &a), "%s does not parse", text);
    return a;
}

START_TEST(test_addresses_parse_with_or_without_brackets_and_mapped_ipv4_is_ipv4)
{
    char text[PEERS_ADDR_TEXT];
    peers_addr a = addr("::ffff:192.0.2.7");
    ck_assert_int_eq(a.family, AF_INET);
    peers_addr_format(&a, text, sizeof text);
    ck_assert_str_eq(text, "192.0.2.7");
    a = addr("[2001:db8::1]");
    peers_addr_format(&a, text, sizeof text);
    ck_assert_str_eq(text, "2001:db8::1");
    peers_addr bad;
    ck_assert(!peers_addr_parse("", &bad));
    ck_assert(!peers_addr_parse("example.com", &bad));
    ck_assert(!peers_addr_parse("192.0.2.7:80", &bad));
    ck_assert(!peers_addr_parse("1.2.3.4.5", &bad));
}
END_TEST

START_TEST(test_an_address_may_hold_its_cap_and_no_more)
{
    peers *p = make(3, 65536, NULL, 0);
    peers_addr a = addr("192.0.2.7"), b = addr("192.0.2.8");
    peers_entry *held[3];
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(peers_admit(p, &a, 100 + i, false), PEERS_ADMIT);
        held[i] = peers_add(p, &a);
    }
    ck_assert_int_eq(peers_admit(p, &a, 200, false), PEERS_ADDRESS_FULL);
    ck_assert_int_eq(peers_admit(p, &b, 200, false), PEERS_ADMIT);
    peers_release(p, held[0]);
    ck_assert_int_eq(peers_admit(p, &a, 200, false), PEERS_ADMIT);
    peers_release(p, held[1]);
    peers_release(p, held[2]);
    ck_assert_int_eq(peers_count(p, &a), 0);
    ck_assert_uint_eq(peers_address_count(p), 0);
    peers_destroy(p);
}
END_TEST

START_TEST(test_zero_means_no_cap_per_address)
{
    peers *p = make(0, 65536, NULL, 0);
    peers_addr a = addr("192.0.2.7");
    for (int i = 0; i < 1000; i++)
        peers_add(p, &a);
    ck_assert_int_eq(peers_admit(p, &a, 2000, false), PEERS_ADMIT);
    peers_destroy(p);
}
END_TEST

START_TEST(test_ipv6_addresses_count_by_their_64)
{
    peers *p = make(2, 65536, NULL, 0);
    peers_addr one = addr("2001:db8:1:2::1"), two = addr("2001:db8:1:2:ffff::9");
    peers_addr other = addr("2001:db8:1:3::1");
    peers_add(p, &one);
    peers_add(p, &two);
    ck_assert_int_eq(peers_count(p, &one), 2);
    peers_addr same_64 = addr("2001:db8:1:2::77");
    ck_assert_int_eq(peers_admit(p, &same_64, 10, false), PEERS_ADDRESS_FULL);
    ck_assert_int_eq(peers_admit(p, &other, 10, false), PEERS_ADMIT);
    peers_destroy(p);
}
END_TEST

START_TEST(test_many_addresses_are_counted_apart)
{
    peers *p = make(64, 1 << 20, NULL, 0);
    peers_entry *entries[5000];
    for (int i = 0; i < 5000; i++) {
        char text[32];
        snprintf(text, sizeof text, "10.%d.%d.1", i / 256, i % 256);
        peers_addr a = addr(text);
        entries[i] = peers_add(p, &a);
        ck_assert_int_eq(peers_count(p, &a), 1);
    }
    ck_assert_uint_eq(peers_address_count(p), 5000);
    for (int i = 0; i < 5000; i++)
        peers_release(p, entries[i]);
    ck_assert_uint_eq(peers_address_count(p), 0);
    peers_destroy(p);
}
END_TEST

START_TEST(test_the_reserve_admits_only_addresses_holding_few)
{
    /* limit 1024: none from 960 (64 kept), no game socket from 944 (16 for the operator), and
     * the reserve is the 64 below that: from 880 */
    peers *p = make(64, 1024, NULL, 0);
    peers_addr busy = addr("192.0.2.1"), fresh = addr("192.0.2.2");
    for (int i = 0; i < PEERS_RESERVE_PER_ADDRESS; i++)
        peers_add(p, &busy);
    ck_assert_int_eq(peers_admit(p, &busy, 879, false), PEERS_ADMIT);
    ck_assert_int_eq(peers_admit(p, &busy, 880, false), PEERS_RESERVE);
    ck_assert_int_eq(peers_admit(p, &fresh, 880, false), PEERS_ADMIT);
    ck_assert_int_eq(peers_admit(p, &fresh, 943, false), PEERS_ADMIT);
    ck_assert_int_eq(peers_admit(p, &fresh, 944, false), PEERS_NO_DESCRIPTORS);
    /* the metrics listener still gets in, up to the descriptors kept for the process */
    ck_assert_int_eq(peers_admit(p, NULL, 944, true), PEERS_ADMIT);
    ck_assert_int_eq(peers_admit(p, NULL, 959, true), PEERS_ADMIT);
    ck_assert_int_eq(peers_admit(p, NULL, 960, true), PEERS_NO_DESCRIPTORS);
    /* a trusted proxy's socket counts against nobody, but not past the game port's end */
    ck_assert_int_eq(peers_admit(p, NULL, 900, false), PEERS_ADMIT);
    ck_assert_int_eq(peers_admit(p, NULL, 944, false), PEERS_NO_DESCRIPTORS);
    peers_destroy(p);
}
END_TEST

START_TEST(test_a_bad_trusted_proxy_is_refused_with_its_name)
{
    static const char *const trusted[] = {"127.0.0.1, ::1", "proxy.example"};
    char error[128];
    const peers_config config = {.fd_limit = 1024, .trusted_proxies = trusted,
                                 .n_trusted_proxies = 2};
    ck_assert(peers_create(&config, error, sizeof error) == NULL);
    ck_assert_msg(strstr(error, "proxy.example") != NULL, "error: %s", error);
}
END_TEST

START_TEST(test_the_client_is_the_rightmost_address_no_trusted_proxy_added)
{
    static const char *const trusted[] = {"10.0.0.1,10.0.0.2", "2001:db8::10"};
    peers *p = make(64, 1024, trusted, 2);
    char text[PEERS_ADDR_TEXT];
    peers_addr out;
    peers_addr proxy_v4 = addr("10.0.0.2"), proxy_v6 = addr("2001:db8::10");
    peers_addr stranger = addr("10.0.0.3");
    ck_assert(peers_is_trusted(p, &proxy_v4));
    ck_assert(peers_is_trusted(p, &proxy_v6));
    ck_assert(!peers_is_trusted(p, &stranger));

    /* a client's own claim sits to the left of what our proxies wrote */
    ck_assert(peers_forwarded(p, "6.6.6.6, 203.0.113.9, 10.0.0.2", NULL, &out));
    peers_addr_format(&out, text, sizeof text);
    ck_assert_str_eq(text, "203.0.113.9");
    ck_assert(peers_forwarded(p, "203.0.113.9:5555", "6.6.6.6", &out));
    peers_addr_format(&out, text, sizeof text);
    ck_assert_str_eq(text, "203.0.113.9");
    ck_assert(peers_forwarded(p, "[2001:db8::5]:443,2001:db8::10", NULL, &out));
    peers_addr_format(&out, text, sizeof text);
    ck_assert_str_eq(text, "2001:db8::5");
    /* without X-Forwarded-For, X-Real-IP */
    ck_assert(peers_forwarded(p, NULL, " 198.51.100.4 ", &out));
    peers_addr_format(&out, text, sizeof text);
    ck_assert_str_eq(text, "198.51.100.4");
    /* nothing usable */
    ck_assert(!peers_forwarded(p, NULL, NULL, &out));
    ck_assert(!peers_forwarded(p, "unknown", NULL, &out));
    ck_assert(!peers_forwarded(p, "", "not an address", &out));
    peers_destroy(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("peers");
    TCase *tc = tcase_create("peers");
    tcase_add_test(tc, test_addresses_parse_with_or_without_brackets_and_mapped_ipv4_is_ipv4);
    tcase_add_test(tc, test_an_address_may_hold_its_cap_and_no_more);
    tcase_add_test(tc, test_zero_means_no_cap_per_address);
    tcase_add_test(tc, test_ipv6_addresses_count_by_their_64);
    tcase_add_test(tc, test_many_addresses_are_counted_apart);
    tcase_add_test(tc, test_the_reserve_admits_only_addresses_holding_few);
    tcase_add_test(tc, test_a_bad_trusted_proxy_is_refused_with_its_name);
    tcase_add_test(tc, test_the_client_is_the_rightmost_address_no_trusted_proxy_added);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
