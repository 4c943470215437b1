// Invitations and seat links in words (invite.js, seatlink.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import "./catalogs.mjs";
import { inviteText, seatWords } from "../../src/endeavor/web/static/invite.js";
import { seatsWords } from "../../src/endeavor/web/static/seatlink.js";

test("seatWords: the seat's colour and shape, with its name once it has one", () => {
  assert.equal(seatWords(1), "P1 (blue square)");
  assert.equal(seatWords(1, "Bo"), "P1 (Bo, blue square)");
  assert.equal(seatWords(1, "P1"), "P1 (blue square)", "its own number is no name");
  assert.equal(seatWords(5), "P5 (red circle)");
});

test("inviteText: one seat, or the hot-seat ones, with the link", () => {
  const url = "https://play.example.org/play/g1#tok";
  assert.equal(inviteText("Friday game", 2, url, "Cy"),
    `You're invited to Friday game as P2 (Cy, yellow diamond) — ${url}`);
  assert.equal(inviteText("", [0, 3], url),
    `You're invited to a game of Endeavor as seats P0 (red circle), P3 (green hexagon) — ${url}`);
});

test("seatsWords: the seats by number", () => {
  assert.equal(seatsWords([1]), "P1");
  assert.equal(seatsWords([0, 2]), "P0, P2");
});
