// @ts-check
// Invitations as ready-to-send text: "You're invited to ‹title› as P1 (blue square) — ‹link›",
// with a Copy button and, where the browser has one (phones), its share sheet
// (navigator.share). Shown on the page after creating a game and in the host panel's
// seat links.

import { copyText, fullUrl, h, toast } from "./dom.js";
import { COLOUR_WORDS } from "./names.js";
import { t } from "./i18n.js";

/**
 * What a seat is called in an invitation: "P1 (blue square)", or "P1 (Bo, blue square)"
 * once named (the colour and shape the board draws it with).
 * @param {number} seat
 * @param {string | null} [name]
 */
export function seatWords(seat, name = "") {
  const i = seat % COLOUR_WORDS.length;
  const look = t(`seat.look${i}`); // "blue square"
  return name && name !== `P${seat}` ? t("invite.seat_named", { p: seat, name, look }) : t("invite.seat", { p: seat, look });
}

/**
 * The invitation's text for `seats` (numbers: one, or the hot-seat ones) of `title`.
 * @param {string | null | undefined} title
 * @param {number | number[]} seats
 * @param {string} url
 * @param {string | null} [name]
 */
export function inviteText(title, seats, url, name = "") {
  const list = Array.isArray(seats) ? seats : [seats];
  const who = list.length === 1 ? seatWords(list[0], name) : t("invite.seats", { seats: list.map((p) => seatWords(p)).join(", ") });
  return title ? t("invite.text", { title, who, url: fullUrl(url) }) : t("invite.text_untitled", { who, url: fullUrl(url) });
}

/** Whether this browser has a share sheet. */
export function canShare() {
  return typeof navigator.share === "function";
}

/**
 * An invitation to send: its text (read-only, selectable), Copy and, where there is a
 * share sheet, Share. `testid` names the parts (`${testid}-text`, `-copy`, `-share`).
 * @param {string} text
 * @param {string} testid
 * @param {{ title?: string }} [options]
 */
export function inviteBox(text, testid, { title = "Endeavor" } = {}) {
  return h("div", { class: "invite", "data-testid": testid },
    h("textarea", { class: "invite-text", readonly: true, rows: 3, "data-testid": `${testid}-text`,
      "aria-label": t("invite.label") }, text),
    h("div", { class: "invite-buttons" },
      h("button", { type: "button", class: "btn small", "data-testid": `${testid}-copy`,
        onclick: () => copyText(text) }, t("invite.copy")),
      canShare() ? h("button", { type: "button", class: "btn small primary", "data-testid": `${testid}-share`,
        onclick: async () => {
          try {
            await navigator.share({ title, text });
          } catch (err) {
            if (err instanceof Error && err.name !== "AbortError") toast(t("invite.share_failed", { error: err.message }));
            else if (!(err instanceof Error)) toast(t("invite.share_failed", { error: String(err) }));
          }
        } }, t("invite.share")) : null));
}
