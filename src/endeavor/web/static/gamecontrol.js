// @ts-check
// The game screen's controller, apart from the DOM (game.js draws): what the screen says
// (whose turn, the prompt, the options and where they can be clicked, the notices of a
// seat a bot took over, which tab a phone opens), and what happens when the page asks
// the server (one view request at a time, never an older view over a newer one, one
// decision sent at a time, a refusal in words). Plain data in, plain data out; the
// requests and the drawing are callbacks, so Node's tests drive it without a browser.

import { ApiError } from "./api.js";
import { phaseName, t } from "./i18n.js";

/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").Decision} Decision */
/** @typedef {import("./types.js").Option} Option */
/** @typedef {import("./types.js").State} State */

export { phaseName };

/**
 * "Round 3/7 · Actions · Crown P1"
 * @param {Pick<State, "over" | "round" | "rounds" | "phase" | "crown">} state
 * @param {string | null} [ended]
 */
export function headline(state, ended = null) {
  if (ended === "host") return t("game.ended_by_host");
  if (state.over) return t("game.over");
  const when = state.round === 0 ? t("game.setup")
    : t("game.round", { round: state.round, rounds: state.rounds, phase: phaseName(state.phase) });
  return t("game.crown", { when, p: state.crown }); // short: the mats and the log name the seats
}

/**
 * "P2", "P2 (hard bot)", "P2 (hot-seat)"
 * @param {Pick<View, "seats">} view
 * @param {number} p
 */
export function seatLabel(view, p) {
  const seat = (view.seats || [])[p];
  if (!seat) return `P${p}`;
  if (seat.played_by && seat.kind === "bot" && !seat.named) return `P${p}`; // named by its level
  if (seat.played_by) return t("seat.bot", { p, bot: seat.played_by });
  if (seat.kind === "hotseat") return t("seat.hotseat", { p });
  return `P${p}`;
}

/**
 * What those who are not deciding read: "P1 to move: …" (third person).
 * @param {Pick<Decision, "summary" | "player" | "prompt">} decision
 */
export function summaryOf(decision) {
  return decision.summary || t("turn.to_move", { p: decision.player, prompt: decision.prompt });
}

/**
 * The seat to move is one of `view.you` and a person plays it (not a bot for them).
 * @param {Pick<View, "decision" | "over" | "seats" | "you">} view
 */
export function yourMove(view) {
  const d = view.decision;
  if (!d || view.over) return false;
  const seat = (view.seats || [])[d.player];
  return (view.you || []).includes(d.player) && !(seat && seat.played_by);
}

/**
 * The How to play tab of a game's rules (/rules#…): its ruleset, or the Silent Fleet.
 * @param {View["config"]} config
 */
export function rulesAnchor(config) {
  if (!config || config.ruleset === "classic") return config ? "classic" : "age-of-sail";
  return config.options && config.options.silent_fleet ? "silent-fleet" : "age-of-sail";
}

/**
 * The turn's heading: "Your move", "Seat P2 to move" (a page playing several seats),
 * "P1 (hard bot) is thinking…", "A bot is playing for P1…", "Waiting for P1"; `mine`
 * and `bot` mark it. Null when there is no decision (the game is over).
 * @param {View} view
 * @returns {{ text: string, mine: boolean, bot: boolean } | null}
 */
export function whoseTurn(view) {
  const d = view.decision;
  if (!d) return null;
  const you = view.you || [];
  const seat = (view.seats || [])[d.player] || {};
  const mine = yourMove(view);
  const bot = Boolean(seat.played_by);
  let text;
  if (mine) text = you.length > 1 ? t("turn.seat_to_move", { p: d.player }) : t("turn.your_move");
  else if (bot) text = t("turn.thinking", { seat: seatLabel(view, d.player) });
  else if (view.thinking) text = t("turn.bot_playing", { p: d.player });
  else text = t("turn.waiting", { seat: seatLabel(view, d.player) });
  return { text, mine, bot };
}

/**
 * The heading of a turn with no decision.
 * @param {Pick<View, "ended">} view
 */
export function overWords(view) {
  return view.ended === "host" ? t("game.host_ended") : t("game.over");
}

/**
 * The prompt under the heading: the decision's own words to its player, its summary to
 * everyone else. Null without a decision.
 * @param {View} view
 */
export function promptWords(view) {
  const d = view.decision;
  if (!d) return null;
  return yourMove(view) ? `P${d.player}: ${d.prompt}` : summaryOf(d);
}

/**
 * The words after the clock chip under the prompt (null: no clock line, as when a bot
 * decides), and the deadline to name as a moment (a turn-based clock that runs).
 * @param {View} view
 * @returns {{ words: string, deadline: string | null } | null}
 */
export function clockLine(view) {
  const d = view.decision;
  const clock = view.clock;
  if (!d || !clock) return null;
  const seat = (view.seats || [])[d.player] || {};
  if (seat.played_by) return null;
  const running = !clock.paused && clock.running === d.player && clock.deadline;
  const words = clock.paused ? t("clock.stopped")
    : t(clock.on_timeout === "game" ? "clock.then_bot_game" : "clock.then_bot_decision", { bot: clock.bot || "" });
  return { words, deadline: running && clock.kind === "turn" ? clock.deadline || null : null };
}

/**
 * The Pass and Done buttons beside the prompt (the player's own decision only).
 * @param {View} view
 * @returns {{ action: string, label: string, title: string }[]}
 */
export function quickButtons(view) {
  const d = view.decision;
  if (!d || !yourMove(view)) return [];
  return d.options.filter((o) => o.action === "pass" || o.action === "done")
    .map((o) => ({ action: o.action, label: o.action === "pass" ? t("turn.pass") : t("turn.done"), title: o.text }));
}

/**
 * The grouped list of every legal action (in the engine's order), or null when the page
 * has nothing to choose.
 * @param {View} view
 * @returns {Map<string, Option[]> | null}
 */
export function optionGroups(view) {
  const d = view.decision;
  if (!d || !d.options.length || !yourMove(view)) return null;
  /** @type {Map<string, Option[]>} */
  const groups = new Map();
  for (const o of d.options) {
    const group = groups.get(o.group);
    if (group) group.push(o);
    else groups.set(o.group, [o]);
  }
  return groups;
}

/**
 * The options by the id of what a click on the table chooses (the element carrying
 * `data-target`); empty unless the page decides.
 * @param {View} view
 * @returns {Map<string, Option[]>}
 */
export function targetsOf(view) {
  /** @type {Map<string, Option[]>} */
  const byTarget = new Map();
  if (!view.decision || !yourMove(view)) return byTarget;
  for (const o of view.decision.options) {
    for (const t of o.targets) {
      const list = byTarget.get(t);
      if (list) list.push(o);
      else byTarget.set(t, [o]);
    }
  }
  return byTarget;
}

/**
 * What a clickable place says (its aria-label): the one option's words or "3 choices",
 * then what options change that their words do not say (a final discard's glory).
 * `title`: the tooltip of an HTML place with such effects (null: none).
 * @param {Option[]} options
 */
export function targetWords(options) {
  const label = options.length === 1 ? options[0].text : t("turn.choices", { n: options.length });
  const effects = options.filter((o) => o.effect)
    .map((o) => (options.length === 1 ? o.effect : `${o.text}: ${o.effect}`));
  return {
    label: effects.length ? `${label}. ${effects.join(". ")}` : label,
    title: effects.length ? `${label}\n${effects.join("\n")}` : null,
  };
}

/**
 * The log lines new since the page's last move: the seq of that move (lines after it
 * are new), or null when none is marked (a spectator, or no move made yet).
 * @param {View} view
 */
export function newSince(view) {
  const you = view.you || [];
  if (!you.length) return null;
  let mine = -1;
  for (const e of view.events || []) {
    if (e.kind === "action" && e.player !== null && e.player !== undefined && you.includes(e.player)) {
      mine = Math.max(mine, e.seq);
    }
  }
  return mine >= 0 ? mine : null;
}

/**
 * A bot plays one of this page's seats: why, and whether (and with which words) the page
 * may take it back; else what to do.
 * @param {View} view
 * @returns {{ seat: number, why: string, reclaim: string | null, note: string | null }[]}
 */
export function takeovers(view) {
  const you = view.you || [];
  /** @type {{ seat: number, why: string, reclaim: string | null, note: string | null }[]} */
  const out = [];
  if (view.over) return out;
  for (const p of you) {
    const seat = (view.seats || [])[p];
    if (!seat || !seat.played_by) continue;
    const why = seat.replaced === "timeout"
      ? t("takeover.timeout", { bot: seat.played_by, p })
      : t("takeover.host", { bot: seat.played_by, p });
    const can = (view.can_reclaim || []).includes(p);
    out.push({
      seat: p,
      why,
      reclaim: can ? (you.length > 1 ? t("takeover.take_back", { p }) : t("takeover.take_mine")) : null,
      note: can ? null : seat.replaced === "timeout"
        ? t("takeover.not_allowed") : t("takeover.ask_host"),
    });
  }
  return out;
}

/**
 * The Undo button is offered: the server allows it and no bot plays one of the page's seats.
 * @param {View} view
 */
export function canUndo(view) {
  const you = view.you || [];
  const seats = view.seats || [];
  return Boolean(view.can_undo) && !you.some((p) => seats[p] && seats[p].played_by);
}

/**
 * The Chat tab's badge ("" and hidden for none, "99+" past 99) and its spoken label.
 * @param {number} n
 */
export function unreadBadge(n) {
  return { text: n > 99 ? "99+" : String(n), hidden: !n, label: n ? t("chat.unread", { n }) : t("tab.chat") };
}

/** The phone's tabs that hold a decision's targets (the board's, the drawers'). */
export const TARGET_TABS = /** @type {const} */ (["board", "build", "you", "players"]);

/**
 * Which phone tab to open after a drawing (null: stay). Once the game is over, the score
 * pad (once); on a fresh decision of the player's, the tab holding most of its targets
 * (the current one on a tie); a tab that went away: the board.
 * @param {{ current: string, counts: Record<string, number>, over: boolean, fresh: boolean,
 *   mine: boolean, scoresShown: boolean, hasScores: boolean, hidden: (tab: string) => boolean }} s
 * @returns {{ open: string | null, scoresShown: boolean, reveal: string | null }} `reveal`:
 *   the drawer whose first target to bring in sight
 */
export function nextTab(s) {
  if (s.over && !s.scoresShown && s.hasScores) return { open: "scores", scoresShown: true, reveal: null };
  /** @type {string | null} */
  let open = null;
  /** @type {string | null} */
  let reveal = null;
  let current = s.current;
  if (s.fresh && s.mine) {
    let best = s.counts[current] ? current : null;
    for (const name of TARGET_TABS) {
      if ((s.counts[name] || 0) > (best ? s.counts[best] : 0)) best = name;
    }
    if (best) {
      open = best;
      current = best;
      reveal = best !== "board" ? best : null;
    }
  }
  if (s.hidden(current)) open = "board";
  else if (current === "log" && open === null) open = "log"; // redrawn: its latest lines
  return { open, scoresShown: s.scoresShown, reveal };
}

/**
 * A refusal's words as a toast says them: the server's reason with a capital.
 * @param {string} message
 */
export function sentence(message) {
  return message.charAt(0).toUpperCase() + message.slice(1);
}

/**
 * The HTTP status of an API error (0: the server cannot be reached), or null for any
 * other error.
 * @param {unknown} err
 */
function statusOf(err) {
  return err instanceof ApiError ? err.status : null;
}

/** @param {unknown} err */
function messageOf(err) {
  return err instanceof Error ? err.message : String(err);
}

/**
 * @typedef {object} ControllerHooks
 * @property {() => Promise<View>} load fetch the view (GET)
 * @property {(view: View, how: { fresh: boolean, relayout: boolean }) => void} draw draw
 *   a view newer than (or as new as) the last one drawn; `fresh`: its seq changed
 * @property {(ok: boolean) => void} [reached] whether the server answered a fetch (the
 *   connection banner)
 * @property {() => void} [lostSeat] the page's seat link stopped working (403 with a token)
 * @property {(message: string, kind?: string) => void} [say] a toast
 * @property {(busy: boolean) => void} [busy] a decision is being sent, or no longer
 * @property {boolean} [seated] the page holds a token (a 403 then means the seat is lost)
 */

/**
 * The game screen's state and its conversation with the server: the view drawn, the
 * highest seq the server announced, one fetch at a time (and once more when news came
 * meanwhile), one decision sent at a time.
 */
export class GameController {
  /** @param {ControllerHooks} hooks */
  constructor(hooks) {
    this.hooks = hooks;
    /** @type {View | null} the view drawn last */
    this.view = null;
    /** the highest seq the server announced */
    this.announced = -1;
    /** a decision is on its way */
    this.busy = false;
    /** @type {Promise<boolean> | null} */
    this.fetching = null;
    /** an announcement came while a fetch was in flight */
    this.again = false;
    /** the seq of the decision the phone's board last opened on */
    this.focused = -1;
  }

  /**
   * Draw `next` unless it is older than the view drawn (never go back). True when drawn.
   * @param {View | null | undefined} next
   * @param {{ relayout?: boolean }} [options] `relayout`: the same view again, for a new layout
   */
  accept(next, { relayout = false } = {}) {
    if (!next || (this.view && next.seq < this.view.seq)) return false;
    const fresh = !this.view || next.seq !== this.view.seq;
    this.view = next;
    this.hooks.draw(next, { fresh, relayout });
    return true;
  }

  /**
   * The server announced `seq` (the WebSocket): fetch when it is news.
   * @param {number} seq
   */
  announce(seq) {
    this.announced = Math.max(this.announced, seq);
    if (!this.view || seq > this.view.seq) this.refresh();
  }

  /**
   * Fetch the view; one request at a time, and once more if news came meanwhile.
   * Resolves true when the server answered (false: it cannot be reached, said by the
   * banner, not a toast, or it failed).
   * @returns {Promise<boolean>}
   */
  refresh() {
    if (this.fetching) {
      this.again = true;
      return this.fetching;
    }
    const { load, reached, lostSeat, say, seated } = this.hooks;
    this.fetching = (async () => {
      try {
        do {
          this.again = false;
          this.accept(await load());
          if (reached) reached(true);
        } while (this.again || (this.view && this.announced > this.view.seq));
        return true;
      } catch (err) {
        const status = statusOf(err);
        if (status === 0) {
          if (reached) reached(false);
        } else if (status === 403 && seated) {
          if (lostSeat) lostSeat();
        } else if (say) {
          say(status === 404 ? t("game.no_such") : messageOf(err));
        }
        return !(status === 0 || (status !== null && status >= 500));
      } finally {
        this.fetching = null;
      }
    })();
    return this.fetching;
  }

  /**
   * Send a decision (`call()` resolves to the new view); nothing while one is on its way.
   * A refusal because the page was stale says so plainly, after fetching the game as it is.
   * @param {() => Promise<View>} call
   */
  async send(call) {
    if (this.busy) return;
    const { busy, say } = this.hooks;
    this.busy = true;
    if (busy) busy(true);
    const seen = this.view ? this.view.seq : -1;
    try {
      this.accept(await call());
      if (this.view && this.announced > this.view.seq) this.refresh();
    } catch (err) {
      const status = statusOf(err);
      if (status === 409) {
        await this.refresh();
        // a stale page: say so plainly; another refusal (over, nothing to undo): its reason
        if (this.view && this.view.seq > seen) say?.(t("game.moved_on"), "info");
        else say?.(sentence(messageOf(err)));
      } else if (status === 403) {
        await this.refresh();
        say?.(sentence(messageOf(err)));
      } else {
        say?.(messageOf(err));
      }
    } finally {
      this.busy = false;
      if (busy) busy(false);
    }
  }

  /**
   * On a phone, whether the board should open on the decision's places now: once per
   * decision of the player's.
   */
  focusDue() {
    if (!this.view || !yourMove(this.view) || this.focused === this.view.seq) return false;
    this.focused = this.view.seq;
    return true;
  }
}
