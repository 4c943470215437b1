// @ts-check
// "No message while the player is at the table": while a seat's page is open and
// visible it tells the server so every PING_MS (POST /api/games/{id}/presence), and the
// server holds that seat's notifications back; when the page is hidden or closed it says
// so at once (a closed page that could not say it simply stops renewing, and the server
// forgets it after 45 s), and what was held goes out if the turn is still the seat's.

import { api } from "./api.js";

const PING_MS = 20000;

/**
 * Tell the server whether game `id`'s seat page is visible, with the token `tokenNow()`
 * returns (none: nothing is sent, e.g. a spectator or a seat the host gave to a bot).
 * Returns a function that stops it.
 * @param {string} id
 * @param {() => string} tokenNow
 */
export function trackPresence(id, tokenNow) {
  const ping = (/** @type {boolean} */ visible, keepalive = false) => {
    const token = tokenNow();
    if (token) api.presence(id, token, visible, keepalive).catch(() => { /* best effort */ });
  };
  const visible = () => document.visibilityState === "visible";
  const onChange = () => ping(visible(), !visible());
  const onHide = () => ping(false, true);
  document.addEventListener("visibilitychange", onChange);
  window.addEventListener("pagehide", onHide);
  const timer = setInterval(() => { if (visible()) ping(true); }, PING_MS);
  if (visible()) ping(true);
  return () => {
    clearInterval(timer);
    document.removeEventListener("visibilitychange", onChange);
    window.removeEventListener("pagehide", onHide);
  };
}
