/*
 * toy_game — the rules of toy_game.h behind game_ops. The hand is plain values, so a copy is a
 * memcpy and a replay rebuilds it bit for bit.
 */
#include "toy_game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOY_MAX_STAKE 1000
#define TOY_MAX_ROUND 1000000000
#define TOY_BID_SECONDS 20
#define TOY_CLAIM_SECONDS 10

typedef enum { PHASE_BID, PHASE_TAKE, PHASE_CLAIM, PHASE_OVER } toy_phase;
static const char *const PHASE_NAMES[] = {"bid", "take", "claim", "over"};
/* The key of the one action each phase takes. */
static const char *const ACTION_KEYS[] = {"bid", "take", "claim", NULL};

typedef enum { LAST_NONE, LAST_PRIVATE, LAST_BIDS, LAST_TAKE, LAST_CLAIM } toy_last;

struct game_hand {
    int64_t stake;
    int leader, round;
    int secret[GAME_SEATS];
    int bid[GAME_SEATS];   /* -1 until made */
    int taken[GAME_SEATS];
    int claim[GAME_SEATS]; /* -1 until answered (or outside the window), 0 a pass, 1 a claim */
    toy_phase phase;
    int to_act;            /* the take phase's turn */
    int takes;
    int last_taker;        /* from the claim phase on */
    int claimed;           /* the claim window's winner, or -1 */
    toy_last last;
    int last_seat, last_take;
};

static json_t *toy_options_parse(const json_t *options, char *msg, size_t msg_size)
{
    json_int_t stake = 1;
    const json_t *value = json_object_get(options, "stake");
    if (options != NULL && (!json_is_object(options) || json_object_size(options) != (value != NULL ? 1u : 0u))) {
        snprintf(msg, msg_size, "The toy's options are {\"stake\":1..%d}, nothing else.", TOY_MAX_STAKE);
        return NULL;
    }
    if (value != NULL) {
        stake = json_integer_value(value);
        if (!json_is_integer(value) || stake < 1 || stake > TOY_MAX_STAKE) {
            snprintf(msg, msg_size, "stake must be an integer from 1 to %d.", TOY_MAX_STAKE);
            return NULL;
        }
    }
    return json_pack("{s:I}", "stake", stake);
}

static json_t *toy_table_state_new(const json_t *options, uint64_t seed)
{
    (void)options;
    return json_pack("{s:i, s:i}", "leader", (int)(seed % GAME_SEATS), "round", 1);
}

/* An integer member of obj within lo..hi, or false. */
static bool int_member(const json_t *obj, const char *key, json_int_t lo, json_int_t hi, int *out)
{
    const json_t *value = json_object_get(obj, key);
    if (!json_is_integer(value) || json_integer_value(value) < lo || json_integer_value(value) > hi)
        return false;
    *out = (int)json_integer_value(value);
    return true;
}

/* splitmix64: the secrets need only differ from seed to seed and seat to seat. */
static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static game_hand *toy_hand_new(const json_t *options, uint64_t seed, const json_t *state)
{
    int stake, leader, round;
    if (!int_member(options, "stake", 1, TOY_MAX_STAKE, &stake) || !json_is_object(state) ||
        json_object_size(state) != 2 || !int_member(state, "leader", 0, GAME_SEATS - 1, &leader) ||
        !int_member(state, "round", 1, TOY_MAX_ROUND, &round))
        return NULL;
    game_hand *hand = calloc(1, sizeof *hand);
    if (hand == NULL)
        return NULL;
    *hand = (game_hand){.stake = stake, .leader = leader, .round = round, .phase = PHASE_BID, .claimed = -1};
    for (int s = 0; s < GAME_SEATS; s++) {
        hand->secret[s] = (int)(splitmix(&seed) % 10);
        hand->bid[s] = hand->claim[s] = -1;
    }
    return hand;
}

static void toy_hand_free(game_hand *hand) { free(hand); }

static game_hand *toy_hand_copy(const game_hand *hand)
{
    game_hand *copy = malloc(sizeof *copy);
    if (copy != NULL)
        *copy = *hand;
    return copy;
}

static json_t *ints_json(const int values[GAME_SEATS])
{
    return json_pack("[i,i,i,i]", values[0], values[1], values[2], values[3]);
}

static json_t *toy_deal_json(const game_hand *hand) { return json_pack("{s:o}", "secrets", ints_json(hand->secret)); }

static int toy_decisions(const game_hand *hand, game_decision out[GAME_SEATS])
{
    int n = 0;
    switch (hand->phase) {
    case PHASE_BID:
        for (int s = 0; s < GAME_SEATS; s++)
            if (hand->bid[s] < 0)
                out[n++] = (game_decision){.seat = s, .kind = GAME_DECISION_PRE_HAND, .seconds = TOY_BID_SECONDS};
        break;
    case PHASE_TAKE:
        out[n++] = (game_decision){.seat = hand->to_act, .kind = GAME_DECISION_TURN, .seconds = 0};
        break;
    case PHASE_CLAIM:
        for (int s = 0; s < GAME_SEATS; s++)
            if (s != hand->last_taker && hand->claim[s] < 0)
                out[n++] = (game_decision){.seat = s, .kind = GAME_DECISION_CLAIM, .seconds = TOY_CLAIM_SECONDS};
        break;
    case PHASE_OVER:
        break;
    }
    return n;
}

static bool owes(const game_hand *hand, int seat)
{
    game_decision d[GAME_SEATS];
    int n = toy_decisions(hand, d);
    for (int i = 0; i < n; i++)
        if (d[i].seat == seat)
            return true;
    return false;
}

/* Of the seats that claimed, the highest bid; ties go to the first seat after the last taker. */
static int resolve_claims(const game_hand *hand)
{
    int best = -1;
    for (int i = 1; i < GAME_SEATS; i++) {
        int s = (hand->last_taker + i) % GAME_SEATS;
        if (hand->claim[s] == 1 && (best < 0 || hand->bid[s] > hand->bid[best]))
            best = s;
    }
    return best;
}

static bool all_answered(const game_hand *hand)
{
    game_decision d[GAME_SEATS];
    return toy_decisions(hand, d) == 0;
}

static void apply(game_hand *hand, int seat, int value)
{
    switch (hand->phase) {
    case PHASE_BID:
        hand->bid[seat] = value;
        hand->last = LAST_PRIVATE;
        if (all_answered(hand)) {
            hand->phase = PHASE_TAKE;
            hand->to_act = hand->leader;
            hand->last = LAST_BIDS;
        }
        break;
    case PHASE_TAKE:
        hand->taken[seat] += value;
        hand->last = LAST_TAKE;
        hand->last_seat = seat;
        hand->last_take = value;
        hand->to_act = (seat + 1) % GAME_SEATS;
        if (++hand->takes == GAME_SEATS) {
            hand->phase = PHASE_CLAIM;
            hand->last_taker = seat;
        }
        break;
    case PHASE_CLAIM:
        hand->claim[seat] = value;
        hand->last = LAST_PRIVATE;
        if (all_answered(hand)) {
            hand->claimed = resolve_claims(hand);
            if (hand->claimed >= 0) {
                hand->taken[hand->claimed]++;
                hand->taken[hand->last_taker]--; /* it took at least one */
            }
            hand->phase = PHASE_OVER;
            hand->last = LAST_CLAIM;
        }
        break;
    case PHASE_OVER:
        break;
    }
}

static const char *toy_act(game_hand *hand, int seat, const json_t *action, char *msg, size_t msg_size)
{
    if (hand->phase == PHASE_OVER) {
        snprintf(msg, msg_size, "The hand is over.");
        return "hand_over";
    }
    if (!owes(hand, seat)) {
        snprintf(msg, msg_size, "Seat %d owes no decision now.", seat);
        return "not_your_turn";
    }
    const char *key = ACTION_KEYS[hand->phase];
    const json_t *value = json_object_get(action, key);
    int n = -1;
    if (hand->phase == PHASE_CLAIM && json_is_boolean(value))
        n = json_is_true(value);
    else if (hand->phase == PHASE_BID && json_is_integer(value) && json_integer_value(value) >= 0 &&
             json_integer_value(value) <= 3)
        n = (int)json_integer_value(value);
    else if (hand->phase == PHASE_TAKE && json_is_integer(value) && json_integer_value(value) >= 1 &&
             json_integer_value(value) <= 3)
        n = (int)json_integer_value(value);
    if (!json_is_object(action) || json_object_size(action) != 1 || n < 0) {
        snprintf(msg, msg_size, "This decision is {\"%s\":%s}.", key,
                 hand->phase == PHASE_BID ? "0..3" : hand->phase == PHASE_TAKE ? "1..3" : "true|false");
        return "bad_request";
    }
    apply(hand, seat, n);
    return NULL;
}

/* The bot's or the timeout's choice for the decision the seat owes, or NULL when it owes none. */
static json_t *choice(const game_hand *hand, int seat, bool bot)
{
    if (!owes(hand, seat))
        return NULL;
    int secret = hand->secret[seat];
    switch (hand->phase) {
    case PHASE_BID: return json_pack("{s:i}", "bid", bot ? 1 + secret % 3 : 0);
    case PHASE_TAKE: return json_pack("{s:i}", "take", bot ? 2 + secret % 2 : 1);
    case PHASE_CLAIM: return json_pack("{s:b}", "claim", bot);
    case PHASE_OVER: break;
    }
    return NULL;
}

static json_t *toy_bot_action(const game_hand *hand, int seat) { return choice(hand, seat, true); }
static json_t *toy_timeout_action(const game_hand *hand, int seat) { return choice(hand, seat, false); }

static int winner_of(const game_hand *hand)
{
    int best = hand->leader;
    for (int i = 1; i < GAME_SEATS; i++) {
        int s = (hand->leader + i) % GAME_SEATS;
        if (hand->taken[s] + hand->secret[s] > hand->taken[best] + hand->secret[best])
            best = s;
    }
    return best;
}

static void add_line(game_result *out, int seat, int64_t units, const char *reason)
{
    game_ledger_line *line = &out->lines[out->n_lines++];
    *line = (game_ledger_line){.seat = seat, .units = units};
    snprintf(line->reason, sizeof line->reason, "%s", reason);
    out->net[seat] += units;
}

static void toy_result(const game_hand *hand, game_result *out)
{
    memset(out, 0, sizeof *out);
    out->winner = winner_of(hand);
    for (int s = 0; s < GAME_SEATS; s++)
        add_line(out, s, (s == out->winner ? GAME_SEATS - 1 : -1) * hand->stake, "settle");
    if (hand->claimed >= 0) {
        add_line(out, hand->claimed, hand->stake, "claim");
        add_line(out, hand->last_taker, -hand->stake, "claim");
    }
}

static json_t *toy_result_json(const game_hand *hand)
{
    game_result r;
    toy_result(hand, &r);
    int points[GAME_SEATS];
    for (int s = 0; s < GAME_SEATS; s++)
        points[s] = hand->taken[s] + hand->secret[s];
    return json_pack("{s:i, s:o, s:o, s:o, s:[I,I,I,I]}", "winner", r.winner, "points", ints_json(points), "secrets",
                     ints_json(hand->secret), "claimed", hand->claimed >= 0 ? json_integer(hand->claimed) : json_null(),
                     "net", (json_int_t)r.net[0], (json_int_t)r.net[1], (json_int_t)r.net[2], (json_int_t)r.net[3]);
}

/* What every seat sees: no bid before the fourth, no claim before the window resolves. */
static json_t *public_view(const game_hand *hand)
{
    bool over = hand->phase == PHASE_OVER;
    return json_pack("{s:s, s:i, s:i, s:s, s:o, s:o, s:o, s:o, s:o}", "game", "toy", "round", hand->round, "leader",
                     hand->leader, "phase", PHASE_NAMES[hand->phase], "bids",
                     hand->phase > PHASE_BID ? ints_json(hand->bid) : json_null(), "taken", ints_json(hand->taken),
                     "last_taker", hand->phase >= PHASE_CLAIM ? json_integer(hand->last_taker) : json_null(),
                     "claimed", over && hand->claimed >= 0 ? json_integer(hand->claimed) : json_null(), "result",
                     over ? toy_result_json(hand) : json_null());
}

static json_t *toy_view(const game_hand *hand, int seat)
{
    json_t *view = public_view(hand);
    bool mine = seat >= 0 && seat < GAME_SEATS;
    json_t *legal = mine && owes(hand, seat) ? json_pack("{s:s}", "decide", ACTION_KEYS[hand->phase]) : json_null();
    json_object_set_new(view, "seat", json_integer(mine ? seat : GAME_SPECTATOR));
    json_object_set_new(view, "secret", mine ? json_integer(hand->secret[seat]) : json_null());
    json_object_set_new(view, "my_bid", mine && hand->bid[seat] >= 0 ? json_integer(hand->bid[seat]) : json_null());
    json_object_set_new(view, "my_claim", mine && hand->claim[seat] >= 0 ? json_boolean(hand->claim[seat]) : json_null());
    json_object_set_new(view, "legal", legal);
    return view;
}

static json_t *toy_view_admin(const game_hand *hand)
{
    json_t *view = public_view(hand);
    json_t *bids = json_array(), *claims = json_array();
    for (int s = 0; s < GAME_SEATS; s++) {
        json_array_append_new(bids, hand->bid[s] >= 0 ? json_integer(hand->bid[s]) : json_null());
        json_array_append_new(claims, hand->claim[s] >= 0 ? json_boolean(hand->claim[s]) : json_null());
    }
    json_object_set_new(view, "secrets", ints_json(hand->secret));
    json_t *hands = json_array(); /* what each seat holds hidden, as game.h's view_admin names it */
    for (int s = 0; s < GAME_SEATS; s++)
        json_array_append_new(hands, json_pack("[i]", hand->secret[s]));
    json_object_set_new(view, "hands", hands);
    json_object_set_new(view, "bids", bids);
    json_object_set_new(view, "claims", claims);
    json_object_set_new(view, "to_act", hand->phase == PHASE_TAKE ? json_integer(hand->to_act) : json_null());
    return view;
}

static json_t *toy_last_event(const game_hand *hand)
{
    switch (hand->last) {
    case LAST_NONE: return json_null();
    case LAST_PRIVATE: return NULL;
    case LAST_BIDS: return json_pack("{s:s, s:o}", "kind", "bids", "bids", ints_json(hand->bid));
    case LAST_TAKE: return json_pack("{s:s, s:i, s:i}", "kind", "take", "seat", hand->last_seat, "take", hand->last_take);
    case LAST_CLAIM:
        return json_pack("{s:s, s:o}", "kind", "claim", "seat",
                         hand->claimed >= 0 ? json_integer(hand->claimed) : json_null());
    }
    return json_null();
}

static bool toy_is_over(const game_hand *hand) { return hand->phase == PHASE_OVER; }

static json_t *toy_next_table_state(const game_hand *hand)
{
    if (hand->phase != PHASE_OVER)
        return NULL;
    return json_pack("{s:i, s:i}", "leader", winner_of(hand), "round", hand->round + 1);
}

const game_ops toy_game = {
    .name = "toy",
    .options_parse = toy_options_parse,
    .table_state_new = toy_table_state_new,
    .hand_new = toy_hand_new,
    .hand_free = toy_hand_free,
    .hand_copy = toy_hand_copy,
    .deal_json = toy_deal_json,
    .decisions = toy_decisions,
    .act = toy_act,
    .bot_action = toy_bot_action,
    .timeout_action = toy_timeout_action,
    .view = toy_view,
    .view_admin = toy_view_admin,
    .last_event = toy_last_event,
    .is_over = toy_is_over,
    .result = toy_result,
    .result_json = toy_result_json,
    .next_table_state = toy_next_table_state,
};
