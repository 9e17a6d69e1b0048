/*
 * tianjin_table — Tianjin Mahjong played in Chromium against the real server, through the
 * Tianjin controls only: one player and three bots play a whole hand to its settlement, which is
 * checked against the server's hand_over (fans or the drawn hand, every payment line with its
 * factor, net and scores); the buttons shown on each decision are exactly what the seat's
 * `legal` lists; a reload in the middle of a claim window brings the seat, its Pass button and the
 * window's countdown back and running; the language switch relabels a Tianjin table (混兒 / 混儿); and
 * on a 375×667 phone the hand and its buttons are on the first screen.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createTable, enterName, handOvers, launchBrowser, openPage, recordFrames, signed, startServer } from './harness.js';
import { playTianjinHand, soloTianjin, tianjinState, untilClaimWindow } from './tianjin_play.js';

/* The buttons a decision should show for a `legal`: its action kinds but the discard, sorted. */
function legalKinds(legal) {
  if (!legal) return [];
  return [...new Set(legal.actions.map((a) => Object.keys(a)[0]).filter((k) => k !== 'discard' && k !== 'sit' && k !== 'pull'))].sort();
}

describe('Tianjin Mahjong in the browser', () => {
  let server;
  let browser;
  before(async () => {
    server = await startServer(['--next-hand-seconds', '60']); /* the settlement stays while it is read */
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('opens Tianjin tables from the lobby with every option, 刮大风 included, and lists the public one with them', async () => {
    const page = await openPage(browser, server.url);
    const frames = recordFrames(page);
    await enterName(page, 'Ka Yan');
    assert.deepEqual(await page.$$eval('#create-game option', (els) => els.map((el) => el.value)), ['tiengow', 'tianjin'],
      'the lobby offers the games the welcome announced');
    const chosen = { gua_da_feng: true, wild_discard_penalty: true, gold_kong_fan: 4, chan: true, must_sit: true, max_pulls: 2,
      no_replacement: 'skip_indicator', base: 5, claim_seconds: 12 };
    const code = await createTable(page, { game: 'tianjin', isPublic: true, options: chosen });
    const created = frames.sent.find((m) => m.type === 'create_table');
    assert.deepEqual(created.options, chosen, 'create_table sends every option as chosen');
    const snapshot = frames.received.find((m) => m.type === 'snapshot' && m.table === code);
    assert.equal(snapshot.info.game, 'tianjin');
    assert.deepEqual(snapshot.info.options, chosen, 'the server keeps them');
    assert.match(await page.textContent('#table-rules'), /刮大风 · wild discard pays · 金杠 4 · 铲 · 死坐庄 · 拉庄 ×2 · kong past the indicator · base 5 · claims 12 s/);

    const other = await openPage(browser, server.url);
    await enterName(other, 'Siu Ming');
    const row = other.locator(`#public-tables li[data-code="${code}"]`);
    await row.waitFor();
    const text = await row.textContent();
    assert.match(text, /Tianjin Mahjong 天津麻将/);
    assert.match(text, /刮大风 · wild discard pays · 金杠 4/, 'the list shows its options');
    /* the standard preset by its defaults, from the same form */
    await page.click('#leave-table');
    await page.waitForSelector('#create-form');
    const plain = await createTable(page, { game: 'tianjin', options: { gua_da_feng: false } });
    const standard = frames.received.filter((m) => m.type === 'snapshot' && m.table === plain).pop();
    assert.deepEqual(standard.info.options, { gua_da_feng: false, wild_discard_penalty: false, gold_kong_fan: 8, chan: false,
      must_sit: false, max_pulls: 1, no_replacement: 'draw', base: 1, claim_seconds: 5 });
    assert.deepEqual([...page.errors, ...other.errors], []);
    await page.context().close();
    await other.context().close();
  });

  it('plays a whole hand with three bots to a settlement that matches the server\'s', async () => {
    const { page, frames } = await soloTianjin(browser, server.url, 'Ah Ma', { options: { max_pulls: 2 } });
    const mismatches = [];
    const made = await playTianjinHand(page, 1, { onTurn: async () => {
      /* read in one go, so the view and what is drawn from it are of the same moment */
      const seen = await page.evaluate(() => {
        const ts = window.teahouse.tables.get(document.querySelector('#table-page').dataset.code);
        return { legal: ts.view && ts.view.legal,
          shown: [...document.querySelectorAll('#me-area button[data-act]')].map((el) => el.dataset.act).sort(),
          can: [...new Set([...document.querySelectorAll('#mj-hand button.mj-tile:not([disabled])')].map((el) => el.dataset.tile))].sort() };
      });
      if (!seen.legal) return;
      if (JSON.stringify(seen.shown) !== JSON.stringify(legalKinds(seen.legal))) mismatches.push(seen);
      if (seen.legal.kind === 'turn') {
        const listed = [...new Set(seen.legal.actions.filter((a) => a.discard).map((a) => a.discard))].sort();
        if (seen.can.length && JSON.stringify(seen.can) !== JSON.stringify(listed)) mismatches.push({ ...seen, listed });
      }
    } });
    assert.deepEqual(mismatches, [], 'every decision shows exactly what legal lists');
    assert.ok(made.discard > 0 || made.win > 0, `the player moved: ${JSON.stringify(made)}`);
    await page.waitForSelector('#settlement');
    const over = handOvers(frames)[0];
    assert.ok(over, 'the server sent hand_over');
    const r = over.result;
    const title = await page.textContent('#settlement h2');
    if (r.winner === null) {
      assert.match(title, /drawn \(荒牌\)/);
    } else {
      assert.match(title, /wins by self-draw/);
      assert.deepEqual(await page.$$eval('.mj-fans li', (els) => els.map((el) => el.dataset.fan)), r.win.fans.map((f) => f.name));
      assert.equal(await page.getAttribute('.mj-fan-total', 'data-fan'), String(r.win.fan));
      assert.equal(await page.$$eval('#mj-reading .mj-meld', (els) => els.length), r.win.reading.length, 'the hand laid out as its reading');
    }
    const lines = await page.$$eval('.mj-payment', (els) => els.map((el) => ({ from: Number(el.dataset.from), to: Number(el.dataset.to),
      units: Number(el.dataset.units), factor: Number(el.dataset.factor), text: el.textContent })));
    assert.deepEqual(lines.map(({ from, to, units, factor }) => ({ from, to, units, factor })),
      r.payments.map(({ from, to, units, factor }) => ({ from, to, units, factor })), 'every payment line with its factor');
    for (const line of lines) assert.match(line.text, /pays .* = \d+ fan × base 1.* — /);
    const net = await page.$$eval('#settlement .settle-table tbody td.net', (els) => els.map((el) => el.textContent));
    assert.deepEqual(net, r.net.map(signed));
    const totals = await page.$$eval('#settlement .settle-table tbody td.total', (els) => els.map((el) => el.textContent));
    assert.deepEqual(totals, r.net.map(signed), 'after one hand the table scores are its net');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('keeps the seat and the pending claim decision, countdown running, across a reload', async () => {
    const { page } = await soloTianjin(browser, server.url, 'Bo Bo', { options: { claim_seconds: 20 } });
    /* pass windows until one has at least 12 s left, so the reload lands inside it, and where the
     * player can only pass (a bot covering a dropped seat that can claim claims at once) */
    for (;;) {
      await untilClaimWindow(page);
      const left = Number(await page.$eval('#mj-claim-timer', (el) => el.dataset.deadline)) - Date.now();
      const { view } = await tianjinState(page);
      if (left > 12000 && view.legal && view.legal.actions.length === 1) break;
      await page.click('#me-area button[data-act="pass"]');
      await page.waitForSelector('#mj-hint:not([data-kind="claim"])');
    }
    const before = await tianjinState(page);
    await page.reload();
    /* the frames it missed may be told first; the snapshot brings the open window back */
    await page.waitForFunction((discard) => {
      const ts = window.teahouse && window.teahouse.tables.get(document.querySelector('#table-page')?.dataset.code);
      return ts && ts.view && JSON.stringify(ts.view.discard) === discard && document.querySelector('#mj-hint[data-kind="claim"] #mj-claim-timer');
    }, JSON.stringify(before.view.discard), { timeout: 10000 }).catch(async (e) => {
      const now = await tianjinState(page);
      throw new Error(`${e.message}: the window was ${JSON.stringify(before.view.discard)}, now ${JSON.stringify(now.view && now.view.discard)}`
        + ` (legal ${JSON.stringify(now.view && now.view.legal)}, deciding ${JSON.stringify(now.deciding)})`);
    });
    const after = await tianjinState(page);
    assert.equal(after.seat, before.seat, 'the same seat');
    assert.deepEqual(after.view.discard, before.view.discard, 'the same window');
    assert.deepEqual(after.view.hand, before.view.hand);
    assert.equal(await page.locator('#me-area button[data-act="pass"]').count(), 1, 'the Pass button is back');
    /* the server gives a returning person a fresh clock for the decision: at most claim_seconds again */
    const left = () => page.$eval('#mj-claim-timer', (el) => Number(el.textContent.match(/\d+/)[0]));
    const shown = await left();
    assert.ok(shown > 0 && shown <= 20, `the countdown says ${shown} s`);
    await page.waitForFunction((n) => Number(document.querySelector('#mj-claim-timer').textContent.match(/\d+/)[0]) < n, shown);
    await page.click('#me-area button[data-act="pass"]');
    await page.waitForSelector('#mj-hint:not([data-kind="claim"])');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('relabels a Tianjin table in 繁體, 简体 and English, 混兒 and 混儿 included', async () => {
    const { page } = await soloTianjin(browser, server.url, 'Siu Ming');
    /* the wilds show once the banker has sat or not and the others pulled: decline when asked */
    for (;;) {
      await page.waitForSelector('.mj-wilds .mj-tile, #mj-no-sit:not([disabled]), #mj-no-pull:not([disabled])');
      if (await page.locator('.mj-wilds .mj-tile').count()) break;
      await page.locator('#mj-no-sit:not([disabled]), #mj-no-pull:not([disabled])').first().click({ timeout: 2000 }).catch(() => {});
    }
    const wild = await page.getAttribute('.mj-wilds .mj-tile', 'data-tile');
    const expect = {
      'zh-Hant': { label: '混兒', wild: '混兒', wind: '東' },
      'zh-Hans': { label: '混儿', wild: '混儿', wind: '东' },
      en: { label: 'Wilds 混儿', wild: 'wild 混儿', wind: 'East' },
    };
    for (const l of ['zh-Hant', 'zh-Hans', 'en']) {
      await page.click(`[data-lang="${l}"]`);
      await page.waitForFunction((lang) => document.documentElement.lang === lang, l);
      const label = await page.textContent('.mj-wilds .mj-label');
      assert.ok(label.includes(expect[l].label), `${l}: the wilds are labelled ${label}`);
      const aria = await page.getAttribute(`.mj-wilds .mj-tile[data-tile="${wild}"]`, 'aria-label');
      assert.ok(aria.endsWith(expect[l].wild), `${l}: a wild is named ${aria}`);
      assert.equal((await page.innerText('.seat[data-seat="0"] .seat-wind')).trim(), expect[l].wind);
      const other = l === 'zh-Hant' ? '混儿' : '混兒';
      assert.ok(!(await page.textContent('#table-page')).includes(other), `${l} never writes ${other}`);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('shows the hand and its buttons on the first screen of a 375×667 phone', async () => {
    const { page } = await soloTianjin(browser, server.url, 'Ah Ma', { viewport: { width: 375, height: 667 }, options: { claim_seconds: 8 } });
    const onFirstScreen = async (selector) => {
      for (const box of await page.$$eval(selector, (els) => els.map((el) => {
        const r = el.getBoundingClientRect();
        return { top: r.top + window.scrollY, bottom: r.bottom + window.scrollY, left: r.left, right: r.right };
      }))) {
        assert.ok(box.top >= 0 && box.bottom <= 667 && box.left >= 0 && box.right <= 375, `${selector} at ${JSON.stringify(box)}`);
      }
    };
    await untilClaimWindow(page);
    await onFirstScreen('#mj-hand .mj-tile');
    await onFirstScreen('#me-area button[data-act]');
    await onFirstScreen('#mj-claim-timer');
    await page.click('#me-area button[data-act="pass"]');
    await page.waitForSelector('#mj-hand button.mj-tile:not([disabled])', { timeout: 120000 });
    await onFirstScreen('#mj-hand .mj-tile');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 375, 'nothing scrolls sideways');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
