/*
 * settlement_view — a finished Tianjin hand explained in words (the arithmetic is
 * settlement.js's): who won by self-draw or that the hand was drawn (荒牌), the winning hand as
 * its best reading, each fan with its value and how they combine, every payment (the win's and
 * the kongs', a drawn hand's too) with its reason in the player's language and its formula
 * (fan × base × 坐庄 × 拉庄), each seat's net and the table's totals, and who banks next.
 * The table shows it between hands and the history for every past hand.
 */
import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { seatName, signed } from '../../seats.js';
import { explainSettlement } from './settlement.js';
import { tileRow } from './board.js';
import { wildsOf } from './view.js';
import { linkRules } from '../../rules/links.js';

/* The hand's banker, sat and pulls: its result's, else its last view's, else the table's state. */
function bankOf(entry) {
  const view = entry.view || {};
  const state = entry.gameState || {};
  return { banker: Number.isInteger(view.banker) ? view.banker : state.banker, sat: view.sat, pulls: view.pulls };
}

/* The winning hand as its best reading: each set apart, the exposed ones marked, the winning tile raised. */
function winningHand(ex, result, wilds) {
  if (!ex.reading || !ex.reading.length) return null;
  const exposed = ((result.win && result.win.melds) || []).map((m) => m.tiles.join(','));
  let marked = false;
  return h('div', { class: 'mj-reading', id: 'mj-reading' }, ex.reading.map((group) => {
    const at = exposed.indexOf(group.join(','));
    if (at >= 0) exposed.splice(at, 1);
    const row = tileRow(group, wilds, { small: true });
    if (at < 0 && !marked && ex.winTile) {
      const tile = [...row.children].find((el) => el.dataset.tile === ex.winTile);
      if (tile) {
        tile.classList.add('mj-win-tile');
        tile.title = `${tile.title} — ${t('tj.settle.winTile')}`;
        marked = true;
      }
    }
    return h('span', { class: `mj-meld${at >= 0 ? ' mj-meld-exposed' : ''}` }, row);
  }));
}

function fanList(ex) {
  const items = ex.terms.map((term) => h('li', { dataset: { fan: term.key } },
    h('span', { class: 'mj-fan-name' }, t('tj.fan.' + term.key)), ' — ', t('tj.settle.fan', { n: term.value })));
  const total = h('p', { class: `mj-fan-total${ex.fanMatches ? '' : ' mismatch'}`, dataset: { fan: String(ex.fan) } },
    ex.factors.length > 1 ? t('tj.settle.total', { formula: ex.factors.join(' × '), fan: ex.fanMatches ? ex.fan : ex.computed })
      : t('tj.settle.totalOne', { fan: ex.fanMatches ? ex.fan : ex.computed }),
    ex.fanMatches ? null : ` ⚠ ${t('tj.settle.mismatch', { fan: ex.fan })}`);
  return [h('h3', {}, linkRules(t('tj.settle.fans'), 'tianjin')), h('ul', { class: 'mj-fans' }, items), total,
    ex.terms.some((term) => term.key === 'zhuo_wu') && ex.terms.some((term) => term.key === 'long')
      ? h('p', { class: 'mj-muted' }, t('tj.settle.added')) : null];
}

/* "× 2 坐庄 × 4 拉庄" when the banker's factors make the payment's factor, else "× 8". */
function factorText(p) {
  if (p.factor <= 1) return '';
  if (p.sat * p.pull === p.factor) {
    return `${p.sat > 1 ? t('tj.settle.factorSat') : ''}${p.pull > 1 ? t('tj.settle.factorPull', { f: p.pull }) : ''}`;
  }
  return ` × ${p.factor}`;
}

function paymentLine(p, ex, seats) {
  const formula = p.fan !== null ? ` = ${t('tj.settle.factors', { fan: p.fan, base: ex.base, sat: factorText(p), pull: '' })}` : '';
  const why = p.why ? t(`tj.why.${p.why}`) : p.whyText;
  return h('li', { class: `mj-payment${p.win ? ' mj-payment-win' : ''}`,
    dataset: { from: String(p.from), to: String(p.to), units: String(p.units), why: p.why || '', factor: String(p.factor) } },
  t('tj.settle.pays', { from: seatName(seats, p.from), to: seatName(seats, p.to), amount: p.units }), formula,
  why ? h('span', { class: 'mj-why' }, ` — ${why}`) : null);
}

/* A finished hand, explained; entry { hand, result, gameState, view, options, seats, scores }, extra { id, footer }. */
export function renderSettlement(entry, extra) {
  const result = entry.result;
  if (!result) return null;
  const seats = entry.seats;
  const ex = explainSettlement(result, { options: entry.options, ...bankOf(entry) });
  const wilds = Array.isArray(result.wilds) ? result.wilds : wildsOf(entry.view, entry.options);
  const id = extra && extra.id;
  const title = ex.winner !== null ? t('tj.settle.title', { n: entry.hand, name: seatName(seats, ex.winner) })
    : t('tj.settle.drawn', { n: entry.hand });
  const hand = ex.winner !== null ? winningHand(ex, result, wilds) : null;
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
      : h('p', { class: 'mj-muted', id: 'mj-no-payments' }, t(ex.winner === null ? 'tj.settle.noKongPayments' : 'tj.settle.noPayments')),
    h('table', { class: 'settle-table' },
      h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', { scope: 'col' }, t('tj.settle.net')),
        entry.scores ? h('th', { scope: 'col' }, t('tj.settle.scoreboard')) : null)),
      h('tbody', {}, rows)),
    next,
    extra && extra.footer);
}
