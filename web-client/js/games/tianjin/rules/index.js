/*
 * Tianjin Mahjong's rules page (js/rules/page.js draws it): the rules in each language (./en.js,
 * ./zh-Hant.js, ./zh-Hans.js, loaded when the page asks), the glossary (./glossary.js), the tile
 * chart of §1 (the 34 kinds, drawn by tile_art.js as at the table) and the game's own block,
 * `tiles`: rows of tiles ({ tiles: [names or groups of names], caption }, a name ending in '*'
 * drawn as a wild, one ending in '!' as the winning tile), or an indicator with the wilds it
 * makes ({ indicator, gua, caption }).
 */
import { KINDS, kindInfo, shortTileName, tileName, wildKinds } from '../tiles.js';
import { tileSvg } from '../tile_art.js';
import { h } from '../../../dom.js';

const WORDS = {
  en: { m: 'Characters 萬 (four of each)', p: 'Dots 筒 (four of each)', s: 'Bamboo 條 (four of each)', wind: 'Winds (four of each)',
    dragon: 'Dragons (four of each)', indicator: 'indicator', wilds: 'wilds (混兒)', win: '(the winning tile)' },
  'zh-Hant': { m: '萬子（每種四張）', p: '筒子（每種四張）', s: '條子（每種四張）', wind: '風牌（每種四張）', dragon: '箭牌（每種四張）',
    indicator: '翻出的牌', wilds: '混兒', win: '（胡的牌）' },
  'zh-Hans': { m: '万子（每种四张）', p: '筒子（每种四张）', s: '条子（每种四张）', wind: '风牌（每种四张）', dragon: '箭牌（每种四张）',
    indicator: '翻出的牌', wilds: '混儿', win: '（胡的牌）' },
};

function word(lang, key) {
  return (WORDS[lang] || WORDS.en)[key];
}

const GROUPS = ['m', 'p', 's', 'wind', 'dragon'];

function tile(name, lang, mark) {
  const label = mark === 'win' ? `${tileName(name, lang)} ${word(lang, 'win')}` : tileName(name, lang);
  const span = h('span', { class: `chart-tile mj-tile${mark ? ` chart-${mark}` : ''}`, role: 'img', 'aria-label': label,
    dataset: { kind: name } });
  /* tile_art's own drawing: a constant SVG string of the client's, never a player's input */
  span.innerHTML = tileSvg(name, { lang, wild: mark === 'wild', indicator: mark === 'indicator' });
  return span;
}

function caption(name, lang) {
  if (lang !== 'en') return h('span', { class: 'chart-name' }, tileName(name, lang));
  return [h('span', { class: 'chart-name' }, kindInfo(name).hant), h('span', { class: 'chart-en' }, shortTileName(name, 'en'))];
}

/* The 34 kinds by suit, winds and dragons. */
function chart(lang) {
  return h('div', { id: 'tile-chart', class: 'tile-chart' }, GROUPS.map((group) => [
    h('h3', {}, word(lang, group)),
    h('ol', { class: 'chart-row chart-row-small' }, KINDS.filter((k) => k.group === group).map((k) =>
      h('li', { class: 'chart-kind', dataset: { kind: k.name } }, tile(k.name, lang, null), caption(k.name, lang)))),
  ]));
}

function indicatorRow(spec, lang) {
  const wilds = wildKinds(spec.indicator, { gua_da_feng: Boolean(spec.gua) });
  return [
    h('span', { class: 'tile-example-part' }, tile(spec.indicator, lang, 'indicator'), h('small', {}, word(lang, 'indicator'))),
    h('span', { class: 'tile-example-arrow', 'aria-hidden': 'true' }, '→'),
    h('span', { class: 'tile-example-part' }, h('span', { class: 'tile-example-group' }, wilds.map((w) => tile(w, lang, 'wild'))),
      h('small', {}, word(lang, 'wilds'))),
  ];
}

/* A name ending in '*' is drawn as a wild, one ending in '!' as the winning tile. */
const MARK_OF = { '*': 'wild', '!': 'win' };

function handRow(spec, lang) {
  return spec.tiles.map((group) => h('span', { class: 'tile-example-group' }, (Array.isArray(group) ? group : [group]).map((name) => {
    const mark = MARK_OF[name.slice(-1)] || null;
    return tile(mark ? name.slice(0, -1) : name, lang, mark);
  })));
}

/* Rows of tiles, each with its caption. */
function tiles(specs, lang) {
  return h('div', { class: 'tile-examples' }, specs.map((spec) => h('figure', { class: 'tile-example' },
    h('div', { class: 'tile-example-tiles' }, spec.tiles ? handRow(spec, lang) : indicatorRow(spec, lang)),
    spec.caption ? h('figcaption', {}, spec.caption) : null)));
}

export default {
  load: (lang) => import(`./${lang}.js`).then((m) => m.default),
  glossary: () => import('./glossary.js').then((m) => m.default),
  chart,
  blocks: { tiles },
};
