/*
 * client_logic — the web client's pure modules under Node, no browser: the settlement
 * explanation against the worked examples A–G of rules/tiengow.md §4 (amounts worked out by
 * hand from the rules page), the Play/Discard decision from a legal list, combination names of
 * §2, the account form's checks against PROTOCOL.md's rule, the paging of the server's history,
 * that every label exists in all three languages, the registry of games and the store's reading
 * of the wire (game_state, deciding, view, who watches, the lock), the lobby's codes and list
 * filters, and that nothing outside a game's folder names it (Tianjin's own logic is in
 * tianjin_logic.test.js).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { explainSettlement, baseUnits } from '../../web-client/js/games/tiengow/settlement.js';
import { analyzeSelection, indicesOf } from '../../web-client/js/games/tiengow/play.js';
import { comboInfo, sortTiles, tileName } from '../../web-client/js/games/tiengow/tiles.js';
import { bankOf, decidingInView } from '../../web-client/js/games/tiengow/board.js';
import { addStrings, allKeys, setLang, t } from '../../web-client/js/i18n.js';
import { CODE_PATTERN, accountProblem, listFilters, normalizeCode } from '../../web-client/js/lobby.js';
import { announceGames, findGame, gameFor, games, gameTitle, knownGames, onlyGame } from '../../web-client/js/games/registry.js';
import { HISTORY_PAGE, applyEvent, applySnapshot, applyView, decidingFrom, mergeHistory, newTable,
  runningTotals } from '../../web-client/js/store.js';

const WEB_CLIENT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'web-client');

/* A hand_over result as the server writes it; payments listed by the test from the rules. */
function result(winner, stacks, endings, payments) {
  return { winner, stacks, endings, bonuses: [], payments, net: [0, 0, 0, 0], next_banker: winner, next_multiplier: 2 };
}

/* seat → what it pays the winner (negative: receives), from the explanation. */
function amounts(ex) {
  return Object.fromEntries(ex.losers.map((l) => [l.seat, l.amount]));
}

describe('settlement explanation follows rules §4', () => {
  it('counts 4 − s units, one more for 空棟, and 入一/入二 as negative', () => {
    assert.deepEqual([0, 1, 2, 3, 4, 5, 6].map(baseUnits), [5, 3, 2, 1, 0, -1, -2]);
  });

  it('example A: East banker ×2 pays 6, South 0, West 5', () => {
    const r = result(3, [1, 4, 0, 3], [], [{ from: 0, to: 3, units: 6 }, { from: 2, to: 3, units: 5 }]);
    const ex = explainSettlement(r, { banker: 0, multiplier: 2, options: {} });
    assert.deepEqual(amounts(ex), { 0: 6, 1: 0, 2: 5 });
    assert.ok(ex.allMatch);
  });

  it('example B: South with 5 stacks receives 1 (入一)', () => {
    const r = result(3, [1, 5, 0, 2], [], [{ from: 0, to: 3, units: 6 }, { from: 3, to: 1, units: 1 }, { from: 2, to: 3, units: 5 }]);
    const ex = explainSettlement(r, { banker: 0, multiplier: 2, options: {} });
    assert.deepEqual(amounts(ex), { 0: 6, 1: -1, 2: 5 });
    assert.ok(ex.allMatch);
  });

  it('example C: a winning banker at ×4 multiplies both the 入一 it pays and what it collects', () => {
    const r = result(0, [2, 5, 1, 0], [], [{ from: 0, to: 1, units: 4 }, { from: 2, to: 0, units: 12 }, { from: 3, to: 0, units: 20 }]);
    const ex = explainSettlement(r, { banker: 0, multiplier: 4, options: {} });
    assert.deepEqual(amounts(ex), { 1: -4, 2: 12, 3: 20 });
    assert.ok(ex.allMatch);
  });

  it('example D: a losing banker at ×5 with 2 stacks pays 10', () => {
    const r = result(1, [2, 2, 4, 0], [], [{ from: 0, to: 1, units: 10 }, { from: 3, to: 1, units: 5 }]);
    const ex = explainSettlement(r, { banker: 0, multiplier: 5, options: {} });
    assert.deepEqual(amounts(ex), { 0: 10, 2: 0, 3: 5 });
  });

  it('example E: 八支 ×4 with the banker at ×2 paying 40', () => {
    const r = result(3, [0, 0, 0, 8], ['eight'], [{ from: 0, to: 3, units: 20 }, { from: 1, to: 3, units: 40 }, { from: 2, to: 3, units: 20 }]);
    const ex = explainSettlement(r, { banker: 1, multiplier: 2, options: {} });
    assert.equal(ex.M, 4);
    assert.deepEqual(amounts(ex), { 0: 20, 1: 40, 2: 20 });
  });

  it('example F: a losing banker’s 入一 is not multiplied', () => {
    const r = result(1, [5, 2, 1, 0], [], [{ from: 1, to: 0, units: 1 }, { from: 2, to: 1, units: 3 }, { from: 3, to: 1, units: 5 }]);
    const ex = explainSettlement(r, { banker: 0, multiplier: 3, options: {} });
    assert.deepEqual(amounts(ex), { 0: -1, 2: 3, 3: 5 });
    assert.equal(ex.losers.find((l) => l.seat === 0).refundNotMultiplied, true);
    assert.ok(ex.allMatch);
  });

  it('example G: 擒 with qin_pays_all, South pays North (4 + 2 + 3) × 4 = 36', () => {
    const r = result(3, [2, 2, 1, 3], ['qin'], [{ from: 1, to: 3, units: 36, why: 'qin' }]);
    const ex = explainSettlement(r, { banker: 0, multiplier: 2, options: { qin_multiplier: 4, qin_pays_all: true }, finalLeader: 1 });
    assert.equal(ex.qinLine.captured, 1);
    assert.equal(ex.qinLine.sum, 9);
    assert.deepEqual(amounts(ex), { 0: 0, 1: 36, 2: 0 });
    assert.ok(ex.allMatch);
  });

  it('example G without qin_pays_all: East 16, South 8, West 12', () => {
    const r = result(3, [2, 2, 1, 3], ['qin'], [{ from: 0, to: 3, units: 16, why: 'qin' }, { from: 1, to: 3, units: 8, why: 'qin' }, { from: 2, to: 3, units: 12, why: 'qin' }]);
    const ex = explainSettlement(r, { banker: 0, multiplier: 2, options: { qin_multiplier: 4, qin_pays_all: false }, finalLeader: 1 });
    assert.deepEqual(amounts(ex), { 0: 16, 1: 8, 2: 12 });
  });

  it('multiplies by the stake and flags a server amount that does not add up', () => {
    const r = result(3, [1, 4, 0, 3], [], [{ from: 0, to: 3, units: 60 }, { from: 2, to: 3, units: 49 }]);
    const ex = explainSettlement(r, { banker: 0, multiplier: 2, options: { stake: 10 } });
    assert.deepEqual(amounts(ex), { 0: 60, 1: 0, 2: 50 });
    assert.equal(ex.losers.find((l) => l.seat === 2).matches, false);
    assert.equal(ex.allMatch, false);
  });

  it('explains 賀尊 paid to a banker leader as 2 units × m', () => {
    const r = { ...result(2, [2, 2, 2, 2], [], []), bonuses: [{ kind: 'he_zun', from: 1, to: 0, units: 6 }] };
    const ex = explainSettlement(r, { banker: 0, multiplier: 3, options: {} });
    assert.equal(ex.bonuses[0].base, 2);
    assert.equal(ex.bonuses[0].bankerFactor, 3);
    assert.ok(ex.bonuses[0].matches);
  });
});

describe('Play and Discard follow the legal list', () => {
  const hand = sortTiles(['6-6', '3-6', '1-1', '2-6', '5-5', '1-2', '2-4', '4-5']);
  const legalLead = { plays: [['6-6'], ['3-6'], ['1-1'], ['2-6'], ['5-5'], ['1-2'], ['2-4'], ['4-5'], ['3-6', '6-6'], ['4-5', '6-6'], ['1-1', '2-6'], ['3-6', '4-5'], ['1-2', '2-4']], discard: null, barred: false };

  it('enables Play for a legal pair and not for two tiles that are no combination', () => {
    const heavenNine = indicesOf(hand, ['6-6', '3-6']);
    assert.equal(analyzeSelection(hand, heavenNine, legalLead, true).canPlay, true);
    const heavenPlum = indicesOf(hand, ['6-6', '5-5']);
    const a = analyzeSelection(hand, heavenPlum, legalLead, true);
    assert.equal(a.canPlay, false);
    assert.equal(a.canDiscard, false);
  });

  it('never enables anything when it is not the player’s turn', () => {
    const a = analyzeSelection(hand, indicesOf(hand, ['6-6']), legalLead, false);
    assert.equal(a.canPlay, false);
    assert.equal(a.highlight.some(Boolean), false);
  });

  it('highlights the tiles that complete a legal play with the selection', () => {
    const a = analyzeSelection(hand, indicesOf(hand, ['6-6']), legalLead, true);
    const lit = hand.filter((f, i) => a.highlight[i]).sort();
    assert.deepEqual(lit, ['3-6', '4-5', '6-6']);
  });

  it('allows a discard of exactly the trick’s count when nothing beats', () => {
    const legal = { plays: [], discard: 2, barred: false };
    assert.equal(analyzeSelection(hand, indicesOf(hand, ['5-5']), legal, true).canDiscard, false);
    const two = analyzeSelection(hand, indicesOf(hand, ['5-5', '1-2']), legal, true);
    assert.equal(two.canDiscard, true);
    assert.equal(two.canPlay, false);
    assert.equal(two.maxSelect, 2);
  });
});

describe('tiles and combinations (rules §1–§2)', () => {
  it('sorts civil tiles by rank before military tiles by pip total', () => {
    assert.deepEqual(sortTiles(['1-2', '4-5', '1-5', '6-6', '2-4', '1-1']), ['6-6', '1-1', '1-5', '4-5', '2-4', '1-2']);
  });

  it('names the traditional tiles in all three languages', () => {
    assert.equal(tileName('4-6', 'zh-Hant'), '紅頭十');
    assert.equal(tileName('4-6', 'zh-Hans'), '红头十');
    assert.match(tileName('4-6', 'en'), /Red-head ten.*紅頭十/);
    assert.equal(tileName('2-4', 'zh-Hant'), '大頭六');
  });

  it('names the pairs, triples and the quartet of §2', () => {
    assert.equal(comboInfo(['6-6', '4-5']).hant, '天九');
    assert.equal(comboInfo(['1-3', '1-4']).hant, '和五');
    assert.equal(comboInfo(['1-2', '2-4']).type, 'supreme');
    assert.equal(comboInfo(['6-6', '6-6']).hant, '雙天');
    assert.equal(comboInfo(['2-5', '3-4']).type, 'military_pair');
    assert.equal(comboInfo(['4-4', '4-4', '2-5']).type, 'civil_triple');
    assert.equal(comboInfo(['1-1', '2-6', '3-5']).type, 'military_triple');
    assert.equal(comboInfo(['6-6', '6-6', '3-6', '4-5']).type, 'quartet');
    assert.equal(comboInfo(['6-6', '2-6']), null, '天 with an 8 is no combination');
    assert.equal(comboInfo(['6-6', '5-5']), null, 'two different civil tiles are no combination');
  });
});

describe('the account form checks what PROTOCOL.md allows before sending', () => {
  it('accepts names of 3 to 24 letters or digits of any script with _ - .', () => {
    for (const name of ['ann', 'Ah_Ma-2.0', '阿媽好', '佐々木', 'Иван_2', 'Nguyễn', 'a'.repeat(24), '  ann  ']) {
      assert.equal(accountProblem(name, 'correct horse'), null, name);
    }
  });

  it('refuses short, long, spaced and signed names and separators alone', () => {
    assert.equal(accountProblem('ab', 'correct horse'), 'account.err.nameLength');
    assert.equal(accountProblem('a'.repeat(25), 'correct horse'), 'account.err.nameLength');
    /* characters, not UTF-16 units: 13 ideographs beyond the BMP are 26 units */
    assert.equal(accountProblem('\u{20000}'.repeat(13), 'correct horse'), null);
    for (const name of ['ann smith', 'ann!', 'ann@home', '...', '_-_']) {
      assert.equal(accountProblem(name, 'correct horse'), 'account.err.nameChars', name);
    }
  });

  it('counts a password in bytes of UTF-8, 8 to 1024', () => {
    assert.equal(accountProblem('ann', '1234567'), 'account.err.passwordLength');
    assert.equal(accountProblem('ann', '12345678'), null);
    assert.equal(accountProblem('ann', '密碼'), 'account.err.passwordLength', '6 bytes');
    assert.equal(accountProblem('ann', '密碼密'), null, '9 bytes');
    assert.equal(accountProblem('ann', 'x'.repeat(1024)), null);
    assert.equal(accountProblem('ann', 'x'.repeat(1025)), 'account.err.passwordLength');
  });
});

describe('the history pages of the server merge without gaps', () => {
  const hand = (n, net = [n, -n, 0, 0]) => ({ hand: n, net, result: { net } });
  const numbers = (ts) => ts.hist.hands.map((e) => e.hand);
  const page = (from, to) => Array.from({ length: from - to + 1 }, (_, i) => hand(from - i));

  it('keeps the newest page newest first and asks for more only after a full page', () => {
    const ts = newTable('ABCDEF');
    mergeHistory(ts, page(3, 1), false);
    assert.deepEqual(numbers(ts), [3, 2, 1]);
    assert.equal(ts.hist.more, false);
    assert.equal(ts.hist.oldest, 1);
    mergeHistory(ts, page(4, 1), false); /* after hand 4 finished */
    assert.deepEqual(numbers(ts), [4, 3, 2, 1]);
  });

  it('pages back with before and stops at a short page', () => {
    const ts = newTable('ABCDEF');
    mergeHistory(ts, page(45, 46 - HISTORY_PAGE), false);
    assert.equal(ts.hist.more, true);
    assert.equal(ts.hist.oldest, 26);
    mergeHistory(ts, page(25, 6), true);
    assert.equal(ts.hist.more, true);
    mergeHistory(ts, page(5, 1), true);
    assert.equal(ts.hist.more, false);
    assert.deepEqual(numbers(ts), page(45, 1).map((e) => e.hand));
  });

  it('drops what it held when more than a page finished since, rather than leave a gap', () => {
    const ts = newTable('ABCDEF');
    mergeHistory(ts, page(20, 1), false);
    mergeHistory(ts, page(50, 31), false); /* hands 21–30 would be missing */
    assert.deepEqual(numbers(ts), page(50, 31).map((e) => e.hand));
    assert.equal(ts.hist.more, true);
    assert.equal(ts.hist.oldest, 31);
  });

  it('adds up running totals only over an unbroken run from hand 1', () => {
    const totals = runningTotals([hand(3, [1, 2, -3, 0]), hand(1, [4, -4, 0, 0]), hand(2, [-1, 0, 0, 1])]);
    assert.deepEqual(totals.get(1), [4, -4, 0, 0]);
    assert.deepEqual(totals.get(2), [3, -4, 0, 1]);
    assert.deepEqual(totals.get(3), [4, -2, -3, 1]);
    const broken = runningTotals([hand(5), hand(4)]);
    assert.equal(broken.size, 0, 'without hands 1–3 the totals are unknown');
  });
});

describe('translations', () => {
  it('has every label in 繁體中文, 简体中文 and English', () => {
    const keys = allKeys();
    const en = new Set(keys.en);
    for (const code of ['zh-Hant', 'zh-Hans']) {
      const other = new Set(keys[code]);
      assert.deepEqual([...en].filter((k) => !other.has(k)), [], `${code} lacks labels`);
      assert.deepEqual([...other].filter((k) => !en.has(k)), [], `${code} has labels English lacks`);
    }
  });
});

describe('the registry of games', () => {
  it('offers Tien Gow under the server\'s name, titled in all three languages', () => {
    assert.deepEqual(games().map((g) => g.name), ['tiengow']);
    assert.equal(findGame('tiengow'), games()[0]);
    assert.equal(onlyGame(), games()[0], 'a house of one game is named after it');
    const titles = ['zh-Hant', 'zh-Hans', 'en'].map((code) => {
      setLang(code, null);
      return gameTitle('tiengow');
    });
    setLang('en', null);
    assert.deepEqual(titles, ['天九', '天九', 'Tien Gow 天九']);
  });

  it('gives every game each member of the module interface', () => {
    const members = ['optionEditor', 'readOptions', 'optionsSummary', 'seatBadges', 'seatStats', 'renderCenter',
      'renderControls', 'renderSettlement', 'nextGameState', 'describeEvent', 'decidingInView', 'renderReplayHand'];
    for (const game of knownGames()) {
      for (const key of ['titleKey', 'taglineKey', 'optionsTitleKey']) assert.notEqual(t(game[key]), game[key], `${game.name}.${key} has a label`);
      for (const m of members) assert.equal(typeof game[m], 'function', `${game.name}.${m}`);
    }
  });

  it('offers only the games the server announces, and only the first before it announces any', () => {
    assert.deepEqual(knownGames().map((g) => g.name), ['tiengow', 'tianjin']);
    assert.equal(findGame('tianjin').name, 'tianjin', 'a table of a known game is drawn even when it is not offered');
    try {
      announceGames(['tianjin', 'tiengow', 'go']);
      assert.deepEqual(games().map((g) => g.name), ['tiengow', 'tianjin'], 'in the order of the registry, unknown names left out');
      assert.equal(onlyGame(), null, 'a house of several games is not named after one');
      announceGames(['tianjin']);
      assert.equal(onlyGame().name, 'tianjin');
    } finally {
      announceGames(undefined);
    }
    assert.deepEqual(games().map((g) => g.name), ['tiengow']);
  });

  it('draws no game part for a table of a game it does not know', () => {
    assert.equal(findGame('mahjong'), null);
    assert.equal(gameTitle('mahjong'), 'mahjong');
    const unknown = gameFor('mahjong');
    const scene = { seats: [], view: { over: false }, deciding: [], gameState: { banker: 0, multiplier: 2 }, phase: 'playing' };
    assert.deepEqual(unknown.seatBadges(scene, 0), []);
    assert.deepEqual(unknown.seatStats(scene, 0), []);
    assert.equal(unknown.renderCenter(scene), null);
    assert.deepEqual(unknown.nextGameState({ winner: 1 }, { a: 1 }), { a: 1 }, 'the state stays as the server sent it');
    assert.equal(unknown.describeEvent({ kind: 'hand_started', hand: 1 }, [], {}), '');
  });

  it('refuses a game label that is already defined rather than relabel another page', () => {
    assert.throws(() => addStrings({ en: { 'table.leave': 'Go' } }), /table\.leave/);
    assert.throws(() => addStrings({ 'zh-Hant': { 'tg.play.play': '打' } }), /tg\.play\.play/);
    assert.equal(t('table.leave'), 'Leave table');
  });

  it('summarises Tien Gow\'s options as the table list shows them', () => {
    const tiengow = findGame('tiengow');
    assert.equal(tiengow.optionsSummary({}), 'Standard rules');
    assert.equal(tiengow.optionsSummary({ wen_zun: true, rotation: 'turn', four_pairs: true, stake: 5 }),
      '文尊 · 輪莊 · +1 natural hands · stake 5');
  });

  it('tells a Tien Gow deal by the banker and multiplier of its game_state', () => {
    const seats = [{ name: 'Ah Ma' }, { bot: true }, { name: 'Bo Bo' }, { bot: true }];
    const tiengow = findGame('tiengow');
    assert.equal(tiengow.describeEvent({ kind: 'hand_started', hand: 3, game_state: { banker: 2, multiplier: 3 } }, seats, {}),
      'Hand 3 is dealt; West · Bo Bo banks at ×3.');
    assert.equal(tiengow.describeEvent({ kind: 'action', seat: 0, discard: 2, by_bot: true }, seats, {}),
      'East · Ah Ma (bot) discards 2 face down.');
  });

  it('carries Tien Gow\'s next banker and multiplier from a result into the table state', () => {
    const tiengow = findGame('tiengow');
    assert.deepEqual(tiengow.nextGameState({ next_banker: 3, next_multiplier: 4 }, { banker: 1, multiplier: 3 }),
      { banker: 3, multiplier: 4 });
    assert.deepEqual(tiengow.nextGameState({}, { banker: 1, multiplier: 3 }), { banker: 1, multiplier: 3 });
  });

  it('puts the banker badge on the hand\'s banker while it is played and on the next banker between hands', () => {
    const view = { banker: 1, multiplier: 3 };
    assert.deepEqual(bankOf({ phase: 'playing', view, gameState: { banker: 1, multiplier: 3 } }), { banker: 1, multiplier: 3 });
    assert.deepEqual(bankOf({ phase: 'between_hands', view, gameState: { banker: 2, multiplier: 2 } }), { banker: 2, multiplier: 2 });
    assert.equal(bankOf({ phase: 'waiting', view: null, gameState: null }), null);
  });

  it('finds the seat to act in a replayed Tien Gow view, and nobody once it is over', () => {
    assert.deepEqual(decidingInView({ to_act: 2, over: false }), [{ seat: 2, kind: 'turn' }]);
    assert.deepEqual(decidingInView({ to_act: 2, over: true }), []);
    assert.deepEqual(decidingInView(null), []);
  });
});

describe('the store reads the wire of any game', () => {
  const seats = [0, 1, 2, 3].map((seat) => ({ seat, player: seat === 0 ? 'p1' : null, name: seat === 0 ? 'Ah Ma' : null,
    bot: seat !== 0, connected: true }));
  const snapshot = (info, view, seat = 0) => ({
    type: 'snapshot', table: 'K7M2QX', seq: 41, seat, view,
    info: { code: 'K7M2QX', game: 'tiengow', options: {}, public: false, host: 'p1', state: 'playing', turn_seconds: 30,
      hands_played: 2, scores: [12, -4, 0, -8], seats, game_state: { banker: 1, multiplier: 3 }, deciding: [], ...info },
  });
  const event = (ev, extra) => ({ type: 'event', table: 'K7M2QX', seq: 42, event: ev, deciding: [], seats, ...extra });

  it('keeps the game_state of a snapshot and gives each deciding seat a local deadline', () => {
    const ts = newTable('K7M2QX');
    const before = Date.now();
    applySnapshot(ts, snapshot({ deciding: [{ seat: 0, kind: 'claim', ms_left: 27000 }, { seat: 2, kind: 'claim', ms_left: null }] },
      { hand: ['6-6'], over: false }));
    assert.deepEqual(ts.gameState, { banker: 1, multiplier: 3 });
    assert.deepEqual(ts.deciding.map((d) => [d.seat, d.kind]), [[0, 'claim'], [2, 'claim']]);
    assert.ok(ts.deciding[0].deadline >= before + 27000 && ts.deciding[0].deadline <= Date.now() + 27000);
    assert.equal(ts.deciding[1].deadline, null, 'a bot\'s pause has no countdown');
    assert.equal(ts.mySeat, 0);
    assert.deepEqual(decidingFrom(undefined), [], 'no list: nobody decides');
  });

  it('follows deciding from every event, with or without a view', () => {
    const ts = newTable('K7M2QX');
    applySnapshot(ts, snapshot({}, { hand: ['6-6'], over: false }));
    applyEvent(ts, event({ kind: 'connection', seat: 1, connected: false }, { deciding: [{ seat: 3, kind: 'turn', ms_left: 5000 }] }), 'p1');
    assert.deepEqual(ts.deciding.map((d) => d.seat), [3]);
    assert.deepEqual(ts.view, { hand: ['6-6'], over: false }, 'an event without a view leaves the view');
    applyEvent(ts, event({ kind: 'action', seat: 3, discard: 1 }, { view: { hand: ['6-6'], over: false, to_act: 0 } }), 'p1');
    assert.deepEqual(ts.deciding, []);
    assert.equal(ts.view.to_act, 0);
  });

  it('starts a hand with its game_state and a fresh scratch for the game\'s controls', () => {
    const ts = newTable('K7M2QX');
    applySnapshot(ts, snapshot({ state: 'between_hands' }, null));
    ts.ui.game.selected = new Set([1]);
    ts.ui.readySent = true;
    applyEvent(ts, event({ kind: 'hand_started', hand: 3, game_state: { banker: 2, multiplier: 2 } },
      { view: { hand: ['6-6'], over: false }, deciding: [{ seat: 2, kind: 'turn', ms_left: null }] }), 'p1');
    assert.equal(ts.phase, 'playing');
    assert.equal(ts.handsPlayed, 3);
    assert.deepEqual(ts.gameState, { banker: 2, multiplier: 2 });
    assert.deepEqual(ts.ui.game, {});
    assert.equal(ts.ui.readySent, false);
  });

  it('settles a hand with the hand\'s own state and moves the table to the game\'s next state', () => {
    const ts = newTable('K7M2QX');
    applySnapshot(ts, snapshot({}, { hand: ['6-6'], over: false }));
    const result = { winner: 1, net: [-5, 9, -2, -2], next_banker: 1, next_multiplier: 2 };
    const finished = applyEvent(ts, event({ kind: 'hand_over', hand: 2, result, scores: [7, 5, -2, -10], next_hand_ms: 10000 },
      { view: { hand: [], over: true, result } }), 'p1');
    assert.equal(finished, true);
    assert.equal(ts.phase, 'between_hands');
    assert.deepEqual(ts.scores, [7, 5, -2, -10], 'the scores are the table\'s running totals');
    assert.deepEqual(ts.lastResult.gameState, { banker: 1, multiplier: 3 }, 'the settlement keeps the hand\'s state');
    assert.deepEqual(ts.lastResult.scores, [7, 5, -2, -10]);
    assert.equal(ts.lastResult.view.over, true);
    assert.deepEqual(ts.gameState, { banker: 1, multiplier: 2 }, 'the next hand\'s banker shows between hands');
  });

  it('adds a hand\'s net to the scores when hand_over carries no totals', () => {
    const ts = newTable('K7M2QX');
    applySnapshot(ts, snapshot({}, null));
    applyEvent(ts, event({ kind: 'hand_over', hand: 2, result: { winner: 1, net: [-5, 9, -2, -2] } }), 'p1');
    assert.deepEqual(ts.scores, [7, 5, -2, -10]);
  });

  it('keeps the table state of a game it does not know as the server sent it', () => {
    const ts = newTable('K7M2QX');
    applySnapshot(ts, snapshot({ game: 'mahjong', game_state: { dealer: 2, round: 'east' } }, null));
    applyEvent(ts, event({ kind: 'hand_over', hand: 2, result: { winner: 1, net: [0, 0, 0, 0] } }), 'p1');
    assert.deepEqual(ts.gameState, { dealer: 2, round: 'east' });
  });

  it('shows the last settlement after a reload between hands, from the view of the finished hand', () => {
    const ts = newTable('K7M2QX');
    const result = { winner: 1, net: [-5, 9, -2, -2] };
    applySnapshot(ts, snapshot({ state: 'between_hands', game_state: { banker: 1, multiplier: 2 } }, { over: true, result }));
    assert.equal(ts.lastResult.hand, 2);
    assert.equal(ts.lastResult.result, result);
    assert.deepEqual(ts.lastResult.scores, [12, -4, 0, -8]);
  });

  it('replaces the seat\'s view with a view frame and leaves the sequence alone', () => {
    const ts = newTable('K7M2QX');
    applySnapshot(ts, snapshot({}, { hand: ['6-6', '1-1'], over: false }));
    applyView(ts, { type: 'view', table: 'K7M2QX', view: { hand: ['6-6'], over: false } });
    assert.deepEqual(ts.view, { hand: ['6-6'], over: false });
    assert.equal(ts.seq, 41);
  });
});

describe('the lobby reads codes and asks for pages of tables', () => {
  it('takes the 12-character codes of new tables and the 6 of older ones, written any way', () => {
    assert.ok(CODE_PATTERN.test(normalizeCode('k7m2-qxab 3cde')));
    assert.equal(normalizeCode(' k7m2-qxab 3cde '), 'K7M2QXAB3CDE');
    assert.ok(CODE_PATTERN.test('K7M2QX'), 'a table from before codes grew');
    assert.ok(!CODE_PATTERN.test('K7M2Q'));
    assert.ok(!CODE_PATTERN.test('K7M2QXAB3CDEF'));
    assert.ok(!CODE_PATTERN.test('K7M2QXAB3CD1'), 'no look-alikes');
  });

  it('turns the list\'s filters into list_tables keys', () => {
    assert.deepEqual(listFilters({ show: 'all', game: '', search: '' }), {});
    assert.deepEqual(listFilters({ show: 'free', game: 'tile', search: '  Ah Ma ' }), { free_seat: true, game: 'tile', search: 'Ah Ma' });
    assert.deepEqual(listFilters({ show: 'waiting' }), { state: 'waiting' });
    assert.deepEqual(listFilters({ show: 'playing', search: '天'.repeat(30) }), { state: 'playing', search: '天'.repeat(24) });
  });
});

describe('the store follows who watches and the lock', () => {
  const seats = [0, 1, 2, 3].map((seat) => ({ seat, player: seat === 0 ? 'p1' : null, name: seat === 0 ? 'Host' : null,
    bot: false, connected: true }));
  const snapshot = {
    type: 'snapshot', table: 'K7M2QXAB3CDE', seq: 5, seat: 0, view: null,
    info: { code: 'K7M2QXAB3CDE', game: 'tiengow', options: {}, public: false, host: 'p1', state: 'waiting', turn_seconds: 30,
      hands_played: 0, scores: [0, 0, 0, 0], seats, game_state: {}, deciding: [], locked: false,
      watchers: [{ player: 'p2', name: 'Bo' }] },
  };
  let seq = 5;
  const event = (ev, seatList) => ({ type: 'event', table: 'K7M2QXAB3CDE', seq: ++seq, event: ev, deciding: [], seats: seatList || seats });
  const sat = (player, name) => seats.map((s) => (s.seat === 2 ? { ...s, player, name } : s));

  it('adds and drops watchers as they come, sit, stand up, leave or are removed', () => {
    const ts = newTable('K7M2QXAB3CDE');
    applySnapshot(ts, snapshot);
    assert.deepEqual(ts.watchers.map((w) => w.player), ['p2']);
    applyEvent(ts, event({ kind: 'joined', player: 'p3', name: 'Cy', seat: null }), 'p1');
    applyEvent(ts, event({ kind: 'joined', player: 'p4', name: 'Di', seat: 1 }), 'p1');
    assert.deepEqual(ts.watchers.map((w) => w.player), ['p2', 'p3'], 'one who joins into a seat does not watch');
    applyEvent(ts, event({ kind: 'seat_taken', player: 'p3', name: 'Cy', seat: 2 }, sat('p3', 'Cy')), 'p1');
    assert.deepEqual(ts.watchers.map((w) => w.player), ['p2']);
    applyEvent(ts, event({ kind: 'seat_left', seat: 2, player: 'p3', removed: true }), 'p1');
    assert.deepEqual(ts.watchers, [{ player: 'p2', name: 'Bo' }, { player: 'p3', name: 'Cy' }], 'stood up, they watch');
    applyEvent(ts, event({ kind: 'removed', player: 'p2', name: 'Bo' }), 'p1');
    applyEvent(ts, event({ kind: 'left', player: 'p3', name: 'Cy' }), 'p1');
    assert.deepEqual(ts.watchers, []);
  });

  it('follows the host\'s lock', () => {
    const ts = newTable('K7M2QXAB3CDE');
    applySnapshot(ts, { ...snapshot, info: { ...snapshot.info, locked: true } });
    assert.equal(ts.locked, true);
    applyEvent(ts, event({ kind: 'locked', locked: false }), 'p1');
    assert.equal(ts.locked, false);
  });
});

describe('nothing outside a game\'s folder names the game', () => {
  /* Each game's name and terms; the registry may only import the games and list them. */
  const WORDS = {
    tiengow: ['tiengow', 'tien gow', '天九', 'banker', 'multiplier', 'stacks', 'trick', '莊', '庄', '棟', '栋'],
    tianjin: ['tianjin', '天津', 'mahjong', '麻将', '麻將', '混儿', '混兒', 'kong', 'pung', '杠', '槓'],
  };
  const GAMES_DIR = path.join(WEB_CLIENT, 'js', 'games');
  const REGISTRY_LINES = [/^import \w+ from '\.\/\w+\/index\.js';$/, /^const GAMES = \[[\w, ]*\];$/];

  /* Every file of the web client but those in `skip` (a game's own folder). */
  function filesUnder(dir, skip) {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) return full === skip ? [] : filesUnder(full, skip);
      return [full];
    });
  }

  for (const [game, words] of Object.entries(WORDS)) {
    it(`finds the words of ${game} only in js/games/${game}/`, () => {
      const found = [];
      const files = filesUnder(WEB_CLIENT, path.join(GAMES_DIR, game));
      assert.ok(files.some((f) => f.endsWith('table.js')) && files.some((f) => f.endsWith('teahouse.css')));
      for (const file of files) {
        /* another game's folder may use any word of its own game */
        const other = Object.keys(WORDS).find((g) => g !== game && file.startsWith(path.join(GAMES_DIR, g) + path.sep));
        if (other) continue;
        const lines = fs.readFileSync(file, 'utf8').split('\n');
        lines.forEach((line, i) => {
          if (file.endsWith(path.join('games', 'registry.js')) && REGISTRY_LINES.some((re) => re.test(line))) return;
          for (const word of words) {
            if (line.toLowerCase().includes(word)) found.push(`${path.relative(WEB_CLIENT, file)}:${i + 1}: ${word}`);
          }
        });
      }
      assert.deepEqual(found, []);
    });
  }
});

describe('the limits a welcome carries', () => {
  it('bound the account check and cut names by characters, not UTF-16 units', async () => {
    const { setLimits, limit, cutChars } = await import('../../web-client/js/limits.js');
    const { accountProblem } = await import('../../web-client/js/lobby.js');
    assert.equal(limit('name_chars'), 24); /* the house's own until the first welcome */
    assert.equal(cutChars('😀'.repeat(30), 24), '😀'.repeat(24));
    assert.equal(accountProblem('mei', 'jasmine tea'), null);
    setLimits({ account_min_chars: 4, password_min_bytes: 12, bogus: 'x' });
    assert.equal(accountProblem('mei', 'jasmine tea and more'), 'account.err.nameLength');
    assert.equal(accountProblem('meimei', 'jasmine'), 'account.err.passwordLength');
    assert.equal(limit('bogus'), undefined);
    setLimits({ account_min_chars: 3, password_min_bytes: 8 });
  });
});
