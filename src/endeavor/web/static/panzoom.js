// @ts-check
// Pan and zoom for the board: the SVG's viewBox follows a drag (one finger or the mouse),
// a pinch (two fingers), a double tap or double click, Ctrl + wheel (a trackpad's pinch)
// and the + / − buttons. The frame (`wrap`) stays; the game screen hands it each newly
// drawn <svg> and the view carries over. On a phone the view never zooms out below
// `minScale` CSS px per board unit, so that every target (≥ 40 × 40 units, the board's
// promise) stays at least 32 × 32 px; on a desktop it can show the whole board.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** @typedef {{ x0: number, y0: number, x1: number, y1: number }} Box a box in board units */

/** CSS px per board unit that makes a 40-unit target 32 px (with a little to spare):
 * board.js gives every target a hit area of at least 40 × 40 units. */
export const PHONE_MIN_SCALE = 0.82;
const MOVE_SLOP = 8; // px a pointer moves before a tap becomes a drag
const DOUBLE_TAP_MS = 320;

/**
 * The element an event happened on is inside something matching `selector`.
 * @param {Event} event
 * @param {string} selector
 */
function hit(event, selector) {
  return event.target instanceof Element && event.target.closest(selector) !== null;
}

/**
 * The scale (CSS px per board unit) that shows the whole board in a frame.
 * @param {{ width: number, height: number }} frame the frame's size in CSS px
 * @param {{ w: number, h: number }} board the drawing's size in units
 */
export function fitScale(frame, board) {
  return Math.min(frame.width / board.w, frame.height / board.h);
}

/**
 * The scales the view may take, [lowest, highest]: never below the whole board nor (but
 * in an overview) below the phone minimum `min`; up to 4 times the lowest, at least 2.5.
 * @param {number} fit the whole board's scale (fitScale)
 * @param {number} min the phone minimum (0: none)
 * @param {boolean} overview ⤢ on a phone: the whole board allowed below the minimum
 * @returns {[number, number]}
 */
export function scaleLimits(fit, min, overview) {
  const lo = overview ? fit : Math.max(fit, min);
  return [lo, Math.max(lo * 4, 2.5)];
}

/**
 * A view's centre on one axis, kept so that the view (`view` units wide) never leaves the
 * board's span [start, start + length]; a view wider than the span is centred on it.
 * @param {number} c the wanted centre
 * @param {number} start
 * @param {number} length
 * @param {number} view
 */
export function clampAxis(c, start, length, view) {
  return view >= length ? start + length / 2
    : Math.min(start + length - view / 2, Math.max(start + view / 2, c));
}

/**
 * Make `wrap` a pan-and-zoom frame. `minScale()` is the phone minimum (0: none);
 * `onChange()` runs after the view moves. Returns {setSvg, focus, fit, zoomBy, refresh, scale}.
 * @param {HTMLElement} wrap
 * @param {{ minScale?: () => number, onChange?: () => void }} [options]
 */
export function panZoom(wrap, { minScale = () => 0, onChange = () => {} } = {}) {
  /** @type {SVGSVGElement | null} */
  let svg = null;
  let board = { x: 0, y: 0, w: 1200, h: 800 }; // the drawing's own viewBox
  let scale = 0; // CSS px per unit; 0 until first laid out
  let cx = 0; // the view's centre, in units
  let cy = 0;
  let fitted = true; // the view follows "the whole board" (desktop default) on resize
  /** @type {string | null} the selector of a focus asked while the frame had no size */
  let pending = null;
  let pendingAll = false;
  /** @type {string | null} the selector of what the view shows, until the player moves it */
  let following = null;
  let followingAll = false; // ... and whether all of them (⤢ on a phone), see `overview`
  // ⤢ on a phone showed all of a decision's targets, further out than the phone's minimum:
  // allowed until the player zooms in past that minimum, or the next focus
  let overview = false;
  let blockClick = false; // the click that ends a drag is not a click on what lies under it
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let blockTimer;
  /** @type {{ t: number, x: number, y: number } | null} */
  let lastTap = null;
  let lastTouchUp = 0;

  /**
   * @param {string} label
   * @param {string} title
   * @param {string} testid
   * @param {() => void} fn
   */
  const button = (label, title, testid, fn) => h("button", {
    type: "button", class: "pz-btn", title, "aria-label": title, "data-testid": testid,
    onclick: (/** @type {Event} */ event) => { event.stopPropagation(); fn(); },
  }, label);
  const controls = h("div", { class: "pz-controls", role: "toolbar", "aria-label": t("map.zoom") },
    button("+", t("map.zoom_in"), "zoom-in", () => zoomBy(1.5)),
    button("−", t("map.zoom_out"), "zoom-out", () => zoomBy(1 / 1.5)),
    button("⤢", t("map.zoom_reset"), "zoom-reset", () => reset()));
  wrap.classList.add("pz");
  wrap.append(controls);

  function rect() {
    return svg ? svg.getBoundingClientRect() : wrap.getBoundingClientRect();
  }
  /** @param {{ width: number, height: number }} r */
  function wholeScale(r) {
    return fitScale(r, board);
  }
  /** @param {{ width: number, height: number }} r */
  function limits(r) {
    return scaleLimits(wholeScale(r), minScale(), overview);
  }
  function laidOut() {
    const r = rect();
    return svg && svg.isConnected && r.width > 0 && r.height > 0;
  }

  /** Clamp and write the viewBox; the board never leaves the frame (but see `spare`). */
  function apply() {
    if (!laidOut()) return;
    const r = rect();
    const [lo, hi] = limits(r);
    if (fitted || !scale) {
      scale = lo;
      cx = board.x + board.w / 2;
      cy = board.y + board.h / 2;
    }
    scale = Math.min(hi, Math.max(lo, scale));
    const vw = r.width / scale;
    const vh = r.height / scale;
    // zoomed in, the view may run past the board's right edge by the zoom buttons' width,
    // so that whatever lies at that edge can be brought out from under them
    const spare = scale > wholeScale(r) * 1.01 ? (wrap.clientWidth - controls.offsetLeft + 12) / scale : 0;
    cx = clampAxis(cx, board.x, board.w + spare, vw);
    cy = clampAxis(cy, board.y, board.h, vh);
    if (!svg) return;
    svg.setAttribute("viewBox", `${cx - vw / 2} ${cy - vh / 2} ${vw} ${vh}`);
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    wrap.classList.toggle("zoomed", scale > wholeScale(r) * 1.01);
    onChange();
  }

  /**
   * The board unit under the client point (x, y).
   * @param {number} x
   * @param {number} y
   * @returns {[number, number]}
   */
  function unitAt(x, y) {
    const r = rect();
    return [cx + (x - r.left - r.width / 2) / scale, cy + (y - r.top - r.height / 2) / scale];
  }

  /** Zoom by `factor` keeping the unit under (x, y) (client px; default: the centre) still. */
  /**
   * @param {number} factor
   * @param {number | null} [x]
   * @param {number | null} [y]
   */
  function zoomBy(factor, x = null, y = null) {
    if (!laidOut()) return;
    const r = rect();
    const px = x === null ? r.left + r.width / 2 : x;
    const py = y === null ? r.top + r.height / 2 : y;
    const [ux, uy] = unitAt(px, py);
    const [lo, hi] = limits(r);
    scale = Math.min(hi, Math.max(lo, scale * factor));
    if (overview && scale >= minScale()) overview = false;
    fitted = false;
    following = null;
    cx = ux - (px - r.left - r.width / 2) / scale;
    cy = uy - (py - r.top - r.height / 2) / scale;
    apply();
  }

  /**
   * The elements' union in board units (from their boxes on screen), or null.
   * @param {Iterable<Element>} elements
   */
  function unitBox(elements) {
    /** @type {Box | null} */
    let box = null;
    for (const el of elements) {
      const b = el.getBoundingClientRect();
      if (!b.width && !b.height) continue;
      const [x0, y0] = unitAt(b.left, b.top);
      const [x1, y1] = unitAt(b.right, b.bottom);
      box = box ? { x0: Math.min(box.x0, x0), y0: Math.min(box.y0, y0), x1: Math.max(box.x1, x1), y1: Math.max(box.y1, y1) }
        : { x0, y0, x1, y1 };
    }
    return box;
  }

  /**
   * Show the board's elements that match `selector` (a decision's targets, a review's
   * rings; looked up in the board drawn when the focus happens): zoomed to their box, at most
   * to a view about a region wide; when they do not fit at the smallest zoom, the
   * biggest group of them that does; beside or above the zoom buttons in the frame's
   * corner when one under them would otherwise be hidden. `all`: every one of them, even
   * when that takes a view further out than a phone's minimum (⤢: where they all are;
   * the player zooms in to tap). The view keeps following them when the frame changes
   * size, until the player moves it. False when there is nothing to show.
   * @param {string} selector
   * @param {{ all?: boolean }} [options]
   */
  function focus(selector, { all = false } = {}) {
    const els = svg ? [...svg.querySelectorAll(selector)] : [];
    following = null;
    overview = false;
    if (!els.length) return false;
    if (!laidOut()) {
      pending = selector;
      pendingAll = all;
      return true;
    }
    pending = null;
    if (!scale) apply();
    const r = rect();
    const [lo] = limits(r);
    const floor = all ? wholeScale(r) : lo; // how far out the view may go
    const items = els.flatMap((el) => {
      const box = unitBox([el]);
      return box ? [{ el, box }] : [];
    });
    if (!items.length) return false;
    const pad = 24;
    const middle = (/** @type {Box} */ b) => [(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2];
    const regions = new Set(els.flatMap((el) => el.closest("[data-region]") || []));
    const region = regions.size === 1 ? unitBox(regions) : null;
    const most = Math.max(lo, Math.min(r.width / 600, r.height / 400)); // a region and around it
    const union = unionOf(items.map((it) => it.box));
    /**
     * Show them in the frame's top left `w` × `hgt` px.
     * @param {number} w
     * @param {number} hgt
     */
    const place = (w, hgt) => {
      const viewW = w / floor;
      const viewH = hgt / floor;
      // all of them, else the window (at the smallest zoom) that holds the most
      let chosen = items;
      if (union.x1 - union.x0 + 2 * pad > viewW || union.y1 - union.y0 + 2 * pad > viewH) {
        /** @type {typeof items} */
        let best = [];
        for (const anchor of items) {
          const [ax, ay] = middle(anchor.box);
          const inside = items.filter((it) => {
            const [x, y] = middle(it.box);
            return Math.abs(x - ax) <= viewW / 2 - pad && Math.abs(y - ay) <= viewH / 2 - pad;
          });
          if (inside.length > best.length) best = inside;
        }
        chosen = best;
      }
      // a region's worth of context around them: the region they all lie in, when one does
      let box = unionOf(chosen.map((it) => it.box));
      const around = region ? unionOf([box, region]) : null;
      if (around && around.x1 - around.x0 <= viewW && around.y1 - around.y0 <= viewH) box = around;
      scale = Math.max(floor, Math.min(most, w / (box.x1 - box.x0 + 2 * pad), hgt / (box.y1 - box.y0 + 2 * pad)));
      overview = scale < lo - 1e-9; // (only with `all`: floor < lo)
      cx = (box.x0 + box.x1) / 2 + (r.width - w) / 2 / scale;
      cy = (box.y0 + box.y1) / 2 + (r.height - hgt) / 2 / scale;
      fitted = false;
      apply();
    };
    // a target under the zoom buttons (the frame's bottom right corner) cannot be tapped:
    // of the whole frame, the part beside the buttons and the part above them, the one
    // that shows the most targets clear of them (the first of those that tie)
    const buttons = controls.getBoundingClientRect();
    const gap = 6;
    const inFrame = (/** @type {DOMRect} */ b) => {
      const [x, y] = [(b.left + b.right) / 2, (b.top + b.bottom) / 2];
      return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
    };
    const under = (/** @type {DOMRect} */ b) => b.right > buttons.left - gap && b.bottom > buttons.top - gap
      && b.left < buttons.right + gap && b.top < buttons.bottom + gap;
    const clear = () => items.filter(({ el }) => {
      const b = el.getBoundingClientRect();
      return inFrame(b) && !under(b);
    }).length;
    /** @type {[number, number][]} */
    const areas = [[r.width, r.height]];
    if (buttons.width && buttons.height) {
      areas.push([buttons.left - gap - r.left, r.height], [r.width, buttons.top - gap - r.top]);
    }
    let best = areas[0];
    let bestShown = -1;
    let placed = null;
    for (const area of areas) {
      if (area[0] < r.width / 2 || area[1] < r.height / 2) continue;
      place(...area);
      placed = area;
      const shown = clear();
      if (shown > bestShown) [best, bestShown] = [area, shown];
      if (shown === items.length) break;
    }
    if (placed !== best) place(...best);
    if (bestShown < items.length) {
      // some are still under them: nudged left or up out from under them, when that
      // does not lose more than it gains
      const hidden = items.map(({ el }) => el.getBoundingClientRect())
        .filter((b) => inFrame(b) && under(b));
      const dx = Math.max(0, ...hidden.map((b) => b.right - buttons.left + gap)) / scale;
      const dy = Math.max(0, ...hidden.map((b) => b.bottom - buttons.top + gap)) / scale;
      const [x0, y0] = [cx, cy];
      let [bx, by] = [x0, y0];
      for (const [nx, ny] of [[x0 + dx, y0], [x0, y0 + dy]]) {
        [cx, cy] = [nx, ny];
        apply();
        const shown = clear();
        if (shown > bestShown) [bx, by, bestShown] = [nx, ny, shown];
      }
      [cx, cy] = [bx, by];
      apply();
    }
    following = selector;
    followingAll = all;
    return true;
  }

  /** Back to the start: the whole board, or on a phone all of the current decision's
   * targets (further out than the phone's minimum when they do not fit it). */
  function reset() {
    if (!(minScale() > 0 && focus(".target", { all: true }))) fit();
  }

  function fit() {
    fitted = true;
    overview = false;
    following = null;
    apply();
  }

  /**
   * A newly drawn board: keep the view (its viewBox is the drawing's whole extent).
   * @param {SVGSVGElement} next
   */
  function setSvg(next) {
    if (svg && svg !== next) svg.remove();
    svg = next;
    const box = next.viewBox && next.viewBox.baseVal;
    if (box && box.width && box.height) board = { x: box.x, y: box.y, w: box.width, h: box.height };
    wrap.style.setProperty("--board-ratio", `${board.w} / ${board.h}`);
    if (next.parentNode !== wrap) wrap.prepend(next);
    apply();
  }

  /** The frame changed size: the same view, or again the targets it was showing. */
  function refresh() {
    if (pending && laidOut()) focus(pending, { all: pendingAll });
    else if (!(following && laidOut() && focus(following, { all: followingAll }))) apply();
  }

  // ------------------------------------------------------------ pointers
  /** @type {Map<number, { x: number, y: number }>} the pointers down, by id */
  const pointers = new Map();
  /**
   * @type {{ start: { x: number, y: number, d: number }, ux: number, uy: number, scale: number,
   *   moved: boolean } | null} the drag or pinch going on: where it started
   */
  let gesture = null;

  function centroid() {
    const pts = [...pointers.values()];
    const x = pts.reduce((a, p) => a + p.x, 0) / pts.length;
    const y = pts.reduce((a, p) => a + p.y, 0) / pts.length;
    const d = pts.length > 1 ? Math.hypot(pts[0].x - pts[1].x, pts[0].y - pts[1].y) : 0;
    return { x, y, d };
  }

  function begin(moved = false) {
    if (!pointers.size) {
      gesture = null;
      return;
    }
    const c = centroid();
    const [ux, uy] = unitAt(c.x, c.y);
    gesture = { start: c, ux, uy, scale, moved };
  }

  wrap.addEventListener("pointerdown", (event) => {
    blockClick = false;
    if (!laidOut() || hit(event, ".pz-controls")) return;
    if (event.pointerType === "mouse" && event.button !== 0) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    begin(gesture ? gesture.moved : false);
  });

  wrap.addEventListener("pointermove", (event) => {
    if (!pointers.has(event.pointerId) || !gesture) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const c = centroid();
    if (!gesture.moved) {
      if (Math.hypot(c.x - gesture.start.x, c.y - gesture.start.y) < MOVE_SLOP
        && (pointers.size < 2 || Math.abs(c.d - gesture.start.d) < MOVE_SLOP)) return;
      gesture.moved = true;
      for (const id of pointers.keys()) {
        try { wrap.setPointerCapture(id); } catch { /* the pointer is gone */ }
      }
    }
    const r = rect();
    const [lo, hi] = limits(r);
    if (pointers.size > 1 && gesture.start.d > 0) {
      scale = Math.min(hi, Math.max(lo, gesture.scale * (c.d / gesture.start.d)));
      if (overview && scale >= minScale()) overview = false;
    }
    fitted = false;
    following = null;
    cx = gesture.ux - (c.x - r.left - r.width / 2) / scale;
    cy = gesture.uy - (c.y - r.top - r.height / 2) / scale;
    apply();
    event.preventDefault();
  });

  /** @param {PointerEvent} event */
  function up(event) {
    if (!pointers.has(event.pointerId)) return;
    pointers.delete(event.pointerId);
    const moved = Boolean(gesture && gesture.moved);
    if (moved && !pointers.size) {
      blockClick = true;
      clearTimeout(blockTimer);
      blockTimer = setTimeout(() => { blockClick = false; }, 300);
    }
    if (event.pointerType === "touch") {
      lastTouchUp = Date.now();
      if (!moved && event.type === "pointerup" && !pointers.size && !hit(event, ".target")) {
        const now = Date.now();
        if (lastTap && now - lastTap.t < DOUBLE_TAP_MS
          && Math.hypot(event.clientX - lastTap.x, event.clientY - lastTap.y) < 30) {
          doubleZoom(event.clientX, event.clientY);
          lastTap = null;
        } else {
          lastTap = { t: now, x: event.clientX, y: event.clientY };
        }
      }
    }
    begin(moved);
  }
  wrap.addEventListener("pointerup", up);
  wrap.addEventListener("pointercancel", up);

  /**
   * A double tap: closer, and from the closest back out to the smallest zoom.
   * @param {number} x
   * @param {number} y
   */
  function doubleZoom(x, y) {
    const [, hi] = limits(rect());
    zoomBy(scale >= hi * 0.99 ? 0.01 : 2, x, y);
  }

  // a drag that ends on a target is not a click on it
  wrap.addEventListener("click", (event) => {
    if (!blockClick || hit(event, ".pz-controls")) return;
    blockClick = false;
    event.stopPropagation();
    event.preventDefault();
  }, true);

  wrap.addEventListener("dblclick", (event) => {
    if (Date.now() - lastTouchUp < 800 || hit(event, ".target, .pz-controls")) return;
    event.preventDefault();
    doubleZoom(event.clientX, event.clientY);
  });

  wrap.addEventListener("wheel", (event) => {
    if (!laidOut()) return;
    if (event.ctrlKey) {
      event.preventDefault();
      zoomBy(Math.exp(-event.deltaY * 0.01), event.clientX, event.clientY);
    } else if (wrap.classList.contains("zoomed")) {
      event.preventDefault();
      fitted = false;
      following = null;
      cx += event.deltaX / scale;
      cy += event.deltaY / scale;
      apply();
    }
  }, { passive: false });

  new ResizeObserver(() => refresh()).observe(wrap);

  return {
    setSvg,
    focus,
    fit,
    zoomBy,
    refresh,
    scale: () => scale,
  };
}

/**
 * The smallest box holding every one of `boxes` (at least one).
 * @param {Box[]} boxes
 * @returns {Box}
 */
export function unionOf(boxes) {
  return boxes.reduce((a, b) => ({
    x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1),
  }));
}
