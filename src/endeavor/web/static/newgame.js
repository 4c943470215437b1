// New game (/new): ruleset, players, board side, Exploits, Silent Fleet and its options,
// phase order, seed; each seat you / invited human / hot-seat / bot. Then the links.

import { api, rememberToken } from "./api.js";
import { h, href, replace, toast, copyText } from "./dom.js";

const OPTION_WORDS = {
  limited_occupation: "Limited occupation (the fleet occupies only where it has presence)",
  no_token_reaction: "No token reaction (the fleet ignores Trade-token actions)",
  building_shortage: "Building shortage (a building leaves the supply each round)",
  discard_pile_bonus: "Discard-pile bonus (value-1 cards from the pile give a disc)",
  plus_same_region: "“+” buildings: second action in the same region (house rule)",
};

function labelled(text, control, hint) {
  return h("label", { class: "field" }, h("span", { class: "field-label" }, text), control,
    hint ? h("span", { class: "hint" }, hint) : null);
}

export async function newGameScreen(root) {
  let meta;
  try {
    meta = await api.meta();
  } catch (err) {
    replace(root, h("p", { class: "error" }, `The server's options cannot be read: ${err.message}`));
    return;
  }
  const form = h("form", { class: "card-box newgame", "data-testid": "new-game-form" });
  const result = h("div", {});
  replace(root, h("a", { href: href("/"), class: "back" }, "← Lobby"), h("h1", {}, "New game"), form, result);

  const ruleset = h("select", { name: "ruleset", "data-testid": "ruleset" },
    meta.rulesets.map((r) => h("option", { value: r.id }, r.title || r.id)));
  const players = h("select", { name: "players", "data-testid": "players" });
  const board = h("select", { name: "board", "data-testid": "board" });
  const phaseOrder = h("select", { name: "phase_order", "data-testid": "phase-order" });
  const seed = h("input", { type: "number", name: "seed", min: 0, value: Math.floor(Math.random() * 100000), "data-testid": "seed" });
  const titleInput = h("input", { type: "text", name: "title", maxlength: 200, placeholder: "optional", "data-testid": "title" });
  const exploitMode = h("select", { name: "exploits", "data-testid": "exploits" },
    h("option", { value: "none" }, "none"), h("option", { value: "random" }, "3 at random"),
    h("option", { value: "chosen" }, "chosen below"));
  const exploitChecks = h("div", { class: "checks exploit-list" }, meta.exploits.map((e) => h("label", {},
    h("input", { type: "checkbox", name: "exploit", value: e.id }), ` ${e.name}`)));
  const fleet = h("input", { type: "checkbox", name: "silent_fleet", "data-testid": "silent-fleet" });
  const optionsBox = h("div", { class: "checks" });
  const seatsBox = h("div", { class: "seats", "data-testid": "seats" });
  const exploitField = labelled("Exploits", exploitMode);

  const currentRuleset = () => meta.rulesets.find((r) => r.id === ruleset.value) || meta.rulesets[0];

  function seatSelect(i, previous) {
    const select = h("select", { "data-testid": `seat-${i}`, "aria-label": `Seat P${i}` },
      h("option", { value: "you" }, "You"),
      h("option", { value: "human" }, "Invited human (own link)"),
      h("option", { value: "hotseat" }, "Hot-seat (this screen)"),
      meta.bots.map((b) => h("option", { value: `bot:${b}` }, `Bot: ${b}${meta.quick_bots.includes(b) ? "" : " (slow)"}`)));
    const fallback = i === 0 ? "you" : `bot:${meta.quick_bots.includes("easy") ? "easy" : meta.bots[0]}`;
    select.value = previous || fallback;
    return select;
  }

  function refreshFields() {
    const r = currentRuleset();
    const oldPlayers = Number(players.value) || (r.players.includes(3) ? 3 : r.players[0]);
    replace(players, r.players.map((n) => h("option", { value: n }, String(n))));
    players.value = String(r.players.includes(oldPlayers) ? oldPlayers : r.players[0]);
    replace(board, h("option", { value: "" }, "default for the player count"),
      r.boards.map((b) => h("option", { value: b }, b === "classic" ? "2009 board" : `side ${b}`)));
    replace(phaseOrder, r.phase_orders.map((p) => h("option", { value: p },
      p === "by_phase" ? "phase by phase" : p === "by_player" ? "player by player" : p)));
    refreshOptions();
  }

  function refreshOptions() {
    const r = currentRuleset();
    const n = Number(players.value);
    const aos = r.id !== "classic";
    exploitField.hidden = !aos;
    exploitChecks.hidden = !aos || exploitMode.value !== "chosen";
    const fleetPossible = aos && n === 2 && "silent_fleet" in (r.options || {});
    fleet.disabled = !fleetPossible;
    if (!fleetPossible) fleet.checked = false;
    const rows = [];
    for (const [name, spec] of Object.entries(r.options || {})) {
      if (name === "phase_order" || name === "silent_fleet") continue;
      const fleetOnly = ["limited_occupation", "no_token_reaction", "building_shortage"].includes(name);
      if (fleetOnly && !fleet.checked) continue;
      const box = h("input", { type: "checkbox", name, "data-testid": `option-${name}` });
      box.checked = spec.default === true;
      rows.push(h("label", {}, box, ` ${OPTION_WORDS[name] || name}`));
    }
    replace(optionsBox, rows);
    const previous = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    replace(seatsBox, Array.from({ length: n }, (_, i) => h("div", { class: "seat-row" },
      h("span", { class: `swatch s${i}` }), h("b", {}, `P${i}`), seatSelect(i, previous[i]))));
  }

  ruleset.addEventListener("change", refreshFields);
  players.addEventListener("change", refreshOptions);
  fleet.addEventListener("change", refreshOptions);
  exploitMode.addEventListener("change", refreshOptions);

  replace(form,
    h("div", { class: "grid2" },
      labelled("Rules", ruleset),
      labelled("Players", players),
      labelled("Board", board),
      labelled("Phase order", phaseOrder),
      exploitField,
      labelled("Seed", seed, "the setup's shuffle"),
      labelled("Title", titleInput)),
    exploitChecks,
    h("label", { class: "field inline" }, fleet, " Silent Fleet (2 players, Age of Sail: a neutral third fleet)"),
    optionsBox,
    h("h3", {}, "Seats"),
    seatsBox,
    h("button", { type: "submit", class: "btn primary big", "data-testid": "create" }, "Create game"));
  refreshFields();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const r = currentRuleset();
    const options = { phase_order: phaseOrder.value };
    if (fleet.checked) options.silent_fleet = true;
    for (const box of optionsBox.querySelectorAll("input[type=checkbox]")) options[box.name] = box.checked;
    const config = { players: Number(players.value), ruleset: r.id, seed: Number(seed.value) || 0, options };
    if (board.value) config.board = board.value;
    if (r.id !== "classic") {
      if (exploitMode.value === "random") config.exploits = "random";
      else if (exploitMode.value === "chosen") {
        config.exploits = [...exploitChecks.querySelectorAll("input:checked")].map((c) => c.value);
      }
    }
    const choices = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    const seats = choices.map((c) => (c === "you" ? "human" : c));
    const body = { config, seats };
    if (titleInput.value.trim()) body.title = titleInput.value.trim();
    const submit = form.querySelector("button[type=submit]");
    submit.disabled = true;
    try {
      const created = await api.create(body);
      showCreated(result, created, choices);
      form.hidden = true;
    } catch (err) {
      toast(`The game cannot be created: ${err.message}`);
    } finally {
      submit.disabled = false;
    }
  });
}

/** A link the server gave, absolute (it is a path of the app unless the server has a
 * public address). */
function absolute(url) {
  return /^https?:/.test(url) ? url : new URL(href(url), location.origin).href;
}

function linkRow(label, url, testid) {
  const full = absolute(url);
  return h("div", { class: "link-row" }, h("span", { class: "field-label" }, label),
    h("input", { type: "text", readonly: true, value: full, "data-testid": testid, "aria-label": label }),
    h("button", { type: "button", class: "btn small", onclick: () => copyText(full) }, "Copy"));
}

function showCreated(box, created, choices) {
  const rows = [];
  let mine = null;
  const hotseats = created.seats.filter((s) => s.kind === "hotseat");
  created.seats.forEach((seat, i) => {
    if (!seat.token) return;
    if (choices[i] === "you") mine = seat;
    if (seat.kind === "human") {
      rows.push(linkRow(choices[i] === "you" ? `P${seat.seat} (you)` : `P${seat.seat} (invite)`, seat.url, `link-${seat.seat}`));
    }
  });
  if (hotseats.length) {
    if (!mine) mine = hotseats[0];
    rows.push(linkRow(`Hot-seat ${hotseats.map((s) => `P${s.seat}`).join(", ")}`, hotseats[0].url, "link-hotseat"));
  }
  if (mine) rememberToken(created.id, mine.token);
  rows.push(linkRow("Spectators", created.spectate_url, "link-spectate"));
  replace(box, h("section", { class: "card-box created", "data-testid": "created" },
    h("h2", {}, "Game created"),
    h("p", { class: "muted" }, "Each link is a seat's secret: send the invitations to the other players."),
    rows,
    h("div", { class: "row" },
      mine ? h("a", { class: "btn primary big", href: absolute(mine.url), "data-testid": "open-seat" }, "Open my seat →") : null,
      h("a", { class: "btn", href: absolute(created.spectate_url) }, "Watch"),
      h("a", { class: "btn", href: href("/") }, "Lobby"))));
}
