// The replay viewer (/replay/{id}): step through the effective actions of a game with the
// same board drawing; each step is GET /api/games/{id}/replay/{n}.

import { api } from "./api.js";
import { h, href, replace, toast } from "./dom.js";
import { tableHtml, headline, scorePad } from "./game.js";

export async function replayScreen(root, id) {
  let record;
  try {
    record = await api.record(id);
  } catch (err) {
    replace(root, h("p", { class: "error" }, `No record for this game: ${err.message}`));
    return;
  }
  const actions = record.actions || [];
  const last = actions.length;
  let n = last;
  let loading = 0;

  const board = h("div", { class: "board-col" });
  const side = h("aside", { class: "side" });
  const mats = h("div", { class: "mats-col" });
  const status = h("span", { class: "headline", "data-testid": "replay-status" });
  const slider = h("input", { type: "range", min: 0, max: last, value: n, "aria-label": "Step",
    "data-testid": "replay-slider", class: "slider" });
  const step = (k) => () => show(Math.max(0, Math.min(last, k())));
  const controls = h("div", { class: "replay-controls", role: "toolbar", "aria-label": "Replay controls" },
    h("button", { type: "button", class: "btn", "data-testid": "replay-first", title: "Setup", onclick: step(() => 0) }, "◀◀ Setup"),
    h("button", { type: "button", class: "btn", "data-testid": "replay-prev", title: "Previous action", onclick: step(() => n - 1) }, "◀ Back"),
    slider,
    h("button", { type: "button", class: "btn", "data-testid": "replay-next", title: "Next action", onclick: step(() => n + 1) }, "Next ▶"),
    h("button", { type: "button", class: "btn", "data-testid": "replay-last", title: "The end", onclick: step(() => last) }, "End ▶▶"));
  slider.addEventListener("change", () => show(Number(slider.value)));
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement && event.target.type !== "range") return;
    if (event.key === "ArrowLeft") show(Math.max(0, n - 1));
    if (event.key === "ArrowRight") show(Math.min(last, n + 1));
  });
  replace(root,
    h("div", { class: "game-head" },
      h("a", { href: href("/"), class: "back" }, "← Lobby"),
      h("h1", {}, `Replay · ${id}`), status,
      h("a", { class: "btn small", href: href(`/game/${encodeURIComponent(id)}`) }, "Live game")),
    controls,
    h("div", { class: "game" }, board, side), mats);

  async function show(k) {
    const ticket = ++loading;
    let view;
    try {
      view = await api.replay(id, k);
    } catch (err) {
      toast(err.message);
      return;
    }
    if (ticket !== loading) return; // a later step was asked meanwhile
    n = k;
    slider.value = String(n);
    root.dataset.step = String(n);
    replace(status, `Step ${n} of ${last} · ${headline(view.state)}`);
    const table = tableHtml(view);
    replace(board, table.board, table.supply);
    replace(mats, table.mats);
    const done = n > 0 ? actions[n - 1] : null;
    const events = (view.events || []).slice(-12);
    replace(side,
      h("section", { class: "turn" },
        h("h2", { "data-testid": "replay-step" }, n === 0 ? "Setup" : `Action ${n}: ${done}`),
        view.decision ? h("p", { class: "prompt" }, `Next: P${view.decision.player}: ${view.decision.prompt}`) : null),
      view.scores ? scorePad(view.scores) : null,
      events.length ? h("section", { class: "log-box" }, h("h3", {}, "What happened"),
        h("ol", { class: "log" }, events.map((e) => h("li", { class: `ev ev-${e.kind}` }, e.text)))) : null);
  }

  await show(n);
}
