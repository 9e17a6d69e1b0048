/*
 * mj_shanten — how many tiles a Tianjin hand is from winning (向听), wilds counted as jokers, and
 * how far it is from a win that meets the minimum of rules/tianjin-mahjong.md §3.
 *
 * Convention: -1 = complete (four sets and a pair), 0 = ready (听牌: one more tile can win), n > 0 =
 * n useful draws short of ready. A hand with m melds holds 13 - 3m or 14 - 3m concealed tiles; a
 * hand of 14 - 3m is measured after its best discard (0 or more) unless it is complete (-1).
 *
 * How it is counted. A win is 4 - m sets and a pair. Think of them as 4 - m set "templates" and
 * one pair template; each natural tile of the hand may sit in one (a pung template holds tiles of
 * one kind, a chow template tiles of three neighbouring ranks, at most one of each), wilds sit
 * anywhere. If P is the most naturals the templates can hold, the hand is
 *     (13 - 3m) - wilds - P
 * tiles from ready: every template slot not held by one of its tiles must be drawn, and the last
 * one wins. (This is the usual block count "8 - 2·sets - partials - pair" with single tiles and
 * jokers counted too; a fifth tile of a kind is not ruled out, as a wild may be one.)
 *
 * Suits are independent, so P is a max-plus sum of per-suit tables: for k = 0..4 set templates and
 * 0 or 1 pair template, the most naturals of that suit they hold. A suit's table is found by a
 * small search over its lowest rank (with its own memo of the ranks still open); the tables of the
 * suits a caller meets are kept in an mj_shanten_memo, which is plain memory the caller owns
 * (a bot keeps one per decision: trying fourteen discards and thirty-four draws changes one suit
 * at a time, so almost every table is found there).
 *
 * Routes to a win that counts (§3-§4: a bare win is refused). The distance to a scoring win is the
 * least over the routes open to the hand, each measured as above with its own templates:
 *  - 素 (no wild at all, melds included): any complete hand scores 2;
 *  - 混儿吊 with one wild (w >= 1): keep a wild, the other tiles make the 4 - m sets; the wild
 *    then waits as the pair for ANY drawn tile (the drawn tile, or a drawn wild, pairs with it).
 *    双混吊, two wilds waiting as a set, is never closer: the pair it needs could as well be a
 *    pung short of a wild. Under 刮大风 混儿吊 alone does not win, so the route is closed there;
 *  - 龙 (m <= 1, per number suit): 1-9 of the suit as three sets (one natural of each rank held,
 *    wilds fill), the rest 1 - m sets and the pair; it scores 4 with or without wilds.
 * A hand with a wild and no route ready may still be complete in the plain sense and not win: that
 * is why the plain distance (mj_shanten_plain) and the scoring one differ. 捉五, 杠开 and 天胡/地胡
 * are left to chance: no route aims at them. On 14 - 3m tiles a route at -1 has its shape complete;
 * whether that wins can still depend on the tile drawn (混儿吊 needs it in the wild's group).
 * A kind is counted at most four times (a hand cannot hold a fifth natural).
 */
#ifndef MJ_SHANTEN_H
#define MJ_SHANTEN_H

#include <stdbool.h>
#include <stdint.h>

#include "mj_tiles.h"

#define MJ_SHANTEN_MEMO_SLOTS 4096 /* a power of two */
#define MJ_FIT_SETS 4              /* set templates counted per suit: 0..4 */

/* Per suit (or the honours), the most naturals held by k set templates and p pair templates. */
typedef struct mj_fit {
    uint8_t v[MJ_FIT_SETS + 1][2];
} mj_fit;

/* The suit tables met so far, and the scratch the search for a new one uses. Initialise with
 * mj_shanten_memo_init; about 48 KB. */
typedef struct mj_shanten_memo {
    uint64_t slot[MJ_SHANTEN_MEMO_SLOTS]; /* a key of 22 bits above a table of 40 (ten nibbles) */
    int used;
    uint16_t stamp;                       /* the search's generation: its states with this stamp are known */
    uint16_t state_stamp[9 * 5 * 5 * 5];
    mj_fit state_fit[9 * 5 * 5 * 5];
} mj_shanten_memo;

void mj_shanten_memo_init(mj_shanten_memo *memo);

/* The table of one number suit (counts[0..8], ranks 1-9) or of the honours (counts[0..6]). */
mj_fit mj_shanten_suit_fit(mj_shanten_memo *memo, const uint8_t *counts, bool honours);


/*
 * The plain distance: four sets and a pair (melds count as sets), wilds as jokers, fan not asked.
 * natural holds the concealed tiles that are not wilds; 13 - 3·melds or 14 - 3·melds tiles with the
 * wilds. memo may be NULL (a memo is then made for the call).
 */
int mj_shanten_plain(mj_shanten_memo *memo, const mj_counts *natural, int wilds, int melds);

typedef enum {
    MJ_ROUTE_SU = 0,        /* 素: no wild anywhere, any complete hand */
    MJ_ROUTE_HUN_DIAO,      /* 混儿吊: a wild waits as the pair (or two as a set) for any tile */
    MJ_ROUTE_LONG_M,        /* 龙 in 万, 筒, 条 (MJ_ROUTE_LONG_M + suit) */
    MJ_ROUTE_LONG_P,
    MJ_ROUTE_LONG_S,
    MJ_ROUTES
} mj_route;

#define MJ_SHANTEN_NONE 99 /* a route closed to the hand */

/* What mj_shanten_scoring measures: the concealed naturals and wilds, the melds, whether a meld
 * holds wilds (a 金杠: then never 素), and whether 刮大风 is played (§6: 混儿吊 alone does not win
 * there, so its route is closed). */
typedef struct mj_shanten_hand {
    mj_counts natural;
    int wilds;
    int melds;
    bool wild_meld;
    bool gua_da_feng;
} mj_shanten_hand;

/*
 * The distance to a win that scores (the least over the routes); each route's own distance into
 * routes[MJ_ROUTES] when it is not NULL (MJ_SHANTEN_NONE for a closed route). MJ_SHANTEN_NONE when
 * every route is closed. memo may be NULL.
 */
int mj_shanten_scoring(mj_shanten_memo *memo, const mj_shanten_hand *hand, int routes[MJ_ROUTES]);

/*
 * A hand kept ready to measure, changed one tile at a time: what a bot uses to try many hands
 * that differ in one suit. It holds the suit tables, their sums by halves (万+筒, 条+honours) and,
 * per number suit, the table of the tiles a dragon (龙) would leave; a change looks up one suit.
 */
typedef struct mj_shanten_shape {
    mj_shanten_hand hand;
    mj_fit fits[4];
    mj_fit halves[2];     /* fits[万] + fits[筒], fits[条] + fits[honours] */
    mj_fit long_rest[3];  /* the suit with one tile of each rank it holds taken out */
    int long_ranks[3];    /* how many ranks it holds */
} mj_shanten_shape;

void mj_shanten_shape_init(mj_shanten_memo *memo, mj_shanten_shape *shape, const mj_shanten_hand *hand);

/* One natural tile of `kind` more (delta 1) or fewer (-1). */
void mj_shanten_shape_add(mj_shanten_memo *memo, mj_shanten_shape *shape, int kind, int delta);

/* One wild more or fewer. */
static inline void mj_shanten_shape_add_wild(mj_shanten_shape *shape, int delta) { shape->hand.wilds += delta; }

int mj_shanten_shape_scoring(const mj_shanten_shape *shape, int routes[MJ_ROUTES]);
int mj_shanten_shape_plain(const mj_shanten_shape *shape);

#endif
