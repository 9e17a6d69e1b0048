/*
 * lobby_internal — what lobby.c (connections, tables, dispatch, recovery) and lobby_players.c
 * (players, identity: hello, accounts, sessions) share. Not for other modules.
 *
 * Requests to the store outlive nothing: each holds its client and the lobby counted
 * (client.pending, lobby.pending), and a client or the lobby is freed only when it is closed
 * and nothing it asked for is still unanswered.
 */
#ifndef LOBBY_INTERNAL_H
#define LOBBY_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "lobby.h"
#include "player.h"
#include "proto.h"
#include "ratelimit.h"
#include "room.h"
#include "store.h"
#include "throttle.h"

#define LOBBY_BUCKETS 4096
#define LOBBY_MAX_ERROR_CODES 64
#define LOBBY_QUEUE_MAX 16
/* Password hashing (argon2id, 64 MiB each) runs on libuv's pool: at most this many at once in the
 * whole server, one per connection and two per address, so a flood of logins cannot take the
 * memory, nor one address every slot. */
#define LOBBY_PASSWORD_JOBS_MAX 8
#define LOBBY_PASSWORD_JOBS_PER_ADDRESS 2
/* Failed logins (lobby_players.c): one account may fail 5 times, then gets a try back every
 * 15 s; one address 20 times, then a try every 2.5 s; past that each failure doubles the wait,
 * from 1 s up to 15 minutes, never more (no stranger can lock an account for good). A success
 * forgives the account's wait. (A try takes a token, a failure another: the refill seconds below
 * are per failure.) */
#define LOBBY_LOGIN_FAILS_PER_ACCOUNT 5
#define LOBBY_LOGIN_ACCOUNT_REFILL_SECONDS 30
#define LOBBY_LOGIN_FAILS_PER_ADDRESS 20
#define LOBBY_LOGIN_ADDRESS_REFILL_SECONDS 5
#define LOBBY_LOGIN_MAX_WAIT_SECONDS (15 * 60)
/* The key an address is counted by: an IPv4 address, or an IPv6 one's /56 with its suffix. */
#define LOBBY_ADDRESS_KEY 56

typedef struct client {
    net_conn *conn;        /* NULL once closed */
    player *p;             /* NULL until welcomed */
    rate_bucket bucket;    /* with its strikes (ratelimit.h) */
    int pending;           /* store requests made for it, not yet answered */
    bool password_job;     /* its register or login is being hashed, in password_slot */
    int password_slot;
    bool hello_pending;    /* its hello, or the storing of its guest, waits for the store */
    char *queued[LOBBY_QUEUE_MAX]; /* messages that came meanwhile, handled after the welcome */
    size_t queued_len[LOBBY_QUEUE_MAX];
    int n_queued;
    char token[PROTO_TOKEN_LEN + 1]; /* the session this connection is in ("" without a store) */
} client;

/* A table let go to another node: join_table answers moved there until `until_ms`. */
#define LOBBY_FORWARDS 64
#define LOBBY_FORWARD_MS 60000
typedef struct lobby_forward {
    char code[24];
    char node[40];
    char ws[256];
    uint64_t until_ms;
} lobby_forward;

typedef struct room_node {
    room *r;
    uint64_t serial;                  /* the order tables came in (list_tables' cursor): a wall-clock
                                         microsecond, made to grow, never reused */
    struct room_node *next;
    struct room_node *next_in_bucket; /* rooms_by_code: every table command looks its room up */
} room_node;

struct lobby {
    uv_loop_t *loop;
    lobby_config config;
    store *store;                         /* NULL: nothing is kept, no accounts */
    room_env env;
    player *players;                      /* every player, linked */
    player *by_token[LOBBY_BUCKETS];
    player *by_id[LOBBY_BUCKETS];
    int64_t next_player_id;               /* without a store */
    throttle *new_guests;                 /* by client address (lobby_players.c); NULL: no limit */
    room_node *rooms;                     /* newest first */
    struct lobby_listing *others;         /* the other nodes' open tables (several nodes), or NULL */
    lobby_forward forwards[LOBBY_FORWARDS]; /* tables let go to another node lately (lobby_let_go) */
    size_t next_forward;
    uint64_t next_serial;
    room_node *rooms_by_code[LOBBY_BUCKETS];
    int n_rooms;
    uv_timer_t sweep;
    bool sweep_closed;
    unsigned sweeps;                      /* sweeps so far (the throttles are swept less often) */
    throttle *code_misses;                /* join_table's failures by address */
    int pending;                          /* store requests not yet answered */
    int password_jobs;                    /* registers and logins being hashed */
    char password_slots[LOBBY_PASSWORD_JOBS_MAX][LOBBY_ADDRESS_KEY]; /* each one's address, "" when free */
    throttle *login_fails_by_account;     /* failed logins, by account name (ASCII lower case) */
    throttle *login_fails_by_address;     /* and by address */
    uint64_t login_swept_ms;              /* when the two forgot their idle keys last */
    size_t n_players;
    uint64_t messages_total;
    uint64_t actions_total;
    uint64_t hands_of_closed_tables; /* so the hands counter never goes down */
    uint64_t failed_writes_of_closed_tables;
    struct {
        const char *code;
        uint64_t count;
    } errors[LOBBY_MAX_ERROR_CODES];
    bool shutting_down;
};

/* One client message being handled. */
typedef struct request {
    lobby *l;
    client *c;
    proto_msg *m;
    const char *text;  /* the message as it came, to hold it while the store works (lobby_guest_kept) */
    size_t len;
} request;

/* A store request made for a client: what its callback needs after the message is gone. */
typedef struct lobby_pending {
    lobby *l;
    client *c;
    json_t *id;                 /* the message's id, to echo */
    char name[PROTO_NAME_BYTES + 1];
    char token[PROTO_TOKEN_LEN + 1];
    char code[PROTO_CODE_LEN + 1];
    char address[LOBBY_ADDRESS_KEY];  /* login: the address its failure is counted against */
    const game_ops *game;
    json_t *options;
    int64_t player_id;          /* a guest being stored; profile: whose */
    /* history or replay of a table found through the player's past tables */
    proto_type type;
    int64_t before;
    int64_t hand;
    bool open_refusal;          /* the code names an open table the player is not at: refused as not_at_table */
    bool count_miss;            /* replay by code: a code that names no table counts against `address` */
} lobby_pending;

/* lobby.c */
void lobby_send_json(client *c, json_t *message);
void lobby_send_error(lobby *l, client *c, const json_t *id, proto_error_code code, const char *message);
/* An error whose code is a string: a room's (until rooms return proto_error_code) or a game's own. */
void lobby_send_error_named(lobby *l, client *c, const json_t *id, const char *code, const char *message);
void lobby_send_ok(client *c, const json_t *id);
/* rate_limited, with "retry_ms": how long until the client may try again. */
void lobby_send_rate_limited(lobby *l, client *c, const json_t *id, const char *message, uint64_t retry_ms);
/* A new pending record for the client's request (both counted), or NULL with "internal" sent to
 * the client when memory runs out. */
lobby_pending *lobby_pending_begin(lobby *l, client *c, const json_t *id);
/* Ends a pending request; false if its client has closed meanwhile (then send nothing). */
bool lobby_pending_end(lobby_pending *w);
void lobby_client_release(lobby *l, client *c);
/* Releases the request (its client, id and options) once answered. */
void lobby_pending_free(lobby_pending *w);
void lobby_maybe_free(lobby *l);
/* The hello waiting for the store is answered: handle the messages that came meanwhile. */
void lobby_hello_done(lobby *l, client *c);
/* Holds a message until lobby_hello_done (false, with an error sent, when too many wait). */
bool lobby_queue_message(lobby *l, client *c, const char *text, size_t len);
/* Drops the oldest message held (it was answered otherwise). */
void lobby_unqueue_first(client *c);

/* lobby_players.c */
/* A store request failed: bad_request with the store's reason when it refused the input itself
 * (STORE_INVALID), else unavailable with unavailable_message (and the store's reason logged). */
void lobby_send_store_error(lobby *l, client *c, const json_t *id, const store_error *error,
                            const char *unavailable_message);
/* The throttles of failed logins; false when memory runs out. Freed by lobby_players_free. */
bool lobby_players_init(lobby *l);
void lobby_players_free(lobby *l);
unsigned lobby_bucket(const char *text);
player *lobby_find_player_by_id(lobby *l, int64_t id);
/* The player of that id, made (not connected) if it is not in memory; NULL when out of memory. */
player *lobby_player_of_id(lobby *l, int64_t id, const char *name);
void lobby_free_player(lobby *l, player *p);
/* The key a client's address is counted by in the lobby's limits (lobby_players.c). */
void lobby_address_key(const client *c, char out[LOBBY_ADDRESS_KEY]);
/* The new-guest limit of config (NULL when there is none). */
throttle *lobby_new_guest_limit(const lobby_config *config);
/* True when the client's player is stored (or nothing is kept); otherwise stores its guest and
 * holds this message, and those that follow, until that is answered, and answers false. */
bool lobby_guest_kept(request *q);
void lobby_hello(request *q);
void lobby_register(request *q);
void lobby_login(request *q);
void lobby_logout(request *q);

#endif
