/*
 * tianjin_tiles — the Tianjin module's drawing in Chromium, without a server: a small static
 * server gives the web client and pages/tianjin_board.js, a page with all 34 tiles, the wild and
 * indicator marks, a sample table (seats, indicator, wilds, melds, rivers, the player's hand
 * with a drawn wild) and a settlement. It checks the tiles are distinct and named in the
 * page's language, the hand is sorted with the drawn tile apart, a tile is discarded by a click
 * or by Enter on it with the act the module sends, the option editor reads back what it shows, and nothing is wider than
 * a 375 px phone; it saves desktop and phone screenshots to test-output/tianjin-*.png.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

import { OUTPUT, ROOT, WEB_ROOT, launchBrowser } from './harness.js';

const PAGES = path.join(ROOT, 'tests', 'browser', 'pages');
const TYPES = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.svg': 'image/svg+xml' };

const PAGE = `<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/css/teahouse.css"><link rel="stylesheet" href="/js/games/tianjin/tianjin.css">
<style>main{display:grid;gap:.6rem} .tile-grid{display:flex;flex-wrap:wrap;gap:6px}</style></head>
<body><main id="root"></main><script type="module" src="/pages/tianjin_board.js"></script></body></html>`;

/* Serves the page, the web client and pages/; resolves with its address. */
function startStatic() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204);
      res.end();
      return;
    }
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PAGE);
      return;
    }
    const root = url.pathname.startsWith('/pages/') ? PAGES : WEB_ROOT;
    const rel = url.pathname.startsWith('/pages/') ? url.pathname.slice('/pages/'.length) : url.pathname.slice(1);
    const file = path.resolve(root, rel);
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file)) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': `${TYPES[path.extname(file)] || 'application/octet-stream'}; charset=utf-8` });
    res.end(fs.readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('Tianjin tiles and table in Chromium', () => {
  let server;
  let base;
  let browser;
  before(async () => {
    server = await startStatic();
    base = `http://127.0.0.1:${server.address().port}`;
    browser = await launchBrowser();
    fs.mkdirSync(OUTPUT, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
  });

  async function open(lang, width) {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${base}/?lang=${lang}`);
    await page.waitForSelector('body[data-ready="true"]');
    page.errors = errors;
    return page;
  }

  it('draws 34 distinct tiles, each named in the page\'s language, at a legible size', async () => {
    const page = await open('zh-Hans', 1100);
    const tiles = await page.$$eval('#all-tiles .mj-tile', (els) => els.map((el) => ({
      tile: el.dataset.tile, label: el.getAttribute('aria-label'), svg: el.innerHTML,
      width: el.getBoundingClientRect().width, height: el.getBoundingClientRect().height })));
    assert.equal(tiles.length, 34);
    assert.equal(new Set(tiles.map((x) => x.tile)).size, 34);
    assert.equal(new Set(tiles.map((x) => x.svg)).size, 34, 'every kind has its own drawing');
    assert.equal(new Set(tiles.map((x) => x.label)).size, 34);
    const byTile = Object.fromEntries(tiles.map((x) => [x.tile, x.label]));
    assert.equal(byTile['5m'], '五万');
    assert.equal(byTile['1s'], '一条');
    assert.equal(byTile.E, '东');
    assert.equal(byTile.F, '发');
    for (const x of tiles) {
      assert.ok(x.width >= 28 && x.width <= 56, `${x.tile} is ${x.width} px wide`);
      assert.ok(x.height > x.width, `${x.tile} stands upright`);
    }
    assert.deepEqual(page.errors, []);
    await page.screenshot({ path: path.join(OUTPUT, 'tianjin-desktop-zh-Hans.png'), fullPage: true });
    await page.context().close();
  });

  it('marks the wilds and the indicator in the drawing and in their names', async () => {
    const page = await open('zh-Hant', 1100);
    const marks = await page.$$eval('#marks .mj-tile', (els) => els.map((el) => ({ label: el.getAttribute('aria-label'),
      cls: el.querySelector('svg').getAttribute('class') })));
    assert.deepEqual(marks.map((m) => m.label), ['五萬, 混兒', '東, 混兒', '四萬, 翻出的牌', '背面朝上的牌']);
    assert.deepEqual(marks.map((m) => m.cls), ['mj-face mj-wild', 'mj-face mj-wild', 'mj-face mj-indicator', 'mj-face mj-back']);
    assert.equal(await page.getAttribute('.mj-indicator .mj-tile', 'data-tile'), '4m');
    assert.deepEqual(await page.$$eval('.mj-wilds .mj-tile', (els) => els.map((el) => el.dataset.tile)), ['4m', '5m']);
    await page.context().close();
  });

  it('shows the hand sorted with the wilds first and the drawn tile apart, and discards a chosen tile', async () => {
    const page = await open('en', 1100);
    const hand = await page.$$eval('#mj-hand > .mj-row .mj-tile', (els) => els.map((el) => el.dataset.tile));
    assert.deepEqual(hand, ['5m', '2m', '3m', '9m', '7p', '7p', '7p', '7p', '1s', '2s', '3s', 'C', 'C']);
    assert.equal(await page.getAttribute('#mj-hand .mj-drawn .mj-tile', 'data-tile'), '4m');
    assert.match(await page.getAttribute('#mj-hand .mj-drawn .mj-tile', 'aria-label'), /^Characters 4 四萬, wild 混儿$/);
    assert.deepEqual(await page.$$eval('.mj-actions button[data-act]', (els) => els.map((el) => el.textContent)),
      ['Win 自摸', 'Concealed kong 暗杠 Dots 7 七筒']);
    assert.equal(await page.$$eval('.mj-area', (els) => els.length), 4);
    assert.equal(await page.textContent('#mj-wall'), '61 tiles left in the wall');
    await page.screenshot({ path: path.join(OUTPUT, 'tianjin-desktop-en.png'), fullPage: true });

    await page.click('#mj-hand > .mj-row .mj-tile[data-tile="9m"]');
    await page.focus('#mj-hand .mj-drawn .mj-tile');
    await page.keyboard.press('Enter');
    await page.click('.mj-actions button[data-act="concealed_kong"]');
    assert.deepEqual(await page.evaluate(() => window.tj.sent), [{ discard: '9m' }, { discard: '4m' }, { concealed_kong: '7p' }]);
    await page.context().close();
  });

  it('explains the settlement: fans, their total and each payment with its banker factors', async () => {
    const page = await open('en', 1100);
    assert.deepEqual(await page.$$eval('.mj-fans li', (els) => els.map((el) => el.dataset.fan)), ['su', 'zhuo_wu', 'gang_kai', 'long']);
    assert.equal(await page.textContent('.mj-fan-total'), 'Total: 2 × (3 + 4) × 2 = 28 fan');
    const first = await page.textContent('.mj-payment');
    assert.match(first, /South · Bot South pays East · Ah Ma 112 = 28 fan × base 1 × 2 坐庄 × 2 拉庄 — self-drawn win \(自摸\)/);
    assert.match(await page.textContent('.mj-payment:nth-child(4)'), /South · Bot South pays East · Ah Ma 4 = 1 fan × base 1 × 2 坐庄 × 2 拉庄 — exposed kong \(明杠\)/);
    assert.equal(await page.getAttribute('#mj-reading .mj-win-tile', 'data-tile'), '5m', 'the winning tile is marked');
    assert.equal(await page.$$eval('#mj-reading .mj-meld-exposed', (els) => els.length), 1, 'the exposed kong is set apart');
    assert.match(await page.textContent('#settlement .settle-next'), /East · Ah Ma banks next and must sit/);
    await page.context().close();
  });

  it('reads back from the option editor what it shows, 刮大风 included', async () => {
    const page = await open('zh-Hant', 1100);
    const defaults = await page.evaluate(() => window.tj.readOptions());
    assert.deepEqual(defaults, { gua_da_feng: false, wild_discard_penalty: false, gold_kong_fan: 8, chan: false, must_sit: false,
      max_pulls: 1, no_replacement: 'draw', base: 1, claim_seconds: 5 });
    const chosen = { gua_da_feng: true, wild_discard_penalty: true, gold_kong_fan: 0, chan: true, must_sit: true, max_pulls: 2,
      no_replacement: 'skip_indicator', base: 50, claim_seconds: 12 };
    assert.deepEqual(await page.evaluate((o) => { window.tj.redrawOptions(o); return window.tj.readOptions(); }, chosen), chosen);
    await page.evaluate(() => window.tj.redrawOptions({}));
    await page.check('#opt-gua_da_feng-true');
    await page.selectOption('#opt-gold_kong_fan', '4');
    await page.fill('#opt-base', '3');
    const read = await page.evaluate(() => window.tj.readOptions());
    assert.equal(read.gua_da_feng, true);
    assert.equal(read.gold_kong_fan, 4);
    assert.equal(read.base, 3);
    assert.match(await page.textContent('label[for="opt-gua_da_feng-true"]'), /^刮大風：/);
    await page.context().close();
  });

  it('fits a 375 px phone, the hand in rows of legible tiles', async () => {
    const page = await open('zh-Hans', 375);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page is ${overflow} px wider than the phone`);
    const widths = await page.$$eval('#mj-hand .mj-tile', (els) => els.map((el) => el.getBoundingClientRect().width));
    assert.ok(widths.every((w) => w >= 28), `hand tiles ${widths}`);
    await page.screenshot({ path: path.join(OUTPUT, 'tianjin-phone-zh-Hans.png'), fullPage: true });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
