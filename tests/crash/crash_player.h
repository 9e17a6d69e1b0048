/*
 * crash_player — one client of the crash test: a WebSocket connection that keeps playing its
 * table while the server is killed and restarted under it.
 *
 * A player runs on a thread of its own. It plays as soon as its seat owes a decision: at Tien Gow
 * the first legal action of its view; at Tianjin a simple greedy player (wins and claims when
 * offered, sits, pulls in turn, discards its least connected tile, never a wild), no faster than
 * the server's message rate allows, since all four seats of a Tianjin table are players (bots
 * wait out every claim window). When the connection drops it reconnects (retrying while the
 * server restarts), resumes with its token (hello with "token") and joins its table again. It
 * records every frame it gets: each hand_over (hand number and net), and, for a seated player,
 * its own tiles in every view, labelled with the hand and the server generation that sent it,
 * so the test can compare what clients saw with what the database holds. A private answer (a
 * Tianjin pass or pull: a `view` frame, then ok) counts as its act's event.
 *
 * In a cluster run (several nodes, crash_shared.cluster) it connects to any node that is up,
 * and a join answered `moved` sends it to the node named; when its node dies it does the same
 * again with its token, waiting a little longer each time no live node has its table yet (the
 * dead node's lease has not run out, or the new owner is not yet in the other nodes' directory).
 *
 * A problem the server must not have (no resume, the table gone, an action refused for a reason
 * the view rules out, a reply that never comes) is recorded in `failure` and ends the thread.
 */
#ifndef CRASH_PLAYER_H
#define CRASH_PLAYER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "ws_client.h"

#define CRASH_SEATS 4
#define CRASH_KINDS 34 /* tile kinds: Tien Gow's 21 or Tianjin's 34 */

#define CRASH_NODES_MAX 3

/* One node of a cluster run: its name (--node-id) and port, and whether it is up. */
typedef struct crash_node {
    char name[16];
    int port;
    bool up;
} crash_node;

/* What the test and every player thread share: where the server is and whether it is up; in a
 * cluster run, where each node is. */
typedef struct crash_shared {
    pthread_mutex_t lock;
    pthread_cond_t changed;   /* broadcast on every change below and on player progress */
    char host[64];
    int port;
    int generation;           /* 1 for the first server, one more for each restart */
    bool up;                  /* the server of this generation is listening */
    bool stop;                /* the players finish */
    /* A cluster run: clients connect to any node that is up and follow `moved` (a node's
     * address /n/NAME/ws is mapped to its port here); `generation` counts the kills of any node,
     * and labels each connection with the one it was made in. */
    bool cluster;
    crash_node nodes[CRASH_NODES_MAX];
    int n_nodes;
} crash_shared;

void crash_shared_init(crash_shared *shared);
void crash_shared_destroy(crash_shared *shared);
/* Marks the server of the current generation down and counts the next generation. */
void crash_shared_server_down(crash_shared *shared);
void crash_shared_server_up(crash_shared *shared, const char *host, int port);
void crash_shared_stop(crash_shared *shared);
/* A cluster run: node i (named name) listens on port, or was killed (which counts a generation). */
void crash_shared_node_up(crash_shared *shared, int i, const char *name, const char *host, int port);
void crash_shared_node_down(crash_shared *shared, int i);

/* Waits on the shared condition until deadline_ms (CLOCK_MONOTONIC); call with the lock held. */
void crash_shared_wait(crash_shared *shared, long long deadline_ms);

long long crash_now_ms(void);

/* Counts a list of tile names ("6-6", … at Tien Gow, "5m", "E", … at Tianjin) by engine kind;
 * false if one is not a tile of that game. */
bool crash_count_tiles(bool tianjin, const json_t *tiles, uint8_t count[CRASH_KINDS]);

typedef struct crash_hand_over { /* one hand_over event a client received */
    int64_t hand;
    int64_t net[CRASH_SEATS];
    int64_t scores[CRASH_SEATS];  /* the table's running totals after the hand */
    int epoch;
} crash_hand_over;

typedef enum crash_view_source {
    CRASH_VIEW_DEAL,      /* the view of the hand_started event: the whole deal */
    CRASH_VIEW_EVENT,     /* the view of any later event */
    CRASH_VIEW_SNAPSHOT,  /* the view of a snapshot (after a (re)connection or a join) */
} crash_view_source;

typedef struct crash_tiles_seen { /* the player's own tiles in one view */
    int64_t hand;
    int epoch;
    crash_view_source source;
    bool over;
    int banker;
    int64_t multiplier;       /* Tianjin: the banker's count */
    uint8_t count[CRASH_KINDS];
} crash_tiles_seen;

typedef struct crash_act { /* an action the server answered "ok" */
    int64_t hand;
    int epoch;
    json_t *action; /* owned */
} crash_act;

typedef struct crash_player {
    /* set before the thread starts */
    crash_shared *shared;
    char name[32];
    char code[16];         /* up to 12 characters */
    int seat;              /* 0 for a table's creator, -1 for a spectator */
    bool tianjin;          /* its table's game: Tianjin Mahjong, else Tien Gow */
    bool send_ready;       /* says ready after each hand, so its table does not wait the pause */
    bool trace;            /* prints every frame (CRASH_TRACE set) */

    /* the connection (the player's thread only, once it runs) */
    ws_client *ws;
    char token[80];
    char player_id[16];
    char forwarded_for[48]; /* a cluster run: the address it claims through the trusted proxy */
    int node;              /* a cluster run: the node of the connection, -1 for none */
    uint64_t rng;          /* a cluster run: which node to try */
    int epoch;             /* the generation of the server this connection talks to */
    int next_id;
    int act_id;            /* the id of the act awaiting its reply, 0 if none */
    long long act_sent_ms; /* also the pace of a Tianjin player's acts */
    json_t *act_sent;      /* that act's action (owned) */
    int64_t act_hand;      /* and the hand it was for */
    /* An act is open from its sending until it was refused, or both its "ok" and its action
     * event came (in either order), or a snapshot or a new hand made it moot: no other act
     * before that, so a view that is stale by one move is never acted on. */
    bool act_open;
    bool act_accepted;     /* its "ok" came */
    bool act_event_seen;   /* an action event for this seat came since it was sent */
    long long accepted_ms;
    int64_t hand;          /* the hand the views belong to now, 0 before the first */
    json_t *view;          /* the latest view (owned), or NULL */

    /* what it saw (read by the test after the thread ended) */
    crash_hand_over *overs;
    size_t n_overs, cap_overs;
    crash_tiles_seen *seen;
    size_t n_seen, cap_seen;
    crash_act *acts;
    size_t n_acts, cap_acts;
    long frames;
    int connections;
    int refused_busy;      /* acts refused because the state moved on (busy, paused, not_your_turn) */
    int moved;             /* a cluster run: joins answered moved, and followed */
    int not_found;         /* a cluster run: joins answered no_such_table while its table changed nodes */
    int rate_limited;      /* a cluster run: joins answered rate_limited (it then asks another node) */
    int fresh_guests;      /* a cluster run: hellos with its token that another node answered as a new guest's,
                            * before it was at a table (see cluster_hello in crash_player.c) */
    bool seated_once;      /* it has made or joined its table (so its session is stored) */
    char failure[768];     /* the first problem, "" if none */

    /* progress, under shared->lock */
    int live_epoch;        /* generation of the connection once it has its table's snapshot; 0 if none */
    int overs_epoch;       /* the generation of the latest hand_over seen, and how many it has seen */
    int overs_in_epoch;
    int overs_live;        /* hand_over events received as they happened (not in a resume's replay) */
    int overs_mark;        /* a cluster run: overs_live when the last node came back (set by the test) */
    bool finished;         /* the thread has ended */

    pthread_t thread;
} crash_player;

/* Connects to the server that is up now and says hello (without a token). In a cluster run,
 * first_node is the node to connect to, and the player claims the address forwarded_for (it
 * must be set before) through the trusted proxy the nodes were told of; -1 otherwise. */
bool crash_player_connect_new(crash_player *p, crash_shared *shared, const char *name, int first_node);

/* The first client of a table: creates it (seat 0) for its game (p->tianjin). */
bool crash_player_create_table(crash_player *p, int turn_seconds);

/* Joins the table `code` and takes `seat`. */
bool crash_player_take_seat(crash_player *p, const char *code, int seat);

/* The creator adds `bots` bots (seats 1..bots) and starts the first hand. */
bool crash_player_start_table(crash_player *p, int bots);

/* Joins p's table (code already set) as a spectator. */
bool crash_player_watch(crash_player *p, const char *code);

/* Starts and joins the player's thread. */
bool crash_player_start(crash_player *p);
void crash_player_join(crash_player *p);

/* Where the player was when it stopped (after crash_player_join): its hand, whose turn, its
 * connection; for failure messages. */
void crash_player_describe(const crash_player *p, char *out, size_t cap);

/* Frees what the player recorded. */
void crash_player_free(crash_player *p);

#endif
