/*
 * mj_tiles — the 136 tiles of Tianjin Mahjong (rules/tianjin-mahjong.md §1): 34 kinds, four of each.
 *
 * A tile is named by its kind, 0..33: 万 1-9 (0-8), 筒 1-9 (9-17), 条 1-9 (18-26), the winds
 * 东南西北 (27-30), the dragons 中发白 (31-33). A hand is a count per kind (mj_counts), which is
 * all the rules ever need: tiles of one kind are interchangeable. The wire names are "1m".."9m",
 * "1p".."9p", "1s".."9s", "E" "S" "W" "N", "C" "F" "P". Everything here is constant data.
 */
#ifndef MJ_TILES_H
#define MJ_TILES_H

#include <stdbool.h>
#include <stdint.h>

#define MJ_KINDS 34
#define MJ_COPIES 4
#define MJ_TILES (MJ_KINDS * MJ_COPIES)
#define MJ_SEATS 4
#define MJ_HAND_TILES 13   /* a non-banker's dealt hand; the banker gets 14 */

typedef enum { MJ_SUIT_M = 0, MJ_SUIT_P = 1, MJ_SUIT_S = 2, MJ_SUIT_HONOR = 3 } mj_suit;
#define MJ_NUMBER_SUITS 3

/* Kind numbers of the tiles the rules name. */
enum {
    MJ_1M = 0, MJ_4M = 3, MJ_5M = 4, MJ_6M = 5, MJ_9M = 8,
    MJ_1P = 9, MJ_1S = 18,
    MJ_EAST = 27, MJ_SOUTH = 28, MJ_WEST = 29, MJ_NORTH = 30,
    MJ_RED = 31, MJ_GREEN = 32, MJ_WHITE = 33, /* 中 发 白 */
};

/* A count per kind: a hand, a wall, tiles seen. */
typedef struct mj_counts {
    uint8_t n[MJ_KINDS];
} mj_counts;

static inline mj_suit mj_kind_suit(int kind) { return kind < 27 ? (mj_suit)(kind / 9) : MJ_SUIT_HONOR; }

/* 1..9 for a number tile, 0 for an honour. */
static inline int mj_kind_rank(int kind) { return kind < 27 ? kind % 9 + 1 : 0; }

/* The kind of rank 1..9 in number suit s. */
static inline int mj_number_kind(mj_suit suit, int rank) { return (int)suit * 9 + rank - 1; }

/*
 * The next kind in the order wilds are counted (§2): within a number suit 1→2→…→9→1, the winds
 * 东→南→西→北→东, the dragons 中→发→白→中. mj_prev_kind goes the other way (before 1 comes 9,
 * before 中 comes 白).
 */
int mj_next_kind(int kind);
int mj_prev_kind(int kind);

/* The wire name of a kind ("5m", "E", …), or "" for a number out of range. */
const char *mj_kind_name(int kind);

/* The kind named exactly by text, or -1. */
int mj_kind_parse(const char *text);

/* The Chinese name of a kind (五万, 东, 中, …), for messages. */
const char *mj_kind_zh(int kind);

/* The number of tiles counted. */
int mj_counts_total(const mj_counts *counts);

#endif
