/*
 * timeout — when the turn timer runs out and a bot plays for the player, the page says so and
 * what it played, in the player's language (the action event's "by_bot" for their own seat).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createTable, enterName, launchBrowser, openPage, recordFrames, startServer } from './harness.js';

describe('a turn that times out', () => {
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

  it('tells the player what the bot played for them', async () => {
    const page = await openPage(browser, server.url);
    const frames = recordFrames(page);
    await enterName(page, 'Ah Ma');
    await page.$eval('details.rules', (d) => { d.open = true; });
    await page.fill('#opt-turn_seconds', '5');
    await createTable(page);
    await page.click('#fill-bots');
    await page.waitForSelector('#start-hand:not([disabled])');
    await page.click('#start-hand');
    await page.click('button[data-lang="zh-Hant"]');
    await page.waitForSelector('#table-page[data-my-turn="true"]');
    await page.waitForSelector('#toast.show:has-text("時間到了")', { timeout: 15000 });
    const told = await page.innerText('#toast');
    const mine = frames.received.find((m) => m.type === 'event' && m.event.kind === 'action' && m.event.by_bot
      && m.event.seat === 0);
    assert.ok(mine, 'the server played for the seat');
    if (mine.event.play) assert.match(told, /已替你打出/);
    else assert.match(told, new RegExp(`已替你墊 ${mine.event.discard} 張`));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
