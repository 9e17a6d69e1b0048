/*
 * store_db_ledger — the ledger's key on the SQLite database: the key record (store_ledger.h) that
 * the server writes when the ledger gets its key, and the whole-ledger check, one connection at a
 * time and without threads (store_db.h).
 *
 * When a ledger may get its key record: only when it has no rows yet, or when its key file was
 * made just now. A ledger with rows and no record, next to a key file that already existed, is a
 * ledger someone changed (or an old one the operator must bring to a new key on purpose): writing
 * a record then would let a forger who deleted the record have rewritten rows pass as older than
 * the key. A record is never rewritten.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "store_backend.h"
#include "store_db.h"
#include "store_key.h"
#include "store_ledger.h"
#include "store_pg.h"
#include "store_sqlite_error.h"

/* ---- The key record ---- */

static const char anchor_read_sql[] = "SELECT v1_rows, v1_last_hash, keyed_at, mac FROM ledger_key WHERE id = 1";
static const char anchor_write_sql[] =
    "INSERT INTO ledger_key (id, v1_rows, v1_last_hash, keyed_at, mac) VALUES (1, ?1, ?2, ?3, ?4)";
static const char ledger_tail_sql[] = "SELECT id, hash FROM ledger ORDER BY id DESC LIMIT 1";

static void column_text(char *out, size_t cap, sqlite3_stmt *stmt, int column)
{
    const unsigned char *text = sqlite3_column_text(stmt, column);
    snprintf(out, cap, "%s", text ? (const char *)text : "");
}

bool store_db_anchor_read(sqlite3 *db, const char *path, store_ledger_anchor *anchor, bool *found,
                          store_error *error)
{
    memset(anchor, 0, sizeof *anchor);
    *found = false;
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_prepare_v2(db, anchor_read_sql, -1, &stmt, NULL);
    if (rc == SQLITE_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        *found = true;
        anchor->v1_rows = sqlite3_column_int64(stmt, 0);
        column_text(anchor->v1_last_hash, sizeof anchor->v1_last_hash, stmt, 1);
        anchor->keyed_at_ms = sqlite3_column_int64(stmt, 2);
        column_text(anchor->mac, sizeof anchor->mac, stmt, 3);
        rc = SQLITE_DONE;
    }
    sqlite3_finalize(stmt);
    if (rc != SQLITE_DONE) {
        store_sqlite_error(error, db, path, rc, "reading the ledger's key record");
        return false;
    }
    return true;
}

/* The ledger's last row id (0 when empty) and hash (64 zeros when empty). */
static bool ledger_tail(sqlite3 *db, const char *path, int64_t *last_id, char hash[STORE_HASH_HEX],
                        store_error *error)
{
    *last_id = 0;
    snprintf(hash, STORE_HASH_HEX, "%s", STORE_LEDGER_ZERO_HASH);
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_prepare_v2(db, ledger_tail_sql, -1, &stmt, NULL);
    if (rc == SQLITE_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        *last_id = sqlite3_column_int64(stmt, 0);
        column_text(hash, STORE_HASH_HEX, stmt, 1);
        rc = SQLITE_DONE;
    }
    sqlite3_finalize(stmt);
    if (rc != SQLITE_DONE) {
        store_sqlite_error(error, db, path, rc, "reading the end of the ledger");
        return false;
    }
    return true;
}

static bool anchor_write(sqlite3 *db, const char *path, const store_ledger_anchor *anchor, store_error *error)
{
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_prepare_v2(db, anchor_write_sql, -1, &stmt, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_int64(stmt, 1, anchor->v1_rows);
        sqlite3_bind_text(stmt, 2, anchor->v1_last_hash, -1, SQLITE_STATIC);
        sqlite3_bind_int64(stmt, 3, anchor->keyed_at_ms);
        sqlite3_bind_text(stmt, 4, anchor->mac, -1, SQLITE_STATIC);
        rc = sqlite3_step(stmt);
    }
    sqlite3_finalize(stmt);
    if (rc != SQLITE_DONE) {
        store_sqlite_error(error, db, path, rc, "writing the ledger's key record");
        return false;
    }
    return true;
}

/* Writes the key record for the ledger as it is now, in a transaction of its own (so that the
 * rows it counts cannot change meanwhile). */
static bool anchor_now(sqlite3 *db, const char *path, bool key_is_new, const unsigned char *key,
                       const char *key_path, const store_options *o, store_error *error)
{
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        store_sqlite_error(error, db, path, sqlite3_errcode(db), "writing the ledger's key record");
        return false;
    }
    store_ledger_anchor anchor = {.keyed_at_ms = store_now_ms(o)};
    bool ok = ledger_tail(db, path, &anchor.v1_rows, anchor.v1_last_hash, error);
    if (ok && anchor.v1_rows > 0 && !key_is_new) {
        store_error_set(error, STORE_CORRUPT,
                        "The ledger of %s has %" PRId64 " rows but no key record, while its key %s already exists:"
                        " the database was changed, or it is an older database never opened with this key. If it"
                        " is an older one being upgraded, move %s away and start again: a new key is made for it.",
                        path, anchor.v1_rows, key_path, key_path);
        ok = false;
    }
    if (ok) {
        store_ledger_anchor_mac(&anchor, key, anchor.mac);
        ok = anchor_write(db, path, &anchor, error);
    }
    if (ok && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        store_sqlite_error(error, db, path, sqlite3_errcode(db), "writing the ledger's key record");
        ok = false;
    }
    if (!ok)
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return ok;
}

bool store_db_ledger_key(sqlite3 *db, const char *path, const char *key_path, const store_options *o,
                         unsigned char key[STORE_LEDGER_KEY_BYTES], store_error *error)
{
    store_ledger_anchor anchor;
    bool found;
    if (!store_db_anchor_read(db, path, &anchor, &found, error))
        return false;
    store_status status = store_key_load(key_path, key, error);
    bool key_is_new = false;
    if (status == STORE_NOT_FOUND && found) {
        store_error_set(error, STORE_NOT_FOUND,
                        "The ledger of %s was keyed with %s, which is missing: restore that file from a backup."
                        " Without it no row can be added, and the rows after row %" PRId64 " cannot be verified.",
                        path, key_path, anchor.v1_rows);
        return false;
    }
    if (status == STORE_NOT_FOUND) {
        status = store_key_create(key_path, key, error);
        key_is_new = status == STORE_OK;
    }
    if (status != STORE_OK)
        return false;
    if (found && !store_ledger_anchor_valid(&anchor, key)) {
        store_error_set(error, STORE_CORRUPT,
                        "The ledger key %s is not the key of %s (its key record does not match): a wrong key file,"
                        " or a changed database.", key_path, path);
        sodium_memzero(key, STORE_LEDGER_KEY_BYTES);
        return false;
    }
    if (found)
        return true;
    if (anchor_now(db, path, key_is_new, key, key_path, o, error))
        return true;
    if (key_is_new) /* nothing was keyed with it: the next start makes a fresh one */
        unlink(key_path);
    sodium_memzero(key, STORE_LEDGER_KEY_BYTES);
    return false;
}

/* ---- The ledger check ---- */

/* Every row in id order, with the player's running sum of units. */
static const char verify_rows_sql[] =
    "SELECT id, table_id, hand_id, player_id, seat, units, reason, balance_after, at, prev_hash, hash,"
    " sum(units) OVER (PARTITION BY player_id ORDER BY id ROWS UNBOUNDED PRECEDING)"
    " FROM ledger ORDER BY id";

/* The first row of the first hand (by that row) whose rows do not sum to zero. */
static const char verify_hands_sql[] =
    "SELECT min(id), hand_id, sum(units) FROM ledger GROUP BY hand_id HAVING sum(units) <> 0 ORDER BY 1 LIMIT 1";

/* How the rows are to be hashed: rows 1 to v1_rows without a key (the last of them has the hash
 * v1_last_hash when the ledger has a key record), the others with key. */
typedef struct chain_rule {
    const unsigned char *key;
    bool anchored;
    int64_t v1_rows;
    const char *v1_last_hash;
} chain_rule;

static bool is_hash_text(const unsigned char *text)
{
    if (text == NULL || strlen((const char *)text) != STORE_HASH_HEX - 1)
        return false;
    for (int i = 0; i < STORE_HASH_HEX - 1; i++)
        if (!((text[i] >= '0' && text[i] <= '9') || (text[i] >= 'a' && text[i] <= 'f')))
            return false;
    return true;
}

static void check_fail(store_ledger_check *check, int64_t row, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static void check_fail(store_ledger_check *check, int64_t row, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(check->why, sizeof check->why, format, args);
    va_end(args);
    check->ok = false;
    check->first_bad_row = row;
}

/* Checks one row against the previous one; false (with check filled) at the first fault. */
static bool check_row(sqlite3_stmt *stmt, const chain_rule *rule, int64_t *expected_id, char prev[STORE_HASH_HEX],
                      store_ledger_check *check)
{
    const int64_t id = sqlite3_column_int64(stmt, 0);
    const bool is_bot = sqlite3_column_type(stmt, 3) == SQLITE_NULL;
    const unsigned char *reason = sqlite3_column_text(stmt, 6);
    const unsigned char *prev_hash = sqlite3_column_text(stmt, 9);
    const unsigned char *hash = sqlite3_column_text(stmt, 10);
    if (id != *expected_id) {
        check_fail(check, id, "row ids jump from %" PRId64 " to %" PRId64 ": rows are missing", *expected_id - 1, id);
        return false;
    }
    if (!is_hash_text(prev_hash) || strcmp((const char *)prev_hash, prev) != 0) {
        check_fail(check, id, "its previous hash is not the hash of row %" PRId64, id - 1);
        return false;
    }
    if (!is_hash_text(hash) || reason == NULL) {
        check_fail(check, id, "its hash or reason is malformed");
        return false;
    }
    store_ledger_row row = {
        .id = id,
        .table_id = sqlite3_column_int64(stmt, 1),
        .hand_id = sqlite3_column_int64(stmt, 2),
        .is_bot = is_bot,
        .player_id = sqlite3_column_int64(stmt, 3),
        .seat = sqlite3_column_int(stmt, 4),
        .units = sqlite3_column_int64(stmt, 5),
        .reason = (const char *)reason,
        .balance_after = sqlite3_column_int64(stmt, 7),
        .at_ms = sqlite3_column_int64(stmt, 8),
        .prev_hash = (const char *)prev_hash,
    };
    const bool v1 = id <= rule->v1_rows;
    char computed[STORE_HASH_HEX];
    store_ledger_hash(&row, v1 ? NULL : rule->key, computed);
    if (strcmp(computed, (const char *)hash) != 0) {
        check_fail(check, id, v1 ? "its hash does not match its fields (a row from before the ledger's key)"
                                 : "its hash does not match its fields and the ledger's key");
        return false;
    }
    if (rule->anchored && v1 && id == rule->v1_rows && strcmp((const char *)hash, rule->v1_last_hash) != 0) {
        check_fail(check, id, "it is not the last row the key record names from before the key");
        return false;
    }
    const int64_t running = sqlite3_column_int64(stmt, 11);
    if (!is_bot && row.balance_after != running) {
        check_fail(check, id, "its balance %" PRId64 " does not follow from the player's rows (%" PRId64 ")",
                   row.balance_after, running);
        return false;
    }
    memcpy(prev, hash, STORE_HASH_HEX);
    (*expected_id)++;
    return true;
}

static bool verify_chain(sqlite3 *db, const char *path, const chain_rule *rule, store_ledger_check *check,
                         store_error *error)
{
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_prepare_v2(db, verify_rows_sql, -1, &stmt, NULL);
    if (rc != SQLITE_OK) {
        store_sqlite_error(error, db, path, rc, "checking the ledger");
        return false;
    }
    int64_t expected_id = 1;
    char prev[STORE_HASH_HEX] = STORE_LEDGER_ZERO_HASH;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        check->rows_checked++;
        if (check->rows_checked <= rule->v1_rows)
            check->v1_rows++;
        if (!check_row(stmt, rule, &expected_id, prev, check)) {
            rc = SQLITE_DONE;
            break;
        }
    }
    sqlite3_finalize(stmt);
    if (rc != SQLITE_DONE) {
        store_sqlite_error(error, db, path, rc, "checking the ledger");
        return false;
    }
    if (check->ok && rule->anchored && check->rows_checked < rule->v1_rows)
        check_fail(check, check->rows_checked + 1,
                   "the key record counts %" PRId64 " rows from before the key: rows are missing", rule->v1_rows);
    return true;
}

static bool verify_hands(sqlite3 *db, const char *path, store_ledger_check *check, store_error *error)
{
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_prepare_v2(db, verify_hands_sql, -1, &stmt, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW)
        check_fail(check, sqlite3_column_int64(stmt, 0), "hand %" PRId64 "'s rows sum to %" PRId64 ", not zero",
                   (int64_t)sqlite3_column_int64(stmt, 1), (int64_t)sqlite3_column_int64(stmt, 2));
    sqlite3_finalize(stmt);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        store_sqlite_error(error, db, path, rc, "checking the hands' sums");
        return false;
    }
    return true;
}

/* How to hash the rows, from the key record and the key; false when the check cannot even start
 * (error filled) or fails before the first row (check filled). */
static bool chain_rule_of(sqlite3 *db, const char *path, const unsigned char *key, const char *key_path,
                          store_ledger_anchor *anchor, chain_rule *rule, store_ledger_check *check, store_error *error)
{
    bool found;
    if (!store_db_anchor_read(db, path, anchor, &found, error))
        return false;
    *rule = (chain_rule){.key = key, .anchored = found, .v1_rows = found ? anchor->v1_rows : INT64_MAX,
                         .v1_last_hash = anchor->v1_last_hash};
    check->keyed = found;
    if (found && key == NULL) {
        store_error_set(error, STORE_NOT_FOUND,
                        "The ledger of %s is keyed, but its key %s is missing: without it only the %" PRId64
                        " rows from before the key could be checked. Give the key with --ledger-key FILE.",
                        path, key_path ? key_path : "file", anchor->v1_rows);
        return false;
    }
    if (found && !store_ledger_anchor_valid(anchor, key)) {
        check_fail(check, 1, "the ledger's key record does not match the key %s: a wrong key, or a changed record",
                   key_path ? key_path : "given");
        return false;
    }
    int64_t rows = 0;
    char last[STORE_HASH_HEX];
    if (!found && key != NULL && ledger_tail(db, path, &rows, last, error) && rows > 0) {
        /* Rows and a key, but no record: the record was removed, or the rows were not written
         * with this key. */
        check_fail(check, 1, "the ledger has no key record, yet a key %s exists: its rows were not written with it",
                   key_path ? key_path : "was given");
        return false;
    }
    return error->status == STORE_OK;
}

/* Row checks first: a row that fails its own check is a more precise answer than the first row
 * of its unbalanced hand. All in one read transaction, so the rows are one snapshot. */
bool store_db_verify_ledger(sqlite3 *db, const char *path, const unsigned char *key, const char *key_path,
                            store_ledger_check *check, store_error *error)
{
    memset(check, 0, sizeof *check);
    check->ok = true;
    error->status = STORE_OK;
    error->message[0] = '\0';
    int rc = sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        store_sqlite_error(error, db, path, rc, "checking the ledger");
        return false;
    }
    store_ledger_anchor anchor;
    chain_rule rule;
    bool ok = chain_rule_of(db, path, key, key_path, &anchor, &rule, check, error);
    if (ok)
        ok = verify_chain(db, path, &rule, check, error) && (!check->ok || verify_hands(db, path, check, error));
    else
        ok = error->status == STORE_OK; /* a check that failed before its first row is still an answer */
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    return ok;
}

bool store_ledger_verify_path(const char *path, const char *key_path, store_ledger_check *check, store_error *error)
{
    memset(check, 0, sizeof *check);
    error->status = STORE_OK;
    error->message[0] = '\0';
    if (sodium_init() < 0) {
        store_error_set(error, STORE_INTERNAL, "libsodium could not start.");
        return false;
    }
    if (store_pg_is_uri(path))
        return store_pg_verify_path(path, key_path, check, error);
    char key_file[4096];
    if (!store_key_path(key_path, path, key_file, sizeof key_file, error))
        return false;
    const store_options o = store_options_default();
    sqlite3 *db = store_db_open_readonly(path, &o, error);
    if (db == NULL)
        return false;
    unsigned char key[STORE_LEDGER_KEY_BYTES];
    store_status status = store_key_load(key_file, key, error);
    bool ok = false;
    if (status == STORE_OK || status == STORE_NOT_FOUND) {
        error->status = STORE_OK;
        ok = store_db_verify_ledger(db, path, status == STORE_OK ? key : NULL, key_file, check, error);
    }
    sodium_memzero(key, sizeof key);
    sqlite3_close(db);
    return ok;
}
