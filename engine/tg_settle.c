/*
 * tg_settle — settlement of rules §4, including 擒 and the losing banker's unmultiplied 入一/入二.
 */
#include "tg_settle.h"

#include <string.h>

static const struct {
    uint8_t bit;
    uint8_t multiplier;
    const char *name;
} ENDINGS[TG_END_KINDS] = {
    {TG_END_EIGHT, 4, "eight"}, {TG_END_SEVEN, 2, "seven"}, {TG_END_YAO, 2, "yao"},    {TG_END_ZUN, 2, "zun"},
    {TG_END_QUARTET, 4, "quartet"}, {TG_END_QIN, 1, "qin"}, {TG_END_NATURAL, 1, "natural"},
};

const char *tg_ending_name(int bit_index)
{
    return bit_index >= 0 && bit_index < TG_END_KINDS ? ENDINGS[bit_index].name : "";
}

int tg_endings_multiplier(uint8_t endings)
{
    int m = 1;
    for (int i = 0; i < TG_END_KINDS; i++)
        if (endings & ENDINGS[i].bit)
            m *= ENDINGS[i].multiplier;
    return m;
}

int tg_loser_units(int stacks) { return 4 - stacks + (stacks == 0 ? 1 : 0); }

static int popcount8(unsigned x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

tg_status tg_outcome_check(const tg_outcome *o)
{
    int total = 0;
    for (int s = 0; s < TG_SEATS; s++)
        total += o->stacks[s];
    if (total != 8)
        return TG_ERR_STACKS_NOT_EIGHT;
    if (o->stacks[o->winner] < 2)
        return TG_ERR_WINNER_UNDER_TWO;
    if ((o->endings & TG_END_EIGHT) && (o->endings & TG_END_SEVEN))
        return TG_ERR_EIGHT_AND_SEVEN;
    if ((o->endings & (TG_END_EIGHT | TG_END_SEVEN)) && o->stacks[o->winner] != 8)
        return TG_ERR_SHUTOUT_NEEDS_EIGHT;
    if (popcount8(o->endings & (TG_END_YAO | TG_END_ZUN | TG_END_QUARTET)) > 1)
        return TG_ERR_TWO_TILE_ENDINGS;
    if (o->endings & TG_END_QIN) {
        if (o->endings != TG_END_QIN)
            return TG_ERR_QIN_WITH_ENDINGS;
        int s = o->qin_captured;
        if (s < 0 || s >= TG_SEATS || s == o->winner || o->stacks[s] < 1)
            return TG_ERR_QIN_CAPTURED;
    }
    return TG_OK;
}

/* L's banker factor against W: m when either banks, except a losing banker's refund (units < 0). */
static int64_t banker_factor(const tg_outcome *o, int loser, int units)
{
    bool banker_involved = o->winner == o->banker || loser == o->banker;
    if (!banker_involved || (loser == o->banker && units < 0))
        return 1;
    return o->multiplier;
}

static void add_payment(tg_settlement *out, int loser, int winner, int64_t amount, tg_payment_why why)
{
    if (amount == 0)
        return;
    tg_payment *p = &out->payments[out->count++];
    p->from = (uint8_t)(amount > 0 ? loser : winner);
    p->to = (uint8_t)(amount > 0 ? winner : loser);
    p->units = amount > 0 ? amount : -amount;
    p->why = (uint8_t)why;
    out->net[loser] -= amount;
    out->net[winner] += amount;
}

void tg_settle(const tg_options *options, const tg_outcome *o, tg_settlement *out)
{
    memset(out, 0, sizeof *out);
    int w = o->winner;
    if (o->endings & TG_END_QIN) {
        int64_t sum = 0;
        for (int l = 0; l < TG_SEATS; l++) {
            if (l == w)
                continue;
            int units = tg_loser_units(o->stacks[l]);
            int64_t a = units * banker_factor(o, l, units) * options->qin_multiplier;
            if (options->qin_pays_all)
                sum += a;
            else
                add_payment(out, l, w, a, TG_PAY_QIN);
        }
        if (options->qin_pays_all)
            add_payment(out, o->qin_captured, w, sum, TG_PAY_QIN);
        return;
    }
    int64_t endings = tg_endings_multiplier(o->endings);
    for (int l = 0; l < TG_SEATS; l++) {
        if (l == w)
            continue;
        int units = tg_loser_units(o->stacks[l]);
        add_payment(out, l, w, units * banker_factor(o, l, units) * endings, TG_PAY_SETTLEMENT);
    }
}

void tg_next_bank(const tg_options *options, int banker, uint32_t multiplier, int winner, uint8_t *next_banker,
                  uint32_t *next_multiplier)
{
    if (winner == banker) {
        *next_banker = (uint8_t)banker;
        *next_multiplier = multiplier + 1;
    } else if (options->rotation == TG_ROTATION_TURN) {
        *next_banker = (uint8_t)((banker + 1) % TG_SEATS);
        *next_multiplier = 2;
    } else {
        *next_banker = (uint8_t)winner;
        *next_multiplier = 2;
    }
}
