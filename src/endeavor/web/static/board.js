// The board as SVG, drawn from the position JSON (view.position): regions with their
// shipping tracks, cities, trade routes, open seas, decks and Governors; the links; the
// discard pile; the Exploit tiles. Every element a move can be clicked on carries
// data-target="<id>" (the ids of docs/web.md); the game screen makes the legal ones live.

import { s, title, ownerColour, ownerName, tokenLabel } from "./dom.js";

const W = 1200;
const H = 800;

/** Where each region's panel lies: [x, y, width, height]. */
const PANELS = {
  NA: [15, 15, 380, 245],
  EU: [410, 15, 380, 320],
  FE: [805, 15, 380, 245],
  CA: [15, 275, 380, 245],
  IN: [805, 275, 380, 245],
  AF: [410, 350, 380, 250],
  SA: [15, 535, 380, 250],
};
const PILE_PANEL = [410, 615, 380, 170];
const EXPLOIT_PANEL = [805, 535, 380, 250];

const DECK_COLOURS = {
  EU: "#7b5ea7", SL: "#4b4b4b", AF: "#c0772c", SA: "#3f8f4a", CA: "#2a8c8c",
  NA: "#4f6db0", IN: "#b5523b", FE: "#a8842a",
};

/** A token badge (brown attribute token or blue action token) centred at (x, y). */
function tokenBadge(token, x, y, size = 9) {
  return s("g", { class: `token ${token.colour}` },
    s("rect", { x: x - size * 1.3, y: y - size * 0.8, width: size * 2.6, height: size * 1.6, rx: 3 }),
    s("text", { x, y: y + size * 0.35, "text-anchor": "middle", "font-size": size }, tokenLabel(token)));
}

function disc(owner, players, x, y, r) {
  return s("circle", {
    class: "disc", cx: x, cy: y, r, fill: ownerColour(owner, players),
  });
}

/** A card drawn small: code, what it gives, optional count badge. */
export function cardSvg(card, x, y, { w = 50, h = 70, count = null, id = null, label = null } = {}) {
  const colour = DECK_COLOURS[card.deck] || "#777";
  const g = s("g", { class: "card", "data-target": id },
    title(`${card.code}${card.governor ? " (Governor)" : ""}: ${card.gives}`),
    s("rect", { x, y, width: w, height: h, rx: 5, fill: "#fffdf6", stroke: colour, "stroke-width": 2 }),
    s("rect", { x, y, width: w, height: 16, rx: 5, fill: colour }),
    s("text", { x: x + w / 2, y: y + 12, "text-anchor": "middle", class: "card-code" },
      label || card.code));
  const parts = card.short ? card.short.split(" ") : [];
  parts.forEach((part, i) => {
    g.append(s("text", { x: x + w / 2, y: y + 30 + i * 11, "text-anchor": "middle", class: "card-icons" }, part));
  });
  if (count !== null) {
    g.append(s("circle", { cx: x + w - 4, cy: y + h - 4, r: 10, class: "count-badge" }),
      s("text", { x: x + w - 4, y: y + h - 0.5, "text-anchor": "middle", class: "count-text" }, count));
  }
  return g;
}

function emptyCard(x, y, text, w = 50, h = 70, id = null) {
  return s("g", { class: "card empty", "data-target": id },
    title(text),
    s("rect", { x, y, width: w, height: h, rx: 5, class: "card-empty" }),
    s("text", { x: x + w / 2, y: y + h / 2 + 3, "text-anchor": "middle", class: "card-icons" }, text));
}

function deckSvg(deck, x, y) {
  if (!deck.top) return emptyCard(x, y, `${deck.code} empty`, 50, 70, deck.id);
  const g = cardSvg(deck.top, x, y, { count: deck.size, id: deck.id });
  g.querySelector("title").textContent =
    `${deck.name} deck: ${deck.size} card(s); top ${deck.top.code} gives ${deck.top.gives}`;
  g.classList.add("deck");
  return g;
}

function governorSvg(region, x, y, players) {
  const gov = region.governor;
  if (!gov) return null;
  if (gov.where === "board") {
    const g = cardSvg(gov.card, x, y, { label: "Governor" });
    if (gov.winner !== null) {
      g.append(s("text", { x: x + 25, y: y + 84, "text-anchor": "middle", class: "small" },
        "→ ", s("tspan", { fill: ownerColour(gov.winner, players), "font-weight": 700 },
          ownerName(gov.winner, players))));
    }
    g.querySelector("title").textContent = `${region.name} Governor: ${gov.card.gives}` +
      (gov.winner !== null ? `; ${ownerName(gov.winner, players)} would take it now` : "");
    return g;
  }
  const text = gov.where === "player" ? `Gov ${ownerName(gov.holder, players)}` : "Gov gone";
  return emptyCard(x, y, text);
}

function siteSvg(site, x, y, players, centres) {
  centres[site.code] = [x, y];
  const r = 17;
  const shape = site.kind === "city"
    ? s("circle", { cx: x, cy: y, r, class: "site-shape" })
    : s("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, class: "site-shape route",
      transform: `rotate(45 ${x} ${y})` });
  const g = s("g", { class: `site ${site.kind}${site.tile ? " tile" : ""}`, "data-target": site.id },
    title(`${site.name} (${site.code})${site.kind === "route" ? ", trade route" : `, ${site.glory} glory`}` +
      (site.owner !== null ? `: ${ownerName(site.owner, players)}` : site.token ? `: token ${site.token.name}` : "")),
    shape);
  if (site.glory === 2) g.append(s("circle", { cx: x, cy: y, r: r + 4, class: "glory2" }));
  if (site.owner !== null) g.append(disc(site.owner, players, x, y, 12));
  else if (site.token) g.append(tokenBadge(site.token, x, y, 8));
  g.append(s("text", { x, y: y + r + 12, "text-anchor": "middle", class: "site-name" },
    site.name.length > 12 ? `${site.name.slice(0, 11)}…` : site.name));
  return g;
}

function trackSvg(region, x, y, players) {
  const track = region.track;
  const step = 30;
  const g = s("g", { class: "track", "data-target": track.id },
    title(`${region.name} shipping track: ${track.filled} of ${track.length} spaces taken`),
    s("rect", { x, y, width: track.length * step + 8, height: 34, rx: 17, class: "track-bg" }));
  track.spaces.forEach((space, i) => {
    const cx = x + 19 + i * step;
    const cy = y + 17;
    g.append(s("circle", { cx, cy, r: 13, class: "space" }));
    if (space.owner !== null) g.append(disc(space.owner, players, cx, cy, 11));
    else if (space.token) g.append(tokenBadge(space.token, cx, cy, 7));
  });
  return g;
}

function seaSvg(region, x, y, players) {
  const sea = region.sea;
  const g = s("g", { class: "sea", "data-target": sea.id },
    title(`${region.name} ${sea.label}`),
    s("rect", { x, y, width: 112, height: 44, rx: 10, class: "sea-bg" }),
    s("text", { x: x + 56, y: y + 12, "text-anchor": "middle", class: "small" }, sea.label));
  sea.discs.forEach((d, i) => {
    const cx = x + 14 + i * 24;
    g.append(disc(d.owner, players, cx, y + 29, 9),
      s("text", { x: cx, y: y + 32, "text-anchor": "middle", class: "disc-count" }, d.count));
  });
  return g;
}

function regionSvg(region, players, centres) {
  const [x, y, w, h] = PANELS[region.id];
  const g = s("g", { class: `region${region.open ? " open" : ""}`, id: `region-${region.id}` },
    s("rect", { x, y, width: w, height: h, rx: 14, class: "panel" }),
    s("text", { x: x + 14, y: y + 24, class: "region-name" }, region.name));
  const status = region.id === "EU" ? "always open"
    : region.open ? "open" : `closed · ${region.track.filled}/${region.track.length}`;
  g.append(s("text", { x: x + w - 12, y: y + 24, "text-anchor": "end",
    class: `region-status${region.open ? " is-open" : ""}` }, status));
  const sites = [...region.cities, ...region.routes];
  if (region.id === "EU") {
    sites.forEach((site, i) => {
      const col = i % 5;
      const row = Math.floor(i / 5);
      g.append(siteSvg(site, x + 36 + col * 66, y + 66 + row * 68, players, centres));
    });
    region.decks.forEach((deck, i) => g.append(deckSvg(deck, x + w - 122 + i * 58, y + h - 84)));
    if (region.abolished) {
      g.append(s("text", { x: x + w - 10, y: y + h - 90, "text-anchor": "end", class: "small" },
        "Slavery abolished"));
    }
    return g;
  }
  g.append(trackSvg(region, x + 10, y + 36, players));
  sites.forEach((site, i) => {
    const col = i % 4;
    const row = Math.floor(i / 4);
    g.append(siteSvg(site, x + 34 + col * 60, y + 118 + row * 66, players, centres));
  });
  g.append(deckSvg(region.decks[0], x + w - 118, y + 40));
  const gov = governorSvg(region, x + w - 62, y + 40, players);
  if (gov) g.append(gov);
  g.append(seaSvg(region, x + w - 122, y + h - 56, players));
  return g;
}

function linksSvg(links, centres, players) {
  const lines = s("g", { class: "links" });
  const markers = s("g", { class: "link-markers" });
  for (const link of links) {
    const a = centres[link.a];
    const b = centres[link.b];
    if (!a || !b) continue;
    const mx = (a[0] + b[0]) / 2;
    const my = (a[1] + b[1]) / 2;
    const bend = 0.12;
    const cx = mx - (b[1] - a[1]) * bend;
    const cy = my + (b[0] - a[0]) * bend;
    const colour = link.controller !== null ? ownerColour(link.controller, players) : null;
    lines.append(s("path", {
      d: `M${a[0]},${a[1]} Q${cx},${cy} ${b[0]},${b[1]}`,
      class: `link ${link.circular ? "circular" : "square"}${colour ? " controlled" : ""}`,
      stroke: colour,
    }));
    // the marker sits at the curve's midpoint
    const px = 0.25 * a[0] + 0.5 * cx + 0.25 * b[0];
    const py = 0.25 * a[1] + 0.5 * cy + 0.25 * b[1];
    const marker = s("g", { class: "link-marker", "data-target": link.id },
      title(`Link ${link.a}–${link.b} (${link.circular ? "circular" : "square"})` +
        (link.controller !== null ? `: ${ownerName(link.controller, players)}` :
          link.token ? `: token ${link.token.name}` : "")));
    if (link.token) marker.append(tokenBadge(link.token, px, py, 7));
    else if (colour) marker.append(s("circle", { cx: px, cy: py, r: 5, fill: colour, class: "disc" }));
    else marker.append(link.circular ? s("circle", { cx: px, cy: py, r: 4, class: "link-dot" })
      : s("rect", { x: px - 4, y: py - 4, width: 8, height: 8, class: "link-dot" }));
    markers.append(marker);
  }
  return [lines, markers];
}

function pileSvg(state) {
  const [x, y, w, h] = PILE_PANEL;
  const g = s("g", { class: "pile-panel" },
    s("rect", { x, y, width: w, height: h, rx: 14, class: "panel" }),
    s("text", { x: x + 14, y: y + 24, class: "region-name" }, "Discard pile"));
  if (state.ruleset === "classic") {
    g.append(s("text", { x: x + 14, y: y + 50, class: "small" },
      "2009 rules: discarded cards go back into their decks."));
    return g;
  }
  if (!state.pile.length) {
    g.append(s("text", { x: x + 14, y: y + 50, class: "small" }, "empty"));
    return g;
  }
  const step = Math.min(54, (w - 70) / Math.max(1, state.pile.length - 1));
  state.pile.forEach((card, i) => g.append(cardSvg(card, x + 14 + i * step, y + 40,
    { id: card.id, w: 50, h: 72 })));
  return g;
}

function wrapText(text, x, y, width, lineHeight, maxLines, cls) {
  // approximate wrapping for SVG text (no foreignObject needed)
  const perLine = Math.max(8, Math.floor(width / 5.2));
  const words = text.split(" ");
  const lines = [];
  let line = "";
  for (const word of words) {
    if ((line + " " + word).trim().length > perLine) {
      lines.push(line.trim());
      line = word;
    } else {
      line += ` ${word}`;
    }
  }
  if (line.trim()) lines.push(line.trim());
  if (lines.length > maxLines) {
    lines.length = maxLines;
    lines[maxLines - 1] += " …";
  }
  return s("text", { class: cls }, lines.map((l, i) => s("tspan", { x, y: y + i * lineHeight }, l)));
}

function exploitsSvg(state) {
  const [x, y, w, h] = EXPLOIT_PANEL;
  const tiles = [...state.exploits, ...state.variants];
  const g = s("g", { class: "exploit-panel" },
    s("rect", { x, y, width: w, height: h, rx: 14, class: "panel" }),
    s("text", { x: x + 14, y: y + 24, class: "region-name" },
      state.ruleset === "classic" ? "2009 rules" : tiles.length ? "Exploits" : "No Exploits"));
  if (!tiles.length) {
    g.append(s("text", { x: x + 14, y: y + 50, class: "small" },
      state.ruleset === "classic" ? "The 2009 game has no Exploits." : "This game plays without Exploits."));
    return g;
  }
  const tw = (w - 20 - (tiles.length - 1) * 8) / tiles.length;
  tiles.forEach((tile, i) => {
    const tx = x + 10 + i * (tw + 8);
    const ty = y + 36;
    const th = h - 46;
    const active = tile.active;
    const t = s("g", { class: `exploit${active ? " active" : ""}`, "data-target": tile.id },
      title(`${tile.name}: ${tile.text}`),
      s("rect", { x: tx, y: ty, width: tw, height: th, rx: 8, class: "exploit-bg" }),
      wrapText(tile.name, tx + 8, ty + 16, tw - 12, 13, 2, "exploit-name"));
    if (tile.regions) {
      t.append(s("text", { x: tx + 8, y: ty + 50, class: "small" },
        `${tile.regions.join(" + ")} · ${active ? "active" : "dormant"}`));
      tile.shields.forEach((p, k) => t.append(s("circle", {
        cx: tx + 14 + k * 16, cy: ty + 64, r: 6, fill: ownerColour(p, state.players_count), class: "disc",
      })));
      if (!tile.shields.length) t.append(s("text", { x: tx + 8, y: ty + 68, class: "small" }, "no Shields"));
    }
    t.append(wrapText(tile.text, tx + 8, ty + 86, tw - 12, 11, Math.floor((th - 90) / 11), "exploit-text"));
    g.append(t);
  });
  return g;
}

/** The whole board as an <svg> element. */
export function drawBoard(state) {
  const players = state.players_count;
  const centres = {};
  const svg = s("svg", {
    viewBox: `0 0 ${W} ${H}`, class: "board", role: "img", "data-testid": "board",
    "aria-label": `Board side ${state.board}, round ${state.round}, ${state.phase}`,
  });
  svg.append(s("rect", { x: 0, y: 0, width: W, height: H, class: "ocean" }));
  const regions = state.regions.map((region) => regionSvg(region, players, centres));
  // panels first, then the links above the panels, then the sites on top
  const panels = s("g", {});
  const sitesLayer = s("g", {});
  for (const g of regions) {
    const sites = [...g.querySelectorAll(".site")];
    for (const site of sites) sitesLayer.append(site);
    panels.append(g);
  }
  svg.append(panels, pileSvg(state), exploitsSvg(state));
  const [lines, markers] = linksSvg(state.links, centres, players);
  svg.append(lines, sitesLayer, markers);
  return svg;
}
