// The new-game form's option words (newgame.js) against the rulebooks. (How to play's
// words are checked in the browser: tests/web/browser/test_guide_browser.py.)
import assert from "node:assert/strict";
import { test } from "node:test";

import "./storage.mjs"; // tokens.js (imported by newgame.js) reads its storage as it loads
import "./catalogs.mjs";

const { OPTION_WORDS } = await import("../../src/endeavor/web/static/newgame.js");

test("Limited occupation: only in the region the player just occupied", () => {
  // fr rulebook: "la Flotte Silencieuse ne peut ajouter son disque que dans la zone que
  // vous venez d'occuper"
  assert.match(OPTION_WORDS.limited_occupation, /only in the region you just occupied/);
  assert.doesNotMatch(OPTION_WORDS.limited_occupation, /presence/);
});
