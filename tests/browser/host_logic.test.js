/*
 * host_logic — the store's reading of the host's controls (store.js) under Node, no browser: a
 * hold stops the countdown and resuming restarts it, new options replace the table's (the last
 * settlement keeps its own), watchers' chat follows its event and the snapshot, the final
 * scoreboard is kept, and each of the host's doings is noted in the chat panel; and every label
 * of the host panel exists in the three languages.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { applyEvent, applySnapshot, newTable } from '../../web-client/js/store.js';
import { setLang, t } from '../../web-client/js/i18n.js';

const seats = [0, 1, 2, 3].map((seat) => ({ seat, bot: seat > 0, player: seat === 0 ? 'p1' : null, name: seat === 0 ? 'Ann' : null,
  connected: true, away: false, score: 0 }));
const snapshot = (info) => ({
  type: 'snapshot', table: 'K7M2QX', seq: 5, seat: 0, view: null,
  info: { code: 'K7M2QX', game: 'tiengow', options: { stake: 1 }, public: false, host: 'p1', state: 'between_hands',
    turn_seconds: 30, hands_played: 1, scores: [0, 0, 0, 0], seats, game_state: { banker: 0, multiplier: 2 }, deciding: [],
    watchers: [], ...info },
});
let seq = 5;
const event = (ev) => ({ type: 'event', table: 'K7M2QX', seq: ++seq, event: ev, deciding: [], seats });

describe('the host\'s controls as the client keeps them', () => {
  it('reads held and watchers\' chat from the snapshot (a page that reloads)', () => {
    const ts = newTable('K7M2QX');
    applySnapshot(ts, snapshot({ held: true, spectator_chat: false }));
    assert.equal(ts.held, true);
    assert.equal(ts.spectatorChat, false);
    applySnapshot(ts, snapshot({}));
    assert.equal(ts.held, false, 'an older server without the keys: not held');
    assert.equal(ts.spectatorChat, true);
  });

  it('stops the countdown while held and starts it afresh on resuming', () => {
    const ts = newTable('K7M2QX');
    applySnapshot(ts, snapshot({}));
    ts.nextHandAt = Date.now() + 5000;
    applyEvent(ts, event({ kind: 'held', held: true }), 'p1');
    assert.equal(ts.held, true);
    assert.equal(ts.nextHandAt, null);
    const before = Date.now();
    applyEvent(ts, event({ kind: 'held', held: false, next_hand_ms: 10000 }), 'p1');
    assert.equal(ts.held, false);
    assert.ok(ts.nextHandAt >= before + 10000 && ts.nextHandAt <= Date.now() + 10000);
    assert.deepEqual(ts.chat.map((c) => c.kind), ['held', 'unheld']);
  });

  it('takes new options for the next hands and leaves the last settlement its own', () => {
    const ts = newTable('K7M2QX');
    applySnapshot(ts, snapshot({}));
    ts.lastResult = { hand: 1, options: ts.options };
    applyEvent(ts, event({ kind: 'options', options: { stake: 3, wen_zun: true }, changed: ['stake', 'wen_zun'], by: 'p1' }), 'p1');
    assert.deepEqual(ts.options, { stake: 3, wen_zun: true });
    assert.deepEqual(ts.lastResult.options, { stake: 1 }, 'the hand played keeps the options it was played under');
    const note = ts.chat.at(-1);
    assert.equal(note.kind, 'options');
    assert.match(note.from, /civil supreme/, 'named as the rules editor names it');
    assert.match(note.from, /Stake/);
    applyEvent(ts, event({ kind: 'options', options: 'not an object', changed: [] }), 'p1');
    assert.deepEqual(ts.options, { stake: 3, wen_zun: true }, 'a malformed event changes nothing');
  });

  it('follows watchers\' chat, a new host and the final scoreboard', () => {
    const ts = newTable('K7M2QX');
    applySnapshot(ts, snapshot({}));
    applyEvent(ts, event({ kind: 'spectator_chat', on: false }), 'p1');
    assert.equal(ts.spectatorChat, false);
    applyEvent(ts, event({ kind: 'host', player: 'p9', name: 'Bo' }), 'p1');
    assert.equal(ts.hostId, 'p9');
    applyEvent(ts, event({ kind: 'table_ended', hands: 4, scoreboard: [{ player: 'p1', name: 'Ann', score: 12, hands: 4 }], by: 'p9' }), 'p1');
    applyEvent(ts, event({ kind: 'closing', why: 'The host ended the session.' }), 'p1');
    assert.equal(ts.phase, 'closed');
    assert.deepEqual(ts.ended, { hands: 4, scoreboard: [{ player: 'p1', name: 'Ann', score: 12, hands: 4 }] });
    assert.deepEqual(ts.chat.map((c) => [c.kind, c.from]), [['chat_off', ''], ['host', 'Bo']]);
  });

  it('has every label of the host panel in the three languages', () => {
    const keys = ['host.title', 'host.hold', 'host.holdNow', 'host.resume', 'host.holdHelp', 'host.editOptions',
      'host.editOptionsHelp', 'host.saveOptions', 'host.cancel', 'host.optionsTitle', 'host.betweenHands',
      'host.watchersChatOff', 'host.watchersChatOn', 'host.handOver', 'host.handOverButton', 'host.nobodyToHandTo',
      'host.end', 'host.endConfirm', 'host.endYes', 'host.youAreHost', 'table.held', 'table.heldAfterHand', 'table.ended',
      'table.endedHands', 'table.scoreboard', 'table.scorePlayer', 'table.scoreTotal', 'table.scoreHands',
      'table.backToLobby', 'chat.host', 'chat.options', 'chat.held', 'chat.unheld', 'chat.chat_off', 'chat.chat_on',
      'chat.watchersOff'];
    for (const lang of ['en', 'zh-Hant', 'zh-Hans']) {
      setLang(lang);
      for (const key of keys) assert.notEqual(t(key), key, `${key} in ${lang}`);
    }
    setLang('en');
  });
});
