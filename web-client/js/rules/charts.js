/*
 * charts — the pictures of the rules pages, drawn with the client's own tiles (the same
 * dominoes and mahjong tiles a player meets at the table): each game's tile chart (§1), Tien
 * Gow's combinations by rank (§2) and rows of Tianjin tiles with the indicator and wilds marked.
 *
 * Every tile drawn is a `.chart-tile` carrying its name, so a chart reads the same to a screen
 * reader as to the eye; the words around the pictures come from ./strings.js.
 */
import { comboName, dominoSvg, tileInfo, tileName as tgName } from '../games/tiengow/tiles.js';
import { KINDS as MJ_KINDS, kindInfo, shortTileName, tileName as mjName, wildKinds } from '../games/tianjin/tiles.js';
import { tileSvg } from '../games/tianjin/tile_art.js';
import { h } from '../dom.js';
import { say } from './strings.js';

/* --- Tien Gow --- */

const CIVIL = ['6-6', '1-1', '4-4', '1-3', '5-5', '3-3', '2-2', '5-6', '4-6', '1-6', '1-5'];
const MILITARY = [[9, ['3-6', '4-5']], [8, ['2-6', '3-5']], [7, ['2-5', '3-4']], [6, ['2-4']], [5, ['2-3', '1-4']], [3, ['1-2']]];

function domino(face, lang) {
  const name = tgName(face, lang);
  return h('span', { class: 'chart-tile tg-tile', role: 'img', 'aria-label': `${name} ${face}`, dataset: { face } }, dominoSvg(face));
}

/* One kind: its tiles (two of a civil kind), its names and its faces. */
function tgKind(face, count, lang, label) {
  const info = tileInfo(face);
  const zh = lang === 'zh-Hans' ? info.hans : info.hant;
  return h('li', { class: 'chart-kind', dataset: { kind: face } },
    h('span', { class: 'chart-tiles' }, Array.from({ length: count }, () => domino(face, lang))),
    h('span', { class: 'chart-label' }, label),
    h('span', { class: 'chart-name', lang: lang === 'zh-Hans' ? 'zh-Hans' : 'zh-Hant' }, zh),
    lang === 'en' ? h('span', { class: 'chart-en' }, info.en) : null,
    h('span', { class: 'chart-face' }, face));
}

function tiengowChart(lang) {
  return h('div', { id: 'tile-chart', class: 'tile-chart', dataset: { game: 'tiengow' } },
    h('h3', {}, say(lang, 'chart.civil')),
    h('ol', { class: 'chart-row' }, CIVIL.map((face, i) => tgKind(face, 2, lang, say(lang, 'chart.rank', { n: i + 1 })))),
    h('h3', {}, say(lang, 'chart.military')),
    h('ol', { class: 'chart-row' }, MILITARY.flatMap(([total, faces]) =>
      faces.map((face) => tgKind(face, 1, lang, say(lang, 'chart.total', { n: total }))))));
}

/* Combinations of Tien Gow, strongest first, each drawn and named as the table names it. */
export function comboRow(rows, lang) {
  return h('ol', { class: 'combo-row' }, rows.map((faces) =>
    h('li', { class: 'combo', dataset: { combo: faces.join(' ') } },
      h('span', { class: 'combo-tiles' }, faces.map((f) => domino(f, lang))),
      h('span', { class: 'combo-name' }, comboName(faces, lang, {})))));
}

/* --- Tianjin Mahjong --- */

function mjTile(name, lang, mark) {
  const span = h('span', { class: `chart-tile mj-tile${mark ? ` chart-${mark}` : ''}`, role: 'img',
    'aria-label': mjName(name, lang), dataset: { kind: name } });
  /* tile_art's own drawing: a constant SVG string of the client's, never player input */
  span.innerHTML = tileSvg(name, { lang, wild: mark === 'wild', indicator: mark === 'indicator' });
  return span;
}

function mjCaption(name, lang) {
  const k = kindInfo(name);
  return lang === 'en' ? [h('span', { class: 'chart-name' }, k.hant), h('span', { class: 'chart-en' }, shortTileName(name, 'en'))]
    : [h('span', { class: 'chart-name' }, mjName(name, lang))];
}

const MJ_GROUPS = ['m', 'p', 's', 'wind', 'dragon'];

function tianjinChart(lang) {
  return h('div', { id: 'tile-chart', class: 'tile-chart', dataset: { game: 'tianjin' } },
    MJ_GROUPS.map((group) => [
      h('h3', {}, say(lang, `chart.mj.${group}`)),
      h('ol', { class: 'chart-row chart-row-mj' }, MJ_KINDS.filter((k) => k.group === group).map((k) =>
        h('li', { class: 'chart-kind', dataset: { kind: k.name } }, mjTile(k.name, lang, null), mjCaption(k.name, lang)))),
    ]));
}

/*
 * A row of Tianjin tiles: { tiles: [names or groups of names], caption }, a name ending in '*'
 * drawn as a wild; or { indicator: name, gua, caption }: the indicator and the wilds it makes
 * (under the 刮大风 preset with `gua`).
 */
export function mjRow(spec, lang) {
  if (!spec.tiles) {
    const wilds = wildKinds(spec.indicator, { gua_da_feng: Boolean(spec.gua) });
    return h('figure', { class: 'mj-example' },
      h('div', { class: 'mj-example-tiles' },
        h('span', { class: 'mj-example-part' }, mjTile(spec.indicator, lang, 'indicator'), h('small', {}, say(lang, 'mj.indicator'))),
        h('span', { class: 'mj-example-arrow', 'aria-hidden': 'true' }, '→'),
        h('span', { class: 'mj-example-part' }, h('span', { class: 'mj-example-group' }, wilds.map((w) => mjTile(w, lang, 'wild'))),
          h('small', {}, say(lang, 'mj.wilds')))),
      spec.caption ? h('figcaption', {}, spec.caption) : null);
  }
  /* a name ending in '*' is drawn as a wild */
  const groups = spec.tiles.map((group) => (Array.isArray(group) ? group : [group]));
  return h('figure', { class: 'mj-example' },
    h('div', { class: 'mj-example-tiles' }, groups.map((group) => h('span', { class: 'mj-example-group' },
      group.map((name) => mjTile(name.replace('*', ''), lang, name.endsWith('*') ? 'wild' : null))))),
    spec.caption ? h('figcaption', {}, spec.caption) : null);
}

/* The tile chart of a game, or null for a game without one. */
export function tileChart(game, lang) {
  if (game === 'tiengow') return tiengowChart(lang);
  if (game === 'tianjin') return tianjinChart(lang);
  return null;
}
