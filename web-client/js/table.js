/*
 * table — the live table page (#/t/CODE): the bar with the game, the code and share link, the
 * four seats around the middle of the board, the player's own controls while a hand is played,
 * the seat controls between hands (sit, bots, start), the settlement of the last hand with the
 * ready button, the chat (chat.js), the people watching, and the history panel. The host also locks the table
 * (nobody new comes in) and removes people: a watcher is sent away, a seated player stood up; the
 * host's other controls of the session (hold, rules, watchers' chat, hosting, ending it) and the
 * final scoreboard are host.js's.
 * What belongs to the game (its badges and figures on a
 * seat, the middle of the board, the player's controls, the settlement) is drawn by the game
 * module of the table (games/registry.js).
 *
 * mount() builds the page once; update() redraws its parts from the table state after every
 * message.
 */
import { h, replace } from './dom.js';
import { t } from './i18n.js';
import { rulesLink } from './rules/links.js';
import { decisionOf, renderSeat } from './seats.js';
import { gameFor, gameTitle } from './games/registry.js';
import { loadHistory, renderHistory } from './history.js';
import { mountChat, updateChat } from './chat.js';
import { noteTurn, soundToggle } from './alerts.js';
import { renderHeld, renderHostPanel, renderScoreboard } from './host.js';

/* The scene the board draws for the live table. handSeats: who played the hand shown. */
export function liveScene(ts, meId) {
  return {
    seats: ts.seats, view: ts.phase === 'playing' || ts.lastResult ? ts.view : null, deciding: ts.deciding,
    mySeat: ts.mySeat, scores: ts.scores, gameState: ts.gameState,
    hostId: ts.hostId, meId, options: ts.options, phase: ts.phase, handSeats: ts.handPlayers,
  };
}

/* The middle of the board between hands is the last hand's: what was played and won is named
 * after who played it, not after whoever sits there now. */
function centerScene(scene) {
  return scene.phase !== 'playing' && scene.view && Array.isArray(scene.handSeats) ? { ...scene, seats: scene.handSeats } : scene;
}

/* What the game's controls draw from and act through; read when used, so a click checks the latest state. */
function controlsContext(ts, app) {
  return {
    get view() { return ts.view; },
    get seat() { return ts.mySeat; },
    get seats() { return ts.seats; },
    get options() { return ts.options; },
    get deciding() { return ts.deciding; },
    get ui() { return ts.ui.game; },
    act: (action) => app.command({ type: 'act', code: ts.code, action }),
    rerender: () => app.rerender(),
  };
}

export function tableLink(code) {
  return `${location.origin}/#/t/${code}`;
}

function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  const area = h('textarea', { class: 'offscreen', readonly: true }, text);
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  return ok ? Promise.resolve() : Promise.reject(new Error('copy'));
}

let handBarObserver = null;

export function mountTable(container, app, code) {
  /* back at a table this page had already joined (from the lobby): the others see it here again */
  const ts = app.tables.get(code);
  if (ts && ts.info && ts.phase !== 'closed') app.request({ type: 'presence', code, here: true }).catch(() => {});
  replace(container,
    h('div', { id: 'table-page', class: 'table-page', dataset: { code } },
      h('header', { class: 'table-bar', id: 'table-bar' }),
      h('div', { id: 'table-notice', class: 'table-notice', 'aria-live': 'polite' }),
      h('div', { id: 'settlement-area' }),
      h('div', { id: 'board', class: 'board' }),
      h('section', { id: 'me-area', class: 'me-area', 'aria-label': t('table.yourHand') }),
      h('div', { id: 'host-area' }),
      h('div', { id: 'chat-area' }),
      h('div', { id: 'watchers-area' }),
      h('div', { id: 'history-area' })));
  window.scrollTo(0, 0); /* a table opens at its top, wherever the lobby was scrolled */
  /* a phone pins the hand to the bottom of the screen: the page and the toasts keep clear of its height */
  handBarObserver?.disconnect();
  if (typeof ResizeObserver === 'function') {
    handBarObserver = new ResizeObserver(([entry]) => document.documentElement.style.setProperty('--hand-bar-h',
      `${Math.ceil(entry.borderBoxSize[0].blockSize)}px`));
    handBarObserver.observe(container.querySelector('#me-area'));
  }
}

export function updateTable(container, app, code) {
  const ts = app.tables.get(code);
  const page = container.querySelector('#table-page');
  if (!page) return;
  if (!ts || !ts.info) {
    replace(page.querySelector('#table-bar'), h('h1', {}, t('table.title', { code })));
    return;
  }
  const game = gameFor(ts.info.game);
  const scene = liveScene(ts, app.me());
  const handOn = ts.phase === 'playing';
  const myDecision = handOn && ts.mySeat !== null && decisionOf(scene, ts.mySeat) !== null;
  page.dataset.phase = ts.phase;
  page.dataset.hand = String(ts.handsPlayed);
  page.dataset.myTurn = myDecision ? 'true' : 'false';
  noteTurn(myDecision);
  page.dataset.seat = ts.mySeat === null ? '' : String(ts.mySeat);
  replace(page.querySelector('#table-bar'), renderBar(ts, app, game));
  replace(page.querySelector('#table-notice'), renderNotice(ts, app));
  replace(page.querySelector('#board'), renderBoard(ts, app, game, scene));
  replace(page.querySelector('#me-area'), handOn ? game.renderControls(controlsContext(ts, app)) : null);
  const settlementArea = page.querySelector('#settlement-area');
  replace(settlementArea, !handOn && ts.lastResult ? renderLastResult(ts, app, game) : null);
  /* a hand just ended: bring its settlement into view (on a phone the player was at their tiles) */
  if (ts.lastResult && ts.ui.shownSettlement !== ts.lastResult.hand && settlementArea.firstChild) {
    ts.ui.shownSettlement = ts.lastResult.hand;
    settlementArea.scrollIntoView({ block: 'start' });
  }
  const chatArea = page.querySelector('#chat-area');
  if (!chatArea.firstChild && ts.phase !== 'closed') chatArea.appendChild(mountChat(ts, app));
  updateChat(ts, app);
  replace(page.querySelector('#watchers-area'), renderWatchers(ts, app));
  replace(page.querySelector('#host-area'), renderHostPanel(ts, app, game));
  page.dataset.held = ts.held ? 'true' : 'false';
  page.dataset.locked = ts.locked ? 'true' : 'false';
  replace(page.querySelector('#history-area'), ts.ui.showHistory ? renderHistory(ts, app) : null);
}

/* --- the bar: game, code, share, history, leave --- */

function renderBar(ts, app, game) {
  const link = tableLink(ts.code);
  const share = ts.isPublic || ts.phase === 'closed' ? null : h('div', { class: 'share' },
    h('span', { class: 'share-label' }, t('table.shareHint')),
    h('input', { id: 'share-link', class: 'share-link', readonly: true, value: link, 'aria-label': t('table.copyLink'),
      onfocus: (e) => e.target.select() }),
    h('button', { type: 'button', id: 'copy-link', dataset: { focus: 'copy-link' }, onclick: () => {
      copyText(link).then(() => app.toast(t('table.linkCopied'), 'info'), () => app.toast(link, 'info'));
    } }, t('table.copyLink')));
  return [
    h('div', { class: 'table-title' },
      h('h1', {}, gameTitle(game.name), ' ', h('span', { id: 'table-code', class: 'code' }, ts.code)),
      h('span', { class: 'muted' }, ts.isPublic ? t('table.public') : t('table.private'),
        ts.handsPlayed ? ` · ${t('table.hand', { n: ts.handsPlayed })}` : ''),
      game.rules ? [' · ', rulesLink(game)] : null,
      h('p', { id: 'table-rules', class: 'table-rules' }, tableRules(ts, game)),
      ts.locked ? h('span', { class: 'badge-locked', id: 'table-locked' }, t('table.lockedBadge')) : null),
    share,
    h('div', { class: 'bar-actions' },
      soundToggle(() => app.rerender()),
      ts.hostId === app.me() && ts.phase !== 'closed' ? h('button', { type: 'button', id: 'lock-table', class: 'secondary',
        'aria-pressed': ts.locked ? 'true' : 'false', dataset: { focus: 'lock-table' },
        title: t(ts.locked ? 'table.unlockHelp' : 'table.lockHelp'),
        onclick: () => app.command({ type: 'lock_table', code: ts.code, locked: !ts.locked }) },
      t(ts.locked ? 'table.unlock' : 'table.lock')) : null,
      h('button', { type: 'button', id: 'history-toggle', class: 'secondary', 'aria-expanded': ts.ui.showHistory ? 'true' : 'false',
        dataset: { focus: 'history-toggle' }, onclick: () => {
          ts.ui.showHistory = !ts.ui.showHistory;
          if (ts.ui.showHistory) loadHistory(ts, app);
          app.rerender();
          if (ts.ui.showHistory) document.getElementById('history')?.scrollIntoView({ block: 'nearest' });
        } }, historyLabel(ts)),
      h('button', { type: 'button', id: 'leave-table', class: 'secondary', dataset: { focus: 'leave-table' },
        onclick: () => app.leaveTable(ts.code) }, t('table.leave'))),
  ];
}

/* What is played here: the game's rules (what differs from its standard ones), the stake and the turn timer. */
function tableRules(ts, game) {
  const parts = [game.optionsSummary ? game.optionsSummary({ ...ts.options, stake: 1 }) : '']; /* the stake is said next */
  parts.push(t('table.stake', { n: Number.isInteger(ts.options.stake) ? ts.options.stake : 1 }));
  if (Number.isInteger(ts.turnSeconds) && ts.turnSeconds > 0) parts.push(t('table.turnTimer', { n: ts.turnSeconds }));
  return parts.filter(Boolean).join(' · ');
}

/* "History", with the number of hands held once the server has answered ("20+": more to ask). */
function historyLabel(ts) {
  const hist = ts.hist;
  if (!hist.loaded) return t('table.history');
  return `${t('table.history')} (${hist.hands.length}${hist.more ? '+' : ''})`;
}

/* --- the line above the board: spectating, closed, waiting for the host or start --- */

function renderNotice(ts, app) {
  const isHost = ts.hostId === app.me();
  if (ts.phase === 'closed') {
    /* ended by the host: the scoreboard says it, in the player's language */
    return ts.ended ? renderScoreboard(ts, app) : h('p', { class: 'notice warn' }, t('table.closed', { why: ts.closed || '' }));
  }
  const parts = [];
  /* held: said here, or in the bar over the settlement between hands */
  if (!(ts.phase === 'between_hands' && ts.lastResult)) parts.push(renderHeld(ts));
  if (ts.stale) parts.push(h('p', { class: 'notice warn', id: 'table-parked' }, t('table.parked')));
  else if (ts.paused) parts.push(h('p', { class: 'notice warn', id: 'table-paused' }, t('table.paused')));
  if (ts.locked) parts.push(h('p', { class: 'notice', id: 'locked-notice' }, t('table.lockedNotice')));
  if (ts.mySeat === null) parts.push(h('p', { class: 'notice' }, t('table.spectating')));
  if (ts.phase === 'waiting') {
    const empty = ts.seats.filter((s) => !s.bot && !s.player).length;
    if (isHost) {
      parts.push(h('div', { class: 'host-controls' },
        empty ? h('button', { type: 'button', id: 'fill-bots', class: 'secondary', dataset: { focus: 'fill-bots' },
          onclick: () => fillWithBots(ts, app) }, t('table.fillBots')) : null,
        h('button', { type: 'button', id: 'start-hand', dataset: { focus: 'start-hand' }, disabled: empty > 0,
          onclick: () => app.command({ type: 'start', code: ts.code }) }, t('table.start')),
        empty ? h('span', { class: 'muted' }, t('table.needFour')) : null));
    } else {
      parts.push(h('p', { class: 'notice' }, t('table.waitingHost')));
    }
  }
  return parts;
}

function fillWithBots(ts, app) {
  ts.seats.forEach((s, seat) => {
    if (!s.bot && !s.player) app.command({ type: 'add_bot', code: ts.code, seat });
  });
}

/* --- the board: the seats around the game's middle --- */

function seatControls(ts, app, seat) {
  if (ts.phase === 'playing' || ts.phase === 'closed') return [];
  const s = ts.seats[seat];
  const isHost = ts.hostId === app.me();
  const controls = [];
  if (!s.bot && !s.player) {
    if (ts.mySeat === null) {
      controls.push(h('button', { type: 'button', class: 'sit-here', dataset: { focus: `sit-${seat}` },
        onclick: () => app.command({ type: 'take_seat', code: ts.code, seat }) }, t('table.sitHere')));
    }
    if (isHost) {
      controls.push(h('button', { type: 'button', class: 'add-bot secondary', dataset: { focus: `bot-${seat}` },
        onclick: () => app.command({ type: 'add_bot', code: ts.code, seat }) }, t('table.addBot')));
    }
  } else if (s.bot && isHost) {
    controls.push(h('button', { type: 'button', class: 'remove-bot secondary', dataset: { focus: `unbot-${seat}` },
      onclick: () => app.command({ type: 'remove_bot', code: ts.code, seat }) }, t('table.removeBot')));
  } else if (seat === ts.mySeat) {
    controls.push(h('button', { type: 'button', class: 'stand-up secondary', dataset: { focus: 'stand-up' },
      onclick: () => app.command({ type: 'leave_seat', code: ts.code }) }, t('table.standUp')));
  } else if (s.player && isHost) {
    controls.push(h('button', { type: 'button', class: 'unseat-player secondary', dataset: { focus: `unseat-${seat}` },
      onclick: () => app.command({ type: 'remove_member', code: ts.code, player: s.player }) }, t('table.unseat')));
  }
  return controls;
}

/* --- who watches: the host may send anyone away --- */

function renderWatchers(ts, app) {
  if (!ts.watchers.length || ts.phase === 'closed') return null;
  const isHost = ts.hostId === app.me();
  return h('section', { id: 'watchers', class: 'card watchers', 'aria-labelledby': 'watchers-title' },
    h('h2', { id: 'watchers-title' }, t('table.watchers', { n: ts.watchers.length })),
    h('ul', { class: 'watcher-list' }, ts.watchers.map((w) => h('li', { class: 'watcher', dataset: { player: w.player } },
      h('span', { class: 'watcher-name' }, w.name || w.player, w.player === app.me() ? ` (${t('table.you')})` : ''),
      isHost && w.player !== app.me() ? h('button', { type: 'button', class: 'remove-member secondary', dataset: { focus: `remove-${w.player}` },
        onclick: () => app.command({ type: 'remove_member', code: ts.code, player: w.player }) }, t('table.remove')) : null))));
}

function renderBoard(ts, app, game, scene) {
  const seats = [0, 1, 2, 3].map((seat) => renderSeat(game, scene, seat, seatControls(ts, app, seat)));
  return [seats, h('div', { class: 'board-center' }, game.renderCenter(centerScene(scene)))];
}

/* --- between hands --- */

/*
 * The bar over the settlement between hands: a countdown to the next hand (the hand_over's
 * next_hand_ms; main.js's tick() counts it down) and, for a seated player, the Ready button
 * that starts it sooner. Drawn above the settlement, which is drawn above the board, so a phone
 * shows both without scrolling.
 */
function nextHandBar(ts, app) {
  if (ts.phase !== 'between_hands') return null;
  const seated = ts.mySeat !== null;
  const at = ts.nextHandAt;
  const countdown = ts.held ? renderHeld(ts) : Number.isFinite(at)
    ? h('span', { id: 'next-hand-countdown', class: 'next-hand-countdown', role: 'timer', dataset: { nextHandAt: String(at) } },
      nextHandText(at))
    : h('span', { id: 'next-hand-countdown', class: 'next-hand-countdown' }, t('settle.nextSoon'));
  const ready = seated ? h('button', { type: 'button', id: 'ready-button', dataset: { focus: 'ready' }, disabled: ts.ui.readySent,
    onclick: () => {
      ts.ui.readySent = true;
      app.rerender();
      app.command({ type: 'ready', code: ts.code }).then((reply) => {
        if (!reply) {
          ts.ui.readySent = false;
          app.rerender();
        }
      });
    } }, ts.ui.readySent ? t('settle.readySent') : t('settle.ready')) : null;
  return h('div', { id: 'next-hand', class: 'next-hand-bar' }, countdown, ready);
}

/* "Next hand in 8 s" until the moment, then "Starting…". */
export function nextHandText(at) {
  const left = Math.max(0, Math.ceil((at - Date.now()) / 1000));
  return left > 0 ? t('settle.nextIn', { n: left }) : t('settle.starting');
}

function renderLastResult(ts, app, game) {
  const drawn = ts.bankDrawn && ts.phase !== 'playing' ? h('p', { class: 'notice', id: 'bank-drawn' }, t('table.bankDrawn')) : null;
  return [nextHandBar(ts, app), drawn, game.renderSettlement(ts.lastResult, { id: 'settlement', footer: null })];
}
