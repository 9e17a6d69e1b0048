/*
 * crash_player — a client that plays through server crashes. See crash_player.h.
 *
 * Which hand a view belongs to: a hand_started event names its hand; a snapshot's
 * info.hands_played is the number of the hand being played (or of the last one, between
 * hands); every later view belongs to that hand until the next hand_started. A hand_over
 * event names its hand too.
 */
#include "crash_player.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mj_tiles.h"
#include "tg_tiles.h"

#define CRASH_REPLY_MS 10000      /* a request's reply; generous for the ASan build */
#define CRASH_ACT_EVENT_MS 15000  /* an accepted act's event, once its reply came */
#define CRASH_RESUME_MS 15000     /* resuming on one server generation */
#define CRASH_SERVER_BACK_MS 120000
#define CRASH_RETRY_MS 20         /* between connection attempts while a server starts */
#define CRASH_TIANJIN_PACE_MS 60  /* between a Tianjin player's acts: under the limit of 20 a second */
#define CRASH_CLAIM_SECONDS 30    /* a Tianjin table's claim window, the longest, for slow restarts */
#define CRASH_CLUSTER_BACK_MS 45000 /* a cluster run: back at the table (its lease, a takeover, a heartbeat) */
#define CRASH_PAUSE_MS 1000     /* a cluster run: before asking again for a table no live node has yet, */
#define CRASH_PAUSE_MAX_MS 3000 /* growing by half a second each time up to this (each join that does
                                 * not find its table costs the client's address a try, house_limits.h) */

long long crash_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* ---- shared state ---------------------------------------------------------------------- */

void crash_shared_init(crash_shared *shared)
{
    memset(shared, 0, sizeof *shared);
    pthread_mutex_init(&shared->lock, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC); /* deadlines are monotonic */
    pthread_cond_init(&shared->changed, &attr);
    pthread_condattr_destroy(&attr);
    shared->generation = 1;
}

void crash_shared_destroy(crash_shared *shared)
{
    pthread_cond_destroy(&shared->changed);
    pthread_mutex_destroy(&shared->lock);
}

void crash_shared_server_down(crash_shared *shared)
{
    pthread_mutex_lock(&shared->lock);
    shared->up = false;
    shared->generation++;
    pthread_cond_broadcast(&shared->changed);
    pthread_mutex_unlock(&shared->lock);
}

void crash_shared_server_up(crash_shared *shared, const char *host, int port)
{
    pthread_mutex_lock(&shared->lock);
    snprintf(shared->host, sizeof shared->host, "%s", host);
    shared->port = port;
    shared->up = true;
    pthread_cond_broadcast(&shared->changed);
    pthread_mutex_unlock(&shared->lock);
}

void crash_shared_stop(crash_shared *shared)
{
    pthread_mutex_lock(&shared->lock);
    shared->stop = true;
    pthread_cond_broadcast(&shared->changed);
    pthread_mutex_unlock(&shared->lock);
}

void crash_shared_node_up(crash_shared *shared, int i, const char *name, const char *host, int port)
{
    pthread_mutex_lock(&shared->lock);
    crash_node *node = &shared->nodes[i];
    snprintf(node->name, sizeof node->name, "%s", name);
    snprintf(shared->host, sizeof shared->host, "%s", host);
    node->port = port;
    node->up = true;
    shared->cluster = true;
    if (i >= shared->n_nodes)
        shared->n_nodes = i + 1;
    shared->up = true;
    pthread_cond_broadcast(&shared->changed);
    pthread_mutex_unlock(&shared->lock);
}

void crash_shared_node_down(crash_shared *shared, int i)
{
    pthread_mutex_lock(&shared->lock);
    shared->nodes[i].up = false;
    shared->generation++;
    pthread_cond_broadcast(&shared->changed);
    pthread_mutex_unlock(&shared->lock);
}

void crash_shared_wait(crash_shared *shared, long long deadline_ms)
{
    struct timespec ts = {.tv_sec = (time_t)(deadline_ms / 1000), .tv_nsec = (long)(deadline_ms % 1000) * 1000000L};
    pthread_cond_timedwait(&shared->changed, &shared->lock, &ts);
}

/* ---- small helpers ----------------------------------------------------------------------- */

__attribute__((format(printf, 2, 3))) static void fail(crash_player *p, const char *format, ...)
{
    if (p->failure[0] != '\0')
        return; /* the first problem is the one to read */
    int n = snprintf(p->failure, sizeof p->failure, "%s (table %s, server %d): ", p->name, p->code, p->epoch);
    va_list args;
    va_start(args, format);
    if (n > 0 && (size_t)n < sizeof p->failure)
        vsnprintf(p->failure + n, sizeof p->failure - (size_t)n, format, args);
    va_end(args);
}

/* The array items (of *cap elements of size each, n used), grown if need be so that one more
 * fits; NULL when out of memory (items is then unchanged). */
static void *reserve(void *items, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return items;
    size_t grown = *cap ? *cap * 2 : 64;
    void *bigger = realloc(items, grown * size);
    if (bigger != NULL)
        *cap = grown;
    return bigger;
}

static const char *string_at(const json_t *object, const char *key)
{
    const char *s = json_string_value(json_object_get(object, key));
    return s != NULL ? s : "";
}

/* Compact text of a frame for a message (free it). */
static char *text_of(const json_t *value)
{
    char *text = value != NULL ? json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
    return text != NULL ? text : strdup("(none)");
}

/* CRASH_TRACE=1 prints every frame sent and received, for finding out what went wrong. */
static void trace(const crash_player *p, const char *direction, const char *text, size_t len)
{
    if (p->trace)
        fprintf(stderr, "%lld %s [%d] %s %.*s\n", crash_now_ms(), p->name, p->epoch, direction, (int)len, text);
}

static bool stopping(crash_player *p)
{
    pthread_mutex_lock(&p->shared->lock);
    bool stop = p->shared->stop;
    pthread_mutex_unlock(&p->shared->lock);
    return stop;
}

/* ---- sending ----------------------------------------------------------------------------- */

/* Sends the message (taking it) with a fresh id; returns the id, 0 if the send failed. */
static int send_message(crash_player *p, json_t *message)
{
    int id = ++p->next_id;
    json_object_set_new(message, "id", json_integer(id));
    char *text = json_dumps(message, JSON_COMPACT);
    json_decref(message);
    if (text != NULL)
        trace(p, ">>", text, strlen(text));
    bool sent = text != NULL && ws_client_send_text(p->ws, text, strlen(text)) == WS_CLIENT_OK;
    free(text);
    return sent ? id : 0;
}

/* ---- recording --------------------------------------------------------------------------- */

static void note_progress_over(crash_player *p, bool live)
{
    pthread_mutex_lock(&p->shared->lock);
    p->overs_live += live;
    if (p->overs_epoch != p->epoch) {
        p->overs_epoch = p->epoch;
        p->overs_in_epoch = 0;
    }
    p->overs_in_epoch++;
    pthread_cond_broadcast(&p->shared->changed);
    pthread_mutex_unlock(&p->shared->lock);
}

static void record_hand_over(crash_player *p, const json_t *event, bool live)
{
    json_t *net = json_object_get(json_object_get(event, "result"), "net");
    json_t *scores = json_object_get(event, "scores");
    json_t *hand = json_object_get(event, "hand");
    if (!json_is_integer(hand) || json_array_size(net) != CRASH_SEATS || json_array_size(scores) != CRASH_SEATS) {
        char *text = text_of(event);
        fail(p, "a hand_over without its hand number, or a net or scores not of four seats: %.300s", text);
        free(text);
        return;
    }
    crash_hand_over *overs = reserve(p->overs, &p->cap_overs, p->n_overs, sizeof *p->overs);
    if (overs == NULL) {
        fail(p, "out of memory");
        return;
    }
    p->overs = overs;
    crash_hand_over *over = &p->overs[p->n_overs++];
    over->hand = json_integer_value(hand);
    over->epoch = p->epoch;
    for (size_t s = 0; s < CRASH_SEATS; s++) {
        over->net[s] = json_integer_value(json_array_get(net, s));
        over->scores[s] = json_integer_value(json_array_get(scores, s));
    }
    p->hand = over->hand;
    note_progress_over(p, live);
}

bool crash_count_tiles(bool tianjin, const json_t *tiles, uint8_t count[CRASH_KINDS])
{
    memset(count, 0, CRASH_KINDS);
    if (!json_is_array(tiles))
        return false;
    size_t i;
    json_t *tile;
    json_array_foreach(tiles, i, tile)
    {
        const char *name = json_string_value(tile);
        int kind = name == NULL ? -1 : tianjin ? mj_kind_parse(name) : tg_tile_parse(name);
        if (kind < 0 || kind >= CRASH_KINDS)
            return false;
        count[kind]++;
    }
    return true;
}

static void record_view(crash_player *p, json_t *view, crash_view_source source)
{
    if (!json_is_object(view))
        return; /* null: no hand yet */
    json_decref(p->view);
    p->view = json_incref(view);
    if (p->seat < 0) {
        const json_t *hand = json_object_get(view, "hand"), *drawn = json_object_get(view, "drawn");
        if (!json_is_null(hand) || (drawn != NULL && !json_is_null(drawn))) {
            char *text = text_of(view);
            fail(p, "a spectator's view shows concealed tiles: %.300s", text);
            free(text);
        }
        return;
    }
    if (json_integer_value(json_object_get(view, "seat")) != p->seat) {
        fail(p, "a view for seat %lld, not for its seat %d",
             (long long)json_integer_value(json_object_get(view, "seat")), p->seat);
        return;
    }
    if (p->tianjin && json_is_null(json_object_get(view, "hand")))
        return; /* not dealt yet: the pre-hand choices come first */
    crash_tiles_seen *seen_all = reserve(p->seen, &p->cap_seen, p->n_seen, sizeof *p->seen);
    if (seen_all == NULL) {
        fail(p, "out of memory");
        return;
    }
    p->seen = seen_all;
    crash_tiles_seen *seen = &p->seen[p->n_seen];
    if (!crash_count_tiles(p->tianjin, json_object_get(view, "hand"), seen->count)) {
        char *text = text_of(view);
        fail(p, "a view whose hand is not a list of tiles: %.300s", text);
        free(text);
        return;
    }
    seen->hand = p->hand;
    seen->epoch = p->epoch;
    seen->source = source;
    seen->over = json_is_true(json_object_get(view, "over"));
    seen->banker = (int)json_integer_value(json_object_get(view, "banker"));
    seen->multiplier = json_integer_value(json_object_get(view, p->tianjin ? "count" : "multiplier"));
    p->n_seen++;
}

static void record_snapshot(crash_player *p, json_t *frame)
{
    json_t *info = json_object_get(frame, "info");
    json_t *seat = json_object_get(frame, "seat");
    int got = json_is_integer(seat) ? (int)json_integer_value(seat) : -1;
    if (got != p->seat) {
        fail(p, "its snapshot gives it seat %d, not %d", got, p->seat);
        return;
    }
    p->hand = json_integer_value(json_object_get(info, "hands_played"));
    p->act_open = false; /* the snapshot shows whatever was stored */
    record_view(p, json_object_get(frame, "view"), CRASH_VIEW_SNAPSHOT);
}

static void record_event(crash_player *p, json_t *frame)
{
    json_t *event = json_object_get(frame, "event");
    const char *kind = string_at(event, "kind");
    crash_view_source source = CRASH_VIEW_EVENT;
    if (strcmp(kind, "hand_started") == 0) {
        p->hand = json_integer_value(json_object_get(event, "hand"));
        p->act_open = false;
        source = CRASH_VIEW_DEAL;
    } else if (strcmp(kind, "hand_over") == 0) {
        record_hand_over(p, event, true);
        p->act_open = false;
    } else if (strcmp(kind, "action") == 0 && (json_integer_value(json_object_get(event, "seat")) == p->seat ||
                                                (p->tianjin && p->act_id != 0 && !json_object_get(event, "seat")))) {
        /* its own move; at Tianjin the event that closes a round ({"pulls":…}, {"no_claim":…})
         * names no seat and answers the last pull or pass, maybe its own */
        p->act_event_seen = true;
        if (p->act_accepted)
            p->act_open = false;
    } else if (strcmp(kind, "closing") == 0) {
        fail(p, "its table is closing: %s", string_at(event, "why"));
        return;
    }
    record_view(p, json_object_get(frame, "view"), source);
    if (strcmp(kind, "hand_over") == 0 && p->send_ready && p->seat >= 0)
        send_message(p, json_pack("{s:s, s:s}", "type", "ready", "code", p->code)); /* the reply does not matter */
}

/* What a resumed connection missed: no views, but hand numbers and hand_over events. */
static void record_missed(crash_player *p, json_t *frame)
{
    size_t i;
    json_t *item;
    json_array_foreach(json_object_get(frame, "events"), i, item)
    {
        json_t *event = json_object_get(item, "event");
        const char *kind = string_at(event, "kind");
        if (strcmp(kind, "hand_started") == 0)
            p->hand = json_integer_value(json_object_get(event, "hand"));
        else if (strcmp(kind, "hand_over") == 0)
            record_hand_over(p, event, false);
    }
}

static bool benign_refusal(const char *code)
{
    /* The state moved on between the view and the act; anything else contradicts the view. */
    return strcmp(code, "busy") == 0 || strcmp(code, "paused") == 0 || strcmp(code, "not_your_turn") == 0;
}

static void record_act_reply(crash_player *p, json_t *frame)
{
    const char *type = string_at(frame, "type");
    p->act_id = 0;
    if (strcmp(type, "ok") == 0) {
        crash_act *acts = reserve(p->acts, &p->cap_acts, p->n_acts, sizeof *p->acts);
        if (acts != NULL) {
            p->acts = acts;
            acts[p->n_acts++] = (crash_act){.hand = p->act_hand, .epoch = p->epoch, .action = json_incref(p->act_sent)};
        }
        p->act_accepted = true;
        p->accepted_ms = crash_now_ms();
        if (p->act_event_seen) { /* the event came first, as it must */
            p->act_open = false;
        } else {
            char *action = text_of(p->act_sent);
            fail(p, "its act %s was answered ok before its action event (PROTOCOL.md: the event, once stored, "
                    "then ok)",
                 action);
            free(action);
        }
    } else if (strcmp(type, "error") == 0 && benign_refusal(string_at(frame, "code"))) {
        p->refused_busy++;
        p->act_open = false;
    } else {
        p->act_open = false;
        char *text = text_of(frame), *action = text_of(p->act_sent), *view = text_of(p->view);
        fail(p, "its act %s was refused: %s; its view was %.600s", action, text, view);
        free(text);
        free(action);
        free(view);
    }
    json_decref(p->act_sent);
    p->act_sent = NULL;
}

static void handle_frame(crash_player *p, json_t *frame)
{
    p->frames++;
    const char *type = string_at(frame, "type");
    json_t *id = json_object_get(frame, "id");
    if (p->act_id != 0 && json_is_integer(id) && json_integer_value(id) == p->act_id) {
        record_act_reply(p, frame);
        return;
    }
    if (strcmp(type, "snapshot") == 0) {
        record_snapshot(p, frame);
    } else if (strcmp(type, "view") == 0) {
        /* the private answer to its own pull or pass, before its ok (PROTOCOL.md, act) */
        if (p->act_id == 0 || !p->tianjin) {
            char *text = text_of(frame);
            fail(p, "a view frame with no private act of its own open: %.300s", text);
            free(text);
            return;
        }
        p->act_event_seen = true;
        record_view(p, json_object_get(frame, "view"), CRASH_VIEW_EVENT);
    } else if (strcmp(type, "event") == 0) {
        record_event(p, frame);
    } else if (strcmp(type, "events") == 0) {
        record_missed(p, frame);
    } else if (strcmp(type, "error") == 0 && id == NULL) {
        char *text = text_of(frame);
        fail(p, "an unexpected error: %s", text); /* replaced, rate_limited, shutting_down mid-run */
        free(text);
    }
}

/* ---- requests ------------------------------------------------------------------------------- */

/* Sends message (taking it) and returns its reply (owned), recording every frame on the way;
 * NULL when the connection ended (*ended set) or no reply came in time. */
static json_t *request(crash_player *p, json_t *message, bool *ended)
{
    *ended = false;
    int id = send_message(p, message);
    if (id == 0) {
        *ended = true;
        return NULL;
    }
    long long deadline = crash_now_ms() + CRASH_REPLY_MS;
    for (long long left = CRASH_REPLY_MS; left > 0; left = deadline - crash_now_ms()) {
        ws_message m;
        ws_client_result rc = ws_client_recv(p->ws, &m, (int)left);
        if (rc == WS_CLIENT_TIMEOUT)
            break;
        if (rc != WS_CLIENT_OK) {
            *ended = true;
            return NULL;
        }
        trace(p, "<<", m.data, m.len);
        json_t *frame = json_loadb(m.data, m.len, 0, NULL);
        if (frame == NULL) {
            fail(p, "a frame that is not JSON: %.200s", m.data);
            return NULL;
        }
        handle_frame(p, frame);
        json_t *reply_id = json_object_get(frame, "id");
        if (json_is_integer(reply_id) && json_integer_value(reply_id) == id)
            return frame;
        json_decref(frame);
    }
    return NULL;
}

/* A request that must be answered with this type; fails the player otherwise. */
static bool request_expect(crash_player *p, json_t *message, const char *want, json_t **reply_out)
{
    const char *what = string_at(message, "type");
    char what_copy[32];
    snprintf(what_copy, sizeof what_copy, "%s", what);
    bool ended;
    json_t *reply = request(p, message, &ended);
    if (reply == NULL) {
        fail(p, "%s: %s", what_copy, ended ? "the connection ended" : "no reply in time");
        return false;
    }
    if (strcmp(string_at(reply, "type"), want) != 0) {
        char *text = text_of(reply);
        fail(p, "%s answered %s", what_copy, text);
        free(text);
        json_decref(reply);
        return false;
    }
    if (reply_out != NULL)
        *reply_out = reply;
    else
        json_decref(reply);
    return true;
}

static json_t *hello_message(const crash_player *p)
{
    json_t *hello = json_pack("{s:s, s:i, s:s}", "type", "hello", "v", 1, "name", p->name);
    if (p->token[0] != '\0')
        json_object_set_new(hello, "token", json_string(p->token));
    return hello;
}

static void set_live(crash_player *p, int epoch)
{
    pthread_mutex_lock(&p->shared->lock);
    p->live_epoch = epoch;
    pthread_cond_broadcast(&p->shared->changed);
    pthread_mutex_unlock(&p->shared->lock);
}

static void drop_connection(crash_player *p)
{
    if (p->ws != NULL)
        ws_client_abort(p->ws);
    p->ws = NULL;
    p->act_id = 0;
    json_decref(p->act_sent);
    p->act_sent = NULL;
    p->act_open = false;
    json_decref(p->view);
    p->view = NULL;
    set_live(p, 0);
}

/* ---- setting up (on the test's thread, before the player's thread starts) --------------------- */

/* Opens a WebSocket to host:port, claiming p's forwarded address (a cluster run) if it has one. */
static ws_client *open_ws(const crash_player *p, const char *host, int port, int timeout_ms, char *why, size_t why_size)
{
    char headers[96];
    ws_client_options options = {0};
    if (p->forwarded_for[0] != '\0') {
        snprintf(headers, sizeof headers, "X-Forwarded-For: %s\r\n", p->forwarded_for);
        options.headers = headers;
    }
    return ws_client_connect_with(host, port, "/ws", &options, timeout_ms, why, why_size);
}

/* A cluster run's ways of getting to a table (below, with the resuming). */
typedef enum cluster_outcome { CLUSTER_JOINED, CLUSTER_RETRY, CLUSTER_FAILED } cluster_outcome;
static bool cluster_connect(crash_player *p, int first_node);
static cluster_outcome cluster_join(crash_player *p, int node, int *next, char *why, size_t why_size);

bool crash_player_connect_new(crash_player *p, crash_shared *shared, const char *name, int first_node)
{
    p->shared = shared;
    p->seat = -1;
    p->node = -1;
    p->trace = getenv("CRASH_TRACE") != NULL;
    snprintf(p->name, sizeof p->name, "%s", name);
    if (shared->cluster) {
        p->rng = (uint64_t)(uintptr_t)p ^ (uint64_t)crash_now_ms();
        if (!cluster_connect(p, first_node))
            return false;
        p->connections = 1;
        return true;
    }
    pthread_mutex_lock(&shared->lock);
    char host[64];
    snprintf(host, sizeof host, "%s", shared->host);
    int port = shared->port;
    p->epoch = shared->generation;
    pthread_mutex_unlock(&shared->lock);

    char error[128];
    p->ws = open_ws(p, host, port, 5000, error, sizeof error);
    if (p->ws == NULL) {
        fail(p, "cannot connect: %s", error);
        return false;
    }
    json_t *welcome = NULL;
    if (!request_expect(p, hello_message(p), "welcome", &welcome))
        return false;
    snprintf(p->token, sizeof p->token, "%s", string_at(welcome, "token"));
    snprintf(p->player_id, sizeof p->player_id, "%s", string_at(json_object_get(welcome, "player"), "id"));
    json_decref(welcome);
    p->connections = 1;
    if (p->token[0] == '\0') {
        fail(p, "its welcome has no token");
        return false;
    }
    return true;
}

bool crash_player_create_table(crash_player *p, int turn_seconds)
{
    p->seat = 0;
    json_t *snapshot = NULL;
    json_t *options = p->tianjin ? json_pack("{s:i}", "claim_seconds", CRASH_CLAIM_SECONDS) : json_object();
    if (!request_expect(p,
                        json_pack("{s:s, s:s, s:o, s:b, s:i}", "type", "create_table", "game",
                                  p->tianjin ? "tianjin" : "tiengow", "options", options, "public", false,
                                  "turn_seconds", turn_seconds),
                        "snapshot", &snapshot))
        return false;
    snprintf(p->code, sizeof p->code, "%s", string_at(snapshot, "table"));
    json_decref(snapshot);
    p->seated_once = true;
    return true;
}

/* Joins p->code: on the connection it has, or in a cluster run wherever the table is (the
 * table was made on some node, which the node asked may not know yet). */
static bool join_own_table(crash_player *p)
{
    if (!p->shared->cluster)
        return request_expect(p, json_pack("{s:s, s:s}", "type", "join_table", "code", p->code), "snapshot", NULL);
    char why[160] = "";
    int next = -1;
    cluster_outcome outcome = cluster_join(p, p->node, &next, why, sizeof why);
    if (outcome != CLUSTER_RETRY)
        return outcome == CLUSTER_JOINED;
    if (!cluster_connect(p, next))
        return false;
    p->connections++;
    return true;
}

bool crash_player_take_seat(crash_player *p, const char *code, int seat)
{
    p->seat = -1; /* the join's snapshot is a watcher's */
    snprintf(p->code, sizeof p->code, "%s", code);
    if (!join_own_table(p))
        return false;
    if (!request_expect(p, json_pack("{s:s, s:s, s:i}", "type", "take_seat", "code", p->code, "seat", seat), "ok",
                        NULL))
        return false;
    p->seat = seat;
    set_live(p, p->epoch);
    return true;
}

bool crash_player_start_table(crash_player *p, int bots)
{
    for (int seat = 1; seat <= bots; seat++)
        if (!request_expect(p, json_pack("{s:s, s:s, s:i}", "type", "add_bot", "code", p->code, "seat", seat), "ok",
                            NULL))
            return false;
    if (!request_expect(p, json_pack("{s:s, s:s}", "type", "start", "code", p->code), "ok", NULL))
        return false;
    /* the first hand's hand_started event must follow */
    long long deadline = crash_now_ms() + CRASH_REPLY_MS;
    while (p->hand < 1 && p->failure[0] == '\0' && crash_now_ms() < deadline) {
        ws_message m;
        if (ws_client_recv(p->ws, &m, 100) == WS_CLIENT_OK) {
            trace(p, "<<", m.data, m.len);
            json_t *frame = json_loadb(m.data, m.len, 0, NULL);
            if (frame != NULL)
                handle_frame(p, frame);
            json_decref(frame);
        }
    }
    if (p->hand < 1) {
        fail(p, "start was answered ok but no hand started within %d s", CRASH_REPLY_MS / 1000);
        return false;
    }
    set_live(p, p->epoch);
    return true;
}

bool crash_player_watch(crash_player *p, const char *code)
{
    p->seat = -1;
    snprintf(p->code, sizeof p->code, "%s", code);
    if (!join_own_table(p))
        return false;
    set_live(p, p->epoch);
    return true;
}

/* ---- resuming after a crash ------------------------------------------------------------------ */

/* One attempt on the server of generation gen: connect, resume, join the table again. False with
 * the reason in why when the attempt should be retried; a failure is recorded in p->failure. */
static bool try_resume(crash_player *p, const char *host, int port, int gen, char *why, size_t why_size)
{
    p->ws = ws_client_connect(host, port, "/ws", 3000, why, why_size);
    if (p->ws == NULL)
        return false;
    p->epoch = gen;
    bool ended;
    json_t *welcome = request(p, hello_message(p), &ended);
    if (welcome == NULL) {
        snprintf(why, why_size, "hello: %s", ended ? "the connection ended" : "no welcome in time");
        drop_connection(p);
        return false;
    }
    bool same = strcmp(string_at(welcome, "type"), "welcome") == 0 &&
                json_is_true(json_object_get(welcome, "resumed")) &&
                strcmp(string_at(json_object_get(welcome, "player"), "id"), p->player_id) == 0;
    if (!same) {
        char *text = text_of(welcome);
        fail(p, "hello with its token (player %s) did not resume its session: %s", p->player_id, text);
        free(text);
    }
    json_decref(welcome);
    if (!same)
        return false;

    pthread_mutex_lock(&p->shared->lock);
    bool same_server = p->shared->generation == gen;
    pthread_mutex_unlock(&p->shared->lock);
    if (!same_server) { /* the server that answered may be a later one: label nothing wrongly */
        snprintf(why, why_size, "the server was restarted meanwhile");
        drop_connection(p);
        return false;
    }

    json_t *snapshot = request(p, json_pack("{s:s, s:s}", "type", "join_table", "code", p->code), &ended);
    if (snapshot == NULL) {
        snprintf(why, why_size, "join_table: %s", ended ? "the connection ended" : "no reply in time");
        drop_connection(p);
        return false;
    }
    if (strcmp(string_at(snapshot, "type"), "snapshot") != 0) {
        char *text = text_of(snapshot);
        fail(p, "join_table after the restart answered %s", text);
        free(text);
        json_decref(snapshot);
        return false;
    }
    json_decref(snapshot);
    p->connections++;
    set_live(p, gen);
    return true;
}

/* Connects again once a server is up, retrying while it starts; false when the test stops or
 * the player failed. */
static bool reconnect(crash_player *p)
{
    long long give_up = crash_now_ms() + CRASH_SERVER_BACK_MS;
    int tried_gen = -1;
    long long gen_since = 0;
    char why[160] = "";
    for (;;) {
        pthread_mutex_lock(&p->shared->lock);
        while (!p->shared->up && !p->shared->stop && crash_now_ms() < give_up)
            crash_shared_wait(p->shared, give_up);
        bool stop = p->shared->stop, up = p->shared->up;
        int gen = p->shared->generation, port = p->shared->port;
        char host[64];
        snprintf(host, sizeof host, "%s", p->shared->host);
        pthread_mutex_unlock(&p->shared->lock);
        if (stop)
            return false;
        if (!up) {
            fail(p, "no server was up for %d s", CRASH_SERVER_BACK_MS / 1000);
            return false;
        }
        if (gen != tried_gen) {
            tried_gen = gen;
            gen_since = crash_now_ms();
        } else if (crash_now_ms() - gen_since > CRASH_RESUME_MS) {
            fail(p, "could not resume on server %d for %d s: %s", gen, CRASH_RESUME_MS / 1000, why);
            return false;
        }
        if (try_resume(p, host, port, gen, why, sizeof why))
            return true;
        if (p->failure[0] != '\0')
            return false;
        sleep_ms(CRASH_RETRY_MS);
    }
}

/* ---- a cluster run: any node, then where `moved` says ---------------------------------------- */



/* A node that is up (prefer, if it is), its host and port; -1 if none is. */
static int pick_node(crash_player *p, int prefer, char host[64], int *port, int *generation)
{
    pthread_mutex_lock(&p->shared->lock);
    int n = p->shared->n_nodes, up = 0, chosen = -1;
    for (int i = 0; i < n; i++)
        up += p->shared->nodes[i].up;
    if (prefer >= 0 && prefer < n && p->shared->nodes[prefer].up) {
        chosen = prefer;
    } else if (up > 0) {
        p->rng = p->rng * 6364136223846793005ull + 1442695040888963407ull;
        int k = (int)((p->rng >> 33) % (uint64_t)up);
        for (int i = 0; i < n && chosen < 0; i++)
            if (p->shared->nodes[i].up && k-- == 0)
                chosen = i;
    }
    if (chosen >= 0) {
        snprintf(host, 64, "%s", p->shared->host);
        *port = p->shared->nodes[chosen].port;
    }
    *generation = p->shared->generation;
    pthread_mutex_unlock(&p->shared->lock);
    return chosen;
}

/* The node whose address (/n/NAME/ws) a `moved` names; -1 if none of ours. */
static int node_of_address(crash_player *p, const char *ws)
{
    char name[16];
    if (sscanf(ws, "/n/%15[^/]/ws", name) != 1)
        return -1;
    pthread_mutex_lock(&p->shared->lock);
    int found = -1;
    for (int i = 0; i < p->shared->n_nodes; i++)
        if (strcmp(p->shared->nodes[i].name, name) == 0)
            found = i;
    pthread_mutex_unlock(&p->shared->lock);
    return found;
}

static bool node_up(crash_player *p, int i)
{
    pthread_mutex_lock(&p->shared->lock);
    bool up = i >= 0 && i < p->shared->n_nodes && p->shared->nodes[i].up;
    pthread_mutex_unlock(&p->shared->lock);
    return up;
}

/* Says hello on the new connection: resumes the session when the player has a token (on any
 * node: tokens are the shared store's), else takes the token it is given. */
static cluster_outcome cluster_hello(crash_player *p, char *why, size_t why_size)
{
    bool ended;
    json_t *welcome = request(p, hello_message(p), &ended);
    if (welcome == NULL) {
        snprintf(why, why_size, "hello: %s", ended ? "the connection ended" : "no welcome in time");
        return p->failure[0] != '\0' ? CLUSTER_FAILED : CLUSTER_RETRY;
    }
    bool ok = strcmp(string_at(welcome, "type"), "welcome") == 0;
    bool resumed = ok && json_is_true(json_object_get(welcome, "resumed"));
    if (ok && p->token[0] != '\0' && !resumed && !p->seated_once) {
        /* A guest is stored only once it makes or joins a table (lobby_players.c): before that
         * its token is its first node's alone, and another node greets it as a new guest. */
        p->fresh_guests++;
        p->token[0] = '\0';
    }
    if (ok && p->token[0] != '\0') {
        ok = resumed && strcmp(string_at(json_object_get(welcome, "player"), "id"), p->player_id) == 0;
    } else if (ok) {
        snprintf(p->token, sizeof p->token, "%s", string_at(welcome, "token"));
        snprintf(p->player_id, sizeof p->player_id, "%s", string_at(json_object_get(welcome, "player"), "id"));
        ok = p->token[0] != '\0';
    }
    if (!ok) {
        char *text = text_of(welcome);
        fail(p, "hello on node %d (player %s) did not give or resume its session: %s", p->node + 1, p->player_id, text);
        free(text);
    }
    json_decref(welcome);
    return ok ? CLUSTER_JOINED : CLUSTER_FAILED;
}

/* One try on node: connect, hello, and join p->code if it has a table. On `moved` *next is the
 * node named (the caller goes there); on no_such_table (the table is between nodes: its node
 * died and its lease has not run out, or the node asked has not read the new owner yet) it
 * pauses before the next try. */
static cluster_outcome cluster_try(crash_player *p, int node, int *next, char *why, size_t why_size)
{
    char host[64];
    int port = 0, generation = 0;
    *next = -1;
    node = pick_node(p, node, host, &port, &generation);
    if (node < 0) {
        snprintf(why, why_size, "no node was up");
        return CLUSTER_RETRY;
    }
    p->ws = open_ws(p, host, port, 3000, why, why_size);
    if (p->ws == NULL)
        return CLUSTER_RETRY;
    p->epoch = generation;
    p->node = node;
    cluster_outcome hello = cluster_hello(p, why, why_size);
    if (hello != CLUSTER_JOINED || p->code[0] == '\0') {
        if (hello == CLUSTER_RETRY)
            drop_connection(p);
        return hello;
    }
    return cluster_join(p, node, next, why, why_size);
}

/* Sends join_table for p->code on the connection to node; see cluster_try. */
static cluster_outcome cluster_join(crash_player *p, int node, int *next, char *why, size_t why_size)
{
    bool ended;
    *next = -1;
    json_t *reply = request(p, json_pack("{s:s, s:s}", "type", "join_table", "code", p->code), &ended);
    if (reply == NULL) {
        snprintf(why, why_size, "join_table on node %d: %s", node + 1, ended ? "the connection ended" : "no reply in time");
        drop_connection(p);
        return p->failure[0] != '\0' ? CLUSTER_FAILED : CLUSTER_RETRY;
    }
    const char *type = string_at(reply, "type");
    cluster_outcome outcome = CLUSTER_JOINED;
    if (strcmp(type, "moved") == 0 && strcmp(string_at(reply, "table"), p->code) == 0 &&
        (*next = node_of_address(p, string_at(reply, "ws"))) >= 0 && *next != node) {
        p->moved++;
        snprintf(why, why_size, "node %d said moved to node %d", node + 1, *next + 1);
        outcome = CLUSTER_RETRY;
        if (!node_up(p, *next)) /* its lease has not run out yet: nobody has the table now */
            *next = -1;
    } else if (strcmp(type, "error") == 0 && strcmp(string_at(reply, "code"), "no_such_table") == 0) {
        p->not_found++;
        snprintf(why, why_size, "node %d said no_such_table", node + 1);
        outcome = CLUSTER_RETRY;
    } else if (strcmp(type, "error") == 0 && strcmp(string_at(reply, "code"), "rate_limited") == 0) {
        /* its address's tries at this node are spent: another node counts its own */
        p->rate_limited++;
        snprintf(why, why_size, "node %d said rate_limited", node + 1);
        outcome = CLUSTER_RETRY;
    } else if (strcmp(type, "snapshot") != 0) {
        char *text = text_of(reply);
        fail(p, "join_table on node %d answered %s", node + 1, text);
        free(text);
        outcome = CLUSTER_FAILED;
    }
    json_decref(reply);
    if (outcome == CLUSTER_JOINED)
        p->seated_once = true;
    if (outcome == CLUSTER_RETRY)
        drop_connection(p);
    return outcome;
}

/* Connects to first_node (or any node up), says hello and, once the player has a table, gets
 * back to it wherever it is now; false when the test stops or the player failed. */
static bool cluster_connect(crash_player *p, int first_node)
{
    long long give_up = crash_now_ms() + CRASH_CLUSTER_BACK_MS;
    int node = first_node, pauses = 0;
    char why[160] = "";
    while (!stopping(p)) {
        cluster_outcome outcome = cluster_try(p, node, &node, why, sizeof why);
        if (outcome == CLUSTER_JOINED)
            return true;
        if (outcome == CLUSTER_FAILED || p->failure[0] != '\0')
            return false;
        if (crash_now_ms() > give_up) {
            fail(p, "could not get back to its table on any node for %d s: %s", CRASH_CLUSTER_BACK_MS / 1000, why);
            return false;
        }
        if (node < 0) { /* nowhere to go yet: wait, longer each time */
            int pause = CRASH_PAUSE_MS + 500 * pauses++;
            sleep_ms(pause < CRASH_PAUSE_MAX_MS ? pause : CRASH_PAUSE_MAX_MS);
        }
    }
    return false;
}

/* After its node died: back to its table through any node, following `moved`. */
static bool cluster_reconnect(crash_player *p)
{
    if (!cluster_connect(p, -1))
        return false;
    p->connections++;
    set_live(p, p->epoch);
    return true;
}

/* ---- playing ------------------------------------------------------------------------------------ */

/* The first legal action of the view: its first play, else a discard of its first tiles. */
static json_t *first_legal_action(const json_t *view)
{
    json_t *legal = json_object_get(view, "legal");
    json_t *plays = json_object_get(legal, "plays");
    if (json_array_size(plays) > 0)
        return json_pack("{s:O}", "play", json_array_get(plays, 0));
    size_t n = (size_t)json_integer_value(json_object_get(legal, "discard"));
    json_t *hand = json_object_get(view, "hand");
    if (n == 0 || n > json_array_size(hand))
        return NULL;
    json_t *tiles = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append(tiles, json_array_get(hand, i));
    return json_pack("{s:o}", "discard", tiles);
}

/* The first listed action that has this key, or NULL. */
static const json_t *action_with(const json_t *actions, const char *key)
{
    size_t i;
    const json_t *a;
    json_array_foreach(actions, i, a) if (json_object_get(a, key) != NULL) return a;
    return NULL;
}

/* How much a tile of this kind does for the hand: its copies and its neighbours in its suit. */
static int tile_worth(const uint8_t count[CRASH_KINDS], int kind)
{
    int worth = 10 * (count[kind] - 1);
    if (kind >= 27)
        return worth;
    int rank = kind % 9;
    for (int d = -2; d <= 2; d++)
        if (d != 0 && rank + d >= 0 && rank + d < 9)
            worth += count[kind + d] * (d == -1 || d == 1 ? 4 : 2);
    return worth;
}

/* A Tianjin decision from the view: win, claim and kong whenever offered; the pre-hand choices
 * in turn with the hand number (so tables sit and pull in every way); otherwise discard the
 * least connected tile that is not a wild. */
static json_t *tianjin_action(const crash_player *p, const json_t *view)
{
    const json_t *legal = json_object_get(view, "legal");
    const json_t *actions = json_object_get(legal, "actions");
    size_t n = json_array_size(actions);
    if (n == 0)
        return NULL;
    const char *kind = string_at(legal, "kind");
    if (strcmp(kind, "pre_hand") == 0)
        return json_deep_copy(json_array_get(actions, (size_t)(p->hand + p->seat) % n));
    const char *prefer[] = {"win", "kong", "pung", "concealed_kong", "added_kong"};
    for (size_t i = 0; i < sizeof prefer / sizeof prefer[0]; i++) {
        const json_t *a = action_with(actions, prefer[i]);
        if (a != NULL)
            return json_deep_copy(a);
    }
    if (strcmp(kind, "claim") == 0)
        return json_deep_copy(action_with(actions, "pass"));
    uint8_t count[CRASH_KINDS], wild[CRASH_KINDS];
    if (!crash_count_tiles(true, json_object_get(view, "hand"), count) ||
        !crash_count_tiles(true, json_object_get(view, "wilds"), wild))
        return NULL;
    const json_t *best = NULL;
    int best_worth = 0;
    size_t i;
    const json_t *a;
    json_array_foreach(actions, i, a)
    {
        int k = mj_kind_parse(string_at(a, "discard"));
        if (k < 0)
            continue;
        int worth = wild[k] ? 1000 : tile_worth(count, k);
        if (best == NULL || worth < best_worth) {
            best = a;
            best_worth = worth;
        }
    }
    return best != NULL ? json_deep_copy(best) : NULL;
}

static void maybe_act(crash_player *p)
{
    json_t *view = p->view;
    if (p->seat < 0 || view == NULL || p->act_open || p->act_id != 0)
        return;
    if (json_is_true(json_object_get(view, "over")) || !json_is_object(json_object_get(view, "legal")))
        return;
    json_t *to_act = json_object_get(view, "to_act");
    if (!p->tianjin && (!json_is_integer(to_act) || json_integer_value(to_act) != p->seat))
        return;
    if (p->tianjin && crash_now_ms() - p->act_sent_ms < CRASH_TIANJIN_PACE_MS)
        return;
    json_t *action = p->tianjin ? tianjin_action(p, view) : first_legal_action(view);
    if (action == NULL) {
        char *text = text_of(view);
        fail(p, "its turn, but its view offers no action: %.600s", text);
        free(text);
        return;
    }
    p->act_sent = json_incref(action);
    p->act_sent_ms = crash_now_ms();
    p->act_hand = p->hand;
    p->act_open = true;
    p->act_accepted = false;
    p->act_event_seen = false;
    p->act_id = send_message(p, json_pack("{s:s, s:s, s:o}", "type", "act", "code", p->code, "action", action));
    if (p->act_id == 0) { /* the connection is gone; the read below will say so */
        json_decref(p->act_sent);
        p->act_sent = NULL;
        p->act_open = false;
    }
}

/* Replies and events that must come do come, as long as the connection lives. */
static void check_deadlines(crash_player *p)
{
    long long now = crash_now_ms();
    if (p->act_id != 0 && now - p->act_sent_ms > CRASH_REPLY_MS)
        fail(p, "its act got no reply in %d s", CRASH_REPLY_MS / 1000);
    if (p->act_open && p->act_accepted && now - p->accepted_ms > CRASH_ACT_EVENT_MS)
        fail(p, "its act was answered ok but its event did not come in %d s", CRASH_ACT_EVENT_MS / 1000);
}

static void *player_main(void *arg)
{
    crash_player *p = arg;
    while (p->failure[0] == '\0' && !stopping(p)) {
        if (p->ws == NULL) {
            if (!(p->shared->cluster ? cluster_reconnect(p) : reconnect(p)))
                break;
            continue;
        }
        check_deadlines(p);
        maybe_act(p);
        ws_message m;
        ws_client_result rc = ws_client_recv(p->ws, &m, p->tianjin ? 20 : 50);
        if (rc == WS_CLIENT_TIMEOUT)
            continue;
        if (rc != WS_CLIENT_OK) { /* the server died (or closed): come back to the next one */
            drop_connection(p);
            continue;
        }
        trace(p, "<<", m.data, m.len);
        json_t *frame = json_loadb(m.data, m.len, 0, NULL);
        if (frame == NULL) {
            fail(p, "a frame that is not JSON: %.200s", m.data);
            break;
        }
        handle_frame(p, frame);
        json_decref(frame);
    }
    if (p->ws != NULL)
        ws_client_close(p->ws, 1000, 500);
    p->ws = NULL;
    pthread_mutex_lock(&p->shared->lock);
    p->live_epoch = 0;
    p->finished = true;
    pthread_cond_broadcast(&p->shared->changed);
    pthread_mutex_unlock(&p->shared->lock);
    return NULL;
}

bool crash_player_start(crash_player *p)
{
    return pthread_create(&p->thread, NULL, player_main, p) == 0;
}

void crash_player_join(crash_player *p) { pthread_join(p->thread, NULL); }

void crash_player_describe(const crash_player *p, char *out, size_t cap)
{
    const json_t *view = p->view;
    const json_t *to_act = json_object_get(view, "to_act");
    const char *state = view == NULL ? "no view" : json_is_true(json_object_get(view, "over")) ? "over" : "in play";
    const char *turn = !json_is_integer(to_act)                   ? "nobody"
                       : json_integer_value(to_act) == p->seat ? "itself"
                                                                 : "another seat";
    snprintf(out, cap, "%s (table %s): hand %lld %s, to act: %s, act %s, %d connection(s), %ld frames, last hand_over "
                       "from server %d",
             p->name, p->code, (long long)p->hand, state, turn, p->act_open ? "open" : "none open", p->connections,
             p->frames, p->overs_epoch);
}

void crash_player_free(crash_player *p)
{
    if (p->ws != NULL)
        ws_client_abort(p->ws);
    p->ws = NULL;
    for (size_t i = 0; i < p->n_acts; i++)
        json_decref(p->acts[i].action);
    free(p->acts);
    free(p->overs);
    free(p->seen);
    json_decref(p->view);
    json_decref(p->act_sent);
    p->acts = NULL;
    p->overs = NULL;
    p->seen = NULL;
    p->view = NULL;
    p->act_sent = NULL;
}
