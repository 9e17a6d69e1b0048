/*
 * replay — a finished hand's replay page, opened from its link by someone who was not there: a
 * player plays a hand with three bots (Tien Gow, then Tianjin), a friend in a fresh browser
 * context opens #/r/CODE/1 (too early, while the hand is played, it is refused clearly; after, it
 * opens), sees all four hands, and plays, pauses, steps, jumps to a trick or a discard, to the
 * start and the end, with the buttons and the keys; the downloaded JSON is fed to the real
 * calculator (build-x/tools/score/teahouse-score beside the server), which gives the hand's own
 * result back. A wrong code and a hand number never reached give clear errors. The server deals
 * from --deal-seed, so every run plays the same hands.
 *
 * With REPLAY_SHOTS=DIR set, the replay page is also photographed at 1280×900 and 375×667 in the
 * three languages into DIR.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { handOvers, launchBrowser, openPage, playToSettlement, soloTable, startServer } from './harness.js';
import { playTianjinHand, soloTianjin } from './tianjin_play.js';

const SEED = '20261124';
const SCORE = process.env.TEAHOUSE_SCORE
  || path.join(path.dirname(process.env.TEAHOUSE_SERVER || ''), '..', 'tools', 'score', 'teahouse-score');
const SHOTS = process.env.REPLAY_SHOTS || null;

const pageState = (page) => page.$eval('#replay-page', (el) => ({ ...el.dataset }));
const openHands = (page) => page.$$eval('#replay-page .open-hand', (els) => els.map((el) => ({
  seat: Number(el.dataset.seat), tiles: Number(el.dataset.tiles),
})));

async function atStep(page, step) {
  await page.waitForSelector(`#replay-page[data-step="${step}"]`);
}

/* A newcomer names themself on the first form; the link's page comes next. */
async function nameOnLink(page, name) {
  await page.fill('#name-input', name);
  await page.click('#name-submit');
  await page.waitForSelector('#replay-page');
}

/* A friend who was not at the table opens the link in a browser context of their own. */
async function friendOpens(browser, url, hash, name, opts = {}) {
  const page = await openPage(browser, url, { hash, ...opts });
  await nameOnLink(page, name);
  await page.waitForSelector('#replay-page[data-state="loaded"], #replay-page[data-state="error"]');
  return page;
}

/* The downloaded document, answered by the real calculator. */
async function exportAndScore(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#replay-download')]);
  const file = await download.path();
  const text = fs.readFileSync(file, 'utf8');
  const doc = JSON.parse(text);
  const answer = JSON.parse(execFileSync(SCORE, [], { input: text }).toString());
  return { doc, answer, name: download.suggestedFilename() };
}

/* Every key the calculator's answer shares with the stored result is the same (net always). */
function assertSameResult(answer, result) {
  assert.ok(!answer.error, `the calculator refused the export: ${JSON.stringify(answer.error)}`);
  assert.deepEqual(answer.net, result.net, 'the calculator gives the hand\'s net');
  let shared = 0;
  for (const [key, value] of Object.entries(answer)) {
    if (result[key] === undefined) continue;
    shared++;
    assert.deepEqual(value, result[key], `the calculator's ${key} is the hand's`);
  }
  assert.ok(shared >= 3, `${shared} keys compared`);
}

/* The step each option of the jump list goes to. */
const jumpSteps = (page) => page.$$eval('#replay-jump option', (els) => els.map((el) => ({ step: Number(el.value), text: el.textContent })));

async function photograph(browser, url, hash, game) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  const sizes = { desktop: { width: 1280, height: 900 }, phone: { width: 375, height: 667 } };
  for (const [locale, lang] of [['en-US', 'en'], ['zh-TW', 'zh-Hant'], ['zh-CN', 'zh-Hans']]) {
    for (const [size, viewport] of Object.entries(sizes)) {
      const page = await openPage(browser, url, { hash, viewport, locale });
      await page.evaluate((l) => localStorage.setItem('teahouse.lang', l), lang);
      await page.reload();
      await nameOnLink(page, 'Shot');
      await page.waitForSelector('#replay-page[data-state="loaded"]');
      await page.screenshot({ path: path.join(SHOTS, `replay-${game}-${size}-${lang}-start.png`), fullPage: false });
      await page.keyboard.press('End');
      await page.waitForSelector('#replay-settlement');
      await page.waitForTimeout(800); /* the last plays have slid into the middle */
      await page.screenshot({ path: path.join(SHOTS, `replay-${game}-${size}-${lang}-end.png`), fullPage: true });
      assert.deepEqual(page.errors, []);
      await page.context().close();
    }
  }
}

describe('a finished hand\'s replay, from its link', () => {
  let server;
  let browser;
  before(async () => {
    server = await startServer(['--deal-seed', SEED, '--next-hand-seconds', '60']);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('opens a Tien Gow hand for a friend who was not there, with all four hands, play, pause, steps and jumps', async () => {
    const { page, frames, code } = await soloTable(browser, server.url, 'Ah Ma');
    const hash = `#/r/${code}/1`;

    /* the link while the hand is still being played: refused, saying why */
    const early = await friendOpens(browser, server.url, hash, 'Early Bird');
    assert.equal((await pageState(early)).error, 'no_such_hand');
    assert.match(await early.textContent('#replay-error'), /still being played/);

    await playToSettlement(page, 1);
    const over = handOvers(frames).find((e) => e.hand === 1);
    assert.ok(over, 'the hand was settled');
    /* once it is over, the same page opens it on a second try */
    await early.click('#replay-retry');
    await early.waitForSelector('#replay-page[data-state="loaded"]');
    assert.equal(await early.locator('#replay-page .open-hand').count(), 4);
    await early.context().close();

    /* the history links to the replay page */
    await page.click('#history-toggle');
    await page.locator('.history-entry[data-hand="1"] .history-open').click();
    const link = page.locator('#history-replay-link-1');
    await link.waitFor();
    assert.equal(await link.getAttribute('href'), hash);

    const friend = await friendOpens(browser, server.url, hash, 'Bo Bo');
    await friend.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const state = await pageState(friend);
    assert.equal(state.state, 'loaded');
    assert.equal(state.game, 'tiengow');
    const steps = Number(state.steps);
    const natural = over.result.endings && over.result.endings.includes('natural');
    assert.ok(natural ? steps >= 1 : steps >= 9, `${steps} steps`);

    /* the deal: every seat's eight tiles, each under its seat */
    const dealt = await openHands(friend);
    assert.deepEqual(dealt.map((x) => x.seat).sort(), [0, 1, 2, 3]);
    for (const hand of dealt) assert.equal(hand.tiles, 8, `seat ${hand.seat} shows its eight tiles`);
    assert.equal(await friend.locator('#replay-page .open-hand .tile').count(), 32);
    assert.match(await friend.textContent('#replay-caption'), /^Hand 1 is dealt/);

    /* step forward and back, with the buttons and the arrows */
    await friend.click('#replay-next');
    await atStep(friend, 1);
    assert.equal((await openHands(friend)).reduce((n, x) => n + x.tiles, 0) < 32, true, 'a play leaves a hand');
    await friend.keyboard.press('ArrowRight');
    await atStep(friend, 2);
    await friend.keyboard.press('ArrowLeft');
    await atStep(friend, 1);
    await friend.click('#replay-prev');
    await atStep(friend, 0);
    assert.equal(await friend.isDisabled('#replay-prev'), true);

    /* to the end and back to the start */
    await friend.keyboard.press('End');
    await atStep(friend, steps - 1);
    assert.equal(await friend.isDisabled('#replay-next'), true);
    await friend.waitForSelector('#replay-settlement');
    for (const hand of await openHands(friend)) assert.equal(hand.tiles, 0, 'every tile was played by the end');
    await friend.keyboard.press('Home');
    await atStep(friend, 0);
    await friend.click('#replay-end');
    await atStep(friend, steps - 1);
    await friend.click('#replay-start');
    await atStep(friend, 0);

    /* play runs a step a second; pause holds it; space does both */
    await friend.click('#replay-play');
    await friend.waitForSelector('#replay-page[data-playing="true"]');
    await friend.waitForFunction(() => Number(document.querySelector('#replay-page').dataset.step) >= 2, null, { timeout: 5000 });
    await friend.keyboard.press(' ');
    await friend.waitForSelector('#replay-page[data-playing="false"]');
    const held = Number((await pageState(friend)).step);
    await friend.waitForTimeout(1600);
    assert.equal(Number((await pageState(friend)).step), held, 'paused, it stays');
    await friend.keyboard.press(' ');
    await friend.waitForSelector('#replay-page[data-playing="true"]');
    await friend.keyboard.press(' ');
    await friend.waitForSelector('#replay-page[data-playing="false"]');

    /* jump to a trick: its lead is the step shown, the trick in the middle */
    const jumps = await jumpSteps(friend);
    const tricks = jumps.filter((j) => /^Trick \d+$/.test(j.text));
    assert.ok(tricks.length >= 2, 'the tricks are offered');
    await friend.selectOption('#replay-jump', String(tricks[1].step));
    await atStep(friend, tricks[1].step);
    assert.match(await friend.textContent('#replay-caption'), /leads|plays/);

    /* every step from the start: no tile face down in the trick (a discard shows its faces now) */
    await friend.keyboard.press('Home');
    await atStep(friend, 0);
    let opened = 0;
    for (let i = 1; i < steps; i++) {
      await friend.keyboard.press('ArrowRight');
      await atStep(friend, i);
      assert.equal(await friend.locator('#trick .tile-back').count(), 0, `step ${i} hides no tile`);
      opened += await friend.locator('#trick .discard-open .tile').count();
    }
    assert.ok(opened > 0, 'this hand (of the fixed deal) has discards, shown face up');

    /* copy link */
    await friend.click('#replay-copy');
    const copied = await friend.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, `${server.url}/${hash}`);
    assert.equal(await friend.inputValue('#replay-link'), `${server.url}/${hash}`);

    /* the JSON export is the calculator's document, and gives the hand's result back */
    const { doc, answer, name } = await exportAndScore(friend);
    assert.equal(name, `teahouse-${code}-hand-1.json`);
    assert.equal(doc.mode, 'replay');
    assert.equal(doc.game, 'tiengow');
    assert.equal(doc.seed, undefined, 'never the seed');
    assertSameResult(answer, over.result);

    assert.deepEqual(page.errors, []);
    assert.deepEqual(friend.errors, []);
    await photograph(browser, server.url, hash, 'tiengow');
    await Promise.all([page.context().close(), friend.context().close()]);
  });

  it('says clearly when the link names no table or a hand never reached', async () => {
    const { page, code } = await soloTable(browser, server.url, 'Host');
    const wrong = await friendOpens(browser, server.url, '#/r/ZZZZZZ/1', 'Lost');
    assert.equal((await pageState(wrong)).error, 'no_such_table');
    assert.match(await wrong.textContent('#replay-error'), /No table has the code ZZZZZZ/);
    await wrong.goto(`${server.url}/#/r/${code}/40`);
    await wrong.waitForSelector('#replay-page[data-hand="40"][data-state="error"]');
    assert.equal((await pageState(wrong)).error, 'no_such_hand');
    assert.match(await wrong.textContent('#replay-error'), new RegExp(`Table ${code} has no finished hand 40`));
    assert.deepEqual(wrong.errors, []);
    await Promise.all([page.context().close(), wrong.context().close()]);
  });

  it('opens a Tianjin hand with all four hands and melds, jumps to a discard and exports it for the calculator', async () => {
    const { page, frames, code } = await soloTianjin(browser, server.url, 'Ka Yan');
    await playTianjinHand(page, 1);
    const over = handOvers(frames).find((e) => e.hand === 1);
    assert.ok(over, 'the hand was settled');
    const hash = `#/r/${code}/1`;
    const friend = await friendOpens(browser, server.url, hash, 'Siu Ming');
    const state = await pageState(friend);
    assert.equal(state.game, 'tianjin');
    const steps = Number(state.steps);
    assert.ok(steps > 10, `${steps} steps`);

    /* after the deal every seat holds 13 tiles or more, all shown */
    const jumps = await jumpSteps(friend);
    const discards = jumps.filter((j) => /^Discard \d+: /.test(j.text));
    assert.ok(discards.length >= 4, 'the discards are offered');
    await friend.selectOption('#replay-jump', String(discards[0].step));
    await atStep(friend, discards[0].step);
    const hands = await openHands(friend);
    assert.deepEqual(hands.map((x) => x.seat).sort(), [0, 1, 2, 3]);
    for (const hand of hands) assert.ok(hand.tiles >= 13 || hand.tiles % 3 === 1, `seat ${hand.seat} shows ${hand.tiles} tiles`);
    assert.ok(await friend.locator('#replay-page .mj-open-hand .mj-tile').count() >= 52);
    assert.match(await friend.textContent('#replay-caption'), /discards/);

    /* a later discard, then the end with its settlement */
    await friend.selectOption('#replay-jump', String(discards[3].step));
    await atStep(friend, discards[3].step);
    await friend.keyboard.press('End');
    await atStep(friend, steps - 1);
    await friend.waitForSelector('#replay-settlement');

    const { doc, answer } = await exportAndScore(friend);
    assert.equal(doc.game, 'tianjin');
    assert.equal(doc.seed, undefined, 'the wall as dealt, never the seed');
    assert.equal(doc.wall.length, 136);
    assertSameResult(answer, over.result);

    /* on a 375×667 phone: nothing wider than the screen at any step shown, the controls on the first screen */
    const phone = await friendOpens(browser, server.url, hash, 'Phone', { viewport: { width: 375, height: 667 } });
    for (const step of [0, discards[0].step, steps - 1]) {
      await phone.selectOption('#replay-jump', String(step)).catch(() => phone.keyboard.press('End'));
      await atStep(phone, step);
      const wide = await phone.evaluate(() => document.documentElement.scrollWidth);
      const culprits = wide > 375 ? await phone.evaluate(() => [...document.querySelectorAll('#replay-page *')]
        .filter((el) => el.getBoundingClientRect().right > 376).slice(0, 8)
        .map((el) => `${el.tagName}.${el.className}`).join(', ')) : '';
      assert.ok(wide <= 375, `step ${step}: the page is ${wide} px wide on a 375 px screen (${culprits})`);
    }
    const play = await phone.locator('#replay-play').boundingBox();
    assert.ok(play.y + play.height <= 667, 'play is on the first screen');
    assert.deepEqual(phone.errors, []);
    await phone.context().close();

    assert.deepEqual(page.errors, []);
    assert.deepEqual(friend.errors, []);
    await photograph(browser, server.url, hash, 'tianjin');
    await Promise.all([page.context().close(), friend.context().close()]);
  });
});
