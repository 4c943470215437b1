// The game screen (/play/{id}#<token> for a seat, /game/{id} for spectators): the board,
// the mats, whose turn and the prompt, the legal actions (clickable where they happen and
// as a grouped list), the log, Undo, the score pad; live through the WebSocket.

import { api, ApiError, follow, seatToken } from "./api.js";
import { drawBoard } from "./board.js";
import { h, href, replace, toast, popup, closePopup, COLOURS } from "./dom.js";
import { matHtml, supplyHtml } from "./mats.js";

/**
 * The table (board, supply, mats) of a game view, without any controls. `mine` is the
 * mat shown beside the board (the viewer's seat to move, else the viewer's first seat);
 * the other mats go under the board.
 */
export function tableHtml(view) {
  const state = view.state;
  const you = view.you || [];
  const seats = view.seats || [];
  const current = state.current_player;
  const mineSeat = you.includes(current) ? current : you.length ? you[0] : null;
  const mat = (m) => matHtml(m, state, seats[m.seat], you.includes(m.seat));
  return {
    board: h("div", { class: "board-wrap" }, drawBoard(state)),
    supply: supplyHtml(state),
    mine: mineSeat === null ? null : mat(state.players[mineSeat]),
    mats: h("div", { class: "mats", "data-testid": "mats" },
      state.players.filter((m) => m.seat !== mineSeat).map(mat)),
  };
}

/** "Round 3/7 · Actions · Crown P1" */
export function headline(state) {
  if (state.over) return "Game over";
  const when = state.round === 0 ? "Setup" : `Round ${state.round}/${state.rounds} · ${state.phase}`;
  return `${when} · Crown P${state.crown}`;
}

export function seatLabel(view, p) {
  const seat = (view.seats || [])[p];
  if (!seat) return `P${p}`;
  if (seat.kind === "bot") return `P${p} (bot · ${seat.bot})`;
  if (seat.kind === "hotseat") return `P${p} (hot-seat)`;
  return `P${p}`;
}

/** The score pad: one column per seat, one row per line, then totals and ranks. */
export function scorePad(scores) {
  const lines = scores[0].lines.map(([name]) => name);
  const best = Math.min(...scores.map((s) => s.rank));
  return h("section", { class: "scorepad", "data-testid": "scorepad", "aria-label": "Final scores" },
    h("h2", {}, "Final scores"),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, ""), scores.map((s) => h("th", {
        style: `color:${COLOURS[s.seat % COLOURS.length]}`,
      }, `${s.name || `P${s.seat}`}${s.rank === best ? " ★" : ""}`)))),
      h("tbody", {},
        lines.map((name, i) => h("tr", {}, h("th", { scope: "row" }, name),
          scores.map((s) => h("td", {}, String(s.lines[i][1]))))),
        h("tr", { class: "total" }, h("th", { scope: "row" }, "Total"),
          scores.map((s) => h("td", { "data-testid": `total-${s.seat}` }, String(s.total)))),
        h("tr", { class: "rank" }, h("th", { scope: "row" }, "Rank"),
          scores.map((s) => h("td", {}, String(s.rank)))))));
}

function logHtml(view) {
  const you = view.you || [];
  const events = view.events || [];
  let mine = -1;
  for (const e of events) if (e.kind === "action" && you.includes(e.player)) mine = Math.max(mine, e.seq);
  const list = h("ol", { class: "log", "data-testid": "log", "aria-label": "Game log" });
  for (const e of events) {
    const fresh = you.length > 0 && mine >= 0 && e.seq > mine;
    const colour = e.player !== null && e.player !== undefined ? COLOURS[e.player % COLOURS.length] : null;
    list.append(h("li", {
      class: `ev ev-${e.kind}${fresh ? " new" : ""}`, style: colour ? `--who:${colour}` : null,
    }, e.text));
  }
  return list;
}

/** Start the game screen in `root`. `spectator` for /game/{id}. */
export async function gameScreen(root, id, { spectator = false } = {}) {
  const token = spectator ? "" : seatToken(id);
  let view = null;
  let busy = false;
  let fetching = null;

  const board = h("div", { class: "board-col" });
  const side = h("aside", { class: "side" });
  const matsBox = h("div", { class: "mats-col" });
  const header = h("div", { class: "game-head" });
  replace(root, header, h("div", { class: "game" }, board, side), matsBox);

  let announced = -1; // the highest seq the server announced
  let again = false; // an announcement came while a fetch was in flight

  /** Fetch the view; one request at a time, and once more if news came meanwhile. */
  async function refresh() {
    if (fetching) {
      again = true;
      return fetching;
    }
    fetching = (async () => {
      try {
        do {
          again = false;
          render(await api.view(id, token));
        } while (again || (view && announced > view.seq));
      } catch (err) {
        toast(err instanceof ApiError && err.status === 404 ? "No such game" : err.message);
      } finally {
        fetching = null;
      }
    })();
    return fetching;
  }

  async function send(call) {
    if (busy) return;
    busy = true;
    root.classList.add("busy");
    closePopup();
    try {
      render(await call());
      if (announced > view.seq) refresh();
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        toast(`${err.message} — the game moved on; refreshed.`);
        await refresh();
      } else {
        toast(err.message);
      }
    } finally {
      busy = false;
      root.classList.remove("busy");
    }
  }

  const act = (option) => send(() => api.act(id, token, option.action, view.seq));
  const undo = () => send(() => api.undo(id, token, view.seq));

  /** Make every element whose id some option targets clickable; nothing else. */
  function activate(container, byTarget) {
    for (const el of container.querySelectorAll("[data-target]")) {
      const target = el.getAttribute("data-target");
      const options = byTarget.get(target);
      if (!options) {
        el.setAttribute("aria-disabled", "true");
        continue;
      }
      el.classList.add("target");
      el.setAttribute("tabindex", "0");
      el.removeAttribute("aria-disabled");
      if (el.namespaceURI !== "http://www.w3.org/1999/xhtml") el.setAttribute("role", "button");
      const label = options.length === 1 ? options[0].text : `${options.length} choices`;
      el.setAttribute("aria-label", label);
      const fire = (event) => {
        event.stopPropagation();
        event.preventDefault();
        if (options.length === 1) act(options[0]);
        else {
          const rect = el.getBoundingClientRect();
          popup(rect.left, rect.bottom + 4, "Choose", options, act);
        }
      };
      el.addEventListener("click", fire);
      el.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") fire(event);
      });
    }
  }

  function turnHtml() {
    const you = view.you || [];
    const d = view.decision;
    const box = h("section", { class: "turn", "data-testid": "turn" });
    if (!d) {
      box.append(h("h2", {}, "Game over"));
      return box;
    }
    const mine = you.includes(d.player);
    const who = mine
      ? (you.length > 1 ? `Seat P${d.player} to move` : "Your move")
      : `Waiting for ${seatLabel(view, d.player)}`;
    box.append(h("h2", { class: mine ? "mine" : "", "data-testid": "whose-turn",
      style: `--seat:${COLOURS[d.player % COLOURS.length]}` }, who));
    box.append(h("p", { class: "prompt", "data-testid": "prompt" }, `P${d.player}: ${d.prompt}`));
    if (mine && d.options.length) {
      const quick = h("div", { class: "quick" });
      for (const o of d.options) {
        if (o.action === "pass" || o.action === "done") {
          quick.append(h("button", { type: "button", class: "btn", "data-target": o.action,
            title: o.text }, o.action === "pass" ? "Pass" : "Done"));
        }
      }
      if (quick.childElementCount) box.append(quick);
    }
    return box;
  }

  function optionsHtml() {
    const d = view.decision;
    if (!d || !d.options.length) return null;
    const groups = new Map();
    for (const o of d.options) {
      if (!groups.has(o.group)) groups.set(o.group, []);
      groups.get(o.group).push(o);
    }
    const box = h("section", { class: "options", "data-testid": "options", "aria-label": "All legal actions" },
      h("h3", {}, `All choices (${d.options.length})`));
    for (const [group, options] of groups) {
      box.append(h("div", { class: "opt-group" }, h("h4", {}, group),
        options.map((o) => h("button", {
          type: "button", class: "opt", "data-testid": "option", "data-action": o.action,
          title: o.action, onclick: () => act(o),
        }, o.text))));
    }
    return box;
  }

  function render(next) {
    if (!next || (view && next.seq < view.seq)) return; // never go back to an older view
    view = next;
    const state = view.state;
    closePopup();
    const spectate = !token || !(view.you || []).length;
    replace(header,
      h("a", { href: href("/"), class: "back" }, "← Lobby"),
      h("h1", {}, view.title || `Game ${id}`),
      h("span", { class: "headline", "data-testid": "headline" }, headline(state)),
      spectate ? h("span", { class: "badge" }, "spectating") : null,
      h("span", { class: "muted seq", "data-testid": "seq" }, `move ${view.seq}`),
      h("a", { href: href(`/replay/${encodeURIComponent(id)}`), class: "btn small", "data-testid": "replay-link" }, "Replay"),
      h("a", { href: href(`/api/games/${encodeURIComponent(id)}/record`), class: "btn small",
        download: `endeavor-${id}.json`, title: "Download the game's record (import it from the lobby)" }, "Record"));
    const table = tableHtml(view);
    replace(board, table.board, table.supply);
    replace(matsBox, table.mats);
    const you = view.you || [];
    replace(side,
      view.scores ? scorePad(view.scores) : null,
      turnHtml(),
      table.mine,
      view.can_undo ? h("button", { type: "button", class: "btn undo", "data-testid": "undo",
        onclick: undo, title: "Take back your last decision" }, "↶ Undo") : null,
      optionsHtml(),
      h("section", { class: "log-box" }, h("h3", {}, "Log", you.length ? h("span", { class: "muted" }, " · new since your last move highlighted") : null),
        logHtml(view)));
    const byTarget = new Map();
    if (view.decision) {
      for (const o of view.decision.options) {
        for (const t of o.targets) {
          if (!byTarget.has(t)) byTarget.set(t, []);
          byTarget.get(t).push(o);
        }
      }
    }
    activate(root, byTarget);
    const log = side.querySelector(".log");
    if (log) log.scrollTop = log.scrollHeight;
    document.title = `${view.over ? "Over" : headline(state)} · Endeavor`;
    root.dataset.seq = String(view.seq);
  }

  await refresh();
  follow(id, (seq) => {
    announced = Math.max(announced, seq);
    if (!view || seq > view.seq) refresh();
  }, refresh);
}
