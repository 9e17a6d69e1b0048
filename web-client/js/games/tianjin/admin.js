/*
 * admin — what the admin pages (js/admin/) draw of a Tianjin hand or table, found by the game's
 * name (js/admin/games.js loads games/NAME/admin.js for every game of the registry), so that
 * nothing outside this folder names the game: its ledger reasons, its table state (banker,
 * count, must-sit), its option labels, its tiles (tile_art.js), a step of the hand from
 * view_admin (every seat's tiles, melds, discards, pull and pass, the indicator, the wilds and
 * the wall in drawing order), the words of its actions, and the claims of the hand.
 *
 * `kit` is the admin pages' toolbox, passed in so this file imports nothing of js/admin/:
 * { seatName, seatWho, seatPanel(i, seats, body, {acting, badges}), tileRow, tileEl, dataTable, section, describe }.
 */
import { h } from '../../dom.js';
import { lang, t } from '../../i18n.js';
import { isTileName, tileName } from './tiles.js';
import { tileSvg } from './tile_art.js';

const arr = (v) => (Array.isArray(v) ? v : []);

/* key: [English, 繁體, 简体] */
const WORDS = {
  'adm.reason.kong': ['kong 槓', '明槓', '明杠'],
  'adm.reason.concealed_kong': ['concealed kong 暗槓', '暗槓', '暗杠'],
  'adm.reason.gold_kong': ['gold kong 金槓', '金槓', '金杠'],
  'adm.reason.chan': ['chan 鏟', '鏟', '铲'],
  'adm.reason.wild_discard': ['wild discarded 打混', '打混兒', '打混儿'],
  'adm.act.tianjin.sit': ['sits', '坐莊', '坐庄'],
  'adm.act.tianjin.noSit': ['does not sit', '不坐莊', '不坐庄'],
  'adm.act.tianjin.pull': ['pulls', '拉莊', '拉庄'],
  'adm.act.tianjin.pulls': ['pulls shown', '拉莊結果', '拉庄结果'],
  'adm.act.tianjin.pung': ['pungs', '碰', '碰'],
  'adm.act.tianjin.kong': ['kongs', '明槓', '明杠'],
  'adm.act.tianjin.concealed_kong': ['concealed kong', '暗槓', '暗杠'],
  'adm.act.tianjin.added_kong': ['added kong', '加槓', '加杠'],
  'adm.act.tianjin.no_claim': ['nobody claims', '無人碰槓', '无人碰杠'],
  'adm.tj.banker': ['Banker', '莊家', '庄家'],
  'adm.tj.bank': ['Bank', '連莊', '连庄'],
  'adm.tj.col.sat': ['Sat', '坐莊', '坐庄'],
  'adm.tj.col.pulls': ['Pulls', '拉莊', '拉庄'],
  'adm.tj.col.winner': ['Winner', '胡牌', '胡牌'],
  'adm.tj.sat': ['sat ×2', '坐 ×2', '坐 ×2'],
  'adm.tj.notSatShort': ['no', '不坐', '不坐'],
  'adm.tj.drawnHand': ['drawn hand', '荒牌', '荒牌'],
  'adm.tj.count': ['banked {n} in a row', '連莊 {n}', '连庄 {n}'],
  'adm.tj.mustSit': ['must sit', '必須坐莊', '必须坐庄'],
  'adm.tj.pulls': ['pulls {list}', '拉莊 {list}', '拉庄 {list}'],
  'adm.tj.pull': ['pulls {n}', '拉 {n}', '拉 {n}'],
  'adm.tj.passed': ['passed', '已過', '已过'],
  'adm.tj.canClaim': ['can claim', '可以碰槓', '可以碰杠'],
  'adm.tj.wildDiscard': ['discarded a wild', '打過混兒', '打过混儿'],
  'adm.tj.drawn': ['drawn tile', '剛摸的牌', '刚摸的牌'],
  'adm.tj.notSat': ['the banker did not sit', '莊家沒坐莊', '庄家没坐庄'],
  'adm.tj.indicator': ['Indicator', '翻牌', '翻牌'],
  'adm.tj.wilds': ['wilds', '混兒', '混儿'],
  'adm.tj.window': ['Claim window on {seat}’s discard', '{seat}打出的牌可碰槓', '{seat}打出的牌可碰杠'],
  'adm.tj.wall': ['{n} tiles left to draw, {r} replacements', '牌牆剩 {n} 張，補牌 {r} 張', '牌墙剩 {n} 张，补牌 {r} 张'],
  'adm.tj.wallOrder': ['The wall in drawing order', '牌牆（摸牌順序）', '牌墙（摸牌顺序）'],
  'adm.tj.replacementWall': ['Replacement tiles', '補牌', '补牌'],
  'adm.tj.phase.sit': ['The banker decides to sit', '莊家決定坐莊', '庄家决定坐庄'],
  'adm.tj.phase.pull': ['The others choose their pulls', '閒家選擇拉莊', '闲家选择拉庄'],
  'adm.tj.phase.turn': ['A turn', '出牌', '出牌'],
  'adm.tj.phase.claim': ['A claim window', '碰槓時間', '碰杠时间'],
  'adm.tj.phase.over': ['Over', '結束', '结束'],
  'adm.tj.claims': ['Claims, kongs and the win', '碰、槓與胡', '碰、杠与胡'],
  'adm.tj.noClaims': ['No claim in this hand.', '這局沒有碰槓。', '这局没有碰杠。'],
  'adm.tj.col.step': ['Step', '步', '步'],
  'adm.tj.col.seat': ['Seat', '座位', '座位'],
  'adm.tj.col.claim': ['Claim', '碰槓', '碰杠'],
  'adm.tj.fan': ['Fan', '番', '番'],
};

const strings = { en: {}, 'zh-Hant': {}, 'zh-Hans': {} };
for (const [key, [en, hant, hans]] of Object.entries(WORDS)) {
  strings.en[key] = en;
  strings['zh-Hant'][key] = hant;
  strings['zh-Hans'][key] = hans;
}

const parser = typeof DOMParser !== 'undefined' ? new DOMParser() : null;

function isFace(v) {
  return isTileName(v);
}

/* One of the 34 fixed drawings of tile_art.js (never text from the wire), as a node. */
function tileEl(face, opts = {}) {
  const name = tileName(face, lang());
  const text = tileSvg(face, { lang: lang(), wild: opts.wild, indicator: opts.indicator });
  const svg = document.importNode(parser.parseFromString(text, 'image/svg+xml').documentElement, true);
  return h('span', { class: `adm-tile adm-tile-mj${opts.small ? ' small' : ''}`, role: 'img', 'aria-label': name, title: name, dataset: { face } }, svg);
}

const stateColumns = ['adm.tj.banker', 'adm.tj.bank', 'adm.tj.col.sat', 'adm.tj.col.pulls', 'adm.tj.col.winner'];
/* A hand's starting state (banker, streak, must sit) and, with its summary (the API's
 * {"sat","pulls","winner"}; null while it is played), whether the banker sat, who pulled how
 * often and who won; without a summary (the table as it is now) the state alone. */
function stateCells(gs, kit, summary) {
  const s = gs && typeof gs === 'object' ? gs : {};
  const parts = [];
  if (s.count !== undefined) parts.push(t('adm.tj.count', { n: s.count }));
  if (s.must_sit) parts.push(t('adm.tj.mustSit'));
  const cells = [kit.seatName(s.banker), parts.join(' · ') || '—'];
  if (summary === undefined) return cells;
  const sum = summary && typeof summary === 'object' ? summary : {};
  const sat = typeof sum.sat === 'boolean' ? t(sum.sat ? 'adm.tj.sat' : 'adm.tj.notSatShort') : '—';
  const pulls = arr(sum.pulls).map((n, seat) => (Number.isInteger(n) && n > 0 ? `${kit.seatName(seat)} ${t('adm.tj.pull', { n })}` : null))
    .filter(Boolean).join(', ') || '—';
  const winner = !summary ? '—' : Number.isInteger(sum.winner) ? kit.seatName(sum.winner) : t('adm.tj.drawnHand');
  return [...cells, sat, pulls, winner];
}

function optionLabel(key, value) {
  const k = value === undefined ? `tj.opt.${key}` : `tj.opt.${key}.${value}`;
  return t(k) === k ? null : t(k);
}

function meldRow(melds, kit) {
  return arr(melds).map((m) => h('span', { class: 'adm-meld' }, kit.tileRow(m && m.tiles, { small: true })));
}

/* A step: each seat's concealed tiles (the drawn one apart), melds, discards and choices; the
 * indicator, the wilds, the open claim window and the wall in the middle. */
function drawBoard(view, seats, kit) {
  const wilds = arr(view.wilds);
  const drawn = view.drawn && typeof view.drawn === 'object' ? view.drawn : null;
  const panels = [0, 1, 2, 3].map((i) => {
    const hand = [...arr(arr(view.hands)[i])];
    let drawnTile = null;
    if (drawn && drawn.seat === i) {
      const at = hand.lastIndexOf(drawn.tile);
      if (at >= 0) hand.splice(at, 1);
      drawnTile = drawn.tile;
    }
    const pull = arr(view.pulls)[i] ?? arr(view.chosen_pulls)[i];
    const notes = [];
    if (view.sat === true && i !== view.banker && pull !== null && pull !== undefined) notes.push(t('adm.tj.pull', { n: pull }));
    if (arr(view.passed)[i]) notes.push(t('adm.tj.passed'));
    if (view.claimer === i) notes.push(t('adm.tj.canClaim'));
    if (arr(view.wild_discards).includes(i)) notes.push(t('adm.tj.wildDiscard'));
    return kit.seatPanel(i, seats, [
      h('div', { class: 'adm-line' }, kit.tileRow(hand, { wilds }),
        drawnTile ? h('span', { class: 'adm-drawn', title: t('adm.tj.drawn') }, kit.tileEl(drawnTile, { wild: wilds.includes(drawnTile) })) : null),
      arr(arr(view.melds)[i]).length ? h('div', { class: 'adm-line' }, meldRow(arr(view.melds)[i], kit)) : null,
      h('div', { class: 'adm-line' }, kit.tileRow(arr(view.discards)[i], { small: true, wilds })),
      notes.length ? h('p', { class: 'muted' }, notes.join(' · ')) : null,
    ], { acting: view.over ? -1 : view.turn, badges: view.banker === i ? [t('adm.tj.banker')] : [] });
  });
  const phaseKey = `adm.tj.phase.${view.phase}`;
  const middle = h('div', { class: 'adm-middle' },
    h('p', {}, t(phaseKey) !== phaseKey ? t(phaseKey) : String(view.phase ?? ''),
      ' · ', t('adm.tj.count', { n: view.count ?? '—' }), view.sat === false ? ` · ${t('adm.tj.notSat')}` : ''),
    isTileName(view.indicator) ? h('p', { class: 'adm-line' }, t('adm.tj.indicator'), ' ', kit.tileEl(view.indicator, { small: true, indicator: true }),
      ' ', t('adm.tj.wilds'), ' ', kit.tileRow(wilds, { small: true, wilds })) : null,
    view.discard && view.discard.tile ? h('p', { class: 'adm-line' }, t('adm.tj.window', { seat: kit.seatName(view.discard.seat) }), ' ',
      kit.tileEl(view.discard.tile, { small: true })) : null,
    typeof view.wall === 'number' ? h('p', { class: 'muted' }, t('adm.tj.wall', { n: view.wall, r: view.replacements ?? 0 })) : null,
    arr(view.live_wall).length ? h('details', { class: 'adm-wall' }, h('summary', {}, t('adm.tj.wallOrder')),
      kit.tileRow(view.live_wall, { small: true, wilds }),
      arr(view.replacement_wall).length ? [h('p', { class: 'muted' }, t('adm.tj.replacementWall')),
        kit.tileRow(view.replacement_wall, { small: true, wilds })] : null) : null,
    view.over ? h('p', { class: 'adm-over' }, t('adm.hand.over')) : null);
  return [panels, middle];
}

/* The claims, kongs and the win, from the steps' events, in order. */
function playSummary(steps, kit) {
  const keys = ['pung', 'kong', 'concealed_kong', 'added_kong', 'win'];
  const claims = steps.filter((s) => s && s.event && typeof s.event === 'object' && keys.some((k) => k in s.event));
  return kit.section(t('adm.tj.claims'), kit.dataTable('hand-plays', [
    { key: 'adm.tj.col.step' }, { key: 'adm.tj.col.seat' }, { key: 'adm.tj.col.claim' },
  ], claims.map((s) => ({ cells: [String(s.n), kit.seatName(s.event.seat ?? s.seat), h('span', {}, kit.describe(null, s.event))] })),
  { empty: t('adm.tj.noClaims') }));
}

function resultFacts(result) {
  return result && result.win && typeof result.win.fan === 'number' ? [['adm.tj.fan', String(result.win.fan)]] : [];
}

export default {
  strings,
  reasons: ['kong', 'concealed_kong', 'gold_kong', 'chan', 'wild_discard'],
  isFace,
  tileEl,
  stateColumns,
  stateCells,
  optionLabel,
  drawBoard,
  playSummary,
  resultFacts,
  /* a banker that does not sit is said so, not "sits no" */
  actionWord: (key, value) => (key === 'sit' && value === false ? t('adm.act.tianjin.noSit') : null),
};
