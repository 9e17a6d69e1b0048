/*
 * store_pg_hands — the writes of play on PostgreSQL (store_pg.h): a table's row, a hand's start,
 * its actions, and its end (the last action, the result, the ledger rows with balances and hashes,
 * and the table's new game state), each request one transaction's worth of rows that the batch
 * commits. The checks that SQLite's store makes before writing are made here too, before the
 * first write, so that a refused request leaves the batch's transaction going.
 *
 * Actions. An action is checked against the open hands' cache (its hand open, its number the
 * next) and kept; the batch's actions go to the database together, in one INSERT of arrays, before
 * any other statement and before the commit (store_pg_run calls store_pg_flush_actions). The
 * cache holds what this transaction knows of its open hands, read from the database on a miss,
 * and is dropped with the unsent actions whenever a transaction is rolled back, so it never holds
 * what the database does not.
 *
 * The ledger is one chain for the whole house: its writer takes a transaction-level advisory lock
 * before reading the chain's end, so that two servers sharing the database never give two rows
 * the same id or previous hash. The lock is held to the commit, a few milliseconds a batch.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "store_pg.h"

#define PG_LEDGER_LOCK 0x6c656467 /* the ledger's advisory lock ("ledg") */

/* ---- Seats ---- */

char *store_pg_seats_json(const store_seat seats[STORE_SEATS])
{
    char text[STORE_SEATS * 24 + 8];
    size_t used = 0;
    for (int i = 0; i < STORE_SEATS; i++) {
        const char *sep = i == 0 ? "[" : ",";
        if (seats[i].bot)
            used += (size_t)snprintf(text + used, sizeof text - used, "%s\"bot\"", sep);
        else if (seats[i].player_id > 0)
            used += (size_t)snprintf(text + used, sizeof text - used, "%s%" PRId64, sep, seats[i].player_id);
        else
            used += (size_t)snprintf(text + used, sizeof text - used, "%snull", sep);
    }
    snprintf(text + used, sizeof text - used, "]");
    return strdup(text);
}

bool store_pg_parse_seats(const char *text, store_seat seats[STORE_SEATS])
{
    json_t *array = text ? json_loads(text, 0, NULL) : NULL;
    bool ok = json_is_array(array) && json_array_size(array) == STORE_SEATS;
    for (size_t i = 0; ok && i < STORE_SEATS; i++) {
        const json_t *seat = json_array_get(array, i);
        seats[i] = (store_seat){.player_id = json_is_integer(seat) ? json_integer_value(seat) : 0,
                                .bot = json_is_string(seat)};
        ok = json_is_null(seat) || json_is_integer(seat) ||
             (json_is_string(seat) && !strcmp(json_string_value(seat), "bot"));
    }
    json_decref(array);
    return ok;
}

/* ---- The open hands' cache ---- */

bool store_pg_hands_init(store_pg *q) { return store_hand_cache_init(&q->hands); }

static void drop_pending(store_pg *q)
{
    for (size_t i = 0; i < q->n_pending; i++)
        free(q->pending[i].action);
    q->n_pending = 0;
}

void store_pg_hands_forget(store_pg *q)
{
    drop_pending(q);
    store_hand_cache_clear(&q->hands);
}

void store_pg_hands_free(store_pg *q)
{
    drop_pending(q);
    free(q->pending);
    q->pending = NULL;
    q->cap_pending = 0;
    store_hand_cache_free(&q->hands);
}

typedef store_hand_state hand_state;

/* ---- Actions sent together ---- */

/* An array literal being built: "{" then quoted elements separated by commas, then "}". */
typedef struct array_text {
    char *text;
    size_t len, cap;
    bool ok;       /* false once out of memory */
} array_text;

static void array_put(array_text *a, const char *value, bool first)
{
    const size_t need = a->len + 2 * strlen(value) + 5; /* worst case: every byte escaped, ,"…"} and NUL */
    if (a->ok && need > a->cap) {
        size_t grown_cap = a->cap ? a->cap : 1024;
        while (grown_cap < need)
            grown_cap *= 2;
        char *grown = realloc(a->text, grown_cap);
        if (grown == NULL)
            a->ok = false;
        else
            a->text = grown, a->cap = grown_cap;
    }
    if (!a->ok)
        return;
    char *out = a->text + a->len;
    *out++ = first ? '{' : ',';
    *out++ = '"';
    for (const char *c = value; *c; c++) {
        if (*c == '"' || *c == '\\') /* the only characters a quoted element escapes */
            *out++ = '\\';
        *out++ = *c;
    }
    *out++ = '"';
    a->len = (size_t)(out - a->text);
    memcpy(out, "}", 2); /* closed after each element: the text is always a whole literal */
}

bool store_pg_flush_actions(store_pg *q, store_error *error)
{
    if (q->n_pending == 0)
        return true;
    enum { COLUMNS = 5 };
    array_text columns[COLUMNS];
    for (int c = 0; c < COLUMNS; c++)
        columns[c] = (array_text){.ok = true};
    bool ok = true;
    for (size_t i = 0; ok && i < q->n_pending; i++) {
        const pg_action *a = &q->pending[i];
        char numbers[4][24];
        snprintf(numbers[0], sizeof numbers[0], "%" PRId64, a->hand_id);
        snprintf(numbers[1], sizeof numbers[1], "%" PRId64, a->seq);
        snprintf(numbers[2], sizeof numbers[2], "%d", a->seat);
        snprintf(numbers[3], sizeof numbers[3], "%" PRId64, a->at);
        const char *values[COLUMNS] = {numbers[0], numbers[1], numbers[2], a->action, numbers[3]};
        for (int c = 0; c < COLUMNS; c++) {
            array_put(&columns[c], values[c], i == 0);
            ok = ok && columns[c].ok;
        }
    }
    pg_params p = {0};
    for (int c = 0; ok && c < COLUMNS; c++)
        pg_text(&p, columns[c].text);
    long written = -1;
    if (!ok) {
        store_error_set(error, STORE_INTERNAL, "Out of memory recording actions.");
    } else {
        /* The rows are earlier requests' writes, not the current one's (store_pg.h, undo). */
        const long writes = q->writes;
        q->flushing = true;
        written = store_pg_exec(q,
                                "INSERT INTO hand_actions (hand_id, seq, seat, action, at) SELECT * FROM"
                                " unnest($1::bigint[], $2::bigint[], $3::integer[], $4::text[], $5::bigint[])",
                                &p, "recording actions", error);
        q->flushing = false;
        q->writes = writes;
    }
    for (int c = 0; c < COLUMNS; c++)
        free(columns[c].text);
    if (written >= 0)
        drop_pending(q);
    return written >= 0;
}

/* ---- Tables ---- */

static store_status check_player_exists(store_pg *q, int64_t player_id, const char *role, store_error *error)
{
    pg_params p = {0};
    pg_int(&p, player_id);
    PGresult *r = store_pg_run(q, "SELECT 1 FROM players WHERE id = $1", &p, "looking up a player", error);
    if (r == NULL)
        return error->status;
    const bool found = PQntuples(r) > 0;
    PQclear(r);
    if (!found)
        return store_error_set(error, STORE_INVALID, "There is no player %" PRId64 " to %s.", player_id, role);
    return STORE_OK;
}

/* Whether another open table has the code (checked first: a failed insert would abort the batch). */
static store_status check_code_free(store_pg *q, const store_table *t, store_error *error)
{
    if (!strcmp(t->state, "closed"))
        return STORE_OK;
    pg_params p = {0};
    pg_text(&p, t->code);
    pg_int(&p, t->id);
    PGresult *r = store_pg_run(q, "SELECT 1 FROM game_tables WHERE code = $1 AND state <> 'closed' AND id <> $2", &p,
                               "saving a table", error);
    if (r == NULL)
        return error->status;
    const bool taken = PQntuples(r) > 0;
    PQclear(r);
    if (taken)
        return store_error_set(error, STORE_CONFLICT, "The code %s belongs to another open table.", t->code);
    return STORE_OK;
}

store_status store_pg_table_save(void *b, const store_in_table *in, int64_t *id, store_error *error)
{
    store_pg *q = b;
    const store_table *t = &in->table;
    const bool create = t->id == 0;
    if (t->host_player_id > 0 && check_player_exists(q, t->host_player_id, "host the table", error) != STORE_OK)
        return error->status;
    if (check_code_free(q, t, error) != STORE_OK)
        return error->status;
    char *seats = store_pg_seats_json(t->seats);
    if (seats == NULL)
        return store_error_set(error, STORE_INTERNAL, "Out of memory.");
    pg_params p = {0};
    pg_text(&p, t->game);
    pg_text(&p, in->options);
    pg_id_or_null(&p, t->host_player_id);
    pg_text(&p, t->code);
    pg_bool(&p, t->is_public);
    pg_text(&p, seats);
    pg_text(&p, t->state);
    pg_text(&p, in->game_state);
    pg_int(&p, t->hands_played);
    pg_int(&p, store_now_ms(&q->options));
    pg_int(&p, t->turn_seconds);
    pg_bool(&p, t->held);
    pg_bool(&p, !t->spectator_chat_off);
    if (!create)
        pg_int(&p, t->id);
    PGresult *r = store_pg_run(
        q,
        create ? "INSERT INTO game_tables (game, options, host_player_id, code, is_public, seats, state, game_state,"
                 " hands_played, created_at, updated_at, turn_seconds, held, spectator_chat)"
                 " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11, $12, $13) RETURNING id"
               : "UPDATE game_tables SET game = $1, options = $2, host_player_id = $3, code = $4, is_public = $5,"
                 " seats = $6, state = $7, game_state = $8, hands_played = $9, updated_at = $10, turn_seconds = $11"
                 ", held = $12, spectator_chat = $13 WHERE id = $14 RETURNING id",
        &p, "saving a table", error);
    free(seats);
    if (r == NULL && error->status == STORE_CONFLICT) /* another server took the code meanwhile */
        return store_error_set(error, STORE_CONFLICT, "The code %s belongs to another open table.", t->code);
    if (r == NULL)
        return error->status;
    const bool found = PQntuples(r) > 0;
    *id = found ? pg_get_int(r, 0, 0) : 0;
    PQclear(r);
    if (!found)
        return store_error_set(error, STORE_NOT_FOUND, "There is no table %" PRId64 ".", t->id);
    return STORE_OK;
}

/* ---- Hands and actions ---- */

/* Why a hand could not start: the table is unknown, has an unfinished hand, or has that number. */
static store_status why_no_hand(store_pg *q, const store_in_hand_begin *in, store_error *error)
{
    pg_params p = {0};
    pg_int(&p, in->table_id);
    PGresult *r = store_pg_run(q,
                               "SELECT EXISTS (SELECT 1 FROM game_tables WHERE id = $1),"
                               " (SELECT number FROM hands WHERE table_id = $1 AND finished_at IS NULL LIMIT 1)",
                               &p, "starting a hand", error);
    if (r == NULL)
        return error->status;
    const bool table_exists = pg_get_int(r, 0, 0) != 0;
    const bool hand_open = !pg_is_null(r, 0, 1);
    const int64_t open_number = pg_get_int(r, 0, 1);
    PQclear(r);
    if (!table_exists)
        return store_error_set(error, STORE_NOT_FOUND, "There is no table %" PRId64 ".", in->table_id);
    if (hand_open)
        return store_error_set(error, STORE_CONFLICT, "Table %" PRId64 " has not finished its hand %" PRId64 ".",
                               in->table_id, open_number);
    return store_error_set(error, STORE_CONFLICT, "Table %" PRId64 " already has a hand %" PRId64 ".", in->table_id,
                           in->number);
}

/* One statement when all is well: the insert checks itself that the table exists, has no
 * unfinished hand (so that recovery knows which to resume) and has no hand of that number, and
 * writes nothing otherwise; only then do we read why. */
store_status store_pg_hand_begin(void *b, const store_in_hand_begin *in, int64_t *id, store_error *error)
{
    store_pg *q = b;
    pg_params v = {0};
    pg_int(&v, in->table_id);
    pg_int(&v, in->number);
    pg_int(&v, (int64_t)in->seed); /* the same 64 bits, read back as uint64_t */
    pg_text(&v, in->deal);
    pg_text(&v, in->game_state);
    pg_int(&v, store_now_ms(&q->options));
    pg_text(&v, in->options); /* NULL: the table's */
    PGresult *r = store_pg_run(q,
                               "INSERT INTO hands (table_id, number, seed, deal, game_state, started_at, options)"
                               " SELECT $1::bigint, $2::bigint, $3::bigint, $4::text, $5::text, $6::bigint, $7::text"
                               " WHERE EXISTS (SELECT 1 FROM game_tables WHERE id = $1)"
                               " AND NOT EXISTS (SELECT 1 FROM hands WHERE table_id = $1 AND finished_at IS NULL)"
                               " AND NOT EXISTS (SELECT 1 FROM hands WHERE table_id = $1 AND number = $2) RETURNING id",
                               &v, "starting a hand", error);
    if (r == NULL)
        return error->status;
    const bool started = PQntuples(r) == 1;
    *id = started ? pg_get_int(r, 0, 0) : 0;
    PQclear(r);
    if (!started)
        return why_no_hand(q, in, error);
    store_hand_cache_put(&q->hands, *id, &(hand_state){.table_id = in->table_id, .last_seq = 0});
    return STORE_OK;
}

/* The open hand's table and last action number, from the cache or the database. */
static store_status read_hand_state(store_pg *q, int64_t hand_id, hand_state *out, store_error *error)
{
    if (store_hand_cache_get(&q->hands, hand_id, out))
        return STORE_OK;
    pg_params p = {0};
    pg_int(&p, hand_id);
    PGresult *r = store_pg_run(q,
                               "SELECT table_id, finished_at IS NULL,"
                               " (SELECT coalesce(max(seq), 0) FROM hand_actions WHERE hand_id = $1)"
                               " FROM hands WHERE id = $1",
                               &p, "reading a hand", error);
    if (r == NULL)
        return error->status;
    const bool found = PQntuples(r) > 0;
    const bool open = found && pg_get_int(r, 0, 1) != 0;
    if (found) {
        out->table_id = pg_get_int(r, 0, 0);
        out->last_seq = pg_get_int(r, 0, 2);
    }
    PQclear(r);
    if (!found)
        return store_error_set(error, STORE_NOT_FOUND, "There is no hand %" PRId64 ".", hand_id);
    if (!open)
        return store_error_set(error, STORE_INVALID, "Hand %" PRId64 " is over.", hand_id);
    store_hand_cache_put(&q->hands, hand_id, out);
    return STORE_OK;
}

/* Appends action seq of an open hand; hs is the hand's state before it. */
static store_status insert_action(store_pg *q, int64_t hand_id, const hand_state *hs, int64_t seq, int seat,
                                  const char *action, int64_t now, store_error *error)
{
    if (seq <= hs->last_seq)
        return store_error_set(error, STORE_CONFLICT, "Action %" PRId64 " of hand %" PRId64 " is already recorded.",
                               seq, hand_id);
    if (seq != hs->last_seq + 1)
        return store_error_set(error, STORE_INVALID,
                               "Action %" PRId64 " of hand %" PRId64 " would leave a gap: the last recorded is %" PRId64
                               ".",
                               seq, hand_id, hs->last_seq);
    pg_params p = {0};
    pg_int(&p, hand_id);
    pg_int(&p, seq);
    pg_int(&p, seat);
    pg_text(&p, action);
    pg_int(&p, now);
    if (store_pg_exec(q, "INSERT INTO hand_actions (hand_id, seq, seat, action, at) VALUES ($1, $2, $3, $4, $5)", &p,
                      "recording an action", error) < 0)
        return error->status;
    store_hand_cache_put(&q->hands, hand_id, &(hand_state){.table_id = hs->table_id, .last_seq = seq});
    return STORE_OK;
}

/* An action is checked now and sent with the batch's others (store_pg_flush_actions). */
store_status store_pg_action_append(void *b, const store_in_action *in, store_error *error)
{
    store_pg *q = b;
    hand_state hs;
    if (read_hand_state(q, in->hand_id, &hs, error) != STORE_OK)
        return error->status;
    if (in->seq <= hs.last_seq)
        return store_error_set(error, STORE_CONFLICT, "Action %" PRId64 " of hand %" PRId64 " is already recorded.",
                               in->seq, in->hand_id);
    if (in->seq != hs.last_seq + 1)
        return store_error_set(error, STORE_INVALID,
                               "Action %" PRId64 " of hand %" PRId64 " would leave a gap: the last recorded is %" PRId64
                               ".",
                               in->seq, in->hand_id, hs.last_seq);
    if (q->n_pending == q->cap_pending) {
        size_t grown_cap = q->cap_pending ? q->cap_pending * 2 : 256;
        pg_action *grown = realloc(q->pending, grown_cap * sizeof *grown);
        if (grown == NULL)
            return store_error_set(error, STORE_INTERNAL, "Out of memory recording an action.");
        q->pending = grown;
        q->cap_pending = grown_cap;
    }
    char *action = strdup(in->action);
    if (action == NULL)
        return store_error_set(error, STORE_INTERNAL, "Out of memory recording an action.");
    q->pending[q->n_pending++] = (pg_action){.hand_id = in->hand_id, .seq = in->seq, .seat = in->seat,
                                             .at = store_now_ms(&q->options), .action = action};
    store_hand_cache_put(&q->hands, in->hand_id, &(hand_state){.table_id = hs.table_id, .last_seq = in->seq});
    return STORE_OK;
}

/* ---- The ledger ---- */

/* The balance of each entry's player before its row (the balance of the player's last row, or 0;
 * a player with two rows in one hand carries the first to the second), in one statement, checking
 * that every player exists before anything is written. */
static store_status entry_balances(store_pg *q, const store_ledger_entry *entries, size_t n, int64_t *balances,
                                   store_error *error)
{
    char ids[STORE_ENTRIES_MAX * 24 + 4];
    size_t used = 0;
    ids[used++] = '{';
    for (size_t i = 0; i < n; i++)
        used += (size_t)snprintf(ids + used, sizeof ids - used, "%s%" PRId64, i ? "," : "", entries[i].player_id);
    snprintf(ids + used, sizeof ids - used, "}");
    pg_params p = {0};
    pg_text(&p, ids);
    PGresult *r = store_pg_run(q,
                               "SELECT e.id, EXISTS (SELECT 1 FROM players WHERE id = e.id),"
                               " (SELECT balance_after FROM ledger WHERE player_id = e.id ORDER BY id DESC LIMIT 1)"
                               " FROM unnest($1::bigint[]) WITH ORDINALITY AS e(id, n) ORDER BY e.n",
                               &p, "reading balances", error);
    if (r == NULL)
        return error->status;
    store_status status = STORE_OK;
    for (size_t i = 0; i < n && status == STORE_OK; i++) {
        const store_ledger_entry *e = &entries[i];
        balances[i] = 0;
        if (e->player_id == 0)
            continue;
        if (pg_get_int(r, (int)i, 1) == 0) {
            status = store_error_set(error, STORE_INVALID,
                                     "A ledger row names player %" PRId64 ", who does not exist.", e->player_id);
            break;
        }
        int64_t before = pg_get_int(r, (int)i, 2);
        for (size_t k = i; k-- > 0;)
            if (entries[k].player_id == e->player_id) {
                before = balances[k];
                break;
            }
        if (__builtin_add_overflow(before, e->units, &balances[i]))
            status = store_error_set(error, STORE_INVALID, "Player %" PRId64 "'s balance would overflow.",
                                     e->player_id);
    }
    PQclear(r);
    return status;
}

/* The chain's end, under the ledger's lock (taken first, in a statement of its own, so that the
 * read that follows sees every row committed before the lock was granted). */
static store_status ledger_tail(store_pg *q, int64_t *last_id, char prev_hash[STORE_HASH_HEX], store_error *error)
{
    pg_params lock = {0};
    pg_int(&lock, PG_LEDGER_LOCK);
    if (store_pg_exec(q, "SELECT pg_advisory_xact_lock($1)", &lock, "locking the ledger", error) < 0)
        return error->status;
    PGresult *r = store_pg_run(q, "SELECT id, hash FROM ledger ORDER BY id DESC LIMIT 1", NULL,
                               "reading the end of the ledger", error);
    if (r == NULL)
        return error->status;
    *last_id = 0;
    snprintf(prev_hash, STORE_HASH_HEX, "%s", STORE_LEDGER_ZERO_HASH);
    if (PQntuples(r) > 0) {
        *last_id = pg_get_int(r, 0, 0);
        pg_get_text(prev_hash, STORE_HASH_HEX, r, 0, 1);
    }
    PQclear(r);
    return STORE_OK;
}

/* A column of the rows as an array literal's element (NULL as the unquoted NULL). */
static size_t put_element(char *out, size_t cap, size_t used, bool first, const char *text)
{
    return used + (size_t)snprintf(out + used, cap - used, "%s%s", first ? "{" : ",", text ? text : "NULL");
}

store_status store_pg_append_ledger(store_pg *q, int64_t hand_id, int64_t table_id, const store_ledger_entry *entries,
                                    size_t n_entries, int64_t now, store_error *error)
{
    if (n_entries == 0)
        return STORE_OK;
    if (n_entries > STORE_ENTRIES_MAX)
        return store_error_set(error, STORE_INVALID, "A hand has at most %d ledger rows.", STORE_ENTRIES_MAX);
    int64_t balances[STORE_ENTRIES_MAX];
    if (entry_balances(q, entries, n_entries, balances, error) != STORE_OK)
        return error->status;
    int64_t last_id = 0;
    char prev[STORE_HASH_HEX];
    if (ledger_tail(q, &last_id, prev, error) != STORE_OK)
        return error->status;
    /* The rows as arrays, one a column; reasons are clean short texts (store_text_is_clean),
     * quoted with their quotes and backslashes escaped. */
    enum { COLUMNS = 8, CAP = STORE_ENTRIES_MAX * (2 * STORE_SHORT_TEXT + 4) + 8 };
    static const size_t caps[COLUMNS] = {CAP, CAP, CAP, CAP, CAP, CAP, CAP, CAP};
    char *text[COLUMNS];
    size_t used[COLUMNS] = {0};
    for (int c = 0; c < COLUMNS; c++)
        if ((text[c] = malloc(caps[c])) == NULL) {
            while (c-- > 0)
                free(text[c]);
            return store_error_set(error, STORE_INTERNAL, "Out of memory writing the ledger.");
        }
    for (size_t i = 0; i < n_entries; i++) {
        const store_ledger_entry *e = &entries[i];
        store_ledger_row row = {
            .id = last_id + 1 + (int64_t)i,
            .table_id = table_id,
            .hand_id = hand_id,
            .is_bot = e->player_id == 0,
            .player_id = e->player_id,
            .seat = e->seat,
            .units = e->units,
            .reason = e->reason,
            .balance_after = balances[i],
            .at_ms = now,
            .prev_hash = prev,
        };
        char hash[STORE_HASH_HEX], n[5][24], reason[2 * STORE_SHORT_TEXT + 3];
        store_ledger_hash(&row, q->ledger_key, hash);
        snprintf(n[0], sizeof n[0], "%" PRId64, row.id);
        snprintf(n[1], sizeof n[1], "%" PRId64, row.player_id);
        snprintf(n[2], sizeof n[2], "%d", row.seat);
        snprintf(n[3], sizeof n[3], "%" PRId64, row.units);
        snprintf(n[4], sizeof n[4], "%" PRId64, row.balance_after);
        size_t r = 0;
        reason[r++] = '"';
        for (const char *c = e->reason; *c && r < sizeof reason - 3; c++) {
            if (*c == '"' || *c == '\\')
                reason[r++] = '\\';
            reason[r++] = *c;
        }
        reason[r++] = '"';
        reason[r] = '\0';
        const char *values[COLUMNS] = {n[0], row.is_bot ? NULL : n[1], n[2], n[3], reason,
                                       row.is_bot ? NULL : n[4], prev, hash};
        for (int c = 0; c < COLUMNS; c++)
            used[c] = put_element(text[c], caps[c], used[c], i == 0, values[c]);
        memcpy(prev, hash, sizeof prev);
    }
    pg_params p = {0};
    for (int c = 0; c < COLUMNS; c++) {
        snprintf(text[c] + used[c], caps[c] - used[c], "}");
        pg_text(&p, text[c]);
    }
    pg_int(&p, table_id);
    pg_int(&p, hand_id);
    pg_int(&p, now);
    long written = store_pg_exec(q,
                                 "INSERT INTO ledger (id, table_id, hand_id, player_id, seat, units, reason,"
                                 " balance_after, at, prev_hash, hash) SELECT id, $9, $10, player_id, seat, units,"
                                 " reason, balance_after, $11, prev_hash, hash FROM unnest($1::bigint[], $2::bigint[],"
                                 " $3::integer[], $4::bigint[], $5::text[], $6::bigint[], $7::text[], $8::text[])"
                                 " AS r(id, player_id, seat, units, reason, balance_after, prev_hash, hash)",
                                 &p, "writing the ledger", error);
    for (int c = 0; c < COLUMNS; c++)
        free(text[c]);
    return written < 0 ? error->status : STORE_OK;
}

/* ---- A hand's end ---- */

store_status store_pg_hand_finish(void *b, const store_in_hand_end *in, store_error *error)
{
    store_pg *q = b;
    const int64_t now = store_now_ms(&q->options);
    hand_state hs;
    if (read_hand_state(q, in->hand_id, &hs, error) != STORE_OK)
        return error->status;
    if (in->last_seq > 0 &&
        insert_action(q, in->hand_id, &hs, in->last_seq, in->last_seat, in->last_action, now, error) != STORE_OK)
        return error->status;
    /* The result and the table's next game state in one statement. */
    pg_params result = {0};
    pg_int(&result, in->hand_id);
    pg_text(&result, in->result);
    pg_int(&result, now);
    pg_int(&result, hs.table_id);
    pg_text(&result, in->next_game_state);
    if (store_pg_exec(q,
                      "WITH finished AS (UPDATE hands SET result = $2, finished_at = $3 WHERE id = $1"
                      " AND finished_at IS NULL RETURNING id)"
                      " UPDATE game_tables SET game_state = $5, updated_at = $3 WHERE id = $4",
                      &result, "recording a hand's result", error) < 0)
        return error->status;
    if (store_pg_append_ledger(q, in->hand_id, hs.table_id, in->entries, in->n_entries, now, error) != STORE_OK)
        return error->status;
    store_hand_cache_forget(&q->hands, in->hand_id);
    return STORE_OK;
}
