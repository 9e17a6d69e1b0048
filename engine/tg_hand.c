/*
 * tg_hand — the flow of a hand: deal, natural hands, leads and follows, tricks and stacks,
 * bonuses as tricks complete, and the endings and settlement when the final trick completes.
 */
#include "tg_hand.h"

#include <string.h>

#include "rng.h"

/* Insertion sort of a few tile kinds: hands and actions are kept ascending. */
static void sort_tiles(uint8_t *tiles, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && tiles[j - 1] > tiles[j]; j--) {
            uint8_t t = tiles[j];
            tiles[j] = tiles[j - 1];
            tiles[j - 1] = t;
        }
}

void tg_deal(uint64_t seed, uint8_t deal[TG_SEATS][TG_HAND_TILES])
{
    uint8_t tiles[TG_TILES];
    rng_state rng;
    tg_full_set(tiles);
    rng_seed(&rng, seed);
    rng_shuffle(&rng, tiles, TG_TILES);
    for (int s = 0; s < TG_SEATS; s++) {
        memcpy(deal[s], tiles + s * TG_HAND_TILES, TG_HAND_TILES);
        sort_tiles(deal[s], TG_HAND_TILES);
    }
}

int tg_first_banker(uint64_t seed)
{
    rng_state rng;
    rng_seed(&rng, seed ^ 0x6469636564696365ULL); /* a stream apart from the deal's */
    int roll = (int)rng_below(&rng, 6) + 1 + (int)rng_below(&rng, 6) + 1;
    return (roll - 1) % TG_SEATS; /* count the roll round the table from seat 0 */
}

tg_status tg_check_deal(const uint8_t deal[TG_SEATS][TG_HAND_TILES])
{
    int count[TG_KINDS] = {0};
    for (int s = 0; s < TG_SEATS; s++)
        for (int i = 0; i < TG_HAND_TILES; i++) {
            if (deal[s][i] >= TG_KINDS)
                return TG_ERR_BAD_DEAL;
            count[deal[s][i]]++;
        }
    for (int k = 0; k < TG_KINDS; k++)
        if (count[k] != tg_tile(k)->copies)
            return TG_ERR_BAD_DEAL;
    return TG_OK;
}

/* Four pairs: every civil kind held as a pair, every military tile with its partner of the same total. */
static bool is_four_pairs(const uint8_t count[TG_KINDS])
{
    for (int k = 0; k <= TG_COPPER_HAMMER; k++)
        if (count[k] % 2 != 0)
            return false;
    if (count[TG_SIX_24] || count[TG_THREE_12])
        return false; /* their pair is 至尊, which does not count */
    static const uint8_t PARTNERS[][2] = {
        {TG_NINE_36, TG_NINE_45}, {TG_EIGHT_26, TG_EIGHT_35}, {TG_SEVEN_25, TG_SEVEN_34}, {TG_FIVE_23, TG_FIVE_14}};
    for (int p = 0; p < 4; p++)
        if (count[PARTNERS[p][0]] != count[PARTNERS[p][1]])
            return false;
    return true;
}

uint8_t tg_natural_hand(const tg_options *o, const uint8_t tiles[TG_HAND_TILES])
{
    uint8_t count[TG_KINDS] = {0};
    int red = 0, civil = 0;
    for (int i = 0; i < TG_HAND_TILES; i++) {
        count[tiles[i]]++;
        red += tg_tile(tiles[i])->red_pips;
        civil += tg_tile_suit(tiles[i]) == TG_CIVIL;
    }
    int military = TG_HAND_TILES - civil;
    bool eight = red == 0 || (o->eight_civil && civil == 8) || (o->eight_military && military == 8) ||
                 (o->four_pairs && is_four_pairs(count));
    bool seven = red == 1 || (o->seven_civil && civil == 7) || (o->seven_military && military == 7);
    return eight ? TG_END_EIGHT : seven ? TG_END_SEVEN : 0;
}

static void finish_hand(tg_state *st, int winner, uint8_t endings, int qin_captured)
{
    tg_result *r = &st->result;
    tg_outcome outcome = {.banker = st->banker,
                          .multiplier = st->multiplier,
                          .winner = (uint8_t)winner,
                          .endings = endings,
                          .qin_captured = (int8_t)qin_captured};
    memcpy(outcome.stacks, st->stacks, sizeof outcome.stacks);
    r->winner = (uint8_t)winner;
    memcpy(r->stacks, st->stacks, sizeof r->stacks);
    r->endings = endings;
    r->qin_captured = (int8_t)qin_captured;
    tg_settle(&st->options, &outcome, &r->settlement);
    for (int s = 0; s < TG_SEATS; s++)
        r->net[s] = st->bonus_net[s] + r->settlement.net[s];
    tg_next_bank(&st->options, st->banker, st->multiplier, winner, &r->next_banker, &r->next_multiplier);
    st->phase = TG_PHASE_OVER;
}

tg_status tg_start(tg_state *st, const tg_options *options, int banker, uint32_t multiplier,
                   const uint8_t deal[TG_SEATS][TG_HAND_TILES])
{
    if (banker < 0 || banker >= TG_SEATS)
        return TG_ERR_BAD_BANKER;
    if (multiplier < 2)
        return TG_ERR_BAD_MULTIPLIER;
    tg_status status = tg_check_deal(deal);
    if (status != TG_OK)
        return status;
    memset(st, 0, sizeof *st);
    st->options = *options;
    st->banker = (uint8_t)banker;
    st->multiplier = multiplier;
    st->natural_seat = -1;
    st->to_act = (uint8_t)banker;
    st->phase = TG_PHASE_PLAY;
    for (int s = 0; s < TG_SEATS; s++) {
        memcpy(st->deal[s], deal[s], TG_HAND_TILES);
        sort_tiles(st->deal[s], TG_HAND_TILES); /* whatever order the deal came in */
        for (int i = 0; i < TG_HAND_TILES; i++)
            st->hand[s][deal[s][i]]++;
        st->held[s] = TG_HAND_TILES;
    }
    /* Natural hands are looked for from the banker on, in play order; the first one wins. */
    for (int i = 0; i < TG_SEATS; i++) {
        int seat = (banker + i) % TG_SEATS;
        uint8_t natural = tg_natural_hand(options, st->deal[seat]);
        if (natural) {
            st->natural_seat = (int8_t)seat;
            memset(st->stacks, 0, sizeof st->stacks);
            st->stacks[seat] = 8;
            finish_hand(st, seat, natural | TG_END_NATURAL, -1);
            break;
        }
    }
    return TG_OK;
}

tg_action tg_action_make(int seat, tg_action_kind kind, const uint8_t *tiles, int n)
{
    tg_action a = {.seat = (uint8_t)seat, .kind = (uint8_t)kind, .n = (uint8_t)n, .tiles = {0, 0, 0, 0}};
    for (int i = 0; i < n && i < 4; i++)
        a.tiles[i] = tiles[i];
    sort_tiles(a.tiles, n < 4 ? n : 4);
    return a;
}

const tg_trick *tg_open_trick(const tg_state *st)
{
    if (st->phase != TG_PHASE_PLAY || st->n_tricks == 0)
        return NULL;
    const tg_trick *t = &st->tricks[st->n_tricks - 1];
    return t->count < TG_SEATS ? t : NULL;
}

int tg_held_tiles(const tg_state *st, int seat, uint8_t out[TG_HAND_TILES])
{
    int n = 0;
    for (int k = 0; k < TG_KINDS; k++)
        for (int c = 0; c < st->hand[seat][k]; c++)
            out[n++] = (uint8_t)k;
    return n;
}

/* Whether a follower's combination may beat the trick's best, and if not, why. */
static tg_status check_beats(const tg_trick *t, const tg_combo *c)
{
    if (c->type == TG_COMBO_NONE)
        return TG_ERR_NOT_A_COMBINATION;
    if (c->type == TG_SUPREME)
        return TG_ERR_SUPREME_ONLY_LED;
    if (t->guard == TG_GUARD_CLOSED)
        return TG_ERR_NOTHING_BEATS;
    if (t->guard == TG_GUARD_WEN_ZUN)
        return c->type == TG_PAIR_CIVIL && c->tiles[0] == TG_LONG_LEG_SEVEN ? TG_OK
                                                                             : TG_ERR_ONLY_PAIR_OF_SEVENS_BEATS;
    if (c->type != t->best.type)
        return TG_ERR_WRONG_TYPE;
    if (c->rank <= t->best.rank)
        return TG_ERR_DOES_NOT_BEAT;
    return TG_OK;
}

tg_status tg_check_for_seat(const tg_options *options, const uint8_t hand[TG_KINDS], int stacks,
                            const tg_trick *open, const tg_action *a)
{
    (void)options;
    if (a->n < 1 || a->n > 4)
        return TG_ERR_WRONG_COUNT;
    if (a->kind != TG_PLAY && a->kind != TG_DISCARD)
        return TG_ERR_NOT_A_COMBINATION;
    uint8_t need[TG_KINDS] = {0};
    for (int i = 0; i < a->n; i++) {
        if (a->tiles[i] >= TG_KINDS)
            return TG_ERR_BAD_TILE;
        if (++need[a->tiles[i]] > hand[a->tiles[i]])
            return TG_ERR_TILE_NOT_IN_HAND;
    }
    if (open == NULL) {
        if (a->kind == TG_DISCARD)
            return TG_ERR_LEADER_MUST_PLAY;
        return tg_classify(a->tiles, a->n).type == TG_COMBO_NONE ? TG_ERR_NOT_A_COMBINATION : TG_OK;
    }
    if (a->n != open->n)
        return TG_ERR_WRONG_COUNT;
    if (a->kind == TG_DISCARD)
        return TG_OK;
    if (open->final && tg_barred_from_final(stacks, open->n))
        return TG_ERR_BARRED_FROM_FINAL;
    tg_combo c = tg_classify(a->tiles, a->n);
    return check_beats(open, &c);
}

tg_status tg_check_action(const tg_state *st, const tg_action *a)
{
    if (st->phase != TG_PHASE_PLAY)
        return TG_ERR_HAND_OVER;
    if (a->seat >= TG_SEATS)
        return TG_ERR_BAD_SEAT;
    if (a->seat != st->to_act)
        return TG_ERR_NOT_YOUR_TURN;
    return tg_check_for_seat(&st->options, st->hand[a->seat], st->stacks[a->seat], tg_open_trick(st), a);
}

/* Writes an action whose tiles are already ascending straight into the list (no sort, no copy). */
static void put_action(tg_action *out, int seat, tg_action_kind kind, const uint8_t *tiles, int n)
{
    out->seat = (uint8_t)seat;
    out->kind = (uint8_t)kind;
    out->n = (uint8_t)n;
    for (int i = 0; i < 4; i++)
        out->tiles[i] = i < n ? tiles[i] : 0;
}

/* Lists every distinct multiset of n tiles from the hand as a discard. */
static int list_discards(const uint8_t hand[TG_KINDS], int seat, int n, tg_action *out, int count, int cap)
{
    uint8_t pick[4];
    int depth = 0, kind = 0;
    uint8_t used[TG_KINDS] = {0};
    /* Iterative depth-first walk over kinds in ascending order, so each multiset appears once. */
    for (;;) {
        if (depth == n) {
            if (count < cap)
                put_action(&out[count], seat, TG_DISCARD, pick, n);
            count++;
            kind = pick[--depth];
            used[kind]--;
            kind++;
            continue;
        }
        while (kind < TG_KINDS && used[kind] >= hand[kind])
            kind++;
        if (kind < TG_KINDS) {
            pick[depth++] = (uint8_t)kind;
            used[kind]++;
            continue; /* the next pick may repeat this kind */
        }
        if (depth == 0)
            break;
        kind = pick[--depth];
        used[kind]--;
        kind++;
    }
    return count;
}

static bool holds(const uint8_t hand[TG_KINDS], const tg_combo *c)
{
    uint8_t need[TG_KINDS] = {0};
    for (int i = 0; i < c->n; i++)
        if (++need[c->tiles[i]] > hand[c->tiles[i]])
            return false;
    return true;
}

int tg_legal_for_seat(const tg_options *options, const uint8_t hand[TG_KINDS], int seat, int stacks,
                      const tg_trick *open, tg_action *out, int cap)
{
    (void)options;
    int count = 0;
    int rows = tg_combo_count();
    const tg_combo *table = tg_combo_at(0); /* one array: no call per row */
    if (open == NULL) {
        for (int r = 0; r < rows; r++) {
            const tg_combo *c = &table[r];
            if (hand[c->tiles[0]] && holds(hand, c)) { /* most rows fail on their first tile */
                if (count < cap)
                    put_action(&out[count], seat, TG_PLAY, c->tiles, c->n);
                count++;
            }
        }
        return count < cap ? count : cap;
    }
    /* Only the best's type can beat it (a 文尊 is a civil pair too); a closed trick nothing. */
    if (open->guard != TG_GUARD_CLOSED && !(open->final && tg_barred_from_final(stacks, open->n))) {
        for (int r = 0; r < rows; r++) {
            const tg_combo *c = &table[r];
            if (c->type == open->best.type && c->n == open->n && holds(hand, c) && check_beats(open, c) == TG_OK) {
                if (count < cap)
                    put_action(&out[count], seat, TG_PLAY, c->tiles, c->n);
                count++;
            }
        }
    }
    count = list_discards(hand, seat, open->n, out, count, cap);
    return count < cap ? count : cap;
}

int tg_legal_actions(const tg_state *st, int seat, tg_action *out, int cap)
{
    if (st->phase != TG_PHASE_PLAY || seat < 0 || seat >= TG_SEATS || seat != st->to_act)
        return 0;
    return tg_legal_for_seat(&st->options, st->hand[seat], seat, st->stacks[seat], tg_open_trick(st), out, cap);
}

/* × m when the banker pays or receives. */
static int64_t with_banker(const tg_state *st, int payer, int collector, int64_t units)
{
    return payer == st->banker || collector == st->banker ? units * st->multiplier : units;
}

static void collect_bonus(tg_state *st, tg_bonus_kind kind, int trick_index, int collector, int units)
{
    const tg_trick *t = &st->tricks[trick_index];
    for (int i = 0; i < TG_SEATS; i++) {
        int payer = (t->leader + i) % TG_SEATS;
        if (payer == collector || st->n_bonuses >= TG_MAX_BONUSES)
            continue;
        tg_bonus *b = &st->bonuses[st->n_bonuses++];
        b->kind = (uint8_t)kind;
        b->trick = (uint8_t)trick_index;
        b->from = (uint8_t)payer;
        b->to = (uint8_t)collector;
        b->units = with_banker(st, payer, collector, units);
        st->bonus_net[payer] -= b->units;
        st->bonus_net[collector] += b->units;
    }
}

static bool led_wen_zun(const tg_state *st, const tg_trick *t)
{
    if (!st->options.wen_zun)
        return false;
    tg_combo lead = tg_classify(t->actions[0].tiles, t->actions[0].n);
    return tg_combo_is_wen_zun_pair(&lead);
}

/* §5: bonuses of a trick that is not the final one; collectors in play order from the leader. */
static void pay_bonuses(tg_state *st, int trick_index)
{
    const tg_trick *t = &st->tricks[trick_index];
    tg_combo lead = tg_classify(t->actions[0].tiles, t->actions[0].n);
    if (lead.type == TG_SUPREME || (led_wen_zun(st, t) && !t->wen_zun_captured))
        collect_bonus(st, TG_BONUS_HE_ZUN, trick_index, t->leader, 2);
    else if (led_wen_zun(st, t) && t->wen_zun_captured)
        collect_bonus(st, TG_BONUS_QIN_ZUN, trick_index, t->winner, 2);
    if (st->options.quartet_bonus == TG_QUARTET_BONUS_APPEARANCE) {
        for (int i = 0; i < TG_SEATS; i++) {
            const tg_action *a = &t->actions[i];
            if (a->kind == TG_PLAY && tg_classify(a->tiles, a->n).type == TG_QUARTET)
                collect_bonus(st, TG_BONUS_QUARTET, trick_index, a->seat, 4);
        }
    } else if (t->best.type == TG_QUARTET) {
        collect_bonus(st, TG_BONUS_QUARTET, trick_index, t->winner, 4);
    }
}

static bool is_single(const tg_combo *c, int kind) { return c->n == 1 && c->tiles[0] == kind; }

/* §4: the endings of the final trick, then the settlement. */
static void finish_final_trick(tg_state *st, const tg_trick *t)
{
    int w = t->winner;
    tg_combo lead = tg_classify(t->actions[0].tiles, t->actions[0].n);
    const tg_combo *best = &t->best;
    bool wen = st->options.wen_zun;
    bool qin = w != t->leader && ((is_single(&lead, TG_THREE_12) && is_single(best, TG_SIX_24)) ||
                                  (wen && is_single(&lead, TG_COPPER_HAMMER) && is_single(best, TG_LONG_LEG_SEVEN)));
    if (qin) {
        finish_hand(st, w, TG_END_QIN, t->leader);
        return;
    }
    uint8_t endings = 0;
    if (st->stacks[w] == 8) {
        bool outranked = false;
        if (t->n == 1) {
            int mine = best->tiles[0];
            for (int i = 0; i < TG_SEATS; i++) {
                int other = t->actions[i].tiles[0];
                if (t->actions[i].seat != w && tg_tile_suit(other) == tg_tile_suit(mine) &&
                    tg_tile_strength(other) > tg_tile_strength(mine))
                    outranked = true;
            }
        }
        endings |= outranked ? TG_END_SEVEN : TG_END_EIGHT;
    }
    if (is_single(best, TG_THREE_12) || (wen && is_single(best, TG_COPPER_HAMMER)))
        endings |= TG_END_YAO;
    if (best->type == TG_SUPREME || (led_wen_zun(st, t) && !t->wen_zun_captured))
        endings |= TG_END_ZUN;
    if (best->type == TG_QUARTET)
        endings |= TG_END_QUARTET;
    finish_hand(st, w, endings, -1);
}

tg_status tg_apply_action(tg_state *st, const tg_action *in)
{
    tg_status status = tg_check_action(st, in);
    if (status != TG_OK)
        return status;
    tg_action a = tg_action_make(in->seat, (tg_action_kind)in->kind, in->tiles, in->n);
    int seat = a.seat;
    for (int i = 0; i < a.n; i++)
        st->hand[seat][a.tiles[i]]--;
    tg_trick *t = (tg_trick *)tg_open_trick(st);
    if (t == NULL) {
        t = &st->tricks[st->n_tricks++];
        memset(t, 0, sizeof *t);
        t->leader = (uint8_t)seat;
        t->n = a.n;
        t->winner = (uint8_t)seat;
        t->final = st->held[seat] == a.n;
        t->best = tg_classify(a.tiles, a.n);
        if (t->best.type == TG_SUPREME)
            t->guard = TG_GUARD_CLOSED;
        else if (st->options.wen_zun && tg_combo_is_wen_zun_pair(&t->best))
            t->guard = TG_GUARD_WEN_ZUN;
    } else if (a.kind == TG_PLAY) {
        t->best = tg_classify(a.tiles, a.n);
        t->winner = (uint8_t)seat;
        if (t->guard == TG_GUARD_WEN_ZUN) {
            t->guard = TG_GUARD_CLOSED; /* 孖高腳 captured the 文尊; nothing beats it now */
            t->wen_zun_captured = true;
        }
    }
    st->held[seat] = (uint8_t)(st->held[seat] - a.n);
    t->actions[t->count++] = a;
    st->n_actions++;
    st->to_act = (uint8_t)((seat + 1) % TG_SEATS);
    if (t->count < TG_SEATS)
        return TG_OK;

    st->stacks[t->winner] = (uint8_t)(st->stacks[t->winner] + t->n);
    st->to_act = t->winner;
    if (t->final)
        finish_final_trick(st, t);
    else
        pay_bonuses(st, st->n_tricks - 1);
    return TG_OK;
}
