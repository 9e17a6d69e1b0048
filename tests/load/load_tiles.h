/*
 * load_tiles — the load generator's view of Tien Gow tiles for the hidden-information check:
 * a tile is named by its two faces ("1-3"), so a set of tiles is a bit mask over the 21 face
 * pairs, and a frame "shows" every tile name that appears in it as a JSON string, wherever.
 */
#ifndef LOAD_TILES_H
#define LOAD_TILES_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* The bit of the tile named s[0..len) ("a-b", faces 1-6, either order), or -1. */
int load_tile_bit(const char *s, size_t len);

/* The tiles named in a JSON array of strings (other items are ignored). */
uint64_t load_tiles_of(const json_t *list);

/* Every tile named by a JSON string "a-b" anywhere in the raw text of a frame. */
uint64_t load_tiles_in_text(const char *text, size_t len);

#endif
