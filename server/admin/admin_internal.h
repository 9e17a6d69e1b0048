/*
 * admin_internal — what the admin API's files share (not for other modules): the request that
 * follows a call through the store's callbacks, the answers, the query parameters, and each
 * file's entry points.
 *
 *   admin.c            routing, the session (cookie, store, anti-forgery token), login, logout
 *   admin_ledger.c     the ledger as JSON pages and as a streamed CSV export; the audit log
 *   admin_read.c       players, tables and one hand (replayed step by step), read off the loop
 *   admin_integrity.c  the integrity check on a thread of its own, and its progress
 *   admin_adjust.c     adjustments
 *   admin_live.c       the tables open now and the server's health
 */
#ifndef ADMIN_INTERNAL_H
#define ADMIN_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>
#include <uv.h>

#include "admin.h"
#include "store.h"
#include "store_reader.h"
#include "throttle.h"

typedef enum route_kind {
    ROUTE_LOGIN,
    ROUTE_LOGOUT,
    ROUTE_LEDGER,
    ROUTE_LEDGER_CSV,
    ROUTE_AUDIT,
    ROUTE_PLAYERS,
    ROUTE_PLAYER,
    ROUTE_TABLES,
    ROUTE_TABLE,
    ROUTE_HAND,
    ROUTE_INTEGRITY_START,
    ROUTE_INTEGRITY,
    ROUTE_ADJUST,
    ROUTE_LIVE,
} route_kind;

typedef struct admin_req admin_req;
typedef struct admin_integrity admin_integrity;

struct admin {
    uv_loop_t *loop;
    store *st;
    admin_config config;
    throttle *logins;   /* failed logins, per "addr:<peer>" and "name:<account name>" */
    admin_req *live;    /* requests not yet answered */
    admin_integrity *integrity;
};

struct admin_req {
    admin_req *prev, *next;
    admin *a;
    net_request *request;
    route_kind route;
    int64_t id;                    /* the ID of a route ending in one */
    store_admin_session session;   /* the caller's, once looked up */
    char token[STORE_TOKEN_SIZE];  /* the cookie's */
    /* login */
    char name[STORE_NAME_MAX + 1];
    char peer_key[80], name_key[STORE_NAME_MAX + 8];
    /* ledger, audit */
    store_ledger_filter filter;
    store_audit_filter audit;
    int64_t before;
    int limit;
    /* CSV export */
    bool streaming, querying;
    int64_t rows_sent;
    /* reads off the loop (admin_read.c) */
    uv_work_t work;
    store_player_filter players;
    store_table_filter tables;
    json_t *answer;                /* built by the worker */
    store_error error;
    /* adjustments */
    int64_t adjust_player, adjust_units;
    char adjust_reason[4 * STORE_ADJUST_REASON_MAX + 1];
};

/* ---- admin.c: requests and answers ---- */

void admin_req_free(admin_req *r);
void admin_respond_json(net_request *request, unsigned status, json_t *body);
void admin_respond_error(net_request *request, unsigned status, const char *code, const char *message);
/* Answer r and free it. */
void admin_finish_json(admin_req *r, unsigned status, json_t *body);
void admin_finish_error(admin_req *r, unsigned status, const char *code, const char *message);
void admin_finish_store_error(admin_req *r, const store_error *error);
void admin_finish_closed(admin_req *r); /* 503: the store is closing */

/* An integer query parameter: absent leaves *out alone; false (with why) if not a whole number
 * from min to max. */
bool admin_int_param(const net_request *request, const char *name, int64_t min, int64_t max, int64_t *out,
                     char *why, size_t cap);
/* A text query parameter of at most cap - 1 bytes: absent leaves out alone. */
bool admin_text_param(const net_request *request, const char *name, char *out, size_t cap, char *why,
                      size_t why_cap);

/* ---- Each route ---- */

void admin_ledger_page(admin_req *r);
void admin_ledger_export(admin_req *r);
void admin_ledger_writable(admin_req *r);  /* the export's client read what was written */
void admin_audit_list(admin_req *r);

void admin_players(admin_req *r);
void admin_player(admin_req *r);
void admin_tables(admin_req *r);
void admin_table(admin_req *r);
void admin_hand(admin_req *r);

/* The hand's every step rebuilt from what the reader answered ({"hand","lines","replay"}), in the
 * API's shape {"hand","lines","steps"}: step 0 the deal, then one per action, each with the
 * game's view_admin after it. NULL (with why) when the game is unknown or the log does not replay. */
json_t *admin_hand_steps(json_t *stored, char *why, size_t cap);

admin_integrity *admin_integrity_create(void);
void admin_integrity_destroy(admin_integrity *ig);   /* stops a running check and waits for it */
void admin_integrity_start(admin_req *r);
void admin_integrity_status(admin_req *r);

void admin_adjust(admin_req *r);

void admin_live(admin_req *r);

#endif
