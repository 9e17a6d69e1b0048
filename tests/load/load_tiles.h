/*
 * load_tiles — the load generator's hidden-information check, for both games.
 *
 * Tien Gow: a tile is named by its two faces ("1-3"), so a set of tiles is a bit mask over the
 * 21 face pairs, and a frame "shows" every tile name that appears in it as a JSON string, wherever.
 *
 * Tianjin: a tile is named "1m".."9s", "E" "S" "W" "N" "C" "F" "P" (34 kinds, bits 0-33). A seat
 * keeps what it may know (load_mj_seat): its own concealed tiles (from its views, the seat number
 * checked) and every tile shown face up (discards, melds, the indicator and wilds, events, the
 * result of a finished hand). load_mj_check_frame learns from a frame's public parts and its own
 * part, then says whether the frame names any kind the seat may not know, under any key (another
 * seat's tiles, the wall, the replacement tiles), whether its view is another seat's, whether a
 * spectator was shown concealed tiles, whether its own tiles changed by more than its draw
 * (a tile slipped into its hand), and whether it got a private `view` frame it did not ask for
 * (another seat's pass or pull). Kinds, not copies: a leaked tile of a kind the seat has already
 * seen is not caught by the scan (the hand check catches it in the seat's own hand).
 */
#ifndef LOAD_TILES_H
#define LOAD_TILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* ---- Tien Gow ---- */

/* The bit of the tile named s[0..len) ("a-b", faces 1-6, either order), or -1. */
int load_tile_bit(const char *s, size_t len);

/* The tiles named in a JSON array of strings (other items are ignored). */
uint64_t load_tiles_of(const json_t *list);

/* Every tile named by a JSON string "a-b" anywhere in the raw text of a frame. */
uint64_t load_tiles_in_text(const char *text, size_t len);

/* ---- Tianjin ---- */

#define LOAD_MJ_KINDS 34

/* The kind (0-33) of the tile named s[0..len), or -1. */
int load_mj_kind(const char *s, size_t len);

/* Every Tianjin tile kind named by a JSON string anywhere in the raw text of a frame. */
uint64_t load_mj_tiles_in_text(const char *text, size_t len);

typedef struct load_mj_seat {
    int seat;                       /* 0-3, or -1 for a spectator */
    uint64_t known;                 /* kinds it may name: its own tiles and every tile shown */
    bool dealt;                     /* its hand of this deal has been seen */
    uint8_t hand[LOAD_MJ_KINDS];    /* its concealed tiles in its latest view */
} load_mj_seat;

typedef enum load_mj_problem {
    LOAD_MJ_OK = 0,
    LOAD_MJ_HIDDEN_TILE,    /* the frame names a kind the seat may not know */
    LOAD_MJ_WRONG_SEAT,     /* the frame's view is another seat's */
    LOAD_MJ_SPECTATOR_SEES, /* a spectator's view has a hand, a drawn tile or actions */
    LOAD_MJ_HAND_GREW,      /* its own tiles grew by more than the tile it drew */
    LOAD_MJ_UNASKED_VIEW,   /* a private `view` frame without a private act of its own */
} load_mj_problem;

/* A seat (or a spectator, seat -1) that knows nothing yet. */
void load_mj_seat_init(load_mj_seat *k, int seat);

/* Checks one frame received by this seat: frame is its parsed form, text its raw text;
 * private_asked says whether the seat has a pull or pass of its own awaiting its answer. A new
 * hand (hand_started) forgets the last one. Returns the first problem found, LOAD_MJ_OK if none. */
load_mj_problem load_mj_check_frame(load_mj_seat *k, const json_t *frame, const char *text, size_t len,
                                    bool private_asked);

/* A short sentence for a problem. */
const char *load_mj_problem_text(load_mj_problem problem);

#endif
