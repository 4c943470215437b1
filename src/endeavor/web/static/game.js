// @ts-check
// The game screen (/play/{id}#<token> for a seat, /game/{id} for spectators): the board,
// the mats with their clocks, whose turn and the prompt, the legal actions (clickable
// where they happen and as a grouped list), the log, Undo, the score pad; the host panel
// and the notification settings; live through the WebSocket.

import { api, ApiError, follow, fragmentToken } from "./api.js";
import { setTitle, turnWatcher } from "./alerts.js";
import { drawBoard } from "./board.js";
import { chatPanel } from "./chat.js";
import { clockChip, trackClock } from "./clock.js";
import { connectionBanner } from "./connection.js";
import { momentWords } from "./when.js";
import { h, href, problemPage, replace, toast, popup, closePopup, COLOURS } from "./dom.js";
import { languageSwitch, locale, t } from "./i18n.js";
import { openHostPanel } from "./host.js";
import { matHtml, supplyHtml } from "./mats.js";
import { openNotifyPanel } from "./notifypanel.js";
import { panZoom, PHONE_MIN_SCALE } from "./panzoom.js";
import { rematchPanel } from "./rematch.js";
import { pendingRatings, ratedMark, ratingNote, ratingRow } from "./ratings.js";
import { trackPresence } from "./presence.js";
import { reviewPanel } from "./review.js";
import { askBeforeTaking, lookOnly, seatNotices } from "./seatlink.js";
import { offerClaim } from "./session.js";
import { nameAsker, resultLine, seatTag, setSeats, withNames, youTag } from "./names.js";
import {
  addToken, currentToken, dropToken, heldTokens, hostToken, setCurrentToken, takeHostFlag,
} from "./tokens.js";
import {
  GameController, canUndo, clockLine, headline, newSince, nextTab, optionGroups, overWords,
  promptWords, quickButtons, rulesAnchor, seatLabel, summaryOf, takeovers, targetWords, targetsOf,
  unreadBadge, whoseTurn, yourMove,
} from "./gamecontrol.js";

/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").Option} Option */
/** @typedef {import("./types.js").LogEvent} LogEvent */
/** @typedef {import("./types.js").Score} Score */

// what the screen says lives in gamecontrol.js (tested without a browser); the replay
// viewer and others import these from here
export { headline, seatLabel, summaryOf, yourMove };

/**
 * The table (board, supply, mats) of a game view, without any controls. `mine` is the
 * mat shown beside the board (the viewer's seat to move, else the viewer's first seat);
 * the other mats go under the board. `clocks`: show each seat's time (live games).
 * `board` is the <svg> in its frame; `svg` the same drawing alone (the game screen puts
 * it in its pan-and-zoom frame).
 * @param {Pick<View, "state" | "you" | "seats" | "clock">} view
 * @param {{ clocks?: boolean }} [options]
 */
export function tableHtml(view, { clocks = false } = {}) {
  const state = view.state;
  const you = view.you || [];
  const seats = view.seats || [];
  const current = state.current_player;
  const mineSeat = you.includes(current) ? current : you.length ? you[0] : null;
  const mat = (/** @type {View["state"]["players"][number]} */ m) => matHtml(m, state, seats[m.seat], you.includes(m.seat),
    clocks && view.clock ? clockChip(m.seat) : null);
  const svg = drawBoard(state);
  const box = (svg.getAttribute("viewBox") || "0 0 1200 800").split(/[\s,]+/).map(Number);
  return {
    svg,
    board: h("div", { class: "board-wrap", style: `--board-ratio:${box[2]} / ${box[3]}` }, svg),
    supply: supplyHtml(state),
    mine: mineSeat === null ? null : mat(state.players[mineSeat]),
    mats: h("div", { class: "mats", "data-testid": "mats" },
      state.players.filter((m) => m.seat !== mineSeat).map(mat)),
  };
}

/**
 * The score pad: one column per seat, one row per line, then totals and ranks; for a
 * rated game each seat's rating change (or a line saying they are pending, or why the
 * game was not rated).
 * @param {Score[]} scores
 * @param {string | null} [ended]
 * @param {View["ratings"]} [ratings]
 */
export function scorePad(scores, ended = null, ratings = null) {
  const lines = scores[0].lines.map(([name]) => name);
  const best = Math.min(...scores.map((s) => s.rank));
  return h("section", { class: "scorepad", "data-testid": "scorepad", "aria-label": t("scores.final") },
    h("h2", {}, t("scores.final")),
    h("p", { class: "result", "data-testid": "result" }, resultLine(scores)),
    ended === "host" ? h("p", { class: "ended", "data-testid": "ended-by-host" },
      t("scores.ended_by_host")) : null,
    h("div", { class: "pad-scroll", "data-testid": "pad-scroll" }, h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, ""), scores.map((s) => h("th", {
        style: `color:${COLOURS[s.seat % COLOURS.length]}`,
      }, seatTag(s.seat), s.rank === best ? " ★" : "")))),
      h("tbody", {},
        lines.map((name, i) => h("tr", {}, h("th", { scope: "row" }, name),
          scores.map((s) => h("td", {}, String(s.lines[i][1]))))),
        h("tr", { class: "total" }, h("th", { scope: "row" }, t("scores.total")),
          scores.map((s) => h("td", { "data-testid": `total-${s.seat}` }, String(s.total)))),
        h("tr", { class: "rank" }, h("th", { scope: "row" }, t("scores.rank")),
          scores.map((s) => h("td", {}, String(s.rank)))),
        ratingRow(scores.map((s) => s.seat), ratings)))),
    ratingNote(ratings));
}

/** @type {Record<string, string>} a clock's line: an icon drawn by the CSS */
const LINE_MARKS = { undo: "↶ ", host: "⚑ " };

/**
 * One log line: the engine's words, the rulings they rest on in a tooltip.
 * @param {LogEvent} e
 * @param {boolean} [fresh]
 */
export function logLine(e, fresh = false) {
  const colour = e.player !== null && e.player !== undefined && e.player >= 0
    ? COLOURS[e.player % COLOURS.length] : null;
  const rules = e.rules && e.rules.length ? t("log.rulings", { rules: e.rules.join(", ") }) : null;
  return h("li", {
    class: `ev ev-${e.kind}${fresh ? " new" : ""}${rules ? " ruled" : ""}`,
    style: colour ? `--who:${colour}` : null, title: rules,
  }, LINE_MARKS[e.kind] || "", withNames(e.text));
}

/** @param {View} view */
function logHtml(view) {
  const since = newSince(view);
  return h("ol", { class: "log", "data-testid": "log", "aria-label": t("log.label") },
    (view.events || []).map((e) => logLine(e, since !== null && e.seq > since)));
}

// ------------------------------------------------------------------ opening a seat
/**
 * A seat of the game this browser holds that works now: [{token, you}] (checks each).
 * @param {string} id
 */
async function workingSeats(id) {
  /** @type {{ token: string, you: number[] }[]} */
  const out = [];
  for (const token of heldTokens(id)) {
    try {
      const view = await api.view(id, token);
      if (view.you && view.you.length) out.push({ token, you: view.you });
    } catch (err) {
      if (err instanceof ApiError && err.status === 403) dropToken(id, token);
    }
  }
  return out;
}

/**
 * @param {string} id
 * @param {string} token
 */
function playHref(id, token) {
  return href(`/play/${encodeURIComponent(id)}#${encodeURIComponent(token)}`);
}

/**
 * @param {HTMLElement} root
 * @param {string} id
 */
function noSuchGame(root, id) {
  problemPage(root, t("game.no_such"), t("game.no_such_text", { id }),
    [h("a", { class: "btn primary", href: href("/"), "data-testid": "to-lobby" }, t("common.back_to_lobby"))], "no-game");
}

/**
 * The page for a link that is no seat of the game (with this browser's other seats of it).
 * @param {HTMLElement} root
 * @param {string} id
 * @param {"none" | "link"} why
 */
async function notASeat(root, id, why) {
  const others = await workingSeats(id);
  const heading = why === "none" ? t("seat.none") : t("seat.not_any_more");
  const text = why === "none" ? t("seat.none_text") : [t("seat.not_any_more_text"), t("seat.ask_host_link")];
  problemPage(root, heading, text, [
    ...others.map((o) => h("a", { class: "btn primary", href: playHref(id, o.token), "data-testid": "open-other-seat" },
      t("seat.open_yours", { seats: o.you.map((p) => `P${p}`).join(", ") }))),
    h("a", { class: "btn", href: href(`/game/${encodeURIComponent(id)}`), "data-testid": "watch" }, t("seat.watch")),
    h("a", { class: "btn", href: href("/"), "data-testid": "to-lobby" }, t("common.back_to_lobby")),
  ], "not-a-seat");
}

/**
 * The seat this page plays: the link's token (kept once the server accepts it), else the
 * token this tab played, else any this browser holds that still works. Null when none
 * does (a page in words was drawn instead).
 * @param {HTMLElement} root
 * @param {string} id
 * @returns {Promise<{ token: string, view: View, look?: number[], lookToken?: string } | null>}
 */
async function openSeat(root, id) {
  const given = fragmentToken();
  const candidates = given ? [given]
    : [...new Set([currentToken(id), ...heldTokens(id)].filter(Boolean))];
  for (const token of candidates) {
    try {
      const view = await api.view(id, token);
      if (view.you && view.you.length) {
        // a look (the host checking an invitation), or another seat's link in a browser
        // that plays a seat of this game: watch, unless the person says to play it
        if (given && lookOnly()) return { token: "", view: await api.view(id, ""), look: view.you, lookToken: token };
        if (given && !heldTokens(id).includes(token)) {
          const others = (await workingSeats(id)).filter((o) => o.token !== token);
          const theirs = view.you || [];
          const held = [...new Set(others.flatMap((o) => o.you))].filter((p) => !theirs.includes(p));
          if (held.length && await askBeforeTaking(root, theirs, held) === "watch") {
            return { token: "", view: await api.view(id, ""), look: view.you, lookToken: token };
          }
        }
        addToken(id, token);
        setCurrentToken(id, token);
        // signed in: the seat may become the account's (asked first)
        if (given && await offerClaim(root, id, token, view)) return { token, view: await api.view(id, token) };
        return { token, view };
      }
      if (view.benched && view.benched.length) { // the host gave the seat to a bot: it watches
        addToken(id, token);
        setCurrentToken(id, token);
        return { token, view };
      }
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        noSuchGame(root, id);
        return null;
      }
      if (err instanceof ApiError && (err.status === 403 || err.status === 401)) {
        dropToken(id, token);
        continue;
      }
      problemPage(root, t("game.cannot_open"), err instanceof Error ? err.message : String(err), [
        h("button", { type: "button", class: "btn primary", onclick: () => location.reload() }, t("common.try_again")),
        h("a", { class: "btn", href: href("/") }, t("common.back_to_lobby"))]);
      return null;
    }
  }
  await notASeat(root, id, given || candidates.length ? "link" : "none");
  return null;
}

// ------------------------------------------------------------------ the layout
/** The game screen's phone layout (the CSS's `.shell`) up to this width; the replay
 * viewer's board opens on a review's rings there. */
export const phone = matchMedia("(max-width: 900px)");

const TABS = ["board", "build", "you", "players", "log", "chat", "scores", "review"];

/**
 * Where the game screen's parts go. A desktop: the board and the building supply on the
 * left; the score pad, the decision (prompt, Undo, options) and your mat in a column
 * beside it; the others' mats under both; once the game is over, two tabs under the
 * header: the game, and its Review (the whole width). A phone (`arrange(true)`): one
 * screen that never scrolls: a slim header, tabs, the board filling the middle with the
 * building supply, your mat, the others' mats, the log, the score pad and the review as
 * drawers over it, and the decision in a bar at the bottom (its list of options can fold
 * away). `onReview()` is called when the Review tab is opened.
 * `update()` after each drawing marks the tabs holding the decision's targets and, on a
 * new decision of yours, opens the one holding most of them.
 * @param {{ root: HTMLElement, header: HTMLElement, boardFrame: HTMLElement, supplyBox: HTMLElement,
 *   scoresBox: HTMLElement, takeoverBox: HTMLElement, decision: HTMLElement, turnBox: HTMLElement,
 *   undoBox: HTMLElement, optionsBox: HTMLElement, mineBox: HTMLElement, logBox: HTMLElement,
 *   matsBox: HTMLElement, reviewBox: HTMLElement, onReview: () => void, chatBox: HTMLElement,
 *   onChat: (shown: boolean) => void }} parts
 */
function gameLayout(parts) {
  const { root, header, boardFrame, supplyBox, scoresBox, takeoverBox, decision, turnBox,
    undoBox, optionsBox, mineBox, logBox, matsBox, reviewBox, onReview, chatBox, onChat } = parts;
  const boardCol = h("div", { class: "board-col" });
  const sideFit = h("div", { class: "side-fit" }); // what fits the window: the decision, your mat
  const side = h("aside", { class: "side" }, sideFit);
  const desktop = h("div", { class: "game" }, boardCol, side);
  const deskGame = h("div", { class: "desk-game", role: "tabpanel", "aria-label": t("tab.game") });
  const deskReview = h("div", { class: "desk-review", role: "tabpanel", "aria-label": t("tab.review") });
  /** @type {Record<string, HTMLButtonElement>} */
  const deskButtons = {};
  const deskTabs = h("nav", { class: "view-tabs desk-tabs", role: "tablist", "aria-label": t("tab.game_or_review") },
    [["game", t("tab.game")], ["review", t("tab.review")]].map(([name, label]) => {
      deskButtons[name] = h("button", { type: "button", class: "view-tab", role: "tab", "data-testid": `desk-tab-${name}`,
        onclick: () => deskSelect(name) }, label);
      return deskButtons[name];
    }));
  let deskCurrent = "game";
  /** @type {Record<string, HTMLElement>} what each phone drawer holds */
  const boxes = { build: supplyBox, you: mineBox, players: matsBox, log: logBox, chat: chatBox, scores: scoresBox, review: reviewBox };
  /** @type {Record<string, HTMLDivElement>} */
  const drawers = {};
  /** @type {Record<string, HTMLButtonElement>} */
  const tabButtons = {};
  for (const name of TABS) {
    const label = t(`tab.${name}`);
    tabButtons[name] = h("button", {
      type: "button", class: "tab", role: "tab", "data-tab": name, "data-testid": `tab-${name}`,
      onclick: () => select(name),
    }, label, h("span", { class: "tab-dot", "aria-hidden": "true" }),
    name === "chat" ? h("span", { class: "tab-count", "data-testid": "chat-unread", hidden: true }) : null);
    if (name !== "board") drawers[name] = h("div", { class: `drawer drawer-${name}`, role: "tabpanel", "aria-label": label });
  }
  const tabs = h("nav", { class: "tabs", role: "tablist", "aria-label": t("tab.game") }, Object.values(tabButtons));
  const stage = h("div", { class: "stage" }, Object.values(drawers));
  const toggle = h("button", {
    type: "button", class: "btn small bar-toggle", "data-testid": "bar-toggle",
    onclick: () => { bar.classList.toggle("collapsed"); label(); },
  });
  const tools = h("div", { class: "bar-tools" });
  const bar = h("section", { class: "bar", "data-testid": "bar", "aria-label": t("turn.your_decision") }, tools);
  let current = "board";
  let phoneMode = false;
  let choices = 0;
  let scoresShown = false;

  function label() {
    const folded = bar.classList.contains("collapsed");
    toggle.textContent = folded ? t("turn.choices_folded", { n: choices }) : t("turn.hide");
    toggle.hidden = !choices;
  }

  /** @param {string} name */
  function select(name) {
    current = name;
    stage.dataset.tab = name;
    for (const [tab, button] of Object.entries(tabButtons)) {
      button.setAttribute("aria-selected", tab === name ? "true" : "false");
      if (drawers[tab]) drawers[tab].hidden = tab !== name;
    }
    if (name === "log") drawers.log.scrollTop = drawers.log.scrollHeight; // the latest lines
    if (name === "review" && phoneMode && onReview) onReview();
    if (phoneMode) inSight(tabButtons[name]);
    chatShown();
  }

  /**
   * Scroll the row of tabs (wider than a narrow phone) to show `button`.
   * @param {HTMLElement} button
   */
  function inSight(button) {
    const row = tabs.getBoundingClientRect();
    const r = button.getBoundingClientRect();
    if (r.left < row.left) tabs.scrollLeft -= row.left - r.left;
    else if (r.right > row.right) tabs.scrollLeft += r.right - row.right;
  }

  /** Tell the chat whether it is in sight: a desktop's game tab, a phone's Chat tab. */
  function chatShown() {
    onChat(phoneMode ? current === "chat" : deskCurrent === "game");
  }

  /**
   * The Chat tab's count of unread messages (none: hidden).
   * @param {number} n
   */
  function unread(n) {
    const badge = /** @type {HTMLElement} */ (tabButtons.chat.querySelector(".tab-count"));
    const words = unreadBadge(n);
    badge.textContent = words.text;
    badge.hidden = words.hidden;
    tabButtons.chat.setAttribute("aria-label", words.label);
    if (phoneMode) inSight(tabButtons[current]); // the badge may have pushed it aside
  }

  /** @param {string} name */
  function deskSelect(name) {
    deskCurrent = name;
    for (const [tab, button] of Object.entries(deskButtons)) button.setAttribute("aria-selected", tab === name ? "true" : "false");
    deskGame.hidden = name !== "game";
    deskReview.hidden = name !== "review";
    if (name === "review" && !phoneMode && onReview) onReview();
    chatShown();
  }

  /** @param {boolean} isPhone */
  function arrange(isPhone) {
    phoneMode = isPhone;
    root.classList.toggle("shell", isPhone);
    document.body.dataset.layout = isPhone ? "phone" : "desktop";
    if (isPhone) {
      for (const [name, box] of Object.entries(boxes)) drawers[name].append(box);
      stage.prepend(boardFrame);
      decision.append(turnBox, optionsBox);
      tools.append(undoBox, toggle);
      bar.append(takeoverBox, decision);
      replace(root, header, tabs, stage, bar);
      select(current);
    } else {
      boardCol.append(boardFrame, supplyBox);
      decision.append(turnBox, undoBox, optionsBox);
      sideFit.append(scoresBox, takeoverBox, decision, mineBox);
      side.append(sideFit, logBox, chatBox);
      replace(deskGame, desktop, matsBox);
      replace(deskReview, reviewBox);
      replace(root, header, deskTabs, deskGame, deskReview);
      deskSelect(deskCurrent);
    }
  }

  /** @param {{ mine: boolean, over: boolean, fresh: boolean }} how */
  function update({ mine, over, fresh }) {
    /** @type {Record<string, number>} */
    const counts = {
      board: boardFrame.querySelectorAll(".target").length,
      build: supplyBox.querySelectorAll(".target").length,
      you: mineBox.querySelectorAll(".target").length,
      players: matsBox.querySelectorAll(".target").length,
    };
    for (const [name, button] of Object.entries(tabButtons)) button.classList.toggle("has-targets", (counts[name] || 0) > 0);
    tabButtons.scores.hidden = !scoresBox.childElementCount;
    tabButtons.review.hidden = !reviewBox.childElementCount;
    tabButtons.you.hidden = !mineBox.childElementCount;
    deskTabs.hidden = !reviewBox.childElementCount;
    if (deskTabs.hidden && deskCurrent !== "game") deskSelect("game");
    choices = optionsBox.querySelectorAll("[data-testid=option]").length;
    label();
    if (!phoneMode) return;
    const next = nextTab({ current, counts, over, fresh, mine, scoresShown,
      hasScores: scoresBox.childElementCount > 0, hidden: (tab) => tabButtons[tab].hidden });
    scoresShown = next.scoresShown;
    if (next.reveal) { // a drawer, its first target in sight
      select(next.reveal);
      boxes[next.reveal].querySelector(".target")?.scrollIntoView({ block: "nearest" });
    }
    if (next.open && next.open !== next.reveal) select(next.open);
  }

  function leave() {
    root.classList.remove("shell");
    delete document.body.dataset.layout;
  }

  /** Open the tab `name` (the phone's drawer, or the desktop's Game/Review tab). */
  /** @param {string} name */
  function show(name) {
    if (phoneMode) select(name);
    else if (deskButtons[name]) deskSelect(name);
  }

  return { arrange, update, leave, unread, show };
}

// ------------------------------------------------------------------ the screen
/**
 * Start the game screen in `root`. `spectator` for /game/{id}.
 * @param {HTMLElement} root
 * @param {string} id
 * @param {{ spectator?: boolean }} [options]
 */
export async function gameScreen(root, id, { spectator = false } = {}) {
  let token = "";
  /** @type {View} */
  let first;
  /** @type {{ seats: number[], token: string } | null} a read-only look at a seat's link: its seats and token */
  let look = null;
  if (!spectator) {
    const seat = await openSeat(root, id);
    if (!seat) return;
    ({ token, view: first } = seat);
    if (seat.look) look = { seats: seat.look, token: seat.lookToken || "" };
  } else {
    try {
      first = await api.view(id, "");
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) noSuchGame(root, id);
      else problemPage(root, t("game.cannot_open"), err instanceof Error ? err.message : String(err), [
        h("a", { class: "btn", href: href("/") }, t("common.back_to_lobby"))]);
      return;
    }
  }
  let view = first; // the view drawn last (control.view; the first until it is drawn)
  let stop = () => {};
  /** @type {ReturnType<typeof openHostPanel> | null} the open host panel */
  let host = null;
  /** @type {{ bots: string[] } | null} */
  let meta = null;
  const watch = turnWatcher();
  const askName = nameAsker(id, token, (next) => render(next));
  const watchRatings = pendingRatings(() => refresh()); // a rated game's, once it is over

  const header = h("div", { class: "game-head" });
  const boardFrame = h("div", { class: "board-wrap" });
  const pz = panZoom(boardFrame, { minScale: () => (phone.matches ? PHONE_MIN_SCALE : 0) });
  const supplyBox = h("div", { class: "supply-box" });
  const scoresBox = h("div", { class: "scores-box" });
  const takeoverBox = h("div", { class: "takeover-box" });
  const turnBox = h("div", { class: "turn-box" });
  const undoBox = h("div", { class: "undo-box" });
  const optionsBox = h("div", { class: "options-box" });
  const mineBox = h("div", { class: "mine-box" });
  const logBox = h("section", { class: "log-box" });
  const matsBox = h("div", { class: "mats-col" });
  const reviewBox = h("div", { class: "review-box" });
  const chat = chatPanel(id, { token, view: () => view, hostToken: () => hostToken(id),
    onUnread: (n) => layout.unread(n) });
  const chatBox = h("div", { class: "chat-col" }, chat.el);
  let chatNames = "";
  /** @type {ReturnType<typeof reviewPanel> | null} the Review tab's panel, once the game is over */
  let review = null;
  const rematch = rematchPanel(id, token); // Play again / Join the rematch, once it is over
  const decision = h("div", { class: "decision", "data-testid": "decision" }, turnBox, undoBox, optionsBox);
  const layout = gameLayout({ root, header, boardFrame, supplyBox, scoresBox, takeoverBox, decision,
    turnBox, undoBox, optionsBox, mineBox, logBox, matsBox, reviewBox, onReview: () => review && review.start(),
    chatBox, onChat: (shown) => chat.setShown(shown) });
  layout.arrange(phone.matches);
  phone.addEventListener("change", () => {
    layout.arrange(phone.matches);
    if (view) render(view, { relayout: true });
  });
  const banner = connectionBanner(); // "Reconnecting…" while the server is away
  const control = new GameController({
    load: () => api.view(id, token),
    draw: (next, how) => {
      view = next;
      draw(how);
    },
    reached: (ok) => banner.fetched(ok),
    lostSeat: () => lostSeat(),
    say: (message, kind) => toast(message, kind),
    busy: (on) => {
      root.classList.toggle("busy", on);
      if (on) closePopup();
    },
    seated: Boolean(token),
  });
  /**
   * @param {View} next
   * @param {{ relayout?: boolean }} [options]
   */
  const render = (next, { relayout = false } = {}) => control.accept(next, { relayout });
  const refresh = () => control.refresh();

  /** This page's link stopped working (the host re-issued it or gave the seat a bot). */
  function lostSeat() {
    stop();
    banner.remove();
    layout.leave();
    trackClock(null);
    dropToken(id, token);
    if (hostToken(id)) {
      location.replace(href(`/game/${encodeURIComponent(id)}`)); // the host watches on
      return;
    }
    notASeat(root, id, "link");
  }

  /** @param {() => Promise<View>} call */
  const send = (call) => control.send(call);
  const act = (/** @type {Option} */ option) => send(() => api.act(id, token, option.action, view.seq));
  const undo = () => send(() => api.undo(id, token, view.seq));

  /** Make every element whose id some option targets clickable; nothing else. */
  /**
   * @param {Element} container
   * @param {Map<string, Option[]>} byTarget
   */
  function activate(container, byTarget) {
    for (const el of container.querySelectorAll("[data-target]")) {
      const target = el.getAttribute("data-target") || "";
      const options = byTarget.get(target);
      if (!options) {
        el.setAttribute("aria-disabled", "true");
        continue;
      }
      el.classList.add("target");
      el.setAttribute("tabindex", "0");
      el.removeAttribute("aria-disabled");
      if (el.namespaceURI !== "http://www.w3.org/1999/xhtml") el.setAttribute("role", "button");
      // what an option changes that its words do not say (a final discard's glory)
      const words = targetWords(options);
      el.setAttribute("aria-label", words.label);
      if (words.title && el.namespaceURI === "http://www.w3.org/1999/xhtml") el.setAttribute("title", words.title);
      const fire = (/** @type {Event} */ event) => {
        event.stopPropagation();
        event.preventDefault();
        if (options.length === 1) act(options[0]);
        else {
          const rect = el.getBoundingClientRect();
          popup(rect.left, rect.bottom + 4, t("turn.choose"), options, act);
        }
      };
      el.addEventListener("click", fire);
      el.addEventListener("keydown", (event) => {
        const key = event instanceof KeyboardEvent ? event.key : "";
        if (key === "Enter" || key === " ") fire(event);
      });
    }
  }

  /** A bot plays one of this page's seats: why, and the button to take it back. */
  function takenOver() {
    return takeovers(view).map((t) => h("section", { class: "takeover", "data-testid": `taken-over-${t.seat}` },
      h("p", {}, t.why),
      t.reclaim ? h("button", {
        type: "button", class: "btn primary", "data-testid": "reclaim",
        onclick: () => send(() => api.reclaim(id, token, t.seat)),
      }, t.reclaim) : h("p", { class: "muted" }, t.note)));
  }

  function turnHtml() {
    const d = view.decision;
    const box = h("section", { class: "turn", "data-testid": "turn" });
    const who = whoseTurn(view);
    if (!d || !who) {
      box.append(h("h2", { "data-testid": "whose-turn" }, overWords(view)));
      if (view.over) box.append(rematch.el);
      return box;
    }
    box.append(h("h2", { class: `${who.mine ? "mine" : ""}${who.bot ? " thinking" : ""}`, "data-testid": "whose-turn",
      style: `--seat:${COLOURS[d.player % COLOURS.length]}` }, h("span", {}, withNames(who.text))));
    box.append(h("p", { class: "prompt", "data-testid": "prompt" }, withNames(promptWords(view) || "")));
    const line = clockLine(view);
    const chip = line ? clockChip(d.player) : null;
    if (line && chip) {
      box.append(h("p", { class: "clock-line", "data-testid": "turn-clock" }, chip, line.words,
        // a turn-based clock's deadline as a moment too (days away: "by Fri 5 Dec, 14:00")
        line.deadline ? h("span", { class: "deadline-at", "data-testid": "turn-deadline",
          title: locale() === "en" ? new Date(line.deadline).toString()
            : new Date(line.deadline).toLocaleString(locale(), { dateStyle: "full", timeStyle: "long" }) },
        t("clock.by", { when: momentWords(line.deadline) })) : null));
    }
    const quick = quickButtons(view);
    if (quick.length) {
      box.append(h("div", { class: "quick" }, quick.map((q) => h("button", {
        type: "button", class: "btn", "data-target": q.action, title: q.title }, q.label))));
    }
    return box;
  }

  function optionsHtml() {
    const groups = optionGroups(view);
    if (!groups || !view.decision) return null;
    const box = h("section", { class: "options", "data-testid": "options", "aria-label": t("turn.all_legal") },
      h("h3", {}, t("turn.all_choices", { n: view.decision.options.length })));
    for (const [group, options] of groups) {
      box.append(h("div", { class: "opt-group" }, h("h4", {}, group),
        options.map((o) => h("button", {
          type: "button", class: "opt", "data-testid": "option", "data-action": o.action,
          title: o.rules && o.rules.length ? t("turn.rulings", { rules: o.rules.join(", ") }) : null, onclick: () => act(o),
        }, o.text, o.effect ? h("span", { class: "opt-effect", "data-testid": "option-effect" }, o.effect) : null))));
    }
    return box;
  }

  function openHost() {
    const start = async () => {
      const known = meta || await api.meta().catch(() => ({ bots: ["easy", "medium", "hard"] }));
      meta = known;
      host = openHostPanel(id, {
        bots: known.bots,
        onChange: () => refresh(),
        adopt: (/** @type {string} */ next) => {
          if (!token) return;
          location.replace(playHref(id, next)); // this page's seat has a new link
        },
      });
      host.dialog.addEventListener("close", () => { host = null; });
    };
    start();
  }

  /**
   * Draw `view` (control.accept decided it is not older than the one drawn).
   * @param {{ fresh: boolean, relayout: boolean }} how
   */
  function draw({ fresh, relayout }) {
    const state = view.state;
    closePopup();
    const you = view.you || [];
    const spectate = !token || !you.length;
    const playing = Boolean(token) && you.length > 0; // not a look, not a seat given to a bot
    const gameTitle = view.title || t("game.untitled", { id });
    setSeats(view.seats);
    trackClock(view.clock);
    replace(header,
      h("a", { href: href("/"), class: "back", title: t("common.back_to_lobby") }, "← ", h("span", { class: "back-word" }, t("head.lobby"))),
      h("h1", { class: "game-title", title: gameTitle }, gameTitle),
      youTag(id, token, view, (next) => render(next)),
      h("span", { class: "headline", "data-testid": "headline" }, headline(state, view.ended)),
      ratedMark(view),
      spectate ? h("span", { class: "badge" }, t("head.spectating")) : null,
      h("button", { type: "button", class: "btn small menu-toggle", "data-testid": "menu-toggle",
        "aria-expanded": header.classList.contains("open") ? "true" : "false", title: t("head.more"),
        onclick: (/** @type {MouseEvent} */ event) => {
          const open = header.classList.toggle("open");
          /** @type {HTMLElement} */ (event.currentTarget).setAttribute("aria-expanded", open ? "true" : "false");
        } }, "☰"),
      h("span", { class: "tools" },
        h("span", { class: "muted seq", "data-testid": "seq", title: t("head.seq_title") }, t("head.seq", { n: view.seq })),
        playing ? h("button", { type: "button", class: "btn small", "data-testid": "notify-open",
          title: t("head.notify_title"),
          onclick: () => openNotifyPanel(id, token) }, t("head.notify"), h("span", { class: "notify-more" }, t("head.notify_more"))) : null,
        hostToken(id) ? h("button", { type: "button", class: "btn small", "data-testid": "host-open",
          title: t("head.host_title"), onclick: openHost }, t("head.host")) : null,
        h("a", { href: href(`/replay/${encodeURIComponent(id)}`), class: "btn small", "data-testid": "replay-link" }, t("head.replay")),
        h("a", { href: href(`/rules#${rulesAnchor(view.config)}`), class: "btn small", target: "_blank", rel: "noopener",
          "data-testid": "rules-link", title: t("head.rules_title") }, t("head.rules")),
        h("a", { href: href(`/api/games/${encodeURIComponent(id)}/record`), class: "btn small",
          download: `endeavor-${id}.json`, title: t("head.record_title") }, t("head.record")),
        languageSwitch()),
      askName(view));
    const table = tableHtml(view, { clocks: !view.over });
    replace(supplyBox, table.supply);
    replace(matsBox, table.mats);
    replace(scoresBox, view.scores ? scorePad(view.scores, view.ended, view.ratings) : null);
    watchRatings(view);
    replace(takeoverBox, takenOver(), seatNotices(view, {
      look: look ? look.seats : null,
      onPlay: look ? () => {
        addToken(id, look.token);
        const target = new URL(playHref(id, look.token), location.href).href;
        if (target === location.href) location.reload();
        else location.replace(target);
      } : null,
    }));
    replace(turnBox, turnHtml());
    rematch.update(view);
    // not while a bot plays one of this page's seats (its time ran out): nothing to take back
    replace(undoBox, canUndo(view) ? h("button", { type: "button", class: "btn undo", "data-testid": "undo",
      onclick: undo, title: t("turn.undo_title") }, t("turn.undo")) : null);
    replace(optionsBox, optionsHtml());
    replace(mineBox, table.mine);
    replace(logBox, h("h3", {}, t("log.heading"), you.length ? h("span", { class: "muted" }, t("log.new_since")) : null),
      logHtml(view));
    pz.setSvg(table.svg);
    activate(root, targetsOf(view));
    if (view.over && !review) {
      review = reviewPanel(id);
      reviewBox.append(review.el);
    }
    const log = logBox.querySelector(".log");
    if (log) log.scrollTop = log.scrollHeight;
    const mine = yourMove(view);
    layout.update({ mine, over: Boolean(view.over), fresh: fresh && !relayout });
    // on a phone the board opens on where the decision happens (once per decision)
    if (phone.matches && control.focusDue()) pz.focus(".target");
    setTitle(`${view.over ? `${headline(state, view.ended)} · ` : ""}${gameTitle} · Endeavor`, mine);
    watch(mine, t("turn.your_move_in", { title: gameTitle }), view.decision ? view.decision.prompt : "");
    root.dataset.seq = String(view.seq);
    root.dataset.yourMove = mine ? "1" : "0";
    const names = (view.seats || []).map((seat) => seat.name).join("\n");
    if (names !== chatNames) {
      chatNames = names;
      chat.redraw();
    }
    if (host) host.refresh();
  }

  render(first);
  trackPresence(id, () => (token && view && (view.you || []).length ? token : ""));
  if (spectator && location.hash === "#review" && first.over) layout.show("review");
  if (takeHostFlag(id)) openHost();
  stop = follow(id, (seq) => control.announce(seq), () => { chat.poll(); return refresh(); }, (last, deleted) => chat.version(last, deleted), (up) => {
    banner.socket(up);
    if (up) { // back: the latest state (a clock may have moved without a move)
      refresh();
      chat.poll();
    }
  });
}
