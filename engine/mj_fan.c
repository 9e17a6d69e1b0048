/*
 * mj_fan — the fan table of §4 and §6 as data, and the best-reading search described in mj_fan.h.
 */
#include "mj_fan.h"

#include <string.h>

static const struct {
    const char *zh;
    const char *name;
    uint8_t value;     /* normal preset */
    uint8_t gua_value; /* 刮大风 (§6); 0: does not count */
} FANS[MJ_FAN_COUNT] = {
    [MJ_FAN_HUN_DIAO] = {"混儿吊", "hun_diao", 2, 2},
    [MJ_FAN_SU] = {"素", "su", 2, 4},
    [MJ_FAN_ZHUO_WU] = {"捉五", "zhuo_wu", 3, 3},
    [MJ_FAN_GANG_KAI] = {"杠开", "gang_kai", 2, 2},
    [MJ_FAN_LONG] = {"龙", "long", 4, 4},
    [MJ_FAN_BEN_HUN] = {"本混", "ben_hun", 2, 2},
    [MJ_FAN_TIAN_HU] = {"天胡", "tian_hu", 4, 0},
    [MJ_FAN_DI_HU] = {"地胡", "di_hu", 4, 4},
};

/* The one pair of fans that add before the product (捉五龙: 3 + 4 = 7). */
static const mj_fan_set ADDED_TOGETHER = MJ_FAN_BIT(MJ_FAN_ZHUO_WU) | MJ_FAN_BIT(MJ_FAN_LONG);

/* Under 刮大风 this fan alone is no win (§6). */
static const mj_fan_set GUA_NOT_ALONE = MJ_FAN_BIT(MJ_FAN_HUN_DIAO);

const char *mj_fan_zh(mj_fan fan) { return (unsigned)fan < MJ_FAN_COUNT ? FANS[fan].zh : ""; }
const char *mj_fan_name(mj_fan fan) { return (unsigned)fan < MJ_FAN_COUNT ? FANS[fan].name : ""; }

int mj_fan_value(mj_fan fan, const mj_options *options)
{
    if ((unsigned)fan >= MJ_FAN_COUNT)
        return 0;
    return options->gua_da_feng ? FANS[fan].gua_value : FANS[fan].value;
}

uint32_t mj_fan_total(mj_fan_set fans, const mj_options *options)
{
    uint32_t product = 1, added = 0;
    for (unsigned left = fans & ((1u << MJ_FAN_COUNT) - 1); left != 0; left &= left - 1) {
        int f = __builtin_ctz(left);
        if (ADDED_TOGETHER & MJ_FAN_BIT(f))
            added += (uint32_t)mj_fan_value((mj_fan)f, options);
        else
            product *= (uint32_t)mj_fan_value((mj_fan)f, options);
    }
    return added > 0 ? product * added : product;
}

/* --- the search --- */

/* Where the winning tile goes in a reading. */
typedef enum {
    PLACE_ANY = 0,      /* wherever the rest of the reading puts it: no 混儿吊, no 捉五 */
    PLACE_WILD_PAIR,    /* 单混吊: the pair with one wild */
    PLACE_WILD_SET,     /* 双混吊: a set with two wilds */
    PLACE_CATCH,        /* 捉五: 4-5-6万 in the middle, naturals for 4 and 6 where the hand has them */
    PLACE_CATCH_WILDS,  /* 双混儿捉五: 4-5-6万 in the middle, 4 and 6 both wilds */
    PLACE_COUNT
} win_place;

/* The dragon of a reading: none, 1-9 of a number suit (mj_suit), or 1-9万 sharing 捉五's 4-5-6. */
enum { DRAGON_NONE = -1, DRAGON_SHARED = MJ_NUMBER_SUITS };

typedef struct candidate {
    int8_t place;
    int8_t dragon;
    mj_fan_set fans;
    uint32_t total;
} candidate;

#define MAX_CANDIDATES (PLACE_COUNT * (MJ_NUMBER_SUITS + 2) * 2)

typedef struct search {
    const mj_options *options;
    mj_pool base;          /* the concealed tiles with the winning tile */
    int win;
    bool win_wild;
    int spare_wilds;       /* wilds besides the winning tile */
    mj_suit wild_suit;     /* the wilds' number suit, or MJ_SUIT_HONOR */
    int8_t dragon_gaps[MJ_NUMBER_SUITS + 1]; /* ranks of each suit's dragon the hand has no natural for;
                                               [DRAGON_SHARED]: 1-3 and 7-9万 only */
    int shown_as;          /* what a group of wilds alone is shown standing for */
    mj_fan_set hand_fans;  /* 素, 杠开, 天胡, 地胡: the same in every reading */
} search;

static void search_init(search *s, const mj_options *options, const mj_winning_hand *hand)
{
    mj_kind_set wild = mj_wild_kinds(hand->indicator, options->gua_da_feng);
    mj_counts natural = hand->concealed;
    natural.n[hand->win_tile]++;
    int wilds = 0;
    s->shown_as = mj_next_kind(hand->indicator);
    for (int k = MJ_KINDS - 1; k >= 0; k--)
        if (mj_kind_set_has(wild, k) && natural.n[k] > 0) {
            wilds += natural.n[k];
            natural.n[k] = 0;
            s->shown_as = k;
        }
    s->options = options;
    mj_pool_init(&s->base, &natural, wilds);
    s->win = hand->win_tile;
    s->win_wild = mj_kind_set_has(wild, hand->win_tile);
    if (s->win_wild)
        s->shown_as = hand->win_tile;
    s->spare_wilds = wilds - (s->win_wild ? 1 : 0);
    s->wild_suit = mj_wild_suit(hand->indicator);
    for (int dragon = 0; dragon <= DRAGON_SHARED; dragon++) {
        mj_suit suit = dragon == DRAGON_SHARED ? MJ_SUIT_M : (mj_suit)dragon;
        s->dragon_gaps[dragon] = 0;
        for (int rank = 1; rank <= 9; rank++) {
            bool caught = dragon == DRAGON_SHARED && rank >= 4 && rank <= 6; /* 捉五's own chow */
            if (!caught && s->base.natural.n[mj_number_kind(suit, rank)] == 0)
                s->dragon_gaps[dragon]++;
        }
    }

    mj_counts all;
    mj_winning_hand_tiles(hand, &all);
    bool any_wild = false;
    for (int k = 0; k < MJ_KINDS; k++)
        any_wild |= all.n[k] > 0 && mj_kind_set_has(wild, k);
    mj_fan_set fans = 0;
    if (!any_wild)
        fans |= MJ_FAN_BIT(MJ_FAN_SU);
    if (hand->kong_replacement)
        fans |= MJ_FAN_BIT(MJ_FAN_GANG_KAI);
    if (hand->first_draw)
        fans |= MJ_FAN_BIT(hand->dealer ? MJ_FAN_TIAN_HU : MJ_FAN_DI_HU);
    for (int f = 0; f < MJ_FAN_COUNT; f++) /* a fan worth nothing under these options (天胡 in 刮大风) */
        if (mj_fan_value((mj_fan)f, options) == 0)
            fans &= (mj_fan_set)~MJ_FAN_BIT(f);
    s->hand_fans = fans;
}

static bool can_catch(const search *s) { return s->win_wild || s->win == MJ_5M; }

static bool place_possible(const search *s, win_place place)
{
    const uint8_t *n = s->base.natural.n;
    switch (place) {
    case PLACE_ANY:
        return true;
    case PLACE_WILD_PAIR:
        return s->spare_wilds >= 1;
    case PLACE_WILD_SET:
        return s->spare_wilds >= 2;
    case PLACE_CATCH:
        return can_catch(s);
    case PLACE_CATCH_WILDS: /* only when it differs from PLACE_CATCH, which takes naturals first */
        return can_catch(s) && s->spare_wilds >= 2 && (n[MJ_4M] > 0 || n[MJ_6M] > 0);
    default:
        return false;
    }
}

/* The fans a place and a dragon give in a reading, before the conflict rule. */
static mj_fan_set reading_fans(const search *s, win_place place, int dragon)
{
    const uint8_t *n = s->base.natural.n;
    mj_fan_set fans = 0;
    bool catch_all_wild = place == PLACE_CATCH && n[MJ_4M] == 0 && n[MJ_6M] == 0;
    if (place == PLACE_WILD_PAIR || place == PLACE_WILD_SET || place == PLACE_CATCH_WILDS || catch_all_wild)
        fans |= MJ_FAN_BIT(MJ_FAN_HUN_DIAO);
    if (place == PLACE_CATCH || place == PLACE_CATCH_WILDS)
        fans |= MJ_FAN_BIT(MJ_FAN_ZHUO_WU);
    if (dragon != DRAGON_NONE) {
        mj_suit suit = dragon == DRAGON_SHARED ? MJ_SUIT_M : (mj_suit)dragon;
        fans |= MJ_FAN_BIT(MJ_FAN_LONG);
        if (suit == s->wild_suit)
            fans |= MJ_FAN_BIT(MJ_FAN_BEN_HUN);
    }
    return fans;
}

/* True if candidate a ranks before b: a higher total, or on equal totals the first differing fan. */
static bool ranks_before(const candidate *a, const candidate *b)
{
    if (a->total != b->total)
        return a->total > b->total;
    mj_fan_set differ = a->fans ^ b->fans;
    return (a->fans & differ & (mj_fan_set)-differ) != 0;
}

static void add_candidate(const search *s, candidate *list, int *n, win_place place, int dragon, mj_fan_set fans)
{
    fans |= s->hand_fans;
    if (s->options->gua_da_feng && fans == GUA_NOT_ALONE)
        return;
    candidate c = {(int8_t)place, (int8_t)dragon, fans, mj_fan_total(fans, s->options)};
    int i = *n;
    for (; i > 0 && ranks_before(&c, &list[i - 1]); i--)
        list[i] = list[i - 1];
    list[i] = c;
    (*n)++;
}

/* The wilds a place takes at least (the winning tile counted when it is one). */
static int place_wilds(const search *s, win_place place)
{
    const uint8_t *n = s->base.natural.n;
    int win = s->win_wild ? 1 : 0;
    switch (place) {
    case PLACE_WILD_PAIR: return win + 1;
    case PLACE_WILD_SET: return win + 2;
    case PLACE_CATCH: return win + (n[MJ_4M] == 0) + (n[MJ_6M] == 0);
    case PLACE_CATCH_WILDS: return win + 2;
    default: return 0;
    }
}

/*
 * True if a place and a dragon surely need more wilds than the hand has: the place's own, the
 * dragon's gaps (taking tiles only adds gaps), and the sets of every suit neither touches, with
 * the pair (if still to come) where it saves most. Those suits' costs are the base pool's, exact up
 * to the hand's wilds and never above the truth, so the sum never exceeds what the reading needs.
 */
static bool cannot_pay(const search *s, win_place place, int dragon)
{
    if (place == PLACE_ANY && dragon == DRAGON_NONE)
        return false;
    unsigned touched = 0;
    if ((place == PLACE_WILD_PAIR || place == PLACE_WILD_SET) && !s->win_wild)
        touched |= 1u << mj_kind_suit(s->win);
    if (place == PLACE_CATCH || place == PLACE_CATCH_WILDS)
        touched |= 1u << MJ_SUIT_M;
    int need = place_wilds(s, place), saving = 0;
    if (dragon != DRAGON_NONE) {
        touched |= 1u << (dragon == DRAGON_SHARED ? MJ_SUIT_M : dragon);
        need += s->dragon_gaps[dragon];
    }
    for (int suit = 0; suit < 4; suit++) {
        if (touched & (1u << suit))
            continue;
        need += s->base.sets_cost[suit];
        int save = s->base.sets_cost[suit] - s->base.pair_cost[suit]; /* MJ_NO_WAY: negative */
        if (place != PLACE_WILD_PAIR && save > saving)
            saving = save;
    }
    return need - saving > s->base.wilds;
}

static int list_candidates(const search *s, candidate *list)
{
    int n = 0;
    for (int place = 0; place < PLACE_COUNT; place++) {
        if (!place_possible(s, (win_place)place))
            continue;
        bool catches = place == PLACE_CATCH || place == PLACE_CATCH_WILDS;
        for (int dragon = DRAGON_NONE; dragon <= DRAGON_SHARED; dragon++) {
            if (dragon == DRAGON_SHARED && !catches)
                continue;
            if (cannot_pay(s, (win_place)place, dragon))
                continue;
            mj_fan_set fans = reading_fans(s, (win_place)place, dragon);
            bool both = (fans & MJ_FAN_BIT(MJ_FAN_HUN_DIAO)) && dragon == DRAGON_SHARED;
            if (!both) {
                add_candidate(s, list, &n, (win_place)place, dragon, fans);
                continue;
            }
            /* 混儿吊's group is the dragon's 4-5-6: the reading counts one of the two */
            mj_fan_set dragon_fans = MJ_FAN_BIT(MJ_FAN_LONG) | MJ_FAN_BIT(MJ_FAN_BEN_HUN);
            add_candidate(s, list, &n, (win_place)place, dragon, fans & (mj_fan_set)~MJ_FAN_BIT(MJ_FAN_HUN_DIAO));
            add_candidate(s, list, &n, (win_place)place, dragon, fans & (mj_fan_set)~dragon_fans);
        }
    }
    return n;
}

typedef struct groups_out {
    mj_group *groups; /* NULL: only the feasibility is wanted */
    int n;
} groups_out;

static void record(groups_out *out, mj_group_kind kind, int tile, int wilds)
{
    if (out->groups != NULL)
        out->groups[out->n++] = (mj_group){(uint8_t)kind, (uint8_t)tile, (uint8_t)wilds};
}

/* One tile of this kind: a natural if the pool has one, else a wild; returns 1 for a wild. */
static int take(mj_pool *pool, int kind) { return mj_pool_take(pool, kind) ? 0 : 1; }

/* Takes the winning tile's group and the dragon out of the pool; false if the wilds run short. */
static bool apply(const search *s, const candidate *c, mj_pool *pool, bool *with_pair, groups_out *out)
{
    *pool = s->base;
    *with_pair = true;
    unsigned touched = 0;
    if (c->place == PLACE_WILD_PAIR || c->place == PLACE_WILD_SET) {
        int size = c->place == PLACE_WILD_PAIR ? 2 : 3;
        if (!s->win_wild) {
            take(pool, s->win);
            touched |= 1u << mj_kind_suit(s->win);
        }
        int wilds = s->win_wild ? size : size - 1;
        pool->wilds -= wilds;
        record(out, size == 2 ? MJ_GROUP_PAIR : MJ_GROUP_PUNG, s->win, wilds);
        *with_pair = size == 3;
    } else if (c->place == PLACE_CATCH || c->place == PLACE_CATCH_WILDS) {
        int wilds = 0;
        if (s->win_wild) {
            pool->wilds--;
            wilds++;
        } else {
            take(pool, MJ_5M);
        }
        if (c->place == PLACE_CATCH) {
            wilds += take(pool, MJ_4M);
            wilds += take(pool, MJ_6M);
        } else {
            pool->wilds -= 2;
            wilds += 2;
        }
        touched |= 1u << MJ_SUIT_M;
        record(out, MJ_GROUP_CHOW, MJ_4M, wilds);
    }
    if (c->dragon != DRAGON_NONE) {
        mj_suit suit = c->dragon == DRAGON_SHARED ? MJ_SUIT_M : (mj_suit)c->dragon;
        for (int low = 1; low <= 7; low += 3) {
            if (c->dragon == DRAGON_SHARED && low == 4)
                continue; /* the 捉五 chow already taken */
            int wilds = 0;
            for (int rank = low; rank < low + 3; rank++)
                wilds += take(pool, mj_number_kind(suit, rank));
            record(out, MJ_GROUP_CHOW, mj_number_kind(suit, low), wilds);
        }
        touched |= 1u << suit;
    }
    if (pool->wilds < 0)
        return false;
    for (int suit = 0; suit < 4; suit++)
        if (touched & (1u << suit))
            mj_pool_update_suit(pool, (mj_suit)suit);
    return true;
}

static bool feasible(const search *s, const candidate *c)
{
    mj_pool pool;
    bool with_pair;
    groups_out none = {NULL, 0};
    return apply(s, c, &pool, &with_pair, &none) && mj_pool_complete(&pool, with_pair);
}

/* Sets in tile order, then the pair: the order a reading is written in. */
static bool group_before(const mj_group *a, const mj_group *b)
{
    if ((a->kind == MJ_GROUP_PAIR) != (b->kind == MJ_GROUP_PAIR))
        return b->kind == MJ_GROUP_PAIR;
    return a->tile != b->tile ? a->tile < b->tile : a->kind < b->kind;
}

static void sort_groups(mj_group *groups, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && group_before(&groups[j], &groups[j - 1]); j--) {
            mj_group t = groups[j];
            groups[j] = groups[j - 1];
            groups[j - 1] = t;
        }
}

/* The concealed groups of the candidate's reading in order, then the melds as given. */
static void write_reading(const search *s, const mj_winning_hand *hand, const candidate *c, mj_score *out)
{
    mj_pool pool;
    bool with_pair;
    groups_out groups = {out->groups, 0};
    apply(s, c, &pool, &with_pair, &groups);
    int rest = mj_pool_reading(&pool, with_pair, s->shown_as, out->groups + groups.n);
    int n = groups.n + (rest > 0 ? rest : 0);
    sort_groups(out->groups, n);
    mj_kind_set wild = mj_wild_kinds(hand->indicator, s->options->gua_da_feng);
    for (int i = 0; i < hand->n_melds && n < MJ_MAX_GROUPS; i++) {
        const mj_meld *m = &hand->melds[i];
        bool kong = mj_meld_is_kong(m);
        out->groups[n++] = (mj_group){.kind = kong ? MJ_GROUP_KONG : MJ_GROUP_PUNG,
                                      .tile = m->tile,
                                      .wilds = (uint8_t)(mj_kind_set_has(wild, m->tile) ? mj_meld_size(m) : 0)};
    }
    out->n_groups = (uint8_t)n;
}

mj_status mj_score_hand(const mj_options *options, const mj_winning_hand *hand, mj_score *out)
{
    mj_status status = mj_winning_hand_check(options, hand, NULL);
    if (status != MJ_OK)
        return status;
    search s;
    search_init(&s, options, hand);
    if (!mj_pool_complete(&s.base, true))
        return MJ_ERR_NOT_A_WIN;

    candidate list[MAX_CANDIDATES];
    int n = list_candidates(&s, list);
    for (int i = 0; i < n; i++) {
        if (!feasible(&s, &list[i]))
            continue;
        if (list[i].fans == 0)
            return MJ_ERR_UNDER_MINIMUM;
        memset(out, 0, sizeof *out);
        out->fan = list[i].total;
        out->fans = list[i].fans;
        write_reading(&s, hand, &list[i], out);
        return MJ_OK;
    }
    return MJ_ERR_UNDER_MINIMUM; /* only 混儿吊 alone under 刮大风 was left out of the list */
}
