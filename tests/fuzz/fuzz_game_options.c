/*
 * fuzz_game_options — the Tien Gow game's options_parse (games/game.h) on arbitrary JSON, as a
 * create_table message may carry it.
 *
 * The oracle is the options table of rules/tiengow.md §8, written out again below: an object is
 * accepted exactly when each of its keys is an option of that table with a value of the listed
 * type and range (stake capped at 1,000,000, the documented limit of tg_json.h). An accepted
 * object comes back with every option, the given values kept and the defaults of §8 filled in;
 * parsing that again gives it back unchanged, and a hand starts from it and a new table's state.
 * A refusal has a reason.
 */
#include <jansson.h>

#include "fuzz.h"
#include "game.h"

typedef enum { VALUE_BOOL, VALUE_ROTATION, VALUE_QIN_MULTIPLIER, VALUE_QUARTET, VALUE_STAKE } value_kind;

/* §8's table: key, kind of value and default as JSON text. */
static const struct {
    const char *key;
    value_kind kind;
    const char *default_json;
} RULES_TABLE[] = {
    {"wen_zun", VALUE_BOOL, "false"},
    {"rotation", VALUE_ROTATION, "\"fly\""},
    {"qin_multiplier", VALUE_QIN_MULTIPLIER, "4"},
    {"qin_pays_all", VALUE_BOOL, "true"},
    {"quartet_bonus", VALUE_QUARTET, "\"winner\""},
    {"seven_civil", VALUE_BOOL, "false"},
    {"seven_military", VALUE_BOOL, "false"},
    {"eight_civil", VALUE_BOOL, "false"},
    {"eight_military", VALUE_BOOL, "false"},
    {"four_pairs", VALUE_BOOL, "false"},
    {"stake", VALUE_STAKE, "1"},
};
#define RULES_ROWS (sizeof RULES_TABLE / sizeof RULES_TABLE[0])
#define STAKE_CAP 1000000

static bool string_is(const json_t *value, const char *a, const char *b)
{
    const char *s = json_string_value(value);
    return s != NULL && (strcmp(s, a) == 0 || strcmp(s, b) == 0);
}

static bool value_allowed(value_kind kind, const json_t *value)
{
    json_int_t n = json_integer_value(value);
    switch (kind) {
    case VALUE_BOOL: return json_is_boolean(value);
    case VALUE_ROTATION: return string_is(value, "fly", "turn");
    case VALUE_QIN_MULTIPLIER: return json_is_integer(value) && (n == 4 || n == 2);
    case VALUE_QUARTET: return string_is(value, "winner", "appearance");
    case VALUE_STAKE: return json_is_integer(value) && n >= 1 && n <= STAKE_CAP;
    }
    return false;
}

static int rules_row(const char *key)
{
    for (size_t i = 0; i < RULES_ROWS; i++)
        if (strcmp(RULES_TABLE[i].key, key) == 0)
            return (int)i;
    return -1;
}

/* Whether §8 accepts these options. */
static bool rules_accept(const json_t *options)
{
    if (!json_is_object(options))
        return false;
    const char *key;
    json_t *value;
    json_object_foreach ((json_t *)options, key, value) {
        int row = rules_row(key);
        if (row < 0 || !value_allowed(RULES_TABLE[row].kind, value))
            return false;
    }
    return true;
}

/* Every option present, the given ones as given, the rest at §8's default. */
static void check_stored(const json_t *given, const json_t *stored)
{
    FUZZ_CHECK(json_is_object(stored) && json_object_size(stored) == RULES_ROWS, "stored options are not the %zu",
               RULES_ROWS);
    for (size_t i = 0; i < RULES_ROWS; i++) {
        const json_t *value = json_object_get(stored, RULES_TABLE[i].key);
        const json_t *wanted = json_object_get(given, RULES_TABLE[i].key);
        json_t *fallback = json_loads(RULES_TABLE[i].default_json, JSON_DECODE_ANY, NULL);
        FUZZ_CHECK(json_equal(value, wanted != NULL ? wanted : fallback), "stored %s is not %s", RULES_TABLE[i].key,
                   wanted != NULL ? "as given" : "the default");
        json_decref(fallback);
    }
}

static void check_stored_options_work(const json_t *stored)
{
    char msg[GAME_MESSAGE_SIZE];
    json_t *again = game_tiengow.options_parse(stored, msg, sizeof msg);
    FUZZ_CHECK(again != NULL, "stored options are refused: %s", msg);
    FUZZ_CHECK(json_equal(again, stored), "parsing stored options changes them");
    json_decref(again);
    json_t *state = game_tiengow.table_state_new(stored, 7);
    FUZZ_CHECK(state != NULL, "no table state for stored options");
    game_hand *hand = game_tiengow.hand_new(stored, 7, state);
    FUZZ_CHECK(hand != NULL, "no hand starts from stored options");
    json_t *view = game_tiengow.view(hand, 0);
    FUZZ_CHECK(json_is_object(view), "no view of a new hand");
    json_decref(view);
    view = game_tiengow.view_admin(hand);
    FUZZ_CHECK(json_equal(json_object_get(view, "options"), stored), "the admin view shows other options");
    json_decref(view);
    game_tiengow.hand_free(hand);
    json_decref(state);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *given = json_loadb((const char *)data, size, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, NULL);
    if (given == NULL)
        return 0; /* the protocol never hands a game text that is not JSON */
    char msg[GAME_MESSAGE_SIZE];
    memset(msg, 'x', sizeof msg);
    json_t *stored = game_tiengow.options_parse(given, msg, sizeof msg);
    FUZZ_CHECK((stored != NULL) == rules_accept(given), "options_parse %s what §8 %s", stored ? "accepts" : "refuses",
               stored ? "refuses" : "accepts");
    if (stored != NULL) {
        check_stored(given, stored);
        check_stored_options_work(stored);
    } else {
        FUZZ_CHECK(memchr(msg, '\0', sizeof msg) != NULL && msg[0] != '\0', "refused without a reason");
    }
    json_decref(stored);
    json_decref(given);
    return 0;
}
