/*
 * lobby — connections, players, the table list and the dispatch of client messages.
 *
 * Ownership: a client (one per connection) lives from on_open to on_close; a player lives from
 * its first hello until it has had no connection for the reconnection grace period and belongs
 * to no table (the sweep timer frees it); a room lives until it closes. Rooms hold player
 * pointers only while the player is a member, so freeing only room-less players is safe.
 */
#include "lobby.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "game.h"
#include "log.h"
#include "player.h"
#include "proto.h"
#include "ratelimit.h"
#include "room.h"

#define TOKEN_BUCKETS 4096
#define MAX_ERROR_CODES 64
#define RATE_STRIKES_BEFORE_CLOSE 200
#define SWEEP_MS 1000

typedef struct client {
    net_conn *conn;
    player *p;             /* NULL until hello */
    rate_bucket bucket;
    int strikes;           /* messages refused by the rate limit */
} client;

typedef struct room_node {
    room *r;
    struct room_node *next;
    struct room_node *next_in_bucket; /* rooms_by_code: every table command looks its room up */
} room_node;

struct lobby {
    uv_loop_t *loop;
    lobby_config config;
    room_env env;
    player *players;                      /* every player, linked */
    player *by_token[TOKEN_BUCKETS];
    int next_player_id;
    room_node *rooms;
    room_node *rooms_by_code[TOKEN_BUCKETS];
    int n_rooms;
    uv_timer_t sweep;
    size_t n_players;
    uint64_t messages_total;
    uint64_t actions_total;
    uint64_t hands_of_closed_tables; /* so the hands counter never goes down */
    struct {
        const char *code;
        uint64_t count;
    } errors[MAX_ERROR_CODES];
    bool shutting_down;
};

lobby_config lobby_config_default(void)
{
    return (lobby_config){.turn_seconds = 30,
                          .reconnect_seconds = 120,
                          .bot_delay_ms = 700,
                          .next_hand_ms = 10000,
                          .empty_close_ms = 60000,
                          .max_tables = 10000,
                          .rate_per_second = 20,
                          .rate_burst = 40};
}

/* --- sending --- */

static void send_text(client *c, const char *text, size_t len) { net_send(c->conn, text, len); }

static void send_json(client *c, json_t *message)
{
    char *text = json_dumps(message, JSON_COMPACT);
    if (text != NULL) {
        send_text(c, text, strlen(text));
        free(text);
    }
    json_decref(message);
}

static void count_error(lobby *l, const char *code)
{
    for (int i = 0; i < MAX_ERROR_CODES; i++) {
        if (l->errors[i].code == NULL)
            l->errors[i].code = code;
        if (strcmp(l->errors[i].code, code) == 0) {
            l->errors[i].count++;
            return;
        }
    }
}

static void send_error(lobby *l, client *c, const json_t *id, const char *code, const char *message)
{
    count_error(l, code);
    send_json(c, proto_error(id, code, message));
}

static void send_ok(client *c, const json_t *id)
{
    json_t *ok = json_pack("{s:s}", "type", "ok");
    if (id != NULL)
        json_object_set(ok, "id", (json_t *)id);
    send_json(c, ok);
}

/* room_env.send: to the player's connection, if it has one now. */
static void room_send(void *ctx, player *p, const char *text, size_t len)
{
    (void)ctx;
    if (p->client != NULL)
        send_text(p->client, text, len);
}

/* --- players --- */

static unsigned token_bucket(const char *token)
{
    unsigned h = 2166136261u; /* FNV-1a: tokens are random, any spread will do */
    for (const char *s = token; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h % TOKEN_BUCKETS;
}

static player *find_player(lobby *l, const char *token)
{
    for (player *p = l->by_token[token_bucket(token)]; p != NULL; p = p->next_in_bucket)
        if (strcmp(p->token, token) == 0)
            return p;
    return NULL;
}

/* Names come from proto_decode, which bounds them to the size of player.name. */
static void set_name(player *p, const char *name)
{
    size_t len = strnlen(name, sizeof p->name - 1);
    memcpy(p->name, name, len);
    p->name[len] = '\0';
}

static player *new_player(lobby *l, const char *name)
{
    player *p = calloc(1, sizeof *p);
    if (p == NULL)
        return NULL;
    p->id = ++l->next_player_id;
    set_name(p, name);
    unsigned char secret[PROTO_TOKEN_LEN / 2];
    randombytes_buf(secret, sizeof secret);
    sodium_bin2hex(p->token, sizeof p->token, secret, sizeof secret);
    unsigned b = token_bucket(p->token);
    p->next_in_bucket = l->by_token[b];
    l->by_token[b] = p;
    p->next = l->players;
    if (l->players != NULL)
        l->players->prev = p;
    l->players = p;
    l->n_players++;
    return p;
}

static void free_player(lobby *l, player *p)
{
    player **link = &l->by_token[token_bucket(p->token)];
    while (*link != p)
        link = &(*link)->next_in_bucket;
    *link = p->next_in_bucket;
    if (p->prev != NULL)
        p->prev->next = p->next;
    else
        l->players = p->next;
    if (p->next != NULL)
        p->next->prev = p->prev;
    l->n_players--;
    sodium_memzero(p->token, sizeof p->token);
    free(p);
}

/* The rooms a player belongs to, copied: a room may drop the membership while we walk them. */
static int rooms_of(const player *p, room *out[PLAYER_MAX_ROOMS])
{
    memcpy(out, p->rooms, sizeof(room *) * (size_t)p->n_rooms);
    return p->n_rooms;
}

/* --- tables --- */

static room *find_room(lobby *l, const char *code)
{
    for (room_node *n = l->rooms_by_code[token_bucket(code)]; n != NULL; n = n->next_in_bucket)
        if (strcmp(room_code(n->r), code) == 0 && room_get_state(n->r) != ROOM_CLOSED)
            return n->r;
    return NULL;
}

static void new_code(lobby *l, char out[PROTO_CODE_LEN + 1])
{
    static const char alphabet[] = PROTO_CODE_ALPHABET;
    do {
        for (int i = 0; i < PROTO_CODE_LEN; i++)
            out[i] = alphabet[randombytes_uniform(sizeof alphabet - 1)];
        out[PROTO_CODE_LEN] = '\0';
    } while (find_room(l, out) != NULL);
}

static void remove_room(lobby *l, room *r)
{
    for (room_node **link = &l->rooms; *link != NULL; link = &(*link)->next)
        if ((*link)->r == r) {
            room_node *dead = *link;
            *link = dead->next;
            room_node **in_bucket = &l->rooms_by_code[token_bucket(room_code(r))];
            while (*in_bucket != dead)
                in_bucket = &(*in_bucket)->next_in_bucket;
            *in_bucket = dead->next_in_bucket;
            free(dead);
            l->n_rooms--;
            l->hands_of_closed_tables += room_hands_played(r);
            room_destroy(r);
            return;
        }
}

/* room_env.closed: a room closed itself (nobody connected for a while). */
static void room_closed(void *ctx, room *r) { remove_room(ctx, r); }

/* room_env.member_left: nothing to do at once; the sweep frees players who are gone for good. */
static void member_left(void *ctx, room *r, player *p)
{
    (void)ctx;
    (void)r;
    (void)p;
}

/* --- the commands --- */

typedef struct request {
    lobby *l;
    client *c;
    proto_msg *m;
} request;

static void hello(request *q)
{
    lobby *l = q->l;
    client *c = q->c;
    proto_msg *m = q->m;
    if (c->p != NULL) {
        send_error(l, c, m->id, "bad_request", "This connection has already said hello.");
        return;
    }
    player *p = m->token[0] ? find_player(l, m->token) : NULL;
    bool resumed = p != NULL;
    if (p != NULL && p->client != NULL) { /* a newer connection replaces the older one */
        client *old = p->client;
        send_error(l, old, NULL, "replaced", "You connected again elsewhere; this connection is closed.");
        old->p = NULL;
        net_close(old->conn, "replaced");
    }
    if (p == NULL && (p = new_player(l, m->name)) == NULL) {
        send_error(l, c, m->id, "internal", "The server is out of memory.");
        return;
    }
    set_name(p, m->name);
    p->client = c;
    c->p = p;
    char ref[16];
    snprintf(ref, sizeof ref, "p%d", p->id);
    json_t *welcome = json_pack("{s:s, s:i, s:{s:s, s:s}, s:s, s:b}", "type", "welcome", "v", PROTO_VERSION, "player",
                                "id", ref, "name", p->name, "token", p->token, "resumed", resumed);
    if (m->id != NULL)
        json_object_set(welcome, "id", m->id);
    send_json(c, welcome);
    room *rooms[PLAYER_MAX_ROOMS];
    int n = rooms_of(p, rooms);
    for (int i = 0; i < n; i++)
        room_player_connected(rooms[i], p, NULL);
}

static void list_tables(request *q)
{
    json_t *tables = json_array();
    for (room_node *n = q->l->rooms; n != NULL; n = n->next)
        if (room_is_public(n->r) && room_get_state(n->r) != ROOM_CLOSED)
            json_array_append_new(tables, room_summary(n->r));
    json_t *reply = json_pack("{s:s, s:o}", "type", "tables", "tables", tables);
    if (q->m->id != NULL)
        json_object_set(reply, "id", q->m->id);
    send_json(q->c, reply);
}

static void create_table(request *q)
{
    lobby *l = q->l;
    proto_msg *m = q->m;
    const game_ops *game = game_find(m->game);
    if (game == NULL) {
        send_error(l, q->c, m->id, "unknown_game", "The house hosts \"tiengow\".");
        return;
    }
    if (l->n_rooms >= l->config.max_tables) {
        send_error(l, q->c, m->id, "too_many_tables", "The house is full; try again later.");
        return;
    }
    char msg[GAME_MESSAGE_SIZE];
    json_t *options = game->options_parse(m->options, msg, sizeof msg);
    if (options == NULL) {
        send_error(l, q->c, m->id, "bad_options", msg);
        return;
    }
    char code[PROTO_CODE_LEN + 1];
    new_code(l, code);
    uint64_t seed;
    randombytes_buf(&seed, sizeof seed);
    int turn = m->turn_seconds > 0 ? m->turn_seconds : l->config.turn_seconds;
    room_node *node = calloc(1, sizeof *node);
    room *r = node != NULL ? room_create(&l->env, game, options, m->is_public, turn, code, seed) : NULL;
    json_decref(options);
    if (r == NULL) {
        free(node);
        send_error(l, q->c, m->id, "internal", "The server is out of memory.");
        return;
    }
    node->r = r;
    node->next = l->rooms;
    l->rooms = node;
    node->next_in_bucket = l->rooms_by_code[token_bucket(code)];
    l->rooms_by_code[token_bucket(code)] = node;
    l->n_rooms++;
    const char *error = room_join(node->r, q->c->p, 0, m->id, msg, sizeof msg);
    if (error != NULL)
        send_error(l, q->c, m->id, error, msg);
    log_info("table %s (%s, %s) opened by p%d", code, game->name, m->is_public ? "public" : "private",
             q->c->p->id);
}

/* The commands addressed to one table: find it, run the room's command, answer ok or the error. */
static void table_command(request *q)
{
    lobby *l = q->l;
    proto_msg *m = q->m;
    room *r = find_room(l, m->code);
    if (r == NULL) {
        send_error(l, q->c, m->id, "no_such_table", "No open table has that code.");
        return;
    }
    player *p = q->c->p;
    char msg[GAME_MESSAGE_SIZE] = "";
    const char *error = NULL;
    switch (m->type) {
    case PROTO_JOIN_TABLE: error = room_join(r, p, -1, m->id, msg, sizeof msg); break;
    case PROTO_LEAVE_TABLE: error = room_leave(r, p, msg, sizeof msg); break;
    case PROTO_TAKE_SEAT: error = room_take_seat(r, p, m->seat, msg, sizeof msg); break;
    case PROTO_LEAVE_SEAT: error = room_leave_seat(r, p, msg, sizeof msg); break;
    case PROTO_ADD_BOT: error = room_add_bot(r, p, m->seat, msg, sizeof msg); break;
    case PROTO_REMOVE_BOT: error = room_remove_bot(r, p, m->seat, msg, sizeof msg); break;
    case PROTO_START: error = room_start(r, p, msg, sizeof msg); break;
    case PROTO_READY: error = room_ready(r, p, msg, sizeof msg); break;
    case PROTO_ACT:
        error = room_act(r, p, m->action, msg, sizeof msg);
        if (error == NULL)
            l->actions_total++;
        break;
    case PROTO_CHAT: error = room_chat(r, p, m->text, msg, sizeof msg); break;
    default: error = "bad_request"; snprintf(msg, sizeof msg, "Not a table command."); break;
    }
    if (error != NULL)
        send_error(l, q->c, m->id, error, msg);
    else if (m->type != PROTO_JOIN_TABLE) /* join answers with its snapshot */
        send_ok(q->c, m->id);
}

static void dispatch(request *q)
{
    switch (q->m->type) {
    case PROTO_HELLO: hello(q); return;
    case PROTO_PING: {
        json_t *pong = json_pack("{s:s}", "type", "pong");
        if (q->m->id != NULL)
            json_object_set(pong, "id", q->m->id);
        send_json(q->c, pong);
        return;
    }
    case PROTO_LIST_TABLES: list_tables(q); return;
    case PROTO_CREATE_TABLE: create_table(q); return;
    default: table_command(q); return;
    }
}

/* --- net handlers --- */

static void on_open(void *ctx, net_conn *conn)
{
    lobby *l = ctx;
    client *c = calloc(1, sizeof *c);
    if (c == NULL) {
        net_close(conn, "out of memory");
        return;
    }
    c->conn = conn;
    rate_init(&c->bucket, l->config.rate_burst, uv_now(l->loop));
    net_conn_set_data(conn, c);
    if (l->shutting_down) {
        send_error(l, c, NULL, "shutting_down", "The server is stopping.");
        net_close(conn, "shutting down");
    }
}

static void on_message(void *ctx, net_conn *conn, const char *text, size_t len)
{
    lobby *l = ctx;
    client *c = net_conn_data(conn);
    if (c == NULL)
        return;
    l->messages_total++;
    if (!rate_take(&c->bucket, l->config.rate_per_second, l->config.rate_burst, uv_now(l->loop))) {
        if (++c->strikes > RATE_STRIKES_BEFORE_CLOSE) {
            net_close(conn, "rate limit");
            return;
        }
        send_error(l, c, NULL, "rate_limited", "Too many messages; slow down.");
        return;
    }
    proto_msg m;
    char msg[PROTO_MESSAGE_SIZE];
    proto_status status = proto_decode(text, len, &m, msg, sizeof msg);
    if (status != PROTO_OK)
        send_error(l, c, m.id, proto_status_name(status), msg);
    else if (c->p == NULL && m.type != PROTO_HELLO)
        send_error(l, c, m.id, "not_hello", "Say hello first: {\"type\":\"hello\",\"v\":1,\"name\":…}.");
    else
        dispatch(&(request){.l = l, .c = c, .m = &m});
    proto_msg_free(&m);
}

static void on_close(void *ctx, net_conn *conn)
{
    lobby *l = ctx;
    client *c = net_conn_data(conn);
    if (c == NULL)
        return;
    net_conn_set_data(conn, NULL);
    player *p = c->p;
    free(c);
    if (p == NULL)
        return;
    p->client = NULL;
    p->gone_at_ms = uv_now(l->loop);
    room *rooms[PLAYER_MAX_ROOMS];
    int n = rooms_of(p, rooms);
    for (int i = 0; i < n; i++)
        room_player_disconnected(rooms[i], p);
}

static void write_metrics(void *ctx, char *buf, size_t cap, size_t *len)
{
    lobby *l = ctx;
    size_t states[4] = {0};
    uint64_t hands = l->hands_of_closed_tables;
    for (room_node *n = l->rooms; n != NULL; n = n->next) {
        states[room_get_state(n->r)]++;
        hands += room_hands_played(n->r);
    }
    static const char *const STATES[] = {"waiting", "playing", "between_hands", "closed"};
#define APPEND(...)                                                                                                    \
    do {                                                                                                               \
        int w = snprintf(buf + *len, cap > *len ? cap - *len : 0, __VA_ARGS__);                                       \
        if (w > 0)                                                                                                     \
            *len = *len + (size_t)w < cap ? *len + (size_t)w : cap;                                                    \
    } while (0)
    APPEND("# TYPE teahouse_tables gauge\n");
    for (int s = 0; s < 4; s++)
        APPEND("teahouse_tables{state=\"%s\"} %zu\n", STATES[s], states[s]);
    APPEND("# TYPE teahouse_players gauge\nteahouse_players %zu\n", l->n_players);
    APPEND("# TYPE teahouse_hands_played_total counter\nteahouse_hands_played_total %llu\n", (unsigned long long)hands);
    APPEND("# TYPE teahouse_actions_total counter\nteahouse_actions_total %llu\n", (unsigned long long)l->actions_total);
    APPEND("# TYPE teahouse_client_messages_total counter\nteahouse_client_messages_total %llu\n",
           (unsigned long long)l->messages_total);
    APPEND("# TYPE teahouse_errors_total counter\n");
    for (int i = 0; i < MAX_ERROR_CODES && l->errors[i].code != NULL; i++)
        APPEND("teahouse_errors_total{code=\"%s\"} %llu\n", l->errors[i].code, (unsigned long long)l->errors[i].count);
#undef APPEND
}

/* Frees players whose connection has been gone longer than the grace period: their seats pass
 * to bots until the hand ends, and they leave their tables. */
static void on_sweep(uv_timer_t *timer)
{
    lobby *l = timer->data;
    uint64_t now = uv_now(l->loop);
    uint64_t grace = (uint64_t)l->config.reconnect_seconds * 1000;
    player *next;
    for (player *p = l->players; p != NULL; p = next) {
        next = p->next;
        if (p->client != NULL || now - p->gone_at_ms < grace)
            continue;
        room *rooms[PLAYER_MAX_ROOMS];
        int n = rooms_of(p, rooms);
        for (int i = 0; i < n; i++)
            room_player_gone(rooms[i], p);
        if (p->n_rooms == 0)
            free_player(l, p);
    }
}

/* --- life cycle --- */

lobby *lobby_create(uv_loop_t *loop, const lobby_config *config)
{
    if (sodium_init() < 0)
        return NULL;
    lobby *l = calloc(1, sizeof *l);
    if (l == NULL)
        return NULL;
    l->loop = loop;
    l->config = *config;
    l->env = (room_env){.ctx = l,
                        .loop = loop,
                        .send = room_send,
                        .closed = room_closed,
                        .member_left = member_left,
                        .bot_delay_ms = config->bot_delay_ms,
                        .next_hand_ms = config->next_hand_ms,
                        .empty_close_ms = config->empty_close_ms};
    uv_timer_init(loop, &l->sweep);
    l->sweep.data = l;
    uv_timer_start(&l->sweep, on_sweep, SWEEP_MS, SWEEP_MS);
    return l;
}

net_handlers lobby_handlers(lobby *l)
{
    return (net_handlers){.ctx = l,
                          .on_open = on_open,
                          .on_message = on_message,
                          .on_close = on_close,
                          .write_metrics = write_metrics};
}

void lobby_shutdown(lobby *l)
{
    l->shutting_down = true;
    uv_timer_stop(&l->sweep);
    while (l->rooms != NULL) {
        room_close(l->rooms->r, "The server is stopping.");
        remove_room(l, l->rooms->r);
    }
    for (player *p = l->players; p != NULL; p = p->next)
        if (p->client != NULL)
            send_error(l, p->client, NULL, "shutting_down", "The server is stopping; come back in a moment.");
}

static void on_sweep_closed(uv_handle_t *handle)
{
    lobby *l = handle->data;
    while (l->players != NULL)
        free_player(l, l->players);
    free(l);
}

void lobby_destroy(lobby *l)
{
    while (l->rooms != NULL)
        remove_room(l, l->rooms->r);
    uv_close((uv_handle_t *)&l->sweep, on_sweep_closed);
}
