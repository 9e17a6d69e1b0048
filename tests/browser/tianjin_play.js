/*
 * tianjin_play — what the Tianjin browser tests share: open a Tianjin table from the lobby, and
 * make this page's move through the Tianjin controls (never by sending protocol messages): win
 * when the Win button shows, pass a claim window, decline to sit or pull, else discard the drawn
 * tile (or the first tile that may go).
 */
import { createTable, enterName, openPage, recordFrames } from './harness.js';

/* Opens a private Tianjin table for a new player with these options, fills it with bots and starts it. */
export async function soloTianjin(browser, url, name, opts = {}) {
  const page = await openPage(browser, url, { viewport: opts.viewport, locale: opts.locale });
  const frames = recordFrames(page);
  await enterName(page, name);
  const code = await createTable(page, { game: 'tianjin', options: { claim_seconds: 2, ...(opts.options || {}) } });
  await page.click('#fill-bots');
  await page.waitForSelector('#start-hand:not([disabled])');
  await page.click('#start-hand');
  await page.waitForSelector('#table-page[data-phase="playing"]');
  return { page, frames, code };
}

/* The page's Tianjin view and the decision it owes, as the client holds them. */
export function tianjinState(page) {
  return page.evaluate(() => {
    const root = document.querySelector('#table-page');
    const ts = window.teahouse.tables.get(root.dataset.code);
    return { view: ts.view, deciding: ts.deciding, seat: ts.mySeat, phase: ts.phase, hand: ts.handsPlayed };
  });
}

/* Makes one move through the controls if this page owes one; returns what it did, or null. */
export async function playTianjinMove(page, { claim = false } = {}) {
  const controls = page.locator('#me-area');
  const click = async (selector, what) => {
    await controls.locator(selector).first().click();
    await page.waitForFunction(() => !document.querySelector('#me-area .mj-status')?.textContent);
    return what;
  };
  if (claim && await controls.locator('button[data-act="kong"]:not([disabled])').count()) return click('button[data-act="kong"]', 'kong');
  if (claim && await controls.locator('button[data-act="pung"]:not([disabled])').count()) return click('button[data-act="pung"]', 'pung');
  if (await controls.locator('button[data-act="win"]:not([disabled])').count()) return click('button[data-act="win"]', 'win');
  if (await controls.locator('button[data-act="pass"]:not([disabled])').count()) return click('button[data-act="pass"]', 'pass');
  if (await controls.locator('#mj-no-sit:not([disabled])').count()) return click('#mj-no-sit', 'no-sit');
  if (await controls.locator('#mj-no-pull:not([disabled])').count()) return click('#mj-no-pull', 'no-pull');
  const drawn = controls.locator('#mj-hand .mj-drawn button.mj-tile:not([disabled])');
  if (await drawn.count()) return click('#mj-hand .mj-drawn button.mj-tile:not([disabled])', 'discard');
  if (await controls.locator('#mj-hand button.mj-tile:not([disabled])').count()) return click('#mj-hand button.mj-tile:not([disabled])', 'discard');
  return null;
}

/* Plays this page's moves until hand `hand` is over; returns the moves made, by kind. */
export async function playTianjinHand(page, hand, opts = {}) {
  const made = {};
  for (;;) {
    await page.waitForSelector(`#table-page[data-my-turn="true"], #table-page[data-hand="${hand}"]:not([data-phase="playing"]), #table-page:not([data-hand="${hand}"])`,
      { timeout: 60000 });
    const state = await page.$eval('#table-page', (el) => ({ ...el.dataset }));
    if (state.hand !== String(hand) || state.phase !== 'playing') return made;
    if (opts.onTurn) await opts.onTurn();
    const did = await playTianjinMove(page, opts);
    if (did) made[did] = (made[did] || 0) + 1;
    else await page.waitForTimeout(50); /* the controls are being redrawn */
  }
}

/* Plays this page's turns (and passes nothing) until it owes a claim decision; a window stays
 * open for the table's claim_seconds. */
export async function untilClaimWindow(page) {
  for (;;) {
    await page.waitForSelector('#mj-hint[data-kind="claim"] #mj-claim-timer, #mj-hand .mj-drawn button.mj-tile:not([disabled]), #mj-no-sit, #mj-no-pull',
      { timeout: 90000 });
    if (await page.locator('#mj-hint[data-kind="claim"] #mj-claim-timer').count()) return;
    await playTianjinMove(page);
  }
}
