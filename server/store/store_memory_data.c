/*
 * store_memory_data — the in-memory store's data and its backend functions (store_backend.h):
 * the same rules as the SQLite backend, checked in the same order with the same sentences, over
 * plain arrays. Each function checks everything and allocates what it needs before it changes
 * anything, so a failed request leaves nothing and undo always says so; begin, commit and
 * rollback have nothing to do.
 *
 * Answers are deep copies (as the SQLite store parses them afresh), so that a caller may keep or
 * change what it is given without touching what is stored.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_ledger.h"
#include "store_memory_internal.h"

/* ---- Helpers ---- */

static store_status no_memory(store_error *error)
{
    return store_error_set(error, STORE_INTERNAL, "Out of memory in the in-memory store.");
}

/* Room for `need` elements of `size` bytes in *array. */
bool store_memory_reserve(void **array, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t grown = *cap ? *cap * 2 : 16;
    while (grown < need)
        grown *= 2;
    void *p = realloc(*array, grown * size);
    if (p == NULL)
        return false;
    *array = p;
    *cap = grown;
    return true;
}

static bool reserve(void **array, size_t *cap, size_t need, size_t size)
{
    return store_memory_reserve(array, cap, need, size);
}

mem_player *store_memory_find_player(store_memory *m, int64_t id)
{
    for (size_t i = 0; id > 0 && i < m->n_players; i++)
        if (m->players[i].pub.id == id)
            return &m->players[i];
    return NULL;
}

static mem_player *player_at(store_memory *m, int64_t id) { return store_memory_find_player(m, id); }

static store_table *table_at(store_memory *m, int64_t id)
{
    return id >= 1 && (uint64_t)id <= m->n_tables ? &m->tables[id - 1] : NULL;
}

static mem_hand *hand_at(store_memory *m, int64_t id)
{
    return id >= 1 && (uint64_t)id <= m->n_hands ? &m->hands[id - 1] : NULL;
}

static json_t *parse(const char *text)
{
    return text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
}

static bool ascii_equal_nocase(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a + 32) : *a;
        char y = *b >= 'A' && *b <= 'Z' ? (char)(*b + 32) : *b;
        if (x != y)
            return false;
    }
    return *a == *b;
}

mem_player *store_memory_account(store_memory *m, const char *name)
{
    for (size_t i = 0; i < m->n_players; i++)
        if (m->players[i].pub.is_account && ascii_equal_nocase(m->players[i].pub.account_name, name))
            return &m->players[i];
    return NULL;
}

/* Whether an account has one of these look-alike keys. */
static bool look_alike_account(const store_memory *m, const names_keys *keys)
{
    for (size_t i = 0; i < m->n_players; i++) {
        const mem_player *p = &m->players[i];
        if (p->pub.is_account && (strcmp(p->keys.look, keys->look) == 0 || strcmp(p->keys.fold, keys->fold) == 0))
            return true;
    }
    return false;
}

/* ---- Transactions: nothing to do, every function is atomic by itself ---- */

static bool mem_begin(void *b, bool writes, store_error *error)
{
    (void)b;
    (void)writes;
    (void)error;
    return true;
}

static bool mem_commit(void *b, store_error *error)
{
    (void)b;
    (void)error;
    return true;
}

static void mem_nothing(void *b) { (void)b; }

static store_undo mem_undo(void *b)
{
    (void)b;
    return STORE_UNDO_NONE;
}

/* ---- Players, accounts, sessions ---- */

/* A new guest of that id (room reserved by the caller); its id. */
static int64_t add_guest(store_memory *m, int64_t id, const char *nickname, int64_t now)
{
    mem_player *p = &m->players[m->n_players++];
    memset(p, 0, sizeof *p);
    p->pub.id = id;
    snprintf(p->pub.nickname, sizeof p->pub.nickname, "%s", nickname);
    p->pub.created_at_ms = p->pub.last_seen_at_ms = now;
    return p->pub.id;
}

static store_status mem_player_save(void *b, const store_in_player *in, int64_t *id, store_error *error)
{
    store_memory *m = b;
    if (store_memory_injected(m, STORE_KIND_PLAYER_SAVE, error))
        return error->status;
    const int64_t now = store_now_ms(&m->options);
    if (in->create) {
        if (player_at(m, in->player_id) != NULL)
            return store_error_set(error, STORE_CONFLICT, "Player %" PRId64 " is stored already.", in->player_id);
        if (!reserve((void **)&m->players, &m->cap_players, m->n_players + 1, sizeof *m->players))
            return no_memory(error);
        *id = add_guest(m, in->player_id, in->nickname, now);
        return STORE_OK;
    }
    mem_player *p = player_at(m, in->player_id);
    if (p == NULL)
        return store_error_set(error, STORE_NOT_FOUND, "There is no player %" PRId64 ".", in->player_id);
    snprintf(p->pub.nickname, sizeof p->pub.nickname, "%s", in->nickname);
    p->pub.last_seen_at_ms = now;
    *id = in->player_id;
    return STORE_OK;
}

static mem_session *find_session(store_memory *m, const unsigned char hash[STORE_TOKEN_HASH_BYTES])
{
    for (size_t i = 0; i < m->n_sessions; i++)
        if (memcmp(m->sessions[i].token_hash, hash, STORE_TOKEN_HASH_BYTES) == 0)
            return &m->sessions[i];
    return NULL;
}

/* A session for session->player_id (room for one more reserved by the caller); expired ones are
 * swept on the way. */
static void open_session(store_memory *m, const unsigned char hash[STORE_TOKEN_HASH_BYTES], store_session *session)
{
    const int64_t now = store_now_ms(&m->options);
    size_t kept = 0;
    for (size_t i = 0; i < m->n_sessions; i++)
        if (m->sessions[i].expires_at_ms > now)
            m->sessions[kept++] = m->sessions[i];
    m->n_sessions = kept;
    mem_session *added = &m->sessions[m->n_sessions++];
    memcpy(added->token_hash, hash, STORE_TOKEN_HASH_BYTES);
    added->player_id = session->player_id;
    added->expires_at_ms = now + m->options.session_seconds * 1000;
    session->expires_at_ms = added->expires_at_ms;
    mem_player *p = player_at(m, session->player_id);
    if (p != NULL)
        p->pub.last_seen_at_ms = now;
}

static store_status mem_guest_create(void *b, const store_in_guest *in, store_session *session, store_error *error)
{
    store_memory *m = b;
    if (store_memory_injected(m, STORE_KIND_GUEST_CREATE, error))
        return error->status;
    if (player_at(m, in->player_id) != NULL)
        return store_error_set(error, STORE_CONFLICT, "Player %" PRId64 " is stored already.", in->player_id);
    if (!reserve((void **)&m->players, &m->cap_players, m->n_players + 1, sizeof *m->players) ||
        !reserve((void **)&m->sessions, &m->cap_sessions, m->n_sessions + 1, sizeof *m->sessions))
        return no_memory(error);
    session->player_id = add_guest(m, in->player_id, in->nickname, store_now_ms(&m->options));
    snprintf(session->nickname, sizeof session->nickname, "%s", in->nickname);
    session->account_name[0] = '\0';
    session->is_admin = false;
    open_session(m, in->token_hash, session);
    return STORE_OK;
}

static store_status mem_account_create(void *b, const store_in_account *in, int64_t *id, store_error *error)
{
    store_memory *m = b;
    if (store_memory_injected(m, STORE_KIND_ACCOUNT_CREATE, error))
        return error->status;
    const int64_t now = store_now_ms(&m->options);
    mem_player *p = NULL;
    if (in->guest_id != 0) {
        p = player_at(m, in->guest_id);
        if (p == NULL || p->pub.is_account)
            return store_error_set(error, STORE_NOT_FOUND,
                                   "There is no guest %" PRId64 " (unknown, or already an account).", in->guest_id);
    }
    if (store_memory_account(m, in->name) != NULL)
        return store_error_set(error, STORE_CONFLICT, "The name %s is taken; choose another.", in->name);
    if (look_alike_account(m, &in->keys))
        return store_error_set(error, STORE_CONFLICT, "The name %s looks like an existing account name; choose another.",
                               in->name);
    if (p == NULL) {
        if (!reserve((void **)&m->players, &m->cap_players, m->n_players + 1, sizeof *m->players))
            return no_memory(error);
        p = player_at(m, add_guest(m, in->new_id, in->name, now));
    }
    p->pub.is_account = true;
    snprintf(p->pub.account_name, sizeof p->pub.account_name, "%s", in->name);
    snprintf(p->password_hash, sizeof p->password_hash, "%s", in->password_hash);
    p->keys = in->keys;
    p->pub.last_seen_at_ms = now;
    *id = p->pub.id;
    return STORE_OK;
}

static store_status mem_login_fetch(void *b, store_in_login *in, store_session *session, store_error *error)
{
    store_memory *m = b;
    if (store_memory_injected(m, STORE_KIND_LOGIN, error))
        return error->status;
    const mem_player *p = store_memory_account(m, in->name);
    if (p == NULL)
        return STORE_OK;
    in->found = true;
    snprintf(in->password_hash, sizeof in->password_hash, "%s", p->password_hash);
    session->player_id = p->pub.id;
    session->is_admin = p->pub.is_admin;
    snprintf(session->nickname, sizeof session->nickname, "%s", p->pub.nickname);
    snprintf(session->account_name, sizeof session->account_name, "%s", p->pub.account_name);
    return STORE_OK;
}

static store_status mem_session_open(void *b, const store_in_login *in, store_session *session, store_error *error)
{
    store_memory *m = b;
    if (!reserve((void **)&m->sessions, &m->cap_sessions, m->n_sessions + 1, sizeof *m->sessions))
        return no_memory(error);
    open_session(m, in->token_hash, session);
    return STORE_OK;
}

static store_status mem_session_lookup(void *b, const store_in_session *in, store_session *session,
                                       store_error *error)
{
    store_memory *m = b;
    if (store_memory_injected(m, STORE_KIND_SESSION_LOOKUP, error))
        return error->status;
    const mem_session *found = find_session(m, in->token_hash);
    mem_player *p = found ? player_at(m, found->player_id) : NULL;
    if (p == NULL)
        return store_error_set(error, STORE_NOT_FOUND,
                               "There is no such session (unknown, or logged out); log in again.");
    session->player_id = p->pub.id;
    snprintf(session->nickname, sizeof session->nickname, "%s", p->pub.nickname);
    snprintf(session->account_name, sizeof session->account_name, "%s", p->pub.account_name);
    session->is_admin = p->pub.is_admin;
    session->expires_at_ms = found->expires_at_ms;
    const int64_t now = store_now_ms(&m->options);
    if (found->expires_at_ms <= now)
        return store_error_set(error, STORE_NOT_FOUND, "The session has expired; log in again.");
    if (p->pub.last_seen_at_ms < now - STORE_SEEN_PRECISION_MS)
        p->pub.last_seen_at_ms = now;
    return STORE_OK;
}

static store_status mem_logout(void *b, const store_in_session *in, store_error *error)
{
    store_memory *m = b;
    if (store_memory_injected(m, STORE_KIND_LOGOUT, error))
        return error->status;
    mem_session *found = find_session(m, in->token_hash);
    if (found == NULL)
        return store_error_set(error, STORE_NOT_FOUND, "There is no such session (unknown, or already logged out).");
    *found = m->sessions[--m->n_sessions];
    return STORE_OK;
}

/* ---- Tables ---- */

static bool is_open(const store_table *t) { return strcmp(t->state, "closed") != 0; }

/* ---- Guests nobody uses ---- */

static store_status mem_max_player_id(void *b, int64_t *id, store_error *error)
{
    store_memory *m = b;
    (void)error;
    *id = 0;
    for (size_t i = 0; i < m->n_players; i++)
        if (m->players[i].pub.id > *id)
            *id = m->players[i].pub.id;
    return STORE_OK;
}

/* Whether the player has ledger rows, or sits at or hosts an open table. */
static bool player_is_kept(const store_memory *m, int64_t id)
{
    for (size_t i = 0; i < m->n_rows; i++)
        if (m->ledger[i].player_id == id)
            return true;
    for (size_t i = 0; i < m->n_tables; i++) {
        const store_table *t = &m->tables[i];
        if (!is_open(t))
            continue;
        if (t->host_player_id == id)
            return true;
        for (int seat = 0; seat < STORE_SEATS; seat++)
            if (!t->seats[seat].bot && t->seats[seat].player_id == id)
                return true;
    }
    return false;
}

/* The stale guest seen longest ago, or NULL. */
/* ---- The ledger for admins ---- */

static bool row_kept(const store_memory *m, const store_memory_row *row, const store_ledger_filter *f)
{
    const store_table *t = &m->tables[row->table_id - 1];
    return (f->player_id == 0 || row->player_id == f->player_id) && (f->table_id == 0 || row->table_id == f->table_id) &&
           (f->code[0] == '\0' || strcmp(t->code, f->code) == 0) &&
           (f->game[0] == '\0' || strcmp(t->game, f->game) == 0) &&
           (f->reason[0] == '\0' || strcmp(row->reason, f->reason) == 0) &&
           (f->from_ms == 0 || row->at_ms >= f->from_ms) && (f->to_ms == 0 || row->at_ms < f->to_ms);
}

static void fill_row(store_memory *m, const store_memory_row *row, store_ledger_line *out)
{
    const store_table *t = &m->tables[row->table_id - 1];
    const mem_player *p = row->player_id ? player_at(m, row->player_id) : NULL;
    *out = (store_ledger_line){.id = row->id, .at_ms = row->at_ms, .table_id = row->table_id,
                              .hand_id = row->hand_id, .hand_number = m->hands[row->hand_id - 1].pub.number,
                              .player_id = row->player_id, .seat = row->seat, .units = row->units,
                              .balance_after = row->balance_after};
    snprintf(out->code, sizeof out->code, "%s", t->code);
    snprintf(out->game, sizeof out->game, "%s", t->game);
    snprintf(out->reason, sizeof out->reason, "%s", row->reason);
    snprintf(out->nickname, sizeof out->nickname, "%s", p ? p->pub.nickname : "");
}

static store_status mem_ledger_query(void *b, const store_in_ledger *in, store_ledger_line **rows, size_t *n,
                                     store_ledger_totals *totals, store_error *error)
{
    store_memory *m = b;
    *n = 0;
    *rows = malloc((size_t)in->limit * sizeof **rows);
    if (*rows == NULL)
        return store_error_set(error, STORE_INTERNAL, "Out of memory reading the ledger.");
    for (size_t i = m->n_rows; i-- > 0;) { /* row id i + 1, newest first */
        const store_memory_row *row = &m->ledger[i];
        if (!row_kept(m, row, &in->filter))
            continue;
        if (in->with_totals) {
            totals->rows++;
            totals->units += row->units;
            if (row->units > 0)
                totals->won += row->units;
            else
                totals->lost += row->units;
        }
        if (*n < (size_t)in->limit && (in->before == 0 || row->id < in->before))
            fill_row(m, row, &(*rows)[(*n)++]);
        else if (!in->with_totals && *n == (size_t)in->limit)
            break;
    }
    return STORE_OK;
}

static mem_player *stalest_guest(store_memory *m, int64_t seen_before_ms)
{
    mem_player *found = NULL;
    for (size_t i = 0; i < m->n_players; i++) {
        mem_player *p = &m->players[i];
        if (!p->pub.is_account && p->pub.last_seen_at_ms < seen_before_ms && !player_is_kept(m, p->pub.id) &&
            (found == NULL || p->pub.last_seen_at_ms < found->pub.last_seen_at_ms))
            found = p;
    }
    return found;
}

static void delete_player(store_memory *m, mem_player *p)
{
    const int64_t id = p->pub.id;
    size_t kept = 0;
    for (size_t i = 0; i < m->n_sessions; i++)
        if (m->sessions[i].player_id != id)
            m->sessions[kept++] = m->sessions[i];
    m->n_sessions = kept;
    for (size_t i = 0; i < m->n_tables; i++)
        if (m->tables[i].host_player_id == id) /* a closed table's: open ones keep theirs */
            m->tables[i].host_player_id = 0;
    const size_t at = (size_t)(p - m->players);
    memmove(p, p + 1, (m->n_players - at - 1) * sizeof *p);
    m->n_players--;
}

static store_status mem_guests_expire(void *b, const store_in_expire *in, int64_t *count, store_error *error)
{
    store_memory *m = b;
    *count = 0;
    if (store_memory_injected(m, STORE_KIND_GUESTS_EXPIRE, error))
        return error->status;
    mem_player *p;
    while (*count < in->limit && (p = stalest_guest(m, in->seen_before_ms)) != NULL) {
        delete_player(m, p);
        (*count)++;
    }
    return STORE_OK;
}

static store_status mem_table_save(void *b, const store_in_table *in, int64_t *id, store_error *error)
{
    store_memory *m = b;
    if (store_memory_injected(m, STORE_KIND_TABLE_SAVE, error))
        return error->status;
    const store_table *t = &in->table;
    const bool create = t->id == 0;
    if (t->host_player_id > 0 && player_at(m, t->host_player_id) == NULL)
        return store_error_set(error, STORE_INVALID, "There is no player %" PRId64 " to host the table.",
                               t->host_player_id);
    if (!create && table_at(m, t->id) == NULL)
        return store_error_set(error, STORE_NOT_FOUND, "There is no table %" PRId64 ".", t->id);
    for (size_t i = 0; is_open(t) && i < m->n_tables; i++)
        if (m->tables[i].id != t->id && is_open(&m->tables[i]) && strcmp(m->tables[i].code, t->code) == 0)
            return store_error_set(error, STORE_CONFLICT, "The code %s belongs to another open table.", t->code);
    json_t *options = parse(in->options), *state = parse(in->game_state);
    if (options == NULL || state == NULL ||
        (create && !reserve((void **)&m->tables, &m->cap_tables, m->n_tables + 1, sizeof *m->tables))) {
        json_decref(options);
        json_decref(state);
        return no_memory(error);
    }
    store_table *stored = create ? &m->tables[m->n_tables++] : table_at(m, t->id);
    if (!create) {
        json_decref(stored->options);
        json_decref(stored->game_state);
    }
    *stored = *t;
    stored->id = create ? (int64_t)m->n_tables : t->id;
    stored->options = options;
    stored->game_state = state;
    for (int seat = 0; seat < STORE_SEATS; seat++)
        stored->seats[seat].nickname[0] = '\0';
    *id = stored->id;
    return STORE_OK;
}

/* ---- Hands and actions ---- */

static bool is_finished(const mem_hand *h) { return h->pub.result != NULL; }

/* The table's unfinished hand (a table has at most one), or NULL. */
static mem_hand *open_hand_of(store_memory *m, int64_t table_id)
{
    for (size_t i = 0; i < m->n_hands; i++)
        if (m->hands[i].pub.table_id == table_id && !is_finished(&m->hands[i]))
            return &m->hands[i];
    return NULL;
}

static mem_hand *hand_numbered(store_memory *m, int64_t table_id, int64_t number)
{
    for (size_t i = 0; i < m->n_hands; i++)
        if (m->hands[i].pub.table_id == table_id && m->hands[i].pub.number == number)
            return &m->hands[i];
    return NULL;
}

static store_status mem_hand_begin(void *b, const store_in_hand_begin *in, int64_t *id, store_error *error)
{
    store_memory *m = b;
    if (store_memory_injected(m, STORE_KIND_HAND_BEGIN, error))
        return error->status;
    if (table_at(m, in->table_id) == NULL)
        return store_error_set(error, STORE_NOT_FOUND, "There is no table %" PRId64 ".", in->table_id);
    const mem_hand *open = open_hand_of(m, in->table_id);
    if (open != NULL)
        return store_error_set(error, STORE_CONFLICT, "Table %" PRId64 " has not finished its hand %" PRId64 ".",
                               in->table_id, open->pub.number);
    if (hand_numbered(m, in->table_id, in->number) != NULL)
        return store_error_set(error, STORE_CONFLICT, "Table %" PRId64 " already has a hand %" PRId64 ".",
                               in->table_id, in->number);
    json_t *deal = parse(in->deal), *state = parse(in->game_state);
    json_t *options = in->options != NULL ? parse(in->options) : NULL;
    if (deal == NULL || state == NULL || (in->options != NULL && options == NULL) ||
        !reserve((void **)&m->hands, &m->cap_hands, m->n_hands + 1, sizeof *m->hands)) {
        json_decref(deal);
        json_decref(state);
        json_decref(options);
        return no_memory(error);
    }
    mem_hand *h = &m->hands[m->n_hands++];
    memset(h, 0, sizeof *h);
    h->pub = (store_memory_hand){.id = (int64_t)m->n_hands, .table_id = in->table_id, .number = in->number,
                                 .seed = in->seed, .deal = deal, .game_state = state, .options = options,
                                 .started_at_ms = store_now_ms(&m->options)};
    *id = h->pub.id;
    return STORE_OK;
}

/* The hand to act on: it exists and is not over. */
static store_status open_hand(store_memory *m, int64_t hand_id, mem_hand **out, store_error *error)
{
    *out = hand_at(m, hand_id);
    if (*out == NULL)
        return store_error_set(error, STORE_NOT_FOUND, "There is no hand %" PRId64 ".", hand_id);
    if (is_finished(*out))
        return store_error_set(error, STORE_INVALID, "Hand %" PRId64 " is over.", hand_id);
    return STORE_OK;
}

/* Whether seq may be the hand's next action. */
static store_status next_seq(const mem_hand *h, int64_t seq, store_error *error)
{
    const int64_t last = (int64_t)h->pub.n_actions;
    if (seq <= last)
        return store_error_set(error, STORE_CONFLICT, "Action %" PRId64 " of hand %" PRId64 " is already recorded.",
                               seq, h->pub.id);
    if (seq != last + 1)
        return store_error_set(error, STORE_INVALID,
                               "Action %" PRId64 " of hand %" PRId64 " would leave a gap: the last recorded is %" PRId64
                               ".",
                               seq, h->pub.id, last);
    return STORE_OK;
}

/* Appends the action (room reserved by the caller; action owned from here). */
static void add_action(mem_hand *h, int64_t seq, int seat, json_t *action)
{
    h->pub.actions[h->pub.n_actions++] = (store_action){.seq = seq, .seat = seat, .action = action};
}

static store_status mem_action_append(void *b, const store_in_action *in, store_error *error)
{
    store_memory *m = b;
    if (store_memory_injected(m, STORE_KIND_ACTION_APPEND, error))
        return error->status;
    mem_hand *h;
    if (open_hand(m, in->hand_id, &h, error) != STORE_OK || next_seq(h, in->seq, error) != STORE_OK)
        return error->status;
    json_t *action = parse(in->action);
    if (action == NULL ||
        !reserve((void **)&h->pub.actions, &h->cap_actions, h->pub.n_actions + 1, sizeof *h->pub.actions)) {
        json_decref(action);
        return no_memory(error);
    }
    add_action(h, in->seq, in->seat, action);
    return STORE_OK;
}

/* ---- A hand's end and the ledger ---- */

/* The player's balance before row i of rows (the rows of this hand come after the ledger's). */
static int64_t balance_before(const store_memory *m, const store_memory_row *rows, size_t i, int64_t player_id)
{
    while (i-- > 0)
        if (rows[i].player_id == player_id)
            return rows[i].balance_after;
    for (size_t k = m->n_rows; k-- > 0;)
        if (m->ledger[k].player_id == player_id)
            return m->ledger[k].balance_after;
    return 0;
}

/* The hand's rows, hashed and chained after the ledger's last, into rows (room for n_entries). */
static store_status make_rows(store_memory *m, const store_in_hand_end *in, int64_t table_id, int64_t now,
                              store_memory_row *rows, store_error *error)
{
    char prev[STORE_HASH_HEX];
    snprintf(prev, sizeof prev, "%s", m->n_rows ? m->ledger[m->n_rows - 1].hash : STORE_LEDGER_ZERO_HASH);
    for (size_t i = 0; i < in->n_entries; i++) {
        const store_ledger_entry *e = &in->entries[i];
        store_memory_row *r = &rows[i];
        *r = (store_memory_row){.id = (int64_t)(m->n_rows + i + 1), .table_id = table_id, .hand_id = in->hand_id,
                                .player_id = e->player_id, .seat = e->seat, .units = e->units, .at_ms = now};
        snprintf(r->reason, sizeof r->reason, "%s", e->reason);
        if (e->player_id != 0) {
            if (player_at(m, e->player_id) == NULL)
                return store_error_set(error, STORE_INVALID,
                                       "A ledger row names player %" PRId64 ", who does not exist.", e->player_id);
            if (__builtin_add_overflow(balance_before(m, rows, i, e->player_id), e->units, &r->balance_after))
                return store_error_set(error, STORE_INVALID, "Player %" PRId64 "'s balance would overflow.",
                                       e->player_id);
        }
        snprintf(r->prev_hash, sizeof r->prev_hash, "%s", prev);
        const store_ledger_row row = {.id = r->id, .table_id = table_id, .hand_id = in->hand_id,
                                      .is_bot = e->player_id == 0, .player_id = e->player_id, .seat = e->seat,
                                      .units = e->units, .reason = r->reason, .balance_after = r->balance_after,
                                      .at_ms = now, .prev_hash = r->prev_hash};
        store_ledger_hash(&row, m->ledger_key, r->hash);
        snprintf(prev, sizeof prev, "%s", r->hash);
    }
    return STORE_OK;
}

static store_status mem_hand_finish(void *b, const store_in_hand_end *in, store_error *error)
{
    store_memory *m = b;
    if (store_memory_injected(m, STORE_KIND_HAND_FINISH, error))
        return error->status;
    const int64_t now = store_now_ms(&m->options);
    mem_hand *h;
    if (open_hand(m, in->hand_id, &h, error) != STORE_OK ||
        (in->last_seq > 0 && next_seq(h, in->last_seq, error) != STORE_OK))
        return error->status;
    store_memory_row rows[STORE_ENTRIES_MAX];
    if (make_rows(m, in, h->pub.table_id, now, rows, error) != STORE_OK)
        return error->status;
    json_t *last = in->last_seq > 0 ? parse(in->last_action) : NULL;
    json_t *result = parse(in->result), *state = parse(in->next_game_state);
    if ((in->last_seq > 0 && last == NULL) || result == NULL || state == NULL ||
        !reserve((void **)&h->pub.actions, &h->cap_actions, h->pub.n_actions + 1, sizeof *h->pub.actions) ||
        !reserve((void **)&m->ledger, &m->cap_rows, m->n_rows + in->n_entries, sizeof *m->ledger)) {
        json_decref(last);
        json_decref(result);
        json_decref(state);
        return no_memory(error);
    }
    if (last != NULL)
        add_action(h, in->last_seq, in->last_seat, last);
    h->pub.result = result;
    h->pub.finished_at_ms = now;
    if (in->n_entries > 0)
        memcpy(&m->ledger[m->n_rows], rows, in->n_entries * sizeof *rows);
    m->n_rows += in->n_entries;
    store_table *t = table_at(m, h->pub.table_id);
    json_decref(t->game_state);
    t->game_state = state;
    return STORE_OK;
}

/* ---- Reads ---- */

static const char *nickname_of(store_memory *m, int64_t player_id)
{
    const mem_player *p = player_at(m, player_id);
    return p ? p->pub.nickname : "";
}

/* The summary of a hand: its start, end and result, and per seat its ledger rows' player, that
 * player's current nickname and the sum of the units. */
static bool fill_summary(store_memory *m, const mem_hand *h, store_hand_summary *s)
{
    memset(s, 0, sizeof *s);
    s->id = h->pub.id;
    s->number = h->pub.number;
    s->started_at_ms = h->pub.started_at_ms;
    s->finished_at_ms = h->pub.finished_at_ms;
    s->game_state = json_deep_copy(h->pub.game_state);
    s->result = h->pub.result ? json_deep_copy(h->pub.result) : NULL;
    s->options = h->pub.options ? json_deep_copy(h->pub.options) : NULL;
    for (size_t i = 0; i < m->n_rows; i++) {
        const store_memory_row *r = &m->ledger[i];
        if (r->hand_id != h->pub.id)
            continue;
        if (r->player_id > s->player_ids[r->seat])
            s->player_ids[r->seat] = r->player_id;
        s->units[r->seat] += r->units;
    }
    for (int seat = 0; seat < STORE_SEATS; seat++)
        snprintf(s->nicknames[seat], sizeof s->nicknames[seat], "%s", nickname_of(m, s->player_ids[seat]));
    return s->game_state != NULL && (h->pub.result == NULL || s->result != NULL) &&
           (h->pub.options == NULL || s->options != NULL);
}

static int by_number_descending(const void *a, const void *b)
{
    const int64_t x = (*(const mem_hand *const *)a)->pub.number, y = (*(const mem_hand *const *)b)->pub.number;
    return x < y ? 1 : x > y ? -1 : 0;
}

static store_status mem_table_hands(void *b, const store_in_hands *in, store_hand_summary **out, size_t *n,
                                    store_error *error)
{
    store_memory *m = b;
    *out = NULL;
    *n = 0;
    if (store_memory_injected(m, STORE_KIND_TABLE_HANDS, error))
        return error->status;
    const mem_hand **found = calloc(m->n_hands + 1, sizeof *found);
    store_hand_summary *page = calloc((size_t)in->limit, sizeof *page);
    if (found == NULL || page == NULL) {
        free(found);
        free(page);
        return no_memory(error);
    }
    size_t n_found = 0;
    for (size_t i = 0; i < m->n_hands; i++) {
        const mem_hand *h = &m->hands[i];
        if (h->pub.table_id == in->table_id && is_finished(h) && (in->before == 0 || h->pub.number < in->before))
            found[n_found++] = h;
    }
    qsort(found, n_found, sizeof *found, by_number_descending);
    size_t count = 0;
    bool ok = true;
    for (size_t i = 0; ok && i < n_found && i < (size_t)in->limit; i++)
        ok = fill_summary(m, found[i], &page[count++]);
    free(found);
    if (!ok) {
        store_summaries_free(page, count);
        return no_memory(error);
    }
    *out = page;
    *n = count;
    return STORE_OK;
}

/* The tables a player played at, as the SQLite store answers them (store_history.c). */
static store_status mem_player_tables(void *b, const store_in_player_tables *in, store_played_table **out, size_t *n,
                                      store_error *error)
{
    store_memory *m = b;
    *out = NULL;
    *n = 0;
    if (store_memory_injected(m, STORE_KIND_PLAYER_TABLES, error))
        return error->status;
    store_played_table *all = calloc(m->n_tables + 1, sizeof *all);
    if (all == NULL)
        return no_memory(error);
    size_t count = 0;
    for (size_t t = 0; t < m->n_tables; t++) {
        const store_table *table = &m->tables[t];
        if (in->code[0] != '\0' && strcmp(table->code, in->code) != 0)
            continue;
        store_played_table row = {.table_id = table->id};
        int64_t last_hand = 0;
        for (size_t i = 0; i < m->n_rows; i++) { /* rows come in hand order */
            const store_memory_row *l = &m->ledger[i];
            if (l->table_id != table->id || (in->player_id != STORE_ANY_PLAYER && l->player_id != in->player_id))
                continue;
            row.hands += l->hand_id != last_hand;
            last_hand = l->hand_id;
            row.units += l->units;
            row.last_at_ms = l->at_ms > row.last_at_ms ? l->at_ms : row.last_at_ms;
        }
        if (row.hands == 0)
            continue;
        snprintf(row.code, sizeof row.code, "%s", table->code);
        snprintf(row.game, sizeof row.game, "%s", table->game);
        snprintf(row.state, sizeof row.state, "%s", table->state);
        row.hands_played = table->hands_played;
        for (size_t i = 0; i < m->n_hands; i++) /* a hand's start counts it before the table is saved again */
            if (m->hands[i].pub.table_id == table->id && m->hands[i].pub.number > row.hands_played)
                row.hands_played = m->hands[i].pub.number;
        row.options = json_deep_copy(table->options);
        if (row.options == NULL) {
            store_played_free(all, count);
            return no_memory(error);
        }
        all[count++] = row;
    }
    /* the most recently played first; the newer table first on a tie */
    for (size_t i = 1; i < count; i++)
        for (size_t j = i; j > 0 && (all[j].last_at_ms > all[j - 1].last_at_ms ||
                                     (all[j].last_at_ms == all[j - 1].last_at_ms && all[j].table_id > all[j - 1].table_id));
             j--) {
            store_played_table tmp = all[j];
            all[j] = all[j - 1];
            all[j - 1] = tmp;
        }
    for (size_t i = (size_t)in->limit; i < count; i++)
        json_decref(all[i].options);
    *out = all;
    *n = count < (size_t)in->limit ? count : (size_t)in->limit;
    return STORE_OK;
}

/* A copy of a hand with its actions. */
static store_hand *copy_hand(const mem_hand *h)
{
    store_hand *out = calloc(1, sizeof *out);
    if (out == NULL)
        return NULL;
    *out = (store_hand){.id = h->pub.id, .number = h->pub.number, .seed = h->pub.seed,
                        .deal = json_deep_copy(h->pub.deal), .game_state = json_deep_copy(h->pub.game_state),
                        .options = h->pub.options != NULL ? json_deep_copy(h->pub.options) : NULL};
    bool ok = out->deal != NULL && out->game_state != NULL && (h->pub.options == NULL || out->options != NULL);
    if (ok && h->pub.n_actions > 0) {
        out->actions = calloc(h->pub.n_actions, sizeof *out->actions);
        ok = out->actions != NULL;
    }
    for (size_t i = 0; ok && i < h->pub.n_actions; i++) {
        out->actions[i] = h->pub.actions[i];
        out->actions[i].action = json_deep_copy(h->pub.actions[i].action);
        ok = out->actions[i].action != NULL;
        out->n_actions = i + 1;
    }
    if (!ok) {
        store_hand_free(out);
        return NULL;
    }
    return out;
}

static store_status mem_hand_get(void *b, const store_in_hand_get *in, store_hand **hand,
                                 store_hand_summary *summary, store_error *error)
{
    store_memory *m = b;
    *hand = NULL;
    memset(summary, 0, sizeof *summary);
    if (store_memory_injected(m, STORE_KIND_HAND_GET, error))
        return error->status;
    const mem_hand *h = hand_numbered(m, in->table_id, in->number);
    if (h == NULL || !is_finished(h))
        return store_error_set(error, STORE_NOT_FOUND, "Table %" PRId64 " has no finished hand %" PRId64 ".",
                               in->table_id, in->number);
    *hand = copy_hand(h);
    if (*hand == NULL || !fill_summary(m, h, summary)) {
        store_hand_free(*hand);
        *hand = NULL;
        store_summary_clear(summary);
        return no_memory(error);
    }
    return STORE_OK;
}

/* An open table as recovery gives it: its row, its unfinished hand, scores and nicknames. */
static bool recover_table(store_memory *m, const store_table *t, store_open_table *ot, size_t *n_unfinished)
{
    ot->table = *t;
    ot->table.options = json_deep_copy(t->options);
    ot->table.game_state = json_deep_copy(t->game_state);
    for (int seat = 0; seat < STORE_SEATS; seat++)
        snprintf(ot->table.seats[seat].nickname, sizeof ot->table.seats[seat].nickname, "%s",
                 t->seats[seat].player_id > 0 ? nickname_of(m, t->seats[seat].player_id) : "");
    for (size_t i = 0; i < m->n_hands; i++) /* a hand's start counts it before the table is saved again */
        if (m->hands[i].pub.table_id == t->id && m->hands[i].pub.number > ot->table.hands_played)
            ot->table.hands_played = m->hands[i].pub.number;
    for (size_t i = 0; i < m->n_rows; i++) { /* whoever holds a seat: a player's rows, or its bots' */
        const store_memory_row *row = &m->ledger[i];
        if (row->table_id != t->id)
            continue;
        for (int seat = 0; seat < STORE_SEATS; seat++)
            if (row->player_id == 0 ? seat == row->seat && t->seats[seat].player_id <= 0 && t->seats[seat].bot
                                    : t->seats[seat].player_id == row->player_id)
                ot->scores[seat] += row->units;
        if (row->player_id == 0)
            continue;
        size_t k = 0;
        while (k < ot->n_player_scores && ot->player_scores[k].player_id != row->player_id)
            k++;
        if (k == ot->n_player_scores) {
            store_player_score *grown = realloc(ot->player_scores, (k + 1) * sizeof *grown);
            if (grown == NULL)
                return false;
            ot->player_scores = grown;
            ot->player_scores[ot->n_player_scores++] = (store_player_score){.player_id = row->player_id};
        }
        ot->player_scores[k].score += row->units;
    }
    /* the hands each played: a hand's rows are written together, so a new hand id is a new hand */
    for (size_t k = 0; k < ot->n_player_scores; k++) {
        int64_t last_hand = 0;
        for (size_t i = 0; i < m->n_rows; i++) {
            const store_memory_row *row = &m->ledger[i];
            if (row->table_id != t->id || row->player_id != ot->player_scores[k].player_id || row->hand_id == last_hand)
                continue;
            last_hand = row->hand_id;
            ot->player_scores[k].hands++;
        }
    }
    const mem_hand *open = open_hand_of(m, t->id);
    if (open != NULL) {
        ot->hand = copy_hand(open);
        (*n_unfinished)++;
    }
    return ot->table.options != NULL && ot->table.game_state != NULL && (open == NULL || ot->hand != NULL);
}

static store_status mem_recover(void *b, store_recovery **out, store_error *error)
{
    store_memory *m = b;
    *out = NULL;
    if (store_memory_injected(m, STORE_KIND_RECOVER, error))
        return error->status;
    store_recovery *rec = calloc(1, sizeof *rec);
    if (rec == NULL || (m->n_tables > 0 && (rec->tables = calloc(m->n_tables, sizeof *rec->tables)) == NULL)) {
        free(rec);
        return no_memory(error);
    }
    bool ok = true;
    for (size_t i = 0; ok && i < m->n_tables; i++)
        if (is_open(&m->tables[i]))
            ok = recover_table(m, &m->tables[i], &rec->tables[rec->n_tables++], &rec->n_unfinished_hands);
    if (!ok) {
        store_recovery_free(rec);
        return no_memory(error);
    }
    *out = rec;
    return STORE_OK;
}

/* ---- The ledger check ---- */

/* sums: each player's units so far, by player id (sums has room for every id in the ledger). */
static bool check_row(store_memory *m, size_t i, int64_t *sums, store_ledger_check *check)
{
    const store_memory_row *r = &m->ledger[i];
    const char *prev = i == 0 ? STORE_LEDGER_ZERO_HASH : m->ledger[i - 1].hash;
    const store_ledger_row row = {.id = r->id, .table_id = r->table_id, .hand_id = r->hand_id,
                                  .is_bot = r->player_id == 0, .player_id = r->player_id, .seat = r->seat,
                                  .units = r->units, .reason = r->reason, .balance_after = r->balance_after,
                                  .at_ms = r->at_ms, .prev_hash = r->prev_hash};
    char hash[STORE_HASH_HEX];
    store_ledger_hash(&row, m->ledger_key, hash);
    if (r->id != (int64_t)i + 1)
        snprintf(check->why, sizeof check->why, "row ids jump from %zu to %" PRId64 ": rows are missing", i, r->id);
    else if (strcmp(r->prev_hash, prev) != 0)
        snprintf(check->why, sizeof check->why, "its previous hash is not the hash of row %zu", i);
    else if (strcmp(hash, r->hash) != 0)
        snprintf(check->why, sizeof check->why, "its hash does not match its fields and the ledger's key");
    else if (r->player_id > 0 && r->balance_after != (sums[r->player_id] += r->units))
        snprintf(check->why, sizeof check->why,
                 "its balance %" PRId64 " does not follow from the player's rows (%" PRId64 ")", r->balance_after,
                 sums[r->player_id]);
    else
        return true;
    check->ok = false;
    check->first_bad_row = r->id;
    return false;
}

/* The first row of the first hand (by that row) whose rows do not sum to zero. */
static void check_hands(store_memory *m, store_ledger_check *check)
{
    for (size_t i = 0; i < m->n_rows; i++) {
        const int64_t hand = m->ledger[i].hand_id;
        if (i > 0 && m->ledger[i - 1].hand_id == hand)
            continue; /* a hand's rows are written together */
        int64_t sum = 0;
        for (size_t k = i; k < m->n_rows && m->ledger[k].hand_id == hand; k++)
            sum += m->ledger[k].units;
        if (sum != 0) {
            check->ok = false;
            check->first_bad_row = m->ledger[i].id;
            snprintf(check->why, sizeof check->why, "hand %" PRId64 "'s rows sum to %" PRId64 ", not zero", hand,
                     sum);
            return;
        }
    }
}

static store_status mem_verify_ledger(void *b, store_ledger_check *check, store_error *error)
{
    store_memory *m = b;
    memset(check, 0, sizeof *check);
    if (store_memory_injected(m, STORE_KIND_LEDGER_VERIFY, error))
        return error->status;
    int64_t max_id = 0;
    for (size_t i = 0; i < m->n_rows; i++)
        max_id = m->ledger[i].player_id > max_id ? m->ledger[i].player_id : max_id;
    int64_t *sums = calloc((size_t)max_id + 1, sizeof *sums);
    if (sums == NULL)
        return no_memory(error);
    check->ok = true;
    check->keyed = true;
    for (size_t i = 0; i < m->n_rows; i++) {
        check->rows_checked++;
        if (!check_row(m, i, sums, check))
            break;
    }
    free(sums);
    if (check->ok)
        check_hands(m, check);
    return STORE_OK;
}

/* ---- Freeing ---- */

void store_memory_data_free(store_memory *m)
{
    for (size_t i = 0; i < m->n_tables; i++) {
        json_decref(m->tables[i].options);
        json_decref(m->tables[i].game_state);
    }
    for (size_t i = 0; i < m->n_hands; i++) {
        store_memory_hand *h = &m->hands[i].pub;
        json_decref(h->deal);
        json_decref(h->game_state);
        json_decref(h->options);
        json_decref(h->result);
        for (size_t k = 0; k < h->n_actions; k++)
            json_decref(h->actions[k].action);
        free(h->actions);
    }
    free(m->players);
    free(m->sessions);
    free(m->tables);
    free(m->hands);
    free(m->ledger);
    free(m->admin_sessions);
    free(m->audit);
}

static void mem_close(void *b) { (void)b; }

static void mem_free(void *b)
{
    store_memory *m = b;
    store_memory_data_free(m);
    free(m);
}

const store_backend_ops store_memory_ops = {
    .name = "memory",
    .begin = mem_begin,
    .commit = mem_commit,
    .rollback = mem_nothing,
    .mark = mem_nothing,
    .undo = mem_undo,
    .player_save = mem_player_save,
    .guest_create = mem_guest_create,
    .account_create = mem_account_create,
    .login_fetch = mem_login_fetch,
    .session_open = mem_session_open,
    .session_lookup = mem_session_lookup,
    .logout = mem_logout,
    .table_save = mem_table_save,
    .hand_begin = mem_hand_begin,
    .action_append = mem_action_append,
    .hand_finish = mem_hand_finish,
    .table_hands = mem_table_hands,
    .player_tables = mem_player_tables,
    .hand_get = mem_hand_get,
    .recover = mem_recover,
    .guests_expire = mem_guests_expire,
    .ledger_query = mem_ledger_query,
    .admin_session_open = store_memory_admin_open,
    .admin_session_lookup = store_memory_admin_lookup,
    .admin_session_close = store_memory_admin_close,
    .audit_append = store_memory_audit_append,
    .audit_list = store_memory_audit_list,
    .adjust = store_memory_adjust,
    .profile = store_memory_profile,
    .max_player_id = mem_max_player_id,
    .verify_ledger = mem_verify_ledger,
    .close = mem_close,
    .free = mem_free,
};
