// @ts-check
// Play again, at the end of a game: a rematch with the same rules, options, people and
// bots (a new seed), the seats rotated (each one seat on) or kept, the proposer as its
// host. Every seat's page of the finished game then shows "Join the rematch", which
// exchanges the seat's old token for its new one (no new link to send); the spectator's
// page says a rematch is being played. The panel looks for a rematch every few seconds
// while the finished game's page is open and visible, so one proposed elsewhere shows.

import { t } from "./i18n.js";
import { ApiError, request } from "./api.js";
import { h, href, linkHref, replace, toast } from "./dom.js";
import { addToken, hostToken, setCurrentToken, setHostFlag, setHostToken } from "./tokens.js";

/** How often a finished game's page looks for a rematch proposed elsewhere (ms). */
const LOOK_EVERY = 4000;

const path = (/** @type {string} */ id) => `/api/games/${encodeURIComponent(id)}/rematch`;

/**
 * @typedef {{ rematch_id?: string | null, rematch_spectate_url?: string | null }} RematchStatus
 * GET .../rematch: the rematch proposed, if any
 */

/**
 * The rematch's calls.
 * @type {{
 *   status: (id: string) => Promise<RematchStatus>,
 *   propose: (id: string, token: string, seats: string) => Promise<{ id: string, host_token: string,
 *     token?: string | null, spectate_url: string }>,
 *   join: (id: string, token: string) => Promise<{ id: string, token: string }>,
 * }}
 */
export const rematchApi = {
  status: (id) => request("GET", path(id)),
  propose: (id, token, seats) => request("POST", path(id), { token, body: { seats } }),
  join: (id, token) => request("POST", `${path(id)}/join`, { token }),
};

/**
 * @param {string} id
 * @param {string} token
 */
function playHref(id, token) {
  return href(`/play/${encodeURIComponent(id)}#${encodeURIComponent(token)}`);
}

/**
 * Open this browser's seat in the rematch `id` (its token kept like any seat's).
 * @param {string} id
 * @param {string} token
 */
function openSeat(id, token) {
  addToken(id, token);
  setCurrentToken(id, token);
  location.href = playHref(id, token);
}

/**
 * The rematch panel of game `id`'s page, for `token` (a seat's; "" on a spectator's
 * page): `el` to place where the end of the game is shown, `update(view)` after each
 * view (it shows only once the game is over).
 * @param {string} id
 * @param {string} token
 */
export function rematchPanel(id, token) {
  const el = h("section", { class: "rematch", "data-testid": "rematch", hidden: true });
  /** @type {RematchStatus | null} GET .../rematch, once asked */
  let status = null;
  /** @type {ReturnType<typeof setInterval> | null} */
  let looking = null;
  let busy = false;
  let over = false;
  let drawn = ""; // what the panel shows now (drawn again only when that changes)

  const canPropose = () => Boolean(token || hostToken(id));

  async function look() {
    try {
      status = await rematchApi.status(id);
    } catch {
      return; // asked again at the next look
    }
    draw();
    if (status && status.rematch_id && looking) {
      clearInterval(looking);
      looking = null;
    }
  }

  /** @param {string} order "rotate" or "keep" */
  async function propose(order) {
    if (busy) return;
    busy = true;
    draw();
    try {
      const made = await rematchApi.propose(id, token || hostToken(id), order);
      setHostToken(made.id, made.host_token);
      if (made.token) {
        openSeat(made.id, made.token);
        return;
      }
      setHostFlag(made.id); // the host without a seat: the new game with its host panel
      location.href = linkHref(made.spectate_url);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) await look();
      toast(t("rematch.play_error", { error: err instanceof Error ? err.message : String(err) }));
    } finally {
      busy = false;
      draw();
    }
  }

  async function join() {
    if (busy) return;
    busy = true;
    draw();
    try {
      const got = await rematchApi.join(id, token);
      openSeat(got.id, got.token);
    } catch (err) {
      toast(t("rematch.join_error", { error: err instanceof Error ? err.message : String(err) }));
    } finally {
      busy = false;
      draw();
    }
  }

  function draw() {
    el.hidden = !over || !status || (!status.rematch_id && !canPropose());
    if (el.hidden || !status) return;
    const shown = `${status.rematch_id || ""}|${token}`;
    el.querySelectorAll("button").forEach((b) => { b.disabled = busy; });
    if (shown === drawn) return; // keep the choice being made
    drawn = shown;
    if (status.rematch_id) {
      if (token) {
        replace(el, h("p", { class: "rematch-line" }, t("rematch.proposed")),
          h("button", { type: "button", class: "btn primary", "data-testid": "rematch-join", disabled: busy,
            onclick: join }, t("rematch.join")));
      } else {
        const host = hostToken(status.rematch_id);
        replace(el, h("p", { class: "rematch-line" }, t("rematch.played")),
          h("a", { class: "btn primary", "data-testid": "rematch-watch",
            href: host ? href(`/host/${encodeURIComponent(status.rematch_id)}#${encodeURIComponent(host)}`)
              : linkHref(status.rematch_spectate_url || "") },
          host ? t("rematch.open") : t("rematch.watch")));
      }
      return;
    }
    const name = `rematch-seats-${id}`;
    const choice = (/** @type {string} */ value, /** @type {string} */ text, /** @type {boolean} */ checked) => h("label", { class: "rematch-choice" },
      h("input", { type: "radio", name, value, checked: checked ? "" : null, "data-testid": `rematch-${value}` }), ` ${text}`);
    const form = h("form", { class: "rematch-form", onsubmit: (/** @type {Event} */ event) => {
      event.preventDefault();
      const picked = /** @type {HTMLInputElement | null} */ (form.querySelector(`input[name="${name}"]:checked`));
      propose(picked ? picked.value : "rotate");
    } },
    h("fieldset", {}, h("legend", {}, t("lobby.col_seats")),
      choice("rotate", t("rematch.rotate"), true),
      choice("keep", t("rematch.keep"), false)),
    h("button", { type: "submit", class: "btn primary", "data-testid": "play-again", disabled: busy },
      t("rematch.play_again")));
    replace(el, h("p", { class: "rematch-line muted" },
      t("rematch.text")), form);
  }

  return {
    el,
    /** @param {import("./types.js").View | null} view */
    update(view) {
      over = Boolean(view && view.over);
      if (over && !status) look();
      if (over && !looking && !(status && status.rematch_id)) {
        looking = setInterval(() => {
          if (!document.body.contains(el) && status) {
            clearInterval(looking ?? undefined);
            looking = null;
            return;
          }
          if (!document.hidden) look();
        }, LOOK_EVERY);
      }
      draw();
    },
  };
}
