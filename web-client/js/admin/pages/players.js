/*
 * players — the players list (search by nickname or account name, guests or accounts, newest
 * first, paged) and one player: balance, hands, last seen, guest or account, their net by day as
 * a chart, the tables they played, their latest ledger rows, and the adjustment form.
 *
 * An adjustment is money moved by hand, so it asks twice: the form checks the amount and that a
 * reason is given, then shows what will be written and waits for a confirm; the answer's two
 * ledger rows (the player's and the adjustments account's) are shown as written.
 */
import { h, replace } from '../../dom.js';
import { t } from '../../i18n.js';
import { api } from '../api.js';
import { netByDayChart } from '../chart.js';
import { gameName, plain, signed, time } from '../format.js';
import { amount, dataTable, errorBox, facts, filterField, formValues, load, pager, playerLink, section, tableLink,
  units } from '../ui.js';
import { ledgerHash, ledgerTable } from './ledger.js';

export const MAX_ADJUST = 1000000;
export const MAX_REASON = 200;

const trail = new Map();

function kindText(p) {
  return p.account ? t('adm.player.account', { name: p.account }) : t('adm.player.guest');
}

function listPage(ctx) {
  const q = ctx.query.get('q') || '';
  const kind = ctx.query.get('kind') || '';
  const before = ctx.query.get('before') || '';
  const hashOf = (b) => {
    const p = new URLSearchParams();
    if (q) p.set('q', q);
    if (kind) p.set('kind', kind);
    if (b) p.set('before', b);
    const s = p.toString();
    return `#/players${s ? `?${s}` : ''}`;
  };
  const key = `${q}|${kind}`;
  const cursors = trail.get(key) || [];
  const at = cursors.indexOf(before);
  const kept = before ? (at >= 0 ? cursors.slice(0, at + 1) : [before]) : [];
  trail.set(key, kept);

  const form = h('form', { class: 'adm-filters', id: 'players-filters' },
    filterField('p-q', 'adm.players.search', h('input', { id: 'p-q', name: 'q', type: 'search', value: q, maxlength: 64 })),
    filterField('p-kind', 'adm.players.kind', h('select', { id: 'p-kind', name: 'kind' },
      h('option', { value: '' }, t('adm.any')),
      h('option', { value: 'account', selected: kind === 'account' }, t('adm.players.accounts')),
      h('option', { value: 'guest', selected: kind === 'guest' }, t('adm.players.guests')))),
    h('div', { class: 'adm-actions' }, h('button', { type: 'submit', id: 'players-apply' }, t('adm.f.apply'))));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const v = formValues(form);
    const p = new URLSearchParams();
    if (v.q) p.set('q', v.q);
    if (v.kind) p.set('kind', v.kind);
    ctx.go(`#/players${p.toString() ? `?${p}` : ''}`);
  });
  const body = h('div', { id: 'players-body' });
  ctx.main.append(h('h1', {}, t('adm.players.title')), section(null, form), section(null, body));
  load(body, () => api('players', { query: { q, kind, before } }), (data) => {
    const list = Array.isArray(data.players) ? data.players : [];
    const prev = kept.length >= 2 ? kept[kept.length - 2] : '';
    return [
      dataTable('players-list', [
        { key: 'adm.col.player' }, { key: 'adm.col.kind' }, { key: 'adm.col.balance', cls: 'num' },
        { key: 'adm.col.hands', cls: 'num' }, { key: 'adm.col.lastSeen', cls: 'nowrap' }, { key: 'adm.col.created', cls: 'nowrap' },
      ], list.map((p) => ({
        attrs: { dataset: { player: String(p.id) } },
        cells: [
          h('span', {}, playerLink(p.id, p.nickname), p.admin ? h('span', { class: 'adm-badge' }, t('adm.player.admin')) : null),
          kindText(p), amount(p.balance), plain(p.hands), time(p.last_seen_at), time(p.created_at)],
      })), { empty: t('adm.players.none') }),
      pager('players-pager', {
        newer: before ? () => ctx.go(hashOf(prev)) : null,
        older: data.next ? () => {
          trail.set(key, [...kept, String(data.next)]);
          ctx.go(hashOf(data.next));
        } : null,
      }),
    ];
  });
}

/* The adjustment form: check, confirm, send, show the two rows written. */
function adjustForm(player, onDone) {
  const out = h('div', { id: 'adjust-result', 'aria-live': 'polite' });
  const unitsInput = h('input', { id: 'adjust-units', name: 'units', type: 'number', step: 1, min: -MAX_ADJUST, max: MAX_ADJUST, required: true });
  const reasonInput = h('textarea', { id: 'adjust-reason', name: 'reason', maxlength: MAX_REASON, rows: 2, required: true });
  const problem = h('p', { id: 'adjust-error', class: 'adm-error', role: 'alert', hidden: true });
  const confirmBox = h('div', { id: 'adjust-confirm', class: 'adm-confirm', hidden: true });
  const submit = h('button', { type: 'submit', id: 'adjust-submit' }, t('adm.adjust.check'));
  const form = h('form', { id: 'adjust-form', class: 'adm-adjust', novalidate: true },
    h('p', { class: 'muted' }, t('adm.adjust.help')),
    h('div', { class: 'field' }, h('label', { for: 'adjust-units' }, t('adm.adjust.units')), unitsInput),
    h('div', { class: 'field' }, h('label', { for: 'adjust-reason' }, t('adm.adjust.reason')), reasonInput),
    problem, submit, confirmBox);
  const fail = (text) => {
    problem.textContent = text;
    problem.hidden = false;
  };
  const reset = () => {
    confirmBox.hidden = true;
    replace(confirmBox);
    submit.hidden = false;
    unitsInput.disabled = false;
    reasonInput.disabled = false;
  };
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    problem.hidden = true;
    const text = unitsInput.value.trim();
    const n = Number(text);
    const reason = reasonInput.value.trim();
    if (!/^[-+]?\d+$/.test(text) || !Number.isSafeInteger(n) || n === 0 || Math.abs(n) > MAX_ADJUST) {
      fail(t('adm.adjust.badUnits', { max: plain(MAX_ADJUST) }));
      unitsInput.focus();
      return;
    }
    if (!reason) {
      fail(t('adm.adjust.needReason'));
      reasonInput.focus();
      return;
    }
    if ([...reason].length > MAX_REASON) {
      fail(t('adm.adjust.longReason', { n: MAX_REASON }));
      return;
    }
    submit.hidden = true;
    unitsInput.disabled = true;
    reasonInput.disabled = true;
    const yes = h('button', { type: 'button', id: 'adjust-yes' }, t('adm.adjust.confirm'));
    const no = h('button', { type: 'button', class: 'secondary', id: 'adjust-no', onclick: reset }, t('adm.adjust.cancel'));
    yes.addEventListener('click', async () => {
      yes.disabled = true;
      no.disabled = true;
      try {
        const data = await api('adjustments', { method: 'POST', body: { player: player.id, units: n, reason } });
        reset();
        unitsInput.value = '';
        reasonInput.value = '';
        replace(out, h('p', { class: 'adm-ok' }, t('adm.adjust.done')),
          ledgerTable('adjust-rows', Array.isArray(data.rows) ? data.rows : []));
        onDone();
      } catch (e) {
        reset();
        if (e.status !== 403) replace(out, errorBox(e));
      }
    });
    replace(confirmBox,
      h('p', { id: 'adjust-question' }, t('adm.adjust.question', { units: signed(n), name: player.nickname ?? `#${player.id}` })),
      h('p', { class: 'adm-quote' }, reason),
      h('div', { class: 'adm-actions' }, yes, no));
    confirmBox.hidden = false;
    yes.focus();
  });
  return [form, out];
}

function onePage(ctx, id) {
  const head = h('div', { id: 'player-head' });
  const rows = h('div', { id: 'player-ledger' });
  const loadRows = () => load(rows, () => api('ledger', { query: { player: id, limit: 50 } }),
    (data) => [ledgerTable('player-rows', Array.isArray(data.rows) ? data.rows : []),
      h('p', {}, h('a', { href: ledgerHash({ player: id }), id: 'player-all-rows' }, t('adm.player.allRows')))]);
  const loadHead = () => load(head, () => api(`players/${encodeURIComponent(id)}`), (data) => {
    const p = data.player || {};
    const tablesList = Array.isArray(data.tables) ? data.tables : [];
    return [
      h('h1', {}, h('span', { id: 'player-name' }, p.nickname ?? `#${id}`), p.admin ? h('span', { class: 'adm-badge' }, t('adm.player.admin')) : null),
      section(null, facts('player-facts', [
        ['adm.player.id', String(p.id ?? id)],
        ['adm.player.kind', kindText(p)],
        ['adm.col.balance', h('strong', { id: 'player-balance' }, plain(p.balance))],
        ['adm.col.hands', plain(p.hands)],
        ['adm.col.lastSeen', time(p.last_seen_at)],
        ['adm.col.created', time(p.created_at)],
      ])),
      section(t('adm.player.chart'), h('div', { class: 'adm-chart-box' }, netByDayChart(data.by_day))),
      section(t('adm.player.tables'), dataTable('player-tables', [
        { key: 'adm.col.table' }, { key: 'adm.col.game' }, { key: 'adm.col.hands', cls: 'num' }, { key: 'adm.col.net', cls: 'num' },
        { key: 'adm.col.lastAt', cls: 'nowrap' },
      ], tablesList.map((tb) => ({ cells: [tableLink(tb.id, tb.code), gameName(tb.game), plain(tb.hands), units(tb.net), time(tb.last_at)] })),
      { empty: t('adm.player.noTables') })),
    ];
  });
  const player = { id: Number(id), nickname: null };
  ctx.main.append(
    h('p', {}, h('a', { href: '#/players' }, t('adm.players.back'))),
    head,
    section(t('adm.adjust.title'), adjustForm(player, () => {
      loadHead();
      loadRows();
    })),
    section(t('adm.player.rows'), rows));
  loadHead().then(() => {
    const name = document.getElementById('player-name');
    if (name) player.nickname = name.textContent;
  });
  loadRows();
}

export function render(ctx) {
  if (ctx.parts[1]) onePage(ctx, ctx.parts[1]);
  else listPage(ctx);
}
