/*
 * page — rules.html: the rules of one game (?game=tiengow or ?game=tianjin; Tien Gow when the
 * name is missing or unknown) in the client's language, with a switch between the languages
 * (the choice is kept where i18n.js keeps it, so the lobby follows it too) and between games.
 *
 * The rules are data (./<game>/<lang>.js and ./<game>/glossary.js): sections numbered as in
 * docs/rules, each a list of blocks drawn by draw() below. A section is <section id="sN">, so
 * rules.html?game=tiengow#s4 opens at §4; "§N" inside the text links to that section.
 */
import { LANGS, initialLang, setLang } from '../i18n.js';
import { h, replace } from '../dom.js';
import { RULES_GAMES } from './links.js';
import { comboRow, mjRow, tileChart } from './charts.js';
import { PAGE_LANGS, say } from './strings.js';

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; /* storage refused: the choice lasts as long as the page */
  }
}

/* The game asked for in the address, or the first one. */
export function gameOf(search) {
  const asked = new URLSearchParams(search).get('game');
  return RULES_GAMES.includes(asked) ? asked : RULES_GAMES[0];
}

/* Text with "§N" as links to the sections of this page and **words** in bold. */
function inline(text) {
  return String(text).split(/(\*\*[^*]+\*\*|§\d+)/).filter(Boolean).map((part) => {
    if (part.startsWith('**')) return h('strong', {}, part.slice(2, -2));
    const m = /^§(\d+)$/.exec(part);
    return m ? h('a', { href: `#s${m[1]}`, class: 'section-ref' }, part) : part;
  });
}

/* One block of a section's body. */
function draw(block, game, lang) {
  if (block.p) return h('p', {}, inline(block.p));
  if (block.h3) return h('h3', {}, inline(block.h3));
  if (block.note) return h('p', { class: 'rules-note' }, inline(block.note));
  if (block.list) return h('ul', {}, block.list.map((item) => h('li', {}, inline(item))));
  if (block.table) {
    /* three columns or more are stacked into cards on a phone, each cell labelled by its column */
    const head = block.table.head || [];
    return h('div', { class: 'table-wrap' }, h('table', { class: `rules-table${head.length >= 3 ? ' rules-table-stack' : ''}` },
      head.length ? h('thead', {}, h('tr', {}, head.map((c) => h('th', { scope: 'col' }, inline(c))))) : null,
      h('tbody', {}, block.table.rows.map((row) => h('tr', {}, row.map((c, i) => h('td', { dataset: { label: head[i] || '' } }, inline(c))))))));
  }
  if (block.chart) return tileChart(game, lang);
  if (block.combos) return comboRow(block.combos, lang);
  if (block.mj) return h('div', { class: 'mj-examples' }, block.mj.map((spec) => mjRow(spec, lang)));
  if (block.example) {
    return h('div', { class: 'worked-example' }, h('h4', {}, inline(block.example.title)),
      h('ul', {}, block.example.lines.map((line) => h('li', {}, inline(line)))));
  }
  return null;
}

function drawSection(section, game, lang) {
  return h('section', { id: `s${section.n}`, class: 'rules-section', dataset: { section: String(section.n) }, 'aria-labelledby': `s${section.n}-title` },
    h('h2', { id: `s${section.n}-title` }, h('span', { class: 'section-no' }, `§${section.n}`), ' ', section.title),
    section.body.map((block) => draw(block, game, lang)),
    h('p', { class: 'to-top' }, h('a', { href: '#main' }, say(lang, 'page.top'))));
}

function drawGlossary(entries, lang) {
  const meaningLang = lang;
  return h('section', { id: 'glossary', class: 'rules-section glossary', 'aria-labelledby': 'glossary-title' },
    h('h2', { id: 'glossary-title' }, say(lang, 'glossary.title')),
    h('p', {}, say(lang, 'glossary.intro')),
    h('dl', { class: 'glossary-list' }, entries.map((e) => h('div', { class: 'glossary-entry', dataset: { term: e.hant } },
      h('dt', {},
        h('span', { class: 'term-hant', lang: 'zh-Hant' }, e.hant),
        e.hans !== e.hant ? h('span', { class: 'term-hans', lang: 'zh-Hans' }, e.hans) : null,
        h('span', { class: 'term-en', lang: 'en' }, e.en)),
      h('dd', {}, inline(e.meaning[meaningLang]), e.section ? [' ', h('a', { href: `#s${e.section}`, class: 'section-ref' }, `§${e.section}`)] : null)))));
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
  const [{ default: rules }, { default: glossary }] = await Promise.all([
    import(`./${game}/${lang}.js`), import(`./${game}/glossary.js`)]);
  const title = say(lang, 'page.title', { game: say(lang, `game.${game}`) });
  document.title = `${title} · Teahouse`;
  document.getElementById('brand-subtitle').textContent = say(lang, 'page.back');
  const main = document.getElementById('main');
  main.dataset.game = game;
  main.dataset.lang = lang;
  replace(main,
    h('nav', { class: 'rules-games', 'aria-label': say(lang, 'page.games') }, RULES_GAMES.map((g) =>
      h('a', { href: `?game=${g}`, 'aria-current': g === game ? 'page' : null, dataset: { game: g } }, say(lang, `game.${g}`)))),
    h('h1', { id: 'rules-title' }, title),
    rules.intro.map((p) => h('p', { class: 'rules-intro' }, inline(p))),
    h('p', { class: 'muted' }, say(lang, 'page.source')),
    h('nav', { class: 'rules-toc', 'aria-labelledby': 'toc-title' },
      h('h2', { id: 'toc-title' }, say(lang, 'page.contents')),
      h('ol', {}, rules.sections.map((s) => h('li', {}, h('a', { href: `#s${s.n}` }, `§${s.n} ${s.title}`))),
        h('li', {}, h('a', { href: '#glossary' }, say(lang, 'glossary.title'))))),
    rules.sections.map((s) => drawSection(s, game, lang)),
    drawGlossary(glossary, lang));
}

/* The section the address names, brought into view once the page is drawn (it was not there at load). */
function showTarget() {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id && document.getElementById(id);
  if (target) target.scrollIntoView({ block: 'start' });
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
  await render(game, lang);
  document.body.dataset.ready = 'true';
  showTarget();
}

start();
