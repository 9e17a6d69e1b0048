/*
 * tg_bot — a heuristic player built on the engine's own legal-action list.
 */
#include "tg_bot.h"

#include <string.h>

/* Tiles this seat has not seen: not in its hand, not played face up, not its own discards. */
static void unseen_tiles(const tg_view *v, uint8_t unseen[TG_KINDS])
{
    for (int k = 0; k < TG_KINDS; k++)
        unseen[k] = (uint8_t)(tg_tile(k)->copies - v->hand[k]);
    for (int i = 0; i < v->n_tricks; i++) {
        const tg_trick *t = &v->tricks[i];
        for (int j = 0; j < t->count; j++)
            for (int x = 0; x < t->actions[j].n; x++) {
                uint8_t k = t->actions[j].tiles[x];
                if (k < TG_KINDS && unseen[k] > 0)
                    unseen[k]--;
            }
    }
}

static bool combo_within(const tg_combo *c, const uint8_t counts[TG_KINDS])
{
    uint8_t need[TG_KINDS] = {0};
    for (int i = 0; i < c->n; i++)
        if (++need[c->tiles[i]] > counts[c->tiles[i]])
            return false;
    return true;
}

/* How many combinations built from unseen tiles could beat this combination if it were led. */
static int threats(const tg_view *v, const tg_combo *lead, const uint8_t unseen[TG_KINDS])
{
    if (lead->type == TG_SUPREME)
        return 0;
    bool wen_zun = v->options.wen_zun && tg_combo_is_wen_zun_pair(lead);
    int n = 0;
    for (int r = 0; r < tg_combo_count(); r++) {
        const tg_combo *c = tg_combo_at(r);
        bool beats = wen_zun ? (c->type == TG_PAIR_CIVIL && c->tiles[0] == TG_LONG_LEG_SEVEN)
                             : tg_combo_outranks(c, lead);
        if (beats && combo_within(c, unseen))
            n++;
    }
    return n;
}

/* A tile's worth to keep: its strength within its suit on one scale, more if it forms a combination. */
static int keep_value(const tg_view *v, int kind)
{
    const tg_tile_info *t = tg_tile(kind);
    int value = t->suit == TG_CIVIL ? t->strength * 10 : (t->strength - 2) * 15;
    for (int r = 0; r < tg_combo_count(); r++) {
        const tg_combo *c = tg_combo_at(r);
        if (c->n < 2 || !combo_within(c, v->hand))
            continue;
        for (int i = 0; i < c->n; i++)
            if (c->tiles[i] == kind)
                value += 20 * c->n;
    }
    return value;
}

/* The single tile to keep for the final trick: fewest threats, then strongest. */
static int reserve_tile(const tg_view *v, const uint8_t unseen[TG_KINDS])
{
    int best = -1, best_threats = 1 << 20, best_strength = -1;
    for (int k = 0; k < TG_KINDS; k++) {
        if (!v->hand[k])
            continue;
        tg_combo single = tg_classify((const uint8_t[]){(uint8_t)k}, 1);
        int th = threats(v, &single, unseen);
        int strength = keep_value(v, k);
        if (th < best_threats || (th == best_threats && strength > best_strength)) {
            best = k;
            best_threats = th;
            best_strength = strength;
        }
    }
    return best;
}

static bool uses_tile(const tg_action *a, int kind)
{
    for (int i = 0; i < a->n; i++)
        if (a->tiles[i] == kind)
            return true;
    return false;
}

static int held_count(const tg_view *v)
{
    int n = 0;
    for (int k = 0; k < TG_KINDS; k++)
        n += v->hand[k];
    return n;
}

/* The n tiles worth least to keep. */
static tg_action weakest_discard(const tg_view *v, int n)
{
    uint8_t tiles[TG_HAND_TILES];
    int values[TG_HAND_TILES];
    int count = 0;
    for (int k = 0; k < TG_KINDS; k++)
        for (int c = 0; c < v->hand[k]; c++) {
            tiles[count] = (uint8_t)k;
            values[count++] = keep_value(v, k);
        }
    for (int i = 1; i < count; i++)
        for (int j = i; j > 0 && values[j - 1] > values[j]; j--) {
            int tv = values[j];
            values[j] = values[j - 1];
            values[j - 1] = tv;
            uint8_t tt = tiles[j];
            tiles[j] = tiles[j - 1];
            tiles[j - 1] = tt;
        }
    return tg_action_make(v->seat, TG_DISCARD, tiles, n);
}

static tg_action choose_lead(const tg_view *v, const tg_action *legal, int count, const uint8_t unseen[TG_KINDS])
{
    int held = held_count(v);
    int reserve = reserve_tile(v, unseen);
    int best = -1;
    long best_score = -(1L << 40);
    for (int i = 0; i < count; i++) {
        const tg_action *a = &legal[i];
        if (a->n == held)
            return *a; /* the whole hand is one combination: play the final trick */
        tg_combo c = tg_classify(a->tiles, a->n);
        int th = threats(v, &c, unseen);
        long score;
        if (th == 0)
            score = 10000 + a->n * 1000 + (c.type == TG_SUPREME ? 500 : 0);
        else /* nothing safe: give the lead away with the least valuable single */
            score = a->n == 1 ? -keep_value(v, a->tiles[0]) - th : -100000 + a->n;
        if (uses_tile(a, reserve) && a->n < held)
            score -= 20000;
        if (score > best_score) {
            best_score = score;
            best = i;
        }
    }
    return legal[best];
}

static tg_action choose_follow(const tg_view *v, const tg_trick *t, const tg_action *legal, int count,
                               const uint8_t unseen[TG_KINDS])
{
    int reserve = reserve_tile(v, unseen);
    int plays = 0, cheapest = -1, strongest = -1;
    for (int i = 0; i < count; i++) {
        if (legal[i].kind != TG_PLAY)
            continue;
        plays++;
        tg_combo c = tg_classify(legal[i].tiles, legal[i].n);
        if (cheapest < 0 || c.rank < tg_classify(legal[cheapest].tiles, legal[cheapest].n).rank)
            cheapest = i;
        if (strongest < 0 || c.rank > tg_classify(legal[strongest].tiles, legal[strongest].n).rank)
            strongest = i;
    }
    if (plays > 0) {
        if (t->final)
            return legal[strongest];
        bool worth_it = t->n >= 2 || v->stacks[v->seat] < 2 || !uses_tile(&legal[cheapest], reserve);
        if (worth_it)
            return legal[cheapest];
    }
    return weakest_discard(v, t->n);
}

bool tg_bot_choose(const tg_view *v, tg_action *out)
{
    tg_action legal[TG_MAX_ACTIONS];
    int count = tg_view_legal_actions(v, legal, TG_MAX_ACTIONS);
    if (count == 0)
        return false;
    uint8_t unseen[TG_KINDS];
    unseen_tiles(v, unseen);
    const tg_trick *t = tg_view_open_trick(v);
    *out = t == NULL ? choose_lead(v, legal, count, unseen) : choose_follow(v, t, legal, count, unseen);
    return true;
}
