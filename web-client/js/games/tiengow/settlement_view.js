/*
 * settlement_view — a finished Tien Gow hand explained line by line in words (the arithmetic is
 * settlement.js's): who banked at what multiplier, the special endings or 擒, what each loser
 * owes the winner and why, the bonuses, each seat's net and the table's totals, and who banks
 * next. The table shows it between hands and the history for every past hand.
 */
import { h } from '../../dom.js';
import { t, tn } from '../../i18n.js';
import { num, seatName, signed } from '../../seats.js';
import { explainSettlement } from './settlement.js';
import { linkRules } from '../../rules/links.js';

/* --- settlement --- */

function endingNames(endings) {
  return endings.map((e) => t('tg.ending.' + e).replace(/ ×\d+$/, '')).join(' · ');
}

/* "4 − 1 = 3 units × 2 (banker) × 4 (八支) = 24" for one loser (rules §4). */
function loserFormula(line, ex, qinQ) {
  let text = `4 − ${line.stacks}${line.empty ? ` + 1 ${t('tg.settle.empty')}` : ''} = ${num(line.units)} ${tn('tg.settle.units', Math.abs(line.units))}`;
  if (line.units === -1) text += ' (入一)';
  if (line.units === -2) text += ' (入二)';
  const note = line.refundNotMultiplied ? ` (${t('tg.settle.noBankerOnRefund')})` : '';
  const banker = line.bankerFactor > 1 ? ` × ${line.bankerFactor} (${t('tg.settle.bankerFactor')})` : '';
  if (ex.qin && ex.qinLine.paysAll) return `${text}${banker} → ${t('tg.settle.qinShare', { a: num(line.share) })}${note}`;
  const factors = [];
  if (banker) factors.push(banker.trim());
  if (ex.qin) factors.push(`× ${qinQ} (擒)`);
  else if (line.endingFactor > 1) factors.push(`× ${line.endingFactor} (${endingNames(ex.endings)})`);
  if (line.stake > 1) factors.push(`× ${line.stake} (${t('tg.settle.stake')})`);
  if (factors.length) text += ` ${factors.join(' ')} = ${num(line.amount)}`;
  return text + note;
}

function outcome(line, ex, seats) {
  if (ex.qin && ex.qinLine.paysAll) return '';
  const amount = line.paid;
  if (amount > 0) return t('tg.settle.pays', { from: seatName(seats, line.seat), to: seatName(seats, ex.winner), amount });
  if (amount < 0) {
    return t('tg.settle.refund', { in: line.units === -2 ? '入二' : '入一', from: seatName(seats, ex.winner),
      to: seatName(seats, line.seat), amount: -amount });
  }
  return t('tg.settle.evens');
}

/* The hand's own banker and multiplier: its result names them; else its last view; else the
 * table state it was played under. */
function handBank(entry) {
  for (const source of [entry.result, entry.view, entry.gameState]) {
    if (source && Number.isInteger(source.banker)) return { banker: source.banker, multiplier: source.multiplier };
  }
  return { banker: null, multiplier: 1 };
}

/* The seat that led the final trick, from the hand's last view (for 擒 when the result does not say). */
function finalLeader(view) {
  const tricks = view && view.tricks;
  return tricks && tricks.length ? tricks[tricks.length - 1].leader : null;
}

/*
 * entry: { hand, result, gameState, view, options, seats, scores } (registry.js) — view is the
 * hand's last view when the table saw it end (null in the history), scores the table's totals
 * after this hand (null when unknown, e.g. in an old history entry).
 */
export function renderSettlement(entry, extra) {
  const bank = handBank(entry);
  const ex = explainSettlement(entry.result, { ...bank, options: entry.options, finalLeader: finalLeader(entry.view) });
  const seats = entry.seats;
  const q = (entry.options && entry.options.qin_multiplier) || 4;
  const lines = [];
  lines.push(h('p', { class: 'settle-banker' }, t('tg.settle.banker', { name: seatName(seats, bank.banker), m: bank.multiplier })));
  if (ex.natural) lines.push(h('p', { class: 'settle-endings' }, t('tg.settle.natural', { name: seatName(seats, ex.winner) })));
  if (ex.qin) {
    lines.push(h('p', { class: 'settle-endings' }, t('tg.settle.qinEnding', {
      leader: ex.qinLine.captured !== null ? seatName(seats, ex.qinLine.captured) : '?',
      winner: seatName(seats, ex.winner), q })));
  } else if (ex.endings.length) {
    lines.push(h('p', { class: 'settle-endings' }, t('tg.settle.endings', {
      list: ex.endings.map((e) => t('tg.ending.' + e)).join(' · '), M: ex.M })));
  } else {
    lines.push(h('p', { class: 'settle-endings' }, t('tg.settle.noEnding')));
  }
  const loserItems = ex.losers.map((line) => h('li', { class: `settle-line${line.matches ? '' : ' mismatch'}`, dataset: { seat: String(line.seat), paid: String(line.paid), computed: String(line.amount) } },
    h('span', { class: 'settle-who' }, seatName(seats, line.seat), ' — ', tn('tg.settle.stacks', line.stacks), ': '),
    h('span', { class: 'settle-math' }, loserFormula(line, ex, q)),
    outcome(line, ex, seats) ? h('span', { class: 'settle-outcome' }, ' → ', outcome(line, ex, seats)) : null,
    line.matches ? null : h('span', { class: 'settle-warn' }, ` ⚠ ${t('tg.settle.mismatch', { amount: line.paid })}`)));
  if (ex.qin && ex.qinLine.paysAll) {
    const parts = ex.qinLine.shares.map((s) => num(s.a)).join(' + ');
    const stakeText = ex.stake > 1 ? ` × ${ex.stake}` : '';
    loserItems.push(h('li', { class: 'settle-line settle-qin' },
      t('tg.settle.qinAll', { from: seatName(seats, ex.qinLine.captured), to: seatName(seats, ex.winner),
        parts: parts + stakeText, q, amount: num(ex.qinLine.amount) })));
  }
  lines.push(h('h3', {}, linkRules(t('tg.settle.perLoser'), 'tiengow')), h('ul', { class: 'settle-lines' }, loserItems));

  if (ex.bonuses.length) {
    lines.push(h('h3', {}, linkRules(t('tg.settle.bonuses'), 'tiengow')), h('ul', { class: 'settle-bonuses' }, ex.bonuses.map((b) => h('li', { class: b.matches ? '' : 'mismatch' },
      t('tg.settle.bonusLine', { kind: t('tg.bonus.' + b.kind), from: seatName(seats, b.from), to: seatName(seats, b.to), amount: b.units,
        base: b.base, banker: b.bankerFactor > 1 ? t('tg.settle.bonusBanker', { m: b.bankerFactor }) : '' })
      + (ex.stake > 1 ? ` × ${ex.stake}` : '')))));
  }

  const rows = [0, 1, 2, 3].map((seat) => h('tr', { class: seat === ex.winner ? 'winner' : '', dataset: { seat: String(seat) } },
    h('th', { scope: 'row' }, seatName(seats, seat), seat === bank.banker ? ` ${t('tg.table.bankerMark')}` : ''),
    h('td', {}, String(entry.result.stacks[seat])),
    h('td', { class: 'net' }, signed(ex.net[seat])),
    entry.scores ? h('td', { class: 'total' }, signed(entry.scores[seat])) : null));
  lines.push(h('table', { class: 'settle-table' },
    h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', { scope: 'col' }, t('tg.settle.stacksRow')), h('th', { scope: 'col' }, t('tg.settle.net')),
      entry.scores ? h('th', { scope: 'col' }, t('tg.settle.scoreboard')) : null)),
    h('tbody', {}, rows)));
  lines.push(h('p', { class: 'settle-next' }, t('tg.settle.nextBanker', { name: seatName(seats, ex.nextBanker), m: ex.nextMultiplier })));
  return h('section', { class: 'settlement', id: extra && extra.id, 'aria-labelledby': extra && extra.id ? `${extra.id}-title` : null },
    h('h2', { id: extra && extra.id ? `${extra.id}-title` : null }, t('tg.settle.title', { n: entry.hand, name: seatName(seats, ex.winner) })),
    lines,
    extra && extra.footer);
}
