// @ts-check
// The lobby (/): "Your games" (every game where this browser holds a seat, your-move
// games first, their count in the tab's title), the open and running games with Watch
// and Resume, New game, import.

import { botName, locale, t } from "./i18n.js";
import { api } from "./api.js";
import { setBadge } from "./alerts.js";
import { h, href, linkHref, replace, toast } from "./dom.js";
import { addToken, allHeld, dropToken, setHostToken } from "./tokens.js";
import { seatName, seatTag } from "./names.js";
import { whoami } from "./session.js";

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
    const kind = s.kind === "bot" ? botName(String(s.bot)) : s.kind === "hotseat" ? t("mat.hotseat") : t("mat.human");
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
  // a title is its creator's words: the page does not translate it
  return h("td", { class: "title-cell" }, h("b", { class: "clip", title: text, translate: "no" }, text));
}

/**
 * 1st, 2nd, 3rd, 4th...
 * @param {number} n
 */
function ordinal(n) {
  if (locale() === "fr") return n === 1 ? "1er" : `${n}e`;
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
  const head = game.ended === "host" ? t("lobby.ended_by_host") : t("lobby.over");
  const result = game.result;
  if (!result || !result.scores.length) return head;
  const n = result.scores.length;
  if (you.length === 1) {
    const mine = result.scores.find((s) => s.seat === you[0]);
    if (mine) {
      const tied = result.scores.filter((s) => s.rank === mine.rank).length > 1;
      return t(tied ? "lobby.you_tied" : "lobby.you_rank", { head, rank: ordinal(mine.rank), of: n, total: mine.total });
    }
  }
  const seats = /** @type {Partial<GameSummary>} */ (game).seats;
  const winners = result.scores.filter((s) => s.rank === 1)
    .map((s) => (seats && seats[s.seat] ? seatName(s.seat, seats) : s.name || `P${s.seat}`));
  const total = result.scores[0].total;
  if (winners.length === 1) return t("lobby.won", { head, name: winners[0], total });
  return t("lobby.tied", { head, names: winners.slice(0, -1).join(", "), last: winners[winners.length - 1], total });
}

/**
 * @param {GameSummary} game
 * @param {number[]} [you]
 */
export function statusText(game, you = []) {
  if (game.status === "over") return resultText(game, you);
  if (game.ended === "host") return t("lobby.ended_by_host");
  if (game.current_player === null || game.current_player === undefined) return t(`lobby.status_${game.status}`);
  const seat = game.seats[game.current_player];
  const bot = seat && (seat.played_by || (seat.kind === "bot" ? seat.bot : null));
  return [rowSeat(game, game.current_player), bot && seat.kind !== "bot" ? t("lobby.bot_to_move", { bot }) : t("lobby.to_move")];
}

/**
 * @param {GameSummary} game
 * @param {string | undefined} resume this browser's seat token for it, if any
 */
function gameRow(game, resume) {
  const status = game.status === "over" ? resultText(game)
    : game.current_player !== null && game.current_player !== undefined
      ? [t("lobby.status_dot", { status: t(`lobby.status_${game.status}`) }), rowSeat(game, game.current_player), t("lobby.to_move")]
      : t(`lobby.status_${game.status}`);
  return h("tr", { "data-testid": "game-row", "data-id": game.id },
    titleCell(game),
    h("td", { class: "wide" }, game.ruleset === "classic" ? "2009" : "Age of Sail"),
    h("td", { class: "wide" }, String(game.players)),
    h("td", { class: "muted wide" }, seatsText(game)),
    h("td", {}, h("span", { class: `status ${game.status}` }, status)),
    h("td", { class: "muted wide" }, new Date(game.created).toLocaleString(locale() === "en" ? undefined : locale())),
    h("td", { class: "links" },
      resume ? h("a", { class: `btn small${game.status === "over" ? "" : " primary"}`, href: playHref(game.id, resume),
        "data-testid": "resume" }, game.status === "over" ? t("lobby.open") : t("lobby.resume")) : null,
      h("a", { class: "btn small", href: linkHref(game.spectate_url), "data-testid": "spectate" }, t("lobby.watch")),
      game.status === "over" ? h("a", { class: "btn small", href: href(`/replay/${encodeURIComponent(game.id)}`) }, t("head.replay")) : null));
}

/** @param {MineItem} item */
function mineRow(item) {
  const game = item.game;
  const seats = [...item.you.map((p) => rowSeat(game, p)),
    ...(item.benched || []).map((p) => [rowSeat(game, p), t("lobby.benched")])];
  const you = seats.flatMap((x, i) => (i ? [", ", x] : [x]));
  const pill = item.your_move ? h("span", { class: "status yours", "data-testid": "your-move" }, t("lobby.your_move"))
    : h("span", { class: `status ${game.status}`, "data-testid": "mine-status" }, statusText(game, item.you));
  return h("tr", { "data-testid": "mine-row", "data-id": item.id, class: item.your_move ? "your-move" : null },
    titleCell(game),
    h("td", { class: "nowrap" }, t("name.you_tag"), you),
    h("td", {}, pill),
    h("td", { class: "links" },
      h("a", { class: `btn small${item.your_move ? " primary" : ""}`, href: playHref(item.id, item.token), "data-testid": "open-mine" },
        game.status === "over" ? t("lobby.open") : item.your_move ? t("lobby.play") : t("lobby.open")),
      h("a", { class: "btn small", href: linkHref(game.spectate_url) }, t("lobby.watch"))));
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
    replace(list, h("p", { class: "error" }, t("lobby.mine_error", { error: err instanceof Error ? err.message : String(err) })));
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
      mineFilter === "over" ? t("lobby.none_finished") : t("lobby.none_running")) : null,
    rows.length ? h("table", { class: "games mine", "data-testid": "mine" },
      h("tbody", {}, rows.map(mineRow))) : null,
    gone.length ? h("p", { class: "muted" },
      t("lobby.gone", { n: gone.length }),
      h("button", { type: "button", class: "btn small", onclick: () => { gone.forEach((g) => dropToken(g.id, g.token)); yourGames(box); } }, t("lobby.forget"))) : null);
  /** @type {HTMLElement} */ (box.querySelector(".mine-count")).textContent = count ? t("lobby.waiting", { n: count }) : "";
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
    toast(t("lobby.not_json"));
    return;
  }
  const players = record && record.config && record.config.players;
  if (!Number.isInteger(players)) {
    toast(t("lobby.not_record"));
    return;
  }
  const seats = seatsMode === "hotseat" ? Array(players).fill("hotseat")
    : ["human", ...Array(players - 1).fill(`bot:${bot}`)];
  try {
    const created = await api.importRecord({ record, seats, title: t("lobby.imported_title", { name: file.name }).slice(0, 200) });
    if (created.host_token) setHostToken(created.id, created.host_token);
    const mine = created.seats.find((s) => s.token);
    if (mine && mine.token) {
      addToken(created.id, mine.token); // just issued by the server
      location.href = linkHref(mine.url);
    } else {
      location.href = linkHref(created.spectate_url);
    }
  } catch (err) {
    toast(t("lobby.import_refused", { error: err instanceof Error ? err.message : String(err) }));
  }
}

/** @param {HTMLElement} root */
export async function lobbyScreen(root) {
  document.title = "Endeavor";
  const list = h("div", { class: "lobby-list" }, h("p", { class: "muted" }, t("lobby.loading_games")));
  const mineBox = h("section", { class: "card-box your-games", "data-testid": "your-games", hidden: true },
    h("div", { class: "mine-head" },
      h("h2", {}, t("lobby.your_games"), h("span", { class: "muted mine-count" })),
      h("div", { class: "mine-filter", role: "group", "aria-label": t("lobby.which") },
        /** @type {["" | "running" | "over", string][]} */ ([["", t("lobby.all")], ["running", t("lobby.running")], ["over", t("lobby.finished")]]).map(([value, text]) =>
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
    h("div", { class: "mine-list" }, h("p", { class: "muted" }, t("common.loading"))));
  const file = h("input", { type: "file", accept: ".json,application/json", id: "import-file",
    "data-testid": "import-file" });
  const mode = h("select", { id: "import-seats", "aria-label": t("lobby.import_seats_label"), "data-testid": "import-seats" },
    h("option", { value: "hotseat" }, t("lobby.import_hotseat")),
    h("option", { value: "bots" }, t("lobby.import_bots")));
  const bot = h("select", { id: "import-bot", "aria-label": t("lobby.import_bot_label"), "data-testid": "import-bot" },
    h("option", { value: "easy" }, "easy"));
  const botLabel = h("label", { for: "import-bot" }, t("lobby.bots"));
  const showBot = () => { bot.hidden = botLabel.hidden = mode.value !== "bots"; };
  mode.addEventListener("change", showBot);
  showBot();
  // signed in: the account's games, on every device
  const accountGamesLink = h("a", { class: "btn big", href: href("/account/games"), "data-testid": "account-games-link", hidden: true },
    t("lobby.account_games"));
  whoami().then((me) => { accountGamesLink.hidden = !me; });
  replace(root,
    h("section", { class: "hero" },
      h("div", {},
        h("h1", {}, "Endeavor"),
        h("p", { class: "muted" }, t("lobby.tagline"))),
      h("div", { class: "row hero-links" }, accountGamesLink,
        h("a", { class: "btn primary big", href: href("/new"), "data-testid": "new-game" }, t("lobby.new_game")))),
    mineBox,
    h("section", { class: "card-box" }, h("h2", {}, t("lobby.games")), list),
    h("section", { class: "card-box" }, h("h2", {}, t("lobby.import_heading")),
      h("p", { class: "muted" }, t("lobby.import_text")),
      h("div", { class: "row" }, h("label", { for: "import-file" }, t("lobby.record")), file,
        h("label", { for: "import-seats" }, t("lobby.seats")), mode, botLabel, bot,
        h("button", { type: "button", class: "btn", "data-testid": "import",
          onclick: () => (file.files && file.files[0] ? importRecord(file.files[0], mode.value, bot.value) : toast(t("lobby.choose_file"))) },
        t("lobby.import")))));
  api.meta().then((meta) => {
    replace(bot, meta.bots.map((/** @type {string} */ b) => h("option", { value: b }, meta.quick_bots.includes(b) ? botName(b) : t("lobby.slow_bot", { bot: b }))));
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
      replace(list, h("p", { class: "muted" }, t("lobby.no_games")));
      return;
    }
    replace(list, h("table", { class: "games", "data-testid": "games" },
      h("thead", {}, h("tr", {}, ["game", "rules", "players", "seats", "status", "created"].map((k) => t(`lobby.col_${k}`)).concat([""]).map((c, i) =>
        h("th", { class: [1, 2, 3, 5].includes(i) ? "wide" : null }, c)))),
      h("tbody", {}, games.map((/** @type {GameSummary} */ g) => gameRow(g, working[g.id])))));
  } catch (err) {
    replace(list, h("p", { class: "error" }, t("lobby.games_error", { error: err instanceof Error ? err.message : String(err) })));
  }
}
