// The pan-and-zoom frame's maths (panzoom.js): the scale that shows the whole board, the
// scales the view may take, and keeping the view on the board.
import assert from "node:assert/strict";
import { test } from "node:test";

import { PHONE_MIN_SCALE, clampAxis, fitScale, scaleLimits, unionOf } from "../../src/endeavor/web/static/panzoom.js";

const BOARD = { w: 1200, h: 860 };

test("fitScale: the tighter of the two axes", () => {
  assert.equal(fitScale({ width: 600, height: 860 }, BOARD), 0.5);
  assert.equal(fitScale({ width: 2400, height: 430 }, BOARD), 0.5);
  assert.equal(fitScale({ width: 1200, height: 860 }, BOARD), 1);
});

test("the phone minimum keeps a 40-unit target at least 32 px", () => {
  assert.ok(40 * PHONE_MIN_SCALE >= 32, String(40 * PHONE_MIN_SCALE));
});

test("scaleLimits: a desktop can show the whole board, zooming in 4 times (at least 2.5)", () => {
  assert.deepEqual(scaleLimits(0.5, 0, false), [0.5, 2.5]);
  assert.deepEqual(scaleLimits(1, 0, false), [1, 4]);
});

test("scaleLimits: a phone never goes below its minimum, but its overview does", () => {
  const fit = fitScale({ width: 390, height: 600 }, BOARD); // 0.325
  assert.deepEqual(scaleLimits(fit, PHONE_MIN_SCALE, false), [PHONE_MIN_SCALE, 3.28]);
  assert.deepEqual(scaleLimits(fit, PHONE_MIN_SCALE, true), [fit, 2.5]);
  assert.deepEqual(scaleLimits(2, PHONE_MIN_SCALE, false), [2, 8], "a big frame: the board's own fit");
});

test("clampAxis: a view narrower than the board stays on it", () => {
  assert.equal(clampAxis(600, 0, 1200, 400), 600, "inside: unchanged");
  assert.equal(clampAxis(50, 0, 1200, 400), 200, "past the left edge: its half width in");
  assert.equal(clampAxis(1190, 0, 1200, 400), 1000, "past the right edge");
  assert.equal(clampAxis(-500, 100, 1200, 400), 300, "a board that does not start at 0");
});

test("clampAxis: a view wider than the board is centred on it", () => {
  assert.equal(clampAxis(0, 0, 1200, 1500), 600);
  assert.equal(clampAxis(5000, 0, 860, 860), 430, "exactly as wide: centred too");
});

test("unionOf: the smallest box holding them all", () => {
  const a = { x0: 10, y0: 20, x1: 30, y1: 40 };
  assert.deepEqual(unionOf([a]), a);
  assert.deepEqual(unionOf([a, { x0: -5, y0: 25, x1: 15, y1: 90 }, { x0: 12, y0: 0, x1: 50, y1: 10 }]),
    { x0: -5, y0: 0, x1: 50, y1: 90 });
});
