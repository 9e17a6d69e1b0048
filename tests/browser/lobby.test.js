/*
 * lobby — the game picker offers the house's games; a public table opened with rule options
 * appears in another player's lobby with its game, seats taken and options, and joining it from
 * the list seats nobody until they sit; a code that names no table gives a clear message and
 * leaves the player in the lobby. With ~500 public tables open (the attack of issue 14: one
 * answer with every table got every visitor dropped and reconnecting for ever) the lobby shows
 * them a page at a time, filters and searches them, and its one connection stays up. A host
 * locks a private table against newcomers and sends a watcher away.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createTable, enterName, launchBrowser, openPage, recordFrames, screenshot, startServer, until,
  welcomesAfter } from './harness.js';

/* Opens `hosts` connections from the page, each saying hello and opening `perHost` public
 * tables (as bots of an attacker would, over the protocol); they stay open with the page. */
async function openManyTables(page, hosts, perHost) {
  await page.evaluate(async ({ hosts: n, perHost: tablesEach }) => {
    const url = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`;
    window.openers = [];
    const one = (name) => new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const pending = new Map();
      let id = 0;
      const send = (msg) => new Promise((res, rej) => {
        id += 1;
        pending.set(id, { res, rej });
        ws.send(JSON.stringify({ ...msg, id }));
      });
      ws.onmessage = (e) => {
        const m = JSON.parse(e.data);
        if (m.id === undefined || !pending.has(m.id)) return;
        const p = pending.get(m.id);
        pending.delete(m.id);
        (m.type === 'error' ? p.rej : p.res)(m);
      };
      ws.onerror = () => reject(new Error(`${name}: the connection failed`));
      ws.onopen = async () => {
        try {
          await send({ type: 'hello', v: 1, name });
          for (let t = 0; t < tablesEach; t++) await send({ type: 'create_table', game: 'tiengow', public: true });
          window.openers.push(ws);
          resolve();
        } catch (err) {
          reject(new Error(`${name}: ${JSON.stringify(err)}`));
        }
      };
    });
    for (let i = 0; i < n; i += 8) {
      const batch = [];
      for (let k = i; k < Math.min(n, i + 8); k++) batch.push(one(k === 5 ? 'Searchable Sam' : `Host ${k}`));
      await Promise.all(batch);
    }
  }, { hosts, perHost });
}

describe('the lobby', () => {
  let server;
  let browser;
  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('lists a public table with its seats and options and joins it from the list', async () => {
    const host = await openPage(browser, server.url);
    await enterName(host, 'Ah Ma');
    assert.deepEqual(await host.$$eval('#create-game option', (os) => os.map((o) => [o.value, o.textContent])),
      [['tiengow', 'Tien Gow 天九'], ['tianjin', 'Tianjin Mahjong 天津麻将']], 'the game picker lists the games the welcome announced');
    await host.click('details.rules summary');
    for (const id of ['#opt-wen_zun-help', '#opt-rotation-help', '#opt-qin_multiplier-help', '#opt-qin_pays_all-help',
      '#opt-quartet_bonus-help']) {
      assert.ok((await host.innerText(id)).length > 20, `${id} explains the option`);
    }
    await screenshot(host, 'lobby-create-options');
    const code = await createTable(host, { isPublic: true, options: { wen_zun: true, rotation: 'turn' } });
    assert.equal(await host.isVisible('#copy-link'), false, 'a public table needs no share link');
    await host.click('.seat[data-seat="2"] .add-bot');
    await host.waitForSelector('.seat[data-seat="2"] .badge-bot');

    const guest = await openPage(browser, server.url);
    await enterName(guest, 'Bo Bo');
    const row = guest.locator(`.public-table[data-code="${code}"]`);
    await row.waitFor();
    const text = await row.innerText();
    assert.match(text, /Tien Gow/);
    assert.match(text, /2\/4 seats taken/, 'the host and the bot');
    assert.match(text, /文尊/);
    assert.match(text, /輪莊/);
    assert.match(text, /host Ah Ma/);
    await screenshot(guest, 'lobby-public-table');
    await row.locator('.join-public').click();
    await guest.waitForSelector(`#table-page[data-code="${code}"][data-phase]`);
    assert.equal(await guest.getAttribute('#table-page', 'data-seat'), '', 'a player who joins watches until they sit');
    assert.equal(await guest.locator('.sit-here').count(), 2, 'the two empty seats offer a place');
    await guest.click('.seat[data-seat="1"] .sit-here');
    await guest.waitForSelector('#table-page[data-seat="1"]');
    await host.waitForSelector('.seat[data-seat="1"] .seat-name:text("Bo Bo")');
    await Promise.all([host.context().close(), guest.context().close()]);
  });

  it('says clearly when a code names no open table', async () => {
    const page = await openPage(browser, server.url);
    await enterName(page, 'Ka Yan');
    await page.fill('#join-code', 'ZZZZ22');
    await page.click('#join-submit');
    await page.waitForSelector('#toast.show.error');
    assert.equal(await page.innerText('#toast'), 'No open table has that code.');
    await page.waitForSelector('#lobby');
    await page.fill('#join-code', 'ABC');
    await page.click('#join-submit');
    await page.waitForSelector('#toast.show.error:text("12 letters and digits")');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('lists 504 public tables a page at a time, filters and searches them, and never reconnects', async () => {
    const opener = await openPage(browser, server.url);
    await openManyTables(opener, 63, 8);

    const visitor = await openPage(browser, server.url);
    const frames = recordFrames(visitor);
    let sockets = 0;
    visitor.on('websocket', () => { sockets += 1; });
    await enterName(visitor, 'Visitor');
    await visitor.waitForSelector('#tables-count');
    /* 504, and the table of the first case if it is still open */
    const total = Number(/Showing 20 of (\d+)/.exec(await visitor.innerText('#tables-count'))[1]);
    assert.ok(total >= 504 && total <= 505, `${total} tables`);
    assert.equal(await visitor.locator('.public-table').count(), 20);
    /* the list follows the house on its own (every 5 s): still one connection, one welcome */
    const asked = () => frames.sent.filter((m) => m.type === 'list_tables').length;
    const first = asked();
    await until(() => asked() > first, 12000);
    await visitor.waitForSelector(`#tables-count:text("Showing 20 of ${total}")`);
    const replies = frames.received.filter((m) => m.type === 'tables');
    const largest = Math.max(...replies.map((m) => JSON.stringify(m).length));
    assert.ok(largest < 64 * 1024, `a tables reply of ${largest} bytes`);
    await visitor.click('#more-tables');
    await visitor.waitForSelector(`#tables-count:text("Showing 40 of ${total}")`);
    const codes = await visitor.$$eval('.public-table', (rows) => rows.map((r) => r.dataset.code));
    assert.equal(new Set(codes).size, 40, 'no table twice');
    assert.ok(codes.every((c) => /^[A-Z2-9]{12}$/.test(c)), 'new tables have 12-character codes');

    await visitor.fill('#filter-search', 'searchable');
    await visitor.waitForSelector('#tables-count:text("Showing 8 of 8")');
    assert.equal(await visitor.isVisible('#more-tables'), false, 'one page holds them all');
    assert.ok((await visitor.innerText('#public-tables')).includes('host Searchable Sam'));
    await visitor.$eval('#public-section', (el) => el.scrollIntoView());
    await screenshot(visitor, 'lobby-many-tables-searched', { fullPage: false });
    await visitor.fill('#filter-search', codes[3].slice(0, 7).toLowerCase());
    await visitor.waitForSelector(`.public-table[data-code="${codes[3]}"]`);
    await visitor.fill('#filter-search', '');
    await visitor.selectOption('#filter-show', 'playing');
    await visitor.waitForSelector('#no-tables:text("No public table matches.")');
    await visitor.selectOption('#filter-show', 'free');
    await visitor.waitForSelector('#tables-count');
    assert.match(await visitor.innerText('#tables-count'), /^Showing 20 of 50[45]$/, 'every table has a free seat');

    assert.equal(sockets, 1, 'the lobby kept its one connection');
    assert.equal(welcomesAfter(frames, 0).length, 1, 'and was welcomed once');
    assert.equal(await visitor.evaluate(() => window.teahouse.app.state.status), 'online');
    assert.deepEqual(visitor.errors, []);
    await Promise.all([visitor.context().close(), opener.context().close()]);
  });

  it('lets the host lock a private table and send a watcher away', async () => {
    const host = await openPage(browser, server.url);
    await enterName(host, 'Ah Ma');
    const code = await createTable(host);
    assert.equal(code.length, 12);
    const friend = await openPage(browser, server.url, { hash: `#/t/${code}` });
    await enterName(friend, 'Bo Bo');
    await friend.waitForSelector(`#table-page[data-code="${code}"][data-phase]`);
    await host.waitForSelector('#watchers .watcher:has-text("Bo Bo") .remove-member');
    assert.equal(await friend.locator('#lock-table').count(), 0, 'only the host locks');
    assert.equal(await friend.locator('.remove-member').count(), 0, 'only the host removes');

    await host.click('#lock-table');
    await host.waitForSelector('#lock-table[aria-pressed="true"]');
    await friend.waitForSelector('#table-locked');
    const stranger = await openPage(browser, server.url, { hash: `#/t/${code}` });
    await enterName(stranger, 'Stranger');
    await stranger.waitForSelector('#toast.show.error:text("The host has locked this table.")');
    await stranger.waitForSelector('#lobby');
    await screenshot(host, 'table-locked-with-watcher');

    await host.click('#watchers .watcher:has-text("Bo Bo") .remove-member');
    await friend.waitForSelector('#toast.show.error:text("The host removed you")');
    await friend.waitForSelector('#lobby');
    await host.waitForSelector('#watchers', { state: 'detached' });
    assert.deepEqual([...host.errors, ...friend.errors, ...stranger.errors], []);
    await Promise.all([host.context().close(), friend.context().close(), stranger.context().close()]);
  });
});
