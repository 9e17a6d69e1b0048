/*
 * Tien Gow 天九 (rules/tiengow.md), as a game module of the web client (the interface is written
 * at the top of ../registry.js): its labels and stylesheet, its rules page (./rules/), its rule
 * options in the lobby, what
 * it shows on the table (the banker's badge, stacks and tiles, the trick, the player's hand and
 * buttons), the settlement of a hand explained, and how a step of a hand is told.
 *
 * Its table state (`game_state`) is {"banker":S,"multiplier":m}; after a hand the result names
 * the next ones (next_banker, next_multiplier), which the table shows until the next hand starts.
 */
import strings from './strings.js';
import { optionEditor, optionsSummary, readOptions } from './options.js';
import { decidingInView, renderOpenHand, renderReplayHand, replayMarks, renderTrick, seatBadges, seatStats } from './board.js';
import { renderControls } from './controls.js';
import { renderSettlement } from './settlement_view.js';
import rules from './rules/index.js';
import { describeEvent, describeTimeout } from './events.js';

/* The banker and multiplier of the hand after one with this result. */
function nextGameState(result, gameState) {
  if (!result || !Number.isInteger(result.next_banker)) return gameState;
  return { banker: result.next_banker, multiplier: result.next_multiplier };
}

export default {
  name: 'tiengow',
  titleKey: 'tg.title',
  taglineKey: 'tg.tagline',
  strings,
  rules,
  stylesheet: new URL('./tiengow.css', import.meta.url).href,

  optionsTitleKey: 'tg.create.rules',
  optionEditor,
  readOptions,
  optionsSummary,

  seatBadges,
  seatStats,
  renderCenter: renderTrick,
  renderControls,
  renderSettlement,
  nextGameState,

  describeEvent,
  describeTimeout,
  decidingInView,
  renderReplayHand,
  renderOpenHand,
  replayMarks,
};
