/*
 * tg_bot — the basic Tien Gow bot. It sees only its seat's view (never another seat's tiles)
 * and always chooses one of the engine's legal actions:
 *  - leading, it plays the combinations no unseen tiles can beat, the biggest first, and keeps
 *    its strongest tile for the final trick; with nothing safe it gives the lead away cheaply;
 *  - following, it beats when the trick is worth it (the final trick, several tiles, or while it
 *    still needs stacks) with the cheapest combination that beats, keeping its reserve tile;
 *  - otherwise it discards its weakest tiles.
 * Deterministic: the same view gives the same action.
 */
#ifndef TG_BOT_H
#define TG_BOT_H

#include "tg_view.h"

/* Chooses an action for view->seat, which must be to act; false if it has none (not its turn). */
bool tg_bot_choose(const tg_view *view, tg_action *out);

#endif
