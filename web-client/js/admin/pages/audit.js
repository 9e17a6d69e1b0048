/*
 * audit — what admins did, newest first: filter by action and by player, paged backwards. The
 * details the server logged are shown as their JSON text.
 */
import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { api } from '../api.js';
import { time } from '../format.js';
import { dataTable, filterField, formValues, handLink, load, pager, playerLink, section } from '../ui.js';

export const ACTIONS = ['login', 'logout', 'ledger.export', 'hand.view', 'adjustment', 'integrity.start', 'grant', 'revoke'];

const trail = new Map();

export function actionName(a) {
  const key = `adm.audit.action.${a}`;
  const text = t(key);
  return text === key ? String(a ?? '—') : text;
}

/* The logged details as their JSON text, with the hand or player they name linked. */
function details(d) {
  const text = h('code', { class: 'adm-json' }, d === undefined || d === null ? '' : JSON.stringify(d));
  if (!d || typeof d !== 'object') return text;
  return h('span', { class: 'adm-details' }, text,
    Number.isSafeInteger(d.hand) ? [' ', handLink(d.hand)] : null,
    Number.isSafeInteger(d.player) ? [' ', playerLink(d.player, `#${d.player}`)] : null);
}

export function render(ctx) {
  const f = { action: ctx.query.get('action') || '', player: ctx.query.get('player') || '' };
  const before = ctx.query.get('before') || '';
  const hashOf = (filter, b) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(filter)) if (v) p.set(k, v);
    if (b) p.set('before', b);
    const s = p.toString();
    return `#/audit${s ? `?${s}` : ''}`;
  };
  const key = JSON.stringify(f);
  const cursors = trail.get(key) || [];
  const at = cursors.indexOf(before);
  const kept = before ? (at >= 0 ? cursors.slice(0, at + 1) : [before]) : [];
  trail.set(key, kept);

  const form = h('form', { class: 'adm-filters', id: 'audit-filters' },
    filterField('a-action', 'adm.audit.action', h('select', { id: 'a-action', name: 'action' },
      h('option', { value: '' }, t('adm.any')),
      ACTIONS.map((a) => h('option', { value: a, selected: a === f.action }, actionName(a))))),
    filterField('a-player', 'adm.f.player', h('input', { id: 'a-player', name: 'player', value: f.player, inputmode: 'numeric', size: 8 })),
    h('div', { class: 'adm-actions' }, h('button', { type: 'submit', id: 'audit-apply' }, t('adm.f.apply'))));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const v = formValues(form);
    ctx.go(hashOf({ action: v.action, player: v.player }));
  });
  const body = h('div', { id: 'audit-body' });
  ctx.main.append(h('h1', {}, t('adm.audit.title')), section(null, form), section(null, body));
  load(body, () => api('audit', { query: { ...f, before } }), (data) => {
    const entries = Array.isArray(data.entries) ? data.entries : [];
    const prev = kept.length >= 2 ? kept[kept.length - 2] : '';
    return [
      dataTable('audit-list', [
        { key: 'adm.col.time', cls: 'nowrap' }, { key: 'adm.col.admin' }, { key: 'adm.audit.action' }, { key: 'adm.col.details' },
      ], entries.map((e) => ({
        attrs: { dataset: { action: String(e.action) } },
        cells: [time(e.at), e.player === null || e.player === undefined ? (e.account ?? '—') : playerLink(e.player, e.account),
          actionName(e.action), details(e.details)],
      })), { empty: t('adm.audit.none') }),
      pager('audit-pager', {
        newer: before ? () => ctx.go(hashOf(f, prev)) : null,
        older: data.next ? () => {
          trail.set(key, [...kept, String(data.next)]);
          ctx.go(hashOf(f, data.next));
        } : null,
      }),
    ];
  });
}
