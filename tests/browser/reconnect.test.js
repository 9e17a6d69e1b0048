/*
 * reconnect — a player who reloads the page mid-hand, or whose connection drops, is brought back
 * to their seat by itself: the resume token kept in localStorage says hello again, the server
 * answers resumed, and the page shows the same table, seat and hand. The same after the server
 * restarts: the table is parked, then reopened, and a guest's token still resumes its seat.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createTable, enterName, handTiles, launchBrowser, openPage, playToSettlement, recordFrames,
  soloTable, startServer, TOKEN, until, welcomesAfter } from './harness.js';

describe('reconnection', () => {
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

  it('resumes the seat after a reload mid-hand and after a dropped connection', async () => {
    const page = await openPage(browser, server.url);
    const frames = recordFrames(page);
    await enterName(page, 'Ah Ma');
    const code = await createTable(page);
    await page.click('#fill-bots');
    await page.waitForSelector('#start-hand:not([disabled])');
    await page.click('#start-hand');
    await page.waitForSelector('#table-page[data-my-turn="true"]');
    const hand = await page.getAttribute('#table-page', 'data-hand');
    const tilesBefore = await handTiles(page);
    const token = await page.evaluate(() => localStorage.getItem('teahouse.token'));
    const me = await page.evaluate(() => window.teahouse.app.me());
    assert.match(token, TOKEN, 'an opaque token of PROTOCOL.md\'s alphabet');

    /* A reload: the page comes back to the same seat of the same table without a click. */
    const mark = frames.received.length;
    await page.reload();
    await page.waitForSelector(`#table-page[data-code="${code}"][data-seat="0"]`);
    assert.ok(page.url().endsWith(`/#/t/${code}`));
    const welcome = welcomesAfter(frames, mark)[0];
    assert.equal(welcome.resumed, true, 'the server resumed the player');
    assert.equal(welcome.player.id, me);
    assert.equal(await page.evaluate(() => localStorage.getItem('teahouse.token')), token);
    assert.equal(await page.locator('.seat[data-seat="0"] .seat-name').innerText(), 'Ah Ma');
    const state = await page.$eval('#table-page', (el) => ({ ...el.dataset }));
    if (state.hand === hand && state.phase === 'playing') {
      /* bots may have covered a turn while the page was away: only fewer of the same tiles */
      const tilesAfter = await handTiles(page);
      const left = [...tilesBefore];
      for (const face of tilesAfter) {
        const at = left.indexOf(face);
        assert.ok(at >= 0, `${face} was in the hand before the reload`);
        left.splice(at, 1);
      }
    }
    await playToSettlement(page, Number(state.hand));

    /* A dropped connection: the client reconnects and resumes on its own. */
    const mark2 = frames.received.length;
    await page.evaluate(() => window.teahouse.connection.ws.close());
    await until(() => welcomesAfter(frames, mark2).length > 0);
    const again = welcomesAfter(frames, mark2)[0];
    assert.equal(again.resumed, true);
    assert.equal(again.player.id, me);
    await page.waitForSelector(`#table-page[data-seat="0"] .seat[data-seat="0"] .conn-dot.on`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('comes back to the same seat of the same table after the server restarts', async () => {
    const { page, frames, code } = await soloTable(browser, server.url, 'Siu Ming');
    await playToSettlement(page, 1);
    const me = await page.evaluate(() => window.teahouse.app.me());
    const token = await page.evaluate(() => localStorage.getItem('teahouse.token'));

    const mark = frames.received.length;
    await server.restart();
    await until(() => welcomesAfter(frames, mark).length > 0, 30000);
    const parked = frames.received.slice(mark).find((m) => m.type === 'event' && m.event.kind === 'parked');
    assert.ok(parked, 'the table said it was parked for the restart');
    const welcome = welcomesAfter(frames, mark)[0];
    assert.equal(welcome.resumed, true, 'a guest\'s token outlives the restart');
    assert.equal(welcome.player.id, me);
    assert.equal(welcome.token, token);
    await page.waitForSelector(`#table-page[data-code="${code}"][data-seat="0"]`);
    await page.waitForFunction(() => !document.querySelector('#table-parked'));

    /* the hand played before the restart is in the table's history */
    await page.click('#history-toggle');
    await page.locator('.history-entry[data-hand="1"]').waitFor();
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
