/*
 * migrate — applies numbered SQL steps to a SQLite database, one transaction per step, and
 * records the version reached in PRAGMA user_version (see migrate.h for the promises).
 *
 * The version is read again inside each step's write transaction, so two processes starting on
 * the same new database cannot both apply a step: the second finds it done and skips it.
 */
#include <stdio.h>

#include "migrate.h"
#include "store_sqlite_error.h"

int migrate_version(sqlite3 *db)
{
    sqlite3_stmt *stmt = NULL;
    int version = -1;
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &stmt, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_step(stmt) == SQLITE_ROW)
        version = sqlite3_column_int(stmt, 0);
    sqlite3_finalize(stmt);
    return version;
}

/* Like migrate_version but keeps SQLite's result code for the error. */
static int read_version(sqlite3 *db, int *version)
{
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &stmt, NULL);
    if (rc != SQLITE_OK)
        return rc;
    rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
        *version = sqlite3_column_int(stmt, 0);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(stmt);
    return rc;
}

static bool steps_are_numbered(const migrate_step *steps, size_t count, store_error *error)
{
    for (size_t i = 0; i < count; i++) {
        if (steps[i].version != (int)i + 1 || steps[i].sql == NULL) {
            store_error_set(error, STORE_INTERNAL,
                            "The migrations of this binary are not numbered 1, 2, 3, …: step %zu has number %d.",
                            i + 1, steps[i].version);
            return false;
        }
    }
    return true;
}

/* Runs one step and the new version in one transaction; on failure rolls it all back. */
static store_status apply_step(sqlite3 *db, const migrate_step *step, store_error *error)
{
    int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    if (rc != SQLITE_OK)
        return store_sqlite_error(error, db, NULL, rc, "starting a migration");

    int found = 0;
    rc = read_version(db, &found);
    if (rc == SQLITE_OK && found >= step->version) { /* another process applied it meanwhile */
        sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
        return STORE_OK;
    }
    char *detail = NULL;
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, step->sql, NULL, NULL, &detail);
    if (rc == SQLITE_OK) {
        char pragma[64];
        snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", step->version);
        rc = sqlite3_exec(db, pragma, NULL, NULL, NULL);
    }
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        return STORE_OK;

    char doing[160];
    snprintf(doing, sizeof doing, "applying migration %04d_%s%s%s", step->version, step->name,
             detail ? ": " : "", detail ? detail : "");
    store_status status = store_sqlite_error(error, db, NULL, rc, doing);
    sqlite3_free(detail);
    if (!sqlite3_get_autocommit(db))
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return status;
}

store_status migrate_apply(sqlite3 *db, const migrate_step *steps, size_t count, int *from, int *to,
                           store_error *error)
{
    error->status = STORE_OK;
    error->message[0] = '\0';
    if (!steps_are_numbered(steps, count, error))
        return error->status;

    int version = 0;
    int rc = read_version(db, &version);
    if (rc != SQLITE_OK)
        return store_sqlite_error(error, db, NULL, rc, "reading the schema version");
    if (from)
        *from = version;
    if (to)
        *to = version;
    if (version > (int)count)
        return store_error_set(error, STORE_TOO_NEW,
                               "The database %s has schema version %d, newer than this teahouse knows (up to %zu): "
                               "it was written by a newer teahouse. Run that version, or restore a backup.",
                               sqlite3_db_filename(db, "main"), version, count);

    for (size_t i = (size_t)version; i < count; i++) {
        store_status status = apply_step(db, &steps[i], error);
        if (status != STORE_OK)
            return status;
        if (to)
            *to = steps[i].version;
    }
    return STORE_OK;
}
