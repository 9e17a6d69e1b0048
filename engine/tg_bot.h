/*
 * tg_bot — the Tien Gow bot. It sees only its seat's view (never another seat's tiles) and
 * always returns one of the engine's legal actions for that view. It estimates from the tiles
 * it has not seen how likely each play is to stand, takes the stacks and bonuses it can, keeps
 * its strongest tile for the final trick, discards its weakest tiles, leads 至尊 for 賀尊 and
 * plays the whole hand when it is one combination (tg_bot.c explains the strategy).
 * Deterministic: the same view gives the same action. No allocation; microseconds a decision.
 */
#ifndef TG_BOT_H
#define TG_BOT_H

#include "tg_view.h"

/* Chooses an action for view->seat, which must be to act; false if it has none (not its turn). */
bool tg_bot_choose(const tg_view *view, tg_action *out);

#endif
