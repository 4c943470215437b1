// @ts-check
// A seat link that this browser should not simply take: another seat's link opened in a
// browser that already plays a seat of the game (asked first: play it here, or just
// watch), a read-only look at a seat's link (the host checking an invitation:
// /play/{id}?look#<token>), and a seat the host gave to a bot (the link watches, and
// says why, until the host hands the seat back).

import { t } from "./i18n.js";
import { h, problemPage } from "./dom.js";

/**
 * "P1" or "P0, P2".
 * @param {readonly number[]} seats
 */
export function seatsWords(seats) {
  return seats.map((p) => `P${p}`).join(", ");
}

/** Whether this page was opened read-only (?look). */
export function lookOnly() {
  return new URLSearchParams(location.search).has("look");
}

/**
 * Ask before this browser, which plays `held` seats of the game, takes the link's seats
 * `theirs`: resolves to "play" or "watch".
 * @param {Element} root
 * @param {readonly number[]} theirs
 * @param {readonly number[]} held
 * @returns {Promise<"play" | "watch">}
 */
export function askBeforeTaking(root, theirs, held) {
  const them = seatsWords(theirs);
  return new Promise((resolve) => {
    problemPage(root, t("seatlink.ask", { them }), [
      t("seatlink.already", { held: seatsWords(held) }),
      t("seatlink.just_watch_text", { them, held: seatsWords(held) }),
    ], [
      h("button", { type: "button", class: "btn primary", "data-testid": "take-seat", onclick: () => resolve("play") },
        t("seatlink.play_as", { them })),
      h("button", { type: "button", class: "btn", "data-testid": "just-watch", onclick: () => resolve("watch") },
        t("seatlink.just_watch")),
    ], "ask-seat");
  });
}

/**
 * The notices of a page that watches a seat's link: read-only, or the host's bot plays it.
 * @param {import("./types.js").View} view
 * @param {{ look?: number[] | null, onPlay?: (() => void) | null }} [options]
 */
export function seatNotices(view, { look = null, onPlay = null } = {}) {
  const out = [];
  for (const b of view.benched || []) {
    out.push(h("section", { class: "takeover benched", "data-testid": `benched-${b.seat}` },
      h("p", {}, `${b.words}.`),
      h("p", { class: "muted" }, t("seatlink.benched"))));
  }
  if (look && look.length) {
    out.push(h("section", { class: "takeover look", "data-testid": "look-only" },
      h("p", {}, t("seatlink.look", { them: seatsWords(look) })),
      onPlay ? h("button", { type: "button", class: "btn small", "data-testid": "look-play", onclick: onPlay },
        t("seatlink.play_as", { them: seatsWords(look) })) : null));
  }
  return out;
}
