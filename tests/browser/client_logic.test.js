/*
 * client_logic — the web client's pure modules under Node, no browser: the settlement
 * explanation against the worked examples A–G of rules/tiengow.md §4 (amounts worked out by
 * hand from the rules page), the Play/Discard decision from a legal list, combination names of
 * §2, the account form's checks against PROTOCOL.md's rule, the paging of the server's history,
 * and that every label exists in all three languages.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { explainSettlement, baseUnits } from '../../web-client/js/settlement.js';
import { analyzeSelection, indicesOf } from '../../web-client/js/play.js';
import { comboInfo, sortTiles, tileName } from '../../web-client/js/tiles.js';
import { allKeys } from '../../web-client/js/i18n.js';
import { accountProblem } from '../../web-client/js/lobby.js';
import { HISTORY_PAGE, mergeHistory, newTable, runningTotals } from '../../web-client/js/store.js';

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
