// @ts-check
// The replay viewer (/replay/{id}[/{n}][?review=<step>]): step through the effective actions
// of a game with the same board drawing; each step is GET /api/games/{id}/replay/{n}. Beside
// the board, two tabs: what happened (the step's log, the score pad) and the game's Review
// (review.js); a decision picked there (or named by ?review=) is shown at its position with
// the move played and the better move, their places ringed on the table. On a phone the
// game's phone layout: one screen with a slim header, tabs (the board, the buildings, the
// players, what happened, the review) over the board, and the step with its controls in a
// bar at the bottom.

import { t } from "./i18n.js";
import { api, ApiError } from "./api.js";
import { h, href, problemPage, replace, toast } from "./dom.js";
import { tableHtml, headline, logLine, phone, scorePad, summaryOf } from "./game.js";
import { panZoom, PHONE_MIN_SCALE } from "./panzoom.js";
import { setSeats } from "./names.js";
import { markMoves, reviewNote, reviewPanel } from "./review.js";

/**
 * The replay of game `id`, at step `start` (null: the end).
 * @param {HTMLElement} root
 * @param {string} id
 * @param {number | null} [start]
 */
export async function replayScreen(root, id, start = null) {
  let record;
  try {
    record = await api.record(id);
  } catch (err) {
    const lobby = h("a", { class: "btn primary", href: href("/") }, t("common.back_to_lobby"));
    if (err instanceof ApiError && err.status === 404) {
      problemPage(root, t("game.no_such"), t("replay.no_game", { id }), [lobby], "no-game");
    } else {
      problemPage(root, t("replay.cannot_open"), err instanceof Error ? err.message : String(err), [lobby]);
    }
    return;
  }
  /** @type {string[]} the actions' notation */
  const actions = record.actions || [];
  const last = actions.length;
  let n = start === null ? last : Math.max(0, Math.min(last, start));
  let loading = 0;
  // the review's decision shown: its step (the position before it: n = step − 1)
  let picked = Number(new URLSearchParams(location.search).get("review")) || null;
  /** @type {number | null} the review's decision the board was last focused on */
  let focused = null;

  // the board pans and zooms like the game's (drag, pinch, double tap, + / − / ⤢), the
  // same view from one step to the next
  const boardFrame = h("div", { class: "board-wrap" });
  const pz = panZoom(boardFrame, { minScale: () => (phone.matches ? PHONE_MIN_SCALE : 0) });
  const supplyBox = h("div", { class: "supply-box" });
  const board = h("div", { class: "board-col" }, boardFrame, supplyBox);
  const side = h("aside", { class: "side" });
  const mats = h("div", { class: "mats-col" });
  const status = h("span", { class: "headline", "data-testid": "replay-status" });
  const slider = h("input", { type: "range", min: 0, max: last, value: n, "aria-label": t("replay.step"),
    "data-testid": "replay-slider", class: "slider" });
  const step = (/** @type {() => number} */ k) => () => show(Math.max(0, Math.min(last, k())));
  const controls = h("div", { class: "replay-controls", role: "toolbar", "aria-label": t("replay.controls") },
    h("button", { type: "button", class: "btn", "data-testid": "replay-first", title: t("game.setup"), onclick: step(() => 0) }, t("replay.first")),
    h("button", { type: "button", class: "btn", "data-testid": "replay-prev", title: t("replay.prev_title"), onclick: step(() => n - 1) }, t("replay.prev")),
    slider,
    h("button", { type: "button", class: "btn", "data-testid": "replay-next", title: t("replay.next_title"), onclick: step(() => n + 1) }, t("replay.next")),
    h("button", { type: "button", class: "btn", "data-testid": "replay-last", title: t("replay.last_title"), onclick: step(() => last) }, t("replay.last")));
  slider.addEventListener("change", () => show(Number(slider.value)));
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement && event.target.type !== "range") return;
    if (event.target instanceof HTMLSelectElement) return;
    if (event.key === "ArrowLeft") show(Math.max(0, n - 1));
    if (event.key === "ArrowRight") show(Math.min(last, n + 1));
  });
  const stepBox = h("section", { class: "turn" });
  const noteBox = h("div", { class: "rv-note-box" });
  const logPanel = h("div", { class: "replay-panel", role: "tabpanel", "aria-label": t("tab.steps") });
  const review = reviewPanel(id, {
    pick: (d) => {
      picked = d.step;
      review.mark(d.step);
      if (phoneMode) phoneSelect("board"); // the note is in the bar, the rings on the board
      show(d.step - 1).then(() => stepBox.scrollIntoView({ block: "nearest", behavior: "smooth" }));
    },
    selected: () => picked,
    onDone: () => noteAndMarks(),
  });
  review.el.setAttribute("role", "tabpanel");
  /** @type {Record<string, HTMLButtonElement>} */
  const tabButtons = {};
  let tab = picked ? "review" : "steps";
  const tabs = h("nav", { class: "view-tabs", role: "tablist", "aria-label": t("head.replay") },
    [["steps", t("tab.steps")], ["review", t("tab.review")]].map(([name, label]) => {
      tabButtons[name] = h("button", { type: "button", class: "view-tab", role: "tab", "data-testid": `replay-tab-${name}`,
        onclick: () => selectTab(name) }, label);
      return tabButtons[name];
    }));

  /** @param {string} name */
  function selectTab(name) {
    tab = name;
    for (const [key, button] of Object.entries(tabButtons)) button.setAttribute("aria-selected", key === name ? "true" : "false");
    logPanel.hidden = name !== "steps";
    review.el.hidden = name !== "review";
    if (name === "review") review.start();
  }

  /** The review's note and rings at the picked decision's position (none elsewhere). */
  function noteAndMarks() {
    const body = review.body();
    const d = body && body.review && picked ? body.review.decisions.find((x) => x.step === picked) : null;
    const here = d && n === d.step - 1 ? d : null;
    const marked = markMoves(root, body, here);
    replace(noteBox, here && body ? reviewNote(body, here, marked) : null);
    // on a phone the board opens on the rings (once per decision picked)
    if (here && phone.matches && focused !== here.step && pz.focus(".rv-best, .rv-played", { all: true })) {
      focused = here.step;
    }
  }

  const header = h("div", { class: "game-head" },
    h("a", { href: href("/"), class: "back", title: t("common.back_to_lobby") }, "← ", h("span", { class: "back-word" }, t("head.lobby"))),
    h("h1", { class: "game-title", title: t("replay.title", { title: id }) }, t("replay.title", { title: id })), status,
    h("a", { class: "btn small", href: href(`/game/${encodeURIComponent(id)}`) }, t("replay.live")));

  // the phone layout (game.js's): tabs over the board, the step in a bar at the bottom
  const PHONE_TABS = ["board", "build", "players", "steps", "review"].map((name) => [name, t(`tab.${name}`)]);
  /** @type {Record<string, HTMLDivElement>} */
  const drawers = {};
  /** @type {Record<string, HTMLButtonElement>} */
  const phoneButtons = {};
  for (const [name, label] of PHONE_TABS) {
    phoneButtons[name] = h("button", { type: "button", class: "tab", role: "tab", "data-tab": name,
      "data-testid": `tab-${name}`, onclick: () => phoneSelect(name) }, label);
    if (name !== "board") drawers[name] = h("div", { class: `drawer drawer-${name}`, role: "tabpanel", "aria-label": label });
  }
  const phoneTabs = h("nav", { class: "tabs", role: "tablist", "aria-label": t("head.replay") }, Object.values(phoneButtons));
  const stage = h("div", { class: "stage" }, Object.values(drawers));
  const bar = h("section", { class: "bar replay-bar", "data-testid": "bar", "aria-label": t("replay.the_step") });
  let phoneMode = false;
  let phoneTab = "board";

  /** @param {string} name */
  function phoneSelect(name) {
    phoneTab = name;
    stage.dataset.tab = name;
    for (const [key, button] of Object.entries(phoneButtons)) {
      button.setAttribute("aria-selected", key === name ? "true" : "false");
      if (drawers[key]) drawers[key].hidden = key !== name;
    }
    if (name === "review") review.start();
  }

  /** @param {boolean} isPhone */
  function arrange(isPhone) {
    phoneMode = isPhone;
    root.classList.toggle("shell", isPhone);
    document.body.dataset.layout = isPhone ? "phone" : "desktop";
    if (isPhone) {
      drawers.build.append(supplyBox);
      drawers.players.append(mats);
      drawers.steps.append(logPanel);
      drawers.review.append(review.el);
      logPanel.hidden = false;
      review.el.hidden = false;
      stage.prepend(boardFrame);
      replace(bar, stepBox, controls);
      replace(root, header, phoneTabs, stage, bar);
      phoneSelect(phoneTab);
    } else {
      board.append(boardFrame, supplyBox);
      replace(side, stepBox, tabs, logPanel, review.el);
      selectTab(tab);
      replace(root, header, controls, h("div", { class: "game replay-game" }, board, side), mats);
    }
  }

  arrange(phone.matches);
  phone.addEventListener("change", () => arrange(phone.matches));
  if (picked) review.start();

  /** @param {number} k */
  async function show(k) {
    const ticket = ++loading;
    /** @type {import("./types.js").View} the position after k actions, as a view */
    let view;
    try {
      view = await api.replay(id, k);
    } catch (err) {
      toast(err instanceof Error ? err.message : String(err));
      return;
    }
    if (ticket !== loading) return; // a later step was asked meanwhile
    n = k;
    setSeats(view.seats);
    slider.value = String(n);
    root.dataset.step = String(n);
    // the address names the step shown (and the review's decision when it is shown), so
    // that reloading or sharing it opens this position
    const at = picked && n === picked - 1 ? `?review=${picked}` : "";
    history.replaceState(null, "", href(`/replay/${encodeURIComponent(id)}/${n}${at}`));
    replace(status, t("replay.status", { n, last, headline: headline(view.state) }));
    if (view.title) {
      const heading = /** @type {HTMLElement} */ (root.querySelector(".game-title")); // the header's
      heading.textContent = t("replay.title", { title: view.title });
      heading.title = heading.textContent;
      document.title = `${t("replay.title", { title: view.title })} · Endeavor`;
    }
    const table = tableHtml(view);
    pz.setSvg(table.svg);
    replace(supplyBox, table.supply);
    replace(mats, table.mats);
    const done = n > 0 ? actions[n - 1] : null;
    const events = (view.events || []).slice(-12);
    // the step in words (the last action's own line; its notation in the tooltip)
    const all = view.events || [];
    const lastSeq = all.length ? Math.max(...all.map((e) => e.seq)) : -1;
    const own = all.filter((e) => e.seq === lastSeq);
    const said = own.find((e) => e.kind === "action") || own[0];
    const words = n > 0 && said ? said.text : null;
    replace(stepBox,
      h("h2", { "data-testid": "replay-step", title: done || null, "data-notation": done ? "" : null }, n === 0 ? t("game.setup") : t("replay.action", { n, words: words || done || "" })),
      view.decision ? h("p", { class: "prompt", "data-testid": "replay-next-decision" }, t("replay.next_decision", { summary: summaryOf(view.decision) })) : null,
      noteBox);
    replace(logPanel,
      view.scores ? scorePad(view.scores) : null,
      events.length ? h("section", { class: "log-box" }, h("h3", {}, t("tab.steps")),
        h("ol", { class: "log" }, events.map((e) => logLine(e)))) : null);
    noteAndMarks();
  }

  await show(n);
}
