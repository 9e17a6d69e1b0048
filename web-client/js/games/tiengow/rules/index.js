/*
 * Tien Gow's rules page (js/rules/page.js draws it): the rules in each language (./en.js,
 * ./zh-Hant.js, ./zh-Hans.js, loaded when the page asks), the glossary (./glossary.js), the tile
 * chart of §1 and the game's own block, `combos`: combinations drawn and named as the table
 * names them (tiles.js comboName), strongest first.
 *
 * Every tile drawn is a `.chart-tile` carrying its name, so a chart reads the same to a screen
 * reader as to the eye.
 */
import { comboName, dominoSvg, tileInfo, tileName } from '../tiles.js';
import { h } from '../../../dom.js';

const WORDS = {
  en: { civil: 'Civil suit 文: 11 kinds, two of each, strongest first', military: 'Military suit 武: 10 tiles, ranked by their pips',
    rank: 'No. {n}', total: '{n} pips' },
  'zh-Hant': { civil: '文牌：11 種，每種兩隻，由大至小', military: '武牌：10 隻，按點數大小', rank: '第 {n}', total: '{n} 點' },
  'zh-Hans': { civil: '文牌：11 种，每种两只，由大到小', military: '武牌：10 只，按点数大小', rank: '第 {n}', total: '{n} 点' },
};

function word(lang, key, n) {
  return (WORDS[lang] || WORDS.en)[key].replace('{n}', String(n));
}

const CIVIL = ['6-6', '1-1', '4-4', '1-3', '5-5', '3-3', '2-2', '5-6', '4-6', '1-6', '1-5'];
const MILITARY = [[9, ['3-6', '4-5']], [8, ['2-6', '3-5']], [7, ['2-5', '3-4']], [6, ['2-4']], [5, ['2-3', '1-4']], [3, ['1-2']]];

function domino(face, lang) {
  return h('span', { class: 'chart-tile chart-domino', role: 'img', 'aria-label': `${tileName(face, lang)} ${face}`, dataset: { face } },
    dominoSvg(face));
}

/* One kind: its tiles (two of a civil kind), a line saying its place, its names and its faces. */
function kind(face, count, lang, label) {
  const info = tileInfo(face);
  return h('li', { class: 'chart-kind', dataset: { kind: face } },
    h('span', { class: 'chart-tiles' }, Array.from({ length: count }, () => domino(face, lang))),
    h('span', { class: 'chart-label' }, label),
    h('span', { class: 'chart-name', lang: lang === 'zh-Hans' ? 'zh-Hans' : 'zh-Hant' }, lang === 'zh-Hans' ? info.hans : info.hant),
    lang === 'en' ? h('span', { class: 'chart-en' }, info.en) : null,
    h('span', { class: 'chart-face' }, face));
}

/* The 32 tiles in their 21 kinds: the civil suit by rank, the military by pips. */
function chart(lang) {
  return h('div', { id: 'tile-chart', class: 'tile-chart' },
    h('h3', {}, word(lang, 'civil')),
    h('ol', { class: 'chart-row' }, CIVIL.map((face, i) => kind(face, 2, lang, word(lang, 'rank', i + 1)))),
    h('h3', {}, word(lang, 'military')),
    h('ol', { class: 'chart-row' }, MILITARY.flatMap(([total, faces]) => faces.map((face) => kind(face, 1, lang, word(lang, 'total', total))))));
}

/* A row of combinations, each [faces]. */
function combos(rows, lang) {
  return h('ol', { class: 'combo-row' }, rows.map((faces) => h('li', { class: 'combo', dataset: { combo: faces.join(' ') } },
    h('span', { class: 'combo-tiles' }, faces.map((f) => domino(f, lang))),
    h('span', { class: 'combo-name' }, comboName(faces, lang, {})))));
}

export default {
  load: (lang) => import(`./${lang}.js`).then((m) => m.default),
  glossary: () => import('./glossary.js').then((m) => m.default),
  chart,
  blocks: { combos },
};
