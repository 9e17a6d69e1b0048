/*
 * turn_alert — when the player's turn comes the tab's title says so ("● Your turn — Teahouse")
 * and goes back to the table's title after their move; a chime (WebAudio oscillators, counted
 * here through an init script, as are navigator.vibrate calls) and a buzz come with the turn
 * unless the player muted them; the mute toggle survives a reload.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createTable, enterName, launchBrowser, playOneMove, startServer } from './harness.js';

const TURN_TITLE = '● Your turn — Teahouse';

/* Counts every oscillator started and every vibration asked for, and records each title the tab shows. */
function instrument() {
  window.__alerts = { tones: 0, buzzes: 0, titles: [] };
  const Ctx = window.AudioContext;
  if (Ctx) {
    const create = Ctx.prototype.createOscillator;
    Ctx.prototype.createOscillator = function createOscillator() {
      const osc = create.call(this);
      const start = osc.start;
      osc.start = (...args) => {
        window.__alerts.tones += 1;
        return start.apply(osc, args);
      };
      return osc;
    };
  }
  navigator.vibrate = () => {
    window.__alerts.buzzes += 1;
    return true;
  };
  document.addEventListener('DOMContentLoaded', () => {
    const title = document.querySelector('title');
    new MutationObserver(() => {
      const all = window.__alerts.titles;
      if (all[all.length - 1] !== document.title) all.push(document.title);
    }).observe(title, { childList: true, characterData: true, subtree: true });
  });
}

async function openInstrumented(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'en-US' });
  await context.addInitScript(instrument);
  const page = await context.newPage();
  page.setDefaultTimeout(20000);
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  await page.goto(`${url}/`);
  return page;
}

const alerts = (page) => page.evaluate(() => ({ ...window.__alerts, titles: [...window.__alerts.titles] }));

/* Waits for the player's turn, then for the move to be taken and the title to have left the turn. */
async function playTurn(page) {
  await page.waitForSelector('#table-page[data-my-turn="true"]');
  await page.waitForFunction((title) => document.title === title, TURN_TITLE);
  await playOneMove(page);
}

describe('the turn alert', () => {
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

  it('titles the tab on the player\'s turn, chimes unless muted, and keeps the mute across a reload', async () => {
    const page = await openInstrumented(browser, server.url);
    await enterName(page, 'Ah Ma');
    const code = await createTable(page);
    const tableTitle = `${code} · Teahouse`;
    assert.equal(await page.title(), tableTitle, 'the table\'s own title before any turn');
    assert.equal(await page.getAttribute('#sound-toggle', 'aria-pressed'), 'false', 'the alert starts on');
    await page.click('#fill-bots');
    await page.waitForSelector('#start-hand:not([disabled])');
    await page.click('#start-hand');

    /* not muted: the first turn titles the tab and chimes; the move gives the title back */
    await playTurn(page);
    let seen = await alerts(page);
    assert.ok(seen.tones >= 1, `a chime played on the turn (${seen.tones} tones)`);
    assert.ok(seen.buzzes >= 1, 'the phone was asked to buzz');
    const at = seen.titles.indexOf(TURN_TITLE);
    assert.ok(at >= 0, `the title said it was the player's turn (${seen.titles.join(' | ')})`);
    assert.ok(seen.titles.slice(at + 1).includes(tableTitle), 'the title went back to the table\'s after the move');
    await page.waitForFunction((title) => document.title === title || document.querySelector('#table-page[data-my-turn="true"]'), tableTitle);
    if (await page.getAttribute('#table-page', 'data-my-turn') !== 'true') assert.equal(await page.title(), tableTitle);

    /* muted, and still muted after a reload: turns come with the title and no chime or buzz */
    await page.click('#sound-toggle');
    assert.equal(await page.getAttribute('#sound-toggle', 'aria-pressed'), 'true');
    await page.reload();
    await page.waitForSelector('#table-page[data-phase]');
    assert.equal(await page.getAttribute('#sound-toggle', 'aria-pressed'), 'true', 'the mute survives a reload');
    const hand = await page.getAttribute('#table-page', 'data-hand');
    let mutedTurns = 0;
    while (await page.getAttribute('#table-page', 'data-phase') === 'playing' && mutedTurns < 3) {
      await page.waitForSelector(`#table-page[data-my-turn="true"], #table-page:not([data-hand="${hand}"][data-phase="playing"])`);
      if (await page.getAttribute('#table-page', 'data-my-turn') !== 'true') break;
      await playTurn(page);
      mutedTurns += 1;
    }
    seen = await alerts(page);
    assert.ok(mutedTurns >= 1, 'a turn came while muted');
    assert.ok(seen.titles.filter((x) => x === TURN_TITLE).length >= 1, 'the title still says the turn while muted');
    assert.equal(seen.tones, 0, 'no chime while muted');
    assert.equal(seen.buzzes, 0, 'no buzz while muted');

    /* unmuted again: the next turn chimes */
    await page.click('#sound-toggle');
    assert.equal(await page.getAttribute('#sound-toggle', 'aria-pressed'), 'false');
    assert.equal(await page.evaluate(() => localStorage.getItem('teahouse.muted')), null, 'unmuting is remembered too');
    /* play on (into the next hand if this one ends) until a turn begins: it chimes */
    for (let moves = 0; (await alerts(page)).tones === 0; moves++) {
      assert.ok(moves < 12, 'a turn began after unmuting');
      await page.waitForSelector('#table-page[data-phase="playing"][data-my-turn="true"]');
      if ((await alerts(page)).tones === 0) await playOneMove(page);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
