/*
 * fuzz_score — the score calculator (score_run_text, behind teahouse-score) on arbitrary bytes.
 *
 * Promises checked, from rules/tiengow.md §8 and rules/tianjin-mahjong.md §7: there is always
 * exactly one answer, a JSON object; an error answer is {"error":{"code":C,"message":M}} with C one
 * of bad_request, impossible, illegal_action, not_a_win, under_minimum and M a non-empty sentence,
 * and is_error says so; a Tianjin score answer is {"fan","names","reading"} with fan at least 2 and
 * equal to the product its names give (捉五 and 龙 added first), names among §4's in §7's order,
 * and a reading of four sets and a pair (kongs of 4) of tile names; any other answer carries a
 * `net` of four integers summing to zero and payments of positive units (a replay also its tricks,
 * stacks summing to 8 and next banker and multiplier, a Tianjin settlement its next banker and
 * must-sit flag); the same input gives the same answer twice.
 */
#include <jansson.h>

#include "fuzz.h"
#include "score.h"

static void check_error(const json_t *error)
{
    FUZZ_CHECK(json_is_object(error) && json_object_size(error) == 2, "error is not {code, message}");
    const char *code = json_string_value(json_object_get(error, "code"));
    const char *message = json_string_value(json_object_get(error, "message"));
    FUZZ_CHECK(code != NULL && (strcmp(code, "bad_request") == 0 || strcmp(code, "impossible") == 0 ||
                                strcmp(code, "illegal_action") == 0 || strcmp(code, "not_a_win") == 0 ||
                                strcmp(code, "under_minimum") == 0),
               "error code %s", code != NULL ? code : "(none)");
    FUZZ_CHECK(message != NULL && message[0] != '\0', "error without a message");
}

static void check_net_and_payments(const json_t *answer)
{
    const json_t *net = json_object_get(answer, "net");
    FUZZ_CHECK(json_is_array(net) && json_array_size(net) == 4, "net is not 4 amounts");
    json_int_t sum = 0;
    for (size_t s = 0; s < 4; s++) {
        FUZZ_CHECK(json_is_integer(json_array_get(net, s)), "net[%zu] is not an integer", s);
        sum += json_integer_value(json_array_get(net, s));
    }
    FUZZ_CHECK(sum == 0, "net sums to %lld", (long long)sum);
    const json_t *payments = json_object_get(answer, "payments");
    FUZZ_CHECK(json_is_array(payments), "payments is not a list");
    size_t i;
    const json_t *payment;
    json_array_foreach (payments, i, payment) {
        json_int_t units = json_integer_value(json_object_get(payment, "units"));
        json_int_t from = json_integer_value(json_object_get(payment, "from"));
        json_int_t to = json_integer_value(json_object_get(payment, "to"));
        FUZZ_CHECK(units > 0, "payments[%zu] of %lld units", i, (long long)units);
        FUZZ_CHECK(from >= 0 && from <= 3 && to >= 0 && to <= 3 && from != to, "payments[%zu] seats", i);
    }
}

static void check_replay(const json_t *answer)
{
    FUZZ_CHECK(json_is_array(json_object_get(answer, "tricks")), "replay without tricks");
    FUZZ_CHECK(json_is_array(json_object_get(answer, "bonuses")), "replay without bonuses");
    const json_t *stacks = json_object_get(answer, "stacks");
    json_int_t sum = 0;
    for (size_t s = 0; s < json_array_size(stacks); s++)
        sum += json_integer_value(json_array_get(stacks, s));
    FUZZ_CHECK(json_array_size(stacks) == 4 && sum == 8, "stacks do not sum to 8");
    json_int_t banker = json_integer_value(json_object_get(answer, "next_banker"));
    FUZZ_CHECK(banker >= 0 && banker <= 3, "next_banker %lld", (long long)banker);
    FUZZ_CHECK(json_integer_value(json_object_get(answer, "next_multiplier")) >= 2, "next_multiplier below 2");
}

/* §4's fans in §7's order with their values (素 is 4 under 刮大风, so either is accepted). */
static const struct {
    const char *name;
    int value;
} FANS[] = {{"混儿吊", 2}, {"素", 2}, {"捉五", 3}, {"杠开", 2}, {"龙", 4}, {"本混", 2}, {"天胡", 4}, {"地胡", 4}};

static bool is_tile_name(const char *text)
{
    static const char *const HONOURS[] = {"E", "S", "W", "N", "C", "F", "P"};
    if (text == NULL)
        return false;
    if (strlen(text) == 2 && text[0] >= '1' && text[0] <= '9' && strchr("mps", text[1]) != NULL)
        return true;
    for (size_t i = 0; i < sizeof HONOURS / sizeof HONOURS[0]; i++)
        if (strcmp(text, HONOURS[i]) == 0)
            return true;
    return false;
}

static void check_tianjin_score(const json_t *answer)
{
    FUZZ_CHECK(json_object_size(answer) == 3, "a score answer with other keys");
    json_int_t fan = json_integer_value(json_object_get(answer, "fan"));
    const json_t *names = json_object_get(answer, "names"), *reading = json_object_get(answer, "reading");
    FUZZ_CHECK(fan >= 2 && json_is_array(names) && json_array_size(names) >= 1, "fan %lld", (long long)fan);
    long product = 1, added = 0, product_su4 = 1;
    size_t next = 0;
    for (size_t i = 0; i < json_array_size(names); i++) {
        const char *name = json_string_value(json_array_get(names, i));
        size_t f = next;
        while (f < sizeof FANS / sizeof FANS[0] && (name == NULL || strcmp(name, FANS[f].name) != 0))
            f++;
        FUZZ_CHECK(f < sizeof FANS / sizeof FANS[0], "names[%zu] unknown or out of order", i);
        next = f + 1;
        if (f == 2 || f == 4) { /* 捉五, 龙 */
            added += FANS[f].value;
            continue;
        }
        product *= FANS[f].value;
        product_su4 *= f == 1 ? 4 : FANS[f].value;
    }
    if (added > 0) {
        product *= added;
        product_su4 *= added;
    }
    FUZZ_CHECK(fan == product || fan == product_su4, "fan %lld is not what its names give", (long long)fan);
    FUZZ_CHECK(json_is_array(reading) && json_array_size(reading) == 5, "reading is not 5 groups");
    int pairs = 0;
    for (size_t g = 0; g < json_array_size(reading); g++) {
        const json_t *group = json_array_get(reading, g);
        size_t n = json_array_size(group);
        FUZZ_CHECK(json_is_array(group) && n >= 2 && n <= 4, "reading[%zu] is not a group", g);
        pairs += n == 2;
        for (size_t t = 0; t < n; t++)
            FUZZ_CHECK(is_tile_name(json_string_value(json_array_get(group, t))), "reading[%zu][%zu]", g, t);
    }
    FUZZ_CHECK(pairs == 1, "reading has %d pairs", pairs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bool is_error = false;
    char *answer_text = score_run_text((const char *)data, size, &is_error);
    FUZZ_CHECK(answer_text != NULL, "no answer");
    json_error_t error;
    json_t *answer = json_loads(answer_text, 0, &error);
    FUZZ_CHECK(json_is_object(answer), "the answer is not a JSON object: %s", error.text);
    const json_t *error_object = json_object_get(answer, "error");
    FUZZ_CHECK(is_error == (error_object != NULL), "is_error does not match the answer");
    if (is_error) {
        FUZZ_CHECK(json_object_size(answer) == 1, "an error answer with other keys");
        check_error(error_object);
    } else if (json_object_get(answer, "fan") != NULL) {
        check_tianjin_score(answer);
    } else {
        check_net_and_payments(answer);
        if (json_object_get(answer, "tricks") != NULL)
            check_replay(answer);
        if (json_object_get(answer, "next_must_sit") != NULL) {
            json_int_t banker = json_integer_value(json_object_get(answer, "next_banker"));
            FUZZ_CHECK(banker >= 0 && banker <= 3 && json_is_boolean(json_object_get(answer, "next_must_sit")),
                       "a Tianjin settlement's next banker or must-sit flag");
        }
    }

    bool again_is_error = false;
    char *again = score_run_text((const char *)data, size, &again_is_error);
    FUZZ_CHECK(again != NULL && strcmp(again, answer_text) == 0 && again_is_error == is_error,
               "a second run answered differently");
    free(again);
    json_decref(answer);
    free(answer_text);
    return 0;
}
