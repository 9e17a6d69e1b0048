/*
 * lobby_listing — the open tables of the other nodes (several nodes on one PostgreSQL database,
 * server/cluster/), as this node's lobby lists and routes them.
 *
 * Each node publishes its own open tables as one JSON text (lobby_listing_text builds it; the
 * cluster's heartbeat writes it into the node's row) and reads every other live node's:
 *
 *     [{"code":"K7M2QXAB3CDE","serial":1732491234567890},                  a private table
 *      {"code":"P4…","serial":…,"public":true,"game":"tiengow","state":"waiting","free":2,
 *       "locked":false,"host":"Ah Ma","summary":{…list_tables' summary…}}]  a public one
 *
 * A private table is named by its code only: enough to send a friend who has the code to its node
 * ("moved"), nothing for anyone to browse. `serial` is the table's place in the order tables
 * opened (a wall-clock microsecond made unique on its node), so that list_tables can page through
 * every node's tables newest first with one cursor.
 *
 * A listing is built on the loop thread from the rows read (lobby_listing_parse) and owned by the
 * lobby from then on; entries that do not parse are skipped (the text comes from our own nodes,
 * but is checked all the same), and at most LOBBY_LISTING_MAX tables are kept.
 */
#ifndef LOBBY_LISTING_H
#define LOBBY_LISTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define LOBBY_LISTING_MAX 100000 /* other nodes' open tables known at most */

/* What list_tables' filters look at, for a table here or on another node. */
typedef struct lobby_table_facts {
    const char *code;
    const char *game;  /* game_ops name */
    const char *state; /* room_state_name: waiting, playing, between_hands */
    const char *host;  /* the host's name, "" without one */
    int free_seats;
    bool locked;
} lobby_table_facts;

/* One node's row: its id, the address clients reach it at, its listing text. */
typedef struct lobby_listing_source {
    const char *node;
    const char *ws;
    const char *text;
} lobby_listing_source;

/* One table of another node. */
typedef struct lobby_listed {
    char code[24];
    uint64_t serial;
    int node;              /* index into the listing's nodes */
    bool is_public;
    /* public ones only: what list_tables' filters look at (lobby_listed_facts), and its summary */
    char game[16];
    char state[16];
    char host[128];
    int free_seats;
    bool locked;
    json_t *summary;       /* NULL for a private one */
} lobby_listed;

typedef struct lobby_listing lobby_listing;

/* The tables of these nodes; NULL only when out of memory. A code on two nodes (a table taken
 * over, seen in the old owner's last listing and the new one's) is kept once, from the node
 * listed last (the caller lists the freshest heartbeat last). */
lobby_listing *lobby_listing_parse(const lobby_listing_source *nodes, size_t n);
void lobby_listing_free(lobby_listing *l);

/* The tables, newest (highest serial) first. */
size_t lobby_listing_count(const lobby_listing *l);
const lobby_listed *lobby_listing_at(const lobby_listing *l, size_t i);

/* The node of table `code` and the address clients reach it at; NULL when no node lists it. */
const lobby_listed *lobby_listing_find(const lobby_listing *l, const char *code);
const char *lobby_listing_node(const lobby_listing *l, const lobby_listed *t);
const char *lobby_listing_ws(const lobby_listing *l, const lobby_listed *t);

/* A public table's facts, pointing into t. */
lobby_table_facts lobby_listed_facts(const lobby_listed *t);

/* One entry of a node's own listing text: a private table's code and serial, or a public one's
 * facts and summary (summary is borrowed). */
json_t *lobby_listing_entry(uint64_t serial, bool is_public, const lobby_table_facts *facts, json_t *summary);

#endif
