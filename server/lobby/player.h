/*
 * player — a person at the house: a guest with a nickname or an account, known by the store's
 * player id, with a secret resume token (a store session) and, while connected, one connection.
 * A new guest lives in memory only (an id and token the store reserved) until it first joins or
 * makes a table or registers; it is stored then, before any room sees it. Players are owned by the lobby;
 * rooms hold pointers to them for as long as they are members, and the lobby frees a player
 * only once it belongs to no room and its reconnection grace has passed.
 */
#ifndef PLAYER_H
#define PLAYER_H

#include <stdbool.h>
#include <stdint.h>

#include "proto.h"

#define PLAYER_MAX_ROOMS LIMIT_TABLES_PER_PLAYER

struct room;
struct client;

typedef struct player {
    int64_t id;                          /* the store's player id, written "p<id>" on the wire */
    char name[PROTO_NAME_MAX * 4 + 1];
    char account[PROTO_NAME_MAX * 4 + 1]; /* the account name, "" for a guest */
    char token[PROTO_TOKEN_LEN + 1];     /* the latest session token given in welcome ("" if none yet) */
    bool stored;                         /* the store has it and its session (always, without a store) */
    struct client *client;               /* the current connection, or NULL */
    uint64_t gone_at_ms;                 /* loop time the connection dropped (when client is NULL) */
    struct room *rooms[PLAYER_MAX_ROOMS];
    int n_rooms;
    struct player *next_in_bucket;       /* lobby's token index */
    struct player *next_by_id;           /* lobby's id index */
    struct player *prev, *next;          /* lobby's list of players */
} player;

static inline bool player_connected(const player *p) { return p->client != NULL; }

#endif
