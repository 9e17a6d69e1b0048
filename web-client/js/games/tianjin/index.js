/*
 * Tianjin Mahjong 天津麻将 (rules/tianjin-mahjong.md), as a game module of the web client (the
 * interface is written at the top of ../registry.js): its labels and stylesheet, its rules page
 * (./rules/), its rule options
 * in the lobby, what it shows on the table (the banker's badges, the indicator and wilds, the
 * wall, each seat's melds and river, the player's hand and buttons), the settlement of a hand
 * explained, and how a step of a hand is told. The view it draws is described in view.js.
 *
 * Its table state (`game_state`) is assumed to be {"banker":S,...}; after a hand the result names
 * the next banker and whether they must sit (next_banker, next_must_sit), shown until the next
 * hand starts.
 */
import strings from './strings.js';
import { optionEditor, optionsSummary, readOptions } from './options.js';
import { decidingInView, renderCenter, renderOpenHand, renderReplayHand, replayMarks, seatBadges, seatStats } from './board.js';
import { renderControls } from './controls.js';
import { renderSettlement } from './settlement_view.js';
import rules from './rules/index.js';
import { describeEvent } from './events.js';

/* The banker (and whether they must sit) of the hand after one with this result. */
function nextGameState(result, gameState) {
  if (!result || !Number.isInteger(result.next_banker)) return gameState;
  return { ...(gameState || {}), banker: result.next_banker, must_sit: Boolean(result.next_must_sit) };
}

export default {
  name: 'tianjin',
  titleKey: 'tj.title',
  taglineKey: 'tj.tagline',
  strings,
  rules,
  stylesheet: new URL('./tianjin.css', import.meta.url).href,

  optionsTitleKey: 'tj.create.rules',
  optionEditor,
  readOptions,
  optionsSummary,

  seatBadges,
  seatStats,
  renderCenter,
  renderControls,
  renderSettlement,
  nextGameState,

  describeEvent,
  decidingInView,
  renderReplayHand,
  renderOpenHand,
  replayMarks,
};
