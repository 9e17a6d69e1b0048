/*
 * page — rules.html: the rules of one game (?game=NAME, a game of games/registry.js that has a
 * rules page; the first such game when the name is missing or unknown) in the client's language,
 * with a switch between the languages (the choice is kept where i18n.js keeps it, so the lobby
 * follows it too) and links between the games.
 *
 * The rules are the game's data (its module's `rules`: content per language and a glossary):
 * sections numbered as in docs/rules, each a list of blocks drawn by drawBlock() below, or by
 * the game for its own kinds (a tile chart, rows of tiles). A section is <section id="sN">, so
 * rules.html?game=NAME#s4 opens at §4; "§N" inside the text links to that section.
 */
import { LANGS, initialLang, setLang, t } from '../i18n.js';
import { h, replace } from '../dom.js';
import { knownGames } from '../games/registry.js';
import { PAGE_LANGS, say } from './strings.js';

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; /* storage refused: the choice lasts as long as the page */
  }
}

/* The games with a rules page, in the registry's order. */
export function rulesGames() {
  return knownGames().filter((g) => g.rules);
}

/* The game the address asks for, or the first with a rules page. */
export function gameOf(search) {
  const asked = new URLSearchParams(search).get('game');
  const games = rulesGames();
  return games.find((g) => g.name === asked) || games[0];
}

/* Text with "§N" as links to the sections of this page and **words** in bold. */
function inline(text) {
  return String(text).split(/(\*\*[^*]+\*\*|§\d+)/).filter(Boolean).map((part) => {
    if (part.startsWith('**')) return h('strong', {}, part.slice(2, -2));
    const m = /^§(\d+)$/.exec(part);
    return m ? h('a', { href: `#s${m[1]}`, class: 'section-ref' }, part) : part;
  });
}

function drawTable(table) {
  /* three columns or more are stacked into cards on a phone, each cell labelled by its column */
  const head = table.head || [];
  return h('div', { class: 'table-wrap' }, h('table', { class: `rules-table${head.length >= 3 ? ' rules-table-stack' : ''}` },
    head.length ? h('thead', {}, h('tr', {}, head.map((c) => h('th', { scope: 'col' }, inline(c))))) : null,
    h('tbody', {}, table.rows.map((row) => h('tr', {}, row.map((c, i) => h('td', { dataset: { label: head[i] || '' } }, inline(c))))))));
}

/* One block of a section's body: text, a list, a table, short pairs (a name and its figure), a
 * worked example, or one of the game's. */
function drawBlock(block, rules, lang) {
  if (block.p) return h('p', {}, inline(block.p));
  if (block.h3) return h('h3', {}, inline(block.h3));
  if (block.note) return h('p', { class: 'rules-note' }, inline(block.note));
  if (block.list) return h('ul', {}, block.list.map((item) => h('li', {}, inline(item))));
  if (block.table) return drawTable(block.table);
  if (block.pairs) {
    return h('dl', { class: 'pairs-grid' }, block.pairs.map(([term, value]) => h('div', { class: 'pair' },
      h('dt', {}, inline(term)), h('dd', {}, inline(value)))));
  }
  if (block.example) {
    return h('div', { class: 'worked-example' }, h('h4', {}, inline(block.example.title)),
      h('ul', {}, block.example.lines.map((line) => h('li', {}, inline(line)))));
  }
  if (block.chart) return rules.chart(lang);
  const own = Object.keys(rules.blocks || {}).find((key) => block[key] !== undefined);
  return own ? rules.blocks[own](block[own], lang) : null;
}

function drawSection(section, rules, lang) {
  return h('section', { id: `s${section.n}`, class: 'rules-section', dataset: { section: String(section.n) }, 'aria-labelledby': `s${section.n}-title` },
    h('h2', { id: `s${section.n}-title` }, h('span', { class: 'section-no' }, `§${section.n}`), ' ', section.title),
    section.body.map((block) => drawBlock(block, rules, lang)),
    h('p', { class: 'to-top' }, h('a', { href: '#main' }, say(lang, 'page.top'))));
}

/* A term in 繁體 and 简体 (once when they are written alike), the page's own script first. */
function termsOf(entry, lang) {
  const hant = h('span', { class: 'term-zh', lang: 'zh-Hant' }, entry.hant);
  if (entry.hans === entry.hant) return [hant];
  const hans = h('span', { class: 'term-zh', lang: 'zh-Hans' }, entry.hans);
  return lang === 'zh-Hans' ? [hans, hant] : [hant, hans];
}

function drawGlossary(entries, lang) {
  return h('section', { id: 'glossary', class: 'rules-section glossary', 'aria-labelledby': 'glossary-title' },
    h('h2', { id: 'glossary-title' }, say(lang, 'glossary.title')),
    h('p', {}, say(lang, 'glossary.intro')),
    h('dl', { class: 'glossary-list' }, entries.map((e) => h('div', { class: 'glossary-entry', dataset: { term: e.hant } },
      h('dt', {}, termsOf(e, lang), h('span', { class: 'term-en', lang: 'en' }, e.en)),
      h('dd', {}, inline(e.meaning[lang] || e.meaning.en),
        e.section ? [' ', h('a', { href: `#s${e.section}`, class: 'section-ref' }, `§${e.section}`)] : null)))));
}

function drawSwitch(lang, onPick) {
  const nav = document.getElementById('lang-switch');
  replace(nav, LANGS.filter((l) => PAGE_LANGS.includes(l.code)).map((l) => h('button', {
    type: 'button', class: `lang${l.code === lang ? ' active' : ''}`, lang: l.code, 'aria-pressed': l.code === lang ? 'true' : 'false',
    dataset: { lang: l.code }, title: l.label, onclick: () => onPick(l.code),
  }, l.label)));
  nav.setAttribute('aria-label', say(lang, 'lang.label'));
}

async function render(game, lang) {
  const [rules, glossary] = await Promise.all([game.rules.load(lang), game.rules.glossary()]);
  const title = say(lang, 'page.title', { game: t(game.titleKey) });
  document.title = `${title} · ${t('app.title')}`;
  document.getElementById('brand-title').textContent = t('app.title');
  document.getElementById('brand-subtitle').textContent = say(lang, 'page.back');
  const main = document.getElementById('main');
  main.dataset.game = game.name;
  main.dataset.lang = lang;
  replace(main,
    h('nav', { class: 'rules-games', 'aria-label': say(lang, 'page.games') }, rulesGames().map((g) =>
      h('a', { href: `?game=${encodeURIComponent(g.name)}`, 'aria-current': g === game ? 'page' : null, dataset: { game: g.name } }, t(g.titleKey)))),
    h('h1', { id: 'rules-title' }, title),
    rules.intro.map((p) => h('p', { class: 'rules-intro' }, inline(p))),
    h('p', { class: 'muted' }, say(lang, 'page.source')),
    h('nav', { class: 'rules-toc', 'aria-labelledby': 'toc-title' },
      h('h2', { id: 'toc-title' }, say(lang, 'page.contents')),
      h('ol', {}, rules.sections.map((s) => h('li', {}, h('a', { href: `#s${s.n}` }, `§${s.n} ${s.title}`))),
        h('li', {}, h('a', { href: '#glossary' }, say(lang, 'glossary.title'))))),
    rules.sections.map((s) => drawSection(s, game.rules, lang)),
    drawGlossary(glossary, lang));
}

/* The section the address names, brought into view once the page is drawn (it was not there at load). */
function showTarget() {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id && document.getElementById(id);
  if (target) target.scrollIntoView({ block: 'start' });
}

/* Every known game's stylesheet: its tiles are drawn here as at the table. */
function loadStylesheets() {
  return Promise.all(knownGames().filter((g) => g.stylesheet).map((g) => new Promise((resolve) => {
    const link = h('link', { rel: 'stylesheet', href: g.stylesheet, onload: resolve, onerror: resolve });
    document.querySelector('link[href="css/rules.css"]').before(link);
  })));
}

async function start() {
  const store = storage();
  const game = gameOf(location.search);
  let lang = initialLang(store, navigator.languages);
  const pick = async (code) => {
    setLang(code, store);
    lang = code;
    drawSwitch(lang, pick);
    await render(game, lang);
    showTarget();
  };
  setLang(lang, null);
  drawSwitch(lang, pick);
  await Promise.all([loadStylesheets(), render(game, lang)]);
  document.body.dataset.ready = 'true';
  showTarget();
}

start();
