// @ts-check
// The ratings (docs/web.md "Ratings"): the calls (the families, a family's leaderboard, a
// player's profile), the words every page of them shares (a family's name, a rating with
// its uncertainty, a change), and what a rated game shows: the "Rated" mark in its header
// and, on its score pad, each seat's rating change (or that they are pending, or why the
// game was not rated).

import { request } from "./api.js";
import { h, href } from "./dom.js";
import { botName, locale, t } from "./i18n.js";
import { whoami } from "./session.js";

/**
 * @typedef {{ id: string, name: string }} Family
 * @typedef {{ rank: number, kind: "account" | "bot", name: string, level: string | null,
 *   rating: number, mu: number, sigma: number, games: number }} Standing
 * @typedef {{ family: string, name: string, players: Standing[] }} Leaderboard
 * @typedef {{ at: string, game_id: string, rating: number }} HistoryPoint
 * @typedef {{ family: string, rating: number, mu: number, sigma: number, games: number,
 *   plays_like: string | null, history: HistoryPoint[] }} FamilyRating
 * @typedef {{ game_id: string, title: string, status: string, finished: string | null,
 *   place: number | null, score: number | null, players: number, replay: string,
 *   review: string | null }} RecentGame
 * @typedef {{ name: string, created: string, games_played: number, games_finished: number,
 *   results: { first: number, second: number, third: number, other: number },
 *   ratings: FamilyRating[], recent: RecentGame[] }} Profile
 * @typedef {{ seat: number, name: string, kind: "account" | "bot", before: number,
 *   after: number, change: number }} RatingChange
 * @typedef {{ status: "pending" | "done" | "unrated", reason: string | null, family: string,
 *   changes: RatingChange[] }} GameRatings
 */

const enc = encodeURIComponent;

/** The ratings' calls. */
export const ratingsApi = {
  /** @returns {Promise<{ families: Family[] }>} */
  families: () => request("GET", "/api/ratings"),
  /** @param {string} family @returns {Promise<Leaderboard>} */
  leaderboard: (family) => request("GET", `/api/ratings/${enc(family)}`),
  /** @param {string} name @returns {Promise<Profile>} */
  player: (name) => request("GET", `/api/players/${enc(name)}`),
};

/** The page of `family`'s leaderboard. @param {string} family */
export const leaderboardHref = (family) => href(`/leaderboard/${enc(family)}`);
/** A person's profile page. @param {string} name */
export const playerHref = (name) => href(`/players/${enc(name)}`);

/**
 * A ruleset family's name in the reader's language (the server's name when the catalog
 * does not know the family).
 * @param {string} id
 * @param {string} [fallback]
 */
export function familyName(id, fallback = id) {
  const key = `rating.family_${id}`;
  const words = t(key);
  return words === key ? fallback : words;
}

/**
 * A number with one decimal, written the reader's way ("14.2", "14,2"), a negative one
 * with a true minus sign ("−3.3", as a change's), never "−0.0".
 * @param {number} x
 */
export function one(x) {
  const shown = Math.round(x * 10) === 0 ? 0 : x; // -0.04 is "0.0"
  return shown.toLocaleString(locale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 })
    .replace(/^-/, "−");
}

/**
 * A rating change with its sign: "+1.8", "−0.4", "±0.0".
 * @param {number} change
 */
export function signed(change) {
  const rounded = Math.round(change * 10) / 10;
  if (rounded === 0) return `±${one(0)}`;
  return `${rounded > 0 ? "+" : "−"}${one(Math.abs(rounded))}`;
}

/**
 * A rating and its uncertainty: "14.2" then "± 2.1" (muted), with the skill estimate
 * (mu) in the tooltip.
 * @param {{ rating: number, mu: number, sigma: number }} r
 */
export function ratingHtml(r) {
  return h("span", { class: "rating", title: t("rating.mu_sigma", { mu: one(r.mu), sigma: one(r.sigma) }) },
    h("b", { class: "rating-value" }, one(r.rating)), " ",
    h("span", { class: "muted rating-sigma" }, `± ${one(r.sigma)}`));
}

/**
 * A bot level's name, marked as a bot ("hard" with a "bot" tag).
 * @param {string} level
 */
export function botLabel(level) {
  return h("span", { class: "rated-bot" }, botName(level), " ",
    h("span", { class: "badge bot-tag" }, t("rating.bot_tag")));
}

/**
 * The header's mark of a rated game (null for another game).
 * @param {{ rated?: boolean }} view
 */
export function ratedMark(view) {
  return view.rated ? h("span", { class: "badge rated-mark", "data-testid": "rated-mark",
    title: t("rating.rated_title") }, t("rating.rated")) : null;
}

/**
 * The score pad's row of rating changes, one cell per column of `seats` ("+1.8" in green,
 * "→ 14.2" under it); null unless the ratings are done.
 * @param {number[]} seats the score pad's columns
 * @param {GameRatings | null | undefined} ratings
 */
export function ratingRow(seats, ratings) {
  if (!ratings || ratings.status !== "done" || !ratings.changes.length) return null;
  const bySeat = new Map(ratings.changes.map((c) => [c.seat, c]));
  return h("tr", { class: "rating-row", "data-testid": "rating-row" },
    h("th", { scope: "row" }, t("rating.row")),
    seats.map((seat) => {
      const c = bySeat.get(seat);
      if (!c) return h("td", {}, "");
      const way = Math.round(c.change * 10) === 0 ? "same" : c.change > 0 ? "up" : "down";
      return h("td", { class: `rating-change ${way}`, "data-testid": `rating-change-${seat}`,
        title: t("rating.change_title", { before: one(c.before), after: one(c.after) }) },
      h("b", { class: "delta" }, signed(c.change)), " ", h("span", { class: "after" }, `→ ${one(c.after)}`));
    }));
}

/**
 * The line under a rated game's score pad: pending, not rated (and why), or where the
 * new ratings are (the family's leaderboard). Null for a game that is not rated.
 * @param {GameRatings | null | undefined} ratings
 */
export function ratingNote(ratings) {
  if (!ratings) return null;
  const family = familyName(ratings.family);
  if (ratings.status === "pending") {
    return h("p", { class: "rating-note pending", "data-testid": "rating-status", "data-status": "pending" },
      t("rating.pending"));
  }
  if (ratings.status === "unrated") {
    return h("p", { class: "rating-note unrated", "data-testid": "rating-status", "data-status": "unrated" },
      ratings.reason ? t("rating.unrated_because", { reason: ratings.reason }) : t("rating.unrated"));
  }
  return h("p", { class: "rating-note done", "data-testid": "rating-status", "data-status": "done" },
    t("rating.done", { family }), " ",
    h("a", { href: leaderboardHref(ratings.family), "data-testid": "rating-leaderboard" }, t("rating.see_leaderboard")));
}

/**
 * Ask for the view again every few seconds while a finished rated game's ratings are
 * pending (they follow the game's end in a job, without a move to announce them).
 * `watch(view)` after each drawing.
 * @param {() => unknown} refresh
 * @param {number} [every] milliseconds
 */
export function pendingRatings(refresh, every = 4000) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @param {{ over?: boolean, ratings?: GameRatings | null }} view */
  return (view) => {
    clearTimeout(timer);
    if (!view.over || !view.ratings || view.ratings.status !== "pending") return;
    timer = setTimeout(() => refresh(), every);
  };
}

/**
 * The new-game form's "Rated game" checkbox, explained in one line: it can be ticked only
 * by someone signed in (`whoami` of session.js), else a link says to sign in first.
 * `checked()`: whether to ask for a rated game.
 */
export function ratedChoice() {
  const box = h("input", { type: "checkbox", name: "rated", "data-testid": "rated", disabled: true });
  const signIn = h("span", { class: "hint rated-sign-in", "data-testid": "rated-sign-in", hidden: true },
    h("a", { href: href("/account") }, t("rating.sign_in_to_rate")));
  const el = h("div", { class: "rated-choice", "data-testid": "rated-choice" },
    h("label", { class: "field inline" }, box, t("rating.rated_game")),
    h("span", { class: "hint" }, t("rating.rated_hint")), " ", signIn);
  whoami().then((me) => {
    box.disabled = !me;
    signIn.hidden = Boolean(me);
  });
  return { el, checked: () => !box.disabled && box.checked };
}
