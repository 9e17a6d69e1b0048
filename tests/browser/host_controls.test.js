/*
 * host_controls — the host's controls of a session in Chromium, through the table page's host
 * panel (host.js): watchers' chat turned off (a watcher's box says so and cannot send), the table
 * held after the hand (no next hand starts, everyone sees it), the rules changed between hands in
 * the game's own editor (the table's rules line follows), hosting handed to a watcher, and the
 * session ended with a final scoreboard that stays on the page. Tianjin: the rules editor and
 * ending a table before its first hand. Screenshots of the panel, the hold and the scoreboard in
 * the three languages at 1280×900 and 375×667 go to /tmp/host-shots/.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { createTable, enterName, launchBrowser, openPage, playToSettlement, recordFrames, startServer } from './harness.js';

const SHOTS = '/tmp/host-shots';

async function shot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });
}

/* A table of Tien Gow with three bots, started; the host's page. */
async function startedTable(page) {
  const code = await createTable(page, { game: 'tiengow' });
  await page.click('#fill-bots');
  await page.waitForSelector('#start-hand:not([disabled])');
  await page.click('#start-hand');
  await page.waitForSelector('#table-page[data-phase="playing"]');
  return code;
}

describe('the host controls a session', () => {
  let server;
  let browser;
  before(async () => {
    server = await startServer(['--deal-seed', '7']); /* no natural hand: the first hand is played, so it can be held during it */
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('turns watchers\' chat off, holds after the hand, changes the rules, hands over hosting and ends with a scoreboard', async () => {
    const host = await openPage(browser, server.url, { viewport: { width: 1280, height: 900 } });
    const hostFrames = recordFrames(host);
    await enterName(host, 'Ah Ma');
    const code = await startedTable(host);
    const guest = await openPage(browser, server.url, { hash: `#/t/${code}`, viewport: { width: 1280, height: 900 } });
    await enterName(guest, 'Bo Bo');
    await guest.waitForSelector(`#table-page[data-code="${code}"] #chat-input`);
    assert.equal(await guest.locator('#host-panel').count(), 0, 'a watcher has no host panel');

    /* watchers' chat off: the watcher's box says so and does not send */
    await host.click('#spectator-chat-toggle');
    await guest.waitForSelector('#chat-input[disabled]');
    assert.match(await guest.innerText('#chat-status'), /turned chat off for watchers/);
    await guest.waitForSelector('#chat-log .chat-chat_off');
    assert.match(await host.innerText('#spectator-chat-toggle'), /on/);
    await guest.locator('#chat').scrollIntoViewIfNeeded();
    await shot(guest, 'watcher-chat-off-en-1280');
    await guest.setViewportSize({ width: 375, height: 667 });
    await guest.locator('#chat').scrollIntoViewIfNeeded();
    await shot(guest, 'watcher-chat-off-en-375');
    await guest.setViewportSize({ width: 1280, height: 900 });

    /* held during the hand: said now, and after the hand no next hand starts */
    await host.click('#hold-table');
    await guest.waitForSelector('#table-held:has-text("after this hand")');
    assert.equal(await host.getAttribute('#hold-table', 'aria-pressed'), 'true');
    assert.ok(await host.isDisabled('#end-table'), 'ending waits for the hand to end');
    assert.ok(await host.isDisabled('#edit-options'), 'the rules change between hands');
    await playToSettlement(host, 1);
    await guest.waitForSelector('#table-page[data-phase="between_hands"] #table-held:has-text("Paused by the host")');
    /* the pause between hands is 1 s here: three times that, and still no hand */
    await host.waitForTimeout(3000);
    assert.equal(await host.getAttribute('#table-page', 'data-hand'), '1');
    assert.equal(await guest.getAttribute('#table-page', 'data-held'), 'true');
    assert.ok(!hostFrames.received.some((m) => m.type === 'event' && m.event.kind === 'hand_started' && m.event.hand === 2));

    /* the rules, in the game's own editor set to the table's: stake 3 */
    await host.click('#edit-options');
    await host.waitForSelector('#options-form #opt-stake');
    assert.equal(await host.inputValue('#opt-stake'), '1', 'the editor starts at the table\'s options');
    await host.fill('#opt-stake', '3');
    await host.check('#opt-wen_zun');
    await host.click('#save-options');
    await guest.waitForSelector('#table-rules:has-text("stake 3")');
    await guest.waitForSelector('#chat-log .chat-options:has-text("stake")');
    await host.waitForSelector('#options-form', { state: 'detached' });
    const change = hostFrames.received.find((m) => m.type === 'event' && m.event.kind === 'options');
    assert.equal(change.event.options.stake, 3);
    assert.deepEqual([...change.event.changed].sort(), ['stake', 'wen_zun']);

    /* hosting to the watcher: the panel moves with it */
    await host.locator('#host-panel').scrollIntoViewIfNeeded();
    await shot(host, 'panel-with-watcher-en-1280');
    await host.selectOption('#host-target', { label: 'Bo Bo' });
    await host.click('#set-host');
    await guest.waitForSelector('#host-panel');
    await host.waitForSelector('#host-panel', { state: 'detached' });
    await host.waitForSelector('#chat-log .chat-host:has-text("Bo Bo is the host now.")');
    await guest.waitForSelector('#chat-input:not([disabled])'); /* the host chats, watching or not */

    /* the new host ends the session, asked twice; the scoreboard stays on both pages */
    await guest.click('#end-table');
    await guest.waitForSelector('#end-table-confirm');
    await guest.click('#end-table-confirm');
    for (const page of [host, guest]) {
      await page.waitForSelector('#final-scoreboard');
      await page.waitForSelector('#table-page[data-phase="closed"]');
      const rows = await page.$$eval('#final-scoreboard tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
      assert.equal(rows.length, 1, 'the one player who played; bots are not listed');
      assert.match(rows[0][0], /Ah Ma/);
      assert.equal(rows[0][2], '1');
    }
    const ended = hostFrames.received.find((m) => m.type === 'event' && m.event.kind === 'table_ended');
    const score = ended.event.scoreboard[0].score;
    const shown = await host.$eval('#final-scoreboard tbody td.num', (td) => td.textContent);
    assert.equal(shown, score > 0 ? `+${score}` : score < 0 ? `−${-score}` : '0');
    /* back in the lobby, the table is among the player's past tables, closed, with its history */
    await host.click('#back-to-lobby');
    await host.waitForSelector(`#past-tables .past-table[data-code="${code}"][data-closed="true"]`);
    assert.deepEqual(host.errors, []);
    assert.deepEqual(guest.errors, []);
    await host.context().close();
    await guest.context().close();
  });

  it('edits Tianjin\'s rules before the first hand and ends a table never played', async () => {
    const host = await openPage(browser, server.url, { viewport: { width: 1280, height: 900 } });
    await enterName(host, 'Siu Ming');
    await createTable(host, { game: 'tianjin' });
    await host.click('#edit-options');
    await host.waitForSelector('#options-form');
    const before = await host.innerText('#table-rules');
    const stake = host.locator('#options-form #opt-stake');
    if (await stake.count()) await stake.fill('2');
    else await host.locator('#options-form input[type="checkbox"]').first().click();
    await host.click('#save-options');
    await host.waitForFunction((b) => document.querySelector('#table-rules').innerText !== b, before);
    await host.click('#end-table');
    await host.click('#end-table-confirm');
    await host.waitForSelector('#final-scoreboard:has-text("Hands played: 0")');
    assert.equal(await host.locator('#final-scoreboard table').count(), 0);
    assert.deepEqual(host.errors, []);
    await host.context().close();
  });

  for (const lang of ['en', 'zh-Hant', 'zh-Hans']) {
    it(`shows the host panel, the hold and the scoreboard in ${lang} at 1280×900 and 375×667`, async () => {
      const page = await openPage(browser, server.url, { viewport: { width: 1280, height: 900 } });
      await enterName(page, lang === 'en' ? 'Ah Ma' : '阿媽');
      await startedTable(page);
      await page.click(`[data-lang="${lang}"]`);
      await page.click('#hold-table');
      await playToSettlement(page, 1);
      await page.waitForSelector('#table-page[data-held="true"] #table-held');
      await page.click('#edit-options');
      await page.waitForSelector('#options-form');
      for (const [w, hgt] of [[1280, 900], [375, 667]]) {
        await page.setViewportSize({ width: w, height: hgt });
        await page.evaluate(() => window.scrollTo(0, 0));
        await shot(page, `held-${lang}-${w}`);
        await page.locator('#host-panel').scrollIntoViewIfNeeded();
        await shot(page, `panel-${lang}-${w}`);
        /* nothing sticks out sideways on a phone */
        const wide = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(wide <= w, `the page is ${wide} px wide at ${w}`);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.click('#cancel-options');
      await page.click('#end-table');
      await page.click('#end-table-confirm');
      await page.waitForSelector('#final-scoreboard');
      for (const [w, hgt] of [[1280, 900], [375, 667]]) {
        await page.setViewportSize({ width: w, height: hgt });
        await page.evaluate(() => window.scrollTo(0, 0));
        await shot(page, `scoreboard-${lang}-${w}`);
      }
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
});
