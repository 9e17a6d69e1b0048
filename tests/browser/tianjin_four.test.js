/*
 * tianjin_four — four people at one Tianjin table, each in their own browser context, join by
 * code and take their seats; one pungs a discard and one makes a kong (by claim, or added to a
 * pung), through the Tianjin buttons. The deal is made deterministic with the server's test-only
 * --deal-seed, and the test steers the discards: it sees all four hands, so the seat to discard
 * throws a tile another seat holds two (for the pung) or three (for the kong) of. Every claim
 * window is checked: only the seat that can claim is offered pung or kong, the others only pass.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createTable, enterName, launchBrowser, openPage, recordFrames, startServer } from './harness.js';
import { tianjinState } from './tianjin_play.js';

const SEED = process.env.TJ_SEED || '1';

/* The page's seq, to wait until every page has had the same frames. */
function seqOf(page) {
  return page.evaluate(() => window.teahouse.tables.get(document.querySelector('#table-page').dataset.code).seq);
}

async function settle(pages) {
  let last = null;
  for (let i = 0; i < 200; i++) {
    last = await Promise.all(pages.map(seqOf));
    if (last.every((s) => s === last[0])) {
      await Promise.all(pages.map((p) => p.waitForFunction(() => !document.querySelector('#me-area .mj-status')?.textContent)));
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function count(hand, tile) {
  return (hand || []).filter((x) => x === tile).length;
}

async function press(page, selector) {
  await page.locator(selector).first().click();
  await page.waitForFunction(() => !document.querySelector('#me-area .mj-status')?.textContent);
}

describe('four people at a Tianjin table', () => {
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

  it('join by code; one pungs a discard and one makes a kong through the buttons', async () => {
    const names = ['Ah Ma', 'Bo Bo', 'Ka Yan', 'Siu Ming'];
    const host = await openPage(browser, server.url);
    const frames = recordFrames(host);
    await enterName(host, names[0]);
    const code = await createTable(host, { game: 'tianjin', options: { claim_seconds: 30 } });
    const pages = [host];
    for (let seat = 1; seat <= 3; seat++) {
      const page = await openPage(browser, server.url);
      await enterName(page, names[seat]);
      await page.fill('#join-code', code);
      await page.click('#join-submit');
      await page.waitForSelector(`#table-page[data-code="${code}"] .seat[data-seat="${seat}"] .sit-here`);
      await page.click(`.seat[data-seat="${seat}"] .sit-here`);
      await page.waitForSelector(`#table-page[data-seat="${seat}"]`);
      pages.push(page);
    }
    await host.waitForSelector('#start-hand:not([disabled])');
    await host.click('#start-hand');
    await Promise.all(pages.map((p) => p.waitForSelector('#table-page[data-phase="playing"]')));

    const done = { pung: null, kong: null };
    const windows = [];
    for (let step = 0; step < 600 && !(done.pung && done.kong); step++) {
      await settle(pages);
      const states = await Promise.all(pages.map(tianjinState));
      const view0 = states[0].view;
      if (!view0 || view0.over) break;
      const owing = states.map((s, seat) => ({ seat, legal: s.view && s.view.legal, view: s.view })).filter((s) => s.legal);
      if (!owing.length) continue;
      const kind = owing[0].legal.kind;
      if (kind === 'pre_hand') {
        for (const o of owing) await press(pages[o.seat], '#mj-no-sit, #mj-no-pull');
        continue;
      }
      if (kind === 'claim') {
        const shown = await Promise.all(owing.map((o) => pages[o.seat].$$eval('#me-area button[data-act]', (els) => els.map((el) => el.dataset.act).sort())));
        const window = { discard: view0.discard, offers: owing.map((o, i) => ({ seat: o.seat, shown: shown[i],
          listed: o.legal.actions.map((a) => Object.keys(a)[0]).sort() })) };
        windows.push(window);
        const claimer = owing.find((o) => o.legal.actions.some((a) => a.pung || a.kong));
        const kong = claimer && claimer.legal.actions.some((a) => a.kong) && !done.kong;
        const pung = claimer && claimer.legal.actions.some((a) => a.pung) && !done.pung;
        if (kong || pung) {
          await press(pages[claimer.seat], `#me-area button[data-act="${kong ? 'kong' : 'pung'}"]`);
          done[kong ? 'kong' : 'pung'] = { seat: claimer.seat, tile: view0.discard.tile, by: kong ? 'kong' : 'pung' };
        } else {
          for (const o of owing) await press(pages[o.seat], '#me-area button[data-act="pass"]');
        }
        continue;
      }
      if (process.env.TJ_DEBUG) console.error(step, kind, JSON.stringify(done));
      /* a turn: an added kong if the seat may, else the discard another seat can claim */
      const turn = owing[0];
      const page = pages[turn.seat];
      const added = turn.legal.actions.find((a) => a.added_kong);
      if (added && !done.kong) {
        await press(page, '#me-area button[data-act="added_kong"]');
        done.kong = { seat: turn.seat, tile: added.added_kong, by: 'added_kong' };
        continue;
      }
      const wilds = new Set(turn.view.wilds || []);
      const discards = [...new Set(turn.legal.actions.filter((a) => a.discard).map((a) => a.discard))];
      const natural = discards.filter((t) => !wilds.has(t));
      const others = states.filter((s) => s.seat !== turn.seat);
      const wanted = (n) => natural.find((t) => others.some((s) => count(s.view.hand, t) >= n));
      const pick = (!done.kong && wanted(3)) || (!done.pung && wanted(2)) || turn.view.drawn || natural[0] || discards[0];
      await press(page, `#mj-hand button.mj-tile[data-tile="${pick}"]:not([disabled])`);
    }

    assert.ok(done.pung, 'a seat punged a discard');
    assert.ok(done.kong, 'a seat made a kong by claim or added to its pung');
    for (const w of windows) {
      for (const o of w.offers) {
        assert.deepEqual(o.shown, o.listed, 'the buttons are what legal lists');
        if (o.shown.includes('pung') || o.shown.includes('kong')) {
          assert.ok(w.offers.filter((x) => x.shown.length > 1).length === 1, 'only one seat may claim');
        }
      }
    }
    assert.ok(windows.some((w) => w.offers.every((o) => o.shown.length === 1)), 'windows nobody can claim offer only the pass');
    await settle(pages);
    const events = frames.received.filter((m) => m.type === 'event' && m.event.kind === 'action').map((m) => m.event);
    assert.ok(events.some((e) => e.seat === done.pung.seat && e.pung === done.pung.tile), 'everyone is told of the pung');
    assert.ok(events.some((e) => e.seat === done.kong.seat && e[done.kong.by] === done.kong.tile), 'everyone is told of the kong');
    for (const page of pages) {
      const melds = await page.$$eval(`.mj-area[data-seat="${done.pung.seat}"] .mj-meld`, (els) => els.map((el) => el.className));
      assert.ok(melds.some((c) => /mj-meld-(pung|kong)/.test(c)), 'every page shows the pung in that seat\'s melds');
      const kongs = await page.$$eval(`.mj-area[data-seat="${done.kong.seat}"] .mj-meld-kong`, (els) => els.length);
      assert.ok(kongs >= 1, 'every page shows the kong');
      assert.deepEqual(page.errors, []);
    }
  });
});
