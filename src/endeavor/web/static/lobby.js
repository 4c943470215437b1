// @ts-check
// The lobby (/): "Your games" (every game where this browser holds a seat, your-move
// games first, their count in the tab's title), the open and running games with Watch
// and Resume, New game, import.

import { api } from "./api.js";
import { setBadge } from "./alerts.js";
import { h, href, linkHref, replace, toast } from "./dom.js";
import { addToken, allHeld, dropToken, setHostToken } from "./tokens.js";
import { seatTag } from "./names.js";

/** How often "Your games" is looked at again while the lobby is open (ms). */
const MINE_EVERY = 15000;
/**
 * A game as the lobby lists it (GET /api/games; an item of POST /api/games/mine).
 * @typedef {import("./types.js").Seat & { seat: number, bot?: string | null }} LobbySeat
 * @typedef {{ id: string, title?: string | null, ruleset: string, players: number, seats: LobbySeat[],
 *   status: string, ended?: string | null, current_player?: number | null, created: string,
 *   spectate_url: string, result?: { scores: { seat: number, rank: number, total: number,
 *   name?: string | null }[] } | null }} GameSummary
 * @typedef {{ id: string, token: string, found?: boolean, valid?: boolean, game: GameSummary,
 *   you: number[], benched?: number[], your_move?: boolean }} MineItem one of this browser's seats
 */

/** @type {"" | "running" | "over"} which of "Your games" are listed: all, the running or the finished */
let mineFilter = "";

/** @param {GameSummary} game */
function seatsText(game) {
  return game.seats.map((s) => {
    const kind = s.kind === "bot" ? s.bot : s.kind === "hotseat" ? "hot-seat" : "human";
    return s.name && s.name !== `P${s.seat}` && !(s.kind === "bot" && s.name.toLowerCase().startsWith(s.bot || ""))
      ? `${s.name} (${kind})` : kind;
  }).join(", ");
}

/**
 * Seat `p` of a lobby row: its chip and name.
 * @param {GameSummary} game
 * @param {number} p
 */
function rowSeat(game, p) {
  return seatTag(p, game.seats);
}

/**
 * @param {string} id
 * @param {string} token
 */
function playHref(id, token) {
  return href(`/play/${encodeURIComponent(id)}#${encodeURIComponent(token)}`);
}

/**
 * A title cut to one line (the whole of it in the tooltip).
 * @param {GameSummary} game
 */
function titleCell(game) {
  const text = game.title || game.id;
  return h("td", { class: "title-cell" }, h("b", { class: "clip", title: text }, text));
}

/**
 * 1st, 2nd, 3rd, 4th...
 * @param {number} n
 */
function ordinal(n) {
  const tens = n % 100;
  /** @type {Record<number, string>} */
  const ends = { 1: "st", 2: "nd", 3: "rd" };
  const suffix = tens >= 11 && tens <= 13 ? "th" : ends[n % 10] || "th";
  return `${n}${suffix}`;
}

/**
 * A finished game's result in a few words: "over · you 3rd of 4 (62)", "you tied for 1st", for a game where
 * `you` is one seat, else "over · Ann won (71)" (or "Ann and Bo tied (71)").
 * @param {Pick<GameSummary, "ended" | "result">} game
 * @param {number[]} [you]
 */
export function resultText(game, you = []) {
  const head = game.ended === "host" ? "ended by the host" : "over";
  const result = game.result;
  if (!result || !result.scores.length) return head;
  const n = result.scores.length;
  if (you.length === 1) {
    const mine = result.scores.find((s) => s.seat === you[0]);
    if (mine) {
      const tied = result.scores.filter((s) => s.rank === mine.rank).length > 1;
      return `${head} · you ${tied ? "tied for " : ""}${ordinal(mine.rank)} of ${n} (${mine.total})`;
    }
  }
  const winners = result.scores.filter((s) => s.rank === 1).map((s) => s.name || `P${s.seat}`);
  const total = result.scores[0].total;
  if (winners.length === 1) return `${head} · ${winners[0]} won (${total})`;
  return `${head} · ${winners.slice(0, -1).join(", ")} and ${winners[winners.length - 1]} tied (${total})`;
}

/**
 * @param {GameSummary} game
 * @param {number[]} [you]
 */
function statusText(game, you = []) {
  if (game.status === "over") return resultText(game, you);
  if (game.ended === "host") return "ended by the host";
  if (game.current_player === null || game.current_player === undefined) return game.status;
  const seat = game.seats[game.current_player];
  const bot = seat && (seat.played_by || (seat.kind === "bot" ? seat.bot : null));
  return [rowSeat(game, game.current_player), `${bot && seat.kind !== "bot" ? ` (${bot} bot)` : ""} to move`];
}

/**
 * @param {GameSummary} game
 * @param {string | undefined} resume this browser's seat token for it, if any
 */
function gameRow(game, resume) {
  const status = game.status === "over" ? resultText(game)
    : game.current_player !== null && game.current_player !== undefined ? [`${game.status} · `, rowSeat(game, game.current_player), " to move"] : game.status;
  return h("tr", { "data-testid": "game-row", "data-id": game.id },
    titleCell(game),
    h("td", { class: "wide" }, game.ruleset === "classic" ? "2009" : "Age of Sail"),
    h("td", { class: "wide" }, String(game.players)),
    h("td", { class: "muted wide" }, seatsText(game)),
    h("td", {}, h("span", { class: `status ${game.status}` }, status)),
    h("td", { class: "muted wide" }, new Date(game.created).toLocaleString()),
    h("td", { class: "links" },
      resume ? h("a", { class: `btn small${game.status === "over" ? "" : " primary"}`, href: playHref(game.id, resume),
        "data-testid": "resume" }, game.status === "over" ? "Open" : "Resume") : null,
      h("a", { class: "btn small", href: linkHref(game.spectate_url), "data-testid": "spectate" }, "Watch"),
      game.status === "over" ? h("a", { class: "btn small", href: href(`/replay/${encodeURIComponent(game.id)}`) }, "Replay") : null));
}

/** @param {MineItem} item */
function mineRow(item) {
  const game = item.game;
  const seats = [...item.you.map((p) => rowSeat(game, p)),
    ...(item.benched || []).map((p) => [rowSeat(game, p), " (the host gave it to a bot)"])];
  const you = seats.flatMap((x, i) => (i ? [", ", x] : [x]));
  const pill = item.your_move ? h("span", { class: "status yours", "data-testid": "your-move" }, "▶ Your move")
    : h("span", { class: `status ${game.status}`, "data-testid": "mine-status" }, statusText(game, item.you));
  return h("tr", { "data-testid": "mine-row", "data-id": item.id, class: item.your_move ? "your-move" : null },
    titleCell(game),
    h("td", { class: "nowrap" }, "you: ", you),
    h("td", {}, pill),
    h("td", { class: "links" },
      h("a", { class: `btn small${item.your_move ? " primary" : ""}`, href: playHref(item.id, item.token), "data-testid": "open-mine" },
        game.status === "over" ? "Open" : item.your_move ? "Play" : "Open"),
      h("a", { class: "btn small", href: linkHref(game.spectate_url) }, "Watch")));
}

/**
 * Ask the server about every (game, token) pair this browser holds. The answer's items
 * name their game but not their token, so each request holds a game at most once (a
 * browser holding two seats of a game asks twice); then your-move games first, newest
 * first. Returns items with their `token`.
 * @param {{ id: string, token: string }[]} held
 * @param {"" | "running" | "over"} [status] "": every game
 */
async function checkHeld(held, status = "") {
  /** @type {{ id: string, token: string }[][]} */
  const rounds = [];
  for (const pair of held) {
    let round = rounds.find((r) => r.length < 200 && !r.some((x) => x.id === pair.id));
    if (!round) {
      round = [];
      rounds.push(round);
    }
    round.push(pair);
  }
  /** @type {MineItem[]} */
  const out = [];
  for (const round of rounds) {
    const answer = await api.mine(round, status || undefined);
    for (const item of answer.games) {
      const pair = round.find((x) => x.id === item.id);
      if (pair) out.push({ ...item, token: pair.token });
    }
  }
  const created = (/** @type {MineItem} */ item) => (item.game ? Date.parse(item.game.created) : 0);
  out.sort((a, b) => (Number(b.your_move || 0) - Number(a.your_move || 0)) || (created(b) - created(a)));
  return out;
}

/**
 * "Your games": checks this browser's tokens with the server; returns {id: token} that work.
 * @param {HTMLElement} box
 * @returns {Promise<Record<string, string>>}
 */
async function yourGames(box) {
  const list = /** @type {HTMLElement} */ (box.querySelector(".mine-list"));
  const held = allHeld();
  if (!held.length) {
    box.hidden = true;
    document.title = "Endeavor";
    setBadge(false);
    return {};
  }
  let items;
  try {
    items = await checkHeld(held, mineFilter);
  } catch (err) {
    box.hidden = false;
    replace(list, h("p", { class: "error" }, `Your games cannot be listed: ${err instanceof Error ? err.message : String(err)}`));
    return {};
  }
  /** @type {MineItem[]} */
  const rows = [];
  /** @type {MineItem[]} */
  const gone = [];
  /** @type {Record<string, string>} */
  const working = {};
  for (const item of items) {
    if (item.found && item.valid) {
      rows.push(item);
      if (!working[item.id]) working[item.id] = item.token;
    } else if (item.found) {
      dropToken(item.id, item.token); // re-issued, or never a seat: it cannot work again
    } else {
      gone.push(item);
    }
  }
  const count = rows.filter((r) => r.your_move).length;
  document.title = count ? `(${count}) Endeavor` : "Endeavor";
  setBadge(count > 0);
  box.hidden = !rows.length && !gone.length && !mineFilter;
  replace(list,
    !rows.length && mineFilter ? h("p", { class: "muted", "data-testid": "mine-none" },
      mineFilter === "over" ? "None of your games is finished." : "None of your games is running.") : null,
    rows.length ? h("table", { class: "games mine", "data-testid": "mine" },
      h("tbody", {}, rows.map(mineRow))) : null,
    gone.length ? h("p", { class: "muted" },
      `${gone.length === 1 ? "A game" : `${gone.length} games`} where this browser held a seat ${gone.length === 1 ? "is" : "are"} no longer on this server. `,
      h("button", { type: "button", class: "btn small", onclick: () => { gone.forEach((g) => dropToken(g.id, g.token)); yourGames(box); } }, "Forget")) : null);
  /** @type {HTMLElement} */ (box.querySelector(".mine-count")).textContent = count ? ` · ${count} waiting for you` : "";
  if (!mineFilter) return working;
  // the games table's Resume/Open buttons need every seat, not only the filtered ones
  /** @type {Record<string, string>} */
  const all = {};
  try {
    for (const item of await checkHeld(held)) if (item.found && item.valid && !all[item.id]) all[item.id] = item.token;
  } catch { /* the filtered ones, then */ }
  return { ...working, ...all };
}

/**
 * @param {File} file
 * @param {string} seatsMode "hotseat", or "bots" (the others' seats)
 * @param {string} bot
 */
async function importRecord(file, seatsMode, bot) {
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch {
    toast("That file is not JSON: choose a record saved from a game (its “Record” button).");
    return;
  }
  const players = record && record.config && record.config.players;
  if (!Number.isInteger(players)) {
    toast("That file is not an Endeavor record (it says nothing of the players).");
    return;
  }
  const seats = seatsMode === "hotseat" ? Array(players).fill("hotseat")
    : ["human", ...Array(players - 1).fill(`bot:${bot}`)];
  try {
    const created = await api.importRecord({ record, seats, title: `Imported ${file.name}`.slice(0, 200) });
    if (created.host_token) setHostToken(created.id, created.host_token);
    const mine = created.seats.find((s) => s.token);
    if (mine && mine.token) {
      addToken(created.id, mine.token); // just issued by the server
      location.href = linkHref(mine.url);
    } else {
      location.href = linkHref(created.spectate_url);
    }
  } catch (err) {
    toast(`Import refused: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** @param {HTMLElement} root */
export async function lobbyScreen(root) {
  document.title = "Endeavor";
  const list = h("div", { class: "lobby-list" }, h("p", { class: "muted" }, "Loading games…"));
  const mineBox = h("section", { class: "card-box your-games", "data-testid": "your-games", hidden: true },
    h("div", { class: "mine-head" },
      h("h2", {}, "Your games", h("span", { class: "muted mine-count" })),
      h("div", { class: "mine-filter", role: "group", "aria-label": "Which of your games" },
        /** @type {["" | "running" | "over", string][]} */ ([["", "All"], ["running", "Running"], ["over", "Finished"]]).map(([value, text]) =>
          h("button", { type: "button", class: `btn small${value === mineFilter ? " on" : ""}`,
            "aria-pressed": value === mineFilter ? "true" : "false", "data-testid": `mine-filter-${value || "all"}`,
            "data-value": value,
            onclick: (/** @type {MouseEvent} */ event) => {
              mineFilter = value;
              const group = /** @type {HTMLElement} */ (/** @type {HTMLElement} */ (event.currentTarget).parentNode);
              for (const b of /** @type {HTMLCollectionOf<HTMLElement>} */ (group.children)) {
                const on = b.dataset.value === mineFilter;
                b.classList.toggle("on", on);
                b.setAttribute("aria-pressed", on ? "true" : "false");
              }
              yourGames(mineBox);
            } }, text)))),
    h("div", { class: "mine-list" }, h("p", { class: "muted" }, "Loading…")));
  const file = h("input", { type: "file", accept: ".json,application/json", id: "import-file",
    "data-testid": "import-file" });
  const mode = h("select", { id: "import-seats", "aria-label": "Seats of the imported game", "data-testid": "import-seats" },
    h("option", { value: "hotseat" }, "all seats on this screen (hot-seat)"),
    h("option", { value: "bots" }, "me as P0, bots for the others"));
  const bot = h("select", { id: "import-bot", "aria-label": "The other seats' bot", "data-testid": "import-bot" },
    h("option", { value: "easy" }, "easy"));
  const botLabel = h("label", { for: "import-bot" }, " bots ");
  const showBot = () => { bot.hidden = botLabel.hidden = mode.value !== "bots"; };
  mode.addEventListener("change", showBot);
  showBot();
  replace(root,
    h("section", { class: "hero" },
      h("div", {},
        h("h1", {}, "Endeavor"),
        h("p", { class: "muted" }, "Age of Sail (2018, with Exploits and the Silent Fleet) and the 2009 game, in your browser.")),
      h("a", { class: "btn primary big", href: href("/new"), "data-testid": "new-game" }, "+ New game")),
    mineBox,
    h("section", { class: "card-box" }, h("h2", {}, "Games"), list),
    h("section", { class: "card-box" }, h("h2", {}, "Import a record"),
      h("p", { class: "muted" }, "Continue a game from a record file (what a game's “Record” button saves, or a record of the endeavor command)."),
      h("div", { class: "row" }, h("label", { for: "import-file" }, "Record "), file,
        h("label", { for: "import-seats" }, " seats "), mode, botLabel, bot,
        h("button", { type: "button", class: "btn", "data-testid": "import",
          onclick: () => (file.files && file.files[0] ? importRecord(file.files[0], mode.value, bot.value) : toast("Choose a record file first.")) },
        "Import"))));
  api.meta().then((meta) => {
    replace(bot, meta.bots.map((/** @type {string} */ b) => h("option", { value: b }, `${b}${meta.quick_bots.includes(b) ? "" : " (slow)"}`)));
    bot.value = meta.bots.includes("easy") ? "easy" : meta.bots[0];
  }).catch(() => { /* easy it is */ });

  let working = await yourGames(mineBox);
  const again = setInterval(async () => {
    if (!document.body.contains(mineBox)) {
      clearInterval(again);
      return;
    }
    if (!document.hidden) working = await yourGames(mineBox);
  }, MINE_EVERY);
  try {
    const { games } = await api.games();
    if (!games.length) {
      replace(list, h("p", { class: "muted" }, "No games yet: start one with “New game”."));
      return;
    }
    replace(list, h("table", { class: "games", "data-testid": "games" },
      h("thead", {}, h("tr", {}, ["Game", "Rules", "Players", "Seats", "Status", "Created", ""].map((t, i) =>
        h("th", { class: [1, 2, 3, 5].includes(i) ? "wide" : null }, t)))),
      h("tbody", {}, games.map((/** @type {GameSummary} */ g) => gameRow(g, working[g.id])))));
  } catch (err) {
    replace(list, h("p", { class: "error" }, `The games cannot be listed: ${err instanceof Error ? err.message : String(err)}`));
  }
}
