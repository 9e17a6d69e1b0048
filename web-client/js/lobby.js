/*
 * lobby — the first page (#/): choose a name, log in to an account or make this guest one (or
 * log out), see the public tables a page at a time (filtered by game and state, searched by a
 * host's name or a code's start), join a table by its code, and open a new table of one of the
 * house's games (games/registry.js) with that game's rule options.
 *
 * "Your tables" lists where the player is now (a seat, watching, hosting: `my_tables`), with the
 * hand, whether it is their turn and the way back, and the tables they played at, closed ones
 * too, each with its history and replays (history.js, read from the server's records). Coming
 * to the lobby tells the tables the player stays at that their page left (`presence`), so the
 * others see them away rather than online.
 *
 * The forms (the list's filters too) are built once per mount, so typing is never lost when the
 * table list refreshes; update() redraws only the greeting, the list and its count. Logging in
 * or out changes the mount, so the account card is drawn afresh for the new identity.
 */
import { field, h, replace } from './dom.js';
import { has, lang, t, tn } from './i18n.js';
import { findGame, games, gameTitle } from './games/registry.js';
import { cutChars, limit } from './limits.js';
import { linkRules, rulesLink } from './rules/links.js';
import { loadHistory, renderHistory } from './history.js';
import { newTable } from './store.js';
import { signed } from './seats.js';

/* How often the lobby asks again for the player's tables while it is shown. */
const MINE_REFRESH_MS = 10000;

/* Table codes: 12 characters (6 for tables opened before codes grew), letters and digits without
 * look-alikes (PROTOCOL.md). */
export const CODE_PATTERN = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6,12}$/;

/* Tables the list asks for at a time (the server allows up to 50). */
export const TABLES_PAGE = 20;

/* The list's filters as list_tables keys: `show` is the state picker (all, free, waiting, playing). */
export function listFilters({ show, game, search }) {
  const keys = {};
  if (show === 'free') keys.free_seat = true;
  if (show === 'waiting' || show === 'playing') keys.state = show;
  if (game) keys.game = game;
  const text = String(search || '').trim();
  if (text) keys.search = cutChars(text, limit('name_chars'));
  return keys;
}

export function normalizeCode(text) {
  return String(text || '').toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/* Reads the create form into a create_table message. */
function readCreateForm(form) {
  const game = findGame(form.querySelector('#create-game').value);
  const turn = Math.floor(Number(form.querySelector('#opt-turn_seconds').value) || 30);
  return {
    type: 'create_table', game: game.name, options: game.readOptions(form),
    public: form.querySelector('#vis-public').checked,
    turn_seconds: Math.min(limit('turn_seconds_max'), Math.max(limit('turn_seconds_min'), turn)),
  };
}

/* --- accounts --- */


/*
 * What is wrong with an account name and password, as an i18n key, or null. The server has the
 * whole rule (PROTOCOL.md, register); this catches the usual slips in the player's language.
 */
export function accountProblem(name, password) {
  const chars = Array.from(name.trim());
  /* 3 characters, or 2 wide ones (小明): CJK ideographs, kana and Hangul syllables */
  const wide = chars.length > 0 && chars.every((c) => /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3005\u30fc\uac00-\ud7a3]/u.test(c) && !/[\uff61-\uff9f]/u.test(c));
  const least = wide ? Math.min(limit('account_min_chars'), limit('account_min_wide_chars') || limit('account_min_chars')) : limit('account_min_chars');
  if (chars.length < least || chars.length > limit('account_max_chars')) return 'account.err.nameLength';
  if (!/^[\p{L}\p{M}0-9_.-]+$/u.test(name.trim())) return 'account.err.nameChars';
  if (!/[\p{L}0-9]/u.test(name)) return 'account.err.nameChars';
  const bytes = new TextEncoder().encode(password).length;
  if (bytes < limit('password_min_bytes') || bytes > limit('password_max_bytes')) return 'account.err.passwordLength';
  return null;
}

function errorFor(err) {
  const key = `err.${err.code}`;
  return has(key) ? t(key, { message: err.message }) : t('err.generic', { message: err.message || err.code });
}

/* One account form (login or register): labelled fields, a line for errors, submit and cancel. */
function accountForm(app, kind, onCancel) {
  const id = (what) => `${kind}-${what}`;
  const error = h('p', { class: 'form-error', id: id('error'), role: 'alert' });
  const submit = (e) => {
    e.preventDefault();
    const form = e.target;
    const name = form.querySelector(`#${id('name')}`).value.trim();
    const password = form.querySelector(`#${id('password')}`).value;
    let problem = accountProblem(name, password);
    if (!problem && kind === 'register' && password !== form.querySelector(`#${id('confirm')}`).value) problem = 'account.err.mismatch';
    if (problem) {
      error.textContent = t(problem);
      return;
    }
    error.textContent = '';
    const button = form.querySelector('button[type="submit"]');
    button.disabled = true;
    const done = kind === 'register' ? app.register(name, password) : app.login(name, password);
    done.catch((err) => {
      /* from the first page the lobby is redrawn under a name meanwhile: say it in a toast then */
      if (error.isConnected) error.textContent = errorFor(err || {});
      else app.toast(errorFor(err || {}), 'error');
    }).finally(() => {
      button.disabled = false;
    });
  };
  return h('form', { id: id('form'), class: 'account-form', onsubmit: submit, novalidate: true },
    h('h3', {}, t(`account.${kind}Title`)),
    field(id('name'), t('account.name'), h('input', { id: id('name'), required: true, maxlength: 2 * limit('account_max_chars'), autocomplete: 'username',
      autocapitalize: 'none', spellcheck: 'false', 'aria-describedby': `${id('name')}-help` }),
    kind === 'register' ? t('account.nameHelp') : null),
    field(id('password'), t('account.password'), h('input', { id: id('password'), type: 'password', required: true,
      autocomplete: kind === 'register' ? 'new-password' : 'current-password', 'aria-describedby': `${id('password')}-help` }),
    kind === 'register' ? t('account.passwordHelp') : null),
    kind === 'register' ? field(id('confirm'), t('account.confirm'), h('input', { id: id('confirm'), type: 'password',
      required: true, autocomplete: 'new-password' })) : null,
    error,
    h('div', { class: 'form-actions' },
      h('button', { type: 'submit', id: id('submit') }, t(`account.${kind}`)),
      h('button', { type: 'button', class: 'link', id: id('cancel'), onclick: onCancel }, t('account.cancel'))));
}

/* The account card: who one plays as, with Log in / Register for a guest, Log out for an account. */
function drawAccountCard(card, app, open) {
  const account = app.account();
  const redraw = (which) => {
    drawAccountCard(card, app, which);
    const first = card.querySelector('input');
    if (first) first.focus();
  };
  if (account) {
    replace(card,
      h('h2', { id: 'account-title' }, t('account.title')),
      h('p', { id: 'account-status' }, t('account.loggedIn', { account })),
      h('button', { type: 'button', class: 'secondary', id: 'logout-button', onclick: () => app.logout() }, t('account.logout')));
    return;
  }
  const named = Boolean(app.state.name) && !app.state.editingName;
  replace(card,
    h('h2', { id: 'account-title' }, t('account.title')),
    h('p', { id: 'account-status', class: 'help' }, named ? t('account.guest') : t('account.haveAccount')),
    open ? null : h('div', { class: 'form-actions' },
      h('button', { type: 'button', class: 'secondary', id: 'show-login', onclick: () => redraw('login') }, t('account.login')),
      h('button', { type: 'button', class: 'secondary', id: 'show-register', onclick: () => redraw('register') },
        t('account.register'))),
    open ? accountForm(app, open, () => redraw(null)) : null);
}

function accountCard(app) {
  const card = h('section', { id: 'account-card', class: 'card', 'aria-labelledby': 'account-title' });
  drawAccountCard(card, app, null);
  return card;
}

/* --- the other forms --- */

function nameForm(app) {
  const submit = (e) => {
    e.preventDefault();
    const input = e.target.querySelector('#name-input');
    const value = input.value.trim();
    const error = e.target.querySelector('#name-error');
    if (!value) { /* say why rather than ignore the click */
      error.textContent = t('lobby.nameBlank');
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      return;
    }
    app.setName(value);
  };
  return h('form', { id: 'name-form', class: 'card', onsubmit: submit },
    h('h2', {}, t('lobby.nameTitle')),
    field('name-input', t('lobby.nameLabel'), h('input', { id: 'name-input', maxlength: 2 * limit('name_chars'), required: true,
      autocomplete: 'nickname', value: app.state.name || '' })),
    h('p', { class: 'help' }, t('lobby.nameHint')),
    h('p', { id: 'name-error', class: 'form-error', role: 'alert' }),
    h('button', { type: 'submit', id: 'name-submit' }, t('lobby.nameSave')));
}

function joinForm(app) {
  const submit = (e) => {
    e.preventDefault();
    const input = e.target.querySelector('#join-code');
    const code = normalizeCode(input.value);
    if (!CODE_PATTERN.test(code)) {
      app.toast(t('lobby.badCode'), 'error');
      input.focus();
      return;
    }
    app.navigate(`#/t/${code}`);
  };
  return h('form', { id: 'join-form', class: 'card', onsubmit: submit },
    h('h2', {}, t('lobby.joinTitle')),
    field('join-code', t('lobby.codeLabel'), h('input', { id: 'join-code', maxlength: 2 * limit('code_chars'), autocapitalize: 'characters',
      autocomplete: 'off', spellcheck: 'false', placeholder: 'K7M2QXAB3CDE' })),
    h('button', { type: 'submit', id: 'join-submit' }, t('lobby.joinButton')));
}

/* The rule options of a game, then the table's turn timer; choosing another game swaps the game's part. */
function rulesSection(first) {
  const summary = h('summary', {}, linkRules(t(first.optionsTitleKey), first.name));
  let editor = first.optionEditor();
  const timer = field('opt-turn_seconds', t('create.turnSeconds'), h('input', { id: 'opt-turn_seconds', type: 'number', min: limit('turn_seconds_min'),
    max: limit('turn_seconds_max'), step: 1, value: '30', 'aria-describedby': 'opt-turn_seconds-help' }), t('create.turnSecondsHelp'));
  const details = h('details', { class: 'rules' }, summary, editor, timer);
  const choose = (game) => {
    for (const node of editor) node.remove();
    editor = game.optionEditor();
    timer.before(...editor);
    summary.replaceChildren(...linkRules(t(game.optionsTitleKey), game.name));
  };
  return { details, choose };
}

function createForm(app) {
  const submit = (e) => {
    e.preventDefault();
    app.createTable(readCreateForm(e.target));
  };
  const offered = games();
  const rules = rulesSection(offered[0]);
  return h('form', { id: 'create-form', class: 'card', onsubmit: submit },
    h('h2', {}, t('create.title')),
    h('p', { class: 'rules-links', id: 'create-rules' }, offered.filter((g) => g.rules).map((g, i) => [i ? ' · ' : '', rulesLink(g, true)])),
    field('create-game', t('create.game'), h('select', { id: 'create-game', onchange: (e) => rules.choose(findGame(e.target.value)) },
      offered.map((game) => h('option', { value: game.name }, t(game.titleKey))))),
    h('fieldset', {},
      h('legend', {}, t('create.visibility')),
      h('div', { class: 'field-check' }, h('input', { type: 'radio', id: 'vis-private', name: 'visibility', value: 'private', checked: true }),
        h('label', { for: 'vis-private' }, t('create.private'))),
      h('div', { class: 'field-check' }, h('input', { type: 'radio', id: 'vis-public', name: 'visibility', value: 'public' }),
        h('label', { for: 'vis-public' }, t('create.public')))),
    rules.details,
    h('button', { type: 'submit', id: 'create-submit' }, t('create.submit')));
}

/* The table's rule options in a few words, as its game says them ('' for a game this client does not know). */
function optionsSummaryOf(summary) {
  const game = findGame(summary.game);
  return game ? game.optionsSummary(summary.options) : '';
}

function tableRow(app, summary) {
  const taken = summary.seats.filter((s) => s.bot || s.player).length;
  const names = summary.seats.map((s) => (s.bot ? t('table.bot') : s.name || '—')).join(' · ');
  return h('li', { class: `public-table${summary.locked ? ' locked' : ''}`, dataset: { code: summary.code } },
    h('div', { class: 'public-main' },
      h('strong', {}, gameTitle(summary.game)), ' ', h('span', { class: 'code' }, summary.code),
      h('span', { class: 'muted' }, ` · ${t(`lobby.state.${summary.state}`)} · ${t('lobby.seats', { n: taken })}`),
      summary.locked ? h('span', { class: 'badge-locked' }, ` ${t('lobby.locked')}`) : null),
    h('div', { class: 'public-detail muted' }, names),
    h('div', { class: 'public-detail' }, optionsSummaryOf(summary),
      summary.host ? h('span', { class: 'muted' }, ` · ${t('lobby.hostBy', { name: summary.host })}`) : null,
      summary.hands_played ? h('span', { class: 'muted' }, ` · ${t('lobby.hands', { n: summary.hands_played })}`) : null),
    h('button', { type: 'button', class: 'join-public', dataset: { focus: `join-${summary.code}` }, disabled: summary.locked,
      onclick: () => app.navigate(`#/t/${summary.code}`) }, t('lobby.join')));
}

/* The list's filters: what to show, which game (when the house has several), and a search. Any
 * change asks again with all three as they are now (typing, after a pause). */
function filterBar(app) {
  const current = app.state.lobby;
  let typing = null;
  const offered = games();
  let form = null;
  const apply = () => {
    clearTimeout(typing);
    const game = form.querySelector('#filter-game');
    app.filterTables({ show: form.querySelector('#filter-show').value, game: game ? game.value : '',
      search: form.querySelector('#filter-search').value });
  };
  form = h('form', { id: 'lobby-filters', class: 'lobby-filters', role: 'search', onsubmit: (e) => e.preventDefault() },
    field('filter-show', t('lobby.filter.show'), h('select', { id: 'filter-show', onchange: apply },
      ['all', 'free', 'waiting', 'playing'].map((v) => h('option', { value: v, selected: current.show === v }, t(`lobby.filter.${v}`))))),
    offered.length > 1 ? field('filter-game', t('lobby.filter.game'), h('select', { id: 'filter-game', onchange: apply },
      h('option', { value: '' }, t('lobby.filter.anyGame')),
      offered.map((g) => h('option', { value: g.name, selected: current.game === g.name }, t(g.titleKey))))) : null,
    field('filter-search', t('lobby.filter.search'), h('input', { id: 'filter-search', type: 'search', maxlength: 2 * limit('name_chars'),
      autocomplete: 'off', spellcheck: 'false', placeholder: t('lobby.filter.searchHint'), value: current.search,
      oninput: () => {
        clearTimeout(typing);
        typing = setTimeout(apply, 300);
      } })));
  return form;
}

/* --- your tables: where you are, and where you played --- */

/* What the lobby knows of the player's tables (kept on app.state across mounts). */
function mineOf(app) {
  if (!app.state.mine) {
    app.state.mine = { open: [], past: [], loaded: false, loading: false, askedAt: 0, error: null,
      openHistory: null, histories: new Map() };
  }
  return app.state.mine;
}

/* Asks the server for the player's tables, unless an answer is on its way or fresh. */
function askMine(app, force) {
  const mine = mineOf(app);
  if (mine.me !== app.me()) { /* another player (logged in or out): nothing of the last one's */
    Object.assign(mine, { me: app.me(), open: [], past: [], loaded: false, askedAt: 0, error: null, openHistory: null });
    mine.histories.clear();
  }
  if (mine.loading || app.state.status !== 'online' || !app.me()) return;
  if (!force && mine.loaded && Date.now() - mine.askedAt < MINE_REFRESH_MS) return;
  mine.loading = true;
  mine.askedAt = Date.now();
  app.request({ type: 'my_tables' }).then((reply) => {
    mine.open = Array.isArray(reply.tables) ? reply.tables : [];
    mine.past = Array.isArray(reply.past) ? reply.past : [];
    mine.error = null;
  }, (err) => {
    mine.error = err;
  }).finally(() => {
    mine.loading = false;
    mine.loaded = true;
    app.rerender();
  });
}

/* The page left every table it stays at: the others see this player away, not online. */
function leftTables(app) {
  for (const [code, ts] of app.tables) {
    if (ts.info && ts.phase !== 'closed' && !ts.stale) app.request({ type: 'presence', code, here: false }).catch(() => {});
  }
}

function whenText(ms) {
  if (!Number.isFinite(ms) || ms <= 0) return '';
  try {
    return new Date(ms).toLocaleString(lang(), { dateStyle: 'short', timeStyle: 'short' });
  } catch {
    return '';
  }
}

function openTableRow(app, entry) {
  const seated = Number.isInteger(entry.seat);
  const facts = [
    entry.hand ? t('table.hand', { n: entry.hand }) : t(`lobby.state.${entry.state}`),
    seated ? t('mine.seat', { wind: t('wind.' + entry.seat) }) : t('mine.watching'),
  ];
  if (entry.hosting) facts.push(t('table.host'));
  return h('li', { class: `my-table${entry.your_turn ? ' my-turn' : ''}`, dataset: { code: entry.code, yourTurn: entry.your_turn ? 'true' : 'false' } },
    h('div', { class: 'public-main' },
      h('strong', {}, gameTitle(entry.game)), ' ', h('span', { class: 'code' }, entry.code),
      entry.your_turn ? h('span', { class: 'badge badge-turn' }, t('mine.yourTurn')) : null),
    h('div', { class: 'public-detail muted' }, facts.join(' · ')),
    h('button', { type: 'button', class: 'back-to-table', dataset: { focus: `back-${entry.code}` },
      onclick: () => app.navigate(`#/t/${entry.code}`) }, t('mine.back')));
}

/* A past table's history panel: a table state of its own, as history.js draws from. */
function pastHistory(app, entry) {
  const mine = mineOf(app);
  let ts = mine.histories.get(entry.code);
  if (!ts) {
    ts = newTable(entry.code);
    ts.info = { game: entry.game };
    ts.options = entry.options || {};
    ts.ui.showHistory = true;
    mine.histories.set(entry.code, ts);
  }
  return ts;
}

function pastTableRow(app, entry) {
  const mine = mineOf(app);
  const open = mine.openHistory === entry.code;
  const line = tn('mine.pastLine', entry.hands, { net: signed(entry.net || 0), when: whenText(entry.last_played_at) });
  let panel = null;
  if (open) {
    const ts = pastHistory(app, entry);
    ts.ui.showHistory = true;
    panel = renderHistory(ts, app);
  }
  return h('li', { class: `past-table${entry.closed ? ' closed' : ''}`, dataset: { code: entry.code, closed: entry.closed ? 'true' : 'false' } },
    h('div', { class: 'public-main' },
      h('strong', {}, gameTitle(entry.game)), ' ', h('span', { class: 'code' }, entry.code),
      h('span', { class: `badge ${entry.closed ? 'badge-closed' : 'badge-open'}` }, t(entry.closed ? 'mine.closed' : 'mine.open'))),
    h('div', { class: 'public-detail muted' }, line),
    h('button', { type: 'button', class: 'secondary past-history', 'aria-expanded': open ? 'true' : 'false',
      dataset: { focus: `past-${entry.code}` }, onclick: () => {
        mine.openHistory = open ? null : entry.code;
        if (!open) {
          const ts = pastHistory(app, entry);
          ts.ui.showHistory = true;
          loadHistory(ts, app);
        }
        app.rerender();
      } }, t(open ? 'mine.hide' : 'mine.history')),
    panel);
}

function mineSection(app) {
  return h('section', { class: 'card', id: 'my-tables-section', 'aria-labelledby': 'my-tables-title' },
    h('div', { class: 'section-head' },
      h('h2', { id: 'my-tables-title' }, t('mine.title')),
      h('button', { type: 'button', class: 'secondary', id: 'refresh-mine', onclick: () => askMine(app, true) }, t('lobby.refresh'))),
    h('div', { id: 'my-tables-body', 'aria-live': 'polite' }));
}

function updateMine(container, app) {
  const body = container.querySelector('#my-tables-body');
  if (!body) return;
  askMine(app, false);
  const mine = mineOf(app);
  /* an open history panel closed by its own button */
  const shown = mine.openHistory && mine.histories.get(mine.openHistory);
  if (shown && !shown.ui.showHistory) mine.openHistory = null;
  const parts = [];
  if (mine.error) parts.push(h('p', { class: 'error', role: 'alert' }, t('mine.failed', { message: mine.error.message || mine.error.code || '' })));
  if (!mine.loaded) {
    parts.push(h('p', { class: 'muted', role: 'status' }, t('mine.loading')));
  } else {
    parts.push(mine.open.length
      ? h('ul', { id: 'my-tables', class: 'public-tables my-tables' }, mine.open.map((e) => openTableRow(app, e)))
      : h('p', { class: 'muted', id: 'my-tables-none' }, t('mine.none')));
    parts.push(h('h3', { id: 'past-tables-title' }, t('mine.pastTitle')));
    parts.push(mine.past.length
      ? h('ul', { id: 'past-tables', class: 'public-tables past-tables' }, mine.past.map((e) => pastTableRow(app, e)))
      : h('p', { class: 'muted', id: 'past-tables-none' }, t('mine.pastNone')));
  }
  /* keep focus on the button that was pressed across the redraw */
  const focused = document.activeElement && body.contains(document.activeElement) ? document.activeElement.dataset.focus : null;
  replace(body, parts);
  if (focused) body.querySelector(`[data-focus="${focused}"]`)?.focus();
}

export function mountLobby(container, app) {
  const named = Boolean(app.state.name) && !app.state.editingName;
  leftTables(app);
  mineOf(app).askedAt = 0; /* ask afresh on each visit */
  replace(container, h('div', { id: 'lobby', class: 'lobby' },
    named ? h('div', { class: 'greeting card', id: 'greeting' }) : nameForm(app),
    named ? mineSection(app) : null,
    accountCard(app),
    named ? h('section', { class: 'card', id: 'public-section', 'aria-labelledby': 'public-title' },
      h('div', { class: 'section-head' },
        h('h2', { id: 'public-title' }, t('lobby.tablesTitle')),
        h('button', { type: 'button', class: 'secondary', id: 'refresh-tables', onclick: () => app.refreshTables() }, t('lobby.refresh'))),
      filterBar(app),
      h('ul', { id: 'public-tables', class: 'public-tables', 'aria-live': 'polite' }),
      h('div', { class: 'tables-footer', id: 'tables-footer' })) : null,
    named ? joinForm(app) : null,
    named ? createForm(app) : null));
}

export function updateLobby(container, app) {
  updateMine(container, app);
  const greeting = container.querySelector('#greeting');
  if (greeting) {
    const account = app.account();
    replace(greeting,
      h('span', {}, t('lobby.hello', { name: app.state.name })),
      account ? h('span', { class: 'badge-account', id: 'greeting-account' }, t('lobby.account', { account })) : null,
      h('button', { type: 'button', class: 'link', id: 'change-name', onclick: () => app.editName() }, t('lobby.nameChange')),
      app.me() ? h('a', { class: 'profile-link', id: 'my-profile', href: `#/p/${app.me()}` }, t('profile.link')) : null);
  }
  const list = container.querySelector('#public-tables');
  if (list) {
    const lobby = app.state.lobby;
    const filtered = Object.keys(listFilters(lobby)).length > 0;
    replace(list, lobby.tables.length ? lobby.tables.map((s) => tableRow(app, s))
      : h('li', { class: 'muted', id: 'no-tables' }, t(filtered ? 'lobby.noMatch' : 'lobby.noTables')));
    replace(container.querySelector('#tables-footer'),
      lobby.tables.length ? h('span', { class: 'muted', id: 'tables-count' },
        t('lobby.shown', { n: lobby.tables.length, total: Math.max(lobby.total, lobby.tables.length) })) : null,
      lobby.next ? h('button', { type: 'button', class: 'secondary', id: 'more-tables', dataset: { focus: 'more-tables' },
        disabled: lobby.loading, onclick: () => app.moreTables() }, t('lobby.more')) : null);
  }
}
