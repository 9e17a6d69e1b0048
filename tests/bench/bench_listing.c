/*
 * bench_listing — what one lobby across several nodes costs (server/lobby/lobby_listing.h): each
 * node writes its open tables as a listing text when they change (at most once a second) and
 * reads every other live node's with each heartbeat (2 s), which its loop parses. This prints the
 * bytes a table takes in a listing, the loop's time to parse a node's listing and to answer a
 * join's lookup, and what that makes per node and for the database as nodes are added.
 *
 *   bench_listing [tables per node] [nodes]   (default 700 3; half the tables public, as
 *                                             summaries of four named seats, like room_summary)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "lobby_listing.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void code_of(int node, int t, char out[13])
{
    static const char alphabet[] = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
    unsigned v = (unsigned)node * 1000003u + (unsigned)t * 7919u;
    for (int i = 0; i < 12; i++) {
        out[i] = alphabet[v % 31];
        v = v / 31 + (unsigned)(i * 17 + t);
    }
    out[12] = '\0';
}

/* A public table's summary as room_summary makes it: Tien Gow options, four seats with names. */
static json_t *summary_of(const char *code)
{
    json_t *seats = json_array();
    for (int s = 0; s < 4; s++)
        json_array_append_new(seats, json_pack("{s:i, s:b, s:I, s:s, s:s, s:b, s:b}", "seat", s, "bot", s == 3, "score",
                                               (json_int_t)(s * 40 - 60), "player", "p123456", "name",
                                               "A player's name", "connected", true, "away", false));
    json_t *options = json_pack("{s:b, s:s, s:i, s:b, s:s, s:b, s:b, s:b, s:b, s:b, s:i}", "wen_zun", false, "rotation",
                                "fly", "qin_multiplier", 4, "qin_pays_all", true, "quartet_bonus", "winner",
                                "seven_civil", false, "seven_military", false, "eight_civil", false,
                                "eight_military", false, "four_pairs", false, "stake", 1);
    return json_pack("{s:s, s:s, s:o, s:b, s:o, s:s, s:s, s:i, s:b}", "code", code, "game", "tiengow", "options",
                     options, "public", true, "seats", seats, "state", "playing", "host", "A player's name",
                     "hands_played", 12, "locked", false);
}

static char *listing_of(int node, int tables)
{
    json_t *list = json_array();
    for (int t = 0; t < tables; t++) {
        char code[13];
        code_of(node, t, code);
        const bool public = t % 2 == 0;
        const lobby_table_facts facts = {.code = code, .game = "tiengow", .state = "playing",
                                         .host = "A player's name", .free_seats = 1, .locked = false};
        json_t *summary = public ? summary_of(code) : NULL;
        json_array_append_new(list, lobby_listing_entry(1732491234567890u + (uint64_t)t, public, &facts, summary));
        json_decref(summary);
    }
    char *text = json_dumps(list, JSON_COMPACT);
    json_decref(list);
    return text;
}

int main(int argc, char **argv)
{
    const int tables = argc > 1 ? atoi(argv[1]) : 700;
    const int nodes = argc > 2 ? atoi(argv[2]) : 3;
    if (tables < 1 || nodes < 2) {
        fprintf(stderr, "usage: bench_listing [tables per node >= 1] [nodes >= 2]\n");
        return 2;
    }
    const int others = nodes - 1;
    lobby_listing_source *src = calloc((size_t)others, sizeof *src);
    char names[64][16];
    size_t bytes = 0;
    double built = now_s();
    for (int i = 0; i < others; i++) {
        snprintf(names[i % 64], sizeof names[0], "n%d", i + 2);
        src[i] = (lobby_listing_source){.node = names[i % 64], .ws = "/n/nX/ws", .text = listing_of(i, tables)};
        bytes += strlen(src[i].text);
    }
    built = (now_s() - built) / others;

    const int rounds = 20;
    double parse = now_s();
    lobby_listing *l = NULL;
    for (int r = 0; r < rounds; r++) {
        lobby_listing_free(l);
        l = lobby_listing_parse(src, (size_t)others);
    }
    parse = (now_s() - parse) / rounds;
    const int lookups = 1000000;
    size_t found = 0;
    double look = now_s();
    for (int k = 0; k < lookups; k++) {
        char code[13];
        code_of(k % others, k % tables, code);
        found += lobby_listing_find(l, code) != NULL;
    }
    look = (now_s() - look) / lookups;

    const double per_table = (double)bytes / ((double)others * tables);
    printf("bench_listing: %d tables a node (half public), %d nodes\n", tables, nodes);
    printf("  a node's listing: %.0f bytes (%.0f a table: a public one's summary, a private one's code), built "
           "and dumped in %.2f ms\n",
           (double)bytes / others, per_table, built * 1e3);
    printf("  each heartbeat a node reads %d others' listings: %.2f MB, parsed in %.1f ms (%.2f us a table); "
           "%zu tables known\n",
           others, (double)bytes / 1e6, parse * 1e3, parse * 1e6 / ((double)others * tables), lobby_listing_count(l));
    printf("  a join's lookup of a code among them: %.0f ns (%zu of %d found)\n", look * 1e9, found, lookups);
    printf("  per node: %.1f%% of a core parsing (every 2 s), %.2f MB/s read; the database sends %.1f MB/s to all "
           "nodes\n",
           parse / 2.0 * 100.0, (double)bytes / 2.0 / 1e6, (double)bytes * nodes / 2.0 / 1e6);
    lobby_listing_free(l);
    for (int i = 0; i < others; i++)
        free((char *)src[i].text);
    free(src);
    return found == (size_t)lookups ? 0 : 1;
}
