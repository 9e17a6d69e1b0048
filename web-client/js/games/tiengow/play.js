/*
 * play — what the player may do with the tiles they selected, from the server's `legal` list:
 * whether the selection is exactly one of the legal plays (Play), whether it is a discard of the
 * right count (Discard), and which tiles to highlight as still able to make a legal play.
 *
 * The server sends the legal plays of the seat to act; the client never invents one, so an
 * illegal selection cannot reach the server from the buttons. Why a selection is not a legal
 * play is said with the engine's own refusal code (PROTOCOL.md "Game codes"), so the player
 * reads the words the server would have answered.
 */
import { comboInfo, tilesKey } from './tiles.js';

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

/*
 * The engine's code for why `chosen` (faces, not empty) is no legal play: best is the best play
 * of the open trick (null when leading), legal the view's `legal`. null when it is legal.
 */
export function refusalOf(chosen, best, legal, options) {
  const plays = (legal && legal.plays) || [];
  const key = tilesKey(chosen);
  if (plays.some((p) => tilesKey(p) === key)) return null;
  const info = comboInfo(chosen, options);
  if (!best) return chosen.length > 4 ? 'wrong_count' : info ? null : 'not_a_combination';
  if (chosen.length !== best.length) return 'wrong_count';
  if (legal && legal.barred) return 'barred_from_final';
  if (!info) return 'not_a_combination';
  if (info.type === 'supreme') return 'supreme_only_led';
  const led = comboInfo(best, options);
  if (led && led.type === 'supreme') return 'nothing_beats';
  if (led && led.type !== info.type) return 'wrong_type';
  if (led && led.hant === '文尊') return 'only_long_leg_pair_beats';
  return plays.length ? 'does_not_beat' : 'nothing_beats';
}
