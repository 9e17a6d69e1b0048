/*
 * mj_settle — the payments of §5 in §7's order, the net, and the bank.
 */
#include "mj_settle.h"

#include <string.h>

static const char *const WHY[MJ_PAY_WHY_COUNT] = {
    [MJ_PAY_WIN] = "self-drawn win (自摸)",
    [MJ_PAY_KONG] = "exposed kong (明杠)",
    [MJ_PAY_CONCEALED_KONG] = "concealed kong (暗杠)",
    [MJ_PAY_GOLD_KONG] = "gold kong (金杠)",
    [MJ_PAY_CHAN] = "铲: the banker's first discard followed by all three",
    [MJ_PAY_WILD_DISCARD] = "discarded a wild",
};

const char *mj_payment_why_text(mj_payment_why why) { return (unsigned)why < MJ_PAY_WHY_COUNT ? WHY[why] : ""; }

static bool in_range(const mj_options *options, const mj_outcome *o)
{
    if (o->banker >= MJ_SEATS || o->winner < -1 || o->winner >= MJ_SEATS || o->n_kongs > MJ_MAX_KONGS ||
        o->n_wild_discards > MJ_SEATS)
        return false;
    if (o->winner >= 0 ? (o->fan < 2 || o->fan > MJ_MAX_FAN) : o->fan != 0)
        return false;
    for (int s = 0; s < MJ_SEATS; s++)
        if (o->pulls[s] > options->max_pulls)
            return false;
    for (int i = 0; i < o->n_kongs; i++)
        if (o->kongs[i].seat >= MJ_SEATS || o->kongs[i].kind > MJ_KONG_GOLD)
            return false;
    unsigned seen = 0;
    for (int i = 0; i < o->n_wild_discards; i++) {
        if (o->wild_discards[i] >= MJ_SEATS || (seen & (1u << o->wild_discards[i])))
            return false;
        seen |= 1u << o->wild_discards[i];
    }
    return true;
}

mj_status mj_outcome_check(const mj_options *options, const mj_outcome *o)
{
    if (!mj_options_valid(options) || !in_range(options, o))
        return MJ_ERR_BAD_INPUT;
    if (o->pulls[o->banker] > 0)
        return MJ_ERR_BANKER_PULLED;
    for (int s = 0; s < MJ_SEATS; s++)
        if (o->pulls[s] > 0 && !o->sat)
            return MJ_ERR_PULL_WITHOUT_SIT;
    if (options->must_sit && !o->sat)
        return MJ_ERR_MUST_SIT;
    if (o->chan && !options->chan)
        return MJ_ERR_CHAN_OFF;
    int per_seat[MJ_SEATS] = {0};
    for (int i = 0; i < o->n_kongs; i++) {
        if (o->kongs[i].kind == MJ_KONG_GOLD && options->gold_kong_fan == 0)
            return MJ_ERR_GOLD_KONG_BARRED;
        per_seat[o->kongs[i].seat]++;
    }
    for (int s = 0; s < MJ_SEATS; s++)
        if (per_seat[s] > MJ_MAX_KONGS_PER_SEAT)
            return MJ_ERR_TOO_MANY_KONGS;
    for (int i = 0; i < o->n_wild_discards; i++)
        if (o->wild_discards[i] == o->winner)
            return MJ_ERR_WINNER_DISCARDED_WILD;
    return MJ_OK;
}

int64_t mj_seat_factor(const mj_outcome *o, int a, int b)
{
    if (a != o->banker && b != o->banker)
        return 1;
    int other = a == o->banker ? b : a;
    int64_t factor = o->sat ? 2 : 1;
    return factor << o->pulls[other];
}

int mj_next_banker(const mj_outcome *o)
{
    if (o->winner >= 0)
        return o->winner == o->banker ? o->banker : (o->banker + 1) % MJ_SEATS;
    bool banker_kong = false, other_kong = false;
    for (int i = 0; i < o->n_kongs; i++) {
        if (o->kongs[i].seat == o->banker)
            banker_kong = true;
        else
            other_kong = true;
    }
    return other_kong && !banker_kong ? (o->banker + 1) % MJ_SEATS : o->banker;
}

static void pay(const mj_options *options, const mj_outcome *o, mj_settlement *out, int from, int to, int64_t amount,
                mj_payment_why why)
{
    int64_t units = amount * (int64_t)options->base * mj_seat_factor(o, from, to);
    out->payments[out->count++] = (mj_payment){(uint8_t)from, (uint8_t)to, (uint8_t)why, units};
    out->net[from] -= units;
    out->net[to] += units;
}

/* Each of the three others pays `to`. */
static void all_pay(const mj_options *options, const mj_outcome *o, mj_settlement *out, int to, int64_t amount,
                    mj_payment_why why)
{
    for (int from = 0; from < MJ_SEATS; from++)
        if (from != to)
            pay(options, o, out, from, to, amount, why);
}

/* `from` pays each of the three others. */
static void pays_all(const mj_options *options, const mj_outcome *o, mj_settlement *out, int from, int64_t amount,
                     mj_payment_why why)
{
    for (int to = 0; to < MJ_SEATS; to++)
        if (to != from)
            pay(options, o, out, from, to, amount, why);
}

void mj_settle(const mj_options *options, const mj_outcome *o, mj_settlement *out)
{
    memset(out, 0, sizeof *out);
    if (o->winner >= 0)
        all_pay(options, o, out, o->winner, o->fan, MJ_PAY_WIN);
    /* 刮大风: kongs pay nothing in a drawn hand (§6) */
    bool kongs_pay = o->winner >= 0 || !options->gua_da_feng;
    for (int i = 0; kongs_pay && i < o->n_kongs; i++) {
        static const struct {
            mj_payment_why why;
            int fan; /* -1: the table's gold_kong_fan */
        } KONG_PAYS[] = {
            [MJ_KONG_EXPOSED] = {MJ_PAY_KONG, 1},
            [MJ_KONG_CONCEALED] = {MJ_PAY_CONCEALED_KONG, 2},
            [MJ_KONG_GOLD] = {MJ_PAY_GOLD_KONG, -1},
        };
        int fan = KONG_PAYS[o->kongs[i].kind].fan;
        all_pay(options, o, out, o->kongs[i].seat, fan >= 0 ? fan : options->gold_kong_fan,
                KONG_PAYS[o->kongs[i].kind].why);
    }
    if (o->chan)
        pays_all(options, o, out, o->banker, 1, MJ_PAY_CHAN);
    for (int i = 0; options->wild_discard_penalty && i < o->n_wild_discards; i++)
        pays_all(options, o, out, o->wild_discards[i], 1, MJ_PAY_WILD_DISCARD);
    out->next_banker = (uint8_t)mj_next_banker(o);
    out->next_must_sit = options->must_sit || (o->sat && out->next_banker == o->banker);
}
