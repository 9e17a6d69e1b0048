/*
 * store_reader — the admins' heavy reads of the database (players, tables, one hand with
 * its actions, and the whole-database scan the integrity check replays), on a read-only
 * connection of their own. WAL lets it read beside the store's writer: a reader never holds up a
 * hand's writes, and its each answer is one snapshot (one read transaction).
 *
 * Blocking and synchronous, for a worker thread (the admin API runs each call on libuv's thread
 * pool, the integrity check on a thread of its own, `teahouse admin verify` on its main thread);
 * one reader is used by one thread at a time. Filters are bound as parameters of fixed statements;
 * no SQL is built from what a client sent. The answers are JSON in the admin API's shapes
 * (protocol/PROTOCOL.md, "Admin HTTP API"), owned by the caller. On a postgresql:// database the
 * same reads run on PostgreSQL (store_pg_reader.h), each in one REPEATABLE READ snapshot; the
 * in-memory store has no reader.
 */
#ifndef STORE_READER_H
#define STORE_READER_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "store.h"

#define STORE_READER_PAGE_MAX 200  /* players or tables in one page at most */

typedef struct store_reader store_reader;

/* Opens the database at path read-only (it must be at this binary's schema version); key_path is
 * the ledger's key for store_reader_verify_chain (NULL or "": "<path>.key"; it may be missing).
 * NULL with error filled on failure. */
store_reader *store_reader_open(const char *path, const char *key_path, store_error *error);
void store_reader_close(store_reader *r);

/* From any thread while r is open: the read under way stops soon, failing (STORE_INTERNAL,
 * "interrupted"), as does the next one. */
void store_reader_interrupt(store_reader *r);

typedef struct store_player_filter {
    char q[STORE_NAME_MAX + 1];      /* a prefix of the nickname or the account name, ASCII case ignored */
    char kind[STORE_SHORT_TEXT];     /* "guest", "account" or "" */
    int64_t before;                  /* ids below this (0: from the newest) */
    int limit;                       /* 1 to STORE_READER_PAGE_MAX */
} store_player_filter;

/* {"players":[…],"next":ID|null}, newest id first. */
store_status store_reader_players(store_reader *r, const store_player_filter *f, json_t **out, store_error *error);

/* {"player":{…},"by_day":[…],"tables":[…]}; STORE_NOT_FOUND when there is no such player. */
store_status store_reader_player(store_reader *r, int64_t id, json_t **out, store_error *error);

typedef struct store_table_filter {
    char code[STORE_SHORT_TEXT];
    char game[STORE_SHORT_TEXT];
    char state[STORE_SHORT_TEXT];    /* "open" (not closed), "closed" or "" */
    int64_t before;
    int limit;                       /* 1 to STORE_READER_PAGE_MAX */
} store_table_filter;

/* {"tables":[…],"next":ID|null}, newest id first. */
store_status store_reader_tables(store_reader *r, const store_table_filter *f, json_t **out, store_error *error);

/* {"table":{…},"hands":[…]} (hands oldest first); STORE_NOT_FOUND when there is no such table. */
store_status store_reader_table(store_reader *r, int64_t id, json_t **out, store_error *error);

/* {"hand":{…},"lines":[…],"replay":{"seed":S,"actions":[{"seq","seat","action"}]}}: the hand as
 * the API shows it, its ledger rows, and what rebuilds it (seed: the 64 bits as a signed
 * integer). STORE_NOT_FOUND when there is no such hand. */
store_status store_reader_hand(store_reader *r, int64_t id, json_t **out, store_error *error);

/* ---- The integrity check's reads ---- */

/* Finished hands and ledger rows, for the progress figures. */
store_status store_reader_counts(store_reader *r, int64_t *hands, int64_t *rows, store_error *error);

typedef struct store_scan_line {
    int64_t id;
    int64_t player_id;               /* 0 for a bot's seat */
    int seat;
    int64_t units;
    char reason[STORE_SHORT_TEXT];
} store_scan_line;

typedef struct store_scan_hand {
    int64_t id;
    const char *game;
    json_t *options, *state, *result;  /* borrowed for the callback; result NULL if unreadable */
    uint64_t seed;
    const store_action *actions;       /* in order */
    size_t n_actions;
    const store_scan_line *lines;      /* its ledger rows, by id */
    size_t n_lines;
} store_scan_hand;

/* Called for each finished hand, by id; returns false to stop the scan. */
typedef bool (*store_scan_cb)(void *ctx, const store_scan_hand *hand);

/* Every finished hand with its actions and ledger rows, in one read transaction. */
store_status store_reader_scan(store_reader *r, store_scan_cb cb, void *ctx, store_error *error);

/* The keyed hash chain, ids, balances and sums (store_ledger_verify's check) on this connection. */
store_status store_reader_verify_chain(store_reader *r, store_ledger_check *check, store_error *error);

#endif
