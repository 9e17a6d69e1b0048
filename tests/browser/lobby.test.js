/*
 * lobby — the game picker offers the house's games; a public table opened with rule options
 * appears in another player's lobby with its game, seats taken and options, and joining it from
 * the list seats nobody until they sit; a code that names no table gives a clear message and
 * leaves the player in the lobby.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createTable, enterName, launchBrowser, openPage, screenshot, startServer } from './harness.js';

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
      [['tiengow', 'Tien Gow 天九']], 'the game picker lists the games of the registry');
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
    await page.waitForSelector('#toast.show.error:text("6 letters and digits")');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
