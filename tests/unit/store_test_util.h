/*
 * store_test_util — helpers shared by the store's suites (test_migrate, test_store): a scratch
 * directory per test, and reading the database through a connection of the test's own, so that
 * the tests look at what is on disk rather than at what the store says.
 */
#ifndef STORE_TEST_UTIL_H
#define STORE_TEST_UTIL_H

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

typedef struct scratch_dir {
    char dir[64];
    char db[128];
} scratch_dir;

static inline void scratch_make(scratch_dir *s)
{
    snprintf(s->dir, sizeof s->dir, "/tmp/teahouse-store-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(s->dir));
    snprintf(s->db, sizeof s->db, "%s/test.db", s->dir);
}

/* Removes every file in the directory (the database, its -wal and -shm) and the directory. */
static inline void scratch_remove(scratch_dir *s)
{
    DIR *d = opendir(s->dir);
    if (d == NULL)
        return;
    struct dirent *e;
    char path[512];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", s->dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(s->dir);
}

static inline sqlite3 *db_open(const char *path)
{
    sqlite3 *db = NULL;
    ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 2000);
    return db;
}

static inline void db_exec(sqlite3 *db, const char *sql)
{
    char *err = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &err);
    ck_assert_msg(rc == SQLITE_OK, "%s: %s", sql, err ? err : sqlite3_errstr(rc));
}

/* The first column of the first row as an integer (-1 when there is no row). */
static inline long long db_int(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &stmt, NULL);
    ck_assert_msg(rc == SQLITE_OK, "%s: %s", sql, sqlite3_errmsg(db));
    long long value = sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : -1;
    sqlite3_finalize(stmt);
    return value;
}

/* The first column of the first row as text, copied into out ("" when none). */
static inline void db_text(sqlite3 *db, const char *sql, char *out, size_t cap)
{
    sqlite3_stmt *stmt = NULL;
    ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL), SQLITE_OK);
    const unsigned char *text = sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_text(stmt, 0) : NULL;
    snprintf(out, cap, "%s", text ? (const char *)text : "");
    sqlite3_finalize(stmt);
}

#endif
