/*
 * tg_hand — one hand of Tien Gow from the deal to the settlement (rules/tiengow.md §3-§6).
 *
 * The state is plain values (no pointers), so it copies cheaply for bots and replays. A hand
 * starts from a deal (tg_deal makes one from a seed), checks natural hands, then takes
 * actions one at a time: tg_check_action says precisely why an action is refused and
 * tg_apply_action changes the state only when the action is legal. Same options, deal and
 * actions give the same state, bit for bit. No I/O, no clock, no allocation.
 */
#ifndef TG_HAND_H
#define TG_HAND_H

#include <stdbool.h>
#include <stdint.h>

#include "tg_combo.h"
#include "tg_options.h"
#include "tg_settle.h"
#include "tg_status.h"
#include "tg_tiles.h"

#define TG_MAX_TRICKS 8
#define TG_MAX_BONUSES 24
#define TG_MAX_ACTIONS 160 /* more than any seat ever has: 61 leads, or 70 discards + plays */

typedef enum { TG_PLAY = 0, TG_DISCARD = 1 } tg_action_kind;

typedef struct tg_action {
    uint8_t seat;
    uint8_t kind;     /* tg_action_kind */
    uint8_t n;        /* 1..4 */
    uint8_t tiles[4]; /* kinds, ascending; TG_HIDDEN_TILE in a view of another seat's discard */
} tg_action;

#define TG_HIDDEN_TILE 255

/* What may still beat the trick's best combination. */
typedef enum {
    TG_GUARD_OPEN = 0, /* a higher combination of the same type */
    TG_GUARD_WEN_ZUN,  /* a led 文尊 (wen_zun on): only the pair of 高腳七 */
    TG_GUARD_CLOSED,   /* a led 至尊, or a captured 文尊: nothing */
} tg_guard;

typedef struct tg_trick {
    uint8_t leader;
    uint8_t n;          /* tiles each seat plays or discards */
    uint8_t count;      /* actions taken so far, 1..4 */
    uint8_t winner;     /* seat of the best combination so far */
    uint8_t guard;      /* tg_guard */
    bool final;         /* this trick empties every hand */
    bool wen_zun_captured;
    tg_combo best;
    tg_action actions[TG_SEATS]; /* in play order from the leader */
} tg_trick;

typedef enum { TG_BONUS_HE_ZUN = 0, TG_BONUS_QIN_ZUN, TG_BONUS_QUARTET } tg_bonus_kind;

typedef struct tg_bonus {
    uint8_t kind;   /* tg_bonus_kind */
    uint8_t trick;  /* index of the trick that paid it */
    uint8_t from, to;
    int64_t units;  /* > 0, banker factor included */
} tg_bonus;

typedef struct tg_result {
    uint8_t winner;
    uint8_t stacks[TG_SEATS];
    uint8_t endings;        /* TG_END_* */
    int8_t qin_captured;    /* -1 unless 擒 */
    tg_settlement settlement;
    int64_t net[TG_SEATS];  /* bonuses + settlement */
    uint8_t next_banker;
    uint32_t next_multiplier;
} tg_result;

typedef enum { TG_PHASE_PLAY = 0, TG_PHASE_OVER = 1 } tg_phase;

typedef struct tg_state {
    tg_options options;
    uint8_t banker;
    uint32_t multiplier;
    uint8_t phase;                    /* tg_phase */
    int8_t natural_seat;              /* holder of a natural hand, or -1 */
    uint8_t deal[TG_SEATS][TG_HAND_TILES]; /* as dealt, ascending */
    uint8_t hand[TG_SEATS][TG_KINDS]; /* tiles still held, counted by kind */
    uint8_t held[TG_SEATS];
    uint8_t stacks[TG_SEATS];
    uint8_t to_act;
    uint8_t n_tricks;                 /* the last one is open while its count < 4 */
    tg_trick tricks[TG_MAX_TRICKS];
    uint8_t n_bonuses;
    tg_bonus bonuses[TG_MAX_BONUSES];
    int64_t bonus_net[TG_SEATS];
    uint16_t n_actions;               /* accepted so far */
    tg_result result;                 /* valid once phase is TG_PHASE_OVER */
} tg_state;

/* Shuffles the 32 tiles from a seed and deals 8 to each seat (each hand ascending). */
void tg_deal(uint64_t seed, uint8_t deal[TG_SEATS][TG_HAND_TILES]);

/* The first banker of a table, by a roll of two dice from the seed counted from seat 0. */
int tg_first_banker(uint64_t seed);

/* TG_OK if the four hands are 8 valid tiles each and together exactly the 32 tiles. */
tg_status tg_check_deal(const uint8_t deal[TG_SEATS][TG_HAND_TILES]);

/* TG_END_EIGHT, TG_END_SEVEN or 0: the natural hand (§6) these 8 dealt tiles make. */
uint8_t tg_natural_hand(const tg_options *options, const uint8_t tiles[TG_HAND_TILES]);

/* Starts a hand; if a seat holds a natural hand the hand is over at once. */
tg_status tg_start(tg_state *state, const tg_options *options, int banker, uint32_t multiplier,
                   const uint8_t deal[TG_SEATS][TG_HAND_TILES]);

/* An action with its tiles sorted; n must be 1..4 and tiles hold n kinds. */
tg_action tg_action_make(int seat, tg_action_kind kind, const uint8_t *tiles, int n);

tg_status tg_check_action(const tg_state *state, const tg_action *action);
tg_status tg_apply_action(tg_state *state, const tg_action *action);

/* Every legal action of the seat now (none if it is not its turn); returns how many. */
int tg_legal_actions(const tg_state *state, int seat, tg_action *out, int cap);

static inline bool tg_is_over(const tg_state *state) { return state->phase == TG_PHASE_OVER; }

/* The trick being played, or NULL between tricks and after the hand. */
const tg_trick *tg_open_trick(const tg_state *state);

/* The seat's held tiles, ascending; returns how many. */
int tg_held_tiles(const tg_state *state, int seat, uint8_t out[TG_HAND_TILES]);

/* True if a seat with these stacks may only discard on a final trick of n tiles (§3). */
static inline bool tg_barred_from_final(int stacks, int n) { return stacks + n < 2; }

/*
 * The same two rules from what the seat itself knows (its tiles, its stacks, the open trick or
 * NULL when it leads), so that a bot playing from its view uses exactly the engine's rules.
 */
tg_status tg_check_for_seat(const tg_options *options, const uint8_t hand[TG_KINDS], int stacks,
                            const tg_trick *open, const tg_action *action);
int tg_legal_for_seat(const tg_options *options, const uint8_t hand[TG_KINDS], int seat, int stacks,
                      const tg_trick *open, tg_action *out, int cap);

#endif
