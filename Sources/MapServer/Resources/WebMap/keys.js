// API keys and access tokens, and every call to the server's API.
//
// A server run with keys wants one for its API (/v1, /api) and its raster images. The page trades
// the key for a short-lived access token at /v1/token, as Apple's Maps Server API clients do, and
// sends the token (never the key) with each call and image. The key comes from ?key= in the
// page's address (removed from the address bar at once) or from the key form, and is kept for this
// tab's session only. The vector map itself (styles, vector tiles, glyphs, sprites) needs no key.
import { $ } from './format.js';

const auth = { required: false, key: null, token: null, expires: 0, pending: null, refresh: 0 };
const listeners = [];

try { auth.key = sessionStorage.getItem('openmapkit.key'); } catch (_) { /* storage may be off */ }
{
  const query = new URLSearchParams(location.search);
  if (query.has('key')) {
    rememberKey(query.get('key'));
    query.delete('key');
    const rest = query.toString();
    history.replaceState(null, '', location.pathname + (rest ? `?${rest}` : '') + location.hash);
  }
}

function rememberKey(key) {
  auth.key = key || null;
  auth.token = null;
  try {
    if (auth.key) sessionStorage.setItem('openmapkit.key', auth.key); else sessionStorage.removeItem('openmapkit.key');
  } catch (_) { /* storage may be off */ }
}

// No key, or (`rejected`) one the server refused, with its reason.
export class KeyNeeded extends Error {
  constructor(message, rejected = false) { super(message); this.rejected = rejected; }
}

// An answer's JSON body (null when it has none), and what went wrong in Apple's error shape
// ({"error":{"message":…}}) or, failing that, the status line.
async function readAnswer(response) {
  let body = null;
  try { body = await response.json(); } catch (_) { body = null; }
  const message = (body && body.error && body.error.message) || `${response.status} ${response.statusText}`;
  return { body, message };
}

/// Whether the server wants a key (from its configuration), and a function called whenever the
/// page gets a new token (images then reload with it).
export function configureKeys(required, onToken) {
  auth.required = required;
  if (onToken) listeners.push(onToken);
  if (required) accessToken().catch(showKeyForm);
}

export const hasAccessToken = () => Boolean(auth.token);

// The current access token (null when the server needs no key), fetched when missing, about to
// expire or `renew`ed; concurrent callers share one exchange.
export function accessToken(renew = false) {
  if (!auth.required) return Promise.resolve(null);
  if (!auth.key) return Promise.reject(new KeyNeeded('Enter an API key to search, find routes and see Look Around.'));
  if (!renew && auth.token && Date.now() < auth.expires - 60000) return Promise.resolve(auth.token);
  if (auth.pending) return auth.pending;
  auth.pending = (async () => {
    try {
      const response = await fetch('/v1/token', { headers: { Accept: 'application/json', Authorization: `Bearer ${auth.key}` } });
      const { body, message } = await readAnswer(response);
      if (response.status === 401) { rememberKey(null); throw new KeyNeeded(message, true); }
      if (!response.ok || !body || typeof body.accessToken !== 'string') throw new Error(message);
      auth.token = body.accessToken;
      auth.expires = Date.now() + Math.max(120, Number(body.expiresInSeconds) || 1800) * 1000;
      // Renewed ahead of expiry, so images never fail on an expired token.
      clearTimeout(auth.refresh);
      auth.refresh = setTimeout(() => accessToken(true).catch(showKeyForm), auth.expires - Date.now() - 90000);
      hideKeyForm();
      for (const listener of listeners) listener(auth.token);
      return auth.token;
    } finally {
      auth.pending = null;
    }
  })();
  return auth.pending;
}

// `url` (a same-origin path) with the current token as ?key=, for images loaded by <img src>.
export function withToken(url) {
  if (!auth.token) return url;
  return `${url}${url.includes('?') ? '&' : '?'}key=${encodeURIComponent(auth.token)}`;
}

export function showKeyForm(error) {
  if (!(error instanceof KeyNeeded)) {
    const status = $('status');
    status.textContent = `Could not get an access token: ${error.message}`;
    status.classList.add('error');
    return;
  }
  $('key-form').hidden = false;
  $('key-message').textContent = error.rejected ? error.message : '';
  $('api-key').focus();
}

function hideKeyForm() {
  $('key-form').hidden = true;
  $('key-message').textContent = '';
  $('api-key').value = '';
}

$('key-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const key = $('api-key').value.trim();
  if (!key) return;
  rememberKey(key);
  accessToken(true).catch(showKeyForm);
});

// Calls the server: `path` with `params` as its query; the token goes in a header. Throws an Error
// with the server's message and `status` for an answer that is not 2xx.
export async function api(path, params = {}, retried = false) {
  const url = new URL(path, location.origin);
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, v);
  const headers = { Accept: 'application/json' };
  let token = null;
  if (url.pathname.startsWith('/v1/') || url.pathname.startsWith('/api/')) {
    try { token = await accessToken(); } catch (err) { showKeyForm(err); throw err; }
    if (token) headers.Authorization = `Bearer ${token}`;
  }
  const response = await fetch(url, { headers });
  // A token the server no longer takes (it restarted, or the key changed): one fresh exchange.
  if (response.status === 401 && token && !retried) {
    auth.token = null;
    return api(path, params, true);
  }
  const { body, message } = await readAnswer(response);
  if (!response.ok) {
    const error = new Error(message);
    error.status = response.status;
    throw error;
  }
  return body;
}
