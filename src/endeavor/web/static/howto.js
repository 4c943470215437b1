// @ts-check
// How to play (/rules): the rules in plain words, one tab per ruleset (#age-of-sail,
// #classic), the 2-player Silent Fleet (#silent-fleet) and the Exploits (#exploits). The
// words are written for this app from the rulebooks; every number (buildings by level,
// status tracks, discs, player counts) and the Exploits' rules come from GET /api/guide,
// which reads them from the engine's data. Ruling ids (R…, P…) point to docs/rulings.md.

import { api } from "./api.js";
import { h, href, replace } from "./dom.js";

const TABS = [
  ["age-of-sail", "Age of Sail"],
  ["classic", "2009 rules"],
  ["silent-fleet", "Silent Fleet (2 players)"],
  ["exploits", "Exploits"],
];

/**
 * Who goes first: the Crown holder in every phase, and the Crown passes to the left at
 * the end of each round (both rulebooks).
 */
export const CROWN_WORDS = "At the end of each round the Crown passes to the left, to the next player clockwise, who goes first in the next round.";

/**
 * How a game gets its Exploits: the new-game form's choices (none by default, three at
 * random, or one to three chosen).
 */
export const EXPLOITS_INTRO = "Age of Sail only: a game may use up to three Exploit tiles. The new-game form plays none unless you choose “3 at random” or tick one to three of them (R4). Each tells a story of the age and belongs to two regions; its Key sits on each region's Governor, and it wakes once both regions are open.";

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
 * The action words of each ruleset: what differs between Age of Sail and 2009.
 * @type {Record<string, { intro: string, setup: string[], phases: Child[], ship: string, occupy: string,
 *   attack: string, payment: string, draw: string, plus: string, cards: string[], abolition: string,
 *   score: string[] }>}
 */
const WORDS = {
  "age_of_sail": {
    intro: "Endeavor: Age of Sail (2018) for 2 to 5 players: Europe is open from the start; the six other regions open as ships fill their tracks. Two board sides: A for 2, 3 or a tight 4, B for a loose 4 or 5 (R1).",
    setup: [
      "Every circular space of the board (track spaces, cities, trade routes, circular links) gets a random Trade token; square links get none. Brown tokens raise an attribute, blue ones are spare actions.",
      "Each region's deck lies by its track, lowest value on top, its Governor beside it. Europe has two decks, Europe and Slavery, each with a value-0 card on top.",
      "In turn order each player picks a start tile, the Colonial House (Occupy) or the Merchant Dock (Ship, +1 Wealth), and puts one disc on it (R3).",
    ],
    phases: [
      [b("Construction"), ": build one building of your Build Level or lower (if none is left, one level higher), at most one level-5 building in the game. Its symbols raise your tracks at once."],
      [b("Growth"), ": take as many discs from your supply to your Harbor as your Growth says."],
      [b("Salary"), ": pay workers: move up to your Salary's number of discs from your buildings back to your Harbor, the ones you choose (R7)."],
      [b("Actions"), ": in turn order, one action each or pass, round and round until everyone has passed."],
      [b("Discard"), ": everyone over the card limit discards (below)."],
    ],
    ship: "Put a Harbor disc on one of three places; no presence is needed. (1) The shipping track of a closed region, on its free space farthest from the deck: take that space's token. (2) A free trade route in Europe or in an open region: take its token. (3) The open sea of an open region other than Europe: no token, any number of discs, but it gives you presence there (R10).",
    occupy: "Put a Harbor disc on an empty city in Europe or in an open region where you have presence, and take its token. Presence means at least one of your discs in that region: on a city, a trade route, its track or its open sea. Everyone always has presence in Europe (R12, R13).",
    attack: "One Harbor disc goes back to your supply (your casualty); then an opponent's disc on a city or a trade route in Europe or in an open region where you have presence goes back to their supply, and a second Harbor disc of yours takes its place (R9, R13).",
    payment: "Move a worker from one of your buildings back to your Harbor; the building can be used again. Workers on a building with the no-payment symbol (the Exchange, Museum and Parliament) are paid only in the Salary phase (R15).",
    draw: "Take the top card of any deck if your discs in that region reach its Draw Value; the region need not be open. For the Europe and Slavery decks and the discard pile, count your discs on Europe's cities and trade routes. Gain the card's symbols at once; a region's value-1 card also brings a disc from your supply, even from the discard pile (R14, R16).",
    plus: "A building marked “A / B” does one of the two; one marked “A + B” does one or both, in the order you like, each finished before the next, anywhere (R23; the new-game form offers the 2009 “same region” restriction as a house rule).",
    cards: [
      "While the Action phase runs you may hold any number of cards. In the Discard phase you keep at most your Card Limit (it comes from Influence), never more than the 5 card slots of your mat (R18).",
      "One Slavery card may be kept above the limit (still within the 5 slots), and one Governor fits in the free Governor slot, outside both counts; a Governor in a normal slot counts like any card.",
      "Over the limit you choose what to drop and lose its symbols: a Slavery card is set aside face down (−1 glory at the end), a Governor leaves the game, any other card goes to the face-up discard pile beside Europe, where anyone may draw it.",
      "Over the limit with Governors in both kinds of slot, the app first asks which Governor sits in the free slot, so any of them can be the card you drop (P92). In round 7 it asks which Governor, if any, sits there: an empty free slot is worth 3 glory at the end (P1).",
    ],
    abolition: "The Europe value-5 card announces the Abolition of Slavery. The first time it comes into a player's hands (or the Silent Fleet discards it, or the Underground Railroad's last space is filled), every Slavery card held by anyone is set aside face down (its symbols lost, −1 glory each at the end) and the Slavery deck leaves the game (R17).",
    score: [
      "Exploits first, each for its Shield holders only.",
      "The four status tracks: a marker on a space without a glory symbol slides down to the nearest symbol; past 15, each extender space is worth its number (P9).",
      "Cities you hold (1 glory, 2 for the larger ones) and links you control (1 each, square ones too).",
      "Glory printed on your buildings and cards (Governors too), plus 3 if your free Governor slot is empty.",
      "1 glory per 3 discs left in your Harbor.",
      "−1 glory per set-aside Slavery card.",
    ],
  },
  classic: {
    intro: "The original Endeavor (2009) for 3 to 5 players, on one board with no trade routes or open seas and no Exploits.",
    setup: [
      "Every track space, city and connection gets a random Trade token. Brown tokens raise an attribute, blue ones are spare actions.",
      "Each region's deck lies face up, lowest value on top and its Governor on the very top (it is never drawn: it is won when the region opens, P70). Europe has two decks, Europe and Slavery, with a value-0 card on top.",
      "Every player has the Colonial House (Occupy) printed on the mat, with no disc on it (R3).",
    ],
    phases: [
      [b("Build"), ": build one building of your Build Level or lower (if none is left, one level higher), at most one level-5 building in the game."],
      [b("Growth"), ": take as many discs from your supply to your Harbor as your Growth says."],
      [b("Salary"), ": pay workers: up to your Salary's number of discs go from your buildings back to your Harbor."],
      [b("Actions"), ": in turn order, one action each or pass, until everyone has passed. When you pass you discard down to your card limit (below)."],
    ],
    ship: "Put a Harbor disc on a region's shipping track, on the free space farthest from the deck, and take its token. If the track is full the disc goes beside it: presence, no token. Europe can never be shipped to (P73).",
    occupy: "Put a Harbor disc on an empty city in Europe or in an open region where you have presence (a disc on a city, or on or beside the track), and take its token. Everyone always has presence in Europe. Holding both cities of a connection controls it; the first to control it takes its token.",
    attack: "One Harbor disc goes back to your supply (your casualty); an opponent's disc on a city in Europe or in an open region where you have presence goes back to their supply, and a second Harbor disc of yours takes the city.",
    payment: "Move a worker from one of your buildings back to your Harbor. A Payment building may not pay its own worker (P74).",
    draw: "Take the top card of Europe's decks or of an open region's deck if your discs there reach its Draw Value (Europe: your discs on its cities). Value-1 cards give no extra disc in this edition (R14).",
    plus: "A building marked “A / B” does one of the two; “A + B” does one or both, both in the same region, and Draw + Draw from the same deck (R23).",
    cards: [
      "You may hold any number of cards until you pass. When you pass you keep at most your Card Limit (it comes from Politics), never more than the 5 card slots (P71).",
      "One Slavery card may be kept above the limit (still within 5), and one Governor fits in the free Governor slot, outside both counts. You may move your cards between slots while you discard: over the limit with Governors in both kinds of slot, the app first asks which one sits in the free slot (P92).",
      "A discarded card goes back into its own deck at its value's place; a Slavery card is set aside face down (−1 glory at the end); a Governor leaves the game (R18, P76).",
    ],
    abolition: "The Europe value-5 card announces the Abolition of Slavery. The first time anyone draws it, every Slavery card held by anyone is set aside face down (its symbols lost, −1 glory each at the end) and the rest of the Slavery deck leaves the game (R17).",
    score: [
      "Cities you hold (1 glory, 2 for the larger ones) and connections you control (1 each).",
      "The four status tracks, at most 15: a marker on a space without a glory symbol slides down to the nearest symbol (P75).",
      "Glory printed on your cards, Governors too; 3 if your free Governor space is empty; 3 per University.",
      "1 glory per 3 discs left in your Harbor.",
      "−1 glory per set-aside Slavery card (P77).",
    ],
  },
};

/**
 * The status tracks by level: which scores give it, and what it means on each track.
 * @param {GuideRuleset} rs
 * @param {GuideTrack[]} tracks
 */
function trackTable(rs, tracks) {
  const [ind, cul, wea, inf] = rs.attributes;
  const rows = [];
  for (let level = 1; level <= 5; level++) {
    const scores = tracks.filter((t) => t.level === level).map((t) => t.score);
    if (!scores.length) continue;
    const top = scores[scores.length - 1];
    const range = top === tracks[tracks.length - 1].score ? `${scores[0]}+` : scores.length > 1 ? `${scores[0]}–${top}` : `${scores[0]}`;
    const growth = tracks.find((t) => t.level === level)?.growth;
    rows.push(h("tr", {}, h("th", { scope: "row" }, range), h("td", {}, level), h("td", {}, growth), h("td", {}, level), h("td", {}, level)));
  }
  const glory = [...new Set(tracks.filter((t) => t.glory === t.score && t.glory > 0).map((t) => t.glory))];
  return [
    h("div", { class: "howto-scroll" }, h("table", { class: "howto-table tracks", "data-testid": `tracks-${rs.id}` },
      h("thead", {}, h("tr", {}, h("th", {}, "Score"),
        [["Build Level", ind], ["Growth", cul], ["Salary", wea], ["Card Limit", inf]].map(([what, attr]) =>
          h("th", {}, what, h("span", { class: "howto-attr" }, attr))))),
      h("tbody", {}, rows))),
    p(`Each track counts the symbols you hold of its attribute: on buildings, cards and brown tokens. At the end a marker scores the nearest glory symbol at or below it: ${glory.join(", ")}${rs.track_cap ? ` (a track never counts past ${rs.track_cap})` : "; above 15 each space is worth its number"}.`),
  ];
}

/**
 * The buildings by level, from the ruleset's data.
 * @param {GuideRuleset} rs
 */
function buildingTable(rs) {
  const row = (/** @type {GuideBuilding} */ bd) => h("tr", {}, h("th", { scope: "row" }, bd.name, bd.note ? h("div", { class: "hint" }, bd.note) : null),
    h("td", {}, bd.copies || "—"), h("td", {}, bd.does), h("td", {}, bd.gives || "—"));
  const head = () => h("thead", {}, h("tr", {}, h("th", {}, "Building"), h("th", {}, "Copies"),
    h("th", {}, "Action"), h("th", {}, "Gives")));
  const body = [h("tr", { class: "howto-level" }, h("th", { colspan: 4 }, rs.start.length > 1 ? "Start tiles (choose one)" : "Start tile"))];
  body.push(...rs.start.map(row));
  for (const lv of rs.levels) {
    const label = lv.level === 5 && rs.level5_pool > rs.level5_available
      ? `Level 5 (${rs.level5_available} of these ${rs.level5_pool} are in play, drawn at setup; at most one each)`
      : lv.level === 5 ? "Level 5 (at most one each)" : `Level ${lv.level}`;
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
  const w = WORDS[rs.id];
  if (!w) return null;
  const [ind, cul, wea, inf] = rs.attributes;
  const aos = rs.id === "age_of_sail";
  return [
    p(w.intro),
    p(`Build the most glorious empire in ${rs.rounds} rounds: glory comes from your four attributes (${rs.attributes.join(", ")}), the cities and links you hold, buildings and cards, with ${rs.players[0]} to ${rs.players[rs.players.length - 1]} players and ${rs.discs} discs each.`),
    h("h3", { id: `${rs.id}-setup` }, "Setup"), ul(w.setup),
    h("h3", {}, "A round"),
    p(`${rs.rounds} rounds; each has these phases, the Crown holder first and then clockwise. Optionally each player can do the first three phases in a row before the next player (R6).`),
    ol(w.phases),
    h("p", { "data-testid": `crown-${rs.id}` }, CROWN_WORDS),
    h("h3", {}, "The status tracks"),
    p(`${ind} sets your Build Level, ${cul} your Growth (discs gained each round), ${wea} your Salary (workers paid each round) and ${inf} your Card Limit:`),
    trackTable(rs, tracks),
    h("h3", {}, "Your turn in the Action phase"),
    p("Either activate one of your buildings, moving a Harbor disc onto its free activation circle, or spend a blue Trade token from your Harbor (it leaves the game); then carry out the action(s) it shows. A building with a worker on it can't be activated again until the worker is paid. Once you pass you are out until the next round; with nothing possible you must pass."),
    p(w.plus),
    h("h3", {}, "The five actions"),
    h("dl", { class: "howto-actions", "data-testid": `actions-${rs.id}` },
      [["Ship", w.ship], ["Occupy", w.occupy], ["Attack", w.attack], ["Payment", w.payment], ["Draw", w.draw]]
        .map(([k, text]) => [h("dt", {}, k), h("dd", {}, text)])),
    h("h3", {}, "Opening a region, Governors and links"),
    p(`The disc that fills a region's track opens the region. Its Governor goes at once to the player with the most discs on that track; a tie goes to the tied player whose disc is closest to the deck. That is the only way to get a Governor (R11).${aos ? " Holding the discs at both ends of a link (city or trade route) controls it; the first player ever to control a circular link takes its token, and every controlled link is worth glory at the end (R13)." : ""}`),
    h("h3", {}, "Buildings by level"),
    buildingTable(rs),
    h("h3", {}, "Cards and the card limit"), ul(w.cards),
    h("h3", {}, "Slavery and Abolition"),
    p(`The Slavery deck (next to the Europe deck) gives quick ${ind} and ${wea}, at a price. `, w.abolition),
    h("h3", {}, "End of the game and scoring"),
    p(`After round ${rs.rounds} (every mat is full of buildings) the score pad adds, in this order:`),
    ol(w.score),
    p("The most glory wins; tied players share the victory (R19)."),
    aos ? p("Two players can add a neutral third colour: see ", tabLink("silent-fleet", "the Silent Fleet"),
      ". Exploits add three more stories to a game: see ", tabLink("exploits", "Exploits"), ".") : null,
  ];
}

function silentFleetSection() {
  return [
    p("An Age of Sail variant for 2 players (from the published French rulebook): the discs of an unused colour, the Silent Fleet, react to what you do and make the board as crowded as a 4-player game. It suits either board side. Everything else is the Age of Sail rules (", tabLink("age-of-sail", "Age of Sail"), ")."),
    h("h3", {}, "How the fleet reacts"),
    p("Only the Action phase changes. When a player's turn is over, the fleet reacts once to the action taken; the acting player makes its choices (R21, P80):"),
    h("dl", { class: "howto-actions", "data-testid": "actions-silent-fleet" },
      [["Ship", "A fleet disc goes on the next free space of any shipping track, or on a free trade route in Europe or an open region; that space's Trade token leaves the game. Fleet discs count for Governors like anyone's: a Governor the fleet wins leaves the game (P81)."],
        ["Occupy", "A fleet disc goes on an empty city in Europe or in an open region where the fleet has presence; the token leaves the game. The fleet never controls links, so a link between two fleet cities keeps its token (P82)."],
        ["Draw", "The top card of any deck where the fleet's presence reaches its Draw Value leaves the game. If it is the Abolition card, Slavery is abolished (P83)."],
        ["Attack, Payment", "Nothing."]].map(([k, text]) => [h("dt", {}, k), h("dd", {}, text)])),
    ul([
      "After a building that did two actions, the acting player picks which one the fleet answers; it reacts only once per turn (P80).",
      "With no possible place the reaction does nothing; with one it happens at once; with several the acting player chooses (P84).",
      "Fleet discs on cities and trade routes can be attacked like any opponent's; an attacked disc returns to the fleet's supply (P85, P86).",
      "The fleet holds no cards or tokens, never holds a Shield and never scores (P87).",
    ]),
    h("h3", {}, "Optional rules (new-game form)"),
    ul([
      [b("Limited occupation"), ": the fleet's Occupy goes only to the region where you just occupied (P88)."],
      [b("No token reaction"), ": the fleet ignores turns played with a blue Action token (P89)."],
      [b("Building shortage"), ": at the start of each round the player without the Crown removes one building of their Build Level or lower from the supply (P90)."],
    ]),
  ];
}

/** @param {Guide} guide */
function exploitsSection(guide) {
  return [
    h("p", { "data-testid": "exploits-intro" }, EXPLOITS_INTRO),
    h("h3", {}, "Shields"),
    h("p", { "data-testid": "howto-shields" }, guide.shields),
    p("An ability replaces the usual action of the kind it names, from a building or a blue token, and keeps only the conditions the tile states (R24). Trade tokens an ability spends must be real tokens on your mat. Exploits are scored first at the end."),
    h("div", { class: "howto-exploits" }, guide.exploits.map((e) => h("article", { class: "howto-exploit", id: `exploit-${e.id}`, "data-testid": `howto-exploit-${e.id}` },
      h("h4", {}, `${e.number}. ${e.name}`, h("span", { class: "muted" }, ` · ${e.regions.join(" + ")}`)),
      (e.paragraphs && e.paragraphs.length ? e.paragraphs : [e.rule]).map((/** @type {string} */ text) => p(text)),
      p(b("Shields: "), e.shield)))),
  ];
}

/** @param {HTMLElement} root */
export async function howtoScreen(root) {
  document.title = "How to play · Endeavor";
  /** @type {Guide} */
  let guide;
  try {
    guide = await api.guide();
  } catch (err) {
    replace(root, h("p", { class: "error" }, `The rules cannot be read: ${err instanceof Error ? err.message : String(err)}`));
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
  const tabs = h("nav", { class: "howto-tabs", role: "tablist", "aria-label": "Rules" },
    TABS.map(([id, text]) => h("a", { href: tabHref(id), role: "tab", class: "btn", "data-testid": `howto-tab-${id}` }, text)));
  const panels = TABS.map(([id, text]) => h("section", {
    class: "card-box howto-section", id: `rules-${id}`, role: "tabpanel", "aria-label": text, "data-testid": `howto-${id}`,
  }, h("h2", {}, text), sections[id]));
  replace(root, h("div", { class: "howto", "data-testid": "howto" },
    h("a", { href: href("/"), class: "back" }, "← Lobby"),
    h("h1", {}, "How to play"),
    h("p", { class: "muted" }, "The rules as this app plays them, in short. Ruling ids (R…, P…) name the project's decisions where the rulebooks leave a question open."),
    tabs, panels));

  function show() {
    const want = decodeURIComponent(location.hash.slice(1));
    const current = TABS.some(([id]) => id === want) ? want : TABS[0][0];
    for (const [i, [id]] of TABS.entries()) {
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
