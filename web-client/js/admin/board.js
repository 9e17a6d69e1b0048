/*
 * board — one step of a hand drawn from the game's view_admin (every seat's tiles, and for
 * Tianjin the wall too): a panel a seat with its occupant, its concealed tiles, and what it has
 * shown (Tien Gow's won stacks and its plays in the trick; Tianjin's melds, discards, pull and
 * pass), and the middle (the trick being played, or the indicator, the wilds and the wall).
 * It reads only the fields it knows and draws any tile through tiles.js, so an odd view shows
 * less, never markup.
 */
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { seatName, seatWho } from './ui.js';
import { isFace, isFaces, tileEl, tileRow } from './tiles.js';

const arr = (v) => (Array.isArray(v) ? v : []);

/* One action or event as words and tiles: {"discard":"7p"} → "discards [7p]". */
export function describeAction(game, action, event) {
  const a = action && typeof action === 'object' ? action : {};
  const e = event && typeof event === 'object' ? event : {};
  const parts = [];
  const seen = new Set(['seat', 'kind', 'by_bot']);
  /* a game's own word first (Tien Gow's discard is face down), else the shared one */
  const word = (key) => {
    const own = `adm.act.${game}.${key}`;
    if (t(own) !== own) return t(own);
    const k = `adm.act.${key}`;
    const text = t(k);
    return text === k ? key : text;
  };
  const value = (key, v) => {
    if (isFace(game, v)) return tileEl(game, v, { small: true });
    if (isFaces(game, v)) return tileRow(game, v, { small: true });
    if (v === true || v === null || v === undefined) return null;
    if (v === false) return h('span', {}, t('adm.no'));
    if (Array.isArray(v)) return h('span', {}, v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(' '));
    if (typeof v === 'object') return h('span', {}, JSON.stringify(v));
    return h('span', {}, String(v));
  };
  for (const [key, v] of Object.entries(a)) {
    if (seen.has(key)) continue;
    seen.add(key);
    /* the event names the tile an action only claims ({"pung":true} → {"pung":"7p"}) */
    const shown = (v === true && isFace(game, e[key])) ? e[key] : v;
    if (key === 'sit' && v === false) {
      parts.push(h('span', { class: 'adm-act', dataset: { act: key } }, t('adm.act.noSit')));
      continue;
    }
    parts.push(h('span', { class: 'adm-act', dataset: { act: key } }, word(key), ' ', value(key, shown)));
  }
  for (const [key, v] of Object.entries(e)) {
    if (seen.has(key)) continue;
    parts.push(h('span', { class: 'adm-act adm-event', dataset: { act: key } }, word(key), ' ', value(key, v)));
  }
  return parts;
}

function seatPanel(i, seats, view, body, opts = {}) {
  const banker = view.banker === i;
  const acting = opts.acting === i;
  return h('div', { class: `adm-seat seat-${i}${acting ? ' acting' : ''}`, dataset: { seat: String(i) } },
    h('div', { class: 'adm-seat-head' },
      h('strong', {}, seatName(i)), ' ', seatWho(seats[i]),
      banker ? h('span', { class: 'adm-badge banker' }, t('adm.banker')) : null,
      acting ? h('span', { class: 'adm-badge acting' }, t('adm.toAct')) : null),
    body);
}

function tiengowBoard(view, seats) {
  const tricks = arr(view.tricks);
  const open = tricks.length ? tricks[tricks.length - 1] : null;
  const panels = [0, 1, 2, 3].map((i) => seatPanel(i, seats, view, [
    h('div', { class: 'adm-line' }, tileRow('tiengow', arr(view.hands)[i])),
    h('div', { class: 'adm-line muted' }, t('adm.tg.stacks', { n: arr(view.stacks)[i] ?? 0 })),
  ], { acting: view.over ? -1 : view.to_act }));
  const middle = h('div', { class: 'adm-middle' },
    h('p', {}, t('adm.tg.status', { m: view.multiplier ?? '—', n: tricks.filter((x) => x && x.winner >= 0 && x.plays && x.plays.length === 4).length })),
    open ? h('div', { class: 'adm-trick' },
      h('p', { class: 'muted' }, t(open.final ? 'adm.tg.finalTrick' : 'adm.tg.trick', { n: tricks.length })),
      arr(open.plays).map((p) => h('div', { class: `adm-play${p.seat === open.winner ? ' best' : ''}${p.discard ? ' discard' : ''}` },
        h('span', { class: 'adm-play-who' }, seatName(p.seat), ' ', t(p.discard ? 'adm.act.tiengow.discard' : 'adm.act.play')),
        tileRow('tiengow', p.play || p.discard, { small: true })))) : h('p', { class: 'muted' }, t('adm.tg.noTrick')),
    view.over ? h('p', { class: 'adm-over' }, t('adm.hand.over')) : null);
  return [panels, middle];
}

function meldRow(melds) {
  return arr(melds).map((m) => h('span', { class: `adm-meld ${m && m.kind ? `meld-${m.kind}` : ''}`, title: m && m.kind ? t(`adm.act.${m.kind}`) : '' },
    tileRow('tianjin', m && m.tiles, { small: true })));
}

function tianjinBoard(view, seats) {
  const wilds = arr(view.wilds);
  const drawn = view.drawn && typeof view.drawn === 'object' ? view.drawn : null;
  const panels = [0, 1, 2, 3].map((i) => {
    const hand = [...arr(arr(view.hands)[i])];
    /* the drawn tile is part of the hand's counts: show it apart, as the player sees it */
    let drawnTile = null;
    if (drawn && drawn.seat === i) {
      const at = hand.lastIndexOf(drawn.tile);
      if (at >= 0) hand.splice(at, 1);
      drawnTile = drawn.tile;
    }
    const pull = arr(view.pulls)[i] ?? arr(view.chosen_pulls)[i];
    const notes = [];
    if (view.sat === true && i !== view.banker && pull !== null && pull !== undefined) notes.push(t('adm.tj.pull', { n: pull }));
    if (arr(view.passed)[i]) notes.push(t('adm.tj.passed'));
    if (view.claimer === i) notes.push(t('adm.tj.canClaim'));
    if (arr(view.wild_discards).includes(i)) notes.push(t('adm.tj.wildDiscard'));
    return seatPanel(i, seats, view, [
      h('div', { class: 'adm-line' }, tileRow('tianjin', hand, { wilds }),
        drawnTile ? h('span', { class: 'adm-drawn', title: t('adm.tj.drawn') }, tileEl('tianjin', drawnTile, { wild: wilds.includes(drawnTile) })) : null),
      arr(arr(view.melds)[i]).length ? h('div', { class: 'adm-line' }, meldRow(arr(view.melds)[i])) : null,
      h('div', { class: 'adm-line adm-river' }, tileRow('tianjin', arr(view.discards)[i], { small: true, wilds })),
      notes.length ? h('p', { class: 'muted' }, notes.join(' · ')) : null,
    ], { acting: view.over ? -1 : view.turn });
  });
  const middle = h('div', { class: 'adm-middle' },
    h('p', {}, t(`adm.tj.phase.${view.phase}`) !== `adm.tj.phase.${view.phase}` ? t(`adm.tj.phase.${view.phase}`) : String(view.phase ?? ''),
      ' · ', t('adm.tj.count', { n: view.count ?? '—' }), view.sat === false ? ` · ${t('adm.tj.notSat')}` : ''),
    view.indicator ? h('p', { class: 'adm-line' }, t('adm.tj.indicator'), ' ', tileEl('tianjin', view.indicator, { small: true, indicator: true }),
      ' ', t('adm.tj.wilds'), ' ', tileRow('tianjin', wilds, { small: true, wilds })) : null,
    view.discard && view.discard.tile ? h('p', { class: 'adm-line' }, t('adm.tj.window', { seat: seatName(view.discard.seat) }), ' ',
      tileEl('tianjin', view.discard.tile, { small: true })) : null,
    typeof view.wall === 'number' ? h('p', { class: 'muted' }, t('adm.tj.wall', { n: view.wall, r: view.replacements ?? 0 })) : null,
    arr(view.live_wall).length ? h('details', { class: 'adm-wall' }, h('summary', {}, t('adm.tj.wallOrder')),
      tileRow('tianjin', view.live_wall, { small: true, wilds }),
      arr(view.replacement_wall).length ? [h('p', { class: 'muted' }, t('adm.tj.replacementWall')),
        tileRow('tianjin', view.replacement_wall, { small: true, wilds })] : null) : null,
    view.over ? h('p', { class: 'adm-over' }, t('adm.hand.over')) : null);
  return [panels, middle];
}

/* The board for a view; seats: the hand's [{player, nickname, bot, net}×4]. */
export function drawView(game, view, seats) {
  const v = view && typeof view === 'object' ? view : {};
  const s = Array.isArray(seats) ? seats : [];
  const [panels, middle] = game === 'tianjin' ? tianjinBoard(v, s) : tiengowBoard(v, s);
  return h('div', { class: `adm-board adm-board-${game}` }, panels[2], h('div', { class: 'adm-board-mid' }, panels[3], middle, panels[1]), panels[0]);
}
