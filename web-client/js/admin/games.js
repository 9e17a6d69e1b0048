/*
 * games — the admin pages' view of the games, without naming one: the registry's games, each
 * with the admin part of its folder (games/NAME/admin.js: its reasons, its table state, its
 * option labels, its tiles, a step of a hand, the plays of a hand), loaded once at start and
 * found by the name the server gives a table or a hand. A game without one is drawn as data.
 */
import { addStrings } from '../i18n.js';
import { gameTitle, knownGames } from '../games/registry.js';

const parts = new Map();

/* Loads every known game's admin part; resolves when all are in (a missing one is skipped). */
export async function loadGames() {
  await Promise.all(knownGames().map(async (game) => {
    if (parts.has(game.name)) return;
    try {
      const mod = (await import(`../games/${game.name}/admin.js`)).default;
      addStrings(mod.strings || {});
      parts.set(game.name, mod);
    } catch (e) {
      console.warn(`no admin part for ${game.name}: ${e}`);
    }
  }));
}

/* The admin part of the game of that name, or null. */
export function gameAdmin(name) {
  return typeof name === 'string' ? parts.get(name) || null : null;
}

export function gameNames() {
  return knownGames().map((g) => g.name);
}

/* Every ledger reason a game writes, after the house's own. */
export function gameReasons() {
  return [...parts.values()].flatMap((p) => p.reasons || []);
}

export { gameTitle };
