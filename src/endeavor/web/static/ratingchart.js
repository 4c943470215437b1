// @ts-check
// A player's rating over their rated games of one family (the profile page): a line
// chart in SVG, drawn for the width it has (redrawn when that changes, so that its words
// stay readable on a phone), a point per game with its date and rating in a tooltip, and
// a summary for screen readers.

import { h, replace, s, title } from "./dom.js";
import { locale, t } from "./i18n.js";
import { one } from "./ratings.js";
import { chartAxes, ticks } from "./review.js";

/** @typedef {import("./ratings.js").HistoryPoint} HistoryPoint */

/**
 * A day in the reader's words ("4 Dec 2026").
 * @param {string} iso
 */
export function dayWords(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleDateString(locale(), { day: "numeric", month: "short", year: "numeric" });
}

/**
 * The chart's summary: how many games, the first and last rating, the highest.
 * @param {HistoryPoint[]} history
 */
export function historySummary(history) {
  if (!history.length) return t("rating.chart_empty");
  const ratings = history.map((p) => p.rating);
  return t("rating.chart_label", {
    n: history.length, first: one(ratings[0]), last: one(ratings[ratings.length - 1]),
    best: one(Math.max(...ratings)),
  });
}

/**
 * The chart drawn for `width` CSS px: the games in order along the bottom (numbered), the
 * rating up the side, a line through a point per game.
 * @param {HistoryPoint[]} history
 * @param {number} width
 */
export function historySvg(history, width) {
  const phoneSized = width < 520;
  const W = Math.max(260, Math.round(width));
  const H = phoneSized ? 190 : 220;
  const M = { left: 52, right: 14, top: 12, bottom: 38 };
  const svg = s("svg", { class: "rc-chart-svg", "data-testid": "rating-chart", viewBox: `0 0 ${W} ${H}`,
    width: W, height: H, role: "img", "aria-label": historySummary(history) });
  svg.append(title(historySummary(history)));
  const n = history.length;
  if (!n) return svg;
  const ratings = history.map((p) => p.rating);
  const pad = Math.max(1, (Math.max(...ratings) - Math.min(...ratings)) * 0.12);
  const lo = Math.floor(Math.min(...ratings) - pad);
  const hi = Math.ceil(Math.max(...ratings) + pad);
  const X = (/** @type {number} */ i) => (n === 1 ? (M.left + W - M.right) / 2
    : M.left + 8 + (i / (n - 1)) * (W - M.left - M.right - 16));
  const Y = (/** @type {number} */ r) => M.top + (1 - (r - lo) / (hi - lo || 1)) * (H - M.top - M.bottom);
  const grid = s("g", { class: "rv-grid" });
  chartAxes(grid, { W, H, M, X: (v) => X(v - 1), Y }, {
    yTicks: ticks(lo, hi, phoneSized ? 4 : 5), yWords: one,
    xTicks: ticks(1, n, phoneSized ? 4 : 8).filter((v) => Number.isInteger(v)), // game numbers
    xTitle: t("rating.axis_games"), yTitle: t("rating.axis_rating") });
  const d = history.map((p, i) => `${i ? "L" : "M"}${X(i).toFixed(1)},${Y(p.rating).toFixed(1)}`).join("");
  svg.append(grid, s("path", { class: "rv-line rc-line", d }),
    s("g", { class: "rc-points" }, history.map((p, i) => s("circle", {
      class: "rc-point", "data-testid": "history-point", "data-game": p.game_id, cx: X(i), cy: Y(p.rating), r: n > 40 ? 2.5 : 4,
    }, title(t("rating.point_tip", { n: i + 1, day: dayWords(p.at), rating: one(p.rating) }))))));
  return svg;
}

/**
 * The chart in a figure that redraws it when its width changes (a phone turned).
 * @param {HistoryPoint[]} history
 */
export function historyFigure(history) {
  const holder = h("div", { class: "rv-chart-holder" });
  let drawn = 0;
  const draw = () => {
    const width = holder.clientWidth;
    if (!width || Math.abs(width - drawn) < 2) return;
    drawn = width;
    replace(holder, historySvg(history, width));
  };
  if (typeof ResizeObserver === "function") new ResizeObserver(draw).observe(holder);
  requestAnimationFrame(draw);
  holder.append(historySvg(history, 600)); // until it is laid out
  return h("figure", { class: "rc-chart", "data-testid": "rating-figure" },
    h("figcaption", { class: "muted" }, t("rating.chart_caption")), holder);
}
