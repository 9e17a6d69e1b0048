/*
 * tiles — the 34 kinds of Tianjin Mahjong (rules/tianjin-mahjong.md §1) as the client needs them:
 * their wire names (§7: "1m".."9m" 万, "1p".."9p" 筒, "1s".."9s" 条, "E" "S" "W" "N", "C" "F" "P"),
 * their names in three languages, the order a hand is shown in, and which kinds are wild for an
 * indicator (§2, and §6 under 刮大风).
 *
 * The server says which kinds are wild (a view's `wilds`); wildKinds() is for a view that does not
 * and for the tests. Nothing here decides a move.
 */

const NUMERALS = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/* The number suits: wire letter, names of the suit in three languages, and its character on a tile. */
const SUITS = [
  { letter: 'm', en: 'Characters', short: 'Crak', hant: '萬', hans: '万' },
  { letter: 'p', en: 'Dots', short: 'Dot', hant: '筒', hans: '筒' },
  { letter: 's', en: 'Bamboo', short: 'Bam', hant: '條', hans: '条' },
];

/* The honours in §2's order of "next kind" within each group. */
const HONOURS = [
  { name: 'E', group: 'wind', en: 'East wind', short: 'East', hant: '東', hans: '东' },
  { name: 'S', group: 'wind', en: 'South wind', short: 'South', hant: '南', hans: '南' },
  { name: 'W', group: 'wind', en: 'West wind', short: 'West', hant: '西', hans: '西' },
  { name: 'N', group: 'wind', en: 'North wind', short: 'North', hant: '北', hans: '北' },
  { name: 'C', group: 'dragon', en: 'Red dragon', short: 'Red', hant: '中', hans: '中' },
  { name: 'F', group: 'dragon', en: 'Green dragon', short: 'Green', hant: '發', hans: '发' },
  { name: 'P', group: 'dragon', en: 'White dragon', short: 'White', hant: '白', hans: '白' },
];

/* Every kind once, in the order a hand is shown: 万 筒 条 by rank, winds, dragons. */
export const KINDS = [
  ...SUITS.flatMap((suit) => NUMERALS.map((numeral, i) => ({
    name: `${i + 1}${suit.letter}`, group: suit.letter, rank: i + 1, numeral,
    en: `${suit.en} ${i + 1}`, short: `${i + 1} ${suit.short}`, hant: `${numeral}${suit.hant}`, hans: `${numeral}${suit.hans}`,
  }))),
  ...HONOURS.map((k) => ({ ...k, rank: 0 })),
];

const BY_NAME = new Map(KINDS.map((k, index) => [k.name, { ...k, index }]));

export function kindInfo(name) {
  return BY_NAME.get(name) || null;
}

export function isTileName(name) {
  return BY_NAME.has(name);
}

/* The tile's name in a language: 'zh-Hant', 'zh-Hans' or 'en' (English keeps the Chinese name). */
export function tileName(name, lang) {
  const k = kindInfo(name);
  if (!k) return String(name);
  if (lang === 'zh-Hant') return k.hant;
  if (lang === 'zh-Hans') return k.hans;
  return `${k.en} ${k.hant}`;
}

/* The name written under a tile: the Chinese name, or a short English one ("4 Crak", "East"). */
export function shortTileName(name, lang) {
  const k = kindInfo(name);
  if (!k) return String(name);
  return lang === 'en' ? k.short : tileName(name, lang);
}

/* The kinds that follow each other (§2): a number suit 1→…→9→1, the winds, the dragons. */
function groupOf(k) {
  return KINDS.filter((other) => other.group === k.group);
}

function stepKind(name, step) {
  const k = kindInfo(name);
  const group = groupOf(k);
  const at = group.findIndex((other) => other.name === name);
  return group[(at + step + group.length) % group.length].name;
}

export function nextKind(name) {
  return stepKind(name, 1);
}

export function prevKind(name) {
  return stepKind(name, -1);
}

/* The wild kinds of an indicator (§2: it and the next; §6 刮大风: the one before too, or every wind). */
export function wildKinds(indicator, options) {
  if (!isTileName(indicator)) return [];
  if (!(options && options.gua_da_feng)) return [indicator, nextKind(indicator)];
  if (kindInfo(indicator).group === 'wind') return ['E', 'S', 'W', 'N'];
  return [prevKind(indicator), indicator, nextKind(indicator)];
}

/*
 * The order a hand is shown in: the wilds first (where a Tianjin player keeps them), then 万 筒 条
 * by rank, winds, dragons. `wilds` is a list of wild kinds (may be empty).
 */
export function sortTiles(names, wilds) {
  const wild = new Set(wilds || []);
  const key = (name) => (wild.has(name) ? -100 : 0) + (kindInfo(name) ? kindInfo(name).index : 99);
  return [...names].sort((a, b) => key(a) - key(b));
}
