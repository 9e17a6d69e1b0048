/*
 * store_db — the SQLite database of the store, one connection at a time and without threads:
 * opening it (WAL, the pragmas, the migrations it lacks, then what SQL alone cannot migrate: the
 * look-alike keys of older accounts), opening it read-only for checks, and granting admin rights.
 * The ledger's key record and check are in store_db_ledger.c. store_sqlite.c builds the threaded
 * store on these; the command line (store_admin_set, store_ledger_verify_path) uses them directly.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "migrate.h"
#include "names.h"
#include "store_db.h"
#include "store_pg.h"
#include "store_ledger.h"
#include "store_sqlite_error.h"

#define CACHE_KIB 16384         /* SQLite page cache of a connection */
#define WAL_LIMIT_BYTES (64 * 1024 * 1024)

/* ---- Opening ---- */

static bool exec_sql(sqlite3 *db, const char *path, const char *sql, const char *doing, store_error *error)
{
    int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        return true;
    store_sqlite_error(error, db, path, rc, doing);
    return false;
}

/* Sets one of an account's texts (its NFC name, a look-alike key) unless another account has
 * it (SQLite's UNIQUE says so, and nothing changes) or it is set already. */
static int set_if_free(sqlite3 *db, const char *sql, int64_t id, const char *value)
{
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &stmt, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_int64(stmt, 1, id);
        sqlite3_bind_text(stmt, 2, value, -1, SQLITE_STATIC);
        rc = sqlite3_step(stmt);
    }
    sqlite3_finalize(stmt);
    return rc == SQLITE_DONE || (rc & 0xff) == SQLITE_CONSTRAINT ? SQLITE_OK : rc;
}

typedef struct unkeyed_account {
    int64_t id;
    char name[STORE_NAME_MAX + 1];
} unkeyed_account;

/* The accounts without both look-alike keys, oldest first, into *out (malloc'd; *n of them). */
static int unkeyed_accounts(sqlite3 *db, unkeyed_account **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    size_t cap = 0;
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_prepare_v2(db,
                                "SELECT id, account_name FROM players WHERE kind = 'account'"
                                " AND (account_look_key IS NULL OR account_fold_key IS NULL) ORDER BY id",
                                -1, &stmt, NULL);
    while (rc == SQLITE_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        rc = SQLITE_OK;
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            unkeyed_account *more = realloc(*out, cap * sizeof **out);
            if (more == NULL) {
                rc = SQLITE_NOMEM;
                break;
            }
            *out = more;
        }
        (*out)[*n].id = sqlite3_column_int64(stmt, 0);
        const char *name = (const char *)sqlite3_column_text(stmt, 1);
        snprintf((*out)[*n].name, sizeof (*out)[*n].name, "%s", name ? name : "");
        (*n)++;
    }
    sqlite3_finalize(stmt);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/*
 * The accounts made before account names had look-alike keys (migration 0005) get theirs, and
 * their names in NFC (as login now looks them up), oldest first: SQL cannot compute them, ICU
 * does (names.h). An account that already looked like an older one keeps NULL for the key they
 * share and is tried again at each opening (a few rows at most). Nothing is written, nor locked,
 * once every account has its keys.
 */
static bool fill_account_keys(sqlite3 *db, const char *path, store_error *error)
{
    unkeyed_account *accounts = NULL;
    size_t n = 0;
    int rc = unkeyed_accounts(db, &accounts, &n);
    if (rc == SQLITE_OK && n > 0)
        rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    for (size_t i = 0; rc == SQLITE_OK && i < n; i++) {
        char nfc[STORE_NAME_MAX + 1];
        names_keys keys;
        if (!names_nfc(accounts[i].name, nfc, sizeof nfc) || !names_account_keys(accounts[i].name, &keys))
            continue; /* a name too long once normalised: left as it is */
        if (strcmp(nfc, accounts[i].name) != 0)
            rc = set_if_free(db, "UPDATE players SET account_name = ?2 WHERE id = ?1", accounts[i].id, nfc);
        if (rc == SQLITE_OK)
            rc = set_if_free(db, "UPDATE players SET account_look_key = ?2 WHERE id = ?1 AND account_look_key IS NULL",
                             accounts[i].id, keys.look);
        if (rc == SQLITE_OK)
            rc = set_if_free(db, "UPDATE players SET account_fold_key = ?2 WHERE id = ?1 AND account_fold_key IS NULL",
                             accounts[i].id, keys.fold);
    }
    if (rc == SQLITE_OK && n > 0)
        rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    free(accounts);
    if (rc == SQLITE_OK)
        return true;
    store_sqlite_error(error, db, path, rc, "giving older accounts their look-alike keys");
    if (!sqlite3_get_autocommit(db))
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return false;
}

/* Switches to WAL; the first statement that reads the file, so a locked, foreign or damaged file
 * is reported from here. */
static bool use_wal(sqlite3 *db, const char *path, store_error *error)
{
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_prepare_v2(db, "PRAGMA journal_mode = WAL", -1, &stmt, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(stmt);
    bool wal = rc == SQLITE_ROW && sqlite3_stricmp((const char *)sqlite3_column_text(stmt, 0), "wal") == 0;
    sqlite3_finalize(stmt);
    if (rc != SQLITE_ROW) {
        store_sqlite_error(error, db, path, rc, "switching to write-ahead logging");
        return false;
    }
    if (!wal)
        store_error_set(error, STORE_IO, "The database %s cannot use write-ahead logging (WAL).", path);
    return wal;
}

bool store_db_configure(sqlite3 *db, const char *path, const store_options *o, store_error *error)
{
    /* Foreign keys stay off: the store checks every reference itself before writing (a hand's
     * actions and ledger rows refer to the hand row they were checked against, players are looked
     * up), and without them a one-row INSERT OR FAIL needs no statement journal. temp_store in
     * memory keeps SQLite's own scratch files off the disk. */
    char sql[256];
    snprintf(sql, sizeof sql,
             "PRAGMA synchronous = %s; PRAGMA foreign_keys = OFF; PRAGMA cache_size = -%d;"
             " PRAGMA temp_store = MEMORY; PRAGMA journal_size_limit = %d;",
             o->durability == STORE_DURABILITY_FULL ? "FULL" : "NORMAL", CACHE_KIB, WAL_LIMIT_BYTES);
    if (!exec_sql(db, path, sql, "configuring the connection", error))
        return false;
    if (o->max_bytes <= 0)
        return true;
    /* The quota in pages of this file's size (4 KiB unless the file says otherwise). */
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_prepare_v2(db, "PRAGMA page_size", -1, &stmt, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(stmt);
    const int64_t page_size = rc == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : 0;
    sqlite3_finalize(stmt);
    if (page_size <= 0) {
        store_sqlite_error(error, db, path, rc == SQLITE_ROW ? SQLITE_CORRUPT : rc, "reading the page size");
        return false;
    }
    const int64_t pages = o->max_bytes / page_size > 0 ? o->max_bytes / page_size : 1;
    snprintf(sql, sizeof sql, "PRAGMA max_page_count = %" PRId64, pages);
    return exec_sql(db, path, sql, "setting the size limit", error);
}

sqlite3 *store_db_open(const char *path, const store_options *o, store_error *error)
{
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) {
        store_sqlite_error(error, db, path, rc, "opening");
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_extended_result_codes(db, 1);
    sqlite3_busy_timeout(db, o->busy_timeout_ms);
    /* SQLite quietly opens a write-protected file read-only; say so now rather than at the first
     * hand. */
    if (sqlite3_db_readonly(db, "main") == 1) {
        store_error_set(error, STORE_READONLY,
                        "The database %s is read-only for this user; make the file and its directory writable.", path);
        sqlite3_close(db);
        return NULL;
    }
    size_t n_steps = 0;
    const migrate_step *steps = migrate_builtin(&n_steps);
    if (!use_wal(db, path, error) || !store_db_configure(db, path, o, error) ||
        migrate_apply(db, steps, n_steps, NULL, NULL, error) != STORE_OK || !fill_account_keys(db, path, error)) {
        sqlite3_close(db);
        return NULL;
    }
    return db;
}

sqlite3 *store_db_open_readonly(const char *path, const store_options *o, store_error *error)
{
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK && access(path, F_OK) != 0) {
        store_error_set(error, STORE_NOT_FOUND, "There is no database at %s.", path);
        sqlite3_close(db);
        return NULL;
    }
    if (rc != SQLITE_OK) {
        store_sqlite_error(error, db, path, rc, "opening for reading");
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_extended_result_codes(db, 1);
    sqlite3_busy_timeout(db, o->busy_timeout_ms);
    size_t known = 0;
    migrate_builtin(&known);
    int version = -1;
    sqlite3_stmt *stmt = NULL;
    rc = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &stmt, NULL);
    if (rc == SQLITE_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW)
        version = sqlite3_column_int(stmt, 0);
    sqlite3_finalize(stmt);
    if (version < 0) {
        store_sqlite_error(error, db, path, rc, "reading the schema version");
    } else if (version > (int)known) {
        store_error_set(error, STORE_TOO_NEW,
                        "The database %s has schema version %d, newer than this teahouse knows (up to %zu).", path,
                        version, known);
    } else if (version < (int)known) {
        store_error_set(error, STORE_INVALID,
                        "The database %s has schema version %d; start teahouse on it once to bring it to %zu.", path,
                        version, known);
    } else {
        return db;
    }
    sqlite3_close(db);
    return NULL;
}

/* ---- Administration ---- */

bool store_admin_set(const char *path, const char *name, bool is_admin, store_error *error)
{
    if (store_pg_is_uri(path))
        return store_pg_admin_set(path, name, is_admin, error);
    error->status = STORE_OK;
    error->message[0] = '\0';
    if (!store_text_is_clean(name, STORE_NAME_MAX)) {
        store_error_set(error, STORE_INVALID, "An account name is 1 to %d bytes of text without control characters.",
                        STORE_NAME_MAX);
        return false;
    }
    const store_options o = store_options_default();
    sqlite3 *db = store_db_open(path, &o, error);
    if (db == NULL)
        return false;
    /* The flag and its audit entry ("grant" or "revoke", naming the account, by the command
     * line) in one transaction: the log holds every change of who is an admin. */
    int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    sqlite3_stmt *stmt = NULL;
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db, "UPDATE players SET is_admin = ?1 WHERE account_name = ?2 AND kind = 'account'", -1,
                                &stmt, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_int(stmt, 1, is_admin);
        sqlite3_bind_text(stmt, 2, name, -1, SQLITE_STATIC);
        rc = sqlite3_step(stmt);
    }
    sqlite3_finalize(stmt);
    const bool found = rc == SQLITE_DONE && sqlite3_changes(db) > 0;
    if (found) {
        stmt = NULL;
        rc = sqlite3_prepare_v2(db,
                                "INSERT INTO admin_audit (at, player_id, action, details) SELECT ?1, id, ?2,"
                                " json_object('account', account_name, 'by', 'command line') FROM players"
                                " WHERE account_name = ?3 AND kind = 'account'",
                                -1, &stmt, NULL);
        if (rc == SQLITE_OK) {
            sqlite3_bind_int64(stmt, 1, store_now_ms(&o));
            sqlite3_bind_text(stmt, 2, is_admin ? "grant" : "revoke", -1, SQLITE_STATIC);
            sqlite3_bind_text(stmt, 3, name, -1, SQLITE_STATIC);
            rc = sqlite3_step(stmt);
        }
        sqlite3_finalize(stmt);
    }
    if (rc == SQLITE_DONE && found)
        rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? SQLITE_DONE : sqlite3_errcode(db);
    if (rc != SQLITE_DONE)
        store_sqlite_error(error, db, path, rc, is_admin ? "granting admin" : "revoking admin");
    else if (!found)
        store_error_set(error, STORE_NOT_FOUND, "There is no account named %s in %s.", name, path);
    if (!sqlite3_get_autocommit(db))
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(db);
    return error->status == STORE_OK;
}
