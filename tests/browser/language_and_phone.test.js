/*
 * language_and_phone — the language switch relabels the page in 繁體中文, 简体中文 and English
 * (and is remembered), tiles are named by their traditional names, and the table fits and
 * plays on a 375 px wide phone. Saves Chinese and phone screenshots to test-output/.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createTable, enterName, handTiles, launchBrowser, openPage, playOneMove, screenshot,
  startServer } from './harness.js';
import { ZH_HANT } from './rules.js';

/* A table with three bots, waiting on this player's turn. */
async function myTurnAtBotTable(page) {
  await createTable(page);
  await page.click('#fill-bots');
  await page.waitForSelector('#start-hand:not([disabled])');
  await page.click('#start-hand');
  await page.waitForSelector('#table-page[data-my-turn="true"]');
}

describe('languages and small screens', () => {
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

  it('switches the labels between 繁體中文, 简体中文 and English and remembers the choice', async () => {
    const page = await openPage(browser, server.url);
    await enterName(page, 'Ah Ma');
    assert.equal((await page.innerText('#create-submit')).trim(), 'Open the table');

    await page.click('[data-lang="zh-Hant"]');
    assert.equal((await page.innerText('#create-submit')).trim(), '開桌');
    assert.equal((await page.innerText('#join-submit')).trim(), '加入牌桌');
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-Hant');
    await page.click('[data-lang="zh-Hans"]');
    assert.equal((await page.innerText('#create-submit')).trim(), '开桌');
    assert.equal(await page.getAttribute('[data-lang="zh-Hans"]', 'aria-pressed'), 'true');
    await page.reload();
    await page.waitForSelector('#create-submit');
    assert.equal((await page.innerText('#create-submit')).trim(), '开桌', 'the choice survives a reload');
    await page.click('[data-lang="en"]');
    assert.equal((await page.innerText('#create-submit')).trim(), 'Open the table');

    await myTurnAtBotTable(page);
    await page.click('[data-lang="zh-Hant"]');
    await page.waitForSelector('#play-button');
    assert.equal((await page.innerText('#play-button')).trim(), '出牌');
    /* the leader has no Discard button: its label is checked when following */
    if (await page.$('#discard-button')) assert.match(await page.innerText('#discard-button'), /^墊牌/);
    else assert.equal((await page.innerText('#clear-button')).trim(), '清除');
    assert.equal((await page.innerText('.seat[data-seat="0"] .seat-wind')).trim(), '東');
    for (const tile of await page.locator('#hand .tile').all()) {
      const face = await tile.getAttribute('data-face');
      assert.equal(await tile.getAttribute('aria-label'), `${ZH_HANT[face]} (${face})`, 'a tile is named by its traditional name');
    }
    await screenshot(page, 'table-zh-hant');
    await page.click('[data-lang="zh-Hans"]');
    if (await page.$('#discard-button')) assert.match(await page.innerText('#discard-button'), /^垫牌/);
    else assert.match(await page.innerText('#play-hint'), /领牌/);
    await page.click('[data-lang="en"]');
    assert.equal((await page.innerText('#play-button')).trim(), 'Play');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('fits a 375 px phone and plays there with taps', async () => {
    const page = await openPage(browser, server.url, { viewport: { width: 375, height: 740 } });
    await enterName(page, 'Siu Ming');
    await screenshot(page, 'phone-lobby');
    const wide = () => page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(await wide() <= 375, 'the lobby does not scroll sideways');
    await myTurnAtBotTable(page);
    await screenshot(page, 'phone-table');
    assert.ok(await wide() <= 375, 'the table does not scroll sideways');
    for (const tile of await page.locator('#hand .tile').all()) {
      const box = await tile.boundingBox();
      assert.ok(box.x >= 0 && box.x + box.width <= 375, 'every tile of the hand is on screen');
    }
    const before = (await handTiles(page)).length;
    await playOneMove(page);
    assert.ok((await handTiles(page)).length < before || (await page.getAttribute('#table-page', 'data-phase')) !== 'playing');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
