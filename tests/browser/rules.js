/*
 * rules — the little of rules/tiengow.md the browser tests need to judge the page by
 * themselves, written from the rules page and not from the client: which tiles form a
 * combination (§2), whether a single beats a single, the traditional tile names (§1) and the
 * payment of a loser in a hand without special endings (§4).
 */

/* Civil kinds strongest first with their traditional names (§1). */
export const CIVIL = ['6-6', '1-1', '4-4', '1-3', '5-5', '3-3', '2-2', '5-6', '4-6', '1-6', '1-5'];
export const MILITARY_TOTAL = { '3-6': 9, '4-5': 9, '2-6': 8, '3-5': 8, '2-5': 7, '3-4': 7, '2-4': 6, '2-3': 5, '1-4': 5, '1-2': 3 };
export const ZH_HANT = {
  '6-6': '天牌', '1-1': '地牌', '4-4': '人牌', '1-3': '和牌', '5-5': '梅花', '3-3': '長三', '2-2': '板凳', '5-6': '斧頭',
  '4-6': '紅頭十', '1-6': '高腳七', '1-5': '銅錘六', '3-6': '雜九', '4-5': '雜九', '2-6': '雜八', '3-5': '雜八',
  '2-5': '雜七', '3-4': '雜七', '2-4': '大頭六', '2-3': '雜五', '1-4': '雜五', '1-2': '丁三',
};

/* The civil tile of each mixed pair and triple: 天 with 9s, 地 with 8s, 人 with 7s, 和 with 5s. */
const PARTNER_TOTAL = { '6-6': 9, '1-1': 8, '4-4': 7, '1-3': 5 };

const isCivil = (f) => CIVIL.includes(f);

export function isCombination(tiles) {
  const civil = tiles.filter(isCivil);
  const military = tiles.filter((f) => !isCivil(f));
  if (tiles.length === 1) return true;
  if (tiles.length === 2) {
    const [a, b] = tiles;
    if (civil.length === 2) return a === b;
    if (military.length === 2) {
      const sorted = [...tiles].sort().join();
      if (sorted === '1-2,2-4') return true; /* 至尊 */
      return MILITARY_TOTAL[a] === MILITARY_TOTAL[b] && [9, 8, 7, 5].includes(MILITARY_TOTAL[a]);
    }
    return PARTNER_TOTAL[civil[0]] === MILITARY_TOTAL[military[0]];
  }
  const kinds = new Set(civil);
  const totals = new Set(military.map((f) => MILITARY_TOTAL[f]));
  if (kinds.size !== 1 || totals.size !== 1) return false;
  if (PARTNER_TOTAL[civil[0]] !== MILITARY_TOTAL[military[0]]) return false;
  if (tiles.length === 3) return true;
  return tiles.length === 4 && civil.length === 2;
}

/* Does single tile a strictly beat single tile b (§2: same suit, strictly higher)? */
export function singleBeats(a, b) {
  if (isCivil(a) !== isCivil(b)) return false;
  if (isCivil(a)) return CIVIL.indexOf(a) < CIVIL.indexOf(b);
  return MILITARY_TOTAL[a] > MILITARY_TOTAL[b];
}

/* All k-element index subsets of n items, in order. */
function* subsets(n, k, start = 0, chosen = []) {
  if (chosen.length === k) {
    yield chosen;
    return;
  }
  for (let i = start; i < n; i++) yield* subsets(n, k, i + 1, [...chosen, i]);
}

/*
 * Indices of tiles in `hand` that the rules forbid playing now: when leading, k tiles that are
 * no combination; when following a best play `best` of n tiles, n tiles that are no
 * combination, or for a single a tile that does not beat it. null if the hand has none.
 */
export function illegalSelection(hand, best) {
  if (!best) {
    for (const pick of subsets(hand.length, 2)) if (!isCombination(pick.map((i) => hand[i]))) return pick;
    return null;
  }
  if (best.length === 1) {
    const i = hand.findIndex((f) => !singleBeats(f, best[0]));
    return i >= 0 ? [i] : null;
  }
  for (const pick of subsets(hand.length, best.length)) if (!isCombination(pick.map((i) => hand[i]))) return pick;
  return null;
}

/* What loser L pays winner W in a hand without special endings or 擒 (§4); negative: W pays L. */
export function plainPayment(stacks, loser, winner, banker, multiplier) {
  const s = stacks[loser];
  const units = 4 - s + (s === 0 ? 1 : 0);
  const bankerInvolved = loser === banker || winner === banker;
  const factor = bankerInvolved && !(loser === banker && units < 0) ? multiplier : 1;
  return units * factor;
}
