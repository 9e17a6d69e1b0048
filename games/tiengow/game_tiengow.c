/*
 * game_tiengow — Tien Gow behind the game interface: the engine (engine/tg_*) for the rules and
 * protocol/tg_json for the wire format. Views of a seat or a spectator are built from tg_view_of,
 * never from the state, so their JSON cannot hold another seat's tiles; only view_admin reads
 * the state itself. One seat decides at a time (its turn); the table state is
 * {"banker":S,"multiplier":M}.
 */
#include "game_tiengow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tg_bot.h"
#include "tg_json.h"
#include "tg_view.h"

struct game_hand {
    tg_state state;
    int64_t stake;
    tg_action last;
    bool has_last;
};

static json_t *tiengow_options_parse(const json_t *options, char *msg, size_t msg_size)
{
    tg_options parsed;
    int64_t stake;
    if (tgj_parse_options(options, &parsed, &stake, msg, msg_size) != TGJ_OK)
        return NULL;
    return tgj_options_to_json(&parsed, stake);
}

/* A new table: the first banker by the dice, at the least multiplier, ×2 (rules/tiengow.md §5). */
static json_t *tiengow_table_state_new(const json_t *options, uint64_t seed)
{
    (void)options;
    return json_pack("{s:i, s:i}", "banker", tg_first_banker(seed), "multiplier", 2);
}

/* The table state as table_state_new and next_table_state write it: exactly an integer banker
 * 0..3 and an integer multiplier from the engine's least (2) to tg_json's cap. */
static bool parse_table_state(const json_t *state, int *banker, uint32_t *multiplier)
{
    const json_t *b = json_object_get(state, "banker"), *m = json_object_get(state, "multiplier");
    if (!json_is_object(state) || json_object_size(state) != 2 || !json_is_integer(b) || !json_is_integer(m))
        return false;
    json_int_t bv = json_integer_value(b), mv = json_integer_value(m);
    if (bv < 0 || bv >= TG_SEATS || mv < 2 || mv > TGJ_MAX_MULTIPLIER)
        return false;
    *banker = (int)bv;
    *multiplier = (uint32_t)mv;
    return true;
}

game_hand *tiengow_hand_from_deal(const tg_options *options, int64_t stake, int banker, uint32_t multiplier,
                                  const uint8_t deal[TG_SEATS][TG_HAND_TILES], tg_status *status)
{
    *status = TG_OK;
    game_hand *hand = calloc(1, sizeof *hand);
    if (hand == NULL)
        return NULL;
    *status = tg_start(&hand->state, options, banker, multiplier, deal);
    if (*status != TG_OK) {
        free(hand);
        return NULL;
    }
    hand->stake = stake;
    return hand;
}

const tg_state *tiengow_hand_state(const game_hand *hand) { return &hand->state; }

static game_hand *tiengow_hand_new(const json_t *options, uint64_t seed, const json_t *state)
{
    tg_options parsed;
    int64_t stake;
    char msg[TGJ_MESSAGE_SIZE];
    int banker;
    uint32_t multiplier;
    if (tgj_parse_options(options, &parsed, &stake, msg, sizeof msg) != TGJ_OK)
        return NULL; /* options come from options_parse, so this does not happen */
    if (!parse_table_state(state, &banker, &multiplier))
        return NULL;
    uint8_t deal[TG_SEATS][TG_HAND_TILES];
    tg_deal(seed, deal);
    const uint8_t(*dealt)[TG_HAND_TILES] = (const uint8_t(*)[TG_HAND_TILES])deal; /* C11: add const explicitly */
    tg_status status;
    return tiengow_hand_from_deal(&parsed, stake, banker, multiplier, dealt, &status);
}

static void tiengow_hand_free(game_hand *hand) { free(hand); }

static game_hand *tiengow_hand_copy(const game_hand *hand)
{
    game_hand *copy = malloc(sizeof *copy);
    if (copy != NULL)
        *copy = *hand; /* the state is a plain value */
    return copy;
}

static json_t *tiengow_deal_json(const game_hand *hand)
{
    json_t *deal = json_array();
    for (int s = 0; s < TG_SEATS; s++)
        json_array_append_new(deal, tgj_tiles_to_json(hand->state.deal[s], TG_HAND_TILES));
    return deal;
}

/* One seat decides at a time: the seat to act, whose turn it is. */
static int tiengow_decisions(const game_hand *hand, game_decision out[GAME_SEATS])
{
    if (tg_is_over(&hand->state))
        return 0;
    out[0] = (game_decision){.seat = hand->state.to_act, .kind = GAME_DECISION_TURN, .seconds = 0};
    return 1;
}

/* A client's action is {"play":[tiles]} or {"discard":[tiles]}; the seat is the connection's. */
static const char *parse_client_action(const json_t *action, int seat, tgj_action *out, char *msg, size_t msg_size)
{
    if (!json_is_object(action)) {
        snprintf(msg, msg_size, "An action is an object {\"play\":[tiles]} or {\"discard\":[tiles]}.");
        return "bad_request";
    }
    if (json_object_get(action, "seat") != NULL) {
        snprintf(msg, msg_size, "An action names no seat: it is the seat of the connection.");
        return "bad_request";
    }
    json_t *with_seat = json_copy((json_t *)action);
    if (with_seat == NULL || json_object_set_new(with_seat, "seat", json_integer(seat)) != 0) {
        json_decref(with_seat);
        snprintf(msg, msg_size, "Out of memory.");
        return "internal";
    }
    tgj_error e = tgj_parse_action(with_seat, "action", out, msg, msg_size);
    json_decref(with_seat);
    return e == TGJ_OK ? NULL : tgj_error_name(e);
}

static const char *tiengow_act(game_hand *hand, int seat, const json_t *action, char *msg, size_t msg_size)
{
    tgj_action parsed;
    const char *error = parse_client_action(action, seat, &parsed, msg, msg_size);
    if (error != NULL)
        return error;
    /* The engine's order (tg_check_action): a finished hand, then the turn, before the tiles; so a
     * wrong count from a seat not to act is not_your_turn, as the calculator reports it (§8). */
    tg_action engine;
    tg_status status;
    if (tg_is_over(&hand->state))
        status = TG_ERR_HAND_OVER;
    else if (parsed.seat != hand->state.to_act)
        status = TG_ERR_NOT_YOUR_TURN;
    else if (!tgj_action_to_engine(&parsed, &engine))
        status = TG_ERR_WRONG_COUNT; /* 0 or more than 4 tiles listed */
    else
        status = tg_apply_action(&hand->state, &engine);
    if (status != TG_OK) {
        snprintf(msg, msg_size, "%s", tg_status_message(status));
        return tg_status_name(status);
    }
    hand->last = engine;
    hand->has_last = true;
    return NULL;
}

static json_t *tiengow_bot_action(const game_hand *hand, int seat)
{
    tg_view view;
    tg_action action;
    tg_view_of(&hand->state, seat, &view);
    if (!tg_bot_choose(&view, &action))
        return NULL;
    return json_pack("{s:o}", action.kind == TG_PLAY ? "play" : "discard", tgj_tiles_to_json(action.tiles, action.n));
}

static json_t *open_trick_json(const tg_trick *t)
{
    json_t *plays = json_array();
    for (int i = 0; i < t->count; i++)
        json_array_append_new(plays, tgj_action_to_json(&t->actions[i]));
    return json_pack("{s:i, s:i, s:b, s:i, s:o}", "leader", t->leader, "tiles", t->n, "final", t->final, "best_seat",
                     t->winner, "plays", plays);
}

static json_t *legal_json(const tg_view *v)
{
    tg_action legal[TG_MAX_ACTIONS];
    int count = tg_view_legal_actions(v, legal, TG_MAX_ACTIONS);
    if (count == 0)
        return json_null();
    const tg_trick *open = tg_view_open_trick(v);
    json_t *plays = json_array();
    for (int i = 0; i < count; i++)
        if (legal[i].kind == TG_PLAY)
            json_array_append_new(plays, tgj_tiles_to_json(legal[i].tiles, legal[i].n));
    bool barred = open != NULL && open->final && tg_barred_from_final(v->stacks[v->seat], open->n);
    return json_pack("{s:o, s:o, s:b}", "plays", plays, "discard", open ? json_integer(open->n) : json_null(),
                     "barred", barred);
}

static json_t *result_of(const tg_state *st, const tg_bonus *bonuses, int n_bonuses, int64_t stake)
{
    const tg_result *r = &st->result;
    json_t *qin = r->qin_captured >= 0 ? json_pack("{s:i}", "captured", r->qin_captured) : json_null();
    return json_pack("{s:i, s:I, s:o, s:i, s:o, s:o, s:o, s:o, s:o, s:i, s:I}", "banker", st->banker, "multiplier",
                     (json_int_t)st->multiplier, "qin", qin, "winner", r->winner, "stacks",
                     tgj_stacks_to_json(r->stacks), "endings", tgj_endings_to_json(r->endings), "bonuses",
                     tgj_bonuses_to_json(bonuses, n_bonuses, stake), "payments",
                     tgj_payments_to_json(&r->settlement, stake), "net", tgj_net_to_json(r->net, stake),
                     "next_banker", r->next_banker, "next_multiplier", (json_int_t)r->next_multiplier);
}

/* What every seat and a spectator see alike: built from the spectator's view, which holds no
 * hidden tile (discards are counts for everyone, the owner included). */
static json_t *tiengow_view_shared(const game_hand *hand)
{
    tg_view v;
    tg_view_of(&hand->state, TG_SPECTATOR, &v);
    const tg_trick *open = tg_view_open_trick(&v);
    int completed = open != NULL ? v.n_tricks - 1 : v.n_tricks;
    bool over = v.phase == TG_PHASE_OVER;
    json_t *view = json_pack("{s:s, s:i, s:I, s:o, s:b}", "game", "tiengow", "banker", v.banker, "multiplier",
                             (json_int_t)v.multiplier, "to_act", over ? json_null() : json_integer(v.to_act), "over",
                             over);
    if (view == NULL)
        return NULL;
    json_object_set_new(view, "held", json_pack("[i,i,i,i]", v.held[0], v.held[1], v.held[2], v.held[3]));
    json_object_set_new(view, "stacks", tgj_stacks_to_json(v.stacks));
    json_object_set_new(view, "tricks", tgj_tricks_to_json(v.tricks, completed));
    json_object_set_new(view, "trick", open ? open_trick_json(open) : json_null());
    json_object_set_new(view, "bonuses", tgj_bonuses_to_json(v.bonuses, v.n_bonuses, hand->stake));
    json_object_set_new(view, "natural",
                        v.natural_seat >= 0 ? json_pack("{s:i, s:o}", "seat", v.natural_seat, "tiles",
                                                        tgj_tiles_to_json(v.natural_tiles, TG_HAND_TILES))
                                            : json_null());
    json_object_set_new(view, "result", over ? result_of(&hand->state, v.bonuses, v.n_bonuses, hand->stake)
                                             : json_null());
    return view;
}

/* What only this seat sees: its seat, its own tiles and, on its turn, its legal actions. */
static json_t *tiengow_view_own(const game_hand *hand, int seat)
{
    tg_view v;
    tg_view_of(&hand->state, seat, &v);
    uint8_t held[TG_HAND_TILES];
    int n_held = 0;
    for (int k = 0; k < TG_KINDS; k++)
        for (int c = 0; c < v.hand[k]; c++)
            held[n_held++] = (uint8_t)k;
    return json_pack("{s:i, s:o, s:o}", "seat", v.seat, "hand",
                     v.seat == TG_SPECTATOR ? json_null() : tgj_tiles_to_json(held, n_held), "legal", legal_json(&v));
}

static json_t *tiengow_view(const game_hand *hand, int seat)
{
    json_t *view = tiengow_view_shared(hand);
    json_t *own = tiengow_view_own(hand, seat);
    if (view == NULL || own == NULL || json_object_update(view, own) != 0) {
        json_decref(view);
        view = NULL;
    }
    json_decref(own);
    return view;
}

/* An action with its faces, a discard's included (tgj_action_to_json writes a discard's count). */
static json_t *action_faces_json(const tg_action *a)
{
    return json_pack("{s:i, s:o}", "seat", a->seat, a->kind == TG_PLAY ? "play" : "discard",
                     tgj_tiles_to_json(a->tiles, a->n));
}

/* Every trick so far, the open one last, each play with its faces; winner is the best so far. */
static json_t *admin_tricks_json(const tg_state *st)
{
    json_t *tricks = json_array();
    for (int i = 0; i < st->n_tricks && tricks != NULL; i++) {
        const tg_trick *t = &st->tricks[i];
        json_t *plays = json_array();
        for (int k = 0; k < t->count && plays != NULL; k++)
            json_array_append_new(plays, action_faces_json(&t->actions[k]));
        json_array_append_new(tricks, json_pack("{s:i, s:i, s:b, s:i, s:o}", "leader", t->leader, "tiles", t->n,
                                                "final", t->final, "winner", t->winner, "plays", plays));
    }
    return tricks;
}

/* Everything, for admins and the record: the deal, every seat's held tiles, every trick with
 * every play's faces (discards are face down to players, so this is the only place they show). */
static json_t *tiengow_view_admin(const game_hand *hand)
{
    const tg_state *st = &hand->state;
    bool over = tg_is_over(st);
    json_t *hands = json_array();
    for (int s = 0; s < TG_SEATS; s++) {
        uint8_t held[TG_HAND_TILES];
        int n = tg_held_tiles(st, s, held);
        json_array_append_new(hands, tgj_tiles_to_json(held, n));
    }
    json_t *view = json_pack("{s:s, s:o, s:i, s:I, s:o, s:b}", "game", "tiengow", "options",
                             tgj_options_to_json(&st->options, hand->stake), "banker", st->banker, "multiplier",
                             (json_int_t)st->multiplier, "to_act", over ? json_null() : json_integer(st->to_act),
                             "over", over);
    if (view == NULL) {
        json_decref(hands);
        return NULL;
    }
    int failed = json_object_set_new(view, "deal", tiengow_deal_json(hand));
    failed |= json_object_set_new(view, "hands", hands);
    failed |= json_object_set_new(view, "held", json_pack("[i,i,i,i]", st->held[0], st->held[1], st->held[2],
                                                          st->held[3]));
    failed |= json_object_set_new(view, "stacks", tgj_stacks_to_json(st->stacks));
    failed |= json_object_set_new(view, "tricks", admin_tricks_json(st));
    failed |= json_object_set_new(view, "bonuses", tgj_bonuses_to_json(st->bonuses, st->n_bonuses, hand->stake));
    failed |= json_object_set_new(
        view, "natural",
        st->natural_seat >= 0 ? json_pack("{s:i, s:o}", "seat", st->natural_seat, "tiles",
                                          tgj_tiles_to_json(st->deal[st->natural_seat], TG_HAND_TILES))
                              : json_null());
    failed |= json_object_set_new(view, "result",
                                  over ? result_of(st, st->bonuses, st->n_bonuses, hand->stake) : json_null());
    if (failed) {
        json_decref(view);
        return NULL;
    }
    return view;
}

static json_t *tiengow_last_event(const game_hand *hand)
{
    return hand->has_last ? tgj_action_to_json(&hand->last) : json_null();
}

static bool tiengow_is_over(const game_hand *hand) { return tg_is_over(&hand->state); }

static void tiengow_result(const game_hand *hand, game_result *out)
{
    const tg_result *r = &hand->state.result;
    out->winner = r->winner;
    for (int s = 0; s < GAME_SEATS; s++)
        out->net[s] = r->net[s] * hand->stake;

    /* The ledger's lines: the settlement for every seat, then each bonus kind summed per seat. */
    out->n_lines = 0;
    for (int s = 0; s < GAME_SEATS; s++) {
        game_ledger_line *line = &out->lines[out->n_lines++];
        *line = (game_ledger_line){.seat = s, .units = r->settlement.net[s] * hand->stake};
        snprintf(line->reason, sizeof line->reason, "settle");
    }
    for (int kind = TG_BONUS_HE_ZUN; kind <= TG_BONUS_QUARTET; kind++) {
        int64_t units[GAME_SEATS] = {0};
        for (int i = 0; i < hand->state.n_bonuses; i++) {
            const tg_bonus *b = &hand->state.bonuses[i];
            if (b->kind != kind)
                continue;
            units[b->to] += b->units * hand->stake;
            units[b->from] -= b->units * hand->stake;
        }
        for (int s = 0; s < GAME_SEATS; s++) {
            if (units[s] == 0)
                continue;
            game_ledger_line *line = &out->lines[out->n_lines++];
            *line = (game_ledger_line){.seat = s, .units = units[s]};
            snprintf(line->reason, sizeof line->reason, "%s", tgj_bonus_kind_name(kind));
        }
    }
}

static json_t *tiengow_result_json(const game_hand *hand)
{
    const tg_state *st = &hand->state;
    return result_of(st, st->bonuses, st->n_bonuses, hand->stake);
}

/* The next hand's banker and multiplier (rules/tiengow.md §5); NULL before the hand is over. */
static json_t *tiengow_next_table_state(const game_hand *hand)
{
    const tg_state *st = &hand->state;
    if (!tg_is_over(st))
        return NULL;
    return json_pack("{s:i, s:I}", "banker", st->result.next_banker, "multiplier",
                     (json_int_t)st->result.next_multiplier);
}

/* Who won the hand, beside its banker and multiplier in a table's listing. */
static const char *const tiengow_summary_keys[] = {"winner", NULL};

/* Adds each discard's faces ("faces") to the plays of trick, which lists st_trick's actions. */
static int open_discards(json_t *trick, const tg_trick *st_trick)
{
    json_t *plays = json_object_get(trick, "plays");
    int failed = 0;
    for (int k = 0; k < st_trick->count && (size_t)k < json_array_size(plays); k++) {
        const tg_action *a = &st_trick->actions[k];
        if (a->kind != TG_PLAY)
            failed |= json_object_set_new(json_array_get(plays, (size_t)k), "faces", tgj_tiles_to_json(a->tiles, a->n));
    }
    return failed;
}

/* A finished hand's replay opens the discards too: the view's completed tricks are the state's
 * first ones in order, its open trick the state's last. */
static int tiengow_view_open_extra(const game_hand *hand, json_t *view)
{
    const tg_state *st = &hand->state;
    json_t *tricks = json_object_get(view, "tricks"), *open = json_object_get(view, "trick");
    int failed = 0;
    for (size_t i = 0; i < json_array_size(tricks) && i < st->n_tricks; i++)
        failed |= open_discards(json_array_get(tricks, i), &st->tricks[i]);
    if (json_is_object(open) && st->n_tricks > 0)
        failed |= open_discards(open, &st->tricks[st->n_tricks - 1]);
    return failed;
}

/* The calculator's replay document: the deal is its "hands", the table state its banker and
 * multiplier (rules/tiengow.md §8). */
static json_t *tiengow_score_request(const json_t *options, const json_t *deal, const json_t *state, json_t *actions)
{
    const json_t *banker = json_object_get(state, "banker"), *multiplier = json_object_get(state, "multiplier");
    if (!json_is_array(deal) || !json_is_integer(banker) || !json_is_integer(multiplier) || !json_is_array(actions)) {
        json_decref(actions);
        return NULL;
    }
    return json_pack("{s:s, s:s, s:O, s:O, s:O, s:O, s:o}", "mode", "replay", "game", "tiengow", "options",
                     options != NULL ? options : json_null(), "banker", banker, "multiplier", multiplier, "hands", deal,
                     "actions", actions);
}

const game_ops game_tiengow = {
    .name = "tiengow",
    .options_parse = tiengow_options_parse,
    .table_state_new = tiengow_table_state_new,
    .hand_new = tiengow_hand_new,
    .hand_free = tiengow_hand_free,
    .hand_copy = tiengow_hand_copy,
    .deal_json = tiengow_deal_json,
    .decisions = tiengow_decisions,
    .act = tiengow_act,
    .bot_action = tiengow_bot_action,
    .timeout_action = NULL, /* a person out of time plays the bot's move */
    .view = tiengow_view,
    .view_shared = tiengow_view_shared,
    .view_own = tiengow_view_own,
    .view_admin = tiengow_view_admin,
    .last_event = tiengow_last_event,
    .is_over = tiengow_is_over,
    .result = tiengow_result,
    .result_json = tiengow_result_json,
    .result_summary_keys = tiengow_summary_keys,
    .next_table_state = tiengow_next_table_state,
    .score_request = tiengow_score_request,
    .view_open_extra = tiengow_view_open_extra,
};
