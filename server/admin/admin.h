/*
 * admin — the admin web API under /api/admin/ on the game port (protocol/PROTOCOL.md, "Admin
 * HTTP API"): an admin logs in with an account name and password, gets an admin session in an
 * HttpOnly, SameSite=Strict cookie and an anti-forgery token, and reads the ledger (as JSON pages
 * or a streamed CSV export) and the audit log of what admins did.
 *
 * Promises: every route but login answers 403 without the cookie of a live admin session (an
 * account whose admin flag is cleared loses it at once); every POST but login also needs the
 * X-CSRF-Token header equal to the session's token; logins are throttled per client address and
 * per account name; login, a ledger export and logout are each written to the audit log before
 * they are answered. Filters come from query parameters and are passed to the store as values,
 * never as SQL; a bad one is answered 400 with the reason.
 */
#ifndef ADMIN_H
#define ADMIN_H

#include <uv.h>

#include "net.h"
#include "store.h"

#define ADMIN_SESSION_SECONDS (8 * 3600) /* an admin session's lifetime */

typedef struct admin admin;

/* Adds the routes to server (two of its NET_ROUTES_MAX); NULL (logged) when they cannot be. */
admin *admin_create(uv_loop_t *loop, net_server *server, store *st);

/* After net_destroy (every request is answered or dropped by then): frees what is left. */
void admin_destroy(admin *a);

#endif
