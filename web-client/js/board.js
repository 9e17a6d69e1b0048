/*
 * board — draws what is on a Tien Gow table from a "scene": the four seats around the table,
 * the trick in the middle, a row of tiles, and a finished hand's settlement explained line by
 * line. The live table (table.js) and the history stepper (history.js) draw with the same
 * functions, so a replayed step looks exactly as the player saw it.
 *
 * A scene is { seats, view, turn, mySeat, scores, banker, multiplier, hostId, meId, options,
 * phase } where seats/view/turn are as the server sent them (turn carries a local deadline).
 */
import { h } from './dom.js';
import { t, tn, lang } from './i18n.js';
import { comboInfo, comboName, dominoBackSvg, dominoSvg, sortTiles, tileName } from './tiles.js';
import { explainSettlement } from './settlement.js';

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
  return s.bot ? t('table.bot') : t('table.empty');
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

/* One tile: a button when it can be selected, else a plain figure; always with a name. */
export function tileElement(face, opts = {}) {
  const name = tileName(face, lang());
  const label = `${name} (${face})`;
  const classes = ['tile', opts.small ? 'tile-small' : '', opts.selected ? 'selected' : '',
    opts.highlight ? 'playable' : ''].filter(Boolean).join(' ');
  if (opts.onToggle) {
    return h('button', {
      type: 'button', class: classes, title: label, 'aria-label': label,
      'aria-pressed': opts.selected ? 'true' : 'false', dataset: { face, focus: opts.focusKey },
      onclick: opts.onToggle,
    }, dominoSvg(face));
  }
  return h('span', { class: classes, title: label, role: 'img', 'aria-label': label, dataset: { face } },
    dominoSvg(face));
}

export function tileBack(small) {
  return h('span', { class: `tile tile-back${small ? ' tile-small' : ''}`, role: 'img', 'aria-label': t('tile.back') },
    dominoBackSvg());
}

export function tileRow(faces, opts = {}) {
  return h('span', { class: 'tile-row' }, sortTiles(faces).map((f) => tileElement(f, opts)));
}

/* --- seats --- */

function badge(text, cls, title) {
  return h('span', { class: `badge ${cls}`, title: title || text }, text);
}

/* Whose turn: a countdown for a person, "…" for a bot; a replayed step (no deadline) just says so. */
function turnTimer(turn, seat) {
  if (turn.deadline === undefined) return h('span', { class: 'turn-timer' }, t('table.toAct'));
  if (turn.deadline === null) return h('span', { class: 'turn-timer' }, seat.bot ? '…' : t('table.botCovering'));
  const left = Math.max(0, Math.ceil((turn.deadline - Date.now()) / 1000));
  return h('span', { class: 'turn-timer', dataset: { deadline: String(turn.deadline) } }, t('table.seconds', { n: left }));
}

/* One seat: name, who it is (you, bot, host), connection, banker ×m, stacks, tiles, score, turn. */
export function renderSeat(scene, seat, controls) {
  const s = scene.seats[seat] || {};
  const view = scene.view;
  const filled = s.bot || s.player;
  const isMe = scene.mySeat === seat;
  const toAct = scene.turn && scene.turn.seat === seat;
  const badges = [];
  if (isMe) badges.push(badge(t('table.you'), 'badge-you'));
  if (s.bot) badges.push(badge(t('table.bot'), 'badge-bot'));
  if (s.player && s.player === scene.hostId) badges.push(badge(t('table.host'), 'badge-host'));
  if (s.player && !s.connected) badges.push(badge(t('table.offline'), 'badge-offline'));
  if (scene.banker === seat) {
    badges.push(badge(`莊 ×${scene.multiplier}`, 'badge-banker', `${t('table.banker')} ×${scene.multiplier}`));
  }
  const stats = [];
  if (view) {
    stats.push(h('span', { class: 'stat stat-stacks', title: t('table.stacks') },
      h('span', { class: 'stat-label' }, t('table.stacks')), ' ', h('b', {}, String(view.stacks[seat]))));
    stats.push(h('span', { class: 'stat stat-held', title: t('table.tilesLeft') },
      h('span', { class: 'stat-label' }, t('table.tilesLeft')), ' ', String(view.held[seat])));
  }
  if (scene.scores) {
    stats.push(h('span', { class: 'stat stat-score', title: t('table.score') },
      h('span', { class: 'stat-label' }, t('table.score')), ' ', signed(scene.scores[seat])));
  }
  let timer = null;
  if (toAct) timer = turnTimer(scene.turn, s);
  const status = s.player ? (s.connected ? t('table.online') : t('table.offline')) : '';
  return h('section', {
    class: `seat seat-${relativePosition(seat, scene.mySeat)}${toAct ? ' to-act' : ''}${filled ? '' : ' seat-empty'}${isMe ? ' seat-me' : ''}`,
    dataset: { seat: String(seat), rel: relativePosition(seat, scene.mySeat) },
    'aria-label': `${t('table.seatLabel', { wind: t('wind.' + seat) })}: ${playerName(scene.seats, seat)}${status ? ', ' + status : ''}${toAct ? ', ' + t('table.toAct') : ''}`,
  },
  h('div', { class: 'seat-head' },
    h('span', { class: 'seat-wind' }, t('wind.' + seat)),
    h('span', { class: `conn-dot ${s.player ? (s.connected ? 'on' : 'off') : (s.bot ? 'on' : 'none')}`, 'aria-hidden': 'true' }),
    h('span', { class: 'seat-name' }, playerName(scene.seats, seat))),
  h('div', { class: 'seat-badges' }, badges),
  stats.length ? h('div', { class: 'seat-stats' }, stats) : null,
  timer,
  controls && controls.length ? h('div', { class: 'seat-controls' }, controls) : null);
}

/* --- the trick --- */

/* The open trick, or the last completed one (shown until the next lead) with its winner. */
function currentTrick(view) {
  if (!view) return null;
  if (view.trick && view.trick.plays && view.trick.plays.length) return { trick: view.trick, done: false };
  const tricks = view.tricks || [];
  if (tricks.length) return { trick: tricks[tricks.length - 1], done: true };
  return null;
}

export function bestPlay(trick) {
  const best = trick.best_seat !== undefined ? trick.best_seat : trick.winner;
  return trick.plays.find((p) => p.seat === best && p.play) || null;
}

export function renderTrick(scene) {
  const found = currentTrick(scene.view);
  const natural = scene.view && scene.view.natural;
  if (natural) {
    return h('div', { id: 'trick', class: 'trick trick-natural' },
      h('div', { class: 'trick-caption' }, t('settle.natural', { name: seatName(scene.seats, natural.seat) })),
      tileRow(natural.tiles, { small: true }));
  }
  if (!found) return h('div', { id: 'trick', class: 'trick trick-empty' }, h('p', { class: 'muted' }, t('trick.none')));
  const { trick, done } = found;
  const best = trick.best_seat !== undefined ? trick.best_seat : trick.winner;
  const options = scene.options;
  const plays = trick.plays.map((p, i) => {
    const isBest = p.seat === best && p.play;
    let role;
    if (p.play) role = i === 0 ? t('trick.led') : t('trick.beats');
    else role = t('trick.discarded', { n: p.discard });
    const tiles = p.play
      ? h('span', { class: 'tile-row' }, sortTiles(p.play).map((f) => tileElement(f, { small: true })))
      : h('span', { class: 'tile-row' }, Array.from({ length: p.discard }, () => tileBack(true)));
    return h('div', { class: `trick-play${isBest ? ' best' : ''}${p.play ? '' : ' discard'}`, dataset: { seat: String(p.seat) } },
      h('div', { class: 'trick-who' }, h('span', { class: 'seat-wind' }, t('wind.' + p.seat)), ' ', playerName(scene.seats, p.seat)),
      tiles,
      h('div', { class: 'trick-role' }, role, p.play ? ` · ${comboName(p.play, lang(), options)}` : ''),
      isBest && !done ? h('div', { class: 'trick-best' }, t('trick.best')) : null);
  });
  const caption = done
    ? tn('trick.wonBy', trick.tiles, { name: seatName(scene.seats, trick.winner) })
    : (trick.final ? t('trick.final') : t('trick.title'));
  return h('div', { id: 'trick', class: `trick${done ? ' trick-done' : ''}${trick.final ? ' trick-final' : ''}` },
    h('div', { class: 'trick-caption' }, caption),
    h('div', { class: 'trick-plays' }, plays));
}

/* The type word of the combination to beat ("civil pair"), for the hint under the hand. */
export function comboTypeName(faces, options) {
  const info = comboInfo(faces, options);
  return t('type.' + (info ? info.type : 'combination'));
}

/* --- settlement --- */

function endingNames(endings) {
  return endings.map((e) => t('ending.' + e).replace(/ ×\d+$/, '')).join(' · ');
}

/* "4 − 1 = 3 units × 2 (banker) × 4 (八支) = 24" for one loser (rules §4). */
function loserFormula(line, ex, qinQ) {
  let text = `4 − ${line.stacks}${line.empty ? ` + 1 ${t('settle.empty')}` : ''} = ${num(line.units)} ${tn('settle.units', Math.abs(line.units))}`;
  if (line.units === -1) text += ' (入一)';
  if (line.units === -2) text += ' (入二)';
  const note = line.refundNotMultiplied ? ` (${t('settle.noBankerOnRefund')})` : '';
  const banker = line.bankerFactor > 1 ? ` × ${line.bankerFactor} (${t('settle.bankerFactor')})` : '';
  if (ex.qin && ex.qinLine.paysAll) return `${text}${banker} → ${t('settle.qinShare', { a: num(line.share) })}${note}`;
  const factors = [];
  if (banker) factors.push(banker.trim());
  if (ex.qin) factors.push(`× ${qinQ} (擒)`);
  else if (line.endingFactor > 1) factors.push(`× ${line.endingFactor} (${endingNames(ex.endings)})`);
  if (line.stake > 1) factors.push(`× ${line.stake} (${t('settle.stake')})`);
  if (factors.length) text += ` ${factors.join(' ')} = ${num(line.amount)}`;
  return text + note;
}

function outcome(line, ex, seats) {
  if (ex.qin && ex.qinLine.paysAll) return '';
  const amount = line.paid;
  if (amount > 0) return t('settle.pays', { from: seatName(seats, line.seat), to: seatName(seats, ex.winner), amount });
  if (amount < 0) {
    return t('settle.refund', { in: line.units === -2 ? '入二' : '入一', from: seatName(seats, ex.winner),
      to: seatName(seats, line.seat), amount: -amount });
  }
  return t('settle.evens');
}

/*
 * entry: { hand, result, banker, multiplier, options, finalLeader, seats, scores } — scores are the
 * table's totals after this hand (null when unknown, e.g. in an old history entry).
 */
export function renderSettlement(entry, extra) {
  const ex = explainSettlement(entry.result, entry);
  const seats = entry.seats;
  const q = (entry.options && entry.options.qin_multiplier) || 4;
  const lines = [];
  lines.push(h('p', { class: 'settle-banker' }, t('settle.banker', { name: seatName(seats, entry.banker), m: entry.multiplier })));
  if (ex.natural) lines.push(h('p', { class: 'settle-endings' }, t('settle.natural', { name: seatName(seats, ex.winner) })));
  if (ex.qin) {
    lines.push(h('p', { class: 'settle-endings' }, t('settle.qinEnding', {
      leader: ex.qinLine.captured !== null ? seatName(seats, ex.qinLine.captured) : '?',
      winner: seatName(seats, ex.winner), q })));
  } else if (ex.endings.length) {
    lines.push(h('p', { class: 'settle-endings' }, t('settle.endings', {
      list: ex.endings.map((e) => t('ending.' + e)).join(' · '), M: ex.M })));
  } else {
    lines.push(h('p', { class: 'settle-endings' }, t('settle.noEnding')));
  }
  const loserItems = ex.losers.map((line) => h('li', { class: `settle-line${line.matches ? '' : ' mismatch'}`, dataset: { seat: String(line.seat), paid: String(line.paid), computed: String(line.amount) } },
    h('span', { class: 'settle-who' }, seatName(seats, line.seat), ' — ', tn('settle.stacks', line.stacks), ': '),
    h('span', { class: 'settle-math' }, loserFormula(line, ex, q)),
    outcome(line, ex, seats) ? h('span', { class: 'settle-outcome' }, ' → ', outcome(line, ex, seats)) : null,
    line.matches ? null : h('span', { class: 'settle-warn' }, ` ⚠ ${t('settle.mismatch', { amount: line.paid })}`)));
  if (ex.qin && ex.qinLine.paysAll) {
    const parts = ex.qinLine.shares.map((s) => num(s.a)).join(' + ');
    const stakeText = ex.stake > 1 ? ` × ${ex.stake}` : '';
    loserItems.push(h('li', { class: 'settle-line settle-qin' },
      t('settle.qinAll', { from: seatName(seats, ex.qinLine.captured), to: seatName(seats, ex.winner),
        parts: parts + stakeText, q, amount: num(ex.qinLine.amount) })));
  }
  lines.push(h('h3', {}, t('settle.perLoser')), h('ul', { class: 'settle-lines' }, loserItems));

  if (ex.bonuses.length) {
    lines.push(h('h3', {}, t('settle.bonuses')), h('ul', { class: 'settle-bonuses' }, ex.bonuses.map((b) => h('li', { class: b.matches ? '' : 'mismatch' },
      t('settle.bonusLine', { kind: t('bonus.' + b.kind), from: seatName(seats, b.from), to: seatName(seats, b.to), amount: b.units,
        base: b.base, banker: b.bankerFactor > 1 ? t('settle.bonusBanker', { m: b.bankerFactor }) : '' })
      + (ex.stake > 1 ? ` × ${ex.stake}` : '')))));
  }

  const rows = [0, 1, 2, 3].map((seat) => h('tr', { class: seat === ex.winner ? 'winner' : '', dataset: { seat: String(seat) } },
    h('th', { scope: 'row' }, seatName(seats, seat), seat === entry.banker ? ' 莊' : ''),
    h('td', {}, String(entry.result.stacks[seat])),
    h('td', { class: 'net' }, signed(ex.net[seat])),
    entry.scores ? h('td', { class: 'total' }, signed(entry.scores[seat])) : null));
  lines.push(h('table', { class: 'settle-table' },
    h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', { scope: 'col' }, t('settle.stacksRow')), h('th', { scope: 'col' }, t('settle.net')),
      entry.scores ? h('th', { scope: 'col' }, t('settle.scoreboard')) : null)),
    h('tbody', {}, rows)));
  lines.push(h('p', { class: 'settle-next' }, t('settle.nextBanker', { name: seatName(seats, ex.nextBanker), m: ex.nextMultiplier })));
  return h('section', { class: 'settlement', id: extra && extra.id, 'aria-labelledby': extra && extra.id ? `${extra.id}-title` : null },
    h('h2', { id: extra && extra.id ? `${extra.id}-title` : null }, t('settle.title', { n: entry.hand, name: seatName(seats, ex.winner) })),
    lines,
    extra && extra.footer);
}
