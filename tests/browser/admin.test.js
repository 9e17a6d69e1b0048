/*
 * admin — the admin pages (web-client/admin.html) against the real server: an account that is
 * not an admin is told so at login; an admin (made one with `teahouse admin grant` on the
 * database, as an operator does) logs in after hands were played, filters the ledger to one
 * table and checks its totals and CSV against the rows, opens a hand and steps through its
 * replay, adds an adjustment with a reason (asked to confirm; the two rows shown) and finds it
 * in the ledger and the audit log. Nicknames go into the page as text, every POST carries the
 * anti-forgery token, and a session the server no longer knows sends the page back to login.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { createTable, enterName, launchBrowser, openPage, playToSettlement, screenshot, startServer } from './harness.js';

const PASSWORD = 'jasmine tea';

function serverBinary() {
  return path.resolve(process.env.TEAHOUSE_SERVER || 'build/server/teahouse');
}

/* Registers the lobby's guest as an account through the game client's own form. */
async function register(page, name) {
  await page.click('#show-register');
  await page.fill('#register-name', name);
  await page.fill('#register-password', PASSWORD);
  await page.fill('#register-confirm', PASSWORD);
  await page.click('#register-submit');
  await page.waitForSelector('#logout-button');
}

/* A player who registers, opens a Tien Gow table with three bots and plays one hand to the end. */
async function playOneHand(browser, url, nickname, account) {
  const page = await openPage(browser, url);
  await enterName(page, nickname);
  await register(page, account);
  const code = await createTable(page, { game: 'tiengow' });
  await page.click('#fill-bots');
  await page.waitForSelector('#start-hand:not([disabled])');
  await page.click('#start-hand');
  await page.waitForSelector('#table-page[data-phase="playing"]');
  await playToSettlement(page, 1);
  return { page, code };
}

async function openAdmin(browser, url, opts = {}) {
  const context = await browser.newContext({ viewport: opts.viewport || { width: 1280, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(20000);
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  /* the policy must let every script and style of the pages run: a violation is a test failure */
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/.test(m.text())) page.errors.push(m.text());
  });
  await page.goto(`${url}/admin.html`);
  await page.waitForSelector('#login-form');
  return page;
}

async function adminLogin(page, name, password = PASSWORD) {
  await page.fill('#login-name', name);
  await page.fill('#login-password', password);
  await page.click('#login-submit');
}

/* The rows of a table drawn by the pages, as {id, text of each cell}. */
function tableRows(page, id) {
  return page.$$eval(`#${id} tbody tr[data-row]`, (trs) => trs.map((tr) => ({
    id: Number(tr.dataset.row), reason: tr.dataset.reason, units: Number(tr.dataset.units),
    cells: [...tr.children].map((td) => td.innerText.trim()),
  })));
}

describe('admin pages', () => {
  let server;
  let browser;
  let dir;
  let db;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'teahouse-admin-'));
    db = path.join(dir, 'teahouse.db');
    /* a later --db wins: the test needs the file to run `teahouse admin grant` on it */
    server = await startServer(['--db', db]);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a non-admin plainly, then lets an admin read the ledger, replay a hand and adjust a balance', async () => {
    /* two players, each with a hand played at their own table */
    const mei = await playOneHand(browser, server.url, 'Mei', 'mei');
    const lan = await playOneHand(browser, server.url, '<i>Lan</i>', 'lan');
    execFileSync(serverBinary(), ['admin', 'grant', 'mei', '--db', db], { stdio: 'pipe' });

    const page = await openAdmin(browser, server.url);
    await screenshot(page, 'admin-login');

    /* a right password of an account that is no admin: said plainly */
    await adminLogin(page, 'lan');
    await page.waitForSelector('#login-error:not([hidden])');
    assert.match(await page.innerText('#login-error'), /lan is not an admin.*teahouse admin grant lan/);
    /* a wrong password is another message */
    await adminLogin(page, 'mei', 'not the password');
    await page.waitForSelector('#login-error:text("Wrong account name or password.")');
    assert.equal(await page.locator('#admin-nav a').count(), 0, 'no nav before login');

    /* every POST carries the token login answered */
    const posts = [];
    page.on('request', (r) => {
      if (r.method() === 'POST') posts.push({ url: r.url(), csrf: r.headers()['x-csrf-token'] });
    });
    let csrf = null;
    page.on('response', async (r) => {
      if (r.url().endsWith('/api/admin/login') && r.ok()) csrf = (await r.json()).csrf;
    });
    await adminLogin(page, 'mei');
    await page.waitForSelector('#ledger-rows tbody tr[data-row]');
    assert.equal(await page.innerText('#admin-account'), 'Admin mei');
    assert.ok(csrf, 'login answered a token');

    /* the whole ledger: both tables, newest first */
    const all = await tableRows(page, 'ledger-rows');
    const codes = new Set(all.map((r) => r.cells[1].split(' ')[0]));
    assert.ok(codes.has(mei.code) && codes.has(lan.code), `both tables are in the ledger: ${[...codes]}`);
    assert.deepEqual(all.map((r) => r.id), [...all.map((r) => r.id)].sort((a, b) => b - a), 'newest first');
    /* the nickname is text, not markup */
    assert.ok(all.some((r) => r.cells[3] === '<i>Lan</i>'), 'the nickname shows as typed');
    assert.equal(await page.locator('#ledger-rows i').count(), 0, 'no element came from a nickname');

    /* filter to Mei's table by its code */
    await page.fill('#f-code', mei.code.toLowerCase());
    await page.click('#ledger-apply');
    await page.waitForFunction((code) => location.hash.includes(`code=${code}`), mei.code);
    await page.waitForSelector('#ledger-rows tbody tr[data-row]');
    const mine = await tableRows(page, 'ledger-rows');
    assert.ok(mine.length >= 4, 'a settled hand writes a row a seat');
    assert.ok(mine.every((r) => r.cells[1].startsWith(mei.code)), 'only that table');
    assert.equal(mine.reduce((s, r) => s + r.units, 0), 0, 'a hand\'s rows sum to zero');
    const totals = await page.innerText('#ledger-totals');
    assert.match(totals, new RegExp(`^${mine.length} rows`), totals);
    assert.match(totals, /sum 0/);
    await screenshot(page, 'admin-ledger-filtered');

    /* the CSV link asks for exactly the filtered rows */
    const href = await page.getAttribute('#ledger-csv', 'href');
    assert.equal(href, `/api/admin/ledger.csv?code=${mei.code}`);
    const csv = await page.context().request.get(`${server.url}${href}`);
    assert.equal(csv.status(), 200);
    const lines = (await csv.text()).trim().split('\r\n');
    assert.equal(lines[0], 'id,at,table,code,game,hand,hand_number,player,nickname,seat,units,reason,balance');
    assert.deepEqual(lines.slice(1).map((l) => Number(l.split(',')[0])), mine.map((r) => r.id), 'the same rows as the page');

    /* a hand: its replay steps through every action */
    await page.click('#ledger-rows tbody tr[data-row] a.adm-hand');
    await page.waitForSelector('#replay-board .adm-board');
    assert.equal(await page.innerText('#replay-step'), await page.evaluate(() => `Step 0 of ${document.querySelector('#replay-slider').max}`));
    const last = Number(await page.getAttribute('#replay-slider', 'max'));
    assert.ok(last >= 8, `a Tien Gow hand has at least 8 plays (${last} steps)`);
    assert.ok(await page.isDisabled('#replay-prev'));
    /* the deal: 8 tiles a seat, every seat's drawn as dominoes */
    assert.deepEqual(await page.$$eval('#hand-deals tbody tr', (trs) => trs.map((tr) => tr.querySelectorAll('.adm-tile svg.domino').length)), [8, 8, 8, 8]);
    assert.equal(await page.locator('#replay-board .adm-seat .adm-tile').count(), 32, 'every seat\'s tiles before the first play');
    await page.click('#replay-next');
    await page.waitForSelector('#replay-board[data-step="1"]');
    assert.equal(await page.innerText('#replay-step'), `Step 1 of ${last}`);
    assert.ok(await page.locator('#replay-board .adm-center-plays .adm-play').count() >= 1, 'the first play is on the board');
    assert.match(await page.innerText('#replay-caption'), /plays|discards/);
    const tilesAfterOne = await page.locator('#replay-board .adm-seat .adm-tile').count();
    assert.ok(tilesAfterOne < 32, 'the played tiles left the hand');
    await page.$eval('#replay-slider', (s) => {
      s.value = '3';
      s.dispatchEvent(new Event('input'));
    });
    await page.waitForSelector('#replay-board[data-step="3"]');
    assert.ok(await page.$eval('#hand-actions li[data-step="3"]', (li) => li.classList.contains('current')));
    await page.click('#replay-last');
    await page.waitForSelector(`#replay-board[data-step="${last}"]`);
    assert.equal(await page.locator('#replay-board .adm-seat .adm-tile').count(), 0, 'every tile played at the end');
    assert.ok(await page.isDisabled('#replay-next'));
    await page.click('#replay-first');
    await page.waitForSelector('#replay-board[data-step="0"]');
    /* the settlement's lines are the ledger's rows of this hand */
    const handLines = await tableRows(page, 'hand-lines');
    assert.equal(handLines.length, mine.filter((r) => r.cells[2] === 'Hand 1').length);
    assert.equal(handLines.reduce((s, r) => s + r.units, 0), 0);
    await screenshot(page, 'admin-hand');

    /* an adjustment from Lan's page: checked, confirmed, two rows */
    await page.goto(`${server.url}/admin.html#/players?q=lan`);
    await page.waitForSelector('#players-list tbody tr[data-player]');
    const lanId = Number(await page.getAttribute('#players-list tbody tr[data-player]', 'data-player'));
    assert.equal(await page.innerText('#players-list tbody tr a.adm-player'), '<i>Lan</i>');
    await page.click('#players-list tbody tr a.adm-player');
    await page.waitForSelector('#player-balance');
    const balanceBefore = Number((await page.innerText('#player-balance')).replace(/[,−]/g, (c) => (c === '−' ? '-' : '')));
    assert.equal(await page.locator('#net-chart rect.bar').count(), 1, 'one day with hands, one bar');
    /* refused before sending: no reason, zero units, too many */
    await page.fill('#adjust-units', '25');
    await page.click('#adjust-submit');
    await page.waitForSelector('#adjust-error:text("needs a reason")');
    await page.fill('#adjust-units', '0');
    await page.fill('#adjust-reason', 'Refund for a dropped connection');
    await page.click('#adjust-submit');
    await page.waitForSelector('#adjust-error:text("not zero")');
    await page.fill('#adjust-units', '1000001');
    await page.click('#adjust-submit');
    await page.waitForSelector('#adjust-error:text("not zero")');
    /* cancel changes nothing; confirm writes */
    await page.fill('#adjust-units', '25');
    await page.click('#adjust-submit');
    await page.waitForSelector('#adjust-confirm:not([hidden])');
    assert.match(await page.innerText('#adjust-question'), /Write \+25 units to <i>Lan<\/i>/);
    await page.click('#adjust-no');
    assert.ok(await page.isHidden('#adjust-confirm'));
    assert.equal(posts.filter((p) => p.url.endsWith('/adjustments')).length, 0, 'nothing sent before the confirm');
    await page.click('#adjust-submit');
    await page.click('#adjust-yes');
    await page.waitForSelector('#adjust-rows tbody tr[data-row], #adjust-result .adm-error');
    assert.equal(await page.locator('#adjust-result .adm-error').count(), 0, await page.innerText('#adjust-result'));
    const written = await tableRows(page, 'adjust-rows');
    assert.equal(written.length, 2);
    assert.deepEqual(written.map((r) => r.units).sort((a, b) => a - b), [-25, 25]);
    assert.ok(written.every((r) => r.reason === 'adjustment'));
    assert.ok(written.some((r) => r.units === 25 && r.cells[3] === '<i>Lan</i>'), 'the player\'s row');
    assert.ok(written.some((r) => r.units === -25 && r.cells[3] === 'adjustments'), 'the adjustments account\'s counter-row');
    assert.equal(await page.locator('#adjust-rows a[href="#/players/-1"]').count(), 0, 'the account is no player page');
    await page.waitForFunction((b) => document.querySelector('#player-balance')?.innerText.replace(/,/g, '') === String(b + 25).replace('-', '−'), balanceBefore);
    await screenshot(page, 'admin-player');
    const adjustPost = posts.find((p) => p.url.endsWith('/api/admin/adjustments'));
    assert.equal(adjustPost.csrf, csrf, 'the anti-forgery token went with the POST');

    /* the adjustment in the ledger, filtered by reason */
    await page.click('#nav-ledger');
    await page.selectOption('#f-reason', 'adjustment');
    await page.click('#ledger-apply');
    await page.waitForFunction(() => location.hash.includes('reason=adjustment'));
    await page.waitForSelector('#ledger-rows tbody tr[data-row]');
    const adjusted = await tableRows(page, 'ledger-rows');
    assert.deepEqual(adjusted.map((r) => r.id).sort(), written.map((r) => r.id).sort());
    assert.match(await page.innerText('#ledger-totals'), /^2 rows/);

    /* and in the audit log, with its reason */
    await page.click('#nav-audit');
    await page.waitForSelector('#audit-list tbody tr[data-action]');
    await page.selectOption('#a-action', 'adjustment');
    await page.click('#audit-apply');
    await page.waitForFunction(() => location.hash.includes('action=adjustment'));
    await page.waitForSelector('#audit-list tbody tr[data-action="adjustment"]');
    const entries = await page.$$eval('#audit-list tbody tr', (trs) => trs.map((tr) => tr.innerText));
    assert.equal(entries.length, 1);
    assert.match(entries[0], /Refund for a dropped connection/);
    assert.match(entries[0], new RegExp(`"player":${lanId}`));
    await screenshot(page, 'admin-audit');

    /* in 繁體中文 */
    await page.click('[data-lang="zh-Hant"]');
    await page.waitForSelector('#nav-ledger:text("帳目")');
    assert.equal(await page.innerText('h1'), '稽核紀錄');
    await page.click('[data-lang="en"]');

    /* a session the server no longer knows: the next page goes back to login */
    await page.context().clearCookies();
    await page.click('#nav-ledger');
    await page.waitForSelector('#login-expired');
    await adminLogin(page, 'mei');
    await page.waitForSelector('#ledger-rows');
    assert.deepEqual(page.errors, []);
    await Promise.all([page.context().close(), mei.page.context().close(), lan.page.context().close()]);
  });
});
