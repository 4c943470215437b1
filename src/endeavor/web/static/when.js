// @ts-check
// Times in relative words (as src/endeavor/web/when.py says them): "3 h ago", "in 3 days
// 12 hours"; and a deadline's moment in the reader's own time ("Fri 5 Dec, 14:00").

import { locale, t } from "./i18n.js";

/** @type {[string, number][]} the catalog's keys (clock.ago_…) */
const SHORT = [["d", 86400], ["h", 3600], ["min", 60]];
/** @type {[string, number][]} the catalog's keys (clock.…_one / _other) */
const LONG = [["day", 86400], ["hour", 3600], ["minute", 60]];

/** "just now", "5 min ago", "3 h ago", "2 d ago": how long before `now` (ISO or Date). */
/**
 * @param {string | number | Date} then
 * @param {string | number | Date} [now]
 */
export function agoWords(then, now = new Date()) {
  const seconds = (new Date(now).getTime() - new Date(then).getTime()) / 1000;
  if (!(seconds >= 60)) return t("clock.just_now");
  for (const [name, size] of SHORT) {
    if (seconds >= size) return t(`clock.ago_${name}`, { n: Math.floor(seconds / size) });
  }
  return t("clock.just_now");
}

/** "3 days 12 hours", "1 hour 5 minutes", "less than a minute" (the two largest units). */
/** @param {number} seconds */
export function durationWords(seconds) {
  let left = Math.max(0, Math.floor(seconds));
  if (left < 60) return t("clock.less_than_minute");
  const out = [];
  for (const [name, size] of LONG) {
    const n = Math.floor(left / size);
    left -= n * size;
    if (n && out.length < 2) out.push(t(`clock.${name}`, { n }));
    else if (out.length) break;
  }
  return out.join(" ");
}

/** "Fri 5 Dec, 14:00": a moment in the browser's own time zone. */
/** @param {string | number | Date} when */
export function momentWords(when) {
  const d = new Date(when);
  const lang = locale() === "en" ? undefined : locale(); // English: the browser's own format
  const day = d.toLocaleDateString(lang, { weekday: "short", day: "numeric", month: "short" });
  const time = d.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
  return `${day}, ${time}`;
}
