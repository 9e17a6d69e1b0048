/*
 * store_memory_profile — the in-memory store's answer to store_profile_get, as the SQLite store
 * gives it (store_profile.c): the same totals, end-of-day balances, and pages by cursor (the id of
 * the player's last ledger row at a table, or in a hand), walking the ledger rows in id order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_memory_internal.h"

#define DAY_MS 86400000

/* What a player's rows at one table, or in one hand, add up to. */
typedef struct mem_group {
    int64_t key;        /* the table's or the hand's id */
    int64_t cursor;     /* the player's last row there */
    int64_t hands;
    int64_t last_hand;
    int64_t units;
    int64_t last_at_ms;
} mem_group;

static store_status no_memory(store_error *error)
{
    return store_error_set(error, STORE_INTERNAL, "Out of memory in the in-memory store.");
}

static const store_table *table_of(const store_memory *m, int64_t id)
{
    return id >= 1 && (size_t)id <= m->n_tables ? &m->tables[id - 1] : NULL;
}

static bool counts(const store_memory *m, const store_memory_row *row, const store_profile_query *q)
{
    const store_table *t = table_of(m, row->table_id);
    return row->player_id == q->player_id && t != NULL && strcmp(t->game, STORE_ADJUSTMENTS_GAME) != 0;
}

/* Adds the row to the group of key in groups (n of them), making it if need be. */
static void add_row(mem_group *groups, size_t *n, int64_t key, const store_memory_row *row)
{
    mem_group *g = NULL;
    for (size_t i = 0; i < *n && g == NULL; i++)
        if (groups[i].key == key)
            g = &groups[i];
    if (g == NULL) {
        g = &groups[(*n)++];
        *g = (mem_group){.key = key};
    }
    g->cursor = row->id;
    g->hands += g->last_hand != row->hand_id;
    g->last_hand = row->hand_id;
    g->units += row->units;
    g->last_at_ms = row->at_ms > g->last_at_ms ? row->at_ms : g->last_at_ms;
}

static int by_cursor_descending(const void *a, const void *b)
{
    const mem_group *x = a, *y = b;
    return (x->cursor < y->cursor) - (x->cursor > y->cursor);
}

/* The player's rows grouped by table (by_hand false) or by hand, those the query may show and
 * below its cursor, newest first, into a new array. */
static mem_group *groups_of(const store_memory *m, const store_profile_query *q, bool by_hand, size_t *n)
{
    mem_group *groups = calloc(m->n_rows + 1, sizeof *groups);
    *n = 0;
    if (groups == NULL)
        return NULL;
    for (size_t i = 0; i < m->n_rows; i++) {
        const store_memory_row *row = &m->ledger[i];
        if (!counts(m, row, q) || (q->public_only && !table_of(m, row->table_id)->is_public))
            continue;
        add_row(groups, n, by_hand ? row->hand_id : row->table_id, row);
    }
    qsort(groups, *n, sizeof *groups, by_cursor_descending);
    const int64_t before = by_hand ? q->hands_before : q->tables_before;
    size_t kept = 0;
    for (size_t i = 0; i < *n; i++)
        if (before == 0 || groups[i].cursor < before)
            groups[kept++] = groups[i];
    *n = kept;
    return groups;
}

static void fill_totals(const store_memory *m, const store_profile_query *q, store_profile *p)
{
    int64_t last_hand[STORE_PROFILE_GAMES_MAX] = {0};
    for (size_t i = 0; i < m->n_rows; i++) {
        const store_memory_row *row = &m->ledger[i];
        if (row->player_id != q->player_id)
            continue;
        p->balance = row->balance_after;
        if (!counts(m, row, q))
            continue;
        const char *game = table_of(m, row->table_id)->game;
        size_t g = 0;
        while (g < p->n_games && strcmp(p->games[g].game, game) != 0)
            g++;
        if (g == STORE_PROFILE_GAMES_MAX)
            continue;
        if (g == p->n_games) {
            p->n_games++;
            snprintf(p->games[g].game, sizeof p->games[g].game, "%s", game);
        }
        p->games[g].hands += last_hand[g] != row->hand_id;
        last_hand[g] = row->hand_id;
        p->games[g].units += row->units;
    }
    for (size_t i = 1; i < p->n_games; i++) /* by name, as SQL's ORDER BY */
        for (size_t j = i; j > 0 && strcmp(p->games[j].game, p->games[j - 1].game) < 0; j--) {
            store_profile_game tmp = p->games[j];
            p->games[j] = p->games[j - 1];
            p->games[j - 1] = tmp;
        }
}

static bool fill_days(const store_memory *m, const store_profile_query *q, store_profile *p)
{
    store_profile_day *all = calloc(m->n_rows + 1, sizeof *all);
    if (all == NULL)
        return false;
    size_t n = 0;
    for (size_t i = 0; i < m->n_rows; i++) {
        const store_memory_row *row = &m->ledger[i];
        if (row->player_id != q->player_id)
            continue;
        int64_t day = row->at_ms / DAY_MS * DAY_MS;
        if (n == 0 || all[n - 1].day_ms != day)
            n++;
        all[n - 1] = (store_profile_day){.day_ms = day, .balance = row->balance_after};
    }
    size_t first = n > STORE_PROFILE_DAYS_MAX ? n - STORE_PROFILE_DAYS_MAX : 0;
    memmove(all, all + first, (n - first) * sizeof *all);
    p->days = all;
    p->n_days = n - first;
    for (size_t i = 0; p->n_days > 0 && i < m->n_rows; i++) {
        const store_memory_row *row = &m->ledger[i];
        if (row->player_id == q->player_id && row->at_ms >= all[0].day_ms) {
            p->balance_before = row->balance_after - row->units;
            break;
        }
    }
    return true;
}

static bool fill_tables(const store_memory *m, const store_profile_query *q, store_profile *p)
{
    size_t n;
    mem_group *groups = groups_of(m, q, false, &n);
    p->tables = calloc((size_t)q->limit, sizeof *p->tables);
    if (groups == NULL || p->tables == NULL) {
        free(groups);
        return false;
    }
    p->more_tables = n > (size_t)q->limit;
    for (size_t i = 0; i < n && i < (size_t)q->limit; i++) {
        const store_table *t = table_of(m, groups[i].key);
        store_profile_table *out = &p->tables[p->n_tables++];
        *out = (store_profile_table){.cursor = groups[i].cursor, .is_public = t->is_public,
                                     .closed = strcmp(t->state, "closed") == 0, .hands = groups[i].hands,
                                     .units = groups[i].units, .last_at_ms = groups[i].last_at_ms};
        snprintf(out->code, sizeof out->code, "%s", t->code);
        snprintf(out->game, sizeof out->game, "%s", t->game);
    }
    free(groups);
    return true;
}

static bool fill_hands(const store_memory *m, const store_profile_query *q, store_profile *p)
{
    size_t n;
    mem_group *groups = groups_of(m, q, true, &n);
    p->hands = calloc((size_t)q->limit, sizeof *p->hands);
    if (groups == NULL || p->hands == NULL) {
        free(groups);
        return false;
    }
    p->more_hands = n > (size_t)q->limit;
    for (size_t i = 0; i < n && i < (size_t)q->limit; i++) {
        const store_memory_hand *h = &m->hands[groups[i].key - 1].pub;
        const store_table *t = table_of(m, h->table_id);
        store_profile_hand *out = &p->hands[p->n_hands++];
        *out = (store_profile_hand){.cursor = groups[i].cursor, .is_public = t->is_public,
                                    .closed = strcmp(t->state, "closed") == 0, .number = h->number,
                                    .units = groups[i].units, .at_ms = groups[i].last_at_ms};
        snprintf(out->code, sizeof out->code, "%s", t->code);
        snprintf(out->game, sizeof out->game, "%s", t->game);
    }
    free(groups);
    return true;
}

store_status store_memory_profile(void *b, const store_in_profile *in, store_profile **out, store_error *error)
{
    store_memory *m = b;
    const store_profile_query *q = &in->query;
    *out = NULL;
    if (store_memory_injected(m, STORE_KIND_PROFILE, error))
        return error->status;
    const mem_player *who = store_memory_find_player(m, q->player_id);
    if (who == NULL)
        return store_error_set(error, STORE_NOT_FOUND, "No player has that id.");
    store_profile *p = calloc(1, sizeof *p);
    if (p == NULL)
        return no_memory(error);
    *p = (store_profile){.player_id = q->player_id, .is_account = who->pub.is_account,
                         .created_at_ms = who->pub.created_at_ms, .last_seen_ms = who->pub.last_seen_at_ms};
    snprintf(p->nickname, sizeof p->nickname, "%s", who->pub.nickname);
    fill_totals(m, q, p);
    if (!fill_days(m, q, p) || !fill_tables(m, q, p) || !fill_hands(m, q, p)) {
        store_profile_free(p);
        return no_memory(error);
    }
    *out = p;
    return STORE_OK;
}
