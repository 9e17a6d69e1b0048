/*
 * admin — what the admin pages (js/admin/) draw of a Tien Gow hand or table, found by the game's
 * name (js/admin/games.js loads games/NAME/admin.js for every game of the registry), so that
 * nothing outside this folder names the game: its ledger reasons (the bonuses), its table state
 * (banker and multiplier), its option labels, its tiles (the dominoes of tiles.js), a step of
 * the hand from view_admin (every seat's tiles and the trick being played) and the tricks.
 *
 * `kit` is the admin pages' toolbox, passed in so this file imports nothing of js/admin/:
 * { h, t, seatName, seatWho, seatPanel(i, seats, body, {acting, badges}), tileRow, tileEl, dataTable, section }.
 */
import { h } from '../../dom.js';
import { lang, t } from '../../i18n.js';
import { dominoSvg, isTileFace, tileName } from './tiles.js';

const arr = (v) => (Array.isArray(v) ? v : []);

/* key: [English, 繁體, 简体] */
const WORDS = {
  'adm.reason.he_zun': ['bonus 和至尊', '獎賞 和至尊', '奖赏 和至尊'],
  'adm.reason.qin_zun': ['bonus 擒至尊', '獎賞 擒至尊', '奖赏 擒至尊'],
  'adm.reason.quartet': ['bonus four of a kind', '獎賞 四條', '奖赏 四条'],
  'adm.tg.banker': ['Banker', '莊家', '庄家'],
  'adm.tg.multiplier': ['Multiplier', '倍數', '倍数'],
  'adm.tg.stacks': ['Stacks won: {n}', '贏 {n} 墩', '赢 {n} 墩'],
  'adm.tg.status': ['Multiplier ×{m} · tricks done: {n}', '倍數 ×{m} · 已完成 {n} 墩', '倍数 ×{m} · 已完成 {n} 墩'],
  'adm.tg.trick': ['Trick {n}', '第 {n} 墩', '第 {n} 墩'],
  'adm.tg.finalTrick': ['Trick {n}, the last', '第 {n} 墩（最後一墩）', '第 {n} 墩（最后一墩）'],
  'adm.tg.noTrick': ['No trick yet.', '還沒出牌。', '还没出牌。'],
  'adm.tg.tricks': ['Tricks', '每墩', '每墩'],
  'adm.tg.col.trick': ['Trick', '墩', '墩'],
  'adm.tg.col.leader': ['Led by', '出頭', '出头'],
  'adm.tg.col.plays': ['Plays', '出牌', '出牌'],
  'adm.tg.col.winner': ['Won by', '贏墩', '赢墩'],
  'adm.tg.col.handWinner': ['Winner', '贏家', '赢家'],
  'adm.act.tiengow.discard': ['discards face down', '墊牌', '垫牌'],
};

const strings = { en: {}, 'zh-Hant': {}, 'zh-Hans': {} };
for (const [key, [en, hant, hans]] of Object.entries(WORDS)) {
  strings.en[key] = en;
  strings['zh-Hant'][key] = hant;
  strings['zh-Hans'][key] = hans;
}

function isFace(v) {
  return isTileFace(v);
}

function tileEl(face, opts = {}) {
  const name = tileName(face, lang());
  return h('span', { class: `adm-tile adm-tile-domino${opts.small ? ' small' : ''}`, role: 'img', 'aria-label': name, title: name, dataset: { face } },
    dominoSvg(face));
}

/* The hand's starting state as cells of the table page's columns. */
const stateColumns = ['adm.tg.banker', 'adm.tg.multiplier', 'adm.tg.col.handWinner'];
/* A hand's starting state, and with its summary (the API's {"winner"}; null while it is played)
 * who won it; without a summary (the table as it is now) the state alone. */
function stateCells(gs, kit, summary) {
  const s = gs && typeof gs === 'object' ? gs : {};
  const cells = [kit.seatName(s.banker), s.multiplier !== undefined ? `×${s.multiplier}` : '—'];
  if (summary === undefined) return cells;
  const won = summary && Number.isInteger(summary.winner) ? kit.seatName(summary.winner) : '—';
  return [...cells, won];
}

function optionLabel(key, value) {
  const k = value === undefined ? `tg.opt.${key}` : `tg.opt.${key}.${value}`;
  return t(k) === k ? null : t(k);
}

/* A step: four seats with their tiles and won stacks, and the trick being played. */
function drawBoard(view, seats, kit) {
  const tricks = arr(view.tricks);
  const open = tricks.length ? tricks[tricks.length - 1] : null;
  const panels = [0, 1, 2, 3].map((i) => kit.seatPanel(i, seats, [
    h('div', { class: 'adm-line' }, kit.tileRow(arr(view.hands)[i])),
    h('div', { class: 'adm-line muted' }, t('adm.tg.stacks', { n: arr(view.stacks)[i] ?? 0 })),
  ], { acting: view.over ? -1 : view.to_act, badges: view.banker === i ? [t('adm.tg.banker')] : [] }));
  const done = tricks.filter((x) => x && x.winner >= 0 && arr(x.plays).length === 4).length;
  const middle = h('div', { class: 'adm-middle' },
    h('p', {}, t('adm.tg.status', { m: view.multiplier ?? '—', n: done })),
    open ? h('div', { class: 'adm-center-plays' },
      h('p', { class: 'muted' }, t(open.final ? 'adm.tg.finalTrick' : 'adm.tg.trick', { n: tricks.length })),
      arr(open.plays).map((p) => h('div', { class: `adm-play${p.seat === open.winner ? ' best' : ''}${p.discard ? ' discard' : ''}` },
        h('span', {}, kit.seatName(p.seat), ' ', t(p.discard ? 'adm.act.tiengow.discard' : 'adm.act.play')),
        kit.tileRow(p.play || p.discard, { small: true })))) : h('p', { class: 'muted' }, t('adm.tg.noTrick')),
    view.over ? h('p', { class: 'adm-over' }, t('adm.hand.over')) : null);
  return [panels, middle];
}

/* Every trick of the hand (the last step's view holds them all), each play with its tiles. */
function playSummary(steps, kit) {
  const lastView = steps.length ? steps[steps.length - 1].view : null;
  const tricks = arr(lastView && lastView.tricks);
  return kit.section(t('adm.tg.tricks'), kit.dataTable('hand-plays', [
    { key: 'adm.tg.col.trick' }, { key: 'adm.tg.col.leader' }, { key: 'adm.tg.col.plays' }, { key: 'adm.tg.col.winner' },
  ], tricks.map((tr, i) => ({
    cells: [String(i + 1), kit.seatName(tr && tr.leader),
      h('div', { class: 'adm-plays' }, arr(tr && tr.plays).map((p) => h('span', { class: `adm-play${p.discard ? ' discard' : ''}` },
        kit.seatName(p.seat), ' ', p.discard ? t('adm.act.tiengow.discard') : '', kit.tileRow(p.play || p.discard, { small: true })))),
      tr && tr.winner >= 0 ? kit.seatName(tr.winner) : '—'],
  }))));
}

export default {
  strings,
  reasons: ['he_zun', 'qin_zun', 'quartet'],
  isFace,
  tileEl,
  stateColumns,
  stateCells,
  optionLabel,
  drawBoard,
  playSummary,
  resultFacts: () => [],
};
