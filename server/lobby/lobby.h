/*
 * lobby — the server's application: it turns WebSocket connections into players, decodes every
 * client message (protocol/proto), keeps the list of tables and hands each command to its room.
 *
 * It is the net_handlers of the network layer. Every message is rate limited per connection and
 * validated before it touches a table; a refused message gets an error reply with a stable code
 * and changes nothing. A private table is invisible to those it does not know: any command
 * naming it is answered as if no table had that code, and join_table's misses are throttled by
 * address, so its code cannot be found by trying. Players who drop keep their identity (and seats) for the reconnection grace
 * period and resume with the token they were given.
 */
#ifndef LOBBY_H
#define LOBBY_H

#include <uv.h>

#include "net.h"
#include "store.h"
#include "throttle.h"

typedef struct lobby lobby;

typedef struct lobby_config {
    int turn_seconds;       /* default turn timer of a new table */
    int reconnect_seconds;  /* how long a dropped player keeps seats and identity */
    int bot_delay_ms;       /* a bot's pause before acting */
    int next_hand_ms;       /* pause between hands unless every seated person is ready */
    int empty_close_ms;     /* a table with nobody connected closes after this */
    int retry_ms;           /* a table whose writes failed tries again after this */
    int max_tables;         /* open tables at most */
    double rate_per_second; /* messages a connection may send on average */
    double rate_burst;      /* and in a burst */
    int new_guests_per_minute; /* new guests one client address may start (as many at once); 0: no limit */
    uint64_t deal_seed;     /* tests only: every new table deals from this seed; 0: a random one each */
} lobby_config;

/* Defaults: 30 s turns, 120 s reconnection, 700 ms bots, 10 s between hands, 60 s empty close,
 * 5 s retry, 10,000 tables, 20 messages/s with bursts of 40, 30 new guests a minute an address. */
lobby_config lobby_config_default(void);

/* The throttle of join_table's failures by address (house_limits.h, LIMIT_CODE_MISS*): a failure
 * takes two tokens (the try and the miss), so the bucket holds twice the burst of misses. */
throttle_config lobby_code_miss_config(void);

/* With a store, players, tables, hands and the ledger are kept in it; NULL keeps nothing (tests). */
lobby *lobby_create(uv_loop_t *loop, const lobby_config *config, store *st);

/* Reopens the tables the store kept (before serving); answers how many reopened. */
size_t lobby_restore(lobby *l, const store_recovery *rec);

/* The callbacks to give net_start. */
net_handlers lobby_handlers(lobby *l);

/* Tells every client the server is stopping; parks every table (with a store: they reopen at the
 * next start) or closes it (without). Before net_stop. */
void lobby_shutdown(lobby *l);

/* Frees everything once the store has answered what it was asked; the network layer must be gone
 * (after net_destroy), the loop still open and run afterwards. */
void lobby_destroy(lobby *l);

/* Several nodes (server/cluster/, lobby_listing.h): this node's open tables as the others see them
 * (a JSON text to free; NULL when out of memory), and the others' tables, which the lobby lists
 * in list_tables and answers join_table for with "moved" (it takes others over; NULL: none). */
char *lobby_listing_text(lobby *l);
struct lobby_listing;
void lobby_set_others(lobby *l, struct lobby_listing *others);
/* The ids of the stored tables this node plays ("{3,17}", a text to free; NULL when out of
 * memory), and letting go of one another node took over (node, reached at ws): it is parked (its
 * players are told, and rejoin it) and closed here without a write, and for a minute a join_table
 * for it here is answered moved to that node. Answers 1 when there was such a table, else 0. */
char *lobby_kept_tables_text(lobby *l);
size_t lobby_let_go(lobby *l, int64_t table_id, const char *node, const char *ws);

/* For the admin API's live view (read-only): every table open now, newest first, as
 * room_admin_live gives it, in a new array; *paused counts those paused. */
json_t *lobby_admin_live(const lobby *l, int *paused);

#endif
