/*
 * Unit tests of score, the calculator of rules/tiengow.md §8: the worked examples A-G of §4 in
 * settle mode, the replay example of the rules page, hand-built replays (a natural hand, 四大包
 * with 八支, 擒), and every refusal of §8 with its code and precedence. Every expected amount is
 * worked out by hand from §3-§6; the comment beside it shows the arithmetic.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "score.h"
#include "tg_status.h"

#define REPLAY_EXAMPLE TEAHOUSE_SOURCE_ROOT "/tests/data/tiengow-replay.json"

/* JSON written with ' for ", so documents in tests stay readable. */
static json_t *parse_quoted(const char *quoted)
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

/* The answer to a document given as text, checked to be JSON and flagged consistently. */
static json_t *answer_of_text(const char *text)
{
    bool is_error = false;
    char *out = score_run_text(text, strlen(text), &is_error);
    ck_assert_ptr_nonnull(out);
    json_t *answer = json_loads(out, 0, NULL);
    ck_assert_msg(answer != NULL, "the answer is not JSON: %s", out);
    ck_assert_int_eq(is_error, json_object_get(answer, "error") != NULL);
    free(out);
    return answer;
}

static json_t *answer_of_quoted(const char *quoted)
{
    char *text = strdup(quoted);
    for (char *c = text; *c; c++)
        if (*c == '\'')
            *c = '"';
    json_t *answer = answer_of_text(text);
    free(text);
    return answer;
}

/* A settle document of §8 ('…' JSON fragments for options, stacks, endings and qin). */
static json_t *settle(const char *options, int banker, int multiplier, const char *stacks, int winner,
                      const char *endings, const char *qin)
{
    char doc[1024];
    snprintf(doc, sizeof doc,
             "{'mode':'settle','game':'tiengow','options':%s,'banker':%d,'multiplier':%d,'stacks':%s,"
             "'winner':%d,'endings':%s,'qin':%s}",
             options, banker, multiplier, stacks, winner, endings, qin);
    return answer_of_quoted(doc);
}

static void assert_error(json_t *answer, const char *code)
{
    json_t *error = json_object_get(answer, "error");
    char *text = json_dumps(answer, JSON_COMPACT);
    ck_assert_msg(error != NULL, "expected error %s, got %s", code, text);
    ck_assert_msg(strcmp(json_string_value(json_object_get(error, "code")), code) == 0, "expected %s, got %s", code,
                  text);
    const char *message = json_string_value(json_object_get(error, "message"));
    ck_assert_msg(message != NULL && message[0] != '\0', "no message in %s", text);
    free(text);
}

static const char *error_message(json_t *answer)
{
    return json_string_value(json_object_get(json_object_get(answer, "error"), "message"));
}

static void assert_error_names(json_t *answer, const char *code, const char *part1, const char *part2)
{
    assert_error(answer, code);
    const char *message = error_message(answer);
    ck_assert_msg(strstr(message, part1) != NULL, "message '%s' does not name %s", message, part1);
    ck_assert_msg(part2 == NULL || strstr(message, part2) != NULL, "message '%s' does not name %s", message, part2);
}

/* Compares a key of the answer with expected JSON ('-quoted). */
static void assert_key(json_t *answer, const char *key, const char *quoted_expected)
{
    json_t *expected = parse_quoted(quoted_expected);
    json_t *actual = json_object_get(answer, key);
    char *text = json_dumps(answer, JSON_COMPACT);
    ck_assert_msg(actual != NULL && json_equal(actual, expected), "%s: expected %s in %s", key, quoted_expected, text);
    free(text);
    json_decref(expected);
}

/* Payments as [from,to,units] triples: `why` is free text in §8. */
static void assert_payments(json_t *answer, const char *quoted_triples)
{
    json_t *expected = parse_quoted(quoted_triples);
    json_t *payments = json_object_get(answer, "payments");
    char *text = json_dumps(answer, JSON_COMPACT);
    ck_assert_msg(json_array_size(payments) == json_array_size(expected), "payments: expected %s in %s",
                  quoted_triples, text);
    for (size_t i = 0; i < json_array_size(payments); i++) {
        json_t *p = json_array_get(payments, i), *e = json_array_get(expected, i);
        ck_assert_msg(json_integer_value(json_object_get(p, "from")) == json_integer_value(json_array_get(e, 0)) &&
                          json_integer_value(json_object_get(p, "to")) == json_integer_value(json_array_get(e, 1)) &&
                          json_integer_value(json_object_get(p, "units")) == json_integer_value(json_array_get(e, 2)),
                      "payment %zu: expected %s in %s", i, quoted_triples, text);
        ck_assert(json_is_string(json_object_get(p, "why")));
    }
    free(text);
    json_decref(expected);
}

/* --- settle mode: the worked examples of §4 --- */

START_TEST(test_example_a_banker_east_pays_six_west_five_north_wins_eleven)
{
    /* East 1 stack: (4-1) x m2 = 6; South 4: 0; West 0: 4+1 = 5. */
    json_t *a = settle("{}", 0, 2, "[1,4,0,3]", 3, "[]", "null");
    assert_key(a, "net", "[-6,0,-5,11]");
    assert_payments(a, "[[0,3,6],[2,3,5]]");
    json_decref(a);
}
END_TEST

START_TEST(test_example_a_without_options_key_uses_the_defaults)
{
    json_t *a = answer_of_quoted("{'mode':'settle','game':'tiengow','banker':0,'multiplier':2,'stacks':[1,4,0,3],"
                                 "'winner':3,'endings':[],'qin':null}");
    assert_key(a, "net", "[-6,0,-5,11]");
    json_decref(a);
}
END_TEST

START_TEST(test_example_b_south_with_five_stacks_is_paid_one)
{
    /* South 5 stacks: 入一, North pays South 1; payments stay in the losers' seat order. */
    json_t *a = settle("{}", 0, 2, "[1,5,0,2]", 3, "[]", "null");
    assert_key(a, "net", "[-6,1,-5,10]");
    assert_payments(a, "[[0,3,6],[3,1,1],[2,3,5]]");
    json_decref(a);
}
END_TEST

START_TEST(test_example_c_winning_banker_collects_times_four)
{
    /* A banks (m 4) and wins: B 5 -> A pays 1x4; C 1 -> 3x4 = 12; D 0 -> 5x4 = 20. */
    json_t *a = settle("{}", 0, 4, "[2,5,1,0]", 0, "[]", "null");
    assert_key(a, "net", "[28,4,-12,-20]");
    assert_payments(a, "[[0,1,4],[2,0,12],[3,0,20]]");
    json_decref(a);
}
END_TEST

START_TEST(test_example_d_losing_banker_pays_times_five)
{
    /* A banks (m 5), B wins: A 2 -> 2x5 = 10; C 4 -> 0; D 0 -> 5. */
    json_t *a = settle("{}", 0, 5, "[2,2,4,0]", 1, "[]", "null");
    assert_key(a, "net", "[-10,15,0,-5]");
    assert_payments(a, "[[0,1,10],[3,1,5]]");
    json_decref(a);
}
END_TEST

START_TEST(test_example_e_eight_stacks_multiply_by_four)
{
    /* 八支 x4, B banks (m 2): A 5x4 = 20, B 5x2x4 = 40, C 20. */
    json_t *a = settle("{}", 1, 2, "[0,0,0,8]", 3, "['eight']", "null");
    assert_key(a, "net", "[-20,-40,-20,80]");
    assert_payments(a, "[[0,3,20],[1,3,40],[2,3,20]]");
    json_decref(a);
}
END_TEST

START_TEST(test_example_f_losing_bankers_refund_is_not_multiplied)
{
    /* East banks (m 3) with 5 stacks: South pays East 1, not 3; West 3; North 5. */
    json_t *a = settle("{}", 0, 3, "[5,2,1,0]", 1, "[]", "null");
    assert_key(a, "net", "[1,7,-3,-5]");
    assert_payments(a, "[[1,0,1],[2,1,3],[3,1,5]]");
    json_decref(a);
}
END_TEST

START_TEST(test_example_g_captured_leader_pays_for_all)
{
    /* 擒: a(East) = 2x2, a(South) = 2, a(West) = 3; South pays (4+2+3) x 4 = 36. */
    json_t *a = settle("{}", 0, 2, "[2,2,1,3]", 3, "[]", "{'captured':1}");
    assert_key(a, "net", "[0,-36,0,36]");
    assert_payments(a, "[[1,3,36]]");
    json_decref(a);
}
END_TEST

START_TEST(test_example_g_without_qin_pays_all_each_loser_pays_its_own)
{
    /* East 4x4 = 16, South 2x4 = 8, West 3x4 = 12; North +36 either way. */
    json_t *a = settle("{'qin_pays_all':false}", 0, 2, "[2,2,1,3]", 3, "[]", "{'captured':1}");
    assert_key(a, "net", "[-16,-8,-12,36]");
    assert_payments(a, "[[0,3,16],[1,3,8],[2,3,12]]");
    json_decref(a);
}
END_TEST

START_TEST(test_example_g_with_qin_multiplier_two_costs_half)
{
    json_t *a = settle("{'qin_multiplier':2}", 0, 2, "[2,2,1,3]", 3, "[]", "{'captured':1}");
    assert_key(a, "net", "[0,-18,0,18]");
    json_decref(a);
}
END_TEST

START_TEST(test_qin_nets_a_refund_into_the_captured_leaders_sum)
{
    /* East banks (m 2) with 5 stacks: a(East) = -1 (a losing banker's 入一 is not multiplied),
     * a(South) = 3, a(West) = 5: South pays (−1+3+5) x 4 = 28. */
    json_t *a = settle("{}", 0, 2, "[5,1,0,2]", 3, "[]", "{'captured':1}");
    assert_key(a, "net", "[0,-28,0,28]");
    assert_payments(a, "[[1,3,28]]");
    json_decref(a);
    /* Each on its own: North refunds East 1x4 = 4; South 12; West 20. */
    a = settle("{'qin_pays_all':false}", 0, 2, "[5,1,0,2]", 3, "[]", "{'captured':1}");
    assert_key(a, "net", "[4,-12,-20,28]");
    assert_payments(a, "[[3,0,4],[1,3,12],[2,3,20]]");
    json_decref(a);
}
END_TEST

START_TEST(test_endings_multiply_every_loser_refunds_included)
{
    /* Example B with 包尊 x2: East 12, North refunds South 2, West 10. */
    json_t *a = settle("{}", 0, 2, "[1,5,0,2]", 3, "['zun']", "null");
    assert_key(a, "net", "[-12,2,-10,20]");
    json_decref(a);
    /* Example A with 么結 x2. */
    a = settle("{}", 0, 2, "[1,4,0,3]", 3, "['yao']", "null");
    assert_key(a, "net", "[-12,0,-10,22]");
    json_decref(a);
    /* Example E with 四大包 too: x4 x4 = x16: A 80, B (banker) 160, C 80. */
    a = settle("{}", 1, 2, "[0,0,0,8]", 3, "['quartet','eight']", "null");
    assert_key(a, "net", "[-80,-160,-80,320]");
    json_decref(a);
    /* 七支 x2 with the winner banking (m 3): each 5 x 3 x 2 = 30. */
    a = settle("{}", 2, 3, "[0,0,8,0]", 2, "['seven']", "null");
    assert_key(a, "net", "[-30,-30,90,-30]");
    json_decref(a);
}
END_TEST

START_TEST(test_the_stake_multiplies_every_settled_amount)
{
    json_t *a = settle("{'stake':3}", 0, 2, "[1,4,0,3]", 3, "[]", "null");
    assert_key(a, "net", "[-18,0,-15,33]");
    assert_payments(a, "[[0,3,18],[2,3,15]]");
    json_decref(a);
}
END_TEST

START_TEST(test_the_largest_amounts_do_not_overflow)
{
    /* Stake and multiplier at their caps, 八支 with 四大包, winner banking: 5 x 10^6 x 16 x 10^6. */
    json_t *a = settle("{'stake':1000000}", 3, 1000000, "[0,0,0,8]", 3, "['eight','quartet']", "null");
    assert_key(a, "net", "[-80000000000000,-80000000000000,-80000000000000,240000000000000]");
    json_decref(a);
}
END_TEST

START_TEST(test_settle_answers_have_payments_then_net_only)
{
    json_t *a = settle("{}", 0, 2, "[1,4,0,3]", 3, "[]", "null");
    ck_assert_int_eq(json_object_size(a), 2);
    void *first = json_object_iter(a);
    ck_assert_str_eq(json_object_iter_key(first), "payments");
    ck_assert_str_eq(json_object_iter_key(json_object_iter_next(a, first)), "net");
    json_decref(a);
}
END_TEST

/* --- settle mode: what cannot arise --- */

START_TEST(test_settle_outcomes_that_cannot_arise_are_impossible)
{
    static const struct {
        int banker, winner;
        const char *stacks, *endings, *qin;
    } CASES[] = {
        {0, 3, "[2,4,0,3]", "[]", "null"},                /* stacks sum to 9 */
        {0, 3, "[1,4,0,2]", "[]", "null"},                /* stacks sum to 7 */
        {0, 3, "[1,4,2,1]", "[]", "null"},                /* a winner under 2 stacks */
        {0, 3, "[0,0,0,8]", "['eight','seven']", "null"}, /* both eight and seven */
        {0, 3, "[1,4,0,3]", "['eight']", "null"},         /* eight without all 8 stacks */
        {0, 3, "[1,4,0,3]", "['seven']", "null"},
        {0, 3, "[1,4,0,3]", "['yao','zun']", "null"},     /* two final-trick endings */
        {0, 3, "[1,4,0,3]", "['zun','quartet']", "null"},
        {0, 3, "[1,4,0,3]", "['yao','quartet']", "null"},
        {0, 3, "[2,2,1,3]", "['yao']", "{'captured':1}"}, /* qin with another ending */
        {0, 3, "[2,2,1,3]", "[]", "{'captured':3}"},      /* the captured leader is the winner */
        {0, 3, "[1,4,0,3]", "[]", "{'captured':2}"},      /* the captured leader has no stack */
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        json_t *a = settle("{}", CASES[i].banker, 2, CASES[i].stacks, CASES[i].winner, CASES[i].endings, CASES[i].qin);
        char *text = json_dumps(a, JSON_COMPACT);
        ck_assert_msg(json_object_get(a, "error") != NULL, "case %zu answered %s", i, text);
        ck_assert_msg(strcmp(json_string_value(json_object_get(json_object_get(a, "error"), "code")), "impossible") ==
                          0,
                      "case %zu: %s", i, text);
        free(text);
        json_decref(a);
    }
}
END_TEST

/* --- bad requests --- */

static const char *const SETTLE_A =
    "{'mode':'settle','game':'tiengow','options':{},'banker':0,'multiplier':2,'stacks':[1,4,0,3],"
    "'winner':3,'endings':[],'qin':null}";

/* SETTLE_A with one piece of its text replaced. */
static json_t *settle_a_with(const char *from, const char *to)
{
    char doc[1024];
    const char *at = strstr(SETTLE_A, from);
    ck_assert_ptr_nonnull(at);
    snprintf(doc, sizeof doc, "%.*s%s%s", (int)(at - SETTLE_A), SETTLE_A, to, at + strlen(from));
    return answer_of_quoted(doc);
}

START_TEST(test_text_that_is_not_json_is_a_bad_request)
{
    const char *texts[] = {"", "nope", "{", "{\"mode\":\"settle\",}", "[1,2", "{} {}", "\"settle\"", "42"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        json_t *a = answer_of_text(texts[i]);
        assert_error(a, "bad_request");
        json_decref(a);
    }
    json_t *a = answer_of_quoted("[]");
    assert_error_names(a, "bad_request", "object", NULL);
    json_decref(a);
}
END_TEST

START_TEST(test_a_repeated_key_is_a_bad_request)
{
    json_t *a = answer_of_quoted("{'mode':'settle','mode':'replay','game':'tiengow','banker':0,'multiplier':2,"
                                 "'stacks':[1,4,0,3],'winner':3,'endings':[],'qin':null}");
    assert_error(a, "bad_request");
    json_decref(a);
}
END_TEST

START_TEST(test_a_missing_key_is_a_bad_request_naming_it)
{
    static const char *const KEYS[] = {"'mode':'settle',", "'game':'tiengow',", "'banker':0,", "'multiplier':2,",
                                       "'stacks':[1,4,0,3],", "'winner':3,", "'endings':[],", ",'qin':null"};
    static const char *const NAMES[] = {"mode", "game", "banker", "multiplier", "stacks", "winner", "endings", "qin"};
    for (size_t i = 0; i < sizeof KEYS / sizeof KEYS[0]; i++) {
        json_t *a = settle_a_with(KEYS[i], "");
        assert_error_names(a, "bad_request", NAMES[i], NULL);
        json_decref(a);
    }
}
END_TEST

START_TEST(test_an_unknown_top_level_key_is_a_bad_request_naming_it)
{
    json_t *a = settle_a_with("'qin':null", "'qin':null,'comment':'x'");
    assert_error_names(a, "bad_request", "comment", NULL);
    json_decref(a);
    /* A key of the other mode is unknown too. */
    a = settle_a_with("'qin':null", "'qin':null,'actions':[]");
    assert_error_names(a, "bad_request", "actions", NULL);
    json_decref(a);
}
END_TEST

START_TEST(test_an_unknown_option_is_a_bad_request_naming_it)
{
    json_t *a = settle_a_with("'options':{}", "'options':{'wenzun':true}");
    assert_error_names(a, "bad_request", "wenzun", NULL);
    json_decref(a);
}
END_TEST

START_TEST(test_wrong_json_types_are_bad_requests)
{
    static const struct {
        const char *from, *to, *named;
    } CASES[] = {
        {"'mode':'settle'", "'mode':1", "mode"},
        {"'game':'tiengow'", "'game':true", "game"},
        {"'options':{}", "'options':[]", "options"},
        {"'options':{}", "'options':null", "options"},
        {"'options':{}", "'options':{'wen_zun':'yes'}", "wen_zun"},
        {"'options':{}", "'options':{'stake':'2'}", "stake"},
        {"'banker':0", "'banker':'0'", "banker"},
        {"'multiplier':2", "'multiplier':2.0", "multiplier"},
        {"'stacks':[1,4,0,3]", "'stacks':'1,4,0,3'", "stacks"},
        {"'stacks':[1,4,0,3]", "'stacks':[1,4,0,true]", "stacks"},
        {"'winner':3", "'winner':null", "winner"},
        {"'endings':[]", "'endings':'eight'", "endings"},
        {"'endings':[]", "'endings':[8]", "endings"},
        {"'qin':null", "'qin':1", "qin"},
        {"'qin':null", "'qin':{'captured':'1'}", "captured"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        json_t *a = settle_a_with(CASES[i].from, CASES[i].to);
        assert_error_names(a, "bad_request", CASES[i].named, NULL);
        json_decref(a);
    }
}
END_TEST

START_TEST(test_values_not_listed_or_out_of_range_are_bad_requests)
{
    static const struct {
        const char *from, *to, *named;
    } CASES[] = {
        {"'mode':'settle'", "'mode':'score'", "mode"},
        {"'game':'tiengow'", "'game':'mahjong'", "game"},
        {"'banker':0", "'banker':4", "banker"},
        {"'banker':0", "'banker':-1", "banker"},
        {"'multiplier':2", "'multiplier':1", "multiplier"},
        {"'multiplier':2", "'multiplier':1000001", "multiplier"},
        {"'winner':3", "'winner':4", "winner"},
        {"'options':{}", "'options':{'rotation':'left'}", "rotation"},
        {"'options':{}", "'options':{'qin_multiplier':8}", "qin_multiplier"},
        {"'options':{}", "'options':{'quartet_bonus':'all'}", "quartet_bonus"},
        {"'options':{}", "'options':{'stake':0}", "stake"},
        {"'options':{}", "'options':{'stake':1000001}", "stake"},
        {"'endings':[]", "'endings':['eight','eight']", "eight"},     /* duplicate ending names */
        {"'endings':[]", "'endings':['qin']", "endings"},             /* not a settle ending */
        {"'endings':[]", "'endings':['natural']", "endings"},
        {"'qin':null", "'qin':{'captured':4}", "captured"},
        {"'qin':null", "'qin':{'captured':1,'by':3}", "qin"},        /* unknown key in qin */
        {"'qin':null", "'qin':{}", "qin"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        json_t *a = settle_a_with(CASES[i].from, CASES[i].to);
        assert_error_names(a, "bad_request", CASES[i].named, NULL);
        json_decref(a);
    }
}
END_TEST

START_TEST(test_stacks_not_four_integers_zero_to_eight_are_bad_requests)
{
    const char *stacks[] = {"'stacks':[1,4,3]", "'stacks':[1,4,0,3,0]", "'stacks':[9,0,0,0]", "'stacks':[-1,5,0,4]",
                            "'stacks':[]"};
    for (size_t i = 0; i < sizeof stacks / sizeof stacks[0]; i++) {
        json_t *a = settle_a_with("'stacks':[1,4,0,3]", stacks[i]);
        assert_error_names(a, "bad_request", "stacks", NULL);
        json_decref(a);
    }
}
END_TEST

START_TEST(test_a_shape_error_comes_before_an_impossible_outcome)
{
    /* Stacks summing to 9 are impossible, but the unknown option is found first. */
    json_t *a = settle("{'speed':1}", 0, 2, "[2,4,0,3]", 3, "[]", "null");
    assert_error(a, "bad_request");
    json_decref(a);
}
END_TEST

/* --- replay mode --- */

static json_t *load_example(void)
{
    json_error_t error;
    json_t *example = json_load_file(REPLAY_EXAMPLE, JSON_REJECT_DUPLICATES, &error);
    ck_assert_msg(example != NULL, "%s: %s", REPLAY_EXAMPLE, error.text);
    return example;
}

/* The example's input, with its actions replaced when `actions` ('-quoted) is not NULL. */
static json_t *example_input(const char *actions)
{
    json_t *example = load_example();
    json_t *input = json_deep_copy(json_object_get(example, "input"));
    json_decref(example);
    if (actions != NULL)
        json_object_set_new(input, "actions", parse_quoted(actions));
    return input;
}

START_TEST(test_the_replay_example_gives_exactly_its_answer_in_key_order)
{
    json_t *example = load_example();
    char *input = json_dumps(json_object_get(example, "input"), JSON_COMPACT);
    char *expected = json_dumps(json_object_get(example, "output"), JSON_COMPACT | JSON_PRESERVE_ORDER);
    bool is_error = true;
    char *answer = score_run_text(input, strlen(input), &is_error);
    ck_assert(!is_error);
    ck_assert_str_eq(answer, expected);
    free(answer);
    free(expected);
    free(input);
    json_decref(example);
}
END_TEST

START_TEST(test_the_stake_multiplies_bonuses_payments_and_net)
{
    json_t *input = example_input(NULL);
    json_object_set_new(input, "options", parse_quoted("{'stake':5}"));
    json_t *a = score_run(input);
    /* 賀尊 2, 2 and 4 (the banker pays 2m), settlement 10, 10, 20, all x5. */
    assert_key(a, "bonuses", "[{'kind':'he_zun','from':1,'to':0,'units':10},{'kind':'he_zun','from':2,'to':0,"
                             "'units':10},{'kind':'he_zun','from':3,'to':0,'units':20}]");
    assert_payments(a, "[[1,0,50],[2,0,50],[3,0,100]]");
    assert_key(a, "net", "[240,-60,-60,-120]");
    assert_key(a, "stacks", "[8,0,0,0]");
    json_decref(a);
    json_decref(input);
}
END_TEST

START_TEST(test_a_replay_document_is_checked_key_by_key)
{
    json_t *input = example_input(NULL);
    json_object_set_new(input, "stacks", parse_quoted("[8,0,0,0]"));
    json_t *a = score_run(input);
    assert_error_names(a, "bad_request", "stacks", NULL);
    json_decref(a);
    json_object_del(input, "stacks");
    json_object_del(input, "actions");
    a = score_run(input);
    assert_error_names(a, "bad_request", "actions", NULL);
    json_decref(a);
    json_object_set_new(input, "actions", json_object());
    a = score_run(input);
    assert_error_names(a, "bad_request", "actions", NULL);
    json_decref(a);
    json_decref(input);
}
END_TEST

START_TEST(test_an_unknown_key_in_an_action_is_a_bad_request)
{
    json_t *input = example_input("[{'seat':3,'play':['1-3','1-3'],'face':'up'}]");
    json_t *a = score_run(input);
    assert_error_names(a, "bad_request", "actions[0]", "face");
    json_decref(a);
    json_decref(input);
}
END_TEST

START_TEST(test_actions_of_the_wrong_shape_are_bad_requests)
{
    const char *lists[] = {
        "[{'seat':3}]",                                 /* neither play nor discard */
        "[{'play':['1-3','1-3']}]",                     /* no seat */
        "[{'seat':3,'play':['1-3'],'discard':['1-3']}]",
        "[{'seat':3,'play':'1-3'}]",                    /* not a list */
        "[{'seat':3,'play':[13]}]",                     /* not a string */
        "[{'seat':3,'play':['3-1']}]",                  /* bad tile name */
        "[{'seat':5,'play':['1-3']}]",                  /* seat out of range */
        "[['seat',3]]",
    };
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        json_t *input = example_input(lists[i]);
        json_t *a = score_run(input);
        assert_error_names(a, "bad_request", "actions[0]", NULL);
        json_decref(a);
        json_decref(input);
    }
}
END_TEST

START_TEST(test_hands_not_four_lists_of_eight_tiles_are_bad_requests)
{
    json_t *input = example_input(NULL);
    json_t *hands = json_object_get(input, "hands");
    json_array_remove(json_array_get(hands, 2), 0); /* seat 2 holds 7 */
    json_t *a = score_run(input);
    assert_error_names(a, "bad_request", "hands[2]", NULL);
    json_decref(a);
    json_array_remove(hands, 2); /* three hands */
    a = score_run(input);
    assert_error_names(a, "bad_request", "hands", NULL);
    json_decref(a);
    json_decref(input);

    input = example_input(NULL);
    json_array_set_new(json_array_get(json_object_get(input, "hands"), 1), 4, json_string("7-7"));
    a = score_run(input);
    assert_error_names(a, "bad_request", "hands[1][4]", "7-7");
    json_decref(a);
    json_decref(input);
}
END_TEST

START_TEST(test_hands_that_are_not_the_32_tiles_are_impossible)
{
    json_t *input = example_input(NULL);
    /* Seat 0's 1-2 becomes a third 6-6. */
    json_array_set_new(json_array_get(json_object_get(input, "hands"), 0), 0, json_string("6-6"));
    json_t *a = score_run(input);
    assert_error_names(a, "impossible", "32", NULL);
    json_decref(a);
    json_decref(input);
}
END_TEST

START_TEST(test_impossible_hands_come_before_illegal_actions_and_after_bad_requests)
{
    json_t *input = example_input("[{'seat':0,'play':['4-4','4-4']}]"); /* seat 0 is not the leader */
    json_array_set_new(json_array_get(json_object_get(input, "hands"), 0), 0, json_string("6-6"));
    json_t *a = score_run(input);
    assert_error(a, "impossible");
    json_decref(a);
    json_array_append_new(json_object_get(input, "actions"), parse_quoted("{'seat':1,'discard':['9-9']}"));
    a = score_run(input);
    assert_error_names(a, "bad_request", "actions[1]", NULL);
    json_decref(a);
    json_decref(input);
}
END_TEST

START_TEST(test_a_late_bad_tile_name_comes_before_an_early_illegal_action)
{
    json_t *input = example_input(NULL);
    json_t *actions = json_object_get(input, "actions");
    json_array_set_new(actions, 0, parse_quoted("{'seat':2,'play':['1-1']}")); /* not seat 2's turn */
    json_array_set_new(actions, 17, parse_quoted("{'seat':1,'discard':['6-3']}"));
    json_t *a = score_run(input);
    assert_error_names(a, "bad_request", "actions[17]", NULL);
    json_decref(a);
    json_decref(input);
}
END_TEST

/* --- replay refusals (illegal_action) --- */

/* The example's deal with these actions must be refused at actions[index] by seat `seat`. */
static void assert_refused(const char *actions, int index, int seat)
{
    json_t *input = example_input(actions);
    json_t *a = score_run(input);
    char at[32], by[16];
    snprintf(at, sizeof at, "actions[%d]", index);
    snprintf(by, sizeof by, "seat %d", seat);
    assert_error_names(a, "illegal_action", at, by);
    json_decref(a);
    json_decref(input);
}

/* The example's actions up to (not including) `stop`, then `extra` actions appended ('-quoted list). */
static json_t *example_prefix(size_t stop, const char *extra)
{
    json_t *input = example_input(NULL);
    json_t *actions = json_object_get(input, "actions");
    while (json_array_size(actions) > stop)
        json_array_remove(actions, stop);
    json_t *more = parse_quoted(extra);
    json_array_extend(actions, more);
    json_decref(more);
    return input;
}

static void assert_prefix_refused(size_t stop, const char *extra, int index, int seat, const char *why)
{
    json_t *input = example_prefix(stop, extra);
    json_t *a = score_run(input);
    char at[32], by[16];
    snprintf(at, sizeof at, "actions[%d]", index);
    snprintf(by, sizeof by, "seat %d", seat);
    assert_error_names(a, "illegal_action", at, by);
    if (why != NULL)
        assert_error_names(a, "illegal_action", why, NULL);
    json_decref(a);
    json_decref(input);
}

START_TEST(test_an_action_by_the_wrong_seat_is_illegal)
{
    /* Seat 3 banks and leads; seat 0 may not. */
    assert_refused("[{'seat':0,'play':['4-4','4-4']}]", 0, 0);
    /* After seat 3's lead, seat 0 follows, not seat 1. */
    assert_refused("[{'seat':3,'play':['1-3','1-3']},{'seat':1,'discard':['1-6','1-6']}]", 1, 1);
}
END_TEST

START_TEST(test_a_tile_the_seat_does_not_hold_is_illegal)
{
    assert_refused("[{'seat':3,'play':['6-6']}]", 0, 3);
    /* Seat 0 holds one 1-2, not two. */
    assert_refused("[{'seat':3,'play':['1-3','1-3']},{'seat':0,'discard':['1-2','1-2']}]", 1, 0);
}
END_TEST

START_TEST(test_a_lead_that_is_not_a_combination_is_illegal)
{
    assert_refused("[{'seat':3,'play':['1-3','4-6']}]", 0, 3);
    assert_refused("[{'seat':3,'play':['1-1','1-3','1-3']}]", 0, 3);
}
END_TEST

START_TEST(test_a_leader_may_not_discard)
{
    assert_refused("[{'seat':3,'discard':['1-3']}]", 0, 3);
}
END_TEST

START_TEST(test_a_follower_must_match_the_number_of_tiles_led)
{
    assert_refused("[{'seat':3,'play':['1-3','1-3']},{'seat':0,'play':['4-4']}]", 1, 0);
    assert_refused("[{'seat':3,'play':['1-3','1-3']},{'seat':0,'discard':['4-4','4-4','6-6']}]", 1, 0);
}
END_TEST

START_TEST(test_zero_or_more_than_four_tiles_are_illegal)
{
    assert_refused("[{'seat':3,'play':[]}]", 0, 3);
    assert_refused("[{'seat':3,'play':['1-1','1-3','1-3','1-5','4-6']}]", 0, 3);
}
END_TEST

START_TEST(test_a_follower_play_that_does_not_beat_is_illegal)
{
    /* Lower rank: 人 (4-4) on 地 (1-1). */
    assert_refused("[{'seat':3,'play':['1-1']},{'seat':0,'play':['4-4']}]", 1, 0);
    /* Another type: a military 8 on a civil single. */
    assert_refused("[{'seat':3,'play':['1-1']},{'seat':0,'play':['2-6']}]", 1, 0);
    /* 至尊 may only be led: not on a pair of 和. */
    assert_refused("[{'seat':3,'play':['1-3','1-3']},{'seat':0,'play':['1-2','2-4']}]", 1, 0);
    /* Equal rank does not beat: seat 0 wins the first trick and leads the 9 (4-5); the other 9
     * (3-6) of seat 1 ties it. */
    assert_prefix_refused(4, "[{'seat':0,'play':['4-5']},{'seat':1,'play':['3-6']}]", 5, 1, NULL);
}
END_TEST

START_TEST(test_a_play_by_a_seat_barred_from_the_final_trick_is_illegal)
{
    /* The final trick is led by seat 0 with 1-5; seat 3 has no stack, so it may only discard
     * its single tile even though 1-1 outranks 1-5. */
    assert_prefix_refused(19, "[{'seat':3,'play':['1-1']}]", 19, 3, NULL);
}
END_TEST

START_TEST(test_an_action_after_the_final_trick_is_illegal)
{
    json_t *example = load_example();
    size_t n = json_array_size(json_object_get(json_object_get(example, "input"), "actions"));
    json_decref(example);
    assert_prefix_refused(n, "[{'seat':0,'play':['1-2']}]", (int)n, 0, "final trick");
}
END_TEST

START_TEST(test_actions_that_end_before_the_final_trick_are_illegal)
{
    json_t *input = example_prefix(19, "[]");
    json_t *a = score_run(input);
    assert_error_names(a, "illegal_action", "before the final trick", NULL);
    json_decref(a);
    json_decref(input);
    input = example_input("[]");
    a = score_run(input);
    assert_error(a, "illegal_action");
    json_decref(a);
    json_decref(input);
}
END_TEST

START_TEST(test_an_illegal_action_message_gives_the_engines_reason)
{
    json_t *input = example_input("[{'seat':3,'play':['1-1']},{'seat':0,'play':['4-4']}]");
    json_t *a = score_run(input);
    const char *message = error_message(a);
    ck_assert_ptr_nonnull(strstr(message, "actions[1]"));
    ck_assert_ptr_nonnull(strstr(message, "seat 0 plays [\"4-4\"]"));
    ck_assert_ptr_nonnull(strstr(message, tg_status_message(TG_ERR_DOES_NOT_BEAT)));
    json_decref(a);
    json_decref(input);
}
END_TEST

/* --- hand-built replays --- */

/*
 * Seat 2 is dealt 2-2 2-2 3-3 3-3 5-5 5-5 5-6 5-6: no red pip, a natural 八支. Seats 0, 1 and 3
 * hold several red pips each, so the first natural hand from the banker is seat 2's.
 */
static json_t *natural_eight_document(int banker, int multiplier, const char *options, const char *actions)
{
    char doc[2048];
    snprintf(doc, sizeof doc,
             "{'mode':'replay','game':'tiengow','options':%s,'banker':%d,'multiplier':%d,'hands':["
             "['1-1','1-1','1-3','1-3','4-4','4-4','6-6','6-6'],"
             "['1-5','1-5','1-6','1-6','2-4','3-4','4-6','4-6'],"
             "['2-2','2-2','3-3','3-3','5-5','5-5','5-6','5-6'],"
             "['1-2','1-4','2-3','2-5','2-6','3-5','3-6','4-5']],'actions':%s}",
             options, banker, multiplier, actions);
    return answer_of_quoted(doc);
}

START_TEST(test_a_natural_hand_wins_at_once_with_no_actions)
{
    json_t *a = natural_eight_document(0, 2, "{}", "[]");
    /* 八支 x4 with 0 stacks each (5 units): seat 0 banks (m 2): 5x2x4 = 40; seats 1, 3: 20. */
    assert_key(a, "tricks", "[]");
    assert_key(a, "bonuses", "[]");
    assert_key(a, "stacks", "[0,0,8,0]");
    assert_key(a, "winner", "2");
    assert_key(a, "endings", "['eight','natural']");
    assert_payments(a, "[[0,2,40],[1,2,20],[3,2,20]]");
    assert_key(a, "net", "[-40,-20,80,-20]");
    /* Fly: the winner banks next with multiplier 2. */
    assert_key(a, "next_banker", "2");
    assert_key(a, "next_multiplier", "2");
    json_decref(a);
}
END_TEST

START_TEST(test_a_natural_hand_refuses_any_action)
{
    json_t *a = natural_eight_document(0, 2, "{}", "[{'seat':0,'play':['6-6']}]");
    assert_error_names(a, "illegal_action", "actions[0]", "natural");
    json_decref(a);
}
END_TEST

START_TEST(test_turn_rotation_passes_the_bank_to_the_next_seat)
{
    json_t *a = natural_eight_document(0, 2, "{'rotation':'turn'}", "[]");
    assert_key(a, "next_banker", "1");
    assert_key(a, "next_multiplier", "2");
    json_decref(a);
}
END_TEST

START_TEST(test_a_banker_who_wins_keeps_the_bank_under_either_rotation)
{
    /* Seat 2 banks with m 3 and holds the natural: each loser pays 5 x 3 x 4 = 60. */
    json_t *a = natural_eight_document(2, 3, "{'rotation':'fly'}", "[]");
    assert_key(a, "net", "[-60,-60,180,-60]");
    assert_key(a, "next_banker", "2");
    assert_key(a, "next_multiplier", "4");
    json_decref(a);
    a = natural_eight_document(2, 3, "{'rotation':'turn'}", "[]");
    assert_key(a, "next_banker", "2");
    assert_key(a, "next_multiplier", "4");
    json_decref(a);
}
END_TEST

START_TEST(test_a_natural_seven_lists_natural_before_seven)
{
    /* Seat 1: 1-2 and seven tiles without red pips: exactly one red pip, 七支 x2. Seat 0 banks
     * (m 2): 5 x 2 x 2 = 20; seats 2 and 3: 5 x 2 = 10. */
    json_t *a = answer_of_quoted("{'mode':'replay','game':'tiengow','banker':0,'multiplier':2,'hands':["
                                 "['1-1','1-1','1-3','1-3','4-4','4-4','6-6','6-6'],"
                                 "['1-2','2-2','2-2','3-3','3-3','5-5','5-5','5-6'],"
                                 "['1-5','1-5','1-6','1-6','3-6','4-6','4-6','5-6'],"
                                 "['1-4','2-3','2-4','2-5','2-6','3-4','3-5','4-5']],'actions':[]}");
    assert_key(a, "endings", "['natural','seven']");
    assert_key(a, "winner", "1");
    assert_key(a, "net", "[-20,40,-10,-10]");
    json_decref(a);
}
END_TEST

/*
 * Seat 0 (banker, m 2) holds 天天99 and 地地88 and plays both quartets; everyone else discards.
 * Trick 1 pays 四大賀: 4 x m = 8 from each. The final trick is won by a quartet with 4 tiles
 * each and all 8 stacks: 八支 x 四大包 = x16, so each loser pays 5 x 2 x 16 = 160.
 */
static const char *const QUARTET_HAND =
    "{'mode':'replay','game':'tiengow','options':%s,'banker':0,'multiplier':2,'hands':["
    "['1-1','1-1','2-6','3-5','3-6','4-5','6-6','6-6'],"
    "['1-3','1-3','3-3','3-3','4-4','4-4','5-5','5-5'],"
    "['1-6','1-6','2-2','2-2','4-6','4-6','5-6','5-6'],"
    "['1-2','1-4','1-5','1-5','2-3','2-4','2-5','3-4']],'actions':["
    "{'seat':0,'play':['6-6','6-6','3-6','4-5']},{'seat':1,'discard':['4-4','4-4','1-3','1-3']},"
    "{'seat':2,'discard':['2-2','2-2','5-6','5-6']},{'seat':3,'discard':['1-5','1-5','2-5','3-4']},"
    "{'seat':0,'play':['1-1','1-1','2-6','3-5']},{'seat':1,'discard':['5-5','5-5','3-3','3-3']},"
    "{'seat':2,'discard':['4-6','4-6','1-6','1-6']},{'seat':3,'discard':['2-4','2-3','1-4','1-2']}]}";

static json_t *quartet_hand(const char *options)
{
    char doc[2048];
    snprintf(doc, sizeof doc, QUARTET_HAND, options);
    return answer_of_quoted(doc);
}

START_TEST(test_a_hand_won_by_quartets_pays_the_bonus_and_eight_times_quartet)
{
    json_t *a = quartet_hand("{}");
    assert_key(a, "tricks",
               "[{'leader':0,'plays':[{'seat':0,'play':['3-6','4-5','6-6','6-6']},{'seat':1,'discard':4},"
               "{'seat':2,'discard':4},{'seat':3,'discard':4}],'winner':0,'tiles':4},"
               "{'leader':0,'plays':[{'seat':0,'play':['1-1','1-1','2-6','3-5']},{'seat':1,'discard':4},"
               "{'seat':2,'discard':4},{'seat':3,'discard':4}],'winner':0,'tiles':4}]");
    assert_key(a, "bonuses", "[{'kind':'quartet','from':1,'to':0,'units':8},{'kind':'quartet','from':2,'to':0,"
                             "'units':8},{'kind':'quartet','from':3,'to':0,'units':8}]");
    assert_key(a, "stacks", "[8,0,0,0]");
    assert_key(a, "endings", "['eight','quartet']");
    assert_payments(a, "[[1,0,160],[2,0,160],[3,0,160]]");
    assert_key(a, "net", "[504,-168,-168,-168]");
    assert_key(a, "next_banker", "0");
    assert_key(a, "next_multiplier", "3");
    json_decref(a);
}
END_TEST

/*
 * 擒 through a replay (banker 0, m 2). Trick 1: seat 0 leads 天天99 (4 stacks, 四大賀 8 from each).
 * Trick 2: seat 0 leads 和五 (1-3 2-3), seat 3 beats it with 人七 (4-4 2-5): 2 stacks. Trick 3:
 * seat 3 leads 1-5, seat 1 beats it with 1-6: 1 stack. Final trick: seat 1 leads 丁三, seat 3
 * takes it with 大頭六. Stacks 4, 1, 0, 3. a(0) = 0, a(1) = 3, a(2) = 5: seat 1 pays 8 x 4 = 32.
 */
static const char *const QIN_HAND =
    "{'mode':'replay','game':'tiengow','options':%s,'banker':0,'multiplier':2,'hands':["
    "['1-3','2-3','3-3','3-6','4-5','5-5','6-6','6-6'],"
    "['1-2','1-3','1-6','4-4','4-6','4-6','5-6','5-6'],"
    "['1-4','1-5','1-6','2-2','2-2','3-3','3-4','5-5'],"
    "['1-1','1-1','1-5','2-4','2-5','2-6','3-5','4-4']],'actions':["
    "{'seat':0,'play':['6-6','6-6','3-6','4-5']},{'seat':1,'discard':['4-4','1-3','5-6','5-6']},"
    "{'seat':2,'discard':['1-4','3-3','3-4','5-5']},{'seat':3,'discard':['1-1','1-1','2-6','3-5']},"
    "{'seat':0,'play':['1-3','2-3']},{'seat':1,'discard':['4-6','4-6']},{'seat':2,'discard':['2-2','2-2']},"
    "{'seat':3,'play':['2-5','4-4']},"
    "{'seat':3,'play':['1-5']},{'seat':0,'discard':['5-5']},{'seat':1,'play':['1-6']},{'seat':2,'discard':['1-5']},"
    "{'seat':1,'play':['1-2']},{'seat':2,'discard':['1-6']},{'seat':3,'play':['2-4']},{'seat':0,'discard':['3-3']}]}";

static json_t *qin_hand(const char *options)
{
    char doc[2048];
    snprintf(doc, sizeof doc, QIN_HAND, options);
    return answer_of_quoted(doc);
}

START_TEST(test_a_replayed_qin_makes_the_captured_leader_pay)
{
    json_t *a = qin_hand("{}");
    assert_key(a, "stacks", "[4,1,0,3]");
    assert_key(a, "winner", "3");
    assert_key(a, "endings", "['qin']");
    assert_payments(a, "[[1,3,32]]");
    /* Bonuses: seat 0 +24, others -8. Seat 1 -8-32, seat 3 -8+32. */
    assert_key(a, "net", "[24,-40,-8,24]");
    assert_key(a, "next_banker", "3");
    assert_key(a, "next_multiplier", "2");
    json_decref(a);
}
END_TEST

START_TEST(test_options_change_a_replayed_qin)
{
    /* Each loser on its own: seat 0 (4 stacks) nothing, seat 1 3x4 = 12, seat 2 5x4 = 20. */
    json_t *a = qin_hand("{'qin_pays_all':false,'rotation':'turn'}");
    assert_payments(a, "[[1,3,12],[2,3,20]]");
    assert_key(a, "net", "[24,-20,-28,24]");
    assert_key(a, "next_banker", "1");
    assert_key(a, "next_multiplier", "2");
    json_decref(a);
}
END_TEST

static Suite *score_suite(void)
{
    Suite *s = suite_create("score");
    TCase *examples = tcase_create("settle examples");
    tcase_add_test(examples, test_example_a_banker_east_pays_six_west_five_north_wins_eleven);
    tcase_add_test(examples, test_example_a_without_options_key_uses_the_defaults);
    tcase_add_test(examples, test_example_b_south_with_five_stacks_is_paid_one);
    tcase_add_test(examples, test_example_c_winning_banker_collects_times_four);
    tcase_add_test(examples, test_example_d_losing_banker_pays_times_five);
    tcase_add_test(examples, test_example_e_eight_stacks_multiply_by_four);
    tcase_add_test(examples, test_example_f_losing_bankers_refund_is_not_multiplied);
    tcase_add_test(examples, test_example_g_captured_leader_pays_for_all);
    tcase_add_test(examples, test_example_g_without_qin_pays_all_each_loser_pays_its_own);
    tcase_add_test(examples, test_example_g_with_qin_multiplier_two_costs_half);
    tcase_add_test(examples, test_qin_nets_a_refund_into_the_captured_leaders_sum);
    tcase_add_test(examples, test_endings_multiply_every_loser_refunds_included);
    tcase_add_test(examples, test_the_stake_multiplies_every_settled_amount);
    tcase_add_test(examples, test_the_largest_amounts_do_not_overflow);
    tcase_add_test(examples, test_settle_answers_have_payments_then_net_only);
    tcase_add_test(examples, test_settle_outcomes_that_cannot_arise_are_impossible);
    suite_add_tcase(s, examples);

    TCase *shape = tcase_create("bad requests");
    tcase_add_test(shape, test_text_that_is_not_json_is_a_bad_request);
    tcase_add_test(shape, test_a_repeated_key_is_a_bad_request);
    tcase_add_test(shape, test_a_missing_key_is_a_bad_request_naming_it);
    tcase_add_test(shape, test_an_unknown_top_level_key_is_a_bad_request_naming_it);
    tcase_add_test(shape, test_an_unknown_option_is_a_bad_request_naming_it);
    tcase_add_test(shape, test_wrong_json_types_are_bad_requests);
    tcase_add_test(shape, test_values_not_listed_or_out_of_range_are_bad_requests);
    tcase_add_test(shape, test_stacks_not_four_integers_zero_to_eight_are_bad_requests);
    tcase_add_test(shape, test_a_shape_error_comes_before_an_impossible_outcome);
    tcase_add_test(shape, test_a_replay_document_is_checked_key_by_key);
    tcase_add_test(shape, test_an_unknown_key_in_an_action_is_a_bad_request);
    tcase_add_test(shape, test_actions_of_the_wrong_shape_are_bad_requests);
    tcase_add_test(shape, test_hands_not_four_lists_of_eight_tiles_are_bad_requests);
    tcase_add_test(shape, test_hands_that_are_not_the_32_tiles_are_impossible);
    tcase_add_test(shape, test_impossible_hands_come_before_illegal_actions_and_after_bad_requests);
    tcase_add_test(shape, test_a_late_bad_tile_name_comes_before_an_early_illegal_action);
    suite_add_tcase(s, shape);

    TCase *replay = tcase_create("replay");
    tcase_add_test(replay, test_the_replay_example_gives_exactly_its_answer_in_key_order);
    tcase_add_test(replay, test_the_stake_multiplies_bonuses_payments_and_net);
    tcase_add_test(replay, test_a_natural_hand_wins_at_once_with_no_actions);
    tcase_add_test(replay, test_a_natural_hand_refuses_any_action);
    tcase_add_test(replay, test_turn_rotation_passes_the_bank_to_the_next_seat);
    tcase_add_test(replay, test_a_banker_who_wins_keeps_the_bank_under_either_rotation);
    tcase_add_test(replay, test_a_natural_seven_lists_natural_before_seven);
    tcase_add_test(replay, test_a_hand_won_by_quartets_pays_the_bonus_and_eight_times_quartet);
    tcase_add_test(replay, test_a_replayed_qin_makes_the_captured_leader_pay);
    tcase_add_test(replay, test_options_change_a_replayed_qin);
    suite_add_tcase(s, replay);

    TCase *refusals = tcase_create("replay refusals");
    tcase_add_test(refusals, test_an_action_by_the_wrong_seat_is_illegal);
    tcase_add_test(refusals, test_a_tile_the_seat_does_not_hold_is_illegal);
    tcase_add_test(refusals, test_a_lead_that_is_not_a_combination_is_illegal);
    tcase_add_test(refusals, test_a_leader_may_not_discard);
    tcase_add_test(refusals, test_a_follower_must_match_the_number_of_tiles_led);
    tcase_add_test(refusals, test_zero_or_more_than_four_tiles_are_illegal);
    tcase_add_test(refusals, test_a_follower_play_that_does_not_beat_is_illegal);
    tcase_add_test(refusals, test_a_play_by_a_seat_barred_from_the_final_trick_is_illegal);
    tcase_add_test(refusals, test_an_action_after_the_final_trick_is_illegal);
    tcase_add_test(refusals, test_actions_that_end_before_the_final_trick_are_illegal);
    tcase_add_test(refusals, test_an_illegal_action_message_gives_the_engines_reason);
    suite_add_tcase(s, refusals);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(score_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
