/*
 * Unit tests of the calculator's Tianjin modes (rules/tianjin-mahjong.md §7) through score_run_text,
 * as teahouse-score answers: both worked examples of §7 to the byte, every case of
 * tests/data/tianjin-worked.json, and every refusal with its code and precedence (bad_request,
 * impossible, not_a_win, under_minimum), key by key.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "score.h"

#define WORKED TEAHOUSE_SOURCE_ROOT "/tests/data/tianjin-worked.json"

/* §7's score example: 杠开素捉五龙, 28. */
static const char SCORE_DOC[] =
    "{'mode':'score','game':'tianjin','options':{},"
    "'concealed':['1m','2m','3m','4m','6m','7m','8m','9m','N','N'],"
    "'melds':[{'kind':'kong','tiles':['9s','9s','9s','9s']}],"
    "'indicator':'E','win_tile':'5m','kong_replacement':true,'first_draw':false,'dealer':false}";

/* §7's settle example. */
static const char SETTLE_DOC[] =
    "{'mode':'settle','game':'tianjin','options':{'max_pulls':2},"
    "'banker':0,'sat':true,'pulls':[0,2,0,1],'winner':2,'fan':6,"
    "'kongs':[{'seat':1,'kind':'kong'},{'seat':2,'kind':'concealed_kong'}],"
    "'chan':false,'wild_discards':[3]}";

/* The answer's text to a document written with ' for ". */
static char *answer_text(const char *quoted, bool *is_error)
{
    char *text = strdup(quoted);
    for (char *c = text; *c; c++)
        if (*c == '\'')
            *c = '"';
    char *out = score_run_text(text, strlen(text), is_error);
    ck_assert_ptr_nonnull(out);
    free(text);
    return out;
}

static json_t *answer_of(const char *quoted)
{
    bool is_error = false;
    char *out = answer_text(quoted, &is_error);
    json_t *answer = json_loads(out, 0, NULL);
    ck_assert_msg(answer != NULL, "the answer is not JSON: %s", out);
    ck_assert_int_eq(is_error, json_object_get(answer, "error") != NULL);
    free(out);
    return answer;
}

/* The base document with the first `from` replaced by `to` (both '-quoted fragments). */
static json_t *answer_with(const char *base, const char *from, const char *to)
{
    const char *at = strstr(base, from);
    ck_assert_msg(at != NULL, "test error: %s not in the document", from);
    char doc[2048];
    snprintf(doc, sizeof doc, "%.*s%s%s", (int)(at - base), base, to, at + strlen(from));
    return answer_of(doc);
}

/* The same with two fragments replaced. */
static json_t *answer_with2(const char *base, const char *from1, const char *to1, const char *from2, const char *to2)
{
    const char *at = strstr(base, from1);
    ck_assert_msg(at != NULL, "test error: %s not in the document", from1);
    char doc[2048];
    snprintf(doc, sizeof doc, "%.*s%s%s", (int)(at - base), base, to1, at + strlen(from1));
    return answer_with(doc, from2, to2);
}

static void assert_error(json_t *answer, const char *code, const char *named)
{
    char *text = json_dumps(answer, JSON_COMPACT);
    json_t *error = json_object_get(answer, "error");
    ck_assert_msg(error != NULL && json_object_size(answer) == 1, "expected error %s, got %s", code, text);
    ck_assert_msg(strcmp(json_string_value(json_object_get(error, "code")), code) == 0, "expected %s, got %s", code,
                  text);
    const char *message = json_string_value(json_object_get(error, "message"));
    ck_assert_msg(message != NULL && message[0] != '\0', "no message in %s", text);
    ck_assert_msg(named == NULL || strstr(message, named) != NULL, "message of %s does not name %s", text, named);
    free(text);
    json_decref(answer);
}

/* --- the two examples of §7, to the byte --- */

START_TEST(test_the_score_example_is_28_with_its_fans_and_a_reading)
{
    bool is_error = true;
    char *out = answer_text(SCORE_DOC, &is_error);
    ck_assert(!is_error);
    ck_assert_str_eq(out, "{\"fan\":28,\"names\":[\"素\",\"捉五\",\"杠开\",\"龙\"],\"reading\":[[\"1m\",\"2m\",\"3m\"],"
                          "[\"4m\",\"5m\",\"6m\"],[\"7m\",\"8m\",\"9m\"],[\"N\",\"N\"],[\"9s\",\"9s\",\"9s\",\"9s\"]]}");
    free(out);
}
END_TEST

START_TEST(test_the_settle_example_answers_exactly_as_written)
{
    bool is_error = true;
    char *out = answer_text(SETTLE_DOC, &is_error);
    ck_assert(!is_error);
    ck_assert_str_eq(out, "{\"payments\":["
                          "{\"from\":0,\"to\":2,\"units\":12,\"why\":\"self-drawn win (自摸)\"},"
                          "{\"from\":1,\"to\":2,\"units\":6,\"why\":\"self-drawn win (自摸)\"},"
                          "{\"from\":3,\"to\":2,\"units\":6,\"why\":\"self-drawn win (自摸)\"},"
                          "{\"from\":0,\"to\":1,\"units\":8,\"why\":\"exposed kong (明杠)\"},"
                          "{\"from\":2,\"to\":1,\"units\":1,\"why\":\"exposed kong (明杠)\"},"
                          "{\"from\":3,\"to\":1,\"units\":1,\"why\":\"exposed kong (明杠)\"},"
                          "{\"from\":0,\"to\":2,\"units\":4,\"why\":\"concealed kong (暗杠)\"},"
                          "{\"from\":1,\"to\":2,\"units\":2,\"why\":\"concealed kong (暗杠)\"},"
                          "{\"from\":3,\"to\":2,\"units\":2,\"why\":\"concealed kong (暗杠)\"}],"
                          "\"net\":[-24,2,31,-9],\"next_banker\":1,\"next_must_sit\":false}");
    free(out);
}
END_TEST

START_TEST(test_every_case_of_the_worked_file_gets_its_answer)
{
    json_error_t error;
    json_t *file = json_load_file(WORKED, 0, &error);
    ck_assert_msg(file != NULL, "%s: %s", WORKED, error.text);
    json_t *cases = json_object_get(file, "score");
    ck_assert_int_eq(json_array_size(cases), 26);
    size_t i;
    json_t *c;
    json_array_foreach (cases, i, c) {
        char *doc = json_dumps(json_object_get(c, "input"), JSON_COMPACT);
        bool is_error = true;
        char *out = score_run_text(doc, strlen(doc), &is_error);
        json_t *answer = json_loads(out, 0, NULL);
        ck_assert_msg(!is_error && json_integer_value(json_object_get(answer, "fan")) ==
                                       json_integer_value(json_object_get(c, "fan")),
                      "%s: expected %lld, got %s", json_string_value(json_object_get(c, "name")),
                      (long long)json_integer_value(json_object_get(c, "fan")), out);
        ck_assert_int_ge(json_array_size(json_object_get(answer, "names")), 1);
        ck_assert_int_eq(json_array_size(json_object_get(answer, "reading")), 5);
        json_decref(answer);
        free(out);
        free(doc);
    }
    cases = json_object_get(file, "settle");
    ck_assert_int_ge(json_array_size(cases), 1);
    json_array_foreach (cases, i, c) {
        char *doc = json_dumps(json_object_get(c, "input"), JSON_COMPACT);
        bool is_error = true;
        char *out = score_run_text(doc, strlen(doc), &is_error);
        json_t *answer = json_loads(out, 0, NULL);
        ck_assert_msg(!is_error && json_equal(json_object_get(answer, "net"), json_object_get(c, "net")) &&
                          json_equal(json_object_get(answer, "next_banker"), json_object_get(c, "next_banker")) &&
                          json_equal(json_object_get(answer, "next_must_sit"), json_object_get(c, "next_must_sit")),
                      "settle case %zu: got %s", i, out);
        json_decref(answer);
        free(out);
        free(doc);
    }
    json_decref(file);
}
END_TEST

START_TEST(test_options_left_out_are_the_defaults)
{
    json_t *a = answer_with(SCORE_DOC, "'options':{},", "");
    ck_assert_int_eq(json_integer_value(json_object_get(a, "fan")), 28);
    json_decref(a);
    a = answer_with(SETTLE_DOC, "'options':{'max_pulls':2},", "");
    assert_error(a, "bad_request", "pulls[1]"); /* 2 pulls are over the default max_pulls 1 */
}
END_TEST

START_TEST(test_options_score_mode_does_not_read_are_accepted_and_change_nothing)
{
    json_t *a = answer_with(SCORE_DOC, "'options':{}",
                            "'options':{'wild_discard_penalty':true,'chan':true,'must_sit':true,'max_pulls':2,"
                            "'no_replacement':'skip_indicator','base':100}");
    ck_assert_int_eq(json_integer_value(json_object_get(a, "fan")), 28);
    json_decref(a);
}
END_TEST

START_TEST(test_gua_da_feng_changes_the_score)
{ /* indicator C: 素 is 4 under 刮大风, so 杠开素捉五龙 is 4 × 2 × 7 = 56 */
    json_t *a = answer_with2(SCORE_DOC, "'options':{}", "'options':{'gua_da_feng':true}", "'indicator':'E'",
                             "'indicator':'C'");
    ck_assert_int_eq(json_integer_value(json_object_get(a, "fan")), 56);
    json_decref(a);
    /* indicator E: every wind is wild, N N too, and 5m with a wild N as the pair beats 捉五: 混儿吊龙杠开 16 */
    a = answer_with(SCORE_DOC, "'options':{}", "'options':{'gua_da_feng':true}");
    ck_assert_int_eq(json_integer_value(json_object_get(a, "fan")), 16);
    json_decref(a);
}
END_TEST

START_TEST(test_a_drawn_settle_has_no_fan)
{
    json_t *a = answer_with(SETTLE_DOC, "'winner':2,'fan':6", "'winner':null,'fan':null");
    /* the kongs alone: seat 1 +8+1+1, seat 2 +4+2+2, and the bank passes (only non-bankers made kongs) */
    char *text = json_dumps(json_object_get(a, "net"), JSON_COMPACT);
    ck_assert_str_eq(text, "[-12,8,7,-3]");
    ck_assert_int_eq(json_integer_value(json_object_get(a, "next_banker")), 1);
    free(text);
    json_decref(a);
}
END_TEST

START_TEST(test_base_multiplies_the_settle_answer)
{
    json_t *a = answer_with(SETTLE_DOC, "'options':{'max_pulls':2}", "'options':{'max_pulls':2,'base':3}");
    char *text = json_dumps(json_object_get(a, "net"), JSON_COMPACT);
    ck_assert_str_eq(text, "[-72,6,93,-27]");
    free(text);
    json_decref(a);
}
END_TEST

/* --- refusals: bad_request --- */

START_TEST(test_text_that_is_not_one_json_document_is_a_bad_request)
{
    bool is_error = false;
    char *out = score_run_text("{\"mode\":\"score\",\"game\":\"tianjin\"", 33, &is_error);
    ck_assert(is_error);
    ck_assert_ptr_nonnull(strstr(out, "\"bad_request\""));
    free(out);
}
END_TEST

START_TEST(test_a_repeated_key_is_a_bad_request)
{
    assert_error(answer_with(SCORE_DOC, "'dealer':false", "'dealer':false,'dealer':true"), "bad_request", NULL);
}
END_TEST

START_TEST(test_every_missing_score_key_is_a_bad_request_naming_it)
{
    static const char *const KEYS[] = {"'concealed':['1m','2m','3m','4m','6m','7m','8m','9m','N','N'],",
                                       "'melds':[{'kind':'kong','tiles':['9s','9s','9s','9s']}],",
                                       "'indicator':'E',", "'win_tile':'5m',", "'kong_replacement':true,",
                                       "'first_draw':false,"};
    static const char *const NAMES[] = {"concealed", "melds", "indicator", "win_tile", "kong_replacement",
                                        "first_draw"};
    for (size_t i = 0; i < sizeof KEYS / sizeof KEYS[0]; i++)
        assert_error(answer_with(SCORE_DOC, KEYS[i], ""), "bad_request", NAMES[i]);
    assert_error(answer_with(SCORE_DOC, ",'dealer':false", ""), "bad_request", "dealer");
    assert_error(answer_with(SCORE_DOC, "'mode':'score',", ""), "bad_request", "mode");
    /* without "game" the document is not Tianjin's: Tien Gow's rules refuse it */
    assert_error(answer_with(SCORE_DOC, "'game':'tianjin',", ""), "bad_request", NULL);
}
END_TEST

START_TEST(test_every_missing_settle_key_is_a_bad_request_naming_it)
{
    static const char *const KEYS[] = {"'banker':0,", "'sat':true,", "'pulls':[0,2,0,1],", "'winner':2,",
                                       "'fan':6,", "'chan':false,"};
    static const char *const NAMES[] = {"banker", "sat", "pulls", "winner", "fan", "chan"};
    for (size_t i = 0; i < sizeof KEYS / sizeof KEYS[0]; i++)
        assert_error(answer_with(SETTLE_DOC, KEYS[i], ""), "bad_request", NAMES[i]);
    assert_error(answer_with(SETTLE_DOC, ",'wild_discards':[3]", ""), "bad_request", "wild_discards");
    assert_error(answer_with(SETTLE_DOC, "'kongs':[{'seat':1,'kind':'kong'},{'seat':2,'kind':'concealed_kong'}],", ""),
                 "bad_request", "kongs");
}
END_TEST

START_TEST(test_an_unknown_key_anywhere_is_a_bad_request_naming_it)
{
    assert_error(answer_with(SCORE_DOC, "'dealer':false", "'dealer':false,'seat':2"), "bad_request", "seat");
    assert_error(answer_with(SCORE_DOC, "'kind':'kong',", "'kind':'kong','open':true,"), "bad_request", "open");
    assert_error(answer_with(SCORE_DOC, "'options':{}", "'options':{'flowers':true}"), "bad_request", "flowers");
    assert_error(answer_with(SETTLE_DOC, "'chan':false", "'chan':false,'dealer':0"), "bad_request", "dealer");
    assert_error(answer_with(SETTLE_DOC, "{'seat':1,'kind':'kong'}", "{'seat':1,'kind':'kong','tile':'5m'}"),
                 "bad_request", "tile");
    /* a settle key in a score document and the other way round */
    assert_error(answer_with(SCORE_DOC, "'dealer':false", "'dealer':false,'banker':0"), "bad_request", "banker");
    assert_error(answer_with(SETTLE_DOC, "'chan':false", "'chan':false,'win_tile':'5m'"), "bad_request", "win_tile");
}
END_TEST

START_TEST(test_wrong_json_types_are_bad_requests)
{
    static const struct {
        const char *from, *to, *named;
    } SCORE[] = {
        {"'mode':'score'", "'mode':1", "mode"},
        {"'options':{}", "'options':[]", "options"},
        {"'options':{}", "'options':null", "options"},
        {"'options':{}", "'options':{'gua_da_feng':1}", "gua_da_feng"},
        {"'options':{}", "'options':{'gold_kong_fan':'8'}", "gold_kong_fan"},
        {"'options':{}", "'options':{'base':2.0}", "base"},
        {"'options':{}", "'options':{'no_replacement':true}", "no_replacement"},
        {"'concealed':['1m','2m','3m','4m','6m','7m','8m','9m','N','N']", "'concealed':'1m'", "concealed"},
        {"'1m','2m','3m','4m'", "1,'2m','3m','4m'", "concealed[0]"},
        {"'melds':[{'kind':'kong','tiles':['9s','9s','9s','9s']}]", "'melds':{}", "melds"},
        {"{'kind':'kong'", "{'kind':3", "kind"},
        {"'tiles':['9s','9s','9s','9s']", "'tiles':'9s'", "tiles"},
        {"{'kind':'kong','tiles':['9s','9s','9s','9s']}", "['kong','9s']", "melds[0]"},
        {"'indicator':'E'", "'indicator':['E']", "indicator"},
        {"'win_tile':'5m'", "'win_tile':null", "win_tile"},
        {"'kong_replacement':true", "'kong_replacement':1", "kong_replacement"},
        {"'first_draw':false", "'first_draw':'false'", "first_draw"},
        {"'dealer':false", "'dealer':null", "dealer"},
    };
    for (size_t i = 0; i < sizeof SCORE / sizeof SCORE[0]; i++)
        assert_error(answer_with(SCORE_DOC, SCORE[i].from, SCORE[i].to), "bad_request", SCORE[i].named);
    static const struct {
        const char *from, *to, *named;
    } SETTLE[] = {
        {"'banker':0", "'banker':'0'", "banker"},
        {"'sat':true", "'sat':1", "sat"},
        {"'pulls':[0,2,0,1]", "'pulls':[0,2.0,0,1]", "pulls[1]"},
        {"'pulls':[0,2,0,1]", "'pulls':{}", "pulls"},
        {"'winner':2", "'winner':'2'", "winner"},
        {"'fan':6", "'fan':6.5", "fan"},
        {"'kongs':[{'seat':1,'kind':'kong'},{'seat':2,'kind':'concealed_kong'}]", "'kongs':{}", "kongs"},
        {"{'seat':1,'kind':'kong'}", "{'seat':true,'kind':'kong'}", "seat"},
        {"{'seat':1,'kind':'kong'}", "[1,'kong']", "kongs[0]"},
        {"'chan':false", "'chan':0", "chan"},
        {"'wild_discards':[3]", "'wild_discards':3", "wild_discards"},
        {"'wild_discards':[3]", "'wild_discards':['3']", "wild_discards[0]"},
    };
    for (size_t i = 0; i < sizeof SETTLE / sizeof SETTLE[0]; i++)
        assert_error(answer_with(SETTLE_DOC, SETTLE[i].from, SETTLE[i].to), "bad_request", SETTLE[i].named);
}
END_TEST

START_TEST(test_values_not_listed_or_out_of_range_are_bad_requests)
{
    static const struct {
        const char *from, *to, *named;
    } SCORE[] = {
        {"'mode':'score'", "'mode':'simulate'", "mode"},
        {"'options':{}", "'options':{'gold_kong_fan':5}", "gold_kong_fan"},
        {"'options':{}", "'options':{'max_pulls':3}", "max_pulls"},
        {"'options':{}", "'options':{'max_pulls':0}", "max_pulls"},
        {"'options':{}", "'options':{'base':0}", "base"},
        {"'options':{}", "'options':{'base':1000001}", "base"},
        {"'options':{}", "'options':{'no_replacement':'skip'}", "no_replacement"},
        {"'win_tile':'5m'", "'win_tile':'0m'", "win_tile"},
        {"'win_tile':'5m'", "'win_tile':'5M'", "win_tile"},
        {"'indicator':'E'", "'indicator':'中'", "indicator"},
        {"'1m','2m'", "'1m','Z'", "concealed[1]"},
        {"'kind':'kong'", "'kind':'chow'", "kind"},
        {"'tiles':['9s','9s','9s','9s']", "'tiles':['9s','9s','9s']", "tiles"},
        {"'tiles':['9s','9s','9s','9s']", "'tiles':['9s','9s','9s','9s','9s']", "tiles"},
        {"'tiles':['9s','9s','9s','9s']", "'tiles':['7s','8s','9s','9s']", "one kind"},
        {"'concealed':['1m',", "'concealed':['1m','1m',", "concealed has 11"},
        {"'concealed':['1m','2m','3m',", "'concealed':[", "concealed has 7"},
    };
    for (size_t i = 0; i < sizeof SCORE / sizeof SCORE[0]; i++)
        assert_error(answer_with(SCORE_DOC, SCORE[i].from, SCORE[i].to), "bad_request", SCORE[i].named);
    static const struct {
        const char *from, *to, *named;
    } SETTLE[] = {
        {"'banker':0", "'banker':4", "banker"},
        {"'pulls':[0,2,0,1]", "'pulls':[0,3,0,1]", "pulls[1]"},
        {"'pulls':[0,2,0,1]", "'pulls':[0,-1,0,1]", "pulls[1]"},
        {"'pulls':[0,2,0,1]", "'pulls':[0,2,0]", "pulls"},
        {"'winner':2", "'winner':4", "winner"},
        {"'fan':6", "'fan':1", "fan"},
        {"'fan':6", "'fan':1000001", "fan"},
        {"'fan':6", "'fan':null", "fan"},
        {"'winner':2", "'winner':null", "fan"},
        {"{'seat':1,'kind':'kong'}", "{'seat':1,'kind':'gold'}", "kind"},
        {"{'seat':1,'kind':'kong'}", "{'seat':-1,'kind':'kong'}", "seat"},
        {"'wild_discards':[3]", "'wild_discards':[3,1,3]", "twice"},
        {"'wild_discards':[3]", "'wild_discards':[4]", "wild_discards[0]"},
    };
    for (size_t i = 0; i < sizeof SETTLE / sizeof SETTLE[0]; i++)
        assert_error(answer_with(SETTLE_DOC, SETTLE[i].from, SETTLE[i].to), "bad_request", SETTLE[i].named);
}
END_TEST

START_TEST(test_more_than_four_melds_is_a_bad_request)
{
    assert_error(answer_with(SCORE_DOC, "'melds':[",
                             "'melds':[{'kind':'pung','tiles':['1p','1p','1p']},{'kind':'pung','tiles':['2p','2p','2p']},"
                             "{'kind':'pung','tiles':['3p','3p','3p']},{'kind':'pung','tiles':['4p','4p','4p']},"),
                 "bad_request", "melds");
}
END_TEST

START_TEST(test_a_tianjin_mode_of_another_game_is_a_bad_request)
{
    assert_error(answer_of("{'mode':'deal','game':'tianjin'}"), "bad_request", "mode");
    assert_error(answer_of("{'mode':'replay','game':'tianjin'}"), "bad_request", "seed"); /* Tianjin's own replay */
    assert_error(answer_of("{'game':'tianjin'}"), "bad_request", "mode");
    assert_error(answer_with(SCORE_DOC, "'game':'tianjin'", "'game':'Tianjin'"), "bad_request", NULL);
}
END_TEST

/* --- refusals: impossible, not_a_win, under_minimum --- */

START_TEST(test_hands_that_cannot_arise_are_impossible)
{
    /* five 9s with the kong */
    assert_error(answer_with(SCORE_DOC, "'N','N'],", "'9s','N'],"), "impossible", "9s");
    /* four of the indicator's kind: the fourth E is the indicator itself */
    assert_error(answer_with(SCORE_DOC, "'1m','2m','3m','4m'", "'E','E','E','E'"), "impossible", "indicator");
    /* an exposed kong or pung of a wild kind */
    const char *kong = "{'kind':'kong','tiles':['9s','9s','9s','9s']}";
    assert_error(answer_with(SCORE_DOC, kong, "{'kind':'kong','tiles':['S','S','S','S']}"), "impossible", "wild");
    assert_error(answer_with(SCORE_DOC, kong, "{'kind':'pung','tiles':['S','S','S']}"), "impossible", NULL);
    /* a kong replacement with a pung only */
    assert_error(answer_with(SCORE_DOC, kong, "{'kind':'pung','tiles':['9s','9s','9s']}"), "impossible", "kong");
    /* a first-draw win with a meld */
    assert_error(answer_with(SCORE_DOC, "'first_draw':false", "'first_draw':true"), "impossible", "first draw");
}
END_TEST

START_TEST(test_a_gold_kong_counts_unless_gold_kong_fan_is_0)
{
    const char *kong = "{'kind':'kong','tiles':['9s','9s','9s','9s']}";
    const char *gold = "{'kind':'concealed_kong','tiles':['S','S','S','S']}";
    json_t *a = answer_with(SCORE_DOC, kong, gold);
    ck_assert_int_eq(json_integer_value(json_object_get(a, "fan")), 14); /* 杠开捉五龙: a 金杠 hand is not 素 */
    json_decref(a);
    a = answer_with2(SCORE_DOC, kong, gold, "'options':{}", "'options':{'gold_kong_fan':0}");
    assert_error(a, "impossible", "金杠");
    /* a pung of four tiles is no meld at all */
    assert_error(answer_with(SCORE_DOC, "{'kind':'kong',", "{'kind':'pung',"), "bad_request", "pung");
}
END_TEST

START_TEST(test_tiles_that_are_not_four_sets_and_a_pair_are_not_a_win)
{
    assert_error(answer_with(SCORE_DOC, "'win_tile':'5m'", "'win_tile':'5p'"), "not_a_win", NULL);
}
END_TEST

START_TEST(test_a_win_without_fan_is_under_the_minimum)
{ /* E stands for 2m, N pairs with N: no 素, no other fan */
    assert_error(answer_of("{'mode':'score','game':'tianjin','concealed':['1m','E','3m','4p','5p','6p','7s','8s','9s',"
                           "'2m','3m','4m','N'],'melds':[],'indicator':'E','win_tile':'N','kong_replacement':false,"
                           "'first_draw':false,'dealer':false}"),
                 "under_minimum", "2 fan");
}
END_TEST

START_TEST(test_gua_da_feng_refuses_a_bare_hun_diao)
{
    const char *doc = "{'mode':'score','game':'tianjin','options':{'gua_da_feng':true},'concealed':['1m','2m','3m',"
                      "'4p','5p','6p','7s','8s','9s','2m','3m','4m','E'],'melds':[],'indicator':'C','win_tile':'W',"
                      "'kong_replacement':false,'first_draw':false,'dealer':false}";
    /* C under 刮大风: P C F wild, E and W natural: not a win. With indicator W every wind is wild: 混儿吊 alone */
    assert_error(answer_of(doc), "not_a_win", NULL);
    assert_error(answer_with(doc, "'indicator':'C'", "'indicator':'N'"), "under_minimum", "混儿吊");
    json_t *a = answer_with(doc, "'options':{'gua_da_feng':true}", "'options':{}");
    assert_error(a, "not_a_win", NULL);
}
END_TEST

START_TEST(test_settle_outcomes_that_cannot_arise_are_impossible)
{
    static const struct {
        const char *from, *to, *named;
    } CASES[] = {
        {"'pulls':[0,2,0,1]", "'pulls':[1,2,0,1]", "non-banker"},
        {"'sat':true", "'sat':false", "sat"},
        {"'chan':false", "'chan':true", "铲"},
        {"'wild_discards':[3]", "'wild_discards':[3,2]", "discarded a wild"},
        {"{'seat':1,'kind':'kong'}", "{'seat':1,'kind':'kong'},{'seat':1,'kind':'kong'},{'seat':1,'kind':'kong'},"
                                     "{'seat':1,'kind':'kong'},{'seat':1,'kind':'kong'}", "at most four"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
        assert_error(answer_with(SETTLE_DOC, CASES[i].from, CASES[i].to), "impossible", CASES[i].named);
    assert_error(answer_with(SETTLE_DOC, "'options':{'max_pulls':2},'banker':0,'sat':true",
                             "'options':{'max_pulls':2,'must_sit':true},'banker':0,'sat':false"),
                 "impossible", NULL);
    assert_error(answer_with2(SETTLE_DOC, "'options':{'max_pulls':2}", "'options':{'max_pulls':2,'gold_kong_fan':0}",
                              "{'seat':1,'kind':'kong'}", "{'seat':1,'kind':'gold_kong'}"),
                 "impossible", "金杠");
}
END_TEST

START_TEST(test_a_long_list_of_kongs_is_impossible_only_once_its_shape_is_right)
{
    char kongs[2048] = "'kongs':[";
    for (int i = 0; i < 20; i++)
        strcat(kongs, i == 0 ? "{'seat':1,'kind':'kong'}" : ",{'seat':1,'kind':'kong'}");
    strcat(kongs, "],");
    const char *from = "'kongs':[{'seat':1,'kind':'kong'},{'seat':2,'kind':'concealed_kong'}],";
    assert_error(answer_with(SETTLE_DOC, from, kongs), "impossible", "kongs");
    assert_error(answer_with2(SETTLE_DOC, from, kongs, "'chan':false", "'chan':1"), "bad_request", "chan");
}
END_TEST

/* --- precedence --- */

START_TEST(test_a_shape_error_comes_before_an_impossible_hand)
{ /* five 9s, and an unknown tile at the very end */
    const char *doc = "{'mode':'score','game':'tianjin','concealed':['1m','2m','3m','4m','6m','7m','8m','9m','9s','N'],"
                      "'melds':[{'kind':'kong','tiles':['9s','9s','9s','9s']}],'indicator':'E','win_tile':'5m',"
                      "'kong_replacement':true,'first_draw':false,'dealer':false}";
    assert_error(answer_of(doc), "impossible", NULL);
    assert_error(answer_with(doc, "'dealer':false", "'dealer':0"), "bad_request", "dealer");
    assert_error(answer_with(doc, "'indicator':'E'", "'indicator':'X'"), "bad_request", "indicator");
}
END_TEST

START_TEST(test_an_impossible_hand_comes_before_not_a_win)
{ /* not a win either way, but five 9s */
    assert_error(answer_with(SCORE_DOC, "'N','N'],", "'9s','C'],"), "impossible", NULL);
}
END_TEST

START_TEST(test_an_impossible_outcome_comes_after_every_shape_error)
{
    assert_error(answer_with(SETTLE_DOC, "'chan':false,'wild_discards':[3]", "'chan':true,'wild_discards':[3,3]"),
                 "bad_request", "twice");
}
END_TEST

START_TEST(test_tien_gow_documents_are_still_tien_gows)
{
    json_t *a = answer_of("{'mode':'settle','game':'tiengow','banker':0,'multiplier':2,'stacks':[1,4,0,3],"
                          "'winner':3,'endings':[],'qin':null}");
    ck_assert_ptr_nonnull(json_object_get(a, "net"));
    json_decref(a);
    assert_error(answer_of("{'mode':'score','game':'tiengow'}"), "bad_request", "mode");
    assert_error(answer_of("{'mode':'settle','game':'mahjong','banker':0,'multiplier':2,'stacks':[1,4,0,3],"
                           "'winner':3,'endings':[],'qin':null}"),
                 "bad_request", "tianjin");
}
END_TEST

static Suite *mj_score_suite(void)
{
    Suite *s = suite_create("mj_score");
    TCase *examples = tcase_create("examples");
    tcase_add_test(examples, test_the_score_example_is_28_with_its_fans_and_a_reading);
    tcase_add_test(examples, test_the_settle_example_answers_exactly_as_written);
    tcase_add_test(examples, test_every_case_of_the_worked_file_gets_its_answer);
    tcase_add_test(examples, test_options_left_out_are_the_defaults);
    tcase_add_test(examples, test_options_score_mode_does_not_read_are_accepted_and_change_nothing);
    tcase_add_test(examples, test_gua_da_feng_changes_the_score);
    tcase_add_test(examples, test_a_drawn_settle_has_no_fan);
    tcase_add_test(examples, test_base_multiplies_the_settle_answer);
    suite_add_tcase(s, examples);
    TCase *shape = tcase_create("bad requests");
    tcase_add_test(shape, test_text_that_is_not_one_json_document_is_a_bad_request);
    tcase_add_test(shape, test_a_repeated_key_is_a_bad_request);
    tcase_add_test(shape, test_every_missing_score_key_is_a_bad_request_naming_it);
    tcase_add_test(shape, test_every_missing_settle_key_is_a_bad_request_naming_it);
    tcase_add_test(shape, test_an_unknown_key_anywhere_is_a_bad_request_naming_it);
    tcase_add_test(shape, test_wrong_json_types_are_bad_requests);
    tcase_add_test(shape, test_values_not_listed_or_out_of_range_are_bad_requests);
    tcase_add_test(shape, test_more_than_four_melds_is_a_bad_request);
    tcase_add_test(shape, test_a_tianjin_mode_of_another_game_is_a_bad_request);
    suite_add_tcase(s, shape);
    TCase *rules = tcase_create("rule refusals");
    tcase_add_test(rules, test_hands_that_cannot_arise_are_impossible);
    tcase_add_test(rules, test_a_gold_kong_counts_unless_gold_kong_fan_is_0);
    tcase_add_test(rules, test_tiles_that_are_not_four_sets_and_a_pair_are_not_a_win);
    tcase_add_test(rules, test_a_win_without_fan_is_under_the_minimum);
    tcase_add_test(rules, test_gua_da_feng_refuses_a_bare_hun_diao);
    tcase_add_test(rules, test_settle_outcomes_that_cannot_arise_are_impossible);
    tcase_add_test(rules, test_a_long_list_of_kongs_is_impossible_only_once_its_shape_is_right);
    suite_add_tcase(s, rules);
    TCase *order = tcase_create("precedence");
    tcase_add_test(order, test_a_shape_error_comes_before_an_impossible_hand);
    tcase_add_test(order, test_an_impossible_hand_comes_before_not_a_win);
    tcase_add_test(order, test_an_impossible_outcome_comes_after_every_shape_error);
    tcase_add_test(order, test_tien_gow_documents_are_still_tien_gows);
    suite_add_tcase(s, order);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(mj_score_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
