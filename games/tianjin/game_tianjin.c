/*
 * game_tianjin — Tianjin Mahjong behind the game interface: the engine (engine/mj_*) for the rules
 * and protocol/mj_json for the wire format (PROTOCOL.md, "Tianjin").
 *
 * A hand goes through three stages. Before the deal the banker decides whether to sit (坐庄;
 * skipped when it must), then, if it sat, the three others each choose how often to pull (拉庄) at
 * once, each choice private until the last; then the tiles are played. The wall is shuffled from
 * the seed at the start (the choices before it do not change the deal), but no view shows a tile
 * until those choices are made.
 *
 * The claim window hides what it must, its timing included: after every discard all three other
 * seats owe a claim decision of the same length, whether or not any of them can claim (the engine
 * runs with `windows`, so the next tile is not drawn before the window closes). A pass is private;
 * the window closes at once on a claim, else when the third seat has passed. The views of those
 * seats differ only in their own tiles and their own legal actions, a bot that will not claim waits
 * for the window's end rather than pass early, and a refused claim names only the seat's own tiles.
 *
 * The table state is {"banker":S,"count":N,"must_sit":B}: the banker, how many hands in a row it
 * has banked (this one included), and whether it must sit (it sat and kept the bank, §5).
 */
#include "game_tianjin.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mj_bot.h"
#include "mj_json.h"
#include "rng.h"

#define TJ_MAX_COUNT 1000000 /* the banker's count stops growing here */

typedef enum { STAGE_SIT = 0, STAGE_PULL, STAGE_PLAY } tj_stage;

/* What last_event reports. */
typedef enum {
    EVENT_NONE = 0, /* nothing yet */
    EVENT_PRIVATE,  /* a pull or a pass, shown to nobody else until its round closes */
    EVENT_SIT,
    EVENT_PULLS,
    EVENT_PLAY,     /* a turn's action or a claim: last_action by last_seat */
    EVENT_NO_CLAIM, /* the third pass closed the window */
} tj_event;

struct game_hand {
    mj_hand h;              /* dealt at the start; dealt again with the final sat and pulls */
    int claim_seconds;
    int count;              /* the banker's hands in a row, this one included */
    bool must_sit;          /* the option or the table state */
    tj_stage stage;
    int8_t pull[GAME_SEATS]; /* chosen before the deal; -1 until chosen (the banker's is 0) */
    bool passed[GAME_SEATS]; /* in the open claim window */
    tj_event last;
    int last_seat;
    mjj_action last_action;
    int last_tile;          /* the tile of a claim or of a closed window */
};

/* --- options and the table state --- */

static json_t *tianjin_options_parse(const json_t *options, char *msg, size_t msg_size)
{
    mj_options parsed;
    int claim_seconds;
    if (mjj_parse_table_options(options, &parsed, &claim_seconds, msg, msg_size) != MJJ_OK)
        return NULL;
    return mjj_table_options_to_json(&parsed, claim_seconds);
}

/* The first banker by two dice of the table's seed, counted round the table from seat 0 (§1). */
static int first_banker(uint64_t seed)
{
    rng_state rng;
    rng_seed(&rng, seed ^ 0x7469616e6a696e00ULL); /* a stream apart from any hand's wall */
    int roll = (int)rng_below(&rng, 6) + 1 + (int)rng_below(&rng, 6) + 1;
    return (roll - 1) % GAME_SEATS;
}

static json_t *state_json(int banker, int count, bool must_sit)
{
    return json_pack("{s:i, s:i, s:b}", "banker", banker, "count", count, "must_sit", must_sit);
}

static json_t *tianjin_table_state_new(const json_t *options, uint64_t seed)
{
    (void)options;
    return state_json(first_banker(seed), 1, false);
}

/* The table state exactly as this game writes it. */
static bool parse_table_state(const json_t *state, int *banker, int *count, bool *must_sit)
{
    const json_t *b = json_object_get(state, "banker"), *c = json_object_get(state, "count"),
                 *m = json_object_get(state, "must_sit");
    if (!json_is_object(state) || json_object_size(state) != 3 || !json_is_integer(b) || !json_is_integer(c) ||
        !json_is_boolean(m))
        return false;
    json_int_t bv = json_integer_value(b), cv = json_integer_value(c);
    if (bv < 0 || bv >= GAME_SEATS || cv < 1 || cv > TJ_MAX_COUNT)
        return false;
    *banker = (int)bv;
    *count = (int)cv;
    *must_sit = json_is_true(m);
    return true;
}

/* --- a new hand --- */

static const uint8_t NO_PULLS[MJ_SEATS] = {0, 0, 0, 0};

static int dice_of(const mj_hand *h) { return (MJ_TILES - h->indicator_at) / 2; }

/* A hand whose engine state `dealt` was dealt with the provisional choices: the pre-hand comes first. */
static game_hand *hand_make(const mj_hand *dealt, int claim_seconds, int count, bool must_sit)
{
    game_hand *hand = calloc(1, sizeof *hand);
    if (hand == NULL)
        return NULL;
    hand->h = *dealt;
    hand->h.windows = true;
    hand->claim_seconds = claim_seconds;
    hand->count = count;
    hand->must_sit = must_sit;
    hand->stage = must_sit ? STAGE_PULL : STAGE_SIT;
    for (int s = 0; s < GAME_SEATS; s++)
        hand->pull[s] = s == dealt->banker ? 0 : -1;
    hand->last = EVENT_NONE;
    return hand;
}

/* The options and state read back; false if they are not this game's. */
static bool read_start(const json_t *options, const json_t *state, mj_options *parsed, int *claim_seconds,
                       int *banker, int *count, bool *must_sit)
{
    char msg[MJJ_MESSAGE_SIZE];
    if (mjj_parse_table_options(options, parsed, claim_seconds, msg, sizeof msg) != MJJ_OK)
        return false; /* options come from options_parse, so this does not happen */
    if (!parse_table_state(state, banker, count, must_sit))
        return false;
    *must_sit = *must_sit || parsed->must_sit;
    return true;
}

static game_hand *tianjin_hand_new(const json_t *options, uint64_t seed, const json_t *state)
{
    mj_options parsed;
    int claim_seconds, banker, count;
    bool must_sit;
    if (!read_start(options, state, &parsed, &claim_seconds, &banker, &count, &must_sit))
        return NULL;
    mj_hand dealt;
    if (mj_hand_start(&dealt, &parsed, seed, banker, must_sit, NO_PULLS) != MJ_OK)
        return NULL;
    return hand_make(&dealt, claim_seconds, count, must_sit);
}

game_hand *tianjin_hand_from_wall(const json_t *options, const uint8_t wall[MJ_TILES], int dice, const json_t *state)
{
    mj_options parsed;
    int claim_seconds, banker, count;
    bool must_sit;
    if (!read_start(options, state, &parsed, &claim_seconds, &banker, &count, &must_sit))
        return NULL;
    mj_hand dealt;
    if (mj_hand_deal(&dealt, &parsed, wall, dice, banker, must_sit, NO_PULLS) != MJ_OK)
        return NULL;
    return hand_make(&dealt, claim_seconds, count, must_sit);
}

const mj_hand *tianjin_hand_engine(const game_hand *hand) { return &hand->h; }

static void tianjin_hand_free(game_hand *hand) { free(hand); }

static game_hand *tianjin_hand_copy(const game_hand *hand)
{
    game_hand *copy = malloc(sizeof *copy);
    if (copy != NULL)
        *copy = *hand; /* plain values */
    return copy;
}

/* Each seat's dealt tiles (the banker's 14), read from the wall as mj_hand_deal deals it. */
static void dealt_tiles(const mj_hand *h, mj_counts dealt[GAME_SEATS])
{
    memset(dealt, 0, sizeof(mj_counts) * GAME_SEATS);
    for (int i = 0; i < MJ_HAND_TILES * GAME_SEATS; i++)
        dealt[(h->banker + i) % GAME_SEATS].n[h->wall[i]]++;
    dealt[h->banker].n[h->wall[MJ_HAND_TILES * GAME_SEATS]]++;
}

static json_t *tianjin_deal_json(const game_hand *hand)
{
    mj_counts dealt[GAME_SEATS];
    dealt_tiles(&hand->h, dealt);
    json_t *hands = json_array();
    for (int s = 0; s < GAME_SEATS; s++)
        json_array_append_new(hands, mjj_counts_to_json(&dealt[s]));
    return json_pack("{s:o, s:o, s:i}", "hands", hands, "wall", mjj_tiles_to_json(hand->h.wall, MJ_TILES), "dice",
                     dice_of(&hand->h));
}

/* --- who decides --- */

static bool window_open(const game_hand *hand)
{
    return hand->stage == STAGE_PLAY && (hand->h.phase == MJ_PHASE_CLAIM || hand->h.phase == MJ_PHASE_WINDOW);
}

static int tianjin_decisions(const game_hand *hand, game_decision out[GAME_SEATS])
{
    int n = 0;
    const mj_hand *h = &hand->h;
    if (hand->stage == STAGE_SIT) {
        out[n++] = (game_decision){.seat = h->banker, .kind = GAME_DECISION_PRE_HAND, .seconds = 0};
    } else if (hand->stage == STAGE_PULL) {
        for (int s = 0; s < GAME_SEATS; s++)
            if (hand->pull[s] < 0)
                out[n++] = (game_decision){.seat = s, .kind = GAME_DECISION_PRE_HAND, .seconds = 0};
    } else if (window_open(hand)) {
        /* every other seat, able to claim or not, for the same time */
        for (int s = 0; s < GAME_SEATS; s++)
            if (s != h->turn && !hand->passed[s])
                out[n++] = (game_decision){.seat = s, .kind = GAME_DECISION_CLAIM, .seconds = hand->claim_seconds};
    } else if (!mj_hand_over(h)) {
        out[n++] = (game_decision){.seat = h->turn, .kind = GAME_DECISION_TURN, .seconds = 0};
    }
    return n;
}

static bool owes(const game_hand *hand, int seat)
{
    game_decision d[GAME_SEATS];
    int n = tianjin_decisions(hand, d);
    for (int i = 0; i < n; i++)
        if (d[i].seat == seat)
            return true;
    return false;
}

/* --- acting --- */

static const char *refuse(const char *code, const char *sentence, char *msg, size_t msg_size)
{
    snprintf(msg, msg_size, "%s", sentence);
    return code;
}

/* The engine's refusal, in the words of a seat's own hand where the engine's are general. */
static const char *refuse_status(mj_status status, char *msg, size_t msg_size)
{
    const char *sentence;
    switch (status) {
    case MJ_ERR_UNDER_MINIMUM:
        sentence = "This would win, but it scores under the minimum: a win needs at least one fan (2 fan); a bare "
                   "win (鸡胡) is not allowed (under 刮大风 neither is 混儿吊 alone).";
        break;
    case MJ_ERR_WILD_DISCARDED: sentence = "You discarded a wild this hand, so you may not win it."; break;
    case MJ_ERR_NO_WIN:
        sentence = "Your tiles with the one you drew are not four sets and a pair, even with the wilds.";
        break;
    case MJ_ERR_NOT_NOW:
        sentence = "You win or kong only with a tile you drew; after a pung you discard.";
        break;
    default: sentence = mj_status_message(status); break;
    }
    return refuse(mj_status_name(status), sentence, msg, msg_size);
}

/* Why a seat that owes nothing may not act. */
static const char *refuse_not_deciding(const game_hand *hand, int seat, char *msg, size_t msg_size)
{
    bool in_range = seat >= 0 && seat < GAME_SEATS;
    if (in_range && hand->stage == STAGE_PULL && hand->pull[seat] >= 0 && seat != hand->h.banker)
        return refuse("already_decided", "You have chosen your pulls; the tiles are dealt when every seat has.", msg,
                      msg_size);
    if (in_range && window_open(hand) && hand->passed[seat])
        return refuse("already_decided", "You have passed; the window closes when every seat has decided.", msg,
                      msg_size);
    return refuse_status(MJ_ERR_NOT_YOUR_TURN, msg, msg_size);
}

static void deal(game_hand *hand, bool sat)
{
    uint8_t pulls[MJ_SEATS];
    for (int s = 0; s < GAME_SEATS; s++)
        pulls[s] = (uint8_t)(hand->pull[s] > 0 ? hand->pull[s] : 0);
    mj_hand h = hand->h;
    /* the same wall and dice as at the start; the choices were checked as they came */
    mj_status status = mj_hand_deal(&hand->h, &h.options, h.wall, dice_of(&h), h.banker, sat, pulls);
    assert(status == MJ_OK);
    (void)status;
    hand->h.windows = true;
    hand->stage = STAGE_PLAY;
}

static const char *act_sit(game_hand *hand, int seat, const mjj_action *a, char *msg, size_t msg_size)
{
    if (a->kind != MJJ_ACT_SIT)
        return refuse("not_now", "Before the deal the banker decides whether to sit (坐庄): {\"sit\":true} or "
                                 "{\"sit\":false}.",
                      msg, msg_size);
    hand->last = EVENT_SIT;
    hand->last_seat = seat;
    hand->last_action = *a;
    if (a->value) {
        hand->stage = STAGE_PULL;
        hand->h.sat = true;
    } else {
        deal(hand, false); /* nobody pulls a banker who does not sit */
    }
    return NULL;
}

static const char *act_pull(game_hand *hand, int seat, const mjj_action *a, char *msg, size_t msg_size)
{
    if (a->kind != MJJ_ACT_PULL)
        return refuse("not_now", "Before the deal each other seat decides how often to pull (拉庄): {\"pull\":N}.",
                      msg, msg_size);
    if (a->value > hand->h.options.max_pulls) {
        snprintf(msg, msg_size, "A seat pulls (拉庄) at most %d time%s at this table (max_pulls).",
                 hand->h.options.max_pulls, hand->h.options.max_pulls == 1 ? "" : "s");
        return "too_many_pulls";
    }
    hand->pull[seat] = (int8_t)a->value;
    hand->last = EVENT_PRIVATE;
    for (int s = 0; s < GAME_SEATS; s++)
        if (hand->pull[s] < 0)
            return NULL;
    hand->last = EVENT_PULLS;
    deal(hand, true);
    return NULL;
}

static const char *act_claim(game_hand *hand, int seat, const mjj_action *a, char *msg, size_t msg_size)
{
    mj_hand *h = &hand->h;
    int tile = h->last_discard;
    if (a->kind == MJJ_ACT_PASS) {
        hand->passed[seat] = true;
        hand->last = EVENT_PRIVATE;
        if (owes(hand, 0) || owes(hand, 1) || owes(hand, 2) || owes(hand, 3))
            return NULL;
        mj_hand_close_window(h);
        memset(hand->passed, 0, sizeof hand->passed);
        hand->last = EVENT_NO_CLAIM;
        hand->last_tile = tile;
        return NULL;
    }
    if (a->kind != MJJ_ACT_PUNG && a->kind != MJJ_ACT_KONG)
        return refuse("not_now", "In a claim window you pass ({\"pass\":true}), or pung or kong the discard when you "
                                 "can.",
                      msg, msg_size);
    /* Whether another seat could claim is nobody's business: the refusal speaks of this seat's tiles. */
    mj_action engine = {(uint8_t)seat, a->kind == MJJ_ACT_PUNG ? MJ_ACT_PUNG : MJ_ACT_KONG, (uint8_t)tile};
    if (h->phase != MJ_PHASE_CLAIM || h->claimer != seat || mj_hand_act(h, &engine) != MJ_OK)
        return refuse_status(MJ_ERR_CANNOT_CLAIM, msg, msg_size);
    memset(hand->passed, 0, sizeof hand->passed);
    hand->last = EVENT_PLAY;
    hand->last_seat = seat;
    hand->last_action = *a;
    hand->last_tile = tile;
    return NULL;
}

static const char *act_turn(game_hand *hand, int seat, const mjj_action *a, char *msg, size_t msg_size)
{
    static const uint8_t ENGINE[MJJ_ACT_KINDS] = {
        [MJJ_ACT_DISCARD] = MJ_ACT_DISCARD,
        [MJJ_ACT_WIN] = MJ_ACT_WIN,
        [MJJ_ACT_CONCEALED_KONG] = MJ_ACT_CONCEALED_KONG,
        [MJJ_ACT_ADDED_KONG] = MJ_ACT_ADDED_KONG,
    };
    if (a->kind != MJJ_ACT_DISCARD && a->kind != MJJ_ACT_WIN && a->kind != MJJ_ACT_CONCEALED_KONG &&
        a->kind != MJJ_ACT_ADDED_KONG)
        return refuse("not_now", "On your turn you win, make a concealed or added kong, or discard.", msg, msg_size);
    int drawn = hand->h.drawn;
    mj_action engine = {(uint8_t)seat, ENGINE[a->kind], (uint8_t)(a->kind == MJJ_ACT_WIN ? 0 : a->value)};
    mj_status status = mj_hand_act(&hand->h, &engine);
    if (status != MJ_OK)
        return refuse_status(status, msg, msg_size);
    hand->last = EVENT_PLAY;
    hand->last_seat = seat;
    hand->last_action = *a;
    hand->last_tile = a->kind == MJJ_ACT_WIN ? drawn : a->value;
    return NULL;
}

static const char *tianjin_act(game_hand *hand, int seat, const json_t *action, char *msg, size_t msg_size)
{
    if (hand->stage == STAGE_PLAY && mj_hand_over(&hand->h))
        return refuse_status(MJ_ERR_HAND_OVER, msg, msg_size);
    mjj_action a;
    char why[MJJ_MESSAGE_SIZE];
    if (mjj_parse_action(action, "The action", &a, why, sizeof why) != MJJ_OK)
        return refuse("bad_request", why, msg, msg_size);
    if (!owes(hand, seat))
        return refuse_not_deciding(hand, seat, msg, msg_size);
    switch (hand->stage) {
    case STAGE_SIT: return act_sit(hand, seat, &a, msg, msg_size);
    case STAGE_PULL: return act_pull(hand, seat, &a, msg, msg_size);
    case STAGE_PLAY: break;
    }
    return window_open(hand) ? act_claim(hand, seat, &a, msg, msg_size) : act_turn(hand, seat, &a, msg, msg_size);
}

/* --- bots and timeouts --- */

/* The bot's choice for the seat the engine waits for: the first legal action, until the house's bot
 * (engine/mj_bot.h, mj_bot_choose) takes its place. */
/* The bot's choice for seat (engine/mj_bot.h: from the seat's own view only), when it owes the
 * engine's decision; false when it does not (a seat in a claim window that cannot claim). */
static bool tianjin_bot_choice(const mj_hand *h, int seat, mj_action *out)
{
    if (mj_hand_deciding(h) != seat)
        return false;
    return mj_bot_choose(h, seat, out);
}

static mjj_action action_of_engine(const mj_action *a)
{
    static const mjj_action_kind KINDS[MJ_ACT_KINDS] = {
        [MJ_ACT_DISCARD] = MJJ_ACT_DISCARD,         [MJ_ACT_WIN] = MJJ_ACT_WIN,
        [MJ_ACT_CONCEALED_KONG] = MJJ_ACT_CONCEALED_KONG, [MJ_ACT_ADDED_KONG] = MJJ_ACT_ADDED_KONG,
        [MJ_ACT_PUNG] = MJJ_ACT_PUNG,               [MJ_ACT_KONG] = MJJ_ACT_KONG,
        [MJ_ACT_PASS] = MJJ_ACT_PASS,
    };
    mjj_action_kind kind = KINDS[a->kind];
    bool tiled = kind == MJJ_ACT_DISCARD || kind == MJJ_ACT_CONCEALED_KONG || kind == MJJ_ACT_ADDED_KONG;
    return (mjj_action){.kind = kind, .value = tiled ? a->tile : 0};
}

/* Before the deal a bot, like a person out of time, does not sit (unless it must) and pulls 0. */
static json_t *pre_hand_default(const game_hand *hand)
{
    mjj_action a = hand->stage == STAGE_SIT ? (mjj_action){MJJ_ACT_SIT, 0} : (mjj_action){MJJ_ACT_PULL, 0};
    return mjj_action_to_json(&a);
}

static json_t *tianjin_bot_action(const game_hand *hand, int seat)
{
    if (!owes(hand, seat))
        return NULL;
    if (hand->stage != STAGE_PLAY)
        return pre_hand_default(hand);
    mj_action choice;
    /* In a window the bot of a seat that cannot claim, or will not, waits for the window's end: a
     * pass made at once would close windows early exactly when nobody else can claim. */
    if (!tianjin_bot_choice(&hand->h, seat, &choice) || choice.kind == MJ_ACT_PASS)
        return NULL;
    mjj_action a = action_of_engine(&choice);
    return mjj_action_to_json(&a);
}

/* Out of time: no sitting, no pull, a pass; on a turn the bot plays (NULL: bot_action). */
static json_t *tianjin_timeout_action(const game_hand *hand, int seat)
{
    if (!owes(hand, seat))
        return NULL;
    if (hand->stage != STAGE_PLAY)
        return pre_hand_default(hand);
    if (window_open(hand))
        return mjj_action_to_json(&(mjj_action){MJJ_ACT_PASS, 0});
    return NULL;
}

/* --- views --- */

static const char *phase_name(const game_hand *hand)
{
    if (hand->stage == STAGE_SIT)
        return "sit";
    if (hand->stage == STAGE_PULL)
        return "pull";
    if (mj_hand_over(&hand->h))
        return "over";
    return window_open(hand) ? "claim" : "turn";
}

static json_t *ints_json(const int values[GAME_SEATS])
{
    return json_pack("[i,i,i,i]", values[0], values[1], values[2], values[3]);
}

static json_t *pulls_json(const uint8_t pulls[MJ_SEATS])
{
    return json_pack("[i,i,i,i]", pulls[0], pulls[1], pulls[2], pulls[3]);
}

static json_t *seats_json(const uint8_t *seats, int n)
{
    json_t *list = json_array();
    for (int i = 0; i < n && list != NULL; i++)
        json_array_append_new(list, json_integer(seats[i]));
    return list;
}

static json_t *tianjin_result_json(const game_hand *hand);

/* Adds key: value to object; a nonzero result when memory ran out (value is taken either way). */
static int put(json_t *object, const char *key, json_t *value) { return json_object_set_new(object, key, value); }

/* The table as everyone sees it once the tiles are dealt: counts for hidden tiles, every meld and
 * discard, the indicator and wilds, the tiles left to draw. Never the wall's order or a seat's tile. */
static int put_table(json_t *view, const mj_hand *h)
{
    int held[GAME_SEATS];
    json_t *melds = json_array(), *discards = json_array();
    for (int s = 0; s < GAME_SEATS; s++) {
        held[s] = mj_counts_total(&h->hand[s]);
        json_array_append_new(melds, mjj_melds_to_json(h->melds[s], h->n_melds[s]));
        json_array_append_new(discards, mjj_tiles_to_json(h->discards[s], h->n_discards[s]));
    }
    int failed = put(view, "indicator", mjj_tile_to_json(h->indicator));
    failed |= put(view, "wilds", mjj_kind_set_to_json(h->wilds));
    failed |= put(view, "wall", json_integer(mj_hand_live_left(h)));
    failed |= put(view, "replacements", json_integer(h->back - h->indicator_at - 1));
    failed |= put(view, "held", ints_json(held));
    failed |= put(view, "melds", melds);
    failed |= put(view, "discards", discards);
    failed |= put(view, "wild_discards", seats_json(h->wild_discards, h->n_wild_discards));
    return failed;
}

static const char *const TABLE_KEYS[] = {"indicator", "wilds", "wall", "replacements", "held", "melds", "discards",
                                         "wild_discards"};

static json_t *tianjin_view_shared(const game_hand *hand)
{
    const mj_hand *h = &hand->h;
    bool dealt = hand->stage == STAGE_PLAY, over = dealt && mj_hand_over(h), window = window_open(hand);
    json_t *view = json_object();
    if (view == NULL)
        return NULL;
    int failed = put(view, "game", json_string("tianjin"));
    failed |= put(view, "phase", json_string(phase_name(hand)));
    failed |= put(view, "banker", json_integer(h->banker));
    failed |= put(view, "count", json_integer(hand->count));
    failed |= put(view, "must_sit", json_boolean(hand->must_sit));
    failed |= put(view, "sat", hand->stage == STAGE_SIT ? json_null() : json_boolean(h->sat));
    failed |= put(view, "pulls", dealt ? pulls_json(h->pulls) : json_null());
    if (dealt) {
        failed |= put_table(view, h);
    } else {
        for (size_t i = 0; i < sizeof TABLE_KEYS / sizeof TABLE_KEYS[0]; i++)
            failed |= put(view, TABLE_KEYS[i], json_null());
    }
    failed |= put(view, "turn", dealt && !over ? json_integer(h->turn) : json_null());
    failed |= put(view, "discard", window ? json_pack("{s:i, s:o}", "seat", h->turn, "tile",
                                                      mjj_tile_to_json(h->last_discard))
                                          : json_null());
    failed |= put(view, "over", json_boolean(over));
    failed |= put(view, "result", over ? tianjin_result_json(hand) : json_null());
    if (failed) {
        json_decref(view);
        return NULL;
    }
    return view;
}

static json_t *list_of_actions(const mjj_action *actions, int n)
{
    json_t *list = json_array();
    for (int i = 0; i < n && list != NULL; i++)
        json_array_append_new(list, mjj_action_to_json(&actions[i]));
    return list;
}

/* On a turn: every action the engine allows, and why the seat may not win when it may not. */
static json_t *turn_legal_json(const mj_hand *h, int seat)
{
    mj_action legal[MJ_MAX_ACTIONS];
    mjj_action actions[MJ_MAX_ACTIONS];
    int n = mj_hand_legal_actions(h, legal);
    for (int i = 0; i < n; i++)
        actions[i] = action_of_engine(&legal[i]);
    mj_status win = mj_hand_win_check(h, seat, NULL);
    json_t *refused = json_null();
    if (win != MJ_OK) {
        char msg[GAME_MESSAGE_SIZE];
        const char *code = refuse_status(win, msg, sizeof msg);
        refused = json_pack("{s:s, s:s}", "code", code, "message", msg);
    }
    return json_pack("{s:s, s:o, s:o}", "kind", "turn", "actions", list_of_actions(actions, n), "win_refused",
                     refused);
}

/* What a deciding seat may send; null when it owes nothing. */
static json_t *legal_json(const game_hand *hand, int seat)
{
    if (seat < 0 || seat >= GAME_SEATS || !owes(hand, seat))
        return json_null();
    mjj_action actions[MJJ_MAX_PULLS + 1];
    int n = 0;
    const char *kind = "pre_hand";
    if (hand->stage == STAGE_SIT) {
        actions[n++] = (mjj_action){MJJ_ACT_SIT, 1};
        actions[n++] = (mjj_action){MJJ_ACT_SIT, 0};
    } else if (hand->stage == STAGE_PULL) {
        for (int p = 0; p <= hand->h.options.max_pulls; p++)
            actions[n++] = (mjj_action){MJJ_ACT_PULL, p};
    } else if (window_open(hand)) {
        /* only a seat that can claim sees more than the pass */
        const mj_hand *h = &hand->h;
        kind = "claim";
        actions[n++] = (mjj_action){MJJ_ACT_PASS, 0};
        if (h->phase == MJ_PHASE_CLAIM && h->claimer == seat) {
            if (h->hand[seat].n[h->last_discard] >= 2)
                actions[n++] = (mjj_action){MJJ_ACT_PUNG, 0};
            if (h->hand[seat].n[h->last_discard] >= 3)
                actions[n++] = (mjj_action){MJJ_ACT_KONG, 0};
        }
    } else {
        return turn_legal_json(&hand->h, seat);
    }
    return json_pack("{s:s, s:o}", "kind", kind, "actions", list_of_actions(actions, n));
}

/* What only this seat sees: its tiles, its drawn tile, its own choices not yet shown, its actions. */
static json_t *tianjin_view_own(const game_hand *hand, int seat)
{
    const mj_hand *h = &hand->h;
    bool mine = seat >= 0 && seat < GAME_SEATS, dealt = hand->stage == STAGE_PLAY;
    bool drew = mine && dealt && h->phase == MJ_PHASE_TURN && h->turn == seat && h->drawn >= 0;
    bool pulled = mine && seat != h->banker && hand->pull[seat] >= 0 && hand->stage != STAGE_SIT;
    return json_pack("{s:i, s:o, s:o, s:o, s:b, s:o}", "seat", mine ? seat : GAME_SPECTATOR, "hand",
                     mine && dealt ? mjj_counts_to_json(&h->hand[seat]) : json_null(), "drawn",
                     drew ? mjj_tile_to_json(h->drawn) : json_null(), "pull",
                     pulled ? json_integer(hand->pull[seat]) : json_null(), "passed",
                     mine && window_open(hand) && hand->passed[seat], "legal", legal_json(hand, seat));
}

static json_t *tianjin_view(const game_hand *hand, int seat)
{
    json_t *view = tianjin_view_shared(hand);
    json_t *own = tianjin_view_own(hand, seat);
    if (view == NULL || own == NULL || json_object_update(view, own) != 0) {
        json_decref(view);
        view = NULL;
    }
    json_decref(own);
    return view;
}

/* Everything: the shared view with the table as dealt even before the choices, every seat's
 * tiles, the wall in the order it will be drawn, the choices not yet shown and who could claim. */
static json_t *tianjin_view_admin(const game_hand *hand)
{
    const mj_hand *h = &hand->h;
    json_t *view = tianjin_view_shared(hand);
    if (view == NULL)
        return NULL;
    json_t *hands = json_array(), *pulls = json_array(), *passed = json_array();
    for (int s = 0; s < GAME_SEATS; s++) {
        json_array_append_new(hands, mjj_counts_to_json(&h->hand[s]));
        json_array_append_new(pulls, hand->pull[s] >= 0 ? json_integer(hand->pull[s]) : json_null());
        json_array_append_new(passed, json_boolean(hand->passed[s]));
    }
    uint8_t replacements[MJ_TILES];
    int n_replacements = 0;
    for (int i = h->back - 1; i > h->indicator_at; i--)
        replacements[n_replacements++] = h->wall[i];
    bool drew = h->phase == MJ_PHASE_TURN && h->drawn >= 0;
    int failed = put_table(view, h);
    failed |= put(view, "options", mjj_table_options_to_json(&h->options, hand->claim_seconds));
    failed |= put(view, "deal", tianjin_deal_json(hand));
    failed |= put(view, "hands", hands);
    failed |= put(view, "drawn", drew ? json_pack("{s:i, s:o, s:b}", "seat", h->turn, "tile",
                                                  mjj_tile_to_json(h->drawn), "replacement", h->on_replacement)
                                      : json_null());
    failed |= put(view, "live_wall", mjj_tiles_to_json(h->wall + h->front, mj_hand_live_left(h)));
    failed |= put(view, "replacement_wall", mjj_tiles_to_json(replacements, n_replacements));
    failed |= put(view, "chosen_pulls", pulls);
    failed |= put(view, "passed", passed);
    failed |= put(view, "claimer", window_open(hand) && h->phase == MJ_PHASE_CLAIM ? json_integer(h->claimer)
                                                                                   : json_null());
    if (failed) {
        json_decref(view);
        return NULL;
    }
    return view;
}

static json_t *tianjin_last_event(const game_hand *hand)
{
    switch (hand->last) {
    case EVENT_NONE: return json_null();
    case EVENT_PRIVATE: return NULL;
    case EVENT_SIT: return json_pack("{s:i, s:b}", "seat", hand->last_seat, "sit", hand->last_action.value);
    case EVENT_PULLS: return json_pack("{s:o}", "pulls", pulls_json(hand->h.pulls));
    case EVENT_NO_CLAIM: return json_pack("{s:o}", "no_claim", mjj_tile_to_json(hand->last_tile));
    case EVENT_PLAY: break;
    }
    /* every play names its tile: a discard, a kong, the claimed discard, the winning tile */
    return json_pack("{s:i, s:o}", "seat", hand->last_seat, mjj_action_key(hand->last_action.kind),
                     mjj_tile_to_json(hand->last_tile));
}

/* --- the end --- */

static bool tianjin_is_over(const game_hand *hand) { return hand->stage == STAGE_PLAY && mj_hand_over(&hand->h); }

/* The ledger's reason for each kind of payment (mj_settle's split). */
static const char *const REASONS[MJ_PAY_WHY_COUNT] = {
    [MJ_PAY_WIN] = "settle",         [MJ_PAY_KONG] = "kong", [MJ_PAY_CONCEALED_KONG] = "concealed_kong",
    [MJ_PAY_GOLD_KONG] = "gold_kong", [MJ_PAY_CHAN] = "chan", [MJ_PAY_WILD_DISCARD] = "wild_discard",
};

static void tianjin_result(const game_hand *hand, game_result *out)
{
    const mj_settlement *st = &hand->h.settlement;
    memset(out, 0, sizeof *out);
    out->winner = hand->h.winner;
    for (int why = 0; why < MJ_PAY_WHY_COUNT; why++) {
        int64_t units[GAME_SEATS] = {0};
        for (int i = 0; i < st->count; i++) {
            if (st->payments[i].why != why)
                continue;
            units[st->payments[i].to] += st->payments[i].units;
            units[st->payments[i].from] -= st->payments[i].units;
        }
        for (int s = 0; s < GAME_SEATS; s++) {
            /* "settle" for every seat, even 0; the other reasons for the seats they moved units for */
            if (units[s] == 0 && why != MJ_PAY_WIN)
                continue;
            game_ledger_line *line = &out->lines[out->n_lines++];
            *line = (game_ledger_line){.seat = s, .units = units[s]};
            snprintf(line->reason, sizeof line->reason, "%s", REASONS[why]);
            out->net[s] += units[s];
        }
    }
}

static int next_count(const game_hand *hand)
{
    if (hand->h.settlement.next_banker != hand->h.banker)
        return 1;
    return hand->count < TJ_MAX_COUNT ? hand->count + 1 : TJ_MAX_COUNT;
}

static json_t *win_json(const mj_hand *h)
{
    if (h->winner < 0)
        return json_null();
    mj_winning_hand w;
    mj_hand_winning_hand(h, h->winner, &w);
    return mjj_win_to_json(h->winner, &h->options, &w, &h->score);
}

static json_t *tianjin_result_json(const game_hand *hand)
{
    const mj_hand *h = &hand->h;
    if (!tianjin_is_over(hand))
        return json_null();
    mj_outcome outcome;
    mj_hand_outcome(h, &outcome);
    const mj_settlement *st = &h->settlement;
    json_t *result = json_object();
    if (result == NULL)
        return NULL;
    int failed = put(result, "banker", json_integer(h->banker));
    failed |= put(result, "count", json_integer(hand->count));
    failed |= put(result, "sat", json_boolean(h->sat));
    failed |= put(result, "pulls", pulls_json(h->pulls));
    failed |= put(result, "indicator", mjj_tile_to_json(h->indicator));
    failed |= put(result, "wilds", mjj_kind_set_to_json(h->wilds));
    failed |= put(result, "winner", h->winner >= 0 ? json_integer(h->winner) : json_null());
    failed |= put(result, "win", win_json(h));
    failed |= put(result, "kongs", mjj_kongs_to_json(h->kongs, h->n_kongs));
    failed |= put(result, "chan", json_boolean(h->chan));
    failed |= put(result, "wild_discards", seats_json(h->wild_discards, h->n_wild_discards));
    failed |= put(result, "payments", mjj_payments_to_json(st, &outcome));
    failed |= put(result, "net", json_pack("[I,I,I,I]", (json_int_t)st->net[0], (json_int_t)st->net[1],
                                           (json_int_t)st->net[2], (json_int_t)st->net[3]));
    failed |= put(result, "next_banker", json_integer(st->next_banker));
    failed |= put(result, "next_count", json_integer(next_count(hand)));
    failed |= put(result, "next_must_sit", json_boolean(st->next_must_sit));
    if (failed) {
        json_decref(result);
        return NULL;
    }
    return result;
}

/* The next hand's banker, count and whether it must sit (§5); NULL before the hand is over. */
static json_t *tianjin_next_table_state(const game_hand *hand)
{
    if (!tianjin_is_over(hand))
        return NULL;
    const mj_settlement *st = &hand->h.settlement;
    return state_json(st->next_banker, next_count(hand), st->next_must_sit);
}

/* Who sat (坐庄) and how each seat pulled (拉庄), and who won: the bank's story in a table's listing. */
static const char *const tianjin_summary_keys[] = {"sat", "pulls", "winner", NULL};

/* The calculator's replay document with the wall as dealt and the dice (not the seed: game.h). */
static json_t *tianjin_score_request(const json_t *options, const json_t *deal, const json_t *state, json_t *actions)
{
    const json_t *wall = json_object_get(deal, "wall"), *dice = json_object_get(deal, "dice");
    if (!json_is_array(wall) || !json_is_integer(dice) || !json_is_object(state) || !json_is_array(actions)) {
        json_decref(actions);
        return NULL;
    }
    return json_pack("{s:s, s:s, s:O, s:O, s:O, s:O, s:o}", "mode", "replay", "game", "tianjin", "options",
                     options != NULL ? options : json_null(), "wall", wall, "dice", dice, "table_state", state,
                     "actions", actions);
}

const game_ops game_tianjin = {
    .name = "tianjin",
    .options_parse = tianjin_options_parse,
    .table_state_new = tianjin_table_state_new,
    .hand_new = tianjin_hand_new,
    .hand_free = tianjin_hand_free,
    .hand_copy = tianjin_hand_copy,
    .deal_json = tianjin_deal_json,
    .decisions = tianjin_decisions,
    .act = tianjin_act,
    .bot_action = tianjin_bot_action,
    .timeout_action = tianjin_timeout_action,
    .view = tianjin_view,
    .view_shared = tianjin_view_shared,
    .view_own = tianjin_view_own,
    .view_admin = tianjin_view_admin,
    .score_request = tianjin_score_request,
    .last_event = tianjin_last_event,
    .is_over = tianjin_is_over,
    .result = tianjin_result,
    .result_json = tianjin_result_json,
    .result_summary_keys = tianjin_summary_keys,
    .next_table_state = tianjin_next_table_state,
};
