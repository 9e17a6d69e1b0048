/*
 * store — what the house keeps on disk: players (guests and accounts), login sessions, tables
 * (with the game's own state they carry from hand to hand), hands as their seed, deal and ordered
 * accepted actions, and the append-only, keyed, hash-chained ledger. Player ids are given by the
 * store on the loop thread, so a guest can be given its id and token before (or without) being
 * stored (store_guest_reserve), and guests nobody uses can be expired. The rooms and the lobby
 * speak to it only through this header: no SQL crosses it, so another backend (PostgreSQL for
 * several nodes, DESIGN.md: Scale) can implement the same functions without touching them.
 *
 * Backends. store_open opens the SQLite backend (one file, WAL), or the PostgreSQL one when its
 * path is a postgresql:// URI (store_pg.h; the options must name the ledger's key file);
 * store_memory_open (store_memory.h) keeps everything in memory for tests. All answer every
 * request below alike.
 *
 * Threads. The SQLite store owns its database connection on a thread of its own; the loop never
 * waits on disk (the in-memory store does everything on the loop thread). Every request below is
 * made on the loop thread, copies what it needs, and is answered by its callback, run later on
 * the loop thread (never from inside the request function). Requests are answered in the order
 * they were made, except login and account creation, whose password hashing runs on libuv's
 * thread pool so that it never holds up a hand's writes. The requests
 * made during one turn of the loop go to the store thread together, just before the loop waits,
 * and what is waiting there is written in one transaction (group commit); each request is atomic
 * on its own, and a callback reporting STORE_OK means the data is committed: a client shown a
 * result after that callback sees only what the database holds. Like a libuv request, a request
 * not yet answered keeps the loop running; an idle store does not.
 *
 * A request function returns true when its callback will come (exactly once), false when the
 * store is closing or memory ran out (then no callback). Bad input is answered through the
 * callback, with STORE_INVALID and a sentence.
 *
 * Errors are values: a store_error holds a status with a stable name (store_status_name) and a
 * sentence naming the file and what to do. A failed request has written nothing: the caller still
 * holds the data, pauses (the rooms pause their tables) and may retry the same request.
 *
 * Ledger rows. Row ids run 1, 2, 3, … in the order written. Each row's hash is BLAKE2b-256
 * (libsodium crypto_generichash, 32 bytes), written as 64 lowercase hex digits, of this canonical
 * text, one field a line, each line ending in "\n", integers in decimal:
 *     teahouse-ledger-v2
 *     id=<id>
 *     table=<table id>
 *     hand=<hand id>
 *     player=<player id, or empty for a bot's seat>
 *     seat=<seat>
 *     units=<units>
 *     reason=<reason: 1 to 32 bytes of UTF-8, no control characters>
 *     balance=<the player's balance after the row, or empty for a bot's seat>
 *     at=<milliseconds since the Unix epoch>
 *     prev=<the previous row's hash; 64 zeros for row 1>
 * hashed with the ledger's key: 32 random bytes in a file outside the database (store_key.h;
 * "<database>.key" unless store_options.ledger_key_path says otherwise), made with mode 0600 when
 * the store first opens the database. Someone who can change the database but cannot read the
 * key cannot make a row that verifies. Rows written before the ledger had a key (by an older
 * teahouse) stay as they were: their text starts "teahouse-ledger-v1" and is hashed with no key.
 * The key record (a table of its own, one row, keyed with the same key: store_ledger.h) says how
 * many such rows there are and the hash of the last; a v1 row after them, a record that does not
 * match the key, or rows without a record beside a key, all fail verification.
 * The rows of one hand sum to zero and are written in the same transaction as the hand's end.
 */
#ifndef STORE_H
#define STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <uv.h>

#include "house_limits.h"

#define STORE_SEATS 4
#define STORE_SHORT_TEXT 33       /* game names, table codes, states, ledger reasons: 32 bytes + NUL */
#define STORE_NAME_MAX LIMIT_NAME_BYTES          /* account names and nicknames, in bytes */
#define STORE_PASSWORD_MIN LIMIT_PASSWORD_MIN_BYTES
#define STORE_PASSWORD_MAX LIMIT_PASSWORD_MAX_BYTES
#define STORE_TOKEN_SIZE 44       /* a session token: 43 characters of URL-safe base64 + NUL */
#define STORE_HASH_HEX 65         /* a ledger hash: 64 hex digits + NUL */
#define STORE_MESSAGE_SIZE 512

typedef enum store_status {
    STORE_OK = 0,
    STORE_NOT_FOUND,    /* no such player, account, session (or it expired), table or hand */
    STORE_CONFLICT,     /* taken: an account name, an open table's code, a hand's action number */
    STORE_INVALID,      /* the request itself is wrong (too long, not zero-sum, hand over, …) */
    STORE_BAD_LOGIN,    /* wrong account name or password (which one is not said) */
    STORE_BUSY,         /* the database is locked by another process */
    STORE_CORRUPT,      /* the file is not a teahouse database, or it is damaged */
    STORE_READONLY,     /* the file or its directory cannot be written, or cannot be opened */
    STORE_FULL,         /* the disk is full, or the database reached its size limit */
    STORE_IO,           /* another input/output error */
    STORE_TOO_NEW,      /* the database was written by a newer teahouse */
    STORE_CLOSED,       /* the store closed before the request could be done */
    STORE_INTERNAL,     /* out of memory or a bug; the sentence says which */
} store_status;

typedef struct store_error {
    store_status status;
    char message[STORE_MESSAGE_SIZE];
} store_error;

/* "ok", "not_found", "conflict", "invalid", "bad_login", "busy", "corrupt", "readonly", "full",
 * "io", "too_new", "closed", "internal": stable, the protocol may reuse them. */
const char *store_status_name(store_status status);

typedef enum store_durability {
    /* A commit survives the process dying; a power cut may lose the last commits, never the
     * database's consistency. The default. */
    STORE_DURABILITY_NORMAL = 0,
    /* Each (group) commit is on durable storage before its callbacks run: it survives a power cut. */
    STORE_DURABILITY_FULL,
} store_durability;

typedef struct store_options {
    store_durability durability;
    int busy_timeout_ms;          /* how long to wait for another process's lock (default 5000) */
    int64_t session_seconds;      /* a login's lifetime (default 30 days) */
    /* If > 0, a quota: the database may not grow beyond about this many bytes (the backend rounds
     * it down to its own units, at least one); writes past it fail with STORE_FULL. */
    int64_t max_bytes;
    /* Milliseconds since the Unix epoch; NULL means the real clock. Called on the store thread
     * (and from store_admin_* on the caller's), so it must be thread-safe. Tests set it. */
    int64_t (*clock_ms)(void *clock_ctx);
    void *clock_ctx;
    /* The ledger's key file (SQLite); NULL or "" for "<database>.key". Made (0600) when missing and
     * the ledger has no key yet; store_open refuses one that others may read, that is not 32
     * bytes, or that is not the ledger's. */
    const char *ledger_key_path;
} store_options;

store_options store_options_default(void);

typedef struct store store;

/* Opens (creating if need be) the database at path, applies the migrations it lacks (refusing a
 * database newer than this binary) and starts the store thread. NULL options means the defaults.
 * NULL on failure, with error filled. */
store *store_open(uv_loop_t *loop, const char *path, const store_options *options, store_error *error);

/* Writes everything already requested, answers those requests, stops the thread and closes the
 * database. Callbacks of requests still hashing a password run later, on the loop, with
 * STORE_CLOSED; the store's memory is released once the loop has run them and closed its handle,
 * so keep running the loop after store_close (as with any libuv handle). NULL is a no-op. */
void store_close(store *s);

/* Loop thread: requests made and not yet answered (the store's queue, for health figures). */
long store_unanswered(const store *s);

/* ---- Players, accounts, sessions ---- */

typedef void (*store_done_cb)(void *ctx, const store_error *error);
typedef void (*store_id_cb)(void *ctx, const store_error *error, int64_t id);

typedef struct store_session {
    int64_t player_id;
    char nickname[STORE_NAME_MAX + 1];
    char account_name[STORE_NAME_MAX + 1];
    bool is_admin;
    int64_t expires_at_ms;
    char token[STORE_TOKEN_SIZE];  /* only in the answer to a login: give it to the client once */
} store_session;

typedef void (*store_session_cb)(void *ctx, const store_error *error, const store_session *session);

typedef void (*store_count_cb)(void *ctx, const store_error *error, int64_t count);

/* A guest when player_id is 0 (answers the new id), otherwise renames that player and marks it
 * seen (answers the same id). */
bool store_player_save(store *s, int64_t player_id, const char *nickname, store_id_cb cb, void *ctx);

/* A new guest and a session for it, in one transaction: answers the session (player id, nickname,
 * and the token, given once: a guest resumes with it after a restart, like an account). */
bool store_guest_create(store *s, const char *nickname, store_session_cb cb, void *ctx);

/* A guest who is not stored yet (a visitor who has only looked around costs no row): at once,
 * on the loop thread and writing nothing, a player id that no player of this store has or will
 * be given, and a new session token. Ids are given out in increasing order from one past the
 * highest stored when the store opened; one reserved and never kept is simply never used. False
 * when the store is closing. */
bool store_guest_reserve(store *s, int64_t *player_id, char token[STORE_TOKEN_SIZE]);

/* Several nodes on one database each give ids from memory: from now on this store gives only the
 * ids that are slot modulo stride (each node has a slot of its own, cluster_slot), still above
 * every id given so far. Loop thread, before any id is given to a client. */
void store_player_ids(store *s, int stride, int slot);

/* Stores a guest reserved by store_guest_reserve, with a session for its token, in one
 * transaction, as store_guest_create does (the answer's token is left empty: the caller has it).
 * STORE_CONFLICT when that player is stored already; STORE_INVALID for an id never reserved or a
 * token that is not one. */
bool store_guest_keep(store *s, int64_t player_id, const char *nickname, const char *token, store_session_cb cb,
                      void *ctx);

/* Deletes, oldest first and at most `limit` (1 to 10,000) of them, the guests not seen for
 * idle_seconds (seen: created, renamed, or their session opened or looked up), with their
 * sessions; never an account, a player with ledger rows, or a player seated at or hosting a
 * table that is not closed (a closed table's host becomes none). Answers how many went: a count
 * equal to limit means there may be more. */
bool store_guests_expire(store *s, int64_t idle_seconds, int limit, store_count_cb cb, void *ctx);

/* A new account (name unique, case-insensitively for ASCII letters; the nickname starts as the
 * name), or, when guest_id is not 0, that guest becomes the account and keeps its history.
 * The password is hashed with argon2id (libsodium crypto_pwhash_str) and then forgotten. */
bool store_account_create(store *s, const char *name, const char *password, int64_t guest_id, store_id_cb cb,
                          void *ctx);

/* Checks the password and opens a session: the answer carries the token, which is stored only as
 * its hash and cannot be read back later. STORE_BAD_LOGIN for an unknown name or a wrong password
 * alike, after the same work. */
bool store_login(store *s, const char *name, const char *password, store_session_cb cb, void *ctx);

/* The session of a token, with the player's current nickname and admin flag (token left empty).
 * STORE_NOT_FOUND when unknown, logged out or expired. */
bool store_session_lookup(store *s, const char *token, store_session_cb cb, void *ctx);

/* Ends the session; STORE_NOT_FOUND if there was none. */
bool store_logout(store *s, const char *token, store_done_cb cb, void *ctx);

/* ---- Tables and hands ---- */

typedef struct store_seat {
    int64_t player_id;  /* 0 when empty or a bot */
    bool bot;
    char nickname[STORE_NAME_MAX + 1];  /* filled by recovery (the player's current nickname); ignored on save */
} store_seat;

typedef struct store_table {
    int64_t id;                      /* 0 to create */
    char game[STORE_SHORT_TEXT];     /* "tiengow" */
    json_t *options;                 /* as game_ops.options_parse returned them */
    int64_t host_player_id;          /* 0 when none */
    char code[STORE_SHORT_TEXT];     /* unique among tables that are not closed */
    bool is_public;
    store_seat seats[STORE_SEATS];
    char state[STORE_SHORT_TEXT];    /* the room's word for it; "closed" frees the code */
    json_t *game_state;              /* the game's table state (game.h), a JSON object: borrowed on
                                      * save, owned by the recovery when loaded */
    int64_t hands_played;
    int turn_seconds;                /* the table's turn timer, 1 to 3600 */
    bool held;                       /* the host holds it: no next hand starts (migration 0008) */
    bool spectator_chat_off;         /* the host turned watchers' chat off (migration 0008) */
} store_table;

/* Creates the table when t->id is 0 (answers the new id), otherwise replaces every field of
 * table t->id (answers the same id). The caller keeps t; options are borrowed. */
bool store_table_save(store *s, const store_table *t, store_id_cb cb, void *ctx);

typedef struct store_hand_start {
    int64_t table_id;
    int64_t number;      /* the table's hand number, from 1; unique within the table */
    uint64_t seed;       /* the shuffle's seed: with the options, game state and actions it rebuilds the hand */
    const json_t *deal;  /* the deal, for the record and for admins */
    const json_t *game_state; /* the game's table state the hand started from (a JSON object) */
    const json_t *options;    /* the rule options the hand is played under (the table's may change
                               * between hands); NULL: the table's */
} store_hand_start;

/* Records a hand's start; answers the hand id that its actions and its end refer to. */
bool store_hand_begin(store *s, const store_hand_start *h, store_id_cb cb, void *ctx);

/* Records the seat's accepted action as number seq of the hand (1, 2, 3, … with no gap: a
 * repeated number is STORE_CONFLICT, a gap STORE_INVALID); the hand must not be over. */
bool store_action_append(store *s, int64_t hand_id, int64_t seq, int seat, const json_t *action, store_done_cb cb,
                         void *ctx);

typedef struct store_ledger_entry {
    int64_t player_id;               /* 0 for a bot's seat */
    int seat;
    int64_t units;
    char reason[STORE_SHORT_TEXT];   /* "settle", "he_zun" (賀尊), "quartet" (四大賀), "qin_zun" (擒尊), … */
} store_ledger_entry;

typedef struct store_hand_end {
    int64_t hand_id;
    /* The action that ended the hand (seq > 0), or seq 0 when none did (a natural hand). */
    int64_t last_seq;
    int last_seat;
    const json_t *last_action;
    const json_t *result;                  /* the game's result_json */
    const store_ledger_entry *entries;     /* in the order to be written; must sum to zero */
    size_t n_entries;
    const json_t *next_game_state;         /* the table's game state from now on (a JSON object) */
} store_hand_end;

/* Writes, all or nothing, in one transaction: the last action, the hand's result, its ledger
 * rows (balances and hashes computed here), and the table's new game state. */
bool store_hand_finish(store *s, const store_hand_end *e, store_done_cb cb, void *ctx);

/* ---- Recovery (start-up) ---- */

typedef struct store_action {
    int64_t seq;
    int seat;
    json_t *action;
} store_action;

typedef struct store_hand {
    int64_t id;
    int64_t number;
    uint64_t seed;
    json_t *deal;
    json_t *game_state;      /* the game's table state the hand started from */
    json_t *options;         /* the options it was played under; NULL: the table's (a hand stored
                              * before migration 0008) */
    store_action *actions;   /* in order: seq 1, 2, 3, … */
    size_t n_actions;
} store_hand;

/* A player's running score at a table: the sum of their ledger rows there. */
typedef struct store_player_score {
    int64_t player_id;
    int64_t score;
    int64_t hands;           /* the hands they played at the table (those with ledger rows) */
} store_player_score;

typedef struct store_open_table {
    store_table table;       /* its options are owned by the recovery */
    store_hand *hand;        /* the unfinished hand, or NULL between hands */
    /* per seat, the running score of whoever holds it: a player's ledger units at the table (from
     * any seat), a bot seat's the units its bots won there, 0 for an empty seat */
    int64_t scores[STORE_SEATS];
    /* every player with ledger rows at the table and their score there (seated or not), so one
     * who comes back after a restart has theirs; owned by the recovery */
    store_player_score *player_scores;
    size_t n_player_scores;
} store_open_table;

typedef struct store_recovery {
    store_open_table *tables;   /* every table not closed, by id */
    size_t n_tables;
    size_t n_unfinished_hands;
} store_recovery;

/* Loads every table that is not closed, each with its unfinished hand and that hand's actions,
 * waiting for the answer (for start-up, before the loop runs; safe at any time). */
bool store_recover(store *s, store_recovery **out, store_error *error);
void store_recovery_free(store_recovery *r);

/* The same, answered later on the loop thread without waiting (a node taking tables over while
 * it plays its own): the callback owns the recovery (store_recovery_free), NULL on failure. */
typedef void (*store_recovery_cb)(void *ctx, const store_error *error, store_recovery *recovery);
bool store_recover_async(store *s, store_recovery_cb cb, void *ctx);

/* ---- A table's history (for players) ---- */

typedef struct store_hand_summary {
    int64_t id;
    int64_t number;
    json_t *game_state;                      /* the game's table state the hand started from */
    int64_t started_at_ms;
    int64_t finished_at_ms;                  /* 0 while unfinished */
    int64_t player_ids[STORE_SEATS];         /* from the hand's ledger rows; 0 for a bot's seat (or unfinished) */
    char nicknames[STORE_SEATS][STORE_NAME_MAX + 1];  /* those players' current nicknames, "" for a bot */
    int64_t units[STORE_SEATS];              /* per seat, the sum of the hand's ledger rows */
    json_t *result;                          /* the stored result, NULL while unfinished */
    json_t *options;                         /* the options it was played under, NULL: the table's */
} store_hand_summary;

/* Answers valid only during the callback (the store frees them after it returns). */
typedef void (*store_hands_cb)(void *ctx, const store_error *error, const store_hand_summary *hands, size_t n);

/* The table's finished hands, newest first: those numbered below `before` (0: from the newest),
 * at most `limit` (1 to 100; otherwise STORE_INVALID). An unknown table answers no hands. */
bool store_table_hands(store *s, int64_t table_id, int64_t before, int limit, store_hands_cb cb, void *ctx);

typedef void (*store_hand_cb)(void *ctx, const store_error *error, const store_hand *hand,
                              const store_hand_summary *summary);

/* One finished hand of the table by its number, with every action in order (to replay it) and
 * its summary. STORE_NOT_FOUND when there is no such hand or it is not finished. */
bool store_hand_get(store *s, int64_t table_id, int64_t number, store_hand_cb cb, void *ctx);

#define STORE_PLAYER_TABLES_MAX 100 /* tables in one answer of store_player_tables at most */

/* A table a player played at: a finished hand of theirs there, open or closed. */
typedef struct store_played_table {
    int64_t table_id;
    char code[STORE_SHORT_TEXT];
    char game[STORE_SHORT_TEXT];
    json_t *options;                 /* the table's options (owned by the answer) */
    char state[STORE_SHORT_TEXT];    /* the room's word for it: "closed" once closed */
    int64_t hands_played;            /* the table's hands */
    int64_t hands;                   /* the finished hands the player played there */
    int64_t units;                   /* the player's net there: the sum of their ledger rows */
    int64_t last_at_ms;              /* when the player's last hand there ended */
} store_played_table;

/* Answers valid only during the callback. */
typedef void (*store_played_cb)(void *ctx, const store_error *error, const store_played_table *tables, size_t n);

/* The tables where the player has ledger rows (played a finished hand), the most recently played
 * first, at most limit (1 to STORE_PLAYER_TABLES_MAX); with code not "" only the tables of that
 * code (a closed table's code may have been given to a newer table). With player_id
 * STORE_ANY_PLAYER, the tables with any finished hand (a shared replay's lookup by code); `hands`
 * and `units` then count every seat's rows. */
#define STORE_ANY_PLAYER 0
bool store_player_tables(store *s, int64_t player_id, const char *code, int limit, store_played_cb cb, void *ctx);

/* ---- A player's profile (anyone's, for the `profile` request) ---- */

#define STORE_PROFILE_PAGE_MAX 50    /* tables, and hands, in one answer of store_profile at most */
#define STORE_PROFILE_DAYS_MAX 365   /* points of the balance series at most */
#define STORE_PROFILE_GAMES_MAX 8    /* games in the totals at most */

typedef struct store_profile_query {
    int64_t player_id;
    /* Only the tables that are public, and the hands played at them (for anyone but the player:
     * a private table's code is its secret). The totals and the balance count every table. */
    bool public_only;
    int64_t tables_before;           /* a table's cursor from an earlier answer (0: the most recent) */
    int64_t hands_before;            /* a hand's cursor from an earlier answer (0: the newest) */
    int limit;                       /* tables, and hands, in a page: 1 to STORE_PROFILE_PAGE_MAX */
} store_profile_query;

typedef struct store_profile_game {
    char game[STORE_SHORT_TEXT];
    int64_t hands;                   /* finished hands the player played */
    int64_t units;                   /* their net: the sum of their ledger rows */
} store_profile_game;

typedef struct store_profile_day {
    int64_t day_ms;                  /* the day's midnight, UTC */
    int64_t balance;                 /* the player's balance at the end of that day */
} store_profile_day;

typedef struct store_profile_table {
    int64_t cursor;                  /* pass as tables_before for the tables played before it */
    char code[STORE_SHORT_TEXT];
    char game[STORE_SHORT_TEXT];
    bool is_public;
    bool closed;
    int64_t hands;                   /* finished hands the player played there */
    int64_t units;                   /* their net there */
    int64_t last_at_ms;              /* when their last hand there ended */
} store_profile_table;

typedef struct store_profile_hand {
    int64_t cursor;                  /* pass as hands_before for the hands before it */
    char code[STORE_SHORT_TEXT];
    char game[STORE_SHORT_TEXT];
    bool is_public;
    bool closed;
    int64_t number;                  /* the table's hand number */
    int64_t units;                   /* the player's net in that hand */
    int64_t at_ms;                   /* when it ended */
} store_profile_hand;

typedef struct store_profile {
    int64_t player_id;
    char nickname[STORE_NAME_MAX + 1];
    bool is_account;
    int64_t created_at_ms;
    int64_t last_seen_ms;
    int64_t balance;                 /* now: the balance after the player's last ledger row (0: none) */
    store_profile_game games[STORE_PROFILE_GAMES_MAX]; /* by game name; adjustments are not a game */
    size_t n_games;
    /* the end-of-day balance of the last STORE_PROFILE_DAYS_MAX days the player's balance changed,
     * oldest first, and the balance before the first of them */
    store_profile_day *days;
    size_t n_days;
    int64_t balance_before;
    store_profile_table *tables;     /* most recently played first (as the query allows) */
    size_t n_tables;
    bool more_tables;                /* there are more below the last one */
    store_profile_hand *hands;       /* newest first (as the query allows) */
    size_t n_hands;
    bool more_hands;
} store_profile;

/* Answers valid only during the callback. */
typedef void (*store_profile_cb)(void *ctx, const store_error *error, const store_profile *profile);

/* The player's profile: who they are, totals per game, balance series, and a page of their tables
 * and of their hands (finished hands, those of the adjustments table left out). STORE_NOT_FOUND
 * when no stored player has that id; STORE_INVALID for a bad limit or a negative cursor. */
bool store_profile_get(store *s, const store_profile_query *query, store_profile_cb cb, void *ctx);

/* ---- Ledger verification ---- */

typedef struct store_ledger_check {
    bool ok;
    int64_t rows_checked;
    int64_t first_bad_row;     /* 0 when ok */
    int64_t v1_rows;           /* of the rows checked, those from before the ledger had its key */
    bool keyed;                /* the ledger has its key record (false: no store has keyed it yet) */
    char why[160];             /* what is wrong with it: "hash does not match its fields", … */
} store_ledger_check;

typedef void (*store_verify_cb)(void *ctx, const store_error *error, const store_ledger_check *check);

/* Checks the whole ledger on the thread pool, over a separate read-only connection (so writes go
 * on): the key record against the key, ids without gaps, each hash over its fields (with the key,
 * or without for the rows from before it), each row's link to the previous hash, each player's
 * balance, and that every hand sums to zero. Answers the first bad row. */
bool store_ledger_verify(store *s, store_verify_cb cb, void *ctx);

/* The same check, synchronous, on the database at path (for `teahouse admin verify`), with the
 * key file at key_path (NULL or "": "<path>.key"), which it never makes. STORE_NOT_FOUND, saying
 * so, when the ledger is keyed and the key file is missing; a ledger never keyed is checked
 * without one. */
bool store_ledger_verify_path(const char *path, const char *key_path, store_ledger_check *check, store_error *error);

/* ---- The ledger for admins ---- */

#define STORE_LEDGER_PAGE_MAX 1000 /* rows in one answer of store_ledger_query at most */

/* Which rows: each field narrows, its zero or "" means any. The texts are matched exactly, as
 * values (never as SQL). */
typedef struct store_ledger_filter {
    int64_t player_id;
    int64_t table_id;
    char code[STORE_SHORT_TEXT];     /* the table's code (a private table's too) */
    char game[STORE_SHORT_TEXT];
    char reason[STORE_SHORT_TEXT];
    int64_t from_ms;                 /* at >= from_ms (0: no bound) */
    int64_t to_ms;                   /* at < to_ms (0: no bound) */
} store_ledger_filter;

typedef struct store_ledger_line {
    int64_t id;
    int64_t at_ms;
    int64_t table_id;
    char code[STORE_SHORT_TEXT];
    char game[STORE_SHORT_TEXT];
    int64_t hand_id;
    int64_t hand_number;
    int64_t player_id;               /* 0 for a bot's seat */
    char nickname[STORE_NAME_MAX + 1]; /* the player's current nickname, "" for a bot */
    int seat;
    int64_t units;
    char reason[STORE_SHORT_TEXT];
    int64_t balance_after;           /* 0 for a bot's seat */
} store_ledger_line;

typedef struct store_ledger_totals {
    int64_t rows;
    int64_t units;                   /* the sum: 0 over whole hands */
    int64_t won;                     /* the sum of the positive rows */
    int64_t lost;                    /* the sum of the negative rows (<= 0) */
} store_ledger_totals;

/* Answers valid only during the callback. totals is NULL unless asked for. */
typedef void (*store_ledger_cb)(void *ctx, const store_error *error, const store_ledger_line *rows, size_t n,
                                const store_ledger_totals *totals);

/* The filtered rows newest first (id descending): those with id < before (0: from the newest),
 * at most limit (1 to STORE_LEDGER_PAGE_MAX). Row ids only grow, so paging by the last id seen
 * neither repeats nor loses a row while rows are being added. With_totals adds the totals of
 * every row the filter keeps (not only this page's, and regardless of before). */
bool store_ledger_query(store *s, const store_ledger_filter *filter, int64_t before, int limit, bool with_totals,
                        store_ledger_cb cb, void *ctx);

/* ---- Admin sessions and the audit log (the admin web API, server/admin) ---- */

#define STORE_AUDIT_ACTION_MAX 32      /* an audit action's name, in bytes */
#define STORE_AUDIT_DETAILS_MAX 1024   /* an audit entry's details, compact JSON, in bytes */
#define STORE_AUDIT_PAGE_MAX 200       /* audit entries in one answer of store_audit_list at most */

typedef struct store_admin_session {
    int64_t player_id;
    char account_name[STORE_NAME_MAX + 1];
    char csrf[STORE_TOKEN_SIZE];     /* the anti-forgery token every POST must carry */
    int64_t expires_at_ms;
    char token[STORE_TOKEN_SIZE];    /* only in the answer to store_admin_session_open */
} store_admin_session;

typedef void (*store_admin_session_cb)(void *ctx, const store_error *error, const store_admin_session *session);

/* Opens an admin session for player_id, lasting `seconds` (1 to 7 days), for the web API once a
 * store_login of an account with is_admin has succeeded: the answer carries the token (kept only
 * as its hash) and a new anti-forgery token. STORE_NOT_FOUND when the player is not an admin
 * account (any more). */
bool store_admin_session_open(store *s, int64_t player_id, int64_t seconds, store_admin_session_cb cb, void *ctx);

/* The admin session of a token (token left empty). STORE_NOT_FOUND when unknown, closed,
 * expired, or its account is no longer an admin. */
bool store_admin_session_lookup(store *s, const char *token, store_admin_session_cb cb, void *ctx);

/* Ends the admin session; STORE_NOT_FOUND if there was none. */
bool store_admin_session_close(store *s, const char *token, store_done_cb cb, void *ctx);

typedef struct store_audit_entry {
    int64_t id;                      /* 1, 2, 3, … in the order written */
    int64_t at_ms;
    int64_t player_id;               /* the admin */
    char account_name[STORE_NAME_MAX + 1];
    char action[STORE_AUDIT_ACTION_MAX + 1];
    char details[STORE_AUDIT_DETAILS_MAX + 1]; /* a JSON object, compact */
} store_audit_entry;

/* Appends to the audit log what admin player_id did: action is 1 to 32 bytes of [a-z0-9_.],
 * details a JSON object (NULL: {}) of at most STORE_AUDIT_DETAILS_MAX bytes once compact. The log
 * is append-only. Answers the entry's id. */
bool store_audit_append(store *s, int64_t player_id, const char *action, const json_t *details, store_id_cb cb,
                        void *ctx);

/* Answers valid only during the callback. */
typedef void (*store_audit_cb)(void *ctx, const store_error *error, const store_audit_entry *entries, size_t n);

/* The audit log newest first: entries with id < before (0: from the newest), at most limit (1 to
 * STORE_AUDIT_PAGE_MAX). */
bool store_audit_list(store *s, int64_t before, int limit, store_audit_cb cb, void *ctx);

/* Which audit entries: each field narrows, its zero or "" means any (matched exactly, as values). */
typedef struct store_audit_filter {
    char action[STORE_AUDIT_ACTION_MAX + 1];
    int64_t player_id;
} store_audit_filter;

/* store_audit_list, narrowed by filter (NULL: every entry). */
bool store_audit_query(store *s, const store_audit_filter *filter, int64_t before, int limit, store_audit_cb cb,
                       void *ctx);

/* ---- Adjustments: an admin's correction of a balance, never an edit of a row ---- */

#define STORE_ADJUST_UNITS_MAX 1000000   /* |units| of one adjustment at most */
#define STORE_ADJUST_REASON_MAX 200      /* an adjustment's reason, in characters (UTF-8) */
#define STORE_ADJUSTMENTS_ACCOUNT "~adjustments" /* the account that takes every counter-row */
#define STORE_ADJUSTMENTS_ID (-1)                /* its player id */
#define STORE_ADJUSTMENTS_ID_TEXT "-1"
#define STORE_ADJUSTMENTS_GAME "adjustment"      /* the game of the table adjustments are booked at */
#define STORE_ADJUSTMENTS_CODE "~ADJUST"         /* and its code */

/* Books an adjustment of `units` (not 0, |units| <= STORE_ADJUST_UNITS_MAX) to player_id, by
 * admin_id, for `reason` (1 to STORE_ADJUST_REASON_MAX characters of UTF-8, no control
 * characters): a hand of its own at the adjustments table, whose result records
 * the admin and the reason, and two ledger rows with reason "adjustment" in the hash chain, the
 * player's then the adjustments account's counter-row, summing to zero. Answers the first row's
 * id (the counter-row's is the next). The first adjustment makes the account (player id -1,
 * named STORE_ADJUSTMENTS_ACCOUNT, which nobody can register nor log in as) and the table (closed,
 * of game STORE_ADJUSTMENTS_GAME). STORE_INVALID for bad input or a player who does not exist (or
 * is the adjustments account); nothing is written then. */
bool store_adjust(store *s, int64_t admin_id, int64_t player_id, int64_t units, const char *reason,
                  store_id_cb cb, void *ctx);

/* ---- Administration from the command line, never from the network ---- */

/* Sets or clears the admin flag of the account `name`, on the database at path (migrating it
 * first); works while a server has the database open. STORE_NOT_FOUND if there is no such
 * account. */
bool store_admin_set(const char *path, const char *name, bool is_admin, store_error *error);

#endif
