/*
 * tianjin_board — the page the Tianjin module's browser test looks at (tianjin_tiles.test.js
 * serves it with the web client): every tile and its marks, a sample table (seats, indicator,
 * wilds, melds, rivers and the player's hand with a drawn tile), a settlement and the option
 * editor, in the language of ?lang=. It exposes what the test drives as window.tj.
 */
import { h } from '/js/dom.js';
import { setLang } from '/js/i18n.js';
import { findGame } from '/js/games/registry.js';
import { renderSeat } from '/js/seats.js';
import { KINDS } from '/js/games/tianjin/tiles.js';
import { tileBack, tileElement } from '/js/games/tianjin/board.js';

setLang(new URLSearchParams(location.search).get('lang') || 'en', null);
const game = findGame('tianjin');

const seats = [
  { seat: 0, player: 'p1', name: 'Ah Ma', connected: true },
  { seat: 1, bot: true },
  { seat: 2, player: 'p2', name: 'Bo Bo', connected: true },
  { seat: 3, bot: true },
];

/* Seat 0 (the player, banker, sat) holds 13 tiles and has drawn a wild 4m; wilds 4m 5m. The
 * shapes are PROTOCOL.md's: the hand in tile order with the drawn tile in it, `legal` a list. */
const HAND = ['2m', '3m', '4m', '5m', '9m', '7p', '7p', '7p', '7p', '1s', '2s', '3s', 'C', 'C'];
const view = {
  game: 'tianjin', seat: 0,
  hand: HAND, drawn: '4m', pull: null, passed: false,
  held: [14, 10, 9, 13], count: 1, must_sit: false, replacements: 7, wild_discards: [], turn: 0, discard: null, over: false,
  melds: [[], [{ kind: 'pung', tiles: ['E', 'E', 'E'] }],
    [{ kind: 'concealed_kong', tiles: ['9s', '9s', '9s', '9s'] }, { kind: 'kong', tiles: ['P', 'P', 'P', 'P'] }], []],
  discards: [['N', '1p', 'F', '8s'], ['W', '9p', '2p', '6s', 'S'], ['1m', '6p', '4s'], ['W', '7s', '3p', '8m', '2p', 'S']],
  indicator: '4m', wilds: ['4m', '5m'], wall: 61, banker: 0, phase: 'turn', sat: true, pulls: [0, 1, 0, 0],
  legal: { kind: 'turn', actions: [...new Set(HAND)].map((tile) => ({ discard: tile })).concat([{ win: true }, { concealed_kong: '7p' }]),
    win_refused: null },
  result: null,
};
const scene = { seats, view, deciding: [{ seat: 0, kind: 'turn' }], mySeat: 0, scores: [12, -4, 0, -8],
  gameState: { banker: 0 }, hostId: 'p1', meId: 'p1', options: {}, phase: 'playing' };

/* The §7 example hand 杠开素捉五龙 (28 fan) won by the banker who sat, seat 1 having pulled once. */
const result = {
  banker: 0, count: 1, sat: true, pulls: [0, 1, 0, 0], indicator: 'E', wilds: ['E', 'S'], winner: 0,
  win: { seat: 0, concealed: ['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m', 'N', 'N'],
    melds: [{ kind: 'kong', tiles: ['9s', '9s', '9s', '9s'] }], win_tile: '5m', kong_replacement: true, first_draw: false, dealer: true,
    fan: 28, names: ['素', '捉五', '杠开', '龙'],
    fans: [{ name: 'su', zh: '素', value: 2 }, { name: 'zhuo_wu', zh: '捉五', value: 3 }, { name: 'gang_kai', zh: '杠开', value: 2 },
      { name: 'long', zh: '龙', value: 4 }],
    reading: [['1m', '2m', '3m'], ['4m', '5m', '6m'], ['7m', '8m', '9m'], ['N', 'N'], ['9s', '9s', '9s', '9s']] },
  kongs: [{ seat: 0, kind: 'kong' }], chan: false, wild_discards: [],
  payments: [
    { from: 1, to: 0, units: 112, why: 'self-drawn win (自摸)', factor: 4 }, { from: 2, to: 0, units: 56, why: 'self-drawn win (自摸)', factor: 2 },
    { from: 3, to: 0, units: 56, why: 'self-drawn win (自摸)', factor: 2 }, { from: 1, to: 0, units: 4, why: 'exposed kong (明杠)', factor: 4 },
    { from: 2, to: 0, units: 2, why: 'exposed kong (明杠)', factor: 2 }, { from: 3, to: 0, units: 2, why: 'exposed kong (明杠)', factor: 2 },
  ],
  net: [232, -116, -58, -58], next_banker: 0, next_count: 2, next_must_sit: true,
};

const sent = [];
const ui = {};
function drawControls() {
  const ctx = { view, seat: 0, seats, options: {}, deciding: scene.deciding, ui, rerender: drawControls,
    act: (action) => { sent.push(action); return Promise.resolve({}); } };
  const area = document.getElementById('me-area');
  area.replaceChildren(...game.renderControls(ctx).filter(Boolean));
}

const marks = [
  tileElement('5m', { wild: true, caption: true }), tileElement('E', { wild: true, caption: true }),
  tileElement('4m', { indicator: true, caption: true }), tileBack(false),
];

document.getElementById('root').append(
  h('section', { id: 'all-tiles', class: 'card' }, h('h2', {}, '34'),
    h('div', { class: 'tile-grid' }, KINDS.map((k) => tileElement(k.name, { caption: true })))),
  h('section', { id: 'marks', class: 'card' }, h('h2', {}, '混儿 / indicator'), h('div', { class: 'tile-grid' }, marks)),
  h('div', { id: 'board', class: 'board' }, [0, 1, 2, 3].map((s) => renderSeat(game, scene, s, null)),
    h('div', { class: 'board-center' }, game.renderCenter(scene))),
  h('div', { id: 'me-area', class: 'me-area' }),
  game.renderSettlement({ hand: 7, result, gameState: { banker: 0 }, view: { ...view, indicator: 'E', wilds: ['E', 'S'], over: true },
    options: {}, seats,
    scores: [244, -120, -58, -66] }, { id: 'settlement' }),
  h('form', { id: 'options-form', class: 'card' }, h('h2', {}, game.optionsSummary({})), game.optionEditor()));
drawControls();

window.tj = {
  sent,
  readOptions: () => game.readOptions(document.getElementById('options-form')),
  redrawOptions(options) {
    const form = document.getElementById('options-form');
    form.replaceChildren(...game.optionEditor(options));
  },
};
document.body.dataset.ready = 'true';
