/*
 * load_tiles — the hidden-tile check of the load generator finds every tile name in a frame,
 * in either face order and under any key, and nothing that only looks like one.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "load_tiles.h"

static uint64_t bit(const char *name)
{
    return 1ull << load_tile_bit(name, strlen(name));
}

START_TEST(test_the_21_face_pairs_get_21_different_bits)
{
    uint64_t all = 0;
    int count = 0;
    for (char a = '1'; a <= '6'; a++)
        for (char b = a; b <= '6'; b++) {
            char name[4] = {a, '-', b, '\0'};
            int k = load_tile_bit(name, 3);
            ck_assert_int_ge(k, 0);
            ck_assert_int_lt(k, 64);
            all |= 1ull << k;
            count++;
        }
    ck_assert_int_eq(count, 21);
    ck_assert_int_eq(__builtin_popcountll(all), 21);
}
END_TEST

START_TEST(test_both_face_orders_name_the_same_tile)
{
    ck_assert_int_eq(load_tile_bit("3-5", 3), load_tile_bit("5-3", 3));
    ck_assert_int_ne(load_tile_bit("3-5", 3), load_tile_bit("3-6", 3));
}
END_TEST

START_TEST(test_things_that_are_not_tiles_have_no_bit)
{
    ck_assert_int_eq(load_tile_bit("0-5", 3), -1);
    ck_assert_int_eq(load_tile_bit("1-7", 3), -1);
    ck_assert_int_eq(load_tile_bit("1+2", 3), -1);
    ck_assert_int_eq(load_tile_bit("1-2 ", 4), -1);
    ck_assert_int_eq(load_tile_bit("12", 2), -1);
}
END_TEST

START_TEST(test_a_frame_shows_tiles_under_any_key_and_only_whole_strings)
{
    const char frame[] = "{\"type\":\"event\",\"event\":{\"kind\":\"action\",\"play\":[\"6-6\",\"3-6\"]},"
                         "\"view\":{\"hand\":[\"1-3\"],\"deep\":{\"x\":[[\"5-2\"]]},"
                         "\"name\":\"load1-2\",\"code\":\"K7M2QX\",\"text\":\"4-4 \",\"n\":\"1-1x\"}}";
    uint64_t shown = load_tiles_in_text(frame, strlen(frame));
    ck_assert_uint_eq(shown, bit("6-6") | bit("3-6") | bit("1-3") | bit("2-5"));
}
END_TEST

START_TEST(test_a_tile_at_the_very_end_of_the_text_is_found)
{
    const char text[] = "[\"1-2\"";
    ck_assert_uint_eq(load_tiles_in_text(text, strlen(text)), bit("1-2"));
    ck_assert_uint_eq(load_tiles_in_text(text, strlen(text) - 1), 0); /* cut: not a string */
}
END_TEST

START_TEST(test_tiles_of_a_list_ignore_what_is_not_a_tile)
{
    json_t *list = json_pack("[s, s, i, s, n]", "4-5", "2-2", 7, "hello");
    ck_assert_uint_eq(load_tiles_of(list), bit("4-5") | bit("2-2"));
    ck_assert_uint_eq(load_tiles_of(NULL), 0);
    json_decref(list);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("load_tiles");
    TCase *tc = tcase_create("tiles");
    tcase_add_test(tc, test_the_21_face_pairs_get_21_different_bits);
    tcase_add_test(tc, test_both_face_orders_name_the_same_tile);
    tcase_add_test(tc, test_things_that_are_not_tiles_have_no_bit);
    tcase_add_test(tc, test_a_frame_shows_tiles_under_any_key_and_only_whole_strings);
    tcase_add_test(tc, test_a_tile_at_the_very_end_of_the_text_is_found);
    tcase_add_test(tc, test_tiles_of_a_list_ignore_what_is_not_a_tile);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
