/*
 * hand — everything about one hand for an admin: every seat's full deal, every action in order
 * with its tiles, the game's summary of its plays (games/NAME/admin.js), the settlement's ledger lines
 * with their reasons, and a step-through replay (first / previous / next / last and a slider)
 * that draws each step's view_admin. Opening the page is written in the audit log by the server.
 *
 * The step shown is in the hash (#/hands/40?step=7) only when chosen from outside; moving
 * through the replay redraws the board in place, so the page keeps its place and focus.
 */
import { h, replace } from '../../dom.js';
import { t } from '../../i18n.js';
import { api } from '../api.js';
import { describeAction, drawView, kitFor } from '../board.js';
import { gameAdmin } from '../games.js';
import { gameName, reasonName, time } from '../format.js';
import { amount, dataTable, facts, load, playerLink, seatName, seatWho, section, units } from '../ui.js';
import { tileRow } from '../tiles.js';

const arr = (v) => (Array.isArray(v) ? v : []);

/* The last hand fetched: a new language draws it again without asking the server, which would
 * write another "hand.view" in the audit log for a view nobody asked for. */
let last = null;

/* The deal of each seat from the first step's view: a list of four lists, or {hands: that}. */
export function dealOf(game, view) {
  const deal = view && view.deal;
  if (Array.isArray(deal)) return deal;
  if (deal && Array.isArray(deal.hands)) return deal.hands;
  return arr(view && view.hands);
}

function stepCaption(game, step, seats) {
  if (!step) return [];
  if (step.n === 0 || step.action === null || step.action === undefined) {
    return step.event ? describeAction(game, null, step.event) : [t('adm.hand.deal')];
  }
  return [h('strong', {}, typeof step.seat === 'number' ? seatName(step.seat) : ''), ' ',
    typeof step.seat === 'number' ? seatWho(seats[step.seat]) : null, ' ', describeAction(game, step.action, step.event)];
}

function replayer(game, steps, seats, start) {
  let at = Math.min(Math.max(0, start), Math.max(0, steps.length - 1));
  const last = steps.length - 1;
  const board = h('div', { id: 'replay-board' });
  const caption = h('p', { id: 'replay-caption', class: 'adm-caption', 'aria-live': 'polite' });
  const counter = h('span', { id: 'replay-step' });
  const slider = h('input', { type: 'range', id: 'replay-slider', min: 0, max: Math.max(0, last), value: at, step: 1,
    'aria-label': t('adm.replay.slider') });
  const btn = (id, key, fn) => h('button', { type: 'button', class: 'secondary', id, onclick: fn }, t(key));
  const first = btn('replay-first', 'adm.replay.first', () => show(0));
  const prev = btn('replay-prev', 'adm.replay.prev', () => show(at - 1));
  const next = btn('replay-next', 'adm.replay.next', () => show(at + 1));
  const end = btn('replay-last', 'adm.replay.last', () => show(last));
  slider.addEventListener('input', () => show(Number(slider.value)));
  const list = h('ol', { class: 'adm-steps', id: 'hand-actions', start: 0 });

  function show(i) {
    at = Math.min(Math.max(0, i), last);
    const step = steps[at];
    slider.value = String(at);
    counter.textContent = t('adm.replay.of', { i: at, n: last });
    first.disabled = at === 0;
    prev.disabled = at === 0;
    next.disabled = at >= last;
    end.disabled = at >= last;
    replace(caption, ...stepCaption(game, step, seats));
    replace(board, drawView(game, step && step.view, seats));
    board.dataset.step = String(at);
    for (const li of list.children) li.classList.toggle('current', Number(li.dataset.step) === at);
  }

  for (const [i, step] of steps.entries()) {
    list.append(h('li', { dataset: { step: String(i) } },
      h('button', { type: 'button', class: 'link', onclick: () => show(i) }, `${i}.`), ' ', ...stepCaption(game, step, seats)));
  }
  const controls = h('div', { class: 'adm-replay-controls' }, first, prev, slider, next, end, counter);
  if (steps.length) show(at);
  else replace(board, h('p', { class: 'muted' }, t('adm.replay.none')));
  return { view: [controls, caption, board], list };
}

export function render(ctx) {
  const id = ctx.parts[1];
  const body = h('div', { id: 'hand-body' });
  ctx.main.append(body);
  const fetchHand = async () => {
    if (ctx.relabel && last && last.id === id) return last.data;
    const data = await api(`hands/${encodeURIComponent(id)}`);
    last = { id, data };
    return data;
  };
  load(body, fetchHand, (data) => {
    const hd = data.hand || {};
    const game = hd.game;
    const steps = arr(data.steps);
    const seats = arr(hd.seats);
    const deal = dealOf(game, steps[0] && steps[0].view);
    const lines = arr(data.lines);
    const rp = replayer(game, steps, seats, Number(ctx.query.get('step')) || 0);
    const result = hd.result && typeof hd.result === 'object' ? hd.result : null;
    const g = gameAdmin(game);
    const known = Boolean(g);
    return [
      h('p', {}, h('a', { href: `#/tables/${encodeURIComponent(hd.table)}`, id: 'hand-table-link' }, t('adm.hand.backTable', { code: hd.code ?? '' }))),
      h('h1', {}, t('adm.hand.title', { n: hd.number ?? '?', code: hd.code ?? '' })),
      section(null, facts('hand-facts', [
        ['adm.col.game', gameName(game)],
        ['adm.col.started', time(hd.started_at)],
        ['adm.col.finished', hd.finished_at ? time(hd.finished_at) : t('adm.hand.unfinished')],
        result && typeof result.winner === 'number' ? ['adm.col.winner', seatName(result.winner)] : null,
        ...(g && g.resultFacts ? g.resultFacts(result) : []),
      ])),
      /* a hand of no game this page draws (an adjustment): its result as the server wrote it */
      known ? null : section(t('adm.hand.result'), h('code', { class: 'adm-json', id: 'hand-result' }, JSON.stringify(hd.result ?? null))),
      known ? section(t('adm.hand.replay'), h('div', { class: 'adm-replay', id: 'replay' }, rp.view)) : null,
      known ? section(t('adm.hand.deals'), dataTable('hand-deals', [
        { key: 'adm.col.seat' }, { key: 'adm.col.player' }, { key: 'adm.col.deal' }, { key: 'adm.col.net', cls: 'num' },
      ], [0, 1, 2, 3].map((s) => ({
        cells: [seatName(s), seatWho(seats[s]), tileRow(game, deal[s], { small: true, wilds: arr(steps[0] && steps[0].view && steps[0].view.wilds) }),
          seats[s] && typeof seats[s].net === 'number' ? units(seats[s].net) : '—'],
      })))) : null,
      known ? section(t('adm.hand.actions'), rp.list) : null,
      known ? g.playSummary(steps, kitFor(game)) : null,
      section(t('adm.hand.lines'), dataTable('hand-lines', [
        { key: 'adm.col.seat' }, { key: 'adm.col.player' }, { key: 'adm.col.units', cls: 'num' }, { key: 'adm.col.reason' },
        { key: 'adm.col.balance', cls: 'num' },
      ], lines.map((l) => ({
        attrs: { dataset: { row: String(l.id), reason: String(l.reason), units: String(l.units) } },
        cells: [seatName(l.seat), l.player === null || l.player === undefined ? h('span', { class: 'adm-bot' }, t('adm.bot')) : playerLink(l.player, l.nickname),
          units(l.units), reasonName(l.reason), amount(l.balance)],
      })), { empty: t('adm.hand.noLines') })),
    ];
  });
}
