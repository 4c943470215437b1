// @ts-check
// Clocks: the time each seat has left, in words and counting down live for the running
// seat. The server sends `clock.left` (seconds per seat at its `now`), the running seat
// and its deadline; the count-down starts from `left` when the view arrived, so the
// browser's own clock being off does not matter.

import { t } from "./i18n.js";
import { h } from "./dom.js";

/** @typedef {import("./types.js").Clock} Clock */

/**
 * "0:07", "12:34", "5 h 12 min", "2 d 5 h"
 * @param {number} seconds
 */
export function duration(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  if (s < 86400) {
    const m = Math.floor((s % 3600) / 60);
    const hours = t("clock.h", { n: Math.floor(s / 3600) });
    return m ? `${hours} ${t("clock.min", { n: m })}` : hours;
  }
  const hours = Math.floor((s % 86400) / 3600);
  const days = t("clock.d", { n: Math.floor(s / 86400) });
  return hours ? `${days} ${t("clock.h", { n: hours })}` : days;
}

/**
 * "20 s", "20 min", "24 h", "3 days", "1:30": a setting in words.
 * @param {number} seconds
 */
export function amount(seconds) {
  const s = Math.round(seconds);
  if (s % 86400 === 0 && s >= 86400) return t("clock.days", { n: s / 86400 });
  if (s % 3600 === 0 && s >= 3600) return t("clock.h", { n: s / 3600 });
  if (s % 60 === 0 && s >= 60) return t("clock.min", { n: s / 60 });
  if (s < 60) return t("clock.s", { n: s });
  return duration(s);
}

/** The clock's settings in one line: "Live clock: 20 min each + 20 s per decision; …". */
/** @param {Pick<Clock, "bank" | "per_decision" | "on_timeout" | "bot" | "reclaim" | "kind">} clock */
export function clockWords(clock) {
  const parts = [];
  if (clock.bank) parts.push(t("clock.words_each", { time: amount(clock.bank) }));
  if (clock.per_decision) parts.push(t("clock.words_per_decision", { time: amount(clock.per_decision) }));
  const bot = String(clock.bot);
  const then = clock.on_timeout === "game"
    ? t(clock.reclaim ? "clock.words_then_game_reclaim" : "clock.words_then_game", { bot })
    : t("clock.words_then_decision", { bot });
  return t(clock.kind === "live" ? "clock.words_live" : "clock.words_turn", { parts: parts.join(" + "), then });
}

/** @type {ReturnType<typeof setInterval> | undefined} */
let ticker;
/** @type {{ clock: Clock, since: number } | null} the clock tracked, since when (performance.now()) */
let tracked = null;

/**
 * What seat `seat` has left (seconds) `elapsed` seconds after the view arrived: the
 * running seat's time counts down, the others' stands.
 * @param {Clock} clock
 * @param {number} seat
 * @param {number} elapsed
 */
export function leftAfter(clock, seat, elapsed) {
  const left = clock.left[seat];
  if (clock.running !== seat || clock.paused) return left;
  return Math.max(0, left - elapsed);
}

/**
 * A clock chip's words, tooltip and marks for seat `seat`, `elapsed` seconds after the
 * view arrived.
 * @param {Clock} clock
 * @param {number} seat
 * @param {number} elapsed
 */
export function clockFace(clock, seat, elapsed) {
  const left = leftAfter(clock, seat, elapsed);
  const bank = clock.banks[seat];
  const running = clock.running === seat && !clock.paused;
  let text;
  let tip;
  if (clock.paused) {
    text = t("clock.chip_stopped", { time: duration(left) });
    tip = t("clock.host_stopped");
  } else if (running) {
    const own = left - bank; // what is left of this decision's own time
    text = own > 0 && bank > 0 ? `${duration(own)} + ${duration(bank)}` : duration(left);
    tip = own > 0 && bank > 0
      ? t("clock.tip_own", { own: duration(own), bank: duration(bank) })
      : t("clock.tip_left", { left: duration(left), bot: clock.bot || "" });
  } else if (bank > 0) {
    text = duration(bank);
    tip = clock.per_decision ? t("clock.tip_bank_plus", { bank: duration(bank), each: amount(clock.per_decision) })
      : t("clock.tip_bank", { bank: duration(bank) });
  } else {
    text = t("clock.chip_each", { each: amount(clock.per_decision) });
    tip = t("clock.tip_each", { each: amount(clock.per_decision) });
  }
  const total = (clock.per_decision || 0) + bank;
  const low = running && left <= Math.max(10, 0.1 * total);
  return { text, tip, running, low, stopped: Boolean(clock.paused) };
}

/** @param {number} seat */
function describe(seat) {
  if (!tracked) throw new Error("no clock is tracked");
  const { clock, since } = tracked;
  return clockFace(clock, seat, (performance.now() - since) / 1000);
}

/** @param {HTMLElement} el */
function paint(el) {
  const seat = Number(el.dataset.clockSeat);
  const d = describe(seat);
  el.textContent = d.text;
  el.title = d.tip;
  el.classList.toggle("running", d.running);
  el.classList.toggle("low", d.low);
  el.classList.toggle("stopped", d.stopped);
}

/**
 * A chip showing seat `seat`'s time (kept up to date by trackClock).
 * @param {number} seat
 */
export function clockChip(seat) {
  if (!tracked) return null;
  const el = h("span", { class: "flag clock", "data-clock-seat": seat, "data-testid": `clock-${seat}` });
  paint(el);
  return el;
}

/**
 * Use `clock` (a view's, or null) from now on: the chips drawn after this call show its
 * times, and every chip in the page counts down once a second while a seat's time runs.
 * @param {Clock | null | undefined} clock
 */
export function trackClock(clock) {
  clearInterval(ticker);
  ticker = undefined;
  tracked = clock ? { clock, since: performance.now() } : null;
  if (!clock || clock.running === null || clock.running === undefined || clock.paused) return;
  ticker = setInterval(() => {
    for (const el of document.querySelectorAll("[data-clock-seat]")) if (el instanceof HTMLElement) paint(el);
  }, 250);
}
