// @ts-check
// The player mats and the building supply as HTML, from the position JSON. Clickable
// elements carry data-target="<id>" like the board's.

import { locale, t } from "./i18n.js";
import { h, COLOURS, tokenLabel } from "./dom.js";
import { cardTitle, cardWords } from "./board.js";
import { tip } from "./tipcard.js";
import { seatTag, seatWords } from "./names.js";

/** @typedef {import("./types.js").Building} Building */
/** @typedef {import("./types.js").State} State */

/** The attributes' keys, in the mats' order (data.ATTRIBUTES). */
const ATTR_KEYS = ["industry", "culture", "wealth", "influence"];

/** The attributes' short names (2009: Finance and Politics for the last two). */
const attrShort = () => [t("mat.attr_industry"), t("mat.attr_culture"), t("mat.attr_wealth"), t("mat.attr_influence")];

/** @param {import("./types.js").Card} card */
function cardChip(card) {
  return tip(h("button", {
    type: "button", class: `card-chip deck-${card.deck}${card.governor ? " governor" : ""}`,
    "data-target": card.id, "aria-label": t(card.governor ? "board.card_label_governor" : "board.card_label", { code: card.code, gives: card.gives }),
    tabindex: -1,
  }, h("b", {}, card.code), h("span", {}, card.short || "—")),
  () => ({ title: cardTitle(card), lines: cardWords(card) }));
}

/**
 * @param {import("./types.js").Attribute} attr
 * @param {number} index
 * @param {boolean} classic
 */
function attributeRow(attr, index, classic) {
  const short = classic && index === 2 ? t("mat.attr_finance") : classic && index === 3 ? t("mat.attr_politics") : attrShort()[index];
  const next = attr.next_level_at === null ? t("mat.max_level") : t("mat.next_level", { level: attr.level + 1, at: attr.next_level_at });
  const width = Math.min(100, (attr.marker / 15) * 100);
  return h("div", { class: "attr", title: t("mat.attr_title", { name: attr.name, marker: attr.marker, level: attr.level, next, glory: attr.glory }) },
    h("span", { class: `attr-name a${index}` }, short),
    h("span", { class: "attr-bar" }, h("span", { class: `attr-fill a${index}`, style: `width:${width}%` })),
    h("span", { class: "attr-score" }, String(attr.marker)),
    h("span", { class: "attr-level" }, t("mat.level_short", { level: attr.level })),
    h("span", { class: "attr-next" }, next));
}

/**
 * One player's mat. `seat` is the view's seat entry ({kind, bot, name, played_by, replaced});
 * `you` whether the viewer plays it; `clock` the seat's time (an element) or null.
 * @param {import("./types.js").Mat} mat
 * @param {Pick<State, "ruleset">} state
 * @param {import("./types.js").Seat | null | undefined} seat
 * @param {boolean} you
 * @param {Element | null} [clock]
 */
export function matHtml(mat, state, seat, you, clock = null) {
  const colour = COLOURS[mat.seat % COLOURS.length];
  let who = seat && seat.kind === "hotseat" ? t("mat.hotseat") : t("mat.human");
  if (seat && seat.played_by) {
    who = seat.replaced === "timeout" ? t("mat.bot_timeout", { bot: seat.played_by })
      : seat.replaced === "host" ? t("mat.bot_host", { bot: seat.played_by }) : t("mat.bot", { bot: seat.played_by });
  }
  if (you) who = seat && seat.played_by ? t("mat.you_and", { who }) : t("mat.you");
  const flags = [];
  if (mat.to_move) flags.push(h("span", { class: "flag to-move" }, t("mat.to_move")));
  if (mat.crown) flags.push(h("span", { class: "flag crown", title: t("mat.crown_title") }, t("mat.crown")));
  if (mat.passed) flags.push(h("span", { class: "flag passed" }, t("mat.passed")));
  const classic = state.ruleset === "classic";
  const buildings = mat.buildings.map((b) => tip(h("button", {
    type: "button", class: `building level${b.level}${b.worker ? " staffed" : ""}`,
    "data-target": b.id, tabindex: -1,
    "aria-label": t(b.activatable ? (b.worker ? "mat.building_label_worker" : "mat.building_label_free") : "mat.building_label", { name: b.name, level: b.level, does: b.does }),
  },
  h("span", { class: "b-name" }, b.name),
  h("span", { class: "b-does" }, b.does),
  b.activatable ? h("span", { class: `worker${b.worker ? " on" : ""}`, style: b.worker ? `background:${colour}` : null }) : null),
  () => ({
    title: t("mat.building_title", { name: b.name, level: b.level }),
    lines: [t("mat.does", { does: b.does }), !b.activatable ? t("mat.no_action")
      : b.worker ? t("mat.worker_on") : t("mat.circle_free")],
  })));
  const tokens = mat.tokens.map((tk) => h("button", {
    type: "button", class: `token-chip ${tk.colour}`, "data-target": tk.id, tabindex: -1,
    title: t("mat.token_title", { name: tk.name, n: tk.count }),
  }, `${tokenLabel(tk)} ×${tk.count}`));
  const slot = mat.governor_slot ? cardChip(mat.governor_slot) : h("span", { class: "muted" }, t("mat.empty"));
  const choices = mat.slot_choices.map((c) => h("button", {
    type: "button", class: "slot-choice", "data-target": c.id, tabindex: -1,
    title: c.card ? t("mat.slot_put", { card: c.card }) : t("mat.slot_leave"),
  }, c.card || t("mat.none")));
  // the tracks by their key in English (as ever), by the attribute's name in another language
  const trackName = (/** @type {string} */ k) => (locale() === "en" ? k : mat.attributes[ATTR_KEYS.indexOf(k)]?.name ?? k);
  const onTracks = Object.entries(mat.on_tracks).map(([k, v]) => `${trackName(k)} ${v}`).join(", ");
  return h("section", {
    class: `mat${mat.to_move ? " to-move" : ""}${you ? " yours" : ""}`,
    "data-testid": `mat-${mat.seat}`, style: `--seat:${colour}`,
    "aria-label": t("mat.of", { seat: seatWords(mat.seat) }),
  },
  h("header", { class: "mat-head" },
    h("b", { class: "mat-who" }, seatTag(mat.seat)),
    h("span", { class: "muted who" }, who), ...flags, clock,
    h("span", { class: "glory", title: t("mat.glory_title") }, t("mat.glory", { n: mat.glory_now }))),
  h("div", { class: "attrs" }, mat.attributes.map((a, i) => attributeRow(a, i, classic))),
  h("div", { class: "discs" },
    h("span", { title: t("mat.harbor_title") }, t("mat.harbor", { n: mat.harbor })),
    h("span", { title: t("mat.supply_title") }, t("mat.supply", { n: mat.supply })),
    onTracks ? h("span", { title: t("mat.tracks_title") }, t("mat.tracks", { tracks: onTracks })) : null),
  h("div", { class: "buildings", "aria-label": t("tab.build") },
    buildings.length ? buildings : h("span", { class: "muted" }, t("mat.no_buildings"))),
  h("div", { class: "cards-row" },
    h("span", { class: `limit${mat.over_limit ? " over" : ""}`, title: t("mat.cards_title") },
      t("mat.cards", { count: mat.card_count, limit: mat.card_limit }), mat.over_limit ? t("mat.over_limit") : ""),
    mat.cards.map(cardChip),
    h("span", { class: "gov-slot", title: t("mat.gov_title") }, t("mat.gov"), slot, ...choices),
    mat.aside.length ? h("span", { class: "muted" }, t("mat.aside", { cards: mat.aside.map((c) => c.code).join(" ") })) : null),
  tokens.length ? h("div", { class: "tokens" }, tokens) : null);
}

/**
 * A building's tip card: what it does, how it is built, how many are left.
 * @param {Building} b
 * @param {string} industry
 */
function buildingTip(b, industry) {
  const start = b.count === undefined;
  return {
    title: start ? t("tip.building_start_title", { name: b.name }) : t("tip.building_title", { name: b.name, level: b.level }),
    lines: [
      t("mat.does", { does: b.does }),
      b.activatable ? t("tip.building_activate") : t("tip.building_no_action"),
      start ? t("tip.building_start") : t("tip.building_build", { industry, level: b.level }),
      start ? null : b.count === 0 ? t("tip.building_none_left") : t("tip.building_left", { n: b.count ?? 0 }),
    ],
  };
}

/**
 * The building supply by level (and the start tiles during setup).
 * @param {Pick<State, "supply" | "start_tiles" | "attributes">} state
 */
export function supplyHtml(state) {
  /** @type {Map<number, Building[]>} */
  const byLevel = new Map();
  for (const b of state.supply) {
    const level = byLevel.get(b.level);
    if (level) level.push(b);
    else byLevel.set(b.level, [b]);
  }
  const industry = state.attributes[0];
  const chip = (/** @type {Building} */ b) => tip(h("button", {
    type: "button", class: `supply-chip level${b.level}${b.count === 0 ? " sold-out" : ""}`,
    "data-target": b.id, tabindex: -1, "aria-label": t("mat.building_label", { name: b.name, level: b.level, does: b.does }),
  }, h("span", { class: "b-name" }, b.name), h("span", { class: "b-does" }, b.does),
  b.count !== undefined ? h("span", { class: "count" }, `×${b.count}`) : null), () => buildingTip(b, industry));
  const rows = [];
  if (state.start_tiles.length) {
    rows.push(h("div", { class: "supply-row start" }, h("span", { class: "lvl" }, t("supply.start")),
      state.start_tiles.map(chip)));
  }
  for (const [level, items] of [...byLevel.entries()].sort((a, b) => a[0] - b[0])) {
    rows.push(h("div", { class: "supply-row" }, h("span", { class: "lvl" }, t("mat.level_short", { level })), items.map(chip)));
  }
  return h("section", { class: "supply", "data-testid": "supply", "aria-label": t("supply.label") },
    h("h3", {}, t("tab.build")), rows);
}
