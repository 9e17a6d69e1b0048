/*
 * lobby — connections, the table list, the dispatch of client messages, a table's history (for
 * its members, and from the store for anyone who played at it, closed too), a player's own
 * tables (my_tables), and the tables reopened from the store at start-up. Who a connection is (hello, accounts) is in
 * lobby_players.c.
 *
 * Ownership: a client (one per connection) lives from on_open until on_close and the answers to
 * its store requests; a player lives from its first hello until it has had no connection for the
 * reconnection grace period and belongs to no table (the sweep timer frees it); a room lives
 * until it closes. Rooms hold player pointers only while the player is a member, so freeing
 * only room-less players is safe.
 */
#include "lobby.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "game.h"
#include "history.h"
#include "lobby_internal.h"
#include "lobby_listing.h"
#include "log.h"
#include "profile.h"

#define SWEEP_MS 1000
#define THROTTLE_SWEEP_EVERY 60 /* sweeps: the throttles forget idle addresses once a minute */
#define CODE_MISS_KEYS 16384    /* addresses whose misses are remembered at once */
/* A tables reply: its summaries, and room to spare for the rest (type, an id of up to 64 bytes
 * however escaped, next, total). */
#define TABLES_ENVELOPE_BYTES 1024
_Static_assert(LIMIT_TABLES_REPLY_BYTES * 4 <= NET_MAX_QUEUED_BYTES,
               "a tables reply is far below what a connection may have queued");

lobby_config lobby_config_default(void)
{
    return (lobby_config){.turn_seconds = 30,
                          .reconnect_seconds = 120,
                          .bot_delay_ms = 700,
                          .next_hand_ms = 10000,
                          .empty_close_ms = 60000,
                          .retry_ms = 5000,
                          .max_tables = 10000,
                          .rate_per_second = LIMIT_RATE_PER_SECOND,
                          .rate_burst = LIMIT_RATE_BURST,
                          .new_guests_per_minute = 30};
}

throttle_config lobby_code_miss_config(void)
{
    return (throttle_config){.rate = 2.0 / LIMIT_CODE_MISS_SECONDS,
                             .burst = 2.0 * LIMIT_CODE_MISSES_BURST,
                             .base_delay_ms = LIMIT_CODE_MISS_SECONDS * 1000,
                             .max_delay_ms = (uint64_t)LIMIT_CODE_MISS_MAX_WAIT_SECONDS * 1000,
                             /* longer than a spent bucket takes to fill, and than the longest wait,
                              * so forgetting a key never gives it back more than waiting would */
                             .idle_ms = 2 * (uint64_t)LIMIT_CODE_MISS_MAX_WAIT_SECONDS * 1000 + 3600 * 1000,
                             .max_keys = CODE_MISS_KEYS};
}

/* --- sending --- */

static void send_text(client *c, const char *text, size_t len)
{
    if (c->conn != NULL)
        net_send(c->conn, text, len);
}

void lobby_send_json(client *c, json_t *message)
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
    for (int i = 0; i < LOBBY_MAX_ERROR_CODES; i++) {
        if (l->errors[i].code == NULL)
            l->errors[i].code = code;
        if (strcmp(l->errors[i].code, code) == 0) {
            l->errors[i].count++;
            return;
        }
    }
}

void lobby_send_error_named(lobby *l, client *c, const json_t *id, const char *code, const char *message)
{
    count_error(l, code);
    lobby_send_json(c, proto_error(id, code, message));
}

void lobby_send_error(lobby *l, client *c, const json_t *id, proto_error_code code, const char *message)
{
    lobby_send_error_named(l, c, id, proto_error_name(code), message);
}

void lobby_send_rate_limited(lobby *l, client *c, const json_t *id, const char *message, uint64_t retry_ms)
{
    count_error(l, proto_error_name(PROTO_ERR_RATE_LIMITED));
    json_t *error = proto_error(id, proto_error_name(PROTO_ERR_RATE_LIMITED), message);
    json_object_set_new(error, "retry_ms", json_integer((json_int_t)retry_ms));
    lobby_send_json(c, error);
}

void lobby_send_ok(client *c, const json_t *id)
{
    json_t *ok = json_pack("{s:s}", "type", "ok");
    if (id != NULL)
        json_object_set(ok, "id", (json_t *)id);
    lobby_send_json(c, ok);
}

/* room_env.send: to the player's connection, if it has one now. */
static void room_send(void *ctx, player *p, const char *text, size_t len)
{
    (void)ctx;
    if (p->client != NULL)
        send_text(p->client, text, len);
}

/* --- requests waiting for the store --- */

static lobby_pending *pending_new(lobby *l, client *c, const json_t *id)
{
    lobby_pending *w = calloc(1, sizeof *w);
    if (w == NULL)
        return NULL;
    w->l = l;
    w->c = c;
    w->id = id != NULL ? json_incref((json_t *)id) : NULL;
    c->pending++;
    l->pending++;
    return w;
}

lobby_pending *lobby_pending_begin(lobby *l, client *c, const json_t *id)
{
    lobby_pending *w = pending_new(l, c, id);
    if (w == NULL)
        lobby_send_error(l, c, id, PROTO_ERR_INTERNAL, "The server is out of memory.");
    return w;
}

bool lobby_pending_end(lobby_pending *w)
{
    w->l->pending--;
    w->c->pending--;
    return w->c->conn != NULL;
}

static void drop_queue(client *c)
{
    for (int i = 0; i < c->n_queued; i++)
        free(c->queued[i]);
    c->n_queued = 0;
}

void lobby_client_release(lobby *l, client *c)
{
    (void)l;
    if (c->conn == NULL && c->pending == 0) {
        drop_queue(c);
        free(c);
    }
}

void lobby_pending_free(lobby_pending *w)
{
    lobby *l = w->l;
    lobby_client_release(l, w->c);
    json_decref(w->id);
    json_decref(w->options);
    free(w);
    lobby_maybe_free(l);
}

/* --- tables --- */

static room *find_room(lobby *l, const char *code)
{
    for (room_node *n = l->rooms_by_code[lobby_bucket(code)]; n != NULL; n = n->next_in_bucket)
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
    } while (find_room(l, out) != NULL || lobby_listing_find(l->others, out) != NULL);
}

static bool add_room(lobby *l, room *r)
{
    room_node *node = calloc(1, sizeof *node);
    if (node == NULL)
        return false;
    node->r = r;
    /* a wall-clock microsecond, so that every node's tables page in one order (lobby_listing.h) */
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    uint64_t us = (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
    node->serial = l->next_serial = us > l->next_serial ? us : l->next_serial + 1;
    node->next = l->rooms;
    l->rooms = node;
    unsigned b = lobby_bucket(room_code(r));
    node->next_in_bucket = l->rooms_by_code[b];
    l->rooms_by_code[b] = node;
    l->n_rooms++;
    return true;
}

static void remove_room(lobby *l, room *r)
{
    for (room_node **link = &l->rooms; *link != NULL; link = &(*link)->next)
        if ((*link)->r == r) {
            room_node *dead = *link;
            *link = dead->next;
            room_node **in_bucket = &l->rooms_by_code[lobby_bucket(room_code(r))];
            while (*in_bucket != dead)
                in_bucket = &(*in_bucket)->next_in_bucket;
            *in_bucket = dead->next_in_bucket;
            free(dead);
            l->n_rooms--;
            l->hands_of_closed_tables += room_hands_played(r);
            l->failed_writes_of_closed_tables += room_failed_writes(r);
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

/* Whether text holds needle, ASCII letters in either case. */
static bool contains_folded(const char *text, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *t = text; strlen(t) >= n; t++) {
        size_t i = 0;
        while (i < n && tolower((unsigned char)t[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return true;
    }
    return false;
}

/* list_tables' search: the start of the table's code, or a part of its host's name. */
static bool search_matches(const lobby_table_facts *t, const char *search)
{
    size_t i = 0;
    while (search[i] != '\0' && t->code[i] != '\0' && toupper((unsigned char)search[i]) == t->code[i])
        i++;
    return search[i] == '\0' || contains_folded(t->host, search);
}

/* A public open table list_tables shows (here or on another node): through every filter asked. */
static bool listed(const lobby_table_facts *t, const proto_msg *m)
{
    bool waiting = strcmp(t->state, "waiting") == 0;
    if (strcmp(t->state, "closed") == 0)
        return false;
    if (m->game != NULL && strcmp(t->game, m->game) != 0)
        return false;
    if (m->state == PROTO_TABLES_WAITING && !waiting)
        return false;
    if (m->state == PROTO_TABLES_PLAYING && waiting)
        return false;
    if (m->free_seat && (t->free_seats == 0 || t->locked))
        return false;
    return m->search[0] == '\0' || search_matches(t, m->search);
}

static lobby_table_facts room_facts(const room *r)
{
    return (lobby_table_facts){.code = room_code(r),
                               .game = room_game(r)->name,
                               .state = room_state_name(room_get_state(r)),
                               .host = room_host_name(r),
                               .free_seats = room_free_seats(r),
                               .locked = room_is_locked(r)};
}

/* This node's open tables as the others see them (lobby_listing.h), a JSON text to free. */
char *lobby_listing_text(lobby *l)
{
    json_t *list = json_array();
    for (room_node *n = l->rooms; n != NULL; n = n->next) {
        if (room_get_state(n->r) == ROOM_CLOSED)
            continue;
        const lobby_table_facts facts = room_facts(n->r);
        json_t *summary = room_is_public(n->r) ? room_summary(n->r) : NULL;
        json_array_append_new(list, lobby_listing_entry(n->serial, room_is_public(n->r), &facts, summary));
        json_decref(summary);
    }
    char *text = json_dumps(list, JSON_COMPACT);
    json_decref(list);
    return text;
}

/* The ids of the stored tables this node plays, as a PostgreSQL array text to free. */
char *lobby_kept_tables_text(lobby *l)
{
    size_t cap = 3, used = 0;
    for (room_node *n = l->rooms; n != NULL; n = n->next)
        cap += 21;
    char *text = malloc(cap);
    if (text == NULL)
        return NULL;
    text[used++] = '{';
    for (room_node *n = l->rooms; n != NULL; n = n->next)
        if (room_table_id(n->r) != 0 && room_get_state(n->r) != ROOM_CLOSED)
            used += (size_t)snprintf(text + used, cap - used, "%s%" PRId64, used > 1 ? "," : "", room_table_id(n->r));
    snprintf(text + used, cap - used, "}");
    return text;
}

size_t lobby_let_go(lobby *l, int64_t table_id, const char *node, const char *ws)
{
    for (room_node *n = l->rooms; n != NULL; n = n->next)
        if (room_table_id(n->r) == table_id) {
            lobby_forward *f = &l->forwards[l->next_forward++ % LOBBY_FORWARDS];
            snprintf(f->code, sizeof f->code, "%s", room_code(n->r));
            snprintf(f->node, sizeof f->node, "%s", node);
            snprintf(f->ws, sizeof f->ws, "%s", ws);
            f->until_ms = uv_now(l->loop) + LOBBY_FORWARD_MS;
            log_warn("table %s: node %s plays it now; its players are sent there", room_code(n->r), node);
            room_park(n->r, "This table moved to another server; reconnecting.");
            remove_room(l, n->r);
            return 1;
        }
    return 0;
}

/* Where a table let go lately went (lobby_let_go), or NULL. */
static const lobby_forward *forwarded(const lobby *l, const char *code)
{
    for (size_t i = 0; i < LOBBY_FORWARDS; i++)
        if (l->forwards[i].code[0] != '\0' && strcmp(l->forwards[i].code, code) == 0 &&
            l->forwards[i].until_ms > uv_now(l->loop) && l->forwards[i].ws[0] != '\0')
            return &l->forwards[i];
    return NULL;
}

void lobby_set_others(lobby *l, lobby_listing *others)
{
    lobby_listing_free(l->others);
    l->others = others;
}

/*
 * One page of the public tables, newest first, of this node and the others (lobby_listing.h):
 * at most `limit` summaries of the tables that came in before the cursor (their serial, which
 * only grows), and no more bytes than LIMIT_TABLES_REPLY_BYTES, whatever the tables hold. A
 * table that opens while someone pages comes before their cursor (a refresh shows it); one that
 * closes is simply not there: no table is shown twice or skipped.
 */
static void list_tables(request *q)
{
    const proto_msg *m = q->m;
    const lobby_listing *others = q->l->others;
    const size_t n_others = lobby_listing_count(others);
    json_t *tables = json_array();
    size_t bytes = 0, total = 0;
    uint64_t last = 0;
    bool more = false;
    room_node *local = q->l->rooms;
    size_t remote = 0;
    while (local != NULL || remote < n_others) {
        const lobby_listed *far = remote < n_others ? lobby_listing_at(others, remote) : NULL;
        const room *r = NULL;
        uint64_t serial;
        if (local != NULL && (far == NULL || local->serial >= far->serial)) { /* this node's, next */
            r = local->r;
            serial = local->serial;
            local = local->next;
            const lobby_table_facts facts = room_facts(r);
            if (!room_is_public(r) || !listed(&facts, m))
                continue;
        }
        else { /* another node's, next */
            serial = far->serial;
            remote++;
            const lobby_table_facts facts = lobby_listed_facts(far);
            if (!far->is_public || !listed(&facts, m))
                continue;
        }
        total++;
        if (more || (m->after != 0 && serial >= m->after))
            continue;
        if (json_array_size(tables) == (size_t)m->limit) {
            more = true;
            continue;
        }
        json_t *summary = r != NULL ? room_summary(r) : json_incref(far->summary);
        size_t size = json_dumpb(summary, NULL, 0, JSON_COMPACT) + 1; /* and its comma */
        if (json_array_size(tables) > 0 && bytes + size > LIMIT_TABLES_REPLY_BYTES - TABLES_ENVELOPE_BYTES) {
            json_decref(summary);
            more = true;
            continue;
        }
        bytes += size;
        json_array_append_new(tables, summary);
        last = serial;
    }
    char next[24];
    snprintf(next, sizeof next, "%" PRIu64, last);
    json_t *reply = json_pack("{s:s, s:o, s:o, s:I}", "type", "tables", "tables", tables, "next",
                              more ? json_string(next) : json_null(), "total", (json_int_t)total);
    if (m->id != NULL)
        json_object_set(reply, "id", m->id);
    lobby_send_json(q->c, reply);
}

static void create_table(request *q)
{
    lobby *l = q->l;
    proto_msg *m = q->m;
    const game_ops *game = game_find(m->game);
    if (game == NULL) {
        char hosted[GAME_MESSAGE_SIZE] = "The games of the house are:";
        for (size_t i = 0; i < game_count(); i++)
            snprintf(hosted + strlen(hosted), sizeof hosted - strlen(hosted), "%s \"%s\"", i ? "," : "",
                     game_at(i)->name);
        lobby_send_error(l, q->c, m->id, PROTO_ERR_UNKNOWN_GAME, hosted);
        return;
    }
    if (l->n_rooms >= l->config.max_tables) {
        lobby_send_error(l, q->c, m->id, PROTO_ERR_TOO_MANY_TABLES, "The house is full; try again later.");
        return;
    }
    if (q->c->p->n_rooms >= PLAYER_MAX_ROOMS) { /* refused before anything is made */
        char why[96];
        snprintf(why, sizeof why, "You are at %d tables already; leave one first.", PLAYER_MAX_ROOMS);
        lobby_send_error(l, q->c, m->id, PROTO_ERR_TOO_MANY_TABLES, why);
        return;
    }
    char msg[GAME_MESSAGE_SIZE];
    json_t *options = game->options_parse(m->options, msg, sizeof msg);
    if (options == NULL) {
        lobby_send_error(l, q->c, m->id, PROTO_ERR_BAD_OPTIONS, msg);
        return;
    }
    char code[PROTO_CODE_LEN + 1];
    new_code(l, code);
    uint64_t seed = l->config.deal_seed; /* --deal-seed: the same deals at every table, for tests */
    if (seed == 0)
        randombytes_buf(&seed, sizeof seed);
    int turn = m->turn_seconds > 0 ? m->turn_seconds : l->config.turn_seconds;
    room *r = room_create(&l->env, game, options, m->is_public, turn, code, seed);
    json_decref(options);
    if (r == NULL || !add_room(l, r)) {
        if (r != NULL)
            room_destroy(r);
        lobby_send_error(l, q->c, m->id, PROTO_ERR_INTERNAL, "The server is out of memory.");
        return;
    }
    const char *error = room_join(r, q->c->p, 0, m->id, msg, sizeof msg);
    if (error != NULL) { /* nobody sits at it: it goes at once */
        lobby_send_error_named(l, q->c, m->id, error, msg);
        room_close(r, "The table could not be opened.");
        remove_room(l, r);
        return;
    }
    log_info("table %s (%s, %s) opened by p%" PRId64, code, game->name, m->is_public ? "public" : "private",
             q->c->p->id);
}

/* --- history --- */

/* Each hand of a history or replay reply names the options it was played under: the table's may
 * have changed since (set_options), and a settlement is explained with its own stake. */
static void add_hand_options(json_t *entry, const json_t *hand_options, const json_t *table_options)
{
    const json_t *options = hand_options != NULL ? hand_options : table_options;
    if (entry != NULL && options != NULL)
        json_object_set(entry, "options", (json_t *)options);
}

static void on_history(void *ctx, const store_error *error, const store_hand_summary *hands, size_t n)
{
    lobby_pending *w = ctx;
    if (lobby_pending_end(w)) {
        if (error->status == STORE_OK) {
            json_t *reply = history_hands_json(w->code, hands, n);
            for (size_t i = 0; i < n; i++) /* history_hands_json lists the hands in the order given */
                add_hand_options(json_array_get(json_object_get(reply, "hands"), i), hands[i].options, w->options);
            if (w->id != NULL)
                json_object_set(reply, "id", w->id);
            lobby_send_json(w->c, reply);
        } else
            lobby_send_store_error(w->l, w->c, w->id, error, "The table's history cannot be read right now.");
    }
    lobby_pending_free(w);
}

static void on_replay(void *ctx, const store_error *error, const store_hand *hand, const store_hand_summary *summary)
{
    lobby_pending *w = ctx;
    if (lobby_pending_end(w) && w->c->p != NULL) {
        char msg[GAME_MESSAGE_SIZE];
        /* a hand is replayed under the options it was played with (the table's may have changed since) */
        const json_t *options = error->status == STORE_OK && hand->options != NULL ? hand->options : w->options;
        json_t *reply = error->status == STORE_OK ? history_replay_json(w->game, options, w->code, hand, summary,
                                                                        w->c->p->id, msg, sizeof msg)
                                                  : NULL;
        if (reply != NULL) {
            add_hand_options(reply, options, NULL);
            if (w->id != NULL)
                json_object_set(reply, "id", w->id);
            lobby_send_json(w->c, reply);
        } else if (error->status == STORE_NOT_FOUND) {
            lobby_send_error(w->l, w->c, w->id, PROTO_ERR_NO_SUCH_HAND,
                             "This table has no finished hand of that number.");
        } else if (error->status == STORE_OK) {
            log_error("replay of table %s: %s", w->code, msg);
            lobby_send_error(w->l, w->c, w->id, PROTO_ERR_INTERNAL, msg);
        } else {
            lobby_send_store_error(w->l, w->c, w->id, error, "The hand cannot be read right now.");
        }
    }
    lobby_pending_free(w);
}

/* Asks the store for the history page or the hand of table_id, for w (which it answers and frees). */
static void ask_history(lobby_pending *w, int64_t table_id)
{
    lobby *l = w->l;
    bool asked = w->type == PROTO_HISTORY ? store_table_hands(l->store, table_id, w->before, LIMIT_HISTORY_PAGE, on_history, w)
                                          : store_hand_get(l->store, table_id, w->hand, on_replay, w);
    if (!asked) {
        if (lobby_pending_end(w))
            lobby_send_error(l, w->c, w->id, PROTO_ERR_UNAVAILABLE, "The server is stopping.");
        lobby_pending_free(w);
    }
}

/* The store's answer: the table of that code the player played at, if any (closed or not). */
static void on_played_table(void *ctx, const store_error *error, const store_played_table *tables, size_t n)
{
    lobby_pending *w = ctx;
    const game_ops *game = n > 0 ? game_find(tables[0].game) : NULL;
    if (error->status != STORE_OK) {
        if (lobby_pending_end(w))
            lobby_send_store_error(w->l, w->c, w->id, error, "The table's history cannot be read right now.");
        lobby_pending_free(w);
        return;
    }
    if (game == NULL) { /* never played there: as for anyone else */
        if (w->count_miss)
            throttle_fail(w->l->code_misses, w->address, uv_now(w->l->loop));
        if (lobby_pending_end(w)) {
            if (w->count_miss)
                lobby_send_error(w->l, w->c, w->id, PROTO_ERR_NO_SUCH_TABLE, "No table has that code.");
            else if (w->open_refusal)
                lobby_send_error(w->l, w->c, w->id, PROTO_ERR_NOT_AT_TABLE, "Join the table to see its history.");
            else
                lobby_send_error(w->l, w->c, w->id, PROTO_ERR_NO_SUCH_TABLE, "No open table has that code.");
        }
        lobby_pending_free(w);
        return;
    }
    w->game = game;
    w->options = json_incref(tables[0].options);
    ask_history(w, tables[0].table_id);
}

/*
 * history: for members of an open table, and for anyone who played a hand at a table, open or
 * closed (its records outlive it); a replay is shared_replay's. r is the open table of that code
 * the player may see, or NULL; with refusal set, r is a table they may see but not read (not a
 * member). A replay's lookup of a kept table by code comes back here too (on_played_table).
 */
static void table_history(request *q, room *r, bool not_member)
{
    lobby *l = q->l;
    proto_msg *m = q->m;
    if (l->store == NULL) {
        if (r != NULL && !not_member)
            lobby_send_error(l, q->c, m->id, PROTO_ERR_NO_HISTORY, "This server keeps no records.");
        else if (r != NULL)
            lobby_send_error(l, q->c, m->id, PROTO_ERR_NOT_AT_TABLE, "Join the table to see its history.");
        else
            lobby_send_error(l, q->c, m->id, PROTO_ERR_NO_SUCH_TABLE, "No open table has that code.");
        return;
    }
    lobby_pending *w = lobby_pending_begin(l, q->c, m->id);
    if (w == NULL)
        return;
    snprintf(w->code, sizeof w->code, "%s", m->code);
    w->type = m->type;
    w->before = m->before;
    w->hand = m->hand;
    if (r != NULL && !not_member) {
        w->game = room_game(r);
        w->options = json_incref((json_t *)room_options(r));
        ask_history(w, room_table_id(r));
        return;
    }
    /* not at an open table of that code: a table of it the player played at, even closed */
    w->open_refusal = r != NULL;
    if (!store_player_tables(l->store, q->c->p->id, m->code, 1, on_played_table, w)) {
        if (lobby_pending_end(w))
            lobby_send_error(l, q->c, m->id, PROTO_ERR_UNAVAILABLE, "The server is stopping.");
        lobby_pending_free(w);
    }
}

static void send_rate_limited(lobby *l, client *c, const json_t *id, uint64_t wait_ms);

/* A try at a table code by someone the table does not know (no open table of that code, or a
 * private one not theirs) must first get past the address's throttle of code misses: false when
 * it must wait, told so. key gets the address, for the try's outcome. */
static bool code_try_allowed(request *q, bool known, char key[LOBBY_ADDRESS_KEY], uint64_t now)
{
    if (known)
        return true;
    uint64_t wait = 0;
    lobby_address_key(q->c, key);
    if (!throttle_blocked(q->l->code_misses, key, now, &wait))
        return true;
    send_rate_limited(q->l, q->c, q->m->id, wait);
    return false;
}

/*
 * replay: a finished hand is open to whoever has its table's code (PROTOCOL.md), an open table's
 * or a closed one's, so a shared link works for a friend who was not there. A private table's
 * code is its secret, so, as for join_table, a try by someone the table does not know first gets
 * past the address's throttle, and a code that names no table, open or kept, counts as a miss.
 * An open table's hand still being played is told apart from a number it never reached.
 */
static void shared_replay(request *q, room *r)
{
    lobby *l = q->l;
    proto_msg *m = q->m;
    player *p = q->c->p;
    bool known = r != NULL && (room_is_public(r) || room_knows(r, p));
    char key[LOBBY_ADDRESS_KEY] = "";
    uint64_t now = uv_now(l->loop);
    if (!code_try_allowed(q, known, key, now))
        return;
    if (!known)
        throttle_allow(l->code_misses, key, now, NULL); /* the try */
    if (l->store == NULL) {
        if (r == NULL && !known)
            throttle_fail(l->code_misses, key, now);
        lobby_send_error(l, q->c, m->id, r != NULL ? PROTO_ERR_NO_HISTORY : PROTO_ERR_NO_SUCH_TABLE,
                         r != NULL ? "This server keeps no records." : "No table has that code.");
        return;
    }
    if (r != NULL && room_get_state(r) == ROOM_PLAYING && (uint64_t)m->hand == room_hand_number(r)) {
        char why[128];
        snprintf(why, sizeof why, "Hand %" PRId64 " is still being played; its replay opens once it is over.", m->hand);
        count_error(l, proto_error_name(PROTO_ERR_NO_SUCH_HAND));
        json_t *error = proto_error(m->id, proto_error_name(PROTO_ERR_NO_SUCH_HAND), why);
        json_object_set_new(error, "playing", json_true()); /* the client says so in the player's language */
        lobby_send_json(q->c, error);
        return;
    }
    lobby_pending *w = lobby_pending_begin(l, q->c, m->id);
    if (w == NULL)
        return;
    snprintf(w->code, sizeof w->code, "%s", m->code);
    w->type = m->type;
    w->hand = m->hand;
    if (r != NULL) {
        w->game = room_game(r);
        w->options = json_incref((json_t *)room_options(r));
        ask_history(w, room_table_id(r));
        return;
    }
    /* no open table of that code: the kept table of it played at most recently, by anyone */
    w->count_miss = !known;
    snprintf(w->address, sizeof w->address, "%s", key);
    if (!store_player_tables(l->store, STORE_ANY_PLAYER, m->code, 1, on_played_table, w)) {
        if (lobby_pending_end(w))
            lobby_send_error(l, q->c, m->id, PROTO_ERR_UNAVAILABLE, "The server is stopping.");
        lobby_pending_free(w);
    }
}

/* --- the player's own tables --- */

/* The open tables the player is at (a seat, watching, hosting): [{code, game, …, seat, your_turn}]. */
static json_t *open_tables_json(const player *p)
{
    json_t *list = json_array();
    for (int i = 0; i < p->n_rooms; i++) {
        const room *r = p->rooms[i];
        json_t *t = room_summary(r);
        int seat = room_seat_of(r, p);
        json_object_set_new(t, "seat", seat >= 0 ? json_integer(seat) : json_null());
        json_object_set_new(t, "your_turn", json_boolean(room_seat_deciding(r, seat)));
        json_object_set_new(t, "hosting", json_boolean(room_is_host(r, p)));
        json_object_set_new(t, "hand", json_integer((json_int_t)room_hand_number(r)));
        json_array_append_new(list, t);
    }
    return list;
}

static json_t *played_json(const store_played_table *tables, size_t n)
{
    json_t *list = json_array();
    for (size_t i = 0; i < n; i++) {
        const store_played_table *t = &tables[i];
        json_array_append_new(list, json_pack("{s:s, s:s, s:O, s:b, s:I, s:I, s:I, s:I}", "code", t->code, "game", t->game,
                                              "options", t->options, "closed", strcmp(t->state, "closed") == 0,
                                              "hands_played", (json_int_t)t->hands_played, "hands", (json_int_t)t->hands,
                                              "net", (json_int_t)t->units, "last_played_at", (json_int_t)t->last_at_ms));
    }
    return list;
}

static void send_my_tables(client *c, const json_t *id, json_t *past)
{
    json_t *reply = json_pack("{s:s, s:o, s:o}", "type", "my_tables", "tables", open_tables_json(c->p), "past", past);
    if (id != NULL)
        json_object_set(reply, "id", (json_t *)id);
    lobby_send_json(c, reply);
}

static void on_my_past(void *ctx, const store_error *error, const store_played_table *tables, size_t n)
{
    lobby_pending *w = ctx;
    if (lobby_pending_end(w) && w->c->p != NULL) {
        if (error->status == STORE_OK)
            send_my_tables(w->c, w->id, played_json(tables, n));
        else
            lobby_send_store_error(w->l, w->c, w->id, error, "Your tables cannot be read right now.");
    }
    lobby_pending_free(w);
}

/* my_tables: where the player is now, and (from the store) the tables they played at. */
static void my_tables(request *q)
{
    lobby *l = q->l;
    if (l->store == NULL) {
        send_my_tables(q->c, q->m->id, json_array());
        return;
    }
    lobby_pending *w = lobby_pending_begin(l, q->c, q->m->id);
    if (w == NULL)
        return;
    if (!store_player_tables(l->store, q->c->p->id, "", LIMIT_PAST_TABLES, on_my_past, w)) {
        if (lobby_pending_end(w))
            lobby_send_error(l, q->c, q->m->id, PROTO_ERR_UNAVAILABLE, "The server is stopping.");
        lobby_pending_free(w);
    }
}

/* --- joining by code --- */

static void send_rate_limited(lobby *l, client *c, const json_t *id, uint64_t wait_ms)
{
    char why[160];
    snprintf(why, sizeof why, "Too many codes that name no table came from your address; try again in %" PRIu64 " s.",
             (wait_ms + 999) / 1000);
    count_error(l, proto_error_name(PROTO_ERR_RATE_LIMITED));
    json_t *error = proto_error(id, proto_error_name(PROTO_ERR_RATE_LIMITED), why);
    json_object_set_new(error, "retry_ms", json_integer((json_int_t)wait_ms));
    lobby_send_json(c, error);
}

/*
 * join_table. Joining a public table, or one the player is at already (a member, a seat), is
 * free. Any other try (the code names a private table, or nothing) must first get past the
 * address's throttle, whatever it will find, so a hit and a miss look alike to someone waiting
 * out the throttle; a miss then counts against the address.
 */
static void join_table(request *q, room *r)
{
    lobby *l = q->l;
    proto_msg *m = q->m;
    player *p = q->c->p;
    bool open = r != NULL && (room_is_public(r) || room_knows(r, p));
    char key[LOBBY_ADDRESS_KEY] = "";
    uint64_t now = uv_now(l->loop);
    if (!code_try_allowed(q, open, key, now))
        return;
    const lobby_listed *far = r == NULL ? lobby_listing_find(l->others, m->code) : NULL;
    const lobby_forward *gone = r == NULL && far == NULL ? forwarded(l, m->code) : NULL;
    if (far != NULL || gone != NULL) {
        /* Open on another node: the client is told where (PROTOCOL.md, "Several nodes"); a try
         * that found a table, as a join here would be. */
        throttle_allow(l->code_misses, key, now, NULL);
        json_t *moved = json_pack("{s:s, s:s, s:s, s:s}", "type", "moved", "table", m->code, "node",
                                  far ? lobby_listing_node(l->others, far) : gone->node, "ws",
                                  far ? lobby_listing_ws(l->others, far) : gone->ws);
        if (m->id != NULL)
            json_object_set(moved, "id", m->id);
        lobby_send_json(q->c, moved);
        return;
    }
    if (r == NULL) {
        throttle_allow(l->code_misses, key, now, NULL); /* the try */
        throttle_fail(l->code_misses, key, now);        /* and the miss, which may lengthen the wait */
        lobby_send_error(l, q->c, m->id, PROTO_ERR_NO_SUCH_TABLE, "No open table has that code.");
        return;
    }
    char msg[GAME_MESSAGE_SIZE] = "";
    const char *error = room_join(r, p, m->seat, m->id, msg, sizeof msg);
    if (error != NULL)
        lobby_send_error_named(l, q->c, m->id, error, msg);
    else if (!open)
        throttle_succeed(l->code_misses, key, now); /* one who found their friends' table is forgiven */
}

/* The commands addressed to one table: find it, run the room's command, answer ok or the error.
 * A private table the player is not at answers as no table would. */
static void table_command(request *q)
{
    lobby *l = q->l;
    proto_msg *m = q->m;
    player *p = q->c->p;
    room *r = find_room(l, m->code);
    if (m->type == PROTO_JOIN_TABLE) {
        join_table(q, r);
        return;
    }
    if (m->type == PROTO_REPLAY) {
        shared_replay(q, r);
        return;
    }
    if (m->type == PROTO_HISTORY) {
        bool visible = r != NULL && (room_is_public(r) || room_knows(r, p));
        table_history(q, visible ? r : NULL, visible && !room_has_member(r, p));
        return;
    }
    if (r == NULL || (!room_is_public(r) && !room_knows(r, p))) {
        lobby_send_error(l, q->c, m->id, PROTO_ERR_NO_SUCH_TABLE, "No open table has that code.");
        return;
    }
    char msg[GAME_MESSAGE_SIZE] = "";
    const char *error = NULL;
    switch (m->type) {
    case PROTO_LEAVE_TABLE: error = room_leave(r, p, msg, sizeof msg); break;
    case PROTO_TAKE_SEAT: error = room_take_seat(r, p, m->seat, msg, sizeof msg); break;
    case PROTO_LEAVE_SEAT: error = room_leave_seat(r, p, msg, sizeof msg); break;
    case PROTO_ADD_BOT: error = room_add_bot(r, p, m->seat, msg, sizeof msg); break;
    case PROTO_REMOVE_BOT: error = room_remove_bot(r, p, m->seat, msg, sizeof msg); break;
    case PROTO_START: error = room_start(r, p, msg, sizeof msg); break;
    case PROTO_READY: error = room_ready(r, p, msg, sizeof msg); break;
    case PROTO_ACT:
        error = room_act(r, p, m->action, m->id, msg, sizeof msg);
        if (error == NULL) {
            l->actions_total++;
            return; /* the room answers once the action is stored */
        }
        break;
    case PROTO_CHAT: error = room_chat(r, p, m->text, msg, sizeof msg); break;
    case PROTO_LOCK_TABLE: error = room_lock(r, p, m->locked, msg, sizeof msg); break;
    case PROTO_REMOVE_MEMBER: error = room_remove_member(r, p, m->player, msg, sizeof msg); break;
    case PROTO_PRESENCE: error = room_presence(r, p, m->here, msg, sizeof msg); break;
    case PROTO_SET_HOST: error = room_set_host(r, p, m->player, msg, sizeof msg); break;
    case PROTO_SET_OPTIONS: error = room_set_options(r, p, m->options, msg, sizeof msg); break;
    case PROTO_HOLD_TABLE: error = room_hold(r, p, m->held, msg, sizeof msg); break;
    case PROTO_END_TABLE: error = room_end(r, p, msg, sizeof msg); break; /* r is gone if it ended */
    case PROTO_SPECTATOR_CHAT: error = room_spectator_chat(r, p, m->on, msg, sizeof msg); break;
    default:
        error = proto_error_name(PROTO_ERR_BAD_REQUEST);
        snprintf(msg, sizeof msg, "Not a table command.");
        break;
    }
    if (error != NULL)
        lobby_send_error_named(l, q->c, m->id, error, msg);
    else
        lobby_send_ok(q->c, m->id);
}

/* What makes a guest worth storing: a table it joins or makes (a room saves its id), an account. */
static bool keeps_the_guest(const request *q)
{
    switch (q->m->type) {
    case PROTO_CREATE_TABLE: return game_find(q->m->game) != NULL;
    /* a table here, or on another node (stored first, the guest's token then works there too) */
    case PROTO_JOIN_TABLE:
        return find_room(q->l, q->m->code) != NULL || lobby_listing_find(q->l->others, q->m->code) != NULL ||
               forwarded(q->l, q->m->code) != NULL;
    case PROTO_REGISTER: return true;
    default: return false;
    }
}

static void dispatch(request *q)
{
    if (keeps_the_guest(q) && !lobby_guest_kept(q))
        return; /* handled again once the store has the guest */
    switch (q->m->type) {
    case PROTO_HELLO: lobby_hello(q); return;
    case PROTO_PING: {
        json_t *pong = json_pack("{s:s}", "type", "pong");
        if (q->m->id != NULL)
            json_object_set(pong, "id", q->m->id);
        lobby_send_json(q->c, pong);
        return;
    }
    case PROTO_LIST_TABLES: list_tables(q); return;
    case PROTO_CREATE_TABLE: create_table(q); return;
    case PROTO_REGISTER: lobby_register(q); return;
    case PROTO_LOGIN: lobby_login(q); return;
    case PROTO_LOGOUT: lobby_logout(q); return;
    case PROTO_MY_TABLES: my_tables(q); return;
    case PROTO_PROFILE: profile_request(q); return;
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
        lobby_send_error(l, c, NULL, PROTO_ERR_SHUTTING_DOWN, "The server is stopping.");
        net_close(conn, "shutting down");
    }
}

static void handle(lobby *l, client *c, const char *text, size_t len);

/* A client may send more right after its hello; what comes before the store has answered the
 * hello (or stored its guest) waits (a few messages) and is handled, in order, after it. */
bool lobby_queue_message(lobby *l, client *c, const char *text, size_t len)
{
    if (c->n_queued >= LOBBY_QUEUE_MAX) {
        lobby_send_error(l, c, NULL, PROTO_ERR_NOT_HELLO, "Wait for the welcome before sending more.");
        return false;
    }
    char *copy = malloc(len + 1);
    if (copy == NULL)
        return false;
    memcpy(copy, text, len);
    copy[len] = '\0';
    c->queued[c->n_queued] = copy;
    c->queued_len[c->n_queued] = len;
    c->n_queued++;
    return true;
}

void lobby_unqueue_first(client *c)
{
    if (c->n_queued == 0)
        return;
    free(c->queued[0]);
    c->n_queued--;
    memmove(c->queued, c->queued + 1, sizeof(char *) * (size_t)c->n_queued);
    memmove(c->queued_len, c->queued_len + 1, sizeof(size_t) * (size_t)c->n_queued);
}

void lobby_hello_done(lobby *l, client *c)
{
    c->hello_pending = false;
    int n = c->n_queued;
    char *texts[LOBBY_QUEUE_MAX];
    size_t lens[LOBBY_QUEUE_MAX];
    memcpy(texts, c->queued, sizeof(char *) * (size_t)n);
    memcpy(lens, c->queued_len, sizeof(size_t) * (size_t)n);
    c->n_queued = 0;
    for (int i = 0; i < n; i++) {
        /* a queued hello or login may wait for the store again: the rest waits behind it */
        if (c->hello_pending && c->conn != NULL)
            lobby_queue_message(l, c, texts[i], lens[i]);
        else if (c->conn != NULL)
            handle(l, c, texts[i], lens[i]);
        free(texts[i]);
    }
}

static void on_message(void *ctx, net_conn *conn, const char *text, size_t len)
{
    lobby *l = ctx;
    client *c = net_conn_data(conn);
    if (c == NULL)
        return;
    l->messages_total++;
    switch (rate_check(&c->bucket, l->config.rate_per_second, l->config.rate_burst, uv_now(l->loop))) {
    case RATE_CLOSE:
        net_close(conn, "rate limit");
        return;
    case RATE_REFUSE:
        lobby_send_error(l, c, NULL, PROTO_ERR_RATE_LIMITED, "Too many messages; slow down.");
        return;
    case RATE_PASS:
        break;
    }
    if (c->hello_pending)
        lobby_queue_message(l, c, text, len);
    else
        handle(l, c, text, len);
}

/* Decodes one message and runs it. */
static void handle(lobby *l, client *c, const char *text, size_t len)
{
    proto_msg m;
    char msg[PROTO_MESSAGE_SIZE];
    proto_status status = proto_decode(text, len, &m, msg, sizeof msg);
    if (status != PROTO_OK)
        lobby_send_error(l, c, m.id, proto_status_error(status), msg);
    else if (c->p == NULL && m.type != PROTO_HELLO)
        lobby_send_error(l, c, m.id, PROTO_ERR_NOT_HELLO, "Say hello first: {\"type\":\"hello\",\"v\":1,\"name\":…}.");
    else
        dispatch(&(request){.l = l, .c = c, .m = &m, .text = text, .len = len});
    proto_msg_free(&m);
}

static void on_close(void *ctx, net_conn *conn)
{
    lobby *l = ctx;
    client *c = net_conn_data(conn);
    if (c == NULL)
        return;
    net_conn_set_data(conn, NULL);
    c->conn = NULL;
    drop_queue(c);
    player *p = c->p;
    c->p = NULL;
    lobby_client_release(l, c);
    if (p == NULL)
        return;
    p->client = NULL;
    p->gone_at_ms = uv_now(l->loop);
    room *rooms[PLAYER_MAX_ROOMS];
    int n = p->n_rooms;
    memcpy(rooms, p->rooms, sizeof(room *) * (size_t)n); /* a room may drop the membership meanwhile */
    for (int i = 0; i < n; i++)
        room_player_disconnected(rooms[i], p);
}

static void write_metrics(void *ctx, char *buf, size_t cap, size_t *len)
{
    lobby *l = ctx;
    size_t states[4] = {0}, paused = 0;
    uint64_t hands = l->hands_of_closed_tables, failed_writes = l->failed_writes_of_closed_tables;
    for (room_node *n = l->rooms; n != NULL; n = n->next) {
        states[room_get_state(n->r)]++;
        hands += room_hands_played(n->r);
        paused += room_is_paused(n->r);
        failed_writes += room_failed_writes(n->r);
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
    APPEND("# TYPE teahouse_tables_paused gauge\nteahouse_tables_paused %zu\n", paused);
    APPEND("# TYPE teahouse_table_writes_failed_total counter\nteahouse_table_writes_failed_total %llu\n",
           (unsigned long long)failed_writes);
    APPEND("# TYPE teahouse_players gauge\nteahouse_players %zu\n", l->n_players);
    APPEND("# TYPE teahouse_hands_played_total counter\nteahouse_hands_played_total %llu\n", (unsigned long long)hands);
    APPEND("# TYPE teahouse_actions_total counter\nteahouse_actions_total %llu\n", (unsigned long long)l->actions_total);
    APPEND("# TYPE teahouse_client_messages_total counter\nteahouse_client_messages_total %llu\n",
           (unsigned long long)l->messages_total);
    APPEND("# TYPE teahouse_errors_total counter\n");
    for (int i = 0; i < LOBBY_MAX_ERROR_CODES && l->errors[i].code != NULL; i++)
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
        int n = p->n_rooms;
        memcpy(rooms, p->rooms, sizeof(room *) * (size_t)n);
        for (int i = 0; i < n; i++)
            room_player_gone(rooms[i], p);
        if (p->n_rooms == 0)
            lobby_free_player(l, p);
    }
    if (++l->sweeps % THROTTLE_SWEEP_EVERY == 0)
        throttle_sweep(l->code_misses, now);
}

/* --- life cycle --- */

lobby *lobby_create(uv_loop_t *loop, const lobby_config *config, store *st)
{
    if (sodium_init() < 0)
        return NULL;
    lobby *l = calloc(1, sizeof *l);
    if (l == NULL)
        return NULL;
    l->loop = loop;
    l->config = *config;
    l->store = st;
    throttle_config misses = lobby_code_miss_config();
    l->code_misses = throttle_create(&misses);
    if (l->code_misses == NULL || !lobby_players_init(l) ||
        (config->new_guests_per_minute > 0 && (l->new_guests = lobby_new_guest_limit(config)) == NULL)) {
        throttle_destroy(l->code_misses);
        lobby_players_free(l);
        free(l);
        return NULL;
    }
    l->env = (room_env){.ctx = l,
                        .loop = loop,
                        .send = room_send,
                        .closed = room_closed,
                        .member_left = member_left,
                        .bot_delay_ms = config->bot_delay_ms,
                        .next_hand_ms = config->next_hand_ms,
                        .empty_close_ms = config->empty_close_ms,
                        .retry_ms = config->retry_ms,
                        .store = st};
    uv_timer_init(loop, &l->sweep);
    l->sweep.data = l;
    uv_timer_start(&l->sweep, on_sweep, SWEEP_MS, SWEEP_MS);
    return l;
}

size_t lobby_restore(lobby *l, const store_recovery *rec)
{
    size_t reopened = 0;
    for (size_t i = 0; i < rec->n_tables; i++) {
        const store_open_table *t = &rec->tables[i];
        if (find_room(l, t->table.code) != NULL)
            continue; /* open here already: a takeover (server/cluster/) reads all this node's tables */
        const game_ops *game = game_find(t->table.game);
        if (game == NULL) {
            log_error("table %s: unknown game \"%s\"; left as it is", t->table.code, t->table.game);
            continue;
        }
        player *seated[GAME_SEATS] = {0};
        for (int s = 0; s < GAME_SEATS; s++) {
            const store_seat *seat = &t->table.seats[s];
            if (seat->player_id != 0 && !seat->bot)
                seated[s] = lobby_player_of_id(l, seat->player_id, seat->nickname);
        }
        uint64_t seed;
        randombytes_buf(&seed, sizeof seed);
        char msg[GAME_MESSAGE_SIZE];
        room *r = room_restore(&l->env, game, t, seated, seed, msg, sizeof msg);
        if (r == NULL) {
            log_error("table %s cannot be reopened: %s; left as it is", t->table.code, msg);
            continue;
        }
        if (!add_room(l, r)) {
            room_destroy(r);
            continue;
        }
        reopened++;
    }
    return reopened;
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
        if (l->store != NULL)
            room_park(l->rooms->r, "The server is restarting; this table will be back in a moment.");
        else
            room_close(l->rooms->r, "The server is stopping.");
        remove_room(l, l->rooms->r);
    }
    for (player *p = l->players; p != NULL; p = p->next)
        if (p->client != NULL)
            lobby_send_error(l, p->client, NULL, PROTO_ERR_SHUTTING_DOWN,
                             "The server is stopping; come back in a moment.");
}

void lobby_maybe_free(lobby *l)
{
    if (!l->sweep_closed || l->pending > 0)
        return;
    while (l->players != NULL)
        lobby_free_player(l, l->players);
    throttle_destroy(l->code_misses);
    throttle_destroy(l->new_guests);
    lobby_players_free(l);
    free(l);
}

static void on_sweep_closed(uv_handle_t *handle)
{
    lobby *l = handle->data;
    l->sweep_closed = true;
    lobby_maybe_free(l);
}

void lobby_destroy(lobby *l)
{
    while (l->rooms != NULL)
        remove_room(l, l->rooms->r);
    lobby_set_others(l, NULL);
    uv_close((uv_handle_t *)&l->sweep, on_sweep_closed);
}

json_t *lobby_admin_live(const lobby *l, int *paused)
{
    json_t *tables = json_array();
    *paused = 0;
    for (const room_node *n = l->rooms; n != NULL; n = n->next) {
        if (room_get_state(n->r) == ROOM_CLOSED)
            continue;
        *paused += room_is_paused(n->r);
        json_array_append_new(tables, room_admin_live(n->r));
    }
    return tables;
}
