/*
 * game_registry — the games the house offers, by name. A new game is one line here and its
 * game_ops in a folder of its own; nothing else in the server names a game.
 */
#include <string.h>

#include "game.h"
#include "tianjin/game_tianjin.h"

static const game_ops *const GAMES[] = {&game_tiengow, &game_tianjin};

const game_ops *game_find(const char *name)
{
    for (size_t i = 0; i < sizeof GAMES / sizeof GAMES[0]; i++)
        if (name != NULL && strcmp(GAMES[i]->name, name) == 0)
            return GAMES[i];
    return NULL;
}

size_t game_count(void) { return sizeof GAMES / sizeof GAMES[0]; }

const game_ops *game_at(size_t i) { return i < game_count() ? GAMES[i] : NULL; }
