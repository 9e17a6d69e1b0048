/*
 * room — a table's seats, members, hands, timers and events.
 *
 * Every event goes through broadcast(): it gets the next sequence number, is kept in a ring of
 * recent events (for members who resume) and is sent to each member with that member's own view
 * of the hand. The only timer-driven moves are the turn (a bot or the turn timer acts for the
 * seat to act), the pause between hands and the close of a table nobody is connected to.
 */
#include "room.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

#define ROOM_EVENT_RING 200
#define ROOM_MAX_MEMBERS 64

typedef struct seat_state {
    player *p;      /* the seated player, NULL for a bot seat or an empty one */
    bool bot;
    bool leaving;   /* its player left during the hand: the bot plays it to the end, then it is freed */
} seat_state;

typedef struct member {
    player *p;
    uint64_t last_seq; /* the last event this player's connection was sent */
    bool ready;
} member;

/* Kept as compact text, not as a jansson tree: a tree of a few keys costs several hundred bytes
 * of small allocations, and 200 of them per table outweighed everything else a table holds. */
typedef struct stored_event {
    uint64_t seq;
    char *text;
} stored_event;

struct room {
    room_env env;
    const game_ops *game;
    json_t *options;
    bool is_public;
    int turn_seconds;
    char code[PROTO_CODE_LEN + 1];
    room_state state;
    int host_id;                /* the host's player id, 0 when none */
    seat_state seats[GAME_SEATS];
    member members[ROOM_MAX_MEMBERS];
    int n_members;
    rng_state rng;              /* the seeds of the table's hands */
    game_hand *hand;            /* the hand being played, or the last one (between hands) */
    uint64_t hands_played;
    int banker;
    uint32_t multiplier;
    int64_t scores[GAME_SEATS];
    uint64_t seq;
    stored_event ring[ROOM_EVENT_RING];
    uv_timer_t act_timer;       /* the seat to act: its turn timer, or a bot's pause */
    uv_timer_t next_hand_timer;
    uv_timer_t empty_timer;
    uint64_t turn_deadline_ms;  /* loop time the seat to act runs out of time, 0 if none */
    int open_handles;           /* timers not yet closed; the room is freed at 0 */
};

/* --- small helpers --- */

/* Writes msg; used through FAIL so a refusal is one line that returns its code. */
__attribute__((format(printf, 3, 4))) static void refuse(char *msg, size_t size, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(msg, size, format, args);
    va_end(args);
}

#define FAIL(code, ...) (refuse(msg, msg_size, __VA_ARGS__), (code))

static member *find_member(const room *r, const player *p)
{
    for (int i = 0; i < r->n_members; i++)
        if (r->members[i].p == p)
            return (member *)&r->members[i];
    return NULL;
}

static int seat_of(const room *r, const player *p)
{
    for (int s = 0; s < GAME_SEATS; s++)
        if (p != NULL && r->seats[s].p == p)
            return s;
    return -1;
}

static bool seat_filled(const seat_state *s) { return s->bot || s->p != NULL; }

/* A bot plays the seat: a bot seat, a player who left, or a player not connected. */
static bool seat_covered_by_bot(const seat_state *s)
{
    return s->bot || s->leaving || (s->p != NULL && !player_connected(s->p));
}

static bool hand_on(const room *r) { return r->state == ROOM_PLAYING && r->hand != NULL; }

static const char *player_ref(int id, char buf[16])
{
    snprintf(buf, 16, "p%d", id);
    return buf;
}

/* --- what members see --- */

static json_t *seats_json(const room *r)
{
    json_t *seats = json_array();
    for (int s = 0; s < GAME_SEATS; s++) {
        const seat_state *st = &r->seats[s];
        char ref[16];
        json_t *seat = json_pack("{s:i, s:b}", "seat", s, "bot", st->bot);
        if (st->p != NULL) {
            json_object_set_new(seat, "player", json_string(player_ref(st->p->id, ref)));
            json_object_set_new(seat, "name", json_string(st->p->name));
            json_object_set_new(seat, "connected", json_boolean(player_connected(st->p)));
        } else {
            json_object_set_new(seat, "player", json_null());
            json_object_set_new(seat, "name", json_null());
            json_object_set_new(seat, "connected", json_boolean(st->bot));
        }
        json_array_append_new(seats, seat);
    }
    return seats;
}

static const char *state_name(room_state state)
{
    static const char *const NAMES[] = {"waiting", "playing", "between_hands", "closed"};
    return NAMES[state];
}

static json_t *turn_json(const room *r)
{
    if (!hand_on(r) || r->game->is_over(r->hand))
        return json_null();
    uint64_t now = uv_now(r->env.loop);
    uint64_t left = r->turn_deadline_ms > now ? r->turn_deadline_ms - now : 0;
    return json_pack("{s:i, s:o}", "seat", r->game->to_act(r->hand), "ms_left",
                     r->turn_deadline_ms > 0 ? json_integer((json_int_t)left) : json_null());
}

static const player *find_player_by_id(const room *r, int id)
{
    for (int i = 0; i < r->n_members; i++)
        if (r->members[i].p->id == id)
            return r->members[i].p;
    return NULL;
}

json_t *room_summary(const room *r)
{
    const player *host = find_player_by_id(r, r->host_id);
    return json_pack("{s:s, s:s, s:O, s:b, s:o, s:s, s:s, s:I}", "code", r->code, "game", r->game->name, "options",
                     r->options, "public", r->is_public, "seats", seats_json(r), "state", state_name(r->state), "host",
                     host != NULL ? host->name : "", "hands_played", (json_int_t)r->hands_played);
}

static json_t *info_json(const room *r)
{
    json_t *info = room_summary(r);
    char ref[16];
    json_object_set_new(info, "host", r->host_id ? json_string(player_ref(r->host_id, ref)) : json_null());
    json_object_set_new(info, "turn_seconds", json_integer(r->turn_seconds));
    json_object_set_new(info, "banker", json_integer(r->banker));
    json_object_set_new(info, "multiplier", json_integer(r->multiplier));
    json_object_set_new(info, "scores",
                        json_pack("[I,I,I,I]", (json_int_t)r->scores[0], (json_int_t)r->scores[1],
                                  (json_int_t)r->scores[2], (json_int_t)r->scores[3]));
    json_object_set_new(info, "turn", turn_json(r));
    return info;
}

static json_t *view_for(const room *r, const player *p)
{
    if (r->hand == NULL)
        return json_null();
    return r->game->view(r->hand, seat_of(r, p));
}

static void send_json(room *r, player *p, json_t *message)
{
    char *text = json_dumps(message, JSON_COMPACT);
    if (text != NULL) {
        r->env.send(r->env.ctx, p, text, strlen(text));
        free(text);
    }
    json_decref(message);
}

static void send_snapshot(room *r, member *m, const json_t *id)
{
    int seat = seat_of(r, m->p);
    json_t *message = json_pack("{s:s, s:s, s:I, s:o, s:o, s:o}", "type", "snapshot", "table", r->code, "seq",
                                (json_int_t)r->seq, "info", info_json(r), "seat",
                                seat >= 0 ? json_integer(seat) : json_null(), "view", view_for(r, m->p));
    if (id != NULL)
        json_object_set(message, "id", (json_t *)id);
    m->last_seq = r->seq;
    send_json(r, m->p, message);
}

/* Numbers the event (taking it), keeps its text for resuming members and sends it to every connected
 * member with that member's own view; spectators all get one identical frame. */
static void broadcast(room *r, json_t *event)
{
    r->seq++;
    stored_event *slot = &r->ring[r->seq % ROOM_EVENT_RING];
    free(slot->text);
    slot->seq = r->seq;
    slot->text = json_dumps(event, JSON_COMPACT);

    /* Everything but the view is the same for every member: serialise it once, as the start of
     * the object, and append each member's view. */
    json_t *common = json_pack("{s:s, s:s, s:I, s:O, s:o, s:o}", "type", "event", "table", r->code, "seq",
                               (json_int_t)r->seq, "event", event, "turn", turn_json(r), "seats", seats_json(r));
    char *common_text = json_dumps(common, JSON_COMPACT);
    json_decref(common);
    json_decref(event);
    if (common_text == NULL)
        return;
    size_t common_len = strlen(common_text) - 1; /* without the closing brace */
    char *spectator_text = NULL;
    for (int i = 0; i < r->n_members; i++) {
        member *m = &r->members[i];
        if (!player_connected(m->p))
            continue; /* it resumes from the ring */
        int seat = seat_of(r, m->p);
        if (seat < 0 && spectator_text != NULL) {
            r->env.send(r->env.ctx, m->p, spectator_text, strlen(spectator_text));
            m->last_seq = r->seq;
            continue;
        }
        json_t *view = view_for(r, m->p);
        char *view_text = json_dumps(view, JSON_COMPACT | JSON_ENCODE_ANY);
        json_decref(view);
        if (view_text == NULL)
            continue;
        size_t view_len = strlen(view_text);
        char *text = malloc(common_len + sizeof ",\"view\":" - 1 + view_len + 2);
        if (text == NULL) {
            free(view_text);
            continue;
        }
        size_t len = 0;
        memcpy(text, common_text, common_len);
        len += common_len;
        memcpy(text + len, ",\"view\":", sizeof ",\"view\":" - 1);
        len += sizeof ",\"view\":" - 1;
        memcpy(text + len, view_text, view_len);
        len += view_len;
        text[len++] = '}';
        text[len] = '\0';
        free(view_text);
        r->env.send(r->env.ctx, m->p, text, len);
        m->last_seq = r->seq;
        if (seat < 0)
            spectator_text = text;
        else
            free(text);
    }
    free(spectator_text);
    free(common_text);
}

static json_t *event_with_player(const char *kind, const player *p)
{
    char ref[16];
    return json_pack("{s:s, s:s, s:s}", "kind", kind, "player", player_ref(p->id, ref), "name", p->name);
}

/* --- turns, bots and timers --- */

static void schedule_turn(room *r);
static void finish_hand(room *r);
static void start_hand(room *r);
static void update_empty_timer(room *r);

/* After an accepted action: tell everyone, then either end the hand or arm the next turn. */
static void after_action(room *r, json_t *event)
{
    json_object_set_new(event, "kind", json_string("action"));
    if (r->game->is_over(r->hand)) {
        uv_timer_stop(&r->act_timer);
        r->turn_deadline_ms = 0;
        broadcast(r, event);
        finish_hand(r);
        return;
    }
    schedule_turn(r);
    broadcast(r, event);
}

/* Plays the bot's action for the seat to act (a bot's seat, an absent player's, or a timeout). */
static void bot_acts(room *r)
{
    if (!hand_on(r) || r->game->is_over(r->hand))
        return;
    int seat = r->game->to_act(r->hand);
    json_t *action = r->game->bot_action(r->hand, seat);
    char msg[GAME_MESSAGE_SIZE];
    const char *error = action != NULL ? r->game->act(r->hand, seat, action, msg, sizeof msg) : "no_action";
    json_decref(action);
    if (error != NULL)
        return; /* the bot chooses among the legal actions, so this does not happen */
    json_t *event = r->game->last_event(r->hand);
    json_object_set_new(event, "by_bot", json_true());
    after_action(r, event);
}

static void on_act_timer(uv_timer_t *timer)
{
    room *r = timer->data;
    r->turn_deadline_ms = 0;
    bot_acts(r);
}

/* libuv 1.44 runs a timer re-armed with timeout 0 again in the same pass, so a chain of
 * zero-delay bot moves would never let the loop reach I/O; 1 ms is the least that yields. */
static uint64_t at_least_1ms(int ms) { return ms > 0 ? (uint64_t)ms : 1; }

/* Arms the timer for the seat to act: a short pause for a bot, the turn timer for a person. */
static void schedule_turn(room *r)
{
    uv_timer_stop(&r->act_timer);
    r->turn_deadline_ms = 0;
    if (!hand_on(r) || r->game->is_over(r->hand))
        return;
    const seat_state *s = &r->seats[r->game->to_act(r->hand)];
    if (seat_covered_by_bot(s)) {
        uv_timer_start(&r->act_timer, on_act_timer, at_least_1ms(r->env.bot_delay_ms), 0);
    } else {
        uint64_t ms = (uint64_t)r->turn_seconds * 1000;
        r->turn_deadline_ms = uv_now(r->env.loop) + ms;
        uv_timer_start(&r->act_timer, on_act_timer, ms, 0);
    }
}

static void on_next_hand_timer(uv_timer_t *timer)
{
    room *r = timer->data;
    if (r->state == ROOM_BETWEEN_HANDS)
        start_hand(r);
}

static bool all_seats_filled(const room *r)
{
    for (int s = 0; s < GAME_SEATS; s++)
        if (!seat_filled(&r->seats[s]))
            return false;
    return true;
}

static void start_hand(room *r)
{
    uv_timer_stop(&r->next_hand_timer);
    if (!all_seats_filled(r)) {
        r->state = ROOM_WAITING;
        broadcast(r, json_pack("{s:s, s:s}", "kind", "waiting", "why", "A seat is empty: the host fills it and starts."));
        return;
    }
    game_hand *hand = r->game->hand_new(r->options, rng_next(&r->rng), r->banker, r->multiplier);
    if (hand == NULL)
        return;
    if (r->hand != NULL)
        r->game->hand_free(r->hand);
    r->hand = hand;
    r->hands_played++;
    r->state = ROOM_PLAYING;
    for (int i = 0; i < r->n_members; i++)
        r->members[i].ready = false;
    schedule_turn(r);
    broadcast(r, json_pack("{s:s, s:I, s:i, s:I}", "kind", "hand_started", "hand", (json_int_t)r->hands_played,
                           "banker", r->banker, "multiplier", (json_int_t)r->multiplier));
    if (r->game->is_over(hand)) /* a natural hand ends it before any action */
        finish_hand(r);
}

/* Ends a membership (the player left or is gone) and tells the owner, who may free the player. */
static void drop_member(room *r, player *p)
{
    member *m = find_member(r, p);
    if (m == NULL)
        return;
    *m = r->members[--r->n_members];
    for (int i = 0; i < p->n_rooms; i++)
        if (p->rooms[i] == r) {
            p->rooms[i] = p->rooms[--p->n_rooms];
            break;
        }
    r->env.member_left(r->env.ctx, r, p);
}

static void free_leaving_seats(room *r)
{
    for (int s = 0; s < GAME_SEATS; s++) {
        if (!r->seats[s].leaving)
            continue;
        r->seats[s] = (seat_state){.p = NULL, .bot = false, .leaving = false};
        broadcast(r, json_pack("{s:s, s:i}", "kind", "seat_left", "seat", s));
    }
}

static void finish_hand(room *r)
{
    uv_timer_stop(&r->act_timer);
    r->turn_deadline_ms = 0;
    game_result result;
    r->game->result(r->hand, &result);
    for (int s = 0; s < GAME_SEATS; s++)
        r->scores[s] += result.net[s];
    r->banker = result.next_banker;
    r->multiplier = result.next_multiplier;
    r->state = ROOM_BETWEEN_HANDS;
    broadcast(r, json_pack("{s:s, s:I, s:o, s:[I,I,I,I], s:i}", "kind", "hand_over", "hand",
                           (json_int_t)r->hands_played, "result", r->game->result_json(r->hand), "scores",
                           (json_int_t)r->scores[0], (json_int_t)r->scores[1], (json_int_t)r->scores[2],
                           (json_int_t)r->scores[3], "next_hand_ms", r->env.next_hand_ms));
    free_leaving_seats(r);
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
    if (!uv_is_active((uv_handle_t *)&r->empty_timer) && r->state != ROOM_CLOSED)
        uv_timer_start(&r->empty_timer, on_empty_timer, (uint64_t)r->env.empty_close_ms, 0);
}

/* --- life cycle --- */

room *room_create(const room_env *env, const game_ops *game, json_t *options, bool is_public, int turn_seconds,
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
    r->banker = game->first_banker(rng_next(&r->rng));
    r->multiplier = 2;
    uv_timer_t *timers[] = {&r->act_timer, &r->next_hand_timer, &r->empty_timer};
    for (int i = 0; i < 3; i++) {
        uv_timer_init(env->loop, timers[i]);
        timers[i]->data = r;
        r->open_handles++;
    }
    update_empty_timer(r);
    return r;
}

static void on_timer_closed(uv_handle_t *handle)
{
    room *r = handle->data;
    if (--r->open_handles == 0)
        free(r);
}

void room_destroy(room *r)
{
    if (r->hand != NULL)
        r->game->hand_free(r->hand);
    r->hand = NULL;
    for (int i = 0; i < ROOM_EVENT_RING; i++)
        free(r->ring[i].text);
    json_decref(r->options);
    uv_close((uv_handle_t *)&r->act_timer, on_timer_closed);
    uv_close((uv_handle_t *)&r->next_hand_timer, on_timer_closed);
    uv_close((uv_handle_t *)&r->empty_timer, on_timer_closed);
}

void room_close(room *r, const char *why)
{
    if (r->state == ROOM_CLOSED)
        return;
    uv_timer_stop(&r->act_timer);
    uv_timer_stop(&r->next_hand_timer);
    uv_timer_stop(&r->empty_timer);
    broadcast(r, json_pack("{s:s, s:s}", "kind", "closing", "why", why));
    r->state = ROOM_CLOSED;
    for (int s = 0; s < GAME_SEATS; s++)
        r->seats[s].p = NULL;
    while (r->n_members > 0)
        drop_member(r, r->members[r->n_members - 1].p);
}

const char *room_code(const room *r) { return r->code; }
bool room_is_public(const room *r) { return r->is_public; }
room_state room_get_state(const room *r) { return r->state; }
size_t room_member_count(const room *r) { return (size_t)r->n_members; }
uint64_t room_hands_played(const room *r) { return r->hands_played; }

/* --- commands --- */

const char *room_join(room *r, player *p, int seat, const json_t *id, char *msg, size_t msg_size)
{
    member *m = find_member(r, p);
    if (seat >= 0 && (m != NULL || seat_filled(&r->seats[seat]) || r->state == ROOM_PLAYING))
        return FAIL("seat_taken", "Seat %d is not free.", seat);
    if (m == NULL) {
        if (r->n_members >= ROOM_MAX_MEMBERS)
            return FAIL("table_full", "This table has as many people as it can take.");
        if (p->n_rooms >= PLAYER_MAX_ROOMS)
            return FAIL("too_many_tables", "You are at %d tables already; leave one first.", PLAYER_MAX_ROOMS);
        m = &r->members[r->n_members++];
        *m = (member){.p = p};
        p->rooms[p->n_rooms++] = r;
        if (r->host_id == 0)
            r->host_id = p->id;
        if (seat >= 0)
            r->seats[seat].p = p;
        json_t *event = event_with_player("joined", p);
        json_object_set_new(event, "seat", seat >= 0 ? json_integer(seat) : json_null());
        broadcast(r, event);
    }
    update_empty_timer(r);
    send_snapshot(r, m, id);
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
    if (r->host_id != 0) {
        char ref[16];
        broadcast(r, json_pack("{s:s, s:s}", "kind", "host", "player", player_ref(r->host_id, ref)));
    }
}

/* The player stops being a member; a seat in a hand is played by the bot to its end, then freed. */
static void leave(room *r, player *p)
{
    int seat = seat_of(r, p);
    pass_host(r, p);
    if (seat >= 0 && hand_on(r)) {
        r->seats[seat] = (seat_state){.p = NULL, .bot = true, .leaving = true};
        if (r->game->to_act(r->hand) == seat)
            schedule_turn(r);
    } else if (seat >= 0) {
        r->seats[seat].p = NULL;
        broadcast(r, json_pack("{s:s, s:i}", "kind", "seat_left", "seat", seat));
    }
    broadcast(r, event_with_player("left", p));
    drop_member(r, p);
    update_empty_timer(r);
}

const char *room_leave(room *r, player *p, char *msg, size_t msg_size)
{
    if (find_member(r, p) == NULL)
        return FAIL("not_at_table", "You have not joined table %s.", r->code);
    leave(r, p);
    return NULL;
}

const char *room_take_seat(room *r, player *p, int seat, char *msg, size_t msg_size)
{
    if (find_member(r, p) == NULL)
        return FAIL("not_at_table", "You have not joined table %s.", r->code);
    if (seat_of(r, p) >= 0)
        return FAIL("already_seated", "You already have seat %d at this table.", seat_of(r, p));
    if (r->state == ROOM_PLAYING)
        return FAIL("hand_in_progress", "Seats change between hands.");
    if (seat_filled(&r->seats[seat]))
        return FAIL("seat_taken", "Seat %d is taken.", seat);
    r->seats[seat].p = p;
    json_t *event = event_with_player("seat_taken", p);
    json_object_set_new(event, "seat", json_integer(seat));
    broadcast(r, event);
    return NULL;
}

const char *room_leave_seat(room *r, player *p, char *msg, size_t msg_size)
{
    int seat = seat_of(r, p);
    if (seat < 0)
        return FAIL("not_seated", "You have no seat at this table.");
    if (r->state == ROOM_PLAYING)
        return FAIL("hand_in_progress", "Seats change between hands; leaving the table hands your seat to a bot.");
    r->seats[seat].p = NULL;
    broadcast(r, json_pack("{s:s, s:i}", "kind", "seat_left", "seat", seat));
    return NULL;
}

static const char *host_only(const room *r, const player *p, char *msg, size_t msg_size)
{
    if (find_member(r, p) == NULL)
        return FAIL("not_at_table", "You have not joined table %s.", r->code);
    if (r->host_id != p->id)
        return FAIL("not_host", "Only the table's host may do that.");
    return NULL;
}

static const char *bot_seat_change(room *r, const player *p, int seat, bool add, char *msg, size_t msg_size)
{
    const char *error = host_only(r, p, msg, msg_size);
    if (error != NULL)
        return error;
    if (r->state == ROOM_PLAYING)
        return FAIL("hand_in_progress", "Seats change between hands.");
    if (add && seat_filled(&r->seats[seat]))
        return FAIL("seat_taken", "Seat %d is taken.", seat);
    if (!add && !r->seats[seat].bot)
        return FAIL("seat_empty", "Seat %d has no bot.", seat);
    r->seats[seat].bot = add;
    broadcast(r, json_pack("{s:s, s:i}", "kind", add ? "bot_added" : "bot_removed", "seat", seat));
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
    if (r->state == ROOM_PLAYING)
        return FAIL("hand_in_progress", "A hand is being played.");
    if (!all_seats_filled(r))
        return FAIL("table_not_full", "A hand starts with all four seats filled (players or bots).");
    start_hand(r);
    return NULL;
}

const char *room_ready(room *r, player *p, char *msg, size_t msg_size)
{
    member *m = find_member(r, p);
    if (m == NULL)
        return FAIL("not_at_table", "You have not joined table %s.", r->code);
    if (seat_of(r, p) < 0)
        return FAIL("not_seated", "You have no seat at this table.");
    if (r->state != ROOM_BETWEEN_HANDS)
        return FAIL("hand_in_progress", "Ready is for the pause between hands.");
    m->ready = true;
    broadcast(r, json_pack("{s:s, s:i}", "kind", "ready", "seat", seat_of(r, p)));
    for (int s = 0; s < GAME_SEATS; s++) {
        const seat_state *st = &r->seats[s];
        if (st->p != NULL && player_connected(st->p) && !find_member(r, st->p)->ready)
            return NULL; /* still waiting for someone */
    }
    start_hand(r);
    return NULL;
}

const char *room_act(room *r, player *p, const json_t *action, char *msg, size_t msg_size)
{
    int seat = seat_of(r, p);
    if (find_member(r, p) == NULL)
        return FAIL("not_at_table", "You have not joined table %s.", r->code);
    if (seat < 0)
        return FAIL("not_seated", "Spectators watch; only seated players act.");
    if (!hand_on(r) || r->game->is_over(r->hand))
        return FAIL("no_hand", "No hand is being played.");
    const char *error = r->game->act(r->hand, seat, action, msg, msg_size);
    if (error != NULL)
        return error;
    after_action(r, r->game->last_event(r->hand));
    return NULL;
}

const char *room_chat(room *r, player *p, const char *text, char *msg, size_t msg_size)
{
    if (find_member(r, p) == NULL)
        return FAIL("not_at_table", "You have not joined table %s.", r->code);
    char ref[16];
    broadcast(r, json_pack("{s:s, s:s, s:s, s:s}", "kind", "chat", "player", player_ref(p->id, ref), "from", p->name,
                           "text", text));
    return NULL;
}

/* --- connections --- */

void room_player_connected(room *r, player *p, const json_t *id)
{
    member *m = find_member(r, p);
    if (m == NULL)
        return;
    /* what it missed, if the ring still holds all of it; then a fresh snapshot either way */
    if (r->seq > m->last_seq && r->seq - m->last_seq <= ROOM_EVENT_RING) {
        json_t *events = json_array();
        for (uint64_t s = m->last_seq + 1; s <= r->seq; s++) {
            const stored_event *e = &r->ring[s % ROOM_EVENT_RING];
            json_t *event = e->text != NULL && e->seq == s ? json_loads(e->text, 0, NULL) : NULL;
            if (event != NULL)
                json_array_append_new(events, json_pack("{s:I, s:o}", "seq", (json_int_t)s, "event", event));
        }
        send_json(r, p, json_pack("{s:s, s:s, s:o}", "type", "events", "table", r->code, "events", events));
    }
    send_snapshot(r, m, id);
    int seat = seat_of(r, p);
    if (seat >= 0) {
        if (hand_on(r) && r->game->to_act(r->hand) == seat)
            schedule_turn(r); /* back for its own turn: a person's timer again */
        broadcast(r, json_pack("{s:s, s:i, s:b}", "kind", "connection", "seat", seat, "connected", 1));
    }
    update_empty_timer(r);
}

void room_player_disconnected(room *r, player *p)
{
    int seat = seat_of(r, p);
    if (seat < 0) {
        drop_member(r, p); /* a spectator who drops simply leaves */
        update_empty_timer(r);
        return;
    }
    if (hand_on(r) && r->game->to_act(r->hand) == seat)
        schedule_turn(r); /* the bot covers the turn */
    broadcast(r, json_pack("{s:s, s:i, s:b}", "kind", "connection", "seat", seat, "connected", 0));
    update_empty_timer(r);
}

void room_player_gone(room *r, player *p)
{
    if (find_member(r, p) != NULL)
        leave(r, p);
}
