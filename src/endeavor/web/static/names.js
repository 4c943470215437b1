// @ts-check
// Seats' names: the names of the game on screen (set from each view), a seat drawn as a
// chip (its colour and shape, "P1") with its name beside it, the engine's words with
// every "P1" shown that way, the line that says who won, and the small dialog where a
// player names their seat (asked once, when a seat not yet named is first opened; the
// name this browser used last is offered).

import { locale, t } from "./i18n.js";
import { langQuery, request } from "./api.js";
import { h, s, COLOURS, modal, toast } from "./dom.js";

/** @typedef {import("./types.js").Seat} Seat */
/** @typedef {import("./types.js").View} View */
/** @typedef {{ seat: number, total: number, rank: number }} Score */

const LAST_NAME = "endeavor.name";
const LATER = "endeavor.name-later."; // + game id + "." + seat: "Later" was said there

/** @param {string} key */
function stored(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

/**
 * @param {string} key
 * @param {string} value
 */
function store(key, value) {
  try { localStorage.setItem(key, value); } catch { /* storage disabled */ }
}
/** The seats' colours and shapes in words, as the board draws them (names.py's). */
export const COLOUR_WORDS = ["red", "blue", "yellow", "green", "purple"];
export const SHAPE_WORDS = ["circle", "square", "diamond", "hexagon", "pentagon"];
export const MAX_NAME = 24;

/** @type {readonly (Seat | null | undefined)[]} the seats of the game on screen */
let current = [];

/**
 * Use `seats` (a view's) for the names drawn from now on.
 * @param {readonly (Seat | null | undefined)[] | null | undefined} seats
 */
export function setSeats(seats) {
  current = Array.isArray(seats) ? seats : [];
}

/**
 * Seat `p`'s name ("Anna"), or "P1" for a seat not named (or not known); a bot's
 * seat nobody named by its level, in the reader's language ("Robot moyen").
 * @param {number} p
 * @param {readonly (Seat | null | undefined)[]} [seats]
 */
export function seatName(p, seats = current) {
  const seat = seats[p];
  if (!seat || !seat.name) return `P${p}`;
  // a bot's seat nobody named is called by its level ("Medium bot", "Medium bot 2"):
  // in the reader's language
  if (seat.kind === "bot" && seat.named === false && seat.bot && locale() !== "en") {
    const n = seat.name.match(/ (\d+)$/);
    return t("names.bot_default", { bot: seat.bot }) + (n ? ` ${n[1]}` : "");
  }
  return seat.name;
}

/**
 * Whether seat `p` has a name of its own (not just its number).
 * @param {number} p
 * @param {readonly (Seat | null | undefined)[]} seats
 */
function hasName(p, seats) {
  const seat = seats[p];
  return !!(seat && seat.name && seat.name !== `P${p}`);
}

/**
 * Seat `p` in words for a tooltip: "Anna (P1)", or "P1".
 * @param {number} p
 * @param {readonly (Seat | null | undefined)[]} [seats]
 */
export function seatWords(p, seats = current) {
  return hasName(p, seats) ? `${seatName(p, seats)} (P${p})` : `P${p}`;
}

/**
 * "P1, blue square"
 * @param {number} p
 */
export function seatLook(p) {
  const i = p % COLOUR_WORDS.length;
  return t("seat.look", { p, look: t(`seat.look${i}`) });
}

/**
 * The small shape of seat `p` in its colour (the board's disc, as an inline SVG).
 * @param {number} p
 */
function shape(p) {
  const fill = COLOURS[p % COLOURS.length];
  const attrs = { fill, stroke: "rgba(0,0,0,.45)", "stroke-width": 1 };
  const poly = (/** @type {number} */ n, /** @type {number} */ rot) => Array.from({ length: n }, (_, k) => {
    const a = rot + (2 * Math.PI * k) / n;
    return `${(6 + 5.2 * Math.cos(a)).toFixed(2)},${(6 + 5.2 * Math.sin(a)).toFixed(2)}`;
  }).join(" ");
  const kinds = [
    () => s("circle", { ...attrs, cx: 6, cy: 6, r: 4.8 }),
    () => s("rect", { ...attrs, x: 1.5, y: 1.5, width: 9, height: 9, rx: 1 }),
    () => s("polygon", { ...attrs, points: poly(4, -Math.PI / 2) }),
    () => s("polygon", { ...attrs, points: poly(6, 0) }),
    () => s("polygon", { ...attrs, points: poly(5, -Math.PI / 2) }),
  ];
  return s("svg", { class: "chip-shape", viewBox: "0 0 12 12", width: 12, height: 12, "aria-hidden": "true" },
    kinds[p % kinds.length]());
}

/**
 * A seat's chip: its shape in its colour and "P1" (the seat's number stays in sight).
 * @param {number} p
 */
export function seatChip(p) {
  return h("span", { class: "seat-chip", style: `--seat:${COLOURS[p % COLOURS.length]}`, title: seatLook(p) },
    shape(p), `P${p}`);
}

/**
 * Seat `p` as the page names it: its chip, then its name (when it has one).
 * @param {number} p
 * @param {readonly (Seat | null | undefined)[]} [seats]
 */
export function seatTag(p, seats = current) {
  return h("span", { class: "seat-tag", "data-seat": p },
    seatChip(p), hasName(p, seats) ? h("span", { class: "seat-name" }, seatName(p, seats)) : null);
}

/**
 * The engine's words with every seat they name ("P1") drawn as seatTag: a list of
 * strings and elements, to append. Only the game's seats are matched.
 * @param {string} text
 * @param {readonly (Seat | null | undefined)[]} [seats]
 */
export function withNames(text, seats = current) {
  /** @type {(string | HTMLElement)[]} */
  const out = [];
  const re = /\bP(\d)\b/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const p = Number(m[1]);
    if (p >= seats.length) continue;
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push(seatTag(p, seats));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/**
 * The engine's words with every "P1" in words ("Anna (P1)"): for tooltips and titles.
 * @param {string} text
 * @param {readonly (Seat | null | undefined)[]} [seats]
 */
export function namesInWords(text, seats = current) {
  return String(text).replace(/\bP(\d)\b/g, (all, d) => (Number(d) < seats.length ? seatWords(Number(d), seats) : all));
}

/**
 * Who won, in one line: "Anna wins with 71 — Bea 67, Medium bot 62, Cy 51" (ranks as the
 * rules give them: equal totals share a rank, and the seats sharing the first share the
 * win). Null without scores. The same words as the messages' (names.py).
 * @param {readonly Score[] | null | undefined} scores
 * @param {readonly (Seat | null | undefined)[]} [seats]
 */
export function resultLine(scores, seats = current) {
  if (!scores || !scores.length) return null;
  const ordered = [...scores].sort((a, b) => a.rank - b.rank || b.total - a.total || a.seat - b.seat);
  const best = ordered[0].rank;
  const winners = ordered.filter((x) => x.rank === best);
  const rest = ordered.filter((x) => x.rank !== best);
  const names = winners.map((x) => seatName(x.seat, seats));
  const head = winners.length === 1 ? t("result.wins", { name: names[0], total: winners[0].total })
    : t("result.share", { names: names.slice(0, -1).join(", "), last: names[names.length - 1], total: winners[0].total });
  return rest.length ? `${head} — ${rest.map((x) => `${seatName(x.seat, seats)} ${x.total}`).join(", ")}` : head;
}

/** The name this browser used last (offered when a seat asks for one), or "". */
export function lastName() {
  return stored(LAST_NAME) || "";
}

/** Keep `name` as the name this browser offers next time. */
/** @param {string} name */
export function rememberName(name) {
  store(LAST_NAME, name);
}

/** Put a seat's name (the seat's player, with `token`). Resolves to the new view. */
/**
 * @param {string} id
 * @param {string} token
 * @param {number} seat
 * @param {string} name
 * @returns {Promise<View>}
 */
export function putName(id, token, seat, name) {
  return request("PUT", `/api/games/${encodeURIComponent(id)}/name${langQuery()}`, { token, body: { name, seat } });
}

/** The host names seat `seat`. Resolves to the host panel. */
/**
 * @param {string} id
 * @param {string} hostToken
 * @param {number} seat
 * @param {string} name
 */
export function hostPutName(id, hostToken, seat, name) {
  return request("PUT", `/api/games/${encodeURIComponent(id)}/host/seats/${seat}/name`, { token: hostToken, body: { name } });
}

/**
 * A name's text field, its error line and the form's submit handler: `save(name)` does
 * the request (its error is shown under the field), then `saved(result, name)`.
 * @template R what the request resolves to
 * @param {{ label: string, value: string, placeholder?: string | null,
 *   save: (name: string) => Promise<R>, saved: (result: R, name: string) => void }} options
 */
function nameField({ label, value, placeholder = null, save, saved }) {
  const input = h("input", {
    type: "text", name: "name", maxlength: MAX_NAME, required: true, autocomplete: "nickname",
    "data-testid": "name-input", "aria-label": label, value, placeholder,
  });
  const error = h("p", { class: "error", "data-testid": "name-error", role: "alert", hidden: true });
  const say = (/** @type {string} */ words) => {
    error.hidden = false;
    error.textContent = words;
  };
  const submit = async (/** @type {Event} */ event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) {
      say(t("name.type"));
      return;
    }
    try {
      saved(await save(name), name);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      say(message.charAt(0).toUpperCase() + message.slice(1));
    }
  };
  return { input, error, submit };
}

/**
 * The dialog naming seat `seat` ("What's your name?"): prefilled with its name, or the
 * name this browser used last; `save(name)` does the request (an error is shown in the
 * dialog, which stays open); `done(result)` once saved. `first`: asked on opening the
 * seat for the first time (the dialog says so, and "Later" closes it). `own`: the
 * player's own seat (the name is offered again next time); false for the host's.
 * @template R what `save` resolves to
 * @param {{ seat: number, name?: string, first?: boolean, heading?: string,
 *   save: (name: string) => Promise<R>, done: (result: R) => void, own?: boolean }} options
 */
export function nameDialog({ seat, name = "", first = false, heading, save, done, own = true }) {
  const { dialog, body } = modal(heading || (first ? t("name.welcome") : t("name.for", { p: seat })), "name-dialog");
  const { input, error, submit } = nameField({
    label: own ? t("name.yours") : t("name.name"), value: name || (own ? lastName() : ""), save,
    saved: (result, value) => {
      if (own) rememberName(value); // the host naming another seat: not this browser's name
      dialog.close();
      if (done) done(result);
    },
  });
  body.append(h("form", { class: "name-form", onsubmit: submit },
    first ? h("p", {}, t("name.you_play"), seatChip(seat), t("name.call_you", { look: seatLook(seat) }))
      : h("p", {}, t("name.everyone_sees"), seatChip(seat), t("name.everyone_sees_end")),
    h("label", {}, t("name.label"), input),
    h("p", { class: "hint" }, t("name.hint")),
    error,
    h("div", { class: "row" },
      h("button", { type: "submit", class: "btn primary", "data-testid": "name-save" }, t("name.save")),
      first ? h("button", { type: "button", class: "btn", "data-testid": "name-later", onclick: () => dialog.close() }, t("name.later")) : null)));
  input.focus();
  input.select();
  return dialog;
}

/**
 * The header's "you: Anna (P1, blue square)" of a seat's page: a button that renames the
 * seat (`you`: the seats this page plays; the first is named). Null for a spectator.
 * @param {string} id
 * @param {string} token
 * @param {View} view
 * @param {(view: View) => void} onView
 */
export function youTag(id, token, view, onView) {
  const you = view.you || [];
  if (!token || !you.length) return null;
  const p = you[0];
  const seats = view.seats || [];
  const label = hasName(p, seats) ? `${seatName(p, seats)} (${seatLook(p)})` : seatLook(p);
  return h("button", {
    type: "button", class: "you-tag", "data-testid": "you-tag", title: t("name.change"),
    onclick: () => nameDialog({
      seat: p, name: hasName(p, seats) ? seatName(p, seats) : "",
      save: (name) => putName(id, token, p, name),
      done: (next) => { toast(t("name.you_are", { name: seatName(p, next.seats || []) }), "info"); onView(next); },
    }),
  }, t("name.you_tag"), h("b", { "data-testid": "you-name" }, label));
}

/**
 * The question a seat's page asks once, when its seat (a person's, played from its own
 * link) has no name yet: "What should the others call you?" in a slim card at the top
 * of the page (it covers nothing: the player may look at the game first, or say
 * "Later"). Returns `ask(view)`: the card to put in the page for `view`, or null;
 * `onView(view)` gets the view after the name is saved.
 * @param {string} id
 * @param {string} token
 * @param {(view: View) => void} onView
 * @returns {(view: View) => HTMLFormElement | null}
 */
export function nameAsker(id, token, onView) {
  /** @type {HTMLFormElement | null} */
  let card = null;
  let closed = false;
  const later = (/** @type {number} */ p) => `${LATER}${id}.${p}`;
  return function ask(view) {
    const you = view.you || [];
    const p = you.length === 1 ? you[0] : -1;
    const seat = p < 0 ? null : (view.seats || [])[p];
    if (closed || !token || !seat || seat.named || seat.kind !== "human" || seat.played_by || view.over
      || stored(later(p))) {
      card = null;
      return null;
    }
    if (card) return card;
    const { input, error, submit } = nameField({
      label: t("name.yours"), value: lastName(), placeholder: t("name.placeholder"),
      save: (value) => putName(id, token, p, value),
      saved: (next, value) => {
        rememberName(value);
        closed = true;
        form.remove();
        onView(next);
      },
    });
    const form = h("form", { class: "name-ask", role: "dialog", "aria-label": t("name.yours"), "data-testid": "name-dialog", onsubmit: submit },
      h("span", { class: "name-ask-q" }, t("name.you_play"), seatChip(p), t("name.call_you", { look: seatLook(p) })),
      input,
      h("button", { type: "submit", class: "btn small primary", "data-testid": "name-save" }, t("name.save")),
      h("button", { type: "button", class: "btn small", "data-testid": "name-later",
        onclick: () => { closed = true; store(later(p), "1"); form.remove(); } }, t("name.later")),
      error);
    card = form;
    return card;
  };
}
