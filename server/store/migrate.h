/*
 * migrate — brings a SQLite database's schema up to date from numbered SQL steps
 * (migrations/NNNN_name.sql), tracked by PRAGMA user_version.
 *
 * Promises: steps are applied in order, each in its own transaction together with the new
 * user_version, so a failing step leaves the database exactly at the previous version; a
 * database whose version is higher than the last step known (written by a newer teahouse) is
 * refused untouched with STORE_TOO_NEW; a step set that does not run 1, 2, 3, … is refused.
 *
 * The built-in steps are the migrations/ files, compiled into the binary at build time by
 * server/embed_migrations.c, so the server does not depend on its working directory. A new
 * migration is a new file there, listed in server/meson.build. A step must not contain
 * statements that cannot run inside a transaction (VACUUM, PRAGMA journal_mode).
 */
#ifndef MIGRATE_H
#define MIGRATE_H

#include <stddef.h>

#include <sqlite3.h>

#include "store.h"

typedef struct migrate_step {
    int version;       /* 1, 2, 3, … */
    const char *name;  /* "init" for 0001_init.sql */
    const char *sql;
} migrate_step;

/* The migrations compiled into this binary (generated file). */
const migrate_step *migrate_builtin(size_t *count);

/* Applies the steps db lacks. from and to (either may be NULL) receive the version found and the
 * version reached. On failure returns the status and fills error. */
store_status migrate_apply(sqlite3 *db, const migrate_step *steps, size_t count, int *from, int *to,
                           store_error *error);

/* The database's PRAGMA user_version, or -1 when it cannot be read. */
int migrate_version(sqlite3 *db);

#endif
