/*
 * store — what the client knows about each table it is at, kept up to date from the server's
 * snapshot, event, events and view messages (protocol/PROTOCOL.md), and the part of the table's
 * history this page has asked the server for.
 *
 * Events carry the seats, the seats that owe a decision (`deciding`) and this player's view, but
 * not the scores or the game's table state (`game_state`); those come with a snapshot and are
 * then followed here: game_state from hand_started (and, between hands, as the game module
 * reads the result), the scores from hand_over. The last finished hand is kept for the
 * settlement shown between hands. Past hands are the server's: `history` fills `hist` page by
 * page and `replay` fills `replays` (history.js asks for them), so they survive a reload.
 *
 * Who watches (members without a seat, for the host's remove buttons) comes with the snapshot
 * and is followed through joined, left, removed, seat_taken and seat_left; whether the host has
 * locked the table through `locked`. The chat panel's lines (chat, and who joined and left) are
 * kept from the events this page saw.
 *
 * The host's controls of the session: `held` (the host holds the table between hands: no
 * countdown), `spectatorChat` (watchers may chat), `options` (from the `options` event too), and
 * `ended`, the final scoreboard of a session the host ended (`table_ended`), kept on the page
 * after the table closes. Their events are noted in the chat panel as well.
 *
 * Scores and results follow players, not seats (PROTOCOL.md, "Scores follow players"): `scores`
 * are those of whoever holds each seat now; `handPlayers` are who played the hand of `view` (the
 * one on, or the last), from the snapshot's `hand_players`, the seats at `hand_started` and
 * `hand_over`'s `players`, so the settlement and the board between hands name the players who
 * played it even after one left and another sat down. A `bank` event is a new bank drawn between
 * hands.
 *
 * Nothing here reads a game's view or result beyond what every game has (registry.js).
 */
import { gameFor } from './games/registry.js';
import { has, t } from './i18n.js';

export function newTable(code) {
  return {
    code, seq: 0, info: null, seats: [], view: null, deciding: [], mySeat: null,
    scores: [0, 0, 0, 0], gameState: null, phase: 'waiting', hostId: null,
    options: {}, isPublic: false, turnSeconds: null, handsPlayed: 0,
    locked: false, /* the host locked it: nobody new may join */
    held: false, /* the host holds it: no next hand starts until they resume (`held`) */
    spectatorChat: true, /* watchers may chat (`spectator_chat`) */
    ended: null, /* the session the host ended: { hands, scoreboard: [{ player, name, score, hands }] } */
    watchers: [], /* [{ player, name }]: members without a seat */
    chat: [], /* the chat panel's lines, oldest first: { kind: chat|joined|left|removed, player, from, text } */
    lastResult: null, closed: null,
    bankDrawn: false, /* a new bank was drawn since the last hand ended (a `bank` event) */
    handPlayers: null, /* the seats of the hand in `view` as it was played: [{ player, name, bot, connected }] */
    nextHandAt: null, /* local time the next hand starts unless all are ready first (hand_over's next_hand_ms) */
    paused: false, /* the server cannot save moves right now and waits (a `paused` event) */
    stale: false,  /* parked for a restart: join again once reconnected */
    rejoin: false, /* the connection was lost since its snapshot: join again (maybe on another node) */
    rejoinUntil: 0, /* until when a rejoin that finds no table tries again */
    /* hands newest first as the server sent them; oldest: the smallest hand number held */
    hist: { hands: [], loaded: false, loading: false, again: false, more: false, oldest: null, error: null },
    replays: new Map(), /* hand number → { frames, seat, players } | { loading } | { error } */
    /* game: the game's scratch for the hand being played (its controls' selection…), new each hand */
    ui: { game: {}, readySent: false, showHistory: false, openHand: null, step: 0 },
  };
}

/* The server's deciding list with local deadlines: a person's countdown, or null (a bot's pause, no timer). */
export function decidingFrom(list) {
  return (Array.isArray(list) ? list : []).map((d) => ({
    seat: d.seat, kind: d.kind, deadline: Number.isInteger(d.ms_left) ? Date.now() + d.ms_left : null,
  }));
}

function seatOf(seats, playerId) {
  const i = (seats || []).findIndex((s) => s && s.player && s.player === playerId);
  return i >= 0 ? i : null;
}

/* Seats in the shape seats.js draws from a list of { seat, player, name, bot } (hand_over's
 * `players`, the snapshot's `hand_players`); null when there is none. */
export function seatsFromPlayers(players) {
  if (!Array.isArray(players) || players.length !== 4) return null;
  const seats = [0, 1, 2, 3].map(() => ({ player: null, name: null, bot: false, connected: true }));
  for (const p of players) {
    if (p && Number.isInteger(p.seat) && p.seat >= 0 && p.seat < 4) {
      seats[p.seat] = { player: p.player || null, name: p.name || null, bot: Boolean(p.bot), connected: true };
    }
  }
  return seats;
}

/* Who holds the seats now, as a hand's players: at a hand's start, they are who plays it. */
function playersOfSeats(seats) {
  return (seats || []).map((s) => ({ player: (s && s.player) || null, name: (s && s.name) || null,
    bot: Boolean(s && s.bot), connected: true }));
}

/* The settlement shown between hands: the hand's result, named after who played it. */
function settledHand(ts, hand, result, view) {
  return {
    hand, result,
    gameState: ts.gameState,
    view: view || null,
    options: ts.options,
    seats: (ts.handPlayers || ts.seats).map((s) => ({ ...s })),
    scores: null,
  };
}

export function applySnapshot(ts, msg) {
  const info = msg.info;
  ts.seq = msg.seq;
  ts.info = info;
  ts.seats = info.seats;
  ts.view = msg.view;
  ts.deciding = decidingFrom(info.deciding);
  ts.mySeat = Number.isInteger(msg.seat) ? msg.seat : null;
  ts.scores = info.scores.slice();
  followScores(ts);
  ts.gameState = info.game_state === undefined ? null : info.game_state;
  ts.phase = info.state;
  ts.hostId = info.host;
  ts.options = info.options || {};
  ts.isPublic = info.public;
  ts.turnSeconds = info.turn_seconds;
  ts.handsPlayed = info.hands_played;
  ts.locked = Boolean(info.locked);
  ts.held = Boolean(info.held);
  ts.spectatorChat = info.spectator_chat !== false;
  ts.watchers = Array.isArray(info.watchers) ? info.watchers.map((w) => ({ player: w.player, name: w.name })) : [];
  ts.closed = info.state === 'closed' ? ts.closed || '' : null;
  ts.stale = false;
  ts.rejoin = false;
  ts.handPlayers = seatsFromPlayers(info.hand_players);
  const view = msg.view;
  if (view && view.over && view.result && ts.phase !== 'playing') {
    const entry = settledHand(ts, info.hands_played, view.result, view);
    entry.scores = ts.scores.slice();
    ts.lastResult = entry;
  } else if (ts.phase === 'playing') {
    ts.lastResult = null;
  }
}

/* A view sent to this seat alone after a private decision: it replaces the seat's view. */
export function applyView(ts, msg) {
  ts.view = msg.view;
}

function dropWatcher(ts, player) {
  ts.watchers = ts.watchers.filter((w) => w.player !== player);
}

function addWatcher(ts, player, name) {
  if (player && !ts.watchers.some((w) => w.player === player)) ts.watchers.push({ player, name: name || '' });
}

/* Who watches after the event, from the seats before it (seat_left says only which seat). */
function followWatchers(ts, ev, seatsBefore) {
  switch (ev.kind) {
    case 'joined':
      if (ev.seat === null || ev.seat === undefined) addWatcher(ts, ev.player, ev.name);
      break;
    case 'left':
    case 'removed':
      dropWatcher(ts, ev.player);
      break;
    case 'seat_taken':
      dropWatcher(ts, ev.player);
      break;
    case 'seat_left': {
      /* they stood up and watch (if they left the table, `left` follows) */
      const was = (seatsBefore || [])[ev.seat];
      if (was && was.player) addWatcher(ts, was.player, was.name);
      break;
    }
    default:
      break;
  }
}

/* The most lines the chat panel keeps. */
export const CHAT_KEPT = 200;

/* An option's label as the game's rules editor shows it (games/<game>/strings.js: "<prefix>.opt.<key>"),
 * else the key itself. */
function optionLabel(ts, key) {
  const prefix = String(gameFor(ts.info && ts.info.game).titleKey || '').split('.')[0];
  const label = `${prefix}.opt.${key}`;
  return prefix && has(label) ? t(label) : key;
}

/* The chat panel's note of what the host did (a new host, rules, hold, watchers' chat), or null. */
function hostNoteOf(ts, ev) {
  switch (ev.kind) {
    case 'host': return { kind: 'host', player: ev.player, from: ev.name || ev.player, text: '' };
    case 'options': {
      const changed = Array.isArray(ev.changed) ? ev.changed.filter((k) => typeof k === 'string') : [];
      return { kind: 'options', player: ev.by, from: changed.map((k) => optionLabel(ts, k)).join(' · '), text: '' };
    }
    case 'held': return { kind: ev.held ? 'held' : 'unheld', player: null, from: '', text: '' };
    case 'spectator_chat': return { kind: ev.on ? 'chat_on' : 'chat_off', player: null, from: '', text: '' };
    default: return null;
  }
}

/* A chat line, or who came and went, for the chat panel. */
function followChat(ts, ev) {
  const hostNote = hostNoteOf(ts, ev);
  if (hostNote) {
    ts.chat.push(hostNote);
    if (ts.chat.length > CHAT_KEPT) ts.chat.splice(0, ts.chat.length - CHAT_KEPT);
    return;
  }
  if (ev.kind !== 'chat' && ev.kind !== 'joined' && ev.kind !== 'left' && ev.kind !== 'removed') return;
  ts.chat.push({ kind: ev.kind, player: ev.player, from: ev.kind === 'chat' ? ev.from : ev.name, text: ev.text || '' });
  if (ts.chat.length > CHAT_KEPT) ts.chat.splice(0, ts.chat.length - CHAT_KEPT);
}

/* Each seat carries its holder's running score: it changes with who sits there, not only at a
 * hand's end (a newcomer's is 0, a returning player's their own). */
function followScores(ts) {
  if (ts.seats.length === 4 && ts.seats.every((s) => s && Number.isInteger(s.score))) ts.scores = ts.seats.map((s) => s.score);
}

/* One event; me is the player's id ("p3"). Returns true when a hand finished. */
export function applyEvent(ts, msg, me) {
  const ev = msg.event;
  const seatsBefore = ts.seats;
  ts.seq = msg.seq;
  ts.seats = msg.seats || ts.seats;
  followScores(ts);
  followWatchers(ts, ev, seatsBefore);
  followChat(ts, ev);
  if (msg.view !== undefined) ts.view = msg.view; /* events that change no view come without one */
  ts.deciding = decidingFrom(msg.deciding);
  ts.mySeat = seatOf(ts.seats, me);
  switch (ev.kind) {
    case 'hand_started':
      ts.handPlayers = playersOfSeats(ts.seats);
      ts.bankDrawn = false;
      ts.phase = 'playing';
      ts.handsPlayed = ev.hand;
      if (ev.game_state !== undefined) ts.gameState = ev.game_state;
      ts.lastResult = null;
      ts.ui.readySent = false;
      ts.ui.game = {};
      break;
    case 'hand_over': {
      ts.handPlayers = seatsFromPlayers(ev.players) || ts.handPlayers;
      ts.bankDrawn = false;
      const entry = settledHand(ts, ev.hand, ev.result, msg.view);
      ts.phase = 'between_hands';
      ts.scores = Array.isArray(ev.scores) ? ev.scores.slice() : ts.scores.map((s, i) => s + ev.result.net[i]);
      entry.scores = ts.scores.slice();
      ts.gameState = gameFor(ts.info && ts.info.game).nextGameState(ev.result, ts.gameState);
      ts.lastResult = entry;
      ts.nextHandAt = Number.isInteger(ev.next_hand_ms) ? Date.now() + ev.next_hand_ms : null;
      return true;
    }
    case 'waiting':
      ts.phase = 'waiting';
      break;
    case 'bank': /* the bank's holder left between hands: a new bank */
      if (ev.game_state !== undefined) ts.gameState = ev.game_state;
      ts.bankDrawn = true; /* the settlement's "next" line no longer holds: the page says so */
      break;
    case 'host':
      ts.hostId = ev.player;
      break;
    case 'locked':
      ts.locked = Boolean(ev.locked);
      break;
    case 'options':
      if (ev.options && typeof ev.options === 'object') ts.options = ev.options;
      break;
    case 'held':
      ts.held = Boolean(ev.held);
      /* resumed: the pause before the next hand starts afresh */
      ts.nextHandAt = !ts.held && Number.isInteger(ev.next_hand_ms) ? Date.now() + ev.next_hand_ms : ts.held ? null : ts.nextHandAt;
      break;
    case 'spectator_chat':
      ts.spectatorChat = Boolean(ev.on);
      break;
    case 'table_ended':
      ts.ended = { hands: ev.hands, scoreboard: Array.isArray(ev.scoreboard) ? ev.scoreboard : [] };
      break;
    case 'closing':
      ts.phase = 'closed';
      ts.closed = ev.why || '';
      break;
    case 'paused':
      ts.paused = true;
      break;
    case 'resumed':
      ts.paused = false;
      break;
    case 'parked':
      ts.stale = true; /* the server restarts; the table comes back with it */
      ts.paused = false;
      break;
    default:
      break;
  }
  return false;
}

/* What a resuming connection missed (its scores and the rest come right after with the
 * snapshot). Returns true when a hand finished meanwhile. */
export function applyMissed(ts, msg) {
  return (msg.events || []).some(({ event }) => event && event.kind === 'hand_over');
}

/* The most hands one `history` reply holds (PROTOCOL.md). */
export const HISTORY_PAGE = 20;

/* A page of `history` merged into what the table holds: the newest page (older false) or the
 * page before the oldest hand held (older true). `more`: whether older hands may remain. */
export function mergeHistory(ts, hands, older) {
  const hist = ts.hist;
  const newest = hist.hands.length ? hist.hands[0].hand : 0;
  const lowest = hands.length ? Math.min(...hands.map((e) => e.hand)) : null;
  if (!older && lowest !== null && lowest > newest + 1) {
    /* more hands finished than a page holds since the last ask: drop the old ones, not leave a gap */
    hist.hands = [];
    hist.loaded = false;
  }
  const byHand = new Map(hist.hands.map((e) => [e.hand, e]));
  for (const e of hands) byHand.set(e.hand, e);
  hist.hands = [...byHand.values()].sort((a, b) => b.hand - a.hand);
  if (older || !hist.loaded) hist.more = hands.length >= HISTORY_PAGE;
  hist.oldest = hist.hands.length ? hist.hands[hist.hands.length - 1].hand : null;
  hist.loaded = true;
}

/* The table's totals after each held hand, when every hand from 1 up to it is held (their nets
 * add up to the scores); hand number → [4 totals]. */
export function runningTotals(hands) {
  const totals = new Map();
  const sum = [0, 0, 0, 0];
  const ascending = [...hands].sort((a, b) => a.hand - b.hand);
  for (let i = 0; i < ascending.length && ascending[i].hand === i + 1; i++) {
    ascending[i].net.forEach((n, seat) => { sum[seat] += n; });
    totals.set(ascending[i].hand, sum.slice());
  }
  return totals;
}
