// @ts-check
// Tip cards: a small HTML card that says what a thing is and does, in words. Shown on
// hover with a mouse, on a long press (about 500 ms) with a finger or pen, and on
// keyboard focus; hidden when the pointer leaves, on a tap elsewhere, on Escape and when
// the element is redrawn away. Works for SVG and HTML elements alike: give an element a
// `data-tip` attribute (plain text; a first line ending in a newline is the card's
// heading) or register a function with `tip(el, fn)` that returns the card's content
// when it is shown. The card lives in <body>, never inside the element, so showing it
// changes nothing of the board or the mats.

import { h } from "./dom.js";

const LONG_PRESS_MS = 500;
const HOVER_DELAY_MS = 120;
const MOVE_SLOP = 10; // px a finger may drift during a long press

/**
 * What a tip card shows: words, a node, or a title, paragraphs and a foot.
 * @typedef {string | Node | { title?: string, lines?: (string | Node | null | undefined)[], foot?: string } | null} TipContent
 */

/** @type {WeakMap<Element, () => TipContent>} element -> () => content (see `tip`) */
const registry = new WeakMap();

/**
 * Give `el` a tip card. `content` is a string, or a function called when the card is
 * shown returning a string, a Node, or {title, lines: [string | Node], foot} (lines are
 * paragraphs). Returns `el` (so it can wrap a builder call).
 * @template {Element} E
 * @param {E} el
 * @param {TipContent | (() => TipContent)} content
 * @returns {E}
 */
export function tip(el, content) {
  if (el) registry.set(el, typeof content === "function" ? content : () => content);
  return el;
}

/**
 * The element holding `node` that has a tip card, or null.
 * @param {EventTarget | null} node
 * @returns {Element | null}
 */
function tipOwner(node) {
  for (let el = node instanceof Node ? node : null; el && el !== document; el = el.parentNode) {
    if (!(el instanceof Element)) continue;
    if (registry.has(el) || el.hasAttribute("data-tip")) return el;
  }
  return null;
}

/**
 * @param {Element} el
 * @returns {TipContent}
 */
function contentOf(el) {
  const made = registry.get(el);
  if (made) return made();
  const text = el.getAttribute("data-tip") || "";
  const [head, ...rest] = text.split("\n");
  return rest.length ? { title: head, lines: rest } : { lines: [text] };
}

/** @type {HTMLElement | null} the card shown */
let card = null;
/** @type {Element | null} whose card it is */
let shownFor = null;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let hoverTimer;
/** @type {{ el: Element, x: number, y: number, timer: ReturnType<typeof setTimeout> } | null} a long press going on */
let press = null;
let swallowClickUntil = 0;

/** @param {TipContent} content */
function build(content) {
  const body = h("div", { class: "tipcard", role: "tooltip", id: "tipcard", "data-testid": "tipcard" });
  if (content instanceof Node) body.append(content);
  else if (typeof content === "string") body.append(h("p", {}, content));
  else if (content) {
    if (content.title) body.append(h("div", { class: "tipcard-title" }, content.title));
    for (const line of content.lines || []) {
      if (line === null || line === undefined || line === "") continue;
      body.append(line instanceof Node ? line : h("p", {}, line));
    }
    if (content.foot) body.append(h("p", { class: "tipcard-foot" }, content.foot));
  }
  return body;
}

/**
 * Show the card of `el` (near it); `pinned` when a long press opened it.
 * @param {Element} el
 * @param {boolean} [pinned]
 */
export function showTip(el, pinned = false) {
  const content = contentOf(el);
  if (!content) return;
  hideTip();
  const shown = build(content);
  card = shown;
  if (pinned) shown.classList.add("pinned");
  document.body.append(shown);
  shownFor = el;
  place(shown, el.getBoundingClientRect());
}

export function hideTip() {
  clearTimeout(hoverTimer);
  card?.remove();
  card = null;
  shownFor = null;
}

/**
 * @param {HTMLElement} box
 * @param {DOMRect} rect
 */
function place(box, rect) {
  const gap = 8;
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  const { width, height } = box.getBoundingClientRect();
  let top = rect.bottom + gap;
  if (top + height > vh - 4 && rect.top - gap - height >= 4) top = rect.top - gap - height;
  top = Math.max(4, Math.min(top, vh - height - 4));
  let left = rect.left + rect.width / 2 - width / 2;
  left = Math.max(4, Math.min(left, vw - width - 4));
  box.style.left = `${Math.round(left)}px`;
  box.style.top = `${Math.round(top)}px`;
}

// the document's listeners (none when Node's tests import the module's neighbours)
if (typeof document !== "undefined") {
  // ------------------------------------------------------------------ the mouse
  document.addEventListener("pointerover", (event) => {
    if (event.pointerType !== "mouse") return;
    const el = tipOwner(event.target);
    if (!el || el === shownFor) return;
    clearTimeout(hoverTimer);
    hoverTimer = setTimeout(() => { if (el.isConnected) showTip(el); }, HOVER_DELAY_MS);
  });

  document.addEventListener("pointerout", (event) => {
    if (event.pointerType !== "mouse") return;
    const el = tipOwner(event.target);
    if (!el) return;
    const to = event.relatedTarget ? tipOwner(event.relatedTarget) : null;
    if (to === el) return;
    clearTimeout(hoverTimer);
    if (shownFor === el && !card?.classList.contains("pinned")) hideTip();
  });

  // ------------------------------------------------------------------ touch and pen: a long press
  function cancelPress() {
    if (press) clearTimeout(press.timer);
    press = null;
  }

  document.addEventListener("pointerdown", (event) => {
    const on = event.target instanceof Node ? event.target : null;
    if (card && !card.contains(on) && tipOwner(event.target) !== shownFor) hideTip();
    else if (card && card.classList.contains("pinned") && !card.contains(on)) hideTip();
    if (event.pointerType === "mouse") return;
    const el = tipOwner(event.target);
    cancelPress();
    if (!el) return;
    press = {
      el, x: event.clientX, y: event.clientY,
      timer: setTimeout(() => {
        if (!el.isConnected) return;
        showTip(el, true);
        swallowClickUntil = Date.now() + 900; // the finger's lift is no click on the thing
        press = null;
      }, LONG_PRESS_MS),
    };
  }, true);

  document.addEventListener("pointermove", (event) => {
    if (card && shownFor && !shownFor.isConnected) hideTip(); // the screen was redrawn under it
    if (press && Math.hypot(event.clientX - press.x, event.clientY - press.y) > MOVE_SLOP) cancelPress();
  }, true);
  document.addEventListener("pointerup", cancelPress, true);
  document.addEventListener("pointercancel", cancelPress, true);

  document.addEventListener("click", (event) => {
    if (Date.now() < swallowClickUntil) {
      swallowClickUntil = 0;
      event.stopPropagation();
      event.preventDefault();
    }
  }, true);

  // a long press opens the tip card, not the browser's menu
  document.addEventListener("contextmenu", (event) => {
    if (tipOwner(event.target) && (press || card?.classList.contains("pinned"))) event.preventDefault();
  }, true);

  // the keyboard: a piece reached with Tab shows its card too
  document.addEventListener("focusin", (event) => {
    const el = tipOwner(event.target);
    if (el && event.target instanceof Element && event.target.matches(":focus-visible")) showTip(el);
  });
  document.addEventListener("focusout", (event) => {
    if (shownFor && tipOwner(event.target) === shownFor) hideTip();
  });

  document.addEventListener("keydown", (event) => { if (event.key === "Escape") hideTip(); });
  window.addEventListener("scroll", () => { if (card && !card.classList.contains("pinned")) hideTip(); }, true);
}
