/*
 * mj_settle — what a finished Tianjin hand pays and who banks next (rules/tianjin-mahjong.md §5,
 * §6, §7 settle mode).
 *
 * Pure arithmetic on an outcome: the banker, whether the banker sat (坐庄) and how often each seat
 * pulled (拉庄), the self-drawn winner and the hand's fan (from mj_fan), every kong made, 铲, and the
 * seats that discarded a wild. Each amount is fan units × the table's base; between the banker and
 * another seat P it is ×2 if the banker sat and ×2 for each pull of P; between two non-bankers as
 * written. Payments are listed in §7's order: the win, the kongs in the order made, 铲, the wild
 * discards; payers (or, for one payer, payees) in seat order.
 */
#ifndef MJ_SETTLE_H
#define MJ_SETTLE_H

#include <stdbool.h>
#include <stdint.h>

#include "mj_options.h"
#include "mj_status.h"
#include "mj_tiles.h"

typedef enum {
    MJ_KONG_EXPOSED = 0,   /* 明杠, exposed or added: 1 */
    MJ_KONG_CONCEALED = 1, /* 暗杠: 2 */
    MJ_KONG_GOLD = 2,      /* 金杠, four wilds of a kind: gold_kong_fan */
} mj_kong_kind;

typedef struct mj_kong_made {
    uint8_t seat;
    uint8_t kind; /* mj_kong_kind */
} mj_kong_made;

#define MJ_MAX_KONGS_PER_SEAT 4
#define MJ_MAX_KONGS (MJ_SEATS * MJ_MAX_KONGS_PER_SEAT)
#define MJ_MAX_FAN 1000000

typedef struct mj_outcome {
    uint8_t banker;
    bool sat;                        /* 坐庄 */
    uint8_t pulls[MJ_SEATS];         /* 拉庄, 0..max_pulls each */
    int8_t winner;                   /* the self-drawing winner, or -1 for a drawn hand (荒牌) */
    uint32_t fan;                    /* the hand's total with a winner (2..MJ_MAX_FAN), else 0 */
    uint8_t n_kongs;
    mj_kong_made kongs[MJ_MAX_KONGS]; /* in the order they were made */
    bool chan;                       /* 铲 happened */
    uint8_t n_wild_discards;
    uint8_t wild_discards[MJ_SEATS]; /* distinct seats that discarded a wild, in the order given */
} mj_outcome;

typedef enum {
    MJ_PAY_WIN = 0,
    MJ_PAY_KONG,
    MJ_PAY_CONCEALED_KONG,
    MJ_PAY_GOLD_KONG,
    MJ_PAY_CHAN,
    MJ_PAY_WILD_DISCARD,
    MJ_PAY_WHY_COUNT
} mj_payment_why;

/* A few words on why a payment is made ("self-drawn win", "concealed kong", …). */
const char *mj_payment_why_text(mj_payment_why why);

typedef struct mj_payment {
    uint8_t from, to;
    uint8_t why;   /* mj_payment_why */
    int64_t units; /* > 0, base included */
} mj_payment;

#define MJ_MAX_PAYMENTS (3 + 3 * MJ_MAX_KONGS + 3 + 3 * MJ_SEATS)

typedef struct mj_settlement {
    uint8_t count;
    mj_payment payments[MJ_MAX_PAYMENTS];
    int64_t net[MJ_SEATS];  /* sums to zero */
    uint8_t next_banker;
    bool next_must_sit;
} mj_settlement;

/*
 * MJ_OK if the outcome can arise, else the first reason it cannot, in §7's order: a pull by the
 * banker, a pull when the banker did not sit, not sitting under must_sit, 铲 with the option off, a
 * 金杠 when gold_kong_fan is 0, more than four kongs by one seat, a winner who discarded a wild.
 * MJ_ERR_BAD_INPUT for values out of range or a repeated wild-discard seat (the calculator refuses
 * those as bad requests first).
 */
mj_status mj_outcome_check(const mj_options *options, const mj_outcome *outcome);

/* The factor between seats a and b: 1 between non-bankers; with the banker, ×2 if sat, ×2 per pull. */
int64_t mj_seat_factor(const mj_outcome *outcome, int a, int b);

/* Who banks next (§5): the banker after winning or a drawn hand, unless in a drawn hand a non-banker
 * made a kong and the banker none; else the next seat. */
int mj_next_banker(const mj_outcome *outcome);

/* Settles a checked outcome. */
void mj_settle(const mj_options *options, const mj_outcome *outcome, mj_settlement *out);

#endif
