/*
 * players_logic — the client's reading of "scores follow players" under Node, no browser: the
 * store takes each seat's score from the seats every event carries (so a newcomer shows 0 and a
 * returning player their own), names a finished hand after who played it (hand_over's players,
 * the snapshot's hand_players), takes a new bank from a `bank` event; the seat drawing shows no
 * score on an empty seat, the last hand's figures only to the player who played it, and a
 * connected player away from the table's page as away; the account form takes two wide
 * characters and refuses two narrow ones.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { applyEvent, applySnapshot, newTable, seatsFromPlayers } from '../../web-client/js/store.js';
import { heldByHandPlayer, presenceOf } from '../../web-client/js/seats.js';
import { accountProblem } from '../../web-client/js/lobby.js';

const seat = (n, player, name, score, extra = {}) => ({ seat: n, player, name, bot: false, connected: true, away: false, score, ...extra });
const bot = (n, score) => ({ seat: n, player: null, name: null, bot: true, connected: true, away: false, score });
const empty = (n) => ({ seat: n, player: null, name: null, bot: false, connected: false, away: false, score: 0 });

const played = [{ seat: 0, player: 'p1', name: 'Ah Ma', bot: false }, { seat: 1, player: 'p2', name: 'Bo Bo', bot: false },
  { seat: 2, player: null, name: null, bot: true }, { seat: 3, player: null, name: null, bot: true }];

function table() {
  const ts = newTable('K7M2QXAB3CDE');
  applySnapshot(ts, {
    type: 'snapshot', table: ts.code, seq: 1, seat: 0, view: null,
    info: { code: ts.code, game: 'tiengow', options: {}, public: false, host: 'p1', state: 'playing', turn_seconds: 30,
      hands_played: 1, scores: [0, 0, 0, 0], game_state: { banker: 1, multiplier: 2 }, deciding: [], locked: false, watchers: [],
      seats: [seat(0, 'p1', 'Ah Ma', 0), bot(1, 0), bot(2, 0), bot(3, 0)], hand_players: played },
  });
  return ts;
}

let seq = 1;
const event = (ev, seats, extra = {}) => ({ type: 'event', table: 'K7M2QXAB3CDE', seq: ++seq, event: ev, deciding: [], seats, ...extra });

describe('scores and results follow players', () => {
  it('names the hand after who played it, and takes each seat’s score from the seats', () => {
    const ts = table();
    assert.deepEqual(ts.handPlayers.map((s) => s.name), ['Ah Ma', 'Bo Bo', null, null], 'the snapshot says who played');
    /* the hand ends: seat 1's bot finished it for Bo Bo, who is named and keeps the score */
    applyEvent(ts, event({ kind: 'hand_over', hand: 1, result: { net: [-6, 9, -3, 0] }, scores: [-6, 9, -3, 0], next_hand_ms: 5000,
      players: played }, [seat(0, 'p1', 'Ah Ma', -6), bot(1, 9), bot(2, -3), bot(3, 0)]), 'p1');
    assert.equal(ts.lastResult.seats[1].name, 'Bo Bo');
    assert.equal(ts.lastResult.seats[1].bot, false);
    assert.deepEqual(ts.lastResult.scores, [-6, 9, -3, 0]);
    /* the seat is freed: its score goes with Bo Bo; a newcomer sits and shows 0 */
    applyEvent(ts, event({ kind: 'seat_left', seat: 1 }, [seat(0, 'p1', 'Ah Ma', -6), empty(1), bot(2, -3), bot(3, 0)]), 'p1');
    assert.equal(ts.scores[1], 0);
    applyEvent(ts, event({ kind: 'seat_taken', seat: 1, player: 'p3', name: 'Cy' },
      [seat(0, 'p1', 'Ah Ma', -6), seat(1, 'p3', 'Cy', 0), bot(2, -3), bot(3, 0)]), 'p1');
    assert.deepEqual(ts.scores, [-6, 0, -3, 0]);
    assert.equal(ts.lastResult.seats[1].name, 'Bo Bo', 'the settlement still names who played');
    /* Bo Bo comes back to seat 3 with their own score */
    applyEvent(ts, event({ kind: 'seat_taken', seat: 3, player: 'p2', name: 'Bo Bo' },
      [seat(0, 'p1', 'Ah Ma', -6), seat(1, 'p3', 'Cy', 0), bot(2, -3), seat(3, 'p2', 'Bo Bo', 9)]), 'p1');
    assert.deepEqual(ts.scores, [-6, 0, -3, 9]);
  });

  it('takes a new bank from a bank event, and forgets that at the next hand', () => {
    const ts = table();
    applyEvent(ts, event({ kind: 'hand_over', hand: 1, result: { net: [0, 0, 0, 0] }, scores: [0, 0, 0, 0], players: played },
      [seat(0, 'p1', 'Ah Ma', 0), bot(1, 0), bot(2, 0), bot(3, 0)]), 'p1');
    applyEvent(ts, event({ kind: 'bank', game_state: { banker: 3, multiplier: 2 } }, [seat(0, 'p1', 'Ah Ma', 0), empty(1), bot(2, 0), bot(3, 0)]), 'p1');
    assert.deepEqual(ts.gameState, { banker: 3, multiplier: 2 });
    assert.equal(ts.bankDrawn, true);
    applyEvent(ts, event({ kind: 'hand_started', hand: 2, game_state: { banker: 3, multiplier: 2 } },
      [seat(0, 'p1', 'Ah Ma', 0), seat(1, 'p3', 'Cy', 0), bot(2, 0), bot(3, 0)]), 'p1');
    assert.equal(ts.bankDrawn, false);
    assert.deepEqual(ts.handPlayers.map((s) => s.name), ['Ah Ma', 'Cy', null, null], 'the hand started is played by who sits now');
  });

  it('shows the last hand’s figures only on a seat held by who played it; away is not online', () => {
    const handSeats = seatsFromPlayers(played);
    const scene = { phase: 'between_hands', handSeats, seats: [seat(0, 'p1', 'Ah Ma', 0), seat(1, 'p3', 'Cy', 0), bot(2, 0), empty(3)] };
    assert.equal(heldByHandPlayer(scene, 0), true);
    assert.equal(heldByHandPlayer(scene, 1), false, 'a newcomer did not play it');
    assert.equal(heldByHandPlayer(scene, 2), true, 'a bot seat that a bot played');
    assert.equal(heldByHandPlayer(scene, 3), false, 'an empty seat');
    assert.equal(heldByHandPlayer({ ...scene, phase: 'playing' }, 1), true, 'while a hand is on, the seat is its');
    assert.equal(presenceOf(seat(0, 'p1', 'A', 0)), 'online');
    assert.equal(presenceOf(seat(0, 'p1', 'A', 0, { away: true })), 'away');
    assert.equal(presenceOf(seat(0, 'p1', 'A', 0, { connected: false, away: true })), 'offline');
    assert.equal(presenceOf(bot(1, 0)), '');
    assert.equal(seatsFromPlayers([]), null);
  });

  it('takes two wide characters as an account name, not two narrow ones', () => {
    for (const name of ['小明', '阿媽', 'さく', '민준', 'ann']) assert.equal(accountProblem(name, 'jasmine tea'), null, name);
    for (const name of ['ab', 'a明', '明', 'ｻｸ']) assert.equal(accountProblem(name, 'jasmine tea'), 'account.err.nameLength', name);
  });
});
