/*
 * controls — the player's own part of a live Tianjin hand: a hint of what to do, the hand sorted
 * (wilds first) with the drawn tile set apart, and the buttons of what `legal` lists (view.js):
 * win, the kongs, and in a claim window pung, kong and pass with the window's countdown; before
 * the hand, sit (坐庄) or how often to pull (拉庄), each with its factor. A tile is discarded by
 * clicking it (or focusing it and pressing Enter or Space); only tiles `legal` lists can be
 * pressed, so nothing illegal is sent from here. When the tiles would win but a rule forbids it
 * (win_refused: under the minimum, a wild discarded) the reason is said in the player's language.
 *
 * It draws from a controls context (registry.js): { view, seat, seats, options, deciding, ui, act,
 * rerender }; `ui` keeps whether a move is on its way.
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
  ctx.rerender();
  Promise.resolve(ctx.act(actionMessage(kind, tile))).finally(() => {
    ui.pending = false;
    ctx.rerender();
  });
}

/* Left and right arrows move between the tiles of the hand (Enter and Space press a tile, as any button). */
function handKeys(e) {
  if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
  const tiles = [...e.currentTarget.querySelectorAll('button.mj-tile:not(:disabled)')];
  const at = tiles.indexOf(document.activeElement);
  if (at < 0) return;
  tiles[(at + (e.key === 'ArrowRight' ? 1 : tiles.length - 1)) % tiles.length].focus();
  e.preventDefault();
}

/* The player's own decision in the deciding list, with its local deadline, or null. */
function myDecision(ctx) {
  return (ctx.deciding || []).find((d) => d.seat === ctx.seat) || null;
}

function hintText(ctx, moves) {
  const view = ctx.view;
  if (moves.sit) return t('tj.play.sit');
  if (moves.pull >= 0) return t('tj.play.pull');
  if (moves.kind === 'claim') {
    const tile = view.discard ? tileName(view.discard.tile, lang()) : '';
    const name = view.discard ? playerName(ctx.seats, view.discard.seat) : '';
    const claims = moves.buttons.some((b) => b.kind === 'pung' || b.kind === 'kong');
    return t(claims ? 'tj.play.claim' : 'tj.play.claimNone', { tile, name });
  }
  if (moves.discard && moves.buttons.length) return t('tj.play.turn');
  if (moves.discard) return t('tj.play.discardOnly');
  if (view.passed) return t('tj.play.passed');
  if (view.phase === 'pull' && Number.isInteger(view.pull)) return t('tj.play.pulled', { n: 2 ** view.pull });
  const who = toActOf(view);
  if (who.length === 1 && who[0].seat !== ctx.seat) return t('tj.play.waitFor', { name: playerName(ctx.seats, who[0].seat) });
  if (who.length > 1 && !who.some((w) => w.seat === ctx.seat)) return t('tj.play.waitOthers');
  return '';
}

function handTile(ctx, moves, wild, tile, key) {
  const can = Boolean(moves.discard && moves.discard.has(tile)) && !ctx.ui.pending;
  const el = tileElement(tile, { wild: wild.has(tile), focusKey: key, disabled: !can,
    onClick: () => can && send(ctx, 'discard', tile) });
  if (can) el.title = t('tj.play.discardTile', { tile: tileName(tile, lang()) });
  return el;
}

function decisionButtons(ctx, moves) {
  const pending = ctx.ui.pending;
  if (moves.sit) {
    return [h('button', { type: 'button', id: 'mj-sit', class: 'mj-act', dataset: { focus: 'sit' }, disabled: pending,
      onclick: () => send(ctx, 'sit', true) }, t('tj.act.sit'), ' ×2'),
    h('button', { type: 'button', class: 'secondary', id: 'mj-no-sit', dataset: { focus: 'no-sit' }, disabled: pending,
      onclick: () => send(ctx, 'sit', false) }, t('tj.act.noSit'))];
  }
  const pulls = Array.from({ length: moves.pull }, (_, i) => i + 1);
  return [...pulls.map((n) => h('button', { type: 'button', id: `mj-pull-${n}`, class: 'mj-act', dataset: { focus: `pull-${n}` },
    disabled: pending, onclick: () => send(ctx, 'pull', n) }, t(n === 1 ? 'tj.act.pull' : 'tj.act.pullTwice'), ` ×${2 ** n}`)),
  h('button', { type: 'button', class: 'secondary', id: 'mj-no-pull', dataset: { focus: 'no-pull' }, disabled: pending,
    onclick: () => send(ctx, 'pull', 0) }, t('tj.act.noPull'))];
}

function actionButtons(ctx, moves) {
  return moves.buttons.map((b) => h('button', { type: 'button', class: b.kind === 'pass' ? 'secondary' : 'mj-act',
    id: `mj-${b.kind.replace('_', '-')}${b.kind.endsWith('_kong') ? `-${b.tile}` : ''}`,
    dataset: { act: b.kind, tile: b.tile || '', focus: `act-${b.kind}-${b.tile || ''}` }, disabled: ctx.ui.pending,
    onclick: () => send(ctx, b.kind, b.tile) }, t('tj.act.' + b.kind), b.tile ? ` ${tileName(b.tile, lang())}` : ''));
}

/* The claim window's countdown (main.js's tick counts down every [data-deadline]). */
function claimTimer(ctx, moves) {
  const decision = myDecision(ctx);
  if (moves.kind !== 'claim' || !decision || !Number.isFinite(decision.deadline)) return null;
  const left = Math.max(0, Math.ceil((decision.deadline - Date.now()) / 1000));
  return h('span', { id: 'mj-claim-timer', class: 'mj-claim-timer', role: 'timer', dataset: { deadline: String(decision.deadline) } },
    t('table.seconds', { n: left }));
}

/* The player's hand and actions while a hand is played, or null when they hold no tiles yet and decide nothing. */
export function renderControls(ctx) {
  const view = ctx.view;
  if (!view || isOver(view)) return null;
  const ui = ctx.ui;
  const { hand, drawn } = splitHand(view, ctx.options);
  const moves = legalMoves(view.legal, view.discard ? view.discard.tile : null);
  const decision = moves.sit || moves.pull >= 0;
  if (!hand && !decision) {
    const hint = hintText(ctx, moves);
    return hint ? h('p', { id: 'mj-hint', class: 'mj-hint' }, hint) : null;
  }
  const wild = new Set(wildsOf(view, ctx.options));
  const myTurn = Boolean(moves.discard || moves.buttons.length || decision);
  const buttons = decision ? decisionButtons(ctx, moves) : actionButtons(ctx, moves);
  const refused = moves.winRefused
    ? h('p', { id: 'mj-win-refused', class: 'mj-refused', dataset: { code: moves.winRefused.code } },
      t('tj.play.winRefused', { why: t(`tj.refused.${moves.winRefused.code}`) }))
    : null;
  return [
    h('p', { id: 'mj-hint', class: `mj-hint${myTurn ? ' mj-my-turn' : ''}`, dataset: { kind: moves.kind || '' } },
      hintText(ctx, moves), ' ', claimTimer(ctx, moves)),
    refused,
    hand ? h('div', { id: 'mj-hand', class: 'mj-hand', role: 'group', 'aria-label': t('table.yourHand'), onkeydown: handKeys },
      h('span', { class: 'mj-row' }, hand.map((tile, i) => handTile(ctx, moves, wild, tile, `hand-${i}`))),
      drawn ? h('span', { class: 'mj-drawn', role: 'group', 'aria-label': t('tj.table.drawn') },
        handTile(ctx, moves, wild, drawn, 'drawn')) : null) : null,
    h('div', { class: 'mj-actions' }, buttons,
      h('span', { class: 'mj-status', role: 'status' }, ui.pending ? t('tj.play.sending') : '')),
  ];
}
