// @ts-check
// The board as SVG, drawn from the position JSON (view.position) like the printed map:
// the regions where they lie on a world map (boardmap.js), each with its cities and trade
// routes, its shipping track running toward its deck and Governor, its open sea; the
// links as short connectors under the cities, their tokens on them; the discard pile and
// the Exploit tiles. Every element a move can be clicked on carries data-target="<id>"
// (the ids of docs/web.md) and a hit area of at least 40 × 40 units; the game screen
// makes the legal ones live. Each region's group carries data-region="<code>". Every
// piece has a tip card (tipcard.js) that says what it is and does in words.

import { s, ownerColour, ownerName as seatName, tokenLabel } from "./dom.js";
import { phaseName, t } from "./i18n.js";
import { tip } from "./tipcard.js";
import {
  W, H, REGIONS, PILE_AREA, EXPLOIT_AREA, TRACK_STEP, SITES, BENDS,
} from "./boardmap.js";

/** @typedef {import("./types.js").Token} Token */
/** @typedef {import("./types.js").Card} Card */
/** @typedef {import("./types.js").Deck} Deck */
/** @typedef {import("./types.js").Site} Site */
/** @typedef {import("./types.js").Region} Region */
/** @typedef {import("./types.js").Link} Link */
/** @typedef {import("./types.js").ExploitTile} ExploitTile */
/** @typedef {import("./types.js").BoardState} BoardState */
/** @typedef {(typeof REGIONS)[string]} Geo where a region lies (boardmap.js) */
/** @typedef {number[]} Rect [x, y, w, h] */

/** @type {Record<string, number[]>} the sites' centres, by code (the tool's table) */
const SITE_AT = SITES;
/** @type {Record<string, number>} the links drawn curved (the tool's table) */
const BEND = BENDS;

/** @type {Record<string, string>} */
const DECK_COLOURS = {
  EU: "#7b5ea7", SL: "#4b4b4b", AF: "#c0772c", SA: "#3f8f4a", CA: "#2a8c8c",
  NA: "#4f6db0", IN: "#b5523b", FE: "#a8842a",
};

/**
 * A disc owner named for the reader: a seat, or the neutral Silent Fleet.
 * @param {number} owner
 * @param {number} players
 */
function ownerName(owner, players) {
  return owner >= players ? t("board.silent_fleet") : seatName(owner, players);
}
const SITE_R = 17;
const HIT = 46; // a target's invisible hit area (viewBox units)
const CARD_W = 50;
const CARD_H = 70;

// ------------------------------------------------------------------ small pieces
/**
 * A regular polygon's points around (x, y).
 * @param {number} x
 * @param {number} y
 * @param {number} r
 * @param {number} sides
 * @param {number} [turn]
 */
function polygon(x, y, r, sides, turn = -Math.PI / 2) {
  const pts = [];
  for (let i = 0; i < sides; i += 1) {
    const a = turn + (2 * Math.PI * i) / sides;
    pts.push(`${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

/**
 * A player's disc: the seat's colour AND a shape of its own (circle, square, diamond,
 * hexagon, pentagon) with the seat number on it; the neutral Silent Fleet is a grey
 * octagon marked "SF" with a dashed rim.
 * @param {number} owner
 * @param {number} players
 * @param {number} x
 * @param {number} y
 * @param {number} r
 */
export function discSvg(owner, players, x, y, r) {
  const neutral = owner >= players;
  const fill = ownerColour(owner, players);
  const seat = owner % 5;
  const attrs = { class: "disc-shape", fill };
  let shape;
  if (neutral) shape = s("polygon", { ...attrs, points: polygon(x, y, r * 1.05, 8, Math.PI / 8) });
  else if (seat === 0) shape = s("circle", { ...attrs, cx: x, cy: y, r });
  else if (seat === 1) shape = s("rect", { ...attrs, x: x - r * 0.9, y: y - r * 0.9, width: r * 1.8, height: r * 1.8, rx: 2 });
  else if (seat === 2) shape = s("polygon", { ...attrs, points: polygon(x, y, r * 1.2, 4) });
  else if (seat === 3) shape = s("polygon", { ...attrs, points: polygon(x, y, r * 1.08, 6, 0) });
  else shape = s("polygon", { ...attrs, points: polygon(x, y, r * 1.12, 5) });
  const mark = neutral ? "SF" : String(owner);
  return s("g", { class: `disc seat-${neutral ? "neutral" : seat}` }, shape,
    s("text", { x, y: y + r * 0.36, "text-anchor": "middle", class: "disc-mark",
      "font-size": neutral ? r * 0.8 : r * 1.05 }, mark));
}

/**
 * A Trade token: brown (attribute) a rounded square, blue (action) a rounded hexagon-ish tag.
 * @param {Token} token
 * @param {number} x
 * @param {number} y
 * @param {number} [size]
 * @param {string} [cls]
 */
function tokenBadge(token, x, y, size = 9, cls = "") {
  const w = size * 2.8;
  const hgt = size * 1.7;
  const shape = token.colour === "blue"
    ? s("polygon", { points: [[x - w / 2 + 4, y - hgt / 2], [x + w / 2 - 4, y - hgt / 2], [x + w / 2, y],
      [x + w / 2 - 4, y + hgt / 2], [x - w / 2 + 4, y + hgt / 2], [x - w / 2, y]].map((p) => p.join(",")).join(" ") })
    : s("rect", { x: x - w / 2, y: y - hgt / 2, width: w, height: hgt, rx: 3 });
  return s("g", { class: `token ${token.colour}${cls ? ` ${cls}` : ""}` }, shape,
    s("text", { x, y: y + size * 0.36, "text-anchor": "middle", "font-size": size }, tokenLabel(token)));
}

/** @param {Token} token */
function tokenWords(token) {
  return t(token.colour === "blue" ? "board.token_blue" : "board.token_brown", { name: token.name });
}

/**
 * A name as the board writes it: one line, or two split at the space nearest the middle.
 * @param {string} name
 * @returns {string[]}
 */
export function nameLines(name) {
  if (name.length <= 10 || !name.includes(" ")) return [name];
  const words = name.split(" ");
  /** @type {[string, string]} */
  let best = [words[0], words.slice(1).join(" ")];
  for (let k = 2; k < words.length; k += 1) {
    const a = words.slice(0, k).join(" ");
    const b = words.slice(k).join(" ");
    if (Math.max(a.length, b.length) < Math.max(best[0].length, best[1].length)) best = [a, b];
  }
  return best;
}

/**
 * The box a site's name takes (as tools/board_layout.py counts it).
 * @param {number} x
 * @param {number} y
 * @param {string} name
 * @returns {Rect}
 */
function labelBox(x, y, name) {
  const lines = nameLines(name);
  const w = Math.max(...lines.map((l) => l.length)) * 6 + 6;
  return [x - w / 2, y + SITE_R + 2, w, 12.5 * lines.length + 2];
}

/**
 * @param {Rect} a
 * @param {Rect} b
 * @param {number} [pad]
 */
function overlaps(a, b, pad = 0) {
  return a[0] < b[0] + b[2] + pad && b[0] < a[0] + a[2] + pad && a[1] < b[1] + b[3] + pad && b[1] < a[1] + a[3] + pad;
}

// ------------------------------------------------------------------ cards
/** What the discard pile's Draws count: the discs on Europe's cities and trade routes (R14). */
export const pileCount = () => t("board.pile_count");

/**
 * What a card is and gives, in words (a list of sentences); `pile`: it lies in the
 * discard pile, where a Draw counts the discs in Europe (R14, R16, P93).
 * @param {Omit<Card, "code" | "deck_name"> & { deck_name?: string }} card
 * @param {{ pile?: boolean }} [where]
 */
export function cardWords(card, { pile = false } = {}) {
  const lines = [];
  if (card.governor) lines.push(t("board.card_governor"));
  else if (card.value !== null && card.value !== undefined) {
    const n = card.value;
    const regional = card.deck !== "EU" && card.deck !== "SL";
    const deck = card.deck_name || "";
    lines.push(pile
      ? (regional ? t("board.card_value_pile_region", { n, deck }) : t("board.card_value_pile", { n }))
      : (regional ? t("board.card_value_region", { n, deck }) : t("board.card_value_europe", { n })));
  }
  lines.push(t("board.card_gives", { gives: card.gives }));
  if (card.bonus_disc) lines.push(t("board.card_bonus_disc"));
  else if (pile && card.value === 1 && !["EU", "SL"].includes(card.deck)) lines.push(t("board.card_no_bonus_disc"));
  if (card.slavery) lines.push(t("board.card_slavery"));
  if (card.abolition) lines.push(t("board.card_abolition"));
  return lines;
}

/**
 * A card's tip title: its code, Governor or not, its deck (and the discard pile).
 * @param {Pick<Card, "code" | "governor"> & { deck_name?: string }} card
 * @param {boolean} [pile]
 */
export function cardTitle(card, pile = false) {
  const key = card.governor ? (pile ? "board.card_title_governor_pile" : "board.card_title_governor")
    : pile ? "board.card_title_pile" : "board.card_title";
  return t(key, { code: card.code, deck: card.deck_name || "" });
}

/**
 * A card drawn small: code, what it gives, optional count badge.
 * @param {Card} card
 * @param {number} x
 * @param {number} y
 * @param {{ w?: number, h?: number, count?: number | null, id?: string | null, label?: string | null, pile?: boolean }} [options]
 */
export function cardSvg(card, x, y, { w = CARD_W, h = CARD_H, count = null, id = null, label = null, pile = false } = {}) {
  const colour = DECK_COLOURS[card.deck] || "#777";
  const g = s("g", { class: "card", "data-target": id, "aria-label": t(card.governor ? "board.card_label_governor" : "board.card_label", { code: card.code, gives: card.gives }) },
    s("rect", { x, y, width: w, height: h, rx: 5, fill: "#fffdf6", stroke: colour, "stroke-width": 2, class: "card-face hl" }),
    s("rect", { x, y, width: w, height: 16, rx: 5, fill: colour }),
    s("text", { x: x + w / 2, y: y + 12, "text-anchor": "middle", class: "card-code" }, label || card.code));
  if (card.governor) g.append(s("path", { d: `M${x + 3},${y + 19} h${w - 6}`, class: "gov-stripe" }));
  const parts = card.short ? card.short.split(" ") : [];
  // up to four lines of icons; five (a card that gives every attribute) in two columns
  const cols = parts.length > 4 ? 2 : 1;
  const rows = Math.ceil(parts.length / cols);
  parts.forEach((/** @type {string} */ part, /** @type {number} */ i) => {
    const col = cols === 1 ? 0 : Math.floor(i / rows);
    const cx = cols === 1 ? x + w / 2 : x + w / 4 + col * (w / 2);
    g.append(s("text", { x: cx, y: y + 31 + (i % rows) * 11, "text-anchor": "middle", class: "card-icons" }, part));
  });
  if (count !== null) {
    g.append(s("circle", { cx: x + w - 4, cy: y + h - 4, r: 10, class: "count-badge" }),
      s("text", { x: x + w - 4, y: y + h - 0.5, "text-anchor": "middle", class: "count-text" }, count));
  }
  tip(g, () => ({ title: cardTitle(card, pile), lines: cardWords(card, { pile }) }));
  return g;
}

/**
 * @param {number} x
 * @param {number} y
 * @param {string} text
 * @param {import("./tipcard.js").TipContent} tipText
 * @param {string | null} [id]
 */
function emptyCard(x, y, text, tipText, id = null) {
  const words = text.split(" ");
  const g = s("g", { class: "card empty", "data-target": id },
    s("rect", { x, y, width: CARD_W, height: CARD_H, rx: 5, class: "card-empty hl" }),
    s("text", { x: x + CARD_W / 2, y: y + CARD_H / 2 + 3 - (words.length - 1) * 6, "text-anchor": "middle", class: "card-icons" },
      words.map((w, i) => s("tspan", { x: x + CARD_W / 2, dy: i ? 12 : 0 }, i < words.length - 1 ? `${w} ` : w))));
  tip(g, tipText);
  return g;
}

/**
 * @param {Deck} deck
 * @param {number} x
 * @param {number} y
 */
function deckSvg(deck, x, y) {
  const top = deck.top;
  if (!top) {
    return emptyCard(x, y, t("board.empty"), { title: t("board.deck", { name: deck.name }), lines: [t("board.deck_empty")] }, deck.id);
  }
  const g = cardSvg(top, x, y, { count: deck.size, id: deck.id });
  g.classList.add("deck");
  g.setAttribute("aria-label", t("board.deck_label", { name: deck.name, n: deck.size, code: top.code, gives: top.gives }));
  g.setAttribute("data-deck", deck.code);
  tip(g, () => ({
    title: t("board.deck_title", { name: deck.name, n: deck.size }),
    lines: [t("board.deck_top", { code: top.code }), ...cardWords(top), t("board.deck_draw")],
  }));
  return g;
}

/**
 * @param {Region} region
 * @param {number} x
 * @param {number} y
 * @param {number} players
 */
function governorSvg(region, x, y, players) {
  const gov = region.governor;
  if (!gov) return null;
  const rule = t("board.gov_rule");
  if (gov.where === "board") {
    const g = cardSvg(gov.card, x, y, { label: t("board.gov_short") });
    g.classList.add("governor");
    const winner = gov.winner;
    if (winner !== null && winner !== undefined) {
      g.append(s("text", { x: x + CARD_W / 2, y: y + CARD_H + 12, "text-anchor": "middle", class: "small" },
        `→ ${winner >= players ? "SF" : `P${winner}`}`)); // short: the tip names them
    }
    tip(g, () => ({
      title: t("board.gov_title", { region: region.name }),
      lines: [t("board.card_gives", { gives: gov.card.gives }), rule,
        winner !== null && winner !== undefined ? t("board.gov_winner", { owner: ownerName(winner, players) }) : t("board.gov_nobody"),
        t("board.gov_slot")],
    }));
    return g;
  }
  const text = gov.where === "player" ? t("board.gov_held_short", { p: gov.holder ?? "" }) : t("board.gov_gone_short"); // the tip names them
  return emptyCard(x, y, text, {
    title: t("board.gov_title", { region: region.name }),
    lines: [gov.where === "player" ? t("board.gov_holder", { owner: ownerName(gov.holder ?? -1, players), gives: gov.card.gives }) : t("board.gov_gone"), rule],
  });
}

// ------------------------------------------------------------------ sites
/** @param {number} n */
const discs = (n) => t("board.discs", { n });

/**
 * What an Attack on a held site takes, in words: the Harbor discs per attacker (the
 * casualties plus the disc that takes the place), or why it can never be attacked
 * (R9, P24, P30, P35, P93).
 * @param {Pick<Site, "owner" | "fortified" | "missionaries" | "pirate" | "attack_discs">} site
 * @param {Region} region
 * @param {number} players
 * @returns {string | null}
 */
export function attackWords(site, region, players) {
  if (site.missionaries) return t("board.attack_missionary");
  if (site.pirate) return t("board.attack_pirate");
  if (site.owner === null) return null;
  const closed = region.id !== "EU" && !region.open;
  /** @type {[number, number][]} each attacker's seat and Harbor discs */
  const others = [];
  (site.attack_discs || []).forEach((n, p) => { if (n !== null && n !== undefined) others.push([p, n]); });
  const first = others.length ? others[0][1] : 2;
  const casualties = (/** @type {number} */ n) => (n - 1 === 0 ? t("board.no_casualty") : t("board.casualties", { n: n - 1 }));
  let cost;
  if (others.every(([, n]) => n === first)) {
    cost = t(closed ? "board.attack_cost_closed" : "board.attack_cost", { discs: discs(first), casualties: casualties(first) });
  } else {
    cost = t(closed ? "board.attack_costs_closed" : "board.attack_costs", {
      costs: others.map(([p, n]) => t("board.attack_cost_of", { owner: ownerName(p, players), discs: discs(n) })).join(", ") });
  }
  const why = site.fortified ? t("board.attack_fortified")
    : others.some(([, n]) => n < 2) ? t("board.attack_imperialism") : "";
  return t("board.attack_words", { cost, why });
}

/**
 * What a site is, who holds it and what taking it costs (a list of sentences).
 * @param {Site} site
 * @param {Region} region
 * @param {number} players
 */
export function siteWords(site, region, players) {
  const lines = [];
  const where = region.id === "EU" ? t("board.where_europe")
    : t(region.open ? "board.where_open" : "board.where_closed", { region: region.name });
  if (site.kind === "city") {
    lines.push(t("board.site_city", { where, glory: site.glory }));
  } else {
    lines.push(t("board.site_route", { where }));
  }
  if (site.fortified) lines.push(fortWords());
  if (site.missionaries) lines.push(missionaryWords(site.missionaries));
  if (site.pirate) lines.push(pirateWords());
  if (site.owner !== null) lines.push(t("board.site_held", { owner: ownerName(site.owner, players) }));
  else if (site.token && !site.pirate) {
    lines.push(t("board.site_free", { token: tokenWords(site.token) }));
    if (site.kind === "city") lines.push(t("board.site_occupy"));
  } else if (!site.pirate) lines.push(t("board.site_taken"));
  const attack = attackWords(site, region, players);
  if (attack) lines.push(attack);
  else lines.push(t("board.site_attack_later"));
  if (site.tile) lines.push(t("board.site_tile"));
  return lines;
}

const fortWords = () => t("board.fortified");
const pirateWords = () => t("board.pirate_here");
/** @param {number} n */
function missionaryWords(n) {
  return t("board.missionaries_here", { n });
}

/**
 * The Exploits' pieces on a city, drawn above it like the tokens on the printed board: a
 * Fortification (a stone tower, upper left), Missionaries (a cross, upper right, with
 * their number past one) and the Pirate (a black flag with a skull, on the city itself:
 * it counts as unoccupied). Each has its own tip card.
 * @param {Site} site
 * @param {number} x
 * @param {number} y
 */
function piecesSvg(site, x, y) {
  const out = [];
  const r = SITE_R;
  if (site.fortified) {
    const fx = x - r - 2;
    const fy = y - r + 8; // under a "2 glory" mark
    // a tower with three merlons, 22 wide and 22 high
    const d = `M${fx - 11},${fy + 11} V${fy - 6} h5 v-5 h3.5 v5 h5 v-5 h3.5 v5 h5 V${fy + 11} Z`;
    out.push(tip(s("g", { class: "piece fortification", "aria-label": t("board.fortification") },
      s("path", { d, class: "fort-shape" }),
      s("path", { d: `M${fx - 3},${fy + 11} v-6 a3,3 0 0 1 6,0 v6`, class: "fort-door" })),
    { title: t("board.fortification"), lines: [fortWords()] }));
  }
  if (site.missionaries) {
    const mx = x + r + 1;
    const my = y - r + 6;
    const g = s("g", { class: "piece missionary", "aria-label": t("board.missionaries_label", { n: site.missionaries }) },
      s("circle", { cx: mx, cy: my, r: 9.5, class: "missionary-shape" }),
      s("path", { d: `M${mx},${my - 6.5} V${my + 6.5} M${mx - 4.5},${my - 2} H${mx + 4.5}`, class: "missionary-cross" }));
    if (site.missionaries > 1) {
      g.append(s("text", { x: mx + 8, y: my - 6, class: "piece-count" }, `×${site.missionaries}`));
    }
    out.push(tip(g, { title: t("board.missionaries_title", { n: site.missionaries }), lines: [missionaryWords(site.missionaries)] }));
  }
  if (site.pirate) {
    // a black flag on a pole over the city, a white skull and crossbones on it
    const g = s("g", { class: "piece pirate", "aria-label": t("board.pirate_label") },
      s("path", { d: `M${x - 9},${y + 11} V${y - 12}`, class: "pirate-pole" }),
      s("path", { d: `M${x - 9},${y - 12} h19 l-3,7.5 l3,7.5 h-19 Z`, class: "pirate-flag" }),
      s("circle", { cx: x + 0.5, cy: y - 7.5, r: 3, class: "pirate-skull" }),
      s("path", { d: `M${x - 3.5},${y - 4} L${x + 4.5},${y + 1} M${x + 4.5},${y - 4} L${x - 3.5},${y + 1}`, class: "pirate-bones" }));
    out.push(tip(g, { title: t("board.pirate_title"), lines: [pirateWords()] }));
  }
  return out;
}

/**
 * @param {Site} site
 * @param {Region} region
 * @param {number} players
 * @param {Rect[]} labels the boxes of the names drawn (links' tokens keep off them)
 */
function siteSvg(site, region, players, labels) {
  const xy = SITE_AT[site.code];
  if (!xy) return null;
  const [x, y] = xy;
  const r = SITE_R;
  const shape = site.kind === "city"
    ? s("circle", { cx: x, cy: y, r, class: "site-shape hl" })
    : s("polygon", { points: polygon(x, y, r * 1.25, 4), class: "site-shape route hl" });
  const g = s("g", {
    class: `site ${site.kind}${site.tile ? " tile" : ""}`, "data-target": site.id, "data-code": site.code,
    "aria-label": site.name,
  }, s("circle", { cx: x, cy: y, r: HIT / 2, class: "hit" }), shape);
  if (site.glory === 2) g.append(s("circle", { cx: x, cy: y, r: r + 4, class: "glory2" }));
  if (site.owner !== null) g.append(discSvg(site.owner, players, x, y, 11.5));
  else if (site.token && !site.pirate) g.append(tokenBadge(site.token, x, y, 8));
  g.append(...piecesSvg(site, x, y));
  const lines = nameLines(site.name);
  const label = s("text", { x, y: y + r + 12, "text-anchor": "middle", class: "site-name" });
  // the space between two lines stays in the text (a test or a screen reader reads whole words)
  lines.forEach((line, i) => label.append(s("tspan", { x, dy: i ? 12.5 : 0 }, i < lines.length - 1 ? `${line} ` : line)));
  g.append(label);
  if (site.glory === 2) {
    g.append(s("text", { x, y: y - r - 7, "text-anchor": "middle", class: "glory-mark" }, t("board.glory2")));
  }
  labels.push(labelBox(x, y, site.name));
  if (site.glory === 2) labels.push([x - 22, y - r - 18, 44, 13]);
  tip(g, () => ({ title: site.kind === "city" ? t("board.city_title", { name: site.name, glory: site.glory }) : t("board.route_title", { name: site.name }), lines: siteWords(site, region, players) }));
  return g;
}

// ------------------------------------------------------------------ tracks and seas
/**
 * @param {Region} region a region with a track (not Europe)
 * @param {Geo} geo
 * @param {number} players
 */
function trackSvg(region, geo, players) {
  const track = /** @type {import("./types.js").Track} */ (region.track);
  const { y, near, dir } = /** @type {NonNullable<Geo["track"]>} */ (geo.track);
  const n = track.length;
  const xs = track.spaces.map((_, i) => near + dir * (n - 1 - i) * TRACK_STEP);
  const x0 = Math.min(...xs) - 17;
  const x1 = Math.max(...xs) + 17;
  const g = s("g", { class: "track", "data-target": track.id, "aria-label": t("board.track_label", { region: region.name, filled: track.filled, n }) },
    s("rect", { x: x0 - 2, y: y - 22, width: x1 - x0 + 4, height: 44, class: "hit" }),
    s("rect", { x: x0, y: y - 16, width: x1 - x0, height: 32, rx: 16, class: "track-bg hl" }));
  // an arrow from the last space to the deck: the track runs toward its deck
  const tipX = near - dir * 17;
  g.append(s("path", { d: `M${tipX},${y - 6} l${-dir * 9},6 l${dir * 9},6 z`, class: "track-arrow" }));
  track.spaces.forEach((space, i) => {
    const cx = xs[i];
    const sp = s("g", { class: "space-g" }, s("circle", { cx, cy: y, r: 13.5, class: "space" }));
    if (space.owner !== null) sp.append(discSvg(space.owner, players, cx, y, 10.5));
    else if (space.token) sp.append(tokenBadge(space.token, cx, y, 7.6));
    tip(sp, () => ({
      title: t("board.space_title", { region: region.name, space: space.space, n }),
      lines: [space.owner !== null ? t("board.space_owner", { owner: ownerName(space.owner, players) })
        : t("board.space_free", { token: space.token ? tokenWords(space.token) : t("board.none") }),
      t("board.space_ship"),
      t("board.space_last", { filled: track.filled, n })],
    }));
    g.append(sp);
  });
  tip(g, () => ({
    title: t("board.track_title", { region: region.name }),
    lines: [t(region.open ? "board.track_taken_open" : "board.track_taken", { filled: track.filled, n }),
      t("board.track_ship")],
  }));
  return g;
}

/**
 * @param {Region} region a region with an open sea (not Europe)
 * @param {Geo} geo
 * @param {number} players
 * @param {boolean} classic
 */
function seaSvg(region, geo, players, classic) {
  const sea = /** @type {import("./types.js").Sea} */ (region.sea);
  const [x, y] = /** @type {[number, number]} */ (geo.sea);
  const g = s("g", { class: "sea", "data-target": sea.id, "aria-label": t("board.sea_title", { region: region.name, label: sea.label }) },
    s("rect", { x, y, width: 112, height: 44, rx: 10, class: "sea-bg hl" }),
    s("text", { x: x + 56, y: y + 12, "text-anchor": "middle", class: "small" }, sea.label));
  sea.discs.forEach((d, i) => {
    const cx = x + 14 + i * 21;
    g.append(discSvg(d.owner, players, cx, y + 29, 8.5),
      s("text", { x: cx + 8, y: y + 41, class: "disc-count" }, `×${d.count}`));
  });
  tip(g, () => ({
    title: t("board.sea_title", { region: region.name, label: sea.label }),
    lines: [classic ? t("board.sea_classic") : t("board.sea_rule"),
      sea.discs.length ? t("board.sea_here", { discs: sea.discs.map((d) => `${ownerName(d.owner, players)} ×${d.count}`).join(", ") }) : t("board.sea_empty")],
  }));
  return g;
}

// ------------------------------------------------------------------ regions
/**
 * A coastline around an area: a rounded shape with gentle bays, the same every time.
 * @param {number[]} area
 * @param {number} seed
 */
function coast(area, seed) {
  const [x, y, w, h] = area;
  const pts = [];
  const per = 2 * (w + h);
  const steps = Math.round(per / 22);
  for (let i = 0; i < steps; i += 1) {
    let d = (i / steps) * per;
    let px;
    let py;
    let nx;
    let ny;
    if (d < w) { px = x + d; py = y; nx = 0; ny = -1; } else if ((d -= w) < h) { px = x + w; py = y + d; nx = 1; ny = 0; } else if ((d -= h) < w) { px = x + w - d; py = y + h; nx = 0; ny = 1; } else { d -= w; px = x; py = y + h - d; nx = -1; ny = 0; }
    const wobble = 3.5 * Math.sin(i * 1.7 + seed) + 2.5 * Math.sin(i * 0.63 + seed * 2.1);
    pts.push([px + nx * wobble, py + ny * wobble]);
  }
  // pull the corners in (a rounded land), then smooth with quadratic curves through midpoints
  const cx = x + w / 2;
  const cy = y + h / 2;
  const round = pts.map(([px, py]) => {
    const fx = Math.abs(px - cx) / (w / 2);
    const fy = Math.abs(py - cy) / (h / 2);
    const k = Math.max(0, Math.min(fx, fy) - 0.82) * 0.9;
    return [px - (px - cx) * k * 0.35, py - (py - cy) * k * 0.35];
  });
  const mid = (/** @type {number[]} */ a, /** @type {number[]} */ b) => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  let d = `M${mid(round[round.length - 1], round[0]).map((v) => v.toFixed(1)).join(",")}`;
  round.forEach((p, i) => {
    const m = mid(p, round[(i + 1) % round.length]);
    d += ` Q${p[0].toFixed(1)},${p[1].toFixed(1)} ${m[0].toFixed(1)},${m[1].toFixed(1)}`;
  });
  return `${d} Z`;
}

/**
 * What a region allows now, by its rulebook, and who has presence there (R10, R14, P73).
 * @param {Region} region
 * @param {number} players
 * @param {boolean} classic the 2009 game: no trade routes, no open sea, Draw only in open regions
 */
export function regionWords(region, players, classic) {
  const presence = t("board.presence", { presence: region.presence.map((n, p) => `${ownerName(p, players)} ${n}`).join(", ") });
  let rule;
  if (region.id === "EU") {
    rule = t(classic ? "board.europe_classic" : "board.europe");
  } else if (region.open) {
    rule = t(classic ? "board.open_classic" : "board.open");
  } else {
    rule = t(classic ? "board.closed_classic" : "board.closed", { filled: region.track?.filled ?? 0, n: region.track?.length ?? 0 });
  }
  return [rule, presence];
}

/** @param {Region} region */
function regionStatus(region) {
  if (region.id === "EU" || !region.track) return t("board.status_always");
  return region.open ? t("board.status_open") : t("board.status_closed", { filled: region.track.filled, n: region.track.length });
}

/**
 * @param {Region} region
 * @param {number} players
 * @param {Rect[]} labels the boxes of the names drawn (filled in)
 * @param {Rect[]} cards the boxes of the cards drawn (filled in)
 * @param {boolean} classic
 */
function regionSvg(region, players, labels, cards, classic) {
  const geo = REGIONS[region.id];
  const [ax, ay, aw, ah] = geo.area;
  const g = s("g", { class: `region${region.open ? " open" : ""}`, "data-region": region.id, id: `region-${region.id}` },
    s("rect", { x: ax, y: ay, width: aw, height: ah, class: "region-area" }));
  // the status beside Europe's name, under the others' (a short line: no site's name under it)
  const europe = region.id === "EU";
  const status = s("tspan", { class: `region-status${region.open ? " is-open" : ""}`,
    ...(europe ? { dx: 6 } : { x: geo.name.x, dy: 14 }) },
  `${region.open && !europe ? "✓ " : ""}${regionStatus(region)}`);
  const name = s("text", { x: geo.name.x, y: geo.name.y - (europe ? 0 : 10), "text-anchor": geo.name.anchor, class: "region-name" },
    region.name, status);
  tip(name, () => ({ title: region.name, lines: regionWords(region, players, classic) }));
  g.append(name);
  if (region.id === "EU") {
    const spots = geo.decks || [];
    region.decks.forEach((deck, i) => {
      const [x, y] = spots[i];
      g.append(deckSvg(deck, x, y));
      cards.push([x, y, CARD_W, CARD_H]);
    });
    if (region.abolished) {
      g.append(s("text", { x: spots[1][0] + CARD_W, y: spots[1][1] + CARD_H + 12, "text-anchor": "end", class: "small" },
        t("board.abolished")));
    }
  } else {
    const deckAt = /** @type {[number, number]} */ (geo.deck);
    const govAt = /** @type {[number, number]} */ (geo.gov);
    g.append(trackSvg(region, geo, players));
    g.append(deckSvg(region.decks[0], ...deckAt));
    cards.push([...deckAt, CARD_W, CARD_H]);
    const gov = governorSvg(region, ...govAt, players);
    if (gov) {
      g.append(gov);
      cards.push([...govAt, CARD_W, CARD_H]);
    }
    g.append(seaSvg(region, geo, players, classic));
  }
  for (const site of [...region.cities, ...region.routes]) {
    const el = siteSvg(site, region, players, labels);
    if (el) g.append(el);
  }
  return g;
}

// ------------------------------------------------------------------ links
/**
 * What a link is, who controls it and where its token goes (a list of sentences); a
 * Blockade's link promises its token to no controller (P23, P25, P93).
 * @param {Link} link
 * @param {number} players
 */
export function linkWords(link, players) {
  const kind = t(link.circular ? "board.link_circular" : "board.link_square");
  if (link.blockade) {
    return [kind, t("board.link_blockade"),
      link.token ? t("board.link_blockade_claim", { token: tokenWords(link.token) }) : t("board.link_blockade_claim_none")];
  }
  return [kind, link.controller !== null ? t("board.link_controlled", { owner: ownerName(link.controller, players) })
    : link.token ? t("board.link_token", { token: tokenWords(link.token) }) : t("board.link_nobody")];
}

/**
 * A Blockade token on a link: a red and white barrier.
 * @param {number} x
 * @param {number} y
 */
function blockadeSvg(x, y) {
  const w = 26;
  const hgt = 14;
  const g = s("g", { class: "blockade", "aria-label": t("board.blockade") },
    s("rect", { x: x - w / 2, y: y - hgt / 2, width: w, height: hgt, rx: 3, class: "blockade-shape hl" }));
  for (const dx of [-8, 0, 8]) {
    g.append(s("path", { d: `M${x + dx - 4},${y + hgt / 2 - 1.5} l7,${-hgt + 3}`, class: "blockade-stripe" }));
  }
  return g;
}

/**
 * @param {number[]} a
 * @param {number[]} c
 * @param {number[]} b
 * @param {number} t
 */
function bezier(a, c, b, t) {
  return [(1 - t) ** 2 * a[0] + 2 * (1 - t) * t * c[0] + t * t * b[0],
    (1 - t) ** 2 * a[1] + 2 * (1 - t) * t * c[1] + t * t * b[1]];
}

const TOKEN_SPOTS = [0.5, 0.44, 0.56, 0.38, 0.62, 0.32, 0.68, 0.26, 0.74];

/**
 * @param {Link[]} links
 * @param {number} players
 * @param {Record<string, Site>} sitesByCode
 * @param {Rect[]} avoid what a link's token must not cover (its own are added)
 * @param {number[][]} siteHits the sites' centres
 */
function linksSvg(links, players, sitesByCode, avoid, siteHits) {
  const lines = s("g", { class: "links" });
  const markers = s("g", { class: "link-markers" });
  for (const link of links) {
    const a = SITE_AT[link.a];
    const b = SITE_AT[link.b];
    if (!a || !b) continue;
    const bend = BEND[`${link.a}-${link.b}`] || BEND[`${link.b}-${link.a}`] || 0;
    const c = [(a[0] + b[0]) / 2 - (b[1] - a[1]) * bend, (a[1] + b[1]) / 2 + (b[0] - a[0]) * bend];
    const colour = link.controller !== null ? ownerColour(link.controller, players) : null;
    lines.append(s("path", {
      d: `M${a[0]},${a[1]} Q${c[0]},${c[1]} ${b[0]},${b[1]}`,
      class: `link ${link.circular ? "circular" : "square"}${colour ? " controlled" : ""}${link.blockade ? " blockaded" : ""}`,
      stroke: colour,
    }));
    // the token sits on the curve where it covers no name, site or card
    let spot = bezier(a, c, b, 0.5);
    for (const t of TOKEN_SPOTS) {
      const p = bezier(a, c, b, t);
      const box = [p[0] - 16, p[1] - 10, 32, 20];
      if (!avoid.some((r) => overlaps(box, r, 2)) && !siteHits.some((q) => Math.hypot(p[0] - q[0], p[1] - q[1]) < HIT / 2 + 22)) {
        spot = p;
        break;
      }
    }
    const [px, py] = spot;
    avoid.push([px - 16, py - 10, 32, 20]);
    const marker = s("g", { class: `link-marker${link.circular ? "" : " square"}`, "data-target": link.id,
      "aria-label": t("board.link_title", { a: sitesByCode[link.a]?.name || link.a, b: sitesByCode[link.b]?.name || link.b }) },
      s("circle", { cx: px, cy: py, r: 21, class: "hit" }));
    if (link.blockade) marker.append(blockadeSvg(px, py));
    else if (link.token) marker.append(tokenBadge(link.token, px, py, 8, "link-token"));
    else if (link.controller !== null) marker.append(discSvg(link.controller, players, px, py, 9));
    else if (link.circular) marker.append(s("circle", { cx: px, cy: py, r: 5, class: "link-dot hl" }));
    else marker.append(s("rect", { x: px - 5, y: py - 5, width: 10, height: 10, class: "link-dot hl" }));
    const na = sitesByCode[link.a]?.name || link.a;
    const nb = sitesByCode[link.b]?.name || link.b;
    tip(marker, () => ({ title: t(link.blockade ? "board.link_title_blockade" : "board.link_title", { a: na, b: nb }), lines: linkWords(link, players) }));
    markers.append(marker);
  }
  return [lines, markers];
}

// ------------------------------------------------------------------ pile and Exploits
/**
 * The 2009 rules have no discard pile: where a discarded card goes (the 2009 rulebook's
 * Pass / Discard: back to its own stack, kept in increasing value order from the top
 * down; Slavery cards set aside, Governors out of the game), a line each in the panel
 * (in the reader's language).
 * @param {string} [lang]
 */
export function classicDiscardLines(lang) {
  return [t("board.classic_discard_1", {}, lang), t("board.classic_discard_2", {}, lang),
    t("board.classic_discard_3", {}, lang), t("board.classic_discard_4", {}, lang),
    t("board.classic_discard_5", {}, lang)];
}

/** @param {BoardState} state */
function pileSvg(state) {
  const [x, y, w, h] = PILE_AREA;
  const g = s("g", { class: "pile-panel" },
    s("rect", { x, y, width: w, height: h, rx: 14, class: "panel" }),
    s("text", { x: x + 12, y: y + 22, class: "region-name" }, t("board.pile")));
  if (state.ruleset === "classic") {
    g.append(...classicDiscardLines().map((line, i) =>
      s("text", { x: x + 12, y: y + 46 + 14 * i, class: "small" }, line)));
    tip(g, { title: t("board.pile_none_title"), lines: [t("board.pile_none")] });
    return g;
  }
  g.append(s("text", { x: x + w - 12, y: y + 22, "text-anchor": "end", class: "small pile-count" }, t("board.pile_draw")));
  tip(g, { title: t("board.pile"), lines: [t("board.pile_rule"), t("board.pile_take", { count: pileCount() })] });
  if (!state.pile.length) {
    g.append(s("text", { x: x + 12, y: y + 46, class: "small" }, t("board.empty")));
    return g;
  }
  const perRow = Math.ceil(state.pile.length / (state.pile.length > 8 ? 2 : 1));
  const rows = Math.ceil(state.pile.length / perRow);
  const ch = rows === 1 ? CARD_H : 62;
  const step = Math.min(CARD_W + 4, (w - 24 - CARD_W) / Math.max(1, perRow - 1));
  state.pile.forEach((card, i) => {
    const row = Math.floor(i / perRow);
    const col = i % perRow;
    g.append(cardSvg(card, x + 12 + col * step, y + 32 + row * (ch + 8), { id: card.id, w: CARD_W, h: ch, pile: true }));
  });
  return g;
}

/**
 * The Exploit's words: the rule in plain words when the server gives it, else its state.
 * @param {ExploitTile} tile
 */
function exploitRule(tile) {
  return tile.rule || tidy(tile.text || "");
}

/**
 * "industryx2 culturex1" -> "Industry ×2, Culture ×1" (the engine's compact state words).
 * @param {string} text
 */
function tidy(text) {
  return text.replace(/\b([a-z]+)x(\d+)\b/g, (_, /** @type {string} */ word, /** @type {string} */ n) => `${word[0].toUpperCase()}${word.slice(1)} ×${n}`);
}

/**
 * Whether an Exploit is awake, in words: it wakes once both its regions are open (its two
 * Keys placed), not one (P13).
 * @param {Pick<ExploitTile, "regions" | "active">} tile
 * @param {Pick<Region, "id" | "name" | "open">[]} regions the board's regions
 * @returns {string | null}
 */
export function exploitStatus(tile, regions) {
  if (!tile.regions) return null;
  const named = tile.regions.map((id) => regions.find((r) => r.id === id) || { id, name: id, open: false });
  const [a, b] = [named[0].name, named[1].name];
  if (tile.active) return t("board.exploit_active", { a, b });
  const open = named.filter((r) => r.open);
  return open.length ? t("board.exploit_dormant_one", { a, b, open: open[0].name }) : t("board.exploit_dormant", { a, b });
}

/** @param {BoardState} state */
function exploitsSvg(state) {
  const [x, y, w, h] = EXPLOIT_AREA;
  const tiles = [...state.exploits, ...state.variants];
  const g = s("g", { class: "exploit-panel" },
    s("rect", { x, y, width: w, height: h, rx: 14, class: "panel" }),
    s("text", { x: x + 12, y: y + 22, class: "region-name" },
      state.ruleset === "classic" ? t("board.rules_2009") : tiles.length ? t("board.exploits") : t("board.no_exploits")));
  if (!tiles.length) {
    g.append(s("text", { x: x + 12, y: y + 46, class: "small" },
      state.ruleset === "classic" ? t("board.no_exploits_2009") : t("board.no_exploits_game")));
    return g;
  }
  const gap = 8;
  const tw = (w - 20 - (tiles.length - 1) * gap) / tiles.length;
  tiles.forEach((tile, i) => {
    const tx = x + 10 + i * (tw + gap);
    const ty = y + 30;
    const th = h - 38;
    const active = tile.active;
    const rule = exploitRule(tile);
    const key = tile.key || tile.id.replace(/^exploit:/, "");
    const el = s("g", { class: `exploit${active ? " active" : ""}`, "data-target": tile.id, "data-exploit": key, "aria-label": tile.name },
      s("rect", { x: tx, y: ty, width: tw, height: th, rx: 8, class: "exploit-bg hl" }));
    const head = [tile.regions ? t(active ? "board.tile_active" : "board.tile_dormant", { regions: tile.regions.join(" + ") }) : t("board.tile_variant")];
    // HTML inside the tile: real word wrapping; the whole rule is in the DOM, the tile shows
    // as many lines as fit and the tip card the rest
    const fo = s("foreignObject", { x: tx + 6, y: ty + 4, width: tw - 12, height: th - 8 });
    const div = document.createElement("div");
    div.className = "tile-html";
    const nameEl = document.createElement("div");
    nameEl.className = "tile-title";
    nameEl.textContent = tile.name;
    const meta = document.createElement("div");
    meta.className = "tile-meta";
    meta.textContent = head.join("");
    if (tile.shields) {
      const shields = document.createElement("span");
      shields.className = "tile-shields";
      shields.textContent = tile.shields.length
        ? t("board.tile_shields", { seats: tile.shields.map((p) => ownerName(p, state.players_count)).join(", ") }) : t("board.tile_no_shields");
      meta.append(shields);
    }
    const ruleEl = document.createElement("div");
    ruleEl.className = "tile-rule";
    ruleEl.setAttribute("data-testid", `exploit-rule-${key}`);
    ruleEl.textContent = rule;
    div.append(nameEl, meta, ruleEl);
    fo.append(div);
    el.append(fo);
    tip(el, () => ({
      title: tile.number ? t("board.exploit_title", { name: tile.name, number: tile.number }) : tile.name,
      lines: [exploitStatus(tile, state.regions),
        rule, tile.shield ? t("board.exploit_shield", { shield: tile.shield }) : null,
        tile.shields && tile.shields.length ? t("board.exploit_held", { seats: tile.shields.map((p) => ownerName(p, state.players_count)).join(", ") }) : null,
        tile.rule && tile.text ? t("board.exploit_now", { text: tidy(tile.text) }) : null],
    }));
    g.append(el);
  });
  return g;
}

// ------------------------------------------------------------------ the whole board
function graticule() {
  const g = s("g", { class: "graticule" });
  for (let x = 100; x < W; x += 100) g.append(s("path", { d: `M${x},0 V${H}` }));
  for (let y = 100; y < H; y += 100) g.append(s("path", { d: `M0,${y} H${W}` }));
  return g;
}

/**
 * The whole board as an <svg> element.
 * @param {BoardState} state
 */
export function drawBoard(state) {
  const players = state.players_count;
  const classic = state.ruleset === "classic";
  const svg = s("svg", {
    viewBox: `0 0 ${W} ${H}`, class: "board", role: "img", "data-testid": "board",
    "data-board": state.board,
    "aria-label": t("board.label", { side: state.board, round: state.round, phase: phaseName(state.phase) }),
  });
  svg.append(s("rect", { x: 0, y: 0, width: W, height: H, class: "ocean" }), graticule());
  const lands = s("g", { class: "lands" });
  state.regions.forEach((region, i) => {
    lands.append(s("path", { d: coast(REGIONS[region.id].area, i * 1.3 + 0.4),
      class: `land${region.open ? " open" : ""}`, "data-land": region.id }));
  });
  /** @type {Rect[]} */
  const labels = [];
  /** @type {Rect[]} */
  const cards = [];
  const regions = state.regions.map((region) => regionSvg(region, players, labels, cards, classic));
  /** @type {Record<string, Site>} */
  const sitesByCode = {};
  for (const region of state.regions) for (const site of [...region.cities, ...region.routes]) sitesByCode[site.code] = site;
  // a token must cover no name, no site and no card
  const siteHits = Object.keys(sitesByCode).filter((c) => SITE_AT[c]).map((c) => SITE_AT[c]);
  const trackBoxes = state.regions.flatMap((r) => {
    const geo = REGIONS[r.id].track;
    if (!r.track || !geo) return []; // Europe
    const { y, near, dir } = geo;
    const far = near + dir * (r.track.length - 1) * TRACK_STEP;
    return [[Math.min(near, far) - 17, y - 16, Math.abs(far - near) + 34, 32]];
  });
  const [lines, markers] = linksSvg(state.links, players, sitesByCode, [...labels, ...cards, ...trackBoxes], siteHits);
  // the links and their tokens under the regions' pieces: a site's or a card's hit area
  // wins where a link's would touch it (and no token lies under a name or a card)
  svg.append(lands, lines, markers, ...regions, pileSvg(state), exploitsSvg(state));
  return svg;
}
