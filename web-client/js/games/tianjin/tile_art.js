/*
 * tile_art — the 34 Tianjin tiles drawn as small SVG documents (strings, so they are built once
 * per kind and language, need no image files, and can be checked under Node): an ivory face on a
 * green back, 万 as a numeral over 萬 with a small Arabic index, 筒 as coloured circles, 条 as
 * sticks with the one of bamboo as a bird, the winds with a small Latin index (E S W N), 中 in
 * red, 發 in green, 白 as a blue frame; a face-down tile; and two marks drawn into the tile
 * itself: a wild (混儿) has a gold face, frame and base, the indicator a blue dashed frame and
 * a blue base.
 *
 * viewBox 0 0 48 66: the face is 0..61, the back shows below it as the tile's thickness. Drawn to
 * read at 28 to 56 px wide. Every SVG is aria-hidden: the element around it carries the name.
 */
import { kindInfo } from './tiles.js';

const INK = '#17233d';
const RED = '#c8102e';
const GREEN = '#1d7a45';
const BLUE = '#1f4e9c';
const DARK = { [RED]: '#8a0b20', [GREEN]: '#0f4f2b', [BLUE]: '#12336b' };

const SERIF_HANS = "'Noto Serif CJK SC','Source Han Serif SC','Songti SC','STSong','SimSun','Noto Sans CJK SC','PingFang SC','Microsoft YaHei','WenQuanYi Micro Hei',serif";
const SERIF_HANT = "'Noto Serif CJK TC','Source Han Serif TC','Songti TC','PMingLiU','MingLiU','Noto Sans CJK TC','PingFang TC','Microsoft JhengHei','WenQuanYi Micro Hei',serif";
const INDEX_FONT = "'Helvetica Neue',Arial,'Liberation Sans',sans-serif";

/* What a mark changes: the face's fill, an inner frame, and the colour of the back under it. */
const MARKS = {
  none: { face: '#fbf7ec', frame: null, base: '#2f7d5b' },
  wild: { face: '#ffecb0', frame: `stroke="#c98e0c" stroke-width="2.6"`, base: '#c98e0c' },
  indicator: { face: '#eaf2ff', frame: `stroke="#2b6cb0" stroke-width="2.4" stroke-dasharray="5 2.6"`, base: '#2b6cb0' },
};

function text(x, y, size, fill, font, content, weight = 700) {
  return `<text x="${x}" y="${y}" font-size="${size}" font-weight="${weight}" fill="${fill}" font-family="${font}" `
    + `text-anchor="middle" dominant-baseline="central">${content}</text>`;
}

/* A coin of the dots suit: a coloured disc, a white ring, a coloured centre. */
function dot(cx, cy, r, color) {
  return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${color}"/>`
    + `<circle cx="${cx}" cy="${cy}" r="${(r * 0.6).toFixed(2)}" fill="none" stroke="#fff" stroke-width="${(r * 0.22).toFixed(2)}"/>`;
}

/* A bamboo stick from (cx, y) down h, with a node in the middle and a highlight. */
function stick(cx, y, h, color) {
  const mid = y + h / 2;
  return `<rect x="${cx - 2.6}" y="${y}" width="5.2" height="${h}" rx="2.6" fill="${color}"/>`
    + `<rect x="${cx - 3.3}" y="${mid - 1}" width="6.6" height="2" rx="1" fill="${DARK[color]}"/>`
    + `<line x1="${cx - 0.8}" y1="${y + 2.5}" x2="${cx - 0.8}" y2="${y + h - 2.5}" stroke="#fff" stroke-opacity=".45" stroke-width="1"/>`;
}

/* Dots 1-9: [cx, cy, r, colour] each (the 1 is a medallion of its own). */
const DOTS = {
  2: [[24, 17.5, 9.5, GREEN], [24, 44, 9.5, BLUE]],
  3: [[12.5, 13, 8, BLUE], [24, 30.5, 8, RED], [35.5, 48, 8, GREEN]],
  4: [[14, 17, 8.5, BLUE], [34, 17, 8.5, GREEN], [14, 44, 8.5, GREEN], [34, 44, 8.5, BLUE]],
  5: [[13, 13, 7.5, BLUE], [35, 13, 7.5, GREEN], [24, 30.5, 7.5, RED], [13, 48, 7.5, GREEN], [35, 48, 7.5, BLUE]],
  6: [[14, 11.5, 6.8, GREEN], [34, 11.5, 6.8, GREEN], [14, 31, 6.8, RED], [34, 31, 6.8, RED], [14, 48, 6.8, RED], [34, 48, 6.8, RED]],
  7: [[11, 9.5, 5.8, GREEN], [24, 15.5, 5.8, GREEN], [37, 21.5, 5.8, GREEN],
    [14, 36, 6.2, RED], [34, 36, 6.2, RED], [14, 50, 6.2, RED], [34, 50, 6.2, RED]],
  8: [15, 33].flatMap((x) => [10, 23.5, 37, 50.5].map((y) => [x, y, 6.1, BLUE])),
  9: [[12.5, BLUE], [30.5, RED], [48.5, GREEN]].flatMap(([y, c]) => [11, 24, 37].map((x) => [x, y, 6.2, c])),
};

function medallion() {
  return `<circle cx="24" cy="30.5" r="17" fill="${BLUE}"/>`
    + `<circle cx="24" cy="30.5" r="13.6" fill="none" stroke="#fff" stroke-width="1.6" stroke-dasharray="3 1.6"/>`
    + `<circle cx="24" cy="30.5" r="11" fill="${GREEN}"/>`
    + `<circle cx="24" cy="30.5" r="6" fill="${RED}"/><circle cx="24" cy="30.5" r="2.2" fill="#fff"/>`;
}

/* Bamboo 2-9: [cx, y, h, colour] each (the 1 is a bird). */
const TALL = 23;
const SHORT = 15.5;
const STICKS = {
  2: [[24, 6, TALL, GREEN], [24, 32, TALL, BLUE]],
  3: [[24, 6, TALL, GREEN], [15, 32, TALL, BLUE], [33, 32, TALL, BLUE]],
  4: [[15, 6, TALL, GREEN], [33, 6, TALL, BLUE], [15, 32, TALL, BLUE], [33, 32, TALL, GREEN]],
  5: [[12, 6, TALL, GREEN], [36, 6, TALL, BLUE], [24, 19, TALL, RED], [12, 32, TALL, BLUE], [36, 32, TALL, GREEN]],
  6: [6, 32].flatMap((y, row) => [12, 24, 36].map((x) => [x, y, TALL, row ? BLUE : GREEN])),
  7: [[24, 4, SHORT, RED], ...[21.5, 40].flatMap((y, row) => [12, 24, 36].map((x) => [x, y, SHORT, row ? BLUE : GREEN]))],
  8: [6, 32].flatMap((y, row) => [9, 19, 29, 39].map((x) => [x, y, TALL, row ? BLUE : GREEN])),
  9: [4, 21.5, 39].flatMap((y) => [[12, y, SHORT, GREEN], [24, y, SHORT, RED], [36, y, SHORT, BLUE]]),
};

/* 一条: a bird (雀) with a red head, green body and a fanned tail. */
function bird() {
  return `<path d="M19 39 Q5 40 3 50 Q12 47 21 43 Z" fill="${RED}"/>`
    + `<path d="M20 41 Q8 48 7 59 Q15 52 23 44 Z" fill="${BLUE}"/>`
    + `<path d="M23 43 Q15 52 18 60 Q23 52 26 45 Z" fill="${GREEN}"/>`
    + `<ellipse cx="27" cy="31" rx="10.5" ry="13" fill="${GREEN}"/>`
    + `<path d="M21 25 Q31 29 29 42 Q21 38 21 25 Z" fill="${DARK[GREEN]}"/>`
    + `<path d="M34 22 Q39 31 33 41" fill="none" stroke="#e9b73b" stroke-width="2.4" stroke-linecap="round"/>`
    + `<circle cx="32" cy="14" r="6.5" fill="${RED}"/>`
    + `<path d="M30 8 L28 3 M32 7.5 L32 2.5 M34 8 L36.5 3.5" stroke="${RED}" stroke-width="1.5" stroke-linecap="round"/>`
    + `<circle cx="34" cy="12.8" r="1.7" fill="#fff"/><circle cx="34.4" cy="12.8" r="0.85" fill="${INK}"/>`
    + `<path d="M37.5 12.6 L44.5 15.4 L37.5 17.8 Z" fill="#e9a21b"/>`
    + `<path d="M25 43.5 L23.5 53.5 M30 43.5 L31 53.5 M20.5 54 L26 54 M28.5 54 L34 54" stroke="#8a5a12" stroke-width="1.6" stroke-linecap="round"/>`;
}

const WIND_INDEX = { E: 'E', S: 'S', W: 'W', N: 'N' };
const HONOUR_COLOUR = { C: RED, F: GREEN };

/* The drawing on the face of a kind, in the given language's characters (万/萬, 东/東, 发/發). */
function faceOf(k, lang) {
  const hans = lang === 'zh-Hans';
  const serif = hans ? SERIF_HANS : SERIF_HANT;
  const glyph = hans ? k.hans : k.hant;
  if (k.group === 'm') {
    return text(24, 18.5, 21, INK, serif, k.numeral) + text(24, 44, 24, RED, serif, glyph.slice(-1))
      + text(6.8, 9, 9.5, INK, INDEX_FONT, String(k.rank));
  }
  if (k.group === 'p') {
    return k.rank === 1 ? medallion() : DOTS[k.rank].map(([x, y, r, c]) => dot(x, y, r, c)).join('');
  }
  if (k.group === 's') {
    return k.rank === 1 ? bird() : STICKS[k.rank].map(([x, y, h, c]) => stick(x, y, h, c)).join('');
  }
  if (k.group === 'wind') {
    return text(24, 32, 33, INK, serif, glyph) + text(6.8, 9, 9.5, INK, INDEX_FONT, WIND_INDEX[k.name]);
  }
  if (k.name === 'P') {
    return `<rect x="9" y="8" width="30" height="45" rx="2.5" fill="none" stroke="${BLUE}" stroke-width="3"/>`
      + `<rect x="13.5" y="12.5" width="21" height="36" rx="1.5" fill="none" stroke="${BLUE}" stroke-width="1.2"/>`;
  }
  return text(24, 31.5, 35, HONOUR_COLOUR[k.name], serif, glyph);
}

function frame(mark) {
  return `<rect x="0.75" y="3.5" width="46.5" height="61.75" rx="5.5" fill="${mark.base}"/>`
    + `<rect x="0.75" y="0.75" width="46.5" height="60" rx="5" fill="${mark.face}" stroke="#b3a384" stroke-width="1"/>`;
}

function svg(cls, body) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 66" class="${cls}" aria-hidden="true" focusable="false">${body}</svg>`;
}

const cache = new Map();

/*
 * The tile of that wire name as an SVG string, or null for a name that is no tile.
 * opts: { lang ('zh-Hans' draws 万 东 发, else 萬 東 發), wild, indicator }.
 */
export function tileSvg(name, opts = {}) {
  const k = kindInfo(name);
  if (!k) return null;
  const markName = opts.indicator ? 'indicator' : (opts.wild ? 'wild' : 'none');
  const lang = opts.lang === 'zh-Hans' ? 'zh-Hans' : 'zh-Hant';
  const key = `${name}|${markName}|${lang}`;
  if (!cache.has(key)) {
    const mark = MARKS[markName];
    const inner = mark.frame ? `<rect x="3" y="3" width="42" height="55.5" rx="3.5" fill="none" ${mark.frame}/>` : '';
    /* a wild's corner: a shape, not only a colour, says 混儿 */
    const corner = markName === 'wild' ? '<path d="M34 0.75 H42.25 A5 5 0 0 1 47.25 5.75 V14 Z" fill="#c98e0c"/>' : '';
    cache.set(key, svg(`mj-face mj-${markName}`, frame(mark) + inner + corner + faceOf(k, lang)));
  }
  return cache.get(key);
}

/* A tile lying face down: its green back. */
export function tileBackSvg() {
  return svg('mj-face mj-back', `<rect x="0.75" y="3.5" width="46.5" height="61.75" rx="5.5" fill="#1f5b40"/>`
    + `<rect x="0.75" y="0.75" width="46.5" height="60" rx="5" fill="#2f7d5b" stroke="#1f5b40" stroke-width="1"/>`
    + `<rect x="6" y="6" width="36" height="49.5" rx="3" fill="none" stroke="#9fd1b5" stroke-width="1.4"/>`
    + `<path d="M24 18 L32 30.75 L24 43.5 L16 30.75 Z" fill="none" stroke="#9fd1b5" stroke-width="1.4"/>`);
}
