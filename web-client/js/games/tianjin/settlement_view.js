/*
 * settlement_view — a finished Tianjin hand explained in words (the arithmetic is
 * settlement.js's): who won by self-draw or that the hand was drawn (荒牌), the winning hand, each
 * fan with its value and the total, every payment with its reason and, for the win, its
 * formula (fan × base × 坐庄 × 拉庄), each seat's net and the table's totals, and who banks next.
 * The table shows it between hands and the history for every past hand.
 */
import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { seatName, signed } from '../../seats.js';
import { explainSettlement } from './settlement.js';
import { meldElement, tileRow } from './board.js';
import { wildsOf } from './view.js';
import { linkRules } from '../../rules/links.js';

/* The hand's banker, sat and pulls: its result's, else its last view's, else the table's state. */
function bankOf(entry) {
  const view = entry.view || {};
  const state = entry.gameState || {};
  return { banker: Number.isInteger(view.banker) ? view.banker : state.banker, sat: view.sat, pulls: view.pulls };
}

/* The winning hand: the reading the server names (each set apart), else the last view's tiles. */
function winningHand(entry, wilds) {
  const result = entry.result;
  if (Array.isArray(result.reading) && result.reading.length) {
    return h('div', { class: 'mj-reading' }, result.reading.map((group) => h('span', { class: 'mj-meld' }, tileRow(group, wilds, { small: true }))));
  }
  const view = entry.view;
  if (!view || view.seat !== result.winner || !Array.isArray(view.hand)) return null;
  const melds = (view.melds && view.melds[result.winner]) || [];
  return h('div', { class: 'mj-reading' }, tileRow(view.hand, wilds, { small: true }), melds.map((m) => meldElement(m, wilds)));
}

function fanList(ex) {
  const items = ex.terms.map((term) => h('li', { dataset: { fan: term.key } },
    h('span', { class: 'mj-fan-name' }, t('tj.fan.' + term.key)), ' — ',
    term.key === 'ben_hun' ? `×${term.value}` : t('tj.settle.fan', { n: term.value })));
  const total = h('p', { class: `mj-fan-total${ex.fanMatches ? '' : ' mismatch'}`, dataset: { fan: String(ex.fan) } },
    t('tj.settle.total', { formula: ex.factors.join(' × ') || '0', fan: ex.fanMatches ? ex.fan : ex.computed }),
    ex.fanMatches ? null : ` ⚠ ${t('tj.settle.mismatch', { fan: ex.fan })}`);
  return [h('h3', {}, linkRules(t('tj.settle.fans'), 'tianjin')), h('ul', { class: 'mj-fans' }, items), total];
}

function paymentLine(p, ex, seats) {
  const formula = p.win ? ` = ${t('tj.settle.factors', { fan: ex.fan, base: ex.base,
    sat: p.sat > 1 ? t('tj.settle.factorSat') : '', pull: p.pull > 1 ? t('tj.settle.factorPull', { f: p.pull }) : '' })}` : '';
  return h('li', { class: 'mj-payment', dataset: { from: String(p.from), to: String(p.to), units: String(p.units) } },
    t('tj.settle.pays', { from: seatName(seats, p.from), to: seatName(seats, p.to), amount: p.units }), formula,
    p.why ? h('span', { class: 'mj-why' }, ` — ${p.why}`) : null);
}

/* A finished hand, explained; entry { hand, result, gameState, view, options, seats, scores }, extra { id, footer }. */
export function renderSettlement(entry, extra) {
  const result = entry.result;
  if (!result) return null;
  const seats = entry.seats;
  const ex = explainSettlement(result, { options: entry.options, ...bankOf(entry) });
  const wilds = wildsOf(entry.view, entry.options);
  const id = extra && extra.id;
  const title = ex.winner !== null ? t('tj.settle.title', { n: entry.hand, name: seatName(seats, ex.winner) })
    : t('tj.settle.drawn', { n: entry.hand });
  const hand = ex.winner !== null ? winningHand(entry, wilds) : null;
  const rows = [0, 1, 2, 3].map((seat) => h('tr', { class: seat === ex.winner ? 'winner' : '', dataset: { seat: String(seat) } },
    h('th', { scope: 'row' }, seatName(seats, seat)),
    h('td', { class: 'net' }, signed(ex.net[seat])),
    entry.scores ? h('td', { class: 'total' }, signed(entry.scores[seat])) : null));
  const next = ex.nextBanker === null ? null
    : h('p', { class: 'settle-next' }, t(ex.nextMustSit ? 'tj.settle.nextMustSit' : 'tj.settle.nextBanker', { name: seatName(seats, ex.nextBanker) }));
  return h('section', { class: 'settlement mj-settlement', id, 'aria-labelledby': id ? `${id}-title` : null },
    h('h2', { id: id ? `${id}-title` : null }, title),
    hand ? [h('h3', {}, t('tj.settle.hand')), hand] : null,
    ex.winner !== null ? fanList(ex) : null,
    h('h3', {}, linkRules(t('tj.settle.payments'), 'tianjin')),
    ex.payments.length ? h('ul', { class: 'settle-lines mj-payments' }, ex.payments.map((p) => paymentLine(p, ex, seats)))
      : h('p', { class: 'mj-muted' }, t('tj.settle.noPayments')),
    h('table', { class: 'settle-table' },
      h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', { scope: 'col' }, t('tj.settle.net')),
        entry.scores ? h('th', { scope: 'col' }, t('tj.settle.scoreboard')) : null)),
      h('tbody', {}, rows)),
    next,
    extra && extra.footer);
}
