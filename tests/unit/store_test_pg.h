/*
 * store_test_pg — helpers for running the store's suites on PostgreSQL: a database of the test's
 * own in the throwaway cluster tests/pg/with_cluster.sh started (TEAHOUSE_TEST_PG names its
 * "postgres" database), and reading it through a connection of the test's own, so that the tests
 * look at what was committed rather than at what the store says.
 */
#ifndef STORE_TEST_PG_H
#define STORE_TEST_PG_H

#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>

/* The cluster's URI, or NULL when the tests were not started beside one. */
static inline const char *pg_test_base(void)
{
    const char *uri = getenv("TEAHOUSE_TEST_PG");
    return uri && uri[0] ? uri : NULL;
}

/* The base URI with its database name replaced by name ("postgresql:///NAME?host=…"). */
static inline void pg_test_uri(char *out, size_t cap, const char *name)
{
    const char *base = pg_test_base();
    const char *query = strchr(base, '?');
    snprintf(out, cap, "postgresql:///%s%s", name, query ? query : "");
}

static inline PGconn *pg_test_connect(const char *uri)
{
    PGconn *c = PQconnectdb(uri);
    ck_assert_msg(PQstatus(c) == CONNECTION_OK, "connecting to %s: %s", uri, PQerrorMessage(c));
    PQclear(PQexec(c, "SET client_min_messages = warning"));
    return c;
}

static inline void pg_test_exec(const char *uri, const char *sql)
{
    PGconn *c = pg_test_connect(uri);
    PGresult *r = PQexec(c, sql);
    ck_assert_msg(PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK, "%s: %s", sql,
                  PQerrorMessage(c));
    PQclear(r);
    PQfinish(c);
}

/* The first column of the first row as text ("" when none). */
static inline void pg_test_text(const char *uri, const char *sql, char *out, size_t cap)
{
    PGconn *c = pg_test_connect(uri);
    PGresult *r = PQexec(c, sql);
    ck_assert_msg(PQresultStatus(r) == PGRES_TUPLES_OK, "%s: %s", sql, PQerrorMessage(c));
    snprintf(out, cap, "%s", PQntuples(r) > 0 && !PQgetisnull(r, 0, 0) ? PQgetvalue(r, 0, 0) : "");
    PQclear(r);
    PQfinish(c);
}

/* The first column of the first row as an integer, a boolean as 0 or 1 (-1 when there is no row). */
static inline long long pg_test_int(const char *uri, const char *sql)
{
    char text[64];
    PGconn *c = pg_test_connect(uri);
    PGresult *r = PQexec(c, sql);
    ck_assert_msg(PQresultStatus(r) == PGRES_TUPLES_OK, "%s: %s", sql, PQerrorMessage(c));
    const bool none = PQntuples(r) == 0;
    snprintf(text, sizeof text, "%s", none ? "" : PQgetvalue(r, 0, 0));
    PQclear(r);
    PQfinish(c);
    if (none)
        return -1;
    if (text[0] == 't' || text[0] == 'f')
        return text[0] == 't';
    return strtoll(text, NULL, 10);
}

/* Runs sql expecting PostgreSQL to refuse it: its message into out (the test fails if it ran). */
static inline void pg_test_refused(const char *uri, const char *sql, char *out, size_t cap)
{
    PGconn *c = pg_test_connect(uri);
    PGresult *r = PQexec(c, sql);
    const bool refused = PQresultStatus(r) == PGRES_FATAL_ERROR;
    snprintf(out, cap, "%s", PQerrorMessage(c));
    PQclear(r);
    PQfinish(c);
    ck_assert_msg(refused, "%s ran", sql);
}

/* A new empty database for one test: its name into name, its URI into uri. */
static inline void pg_test_create(char *name, size_t name_cap, char *uri, size_t uri_cap)
{
    static int made;
    snprintf(name, name_cap, "t_%ld_%d", (long)getpid(), made++);
    char sql[128];
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", name);
    pg_test_exec(pg_test_base(), sql);
    pg_test_uri(uri, uri_cap, name);
}

static inline void pg_test_drop(const char *name)
{
    char sql[128];
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s WITH (FORCE)", name);
    pg_test_exec(pg_test_base(), sql);
}

#endif
