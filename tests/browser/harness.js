/*
 * harness — what the browser tests share: start the real teahouse binary on a free port with
 * fast bots, launch Debian's Chromium through playwright-core, open a player's page, and play a
 * hand through the web client's own controls (never by sending protocol messages).
 *
 * The server binary comes from TEAHOUSE_SERVER (meson passes it); screenshots go to
 * test-output/ at the repository root. Every wait is on a selector or a page state, never a
 * fixed sleep.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const WEB_ROOT = path.join(ROOT, 'web-client');
export const OUTPUT = path.join(ROOT, 'test-output');
export const CHROMIUM = '/usr/bin/chromium';

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic'];

function serverBinary() {
  if (process.env.TEAHOUSE_SERVER) return path.resolve(process.env.TEAHOUSE_SERVER);
  for (const dir of ['build-web', 'build', 'build-test']) {
    const candidate = path.join(ROOT, dir, 'server', 'teahouse');
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new Error('Set TEAHOUSE_SERVER to the teahouse binary (meson test does).');
}

/* Runs the server binary on `port` (0: a free one) with its database in dir; resolves with the
 * child and its address once it logs the address it listens on. */
async function spawnServer(dir, port, extraArgs) {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--web-root', WEB_ROOT, '--db', path.join(dir, 'teahouse.db'),
    '--bot-delay-ms', '50', '--next-hand-seconds', '1', '--metrics-port', '0',
    // every page and scripted player comes from this machine: the per-address caps are tested in C
    '--max-connections-per-address', '0', '--new-guests-per-minute', '0', ...extraArgs];
  const child = spawn(serverBinary(), args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const run = { child, log: '' };
  run.url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${run.log}`)), 10000);
    const onData = (chunk) => {
      run.log += chunk;
      const m = /listening on (http:\/\/[^\s]+)/.exec(run.log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1].replace('localhost', '127.0.0.1'));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${run.log}`));
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
  return run;
}

/* SIGTERM, as an operator stops it; a crash or a sanitizer report (a non-zero exit) fails the test. */
async function stopServer(run) {
  if (run.child.exitCode === null && run.child.signalCode === null) {
    const exited = new Promise((resolve) => run.child.once('exit', resolve));
    run.child.kill('SIGTERM');
    await exited;
  }
  if (run.child.exitCode !== 0) {
    throw new Error(`the server exited with ${run.child.exitCode ?? run.child.signalCode}:\n${run.log.slice(-4000)}`);
  }
}

/* Starts the server on a free port with a new database; resolves once it listens. */
export async function startServer(extraArgs = []) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'teahouse-browser-'));
  let run = await spawnServer(dir, 0, extraArgs);
  const url = run.url;
  const logs = [];
  return {
    url,
    log: () => logs.join('') + run.log,
    /* Stops the server and starts it again on the same port and database, as after an upgrade. */
    async restart() {
      await stopServer(run);
      logs.push(run.log);
      run = await spawnServer(dir, new URL(url).port, extraArgs);
    },
    async stop() {
      try {
        await stopServer(run);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/* A new browser context (its own localStorage) on the lobby, in English unless told. */
export async function openPage(browser, baseUrl, opts = {}) {
  const context = await browser.newContext({ viewport: opts.viewport || { width: 1100, height: 900 },
    locale: opts.locale || 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(20000);
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.errors = errors;
  await page.goto(`${baseUrl}/${opts.hash || ''}`);
  return page;
}

/* Enters a name on the lobby's first form and waits for the server's welcome. */
export async function enterName(page, name) {
  await page.fill('#name-input', name);
  await page.click('#name-submit');
  await page.waitForSelector('#greeting, #table-page');
  await page.waitForFunction(() => window.teahouse && window.teahouse.app.state.status === 'online' && window.teahouse.app.me());
}

/* Creates a table from the lobby form (of `game` when given, else the one the picker shows);
 * returns its code once the table page shows it. An option is a checkbox, a choice of radio
 * buttons (#opt-KEY-VALUE), a number field or a select. */
export async function createTable(page, { isPublic = false, options = {}, game = null } = {}) {
  if (game) await page.selectOption('#create-game', game);
  if (isPublic) await page.check('#vis-public');
  if (Object.keys(options).length) {
    await page.$eval('details.rules', (d) => { d.open = true; });
    for (const [key, value] of Object.entries(options)) {
      const radio = page.locator(`#opt-${key}-${value}`);
      if (await radio.count()) await radio.check();
      else if (typeof value === 'boolean') await page.setChecked(`#opt-${key}`, value);
      else if (await page.getAttribute(`#opt-${key}`, 'type') === 'number') await page.fill(`#opt-${key}`, String(value));
      else await page.selectOption(`#opt-${key}`, String(value));
    }
  }
  await page.click('#create-submit');
  await page.waitForSelector('#table-code');
  return (await page.textContent('#table-code')).trim();
}

/* Records every server frame the page receives over its WebSocket, parsed. */
export function recordFrames(page) {
  const frames = { received: [], sent: [] };
  page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => {
      try { frames.received.push(JSON.parse(f.payload)); } catch { /* not JSON */ }
    });
    ws.on('framesent', (f) => {
      try { frames.sent.push(JSON.parse(f.payload)); } catch { /* not JSON */ }
    });
  });
  return frames;
}

/* Resolves once check() is true (checked every 20 ms), or fails after timeoutMs. */
export async function until(check, timeoutMs = 20000) {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`condition not met in ${timeoutMs} ms: ${check}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function handTiles(page) {
  return page.$$eval('#hand .tile', (tiles) => tiles.map((t) => t.dataset.face));
}

/*
 * Makes one move through the UI when it is this page's turn: a highlighted legal play (a
 * multi-tile chip if there is one, else a highlighted single), or, when nothing may be played,
 * as many tiles as the discard needs. Returns once the server has taken the move.
 */
export async function playOneMove(page) {
  const before = (await handTiles(page)).length;
  const chip = page.locator('.legal-play').first();
  if (await chip.count()) {
    await chip.click();
  } else {
    const playable = page.locator('#hand .tile.playable').first();
    if (await playable.count()) await playable.click();
  }
  if (await page.isEnabled('#play-button')) {
    await page.click('#play-button');
  } else {
    if (await page.isEnabled('#clear-button')) await page.click('#clear-button');
    const tiles = page.locator('#hand .tile');
    for (let i = 0; i < before && !(await page.isEnabled('#discard-button')); i++) await tiles.nth(i).click();
    await page.click('#discard-button');
  }
  await page.waitForFunction((n) => {
    const root = document.querySelector('#table-page');
    return root.dataset.phase !== 'playing' || document.querySelectorAll('#hand .tile').length < n;
  }, before);
}

/* Plays this page's turns until the hand it is in is settled; returns the hand number. */
export async function playToSettlement(page, hand) {
  for (;;) {
    await page.waitForSelector(`#table-page[data-my-turn="true"], #table-page[data-hand="${hand}"]:not([data-phase="playing"]), #table-page:not([data-hand="${hand}"])`);
    const state = await page.$eval('#table-page', (el) => ({ ...el.dataset }));
    if (state.hand !== String(hand) || state.phase !== 'playing') return;
    await playOneMove(page);
  }
}

export async function screenshot(page, name, opts = {}) {
  fs.mkdirSync(OUTPUT, { recursive: true });
  await page.screenshot({ path: path.join(OUTPUT, `${name}.png`), fullPage: opts.fullPage !== false });
}

/* The welcomes a page received after its first `from` frames. */
export function welcomesAfter(frames, from) {
  return frames.received.slice(from).filter((m) => m.type === 'welcome');
}

/* A number as the client shows it: +12, −4 (a real minus sign), 0. */
export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${-n}`;
  return '0';
}

/* A token as PROTOCOL.md describes it: 16 to 64 of A–Z a–z 0–9 - _. */
export const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

/* Opens a private table for a new player, adds three bots and starts the first hand. */
export async function soloTable(browser, url, name) {
  const page = await openPage(browser, url);
  const frames = recordFrames(page);
  await enterName(page, name);
  const code = await createTable(page);
  await page.click('#fill-bots');
  await page.waitForSelector('#start-hand:not([disabled])');
  await page.click('#start-hand');
  await page.waitForSelector('#table-page[data-phase="playing"]');
  return { page, frames, code };
}

/* The hand_over events this page has received, oldest first. */
export function handOvers(frames) {
  return frames.received.filter((m) => m.type === 'event' && m.event.kind === 'hand_over').map((m) => m.event);
}
