/*
 * mj_hand — one hand of Tianjin Mahjong from the deal to the settlement (rules/tianjin-mahjong.md
 * §1-§5), as a plain value that copies cheaply and is rebuilt exactly from its seed and actions.
 *
 * The wall: the 136 tiles shuffled from the hand's seed, dealt from the front (13 to each seat from
 * the banker on, then the banker's 14th). Two dice from the same seed pick the indicator: the top
 * tile of the d-th stack from the back, wall[136 - 2d]. The live wall runs from the front to the
 * tile before the indicator; kong replacements are the tiles behind it, taken from the far end.
 * When they run out a kong ends the hand drawn, or with no_replacement "skip_indicator" takes the
 * last tile of the live wall instead.
 *
 * Turns: the seat to act holds a drawn tile (the banker's 14th at the start, a replacement after a
 * kong) and may win by self-draw, make a concealed kong or add to an exposed pung, or discard;
 * after claiming a pung it only discards. A discard another seat can pung (two naturals in hand) or
 * kong (three) opens a claim for that seat (there can be only one); nobody wins on a discard and no
 * kong is robbed. A wild is never claimed. A seat that discarded a wild may not win. The hand ends
 * with a self-drawn win or drawn (荒牌), and is then settled with mj_settle (kongs, 铲 and the
 * wild-discard penalty included), which also names the next banker.
 *
 * What a decision before the hand (坐庄, 拉庄) chose is given to mj_hand_start; the table carries
 * the bank and the banker's count from hand to hand.
 *
 * Claim windows. A table gives every discard a window in which all three other seats decide, so
 * that nobody learns whether anyone could claim. It sets `windows` after the start: a discard
 * nobody can claim then waits in MJ_PHASE_WINDOW (nobody decides in the engine) instead of passing
 * the draw on at once, and the claimer's pass is not needed either: mj_hand_close_window closes
 * either kind of window when the table's window ends, and only then is the next tile drawn. Without
 * `windows` (the default) the flow is as above.
 */
#ifndef MJ_HAND_H
#define MJ_HAND_H

#include <stdbool.h>
#include <stdint.h>

#include "mj_fan.h"
#include "mj_options.h"
#include "mj_settle.h"
#include "mj_status.h"
#include "mj_tiles.h"
#include "mj_win.h"

#define MJ_MAX_DISCARDS 40 /* per seat: a seat draws at most about 30 times in a hand */

typedef enum {
    MJ_PHASE_TURN = 0, /* `turn` acts: win, kong or discard (only discard after a pung) */
    MJ_PHASE_CLAIM,    /* `claimer` may pung or kong the last discard, or pass */
    MJ_PHASE_OVER,     /* won or drawn; `settlement` holds the payments */
    MJ_PHASE_WINDOW,   /* with `windows`: the last discard, which nobody can claim, waits for
                          mj_hand_close_window; `turn` is its discarder */
} mj_phase;

typedef enum {
    MJ_ACT_DISCARD = 0,
    MJ_ACT_WIN,
    MJ_ACT_CONCEALED_KONG,
    MJ_ACT_ADDED_KONG,
    MJ_ACT_PUNG,
    MJ_ACT_KONG,
    MJ_ACT_PASS,
    MJ_ACT_KINDS
} mj_action_kind;

typedef struct mj_action {
    uint8_t seat;
    uint8_t kind; /* mj_action_kind */
    uint8_t tile; /* the tile discarded or konged (unused for WIN, PUNG, KONG, PASS) */
} mj_action;

/* The stable name of an action kind ("discard", "win", "concealed_kong", …). */
const char *mj_action_name(mj_action_kind kind);

#define MJ_MAX_ACTIONS 24 /* a turn: 14 discards, up to 4 kongs of each sort, the win */

typedef struct mj_hand {
    mj_options options;
    uint8_t banker;
    bool sat;
    uint8_t pulls[MJ_SEATS];

    uint8_t wall[MJ_TILES];
    uint8_t front;        /* the next live draw */
    uint8_t live_end;     /* the live wall is wall[front .. live_end - 1] */
    uint8_t back;         /* replacements are wall[indicator_at + 1 .. back - 1], the last first */
    uint8_t indicator_at;
    uint8_t indicator;    /* its kind */
    mj_kind_set wilds;

    mj_counts hand[MJ_SEATS]; /* concealed tiles, the drawn tile included */
    mj_meld melds[MJ_SEATS][MJ_MAX_MELDS];
    uint8_t n_melds[MJ_SEATS];
    uint8_t discards[MJ_SEATS][MJ_MAX_DISCARDS]; /* in front of each seat, claimed ones taken away */
    uint8_t n_discards[MJ_SEATS];
    uint8_t draws[MJ_SEATS]; /* live-wall draws made (the deal not counted) */

    bool windows;         /* every discard waits for mj_hand_close_window (set after the start) */
    uint8_t phase;        /* mj_phase */
    uint8_t turn;         /* the seat to act in MJ_PHASE_TURN, or the last discarder in MJ_PHASE_CLAIM */
    uint8_t claimer;      /* MJ_PHASE_CLAIM */
    int8_t drawn;         /* the tile the seat to act drew, or -1 after a pung */
    bool on_replacement;  /* it was drawn after a kong */
    bool first_draw;      /* a win now is 天胡 (banker) or 地胡 */
    uint8_t last_discard;
    int8_t chan_tile;     /* the banker's first discard while 铲 is still possible, else -1 */
    uint8_t chan_follows; /* how many of the three others followed it */
    bool chan;

    uint8_t n_kongs;
    mj_kong_made kongs[MJ_MAX_KONGS];
    uint8_t n_wild_discards;
    uint8_t wild_discards[MJ_SEATS]; /* seats that discarded a wild, in order of the first */

    int8_t winner;        /* -1 while playing and for a drawn hand */
    mj_score score;       /* the winner's */
    mj_settlement settlement;
} mj_hand;

/*
 * Deals a hand from a seed: the banker, whether the banker sat and each seat's pulls (decided before
 * the hand). MJ_ERR_BAD_START if those break §5 (a pull by the banker or without sitting, more than
 * max_pulls, not sitting under must_sit) or the options are not valid.
 */
mj_status mj_hand_start(mj_hand *h, const mj_options *options, uint64_t seed, int banker, bool sat,
                        const uint8_t pulls[MJ_SEATS]);

/*
 * The same from a given wall (136 tiles, four of each kind, dealt from the front) and the dice's
 * total 2..12 that turns up the indicator, wall[136 - 2 × dice]: mj_hand_start shuffles the wall
 * and rolls the dice from its seed, then deals with this. MJ_ERR_BAD_INPUT for a wall that is not
 * the 136 tiles or dice out of range; MJ_ERR_BAD_START as mj_hand_start.
 */
mj_status mj_hand_deal(mj_hand *h, const mj_options *options, const uint8_t wall[MJ_TILES], int dice, int banker,
                       bool sat, const uint8_t pulls[MJ_SEATS]);

/* Checks an action against the hand and makes it; MJ_OK, or the first reason it is refused (hand
 * unchanged). */
mj_status mj_hand_act(mj_hand *h, const mj_action *action);

/*
 * Whether seat, holding a drawn tile, may win now, with the score in out (may be NULL) when it may:
 * MJ_OK, else the first reason not of MJ_ERR_NOT_YOUR_TURN (another seat acts), MJ_ERR_NOT_NOW (no
 * drawn tile: after a pung), MJ_ERR_NO_WIN (the tiles are not four sets and a pair),
 * MJ_ERR_UNDER_MINIMUM (they are, but score no fan) and MJ_ERR_WILD_DISCARDED (they win, but the
 * seat discarded a wild this hand).
 */
mj_status mj_hand_win_check(const mj_hand *h, int seat, mj_score *out);

/* The seat's hand as mj_fan scores it, its drawn tile the winning tile: for the seat to act while it
 * holds a drawn tile, and for the winner of a finished hand. */
void mj_hand_winning_hand(const mj_hand *h, int seat, mj_winning_hand *out);

/* Ends the claim window on the last discard with no claim (MJ_PHASE_CLAIM or MJ_PHASE_WINDOW): the
 * next seat draws, or the hand is drawn when the live wall is exhausted. MJ_ERR_NOT_NOW in another
 * phase, the hand unchanged. */
mj_status mj_hand_close_window(mj_hand *h);

/* What the hand's settlement is computed from (mj_settle.h), so far: the outcome of a finished
 * hand, and of a hand in play what has happened yet (no winner). */
void mj_hand_outcome(const mj_hand *h, mj_outcome *out);

/* Every action open now (the seat to act's, or the claimer's), into out; returns how many. */
int mj_hand_legal_actions(const mj_hand *h, mj_action out[MJ_MAX_ACTIONS]);

/* The seat whose decision the hand waits for, or -1 when it is over or in MJ_PHASE_WINDOW. */
int mj_hand_deciding(const mj_hand *h);

static inline bool mj_hand_over(const mj_hand *h) { return h->phase == MJ_PHASE_OVER; }

/* Tiles left to draw from the live wall. */
static inline int mj_hand_live_left(const mj_hand *h) { return h->live_end - h->front; }

#endif
