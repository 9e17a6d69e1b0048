/*
 * settlement — the arithmetic of a finished Tianjin hand, to show it as the rules page does
 * (rules/tianjin-mahjong.md §4, §5): the fans a result names with their values, how they combine
 * (multiplied, except 捉五 and 龙 which add, 3 + 4, before multiplying), and for each payment
 * the banker's factors (× 2 坐庄, × 2 per 拉庄 of the other seat). No DOM, no language.
 *
 * The server's `fan` and `payments` are the amounts of record; a total worked out here that
 * disagrees is flagged, never shown instead.
 *
 * A result is assumed to carry what the calculator answers (§7): { winner (seat or null), fan,
 * names ([fans, as the calculator names them or by key]), reading?, payments [{from,to,units,why}],
 * net, next_banker, next_must_sit }, and may carry banker, sat, pulls.
 */

/* §4's fans in §7's order: key, the calculator's name, value (素 is 4 under 刮大风; 本混 multiplies). */
export const FANS = [
  { key: 'hun_diao', zh: '混儿吊', value: 2 },
  { key: 'su', zh: '素', value: 2, guaDaFeng: 4 },
  { key: 'zhuo_wu', zh: '捉五', value: 3 },
  { key: 'gang_kai', zh: '杠开', value: 2 },
  { key: 'long', zh: '龙', value: 4 },
  { key: 'ben_hun', zh: '本混', value: 2 },
  { key: 'tian_hu', zh: '天胡', value: 4 },
  { key: 'di_hu', zh: '地胡', value: 4 },
];

const OTHER_NAMES = { 没混: 'su', 混吊: 'hun_diao', 混兒吊: 'hun_diao', 槓開: 'gang_kai', 龍: 'long', 沒混: 'su' };

/* The key of a fan named by the calculator ('捉五'), by key ('zhuo_wu') or another usual name; null if unknown. */
export function fanKey(name) {
  const found = FANS.find((f) => f.key === name || f.zh === name);
  return found ? found.key : (OTHER_NAMES[name] || null);
}

/* The fans of a result in §7's order with their values: [{ key, value }]; unknown names are dropped. */
export function fanTerms(names, options) {
  const keys = new Set((names || []).map(fanKey).filter(Boolean));
  const gdf = Boolean(options && options.gua_da_feng);
  return FANS.filter((f) => keys.has(f.key)).map((f) => ({ key: f.key, value: gdf && f.guaDaFeng ? f.guaDaFeng : f.value }));
}

/*
 * How the terms combine: { factors: ["2", "(3 + 4)", …], total }. 捉五 and 龙 together are one
 * factor 3 + 4 = 7; every other fan multiplies.
 */
export function combineFans(terms) {
  const keys = new Set(terms.map((term) => term.key));
  const joined = keys.has('zhuo_wu') && keys.has('long');
  const factors = [];
  let total = terms.length ? 1 : 0;
  for (const term of terms) {
    if (joined && term.key === 'long') continue;
    if (joined && term.key === 'zhuo_wu') {
      const dragon = terms.find((x) => x.key === 'long').value;
      factors.push(`(${term.value} + ${dragon})`);
      total *= term.value + dragon;
    } else {
      factors.push(String(term.value));
      total *= term.value;
    }
  }
  return { factors, total };
}

/* The banker's factors between seats a and b (§5): { sat: 2 or 1, pull: 2^pulls of the other seat }. */
export function bankerFactors(a, b, bank) {
  if (!bank || !Number.isInteger(bank.banker) || (a !== bank.banker && b !== bank.banker)) return { sat: 1, pull: 1 };
  const other = a === bank.banker ? b : a;
  const pulls = Array.isArray(bank.pulls) ? bank.pulls[other] || 0 : 0;
  return { sat: bank.sat ? 2 : 1, pull: 2 ** pulls };
}

/*
 * The hand explained: the fans and their total (and whether it matches the server's), and each
 * payment with the factors that made it; a payment to the winner that is exactly fan × base ×
 * the banker's factors is marked `win` so its formula can be written out.
 */
export function explainSettlement(result, ctx) {
  const options = (ctx && ctx.options) || {};
  const base = options.base || 1;
  const bank = { banker: firstInt(result.banker, ctx && ctx.banker), sat: Boolean(result.sat ?? (ctx && ctx.sat)),
    pulls: result.pulls || (ctx && ctx.pulls) || null };
  const won = Number.isInteger(result.winner);
  const terms = won ? fanTerms(result.names, options) : [];
  const combined = combineFans(terms);
  const payments = (result.payments || []).map((p) => {
    const f = bankerFactors(p.from, p.to, bank);
    const win = won && p.to === result.winner && Number.isInteger(result.fan) && p.units === result.fan * base * f.sat * f.pull;
    return { ...p, sat: f.sat, pull: f.pull, win };
  });
  return {
    winner: won ? result.winner : null, fan: won ? result.fan : null, base, terms, factors: combined.factors,
    computed: combined.total, fanMatches: !won || !terms.length || combined.total === result.fan,
    payments, net: result.net || [0, 0, 0, 0],
    nextBanker: Number.isInteger(result.next_banker) ? result.next_banker : null, nextMustSit: Boolean(result.next_must_sit),
  };
}

function firstInt(...values) {
  return values.find((v) => Number.isInteger(v)) ?? null;
}
