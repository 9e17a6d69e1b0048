/*
 * crash_score — every finished hand of a crash run's database, replayed through the score
 * calculator (`teahouse-score`'s replay mode, README "The score calculator") as a user would run
 * it: one document on its stdin, the answer on its stdout. For each hand the answer must agree
 * with what the house stored:
 *   - every key the answer and the stored result both have (payments, net, winner, next banker
 *     and the table state after it, Tianjin's win, kongs and pulls, Tien Gow's bonuses, …) is equal;
 *   - the ledger rows of the hand are the answer's payments split by reason (Tien Gow: the
 *     settlement and each bonus kind; Tianjin: the win, each kind of kong, 铲, wild discards), per
 *     seat, nothing more and nothing less;
 *   - the table state the answer names (next banker, multiplier or count and must-sit) is the one
 *     the table's next hand started from, or the table's own when it is the last.
 * Unfinished hands are not replayed here (crash_check replays every hand through the game).
 */
#ifndef CRASH_SCORE_H
#define CRASH_SCORE_H

typedef struct crash_score_figures {
    long hands;            /* finished hands replayed through the calculator */
    long tianjin_hands;
    long tianjin_won;      /* of those, with a winner */
    long tianjin_kongs;    /* of those, with a kong payment */
} crash_score_figures;

/* Runs the check on the database at db_path with the calculator at score_binary; prints each
 * problem to stderr and returns how many there were. */
int crash_score_check(const char *db_path, const char *score_binary, crash_score_figures *figures);

#endif
