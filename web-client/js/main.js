/*
 * main — the client's entry point: the games' stylesheets, the language switch and connection
 * banner in the header, the router (#/ the lobby, #/t/CODE a table, #/p/<player id> a profile,
 * #/r/CODE/N a hand's replay), the connection to the
 * server and the dispatch of its messages into the table store, the account actions (register,
 * log in, log out), and the one `app` object the pages act through.
 *
 * A page is mounted once per route, language, name and account, then updated after every
 * message, so a form being filled in or a tile being focused survives the stream of table events.
 */
import { LANGS, has, initialLang, lang, onLangChange, setLang, t } from './i18n.js';
import { h, replace } from './dom.js';
import { Connection } from './connection.js';
import { applyEvent, applyMissed, applySnapshot, applyView, newTable } from './store.js';
import { mountLobby, updateLobby, normalizeCode, listFilters, CODE_PATTERN, TABLES_PAGE } from './lobby.js';
import { mountTable, nextHandText, updateTable } from './table.js';
import { loadHistory } from './history.js';
import { loadProfile, mountProfile, profileRef, profileTitle, updateProfile } from './profile.js';
import { leaveReplay, mountReplay, updateReplay } from './replay.js';
import { announceGames, gameFor, games, knownGames, onlyGame } from './games/registry.js';
import { cutChars, limit, setLimits } from './limits.js';
import { turnTitle } from './alerts.js';

const NAME_KEY = 'teahouse.name';
const TABLES_POLL_MS = 5000;
const TOAST_MS = 7000;
const REJOIN_MS = 40000;      /* after a reconnect, how long a table not found is looked for again */
const REJOIN_RETRY_MS = 2000; /* (a dead node's tables are taken over once their lease lapses) */

const storage = window.localStorage;
const state = {
  name: storage.getItem(NAME_KEY) || '',
  editingName: false,
  status: 'idle',
  player: null,
  /* the public tables shown: the pages asked so far with these filters, `next` the cursor of the
   * page after them (null: none); `asked` numbers the requests, so a late answer to an earlier
   * filter is dropped */
  lobby: { show: 'all', game: '', search: '', tables: [], next: null, total: 0, loading: false, asked: 0 },
  route: { page: 'lobby' },
  firstWelcome: true,
};
const tables = new Map();
let mountedKey = null;
let toastTimer = null;
let onlineWaiters = [];

const connection = new Connection(
  `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`, storage,
  { onMessage, onStatus, onWelcome, onHelloRefused });

/* --- what the pages act through --- */

const app = {
  state,
  tables,
  me: () => (state.player ? state.player.id : null),
  account: () => (state.player && state.player.account) || null,
  rerender: render,
  navigate(hash) {
    if (location.hash === hash) route();
    else location.hash = hash;
  },
  toast,
  /* Sends a command; a refusal is shown to the player and rethrown for the caller. */
  command(msg) {
    return connection.request(msg).catch((err) => {
      showError(err);
      throw err;
    }).catch(() => null);
  },
  setName(name) {
    state.name = cutChars(name, limit('name_chars')); /* characters, not UTF-16 units */
    state.editingName = false;
    storage.setItem(NAME_KEY, state.name);
    connection.start(state.name);
    render();
  },
  editName() {
    state.editingName = true;
    render();
  },
  /* Sends a message and resolves with its reply; the caller shows a refusal its own way. */
  request(msg) {
    return connection.request(msg);
  },
  refreshTables,
  moreTables,
  /* Changes the list's filters (some of show, game, search) and asks for its first page. */
  filterTables(change) {
    Object.assign(state.lobby, change);
    refreshTables();
  },
  register(name, password) {
    return identify({ type: 'register', name, password }).then((welcome) => {
      toast(t('account.registered', { account: welcome.player.account || name }), 'info');
    });
  },
  login(name, password) {
    return identify({ type: 'login', name, password }).then((welcome) => {
      toast(t('account.loggedInAs', { account: welcome.player.account || name }), 'info');
    });
  },
  logout() {
    if (playingAny() && !window.confirm(t('account.logoutMidHand'))) return;
    tables.clear();
    state.player = null;
    Object.assign(state.lobby, { tables: [], next: null, total: 0 });
    connection.logout().then(() => toast(t('account.loggedOut'), 'info'));
    app.navigate('#/');
  },
  createTable(msg) {
    connection.request(msg).then((snapshot) => app.navigate(`#/t/${snapshot.table}`), showError);
  },
  leaveTable(code) {
    const ts = tables.get(code);
    if (ts && ts.phase === 'playing' && ts.mySeat !== null && !window.confirm(t('table.leaveMidHand'))) return;
    connection.request({ type: 'leave_table', code }).catch(() => {}).finally(() => {
      tables.delete(code);
      app.navigate('#/');
    });
  },
};

/* Whether the player holds a seat in a hand being played (leaving then asks first). */
function playingAny() {
  return [...tables.values()].some((ts) => ts.phase === 'playing' && ts.mySeat !== null);
}

/* --- accounts --- */

/* Resolves once the connection has had its welcome (at once if it has); rejects if the server
 * refuses the hello. */
function whenOnline() {
  if (state.status === 'online' && state.player) return Promise.resolve();
  return new Promise((resolve, reject) => onlineWaiters.push({ resolve, reject }));
}

function settleWaiters(how, value) {
  const waiters = onlineWaiters;
  onlineWaiters = [];
  for (const w of waiters) w[how](value);
}

/*
 * register or login: both answer with a welcome for the connection's new identity. From the
 * first page, where nobody has a name yet, the account name serves as the guest's name until
 * the account's own arrives with the welcome.
 */
function identify(msg) {
  if (!state.name) app.setName(msg.name);
  return whenOnline().then(() => connection.request(msg)).then((welcome) => {
    if (msg.type === 'login') tables.clear(); /* another player now: the guest's tables are not theirs */
    connection.adopt(welcome);
    return welcome;
  });
}

/* --- messages --- */

function tableFor(code) {
  if (!tables.has(code)) tables.set(code, newTable(code));
  return tables.get(code);
}

function onMessage(msg) {
  switch (msg.type) {
    case 'snapshot': {
      applySnapshot(tableFor(msg.table), msg);
      /* After a refresh on the lobby, a resumed seat brings the player back to their table. */
      if (msg.id === undefined && state.route.page === 'lobby' && msg.seat !== null && state.resuming) {
        state.resuming = false;
        app.navigate(`#/t/${msg.table}`);
      }
      break;
    }
    case 'event':
      if (tables.has(msg.table)) {
        const ts = tables.get(msg.table);
        if (applyEvent(ts, msg, app.me())) refreshHistory(ts);
        if (msg.event.kind === 'closing') {
          toast(ts.ended ? t('table.ended') : t('table.closed', { why: msg.event.why || '' }), ts.ended ? 'info' : 'error');
        }
        if (msg.event.kind === 'parked') {
          toast(t('table.parked'), 'info');
          /* Its server stops (the connection will drop, and the welcome after it joins again), or
           * another server plays it now and this connection stays: then join it there. */
          ts.rejoin = true;
          ts.rejoinUntil = Date.now() + REJOIN_MS;
          const code = msg.table;
          setTimeout(() => {
            if (state.status === 'online' && state.route.page === 'table' && state.route.code === code) joinIfNeeded(code);
          }, REJOIN_RETRY_MS);
        }
        if (msg.event.kind === 'action' && msg.event.by_bot && msg.event.seat === ts.mySeat) timedOut(ts, msg.event);
        if (msg.event.kind === 'removed' && msg.event.player === app.me()) sentAway(msg.table);
        if (msg.event.kind === 'seat_left' && msg.event.removed && msg.event.player === app.me()) {
          toast(t('table.stoodUp'), 'info');
        }
      }
      break;
    case 'events': {
      const ts = tableFor(msg.table);
      if (applyMissed(ts, msg)) refreshHistory(ts);
      break;
    }
    case 'view':
      if (tables.has(msg.table)) applyView(tables.get(msg.table), msg);
      break;
    case 'error':
      if (msg.id === undefined) showError(msg);
      break;
    default:
      return;
  }
  render();
}

/* The timer ran out on this player's turn and a bot played for them: say what it did. */
function timedOut(ts, ev) {
  const game = gameFor(ts.info && ts.info.game);
  const what = game.describeTimeout ? game.describeTimeout(ev, ts.options) : '';
  toast(what || t('table.timedOut'), 'error');
}

/* After a hand finished: the history panel (or its count on the button) shows it too. */
function refreshHistory(ts) {
  if (ts.ui.showHistory || ts.hist.loaded) loadHistory(ts, app);
}

function onStatus(status) {
  state.status = status;
  renderHeader();
}

function onWelcome(welcome) {
  setLimits(welcome.limits);
  if (welcome.games) announceGames(welcome.games); /* the lobby offers what the server hosts */
  state.player = welcome.player;
  /* the name the server knows this player by (an account's own after a login) */
  if (welcome.player.name && welcome.player.name !== state.name) {
    state.name = welcome.player.name;
    storage.setItem(NAME_KEY, state.name);
  }
  settleWaiters('resolve');
  state.resuming = state.firstWelcome && welcome.resumed;
  /* Back after a lost connection: this may be another node (its own was killed or drained), so
   * every table is joined again when shown; where it lives elsewhere the join is answered moved. */
  if (!state.firstWelcome) {
    for (const ts of tables.values()) {
      ts.rejoin = true;
      ts.rejoinUntil = Date.now() + REJOIN_MS;
    }
  }
  state.firstWelcome = false;
  /* a followed `moved` re-sends its own join once welcomed */
  if (state.route.page === 'table' && !connection.following()) joinIfNeeded(state.route.code);
  else if (state.route.page === 'profile') loadProfile(app, state.route.player);
  else refreshTables();
  render();
}

/* The server refused the name: say why and ask for another. */
function onHelloRefused(err) {
  showError(err);
  settleWaiters('reject', err);
  state.status = 'idle';
  state.editingName = true;
  render();
}

function showError(err) {
  if (!err || err.code === 'disconnected' || err.code === 'replaced') return; /* the banner says these */
  if (err.code === 'rate_limited' && Number.isInteger(err.retry_ms)) {
    toast(t('err.codesWait', { s: Math.ceil(err.retry_ms / 1000) }), 'error');
    return;
  }
  const key = `err.${err.code}`;
  toast(has(key) ? t(key, { message: err.message }) : t('err.generic', { message: err.message || err.code }), 'error');
}

/* The host sent this player away from a table: back to the lobby. */
function sentAway(code) {
  tables.delete(code);
  toast(t('table.removed', { code }), 'error');
  if (state.route.page === 'table' && state.route.code === code) app.navigate('#/');
}

/* Asks for a page of the public tables with the current filters: the first (replacing the
 * list) or the one after those shown (more). */
function askTables(more) {
  const lobby = state.lobby;
  if (state.status !== 'online' || (more && !lobby.next)) return;
  const asked = ++lobby.asked;
  const msg = { type: 'list_tables', limit: TABLES_PAGE, ...listFilters(lobby) };
  if (more) msg.after = lobby.next;
  lobby.loading = true;
  connection.request(msg).then((reply) => {
    if (asked !== lobby.asked) return; /* the filters changed meanwhile */
    const known = new Set(more ? lobby.tables.map((s) => s.code) : []);
    const page = (reply.tables || []).filter((s) => !known.has(s.code));
    lobby.tables = more ? lobby.tables.concat(page) : page;
    lobby.next = reply.next || null;
    lobby.total = Number.isInteger(reply.total) ? reply.total : lobby.tables.length;
    lobby.loading = false;
    render();
  }, () => {
    if (asked === lobby.asked) lobby.loading = false;
  });
}

function refreshTables() {
  askTables(false);
}

function moreTables() {
  askTables(true);
}

/* Joins a table; one full of watchers still takes a friend who comes to sit, straight into a free seat. */
function joinIfNeeded(code) {
  const ts = tables.get(code);
  if (ts && ts.info && ts.phase !== 'closed' && state.status === 'online' && !ts.stale && !ts.rejoin) return;
  if (state.status !== 'online') return;
  const intoSeat = (seat, first) => connection.request({ type: 'join_table', code, seat }).catch((err) => {
    if (err.code === 'seat_taken' && seat < 3) return intoSeat(seat + 1, first);
    throw err.code === 'seat_taken' ? first : err;
  });
  connection.request({ type: 'join_table', code })
    .catch((err) => (err.code === 'table_full' ? intoSeat(0, err) : Promise.reject(err)))
    .catch((err) => {
      const moving = tables.get(code);
      const again = err.code === 'no_such_table' || err.code === 'rate_limited';
      if (again && moving && moving.rejoin && Date.now() < moving.rejoinUntil) {
        /* its node died and no other has taken it over yet (that waits for its lease to lapse) */
        const wait = Math.max(REJOIN_RETRY_MS, Number.isInteger(err.retry_ms) ? err.retry_ms : 0);
        setTimeout(() => {
          if (state.route.page === 'table' && state.route.code === code) joinIfNeeded(code);
        }, wait);
        return;
      }
      showError(err);
      tables.delete(code);
      if (state.route.page === 'table' && state.route.code === code) app.navigate('#/');
    });
}

/* --- routing --- */

function parseRoute() {
  const p = /^#\/p\/([^/?#]+)/.exec(location.hash);
  if (p && profileRef(p[1])) return { page: 'profile', player: p[1] };
  const r = /^#\/r\/([A-Za-z0-9]+)\/([1-9][0-9]{0,8})$/.exec(location.hash);
  if (r && CODE_PATTERN.test(normalizeCode(r[1]))) return { page: 'replay', code: normalizeCode(r[1]), hand: Number(r[2]) };
  const m = /^#\/t\/([A-Za-z0-9]+)/.exec(location.hash);
  if (m) {
    const code = normalizeCode(m[1]);
    if (CODE_PATTERN.test(code)) return { page: 'table', code };
  }
  return { page: 'lobby' };
}

function route() {
  state.route = parseRoute();
  if (state.route.page === 'table') joinIfNeeded(state.route.code);
  else if (state.route.page === 'profile') loadProfile(app, state.route.player);
  else if (state.route.page !== 'replay') refreshTables();
  render();
}

/* --- drawing --- */

function renderHeader() {
  const switcher = document.getElementById('lang-switch');
  replace(switcher, LANGS.map((l) => h('button', {
    type: 'button', class: `lang${l.code === lang() ? ' active' : ''}`, lang: l.code, 'aria-pressed': l.code === lang() ? 'true' : 'false',
    dataset: { lang: l.code, focus: `lang-${l.code}` }, title: l.label, onclick: () => setLang(l.code, storage),
  }, l.label)));
  switcher.setAttribute('aria-label', t('lang.label'));
  document.getElementById('brand-title').textContent = t('app.title');
  document.querySelector('.skip-link').textContent = t('app.skip');
  const houseGame = onlyGame(); /* a house of one game is named after it (the welcome says which games) */
  document.getElementById('brand-subtitle').textContent = t(houseGame ? houseGame.taglineKey : 'app.subtitle');
  const banner = document.getElementById('conn-banner');
  const status = state.status;
  banner.dataset.status = status;
  if (status === 'reconnecting' || status === 'connecting') {
    replace(banner, h('p', {}, t(status === 'connecting' ? 'conn.connecting' : 'conn.reconnecting')));
  } else if (status === 'replaced') {
    replace(banner, h('p', {}, t('conn.replaced'), ' ',
      h('button', { type: 'button', id: 'play-here', onclick: () => connection.resume() }, t('conn.reconnectHere'))));
  } else {
    replace(banner);
  }
}

function render() {
  renderHeader();
  const main = document.getElementById('main');
  const named = Boolean(state.name) && !state.editingName;
  const page = named ? state.route.page : 'lobby';
  /* the offered games too: a lobby drawn before the welcome announced them is drawn again */
  const key = `${page}|${state.route.code || state.route.player || ''}|${state.route.hand || ''}|${lang()}|${named}|${app.account() || ''}|${games().map((g) => g.name)}`;
  if (key !== mountedKey) {
    mountedKey = key;
    if (page !== 'replay') leaveReplay();
    if (page === 'table') mountTable(main, app, state.route.code);
    else if (page === 'profile') mountProfile(main, app, state.route.player);
    else if (page === 'replay') mountReplay(main, app, state.route.code, state.route.hand);
    else mountLobby(main, app);
  }
  if (page === 'profile') {
    updateProfile(main, app, state.route.player);
    document.title = `${profileTitle(app)} · ${t('app.title')}`;
  } else if (page === 'replay') {
    updateReplay(main, app, state.route.code, state.route.hand);
    document.title = `${t('replay.title', { code: state.route.code, n: state.route.hand })} · ${t('app.title')}`;
  } else if (page === 'table') {
    updateTable(main, app, state.route.code);
    document.title = turnTitle() || `${state.route.code} · ${t('app.title')}`;
  } else {
    updateLobby(main, app);
    const houseGame = onlyGame();
    document.title = houseGame ? `${t('app.title')} · ${t(houseGame.titleKey)}` : t('app.title');
  }
}

function toast(text, kind) {
  const el = document.getElementById('toast');
  el.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  el.className = `toast ${kind || 'info'} show`;
  el.textContent = text;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.className = 'toast'; el.textContent = ''; }, TOAST_MS);
}

/* The turn timers and the countdown to the next hand count down between server messages. */
function tick() {
  for (const el of document.querySelectorAll('[data-deadline]')) {
    const left = Math.max(0, Math.ceil((Number(el.dataset.deadline) - Date.now()) / 1000));
    el.textContent = t('table.seconds', { n: left });
    el.classList.toggle('urgent', left <= 5);
  }
  for (const el of document.querySelectorAll('[data-next-hand-at]')) el.textContent = nextHandText(Number(el.dataset.nextHandAt));
}

/* --- start --- */

/* Each known game's stylesheet after teahouse.css; the first page waits for them (or their failure), so
 * a table never shows unstyled. */
function loadGameStyles() {
  const loads = knownGames().filter((g) => g.stylesheet).map((g) => new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = g.stylesheet;
    link.onload = resolve;
    link.onerror = resolve;
    document.head.appendChild(link);
  }));
  return Promise.all(loads);
}

await loadGameStyles();
setLang(initialLang(storage, navigator.languages), null);
onLangChange(() => render());
window.addEventListener('hashchange', route);
state.route = parseRoute();
render();
if (state.name) connection.start(state.name);
setInterval(tick, 250);
/* The first page follows the house on its own; once more pages are shown, the Refresh button does. */
setInterval(() => {
  if (state.route.page === 'lobby' && state.name && !state.editingName && state.lobby.tables.length <= TABLES_PAGE) {
    refreshTables();
  }
}, TABLES_POLL_MS);
window.teahouse = { app, tables, connection };
