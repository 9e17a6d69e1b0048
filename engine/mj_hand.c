/*
 * mj_hand — the flow of a Tianjin hand: the deal, draws and replacements, discards and claims,
 * kongs, the self-drawn win, 铲 and wild discards, and the settlement at the end.
 */
#include "mj_hand.h"

#include <string.h>

#include "rng.h"

static const char *const ACTION_NAMES[MJ_ACT_KINDS] = {
    [MJ_ACT_DISCARD] = "discard",
    [MJ_ACT_WIN] = "win",
    [MJ_ACT_CONCEALED_KONG] = "concealed_kong",
    [MJ_ACT_ADDED_KONG] = "added_kong",
    [MJ_ACT_PUNG] = "pung",
    [MJ_ACT_KONG] = "kong",
    [MJ_ACT_PASS] = "pass",
};

const char *mj_action_name(mj_action_kind kind) { return (unsigned)kind < MJ_ACT_KINDS ? ACTION_NAMES[kind] : ""; }

/* chan_tile before the banker's first discard; -1 once 铲 can no longer happen. */
enum { CHAN_NOT_YET = -2, CHAN_OVER = -1 };

static bool is_wild(const mj_hand *h, int kind) { return mj_kind_set_has(h->wilds, kind); }

static mj_status start_check(const mj_options *options, int banker, bool sat, const uint8_t pulls[MJ_SEATS])
{
    if (!mj_options_valid(options) || banker < 0 || banker >= MJ_SEATS || (options->must_sit && !sat))
        return MJ_ERR_BAD_START;
    for (int s = 0; s < MJ_SEATS; s++)
        if (pulls[s] > options->max_pulls || (pulls[s] > 0 && (s == banker || !sat)))
            return MJ_ERR_BAD_START;
    return MJ_OK;
}

mj_status mj_hand_start(mj_hand *h, const mj_options *options, uint64_t seed, int banker, bool sat,
                        const uint8_t pulls[MJ_SEATS])
{
    rng_state rng;
    rng_seed(&rng, seed);
    uint8_t wall[MJ_TILES];
    for (int i = 0; i < MJ_TILES; i++)
        wall[i] = (uint8_t)(i / MJ_COPIES);
    rng_shuffle(&rng, wall, MJ_TILES);
    int dice = 2 + (int)rng_below(&rng, 6) + (int)rng_below(&rng, 6);
    return mj_hand_deal(h, options, wall, dice, banker, sat, pulls);
}

static bool is_whole_set(const uint8_t wall[MJ_TILES])
{
    int count[MJ_KINDS] = {0};
    for (int i = 0; i < MJ_TILES; i++) {
        if (wall[i] >= MJ_KINDS)
            return false;
        count[wall[i]]++;
    }
    for (int k = 0; k < MJ_KINDS; k++)
        if (count[k] != MJ_COPIES)
            return false;
    return true;
}

mj_status mj_hand_deal(mj_hand *h, const mj_options *options, const uint8_t wall[MJ_TILES], int dice, int banker,
                       bool sat, const uint8_t pulls[MJ_SEATS])
{
    if (!is_whole_set(wall) || dice < 2 || dice > 12)
        return MJ_ERR_BAD_INPUT;
    mj_status status = start_check(options, banker, sat, pulls);
    if (status != MJ_OK)
        return status;
    memset(h, 0, sizeof *h);
    h->options = *options;
    h->banker = (uint8_t)banker;
    h->sat = sat;
    memcpy(h->pulls, pulls, MJ_SEATS);

    memcpy(h->wall, wall, MJ_TILES);
    h->indicator_at = (uint8_t)(MJ_TILES - 2 * dice);
    h->indicator = h->wall[h->indicator_at];
    h->wilds = mj_wild_kinds(h->indicator, options->gua_da_feng);
    h->back = MJ_TILES;

    for (int round = 0; round < MJ_HAND_TILES; round++)
        for (int i = 0; i < MJ_SEATS; i++)
            h->hand[(banker + i) % MJ_SEATS].n[h->wall[h->front++]]++;
    int fourteenth = h->wall[h->front++];
    h->hand[banker].n[fourteenth]++;
    h->live_end = h->indicator_at;

    h->phase = MJ_PHASE_TURN;
    h->turn = (uint8_t)banker;
    h->drawn = (int8_t)fourteenth; /* for 天胡 the winning tile is the 14th dealt */
    h->first_draw = true;
    h->chan_tile = CHAN_NOT_YET;
    h->winner = -1;
    return MJ_OK;
}

/* --- the end --- */

void mj_hand_outcome(const mj_hand *h, mj_outcome *o)
{
    memset(o, 0, sizeof *o);
    o->banker = h->banker;
    o->sat = h->sat;
    memcpy(o->pulls, h->pulls, MJ_SEATS);
    o->winner = h->winner;
    o->fan = h->winner >= 0 ? h->score.fan : 0;
    o->n_kongs = h->n_kongs;
    memcpy(o->kongs, h->kongs, sizeof o->kongs);
    o->chan = h->chan;
    o->n_wild_discards = h->n_wild_discards;
    memcpy(o->wild_discards, h->wild_discards, sizeof o->wild_discards);
}

static void finish(mj_hand *h)
{
    h->phase = MJ_PHASE_OVER;
    mj_outcome o;
    mj_hand_outcome(h, &o);
    mj_settle(&h->options, &o, &h->settlement);
}

/* --- draws --- */

static void take_drawn(mj_hand *h, int seat, int tile, bool replacement)
{
    h->hand[seat].n[tile]++;
    h->phase = MJ_PHASE_TURN;
    h->turn = (uint8_t)seat;
    h->drawn = (int8_t)tile;
    h->on_replacement = replacement;
}

/* The next seat draws from the live wall, or the hand is drawn (荒牌) when it is exhausted. */
static void draw_live(mj_hand *h, int seat)
{
    if (h->front >= h->live_end) {
        finish(h);
        return;
    }
    take_drawn(h, seat, h->wall[h->front++], false);
    h->draws[seat]++;
    /* 地胡: a non-banker's first draw, before any meld of its own */
    h->first_draw = seat != h->banker && h->draws[seat] == 1 && h->n_melds[seat] == 0;
}

/* A kong's replacement from behind the indicator; when none is left, §3's option decides. */
static void draw_replacement(mj_hand *h, int seat)
{
    h->first_draw = false;
    if (h->back > h->indicator_at + 1) {
        take_drawn(h, seat, h->wall[--h->back], true);
    } else if (h->options.no_replacement == MJ_NO_REPLACEMENT_SKIP_INDICATOR && h->live_end > h->front) {
        take_drawn(h, seat, h->wall[--h->live_end], true);
    } else {
        finish(h);
    }
}

/* --- actions in a turn --- */

static void note_wild_discard(mj_hand *h, int seat)
{
    for (int i = 0; i < h->n_wild_discards; i++)
        if (h->wild_discards[i] == seat)
            return;
    h->wild_discards[h->n_wild_discards++] = (uint8_t)seat;
}

/* 铲: the banker's first discard followed at once by the same tile from each of the three others. */
static void follow_chan(mj_hand *h, int seat, int tile)
{
    if (h->chan_tile == CHAN_NOT_YET) {
        h->chan_tile = seat == h->banker ? (int8_t)tile : CHAN_OVER;
        h->chan_follows = 0;
        return;
    }
    if (h->chan_tile < 0)
        return;
    if (seat == (h->banker + h->chan_follows + 1) % MJ_SEATS && tile == h->chan_tile) {
        if (++h->chan_follows == MJ_SEATS - 1) {
            h->chan = h->options.chan;
            h->chan_tile = CHAN_OVER;
        }
        return;
    }
    h->chan_tile = CHAN_OVER;
}

/* The one seat (if any) that can pung or kong this discard: two naturals of it in hand. */
static int claimer_of(const mj_hand *h, int discarder, int tile)
{
    if (is_wild(h, tile))
        return -1;
    for (int i = 1; i < MJ_SEATS; i++) {
        int seat = (discarder + i) % MJ_SEATS;
        if (h->hand[seat].n[tile] >= 2)
            return seat;
    }
    return -1;
}

static mj_status discard(mj_hand *h, int seat, int tile)
{
    if (tile >= MJ_KINDS || h->hand[seat].n[tile] == 0)
        return MJ_ERR_TILE_NOT_IN_HAND;
    h->hand[seat].n[tile]--;
    if (h->n_discards[seat] < MJ_MAX_DISCARDS)
        h->discards[seat][h->n_discards[seat]++] = (uint8_t)tile;
    h->last_discard = (uint8_t)tile;
    h->drawn = -1;
    h->first_draw = false;
    if (is_wild(h, tile))
        note_wild_discard(h, seat);
    follow_chan(h, seat, tile);
    int claimer = claimer_of(h, seat, tile);
    if (claimer >= 0) {
        h->phase = MJ_PHASE_CLAIM;
        h->claimer = (uint8_t)claimer;
        return MJ_OK;
    }
    if (h->windows) {
        h->phase = MJ_PHASE_WINDOW; /* the table's window decides when the next seat draws */
        return MJ_OK;
    }
    draw_live(h, (seat + 1) % MJ_SEATS);
    return MJ_OK;
}

static bool discarded_wild(const mj_hand *h, int seat)
{
    for (int i = 0; i < h->n_wild_discards; i++)
        if (h->wild_discards[i] == seat)
            return true;
    return false;
}

void mj_hand_winning_hand(const mj_hand *h, int seat, mj_winning_hand *w)
{
    memset(w, 0, sizeof *w);
    w->concealed = h->hand[seat];
    if (h->drawn >= 0 && w->concealed.n[h->drawn] > 0)
        w->concealed.n[h->drawn]--;
    memcpy(w->melds, h->melds[seat], sizeof w->melds);
    w->n_melds = h->n_melds[seat];
    w->win_tile = (uint8_t)(h->drawn >= 0 ? h->drawn : 0);
    w->indicator = h->indicator;
    w->kong_replacement = h->on_replacement;
    w->first_draw = h->first_draw;
    w->dealer = seat == h->banker;
}

/* The order of mj_hand_win_check: the tiles first, so a seat barred by its wild discard hears of
 * it only when it holds a win. */
static mj_status win_check(const mj_hand *h, int seat, mj_score *score)
{
    if (h->drawn < 0)
        return MJ_ERR_NOT_NOW;
    mj_winning_hand w;
    mj_hand_winning_hand(h, seat, &w);
    mj_status status = mj_score_hand(&h->options, &w, score);
    if (status == MJ_ERR_UNDER_MINIMUM)
        return MJ_ERR_UNDER_MINIMUM;
    if (status != MJ_OK)
        return MJ_ERR_NO_WIN; /* not four sets and a pair (a dealt hand is never impossible) */
    return discarded_wild(h, seat) ? MJ_ERR_WILD_DISCARDED : MJ_OK;
}

mj_status mj_hand_win_check(const mj_hand *h, int seat, mj_score *out)
{
    if (h->phase != MJ_PHASE_TURN || seat != h->turn)
        return h->phase == MJ_PHASE_OVER ? MJ_ERR_HAND_OVER : MJ_ERR_NOT_YOUR_TURN;
    mj_score score;
    mj_status status = win_check(h, seat, &score);
    if (status == MJ_OK && out != NULL)
        *out = score;
    return status;
}

static void add_kong(mj_hand *h, int seat, mj_kong_kind kind)
{
    if (h->n_kongs < MJ_MAX_KONGS)
        h->kongs[h->n_kongs++] = (mj_kong_made){(uint8_t)seat, (uint8_t)kind};
}

static mj_status concealed_kong_check(const mj_hand *h, int seat, int tile)
{
    if (h->drawn < 0)
        return MJ_ERR_NOT_NOW;
    if (tile >= MJ_KINDS || h->hand[seat].n[tile] < 4 || h->n_melds[seat] >= MJ_MAX_MELDS ||
        (is_wild(h, tile) && h->options.gold_kong_fan == 0))
        return MJ_ERR_NO_SUCH_KONG;
    return MJ_OK;
}

static int pung_of(const mj_hand *h, int seat, int tile)
{
    for (int i = 0; i < h->n_melds[seat]; i++)
        if (h->melds[seat][i].kind == MJ_MELD_PUNG && h->melds[seat][i].tile == tile)
            return i;
    return -1;
}

static mj_status added_kong_check(const mj_hand *h, int seat, int tile)
{
    if (h->drawn < 0)
        return MJ_ERR_NOT_NOW;
    if (tile >= MJ_KINDS || h->hand[seat].n[tile] == 0 || pung_of(h, seat, tile) < 0)
        return MJ_ERR_NO_SUCH_KONG;
    return MJ_OK;
}

static mj_status act_in_turn(mj_hand *h, const mj_action *a)
{
    mj_status status;
    mj_score score;
    switch (a->kind) {
    case MJ_ACT_DISCARD:
        return discard(h, a->seat, a->tile);
    case MJ_ACT_WIN:
        if ((status = win_check(h, a->seat, &score)) != MJ_OK)
            return status;
        h->winner = (int8_t)a->seat;
        h->score = score;
        finish(h);
        return MJ_OK;
    case MJ_ACT_CONCEALED_KONG:
        if ((status = concealed_kong_check(h, a->seat, a->tile)) != MJ_OK)
            return status;
        h->hand[a->seat].n[a->tile] = 0;
        h->melds[a->seat][h->n_melds[a->seat]++] = (mj_meld){MJ_MELD_CONCEALED_KONG, a->tile};
        add_kong(h, a->seat, is_wild(h, a->tile) ? MJ_KONG_GOLD : MJ_KONG_CONCEALED);
        draw_replacement(h, a->seat);
        return MJ_OK;
    case MJ_ACT_ADDED_KONG:
        if ((status = added_kong_check(h, a->seat, a->tile)) != MJ_OK)
            return status;
        h->hand[a->seat].n[a->tile]--;
        h->melds[a->seat][pung_of(h, a->seat, a->tile)].kind = MJ_MELD_KONG;
        add_kong(h, a->seat, MJ_KONG_EXPOSED);
        draw_replacement(h, a->seat);
        return MJ_OK;
    default:
        return MJ_ERR_NOT_NOW;
    }
}

/* --- a claim --- */

/* The claimed discard leaves the discarder's row; 铲 is broken by any claim. */
static void take_discard(mj_hand *h)
{
    if (h->n_discards[h->turn] > 0)
        h->n_discards[h->turn]--;
    h->chan_tile = CHAN_OVER;
}

static mj_status act_in_claim(mj_hand *h, const mj_action *a)
{
    int seat = a->seat, tile = h->last_discard;
    switch (a->kind) {
    case MJ_ACT_PASS:
        draw_live(h, (h->turn + 1) % MJ_SEATS);
        return MJ_OK;
    case MJ_ACT_PUNG:
        if (h->hand[seat].n[tile] < 2 || h->n_melds[seat] >= MJ_MAX_MELDS)
            return MJ_ERR_CANNOT_CLAIM;
        h->hand[seat].n[tile] = (uint8_t)(h->hand[seat].n[tile] - 2);
        h->melds[seat][h->n_melds[seat]++] = (mj_meld){MJ_MELD_PUNG, (uint8_t)tile};
        take_discard(h);
        h->phase = MJ_PHASE_TURN;
        h->turn = (uint8_t)seat;
        h->drawn = -1;
        h->on_replacement = false;
        h->first_draw = false;
        return MJ_OK;
    case MJ_ACT_KONG:
        if (h->hand[seat].n[tile] < 3 || h->n_melds[seat] >= MJ_MAX_MELDS)
            return MJ_ERR_CANNOT_CLAIM;
        h->hand[seat].n[tile] = (uint8_t)(h->hand[seat].n[tile] - 3);
        h->melds[seat][h->n_melds[seat]++] = (mj_meld){MJ_MELD_KONG, (uint8_t)tile};
        take_discard(h);
        add_kong(h, seat, MJ_KONG_EXPOSED);
        draw_replacement(h, seat);
        return MJ_OK;
    default:
        return MJ_ERR_NOT_NOW;
    }
}

mj_status mj_hand_act(mj_hand *h, const mj_action *a)
{
    if (h->phase == MJ_PHASE_OVER)
        return MJ_ERR_HAND_OVER;
    if (a->seat >= MJ_SEATS || a->seat != mj_hand_deciding(h))
        return MJ_ERR_NOT_YOUR_TURN;
    return h->phase == MJ_PHASE_CLAIM ? act_in_claim(h, a) : act_in_turn(h, a);
}

mj_status mj_hand_close_window(mj_hand *h)
{
    if (h->phase != MJ_PHASE_CLAIM && h->phase != MJ_PHASE_WINDOW)
        return MJ_ERR_NOT_NOW;
    draw_live(h, (h->turn + 1) % MJ_SEATS);
    return MJ_OK;
}

int mj_hand_deciding(const mj_hand *h)
{
    if (h->phase == MJ_PHASE_OVER || h->phase == MJ_PHASE_WINDOW)
        return -1;
    return h->phase == MJ_PHASE_CLAIM ? h->claimer : h->turn;
}

int mj_hand_legal_actions(const mj_hand *h, mj_action out[MJ_MAX_ACTIONS])
{
    int n = 0, seat = mj_hand_deciding(h);
    if (seat < 0)
        return 0;
    if (h->phase == MJ_PHASE_CLAIM) {
        int tile = h->last_discard;
        out[n++] = (mj_action){(uint8_t)seat, MJ_ACT_PASS, (uint8_t)tile};
        if (h->hand[seat].n[tile] >= 2)
            out[n++] = (mj_action){(uint8_t)seat, MJ_ACT_PUNG, (uint8_t)tile};
        if (h->hand[seat].n[tile] >= 3)
            out[n++] = (mj_action){(uint8_t)seat, MJ_ACT_KONG, (uint8_t)tile};
        return n;
    }
    mj_score score;
    if (win_check(h, seat, &score) == MJ_OK)
        out[n++] = (mj_action){(uint8_t)seat, MJ_ACT_WIN, (uint8_t)h->drawn};
    for (int k = 0; k < MJ_KINDS && n < MJ_MAX_ACTIONS; k++) {
        if (concealed_kong_check(h, seat, k) == MJ_OK)
            out[n++] = (mj_action){(uint8_t)seat, MJ_ACT_CONCEALED_KONG, (uint8_t)k};
        if (n < MJ_MAX_ACTIONS && added_kong_check(h, seat, k) == MJ_OK)
            out[n++] = (mj_action){(uint8_t)seat, MJ_ACT_ADDED_KONG, (uint8_t)k};
    }
    for (int k = 0; k < MJ_KINDS && n < MJ_MAX_ACTIONS; k++)
        if (h->hand[seat].n[k] > 0)
            out[n++] = (mj_action){(uint8_t)seat, MJ_ACT_DISCARD, (uint8_t)k};
    return n;
}
