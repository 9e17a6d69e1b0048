/*
 * four_players — four people in four browser contexts meet at one private table: the host
 * opens it, two friends type its code in the lobby, one opens the private link /#/t/CODE, each
 * takes a seat, the host starts, and all four play the hand through their pages to its
 * settlement. Every page must show the same result, each with its own seat at the bottom.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createTable, enterName, handOvers, launchBrowser, openPage, playToSettlement, recordFrames, screenshot,
  startServer } from './harness.js';

describe('four people at one private table', () => {
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

  it('join by code and by link, take seats and play a hand together', async () => {
    const names = ['Ah Ma', 'Bo Bo', 'Ka Yan', 'Siu Ming'];
    const host = await openPage(browser, server.url);
    const frames = [recordFrames(host)];
    await enterName(host, names[0]);
    const code = await createTable(host);

    const pages = [host];
    for (let seat = 1; seat <= 3; seat++) {
      /* the third friend follows the shared link; the others type the code */
      const viaLink = seat === 3;
      const page = await openPage(browser, server.url, { hash: viaLink ? `#/t/${code}` : '' });
      frames.push(recordFrames(page));
      await enterName(page, names[seat]);
      if (!viaLink) {
        await page.fill('#join-code', code.toLowerCase());
        await page.click('#join-submit');
      }
      await page.waitForSelector(`#table-page[data-code="${code}"] .seat[data-seat="${seat}"] .sit-here`);
      await page.click(`.seat[data-seat="${seat}"] .sit-here`);
      await page.waitForSelector(`#table-page[data-seat="${seat}"]`);
      pages.push(page);
    }
    await host.waitForSelector('#start-hand:not([disabled])');
    for (let seat = 0; seat < 4; seat++) {
      const shown = await host.locator(`.seat[data-seat="${seat}"] .seat-name`).innerText();
      assert.equal(shown, names[seat], 'the host sees every name at its seat');
    }
    await host.click('#start-hand');

    /* Each player's own seat is drawn at the bottom of their page. */
    for (let seat = 0; seat < 4; seat++) {
      await pages[seat].waitForSelector('#table-page[data-hand="1"]');
      assert.equal(await pages[seat].getAttribute(`.seat[data-seat="${seat}"]`, 'data-rel'), 'bottom');
    }
    await Promise.all(pages.map((page) => playToSettlement(page, 1)));

    const results = frames.map((f) => handOvers(f).find((e) => e.hand === 1));
    for (const r of results) assert.deepEqual(r.result, results[0].result, 'everyone sees the same settlement');
    const result = results[0].result;
    /* Every page's history shows the hand with the server's nets. */
    for (const page of pages) {
      await page.click('#history-toggle');
      await page.click('.history-entry[data-hand="1"] .history-open');
      const nets = await page.locator('#history-settlement-1 .settle-table td.net').allTextContents();
      assert.deepEqual(nets, result.net.map((n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0')));
    }
    await screenshot(pages[2], 'four-players-settlement');
    for (const page of pages) assert.deepEqual(page.errors, []);
    await Promise.all(pages.map((p) => p.context().close()));
  });
});
