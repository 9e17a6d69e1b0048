/*
 * load_tiles — the hidden-tile check of the load generator finds every tile name in a frame,
 * in either face order and under any key, and nothing that only looks like one; at Tianjin it
 * passes what a seat may see and catches hand-made frames that leak: another seat's tile, a wall
 * tile, another seat's view, a spectator shown a hand, a tile slipped into the seat's own hand, a
 * private view frame it did not ask for.
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


/* ---- Tianjin ---- */

static uint64_t mj(const char *name)
{
    return 1ull << load_mj_kind(name, strlen(name));
}

/* Checks the frame's text as seat k receives it. */
static load_mj_problem check(load_mj_seat *k, const char *text, bool private_asked)
{
    json_t *frame = json_loads(text, 0, NULL);
    ck_assert_ptr_nonnull(frame);
    load_mj_problem p = load_mj_check_frame(k, frame, text, strlen(text), private_asked);
    json_decref(frame);
    return p;
}

/* Seat 1 after the deal: it holds 1m 1m 2m 5p E, the indicator 3p shows wilds 3p 4p, seat 0 has
 * discarded 9s. */
#define MJ_VIEW_FIELDS(hand, drawn)                                                                          \
    "\"game\":\"tianjin\",\"phase\":\"claim\",\"indicator\":\"3p\",\"wilds\":[\"3p\",\"4p\"],"               \
    "\"melds\":[[],[],[],[]],\"discards\":[[\"9s\"],[],[],[]],\"discard\":{\"seat\":0,\"tile\":\"9s\"},"     \
    "\"over\":false,\"result\":null,\"hand\":" hand ",\"drawn\":" drawn

static const char MJ_DEALT[] = "{\"type\":\"event\",\"seq\":5,\"event\":{\"kind\":\"action\",\"seat\":0,"
                               "\"discard\":\"9s\"},\"view\":{" MJ_VIEW_FIELDS("[\"1m\",\"1m\",\"2m\",\"5p\",\"E\"]",
                                                                               "null") ",\"seat\":1,"
                               "\"legal\":{\"kind\":\"claim\",\"actions\":[{\"pass\":true}]}}}";

static void dealt_seat(load_mj_seat *k)
{
    load_mj_seat_init(k, 1);
    ck_assert_int_eq(check(k, MJ_DEALT, false), LOAD_MJ_OK);
}

START_TEST(test_the_34_tianjin_kinds_get_34_different_bits_and_nothing_else_does)
{
    const char *names[] = {"1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "C", "F", "P"};
    uint64_t all = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        all |= mj(names[i]);
    ck_assert_int_eq(__builtin_popcountll(all), 13);
    ck_assert_int_eq(load_mj_kind("0m", 2), -1);
    ck_assert_int_eq(load_mj_kind("5x", 2), -1);
    ck_assert_int_eq(load_mj_kind("X", 1), -1);
    ck_assert_int_eq(load_mj_kind("5m ", 3), -1);
    ck_assert_int_eq(load_mj_kind("m", 1), -1);
    ck_assert_int_eq(load_mj_kind("9s", 2), 26);
    ck_assert_int_eq(load_mj_kind("P", 1), 33);
}
END_TEST

START_TEST(test_a_tianjin_frame_shows_whole_tile_strings_under_any_key)
{
    const char text[] = "{\"a\":[\"5m\",\"E\"],\"b\":{\"c\":\"P\"},\"name\":\"E5m\",\"x\":\"m\",\"y\":\"5m \",\"z\":\"7s\"";
    ck_assert_uint_eq(load_mj_tiles_in_text(text, strlen(text)), mj("5m") | mj("E") | mj("P") | mj("7s"));
}
END_TEST

START_TEST(test_a_seat_may_see_its_own_tiles_and_everything_face_up)
{
    load_mj_seat k;
    dealt_seat(&k);
    ck_assert_uint_eq(k.known, mj("1m") | mj("2m") | mj("5p") | mj("E") | mj("3p") | mj("4p") | mj("9s"));
}
END_TEST

START_TEST(test_a_frame_that_names_another_seats_tile_is_a_leak)
{
    load_mj_seat k;
    dealt_seat(&k);
    /* the other hands under a key of their own: 7s is in nobody's sight but seat 2's */
    const char leak[] = "{\"type\":\"event\",\"seq\":6,\"event\":{\"kind\":\"chat\",\"text\":\"hi\"},"
                        "\"hands\":[null,null,[\"7s\",\"1m\"],null]}";
    ck_assert_int_eq(check(&k, leak, false), LOAD_MJ_HIDDEN_TILE);
}
END_TEST

START_TEST(test_a_frame_that_names_a_wall_tile_is_a_leak)
{
    load_mj_seat k;
    dealt_seat(&k);
    const char leak[] = "{\"type\":\"event\",\"seq\":6,\"event\":{\"kind\":\"action\",\"no_claim\":\"9s\"},\"view\":{"
                        MJ_VIEW_FIELDS("[\"1m\",\"1m\",\"2m\",\"5p\",\"E\"]", "null")
                        ",\"seat\":1,\"legal\":null,\"wall\":[\"C\",\"2m\"]}}";
    ck_assert_int_eq(check(&k, leak, false), LOAD_MJ_HIDDEN_TILE);
}
END_TEST

START_TEST(test_a_view_of_another_seat_is_a_leak_even_if_its_tiles_are_known)
{
    load_mj_seat k;
    dealt_seat(&k);
    const char other[] = "{\"type\":\"event\",\"seq\":6,\"event\":{\"kind\":\"action\",\"no_claim\":\"9s\"},\"view\":{"
                         MJ_VIEW_FIELDS("[\"1m\",\"1m\",\"2m\",\"5p\",\"E\"]", "null") ",\"seat\":2,\"legal\":null}}";
    ck_assert_int_eq(check(&k, other, false), LOAD_MJ_WRONG_SEAT);
}
END_TEST

START_TEST(test_a_private_view_frame_the_seat_did_not_ask_for_is_a_leak)
{
    load_mj_seat k;
    dealt_seat(&k);
    /* its own view, well formed, but it sent no pass: it tells that another seat's pass went in */
    const char unasked[] = "{\"type\":\"view\",\"table\":\"K7M2QX\",\"view\":{"
                           MJ_VIEW_FIELDS("[\"1m\",\"1m\",\"2m\",\"5p\",\"E\"]", "null") ",\"seat\":1,\"legal\":null}}";
    ck_assert_int_eq(check(&k, unasked, false), LOAD_MJ_UNASKED_VIEW);
    ck_assert_int_eq(check(&k, unasked, true), LOAD_MJ_OK);
}
END_TEST

START_TEST(test_a_spectator_shown_a_hand_is_a_leak)
{
    load_mj_seat k;
    load_mj_seat_init(&k, -1);
    const char fine[] = "{\"type\":\"event\",\"seq\":5,\"event\":{\"kind\":\"action\",\"seat\":0,\"discard\":\"9s\"},"
                        "\"view\":{" MJ_VIEW_FIELDS("null", "null") ",\"seat\":-1,\"legal\":null}}";
    ck_assert_int_eq(check(&k, fine, false), LOAD_MJ_OK);
    const char leak[] = "{\"type\":\"event\",\"seq\":6,\"event\":{\"kind\":\"action\",\"no_claim\":\"9s\"},"
                        "\"view\":{" MJ_VIEW_FIELDS("[\"9s\"]", "null") ",\"seat\":-1,\"legal\":null}}";
    ck_assert_int_eq(check(&k, leak, false), LOAD_MJ_SPECTATOR_SEES);
}
END_TEST

START_TEST(test_own_tiles_may_grow_by_the_drawn_tile_only)
{
    load_mj_seat k;
    dealt_seat(&k);
    const char drew[] = "{\"type\":\"event\",\"seq\":6,\"event\":{\"kind\":\"action\",\"no_claim\":\"9s\"},\"view\":{"
                        MJ_VIEW_FIELDS("[\"1m\",\"1m\",\"2m\",\"5p\",\"5p\",\"E\"]", "\"5p\"")
                        ",\"seat\":1,\"legal\":null}}";
    ck_assert_int_eq(check(&k, drew, false), LOAD_MJ_OK);
    /* a second 2m appears without being drawn: a tile of a kind it knows, slipped in */
    const char slipped[] = "{\"type\":\"event\",\"seq\":7,\"event\":{\"kind\":\"action\",\"seat\":1,\"discard\":\"E\"},"
                           "\"view\":{" MJ_VIEW_FIELDS("[\"1m\",\"1m\",\"2m\",\"2m\",\"5p\",\"5p\"]", "null")
                           ",\"seat\":1,\"legal\":null}}";
    ck_assert_int_eq(check(&k, slipped, false), LOAD_MJ_HAND_GREW);
}
END_TEST

START_TEST(test_a_new_hand_forgets_what_the_last_one_showed)
{
    load_mj_seat k;
    dealt_seat(&k);
    const char started[] = "{\"type\":\"event\",\"seq\":9,\"event\":{\"kind\":\"hand_started\",\"hand\":2},"
                           "\"view\":{\"game\":\"tianjin\",\"seat\":1,\"hand\":null,\"drawn\":null,\"legal\":null}}";
    ck_assert_int_eq(check(&k, started, false), LOAD_MJ_OK);
    ck_assert_uint_eq(k.known, 0);
    const char old[] = "{\"type\":\"event\",\"seq\":10,\"event\":{\"kind\":\"chat\",\"text\":\"x\"},\"n\":[\"5p\"]}";
    ck_assert_int_eq(check(&k, old, false), LOAD_MJ_HIDDEN_TILE);
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
    TCase *mj_tc = tcase_create("tianjin");
    tcase_add_test(mj_tc, test_the_34_tianjin_kinds_get_34_different_bits_and_nothing_else_does);
    tcase_add_test(mj_tc, test_a_tianjin_frame_shows_whole_tile_strings_under_any_key);
    tcase_add_test(mj_tc, test_a_seat_may_see_its_own_tiles_and_everything_face_up);
    tcase_add_test(mj_tc, test_a_frame_that_names_another_seats_tile_is_a_leak);
    tcase_add_test(mj_tc, test_a_frame_that_names_a_wall_tile_is_a_leak);
    tcase_add_test(mj_tc, test_a_view_of_another_seat_is_a_leak_even_if_its_tiles_are_known);
    tcase_add_test(mj_tc, test_a_private_view_frame_the_seat_did_not_ask_for_is_a_leak);
    tcase_add_test(mj_tc, test_a_spectator_shown_a_hand_is_a_leak);
    tcase_add_test(mj_tc, test_own_tiles_may_grow_by_the_drawn_tile_only);
    tcase_add_test(mj_tc, test_a_new_hand_forgets_what_the_last_one_showed);
    suite_add_tcase(s, mj_tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
