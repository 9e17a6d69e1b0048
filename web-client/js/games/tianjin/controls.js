/*
 * controls — the player's own part of a live Tianjin hand: a hint of what to do, the hand sorted
 * (wilds first) with the drawn tile set apart, and the buttons of what `legal` allows (view.js):
 * win, the kongs, pung, pass, discard; before the hand, sit (坐庄) or pull (拉庄). A tile is
 * chosen by a tap and discarded by a second tap or the Discard button; only tiles the legal list
 * names can be chosen, so nothing illegal is sent from here.
 *
 * It draws from a controls context (registry.js): { view, seat, seats, options, ui, act, rerender };
 * `ui` keeps the chosen tile ({ tile, key }) and whether a move is on its way.
 */
import { h } from '../../dom.js';
import { t, lang } from '../../i18n.js';
import { playerName } from '../../seats.js';
import { tileName } from './tiles.js';
import { tileElement } from './board.js';
import { actionMessage, isOver, legalMoves, splitHand, toActOf, wildsOf } from './view.js';

function send(ctx, kind, tile) {
  const ui = ctx.ui;
  if (ui.pending) return;
  ui.pending = true;
  ui.chosen = null;
  ctx.rerender();
  ctx.act(actionMessage(kind, tile)).finally(() => {
    ui.pending = false;
    ctx.rerender();
  });
}

function choose(ctx, tile, key) {
  const ui = ctx.ui;
  if (ui.chosen && ui.chosen.key === key) {
    send(ctx, 'discard', tile);
    return;
  }
  ui.chosen = { tile, key };
  ctx.rerender();
}

/* Left and right arrows move between the tiles of the hand. */
function handKeys(e) {
  if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
  const tiles = [...e.currentTarget.querySelectorAll('button.mj-tile:not(:disabled)')];
  const at = tiles.indexOf(document.activeElement);
  if (at < 0) return;
  tiles[(at + (e.key === 'ArrowRight' ? 1 : tiles.length - 1)) % tiles.length].focus();
  e.preventDefault();
}

function hintText(ctx, moves) {
  const view = ctx.view;
  if (moves.sit) return t('tj.play.sit');
  if (moves.pull) return t('tj.play.pull');
  if (ctx.ui.chosen) return t('tj.play.selected', { tile: tileName(ctx.ui.chosen.tile, lang()) });
  const claim = moves.buttons.find((b) => b.kind === 'pung' || b.kind === 'kong');
  if (claim && view.phase === 'claim') return t('tj.play.claim', { tile: claim.tile ? tileName(claim.tile, lang()) : '' });
  if (moves.discard && moves.buttons.length) return t('tj.play.turn');
  if (moves.discard) return t('tj.play.discardOnly');
  const who = toActOf(view);
  return who && who.seat !== ctx.seat ? t('tj.play.waitFor', { name: playerName(ctx.seats, who.seat) }) : '';
}

function handTile(ctx, moves, wild, tile, key) {
  const can = Boolean(moves.discard && moves.discard.has(tile)) && !ctx.ui.pending;
  return tileElement(tile, { wild: wild.has(tile), selected: ctx.ui.chosen && ctx.ui.chosen.key === key, focusKey: key,
    disabled: !can, onClick: can ? () => choose(ctx, tile, key) : null });
}

function decisionButtons(ctx, moves) {
  if (moves.sit) {
    return [h('button', { type: 'button', id: 'mj-sit', dataset: { focus: 'sit' }, onclick: () => send(ctx, 'sit', true) }, t('tj.act.sit')),
      h('button', { type: 'button', class: 'secondary', id: 'mj-no-sit', onclick: () => send(ctx, 'sit', false) }, t('tj.act.noSit'))];
  }
  const pulls = Array.from({ length: moves.pull }, (_, i) => i + 1);
  return [...pulls.map((n) => h('button', { type: 'button', id: `mj-pull-${n}`, dataset: { focus: `pull-${n}` },
    onclick: () => send(ctx, 'pull', n) }, `${t('tj.act.pull')}${moves.pull > 1 ? ` ×${2 ** n}` : ''}`)),
  h('button', { type: 'button', class: 'secondary', id: 'mj-no-pull', onclick: () => send(ctx, 'pull', 0) }, t('tj.act.noPull'))];
}

/* The player's hand and actions while a hand is played, or null when they hold no tiles. */
export function renderControls(ctx) {
  const view = ctx.view;
  const { hand, drawn } = splitHand(view, ctx.options);
  if (!hand || isOver(view)) return null;
  const ui = ctx.ui;
  const wilds = wildsOf(view, ctx.options);
  const wild = new Set(wilds);
  const moves = legalMoves(view.legal, hand, drawn);
  if (ui.chosen && !(moves.discard && moves.discard.has(ui.chosen.tile))) ui.chosen = null;
  const decision = moves.sit || moves.pull > 0;
  const buttons = decision ? decisionButtons(ctx, moves) : [
    ...moves.buttons.map((b) => h('button', { type: 'button', class: b.kind === 'pass' ? 'secondary' : 'mj-act',
      dataset: { act: b.kind, tile: b.tile || '', focus: `act-${b.kind}-${b.tile || ''}` }, disabled: ui.pending,
      onclick: () => send(ctx, b.kind, b.tile) }, t('tj.act.' + b.kind), b.tile ? ` ${tileName(b.tile, lang())}` : '')),
    moves.discard ? h('button', { type: 'button', id: 'mj-discard', dataset: { focus: 'discard' }, disabled: !ui.chosen || ui.pending,
      onclick: () => ui.chosen && send(ctx, 'discard', ui.chosen.tile) }, t('tj.act.discard'),
    ui.chosen ? ` ${tileName(ui.chosen.tile, lang())}` : '') : null,
  ];
  return [
    h('p', { id: 'mj-hint', class: `mj-hint${moves.discard || moves.buttons.length || decision ? ' mj-my-turn' : ''}` }, hintText(ctx, moves)),
    h('div', { id: 'mj-hand', class: 'mj-hand', role: 'group', 'aria-label': t('table.yourHand'), onkeydown: handKeys },
      h('span', { class: 'mj-row' }, hand.map((tile, i) => handTile(ctx, moves, wild, tile, `hand-${i}`))),
      drawn ? h('span', { class: 'mj-drawn', role: 'group', 'aria-label': t('tj.table.drawn') },
        handTile(ctx, moves, wild, drawn, 'drawn')) : null),
    h('div', { class: 'mj-actions' }, buttons,
      h('span', { class: 'mj-status', role: 'status' }, ui.pending ? t('tj.play.sending') : '')),
  ];
}
