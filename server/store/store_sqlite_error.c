/*
 * store_sqlite_error — SQLite result codes as store errors with sentences a person can act on.
 * The extended code is looked at only where it changes the advice (a unique constraint is a
 * conflict, any other constraint an invalid request).
 */
#include <stdio.h>

#include "store_sqlite_error.h"

store_status store_sqlite_status(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_OK:
    case SQLITE_ROW:
    case SQLITE_DONE:
        return STORE_OK;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return STORE_BUSY;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        return STORE_CORRUPT;
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
    case SQLITE_AUTH:
        return STORE_READONLY;
    case SQLITE_FULL:
        return STORE_FULL;
    case SQLITE_IOERR:
        return STORE_IO;
    case SQLITE_CONSTRAINT:
        if (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY)
            return STORE_CONFLICT;
        return STORE_INVALID;
    case SQLITE_TOOBIG:
    case SQLITE_RANGE:
    case SQLITE_MISMATCH:
        return STORE_INVALID;
    default:
        return STORE_INTERNAL;
    }
}

/* What to do about it, for the statuses that come from the file or the disk. */
static const char *advice(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return "is locked by another process; stop that process (or wait for it) and try again";
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        return "is not a teahouse database or is damaged; restore it from a backup or start with a new file";
    case SQLITE_CANTOPEN:
        return "cannot be opened or created; check that its directory exists and that this user may write there";
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_AUTH:
        return "cannot be written; check that the file and its directory are writable by this user and that the "
               "disk is not mounted read-only";
    case SQLITE_FULL:
        return "cannot grow: the disk is full or the database reached its size limit; free some space (nothing of "
               "the failed write was kept)";
    case SQLITE_IOERR:
        return "hit an input/output error; check the disk";
    default:
        return "refused the request";
    }
}

store_status store_sqlite_error(store_error *error, sqlite3 *db, const char *path, int rc, const char *doing)
{
    const char *detail = db != NULL && sqlite3_errcode(db) == rc ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    if (path == NULL && db != NULL)
        path = sqlite3_db_filename(db, "main");
    if (path == NULL || path[0] == '\0')
        path = "(in memory)";
    return store_error_set(error, store_sqlite_status(rc), "The database %s %s (SQLite: %s, while %s).", path,
                           advice(rc), detail, doing);
}
