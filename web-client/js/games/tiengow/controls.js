/*
 * controls — the player's own part of a live Tien Gow hand: the hint of what to do, the hand with
 * the tiles that can still make a legal play highlighted, the legal multi-tile plays as chips,
 * and the Play, Discard and Clear buttons. Play and Discard are enabled only for a selection the
 * server's legal list allows (play.js), and the click handlers check again before sending.
 *
 * It draws from a controls context (registry.js): the player's view and seat, the seats, the
 * options, `ui` (this hand's scratch: the selected tiles, a move on its way), act() and
 * rerender().
 */
import { h } from '../../dom.js';
import { t, tn, lang } from '../../i18n.js';
import { playerName } from '../../seats.js';
import { comboName, sortTiles, tilesKey } from './tiles.js';
import { analyzeSelection, indicesOf } from './play.js';
import { bestPlay, comboTypeName, tileElement } from './board.js';

/* The player's hand in display order and what the selection allows; hand null for a spectator. */
function analyzeMine(ctx) {
  const view = ctx.view;
  const ui = ctx.ui;
  if (!ui.selected) ui.selected = new Set();
  const hand = view && Array.isArray(view.hand) && ctx.seat !== null ? sortTiles(view.hand) : null;
  const myTurn = Boolean(hand && !view.over && view.to_act === ctx.seat);
  if (!hand) return { hand: null, myTurn };
  const key = hand.join(',');
  if (key !== ui.handKey) {
    ui.handKey = key;
    ui.selected = new Set();
  }
  return { hand, myTurn, ...analyzeSelection(hand, ui.selected, myTurn ? view.legal : null, myTurn) };
}

function hintText(ctx, mine) {
  const view = ctx.view;
  if (!mine.myTurn) {
    const seat = view.to_act;
    return Number.isInteger(seat) ? t('tg.play.waitFor', { name: playerName(ctx.seats, seat) }) : '';
  }
  const trick = view.trick && view.trick.plays && view.trick.plays.length ? view.trick : null;
  if (!trick) return t('tg.play.lead');
  const best = bestPlay(trick);
  const combo = best ? comboName(best.play, lang(), ctx.options) : '';
  const n = view.legal && view.legal.discard;
  if (view.legal && view.legal.barred) return tn('tg.play.barred', n);
  if (!mine.plays.length) return tn('tg.play.mustDiscard', n, { combo });
  return tn('tg.play.follow', n, { combo, type: best ? comboTypeName(best.play, ctx.options) : '' });
}

function toggleTile(ctx, i, mine) {
  const selected = new Set(ctx.ui.selected);
  if (selected.has(i)) selected.delete(i);
  else if (selected.size < mine.maxSelect) selected.add(i);
  else return;
  ctx.ui.selected = selected;
  ctx.rerender();
}

function selectPlay(ctx, hand, faces) {
  const indices = indicesOf(hand, faces);
  if (!indices) return;
  ctx.ui.selected = indices;
  ctx.rerender();
}

function send(ctx, kind) {
  const mine = analyzeMine(ctx);
  const allowed = kind === 'play' ? mine.canPlay : mine.canDiscard;
  const ui = ctx.ui;
  if (!mine.myTurn || !allowed || ui.pending) return; /* the buttons are disabled then too */
  ui.pending = true;
  ctx.rerender();
  ctx.act({ [kind]: mine.chosen }).finally(() => {
    ui.pending = false;
    ctx.rerender();
  });
}

/* Left and right arrows move between the tiles of the hand. */
function handKeys(e) {
  if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
  const tiles = [...e.currentTarget.querySelectorAll('.tile')];
  const at = tiles.indexOf(document.activeElement);
  if (at < 0) return;
  const next = tiles[(at + (e.key === 'ArrowRight' ? 1 : tiles.length - 1)) % tiles.length];
  next.focus();
  e.preventDefault();
}

/* The player's hand and actions while a hand is played, or null when they hold no tiles. */
export function renderControls(ctx) {
  const mine = analyzeMine(ctx);
  const hand = mine.hand;
  if (!hand) return null;
  const view = ctx.view;
  const ui = ctx.ui;
  const tiles = hand.map((face, i) => tileElement(face, {
    selected: ui.selected.has(i), highlight: mine.myTurn && mine.highlight[i], focusKey: `tile-${i}`,
    onToggle: () => toggleTile(ctx, i, mine),
  }));
  const leading = mine.myTurn && !(view.trick && view.trick.plays && view.trick.plays.length);
  const chips = mine.myTurn ? mine.plays.filter((p) => !leading || p.length > 1) : [];
  const selectedKey = tilesKey(mine.chosen);
  const status = mine.chosen.length && mine.myTurn && !mine.canPlay && !mine.canDiscard
    ? (mine.discardCount !== null && !mine.plays.length ? tn('tg.play.discardHint', mine.discardCount) : t('tg.play.notLegal'))
    : '';
  return [
    h('p', { id: 'play-hint', class: `play-hint${mine.myTurn ? ' my-turn' : ''}` }, hintText(ctx, mine)),
    h('div', { id: 'hand', class: 'hand', role: 'group', 'aria-label': t('table.yourHand'), onkeydown: handKeys }, tiles),
    chips.length || leading ? h('div', { class: 'legal-plays', role: 'group', 'aria-label': t('tg.play.legal') },
      h('span', { class: 'legal-label' }, `${t('tg.play.legal')}:`),
      chips.map((p) => h('button', { type: 'button', class: `legal-play${tilesKey(p) === selectedKey ? ' active' : ''}`,
        dataset: { tiles: p.join(','), focus: `legal-${p.join(',')}` }, onclick: () => selectPlay(ctx, hand, p) },
      comboName(p, lang(), ctx.options))),
      leading ? h('span', { class: 'muted' }, t('tg.play.anySingle')) : null) : null,
    h('div', { class: 'actions' },
      h('button', { type: 'button', id: 'play-button', dataset: { focus: 'play' },
        disabled: !(mine.myTurn && mine.canPlay) || ui.pending, onclick: () => send(ctx, 'play') }, t('tg.play.play')),
      h('button', { type: 'button', id: 'discard-button', class: 'secondary', dataset: { focus: 'discard' },
        disabled: !(mine.myTurn && mine.canDiscard) || ui.pending, onclick: () => send(ctx, 'discard') },
      mine.discardCount !== null ? `${t('tg.play.discard')} ${mine.discardCount}` : t('tg.play.discard')),
      h('button', { type: 'button', id: 'clear-button', class: 'link', dataset: { focus: 'clear' },
        disabled: mine.chosen.length === 0, onclick: () => { ui.selected = new Set(); ctx.rerender(); } }, t('tg.play.clear')),
      h('span', { class: 'play-status', role: 'status' }, ui.pending ? t('tg.play.sending') : status)),
  ];
}
