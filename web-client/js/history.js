/*
 * history — the table's past hands, as the server keeps them (PROTOCOL.md `history` and
 * `replay`): each finished hand with its settlement explained, newest first, twenty at a time
 * with a button for older ones; and for an opened hand a stepper through its replay frames,
 * each the hand's open view after that step (a finished hand hides nothing: every seat's tiles
 * under its seat, the player's own also as their hand), drawn by the seats and the game module
 * as the live table drew it, with a link to the hand's own replay page (replay.js) to share.
 *
 * The server keeps the history, so it survives a reload and shows hands from before the player
 * arrived. The panel asks for the newest page when it opens and after each hand_over, and for
 * a hand's replay when that hand is opened.
 */
import { h } from './dom.js';
import { t, lang } from './i18n.js';
import { seatName, signed } from './seats.js';
import { gameFor } from './games/registry.js';
import { mergeHistory, runningTotals } from './store.js';
import { openScene, renderOpenBoard, replayHash, seatsOf } from './replay.js';

/* Asks for the newest page of the table's history (or, with older, the page before the oldest
 * hand held). A second ask while one is on its way is made when the first is answered. */
export function loadHistory(ts, app, { older = false } = {}) {
  const hist = ts.hist;
  if (hist.loading) {
    if (!older) hist.again = true;
    return;
  }
  const msg = { type: 'history', code: ts.code };
  if (older && hist.oldest) msg.before = hist.oldest;
  hist.loading = true;
  app.request(msg).then((reply) => {
    mergeHistory(ts, reply.hands || [], older);
    hist.error = null;
  }, (err) => {
    hist.error = err;
  }).finally(() => {
    hist.loading = false;
    if (hist.again) {
      hist.again = false;
      loadHistory(ts, app);
    }
    app.rerender();
  });
}

/* Asks for one hand's replay, once (again after a failure). */
function loadReplay(ts, app, hand) {
  const known = ts.replays.get(hand);
  if (known && !known.error) return;
  ts.replays.set(hand, { loading: true });
  app.request({ type: 'replay', code: ts.code, hand }).then((reply) => {
    ts.replays.set(hand, { hand, frames: reply.frames || [], seat: Number.isInteger(reply.seat) ? reply.seat : null,
      players: reply.players || [], options: reply.options || null /* the hand's own: the table's may have changed */ });
  }, (err) => {
    ts.replays.set(hand, { error: err });
  }).finally(() => app.rerender());
}

function mySeatIn(players, me) {
  const mine = (players || []).find((p) => p.player && p.player === me);
  return mine ? mine.seat : null;
}

/* One sentence for what happened at a step: the game tells its own steps, the house the end. */
function describeStep(game, ev, seats, options) {
  if (ev.kind === 'hand_over') return t('ev.hand_over');
  return game.describeEvent(ev, seats, options);
}

/* A step's scene: the open view, with the player's own tiles as their hand when they played it. */
function frameScene(ts, game, replay, seats, step) {
  const scene = openScene(game, replay.frames, step, seats, replay.seat, replay.options || ts.options);
  const hands = scene.view && scene.view.hands;
  if (replay.seat !== null && Array.isArray(hands)) scene.view = { ...scene.view, hand: hands[replay.seat] };
  return scene;
}

function renderStepper(ts, app, game, replay) {
  const frames = replay.frames;
  if (!frames.length) return h('p', { class: 'muted' }, t('history.noFrames'));
  const seats = seatsOf(replay.players);
  const step = Math.min(Math.max(ts.ui.step, 0), frames.length - 1);
  const frame = frames[step];
  const scene = frameScene(ts, game, replay, seats, step);
  const go = (delta) => {
    ts.ui.step = Math.min(Math.max(step + delta, 0), frames.length - 1);
    app.rerender();
  };
  const caption = [describeStep(game, frame.event, seats, replay.options || ts.options), scene.view && scene.view.over ? t('ev.hand_over') : '']
    .filter(Boolean).join(' ');
  return h('div', { class: 'stepper', id: 'history-stepper', dataset: { step: String(step), steps: String(frames.length) } },
    replay.seat === null ? h('p', { class: 'muted' }, t('history.spectated')) : null,
    h('div', { class: 'stepper-nav' },
      h('button', { type: 'button', id: 'history-prev', class: 'secondary', dataset: { focus: 'history-prev' },
        disabled: step === 0, onclick: () => go(-1) }, `◀ ${t('history.prev')}`),
      h('span', { class: 'stepper-count', 'aria-live': 'polite' }, t('history.step', { i: step + 1, n: frames.length })),
      h('button', { type: 'button', id: 'history-next', class: 'secondary', dataset: { focus: 'history-next' },
        disabled: step === frames.length - 1, onclick: () => go(1) }, `${t('history.next')} ▶`)),
    h('p', { class: 'stepper-caption' }, caption),
    renderOpenBoard(game, scene, '', replay.seat),
    game.renderReplayHand(scene),
    h('p', {}, h('a', { href: replayHash(ts.code, replay.hand), class: 'link replay-open-link', id: `history-replay-link-${replay.hand}` },
      t('replay.open'))));
}

function renderReplay(ts, app, game, hand) {
  const replay = ts.replays.get(hand);
  if (!replay || replay.loading) return h('p', { class: 'muted', role: 'status' }, t('history.loading'));
  if (replay.error) return h('p', { class: 'error', role: 'alert' }, errorText(replay.error));
  return renderStepper(ts, app, game, replay);
}

function errorText(err) {
  return t('history.failed', { message: err.message || err.code || '' });
}

function finishedAt(ms) {
  if (!Number.isFinite(ms)) return '';
  try {
    return new Date(ms).toLocaleString(lang(), { dateStyle: 'short', timeStyle: 'short' });
  } catch {
    return '';
  }
}

/* "South · Bot won", or nothing for a hand nobody won. */
function winnerText(seats, result) {
  const winner = result && result.winner;
  return Number.isInteger(winner) && winner >= 0 ? ` — ${t('history.winner', { name: seatName(seats, winner) })}` : '';
}

function renderEntry(ts, app, game, entry, totals) {
  const open = ts.ui.openHand === entry.hand;
  const seats = seatsOf(entry.players);
  const me = mySeatIn(entry.players, app.me());
  const net = Array.isArray(entry.net) ? entry.net : entry.result.net;
  const summary = `${t('history.hand', { n: entry.hand })}${winnerText(seats, entry.result)}`
    + (me !== null ? ` · ${t('history.yourNet', { n: signed(net[me]) })}` : '');
  const settled = {
    hand: entry.hand, result: entry.result, gameState: entry.game_state === undefined ? null : entry.game_state, view: null,
    options: entry.options || ts.options, seats, scores: totals.get(entry.hand) || null, /* the hand's own options */
  };
  return h('li', { class: `history-entry${open ? ' open' : ''}`, dataset: { hand: String(entry.hand), net: net.join(',') } },
    h('button', { type: 'button', class: 'history-open link', 'aria-expanded': open ? 'true' : 'false',
      dataset: { focus: `history-${entry.hand}` }, onclick: () => {
        ts.ui.openHand = open ? null : entry.hand;
        ts.ui.step = 0;
        if (!open) loadReplay(ts, app, entry.hand);
        app.rerender();
      } }, summary),
    h('span', { class: 'history-time muted' }, ` ${finishedAt(entry.finished_at)}`),
    open ? game.renderSettlement(settled, { id: `history-settlement-${entry.hand}` }) : null,
    open ? renderReplay(ts, app, game, entry.hand) : null);
}

function renderBody(ts, app, game) {
  const hist = ts.hist;
  if (hist.error && hist.error.code === 'no_history') return h('p', {}, t('err.no_history'));
  const parts = [];
  if (hist.error) parts.push(h('p', { class: 'error', role: 'alert' }, errorText(hist.error)));
  if (!hist.loaded) {
    if (!hist.error) parts.push(h('p', { class: 'muted', role: 'status' }, t('history.loading')));
    return parts;
  }
  if (!hist.hands.length) {
    parts.push(h('p', {}, t('history.empty')));
    return parts;
  }
  const totals = runningTotals(hist.hands);
  parts.push(h('ol', { class: 'history-list', reversed: true }, hist.hands.map((e) => renderEntry(ts, app, game, e, totals))));
  if (hist.more) {
    parts.push(h('button', { type: 'button', class: 'secondary', id: 'history-more', dataset: { focus: 'history-more' },
      disabled: hist.loading, onclick: () => loadHistory(ts, app, { older: true }) }, t('history.more')));
  }
  return parts;
}

export function renderHistory(ts, app) {
  return h('section', { id: 'history', class: 'history', 'aria-labelledby': 'history-title', 'aria-busy': ts.hist.loading ? 'true' : 'false' },
    h('div', { class: 'history-head' },
      h('h2', { id: 'history-title' }, t('history.title')),
      h('button', { type: 'button', class: 'link', id: 'history-close', dataset: { focus: 'history-close' }, onclick: () => {
        ts.ui.showHistory = false;
        app.rerender();
      } }, t('history.close'))),
    h('p', { class: 'muted' }, t('history.note')),
    renderBody(ts, app, gameFor(ts.info && ts.info.game)));
}
