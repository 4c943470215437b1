// What the board's tip cards say (board.js), checked against the rulebooks without
// drawing: an Attack's cost on a fortified, missioned or pirated city, a Blockade, the
// regions of the 2009 board, an Exploit's waking and the discard pile's Draw count.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./catalogs.mjs";

import {
  attackWords, cardWords, exploitStatus, linkWords, regionWords, siteWords,
} from "../../src/endeavor/web/static/board.js";

/** @param {Partial<import("../../src/endeavor/web/static/types.js").Region>} over */
const region = (over = {}) => ({
  id: "NA", name: "North America", open: true, presence: [1, 1, 0], cities: [], routes: [],
  track: { id: "track:NA", length: 6, filled: 6, spaces: [] }, sea: null, decks: [],
  governor: null, abolished: false, ...over,
});

/** @param {Partial<import("../../src/endeavor/web/static/types.js").Site>} over */
const city = (over = {}) => ({
  id: "city:NA1", code: "NA1", name: "Boston", kind: /** @type {"city"} */ ("city"), glory: 1,
  owner: 0, token: null, fortified: false, missionaries: 0, pirate: false,
  attack_discs: [null, 2, 2], ...over,
});

test("an Attack on a held city takes 2 Harbor discs, 3 when it is fortified", () => {
  assert.match(attackWords(city(), region(), 3) || "", /takes 2 discs from your Harbor: 1 lost/);
  const fortified = city({ fortified: true, attack_discs: [null, 3, 3] });
  const words = siteWords(fortified, region(), 3).join(" ");
  assert.match(words, /takes 3 discs from your Harbor: 2 lost/);
  assert.match(words, /Fortified/);
  assert.doesNotMatch(words, /takes 2 discs/);
});

test("a city with a Missionary or the Pirate can't be attacked, and says so", () => {
  const missioned = siteWords(city({ missionaries: 2, attack_discs: null }), region(), 3).join(" ");
  assert.match(missioned, /2 Missionaries are here/);
  assert.match(missioned, /may never be Attacked/);
  assert.doesNotMatch(missioned, /takes \d discs/);
  const pirate = siteWords(city({ owner: null, pirate: true, attack_discs: null }), region(), 3).join(" ");
  assert.match(pirate, /The Pirate is here/);
  assert.match(pirate, /Nobody may Occupy or Attack it/);
  assert.doesNotMatch(pirate, /takes \d discs|Once someone holds it/);
});

test("attackers who pay differently (Imperialism) are named with their cost", () => {
  const words = attackWords(city({ attack_discs: [null, 1, 2] }), region({ id: "IN", name: "India" }), 3) || "";
  assert.match(words, /P1 1 disc, P2 2 discs/);
  assert.match(words, /Imperialism/);
});

test("a Blockade promises its token to nobody who controls the link", () => {
  const link = { id: "link:IN1-FE1", a: "IN1", b: "FE1", circular: true, controller: null,
    token: { kind: "IND", name: "Industry", colour: "brown" }, blockade: true };
  const words = linkWords(link, 3).join(" ");
  assert.doesNotMatch(words, /first player to control/);
  assert.match(words, /may not be claimed, controlled or used in any way/);
  assert.match(words, /claim the Blockade with an Attack action/);
  assert.match(words, /Industry token/);
  const open = linkWords({ ...link, blockade: false }, 3).join(" ");
  assert.match(open, /goes to the first player to control it/);
});

test("the 2009 regions: no Draw while closed, no trade routes in Europe", () => {
  const europe = region({ id: "EU", name: "Europe", track: null });
  const classicEurope = regionWords(europe, 3, true).join(" ");
  assert.doesNotMatch(classicEurope, /trade route/);
  assert.match(classicEurope, /can never be Shipped to/);
  assert.match(regionWords(europe, 3, false).join(" "), /trade routes/);
  const closed = region({ open: false, track: { id: "track:NA", length: 6, filled: 2, spaces: [] } });
  const classicClosed = regionWords(closed, 3, true)[0];
  assert.doesNotMatch(classicClosed, /Ship to the track and Draw/);
  assert.match(classicClosed, /no Draw/);
  assert.match(regionWords(closed, 3, false)[0], /Ship to the track and Draw work here/);
});

test("an Exploit wakes when both its regions are open, not one", () => {
  const regions = [region({ id: "NA", name: "North America", open: true }),
    region({ id: "SA", name: "South America", open: false })];
  const dormant = exploitStatus({ regions: ["NA", "SA"], active: false }, regions) || "";
  assert.match(dormant, /Dormant until both its regions, North America and South America, are open/);
  assert.match(dormant, /only North America is so far/);
  assert.doesNotMatch(dormant, /one of them/);
  assert.match(exploitStatus({ regions: ["NA", "SA"], active: true }, regions) || "", /Active: both/);
});

test("a card in the discard pile counts the discs in Europe, not in its own region", () => {
  const card = { deck: "SA", deck_name: "South America", value: 2, governor: false, gives: "Culture 2",
    bonus_disc: false, slavery: false, abolition: false, short: "", glory: 0, icons: {} };
  const pile = cardWords(card, { pile: true })[0];
  assert.match(pile, /at least 2 discs in Europe \(on its cities and trade routes\)/);
  assert.match(pile, /whatever you have in the South America region/);
  assert.match(cardWords(card)[0], /at least 2 discs in the South America region/);
});
