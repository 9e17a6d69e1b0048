/*
 * tg_test_util — helpers shared by the Tien Gow suites that deal hands by hand (test_tg_hand,
 * test_tg_rules_flow, test_tg_view): tiles written as faces ("1-2 2-4 ..."), a deal written as
 * four such hands, the red pips of a tile counted by the rule of rules/tiengow.md §1 (never by
 * the engine), and tg_start from a deal built in a plain array.
 *
 * Every function is static inline so that a suite using only some of them builds without
 * warnings; each failure is reported through Check with the text that was being read.
 */
#ifndef TG_TEST_UTIL_H
#define TG_TEST_UTIL_H

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tg_hand.h"

/* Parses space-separated tile faces ("1-2 6-6 ...") into kinds; at most cap; returns how many. */
static inline int tgt_parse_tiles(const char *text, uint8_t *kinds, int cap)
{
    char copy[128];
    int n = 0;
    snprintf(copy, sizeof copy, "%s", text);
    for (char *save = NULL, *word = strtok_r(copy, " ", &save); word != NULL; word = strtok_r(NULL, " ", &save)) {
        int kind = tg_tile_parse(word);
        ck_assert_msg(kind >= 0 && n < cap, "bad tile list \"%s\"", text);
        kinds[n++] = (uint8_t)kind;
    }
    return n;
}

/* Parses four hands of exactly 8 tiles each into a deal. */
static inline void tgt_parse_deal(const char *const hands[TG_SEATS], uint8_t deal[TG_SEATS][TG_HAND_TILES])
{
    for (int s = 0; s < TG_SEATS; s++)
        ck_assert_int_eq(tgt_parse_tiles(hands[s], deal[s], TG_HAND_TILES), TG_HAND_TILES);
}

/* §1: every 1 face is one red pip, every 4 face four; 6-6 counts 6. */
static inline int tgt_red_pips(int kind)
{
    const tg_tile_info *t = tg_tile(kind);
    if (t->low == 6 && t->high == 6)
        return 6;
    int faces[2] = {t->low, t->high}, red = 0;
    for (int i = 0; i < 2; i++)
        red += faces[i] == 1 ? 1 : faces[i] == 4 ? 4 : 0;
    return red;
}

/* No seat holds a natural hand (§6: 0 or 1 red pip), so a hand-built deal is really played. */
static inline void tgt_assert_no_natural(uint8_t deal[TG_SEATS][TG_HAND_TILES])
{
    for (int s = 0; s < TG_SEATS; s++) {
        int red = 0;
        for (int i = 0; i < TG_HAND_TILES; i++)
            red += tgt_red_pips(deal[s][i]);
        ck_assert_msg(red >= 2, "seat %d holds a natural hand (%d red pips)", s, red);
    }
}

/* tg_start with a deal built in a plain array (C11 will not add const to an array of arrays). */
static inline tg_status tgt_start_deal(tg_state *st, const tg_options *options, int banker, uint32_t multiplier,
                                       uint8_t deal[TG_SEATS][TG_HAND_TILES])
{
    return tg_start(st, options, banker, multiplier, (const uint8_t(*)[TG_HAND_TILES])deal);
}

/* "S P tiles" (seat S plays) or "S D tiles" (seat S discards), up to 4 tiles. */
static inline tg_action tgt_action(const char *text)
{
    ck_assert_msg(strlen(text) >= 5 && text[1] == ' ' && (text[2] == 'P' || text[2] == 'D') && text[3] == ' ',
                  "bad action \"%s\"", text);
    uint8_t kinds[4];
    int n = tgt_parse_tiles(text + 4, kinds, 4);
    return tg_action_make(text[0] - '0', text[2] == 'P' ? TG_PLAY : TG_DISCARD, kinds, n);
}

#endif
