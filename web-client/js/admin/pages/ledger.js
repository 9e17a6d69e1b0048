/*
 * ledger — every ledger row, newest first, with filters (player, table, private code, game,
 * reason, a time range), the totals of every row the filter keeps, cursor paging and a CSV link
 * for exactly the filtered rows. The filters live in the hash (#/ledger?table=3&reason=settle)
 * so a filtered ledger can be linked from other pages and bookmarked.
 *
 * The server pages only backwards (`before`); "newer" walks back along the cursors this page
 * has followed, kept per filter while the tab is open.
 */
import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { api, apiUrl } from '../api.js';
import { inputToMs, msToInput, plain, reasonName, signed, time } from '../format.js';
import { gameReasons } from '../games.js';
import { amount, dataTable, filterField, formValues, gameSelect, handLink, load, pager, playerLink, section, seatName,
  tableLink, units } from '../ui.js';

/* `limit` (rows a page) is kept in the hash too, though the form does not set it */
export const FILTERS = ['player', 'table', 'code', 'game', 'reason', 'from', 'to', 'limit'];
/* the house's reasons; each game adds its own (games.js) */
export const REASONS = ['settle', 'adjustment'];

const trail = new Map(); /* filter → the `before` cursors followed, oldest page last */

function filterOf(query) {
  const f = {};
  for (const key of FILTERS) if (query.get(key)) f[key] = query.get(key);
  return f;
}

function hashOf(filter, before) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v !== '' && v !== undefined) params.set(k, v);
  if (before) params.set('before', before);
  const text = params.toString();
  return `#/ledger${text ? `?${text}` : ''}`;
}

/* The rows as a table (also used on the player and hand pages). */
export function ledgerTable(id, rows, opts = {}) {
  const columns = [
    { key: 'adm.col.time', cls: 'nowrap' },
    { key: 'adm.col.table' },
    { key: 'adm.col.hand' },
    { key: 'adm.col.player' },
    { key: 'adm.col.units', cls: 'num' },
    { key: 'adm.col.reason' },
    { key: 'adm.col.balance', cls: 'num' },
  ];
  return dataTable(id, columns, rows.map((r) => ({
    attrs: { dataset: { row: String(r.id), reason: String(r.reason), units: String(r.units) } },
    cells: [
      time(r.at),
      tableLink(r.table, r.code, r.game),
      handLink(r.hand, r.hand_number),
      r.player === null || r.player === undefined
        ? h('span', { class: 'adm-bot' }, t('adm.botSeat', { seat: seatName(r.seat) }))
        : playerLink(r.player, r.nickname),
      units(r.units),
      reasonName(r.reason),
      amount(r.balance),
    ],
  })), { empty: opts.empty || t('adm.ledger.none') });
}

function filterForm(ctx, filter) {
  const input = (name, attrs = {}) => h('input', { id: `f-${name}`, name, value: filter[name] || '', ...attrs });
  const form = h('form', { class: 'adm-filters', id: 'ledger-filters' },
    filterField('f-player', 'adm.f.player', input('player', { inputmode: 'numeric', pattern: '[0-9]*', size: 8 })),
    filterField('f-table', 'adm.f.table', input('table', { inputmode: 'numeric', pattern: '[0-9]*', size: 8 })),
    filterField('f-code', 'adm.f.code', input('code', { size: 12, maxlength: 12, autocapitalize: 'characters' })),
    filterField('f-game', 'adm.f.game', gameSelect('f-game', filter.game)),
    filterField('f-reason', 'adm.f.reason', h('select', { id: 'f-reason', name: 'reason' },
      h('option', { value: '' }, t('adm.any')),
      [...REASONS, ...gameReasons()].map((r) => h('option', { value: r, selected: r === filter.reason }, reasonName(r))))),
    filterField('f-from', 'adm.f.from', h('input', { id: 'f-from', name: 'from', type: 'datetime-local', value: msToInput(filter.from) })),
    filterField('f-to', 'adm.f.to', h('input', { id: 'f-to', name: 'to', type: 'datetime-local', value: msToInput(filter.to) })),
    h('div', { class: 'adm-actions' },
      h('button', { type: 'submit', id: 'ledger-apply' }, t('adm.f.apply')),
      h('button', { type: 'button', class: 'secondary', id: 'ledger-clear', onclick: () => ctx.go('#/ledger') }, t('adm.f.clear'))));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const v = formValues(form);
    v.from = inputToMs(v.from);
    if (filter.limit) v.limit = filter.limit;
    v.to = inputToMs(v.to);
    if (v.code) v.code = v.code.toUpperCase();
    ctx.go(hashOf(v));
  });
  return form;
}

export function render(ctx) {
  const filter = filterOf(ctx.query);
  const before = ctx.query.get('before') || '';
  const key = JSON.stringify(filter);
  const cursors = trail.get(key) || [];
  /* a page reached other than by "older" starts the trail again */
  const at = cursors.indexOf(before);
  const kept = before ? (at >= 0 ? cursors.slice(0, at + 1) : [before]) : [];
  trail.set(key, kept);

  const body = h('div', { id: 'ledger-body' });
  const { limit, ...rowFilter } = filter;
  const csv = h('a', { id: 'ledger-csv', class: 'button-link', href: apiUrl('ledger.csv', rowFilter), download: 'ledger.csv' }, t('adm.ledger.csv'));
  ctx.main.append(
    h('h1', {}, t('adm.ledger.title')),
    section(null, filterForm(ctx, filter)),
    section(null, h('div', { class: 'adm-toolbar' }, h('p', { class: 'muted' }, t('adm.ledger.order')), csv), body));

  load(body, () => api('ledger', { query: { ...filter, before } }), (data) => {
    const rows = Array.isArray(data.rows) ? data.rows : [];
    const totals = data.totals || {};
    const prev = kept.length >= 2 ? kept[kept.length - 2] : '';
    return [
      h('div', { class: 'adm-totals', id: 'ledger-totals' },
        h('span', {}, t('adm.ledger.rows', { n: plain(totals.rows) })),
        h('span', {}, t('adm.ledger.sum', { n: signed(totals.units) })),
        h('span', {}, t('adm.ledger.won', { n: signed(totals.won) })),
        h('span', {}, t('adm.ledger.lost', { n: signed(totals.lost) }))),
      ledgerTable('ledger-rows', rows),
      pager('ledger-pager', {
        newer: before ? () => ctx.go(hashOf(filter, prev)) : null,
        older: data.next ? () => {
          trail.set(key, [...kept, String(data.next)]);
          ctx.go(hashOf(filter, data.next));
        } : null,
      }),
    ];
  });
}

/* For the other pages: a link to the ledger with these filters. */
export function ledgerHash(filter) {
  return hashOf(filter);
}

