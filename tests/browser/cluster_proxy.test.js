/*
 * cluster_proxy — the house as several nodes serve it (PROTOCOL.md, "Several nodes"):
 * scripts/cluster.sh starts PostgreSQL, three nodes of the build's teahouse binary and nginx on
 * loopback (its own free ports and directory, a lease of 3 s), and players in Chromium go
 * through nginx. Each page's first WebSocket is pinned to one node (/n/n1/ws, /n/n2/ws, ...) by
 * rewriting the URL in the page before the client opens it, so the players start on
 * different nodes:
 *  - a private table just opened on n1 and joined by its code through n2: the join is answered
 *    `moved`, the client follows it to n1, the guest sits, both see each other, bots fill the
 *    rest and a hand starts that both play;
 *  - a public table opened on n2 is listed in the lobby of a player on n3, who joins it from the
 *    list (through moved again);
 *  - kill -9 of the private table's node mid-hand: within ~20 s another node has taken the table
 *    over and both pages are back without a reload, in the same seats, in the same hand with the
 *    same tiles, with no hidden tile of another seat in the page; the hand is finished and
 *    settled once (one hand_over per page, four settle rows in the ledger summing to the nets).
 * The cluster is always stopped at the end (scripts/cluster.sh stop). Skipped when PostgreSQL's
 * server programs or nginx are missing. The nodes' logs are copied to test-output/cluster-proxy/.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createTable, enterName, handOvers, handTiles, launchBrowser, OUTPUT, playOneMove, recordFrames, ROOT,
  screenshot, until, welcomesAfter } from './harness.js';

const SCRIPT = path.join(ROOT, 'scripts', 'cluster.sh');
const NODE_ARGS = '--lease-seconds 3 --bot-delay-ms 50 --next-hand-seconds 1 --max-connections-per-address 0 '
  + '--new-guests-per-minute 0';
const LOGS = path.join(OUTPUT, 'cluster-proxy');

function pgBindir() {
  if (process.env.PG_BINDIR) return process.env.PG_BINDIR;
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base) ? fs.readdirSync(base).filter((v) => /^\d+$/.test(v)).sort((a, b) => b - a) : [];
  return versions.length ? path.join(base, versions[0], 'bin') : null;
}

function nginxPath() {
  for (const dir of (process.env.PATH || '').split(':').concat(['/usr/sbin'])) {
    const candidate = path.join(dir, 'nginx');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch { /* not here */ }
  }
  return null;
}

/* Why this test cannot run here, or false. */
function missing() {
  const bindir = pgBindir();
  if (!bindir || !fs.existsSync(path.join(bindir, 'initdb'))) return 'PostgreSQL\'s server programs are not installed';
  if (!nginxPath()) return 'nginx is not installed';
  return false;
}

function serverBinary() {
  if (process.env.TEAHOUSE_SERVER) return path.resolve(process.env.TEAHOUSE_SERVER);
  for (const dir of ['build-web', 'build', 'build-test']) {
    const candidate = path.join(ROOT, dir, 'server', 'teahouse');
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new Error('Set TEAHOUSE_SERVER to the teahouse binary (meson test does).');
}

function portFree(port) {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/* A base port B below the kernel's ephemeral range (so no test's port 0 lands on it) with B (nginx),
 * B+1..B+3 (the nodes) and B+11..B+13 (their operator's ports) free; never 8080's neighbours. */
async function freeBase() {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20000 + 20 * Math.floor(Math.random() * 600);
    const ports = [base, base + 1, base + 2, base + 3, base + 11, base + 12, base + 13];
    let free = true;
    for (const p of ports) free = free && await portFree(p);
    if (free) return base;
  }
  throw new Error('no free ports for the cluster');
}

/* scripts/cluster.sh start|stop with this test's knobs; its output goes to a file (the nodes and
 * nginx it leaves running must not hold a pipe of ours open). */
function clusterScript(env, ...args) {
  const out = path.join(os.tmpdir(), `teahouse-cluster-${process.pid}.out`);
  const fd = fs.openSync(out, 'w');
  const r = spawnSync('sh', [SCRIPT, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', fd, fd], timeout: 120000 });
  fs.closeSync(fd);
  const text = fs.readFileSync(out, 'utf8');
  fs.rmSync(out, { force: true });
  return { status: r.status, text };
}

/* One value from the cluster's database. */
function sql(dir, query) {
  const r = spawnSync(path.join(pgBindir(), 'psql'), ['-XtAc', query, `postgresql:///teahouse?host=${dir}&user=teahouse`],
    { encoding: 'utf8' });
  assert.equal(r.status, 0, `psql failed: ${r.stderr}`);
  return r.stdout.trim();
}

/*
 * A new browser context on the house's lobby whose page opens its first WebSocket to `pin` (a
 * node's path) instead of /ws: the client itself still believes it is on /ws, so it goes back
 * there whenever it reconnects. Every WebSocket URL the page opens is kept in page.sockets.
 */
async function openPinned(browser, url, pin) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'en-US' });
  await context.addInitScript((nodePath) => {
    const Native = window.WebSocket;
    let pinned = false;
    window.WebSocket = class extends Native {
      constructor(target, protocols) {
        const u = new URL(target, location.href);
        if (!pinned && u.pathname === '/ws') {
          pinned = true;
          u.pathname = nodePath;
        }
        super(u.href, protocols);
      }
    };
  }, pin);
  const page = await context.newPage();
  page.setDefaultTimeout(20000);
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  page.sockets = [];
  page.on('websocket', (ws) => page.sockets.push(new URL(ws.url()).pathname));
  page.frames = recordFrames(page);
  await page.goto(`${url}/`);
  return page;
}

/* The node that owns the table, once the store has it (it is written behind the reply). */
async function ownerOf(dir, code) {
  const query = `SELECT owner_node FROM game_tables WHERE code = '${code}' AND state <> 'closed'`;
  await until(() => sql(dir, query) !== '', 5000);
  return sql(dir, query);
}

/* Whether a process runs (a zombie, killed but not yet reaped by whoever adopted it, does not). */
function running(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
}

const SANITIZER_REPORT = /AddressSanitizer|LeakSanitizer|runtime error:/;

/* The table page's data attributes, and how many tiles the player's hand shows. */
/* Resolves once every node can find the table `code` of `node`: it is in the node's listing
 * (published at most a second after it changed), and a heartbeat of the others (2 s) has passed
 * since, in which they read it (PROTOCOL.md, "Several nodes"). */
async function knownEverywhere(dir, node, code) {
  await until(() => sql(dir, `SELECT count(*) FROM nodes WHERE id = '${node}' AND listing LIKE '%"${code}"%'`) === '1', 5000);
  await sleep(2500);
}

const tableState = (page) => page.$eval('#table-page', (el) => ({ ...el.dataset,
  tiles: document.querySelectorAll('#hand .tile').length }));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/* Plays the pages' turns, whichever has one, until done(states, moves) says so (moves: how many
 * each page made); gives up after timeoutMs. */
async function playUntil(pages, done, timeoutMs = 40000) {
  const moves = pages.map(() => 0);
  const end = Date.now() + timeoutMs;
  for (;;) {
    const states = await Promise.all(pages.map(tableState));
    if (done(states, moves)) return { states, moves };
    if (Date.now() > end) throw new Error(`play did not reach its goal in ${timeoutMs} ms: ${JSON.stringify(states)}`);
    const i = states.findIndex((s) => s.phase === 'playing' && s.myTurn === 'true');
    if (i >= 0) {
      await playOneMove(pages[i]);
      moves[i]++;
    } else {
      await sleep(50);
    }
  }
}

/* Every tile face shown outside the player's own hand is one played face up in the trick. */
async function facesOutsideHandAndTrick(page) {
  return page.$$eval('[data-face]', (tiles) => tiles
    .filter((t) => !t.closest('#hand') && !t.closest('.trick-play:not(.discard)'))
    .map((t) => `${t.dataset.face} in ${t.parentElement.className}`));
}

const sorted = (a) => [...a].sort();

describe('three nodes behind nginx (scripts/cluster.sh)', { skip: missing() }, () => {
  let browser;
  let dir;
  let env;
  let url;
  let started = false;
  const pages = []; /* Ah Ma's (first on n1) and Bo Bo's (first on n2) */
  let code;

  before(async () => {
    const base = await freeBase();
    dir = path.join(os.tmpdir(), `teahouse-cluster-test-${process.pid}-${base}`);
    env = {
      TEAHOUSE_CLUSTER_DIR: dir,
      TEAHOUSE_CLUSTER_PORT: String(base),
      TEAHOUSE_CLUSTER_BASE_PORT: String(base),
      TEAHOUSE_CLUSTER_METRICS_BASE_PORT: String(base + 10),
      TEAHOUSE_CLUSTER_NODE_ARGS: NODE_ARGS,
    };
    url = `http://127.0.0.1:${base}`;
    started = true; /* stop cleans up whatever part of a start happened */
    const r = clusterScript(env, 'start', serverBinary());
    assert.equal(r.status, 0, `scripts/cluster.sh start failed:\n${r.text}`);
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    if (!started) return;
    /* the nodes alive are stopped as an operator would, so that what a sanitizer finds at exit
     * (leaks) is in their logs before the script removes them */
    const pids = {};
    for (const n of ['n1', 'n2', 'n3']) {
      const file = path.join(dir, `${n}.pid`);
      if (fs.existsSync(file)) pids[n] = Number(fs.readFileSync(file, 'utf8'));
      if (pids[n] && running(pids[n])) process.kill(pids[n], 'SIGTERM');
    }
    await until(() => Object.values(pids).every((pid) => !running(pid)), 30000).catch(() => {});
    fs.mkdirSync(LOGS, { recursive: true });
    for (const log of ['n1.log', 'n2.log', 'n3.log', 'postgresql.log', 'nginx/error.log']) {
      const from = path.join(dir, log);
      if (fs.existsSync(from)) fs.copyFileSync(from, path.join(LOGS, log.replace('/', '-')));
    }
    const logs = Object.fromEntries(Object.keys(pids)
      .filter((n) => fs.existsSync(path.join(dir, `${n}.log`))).map((n) => [n, fs.readFileSync(path.join(dir, `${n}.log`), 'utf8')]));
    const r = clusterScript(env, 'stop');
    assert.equal(r.status, 0, `scripts/cluster.sh stop failed:\n${r.text}`);
    assert.equal(fs.existsSync(dir), false, 'stop removes the cluster\'s directory');
    for (const [n, pid] of Object.entries(pids)) assert.equal(running(pid), false, `${n} has stopped`);
    for (const [n, log] of Object.entries(logs)) assert.doesNotMatch(log, SANITIZER_REPORT, `${n}'s log (test-output/cluster-proxy/)`);
  });

  /* Joins `code` by typing it in the lobby of `page` (a player on another node than the table's). */
  async function joinByCode(page, tableCode) {
    await page.fill('#join-code', tableCode.toLowerCase());
    await page.click('#join-submit');
    const end = Date.now() + 20000;
    while (!page.frames.received.some((m) => m.type === 'snapshot' && m.table === tableCode)) {
      assert.equal(await page.locator('#toast.show.error').count(), 0,
        `the join was refused: ${await page.locator('#toast').innerText()}`);
      assert.ok(Date.now() < end, 'no snapshot of the table in 20 s');
      await sleep(50);
    }
  }

  function assertFollowedMoved(page, tableCode, from, to) {
    const moved = page.frames.received.filter((m) => m.type === 'moved');
    assert.equal(moved.length, 1, `${from} answered the join with moved`);
    assert.equal(moved[0].table, tableCode);
    assert.equal(moved[0].node, to);
    assert.equal(moved[0].ws, `/n/${to}/ws`);
    assert.deepEqual(page.sockets, [`/n/${from}/ws`, `/n/${to}/ws`], `the page followed moved to ${to}`);
    const welcomes = welcomesAfter(page.frames, 0);
    assert.equal(welcomes.length, 2, 'a hello on each node');
    assert.equal(welcomes[1].player.id, welcomes[0].player.id, 'as the same player (tokens are valid on every node)');
    assert.equal(welcomes[1].resumed, true);
  }

  it('seats a player from n2 at a private table just opened on n1, joined by its code through moved, and both play', async () => {
    const host = await openPinned(browser, url, '/n/n1/ws');
    const guest = await openPinned(browser, url, '/n/n2/ws');
    await enterName(host, 'Ah Ma');
    code = await createTable(host);
    assert.deepEqual(host.sockets, ['/n/n1/ws'], 'the host\'s page is on n1');
    await enterName(guest, 'Bo Bo');
    assert.deepEqual(guest.sockets, ['/n/n2/ws'], 'the guest\'s page is on n2');
    await knownEverywhere(dir, 'n1', code);
    await joinByCode(guest, code);
    assertFollowedMoved(guest, code, 'n2', 'n1');
    await guest.waitForSelector(`#table-page[data-code="${code}"] .seat[data-seat="1"] .sit-here`);
    await guest.click('.seat[data-seat="1"] .sit-here');
    await guest.waitForSelector('#table-page[data-seat="1"]');
    await host.waitForFunction(() => document.querySelector('.seat[data-seat="1"] .seat-name')?.textContent === 'Bo Bo');
    assert.equal(await guest.locator('.seat[data-seat="0"] .seat-name').innerText(), 'Ah Ma');

    await host.click('#fill-bots');
    await host.waitForSelector('#start-hand:not([disabled])');
    await host.click('#start-hand');
    for (const page of [host, guest]) await page.waitForSelector('#table-page[data-hand="1"][data-phase="playing"]');
    for (const seat of [2, 3]) assert.equal(await guest.locator(`.seat[data-seat="${seat}"] .avatar-bot`).count(), 1, 'bots fill the rest');
    assert.equal(guest.sockets.length, 2, 'the guest plays on the connection moved opened');
    assert.equal(await ownerOf(dir, code), 'n1', 'the table is stored as n1\'s');
    pages.push(host, guest);

    /* both play in hand 1 */
    const { states } = await playUntil(pages, (_, moves) => moves[0] >= 1 && moves[1] >= 1);
    assert.ok(states.every((s) => s.code === code));
    for (const page of pages) assert.deepEqual(page.errors, []);
  });

  it('lists a public table opened on one node in the lobby of a player on another, and joins it from there', async () => {
    const host = await openPinned(browser, url, '/n/n2/ws');
    const visitor = await openPinned(browser, url, '/n/n3/ws');
    try {
      await enterName(host, 'Ka Yan');
      const publicCode = await createTable(host, { isPublic: true });
      await host.click('.seat[data-seat="2"] .add-bot');
      await host.waitForSelector('.seat[data-seat="2"] .badge-bot');
      await enterName(visitor, 'Siu Ming');
      assert.deepEqual(visitor.sockets, ['/n/n3/ws'], 'the visitor\'s page is on n3');
      /* the lobby asks again every 5 s, and a node's listing is a few seconds old at most: the row
       * may first show the table as it was before the bot sat */
      const row = visitor.locator(`.public-table[data-code="${publicCode}"]`, { hasText: '2/4 seats taken' });
      await row.waitFor();
      assert.match(await row.innerText(), /host Ka Yan/);
      await row.locator('.join-public').click();
      await visitor.waitForSelector(`#table-page[data-code="${publicCode}"][data-phase]`);
      assertFollowedMoved(visitor, publicCode, 'n3', 'n2');
      assert.equal(await visitor.getAttribute('#table-page', 'data-seat'), '', 'a player who joins watches until they sit');
      assert.equal(await visitor.locator('.sit-here').count(), 2, 'the two empty seats offer a place');
      for (const page of [host, visitor]) assert.deepEqual(page.errors, []);
    } finally {
      await Promise.all([host, visitor].map((p) => p.context().close()));
    }
  });

  it('carries both pages over to the node that takes the table when its node is killed mid-hand', async () => {
    assert.equal(pages.length, 2, 'the first case seated both players');
    const [host, guest] = pages;
    /* mid-hand, on the host's turn, after both have played in this hand (8 tiles each at its start) */
    const { states } = await playUntil(pages, (s) => s[0].phase === 'playing' && s[0].myTurn === 'true'
      && s[1].hand === s[0].hand && s[0].tiles < 8 && s[1].tiles < 8);
    const hand = Number(states[0].hand);
    const before = await Promise.all(pages.map(handTiles));
    assert.ok(before[0].length > 0 && before[1].length > 0);
    const marks = pages.map((p) => p.frames.received.length);
    for (const page of pages) await page.evaluate(() => { window.sameDocument = true; });
    assert.equal(await ownerOf(dir, code), 'n1');
    const victim = Number(fs.readFileSync(path.join(dir, 'n1.pid'), 'utf8'));
    process.kill(victim, 'SIGKILL');
    const killed = Date.now();

    /* both pages are back at the table on its new node, same seat and hand, without a reload */
    for (const [i, page] of pages.entries()) {
      await until(() => page.frames.received.slice(marks[i]).some((m) => m.type === 'snapshot' && m.table === code), 30000);
      await page.waitForSelector(`#table-page[data-code="${code}"][data-seat="${i}"][data-hand="${hand}"][data-phase="playing"]`);
    }
    const back = (Date.now() - killed) / 1000;
    console.log(`both pages were back at the table ${back.toFixed(1)} s after the kill`);
    assert.ok(back < 25, `back after ${back.toFixed(1)} s`);
    const owner = await ownerOf(dir, code);
    assert.ok(owner === 'n2' || owner === 'n3', `the table is now ${owner}'s`);
    for (const [i, page] of pages.entries()) {
      assert.equal(await page.evaluate(() => window.sameDocument), true, 'the page was not reloaded');
      assert.ok(welcomesAfter(page.frames, marks[i]).length >= 1, 'the page said hello again');
      assert.equal(welcomesAfter(page.frames, marks[i]).at(-1).resumed, true);
      assert.equal(page.sockets.at(-1) === '/ws' || page.sockets.at(-1) === `/n/${owner}/ws`, true,
        `the page is on /ws or its new owner's path (${page.sockets.join(' ')})`);
      assert.deepEqual(sorted(await handTiles(page)), sorted(before[i]), 'the same tiles as before the kill');
      assert.deepEqual(await facesOutsideHandAndTrick(page), [], 'no hidden tile of another seat in the page');
      const views = page.frames.received.slice(marks[i]).filter((m) => m.view && m.view.hand);
      for (const v of views) assert.equal(v.view.hand.length, v.view.held[i], 'a view carries its own hand only');
    }
    assert.equal((await tableState(host)).myTurn, 'true', 'still the host\'s turn');
    await screenshot(host, 'cluster-proxy-after-kill');

    /* the hand is played out on the new node and settles once */
    await playUntil(pages, (s) => s.every((x) => x.hand !== String(hand) || x.phase !== 'playing'));
    for (const page of pages) {
      await until(() => handOvers(page.frames).some((e) => e.hand === hand));
      assert.equal(handOvers(page.frames).filter((e) => e.hand === hand).length, 1, 'one hand_over for the hand');
      assert.deepEqual(page.errors, []);
    }
    const ofHand = `FROM ledger l JOIN hands h ON h.id = l.hand_id JOIN game_tables t ON t.id = h.table_id
      WHERE t.code = '${code}' AND h.number = ${hand}`;
    assert.equal(sql(dir, `SELECT count(*) FROM hands h JOIN game_tables t ON t.id = h.table_id
      WHERE t.code = '${code}' AND h.number = ${hand}`), '1', 'one row for the hand');
    assert.equal(sql(dir, `SELECT count(*) ${ofHand} AND l.reason = 'settle'`), '4', 'settled once: four entries');
    assert.equal(sql(dir, `SELECT coalesce(sum(l.units), 1) ${ofHand}`), '0', 'its ledger sums to zero');
    const net = handOvers(host.frames).find((e) => e.hand === hand).result.net;
    for (let s = 0; s < 4; s++) {
      assert.equal(Number(sql(dir, `SELECT coalesce(sum(l.units), 0) ${ofHand} AND l.seat = ${s}`)), net[s]);
    }

    /* the nodes left are alive and reported nothing */
    for (const n of ['n2', 'n3']) {
      const pid = Number(fs.readFileSync(path.join(dir, `${n}.pid`), 'utf8'));
      assert.ok(running(pid), `${n} is still running`);
      assert.doesNotMatch(fs.readFileSync(path.join(dir, `${n}.log`), 'utf8'), SANITIZER_REPORT, `${n}'s log`);
    }
    await Promise.all(pages.map((p) => p.context().close()));
  });
});
