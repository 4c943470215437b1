// @ts-check
// How to play (/rules): the rules in plain words, one tab per ruleset (#age-of-sail,
// #classic), the 2-player Silent Fleet (#silent-fleet) and the Exploits (#exploits). The
// words are written for this app from the rulebooks; every number (buildings by level,
// status tracks, discs, player counts) and the Exploits' rules come from GET /api/guide,
// which reads them from the engine's data. Ruling ids (R…, P…) point to docs/rulings.md.

import { api } from "./api.js";
import { h, href, replace } from "./dom.js";
import { t } from "./i18n.js";

const TABS = ["age-of-sail", "classic", "silent-fleet", "exploits"];

/**
 * Who goes first: the Crown holder in every phase, and the Crown passes to the left at
 * the end of each round (both rulebooks).
 */
export const crownWords = () => t("howto.crown");

/**
 * How a game gets its Exploits: the new-game form's choices (none by default, three at
 * random, or one to three chosen).
 */
export const exploitsIntro = () => t("howto.exploits_intro");

/** @typedef {import("./types.js").Child} Child */
/**
 * GET /api/guide: the numbers of each ruleset and the Exploits' rules, from the engine's data.
 * @typedef {{ id: string, name: string, note?: string | null, copies?: number | null, does: string,
 *   gives?: string | null }} GuideBuilding
 * @typedef {{ id: string, attributes: string[], rounds: number, players: number[], discs: number,
 *   track_cap?: number | null, start: GuideBuilding[], levels: { level: number, buildings: GuideBuilding[] }[],
 *   level5_pool: number, level5_available: number }} GuideRuleset
 * @typedef {{ level: number, score: number, growth: number, glory: number }} GuideTrack
 * @typedef {{ id: string, number: number, name: string, regions: string[], rule: string,
 *   paragraphs?: string[], shield: string }} GuideExploit
 * @typedef {{ rulesets: GuideRuleset[], tracks: GuideTrack[], shields: string, exploits: GuideExploit[] }} Guide
 */

const p = (/** @type {Child[]} */ ...parts) => h("p", {}, ...parts);
const ul = (/** @type {Child[]} */ items) => h("ul", {}, items.map((i) => h("li", {}, i)));
const ol = (/** @type {Child[]} */ items) => h("ol", {}, items.map((i) => h("li", {}, i)));
const b = (/** @type {string} */ text) => h("b", {}, text);
// the page's <base href> is the app's root: an anchor must name the page, not just "#id"
const tabHref = (/** @type {string} */ id) => href(`/rules#${id}`);
const tabLink = (/** @type {string} */ id, /** @type {string} */ text) => h("a", { href: tabHref(id) }, text);

/**
 * How many texts of each list a ruleset has in the catalog (howto.<ruleset>.setup1...):
 * what differs between Age of Sail and 2009.
 * @type {Record<string, { setup: number, phases: number, cards: number, score: number }>}
 */
const LISTS = {
  "age_of_sail": { setup: 3, phases: 5, cards: 4, score: 6 },
  classic: { setup: 3, phases: 4, cards: 3, score: 5 },
};

/**
 * A ruleset's words (the catalog's howto.<ruleset>.<name>), and its numbered lists.
 * @param {string} rid
 */
function rulesetWords(rid) {
  const w = (/** @type {string} */ name) => t(`howto.${rid}.${name}`);
  const list = (/** @type {string} */ name, /** @type {number} */ n) => Array.from({ length: n }, (_, i) => w(`${name}${i + 1}`));
  const n = LISTS[rid];
  return {
    w,
    setup: list("setup", n.setup),
    phases: Array.from({ length: n.phases }, (_, i) => [b(w(`phase${i + 1}_name`)), w(`phase${i + 1}`)]),
    cards: list("cards", n.cards),
    score: list("score", n.score),
  };
}

/**
 * The status tracks by level: which scores give it, and what it means on each track.
 * @param {GuideRuleset} rs
 * @param {GuideTrack[]} tracks
 */
function trackTable(rs, tracks) {
  const [ind, cul, wea, inf] = rs.attributes;
  const rows = [];
  for (let level = 1; level <= 5; level++) {
    const scores = tracks.filter((tr) => tr.level === level).map((tr) => tr.score);
    if (!scores.length) continue;
    const top = scores[scores.length - 1];
    const range = top === tracks[tracks.length - 1].score ? `${scores[0]}+` : scores.length > 1 ? `${scores[0]}–${top}` : `${scores[0]}`;
    const growth = tracks.find((tr) => tr.level === level)?.growth;
    rows.push(h("tr", {}, h("th", { scope: "row" }, range), h("td", {}, level), h("td", {}, growth), h("td", {}, level), h("td", {}, level)));
  }
  const glory = [...new Set(tracks.filter((tr) => tr.glory === tr.score && tr.glory > 0).map((tr) => tr.glory))];
  return [
    h("div", { class: "howto-scroll" }, h("table", { class: "howto-table tracks", "data-testid": `tracks-${rs.id}` },
      h("thead", {}, h("tr", {}, h("th", {}, t("howto.col_score")),
        [[t("howto.col_build"), ind], [t("howto.col_growth"), cul], [t("howto.col_salary"), wea], [t("howto.col_limit"), inf]].map(([what, attr]) =>
          h("th", {}, what, h("span", { class: "howto-attr" }, attr))))),
      h("tbody", {}, rows))),
    p(rs.track_cap ? t("howto.tracks_text_cap", { glory: glory.join(", "), cap: rs.track_cap })
      : t("howto.tracks_text", { glory: glory.join(", ") })),
  ];
}

/**
 * The buildings by level, from the ruleset's data.
 * @param {GuideRuleset} rs
 */
function buildingTable(rs) {
  const row = (/** @type {GuideBuilding} */ bd) => h("tr", {}, h("th", { scope: "row" }, bd.name, bd.note ? h("div", { class: "hint" }, bd.note) : null),
    h("td", {}, bd.copies || "—"), h("td", {}, bd.does), h("td", {}, bd.gives || "—"));
  const head = () => h("thead", {}, h("tr", {}, h("th", {}, t("howto.col_building")), h("th", {}, t("howto.col_copies")),
    h("th", {}, t("howto.col_action")), h("th", {}, t("howto.col_gives"))));
  const body = [h("tr", { class: "howto-level" }, h("th", { colspan: 4 }, rs.start.length > 1 ? t("howto.start_tiles") : t("howto.start_tile")))];
  body.push(...rs.start.map(row));
  for (const lv of rs.levels) {
    const label = lv.level === 5 && rs.level5_pool > rs.level5_available
      ? t("howto.level5_pool", { available: rs.level5_available, pool: rs.level5_pool })
      : lv.level === 5 ? t("howto.level5") : t("howto.level", { level: lv.level });
    body.push(h("tr", { class: "howto-level" }, h("th", { colspan: 4 }, label)));
    body.push(...lv.buildings.map(row));
  }
  return h("div", { class: "howto-scroll" }, h("table", { class: "howto-table buildings", "data-testid": `buildings-${rs.id}` },
    head(), h("tbody", {}, body)));
}

/**
 * @param {GuideRuleset} rs
 * @param {GuideTrack[]} tracks
 */
function rulesetSection(rs, tracks) {
  if (!LISTS[rs.id]) return null;
  const words = rulesetWords(rs.id);
  const w = words.w;
  const [ind, cul, wea, inf] = rs.attributes;
  const aos = rs.id === "age_of_sail";
  return [
    p(w("intro")),
    p(t("howto.goal", { rounds: rs.rounds, attributes: rs.attributes.join(", "), min: rs.players[0],
      max: rs.players[rs.players.length - 1], discs: rs.discs })),
    h("h3", { id: `${rs.id}-setup` }, t("howto.setup")), ul(words.setup),
    h("h3", {}, t("howto.a_round")),
    p(t("howto.round_text", { rounds: rs.rounds })),
    ol(words.phases),
    h("p", { "data-testid": `crown-${rs.id}` }, crownWords()),
    h("h3", {}, t("howto.tracks")),
    p(t("howto.tracks_intro", { ind, cul, wea, inf })),
    trackTable(rs, tracks),
    h("h3", {}, t("howto.your_turn")),
    p(t("howto.your_turn_text")),
    p(w("plus")),
    h("h3", {}, t("howto.five_actions")),
    h("dl", { class: "howto-actions", "data-testid": `actions-${rs.id}` },
      ["ship", "occupy", "attack", "payment", "draw"].map((k) => [h("dt", {}, t(`howto.${k}`)), h("dd", {}, w(k))])),
    h("h3", {}, t("howto.opening")),
    p(aos ? t("howto.opening_links") : t("howto.opening_text")),
    h("h3", {}, t("howto.buildings")),
    buildingTable(rs),
    h("h3", {}, t("howto.cards")), ul(words.cards),
    h("h3", {}, t("howto.slavery")),
    p(t("howto.slavery_text", { ind, wea }), w("abolition")),
    h("h3", {}, t("howto.end")),
    p(t("howto.end_text", { rounds: rs.rounds })),
    ol(words.score),
    p(t("howto.win")),
    aos ? p(t("howto.see_also_1"), tabLink("silent-fleet", t("howto.see_fleet")),
      t("howto.see_also_2"), tabLink("exploits", t("howto.see_exploits")), t("howto.see_also_3")) : null,
  ];
}

function silentFleetSection() {
  return [
    p(t("howto.fleet_intro_1"), tabLink("age-of-sail", t("howto.fleet_intro_link")), t("howto.fleet_intro_2")),
    h("h3", {}, t("howto.fleet_reacts")),
    p(t("howto.fleet_reacts_text")),
    h("dl", { class: "howto-actions", "data-testid": "actions-silent-fleet" },
      [[t("howto.ship"), t("howto.fleet_ship")],
        [t("howto.occupy"), t("howto.fleet_occupy")],
        [t("howto.draw"), t("howto.fleet_draw")],
        [t("howto.fleet_other"), t("howto.fleet_nothing")]].map(([k, text]) => [h("dt", {}, k), h("dd", {}, text)])),
    ul([t("howto.fleet_rule1"), t("howto.fleet_rule2"), t("howto.fleet_rule3"), t("howto.fleet_rule4")]),
    h("h3", {}, t("howto.fleet_options")),
    ul([
      [b(t("howto.fleet_opt1_name")), t("howto.fleet_opt1")],
      [b(t("howto.fleet_opt2_name")), t("howto.fleet_opt2")],
      [b(t("howto.fleet_opt3_name")), t("howto.fleet_opt3")],
    ]),
  ];
}

/** @param {Guide} guide */
function exploitsSection(guide) {
  return [
    h("p", { "data-testid": "exploits-intro" }, exploitsIntro()),
    h("h3", {}, t("howto.shields")),
    h("p", { "data-testid": "howto-shields" }, guide.shields),
    p(t("howto.exploits_text")),
    h("div", { class: "howto-exploits" }, guide.exploits.map((e) => h("article", { class: "howto-exploit", id: `exploit-${e.id}`, "data-testid": `howto-exploit-${e.id}` },
      h("h4", {}, `${e.number}. ${e.name}`, h("span", { class: "muted" }, ` · ${e.regions.join(" + ")}`)),
      (e.paragraphs && e.paragraphs.length ? e.paragraphs : [e.rule]).map((/** @type {string} */ text) => p(text)),
      p(b(t("howto.exploit_shields")), e.shield)))),
  ];
}

/** @param {HTMLElement} root */
export async function howtoScreen(root) {
  document.title = t("howto.title");
  /** @type {Guide} */
  let guide;
  try {
    guide = await api.guide();
  } catch (err) {
    replace(root, h("p", { class: "error" }, t("howto.cannot_read", { error: err instanceof Error ? err.message : String(err) })));
    return;
  }
  const byId = Object.fromEntries(guide.rulesets.map((r) => [r.id, r]));
  /** @type {Record<string, Child>} */
  const sections = {
    "age-of-sail": byId.age_of_sail ? rulesetSection(byId.age_of_sail, guide.tracks) : [],
    classic: byId.classic ? rulesetSection(byId.classic, guide.tracks) : [],
    "silent-fleet": silentFleetSection(),
    exploits: exploitsSection(guide),
  };
  const tabs = h("nav", { class: "howto-tabs", role: "tablist", "aria-label": t("howto.tabs") },
    TABS.map((id) => h("a", { href: tabHref(id), role: "tab", class: "btn", "data-testid": `howto-tab-${id}` }, t(`howto.tab_${id}`))));
  const panels = TABS.map((id) => [id, t(`howto.tab_${id}`)]).map(([id, text]) => h("section", {
    class: "card-box howto-section", id: `rules-${id}`, role: "tabpanel", "aria-label": text, "data-testid": `howto-${id}`,
  }, h("h2", {}, text), sections[id]));
  replace(root, h("div", { class: "howto", "data-testid": "howto" },
    h("a", { href: href("/"), class: "back" }, t("howto.back")),
    h("h1", {}, t("howto.heading")),
    h("p", { class: "muted" }, t("howto.lead")),
    tabs, panels));

  function show() {
    const want = decodeURIComponent(location.hash.slice(1));
    const current = TABS.includes(want) ? want : TABS[0];
    for (const [i, id] of TABS.entries()) {
      panels[i].hidden = id !== current;
      const tab = tabs.children[i];
      tab.setAttribute("aria-selected", String(id === current));
      tab.classList.toggle("primary", id === current);
    }
    document.body.dataset.rulesTab = current;
  }
  show();
  window.addEventListener("hashchange", () => {
    show();
    tabs.scrollIntoView({ block: "nearest" });
  });
}
