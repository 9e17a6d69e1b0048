/*
 * format — how the admin pages write the server's values: times (ms since the epoch) in the
 * browser's time zone, units with a real minus sign, and the inputs of the time filters back to
 * ms. Everything here returns plain strings, put into the page as text.
 */
import { t } from '../i18n.js';
import { findGame, gameTitle } from '../games/registry.js';

const pad = (n) => String(n).padStart(2, '0');

/* 2026-11-24 17:05:09, local time; '—' for a missing time. */
export function time(ms) {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '—';
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/* +12, −4 (a real minus sign), 0: as the game client writes a score. */
export function signed(n) {
  if (typeof n !== 'number') return '—';
  if (n > 0) return `+${n.toLocaleString('en-US')}`;
  if (n < 0) return `−${(-n).toLocaleString('en-US')}`;
  return '0';
}

export function plain(n) {
  if (typeof n !== 'number') return '—';
  return n < 0 ? `−${(-n).toLocaleString('en-US')}` : n.toLocaleString('en-US');
}

/* The value of a datetime-local input as ms, or '' when empty or not a time. */
export function inputToMs(value) {
  if (!value) return '';
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? ms : '';
}

/* ms as a datetime-local input's value (local time, to the minute). */
export function msToInput(ms) {
  const n = Number(ms);
  if (!ms || !Number.isFinite(n)) return '';
  const d = new Date(n);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/* A game's name in the page's language (the game's own title); another name as the server wrote it. */
export function gameName(game) {
  if (typeof game === 'string' && findGame(game)) return gameTitle(game);
  const key = `adm.game.${game}`;
  const text = t(key);
  return text === key ? String(game ?? '—') : text;
}

/* A ledger reason in the page's language; an unknown one as the server wrote it. */
export function reasonName(reason) {
  const key = `adm.reason.${reason}`;
  const text = t(key);
  return text === key ? String(reason ?? '—') : text;
}

export function bytes(n) {
  if (typeof n !== 'number') return '—';
  if (n >= 1 << 30) return `${(n / (1 << 30)).toFixed(1)} GiB`;
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(1)} MiB`;
  if (n >= 1 << 10) return `${(n / (1 << 10)).toFixed(1)} KiB`;
  return `${n} B`;
}

export function duration(s) {
  if (typeof s !== 'number') return '—';
  const d = Math.floor(s / 86400);
  const hh = Math.floor((s % 86400) / 3600);
  const mm = Math.floor((s % 3600) / 60);
  return d > 0 ? `${d}d ${hh}h ${mm}m` : `${hh}h ${mm}m ${s % 60}s`;
}
