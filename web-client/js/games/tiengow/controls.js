/*
 * controls — the player's own part of a live Tien Gow hand: the hint of what to do, the hand with
 * the tiles that can still make a legal play highlighted, the legal multi-tile plays as chips,
 * and the Play, Discard and Clear buttons (no Discard for the leader, who must play). A selection
 * that is no legal play says why, in the engine's words. Play and Discard are enabled only for a selection the
 * server's legal list allows (play.js), and the click handlers check again before sending.
 *
 * It draws from a controls context (registry.js): the player's view and seat, the seats, the
 * options, `ui` (this hand's scratch: the selected tiles, a move on its way), act() and
 * rerender().
 */
import { h } from '../../dom.js';
import { has, t, tn, lang } from '../../i18n.js';
import { playerName } from '../../seats.js';
import { comboName, sortTiles, tilesKey } from './tiles.js';
import { analyzeSelection, indicesOf, refusalOf } from './play.js';
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

/* Why the selection is no legal play, in the engine's words (its refusal code, translated). */
function whyNotLegal(ctx, mine) {
  const view = ctx.view;
  const trick = view.trick && view.trick.plays && view.trick.plays.length ? view.trick : null;
  const best = trick ? bestPlay(trick) : null;
  const code = refusalOf(mine.chosen, best ? best.play : null, view.legal, ctx.options);
  return code && has(`err.${code}`) ? t(`err.${code}`) : t('tg.play.notLegal');
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

/* Under the buttons: why Play is off for the selection (a discard of the right count may still go). */
function statusText(ctx, mine) {
  if (!mine.chosen.length || !mine.myTurn || mine.canPlay) return '';
  if (mine.discardCount !== null && !mine.plays.length) return mine.canDiscard ? '' : tn('tg.play.discardHint', mine.discardCount);
  return whyNotLegal(ctx, mine);
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
    selected: ui.selected.has(i), highlight: mine.myTurn && mine.highlight[i], focusKey: `tile-${i}`, named: true,
    onToggle: () => toggleTile(ctx, i, mine),
  }));
  const leading = mine.myTurn && !(view.trick && view.trick.plays && view.trick.plays.length);
  const chips = mine.myTurn ? mine.plays.filter((p) => !leading || p.length > 1) : [];
  const selectedKey = tilesKey(mine.chosen);
  const status = statusText(ctx, mine);
  return [
    h('p', { id: 'play-hint', class: `play-hint${mine.myTurn ? ' my-turn' : ''}` }, hintText(ctx, mine)),
    h('div', { id: 'hand', class: 'hand', role: 'group', 'aria-label': t('table.yourHand'), onkeydown: handKeys }, tiles),
    chips.length ? h('div', { class: 'legal-plays', role: 'group', 'aria-label': t('tg.play.legal') },
      h('span', { class: 'legal-label' }, `${t('tg.play.legal')}:`),
      chips.map((p) => h('button', { type: 'button', class: `legal-play${tilesKey(p) === selectedKey ? ' active' : ''}`,
        dataset: { tiles: p.join(','), focus: `legal-${p.join(',')}` }, onclick: () => selectPlay(ctx, hand, p) },
      comboName(p, lang(), ctx.options))),
      leading ? h('span', { class: 'muted' }, t('tg.play.anySingle')) : null) : null,
    leading && !chips.length ? h('p', { class: 'legal-plays muted' }, t('tg.play.singlesOnly')) : null,
    h('div', { class: 'actions' },
      h('button', { type: 'button', id: 'play-button', dataset: { focus: 'play' },
        disabled: !(mine.myTurn && mine.canPlay) || ui.pending, onclick: () => send(ctx, 'play') }, t('tg.play.play')),
      leading ? null : h('button', { type: 'button', id: 'discard-button', class: 'secondary', dataset: { focus: 'discard' },
        disabled: !(mine.myTurn && mine.canDiscard) || ui.pending, onclick: () => send(ctx, 'discard') },
      mine.discardCount !== null ? `${t('tg.play.discard')} ${mine.discardCount}` : t('tg.play.discard')),
      h('button', { type: 'button', id: 'clear-button', class: 'link', dataset: { focus: 'clear' },
        disabled: mine.chosen.length === 0, onclick: () => { ui.selected = new Set(); ctx.rerender(); } }, t('tg.play.clear')),
      h('span', { class: 'play-status', role: 'status' }, ui.pending ? t('tg.play.sending') : status)),
  ];
}
