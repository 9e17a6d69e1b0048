/*
 * next_hand — between hands on a phone: the settlement, a countdown to the next hand and the
 * Ready button are on screen without scrolling; the countdown follows the hand_over's
 * next_hand_ms and counts down; Ready starts the next hand at once (the bots are always ready).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { handOvers, launchBrowser, playToSettlement, screenshot, soloTable, startServer } from './harness.js';

describe('between hands', () => {
  let server;
  let browser;
  before(async () => {
    server = await startServer(['--next-hand-seconds', '40']);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the settlement, a countdown and Ready on a phone screen, and Ready starts the next hand', async () => {
    const { page, frames } = await soloTable(browser, server.url, 'Ah Ma');
    await page.setViewportSize({ width: 375, height: 812 });
    await playToSettlement(page, 1);
    await page.waitForSelector('#table-page[data-phase="between_hands"] #settlement');
    const over = handOvers(frames)[0];
    assert.ok(Number.isInteger(over.next_hand_ms) && over.next_hand_ms > 30000, 'the server says when the next hand starts');

    const countdown = page.locator('#next-hand-countdown');
    const first = Number((await countdown.innerText()).match(/Next hand in (\d+) s/)[1]);
    assert.ok(first <= 40 && first > 30, `the countdown starts near next_hand_ms (${first})`);
    await page.waitForFunction((n) => {
      const m = /in (\d+) s/.exec(document.querySelector('#next-hand-countdown').textContent);
      return m && Number(m[1]) < n;
    }, first);

    const inView = await page.evaluate(() => ['#next-hand-countdown', '#ready-button', '#settlement h2'].map((sel) => {
      const r = document.querySelector(sel).getBoundingClientRect();
      return { sel, top: r.top, bottom: r.bottom };
    }));
    for (const { sel, top, bottom } of inView) {
      assert.ok(top >= 0 && bottom <= 812, `${sel} is on the phone's screen without scrolling (${top}–${bottom})`);
    }
    await screenshot(page, 'phone-between-hands', { fullPage: false });

    await page.click('#ready-button');
    await page.waitForSelector('#table-page[data-hand="2"][data-phase="playing"]', { timeout: 10000 });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
