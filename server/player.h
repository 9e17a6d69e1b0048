/*
 * player — a person at the house: a guest with a nickname (accounts come with persistence),
 * a secret resume token and, while connected, one connection. Players are owned by the lobby;
 * rooms hold pointers to them for as long as they are members, and the lobby frees a player
 * only once it belongs to no room and its reconnection grace has passed.
 */
#ifndef PLAYER_H
#define PLAYER_H

#include <stdbool.h>
#include <stdint.h>

#include "proto.h"

#define PLAYER_MAX_ROOMS 8

struct room;
struct client;

typedef struct player {
    int id;                              /* written "p<id>" on the wire */
    char name[PROTO_NAME_MAX * 4 + 1];
    char token[PROTO_TOKEN_LEN + 1];     /* given once in welcome; a resume proves it */
    struct client *client;               /* the current connection, or NULL */
    uint64_t gone_at_ms;                 /* loop time the connection dropped (when client is NULL) */
    struct room *rooms[PLAYER_MAX_ROOMS];
    int n_rooms;
    struct player *next_in_bucket;       /* lobby's token index */
    struct player *prev, *next;          /* lobby's list of players */
} player;

static inline bool player_connected(const player *p) { return p->client != NULL; }

#endif
