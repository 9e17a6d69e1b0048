/*
 * profile — a player's page (#/p/<player id>), through the web client:
 *   - a player plays a hand at a private table, leaves, the table closes, and their profile
 *     (from the lobby's "Your profile") shows the closed table, the hand with its net, the totals
 *     and the balance chart, and opens that hand's replay; a seat's name links to the profile;
 *   - another player opening the same profile sees the name, totals and chart, but never the
 *     private table's code;
 *   - an id that names nobody, or is not an id, says so.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { enterName, handOvers, launchBrowser, openPage, playToSettlement, signed, soloTable,
  startServer } from './harness.js';

describe('profile', () => {
  let server;
  let browser;
  let mei = null; /* { id, code, net }: the first test's player, for the others */

  before(async () => {
    server = await startServer(['--next-hand-seconds', '60', '--empty-table-seconds', '1']);
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows a player their closed table, the hand and the chart, and opens the hand’s replay', async () => {
    const { page, frames, code } = await soloTable(browser, server.url, 'Mei');
    const id = await page.evaluate(() => window.teahouse.app.me());
    /* the seat's name is a link to the player's profile */
    assert.equal(await page.locator(`.board > .seat[data-seat="0"] a.seat-profile[href="#/p/${id}"]`).count(), 1);
    await playToSettlement(page, 1);
    await page.waitForSelector('#settlement');
    const net = handOvers(frames)[0].scores[0];
    await page.click('#leave-table');
    await page.waitForSelector('#my-profile');
    await page.click('#my-profile');
    await page.waitForSelector('#profile-name');
    assert.match(await page.innerText('#profile-name'), /Mei/);
    /* nobody is at the table any more: it closes, and the profile says so once asked again */
    const row = page.locator(`#profile-tables .profile-table[data-code="${code}"][data-closed="true"]`);
    for (let i = 0; i < 50 && !(await row.count()); i++) {
      await page.waitForTimeout(200);
      await page.evaluate(() => window.dispatchEvent(new HashChangeEvent('hashchange')));
    }
    await row.waitFor();
    assert.match(await row.innerText(), /1 hand · net /);
    assert.match(await row.innerText(), /private/);
    assert.equal(await page.innerText('#profile-balance'), signed(net));
    const games = await page.innerText('#profile-games');
    assert.match(games, /1/);
    const hand = page.locator(`#profile-hands .profile-hand[data-code="${code}"][data-hand="1"]`);
    await hand.waitFor();
    assert.match(await hand.innerText(), new RegExp(signed(net).replace('+', '\\+')));
    /* the chart: a line, its axis labels, and the sentence that says it */
    assert.equal(await page.locator('#profile-chart-svg polyline.chart-line').count(), 1);
    assert.ok(await page.locator('#profile-chart-svg text.chart-label').count() >= 2);
    assert.match(await page.innerText('#profile-chart-summary'), new RegExp(`Balance now ${signed(net).replace('+', '\\+')}`));
    /* the hand's replay page, by a link that may be shared */
    assert.equal(await hand.locator('a.profile-replay-link').getAttribute('href'), `#/r/${code}/${await hand.getAttribute('data-hand')}`);
    /* the hand's replay, from its deal */
    await hand.locator('.profile-replay').click();
    await hand.locator('#history-stepper[data-step="0"]').waitFor();
    assert.match(await hand.innerText(), /Step 1 of \d+/);
    await page.click('#history-next');
    await hand.locator('#history-stepper[data-step="1"]').waitFor();
    assert.deepEqual(page.errors, []);
    mei = { id, code, net };
    await page.context().close();
  });

  it('never shows another player a private table’s code, but shows the totals and the chart', async () => {
    assert.ok(mei, 'the first test made the player');
    const page = await openPage(browser, server.url);
    await enterName(page, 'Lin');
    const frames = [];
    page.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(String(f.payload))));
    await page.goto(`${server.url}/#/p/${mei.id}`);
    await page.reload(); /* a new connection, its frames recorded */
    await page.waitForSelector('#profile-name');
    assert.match(await page.innerText('#profile-name'), /Mei/);
    await page.waitForSelector('#profile-public-note');
    await page.waitForSelector('#profile-tables-none');
    assert.match(await page.innerText('#profile-hands-none'), /No hand at a public table/);
    assert.equal(await page.innerText('#profile-balance'), signed(mei.net));
    assert.equal(await page.locator('#profile-chart-svg polyline').count(), 1);
    assert.equal(await page.locator('.profile-replay').count(), 0);
    assert.ok(!(await page.content()).includes(mei.code), 'the private code is on the page');
    assert.ok(frames.some((f) => f.includes('"type":"profile"')), 'the profile came over this page’s connection');
    assert.ok(!frames.some((f) => f.includes(mei.code)), 'the private code reached another player');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('says so when the id names nobody', async () => {
    const page = await openPage(browser, server.url);
    await enterName(page, 'Ana');
    await page.goto(`${server.url}/#/p/p999999`);
    await page.waitForSelector('#profile-error');
    assert.match(await page.innerText('#profile-error'), /No player has that id/);
    /* not an id at all: the lobby */
    await page.goto(`${server.url}/#/p/robert`);
    await page.waitForSelector('#greeting');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
