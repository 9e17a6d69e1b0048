/*
 * phone_table — the table on 375×667 and 390×844 touch phones and on a desktop: the page opens at its top
 * (even when the lobby was scrolled down), and through every turn of a whole hand the hint, every
 * tile of the hand and the Play button are on the first screen, uncovered, without the page
 * scrolling; the trick lies in one row; nothing scrolls sideways or widens the page, even for the moment a
 * play slides in. On a 1280×900 desktop the hand
 * shows each tile's name under it, plays slide into the trick unless the player asks for reduced
 * motion, and the chat's quick reactions draw their emoji (no emoji font
 * is needed) and say 再来! in 简体中文, 再來! in 繁體中文. Saves the phone and desktop tables to test-output/.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createTable, enterName, handTiles, launchBrowser, playOneMove, screenshot, startServer } from './harness.js';
import { ZH_HANT } from './rules.js';

const PHONES = [{ width: 375, height: 667 }, { width: 390, height: 844 }];

/* A new touch phone (or desktop) page on the lobby, in English. */
async function openDevice(browser, url, viewport, touch, reducedMotion = 'no-preference') {
  const context = await browser.newContext({ viewport, hasTouch: touch, isMobile: touch, locale: 'en-US', reducedMotion });
  const page = await context.newPage();
  page.setDefaultTimeout(20000);
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  await page.goto(`${url}/`);
  return page;
}

/* Where an element is on screen, and whether it is the one a tap at its middle reaches. */
function onScreen(page, selector) {
  return page.$$eval(selector, (els) => els.map((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, reachable: Boolean(hit && (hit === el || el.contains(hit))) };
  }));
}

function assertInView(boxes, what, viewport) {
  assert.ok(boxes.length > 0, `${what} is drawn`);
  for (const b of boxes) {
    assert.ok(b.top >= 0 && b.bottom <= viewport.height && b.left >= 0 && b.right <= viewport.width,
      `${what} is inside the ${viewport.width}×${viewport.height} screen (${JSON.stringify(b)})`);
    assert.ok(b.reachable, `${what} is not covered by anything (${JSON.stringify(b)})`);
  }
}

/* The animation a play arriving in the trick gets (a stand-in play, drawn as the board draws one). */
function arrivalAnimation(page) {
  return page.evaluate(() => {
    const play = document.createElement('div');
    play.className = 'trick-play arriving';
    play.dataset.from = 'bottom';
    document.querySelector('#trick').appendChild(play);
    const name = getComputedStyle(play).animationName;
    play.remove();
    return name;
  });
}

/* The tops of the trick's tiles: all the same when the trick lies in one row. */
function trickTileTops(page) {
  return page.$$eval('#trick .trick-plays .tile', (tiles) => tiles.map((t) => Math.round(t.getBoundingClientRect().top)));
}

describe('the table on a phone and on a desktop', () => {
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

  for (const PHONE of PHONES) it(`keeps the hint, the hand and Play on the first screen of a ${PHONE.width}×${PHONE.height} phone through every turn of a hand`, async () => {
    const page = await openDevice(browser, server.url, PHONE, true);
    await enterName(page, 'Siu Ming');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight)); /* the create form is far down a phone's lobby */
    await createTable(page);
    assert.equal(await page.evaluate(() => window.scrollY), 0, 'the table page opens at its top');
    await page.click('#fill-bots');
    await page.waitForSelector('#start-hand:not([disabled])');
    await page.click('#start-hand');
    await page.waitForSelector('#table-page[data-phase="playing"]');
    const startY = await page.evaluate(() => window.scrollY);
    assert.equal(startY, 0, 'starting the hand does not scroll the page');
    /* the widest the page and its layout viewport get at any frame of the hand, plays sliding in included */
    await page.evaluate(() => {
      window.widest = 0;
      const sample = () => {
        window.widest = Math.max(window.widest, document.documentElement.scrollWidth, window.innerWidth);
        requestAnimationFrame(sample);
      };
      sample();
    });

    let turns = 0;
    let rows = 0;
    for (;;) {
      await page.waitForSelector('#table-page[data-my-turn="true"], #table-page:not([data-phase="playing"])');
      if (await page.getAttribute('#table-page', 'data-phase') !== 'playing') break;
      turns += 1;
      /* a play still sliding into the trick is not where it lies */
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      assert.equal(await page.evaluate(() => window.scrollY), startY, `turn ${turns}: the page has not scrolled`);
      assertInView(await onScreen(page, '#play-hint'), `turn ${turns}: the hint`, PHONE);
      assertInView(await onScreen(page, '#hand .tile'), `turn ${turns}: every tile of the hand`, PHONE);
      assertInView(await onScreen(page, '#play-button'), `turn ${turns}: the Play button`, PHONE);
      if (await page.$('#discard-button')) assertInView(await onScreen(page, '#discard-button'), `turn ${turns}: the Discard button`, PHONE);
      const tops = await trickTileTops(page);
      if (tops.length > 1) {
        rows += 1;
        assert.equal(Math.max(...tops) - Math.min(...tops), 0, `turn ${turns}: the trick's ${tops.length} tiles lie in one row`);
      }
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= PHONE.width, 'nothing scrolls sideways');
      if (turns === 2) await screenshot(page, `phone-table-turn-${PHONE.width}x${PHONE.height}`, { fullPage: false });
      await playOneMove(page);
    }
    assert.ok(await page.evaluate(() => window.widest) <= PHONE.width, 'nothing widens the page at any moment of the hand');
    assert.ok(turns >= 4, `the player had turns to check (${turns})`);
    assert.ok(rows >= 1, 'a trick with tiles in it was checked');
    assert.equal(await arrivalAnimation(page), 'tg-arrive', 'a play slides into the trick');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('names every tile of the hand under it on a 1280×900 desktop, and draws the chat\'s emoji', async () => {
    const desk = { width: 1280, height: 900 };
    const page = await openDevice(browser, server.url, desk, false, 'reduce');
    await enterName(page, 'Ah Ma');
    await createTable(page);
    await page.click('#fill-bots');
    await page.waitForSelector('#start-hand:not([disabled])');
    await page.click('#start-hand');
    await page.waitForSelector('#table-page[data-my-turn="true"]');
    const faces = await handTiles(page);
    const named = await page.$$eval('#hand .tile', (tiles) => tiles.map((t) => {
      const art = t.querySelector('svg').getBoundingClientRect();
      const name = t.querySelector('.tile-name');
      const r = name ? name.getBoundingClientRect() : null;
      return { text: name ? name.innerText.replace(/\s+/g, ' ').trim() : '', below: r ? r.top >= art.bottom - 1 : false,
        shown: Boolean(r && r.height > 0 && getComputedStyle(name).visibility === 'visible'), bottom: r ? r.bottom : 0,
        artHeight: art.height };
    }));
    assert.equal(named.length, faces.length);
    named.forEach((n, i) => {
      assert.ok(n.text.endsWith(ZH_HANT[faces[i]]) && n.text.length > ZH_HANT[faces[i]].length,
        `tile ${faces[i]} is named under it, in English and by its traditional name ${ZH_HANT[faces[i]]} (${n.text})`);
      assert.ok(n.shown && n.below, `the name of ${faces[i]} shows under the tile`);
      assert.ok(n.bottom <= desk.height, 'the names are on the first screen');
      assert.ok(n.artHeight >= 80, `the hand's tiles are large (${n.artHeight} px)`);
    });
    await screenshot(page, 'desktop-table-turn', { fullPage: false });
    assert.equal(await arrivalAnimation(page), 'none', 'no slide for a player who asks for reduced motion');

    /* the quick reactions' emoji are drawn, not left to a font this machine may not have */
    const reactions = () => page.$$eval('.chat-reaction', (buttons) => buttons.map((b) => {
      const art = b.querySelector('.emoji[role="img"] svg');
      const box = art ? art.getBoundingClientRect() : null;
      return { text: b.textContent, label: b.querySelector('.emoji')?.getAttribute('aria-label') || '', drawn: Boolean(box && box.width >= 12) };
    }));
    for (const r of (await reactions()).filter((x) => /\p{Extended_Pictographic}/u.test(x.text))) {
      assert.ok(r.drawn && r.label, `the reaction ${r.text} is drawn and named (${r.label})`);
    }
    assert.deepEqual((await reactions()).filter((r) => !r.drawn).map((r) => r.text), ['好牌!', '再來!']);
    await page.click('[data-lang="zh-Hans"]');
    await page.waitForSelector('.chat-reaction[data-text="再来!"]');
    assert.equal((await reactions()).length, 5);
    assert.ok(!(await reactions()).some((r) => r.text === '再來!'), '简体中文 says 再来!, not 再來!');
    await page.click('.chat-reaction[data-text="再来!"]');
    await page.waitForFunction(() => [...document.querySelectorAll('#chat-log .chat-text')].some((el) => el.textContent === '再来!'));
    await page.click('[data-lang="zh-Hant"]');
    await page.waitForSelector('.chat-reaction[data-text="再來!"]');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
