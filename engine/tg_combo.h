/*
 * tg_combo — Tien Gow combinations ("types") and their ranking (rules/tiengow.md §2).
 *
 * Every combination the 32 tiles allow is one row of a constant table (61 rows), so
 * classifying tiles and listing the combinations a hand holds are table look-ups.
 * A combination beats another only if both have the same type and its rank is strictly
 * higher; the trick rules for 至尊 and 文尊 (which depend on who led) live in tg_hand.
 */
#ifndef TG_COMBO_H
#define TG_COMBO_H

#include "tg_tiles.h"

typedef enum {
    TG_COMBO_NONE = 0,      /* not a combination */
    TG_SINGLE_CIVIL,
    TG_SINGLE_MILITARY,
    TG_PAIR_CIVIL,          /* 文對 (the pair of 1-5 is also 文尊 when led with wen_zun) */
    TG_PAIR_MILITARY,       /* 武對 */
    TG_PAIR_MIXED,          /* 文武對 */
    TG_SUPREME,             /* 至尊: 1-2 + 2-4, may only be led */
    TG_TRIPLE_CIVIL,        /* 三文: two civil + one military */
    TG_TRIPLE_MILITARY,     /* 三武: one civil + two military */
    TG_QUARTET,             /* 四 */
    TG_COMBO_TYPES
} tg_combo_type;

typedef struct tg_combo {
    uint8_t type;  /* tg_combo_type */
    uint8_t rank;  /* higher beats lower within a type */
    uint8_t n;     /* tiles */
    uint8_t tiles[4]; /* kinds, ascending */
} tg_combo;

/* The type and rank of n tiles (kinds, any order); type TG_COMBO_NONE if they are none. */
tg_combo tg_classify(const uint8_t *kinds, int n);

/* Number of rows in the combination table and row i. */
int tg_combo_count(void);
const tg_combo *tg_combo_at(int i);

/* True if a has the same type as b and a strictly higher rank (no trick context). */
bool tg_combo_outranks(const tg_combo *a, const tg_combo *b);

/* True if the combination is the pair of 銅錘六 (1-5), which can be 文尊. */
bool tg_combo_is_wen_zun_pair(const tg_combo *c);

/* A stable lower-case name of a type, e.g. "civil_pair". */
const char *tg_combo_type_name(int type);

#endif
