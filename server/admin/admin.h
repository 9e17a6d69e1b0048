/*
 * admin — the admin web API under /api/admin/ on the game port (protocol/PROTOCOL.md, "Admin
 * HTTP API"): an admin logs in with an account name and password, gets an admin session in an
 * HttpOnly, SameSite=Strict cookie and an anti-forgery token, and reads the ledger (as JSON pages
 * or a streamed CSV export), players, tables, every step of a hand, the tables open now, and the
 * audit log of what admins did; runs the integrity check; and books adjustments.
 *
 * Promises: every route but login answers 403 without the cookie of a live admin session (an
 * account whose admin flag is cleared loses it at once); every POST but login also needs the
 * X-CSRF-Token header equal to the session's token; logins are throttled per client address and
 * per account name; login, logout, a ledger export, a hand viewed, an adjustment and an
 * integrity check started are each written to the audit log before they are answered. Filters
 * come from query parameters and are passed to the store as values, never as SQL; a bad one is
 * answered 400 with the reason. Heavy reads and the integrity check run off the loop, on
 * connections of their own (store_reader.h), so they never hold up a table.
 */
#ifndef ADMIN_H
#define ADMIN_H

#include <uv.h>

#include "net.h"
#include "store.h"

#define ADMIN_SESSION_SECONDS (8 * 3600) /* an admin session's lifetime */

typedef struct admin admin;

typedef struct admin_config {
    /* The store's database and ledger key, read off the loop on connections of their own (players,
     * tables, hands, the integrity check); db_path NULL: those routes answer 503. */
    const char *db_path;
    const char *ledger_key_path;     /* NULL or "": "<db_path>.key" */
    /* What GET live answers: {"tables":[…],"health":{…}} (a new reference), on the loop thread;
     * NULL: no tables and no figures. */
    json_t *(*live)(void *ctx);
    void *live_ctx;
} admin_config;

/* Adds the routes to server (two of its NET_ROUTES_MAX); NULL (logged) when they cannot be.
 * config's texts must outlive the admin. */
admin *admin_create(uv_loop_t *loop, net_server *server, store *st, const admin_config *config);

/* After net_destroy (every request is answered or dropped by then): frees what is left. */
void admin_destroy(admin *a);

#endif
