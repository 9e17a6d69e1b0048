/*
 * admin_pages — the admin pages beyond the main flow (admin.test.js), against the real server:
 * the ledger's cursor paging both ways, the players search and kinds, a table's banker history
 * and who sat when, the integrity check followed to its result, the live page refreshing,
 * logging out, a login with nothing typed, and a hand whose answer is hostile (markup in names,
 * faces that are no tiles, fields of the wrong type) drawn as text without an error.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { createTable, enterName, launchBrowser, openPage, playToSettlement, startServer } from './harness.js';

const PASSWORD = 'oolong leaves';

async function register(page, name) {
  await page.click('#show-register');
  await page.fill('#register-name', name);
  await page.fill('#register-password', PASSWORD);
  await page.fill('#register-confirm', PASSWORD);
  await page.click('#register-submit');
  await page.waitForSelector('#logout-button');
}

async function openAdmin(browser, url, hash = '') {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(20000);
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  await page.goto(`${url}/admin.html${hash}`);
  return page;
}

async function login(page) {
  await page.waitForSelector('#login-form');
  await page.fill('#login-name', 'ahma');
  await page.fill('#login-password', PASSWORD);
  await page.click('#login-submit');
  await page.waitForSelector('#admin-account');
}

const rowIds = (page, id) => page.$$eval(`#${id} tbody tr[data-row]`, (trs) => trs.map((tr) => Number(tr.dataset.row)));

describe('admin pages', () => {
  let server;
  let browser;
  let dir;
  let player;
  let code;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'teahouse-admin-pages-'));
    const db = path.join(dir, 'teahouse.db');
    server = await startServer(['--db', db]);
    browser = await launchBrowser();
    /* a guest who opens a table (a guest is stored from then on), and an account who plays two
     * hands at a table of its own */
    const guest = await openPage(browser, server.url);
    await enterName(guest, 'Bo Bo');
    await createTable(guest, { game: 'tiengow' });
    await guest.context().close();
    player = await openPage(browser, server.url);
    await enterName(player, 'Ah Ma');
    await register(player, 'ahma');
    code = await createTable(player, { game: 'tiengow' });
    await player.click('#fill-bots');
    await player.waitForSelector('#start-hand:not([disabled])');
    await player.click('#start-hand');
    for (const hand of [1, 2]) {
      await player.waitForSelector(`#table-page[data-hand="${hand}"][data-phase="playing"]`);
      await playToSettlement(player, hand);
    }
    execFileSync(path.resolve(process.env.TEAHOUSE_SERVER), ['admin', 'grant', 'ahma', '--db', db], { stdio: 'pipe' });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('pages the ledger older and newer without losing or repeating a row', async () => {
    const page = await openAdmin(browser, server.url, '#/ledger?limit=3');
    await login(page);
    await page.goto(`${server.url}/admin.html#/ledger?limit=3`);
    await page.waitForSelector('#ledger-rows tbody tr[data-row]');
    const totals = await page.innerText('#ledger-totals');
    const all = Number(/^(\d+) rows/.exec(totals)[1]);
    assert.ok(all >= 8, `two hands write at least 8 rows (${all})`);
    assert.ok(await page.isDisabled('#ledger-pager-newer'), 'the newest page has nothing newer');
    const pages = [await rowIds(page, 'ledger-rows')];
    while (await page.isEnabled('#ledger-pager-older')) {
      /* the next page is the rows below this one's last (a full last page is followed by an empty one) */
      const last = pages.at(-1).at(-1);
      await page.click('#ledger-pager-older');
      await page.waitForFunction((b) => location.hash.endsWith(`before=${b}`) && document.querySelector('#ledger-rows'), last);
      pages.push(await rowIds(page, 'ledger-rows'));
      assert.equal(await page.innerText('#ledger-totals'), totals, 'the totals cover the filter, not the page');
    }
    const onEmpty = !pages.at(-1).length;
    if (onEmpty) pages.pop();
    const ids = pages.flat();
    assert.equal(ids.length, all, 'every row once');
    assert.deepEqual(ids, [...ids].sort((a, b) => b - a), 'newest first, across pages');
    assert.ok(pages.every((p) => p.length <= 3));
    /* back: newer walks the same pages in reverse */
    for (let i = pages.length - (onEmpty ? 1 : 2); i >= 0; i--) {
      await page.click('#ledger-pager-newer');
      await page.waitForFunction((first) => Number(document.querySelector('#ledger-rows tbody tr[data-row]')?.dataset.row) === first, pages[i][0]);
      assert.deepEqual(await rowIds(page, 'ledger-rows'), pages[i]);
    }
    assert.ok(await page.isDisabled('#ledger-pager-newer'));
    assert.ok(!(await page.evaluate(() => location.hash.includes('before='))));

    /* a time range: from an hour ago keeps every row, from tomorrow none; the CSV link follows */
    const hourAgo = Date.now() - 60 * 60 * 1000;
    const local = (ms) => {
      const d = new Date(ms);
      const p = (n) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
    };
    await page.fill('#f-from', local(hourAgo));
    await page.click('#ledger-apply');
    await page.waitForFunction(() => location.hash.includes('from='));
    await page.waitForSelector('#ledger-totals');
    assert.equal(await page.innerText('#ledger-totals'), totals);
    await page.fill('#f-from', local(Date.now() + 24 * 3600 * 1000));
    await page.click('#ledger-apply');
    await page.waitForSelector('#ledger-rows td:text("No ledger row matches.")');
    assert.match(await page.innerText('#ledger-totals'), /^0 rows/);
    assert.match(await page.getAttribute('#ledger-csv', 'href'), /^\/api\/admin\/ledger\.csv\?from=\d+$/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('finds players by name and kind, and shows a table\'s banker and who sat when', async () => {
    const page = await openAdmin(browser, server.url);
    await login(page);
    await page.click('#nav-players');
    await page.fill('#p-q', 'ah');
    await page.click('#players-apply');
    await page.waitForFunction(() => location.hash.includes('q=ah'));
    await page.waitForSelector('#players-list tbody tr[data-player]');
    assert.deepEqual(await page.$$eval('#players-list tbody a.adm-player', (as) => as.map((a) => a.textContent)), ['Ah Ma']);
    await page.fill('#p-q', '');
    await page.selectOption('#p-kind', 'guest');
    await page.click('#players-apply');
    await page.waitForFunction(() => location.hash === '#/players?kind=guest');
    await page.waitForSelector('#players-list tbody tr, #players-body .adm-error');
    const guests = await page.$$eval('#players-list tbody a.adm-player', (as) => as.map((a) => a.textContent));
    assert.ok(guests.includes('Bo Bo') && !guests.includes('Ah Ma'), await page.innerText('#players-body'));

    /* the table: two settled hands, the banker of each, Ah Ma in the East seat */
    await page.goto(`${server.url}/admin.html#/tables?code=${code}`);
    await page.waitForSelector('#tables-list tbody tr[data-table]');
    await page.click('#tables-list tbody a.adm-code');
    await page.waitForSelector('#table-states');
    const bankers = await page.$$eval('#table-states tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.innerText)));
    assert.ok(bankers.length >= 2);
    assert.deepEqual(bankers.slice(0, 2).map((r) => r[0]), ['Hand 1', 'Hand 2']);
    assert.ok(bankers.every((r) => ['East', 'South', 'West', 'North'].includes(r[1]) && /^×\d+$/.test(r[2])), JSON.stringify(bankers));
    assert.ok(bankers.slice(0, 2).every((r) => ['East', 'South', 'West', 'North'].includes(r[3])), `each settled hand names its winner (${JSON.stringify(bankers)})`);
    assert.match(await page.innerText('#table-sittings .adm-sitting:first-child'), /East\s+Ah Ma hands 1–\d/);
    const settled = await page.$$eval('#table-hands tbody tr', (trs) => trs.filter((tr) => !tr.innerText.includes('unfinished')).length);
    assert.ok(settled >= 2);
    /* a hand opened once is one "hand.view" in the audit log, however often the language changes */
    await page.click('#table-hands tbody tr a.adm-hand');
    await page.waitForSelector('#replay-board .adm-board');
    await page.click('[data-lang="zh-Hant"]');
    await page.waitForSelector('#replay-first:text("最初")');
    await page.waitForSelector('#replay-board .adm-board');
    await page.click('[data-lang="en"]');
    await page.waitForSelector('#replay-first:text("First")');
    await page.goto(`${server.url}/admin.html#/audit?action=hand.view`);
    await page.waitForSelector('#audit-list tbody tr[data-action="hand.view"]');
    assert.equal(await page.locator('#audit-list tbody tr').count(), 1);
    await page.goBack();
    await page.goBack();
    await page.waitForSelector('#table-ledger-link');
    await page.click('#table-ledger-link');
    await page.waitForSelector('#ledger-rows tbody tr[data-row]');
    assert.ok((await page.$$eval('#ledger-rows tbody tr', (trs) => trs.map((tr) => tr.children[1].innerText))).every((c) => c.startsWith(code)));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('follows an integrity check to its result, refreshes the live page and logs out', async () => {
    const page = await openAdmin(browser, server.url);
    await login(page);
    await page.click('#nav-integrity');
    await page.waitForSelector('#integrity-state[data-state="idle"]');
    await page.click('#integrity-start');
    await page.waitForSelector('#integrity-state[data-state="done"]');
    assert.equal(await page.innerText('#integrity-result'), 'Everything checks out.');
    assert.equal(await page.$eval('#integrity-hands', (p) => p.value), 100);
    assert.equal(await page.$eval('#integrity-rows', (p) => p.value), 100);

    await page.click('#nav-live');
    await page.waitForSelector(`#live-list tbody tr[data-code="${code}"]`);
    const row = await page.innerText(`#live-list tbody tr[data-code="${code}"]`);
    assert.match(row, /Ah Ma/);
    assert.match(await page.innerText('#live-figures'), /Connections\s+\d+/);
    const stamp = await page.innerText('#live-stamp');
    await page.waitForFunction((s) => document.querySelector('#live-stamp').innerText !== s, stamp, { timeout: 8000 });

    /* logging out ends the session on the server too */
    await page.click('#logout-button');
    await page.waitForSelector('#login-form');
    assert.equal((await page.context().request.get(`${server.url}/api/admin/ledger`)).status(), 403);
    /* nothing typed: said, and nothing sent */
    let sent = 0;
    page.on('request', (r) => { if (r.url().includes('/api/admin/login')) sent++; });
    await page.click('#login-submit');
    await page.waitForSelector('#login-error:text("Enter the account name and the password.")');
    assert.equal(sent, 0);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('polls a running integrity check and shows the first bad row of its result', async () => {
    const page = await openAdmin(browser, server.url);
    await login(page);
    /* the server's answers as a check runs and finds problems */
    const answers = [
      { state: 'running', started_at: Date.now(), finished_at: null, hands_checked: 1, hands_total: 4, rows_checked: 0, rows_total: 16, problems: [], ok: null },
      { state: 'running', started_at: Date.now(), finished_at: null, hands_checked: 3, hands_total: 4, rows_checked: 8, rows_total: 16, problems: [], ok: null },
      { state: 'done', started_at: Date.now(), finished_at: Date.now(), hands_checked: 4, hands_total: 4, rows_checked: 16, rows_total: 16,
        problems: [{ check: 'zero_sum', hand: 2, row: null, message: 'hand 2 sums to 1' }, { check: 'chain', hand: null, row: 11, message: 'row 11 <b>breaks</b> the chain' }], ok: false },
    ];
    const seen = [];
    await page.route('**/api/admin/integrity', (route) => {
      if (route.request().method() === 'POST') return route.fulfill({ status: 202, json: { state: 'running' } });
      const answer = answers[Math.min(seen.length, answers.length - 1)];
      seen.push(answer.hands_checked);
      return route.fulfill({ json: answer });
    });
    await page.click('#nav-integrity');
    await page.waitForSelector('#integrity-state[data-state="running"]');
    assert.ok(await page.isDisabled('#integrity-start'), 'no second start while one runs');
    await page.waitForFunction(() => document.querySelector('#integrity-hands')?.value === 75);
    await page.waitForSelector('#integrity-state[data-state="done"][data-ok="false"]');
    assert.equal(await page.innerText('#integrity-result'), '2 problems found.');
    assert.match(await page.innerText('#integrity-first'), /^First bad: row 11 .*row 11 <b>breaks<\/b> the chain$/);
    assert.equal(await page.getAttribute('#integrity-first a', 'href'), '#/ledger?before=12', 'the ledger from that row down');
    const polls = seen.length;
    await page.waitForTimeout(1500);
    assert.equal(seen.length, polls, 'polling stops once the check is done');
    assert.ok(await page.isEnabled('#integrity-start'));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('draws a hostile hand answer as text, without an error', async () => {
    const page = await openAdmin(browser, server.url);
    await login(page);
    const evil = '<img src=x id=injected onerror="window.pwned=1">';
    await page.route('**/api/admin/hands/999', (route) => route.fulfill({ json: {
      hand: { id: 999, table: evil, code: evil, game: 'tiengow', number: evil, seats: [{ player: 5, nickname: evil, bot: false, net: 'x' }, null, 7, { bot: true }],
        result: { winner: 'x' } },
      lines: [{ id: evil, player: 5, nickname: evil, seat: 9, units: evil, reason: evil, balance: {} }],
      steps: [{ n: 0, seat: null, action: null, event: null, view: { deal: [[evil, '6-6'], 'x', null, []], hands: evil, tricks: [{ plays: [{ seat: 1, play: [evil] }] }] } },
        { n: 1, seat: 0, action: { play: [evil, '1-1'], [evil]: evil }, event: { seat: 'x' }, view: null }],
    } }));
    await page.goto(`${server.url}/admin.html#/hands/999`);
    await page.waitForSelector('#replay-board');
    await page.click('#replay-next');
    await page.waitForSelector('#replay-board[data-step="1"]');
    assert.equal(await page.locator('#injected').count(), 0, 'no markup from the answer');
    assert.equal(await page.evaluate(() => window.pwned), undefined);
    assert.match(await page.innerText('#hand-lines'), /<img src=x/);
    assert.ok(await page.locator('.adm-tile-text').count() >= 1, 'a face that is no tile shows as text');
    assert.equal(await page.locator('#hand-deals svg.domino').count(), 1, 'the one real tile is drawn');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  /* last: the throttle it sets holds this address back for the rest of the server's life */
  it('says how long to wait after too many failed logins', async () => {
    const page = await openAdmin(browser, server.url);
    await page.waitForSelector('#login-form');
    for (let i = 0; i < 5; i++) {
      await page.fill('#login-name', 'ahma');
      await page.fill('#login-password', `wrong ${i}`);
      await page.click('#login-submit');
      await page.waitForSelector('#login-submit:not([disabled])');
      assert.match(await page.innerText('#login-error'), /Wrong account name or password|Too many failed logins/);
    }
    await page.fill('#login-password', PASSWORD);
    await page.click('#login-submit');
    await page.waitForSelector('#login-error:text("Too many failed logins")');
    assert.match(await page.innerText('#login-error'), /^Too many failed logins: wait \d+ s and try again\.$/);
    assert.equal(await page.locator('#admin-nav a').count(), 0, 'still logged out');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
