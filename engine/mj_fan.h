/*
 * mj_fan — what a winning hand is worth (rules/tianjin-mahjong.md §3-§4, §6): the fan types, how
 * they combine, and the search for the reading that gives the highest total.
 *
 * A reading puts every tile in one set or the pair, each wild standing for the tile it fills, so
 * the winning tile has one place. 混儿吊, 捉五, 龙 and 本混 are judged on a reading; 素, 杠开, 天胡
 * and 地胡 on the hand alone. The total multiplies the fans' values, except that 捉五 and 龙
 * together count 3 + 4 = 7 first. When 混儿吊's group is one of the dragon's three sets, the
 * reading counts 混儿吊 or 龙, not both. A win needs one fan at least (2 fan); under 刮大风 素 is 4,
 * 天胡 does not count and 混儿吊 alone does not win.
 *
 * The search: the winning tile's place is tried as 混儿吊's pair, 混儿吊's set, 捉五's chow (with
 * naturals where it can, or with two wilds) or anywhere; a dragon as none or 1-9 of each suit (or
 * sharing 捉五's 4-5-6). Those choices are ranked by the total they would give and tried from the
 * highest; the first whose remaining tiles still make sets and the pair is the answer. Equal totals
 * are ranked by their fans: the set whose first differing fan comes first in the order of §7 wins.
 */
#ifndef MJ_FAN_H
#define MJ_FAN_H

#include <stdint.h>

#include "mj_decompose.h"
#include "mj_options.h"
#include "mj_status.h"
#include "mj_win.h"

/* In the order §7 lists them in `names`. */
typedef enum {
    MJ_FAN_HUN_DIAO = 0, /* 混儿吊 */
    MJ_FAN_SU,           /* 素 (没混) */
    MJ_FAN_ZHUO_WU,      /* 捉五 */
    MJ_FAN_GANG_KAI,     /* 杠开 */
    MJ_FAN_LONG,         /* 龙 */
    MJ_FAN_BEN_HUN,      /* 本混 */
    MJ_FAN_TIAN_HU,      /* 天胡 */
    MJ_FAN_DI_HU,        /* 地胡 */
    MJ_FAN_COUNT
} mj_fan;

typedef uint16_t mj_fan_set; /* bit f for mj_fan f */

#define MJ_FAN_BIT(f) ((mj_fan_set)(1u << (f)))

/* The fan's name as the rules page writes it (混儿吊, 素, …), and a stable ASCII name (hun_diao, su, …). */
const char *mj_fan_zh(mj_fan fan);
const char *mj_fan_name(mj_fan fan);

/* The value of one fan under these options (素 is 4 under 刮大风), or 0 if it does not count. */
int mj_fan_value(mj_fan fan, const mj_options *options);

/* The total of a set of fans read together (1 for none). */
uint32_t mj_fan_total(mj_fan_set fans, const mj_options *options);

typedef struct mj_score {
    uint32_t fan;                      /* the total, kong payments not included */
    mj_fan_set fans;                   /* the fans counted */
    uint8_t n_groups;
    mj_group groups[MJ_MAX_GROUPS];    /* a reading that gives it: the concealed sets in tile order, the
                                          pair, then the melds as given */
} mj_score;

/*
 * Scores a winning hand by its best reading. MJ_OK with out filled; or the hand's first
 * impossibility (mj_winning_hand_check), MJ_ERR_NOT_A_WIN (not four sets and a pair), or
 * MJ_ERR_UNDER_MINIMUM (a win with no fan, or 混儿吊 alone under 刮大风), out untouched.
 */
mj_status mj_score_hand(const mj_options *options, const mj_winning_hand *hand, mj_score *out);

#endif
