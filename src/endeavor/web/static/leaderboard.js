// @ts-check
// The leaderboard (/leaderboard, /leaderboard/{family}): a tab per ruleset family (GET
// /api/ratings), then the family's players, people and bot levels together, by rating
// (GET /api/ratings/{family}): rank, name (a person links to their profile; a bot level
// is named in the reader's language and marked as a bot), the rating with its
// uncertainty, and the rated games played.

import { ApiError } from "./api.js";
import { h, href, problemPage, replace } from "./dom.js";
import { t } from "./i18n.js";
import {
  botLabel, familyName, leaderboardHref, playerHref, ratingHtml, ratingsApi,
} from "./ratings.js";

/** @typedef {import("./ratings.js").Family} Family */
/** @typedef {import("./ratings.js").Standing} Standing */
/** @typedef {import("./ratings.js").Leaderboard} Leaderboard */

/**
 * The tabs of the families, the one shown marked.
 * @param {Family[]} families
 * @param {string} current
 */
function familyTabs(families, current) {
  return h("nav", { class: "family-tabs", "aria-label": t("rating.families"), "data-testid": "family-tabs" },
    families.map((f) => h("a", {
      href: leaderboardHref(f.id), class: `family-tab${f.id === current ? " on" : ""}`,
      "aria-current": f.id === current ? "page" : null, "data-testid": `family-${f.id}`,
    }, familyName(f.id, f.name))));
}

/**
 * One player's row.
 * @param {Standing} p
 */
function standingRow(p) {
  const who = p.kind === "bot"
    ? botLabel(p.level || p.name)
    : h("a", { href: playerHref(p.name), translate: "no", "data-testid": "player-link" }, p.name);
  return h("tr", { class: `standing ${p.kind}`, "data-testid": "standing", "data-kind": p.kind },
    h("td", { class: "num rank" }, String(p.rank)),
    h("td", { class: "who" }, who),
    h("td", { class: "num", "data-testid": "standing-rating" }, ratingHtml(p)),
    h("td", { class: "num", "data-testid": "standing-games" }, String(p.games)));
}

/**
 * The family's table, or words saying nobody is rated in it yet.
 * @param {Leaderboard} board
 */
export function leaderboardTable(board) {
  const name = familyName(board.family, board.name);
  if (!board.players.length) {
    return h("p", { class: "muted empty", "data-testid": "leaderboard-empty" }, t("rating.empty", { family: name }));
  }
  return h("table", { class: "leaderboard", "data-testid": "leaderboard" },
    h("caption", { class: "muted" }, t("rating.caption", { family: name })),
    h("thead", {}, h("tr", {},
      h("th", { class: "num", scope: "col" }, t("rating.col_rank")),
      h("th", { scope: "col" }, t("rating.col_player")),
      h("th", { class: "num", scope: "col", title: t("rating.col_rating_title") }, t("rating.col_rating")),
      h("th", { class: "num", scope: "col" }, t("rating.col_games")))),
    h("tbody", {}, board.players.map(standingRow)));
}

/**
 * @param {HTMLElement} root
 * @param {string | null} family the family asked for (null: the first)
 */
export async function leaderboardScreen(root, family) {
  document.title = `${t("rating.leaderboard")} · Endeavor`;
  const back = h("a", { href: href("/"), class: "back" }, "← ", t("head.lobby"));
  replace(root, back, h("p", { class: "muted" }, t("common.loading")));
  /** @type {Family[]} */
  let families;
  try {
    families = (await ratingsApi.families()).families;
  } catch (err) {
    cannotLoad(root, err);
    return;
  }
  const current = family || (families[0] ? families[0].id : "");
  const body = h("section", { class: "card-box leaderboard-box", "data-testid": "leaderboard-box" },
    h("p", { class: "muted" }, t("common.loading")));
  replace(root, back,
    h("h1", {}, t("rating.leaderboard")),
    h("p", { class: "muted rating-how" }, t("rating.how")),
    familyTabs(families, current), body);
  try {
    const board = await ratingsApi.leaderboard(current);
    document.title = `${t("rating.leaderboard")} · ${familyName(board.family, board.name)} · Endeavor`;
    replace(body, leaderboardTable(board));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      problemPage(root, t("rating.no_family_heading"), t("rating.no_family", { family: current }),
        [h("a", { class: "btn primary", href: href("/leaderboard"), "data-testid": "to-leaderboard" }, t("rating.leaderboard"))],
        "no-family");
    } else cannotLoad(root, err);
  }
}

/**
 * A page saying the ratings could not be read, and why.
 * @param {HTMLElement} root
 * @param {unknown} err
 */
export function cannotLoad(root, err) {
  problemPage(root, t("rating.cannot_load"), err instanceof Error ? err.message : String(err),
    [h("a", { class: "btn", href: href("/") }, t("common.back_to_lobby"))], "ratings-problem");
}
