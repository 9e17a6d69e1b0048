/*
 * score_mj — the Tianjin modes on top of mj_json and the engine: shape, then possibility, then the
 * rules, so the error code follows §7's precedence. Replay mode plays a hand through the game
 * (games/tianjin) by the house's one replay helper (game_replay.h), as the rooms and history do.
 */
#include "score_mj.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game_replay.h"
#include "mj_json.h"
#include "score.h"
#include "tianjin/game_tianjin.h"

static json_t *refusal(mjj_error code, const char *message) { return score_error(mjj_error_name(code), message); }

/* The engine's sentence, naming the tile when the refusal is about one. */
static json_t *hand_refusal(mj_status status, int kind)
{
    char message[MJJ_MESSAGE_SIZE];
    if (kind >= 0)
        snprintf(message, sizeof message, "%s (\"%s\", %s)", mj_status_message(status), mj_kind_name(kind),
                 mj_kind_zh(kind));
    else
        snprintf(message, sizeof message, "%s", mj_status_message(status));
    return refusal(mjj_error_of_status(status), message);
}

static json_t *score_mode(const json_t *input)
{
    char message[MJJ_MESSAGE_SIZE];
    mj_options options;
    mj_winning_hand hand;
    mjj_error e = mjj_parse_score_request(input, &options, &hand, message, sizeof message);
    if (e != MJJ_OK)
        return refusal(e, message);
    int kind;
    mj_status status = mj_winning_hand_check(&options, &hand, &kind);
    if (status != MJ_OK)
        return hand_refusal(status, kind);
    mj_score score;
    status = mj_score_hand(&options, &hand, &score);
    if (status != MJ_OK)
        return hand_refusal(status, -1);
    return mjj_score_to_json(&score);
}

static json_t *settle_mode(const json_t *input)
{
    char message[MJJ_MESSAGE_SIZE];
    mj_options options;
    mj_outcome outcome;
    mjj_error e = mjj_parse_settle_request(input, &options, &outcome, message, sizeof message);
    if (e != MJJ_OK)
        return refusal(e, message);
    mj_status status = mj_outcome_check(&options, &outcome);
    if (status != MJ_OK)
        return refusal(mjj_error_of_status(status), mj_status_message(status));
    mj_settlement settlement;
    mj_settle(&options, &outcome, &settlement);
    return mjj_settlement_to_json(&settlement);
}

/* --- replay mode --- */

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static const char *const REPLAY_KEYS[] = {"mode", "game", "options", "seed", "wall", "dice", "table_state", "actions"};
static const char *const STATE_KEYS[] = {"banker", "count", "must_sit"};

/* A replay document that has passed the shape pass. */
typedef struct replay_doc {
    json_t *options; /* as the table stores them */
    bool from_wall;
    uint64_t seed;
    uint8_t wall[MJ_TILES];
    int dice;
    const json_t *state; /* borrowed from the input */
    game_logged_action *log;
    size_t n_actions;
} replay_doc;

static void replay_doc_free(replay_doc *doc)
{
    for (size_t i = 0; doc->log != NULL && i < doc->n_actions; i++)
        json_decref((json_t *)doc->log[i].action);
    free(doc->log);
    json_decref(doc->options);
}

__attribute__((format(printf, 3, 4))) static mjj_error replay_fail(char *msg, size_t msg_size, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(msg, msg_size, format, args);
    va_end(args);
    return MJJ_BAD_REQUEST;
}

static bool listed(const char *key, const char *const *keys, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(key, keys[i]) == 0)
            return true;
    return false;
}

static mjj_error check_replay_keys(const json_t *input, char *msg, size_t msg_size)
{
    const char *key;
    json_t *value;
    json_object_foreach ((json_t *)input, key, value) {
        if (!listed(key, REPLAY_KEYS, COUNT(REPLAY_KEYS)))
            return replay_fail(msg, msg_size, "The replay document has an unknown key \"%.40s\".", key);
    }
    bool seed = json_object_get(input, "seed") != NULL, wall = json_object_get(input, "wall") != NULL;
    if (seed == wall)
        return replay_fail(msg, msg_size, "A replay document has either \"seed\" or \"wall\" (with \"dice\"), not %s.",
                           seed ? "both" : "neither");
    if (wall != (json_object_get(input, "dice") != NULL))
        return replay_fail(msg, msg_size, "\"dice\" comes with \"wall\", and only with it.");
    if (json_object_get(input, "table_state") == NULL || json_object_get(input, "actions") == NULL)
        return replay_fail(msg, msg_size, "The replay document has no \"%s\"; it is required.",
                           json_object_get(input, "table_state") == NULL ? "table_state" : "actions");
    return MJJ_OK;
}

/* A seed is a JSON integer 0..2^63-1 or a string of decimal digits up to 2^64-1. */
static mjj_error parse_seed(const json_t *value, uint64_t *seed, char *msg, size_t msg_size)
{
    if (json_is_integer(value) && json_integer_value(value) >= 0) {
        *seed = (uint64_t)json_integer_value(value);
        return MJJ_OK;
    }
    const char *text = json_string_value(value);
    bool digits = text != NULL && text[0] != '\0' && strlen(text) <= 20 && strlen(text) == json_string_length(value);
    for (size_t i = 0; digits && text[i] != '\0'; i++)
        digits = text[i] >= '0' && text[i] <= '9';
    if (digits) {
        errno = 0;
        unsigned long long v = strtoull(text, NULL, 10);
        if (errno == 0) {
            *seed = (uint64_t)v;
            return MJJ_OK;
        }
    }
    return replay_fail(msg, msg_size,
                       "seed must be an integer from 0, or a string of decimal digits up to 18446744073709551615.");
}

static mjj_error parse_wall(const json_t *input, replay_doc *doc, char *msg, size_t msg_size)
{
    const json_t *wall = json_object_get(input, "wall"), *dice = json_object_get(input, "dice");
    if (!json_is_array(wall) || json_array_size(wall) != MJ_TILES)
        return replay_fail(msg, msg_size, "wall must be a list of the 136 tiles in the order they are dealt.");
    for (size_t i = 0; i < MJ_TILES; i++) {
        char at[32];
        int kind;
        snprintf(at, sizeof at, "wall[%zu]", i);
        mjj_error e = mjj_parse_tile(json_array_get(wall, i), at, &kind, msg, msg_size);
        if (e != MJJ_OK)
            return e;
        doc->wall[i] = (uint8_t)kind;
    }
    if (!json_is_integer(dice) || json_integer_value(dice) < 2 || json_integer_value(dice) > 12)
        return replay_fail(msg, msg_size, "dice must be the integer total of two dice, 2 to 12.");
    doc->dice = (int)json_integer_value(dice);
    return MJJ_OK;
}

static mjj_error parse_state(const json_t *state, char *msg, size_t msg_size)
{
    static const char SHAPE[] = "table_state must be {\"banker\":0..3,\"count\":1..1000000,\"must_sit\":true|false}";
    if (!json_is_object(state) || json_object_size(state) != COUNT(STATE_KEYS))
        return replay_fail(msg, msg_size, "%s.", SHAPE);
    const json_t *banker = json_object_get(state, "banker"), *count = json_object_get(state, "count");
    const json_t *must_sit = json_object_get(state, "must_sit");
    if (!json_is_integer(banker) || json_integer_value(banker) < 0 || json_integer_value(banker) > 3)
        return replay_fail(msg, msg_size, "%s: banker is a seat 0 to 3.", SHAPE);
    if (!json_is_integer(count) || json_integer_value(count) < 1 || json_integer_value(count) > 1000000)
        return replay_fail(msg, msg_size, "%s: count is the banker's hands in a row, this one included.", SHAPE);
    if (!json_is_boolean(must_sit))
        return replay_fail(msg, msg_size, "%s: must_sit is a boolean.", SHAPE);
    return MJJ_OK;
}

/* actions: [{"seat":S, <one action key>:…}…]; each is logged without its seat, as the rooms keep it. */
static mjj_error parse_actions(const json_t *actions, replay_doc *doc, char *msg, size_t msg_size)
{
    if (!json_is_array(actions))
        return replay_fail(msg, msg_size, "actions must be a list of {\"seat\":S, …one action…}.");
    doc->log = calloc(json_array_size(actions) + 1, sizeof *doc->log);
    if (doc->log == NULL)
        return replay_fail(msg, msg_size, "Out of memory.");
    for (size_t i = 0; i < json_array_size(actions); i++) {
        const json_t *given = json_array_get(actions, i), *seat = json_object_get(given, "seat");
        char at[32];
        snprintf(at, sizeof at, "actions[%zu]", i);
        if (!json_is_object(given) || !json_is_integer(seat) || json_integer_value(seat) < 0 ||
            json_integer_value(seat) > 3)
            return replay_fail(msg, msg_size, "%s must be an object with a \"seat\" 0 to 3 and one action.", at);
        json_t *action = json_copy((json_t *)given);
        doc->log[doc->n_actions++] = (game_logged_action){.seat = (int)json_integer_value(seat), .action = action};
        if (action == NULL || json_object_del(action, "seat") != 0)
            return replay_fail(msg, msg_size, "Out of memory.");
        mjj_action parsed;
        mjj_error e = mjj_parse_action(action, at, &parsed, msg, msg_size);
        if (e != MJJ_OK)
            return e;
    }
    return MJJ_OK;
}

static mjj_error parse_replay(const json_t *input, replay_doc *doc, char *msg, size_t msg_size)
{
    mjj_error e = check_replay_keys(input, msg, msg_size);
    if (e != MJJ_OK)
        return e;
    const char *game = json_string_value(json_object_get(input, "game"));
    if (game == NULL || strcmp(game, "tianjin") != 0)
        return replay_fail(msg, msg_size, "game must be \"tianjin\" for a Tianjin document.");
    mj_options options;
    int claim_seconds;
    if ((e = mjj_parse_table_options(json_object_get(input, "options"), &options, &claim_seconds, msg, msg_size)) !=
        MJJ_OK)
        return e;
    doc->options = mjj_table_options_to_json(&options, claim_seconds);
    if (doc->options == NULL)
        return replay_fail(msg, msg_size, "Out of memory.");
    doc->from_wall = json_object_get(input, "wall") != NULL;
    e = doc->from_wall ? parse_wall(input, doc, msg, msg_size)
                       : parse_seed(json_object_get(input, "seed"), &doc->seed, msg, msg_size);
    if (e != MJJ_OK)
        return e;
    doc->state = json_object_get(input, "table_state");
    if ((e = parse_state(doc->state, msg, msg_size)) != MJJ_OK)
        return e;
    return parse_actions(json_object_get(input, "actions"), doc, msg, msg_size);
}

/* A wall that is not the 136 tiles: the first kind dealt other than four times. */
static bool wall_is_whole(const uint8_t wall[MJ_TILES], char *msg, size_t msg_size)
{
    int count[MJ_KINDS] = {0};
    for (int i = 0; i < MJ_TILES; i++)
        count[wall[i]]++;
    for (int k = 0; k < MJ_KINDS; k++)
        if (count[k] != MJ_COPIES) {
            snprintf(msg, msg_size, "The wall is not the 136 tiles: \"%s\" (%s) is in it %d time%s, and there are 4.",
                     mj_kind_name(k), mj_kind_zh(k), count[k], count[k] == 1 ? "" : "s");
            return false;
        }
    return true;
}

/* Collects the public event of each action (null for a private one) as the replay goes. */
static bool note_event(void *ctx, const game_hand *hand, size_t index)
{
    if (index == SIZE_MAX)
        return true;
    json_t *event = game_tianjin.last_event(hand);
    json_array_append_new(ctx, event != NULL ? event : json_null());
    return true;
}

/* Which seats still owe a decision, for the message of a replay that stops short. */
static void describe_deciding(const game_hand *hand, char *out, size_t size)
{
    game_decision d[GAME_SEATS];
    int n = game_tianjin.decisions(hand, d);
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < n && used < size; i++) {
        int w = snprintf(out + used, size - used, "%sseat %d (%s)", i == 0 ? "" : ", ", d[i].seat,
                         game_decision_kind_name(d[i].kind));
        used += w > 0 ? (size_t)w : 0;
    }
}

static json_t *replay_answer(const game_hand *hand, json_t *events)
{
    json_t *answer = json_pack("{s:O}", "events", events);
    json_t *result = game_tianjin.result_json(hand);
    if (answer == NULL || result == NULL || json_object_update(answer, result) != 0) {
        json_decref(answer);
        answer = NULL;
    }
    json_decref(result);
    return answer;
}

static json_t *replay_mode(const json_t *input)
{
    char message[MJJ_MESSAGE_SIZE];
    replay_doc doc = {0};
    json_t *answer = NULL, *events = NULL;
    game_hand *hand = NULL;
    mjj_error e = parse_replay(input, &doc, message, sizeof message);
    if (e != MJJ_OK) {
        answer = refusal(e, message);
        goto done;
    }
    if (doc.from_wall && !wall_is_whole(doc.wall, message, sizeof message)) {
        answer = refusal(MJJ_IMPOSSIBLE, message);
        goto done;
    }
    hand = doc.from_wall ? tianjin_hand_from_wall(doc.options, doc.wall, doc.dice, doc.state)
                         : game_tianjin.hand_new(doc.options, doc.seed, doc.state);
    events = json_array();
    if (hand == NULL || events == NULL)
        goto done; /* the shape pass ruled out all but memory */
    game_replay_error err;
    if (!game_replay_actions(&game_tianjin, hand, doc.log, doc.n_actions, note_event, events, &err)) {
        if (strcmp(err.code, "internal") != 0) {
            char *action = json_dumps(doc.log[err.index].action, JSON_COMPACT);
            snprintf(message, sizeof message, "actions[%zu] (seat %d: %.80s) is refused (%s): %.300s", err.index,
                     doc.log[err.index].seat, action != NULL ? action : "", err.code, err.message);
            free(action);
            answer = refusal(MJJ_ILLEGAL_ACTION, message);
        }
        goto done;
    }
    if (!game_tianjin.is_over(hand)) {
        char deciding[160];
        describe_deciding(hand, deciding, sizeof deciding);
        snprintf(message, sizeof message,
                 "The actions end before the hand is over: %s still owe%s a decision; a replay plays the whole hand.",
                 deciding, strchr(deciding, ',') != NULL ? "" : "s");
        answer = refusal(MJJ_ILLEGAL_ACTION, message);
        goto done;
    }
    answer = replay_answer(hand, events);
done:
    if (hand != NULL)
        game_tianjin.hand_free(hand);
    json_decref(events);
    replay_doc_free(&doc);
    return answer;
}

json_t *score_mj_run(const json_t *input)
{
    const json_t *mode = json_object_get(input, "mode");
    const char *text = json_string_value(mode);
    if (mode == NULL)
        return refusal(MJJ_BAD_REQUEST, "The document has no \"mode\"; it is \"score\", \"settle\" or \"replay\".");
    if (text != NULL && strcmp(text, "score") == 0)
        return score_mode(input);
    if (text != NULL && strcmp(text, "settle") == 0)
        return settle_mode(input);
    if (text != NULL && strcmp(text, "replay") == 0)
        return replay_mode(input);
    return refusal(MJJ_BAD_REQUEST, "mode must be \"score\", \"settle\" or \"replay\" for game \"tianjin\".");
}
