/*
 * tiles — a tile of a hand's game drawn for the admin pages by the game's own admin part (its
 * drawing, its name for screen readers and as a tooltip). A face the game does not know (the
 * wire is not trusted), or a game without an admin part, shows the text in a box, never parsed.
 */
import { h } from '../dom.js';
import { gameAdmin } from './games.js';

export function isFace(game, v) {
  const g = gameAdmin(game);
  return Boolean(g && g.isFace(v));
}

export function isFaces(game, v) {
  return Array.isArray(v) && v.length > 0 && v.every((f) => isFace(game, f));
}

export function tileEl(game, face, opts = {}) {
  if (isFace(game, face)) return gameAdmin(game).tileEl(face, opts);
  return h('span', { class: 'adm-tile adm-tile-text' }, String(face));
}

/* A row of tiles; the faces in opts.wilds are marked as the game marks them. */
export function tileRow(game, faces, opts = {}) {
  const list = Array.isArray(faces) ? faces : [];
  const wilds = new Set(Array.isArray(opts.wilds) ? opts.wilds : []);
  return h('span', { class: 'adm-tiles' }, list.map((f) => tileEl(game, f, { ...opts, wild: wilds.has(f) })));
}
