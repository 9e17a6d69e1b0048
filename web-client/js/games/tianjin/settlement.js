/*
 * settlement — the arithmetic of a finished Tianjin hand, to show it as the rules page does
 * (rules/tianjin-mahjong.md §4, §5): the fans a result names with their values, how they combine
 * (multiplied, except 捉五 and 龙 which add, 3 + 4, before multiplying), and for each payment
 * the banker's factors (× 2 坐庄, × 2 per 拉庄 of the other seat). No DOM, no language.
 *
 * The server's `fan` and `payments` are the amounts of record; a total worked out here that
 * disagrees is flagged, never shown instead.
 *
 * A result is hand_over's (protocol/PROTOCOL.md, "Tianjin Mahjong"): the win's fans with their
 * values come from the server, each payment names its reason and its banker factor.
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

/* The reason of a payment as the engine writes it (engine/mj_settle.c) → the ledger's key. */
const WHY_KEYS = [
  ['self-drawn win', 'settle'], ['exposed kong', 'kong'], ['concealed kong', 'concealed_kong'], ['gold kong', 'gold_kong'],
  ['铲', 'chan'], ['discarded a wild', 'wild_discard'],
];

/* A payment's reason as a key (settle, kong, concealed_kong, gold_kong, chan, wild_discard), or null. */
export function whyKey(why) {
  if (typeof why !== 'string') return null;
  if (WHY_KEYS.some(([, key]) => key === why)) return why;
  const found = WHY_KEYS.find(([text]) => why.startsWith(text));
  return found ? found[1] : null;
}

/* The fans of a win with their values: the server's own list ({name, zh, value}) when it sends
 * one, else the names looked up in FANS. */
export function winTerms(win, options) {
  if (win && Array.isArray(win.fans)) {
    const terms = win.fans.map((f) => ({ key: fanKey(f.name) || fanKey(f.zh), value: f.value })).filter((f) => f.key && Number.isInteger(f.value));
    return FANS.map((f) => terms.find((term) => term.key === f.key)).filter(Boolean);
  }
  return fanTerms(win && win.names, options);
}

/*
 * The hand explained: the fans and their total (and whether it matches the server's), and each
 * payment with its reason key, its factor between the two seats (the server's, else worked out)
 * and the fan it stands for (units ÷ base ÷ factor); a payment of the win is marked `win`.
 * A result is hand_over's (PROTOCOL.md): { banker, sat, pulls, winner, win: { fan, fans, names,
 * reading, win_tile, … } | null, kongs, payments [{from, to, units, why, factor}], net,
 * next_banker, next_count, next_must_sit }.
 */
export function explainSettlement(result, ctx) {
  const options = (ctx && ctx.options) || {};
  const base = options.base || 1;
  const bank = { banker: firstInt(result.banker, ctx && ctx.banker), sat: Boolean(result.sat ?? (ctx && ctx.sat)),
    pulls: result.pulls || (ctx && ctx.pulls) || null };
  const won = Number.isInteger(result.winner);
  const win = won ? (result.win || { fan: result.fan, names: result.names }) : null;
  const fan = won && Number.isInteger(win.fan) ? win.fan : null;
  const terms = won ? winTerms(win, options) : [];
  const combined = combineFans(terms);
  const payments = (result.payments || []).map((p) => {
    const f = bankerFactors(p.from, p.to, bank);
    const factor = Number.isInteger(p.factor) && p.factor > 0 ? p.factor : f.sat * f.pull;
    const key = whyKey(p.why);
    const amount = p.units / (base * factor);
    const isWin = won && p.to === result.winner && (key === 'settle' || (key === null && fan !== null && p.units === fan * base * factor));
    return { ...p, why: key, whyText: p.why, sat: f.sat, pull: f.pull, factor, fan: Number.isInteger(amount) ? amount : null, win: isWin };
  });
  return {
    winner: won ? result.winner : null, fan, base, terms, factors: combined.factors,
    computed: combined.total, fanMatches: !won || !terms.length || combined.total === fan,
    reading: won && Array.isArray(win.reading) ? win.reading : null, winTile: won ? win.win_tile || null : null,
    payments, net: result.net || [0, 0, 0, 0],
    nextBanker: Number.isInteger(result.next_banker) ? result.next_banker : null, nextMustSit: Boolean(result.next_must_sit),
  };
}

function firstInt(...values) {
  return values.find((v) => Number.isInteger(v)) ?? null;
}
