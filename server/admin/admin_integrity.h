/*
 * admin_integrity — the integrity check of a whole database, as `teahouse admin verify` and the
 * admin API's background check run it: every finished hand sums to zero; every finished hand of a
 * game, replayed through its engine (games/game_replay.h) from its options, seed, starting state
 * and stored actions, finishes with its stored result and gives its ledger rows (seat, units and
 * reason, in order); and the ledger's keyed hash chain is unbroken (ids without gaps, each hash
 * over its fields and the previous hash, each balance; store_ledger_verify). Every problem names
 * its hand and, where there is one, its first bad row.
 *
 * Blocking: it reads over a read-only connection of its own (store_reader.h), beside a running
 * server's writer, so it belongs on a thread of its own. Progress and problems are kept in an
 * integrity_progress under its lock, for another thread to read while it runs.
 */
#ifndef ADMIN_INTEGRITY_H
#define ADMIN_INTEGRITY_H

#include <stdbool.h>
#include <stdint.h>

#include <uv.h>

#include "store.h"

#define INTEGRITY_PROBLEMS_MAX 100   /* problems kept (the first found); all are counted */

typedef struct integrity_problem {
    char check[12];         /* "zero_sum", "replay" or "chain" */
    int64_t hand;           /* 0 when none */
    int64_t row;            /* 0 when none */
    char message[240];
} integrity_problem;

typedef struct integrity_progress {
    uv_mutex_t lock;        /* guards every field below */
    int64_t hands_checked, hands_total, rows_checked, rows_total;
    integrity_problem problems[INTEGRITY_PROBLEMS_MAX];
    int n_problems;         /* kept */
    int64_t problems_total; /* found */
    bool cancel;            /* set by integrity_cancel: the check stops soon */
    void *reader;           /* the check's connection while it is open (store_reader) */
} integrity_progress;

bool integrity_progress_init(integrity_progress *p);
void integrity_progress_destroy(integrity_progress *p);

/* From another thread: the check stops soon (a read under way is interrupted). */
void integrity_cancel(integrity_progress *p);

/* Runs the check on the database at db_path (key_path: the ledger's key, NULL or "" for
 * "<db_path>.key"), the hash chain too when with_chain. True when it ran to the end (or was
 * cancelled), whatever it found; false with error when it could not read the database. */
bool integrity_check(const char *db_path, const char *key_path, bool with_chain, integrity_progress *p,
                     store_error *error);

#endif
