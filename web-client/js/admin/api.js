/*
 * api — the admin pages' one door to the server: GET and POST on /api/admin/ with the session
 * cookie (the browser sends it; it is HttpOnly) and, on every POST, the anti-forgery token that
 * login answered in X-CSRF-Token. The token and the account are kept in sessionStorage, so a
 * reload of the tab keeps the session and closing the tab forgets it.
 *
 * Errors come back as ApiError (the server's code and sentence, the HTTP status and, for 429,
 * the wait). A 403 on any route but login means the session is gone or was never an admin's:
 * the session is forgotten and the handler set with onForbidden sends the page to login.
 */

const KEY = 'teahouse.admin.session';

export class ApiError extends Error {
  constructor(status, code, message, retryAfter) {
    super(message || code);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

let forbiddenHandler = () => {};

export function onForbidden(fn) {
  forbiddenHandler = fn;
}

/* {csrf, account, player, expires_at} of the live session, or null. */
export function session() {
  try {
    const s = JSON.parse(sessionStorage.getItem(KEY));
    if (s && typeof s.csrf === 'string' && s.expires_at > Date.now()) return s;
  } catch { /* nothing stored, or not ours */ }
  return null;
}

export function setSession(s) {
  if (s) sessionStorage.setItem(KEY, JSON.stringify(s));
  else sessionStorage.removeItem(KEY);
}

/* A query string of the filters that have a value ('' and null are left out). */
export function queryString(query) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query || {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function apiUrl(path, query) {
  return `/api/admin/${path}${queryString(query)}`;
}

/* Resolves with the answer's JSON; rejects with an ApiError (status 0: the network failed). */
export async function api(path, { method = 'GET', query, body } = {}) {
  const headers = { Accept: 'application/json' };
  if (method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    const s = session();
    if (s) headers['X-CSRF-Token'] = s.csrf;
  }
  let res;
  try {
    res = await fetch(apiUrl(path, query), {
      method, headers, credentials: 'same-origin', cache: 'no-store',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, 'network', String(e && e.message || e));
  }
  let data = null;
  try {
    data = await res.json();
  } catch { /* an answer that is not JSON: judged by its status below */ }
  if (res.ok && data && typeof data === 'object') return data;
  const code = data && typeof data.error === 'string' ? data.error : `http_${res.status}`;
  const message = data && typeof data.message === 'string' ? data.message : res.statusText;
  const retry = Number(res.headers.get('Retry-After')) || 0;
  const error = new ApiError(res.status, code, message, retry);
  if (res.status === 403 && path !== 'login') {
    setSession(null);
    forbiddenHandler(error);
  }
  throw error;
}
