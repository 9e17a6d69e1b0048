/*
 * board — one step of a hand drawn from the game's view_admin: the four seat panels (occupant,
 * badges, the seat to act) around the middle, with what goes inside each drawn by the game's
 * admin part (games.js); and one action or event told in words and tiles. A game without an
 * admin part gets no board. Nothing here reads a game's own fields.
 */
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { dataTable, seatName, seatWho, section } from './ui.js';
import { gameAdmin } from './games.js';
import { isFace, isFaces, tileEl, tileRow } from './tiles.js';

/* One action or event as words and tiles: {"discard":"7p"} → "discards [7p]". */
export function describeAction(game, action, event) {
  const a = action && typeof action === 'object' && !Array.isArray(action) ? action : {};
  const e = event && typeof event === 'object' && !Array.isArray(event) ? event : {};
  const g = gameAdmin(game);
  const parts = [];
  const seen = new Set(['seat', 'kind', 'by_bot']);
  /* a game's own word first, else the house's, else the key itself */
  const word = (key, v) => {
    const special = g && g.actionWord ? g.actionWord(key, v) : null;
    if (special) return special;
    for (const k of [`adm.act.${game}.${key}`, `adm.act.${key}`]) if (t(k) !== k) return t(k);
    return key;
  };
  const value = (v) => {
    if (isFace(game, v)) return tileEl(game, v, { small: true });
    if (isFaces(game, v)) return tileRow(game, v, { small: true });
    if (v === true || v === false || v === null || v === undefined) return null;
    if (typeof v === 'object') return h('span', {}, Array.isArray(v) ? v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(' ') : JSON.stringify(v));
    return h('span', {}, String(v));
  };
  const add = (key, v, cls) => {
    const special = g && g.actionWord ? g.actionWord(key, v) : null;
    parts.push(h('span', { class: cls, dataset: { act: key } }, word(key, v), special ? null : [' ', value(v)]));
  };
  for (const [key, v] of Object.entries(a)) {
    if (seen.has(key)) continue;
    seen.add(key);
    /* the event names the tile an action only claims ({"claim":true} → {"claim":"7p"}) */
    add(key, v === true && isFace(game, e[key]) ? e[key] : v, 'adm-act');
  }
  for (const [key, v] of Object.entries(e)) if (!seen.has(key)) add(key, v, 'adm-act adm-event');
  return parts;
}

/* A seat's panel: its wind, occupant, badges (opts.badges: texts), and the game's body. */
function seatPanel(i, seats, body, opts = {}) {
  const acting = opts.acting === i;
  return h('div', { class: `adm-seat seat-${i}${acting ? ' acting' : ''}`, dataset: { seat: String(i) } },
    h('div', { class: 'adm-seat-head' },
      h('strong', {}, seatName(i)), ' ', seatWho(seats[i]),
      (opts.badges || []).map((b) => h('span', { class: 'adm-badge lead' }, b)),
      acting ? h('span', { class: 'adm-badge acting' }, t('adm.toAct')) : null),
    body);
}

/* The toolbox a game's admin part draws with, for the hand's game. */
export function kitFor(game) {
  return {
    seatName, seatWho, dataTable, section,
    seatPanel,
    tileEl: (face, opts) => tileEl(game, face, opts),
    tileRow: (faces, opts) => tileRow(game, faces, opts),
    describe: (action, event) => describeAction(game, action, event),
  };
}

/* The board for a view; seats: the hand's [{player, nickname, bot, net}×4]. */
export function drawView(game, view, seats) {
  const g = gameAdmin(game);
  if (!g) return h('p', { class: 'muted' }, t('adm.replay.none'));
  const v = view && typeof view === 'object' ? view : {};
  const [panels, middle] = g.drawBoard(v, Array.isArray(seats) ? seats : [], kitFor(game));
  return h('div', { class: 'adm-board' }, panels[2], h('div', { class: 'adm-board-mid' }, panels[3], middle, panels[1]), panels[0]);
}
