/*
 * tg_bot — the Tien Gow bot's strategy. It reads one seat's view and nothing else, and only ever
 * returns one of the engine's legal actions for that view, so it cannot play illegally.
 *
 * What it knows. Its tiles, every tile shown face up, how many tiles each seat holds and
 * everyone's stacks. The tiles it has not seen ("unseen": the others' hands and their face-down
 * discards) are taken as evenly spread, so a seat holding h of the U unseen tiles holds any one
 * of them with chance h / U. From that, survival(c, seats) estimates the chance that none of
 * those seats holds a combination that beats c (a seat barred from the final trick cannot).
 * Survival exactly 1 means sure: no combination of unseen tiles beats c.
 *
 * What a tile is worth keeping ("worth", 0..1): the best survival, as a lead, of a combination
 * of the hand that uses it, the single tile included. The "reserve" is the single most likely
 * to win a trick led now (the stronger tile on a tie); it is kept for the final trick, so
 * spending it earlier costs RESERVE_WORTH more.
 *
 * Every choice scores what giving up some tiles now brings (outcome(), in units):
 *   - the stacks of the trick if it wins it (survival × what those stacks save this seat: the
 *     first stack 2 units, as a seat without one pays 5; the second 1.5, as it makes the seat
 *     eligible to win the final trick; then 1 each), plus any bonus the trick pays (賀尊, 四大賀);
 *   - then, near the end (at most two tiles left, or tiles that make one combination), the
 *     chance of winning the final trick (endgame_chance: leading it if this trick is won, else
 *     following it; with two tiles one goes on the next trick and the other is the last) times
 *     what the hand is worth at the present stacks;
 *   - earlier in the hand, LEAD_WORTH for leading the next trick, minus the worth of the tiles
 *     spent, so weak tiles are discarded and strong ones kept.
 *
 * Leading: the whole hand if it is one combination (the final trick); else 至尊 (nothing beats
 * it, 賀尊 pays and the lead comes back); else the best-scoring combination.
 * Following the final trick: the beating play most likely to stand against the seats still to
 * act, times its special ending (擒 with 大頭六 over a led 丁三 pays qin_multiplier); else the
 * forced discard. Following any other trick: the best-scoring play or discard.
 *
 * Deterministic (the same view gives the same action), no allocation, a few microseconds.
 */
#include "tg_bot.h"

#include <string.h>

/* Leading the next trick, in units. */
#define LEAD_WORTH 0.5
/* Extra worth of the reserve tile spent before the final trick. */
#define RESERVE_WORTH 1.5
/* Breaks ties towards giving up the weaker tile (strength is at most 11). */
#define STRENGTH_TIE 0.001
/* Room for every row of the combination table (61). */
#define MAX_THREATS 64

typedef struct bot_info {
    const tg_view *view;
    int seat;
    int held;                 /* own tiles */
    uint8_t unseen[TG_KINDS]; /* not in own hand and never shown face up */
    int unseen_total;
    /* The combinations the unseen tiles could make (rows of the table) and, for each, the
     * chance that a seat does not hold it: survival() multiplies these. */
    int n_threats;
    const tg_combo *threat[MAX_THREATS];
    double misses[MAX_THREATS][TG_SEATS];
    int reserve;              /* kind kept for the final trick, or -1 */
    double worth[TG_KINDS];   /* of each kind held */
    double hand_value;        /* units between winning and losing the hand, at the present stacks */
    /* For each kind held, as the last tiles of the hand (see endgame_chance): */
    double wins_lead[TG_KINDS];      /* led now, stands */
    double beats_lead[TG_KINDS];     /* following a led single, beats it and stands */
    double final_lead[TG_KINDS];     /* led as the final single, stands */
    double final_follow[TG_KINDS];   /* kept to follow the final single, wins it */
} bot_info;

/* ---- what the seat knows ---------------------------------------------------------------- */

/* Tiles this seat has not seen: not in its hand, not played face up, not its own discards. */
static void count_unseen(bot_info *b)
{
    const tg_view *v = b->view;
    for (int k = 0; k < TG_KINDS; k++)
        b->unseen[k] = (uint8_t)(tg_tile(k)->copies - v->hand[k]);
    for (int i = 0; i < v->n_tricks; i++) {
        const tg_trick *t = &v->tricks[i];
        for (int j = 0; j < t->count; j++)
            for (int x = 0; x < t->actions[j].n; x++) {
                uint8_t k = t->actions[j].tiles[x]; /* TG_HIDDEN_TILE for others' discards */
                if (k < TG_KINDS && b->unseen[k] > 0)
                    b->unseen[k]--;
            }
    }
    b->unseen_total = 0;
    for (int k = 0; k < TG_KINDS; k++)
        b->unseen_total += b->unseen[k];
}

static bool within(const tg_combo *c, const uint8_t counts[TG_KINDS])
{
    uint8_t need[TG_KINDS] = {0};
    for (int i = 0; i < c->n; i++)
        if (++need[c->tiles[i]] > counts[c->tiles[i]])
            return false;
    return true;
}

/* The chance that a seat holding `held` tiles holds every tile of c, c being within the unseen. */
static double holds_chance(const bot_info *b, int held, const tg_combo *c)
{
    double per_tile = (double)held / (double)b->unseen_total;
    double p = 1.0;
    for (int i = 0; i < c->n; i++) {
        int kind = c->tiles[i];
        bool both_copies = i + 1 < c->n && c->tiles[i + 1] == kind; /* rows are ascending */
        if (both_copies) {
            p *= per_tile * per_tile;
            i++;
        } else if (b->unseen[kind] == 2) { /* either unseen copy will do */
            p *= 1.0 - (1.0 - per_tile) * (1.0 - per_tile);
        } else {
            p *= per_tile;
        }
    }
    return p;
}

/* Whether `beater` beats c in a trick: c as led (a led 文尊 yields only to 孖高腳) or as a follow. */
static bool beats(const bot_info *b, const tg_combo *beater, const tg_combo *c, bool led)
{
    if (c->type == TG_SUPREME)
        return false;
    if (led && b->view->options.wen_zun && tg_combo_is_wen_zun_pair(c))
        return beater->type == TG_PAIR_CIVIL && beater->tiles[0] == TG_LONG_LEG_SEVEN;
    return tg_combo_outranks(beater, c);
}

/* Lists the combinations of unseen tiles with each seat's chance of not holding them. */
static void list_threats(bot_info *b)
{
    b->n_threats = 0;
    if (b->unseen_total == 0)
        return;
    for (int r = 0; r < tg_combo_count() && b->n_threats < MAX_THREATS; r++) {
        const tg_combo *c = tg_combo_at(r);
        if (!within(c, b->unseen))
            continue;
        b->threat[b->n_threats] = c;
        for (int s = 0; s < TG_SEATS; s++)
            b->misses[b->n_threats][s] = s == b->seat ? 1.0 : 1.0 - holds_chance(b, b->view->held[s], c);
        b->n_threats++;
    }
}

/*
 * The chance that none of `seats` (a bit per seat) beats c, taking each unseen combination that
 * beats it as independent. On a final trick a seat with too few stacks cannot play (§3).
 */
static double survival(const bot_info *b, const tg_combo *c, bool led, unsigned seats, bool final)
{
    double p = 1.0;
    for (int i = 0; i < b->n_threats; i++) {
        const tg_combo *beater = b->threat[i];
        if (beater->n != c->n || !beats(b, beater, c, led))
            continue;
        for (int s = 0; s < TG_SEATS; s++)
            if ((seats & (1u << s)) && !(final && tg_barred_from_final(b->view->stacks[s], c->n)))
                p *= b->misses[i][s];
    }
    return p;
}

static unsigned others(const bot_info *b) { return 0xFu & ~(1u << b->seat); }

/* The seats still to act after this one in the open trick. */
static unsigned later_seats(const bot_info *b, const tg_trick *t)
{
    unsigned mask = 0;
    for (int step = 1; step < TG_SEATS - t->count; step++)
        mask |= 1u << ((b->seat + step) % TG_SEATS);
    return mask;
}

/* Worth of each kind held and the reserve (see the top of the file). */
static void assess_hand(bot_info *b)
{
    double best_single = -1.0;
    b->reserve = -1;
    for (int k = 0; k < TG_KINDS; k++)
        b->worth[k] = 0.0;
    for (int r = 0; r < tg_combo_count(); r++) {
        const tg_combo *c = tg_combo_at(r);
        if (c->type == TG_SUPREME || !within(c, b->view->hand))
            continue;
        double s = survival(b, c, true, others(b), false);
        for (int i = 0; i < c->n; i++)
            if (s > b->worth[c->tiles[i]])
                b->worth[c->tiles[i]] = s;
        /* singles come strongest first within each suit, civil before military: > keeps the stronger */
        if (c->n == 1 && s > best_single) {
            best_single = s;
            b->reserve = c->tiles[0];
        }
    }
    b->hand_value = 0.0;
    for (int s = 0; s < TG_SEATS; s++) /* the others' payments plus this seat's own, avoided */
        b->hand_value += tg_loser_units(b->view->stacks[s]);
}

/* ---- what an action brings ------------------------------------------------------------- */

/* What n more stacks save this seat, in units. */
static double stacks_worth(const bot_info *b, int n)
{
    double worth = 0.0;
    for (int i = b->view->stacks[b->seat]; i < b->view->stacks[b->seat] + n; i++)
        worth += i == 0 ? 2.0 : i == 1 ? 1.5 : 1.0;
    return worth;
}

/* Bonus units a play brings (rules §5), before the banker factor; s is its chance to stand. */
static double bonus_worth(const bot_info *b, const tg_trick *t, const tg_combo *c, double s)
{
    const tg_options *o = &b->view->options;
    double units = 0.0;
    if (t == NULL && c->type == TG_SUPREME)
        units += 3 * 2.0; /* 賀尊 from each other seat */
    if (t == NULL && o->wen_zun && tg_combo_is_wen_zun_pair(c))
        units += s * 3 * 2.0 - (1.0 - s) * 2.0; /* 賀尊, or pay the capturer's 擒尊 */
    if (t != NULL && t->guard == TG_GUARD_WEN_ZUN)
        units += 3 * 2.0; /* 擒尊: capturing the 文尊 */
    if (c->type == TG_QUARTET) /* 四大賀 from each other seat */
        units += 3 * 4.0 * (o->quartet_bonus == TG_QUARTET_BONUS_APPEARANCE ? 1.0 : s);
    return units;
}

/* The worth given up with these tiles. */
static double spend(const bot_info *b, const tg_action *a)
{
    double w = 0.0;
    for (int i = 0; i < a->n; i++) {
        int k = a->tiles[i];
        w += b->worth[k] + tg_tile_strength(k) * STRENGTH_TIE;
        if (k == b->reserve && b->held > a->n)
            w += RESERVE_WORTH;
    }
    return w;
}

/* The chance that tile x, following a led single, beats it and stands: the led tile must be of
 * x's suit and weaker (all unseen tiles equally likely to be led), and no other seat beats x. */
static double follow_single_chance(const bot_info *b, int x, bool final)
{
    int weaker = 0;
    for (int k = 0; k < TG_KINDS; k++)
        if (tg_tile_suit(k) == tg_tile_suit(x) && tg_tile_strength(k) < tg_tile_strength(x))
            weaker += b->unseen[k];
    if (weaker == 0)
        return 0.0; /* also when every tile has been seen */
    tg_combo single = tg_classify((const uint8_t[]){(uint8_t)x}, 1);
    return (double)weaker / (double)b->unseen_total * survival(b, &single, false, others(b), final);
}

/* The chances of each kind held as one of the hand's last tiles (bot_info). */
static void assess_last_tiles(bot_info *b)
{
    bool barred = tg_barred_from_final(b->view->stacks[b->seat], 1);
    for (int k = 0; k < TG_KINDS; k++) {
        if (!b->view->hand[k])
            continue;
        tg_combo single = tg_classify((const uint8_t[]){(uint8_t)k}, 1);
        b->wins_lead[k] = survival(b, &single, true, others(b), false);
        b->final_lead[k] = survival(b, &single, true, others(b), true);
        b->beats_lead[k] = follow_single_chance(b, k, false);
        b->final_follow[k] = barred ? 0.0 : follow_single_chance(b, k, true);
    }
}

/*
 * The chance of winning the hand when the seat holds only `rest` (1 or 2 tiles, or one
 * combination) and leads the next trick or follows it; -1 if the model does not cover it.
 * With two tiles x and y, one of them (x) goes on the next trick, and the winner of that trick
 * leads the final one: y is then led (x stood) or follows. The leader may instead lead both
 * when they make a combination. Following, the seat is taken to meet a led single.
 */
static double endgame_chance(const bot_info *b, const uint8_t *rest, int left, bool leads)
{
    if (left == 1)
        return leads ? b->final_lead[rest[0]] : b->final_follow[rest[0]];
    tg_combo whole = tg_classify(rest, left);
    double best = -1.0;
    if (leads && whole.type != TG_COMBO_NONE)
        best = survival(b, &whole, true, others(b), true);
    if (left != 2)
        return best;
    for (int i = 0; i < 2; i++) {
        int x = rest[i], y = rest[1 - i];
        double next = leads ? b->wins_lead[x] : b->beats_lead[x];
        double chance = next * b->final_lead[y] + (1.0 - next) * b->final_follow[y];
        if (chance > best)
            best = chance;
    }
    return best;
}

/* The tiles left after an action, ascending; returns how many. */
static int tiles_left(const bot_info *b, const tg_action *a, uint8_t out[TG_HAND_TILES])
{
    uint8_t counts[TG_KINDS];
    memcpy(counts, b->view->hand, sizeof counts);
    for (int i = 0; i < a->n; i++)
        counts[a->tiles[i]]--;
    int n = 0;
    for (int k = 0; k < TG_KINDS; k++)
        for (int c = 0; c < counts[k] && n < TG_HAND_TILES; c++)
            out[n++] = (uint8_t)k;
    return n;
}

/*
 * What the seat expects from action a on trick t (NULL: leading), which wins with chance s;
 * never for the final trick itself. See the top of the file.
 */
static double outcome(const bot_info *b, const tg_trick *t, const tg_action *a, double s)
{
    double score = 0.0;
    if (a->kind == TG_PLAY) {
        tg_combo c = tg_classify(a->tiles, a->n);
        score = s * stacks_worth(b, a->n) + bonus_worth(b, t, &c, s);
    }
    uint8_t rest[TG_HAND_TILES];
    int left = tiles_left(b, a, rest);
    double if_won = endgame_chance(b, rest, left, true), if_lost = endgame_chance(b, rest, left, false);
    if (if_won < 0.0) /* earlier in the hand */
        return score + s * LEAD_WORTH - spend(b, a);
    return score + (s * if_won + (1.0 - s) * (if_lost > 0.0 ? if_lost : 0.0)) * b->hand_value;
}

/* ---- choices ----------------------------------------------------------------------------- */

/* The first legal action of this kind and size (and combination type, unless TG_COMBO_NONE), or -1. */
static int find_action(const tg_action *legal, int count, tg_action_kind kind, int n, tg_combo_type type)
{
    for (int i = 0; i < count; i++)
        if (legal[i].kind == kind && (n == 0 || legal[i].n == n) &&
            (type == TG_COMBO_NONE || tg_classify(legal[i].tiles, legal[i].n).type == type))
            return i;
    return -1;
}

static tg_action choose_lead(const bot_info *b, const tg_action *legal, int count)
{
    int whole = find_action(legal, count, TG_PLAY, b->held, TG_COMBO_NONE);
    if (whole >= 0)
        return legal[whole]; /* every tile in one combination: the final trick */
    int supreme = find_action(legal, count, TG_PLAY, 2, TG_SUPREME);
    if (supreme >= 0)
        return legal[supreme];
    int best = 0;
    double best_score = -1e9;
    for (int i = 0; i < count; i++) {
        tg_combo c = tg_classify(legal[i].tiles, legal[i].n);
        double s = survival(b, &c, true, others(b), false);
        double score = outcome(b, NULL, &legal[i], s) + c.n * STRENGTH_TIE; /* more stacks on a tie */
        if (score > best_score) {
            best_score = score;
            best = i;
        }
    }
    return legal[best];
}

/* The final trick: win it if possible (nothing is saved by discarding), else the forced discard. */
static tg_action choose_final_follow(const bot_info *b, const tg_trick *t, const tg_action *legal, int count)
{
    int best = -1;
    double best_score = 0.0;
    for (int i = 0; i < count; i++) {
        if (legal[i].kind != TG_PLAY)
            continue;
        tg_combo c = tg_classify(legal[i].tiles, legal[i].n);
        int led = t->actions[0].tiles[0];
        bool qin = t->n == 1 && ((led == TG_THREE_12 && c.tiles[0] == TG_SIX_24) ||
                                 (b->view->options.wen_zun && led == TG_COPPER_HAMMER &&
                                  c.tiles[0] == TG_LONG_LEG_SEVEN));
        double factor = qin ? b->view->options.qin_multiplier : c.type == TG_QUARTET ? 4.0 : 1.0;
        double score = survival(b, &c, false, later_seats(b, t), true) * factor + c.rank * STRENGTH_TIE;
        if (best < 0 || score > best_score) {
            best_score = score;
            best = i;
        }
    }
    return legal[best >= 0 ? best : find_action(legal, count, TG_DISCARD, 0, TG_COMBO_NONE)];
}

static tg_action choose_follow(const bot_info *b, const tg_trick *t, const tg_action *legal, int count)
{
    if (t->final)
        return choose_final_follow(b, t, legal, count);
    int best = 0;
    double best_score = -1e9;
    for (int i = 0; i < count; i++) {
        double s = 0.0;
        if (legal[i].kind == TG_PLAY) {
            tg_combo c = tg_classify(legal[i].tiles, legal[i].n);
            s = t->guard == TG_GUARD_WEN_ZUN ? 1.0 : survival(b, &c, false, later_seats(b, t), false);
        }
        double score = outcome(b, t, &legal[i], s);
        if (score > best_score) {
            best_score = score;
            best = i;
        }
    }
    return legal[best];
}

bool tg_bot_choose(const tg_view *v, tg_action *out)
{
    tg_action legal[TG_MAX_ACTIONS];
    int count = tg_view_legal_actions(v, legal, TG_MAX_ACTIONS);
    if (count == 0)
        return false;
    bot_info b = {.view = v, .seat = v->seat, .held = v->held[v->seat]};
    count_unseen(&b);
    list_threats(&b);
    assess_hand(&b);
    assess_last_tiles(&b);
    const tg_trick *t = tg_view_open_trick(v);
    *out = t == NULL ? choose_lead(&b, legal, count) : choose_follow(&b, t, legal, count);
    return true;
}
