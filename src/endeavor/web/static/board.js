// @ts-check
// The board as SVG, drawn from the position JSON (view.position) like the printed map:
// the regions where they lie on a world map (boardmap.js), each with its cities and trade
// routes, its shipping track running toward its deck and Governor, its open sea; the
// links as short connectors under the cities, their tokens on them; the discard pile and
// the Exploit tiles. Every element a move can be clicked on carries data-target="<id>"
// (the ids of docs/web.md) and a hit area of at least 40 × 40 units; the game screen
// makes the legal ones live. Each region's group carries data-region="<code>". Every
// piece has a tip card (tipcard.js) that says what it is and does in words.

import { s, ownerColour, ownerName, tokenLabel } from "./dom.js";
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
  return `${token.name} token (${token.colour === "blue" ? "an action you spend later" : "+1 " + token.name})`;
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
export const PILE_COUNT = "your discs in Europe (on its cities and trade routes)";

/**
 * What a card is and gives, in words (a list of sentences); `pile`: it lies in the
 * discard pile, where a Draw counts the discs in Europe (R14, R16, P93).
 * @param {Omit<Card, "code" | "deck_name"> & { deck_name?: string }} card
 * @param {{ pile?: boolean }} [where]
 */
export function cardWords(card, { pile = false } = {}) {
  const lines = [];
  if (card.governor) lines.push("A Governor card: it counts as an Asset card, and the free Governor slot of a mat holds one without counting toward the card limit.");
  else if (card.value !== null && card.value !== undefined) {
    const n = `${card.value} disc${card.value === 1 ? "" : "s"}`;
    const regional = card.deck !== "EU" && card.deck !== "SL";
    lines.push(pile
      ? `Draw value ${card.value}: from the discard pile a Draw action may take it when you have at least ${n} in Europe (on its cities and trade routes)${regional ? `, whatever you have in the ${card.deck_name} region` : ""}.`
      : `Draw value ${card.value}: you may draw it with a Draw action when you have at least ${n} in ${regional ? `the ${card.deck_name} region` : "Europe"}.`);
  }
  lines.push(`Gives ${card.gives}.`);
  if (card.bonus_disc) lines.push("When you draw it you also take 1 disc from your supply to your Harbor.");
  else if (pile && card.value === 1 && !["EU", "SL"].includes(card.deck)) lines.push("Drawn from the discard pile it brings no disc from your supply (this game's rules).");
  if (card.slavery) lines.push("A Slavery card: when Slavery is abolished it is set aside (its symbols lost) and costs 1 glory at the end.");
  if (card.abolition) lines.push("Abolition of Slavery: whoever draws it makes every player set aside their Slavery cards.");
  return lines;
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
  const g = s("g", { class: "card", "data-target": id, "aria-label": `${card.code}${card.governor ? " (Governor)" : ""}: ${card.gives}` },
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
  tip(g, () => ({ title: `${card.code}${card.governor ? " · Governor" : ""} (${card.deck_name}${pile ? ", in the discard pile" : ""})`, lines: cardWords(card, { pile }) }));
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
    return emptyCard(x, y, "empty", { title: `${deck.name} deck`, lines: ["No cards left to draw here."] }, deck.id);
  }
  const g = cardSvg(top, x, y, { count: deck.size, id: deck.id });
  g.classList.add("deck");
  g.setAttribute("aria-label", `${deck.name} deck, ${deck.size} cards, top ${top.code}: ${top.gives}`);
  g.setAttribute("data-deck", deck.code);
  tip(g, () => ({
    title: `${deck.name} deck · ${deck.size} card${deck.size === 1 ? "" : "s"}`,
    lines: [`Top card ${top.code}.`, ...cardWords(top),
      "A Draw action takes the top card; the next one shows only then."],
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
  const rule = "It goes to the player with the most discs on the shipping track when the region opens (a tie: the tied disc closest to the deck).";
  if (gov.where === "board") {
    const g = cardSvg(gov.card, x, y, { label: "Gov." });
    g.classList.add("governor");
    const winner = gov.winner;
    if (winner !== null && winner !== undefined) {
      g.append(s("text", { x: x + CARD_W / 2, y: y + CARD_H + 12, "text-anchor": "middle", class: "small" },
        `→ ${winner >= players ? "SF" : `P${winner}`}`)); // short: the tip names them
    }
    tip(g, () => ({
      title: `${region.name} Governor`,
      lines: [`Gives ${gov.card.gives}.`, rule,
        winner !== null && winner !== undefined ? `${ownerName(winner, players)} would take it now.` : "Nobody would take it yet: no disc on the track.",
        "It counts as an Asset card; the free Governor slot of a mat holds one outside the card limit."],
    }));
    return g;
  }
  const text = gov.where === "player" ? `Gov P${gov.holder}` : "Gov gone"; // the tip names them
  return emptyCard(x, y, text, {
    title: `${region.name} Governor`,
    lines: [gov.where === "player" ? `${ownerName(gov.holder ?? -1, players)} holds it (${gov.card.gives}).` : "Out of the game (discarded).", rule],
  });
}

// ------------------------------------------------------------------ sites
/** @param {number} n */
const discs = (n) => `${n} disc${n === 1 ? "" : "s"}`;

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
  if (site.missionaries) return "A city with a Missionary may never be Attacked (Jesuit Missionaries).";
  if (site.pirate) return "Nobody may Occupy or Attack it while the Pirate is here.";
  if (site.owner === null) return null;
  const closed = region.id !== "EU" && !region.open ? " once the region is open" : "";
  /** @type {[number, number][]} each attacker's seat and Harbor discs */
  const others = [];
  (site.attack_discs || []).forEach((n, p) => { if (n !== null && n !== undefined) others.push([p, n]); });
  const first = others.length ? others[0][1] : 2;
  const casualties = (/** @type {number} */ n) => (n - 1 === 0 ? "no casualty" : `${n - 1} lost to your supply`);
  let cost;
  if (others.every(([, n]) => n === first)) {
    cost = `Attacking it${closed} takes ${discs(first)} from your Harbor: ${casualties(first)}, one that takes the place`;
  } else {
    cost = `Attacking it${closed} takes from the Harbor (the casualties and one disc that takes the place): ${
      others.map(([p, n]) => `${ownerName(p, players)} ${discs(n)}`).join(", ")}`;
  }
  const why = site.fortified ? " (it is fortified)"
    : others.some(([, n]) => n < 2) ? " (Imperialism: no casualty for an attacker who controls a city joined to it by a link with no Blockade)" : "";
  return `${cost}${why}; you need presence in the region.`;
}

/**
 * What a site is, who holds it and what taking it costs (a list of sentences).
 * @param {Site} site
 * @param {Region} region
 * @param {number} players
 */
export function siteWords(site, region, players) {
  const lines = [];
  const where = region.id === "EU" ? "Europe (always open)" : `${region.name}${region.open ? " (open)" : " (closed until its shipping track fills)"}`;
  if (site.kind === "city") {
    lines.push(`A city in ${where}, worth ${site.glory} glory at the end to whoever occupies it; every link it shares with another site you hold is 1 more.`);
  } else {
    lines.push(`A trade route in ${where}: Ship a disc here (once the region is open) to take its token; it counts for the links it joins, not for glory of its own.`);
  }
  if (site.fortified) lines.push(fortWords);
  if (site.missionaries) lines.push(missionaryWords(site.missionaries));
  if (site.pirate) lines.push(pirateWords);
  if (site.owner !== null) lines.push(`Held by ${ownerName(site.owner, players)}.`);
  else if (site.token && !site.pirate) {
    lines.push(`Free. Its token: ${tokenWords(site.token)}, taken by the first disc here.`);
    if (site.kind === "city") lines.push("Occupy it with a disc from your Harbor (you need presence in the region).");
  } else if (!site.pirate) lines.push("Free, its token already taken.");
  const attack = attackWords(site, region, players);
  if (attack) lines.push(attack);
  else lines.push("Once someone holds it, attacking it takes 2 discs from your Harbor (one lost, one that takes the place).");
  if (site.tile) lines.push("An Exploit tile covers this site.");
  return lines;
}

const fortWords = "Fortified: a Fortification token lies under the holder's disc. An Attack here costs 2 casualties instead of 1, and the Fortification goes back to its Exploit tile.";
const pirateWords = "The Pirate is here (The Republic of Pirates): it sent the city's disc back to its owner's supply and discarded its token. The city counts as unoccupied until the Pirate moves on.";
/** @param {number} n */
function missionaryWords(n) {
  return `${n === 1 ? "A Missionary is" : `${n} Missionaries are`} here (Jesuit Missionaries): the city may never be Attacked while one stays; its holder scores 1 glory for it with a Shield on that Exploit.`;
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
    out.push(tip(s("g", { class: "piece fortification", "aria-label": "Fortification" },
      s("path", { d, class: "fort-shape" }),
      s("path", { d: `M${fx - 3},${fy + 11} v-6 a3,3 0 0 1 6,0 v6`, class: "fort-door" })),
    { title: "Fortification", lines: [fortWords] }));
  }
  if (site.missionaries) {
    const mx = x + r + 1;
    const my = y - r + 6;
    const g = s("g", { class: "piece missionary", "aria-label": `Missionar${site.missionaries === 1 ? "y" : "ies"}` },
      s("circle", { cx: mx, cy: my, r: 9.5, class: "missionary-shape" }),
      s("path", { d: `M${mx},${my - 6.5} V${my + 6.5} M${mx - 4.5},${my - 2} H${mx + 4.5}`, class: "missionary-cross" }));
    if (site.missionaries > 1) {
      g.append(s("text", { x: mx + 8, y: my - 6, class: "piece-count" }, `×${site.missionaries}`));
    }
    out.push(tip(g, { title: site.missionaries === 1 ? "Missionary" : `${site.missionaries} Missionaries`, lines: [missionaryWords(site.missionaries)] }));
  }
  if (site.pirate) {
    // a black flag on a pole over the city, a white skull and crossbones on it
    const g = s("g", { class: "piece pirate", "aria-label": "the Pirate" },
      s("path", { d: `M${x - 9},${y + 11} V${y - 12}`, class: "pirate-pole" }),
      s("path", { d: `M${x - 9},${y - 12} h19 l-3,7.5 l3,7.5 h-19 Z`, class: "pirate-flag" }),
      s("circle", { cx: x + 0.5, cy: y - 7.5, r: 3, class: "pirate-skull" }),
      s("path", { d: `M${x - 3.5},${y - 4} L${x + 4.5},${y + 1} M${x + 4.5},${y - 4} L${x - 3.5},${y + 1}`, class: "pirate-bones" }));
    out.push(tip(g, { title: "The Pirate", lines: [pirateWords] }));
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
    g.append(s("text", { x, y: y - r - 7, "text-anchor": "middle", class: "glory-mark" }, "2 glory"));
  }
  labels.push(labelBox(x, y, site.name));
  if (site.glory === 2) labels.push([x - 22, y - r - 18, 44, 13]);
  tip(g, () => ({ title: `${site.name} · ${site.kind === "city" ? `city, ${site.glory} glory` : "trade route"}`, lines: siteWords(site, region, players) }));
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
  const g = s("g", { class: "track", "data-target": track.id, "aria-label": `${region.name} shipping track, ${track.filled} of ${n} taken` },
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
      title: `${region.name} shipping track, space ${space.space} of ${n}`,
      lines: [space.owner !== null ? `${ownerName(space.owner, players)}'s disc is here.`
        : `Free; its token: ${space.token ? tokenWords(space.token) : "none"}.`,
      "A Ship action puts a disc on the free space furthest from the deck and takes its token.",
      `When the last space fills the region opens and its Governor is awarded. ${track.filled} of ${n} taken.`],
    }));
    g.append(sp);
  });
  tip(g, () => ({
    title: `${region.name} shipping track`,
    lines: [`${track.filled} of ${n} spaces taken${region.open ? "; the region is open" : ""}.`,
      "Ship here to claim the free space furthest from the deck (and its token); the track filling opens the region."],
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
  const g = s("g", { class: "sea", "data-target": sea.id, "aria-label": `${region.name}: ${sea.label}` },
    s("rect", { x, y, width: 112, height: 44, rx: 10, class: "sea-bg hl" }),
    s("text", { x: x + 56, y: y + 12, "text-anchor": "middle", class: "small" }, sea.label));
  sea.discs.forEach((d, i) => {
    const cx = x + 14 + i * 21;
    g.append(discSvg(d.owner, players, cx, y + 29, 8.5),
      s("text", { x: cx + 8, y: y + 41, class: "disc-count" }, `×${d.count}`));
  });
  tip(g, () => ({
    title: `${region.name}: ${sea.label}`,
    lines: [classic
      ? "A ship to a full track goes here: it gives presence in the region, no token."
      : "Ship a disc here once the region is open and its track is full: it gives you presence in the region (to Occupy, Attack and Draw), nothing else.",
    sea.discs.length ? `Here: ${sea.discs.map((d) => `${ownerName(d.owner, players)} ×${d.count}`).join(", ")}.` : "No discs here yet."],
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
  const presence = `Presence: ${region.presence.map((n, p) => `${ownerName(p, players)} ${n}`).join(", ")}.`;
  let rule;
  if (region.id === "EU") {
    rule = classic
      ? "Europe is open from the start: anyone may Occupy and Attack its cities, and everyone has presence here. It has no shipping track and can never be Shipped to; its two decks count your discs on its cities."
      : "Europe is open from the start: anyone may Occupy, Attack and Ship to its trade routes, and everyone has presence here. Its two decks and the discard pile count your discs on its cities and trade routes.";
  } else if (region.open) {
    rule = classic
      ? "Open: its cities may be occupied and attacked and its deck drawn from; a Ship here goes beside the full track (presence, no token)."
      : "Open: its cities may be occupied and attacked, its trade routes and open sea shipped to.";
  } else {
    rule = `Closed until its shipping track fills (${region.track?.filled} of ${region.track?.length}); until then ${
      classic ? "only Ship to the track works here (no Draw: a deck is drawn from only once its region is open)" : "only Ship to the track and Draw work here"}.`;
  }
  return [rule, presence];
}

/** @param {Region} region */
function regionStatus(region) {
  if (region.id === "EU" || !region.track) return "always open";
  return region.open ? "open" : `closed · ${region.track.filled}/${region.track.length}`;
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
        "Slavery abolished"));
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
  const kind = `${link.circular ? "A circular link" : "A square link (never has a token)"}: hold both ends to control it; each link you control is 1 glory at the end.`;
  if (link.blockade) {
    return [kind,
      "A Blockade (Imperialism) lies on it: while it stays, the link may not be claimed, controlled or used in any way. Holding both ends does not control it, and nobody takes its token.",
      `Once Imperialism is active, a player with a Shield on it may claim the Blockade with an Attack action and takes the token beneath it: ${link.token ? `a ${tokenWords(link.token)}` : "none here"}.`];
  }
  return [kind, link.controller !== null ? `Controlled by ${ownerName(link.controller, players)}.`
    : link.token ? `Its token (${tokenWords(link.token)}) goes to the first player to control it.` : "Nobody controls it."];
}

/**
 * A Blockade token on a link: a red and white barrier.
 * @param {number} x
 * @param {number} y
 */
function blockadeSvg(x, y) {
  const w = 26;
  const hgt = 14;
  const g = s("g", { class: "blockade", "aria-label": "Blockade" },
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
      "aria-label": `Link ${sitesByCode[link.a]?.name || link.a} – ${sitesByCode[link.b]?.name || link.b}` },
      s("circle", { cx: px, cy: py, r: 21, class: "hit" }));
    if (link.blockade) marker.append(blockadeSvg(px, py));
    else if (link.token) marker.append(tokenBadge(link.token, px, py, 8, "link-token"));
    else if (link.controller !== null) marker.append(discSvg(link.controller, players, px, py, 9));
    else if (link.circular) marker.append(s("circle", { cx: px, cy: py, r: 5, class: "link-dot hl" }));
    else marker.append(s("rect", { x: px - 5, y: py - 5, width: 10, height: 10, class: "link-dot hl" }));
    const na = sitesByCode[link.a]?.name || link.a;
    const nb = sitesByCode[link.b]?.name || link.b;
    tip(marker, () => ({ title: `Link ${na} – ${nb}${link.blockade ? " · Blockade" : ""}`, lines: linkWords(link, players) }));
    markers.append(marker);
  }
  return [lines, markers];
}

// ------------------------------------------------------------------ pile and Exploits
/**
 * The 2009 rules have no discard pile: where a discarded card goes (the 2009 rulebook's
 * Pass / Discard: back to its own stack, kept in increasing value order from the top
 * down; Slavery cards set aside, Governors out of the game), a line each in the panel.
 */
export const CLASSIC_DISCARD_LINES = [
  "2009 rules: a discarded card goes back",
  "into its own deck by value, the lowest",
  "on top. A Slavery card is set aside",
  "(−1 glory at the end); a Governor",
  "leaves the game.",
];

/** @param {BoardState} state */
function pileSvg(state) {
  const [x, y, w, h] = PILE_AREA;
  const g = s("g", { class: "pile-panel" },
    s("rect", { x, y, width: w, height: h, rx: 14, class: "panel" }),
    s("text", { x: x + 12, y: y + 22, class: "region-name" }, "Discard pile"));
  if (state.ruleset === "classic") {
    g.append(...CLASSIC_DISCARD_LINES.map((line, i) =>
      s("text", { x: x + 12, y: y + 46 + 14 * i, class: "small" }, line)));
    tip(g, { title: "No discard pile (2009 rules)", lines: ["A discarded card goes back into the deck printed on it, at the place of its value (lowest on top); a Slavery card is set aside, a Governor leaves the game."] });
    return g;
  }
  g.append(s("text", { x: x + w - 12, y: y + 22, "text-anchor": "end", class: "small pile-count" }, "Draw: discs in Europe"));
  tip(g, { title: "Discard pile", lines: [
    "Cards discarded in the Discard phase lie here face up (a Slavery card is set aside instead, a Governor leaves the game).",
    `A Draw action may take any card here, not only the last one, when ${PILE_COUNT} reach its Draw value, whatever the card's deck.`] });
  if (!state.pile.length) {
    g.append(s("text", { x: x + 12, y: y + 46, class: "small" }, "empty"));
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
  const both = `${named[0].name} and ${named[1].name}`;
  if (tile.active) return `Active: both its regions, ${both}, are open.`;
  const open = named.filter((r) => r.open);
  return `Dormant until both its regions, ${both}, are open${open.length ? ` (only ${open[0].name} is so far)` : " (neither is yet)"}.`;
}

/** @param {BoardState} state */
function exploitsSvg(state) {
  const [x, y, w, h] = EXPLOIT_AREA;
  const tiles = [...state.exploits, ...state.variants];
  const g = s("g", { class: "exploit-panel" },
    s("rect", { x, y, width: w, height: h, rx: 14, class: "panel" }),
    s("text", { x: x + 12, y: y + 22, class: "region-name" },
      state.ruleset === "classic" ? "2009 rules" : tiles.length ? "Exploits" : "No Exploits"));
  if (!tiles.length) {
    g.append(s("text", { x: x + 12, y: y + 46, class: "small" },
      state.ruleset === "classic" ? "The 2009 game has no Exploits." : "This game plays without Exploits."));
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
    const t = s("g", { class: `exploit${active ? " active" : ""}`, "data-target": tile.id, "data-exploit": key, "aria-label": tile.name },
      s("rect", { x: tx, y: ty, width: tw, height: th, rx: 8, class: "exploit-bg hl" }));
    const head = [tile.regions ? `${tile.regions.join(" + ")} · ${active ? "active" : "dormant"}` : "variant"];
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
        ? ` · Shields: ${tile.shields.map((p) => ownerName(p, state.players_count)).join(", ")}` : " · no Shields";
      meta.append(shields);
    }
    const ruleEl = document.createElement("div");
    ruleEl.className = "tile-rule";
    ruleEl.setAttribute("data-testid", `exploit-rule-${key}`);
    ruleEl.textContent = rule;
    div.append(nameEl, meta, ruleEl);
    fo.append(div);
    t.append(fo);
    tip(t, () => ({
      title: `${tile.name}${tile.number ? ` (Exploit ${tile.number})` : ""}`,
      lines: [exploitStatus(tile, state.regions),
        rule, tile.shield ? `Shields: ${tile.shield}` : null,
        tile.shields && tile.shields.length ? `Shields held by ${tile.shields.map((p) => ownerName(p, state.players_count)).join(", ")}.` : null,
        tile.rule && tile.text ? `Now: ${tidy(tile.text)}` : null],
    }));
    g.append(t);
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
    "aria-label": `Board side ${state.board}, round ${state.round}, ${state.phase}`,
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
