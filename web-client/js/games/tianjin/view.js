/*
 * view — how the client reads a Tianjin view and event and writes a Tianjin act, in one place
 * (protocol/PROTOCOL.md, "Tianjin Mahjong", is the source of truth). No DOM.
 *
 * A view, shared by every seat and spectator:
 *   { game: "tianjin", phase: "sit" | "pull" | "turn" | "claim" | "over",
 *     banker, count, must_sit, sat (null before the banker decides), pulls ([n × 4] or null),
 *     once dealt (null before): indicator, wilds ([kinds]), wall (tiles left to draw),
 *     replacements, held ([n × 4], a drawn tile included), melds ([[{kind, tiles}…] × 4]),
 *     discards ([[tiles] × 4]), wild_discards ([seats]);
 *     turn (the seat to act, or the discarder while its window is open), discard ({seat, tile}
 *     while a claim window is open, else null), over, result }
 * and the seat's own part: seat (-1 for a spectator), hand (its concealed tiles in tile order, the
 * drawn one included; null for a spectator and before the deal), drawn (the tile it just drew),
 * pull (its own choice before it is shown), passed (it passed in the open window) and legal:
 * null, or { kind: "pre_hand" | "turn" | "claim", actions: [{discard: "5m"}, {win: true},
 * {concealed_kong: "9s"}, {added_kong: "9s"}, {pung: true}, {kong: true}, {pass: true},
 * {sit: true|false}, {pull: n}…], win_refused (on a turn: null, or {code, message} saying why
 * {win: true} is not listed) }.
 *
 * An act is one of those action objects, sent as listed. An event's game part has no kind of its
 * own (the server adds "kind":"action"): {seat, sit}, {pulls}, {seat, discard|pung|kong|
 * concealed_kong|added_kong|win: tile}, {no_claim: tile}.
 */
import { sortTiles, wildKinds } from './tiles.js';

/* The buttons a turn or a claim may offer, in the order they are shown. */
export const ACTIONS = ['win', 'concealed_kong', 'added_kong', 'kong', 'pung', 'pass'];

/* The plays an event may name, each with its tile (or value). */
const MOVES = ['discard', 'win', 'concealed_kong', 'added_kong', 'kong', 'pung', 'pass', 'sit', 'pull', 'pulls', 'no_claim'];

/* Codes of win_refused the player is told about: the tiles would win, a rule forbids it. */
const TOLD_REFUSALS = new Set(['under_minimum', 'wild_discarded']);

export function isOver(view) {
  return Boolean(view && (view.over || view.phase === 'over'));
}

/* The wild kinds of the hand: the view's own list, else worked out from its indicator. */
export function wildsOf(view, options) {
  if (!view) return [];
  if (Array.isArray(view.wilds)) return view.wilds;
  return wildKinds(view.indicator, options);
}

/*
 * The seat's concealed tiles in display order (wilds first) and its drawn tile apart. A hand
 * holding its drawn tile has 3k + 2 tiles (14 less 3 per meld): then one copy of it is taken
 * out; a hand of 3k + 1 tiles already leaves it out.
 */
export function splitHand(view, options) {
  if (!view || !Array.isArray(view.hand)) return { hand: null, drawn: null };
  const tiles = [...view.hand];
  const drawn = view.drawn || null;
  if (drawn && tiles.length % 3 === 2) {
    const at = tiles.lastIndexOf(drawn);
    if (at >= 0) tiles.splice(at, 1);
  }
  return { hand: sortTiles(tiles, wildsOf(view, options)), drawn };
}

/* The seats to act in a view and what they decide, [{ seat, kind }] ('pre_hand', 'turn', 'claim'):
 * for a replayed step, whose frames carry no deciding list. */
export function toActOf(view) {
  if (!view || isOver(view)) return [];
  const others = (seat) => [0, 1, 2, 3].filter((s) => s !== seat);
  if (view.phase === 'sit' && Number.isInteger(view.banker)) return [{ seat: view.banker, kind: 'pre_hand' }];
  if (view.phase === 'pull' && Number.isInteger(view.banker)) return others(view.banker).map((seat) => ({ seat, kind: 'pre_hand' }));
  if (view.phase === 'claim' && Number.isInteger(view.turn)) return others(view.turn).map((seat) => ({ seat, kind: 'claim' }));
  if (view.phase === 'turn' && Number.isInteger(view.turn)) return [{ seat: view.turn, kind: 'turn' }];
  return [];
}

/*
 * What `legal` allows, as { kind, discard: Set of tiles or null, buttons: [{kind, tile}], sit,
 * pull, winRefused }: the discards the seat may make; one button per win, kong, pung or pass
 * (a claim's names the discard it is about, `claimTile`); sit when the banker decides; pull the
 * most pulls allowed when a seat decides how often to pull (-1: no pull decision); winRefused a
 * reason worth telling ({code, message}) when the tiles would win but may not.
 */
export function legalMoves(legal, claimTile = null) {
  const moves = { kind: null, discard: null, buttons: [], sit: false, pull: -1, winRefused: null };
  if (!legal || !Array.isArray(legal.actions)) return moves;
  moves.kind = legal.kind || null;
  for (const action of legal.actions) {
    const move = moveOf(action);
    if (!move) continue;
    if (move.kind === 'discard' && move.tile) {
      if (!moves.discard) moves.discard = new Set();
      moves.discard.add(move.tile);
    } else if (move.kind === 'sit') {
      moves.sit = true;
    } else if (move.kind === 'pull') {
      moves.pull = Math.max(moves.pull, Number.isInteger(move.value) ? move.value : 0);
    } else if (ACTIONS.includes(move.kind)) {
      const tile = move.tile || (move.kind === 'pung' || move.kind === 'kong' ? claimTile : null);
      moves.buttons.push({ kind: move.kind, tile, action });
    }
  }
  moves.buttons.sort((a, b) => ACTIONS.indexOf(a.kind) - ACTIONS.indexOf(b.kind));
  const refused = legal.win_refused;
  if (refused && typeof refused.code === 'string' && TOLD_REFUSALS.has(refused.code)) moves.winRefused = refused;
  return moves;
}

/* The `action` of an act for a move: the discard and the kongs name their tile; a claim, a pass
 * and a win are `true`; sit says yes or no and pull how often. */
export function actionMessage(kind, tile) {
  if (kind === 'sit') return { sit: Boolean(tile) };
  if (kind === 'pull') return { pull: Number(tile) || 0 };
  if (kind === 'discard' || kind === 'concealed_kong' || kind === 'added_kong') return { [kind]: tile };
  return { [kind]: true };
}

/* The move an action (an act's `action`, a legal entry or an event) makes: { kind, tile, value },
 * or null. tile is the tile it names (a string value), value what was sent. */
export function moveOf(action) {
  if (!action || typeof action !== 'object') return null;
  for (const kind of MOVES) {
    if (action[kind] !== undefined && action[kind] !== null) {
      const value = action[kind];
      return { kind, tile: typeof value === 'string' ? value : null, value };
    }
  }
  return null;
}
