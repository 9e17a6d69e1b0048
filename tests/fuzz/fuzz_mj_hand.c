/*
 * fuzz_mj_hand — one Tianjin hand behind the game interface (games/tianjin), from the banker's
 * decision to sit to the settlement, driven by a sequence of arbitrary actions for arbitrary seats.
 *
 * The input is lines of text:
 *   line 1   the table options as JSON (empty, or refused by options_parse: all defaults)
 *   line 2   "SEED BANKER COUNT MUST_SIT" in decimal (banker mod 4, count into 1..1,000,000,
 *            must_sit odd or even): the table state {"banker":B,"count":C,"must_sit":M}
 *   then     either "#K": K steps (at most 64) each made by the first deciding seat with the bot's
 *            action, or the timeout's when the bot waits; or one action a line: a seat character
 *            ('0'-'9', with 4-9 out of range, '-' for the spectator seat -1, '*' for the first
 *            deciding seat; any other byte is a seat mod 4), then
 *              !         the bot's action for that seat, else the timeout's
 *              dN kN aN  a discard, concealed kong or added kong of the tile at position N of that
 *                        seat's own hand (the first deciding seat's for a seat that has none)
 *              anything  else: JSON, sent as it is
 * so a few lines reach any point of a hand while most actions stay hostile. Only the first 160
 * lines and 600 steps count, and 4 lines after the hand is over.
 *
 * Promises checked (game.h, rules/tianjin-mahjong.md, PROTOCOL.md "Tianjin"): act never crashes;
 * a refused action has a code and a sentence and changes nothing that any seat, a spectator or an
 * admin can see, nor who decides, nor the last event; only a deciding seat is accepted; the bot's
 * and the timeout's actions are accepted; a private decision (a pull or a pass) changes nothing
 * another seat or a spectator sees; in a claim window the three other seats owe a claim decision
 * of claim_seconds, and only they; otherwise one seat's turn, or the pre-hand decisions; every view
 * is the shared view plus its own part, with the seat's own tiles as the admin view has them and a
 * spectator's none; the 136 tiles are all somewhere; a finished hand has a result whose lines sum to
 * zero by reason and to its net, and a next table state a hand starts from; game_replay of the same
 * options, seed, table state and accepted actions rebuilds the same hand.
 */
#include <jansson.h>

#include "fuzz.h"
#include "game.h"
#include "game_replay.h"
#include "mj_tiles.h"
#include "tianjin/game_tianjin.h"

#define MAX_LINES 160
#define MAX_STEPS 600
#define MAX_AUTO 64
#define MAX_LINES_AFTER_OVER 4
#define MAX_COUNT 1000000

static const game_ops *const GAME = &game_tianjin;

typedef struct session {
    json_t *options;
    uint64_t seed;
    json_t *state;
    game_hand *hand;
    json_t *accepted; /* [[seat, action], …] */
    json_t *seen;     /* everything visible now: see visible_state */
    int steps;
} session;

static int deciding(const game_hand *hand, game_decision d[GAME_SEATS])
{
    int n = GAME->decisions(hand, d);
    FUZZ_CHECK(n >= 0 && n <= GAME_SEATS, "%d decisions", n);
    return n;
}

/* Who decides, checked against the engine: the pre-hand, a window of the three other seats, or
 * one turn. */
static void check_decisions(const game_hand *hand, int claim_seconds)
{
    game_decision d[GAME_SEATS];
    int n = deciding(hand, d);
    const mj_hand *h = tianjin_hand_engine(hand);
    if (GAME->is_over(hand)) {
        FUZZ_CHECK(n == 0, "a finished hand has %d decisions", n);
        return;
    }
    FUZZ_CHECK(n > 0, "a hand in play with nobody deciding");
    bool window = d[0].kind == GAME_DECISION_CLAIM;
    for (int i = 0; i < n; i++) {
        FUZZ_CHECK(d[i].seat >= 0 && d[i].seat < GAME_SEATS && (i == 0 || d[i].seat > d[i - 1].seat),
                   "decisions not in seat order");
        FUZZ_CHECK(d[i].kind == d[0].kind, "decisions of two kinds at once");
        if (window) {
            FUZZ_CHECK(d[i].seat != h->turn, "the discarder decides in its own window");
            FUZZ_CHECK(d[i].seconds == claim_seconds, "a claim decision of %d seconds", d[i].seconds);
        }
    }
    if (d[0].kind == GAME_DECISION_TURN)
        FUZZ_CHECK(n == 1 && d[0].seat == h->turn && h->phase == MJ_PHASE_TURN, "a turn that is not the engine's");
    if (window)
        FUZZ_CHECK(h->phase == MJ_PHASE_CLAIM || h->phase == MJ_PHASE_WINDOW, "a window the engine is not in");
}

static json_t *visible_state(const game_hand *hand)
{
    json_t *views = json_array();
    for (int seat = GAME_SPECTATOR; seat < GAME_SEATS; seat++)
        json_array_append_new(views, GAME->view(hand, seat));
    game_decision d[GAME_SEATS];
    int n = deciding(hand, d);
    json_t *owed = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(owed, json_pack("[i,i,i]", d[i].seat, (int)d[i].kind, d[i].seconds));
    json_t *last = GAME->last_event(hand);
    return json_pack("{s:o, s:o, s:o, s:b, s:o}", "views", views, "admin", GAME->view_admin(hand), "deciding", owed,
                     "over", GAME->is_over(hand), "last", last != NULL ? last : json_string("private"));
}

static const json_t *view_of(const json_t *seen, int seat)
{
    return json_array_get(json_object_get(seen, "views"), (size_t)(seat + 1));
}

static void count_tiles(const json_t *value, int count[MJ_KINDS])
{
    if (json_is_string(value)) {
        int k = mj_kind_parse(json_string_value(value));
        FUZZ_CHECK(k >= 0, "a tile list holds \"%s\"", json_string_value(value));
        count[k]++;
        return;
    }
    size_t i;
    const json_t *item;
    json_array_foreach (value, i, item)
        count_tiles(item, count);
}

/* Views: shared part plus own part; own tiles as the admin has them; the 136 tiles kept. */
static void check_views(const game_hand *hand, const json_t *seen)
{
    static const char *const OWN[] = {"seat", "hand", "drawn", "pull", "passed", "legal"};
    const json_t *admin = json_object_get(seen, "admin");
    json_t *shared = GAME->view_shared(hand);
    for (int seat = GAME_SPECTATOR; seat < GAME_SEATS; seat++) {
        json_t *rest = json_deep_copy(view_of(seen, seat));
        for (size_t k = 0; k < sizeof OWN / sizeof OWN[0]; k++) {
            FUZZ_CHECK(json_object_get(rest, OWN[k]) != NULL, "a view without \"%s\"", OWN[k]);
            json_object_del(rest, OWN[k]);
        }
        FUZZ_CHECK(json_equal(rest, shared), "seat %d's view is not the shared view and its own part", seat);
        json_decref(rest);
        const json_t *tiles = json_object_get(view_of(seen, seat), "hand");
        if (seat == GAME_SPECTATOR || json_is_null(json_object_get(shared, "held")))
            FUZZ_CHECK(json_is_null(tiles), "seat %d sees tiles it may not", seat);
        else
            FUZZ_CHECK(json_equal(tiles, json_array_get(json_object_get(admin, "hands"), (size_t)seat)),
                       "seat %d's tiles differ from the admin's view of them", seat);
    }
    json_decref(shared);
    int count[MJ_KINDS] = {0};
    static const char *const PLACES[] = {"hands", "discards", "live_wall", "replacement_wall"};
    for (size_t p = 0; p < sizeof PLACES / sizeof PLACES[0]; p++)
        count_tiles(json_object_get(admin, PLACES[p]), count);
    size_t s;
    const json_t *melds;
    json_array_foreach (json_object_get(admin, "melds"), s, melds) {
        size_t m;
        const json_t *meld;
        json_array_foreach (melds, m, meld)
            count_tiles(json_object_get(meld, "tiles"), count);
    }
    count_tiles(json_object_get(admin, "indicator"), count);
    for (int k = 0; k < MJ_KINDS; k++)
        FUZZ_CHECK(count[k] == MJ_COPIES, "%s is counted %d times", mj_kind_name(k), count[k]);
}

static void check_finished(const game_hand *hand)
{
    game_result result;
    GAME->result(hand, &result);
    int64_t sum = 0, net[GAME_SEATS] = {0};
    for (int i = 0; i < result.n_lines; i++) {
        int64_t reason = 0;
        for (int j = 0; j < result.n_lines; j++)
            if (strcmp(result.lines[i].reason, result.lines[j].reason) == 0)
                reason += result.lines[j].units;
        FUZZ_CHECK(reason == 0, "the lines of %s sum to %lld", result.lines[i].reason, (long long)reason);
        net[result.lines[i].seat] += result.lines[i].units;
    }
    for (int s = 0; s < GAME_SEATS; s++) {
        FUZZ_CHECK(net[s] == result.net[s], "seat %d's lines are not its net", s);
        sum += result.net[s];
    }
    FUZZ_CHECK(sum == 0, "the hand's net sums to %lld", (long long)sum);
    json_t *record = GAME->result_json(hand);
    FUZZ_CHECK(json_is_object(record), "no result record");
    json_decref(record);
    json_t *next = GAME->next_table_state(hand);
    char msg[GAME_MESSAGE_SIZE];
    json_t *options = GAME->options_parse(NULL, msg, sizeof msg);
    game_hand *following = GAME->hand_new(options, 1, next);
    FUZZ_CHECK(following != NULL, "no hand starts from the next table state");
    GAME->hand_free(following);
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
    s->options = given != NULL ? GAME->options_parse(given, msg, sizeof msg) : NULL;
    if (s->options == NULL)
        s->options = GAME->options_parse(NULL, msg, sizeof msg);
    FUZZ_CHECK(s->options != NULL, "the default options are refused: %s", msg);
    json_decref(given);

    char numbers[96] = "";
    line = fuzz_next_line(cursor, end, &length);
    if (line != NULL)
        memcpy(numbers, line, length < sizeof numbers - 1 ? length : sizeof numbers - 1);
    char *next = numbers;
    s->seed = strtoull(next, &next, 10);
    int banker = (int)(strtoull(next, &next, 10) % GAME_SEATS);
    int count = (int)(1 + strtoull(next, &next, 10) % MAX_COUNT);
    bool must_sit = strtoull(next, &next, 10) % 2 == 1;
    s->state = json_pack("{s:i, s:i, s:b}", "banker", banker, "count", count, "must_sit", must_sit);
}

/* The decimal number at the start of text (the input is not NUL-terminated). */
static unsigned long number_of(const uint8_t *text, size_t length)
{
    char digits[16] = "";
    memcpy(digits, text, length < sizeof digits - 1 ? length : sizeof digits - 1);
    return strtoul(digits, NULL, 10);
}

static int first_deciding(const game_hand *hand)
{
    game_decision d[GAME_SEATS];
    return deciding(hand, d) > 0 ? d[0].seat : 0;
}

static int read_seat(uint8_t c, const game_hand *hand)
{
    if (c == '*')
        return first_deciding(hand);
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c == '-')
        return GAME_SPECTATOR;
    return c % GAME_SEATS;
}

/* The bot's action, else the timeout's (a new reference, or NULL when the seat owes nothing). */
static json_t *default_action(const game_hand *hand, int seat)
{
    json_t *action = GAME->bot_action(hand, seat);
    return action != NULL ? action : GAME->timeout_action(hand, seat);
}

static json_t *action_of_line(const session *s, int seat, const uint8_t *text, size_t length)
{
    if (length == 1 && text[0] == '!')
        return default_action(s->hand, seat);
    if (length >= 1 && (text[0] == 'd' || text[0] == 'k' || text[0] == 'a')) {
        int owner = seat >= 0 && seat < GAME_SEATS ? seat : first_deciding(s->hand);
        const json_t *tiles = json_object_get(view_of(s->seen, owner), "hand");
        size_t n = json_array_size(tiles);
        size_t at = number_of(text + 1, length - 1) % (n > 0 ? n : 1);
        const char *key = text[0] == 'd' ? "discard" : text[0] == 'k' ? "concealed_kong" : "added_kong";
        const json_t *tile = json_array_get(tiles, at);
        return tile != NULL ? json_pack("{s:O}", key, tile) : json_pack("{s:s}", key, "5m");
    }
    return json_loadb((const char *)text, length, JSON_DECODE_ANY, NULL);
}

/* --- playing --- */

static int claim_seconds(const session *s)
{
    return (int)json_integer_value(json_object_get(s->options, "claim_seconds"));
}

/* One action by one seat, every promise checked. */
static void play(session *s, int seat, json_t *action, bool must_accept)
{
    bool owed = game_seat_decides(GAME, s->hand, seat);
    char msg[GAME_MESSAGE_SIZE];
    memset(msg, 'x', sizeof msg);
    const char *error = GAME->act(s->hand, seat, action, msg, sizeof msg);
    json_t *now = visible_state(s->hand);
    if (error != NULL) {
        FUZZ_CHECK(error[0] != '\0' && memchr(msg, '\0', sizeof msg) != NULL && msg[0] != '\0',
                   "a refusal without a code or a sentence");
        FUZZ_CHECK(fuzz_valid_utf8(msg), "a refusal's sentence is not UTF-8");
        FUZZ_CHECK(!must_accept, "the bot's or timeout's action for seat %d is refused: %s (%s)", seat, error, msg);
        FUZZ_CHECK(json_equal(now, s->seen), "refused action (%s) changed the hand", error);
        json_decref(now);
        return;
    }
    FUZZ_CHECK(owed, "seat %d acted without owing a decision", seat);
    s->steps++;
    if (json_is_string(json_object_get(now, "last"))) { /* private: nobody else sees a thing */
        for (int other = GAME_SPECTATOR; other < GAME_SEATS; other++)
            FUZZ_CHECK(other == seat || json_equal(view_of(now, other), view_of(s->seen, other)),
                       "seat %d's private decision changed seat %d's view", seat, other);
    }
    json_array_append_new(s->accepted, json_pack("[i, O]", seat, action));
    json_decref(s->seen);
    s->seen = now;
    check_decisions(s->hand, claim_seconds(s));
    check_views(s->hand, s->seen);
}

static void play_line(session *s, const uint8_t *line, size_t length)
{
    if (line[0] == '#') {
        unsigned long k = length > 1 ? number_of(line + 1, length - 1) : 1;
        for (unsigned long i = 0; i < k && i < MAX_AUTO && !GAME->is_over(s->hand) && s->steps < MAX_STEPS; i++) {
            int seat = first_deciding(s->hand);
            json_t *action = default_action(s->hand, seat);
            FUZZ_CHECK(action != NULL, "seat %d owes a decision and neither bot nor timeout makes one", seat);
            play(s, seat, action, true);
            json_decref(action);
        }
        return;
    }
    int seat = read_seat(line[0], s->hand);
    json_t *action = action_of_line(s, seat, line + 1, length - 1);
    if (action == NULL)
        return;
    bool by_default = length == 2 && line[1] == '!';
    play(s, seat, action, by_default);
    json_decref(action);
}

static void check_replay(const session *s)
{
    size_t n = json_array_size(s->accepted);
    game_logged_action *log = calloc(n + 1, sizeof *log);
    FUZZ_CHECK(log != NULL, "out of memory");
    size_t i;
    const json_t *step;
    json_array_foreach (s->accepted, i, step)
        log[i] = (game_logged_action){.seat = (int)json_integer_value(json_array_get(step, 0)),
                                      .action = json_array_get(step, 1)};
    game_replay_error err;
    game_hand *again = game_replay(GAME, s->options, s->seed, s->state, log, n, NULL, NULL, &err);
    FUZZ_CHECK(again != NULL, "replayed action %zu is refused: %s (%s)", err.index, err.code, err.message);
    json_t *rebuilt = visible_state(again);
    FUZZ_CHECK(json_equal(rebuilt, s->seen), "the replayed hand differs");
    json_decref(rebuilt);
    GAME->hand_free(again);
    free(log);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *cursor = data, *end = data + size;
    session s = {0};
    read_header(&s, &cursor, end);
    s.hand = GAME->hand_new(s.options, s.seed, s.state);
    FUZZ_CHECK(s.hand != NULL, "no hand from seed %llu", (unsigned long long)s.seed);
    s.accepted = json_array();
    s.seen = visible_state(s.hand);
    check_decisions(s.hand, claim_seconds(&s));
    check_views(s.hand, s.seen);

    size_t length;
    const uint8_t *line;
    int lines = 0, after_over = 0;
    while ((line = fuzz_next_line(&cursor, end, &length)) != NULL && lines < MAX_LINES &&
           after_over < MAX_LINES_AFTER_OVER && s.steps < MAX_STEPS) {
        if (length == 0)
            continue;
        lines++;
        after_over += GAME->is_over(s.hand);
        play_line(&s, line, length);
    }
    if (GAME->is_over(s.hand))
        check_finished(s.hand);
    if (getenv("FUZZ_TRACE") != NULL)
        fprintf(stderr, "%d lines, %d steps accepted, the hand %s\n", lines, s.steps,
                GAME->is_over(s.hand) ? "over" : "not over");
    check_replay(&s);
    json_decref(s.seen);
    json_decref(s.accepted);
    GAME->hand_free(s.hand);
    json_decref(s.state);
    json_decref(s.options);
    return 0;
}
