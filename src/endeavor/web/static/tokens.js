// @ts-check
// What this browser keeps of its games: every working seat token per game (a link that
// does not work never replaces one that does), the host's token per game, the token this
// tab plays, and small preferences. Everything lives in localStorage (sessionStorage for
// the tab's own choice); storage may be disabled, so every access is guarded.
//
// Keys: endeavor.seats.<id> = JSON list of seat tokens; endeavor.host.<id> = the host's
// token; endeavor.current.<id> (sessionStorage) = the token this tab plays. The old
// single-token key endeavor.token.<id> is moved into the list on load.

const SEATS = "endeavor.seats.";
const HOST = "endeavor.host.";
const CURRENT = "endeavor.current.";
const OLD = "endeavor.token.";

/**
 * @param {Storage} storage
 * @param {string} key
 */
function read(storage, key) {
  try { return storage.getItem(key); } catch { return null; }
}

/**
 * @param {Storage} storage
 * @param {string} key
 * @param {string | null} value null: remove the key
 */
function write(storage, key, value) {
  try {
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, value);
  } catch { /* storage disabled or full: this page still works */ }
}

/**
 * @param {Storage} storage
 * @param {string} prefix
 */
function keys(storage, prefix) {
  /** @type {string[]} */
  const out = [];
  try {
    for (let i = 0; i < storage.length; i += 1) {
      const key = storage.key(i);
      if (key && key.startsWith(prefix)) out.push(key);
    }
  } catch { /* no storage */ }
  return out;
}

/**
 * The seat tokens this browser holds for game `id` (oldest first).
 * @param {string} id
 * @returns {string[]}
 */
export function heldTokens(id) {
  const raw = read(localStorage, SEATS + id);
  if (!raw) return [];
  try {
    const list = JSON.parse(raw);
    return Array.isArray(list) ? list.filter((t) => typeof t === "string" && t) : [];
  } catch {
    return [];
  }
}

/**
 * @param {string} id
 * @param {string[]} list
 */
function saveTokens(id, list) {
  write(localStorage, SEATS + id, list.length ? JSON.stringify([...new Set(list)]) : null);
}

/**
 * Keep `token` as a seat of game `id`. Call it only with a token the server accepted
 * (a view with a non-empty `you`, or the token it has just issued).
 * @param {string} id
 * @param {string} token
 */
export function addToken(id, token) {
  if (!token) return;
  const list = heldTokens(id);
  if (!list.includes(token)) saveTokens(id, [...list, token]);
}

/**
 * Forget `token` for game `id` (the server said it is no seat of that game).
 * @param {string} id
 * @param {string} token
 */
export function dropToken(id, token) {
  const list = heldTokens(id);
  if (list.includes(token)) saveTokens(id, list.filter((t) => t !== token));
  if (currentToken(id) === token) write(sessionStorage, CURRENT + id, null);
}

/** Every (game id, token) pair this browser holds. */
export function allHeld() {
  const out = [];
  for (const key of keys(localStorage, SEATS)) {
    const id = key.slice(SEATS.length);
    for (const token of heldTokens(id)) out.push({ id, token });
  }
  return out;
}

/**
 * The token this tab last played game `id` with (a browser may hold several seats).
 * @param {string} id
 */
export function currentToken(id) {
  return read(sessionStorage, CURRENT + id) || "";
}

/**
 * @param {string} id
 * @param {string} token
 */
export function setCurrentToken(id, token) {
  write(sessionStorage, CURRENT + id, token || null);
}

/**
 * The host's token of game `id`, if this browser created the game (or opened its host link).
 * @param {string} id
 */
export function hostToken(id) {
  return read(localStorage, HOST + id) || "";
}

/**
 * Keep the host's token (only once the server accepted it, or just issued it).
 * @param {string} id
 * @param {string} token
 */
export function setHostToken(id, token) {
  write(localStorage, HOST + id, token || null);
}

/**
 * Ask the game page to open the host panel once (after the host link was opened).
 * @param {string} id
 */
export function setHostFlag(id) {
  write(sessionStorage, `endeavor.openhost.${id}`, "1");
}

/**
 * Whether the host panel is to be opened now (once).
 * @param {string} id
 */
export function takeHostFlag(id) {
  const flag = read(sessionStorage, `endeavor.openhost.${id}`) === "1";
  if (flag) write(sessionStorage, `endeavor.openhost.${id}`, null);
  return flag;
}

/**
 * A preference: "1" / "0" strings in localStorage (default `fallback`).
 * @param {string} name
 * @param {boolean} [fallback]
 */
export function pref(name, fallback = false) {
  const value = read(localStorage, `endeavor.pref.${name}`);
  return value === null ? fallback : value === "1";
}

/**
 * @param {string} name
 * @param {boolean} on
 */
export function setPref(name, on) {
  write(localStorage, `endeavor.pref.${name}`, on ? "1" : "0");
}

/** Move the old single-token keys (endeavor.token.<id>) into the lists. */
export function migrate() {
  for (const key of keys(localStorage, OLD)) {
    const id = key.slice(OLD.length);
    const token = read(localStorage, key);
    if (id && token) addToken(id, token);
    write(localStorage, key, null);
  }
  for (const key of keys(sessionStorage, OLD)) write(sessionStorage, key, null);
}

migrate();
