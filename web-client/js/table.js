/*
 * table — the live table page (#/t/CODE): the bar with the code and share link, the four seats
 * around the trick, the player's own hand with the legal plays highlighted and the Play and
 * Discard buttons, the seat controls between hands (sit, bots, start), the settlement of the
 * last hand with the scoreboard, and the history panel.
 *
 * mount() builds the page once; update() redraws its parts from the table state after every
 * message. Play and Discard are enabled only for a selection that the server's legal list
 * allows, and the click handlers check again before sending.
 */
import { h, replace } from './dom.js';
import { t, tn, lang } from './i18n.js';
import { comboName, sortTiles, tilesKey } from './tiles.js';
import { analyzeSelection, indicesOf } from './play.js';
import { bestPlay, comboTypeName, playerName, renderSeat, renderSettlement, renderTrick, tileElement } from './board.js';
import { loadHistory, renderHistory } from './history.js';

/* The scene the board draws for the live table. */
export function liveScene(ts, meId) {
  const playing = ts.phase === 'playing' && ts.view;
  return {
    seats: ts.seats, view: ts.phase === 'playing' || ts.lastResult ? ts.view : null, turn: ts.turn,
    mySeat: ts.mySeat, scores: ts.scores,
    banker: playing ? ts.view.banker : ts.banker,
    multiplier: playing ? ts.view.multiplier : ts.multiplier,
    hostId: ts.hostId, meId, options: ts.options, phase: ts.phase,
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

export function mountTable(container, app, code) {
  replace(container,
    h('div', { id: 'table-page', class: 'table-page', dataset: { code } },
      h('header', { class: 'table-bar', id: 'table-bar' }),
      h('div', { id: 'table-notice', class: 'table-notice', 'aria-live': 'polite' }),
      h('div', { id: 'board', class: 'board' }),
      h('section', { id: 'me-area', class: 'me-area', 'aria-label': t('table.yourHand') }),
      h('div', { id: 'settlement-area' }),
      h('div', { id: 'history-area' })));
}

export function updateTable(container, app, code) {
  const ts = app.tables.get(code);
  const page = container.querySelector('#table-page');
  if (!page) return;
  if (!ts || !ts.info) {
    replace(page.querySelector('#table-bar'), h('h1', {}, t('table.title', { code })));
    return;
  }
  const scene = liveScene(ts, app.me());
  const handOn = ts.phase === 'playing';
  const mine = analyzeMine(ts, scene);
  page.dataset.phase = ts.phase;
  page.dataset.hand = String(ts.handsPlayed);
  page.dataset.myTurn = mine.myTurn ? 'true' : 'false';
  page.dataset.seat = ts.mySeat === null ? '' : String(ts.mySeat);
  replace(page.querySelector('#table-bar'), renderBar(ts, app));
  replace(page.querySelector('#table-notice'), renderNotice(ts, app));
  replace(page.querySelector('#board'), renderBoard(ts, app, scene));
  replace(page.querySelector('#me-area'), handOn && mine.hand ? renderMine(ts, app, scene, mine) : null);
  replace(page.querySelector('#settlement-area'), !handOn && ts.lastResult ? renderLastResult(ts, app) : null);
  replace(page.querySelector('#history-area'), ts.ui.showHistory ? renderHistory(ts, app) : null);
}

/* --- the bar: code, share, history, leave --- */

function renderBar(ts, app) {
  const link = tableLink(ts.code);
  const share = ts.isPublic ? null : h('div', { class: 'share' },
    h('span', { class: 'share-label' }, t('table.shareHint')),
    h('input', { id: 'share-link', class: 'share-link', readonly: true, value: link, 'aria-label': t('table.copyLink'),
      onfocus: (e) => e.target.select() }),
    h('button', { type: 'button', id: 'copy-link', dataset: { focus: 'copy-link' }, onclick: () => {
      copyText(link).then(() => app.toast(t('table.linkCopied'), 'info'), () => app.toast(link, 'info'));
    } }, t('table.copyLink')));
  return [
    h('div', { class: 'table-title' },
      h('h1', {}, t('game.tiengow'), ' ', h('span', { id: 'table-code', class: 'code' }, ts.code)),
      h('span', { class: 'muted' }, ts.isPublic ? t('table.public') : t('table.private'),
        ts.handsPlayed ? ` · ${t('table.hand', { n: ts.handsPlayed })}` : '')),
    share,
    h('div', { class: 'bar-actions' },
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

/* "History", with the number of hands held once the server has answered ("20+": more to ask). */
function historyLabel(ts) {
  const hist = ts.hist;
  if (!hist.loaded) return t('table.history');
  return `${t('table.history')} (${hist.hands.length}${hist.more ? '+' : ''})`;
}

/* --- the line above the board: spectating, closed, waiting for the host or start --- */

function renderNotice(ts, app) {
  const isHost = ts.hostId === app.me();
  if (ts.phase === 'closed') return h('p', { class: 'notice warn' }, t('table.closed', { why: ts.closed || '' }));
  const parts = [];
  if (ts.stale) parts.push(h('p', { class: 'notice warn', id: 'table-parked' }, t('table.parked')));
  else if (ts.paused) parts.push(h('p', { class: 'notice warn', id: 'table-paused' }, t('table.paused')));
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

/* --- the board: seats around the trick --- */

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
  }
  return controls;
}

function renderBoard(ts, app, scene) {
  const seats = [0, 1, 2, 3].map((seat) => renderSeat(scene, seat, seatControls(ts, app, seat)));
  return [seats, h('div', { class: 'board-center' }, renderTrick(scene))];
}

/* --- the player's hand and actions --- */

function analyzeMine(ts, scene) {
  const view = ts.view;
  const hand = view && Array.isArray(view.hand) && ts.mySeat !== null ? sortTiles(view.hand) : null;
  const myTurn = Boolean(hand && ts.phase === 'playing' && !view.over && view.to_act === ts.mySeat);
  if (!hand) return { hand: null, myTurn };
  const key = hand.join(',');
  if (key !== ts.ui.handKey) {
    ts.ui.handKey = key;
    ts.ui.selected = new Set();
  }
  return { hand, myTurn, ...analyzeSelection(hand, ts.ui.selected, myTurn ? view.legal : null, myTurn) };
}

function hintText(ts, scene, mine) {
  const view = ts.view;
  if (!mine.myTurn) {
    const seat = view.to_act;
    return Number.isInteger(seat) ? t('play.waitFor', { name: playerName(ts.seats, seat) }) : '';
  }
  const trick = view.trick && view.trick.plays && view.trick.plays.length ? view.trick : null;
  if (!trick) return t('play.lead');
  const best = bestPlay(trick);
  const combo = best ? comboName(best.play, lang(), ts.options) : '';
  const n = view.legal && view.legal.discard;
  if (view.legal && view.legal.barred) return tn('play.barred', n);
  if (!mine.plays.length) return tn('play.mustDiscard', n, { combo });
  return tn('play.follow', n, { combo, type: best ? comboTypeName(best.play, ts.options) : '' });
}

function toggleTile(ts, app, i, mine) {
  const selected = new Set(ts.ui.selected);
  if (selected.has(i)) selected.delete(i);
  else if (selected.size < mine.maxSelect) selected.add(i);
  else return;
  ts.ui.selected = selected;
  app.rerender();
}

function selectPlay(ts, app, hand, faces) {
  const indices = indicesOf(hand, faces);
  if (!indices) return;
  ts.ui.selected = indices;
  app.rerender();
}

function send(ts, app, kind) {
  const mine = analyzeMine(ts, liveScene(ts, app.me()));
  const allowed = kind === 'play' ? mine.canPlay : mine.canDiscard;
  if (!mine.myTurn || !allowed || ts.ui.pending) return; /* the buttons are disabled then too */
  ts.ui.pending = true;
  app.rerender();
  app.command({ type: 'act', code: ts.code, action: { [kind]: mine.chosen } }).finally(() => {
    ts.ui.pending = false;
    app.rerender();
  });
}

function renderMine(ts, app, scene, mine) {
  const hand = mine.hand;
  const tiles = hand.map((face, i) => tileElement(face, {
    selected: ts.ui.selected.has(i), highlight: mine.myTurn && mine.highlight[i], focusKey: `tile-${i}`,
    onToggle: () => toggleTile(ts, app, i, mine),
  }));
  const leading = mine.myTurn && !(ts.view.trick && ts.view.trick.plays && ts.view.trick.plays.length);
  const chips = mine.myTurn ? mine.plays.filter((p) => !leading || p.length > 1) : [];
  const selectedKey = tilesKey(mine.chosen);
  const status = mine.chosen.length && mine.myTurn && !mine.canPlay && !mine.canDiscard
    ? (mine.discardCount !== null && !mine.plays.length ? tn('play.discardHint', mine.discardCount) : t('play.notLegal'))
    : '';
  return [
    h('p', { id: 'play-hint', class: `play-hint${mine.myTurn ? ' my-turn' : ''}` }, hintText(ts, scene, mine)),
    h('div', { id: 'hand', class: 'hand', role: 'group', 'aria-label': t('table.yourHand'), onkeydown: handKeys }, tiles),
    chips.length || leading ? h('div', { class: 'legal-plays', role: 'group', 'aria-label': t('play.legal') },
      h('span', { class: 'legal-label' }, `${t('play.legal')}:`),
      chips.map((p) => h('button', { type: 'button', class: `legal-play${tilesKey(p) === selectedKey ? ' active' : ''}`,
        dataset: { tiles: p.join(','), focus: `legal-${p.join(',')}` }, onclick: () => selectPlay(ts, app, hand, p) },
      comboName(p, lang(), ts.options))),
      leading ? h('span', { class: 'muted' }, t('play.anySingle')) : null) : null,
    h('div', { class: 'actions' },
      h('button', { type: 'button', id: 'play-button', dataset: { focus: 'play' },
        disabled: !(mine.myTurn && mine.canPlay) || ts.ui.pending, onclick: () => send(ts, app, 'play') }, t('play.play')),
      h('button', { type: 'button', id: 'discard-button', class: 'secondary', dataset: { focus: 'discard' },
        disabled: !(mine.myTurn && mine.canDiscard) || ts.ui.pending, onclick: () => send(ts, app, 'discard') },
      mine.discardCount !== null ? `${t('play.discard')} ${mine.discardCount}` : t('play.discard')),
      h('button', { type: 'button', id: 'clear-button', class: 'link', dataset: { focus: 'clear' },
        disabled: mine.chosen.length === 0, onclick: () => { ts.ui.selected = new Set(); app.rerender(); } }, t('play.clear')),
      h('span', { class: 'play-status', role: 'status' }, ts.ui.pending ? t('play.sending') : status)),
  ];
}

/* Left and right arrows move between the tiles of the hand. */
function handKeys(e) {
  if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
  const tiles = [...e.currentTarget.querySelectorAll('.tile')];
  const at = tiles.indexOf(document.activeElement);
  if (at < 0) return;
  const next = tiles[(at + (e.key === 'ArrowRight' ? 1 : tiles.length - 1)) % tiles.length];
  next.focus();
  e.preventDefault();
}

/* --- between hands --- */

function renderLastResult(ts, app) {
  const seated = ts.mySeat !== null;
  const footer = ts.phase === 'between_hands' && seated ? h('div', { class: 'settle-footer' },
    h('button', { type: 'button', id: 'ready-button', dataset: { focus: 'ready' }, disabled: ts.ui.readySent,
      onclick: () => {
        ts.ui.readySent = true;
        app.rerender();
        app.command({ type: 'ready', code: ts.code }).then((reply) => {
          if (!reply) {
            ts.ui.readySent = false;
            app.rerender();
          }
        });
      } }, ts.ui.readySent ? t('settle.readySent') : t('settle.ready')),
    h('span', { class: 'muted' }, t('settle.nextSoon'))) : null;
  return renderSettlement(ts.lastResult, { id: 'settlement', footer });
}
