// @ts-check
// "Your turn, wherever you are": the tab's title and favicon badge, an optional beep
// (WebAudio, off by default) and an optional browser notification when the game reaches
// your seat while the tab is in the background (asked for by a button, never on load).

import { t } from "./i18n.js";
import { href } from "./dom.js";
import { pref, setPref } from "./tokens.js";

const ICON = "/static/favicon.svg";
const BADGE = "/static/favicon-move.svg";

/**
 * Show (or take away) the favicon's badge: a gold dot saying "your move".
 * @param {boolean} on
 */
export function setBadge(on) {
  const link = document.querySelector("link[rel~=icon]");
  if (!link) return;
  const want = href(on ? BADGE : ICON);
  if (link.getAttribute("href") !== want) link.setAttribute("href", want);
  document.documentElement.dataset.yourMove = on ? "1" : "0";
}

/**
 * The tab's title: "▶ Your move · <base>" while it is your move, else `base`.
 * @param {string} base
 * @param {boolean} yourMove
 */
export function setTitle(base, yourMove) {
  document.title = yourMove ? t("alerts.title", { title: base }) : base;
  setBadge(yourMove);
}

// ------------------------------------------------------------------ sound
/** @type {AudioContext | null} */
let audio = null;

/** A short two-note chime (nothing if the browser has no WebAudio or blocks it). */
export function beep() {
  try {
    // Safari before 14.1 names it webkitAudioContext, which the DOM typings do not know
    const Context = window.AudioContext
      || /** @type {{ webkitAudioContext?: typeof AudioContext }} */ (/** @type {unknown} */ (window)).webkitAudioContext;
    if (!Context) return;
    const ctx = audio || new Context();
    audio = ctx;
    if (ctx.state === "suspended") ctx.resume();
    const start = ctx.currentTime + 0.02;
    [[660, 0], [990, 0.16]].forEach(([freq, at]) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, start + at);
      gain.gain.exponentialRampToValueAtTime(0.25, start + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + 0.3);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start + at);
      osc.stop(start + at + 0.32);
    });
  } catch { /* no sound then */ }
}

export function soundOn() {
  return pref("sound", false);
}

/** @param {boolean} on */
export function setSound(on) {
  setPref("sound", on);
  if (on) beep(); // the click is the gesture that lets the page play sound later
}

// ------------------------------------------------------------------ browser notifications
/** "unsupported" | "blocked" | "on" | "off" */
export function notificationState() {
  if (!("Notification" in window)) return "unsupported";
  if (Notification.permission === "denied") return "blocked";
  return Notification.permission === "granted" && pref("notify", false) ? "on" : "off";
}

/** Ask the browser (only ever from a click) and remember the choice. */
export async function enableNotifications() {
  if (!("Notification" in window)) return "unsupported";
  let permission = Notification.permission;
  if (permission === "default") permission = await Notification.requestPermission();
  setPref("notify", permission === "granted");
  return notificationState();
}

export function disableNotifications() {
  setPref("notify", false);
}

/**
 * @param {string} title
 * @param {string} body
 */
function notify(title, body) {
  if (!document.hidden || notificationState() !== "on") return;
  try {
    const note = new Notification(title, { body, tag: location.pathname, icon: href(BADGE) });
    note.addEventListener("click", () => { window.focus(); note.close(); });
  } catch { /* some browsers only notify from a service worker */ }
}

/**
 * Watches whose move it is: call it with each new view's `mine`; when the game reaches
 * your seat (not on the first call: opening a page is not news) it beeps if the sound is
 * on and notifies if the tab is in the background and notifications are on.
 * @returns {(mine: boolean, title: string, body: string) => void}
 */
export function turnWatcher() {
  /** @type {boolean | null} */
  let last = null;
  return (mine, title, body) => {
    if (last === false && mine) {
      if (soundOn()) beep();
      notify(title, body);
    }
    last = mine;
  };
}
