/*
 * tg_tiles — the 32 Tien Gow tiles (rules/tiengow.md §1).
 *
 * A tile is named by its kind: 21 kinds, the 11 civil kinds (two copies each) and the 10
 * military tiles (one each). Kinds are numbered so that within a suit a lower number is a
 * stronger tile; tg_tile_strength() gives the comparable strength (higher beats lower).
 * Everything here is constant data; nothing allocates.
 */
#ifndef TG_TILES_H
#define TG_TILES_H

#include <stdbool.h>
#include <stdint.h>

#define TG_KINDS 21
#define TG_TILES 32
#define TG_HAND_TILES 8
#define TG_SEATS 4

typedef enum { TG_CIVIL = 0, TG_MILITARY = 1 } tg_suit;

/* Kind numbers, strongest first within each suit. */
enum {
    TG_HEAVEN = 0,     /* 6-6 天 */
    TG_EARTH,          /* 1-1 地 */
    TG_MAN,            /* 4-4 人 */
    TG_GOOSE,          /* 1-3 和 */
    TG_PLUM,           /* 5-5 梅 */
    TG_LONG_THREE,     /* 3-3 長三 */
    TG_BENCH,          /* 2-2 板凳 */
    TG_HATCHET,        /* 5-6 斧頭 */
    TG_RED_HEAD_TEN,   /* 4-6 紅頭十 */
    TG_LONG_LEG_SEVEN, /* 1-6 高腳七 */
    TG_COPPER_HAMMER,  /* 1-5 銅錘六 */
    TG_NINE_36,        /* 3-6 military 9 */
    TG_NINE_45,        /* 4-5 military 9 */
    TG_EIGHT_26,       /* 2-6 military 8 */
    TG_EIGHT_35,       /* 3-5 military 8 */
    TG_SEVEN_25,       /* 2-5 military 7 */
    TG_SEVEN_34,       /* 3-4 military 7 */
    TG_SIX_24,         /* 2-4 大頭六 */
    TG_FIVE_23,        /* 2-3 military 5 */
    TG_FIVE_14,        /* 1-4 military 5 */
    TG_THREE_12,       /* 1-2 丁三 */
};

typedef struct tg_tile_info {
    uint8_t low, high;   /* the two dice faces, low first */
    tg_suit suit;
    uint8_t strength;    /* civil: 11 (天) .. 1 (銅錘六); military: the pip total */
    uint8_t copies;      /* 2 for a civil kind, 1 for a military tile */
    uint8_t red_pips;    /* every 1 and every 4 is red; 天 counts 6 */
    const char *zh_hant;
    const char *zh_hans;
    const char *en;
} tg_tile_info;

/* The tile of a kind; kind must be < TG_KINDS. */
const tg_tile_info *tg_tile(int kind);

static inline tg_suit tg_tile_suit(int kind) { return kind <= TG_COPPER_HAMMER ? TG_CIVIL : TG_MILITARY; }
uint8_t tg_tile_strength(int kind);

/* The kind with these faces (either order), or -1 if no tile has them. */
int tg_tile_from_faces(int a, int b);

/* Parses "L-H" with 1 <= L <= H <= 6 naming a real tile; -1 otherwise. */
int tg_tile_parse(const char *text);

/* Writes "L-H" and a NUL into out (4 bytes). */
void tg_tile_format(int kind, char out[4]);

/* The 32 tiles as kinds, in kind order (each civil kind twice). */
void tg_full_set(uint8_t out[TG_TILES]);

#endif
