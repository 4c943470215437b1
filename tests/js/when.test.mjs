// Times in words (when.js): the same words as src/endeavor/web/when.py.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./catalogs.mjs";
import { agoWords, durationWords, momentWords } from "../../src/endeavor/web/static/when.js";

const NOW = new Date("2026-12-02T12:00:00Z");

test("agoWords: under a minute is just now, the future too", () => {
  assert.equal(agoWords("2026-12-02T11:59:30Z", NOW), "just now");
  assert.equal(agoWords("2026-12-02T12:05:00Z", NOW), "just now");
  assert.equal(agoWords("not a date", NOW), "just now");
});

test("agoWords: the largest unit, floored", () => {
  assert.equal(agoWords("2026-12-02T11:55:00Z", NOW), "5 min ago");
  assert.equal(agoWords("2026-12-02T09:01:00Z", NOW), "2 h ago");
  assert.equal(agoWords("2026-11-29T11:00:00Z", NOW), "3 d ago");
  assert.equal(agoWords(new Date(NOW.getTime() - 59 * 60 * 1000), NOW), "59 min ago");
});

test("durationWords: the two largest units, singular and plural", () => {
  assert.equal(durationWords(59), "less than a minute");
  assert.equal(durationWords(-5), "less than a minute");
  assert.equal(durationWords(60), "1 minute");
  assert.equal(durationWords(3900), "1 hour 5 minutes");
  assert.equal(durationWords(3 * 86400 + 12 * 3600 + 59), "3 days 12 hours");
  assert.equal(durationWords(2 * 86400 + 7 * 60), "2 days", "a unit of none ends the words");
});

test("momentWords: a day and a time of day", () => {
  const words = momentWords("2026-12-05T14:00:00Z");
  assert.match(words, /^.+, \d{1,2}[:.]\d{2}( ?[AP]M)?$/i);
  assert.ok(words.includes("5") || words.includes("6"), words); // the 5th (or the 6th, far east)
});
