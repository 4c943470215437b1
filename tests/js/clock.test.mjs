// The clock maths (clock.js): durations and settings in words, what a seat has left and
// what its chip says.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./catalogs.mjs";
import { amount, clockFace, clockWords, duration, leftAfter } from "../../src/endeavor/web/static/clock.js";

/** @returns {import("../../src/endeavor/web/static/types.js").Clock} */
function clock(over = {}) {
  return { kind: "live", left: [100, 300], banks: [80, 300], per_decision: 20, running: 0, paused: false,
    deadline: null, bot: "medium", on_timeout: "decision", ...over };
}

test("duration: m:ss under an hour, then hours and days", () => {
  assert.equal(duration(7), "0:07");
  assert.equal(duration(754), "12:34");
  assert.equal(duration(-3), "0:00");
  assert.equal(duration(59.9), "0:59");
  assert.equal(duration(3600), "1 h");
  assert.equal(duration(5 * 3600 + 12 * 60 + 30), "5 h 12 min");
  assert.equal(duration(86400), "1 d");
  assert.equal(duration(2 * 86400 + 5 * 3600), "2 d 5 h");
});

test("amount: a setting in its round unit", () => {
  assert.equal(amount(20), "20 s");
  assert.equal(amount(1200), "20 min");
  assert.equal(amount(86400), "1 day");
  assert.equal(amount(3 * 86400), "3 days");
  assert.equal(amount(7200), "2 h");
  assert.equal(amount(5400), "90 min", "whole minutes stay minutes");
  assert.equal(amount(3661), "1 h 1 min");
  assert.equal(amount(90), "1:30");
});

test("clockWords: the settings in one line", () => {
  assert.equal(clockWords(clock({ bank: 1200 })),
    "Live clock: 20 min each + 20 s per decision; when time runs out, the medium bot plays that decision.");
  assert.equal(clockWords(clock({ kind: "turn", bank: 0, per_decision: 86400, on_timeout: "game", reclaim: true, bot: "hard" })),
    "Turn-based clock: 1 day per decision; when time runs out, the hard bot plays the rest of the game (the player may take the seat back).");
});

test("leftAfter: only the running seat's time counts down, never below 0", () => {
  const c = clock();
  assert.equal(leftAfter(c, 0, 30), 70);
  assert.equal(leftAfter(c, 0, 500), 0);
  assert.equal(leftAfter(c, 1, 30), 300, "a waiting seat's time stands");
  assert.equal(leftAfter(clock({ paused: true }), 0, 30), 100, "stopped clocks stand");
});

test("clockFace: the running seat shows its decision's own time, then its bank", () => {
  const face = clockFace(clock(), 0, 5); // 95 left: 15 of its own, 80 in the bank
  assert.equal(face.text, "0:15 + 1:20");
  assert.equal(face.tip, "0:15 left of this decision's own time, then 1:20 in the bank");
  assert.equal(face.running, true);
  assert.equal(face.low, false);
  assert.equal(face.stopped, false);
});

test("clockFace: in the bank, low at a tenth of the time or 10 seconds", () => {
  const face = clockFace(clock(), 0, 91); // 9 left, all of it bank time
  assert.equal(face.text, "0:09");
  assert.equal(face.tip, "0:09 left, then the medium bot plays");
  assert.equal(face.low, true);
  const small = clock({ left: [40, 0], banks: [30, 0] }); // 50 s in all: the 10 s floor counts
  assert.equal(clockFace(small, 0, 31).low, true, "9 s left");
  assert.equal(clockFace(small, 0, 29).low, false, "11 s left");
  assert.equal(clockFace(clock({ left: [400, 0], banks: [380, 0] }), 0, 365).low, true, "35 s of 400: under a tenth");
});

test("clockFace: a waiting seat shows its bank, or its time a decision", () => {
  assert.equal(clockFace(clock(), 1, 50).text, "5:00");
  assert.equal(clockFace(clock(), 1, 50).tip, "5:00 in the bank, plus 20 s for each decision");
  const noBank = clock({ banks: [0, 0], per_decision: 86400, kind: "turn" });
  assert.equal(clockFace(noBank, 1, 0).text, "1 day a decision");
  assert.equal(clockFace(noBank, 1, 0).running, false);
});

test("clockFace: stopped clocks say so", () => {
  const face = clockFace(clock({ paused: true }), 0, 40);
  assert.equal(face.text, "1:40 · stopped");
  assert.equal(face.tip, "The host stopped the clocks");
  assert.equal(face.stopped, true);
  assert.equal(face.running, false);
});
