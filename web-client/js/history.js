/*
 * history — the table's past hands as this connection saw them: each finished hand with its
 * settlement, and for a hand the player saw from its deal, a stepper through every view the
 * player received (their own tiles at that moment, the trick, stacks), drawn by board.js
 * exactly as the live table drew it. Nothing here shows a tile the player did not see.
 */
import { h } from './dom.js';
import { t, lang } from './i18n.js';
import { comboName } from './tiles.js';
import { renderSeat, renderSettlement, renderTrick, seatName, signed, tileRow } from './board.js';

/* One sentence for what happened at a step. */
export function describeEvent(ev, seats, options) {
  if (ev.kind === 'hand_started') return t('ev.hand_started', { n: ev.hand, name: seatName(seats, ev.banker), m: ev.multiplier });
  if (ev.kind === 'hand_over') return t('ev.hand_over');
  if (ev.kind === 'action') {
    const bot = ev.by_bot && !(seats[ev.seat] && seats[ev.seat].bot) ? t('ev.byBot') : ''; /* a bot covered a person */
    if (ev.play) return t('ev.play', { name: seatName(seats, ev.seat) + bot, combo: comboName(ev.play, lang(), options) });
    return t('ev.discard', { name: seatName(seats, ev.seat) + bot, n: ev.discard });
  }
  return '';
}

function frameScene(entry, frame) {
  const view = frame.view;
  return {
    seats: frame.seats, view, turn: frame.turn ? { seat: frame.turn.seat } : null,
    mySeat: entry.mySeat, scores: null,
    banker: view ? view.banker : entry.banker, multiplier: view ? view.multiplier : entry.multiplier,
    hostId: null, meId: null, options: entry.options, phase: 'playing',
  };
}

function renderStepper(ts, app, entry) {
  const frames = entry.frames;
  const step = Math.min(Math.max(ts.ui.step, 0), frames.length - 1);
  const frame = frames[step];
  const scene = frameScene(entry, frame);
  const go = (delta) => {
    ts.ui.step = Math.min(Math.max(step + delta, 0), frames.length - 1);
    app.rerender();
  };
  const myTiles = scene.view && Array.isArray(scene.view.hand) ? scene.view.hand : null;
  return h('div', { class: 'stepper', id: 'history-stepper', dataset: { step: String(step) } },
    h('div', { class: 'stepper-nav' },
      h('button', { type: 'button', id: 'history-prev', class: 'secondary', dataset: { focus: 'history-prev' },
        disabled: step === 0, onclick: () => go(-1) }, `◀ ${t('history.prev')}`),
      h('span', { class: 'stepper-count', 'aria-live': 'polite' }, t('history.step', { i: step + 1, n: frames.length })),
      h('button', { type: 'button', id: 'history-next', class: 'secondary', dataset: { focus: 'history-next' },
        disabled: step === frames.length - 1, onclick: () => go(1) }, `${t('history.next')} ▶`)),
    h('p', { class: 'stepper-caption' }, describeEvent(frame.event, frame.seats, entry.options)),
    h('div', { class: 'board board-replay' },
      [0, 1, 2, 3].map((seat) => renderSeat(scene, seat, [])),
      h('div', { class: 'board-center' }, renderTrick(scene))),
    myTiles ? h('div', { class: 'replay-hand' }, h('span', { class: 'muted' }, t('table.yourHand')), ' ', tileRow(myTiles, { small: true })) : null);
}

function renderEntry(ts, app, entry) {
  const open = ts.ui.openHand === entry.hand;
  const me = entry.mySeat;
  const summary = `${t('history.hand', { n: entry.hand })} — ${t('history.winner', { name: seatName(entry.seats, entry.result.winner) })}`
    + (me !== null && me !== undefined ? ` · ${signed(entry.result.net[me])}` : '');
  return h('li', { class: `history-entry${open ? ' open' : ''}`, dataset: { hand: String(entry.hand) } },
    h('button', { type: 'button', class: 'history-open link', 'aria-expanded': open ? 'true' : 'false',
      dataset: { focus: `history-${entry.hand}` }, onclick: () => {
        ts.ui.openHand = open ? null : entry.hand;
        ts.ui.step = 0;
        app.rerender();
      } }, summary),
    open ? renderSettlement(entry, { id: `history-settlement-${entry.hand}` }) : null,
    open && entry.frames ? renderStepper(ts, app, entry) : null,
    open && !entry.frames ? h('p', { class: 'muted' }, t('history.noFrames')) : null);
}

export function renderHistory(ts, app) {
  const entries = [...ts.history].reverse();
  return h('section', { id: 'history', class: 'history', 'aria-labelledby': 'history-title' },
    h('div', { class: 'history-head' },
      h('h2', { id: 'history-title' }, t('history.title')),
      h('button', { type: 'button', class: 'link', id: 'history-close', dataset: { focus: 'history-close' }, onclick: () => {
        ts.ui.showHistory = false;
        app.rerender();
      } }, t('history.close'))),
    h('p', { class: 'muted' }, t('history.note')),
    entries.length ? h('ol', { class: 'history-list', reversed: true }, entries.map((e) => renderEntry(ts, app, e)))
      : h('p', {}, t('history.empty')));
}
