/*
 * lobby — the first page (#/): choose a name, log in to an account or make this guest one (or
 * log out), see the public tables, join a table by its code, and open a new table with the rule
 * options of rules §7, each with a short explanation.
 *
 * The forms are built once per mount (so typing is never lost when the table list refreshes);
 * update() redraws only the greeting and the list. Logging in or out changes the mount, so the
 * account card is drawn afresh for the new identity.
 */
import { h, replace } from './dom.js';
import { has, t } from './i18n.js';

/* Table codes: 6 characters, letters and digits without look-alikes (PROTOCOL.md). */
export const CODE_PATTERN = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/;

export function normalizeCode(text) {
  return String(text || '').toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/* Rule options of rules §8 with their defaults; the form's controls are built from this list. */
const RULE_OPTIONS = [
  { key: 'wen_zun', kind: 'bool', def: false },
  { key: 'rotation', kind: 'choice', def: 'fly', choices: ['fly', 'turn'] },
  { key: 'qin_multiplier', kind: 'choice', def: 4, choices: [4, 2] },
  { key: 'qin_pays_all', kind: 'bool', def: true },
  { key: 'quartet_bonus', kind: 'choice', def: 'winner', choices: ['winner', 'appearance'] },
];
const NATURAL_OPTIONS = ['seven_civil', 'seven_military', 'eight_civil', 'eight_military', 'four_pairs'];

/* A short list of what differs from the standard rules, for the table list. */
export function optionsSummary(options) {
  const o = options || {};
  const parts = [];
  if (o.wen_zun) parts.push(t('options.summary.wen_zun'));
  if (o.rotation === 'turn') parts.push(t('options.summary.turn'));
  if (o.qin_multiplier === 2) parts.push(t('options.summary.qin2'));
  if (o.qin_pays_all === false) parts.push(t('options.summary.qin_each'));
  if (o.quartet_bonus === 'appearance') parts.push(t('options.summary.appearance'));
  const naturals = NATURAL_OPTIONS.filter((k) => o[k]).length;
  if (naturals) parts.push(t('options.summary.naturals', { n: naturals }));
  if (o.stake && o.stake !== 1) parts.push(t('options.summary.stake', { n: o.stake }));
  return parts.length ? parts.join(' · ') : t('options.standard');
}

function field(id, label, control, help) {
  return h('div', { class: 'field' },
    h('label', { for: id }, label),
    control,
    help ? h('p', { class: 'help', id: `${id}-help` }, help) : null);
}

function checkbox(id, label, checked, help) {
  return h('div', { class: 'field field-check' },
    h('input', { type: 'checkbox', id, checked, 'aria-describedby': help ? `${id}-help` : null }),
    h('label', { for: id }, label),
    help ? h('p', { class: 'help', id: `${id}-help` }, help) : null);
}

function ruleControl(opt) {
  const id = `opt-${opt.key}`;
  const help = t(`opt.${opt.key}.help`);
  if (opt.kind === 'bool') return checkbox(id, t(`opt.${opt.key}`), opt.def, help);
  const select = h('select', { id, 'aria-describedby': `${id}-help` }, opt.choices.map((c) => h('option', {
    value: String(c), selected: c === opt.def ? true : null,
  }, opt.key === 'qin_multiplier' ? `×${c}` : t(`opt.${opt.key}.${c}`))));
  return field(id, t(`opt.${opt.key}`), select, help);
}

/* Reads the create form into a create_table message. */
function readCreateForm(form) {
  const options = {};
  for (const opt of RULE_OPTIONS) {
    const el = form.querySelector(`#opt-${opt.key}`);
    if (opt.kind === 'bool') options[opt.key] = el.checked;
    else options[opt.key] = typeof opt.def === 'number' ? Number(el.value) : el.value;
  }
  for (const key of NATURAL_OPTIONS) options[key] = form.querySelector(`#opt-${key}`).checked;
  options.stake = Math.max(1, Math.floor(Number(form.querySelector('#opt-stake').value) || 1));
  const turn = Math.floor(Number(form.querySelector('#opt-turn_seconds').value) || 30);
  return {
    type: 'create_table', game: form.querySelector('#create-game').value, options,
    public: form.querySelector('#vis-public').checked,
    turn_seconds: Math.min(300, Math.max(5, turn)),
  };
}

/* --- accounts --- */

const ACCOUNT_NAME_MIN = 3;
const ACCOUNT_NAME_MAX = 24;
const PASSWORD_MIN = 8; /* bytes of UTF-8, as the server counts */
const PASSWORD_MAX = 1024;

/*
 * What is wrong with an account name and password, as an i18n key, or null. The server has the
 * whole rule (PROTOCOL.md, register); this catches the usual slips in the player's language.
 */
export function accountProblem(name, password) {
  const chars = Array.from(name.trim());
  if (chars.length < ACCOUNT_NAME_MIN || chars.length > ACCOUNT_NAME_MAX) return 'account.err.nameLength';
  if (!/^[\p{L}\p{M}0-9_.-]+$/u.test(name.trim())) return 'account.err.nameChars';
  if (!/[\p{L}0-9]/u.test(name)) return 'account.err.nameChars';
  const bytes = new TextEncoder().encode(password).length;
  if (bytes < PASSWORD_MIN || bytes > PASSWORD_MAX) return 'account.err.passwordLength';
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
    field(id('name'), t('account.name'), h('input', { id: id('name'), required: true, maxlength: 64, autocomplete: 'username',
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
    const value = e.target.querySelector('#name-input').value.trim();
    if (value) app.setName(value);
  };
  return h('form', { id: 'name-form', class: 'card', onsubmit: submit },
    h('h2', {}, t('lobby.nameTitle')),
    field('name-input', t('lobby.nameLabel'), h('input', { id: 'name-input', maxlength: 24, required: true,
      autocomplete: 'nickname', value: app.state.name || '' })),
    h('p', { class: 'help' }, t('lobby.nameHint')),
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
    field('join-code', t('lobby.codeLabel'), h('input', { id: 'join-code', maxlength: 8, autocapitalize: 'characters',
      autocomplete: 'off', spellcheck: 'false', placeholder: 'K7M2QX' })),
    h('button', { type: 'submit', id: 'join-submit' }, t('lobby.joinButton')));
}

function createForm(app) {
  const submit = (e) => {
    e.preventDefault();
    app.createTable(readCreateForm(e.target));
  };
  return h('form', { id: 'create-form', class: 'card', onsubmit: submit },
    h('h2', {}, t('create.title')),
    field('create-game', t('create.game'), h('select', { id: 'create-game' }, h('option', { value: 'tiengow' }, t('game.tiengow')))),
    h('fieldset', {},
      h('legend', {}, t('create.visibility')),
      h('div', { class: 'field-check' }, h('input', { type: 'radio', id: 'vis-private', name: 'visibility', value: 'private', checked: true }),
        h('label', { for: 'vis-private' }, t('create.private'))),
      h('div', { class: 'field-check' }, h('input', { type: 'radio', id: 'vis-public', name: 'visibility', value: 'public' }),
        h('label', { for: 'vis-public' }, t('create.public')))),
    h('details', { class: 'rules' },
      h('summary', {}, t('create.rules')),
      RULE_OPTIONS.map(ruleControl),
      h('fieldset', {},
        h('legend', {}, t('opt.naturals')),
        h('p', { class: 'help' }, t('opt.naturals.help')),
        NATURAL_OPTIONS.map((key) => checkbox(`opt-${key}`, t(`opt.${key}`), false, null))),
      field('opt-stake', t('opt.stake'), h('input', { id: 'opt-stake', type: 'number', min: 1, step: 1, value: '1',
        'aria-describedby': 'opt-stake-help' }), t('opt.stake.help')),
      field('opt-turn_seconds', t('create.turnSeconds'), h('input', { id: 'opt-turn_seconds', type: 'number', min: 5, max: 300,
        step: 1, value: '30', 'aria-describedby': 'opt-turn_seconds-help' }), t('create.turnSecondsHelp'))),
    h('button', { type: 'submit', id: 'create-submit' }, t('create.submit')));
}

function tableRow(app, summary) {
  const taken = summary.seats.filter((s) => s.bot || s.player).length;
  const names = summary.seats.map((s) => (s.bot ? t('table.bot') : s.name || '—')).join(' · ');
  return h('li', { class: 'public-table', dataset: { code: summary.code } },
    h('div', { class: 'public-main' },
      h('strong', {}, t(`game.${summary.game}`)), ' ', h('span', { class: 'code' }, summary.code),
      h('span', { class: 'muted' }, ` · ${t(`lobby.state.${summary.state}`)} · ${t('lobby.seats', { n: taken })}`)),
    h('div', { class: 'public-detail muted' }, names),
    h('div', { class: 'public-detail' }, optionsSummary(summary.options),
      summary.host ? h('span', { class: 'muted' }, ` · ${t('lobby.hostBy', { name: summary.host })}`) : null,
      summary.hands_played ? h('span', { class: 'muted' }, ` · ${t('lobby.hands', { n: summary.hands_played })}`) : null),
    h('button', { type: 'button', class: 'join-public', dataset: { focus: `join-${summary.code}` },
      onclick: () => app.navigate(`#/t/${summary.code}`) }, t('lobby.join')));
}

export function mountLobby(container, app) {
  const named = Boolean(app.state.name) && !app.state.editingName;
  replace(container, h('div', { id: 'lobby', class: 'lobby' },
    named ? h('div', { class: 'greeting card', id: 'greeting' }) : nameForm(app),
    accountCard(app),
    named ? h('section', { class: 'card', id: 'public-section', 'aria-labelledby': 'public-title' },
      h('div', { class: 'section-head' },
        h('h2', { id: 'public-title' }, t('lobby.tablesTitle')),
        h('button', { type: 'button', class: 'secondary', id: 'refresh-tables', onclick: () => app.refreshTables() }, t('lobby.refresh'))),
      h('ul', { id: 'public-tables', class: 'public-tables' })) : null,
    named ? joinForm(app) : null,
    named ? createForm(app) : null));
}

export function updateLobby(container, app) {
  const greeting = container.querySelector('#greeting');
  if (greeting) {
    const account = app.account();
    replace(greeting,
      h('span', {}, t('lobby.hello', { name: app.state.name })),
      account ? h('span', { class: 'badge-account', id: 'greeting-account' }, t('lobby.account', { account })) : null,
      h('button', { type: 'button', class: 'link', id: 'change-name', onclick: () => app.editName() }, t('lobby.nameChange')));
  }
  const list = container.querySelector('#public-tables');
  if (list) {
    const tables = app.state.publicTables || [];
    replace(list, tables.length ? tables.map((s) => tableRow(app, s)) : h('li', { class: 'muted' }, t('lobby.noTables')));
  }
}
