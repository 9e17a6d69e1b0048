/*
 * mj_test_util — helpers shared by the Tianjin suites: a winning hand written as text
 * ("1m 2m 3m … N", melds as "kong:9p pung:2s concealed_kong:5m") and its score read back as
 * text (the fans' names in §7's order), so a case reads like the rules page.
 *
 * Every function is static inline so that a suite using only some of them builds without
 * warnings; a malformed test string fails the test that wrote it.
 */
#ifndef MJ_TEST_UTIL_H
#define MJ_TEST_UTIL_H

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mj_fan.h"
#include "mj_win.h"

/* Flags of a winning hand. */
enum { MJT_REPLACEMENT = 1, MJT_FIRST_DRAW = 2, MJT_DEALER = 4 };

/* Adds space-separated tile names to counts; returns how many. */
static inline int mjt_add_tiles(const char *text, mj_counts *counts)
{
    char copy[256];
    int n = 0;
    snprintf(copy, sizeof copy, "%s", text);
    for (char *save = NULL, *word = strtok_r(copy, " ", &save); word != NULL; word = strtok_r(NULL, " ", &save)) {
        int kind = mj_kind_parse(word);
        ck_assert_msg(kind >= 0, "bad tile \"%s\" in \"%s\"", word, text);
        counts->n[kind]++;
        n++;
    }
    return n;
}

static inline int mjt_kind(const char *name)
{
    int kind = mj_kind_parse(name);
    ck_assert_msg(kind >= 0, "bad tile \"%s\"", name);
    return kind;
}

/* A winning hand: concealed tiles, melds ("kong:9p pung:2s concealed_kong:5m"), indicator, winning tile. */
static inline mj_winning_hand mjt_hand(const char *concealed, const char *melds, const char *indicator,
                                       const char *win, int flags)
{
    mj_winning_hand h;
    memset(&h, 0, sizeof h);
    mjt_add_tiles(concealed, &h.concealed);
    char copy[128];
    snprintf(copy, sizeof copy, "%s", melds);
    for (char *save = NULL, *word = strtok_r(copy, " ", &save); word != NULL; word = strtok_r(NULL, " ", &save)) {
        char *colon = strchr(word, ':');
        ck_assert_msg(colon != NULL && h.n_melds < MJ_MAX_MELDS, "bad meld \"%s\"", word);
        *colon = '\0';
        mj_meld m = {.tile = (uint8_t)mjt_kind(colon + 1)};
        if (strcmp(word, "pung") == 0)
            m.kind = MJ_MELD_PUNG;
        else if (strcmp(word, "kong") == 0)
            m.kind = MJ_MELD_KONG;
        else if (strcmp(word, "concealed_kong") == 0)
            m.kind = MJ_MELD_CONCEALED_KONG;
        else
            ck_abort_msg("bad meld kind \"%s\"", word);
        h.melds[h.n_melds++] = m;
    }
    h.indicator = (uint8_t)mjt_kind(indicator);
    h.win_tile = (uint8_t)mjt_kind(win);
    h.kong_replacement = (flags & MJT_REPLACEMENT) != 0;
    h.first_draw = (flags & MJT_FIRST_DRAW) != 0;
    h.dealer = (flags & MJT_DEALER) != 0;
    return h;
}

/* The fans of a set as §7 names them, space-separated ("混儿吊 捉五"), "" for none. */
static inline const char *mjt_names(mj_fan_set fans, char out[128])
{
    out[0] = '\0';
    for (int f = 0; f < MJ_FAN_COUNT; f++)
        if (fans & MJ_FAN_BIT(f)) {
            if (out[0] != '\0')
                strcat(out, " ");
            strcat(out, mj_fan_zh((mj_fan)f));
        }
    return out;
}

/* Scores a hand that must win and checks its total and names. */
static inline void mjt_assert_score(const mj_options *options, const mj_winning_hand *hand, uint32_t fan,
                                    const char *names)
{
    mj_score score;
    mj_status status = mj_score_hand(options, hand, &score);
    ck_assert_msg(status == MJ_OK, "expected a win of %u (%s), got %s", fan, names, mj_status_name(status));
    char got[128];
    ck_assert_msg(score.fan == fan && strcmp(mjt_names(score.fans, got), names) == 0,
                  "expected %u (%s), got %u (%s)", fan, names, score.fan, got);
}

/* The same with the default options, or with 刮大风. */
static inline void mjt_assert_fan(const mj_winning_hand *hand, uint32_t fan, const char *names)
{
    mj_options options = mj_options_default();
    mjt_assert_score(&options, hand, fan, names);
}

static inline void mjt_assert_gua_fan(const mj_winning_hand *hand, uint32_t fan, const char *names)
{
    mj_options options = mj_options_default();
    options.gua_da_feng = true;
    mjt_assert_score(&options, hand, fan, names);
}

/* Scores a hand that must be refused with this status. */
static inline void mjt_assert_refused(const mj_options *options, const mj_winning_hand *hand, mj_status want)
{
    mj_score score;
    mj_status status = mj_score_hand(options, hand, &score);
    ck_assert_msg(status == want, "expected %s, got %s", mj_status_name(want), mj_status_name(status));
}

#endif
