/*
 * crash_check — after the crash run, compares the database (the SQLite file, or in a cluster run
 * the PostgreSQL database; read-only, through crash_db) with what the clients saw and with the
 * game engine:
 *   (a) every act a client saw answered ok is among its hand's stored actions; every hand whose
 *       hand_over a client received has one finished hands row and its ledger rows, written once
 *       (no two rows of one hand, seat and reason), summing per seat to the nets the client saw;
 *       the running scores it saw are the sums of the table's ledger up to that hand;
 *   (b) every finished hand's ledger rows sum to zero, and per seat to its stored result's net;
 *       no unfinished hand has ledger rows;
 *   (d) every stored hand replays (game_ops: hand_new from its seed, banker and multiplier, then
 *       each stored action in order): a finished hand ends exactly on its last action with its
 *       stored result, an unfinished one takes every action and is not over; the stored deal is
 *       the one its seed deals; hand numbers run 1, 2, 3, … per table, only the last may be
 *       unfinished, and the table state (banker and multiplier; Tianjin: banker, count, must-sit)
 *       carries from each result to the next hand and to the table;
 *   (e) a hand a client held before a kill and again after it went on with the same tiles: each
 *       view's tiles are a subset of the previous view's of that hand, the view of the hand's
 *       start equals the deal stored for that seat, every view is within that deal and shows the
 *       hand's stored banker and multiplier. At Tianjin, where each draw changes the tiles, each
 *       view's tiles are the seat's tiles after some number of the hand's stored actions (the
 *       replay's), and no fewer than for the view before, and the view shows the stored banker and
 *       count; the stored deal (hands, wall, dice) is the one the seed deals.
 * (c), the ledger's hash chain, is `teahouse admin verify`, run by the test itself.
 */
#ifndef CRASH_CHECK_H
#define CRASH_CHECK_H

#include <stddef.h>

#include "crash_player.h"

typedef struct crash_figures {
    long hands_stored, hands_finished, hands_unfinished;
    long actions_stored, ledger_rows;
    long hands_seen_over;        /* distinct hands whose hand_over some client received */
    long hands_continued;        /* distinct hands a client held before a kill and again after it */
    long continued_from_deal;    /* of those, the ones whose first view was the deal itself */
    long continued_tianjin;      /* of those, Tianjin hands */
    long acts_ok, acts_ok_not_stored; /* acts answered ok; of those, absent from the store */
} crash_figures;

/* Runs the checks on db (a file path or a postgresql:// URI); prints each problem to stderr; returns how many there were (0: all good). */
int crash_check_store(const char *db_path, crash_player *const players[], size_t n_players, crash_figures *figures);

#endif
