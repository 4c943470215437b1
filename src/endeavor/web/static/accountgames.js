// @ts-check
// /account/games: "Your games" of the account signed in, on any device (GET
// /api/account/games): each claimed seat's game with its players, whose move it is (yours
// highlighted), its status and the seat's link (or that the host issued a new one), the
// latest activity first.

import { ApiError } from "./api.js";
import { h, href, linkHref, problemPage, replace } from "./dom.js";
import { t } from "./i18n.js";
import { statusText } from "./lobby.js";
import { seatTag } from "./names.js";
import { accountGames } from "./session.js";

/** @typedef {import("./session.js").AccountGame} AccountGame */

/**
 * The players of a game, each as its chip and name, yours marked.
 * @param {import("./lobby.js").GameSummary} game
 * @param {number} mine
 */
function players(game, mine) {
  return h("span", { class: "account-game-players" }, game.seats.map((s) =>
    h("span", { class: s.seat === mine ? "mine" : null }, seatTag(s.seat, game.seats),
      s.seat === mine ? h("span", { class: "muted" }, ` ${t("account_games.you")}`) : null)));
}

/** What the item's link is: open it, or why there is none. @param {AccountGame} item */
function opening(item) {
  if (!item.valid || !item.link) {
    return h("span", { class: "muted", "data-testid": "reissued" }, t("account_games.reissued"));
  }
  return h("a", { class: `btn small${item.your_move ? " primary" : ""}`, href: linkHref(item.link), "data-testid": "open-account-game" },
    item.your_move ? t("lobby.play") : t("lobby.open"));
}

/** @param {AccountGame} item */
function gameItem(item) {
  const game = item.game;
  if (!game) {
    return h("li", { class: "account-game", "data-testid": "account-game", "data-id": item.id },
      h("span", { class: "muted" }, t("account_games.gone", { id: item.id })));
  }
  const status = item.your_move
    ? h("span", { class: "status yours", "data-testid": "your-move" }, t("lobby.your_move"))
    : h("span", { class: `status ${game.status}`, "data-testid": "account-game-status" }, statusText(game, [item.seat]));
  const title = game.title || game.id;
  return h("li", { class: `account-game${item.your_move ? " your-move" : ""}`, "data-testid": "account-game", "data-id": item.id },
    h("div", { class: "account-game-head" },
      h("b", { class: "clip", title, translate: "no" }, title), status),
    players(game, item.seat),
    item.benched ? h("p", { class: "muted" }, t("account_games.benched")) : null,
    h("div", { class: "row" }, opening(item),
      h("a", { class: "btn small", href: linkHref(game.spectate_url) }, t("lobby.watch"))));
}

/** @param {HTMLElement} root */
export async function accountGamesScreen(root) {
  document.title = `${t("account.your_games")} · Endeavor`;
  let answer;
  try {
    answer = await accountGames();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      problemPage(root, t("account.your_games"), t("account_games.sign_in_first"), [
        h("a", { class: "btn primary", href: `${href("/account")}?next=/account/games`, "data-testid": "to-sign-in" }, t("account.sign_in")),
        h("a", { class: "btn", href: href("/") }, t("common.back_to_lobby"))], "account-games-signed-out");
      return;
    }
    problemPage(root, t("account.your_games"), err instanceof Error ? err.message : String(err), [
      h("button", { type: "button", class: "btn primary", onclick: () => location.reload() }, t("common.try_again"))]);
    return;
  }
  const { games, your_move: count } = answer;
  if (count) document.title = `(${count}) ${document.title}`;
  replace(root, h("section", { class: "account", "data-testid": "account-games" },
    h("div", { class: "account-games-head" },
      h("h1", {}, t("account.your_games")),
      h("a", { class: "btn small", href: href("/account") }, t("account_games.to_account"))),
    h("p", { class: "muted" }, count ? t("account_games.waiting", { n: count }) : t("account_games.every_device")),
    games.length
      ? h("ul", { class: "account-games card-box" }, games.map(gameItem))
      : h("div", { class: "card-box", "data-testid": "account-games-empty" },
        h("p", {}, t("account_games.none")),
        h("div", { class: "row" },
          h("a", { class: "btn primary", href: href("/"), "data-testid": "to-lobby" }, t("common.back_to_lobby")),
          h("a", { class: "btn", href: href("/new") }, t("common.new_game"))))));
}
