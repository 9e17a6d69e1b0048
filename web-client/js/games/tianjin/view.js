/*
 * view — how the client reads a Tianjin view and writes a Tianjin act, in one place, so that
 * when the server's shapes are settled only this file changes. No DOM.
 *
 * The view a seat is sent (what this client assumes until PROTOCOL.md says otherwise):
 *   { game: "tianjin", seat,
 *     hand: [tiles] | null     the seat's own concealed tiles (null for a spectator); the drawn
 *                              tile may be inside it or not: splitHand() takes it out either way
 *     drawn: tile | null       the tile the seat just drew (or its 14th dealt tile)
 *     held: [n, n, n, n]       concealed tiles of each seat
 *     melds: [[{kind: "pung"|"kong"|"concealed_kong", tiles: [...]}…] × 4]
 *     discards: [[tiles] × 4]  each seat's river, oldest first, claimed tiles taken away
 *     indicator: tile, wilds: [kinds], wall_left: n, banker: seat,
 *     phase: "pre_hand" | "turn" | "claim" | "over",
 *     legal: {...} | null      what this seat may do now (below)
 *     result: {...} | null     once the hand is over (settlement.js)
 *     optional: to_act (seat), sat (bool), pulls ([n × 4]), over (bool) }
 *
 * `legal`, keyed by the engine's action names (engine/mj_hand.h) and the two decisions before a
 * hand: discard: [tiles] (or true: any tile of the hand), win: bool, concealed_kong: [kinds],
 * added_kong: [kinds], pung: bool | tile, kong: bool | tile, pass: bool, sit: bool, pull: bool | n
 * (the most pulls allowed). An act is sent as { <name>: tile or true } ({"discard":"5m"},
 * {"win":true}); the decisions as {"sit":bool} and {"pull":n}.
 */
import { sortTiles, wildKinds } from './tiles.js';

/* The actions a turn or a claim may offer, in the order their buttons are shown. */
export const ACTIONS = ['win', 'concealed_kong', 'added_kong', 'kong', 'pung', 'pass'];

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

/* The seat to act in a view, and what it decides ('turn', 'claim', 'pre_hand'), or null. */
export function toActOf(view) {
  if (!view || isOver(view) || !Number.isInteger(view.to_act)) return null;
  const kind = view.phase === 'claim' || view.phase === 'pre_hand' ? view.phase : 'turn';
  return { seat: view.to_act, kind };
}

/*
 * What `legal` allows, as { discard: Set of tiles or null, buttons: [{kind, tile}], sit, pull }:
 * one button per action and tile (a kong of each kind that can be made), none when legal is null.
 */
export function legalMoves(legal, hand, drawn) {
  const moves = { discard: null, buttons: [], sit: false, pull: 0 };
  if (!legal) return moves;
  if (legal.discard === true) moves.discard = new Set([...(hand || []), ...(drawn ? [drawn] : [])]);
  else if (Array.isArray(legal.discard)) moves.discard = new Set(legal.discard);
  for (const kind of ACTIONS) {
    const value = legal[kind];
    if (Array.isArray(value)) for (const tile of value) moves.buttons.push({ kind, tile });
    else if (typeof value === 'string') moves.buttons.push({ kind, tile: value });
    else if (value === true) moves.buttons.push({ kind, tile: null });
  }
  moves.sit = legal.sit === true;
  moves.pull = legal.pull === true ? 1 : (Number.isInteger(legal.pull) ? legal.pull : 0);
  return moves;
}

/* The `action` of an act message for a move. */
export function actionMessage(kind, tile) {
  if (kind === 'sit') return { sit: Boolean(tile) };
  if (kind === 'pull') return { pull: Number(tile) || 0 };
  return { [kind]: tile || true };
}

/* The move an action (an act's `action`, or an event) makes: { kind, tile }, or null. */
export function moveOf(action) {
  if (!action) return null;
  if (typeof action.kind === 'string' && action.kind !== 'action') return { kind: action.kind, tile: action.tile || null };
  for (const kind of ['discard', ...ACTIONS, 'sit', 'pull']) {
    if (action[kind] !== undefined && action[kind] !== null) {
      const value = action[kind];
      return { kind, tile: typeof value === 'string' ? value : null, value };
    }
  }
  return null;
}
