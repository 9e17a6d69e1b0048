/*
 * Property tests of mj_fan against a reference worked out apart from the engine: for thousands of
 * random hands (0 to 11 wilds, both presets, melds, kong replacements, first draws) the reference
 * enumerates EVERY reading — every group the winning tile can be in (a drawn wild standing for
 * each of the 34 kinds), every way the other tiles split into sets and the pair, each wild filling
 * any gap — reads the fans of each as rules/tianjin-mahjong.md §4 defines them, and keeps the
 * highest total (ties: the first differing fan in §7's order, as the engine documents). The engine
 * must give the same refusal, total and fans, and a reading that holds exactly the hand's tiles.
 */
#include <check.h>
#include <stdlib.h>

#include "mj_test_util.h"

#define HANDS 3000

/* --- a small deterministic generator (the test's own, not the engine's) --- */

static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

static int below(uint64_t *state, int n) { return (int)(next_random(state) % (uint64_t)n); }

/* --- wild kinds, from §2 and §6 directly --- */

static int ref_next(int k)
{
    if (k < 27)
        return k % 9 == 8 ? k - 8 : k + 1;
    if (k < 31)
        return k == 30 ? 27 : k + 1;
    return k == 33 ? 31 : k + 1;
}

static int ref_prev(int k)
{
    for (int j = 0; j < MJ_KINDS; j++)
        if (ref_next(j) == k)
            return j;
    return -1;
}

static void ref_wilds(int indicator, bool gua, bool wild[MJ_KINDS])
{
    memset(wild, 0, MJ_KINDS * sizeof wild[0]);
    wild[indicator] = wild[ref_next(indicator)] = true;
    if (gua && indicator >= 27 && indicator <= 30)
        wild[27] = wild[28] = wild[29] = wild[30] = true;
    else if (gua)
        wild[ref_prev(indicator)] = true;
}

/* --- sets of chow signatures: which of the nine chows 1-2-3, 4-5-6, 7-8-9 of a suit a reading holds --- */

typedef struct sigset {
    uint64_t bits[8]; /* bit m: a reading whose chows of those nine types are m */
} sigset;

static void sig_add(sigset *s, int m) { s->bits[m >> 6] |= 1ull << (m & 63); }
static bool sig_has(const sigset *s, int m) { return (s->bits[m >> 6] >> (m & 63)) & 1; }

static bool sig_empty(const sigset *s)
{
    for (int i = 0; i < 8; i++)
        if (s->bits[i])
            return false;
    return true;
}

/* dst |= { m | type : m in src } (type -1: m itself) */
static void sig_merge(sigset *dst, const sigset *src, int type)
{
    for (int m = 0; m < 512; m++)
        if (sig_has(src, m))
            sig_add(dst, type < 0 ? m : m | (1 << type));
}

static int popcount(unsigned x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* The chow type of a chow from kind `low`, or -1. */
static int chow_type(int low)
{
    int rank = low % 9 + 1;
    return low < 27 && (rank == 1 || rank == 4 || rank == 7) ? (low / 9) * 3 + rank / 3 : -1;
}

/* --- the reference's memo of rest readings --- */

#define MEMO_SLOTS 8192

typedef struct memo_entry {
    bool used;
    uint8_t counts[MJ_KINDS];
    int8_t wilds;
    bool pair;
    sigset result;
} memo_entry;

typedef struct reference {
    memo_entry *memo;
} reference;

static uint32_t memo_hash(const uint8_t *counts, int wilds, bool pair)
{
    uint32_t h = 2166136261u;
    for (int k = 0; k < MJ_KINDS; k++)
        h = (h ^ counts[k]) * 16777619u;
    h = (h ^ (uint32_t)wilds) * 16777619u;
    return ((h ^ (uint32_t)pair) * 16777619u) % MEMO_SLOTS;
}

/*
 * Every reading of these naturals and wilds as sets (and the pair, if pair): the set of chow
 * signatures they can have. The lowest natural is placed in each group it can be in: a pung or
 * the pair with 1..3 (or 1..2) naturals of its kind, or any chow holding it, each other place of
 * the chow a natural or a wild.
 */
static sigset rest_readings(reference *ref, uint8_t *c, int wilds, bool pair)
{
    sigset out;
    memset(&out, 0, sizeof out);
    int i = 0;
    while (i < MJ_KINDS && c[i] == 0)
        i++;
    if (i == MJ_KINDS) {
        int left = wilds - (pair ? 2 : 0);
        if (left < 0 || left % 3 != 0)
            return out;
        for (int m = 0; m < 512; m++) /* each set of wilds alone may be any chow, or not a chow */
            if (popcount((unsigned)m) <= left / 3)
                sig_add(&out, m);
        return out;
    }
    uint32_t slot = memo_hash(c, wilds, pair);
    for (uint32_t probe = 0; probe < 16; probe++) {
        memo_entry *e = &ref->memo[(slot + probe) % MEMO_SLOTS];
        if (!e->used)
            break;
        if (e->wilds == wilds && e->pair == pair && memcmp(e->counts, c, MJ_KINDS) == 0)
            return e->result;
    }

    for (int j = 1; j <= 3 && j <= c[i]; j++) /* a pung of i */
        if (wilds >= 3 - j) {
            c[i] = (uint8_t)(c[i] - j);
            sigset sub = rest_readings(ref, c, wilds - (3 - j), pair);
            c[i] = (uint8_t)(c[i] + j);
            sig_merge(&out, &sub, -1);
        }
    for (int j = 1; pair && j <= 2 && j <= c[i]; j++) /* the pair of i */
        if (wilds >= 2 - j) {
            c[i] = (uint8_t)(c[i] - j);
            sigset sub = rest_readings(ref, c, wilds - (2 - j), false);
            c[i] = (uint8_t)(c[i] + j);
            sig_merge(&out, &sub, -1);
        }
    if (i < 27) { /* every chow holding i */
        int rank = i % 9 + 1;
        for (int low_rank = rank - 2; low_rank <= rank; low_rank++) {
            if (low_rank < 1 || low_rank > 7)
                continue;
            int low = i - (rank - low_rank), others[2], n = 0;
            for (int k = low; k < low + 3; k++)
                if (k != i)
                    others[n++] = k;
            for (int choice = 0; choice < 4; choice++) { /* bit b: others[b] is a natural */
                int used_wilds = 0;
                bool ok = true;
                c[i]--;
                for (int b = 0; b < 2; b++) {
                    if (choice & (1 << b))
                        ok &= c[others[b]] > 0;
                    else
                        used_wilds++;
                }
                if (ok && used_wilds <= wilds) {
                    for (int b = 0; b < 2; b++)
                        if (choice & (1 << b))
                            c[others[b]]--;
                    sigset sub = rest_readings(ref, c, wilds - used_wilds, pair);
                    for (int b = 0; b < 2; b++)
                        if (choice & (1 << b))
                            c[others[b]]++;
                    sig_merge(&out, &sub, chow_type(low));
                }
                c[i]++;
            }
        }
    }

    for (uint32_t probe = 0; probe < 16; probe++) {
        memo_entry *e = &ref->memo[(slot + probe) % MEMO_SLOTS];
        if (e->used)
            continue;
        e->used = true;
        memcpy(e->counts, c, MJ_KINDS);
        e->wilds = (int8_t)wilds;
        e->pair = pair;
        e->result = out;
        break;
    }
    return out;
}

/* --- fans of a reading, as §4 and §6 define them --- */

enum {
    HD = 1 << MJ_FAN_HUN_DIAO, SU = 1 << MJ_FAN_SU, ZW = 1 << MJ_FAN_ZHUO_WU, GK = 1 << MJ_FAN_GANG_KAI,
    LG = 1 << MJ_FAN_LONG, BH = 1 << MJ_FAN_BEN_HUN, TH = 1 << MJ_FAN_TIAN_HU, DH = 1 << MJ_FAN_DI_HU,
};

static uint32_t ref_total(unsigned fans, bool gua)
{
    uint32_t t = 1;
    if (fans & HD)
        t *= 2;
    if (fans & SU)
        t *= gua ? 4 : 2;
    if ((fans & ZW) && (fans & LG))
        t *= 7;
    else if (fans & ZW)
        t *= 3;
    else if (fans & LG)
        t *= 4;
    if (fans & GK)
        t *= 2;
    if (fans & BH)
        t *= 2;
    if (fans & TH)
        t *= 4;
    if (fans & DH)
        t *= 4;
    return t;
}

typedef struct ref_best {
    bool win;
    bool found; /* a reading counted (not 混儿吊 alone under 刮大风) */
    uint32_t total;
    unsigned fans;
} ref_best;

static void consider(ref_best *best, unsigned fans, bool gua)
{
    if (gua && fans == HD)
        return;
    uint32_t total = ref_total(fans, gua);
    if (best->found && total < best->total)
        return;
    if (best->found && total == best->total) {
        unsigned differ = fans ^ best->fans;
        if (!(fans & differ & -differ))
            return;
    }
    best->found = true;
    best->total = total;
    best->fans = fans;
}

typedef struct ref_hand {
    uint8_t natural[MJ_KINDS]; /* the concealed naturals, the winning tile not among them */
    int spare;                 /* concealed wilds */
    int win;
    bool win_wild;
    int wild_suit;             /* 0..2, or -1 for honour wilds */
    unsigned hand_fans;
    bool gua;
} ref_hand;

/* The fans of the winning tile's group with the rest's chow signatures. */
static void read_group(ref_best *best, const ref_hand *h, const sigset *rest, bool hun_diao, bool zhuo_wu,
                       int group_type)
{
    unsigned base = h->hand_fans | (hun_diao ? HD : 0) | (zhuo_wu ? ZW : 0);
    for (int m = 0; m < 512; m++) {
        if (!sig_has(rest, m))
            continue;
        consider(best, base, h->gua);
        for (int suit = 0; suit < 3; suit++) {
            unsigned triple = 7u << (suit * 3), dragon = LG | (suit == h->wild_suit ? BH : 0);
            if (((unsigned)m & triple) == triple)
                consider(best, base | dragon, h->gua);
            if (group_type >= 0 && (triple & (1u << group_type)) &&
                (((unsigned)m | (1u << group_type)) & triple) == triple) {
                /* the dragon uses the winning tile's group: with 混儿吊 only one of the two counts */
                consider(best, (base & ~(unsigned)HD) | dragon, h->gua);
                consider(best, base, h->gua);
            }
        }
    }
}

/* Places the winning tile (standing for `kind`) in one group, then reads the rest. */
static void place_win(reference *ref, ref_best *best, const ref_hand *h, int kind)
{
    uint8_t c[MJ_KINDS];
    memcpy(c, h->natural, sizeof c);
    /* pair and pung of kind: the other places natural (n of them) or wild */
    for (int size = 2; size <= 3; size++)
        for (int naturals = 0; naturals <= size - 1; naturals++) {
            int wilds = size - 1 - naturals;
            if (c[kind] < naturals || h->spare < wilds)
                continue;
            c[kind] = (uint8_t)(c[kind] - naturals);
            sigset rest = rest_readings(ref, c, h->spare - wilds, size == 3);
            c[kind] = (uint8_t)(c[kind] + naturals);
            if (!sig_empty(&rest)) {
                best->win = true;
                read_group(best, h, &rest, naturals == 0, false, -1);
            }
        }
    if (kind >= 27)
        return;
    int rank = kind % 9 + 1;
    for (int low_rank = rank - 2; low_rank <= rank; low_rank++) {
        if (low_rank < 1 || low_rank > 7)
            continue;
        int low = kind - (rank - low_rank), others[2], n = 0;
        for (int k = low; k < low + 3; k++)
            if (k != kind)
                others[n++] = k;
        for (int choice = 0; choice < 4; choice++) {
            int wilds = 0;
            bool ok = true;
            for (int b = 0; b < 2; b++) {
                if (choice & (1 << b)) {
                    ok &= c[others[b]] > 0;
                    c[others[b]]--;
                } else {
                    wilds++;
                }
            }
            if (ok && wilds <= h->spare) {
                sigset rest = rest_readings(ref, c, h->spare - wilds, true);
                if (!sig_empty(&rest)) {
                    best->win = true;
                    read_group(best, h, &rest, choice == 0, low == MJ_4M && kind == MJ_5M, chow_type(low));
                }
            }
            for (int b = 0; b < 2; b++)
                if (choice & (1 << b))
                    c[others[b]]++;
        }
    }
}

static ref_best reference_score(reference *ref, const mj_winning_hand *hand, bool gua)
{
    bool wild[MJ_KINDS];
    ref_wilds(hand->indicator, gua, wild);
    ref_hand h;
    memset(&h, 0, sizeof h);
    bool any_wild = false;
    for (int k = 0; k < MJ_KINDS; k++) {
        if (wild[k])
            h.spare += hand->concealed.n[k];
        else
            h.natural[k] = hand->concealed.n[k];
        any_wild |= wild[k] && hand->concealed.n[k] > 0;
    }
    for (int i = 0; i < hand->n_melds; i++)
        any_wild |= wild[hand->melds[i].tile];
    h.win = hand->win_tile;
    h.win_wild = wild[h.win];
    any_wild |= h.win_wild;
    h.wild_suit = hand->indicator < 27 ? hand->indicator / 9 : -1;
    h.gua = gua;
    h.hand_fans = (any_wild ? 0 : SU) | (hand->kong_replacement ? GK : 0);
    if (hand->first_draw && !hand->dealer)
        h.hand_fans |= DH;
    if (hand->first_draw && hand->dealer && !gua)
        h.hand_fans |= TH;

    memset(ref->memo, 0, MEMO_SLOTS * sizeof ref->memo[0]);
    ref_best best = {false, false, 0, 0};
    if (h.win_wild) {
        for (int kind = 0; kind < MJ_KINDS; kind++)
            place_win(ref, &best, &h, kind);
    } else {
        place_win(ref, &best, &h, h.win);
    }
    return best;
}

/* --- random hands --- */

static void add_set(uint8_t *tiles, int *n, int kind, bool chow)
{
    for (int i = 0; i < 3; i++)
        tiles[(*n)++] = (uint8_t)(chow ? kind + i : kind);
}

static int random_chow_low(uint64_t *r) { return below(r, 3) * 9 + below(r, 7); }

/* A random hand, mostly winning shapes with wilds swapped in; false if it broke a count rule. */
static bool random_hand(uint64_t *r, mj_winning_hand *h, bool *gua)
{
    memset(h, 0, sizeof *h);
    *gua = below(r, 3) == 0;
    h->indicator = (uint8_t)below(r, MJ_KINDS);
    bool wild[MJ_KINDS];
    ref_wilds(h->indicator, *gua, wild);
    int wild_kinds[4], n_wild = 0;
    for (int k = 0; k < MJ_KINDS; k++)
        if (wild[k])
            wild_kinds[n_wild++] = k;

    h->n_melds = (uint8_t)(below(r, 4) == 0 ? below(r, 3) : 0);
    bool kong = false;
    for (int i = 0; i < h->n_melds; i++) {
        int kind = below(r, MJ_KINDS), type = below(r, 3);
        if (wild[kind] && type != MJ_MELD_CONCEALED_KONG)
            type = MJ_MELD_CONCEALED_KONG; /* a 金杠 */
        h->melds[i] = (mj_meld){(uint8_t)type, (uint8_t)kind};
        kong |= type != MJ_MELD_PUNG;
    }

    uint8_t tiles[14];
    int n = 0, sets = 4 - h->n_melds;
    if (sets >= 3 && below(r, 3) == 0) { /* a dragon */
        int suit = below(r, 3);
        for (int low = 0; low < 9; low += 3)
            add_set(tiles, &n, suit * 9 + low, true);
        sets -= 3;
    }
    if (sets >= 1 && below(r, 4) == 0) { /* 4-5-6万 */
        add_set(tiles, &n, MJ_4M, true);
        sets--;
    }
    for (; sets > 0; sets--) {
        if (below(r, 2) == 0)
            add_set(tiles, &n, random_chow_low(r), true);
        else
            add_set(tiles, &n, below(r, MJ_KINDS), false);
    }
    int pair = below(r, MJ_KINDS);
    tiles[n++] = (uint8_t)pair;
    tiles[n++] = (uint8_t)pair;

    int swaps = below(r, 9);
    for (int i = 0; i < swaps; i++)
        tiles[below(r, n)] = (uint8_t)wild_kinds[below(r, n_wild)];
    if (below(r, 8) == 0)
        tiles[below(r, n)] = (uint8_t)below(r, MJ_KINDS);
    int win_at = below(r, n);
    if (below(r, 6) == 0) /* the 5m catch */
        for (int i = 0; i < n; i++)
            if (tiles[i] == MJ_5M)
                win_at = i;
    h->win_tile = tiles[win_at];
    for (int i = 0; i < n; i++)
        if (i != win_at)
            h->concealed.n[tiles[i]]++;
    h->kong_replacement = kong && below(r, 2) == 0;
    h->first_draw = h->n_melds == 0 && below(r, 6) == 0;
    h->dealer = below(r, 2) == 0;

    mj_counts all;
    mj_winning_hand_tiles(h, &all);
    for (int k = 0; k < MJ_KINDS; k++)
        if (all.n[k] > 4)
            return false;
    return all.n[h->indicator] <= 3;
}

/* The engine's reading holds the hand's tiles: four sets and the pair, each natural in a place of its
 * kind, as many wilds as the hand has, the melds at the end as given. */
static void assert_reading_fits(const mj_winning_hand *h, bool gua, const mj_score *score)
{
    bool wild[MJ_KINDS];
    ref_wilds(h->indicator, gua, wild);
    mj_counts all = h->concealed;
    all.n[h->win_tile]++;
    int places[MJ_KINDS] = {0}, wilds = 0, natural_wilds = 0, pairs = 0, concealed_groups = score->n_groups - h->n_melds;
    ck_assert_int_eq(score->n_groups, 5);
    for (int g = 0; g < concealed_groups; g++) {
        const mj_group *group = &score->groups[g];
        for (int i = 0; i < mj_group_size(group); i++)
            places[mj_group_tile(group, i)]++;
        wilds += group->wilds;
        pairs += group->kind == MJ_GROUP_PAIR;
        ck_assert(group->kind != MJ_GROUP_KONG);
    }
    for (int k = 0; k < MJ_KINDS; k++) {
        if (wild[k])
            natural_wilds += all.n[k];
        else
            ck_assert_int_ge(places[k], all.n[k]);
    }
    ck_assert_int_eq(pairs, 1);
    ck_assert_int_eq(wilds, natural_wilds);
    for (int i = 0; i < h->n_melds; i++) {
        const mj_group *group = &score->groups[concealed_groups + i];
        ck_assert_int_eq(group->tile, h->melds[i].tile);
        ck_assert_int_eq(group->kind == MJ_GROUP_KONG, h->melds[i].kind != MJ_MELD_PUNG);
    }
}

/* The hand as text for a failure message: concealed | melds | indicator win flags. */
static const char *describe(const mj_winning_hand *h, bool gua, char out[256])
{
    int n = snprintf(out, 256, "%s", gua ? "gua " : "");
    for (int k = 0; k < MJ_KINDS; k++)
        for (int i = 0; i < h->concealed.n[k]; i++)
            n += snprintf(out + n, (size_t)(256 - n), "%s ", mj_kind_name(k));
    for (int i = 0; i < h->n_melds; i++)
        n += snprintf(out + n, (size_t)(256 - n), "| %d:%s ", h->melds[i].kind, mj_kind_name(h->melds[i].tile));
    snprintf(out + n, (size_t)(256 - n), "| ind %s win %s%s%s%s", mj_kind_name(h->indicator), mj_kind_name(h->win_tile),
             h->kong_replacement ? " kong_replacement" : "", h->first_draw ? " first_draw" : "", h->dealer ? " dealer" : "");
    return out;
}

START_TEST(test_the_engine_agrees_with_every_reading_enumerated)
{
    reference ref = {calloc(MEMO_SLOTS, sizeof(memo_entry))};
    ck_assert_ptr_nonnull(ref.memo);
    uint64_t r = 0x7469616e6a696e21ull + (uint64_t)_i;
    int compared = 0, wins = 0, dragons = 0, catches = 0, hun_diao = 0;
    for (int attempt = 0; compared < HANDS / 4; attempt++) {
        mj_winning_hand h;
        bool gua;
        if (!random_hand(&r, &h, &gua))
            continue;
        mj_options o = mj_options_default();
        o.gua_da_feng = gua;
        mj_score score;
        mj_status status = mj_score_hand(&o, &h, &score);
        ref_best best = reference_score(&ref, &h, gua);
        compared++;
        mj_status want = !best.win ? MJ_ERR_NOT_A_WIN : !best.found || best.fans == 0 ? MJ_ERR_UNDER_MINIMUM : MJ_OK;
        char got_names[128], want_names[128], text[256];
        ck_assert_msg(status == want, "%s: engine %s, reference %s (%u %s)", describe(&h, gua, text),
                      mj_status_name(status), mj_status_name(want), best.total,
                      mjt_names((mj_fan_set)best.fans, want_names));
        if (status != MJ_OK)
            continue;
        wins++;
        dragons += (score.fans & LG) != 0;
        catches += (score.fans & ZW) != 0;
        hun_diao += (score.fans & HD) != 0;
        ck_assert_msg(score.fan == best.total && score.fans == best.fans, "%s: engine %u (%s), reference %u (%s)",
                      describe(&h, gua, text), score.fan, mjt_names(score.fans, got_names), best.total,
                      mjt_names((mj_fan_set)best.fans, want_names));
        assert_reading_fits(&h, gua, &score);
    }
    /* the generator reaches every kind of case */
    ck_assert_int_gt(wins, HANDS / 8);
    ck_assert_int_gt(dragons, 20);
    ck_assert_int_gt(catches, 20);
    ck_assert_int_gt(hun_diao, 50);
    free(ref.memo);
}
END_TEST

static Suite *properties_suite(void)
{
    Suite *s = suite_create("mj_properties");
    TCase *reference = tcase_create("reference");
    tcase_set_timeout(reference, 240);
    tcase_add_loop_test(reference, test_the_engine_agrees_with_every_reading_enumerated, 0, 4);
    suite_add_tcase(s, reference);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(properties_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
