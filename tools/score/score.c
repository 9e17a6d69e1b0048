/*
 * score — the two Tien Gow modes of the score calculator (rules/tiengow.md §8) on top of tg_json
 * and the engine; a document whose game is "tianjin" goes to score_mj. A Tien Gow document is read
 * in three passes so the error code follows §8's precedence:
 *   1. shape (bad_request): keys, JSON types, ranges, tile names, every action's form;
 *   2. possibility (impossible): the 32 tiles, or a settle outcome the rules exclude;
 *   3. play (illegal_action): the actions replayed one by one through Tien Gow's game_ops by the
 *      house's one replay helper (game_replay.h), as the rooms and history replay a hand.
 *
 * Decisions where §8 leaves room (also in the report and README):
 *  - a play or discard listing 0 or more than 4 tiles is well-formed, so it is an illegal_action
 *    (the engine's wrong_count), while a non-list, a non-string tile or an unknown tile name is a
 *    bad_request;
 *  - a seat, banker or winner outside 0..3, a multiplier above 1,000,000 or a stake above
 *    1,000,000 is "out of range", a bad_request (the caps keep every amount far from overflow);
 *  - an object that repeats a key is not the documented shape: bad_request;
 *  - tiles in a written play are in tile-name order, whatever order the action listed them in.
 */
#include "score.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game_replay.h"
#include "score_mj.h"
#include "text.h"
#include "tg_json.h"
#include "tiengow/game_tiengow.h"

typedef enum { MODE_SETTLE = 0, MODE_REPLAY = 1 } score_mode;

/* A document that has passed the shape pass. */
typedef struct score_request {
    score_mode mode;
    tg_options options;
    int64_t stake;
    int banker;
    uint32_t multiplier;
    /* settle mode */
    tg_outcome outcome;
    /* replay mode */
    uint8_t deal[TG_SEATS][TG_HAND_TILES];
    const json_t *actions; /* borrowed from the input; every element is a well-formed action */
} score_request;

/* The keys a document of each mode has, all required but "options". */
static const char *const COMMON_KEYS[] = {"mode", "game", "options", "banker", "multiplier"};
static const char *const SETTLE_KEYS[] = {"stacks", "winner", "endings", "qin"};
static const char *const REPLAY_KEYS[] = {"hands", "actions"};
#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

typedef struct score_problem {
    tgj_error code;
    char message[TGJ_MESSAGE_SIZE];
} score_problem;

json_t *score_error(const char *code, const char *message)
{
    char *valid = strdup(message); /* a quoted cut may leave invalid UTF-8: see text.h */
    if (valid == NULL)
        return NULL;
    text_make_utf8(valid);
    json_t *error = json_pack("{s:{s:s, s:s}}", "error", "code", code, "message", valid);
    free(valid);
    return error;
}

bool score_is_error(const json_t *answer) { return json_object_get(answer, "error") != NULL; }

static json_t *problem_to_json(const score_problem *p) { return score_error(tgj_error_name(p->code), p->message); }

static tgj_error refuse(score_problem *p, tgj_error code, const char *message)
{
    p->code = code;
    snprintf(p->message, sizeof p->message, "%s", message);
    return code;
}

/* --- pass 1: shape --- */

static bool listed(const char *key, const char *const *keys, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(key, keys[i]) == 0)
            return true;
    return false;
}

static tgj_error parse_mode(const json_t *input, score_mode *mode, score_problem *p)
{
    const json_t *value = json_object_get(input, "mode");
    if (value == NULL)
        return refuse(p, TGJ_BAD_REQUEST, "The document has no \"mode\"; it is \"settle\" or \"replay\".");
    const char *text = json_string_value(value);
    if (text != NULL && strcmp(text, "settle") == 0)
        *mode = MODE_SETTLE;
    else if (text != NULL && strcmp(text, "replay") == 0)
        *mode = MODE_REPLAY;
    else
        return refuse(p, TGJ_BAD_REQUEST, "mode must be \"settle\" or \"replay\".");
    return TGJ_OK;
}

/* No key but those of the mode, and every required one of them. */
static tgj_error check_keys(const json_t *input, score_mode mode, score_problem *p)
{
    const char *const *own = mode == MODE_SETTLE ? SETTLE_KEYS : REPLAY_KEYS;
    size_t n_own = mode == MODE_SETTLE ? COUNT(SETTLE_KEYS) : COUNT(REPLAY_KEYS);
    const char *key;
    json_t *value;
    json_object_foreach ((json_t *)input, key, value) {
        if (!listed(key, COMMON_KEYS, COUNT(COMMON_KEYS)) && !listed(key, own, n_own)) {
            p->code = TGJ_BAD_REQUEST;
            snprintf(p->message, sizeof p->message, "The document has an unknown key \"%.40s\" for %s mode.", key,
                     mode == MODE_SETTLE ? "settle" : "replay");
            return p->code;
        }
    }
    for (size_t i = 0; i < COUNT(COMMON_KEYS) + n_own; i++) {
        const char *required = i < COUNT(COMMON_KEYS) ? COMMON_KEYS[i] : own[i - COUNT(COMMON_KEYS)];
        if (strcmp(required, "options") != 0 && json_object_get(input, required) == NULL) {
            p->code = TGJ_BAD_REQUEST;
            snprintf(p->message, sizeof p->message, "The document has no \"%s\"; %s mode needs it.", required,
                     mode == MODE_SETTLE ? "settle" : "replay");
            return p->code;
        }
    }
    return TGJ_OK;
}

/* game, options, banker, multiplier: the keys every mode shares. */
static tgj_error parse_common(const json_t *input, score_request *r, score_problem *p)
{
    const char *game = json_string_value(json_object_get(input, "game"));
    if (game == NULL || strcmp(game, "tiengow") != 0)
        return refuse(p, TGJ_BAD_REQUEST,
                      "game must be \"tiengow\" or \"tianjin\", the games the calculator knows.");
    tgj_error e = tgj_parse_options(json_object_get(input, "options"), &r->options, &r->stake, p->message,
                                    sizeof p->message);
    if (e == TGJ_OK)
        e = tgj_parse_seat(json_object_get(input, "banker"), "banker", &r->banker, p->message, sizeof p->message);
    if (e == TGJ_OK)
        e = tgj_parse_multiplier(json_object_get(input, "multiplier"), "multiplier", &r->multiplier, p->message,
                                 sizeof p->message);
    return p->code = e;
}

/* qin: null, or {"captured":S}. */
static tgj_error parse_qin(const json_t *value, int *captured, score_problem *p)
{
    *captured = -1;
    if (json_is_null(value))
        return TGJ_OK;
    if (!json_is_object(value) || json_object_size(value) != 1 || json_object_get(value, "captured") == NULL)
        return refuse(p, TGJ_BAD_REQUEST, "qin must be null or {\"captured\":S}, S the seat that led the 丁三.");
    return p->code = tgj_parse_seat(json_object_get(value, "captured"), "qin.captured", captured, p->message,
                                    sizeof p->message);
}

static tgj_error parse_settle(const json_t *input, score_request *r, score_problem *p)
{
    tg_outcome *o = &r->outcome;
    int winner, captured;
    memset(o, 0, sizeof *o);
    tgj_error e = tgj_parse_stacks(json_object_get(input, "stacks"), "stacks", o->stacks, p->message,
                                   sizeof p->message);
    if (e == TGJ_OK)
        e = tgj_parse_seat(json_object_get(input, "winner"), "winner", &winner, p->message, sizeof p->message);
    if (e == TGJ_OK)
        e = tgj_parse_endings(json_object_get(input, "endings"), "endings", &o->endings, p->message,
                              sizeof p->message);
    if ((p->code = e) != TGJ_OK)
        return e;
    e = parse_qin(json_object_get(input, "qin"), &captured, p);
    if (e != TGJ_OK)
        return e;
    o->banker = (uint8_t)r->banker;
    o->multiplier = r->multiplier;
    o->winner = (uint8_t)winner;
    o->qin_captured = (int8_t)captured;
    if (captured >= 0)
        o->endings |= TG_END_QIN;
    return TGJ_OK;
}

static tgj_error parse_replay(const json_t *input, score_request *r, score_problem *p)
{
    tgj_error e = tgj_parse_hands(json_object_get(input, "hands"), r->deal, p->message, sizeof p->message);
    if ((p->code = e) != TGJ_OK)
        return e;
    const json_t *actions = json_object_get(input, "actions");
    if (!json_is_array(actions))
        return refuse(p, TGJ_BAD_REQUEST, "actions must be a list of actions.");
    for (size_t i = 0; i < json_array_size(actions); i++) {
        char where[32];
        tgj_action action;
        snprintf(where, sizeof where, "actions[%zu]", i);
        e = tgj_parse_action(json_array_get(actions, i), where, &action, p->message, sizeof p->message);
        if ((p->code = e) != TGJ_OK)
            return e;
    }
    r->actions = actions;
    return TGJ_OK;
}

static tgj_error parse_request(const json_t *input, score_request *r, score_problem *p)
{
    memset(r, 0, sizeof *r);
    if (!json_is_object(input))
        return refuse(p, TGJ_BAD_REQUEST, "The document must be a JSON object.");
    tgj_error e = parse_mode(input, &r->mode, p);
    if (e == TGJ_OK)
        e = check_keys(input, r->mode, p);
    if (e == TGJ_OK)
        e = parse_common(input, r, p);
    if (e == TGJ_OK)
        e = r->mode == MODE_SETTLE ? parse_settle(input, r, p) : parse_replay(input, r, p);
    return e;
}

/* The answer once every key is set; NULL (memory ran out) if any was not. */
static json_t *complete(json_t *answer, int failed)
{
    if (failed) {
        json_decref(answer);
        return NULL;
    }
    return answer;
}

/* --- settle mode --- */

static json_t *settle(const score_request *r, score_problem *p)
{
    tg_status status = tg_outcome_check(&r->outcome);
    if (status != TG_OK) {
        refuse(p, TGJ_IMPOSSIBLE, tg_status_message(status));
        return NULL;
    }
    tg_settlement settlement;
    tg_settle(&r->options, &r->outcome, &settlement);
    json_t *answer = json_object();
    if (answer == NULL)
        return NULL;
    int failed = json_object_set_new(answer, "payments", tgj_payments_to_json(&settlement, r->stake));
    failed |= json_object_set_new(answer, "net", tgj_net_to_json(settlement.net, r->stake));
    return complete(answer, failed);
}

/* --- replay mode --- */

/* Which tile the four hands hold the wrong number of, for the impossible message. */
static void describe_bad_deal(const uint8_t deal[TG_SEATS][TG_HAND_TILES], score_problem *p)
{
    int count[TG_KINDS] = {0};
    for (int s = 0; s < TG_SEATS; s++)
        for (int i = 0; i < TG_HAND_TILES; i++)
            count[deal[s][i]]++;
    for (int k = 0; k < TG_KINDS; k++)
        if (count[k] != tg_tile(k)->copies) {
            char name[4];
            tg_tile_format(k, name);
            p->code = TGJ_IMPOSSIBLE;
            snprintf(p->message, sizeof p->message,
                     "The four hands are not exactly the 32 tiles: \"%s\" is dealt %d time%s, and the set has %d.",
                     name, count[k], count[k] == 1 ? "" : "s", tg_tile(k)->copies);
            return;
        }
}

/* The illegal_action message: the action's index, its seat and what it tried, and why not. */
static void refuse_action(score_problem *p, size_t index, const tgj_action *action, const char *why)
{
    char tried[160];
    tgj_describe_action(action, tried, sizeof tried);
    p->code = TGJ_ILLEGAL_ACTION;
    snprintf(p->message, sizeof p->message, "actions[%zu] (%s) is refused: %s", index, tried, why);
}

/* Refuses action `index` as the engine did (code and sentence), the state being the hand before
 * it: a turn names the seat to act, an action after the end says so. */
static void refuse_replayed(score_problem *p, const json_t *actions, size_t index, const tg_state *state,
                            const game_replay_error *err)
{
    tgj_action action;
    char unused[TGJ_MESSAGE_SIZE];
    tgj_parse_action(json_array_get(actions, index), "action", &action, unused, sizeof unused);
    /* The engine's sentences are under 100 bytes (tg_status.c): the precision never cuts one. */
    char why[TGJ_MESSAGE_SIZE / 2];
    if (strcmp(err->code, tg_status_name(TG_ERR_NOT_YOUR_TURN)) == 0)
        snprintf(why, sizeof why, "%.200s Seat %d is to act.", err->message, state->to_act);
    else if (strcmp(err->code, tg_status_name(TG_ERR_HAND_OVER)) == 0)
        snprintf(why, sizeof why, "it comes after the final trick. %.200s", err->message);
    else
        snprintf(why, sizeof why, "%.200s", err->message);
    refuse_action(p, index, &action, why);
}

/* Every action as the game takes it: the seat apart, the action without it (a new reference
 * each, NULL when memory runs out). */
static bool log_actions(const json_t *actions, game_logged_action *log)
{
    for (size_t i = 0; i < json_array_size(actions); i++) {
        const json_t *given = json_array_get(actions, i);
        json_t *action = json_copy((json_t *)given);
        log[i] = (game_logged_action){.seat = (int)json_integer_value(json_object_get(given, "seat")),
                                      .action = action};
        if (action == NULL || json_object_del(action, "seat") != 0)
            return false;
    }
    return true;
}

static void free_log(game_logged_action *log, size_t n)
{
    for (size_t i = 0; i < n; i++)
        json_decref((json_t *)log[i].action);
    free(log);
}

/* Plays the well-formed actions through the game; false with the problem written when the rules
 * refuse one (problem untouched when memory ran out). */
static bool replay_actions(game_hand *hand, const json_t *actions, score_problem *p)
{
    size_t n = json_array_size(actions);
    game_logged_action *log = calloc(n > 0 ? n : 1, sizeof *log);
    if (log == NULL)
        return false;
    bool ok = log_actions(actions, log);
    game_replay_error err;
    if (ok && !game_replay_actions(&game_tiengow, hand, log, n, NULL, NULL, &err)) {
        ok = false;
        if (strcmp(err.code, "internal") != 0)
            refuse_replayed(p, actions, err.index, tiengow_hand_state(hand), &err);
    }
    free_log(log, n);
    return ok;
}

static json_t *replay_answer(const tg_state *state, int64_t stake)
{
    const tg_result *result = &state->result;
    json_t *answer = json_object();
    if (answer == NULL)
        return NULL;
    int failed = json_object_set_new(answer, "tricks", tgj_tricks_to_json(state->tricks, state->n_tricks));
    failed |= json_object_set_new(answer, "bonuses", tgj_bonuses_to_json(state->bonuses, state->n_bonuses, stake));
    failed |= json_object_set_new(answer, "stacks", tgj_stacks_to_json(result->stacks));
    failed |= json_object_set_new(answer, "winner", json_integer(result->winner));
    failed |= json_object_set_new(answer, "endings", tgj_endings_to_json(result->endings));
    failed |= json_object_set_new(answer, "payments", tgj_payments_to_json(&result->settlement, stake));
    failed |= json_object_set_new(answer, "net", tgj_net_to_json(result->net, stake));
    failed |= json_object_set_new(answer, "next_banker", json_integer(result->next_banker));
    failed |= json_object_set_new(answer, "next_multiplier", json_integer(result->next_multiplier));
    return complete(answer, failed);
}

static json_t *replay(const score_request *r, score_problem *p)
{
    if (tg_check_deal(r->deal) != TG_OK) {
        describe_bad_deal(r->deal, p);
        return NULL;
    }
    tg_status status;
    game_hand *hand = tiengow_hand_from_deal(&r->options, r->stake, r->banker, r->multiplier, r->deal, &status);
    if (hand == NULL) {
        if (status != TG_OK) /* the shape pass already ruled these out */
            refuse(p, TGJ_BAD_REQUEST, tg_status_message(status));
        return NULL;
    }
    const tg_state *state = tiengow_hand_state(hand);
    json_t *answer = NULL;
    if (state->natural_seat >= 0 && json_array_size(r->actions) > 0) {
        tgj_action action;
        char unused[TGJ_MESSAGE_SIZE], why[TGJ_MESSAGE_SIZE / 2];
        tgj_parse_action(json_array_get(r->actions, 0), "action", &action, unused, sizeof unused);
        snprintf(why, sizeof why,
                 "seat %d holds a natural hand (例牌), which ends the hand before any action; actions must be [].",
                 state->natural_seat);
        refuse_action(p, 0, &action, why);
    } else if (!replay_actions(hand, r->actions, p)) {
        /* refused, or memory ran out */
    } else if (!tg_is_over(state)) {
        p->code = TGJ_ILLEGAL_ACTION;
        snprintf(p->message, sizeof p->message,
                 "The actions end before the final trick: seat %d is to act in trick %d; a replay plays the whole hand.",
                 state->to_act, tg_open_trick(state) != NULL ? state->n_tricks : state->n_tricks + 1);
    } else {
        answer = replay_answer(state, r->stake);
    }
    game_tiengow.hand_free(hand);
    return answer;
}

/* --- entry points --- */

/* True for a document of Tianjin Mahjong (rules/tianjin-mahjong.md §7); every other document is
 * Tien Gow's, refused by its rules if it is no Tien Gow document either. */
static bool is_tianjin(const json_t *input)
{
    const char *game = json_string_value(json_object_get(input, "game"));
    return json_is_object(input) && game != NULL && strcmp(game, "tianjin") == 0;
}

json_t *score_run(const json_t *input)
{
    if (is_tianjin(input))
        return score_mj_run(input);
    score_request request;
    score_problem problem = {.code = TGJ_OK, .message = ""};
    if (parse_request(input, &request, &problem) != TGJ_OK)
        return problem_to_json(&problem);
    json_t *answer = request.mode == MODE_SETTLE ? settle(&request, &problem) : replay(&request, &problem);
    if (answer == NULL && problem.code != TGJ_OK)
        return problem_to_json(&problem);
    return answer;
}

char *score_run_text(const char *text, size_t length, bool *is_error)
{
    json_error_t error;
    json_t *answer;
    /* Only an object or a list is accepted at the top (jansson's default); a repeated key is refused. */
    json_t *input = json_loadb(text, length, JSON_REJECT_DUPLICATES, &error);
    if (input == NULL) {
        char message[TGJ_MESSAGE_SIZE];
        snprintf(message, sizeof message, "The input is not one JSON document: %s (line %d, column %d).", error.text,
                 error.line, error.column);
        answer = score_error(tgj_error_name(TGJ_BAD_REQUEST), message);
    } else {
        answer = score_run(input);
        json_decref(input);
    }
    if (answer == NULL)
        return NULL;
    *is_error = score_is_error(answer);
    char *out = json_dumps(answer, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(answer);
    return out;
}
