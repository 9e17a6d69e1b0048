/*
 * alerts — telling players that their turn has come, for every game: the tab's title says
 * "● Your turn — Teahouse" for as long as the turn lasts, and when the turn begins a short chime
 * (two notes made with WebAudio; there is no sound file) plays and a phone buzzes
 * (navigator.vibrate, where the browser has it). A toggle on the table mutes the chime and the
 * buzz; the choice is kept in localStorage. The title is never muted: it is silent.
 *
 * The chime plays whether or not the tab has focus: a focused tab is often one the player is not
 * looking at (the chat, another window beside it), and the turn timer runs either way. A turn
 * that follows the player's own move at once (their move gave them the next one) is not announced:
 * they are at the table already. noteTurn() is told after every redraw whether the player owes a
 * decision; only a change from "no" to "yes" alerts.
 */
import { addStrings, t } from './i18n.js';
import { h } from './dom.js';

const MUTE_KEY = 'teahouse.muted';
const BUZZ_MS = 120;

addStrings({
  en: {
    'alert.yourTurn': 'Your turn',
    'alert.mute': 'Mute the turn alert',
    'alert.unmute': 'Turn the turn alert on',
    'alert.muted': 'Turn alert off',
    'alert.on': 'Turn alert on',
  },
  'zh-Hant': {
    'alert.yourTurn': '輪到你了',
    'alert.mute': '關掉輪到你的提示音',
    'alert.unmute': '打開輪到你的提示音',
    'alert.muted': '提示音已關',
    'alert.on': '提示音已開',
  },
  'zh-Hans': {
    'alert.yourTurn': '轮到你了',
    'alert.mute': '关掉轮到你的提示音',
    'alert.unmute': '打开轮到你的提示音',
    'alert.muted': '提示音已关',
    'alert.on': '提示音已开',
  },
});

let myTurn = false;
let audio = null;

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; /* storage refused (a private window's policy): the toggle lasts for the page */
  }
}

let mutedHere = storage()?.getItem(MUTE_KEY) === '1';

export function isMuted() {
  return mutedHere;
}

export function setMuted(muted) {
  mutedHere = Boolean(muted);
  const store = storage();
  if (store) {
    if (mutedHere) store.setItem(MUTE_KEY, '1');
    else store.removeItem(MUTE_KEY);
  }
}

/* Two short soft notes, a fourth apart; nothing if the browser has no WebAudio. */
function chime() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  if (!audio) audio = new Ctx();
  if (audio.state === 'suspended') audio.resume().catch(() => {});
  const start = audio.currentTime + 0.01;
  [[660, 0], [880, 0.11]].forEach(([freq, at]) => {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = 'sine';
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, start + at);
    gain.gain.exponentialRampToValueAtTime(0.12, start + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + at + 0.18);
    osc.connect(gain).connect(audio.destination);
    osc.start(start + at);
    osc.stop(start + at + 0.2);
  });
}

function buzz() {
  if (typeof navigator.vibrate !== 'function') return;
  try {
    navigator.vibrate(BUZZ_MS);
  } catch {
    /* a browser that refuses without a tap first: the chime and the title still tell */
  }
}

/* Told after each redraw of a table whether this player owes a decision there. */
export function noteTurn(turn) {
  const began = turn && !myTurn;
  myTurn = Boolean(turn);
  if (!began || mutedHere) return;
  chime();
  buzz();
}

/* The tab's title while it is the player's turn, else null (the page's own title stands). */
export function turnTitle() {
  return myTurn ? `● ${t('alert.yourTurn')} — ${t('app.title')}` : null;
}

/* A speaker, crossed out when muted. */
function speakerSvg(muted) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', 'icon');
  svg.setAttribute('aria-hidden', 'true');
  const paths = ['M4 9h4l5-4v14l-5-4H4z'];
  paths.push(muted ? 'M16 9l5 6M21 9l-5 6' : 'M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12');
  paths.forEach((d, i) => {
    const p = document.createElementNS(ns, 'path');
    p.setAttribute('d', d);
    p.setAttribute('fill', i === 0 ? 'currentColor' : 'none');
    p.setAttribute('stroke', 'currentColor');
    p.setAttribute('stroke-width', '2');
    p.setAttribute('stroke-linecap', 'round');
    svg.appendChild(p);
  });
  return svg;
}

/* The mute toggle of the table's bar; rerender redraws it after a click. */
export function soundToggle(rerender) {
  const muted = mutedHere;
  return h('button', {
    type: 'button', id: 'sound-toggle', class: 'secondary icon-button', 'aria-pressed': muted ? 'true' : 'false',
    'aria-label': t('alert.mute'), title: t(muted ? 'alert.unmute' : 'alert.mute'), dataset: { focus: 'sound-toggle' },
    onclick: () => {
      setMuted(!mutedHere);
      rerender();
    },
  }, speakerSvg(muted), h('span', { class: 'icon-label' }, t(muted ? 'alert.muted' : 'alert.on')));
}
