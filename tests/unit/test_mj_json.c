/*
 * Unit tests of mj_json, the Tianjin JSON readers and writers (rules/tianjin-mahjong.md §7): tile
 * names both ways, options with their defaults, the shape of score and settle documents read into
 * engine values, and the answers written with §7's keys in order.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "mj_json.h"

static json_t *parse(const char *quoted)
{
    char *text = strdup(quoted);
    for (char *c = text; *c; c++)
        if (*c == '\'')
            *c = '"';
    json_error_t error;
    json_t *value = json_loads(text, JSON_DECODE_ANY, &error);
    ck_assert_msg(value != NULL, "test JSON does not parse: %s in %s", error.text, quoted);
    free(text);
    return value;
}

START_TEST(test_every_tile_name_reads_back_as_its_kind)
{
    char msg[MJJ_MESSAGE_SIZE];
    for (int k = 0; k < MJ_KINDS; k++) {
        json_t *name = mjj_tile_to_json(k);
        int kind = -1;
        ck_assert_int_eq(mjj_parse_tile(name, "t", &kind, msg, sizeof msg), MJJ_OK);
        ck_assert_int_eq(kind, k);
        json_decref(name);
    }
}
END_TEST

START_TEST(test_a_tile_name_with_a_hidden_nul_is_refused)
{
    char msg[MJJ_MESSAGE_SIZE];
    json_t *name = json_stringn("5m\0x", 4);
    int kind;
    ck_assert_int_eq(mjj_parse_tile(name, "win_tile", &kind, msg, sizeof msg), MJJ_BAD_REQUEST);
    ck_assert_ptr_nonnull(strstr(msg, "win_tile"));
    json_decref(name);
}
END_TEST

START_TEST(test_left_out_options_are_the_defaults)
{
    char msg[MJJ_MESSAGE_SIZE];
    mj_options o;
    ck_assert_int_eq(mjj_parse_options(NULL, &o, msg, sizeof msg), MJJ_OK);
    ck_assert(!o.gua_da_feng && !o.wild_discard_penalty && !o.chan && !o.must_sit);
    ck_assert_int_eq(o.gold_kong_fan, 8);
    ck_assert_int_eq(o.max_pulls, 1);
    ck_assert_int_eq(o.no_replacement, MJ_NO_REPLACEMENT_DRAW);
    ck_assert_int_eq(o.base, 1);
    json_t *some = parse("{'gold_kong_fan':0,'max_pulls':2,'no_replacement':'skip_indicator','base':7,'chan':true}");
    ck_assert_int_eq(mjj_parse_options(some, &o, msg, sizeof msg), MJJ_OK);
    ck_assert_int_eq(o.gold_kong_fan, 0);
    ck_assert_int_eq(o.max_pulls, 2);
    ck_assert_int_eq(o.no_replacement, MJ_NO_REPLACEMENT_SKIP_INDICATOR);
    ck_assert_int_eq(o.base, 7);
    ck_assert(o.chan && !o.must_sit);
    json_decref(some);
}
END_TEST

START_TEST(test_a_score_document_reads_into_a_winning_hand)
{
    char msg[MJJ_MESSAGE_SIZE];
    json_t *doc = parse("{'mode':'score','game':'tianjin','concealed':['1m','1m','2m','3m','4m','6m','7m','8m','9m','N'],"
                        "'melds':[{'kind':'concealed_kong','tiles':['9s','9s','9s','9s']}],'indicator':'P',"
                        "'win_tile':'5m','kong_replacement':true,'first_draw':false,'dealer':true}");
    mj_options o;
    mj_winning_hand h;
    ck_assert_int_eq(mjj_parse_score_request(doc, &o, &h, msg, sizeof msg), MJJ_OK);
    ck_assert_int_eq(h.concealed.n[0], 2);
    ck_assert_int_eq(h.concealed.n[MJ_NORTH], 1);
    ck_assert_int_eq(h.n_melds, 1);
    ck_assert_int_eq(h.melds[0].kind, MJ_MELD_CONCEALED_KONG);
    ck_assert_int_eq(h.melds[0].tile, mj_kind_parse("9s"));
    ck_assert_int_eq(h.indicator, MJ_WHITE);
    ck_assert_int_eq(h.win_tile, MJ_5M);
    ck_assert(h.kong_replacement && !h.first_draw && h.dealer);
    json_decref(doc);
}
END_TEST

START_TEST(test_a_settle_document_reads_into_an_outcome)
{
    char msg[MJJ_MESSAGE_SIZE];
    json_t *doc = parse("{'mode':'settle','game':'tianjin','banker':3,'sat':false,'pulls':[0,0,0,0],'winner':null,"
                        "'fan':null,'kongs':[{'seat':0,'kind':'gold_kong'}],'chan':false,'wild_discards':[2,0]}");
    mj_options o;
    mj_outcome out;
    ck_assert_int_eq(mjj_parse_settle_request(doc, &o, &out, msg, sizeof msg), MJJ_OK);
    ck_assert_int_eq(out.banker, 3);
    ck_assert_int_eq(out.winner, -1);
    ck_assert_int_eq(out.fan, 0);
    ck_assert_int_eq(out.n_kongs, 1);
    ck_assert_int_eq(out.kongs[0].kind, MJ_KONG_GOLD);
    ck_assert_int_eq(out.n_wild_discards, 2);
    ck_assert_int_eq(out.wild_discards[0], 2);
    ck_assert_int_eq(out.wild_discards[1], 0);
    json_decref(doc);
}
END_TEST

START_TEST(test_engine_refusals_map_to_the_calculators_codes)
{
    ck_assert_int_eq(mjj_error_of_status(MJ_OK), MJJ_OK);
    ck_assert_int_eq(mjj_error_of_status(MJ_ERR_TOO_MANY_OF_A_KIND), MJJ_IMPOSSIBLE);
    ck_assert_int_eq(mjj_error_of_status(MJ_ERR_WINNER_DISCARDED_WILD), MJJ_IMPOSSIBLE);
    ck_assert_int_eq(mjj_error_of_status(MJ_ERR_NOT_A_WIN), MJJ_NOT_A_WIN);
    ck_assert_int_eq(mjj_error_of_status(MJ_ERR_UNDER_MINIMUM), MJJ_UNDER_MINIMUM);
    ck_assert_int_eq(mjj_error_of_status(MJ_ERR_BAD_INPUT), MJJ_BAD_REQUEST);
    ck_assert_str_eq(mjj_error_name(MJJ_NOT_A_WIN), "not_a_win");
    ck_assert_str_eq(mjj_error_name(MJJ_UNDER_MINIMUM), "under_minimum");
}
END_TEST

START_TEST(test_a_score_answer_has_fan_names_and_reading_in_that_order)
{
    mj_score score = {.fan = 6, .fans = MJ_FAN_BIT(MJ_FAN_ZHUO_WU) | MJ_FAN_BIT(MJ_FAN_SU), .n_groups = 2};
    score.groups[0] = (mj_group){MJ_GROUP_CHOW, MJ_4M, 0};
    score.groups[1] = (mj_group){MJ_GROUP_PAIR, MJ_NORTH, 0};
    json_t *answer = mjj_score_to_json(&score);
    char *text = json_dumps(answer, JSON_COMPACT | JSON_PRESERVE_ORDER);
    ck_assert_str_eq(text, "{\"fan\":6,\"names\":[\"素\",\"捉五\"],\"reading\":[[\"4m\",\"5m\",\"6m\"],[\"N\",\"N\"]]}");
    free(text);
    json_decref(answer);
}
END_TEST

static Suite *json_suite(void)
{
    Suite *s = suite_create("mj_json");
    TCase *tc = tcase_create("json");
    tcase_add_test(tc, test_every_tile_name_reads_back_as_its_kind);
    tcase_add_test(tc, test_a_tile_name_with_a_hidden_nul_is_refused);
    tcase_add_test(tc, test_left_out_options_are_the_defaults);
    tcase_add_test(tc, test_a_score_document_reads_into_a_winning_hand);
    tcase_add_test(tc, test_a_settle_document_reads_into_an_outcome);
    tcase_add_test(tc, test_engine_refusals_map_to_the_calculators_codes);
    tcase_add_test(tc, test_a_score_answer_has_fan_names_and_reading_in_that_order);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(json_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
