/*
 * replay — one finished hand on a page of its own (#/r/CODE/N; PROTOCOL.md `replay`), the page a
 * shared link opens: whoever has the table's code may watch it, whether they were there or not.
 * The hand is over, so every frame is the open view and all four hands are drawn, each under its
 * seat, by the game module's own board (renderSeat, renderCenter, renderOpenHand), as the table
 * and the history draw them.
 *
 * Controls: play / pause (a step a second, stopping at the end), a step back or forward, to the
 * start or the end, and a jump to one of the steps the game names (game.replayMarks); keys ← → step, space plays or pauses, Home and End jump. "Copy link" copies the
 * page's address; "Download JSON" saves the score calculator's document for the hand, exactly
 * as the server wrote it (`score_request`), which `teahouse-score` answers with the hand's result.
 *
 * The page asks for the replay once the connection has a player (the name form comes first for
 * a newcomer, as for a table's link) and keeps it per link while the page lives.
 */
import { h, replace } from './dom.js';
import { addStrings, has, t } from './i18n.js';
import { renderSeat } from './seats.js';
import { gameFor } from './games/registry.js';

export const STEP_MS = 1000;

const STRINGS = {
  en: {
    'replay.title': 'Replay · {code} · hand {n}',
    'replay.loading': 'Loading the replay…',
    'replay.play': 'Play',
    'replay.pause': 'Pause',
    'replay.start': 'Start',
    'replay.end': 'End',
    'replay.prev': 'Back',
    'replay.next': 'Forward',
    'replay.step': 'Step {i} of {n}',
    'replay.jump': 'Jump to',
    'replay.copy': 'Copy link',
    'replay.copied': 'Link copied: whoever has it can watch this hand.',
    'replay.copyFailed': 'Copy the link from the box beside the button.',
    'replay.link': 'Link to this replay',
    'replay.download': 'Download JSON',
    'replay.downloadHelp': 'The score calculator’s document for this hand: teahouse-score answers it with the hand’s result.',
    'replay.keys': 'Keys: ← → step, space plays or pauses, Home and End jump.',
    'replay.allOpen': 'The hand is over: every seat’s tiles are shown.',
    'replay.back': 'Back to the lobby',
    'replay.toTable': 'Open the table',
    'replay.noTable': 'No table has the code {code}. Check the link.',
    'replay.playing': 'Hand {n} of table {code} is still being played: its replay opens once it is over.',
    'replay.noHand': 'Table {code} has no finished hand {n}: check the link.',
    'replay.failed': 'The replay could not be loaded: {message}',
    'replay.open': 'Open the replay page',
    'replay.retry': 'Try again',
  },
  'zh-Hant': {
    'replay.title': '重看 · {code} · 第 {n} 局',
    'replay.loading': '正在載入重看…',
    'replay.play': '播放',
    'replay.pause': '暫停',
    'replay.start': '開頭',
    'replay.end': '結尾',
    'replay.prev': '上一步',
    'replay.next': '下一步',
    'replay.step': '第 {i} 步，共 {n} 步',
    'replay.jump': '跳到',
    'replay.copy': '複製連結',
    'replay.copied': '已複製連結：有這個連結的人都可以看這一局。',
    'replay.copyFailed': '請從按鈕旁的方框複製連結。',
    'replay.link': '這次重看的連結',
    'replay.download': '下載 JSON',
    'replay.downloadHelp': '這一局給計分器的文件：teahouse-score 會算出這一局的結果。',
    'replay.keys': '按鍵：← → 逐步，空白鍵播放或暫停，Home 與 End 跳到頭尾。',
    'replay.allOpen': '這一局已經結束：每一家的牌都攤開顯示。',
    'replay.back': '回到大廳',
    'replay.toTable': '打開牌桌',
    'replay.noTable': '沒有牌桌的代碼是 {code}。請檢查連結。',
    'replay.playing': '牌桌 {code} 的第 {n} 局還在進行：結束後才能重看。',
    'replay.noHand': '牌桌 {code} 沒有已結束的第 {n} 局：請檢查連結。',
    'replay.failed': '無法載入重看：{message}',
    'replay.open': '打開重看頁',
    'replay.retry': '再試一次',
  },
  'zh-Hans': {
    'replay.title': '重看 · {code} · 第 {n} 局',
    'replay.loading': '正在加载重看…',
    'replay.play': '播放',
    'replay.pause': '暂停',
    'replay.start': '开头',
    'replay.end': '结尾',
    'replay.prev': '上一步',
    'replay.next': '下一步',
    'replay.step': '第 {i} 步，共 {n} 步',
    'replay.jump': '跳到',
    'replay.copy': '复制链接',
    'replay.copied': '已复制链接：有这个链接的人都可以看这一局。',
    'replay.copyFailed': '请从按钮旁的方框复制链接。',
    'replay.link': '这次重看的链接',
    'replay.download': '下载 JSON',
    'replay.downloadHelp': '这一局给计分器的文件：teahouse-score 会算出这一局的结果。',
    'replay.keys': '按键：← → 逐步，空格键播放或暂停，Home 与 End 跳到头尾。',
    'replay.allOpen': '这一局已经结束：每一家的牌都摊开显示。',
    'replay.back': '回到大厅',
    'replay.toTable': '打开牌桌',
    'replay.noTable': '没有牌桌的代码是 {code}。请检查链接。',
    'replay.playing': '牌桌 {code} 的第 {n} 局还在进行：结束后才能重看。',
    'replay.noHand': '牌桌 {code} 没有已结束的第 {n} 局：请检查链接。',
    'replay.failed': '无法加载重看：{message}',
    'replay.open': '打开重看页',
    'replay.retry': '再试一次',
  },
};
addStrings(STRINGS);

/* The page's address of a hand's replay. */
export function replayHash(code, hand) {
  return `#/r/${code}/${hand}`;
}

export function replayUrl(code, hand) {
  return `${location.origin}${location.pathname}${replayHash(code, hand)}`;
}

/* The replays asked for, by "CODE/N": { loading, error, reply, step, playing }. */
const replays = new Map();
let timer = null;
let current = null; /* { app, code, hand } of the page shown */

/* The seats of a past hand in the shape board.js draws (a replayed seat is never "offline"). */
export function seatsOf(players) {
  const seats = [0, 1, 2, 3].map(() => ({ player: null, name: null, bot: false, connected: true }));
  for (const p of players || []) {
    if (Number.isInteger(p.seat) && p.seat >= 0 && p.seat < 4) {
      seats[p.seat] = { player: p.player || null, name: p.name || null, bot: Boolean(p.bot), connected: true };
    }
  }
  return seats;
}

/* The table state a replayed hand was played under, as its deal (frame 0) says. */
export function replayState(frames) {
  const deal = frames.length ? frames[0].event : null;
  return deal && deal.kind === 'hand_started' && deal.game_state !== undefined ? deal.game_state : null;
}

/* A step's scene for the game's drawing: the open view, nobody's controls. */
export function openScene(game, frames, step, seats, mySeat, options) {
  const view = frames[step].view;
  return {
    seats, view, deciding: game.decidingInView(view), mySeat, scores: null, gameState: replayState(frames),
    hostId: null, meId: null, options, phase: 'playing',
  };
}

/* The four seats around the middle, each with its open hand under it (but `own`'s, shown apart). */
export function renderOpenBoard(game, scene, cls = '', own = null) {
  return h('div', { class: `board board-replay board-open ${cls}`.trim() },
    [0, 1, 2, 3].map((seat) => renderSeat(game, scene, seat, seat === own ? [] : [game.renderOpenHand(scene, seat)].filter(Boolean))),
    h('div', { class: 'board-center' }, game.renderCenter(scene)));
}

function entryOf(code, hand) {
  const key = `${code}/${hand}`;
  if (!replays.has(key)) replays.set(key, { loading: false, error: null, reply: null, step: 0, playing: false });
  return replays.get(key);
}

function load(app, code, hand, entry) {
  if (entry.loading || entry.reply || entry.error || !app.me()) return;
  entry.loading = true;
  app.request({ type: 'replay', code, hand }).then((reply) => {
    entry.reply = reply;
  }, (err) => {
    entry.error = err;
  }).finally(() => {
    entry.loading = false;
    app.rerender();
  });
}

function frameCount(entry) {
  return entry.reply && Array.isArray(entry.reply.frames) ? entry.reply.frames.length : 0;
}

function stopTimer() {
  clearInterval(timer);
  timer = null;
}

/* Moves the shown step (clamped); a step by hand pauses the play. */
function go(entry, step, { keepPlaying = false } = {}) {
  const n = frameCount(entry);
  if (!n) return;
  entry.step = Math.min(Math.max(step, 0), n - 1);
  if (!keepPlaying) entry.playing = false;
  if (entry.step === n - 1) entry.playing = false;
  if (!entry.playing) stopTimer();
  current?.app.rerender();
}

function togglePlay(entry) {
  const n = frameCount(entry);
  if (!n) return;
  if (entry.playing) {
    entry.playing = false;
    stopTimer();
  } else {
    if (entry.step >= n - 1) entry.step = 0; /* play again from the start */
    entry.playing = true;
    stopTimer();
    timer = setInterval(() => {
      if (!current || !document.getElementById('replay-page') || replays.get(`${current.code}/${current.hand}`) !== entry) {
        entry.playing = false;
        stopTimer();
        return;
      }
      go(entry, entry.step + 1, { keepPlaying: true });
    }, STEP_MS);
  }
  current?.app.rerender();
}

function onKey(ev) {
  if (!current || !document.getElementById('replay-page')) return;
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const target = ev.target;
  if (target && (target.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName))) return;
  const entry = entryOf(current.code, current.hand);
  if (!frameCount(entry)) return;
  const n = frameCount(entry);
  const keys = {
    ArrowLeft: () => go(entry, entry.step - 1),
    ArrowRight: () => go(entry, entry.step + 1),
    Home: () => go(entry, 0),
    End: () => go(entry, n - 1),
    ' ': () => togglePlay(entry),
  };
  const act = keys[ev.key];
  if (!act) return;
  /* space on a focused button would press it as well: the page's key wins */
  ev.preventDefault();
  act();
}
if (typeof document !== 'undefined') document.addEventListener('keydown', onKey); /* node imports this for its tests */

function errorText(err, code, hand) {
  if (err.code === 'no_such_table') return t('replay.noTable', { code });
  if (err.code === 'no_such_hand') return t(err.playing ? 'replay.playing' : 'replay.noHand', { code, n: hand });
  if (err.code === 'rate_limited' && Number.isInteger(err.retry_ms)) return t('err.codesWait', { s: Math.ceil(err.retry_ms / 1000) });
  const key = `err.${err.code}`;
  return has(key) ? t(key, { message: err.message }) : t('replay.failed', { message: err.message || err.code || '' });
}

function copyLink(app, code, hand) {
  const url = replayUrl(code, hand);
  const done = () => app.toast(t('replay.copied'), 'info');
  const failed = () => {
    const box = document.getElementById('replay-link');
    box?.focus();
    box?.select();
    app.toast(t('replay.copyFailed'), 'info');
  };
  if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(url).then(done, failed);
  else failed();
}

/* The calculator's document as a file: exactly the server's score_request. */
function download(reply) {
  const text = `${JSON.stringify(reply.score_request, null, 2)}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = h('a', { href: url, download: `teahouse-${reply.table}-hand-${reply.hand}.json` });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function renderControls(app, game, entry, seats, options) {
  const reply = entry.reply;
  const frames = reply.frames;
  const n = frames.length;
  const step = entry.step;
  const marks = game.replayMarks(frames, seats, options);
  /* an icon and a word; on a phone the word is left to screen readers, so the row fits */
  const face = (icon, label, iconFirst = true) => (iconFirst
    ? [h('span', { 'aria-hidden': 'true' }, icon), ' ', h('span', { class: 'replay-label' }, label)]
    : [h('span', { class: 'replay-label' }, label), ' ', h('span', { 'aria-hidden': 'true' }, icon)]);
  const btn = (id, icon, label, onclick, disabled, iconFirst = true) => h('button', {
    type: 'button', id, class: 'secondary', dataset: { focus: id }, 'aria-label': label, title: label, disabled, onclick,
  }, face(icon, label, iconFirst));
  /* the mark at or before the step is the one shown as chosen */
  const at = marks.reduce((found, m, i) => (m.step <= step ? i : found), -1);
  return h('div', { class: 'replay-controls', role: 'group', 'aria-label': t('replay.keys') },
    btn('replay-start', '|◀', t('replay.start'), () => go(entry, 0), step === 0),
    btn('replay-prev', '◀', t('replay.prev'), () => go(entry, step - 1), step === 0),
    h('button', { type: 'button', id: 'replay-play', class: 'primary', dataset: { focus: 'replay-play' },
      'aria-label': entry.playing ? t('replay.pause') : t('replay.play'), onclick: () => togglePlay(entry) },
    entry.playing ? face('❚❚', t('replay.pause')) : face('▶', t('replay.play'))),
    btn('replay-next', '▶', t('replay.next'), () => go(entry, step + 1), step === n - 1, false),
    btn('replay-end', '▶|', t('replay.end'), () => go(entry, n - 1), step === n - 1, false),
    marks.length ? h('label', { class: 'replay-jump' }, `${t('replay.jump')} `,
      h('select', { id: 'replay-jump', dataset: { focus: 'replay-jump' }, onchange: (ev) => go(entry, Number(ev.target.value)) },
        h('option', { value: '0', selected: at < 0 && step < n - 1 }, t('replay.start')),
        marks.map((m, i) => h('option', { value: String(m.step), selected: i === at && step < n - 1 }, m.label)),
        h('option', { value: String(n - 1), selected: step === n - 1 }, t('replay.end'))))
      : null);
}

function renderShare(app, code, hand, reply) {
  const url = replayUrl(code, hand);
  return h('div', { class: 'replay-share' },
    h('button', { type: 'button', id: 'replay-copy', class: 'secondary', dataset: { focus: 'replay-copy' },
      onclick: () => copyLink(app, code, hand) }, t('replay.copy')),
    h('input', { id: 'replay-link', class: 'replay-link', readonly: true, value: url, 'aria-label': t('replay.link'),
      onfocus: (ev) => ev.target.select() }),
    h('button', { type: 'button', id: 'replay-download', class: 'secondary', dataset: { focus: 'replay-download' },
      disabled: !reply.score_request, title: t('replay.downloadHelp'), onclick: () => download(reply) }, t('replay.download')));
}

function renderLoaded(app, code, hand, entry) {
  const reply = entry.reply;
  const game = gameFor(reply.game);
  const frames = reply.frames || [];
  if (!frames.length) return h('p', { class: 'muted' }, t('history.noFrames'));
  const seats = seatsOf(reply.players);
  const options = reply.options || null;
  const mySeat = Number.isInteger(reply.seat) ? reply.seat : null;
  entry.step = Math.min(Math.max(entry.step, 0), frames.length - 1);
  const step = entry.step;
  const scene = openScene(game, frames, step, seats, mySeat, options);
  const ev = frames[step].event || {};
  const over = Boolean(scene.view && scene.view.over);
  const caption = [game.describeEvent(ev, seats, options), over ? t('ev.hand_over') : ''].filter(Boolean).join(' ');
  const settled = over && scene.view.result ? game.renderSettlement({
    hand, result: scene.view.result, gameState: replayState(frames), view: scene.view, options, seats, scores: null,
  }, { id: 'replay-settlement' }) : null;
  return [
    h('p', { class: 'muted replay-note' }, t('replay.allOpen')),
    renderControls(app, game, entry, seats, options),
    h('p', { class: 'replay-status' },
      h('span', { class: 'stepper-count', id: 'replay-count', 'aria-live': 'polite' }, t('replay.step', { i: step + 1, n: frames.length })),
      ' ', h('span', { class: 'stepper-caption', id: 'replay-caption' }, caption)),
    renderOpenBoard(game, scene, 'replay-board'),
    settled,
    renderShare(app, code, hand, reply),
    h('p', { class: 'muted replay-keys' }, t('replay.keys')),
  ];
}

export function mountReplay(container, app, code, hand) {
  current = { app, code, hand };
  stopTimer();
  const entry = entryOf(code, hand);
  entry.playing = false;
  replace(container,
    h('section', { id: 'replay-page', class: 'replay-page', dataset: { code, hand: String(hand) }, 'aria-labelledby': 'replay-title' },
      h('header', { class: 'replay-head' },
        h('h2', { id: 'replay-title' }, t('replay.title', { code, n: hand })),
        h('nav', { class: 'replay-nav' },
          h('a', { href: '#/', class: 'link', id: 'replay-lobby' }, t('replay.back')), ' · ',
          h('a', { href: `#/t/${code}`, class: 'link', id: 'replay-table' }, t('replay.toTable')))),
      h('div', { id: 'replay-body' })));
  window.scrollTo(0, 0);
}

export function updateReplay(container, app, code, hand) {
  current = { app, code, hand };
  const body = container.querySelector('#replay-body');
  const page = container.querySelector('#replay-page');
  if (!body || !page) return;
  const entry = entryOf(code, hand);
  load(app, code, hand, entry);
  page.dataset.state = entry.reply ? 'loaded' : entry.error ? 'error' : 'loading';
  if (entry.reply) {
    page.dataset.step = String(entry.step);
    page.dataset.steps = String(frameCount(entry));
    page.dataset.playing = entry.playing ? 'true' : 'false';
    page.dataset.game = entry.reply.game || '';
    replace(body, renderLoaded(app, code, hand, entry));
  } else if (entry.error) {
    page.dataset.error = entry.error.code || '';
    replace(body, h('p', { class: 'error', role: 'alert', id: 'replay-error' }, errorText(entry.error, code, hand)),
      h('button', { type: 'button', id: 'replay-retry', class: 'secondary', dataset: { focus: 'replay-retry' }, onclick: () => {
        entry.error = null;
        app.rerender();
      } }, t('replay.retry')));
  } else {
    replace(body, h('p', { class: 'muted', role: 'status' }, t('replay.loading')));
  }
}

/* Forgets a failed ask, so coming back to the link asks again. */
export function leaveReplay() {
  stopTimer();
  for (const [key, entry] of replays) if (entry.error) replays.delete(key);
  current = null;
}
