/*
 * mj_options — the rule options of a Tianjin table (rules/tianjin-mahjong.md §2-§7) and their
 * defaults. Score mode of the calculator reads only gua_da_feng and gold_kong_fan; settlement
 * reads every option but no_replacement, which only the flow of a hand uses.
 */
#ifndef MJ_OPTIONS_H
#define MJ_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

typedef enum {
    MJ_NO_REPLACEMENT_DRAW = 0,           /* a kong with no replacement tile ends the hand drawn */
    MJ_NO_REPLACEMENT_SKIP_INDICATOR = 1, /* it takes the tile before the indicator instead */
} mj_no_replacement;

#define MJ_BASE_MAX 1000000

typedef struct mj_options {
    bool gua_da_feng;          /* the 刮大风 preset of §6 */
    bool wild_discard_penalty; /* a seat that discards a wild also pays 1 fan to each other seat */
    uint8_t gold_kong_fan;     /* what a 金杠 pays: 8, 4, or 0 = not allowed */
    bool chan;                 /* 铲 is played */
    bool must_sit;             /* the banker always sits (死坐庄) */
    uint8_t max_pulls;         /* 1 or 2 pulls (拉庄) per non-banker */
    uint8_t no_replacement;    /* mj_no_replacement */
    uint32_t base;             /* 底: units per fan, 1..MJ_BASE_MAX */
} mj_options;

/* Every default of §7: no 刮大风, no penalty, 金杠 8, no 铲, free sitting, 1 pull, "draw", base 1. */
mj_options mj_options_default(void);

/* True if every option holds one of its listed values. */
bool mj_options_valid(const mj_options *options);

#endif
