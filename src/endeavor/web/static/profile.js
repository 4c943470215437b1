// @ts-check
// A player's profile (/players/{name}, GET /api/players/{name}): the name and since when
// they have an account, games played and finished, their places, then per ruleset family
// the rating with its uncertainty, the bot level they play like and the rating over their
// rated games as a chart, then their recent games with links to replays and reviews.

import { ApiError } from "./api.js";
import { h, href, linkHref, problemPage, replace } from "./dom.js";
import { t } from "./i18n.js";
import { dayWords, historyFigure } from "./ratingchart.js";
import { cannotLoad } from "./leaderboard.js";
import { familyName, leaderboardHref, ratingHtml, ratingsApi } from "./ratings.js";

/** @typedef {import("./ratings.js").Profile} Profile */
/** @typedef {import("./ratings.js").FamilyRating} FamilyRating */
/** @typedef {import("./ratings.js").RecentGame} RecentGame */

/**
 * A place in the reader's words ("2nd", "2e").
 * @param {number} place
 */
export function placeWords(place) {
  const key = `rating.place_${place}`;
  const words = t(key);
  return words === key ? t("rating.place_n", { n: place }) : words;
}

/**
 * A figure with its label: "12" over "games played".
 * @param {string | number} value
 * @param {string} label
 * @param {string} testid
 */
function stat(value, label, testid) {
  return h("div", { class: "stat", "data-testid": testid }, h("b", {}, String(value)), h("span", { class: "muted" }, label));
}

/**
 * The games and the places.
 * @param {Profile} p
 */
function statsHtml(p) {
  const r = p.results;
  return h("section", { class: "card-box stats", "data-testid": "profile-stats", "aria-label": t("rating.stats") },
    stat(p.games_played, t("rating.games_played", { n: p.games_played }), "games-played"),
    stat(p.games_finished, t("rating.games_finished", { n: p.games_finished }), "games-finished"),
    stat(r.first, t("rating.firsts", { n: r.first }), "result-first"),
    stat(r.second, t("rating.seconds", { n: r.second }), "result-second"),
    stat(r.third, t("rating.thirds", { n: r.third }), "result-third"),
    stat(r.other, t("rating.others", { n: r.other }), "result-other"));
}

/**
 * One family's rating: the number, the bot level it is nearest, the chart.
 * @param {FamilyRating} r
 */
function familyCard(r) {
  return h("section", { class: "card-box family-rating", "data-testid": `rating-${r.family}` },
    h("div", { class: "family-head" },
      h("h3", {}, h("a", { href: leaderboardHref(r.family) }, familyName(r.family))),
      h("span", { class: "family-number", "data-testid": "family-rating" }, ratingHtml(r)),
      h("span", { class: "muted" }, t("rating.over_games", { n: r.games }))),
    r.plays_like ? h("p", { class: "plays-like", "data-testid": "plays-like" },
      t("rating.plays_like", { bot: r.plays_like })) : null,
    r.history.length ? historyFigure(r.history) : null);
}

/**
 * One recent game.
 * @param {RecentGame} g
 */
function recentRow(g) {
  return h("tr", { "data-testid": "recent-game", "data-id": g.game_id },
    h("td", { class: "title-cell" }, h("span", { translate: "no" }, g.title)),
    h("td", {}, h("span", { class: `status ${g.status}` }, t(`lobby.status_${g.status}`))),
    h("td", { class: "muted wide" }, g.finished ? dayWords(g.finished) : "—"),
    h("td", { class: "num", "data-testid": "recent-place" },
      g.place ? t("rating.place_of", { place: placeWords(g.place), n: g.players }) : "—"),
    h("td", { class: "num wide" }, g.score === null ? "—" : String(g.score)),
    h("td", { class: "links" },
      h("a", { class: "btn small", href: linkHref(g.replay), "data-testid": "recent-replay" }, t("head.replay")),
      g.review ? h("a", { class: "btn small", href: linkHref(g.review), "data-testid": "recent-review" }, t("tab.review")) : null));
}

/** @param {RecentGame[]} recent */
function recentHtml(recent) {
  return h("section", { class: "card-box recent", "data-testid": "recent" },
    h("h2", {}, t("rating.recent")),
    recent.length ? h("table", { class: "games recent-games" },
      h("thead", {}, h("tr", {},
        h("th", {}, t("lobby.col_game")), h("th", {}, t("lobby.col_status")),
        h("th", { class: "wide" }, t("rating.col_finished")), h("th", { class: "num" }, t("rating.col_place")),
        h("th", { class: "num wide" }, t("rating.col_score")), h("th", {}, ""))),
      h("tbody", {}, recent.map(recentRow)))
      : h("p", { class: "muted", "data-testid": "recent-empty" }, t("rating.no_recent")));
}

/**
 * @param {HTMLElement} root
 * @param {string} name
 */
export async function profileScreen(root, name) {
  document.title = `${name} · Endeavor`;
  replace(root, h("p", { class: "muted" }, t("common.loading")));
  /** @type {Profile} */
  let p;
  try {
    p = await ratingsApi.player(name);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      problemPage(root, t("rating.no_player_heading"), t("rating.no_player", { name }),
        [h("a", { class: "btn primary", href: href("/leaderboard") }, t("rating.leaderboard")),
          h("a", { class: "btn", href: href("/") }, t("common.back_to_lobby"))], "no-player");
    } else cannotLoad(root, err);
    return;
  }
  replace(root,
    h("a", { href: href("/leaderboard"), class: "back" }, "← ", t("rating.leaderboard")),
    h("header", { class: "profile-head" },
      h("h1", { translate: "no", "data-testid": "profile-name" }, p.name),
      h("span", { class: "muted", "data-testid": "member-since" }, t("rating.member_since", { day: dayWords(p.created) }))),
    statsHtml(p),
    h("h2", { class: "section-title" }, t("rating.ratings")),
    p.ratings.length ? h("div", { class: "family-ratings" }, p.ratings.map(familyCard))
      : h("p", { class: "muted", "data-testid": "no-ratings" }, t("rating.no_ratings")),
    recentHtml(p.recent));
}
