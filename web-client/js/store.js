/*
 * store — what the client knows about each table it is at, kept up to date from the server's
 * snapshot, event and events messages (protocol/PROTOCOL.md), and the table's history as this
 * connection saw it.
 *
 * Events carry the seats, the turn and this player's view, but not the scores, banker or
 * multiplier of the table; those come with a snapshot and are then followed here from
 * hand_started and hand_over (scores += net). History is client-side: each hand_over becomes an
 * entry, and when the client saw the hand from its deal the entry keeps every view it received
 * (its "frames"), so the player can step through what they saw.
 */

const HISTORY_LIMIT = 100;

export function newTable(code) {
  return {
    code, seq: 0, info: null, seats: [], view: null, turn: null, mySeat: null,
    scores: [0, 0, 0, 0], banker: null, multiplier: 2, phase: 'waiting', hostId: null,
    options: {}, isPublic: false, turnSeconds: null, handsPlayed: 0,
    lastResult: null, history: [], frames: null, closed: null,
    ui: { selected: new Set(), handKey: '', pending: false, readySent: false, showHistory: false,
      openHand: null, step: 0 },
  };
}

/* The server's turn with a local deadline (null while a bot covers the seat). */
function turnFrom(turn) {
  if (!turn) return null;
  return { seat: turn.seat, deadline: Number.isInteger(turn.ms_left) ? Date.now() + turn.ms_left : null };
}

function seatOf(seats, playerId) {
  const i = (seats || []).findIndex((s) => s && s.player && s.player === playerId);
  return i >= 0 ? i : null;
}

function finalLeader(view) {
  const tricks = view && view.tricks;
  return tricks && tricks.length ? tricks[tricks.length - 1].leader : null;
}

/* A history entry for a finished hand; banker and multiplier are the hand's own (from its view). */
function historyEntry(ts, hand, result, view, frames) {
  return {
    hand, result, frames,
    banker: view ? view.banker : ts.banker,
    multiplier: view ? view.multiplier : ts.multiplier,
    options: ts.options,
    finalLeader: finalLeader(view),
    seats: ts.seats.map((s) => ({ ...s })),
    scores: null,
    mySeat: ts.mySeat,
  };
}

function addHistory(ts, entry) {
  ts.history = ts.history.filter((e) => e.hand !== entry.hand);
  ts.history.push(entry);
  ts.history.sort((a, b) => a.hand - b.hand);
  if (ts.history.length > HISTORY_LIMIT) ts.history.shift();
}

/* Entries made from missed events before the first snapshot lack the seats and options. */
function completeHistory(ts) {
  for (const entry of ts.history) {
    if (!entry.seats.length) entry.seats = ts.seats.map((s) => ({ ...s }));
    if (!entry.options || !Object.keys(entry.options).length) entry.options = ts.options;
  }
}

export function applySnapshot(ts, msg) {
  const info = msg.info;
  ts.seq = msg.seq;
  ts.info = info;
  ts.seats = info.seats;
  ts.view = msg.view;
  ts.turn = turnFrom(info.turn);
  ts.mySeat = Number.isInteger(msg.seat) ? msg.seat : null;
  ts.scores = info.scores.slice();
  ts.banker = info.banker;
  ts.multiplier = info.multiplier;
  ts.phase = info.state;
  ts.hostId = info.host;
  ts.options = info.options || {};
  ts.isPublic = info.public;
  ts.turnSeconds = info.turn_seconds;
  ts.handsPlayed = info.hands_played;
  completeHistory(ts);
  ts.closed = info.state === 'closed' ? ts.closed || '' : null;
  const view = msg.view;
  if (view && view.over && view.result) {
    const known = ts.history.find((e) => e.hand === info.hands_played);
    const entry = known || historyEntry(ts, info.hands_played, view.result, view, null);
    entry.scores = entry.scores || ts.scores.slice();
    if (!known) addHistory(ts, entry);
    if (ts.phase !== 'playing') ts.lastResult = entry;
  } else if (ts.phase === 'playing') {
    ts.lastResult = null;
  }
}

/* One event; me is the player's id ("p3"). */
export function applyEvent(ts, msg, me) {
  const ev = msg.event;
  ts.seq = msg.seq;
  ts.seats = msg.seats || ts.seats;
  ts.view = msg.view;
  ts.turn = turnFrom(msg.turn);
  ts.mySeat = seatOf(ts.seats, me);
  const frame = { event: ev, view: msg.view, seats: ts.seats, turn: ts.turn };
  switch (ev.kind) {
    case 'hand_started':
      ts.phase = 'playing';
      ts.handsPlayed = ev.hand;
      ts.banker = ev.banker;
      ts.multiplier = ev.multiplier;
      ts.lastResult = null;
      ts.frames = [frame];
      ts.ui.readySent = false;
      ts.ui.selected = new Set();
      break;
    case 'action':
      if (ts.frames) ts.frames.push(frame);
      break;
    case 'hand_over': {
      if (ts.frames) ts.frames.push(frame);
      const entry = historyEntry(ts, ev.hand, ev.result, msg.view, ts.frames);
      ts.frames = null;
      ts.phase = 'between_hands';
      ts.scores = ts.scores.map((s, i) => s + ev.result.net[i]);
      entry.scores = ts.scores.slice();
      ts.banker = ev.result.next_banker;
      ts.multiplier = ev.result.next_multiplier;
      ts.lastResult = entry;
      addHistory(ts, entry);
      break;
    }
    case 'waiting':
      ts.phase = 'waiting';
      break;
    case 'host':
      ts.hostId = ev.player;
      break;
    case 'closing':
      ts.phase = 'closed';
      ts.closed = ev.why || '';
      break;
    default:
      break;
  }
}

/* What a resuming connection missed: finished hands go to history (their scores and the rest
 * come right after with the snapshot). */
export function applyMissed(ts, msg) {
  let banker = ts.banker;
  let multiplier = ts.multiplier;
  if ((msg.events || []).length) ts.frames = null; /* a gap: the hand in play can no longer be stepped through whole */
  for (const { event } of msg.events || []) {
    if (event.kind === 'hand_started') {
      banker = event.banker;
      multiplier = event.multiplier;
    }
    if (event.kind === 'hand_over') {
      const entry = historyEntry(ts, event.hand, event.result, null, null);
      entry.banker = banker;
      entry.multiplier = multiplier;
      addHistory(ts, entry);
    }
  }
}
