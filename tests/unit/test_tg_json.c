/*
 * Unit tests of tg_json: Tien Gow tiles, options, actions and hand records as JSON
 * (rules/tiengow.md §8). Expected values come from the rules page, not from the code.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tg_json.h"

static char msg[TGJ_MESSAGE_SIZE];

/* Parses JSON written with ' for " so that test documents stay readable. */
static json_t *parse_quoted(const char *quoted)
{
    char *text = strdup(quoted);
    for (char *c = text; *c; c++)
        if (*c == '\'')
            *c = '"';
    json_error_t error;
    json_t *value = json_loads(text, JSON_DECODE_ANY, &error);
    ck_assert_msg(value != NULL, "test document does not parse: %s", error.text);
    free(text);
    return value;
}

static void assert_json_equal(json_t *actual, const char *quoted_expected)
{
    json_t *expected = parse_quoted(quoted_expected);
    char *got = json_dumps(actual, JSON_COMPACT | JSON_ENCODE_ANY);
    ck_assert_msg(json_equal(actual, expected), "got %s, expected %s", got, quoted_expected);
    free(got);
    json_decref(expected);
}

/* --- tiles --- */

START_TEST(test_tile_names_are_read_low_face_first)
{
    static const struct {
        const char *name;
        int kind;
    } CASES[] = {{"1-2", TG_THREE_12}, {"2-4", TG_SIX_24}, {"6-6", TG_HEAVEN}, {"1-1", TG_EARTH},
                 {"4-5", TG_NINE_45},  {"1-5", TG_COPPER_HAMMER}, {"1-4", TG_FIVE_14}};
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        json_t *name = json_string(CASES[i].name);
        int kind = -1;
        ck_assert_int_eq(tgj_parse_tile(name, "tile", &kind, msg, sizeof msg), TGJ_OK);
        ck_assert_int_eq(kind, CASES[i].kind);
        json_decref(name);
    }
}
END_TEST

START_TEST(test_a_tile_name_high_face_first_is_a_bad_request)
{
    json_t *name = json_string("2-1");
    int kind = 99;
    ck_assert_int_eq(tgj_parse_tile(name, "hands[1][2]", &kind, msg, sizeof msg), TGJ_BAD_REQUEST);
    ck_assert_int_eq(kind, 99);
    ck_assert_ptr_nonnull(strstr(msg, "hands[1][2]"));
    ck_assert_ptr_nonnull(strstr(msg, "2-1"));
    json_decref(name);
}
END_TEST

START_TEST(test_names_that_are_no_tile_are_bad_requests)
{
    const char *names[] = {"7-7", "0-1", "1-7", "12", "1-2 ", " 1-2", "1_2", "", "one-two", "1-22"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        json_t *name = json_string(names[i]);
        int kind;
        ck_assert_msg(tgj_parse_tile(name, "t", &kind, msg, sizeof msg) == TGJ_BAD_REQUEST, "%s accepted", names[i]);
        json_decref(name);
    }
    json_t *with_nul = json_stringn("1-2\0x", 5);
    int kind;
    ck_assert_int_eq(tgj_parse_tile(with_nul, "t", &kind, msg, sizeof msg), TGJ_BAD_REQUEST);
    json_decref(with_nul);
}
END_TEST

START_TEST(test_a_tile_that_is_not_a_string_is_a_bad_request)
{
    json_t *number = json_integer(12);
    int kind;
    ck_assert_int_eq(tgj_parse_tile(number, "t", &kind, msg, sizeof msg), TGJ_BAD_REQUEST);
    json_decref(number);
}
END_TEST

START_TEST(test_tiles_are_written_low_face_first)
{
    json_t *tile = tgj_tile_to_json(TG_FIVE_14);
    ck_assert_str_eq(json_string_value(tile), "1-4");
    json_decref(tile);
    tile = tgj_tile_to_json(TG_HATCHET);
    ck_assert_str_eq(json_string_value(tile), "5-6");
    json_decref(tile);
}
END_TEST

START_TEST(test_tile_lists_are_written_in_tile_name_order)
{
    const uint8_t kinds[] = {TG_HEAVEN, TG_NINE_45, TG_THREE_12, TG_EARTH};
    json_t *list = tgj_tiles_to_json(kinds, 4);
    assert_json_equal(list, "['1-1','1-2','4-5','6-6']");
    json_decref(list);
}
END_TEST

/* --- hands, seats, stacks, multiplier --- */

START_TEST(test_four_hands_of_eight_tiles_are_read_in_seat_order)
{
    json_t *hands = parse_quoted("[['1-2','1-5','2-4','2-6','4-4','4-4','4-5','6-6'],"
                                 " ['1-4','1-6','1-6','2-2','2-3','3-6','5-5','5-5'],"
                                 " ['1-1','2-2','2-5','3-3','3-3','3-4','3-5','6-6'],"
                                 " ['1-1','1-3','1-3','1-5','4-6','4-6','5-6','5-6']]");
    uint8_t deal[TG_SEATS][TG_HAND_TILES];
    ck_assert_int_eq(tgj_parse_hands(hands, deal, msg, sizeof msg), TGJ_OK);
    ck_assert_int_eq(deal[0][0], TG_THREE_12);
    ck_assert_int_eq(deal[0][7], TG_HEAVEN);
    ck_assert_int_eq(deal[3][7], TG_HATCHET);
    ck_assert_int_eq(tg_check_deal((const uint8_t(*)[TG_HAND_TILES])deal), TG_OK);
    json_decref(hands);
}
END_TEST

START_TEST(test_hands_not_four_lists_of_eight_tiles_are_bad_requests)
{
    const char *bad[] = {
        "{}",
        "[['1-2','1-5','2-4','2-6','4-4','4-4','4-5','6-6']]",
        "[['1-2','1-5','2-4','2-6','4-4','4-4','4-5'],[],[],[]]",
        "[[],[],[],[],[]]",
        "['a','b','c','d']",
        "[['1-2','1-5','2-4','2-6','4-4','4-4','4-5','9-9'],"
        " ['1-4','1-6','1-6','2-2','2-3','3-6','5-5','5-5'],"
        " ['1-1','2-2','2-5','3-3','3-3','3-4','3-5','6-6'],"
        " ['1-1','1-3','1-3','1-5','4-6','4-6','5-6','5-6']]",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *hands = parse_quoted(bad[i]);
        uint8_t deal[TG_SEATS][TG_HAND_TILES];
        ck_assert_msg(tgj_parse_hands(hands, deal, msg, sizeof msg) == TGJ_BAD_REQUEST, "accepted %s", bad[i]);
        json_decref(hands);
    }
}
END_TEST

START_TEST(test_seats_are_integers_zero_to_three)
{
    const char *good[] = {"0", "3"};
    const char *bad[] = {"-1", "4", "1.0", "'1'", "true", "null"};
    int seat;
    for (size_t i = 0; i < 2; i++) {
        json_t *v = parse_quoted(good[i]);
        ck_assert_int_eq(tgj_parse_seat(v, "banker", &seat, msg, sizeof msg), TGJ_OK);
        ck_assert_int_eq(seat, good[i][0] - '0');
        json_decref(v);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *v = parse_quoted(bad[i]);
        ck_assert_msg(tgj_parse_seat(v, "banker", &seat, msg, sizeof msg) == TGJ_BAD_REQUEST, "accepted %s", bad[i]);
        ck_assert_ptr_nonnull(strstr(msg, "banker"));
        json_decref(v);
    }
}
END_TEST

START_TEST(test_the_multiplier_is_an_integer_from_two_to_the_cap)
{
    uint32_t m = 0;
    json_t *v = json_integer(2);
    ck_assert_int_eq(tgj_parse_multiplier(v, "multiplier", &m, msg, sizeof msg), TGJ_OK);
    ck_assert_uint_eq(m, 2);
    json_integer_set(v, TGJ_MAX_MULTIPLIER);
    ck_assert_int_eq(tgj_parse_multiplier(v, "multiplier", &m, msg, sizeof msg), TGJ_OK);
    ck_assert_uint_eq(m, 1000000);
    json_integer_set(v, 1);
    ck_assert_int_eq(tgj_parse_multiplier(v, "multiplier", &m, msg, sizeof msg), TGJ_BAD_REQUEST);
    json_integer_set(v, 1000001);
    ck_assert_int_eq(tgj_parse_multiplier(v, "multiplier", &m, msg, sizeof msg), TGJ_BAD_REQUEST);
    json_decref(v);
    v = json_real(2.0);
    ck_assert_int_eq(tgj_parse_multiplier(v, "multiplier", &m, msg, sizeof msg), TGJ_BAD_REQUEST);
    json_decref(v);
}
END_TEST

START_TEST(test_stacks_are_four_integers_zero_to_eight)
{
    uint8_t stacks[TG_SEATS];
    json_t *v = parse_quoted("[1,4,0,3]");
    ck_assert_int_eq(tgj_parse_stacks(v, "stacks", stacks, msg, sizeof msg), TGJ_OK);
    ck_assert_int_eq(stacks[1], 4);
    ck_assert_int_eq(stacks[3], 3);
    json_decref(v);
    const char *bad[] = {"[1,4,3]", "[1,4,0,3,0]", "[9,0,0,0]", "[-1,4,2,3]", "[1,4,0,'3']", "[1,4,0,3.0]", "8"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = parse_quoted(bad[i]);
        ck_assert_msg(tgj_parse_stacks(v, "stacks", stacks, msg, sizeof msg) == TGJ_BAD_REQUEST, "accepted %s",
                      bad[i]);
        json_decref(v);
    }
}
END_TEST

/* --- options --- */

START_TEST(test_left_out_options_are_the_defaults_of_section_8)
{
    tg_options o;
    int64_t stake = 0;
    ck_assert_int_eq(tgj_parse_options(NULL, &o, &stake, msg, sizeof msg), TGJ_OK);
    ck_assert(!o.wen_zun);
    ck_assert_int_eq(o.rotation, TG_ROTATION_FLY);
    ck_assert_int_eq(o.qin_multiplier, 4);
    ck_assert(o.qin_pays_all);
    ck_assert_int_eq(o.quartet_bonus, TG_QUARTET_BONUS_WINNER);
    ck_assert(!o.seven_civil && !o.seven_military && !o.eight_civil && !o.eight_military && !o.four_pairs);
    ck_assert_int_eq(stake, 1);

    json_t *empty = json_object();
    ck_assert_int_eq(tgj_parse_options(empty, &o, &stake, msg, sizeof msg), TGJ_OK);
    ck_assert_int_eq(o.qin_multiplier, 4);
    ck_assert_int_eq(stake, 1);
    json_decref(empty);
}
END_TEST

START_TEST(test_every_option_is_read)
{
    json_t *v = parse_quoted("{'wen_zun':true,'rotation':'turn','qin_multiplier':2,'qin_pays_all':false,"
                             "'quartet_bonus':'appearance','seven_civil':true,'seven_military':true,"
                             "'eight_civil':true,'eight_military':true,'four_pairs':true,'stake':25}");
    tg_options o;
    int64_t stake = 0;
    ck_assert_int_eq(tgj_parse_options(v, &o, &stake, msg, sizeof msg), TGJ_OK);
    ck_assert(o.wen_zun);
    ck_assert_int_eq(o.rotation, TG_ROTATION_TURN);
    ck_assert_int_eq(o.qin_multiplier, 2);
    ck_assert(!o.qin_pays_all);
    ck_assert_int_eq(o.quartet_bonus, TG_QUARTET_BONUS_APPEARANCE);
    ck_assert(o.seven_civil && o.seven_military && o.eight_civil && o.eight_military && o.four_pairs);
    ck_assert_int_eq(stake, 25);
    json_decref(v);
}
END_TEST

START_TEST(test_options_are_written_with_every_key)
{
    tg_options o = tg_options_default();
    o.rotation = TG_ROTATION_TURN;
    o.four_pairs = true;
    json_t *written = tgj_options_to_json(&o, 7);
    assert_json_equal(written, "{'wen_zun':false,'rotation':'turn','qin_multiplier':4,'qin_pays_all':true,"
                               "'quartet_bonus':'winner','seven_civil':false,'seven_military':false,"
                               "'eight_civil':false,'eight_military':false,'four_pairs':true,'stake':7}");
    tg_options back;
    int64_t stake;
    ck_assert_int_eq(tgj_parse_options(written, &back, &stake, msg, sizeof msg), TGJ_OK);
    ck_assert(memcmp(&back, &o, sizeof o) == 0);
    ck_assert_int_eq(stake, 7);
    json_decref(written);
}
END_TEST

START_TEST(test_bad_options_are_bad_requests_naming_the_key)
{
    static const struct {
        const char *options;
        const char *named;
    } CASES[] = {
        {"{'stakes':2}", "stakes"},                 /* unknown key */
        {"{'wen_zun':1}", "wen_zun"},               /* wrong type */
        {"{'qin_pays_all':'true'}", "qin_pays_all"},
        {"{'rotation':'spin'}", "rotation"},        /* value not listed */
        {"{'rotation':1}", "rotation"},
        {"{'quartet_bonus':'loser'}", "quartet_bonus"},
        {"{'qin_multiplier':3}", "qin_multiplier"},
        {"{'qin_multiplier':'4'}", "qin_multiplier"},
        {"{'qin_multiplier':4.0}", "qin_multiplier"},
        {"{'stake':0}", "stake"},                   /* out of range */
        {"{'stake':1000001}", "stake"},
        {"{'stake':2.5}", "stake"},
        {"{'four_pairs':null}", "four_pairs"},
        {"[]", "options"},
        {"null", "options"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        json_t *v = parse_quoted(CASES[i].options);
        tg_options o = tg_options_default();
        o.wen_zun = true; /* must be left as it is */
        int64_t stake = 42;
        ck_assert_msg(tgj_parse_options(v, &o, &stake, msg, sizeof msg) == TGJ_BAD_REQUEST, "accepted %s",
                      CASES[i].options);
        ck_assert_msg(strstr(msg, CASES[i].named) != NULL, "message '%s' does not name %s", msg, CASES[i].named);
        ck_assert(o.wen_zun);
        ck_assert_int_eq(stake, 42);
        json_decref(v);
    }
}
END_TEST

START_TEST(test_the_stake_may_reach_its_cap)
{
    json_t *v = parse_quoted("{'stake':1000000}");
    tg_options o;
    int64_t stake;
    ck_assert_int_eq(tgj_parse_options(v, &o, &stake, msg, sizeof msg), TGJ_OK);
    ck_assert_int_eq(stake, TGJ_MAX_STAKE);
    json_decref(v);
}
END_TEST

/* --- actions --- */

START_TEST(test_a_play_is_read_with_its_tiles_as_listed)
{
    json_t *v = parse_quoted("{'seat':2,'play':['6-6','4-5']}");
    tgj_action a;
    ck_assert_int_eq(tgj_parse_action(v, "actions[0]", &a, msg, sizeof msg), TGJ_OK);
    ck_assert_int_eq(a.seat, 2);
    ck_assert_int_eq(a.kind, TG_PLAY);
    ck_assert_uint_eq(a.count, 2);
    ck_assert_int_eq(a.tiles[0], TG_HEAVEN);
    ck_assert_int_eq(a.tiles[1], TG_NINE_45);
    tg_action e;
    ck_assert(tgj_action_to_engine(&a, &e));
    ck_assert_int_eq(e.seat, 2);
    ck_assert_int_eq(e.kind, TG_PLAY);
    ck_assert_int_eq(e.n, 2);
    json_decref(v);
}
END_TEST

START_TEST(test_a_discard_is_read)
{
    json_t *v = parse_quoted("{'discard':['1-2'],'seat':0}");
    tgj_action a;
    ck_assert_int_eq(tgj_parse_action(v, "actions[0]", &a, msg, sizeof msg), TGJ_OK);
    ck_assert_int_eq(a.seat, 0);
    ck_assert_int_eq(a.kind, TG_DISCARD);
    ck_assert_uint_eq(a.count, 1);
    ck_assert_int_eq(a.tiles[0], TG_THREE_12);
    json_decref(v);
}
END_TEST

START_TEST(test_tile_counts_the_engine_refuses_are_read_but_not_handed_over)
{
    tgj_action a;
    tg_action e;
    json_t *v = parse_quoted("{'seat':1,'play':[]}");
    ck_assert_int_eq(tgj_parse_action(v, "a", &a, msg, sizeof msg), TGJ_OK);
    ck_assert_uint_eq(a.count, 0);
    ck_assert(!tgj_action_to_engine(&a, &e));
    json_decref(v);
    v = parse_quoted("{'seat':1,'discard':['1-2','1-3','1-4','1-5','1-6']}");
    ck_assert_int_eq(tgj_parse_action(v, "a", &a, msg, sizeof msg), TGJ_OK);
    ck_assert_uint_eq(a.count, 5);
    ck_assert(!tgj_action_to_engine(&a, &e));
    json_decref(v);
    v = parse_quoted("{'seat':1,'discard':['1-2','1-3','1-4','1-5']}");
    ck_assert_int_eq(tgj_parse_action(v, "a", &a, msg, sizeof msg), TGJ_OK);
    ck_assert(tgj_action_to_engine(&a, &e));
    ck_assert_int_eq(e.n, 4);
    json_decref(v);
}
END_TEST

START_TEST(test_actions_of_the_wrong_shape_are_bad_requests)
{
    static const struct {
        const char *action;
        const char *named;
    } CASES[] = {
        {"{'seat':1,'play':['1-2'],'why':'x'}", "why"},   /* unknown key */
        {"{'seats':1,'play':['1-2']}", "seats"},
        {"{'play':['1-2']}", "seat"},                      /* missing key */
        {"{'seat':1}", "play"},
        {"{'seat':1,'play':['1-2'],'discard':['1-3']}", "discard"},
        {"{'seat':4,'play':['1-2']}", "actions[7].seat"},  /* out of range */
        {"{'seat':'1','play':['1-2']}", "actions[7].seat"},/* wrong type */
        {"{'seat':1,'play':'1-2'}", "actions[7].play"},
        {"{'seat':1,'discard':2}", "actions[7].discard"},
        {"{'seat':1,'play':['1-2',12]}", "actions[7].play[1]"},
        {"{'seat':1,'play':['1-2','3-1']}", "actions[7].play[1]"}, /* bad tile name */
        {"[1,'play']", "actions[7]"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        json_t *v = parse_quoted(CASES[i].action);
        tgj_action a;
        ck_assert_msg(tgj_parse_action(v, "actions[7]", &a, msg, sizeof msg) == TGJ_BAD_REQUEST, "accepted %s",
                      CASES[i].action);
        ck_assert_msg(strstr(msg, CASES[i].named) != NULL, "message '%s' does not name %s", msg, CASES[i].named);
        json_decref(v);
    }
}
END_TEST

START_TEST(test_an_action_is_described_by_seat_and_tiles)
{
    json_t *v = parse_quoted("{'seat':2,'play':['1-2','2-4']}");
    tgj_action a;
    char text[128];
    ck_assert_int_eq(tgj_parse_action(v, "a", &a, msg, sizeof msg), TGJ_OK);
    tgj_describe_action(&a, text, sizeof text);
    ck_assert_str_eq(text, "seat 2 plays [\"1-2\",\"2-4\"]");
    json_decref(v);
    v = parse_quoted("{'seat':0,'discard':[]}");
    ck_assert_int_eq(tgj_parse_action(v, "a", &a, msg, sizeof msg), TGJ_OK);
    tgj_describe_action(&a, text, sizeof text);
    ck_assert_str_eq(text, "seat 0 discards []");
    tgj_describe_action(&a, text, 5); /* a short buffer is cut, never overrun */
    ck_assert_str_eq(text, "seat");
    json_decref(v);
}
END_TEST

START_TEST(test_a_written_discard_shows_only_how_many_tiles)
{
    const uint8_t tiles[] = {TG_HEAVEN, TG_NINE_36};
    tg_action discard = tg_action_make(1, TG_DISCARD, tiles, 2);
    json_t *v = tgj_action_to_json(&discard);
    assert_json_equal(v, "{'seat':1,'discard':2}");
    json_decref(v);
    tg_action play = tg_action_make(3, TG_PLAY, tiles, 2);
    v = tgj_action_to_json(&play);
    assert_json_equal(v, "{'seat':3,'play':['3-6','6-6']}");
    json_decref(v);
}
END_TEST

/* --- records --- */

START_TEST(test_a_trick_is_written_with_leader_plays_winner_and_size)
{
    const uint8_t lead[] = {TG_GOOSE, TG_GOOSE}, beat[] = {TG_MAN, TG_MAN}, x[] = {TG_HEAVEN, TG_THREE_12};
    tg_trick t;
    memset(&t, 0, sizeof t);
    t.leader = 3;
    t.n = 2;
    t.count = 4;
    t.winner = 0;
    t.actions[0] = tg_action_make(3, TG_PLAY, lead, 2);
    t.actions[1] = tg_action_make(0, TG_PLAY, beat, 2);
    t.actions[2] = tg_action_make(1, TG_DISCARD, x, 2);
    t.actions[3] = tg_action_make(2, TG_DISCARD, x, 2);
    json_t *v = tgj_tricks_to_json(&t, 1);
    assert_json_equal(v, "[{'leader':3,'plays':[{'seat':3,'play':['1-3','1-3']},{'seat':0,'play':['4-4','4-4']},"
                         "{'seat':1,'discard':2},{'seat':2,'discard':2}],'winner':0,'tiles':2}]");
    json_decref(v);
}
END_TEST

START_TEST(test_bonuses_are_written_in_units_times_stake)
{
    tg_bonus b[2] = {{.kind = TG_BONUS_HE_ZUN, .trick = 0, .from = 3, .to = 0, .units = 4},
                     {.kind = TG_BONUS_QUARTET, .trick = 1, .from = 1, .to = 2, .units = 4}};
    json_t *v = tgj_bonuses_to_json(b, 2, 3);
    assert_json_equal(v, "[{'kind':'he_zun','from':3,'to':0,'units':12},{'kind':'quartet','from':1,'to':2,'units':12}]");
    json_decref(v);
    ck_assert_str_eq(tgj_bonus_kind_name(TG_BONUS_QIN_ZUN), "qin_zun");
}
END_TEST

START_TEST(test_endings_are_written_sorted_alphabetically)
{
    json_t *v = tgj_endings_to_json(TG_END_EIGHT | TG_END_NATURAL);
    assert_json_equal(v, "['eight','natural']");
    json_decref(v);
    v = tgj_endings_to_json(TG_END_SEVEN | TG_END_NATURAL);
    assert_json_equal(v, "['natural','seven']");
    json_decref(v);
    v = tgj_endings_to_json(TG_END_YAO | TG_END_QUARTET | TG_END_EIGHT | TG_END_ZUN);
    assert_json_equal(v, "['eight','quartet','yao','zun']");
    json_decref(v);
    v = tgj_endings_to_json(TG_END_QIN);
    assert_json_equal(v, "['qin']");
    json_decref(v);
    v = tgj_endings_to_json(0);
    assert_json_equal(v, "[]");
    json_decref(v);
}
END_TEST

START_TEST(test_settle_endings_are_distinct_names_of_the_final_trick)
{
    uint8_t endings = 0xff;
    json_t *v = parse_quoted("['zun','eight']");
    ck_assert_int_eq(tgj_parse_endings(v, "endings", &endings, msg, sizeof msg), TGJ_OK);
    ck_assert_int_eq(endings, TG_END_ZUN | TG_END_EIGHT);
    json_decref(v);
    v = parse_quoted("[]");
    ck_assert_int_eq(tgj_parse_endings(v, "endings", &endings, msg, sizeof msg), TGJ_OK);
    ck_assert_int_eq(endings, 0);
    json_decref(v);
    const char *bad[] = {"['yao','yao']", "['qin']", "['natural']", "['Eight']", "[4]", "'eight'", "{}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = parse_quoted(bad[i]);
        ck_assert_msg(tgj_parse_endings(v, "endings", &endings, msg, sizeof msg) == TGJ_BAD_REQUEST, "accepted %s",
                      bad[i]);
        json_decref(v);
    }
}
END_TEST

START_TEST(test_payments_and_net_are_written_in_units_times_stake)
{
    /* Worked example B of §4: East pays 6, North pays South 1 (入一), West pays 5. */
    tg_settlement s = {.count = 3,
                       .payments = {{.from = 0, .to = 3, .why = TG_PAY_SETTLEMENT, .units = 6},
                                    {.from = 3, .to = 1, .why = TG_PAY_SETTLEMENT, .units = 1},
                                    {.from = 2, .to = 3, .why = TG_PAY_SETTLEMENT, .units = 5}},
                       .net = {-6, 1, -5, 10}};
    json_t *v = tgj_payments_to_json(&s, 10);
    assert_json_equal(v, "[{'from':0,'to':3,'units':60,'why':'settlement'},{'from':3,'to':1,'units':10,'why':"
                         "'settlement'},{'from':2,'to':3,'units':50,'why':'settlement'}]");
    json_decref(v);
    v = tgj_net_to_json(s.net, 10);
    assert_json_equal(v, "[-60,10,-50,100]");
    json_decref(v);
    s.count = 1;
    s.payments[0].why = TG_PAY_QIN;
    v = tgj_payments_to_json(&s, 1);
    assert_json_equal(v, "[{'from':0,'to':3,'units':6,'why':'qin'}]");
    json_decref(v);
}
END_TEST

START_TEST(test_error_names_are_the_protocol_codes)
{
    ck_assert_str_eq(tgj_error_name(TGJ_BAD_REQUEST), "bad_request");
    ck_assert_str_eq(tgj_error_name(TGJ_IMPOSSIBLE), "impossible");
    ck_assert_str_eq(tgj_error_name(TGJ_ILLEGAL_ACTION), "illegal_action");
    ck_assert(TGJ_BAD_REQUEST < TGJ_IMPOSSIBLE && TGJ_IMPOSSIBLE < TGJ_ILLEGAL_ACTION);
}
END_TEST

static Suite *tg_json_suite(void)
{
    Suite *s = suite_create("tg_json");
    TCase *tiles = tcase_create("tiles");
    tcase_add_test(tiles, test_tile_names_are_read_low_face_first);
    tcase_add_test(tiles, test_a_tile_name_high_face_first_is_a_bad_request);
    tcase_add_test(tiles, test_names_that_are_no_tile_are_bad_requests);
    tcase_add_test(tiles, test_a_tile_that_is_not_a_string_is_a_bad_request);
    tcase_add_test(tiles, test_tiles_are_written_low_face_first);
    tcase_add_test(tiles, test_tile_lists_are_written_in_tile_name_order);
    suite_add_tcase(s, tiles);

    TCase *values = tcase_create("values");
    tcase_add_test(values, test_four_hands_of_eight_tiles_are_read_in_seat_order);
    tcase_add_test(values, test_hands_not_four_lists_of_eight_tiles_are_bad_requests);
    tcase_add_test(values, test_seats_are_integers_zero_to_three);
    tcase_add_test(values, test_the_multiplier_is_an_integer_from_two_to_the_cap);
    tcase_add_test(values, test_stacks_are_four_integers_zero_to_eight);
    suite_add_tcase(s, values);

    TCase *options = tcase_create("options");
    tcase_add_test(options, test_left_out_options_are_the_defaults_of_section_8);
    tcase_add_test(options, test_every_option_is_read);
    tcase_add_test(options, test_options_are_written_with_every_key);
    tcase_add_test(options, test_bad_options_are_bad_requests_naming_the_key);
    tcase_add_test(options, test_the_stake_may_reach_its_cap);
    suite_add_tcase(s, options);

    TCase *actions = tcase_create("actions");
    tcase_add_test(actions, test_a_play_is_read_with_its_tiles_as_listed);
    tcase_add_test(actions, test_a_discard_is_read);
    tcase_add_test(actions, test_tile_counts_the_engine_refuses_are_read_but_not_handed_over);
    tcase_add_test(actions, test_actions_of_the_wrong_shape_are_bad_requests);
    tcase_add_test(actions, test_an_action_is_described_by_seat_and_tiles);
    tcase_add_test(actions, test_a_written_discard_shows_only_how_many_tiles);
    suite_add_tcase(s, actions);

    TCase *records = tcase_create("records");
    tcase_add_test(records, test_a_trick_is_written_with_leader_plays_winner_and_size);
    tcase_add_test(records, test_bonuses_are_written_in_units_times_stake);
    tcase_add_test(records, test_endings_are_written_sorted_alphabetically);
    tcase_add_test(records, test_settle_endings_are_distinct_names_of_the_final_trick);
    tcase_add_test(records, test_payments_and_net_are_written_in_units_times_stake);
    tcase_add_test(records, test_error_names_are_the_protocol_codes);
    suite_add_tcase(s, records);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(tg_json_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
