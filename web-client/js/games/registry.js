/*
 * registry — the games this client can seat players at, by the server's name of each
 * (create_table's `game`, a snapshot's `info.game`, a table summary's `game`), in the order the
 * lobby offers them. The lobby, the table page, the history, the store and the header know a
 * game only through the module found here; everything one game needs lives in its own folder
 * beside this file, so a second game is one more folder and one more line in GAMES.
 *
 * A game module is a plain object:
 *
 *   name                  the server's name of the game
 *   titleKey              i18n key of its name (the lobby's picker, the table list, the table's title)
 *   taglineKey            i18n key of the line under the house's name when it is the only game
 *   strings               its labels, {en, 'zh-Hant', 'zh-Hans'}: added to i18n.js here, once
 *   stylesheet            URL of its stylesheet (main.js loads it after teahouse.css), or null
 *   rules                 its rules page (js/rules/page.js draws it), or null: { load(lang) and
 *                         glossary(), promises of the content; chart(lang), the tile chart;
 *                         blocks, the game's own kinds of block, each (value, lang) → a node }
 *
 *   In the lobby's create form:
 *   optionsTitleKey       i18n key of the rule options' section
 *   optionEditor()        the controls of its rule options, each at its default (DOM nodes)
 *   readOptions(form)     the `options` of create_table, read from those controls
 *   optionsSummary(opts)  a short line of what differs from its standard rules (the table list)
 *
 *   On the table, drawn from a scene (seats.js: seats, view, deciding, mySeat, scores, gameState,
 *   hostId, meId, options, phase):
 *   seatBadges(scene, seat)     the seat's badges of the game (who deals, say)
 *   seatStats(scene, seat)      the seat's figures of the game, before its score
 *   renderCenter(scene)         the middle of the board (what was just played)
 *   renderControls(ctx)         the player's own part while a hand is played, or null; ctx is
 *                               { view, seat, seats, options, deciding, ui, act(action), rerender() }: ui
 *                               is scratch kept for the hand, act sends an `act` and resolves
 *                               with the reply (null when refused: the refusal is shown)
 *   renderSettlement(entry, extra)  a finished hand explained; entry { hand, result, gameState,
 *                               view, options, seats, scores }, extra { id, footer }
 *   nextGameState(result, gameState)  the table's game_state after a hand with this result, as
 *                               far as the result tells (the next snapshot or hand_started brings
 *                               the server's own)
 *
 *   In the history's replay (frames carry views, not decisions):
 *   describeEvent(ev, seats, options)  one sentence for a step (hand_started, action), or ''
 *   decidingInView(view)        the seats to act in a replayed view, as [{ seat, kind }]
 *   renderReplayHand(scene)     the player's own tiles under a replayed step, or null
 *   renderOpenHand(scene, seat) one seat's tiles in a finished hand's open view (view.hands), or null
 *   replayMarks(frames, seats, options)  the steps the replay page offers to jump to, each
 *                               named in the game's words: [{ step, label }]
 *
 * What the house itself reads of a game's JSON: a view's `over` (true once the hand is finished)
 * and `result` (the hand_over result), and a result's `winner` and `net`; the rest is the game's.
 *
 * Knowing a game is not offering it. Every game in GAMES can be drawn (a table of it, its history,
 * its name in the table list), but the lobby offers only the games the server announces
 * (announceGames, from its welcome). A server that announces none is one from before the house
 * had several games and seats players at the first game of GAMES only. The house loads the
 * stylesheets of the games it offers; one that is only known gets its stylesheet here, the first
 * time a table of it is drawn.
 */
import { addStrings, t } from '../i18n.js';
import tiengow from './tiengow/index.js';
import tianjin from './tianjin/index.js';

const GAMES = [tiengow, tianjin];

for (const game of GAMES) addStrings(game.strings);

/* A table of a game this client does not know: its seats and scores show, the game's parts do not. */
function unknownGame(name) {
  return {
    name, titleKey: null, taglineKey: null, strings: {}, stylesheet: null,
    optionsTitleKey: null, optionEditor: () => [], readOptions: () => ({}), optionsSummary: () => '',
    seatBadges: () => [], seatStats: () => [], renderCenter: () => null, renderControls: () => null,
    renderSettlement: () => null, nextGameState: (result, gameState) => gameState,
    describeEvent: () => '', decidingInView: () => [], renderReplayHand: () => null,
    renderOpenHand: () => null, replayMarks: () => [],
  };
}

/* The names of the games the server announced, or null while it has announced none. */
let announced = null;

/* Takes the server's list of the games it seats players at (names unknown here are left out);
 * anything but a list leaves the house as an older server has it. */
export function announceGames(names) {
  announced = Array.isArray(names) ? names.filter((n) => typeof n === 'string') : null;
}

/* The games the lobby offers, in the order of GAMES. */
export function games() {
  if (!announced) return GAMES.slice(0, 1);
  return GAMES.filter((g) => announced.includes(g.name));
}

/* Every game this client can draw, offered or not. */
export function knownGames() {
  return GAMES;
}

/* A known game's stylesheet, once, unless the house loaded it already (main.js loads every known one). */
function ensureStylesheet(game) {
  if (!game.stylesheet || typeof document === 'undefined' || games().includes(game)) return;
  const href = new URL(game.stylesheet, document.baseURI).href;
  if ([...document.querySelectorAll('link[rel="stylesheet"]')].some((l) => l.href === href)) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = game.stylesheet;
  document.head.appendChild(link);
}

/* The game module of that name, or null. */
export function findGame(name) {
  const game = GAMES.find((g) => g.name === name) || null;
  if (game) ensureStylesheet(game);
  return game;
}

/* The module to draw a table of that game with: the known one, or one that draws no game part. */
export function gameFor(name) {
  return findGame(name) || unknownGame(name);
}

/* The game's name as players read it (the server's name for a game this client does not know). */
export function gameTitle(name) {
  const game = findGame(name);
  return game ? t(game.titleKey) : String(name || '');
}

/* The house's only game, or null when it offers several. */
export function onlyGame() {
  const offered = games();
  return offered.length === 1 ? offered[0] : null;
}
