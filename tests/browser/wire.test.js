/*
 * wire — the page against a scripted server: the real server serves the files, but the page's
 * WebSocket is answered by the test, so it can send what Tien Gow never does and the client must
 * still draw: several seats deciding at once (a timer on each), a `view` frame that replaces the
 * player's view, game_state carried by hand_started, and a table of a game the client does not
 * know (its seats still show).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { launchBrowser, startServer } from './harness.js';

const CODE = 'K7M2QX';
const SEATS = [
  { seat: 0, player: 'p1', name: 'Ah Ma', bot: false, connected: true },
  { seat: 1, player: 'p2', name: 'Bo Bo', bot: false, connected: true },
  { seat: 2, player: null, name: null, bot: true, connected: true },
  { seat: 3, player: null, name: null, bot: true, connected: true },
];

/* A Tien Gow view for seat 0 early in a hand, with nobody to act. */
function view(hand, extra = {}) {
  return { game: 'tiengow', banker: 2, multiplier: 3, to_act: null, over: false, held: [hand.length, 8, 8, 8],
    stacks: [0, 0, 0, 0], tricks: [], trick: null, bonuses: [], natural: null, result: null, seat: 0, hand, legal: null, ...extra };
}

function snapshot(game, deciding) {
  return {
    type: 'snapshot', table: CODE, seq: 7, seat: 0, view: game === 'tiengow' ? view(['6-6', '1-1', '4-4', '2-4']) : { over: false },
    info: { code: CODE, game, options: {}, public: false, host: 'p1', state: 'playing', turn_seconds: 30, hands_played: 1,
      scores: [0, 0, 0, 0], seats: SEATS, game_state: { banker: 2, multiplier: 3 }, deciding },
  };
}

/* Opens the table page with the WebSocket answered by the test; returns the page and send(msg). */
async function scriptedTable(browser, url, first) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'en-US' });
  let socket = null;
  await context.routeWebSocket(/\/ws$/, (ws) => {
    socket = ws;
    ws.onMessage((text) => {
      const msg = JSON.parse(text);
      const reply = (m) => ws.send(JSON.stringify({ ...m, id: msg.id }));
      if (msg.type === 'hello') {
        reply({ type: 'welcome', player: { id: 'p1', name: 'Ah Ma', account: null }, token: 'T'.repeat(32), resumed: false });
      } else if (msg.type === 'join_table') reply(first);
      else if (msg.type === 'list_tables') reply({ type: 'tables', tables: [] });
      else if (msg.type !== 'ping') reply({ type: 'ok' });
    });
  });
  await context.addInitScript(() => localStorage.setItem('teahouse.name', 'Ah Ma'));
  const page = await context.newPage();
  page.setDefaultTimeout(20000);
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.errors = errors;
  await page.goto(`${url}/#/t/${CODE}`);
  await page.waitForSelector('#table-page[data-phase="playing"]');
  return { page, send: (msg) => socket.send(JSON.stringify(msg)) };
}

describe('the client on the wire of any game', () => {
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

  it('shows a timer on every deciding seat, follows view frames and hand_started\'s game_state', async () => {
    const { page, send } = await scriptedTable(browser, server.url,
      snapshot('tiengow', [{ seat: 1, kind: 'claim', ms_left: 20000 }, { seat: 3, kind: 'claim', ms_left: null }]));
    const deciding = await page.locator('.seat.to-act').evaluateAll((els) => els.map((e) => e.dataset.seat));
    assert.deepEqual(deciding, ['1', '3']);
    assert.match(await page.innerText('.seat[data-seat="1"] .turn-timer[data-deadline]'), /^(20|19) s$/, 'a person counts down');
    assert.equal(await page.innerText('.seat[data-seat="3"] .turn-timer'), '…', 'a bot pauses');
    assert.equal(await page.getAttribute('#table-page', 'data-my-turn'), 'false');
    assert.equal(await page.innerText('.seat[data-seat="2"] .badge-banker'), '莊 ×3');
    assert.equal(await page.locator('#hand .tile').count(), 4);

    /* a view sent to this seat alone replaces its view; it has no seq */
    send({ type: 'view', table: CODE, view: view(['6-6', '1-1', '4-4']) });
    await page.waitForFunction(() => document.querySelectorAll('#hand .tile').length === 3);

    /* the player's own decision */
    send({ type: 'event', table: CODE, seq: 8, event: { kind: 'action', seat: 1, discard: 1 }, seats: SEATS,
      deciding: [{ seat: 0, kind: 'turn', ms_left: 30000 }],
      view: view(['6-6', '1-1', '4-4'], { to_act: 0, legal: { plays: [['6-6'], ['1-1'], ['4-4']], discard: null, barred: false } }) });
    await page.waitForSelector('#table-page[data-my-turn="true"]');
    assert.deepEqual(await page.locator('.seat.to-act').evaluateAll((els) => els.map((e) => e.dataset.seat)), ['0']);
    await page.locator('#hand .tile').first().click();
    assert.equal(await page.isEnabled('#play-button'), true);

    /* a new hand names its banker in game_state */
    send({ type: 'event', table: CODE, seq: 9, event: { kind: 'hand_started', hand: 2, game_state: { banker: 0, multiplier: 2 } },
      seats: SEATS, deciding: [{ seat: 0, kind: 'turn', ms_left: 30000 }],
      view: view(['6-6', '1-1', '4-4', '2-4'], { banker: 0, multiplier: 2, to_act: 0 }) });
    await page.waitForSelector('#table-page[data-hand="2"]');
    assert.equal(await page.innerText('.seat[data-seat="0"] .badge-banker'), '莊 ×2');
    assert.equal(await page.locator('.seat[data-seat="2"] .badge-banker').count(), 0);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('still seats the players of a game it does not know', async () => {
    const { page } = await scriptedTable(browser, server.url, snapshot('mahjong', [{ seat: 1, kind: 'turn', ms_left: 9000 }]));
    assert.match(await page.innerText('#table-bar h1'), /^mahjong K7M2QX/);
    assert.equal(await page.locator('.seat').count(), 4);
    assert.equal(await page.innerText('.seat[data-seat="1"] .seat-name'), 'Bo Bo');
    assert.deepEqual(await page.locator('.seat.to-act').evaluateAll((els) => els.map((e) => e.dataset.seat)), ['1']);
    assert.equal(await page.locator('#me-area > *').count(), 0, 'no controls of an unknown game');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
