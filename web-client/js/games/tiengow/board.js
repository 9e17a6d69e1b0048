/*
 * board — what is on a Tien Gow table, drawn from a scene (seats.js): the tiles as dominoes
 * (a hand's, a trick's, face down), the trick in the middle of the board, and what a seat shows
 * of the game — the banker's 莊 ×m badge, its stacks won and tiles held — and, in a finished
 * hand's open replay, every seat's tiles and the tricks it may jump to. The live table, the
 * history stepper and the replay page draw with the same functions, so a replayed step looks as
 * the table did.
 */
import { h } from '../../dom.js';
import { t, tn, lang } from '../../i18n.js';
import { badge, playerName, relativePosition, seatName, stat } from '../../seats.js';
import { comboInfo, comboName, dominoBackSvg, dominoSvg, sortTiles, tileName } from './tiles.js';

/*
 * One tile: a button when it can be selected, else a plain figure; always with a name, which a
 * `named` tile (the player's hand) also shows under it.
 */
export function tileElement(face, opts = {}) {
  const name = tileName(face, lang());
  const label = `${name} (${face})`;
  const classes = ['tile', opts.small ? 'tile-small' : '', opts.named ? 'tile-named' : '', opts.selected ? 'selected' : '',
    opts.highlight ? 'playable' : ''].filter(Boolean).join(' ');
  /* English names end with the Chinese one ("Heaven 天牌"): each on its own line */
  const caption = opts.named ? h('span', { class: 'tile-name', 'aria-hidden': 'true' }, name.replace(/ (\S+)$/, '\n$1')) : null;
  if (opts.onToggle) {
    return h('button', {
      type: 'button', class: classes, title: label, 'aria-label': label,
      'aria-pressed': opts.selected ? 'true' : 'false', dataset: { face, focus: opts.focusKey },
      onclick: opts.onToggle,
    }, dominoSvg(face), caption);
  }
  return h('span', { class: classes, title: label, role: 'img', 'aria-label': label, dataset: { face } },
    dominoSvg(face));
}

export function tileBack(small) {
  return h('span', { class: `tile tile-back${small ? ' tile-small' : ''}`, role: 'img', 'aria-label': t('tg.tile.back') },
    dominoBackSvg());
}

export function tileRow(faces, opts = {}) {
  return h('span', { class: 'tile-row' }, sortTiles(faces).map((f) => tileElement(f, opts)));
}

/* --- what a seat shows of the game --- */

/* The banker and multiplier: the hand's own while it is played (its view says them), else the
 * table's game_state, which after a hand already names the next banker. */
export function bankOf(scene) {
  const view = scene.view;
  if (scene.phase === 'playing' && view && Number.isInteger(view.banker)) return { banker: view.banker, multiplier: view.multiplier };
  const state = scene.gameState;
  return state && Number.isInteger(state.banker) ? { banker: state.banker, multiplier: state.multiplier } : null;
}

/* The banker's badge: 莊 ×m. */
export function seatBadges(scene, seat) {
  const bank = bankOf(scene);
  if (!bank || bank.banker !== seat) return [];
  return [badge(`${t('tg.table.bankerMark')} ×${bank.multiplier}`, 'badge-banker', `${t('tg.table.banker')} ×${bank.multiplier}`)];
}

/* Stacks won and tiles held, while there is a hand to show. */
export function seatStats(scene, seat) {
  const view = scene.view;
  if (!view) return [];
  return [
    stat('stat-stacks', t('tg.table.stacks'), h('b', {}, String(view.stacks[seat]))),
    stat('stat-held', t('tg.table.tilesLeft'), String(view.held[seat])),
  ];
}

/* The seat to act in a replayed step (a replay's frames carry no decision list). */
export function decidingInView(view) {
  return view && !view.over && Number.isInteger(view.to_act) ? [{ seat: view.to_act, kind: 'turn' }] : [];
}

/* The player's own tiles under a replayed step, or null for a spectator's replay. */
export function renderReplayHand(scene) {
  const view = scene.view;
  const mine = view && Array.isArray(view.hand) && view.hand.length ? view.hand : null;
  return mine ? h('div', { class: 'replay-hand' }, h('span', { class: 'muted' }, t('table.yourHand')), ' ', tileRow(mine, { small: true })) : null;
}

/* One seat's tiles in the open view of a finished hand's replay (view.hands), or null. */
export function renderOpenHand(scene, seat) {
  const hands = scene.view && Array.isArray(scene.view.hands) ? scene.view.hands : null;
  const tiles = hands && Array.isArray(hands[seat]) ? hands[seat] : null;
  if (!tiles) return null;
  return h('div', { class: 'open-hand', dataset: { seat: String(seat), tiles: String(tiles.length) } },
    tiles.length ? tileRow(tiles, { small: true }) : h('span', { class: 'muted' }, '—'));
}

/* The steps a replay may jump to: the lead of each trick, [{ step, label }]. */
export function replayMarks(frames) {
  const marks = [];
  let seen = 0;
  frames.forEach((frame, step) => {
    const view = frame.view || {};
    const n = (view.tricks || []).length + (view.trick && view.trick.plays && view.trick.plays.length ? 1 : 0);
    if (n > seen) marks.push({ step, label: t('tg.replay.trick', { n }) });
    seen = Math.max(seen, n);
  });
  return marks;
}

/* --- the trick --- */

/* The open trick, or the last completed one (shown until the next lead) with its winner. */
function currentTrick(view) {
  if (!view) return null;
  if (view.trick && view.trick.plays && view.trick.plays.length) return { trick: view.trick, done: false };
  const tricks = view.tricks || [];
  if (tricks.length) return { trick: tricks[tricks.length - 1], done: true };
  return null;
}

export function bestPlay(trick) {
  const best = trick.best_seat !== undefined ? trick.best_seat : trick.winner;
  return trick.plays.find((p) => p.seat === best && p.play) || null;
}

/*
 * A play arrives in the trick with a short slide from its seat's side (CSS, off under
 * prefers-reduced-motion). The board is redrawn after every message, so a play remembers when it
 * was first drawn and a redraw during its slide continues it (a negative animation-delay) rather
 * than starting it again or cutting it short.
 */
const ARRIVE_MS = 350;
const firstDrawn = new Map();

function arrival(key) {
  const now = Date.now();
  if (!firstDrawn.has(key)) {
    if (firstDrawn.size > 200) {
      for (const [k, at] of firstDrawn) if (now - at > 60000) firstDrawn.delete(k);
    }
    firstDrawn.set(key, now);
  }
  const elapsed = now - firstDrawn.get(key);
  return elapsed < ARRIVE_MS ? { class: ' arriving', style: `animation-delay: ${-elapsed}ms` } : { class: '', style: null };
}

export function renderTrick(scene) {
  const found = currentTrick(scene.view);
  const natural = scene.view && scene.view.natural;
  if (natural) {
    return h('div', { id: 'trick', class: 'trick trick-natural' },
      h('div', { class: 'trick-caption' }, t('tg.settle.natural', { name: seatName(scene.seats, natural.seat) })),
      tileRow(natural.tiles, { small: true }));
  }
  if (!found) return h('div', { id: 'trick', class: 'trick trick-empty' }, h('p', { class: 'muted' }, t('tg.trick.none')));
  const { trick, done } = found;
  const best = trick.best_seat !== undefined ? trick.best_seat : trick.winner;
  const options = scene.options;
  const number = (scene.view.tricks || []).length - (done ? 1 : 0);
  const widest = Math.max(...trick.plays.map((p) => (p.play ? p.play.length : p.discard || 0)));
  const plays = trick.plays.map((p, i) => {
    const isBest = p.seat === best && p.play;
    const arrive = arrival(`${number}|${i}|${p.seat}|${p.play ? p.play.join('.') : p.discard}`);
    let role;
    if (p.play) role = i === 0 ? t('tg.trick.led') : t('tg.trick.beats');
    else role = t('tg.trick.discarded', { n: p.discard });
    /* a finished hand's open replay shows a discard's faces (p.faces), face down at the table */
    const tiles = p.play
      ? h('span', { class: 'tile-row' }, sortTiles(p.play).map((f) => tileElement(f, { small: true })))
      : h('span', { class: `tile-row${Array.isArray(p.faces) ? ' discard-open' : ''}` },
        Array.isArray(p.faces) ? sortTiles(p.faces).map((f) => tileElement(f, { small: true }))
          : Array.from({ length: p.discard }, () => tileBack(true)));
    return h('div', { class: `trick-play${isBest ? ' best' : ''}${p.play ? '' : ' discard'}${arrive.class}`, style: arrive.style,
      dataset: { seat: String(p.seat), from: relativePosition(p.seat, scene.mySeat) } },
      h('div', { class: 'trick-who' }, h('span', { class: 'seat-wind' }, t('wind.' + p.seat)), ' ', playerName(scene.seats, p.seat)),
      tiles,
      h('div', { class: 'trick-role' }, role, p.play ? ` · ${comboName(p.play, lang(), options)}` : ''),
      isBest && !done ? h('div', { class: 'trick-best' }, t('tg.trick.best')) : null);
  });
  const caption = done
    ? tn('tg.trick.wonBy', trick.tiles, { name: seatName(scene.seats, trick.winner) })
    : (trick.final ? t('tg.trick.final') : t('tg.trick.title'));
  return h('div', { id: 'trick', class: `trick${done ? ' trick-done' : ''}${trick.final ? ' trick-final' : ''}${widest >= 3 ? ' trick-wide' : ''}` },
    h('div', { class: 'trick-caption' }, caption),
    h('div', { class: 'trick-plays' }, plays));
}

/* The type word of the combination to beat ("civil pair"), for the hint under the hand. */
export function comboTypeName(faces, options) {
  const info = comboInfo(faces, options);
  return t('tg.type.' + (info ? info.type : 'combination'));
}
