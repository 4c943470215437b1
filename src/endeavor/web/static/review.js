// @ts-check
// The post-game review: the Review tab of a finished game's page and of the replay viewer.
// GET /api/games/{id}/review says how the review stands: queued or running (a progress bar
// in words, looked at again every few seconds), done (a summary per player, a chart of
// every player's expected final glory over the game, the list of decisions), failed, or
// none (a button asks for it). A decision links to the replay viewer at that step, with
// the better move shown (replay.js: reviewNote, markMoves).

import { api, ApiError } from "./api.js";
import { COLOURS, h, href, replace, s, title } from "./dom.js";
import { seatTag, seatWords } from "./names.js";
import { phaseName } from "./gamecontrol.js";
import { t } from "./i18n.js";

/** @typedef {import("./types.js").Label} Label */
/** @typedef {import("./types.js").Review} Review */
/** @typedef {import("./types.js").ReviewBody} ReviewBody */
/** @typedef {import("./types.js").ReviewDecision} ReviewDecision */
/** @typedef {import("./types.js").ReviewPlayer} ReviewPlayer */
/** @typedef {(d: ReviewDecision, children: import("./types.js").Child[], testid?: string | null) => HTMLAnchorElement} PickLink */

/** @type {Label[]} */
export const LABELS = ["best", "good", "inaccuracy", "mistake", "blunder"];
/** @type {Record<string, string>} each label's sign (as chess annotates moves) beside its word: never colour alone */
const MARKS = { best: "★", good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??" };
/** How often a review under way is looked at again (ms). */
const POLL_MS = 1500;

const one = (/** @type {number} */ x) => (Math.round(x * 10) / 10).toFixed(1);
const pct = (/** @type {number} */ x) => `${Math.round(x * 100)}%`;
const colour = (/** @type {number} */ seat) => COLOURS[seat % COLOURS.length];

/**
 * A label as a badge: its colour, its sign and its word.
 * @param {string} label
 * @param {number | null} [count]
 */
export function labelBadge(label, count = null) {
  return h("span", { class: `rv-badge rv-l-${label}`, "data-label": label },
    h("span", { class: "rv-mark", "aria-hidden": "true" }, MARKS[label] || ""),
    count === null ? labelWord(label) : `${labelWord(label)} ${count}`);
}

/**
 * A label's word in the reader's language ("best", "mistake"...: the review's codes).
 * @param {string} label
 */
export function labelWord(label) {
  const key = `review.label_${label}`;
  const words = t(key);
  return words === key ? label : words;
}

/**
 * The replay viewer at the position of decision `step` (after step − 1 actions), showing it.
 * @param {string} id
 * @param {number} step
 */
export function replayHref(id, step) {
  return href(`/replay/${encodeURIComponent(id)}/${step - 1}?review=${step}`);
}

/**
 * "R3 · Actions"
 * @param {ReviewDecision} d
 */
function when(d) {
  return d.round ? t("review.when", { round: d.round, phase: phaseName(d.phase) }) : phaseName(d.phase);
}

/**
 * The moves of decision `d` in words (from the review's `moves`, else its notation).
 * @param {ReviewBody} body
 * @param {ReviewDecision} d
 */
export function movesOf(body, d) {
  const m = (body.moves || {})[String(d.step)] || {};
  return {
    played: m.played || d.played, best: m.best || d.best,
    playedTargets: m.played_targets || [], bestTargets: m.best_targets || [],
  };
}

/**
 * What the replay viewer shows at decision `d` of the review `body`: who decided, the
 * label, the move played and the better move with the glory it would have kept.
 * `marked`: the elements markMoves ringed (the hint names only the rings drawn: a Pass
 * or Done has no place on the table).
 * @param {ReviewBody} body
 * @param {ReviewDecision} d
 * @param {Element[] | null} [marked]
 */
export function reviewNote(body, d, marked = null) {
  const moves = movesOf(body, d);
  const drawn = (/** @type {string} */ cls) => (marked ? marked.some((el) => el.classList.contains(cls)) : true);
  const m = {
    ...moves,
    bestTargets: drawn("rv-best") ? moves.bestTargets : [],
    playedTargets: drawn("rv-played") ? moves.playedTargets : [],
  };
  const same = d.played === d.best;
  const lost = d.glory_loss >= 0.05 || d.win_loss >= 0.005;
  return h("div", { class: "rv-note", "data-testid": "review-note", style: `--seat:${colour(d.seat)}` },
    h("p", { class: "rv-note-head" }, h("b", {}, t("review.decision_of", { seat: seatWords(d.seat) })),
      ` · ${t("review.step", { n: d.step })} · ${when(d)} `, labelBadge(d.label)),
    h("p", { "data-testid": "review-played" }, h("span", { class: "rv-key" }, t("review.played")), m.played,
      !same && lost ? h("span", { class: "rv-loss" }, ` (${d.win_loss >= 0.005
        ? t("review.lost_win", { glory: one(d.glory_loss), win: pct(d.win_loss) })
        : t("review.lost", { glory: one(d.glory_loss) })})`) : null),
    same
      ? h("p", { class: "rv-better same", "data-testid": "review-better" }, t("review.same"))
      : lost
        ? h("p", { class: "rv-better", "data-testid": "review-better" }, h("span", { class: "rv-key" }, t("review.better")),
          m.best, ` (${d.win_loss >= 0.005
            ? t("review.kept_win", { glory: one(d.glory_loss), win: pct(d.win_loss) })
            : t("review.kept", { glory: one(d.glory_loss) })})`)
        : h("p", { class: "rv-better same", "data-testid": "review-better" }, h("span", { class: "rv-key" }, t("review.bot_move")),
          m.best, ` ${t("review.no_better")}`),
    !same && (m.bestTargets.length || m.playedTargets.length)
      ? h("p", { class: "hint" }, m.bestTargets.length && m.playedTargets.length ? t("review.rings_both")
        : m.bestTargets.length ? t("review.rings_best") : t("review.rings_played"))
      : null);
}

/**
 * Ring the places of decision `d`'s moves (its better move, the move played) in `root`.
 * @param {ParentNode} root
 * @param {ReviewBody | null} body
 * @param {ReviewDecision | null} d
 * @returns {Element[]}
 */
export function markMoves(root, body, d) {
  for (const el of root.querySelectorAll(".rv-best, .rv-played")) el.classList.remove("rv-best", "rv-played");
  if (!d || !body) return [];
  const m = movesOf(body, d);
  /** @type {Element[]} */
  const marked = [];
  const ring = (/** @type {string[]} */ targets, /** @type {string} */ cls) => {
    for (const t of targets) {
      for (const el of root.querySelectorAll(`[data-target="${CSS.escape(t)}"]`)) {
        el.classList.add(cls);
        marked.push(el);
      }
    }
  };
  if (d.played !== d.best) ring(m.playedTargets, "rv-played");
  ring(m.bestTargets, "rv-best");
  return marked;
}

// ------------------------------------------------------------------ the chart
/**
 * Round numbers for an axis from `lo` to `hi`: about `count` ticks.
 * @param {number} lo
 * @param {number} hi
 * @param {number} count
 */
export function ticks(lo, hi, count) {
  const raw = (hi - lo) / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw || 1));
  const stepSize = [1, 2, 5, 10].map((k) => k * mag).find((k) => k >= raw) || 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / stepSize) * stepSize; v <= hi + 1e-9; v += stepSize) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}

/**
 * A chart's frame, into `grid`: a gridline and a label at each of `yTicks` (in `yWords`),
 * a label under the bottom axis at each of `xTicks`, the two axes and their titles.
 * @param {SVGGElement} grid
 * @param {{ W: number, H: number, M: { left: number, right: number, top: number, bottom: number },
 *   X: (v: number) => number, Y: (v: number) => number }} frame
 * @param {{ yTicks: number[], xTicks: number[], xTitle: string, yTitle: string,
 *   yWords?: (v: number) => string }} axes
 */
export function chartAxes(grid, { W, H, M, X, Y }, { yTicks, xTicks, xTitle, yTitle, yWords = String }) {
  for (const v of yTicks) {
    grid.append(s("line", { class: "rv-gridline", x1: M.left, x2: W - M.right, y1: Y(v), y2: Y(v) }),
      s("text", { class: "rv-tick", x: M.left - 6, y: Y(v) + 4, "text-anchor": "end" }, yWords(v)));
  }
  for (const v of xTicks) {
    grid.append(s("text", { class: "rv-tick", x: X(v), y: H - M.bottom + 15, "text-anchor": "middle" }, String(v)));
  }
  const middle = (M.top + H - M.bottom) / 2;
  grid.append(
    s("line", { class: "rv-axis", x1: M.left, x2: W - M.right, y1: H - M.bottom, y2: H - M.bottom }),
    s("line", { class: "rv-axis", x1: M.left, x2: M.left, y1: M.top, y2: H - M.bottom }),
    s("text", { class: "rv-axis-title", x: (M.left + W - M.right) / 2, y: H - 4, "text-anchor": "middle" }, xTitle),
    s("text", { class: "rv-axis-title", x: 12, y: middle, "text-anchor": "middle", transform: `rotate(-90 12 ${middle})` }, yTitle));
}

/**
 * The chart of every player's expected final glory over the game (`review.curve`), drawn
 * for `width` CSS px: one line per player in their colour, named at its end; the rounds
 * shaded and numbered; the mistakes (○) and blunders (✕) marked on the mover's line.
 * @param {Review} review
 * @param {number} width
 * @param {{ pick?: ((d: ReviewDecision) => void) | null }} [options]
 */
export function glorySvg(review, width, { pick = null } = {}) {
  const curve = review.curve || [];
  const n = review.config.players;
  const phoneSized = width < 520;
  const W = Math.max(280, Math.round(width));
  const H = Math.round(Math.min(340, Math.max(210, W * (phoneSized ? 0.62 : 0.42))));
  const M = { left: 40, right: 58, top: 24, bottom: 36 };
  const svg = s("svg", { class: "rv-chart-svg", "data-testid": "review-chart", viewBox: `0 0 ${W} ${H}`,
    width: W, height: H, role: "img",
    "aria-label": t("review.chart_label", { glory: curve.length
      ? curve[curve.length - 1].glory.map((g, p) => `P${p} ${one(g)}`).join(", ") : t("review.no_data") }) });
  if (curve.length < 1) return svg;
  const x0 = curve[0].step;
  const x1 = Math.max(x0 + 1, review.actions, curve[curve.length - 1].step);
  let lo = Infinity;
  let hi = -Infinity;
  for (const c of curve) for (const g of c.glory) { lo = Math.min(lo, g); hi = Math.max(hi, g); }
  const pad = Math.max(2, (hi - lo) * 0.08);
  lo = Math.max(0, Math.floor(lo - pad));
  hi = Math.ceil(hi + pad);
  const X = (/** @type {number} */ step) => M.left + ((step - x0) / (x1 - x0)) * (W - M.left - M.right);
  const Y = (/** @type {number} */ g) => M.top + (1 - (g - lo) / (hi - lo || 1)) * (H - M.top - M.bottom);
  // the rounds: shaded one in two, numbered at the top
  /** @type {{ round: number, from: number, to: number }[]} */
  const bands = [];
  for (const c of curve) {
    const last = bands[bands.length - 1];
    if (last && last.round === c.round) last.to = c.step;
    else {
      if (last) last.to = c.step;
      bands.push({ round: c.round, from: c.step, to: c.step });
    }
  }
  const grid = s("g", { class: "rv-grid" });
  bands.forEach((b, i) => {
    const a = X(b.from);
    const z = X(i + 1 < bands.length ? bands[i + 1].from : x1);
    if (b.round % 2 === 1) grid.append(s("rect", { class: "rv-band", x: a, y: M.top, width: Math.max(0, z - a), height: H - M.top - M.bottom }));
    if (z - a >= 16 && b.round > 0) grid.append(s("text", { class: "rv-round", x: (a + z) / 2, y: M.top - 8, "text-anchor": "middle" }, t("review.round", { round: b.round })));
  });
  chartAxes(grid, { W, H, M, X, Y }, { yTicks: ticks(lo, hi, phoneSized ? 4 : 6),
    xTicks: ticks(x0, x1, phoneSized ? 4 : 8), xTitle: t("review.axis_actions"), yTitle: t("review.axis_glory") });
  svg.append(title(t("review.chart_title")), grid);
  // one line per player, named at its end (names pushed apart so that none overlap)
  const ends = [];
  for (let p = 0; p < n; p++) {
    const d = curve.map((c, i) => `${i ? "L" : "M"}${X(c.step).toFixed(1)},${Y(c.glory[p]).toFixed(1)}`).join("");
    svg.append(s("path", { class: "rv-line", "data-seat": p, d, stroke: colour(p) }, title(seatWords(p))));
    const lastG = curve[curve.length - 1].glory[p];
    ends.push({ p, y: Y(lastG), g: lastG });
  }
  ends.sort((a, b) => a.y - b.y);
  for (let i = 1; i < ends.length; i++) ends[i].y = Math.max(ends[i].y, ends[i - 1].y + 13);
  const overflow = ends.length ? ends[ends.length - 1].y - (H - M.bottom) : 0;
  if (overflow > 0) for (const e of ends) e.y -= overflow;
  for (const e of ends) {
    svg.append(s("text", { class: "rv-end", x: W - M.right + 5, y: e.y + 4, fill: colour(e.p) }, `P${e.p} ${Math.round(e.g)}`));
  }
  // the mistakes and blunders, on the line of the player who made them
  const marks = s("g", { class: "rv-marks" });
  for (const d of review.decisions || []) {
    if (d.label !== "mistake" && d.label !== "blunder") continue;
    const cx = X(d.step);
    const cy = Y(d.glory_after[d.seat]);
    const tip = title(t("review.mark_tip", { n: d.step, seat: seatWords(d.seat), label: labelWord(d.label), glory: one(d.glory_loss) }));
    const g = s("g", { class: `rv-mark-${d.label}`, "data-step": d.step, tabindex: pick ? 0 : null, role: pick ? "button" : null }, tip);
    if (d.label === "mistake") g.append(s("circle", { cx, cy, r: 4.5, stroke: colour(d.seat) }));
    else g.append(s("path", { d: `M${cx - 4.5},${cy - 4.5}L${cx + 4.5},${cy + 4.5}M${cx - 4.5},${cy + 4.5}L${cx + 4.5},${cy - 4.5}`, stroke: colour(d.seat) }));
    if (pick) {
      g.addEventListener("click", () => pick(d));
      g.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") pick(d); });
    }
    marks.append(g);
  }
  svg.append(marks);
  return svg;
}

/**
 * The chart in a figure that redraws it when its width changes (a phone turned, a tab opened).
 * @param {Review} review
 * @param {((d: ReviewDecision) => void) | null} pick
 */
function chartFigure(review, pick) {
  const holder = h("div", { class: "rv-chart-holder" });
  const figure = h("figure", { class: "rv-chart" },
    h("figcaption", {}, h("b", {}, t("review.chart_heading")), h("span", { class: "muted" }, ` · ${t("review.chart_caption")}`)),
    holder,
    h("div", { class: "rv-legend" }, Array.from({ length: review.config.players }, (_, p) =>
      h("span", { class: "rv-legend-item" }, h("span", { class: "rv-swatch", style: `background:${colour(p)}` }), seatWords(p)))));
  let drawn = 0;
  const draw = () => {
    const width = holder.clientWidth;
    if (!width || Math.abs(width - drawn) < 2) return;
    drawn = width;
    replace(holder, glorySvg(review, width, { pick }));
  };
  if (typeof ResizeObserver === "function") new ResizeObserver(draw).observe(holder);
  requestAnimationFrame(draw);
  holder.append(glorySvg(review, 640, { pick })); // until it is laid out
  return figure;
}

// ------------------------------------------------------------------ the summary and the list
/**
 * The search budget in words: "200 iterations a decision", "up to 200 iterations a
 * decision, where the choice is contested" (the contested policy).
 * @param {number | null | undefined} iterations
 * @param {string | null | undefined} policy
 */
function budgetWords(iterations, policy) {
  return policy === "contested"
    ? t("review.budget_contested", { n: Number(iterations) })
    : t("review.budget", { n: Number(iterations) });
}

/**
 * @param {ReviewBody} body
 * @param {ReviewPlayer} p
 * @param {PickLink} pickLink
 */
function playerCard(body, p, pickLink) {
  const review = /** @type {Review} */ (body.review);
  const scores = review.final_scores || [];
  const best = scores.length ? Math.max(...scores) : null;
  const byStep = new Map(review.decisions.map((d) => [d.step, d]));
  const phases = Object.entries(p.by_phase || {}).filter(([, v]) => v >= 0.05);
  const most = phases.length ? Math.max(...phases.map(([, v]) => v)) : 1;
  return h("article", { class: "rv-player", style: `--seat:${colour(p.seat)}`, "data-testid": `review-player-${p.seat}` },
    h("header", { class: "rv-player-head" },
      h("h3", {}, seatTag(p.seat)),
      p.final !== null && p.final !== undefined
        ? h("span", { class: "rv-final" }, `${t("review.glory", { n: p.final })}${p.final === best ? " ★" : ""}`) : null),
    h("p", { class: "rv-accuracy" }, h("b", { "data-testid": `review-accuracy-${p.seat}` }, p.decisions ? `${Math.round(p.accuracy)}%` : "–"),
      h("span", { class: "muted" }, ` ${t("review.accuracy", { n: p.decisions })}`)),
    h("p", { class: "rv-counts" }, LABELS.map((l) => labelBadge(l, p.labels[l] || 0))),
    h("p", { class: "rv-lost" }, t("review.glory_lost"), h("b", {}, one(p.glory_lost)),
      p.decisions ? h("span", { class: "muted" }, ` · ${t("review.win_lost", { win: pct(p.win_lost / p.decisions) })}`) : null),
    h("h4", {}, t("review.by_phase")),
    phases.length
      ? h("ul", { class: "rv-phases" }, phases.map(([phase, v]) => h("li", {},
        h("span", { class: "rv-phase" }, phaseName(phase)),
        h("span", { class: "rv-phase-bar" }, h("span", { style: `width:${Math.max(4, (v / most) * 100)}%` })),
        h("span", { class: "rv-phase-v" }, one(v)))))
      : h("p", { class: "muted" }, t("review.none")),
    h("h4", {}, t("review.biggest")),
    p.worst.length
      ? h("ol", { class: "rv-worst" }, p.worst.map((step) => {
        const d = byStep.get(step);
        if (!d) return null;
        const m = movesOf(body, d);
        return h("li", {}, pickLink(d, [h("span", { class: "rv-step" }, t("review.step_cap", { n: d.step })), " ", labelBadge(d.label), " ",
          h("span", {}, m.played), h("span", { class: "muted" }, ` → ${t("review.better_move", { move: m.best })}`),
          h("span", { class: "rv-loss" }, ` −${one(d.glory_loss)}`)]));
      }))
      : h("p", { class: "muted" }, t("review.no_worse")));
}

/**
 * @param {ReviewBody} body
 * @param {ReviewDecision} d
 * @param {PickLink} pickLink
 */
function decisionRow(body, d, pickLink) {
  const m = movesOf(body, d);
  const same = d.played === d.best;
  return h("li", { class: `rv-item rv-is-${d.label}`, "data-step": d.step, "data-seat": d.seat },
    pickLink(d, [
      h("span", { class: "rv-when" }, h("b", {}, String(d.step)), h("span", { class: "muted" }, when(d))),
      h("span", { class: "rv-who", style: `--seat:${colour(d.seat)}` }, seatWords(d.seat)),
      labelBadge(d.label),
      h("span", { class: "rv-moves" },
        h("span", { class: "rv-playedmove" }, same ? "" : h("span", { class: "rv-key" }, t("review.played")), m.played),
        same ? h("span", { class: "muted rv-same" }, ` ${t("review.bot_too")}`)
          : h("span", { class: "rv-bestmove" }, h("span", { class: "rv-key" },
            d.glory_loss < 0.05 && d.win_loss < 0.005 ? t("review.as_good") : t("review.better")), m.best)),
      h("span", { class: "rv-cost" }, same || d.glory_loss < 0.05 ? "" : `−${one(d.glory_loss)}`,
        !same && d.win_loss >= 0.005 ? h("small", {}, ` ${t("review.win", { win: pct(d.win_loss) })}`) : null),
    ], "review-decision"));
}

/**
 * @param {string} id
 * @param {ReviewBody} body
 * @param {((d: ReviewDecision) => void) | null} pick
 * @param {(() => number | null) | null} selected
 */
function doneHtml(id, body, pick, selected) {
  const review = /** @type {Review} */ (body.review);
  /** @type {PickLink} */
  const pickLink = (d, children, testid = null) => h("a", {
    class: "rv-link", href: replayHref(id, d.step), "data-step": d.step, "data-testid": testid,
    "aria-current": selected && selected() === d.step ? "true" : null,
    onclick: pick ? (/** @type {MouseEvent} */ event) => {
      if (event.ctrlKey || event.metaKey || event.shiftKey || event.button) return;
      event.preventDefault();
      pick(d);
    } : null,
  }, children);
  const who = h("select", { class: "rv-filter-seat", "aria-label": t("review.whose"), "data-testid": "review-filter-seat" },
    h("option", { value: "" }, t("review.every_player")),
    review.players.map((p) => h("option", { value: String(p.seat) }, seatWords(p.seat))));
  const worse = h("input", { type: "checkbox", "data-testid": "review-filter-bad" });
  const list = h("ol", { class: "rv-list", "data-testid": "review-list", "aria-label": t("review.list_label") },
    review.decisions.map((d) => decisionRow(body, d, pickLink)));
  const filter = () => {
    const seat = who.value;
    for (const li of /** @type {HTMLCollectionOf<HTMLElement>} */ (list.children)) {
      const bad = !["best", "good"].includes((li.className.match(/rv-is-(\w+)/) || ["", ""])[1]);
      li.hidden = (seat !== "" && li.dataset.seat !== seat) || (worse.checked && !bad);
    }
  };
  who.addEventListener("change", filter);
  worse.addEventListener("change", filter);
  const limits = review.thresholds || {};
  const rule = (/** @type {string} */ l) => (limits[l] && limits[l].glory_loss_below !== undefined
    ? t("review.under", { glory: limits[l].glory_loss_below, win: Math.round(limits[l].win_loss_below * 100) }) : null);
  return [
    h("div", { class: "rv-head" },
      h("h2", {}, t("review.heading")),
      h("p", { class: "muted", "data-testid": "review-meta" },
        t(review.players.length === 2 ? "review.meta_two" : "review.meta", { n: review.decisions.length, players: review.players.length,
          bot: review.bot || "hard", budget: budgetWords(review.iterations, review.policy) })),
      h("details", { class: "rv-how" }, h("summary", {}, t("review.how")),
        h("p", {}, t("review.how_text")),
        h("p", {}, t("review.labels_intro"),
          labelBadge("best"), ` ${t("review.labels_best")} `,
          ["good", "inaccuracy", "mistake"].map((l) => [labelBadge(l), ` ${rule(l) || ""}; `]),
          labelBadge("blunder"), ` ${t("review.labels_blunder")}`))),
    h("div", { class: "rv-top" },
      chartFigure(review, pick),
      h("div", { class: "rv-players" }, review.players.map((p) => playerCard(body, p, pickLink)))),
    h("section", { class: "rv-decisions" },
      h("div", { class: "rv-list-head" }, h("h3", {}, t("review.every_decision")),
        h("label", { class: "rv-filter" }, who),
        h("label", { class: "rv-filter" }, worse, ` ${t("review.worse_only")}`)),
      list),
  ];
}

// ------------------------------------------------------------------ the panel
/**
 * The Review panel of game `id`. `pick(decision)`: what a click on a decision does (the
 * replay viewer shows it in place; default: the link opens the replay viewer there);
 * `selected()`: the step shown (marked in the list); `onDone(body)`: the review has come.
 * Returns {el, start, stop, body}.
 * @param {string} id
 * @param {{ pick?: ((d: ReviewDecision) => void) | null, selected?: (() => number | null) | null,
 *   onDone?: ((body: ReviewBody) => void) | null }} [options]
 */
export function reviewPanel(id, { pick = null, selected = null, onDone = null } = {}) {
  const el = h("section", { class: "review-panel", "data-testid": "review", "aria-label": t("review.label") });
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let stopped = true;
  /** @type {ReviewBody | null} the review as last fetched */
  let body = null;
  /** @type {string | null} */
  let drawnStatus = null;

  const again = () => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(load, POLL_MS);
  };

  async function ask() {
    try {
      await api.requestReview(id);
    } catch (err) {
      replace(el, h("p", { class: "error" }, err instanceof Error ? err.message : String(err)));
      return;
    }
    load();
  }

  /** @param {ReviewBody} b */
  function progressHtml(b) {
    const running = b.status === "running" && b.total !== null;
    const words = running
      ? t("review.reviewing", { done: String(b.done), n: Number(b.total) })
      : t("review.waiting");
    const eta = running && typeof b.eta_seconds === "number" ? etaWords(b.eta_seconds) : null;
    return [
      h("h2", {}, t("review.heading")),
      h("p", { class: "rv-progress-words", "data-testid": "review-progress" }, words,
        eta ? h("span", { class: "rv-eta", "data-testid": "review-eta" }, ` · ${eta}`) : null),
      running
        ? h("progress", { class: "rv-progress", max: b.total || 1, value: b.done, "aria-label": words })
        : h("progress", { class: "rv-progress", "aria-label": words }),
      h("p", { class: "hint", "data-testid": "review-bot" }, t("review.server_reviews", { bot: b.bot || "hard", budget: budgetWords(b.iterations, b.policy) })),
    ];
  }

  /**
   * "about 3 minutes left", "less than a minute left" (an estimate: rounded up).
   * @param {number} seconds
   */
  function etaWords(seconds) {
    if (seconds < 60) return t("review.eta_short");
    const minutes = Math.ceil(seconds / 60);
    if (minutes < 60) return t("review.eta_minutes", { n: minutes });
    const hours = Math.floor(minutes / 60);
    const rest = minutes % 60;
    return rest ? t("review.eta_hours_min", { n: hours, min: rest }) : t("review.eta_hours", { n: hours });
  }

  /** @param {ReviewBody} b */
  function draw(b) {
    body = b;
    if (b.status === "done" && b.review) {
      if (drawnStatus !== "done") {
        replace(el, doneHtml(id, b, pick, selected));
        el.dataset.status = "done";
        drawnStatus = "done";
        if (onDone) onDone(b);
      }
      return;
    }
    drawnStatus = b.status;
    el.dataset.status = b.status;
    if (b.status === "queued" || b.status === "running") {
      replace(el, progressHtml(b));
      again();
    } else if (b.status === "failed") {
      replace(el, h("h2", {}, t("review.heading")),
        h("p", { class: "error", "data-testid": "review-failed" }, t("review.failed", { error: b.error || t("review.no_reason") })),
        b.enabled ? h("button", { type: "button", class: "btn", onclick: ask }, t("common.try_again")) : null);
    } else {
      replace(el, h("h2", {}, t("review.heading")),
        b.enabled
          ? [h("p", {}, t("review.not_yet")),
            h("button", { type: "button", class: "btn primary", "data-testid": "review-request", onclick: ask }, t("review.request"))]
          : h("p", { class: "muted", "data-testid": "review-off" }, t("review.off")));
    }
  }

  async function load() {
    if (stopped) return;
    try {
      draw(await api.review(id));
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        el.dataset.status = "not-over";
        replace(el, h("h2", {}, t("review.heading")), h("p", { class: "muted" }, t("review.not_over")));
      } else {
        replace(el, h("h2", {}, t("review.heading")), h("p", { class: "error" }, err instanceof Error ? err.message : String(err)));
        again();
      }
    }
  }

  return {
    el,
    start() {
      if (!stopped) return;
      stopped = false;
      if (drawnStatus !== "done") {
        if (!el.childElementCount) replace(el, h("p", { class: "muted" }, t("review.loading")));
        load();
      }
    },
    stop() { stopped = true; clearTimeout(timer); },
    body: () => body,
    /**
     * Mark the decision shown (the replay viewer).
     * @param {number} step
     */
    mark(step) {
      for (const a of /** @type {NodeListOf<HTMLAnchorElement>} */ (el.querySelectorAll(".rv-list .rv-link"))) {
        const on = Number(a.dataset.step) === step;
        if (on) a.setAttribute("aria-current", "true");
        else a.removeAttribute("aria-current");
      }
    },
  };
}
