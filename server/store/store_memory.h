/*
 * store_memory — a store kept in memory, for tests of what uses a store (rooms, the lobby, the
 * lobby's fuzz target). It answers every request of store.h as the SQLite store does — the same
 * input checks and sentences, ids from 1, answers in the order requested, conflicts, the
 * zero-sum, keyed, hash-chained ledger with balances, recovery of open tables with their unfinished hand
 * and running scores, history pages — but on the loop thread, with no thread and no disk.
 *
 * Defaults behave like a fast, healthy store: each request runs, and is answered, at the next
 * turn of the loop; never from inside the request function. Passwords use a cheap salted hash
 * (test-only, store_password.h) instead of argon2id, so logins take microseconds.
 *
 * A request's data is written when it runs, just before its answer (as a commit precedes the
 * SQLite store's callbacks): what the read-back functions below show is exactly what has been
 * answered, so a test can check that something was stored before it was shown.
 *
 * Test controls, any time on the loop thread:
 *   - delay: requests run this many milliseconds after the turn of the loop they were made in;
 *   - hold: requests wait until the test releases them, a few at a time, in order;
 *   - failures: the next N requests (of one kind, or any) fail with a given status, writing
 *     nothing, as a full disk or a lock would;
 *   - counts of the requests made, by kind;
 *   - read-back of players, tables, hands with their actions, and ledger rows.
 *
 * Differences from SQLite, on purpose: store_recover reads what is stored at once, without
 * running requests still delayed or held; store_ledger_verify runs in turn with the other
 * requests; a login runs twice (its account, then its session), the second time without delay
 * or hold. A pointer read back is valid until the next request runs.
 */
#ifndef STORE_MEMORY_H
#define STORE_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <uv.h>

#include "store.h"
#include "store_kind.h"
#include "store_ledger.h"

#define STORE_KIND_ANY STORE_KIND_COUNT /* every kind, for store_memory_fail and store_memory_count */

/* An empty store on loop. Of the options, the clock and the session lifetime are used; NULL
 * means the defaults. NULL only when memory runs out. Close it with store_close and keep running
 * the loop, as any store. */
store *store_memory_open(uv_loop_t *loop, const store_options *options);

/* Whether s is an in-memory store (the functions below do nothing on another store). */
bool store_is_memory(const store *s);

/* ---- When answers come ---- */

/* Requests made from now on run delay_ms after the turn of the loop they are made in (0, the
 * default: at the next turn). */
void store_memory_set_delay(store *s, int delay_ms);

/* While on, requests wait (without keeping the loop running) until store_memory_release. Off
 * again, those still waiting run as their delay says. */
void store_memory_hold(store *s, bool hold);

/* How many requests are waiting for store_memory_release (made before this call). */
size_t store_memory_held(store *s);

/* The first n requests waiting run, and are answered, at the next turn of the loop, in order;
 * returns how many (at most those waiting). */
size_t store_memory_release(store *s, size_t n);

/* Runs, now and from inside this call, every request that may run (not held, its delay past),
 * with the requests their callbacks make, until none is left; returns how many were answered.
 * For drivers that run the loop's timers themselves (the lobby's fuzz target): no uv_run needed. */
size_t store_memory_pump(store *s);

/* Argon2id hashes on libuv's pool, as the SQLite store, instead of the cheap stand-in; set before
 * the first request. */
void store_memory_real_passwords(store *s, bool real);

/* ---- Failures ---- */

/* The next count requests of kind (STORE_KIND_ANY: of any kind) that run fail with status (not
 * STORE_OK) and write nothing; a later call replaces an earlier one, count 0 cancels. Requests
 * refused by the input checks do not count: they never run. A login fails at its first run. */
void store_memory_fail(store *s, store_kind kind, int count, store_status status);

/* ---- Counting ---- */

/* Requests made of kind (STORE_KIND_ANY: of every kind), answered or not, including those
 * refused by the input checks. */
long store_memory_count(const store *s, store_kind kind);

/* ---- Reading back what is stored ---- */

typedef struct store_memory_player {
    int64_t id;
    bool is_account;
    char nickname[STORE_NAME_MAX + 1];
    char account_name[STORE_NAME_MAX + 1];  /* "" for a guest */
    bool is_admin;
    int64_t created_at_ms;
    int64_t last_seen_at_ms;
} store_memory_player;

typedef struct store_memory_hand {
    int64_t id;
    int64_t table_id;
    int64_t number;
    uint64_t seed;
    json_t *deal;
    json_t *game_state;        /* the table's state the hand started from */
    json_t *options;           /* the options it is played under, NULL: the table's */
    json_t *result;            /* NULL while unfinished */
    int64_t started_at_ms;
    int64_t finished_at_ms;    /* 0 while unfinished */
    store_action *actions;     /* in order: seq 1, 2, 3, … */
    size_t n_actions;
} store_memory_hand;

typedef struct store_memory_row {
    int64_t id;
    int64_t table_id;
    int64_t hand_id;
    int64_t player_id;         /* 0 for a bot's seat */
    int seat;
    int64_t units;
    char reason[STORE_SHORT_TEXT];
    int64_t balance_after;     /* 0 for a bot's seat */
    int64_t at_ms;
    char prev_hash[STORE_HASH_HEX];
    char hash[STORE_HASH_HEX];
} store_memory_row;

/* NULL when there is no such player, table or hand. A table's seats have no nicknames. */
const store_memory_player *store_memory_player_at(store *s, int64_t player_id);
const store_table *store_memory_table_at(store *s, int64_t table_id);
const store_memory_hand *store_memory_hand_at(store *s, int64_t hand_id);

/* How many players, tables, hands and open sessions are stored (table and hand ids run from 1 to
 * the count; player ids are those the store gave, from 1 in the order asked for). */
size_t store_memory_n_players(store *s);
size_t store_memory_n_tables(store *s);
size_t store_memory_n_hands(store *s);
size_t store_memory_n_sessions(store *s);

/* The id of the table's hand of that number, or 0. */
int64_t store_memory_hand_id(store *s, int64_t table_id, int64_t number);

/* Every ledger row, in order (rows[i].id is i + 1). */
const store_memory_row *store_memory_ledger(store *s, size_t *n);

/* The ledger's key (random, made when the store opened; every row is hashed with it, as the
 * "teahouse-ledger-v2" text of store.h). False on another store. */
bool store_memory_ledger_key(store *s, unsigned char key[STORE_LEDGER_KEY_BYTES]);

/* Sets or clears the admin flag of the account `name` (as store_admin_set does on a file), at
 * once; STORE_NOT_FOUND if there is no such account. */
store_status store_memory_set_admin(store *s, const char *name, bool is_admin);

#endif
