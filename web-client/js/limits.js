/*
 * limits — the bounds the server holds messages to (PROTOCOL.md "Limits", house_limits.h on the
 * server). Every welcome carries them; until the first one, the house's own values stand in, so
 * a form is never unbounded. The client checks against these before it sends, in characters as
 * the server counts them (code points, not UTF-16 units).
 */
const limits = {
  name_chars: 24,
  account_min_chars: 3,
  account_min_wide_chars: 2, /* when every character is wide (小明) */
  account_max_chars: 24,
  password_min_bytes: 8,
  password_max_bytes: 1024,
  chat_chars: 300,
  turn_seconds_min: 5,
  turn_seconds_max: 300,
  code_chars: 12,
  chat_burst: 5,
  chat_per_minute: 30,
};

/* Takes the limits of a welcome (unknown keys kept, non-numbers ignored). */
export function setLimits(from) {
  if (!from || typeof from !== 'object') return;
  for (const [key, value] of Object.entries(from))
    if (Number.isInteger(value) && value >= 0) limits[key] = value;
}

export function limit(key) {
  return limits[key];
}

/* text cut to at most n characters (code points). */
export function cutChars(text, n) {
  return Array.from(String(text || '')).slice(0, n).join('');
}
