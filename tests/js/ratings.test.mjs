// The ratings' words (ratings.js, profile.js, ratingchart.js) without a browser: a change
// with its sign, a number the reader's way, a family's and a place's names, the chart's
// summary for screen readers.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { MemoryStorage } from "./storage.mjs";
import "./catalogs.mjs";
import { STORAGE_KEY } from "../../src/endeavor/web/static/i18n.js";
import { familyName, one, signed } from "../../src/endeavor/web/static/ratings.js";
import { placeWords } from "../../src/endeavor/web/static/profile.js";
import { historySummary } from "../../src/endeavor/web/static/ratingchart.js";

const realStorage = Object.getOwnPropertyDescriptor(globalThis, "localStorage");
afterEach(() => {
  if (realStorage) Object.defineProperty(globalThis, "localStorage", realStorage);
  else delete /** @type {any} */ (globalThis).localStorage;
});

/** Read in `lang` (the choice kept in this "browser"). @param {string} lang */
function reading(lang) {
  const storage = new MemoryStorage();
  storage.setItem(STORAGE_KEY, lang);
  Object.defineProperty(globalThis, "localStorage", { value: storage, configurable: true });
}

const HISTORY = [3.94, 7.5, 10.2, 9.1, 14.2].map((rating, i) => ({ at: `2026-11-0${i + 1}T20:00:00Z`, game_id: `g${i}`, rating }));

test("a change has its sign, rounded to one decimal; none is ±0.0", () => {
  reading("en");
  assert.deepEqual([1.84, -0.36, 0.04, -0.04, 0, 12].map(signed), ["+1.8", "−0.4", "±0.0", "±0.0", "±0.0", "+12.0"]);
  assert.equal(one(14.25), "14.3");
});

test("a negative rating has a true minus sign, as its change; a rounded zero has none", () => {
  reading("en");
  assert.deepEqual([-3.34, -12.9, -0.04, 0].map(one), ["−3.3", "−12.9", "0.0", "0.0"]);
  reading("fr");
  assert.equal(one(-11.1), "−11,1");
});

test("French writes its decimal comma", () => {
  reading("fr");
  assert.equal(one(14.2), "14,2");
  assert.equal(signed(-0.4), "−0,4");
});

test("a family and a place in the reader's words; an unknown family as the server names it", () => {
  reading("en");
  assert.deepEqual(["age-of-sail", "classic", "silent-fleet"].map((f) => familyName(f)), ["Age of Sail", "2009 rules", "Silent Fleet"]);
  assert.equal(familyName("chess", "Chess"), "Chess");
  assert.deepEqual([1, 2, 3, 4, 5].map(placeWords), ["1st", "2nd", "3rd", "4th", "5th"]);
  reading("fr");
  assert.equal(familyName("classic"), "Règles de 2009");
  assert.deepEqual([1, 2, 5].map(placeWords), ["1re", "2e", "5e"]);
});

test("the chart's summary: the games, the first and last rating, the highest", () => {
  reading("en");
  assert.equal(historySummary(HISTORY), "Rating over 5 rated games: from 3.9 to 14.2, highest 14.2");
  assert.equal(historySummary(HISTORY.slice(0, 1)), "Rating over 1 rated game: 3.9");
  assert.equal(historySummary([]), "No rated game yet");
  reading("fr");
  assert.equal(historySummary(HISTORY.slice(0, 2)), "Cote sur 2 parties classées : de 3,9 à 7,5, au plus haut 7,5");
});
