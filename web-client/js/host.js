/*
 * host — the host's controls of a session on the table page (PROTOCOL.md, set_host, set_options,
 * hold_table, end_table, spectator_chat), and what everyone sees of them: the line saying the
 * host holds the table, and the final scoreboard once the host has ended the session.
 *
 * The panel: hold the table after the hand (or resume), change the rules between hands in the
 * game's own editor (the create form's, games/<game>/options.js, set to the table's options),
 * turn watchers' chat off or on, hand hosting to someone at the table, and end the session
 * (asked twice). Commands go through app.command, which shows a refusal in the player's
 * language; the table's state follows from the events (store.js), never from the click.
 *
 * The options editor is built once when opened and kept in ts.ui, so the stream of events that
 * redraws the page does not undo what the host is choosing.
 */
import { h } from './dom.js';
import { t } from './i18n.js';

/* Sets the editor's controls to the table's options (a game editor starts at its defaults). */
function setControls(form, options) {
  for (const [key, value] of Object.entries(options || {})) {
    const el = form.querySelector(`#opt-${key}`);
    if (!el) continue;
    if (el.type === 'checkbox') el.checked = Boolean(value);
    else el.value = String(value);
  }
}

function optionsForm(ts, app, game) {
  const form = h('form', { id: 'options-form', class: 'options-form', onsubmit: (e) => {
    e.preventDefault();
    const options = game.readOptions(form);
    app.command({ type: 'set_options', code: ts.code, options }).then((reply) => {
      if (!reply) return;
      ts.ui.optionsForm = null;
      app.rerender();
    });
  } },
  h('h3', {}, t('host.optionsTitle')),
  h('p', { class: 'help' }, t('host.editOptionsHelp')),
  game.optionEditor(ts.options),
  h('div', { class: 'form-actions' },
    h('button', { type: 'submit', id: 'save-options' }, t('host.saveOptions')),
    h('button', { type: 'button', id: 'cancel-options', class: 'secondary', onclick: () => {
      ts.ui.optionsForm = null;
      app.rerender();
    } }, t('host.cancel'))));
  setControls(form, ts.options);
  return form;
}

/* Everyone at the table now but the host: seated players and watchers. */
function others(ts, me) {
  const seated = ts.seats.filter((s) => s && s.player && s.player !== me && s.connected !== false)
    .map((s) => ({ player: s.player, name: s.name }));
  const watching = ts.watchers.filter((w) => w.player !== me && !seated.some((s) => s.player === w.player));
  return [...seated, ...watching];
}

function handOver(ts, app) {
  const people = others(ts, app.me());
  if (!people.length) return h('p', { class: 'muted host-row' }, t('host.nobodyToHandTo'));
  if (!people.some((p) => p.player === ts.ui.hostTarget)) ts.ui.hostTarget = people[0].player;
  const select = h('select', { id: 'host-target', dataset: { focus: 'host-target' },
    onchange: (e) => { ts.ui.hostTarget = e.target.value; } },
  people.map((p) => h('option', { value: p.player, selected: p.player === ts.ui.hostTarget ? true : null }, p.name || p.player)));
  return h('div', { class: 'host-row' },
    h('label', { for: 'host-target' }, t('host.handOver')), select,
    h('button', { type: 'button', id: 'set-host', class: 'secondary', dataset: { focus: 'set-host' },
      onclick: () => app.command({ type: 'set_host', code: ts.code, player: ts.ui.hostTarget }) }, t('host.handOverButton')));
}

function endRow(ts, app) {
  if (!ts.ui.confirmEnd) return null;
  return h('div', { class: 'host-row host-confirm', role: 'alertdialog', 'aria-labelledby': 'end-confirm-text' },
    h('p', { id: 'end-confirm-text' }, t('host.endConfirm')),
    h('button', { type: 'button', id: 'end-table-confirm', class: 'danger', dataset: { focus: 'end-table-confirm' },
      onclick: () => {
        ts.ui.confirmEnd = false;
        app.command({ type: 'end_table', code: ts.code });
      } }, t('host.endYes')),
    h('button', { type: 'button', id: 'end-table-cancel', class: 'secondary', onclick: () => {
      ts.ui.confirmEnd = false;
      app.rerender();
    } }, t('host.cancel')));
}

/* The host's panel; null for everyone else and once the table has closed. */
export function renderHostPanel(ts, app, game) {
  if (ts.hostId !== app.me() || ts.phase === 'closed') return null;
  const handOn = ts.phase === 'playing';
  if (handOn) ts.ui.optionsForm = null; /* a hand started meanwhile: the rules wait for the next pause */
  const holdLabel = ts.held ? t('host.resume') : handOn ? t('host.hold') : t('host.holdNow');
  return h('section', { id: 'host-panel', class: 'card host-panel', 'aria-labelledby': 'host-panel-title' },
    h('h2', { id: 'host-panel-title' }, t('host.title'), ' ', h('span', { class: 'muted host-you' }, t('host.youAreHost'))),
    h('div', { class: 'host-actions' },
      h('button', { type: 'button', id: 'hold-table', class: ts.held ? '' : 'secondary', 'aria-pressed': ts.held ? 'true' : 'false',
        title: t('host.holdHelp'), dataset: { focus: 'hold-table' },
        onclick: () => app.command({ type: 'hold_table', code: ts.code, held: !ts.held }) }, holdLabel),
      game.optionEditor ? h('button', { type: 'button', id: 'edit-options', class: 'secondary', disabled: handOn,
        'aria-expanded': ts.ui.optionsForm ? 'true' : 'false', dataset: { focus: 'edit-options' },
        title: handOn ? t('host.betweenHands') : t('host.editOptionsHelp'), onclick: () => {
          ts.ui.optionsForm = ts.ui.optionsForm ? null : optionsForm(ts, app, game);
          app.rerender();
        } }, t('host.editOptions')) : null,
      h('button', { type: 'button', id: 'spectator-chat-toggle', class: 'secondary', dataset: { focus: 'spectator-chat' },
        'aria-pressed': ts.spectatorChat ? 'false' : 'true',
        onclick: () => app.command({ type: 'spectator_chat', code: ts.code, on: !ts.spectatorChat }) },
      ts.spectatorChat ? t('host.watchersChatOff') : t('host.watchersChatOn')),
      h('button', { type: 'button', id: 'end-table', class: 'secondary danger-text', disabled: handOn,
        title: handOn ? t('host.betweenHands') : null, dataset: { focus: 'end-table' },
        onclick: () => { ts.ui.confirmEnd = true; app.rerender(); } }, t('host.end'))),
    handOn ? null : endRow(ts, app),
    handOver(ts, app),
    ts.ui.optionsForm || null);
}

/* The line saying the host holds the table (or will, after the hand on). */
export function renderHeld(ts) {
  if (!ts.held || ts.phase === 'closed') return null;
  return ts.phase === 'playing'
    ? h('p', { class: 'notice', id: 'table-held' }, t('table.heldAfterHand'))
    : h('p', { class: 'notice warn held-banner', id: 'table-held', role: 'status' }, t('table.held'));
}

/* +12, −4 (a real minus sign), 0: as the seats show scores. */
function signed(n) {
  if (n > 0) return `+${n}`;
  return n < 0 ? `−${-n}` : '0';
}

/* The final scoreboard of a session the host ended, shown until the player leaves the page. */
export function renderScoreboard(ts, app) {
  const ended = ts.ended;
  if (!ended) return null;
  return h('section', { id: 'final-scoreboard', class: 'card final-scoreboard', 'aria-labelledby': 'final-title' },
    h('h2', { id: 'final-title' }, t('table.ended')),
    h('p', { class: 'muted' }, t('table.endedHands', { n: ended.hands })),
    ended.scoreboard.length === 0 ? null : h('table', { class: 'scoreboard' },
      h('caption', {}, t('table.scoreboard')),
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, t('table.scorePlayer')),
        h('th', { scope: 'col', class: 'num' }, t('table.scoreTotal')),
        h('th', { scope: 'col', class: 'num' }, t('table.scoreHands')))),
      h('tbody', {}, ended.scoreboard.map((row) => h('tr', { class: row.player === app.me() ? 'mine' : null, dataset: { player: row.player } },
        h('td', {}, row.name || row.player,
          row.player === app.me() ? ` (${t('table.you')})` : ''),
        h('td', { class: `num ${row.score > 0 ? 'plus' : row.score < 0 ? 'minus' : ''}` }, signed(row.score)),
        h('td', { class: 'num' }, String(row.hands)))))),
    h('button', { type: 'button', id: 'back-to-lobby', onclick: () => app.leaveTable(ts.code) }, t('table.backToLobby')));
}
