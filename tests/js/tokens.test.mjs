// What the browser keeps of its games (tokens.js): seat tokens per game, the host's
// token, the tab's own seat, preferences, and the old single-token keys moved over.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { local, session } from "./storage.mjs";

local.setItem("endeavor.token.old1", "tok-old"); // an old key, moved as the module loads
const tokens = await import("../../src/endeavor/web/static/tokens.js");
const moved = { list: tokens.heldTokens("old1"), old: local.getItem("endeavor.token.old1") };

test("the old single-token key is moved into the game's list on load", () => {
  assert.deepEqual(moved.list, ["tok-old"]);
  assert.equal(moved.old, null);
});

beforeEach(() => {
  local.clear();
  session.clear();
});

test("addToken keeps each token once, in the order given", () => {
  tokens.addToken("g1", "a");
  tokens.addToken("g1", "b");
  tokens.addToken("g1", "a");
  tokens.addToken("g1", "");
  assert.deepEqual(tokens.heldTokens("g1"), ["a", "b"]);
  assert.deepEqual(tokens.heldTokens("g2"), []);
});

test("dropToken forgets a token, and the tab's seat when it was that one", () => {
  tokens.addToken("g1", "a");
  tokens.addToken("g1", "b");
  tokens.setCurrentToken("g1", "a");
  tokens.dropToken("g1", "a");
  assert.deepEqual(tokens.heldTokens("g1"), ["b"]);
  assert.equal(tokens.currentToken("g1"), "");
  tokens.dropToken("g1", "b");
  assert.equal(local.getItem("endeavor.seats.g1"), null, "an empty list is no key");
});

test("heldTokens ignores a damaged list", () => {
  local.setItem("endeavor.seats.g1", "{not json");
  assert.deepEqual(tokens.heldTokens("g1"), []);
  local.setItem("endeavor.seats.g1", JSON.stringify(["a", 3, "", null, "b"]));
  assert.deepEqual(tokens.heldTokens("g1"), ["a", "b"]);
});

test("allHeld lists every game's tokens", () => {
  tokens.addToken("g1", "a");
  tokens.addToken("g2", "b");
  tokens.addToken("g2", "c");
  tokens.setHostToken("g3", "h");
  const held = tokens.allHeld().map((x) => `${x.id}:${x.token}`).sort();
  assert.deepEqual(held, ["g1:a", "g2:b", "g2:c"]);
});

test("the host's token and the host panel's one-time flag", () => {
  assert.equal(tokens.hostToken("g1"), "");
  tokens.setHostToken("g1", "h1");
  assert.equal(tokens.hostToken("g1"), "h1");
  tokens.setHostFlag("g1");
  assert.equal(tokens.takeHostFlag("g1"), true);
  assert.equal(tokens.takeHostFlag("g1"), false, "taken once");
});

test("preferences default until set", () => {
  assert.equal(tokens.pref("sound"), false);
  assert.equal(tokens.pref("sound", true), true);
  tokens.setPref("sound", false);
  assert.equal(tokens.pref("sound", true), false);
  tokens.setPref("sound", true);
  assert.equal(tokens.pref("sound"), true);
});
