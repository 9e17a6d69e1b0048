/*
 * Unit tests of mj_hand, the flow of a Tianjin hand (rules/tianjin-mahjong.md §1-§5): the deal and
 * the indicator from a seed, draws, discards, claims (pung and exposed kong only, one claimer, no
 * wild), kongs with replacements from behind the indicator, the self-drawn win (天胡, 地胡, 杠开),
 * wild discards, 铲, the drawn hand, and random hands played to the end keeping every tile and a
 * zero-sum settlement. Scenario tests set the dealt tiles by hand: a hand is a plain value.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "mj_hand.h"
#include "mj_test_util.h"

static const uint8_t NO_PULLS[MJ_SEATS] = {0, 0, 0, 0};

static mj_hand start(uint64_t seed, int banker)
{
    mj_options o = mj_options_default();
    mj_hand h;
    ck_assert_int_eq(mj_hand_start(&h, &o, seed, banker, false, NO_PULLS), MJ_OK);
    return h;
}

static int tiles_in(const mj_counts *c) { return mj_counts_total(c); }

/* Every one of the 136 tiles is somewhere: a hand, a meld, a discard row, the wall or the indicator. */
static void assert_tiles_kept(const mj_hand *h)
{
    int count[MJ_KINDS] = {0};
    for (int s = 0; s < MJ_SEATS; s++) {
        for (int k = 0; k < MJ_KINDS; k++)
            count[k] += h->hand[s].n[k];
        for (int m = 0; m < h->n_melds[s]; m++)
            count[h->melds[s][m].tile] += mj_meld_size(&h->melds[s][m]);
        for (int d = 0; d < h->n_discards[s]; d++)
            count[h->discards[s][d]]++;
    }
    for (int i = h->front; i < h->live_end; i++)
        count[h->wall[i]]++;
    for (int i = h->indicator_at; i < h->back; i++)
        count[h->wall[i]]++;
    /* claimed discards left their row but are in the claimer's meld: each kind is four exactly */
    for (int k = 0; k < MJ_KINDS; k++)
        ck_assert_msg(count[k] == 4, "%s is counted %d times", mj_kind_name(k), count[k]);
}

static void act_ok(mj_hand *h, int seat, mj_action_kind kind, const char *tile)
{
    mj_action a = {(uint8_t)seat, (uint8_t)kind, (uint8_t)(tile != NULL ? mjt_kind(tile) : 0)};
    mj_status status = mj_hand_act(h, &a);
    ck_assert_msg(status == MJ_OK, "%s %s by seat %d refused: %s", mj_action_name(kind), tile != NULL ? tile : "",
                  seat, mj_status_name(status));
}

static mj_status act(mj_hand *h, int seat, mj_action_kind kind, const char *tile)
{
    mj_action a = {(uint8_t)seat, (uint8_t)kind, (uint8_t)(tile != NULL ? mjt_kind(tile) : 0)};
    return mj_hand_act(h, &a);
}

/* Replaces a seat's concealed tiles (the test then owns the tile count). */
static void set_hand(mj_hand *h, int seat, const char *tiles)
{
    memset(&h->hand[seat], 0, sizeof h->hand[seat]);
    mjt_add_tiles(tiles, &h->hand[seat]);
}

/* The same hand: every field a rule reads (a struct compare would also compare padding). */
static bool same_hand(const mj_hand *a, const mj_hand *b)
{
    bool same = memcmp(a->wall, b->wall, sizeof a->wall) == 0 && a->front == b->front &&
                a->live_end == b->live_end && a->back == b->back && a->indicator_at == b->indicator_at &&
                a->phase == b->phase && a->turn == b->turn && a->drawn == b->drawn && a->winner == b->winner &&
                a->n_kongs == b->n_kongs && a->chan == b->chan && a->n_wild_discards == b->n_wild_discards;
    for (int s = 0; same && s < MJ_SEATS; s++) {
        same = memcmp(&a->hand[s], &b->hand[s], sizeof a->hand[s]) == 0 && a->n_melds[s] == b->n_melds[s] &&
               memcmp(a->melds[s], b->melds[s], sizeof a->melds[s]) == 0 && a->n_discards[s] == b->n_discards[s] &&
               memcmp(a->discards[s], b->discards[s], a->n_discards[s]) == 0 &&
               a->settlement.net[s] == b->settlement.net[s];
    }
    return same;
}

static bool legal(const mj_hand *h, mj_action_kind kind)
{
    mj_action list[MJ_MAX_ACTIONS];
    int n = mj_hand_legal_actions(h, list);
    for (int i = 0; i < n; i++)
        if (list[i].kind == kind)
            return true;
    return false;
}

/* --- the deal --- */

START_TEST(test_the_same_seed_deals_the_same_hand)
{
    mj_hand a = start(42, 1), b = start(42, 1), c = start(43, 1);
    ck_assert(same_hand(&a, &b));
    ck_assert_int_ne(memcmp(a.wall, c.wall, sizeof a.wall), 0);
}
END_TEST

START_TEST(test_the_banker_gets_14_tiles_and_acts_first_the_others_13)
{
    mj_hand h = start(7, 2);
    for (int s = 0; s < MJ_SEATS; s++)
        ck_assert_int_eq(tiles_in(&h.hand[s]), s == 2 ? 14 : 13);
    ck_assert_int_eq(mj_hand_deciding(&h), 2);
    ck_assert_int_eq(h.front, 53);
    ck_assert(h.first_draw);
    assert_tiles_kept(&h);
}
END_TEST

START_TEST(test_the_indicator_is_turned_from_the_back_by_two_dice_and_decides_the_wilds)
{
    for (uint64_t seed = 0; seed < 200; seed++) {
        mj_hand h = start(seed, 0);
        int stacks = (MJ_TILES - h.indicator_at) / 2;
        ck_assert_int_eq((MJ_TILES - h.indicator_at) % 2, 0);
        ck_assert(stacks >= 2 && stacks <= 12);
        ck_assert_int_eq(h.indicator, h.wall[h.indicator_at]);
        ck_assert(h.wilds == mj_wild_kinds(h.indicator, false));
        ck_assert_int_eq(h.live_end, h.indicator_at); /* the live wall ends at the tile before it */
        ck_assert_int_eq(mj_hand_live_left(&h), h.indicator_at - 53);
    }
}
END_TEST

START_TEST(test_pre_hand_choices_that_break_section_five_are_refused)
{
    mj_options o = mj_options_default();
    mj_hand h;
    uint8_t pulls[MJ_SEATS] = {1, 0, 0, 0};
    ck_assert_int_eq(mj_hand_start(&h, &o, 1, 0, true, pulls), MJ_ERR_BAD_START); /* the banker pulls */
    pulls[0] = 0;
    pulls[2] = 1;
    ck_assert_int_eq(mj_hand_start(&h, &o, 1, 0, false, pulls), MJ_ERR_BAD_START); /* no sitting */
    ck_assert_int_eq(mj_hand_start(&h, &o, 1, 0, true, pulls), MJ_OK);
    pulls[2] = 2;
    ck_assert_int_eq(mj_hand_start(&h, &o, 1, 0, true, pulls), MJ_ERR_BAD_START); /* over max_pulls */
    o.must_sit = true;
    ck_assert_int_eq(mj_hand_start(&h, &o, 1, 0, false, NO_PULLS), MJ_ERR_BAD_START);
}
END_TEST

/* --- turns and claims --- */

START_TEST(test_a_discard_nobody_claims_passes_the_draw_to_the_next_seat)
{
    mj_hand h = start(5, 0);
    set_hand(&h, 0, "1m 1m 2m 3m 5p 6p 7p 9s 9s C C C N P");
    set_hand(&h, 1, "1p 2p 3p 4p 5m 6m 7m 8m 9m 2s 3s 4s E");
    set_hand(&h, 2, "1s 2s 3s 4s 5s 6s 7s 8s 1p 1p W W F");
    set_hand(&h, 3, "2p 2p 3p 3p 4m 4m 6s 6s 7s 8s 8s W F");
    h.wilds = mj_wild_kinds(mjt_kind("E"), false);
    h.indicator = (uint8_t)mjt_kind("E");
    int next = h.wall[h.front];
    act_ok(&h, 0, MJ_ACT_DISCARD, "P");
    ck_assert_int_eq(h.phase, MJ_PHASE_TURN);
    ck_assert_int_eq(mj_hand_deciding(&h), 1);
    ck_assert_int_eq(h.drawn, next);
    ck_assert_int_eq(tiles_in(&h.hand[1]), 14);
}
END_TEST

START_TEST(test_a_discard_opens_a_claim_only_for_the_seat_with_two_of_it)
{
    mj_hand h = start(5, 0);
    set_hand(&h, 0, "1m 1m 2m 3m 5p 6p 7p 9s 9s C C C N 8s");
    set_hand(&h, 2, "1s 2s 3s 4s 5s 6s 7s 8s 8s 1p 1p F F");
    set_hand(&h, 1, "1p 2p 3p 4p 5m 6m 7m 8m 9m 2s 3s 4s F");
    h.wilds = mj_wild_kinds(mjt_kind("E"), false);
    act_ok(&h, 0, MJ_ACT_DISCARD, "8s");
    ck_assert_int_eq(h.phase, MJ_PHASE_CLAIM);
    ck_assert_int_eq(mj_hand_deciding(&h), 2);
    ck_assert_int_eq(act(&h, 1, MJ_ACT_PASS, NULL), MJ_ERR_NOT_YOUR_TURN);
    ck_assert_int_eq(act(&h, 2, MJ_ACT_KONG, NULL), MJ_ERR_CANNOT_CLAIM); /* two, not three */
    ck_assert_int_eq(act(&h, 2, MJ_ACT_DISCARD, "1s"), MJ_ERR_NOT_NOW);
    act_ok(&h, 2, MJ_ACT_PUNG, NULL);
    ck_assert_int_eq(h.n_melds[2], 1);
    ck_assert_int_eq(h.n_discards[0], 0); /* the claimed tile left seat 0's row */
    ck_assert_int_eq(mj_hand_deciding(&h), 2); /* seat 1 is skipped */
    ck_assert_int_eq(h.drawn, -1);
    /* after a pung only a discard: no win, no kong */
    ck_assert_int_eq(act(&h, 2, MJ_ACT_WIN, NULL), MJ_ERR_NOT_NOW);
    ck_assert(!legal(&h, MJ_ACT_WIN) && !legal(&h, MJ_ACT_CONCEALED_KONG));
    act_ok(&h, 2, MJ_ACT_DISCARD, "F");
    ck_assert_int_eq(mj_hand_deciding(&h), 3);
}
END_TEST

START_TEST(test_a_wild_discard_is_never_claimed_and_bars_its_discarder_from_winning)
{
    mj_hand h = start(5, 0);
    h.wilds = mj_wild_kinds(mjt_kind("E"), false); /* E and S */
    set_hand(&h, 0, "1m 1m 2m 3m 5p 6p 7p 9s 9s C C C N S");
    set_hand(&h, 1, "S S 2p 3p 4p 5m 6m 7m 2s 3s 4s C N");
    act_ok(&h, 0, MJ_ACT_DISCARD, "S");
    ck_assert_int_eq(h.phase, MJ_PHASE_TURN); /* seat 1's two S do not claim it */
    ck_assert_int_eq(h.n_wild_discards, 1);
    ck_assert_int_eq(h.wild_discards[0], 0);
    /* give seat 0 a winning hand with its next draw: the win is refused */
    h.turn = 0;
    h.drawn = (int8_t)mjt_kind("N");
    set_hand(&h, 0, "1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N N");
    ck_assert_int_eq(act(&h, 0, MJ_ACT_WIN, NULL), MJ_ERR_WILD_DISCARDED);
    ck_assert(!legal(&h, MJ_ACT_WIN));
}
END_TEST

START_TEST(test_an_exposed_kong_draws_its_replacement_from_behind_the_indicator)
{
    mj_hand h = start(9, 0);
    h.wilds = mj_wild_kinds(mjt_kind("E"), false);
    set_hand(&h, 0, "1m 1m 2m 3m 5p 6p 7p 9s 9s C C C N 8s");
    set_hand(&h, 3, "8s 8s 8s 2s 3s 4s 5m 6m 7m 1p 1p F F");
    int replacement = h.wall[MJ_TILES - 1];
    act_ok(&h, 0, MJ_ACT_DISCARD, "8s");
    ck_assert_int_eq(mj_hand_deciding(&h), 3);
    act_ok(&h, 3, MJ_ACT_KONG, NULL);
    ck_assert_int_eq(h.back, MJ_TILES - 1);
    ck_assert_int_eq(h.drawn, replacement);
    ck_assert(h.on_replacement);
    ck_assert_int_eq(h.n_kongs, 1);
    ck_assert_int_eq(h.kongs[0].kind, MJ_KONG_EXPOSED);
    ck_assert_int_eq(tiles_in(&h.hand[3]), 11);
}
END_TEST

START_TEST(test_concealed_and_added_kongs_and_gold_kongs)
{
    mj_hand h = start(9, 0);
    h.indicator = (uint8_t)mjt_kind("E");
    h.wilds = mj_wild_kinds(h.indicator, false);
    set_hand(&h, 0, "2m 2m 2m 2m S S S S 5p 6p 7p C C N");
    h.drawn = (int8_t)mjt_kind("N");
    ck_assert(legal(&h, MJ_ACT_CONCEALED_KONG));
    act_ok(&h, 0, MJ_ACT_CONCEALED_KONG, "2m");
    ck_assert_int_eq(h.kongs[0].kind, MJ_KONG_CONCEALED);
    act_ok(&h, 0, MJ_ACT_CONCEALED_KONG, "S"); /* four wilds: 金杠 */
    ck_assert_int_eq(h.kongs[1].kind, MJ_KONG_GOLD);
    ck_assert_int_eq(act(&h, 0, MJ_ACT_CONCEALED_KONG, "C"), MJ_ERR_NO_SUCH_KONG);
    ck_assert_int_eq(act(&h, 0, MJ_ACT_ADDED_KONG, "C"), MJ_ERR_NO_SUCH_KONG);
    /* an added kong: a pung meld and its fourth tile */
    h.melds[0][h.n_melds[0]++] = (mj_meld){MJ_MELD_PUNG, (uint8_t)mjt_kind("9p")};
    h.hand[0].n[mjt_kind("9p")] = 1;
    act_ok(&h, 0, MJ_ACT_ADDED_KONG, "9p");
    ck_assert_int_eq(h.melds[0][2].kind, MJ_MELD_KONG);
    ck_assert_int_eq(h.kongs[2].kind, MJ_KONG_EXPOSED);
    /* with gold_kong_fan 0 four wilds are no kong */
    mj_hand g = start(9, 0);
    g.options.gold_kong_fan = 0;
    g.wilds = mj_wild_kinds(mjt_kind("E"), false);
    set_hand(&g, 0, "2m 2m 2m 3m S S S S 5p 6p 7p C C N");
    ck_assert_int_eq(act(&g, 0, MJ_ACT_CONCEALED_KONG, "S"), MJ_ERR_NO_SUCH_KONG);
}
END_TEST

START_TEST(test_a_kong_with_no_replacement_left_ends_the_hand_or_takes_the_live_walls_last_tile)
{
    for (int skip = 0; skip < 2; skip++) {
        mj_hand h = start(9, 0);
        h.options.no_replacement = skip ? MJ_NO_REPLACEMENT_SKIP_INDICATOR : MJ_NO_REPLACEMENT_DRAW;
        h.wilds = mj_wild_kinds(mjt_kind("E"), false);
        h.back = (uint8_t)(h.indicator_at + 1); /* every tile behind the indicator used */
        set_hand(&h, 0, "2m 2m 2m 2m 5p 6p 7p 9s 9s C C C N P");
        int last = h.wall[h.live_end - 1];
        act_ok(&h, 0, MJ_ACT_CONCEALED_KONG, "2m");
        if (!skip) {
            ck_assert(mj_hand_over(&h));
            ck_assert_int_eq(h.winner, -1);
        } else {
            ck_assert(!mj_hand_over(&h));
            ck_assert_int_eq(h.drawn, last);
            ck_assert_int_eq(h.live_end, h.indicator_at - 1);
        }
    }
}
END_TEST

/* --- winning --- */

START_TEST(test_the_bankers_dealt_winning_hand_wins_as_tian_hu)
{
    mj_hand h = start(3, 1);
    h.indicator = (uint8_t)mjt_kind("C");
    h.wilds = mj_wild_kinds(h.indicator, false);
    set_hand(&h, 1, "1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N N");
    h.drawn = (int8_t)mjt_kind("N");
    ck_assert(legal(&h, MJ_ACT_WIN));
    act_ok(&h, 1, MJ_ACT_WIN, NULL);
    ck_assert(mj_hand_over(&h));
    ck_assert_int_eq(h.winner, 1);
    ck_assert_uint_eq(h.score.fan, 8); /* 素 2 × 天胡 4 */
    ck_assert(h.score.fans & MJ_FAN_BIT(MJ_FAN_TIAN_HU));
    ck_assert_int_eq(h.settlement.net[1], 24);
    ck_assert_int_eq(h.settlement.next_banker, 1);
}
END_TEST

START_TEST(test_a_non_banker_winning_on_its_first_draw_is_di_hu_and_not_later)
{
    mj_hand h = start(3, 0);
    h.indicator = (uint8_t)mjt_kind("C");
    h.wilds = mj_wild_kinds(h.indicator, false);
    set_hand(&h, 0, "1m 1m 1m 5p 6p 7p 9s 9s C C C N P E");
    set_hand(&h, 1, "1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N");
    h.wall[h.front] = (uint8_t)mjt_kind("N");
    act_ok(&h, 0, MJ_ACT_DISCARD, "E");
    ck_assert(h.first_draw);
    act_ok(&h, 1, MJ_ACT_WIN, NULL);
    ck_assert_uint_eq(h.score.fan, 8); /* 素 × 地胡 */
    ck_assert(h.score.fans & MJ_FAN_BIT(MJ_FAN_DI_HU));
}
END_TEST

START_TEST(test_a_win_on_a_kong_replacement_is_gang_kai_and_the_kong_pays_too)
{
    mj_hand h = start(11, 0);
    h.indicator = (uint8_t)mjt_kind("C");
    h.wilds = mj_wild_kinds(h.indicator, false);
    set_hand(&h, 0, "2s 2s 2s 2s 1m 2m 3m 4p 5p 6p 7s 8s 9s N");
    h.wall[MJ_TILES - 1] = (uint8_t)mjt_kind("N");
    act_ok(&h, 0, MJ_ACT_CONCEALED_KONG, "2s");
    act_ok(&h, 0, MJ_ACT_WIN, NULL);
    ck_assert_uint_eq(h.score.fan, 4); /* 素 × 杠开 */
    /* each other seat: 4 for the win, 2 for the concealed kong */
    ck_assert_int_eq(h.settlement.net[0], 18);
    ck_assert_int_eq(h.settlement.net[2], -6);
}
END_TEST

START_TEST(test_a_hand_that_does_not_win_is_refused_and_unchanged)
{
    mj_hand h = start(11, 0);
    mj_hand before = h;
    ck_assert_int_eq(act(&h, 0, MJ_ACT_WIN, NULL), MJ_ERR_NO_WIN);
    ck_assert_int_eq(act(&h, 1, MJ_ACT_DISCARD, "1m"), MJ_ERR_NOT_YOUR_TURN);
    ck_assert_int_eq(act(&h, 0, MJ_ACT_PUNG, NULL), MJ_ERR_NOT_NOW);
    int absent = 0;
    while (h.hand[0].n[absent] > 0)
        absent++;
    mj_action a = {0, MJ_ACT_DISCARD, (uint8_t)absent};
    ck_assert_int_eq(mj_hand_act(&h, &a), MJ_ERR_TILE_NOT_IN_HAND);
    ck_assert(same_hand(&h, &before));
}
END_TEST

/* --- 铲 and the drawn hand --- */

START_TEST(test_chan_the_bankers_first_discard_followed_by_all_three_costs_the_banker)
{
    for (int option = 0; option < 2; option++) {
        mj_hand h = start(13, 0);
        h.options.chan = option;
        h.wilds = mj_wild_kinds(mjt_kind("C"), false);
        set_hand(&h, 0, "W 1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N");
        for (int s = 1; s < 4; s++) {
            set_hand(&h, s, "W 1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m");
            h.wall[h.front + s - 1] = (uint8_t)mjt_kind("P");
        }
        for (int s = 0; s < 4; s++)
            act_ok(&h, s, MJ_ACT_DISCARD, "W");
        ck_assert_int_eq(h.chan, option == 1);
    }
}
END_TEST

START_TEST(test_a_claim_or_another_tile_breaks_chan)
{
    mj_hand h = start(13, 0);
    h.options.chan = true;
    h.wilds = mj_wild_kinds(mjt_kind("C"), false);
    set_hand(&h, 0, "W 1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N");
    set_hand(&h, 1, "W 1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m");
    set_hand(&h, 2, "N 1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m");
    set_hand(&h, 3, "W 1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m");
    for (int s = 1; s < 4; s++)
        h.wall[h.front + s - 1] = (uint8_t)mjt_kind("P");
    act_ok(&h, 0, MJ_ACT_DISCARD, "W");
    act_ok(&h, 1, MJ_ACT_DISCARD, "W");
    act_ok(&h, 2, MJ_ACT_DISCARD, "N");
    act_ok(&h, 3, MJ_ACT_DISCARD, "W");
    ck_assert(!h.chan);
}
END_TEST

START_TEST(test_an_exhausted_live_wall_ends_the_hand_drawn)
{
    mj_hand h = start(17, 0);
    h.wilds = mj_wild_kinds(mjt_kind("C"), false);
    h.live_end = h.front; /* nothing left to draw */
    set_hand(&h, 0, "W 1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N");
    for (int s = 1; s < 4; s++) /* nobody can claim the W */
        set_hand(&h, s, "1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 4m N");
    act_ok(&h, 0, MJ_ACT_DISCARD, "W");
    ck_assert(mj_hand_over(&h));
    ck_assert_int_eq(h.winner, -1);
    ck_assert_int_eq(h.settlement.count, 0);
    ck_assert_int_eq(h.settlement.next_banker, 0);
    ck_assert_int_eq(act(&h, 1, MJ_ACT_DISCARD, "1m"), MJ_ERR_HAND_OVER);
}
END_TEST

/* --- whole hands --- */

START_TEST(test_random_hands_keep_every_tile_and_settle_to_zero)
{
    uint64_t r = 0x68616e6473ull + (uint64_t)_i;
    int wins = 0, kongs = 0, claims = 0;
    for (int game = 0; game < 300; game++) {
        mj_options o = mj_options_default();
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        o.gua_da_feng = (r >> 40) % 3 == 0;
        o.chan = (r >> 42) & 1;
        o.wild_discard_penalty = (r >> 43) & 1;
        o.no_replacement = (r >> 44) & 1;
        int banker = (int)((r >> 50) % 4);
        uint8_t pulls[MJ_SEATS] = {0, 0, 0, 0};
        pulls[(banker + 1) % 4] = (r >> 45) & 1;
        mj_hand h;
        ck_assert_int_eq(mj_hand_start(&h, &o, r, banker, true, pulls), MJ_OK);
        int steps = 0;
        while (!mj_hand_over(&h)) {
            mj_action list[MJ_MAX_ACTIONS];
            int n = mj_hand_legal_actions(&h, list);
            ck_assert_int_gt(n, 0);
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            int pick = (int)((r >> 33) % (uint64_t)n);
            if (list[0].kind == MJ_ACT_WIN && (r >> 20) % 4 != 0)
                pick = 0; /* usually take a win */
            for (int i = 0; i < n; i++) { /* every listed action is accepted */
                mj_hand copy = h;
                ck_assert_int_eq(mj_hand_act(&copy, &list[i]), MJ_OK);
            }
            claims += list[pick].kind == MJ_ACT_PUNG || list[pick].kind == MJ_ACT_KONG;
            ck_assert_int_eq(mj_hand_act(&h, &list[pick]), MJ_OK);
            ck_assert_int_lt(++steps, 400);
            if (!mj_hand_over(&h))
                assert_tiles_kept(&h);
        }
        int64_t sum = 0;
        for (int s = 0; s < MJ_SEATS; s++)
            sum += h.settlement.net[s];
        ck_assert_int_eq(sum, 0);
        wins += h.winner >= 0;
        kongs += h.n_kongs;
    }
    ck_assert_int_gt(wins, 0);
    ck_assert_int_gt(kongs, 0);
    ck_assert_int_gt(claims, 0);
}
END_TEST

START_TEST(test_a_hand_is_rebuilt_exactly_from_its_seed_and_actions)
{
    mj_options o = mj_options_default();
    mj_hand h, again;
    ck_assert_int_eq(mj_hand_start(&h, &o, 99, 3, false, NO_PULLS), MJ_OK);
    mj_action played[400];
    int n_played = 0;
    uint64_t r = 5;
    while (!mj_hand_over(&h)) {
        mj_action list[MJ_MAX_ACTIONS];
        int n = mj_hand_legal_actions(&h, list);
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        played[n_played] = list[(r >> 33) % (uint64_t)n];
        ck_assert_int_eq(mj_hand_act(&h, &played[n_played++]), MJ_OK);
    }
    ck_assert_int_eq(mj_hand_start(&again, &o, 99, 3, false, NO_PULLS), MJ_OK);
    for (int i = 0; i < n_played; i++)
        ck_assert_int_eq(mj_hand_act(&again, &played[i]), MJ_OK);
    ck_assert(same_hand(&h, &again));
}
END_TEST

/* --- what a table needs --- */

START_TEST(test_with_windows_a_discard_nobody_can_claim_waits_until_the_window_closes)
{
    mj_hand h = start(5, 0);
    h.windows = true;
    set_hand(&h, 0, "1m 1m 2m 3m 5p 6p 7p 9s 9s C C C N P");
    set_hand(&h, 1, "1p 2p 3p 4p 5m 6m 7m 8m 9m 2s 3s 4s E");
    set_hand(&h, 2, "1s 2s 3s 4s 5s 6s 7s 8s 1p 1p W W F");
    set_hand(&h, 3, "2p 2p 3p 3p 4m 4m 6s 6s 7s 8s 8s W F");
    h.wilds = mj_wild_kinds(mjt_kind("E"), false);
    int next = h.wall[h.front], front = h.front;
    act_ok(&h, 0, MJ_ACT_DISCARD, "P");
    ck_assert_int_eq(h.phase, MJ_PHASE_WINDOW);
    ck_assert_int_eq(mj_hand_deciding(&h), -1);
    ck_assert_int_eq(h.front, front); /* nothing drawn yet */
    mj_action list[MJ_MAX_ACTIONS];
    ck_assert_int_eq(mj_hand_legal_actions(&h, list), 0);
    ck_assert_int_eq(act(&h, 1, MJ_ACT_PASS, NULL), MJ_ERR_NOT_YOUR_TURN);
    ck_assert_int_eq(act(&h, 1, MJ_ACT_DISCARD, "E"), MJ_ERR_NOT_YOUR_TURN);
    ck_assert_int_eq(mj_hand_close_window(&h), MJ_OK);
    ck_assert_int_eq(mj_hand_deciding(&h), 1);
    ck_assert_int_eq(h.drawn, next);
    ck_assert_int_eq(mj_hand_close_window(&h), MJ_ERR_NOT_NOW);
}
END_TEST

START_TEST(test_closing_a_window_with_a_claimer_is_its_pass)
{
    mj_hand h = start(5, 0), passed;
    h.windows = true;
    set_hand(&h, 0, "1m 1m 2m 3m 5p 6p 7p 9s 9s C C C N 8s");
    set_hand(&h, 2, "1s 2s 3s 4s 5s 6s 7s 8s 8s 1p 1p F F");
    set_hand(&h, 1, "1p 2p 3p 4p 5m 6m 7m 8m 9m 2s 3s 4s F");
    h.wilds = mj_wild_kinds(mjt_kind("E"), false);
    act_ok(&h, 0, MJ_ACT_DISCARD, "8s");
    ck_assert_int_eq(h.phase, MJ_PHASE_CLAIM);
    passed = h;
    act_ok(&passed, 2, MJ_ACT_PASS, NULL);
    ck_assert_int_eq(mj_hand_close_window(&h), MJ_OK);
    ck_assert(same_hand(&h, &passed));
    ck_assert_int_eq(mj_hand_deciding(&h), 1);
}
END_TEST

START_TEST(test_a_deal_from_the_seeds_own_wall_and_dice_is_the_seeds_deal)
{
    mj_options o = mj_options_default();
    for (uint64_t seed = 0; seed < 50; seed++) {
        mj_hand a = start(seed, (int)(seed % 4)), b;
        int dice = (MJ_TILES - a.indicator_at) / 2;
        ck_assert_int_eq(mj_hand_deal(&b, &o, a.wall, dice, (int)(seed % 4), false, NO_PULLS), MJ_OK);
        ck_assert(same_hand(&a, &b));
    }
    mj_hand a = start(1, 0), b;
    ck_assert_int_eq(mj_hand_deal(&b, &o, a.wall, 13, 0, false, NO_PULLS), MJ_ERR_BAD_INPUT);
    ck_assert_int_eq(mj_hand_deal(&b, &o, a.wall, 1, 0, false, NO_PULLS), MJ_ERR_BAD_INPUT);
    a.wall[0] = a.wall[1] == 0 ? 1 : 0; /* one kind five times, or three */
    ck_assert_int_eq(mj_hand_deal(&b, &o, a.wall, 6, 0, false, NO_PULLS), MJ_ERR_BAD_INPUT);
    a.wall[0] = MJ_KINDS;
    ck_assert_int_eq(mj_hand_deal(&b, &o, a.wall, 6, 0, false, NO_PULLS), MJ_ERR_BAD_INPUT);
}
END_TEST

START_TEST(test_the_win_check_tells_no_win_from_under_the_minimum_and_a_wild_discard)
{
    mj_hand h = start(3, 1);
    h.options.gua_da_feng = true;
    h.indicator = (uint8_t)mjt_kind("N");
    h.wilds = mj_wild_kinds(h.indicator, true); /* every wind */
    set_hand(&h, 1, "1m 2m 3m 2m 3m 4m 4p 5p 6p 7s 8s 9s 9p E");
    h.drawn = (int8_t)mjt_kind("E"); /* a wild beside 9p: no fan, and no 天胡 under 刮大风 */
    ck_assert_int_eq(mj_hand_win_check(&h, 1, NULL), MJ_ERR_UNDER_MINIMUM);
    ck_assert_int_eq(act(&h, 1, MJ_ACT_WIN, NULL), MJ_ERR_UNDER_MINIMUM);
    ck_assert_int_eq(mj_hand_win_check(&h, 0, NULL), MJ_ERR_NOT_YOUR_TURN);
    set_hand(&h, 1, "1m 2m 3m 2m 3m 4m 4p 5p 6p 7s 8s 9s 9p P");
    h.drawn = (int8_t)mjt_kind("P");
    ck_assert_int_eq(mj_hand_win_check(&h, 1, NULL), MJ_ERR_NO_WIN);
    set_hand(&h, 1, "1m 2m 3m 2m 3m 4m 4p 5p 6p 7s 8s 9s 9p 9p");
    h.drawn = (int8_t)mjt_kind("9p");
    mj_score score;
    ck_assert_int_eq(mj_hand_win_check(&h, 1, &score), MJ_OK);
    ck_assert_uint_eq(score.fan, 4); /* 素 under 刮大风 */
    h.wild_discards[h.n_wild_discards++] = 1;
    ck_assert_int_eq(mj_hand_win_check(&h, 1, NULL), MJ_ERR_WILD_DISCARDED);
    mj_winning_hand w;
    mj_hand_winning_hand(&h, 1, &w);
    ck_assert_int_eq(w.win_tile, mjt_kind("9p"));
    ck_assert_int_eq(w.concealed.n[mjt_kind("9p")], 1);
    ck_assert(w.dealer && w.first_draw);
}
END_TEST

static Suite *hand_suite(void)
{
    Suite *s = suite_create("mj_hand");
    TCase *deal = tcase_create("deal");
    tcase_add_test(deal, test_the_same_seed_deals_the_same_hand);
    tcase_add_test(deal, test_the_banker_gets_14_tiles_and_acts_first_the_others_13);
    tcase_add_test(deal, test_the_indicator_is_turned_from_the_back_by_two_dice_and_decides_the_wilds);
    tcase_add_test(deal, test_pre_hand_choices_that_break_section_five_are_refused);
    suite_add_tcase(s, deal);
    TCase *turns = tcase_create("turns");
    tcase_add_test(turns, test_a_discard_nobody_claims_passes_the_draw_to_the_next_seat);
    tcase_add_test(turns, test_a_discard_opens_a_claim_only_for_the_seat_with_two_of_it);
    tcase_add_test(turns, test_a_wild_discard_is_never_claimed_and_bars_its_discarder_from_winning);
    tcase_add_test(turns, test_an_exposed_kong_draws_its_replacement_from_behind_the_indicator);
    tcase_add_test(turns, test_concealed_and_added_kongs_and_gold_kongs);
    tcase_add_test(turns, test_a_kong_with_no_replacement_left_ends_the_hand_or_takes_the_live_walls_last_tile);
    suite_add_tcase(s, turns);
    TCase *table = tcase_create("table");
    tcase_add_test(table, test_with_windows_a_discard_nobody_can_claim_waits_until_the_window_closes);
    tcase_add_test(table, test_closing_a_window_with_a_claimer_is_its_pass);
    tcase_add_test(table, test_a_deal_from_the_seeds_own_wall_and_dice_is_the_seeds_deal);
    tcase_add_test(table, test_the_win_check_tells_no_win_from_under_the_minimum_and_a_wild_discard);
    suite_add_tcase(s, table);
    TCase *win = tcase_create("winning");
    tcase_add_test(win, test_the_bankers_dealt_winning_hand_wins_as_tian_hu);
    tcase_add_test(win, test_a_non_banker_winning_on_its_first_draw_is_di_hu_and_not_later);
    tcase_add_test(win, test_a_win_on_a_kong_replacement_is_gang_kai_and_the_kong_pays_too);
    tcase_add_test(win, test_a_hand_that_does_not_win_is_refused_and_unchanged);
    suite_add_tcase(s, win);
    TCase *end = tcase_create("end");
    tcase_add_test(end, test_chan_the_bankers_first_discard_followed_by_all_three_costs_the_banker);
    tcase_add_test(end, test_a_claim_or_another_tile_breaks_chan);
    tcase_add_test(end, test_an_exhausted_live_wall_ends_the_hand_drawn);
    suite_add_tcase(s, end);
    TCase *whole = tcase_create("whole hands");
    tcase_set_timeout(whole, 120);
    tcase_add_loop_test(whole, test_random_hands_keep_every_tile_and_settle_to_zero, 0, 2);
    tcase_add_test(whole, test_a_hand_is_rebuilt_exactly_from_its_seed_and_actions);
    suite_add_tcase(s, whole);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(hand_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
