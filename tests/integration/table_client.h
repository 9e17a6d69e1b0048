/*
 * table_client — a player for integration tests: a WebSocket connection that speaks the table
 * protocol (PROTOCOL.md), remembers every frame it received and checks, frame by frame, that no
 * tile it may not see ever reaches it.
 */
#ifndef TABLE_CLIENT_H
#define TABLE_CLIENT_H

#include <stdbool.h>

#include <jansson.h>

#include "ws_client.h"

typedef struct table_client {
    ws_client *ws;
    char name[32];
    char token[80];
    char player_id[16];
    char code[16];            /* a table code: up to 12 characters */
    int seat;                 /* -1 when not seated */
    int next_id;
    json_t *last_view;        /* the latest view received (owned), or NULL */
    int hands_over;           /* hand_over events seen */
    int leaks;                /* frames that held a tile this client may not see */
    bool own[21], public_tiles[21]; /* what this client may see in the current hand */
    json_t *last_result;      /* the latest hand_over result (owned) */
    json_t *results;          /* every hand_over result seen, by hand number ("3": {…}) (owned) */
    int frames;
    long long last_seq;       /* the seq of the latest snapshot or event received */
    int pauses;               /* `paused` events seen */
    char pause_store[32];     /* the store's reason in the latest one */
} table_client;

/* Connects and says hello (with token when resuming); false on failure. */
bool tc_connect(table_client *c, const char *host, int port, const char *name, const char *token);

/* Sends a message (the id is set here) and returns the reply with that id (owned), reading and
 * recording every other frame on the way; NULL on timeout. */
json_t *tc_request(table_client *c, json_t *message, int timeout_ms);

/* Reads one frame (owned) and records it; NULL on timeout or close. */
json_t *tc_next(table_client *c, int timeout_ms);

/* If it is this client's turn, plays the first legal play or discards its weakest-listed tiles.
 * Returns true if it acted. */
bool tc_act_if_my_turn(table_client *c, int timeout_ms);

/* Reads frames (acting on its turns when play is true) until `hands` hand_over events have been
 * seen in total or the time runs out; returns whether they were. */
bool tc_play_until(table_client *c, int hands, int timeout_ms, bool play);

void tc_close(table_client *c);

#endif
