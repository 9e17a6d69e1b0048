/*
 * rules_pages — the rules page of each game (rules.html?game=…): it opens in 繁體中文, 简体中文
 * and English with the sections §1–§7 of the rules of record and a tile chart drawn with the
 * client's tiles (Tien Gow: 32 tiles in 21 kinds; Tianjin: the 34 kinds), its glossary holds the
 * terms a player meets, the lobby and the table bar link to it, a "rules §N" of the client lands
 * on section N, the page's language switch is the client's, and a phone never scrolls sideways.
 * Every page is also watched for errors, a refused script or style (the server's strict CSP)
 * included.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createTable, enterName, launchBrowser, openPage, playToSettlement, startServer } from './harness.js';

const LANGS = ['en', 'zh-Hant', 'zh-Hans'];
const TITLE_WORD = { en: 'the rules', 'zh-Hant': '規則', 'zh-Hans': '规则' };

/* What each page must show: tiles drawn and kinds in the chart, glossary terms (繁體 and 简体). */
const GAMES = {
  tiengow: {
    tiles: 32, kinds: 21,
    hant: ['擒', '四大賀', '空棟', '例牌', '棟', '莊', '至尊', '天九', '墊', '賀尊', '么結'],
    hans: ['四大贺', '空栋', '栋', '庄', '垫', '贺尊', '幺结'],
  },
  tianjin: {
    tiles: 34, kinds: 34,
    hant: ['混兒', '坐莊', '拉莊', '鏟', '金槓', '槓開', '素（沒混）', '龍', '混兒吊', '刮大風', '捉五', '本混'],
    hans: ['混儿', '坐庄', '拉庄', '铲', '金杠', '杠开', '龙', '混儿吊', '刮大风'],
  },
};

/* Collects what the browser reports as an error: script errors, failed loads, CSP refusals. */
function watchErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}

/* A page of its own at that size, its language chosen as the client keeps it. */
async function rulesPage(browser, url, { game, lang, hash = '', viewport = { width: 1280, height: 900 } }) {
  const context = await browser.newContext({ viewport, locale: 'en-US' });
  /* the first visit only: a choice made on the page must outlive the next load */
  await context.addInitScript((l) => {
    if (!window.localStorage.getItem('teahouse.lang')) window.localStorage.setItem('teahouse.lang', l);
  }, lang);
  const page = await context.newPage();
  page.setDefaultTimeout(20000);
  const errors = watchErrors(page);
  await page.goto(`${url}/rules.html?game=${game}${hash}`);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, errors, context };
}

/* The page that a click opens in a new tab, once drawn. */
async function followToNewTab(page, selector) {
  const [opened] = await Promise.all([page.context().waitForEvent('page'), page.click(selector)]);
  const errors = watchErrors(opened);
  await opened.waitForSelector('body[data-ready="true"]');
  return { opened, errors };
}

/* Where section N's top is in the window, in px from the top. */
function sectionTop(page, n) {
  return page.$eval(`#s${n}`, (el) => el.getBoundingClientRect().top);
}

describe('the rules pages', () => {
  let server;
  let browser;
  before(async () => {
    server = await startServer(['--next-hand-seconds', '60']);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [game, want] of Object.entries(GAMES)) {
    for (const lang of LANGS) {
      it(`opens ${game} in ${lang} with §1–§7, the tile chart and the glossary, and fits a 375 px phone`, async () => {
        const { page, errors, context } = await rulesPage(browser, server.url, { game, lang });
        assert.equal(await page.getAttribute('html', 'lang'), lang);
        assert.equal(await page.getAttribute('main', 'data-game'), game);
        assert.ok((await page.innerText('h1')).includes(TITLE_WORD[lang]), 'the title is in the chosen language');
        const headings = await page.$$eval('section.rules-section[id^="s"] > h2', (hs) => hs.map((h2) => [h2.parentElement.id, h2.innerText]));
        assert.deepEqual(headings.map(([id]) => id), ['s1', 's2', 's3', 's4', 's5', 's6', 's7']);
        headings.forEach(([id, text]) => assert.ok(text.startsWith(`§${id.slice(1)} `), `${id} is headed ${text}`));
        const tocLinks = await page.$$eval('.rules-toc a', (as) => as.map((a) => a.getAttribute('href')));
        assert.deepEqual(tocLinks, ['#s1', '#s2', '#s3', '#s4', '#s5', '#s6', '#s7', '#glossary']);

        /* the chart of §1: every tile drawn as an SVG picture of the client's */
        assert.equal(await page.locator('#s1 #tile-chart').count(), 1, 'the chart is in §1');
        assert.equal(await page.locator('#tile-chart .chart-tile svg').count(), want.tiles);
        assert.equal(await page.locator('#tile-chart .chart-kind').count(), want.kinds);
        const kinds = await page.$$eval('#tile-chart .chart-kind', (ks) => ks.map((k) => k.dataset.kind));
        assert.equal(new Set(kinds).size, want.kinds, 'no kind is drawn twice');
        const size = await page.$eval('#tile-chart .chart-tile svg', (svg) => svg.getBoundingClientRect());
        assert.ok(size.width >= 20 && size.height >= 30, `a tile is drawn large enough to read (${size.width}×${size.height})`);

        const terms = await page.$$eval('#glossary .glossary-entry dt', (dts) => dts.map((dt) => dt.innerText));
        const all = terms.join('\n');
        for (const term of [...want.hant, ...want.hans]) assert.ok(all.includes(term), `the glossary has ${term}`);
        const meanings = await page.$$eval('#glossary dd', (dds) => dds.map((dd) => dd.innerText.trim()));
        assert.equal(meanings.length, terms.length);
        assert.ok(meanings.every((m) => m.length > 10), 'every term has a line of meaning');

        /* a phone: nothing reaches past the right edge, so the page never scrolls sideways */
        await page.setViewportSize({ width: 375, height: 667 });
        const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
        assert.ok(widths[0] <= widths[1], `the page is ${widths[0]} px wide in a ${widths[1]} px window`);
        const widest = await page.$$eval('main *', (els) => Math.max(...els.map((el) => el.getBoundingClientRect().right)));
        assert.ok(widest <= 375, `nothing reaches past the right edge (${widest})`);
        assert.deepEqual(errors, []);
        await context.close();
      });
    }
  }

  it('opens at the section its address names and links the sections cited in its text', async () => {
    const { page, errors, context } = await rulesPage(browser, server.url, { game: 'tianjin', lang: 'en', hash: '#s5' });
    const top = await sectionTop(page, 5);
    assert.ok(Math.abs(top) < 40, `§5 is at the top of the window (${top})`);
    assert.ok(await sectionTop(page, 1) < 0, '§1 is scrolled past');
    await page.click('#s2 a.section-ref[href="#s5"]');
    await page.waitForFunction(() => location.hash === '#s5');
    assert.ok(Math.abs(await sectionTop(page, 5)) < 40, 'a §5 in the text leads to §5');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('falls back to the first game for a name it does not know, and switches games and languages', async () => {
    const { page, errors, context } = await rulesPage(browser, server.url, { game: '<script>x', lang: 'en' });
    assert.equal(await page.getAttribute('main', 'data-game'), 'tiengow');
    await page.click('.rules-games a[data-game="tianjin"]');
    await page.waitForSelector('main[data-game="tianjin"]');
    await page.click('#lang-switch [data-lang="zh-Hans"]');
    await page.waitForSelector('main[data-lang="zh-Hans"]');
    assert.match(await page.innerText('#s2 h2'), /混儿/);
    assert.equal(await page.evaluate(() => localStorage.getItem('teahouse.lang')), 'zh-Hans', 'the choice is kept as the client keeps it');
    /* the lobby opens in the language chosen on the rules page */
    await page.goto(`${server.url}/`);
    await page.waitForSelector('#name-submit');
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-Hans');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('is linked from the lobby, per game offered, and its "rules §7" lands on §7 of the chosen game', async () => {
    const page = await openPage(browser, server.url);
    await enterName(page, 'Reader');
    const offered = await page.$$eval('#create-game option', (os) => os.map((o) => o.value));
    const links = await page.$$eval('#create-rules a', (as) => as.map((a) => [a.dataset.rulesGame, a.getAttribute('href'), a.innerText]));
    assert.deepEqual(links.map(([g]) => g), offered, 'one link per game the lobby offers');
    assert.ok(links.every(([g, href, text]) => href === `rules.html?game=${g}` && text.startsWith('Rules of ')));
    const { opened, errors } = await followToNewTab(page, `#create-rules a[data-rules-game="${offered.at(-1)}"]`);
    assert.equal(await opened.getAttribute('main', 'data-game'), offered.at(-1));
    await opened.close();

    /* the options' "rules §7" follows the game chosen in the form */
    for (const game of [...offered].reverse()) {
      await page.selectOption('#create-game', game);
      assert.equal(await page.getAttribute('details.rules summary a.rules-link', 'href'), `rules.html?game=${game}#s7`);
    }
    const section = await followToNewTab(page, 'details.rules summary a.rules-link');
    assert.equal(await section.opened.getAttribute('main', 'data-game'), offered[0]);
    assert.ok(Math.abs(await sectionTop(section.opened, 7)) < 40, '§7 is at the top of the window');
    assert.deepEqual([...errors, ...section.errors, ...page.errors], []);
    await page.context().close();
  });

  it('is linked from the table bar, in the player\'s language, and a settlement\'s "rules §4" lands on §4', async () => {
    const page = await openPage(browser, server.url);
    await enterName(page, 'Player');
    await page.click('[data-lang="zh-Hant"]');
    await createTable(page);
    assert.equal((await page.innerText('#table-bar a.rules-link')).trim(), '規則');
    const bar = await followToNewTab(page, '#table-bar a.rules-link');
    assert.equal(await bar.opened.getAttribute('main', 'data-game'), 'tiengow');
    assert.equal(await bar.opened.getAttribute('html', 'lang'), 'zh-Hant', 'the page follows the client\'s language');
    await bar.opened.close();

    await page.click('#fill-bots');
    await page.waitForSelector('#start-hand:not([disabled])');
    await page.click('#start-hand');
    await page.waitForSelector('#table-page[data-phase="playing"]');
    await playToSettlement(page, 1);
    await page.waitForSelector('#settlement a.rules-link[data-rules-section="4"]');
    assert.equal(await page.innerText('#settlement a.rules-link[data-rules-section="4"]'), '規則 §4');
    const settled = await followToNewTab(page, '#settlement a.rules-link[data-rules-section="4"]');
    assert.ok(settled.opened.url().endsWith('rules.html?game=tiengow#s4'));
    assert.ok(Math.abs(await sectionTop(settled.opened, 4)) < 40, '§4 is at the top of the window');
    assert.deepEqual([...bar.errors, ...settled.errors, ...page.errors], []);
    await page.context().close();
  });
});
