/*
 * mj_bot — the Tianjin bot's strategy, from one seat's view.
 *
 * Distance. Every choice is judged by the distance of the tiles it keeps to a win that scores
 * (mj_shanten_scoring: 0 = ready), counting its wilds as jokers. While the seat may still win it
 * uses the routes that always score (素 with no wild, 混儿吊 keeping a wild as the pair, 龙);
 * once it has discarded a wild it can never win, and it only keeps the plain shape for its kongs.
 *
 * Useful tiles (进张). Among choices at the same distance, the one with more useful unseen tiles
 * wins: a kind is useful when drawing it brings the kept tiles closer, or wins when they are
 * ready; it is counted as many times as it is unseen (four, less what the seat has seen in its
 * hand, in melds, in discards and as the indicator). Ready on 混儿吊 waits for every tile.
 *
 * Turn: win if it may (mj_score_hand says the hand meets the minimum). Else a kong if one is
 * worth it (kong_worth), the 金杠 first. Else the discard whose kept tiles are closest, then with
 * the most useful tiles, then of the kind with the fewest unseen copies (fewer chances that another
 * seat holds two and pungs it), then the higher kind (honours first). A wild is
 * never discarded while the hand holds anything else.
 *
 * Claim: a kong if worth it; a pung if the best discard after it is closer than the hand now, or
 * as close with more useful tiles; else pass.
 *
 * Kongs pay their owner whether or not it wins (an exposed or added kong 1 fan from each other
 * seat, a concealed one 2, a 金杠 gold_kong_fan), about what a small win pays, so a kong is made
 * unless it sets the hand back: it is worth it when the tiles kept are no further from a win, or
 * one step further while the hand is not ready. A kong that finds no replacement ends the hand
 * drawn (no_replacement "draw"): then only while not ready, and never under 刮大风, where kongs
 * of a drawn hand pay nothing.
 */
#include "mj_bot.h"

#include <string.h>

#include "mj_shanten.h"

/* --- the view --- */

void mj_bot_view_of(const mj_hand *h, int seat, mj_bot_view *out)
{
    memset(out, 0, sizeof *out);
    out->options = h->options;
    out->seat = (uint8_t)seat;
    out->banker = h->banker;
    out->sat = h->sat;
    memcpy(out->pulls, h->pulls, sizeof out->pulls);

    out->phase = h->phase;
    out->deciding = (int8_t)mj_hand_deciding(h);
    out->turn = h->turn;
    if (h->phase == MJ_PHASE_CLAIM)
        out->last_discard = h->last_discard;

    out->own = h->hand[seat];
    bool own_turn = h->phase == MJ_PHASE_TURN && h->turn == seat;
    out->drawn = own_turn ? h->drawn : -1;
    out->on_replacement = own_turn && h->on_replacement;
    out->first_draw = own_turn && h->first_draw;

    out->indicator = h->indicator;
    out->wilds = h->wilds;
    out->live_left = (uint8_t)mj_hand_live_left(h);
    out->replacements_left = (uint8_t)(h->back - h->indicator_at - 1);

    out->seen = h->hand[seat];
    out->seen.n[h->indicator]++;
    for (int s = 0; s < MJ_SEATS; s++) {
        out->concealed[s] = (uint8_t)mj_counts_total(&h->hand[s]);
        out->n_melds[s] = h->n_melds[s];
        for (int m = 0; m < h->n_melds[s]; m++) {
            out->melds[s][m] = h->melds[s][m];
            out->seen.n[h->melds[s][m].tile] = (uint8_t)(out->seen.n[h->melds[s][m].tile] + mj_meld_size(&h->melds[s][m]));
        }
        out->n_discards[s] = h->n_discards[s];
        for (int d = 0; d < h->n_discards[s]; d++) {
            out->discards[s][d] = h->discards[s][d];
            out->seen.n[h->discards[s][d]]++;
        }
    }
    for (int i = 0; i < h->n_wild_discards; i++)
        out->discarded_wild[h->wild_discards[i]] = true;
}

static bool is_wild(const mj_bot_view *v, int kind) { return mj_kind_set_has(v->wilds, kind); }

static bool has_pung(const mj_bot_view *v, int kind)
{
    for (int m = 0; m < v->n_melds[v->seat]; m++)
        if (v->melds[v->seat][m].kind == MJ_MELD_PUNG && v->melds[v->seat][m].tile == kind)
            return true;
    return false;
}

/* Whether the seat wins with its drawn tile now (the engine's own test, on the seat's tiles). */
static bool can_win_now(const mj_bot_view *v)
{
    if (v->drawn < 0 || v->discarded_wild[v->seat])
        return false;
    mj_winning_hand w;
    memset(&w, 0, sizeof w);
    w.concealed = v->own;
    w.concealed.n[v->drawn]--;
    memcpy(w.melds, v->melds[v->seat], sizeof w.melds);
    w.n_melds = v->n_melds[v->seat];
    w.win_tile = (uint8_t)v->drawn;
    w.indicator = v->indicator;
    w.kong_replacement = v->on_replacement;
    w.first_draw = v->first_draw;
    w.dealer = v->seat == v->banker;
    mj_score score;
    return mj_score_hand(&v->options, &w, &score) == MJ_OK;
}

int mj_bot_legal_actions(const mj_bot_view *v, mj_action out[MJ_MAX_ACTIONS])
{
    int n = 0;
    uint8_t seat = v->seat;
    if (v->deciding != (int8_t)seat)
        return 0;
    if (v->phase == MJ_PHASE_CLAIM) {
        int tile = v->last_discard;
        out[n++] = (mj_action){seat, MJ_ACT_PASS, (uint8_t)tile};
        if (v->own.n[tile] >= 2)
            out[n++] = (mj_action){seat, MJ_ACT_PUNG, (uint8_t)tile};
        if (v->own.n[tile] >= 3)
            out[n++] = (mj_action){seat, MJ_ACT_KONG, (uint8_t)tile};
        return n;
    }
    if (can_win_now(v))
        out[n++] = (mj_action){seat, MJ_ACT_WIN, (uint8_t)v->drawn};
    for (int k = 0; k < MJ_KINDS && n < MJ_MAX_ACTIONS && v->drawn >= 0; k++) {
        if (v->own.n[k] >= 4 && v->n_melds[seat] < MJ_MAX_MELDS && !(is_wild(v, k) && v->options.gold_kong_fan == 0))
            out[n++] = (mj_action){seat, MJ_ACT_CONCEALED_KONG, (uint8_t)k};
        if (n < MJ_MAX_ACTIONS && v->own.n[k] > 0 && has_pung(v, k))
            out[n++] = (mj_action){seat, MJ_ACT_ADDED_KONG, (uint8_t)k};
    }
    for (int k = 0; k < MJ_KINDS && n < MJ_MAX_ACTIONS; k++)
        if (v->own.n[k] > 0)
            out[n++] = (mj_action){seat, MJ_ACT_DISCARD, (uint8_t)k};
    return n;
}

/* --- shapes: concealed tiles measured, one suit changed at a time --- */

typedef struct bot {
    const mj_bot_view *v;
    bool may_win;              /* it has not discarded a wild */
    bool wild_meld;            /* a 金杠 among its melds */
    uint8_t unseen[MJ_KINDS];
    int unseen_total;
    mj_shanten_memo memo;
} bot;

typedef mj_shanten_shape shape;

static void shape_init(bot *b, shape *sh, const mj_counts *concealed, int melds)
{
    mj_shanten_hand hand;
    memset(&hand, 0, sizeof hand);
    for (int k = 0; k < MJ_KINDS; k++) {
        if (is_wild(b->v, k))
            hand.wilds += concealed->n[k];
        else
            hand.natural.n[k] = concealed->n[k];
    }
    hand.melds = melds;
    hand.wild_meld = b->wild_meld;
    hand.gua_da_feng = b->v->options.gua_da_feng;
    mj_shanten_shape_init(&b->memo, sh, &hand);
}

static void shape_change(bot *b, shape *sh, int kind, int delta)
{
    if (is_wild(b->v, kind))
        mj_shanten_shape_add_wild(sh, delta);
    else
        mj_shanten_shape_add(&b->memo, sh, kind, delta);
}

/* The distance of a shape, and each route's: to a scoring win while the seat may win, else the
 * plain shape's (its kongs still pay). */
static int shape_distance(const bot *b, const shape *sh, int routes[MJ_ROUTES])
{
    if (b->may_win)
        return mj_shanten_shape_scoring(sh, routes);
    int plain = mj_shanten_shape_plain(sh);
    if (routes != NULL)
        for (int r = 0; r < MJ_ROUTES; r++)
            routes[r] = plain;
    return plain;
}

/* Whether a ready shape (13 - 3m tiles) wins with `kind` drawn: 混儿吊 waits for anything;
 * 素 and 龙 need the drawn tile to complete them (素 only with a natural). */
static bool ready_wins_with(bot *b, const shape *sh, const int routes[MJ_ROUTES], int kind)
{
    if (routes[MJ_ROUTE_HUN_DIAO] == 0)
        return true;
    shape after = *sh;
    shape_change(b, &after, kind, +1);
    int r[MJ_ROUTES];
    shape_distance(b, &after, r);
    for (int i = 0; i < MJ_ROUTES; i++)
        if (routes[i] == 0 && r[i] == -1)
            return true;
    return false;
}

/* How many unseen tiles bring a shape of 13 - 3m tiles at `distance` closer (or win when ready). */
static int useful_tiles(bot *b, const shape *sh, int distance)
{
    if (distance >= MJ_SHANTEN_NONE)
        return 0;
    int routes[MJ_ROUTES];
    shape_distance(b, sh, routes);
    if (distance == 0 && b->may_win && routes[MJ_ROUTE_HUN_DIAO] == 0)
        return b->unseen_total;
    int useful = 0;
    for (int k = 0; k < MJ_KINDS; k++) {
        if (b->unseen[k] == 0)
            continue;
        bool counts;
        if (distance == 0 && b->may_win) {
            counts = ready_wins_with(b, sh, routes, k);
        } else {
            shape after = *sh;
            shape_change(b, &after, k, +1);
            counts = shape_distance(b, &after, NULL) < distance;
        }
        if (counts)
            useful += b->unseen[k];
    }
    return useful;
}

static void bot_init(bot *b, const mj_bot_view *v)
{
    b->v = v;
    b->may_win = !v->discarded_wild[v->seat];
    b->wild_meld = false;
    for (int m = 0; m < v->n_melds[v->seat]; m++)
        b->wild_meld |= is_wild(v, v->melds[v->seat][m].tile);
    b->unseen_total = 0;
    for (int k = 0; k < MJ_KINDS; k++) {
        b->unseen[k] = (uint8_t)(v->seen.n[k] < MJ_COPIES ? MJ_COPIES - v->seen.n[k] : 0);
        b->unseen_total += b->unseen[k];
    }
    mj_shanten_memo_init(&b->memo);
}

/* --- discards --- */

typedef struct choice {
    int kind;
    int distance;
    int useful;
} choice;

/* x before y: closer, more useful tiles, fewer unseen copies, the higher kind */
static bool choice_before(const bot *b, const choice *x, const choice *y)
{
    if (x->distance != y->distance)
        return x->distance < y->distance;
    if (x->useful != y->useful)
        return x->useful > y->useful;
    if (b->unseen[x->kind] != b->unseen[y->kind])
        return b->unseen[x->kind] < b->unseen[y->kind];
    return x->kind > y->kind;
}

/* The best discard from `concealed` (14 - 3m tiles) with `melds` melds; its distance and useful
 * tiles in *best. False if the hand is empty. */
static bool best_discard(bot *b, const mj_counts *concealed, int melds, choice *best)
{
    const mj_bot_view *v = b->v;
    bool only_wilds = true;
    for (int k = 0; k < MJ_KINDS; k++)
        if (concealed->n[k] > 0 && !is_wild(v, k))
            only_wilds = false;

    shape whole;
    shape_init(b, &whole, concealed, melds);
    choice list[MJ_KINDS];
    int n = 0, closest = MJ_SHANTEN_NONE + 1;
    for (int k = 0; k < MJ_KINDS; k++) {
        if (concealed->n[k] == 0 || (is_wild(v, k) && !only_wilds))
            continue;
        shape kept = whole;
        shape_change(b, &kept, k, -1);
        list[n] = (choice){k, shape_distance(b, &kept, NULL), 0};
        if (list[n].distance < closest)
            closest = list[n].distance;
        n++;
    }
    if (n == 0)
        return false;
    int chosen = -1;
    for (int i = 0; i < n; i++) {
        if (list[i].distance != closest)
            continue;
        shape kept = whole;
        shape_change(b, &kept, list[i].kind, -1);
        list[i].useful = useful_tiles(b, &kept, closest);
        if (chosen < 0 || choice_before(b, &list[i], &list[chosen]))
            chosen = i;
    }
    *best = list[chosen];
    return true;
}

/* The distance and useful tiles of the concealed tiles as they are (13 - 3m). */
static choice as_is(bot *b, const mj_counts *concealed, int melds)
{
    shape sh;
    shape_init(b, &sh, concealed, melds);
    choice c = {-1, shape_distance(b, &sh, NULL), 0};
    c.useful = useful_tiles(b, &sh, c.distance);
    return c;
}

/* --- kongs --- */

/* A kong now would end the hand drawn for want of a replacement. */
static bool kong_ends_hand(const mj_bot_view *v)
{
    return v->replacements_left == 0 &&
           (v->options.no_replacement == MJ_NO_REPLACEMENT_DRAW || v->live_left == 0);
}

/* Whether a kong that leaves tiles at `after` is worth making from a hand at `now`. */
static bool kong_worth(const mj_bot_view *v, int now, int after)
{
    if (kong_ends_hand(v))
        return now >= 1 && !v->options.gua_da_feng;
    return after <= now || (after == now + 1 && now >= 1);
}

/* The distance of the tiles kept after a kong of `kind` made from the hand (concealed or added). */
static int after_kong(bot *b, mj_action_kind kind, int tile)
{
    const mj_bot_view *v = b->v;
    mj_counts kept = v->own;
    int melds = v->n_melds[v->seat];
    if (kind == MJ_ACT_CONCEALED_KONG) {
        kept.n[tile] = 0;
        melds++;
    } else if (kind == MJ_ACT_KONG) {
        kept.n[tile] = (uint8_t)(kept.n[tile] - 3);
        melds++;
    } else {
        kept.n[tile]--;
    }
    shape sh;
    shape_init(b, &sh, &kept, melds);
    return shape_distance(b, &sh, NULL);
}

/* --- decisions --- */

static bool decide_turn(bot *b, const mj_action *legal, int n, mj_action *out)
{
    const mj_bot_view *v = b->v;
    for (int i = 0; i < n; i++)
        if (legal[i].kind == MJ_ACT_WIN) {
            *out = legal[i];
            return true;
        }
    choice discard;
    if (!best_discard(b, &v->own, v->n_melds[v->seat], &discard)) {
        *out = legal[n - 1]; /* no tile to weigh (cannot happen in a turn): any open action */
        return true;
    }

    int kong = -1, kong_after = MJ_SHANTEN_NONE + 1;
    for (int i = 0; i < n; i++) {
        if (legal[i].kind != MJ_ACT_CONCEALED_KONG && legal[i].kind != MJ_ACT_ADDED_KONG)
            continue;
        int after = after_kong(b, (mj_action_kind)legal[i].kind, legal[i].tile);
        bool gold = legal[i].kind == MJ_ACT_CONCEALED_KONG && is_wild(v, legal[i].tile);
        if (gold && !(kong_ends_hand(v) && v->options.gua_da_feng)) {
            *out = legal[i]; /* 金杠 pays gold_kong_fan from each other seat, more than most wins */
            return true;
        }
        if (kong_worth(v, discard.distance, after) && after < kong_after) {
            kong = i;
            kong_after = after;
        }
    }
    if (kong >= 0) {
        *out = legal[kong];
        return true;
    }
    *out = (mj_action){v->seat, MJ_ACT_DISCARD, (uint8_t)discard.kind};
    return true;
}

static bool decide_claim(bot *b, const mj_action *legal, int n, mj_action *out)
{
    const mj_bot_view *v = b->v;
    int tile = v->last_discard, melds = v->n_melds[v->seat];
    *out = legal[0]; /* pass */
    choice now = as_is(b, &v->own, melds);
    for (int i = 0; i < n; i++)
        if (legal[i].kind == MJ_ACT_KONG && kong_worth(v, now.distance, after_kong(b, MJ_ACT_KONG, tile))) {
            *out = legal[i];
            return true;
        }
    if (!b->may_win)
        return true;
    for (int i = 0; i < n; i++) {
        if (legal[i].kind != MJ_ACT_PUNG)
            continue;
        mj_counts kept = v->own;
        kept.n[tile] = (uint8_t)(kept.n[tile] - 2);
        choice after;
        if (best_discard(b, &kept, melds + 1, &after) &&
            (after.distance < now.distance || (after.distance == now.distance && after.useful > now.useful)))
            *out = legal[i];
    }
    return true;
}

bool mj_bot_decide(const mj_bot_view *view, mj_action *out)
{
    mj_action legal[MJ_MAX_ACTIONS];
    int n = mj_bot_legal_actions(view, legal);
    if (n == 0)
        return false;
    bot b;
    bot_init(&b, view);
    return view->phase == MJ_PHASE_CLAIM ? decide_claim(&b, legal, n, out) : decide_turn(&b, legal, n, out);
}

bool mj_bot_choose(const mj_hand *h, int seat, mj_action *out)
{
    if (seat < 0 || seat >= MJ_SEATS)
        return false;
    mj_bot_view view;
    mj_bot_view_of(h, seat, &view);
    return mj_bot_decide(&view, out);
}

/* --- before the hand --- */

/* The dealt tiles' distance to a scoring win, from the seat's view. */
static int dealt_distance(const mj_hand *dealt, int seat)
{
    mj_bot_view view;
    mj_bot_view_of(dealt, seat, &view);
    mj_shanten_hand hand;
    memset(&hand, 0, sizeof hand);
    for (int k = 0; k < MJ_KINDS; k++) {
        if (is_wild(&view, k))
            hand.wilds += view.own.n[k];
        else
            hand.natural.n[k] = view.own.n[k];
    }
    hand.gua_da_feng = view.options.gua_da_feng;
    return mj_shanten_scoring(NULL, &hand, NULL);
}

bool mj_bot_sits(const mj_options *options, const mj_hand *dealt, int banker)
{
    if (options->must_sit)
        return true;
    return dealt != NULL && dealt_distance(dealt, banker) <= MJ_BOT_SIT_AT;
}

int mj_bot_pulls(const mj_options *options, const mj_hand *dealt, int seat, bool banker_sat)
{
    if (!banker_sat || dealt == NULL || seat == dealt->banker)
        return 0;
    int distance = dealt_distance(dealt, seat);
    if (distance <= MJ_BOT_PULL_AT - 1 && options->max_pulls >= 2)
        return 2;
    return distance <= MJ_BOT_PULL_AT ? 1 : 0;
}
