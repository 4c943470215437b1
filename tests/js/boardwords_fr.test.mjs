// The board's tip cards in French (board.js through i18n.js, static/i18n/fr.json): the
// same facts as in English, in the reader's language; the server's words (region, deck
// and token names, what a card gives) come in French already.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import "./catalogs.mjs";
import { MemoryStorage } from "./storage.mjs";
import { STORAGE_KEY } from "../../src/endeavor/web/static/i18n.js";
import {
  attackWords, cardTitle, cardWords, classicDiscardLines, exploitStatus, linkWords, regionWords, siteWords,
} from "../../src/endeavor/web/static/board.js";

const realNavigator = Object.getOwnPropertyDescriptor(globalThis, "navigator");
const realStorage = Object.getOwnPropertyDescriptor(globalThis, "localStorage");
before(() => {
  const storage = new MemoryStorage();
  storage.setItem(STORAGE_KEY, "fr");
  Object.defineProperty(globalThis, "localStorage", { value: storage, configurable: true });
  Object.defineProperty(globalThis, "navigator", { value: { languages: ["fr"], language: "fr" }, configurable: true });
});
after(() => {
  for (const [name, real] of [["navigator", realNavigator], ["localStorage", realStorage]]) {
    if (real) Object.defineProperty(globalThis, name, real);
    else delete /** @type {any} */ (globalThis)[name];
  }
});

/** @param {Partial<import("../../src/endeavor/web/static/types.js").Region>} over */
const region = (over = {}) => ({
  id: "NA", name: "Amérique du Nord", open: true, presence: [1, 1, 0], cities: [], routes: [],
  track: { id: "track:NA", length: 6, filled: 6, spaces: [] }, sea: null, decks: [],
  governor: null, abolished: false, ...over,
});

/** @param {Partial<import("../../src/endeavor/web/static/types.js").Site>} over */
const city = (over = {}) => ({
  id: "city:NA1", code: "NA1", name: "Boston", kind: /** @type {"city"} */ ("city"), glory: 1,
  owner: 0, token: null, fortified: false, missionaries: 0, pirate: false,
  attack_discs: [null, 2, 2], ...over,
});

test("a city's tip card in French: where it lies, who holds it, what an Attack takes", () => {
  const words = siteWords(city({ fortified: true, attack_discs: [null, 3, 3] }), region(), 3).join(" ");
  assert.match(words, /^Une ville · Amérique du Nord \(ouverte\) ; elle vaut 1 Gloire/);
  assert.match(words, /Fortifiée : un jeton Fortification/);
  assert.match(words, /L'attaquer prend 3 disques à votre Port : 2 perdus vers votre réserve/);
  assert.match(words, /\(elle est fortifiée\) ; il faut être présent dans la région\./);
  assert.doesNotMatch(words, /Attacking|Held by|discs/);
  const missioned = siteWords(city({ missionaries: 2, attack_discs: null }), region(), 3).join(" ");
  assert.match(missioned, /2 Missionnaires sont ici/);
  assert.equal(attackWords(city({ missionaries: 1 }), region(), 3),
    "Une ville qui abrite un Missionnaire ne peut jamais être attaquée (Missionnaires jésuites).");
  const free = siteWords(city({ owner: null, token: { kind: "IND", name: "Industrie", colour: "brown" } }),
    region({ open: false }), 3).join(" ");
  assert.match(free, /fermée jusqu'à ce que sa piste de navigation soit pleine/);
  assert.match(free, /Libre\. Son jeton : jeton Industrie \(\+1 Industrie\)/);
});

test("a card in French, one disc or several, from a deck or the discard pile", () => {
  const card = { value: 1, deck: "SA", deck_name: "de l'Amérique du Sud", gives: "Culture 2", bonus_disc: true,
    slavery: false, abolition: false, governor: false };
  assert.deepEqual(cardWords(card), [
    "Valeur de pioche 1 : vous pouvez la piocher avec une action Pioche quand vous avez au moins 1 disque dans la région de l'Amérique du Sud.",
    "Donne : Culture 2.",
    "Quand vous la piochez, vous faites aussi passer 1 disque de votre réserve à votre Port.",
  ]);
  assert.match(cardWords({ ...card, value: 3 }, { pile: true })[0], /au moins 3 disques en Europe/);
  assert.equal(cardTitle({ code: "SA/1", governor: false, deck_name: "de l'Amérique du Sud" }, true),
    "SA/1 (pioche de l'Amérique du Sud, dans la défausse)");
  assert.match(cardWords({ governor: true, gives: "1 Gloire" })[0], /^Une carte Gouverneur/);
});

test("links, regions and Exploits in French", () => {
  const link = { id: "link:IN1-FE1", a: "IN1", b: "FE1", circular: true, controller: 5,
    token: null, blockade: false };
  assert.deepEqual(linkWords(link, 3), [
    "Une liaison ronde : tenez ses deux extrémités pour la contrôler ; chaque liaison que vous contrôlez vaut 1 Gloire en fin de partie.",
    "Contrôlée par Flotte Silencieuse.",
  ]);
  assert.match(regionWords(region({ open: false, track: { id: "track:NA", length: 6, filled: 2, spaces: [] } }), 3, false)[0],
    /^Fermée jusqu'à ce que sa piste de navigation soit pleine \(2 sur 6\)/);
  const regions = [region({ id: "NA", name: "Amérique du Nord" }), region({ id: "SA", name: "Amérique du Sud", open: false })];
  assert.equal(exploitStatus({ regions: ["NA", "SA"], active: false }, regions),
    "En sommeil jusqu'à ce que ses deux régions, Amérique du Nord et Amérique du Sud, soient ouvertes (seule la région Amérique du Nord l'est pour l'instant).");
  assert.match(classicDiscardLines().join(" "), /^Règles 2009 : une carte défaussée retourne/);
});
