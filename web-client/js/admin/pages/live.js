/*
 * live — the house right now: every open table with its game, hand, who sits where (connected
 * or not, bots), how many watch, whether it is paused; and the server's health figures. It is
 * fetched again every few seconds while the page is shown, drawn in place.
 */
import { h, replace } from '../../dom.js';
import { t } from '../../i18n.js';
import { api } from '../api.js';
import { bytes, duration, gameName, plain, time } from '../format.js';
import { dataTable, errorBox, facts, section } from '../ui.js';

export const REFRESH_MS = 3000;

function seatCell(seat) {
  if (!seat) return h('span', { class: 'muted' }, '—');
  if (seat.bot) return h('span', { class: 'adm-bot' }, t('adm.bot'));
  if (seat.nickname === null || seat.nickname === undefined) return h('span', { class: 'muted' }, t('adm.live.empty'));
  return h('span', { class: seat.connected ? 'adm-on' : 'adm-off' }, seat.nickname,
    seat.connected ? null : h('span', { class: 'muted' }, ` (${t('adm.live.offline')})`));
}

export function render(ctx) {
  let timer = null;
  let stopped = false;
  const health = h('div', { id: 'live-health' });
  const list = h('div', { id: 'live-tables' });
  const stamp = h('p', { class: 'muted', id: 'live-stamp', 'aria-live': 'off' });
  const refresh = async () => {
    timer = null;
    try {
      const data = await api('live');
      if (stopped) return;
      const hl = data.health || {};
      replace(health, facts('live-figures', [
        ['adm.live.connections', plain(hl.connections)],
        ['adm.live.tables', plain(hl.tables)],
        ['adm.live.paused', plain(hl.tables_paused)],
        ['adm.live.uptime', duration(hl.uptime_s)],
        ['adm.live.rss', bytes(hl.rss_bytes)],
        ['adm.live.queue', plain(hl.store_queue)],
      ]));
      const tables = Array.isArray(data.tables) ? data.tables : [];
      replace(list, dataTable('live-list', [
        { key: 'adm.col.table' }, { key: 'adm.col.game' }, { key: 'adm.col.hand', cls: 'num' },
        ...[0, 1, 2, 3].map((s) => ({ key: `wind.${s}` })), { key: 'adm.live.watchers', cls: 'num' },
      ], tables.map((tb) => ({
        attrs: { dataset: { code: String(tb.code) }, class: tb.paused ? 'paused' : null },
        cells: [h('span', {}, h('a', { href: `#/tables?code=${encodeURIComponent(tb.code)}`, class: 'adm-code' }, tb.code),
          tb.public ? null : h('span', { class: 'muted' }, ` ${t('adm.tables.private')}`),
          tb.paused ? h('span', { class: 'adm-badge warn' }, t('adm.live.pausedOne')) : null),
        gameName(tb.game), plain(tb.hand),
        ...[0, 1, 2, 3].map((s) => seatCell(Array.isArray(tb.seats) ? tb.seats[s] : null)), plain(tb.spectators)],
      })), { empty: t('adm.live.none') }));
      stamp.textContent = t('adm.live.updated', { time: time(Date.now()), s: REFRESH_MS / 1000 });
    } catch (e) {
      if (stopped || e.status === 403) return;
      replace(list, errorBox(e));
    }
    if (!stopped) timer = setTimeout(refresh, REFRESH_MS);
  };
  ctx.main.append(h('h1', {}, t('adm.live.title')), stamp, section(t('adm.live.health'), health), section(t('adm.live.open'), list));
  refresh();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}

