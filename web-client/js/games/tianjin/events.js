/*
 * events — how a step of a Tianjin hand is told under the history's replay: the deal with its
 * banker, and each move (sitting or not, the pulls shown together, discard, pung, the kongs, the
 * win, a window nobody claimed) with its tile named in the player's language. The game's part of
 * an event has no kind of its own (view.js): the server adds "kind":"action".
 */
import { t, lang } from '../../i18n.js';
import { seatName } from '../../seats.js';
import { tileName } from './tiles.js';
import { moveOf } from './view.js';

/* One sentence for the event, or '' for one the house tells itself (hand_over). */
export function describeEvent(ev, seats) {
  if (ev.kind === 'hand_started') {
    const state = ev.game_state || {};
    return t('tj.ev.hand_started', { n: ev.hand, name: seatName(seats, state.banker) });
  }
  if (ev.kind !== 'action') return '';
  const move = moveOf(ev.action || ev);
  if (!move) return '';
  const bot = ev.by_bot && !(seats[ev.seat] && seats[ev.seat].bot) ? t('ev.byBot') : ''; /* a bot covered a person */
  const name = seatName(seats, ev.seat) + bot;
  if (move.kind === 'pulls') {
    const pulled = (Array.isArray(move.value) ? move.value : []).map((n, seat) => (n > 0 ? `${seatName(seats, seat)} ×${2 ** n}` : null))
      .filter(Boolean);
    return pulled.length ? t('tj.ev.pulls', { list: pulled.join(', ') }) : t('tj.ev.noPulls');
  }
  if (move.kind === 'no_claim') return t('tj.ev.no_claim', { tile: tileName(move.tile, lang()) });
  if (move.kind === 'sit') return t(move.value ? 'tj.ev.sit' : 'tj.ev.noSit', { name });
  if (move.kind === 'pull') return t(move.value ? 'tj.ev.pull' : 'tj.ev.noPull', { name });
  return t('tj.ev.' + move.kind, { name, tile: move.tile ? tileName(move.tile, lang()) : '' });
}
