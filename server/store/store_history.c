/*
 * store_history — reading back what was played (see store_history.h): the open tables with their
 * unfinished hands, running scores and seat nicknames for recovery; hand summaries for a table's
 * history; a hand's ordered actions for a replay.
 *
 * Every read follows an index: a table's hands by hands (table_id, number), a hand's ledger rows
 * by ledger_by_hand, its actions by hand_actions_by_hand. The ledger has deliberately no index on
 * its table (0001_init.sql says why), so a table's scores go through its hands; CROSS JOIN keeps
 * SQLite from choosing to scan the ledger instead.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_history.h"
#include "store_sqlite.h"
#include "store_sqlite_error.h"

typedef enum history_stmt {
    HISTORY_OPEN_TABLES,
    HISTORY_UNFINISHED_HAND,
    HISTORY_HANDS_PAGE,
    HISTORY_HAND_BY_NUMBER,
    HISTORY_HAND_SEATS,
    HISTORY_HAND_ACTIONS,
    HISTORY_TABLE_SCORES,
    HISTORY_NICKNAME,
    HISTORY_PLAYER_TABLES,
    HISTORY_COUNT
} history_stmt;

/* The first seven columns of the two hand queries are read by read_summary_row. */
static const char *const history_sql[HISTORY_COUNT] = {
    /* A hand's start does not touch its table (one page less a hand): the count comes from both. */
    [HISTORY_OPEN_TABLES] = "SELECT id, game, options, host_player_id, code, is_public, seats, state, game_state,"
                            " max(hands_played, coalesce((SELECT max(number) FROM hands WHERE table_id = t.id), 0)),"
                            " turn_seconds, held, spectator_chat FROM game_tables AS t WHERE state <> 'closed'"
                            " ORDER BY id",
    [HISTORY_UNFINISHED_HAND] = "SELECT id, number, seed, deal, game_state, options FROM hands"
                                " WHERE table_id = ?1 AND finished_at IS NULL ORDER BY number LIMIT 1",
    [HISTORY_HANDS_PAGE] = "SELECT id, number, game_state, started_at, finished_at, result, options FROM hands"
                           " WHERE table_id = ?1 AND number < ?2 AND finished_at IS NOT NULL"
                           " ORDER BY number DESC LIMIT ?3",
    [HISTORY_HAND_BY_NUMBER] = "SELECT id, number, game_state, started_at, finished_at, result, options, seed,"
                               " deal FROM hands WHERE table_id = ?1 AND number = ?2",
    /* A seat's rows all name the same player (or none, for a bot): max() picks it. */
    [HISTORY_HAND_SEATS] = "SELECT l.seat, l.player_id, l.units, p.nickname FROM"
                           " (SELECT seat, max(player_id) AS player_id, sum(units) AS units FROM ledger"
                           " WHERE hand_id = ?1 GROUP BY seat) AS l"
                           " LEFT JOIN players AS p ON p.id = l.player_id",
    [HISTORY_HAND_ACTIONS] = "SELECT seq, seat, action FROM hand_actions WHERE hand_id = ?1 ORDER BY seq",
    [HISTORY_TABLE_SCORES] = "SELECT l.seat, l.player_id, sum(l.units), count(DISTINCT l.hand_id)"
                             " FROM hands AS h CROSS JOIN ledger AS l"
                             " ON l.hand_id = h.id WHERE h.table_id = ?1 GROUP BY l.seat, l.player_id",
    [HISTORY_NICKNAME] = "SELECT nickname FROM players WHERE id = ?1",
    /* Through the player's own rows (ledger_by_player), a handful of tables each. */
    [HISTORY_PLAYER_TABLES] = "SELECT t.id, t.code, t.game, t.options, t.state, t.hands_played,"
                              " count(DISTINCT l.hand_id), sum(l.units), max(l.at)"
                              " FROM ledger AS l JOIN game_tables AS t ON t.id = l.table_id"
                              " WHERE (?1 = 0 OR l.player_id = ?1) AND t.game <> 'adjustment' AND (?2 = '' OR t.code = ?2)"
                              " GROUP BY t.id ORDER BY max(l.at) DESC, t.id DESC LIMIT ?3",
};

struct store_history {
    sqlite3 *db;
    const char *path;
    sqlite3_stmt *stmts[HISTORY_COUNT];
};

store_history *store_history_new(sqlite3 *db, const char *path)
{
    store_history *h = calloc(1, sizeof *h);
    if (h != NULL) {
        h->db = db;
        h->path = path;
    }
    return h;
}

void store_history_free(store_history *h)
{
    if (h == NULL)
        return;
    for (int i = 0; i < HISTORY_COUNT; i++)
        sqlite3_finalize(h->stmts[i]);
    free(h);
}

/* The statement, prepared on first use and kept; NULL with error set. */
static sqlite3_stmt *history_prepare(store_history *h, history_stmt id, store_error *error)
{
    if (h->stmts[id] == NULL) {
        int rc = sqlite3_prepare_v3(h->db, history_sql[id], -1, SQLITE_PREPARE_PERSISTENT, &h->stmts[id], NULL);
        if (rc != SQLITE_OK) {
            store_sqlite_error(error, h->db, h->path, rc, "preparing a statement");
            return NULL;
        }
    }
    return h->stmts[id];
}

static store_status history_fail(store_history *h, int rc, store_error *error, const char *doing)
{
    return store_sqlite_error(error, h->db, h->path, rc, doing);
}

static json_t *stored_json(const unsigned char *text, const char *what, int64_t id, store_error *error)
{
    json_t *value = text ? json_loads((const char *)text, JSON_DECODE_ANY, NULL) : NULL;
    if (value == NULL)
        store_error_set(error, STORE_CORRUPT, "The %s of %" PRId64 " in the database is not JSON.", what, id);
    return value;
}

static void copy_text(char *out, size_t cap, sqlite3_stmt *stmt, int column)
{
    const unsigned char *text = sqlite3_column_text(stmt, column);
    snprintf(out, cap, "%s", text ? (const char *)text : "");
}

/* ---- Summaries ---- */

/* Columns 0 to 6 of a hand query into s (result parsed when the hand is finished; options NULL for
 * a hand stored before they were kept with it). */
static store_status read_summary_row(sqlite3_stmt *stmt, store_hand_summary *s, store_error *error)
{
    memset(s, 0, sizeof *s);
    s->id = sqlite3_column_int64(stmt, 0);
    s->number = sqlite3_column_int64(stmt, 1);
    s->game_state = stored_json(sqlite3_column_text(stmt, 2), "game state of hand", s->id, error);
    if (s->game_state == NULL)
        return error->status;
    s->started_at_ms = sqlite3_column_int64(stmt, 3);
    s->finished_at_ms = sqlite3_column_int64(stmt, 4); /* NULL reads as 0 */
    if (sqlite3_column_type(stmt, 6) != SQLITE_NULL) {
        s->options = stored_json(sqlite3_column_text(stmt, 6), "options of hand", s->id, error);
        if (s->options == NULL)
            return error->status;
    }
    if (sqlite3_column_type(stmt, 5) == SQLITE_NULL)
        return STORE_OK;
    s->result = stored_json(sqlite3_column_text(stmt, 5), "result of hand", s->id, error);
    return s->result ? STORE_OK : error->status;
}

/* The summary's per-seat players, nicknames and units, from the hand's ledger rows. */
static store_status read_summary_seats(store_history *h, store_hand_summary *s, store_error *error)
{
    sqlite3_stmt *stmt = history_prepare(h, HISTORY_HAND_SEATS, error);
    if (stmt == NULL)
        return error->status;
    sqlite3_bind_int64(stmt, 1, s->id);
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        const int seat = sqlite3_column_int(stmt, 0);
        if (seat < 0 || seat >= STORE_SEATS)
            continue; /* the store never writes such a row; the ledger check reports tampering */
        s->player_ids[seat] = sqlite3_column_int64(stmt, 1);
        s->units[seat] = sqlite3_column_int64(stmt, 2);
        copy_text(s->nicknames[seat], sizeof s->nicknames[seat], stmt, 3);
    }
    sqlite3_reset(stmt);
    return rc == SQLITE_DONE ? STORE_OK : history_fail(h, rc, error, "reading a hand's ledger rows");
}

/* Steps the page query into out (room for limit), summary by summary. */
static store_status read_page(store_history *h, sqlite3_stmt *stmt, store_hand_summary *out, size_t *n,
                              store_error *error)
{
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        store_hand_summary *s = &out[*n];
        store_status status = read_summary_row(stmt, s, error);
        (*n)++; /* counted even when half read, so that its result is freed */
        if (status == STORE_OK)
            status = read_summary_seats(h, s, error);
        if (status != STORE_OK)
            return status;
    }
    return rc == SQLITE_DONE ? STORE_OK : history_fail(h, rc, error, "reading a table's hands");
}

store_status store_history_hands(store_history *h, int64_t table_id, int64_t before, int limit,
                                 store_hand_summary **out, size_t *n, store_error *error)
{
    *out = NULL;
    *n = 0;
    sqlite3_stmt *stmt = history_prepare(h, HISTORY_HANDS_PAGE, error);
    if (stmt == NULL)
        return error->status;
    store_hand_summary *page = calloc((size_t)limit, sizeof *page);
    if (page == NULL)
        return store_error_set(error, STORE_INTERNAL, "Out of memory while reading a table's hands.");
    sqlite3_bind_int64(stmt, 1, table_id);
    sqlite3_bind_int64(stmt, 2, before > 0 ? before : INT64_MAX);
    sqlite3_bind_int(stmt, 3, limit);
    size_t count = 0;
    store_status status = read_page(h, stmt, page, &count, error);
    sqlite3_reset(stmt);
    if (status != STORE_OK) {
        store_summaries_free(page, count);
        return status;
    }
    *out = page;
    *n = count;
    return STORE_OK;
}

/* ---- The tables a player played at ---- */

store_status store_history_player_tables(store_history *h, int64_t player_id, const char *code, int limit,
                                         store_played_table **out, size_t *n, store_error *error)
{
    *out = NULL;
    *n = 0;
    sqlite3_stmt *stmt = history_prepare(h, HISTORY_PLAYER_TABLES, error);
    if (stmt == NULL)
        return error->status;
    store_played_table *page = calloc((size_t)limit, sizeof *page);
    if (page == NULL)
        return store_error_set(error, STORE_INTERNAL, "Out of memory while reading a player's tables.");
    sqlite3_bind_int64(stmt, 1, player_id);
    sqlite3_bind_text(stmt, 2, code, -1, SQLITE_STATIC);
    sqlite3_bind_int(stmt, 3, limit);
    size_t count = 0;
    int rc;
    store_status status = STORE_OK;
    while (status == STORE_OK && count < (size_t)limit && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        store_played_table *t = &page[count++];
        t->table_id = sqlite3_column_int64(stmt, 0);
        copy_text(t->code, sizeof t->code, stmt, 1);
        copy_text(t->game, sizeof t->game, stmt, 2);
        t->options = stored_json(sqlite3_column_text(stmt, 3), "options of table", t->table_id, error);
        if (t->options == NULL)
            status = error->status;
        copy_text(t->state, sizeof t->state, stmt, 4);
        t->hands_played = sqlite3_column_int64(stmt, 5);
        t->hands = sqlite3_column_int64(stmt, 6);
        t->units = sqlite3_column_int64(stmt, 7);
        t->last_at_ms = sqlite3_column_int64(stmt, 8);
    }
    if (status == STORE_OK && count < (size_t)limit && rc != SQLITE_DONE)
        status = history_fail(h, rc, error, "reading a player's tables");
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
    if (status != STORE_OK) {
        store_played_free(page, count);
        return status;
    }
    *out = page;
    *n = count;
    return STORE_OK;
}

/* ---- One hand ---- */

static store_status append_action(store_hand *hand, size_t *cap, sqlite3_stmt *stmt, store_error *error)
{
    if (hand->n_actions == *cap) {
        size_t grown_cap = *cap ? *cap * 2 : 32;
        store_action *grown = realloc(hand->actions, grown_cap * sizeof *grown);
        if (grown == NULL)
            return store_error_set(error, STORE_INTERNAL, "Out of memory while loading hand %" PRId64 ".", hand->id);
        hand->actions = grown;
        *cap = grown_cap;
    }
    store_action *a = &hand->actions[hand->n_actions];
    a->seq = sqlite3_column_int64(stmt, 0);
    a->seat = sqlite3_column_int(stmt, 1);
    a->action = stored_json(sqlite3_column_text(stmt, 2), "an action of hand", hand->id, error);
    if (a->action == NULL)
        return error->status;
    hand->n_actions++;
    return STORE_OK;
}

static store_status read_actions(store_history *h, store_hand *hand, store_error *error)
{
    sqlite3_stmt *stmt = history_prepare(h, HISTORY_HAND_ACTIONS, error);
    if (stmt == NULL)
        return error->status;
    sqlite3_bind_int64(stmt, 1, hand->id);
    size_t cap = hand->n_actions;
    store_status status = STORE_OK;
    int rc = SQLITE_DONE;
    while (status == STORE_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW)
        status = append_action(hand, &cap, stmt, error);
    sqlite3_reset(stmt);
    if (status != STORE_OK)
        return status;
    return rc == SQLITE_DONE ? STORE_OK : history_fail(h, rc, error, "loading a hand's actions");
}

/* The options a hand was played under (column i), NULL for a hand stored before they were kept. */
static store_status hand_options(sqlite3_stmt *stmt, int i, store_hand *hand, store_error *error)
{
    if (sqlite3_column_type(stmt, i) == SQLITE_NULL)
        return STORE_OK;
    hand->options = stored_json(sqlite3_column_text(stmt, i), "options of hand", hand->id, error);
    return hand->options != NULL ? STORE_OK : error->status;
}

/* The current row of HISTORY_HAND_BY_NUMBER, a finished hand, into a new *hand and summary. */
static store_status read_hand_row(sqlite3_stmt *stmt, store_hand **hand, store_hand_summary *summary,
                                  store_error *error)
{
    if (read_summary_row(stmt, summary, error) != STORE_OK)
        return error->status;
    store_hand *out = calloc(1, sizeof *out);
    if (out == NULL)
        return store_error_set(error, STORE_INTERNAL, "Out of memory while loading a hand.");
    *hand = out;
    out->id = summary->id;
    out->number = summary->number;
    out->game_state = json_incref(summary->game_state);
    out->options = summary->options != NULL ? json_incref(summary->options) : NULL;
    out->seed = (uint64_t)sqlite3_column_int64(stmt, 7); /* the same 64 bits the store wrote */
    out->deal = stored_json(sqlite3_column_text(stmt, 8), "deal of hand", out->id, error);
    return out->deal ? STORE_OK : error->status;
}

store_status store_history_hand(store_history *h, int64_t table_id, int64_t number, store_hand **hand,
                                store_hand_summary *summary, store_error *error)
{
    *hand = NULL;
    memset(summary, 0, sizeof *summary);
    sqlite3_stmt *stmt = history_prepare(h, HISTORY_HAND_BY_NUMBER, error);
    if (stmt == NULL)
        return error->status;
    sqlite3_bind_int64(stmt, 1, table_id);
    sqlite3_bind_int64(stmt, 2, number);
    int rc = sqlite3_step(stmt);
    store_status status;
    if (rc == SQLITE_ROW && sqlite3_column_type(stmt, 4) != SQLITE_NULL)
        status = read_hand_row(stmt, hand, summary, error);
    else if (rc == SQLITE_ROW || rc == SQLITE_DONE)
        status = store_error_set(error, STORE_NOT_FOUND, "Table %" PRId64 " has no finished hand %" PRId64 ".",
                                 table_id, number);
    else
        status = history_fail(h, rc, error, "reading a hand");
    sqlite3_reset(stmt);
    if (status == STORE_OK)
        status = read_summary_seats(h, summary, error);
    if (status == STORE_OK)
        status = read_actions(h, *hand, error);
    if (status != STORE_OK) {
        store_hand_free(*hand);
        *hand = NULL;
        store_summary_clear(summary);
    }
    return status;
}

/* ---- Recovery ---- */

/* Adds units to the player's score in the list (a new entry for a player not in it yet). */
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
    ot->player_scores[ot->n_player_scores++] =
        (store_player_score){.player_id = player_id, .score = units, .hands = hands};
    return true;
}

/* The running score of whoever holds each seat (store.h): a seated player's is the sum of their
 * ledger rows at the table, whatever seat they had; a bot seat's the sum of its bots' rows there
 * (through the table's hands: the ledger has no index on its table). And every player's. */
static store_status read_scores(store_history *h, store_open_table *ot, store_error *error)
{
    const store_seat *seats = ot->table.seats;
    int64_t *scores = ot->scores;
    size_t cap = 0;
    memset(scores, 0, STORE_SEATS * sizeof *scores);
    sqlite3_stmt *stmt = history_prepare(h, HISTORY_TABLE_SCORES, error);
    if (stmt == NULL)
        return error->status;
    sqlite3_bind_int64(stmt, 1, ot->table.id);
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        const int seat = sqlite3_column_int(stmt, 0);
        const bool bot_row = sqlite3_column_type(stmt, 1) == SQLITE_NULL;
        const int64_t player_id = sqlite3_column_int64(stmt, 1);
        const int64_t units = sqlite3_column_int64(stmt, 2);
        for (int s = 0; s < STORE_SEATS; s++)
            if (bot_row ? s == seat && seats[s].player_id <= 0 && seats[s].bot : seats[s].player_id == player_id)
                scores[s] += units;
        const int64_t hands = sqlite3_column_int64(stmt, 3);
        if (!bot_row && !add_player_score(ot, &cap, player_id, units, hands)) {
            sqlite3_reset(stmt);
            return store_error_set(error, STORE_INTERNAL, "Out of memory while adding up a table's scores.");
        }
    }
    sqlite3_reset(stmt);
    return rc == SQLITE_DONE ? STORE_OK : history_fail(h, rc, error, "adding up a table's scores");
}

/* The nickname of every seat that holds a player, the player's current one ("" if the player is
 * unknown); the others cleared. */
static store_status read_nicknames(store_history *h, store_seat seats[STORE_SEATS], store_error *error)
{
    sqlite3_stmt *stmt = history_prepare(h, HISTORY_NICKNAME, error);
    if (stmt == NULL)
        return error->status;
    for (int i = 0; i < STORE_SEATS; i++) {
        seats[i].nickname[0] = '\0';
        if (seats[i].player_id <= 0)
            continue;
        sqlite3_bind_int64(stmt, 1, seats[i].player_id);
        int rc = sqlite3_step(stmt);
        if (rc == SQLITE_ROW)
            copy_text(seats[i].nickname, sizeof seats[i].nickname, stmt, 0);
        sqlite3_reset(stmt);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            return history_fail(h, rc, error, "reading a player's nickname");
    }
    return STORE_OK;
}

static store_status read_table_row(sqlite3_stmt *stmt, store_table *t, store_error *error)
{
    memset(t, 0, sizeof *t);
    t->id = sqlite3_column_int64(stmt, 0);
    copy_text(t->game, sizeof t->game, stmt, 1);
    t->options = stored_json(sqlite3_column_text(stmt, 2), "options of table", t->id, error);
    if (t->options == NULL)
        return error->status;
    t->host_player_id = sqlite3_column_int64(stmt, 3);
    copy_text(t->code, sizeof t->code, stmt, 4);
    t->is_public = sqlite3_column_int(stmt, 5) != 0;
    if (!store_sqlite_parse_seats(sqlite3_column_text(stmt, 6), t->seats))
        return store_error_set(error, STORE_CORRUPT, "The seats of table %" PRId64 " in the database are damaged.",
                               t->id);
    copy_text(t->state, sizeof t->state, stmt, 7);
    t->game_state = stored_json(sqlite3_column_text(stmt, 8), "game state of table", t->id, error);
    if (t->game_state == NULL)
        return error->status;
    t->hands_played = sqlite3_column_int64(stmt, 9);
    t->turn_seconds = sqlite3_column_int(stmt, 10);
    t->held = sqlite3_column_int(stmt, 11) != 0;
    t->spectator_chat_off = sqlite3_column_int(stmt, 12) == 0;
    return STORE_OK;
}

/* The table's unfinished hand with its actions into *out, or *out NULL when there is none. */
static store_status read_unfinished_hand(store_history *h, int64_t table_id, store_hand **out, store_error *error)
{
    *out = NULL;
    sqlite3_stmt *stmt = history_prepare(h, HISTORY_UNFINISHED_HAND, error);
    if (stmt == NULL)
        return error->status;
    sqlite3_bind_int64(stmt, 1, table_id);
    int rc = sqlite3_step(stmt);
    if (rc != SQLITE_ROW) {
        sqlite3_reset(stmt);
        return rc == SQLITE_DONE ? STORE_OK : history_fail(h, rc, error, "loading an unfinished hand");
    }
    store_hand *hand = calloc(1, sizeof *hand);
    if (hand == NULL) {
        sqlite3_reset(stmt);
        return store_error_set(error, STORE_INTERNAL, "Out of memory while loading table %" PRId64 ".", table_id);
    }
    *out = hand;
    hand->id = sqlite3_column_int64(stmt, 0);
    hand->number = sqlite3_column_int64(stmt, 1);
    hand->seed = (uint64_t)sqlite3_column_int64(stmt, 2);
    hand->deal = stored_json(sqlite3_column_text(stmt, 3), "deal of hand", hand->id, error);
    hand->game_state = hand->deal ? stored_json(sqlite3_column_text(stmt, 4), "game state of hand", hand->id, error)
                                  : NULL;
    store_status status = hand->game_state != NULL ? hand_options(stmt, 5, hand, error) : error->status;
    sqlite3_reset(stmt);
    if (status != STORE_OK)
        return status;
    return read_actions(h, hand, error);
}

/* What recovery adds to a table's row: its unfinished hand, running scores and seat nicknames. */
static store_status read_table_details(store_history *h, store_recovery *rec, store_open_table *ot,
                                       store_error *error)
{
    if (read_unfinished_hand(h, ot->table.id, &ot->hand, error) != STORE_OK)
        return error->status;
    rec->n_unfinished_hands += ot->hand != NULL;
    if (read_scores(h, ot, error) != STORE_OK)
        return error->status;
    return read_nicknames(h, ot->table.seats, error);
}

/* Steps the open tables' query into rec->tables. */
static store_status read_open_tables(store_history *h, sqlite3_stmt *stmt, store_recovery *rec, store_error *error)
{
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (rec->n_tables == cap) {
            cap = cap ? cap * 2 : 16;
            store_open_table *grown = realloc(rec->tables, cap * sizeof *grown);
            if (grown == NULL)
                return store_error_set(error, STORE_INTERNAL, "Out of memory while recovering.");
            rec->tables = grown;
        }
        store_open_table *ot = &rec->tables[rec->n_tables];
        memset(ot, 0, sizeof *ot);
        store_status status = read_table_row(stmt, &ot->table, error);
        rec->n_tables++; /* counted even when half read, so that its JSON is freed */
        if (status != STORE_OK)
            return status;
    }
    return rc == SQLITE_DONE ? STORE_OK : history_fail(h, rc, error, "loading the open tables");
}

store_status store_history_recover(store_history *h, store_recovery **out, store_error *error)
{
    *out = NULL;
    sqlite3_stmt *stmt = history_prepare(h, HISTORY_OPEN_TABLES, error);
    if (stmt == NULL)
        return error->status;
    store_recovery *rec = calloc(1, sizeof *rec);
    if (rec == NULL)
        return store_error_set(error, STORE_INTERNAL, "Out of memory while recovering.");
    store_status status = read_open_tables(h, stmt, rec, error);
    sqlite3_reset(stmt);
    for (size_t i = 0; status == STORE_OK && i < rec->n_tables; i++)
        status = read_table_details(h, rec, &rec->tables[i], error);
    if (status != STORE_OK) {
        store_recovery_free(rec);
        return status;
    }
    *out = rec;
    return STORE_OK;
}
