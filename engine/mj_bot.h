/*
 * mj_bot — the Tianjin Mahjong bot. It decides from one seat's view (mj_bot_view: its own tiles,
 * what every seat has shown or discarded, the indicator and the wilds, how many tiles are left) and
 * never reads another seat's concealed tiles or the order of the wall; it only ever returns one of
 * the actions open to that seat, so it cannot play illegally.
 *
 * How it plays (mj_bot.c explains the details): it wins whenever it may; it never discards a wild
 * while it holds another tile; it discards to come closest to a win that scores (mj_shanten's
 * routes: 素, 混儿吊, 龙), then to have the most unseen tiles that bring it closer; it
 * claims a pung when that brings it closer, and makes every kong (exposed, concealed, added, 金杠)
 * that does not cost it more than one step, since kongs pay whether or not it wins.
 *
 * Before the hand (§5: 坐庄, 拉庄), a simple rule by the strength of the seat's dealt tiles: the
 * banker sits, and a non-banker pulls (once, or twice when it may and the hand is stronger still),
 * when its dealt tiles are close to a scoring win (mj_bot_sits, mj_bot_pulls).
 *
 * Deterministic (the same view gives the same action), no allocation; tens of microseconds a
 * decision (a memo of about 48 KB sits on the stack).
 */
#ifndef MJ_BOT_H
#define MJ_BOT_H

#include <stdbool.h>
#include <stdint.h>

#include "mj_hand.h"

/* What one seat may see of a hand. Built by mj_bot_view_of; every byte not listed is zero, so two
 * views compare with memcmp. */
typedef struct mj_bot_view {
    mj_options options;
    uint8_t seat;
    uint8_t banker;
    bool sat;
    uint8_t pulls[MJ_SEATS];

    uint8_t phase;           /* mj_phase */
    int8_t deciding;         /* mj_hand_deciding: the seat whose decision the hand waits for, or -1 */
    uint8_t turn;            /* the seat to act, or the last discarder during a claim */
    uint8_t last_discard;    /* during a claim: the tile offered */

    mj_counts own;           /* the seat's concealed tiles, its drawn tile included */
    int8_t drawn;            /* the seat's drawn tile while it is to act in a turn, else -1 */
    bool on_replacement;     /* that tile came after a kong */
    bool first_draw;         /* a win now would be 天胡 or 地胡 */

    uint8_t indicator;
    mj_kind_set wilds;
    uint8_t live_left;        /* tiles left to draw from the live wall */
    uint8_t replacements_left; /* kong replacement tiles left behind the indicator */

    uint8_t concealed[MJ_SEATS]; /* how many concealed tiles each seat holds */
    mj_meld melds[MJ_SEATS][MJ_MAX_MELDS];
    uint8_t n_melds[MJ_SEATS];
    uint8_t discards[MJ_SEATS][MJ_MAX_DISCARDS];
    uint8_t n_discards[MJ_SEATS];
    bool discarded_wild[MJ_SEATS]; /* that seat may no longer win */

    mj_counts seen;          /* every tile the seat has seen: its own, all melds, all discards, the indicator */
} mj_bot_view;

/* Seat's view of the hand. */
void mj_bot_view_of(const mj_hand *h, int seat, mj_bot_view *out);

/* The actions open to the view's seat now (the same list mj_hand_legal_actions gives when that
 * seat is deciding, in the same order); 0 when it owes no decision. */
int mj_bot_legal_actions(const mj_bot_view *view, mj_action out[MJ_MAX_ACTIONS]);

/* Chooses an action for the view's seat; false (out untouched) if it owes no decision. */
bool mj_bot_decide(const mj_bot_view *view, mj_action *out);

/* mj_bot_decide on seat's view of h. */
bool mj_bot_choose(const mj_hand *h, int seat, mj_action *out);

/*
 * 坐庄 and 拉庄. `dealt` is the hand as mj_hand_start dealt it (sitting and pulling never change the
 * deal, so a table may deal with none to ask), read through seat's view only; the dealt tiles'
 * distance to a scoring win (mj_shanten_scoring, the banker's after its best discard) is the
 * strength. The banker sits when it must (must_sit) or when that distance is at most
 * MJ_BOT_SIT_AT; a non-banker pulls a banker who sat once at most MJ_BOT_PULL_AT, twice (when
 * max_pulls allows) at most MJ_BOT_PULL_AT - 1. The limits are where the amounts at stake were
 * won on average among four bots (the banker's net; a non-banker's net with a banker who sat).
 * With dealt NULL (a table that asks before the deal, as §5's 抓牌之前 reads) nothing is known:
 * it sits only when it must and never pulls.
 */
#define MJ_BOT_SIT_AT 3
#define MJ_BOT_PULL_AT 2

bool mj_bot_sits(const mj_options *options, const mj_hand *dealt, int banker);
int mj_bot_pulls(const mj_options *options, const mj_hand *dealt, int seat, bool banker_sat);

#endif
