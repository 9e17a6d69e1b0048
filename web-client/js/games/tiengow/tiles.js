/*
 * tiles — the 32 Tien Gow tiles as the client needs them (rules/tiengow.md §1 and §2): faces,
 * suit, rank, names in three languages, the order a hand is shown in, the name of a
 * combination for the trick display, and the tile drawn as an SVG domino.
 *
 * The server is the judge of what is legal; nothing here decides a play. Combination names are
 * only labels, so a misnamed oddity can never send or block a move.
 */

/* Kinds strongest first within each suit, as in rules §1. `short` is the one-character name
 * used in combination names (天九, 地八, 雙天…); `total` is a military tile's pip total. */
const KINDS = [
  { face: '6-6', suit: 'civil', rank: 1, hant: '天牌', hans: '天牌', en: 'Heaven', short: '天' },
  { face: '1-1', suit: 'civil', rank: 2, hant: '地牌', hans: '地牌', en: 'Earth', short: '地' },
  { face: '4-4', suit: 'civil', rank: 3, hant: '人牌', hans: '人牌', en: 'Man', short: '人' },
  { face: '1-3', suit: 'civil', rank: 4, hant: '和牌', hans: '和牌', en: 'Goose', short: '和' },
  { face: '5-5', suit: 'civil', rank: 5, hant: '梅花', hans: '梅花', en: 'Plum', short: '梅' },
  { face: '3-3', suit: 'civil', rank: 6, hant: '長三', hans: '长三', en: 'Long three', short: '長三', shortHans: '长三' },
  { face: '2-2', suit: 'civil', rank: 7, hant: '板凳', hans: '板凳', en: 'Bench', short: '板凳' },
  { face: '5-6', suit: 'civil', rank: 8, hant: '斧頭', hans: '斧头', en: 'Hatchet', short: '斧頭', shortHans: '斧头' },
  { face: '4-6', suit: 'civil', rank: 9, hant: '紅頭十', hans: '红头十', en: 'Red-head ten', short: '紅頭', shortHans: '红头' },
  { face: '1-6', suit: 'civil', rank: 10, hant: '高腳七', hans: '高脚七', en: 'Long-leg seven', short: '高腳', shortHans: '高脚' },
  { face: '1-5', suit: 'civil', rank: 11, hant: '銅錘六', hans: '铜锤六', en: 'Copper-hammer six', short: '銅錘', shortHans: '铜锤' },
  { face: '3-6', suit: 'military', total: 9, hant: '雜九', hans: '杂九', en: 'Mixed nine' },
  { face: '4-5', suit: 'military', total: 9, hant: '雜九', hans: '杂九', en: 'Mixed nine' },
  { face: '2-6', suit: 'military', total: 8, hant: '雜八', hans: '杂八', en: 'Mixed eight' },
  { face: '3-5', suit: 'military', total: 8, hant: '雜八', hans: '杂八', en: 'Mixed eight' },
  { face: '2-5', suit: 'military', total: 7, hant: '雜七', hans: '杂七', en: 'Mixed seven' },
  { face: '3-4', suit: 'military', total: 7, hant: '雜七', hans: '杂七', en: 'Mixed seven' },
  { face: '2-4', suit: 'military', total: 6, hant: '大頭六', hans: '大头六', en: 'Big-head six' },
  { face: '2-3', suit: 'military', total: 5, hant: '雜五', hans: '杂五', en: 'Mixed five' },
  { face: '1-4', suit: 'military', total: 5, hant: '雜五', hans: '杂五', en: 'Mixed five' },
  { face: '1-2', suit: 'military', total: 3, hant: '丁三', hans: '丁三', en: 'Little three' },
];

const BY_FACE = new Map(KINDS.map((k, index) => [k.face, { ...k, index }]));

/* The civil tile that pairs with a military total in 天九, 地八, 人七, 和五 (rules §2). */
const CIVIL_OF_TOTAL = { 9: '6-6', 8: '1-1', 7: '4-4', 5: '1-3' };
const TOTAL_DIGIT = { 9: '九', 8: '八', 7: '七', 5: '五' };
const TOTAL_WORD = { 9: 'nine', 8: 'eight', 7: 'seven', 5: 'five' };

export function tileInfo(face) {
  return BY_FACE.get(face) || null;
}

export function isTileFace(face) {
  return BY_FACE.has(face);
}

/* The tile's name in a language: 'zh-Hant', 'zh-Hans' or 'en' (English keeps the Chinese name). */
export function tileName(face, lang) {
  const k = tileInfo(face);
  if (!k) return face;
  if (lang === 'zh-Hant') return k.hant;
  if (lang === 'zh-Hans') return k.hans;
  return `${k.en} ${k.hant}`;
}

/* The order a hand is shown in: civil before military, then strongest first. */
export function compareTiles(a, b) {
  const x = tileInfo(a);
  const y = tileInfo(b);
  return x.index - y.index;
}

export function sortTiles(faces) {
  return [...faces].sort(compareTiles);
}

/* The same multiset of tiles, as a comparable key. */
export function tilesKey(faces) {
  return sortTiles(faces).join(',');
}

function shortName(k, lang) {
  if (lang === 'zh-Hans' && k.shortHans) return k.shortHans;
  return k.short;
}

/*
 * The name of a played combination (rules §2): 雙天, 天九, 至尊, 天天九, 天九九, 天天九九, a
 * single's tile name… English gives the English words followed by the Chinese name.
 * Returns { zh, en, type } where type is a key of the combination types in i18n.
 */
export function comboInfo(faces, options) {
  const tiles = faces.map(tileInfo);
  if (tiles.some((t) => !t)) return null;
  const civil = tiles.filter((t) => t.suit === 'civil');
  const military = tiles.filter((t) => t.suit === 'military');
  if (tiles.length === 1) {
    const t = tiles[0];
    return { type: t.suit === 'civil' ? 'civil_single' : 'military_single', hant: t.hant, hans: t.hans, en: t.en };
  }
  if (tiles.length === 2) {
    const [a, b] = tiles;
    if (civil.length === 2 && a.face === b.face) {
      const wen = a.face === '1-5' && options && options.wen_zun;
      const hant = wen ? '文尊' : `雙${a.short}`;
      const hans = wen ? '文尊' : `双${shortName(a, 'zh-Hans')}`;
      return { type: 'civil_pair', hant, hans, en: wen ? 'Civil supreme' : `Pair of ${a.en}` };
    }
    if (military.length === 2 && a.total === b.total && TOTAL_DIGIT[a.total]) {
      return { type: 'military_pair', hant: `雜${TOTAL_DIGIT[a.total]}對`, hans: `杂${TOTAL_DIGIT[a.total]}对`,
        en: `Pair of ${TOTAL_WORD[a.total]}s` };
    }
    if (military.length === 2 && tilesKey([a.face, b.face]) === tilesKey(['1-2', '2-4'])) {
      return { type: 'supreme', hant: '至尊', hans: '至尊', en: 'Supreme' };
    }
    if (civil.length === 1 && military.length === 1 && CIVIL_OF_TOTAL[military[0].total] === civil[0].face) {
      const name = civil[0].short + TOTAL_DIGIT[military[0].total];
      return { type: 'mixed_pair', hant: name, hans: name, en: `${civil[0].en} ${TOTAL_WORD[military[0].total]}` };
    }
    return null;
  }
  /* triples and the quartet: one civil kind and one military total that match */
  const civilFaces = new Set(civil.map((t) => t.face));
  const totals = new Set(military.map((t) => t.total));
  if (civilFaces.size !== 1 || totals.size !== 1) return null;
  const c = civil[0];
  const total = military[0].total;
  if (CIVIL_OF_TOTAL[total] !== c.face) return null;
  const name = c.short.repeat(civil.length) + TOTAL_DIGIT[total].repeat(military.length);
  if (tiles.length === 3) {
    const civilTriple = civil.length === 2;
    return { type: civilTriple ? 'civil_triple' : 'military_triple', hant: name, hans: name,
      en: `${c.en} ${civilTriple ? 'civil' : 'military'} triple` };
  }
  if (tiles.length === 4 && civil.length === 2) {
    return { type: 'quartet', hant: name, hans: name, en: `${c.en} quartet` };
  }
  return null;
}

/* A combination's name in a language, or the tile names joined when it is no combination. */
export function comboName(faces, lang, options) {
  const info = comboInfo(faces, options);
  if (!info) return faces.map((f) => tileName(f, lang)).join(' + ');
  if (lang === 'zh-Hant') return info.hant;
  if (lang === 'zh-Hans') return info.hans;
  return info.en === info.hant ? info.en : `${info.en} ${info.hant}`;
}

/* --- drawing --- */

const SVG_NS = 'http://www.w3.org/2000/svg';

/* Pip centres in a 40 × 40 half, as on dice; a Chinese domino's 1 is a large pip. */
const PIPS = {
  1: [[20, 20]],
  2: [[12, 12], [28, 28]],
  3: [[11, 11], [20, 20], [29, 29]],
  4: [[12, 12], [28, 12], [12, 28], [28, 28]],
  5: [[11, 11], [29, 11], [20, 20], [11, 29], [29, 29]],
  6: [[12, 9], [12, 20], [12, 31], [28, 9], [28, 20], [28, 31]],
};

/* Red pips (rules §1): every 1 and every 4; on 天 (6-6) half of each six, its left column. */
function pipIsRed(value, x, isHeaven) {
  if (value === 1 || value === 4) return true;
  return isHeaven && value === 6 && x < 20;
}

function svgEl(tag, attrs) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

function drawHalf(svg, value, top, isHeaven) {
  for (const [x, y] of PIPS[value]) {
    const red = pipIsRed(value, x, isHeaven);
    svg.appendChild(svgEl('circle', {
      cx: x, cy: top + y, r: value === 1 ? 6.5 : 4.2,
      class: red ? 'pip pip-red' : 'pip',
    }));
  }
}

/* An SVG domino, low face on top (as the tile is written), 40 × 80. */
export function dominoSvg(face) {
  const [low, high] = face.split('-').map(Number);
  const svg = svgEl('svg', { viewBox: '0 0 40 80', class: 'domino', 'aria-hidden': 'true', focusable: 'false' });
  svg.appendChild(svgEl('rect', { x: 1, y: 1, width: 38, height: 78, rx: 5, class: 'domino-body' }));
  svg.appendChild(svgEl('line', { x1: 6, y1: 40, x2: 34, y2: 40, class: 'domino-divider' }));
  const heaven = face === '6-6';
  drawHalf(svg, low, 0, heaven);
  drawHalf(svg, high, 40, heaven);
  return svg;
}

/* The back of a tile, for discards shown face down. */
export function dominoBackSvg() {
  const svg = svgEl('svg', { viewBox: '0 0 40 80', class: 'domino domino-back', 'aria-hidden': 'true', focusable: 'false' });
  svg.appendChild(svgEl('rect', { x: 1, y: 1, width: 38, height: 78, rx: 5, class: 'domino-back-body' }));
  svg.appendChild(svgEl('rect', { x: 7, y: 7, width: 26, height: 66, rx: 3, class: 'domino-back-inlay' }));
  return svg;
}
