/*
 * chat — the table's chat panel: the lines said at the table and who came and went (the
 * `chat`, `joined`, `left` and `removed` events, kept by store.js), a box to say something, and
 * quick reactions sent with one tap. Text is only ever put into the page as text, never as
 * markup. A line is cut to the welcome's chat_chars (limits.js), counted in characters as the
 * server counts them; a line the server refuses for going too fast (chat_burst at once, then
 * chat_per_minute) stays in the box and a polite note says to wait.
 *
 * On a phone the panel starts folded, so the board and the player's tiles come first; an unread
 * count on its summary says when something was said.
 *
 * mountChat() builds the panel once per table page (so a line being typed survives the stream of
 * events); updateChat() redraws only its log.
 */
import { h, replace } from './dom.js';
import { t } from './i18n.js';
import { cutChars, limit } from './limits.js';

export const QUICK_REACTIONS = ['好牌!', '👍', '😂', '🙏', '再來!'];
const PHONE = '(max-width: 760px)';

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
    QUICK_REACTIONS.map((text, i) => h('button', { type: 'button', class: 'chat-reaction secondary', dataset: { focus: `react-${i}` },
      onclick: () => say(ts, app, panel, text) }, text))),
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
      h('span', { class: 'chat-text' }, entry.text));
  }
  return h('li', { class: `chat-line chat-notice chat-${entry.kind}` }, t(`chat.${entry.kind}`, { name: entry.from || entry.player }));
}

export function updateChat(ts, app) {
  const panel = document.getElementById('chat');
  if (!panel) return;
  const log = panel.querySelector('#chat-log');
  const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  replace(log, ts.chat.length ? ts.chat.map((e) => lineOf(e, app)) : h('li', { class: 'chat-line muted' }, t('chat.empty')));
  if (atBottom) log.scrollTop = log.scrollHeight;
  if (panel.open) ts.ui.chatSeen = ts.chat.length;
  const unread = Math.max(0, ts.chat.length - (ts.ui.chatSeen === Infinity ? ts.chat.length : ts.ui.chatSeen));
  panel.querySelector('#chat-unread').textContent = unread ? String(unread) : '';
}
