/*
 * profile — a player's page as anyone may ask for it (`profile`, PROTOCOL.md): who they are,
 * their hands and net per game, their ledger balance over time, and pages of their tables and of
 * their recent hands. Read from the store (store_profile_get, on the store's thread): the loop
 * never waits for it.
 *
 * Privacy, the promise of this module: a private table's code is its secret. Anyone sees a
 * player's name, totals and balance series; the tables and hands, with their codes, go to the
 * player themselves, and to anyone else only those of public tables.
 */
#ifndef PROFILE_H
#define PROFILE_H

#include <stdbool.h>

#include <jansson.h>

#include "lobby_internal.h"
#include "store.h"

#define PROFILE_PAGE 20 /* tables, and hands, in one reply */

/* The reply {"type":"profile",…} for p, as the player themselves (self) or anyone else sees it:
 * when not self, an entry of a private table is left out even if the store gave it. */
json_t *profile_json(const store_profile *p, bool self);

/* Handles a `profile` request: answers it (later, once the store has) or refuses it. */
void profile_request(request *q);

#endif
