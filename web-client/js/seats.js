/*
 * seats — the four seats of any table, drawn from a "scene": who sits where on screen, each
 * seat's name, badges (you, bot, host, offline, and the game's own), figures (the game's, then
 * the table score), the timer of a seat that owes a decision, and the seat's controls. The live
 * table (table.js) and the history stepper (history.js) draw seats with the same function, so a
 * replayed step looks as the player saw it; what is on the table between the seats is the
 * game's (registry.js).
 *
 * A seat with nobody in it shows no score and none of the game's badges or figures; between hands
 * a seat shows the last hand's figures (what it won, what it holds) only when its holder is the one who played
 * it (scene.handSeats), so a newcomer never seems to inherit what the last holder won. A player
 * connected but away from the table's page is shown "away", not online. A person's name links to
 * their profile (#/p/<player id>).
 *
 * A scene is { seats, view, deciding, mySeat, scores, gameState, hostId, meId, options, phase, handSeats }:
 * seats and view as the server sent them, gameState the table's `game_state`, deciding a list of
 * { seat, kind, deadline } where deadline is a local time in ms for a person's countdown, null
 * while a bot covers the seat (or there is no timer), and absent for a replayed step.
 */
import { h } from './dom.js';
import { t } from './i18n.js';

/* Where a seat sits on screen relative to the player: bottom, then counter-clockwise. */
const POSITIONS = ['bottom', 'right', 'top', 'left'];

export function relativePosition(seat, mySeat) {
  const base = Number.isInteger(mySeat) ? mySeat : 0;
  return POSITIONS[(seat - base + 4) % 4];
}

export function playerName(seats, seat) {
  const s = seats && seats[seat];
  if (!s) return t('table.empty');
  if (s.name) return s.name;
  return s.bot ? t('table.botNamed', { wind: t('wind.' + seat) }) : t('table.empty'); /* "Bot East": each bot its own name */
}

/* "East · Ah Ma" / "東 · 阿媽". */
export function seatName(seats, seat) {
  return `${t('wind.' + seat)} · ${playerName(seats, seat)}`;
}

/* A number with a real minus sign, as in the rules' examples. */
export function num(n) {
  return n < 0 ? `−${-n}` : String(n);
}

export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${-n}`;
  return '0';
}

/* A small label on a seat; title is the longer text a pointer or a screen reader gets. */
export function badge(text, cls, title) {
  return h('span', { class: `badge ${cls}`, title: title || text }, text);
}

/* One figure of a seat: a label and a value ("Score +12"). */
export function stat(cls, label, value) {
  return h('span', { class: `stat ${cls}`, title: label }, h('span', { class: 'stat-label' }, label), ' ', value);
}

/* The decision seat owes in the scene, or null. */
export function decisionOf(scene, seat) {
  return (scene.deciding || []).find((d) => d.seat === seat) || null;
}

/* A deciding seat's timer: a countdown for a person, "…" for a bot; a replayed step (no deadline) just says so. */
function decisionTimer(decision, seat) {
  if (decision.deadline === undefined) return h('span', { class: 'turn-timer' }, t('table.toAct'));
  if (decision.deadline === null) return h('span', { class: 'turn-timer' }, seat.bot ? '…' : t('table.botCovering'));
  const left = Math.max(0, Math.ceil((decision.deadline - Date.now()) / 1000));
  return h('span', { class: 'turn-timer', dataset: { deadline: String(decision.deadline) } }, t('table.seconds', { n: left }));
}

/*
 * A seat's avatar: a disc of the player's colour (from their id, so it stays theirs whatever seat
 * they take) with the first letter of their name; a bot's is square-cornered and marked, an empty
 * seat's is a dashed ring.
 */
export function avatar(s, name, dot) {
  const who = s.player || (s.bot ? name : '');
  if (!who) return h('span', { class: 'avatar avatar-empty', 'aria-hidden': 'true' }, dot);
  let hash = 0;
  for (const ch of who) hash = (hash * 31 + ch.codePointAt(0)) % 360;
  const letter = Array.from(String(name || '').trim())[0] || '?';
  return h('span', { class: `avatar${s.bot ? ' avatar-bot' : ''}`, style: `--avatar-hue: ${hash}`, 'aria-hidden': 'true' },
    letter.toUpperCase(), dot);
}

/* Whether the seat's holder now is the one who played the hand shown between hands (always
 * true while a hand is played, or when the scene does not say who played it). */
export function heldByHandPlayer(scene, seat) {
  if (scene.phase === 'playing' || !Array.isArray(scene.handSeats)) return true;
  const now = scene.seats[seat] || {};
  const then = scene.handSeats[seat] || {};
  return now.player ? now.player === then.player : Boolean(now.bot) && Boolean(then.bot);
}

/* "online", "away" (connected, but not at the table's page) or "offline"; '' for a bot or nobody. */
export function presenceOf(s) {
  if (!s.player) return '';
  if (!s.connected) return 'offline';
  return s.away ? 'away' : 'online';
}

/* One seat: name, who it is (you, bot, host), connection, the game's badges and figures, score, timer. */
export function renderSeat(game, scene, seat, controls) {
  const s = scene.seats[seat] || {};
  const filled = s.bot || s.player;
  const isMe = scene.mySeat === seat;
  const decision = decisionOf(scene, seat);
  const presence = presenceOf(s);
  const badges = [];
  if (isMe) badges.push(badge(t('table.you'), 'badge-you'));
  if (s.bot) badges.push(badge(t('table.bot'), 'badge-bot'));
  if (s.player && s.player === scene.hostId) badges.push(badge(t('table.host'), 'badge-host'));
  if (presence === 'offline') badges.push(badge(t('table.offline'), 'badge-offline'));
  if (presence === 'away') badges.push(badge(t('table.away'), 'badge-away', t('table.awayHelp')));
  if (filled) badges.push(...game.seatBadges(scene, seat));
  const stats = filled && heldByHandPlayer(scene, seat) ? [...game.seatStats(scene, seat)] : [];
  if (scene.scores && filled) stats.push(stat('stat-score', t('table.score'), signed(scene.scores[seat])));
  const status = presence ? t('table.' + presence) : '';
  const where = relativePosition(seat, scene.mySeat);
  return h('section', {
    class: `seat seat-${where}${decision ? ' to-act' : ''}${filled ? '' : ' seat-empty'}${isMe ? ' seat-me' : ''}`,
    dataset: { seat: String(seat), rel: where },
    'aria-label': `${t('table.seatLabel', { wind: t('wind.' + seat) })}: ${playerName(scene.seats, seat)}${status ? ', ' + status : ''}${decision ? ', ' + t('table.toAct') : ''}`,
  },
  h('div', { class: 'seat-head' },
    avatar(s, playerName(scene.seats, seat),
      h('span', { class: `conn-dot ${s.player ? ({ online: 'on', away: 'away', offline: 'off' })[presence] : (s.bot ? 'on' : 'none')}`, 'aria-hidden': 'true' })),
    h('span', { class: 'seat-wind' }, t('wind.' + seat)),
    s.player ? h('a', { class: 'seat-name seat-profile', href: `#/p/${s.player}`, title: t('profile.of', { name: playerName(scene.seats, seat) }) },
      playerName(scene.seats, seat)) : h('span', { class: 'seat-name' }, playerName(scene.seats, seat))),
  h('div', { class: 'seat-badges' }, badges),
  stats.length ? h('div', { class: 'seat-stats' }, stats) : null,
  decision ? decisionTimer(decision, s) : null,
  controls && controls.length ? h('div', { class: 'seat-controls' }, controls) : null);
}
