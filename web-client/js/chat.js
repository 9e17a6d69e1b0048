/*
 * chat — the table's chat panel: the lines said at the table and who came and went (the
 * `chat`, `joined`, `left` and `removed` events, kept by store.js), a box to say something, and
 * quick reactions sent with one tap. Text is only ever put into the page as text, never as
 * markup. A line is cut to the welcome's chat_chars (limits.js), counted in characters as the
 * server counts them; a line the server refuses for going too fast (chat_burst at once, then
 * chat_per_minute) stays in the box and a polite note says to wait.
 *
 * The quick reactions' emoji (👍 😂 🙏) are drawn as small inline SVGs, on the buttons and in the
 * lines said, because many machines (Debian's Chromium among them) have no emoji font and would
 * show empty boxes; the line sent is still the emoji itself. 再來! is 再来! in 简体中文.
 *
 * On a phone the panel starts folded, so the board and the player's tiles come first; an unread
 * count on its summary says when something was said.
 *
 * mountChat() builds the panel once per table page (so a line being typed survives the stream of
 * events); updateChat() redraws only its log.
 */
import { h, replace } from './dom.js';
import { addStrings, lang, t } from './i18n.js';
import { cutChars, limit } from './limits.js';

addStrings({
  en: { 'chat.emoji.👍': 'thumbs up', 'chat.emoji.😂': 'tears of joy', 'chat.emoji.🙏': 'thank you' },
  'zh-Hant': { 'chat.emoji.👍': '讚', 'chat.emoji.😂': '笑哭', 'chat.emoji.🙏': '拜託' },
  'zh-Hans': { 'chat.emoji.👍': '赞', 'chat.emoji.😂': '笑哭', 'chat.emoji.🙏': '拜托' },
});

/* The quick reactions in the player's language. */
export function quickReactions(code = lang()) {
  return ['好牌!', '👍', '😂', '🙏', code === 'zh-Hans' ? '再来!' : '再來!'];
}

const PHONE = '(max-width: 760px)';

/* Each emoji drawn, as SVG shapes on a 24×24 box: [fill, path] pairs. */
const YELLOW = '#f4c430';
const EDGE = '#9a6b00';
const EMOJI_ART = {
  '👍': [
    [YELLOW, 'M3.5 10.5h3.5v9.5H3.5z'],
    [YELLOW, 'M8.5 10.5l3.6-6.6c1.3 0 2.2 1 2 2.3l-.5 3.1h5a2 2 0 0 1 2 2.3l-1.2 6.7a2 2 0 0 1-2 1.7H8.5z'],
  ],
  '😂': [
    [YELLOW, 'M12 2.5a9.5 9.5 0 1 1 0 19a9.5 9.5 0 1 1 0-19z'],
    ['none', 'M6.8 9.6q1.7-1.8 3.4 0M13.8 9.6q1.7-1.8 3.4 0'],
    ['#5a2d0c', 'M6.5 13h11a5.5 5.5 0 0 1-11 0z'],
    ['#4aa8e8', 'M3.2 11.5c-1 1.7-1.2 2.8-.4 3.4s2 .1 2-1.2zM20.8 11.5c1 1.7 1.2 2.8.4 3.4s-2 .1-2-1.2z'],
  ],
  '🙏': [
    [YELLOW, 'M11.4 3.2c-.9 0-1.5.7-1.7 1.8L8.6 12.6l-3.3 3.3 3.4 5.3 2.7-3.2z'],
    [YELLOW, 'M12.6 3.2c.9 0 1.5.7 1.7 1.8l1.1 7.6 3.3 3.3-3.4 5.3-2.7-3.2z'],
  ],
};
const EMOJI_SPLIT = new RegExp(`(${Object.keys(EMOJI_ART).join('|')})`, 'u');

/* One emoji as an inline SVG named for screen readers; its text stays in the page, off screen, for copying. */
export function emojiElement(emoji) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', 'emoji-svg');
  svg.setAttribute('aria-hidden', 'true');
  for (const [fill, d] of EMOJI_ART[emoji]) {
    const path = document.createElementNS(ns, 'path');
    path.setAttribute('d', d);
    path.setAttribute('fill', fill);
    path.setAttribute('stroke', fill === 'none' ? '#5a2d0c' : EDGE);
    path.setAttribute('stroke-width', fill === 'none' ? '1.4' : '.9');
    path.setAttribute('stroke-linejoin', 'round');
    path.setAttribute('stroke-linecap', 'round');
    svg.appendChild(path);
  }
  return h('span', { class: 'emoji', role: 'img', 'aria-label': t(`chat.emoji.${emoji}`), title: t(`chat.emoji.${emoji}`) },
    svg, h('span', { class: 'emoji-text', 'aria-hidden': 'true' }, emoji));
}

/* A line's text with the known emoji drawn; everything else stays text (never markup). */
export function withEmoji(text) {
  return String(text).split(EMOJI_SPLIT).filter(Boolean).map((part) => (EMOJI_ART[part] ? emojiElement(part) : part));
}

function charCount(text) {
  return Array.from(text).length;
}

function setStatus(panel, text, kind) {
  const status = panel.querySelector('#chat-status');
  status.textContent = text;
  status.className = `chat-status${kind ? ` ${kind}` : ''}`;
}

/* Sends one line; resolves true once the server took it. */
function say(ts, app, panel, text) {
  const line = cutChars(text.trim(), limit('chat_chars'));
  if (!line) return Promise.resolve(false);
  setStatus(panel, '', null);
  return app.request({ type: 'chat', code: ts.code, text: line }).then(() => true, (err) => {
    if (err && err.code === 'rate_limited') {
      setStatus(panel, t('chat.slowDown', { burst: limit('chat_burst'), minute: limit('chat_per_minute') }), 'warn');
    } else if (err && err.code !== 'disconnected') {
      setStatus(panel, t('chat.failed', { message: err.message || err.code }), 'warn');
    }
    return false;
  });
}

function updateCounter(panel) {
  const input = panel.querySelector('#chat-input');
  const n = charCount(input.value);
  const max = limit('chat_chars');
  const counter = panel.querySelector('#chat-count');
  counter.textContent = n > max * 0.8 ? `${n}/${max}` : '';
  counter.classList.toggle('over', n > max);
}

export function mountChat(ts, app) {
  const folded = typeof matchMedia === 'function' && matchMedia(PHONE).matches;
  const input = h('input', { id: 'chat-input', type: 'text', autocomplete: 'off', enterkeyhint: 'send',
    'aria-label': t('chat.placeholder'), placeholder: t('chat.placeholder'), maxlength: String(limit('chat_chars') * 4) /* UTF-16 units; the counter and send check characters */ });
  const panel = h('details', { id: 'chat', class: 'card chat', open: !folded,
    ontoggle: (e) => { if (e.target.open) { ts.ui.chatSeen = ts.chat.length; updateChat(ts, app); } } },
  h('summary', { id: 'chat-summary' }, h('span', {}, t('chat.title')), h('span', { id: 'chat-unread', class: 'chat-unread' })),
  h('ol', { id: 'chat-log', class: 'chat-log', 'aria-live': 'polite', 'aria-label': t('chat.title') }),
  h('div', { class: 'chat-quick', role: 'group', 'aria-label': t('chat.quick') },
    quickReactions().map((text, i) => h('button', { type: 'button', class: 'chat-reaction secondary', dataset: { focus: `react-${i}`, text },
      onclick: () => say(ts, app, panel, text) }, withEmoji(text)))),
  h('form', { class: 'chat-form', onsubmit: (e) => {
    e.preventDefault();
    const text = input.value;
    if (charCount(text.trim()) > limit('chat_chars')) {
      setStatus(panel, t('chat.tooLong', { n: limit('chat_chars') }), 'warn');
      return;
    }
    say(ts, app, panel, text).then((ok) => {
      if (ok) {
        input.value = '';
        updateCounter(panel);
      }
    });
  } },
  input,
  h('button', { type: 'submit', id: 'chat-send' }, t('chat.send'))),
  h('div', { class: 'chat-foot' },
    h('span', { id: 'chat-status', class: 'chat-status', role: 'status' }),
    h('span', { id: 'chat-count', class: 'chat-count muted' })));
  input.addEventListener('input', () => updateCounter(panel));
  ts.ui.chatSeen = folded ? ts.chat.length : Infinity;
  return panel;
}

function lineOf(entry, app) {
  if (entry.kind === 'chat') {
    return h('li', { class: `chat-line${entry.player === app.me() ? ' mine' : ''}` },
      h('span', { class: 'chat-from' }, entry.from || entry.player, ': '),
      h('span', { class: 'chat-text' }, withEmoji(entry.text)));
  }
  return h('li', { class: `chat-line chat-notice chat-${entry.kind}` }, t(`chat.${entry.kind}`, { name: entry.from || entry.player }));
}

export function updateChat(ts, app) {
  const panel = document.getElementById('chat');
  if (!panel) return;
  /* a watcher while the host has turned watchers' chat off: the box says so instead of failing */
  const off = ts.mySeat === null && ts.spectatorChat === false && ts.hostId !== app.me();
  panel.querySelectorAll('#chat-input, #chat-send, .chat-reaction').forEach((el) => { el.disabled = off; });
  panel.classList.toggle('chat-off', off);
  if (off) setStatus(panel, t('chat.watchersOff'), 'warn');
  else if (panel.dataset.wasOff === 'true') setStatus(panel, '', null);
  panel.dataset.wasOff = off ? 'true' : 'false';
  const log = panel.querySelector('#chat-log');
  const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  replace(log, ts.chat.length ? ts.chat.map((e) => lineOf(e, app)) : h('li', { class: 'chat-line muted' }, t('chat.empty')));
  if (atBottom) log.scrollTop = log.scrollHeight;
  if (panel.open) ts.ui.chatSeen = ts.chat.length;
  const unread = Math.max(0, ts.chat.length - (ts.ui.chatSeen === Infinity ? ts.chat.length : ts.ui.chatSeen));
  panel.querySelector('#chat-unread').textContent = unread ? String(unread) : '';
}
