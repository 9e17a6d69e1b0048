/*
 * main — the admin app: reads the hash (#/ledger?table=3, #/players/12, #/hands/40, …), draws
 * that page into <main>, keeps the header (nav, the session, the language switch) current, and
 * sends the page to login when there is no session or the server answers 403.
 *
 * A page module exports render(ctx) and may return a function that stops what it started (the
 * live page's timer, the integrity page's polling); the router calls it when the page changes.
 * ctx: {main, path parts, query (URLSearchParams), go(hash), relabel, rerender()}.
 */
import { h, replace } from '../dom.js';
import { LANGS, initialLang, lang, onLangChange, setLang, t } from '../i18n.js';
import './strings.js';
import { api, onForbidden, session, setSession } from './api.js';
import { loadGames } from './games.js';
import * as login from './pages/login.js';
import * as ledger from './pages/ledger.js';
import * as players from './pages/players.js';
import * as tables from './pages/tables.js';
import * as hand from './pages/hand.js';
import * as integrity from './pages/integrity.js';
import * as audit from './pages/audit.js';
import * as live from './pages/live.js';

const storage = (() => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
})();

const NAV = [
  { page: 'ledger', key: 'adm.nav.ledger' },
  { page: 'players', key: 'adm.nav.players' },
  { page: 'tables', key: 'adm.nav.tables' },
  { page: 'integrity', key: 'adm.nav.integrity' },
  { page: 'audit', key: 'adm.nav.audit' },
  { page: 'live', key: 'adm.nav.live' },
];

const PAGES = { login, ledger, players, tables, hands: hand, integrity, audit, live };

let stopPage = null;
let afterLogin = '#/ledger';

/* #/players/12?x=1 → {parts: ['players', '12'], query} */
export function parseHash(hash) {
  const text = (hash || '').replace(/^#\/?/, '');
  const [path, search] = text.split('?');
  const parts = path.split('/').filter(Boolean).map((p) => decodeURIComponent(p));
  return { parts, query: new URLSearchParams(search || '') };
}

function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function renderHeader(page) {
  const nav = NAV.find((n) => n.page === page || (page === 'hands' && n.page === 'tables'));
  const pageTitle = page === 'login' ? t('adm.login.title') : nav ? t(nav.key) : '';
  document.title = pageTitle ? `${pageTitle} · ${t('adm.title')}` : t('adm.title');
  document.getElementById('brand-title').textContent = t('adm.title');
  document.getElementById('brand-subtitle').textContent = t('adm.subtitle');
  document.querySelector('.skip-link').textContent = t('app.skip');
  const switcher = document.getElementById('lang-switch');
  replace(switcher, LANGS.map((l) => h('button', {
    type: 'button', class: `lang${l.code === lang() ? ' active' : ''}`, lang: l.code,
    'aria-pressed': l.code === lang() ? 'true' : 'false', dataset: { lang: l.code, focus: `lang-${l.code}` },
    title: l.label, onclick: () => setLang(l.code, storage),
  }, l.short)));
  switcher.setAttribute('aria-label', t('lang.label'));
  const s = session();
  const navBox = document.getElementById('admin-nav');
  navBox.setAttribute('aria-label', t('adm.nav.label'));
  replace(navBox, s ? NAV.map((n) => h('a', {
    href: `#/${n.page}`, class: n.page === page ? 'active' : null, 'aria-current': n.page === page ? 'page' : null,
    id: `nav-${n.page}`,
  }, t(n.key))) : []);
  const box = document.getElementById('admin-session');
  replace(box, s ? [
    h('span', { class: 'admin-who', id: 'admin-account' }, t('adm.session.as', { name: s.account })),
    h('button', { type: 'button', class: 'secondary small', id: 'logout-button', onclick: logout }, t('adm.session.logout')),
  ] : []);
}

async function logout() {
  try {
    await api('logout', { method: 'POST' });
  } catch { /* the session may be gone already: forgetting it is what matters */ }
  setSession(null);
  go('#/login');
}

function route(reason) {
  if (stopPage) stopPage();
  stopPage = null;
  const { parts, query } = parseHash(location.hash);
  let name = parts[0] || 'ledger';
  if (!PAGES[name]) name = 'ledger';
  if (name !== 'login' && !session()) {
    afterLogin = location.hash && !location.hash.startsWith('#/login') ? location.hash : '#/ledger';
    go('#/login');
    return;
  }
  renderHeader(name);
  const main = document.getElementById('admin-main');
  main.dataset.page = name;
  const ctx = {
    main, parts, query, go,
    afterLogin: () => afterLogin,
    /* true when the page is drawn again only for a new language: it may reuse what it fetched */
    relabel: reason === 'lang',
    rerender: route,
  };
  replace(main);
  const stop = PAGES[name].render(ctx);
  if (typeof stop === 'function') stopPage = stop;
}

onForbidden(() => {
  afterLogin = location.hash && !location.hash.startsWith('#/login') ? location.hash : '#/ledger';
  go('#/login?expired=1');
});

setLang(initialLang(storage, navigator.languages), null);
onLangChange(() => route('lang'));
window.addEventListener('hashchange', () => route());
window.teahouseAdmin = { parseHash };
/* the games' admin parts first: the ledger's reasons and every board come from them */
loadGames().then(() => route());
