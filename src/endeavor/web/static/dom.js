// @ts-check
// Small DOM helpers shared by every screen: element builders (HTML and SVG), toasts,
// the option popup and clipboard copy. No framework, no build step.

import { seatWords } from "./names.js";
import { t } from "./i18n.js";

/** @typedef {import("./types.js").Child} Child */
/** @typedef {import("./types.js").Attrs} Attrs */

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * The path the app is served under: "" at a server's root, "/endeavor" behind a reverse
 * proxy that serves it there (the server writes it into the page's <base href>).
 */
export const BASE = typeof document === "undefined" ? "" // imported outside a page: Node's tests
  : new URL(document.baseURI).pathname.replace(/\/+$/, "");

/**
 * The app's own address of `path` ("/api/games" -> BASE + "/api/games").
 * @param {string} path
 */
export function href(path) {
  return BASE + path;
}

/**
 * Build an HTML element: h("button", {class: "x", onclick: fn, "data-testid": "y"}, "text", child).
 * Attributes whose value is null/undefined/false are skipped; `on*` functions become listeners.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {Child[]} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/**
 * Build an SVG element the same way.
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {Child[]} children
 * @returns {SVGElementTagNameMap[K]}
 */
export function s(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

/**
 * @template {Element} E
 * @param {E} node
 * @param {Attrs | null | undefined} attrs
 * @param {readonly Child[]} children
 * @returns {E}
 */
function build(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    } else if (key === "text") {
      node.textContent = String(value);
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(node, children);
  return node;
}

/**
 * @param {Element} node
 * @param {readonly Child[]} children
 */
function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * An SVG <title> (a tooltip and an accessible name).
 * @param {string} text
 */
export function title(text) {
  return s("title", {}, text);
}

/**
 * Remove every child of `node` and append `children`.
 * @template {Element} E
 * @param {E} node
 * @param {Child[]} children
 * @returns {E}
 */
export function replace(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer;

/**
 * Show a short message at the bottom of the screen (kind: "error" | "info").
 * @param {string} message
 * @param {string} [kind]
 */
export function toast(message, kind = "error") {
  let box = document.getElementById("toast");
  if (!box) {
    box = h("div", { id: "toast", role: "status", "aria-live": "polite", "data-testid": "toast" });
  }
  const shown = box;
  // above an open modal dialog (the top layer), else on the page
  const parent = document.querySelector("dialog[open]") || document.body;
  if (box.parentNode !== parent) parent.append(box);
  box.className = `toast show ${kind}`;
  box.textContent = message;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => shown.classList.remove("show"), kind === "error" ? 6000 : 3000);
}

/** Close the option popup, if any. */
export function closePopup() {
  document.getElementById("popup")?.remove();
}

/**
 * A small menu near (x, y) offering `options` ({action, text}); `choose(option)` is called
 * with the one picked. Escape or a click elsewhere closes it.
 * @template {{ action: string, text: string }} O
 * @param {number} x
 * @param {number} y
 * @param {string} heading
 * @param {readonly O[]} options
 * @param {(option: O) => void} choose
 */
export function popup(x, y, heading, options, choose) {
  closePopup();
  const menu = h("div", { id: "popup", class: "popup", role: "menu", "data-testid": "popup" },
    h("div", { class: "popup-head" }, heading));
  for (const option of options) {
    menu.append(h("button", {
      class: "popup-item", role: "menuitem", "data-action": option.action,
      title: option.action,
      onclick: (/** @type {Event} */ event) => { event.stopPropagation(); closePopup(); choose(option); },
    }, option.text));
  }
  menu.append(h("button", { class: "popup-cancel", onclick: closePopup }, t("page.cancel")));
  document.body.append(menu);
  const rect = menu.getBoundingClientRect();
  const left = Math.max(8, Math.min(x, window.innerWidth - rect.width - 8));
  const top = Math.max(8, Math.min(y, window.innerHeight - rect.height - 8));
  menu.style.left = `${left + window.scrollX}px`;
  menu.style.top = `${top + window.scrollY}px`;
  menu.querySelector("button")?.focus();
}

if (typeof document !== "undefined") { // not when Node's tests import the helpers
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") closePopup(); });
  document.addEventListener("click", (event) => {
    const menu = document.getElementById("popup");
    if (menu && !(event.target instanceof Node && menu.contains(event.target))) closePopup();
  });
}

/**
 * Copy `text` to the clipboard (with a fallback for plain-http pages).
 * @param {string} text
 */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = h("textarea", {}, text);
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
  toast(t("page.copied"), "info");
}

/** Player colours by seat; the neutral Silent Fleet is grey. */
export const COLOURS = ["#d64541", "#2f6fd6", "#e2b203", "#2e9e55", "#9250c8"];
export const NEUTRAL = "#6b7280";

/**
 * The colour of a piece's owner (a seat, or the Silent Fleet past the players), or null.
 * @param {number | null | undefined} owner
 * @param {number} players
 */
export function ownerColour(owner, players) {
  if (owner === null || owner === undefined) return null;
  return owner >= players ? NEUTRAL : COLOURS[owner % COLOURS.length];
}

/**
 * @param {number} owner
 * @param {number} players
 */
export function ownerName(owner, players) {
  return owner >= players ? t("page.silent_fleet") : seatWords(owner);
}

/**
 * A Trade token's short label: Industry -> "Ind", Ship/Draw -> "S/D".
 * @param {{ name: string } | null | undefined} token
 */
export function tokenLabel(token) {
  if (!token) return "";
  if (token.name.includes("/")) return token.name.split("/").map((w) => w[0]).join("/");
  return token.name.slice(0, 3);
}

/**
 * A link the server gave, to follow: absolute already (a public address), or an app path.
 * @param {string} url
 */
export function linkHref(url) {
  return /^https?:/.test(url) ? url : href(url);
}

/**
 * A link the server gave, in full (to copy and send to someone).
 * @param {string} url
 */
export function fullUrl(url) {
  return /^https?:/.test(url) ? url : new URL(href(url), location.origin).href;
}

/**
 * A whole page that says what went wrong in words, with ways on (`actions`: elements,
 * usually links styled as buttons). Never a blank page.
 * @param {Element} root
 * @param {string} heading
 * @param {string | string[]} text
 * @param {Child[]} [actions]
 * @param {string} [testid]
 */
export function problemPage(root, heading, text, actions = [], testid = "problem") {
  document.title = `${heading} · Endeavor`;
  document.querySelector("link[rel~=icon]")?.setAttribute("href", href("/static/favicon.svg"));
  replace(root, h("section", { class: "card-box problem", "data-testid": testid, role: "alert" },
    h("h1", {}, heading),
    (Array.isArray(text) ? text : [text]).map((line) => h("p", {}, line)),
    h("div", { class: "row" }, actions)));
}

/**
 * A modal dialog with a heading and a Close button; returns {dialog, body}.
 * @param {string} heading
 * @param {string} testid
 */
export function modal(heading, testid) {
  const body = h("div", { class: "dialog-body" });
  const dialog = h("dialog", { class: "dialog", "data-testid": testid, "aria-label": heading },
    h("div", { class: "dialog-head" }, h("h2", {}, heading),
      h("button", { type: "button", class: "btn small", "data-testid": `${testid}-close`,
        onclick: () => dialog.close() }, t("page.close"))),
    body);
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  return { dialog, body };
}
