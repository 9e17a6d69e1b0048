/*
 * ui — the pieces every admin page draws: a section with its heading, a table that scrolls
 * sideways on a phone, a message for an error from the server, links to a player, a table or a
 * hand, and the cursor pager. Every value from the server goes in as a text node (dom.js's h()
 * never parses markup), so a nickname such as "<b>" shows as those three characters.
 */
import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { gameName, plain, signed } from './format.js';
import { gameNames } from './games.js';

export function section(title, ...children) {
  return h('section', { class: 'adm-card' }, title ? h('h2', {}, title) : null, ...children);
}

/* A table: columns [{key (a t() key), cls}], rows of cells (strings or nodes); scrolls on a phone. */
export function dataTable(id, columns, rows, opts = {}) {
  return h('div', { class: 'adm-scroll' },
    h('table', { class: `adm-table${opts.cls ? ` ${opts.cls}` : ''}`, id },
      opts.caption ? h('caption', {}, opts.caption) : null,
      h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col', class: c.cls || null }, t(c.key))))),
      h('tbody', {}, rows.length ? rows.map((r) => h('tr', r.attrs || {}, r.cells.map((cell, i) =>
        h('td', { class: columns[i] && columns[i].cls || null, 'data-label': columns[i] ? t(columns[i].key) : null }, cell))))
        : h('tr', {}, h('td', { colspan: columns.length, class: 'muted' }, opts.empty || t('adm.empty'))))));
}

/* The server's refusal, in the page's language when we know its code, else its own sentence. */
export function errorText(e) {
  if (!e) return '';
  const key = `adm.err.${e.code}`;
  const known = t(key);
  if (e.code === 'too_many_attempts') return t('adm.err.too_many_attempts', { s: e.retryAfter || '?' });
  if (known !== key) return ['bad_filter', 'bad_request', 'invalid'].includes(e.code) ? `${known} ${e.message || ''}`.trim() : known;
  return t('adm.err.other', { message: e.message || e.code || '?' });
}

export function errorBox(e) {
  return h('p', { class: 'adm-error', role: 'alert' }, errorText(e));
}

export function loading() {
  return h('p', { class: 'muted adm-loading' }, t('adm.loading'));
}

/* Fills container with "loading", then with draw(data) or the error. */
export async function load(container, fetcher, draw) {
  replace(container, loading());
  try {
    const data = await fetcher();
    replace(container, draw(data));
  } catch (e) {
    if (e && e.status === 403) return; /* the router has gone to login */
    replace(container, errorBox(e));
  }
}

export function playerLink(id, nickname) {
  if (id === null || id === undefined) return h('span', { class: 'muted' }, nickname || t('adm.bot'));
  /* the adjustments account (id -1) is no player with a page */
  if (!(Number(id) > 0)) return h('span', { class: 'adm-house' }, nickname ?? String(id));
  return h('a', { href: `#/players/${encodeURIComponent(id)}`, class: 'adm-player' }, nickname ?? `#${id}`);
}

/* A seat's occupant in a hand: a player (linked), a bot, or nobody. */
export function seatWho(seat) {
  if (!seat) return h('span', { class: 'muted' }, '—');
  if (seat.bot) return h('span', { class: 'adm-bot' }, t('adm.bot'));
  if (seat.player === null || seat.player === undefined) return h('span', { class: 'muted' }, seat.nickname ?? '—');
  return playerLink(seat.player, seat.nickname);
}

export function tableLink(id, code, game) {
  return h('span', { class: 'adm-tablecell' },
    id === null || id === undefined ? h('span', {}, code || '—') : h('a', { href: `#/tables/${encodeURIComponent(id)}`, class: 'adm-code' }, code || `#${id}`),
    game ? h('span', { class: 'adm-game muted' }, ` ${gameName(game)}`) : null);
}

export function handLink(id, number) {
  if (id === null || id === undefined) return h('span', { class: 'muted' }, '—');
  return h('a', { href: `#/hands/${encodeURIComponent(id)}`, class: 'adm-hand' }, number !== undefined && number !== null ? t('adm.handN', { n: number }) : t('adm.handId', { id }));
}

export function units(n) {
  return h('span', { class: `adm-units${n > 0 ? ' pos' : n < 0 ? ' neg' : ''}` }, signed(n));
}

export function amount(n) {
  return h('span', { class: 'adm-amount' }, plain(n));
}

/* Older / newer buttons for a cursor page. */
export function pager(id, { newer, older }) {
  return h('div', { class: 'adm-pager', id },
    h('button', { type: 'button', class: 'secondary', id: `${id}-newer`, disabled: !newer, onclick: newer || null }, t('adm.page.newer')),
    h('button', { type: 'button', class: 'secondary', id: `${id}-older`, disabled: !older, onclick: older || null }, t('adm.page.older')));
}

/* A definition list of [label key, value] pairs. */
export function facts(id, pairs) {
  return h('dl', { class: 'adm-facts', id }, pairs.filter(Boolean).map(([key, value]) => [
    h('dt', {}, t(key)), h('dd', {}, value === null || value === undefined || value === '' ? '—' : value)]));
}

/* A labelled input for a filter form. */
export function filterField(id, labelKey, control) {
  return h('div', { class: 'field adm-field' }, h('label', { for: id }, t(labelKey)), control);
}

export function gameSelect(id, value) {
  return h('select', { id, name: 'game' },
    h('option', { value: '' }, t('adm.any')),
    gameNames().map((g) => h('option', { value: g, selected: g === value }, gameName(g))));
}

export function seatName(seat) {
  return typeof seat === 'number' && seat >= 0 && seat < 4 ? t(`wind.${seat}`) : '—';
}

/* The values of a form's named fields. */
export function formValues(form) {
  const out = {};
  for (const el of form.elements) if (el.name) out[el.name] = el.value.trim();
  return out;
}
