/*
 * tianjin_logic — the Tianjin module's pure parts under Node, no browser: the 34 tile names
 * exactly as the engine writes them (engine/mj_tiles.c, rules/tianjin-mahjong.md §7) each with
 * its own drawing and marks, the wilds of an indicator (§2, §6), the hand's order and its drawn
 * tile, the reading of `legal` and the acts sent, the option editor's round trip and summary,
 * the fans combined as §4's worked results say, the banker's factors of §7's settle example,
 * and the labels in all three languages (混儿 in 简体 and English, 混兒 in 繁體).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { KINDS, isTileName, nextKind, prevKind, sortTiles, tileName, wildKinds } from '../../web-client/js/games/tianjin/tiles.js';
import { tileBackSvg, tileSvg } from '../../web-client/js/games/tianjin/tile_art.js';
import { actionMessage, legalMoves, moveOf, splitHand, toActOf } from '../../web-client/js/games/tianjin/view.js';
import { RULE_OPTIONS, controlValues, defaultOptions, optionsFromControls, optionsSummary }
  from '../../web-client/js/games/tianjin/options.js';
import { bankerFactors, combineFans, explainSettlement, fanKey, fanTerms, whyKey } from '../../web-client/js/games/tianjin/settlement.js';
import strings from '../../web-client/js/games/tianjin/strings.js';
import { findGame } from '../../web-client/js/games/registry.js';
import { setLang } from '../../web-client/js/i18n.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const LANGS = ['en', 'zh-Hant', 'zh-Hans'];

/* The engine's kinds in order, as [wire name, 简体 name] pairs read from its table. */
function engineKinds() {
  const source = fs.readFileSync(path.join(ROOT, 'engine', 'mj_tiles.c'), 'utf8');
  return [...source.matchAll(/\{"([^"]+)", "([^"]+)", \d+, \d+\}/g)].map((m) => [m[1], m[2]]);
}

describe('Tianjin tiles', () => {
  it('names the 34 kinds exactly as the engine and §7 do, in the engine\'s order', () => {
    const engine = engineKinds();
    assert.equal(engine.length, 34);
    assert.deepEqual(KINDS.map((k) => k.name), engine.map(([name]) => name));
    assert.deepEqual(KINDS.map((k) => k.hans), engine.map(([, zh]) => zh), 'the 简体 names are the engine\'s');
    for (const bad of ['0m', '10m', 'Z', '5z', 'e', 'c', '', '5M']) assert.equal(isTileName(bad), false, bad);
  });

  it('draws every kind differently, as an SVG, and nothing for a name that is no tile', () => {
    const drawings = KINDS.map((k) => tileSvg(k.name));
    assert.equal(new Set(drawings).size, 34);
    for (const svg of drawings) assert.match(svg, /^<svg [^>]*viewBox="0 0 48 66"[^>]*aria-hidden="true".*<\/svg>$/s);
    assert.equal(tileSvg('10m'), null);
    assert.equal(tileSvg('<b>'), null);
    assert.notEqual(tileBackSvg(), tileSvg('P'), 'the back is not the white dragon');
  });

  it('marks a wild and the indicator in the drawing, each its own way', () => {
    const plain = tileSvg('5m');
    const wild = tileSvg('5m', { wild: true });
    const indicator = tileSvg('5m', { indicator: true });
    assert.equal(new Set([plain, wild, indicator]).size, 3);
    assert.match(wild, /class="mj-face mj-wild"/);
    assert.match(indicator, /class="mj-face mj-indicator"/);
    assert.match(indicator, /stroke-dasharray/, 'the indicator\'s frame is dashed, not only coloured');
  });

  it('writes 万 东 发 on 简体 tiles and 萬 東 發 on the others', () => {
    assert.match(tileSvg('5m', { lang: 'zh-Hans' }), />万</);
    assert.match(tileSvg('5m', { lang: 'zh-Hant' }), />萬</);
    assert.match(tileSvg('5m', { lang: 'en' }), />萬</);
    assert.match(tileSvg('E', { lang: 'zh-Hans' }), />东</);
    assert.match(tileSvg('F', { lang: 'zh-Hant' }), />發</);
  });

  it('names a tile in each language', () => {
    assert.deepEqual(LANGS.map((l) => tileName('5m', l)), ['Characters 5 五萬', '五萬', '五万']);
    assert.deepEqual(LANGS.map((l) => tileName('1s', l)), ['Bamboo 1 一條', '一條', '一条']);
    assert.deepEqual(LANGS.map((l) => tileName('F', l)), ['Green dragon 發', '發', '发']);
  });

  it('finds the wilds of §2: the indicator\'s kind and the next, round each group', () => {
    assert.deepEqual(wildKinds('4m'), ['4m', '5m']);
    assert.deepEqual(wildKinds('9p'), ['9p', '1p']);
    assert.deepEqual(wildKinds('N'), ['N', 'E']);
    assert.deepEqual(wildKinds('P'), ['P', 'C']);
    assert.equal(nextKind('9s'), '1s');
    assert.equal(prevKind('C'), 'P');
    assert.deepEqual(wildKinds('x'), []);
  });

  it('finds the wilds of 刮大风 (§6): one kind more before, or all four winds', () => {
    const gdf = { gua_da_feng: true };
    assert.deepEqual(wildKinds('1m', gdf), ['9m', '1m', '2m']);
    assert.deepEqual(wildKinds('C', gdf), ['P', 'C', 'F']);
    assert.deepEqual(wildKinds('S', gdf), ['E', 'S', 'W', 'N']);
  });

  it('sorts a hand wilds first, then 万 筒 条 by rank, winds, dragons', () => {
    assert.deepEqual(sortTiles(['C', '9s', 'E', '1p', '5m', '2m', '5m', 'S'], ['5m', 'E']),
      ['5m', '5m', 'E', '2m', '1p', '9s', 'S', 'C']);
  });
});

describe('the Tianjin view and acts', () => {
  it('sets the drawn tile apart whether or not the hand holds it', () => {
    const inside = splitHand({ hand: ['9m', '1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', 'E', 'E', 'E', 'C', '4m'], drawn: '4m', wilds: [] });
    assert.deepEqual(inside.hand, ['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m', 'E', 'E', 'E', 'C']);
    assert.equal(inside.drawn, '4m');
    const apart = splitHand({ hand: ['1m', '4m', '5m', 'E'], drawn: '4m', wilds: ['5m'], melds: [] });
    assert.deepEqual(apart.hand, ['5m', '1m', '4m', 'E'], 'a hand of 3k + 1 tiles keeps its 4m');
    assert.deepEqual(splitHand({ hand: null }), { hand: null, drawn: null });
  });

  it('reads a turn\'s `legal` as the server sends it: the discards, one button per win and kong', () => {
    const legal = { kind: 'turn', actions: [{ discard: '7p' }, { discard: 'E' }, { discard: '3s' }, { concealed_kong: 'E' },
      { win: true }, { concealed_kong: '7p' }, { added_kong: '3s' }], win_refused: null };
    const moves = legalMoves(legal);
    assert.equal(moves.kind, 'turn');
    assert.deepEqual([...moves.discard], ['7p', 'E', '3s']);
    assert.deepEqual(moves.buttons.map((b) => [b.kind, b.tile]), [['win', null], ['concealed_kong', 'E'],
      ['concealed_kong', '7p'], ['added_kong', '3s']], 'win first, then the kongs in the order listed');
    assert.equal(moves.winRefused, null);
    assert.deepEqual(legalMoves(null), { kind: null, discard: null, buttons: [], sit: false, pull: -1, winRefused: null });
  });

  it('offers the claim buttons only as listed, naming the discard the window is about', () => {
    const claimer = legalMoves({ kind: 'claim', actions: [{ pass: true }, { pung: true }, { kong: true }] }, '5p');
    assert.equal(claimer.discard, null, 'no discard while claiming');
    assert.deepEqual(claimer.buttons.map((b) => [b.kind, b.tile]), [['kong', '5p'], ['pung', '5p'], ['pass', null]]);
    const other = legalMoves({ kind: 'claim', actions: [{ pass: true }] }, '5p');
    assert.deepEqual(other.buttons.map((b) => b.kind), ['pass'], 'a seat that cannot claim sees only the pass');
  });

  it('reads the decisions before the hand: sit, and how often a seat may pull', () => {
    assert.equal(legalMoves({ kind: 'pre_hand', actions: [{ sit: true }, { sit: false }] }).sit, true);
    assert.equal(legalMoves({ kind: 'pre_hand', actions: [{ pull: 0 }, { pull: 1 }, { pull: 2 }] }).pull, 2);
    assert.equal(legalMoves({ kind: 'pre_hand', actions: [{ pull: 0 }, { pull: 1 }] }).pull, 1);
  });

  it('tells why the tiles may not win only when they would (under the minimum, a wild discarded)', () => {
    const turn = (code) => legalMoves({ kind: 'turn', actions: [{ discard: '5m' }], win_refused: { code, message: 'x' } });
    assert.equal(turn('under_minimum').winRefused.code, 'under_minimum');
    assert.equal(turn('wild_discarded').winRefused.code, 'wild_discarded');
    assert.equal(turn('no_win').winRefused, null, 'tiles that are no win are not worth a word');
  });

  it('writes each act as PROTOCOL.md lists it and reads moves back from events', () => {
    assert.deepEqual(actionMessage('discard', '5m'), { discard: '5m' });
    assert.deepEqual(actionMessage('concealed_kong', '9s'), { concealed_kong: '9s' });
    assert.deepEqual(actionMessage('added_kong', '9s'), { added_kong: '9s' });
    assert.deepEqual(actionMessage('pung', '5p'), { pung: true }, 'a claim is true, never the tile');
    assert.deepEqual(actionMessage('kong', '5p'), { kong: true });
    assert.deepEqual(actionMessage('pass', null), { pass: true });
    assert.deepEqual(actionMessage('win', null), { win: true });
    assert.deepEqual(actionMessage('sit', false), { sit: false });
    assert.deepEqual(actionMessage('pull', 2), { pull: 2 });
    assert.deepEqual(moveOf({ kind: 'action', seat: 1, concealed_kong: '9s' }), { kind: 'concealed_kong', tile: '9s', value: '9s' });
    assert.deepEqual(moveOf({ seat: 0, discard: '7p' }), { kind: 'discard', tile: '7p', value: '7p' });
    assert.deepEqual(moveOf({ no_claim: '7p' }), { kind: 'no_claim', tile: '7p', value: '7p' });
    assert.deepEqual(moveOf({ pulls: [0, 0, 1, 0] }), { kind: 'pulls', tile: null, value: [0, 0, 1, 0] });
    assert.equal(moveOf({ kind: 'action' }), null);
  });

  it('finds who acts in a replayed view and what they decide', () => {
    assert.deepEqual(toActOf({ phase: 'claim', turn: 2 }), [0, 1, 3].map((seat) => ({ seat, kind: 'claim' })));
    assert.deepEqual(toActOf({ phase: 'turn', turn: 1 }), [{ seat: 1, kind: 'turn' }]);
    assert.deepEqual(toActOf({ phase: 'over', turn: null, over: true }), []);
    assert.deepEqual(toActOf({ phase: 'pull', banker: 3 }), [0, 1, 2].map((seat) => ({ seat, kind: 'pre_hand' })));
    assert.deepEqual(findGame('tianjin').decidingInView({ phase: 'sit', banker: 3 }), [{ seat: 3, kind: 'pre_hand' }]);
  });
});

describe('the Tianjin option editor', () => {
  it('has a control for every option of §7\'s table, at §7\'s defaults', () => {
    assert.deepEqual(RULE_OPTIONS.map((o) => o.key),
      ['gua_da_feng', 'wild_discard_penalty', 'gold_kong_fan', 'chan', 'must_sit', 'max_pulls', 'no_replacement', 'base', 'claim_seconds']);
    assert.deepEqual(defaultOptions(), { gua_da_feng: false, wild_discard_penalty: false, gold_kong_fan: 8, chan: false,
      must_sit: false, max_pulls: 1, no_replacement: 'draw', base: 1, claim_seconds: 5 });
  });

  it('reads back every value a control offers, typed as create_table sends it', () => {
    const all = [
      defaultOptions(),
      { gua_da_feng: true, wild_discard_penalty: true, gold_kong_fan: 4, chan: true, must_sit: true, max_pulls: 2,
        no_replacement: 'skip_indicator', base: 1000000, claim_seconds: 30 },
      { ...defaultOptions(), gold_kong_fan: 0, base: 25, claim_seconds: 2 },
    ];
    for (const options of all) assert.deepEqual(optionsFromControls(controlValues(options)), options);
    assert.deepEqual(optionsFromControls(controlValues({ max_pulls: 2 })), { ...defaultOptions(), max_pulls: 2 }, 'missing keys at defaults');
  });

  it('falls back to the default for a value no control offers and holds the base to 1..1,000,000', () => {
    const read = optionsFromControls({ ...controlValues({}), gold_kong_fan: '7', no_replacement: 'wall', base: '0' });
    assert.equal(read.gold_kong_fan, 8);
    assert.equal(read.no_replacement, 'draw');
    assert.equal(read.base, 1);
    assert.equal(optionsFromControls({ ...controlValues({}), base: '2000000.7' }).base, 1000000);
    assert.equal(optionsFromControls({ ...controlValues({}), base: 'x' }).base, 1);
    assert.equal(optionsFromControls({ ...controlValues({}), claim_seconds: '1' }).claim_seconds, 2, 'the server takes 2..30');
    assert.equal(optionsFromControls({ ...controlValues({}), claim_seconds: '99' }).claim_seconds, 30);
  });

  it('summarises what differs from the standard rules in each language', () => {
    const o = { gua_da_feng: true, gold_kong_fan: 0, max_pulls: 2, base: 5 };
    const said = LANGS.map((l) => {
      setLang(l, null);
      return [optionsSummary({}), optionsSummary(o)];
    });
    setLang('en', null);
    assert.deepEqual(said, [
      ['Standard rules', '刮大风 · no 金杠 · 拉庄 ×2 · base 5'],
      ['標準規則', '刮大風 · 無金槓 · 拉莊兩次 · 底 5'],
      ['标准规则', '刮大风 · 无金杠 · 拉庄两次 · 底 5'],
    ]);
  });
});

describe('Tianjin fans and payments', () => {
  /* §4's worked results: the fans each name, and the total the rules page gives. */
  const WORKED = [
    [['杠开', '混儿吊'], 4], [['混儿吊', '捉五'], 6], [['素', '捉五'], 6], [['没混', '杠开'], 4], [['杠开', '捉五'], 6],
    [['混儿吊', '龙'], 8], [['捉五', '龙'], 7], [['杠开', '龙'], 8], [['素', '龙'], 8], [['本混', '龙'], 8],
    [['杠开', '混儿吊', '捉五'], 12], [['杠开', '素', '捉五'], 12], [['杠开', '混儿吊', '龙'], 16], [['混儿吊', '本混', '龙'], 16],
    [['混儿吊', '捉五', '龙'], 14], [['杠开', '捉五', '龙'], 14], [['杠开', '本混', '龙'], 16], [['杠开', '素', '龙'], 16],
    [['素', '捉五', '龙'], 14], [['本混', '捉五', '龙'], 14], [['杠开', '混儿吊', '本混', '龙'], 32],
    [['混儿吊', '捉五', '本混', '龙'], 28], [['杠开', '素', '捉五', '龙'], 28], [['杠开', '本混', '捉五', '龙'], 28],
  ];

  it('combines the fans as every worked result of §4 says', () => {
    for (const [names, total] of WORKED) assert.equal(combineFans(fanTerms(names)).total, total, names.join(''));
  });

  it('adds 捉五 and 龙 before multiplying, and counts 素 as 4 under 刮大风', () => {
    assert.deepEqual(combineFans(fanTerms(['杠开', '素', '捉五', '龙'])).factors, ['2', '(3 + 4)', '2']);
    assert.equal(combineFans(fanTerms(['素', '龙'], { gua_da_feng: true })).total, 16);
    assert.equal(fanKey('zhuo_wu'), 'zhuo_wu');
    assert.equal(fanKey('混兒吊'), 'hun_diao');
    assert.equal(fanKey('七对'), null);
  });

  it('works out §7\'s settle example: 坐庄 doubles, each pull doubles again, non-bankers as written', () => {
    const bank = { banker: 0, sat: true, pulls: [0, 2, 0, 1] };
    assert.deepEqual(bankerFactors(0, 2, bank), { sat: 2, pull: 1 });
    assert.deepEqual(bankerFactors(1, 0, bank), { sat: 2, pull: 4 });
    assert.deepEqual(bankerFactors(1, 2, bank), { sat: 1, pull: 1 });
    const result = { winner: 2, fan: 6, names: ['混儿吊', '捉五'], net: [-24, 2, 31, -9], next_banker: 1, next_must_sit: false,
      payments: [{ from: 0, to: 2, units: 12 }, { from: 1, to: 2, units: 6 }, { from: 3, to: 2, units: 6 }, { from: 0, to: 1, units: 8 },
        { from: 2, to: 1, units: 1 }, { from: 3, to: 1, units: 1 }, { from: 0, to: 2, units: 4 }, { from: 1, to: 2, units: 2 },
        { from: 3, to: 2, units: 2 }] };
    const ex = explainSettlement(result, { options: { max_pulls: 2 }, ...bank });
    assert.equal(ex.computed, 6);
    assert.ok(ex.fanMatches);
    assert.deepEqual(ex.payments.map((p) => p.win), [true, true, true, false, false, false, false, false, false],
      'the three win payments are fan × the banker\'s factors; the kongs are not');
    assert.equal(ex.nextBanker, 1);
  });

  it('reads hand_over\'s result as the server sends it: the win\'s fans, each payment\'s reason and factor', () => {
    const result = { banker: 1, count: 1, sat: true, pulls: [1, 0, 0, 0], winner: 1,
      win: { seat: 1, fan: 2, names: ['素'], fans: [{ name: 'su', zh: '素', value: 2 }], win_tile: '4m',
        reading: [['4m', '5m', '6m'], ['S', 'S']], melds: [] },
      kongs: [{ seat: 2, kind: 'kong' }],
      payments: [{ from: 0, to: 1, units: 8, why: 'self-drawn win (自摸)', factor: 4 }, { from: 2, to: 1, units: 4, why: 'self-drawn win (自摸)', factor: 2 },
        { from: 0, to: 2, units: 1, why: 'exposed kong (明杠)', factor: 1 }, { from: 1, to: 2, units: 2, why: 'exposed kong (明杠)', factor: 2 }],
      net: [-9, 10, -1, 0], next_banker: 1, next_count: 2, next_must_sit: true };
    const ex = explainSettlement(result, { options: { base: 1 } });
    assert.deepEqual(ex.terms, [{ key: 'su', value: 2 }]);
    assert.equal(ex.fan, 2);
    assert.deepEqual(ex.payments.map((p) => [p.why, p.factor, p.fan, p.win]),
      [['settle', 4, 2, true], ['settle', 2, 2, true], ['kong', 1, 1, false], ['kong', 2, 1, false]]);
    assert.deepEqual([ex.payments[0].sat, ex.payments[0].pull], [2, 2], '× 2 坐庄 × 2 拉庄 make the factor 4');
    assert.deepEqual(ex.reading, [['4m', '5m', '6m'], ['S', 'S']]);
    assert.equal(ex.winTile, '4m');
    assert.equal(whyKey('铲: the banker\'s first discard followed by all three'), 'chan');
    assert.equal(whyKey('something new'), null);
    const drawn = explainSettlement({ winner: null, win: null, payments: [{ from: 0, to: 3, units: 2, why: 'concealed kong (暗杠)', factor: 1 }],
      net: [-2, 0, 0, 2] }, { options: {} });
    assert.deepEqual(drawn.payments.map((p) => [p.why, p.fan]), [['concealed_kong', 2]], 'a drawn hand still shows its kong payments');
  });

  it('flags a total that disagrees with the server\'s fan instead of showing its own', () => {
    const ex = explainSettlement({ winner: 1, fan: 9, names: ['素', '龙'], payments: [], net: [0, 0, 0, 0] }, {});
    assert.equal(ex.computed, 8);
    assert.equal(ex.fanMatches, false);
    assert.equal(ex.fan, 9);
    const drawn = explainSettlement({ winner: null, fan: null, payments: [], net: [0, 0, 0, 0], next_banker: 1 }, {});
    assert.equal(drawn.winner, null);
    assert.ok(drawn.fanMatches);
  });

  it('carries the next banker and whether they must sit into the table state', () => {
    const game = findGame('tianjin');
    assert.deepEqual(game.nextGameState({ next_banker: 2, next_must_sit: true }, { banker: 1, streak: 3 }),
      { banker: 2, streak: 3, must_sit: true });
    assert.deepEqual(game.nextGameState({}, { banker: 1 }), { banker: 1 });
  });

  it('tells the deal and each move in the player\'s language', () => {
    const game = findGame('tianjin');
    const seats = [{ name: 'Ah Ma' }, { bot: true }, { name: 'Bo Bo' }, { bot: true }];
    assert.equal(game.describeEvent({ kind: 'hand_started', hand: 2, game_state: { banker: 2 } }, seats), 'Hand 2 is dealt; West · Bo Bo banks.');
    assert.equal(game.describeEvent({ kind: 'action', seat: 0, discard: '5m', by_bot: true }, seats), 'East · Ah Ma (bot) discards Characters 5 五萬.');
    setLang('zh-Hans', null);
    assert.equal(game.describeEvent({ kind: 'action', seat: 1, pung: '9p' }, seats), '南 · 电脑南 碰九筒。');
    assert.equal(game.describeEvent({ kind: 'action', seat: 0, sit: true }, seats), '东 · Ah Ma 坐庄。');
    setLang('en', null);
  });
});

describe('Tianjin labels', () => {
  /* Characters that give a label away as written in the other script. */
  const SIMPLIFIED = '儿庄杠龙风开没罚发条万东这张钱单双则选项标准许钟对应时发还给输赢总';
  const TRADITIONAL = '兒莊槓龍風開沒罰發條萬東這張錢單雙則選項標準許鐘對應時發還給輸贏總後';

  it('has every label in all three languages', () => {
    const keys = LANGS.map((l) => Object.keys(strings[l]).sort());
    assert.deepEqual(keys[1], keys[0]);
    assert.deepEqual(keys[2], keys[0]);
  });

  it('names the fans of §4 and every action in each language', () => {
    const wanted = ['hun_diao', 'su', 'zhuo_wu', 'gang_kai', 'long', 'ben_hun', 'tian_hu', 'di_hu'].map((f) => `tj.fan.${f}`)
      .concat(['discard', 'pung', 'kong', 'concealed_kong', 'added_kong', 'win', 'pass', 'sit', 'pull'].map((a) => `tj.act.${a}`));
    for (const l of LANGS) for (const key of wanted) assert.ok(strings[l][key], `${l} ${key}`);
    assert.equal(strings['zh-Hant']['tj.fan.hun_diao'], '混兒吊');
    assert.equal(strings['zh-Hans']['tj.fan.hun_diao'], '混儿吊');
    assert.equal(strings['zh-Hans']['tj.act.sit'], '坐庄');
    assert.equal(strings['zh-Hant']['tj.act.pull'], '拉莊');
  });

  it('writes 混兒 and traditional characters in 繁體, 混儿 and simplified ones in 简体 and English', () => {
    const text = (l) => Object.values(strings[l]).join('\n');
    assert.ok(text('zh-Hant').includes('混兒') && !text('zh-Hant').includes('混儿'));
    assert.ok(text('zh-Hans').includes('混儿') && !text('zh-Hans').includes('混兒'));
    assert.ok(text('en').includes('混儿') && !text('en').includes('混兒'));
    const stray = (l, chars) => [...new Set([...text(l)].filter((c) => chars.includes(c)))];
    assert.deepEqual(stray('zh-Hant', SIMPLIFIED), [], '繁體 has simplified characters');
    assert.deepEqual(stray('zh-Hans', TRADITIONAL), [], '简体 has traditional characters');
    for (const l of LANGS) {
      const wildOption = strings[l]['tj.opt.wild_discard_penalty'] + strings[l]['tj.opt.gold_kong_fan'];
      assert.ok(wildOption.includes(l === 'zh-Hant' ? '混兒' : '混儿'), `${l} names the wild in its options`);
    }
  });
});
