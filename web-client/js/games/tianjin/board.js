/*
 * board — what is on a Tianjin table, drawn from a scene (seats.js) whose view has the shape
 * written at the top of view.js: a tile as an element named in the player's language, a row of
 * tiles, the middle of the board (the indicator, the wilds, the wall's count, and each seat's
 * melds and discard river, placed as the seats sit around the player), what a seat shows of the
 * game (the banker's 庄, 坐 when the banker sat, 拉 ×n for pulls; tiles held), the player's own
 * tiles under a replayed step, and every seat's tiles in a finished hand's open replay with the
 * discards it may jump to. The live table, the history and the replay page draw with the same
 * functions.
 */
import { h } from '../../dom.js';
import { t, tn, lang } from '../../i18n.js';
import { badge, playerName, relativePosition, seatName, stat } from '../../seats.js';
import { shortTileName, sortTiles, tileName } from './tiles.js';
import { tileBackSvg, tileSvg } from './tile_art.js';
import { isOver, splitHand, toActOf, wildsOf } from './view.js';
import { describeEvent } from './events.js';

/* A tile's name as a screen reader says it: "五万, 混儿" for a wild. */
export function tileLabel(name, marks = {}) {
  const parts = [tileName(name, lang())];
  if (marks.indicator) parts.push(t('tj.tile.indicator'));
  else if (marks.wild) parts.push(t('tj.tile.wild'));
  return parts.join(', ');
}

/*
 * One tile. opts: small, wild, indicator, caption (its name written under it), and for a tile
 * that can be chosen: onClick, selected, focusKey, disabled.
 */
export function tileElement(name, opts = {}) {
  const label = tileLabel(name, opts);
  const classes = ['mj-tile', opts.small ? 'mj-small' : '', opts.wild ? 'mj-is-wild' : '', opts.indicator ? 'mj-is-indicator' : '',
    opts.selected ? 'mj-selected' : ''].filter(Boolean).join(' ');
  const el = opts.onClick
    ? h('button', { type: 'button', class: classes, title: label, 'aria-label': label, 'aria-pressed': opts.selected ? 'true' : 'false',
      disabled: opts.disabled, dataset: { tile: name, focus: opts.focusKey }, onclick: opts.onClick })
    : h('span', { class: classes, title: label, role: 'img', 'aria-label': label, dataset: { tile: name } });
  const svg = tileSvg(name, { lang: lang(), wild: opts.wild, indicator: opts.indicator });
  if (svg) el.innerHTML = svg; /* one of 34 fixed drawings: never text from the wire */
  else el.textContent = String(name); /* a name this client does not know, shown as it came */
  if (!opts.caption) return el;
  return h('figure', { class: 'mj-captioned' }, el, h('figcaption', {}, shortTileName(name, lang())));
}

export function tileBack(small) {
  const el = h('span', { class: `mj-tile mj-face-down${small ? ' mj-small' : ''}`, role: 'img', 'aria-label': t('tj.tile.back') });
  el.innerHTML = tileBackSvg();
  return el;
}

/* Tiles in the order given, each marked wild when its kind is one of `wilds`. */
export function tileRow(tiles, wilds, opts = {}) {
  const wild = new Set(wilds || []);
  return h('span', { class: 'mj-row' }, tiles.map((name) => tileElement(name, { ...opts, wild: wild.has(name) })));
}

/* A meld as it lies: a concealed kong with its two end tiles face down. */
export function meldElement(meld, wilds) {
  const wild = new Set(wilds || []);
  const hidden = meld.kind === 'concealed_kong';
  const tiles = meld.tiles.map((name, i) => (hidden && (i === 0 || i === 3) ? tileBack(true)
    : tileElement(name, { small: true, wild: wild.has(name) })));
  return h('span', { class: `mj-meld mj-meld-${meld.kind}`, role: 'group',
    'aria-label': `${t('tj.meld.' + meld.kind)}: ${tileName(meld.tiles[0], lang())}` }, tiles);
}

/* --- what a seat shows of the game --- */

/* The banker: the hand's own while it is played, else the table's game_state (the next banker between hands). */
export function bankerOf(scene) {
  const view = scene.view;
  if (scene.phase === 'playing' && view && Number.isInteger(view.banker)) return view.banker;
  const state = scene.gameState;
  return state && Number.isInteger(state.banker) ? state.banker : null;
}

/* The seat's badges: the banker's 庄 (× its count when it keeps the bank), 坐 ×2 once it sat, 拉 ×2
 * or ×4 for a seat's pulls once shown (the player's own choice before that), each with its factor. */
export function seatBadges(scene, seat) {
  const badges = [];
  const view = scene.phase === 'playing' ? scene.view : null;
  if (bankerOf(scene) === seat) {
    const count = view && Number.isInteger(view.count) && view.count > 1 ? view.count : 0;
    badges.push(badge(count ? `${t('tj.badge.banker')} ${t('tj.badge.count', { n: count })}` : t('tj.badge.banker'),
      'mj-badge-banker', t('tj.table.banker')));
    if (view && view.sat) badges.push(badge(`${t('tj.badge.sat')} ×2`, 'mj-badge-sat', t('tj.table.sat')));
  }
  let pulls = view && Array.isArray(view.pulls) ? view.pulls[seat] || 0 : 0;
  if (view && !Array.isArray(view.pulls) && seat === view.seat && Number.isInteger(view.pull)) pulls = view.pull;
  if (pulls > 0) badges.push(badge(t('tj.badge.pulled', { n: 2 ** pulls }), 'mj-badge-pull', t('tj.table.pulled', { n: 2 ** pulls })));
  return badges;
}

export function seatStats(scene, seat) {
  const view = scene.view;
  if (!view || !Array.isArray(view.held)) return [];
  return [stat('mj-stat-held', t('tj.table.held'), String(view.held[seat]))];
}

/* The seat to act in a replayed step (a replay's frames carry no decision list). */
export function decidingInView(view) {
  return toActOf(view);
}

/* --- the middle of the board --- */

function infoBar(view, wilds) {
  const indicator = view.indicator
    ? h('div', { class: 'mj-indicator' }, h('span', { class: 'mj-label' }, t('tj.table.indicator')),
      tileElement(view.indicator, { indicator: true, caption: true }))
    : null;
  const wildList = wilds.length
    ? h('div', { class: 'mj-wilds' }, h('span', { class: 'mj-label' }, t('tj.table.wilds')),
      h('span', { class: 'mj-row' }, wilds.map((name) => tileElement(name, { small: true, wild: true, caption: true }))))
    : null;
  const wall = Number.isInteger(view.wall)
    ? h('div', { class: 'mj-wall', id: 'mj-wall', dataset: { left: String(view.wall) } }, tn('tj.table.wall', view.wall)) : null;
  const pulls = view.phase === 'pull' ? h('div', { class: 'mj-phase' }, t('tj.table.pulling')) : null;
  const sitting = view.phase === 'sit' ? h('div', { class: 'mj-phase' }, t('tj.table.sitting')) : null;
  return h('div', { class: 'mj-info' }, indicator, wildList, wall, sitting, pulls);
}

/* A river, its last tile marked when a claim window is open on it. */
function riverRow(river, wilds, claimed) {
  const wild = new Set(wilds || []);
  return h('span', { class: 'mj-row' }, river.map((name, i) => {
    const el = tileElement(name, { small: true, wild: wild.has(name) });
    if (claimed && i === river.length - 1) {
      el.classList.add('mj-claimable');
      el.id = 'mj-window-tile';
    }
    return el;
  }));
}

/* One seat's melds and river, labelled with the seat. */
function seatArea(scene, seat, wilds) {
  const view = scene.view;
  const melds = (view.melds && view.melds[seat]) || [];
  const river = (view.discards && view.discards[seat]) || [];
  const claimed = view.discard && view.discard.seat === seat; /* its last tile is the one a window is about */
  const wildDiscarded = Array.isArray(view.wild_discards) && view.wild_discards.includes(seat);
  const where = relativePosition(seat, scene.mySeat);
  return h('section', { class: `mj-area mj-at-${where}`, dataset: { seat: String(seat) },
    'aria-label': t('tj.table.seatArea', { name: seatName(scene.seats, seat) }) },
  h('div', { class: 'mj-area-head' }, h('span', { class: 'seat-wind' }, t('wind.' + seat)), ' ', playerName(scene.seats, seat)),
  melds.length ? h('div', { class: 'mj-melds', role: 'group', 'aria-label': t('tj.table.melds') },
    melds.map((m) => meldElement(m, wilds))) : null,
  h('div', { class: 'mj-river', role: 'group', 'aria-label': t('tj.table.discards') },
    river.length ? riverRow(river, wilds, claimed) : h('span', { class: 'mj-muted' }, t('tj.table.noDiscards'))),
  wildDiscarded ? h('div', { class: 'mj-wild-discarded' }, t('tj.table.wildDiscarded')) : null);
}

/* The indicator, wilds and wall, then every seat's melds and river around them. */
export function renderCenter(scene) {
  const view = scene.view;
  if (!view || (!view.indicator && !view.discards && view.phase !== 'sit' && view.phase !== 'pull')) return null;
  const wilds = wildsOf(view, scene.options);
  return h('div', { id: 'mj-center', class: `mj-center${isOver(view) ? ' mj-over' : ''}` },
    infoBar(view, wilds),
    Array.isArray(view.discards) ? [0, 1, 2, 3].map((seat) => seatArea(scene, seat, wilds)) : null);
}

/* The player's own tiles under a replayed step, drawn tile apart, or null for a spectator's replay. */
export function renderReplayHand(scene) {
  const { hand, drawn } = splitHand(scene.view, scene.options);
  if (!hand) return null;
  const wilds = wildsOf(scene.view, scene.options);
  return h('div', { class: 'mj-replay-hand' }, h('span', { class: 'mj-muted' }, t('table.yourHand')), ' ',
    tileRow(hand, wilds, { small: true }),
    drawn ? h('span', { class: 'mj-drawn' }, tileRow([drawn], wilds, { small: true })) : null);
}

/* One seat's tiles in the open view of a finished hand's replay (view.hands), sorted, or null. */
export function renderOpenHand(scene, seat) {
  const hands = scene.view && Array.isArray(scene.view.hands) ? scene.view.hands : null;
  const tiles = hands && Array.isArray(hands[seat]) ? hands[seat] : null;
  if (!tiles) return null;
  const wilds = wildsOf(scene.view, scene.options);
  return h('div', { class: 'open-hand mj-open-hand', dataset: { seat: String(seat), tiles: String(tiles.length) } },
    tileRow(sortTiles(tiles, wilds), wilds, { small: true }));
}

/* The steps a replay may jump to: each discard (a turn's end), [{ step, label }]. */
export function replayMarks(frames, seats, options) {
  const marks = [];
  frames.forEach((frame, step) => {
    const ev = frame.event || {};
    if (ev.kind === 'action' && ev.discard !== undefined) {
      marks.push({ step, label: t('tj.replay.discard', { n: marks.length + 1, what: describeEvent(ev, seats, options) }) });
    }
  });
  return marks;
}
