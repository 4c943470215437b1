// Seat names in words (names.js): what the page calls each seat, and the result line.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./storage.mjs";
import "./catalogs.mjs";
import {
  lastName, namesInWords, rememberName, resultLine, seatLook, seatName, seatWords, setSeats,
} from "../../src/endeavor/web/static/names.js";

const SEATS = [{ name: "Anna" }, { name: null }, { name: "P2" }, { name: "Medium bot" }];

test("seatName: the seat's name, else its number", () => {
  assert.equal(seatName(0, SEATS), "Anna");
  assert.equal(seatName(1, SEATS), "P1");
  assert.equal(seatName(7, SEATS), "P7", "a seat not known");
});

test("seatWords: 'Anna (P0)' for a named seat, the number alone otherwise", () => {
  assert.equal(seatWords(0, SEATS), "Anna (P0)");
  assert.equal(seatWords(1, SEATS), "P1");
  assert.equal(seatWords(2, SEATS), "P2", "a name that is its own number is no name");
});

test("seatLook: the seat's colour and shape, as the board draws it", () => {
  assert.equal(seatLook(0), "P0, red circle");
  assert.equal(seatLook(1), "P1, blue square");
  assert.equal(seatLook(6), "P6, blue square", "round again past five");
});

test("namesInWords names the game's seats only", () => {
  assert.equal(namesInWords("P0 ships to P1; P3 waits; P9 is no seat", SEATS),
    "Anna (P0) ships to P1; Medium bot (P3) waits; P9 is no seat");
  assert.equal(namesInWords("AP0 and P01 are not seats", SEATS), "AP0 and P01 are not seats");
});

test("setSeats: the seats the helpers use when none are given", () => {
  setSeats(SEATS);
  assert.equal(seatName(0), "Anna");
  setSeats(null);
  assert.equal(seatName(0), "P0");
});

test("resultLine: one winner, then the others by rank", () => {
  const scores = [
    { seat: 0, total: 51, rank: 3 }, { seat: 1, total: 71, rank: 1 },
    { seat: 2, total: 62, rank: 2 }, { seat: 3, total: 40, rank: 4 },
  ];
  assert.equal(resultLine(scores, SEATS), "P1 wins with 71 — P2 62, Anna 51, Medium bot 40");
});

test("resultLine: a shared win, and no scores", () => {
  const scores = [{ seat: 0, total: 60, rank: 1 }, { seat: 1, total: 60, rank: 1 }, { seat: 3, total: 60, rank: 1 }];
  assert.equal(resultLine(scores, SEATS), "Anna, P1 and Medium bot share the win with 60");
  assert.equal(resultLine([], SEATS), null);
  assert.equal(resultLine(null, SEATS), null);
});

test("the name this browser used last", () => {
  assert.equal(lastName(), "");
  rememberName("Bea");
  assert.equal(lastName(), "Bea");
});

test("seatName: a bot's seat nobody named is called by its level in the reader's language", async () => {
  const { setLocale } = await import("../../src/endeavor/web/static/i18n.js");
  const bots = [{ kind: "bot", bot: "medium", named: false, name: "Medium bot" },
    { kind: "bot", bot: "medium", named: false, name: "Medium bot 2" },
    { kind: "bot", bot: "hard", named: true, name: "Deep Blue" }];
  setLocale("en");
  assert.deepEqual([0, 1, 2].map((p) => seatName(p, bots)), ["Medium bot", "Medium bot 2", "Deep Blue"]);
  setLocale("fr");
  try {
    assert.deepEqual([0, 1, 2].map((p) => seatName(p, bots)), ["Robot moyen", "Robot moyen 2", "Deep Blue"]);
  } finally {
    setLocale("en");
  }
});
