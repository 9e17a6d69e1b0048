/*
 * solo_table — one player opens a private table, fills it with three bots and plays whole hands
 * through the page to their settlement; the settlement and history shown are checked against
 * the server's hand_over and against rules §4; an illegal selection cannot be sent. Saves the
 * lobby, table and settlement screenshots to test-output/.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createTable, enterName, handOvers, handTiles, launchBrowser, openPage, playOneMove, playToSettlement,
  recordFrames, screenshot, signed, soloTable, startServer } from './harness.js';
import { illegalSelection, plainPayment } from './rules.js';

const CODE = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{12}$/;

/* Records each settlement panel the moment it is drawn (the next hand follows within a second). */
async function watchSettlements(page) {
  await page.evaluate(() => {
    window.seenSettlements = {};
    const look = () => {
      const panel = document.querySelector('#settlement');
      const hand = document.querySelector('#table-page')?.dataset.hand;
      if (panel && hand && !window.seenSettlements[hand]) window.seenSettlements[hand] = panel.innerText;
    };
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true });
  });
}

describe('one player and three bots', () => {
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

  it('opens a private table with bots and plays two whole hands to their settlement', async () => {
    const page = await openPage(browser, server.url);
    const frames = recordFrames(page);
    await enterName(page, 'Ah Ma');
    await screenshot(page, 'lobby');
    const code = await createTable(page);
    assert.match(code, CODE);
    assert.ok((await page.inputValue('#share-link')).endsWith(`/#/t/${code}`), 'the private link is /#/t/CODE');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.click('#copy-link');
    await page.waitForSelector('#toast.show:text("Link copied")');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), await page.inputValue('#share-link'));

    await page.click('#fill-bots');
    await page.waitForSelector('#start-hand:not([disabled])');
    for (const seat of [1, 2, 3]) assert.equal(await page.locator(`.seat[data-seat="${seat}"] .badge-bot`).count(), 1);
    await page.click('#start-hand');
    await watchSettlements(page);

    let shotMidHand = false;
    for (const hand of [1, 2]) {
      await page.waitForSelector(`#table-page[data-hand="${hand}"]`);
      if (!shotMidHand) {
        await page.waitForSelector('#table-page[data-my-turn="true"], #table-page[data-phase="between_hands"]');
        if (await page.$('#table-page[data-my-turn="true"]')) {
          await screenshot(page, 'table-mid-hand');
          shotMidHand = true;
        }
      }
      await playToSettlement(page, hand);
      await page.waitForFunction((h) => window.seenSettlements[h], hand);
    }
    const results = handOvers(frames).slice(0, 2);
    assert.equal(results.length, 2);
    const started = frames.received.filter((m) => m.type === 'event' && m.event.kind === 'hand_started').map((m) => m.event);

    for (const over of results) {
      const r = over.result;
      assert.equal(r.stacks.reduce((a, b) => a + b, 0), 8, 'a hand has 8 stacks');
      assert.equal(r.net.reduce((a, b) => a + b, 0), 0, 'a hand is zero-sum');
      const text = await page.evaluate((h) => window.seenSettlements[h], over.hand);
      assert.match(text, new RegExp(`Hand ${over.hand}:`));
      /* rules §4 by hand, for a hand with no special ending and no bonus */
      const { banker, multiplier } = started.find((e) => e.hand === over.hand).game_state;
      if (r.endings.length === 0 && r.bonuses.length === 0) {
        for (let seat = 0; seat < 4; seat++) {
          if (seat === r.winner) continue;
          const expected = plainPayment(r.stacks, seat, r.winner, banker, multiplier);
          const paid = r.payments.filter((p) => p.from === seat).reduce((a, p) => a + p.units, 0)
            - r.payments.filter((p) => p.to === seat).reduce((a, p) => a + p.units, 0);
          assert.equal(paid, expected, `seat ${seat} pays by rules §4`);
        }
      }
    }

    /* The history keeps both hands with the settlement explained line by line. */
    await page.click('#history-toggle');
    await page.waitForSelector('#history');
    for (const over of results) {
      await page.click(`.history-entry[data-hand="${over.hand}"] .history-open`);
      const panel = page.locator(`#history-settlement-${over.hand}`);
      await panel.waitFor();
      const lines = await panel.locator('.settle-line[data-seat]').evaluateAll((els) => els.map((e) => ({
        seat: Number(e.dataset.seat), paid: Number(e.dataset.paid), computed: Number(e.dataset.computed) })));
      assert.equal(lines.length, 3, 'one line for each loser');
      for (const line of lines) {
        const r = over.result;
        const paid = r.payments.filter((p) => p.from === line.seat && p.to === r.winner).reduce((a, p) => a + p.units, 0)
          - r.payments.filter((p) => p.to === line.seat && p.from === r.winner).reduce((a, p) => a + p.units, 0);
        if (!r.endings.includes('qin')) assert.equal(line.paid, paid, 'the line shows what the server settled');
        assert.equal(line.computed, line.paid, 'the explained arithmetic adds up to the settled amount');
      }
      const nets = await panel.locator('.settle-table tbody td.net').allTextContents();
      assert.deepEqual(nets, over.result.net.map(signed));
    }
    /* The scoreboard after hand 2 is the sum of both hands' nets. */
    const totals = await page.locator('#history-settlement-2 .settle-table td.total').allTextContents();
    assert.deepEqual(totals, [0, 1, 2, 3].map((s) => signed(results[0].result.net[s] + results[1].result.net[s])));
    assert.match(await page.locator('#history-settlement-2 .settle-next').innerText(), /banks next at ×\d+/);
    await page.locator('#history-settlement-2').scrollIntoViewIfNeeded();
    await screenshot(page, 'settlement');

    /* Stepping through hand 2 shows what the player saw, step by step. */
    await page.waitForSelector('#history-stepper');
    const steps = Number((await page.locator('.stepper-count').innerText()).match(/of (\d+)/)[1]);
    assert.ok(steps >= 2, 'a played hand has a deal and at least one more step');
    const dealt = await page.locator('#history-stepper .replay-hand .tile').evaluateAll((els) => els.map((e) => e.dataset.face));
    assert.equal(dealt.length, 8, 'the first step shows the 8 tiles dealt to the player');
    assert.match(await page.locator('.stepper-caption').innerText(), /Hand 2 is dealt/);
    await page.click('#history-next');
    await page.waitForSelector('#history-stepper[data-step="1"]');
    assert.match(await page.locator('.stepper-caption').innerText(), /plays|discards/);
    const later = await page.locator('#history-stepper .replay-hand .tile').evaluateAll((els) => els.map((e) => e.dataset.face));
    for (const face of later) assert.ok(dealt.includes(face), 'a later step shows only tiles from the deal');
    await screenshot(page, 'history-stepper');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('keeps Play disabled for a selection the rules forbid and sends nothing', async () => {
    const { page, frames } = await soloTable(browser, server.url, 'Lo Fu');
    let refused = 0;
    while (refused < 2) {
      await page.waitForSelector('#table-page[data-my-turn="true"], #table-page[data-phase="between_hands"]');
      if (!(await page.$('#table-page[data-my-turn="true"]'))) break;
      const hand = await handTiles(page);
      const best = await page.evaluate(() => {
        const view = window.teahouse.tables.get(document.querySelector('#table-page').dataset.code).view;
        const trick = view.trick && view.trick.plays.length ? view.trick : null;
        return trick ? trick.plays.find((p) => p.seat === trick.best_seat).play : null;
      });
      const pick = illegalSelection(hand, best);
      if (pick) {
        const sentBefore = frames.sent.filter((m) => m.type === 'act').length;
        for (const i of pick) { /* with the keyboard: focus a tile, Space toggles it */
          await page.locator('#hand .tile').nth(i).focus();
          await page.keyboard.press('Space');
        }
        for (const i of pick) assert.equal(await page.locator('#hand .tile').nth(i).getAttribute('aria-pressed'), 'true');
        assert.equal(await page.isDisabled('#play-button'), true, `Play is disabled for ${pick.map((i) => hand[i])}`);
        await page.evaluate(() => document.querySelector('#play-button').click());
        assert.equal(frames.sent.filter((m) => m.type === 'act').length, sentBefore, 'no act was sent');
        await page.click('#clear-button');
        refused++;
      }
      await playOneMove(page);
    }
    assert.ok(refused >= 1, 'the player met at least one turn with an illegal selection to try');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
