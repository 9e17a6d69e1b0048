/*
 * room — one table: its game and rule options, its code, host, four seats (a player, a bot or
 * empty), spectators, the hand being played and what carries from hand to hand (the game's
 * table state; the running scores, which are the players' holding the seats, not the seats':
 * PROTOCOL.md, "Scores follow players"). It decides whose turn it is, runs the turn timer and the bots, and sends
 * every member its own view of each event, numbered by the table's sequence. Its host locks it,
 * removes people, hands hosting on, changes the rules between hands (each hand keeps those it
 * was played under), holds it between hands, turns watchers' chat off and ends the session.
 *
 * Persistence (DESIGN.md, "Flow of one move"): with a store, a table is first saved when its
 * first hand starts (one never played leaves nothing behind), then when its seats, host or state
 * change; a hand's start, each accepted action, and a hand's end with its ledger
 * rows are stored and committed before anyone is told. While such a write is in flight the hand
 * takes no other action; if it fails, nothing was shown, the table pauses and retries. Without a
 * store (tests, fuzzing) the same steps complete at once.
 *
 * Game-agnostic: the game is reached only through game_ops. Every function here runs on the
 * loop thread. Commands return NULL when done, or a stable error code with a sentence in msg,
 * and change nothing when refused.
 */
#ifndef ROOM_H
#define ROOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <uv.h>

#include "game.h"
#include "player.h"
#include "store.h"

typedef struct room room;

typedef struct room_env {
    void *ctx;
    uv_loop_t *loop;
    /* Sends text to the player's connection, if it has one. */
    void (*send)(void *ctx, player *p, const char *text, size_t len);
    /* The room has closed itself (nobody left); the owner destroys it. */
    void (*closed)(void *ctx, room *r);
    /* The player's membership of this room ended (left or gone) and p->rooms no longer lists it;
     * the owner may free a player with no connection and no rooms. */
    void (*member_left)(void *ctx, room *r, player *p);
    int bot_delay_ms;        /* a bot's pause before acting, so people can follow */
    int next_hand_ms;        /* pause between hands unless everyone is ready */
    int empty_close_ms;      /* a table with nobody connected closes after this */
    int retry_ms;            /* a paused table (its writes failed) tries again after this */
    store *store;            /* NULL: nothing is kept */
} room_env;

typedef enum { ROOM_WAITING = 0, ROOM_PLAYING, ROOM_BETWEEN_HANDS, ROOM_CLOSED } room_state;

room *room_create(const room_env *env, const game_ops *game, json_t *options, bool is_public, int turn_seconds,
                  const char *code, uint64_t seed);
/* A table the store kept (store_recover), reopened with its seats, banker, multiplier, scores and
 * its unfinished hand replayed: seated[s] is the player of seat s (made by the owner, not
 * connected) or NULL. The seated players become members; their turns get the full turn timer for
 * a while so they can reconnect. NULL with the reason in msg if the hand does not replay. */
room *room_restore(const room_env *env, const game_ops *game, const store_open_table *t, player *const seated[GAME_SEATS],
                   uint64_t seed, char *msg, size_t msg_size);
/* Frees everything once its writes in flight are answered; members are not told (see room_close). */
void room_destroy(room *r);
/* Tells every member the table is closing, ends every membership and records it closed. */
void room_close(room *r, const char *why);
/* For a server stopping with a store: tells every member the table will be back after the
 * restart and ends every membership, leaving the stored table open for recovery. */
void room_park(room *r, const char *why);

const char *room_code(const room *r);
bool room_is_public(const room *r);
room_state room_get_state(const room *r);
size_t room_member_count(const room *r);
bool room_has_member(const room *r, const player *p);
const game_ops *room_game(const room *r);
const json_t *room_options(const room *r);
/* The store's id of the table, 0 until stored (always 0 without a store). */
int64_t room_table_id(const room *r);
/* The lobby's summary of the table. */
json_t *room_summary(const room *r);
/* waiting, playing, between_hands or closed: the state's name in summaries. */
const char *room_state_name(room_state state);
/* The host locked it (room_lock). */
bool room_is_locked(const room *r);
/* Seats with neither a person nor a bot. */
int room_free_seats(const room *r);
/* The host's name, "" when the table has no host at it. */
const char *room_host_name(const room *r);
/* The player is a member, or holds a seat here (also one they left during the hand in play):
 * someone the table already knows, who may come back in even when it is locked. */
bool room_knows(const room *r, const player *p);

/* Joins the player (as a spectator, or straight into `seat` when seat >= 0) and sends a snapshot.
 * A locked table takes only players it knows (room_knows); watchers are at most
 * LIMIT_TABLE_WATCHERS, so the other member places stay for people coming to sit. */
const char *room_join(room *r, player *p, int seat, const json_t *id, char *msg, size_t msg_size);
const char *room_leave(room *r, player *p, char *msg, size_t msg_size);
const char *room_take_seat(room *r, player *p, int seat, char *msg, size_t msg_size);
const char *room_leave_seat(room *r, player *p, char *msg, size_t msg_size);
const char *room_add_bot(room *r, player *p, int seat, char *msg, size_t msg_size);
const char *room_remove_bot(room *r, player *p, int seat, char *msg, size_t msg_size);
const char *room_start(room *r, player *p, char *msg, size_t msg_size);
const char *room_ready(room *r, player *p, char *msg, size_t msg_size);
/* An accepted action is answered later, to p, by {"type":"ok","id":id} once it is stored (or an
 * error if it could not be); a refused one returns its error now. */
const char *room_act(room *r, player *p, const json_t *action, const json_t *id, char *msg, size_t msg_size);
const char *room_chat(room *r, player *p, const char *text, char *msg, size_t msg_size);
/* Host only: a locked table refuses join_table from anyone it does not know (event `locked`). */
const char *room_lock(room *r, player *p, bool locked, char *msg, size_t msg_size);
/* Host only: sends a watcher away (event `removed`; they stop being a member) or, between hands,
 * stands a seated player up to watch (event `seat_left` with "removed"). */
const char *room_remove_member(room *r, player *p, int64_t target, char *msg, size_t msg_size);
/* Host only: hands hosting to another member who is at the table now (event `host`). */
const char *room_set_host(room *r, player *p, int64_t target, char *msg, size_t msg_size);
/* Host only, between hands: new rule options, read by the game's options_parse as create_table
 * reads them (event `options` naming the keys that changed). The hands played keep theirs. */
const char *room_set_options(room *r, player *p, const json_t *options, char *msg, size_t msg_size);
/* Host only: held, no next hand starts after the one on (if any) until the host resumes (event
 * `held`); resuming between hands starts the pause before the next hand afresh. Kept over a restart. */
const char *room_hold(room *r, player *p, bool held, char *msg, size_t msg_size);
/* Host only, between hands: ends the session. Everyone is sent the final scoreboard (event
 * `table_ended`), then the table closes (room_close) and the owner is told (env.closed): r is
 * gone when this returns NULL. */
const char *room_end(room *r, player *p, char *msg, size_t msg_size);
/* Host only: watchers may chat, or not (event `spectator_chat`); seated players always may. */
const char *room_spectator_chat(room *r, player *p, bool on, char *msg, size_t msg_size);
/* The host holds the table (room_hold). */
bool room_is_held(const room *r);

/* The member's page shows the table (here) or left it for another (the lobby): a seated member
 * away is shown so (`connection` event with "away"), though still connected. Joining again, or
 * connecting again, counts as here. */
const char *room_presence(room *r, player *p, bool here, char *msg, size_t msg_size);

/* The player's seat here (-1 for none), and whether that seat owes a decision now. */
int room_seat_of(const room *r, const player *p);
bool room_seat_deciding(const room *r, int seat);
/* The player is the table's host. */
bool room_is_host(const room *r, const player *p);
/* The table's hands so far (the one on included). */
uint64_t room_hand_number(const room *r);

/* The player's connection came or went; on coming back it is sent what it missed and a snapshot. */
void room_player_connected(room *r, player *p, const json_t *id);
void room_player_disconnected(room *r, player *p);
/* The reconnection grace ran out: a bot plays the seat to the end of the hand, then it is freed. */
void room_player_gone(room *r, player *p);

/* For /metrics. */
uint64_t room_hands_played(const room *r);
/* The table waits because a write failed. */
bool room_is_paused(const room *r);
/* For the admin API's live view (read-only): {"code","game","public","hand","paused",
 * "seats":[{"nickname"|null,"bot","connected"}×4],"spectators"}. */
json_t *room_admin_live(const room *r);
/* Writes of this table the store refused so far. */
uint64_t room_failed_writes(const room *r);

#endif
