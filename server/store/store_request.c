/*
 * store_request — the request functions of store.h, for every backend: each checks its input
 * (store_validate.c), copies it into its kind's typed request (strings copied, JSON serialised
 * compact, game states with sorted keys so that equal states are equal text) and hands it to the
 * core (store_core.c). A request refused here is answered through its callback, in turn, never
 * from inside the function.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "store_backend.h"
#include "store_password.h"
#include "store_validate.h"

static char *dump_json(const json_t *value)
{
    return value ? json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
}

/* A game state as stored: compact, keys sorted. */
static char *dump_state(const json_t *state)
{
    return state ? json_dumps(state, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
}

static bool out_of_memory(store_req *r)
{
    store_req_fail(r, STORE_INTERNAL, "Out of memory.");
    return true;
}

/* ---- Players, accounts, sessions ---- */

bool store_player_save(store *s, int64_t player_id, const char *nickname, store_id_cb cb, void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_PLAYER_SAVE, ctx);
    if (r == NULL)
        return false;
    r->cb.id = cb;
    if (store_validate_player(player_id, nickname, &r->error) == STORE_OK) {
        r->in.player.create = player_id == 0;
        r->in.player.player_id = player_id == 0 ? store_core_player_id(s) : player_id;
        snprintf(r->in.player.nickname, sizeof r->in.player.nickname, "%s", nickname);
    }
    store_req_submit(r);
    return true;
}

bool store_guest_create(store *s, const char *nickname, store_session_cb cb, void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_GUEST_CREATE, ctx);
    if (r == NULL)
        return false;
    r->cb.session = cb;
    if (store_validate_nickname(nickname, &r->error) == STORE_OK) {
        r->in.guest.player_id = store_core_player_id(s);
        snprintf(r->in.guest.nickname, sizeof r->in.guest.nickname, "%s", nickname);
        /* A few microseconds: no need for the thread pool. */
        store_token_new(r->out.session.token, r->in.guest.token_hash);
    }
    store_req_submit(r);
    return true;
}

bool store_guest_reserve(store *s, int64_t *player_id, char token[STORE_TOKEN_SIZE])
{
    if (s == NULL || store_core_closing(s))
        return false;
    unsigned char hash[STORE_TOKEN_HASH_BYTES];
    store_token_new(token, hash);
    *player_id = store_core_player_id(s);
    return true;
}

bool store_guest_keep(store *s, int64_t player_id, const char *nickname, const char *token, store_session_cb cb,
                      void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_GUEST_CREATE, ctx);
    if (r == NULL)
        return false;
    r->cb.session = cb;
    if (!store_core_player_id_given(s, player_id))
        store_req_fail(r, STORE_INVALID, "Player %" PRId64 " was never reserved as a guest.", player_id);
    else if (!store_token_hash(token, r->in.guest.token_hash))
        store_req_fail(r, STORE_INVALID, "A guest's token is %d characters of URL-safe base64.",
                       STORE_TOKEN_SIZE - 1);
    else if (store_validate_nickname(nickname, &r->error) == STORE_OK) {
        r->in.guest.player_id = player_id;
        snprintf(r->in.guest.nickname, sizeof r->in.guest.nickname, "%s", nickname);
    }
    store_req_submit(r);
    return true;
}

bool store_guests_expire(store *s, int64_t idle_seconds, int limit, store_count_cb cb, void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_GUESTS_EXPIRE, ctx);
    if (r == NULL)
        return false;
    r->cb.count = cb;
    if (idle_seconds < 1 || idle_seconds > INT64_MAX / 2000)
        store_req_fail(r, STORE_INVALID, "A guest expires after 1 second at least.");
    else if (limit < 1 || limit > STORE_EXPIRE_MAX)
        store_req_fail(r, STORE_INVALID, "Guests expire %d at a time at most.", STORE_EXPIRE_MAX);
    else
        r->in.expire = (store_in_expire){.seen_before_ms = store_now_ms(store_core_options(s)) - idle_seconds * 1000,
                                         .limit = limit};
    store_req_submit(r);
    return true;
}

bool store_account_create(store *s, const char *name, const char *password, int64_t guest_id, store_id_cb cb,
                          void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_ACCOUNT_CREATE, ctx);
    if (r == NULL)
        return false;
    r->cb.id = cb;
    if (store_validate_account(name, password, guest_id, &r->error) == STORE_OK &&
        (r->in.account.password = strdup(password)) == NULL)
        out_of_memory(r);
    if (r->error.status != STORE_OK) {
        store_req_submit(r); /* answered in turn */
        return true;
    }
    /* The name as kept: in NFC, with the keys that find the accounts it would look like. */
    if (!names_nfc(name, r->in.account.name, sizeof r->in.account.name) ||
        !names_account_keys(name, &r->in.account.keys)) {
        store_req_fail(r, STORE_INVALID, "The account name is too long once normalised (NFC); choose a shorter one.");
        store_req_submit(r);
        return true;
    }
    r->in.account.guest_id = guest_id;
    r->in.account.new_id = guest_id == 0 ? store_core_player_id(s) : 0;
    store_req_hash(r);
    return true;
}

bool store_login(store *s, const char *name, const char *password, store_session_cb cb, void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_LOGIN, ctx);
    if (r == NULL)
        return false;
    r->cb.session = cb;
    if (store_validate_login(name, password, &r->error) == STORE_OK) {
        if ((r->in.login.password = strdup(password)) == NULL)
            out_of_memory(r);
        else if (!names_nfc(name, r->in.login.name, sizeof r->in.login.name))
            store_req_fail(r, STORE_BAD_LOGIN, "Wrong account name or password."); /* no account is named so */
    }
    store_req_submit(r);
    return true;
}

bool store_session_lookup(store *s, const char *token, store_session_cb cb, void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_SESSION_LOOKUP, ctx);
    if (r == NULL)
        return false;
    r->cb.session = cb;
    if (!store_token_hash(token, r->in.session.token_hash))
        store_req_fail(r, STORE_NOT_FOUND, "There is no such session (unknown, or logged out); log in again.");
    store_req_submit(r);
    return true;
}

bool store_logout(store *s, const char *token, store_done_cb cb, void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_LOGOUT, ctx);
    if (r == NULL)
        return false;
    r->cb.done = cb;
    if (!store_token_hash(token, r->in.session.token_hash))
        store_req_fail(r, STORE_NOT_FOUND, "There is no such session (unknown, or already logged out).");
    store_req_submit(r);
    return true;
}

/* ---- Tables and hands ---- */

bool store_table_save(store *s, const store_table *t, store_id_cb cb, void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_TABLE_SAVE, ctx);
    if (r == NULL)
        return false;
    r->cb.id = cb;
    if (store_validate_table(t, &r->error) == STORE_OK) {
        store_in_table *in = &r->in.table;
        in->table = *t;
        in->table.options = NULL;
        in->table.game_state = NULL;
        in->options = t->options ? dump_json(t->options) : strdup("{}");
        in->game_state = dump_state(t->game_state);
        if (in->options == NULL || in->game_state == NULL)
            out_of_memory(r);
    }
    store_req_submit(r);
    return true;
}

bool store_hand_begin(store *s, const store_hand_start *h, store_id_cb cb, void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_HAND_BEGIN, ctx);
    if (r == NULL)
        return false;
    r->cb.id = cb;
    if (store_validate_hand_start(h, &r->error) == STORE_OK) {
        store_in_hand_begin *in = &r->in.hand_begin;
        in->table_id = h->table_id;
        in->number = h->number;
        in->seed = h->seed;
        in->deal = dump_json(h->deal);
        in->game_state = dump_state(h->game_state);
        in->options = h->options != NULL ? dump_json(h->options) : NULL;
        if (in->deal == NULL || in->game_state == NULL || (h->options != NULL && in->options == NULL))
            out_of_memory(r);
    }
    store_req_submit(r);
    return true;
}

bool store_action_append(store *s, int64_t hand_id, int64_t seq, int seat, const json_t *action, store_done_cb cb,
                         void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_ACTION_APPEND, ctx);
    if (r == NULL)
        return false;
    r->cb.done = cb;
    if (store_validate_action(hand_id, seq, seat, action, &r->error) == STORE_OK) {
        r->in.action = (store_in_action){.hand_id = hand_id, .seq = seq, .seat = seat, .action = dump_json(action)};
        if (r->in.action.action == NULL)
            out_of_memory(r);
    }
    store_req_submit(r);
    return true;
}

static bool copy_hand_end(store_in_hand_end *in, const store_hand_end *e)
{
    in->hand_id = e->hand_id;
    in->last_seq = e->last_seq;
    in->last_seat = e->last_seat;
    in->n_entries = e->n_entries;
    if (e->n_entries > 0) {
        in->entries = malloc(e->n_entries * sizeof *in->entries);
        if (in->entries == NULL)
            return false;
        memcpy(in->entries, e->entries, e->n_entries * sizeof *in->entries);
    }
    in->last_action = e->last_seq > 0 ? dump_json(e->last_action) : NULL;
    in->result = dump_json(e->result);
    in->next_game_state = dump_state(e->next_game_state);
    return (e->last_seq == 0 || in->last_action != NULL) && in->result != NULL && in->next_game_state != NULL;
}

bool store_hand_finish(store *s, const store_hand_end *e, store_done_cb cb, void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_HAND_FINISH, ctx);
    if (r == NULL)
        return false;
    r->cb.done = cb;
    if (store_validate_hand_end(e, &r->error) == STORE_OK && !copy_hand_end(&r->in.hand_end, e))
        out_of_memory(r);
    store_req_submit(r);
    return true;
}

/* ---- Recovery and history ---- */

bool store_recover(store *s, store_recovery **out, store_error *error)
{
    *out = NULL;
    store_req *r = store_req_new(s, STORE_KIND_RECOVER, NULL);
    if (r == NULL) {
        store_error_set(error, s && store_core_closing(s) ? STORE_CLOSED : STORE_INTERNAL,
                        "The store cannot take requests.");
        return false;
    }
    store_req_sync(r);
    *error = r->error;
    if (r->error.status == STORE_OK) {
        *out = r->out.recovery;
        r->out.recovery = NULL;
    }
    store_req_done(r);
    return *out != NULL;
}

bool store_recover_async(store *s, store_recovery_cb cb, void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_RECOVER, ctx);
    if (r == NULL)
        return false;
    r->cb.recovery = cb;
    store_req_submit(r);
    return true;
}

bool store_table_hands(store *s, int64_t table_id, int64_t before, int limit, store_hands_cb cb, void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_TABLE_HANDS, ctx);
    if (r == NULL)
        return false;
    r->cb.hands = cb;
    r->in.hands = (store_in_hands){.table_id = table_id, .before = before, .limit = limit};
    store_validate_page(before, limit, &r->error);
    store_req_submit(r);
    return true;
}

bool store_player_tables(store *s, int64_t player_id, const char *code, int limit, store_played_cb cb, void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_PLAYER_TABLES, ctx);
    if (r == NULL)
        return false;
    r->cb.played = cb;
    r->in.player_tables = (store_in_player_tables){.player_id = player_id, .limit = limit};
    if (limit < 1 || limit > STORE_PLAYER_TABLES_MAX)
        store_req_fail(r, STORE_INVALID, "A page of played tables is 1 to %d tables.", STORE_PLAYER_TABLES_MAX);
    else if (code == NULL || strlen(code) >= sizeof r->in.player_tables.code)
        store_req_fail(r, STORE_INVALID, "A table code is at most %zu bytes.", sizeof r->in.player_tables.code - 1);
    else
        snprintf(r->in.player_tables.code, sizeof r->in.player_tables.code, "%s", code);
    store_req_submit(r);
    return true;
}

bool store_hand_get(store *s, int64_t table_id, int64_t number, store_hand_cb cb, void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_HAND_GET, ctx);
    if (r == NULL)
        return false;
    r->cb.hand = cb;
    r->in.hand_get = (store_in_hand_get){.table_id = table_id, .number = number};
    store_req_submit(r);
    return true;
}

bool store_ledger_query(store *s, const store_ledger_filter *filter, int64_t before, int limit, bool with_totals,
                        store_ledger_cb cb, void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_LEDGER_QUERY, ctx);
    if (r == NULL)
        return false;
    r->cb.ledger = cb;
    if (store_validate_ledger_query(filter, before, limit, &r->error) == STORE_OK)
        r->in.ledger = (store_in_ledger){.filter = *filter, .before = before, .limit = limit,
                                         .with_totals = with_totals};
    store_req_submit(r);
    return true;
}

bool store_ledger_verify(store *s, store_verify_cb cb, void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_LEDGER_VERIFY, ctx);
    if (r == NULL)
        return false;
    r->cb.verify = cb;
    store_req_verify(r);
    return true;
}

/* ---- Admin sessions and the audit log ---- */

bool store_admin_session_open(store *s, int64_t player_id, int64_t seconds, store_admin_session_cb cb, void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_ADMIN_SESSION_OPEN, ctx);
    if (r == NULL)
        return false;
    r->cb.admin = cb;
    if (store_validate_admin_open(player_id, seconds, &r->error) == STORE_OK) {
        store_in_admin_open *in = &r->in.admin_open;
        in->player_id = player_id;
        in->seconds = seconds;
        store_token_new(r->out.admin.token, in->token_hash);
        /* The anti-forgery token is only compared, never used to find anything: its hash is not needed. */
        unsigned char unused[STORE_TOKEN_HASH_BYTES];
        store_token_new(in->csrf, unused);
    }
    store_req_submit(r);
    return true;
}

bool store_admin_session_lookup(store *s, const char *token, store_admin_session_cb cb, void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_ADMIN_SESSION_LOOKUP, ctx);
    if (r == NULL)
        return false;
    r->cb.admin = cb;
    if (!store_token_hash(token, r->in.session.token_hash))
        store_req_fail(r, STORE_NOT_FOUND, "There is no such admin session (unknown, or logged out); log in again.");
    store_req_submit(r);
    return true;
}

bool store_admin_session_close(store *s, const char *token, store_done_cb cb, void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_ADMIN_SESSION_CLOSE, ctx);
    if (r == NULL)
        return false;
    r->cb.done = cb;
    if (!store_token_hash(token, r->in.session.token_hash))
        store_req_fail(r, STORE_NOT_FOUND, "There is no such admin session (unknown, or already logged out).");
    store_req_submit(r);
    return true;
}

bool store_audit_append(store *s, int64_t player_id, const char *action, const json_t *details, store_id_cb cb,
                        void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_AUDIT_APPEND, ctx);
    if (r == NULL)
        return false;
    r->cb.id = cb;
    if (store_validate_audit(player_id, action, details, &r->error) == STORE_OK) {
        store_in_audit *in = &r->in.audit;
        in->player_id = player_id;
        snprintf(in->action, sizeof in->action, "%s", action);
        char *text = details ? json_dumps(details, JSON_COMPACT | JSON_SORT_KEYS) : strdup("{}");
        if (text == NULL)
            out_of_memory(r);
        else if (strlen(text) > STORE_AUDIT_DETAILS_MAX)
            store_req_fail(r, STORE_INVALID, "An audit entry's details are at most %d bytes of JSON.",
                           STORE_AUDIT_DETAILS_MAX);
        else
            snprintf(in->details, sizeof in->details, "%s", text);
        free(text);
    }
    store_req_submit(r);
    return true;
}

bool store_audit_list(store *s, int64_t before, int limit, store_audit_cb cb, void *ctx)
{
    return store_audit_query(s, NULL, before, limit, cb, ctx);
}

bool store_audit_query(store *s, const store_audit_filter *filter, int64_t before, int limit, store_audit_cb cb,
                       void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_AUDIT_LIST, ctx);
    if (r == NULL)
        return false;
    r->cb.audit = cb;
    if (store_validate_audit_page(before, limit, &r->error) == STORE_OK &&
        store_validate_audit_filter(filter, &r->error) == STORE_OK) {
        r->in.audit_list = (store_in_audit_list){.before = before, .limit = limit};
        if (filter != NULL)
            r->in.audit_list.filter = *filter;
    }
    store_req_submit(r);
    return true;
}

bool store_adjust(store *s, int64_t admin_id, int64_t player_id, int64_t units, const char *reason,
                  store_id_cb cb, void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_ADJUST, ctx);
    if (r == NULL)
        return false;
    r->cb.id = cb;
    if (store_validate_adjust(admin_id, player_id, units, reason, &r->error) == STORE_OK) {
        r->in.adjust = (store_in_adjust){.admin_id = admin_id, .player_id = player_id, .units = units};
        json_t *result = json_pack("{s:{s:I, s:I, s:I, s:s}}", "adjustment", "by", (json_int_t)admin_id, "player",
                                   (json_int_t)player_id, "units", (json_int_t)units, "reason", reason);
        r->in.adjust.result = dump_json(result);
        json_decref(result);
        if (r->in.adjust.result == NULL)
            out_of_memory(r);
    }
    store_req_submit(r);
    return true;
}

bool store_profile_get(store *s, const store_profile_query *query, store_profile_cb cb, void *ctx)
{
    store_req *r = store_req_new(s, STORE_KIND_PROFILE, ctx);
    if (r == NULL)
        return false;
    r->cb.profile = cb;
    if (query == NULL || query->limit < 1 || query->limit > STORE_PROFILE_PAGE_MAX)
        store_req_fail(r, STORE_INVALID, "A page of a profile is 1 to %d tables and hands.", STORE_PROFILE_PAGE_MAX);
    else if (query->tables_before < 0 || query->hands_before < 0)
        store_req_fail(r, STORE_INVALID, "A profile's page starts below a cursor of 0 or more.");
    else
        r->in.profile.query = *query;
    store_req_submit(r);
    return true;
}
