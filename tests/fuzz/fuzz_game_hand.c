/*
 * fuzz_game_hand — one Tien Gow hand behind the game interface (games/game.h), driven by a
 * sequence of arbitrary JSON actions for arbitrary seats.
 *
 * The input is lines of text:
 *   line 1   the table options as JSON (empty, or refused by options_parse: all defaults)
 *   line 2   "SEED BANKER MULTIPLIER" in decimal (banker taken mod 4, multiplier into 2..1,000,000):
 *            the table state {"banker":B,"multiplier":M}
 *   then     one action a line: a seat character ('0'-'9', with 4-9 out of range, '-' for the
 *            spectator seat -1, '*' for the seat to act; any other byte is a seat mod 4), then
 *              !         the bot's action for the seat to act, sent as this seat's
 *              pDIGITS   a play of the tiles at those positions of this seat's hand (of the seat
 *              dDIGITS   to act's hand for a seat that has none): real tiles, legal or not
 *              anything  else: JSON, sent as it is
 * so mutations reach deep into a hand while most actions stay hostile. Only the first 128
 * action lines count, and 4 after the hand is over.
 *
 * Promises checked (game.h, rules/tiengow.md §3-§4): act never crashes; a refused action has a
 * code and a sentence and changes nothing that any seat, a spectator or an admin can see, nor
 * who decides, nor the last event; exactly one seat decides (its turn) until the hand is over,
 * only that seat is ever accepted, and a hand accepts at most 32 actions (each plays or discards
 * at least one of the 32 tiles); the bot's action for the deciding seat is accepted; the last
 * event is never private; a seat's view shows its own tiles only (as many as it holds; a
 * spectator none), which are the admin view's tiles for that seat; a finished hand has a
 * zero-sum result and a next table state a hand starts from; game_replay of the same options,
 * seed, table state and accepted actions rebuilds the same hand.
 */
#include <jansson.h>

#include "fuzz.h"
#include "game.h"
#include "game_replay.h"

#define MAX_ACCEPTED 32
#define MAX_LINES 128
#define MAX_LINES_AFTER_OVER 4
#define MAX_MULTIPLIER 1000000

typedef struct session {
    json_t *options; /* as stored by options_parse */
    uint64_t seed;
    json_t *state;    /* the table state the hand started from */
    game_hand *hand;
    json_t *accepted; /* [[seat, action], …] in order */
    json_t *seen;     /* what is visible now: see visible_state */
} session;

/* The seat that decides, checking that there is exactly one (its turn) until the hand is over;
 * -1 after it. */
static int to_act(const game_hand *hand)
{
    game_decision decisions[GAME_SEATS];
    int n = game_tiengow.decisions(hand, decisions);
    FUZZ_CHECK(n == (game_tiengow.is_over(hand) ? 0 : 1), "%d seats decide", n);
    if (n == 0)
        return -1;
    FUZZ_CHECK(decisions[0].kind == GAME_DECISION_TURN && decisions[0].seat >= 0 && decisions[0].seat < GAME_SEATS,
               "a decision of kind %d for seat %d", (int)decisions[0].kind, decisions[0].seat);
    return decisions[0].seat;
}

/* Everything a refused action must leave as it was: each seat's view, the spectator's and the
 * admin's, who decides, whether the hand is over, and the record of the last accepted action. */
static json_t *visible_state(const game_hand *hand)
{
    json_t *views = json_array();
    for (int seat = GAME_SPECTATOR; seat < GAME_SEATS; seat++)
        json_array_append_new(views, game_tiengow.view(hand, seat));
    json_t *last = game_tiengow.last_event(hand);
    FUZZ_CHECK(last != NULL, "a Tien Gow action is private");
    return json_pack("{s:o, s:o, s:i, s:b, s:o}", "views", views, "admin", game_tiengow.view_admin(hand), "to_act",
                     to_act(hand), "over", game_tiengow.is_over(hand), "last", last);
}

static const json_t *view_of(const json_t *seen, int seat)
{
    return json_array_get(json_object_get(seen, "views"), (size_t)(seat + 1));
}

/* A view shows its seat's own tiles, as many as it holds and the same as the admin's view of
 * that seat, and a spectator's shows none. */
static void check_views(const json_t *seen)
{
    const json_t *spectator = view_of(seen, GAME_SPECTATOR);
    const json_t *admin = json_object_get(seen, "admin");
    FUZZ_CHECK(json_is_null(json_object_get(spectator, "hand")), "a spectator sees a hand");
    for (int seat = 0; seat < GAME_SEATS; seat++) {
        const json_t *view = view_of(seen, seat);
        size_t holds = (size_t)json_integer_value(json_array_get(json_object_get(view, "held"), (size_t)seat));
        FUZZ_CHECK(json_array_size(json_object_get(view, "hand")) == holds, "seat %d sees %zu tiles, holds %zu",
                   seat, json_array_size(json_object_get(view, "hand")), holds);
        FUZZ_CHECK(json_equal(json_object_get(view, "hand"),
                              json_array_get(json_object_get(admin, "hands"), (size_t)seat)),
                   "seat %d's tiles differ from the admin's view of them", seat);
    }
}

static void check_finished(const game_hand *hand)
{
    game_result result;
    game_tiengow.result(hand, &result);
    int64_t sum = 0;
    for (int s = 0; s < GAME_SEATS; s++)
        sum += result.net[s];
    FUZZ_CHECK(sum == 0, "the hand's net sums to %lld", (long long)sum);
    FUZZ_CHECK(result.winner >= 0 && result.winner < GAME_SEATS, "winner %d", result.winner);
    json_t *record = game_tiengow.result_json(hand);
    FUZZ_CHECK(json_is_object(record), "no result record");
    json_decref(record);
    json_t *next = game_tiengow.next_table_state(hand);
    json_int_t banker = json_integer_value(json_object_get(next, "banker"));
    FUZZ_CHECK(banker >= 0 && banker < GAME_SEATS, "next banker %lld", (long long)banker);
    FUZZ_CHECK(json_integer_value(json_object_get(next, "multiplier")) >= 2, "next multiplier below 2");
    char msg[GAME_MESSAGE_SIZE];
    json_t *options = game_tiengow.options_parse(NULL, msg, sizeof msg);
    game_hand *following = game_tiengow.hand_new(options, 1, next);
    FUZZ_CHECK(following != NULL, "no hand starts from the next table state");
    game_tiengow.hand_free(following);
    json_decref(options);
    json_decref(next);
}

/* --- reading the input --- */

static void read_header(session *s, const uint8_t **cursor, const uint8_t *end)
{
    size_t length = 0;
    const uint8_t *line = fuzz_next_line(cursor, end, &length);
    char msg[GAME_MESSAGE_SIZE];
    json_t *given = line != NULL && length > 0 ? json_loadb((const char *)line, length, JSON_DECODE_ANY, NULL) : NULL;
    s->options = given != NULL ? game_tiengow.options_parse(given, msg, sizeof msg) : NULL;
    if (s->options == NULL)
        s->options = game_tiengow.options_parse(NULL, msg, sizeof msg);
    FUZZ_CHECK(s->options != NULL, "the default options are refused: %s", msg);
    json_decref(given);

    char numbers[64] = "";
    line = fuzz_next_line(cursor, end, &length);
    if (line != NULL)
        memcpy(numbers, line, length < sizeof numbers - 1 ? length : sizeof numbers - 1);
    char *next = numbers;
    s->seed = strtoull(next, &next, 10);
    int banker = (int)(strtoull(next, &next, 10) % GAME_SEATS);
    uint32_t multiplier = (uint32_t)(2 + strtoull(next, &next, 10) % (MAX_MULTIPLIER - 1));
    s->state = json_pack("{s:i, s:I}", "banker", banker, "multiplier", (json_int_t)multiplier);
}

static int read_seat(uint8_t c, const game_hand *hand)
{
    if (c == '*')
        return game_tiengow.is_over(hand) ? 0 : to_act(hand);
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c == '-')
        return GAME_SPECTATOR;
    return c % GAME_SEATS;
}

/* {"play"|"discard": [the tiles at the listed positions of the hand]}. */
static json_t *action_from_hand(const json_t *hand, uint8_t kind, const uint8_t *digits, size_t n)
{
    json_t *tiles = json_array();
    for (size_t i = 0; i < n && i < 8; i++)
        if (digits[i] >= '0' && digits[i] <= '9' && json_array_size(hand) > 0)
            json_array_append(tiles, json_array_get(hand, (digits[i] - '0') % json_array_size(hand)));
    return json_pack("{s:o}", kind == 'p' ? "play" : "discard", tiles);
}

/* The action a line stands for (a new reference), or NULL to skip the line. */
static json_t *action_of_line(const session *s, int seat, const uint8_t *text, size_t length)
{
    int deciding = to_act(s->hand);
    if (length == 1 && text[0] == '!')
        return deciding >= 0 ? game_tiengow.bot_action(s->hand, deciding) : NULL;
    if (length >= 1 && (text[0] == 'p' || text[0] == 'd')) {
        int owner = seat >= 0 && seat < GAME_SEATS ? seat : deciding >= 0 ? deciding : 0;
        const json_t *hand = json_object_get(view_of(s->seen, owner), "hand");
        return action_from_hand(hand, text[0], text + 1, length - 1);
    }
    return json_loadb((const char *)text, length, JSON_DECODE_ANY, NULL);
}

/* --- playing --- */

static void play_line(session *s, const uint8_t *line, size_t length)
{
    int seat = read_seat(line[0], s->hand);
    json_t *action = action_of_line(s, seat, line + 1, length - 1);
    if (action == NULL)
        return;
    int deciding = to_act(s->hand);
    bool bot_move = length == 2 && line[1] == '!';
    char msg[GAME_MESSAGE_SIZE];
    memset(msg, 'x', sizeof msg);
    const char *error = game_tiengow.act(s->hand, seat, action, msg, sizeof msg);
    json_t *now = visible_state(s->hand);
    if (error != NULL) {
        FUZZ_CHECK(error[0] != '\0' && memchr(msg, '\0', sizeof msg) != NULL && msg[0] != '\0',
                   "a refusal without a code or a sentence");
        FUZZ_CHECK(FUZZ_KNOWN_ERROR_TEXT_NOT_UTF8 || fuzz_valid_utf8(msg), "a refusal's sentence is not UTF-8");
        FUZZ_CHECK(!(bot_move && seat == deciding), "the bot's action for seat %d is refused: %s (%s)", seat, error,
                   msg);
        FUZZ_CHECK(json_equal(now, s->seen), "refused action (%s) changed the hand", error);
        json_decref(now);
        json_decref(action);
        return;
    }
    FUZZ_CHECK(seat == deciding, "seat %d acted while seat %d was to act", seat, deciding);
    FUZZ_CHECK(json_array_size(s->accepted) < MAX_ACCEPTED, "more than %d actions accepted", MAX_ACCEPTED);
    const json_t *last = json_object_get(now, "last");
    FUZZ_CHECK(json_integer_value(json_object_get(last, "seat")) == seat, "the last event is not seat %d's", seat);
    json_array_append_new(s->accepted, json_pack("[i, O]", seat, action));
    json_decref(s->seen);
    s->seen = now;
    check_views(s->seen);
    json_decref(action);
}

/* The same options, seed, table state and accepted actions make the same hand (game_replay). */
static void check_replay(const session *s)
{
    game_logged_action log[MAX_ACCEPTED];
    size_t i;
    const json_t *step;
    json_array_foreach (s->accepted, i, step)
        log[i] = (game_logged_action){.seat = (int)json_integer_value(json_array_get(step, 0)),
                                      .action = json_array_get(step, 1)};
    game_replay_error err;
    game_hand *again = game_replay(&game_tiengow, s->options, s->seed, s->state, log, json_array_size(s->accepted),
                                   NULL, NULL, &err);
    FUZZ_CHECK(again != NULL, "replayed action %zu is refused: %s (%s)", err.index, err.code, err.message);
    json_t *rebuilt = visible_state(again);
    FUZZ_CHECK(json_equal(rebuilt, s->seen), "the replayed hand differs");
    json_decref(rebuilt);
    game_tiengow.hand_free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *cursor = data, *end = data + size;
    session s = {0};
    read_header(&s, &cursor, end);
    s.hand = game_tiengow.hand_new(s.options, s.seed, s.state);
    FUZZ_CHECK(s.hand != NULL, "no hand from seed %llu", (unsigned long long)s.seed);
    s.accepted = json_array();
    s.seen = visible_state(s.hand);
    check_views(s.seen);

    /* Bounded so one input stays cheap: a whole hand is 32 accepted actions, and once it is
     * over a few refused ones say all there is to say. */
    size_t length;
    const uint8_t *line;
    int lines = 0, after_over = 0;
    while ((line = fuzz_next_line(&cursor, end, &length)) != NULL && lines < MAX_LINES &&
           after_over < MAX_LINES_AFTER_OVER) {
        if (length == 0)
            continue;
        lines++;
        after_over += game_tiengow.is_over(s.hand);
        play_line(&s, line, length);
    }

    if (game_tiengow.is_over(s.hand)) {
        FUZZ_CHECK(to_act(s.hand) == -1, "a finished hand has a seat to act");
        check_finished(s.hand);
    }
    check_replay(&s);
    json_decref(s.seen);
    json_decref(s.accepted);
    game_tiengow.hand_free(s.hand);
    json_decref(s.state);
    json_decref(s.options);
    return 0;
}
