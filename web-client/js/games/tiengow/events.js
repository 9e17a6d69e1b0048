/*
 * events — how a step of a Tien Gow hand is told under the history's replay: the deal with its
 * banker and multiplier, a play named as its combination, a discard as its count (its faces are
 * never sent); and what a bot did for the player whose time ran out.
 */
import { t, lang } from '../../i18n.js';
import { seatName } from '../../seats.js';
import { comboName } from './tiles.js';

/* One sentence for the event, or '' for one the house tells itself (hand_over). */
export function describeEvent(ev, seats, options) {
  if (ev.kind === 'hand_started') {
    const state = ev.game_state || {};
    return t('tg.ev.hand_started', { n: ev.hand, name: seatName(seats, state.banker), m: state.multiplier });
  }
  if (ev.kind === 'action') {
    const bot = ev.by_bot && !(seats[ev.seat] && seats[ev.seat].bot) ? t('ev.byBot') : ''; /* a bot covered a person */
    if (ev.play) return t('tg.ev.play', { name: seatName(seats, ev.seat) + bot, combo: comboName(ev.play, lang(), options) });
    return t('tg.ev.discard', { name: seatName(seats, ev.seat) + bot, n: ev.discard });
  }
  return '';
}

/* What a bot did for the player when their turn's time ran out, in their language. */
export function describeTimeout(ev, options) {
  if (ev.play) return t('tg.ev.timedOutPlay', { combo: comboName(ev.play, lang(), options) });
  return t('tg.ev.timedOutDiscard', { n: ev.discard });
}
