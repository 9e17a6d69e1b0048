/*
 * store_validate — the checks every request's input passes before any backend sees it, so that
 * every backend refuses the same inputs with the same sentences. Each returns STORE_OK, or
 * STORE_INVALID (STORE_BAD_LOGIN for a login that no account could match) with error filled.
 * What only the data can tell (a taken name, an unknown hand, an action number already used) is
 * the backend's to check.
 */
#ifndef STORE_VALIDATE_H
#define STORE_VALIDATE_H

#include <stdint.h>

#include <jansson.h>

#include "store.h"

store_status store_validate_nickname(const char *nickname, store_error *error);
store_status store_validate_player(int64_t player_id, const char *nickname, store_error *error);
store_status store_validate_account(const char *name, const char *password, int64_t guest_id, store_error *error);
store_status store_validate_login(const char *name, const char *password, store_error *error);
store_status store_validate_table(const store_table *t, store_error *error);
store_status store_validate_hand_start(const store_hand_start *h, store_error *error);
store_status store_validate_action(int64_t hand_id, int64_t seq, int seat, const json_t *action, store_error *error);
store_status store_validate_hand_end(const store_hand_end *e, store_error *error);
store_status store_validate_page(int64_t before, int limit, store_error *error);
/* store_ledger_query: ids and bounds not negative, texts NUL-terminated within their arrays, a
 * time range not reversed, a page of 1 to STORE_LEDGER_PAGE_MAX rows. */
store_status store_validate_ledger_query(const store_ledger_filter *filter, int64_t before, int limit,
                                         store_error *error);
/* store_admin_session_open: a player id above 0, 1 second to 7 days. */
store_status store_validate_admin_open(int64_t player_id, int64_t seconds, store_error *error);
/* store_audit_append: an admin id above 0, an action of [a-z0-9_.] (1 to 32 bytes), details an
 * object or NULL (their length is checked once they are serialised). */
store_status store_validate_audit(int64_t player_id, const char *action, const json_t *details, store_error *error);
store_status store_validate_audit_page(int64_t before, int limit, store_error *error);
/* store_audit_query's filter: an action of [a-z0-9_.] or "", a player id of 0 or more. */
store_status store_validate_audit_filter(const store_audit_filter *filter, store_error *error);
/* store_adjust: ids above 0, units not 0 and within STORE_ADJUST_UNITS_MAX, a reason of 1 to
 * STORE_ADJUST_REASON_MAX characters of valid UTF-8 with no control character. */
store_status store_validate_adjust(int64_t admin_id, int64_t player_id, int64_t units, const char *reason,
                                   store_error *error);

#endif
