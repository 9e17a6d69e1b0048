/*
 * store_pg_read — the PostgreSQL store's reads (store_pg.h): the open tables for recovery (each
 * with its unfinished hand and that hand's actions, its running scores and its seated players'
 * current nicknames); a table's finished hands; one hand with its actions; the tables a player
 * played at; and the whole-ledger check, which runs on the thread pool over a connection of its
 * own in one REPEATABLE READ snapshot, so that writes go on meanwhile. The same answers as the
 * SQLite store's (store_history.c, store_db_ledger.c), row for row.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "store_key.h"
#include "store_pg.h"

static json_t *stored_json(const PGresult *r, int row, int column, const char *what, int64_t id, store_error *error)
{
    json_t *value = PQgetisnull(r, row, column) ? NULL : json_loads(PQgetvalue(r, row, column), JSON_DECODE_ANY, NULL);
    if (value == NULL)
        store_error_set(error, STORE_CORRUPT, "The %s of %" PRId64 " in the database is not JSON.", what, id);
    return value;
}

/* ---- Hands ---- */

/* Columns 0 to 6 of a hand query into s: id, number, game_state, started_at, finished_at, result,
 * options (NULL for a hand stored before they were kept with it: the table's). */
static store_status read_summary_row(const PGresult *r, int row, store_hand_summary *s, store_error *error)
{
    memset(s, 0, sizeof *s);
    s->id = pg_get_int(r, row, 0);
    s->number = pg_get_int(r, row, 1);
    s->game_state = stored_json(r, row, 2, "game state of hand", s->id, error);
    if (s->game_state == NULL)
        return error->status;
    s->started_at_ms = pg_get_int(r, row, 3);
    s->finished_at_ms = pg_get_int(r, row, 4);
    if (!pg_is_null(r, row, 6) && (s->options = stored_json(r, row, 6, "options of hand", s->id, error)) == NULL)
        return error->status;
    if (pg_is_null(r, row, 5))
        return STORE_OK;
    s->result = stored_json(r, row, 5, "result of hand", s->id, error);
    return s->result ? STORE_OK : error->status;
}

/* The summary's per-seat players, nicknames and units, from the hand's ledger rows. */
static store_status read_summary_seats(store_pg *q, store_hand_summary *s, store_error *error)
{
    pg_params p = {0};
    pg_int(&p, s->id);
    PGresult *r = store_pg_run(q,
                               "SELECT l.seat, l.player_id, l.units, p.nickname FROM"
                               " (SELECT seat, max(player_id) AS player_id, sum(units) AS units FROM ledger"
                               " WHERE hand_id = $1 GROUP BY seat) AS l LEFT JOIN players AS p ON p.id = l.player_id",
                               &p, "reading a hand's ledger rows", error);
    if (r == NULL)
        return error->status;
    for (int i = 0; i < PQntuples(r); i++) {
        const int seat = (int)pg_get_int(r, i, 0);
        if (seat < 0 || seat >= STORE_SEATS)
            continue; /* the store never writes such a row; the ledger check reports tampering */
        s->player_ids[seat] = pg_get_int(r, i, 1);
        s->units[seat] = pg_get_int(r, i, 2);
        pg_get_text(s->nicknames[seat], sizeof s->nicknames[seat], r, i, 3);
    }
    PQclear(r);
    return STORE_OK;
}

store_status store_pg_table_hands(void *b, const store_in_hands *in, store_hand_summary **out, size_t *n,
                                  store_error *error)
{
    store_pg *q = b;
    *out = NULL;
    *n = 0;
    pg_params p = {0};
    pg_int(&p, in->table_id);
    pg_int(&p, in->before > 0 ? in->before : INT64_MAX);
    pg_int(&p, in->limit);
    PGresult *r = store_pg_run(q,
                               "SELECT id, number, game_state, started_at, finished_at, result, options FROM hands"
                               " WHERE table_id = $1 AND number < $2 AND finished_at IS NOT NULL"
                               " ORDER BY number DESC LIMIT $3",
                               &p, "reading a table's hands", error);
    if (r == NULL)
        return error->status;
    const int rows = PQntuples(r);
    store_hand_summary *page = calloc(rows > 0 ? (size_t)rows : 1, sizeof *page);
    if (page == NULL) {
        PQclear(r);
        return store_error_set(error, STORE_INTERNAL, "Out of memory while reading a table's hands.");
    }
    store_status status = STORE_OK;
    size_t count = 0;
    for (int i = 0; status == STORE_OK && i < rows; i++) {
        status = read_summary_row(r, i, &page[count], error);
        count++; /* counted even when half read, so that its JSON is freed */
        if (status == STORE_OK)
            status = read_summary_seats(q, &page[count - 1], error);
    }
    PQclear(r);
    if (status != STORE_OK) {
        store_summaries_free(page, count);
        return status;
    }
    *out = page;
    *n = count;
    return STORE_OK;
}

store_status store_pg_player_tables(void *b, const store_in_player_tables *in, store_played_table **out, size_t *n,
                                    store_error *error)
{
    store_pg *q = b;
    *out = NULL;
    *n = 0;
    pg_params p = {0};
    pg_int(&p, in->player_id);
    pg_text(&p, in->code);
    pg_int(&p, in->limit);
    PGresult *r = store_pg_run_once(q,
                               "SELECT t.id, t.code, t.game, t.options, t.state, t.hands_played,"
                               " count(DISTINCT l.hand_id), sum(l.units), max(l.at)"
                               " FROM ledger AS l JOIN game_tables AS t ON t.id = l.table_id"
                               " WHERE ($1::bigint = 0 OR l.player_id = $1) AND t.game <> 'adjustment'"
                               " AND ($2 = '' OR t.code = $2)"
                               " GROUP BY t.id ORDER BY max(l.at) DESC, t.id DESC LIMIT $3",
                               &p, "reading a player's tables", error);
    if (r == NULL)
        return error->status;
    const int rows = PQntuples(r);
    store_played_table *page = calloc(rows > 0 ? (size_t)rows : 1, sizeof *page);
    if (page == NULL) {
        PQclear(r);
        return store_error_set(error, STORE_INTERNAL, "Out of memory while reading a player's tables.");
    }
    store_status status = STORE_OK;
    size_t count = 0;
    for (int i = 0; status == STORE_OK && i < rows; i++) {
        store_played_table *t = &page[count++];
        t->table_id = pg_get_int(r, i, 0);
        pg_get_text(t->code, sizeof t->code, r, i, 1);
        pg_get_text(t->game, sizeof t->game, r, i, 2);
        t->options = stored_json(r, i, 3, "options of table", t->table_id, error);
        if (t->options == NULL)
            status = error->status;
        pg_get_text(t->state, sizeof t->state, r, i, 4);
        t->hands_played = pg_get_int(r, i, 5);
        t->hands = pg_get_int(r, i, 6);
        t->units = pg_get_int(r, i, 7);
        t->last_at_ms = pg_get_int(r, i, 8);
    }
    PQclear(r);
    if (status != STORE_OK) {
        store_played_free(page, count);
        return status;
    }
    *out = page;
    *n = count;
    return STORE_OK;
}

/* The hand's actions, in order, appended to hand->actions. */
static store_status read_actions(store_pg *q, store_hand *hand, store_error *error)
{
    pg_params p = {0};
    pg_int(&p, hand->id);
    PGresult *r = store_pg_run(q, "SELECT seq, seat, action FROM hand_actions WHERE hand_id = $1 ORDER BY seq", &p,
                               "loading a hand's actions", error);
    if (r == NULL)
        return error->status;
    const int rows = PQntuples(r);
    store_status status = STORE_OK;
    if (rows > 0 && (hand->actions = calloc((size_t)rows, sizeof *hand->actions)) == NULL)
        status = store_error_set(error, STORE_INTERNAL, "Out of memory while loading hand %" PRId64 ".", hand->id);
    for (int i = 0; status == STORE_OK && i < rows; i++) {
        store_action *a = &hand->actions[hand->n_actions];
        a->seq = pg_get_int(r, i, 0);
        a->seat = (int)pg_get_int(r, i, 1);
        a->action = stored_json(r, i, 2, "an action of hand", hand->id, error);
        if (a->action == NULL)
            status = error->status;
        else
            hand->n_actions++;
    }
    PQclear(r);
    return status;
}

store_status store_pg_hand_get(void *b, const store_in_hand_get *in, store_hand **hand, store_hand_summary *summary,
                               store_error *error)
{
    store_pg *q = b;
    *hand = NULL;
    memset(summary, 0, sizeof *summary);
    pg_params p = {0};
    pg_int(&p, in->table_id);
    pg_int(&p, in->number);
    PGresult *r = store_pg_run(q,
                               "SELECT id, number, game_state, started_at, finished_at, result, options, seed, deal"
                               " FROM hands WHERE table_id = $1 AND number = $2",
                               &p, "reading a hand", error);
    if (r == NULL)
        return error->status;
    store_status status;
    if (PQntuples(r) == 0 || pg_is_null(r, 0, 4)) {
        status = store_error_set(error, STORE_NOT_FOUND, "Table %" PRId64 " has no finished hand %" PRId64 ".",
                                 in->table_id, in->number);
    } else if ((status = read_summary_row(r, 0, summary, error)) == STORE_OK) {
        store_hand *h = calloc(1, sizeof *h);
        if (h == NULL) {
            status = store_error_set(error, STORE_INTERNAL, "Out of memory while loading a hand.");
        } else {
            *hand = h;
            h->id = summary->id;
            h->number = summary->number;
            h->game_state = json_incref(summary->game_state);
            h->options = summary->options != NULL ? json_incref(summary->options) : NULL;
            h->seed = (uint64_t)pg_get_int(r, 0, 7); /* the same 64 bits the store wrote */
            h->deal = stored_json(r, 0, 8, "deal of hand", h->id, error);
            status = h->deal ? STORE_OK : error->status;
        }
    }
    PQclear(r);
    if (status == STORE_OK)
        status = read_summary_seats(q, summary, error);
    if (status == STORE_OK)
        status = read_actions(q, *hand, error);
    if (status != STORE_OK) {
        store_hand_free(*hand);
        *hand = NULL;
        store_summary_clear(summary);
    }
    return status;
}

/* ---- Recovery ---- */

/* Adds units and hands to the player's entry (a new one for a player not in the list yet). */
static bool add_player_score(store_open_table *ot, size_t *cap, int64_t player_id, int64_t units, int64_t hands)
{
    for (size_t i = 0; i < ot->n_player_scores; i++)
        if (ot->player_scores[i].player_id == player_id) { /* another seat of theirs: other hands */
            ot->player_scores[i].score += units;
            ot->player_scores[i].hands += hands;
            return true;
        }
    if (ot->n_player_scores == *cap) {
        size_t grown_cap = *cap ? *cap * 2 : 8;
        store_player_score *grown = realloc(ot->player_scores, grown_cap * sizeof *grown);
        if (grown == NULL)
            return false;
        ot->player_scores = grown;
        *cap = grown_cap;
    }
    ot->player_scores[ot->n_player_scores++] = (store_player_score){.player_id = player_id, .score = units, .hands = hands};
    return true;
}

/* The running score of whoever holds each seat, and every player's (store.h, store_open_table). */
static store_status read_scores(store_pg *q, store_open_table *ot, store_error *error)
{
    const store_seat *seats = ot->table.seats;
    memset(ot->scores, 0, sizeof ot->scores);
    pg_params p = {0};
    pg_int(&p, ot->table.id);
    PGresult *r = store_pg_run(q,
                               "SELECT l.seat, l.player_id, sum(l.units), count(DISTINCT l.hand_id)"
                               " FROM hands AS h JOIN ledger AS l"
                               " ON l.hand_id = h.id WHERE h.table_id = $1 GROUP BY l.seat, l.player_id",
                               &p, "adding up a table's scores", error);
    if (r == NULL)
        return error->status;
    size_t cap = 0;
    store_status status = STORE_OK;
    for (int i = 0; status == STORE_OK && i < PQntuples(r); i++) {
        const int seat = (int)pg_get_int(r, i, 0);
        const bool bot_row = pg_is_null(r, i, 1);
        const int64_t player_id = pg_get_int(r, i, 1);
        const int64_t units = pg_get_int(r, i, 2);
        for (int s = 0; s < STORE_SEATS; s++)
            if (bot_row ? s == seat && seats[s].player_id <= 0 && seats[s].bot : seats[s].player_id == player_id)
                ot->scores[s] += units;
        const int64_t hands = pg_get_int(r, i, 3);
        if (!bot_row && !add_player_score(ot, &cap, player_id, units, hands))
            status = store_error_set(error, STORE_INTERNAL, "Out of memory while adding up a table's scores.");
    }
    PQclear(r);
    return status;
}

static store_status read_nicknames(store_pg *q, store_seat seats[STORE_SEATS], store_error *error)
{
    for (int i = 0; i < STORE_SEATS; i++) {
        seats[i].nickname[0] = '\0';
        if (seats[i].player_id <= 0)
            continue;
        pg_params p = {0};
        pg_int(&p, seats[i].player_id);
        PGresult *r = store_pg_run(q, "SELECT nickname FROM players WHERE id = $1", &p, "reading a player's nickname",
                                   error);
        if (r == NULL)
            return error->status;
        if (PQntuples(r) > 0)
            pg_get_text(seats[i].nickname, sizeof seats[i].nickname, r, 0, 0);
        PQclear(r);
    }
    return STORE_OK;
}

static store_status read_table_row(const PGresult *r, int row, store_table *t, store_error *error)
{
    memset(t, 0, sizeof *t);
    t->id = pg_get_int(r, row, 0);
    pg_get_text(t->game, sizeof t->game, r, row, 1);
    t->options = stored_json(r, row, 2, "options of table", t->id, error);
    if (t->options == NULL)
        return error->status;
    t->host_player_id = pg_get_int(r, row, 3);
    pg_get_text(t->code, sizeof t->code, r, row, 4);
    t->is_public = pg_get_int(r, row, 5) != 0;
    if (!store_pg_parse_seats(PQgetvalue(r, row, 6), t->seats))
        return store_error_set(error, STORE_CORRUPT, "The seats of table %" PRId64 " in the database are damaged.",
                               t->id);
    pg_get_text(t->state, sizeof t->state, r, row, 7);
    t->game_state = stored_json(r, row, 8, "game state of table", t->id, error);
    if (t->game_state == NULL)
        return error->status;
    t->hands_played = pg_get_int(r, row, 9);
    t->turn_seconds = (int)pg_get_int(r, row, 10);
    t->held = pg_get_int(r, row, 11) != 0;
    t->spectator_chat_off = pg_get_int(r, row, 12) == 0;
    return STORE_OK;
}

/* The table's unfinished hand with its actions into *out, or *out NULL when there is none. */
static store_status read_unfinished_hand(store_pg *q, int64_t table_id, store_hand **out, store_error *error)
{
    *out = NULL;
    pg_params p = {0};
    pg_int(&p, table_id);
    PGresult *r = store_pg_run(q,
                               "SELECT id, number, seed, deal, game_state, options FROM hands"
                               " WHERE table_id = $1 AND finished_at IS NULL ORDER BY number LIMIT 1",
                               &p, "loading an unfinished hand", error);
    if (r == NULL)
        return error->status;
    if (PQntuples(r) == 0) {
        PQclear(r);
        return STORE_OK;
    }
    store_hand *hand = calloc(1, sizeof *hand);
    if (hand == NULL) {
        PQclear(r);
        return store_error_set(error, STORE_INTERNAL, "Out of memory while loading table %" PRId64 ".", table_id);
    }
    *out = hand;
    hand->id = pg_get_int(r, 0, 0);
    hand->number = pg_get_int(r, 0, 1);
    hand->seed = (uint64_t)pg_get_int(r, 0, 2);
    hand->deal = stored_json(r, 0, 3, "deal of hand", hand->id, error);
    hand->game_state = hand->deal ? stored_json(r, 0, 4, "game state of hand", hand->id, error) : NULL;
    store_status status = hand->game_state != NULL ? STORE_OK : error->status;
    if (status == STORE_OK && !pg_is_null(r, 0, 5) &&
        (hand->options = stored_json(r, 0, 5, "options of hand", hand->id, error)) == NULL)
        status = error->status; /* NULL: a hand stored before they were kept, the table's */
    PQclear(r);
    if (status != STORE_OK)
        return status;
    return read_actions(q, hand, error);
}

store_status store_pg_recover(void *b, store_recovery **out, store_error *error)
{
    store_pg *q = b;
    *out = NULL;
    PGresult *r = store_pg_run(
        q,
        "SELECT id, game, options, host_player_id, code, is_public, seats, state, game_state,"
        " greatest(hands_played, coalesce((SELECT max(number) FROM hands WHERE table_id = t.id), 0)), turn_seconds,"
        " held, spectator_chat FROM game_tables AS t WHERE state <> 'closed'"
        /* a node reopens only the tables it owns (server/cluster/); a server alone owns them all */
        " AND owner_node IS NOT DISTINCT FROM nullif(current_setting('teahouse.node', true), '')"
        " ORDER BY id",
        NULL, "loading the open tables", error);
    if (r == NULL)
        return error->status;
    store_recovery *rec = calloc(1, sizeof *rec);
    const int rows = PQntuples(r);
    if (rec == NULL || (rows > 0 && (rec->tables = calloc((size_t)rows, sizeof *rec->tables)) == NULL)) {
        free(rec);
        PQclear(r);
        return store_error_set(error, STORE_INTERNAL, "Out of memory while recovering.");
    }
    store_status status = STORE_OK;
    for (int i = 0; status == STORE_OK && i < rows; i++) {
        status = read_table_row(r, i, &rec->tables[i].table, error);
        rec->n_tables++; /* counted even when half read, so that its JSON is freed */
    }
    PQclear(r);
    for (size_t i = 0; status == STORE_OK && i < rec->n_tables; i++) {
        store_open_table *ot = &rec->tables[i];
        status = read_unfinished_hand(q, ot->table.id, &ot->hand, error);
        rec->n_unfinished_hands += ot->hand != NULL;
        if (status == STORE_OK)
            status = read_scores(q, ot, error);
        if (status == STORE_OK)
            status = read_nicknames(q, ot->table.seats, error);
    }
    if (status != STORE_OK) {
        store_recovery_free(rec);
        return status;
    }
    *out = rec;
    return STORE_OK;
}

/* ---- The ledger check ---- */

static void check_fail(store_ledger_check *check, int64_t row, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static void check_fail(store_ledger_check *check, int64_t row, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(check->why, sizeof check->why, format, args);
    va_end(args);
    check->ok = false;
    check->first_bad_row = row;
}

static bool is_hash_text(const char *text)
{
    if (strlen(text) != STORE_HASH_HEX - 1)
        return false;
    for (int i = 0; i < STORE_HASH_HEX - 1; i++)
        if (!((text[i] >= '0' && text[i] <= '9') || (text[i] >= 'a' && text[i] <= 'f')))
            return false;
    return true;
}

/* How the rows are to be hashed (store_db_ledger.c says why). */
typedef struct chain_rule {
    const unsigned char *key;
    int64_t v1_rows;
    const char *v1_last_hash;
} chain_rule;

/* Checks row i of r (the columns of the rows' query) after the previous one. */
static bool check_row(const PGresult *r, int i, const chain_rule *rule, int64_t *expected_id,
                      char prev[STORE_HASH_HEX], store_ledger_check *check)
{
    const int64_t id = pg_get_int(r, i, 0);
    const char *prev_hash = PQgetvalue(r, i, 9);
    const char *hash = PQgetvalue(r, i, 10);
    if (id != *expected_id) {
        check_fail(check, id, "row ids jump from %" PRId64 " to %" PRId64 ": rows are missing", *expected_id - 1, id);
        return false;
    }
    if (!is_hash_text(prev_hash) || strcmp(prev_hash, prev) != 0) {
        check_fail(check, id, "its previous hash is not the hash of row %" PRId64, id - 1);
        return false;
    }
    if (!is_hash_text(hash)) {
        check_fail(check, id, "its hash or reason is malformed");
        return false;
    }
    store_ledger_row row = {
        .id = id,
        .table_id = pg_get_int(r, i, 1),
        .hand_id = pg_get_int(r, i, 2),
        .is_bot = pg_is_null(r, i, 3),
        .player_id = pg_get_int(r, i, 3),
        .seat = (int)pg_get_int(r, i, 4),
        .units = pg_get_int(r, i, 5),
        .reason = PQgetvalue(r, i, 6),
        .balance_after = pg_get_int(r, i, 7),
        .at_ms = pg_get_int(r, i, 8),
        .prev_hash = prev_hash,
    };
    const bool v1 = id <= rule->v1_rows;
    char computed[STORE_HASH_HEX];
    store_ledger_hash(&row, v1 ? NULL : rule->key, computed);
    if (strcmp(computed, hash) != 0) {
        check_fail(check, id, v1 ? "its hash does not match its fields (a row from before the ledger's key)"
                                 : "its hash does not match its fields and the ledger's key");
        return false;
    }
    if (v1 && id == rule->v1_rows && strcmp(hash, rule->v1_last_hash) != 0) {
        check_fail(check, id, "it is not the last row the key record names from before the key");
        return false;
    }
    const int64_t running = pg_get_int(r, i, 11);
    if (!row.is_bot && row.balance_after != running) {
        check_fail(check, id, "its balance %" PRId64 " does not follow from the player's rows (%" PRId64 ")",
                   row.balance_after, running);
        return false;
    }
    memcpy(prev, hash, STORE_HASH_HEX);
    (*expected_id)++;
    return true;
}

/* The rows, a page at a time through a cursor (a ledger of millions of rows is never in memory
 * whole), then the hands' sums. */
static store_status verify_rows(store_pg *q, const chain_rule *rule, store_ledger_check *check, store_error *error)
{
    if (store_pg_exec(q,
                      "DECLARE rows NO SCROLL CURSOR FOR SELECT id, table_id, hand_id, player_id, seat, units,"
                      " reason, balance_after, at, prev_hash, hash,"
                      " sum(units) OVER (PARTITION BY player_id ORDER BY id ROWS UNBOUNDED PRECEDING)"
                      " FROM ledger ORDER BY id",
                      NULL, "checking the ledger", error) < 0)
        return error->status;
    int64_t expected_id = 1;
    char prev[STORE_HASH_HEX] = STORE_LEDGER_ZERO_HASH;
    for (;;) {
        PGresult *r = store_pg_run(q, "FETCH 10000 FROM rows", NULL, "checking the ledger", error);
        if (r == NULL)
            return error->status;
        const int rows = PQntuples(r);
        bool good = true;
        for (int i = 0; good && i < rows; i++) {
            check->rows_checked++;
            if (check->rows_checked <= rule->v1_rows)
                check->v1_rows++;
            good = check_row(r, i, rule, &expected_id, prev, check);
        }
        PQclear(r);
        if (!good)
            return STORE_OK;
        if (rows == 0)
            break;
    }
    if (check->rows_checked < rule->v1_rows)
        check_fail(check, check->rows_checked + 1,
                   "the key record counts %" PRId64 " rows from before the key: rows are missing", rule->v1_rows);
    if (!check->ok)
        return STORE_OK;
    PGresult *r = store_pg_run(q,
                               "SELECT min(id), hand_id, sum(units) FROM ledger GROUP BY hand_id"
                               " HAVING sum(units) <> 0 ORDER BY 1 LIMIT 1",
                               NULL, "checking the hands' sums", error);
    if (r == NULL)
        return error->status;
    if (PQntuples(r) > 0)
        check_fail(check, pg_get_int(r, 0, 0), "hand %" PRId64 "'s rows sum to %" PRId64 ", not zero",
                   pg_get_int(r, 0, 1), pg_get_int(r, 0, 2));
    PQclear(r);
    return STORE_OK;
}

/* In one snapshot: the key record against the key, then every row. */
static store_status verify_snapshot(store_pg *q, const unsigned char *key, store_ledger_check *check,
                                    store_error *error)
{
    PGresult *r = store_pg_run(q, "SELECT v1_rows, v1_last_hash, keyed_at, mac FROM ledger_key WHERE id = 1", NULL,
                               "reading the ledger's key record", error);
    if (r == NULL)
        return error->status;
    store_ledger_anchor anchor = {0};
    check->keyed = PQntuples(r) == 1;
    if (check->keyed) {
        anchor.v1_rows = pg_get_int(r, 0, 0);
        pg_get_text(anchor.v1_last_hash, sizeof anchor.v1_last_hash, r, 0, 1);
        anchor.keyed_at_ms = pg_get_int(r, 0, 2);
        pg_get_text(anchor.mac, sizeof anchor.mac, r, 0, 3);
    }
    PQclear(r);
    if (!check->keyed) {
        /* A PostgreSQL ledger gets its record before its first row: none means it was removed. */
        check_fail(check, 1, "the ledger has no key record: it was removed");
        return STORE_OK;
    }
    if (!store_ledger_anchor_valid(&anchor, key)) {
        check_fail(check, 1, "the ledger's key record does not match the key: a wrong key, or a changed record");
        return STORE_OK;
    }
    const chain_rule rule = {.key = key, .v1_rows = anchor.v1_rows, .v1_last_hash = anchor.v1_last_hash};
    return verify_rows(q, &rule, check, error);
}

/* The check on a connection of its own to uri, in one read-only snapshot. */
static store_status verify_on(const char *uri, const unsigned char *key, store_ledger_check *check,
                              store_error *error)
{
    memset(check, 0, sizeof *check);
    check->ok = true;
    store_pg q = {0};
    if (store_pg_connect(&q, uri, error)) {
        q.in_transaction = true;
        if (store_pg_exec(&q, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", NULL, "checking the ledger", error) >= 0)
            verify_snapshot(&q, key, check, error);
    }
    store_pg_disconnect(&q);
    return error->status;
}

store_status store_pg_verify_ledger(void *b, store_ledger_check *check, store_error *error)
{
    const store_pg *writer = b;
    return verify_on(writer->uri, writer->ledger_key, check, error);
}

bool store_pg_verify_path(const char *uri, const char *key_path, store_ledger_check *check, store_error *error)
{
    memset(check, 0, sizeof *check);
    if (key_path == NULL || key_path[0] == '\0') {
        store_error_set(error, STORE_INVALID, "A PostgreSQL ledger's key file must be given (--ledger-key FILE).");
        return false;
    }
    unsigned char key[STORE_LEDGER_KEY_BYTES];
    if (store_key_load(key_path, key, error) != STORE_OK)
        return false;
    const store_status status = verify_on(uri, key, check, error);
    sodium_memzero(key, sizeof key);
    return status == STORE_OK;
}
