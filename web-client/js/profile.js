/*
 * profile — a player's page (#/p/<player id>), for guests and accounts alike, from the server's
 * `profile` reply (PROTOCOL.md): the name and avatar, guest or account, since when and last seen;
 * the ledger balance and the hands and net per game; the balance over time as an SVG chart (no
 * library: a line over the days the balance changed, axis labels, and a sentence saying the same
 * for screen readers); the tables played at, linking to each open one; the recent hands, each
 * opening its replay (history.js) on the player's own page; "older" buttons for both lists.
 *
 * What is listed is what the server sends: to anyone but the player, only public tables (a
 * private table's code is its secret). The page asks once per player id and route visit.
 */
import { h, replace } from './dom.js';
import { lang, t, tn } from './i18n.js';
import { avatar, signed } from './seats.js';
import { gameTitle } from './games/registry.js';
import { loadHistory, renderHistory } from './history.js';
import { newTable } from './store.js';

const DAY_MS = 86400000;
const SVG_NS = 'http://www.w3.org/2000/svg';
/* the chart's drawing box, in its own units (it scales to the card's width; a phone's is narrower,
 * so that its labels keep a readable size) */
const CHART = { width: 640, height: 240, left: 56, right: 16, top: 16, bottom: 36 };
const PHONE_CHART = { width: 360, height: 200, left: 48, right: 12, top: 14, bottom: 32 };

/* A player id as the server writes them ("p12"), or null. */
export function profileRef(text) {
  return /^p[1-9][0-9]{0,17}$/.test(text || '') ? text : null;
}

/* What the page holds for the player shown (kept on app.state across redraws). */
function stateOf(app, ref) {
  const shown = app.state.profile;
  if (shown && shown.ref === ref) return shown;
  app.state.profile = {
    ref, data: null, tables: [], hands: [], tablesNext: null, handsNext: null,
    loading: false, error: null, replays: new Map(), openHand: null, opening: null,
  };
  return app.state.profile;
}

/* Asks for the profile (the first pages), or with part 'tables' / 'hands' the next page of one list. */
export function loadProfile(app, ref, part) {
  const p = stateOf(app, ref);
  if (p.loading || app.state.status !== 'online') return;
  const msg = { type: 'profile', player: ref };
  if (part === 'tables' && p.tablesNext) msg.tables_before = p.tablesNext;
  if (part === 'hands' && p.handsNext) msg.hands_before = p.handsNext;
  p.loading = true;
  app.request(msg).then((reply) => {
    if (app.state.profile !== p) return;
    p.data = reply;
    p.error = null;
    if (part !== 'hands') {
      p.tables = part === 'tables' ? p.tables.concat(reply.tables || []) : (reply.tables || []);
      p.tablesNext = reply.tables_next || null;
    }
    if (part !== 'tables') {
      p.hands = part === 'hands' ? p.hands.concat(reply.hands || []) : (reply.hands || []);
      p.handsNext = reply.hands_next || null;
    }
  }, (err) => {
    p.error = err;
  }).finally(() => {
    p.loading = false;
    app.rerender();
  });
}

function dateText(ms, withTime) {
  if (!Number.isFinite(ms) || ms <= 0) return '';
  try {
    return new Date(ms).toLocaleString(lang(), withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium', timeZone: 'UTC' });
  } catch {
    return '';
  }
}

function netClass(n) {
  return n > 0 ? 'net-up' : n < 0 ? 'net-down' : 'net-even';
}

/* --- the header and the totals --- */

function renderHead(app, data) {
  const player = data.player || {};
  return h('section', { class: 'card profile-head', 'aria-labelledby': 'profile-name' },
    avatar({ player: player.id }, player.name, null),
    h('div', { class: 'profile-who' },
      h('h1', { id: 'profile-name' }, player.name || player.id,
        data.you ? h('span', { class: 'badge badge-you' }, t('table.you')) : null),
      h('p', { class: 'muted', id: 'profile-kind' },
        t(player.kind === 'account' ? 'profile.account' : 'profile.guest'),
        player.since ? ` · ${t('profile.since', { when: dateText(player.since) })}` : '',
        player.last_seen ? ` · ${t('profile.lastSeen', { when: dateText(player.last_seen, true) })}` : '')),
    h('a', { class: 'profile-back', href: '#/' }, t('profile.back')));
}

function renderTotals(data) {
  const games = Array.isArray(data.games) ? data.games : [];
  return h('section', { class: 'card profile-totals', 'aria-labelledby': 'profile-totals-title' },
    h('h2', { id: 'profile-totals-title' }, t('profile.totals')),
    h('p', { class: 'profile-balance' }, t('profile.balance'), ' ',
      h('strong', { id: 'profile-balance', class: netClass(data.balance) }, signed(data.balance || 0))),
    games.length
      ? h('table', { class: 'profile-games', id: 'profile-games' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('profile.game')), h('th', { scope: 'col' }, t('profile.hands')),
          h('th', { scope: 'col' }, t('profile.net')))),
        h('tbody', {}, games.map((g) => h('tr', { dataset: { game: g.game } },
          h('th', { scope: 'row' }, gameTitle(g.game)), h('td', {}, String(g.hands)),
          h('td', { class: netClass(g.net) }, signed(g.net))))))
      : h('p', { class: 'muted', id: 'profile-no-games' }, t('profile.noHands')));
}

/* --- the chart --- */

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) el.setAttribute(key, String(value));
  for (const child of children) {
    if (child === null || child === undefined) continue;
    el.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return el;
}

/* The points drawn: the balance before the first day (a day earlier), then each day's close. */
export function chartPoints(series) {
  const days = series && Array.isArray(series.days) ? series.days : [];
  if (!days.length) return [];
  return [{ at: days[0].at - DAY_MS, balance: series.from || 0 }, ...days.map((d) => ({ at: d.at, balance: d.balance }))];
}

/* One sentence with what the chart shows, for screen readers (and under the chart for everyone). */
function chartSummary(points) {
  const values = points.map((p) => p.balance);
  return tn('profile.chartSummary', points.length - 1, { from: dateText(points[1].at), to: dateText(points[points.length - 1].at),
    now: signed(values[values.length - 1]), low: signed(Math.min(...values)), high: signed(Math.max(...values)),
  });
}

function renderChart(data) {
  const points = chartPoints(data.series);
  const section = h('section', { class: 'card profile-chart', 'aria-labelledby': 'profile-chart-title' },
    h('h2', { id: 'profile-chart-title' }, t('profile.chart')));
  if (!points.length) {
    section.appendChild(h('p', { class: 'muted', id: 'profile-chart-empty' }, t('profile.chartEmpty')));
    return section;
  }
  const { width, height, left, right, top, bottom } = window.innerWidth < 560 ? PHONE_CHART : CHART;
  const values = points.map((p) => p.balance);
  let low = Math.min(0, ...values);
  let high = Math.max(0, ...values);
  if (low === high) { /* a flat line: in the middle, not on an edge */
    low -= 1;
    high += 1;
  }
  const first = points[0].at;
  const last = points[points.length - 1].at;
  const x = (at) => left + ((at - first) / Math.max(1, last - first)) * (width - left - right);
  const y = (v) => top + ((high - v) / (high - low)) * (height - top - bottom);
  const line = points.map((p) => `${x(p.at).toFixed(1)},${y(p.balance).toFixed(1)}`).join(' ');
  const summary = chartSummary(points);
  const yLabel = (v) => svg('text', { x: left - 8, y: y(v) + 4, 'text-anchor': 'end', class: 'chart-label' }, signed(v));
  const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': 'profile-chart-svg-title profile-chart-desc', id: 'profile-chart-svg', class: 'chart' },
    svg('title', { id: 'profile-chart-svg-title' }, t('profile.chart')),
    svg('desc', { id: 'profile-chart-desc' }, summary),
    svg('line', { x1: left, x2: width - right, y1: y(0), y2: y(0), class: 'chart-zero' }),
    svg('line', { x1: left, x2: left, y1: top, y2: height - bottom, class: 'chart-axis' }),
    svg('line', { x1: left, x2: width - right, y1: height - bottom, y2: height - bottom, class: 'chart-axis' }),
    yLabel(high), low !== 0 && high !== 0 ? yLabel(0) : null, yLabel(low),
    svg('text', { x: left, y: height - 12, 'text-anchor': 'start', class: 'chart-label' }, t('profile.chartStart')),
    svg('text', { x: width - right, y: height - 12, 'text-anchor': 'end', class: 'chart-label' }, dateText(last)),
    svg('polyline', { points: line, class: 'chart-line' }),
    ...points.slice(1).map((p) => svg('circle', { cx: x(p.at).toFixed(1), cy: y(p.balance).toFixed(1), r: 3.5, class: 'chart-dot' },
      svg('title', {}, `${dateText(p.at)}: ${signed(p.balance)}`))));
  section.appendChild(h('figure', { class: 'chart-figure' }, chart,
    h('figcaption', { class: 'muted', id: 'profile-chart-summary' }, summary)));
  return section;
}

/* --- the tables and the hands --- */

function tableRow(entry) {
  const title = h('span', { class: 'code' }, entry.code);
  return h('li', { class: `profile-table${entry.closed ? ' closed' : ''}`, dataset: { code: entry.code, closed: entry.closed ? 'true' : 'false' } },
    h('div', { class: 'public-main' },
      h('strong', {}, gameTitle(entry.game)), ' ',
      entry.closed ? title : h('a', { href: `#/t/${entry.code}`, class: 'profile-table-link' }, title),
      h('span', { class: `badge ${entry.closed ? 'badge-closed' : 'badge-open'}` }, t(entry.closed ? 'mine.closed' : 'mine.open')),
      entry.public ? null : h('span', { class: 'badge badge-private' }, t('profile.private'))),
    h('div', { class: 'public-detail muted' },
      tn('profile.tableLine', entry.hands, { net: signed(entry.net || 0), when: dateText(entry.last_played_at, true) })));
}

/* The history panel of a hand's table, that hand opened at its first step (history.js draws it). */
function replayPanel(app, p, entry) {
  const key = `${entry.table}#${entry.hand}`;
  let ts = p.replays.get(entry.table);
  if (!ts) {
    ts = newTable(entry.table);
    ts.info = { game: entry.game };
    p.replays.set(entry.table, ts);
    loadHistory(ts, app);
  }
  if (p.opening === key) { /* just opened from the list: that hand, from its deal */
    p.opening = null;
    ts.ui.openHand = entry.hand;
    ts.ui.step = 0;
    if (!ts.replays.has(entry.hand)) {
      ts.replays.set(entry.hand, { loading: true });
      app.request({ type: 'replay', code: entry.table, hand: entry.hand }).then((reply) => {
        ts.replays.set(entry.hand, { hand: entry.hand, frames: reply.frames || [], seat: Number.isInteger(reply.seat) ? reply.seat : null,
          players: reply.players || [], options: reply.options || null });
      }, (err) => ts.replays.set(entry.hand, { error: err })).finally(() => app.rerender());
    }
  }
  ts.ui.showHistory = true;
  return renderHistory(ts, app);
}

function handRow(app, p, entry) {
  const key = `${entry.table}#${entry.hand}`;
  let open = p.openHand === key;
  const ts = p.replays.get(entry.table);
  if (open && ts && !ts.ui.showHistory) { /* closed by the panel's own button */
    p.openHand = null;
    open = false;
  }
  return h('li', { class: 'profile-hand', dataset: { code: entry.table, hand: String(entry.hand) } },
    h('div', { class: 'profile-hand-line' },
      h('span', {}, t('history.hand', { n: entry.hand }), ' · ', gameTitle(entry.game), ' ', h('span', { class: 'code' }, entry.table)),
      h('strong', { class: netClass(entry.net) }, signed(entry.net)),
      h('span', { class: 'muted' }, dateText(entry.at, true)),
      /* the hand's replay page: its link may be shared (whoever has the code may watch a finished hand) */
      h('a', { class: 'profile-replay-link', href: `#/r/${encodeURIComponent(entry.table)}/${entry.hand}` }, t('profile.replayPage')),
      p.data && p.data.you ? h('button', { type: 'button', class: 'secondary profile-replay', 'aria-expanded': open ? 'true' : 'false',
        dataset: { focus: `replay-${key}` }, onclick: () => {
          p.openHand = open ? null : key;
          p.opening = open ? null : key;
          if (open && ts) ts.ui.showHistory = false;
          app.rerender();
        } }, t(open ? 'profile.hideReplay' : 'profile.replay')) : null),
    open ? replayPanel(app, p, entry) : null);
}

function renderLists(app, p) {
  const you = p.data && p.data.you;
  return [
    h('section', { class: 'card profile-tables', 'aria-labelledby': 'profile-tables-title' },
      h('h2', { id: 'profile-tables-title' }, t('profile.tables')),
      you ? null : h('p', { class: 'muted', id: 'profile-public-note' }, t('profile.publicOnly')),
      p.tables.length
        ? h('ul', { class: 'public-tables', id: 'profile-tables' }, p.tables.map(tableRow))
        : h('p', { class: 'muted', id: 'profile-tables-none' }, t('profile.noTables')),
      p.tablesNext ? h('button', { type: 'button', class: 'secondary', id: 'profile-more-tables', dataset: { focus: 'profile-more-tables' },
        disabled: p.loading, onclick: () => loadProfile(app, p.ref, 'tables') }, t('profile.older')) : null),
    h('section', { class: 'card profile-hands', 'aria-labelledby': 'profile-hands-title' },
      h('h2', { id: 'profile-hands-title' }, t('profile.recentHands')),
      p.hands.length
        ? h('ol', { class: 'profile-hand-list', id: 'profile-hands' }, p.hands.map((e) => handRow(app, p, e)))
        : h('p', { class: 'muted', id: 'profile-hands-none' }, t(you ? 'profile.noHands' : 'profile.noPublicHands')),
      p.handsNext ? h('button', { type: 'button', class: 'secondary', id: 'profile-more-hands', dataset: { focus: 'profile-more-hands' },
        disabled: p.loading, onclick: () => loadProfile(app, p.ref, 'hands') }, t('profile.older')) : null),
  ];
}

/* --- the page --- */

export function mountProfile(container, app, ref) {
  replace(container, h('div', { id: 'profile', class: 'profile', dataset: { player: ref } }));
  const p = stateOf(app, ref);
  if (!p.data) loadProfile(app, ref);
}

export function updateProfile(container, app, ref) {
  const page = container.querySelector('#profile');
  if (!page) return;
  const p = stateOf(app, ref);
  if (!p.data && !p.loading && !p.error) loadProfile(app, ref);
  if (p.error) {
    const key = p.error.code === 'no_such_player' ? 'profile.noSuchPlayer' : 'profile.failed';
    replace(page, h('section', { class: 'card' },
      h('p', { class: 'error', role: 'alert', id: 'profile-error' }, t(key, { message: p.error.message || p.error.code || '' })),
      h('a', { href: '#/' }, t('profile.back'))));
    return;
  }
  if (!p.data) {
    replace(page, h('p', { class: 'muted', role: 'status' }, t('profile.loading')));
    return;
  }
  replace(page, renderHead(app, p.data), h('div', { class: 'profile-grid' }, renderTotals(p.data), renderChart(p.data)),
    ...renderLists(app, p));
}

/* The page's title: the player's name once known. */
export function profileTitle(app) {
  const p = app.state.profile;
  return p && p.data && p.data.player ? p.data.player.name : t('profile.title');
}
