// @ts-check
// The browser app's entry point: routes by location.pathname (the server serves this
// page for /, /new, /rules, /play/{id}, /game/{id}, /host/{id}, /replay/{id}, the
// account's pages, /account, /account/games, /account/reset, /account/notifications and
// /account/link, and the ratings', /leaderboard, /leaderboard/{family} and
// /players/{name}, and with status 404 for any other address, which gets the "Nothing
// here" page).

import { accountScreen, resetScreen } from "./account.js";
import { accountGamesScreen } from "./accountgames.js";
import { accountLinkScreen } from "./accountlink.js";
import { accountNotifyScreen } from "./accountnotify.js";
import { gameScreen } from "./game.js";
import { hostScreen } from "./host.js";
import { howtoScreen } from "./howto.js";
import { leaderboardScreen } from "./leaderboard.js";
import { lobbyScreen } from "./lobby.js";
import { newGameScreen } from "./newgame.js";
import { profileScreen } from "./profile.js";
import { replayScreen } from "./replay.js";
import { BASE, h, href, problemPage } from "./dom.js";
import { languageSwitch, loadCatalogs, locale, t } from "./i18n.js";
import { accountLink } from "./session.js";

/**
 * The account's pages, by path: the body's data-screen and the screen.
 * @type {Record<string, [string, (root: HTMLElement) => unknown]>}
 */
const ACCOUNT_PAGES = {
  "/account": ["account", accountScreen],
  "/account/games": ["account-games", accountGamesScreen],
  "/account/reset": ["account-reset", resetScreen],
  "/account/notifications": ["account-notifications", accountNotifyScreen],
  "/account/link": ["account-link", accountLinkScreen],
};

async function route() {
  const root = /** @type {HTMLElement} */ (document.getElementById("app")); // index.html's
  const full = location.pathname;
  const path = (full.startsWith(BASE) ? full.slice(BASE.length) : full).replace(/\/+$/, "") || "/";
  const match = path.match(/^\/(play|game|host|replay)\/([^/]+)$/) || path.match(/^\/(replay)\/([^/]+)\/(\d+)$/);
  const id = match ? decodeURIComponent(match[2]) : "";
  const rated = path.match(/^\/(leaderboard)(?:\/([^/]+))?$/) || path.match(/^\/(players)\/([^/]+)$/);
  if (rated) {
    document.body.dataset.screen = rated[1];
    const name = rated[2] === undefined ? null : decodeURIComponent(rated[2]);
    return rated[1] === "leaderboard" ? leaderboardScreen(root, name) : profileScreen(root, name || "");
  }
  document.body.dataset.screen = match ? match[1] : path === "/new" ? "new" : path === "/" ? "lobby"
    : path === "/rules" ? "rules" : "nothing";
  const account = Object.hasOwn(ACCOUNT_PAGES, path) ? ACCOUNT_PAGES[path] : null;
  if (account) {
    document.body.dataset.screen = account[0];
    return account[1](root);
  }
  if (path === "/") return lobbyScreen(root);
  if (path === "/new") return newGameScreen(root);
  if (path === "/rules") return howtoScreen(root);
  if (match && match[1] === "play") return gameScreen(root, id);
  if (match && match[1] === "game") return gameScreen(root, id, { spectator: true });
  if (match && match[1] === "host") return hostScreen(root, id);
  if (match && match[1] === "replay") return replayScreen(root, id, match[3] === undefined ? null : Number(match[3]));
  problemPage(root, t("app.nothing_here"), t("app.no_page", { path: full }),
    [h("a", { class: "btn primary", href: href("/"), "data-testid": "to-lobby" }, t("common.back_to_lobby")),
      h("a", { class: "btn", href: href("/new") }, t("common.new_game"))], "nothing-here");
  return null;
}

// a seat's link that differs from this page's only after the # (another seat of the same
// game) is a new page, not a scroll position; on How to play the # is the tab shown
window.addEventListener("hashchange", () => {
  if (document.body.dataset.screen !== "rules") location.reload();
});

/** The site's header (index.html's) in the reader's language, with the language switch. */
function topbar() {
  const bar = document.querySelector(".topbar");
  if (!bar) return;
  bar.setAttribute("aria-label", t("page.site"));
  const howto = bar.querySelector("[data-testid=howto-link]");
  if (howto) howto.textContent = t("app.how_to_play");
  const make = bar.querySelector('a[href="new"]');
  if (make) make.textContent = t("common.new_game");
  const board = bar.querySelector("[data-testid=leaderboard-link]");
  if (board) board.textContent = t("rating.leaderboard");
  bar.append(accountLink(), languageSwitch());
  const loading = document.querySelector("#app > p.muted");
  if (loading) loading.textContent = t("common.loading");
  footer();
}

/**
 * The footer the server wrote ("Endeavor 1.2 · engine: pure Python") in the reader's
 * language (English: as written).
 */
function footer() {
  const box = document.getElementById("site-footer");
  const said = box && box.textContent ? box.textContent.match(/^Endeavor (\S+) · engine: (.+)$/) : null;
  if (!box || !said || locale() === "en") return;
  /** @type {Record<string, string>} the server's words for its engine (compute/engines.py) */
  const engines = {
    "pure Python": t("page.engine_pure"),
    "pure Python (in worker processes)": t("page.engine_workers"),
    "pure Python (compiled build in progress)": t("page.engine_building"),
    "pure Python (the compiled build failed)": t("page.engine_failed"),
    "pure Python (the compiled build is of other sources)": t("page.engine_stale"),
    "compiled (mypyc)": t("page.engine_compiled"),
  };
  box.textContent = t("page.footer", { version: said[1], engine: engines[said[2]] || said[2] });
}

loadCatalogs().then(topbar).then(route).finally(() => { document.body.dataset.ready = "1"; });
