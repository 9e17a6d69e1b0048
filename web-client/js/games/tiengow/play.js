/*
 * play — what the player may do with the tiles they selected, from the server's `legal` list:
 * whether the selection is exactly one of the legal plays (Play), whether it is a discard of the
 * right count (Discard), and which tiles to highlight as still able to make a legal play.
 *
 * The server sends the legal plays of the seat to act; the client never invents one, so an
 * illegal selection cannot reach the server from the buttons.
 */
import { tilesKey } from './tiles.js';

/* Removes one copy of each face of `part` from `whole`; null if `part` is not inside it. */
function minus(whole, part) {
  const rest = [...whole];
  for (const face of part) {
    const at = rest.indexOf(face);
    if (at < 0) return null;
    rest.splice(at, 1);
  }
  return rest;
}

/*
 * hand: the player's faces in display order; selected: a Set of indices into hand; legal: the
 * view's `legal` ({plays, discard, barred}) or null; myTurn: whether this seat is to act.
 */
export function analyzeSelection(hand, selected, legal, myTurn) {
  const chosen = [...selected].sort((a, b) => a - b).map((i) => hand[i]);
  const plays = myTurn && legal ? legal.plays || [] : [];
  const discardCount = myTurn && legal && Number.isInteger(legal.discard) ? legal.discard : null;
  const key = tilesKey(chosen);
  const canPlay = chosen.length > 0 && plays.some((p) => p.length === chosen.length && tilesKey(p) === key);
  const canDiscard = discardCount !== null && chosen.length === discardCount;

  /* Tiles that complete a legal play containing the current selection. */
  const extending = plays.map((p) => minus(p, chosen)).filter((rest) => rest !== null);
  const highlight = hand.map((face, i) => {
    if (selected.has(i)) return extending.length > 0;
    return extending.some((rest) => rest.includes(face));
  });
  const maxSelect = discardCount !== null ? discardCount : 4;
  return { chosen, canPlay, canDiscard, highlight, maxSelect, discardCount, plays };
}

/* The hand indices that make up a play, taking the first unused copy of each face. */
export function indicesOf(hand, faces) {
  const used = new Set();
  for (const face of faces) {
    const i = hand.findIndex((f, k) => f === face && !used.has(k));
    if (i < 0) return null;
    used.add(i);
  }
  return used;
}
