/*
 * history — the table's history comes from the server, so it survives a reload: a player plays a
 * hand with three bots, reloads the page, opens History and finds the hand with its net, and
 * steps through its replay frame by frame (the deal, then one frame per action, ending over),
 * their own tiles as they were, and the other seats' tiles open (the hand is over). A spectator
 * who joins later sees the hand too, all four hands open.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { enterName, handOvers, launchBrowser, openPage, playToSettlement, recordFrames, screenshot, signed,
  soloTable, startServer } from './harness.js';

/* The action events of one hand this page received, in order. */
function actionsOf(frames, hand) {
  const events = frames.received.filter((m) => m.type === 'event').map((m) => m.event);
  const start = events.findIndex((e) => e.kind === 'hand_started' && e.hand === hand);
  const end = events.findIndex((e) => e.kind === 'hand_over' && e.hand === hand);
  return events.slice(start + 1, end).filter((e) => e.kind === 'action');
}

const tilesShown = (page) => page.locator('#history-stepper .replay-hand .tile').evaluateAll((els) => els.map((e) => e.dataset.face));

describe('history kept by the server', () => {
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

  it('lists a played hand after a reload and steps through its replay', async () => {
    const { page, frames, code } = await soloTable(browser, server.url, 'Ah Ma');
    await playToSettlement(page, 1);
    await page.waitForFunction(() => document.querySelector('#table-page').dataset.phase !== 'playing'
      || document.querySelector('#table-page').dataset.hand !== '1');
    const over = handOvers(frames).find((e) => e.hand === 1);
    assert.ok(over, 'the hand was settled');
    const actions = actionsOf(frames, 1);
    assert.ok(actions.length >= 1 || over.result.endings.includes('natural'));

    await page.reload();
    await page.waitForSelector(`#table-page[data-code="${code}"][data-seat="0"]`);
    await page.click('#history-toggle');
    const entry = page.locator('.history-entry[data-hand="1"]');
    await entry.waitFor();
    assert.equal(await entry.getAttribute('data-net'), over.result.net.join(','), 'the hand\'s net per seat');
    const summary = await entry.locator('.history-open').innerText();
    assert.match(summary, /^Hand 1 — .* won · /);
    assert.ok(summary.endsWith(` · you ${signed(over.result.net[0])}`), `${summary} shows the player's net`);

    await entry.locator('.history-open').click();
    const nets = await page.locator('#history-settlement-1 .settle-table td.net').allTextContents();
    assert.deepEqual(nets, over.result.net.map(signed));
    const totals = await page.locator('#history-settlement-1 .settle-table td.total').allTextContents();
    assert.deepEqual(totals, over.result.net.map(signed), 'after the first hand the totals are its nets');

    /* the replay: the deal, then one frame per action the page saw live */
    const stepper = page.locator('#history-stepper');
    await stepper.waitFor();
    const steps = Number(await stepper.getAttribute('data-steps'));
    assert.equal(steps, 1 + actions.length, 'a frame for the deal and one for each action');
    assert.match(await page.locator('.stepper-caption').innerText(), /^Hand 1 is dealt/);
    const dealt = await tilesShown(page);
    assert.equal(dealt.length, 8, 'the deal shows the 8 tiles dealt to the player');
    await screenshot(page, 'history-replay-deal');
    for (let i = 1; i < steps; i++) {
      await page.click('#history-next');
      await page.waitForSelector(`#history-stepper[data-step="${i}"]`);
      const caption = await page.locator('.stepper-caption').innerText();
      const action = actions[i - 1];
      assert.match(caption, action.play ? /plays/ : /discards/, `step ${i} says what seat ${action.seat} did`);
      const shown = await tilesShown(page);
      const left = [...dealt];
      for (const face of shown) {
        const at = left.indexOf(face);
        assert.ok(at >= 0, `${face} at step ${i} was dealt to the player`);
        left.splice(at, 1);
      }
    }
    assert.equal(await page.isDisabled('#history-next'), true, 'the last frame is the end');
    assert.match(await page.locator('.stepper-caption').innerText(), /The hand is over\.$/);
    await screenshot(page, 'history-replay-end');
    await page.click('#history-prev');
    await page.waitForSelector(`#history-stepper[data-step="${steps - 2}"]`);

    /* Someone who joins afterwards watches: the hand is listed and, being over, replayed open. */
    const watcher = await openPage(browser, server.url, { hash: `#/t/${code}` });
    const watcherFrames = recordFrames(watcher);
    await enterName(watcher, 'Bo Bo');
    await watcher.waitForSelector(`#table-page[data-code="${code}"]`);
    await watcher.click('#history-toggle');
    await watcher.locator('.history-entry[data-hand="1"] .history-open').click();
    await watcher.waitForSelector('#history-stepper');
    assert.equal(await watcher.locator('#history-stepper .replay-hand').count(), 0, 'a spectator has no hand of their own');
    assert.equal(await watcher.locator('#history-stepper .open-hand').count(), 4, 'every seat\'s tiles are shown');
    const replay = watcherFrames.received.find((m) => m.type === 'replay');
    assert.equal(replay.seat, null);
    for (const frame of replay.frames) assert.equal(frame.view.hands.length, 4, 'every frame is the open view');
    assert.deepEqual(page.errors, []);
    assert.deepEqual(watcher.errors, []);
    await Promise.all([page.context().close(), watcher.context().close()]);
  });
});
