/*
 * game — the small interface every game engine offers the table rooms (DESIGN.md): check the
 * options, the game's own table state carried from hand to hand, start a hand from a seed, which
 * seats must decide now (and what kind of decision), apply a seat's action, the bot's and the
 * timeout's action, the views (a seat, a spectator, an admin), whether the hand is over and its
 * result. A room holds a hand as an opaque pointer and speaks to it in JSON, the wire format, so
 * a second game is one more game_ops (listed in game_registry.c) and the rooms, store, history
 * and ledger need no special case.
 *
 * Decisions. At any moment a hand has zero or more seats that owe a decision (game_decision):
 * one seat's turn, several seats in a claim window, or every seat in a pre-hand choice. A seat
 * may act only while it owes a decision; the engine collects simultaneous decisions and resolves
 * them itself (priorities, passes) when the last one arrives. The room runs one timer per deciding
 * seat: a bot's short pause for a seat a bot covers, the decision's time for a person; when it
 * runs out the room plays timeout_action (or bot_action) for that seat. A decision whose choice
 * must stay private until the window resolves (a pass in a claim window) has last_event NULL: the
 * room then shows it to nobody but the seat that made it, so neither its content nor its timing
 * reaches another seat.
 *
 * Table state. What carries from hand to hand is the game's own JSON object (Tien Gow: the banker
 * and the streak multiplier), made by table_state_new for a new table, given to hand_new, and
 * replaced after each hand by next_table_state. The rooms, the store and the protocol carry it
 * opaque ("game_state"); only the game reads it.
 *
 * Promises of every implementation: views contain only what that seat may see (a spectator,
 * seat -1, sees no hidden tile at all; only view_admin shows everything); an action that is
 * refused changes nothing; the same options, seed, table state and accepted actions (in order,
 * each with its seat) rebuild the same hand (game_replay.h).
 */
#ifndef GAME_H
#define GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define GAME_SEATS 4
#define GAME_SPECTATOR (-1)
#define GAME_MESSAGE_SIZE 512

typedef struct game_hand game_hand;

#define GAME_REASON_SIZE 33
#define GAME_MAX_LEDGER_LINES 32

/* What a seat owes. Its wire name (game_decision_kind_name) is stable. */
typedef enum game_decision_kind {
    GAME_DECISION_TURN = 0, /* "turn": the seat to play */
    GAME_DECISION_CLAIM,    /* "claim": may take the tile just discarded, or pass */
    GAME_DECISION_PRE_HAND, /* "pre_hand": a choice every seat makes before the tiles are played */
} game_decision_kind;

typedef struct game_decision {
    int seat;
    game_decision_kind kind;
    int seconds; /* how long a person has for it; 0: the table's turn timer */
} game_decision;

const char *game_decision_kind_name(game_decision_kind kind);

/* One line of a hand's ledger: what one seat wins (or pays, < 0) for one reason. */
typedef struct game_ledger_line {
    int seat;
    int64_t units;
    char reason[GAME_REASON_SIZE];  /* "settle", or a bonus: "he_zun", "qin_zun", "quartet" */
} game_ledger_line;

typedef struct game_result {
    int winner;               /* -1 when nobody won (a drawn hand) */
    int64_t net[GAME_SEATS];  /* ledger amounts (units × stake), bonuses included; sums to zero */
    /* The net split by reason: "settle" for every seat (even 0), then each other kind for the
     * seats it moved units for. Each reason's lines sum to zero; all lines sum to net. */
    game_ledger_line lines[GAME_MAX_LEDGER_LINES];
    int n_lines;
} game_result;

typedef struct game_ops {
    const char *name; /* "tiengow" */

    /* The options as stored (every key, defaults filled in), or NULL with the reason in msg.
     * NULL options means all defaults. */
    json_t *(*options_parse)(const json_t *options, char *msg, size_t msg_size);

    /* The table state of a new table (Tien Gow: the first banker by the dice of seed, ×2). */
    json_t *(*table_state_new)(const json_t *options, uint64_t seed);

    /* A new hand; options must have come from options_parse and state from table_state_new or
     * next_table_state. NULL when memory runs out or the state is not one this game wrote. */
    game_hand *(*hand_new)(const json_t *options, uint64_t seed, const json_t *state);
    void (*hand_free)(game_hand *hand);

    /* An independent copy (the room applies an action to a copy and keeps it once the action is
     * stored). NULL only when memory runs out. */
    game_hand *(*hand_copy)(const game_hand *hand);

    /* Every seat's dealt tiles, for the record (never sent to players). */
    json_t *(*deal_json)(const game_hand *hand);

    /* The seats that owe a decision now, in seat order, into out; their count (0 when over). */
    int (*decisions)(const game_hand *hand, game_decision out[GAME_SEATS]);

    /* Applies seat's action. NULL when accepted; otherwise a stable error code (the engine's
     * reason, e.g. "does_not_beat") with a sentence in msg, and nothing changed. */
    const char *(*act)(game_hand *hand, int seat, const json_t *action, char *msg, size_t msg_size);

    /* The action a bot takes for a deciding seat (a new reference), or NULL: it waits for the
     * decision's time to run out. */
    json_t *(*bot_action)(const game_hand *hand, int seat);
    /* Optional: the default choice made for a person whose time ran out; without it, bot_action. */
    json_t *(*timeout_action)(const game_hand *hand, int seat);

    /* What seat (or GAME_SPECTATOR) may see now, with its legal actions when it owes a decision. */
    json_t *(*view)(const game_hand *hand, int seat);

    /* Optional (both or neither): the view in two objects with no key in common, whose union is
     * view(hand, seat): the part every seat and spectator sees alike, and the seat's own part.
     * The rooms then serialise the shared part once per event instead of once per member. */
    json_t *(*view_shared)(const game_hand *hand);
    json_t *(*view_own)(const game_hand *hand, int seat);

    /* Everything, for admins and the record: every seat's tiles and every action's faces. Among
     * its keys, "hands": every seat's tiles held now, by seat (game_view_open shows it). */
    json_t *(*view_admin)(const game_hand *hand);

    /* The public record of the last accepted action (e.g. a discard shows only its count), or
     * NULL when it stays private to the seat that made it until its window resolves. */
    json_t *(*last_event)(const game_hand *hand);

    bool (*is_over)(const game_hand *hand);

    /* The result of a finished hand, its public JSON record (settlement lines), and the table
     * state the next hand starts from. */
    void (*result)(const game_hand *hand, game_result *out);
    json_t *(*result_json)(const game_hand *hand);
    json_t *(*next_table_state)(const game_hand *hand);

    /* Optional: the keys of a stored result_json that admins see beside each hand in a table's
     * listing (Tianjin: who sat and pulled), NULL-terminated; NULL for none. */
    const char *const *result_summary_keys;

    /* Optional: the score calculator's replay document (teahouse-score, replay mode) for a hand
     * as the store keeps it: the table's options, the hand's deal (deal_json), the table state it
     * started from, and actions ([{"seat":S, …the action…}], taken). Never the seed: a table's
     * hands take their seeds from one generator, so a seed given out could tell a later hand's
     * tiles. NULL when the deal or state is not one this game wrote. */
    json_t *(*score_request)(const json_t *options, const json_t *deal, const json_t *state, json_t *actions);

    /* Optional: what else a finished hand's step opens in its open view (game_view_open) beyond
     * every seat's tiles, added to view (Tien Gow: each discard's faces, face down at the table).
     * Nonzero when memory ran out. */
    int (*view_open_extra)(const game_hand *hand, json_t *view);
} game_ops;

/* The game of that name, or NULL (game_registry.c). */
const game_ops *game_find(const char *name);
/* The games of the house, in the order the lobby offers them. */
size_t game_count(void);
const game_ops *game_at(size_t i);

/* The open view of one step of a FINISHED hand, for its replay: the spectator's view with every
 * seat's tiles added as "hands" (view_admin's), and whatever else the game opens (view_open_extra).
 * Nothing is hidden in it, so the caller shows it
 * only once the hand it belongs to is over (history.c refuses a replay of a hand not over). */
json_t *game_view_open(const game_ops *game, const game_hand *hand);

/* Whether seat owes a decision now (a convenience over decisions). */
bool game_seat_decides(const game_ops *game, const game_hand *hand, int seat);

extern const game_ops game_tiengow;

#endif
