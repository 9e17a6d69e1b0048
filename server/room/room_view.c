/*
 * room_view — what a table's members are sent: the lobby's summary, snapshots and numbered
 * events, each member with its own view of the hand (room.h). Every event goes through
 * room_broadcast: it gets the next sequence number, is kept in a ring of recent events (for members
 * who resume) and is sent to each connected member; the part of a view every seat shares is
 * serialised once per event.
 */
#include <stdlib.h>
#include <string.h>

#include "room_internal.h"

static json_t *seats_json(const room *r)
{
    json_t *seats = json_array();
    for (int s = 0; s < GAME_SEATS; s++) {
        const seat_state *st = &r->seats[s];
        char ref[REF_SIZE];
        json_t *seat = json_pack("{s:i, s:b, s:I}", "seat", s, "bot", st->bot, "score", (json_int_t)r->scores[s]);
        if (st->p != NULL) {
            json_object_set_new(seat, "player", json_string(player_ref(st->p->id, ref)));
            json_object_set_new(seat, "name", json_string(st->p->name));
            json_object_set_new(seat, "connected", json_boolean(player_connected(st->p)));
            const member *m = find_member(r, st->p);
            json_object_set_new(seat, "away", json_boolean(player_connected(st->p) && m != NULL && m->away));
        } else {
            json_object_set_new(seat, "player", json_null());
            json_object_set_new(seat, "name", json_null());
            json_object_set_new(seat, "connected", json_boolean(st->bot));
            json_object_set_new(seat, "away", json_false());
        }
        json_array_append_new(seats, seat);
    }
    return seats;
}

const char *room_state_name(room_state state)
{
    static const char *const NAMES[] = {"waiting", "playing", "between_hands", "closed"};
    return NAMES[state];
}

json_t *room_deciding_json(const room *r)
{
    json_t *deciding = json_array();
    uint64_t now = uv_now(r->env.loop);
    for (int s = 0; s < GAME_SEATS; s++) {
        const seat_clock *c = &r->clocks[s];
        if (!c->deciding || !hand_on(r))
            continue;
        uint64_t left = c->deadline_ms > now ? c->deadline_ms - now : 0;
        json_array_append_new(deciding, json_pack("{s:i, s:s, s:o}", "seat", s, "kind", game_decision_kind_name(c->kind),
                                                  "ms_left", c->shown ? json_integer((json_int_t)left) : json_null()));
    }
    return deciding;
}

static const player *find_player_by_id(const room *r, int64_t id)
{
    for (int i = 0; i < r->n_members; i++)
        if (r->members[i].p->id == id)
            return r->members[i].p;
    return NULL;
}

json_t *room_summary(const room *r)
{
    const player *host = find_player_by_id(r, r->host_id);
    return json_pack("{s:s, s:s, s:O, s:b, s:o, s:s, s:s, s:I, s:b}", "code", r->code, "game", r->game->name, "options",
                     r->options, "public", r->is_public, "seats", seats_json(r), "state", room_state_name(r->state), "host",
                     host != NULL ? host->name : "", "hands_played", (json_int_t)r->hands_played, "locked", r->locked);
}

/* The members without a seat, for the host to see whom to remove: [{"player","name"}]. */
static json_t *watchers_json(const room *r)
{
    json_t *watchers = json_array();
    for (int i = 0; i < r->n_members; i++)
        if (seat_of(r, r->members[i].p) < 0)
            json_array_append_new(watchers, room_event_with_player(NULL, r->members[i].p));
    return watchers;
}

static json_t *info_json(const room *r)
{
    json_t *info = room_summary(r);
    char ref[REF_SIZE];
    json_object_set_new(info, "host", r->host_id ? json_string(player_ref(r->host_id, ref)) : json_null());
    json_object_set_new(info, "turn_seconds", json_integer(r->turn_seconds));
    json_object_set_new(info, "game_state", json_incref(r->game_state));
    json_object_set_new(info, "scores",
                        json_pack("[I,I,I,I]", (json_int_t)r->scores[0], (json_int_t)r->scores[1],
                                  (json_int_t)r->scores[2], (json_int_t)r->scores[3]));
    json_object_set_new(info, "deciding", room_deciding_json(r));
    json_object_set_new(info, "watchers", watchers_json(r));
    json_object_set_new(info, "hand_players", r->hand != NULL ? room_hand_players_json(r) : json_null());
    json_object_set_new(info, "held", json_boolean(r->held));
    json_object_set_new(info, "spectator_chat", json_boolean(!r->spectator_chat_off));
    return info;
}

static json_t *view_for(const room *r, const player *p)
{
    if (r->hand == NULL)
        return json_null();
    return r->game->view(r->hand, seat_of(r, p));
}

void room_send_json(room *r, player *p, json_t *message)
{
    char *text = json_dumps(message, JSON_COMPACT);
    if (text != NULL) {
        r->env.send(r->env.ctx, p, text, strlen(text));
        free(text);
    }
    json_decref(message);
}

void room_send_snapshot(room *r, member *m, const json_t *id)
{
    int seat = seat_of(r, m->p);
    json_t *message = json_pack("{s:s, s:s, s:I, s:o, s:o, s:o}", "type", "snapshot", "table", r->code, "seq",
                                (json_int_t)r->seq, "info", info_json(r), "seat",
                                seat >= 0 ? json_integer(seat) : json_null(), "view", view_for(r, m->p));
    if (id != NULL)
        json_object_set(message, "id", (json_t *)id);
    m->last_seq = r->seq;
    room_send_json(r, m->p, message);
}

/* Two compact JSON objects as one: "{a}" and "{b}" give "{a,b}" (their keys must differ). */
static char *join_objects(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la < 2 || lb < 2 || a[0] != '{' || b[0] != '{')
        return NULL;
    bool a_empty = la == 2, b_empty = lb == 2;
    char *out = malloc(la + lb);
    if (out == NULL)
        return NULL;
    size_t len = 0;
    memcpy(out, a, la - 1); /* "{a" */
    len = la - 1;
    if (!a_empty && !b_empty)
        out[len++] = ',';
    memcpy(out + len, b + 1, lb - 1); /* "b}" */
    len += lb - 1;
    out[len] = '\0';
    return out;
}

/* Whether an event can change what a member sees of the hand: only then does each member get its
 * own view with it. The others (ready, chat, connection, host, …) go out as one identical frame,
 * so a busy chat costs no view-building. */
static bool changes_views(const json_t *event)
{
    static const char *const KINDS[] = {"hand_started", "action", "hand_over", "seat_taken", "seat_left"};
    const char *kind = json_string_value(json_object_get(event, "kind"));
    for (size_t i = 0; kind != NULL && i < sizeof KINDS / sizeof KINDS[0]; i++)
        if (strcmp(kind, KINDS[i]) == 0)
            return true;
    return false;
}

/* Keeps the text of event r->seq for members who resume, letting the oldest go while the kept
 * text is over its byte bound: a table holds at most LIMIT_EVENTS_KEPT events and
 * LIMIT_EVENTS_KEPT_BYTES bytes of them, whatever is said in its chat. */
static void keep_event(room *r, const json_t *event)
{
    stored_event *slot = &r->ring[r->seq % ROOM_EVENT_RING];
    if (slot->text != NULL) { /* the event ROOM_EVENT_RING back goes */
        r->ring_bytes -= strlen(slot->text);
        if (r->ring_first_seq <= slot->seq)
            r->ring_first_seq = slot->seq + 1;
    }
    free(slot->text);
    slot->seq = r->seq;
    slot->text = json_dumps(event, JSON_COMPACT);
    r->ring_bytes += slot->text != NULL ? strlen(slot->text) : 0;
    if (r->ring_first_seq == 0 || slot->text == NULL)
        r->ring_first_seq = slot->text != NULL ? r->seq : r->seq + 1;
    while (r->ring_bytes > LIMIT_EVENTS_KEPT_BYTES && r->ring_first_seq <= r->seq) {
        stored_event *oldest = &r->ring[r->ring_first_seq % ROOM_EVENT_RING];
        if (oldest->text != NULL && oldest->seq == r->ring_first_seq) {
            r->ring_bytes -= strlen(oldest->text);
            free(oldest->text);
            oldest->text = NULL;
        }
        r->ring_first_seq++;
    }
}

/* Numbers the event (taking it), keeps its text for resuming members and sends it to every connected
 * member, with that member's own view when the event can change it; spectators all get one
 * identical frame. */
void room_broadcast(room *r, json_t *event)
{
    if (r->parked) { /* the server is stopping: its members have been told */
        json_decref(event);
        return;
    }
    r->seq++;
    keep_event(r, event);

    /* Everything but the view is the same for every member: serialise it once, as the start of
     * the object, and append each member's view. */
    bool with_views = changes_views(event);
    json_t *common = json_pack("{s:s, s:s, s:I, s:O, s:o, s:o}", "type", "event", "table", r->code, "seq",
                               (json_int_t)r->seq, "event", event, "deciding", room_deciding_json(r), "seats", seats_json(r));
    char *common_text = json_dumps(common, JSON_COMPACT);
    json_decref(common);
    json_decref(event);
    if (common_text == NULL)
        return;
    if (!with_views) {
        size_t len = strlen(common_text);
        for (int i = 0; i < r->n_members; i++) {
            member *m = &r->members[i];
            if (player_connected(m->p)) {
                r->env.send(r->env.ctx, m->p, common_text, len);
                m->last_seq = r->seq;
            }
        }
        free(common_text);
        return;
    }
    size_t common_len = strlen(common_text) - 1; /* without the closing brace */
    /* A game that splits its views has the shared part serialised once for everyone. */
    bool split = r->hand != NULL && r->game->view_shared != NULL && r->game->view_own != NULL;
    char *shared_text = NULL;
    if (split) {
        json_t *shared = r->game->view_shared(r->hand);
        shared_text = shared != NULL ? json_dumps(shared, JSON_COMPACT) : NULL;
        json_decref(shared);
        split = shared_text != NULL;
    }
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
        json_t *view = split ? r->game->view_own(r->hand, seat) : view_for(r, m->p);
        char *view_text = json_dumps(view, JSON_COMPACT | JSON_ENCODE_ANY);
        json_decref(view);
        if (view_text == NULL)
            continue;
        if (split) { /* {own…} and {shared…} become {own…,shared…} */
            char *joined = join_objects(view_text, shared_text);
            free(view_text);
            if ((view_text = joined) == NULL)
                continue;
        }
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
    free(shared_text);
    free(spectator_text);
    free(common_text);
}

json_t *room_hand_players_json(const room *r)
{
    json_t *players = json_array();
    for (int s = 0; s < GAME_SEATS; s++) {
        const hand_seat *hs = &r->hand_seats[s];
        char ref[REF_SIZE];
        json_array_append_new(players, hs->player_id != 0
                                           ? json_pack("{s:i, s:s, s:s, s:b}", "seat", s, "player",
                                                       player_ref(hs->player_id, ref), "name", hs->name, "bot", 0)
                                           : json_pack("{s:i, s:n, s:n, s:b}", "seat", s, "player", "name", "bot", 1));
    }
    return players;
}

json_t *room_event_with_player(const char *kind, const player *p)
{
    char ref[REF_SIZE];
    json_t *event = kind != NULL ? json_pack("{s:s}", "kind", kind) : json_object();
    json_object_set_new(event, "player", json_string(player_ref(p->id, ref)));
    json_object_set_new(event, "name", json_string(p->name));
    return event;
}

json_t *room_admin_live(const room *r)
{
    json_t *seats = json_array();
    for (int s = 0; s < GAME_SEATS; s++) {
        const seat_state *st = &r->seats[s];
        json_array_append_new(seats, json_pack("{s:o, s:b, s:b}", "nickname",
                                               st->p != NULL ? json_string(st->p->name) : json_null(), "bot", st->bot,
                                               "connected", st->p != NULL ? player_connected(st->p) : st->bot));
    }
    int spectators = 0;
    for (int i = 0; i < r->n_members; i++)
        if (seat_of(r, r->members[i].p) < 0 && player_connected(r->members[i].p))
            spectators++;
    return json_pack("{s:s, s:s, s:b, s:I, s:b, s:o, s:i}", "code", r->code, "game", r->game->name, "public",
                     r->is_public, "hand", (json_int_t)r->hands_played, "paused", r->paused, "seats", seats,
                     "spectators", spectators);
}
