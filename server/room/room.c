/*
 * room — a table's seats, members, hands, timers, commands and what it stores; what members are
 * sent (snapshots, numbered events, views) is room_view.c.
 *
 * The only timer-driven moves are the turn (a bot or the turn timer acts for the seat to act), the
 * pause between hands, the retry of a paused table and the close of a table nobody is connected to.
 *
 * The hand's writes go one at a time (r->writing): an accepted action is applied to a copy of the
 * hand, the copy becomes the hand only when the store has committed the action, and only then is
 * the event broadcast. Members keep seeing the committed hand meanwhile, so nothing shown can be
 * lost by a crash. Store callbacks may come after the owner destroyed the room: the room is freed
 * only when its timers are closed and every write is answered.
 */
#include "room_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "errors.h"
#include "game_replay.h"
#include "log.h"

/* --- small helpers --- */

_Static_assert(GAME_SEATS == LIMIT_SEATS, "a game's seats are the house's seats");

/* Writes msg; used through FAIL so a refusal is one line that returns its code. */
__attribute__((format(printf, 3, 4))) static void refuse(char *msg, size_t size, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(msg, size, format, args);
    va_end(args);
}

/* A refusal: the code's wire name, with the sentence in msg. */
#define FAIL(code, ...) (refuse(msg, msg_size, __VA_ARGS__), proto_error_name(code))

/* --- the store --- */

static void save_table(room *r);
static void announce_connection(room *r, const player *p);
static void schedule_decisions(room *r);
static void reschedule_seat(room *r, int seat);
static void start_hand(room *r);
static void finish_hand(room *r);
static void update_empty_timer(room *r);
static void on_retry_timer(uv_timer_t *timer);

/* libuv 1.44 runs a timer re-armed with timeout 0 again in the same pass, so a chain of
 * zero-delay bot moves would never let the loop reach I/O; 1 ms is the least that yields. */
static uint64_t at_least_1ms(int ms) { return ms > 0 ? (uint64_t)ms : 1; }

static const char *state_word(const room *r) { return room_state_name(r->state); }

static void free_queued(room *r, queued_action *q);

static void room_free_now(room *r)
{
    if (r->hand != NULL)
        r->game->hand_free(r->hand);
    if (r->pending != NULL)
        r->game->hand_free(r->pending);
    for (int i = 0; i < r->n_queued; i++) {
        json_decref(r->queue[i].reply_id);
        free_queued(r, &r->queue[i]);
    }
    json_decref(r->game_state);
    for (int i = 0; i < ROOM_EVENT_RING; i++)
        free(r->ring[i].text);
    json_decref(r->options);
    free(r);
}

static void maybe_free(room *r)
{
    if (r->destroyed && r->open_handles == 0 && r->writes == 0)
        room_free_now(r);
}

/* Every store callback starts here: false when the room is gone and only the bookkeeping remains. */
static bool write_answered(room *r)
{
    r->writes--;
    return !r->destroyed && !r->parked;
}

static void on_table_saved(void *ctx, const store_error *error, int64_t id)
{
    room *r = ctx;
    r->writes--;
    r->table_saving = false;
    if (error->status == STORE_OK && r->table_id == 0)
        r->table_id = id;
    if (error->status != STORE_OK)
        log_warn("table %s: saving it failed (%s): %s", r->code, store_status_name(error->status), error->message);
    if (r->table_dirty && (error->status == STORE_OK || r->table_id != 0))
        save_table(r); /* what changed meanwhile; also after the owner let go (its closing) */
    if (r->start_when_saved && !r->destroyed && !r->parked) {
        r->start_when_saved = false;
        start_hand(r); /* with the id now, or pausing if the save failed */
    }
    maybe_free(r);
}

/* Saves seats, host, state and the game's table state. One save at a time: a table's first save
 * creates it, so a second one asked before the id is known waits for it. */
static void save_table(room *r)
{
    if (r->env.store == NULL || !r->kept)
        return;
    if (r->table_saving) {
        r->table_dirty = true;
        return;
    }
    store_table t = {.id = r->table_id,
                     .options = r->options,
                     .host_player_id = r->host_id,
                     .is_public = r->is_public,
                     .game_state = r->game_state,
                     .hands_played = (int64_t)r->hands_played,
                     .turn_seconds = r->turn_seconds,
                     .held = r->held,
                     .spectator_chat_off = r->spectator_chat_off};
    snprintf(t.game, sizeof t.game, "%s", r->game->name);
    snprintf(t.code, sizeof t.code, "%s", r->code);
    snprintf(t.state, sizeof t.state, "%s", state_word(r));
    for (int s = 0; s < GAME_SEATS; s++) {
        const seat_state *st = &r->seats[s];
        if (st->leaving)
            t.seats[s] = (store_seat){.player_id = st->left_id}; /* back in their seat after a restart */
        else
            t.seats[s] = (store_seat){.player_id = st->p != NULL ? st->p->id : 0, .bot = st->bot};
    }
    r->table_dirty = false;
    if (store_table_save(r->env.store, &t, on_table_saved, r)) {
        r->table_saving = true;
        r->writes++;
    }
}

/* A write failed: nothing of it was shown. The table waits and tries again. */
static void pause_table(room *r, const store_error *error)
{
    log_warn("table %s paused: %s (%s)", r->code, error->message, store_status_name(error->status));
    r->failed_writes++;
    for (int s = 0; s < GAME_SEATS; s++) { /* no clock runs while paused: they start afresh on resuming */
        uv_timer_stop(&r->clocks[s].timer);
        r->clocks[s].deciding = false;
        r->clocks[s].deadline_ms = 0;
    }
    if (!r->paused)
        room_broadcast(r, json_pack("{s:s, s:s, s:s, s:i}", "kind", "paused", "why",
                               "The server cannot save moves right now; the table waits and tries again.", "store",
                               store_status_name(error->status), "retry_ms", r->env.retry_ms));
    r->paused = true;
    uv_timer_start(&r->retry_timer, on_retry_timer, at_least_1ms(r->env.retry_ms), 0);
}

/* --- who holds a seat: scores and the bank follow players --- */

/* Keeps the score of a player who no longer holds a seat here (the newest at the end). */
static void tally_put(room *r, int64_t player_id, int64_t score)
{
    if (r->n_tallies == ROOM_TALLIES) { /* the oldest goes */
        memmove(&r->tallies[0], &r->tallies[1], (ROOM_TALLIES - 1) * sizeof r->tallies[0]);
        r->n_tallies--;
    }
    r->tallies[r->n_tallies++] = (tally){.player_id = player_id, .score = score};
}

/* The score a player left behind here (taken off the list), 0 for a newcomer. */
static int64_t tally_take(room *r, int64_t player_id)
{
    for (int i = 0; i < r->n_tallies; i++)
        if (r->tallies[i].player_id == player_id) {
            int64_t score = r->tallies[i].score;
            memmove(&r->tallies[i], &r->tallies[i + 1], (size_t)(r->n_tallies - i - 1) * sizeof r->tallies[0]);
            r->n_tallies--;
            return score;
        }
    return 0;
}

/* The seat holding the bank, from the game's table state: a game whose state names a `banker`
 * seat has a bank (both games do); -1 when it has none. The only key of the state rooms read. */
static int bank_seat(const room *r)
{
    json_t *banker = json_object_get(r->game_state, "banker");
    return json_is_integer(banker) && json_integer_value(banker) >= 0 && json_integer_value(banker) < GAME_SEATS
               ? (int)json_integer_value(banker)
               : -1;
}

/* The banker's player gave up the seat: the bank is not the seat's to pass on, so a new one is
 * drawn as at a new table (DECISIONS.md, "The bank when the banker leaves"), and every member is told. */
static void new_bank(room *r)
{
    json_t *fresh = r->game->table_state_new(r->options, rng_next(&r->rng));
    if (fresh == NULL)
        return; /* out of memory: the bank stays where it was */
    json_decref(r->game_state);
    r->game_state = fresh;
    room_broadcast(r, json_pack("{s:s, s:O}", "kind", "bank", "game_state", r->game_state));
}

/* Gives seat s a new holder. The running score belongs to the holder: the one who goes keeps
 * theirs (a bot's stays with the seat's bots), the one who comes gets their own back or 0. A
 * player who leaves during a hand still holds the seat's result until the hand is over. When the
 * bank's holder goes between hands (after a hand was played), a new bank is drawn. */
static void seat_set(room *r, int s, seat_state next)
{
    seat_state *cur = &r->seats[s];
    int64_t out_id = seat_owner(cur), in_id = seat_owner(&next);
    bool out_bot = cur->bot && !cur->leaving, in_bot = next.bot && !next.leaving;
    bool same = out_id != 0 ? out_id == in_id : out_bot == in_bot && in_id == 0;
    bool out_someone = out_id != 0 || out_bot;
    *cur = next;
    if (same)
        return;
    if (out_id != 0)
        tally_put(r, out_id, r->scores[s]);
    else if (out_bot)
        r->bot_scores[s] = r->scores[s];
    r->scores[s] = in_id != 0 ? tally_take(r, in_id) : in_bot ? r->bot_scores[s] : 0;
    if (out_someone && r->hands_played > 0 && !hand_on(r) && bank_seat(r) == s)
        new_bank(r);
}

/* --- the queue of accepted actions --- */

static void drop_pending(room *r)
{
    if (r->pending != NULL)
        r->game->hand_free(r->pending);
    r->pending = NULL;
}

/* The public record of the action just shown, as an event; NULL when the game keeps it private. */
static json_t *action_event(room *r, bool by_bot)
{
    json_t *event = r->game->last_event(r->hand);
    if (event == NULL)
        return NULL;
    json_object_set_new(event, "kind", json_string("action"));
    if (by_bot)
        json_object_set_new(event, "by_bot", json_true());
    return event;
}

/* The mover's answer to its act message: ok once the move is stored, else why not. */
static void answer_mover(room *r, player *p, json_t *id, bool stored)
{
    if (p != NULL && player_connected(p) && !r->parked) {
        json_t *reply = stored ? json_pack("{s:s}", "type", "ok")
                               : json_pack("{s:s, s:s, s:s}", "type", "error", "code", proto_error_name(PROTO_ERR_PAUSED), "message",
                                           "The move could not be recorded, so it was not made; the table is paused.");
        if (id != NULL)
            json_object_set(reply, "id", id);
        room_send_json(r, p, reply);
    }
    json_decref(id);
}

static void free_queued(room *r, queued_action *q)
{
    if (q->hand != NULL)
        r->game->hand_free(q->hand);
    json_decref(q->action);
    *q = (queued_action){0};
}

/* Takes the oldest queued action off the queue into *out (the caller frees it). */
static void dequeue(room *r, queued_action *out)
{
    *out = r->queue[0];
    memmove(&r->queue[0], &r->queue[1], (size_t)(r->n_queued - 1) * sizeof r->queue[0]);
    r->queue[--r->n_queued] = (queued_action){0};
}

/* Shows a decision the game keeps private to the seat that made it: its own fresh view, no seq. */
static void send_private_view(room *r, int seat)
{
    player *p = r->seats[seat].p;
    if (p == NULL || !player_connected(p) || find_member(r, p) == NULL)
        return;
    room_send_json(r, p, json_pack("{s:s, s:s, s:o}", "type", "view", "table", r->code, "view",
                                   r->game->view(r->hand, seat)));
}

static void finish_hand(room *r);

/* A hand write failed: nothing of it was shown. The table pauses; the mover is told. */
static void pause_after_failure(room *r, const store_error *error, bool live)
{
    if (live)
        pause_table(r, error);
}

/* The store answered the oldest queued action (answers come in the order asked). */
static void on_queued_stored(void *ctx, const store_error *error)
{
    room *r = ctx;
    bool live = write_answered(r);
    queued_action q;
    dequeue(r, &q);
    bool stored = error->status == STORE_OK && !r->queue_failed;
    if (error->status == STORE_OK && r->queue_failed)
        log_error("table %s: action %" PRId64 " was stored after an earlier one failed", r->code, r->action_seq + 1);
    if (!stored) {
        /* it and everything after it was checked against a hand that is not the table's */
        if (!r->queue_failed)
            pause_after_failure(r, error, live);
        r->queue_failed = r->n_queued > 0;
        answer_mover(r, q.by, q.reply_id, false);
        free_queued(r, &q);
        maybe_free(r);
        return;
    }
    r->game->hand_free(r->hand);
    r->hand = q.hand;
    q.hand = NULL;
    r->action_seq++;
    if (live) {
        json_t *event = action_event(r, q.by_bot);
        r->clocks[q.seat].private_decided = event == NULL;
        if (r->n_queued == 0 || q.ends_hand)
            schedule_decisions(r); /* before the event, which shows who decides next */
        if (event != NULL)
            room_broadcast(r, event);
        else
            send_private_view(r, q.seat);
        if (q.ends_hand)
            finish_hand(r);
    } else if (q.ends_hand) {
        /* committed while stopping: keep the memory consistent, show nothing */
        json_decref(r->game_state);
        r->game_state = r->game->next_table_state(r->hand);
    }
    answer_mover(r, q.by, q.reply_id, true);
    q.reply_id = NULL;
    free_queued(r, &q);
    maybe_free(r);
}

/* The ledger rows of a finished hand, each seat's line charged to the player who sat there. */
static size_t ledger_entries(const room *r, const game_result *result, store_ledger_entry *entries)
{
    for (int i = 0; i < result->n_lines; i++) {
        const game_ledger_line *line = &result->lines[i];
        const seat_state *st = &r->seats[line->seat];
        entries[i] = (store_ledger_entry){.player_id = st->leaving ? st->left_id : st->p != NULL ? st->p->id : 0,
                                          .seat = line->seat,
                                          .units = line->units};
        snprintf(entries[i].reason, sizeof entries[i].reason, "%s", line->reason);
    }
    return (size_t)result->n_lines;
}

/* Asks the store to write a hand's end: the ending action (seq > 0) or none (a natural hand),
 * the result, the ledger rows and the table's next game state. */
static bool store_hand_end_of(room *r, const game_hand *over, int64_t last_seq, int last_seat,
                              const json_t *last_action, store_done_cb cb)
{
    game_result result;
    r->game->result(over, &result);
    store_ledger_entry entries[GAME_MAX_LEDGER_LINES];
    json_t *result_json = r->game->result_json(over);
    if (result_json != NULL) /* who played it, as they were: history names them even after a rename */
        json_object_set_new(result_json, GAME_RESULT_PLAYERS_KEY, room_hand_players_json(r));
    json_t *next_state = r->game->next_table_state(over);
    store_hand_end end = {.hand_id = r->hand_id,
                          .last_seq = last_seq,
                          .last_seat = last_seat,
                          .last_action = last_action,
                          .result = result_json,
                          .entries = entries,
                          .n_entries = ledger_entries(r, &result, entries),
                          .next_game_state = next_state};
    bool asked = store_hand_finish(r->env.store, &end, cb, r);
    json_decref(result_json);
    json_decref(next_state);
    return asked;
}

/* Applies seat's action to a copy of the latest hand and queues it for the store; it is shown
 * once committed. NULL when accepted, else the engine's refusal (or busy), and nothing changed. */
static const char *play(room *r, int seat, const json_t *action, player *by, const json_t *id, char *msg,
                        size_t msg_size)
{
    if (r->n_queued >= ROOM_MAX_QUEUED)
        return FAIL(PROTO_ERR_BUSY, "Several moves are still being recorded; wait for their events.");
    game_hand *next = r->game->hand_copy(latest_hand(r));
    if (next == NULL)
        return FAIL(PROTO_ERR_INTERNAL, "The server is out of memory.");
    const char *error = r->game->act(next, seat, action, msg, msg_size);
    if (error != NULL) {
        r->game->hand_free(next);
        return error;
    }
    json_t *copy = json_deep_copy(action);
    if (copy == NULL) {
        r->game->hand_free(next);
        return FAIL(PROTO_ERR_INTERNAL, "The server is out of memory.");
    }
    int64_t seq = r->action_seq + r->n_queued + 1;
    bool ends = r->game->is_over(next);
    bool asked = r->env.store == NULL ||
                 (ends ? store_hand_end_of(r, next, seq, seat, copy, on_queued_stored)
                       : store_action_append(r->env.store, r->hand_id, seq, seat, copy, on_queued_stored, r));
    if (!asked) {
        r->game->hand_free(next);
        json_decref(copy);
        return FAIL(PROTO_ERR_UNAVAILABLE, "The server is stopping; the move was not made.");
    }
    r->queue[r->n_queued++] = (queued_action){.hand = next,
                                              .seat = seat,
                                              .action = copy,
                                              .by_bot = by == NULL,
                                              .ends_hand = ends,
                                              .by = by,
                                              .reply_id = id != NULL ? json_incref((json_t *)id) : NULL};
    r->acted[seat] = true;
    uv_timer_stop(&r->clocks[seat].timer);
    r->writes++;
    if (r->env.store == NULL)
        on_queued_stored(r, &(store_error){.status = STORE_OK});
    return NULL;
}

/* --- a hand's end with no action (a natural hand) --- */

static void on_natural_end_stored(void *ctx, const store_error *error)
{
    room *r = ctx;
    bool live = write_answered(r);
    r->writing = WRITE_NONE;
    if (error->status != STORE_OK)
        pause_after_failure(r, error, live);
    else if (live)
        finish_hand(r);
    else {
        json_decref(r->game_state);
        r->game_state = r->game->next_table_state(r->hand);
    }
    maybe_free(r);
}

/* The shown hand is over before any action: store its end with the ledger rows, then show it. */
static void record_hand_end(room *r)
{
    r->writing = WRITE_HAND_FINISH;
    r->writes++;
    if (r->env.store == NULL) {
        on_natural_end_stored(r, &(store_error){.status = STORE_OK});
        return;
    }
    if (!store_hand_end_of(r, r->hand, 0, 0, NULL, on_natural_end_stored)) {
        r->writes--;
        r->writing = WRITE_NONE; /* the store is closing: the hand stays open for recovery */
    }
}

/* --- decisions, bots and timers --- */

/* Plays the bot's action for a deciding seat (a bot's seat, an absent player's) or, when a
 * person's time ran out, the game's default choice. */
static void decide_for(room *r, int seat, bool timed_out)
{
    if (!hand_settled(r) || !game_seat_decides(r->game, r->hand, seat))
        return;
    json_t *action = timed_out && r->game->timeout_action != NULL ? r->game->timeout_action(r->hand, seat)
                                                                  : r->game->bot_action(r->hand, seat);
    if (action == NULL && timed_out && r->game->timeout_action != NULL)
        action = r->game->bot_action(r->hand, seat);
    char msg[GAME_MESSAGE_SIZE];
    if (action != NULL)
        play(r, seat, action, NULL, NULL, msg, sizeof msg); /* chosen among the legal actions */
    json_decref(action);
}

static void on_seat_timer(uv_timer_t *timer)
{
    seat_clock *c = timer->data;
    room *r = c->r;
    if (hand_open(r) && r->n_queued > 0) { /* a move is being stored: decide once it is shown */
        uv_timer_start(timer, on_seat_timer, 1, 0);
        return;
    }
    uint64_t now = uv_now(r->env.loop);
    bool timed_out = c->deadline_ms > 0 && now >= c->deadline_ms;
    if (c->shown)
        c->deadline_ms = 0;
    decide_for(r, c->seat, timed_out || c->shown);
    /* a bot that chose to wait acts again when the decision's time is up */
    if (!timed_out && !c->shown && c->deciding && c->deadline_ms > now && hand_settled(r) &&
        !uv_is_active((uv_handle_t *)timer) && game_seat_decides(r->game, r->hand, c->seat) && r->n_queued == 0)
        uv_timer_start(timer, on_seat_timer, c->deadline_ms - now, 0);
}

/* Sets each seat's clock for what it owes in the shown hand: a seat still deciding the same kind
 * of decision keeps its clock (a claim window runs on while others decide); a seat that acted or
 * starts a new decision gets a fresh one; the others none. */
static void schedule_decisions(room *r)
{
    game_decision owed[GAME_SEATS];
    int n = hand_settled(r) ? r->game->decisions(r->hand, owed) : 0;
    uint64_t now = uv_now(r->env.loop);
    for (int s = 0; s < GAME_SEATS; s++) {
        seat_clock *c = &r->clocks[s];
        const game_decision *d = NULL;
        for (int i = 0; i < n; i++)
            if (owed[i].seat == s)
                d = &owed[i];
        bool keep = d != NULL && c->deciding && c->kind == d->kind && !r->acted[s] &&
                    uv_is_active((uv_handle_t *)&c->timer);
        r->acted[s] = false;
        if (keep)
            continue;
        /* a seat that decided privately still shows as deciding while its window is open, so
         * nobody learns when (or that) it decided */
        bool window_open = false;
        for (int i = 0; i < n && d == NULL && c->private_decided && c->deciding; i++)
            window_open = window_open || owed[i].kind == c->kind;
        if (window_open) {
            uv_timer_stop(&c->timer);
            continue;
        }
        c->private_decided = false;
        uv_timer_stop(&c->timer);
        c->deciding = d != NULL;
        c->deadline_ms = 0;
        c->shown = false;
        if (d == NULL)
            continue;
        c->kind = d->kind;
        const seat_state *st = &r->seats[s];
        uint64_t ms = (uint64_t)(d->seconds > 0 ? d->seconds : r->turn_seconds) * 1000;
        bool waiting_for_return = st->p != NULL && !st->leaving && now < r->restored_until_ms;
        c->deadline_ms = now + ms;
        if (seat_covered_by_bot(st) && !waiting_for_return) {
            uv_timer_start(&c->timer, on_seat_timer, at_least_1ms(r->env.bot_delay_ms), 0);
        } else {
            c->shown = true;
            uv_timer_start(&c->timer, on_seat_timer, ms, 0);
        }
    }
}

/* A seat's cover changed (its player came back, went away or left): the new cover decides (a
 * bot after its pause), but the decision's time runs on: dropping and coming back (a reload)
 * never lengthens a turn or a claim window. */
static void reschedule_seat(room *r, int seat)
{
    seat_clock *c = &r->clocks[seat];
    if (!hand_settled(r) || !c->deciding)
        return;
    const uint64_t deadline = c->deadline_ms;
    const game_decision_kind kind = c->kind;
    r->acted[seat] = true; /* not kept: a clock for the new cover */
    schedule_decisions(r);
    const uint64_t now = uv_now(r->env.loop);
    if (c->deciding && c->kind == kind && deadline > now && c->deadline_ms > deadline) {
        c->deadline_ms = deadline;
        if (c->shown) /* a person's timer: what was left of it */
            uv_timer_start(&c->timer, on_seat_timer, deadline - now, 0);
    }
}

/* The pause between hands is over. A held table starts nothing by itself; a start already asked
 * (the host's start, everyone ready, a save it waits for) goes ahead and the hold applies after. */
static void on_next_hand_timer(uv_timer_t *timer)
{
    room *r = timer->data;
    if (r->state == ROOM_BETWEEN_HANDS && !r->held)
        start_hand(r);
}

/* A paused table tries again: the hand's start, its end, or the decisions (whose actions are redone). */
static void on_retry_timer(uv_timer_t *timer)
{
    room *r = timer->data;
    if (!r->paused || r->parked)
        return;
    r->paused = false;
    r->queue_failed = false;
    room_broadcast(r, json_pack("{s:s}", "kind", "resumed"));
    if (r->state != ROOM_PLAYING)
        start_hand(r);
    else if (r->game->is_over(r->hand))
        record_hand_end(r); /* a natural hand whose end was not stored */
    else {
        for (int s = 0; s < GAME_SEATS; s++)
            r->acted[s] = true; /* every clock starts afresh */
        schedule_decisions(r);
    }
}

static bool all_seats_filled(const room *r)
{
    for (int s = 0; s < GAME_SEATS; s++)
        if (!seat_filled(&r->seats[s]))
            return false;
    return true;
}

/* Who plays the hand now starting (or replayed after a restart), with their names as they are now. */
static void note_hand_seats(room *r)
{
    for (int s = 0; s < GAME_SEATS; s++) {
        const seat_state *st = &r->seats[s];
        hand_seat *hs = &r->hand_seats[s];
        hs->player_id = seat_owner(st);
        snprintf(hs->name, sizeof hs->name, "%s", st->p != NULL ? st->p->name : "");
    }
}

/* Each player of the hand now starting has one more hand this session (for end_table). */
static void count_session_hands(room *r)
{
    for (int s = 0; s < GAME_SEATS; s++) {
        const hand_seat *hs = &r->hand_seats[s];
        if (hs->player_id == 0)
            continue;
        session_player *sp = NULL;
        for (int i = 0; i < r->n_played && sp == NULL; i++)
            if (r->played[i].player_id == hs->player_id)
                sp = &r->played[i];
        if (sp == NULL) {
            if (r->n_played == ROOM_TALLIES) { /* the oldest goes */
                memmove(&r->played[0], &r->played[1], (ROOM_TALLIES - 1) * sizeof r->played[0]);
                r->n_played--;
            }
            sp = &r->played[r->n_played++];
            *sp = (session_player){.player_id = hs->player_id};
        }
        snprintf(sp->name, sizeof sp->name, "%s", hs->name);
        sp->hands++;
    }
}

static void hand_begun(room *r)
{
    if (r->hand != NULL)
        r->game->hand_free(r->hand);
    r->hand = r->pending;
    r->pending = NULL;
    r->action_seq = 0;
    r->hands_played++;
    r->state = ROOM_PLAYING;
    note_hand_seats(r);
    count_session_hands(r);
    for (int i = 0; i < r->n_members; i++)
        r->members[i].ready = false;
    for (int s = 0; s < GAME_SEATS; s++)
        r->acted[s] = true; /* every clock starts afresh */
    schedule_decisions(r);
    room_broadcast(r, json_pack("{s:s, s:I, s:O}", "kind", "hand_started", "hand", (json_int_t)r->hands_played,
                                "game_state", r->game_state));
    /* no table save: the stored hand itself says a hand is on and what its number is */
    if (r->game->is_over(r->hand)) /* a natural hand ends it before any action */
        record_hand_end(r);
}

static void on_hand_begun(void *ctx, const store_error *error, int64_t id)
{
    room *r = ctx;
    bool live = write_answered(r);
    r->writing = WRITE_NONE;
    if (error->status == STORE_CONFLICT && live) {
        /* the number is taken (a save of hands_played lost in a crash): take the next one */
        r->hands_played++;
        drop_pending(r);
        start_hand(r);
    } else if (error->status != STORE_OK) {
        drop_pending(r);
        if (live)
            pause_table(r, error);
    } else if (live) {
        r->hand_id = id;
        hand_begun(r);
    } else {
        drop_pending(r);
    }
    maybe_free(r);
}

static void start_hand(room *r)
{
    uv_timer_stop(&r->next_hand_timer);
    if (r->writing != WRITE_NONE || r->paused || r->parked)
        return;
    if (!all_seats_filled(r)) {
        r->state = ROOM_WAITING;
        room_broadcast(r, json_pack("{s:s, s:s}", "kind", "waiting", "why", "A seat is empty: the host fills it and starts."));
        save_table(r);
        return;
    }
    uint64_t seed = rng_next(&r->rng);
    game_hand *hand = r->game->hand_new(r->options, seed, r->game_state);
    if (hand == NULL) {
        log_error("table %s: the game cannot start a hand from its state", r->code);
        return;
    }
    r->pending = hand;
    r->writing = WRITE_HAND_BEGIN;
    if (r->env.store == NULL) {
        r->writing = WRITE_NONE;
        hand_begun(r);
        return;
    }
    if (r->table_id == 0) {
        drop_pending(r);
        r->writing = WRITE_NONE;
        if (!r->kept) { /* the table is kept from its first hand on: nothing lasts of one never played */
            r->kept = true;
            save_table(r);
        }
        if (r->table_saving) { /* its first save is on the way: the hand follows it */
            r->start_when_saved = true;
            return;
        }
        save_table(r); /* the first save failed: try it again, and the hand after a pause */
        pause_table(r, &(store_error){.status = STORE_IO, .message = "The table could not be saved."});
        return;
    }
    json_t *deal = r->game->deal_json(hand);
    store_hand_start start = {.table_id = r->table_id,
                              .number = (int64_t)r->hands_played + 1,
                              .seed = seed,
                              .deal = deal,
                              .game_state = r->game_state,
                              .options = r->options};
    if (store_hand_begin(r->env.store, &start, on_hand_begun, r)) {
        r->writes++;
    } else {
        drop_pending(r);
        r->writing = WRITE_NONE;
    }
    json_decref(deal);
}

/* Ends a membership (the player left or is gone) and tells the owner, who may free the player. */
static void drop_member(room *r, player *p)
{
    member *m = find_member(r, p);
    if (m == NULL)
        return;
    *m = r->members[--r->n_members];
    for (int i = 0; i < r->n_queued; i++)
        if (r->queue[i].by == p)
            r->queue[i].by = NULL; /* no answer to someone who left */
    for (int i = 0; i < p->n_rooms; i++)
        if (p->rooms[i] == r) {
            p->rooms[i] = p->rooms[--p->n_rooms];
            break;
        }
    r->env.member_left(r->env.ctx, r, p);
}

/* Frees the seats of players who left during the hand; true if there were any. */
static bool free_leaving_seats(room *r)
{
    bool freed = false;
    for (int s = 0; s < GAME_SEATS; s++) {
        if (!r->seats[s].leaving)
            continue;
        seat_set(r, s, (seat_state){0});
        room_broadcast(r, json_pack("{s:s, s:i}", "kind", "seat_left", "seat", s));
        freed = true;
    }
    return freed;
}

/* A person holds a seat (connected or not; one who left mid-hand no longer does). */
static bool someone_seated(const room *r)
{
    for (int s = 0; s < GAME_SEATS; s++)
        if (r->seats[s].p != NULL && !r->seats[s].leaving)
            return true;
    return false;
}

/* The hand's end is stored: show the result and carry the game's state to the next hand. */
static void finish_hand(room *r)
{
    game_result result;
    r->game->result(r->hand, &result);
    for (int s = 0; s < GAME_SEATS; s++)
        r->scores[s] += result.net[s];
    json_decref(r->game_state);
    r->game_state = r->game->next_table_state(r->hand);
    r->state = ROOM_BETWEEN_HANDS;
    schedule_decisions(r); /* none: every clock stops */
    room_broadcast(r, json_pack("{s:s, s:I, s:o, s:[I,I,I,I], s:i, s:o}", "kind", "hand_over", "hand",
                           (json_int_t)r->hands_played, "result", r->game->result_json(r->hand), "scores",
                           (json_int_t)r->scores[0], (json_int_t)r->scores[1], (json_int_t)r->scores[2],
                           (json_int_t)r->scores[3], "next_hand_ms", r->env.next_hand_ms, "players",
                           room_hand_players_json(r)));
    /* the game state was stored with the hand's end; the seats only if they changed */
    if (free_leaving_seats(r))
        save_table(r);
    if (!someone_seated(r)) { /* bots alone do not play on for whoever watches */
        r->state = ROOM_WAITING;
        room_broadcast(r, json_pack("{s:s, s:s}", "kind", "waiting", "why",
                                    "Nobody is seated: the table waits for a player to sit and the host to start."));
        save_table(r);
        return;
    }
    if (!r->held)
        uv_timer_start(&r->next_hand_timer, on_next_hand_timer, at_least_1ms(r->env.next_hand_ms), 0);
}

static void on_empty_timer(uv_timer_t *timer)
{
    room *r = timer->data;
    room_close(r, "Nobody has been at the table for a while.");
    r->env.closed(r->env.ctx, r);
}

/* A table with no connected person closes after a grace period; anyone connected keeps it open. */
static void update_empty_timer(room *r)
{
    for (int i = 0; i < r->n_members; i++)
        if (player_connected(r->members[i].p)) {
            uv_timer_stop(&r->empty_timer);
            return;
        }
    if (!uv_is_active((uv_handle_t *)&r->empty_timer) && r->state != ROOM_CLOSED && !r->parked)
        uv_timer_start(&r->empty_timer, on_empty_timer, (uint64_t)r->env.empty_close_ms, 0);
}

/* --- life cycle --- */

static room *room_new(const room_env *env, const game_ops *game, json_t *options, bool is_public, int turn_seconds,
                      const char *code, uint64_t seed)
{
    room *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->env = *env;
    r->game = game;
    r->options = json_incref(options);
    r->is_public = is_public;
    r->turn_seconds = turn_seconds;
    snprintf(r->code, sizeof r->code, "%s", code);
    rng_seed(&r->rng, seed);
    uv_timer_t *timers[] = {&r->next_hand_timer, &r->empty_timer, &r->retry_timer};
    for (size_t i = 0; i < sizeof timers / sizeof timers[0]; i++) {
        uv_timer_init(env->loop, timers[i]);
        timers[i]->data = r;
        r->open_handles++;
    }
    for (int s = 0; s < GAME_SEATS; s++) {
        seat_clock *c = &r->clocks[s];
        c->r = r;
        c->seat = s;
        uv_timer_init(env->loop, &c->timer);
        c->timer.data = c;
        r->open_handles++;
    }
    return r;
}

room *room_create(const room_env *env, const game_ops *game, json_t *options, bool is_public, int turn_seconds,
                  const char *code, uint64_t seed)
{
    room *r = room_new(env, game, options, is_public, turn_seconds, code, seed);
    if (r == NULL)
        return NULL;
    r->game_state = game->table_state_new(r->options, rng_next(&r->rng));
    if (r->game_state == NULL) {
        room_destroy(r);
        return NULL;
    }
    update_empty_timer(r);
    return r;
}

/* Rebuilds the unfinished hand from its seed and stored actions; false if one is refused. */
static bool replay_hand(room *r, const store_hand *h, char *msg, size_t msg_size)
{
    game_logged_action *log = calloc(h->n_actions + 1, sizeof *log);
    if (log == NULL) {
        snprintf(msg, msg_size, "hand %" PRId64 " cannot start again (out of memory)", h->number);
        return false;
    }
    for (size_t i = 0; i < h->n_actions; i++)
        log[i] = (game_logged_action){.seat = h->actions[i].seat, .action = h->actions[i].action};
    game_replay_error err;
    /* under the options it was started with: the table's saved ones may be older or newer */
    const json_t *options = h->options != NULL ? h->options : r->options;
    game_hand *hand = game_replay(r->game, options, h->seed, h->game_state, log, h->n_actions, NULL, NULL, &err);
    free(log);
    if (hand == NULL) {
        if (err.index < h->n_actions)
            snprintf(msg, msg_size, "hand %" PRId64 ": stored action %" PRId64 " is refused (%s: %s)", h->number,
                     h->actions[err.index].seq, err.code, err.message);
        else
            snprintf(msg, msg_size, "hand %" PRId64 " cannot start again (%s)", h->number, err.message);
        return false;
    }
    r->hand = hand;
    r->hand_id = h->id;
    if (h->options != NULL && !json_equal(h->options, r->options)) { /* newer than the table's last save */
        json_decref(r->options);
        r->options = json_incref(h->options);
    }
    r->action_seq = (int64_t)h->n_actions;
    json_decref(r->game_state);
    r->game_state = json_incref(h->game_state);
    return true;
}

room *room_restore(const room_env *env, const game_ops *game, const store_open_table *t, player *const seated[GAME_SEATS],
                   uint64_t seed, char *msg, size_t msg_size)
{
    const store_table *st = &t->table;
    /* a table kept under an older, wider range of timers gets the nearest one allowed now */
    int turn_seconds = st->turn_seconds < LIMIT_TURN_SECONDS_MIN   ? LIMIT_TURN_SECONDS_MIN
                       : st->turn_seconds > LIMIT_TURN_SECONDS_MAX ? LIMIT_TURN_SECONDS_MAX
                                                                   : st->turn_seconds;
    room *r = room_new(env, game, st->options, st->is_public, turn_seconds, st->code, seed);
    if (r == NULL) {
        snprintf(msg, msg_size, "out of memory");
        return NULL;
    }
    r->table_id = st->id;
    r->kept = true;
    r->held = st->held;
    r->spectator_chat_off = st->spectator_chat_off;
    r->game_state = json_incref(st->game_state);
    game_hand *probe = game->hand_new(r->options, 0, r->game_state);
    if (probe == NULL) { /* a state the game cannot start from (a table kept before its first
                          * hand by an older teahouse): the game's state of a new table */
        log_warn("table %s: its kept game state cannot start a hand; it starts afresh", st->code);
        json_decref(r->game_state);
        r->game_state = game->table_state_new(r->options, rng_next(&r->rng));
    }
    if (probe != NULL)
        game->hand_free(probe);
    r->hands_played = (uint64_t)st->hands_played;
    for (int s = 0; s < GAME_SEATS; s++) {
        r->scores[s] = t->scores[s];
        r->seats[s] = (seat_state){.p = seated[s], .bot = seated[s] == NULL && st->seats[s].bot};
    }
    /* the players who are not seated keep their scores for when they sit again */
    for (size_t i = 0; i < t->n_player_scores && r->n_tallies < ROOM_TALLIES; i++) {
        bool seated_now = false;
        for (int s = 0; s < GAME_SEATS; s++)
            seated_now = seated_now || (seated[s] != NULL && seated[s]->id == t->player_scores[i].player_id);
        if (!seated_now)
            r->tallies[r->n_tallies++] = (tally){.player_id = t->player_scores[i].player_id,
                                                 .score = t->player_scores[i].score};
    }
    /* who played here and how many hands, for the session's final scoreboard */
    for (size_t i = 0; i < t->n_player_scores && r->n_played < ROOM_TALLIES; i++) {
        const store_player_score *ps = &t->player_scores[i];
        if (ps->hands <= 0)
            continue;
        session_player *sp = &r->played[r->n_played++];
        *sp = (session_player){.player_id = ps->player_id, .hands = ps->hands};
        for (int s = 0; s < GAME_SEATS; s++)
            if (seated[s] != NULL && seated[s]->id == ps->player_id)
                snprintf(sp->name, sizeof sp->name, "%s", seated[s]->name);
    }
    if (t->hand != NULL && !replay_hand(r, t->hand, msg, msg_size)) {
        room_destroy(r);
        return NULL;
    }
    note_hand_seats(r);
    if (t->hand != NULL) /* the hand on has no ledger rows yet: its players' count gets it here */
        count_session_hands(r);
    /* the state from what was stored: a hand on, or hands played with every seat filled (the next
     * one follows), or waiting for the host; the stored word is only as fresh as the last seat change */
    bool filled = true;
    for (int s = 0; s < GAME_SEATS; s++)
        filled = filled && seat_filled(&r->seats[s]);
    r->state = t->hand != NULL                      ? ROOM_PLAYING
               : st->hands_played > 0 && filled ? ROOM_BETWEEN_HANDS
                                                : ROOM_WAITING;
    /* the events before the restart are gone; numbering on from the wall clock keeps seq growing
     * for clients that held the old numbers */
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    r->seq = (uint64_t)now.tv_sec * 1000 + (uint64_t)now.tv_nsec / 1000000;
    for (int s = 0; s < GAME_SEATS; s++) {
        player *p = seated[s];
        if (p == NULL || find_member(r, p) != NULL || p->n_rooms >= PLAYER_MAX_ROOMS || r->n_members >= ROOM_MAX_MEMBERS)
            continue;
        member *m = &r->members[r->n_members++];
        *m = (member){.p = p, .last_seq = r->seq}; /* told from here on */
        rate_init(&m->chat, LIMIT_CHAT_BURST, uv_now(env->loop));
        p->rooms[p->n_rooms++] = r;
        if (p->id == st->host_player_id)
            r->host_id = p->id;
    }
    r->restored_until_ms = uv_now(env->loop) + (uint64_t)r->turn_seconds * 1000;
    if (r->state == ROOM_PLAYING) {
        if (r->game->is_over(r->hand))
            record_hand_end(r); /* a natural hand whose end was not stored */
        else
            schedule_decisions(r);
    } else if (r->state == ROOM_BETWEEN_HANDS && !r->held) {
        uv_timer_start(&r->next_hand_timer, on_next_hand_timer, at_least_1ms(r->env.next_hand_ms), 0);
    }
    update_empty_timer(r);
    return r;
}

static void on_timer_closed(uv_handle_t *handle)
{
    room *r = handle->data;
    r->open_handles--;
    maybe_free(r);
}

void room_destroy(room *r)
{
    r->destroyed = true;
    for (int s = 0; s < GAME_SEATS; s++) {
        r->clocks[s].timer.data = r;
        uv_close((uv_handle_t *)&r->clocks[s].timer, on_timer_closed);
    }
    uv_close((uv_handle_t *)&r->next_hand_timer, on_timer_closed);
    uv_close((uv_handle_t *)&r->empty_timer, on_timer_closed);
    uv_close((uv_handle_t *)&r->retry_timer, on_timer_closed);
}

static void stop_timers(room *r)
{
    for (int s = 0; s < GAME_SEATS; s++)
        uv_timer_stop(&r->clocks[s].timer);
    uv_timer_stop(&r->next_hand_timer);
    uv_timer_stop(&r->empty_timer);
    uv_timer_stop(&r->retry_timer);
}

void room_close(room *r, const char *why)
{
    if (r->state == ROOM_CLOSED)
        return;
    stop_timers(r);
    room_broadcast(r, json_pack("{s:s, s:s}", "kind", "closing", "why", why));
    r->state = ROOM_CLOSED;
    for (int s = 0; s < GAME_SEATS; s++)
        r->seats[s].p = NULL;
    while (r->n_members > 0)
        drop_member(r, r->members[r->n_members - 1].p);
    save_table(r);
}

void room_park(room *r, const char *why)
{
    if (r->state == ROOM_CLOSED || r->parked)
        return;
    stop_timers(r);
    room_broadcast(r, json_pack("{s:s, s:s}", "kind", "parked", "why", why));
    r->parked = true;
    while (r->n_members > 0)
        drop_member(r, r->members[r->n_members - 1].p);
}

const char *room_code(const room *r) { return r->code; }
bool room_is_public(const room *r) { return r->is_public; }
room_state room_get_state(const room *r) { return r->state; }
size_t room_member_count(const room *r) { return (size_t)r->n_members; }
uint64_t room_hands_played(const room *r) { return r->hands_played; }
bool room_is_paused(const room *r) { return r->paused; }
uint64_t room_failed_writes(const room *r) { return r->failed_writes; }
bool room_has_member(const room *r, const player *p) { return find_member(r, p) != NULL; }
const game_ops *room_game(const room *r) { return r->game; }
const json_t *room_options(const room *r) { return r->options; }
int64_t room_table_id(const room *r) { return r->table_id; }
bool room_is_locked(const room *r) { return r->locked; }
bool room_is_held(const room *r) { return r->held; }

int room_free_seats(const room *r)
{
    int n = 0;
    for (int s = 0; s < GAME_SEATS; s++)
        n += !seat_filled(&r->seats[s]);
    return n;
}

const char *room_host_name(const room *r)
{
    for (int i = 0; i < r->n_members; i++)
        if (r->members[i].p->id == r->host_id)
            return r->members[i].p->name;
    return "";
}

bool room_knows(const room *r, const player *p)
{
    if (find_member(r, p) != NULL || seat_of(r, p) >= 0)
        return true;
    for (int s = 0; s < GAME_SEATS; s++)
        if (r->seats[s].leaving && r->seats[s].left_id == p->id)
            return true;
    return false;
}

/* --- commands --- */

/* Seats change only between hands, and not while a hand's start or end is being stored. */
static bool seats_locked(const room *r)
{
    return r->state == ROOM_PLAYING || r->writing != WRITE_NONE || r->n_queued > 0 || r->start_when_saved;
}

const char *room_join(room *r, player *p, int seat, const json_t *id, char *msg, size_t msg_size)
{
    member *m = find_member(r, p);
    if (r->locked && !room_knows(r, p))
        return FAIL(PROTO_ERR_TABLE_LOCKED, "The host has locked this table: only the people already at it may come in.");
    if (seat >= 0 && (m != NULL || seat_filled(&r->seats[seat]) || seats_locked(r)))
        return FAIL(PROTO_ERR_SEAT_TAKEN, "Seat %d is not free.", seat);
    if (m == NULL) {
        /* a newcomer who will watch takes a watcher's place; the seats' places stay for those who sit */
        bool will_watch = seat < 0 && seat_of(r, p) < 0;
        if (r->n_members >= ROOM_MAX_MEMBERS || (will_watch && watcher_count(r) >= LIMIT_TABLE_WATCHERS))
            return FAIL(PROTO_ERR_TABLE_FULL,
                        "This table has as many people watching as it can take (%d); a free seat can still be "
                        "taken by joining straight into it.",
                        LIMIT_TABLE_WATCHERS);
        if (p->n_rooms >= PLAYER_MAX_ROOMS)
            return FAIL(PROTO_ERR_TOO_MANY_TABLES, "You are at %d tables already; leave one first.", PLAYER_MAX_ROOMS);
        m = &r->members[r->n_members++];
        *m = (member){.p = p};
        rate_init(&m->chat, LIMIT_CHAT_BURST, uv_now(r->env.loop));
        p->rooms[p->n_rooms++] = r;
        bool changed = seat >= 0;
        if (r->host_id == 0) {
            r->host_id = p->id;
            changed = true;
        }
        if (seat >= 0)
            seat_set(r, seat, (seat_state){.p = p});
        json_t *event = room_event_with_player("joined", p);
        json_object_set_new(event, "seat", seat >= 0 ? json_integer(seat) : json_null());
        room_broadcast(r, event);
        if (changed)
            save_table(r);
    }
    else if (m->away) { /* back at the table's page */
        m->away = false;
        announce_connection(r, p);
    }
    update_empty_timer(r);
    room_send_snapshot(r, m, id);
    return NULL;
}

/* When the host leaves, a seated member becomes host, else any member. */
static void pass_host(room *r, const player *leaving)
{
    if (r->host_id != leaving->id)
        return;
    r->host_id = 0;
    for (int i = 0; i < r->n_members && r->host_id == 0; i++)
        if (r->members[i].p != leaving && seat_of(r, r->members[i].p) >= 0)
            r->host_id = r->members[i].p->id;
    for (int i = 0; i < r->n_members && r->host_id == 0; i++)
        if (r->members[i].p != leaving)
            r->host_id = r->members[i].p->id;
    for (int i = 0; i < r->n_members && r->host_id != 0; i++)
        if (r->members[i].p->id == r->host_id) {
            room_broadcast(r, room_event_with_player("host", r->members[i].p)); /* as set_host tells it */
            break;
        }
}

/* The player stops being a member; a seat in a hand is played by the bot to its end, then freed. */
static void leave(room *r, player *p)
{
    int seat = seat_of(r, p);
    pass_host(r, p);
    if (seat >= 0 && seats_locked(r)) {
        seat_set(r, seat, (seat_state){.p = NULL, .bot = true, .leaving = true, .left_id = p->id});
        reschedule_seat(r, seat);
    } else if (seat >= 0) {
        seat_set(r, seat, (seat_state){0});
        room_broadcast(r, json_pack("{s:s, s:i}", "kind", "seat_left", "seat", seat));
    }
    room_broadcast(r, room_event_with_player("left", p));
    drop_member(r, p);
    save_table(r);
    update_empty_timer(r);
}

const char *room_leave(room *r, player *p, char *msg, size_t msg_size)
{
    if (find_member(r, p) == NULL)
        return FAIL(PROTO_ERR_NOT_AT_TABLE, "You have not joined table %s.", r->code);
    leave(r, p);
    return NULL;
}

const char *room_take_seat(room *r, player *p, int seat, char *msg, size_t msg_size)
{
    if (find_member(r, p) == NULL)
        return FAIL(PROTO_ERR_NOT_AT_TABLE, "You have not joined table %s.", r->code);
    if (seat_of(r, p) >= 0)
        return FAIL(PROTO_ERR_ALREADY_SEATED, "You already have seat %d at this table.", seat_of(r, p));
    if (seats_locked(r))
        return FAIL(PROTO_ERR_HAND_IN_PROGRESS, "Seats change between hands.");
    if (seat_filled(&r->seats[seat]))
        return FAIL(PROTO_ERR_SEAT_TAKEN, "Seat %d is taken.", seat);
    seat_set(r, seat, (seat_state){.p = p});
    json_t *event = room_event_with_player("seat_taken", p);
    json_object_set_new(event, "seat", json_integer(seat));
    room_broadcast(r, event);
    save_table(r);
    return NULL;
}

const char *room_leave_seat(room *r, player *p, char *msg, size_t msg_size)
{
    int seat = seat_of(r, p);
    if (seat < 0)
        return FAIL(PROTO_ERR_NOT_SEATED, "You have no seat at this table.");
    if (seats_locked(r))
        return FAIL(PROTO_ERR_HAND_IN_PROGRESS, "Seats change between hands; leaving the table hands your seat to a bot.");
    if (watcher_count(r) >= LIMIT_TABLE_WATCHERS) /* else joining into a seat and standing up fills every place */
        return FAIL(PROTO_ERR_TABLE_FULL, "Every place to watch is taken; leave the table instead.");
    seat_set(r, seat, (seat_state){0});
    room_broadcast(r, json_pack("{s:s, s:i}", "kind", "seat_left", "seat", seat));
    save_table(r);
    return NULL;
}

static const char *host_only(const room *r, const player *p, char *msg, size_t msg_size)
{
    if (find_member(r, p) == NULL)
        return FAIL(PROTO_ERR_NOT_AT_TABLE, "You have not joined table %s.", r->code);
    if (r->host_id != p->id)
        return FAIL(PROTO_ERR_NOT_HOST, "Only the table's host may do that.");
    return NULL;
}

static const char *bot_seat_change(room *r, const player *p, int seat, bool add, char *msg, size_t msg_size)
{
    const char *error = host_only(r, p, msg, msg_size);
    if (error != NULL)
        return error;
    if (seats_locked(r))
        return FAIL(PROTO_ERR_HAND_IN_PROGRESS, "Seats change between hands.");
    if (add && seat_filled(&r->seats[seat]))
        return FAIL(PROTO_ERR_SEAT_TAKEN, "Seat %d is taken.", seat);
    if (!add && !r->seats[seat].bot)
        return FAIL(PROTO_ERR_SEAT_EMPTY, "Seat %d has no bot.", seat);
    seat_set(r, seat, (seat_state){.bot = add});
    room_broadcast(r, json_pack("{s:s, s:i}", "kind", add ? "bot_added" : "bot_removed", "seat", seat));
    save_table(r);
    return NULL;
}

const char *room_lock(room *r, player *p, bool locked, char *msg, size_t msg_size)
{
    const char *error = host_only(r, p, msg, msg_size);
    if (error != NULL)
        return error;
    if (r->locked != locked) {
        r->locked = locked;
        room_broadcast(r, json_pack("{s:s, s:b}", "kind", "locked", "locked", locked));
    }
    return NULL;
}

const char *room_remove_member(room *r, player *p, int64_t target, char *msg, size_t msg_size)
{
    const char *error = host_only(r, p, msg, msg_size);
    if (error != NULL)
        return error;
    char ref[REF_SIZE];
    if (target == p->id)
        return FAIL(PROTO_ERR_BAD_REQUEST, "You cannot remove yourself; leave the table instead.");
    player *t = NULL;
    for (int i = 0; i < r->n_members && t == NULL; i++)
        if (r->members[i].p->id == target)
            t = r->members[i].p;
    if (t == NULL)
        return FAIL(PROTO_ERR_NOT_AT_TABLE, "%s is not at table %s.", player_ref(target, ref), r->code);
    int seat = seat_of(r, t);
    if (seat >= 0) { /* a seated player stands up and watches: removing them again sends them away */
        if (seats_locked(r))
            return FAIL(PROTO_ERR_HAND_IN_PROGRESS, "A seated player can be stood up only between hands.");
        seat_set(r, seat, (seat_state){0});
        json_t *event = room_event_with_player("seat_left", t);
        json_object_set_new(event, "seat", json_integer(seat));
        json_object_set_new(event, "removed", json_true());
        room_broadcast(r, event);
        save_table(r);
        return NULL;
    }
    room_broadcast(r, room_event_with_player("removed", t)); /* they are told too, then are no member */
    drop_member(r, t);
    update_empty_timer(r);
    return NULL;
}

/* Every connected person seated has said ready for the next hand. */
static bool everyone_ready(const room *r)
{
    for (int s = 0; s < GAME_SEATS; s++) {
        const seat_state *st = &r->seats[s];
        if (st->p != NULL && player_connected(st->p) && !find_member(r, st->p)->ready)
            return false;
    }
    return true;
}

/* --- the host's controls of the session --- */

static player *member_by_id(const room *r, int64_t id)
{
    for (int i = 0; i < r->n_members; i++)
        if (r->members[i].p->id == id)
            return r->members[i].p;
    return NULL;
}

const char *room_set_host(room *r, player *p, int64_t target, char *msg, size_t msg_size)
{
    const char *error = host_only(r, p, msg, msg_size);
    if (error != NULL)
        return error;
    char ref[REF_SIZE];
    if (target == p->id)
        return FAIL(PROTO_ERR_BAD_REQUEST, "You are the host already.");
    player *t = member_by_id(r, target);
    if (t == NULL || !player_connected(t))
        return FAIL(PROTO_ERR_NOT_AT_TABLE, "%s is not at table %s now.", player_ref(target, ref), r->code);
    r->host_id = t->id;
    room_broadcast(r, room_event_with_player("host", t));
    save_table(r);
    return NULL;
}

/* The keys whose values differ between two option objects (a key in either). */
static json_t *changed_keys(const json_t *before, const json_t *after)
{
    json_t *changed = json_array();
    const char *key;
    json_t *value;
    json_object_foreach ((json_t *)after, key, value)
        if (!json_equal(value, json_object_get(before, key)))
            json_array_append_new(changed, json_string(key));
    json_object_foreach ((json_t *)before, key, value)
        if (json_object_get(after, key) == NULL)
            json_array_append_new(changed, json_string(key));
    return changed;
}

const char *room_set_options(room *r, player *p, const json_t *options, char *msg, size_t msg_size)
{
    const char *error = host_only(r, p, msg, msg_size);
    if (error != NULL)
        return error;
    if (seats_locked(r))
        return FAIL(PROTO_ERR_HAND_IN_PROGRESS,
                    "The rules change between hands; hold the table and change them after this hand.");
    json_t *next = r->game->options_parse(options, msg, msg_size);
    if (next == NULL)
        return proto_error_name(PROTO_ERR_BAD_OPTIONS);
    /* the next hand starts from the table's state under the new options: refuse what cannot */
    game_hand *probe = r->game->hand_new(next, 0, r->game_state);
    if (probe == NULL) {
        json_decref(next);
        return FAIL(PROTO_ERR_BAD_OPTIONS, "The next hand cannot start under those options from where the table is.");
    }
    r->game->hand_free(probe);
    json_t *changed = changed_keys(r->options, next);
    if (json_array_size(changed) == 0) { /* the same rules: nothing to tell */
        json_decref(changed);
        json_decref(next);
        return NULL;
    }
    json_decref(r->options);
    r->options = next;
    char ref[REF_SIZE];
    room_broadcast(r, json_pack("{s:s, s:O, s:o, s:s}", "kind", "options", "options", r->options, "changed", changed,
                                "by", player_ref(p->id, ref)));
    save_table(r);
    return NULL;
}

const char *room_hold(room *r, player *p, bool held, char *msg, size_t msg_size)
{
    const char *error = host_only(r, p, msg, msg_size);
    if (error != NULL)
        return error;
    if (r->held == held)
        return NULL; /* as it was: no event */
    r->held = held;
    bool between = !held && r->state == ROOM_BETWEEN_HANDS && !seats_locked(r) && !r->paused;
    /* resumed with everyone ready (they said so while held): the next hand starts now */
    bool at_once = between && everyone_ready(r) && someone_seated(r);
    if (held)
        uv_timer_stop(&r->next_hand_timer);
    json_t *event = json_pack("{s:s, s:b}", "kind", "held", "held", held);
    if (between && !at_once) {
        uv_timer_start(&r->next_hand_timer, on_next_hand_timer, at_least_1ms(r->env.next_hand_ms), 0);
        json_object_set_new(event, "next_hand_ms", json_integer(r->env.next_hand_ms));
    }
    room_broadcast(r, event);
    save_table(r);
    if (at_once)
        start_hand(r);
    return NULL;
}

/* Where a player stands now: their seat's running score, or the one kept for them. */
static int64_t score_of(const room *r, int64_t player_id)
{
    for (int s = 0; s < GAME_SEATS; s++)
        if (seat_owner(&r->seats[s]) == player_id)
            return r->scores[s];
    for (int i = 0; i < r->n_tallies; i++)
        if (r->tallies[i].player_id == player_id)
            return r->tallies[i].score;
    return 0;
}

/* [{"player","name","score","hands"}] of everyone who played here this session, best first. */
static json_t *scoreboard_json(const room *r)
{
    session_player sorted[ROOM_TALLIES];
    int64_t scores[ROOM_TALLIES];
    int n = r->n_played;
    memcpy(sorted, r->played, (size_t)n * sizeof sorted[0]);
    for (int i = 0; i < n; i++)
        scores[i] = score_of(r, sorted[i].player_id);
    for (int i = 1; i < n; i++) /* insertion sort: a few players */
        for (int j = i; j > 0 && scores[j] > scores[j - 1]; j--) {
            session_player sp = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = sp;
            int64_t sc = scores[j];
            scores[j] = scores[j - 1];
            scores[j - 1] = sc;
        }
    json_t *board = json_array();
    for (int i = 0; i < n; i++) {
        char ref[REF_SIZE];
        const player *now = member_by_id(r, sorted[i].player_id);
        const char *name = sorted[i].name[0] != '\0' || now == NULL ? sorted[i].name : now->name; /* known again */
        json_array_append_new(board, json_pack("{s:s, s:s, s:I, s:I}", "player", player_ref(sorted[i].player_id, ref),
                                               "name", name, "score", (json_int_t)scores[i], "hands",
                                               (json_int_t)sorted[i].hands));
    }
    return board;
}

const char *room_end(room *r, player *p, char *msg, size_t msg_size)
{
    const char *error = host_only(r, p, msg, msg_size);
    if (error != NULL)
        return error;
    if (seats_locked(r))
        return FAIL(PROTO_ERR_HAND_IN_PROGRESS,
                    "The session ends between hands; hold the table and end it after this hand.");
    char ref[REF_SIZE];
    room_broadcast(r, json_pack("{s:s, s:I, s:o, s:s}", "kind", "table_ended", "hands", (json_int_t)r->hands_played,
                                "scoreboard", scoreboard_json(r), "by", player_ref(p->id, ref)));
    room_close(r, "The host ended the session.");
    r->env.closed(r->env.ctx, r);
    return NULL;
}

const char *room_spectator_chat(room *r, player *p, bool on, char *msg, size_t msg_size)
{
    const char *error = host_only(r, p, msg, msg_size);
    if (error != NULL)
        return error;
    if (r->spectator_chat_off == !on)
        return NULL; /* as it was: no event */
    r->spectator_chat_off = !on;
    room_broadcast(r, json_pack("{s:s, s:b}", "kind", "spectator_chat", "on", on));
    save_table(r);
    return NULL;
}

const char *room_add_bot(room *r, player *p, int seat, char *msg, size_t msg_size)
{
    return bot_seat_change(r, p, seat, true, msg, msg_size);
}

const char *room_remove_bot(room *r, player *p, int seat, char *msg, size_t msg_size)
{
    return bot_seat_change(r, p, seat, false, msg, msg_size);
}

const char *room_start(room *r, player *p, char *msg, size_t msg_size)
{
    const char *error = host_only(r, p, msg, msg_size);
    if (error != NULL)
        return error;
    if (seats_locked(r))
        return FAIL(PROTO_ERR_HAND_IN_PROGRESS, "A hand is being played.");
    if (r->paused)
        return FAIL(PROTO_ERR_PAUSED, "The table is paused: the server cannot save right now. It tries again shortly.");
    if (!all_seats_filled(r))
        return FAIL(PROTO_ERR_TABLE_NOT_FULL, "A hand starts with all four seats filled (players or bots).");
    if (r->held) { /* the host starting the next hand is the host resuming */
        r->held = false;
        room_broadcast(r, json_pack("{s:s, s:b}", "kind", "held", "held", 0));
        save_table(r);
    }
    start_hand(r);
    return NULL;
}

const char *room_ready(room *r, player *p, char *msg, size_t msg_size)
{
    member *m = find_member(r, p);
    if (m == NULL)
        return FAIL(PROTO_ERR_NOT_AT_TABLE, "You have not joined table %s.", r->code);
    if (seat_of(r, p) < 0)
        return FAIL(PROTO_ERR_NOT_SEATED, "You have no seat at this table.");
    if (r->state != ROOM_BETWEEN_HANDS || r->writing != WRITE_NONE || r->n_queued > 0)
        return FAIL(PROTO_ERR_HAND_IN_PROGRESS, "Ready is for the pause between hands.");
    m->ready = true;
    room_broadcast(r, json_pack("{s:s, s:i}", "kind", "ready", "seat", seat_of(r, p)));
    if (everyone_ready(r) && !r->held) /* held: ready is noted, the host resumes */
        start_hand(r);
    return NULL;
}

const char *room_act(room *r, player *p, const json_t *action, const json_t *id, char *msg, size_t msg_size)
{
    int seat = seat_of(r, p);
    if (find_member(r, p) == NULL)
        return FAIL(PROTO_ERR_NOT_AT_TABLE, "You have not joined table %s.", r->code);
    if (seat < 0)
        return FAIL(PROTO_ERR_NOT_SEATED, "Spectators watch; only seated players act.");
    if (!hand_on(r) || r->game->is_over(latest_hand(r)) || r->writing == WRITE_HAND_FINISH)
        return FAIL(PROTO_ERR_NO_HAND, "No hand is being played.");
    if (r->paused || r->queue_failed)
        return FAIL(PROTO_ERR_PAUSED, "The table is paused: the server cannot save moves right now. It tries again shortly.");
    return play(r, seat, action, p, id, msg, msg_size);
}

const char *room_chat(room *r, player *p, const char *text, char *msg, size_t msg_size)
{
    member *m = find_member(r, p);
    if (m == NULL)
        return FAIL(PROTO_ERR_NOT_AT_TABLE, "You have not joined table %s.", r->code);
    if (r->spectator_chat_off && seat_of(r, p) < 0 && r->host_id != p->id)
        return FAIL(PROTO_ERR_CHAT_OFF, "The host has turned off chat for watchers; take a seat to chat.");
    if (!rate_take(&m->chat, LIMIT_CHAT_PER_MINUTE / 60.0, LIMIT_CHAT_BURST, uv_now(r->env.loop)))
        return FAIL(PROTO_ERR_RATE_LIMITED, "Chat is %d lines at once, then %d a minute; wait a moment.",
                    LIMIT_CHAT_BURST, LIMIT_CHAT_PER_MINUTE);
    char ref[REF_SIZE];
    room_broadcast(r, json_pack("{s:s, s:s, s:s, s:s}", "kind", "chat", "player", player_ref(p->id, ref), "from", p->name,
                           "text", text));
    return NULL;
}

/* --- connections --- */

/* Tells everyone a seated member's presence changed. */
static void announce_connection(room *r, const player *p)
{
    int seat = seat_of(r, p);
    member *m = find_member(r, p);
    if (seat < 0 || m == NULL)
        return;
    room_broadcast(r, json_pack("{s:s, s:i, s:b, s:b}", "kind", "connection", "seat", seat, "connected",
                                player_connected(p), "away", player_connected(p) && m->away));
}

const char *room_presence(room *r, player *p, bool here, char *msg, size_t msg_size)
{
    member *m = find_member(r, p);
    if (m == NULL)
        return FAIL(PROTO_ERR_NOT_AT_TABLE, "You have not joined table %s.", r->code);
    if (m->away == !here)
        return NULL; /* as it was: no event */
    m->away = !here;
    announce_connection(r, p);
    return NULL;
}

int room_seat_of(const room *r, const player *p) { return seat_of(r, p); }

bool room_seat_deciding(const room *r, int seat)
{
    return seat >= 0 && seat < GAME_SEATS && hand_on(r) && r->clocks[seat].deciding;
}

uint64_t room_hand_number(const room *r) { return r->hands_played; }

bool room_is_host(const room *r, const player *p) { return p != NULL && r->host_id == p->id; }

void room_player_connected(room *r, player *p, const json_t *id)
{
    member *m = find_member(r, p);
    if (m == NULL)
        return;
    /* what it missed, if the ring still holds all of it; then a fresh snapshot either way */
    if (r->seq > m->last_seq && r->ring_first_seq != 0 && m->last_seq + 1 >= r->ring_first_seq) {
        json_t *events = json_array();
        for (uint64_t s = m->last_seq + 1; s <= r->seq; s++) {
            const stored_event *e = &r->ring[s % ROOM_EVENT_RING];
            json_t *event = e->text != NULL && e->seq == s ? json_loads(e->text, 0, NULL) : NULL;
            if (event != NULL)
                json_array_append_new(events, json_pack("{s:I, s:o}", "seq", (json_int_t)s, "event", event));
        }
        room_send_json(r, p, json_pack("{s:s, s:s, s:o}", "type", "events", "table", r->code, "events", events));
    }
    m->away = false; /* a connection that comes back is taken as here until its page says otherwise */
    room_send_snapshot(r, m, id);
    int seat = seat_of(r, p);
    if (seat >= 0) {
        reschedule_seat(r, seat); /* back while deciding: a person's timer again */
        room_broadcast(r, json_pack("{s:s, s:i, s:b, s:b}", "kind", "connection", "seat", seat, "connected", 1, "away", 0));
    }
    update_empty_timer(r);
}

void room_player_disconnected(room *r, player *p)
{
    int seat = seat_of(r, p);
    if (seat < 0) { /* a spectator who drops simply leaves (the others' lists of watchers follow) */
        room_broadcast(r, room_event_with_player("left", p));
        drop_member(r, p);
        update_empty_timer(r);
        return;
    }
    if (r->restored_until_ms <= uv_now(r->env.loop))
        reschedule_seat(r, seat); /* the bot covers its decision */
    room_broadcast(r, json_pack("{s:s, s:i, s:b, s:b}", "kind", "connection", "seat", seat, "connected", 0, "away", 0));
    update_empty_timer(r);
}

void room_player_gone(room *r, player *p)
{
    if (find_member(r, p) != NULL)
        leave(r, p);
}
