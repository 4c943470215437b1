// The game screen's controller (gamecontrol.js): what the screen says, and its
// conversation with the server (fetches, decisions sent, refusals), without a browser.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./catalogs.mjs";
import { ApiError } from "../../src/endeavor/web/static/api.js";
import {
  GameController, canUndo, clockLine, headline, newSince, nextTab, optionGroups, overWords,
  promptWords, quickButtons, rulesAnchor, seatLabel, summaryOf, takeovers, targetWords, targetsOf,
  unreadBadge, whoseTurn, yourMove,
} from "../../src/endeavor/web/static/gamecontrol.js";

/** @typedef {import("../../src/endeavor/web/static/types.js").View} View */
/** @typedef {import("../../src/endeavor/web/static/types.js").Option} Option */

/** @param {string} action @param {string[]} targets @param {Partial<Option>} [over] @returns {Option} */
const option = (action, targets, over = {}) => ({ action, text: `do ${action}`, group: "Build", targets, ...over });

const STATE = { round: 3, rounds: 7, phase: "Actions", crown: 1, current_player: 0, players: [] };

/** A view of a two-seat game where P0 (this page's seat) decides. @returns {View} */
function view(over = {}) {
  return {
    seq: 10,
    state: STATE,
    you: [0],
    seats: [{ kind: "human", name: "Anna" }, { kind: "bot", played_by: "hard", named: false }],
    decision: { player: 0, prompt: "build", summary: "P0 is building", options: [
      option("build:market", ["bld-market"]),
      option("build:shipyard", ["bld-shipyard"]),
      option("pass", ["pass"], { group: "Other" }),
    ] },
    events: [],
    ...over,
  };
}

// ------------------------------------------------------------------ what the screen says
test("headline: setup, a round, the host's end, game over", () => {
  assert.equal(headline(STATE), "Round 3/7 · Actions · Crown P1");
  assert.equal(headline({ ...STATE, round: 0 }), "Setup · Crown P1");
  assert.equal(headline({ ...STATE, over: true }), "Game over");
  assert.equal(headline({ ...STATE, over: true }, "host"), "Ended by the host");
});

test("seatLabel: a bot seat is named by its level, a person's seat a bot plays says so", () => {
  const v = { seats: [{ kind: "human", played_by: "easy" }, { kind: "bot", played_by: "hard" },
    { kind: "bot", played_by: "hard", named: true }, { kind: "hotseat" }] };
  assert.equal(seatLabel(v, 0), "P0 (easy bot)");
  assert.equal(seatLabel(v, 1), "P1");
  assert.equal(seatLabel(v, 2), "P2 (hard bot)");
  assert.equal(seatLabel(v, 3), "P3 (hot-seat)");
  assert.equal(seatLabel(v, 4), "P4");
});

test("summaryOf: the server's summary, else the prompt in the third person", () => {
  assert.equal(summaryOf({ player: 2, prompt: "pay", summary: "P2 pays" }), "P2 pays");
  assert.equal(summaryOf({ player: 2, prompt: "pay" }), "P2 to move: pay");
});

test("yourMove: the page's seat decides and no bot plays it", () => {
  assert.equal(yourMove(view()), true);
  assert.equal(yourMove(view({ you: [1] })), false, "another seat decides");
  assert.equal(yourMove(view({ over: true })), false);
  assert.equal(yourMove(view({ decision: null })), false);
  const seats = [{ kind: "human", played_by: "medium", replaced: "timeout" }];
  assert.equal(yourMove(view({ seats })), false, "the bot that took over decides");
});

test("whoseTurn: the player's move, a bot thinking, waiting for someone", () => {
  assert.deepEqual(whoseTurn(view()), { text: "Your move", mine: true, bot: false });
  assert.equal(whoseTurn(view({ you: [0, 1] }))?.text, "Seat P0 to move");
  const botMoves = view({ decision: { player: 1, prompt: "x", options: [] } });
  assert.deepEqual(whoseTurn(botMoves), { text: "P1 is thinking…", mine: false, bot: true });
  assert.equal(whoseTurn(view({ you: [] }))?.text, "Waiting for P0");
  assert.equal(whoseTurn(view({ you: [], thinking: true }))?.text, "A bot is playing for P0…");
  assert.equal(whoseTurn(view({ decision: null })), null);
  assert.equal(overWords({ ended: "host" }), "The host ended the game");
  assert.equal(overWords({}), "Game over");
});

test("promptWords: the decision's own words to its player, the summary to others", () => {
  assert.equal(promptWords(view()), "P0: build");
  assert.equal(promptWords(view({ you: [] })), "P0 is building");
  assert.equal(promptWords(view({ decision: null })), null);
});

test("clockLine: what follows the chip, and a turn-based deadline", () => {
  const clock = { kind: "turn", left: [50, 50], banks: [0, 0], per_decision: 86400, running: 0,
    deadline: "2026-12-05T14:00:00Z", bot: "easy", on_timeout: "game" };
  assert.deepEqual(clockLine(view({ clock })),
    { words: " left, then the easy bot plays the rest of the game", deadline: "2026-12-05T14:00:00Z" });
  const live = clockLine(view({ clock: { ...clock, kind: "live", on_timeout: "decision" } }));
  assert.deepEqual(live, { words: " left, then the easy bot plays this decision", deadline: null });
  assert.deepEqual(clockLine(view({ clock: { ...clock, paused: true } })),
    { words: " The host stopped the clocks.", deadline: null });
  assert.equal(clockLine(view()), null, "no clock");
  const botMoves = view({ clock, decision: { player: 1, prompt: "x", options: [] } });
  assert.equal(clockLine(botMoves), null, "a bot's decision has no clock line");
});

test("quickButtons: Pass and Done beside the prompt, for the player only", () => {
  assert.deepEqual(quickButtons(view()), [{ action: "pass", label: "Pass", title: "do pass" }]);
  assert.deepEqual(quickButtons(view({ you: [] })), []);
});

test("optionGroups: every option in its group, in order; none to a spectator", () => {
  const groups = optionGroups(view());
  assert.deepEqual([...(groups?.keys() || [])], ["Build", "Other"]);
  assert.deepEqual(groups?.get("Build")?.map((o) => o.action), ["build:market", "build:shipyard"]);
  assert.equal(optionGroups(view({ you: [] })), null);
});

test("targetsOf: the options by the place a click chooses them", () => {
  const shared = option("ship:NA", ["region-NA", "track-NA"]);
  const other = option("ship:NA-2", ["region-NA"]);
  const byTarget = targetsOf(view({ decision: { player: 0, prompt: "ship", options: [shared, other] } }));
  assert.deepEqual([...byTarget.keys()], ["region-NA", "track-NA"]);
  assert.deepEqual(byTarget.get("region-NA"), [shared, other]);
  assert.equal(targetsOf(view({ you: [1] })).size, 0, "nothing clickable on another seat's move");
});

test("targetWords: one option's words, a count of several, their effects", () => {
  assert.deepEqual(targetWords([option("a", [])]), { label: "do a", title: null });
  assert.deepEqual(targetWords([option("a", []), option("b", [])]), { label: "2 choices", title: null });
  const discard = option("discard", [], { effect: "−1 glory" });
  assert.deepEqual(targetWords([discard]), { label: "do discard. −1 glory", title: "do discard\n−1 glory" });
  assert.deepEqual(targetWords([discard, option("keep", [])]),
    { label: "2 choices. do discard: −1 glory", title: "2 choices\ndo discard: −1 glory" });
});

test("newSince: the lines after the page's last move are new", () => {
  const events = [
    { seq: 1, kind: "action", player: 0, text: "a" }, { seq: 2, kind: "action", player: 1, text: "b" },
    { seq: 3, kind: "action", player: 0, text: "c" }, { seq: 4, kind: "undo", player: 0, text: "d" },
    { seq: 5, kind: "action", player: 1, text: "e" },
  ];
  assert.equal(newSince(view({ events })), 3);
  assert.equal(newSince(view({ events, you: [] })), null, "a spectator's log marks nothing");
  assert.equal(newSince(view({ events: events.filter((e) => e.player === 1) })), null, "no move yet");
});

test("takeovers: why a bot plays the seat, and whether it can be taken back", () => {
  const seats = [{ kind: "human", played_by: "medium", replaced: "timeout" }, { kind: "human", played_by: "easy" }];
  assert.deepEqual(takeovers(view({ seats, you: [0], can_reclaim: [0] })), [{
    seat: 0, why: "Your time ran out: the medium bot plays P0 for you for the rest of the game.",
    reclaim: "Take my seat back", note: null }]);
  const two = takeovers(view({ seats, you: [0, 1], can_reclaim: [1] }));
  assert.equal(two[0].note, "The host did not allow taking a seat back in this game.");
  assert.deepEqual(two[1], { seat: 1, why: "The host put the easy bot in P1's seat.", reclaim: "Take P1 back", note: null });
  assert.deepEqual(takeovers(view({ seats, you: [1] }))[0].note, "Ask the host to hand it back.");
  assert.deepEqual(takeovers(view({ seats, over: true })), [], "nothing to take back once it is over");
  assert.deepEqual(takeovers(view()), []);
});

test("canUndo: as the server allows, unless a bot plays one of the page's seats", () => {
  assert.equal(canUndo(view({ can_undo: true })), true);
  assert.equal(canUndo(view({ can_undo: false })), false);
  assert.equal(canUndo(view({ can_undo: true, seats: [{ kind: "human", played_by: "easy" }] })), false);
});

test("unreadBadge: hidden for none, 99+ past 99", () => {
  assert.deepEqual(unreadBadge(0), { text: "0", hidden: true, label: "Chat" });
  assert.deepEqual(unreadBadge(3), { text: "3", hidden: false, label: "Chat, 3 unread" });
  assert.equal(unreadBadge(250).text, "99+");
});

test("rulesAnchor: the game's ruleset, or the Silent Fleet", () => {
  assert.equal(rulesAnchor(null), "age-of-sail");
  assert.equal(rulesAnchor({ ruleset: "classic" }), "classic");
  assert.equal(rulesAnchor({ ruleset: "age-of-sail", options: { silent_fleet: true } }), "silent-fleet");
  assert.equal(rulesAnchor({ ruleset: "age-of-sail", options: {} }), "age-of-sail");
});

// ------------------------------------------------------------------ which tab a phone opens
const TAB = { current: "board", counts: { board: 0, build: 0, you: 0, players: 0 }, over: false, fresh: true,
  mine: true, scoresShown: false, hasScores: false, hidden: () => false };

test("nextTab: a fresh decision opens the tab holding most of its targets", () => {
  assert.deepEqual(nextTab({ ...TAB, counts: { board: 2, build: 5, you: 1, players: 0 } }),
    { open: "build", scoresShown: false, reveal: "build" });
  assert.deepEqual(nextTab({ ...TAB, counts: { board: 4, build: 1, you: 0, players: 0 } }),
    { open: "board", scoresShown: false, reveal: null });
});

test("nextTab: the current tab wins a tie; no targets, no move", () => {
  assert.equal(nextTab({ ...TAB, current: "you", counts: { board: 3, build: 0, you: 3, players: 0 } }).open, "you");
  assert.equal(nextTab({ ...TAB }).open, null);
  assert.equal(nextTab({ ...TAB, fresh: false, counts: { board: 0, build: 9, you: 0, players: 0 } }).open, null,
    "the same decision again: the player's tab stays");
  assert.equal(nextTab({ ...TAB, mine: false, counts: { board: 0, build: 9, you: 0, players: 0 } }).open, null);
});

test("nextTab: the score pad once when the game is over; a hidden tab falls back to the board", () => {
  assert.deepEqual(nextTab({ ...TAB, over: true, hasScores: true }), { open: "scores", scoresShown: true, reveal: null });
  assert.equal(nextTab({ ...TAB, over: true, hasScores: true, scoresShown: true, current: "log" }).open, "log");
  assert.equal(nextTab({ ...TAB, fresh: false, current: "review", hidden: (t) => t === "review" }).open, "board");
});

// ------------------------------------------------------------------ talking to the server
/** A controller whose hooks record what happened; `load` answers from `answers`. */
function harness({ answers = /** @type {(View | Error)[]} */ ([]), seated = true } = {}) {
  const log = { drawn: /** @type {number[]} */ ([]), fresh: /** @type {boolean[]} */ ([]),
    said: /** @type {string[]} */ ([]), reached: /** @type {boolean[]} */ ([]), lost: 0, busy: /** @type {boolean[]} */ ([]), loads: 0 };
  const control = new GameController({
    load: async () => {
      log.loads += 1;
      const next = answers.shift();
      if (!next) throw new Error("no more answers");
      if (next instanceof Error) throw next;
      return next;
    },
    draw: (v, how) => { log.drawn.push(v.seq); log.fresh.push(how.fresh); },
    reached: (ok) => log.reached.push(ok),
    lostSeat: () => { log.lost += 1; },
    say: (message) => log.said.push(message),
    busy: (on) => log.busy.push(on),
    seated,
  });
  return { control, log };
}

test("accept: never an older view over a newer one; the same seq is not fresh", () => {
  const { control, log } = harness();
  assert.equal(control.accept(view({ seq: 5 })), true);
  assert.equal(control.accept(view({ seq: 4 })), false);
  assert.equal(control.accept(view({ seq: 5 }), { relayout: true }), true);
  assert.equal(control.accept(null), false);
  assert.deepEqual(log.drawn, [5, 5]);
  assert.deepEqual(log.fresh, [true, false]);
});

test("refresh: one request at a time, once more when news came meanwhile", async () => {
  const { control, log } = harness({ answers: [view({ seq: 11 }), view({ seq: 12 })] });
  const first = control.refresh();
  const second = control.refresh(); // while the first is in flight
  assert.equal(first, second, "the same request");
  assert.equal(await first, true);
  assert.equal(log.loads, 2, "fetched again for the news");
  assert.deepEqual(log.drawn, [11, 12]);
  assert.deepEqual(log.reached, [true, true]);
});

test("announce: fetch until the view reaches the announced seq", async () => {
  const { control, log } = harness({ answers: [view({ seq: 10 }), view({ seq: 11 }), view({ seq: 12 })] });
  control.accept(view({ seq: 9 }));
  control.announce(12);
  control.announce(8); // old news: nothing more
  assert.equal(control.announced, 12);
  await control.fetching;
  assert.deepEqual(log.drawn, [9, 10, 11, 12]);
  control.announce(12);
  assert.equal(control.fetching, null, "nothing new: no request");
});

test("refresh: unreachable goes to the banner, a lost seat to its page, the rest to a toast", async () => {
  let h = harness({ answers: [new ApiError(0, "unreachable")] });
  assert.equal(await h.control.refresh(), false);
  assert.deepEqual(h.log.reached, [false]);
  assert.deepEqual(h.log.said, []);

  h = harness({ answers: [new ApiError(403, "not a seat")] });
  assert.equal(await h.control.refresh(), true);
  assert.equal(h.log.lost, 1);

  h = harness({ answers: [new ApiError(403, "not a seat")], seated: false });
  await h.control.refresh();
  assert.deepEqual(h.log.said, ["not a seat"], "a spectator loses no seat");

  h = harness({ answers: [new ApiError(404, "gone")] });
  await h.control.refresh();
  assert.deepEqual(h.log.said, ["No such game"]);

  h = harness({ answers: [new ApiError(502, "bad gateway")] });
  assert.equal(await h.control.refresh(), false, "a server error is no answer");
});

test("send: one decision at a time, the busy mark on and off", async () => {
  const { control, log } = harness();
  control.accept(view({ seq: 10 }));
  /** @type {(v: View) => void} */
  let answer = () => {};
  const sent = control.send(() => new Promise((resolve) => { answer = resolve; }));
  let second = false;
  await control.send(async () => { second = true; return view({ seq: 99 }); });
  assert.equal(second, false, "a second decision while one is on its way is dropped");
  answer(view({ seq: 11 }));
  await sent;
  assert.deepEqual(log.drawn, [10, 11]);
  assert.deepEqual(log.busy, [true, false]);
  assert.equal(control.busy, false);
});

test("send: a stale page's refusal says the game moved on", async () => {
  const { control, log } = harness({ answers: [view({ seq: 12 })] });
  control.accept(view({ seq: 10 }));
  await control.send(async () => { throw new ApiError(409, "stale seq"); });
  assert.deepEqual(log.drawn, [10, 12]);
  assert.deepEqual(log.said, ["The game moved on; here it is now."]);
});

test("send: another refusal gives its reason as a sentence", async () => {
  const { control, log } = harness({ answers: [view({ seq: 10 }), view({ seq: 10 })] });
  control.accept(view({ seq: 10 }));
  await control.send(async () => { throw new ApiError(409, "nothing to undo"); });
  await control.send(async () => { throw new ApiError(403, "this seat is played by a bot"); });
  await control.send(async () => { throw new Error("boom"); });
  assert.deepEqual(log.said, ["Nothing to undo", "This seat is played by a bot", "boom"]);
  assert.deepEqual(log.busy, [true, false, true, false, true, false]);
});

test("focusDue: once per decision of the player's", () => {
  const { control } = harness();
  assert.equal(control.focusDue(), false, "nothing drawn yet");
  control.accept(view({ seq: 10 }));
  assert.equal(control.focusDue(), true);
  assert.equal(control.focusDue(), false);
  control.accept(view({ seq: 11, you: [1] }));
  assert.equal(control.focusDue(), false, "another seat's decision");
  control.accept(view({ seq: 12 }));
  assert.equal(control.focusDue(), true);
});
