// @ts-check
// The account this browser is signed in with (docs/web.md "Accounts"): who it is (GET
// /api/account, asked once per page), the header's link to the account page, and the
// question asked when a seat's link is opened while signed in (claim the seat, or not
// now: a "not now" is remembered for that seat in this browser).

import { ApiError, request } from "./api.js";
import { BASE, h, href, problemPage, s as svg, toast } from "./dom.js";
import { t } from "./i18n.js";

/**
 * Who is signed in.
 * @typedef {{ name: string, created: string }} Me
 * A game of the account's "Your games" (GET /api/account/games).
 * @typedef {{ id: string, seat: number, valid: boolean, benched: boolean, your_move: boolean,
 *   to_move: number | null, to_move_name: string | null, link: string | null, last_activity: string,
 *   game: import("./lobby.js").GameSummary | null }} AccountGame
 */

/** @type {Promise<Me | null> | null} */
let asked = null;

/**
 * Where this browser notes that it signed in (localStorage): a page asks the server who
 * is signed in only then, or on the account's own pages, so that a guest's pages make no
 * request that can only be refused. The note is no secret: the session is the cookie,
 * which no script reads.
 */
const NOTE = "endeavor.signed_in";

/** @param {boolean} on */
function note(on) {
  try {
    if (on) localStorage.setItem(NOTE, "1");
    else localStorage.removeItem(NOTE);
  } catch { /* storage refused: the account's pages still ask */ }
}

function noted() {
  try { return localStorage.getItem(NOTE) === "1"; } catch { return false; }
}

/** Whether this page is one of the account's (/account...): they always ask. */
function accountPage() {
  return location.pathname.slice(BASE.length).startsWith("/account");
}

/**
 * Who is signed in (asked once per page): null when nobody is (or the server cannot say).
 * Another page of the app that signs someone in (an e-mailed link) calls `note(true)`
 * through `signedInHere`.
 */
export function whoami() {
  if (!asked) {
    asked = !noted() && !accountPage() ? Promise.resolve(null)
      : request("GET", "/api/account").then((me) => {
        note(true);
        return /** @type {Me} */ (me);
      }, (err) => {
        if (err instanceof ApiError && err.status === 401) note(false);
        return null;
      });
  }
  return asked;
}

/** This browser has just signed in (or out: `on` false). @param {boolean} [on] */
export function signedInHere(on = true) {
  note(on);
  asked = null;
}

/**
 * A POST to an account endpoint: its answer (null for 204); throws ApiError in words.
 * @param {string} path "/api/account/..."
 * @param {unknown} [body]
 */
export function post(path, body) {
  return request("POST", path, body === undefined ? {} : { body });
}

/** @returns {Promise<{ games: AccountGame[], your_move: number }>} */
export function accountGames() {
  return request("GET", "/api/account/games");
}

/** A person's outline: the account link's icon (alone on a narrow screen). */
function personIcon() {
  return svg("svg", { class: "account-icon", viewBox: "0 0 16 16", width: 14, height: 14, "aria-hidden": "true" },
    svg("circle", { cx: 8, cy: 5, r: 3 }), svg("path", { d: "M2 15c0-3.3 2.7-5.5 6-5.5s6 2.2 6 5.5" }));
}

/** The header's link: the account's name (to /account) or "Sign in". */
export function accountLink() {
  const label = h("span", { class: "account-label" }, t("account.sign_in"));
  const link = h("a", { href: href("/account"), class: "btn small account-link", "data-testid": "account-link",
    "aria-label": t("account.sign_in") }, personIcon(), label);
  whoami().then((me) => {
    if (!me) return;
    label.textContent = me.name;
    label.setAttribute("translate", "no"); // the person's own words
    link.setAttribute("aria-label", t("account.signed_in_as", { name: me.name }));
    link.setAttribute("title", t("account.signed_in_as", { name: me.name }));
    link.dataset.signedIn = "1";
  });
  return link;
}

/** @param {string} id @param {number} seat */
const notNowKey = (id, seat) => `endeavor.claim.notnow.${id}.${seat}`;

/** @param {string} id @param {number} seat */
function saidNotNow(id, seat) {
  try { return localStorage.getItem(notNowKey(id, seat)) === "1"; } catch { return false; }
}

/** @param {string} id @param {number} seat */
function rememberNotNow(id, seat) {
  try { localStorage.setItem(notNowKey(id, seat), "1"); } catch { /* asked again next time */ }
}

/**
 * Whether the account holds seat `seat` of game `id` already (by a link that still plays it).
 * @param {string} id
 * @param {number} seat
 */
async function holds(id, seat) {
  try {
    const { games } = await accountGames();
    return games.some((g) => g.id === id && g.seat === seat && g.valid);
  } catch {
    return true; // the server cannot say: do not ask
  }
}

/**
 * A seat's link opened while signed in: when the seat (one seat, a person's) is not the
 * account's yet and no "Not now" was said for it here, ask whether to claim it. Resolves
 * once answered (and the seat claimed, or not): true when it was claimed.
 * @param {HTMLElement} root
 * @param {string} id
 * @param {string} token
 * @param {import("./types.js").View} view the seat's view
 */
export async function offerClaim(root, id, token, view) {
  const you = view.you || [];
  if (you.length !== 1 || view.over) return false;
  const seat = you[0];
  const me = await whoami();
  if (!me || saidNotNow(id, seat) || await holds(id, seat)) return false;
  return new Promise((resolve) => {
    const error = h("p", { class: "error", "data-testid": "claim-error", role: "alert", hidden: true });
    const yes = h("button", { type: "button", class: "btn primary", "data-testid": "claim-yes" }, t("claim.yes"));
    yes.addEventListener("click", async () => {
      yes.disabled = true;
      try {
        await post("/api/account/claim", { game_id: id, token });
        toast(t("claim.done", { name: me.name }), "info");
        resolve(true);
      } catch (err) {
        error.hidden = false;
        error.textContent = t("claim.refused", { error: err instanceof ApiError ? err.message : String(err) });
      }
    });
    problemPage(root, t("claim.ask", { name: me.name }), [t("claim.what", { seat: `P${seat}` })], [
      yes,
      h("button", { type: "button", class: "btn", "data-testid": "claim-not-now",
        onclick: () => { rememberNotNow(id, seat); resolve(false); } }, t("claim.not_now")),
    ], "claim-seat");
    root.querySelector("[data-testid=claim-seat] .row")?.before(error);
  });
}
