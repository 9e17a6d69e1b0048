/*
 * lobby_players — who is connected: the players in memory (found by token and by id), and the
 * messages that say who a connection is: hello (a new guest, or a session resumed by its token),
 * register (the guest becomes an account), login and logout.
 *
 * Logins are where strangers guess passwords: failed ones are throttled by account and by address
 * with growing waits (lobby_internal.h), and the password hashing slots are shared fairly, two
 * at most to an address.
 *
 * With a store, a player's id is the store's and a token is a store session, so a guest who comes
 * back after a restart is the same player, still in their seats. Without one, players live in
 * memory only, with random tokens, and accounts are refused.
 *
 * A hello without a token writes nothing: the new guest gets an id and a token the store
 * reserves (store_guest_reserve) and lives in memory, and is stored, with its session, only when
 * it first does something a room or an account must remember (lobby_guest_kept: joining or making
 * a table, registering). Its token resumes it in memory from the start, and after a restart once
 * it is stored. New guests are limited per client address (an IPv6 one by its /64), so that one
 * address cannot fill the memory with guests either.
 */
#include <arpa/inet.h>
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "game.h"
#include "lobby_internal.h"
#include "log.h"

unsigned lobby_bucket(const char *text)
{
    unsigned h = 2166136261u; /* FNV-1a: tokens and codes are random, any spread will do */
    for (const char *s = text; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h % LOBBY_BUCKETS;
}

static unsigned id_bucket(int64_t id) { return (unsigned)((uint64_t)id % LOBBY_BUCKETS); }

static player *find_player_by_token(lobby *l, const char *token)
{
    for (player *p = l->by_token[lobby_bucket(token)]; p != NULL; p = p->next_in_bucket)
        if (strcmp(p->token, token) == 0)
            return p;
    return NULL;
}

player *lobby_find_player_by_id(lobby *l, int64_t id)
{
    for (player *p = l->by_id[id_bucket(id)]; p != NULL; p = p->next_by_id)
        if (p->id == id)
            return p;
    return NULL;
}

static void unindex_token(lobby *l, player *p)
{
    if (!p->token[0])
        return;
    player **link = &l->by_token[lobby_bucket(p->token)];
    while (*link != NULL && *link != p)
        link = &(*link)->next_in_bucket;
    if (*link == p)
        *link = p->next_in_bucket;
    p->next_in_bucket = NULL;
}

/* The token the player was last given; only that one is found in memory (others via the store). */
static void set_token(lobby *l, player *p, const char *token)
{
    unindex_token(l, p);
    snprintf(p->token, sizeof p->token, "%s", token);
    if (!p->token[0])
        return;
    unsigned b = lobby_bucket(p->token);
    p->next_in_bucket = l->by_token[b];
    l->by_token[b] = p;
}

/* Names come from proto_decode or the store, both bounded to the size of player.name. */
_Static_assert(sizeof ((player *)0)->name == PROTO_NAME_BYTES + 1, "a player's name holds the longest name");
static void set_name(player *p, const char *name)
{
    size_t len = strnlen(name, sizeof p->name - 1);
    memcpy(p->name, name, len);
    p->name[len] = '\0';
}

static player *new_player(lobby *l, int64_t id, const char *name, bool stored)
{
    player *p = calloc(1, sizeof *p);
    if (p == NULL)
        return NULL;
    p->id = id;
    p->stored = stored;
    set_name(p, name);
    p->gone_at_ms = uv_now(l->loop);
    unsigned b = id_bucket(id);
    p->next_by_id = l->by_id[b];
    l->by_id[b] = p;
    p->next = l->players;
    if (l->players != NULL)
        l->players->prev = p;
    l->players = p;
    l->n_players++;
    return p;
}

player *lobby_player_of_id(lobby *l, int64_t id, const char *name)
{
    player *p = lobby_find_player_by_id(l, id);
    if (p != NULL)
        p->stored = true; /* the store named it */
    return p != NULL ? p : new_player(l, id, name, true);
}

void lobby_free_player(lobby *l, player *p)
{
    unindex_token(l, p);
    player **link = &l->by_id[id_bucket(p->id)];
    while (*link != p)
        link = &(*link)->next_by_id;
    *link = p->next_by_id;
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

/* --- welcome --- */

static void on_rename_saved(void *ctx, const store_error *error, int64_t id)
{
    lobby *l = ctx;
    l->pending--;
    if (error->status != STORE_OK)
        log_warn("renaming player %" PRId64 ": %s", id, error->message);
    lobby_maybe_free(l);
}

/* The connection is now the player's (replacing an older connection of the same player). */
static void attach(lobby *l, client *c, player *p)
{
    if (p->client != NULL && p->client != c) {
        client *old = p->client;
        lobby_send_error(l, old, NULL, PROTO_ERR_REPLACED, "You connected again elsewhere; this connection is closed.");
        old->p = NULL;
        if (old->conn != NULL)
            net_close(old->conn, "replaced");
    }
    if (c->p != NULL && c->p != p) { /* leaving an identity behind (login): it is gone from now */
        c->p->client = NULL;
        c->p->gone_at_ms = uv_now(l->loop);
    }
    p->client = c;
    c->p = p;
    net_conn_identified(c->conn);
    snprintf(c->token, sizeof c->token, "%s", p->token);
}

/* The names of the games the house seats players at, in the registry's order (the lobby offers them). */
static json_t *games_json(void)
{
    json_t *names = json_array();
    for (size_t i = 0; i < game_count(); i++)
        json_array_append_new(names, json_string(game_at(i)->name));
    return names;
}

static void send_welcome(client *c, const player *p, const json_t *id, bool resumed)
{
    char ref[24];
    snprintf(ref, sizeof ref, "p%" PRId64, p->id);
    json_t *welcome = json_pack("{s:s, s:i, s:{s:s, s:s, s:o}, s:s, s:b}", "type", "welcome", "v", PROTO_VERSION,
                                "player", "id", ref, "name", p->name, "account",
                                p->account[0] ? json_string(p->account) : json_null(), "token", p->token, "resumed",
                                resumed);
    json_object_set_new(welcome, "limits", proto_limits_json());
    json_object_set_new(welcome, "games", games_json());
    if (id != NULL)
        json_object_set(welcome, "id", (json_t *)id);
    lobby_send_json(c, welcome);
}

/* Hello is done: the connection is the player's; its tables send what it missed. */
static void welcome(lobby *l, client *c, player *p, const char *name, const json_t *id, bool resumed)
{
    if (name[0] && strcmp(name, p->name) != 0) {
        set_name(p, name);
        if (l->store != NULL && p->stored && store_player_save(l->store, p->id, name, on_rename_saved, l))
            l->pending++;
    }
    attach(l, c, p);
    send_welcome(c, p, id, resumed);
    room *rooms[PLAYER_MAX_ROOMS];
    int n = p->n_rooms;
    memcpy(rooms, p->rooms, sizeof(room *) * (size_t)n); /* a room may drop the membership meanwhile */
    for (int i = 0; i < n; i++)
        room_player_connected(rooms[i], p, NULL);
}

/* The store refusing the request itself (a name too long for it, say) is the client's mistake,
 * told with the store's reason; anything else is the store's trouble. */
void lobby_send_store_error(lobby *l, client *c, const json_t *id, const store_error *error,
                            const char *unavailable_message)
{
    if (error->status == STORE_INVALID) {
        lobby_send_error(l, c, id, PROTO_ERR_BAD_REQUEST, error->message);
        return;
    }
    log_warn("store: %s (%s)", error->message, store_status_name(error->status));
    lobby_send_error(l, c, id, PROTO_ERR_UNAVAILABLE, unavailable_message);
}

static void unavailable(lobby *l, client *c, const json_t *id, const store_error *error)
{
    lobby_send_store_error(l, c, id, error, "The server cannot reach its records right now; try again shortly.");
}

/* --- new guests --- */

throttle *lobby_new_guest_limit(const lobby_config *config)
{
    const double per_minute = config->new_guests_per_minute;
    /* Forgotten once a minute has refilled the bucket; at most 65,536 addresses (~10 MiB). */
    throttle_config t = {.rate = per_minute / 60.0, .burst = per_minute, .idle_ms = 60000, .max_keys = 65536};
    return throttle_create(&t);
}

/* May the client's address start one more guest now? When not, says so to the client. */
static bool guest_allowed(lobby *l, client *c, const json_t *id)
{
    if (l->new_guests == NULL)
        return true;
    char key[LOBBY_ADDRESS_KEY];
    lobby_address_key(c, key);
    uint64_t wait_ms = 0;
    if (throttle_allow(l->new_guests, key, uv_now(l->loop), &wait_ms))
        return true;
    char why[128];
    snprintf(why, sizeof why, "Too many new guests from your address; try again in %llu s.",
             (unsigned long long)(wait_ms + 999) / 1000);
    lobby_send_error(l, c, id, PROTO_ERR_RATE_LIMITED, why);
    return false;
}

/* A new guest, in memory only, welcomed at once (a visitor who only looks costs no row). */
static void new_guest(lobby *l, client *c, const char *name, const json_t *id)
{
    if (!guest_allowed(l, c, id))
        return;
    int64_t player_id;
    char token[PROTO_TOKEN_LEN + 1];
    _Static_assert(STORE_TOKEN_SIZE <= PROTO_TOKEN_LEN + 1, "a store token is a resume token");
    if (l->store != NULL) {
        if (!store_guest_reserve(l->store, &player_id, token)) {
            lobby_send_error(l, c, id, PROTO_ERR_UNAVAILABLE, "The server is stopping.");
            return;
        }
    } else {
        unsigned char secret[PROTO_TOKEN_LEN / 2];
        randombytes_buf(secret, sizeof secret);
        sodium_bin2hex(token, sizeof token, secret, sizeof secret);
        player_id = ++l->next_player_id;
    }
    player *p = new_player(l, player_id, name, l->store == NULL);
    if (p == NULL) {
        lobby_send_error(l, c, id, PROTO_ERR_INTERNAL, "The server is out of memory.");
        return;
    }
    set_token(l, p, token);
    sodium_memzero(token, sizeof token);
    welcome(l, c, p, name, id, false);
}

static void on_guest_kept(void *ctx, const store_error *error, const store_session *session)
{
    (void)session;
    lobby_pending *w = ctx;
    lobby *l = w->l;
    client *c = w->c;
    /* a conflict: another connection of the same guest stored it first */
    const bool kept = error->status == STORE_OK || error->status == STORE_CONFLICT;
    player *p = lobby_find_player_by_id(l, w->player_id);
    if (kept && p != NULL)
        p->stored = true;
    if (lobby_pending_end(w)) {
        if (!kept) { /* the message held for it is answered with the store's trouble */
            lobby_send_store_error(l, c, w->id, error, "The server cannot keep your records right now; try again"
                                                       " shortly.");
            lobby_unqueue_first(c);
        }
        lobby_hello_done(l, c);
    }
    lobby_pending_free(w);
}

bool lobby_guest_kept(request *q)
{
    lobby *l = q->l;
    client *c = q->c;
    player *p = c->p;
    if (l->store == NULL || p->stored)
        return true;
    lobby_pending *w = lobby_pending_begin(l, c, q->m->id);
    if (w == NULL)
        return false;
    w->player_id = p->id;
    if (!lobby_queue_message(l, c, q->text, q->len)) {
        lobby_pending_end(w);
        lobby_pending_free(w);
        return false;
    }
    c->hello_pending = true;
    if (!store_guest_keep(l->store, p->id, p->name, p->token, on_guest_kept, w)) {
        lobby_unqueue_first(c);
        if (lobby_pending_end(w)) {
            lobby_send_error(l, c, w->id, PROTO_ERR_UNAVAILABLE, "The server is stopping.");
            lobby_hello_done(l, c);
        }
        lobby_pending_free(w);
    }
    return false;
}

/* --- hello --- */

static void on_session_found(void *ctx, const store_error *error, const store_session *session)
{
    lobby_pending *w = ctx;
    lobby *l = w->l;
    client *c = w->c;
    if (lobby_pending_end(w)) {
        player *p = error->status == STORE_OK
                        ? lobby_player_of_id(l, session->player_id, w->name[0] ? w->name : session->nickname)
                        : NULL;
        if (error->status == STORE_NOT_FOUND) {
            /* an expired or unknown token (or a guest never stored, from before a restart): a new
             * guest, as if none was given */
            new_guest(l, c, w->name, w->id);
        } else if (error->status != STORE_OK) {
            unavailable(l, c, w->id, error);
        } else if (p == NULL) {
            lobby_send_error(l, c, w->id, PROTO_ERR_INTERNAL, "The server is out of memory.");
        } else {
            snprintf(p->account, sizeof p->account, "%s", session->account_name);
            set_token(l, p, w->token);
            welcome(l, c, p, w->name, w->id, true);
        }
        lobby_hello_done(l, c);
    }
    lobby_pending_free(w);
}

static void end_failed_request(lobby_pending *w)
{
    lobby *l = w->l;
    client *c = w->c;
    if (lobby_pending_end(w)) {
        lobby_send_error(l, c, w->id, PROTO_ERR_UNAVAILABLE, "The server is stopping.");
        if (c->hello_pending)
            lobby_hello_done(l, c);
    }
    lobby_pending_free(w);
}

void lobby_hello(request *q)
{
    lobby *l = q->l;
    client *c = q->c;
    proto_msg *m = q->m;
    if (c->p != NULL || c->hello_pending) {
        lobby_send_error(l, c, m->id, PROTO_ERR_BAD_REQUEST, "This connection has already said hello.");
        return;
    }
    player *p = m->token[0] ? find_player_by_token(l, m->token) : NULL;
    if (p != NULL) {
        welcome(l, c, p, m->name, m->id, true);
        return;
    }
    if (l->store == NULL || !m->token[0]) {
        new_guest(l, c, m->name, m->id);
        return;
    }
    lobby_pending *w = lobby_pending_begin(l, c, m->id);
    if (w == NULL)
        return;
    snprintf(w->name, sizeof w->name, "%s", m->name);
    snprintf(w->token, sizeof w->token, "%s", m->token);
    c->hello_pending = true;
    if (!store_session_lookup(l->store, m->token, on_session_found, w))
        end_failed_request(w);
}

/* --- accounts --- */

static bool accounts_available(lobby *l, client *c, const json_t *id)
{
    if (l->store != NULL)
        return true;
    lobby_send_error(l, c, id, PROTO_ERR_NO_ACCOUNTS, "This server keeps no records, so it has no accounts.");
    return false;
}

/* --- failed logins and password slots --- */

static throttle_config login_config(int free_failures, int refill_seconds)
{
    /* a failure takes two tokens, the try and the failure, so the bucket holds twice the free
     * failures and gives one back every refill_seconds */
    return (throttle_config){.rate = 2.0 / refill_seconds,
                             .burst = 2.0 * free_failures,
                             .base_delay_ms = 1000,
                             .max_delay_ms = (uint64_t)LOBBY_LOGIN_MAX_WAIT_SECONDS * 1000,
                             /* longer than the longest wait and than a spent bucket takes to fill,
                              * so forgetting a key never gives it more than waiting would */
                             .idle_ms = 2 * (uint64_t)LOBBY_LOGIN_MAX_WAIT_SECONDS * 1000 + 3600 * 1000,
                             .max_keys = 65536};
}

bool lobby_players_init(lobby *l)
{
    const throttle_config by_account = login_config(LOBBY_LOGIN_FAILS_PER_ACCOUNT, LOBBY_LOGIN_ACCOUNT_REFILL_SECONDS);
    const throttle_config by_address = login_config(LOBBY_LOGIN_FAILS_PER_ADDRESS, LOBBY_LOGIN_ADDRESS_REFILL_SECONDS);
    l->login_fails_by_account = throttle_create(&by_account);
    l->login_fails_by_address = throttle_create(&by_address);
    return l->login_fails_by_account != NULL && l->login_fails_by_address != NULL;
}

void lobby_players_free(lobby *l)
{
    throttle_destroy(l->login_fails_by_account);
    throttle_destroy(l->login_fails_by_address);
    l->login_fails_by_account = l->login_fails_by_address = NULL;
}

/*
 * The key a connection is counted by where a stranger could repeat something from many
 * connections (new guests, failed logins, failed joins): the peer's address (net_conn_peer: the
 * client's own behind a trusted proxy), an IPv4 one written in IPv6 (::ffff:1.2.3.4) as IPv4, an
 * IPv6 one by its /56, the block one customer gets: else an attacker's 2^8 /64s, or 2^72
 * addresses, would each count apart.
 */
void lobby_address_key(const client *c, char out[LOBBY_ADDRESS_KEY])
{
    const char *peer = c->conn != NULL ? net_conn_peer(c->conn) : "";
    if (peer == NULL || !peer[0])
        peer = "unknown"; /* never "", a free password slot */
    unsigned char a[16];
    if (inet_pton(AF_INET6, peer, a) != 1) {
        snprintf(out, LOBBY_ADDRESS_KEY, "%s", peer);
        return;
    }
    static const unsigned char V4_MAPPED[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (memcmp(a, V4_MAPPED, sizeof V4_MAPPED) == 0) {
        inet_ntop(AF_INET, a + 12, out, LOBBY_ADDRESS_KEY);
        return;
    }
    memset(a + 7, 0, sizeof a - 7);
    char prefix[INET6_ADDRSTRLEN];
    inet_ntop(AF_INET6, a, prefix, sizeof prefix);
    snprintf(out, LOBBY_ADDRESS_KEY, "%s/56", prefix);
}

/* The key an account's failed logins are counted by: its name as the store tells names apart
 * (ASCII letters without case; the protocol has made it NFC). */
static void account_key(const char *name, char out[PROTO_NAME_BYTES + 1])
{
    size_t i = 0;
    for (; name[i] != '\0' && i < PROTO_NAME_BYTES; i++)
        out[i] = name[i] >= 'A' && name[i] <= 'Z' ? (char)(name[i] - 'A' + 'a') : name[i];
    out[i] = '\0';
}

static void send_login_throttled(lobby *l, client *c, const json_t *id, bool by_account, uint64_t wait_ms)
{
    char message[PROTO_MESSAGE_SIZE];
    uint64_t seconds = (wait_ms + 999) / 1000;
    char wait[32];
    if (seconds < 120)
        snprintf(wait, sizeof wait, "%" PRIu64 " s", seconds);
    else
        snprintf(wait, sizeof wait, "%" PRIu64 " min", (seconds + 59) / 60);
    snprintf(message, sizeof message, "Too many failed logins %s; try again in %s.",
             by_account ? "to this account" : "from your address", wait);
    lobby_send_rate_limited(l, c, id, message, wait_ms);
}

/* May this login be tried now? Otherwise answered rate_limited. Each try takes a token of its
 * address and of its account (a failure takes another, on_logged_in). */
static bool login_allowed(lobby *l, client *c, const json_t *id, const char *address, const char *account)
{
    const uint64_t now = uv_now(l->loop);
    if (now - l->login_swept_ms >= 60 * 1000) {
        throttle_sweep(l->login_fails_by_account, now);
        throttle_sweep(l->login_fails_by_address, now);
        l->login_swept_ms = now;
    }
    uint64_t wait = 0;
    if (!throttle_allow(l->login_fails_by_address, address, now, &wait)) {
        send_login_throttled(l, c, id, false, wait);
        return false;
    }
    if (!throttle_allow(l->login_fails_by_account, account, now, &wait)) {
        send_login_throttled(l, c, id, true, wait);
        return false;
    }
    return true;
}

/* A register or login costs a memory-hard hash: one per connection, two per address and a few
 * in all at a time, so that one address cannot keep everyone else's answer busy. */
static bool password_job_start(lobby *l, client *c, const json_t *id)
{
    if (c->password_job) {
        lobby_send_error(l, c, id, PROTO_ERR_BUSY,
                         "Your last log-in or registration is still being checked; wait for it.");
        return false;
    }
    char address[LOBBY_ADDRESS_KEY];
    lobby_address_key(c, address);
    int free_slot = -1, of_address = 0;
    for (int i = 0; i < LOBBY_PASSWORD_JOBS_MAX; i++) {
        if (!l->password_slots[i][0] && free_slot < 0)
            free_slot = i;
        of_address += l->password_slots[i][0] && strcmp(l->password_slots[i], address) == 0;
    }
    if (of_address >= LOBBY_PASSWORD_JOBS_PER_ADDRESS) {
        lobby_send_error(l, c, id, PROTO_ERR_BUSY,
                         "Other log-ins from your address are being checked; try again when they are done.");
        return false;
    }
    if (free_slot < 0) {
        lobby_send_error(l, c, id, PROTO_ERR_BUSY, "Many people are logging in right now; try again in a moment.");
        return false;
    }
    snprintf(l->password_slots[free_slot], LOBBY_ADDRESS_KEY, "%s", address);
    c->password_job = true;
    c->password_slot = free_slot;
    l->password_jobs++;
    return true;
}

static void password_job_end(lobby *l, client *c)
{
    assert(c->password_job && l->password_slots[c->password_slot][0]);
    l->password_slots[c->password_slot][0] = '\0';
    c->password_job = false;
    l->password_jobs--;
}

/* The pending record of an account request, its password check counted; NULL (answered) if the
 * request cannot start. */
static lobby_pending *password_request(lobby *l, client *c, const json_t *id)
{
    lobby_pending *w = lobby_pending_begin(l, c, id);
    if (w != NULL && !password_job_start(l, c, id)) {
        lobby_pending_end(w);
        lobby_pending_free(w);
        return NULL;
    }
    return w;
}

static void on_account_created(void *ctx, const store_error *error, int64_t id)
{
    lobby_pending *w = ctx;
    lobby *l = w->l;
    client *c = w->c;
    password_job_end(l, c);
    if (lobby_pending_end(w) && c->p != NULL) {
        if (error->status == STORE_OK && id == c->p->id) {
            snprintf(c->p->account, sizeof c->p->account, "%s", w->name);
            send_welcome(c, c->p, w->id, false);
        } else if (error->status == STORE_CONFLICT) {
            /* the store says which: the name itself, or one that looks like it (names.h) */
            lobby_send_error(l, c, w->id, PROTO_ERR_NAME_TAKEN, error->message);
        } else {
            unavailable(l, c, w->id, error);
        }
    }
    lobby_pending_free(w);
}

void lobby_register(request *q)
{
    lobby *l = q->l;
    client *c = q->c;
    proto_msg *m = q->m;
    if (!accounts_available(l, c, m->id))
        return;
    if (c->p->account[0]) {
        lobby_send_error(l, c, m->id, PROTO_ERR_ALREADY_ACCOUNT,
                         "You have an account already; log out to make another.");
        return;
    }
    lobby_pending *w = password_request(l, c, m->id);
    if (w == NULL)
        return;
    snprintf(w->name, sizeof w->name, "%s", m->name);
    if (!store_account_create(l->store, m->name, m->password, c->p->id, on_account_created, w)) {
        password_job_end(l, c);
        end_failed_request(w);
    }
}

static void on_unused_session_closed(void *ctx, const store_error *error)
{
    lobby *l = ctx;
    l->pending--;
    if (error->status != STORE_OK && error->status != STORE_NOT_FOUND)
        log_warn("closing a session nobody was given: %s", error->message);
    lobby_maybe_free(l);
}

static void on_logged_in(void *ctx, const store_error *error, const store_session *session)
{
    lobby_pending *w = ctx;
    lobby *l = w->l;
    client *c = w->c;
    password_job_end(l, c);
    /* counted even if the connection has gone: closing it does not take a guess back */
    const uint64_t now = uv_now(l->loop);
    char account[PROTO_NAME_BYTES + 1];
    account_key(w->name, account);
    if (error->status == STORE_BAD_LOGIN) {
        throttle_fail(l->login_fails_by_address, w->address, now);
        throttle_fail(l->login_fails_by_account, account, now);
    } else if (error->status == STORE_OK) {
        throttle_succeed(l->login_fails_by_account, account, now); /* its owner is in: the wait is forgiven */
    }
    bool live = lobby_pending_end(w) && c->p != NULL;
    if (live && error->status == STORE_OK && c->p->n_rooms > 0) {
        /* the guest joined a table while the password was checked: switching now would leave it
         * seated with no connection; the new session is closed unused */
        lobby_send_error(l, c, w->id, PROTO_ERR_AT_TABLE, "Leave your tables before logging in as someone else.");
        if (store_logout(l->store, session->token, on_unused_session_closed, l))
            l->pending++;
    } else if (live) {
        player *p = error->status == STORE_OK ? lobby_player_of_id(l, session->player_id, session->nickname) : NULL;
        if (error->status == STORE_BAD_LOGIN) {
            lobby_send_error(l, c, w->id, PROTO_ERR_BAD_LOGIN, "Wrong account name or password.");
        } else if (error->status != STORE_OK) {
            unavailable(l, c, w->id, error);
        } else if (p == NULL) {
            lobby_send_error(l, c, w->id, PROTO_ERR_INTERNAL, "The server is out of memory.");
        } else {
            snprintf(p->account, sizeof p->account, "%s", session->account_name);
            set_token(l, p, session->token);
            welcome(l, c, p, "", w->id, false);
        }
    }
    lobby_pending_free(w);
}

void lobby_login(request *q)
{
    lobby *l = q->l;
    client *c = q->c;
    proto_msg *m = q->m;
    if (!accounts_available(l, c, m->id))
        return;
    if (c->p->n_rooms > 0) {
        lobby_send_error(l, c, m->id, PROTO_ERR_AT_TABLE, "Leave your tables before logging in as someone else.");
        return;
    }
    char address[LOBBY_ADDRESS_KEY], account[PROTO_NAME_BYTES + 1];
    lobby_address_key(c, address);
    account_key(m->name, account);
    if (!login_allowed(l, c, m->id, address, account))
        return;
    lobby_pending *w = password_request(l, c, m->id);
    if (w == NULL)
        return;
    snprintf(w->name, sizeof w->name, "%s", m->name);
    snprintf(w->address, sizeof w->address, "%s", address);
    if (!store_login(l->store, m->name, m->password, on_logged_in, w)) {
        password_job_end(l, c);
        end_failed_request(w);
    }
}

static void on_logged_out(void *ctx, const store_error *error)
{
    lobby_pending *w = ctx;
    lobby *l = w->l;
    client *c = w->c;
    if (lobby_pending_end(w)) {
        if (error->status == STORE_OK || error->status == STORE_NOT_FOUND) {
            lobby_send_ok(c, w->id);
            if (c->conn != NULL)
                net_close(c->conn, "logged out");
        } else {
            unavailable(l, c, w->id, error);
        }
    }
    lobby_pending_free(w);
}

void lobby_logout(request *q)
{
    lobby *l = q->l;
    client *c = q->c;
    proto_msg *m = q->m;
    if (!accounts_available(l, c, m->id))
        return;
    lobby_pending *w = lobby_pending_begin(l, c, m->id);
    if (w == NULL)
        return;
    if (c->p->token[0] && strcmp(c->p->token, c->token) == 0)
        set_token(l, c->p, ""); /* the token is dead: it no longer finds the player in memory */
    if (!store_logout(l->store, c->token, on_logged_out, w))
        end_failed_request(w);
}
