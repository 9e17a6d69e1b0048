/*
 * room_internal — what room.c (hand flow, timers, commands, the store's writes) and room_view.c
 * (what members are sent: snapshots, events, views) share: the room's state and small helpers.
 * Not for other modules.
 */
#ifndef ROOM_INTERNAL_H
#define ROOM_INTERNAL_H

#include <inttypes.h>
#include <stdio.h>

#include "house_limits.h"
#include "ratelimit.h"
#include "rng.h"
#include "room.h"

#define ROOM_EVENT_RING LIMIT_EVENTS_KEPT
#define ROOM_MAX_MEMBERS LIMIT_TABLE_MEMBERS

typedef struct seat_state {
    player *p;      /* the seated player, NULL for a bot seat or an empty one */
    bool bot;
    bool leaving;   /* its player left during the hand: the bot plays it to the end, then it is freed */
    int64_t left_id; /* when leaving, the player who left: the hand's result is still theirs */
} seat_state;

/* Who played a seat in a hand, as they were then (their name at the hand's start): the hand's
 * result names them live, on the board and in history, whoever holds the seat afterwards. */
typedef struct hand_seat {
    int64_t player_id; /* 0 for a bot */
    char name[sizeof ((player *)0)->name];
} hand_seat;

/* A player's running score at the table while they hold no seat here: it follows them (PROTOCOL.md,
 * "Scores follow players"), so a newcomer in their old seat starts at 0 and they get it back when
 * they sit again. The oldest goes when the table has more players than it keeps. */
typedef struct tally {
    int64_t player_id;
    int64_t score;
} tally;

#define ROOM_TALLIES 128

/* A player who played hands at the table this session, for the final scoreboard (end_table). */
typedef struct session_player {
    int64_t player_id;
    char name[sizeof ((player *)0)->name];
    int64_t hands;
} session_player;

typedef enum {
    WRITE_NONE = 0,
    WRITE_HAND_BEGIN, /* the new hand is in r->pending until its start is stored */
    WRITE_HAND_FINISH /* a hand over before any action (a natural hand): its end with the ledger */
} write_kind;

/* The most accepted actions a table holds while the store commits them; one more is `busy`. */
#define ROOM_MAX_QUEUED 8

/* An accepted action on its way to the store. Actions are checked against the hand with every
 * earlier queued action applied, stored in order, and shown in order as each commit is answered. */
typedef struct queued_action {
    game_hand *hand;     /* the hand with this action (and those before it) applied */
    int seat;
    json_t *action;
    bool by_bot;         /* a bot or a timeout chose it */
    bool ends_hand;      /* stored with the hand's end and its ledger rows */
    player *by;          /* who sent it, answered once it is stored (NULL: a bot, or gone) */
    json_t *reply_id;    /* the id of their act message */
} queued_action;

struct room;

/* One seat's decision clock: a bot's pause, or a person's time to decide. */
typedef struct seat_clock {
    uv_timer_t timer;
    struct room *r;
    int seat;
    bool deciding;              /* the seat owes a decision (as last scheduled) */
    game_decision_kind kind;
    uint64_t deadline_ms;       /* loop time its time runs out (persons and bots alike), 0 if none */
    bool shown;                 /* deadline_ms is a person's timer (shown); a bot's is not */
    bool private_decided;       /* it decided privately: shown as deciding until its window resolves */
} seat_clock;

typedef struct member {
    player *p;
    uint64_t last_seq; /* the last event this player's connection was sent */
    bool ready;
    bool away;         /* connected, but its page left the table (presence): shown away, not online */
    rate_bucket chat;  /* chat has its own limit, apart from play */
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
    int64_t host_id;            /* the host's player id, 0 when none */
    bool locked;                /* the host locked it: only its members and seated players come in */
    bool held;                  /* the host holds it: no next hand starts until they resume (hold_table) */
    bool spectator_chat_off;    /* the host turned watchers' chat off (spectator_chat) */
    seat_state seats[GAME_SEATS];
    member members[ROOM_MAX_MEMBERS];
    int n_members;
    rng_state rng;              /* the seeds of the table's hands */
    game_hand *hand;            /* the hand as committed and shown, or the last one (between hands) */
    uint64_t hands_played;
    json_t *game_state;         /* the game's table state the next hand starts from (game.h) */
    int64_t scores[GAME_SEATS];  /* the running score of whoever holds each seat now (0 when empty) */
    int64_t bot_scores[GAME_SEATS]; /* what the bots at a seat won, while no bot holds it */
    tally tallies[ROOM_TALLIES]; /* the scores of players without a seat here, oldest first */
    int n_tallies;
    session_player played[ROOM_TALLIES]; /* who played hands here, with how many (the oldest go first) */
    int n_played;
    hand_seat hand_seats[GAME_SEATS]; /* who played r->hand (the hand on, or the last one) */
    uint64_t seq;
    stored_event ring[ROOM_EVENT_RING];
    size_t ring_bytes;          /* the kept events' text, at most LIMIT_EVENTS_KEPT_BYTES */
    uint64_t ring_first_seq;    /* the oldest event still kept (events before it were let go) */
    seat_clock clocks[GAME_SEATS]; /* each deciding seat: its timer, or a bot's pause */
    bool acted[GAME_SEATS];     /* the seat acted since its clock was last set */
    uv_timer_t next_hand_timer;
    uv_timer_t empty_timer;
    uv_timer_t retry_timer;     /* a paused table tries its writes again */
    uint64_t restored_until_ms; /* after a restart, absent players keep their own turn timer until then */
    int open_handles;           /* timers not yet closed */
    int writes;                 /* store requests not yet answered */
    bool destroyed;             /* the owner let go; freed when open_handles and writes are 0 */
    bool parked;                /* the server is stopping: nothing more is shown or scheduled */

    /* what the store knows */
    bool kept;                  /* stored from its first hand on; a table never played leaves nothing */
    int64_t table_id;           /* 0 until the first save answers */
    bool table_saving;          /* a save is in flight */
    bool table_dirty;           /* the table changed since that save was asked */
    bool start_when_saved;      /* a hand waits for the table's first save to give its id */
    int64_t hand_id;            /* the store's id of r->hand */
    int64_t action_seq;         /* the hand's actions stored so far */
    write_kind writing;
    game_hand *pending;         /* WRITE_HAND_BEGIN: the new hand */
    queued_action queue[ROOM_MAX_QUEUED];
    int n_queued;
    bool queue_failed;          /* a queued write failed: the rest of the queue is dropped too */
    bool paused;                /* a write failed: the table waits for retry_timer */
    uint64_t failed_writes;     /* for /metrics */
};

static inline member *find_member(const room *r, const player *p)
{
    for (int i = 0; i < r->n_members; i++)
        if (r->members[i].p == p)
            return (member *)&r->members[i];
    return NULL;
}

static inline int seat_of(const room *r, const player *p)
{
    for (int s = 0; s < GAME_SEATS; s++)
        if (p != NULL && r->seats[s].p == p)
            return s;
    return -1;
}

static inline bool seat_filled(const seat_state *s) { return s->bot || s->p != NULL; }

/* Members without a seat. */
static inline int watcher_count(const room *r)
{
    int n = 0;
    for (int i = 0; i < r->n_members; i++)
        n += seat_of(r, r->members[i].p) < 0;
    return n;
}

/* A bot plays the seat: a bot seat, a player who left, or a player not connected. */
static inline bool seat_covered_by_bot(const seat_state *s)
{
    return s->bot || s->leaving || (s->p != NULL && !player_connected(s->p));
}

static inline bool hand_on(const room *r) { return r->state == ROOM_PLAYING && r->hand != NULL; }

/* The hand with every queued action applied: what the next action is checked against. */
static inline const game_hand *latest_hand(const room *r)
{
    return r->n_queued > 0 ? r->queue[r->n_queued - 1].hand : r->hand;
}

/* The hand is being played and may take an action (not over, no hand write in flight, not paused). */
static inline bool hand_open(const room *r)
{
    return hand_on(r) && !r->game->is_over(latest_hand(r)) && r->writing == WRITE_NONE && !r->paused && !r->parked;
}

/* The shown hand is settled: nothing is queued and it takes decisions (the clocks run only then). */
static inline bool hand_settled(const room *r) { return hand_open(r) && r->n_queued == 0; }

#define REF_SIZE 24

static inline const char *player_ref(int64_t id, char buf[REF_SIZE])
{
    snprintf(buf, REF_SIZE, "p%" PRId64, id);
    return buf;
}

/* Who the seat's result belongs to: the player who sits there (or left during the hand), 0 for a
 * bot or an empty seat. */
static inline int64_t seat_owner(const seat_state *s)
{
    return s->leaving ? s->left_id : s->p != NULL ? s->p->id : 0;
}

/* room_view.c */
/* The seats that owe a decision as shown to everyone: [{"seat","kind","ms_left"}]. */
json_t *room_deciding_json(const room *r);
void room_send_json(room *r, player *p, json_t *message);
void room_send_snapshot(room *r, member *m, const json_t *id);
/* Numbers the event (taking it), keeps it for resuming members and sends it to every connected
 * member, with its own view when the event can change it. */
void room_broadcast(room *r, json_t *event);
/* {"kind":kind,"player":"p12","name":…}; without "kind" when kind is NULL. */
json_t *room_event_with_player(const char *kind, const player *p);
/* [{"seat","player","name","bot"}]: who played r->hand, as they were at its start. */
json_t *room_hand_players_json(const room *r);

#endif
