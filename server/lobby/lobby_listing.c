/*
 * lobby_listing — the other nodes' open tables (lobby_listing.h): parsed from their listing texts,
 * kept newest first for list_tables and indexed by code for join_table's "moved".
 */
#include <stdlib.h>
#include <string.h>

#include "lobby_listing.h"

typedef struct listing_node {
    char *node;
    char *ws;
} listing_node;

struct lobby_listing {
    listing_node *nodes;
    size_t n_nodes;
    lobby_listed *tables; /* newest first */
    size_t n_tables;
    lobby_listed **by_code; /* the tables, sorted by code */
};

/* Copies a string member into out; false when it is missing or does not fit. */
static bool copy_string(const json_t *o, const char *key, char *out, size_t cap)
{
    const char *s = json_string_value(json_object_get(o, key));
    if (s == NULL || strlen(s) >= cap)
        return false;
    memcpy(out, s, strlen(s) + 1);
    return true;
}

/* One entry of a node's text into t; false when it is not one (skipped). */
static bool read_entry(const json_t *e, int node, lobby_listed *t)
{
    const json_t *serial = json_object_get(e, "serial");
    *t = (lobby_listed){.node = node};
    if (!copy_string(e, "code", t->code, sizeof t->code) || t->code[0] == '\0' || !json_is_integer(serial) ||
        json_integer_value(serial) < 0)
        return false;
    t->serial = (uint64_t)json_integer_value(serial);
    if (!json_is_true(json_object_get(e, "public")))
        return true;
    json_t *summary = json_object_get(e, "summary");
    const json_t *free_seats = json_object_get(e, "free");
    if (!json_is_object(summary) || !json_is_integer(free_seats) || !copy_string(e, "game", t->game, sizeof t->game) ||
        !copy_string(e, "state", t->state, sizeof t->state) || !copy_string(e, "host", t->host, sizeof t->host))
        return false;
    t->is_public = true;
    t->free_seats = (int)json_integer_value(free_seats);
    t->locked = json_is_true(json_object_get(e, "locked"));
    t->summary = json_incref(summary);
    return true;
}

lobby_table_facts lobby_listed_facts(const lobby_listed *t)
{
    return (lobby_table_facts){.code = t->code, .game = t->game, .state = t->state, .host = t->host,
                               .free_seats = t->free_seats, .locked = t->locked};
}

static int newest_first(const void *a, const void *b)
{
    const lobby_listed *x = a, *y = b;
    if (x->serial != y->serial)
        return x->serial > y->serial ? -1 : 1;
    return strcmp(x->code, y->code);
}

/* By code; the same code from two nodes: the node listed later (the fresher heartbeat) first. */
static int code_then_fresher(const void *a, const void *b)
{
    const lobby_listed *x = a, *y = b;
    int c = strcmp(x->code, y->code);
    if (c != 0)
        return c;
    return x->node != y->node ? (x->node > y->node ? -1 : 1) : 0;
}

static int pointed_code_order(const void *a, const void *b)
{
    return strcmp((*(const lobby_listed *const *)a)->code, (*(const lobby_listed *const *)b)->code);
}

lobby_listing *lobby_listing_parse(const lobby_listing_source *nodes, size_t n)
{
    lobby_listing *l = calloc(1, sizeof *l);
    if (l == NULL || (n > 0 && (l->nodes = calloc(n, sizeof *l->nodes)) == NULL)) {
        free(l);
        return NULL;
    }
    json_t **texts = n > 0 ? calloc(n, sizeof *texts) : NULL;
    size_t capacity = 0;
    for (size_t i = 0; i < n; i++) {
        l->nodes[i].node = strdup(nodes[i].node);
        l->nodes[i].ws = strdup(nodes[i].ws);
        l->n_nodes = i + 1;
        if (l->nodes[i].node == NULL || l->nodes[i].ws == NULL || (n > 0 && texts == NULL))
            goto oom;
        texts[i] = json_loads(nodes[i].text, 0, NULL);
        capacity += json_array_size(texts[i]);
    }
    if (capacity > LOBBY_LISTING_MAX)
        capacity = LOBBY_LISTING_MAX;
    if (capacity > 0 && ((l->tables = calloc(capacity, sizeof *l->tables)) == NULL ||
                         (l->by_code = calloc(capacity, sizeof *l->by_code)) == NULL))
        goto oom;
    for (size_t i = 0; i < n; i++) {
        size_t k;
        json_t *e;
        json_array_foreach(texts[i], k, e)
        {
            if (l->n_tables == capacity)
                break;
            if (read_entry(e, (int)i, &l->tables[l->n_tables]))
                l->n_tables++;
        }
    }
    for (size_t i = 0; i < n; i++)
        json_decref(texts[i]);
    free(texts);
    texts = NULL;
    /* one entry a code (the fresher), then newest first, and the index by code */
    if (l->n_tables > 1)
        qsort(l->tables, l->n_tables, sizeof *l->tables, code_then_fresher);
    size_t kept = 0;
    for (size_t i = 0; i < l->n_tables; i++) {
        if (kept > 0 && strcmp(l->tables[kept - 1].code, l->tables[i].code) == 0)
            json_decref(l->tables[i].summary);
        else
            l->tables[kept++] = l->tables[i];
    }
    l->n_tables = kept;
    if (kept > 1)
        qsort(l->tables, kept, sizeof *l->tables, newest_first);
    for (size_t i = 0; i < kept; i++)
        l->by_code[i] = &l->tables[i];
    if (kept > 1)
        qsort(l->by_code, kept, sizeof *l->by_code, pointed_code_order);
    return l;
oom:
    for (size_t i = 0; texts != NULL && i < n; i++)
        json_decref(texts[i]);
    free(texts);
    lobby_listing_free(l);
    return NULL;
}

void lobby_listing_free(lobby_listing *l)
{
    if (l == NULL)
        return;
    for (size_t i = 0; i < l->n_tables; i++)
        json_decref(l->tables[i].summary);
    for (size_t i = 0; i < l->n_nodes; i++) {
        free(l->nodes[i].node);
        free(l->nodes[i].ws);
    }
    free(l->nodes);
    free(l->tables);
    free(l->by_code);
    free(l);
}

size_t lobby_listing_count(const lobby_listing *l) { return l != NULL ? l->n_tables : 0; }

const lobby_listed *lobby_listing_at(const lobby_listing *l, size_t i) { return &l->tables[i]; }

const lobby_listed *lobby_listing_find(const lobby_listing *l, const char *code)
{
    if (l == NULL)
        return NULL;
    size_t lo = 0, hi = l->n_tables;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(l->by_code[mid]->code, code);
        if (c == 0)
            return l->by_code[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const char *lobby_listing_node(const lobby_listing *l, const lobby_listed *t) { return l->nodes[t->node].node; }

const char *lobby_listing_ws(const lobby_listing *l, const lobby_listed *t) { return l->nodes[t->node].ws; }

json_t *lobby_listing_entry(uint64_t serial, bool is_public, const lobby_table_facts *facts, json_t *summary)
{
    if (!is_public)
        return json_pack("{s:s, s:I}", "code", facts->code, "serial", (json_int_t)serial);
    return json_pack("{s:s, s:I, s:b, s:s, s:s, s:i, s:b, s:s, s:O}", "code", facts->code, "serial",
                     (json_int_t)serial, "public", true, "game", facts->game, "state", facts->state, "free",
                     facts->free_seats, "locked", facts->locked, "host", facts->host, "summary", summary);
}
