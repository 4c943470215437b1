// The world map's layout (boardmap.js, written by tools/board_layout.py) and the board's
// words (board.js): what the drawing promises, checked without drawing.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./catalogs.mjs";
import { BENDS, H, REGIONS, SITES, W } from "../../src/endeavor/web/static/boardmap.js";
import { classicDiscardLines, cardWords, nameLines } from "../../src/endeavor/web/static/board.js";

/** @param {number[]} area @param {number} x @param {number} y */
const inside = (area, x, y) => x >= area[0] && x <= area[0] + area[2] && y >= area[1] && y <= area[1] + area[3];

test("every region lies on the board", () => {
  for (const [id, r] of Object.entries(REGIONS)) {
    const [x, y, w, h] = r.area;
    assert.ok(x >= 0 && y >= 0 && x + w <= W && y + h <= H, id);
  }
});

test("every site lies in its region (the code's first two letters)", () => {
  assert.ok(Object.keys(SITES).length > 30);
  for (const [code, [x, y]] of Object.entries(SITES)) {
    const region = REGIONS[/** @type {keyof typeof REGIONS} */ (code.slice(0, 2))];
    assert.ok(region, `${code}: no region`);
    assert.ok(inside(region.area, x, y), `${code} at ${x},${y}`);
  }
});

test("sites are far enough apart for their 40-unit hit areas", () => {
  const all = Object.entries(SITES);
  for (let i = 0; i < all.length; i += 1) {
    for (let j = i + 1; j < all.length; j += 1) {
      const [[a, [ax, ay]], [b, [bx, by]]] = [all[i], all[j]];
      assert.ok(Math.hypot(ax - bx, ay - by) >= 40, `${a} and ${b}`);
    }
  }
});

test("every bent link joins two known sites, bent one of the tool's ways", () => {
  for (const [link, bend] of Object.entries(BENDS)) {
    const ends = link.split("-");
    assert.equal(ends.length, 2, link);
    for (const end of ends) assert.ok(end in SITES, `${link}: ${end}`);
    assert.ok([0.18, 0.32].includes(Math.abs(bend)), `${link}: ${bend}`);
  }
});

test("each region's cards and sea box lie in its area", () => {
  for (const [id, r] of Object.entries(REGIONS)) {
    for (const key of /** @type {const} */ (["deck", "gov", "sea"])) {
      const at = /** @type {Record<string, number[] | undefined>} */ (/** @type {unknown} */ (r))[key];
      if (at) assert.ok(inside(r.area, at[0], at[1]), `${id} ${key}`);
    }
  }
});

test("nameLines: short names stay whole, long ones split near the middle", () => {
  assert.deepEqual(nameLines("Boston"), ["Boston"]);
  assert.deepEqual(nameLines("Cape Town"), ["Cape Town"], "10 letters or fewer");
  assert.deepEqual(nameLines("Constantinople"), ["Constantinople"], "no space to split at");
  assert.deepEqual(nameLines("Rio de Janeiro"), ["Rio de", "Janeiro"]);
  assert.deepEqual(nameLines("Cape of Good Hope"), ["Cape of", "Good Hope"]);
});

test("cardWords: a card's value, what it gives and its marks", () => {
  const card = { value: 1, deck: "NA", deck_name: "North America", gives: "1 Industry", bonus_disc: true };
  assert.deepEqual(cardWords(card), [
    "Draw value 1: you may draw it with a Draw action when you have at least 1 disc in the North America region.",
    "Gives 1 Industry.",
    "When you draw it you also take 1 disc from your supply to your Harbor.",
  ]);
  const europe = cardWords({ value: 3, deck: "EU", gives: "2 Culture", slavery: true });
  assert.match(europe[0], /at least 3 discs in Europe\.$/);
  assert.match(europe[2], /^A Slavery card/);
  assert.match(cardWords({ governor: true, gives: "1 Finance" })[0], /^A Governor card/);
});

test("the 2009 discard panel: a discarded card goes back into its deck by value", () => {
  // the 2009 rulebook: "Discarded cards are returned to the card stack that they came
  // from. Cards are always arranged in increasing value order from the top down"
  const words = classicDiscardLines("en").join(" ");
  assert.match(words, /back into its own deck by value, the lowest on top/);
  assert.doesNotMatch(words, /under/);
  assert.match(words, /Slavery card is set aside/);
  assert.match(words, /Governor leaves the game/);
  // each line fits the panel (245 units wide, 10-unit letters about 5.5 wide)
  for (const line of [...classicDiscardLines("en"), ...classicDiscardLines("fr")]) assert.ok(line.length <= 41, line);
});
