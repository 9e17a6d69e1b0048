/*
 * tables — the tables list (by code, game, open or closed; newest first, paged) and one table:
 * its game, options and state, the table's state hand by hand as its game tells it (who banks and
 * the game's figures of the bank: games/NAME/admin.js), who sat in each seat over which hands,
 * and every hand with each seat's net and a link to the hand.
 */
import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { api } from '../api.js';
import { gameName, plain, time } from '../format.js';
import { dataTable, facts, filterField, formValues, gameSelect, handLink, load, pager, playerLink, seatName, seatWho,
  section, units } from '../ui.js';
import { ledgerHash } from './ledger.js';
import { gameAdmin } from '../games.js';
import { kitFor } from '../board.js';

const trail = new Map();

function listPage(ctx) {
  const f = { code: ctx.query.get('code') || '', game: ctx.query.get('game') || '', state: ctx.query.get('state') || '' };
  const before = ctx.query.get('before') || '';
  const hashOf = (filter, b) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(filter)) if (v) p.set(k, v);
    if (b) p.set('before', b);
    const s = p.toString();
    return `#/tables${s ? `?${s}` : ''}`;
  };
  const key = JSON.stringify(f);
  const cursors = trail.get(key) || [];
  const at = cursors.indexOf(before);
  const kept = before ? (at >= 0 ? cursors.slice(0, at + 1) : [before]) : [];
  trail.set(key, kept);

  const form = h('form', { class: 'adm-filters', id: 'tables-filters' },
    filterField('t-code', 'adm.f.code', h('input', { id: 't-code', name: 'code', value: f.code, size: 12, maxlength: 12 })),
    filterField('t-game', 'adm.f.game', gameSelect('t-game', f.game)),
    filterField('t-state', 'adm.tables.state', h('select', { id: 't-state', name: 'state' },
      h('option', { value: '' }, t('adm.any')),
      h('option', { value: 'open', selected: f.state === 'open' }, t('adm.tables.open')),
      h('option', { value: 'closed', selected: f.state === 'closed' }, t('adm.tables.closed')))),
    h('div', { class: 'adm-actions' }, h('button', { type: 'submit', id: 'tables-apply' }, t('adm.f.apply'))));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const v = formValues(form);
    ctx.go(hashOf({ code: v.code.toUpperCase(), game: v.game, state: v.state }));
  });
  const body = h('div', { id: 'tables-body' });
  ctx.main.append(h('h1', {}, t('adm.tables.title')), section(null, form), section(null, body));
  load(body, () => api('tables', { query: { ...f, before } }), (data) => {
    const list = Array.isArray(data.tables) ? data.tables : [];
    const prev = kept.length >= 2 ? kept[kept.length - 2] : '';
    return [
      dataTable('tables-list', [
        { key: 'adm.col.table' }, { key: 'adm.col.game' }, { key: 'adm.col.kind' }, { key: 'adm.tables.state' },
        { key: 'adm.col.hands', cls: 'num' }, { key: 'adm.col.host' }, { key: 'adm.col.created', cls: 'nowrap' },
      ], list.map((tb) => ({
        attrs: { dataset: { table: String(tb.id) } },
        cells: [h('a', { href: `#/tables/${encodeURIComponent(tb.id)}`, class: 'adm-code' }, tb.code ?? `#${tb.id}`),
          gameName(tb.game), t(tb.public ? 'adm.tables.public' : 'adm.tables.private'), stateText(tb.state), plain(tb.hands),
          tb.host ? playerLink(tb.host.id, tb.host.nickname) : '—', time(tb.created_at)],
      })), { empty: t('adm.tables.none') }),
      pager('tables-pager', {
        newer: before ? () => ctx.go(hashOf(f, prev)) : null,
        older: data.next ? () => {
          trail.set(key, [...kept, String(data.next)]);
          ctx.go(hashOf(f, data.next));
        } : null,
      }),
    ];
  });
}

function stateText(state) {
  const key = `lobby.state.${state}`;
  const text = t(key);
  return text === key ? String(state ?? '—') : text;
}

/* An option's value as text: true/false in words, a choice by the game's label when it has one. */
function optionValue(g, key, v) {
  if (v === true) return t('adm.yes');
  if (v === false) return t('adm.no');
  if (v === null || v === undefined) return '—';
  if (typeof v === 'object') return JSON.stringify(v);
  return (g && g.optionLabel(key, v)) || String(v);
}

function optionsList(game, options) {
  const g = gameAdmin(game);
  const entries = Object.entries(options && typeof options === 'object' && !Array.isArray(options) ? options : {});
  if (!entries.length) return h('p', { class: 'muted' }, '—');
  return h('dl', { class: 'adm-facts adm-options', id: 'table-options' }, entries.map(([k, v]) => [
    h('dt', { title: k }, (g && g.optionLabel(k)) || k), h('dd', {}, optionValue(g, k, v))]));
}

/* A hand's starting state as the game's columns (none for a game without an admin part). */
function stateCells(game, gs, summary) {
  const g = gameAdmin(game);
  return g ? g.stateCells(gs, kitFor(game), summary) : [];
}

/* Per seat, the runs of consecutive hands with the same occupant: "Mei, hands 1–3". */
export function sittings(hands) {
  const out = [[], [], [], []];
  for (const hd of hands) {
    (Array.isArray(hd.seats) ? hd.seats : []).slice(0, 4).forEach((seat, i) => {
      if (!seat || (seat.player === null && !seat.bot && seat.nickname === null)) return;
      const who = seat.bot ? 'bot' : `p${seat.player}`;
      const runs = out[i];
      const last = runs[runs.length - 1];
      if (last && last.who === who && last.to === hd.number - 1) last.to = hd.number;
      else runs.push({ who, seat, from: hd.number, to: hd.number, at: hd.started_at });
    });
  }
  return out;
}

function onePage(ctx, id) {
  const body = h('div', { id: 'table-body' });
  ctx.main.append(h('p', {}, h('a', { href: '#/tables' }, t('adm.tables.back'))), body);
  load(body, () => api(`tables/${encodeURIComponent(id)}`), (data) => {
    const tb = data.table || {};
    const hands = Array.isArray(data.hands) ? data.hands : [];
    const runs = sittings(hands);
    const g = gameAdmin(tb.game);
    const states = dataTable('table-states', [
      { key: 'adm.col.hand' }, ...(g ? g.stateColumns : []).map((key) => ({ key })),
    ], hands.map((hd) => ({ cells: [handLink(hd.id, hd.number), ...stateCells(tb.game, hd.game_state, hd.summary ?? null)] })));
    const seatCols = [0, 1, 2, 3].map((s) => ({ key: `wind.${s}`, cls: 'num' }));
    return [
      h('h1', {}, t('adm.table.title', { code: tb.code ?? `#${id}` })),
      section(null, facts('table-facts', [
        ['adm.col.game', gameName(tb.game)],
        ['adm.col.kind', t(tb.public ? 'adm.tables.public' : 'adm.tables.private')],
        ['adm.tables.state', stateText(tb.state)],
        ['adm.col.host', tb.host ? playerLink(tb.host.id, tb.host.nickname) : null],
        ['adm.col.created', time(tb.created_at)],
        ['adm.table.now', stateCells(tb.game, tb.game_state).join(' · ')],
        ['adm.col.hands', plain(hands.length)],
      ]), h('p', {}, h('a', { href: ledgerHash({ table: String(tb.id ?? id) }), id: 'table-ledger-link' }, t('adm.table.ledger')))),
      section(t('adm.table.options'), optionsList(tb.game, tb.options)),
      section(t('adm.table.states'), states),
      section(t('adm.table.sat'), h('div', { class: 'adm-sittings', id: 'table-sittings' }, runs.map((list, s) =>
        h('div', { class: 'adm-sitting' }, h('h3', {}, seatName(s)),
          list.length ? h('ul', {}, list.map((r) => h('li', {}, seatWho(r.seat), ' ',
            h('span', { class: 'muted' }, r.from === r.to ? t('adm.table.handOne', { n: r.from }) : t('adm.table.handRange', { from: r.from, to: r.to })),
            h('span', { class: 'muted adm-since' }, ` · ${time(r.at)}`))))
            : h('p', { class: 'muted' }, '—'))))),
      section(t('adm.table.hands'), dataTable('table-hands', [
        { key: 'adm.col.hand' }, { key: 'adm.col.started', cls: 'nowrap' }, ...seatCols,
      ], hands.map((hd) => ({
        attrs: { dataset: { hand: String(hd.id) } },
        cells: [handLink(hd.id, hd.number), time(hd.started_at),
          ...[0, 1, 2, 3].map((s) => {
            const seat = Array.isArray(hd.seats) ? hd.seats[s] : null;
            return h('span', { class: 'adm-seatnet' }, seatWho(seat), ' ',
              seat && typeof seat.net === 'number' ? units(seat.net) : h('span', { class: 'muted' }, hd.finished_at ? '—' : t('adm.hand.unfinished')));
          })],
      })))),
    ];
  });
}

export function render(ctx) {
  if (ctx.parts[1]) onePage(ctx, ctx.parts[1]);
  else listPage(ctx);
}
