/*
 * tiles — a tile of either game drawn for the admin pages, with its name for screen readers and
 * as a tooltip: Tien Gow's dominoes from games/tiengow/tiles.js, Tianjin's faces from
 * games/tianjin/tile_art.js. A face the game does not know (the wire is not trusted) is shown
 * as its text in a box, never parsed.
 */
import { h } from '../dom.js';
import { lang } from '../i18n.js';
import { dominoSvg, isTileFace, tileName as tgName } from '../games/tiengow/tiles.js';
import { isTileName, tileName as mjName } from '../games/tianjin/tiles.js';
import { tileSvg } from '../games/tianjin/tile_art.js';

const parser = typeof DOMParser !== 'undefined' ? new DOMParser() : null;

/* One of the 34 fixed drawings of tile_art.js (never text from the wire), as a node. */
function mjNode(name, opts) {
  const text = tileSvg(name, { lang: lang(), wild: opts.wild, indicator: opts.indicator });
  const doc = parser.parseFromString(text, 'image/svg+xml');
  return document.importNode(doc.documentElement, true);
}

export function tileEl(game, face, opts = {}) {
  const cls = `adm-tile adm-tile-${game}${opts.small ? ' small' : ''}${opts.cls ? ` ${opts.cls}` : ''}`;
  if (game === 'tiengow' && isTileFace(face)) {
    const name = tgName(face, lang());
    return h('span', { class: cls, role: 'img', 'aria-label': name, title: name, dataset: { face } }, dominoSvg(face));
  }
  if (game === 'tianjin' && isTileName(face)) {
    const name = mjName(face, lang());
    return h('span', { class: cls, role: 'img', 'aria-label': name, title: name, dataset: { face } }, mjNode(face, opts));
  }
  return h('span', { class: `${cls} adm-tile-text` }, String(face));
}

/* A row of tiles; wilds (Tianjin's wild kinds) are marked. */
export function tileRow(game, faces, opts = {}) {
  const list = Array.isArray(faces) ? faces : [];
  const wilds = new Set(opts.wilds || []);
  return h('span', { class: 'adm-tiles' }, list.map((f) => tileEl(game, f, { ...opts, wild: wilds.has(f) })));
}

/* Whether a value is a tile face of the game, or a list of them. */
export function isFace(game, v) {
  return (game === 'tiengow' && isTileFace(v)) || (game === 'tianjin' && isTileName(v));
}

export function isFaces(game, v) {
  return Array.isArray(v) && v.length > 0 && v.every((f) => isFace(game, f));
}
