// The lobby (/): open and running games, New game, spectate and resume links, import.

import { api, rememberToken } from "./api.js";
import { h, href, replace, toast } from "./dom.js";

function storedToken(id) {
  try { return localStorage.getItem(`endeavor.token.${id}`) || ""; } catch { return ""; }
}

/** A link the server gave: absolute already (a public address), or a path of the app. */
function absolute(url) {
  return /^https?:/.test(url) ? url : href(url);
}

function seatsText(game) {
  return game.seats.map((s) => (s.kind === "bot" ? s.bot : s.kind === "hotseat" ? "hot-seat" : "human"))
    .join(", ");
}

function gameRow(game) {
  const token = storedToken(game.id);
  const status = game.status === "over" ? "over"
    : game.current_player !== null ? `${game.status} · P${game.current_player} to move` : game.status;
  return h("tr", { "data-testid": "game-row", "data-id": game.id },
    h("td", {}, h("b", {}, game.title || game.id)),
    h("td", {}, game.ruleset === "classic" ? "2009" : "Age of Sail"),
    h("td", {}, String(game.players)),
    h("td", { class: "muted" }, seatsText(game)),
    h("td", {}, h("span", { class: `status ${game.status}` }, status)),
    h("td", { class: "muted" }, new Date(game.created).toLocaleString()),
    h("td", { class: "links" },
      token ? h("a", { class: "btn small primary", href: href(`/play/${encodeURIComponent(game.id)}#${encodeURIComponent(token)}`) }, "Resume") : null,
      h("a", { class: "btn small", href: absolute(game.spectate_url), "data-testid": "spectate" }, "Watch"),
      game.status === "over" ? h("a", { class: "btn small", href: href(`/replay/${encodeURIComponent(game.id)}`) }, "Replay") : null));
}

async function importRecord(file, seatsMode) {
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch {
    toast("That file is not JSON: choose a record saved from a game (GET …/record).");
    return;
  }
  const players = record && record.config && record.config.players;
  if (!Number.isInteger(players)) {
    toast("That file is not an Endeavor record (no config.players).");
    return;
  }
  const seats = seatsMode === "hotseat" ? Array(players).fill("hotseat")
    : ["human", ...Array(players - 1).fill("bot:easy")];
  try {
    const created = await api.importRecord({ record, seats, title: `Imported ${file.name}` });
    const mine = created.seats.find((s) => s.token);
    if (mine) {
      rememberToken(created.id, mine.token);
      location.href = absolute(mine.url);
    } else {
      location.href = absolute(created.spectate_url);
    }
  } catch (err) {
    toast(`Import refused: ${err.message}`);
  }
}

export async function lobbyScreen(root) {
  const list = h("div", { class: "lobby-list" }, h("p", { class: "muted" }, "Loading games…"));
  const file = h("input", { type: "file", accept: ".json,application/json", id: "import-file",
    "data-testid": "import-file" });
  const mode = h("select", { id: "import-seats", "aria-label": "Seats of the imported game" },
    h("option", { value: "hotseat" }, "all seats on this screen (hot-seat)"),
    h("option", { value: "bots" }, "me as P0, easy bots for the others"));
  replace(root,
    h("section", { class: "hero" },
      h("div", {},
        h("h1", {}, "Endeavor"),
        h("p", { class: "muted" }, "Age of Sail (2018, with Exploits and the Silent Fleet) and the 2009 game, in your browser.")),
      h("a", { class: "btn primary big", href: href("/new"), "data-testid": "new-game" }, "+ New game")),
    h("section", { class: "card-box" }, h("h2", {}, "Games"), list),
    h("section", { class: "card-box" }, h("h2", {}, "Import a record"),
      h("p", { class: "muted" }, "Continue a game from a record file (the JSON of “Download record” or `endeavor` records)."),
      h("div", { class: "row" }, h("label", { for: "import-file" }, "Record "), file,
        h("label", { for: "import-seats" }, " seats "), mode,
        h("button", { type: "button", class: "btn", "data-testid": "import",
          onclick: () => (file.files[0] ? importRecord(file.files[0], mode.value) : toast("Choose a record file first.")) },
        "Import"))));
  try {
    const { games } = await api.games();
    if (!games.length) {
      replace(list, h("p", { class: "muted" }, "No games yet: start one with “New game”."));
      return;
    }
    replace(list, h("table", { class: "games", "data-testid": "games" },
      h("thead", {}, h("tr", {}, ["Game", "Rules", "Players", "Seats", "Status", "Created", ""].map((t) => h("th", {}, t)))),
      h("tbody", {}, games.map(gameRow))));
  } catch (err) {
    replace(list, h("p", { class: "error" }, `The games cannot be listed: ${err.message}`));
  }
}
