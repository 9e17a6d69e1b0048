/*
 * toy_game — a small game compiled only into the tests ("toy"), to exercise what Tien Gow does
 * not: several seats deciding at once, private decisions, a claim window resolved by priority,
 * a timeout default that differs from the bot, and a table state that is not a banker.
 *
 * Rules. Each seat holds a secret number 0..9 drawn from the seed, seen only by itself (and in
 * the admin view, as its "hands", and so in a finished hand's open replay). A hand has three phases:
 *   1. bid (pre_hand): all four seats at once send {"bid":0..3}. A bid is private (last_event
 *      NULL) until the fourth arrives; then the event {"kind":"bids","bids":[b0,b1,b2,b3]}.
 *   2. take (turn): from the leader on, each seat in turn sends {"take":1..3} and takes that many
 *      tokens: {"kind":"take","seat":S,"take":n}.
 *   3. claim: the three seats other than the last taker at once send {"claim":true|false},
 *      private until the third. Of the claimers the highest bid wins (ties: the first seat after
 *      the last taker) and takes one token from the last taker: {"kind":"claim","seat":S|null}.
 * Points are tokens + secret; the most points wins (ties: the first seat from the leader).
 * Ledger: "settle" pays the winner 3 × stake, 1 × stake from each other seat; "claim" pays the
 * claimer 1 × stake from the last taker. Table state {"leader":S,"round":K}: the winner leads
 * the next hand, round K + 1. One option, "stake" 1..1000 (default 1).
 * The bot bids 1 + secret % 3, takes 2 + secret % 2 and claims; the timeout bids 0, takes 1 and
 * passes, so the two never choose alike.
 */
#ifndef TOY_GAME_H
#define TOY_GAME_H

#include "game.h"

extern const game_ops toy_game;

#endif
