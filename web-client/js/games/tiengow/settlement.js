/*
 * settlement — explains a finished hand's result line by line, as the rules' worked examples do
 * (rules/tiengow.md §4–§6): for each loser its stacks, the base units (4 − s, 空棟 +1, 入一/入二),
 * the banker factor, the special-ending multiplier M (or 擒), the stake, and what it pays.
 *
 * The server's `payments` are the amounts of record. This module recomputes each amount from
 * the rules only to show the arithmetic, and marks a line whose arithmetic disagrees with the
 * server's payment so a person never sees a sum that does not add up without a warning. It has
 * no DOM and no language: the table view turns its lines into words.
 */

/* The multiplier of each special ending (rules §4). */
export const ENDING_FACTORS = { eight: 4, seven: 2, yao: 2, zun: 2, quartet: 4 };

/* Base units of a bonus (rules §5) before the banker factor. */
export const BONUS_BASE = { he_zun: 2, qin_zun: 2, quartet: 4 };

/* Base units a loser with s stacks owes the winner: 4 − s, one more for 空棟; negative is 入一/入二. */
export function baseUnits(stacks) {
  return 4 - stacks + (stacks === 0 ? 1 : 0);
}

/* The banker factor of loser L against winner W (rules §4): m when either banks, except that a
 * losing banker's 入一/入二 is not multiplied. */
export function bankerFactor(loser, winner, banker, multiplier, units) {
  if (loser !== banker && winner !== banker) return 1;
  if (loser === banker && units < 0) return 1;
  return multiplier;
}

/* What the server settled between L and W: positive when L paid W. */
function paidByLoser(payments, loser, winner) {
  let sum = 0;
  for (const p of payments || []) {
    if (p.from === loser && p.to === winner) sum += p.units;
    if (p.from === winner && p.to === loser) sum -= p.units;
  }
  return sum;
}

/* The seat captured by 擒: as the result names it ({"qin":{"captured":S}}), else the leader of
 * the final trick if the caller knows it, else the payer of a "qin" payment when one loser pays
 * all (a past hand from the server's history has no final trick to look at). */
function capturedSeat(result, finalLeader) {
  if (result.qin && Number.isInteger(result.qin.captured)) return result.qin.captured;
  if (Number.isInteger(finalLeader)) return finalLeader;
  const qin = (result.payments || []).find((p) => p.why === 'qin');
  return qin ? qin.from : null;
}

/*
 * result: the hand_over result ({winner, stacks, endings, bonuses, payments, net, next_banker,
 * next_multiplier}); ctx: {banker, multiplier, options ({stake, qin_multiplier, qin_pays_all}),
 * finalLeader (seat that led the final trick, optional)}.
 */
export function explainSettlement(result, ctx) {
  const options = ctx.options || {};
  const stake = options.stake || 1;
  const W = result.winner;
  const endings = result.endings || [];
  const natural = endings.includes('natural');
  const qin = endings.includes('qin');
  const factorEndings = endings.filter((e) => ENDING_FACTORS[e]);
  const M = factorEndings.reduce((product, e) => product * ENDING_FACTORS[e], 1);
  const q = options.qin_multiplier || 4;
  const paysAll = options.qin_pays_all !== false;

  const losers = [];
  for (let seat = 0; seat < 4; seat++) {
    if (seat === W) continue;
    const stacks = result.stacks[seat];
    const units = baseUnits(stacks);
    const factor = bankerFactor(seat, W, ctx.banker, ctx.multiplier, units);
    const line = {
      seat, stacks, units, empty: stacks === 0,
      bankerFactor: factor,
      refundNotMultiplied: seat === ctx.banker && units < 0 && ctx.multiplier > 1,
      share: units * factor, /* a(L) of 擒 */
      endingFactor: qin ? 1 : M,
      stake,
      paid: paidByLoser(result.payments, seat, W),
    };
    line.amount = qin ? (paysAll ? 0 : line.share * q * stake) : units * factor * M * stake;
    losers.push(line);
  }

  let qinLine = null;
  if (qin) {
    const captured = capturedSeat(result, ctx.finalLeader);
    const sum = losers.reduce((total, l) => total + l.share, 0);
    qinLine = { captured, q, paysAll, sum, shares: losers.map((l) => ({ seat: l.seat, a: l.share })),
      amount: sum * q * stake };
    if (paysAll) {
      for (const l of losers) l.amount = l.seat === captured ? qinLine.amount : 0;
    }
  }
  for (const l of losers) l.matches = l.amount === l.paid;

  const bonuses = (result.bonuses || []).map((b) => {
    const base = BONUS_BASE[b.kind] || 0;
    const factor = b.from === ctx.banker || b.to === ctx.banker ? ctx.multiplier : 1;
    return { ...b, base, bankerFactor: factor, matches: base * factor * stake === b.units };
  });

  return {
    winner: W, natural, qin, endings: factorEndings, M, stake, banker: ctx.banker, multiplier: ctx.multiplier,
    losers, qinLine, bonuses,
    net: result.net, nextBanker: result.next_banker, nextMultiplier: result.next_multiplier,
    allMatch: losers.every((l) => l.matches) && bonuses.every((b) => b.matches),
  };
}
