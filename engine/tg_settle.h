/*
 * tg_settle — what a finished Tien Gow hand is worth (rules/tiengow.md §4) and who banks next (§3).
 *
 * Pure arithmetic on an outcome: the stacks, the winner, the special endings of the final trick
 * and the banker with the multiplier. Amounts are in units; the ledger multiplies by the stake.
 * Bonuses paid during the hand (§5) are computed by tg_hand as tricks complete.
 */
#ifndef TG_SETTLE_H
#define TG_SETTLE_H

#include <stdint.h>

#include "tg_options.h"
#include "tg_status.h"
#include "tg_tiles.h"

/* Special endings, as bits. */
enum {
    TG_END_EIGHT = 1 << 0,   /* 八支 ×4 */
    TG_END_SEVEN = 1 << 1,   /* 七支 ×2 */
    TG_END_YAO = 1 << 2,     /* 么結 ×2 */
    TG_END_ZUN = 1 << 3,     /* 包尊 ×2 */
    TG_END_QUARTET = 1 << 4, /* 四大包 ×4 */
    TG_END_QIN = 1 << 5,     /* 擒: qin_multiplier replaces the product */
    TG_END_NATURAL = 1 << 6, /* a natural hand (例牌); with EIGHT or SEVEN */
};
#define TG_END_KINDS 7

/* The stable name of ending bit i (0..6): "eight", "seven", "yao", "zun", "quartet", "qin", "natural". */
const char *tg_ending_name(int bit_index);

typedef struct tg_outcome {
    uint8_t banker;
    uint32_t multiplier;     /* m >= 2 */
    uint8_t stacks[TG_SEATS];
    uint8_t winner;
    uint8_t endings;         /* TG_END_* bits */
    int8_t qin_captured;     /* the captured leader with TG_END_QIN, else -1 */
} tg_outcome;

typedef enum { TG_PAY_SETTLEMENT = 0, TG_PAY_QIN = 1 } tg_payment_why;

typedef struct tg_payment {
    uint8_t from, to;
    uint8_t why;             /* tg_payment_why */
    int64_t units;           /* > 0 */
} tg_payment;

typedef struct tg_settlement {
    uint8_t count;
    tg_payment payments[TG_SEATS - 1]; /* in seat order of the loser */
    int64_t net[TG_SEATS];             /* sums to zero */
} tg_settlement;

/* TG_OK if the outcome can arise (rules §8 settle mode), else the first reason it cannot. */
tg_status tg_outcome_check(const tg_outcome *outcome);

/* The base units a loser with s stacks owes the winner: 4 - s, 5 for none, -1/-2 for 5/6. */
int tg_loser_units(int stacks);

/* The product of the multipliers of the endings (1 if none; 擒 is not part of it). */
int tg_endings_multiplier(uint8_t endings);

/* Settles a checked outcome. */
void tg_settle(const tg_options *options, const tg_outcome *outcome, tg_settlement *out);

/* Who banks the next hand and with what multiplier, by the rotation option. */
void tg_next_bank(const tg_options *options, int banker, uint32_t multiplier, int winner, uint8_t *next_banker,
                  uint32_t *next_multiplier);

#endif
