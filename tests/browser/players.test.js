/*
 * players — what belongs to a player, not to a seat (issue 18): a player who leaves mid-hand is
 * named in that hand's settlement and keeps their score, the freed seat shows no score, a
 * newcomer there starts at 0 and the leaver gets their own score back when they sit again; the
 * lobby's "Your tables" leads back to a running seat (after going to the lobby, and after logging
 * out and in) while the others see the player away; a two-character Chinese name is an account;
 * and a closed table's history and replays stay in the lobby for those who played there.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createTable, enterName, handOvers, launchBrowser, openPage, playToSettlement, recordFrames, signed,
  soloTable, startServer } from './harness.js';

/* Fills and sends the lobby's register or login form. */
async function submitAccount(page, kind, name, password) {
  if (!(await page.isVisible(`#${kind}-form`))) await page.click(`#show-${kind}`);
  await page.fill(`#${kind}-name`, name);
  await page.fill(`#${kind}-password`, password);
  if (kind === 'register') await page.fill('#register-confirm', password);
  await page.click(`#${kind}-submit`);
}

/* The score a seat shows on this page, or null when it shows none. */
async function seatScore(page, seat) {
  const score = page.locator(`.board > .seat[data-seat="${seat}"] .stat-score`);
  return (await score.count()) ? (await score.innerText()).replace(/^[^+−0-9]*/, '').trim() : null;
}

describe('players, not seats', () => {
  let server;
  let browser;
  before(async () => {
    /* a long pause between hands, so seats change hands in it; tables nobody is at close at once */
    server = await startServer(['--next-hand-seconds', '60', '--empty-table-seconds', '1']);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('keeps a leaver’s result and score theirs: the freed seat shows none, a newcomer starts at 0', async () => {
    const host = await openPage(browser, server.url);
    const frames = recordFrames(host);
    await enterName(host, 'Ah Ma');
    const code = await createTable(host);
    const leaver = await openPage(browser, server.url, { hash: `#/t/${code}` });
    await enterName(leaver, 'Bo Bo');
    await leaver.click('.board > .seat[data-seat="1"] .sit-here');
    await host.waitForSelector('.board > .seat[data-seat="1"] .seat-name:text("Bo Bo")');
    await host.click('#fill-bots');
    await host.click('#start-hand:not([disabled])');
    await host.waitForSelector('#table-page[data-phase="playing"]');
    leaver.once('dialog', (d) => d.accept());
    await leaver.click('#leave-table');
    await leaver.waitForSelector('#greeting');
    const newcomer = await openPage(browser, server.url, { hash: `#/t/${code}` });
    await enterName(newcomer, 'Cy');

    await playToSettlement(host, 1);
    await host.waitForSelector('#settlement');
    const over = handOvers(frames)[0];
    const leaverScore = over.scores[1];
    /* the settlement names who played seat 1, not the bot that finished it nor an empty seat */
    const settlement = await host.innerText('#settlement');
    assert.ok(settlement.includes('South · Bo Bo'), `the settlement names Bo Bo: ${settlement}`);
    assert.ok(!settlement.includes('Bot South') && !settlement.includes('Empty seat'), settlement);
    assert.deepEqual(over.players.map((p) => p.name), ['Ah Ma', 'Bo Bo', null, null]);

    /* the freed seat: empty, with no score and none of the last hand's figures or the bank */
    const empty = host.locator('.board > .seat[data-seat="1"].seat-empty');
    await empty.waitFor();
    assert.equal(await seatScore(host, 1), null, 'an empty seat shows no score');
    assert.equal(await empty.locator('.stat, .badge-banker').count(), 0, 'nor stacks, tiles or the bank');

    /* a newcomer sits there and starts at 0, on every page */
    await newcomer.click('.board > .seat[data-seat="1"] .sit-here');
    await host.waitForSelector('.board > .seat[data-seat="1"] .seat-name:text("Cy")');
    assert.equal(await seatScore(host, 1), '0');
    await newcomer.waitForSelector('.board > .seat[data-seat="1"] .stat-score');
    assert.equal(await seatScore(newcomer, 1), '0');
    /* nor the last hand's stacks: they were Bo Bo's */
    assert.equal(await host.locator('.board > .seat[data-seat="1"] .stat-stacks').count(), 0);
    assert.ok(await host.locator('.board > .seat[data-seat="0"] .stat-stacks').count() > 0, 'the host played it: stacks shown');

    /* Bo Bo comes back, to another seat, and has their own score again */
    await host.click('.board > .seat[data-seat="3"] .remove-bot');
    await host.waitForSelector('.board > .seat[data-seat="3"].seat-empty');
    await leaver.goto(`${server.url}/#/t/${code}`);
    await leaver.click('.board > .seat[data-seat="3"] .sit-here');
    await host.waitForSelector('.board > .seat[data-seat="3"] .seat-name:text("Bo Bo")');
    assert.equal(await seatScore(host, 3), signed(leaverScore));
    assert.equal(await seatScore(host, 1), '0');
    /* the last hand's settlement still names who played it */
    assert.ok((await host.innerText('#settlement')).includes('South · Bo Bo'));
    assert.deepEqual(host.errors, []);
    for (const p of [host, leaver, newcomer]) await p.context().close();
  });

  it('leads back to a running seat from the lobby and after logging out and in; the others see them away', async () => {
    const page = await openPage(browser, server.url);
    await enterName(page, 'Ka Yan');
    await submitAccount(page, 'register', 'kayan', 'jasmine tea');
    await page.waitForSelector('#logout-button');
    const code = await createTable(page);
    await page.click('#fill-bots');
    await page.click('#start-hand:not([disabled])');
    await page.waitForSelector('#table-page[data-phase="playing"]');
    const friend = await openPage(browser, server.url, { hash: `#/t/${code}` });
    await enterName(friend, 'Siu Ming');
    await friend.waitForSelector('.board > .seat[data-seat="0"] .conn-dot.on');

    /* to the lobby: the table is listed with its hand and the seat, and the friend sees them away */
    await page.goto(`${server.url}/#/`);
    const row = page.locator(`#my-tables .my-table[data-code="${code}"]`);
    await row.waitFor();
    const text = await row.innerText();
    assert.match(text, /Hand 1/);
    assert.match(text, /seat East/);
    await friend.waitForSelector('.board > .seat[data-seat="0"] .badge-away');
    assert.match(await friend.getAttribute('.board > .seat[data-seat="0"]', 'aria-label'), /away/);

    /* back by the button: here again */
    await row.locator('.back-to-table').click();
    await page.waitForSelector(`#table-page[data-code="${code}"] .board`);
    await friend.waitForSelector('.board > .seat[data-seat="0"] .conn-dot.on');
    assert.equal(await friend.locator('.board > .seat[data-seat="0"] .badge-away').count(), 0);

    /* log out (mid-hand: it asks) and in again: the seat is still theirs and listed */
    await page.goto(`${server.url}/#/`);
    page.once('dialog', (d) => d.accept());
    await page.click('#logout-button');
    await page.waitForSelector('#show-login');
    await friend.waitForSelector('.board > .seat[data-seat="0"] .badge-offline');
    await submitAccount(page, 'login', 'kayan', 'jasmine tea');
    await page.waitForSelector('#logout-button');
    const back = page.locator(`#my-tables .my-table[data-code="${code}"]`);
    await back.waitFor();
    await back.locator('.back-to-table').click();
    await page.waitForSelector(`#table-page[data-code="${code}"][data-seat="0"]`);
    await friend.waitForSelector('.board > .seat[data-seat="0"] .conn-dot.on');
    assert.deepEqual(page.errors, []);
    await page.context().close();
    await friend.context().close();
  });

  it('makes 小明 an account', async () => {
    const page = await openPage(browser, server.url);
    await enterName(page, '小明');
    await submitAccount(page, 'register', '小明', 'jasmine tea');
    await page.waitForSelector('#logout-button');
    assert.equal(await page.innerText('#greeting-account'), 'account 小明');
    /* two Latin letters are still too few, and the form says why before sending */
    const other = await openPage(browser, server.url);
    await enterName(other, 'ab');
    await submitAccount(other, 'register', 'ab', 'jasmine tea');
    await other.waitForSelector('#register-error:has-text("2 Chinese")');
    await page.context().close();
    await other.context().close();
  });

  it('keeps a closed table’s history and replays in the lobby for those who played there', async () => {
    const { page, code } = await soloTable(browser, server.url, 'Mei');
    await playToSettlement(page, 1);
    await page.waitForSelector('#settlement');
    await page.click('#leave-table');
    await page.waitForSelector('#my-tables-section');
    /* nobody is at it any more: it closes, and the lobby lists it as closed */
    const row = page.locator(`#past-tables .past-table[data-code="${code}"][data-closed="true"]`);
    for (let i = 0; i < 50 && !(await row.count()); i++) {
      await page.waitForTimeout(200);
      await page.click('#refresh-mine');
    }
    await row.waitFor();
    assert.match(await row.innerText(), /closed/);
    assert.match(await row.innerText(), /You played 1 hand ·/);
    await row.locator('.past-history').click();
    const entry = row.locator('.history-entry[data-hand="1"]');
    await entry.waitFor();
    await entry.locator('.history-open').click();
    await row.locator('#history-stepper').waitFor();
    assert.match(await row.innerText(), /Step 1 of \d+/);
    await page.click('#history-next');
    await row.locator('#history-stepper[data-step="1"]').waitFor();
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
