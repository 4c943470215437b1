// @ts-check
// New game (/new): ruleset, players, board side, Exploits, Silent Fleet and its options,
// phase order, seed (folded away under More options); each seat you / invited human /
// hot-seat / bot, with quick choices (play with friends: the other seats invited; against
// bots; all on this screen); a clock and what happens when time runs out. Then the links:
// every seat's, with a ready-to-send invitation (Copy, and Share where the browser has a
// share sheet), and the host's (kept in this browser too).

import { t } from "./i18n.js";
import { api } from "./api.js";
import { amount } from "./clock.js";
import { h, href, replace, toast, copyText, fullUrl, linkHref } from "./dom.js";
import { inviteBox, inviteText } from "./invite.js";
import { ratedChoice } from "./ratings.js";
import { addToken, setHostToken } from "./tokens.js";
import { lastName, MAX_NAME, rememberName, seatChip } from "./names.js";

/**
 * GET /api/meta: what the server offers.
 * @typedef {{ id: string, title?: string, players: number[], boards: string[], phase_orders: string[],
 *   options?: Record<string, { default?: unknown }> }} MetaRuleset
 * @typedef {{ id: string, name: string, regions?: string[], rule?: string, paragraphs?: string[],
 *   shield?: string }} MetaExploit
 * @typedef {{ rulesets: MetaRuleset[], exploits: MetaExploit[], bots: string[], quick_bots: string[],
 *   default_timeout_bot?: string | null }} Meta
 * @typedef {{ kind: string, bank: number, per_decision: number }} ClockPreset
 * @typedef {ClockPreset & { on_timeout: string, bot: string, reclaim: boolean }} ClockChoice
 * @typedef {{ seat: number, kind: string, token?: string | null, url: string }} CreatedSeat
 * @typedef {{ id: string, seats: CreatedSeat[], host_token?: string | null, host_url?: string | null,
 *   spectate_url: string }} Created POST /api/games
 */

/** @type {[string, string, ClockPreset | null][]} the clocks offered: [value, words, the clock] */
const CLOCKS = [
  ["none", "no clock", null],
  ["live", "live: 20 min each + 20 s per decision", { kind: "live", bank: 1200, per_decision: 20 }],
  ["day", "turn-based: 24 h per decision", { kind: "turn", bank: 0, per_decision: 86400 }],
  ["days", "turn-based: 3 days each + 12 h per decision", { kind: "turn", bank: 259200, per_decision: 43200 }],
  ["custom", "custom…", null],
];
const UNITS = [[1, "seconds"], [60, "minutes"], [3600, "hours"], [86400, "days"]];

/** @type {Record<string, string>} the Silent Fleet's optional rules (and a house rule), in words */
export const OPTION_WORDS = {
  limited_occupation: "Limited occupation (the fleet occupies only in the region you just occupied)",
  no_token_reaction: "No token reaction (the fleet ignores Trade-token actions)",
  building_shortage: "Building shortage (a building leaves the supply each round)",
  discard_pile_bonus: "Discard-pile bonus (value-1 cards from the pile give a disc)",
  plus_same_region: "“+” buildings: second action in the same region (house rule)",
};

/**
 * An optional rule in the page's language (English: OPTION_WORDS).
 * @param {string} name
 */
function optionWords(name) {
  const key = `newgame.option_${name}`;
  const words = t(key);
  return words === key ? OPTION_WORDS[name] || name : words;
}

/**
 * @param {string} text
 * @param {Element} control
 * @param {import("./types.js").Child} [hint]
 */
function labelled(text, control, hint) {
  return h("label", { class: "field" }, h("span", { class: "field-label" }, text), control,
    hint ? h("span", { class: "hint" }, hint) : null);
}

/** @param {HTMLElement} root */
export async function newGameScreen(root) {
  /** @type {Meta} */
  let meta;
  try {
    meta = await api.meta();
  } catch (err) {
    replace(root, h("p", { class: "error" }, t("newgame.meta_error", { error: err instanceof Error ? err.message : String(err) })));
    return;
  }
  const form = h("form", { class: "card-box newgame", "data-testid": "new-game-form" });
  const result = h("div", {});
  replace(root, h("a", { href: href("/"), class: "back" }, t("newgame.back")), h("h1", {}, t("common.new_game")), form, result);

  const ruleset = h("select", { name: "ruleset", "data-testid": "ruleset" },
    meta.rulesets.map((r) => h("option", { value: r.id }, r.title || r.id)));
  const players = h("select", { name: "players", "data-testid": "players" });
  const board = h("select", { name: "board", "data-testid": "board" });
  const phaseOrder = h("select", { name: "phase_order", "data-testid": "phase-order" });
  const seed = h("input", { type: "number", name: "seed", min: 0, value: Math.floor(Math.random() * 100000), "data-testid": "seed" });
  const titleInput = h("input", { type: "text", name: "title", maxlength: 200, placeholder: t("newgame.optional"), "data-testid": "title" });
  const exploitMode = h("select", { name: "exploits", "data-testid": "exploits" },
    h("option", { value: "none" }, t("newgame.exploits_none")), h("option", { value: "random" }, t("newgame.exploits_random")),
    h("option", { value: "chosen" }, t("newgame.exploits_chosen")));
  // each Exploit's rule and Shields beside its checkbox, folded (GET /api/meta's words)
  const exploitChecks = h("div", { class: "checks exploit-list" }, meta.exploits.map((e) => h("div", { class: "exploit-choice" },
    h("label", {}, h("input", { type: "checkbox", name: "exploit", value: e.id }), ` ${e.name}`,
      e.regions && e.regions.length ? h("span", { class: "muted" }, ` · ${e.regions.join(" + ")}`) : null),
    e.rule ? h("details", { class: "exploit-rule", "data-testid": `exploit-rule-${e.id}` },
      h("summary", {}, t("newgame.rule_shields")),
      (e.paragraphs && e.paragraphs.length ? e.paragraphs : [e.rule]).map((text) => h("p", {}, text)),
      e.shield ? h("p", {}, h("b", {}, t("newgame.shields")), e.shield) : null) : null)));
  const fleet = h("input", { type: "checkbox", name: "silent_fleet", "data-testid": "silent-fleet" });
  const rated = ratedChoice(); // a rated game: only for someone signed in
  const optionsBox = h("div", { class: "checks" });
  const seatsBox = h("div", { class: "seats", "data-testid": "seats" });
  const exploitField = labelled(t("newgame.exploits"), exploitMode, h("span", { "data-testid": "shields-hint" },
    t("newgame.shields_hint"),
    h("a", { href: href("/rules#exploits"), target: "_blank", rel: "noopener" }, t("newgame.more_howto"))));
  const exploitProblem = h("p", { class: "error", role: "alert", "data-testid": "exploit-problem", hidden: true });

  // the clock
  const clockKind = h("select", { name: "clock", "data-testid": "clock" },
    CLOCKS.map(([value]) => h("option", { value }, t(`newgame.clock_${value}`))));
  const unitSelect = (/** @type {string} */ testid, /** @type {number} */ unit) => {
    const select = h("select", { "data-testid": testid, "aria-label": t("newgame.unit") },
      UNITS.map(([v, w]) => h("option", { value: v }, t(`newgame.unit_${w}`))));
    select.value = String(unit);
    return select;
  };
  const bankInput = h("input", { type: "number", min: 0, step: "any", value: 20, "data-testid": "clock-bank", "aria-label": t("newgame.bank_label") });
  const bankUnit = unitSelect("clock-bank-unit", 60);
  const perInput = h("input", { type: "number", min: 0, step: "any", value: 20, "data-testid": "clock-per", "aria-label": t("newgame.per_label") });
  const perUnit = unitSelect("clock-per-unit", 1);
  const onTimeout = h("select", { "data-testid": "clock-timeout", "aria-label": t("newgame.timeout_label") },
    h("option", { value: "decision" }, t("newgame.timeout_decision")),
    h("option", { value: "game" }, t("newgame.timeout_game")));
  const timeoutBot = h("select", { "data-testid": "clock-bot", "aria-label": t("newgame.bot_label") },
    meta.bots.map((b) => h("option", { value: b }, t("newgame.bot", { bot: b }))));
  timeoutBot.value = meta.default_timeout_bot && meta.bots.includes(meta.default_timeout_bot)
    ? meta.default_timeout_bot : meta.bots.includes("medium") ? "medium" : meta.bots[0];
  const reclaim = h("input", { type: "checkbox", "data-testid": "clock-reclaim", checked: true });
  const reclaimLabel = h("label", { class: "field inline" }, reclaim, t("newgame.reclaim"));
  const customBox = h("div", { class: "row clock-custom" },
    h("span", { class: "field-label" }, t("newgame.bank")), bankInput, bankUnit,
    h("span", { class: "field-label" }, t("newgame.per")), perInput, perUnit);
  const timeoutBox = h("div", { class: "row clock-timeout" },
    h("span", {}, t("newgame.when_out")), onTimeout, h("span", {}, t("newgame.by_the")), timeoutBot,
    reclaimLabel);
  const clockHint = h("p", { class: "hint" });
  function refreshClock() {
    const custom = clockKind.value === "custom";
    customBox.hidden = !custom;
    timeoutBox.hidden = clockKind.value === "none";
    reclaimLabel.hidden = onTimeout.value !== "game";
    clockHint.textContent = clockKind.value === "none" ? t("newgame.hint_none")
      : t("newgame.hint_clock");
  }
  clockKind.addEventListener("change", refreshClock);
  onTimeout.addEventListener("change", refreshClock);

  /**
   * The clock to send (null: none), or a reason in words why it cannot be.
   * @returns {{ clock?: ClockChoice | null, problem?: string }}
   */
  function clockSpec() {
    const preset = CLOCKS.find(([value]) => value === clockKind.value);
    if (clockKind.value === "none") return { clock: null };
    let spec = preset ? preset[2] : null;
    if (clockKind.value === "custom") {
      const bank = Number(bankInput.value) * Number(bankUnit.value);
      const per = Number(perInput.value) * Number(perUnit.value);
      if (!Number.isFinite(bank) || !Number.isFinite(per) || bank < 0 || per < 0) {
        return { problem: t("newgame.problem_numbers") };
      }
      if (bank + per < 1) return { problem: t("newgame.problem_second") };
      if (bank > 60 * 86400 || per > 60 * 86400) return { problem: t("newgame.problem_60") };
      spec = { kind: per <= 600 && bank <= 4 * 3600 ? "live" : "turn", bank, per_decision: per };
    }
    return { clock: { .../** @type {ClockPreset} */ (spec), on_timeout: onTimeout.value, bot: timeoutBot.value, reclaim: reclaim.checked } };
  }

  const currentRuleset = () => meta.rulesets.find((r) => r.id === ruleset.value) || meta.rulesets[0];

  /**
   * @param {number} i
   * @param {string | undefined} previous
   */
  function seatSelect(i, previous) {
    const select = h("select", { "data-testid": `seat-${i}`, "aria-label": t("newgame.seat_label", { p: i }) },
      h("option", { value: "you" }, t("newgame.seat_you")),
      h("option", { value: "human" }, t("newgame.seat_human")),
      h("option", { value: "hotseat" }, t("newgame.seat_hotseat")),
      meta.bots.map((b) => h("option", { value: `bot:${b}` }, t(meta.quick_bots.includes(b) ? "newgame.seat_bot" : "newgame.seat_bot_slow", { bot: b }))));
    const fallback = i === 0 ? "you" : `bot:${meta.quick_bots.includes("easy") ? "easy" : meta.bots[0]}`;
    select.value = previous || fallback;
    return select;
  }

  function refreshFields() {
    const r = currentRuleset();
    const oldPlayers = Number(players.value) || (r.players.includes(3) ? 3 : r.players[0]);
    replace(players, r.players.map((n) => h("option", { value: n }, String(n))));
    players.value = String(r.players.includes(oldPlayers) ? oldPlayers : r.players[0]);
    replace(board, h("option", { value: "" }, t("newgame.board_default")),
      r.boards.map((b) => h("option", { value: b }, b === "classic" ? t("newgame.board_2009") : t("newgame.board_side", { side: b }))));
    replace(phaseOrder, r.phase_orders.map((p) => h("option", { value: p },
      p === "by_phase" ? t("newgame.by_phase") : p === "by_player" ? t("newgame.by_player") : p)));
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
      rows.push(h("label", {}, box, ` ${optionWords(name)}`));
    }
    replace(optionsBox, rows);
    const previous = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    const typed = [.../** @type {NodeListOf<HTMLInputElement>} */ (seatsBox.querySelectorAll("input.seat-name-input"))].map((x) => x.value);
    replace(seatsBox, Array.from({ length: n }, (_, i) => {
      const select = seatSelect(i, previous[i]);
      // a name for the seat (optional): yours prefilled with the name this browser used
      const name = h("input", { type: "text", class: "seat-name-input", maxlength: MAX_NAME, "data-testid": `seat-name-${i}`,
        "aria-label": t("newgame.name_of", { p: i }), placeholder: t("newgame.name_optional"),
        value: typed[i] ?? (select.value === "you" ? lastName() : "") });
      const sync = () => {
        const bot = select.value.startsWith("bot:");
        name.placeholder = bot ? t("newgame.bot", { bot: select.value.slice(4) })
          : select.value === "human" ? t("newgame.name_they_choose") : t("newgame.name_optional");
      };
      select.addEventListener("change", sync);
      sync();
      return h("div", { class: "seat-row" }, seatChip(i), select, name);
    }));
    const preset = /** @type {HTMLButtonElement | null} */ (presets.querySelector("[aria-pressed=true]"));
    if (preset) seatPreset(preset.dataset.preset); // a quick choice holds for any number of seats
  }

  /**
   * A quick choice of seats (`kind`): "friends" (you as P0, the others invited), "bots" (you
   * as P0, bots in the others) or "hotseat" (every seat on this screen).
   * @param {string | undefined} kind
   */
  function seatPreset(kind) {
    const bot = `bot:${meta.quick_bots.includes("easy") ? "easy" : meta.bots[0]}`;
    [...seatsBox.querySelectorAll("select")].forEach((select, i) => {
      select.value = kind === "hotseat" ? "hotseat" : i === 0 ? "you" : kind === "friends" ? "human" : bot;
    });
    for (const b of presets.querySelectorAll("button")) b.setAttribute("aria-pressed", b.dataset.preset === kind ? "true" : "false");
  }
  const presets = h("div", { class: "row seat-presets", role: "group", "aria-label": t("newgame.who") },
    [["friends", t("newgame.friends"), t("newgame.friends_hint")],
      ["bots", t("newgame.bots"), t("newgame.bots_hint")],
      ["hotseat", t("newgame.hotseat"), t("newgame.hotseat_hint")]].map(([kind, text, hint]) =>
      h("button", { type: "button", class: "btn small", "data-preset": kind, "data-testid": `seats-${kind}`,
        "aria-pressed": "false", title: hint, onclick: () => seatPreset(kind) }, text)));
  seatsBox.addEventListener("change", () => {
    for (const b of presets.querySelectorAll("button")) b.setAttribute("aria-pressed", "false");
  });

  ruleset.addEventListener("change", refreshFields);
  players.addEventListener("change", refreshOptions);
  fleet.addEventListener("change", refreshOptions);
  exploitMode.addEventListener("change", refreshOptions);

  replace(form,
    h("div", { class: "grid2" },
      labelled(t("lobby.col_rules"), ruleset),
      labelled(t("tab.players"), players),
      labelled(t("tab.board"), board),
      labelled(t("newgame.phase_order"), phaseOrder),
      exploitField,
      labelled(t("newgame.title"), titleInput)),
    h("details", { class: "more-options", "data-testid": "more-options" },
      h("summary", { "data-testid": "more-options-toggle" }, t("newgame.more")),
      labelled(t("newgame.seed"), seed, t("newgame.seed_hint"))),
    exploitChecks,
    exploitProblem,
    h("label", { class: "field inline" }, fleet, t("newgame.fleet")),
    optionsBox,
    rated.el,
    h("h3", {}, t("lobby.col_seats")),
    presets,
    seatsBox,
    h("h3", {}, t("newgame.clock")),
    h("div", { class: "clock-box" }, labelled(t("newgame.time_to_play"), clockKind), customBox, timeoutBox, clockHint),
    h("button", { type: "submit", class: "btn primary big", "data-testid": "create" }, t("newgame.create")));
  refreshFields();
  refreshClock();
  exploitChecks.addEventListener("change", () => { exploitProblem.hidden = true; });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const r = currentRuleset();
    /** @type {Record<string, string | boolean>} */
    const options = { phase_order: phaseOrder.value };
    if (fleet.checked) options.silent_fleet = true;
    for (const box of /** @type {NodeListOf<HTMLInputElement>} */ (optionsBox.querySelectorAll("input[type=checkbox]"))) options[box.name] = box.checked;
    /** @type {{ players: number, ruleset: string, seed: number, options: object, board?: string, exploits?: string | string[] }} */
    const config = { players: Number(players.value), ruleset: r.id, seed: Number(seed.value) || 0, options };
    if (board.value) config.board = board.value;
    if (r.id !== "classic") {
      if (exploitMode.value === "random") config.exploits = "random";
      else if (exploitMode.value === "chosen") {
        const chosen = [.../** @type {NodeListOf<HTMLInputElement>} */ (exploitChecks.querySelectorAll("input:checked"))].map((c) => c.value);
        config.exploits = chosen;
        const n = chosen.length;
        if (n === 0 || n > 3) {
          exploitProblem.textContent = n === 0
            ? t("newgame.tick")
            : t("newgame.at_most", { n });
          exploitProblem.hidden = false;
          exploitProblem.scrollIntoView({ block: "center" });
          return;
        }
      }
    }
    const timing = clockSpec();
    if (timing.problem) {
      toast(timing.problem);
      return;
    }
    const choices = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    const seats = choices.map((c) => (c === "you" ? "human" : c));
    /** @type {{ config: object, seats: string[], names?: (string | null)[], clock?: ClockChoice, title?: string, rated?: boolean }} */
    const body = { config, seats };
    if (rated.checked()) body.rated = true; // sent only when asked for
    const names = [.../** @type {NodeListOf<HTMLInputElement>} */ (seatsBox.querySelectorAll("input.seat-name-input"))].map((x) => x.value.trim() || null);
    if (names.some((x) => x)) body.names = names;
    if (timing.clock) body.clock = timing.clock;
    if (titleInput.value.trim()) body.title = titleInput.value.trim();
    const submit = /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]")); // the form's own
    submit.disabled = true;
    try {
      /** @type {Created} */
      const created = await api.create(body);
      let title = body.title || "";
      if (!title) {
        try {
          title = (await api.view(created.id, "")).title || "";
        } catch { /* the invitation says "a game of Endeavor" */ }
      }
      const yours = choices.indexOf("you");
      if (yours >= 0 && body.names && body.names[yours]) rememberName(body.names[yours]);
      showCreated(result, created, choices, timing.clock || null, title, body.names);
      form.hidden = true;
    } catch (err) {
      toast(t("newgame.create_error", { error: err instanceof Error ? err.message : String(err) }));
    } finally {
      submit.disabled = false;
    }
  });
}

/**
 * @param {string} label
 * @param {string} url
 * @param {string} testid
 * @param {string | null} [hint]
 */
function linkRow(label, url, testid, hint = null) {
  const full = fullUrl(url);
  return h("div", { class: "link-row" }, h("span", { class: "field-label" }, label),
    h("input", { type: "text", readonly: true, value: full, "data-testid": testid, "aria-label": label }),
    h("button", { type: "button", class: "btn small", onclick: () => copyText(full) }, t("newgame.copy")),
    hint ? h("span", { class: "hint" }, hint) : null);
}

/**
 * @param {HTMLElement} box
 * @param {Created} created
 * @param {string[]} choices what each seat was chosen to be ("you", "human", "hotseat", "bot:…")
 * @param {ClockChoice | null} clock
 * @param {string} title
 * @param {(string | null)[] | null} [names]
 */
function showCreated(box, created, choices, clock, title, names = null) {
  /** @type {import("./types.js").Child[]} */
  const rows = [];
  /** @type {CreatedSeat | null} */
  let mine = null;
  const hotseats = created.seats.filter((s) => s.kind === "hotseat");
  created.seats.forEach((seat, i) => {
    if (!seat.token) return;
    if (choices[i] === "you") mine = seat;
    if (seat.kind === "human") {
      const who = names && names[i] ? `${names[i]}, P${seat.seat}` : `P${seat.seat}`;
      rows.push(linkRow(t(choices[i] === "you" ? "newgame.link_yours" : "newgame.link_invite", { who }), seat.url, `link-${seat.seat}`));
      if (choices[i] !== "you") rows.push(inviteBox(inviteText(title, seat.seat, seat.url, (names && names[i]) || ""), `invite-${seat.seat}`, { title }));
    }
  });
  if (hotseats.length) {
    if (!mine) mine = hotseats[0];
    rows.push(linkRow(t("newgame.link_hotseat", { seats: hotseats.map((s) => `P${s.seat}`).join(", ") }), hotseats[0].url, "link-hotseat"));
    if (choices[created.seats.indexOf(hotseats[0])] !== "you" && mine !== hotseats[0]) {
      rows.push(inviteBox(inviteText(title, hotseats.map((s) => s.seat), hotseats[0].url), "invite-hotseat", { title }));
    }
  }
  if (mine && mine.token) addToken(created.id, mine.token); // just issued by the server
  if (created.host_token) setHostToken(created.id, created.host_token);
  rows.push(linkRow(t("newgame.spectators"), created.spectate_url, "link-spectate"));
  replace(box, h("section", { class: "card-box created", "data-testid": "created" },
    h("h2", {}, t("newgame.created")),
    h("p", { class: "muted" }, t("newgame.created_text")),
    rows,
    created.host_url ? h("div", { class: "host-box" },
      h("h3", {}, t("newgame.host_link")),
      h("p", { class: "muted" }, t("newgame.host_text")),
      linkRow(t("newgame.host"), created.host_url, "link-host")) : null,
    clock ? h("p", { class: "muted", "data-testid": "created-clock" }, t("newgame.created_clock", { clock: [
      clock.bank ? t("newgame.each", { time: amount(clock.bank) }) : null,
      clock.per_decision ? t("newgame.per_decision", { time: amount(clock.per_decision) }) : null].filter(Boolean).join(" + ") })) : null,
    h("div", { class: "row" },
      mine ? h("a", { class: "btn primary big", href: linkHref(mine.url), "data-testid": "open-seat" }, t("newgame.open_seat")) : null,
      h("a", { class: "btn", href: linkHref(created.spectate_url) }, t("lobby.watch")),
      h("a", { class: "btn", href: href("/") }, t("head.lobby")))));
}
