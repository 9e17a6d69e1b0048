/*
 * game — the small interface every game engine offers the table rooms (DESIGN.md): check the
 * options, start a hand from a seed, whose turn it is, apply a seat's action, the bot's action,
 * the view for one seat, whether the hand is over and its result. A room holds a hand as an
 * opaque pointer and speaks to it in JSON, the wire format, so Tianjin Mahjong is one more
 * game_ops and the rooms, store and ledger need no special case.
 *
 * Promises of every implementation: views contain only what that seat may see (a spectator,
 * seat -1, sees no hidden tile at all); an action that is refused changes nothing; the same
 * options, seed, banker, multiplier and accepted actions rebuild the same hand.
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

/* One line of a hand's ledger: what one seat wins (or pays, < 0) for one reason. */
typedef struct game_ledger_line {
    int seat;
    int64_t units;
    char reason[GAME_REASON_SIZE];  /* "settle", or a bonus: "he_zun", "qin_zun", "quartet" */
} game_ledger_line;

typedef struct game_result {
    int winner;
    int64_t net[GAME_SEATS];  /* ledger amounts (units × stake), bonuses included; sums to zero */
    int next_banker;
    uint32_t next_multiplier;
    /* The net split by reason: "settle" for every seat (even 0), then each bonus kind for the
     * seats it moved units for. Each reason's lines sum to zero; all lines sum to net. */
    game_ledger_line lines[GAME_MAX_LEDGER_LINES];
    int n_lines;
} game_result;

typedef struct game_ops {
    const char *name; /* "tiengow" */

    /* The options as stored (every key, defaults filled in), or NULL with the reason in msg.
     * NULL options means all defaults. */
    json_t *(*options_parse)(const json_t *options, char *msg, size_t msg_size);

    /* The first banker of a new table, by the game's dice from a seed. */
    int (*first_banker)(uint64_t seed);

    /* A new hand; options must have come from options_parse. NULL only when memory runs out. */
    game_hand *(*hand_new)(const json_t *options, uint64_t seed, int banker, uint32_t multiplier);
    void (*hand_free)(game_hand *hand);

    /* An independent copy (the room applies an action to a copy and keeps it once the action is
     * stored). NULL only when memory runs out. */
    game_hand *(*hand_copy)(const game_hand *hand);

    /* Every seat's dealt tiles, for the record (never sent to players). */
    json_t *(*deal_json)(const game_hand *hand);

    /* The seat to act, or -1 when the hand is over. */
    int (*to_act)(const game_hand *hand);

    /* Applies seat's action. NULL when accepted; otherwise a stable error code (the engine's
     * reason, e.g. "does_not_beat") with a sentence in msg, and nothing changed. */
    const char *(*act)(game_hand *hand, int seat, const json_t *action, char *msg, size_t msg_size);

    /* The action the bot takes for the seat to act (a new reference). */
    json_t *(*bot_action)(const game_hand *hand, int seat);

    /* What seat (or GAME_SPECTATOR) may see now, with its legal actions when it is to act. */
    json_t *(*view)(const game_hand *hand, int seat);

    /* Optional (both or neither): the view in two objects with no key in common, whose union is
     * view(hand, seat): the part every seat and spectator sees alike, and the seat's own part.
     * The rooms then serialise the shared part once per event instead of once per member. */
    json_t *(*view_shared)(const game_hand *hand);
    json_t *(*view_own)(const game_hand *hand, int seat);

    /* The public record of the last accepted action (e.g. a discard shows only its count). */
    json_t *(*last_event)(const game_hand *hand);

    bool (*is_over)(const game_hand *hand);

    /* The result of a finished hand, and its public JSON record (settlement lines). */
    void (*result)(const game_hand *hand, game_result *out);
    json_t *(*result_json)(const game_hand *hand);
} game_ops;

/* The game of that name, or NULL (game_registry.c). */
const game_ops *game_find(const char *name);
/* The games of the house, in the order the lobby offers them. */
size_t game_count(void);
const game_ops *game_at(size_t i);

extern const game_ops game_tiengow;

#endif
