/*
 * refusals — a selection that is no legal play says why in the engine's words (its refusal code
 * translated, as PROTOCOL.md lists them), in English and in 繁體; the leader sees no Discard
 * button and no "Legal plays:" label over an empty list.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { handTiles, launchBrowser, playOneMove, soloTable, startServer } from './harness.js';
import { illegalSelection } from './rules.js';

const ENGINE_EN = /not a combination|as many tiles as were led|does not beat|same type|may only be led|Nothing beats|高腳七|fewer than 2 stacks/;
const ENGINE_HANT = /不成牌組|張數要和領出的一樣|打不過|類型和領出的不同|只能領出|沒有牌能打|高腳七|棟數少於 2/;

describe('why a play is refused', () => {
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

  it('names the rule an illegal selection breaks, and shows the leader no Discard', async () => {
    const { page } = await soloTable(browser, server.url, 'Ah Ma');
    let explained = 0;
    let led = 0;
    for (let moves = 0; moves < 80 && (explained < 2 || led < 1); moves++) {
      await page.waitForSelector('#table-page[data-my-turn="true"]');
      const hand = await handTiles(page);
      const { best, canPlay } = await page.evaluate(() => {
        const view = window.teahouse.tables.get(document.querySelector('#table-page').dataset.code).view;
        const trick = view.trick && view.trick.plays.length ? view.trick : null;
        return { best: trick ? trick.plays.find((p) => p.seat === trick.best_seat).play : null,
          canPlay: Boolean(view.legal && view.legal.plays && view.legal.plays.length) };
      });
      if (!best) {
        led++;
        assert.equal(await page.locator('#discard-button').count(), 0, 'the leader has no Discard button');
        const legal = await page.locator('.legal-plays').allInnerTexts();
        for (const text of legal) assert.doesNotMatch(text, /Legal plays:\s*or any single tile/, 'no label over an empty list');
      }
      /* (with nothing to play, the hint already says to discard) */
      const pick = explained < 2 && canPlay ? illegalSelection(hand, best) : null;
      if (pick) {
        for (const i of pick) await page.locator('#hand .tile').nth(i).click();
        const status = await page.locator('.play-status').innerText();
        assert.doesNotMatch(status, /Not a legal play/);
        assert.match(status, ENGINE_EN, `the reason is the engine's: ${status}`);
        await page.click('button[data-lang="zh-Hant"]');
        const hant = await page.locator('.play-status').innerText();
        assert.match(hant, ENGINE_HANT, `and in 繁體: ${hant}`);
        await page.click('button[data-lang="en"]');
        await page.click('#clear-button');
        explained++;
      }
      await playOneMove(page);
    }
    assert.ok(explained >= 1, 'the player met an illegal selection to try');
    assert.ok(led >= 1, 'the player led a trick');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
