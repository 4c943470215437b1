// @ts-check
// The front end's own words in the reader's language (docs/web.md "Languages"): the
// language chosen (remembered in this browser), else the browser's, else English; the
// catalogs static/i18n/<lang>.json (flat: key -> text, `{name}` placeholders, plurals as
// `key_one` / `key_other` chosen by `n`), loaded once before the page is drawn. A key
// missing from the language's catalog falls back to English, then to the key itself.

import { h } from "./dom.js";

/** The languages the page (and the server's game views) speak. */
export const LANGUAGES = /** @type {const} */ (["en", "fr"]);
/** Where the reader's choice is kept (localStorage). */
export const STORAGE_KEY = "endeavor.lang";

/** @type {Record<string, Record<string, string>>} the catalogs loaded, by language */
const catalogs = { en: {}, fr: {} };

/** @param {unknown} lang @returns {lang is "en" | "fr"} */
function spoken(lang) {
  return typeof lang === "string" && /** @type {readonly string[]} */ (LANGUAGES).includes(lang);
}

/** The reader's language: the choice remembered, else the browser's first we speak, else English. */
export function locale() {
  try {
    const kept = globalThis.localStorage ? globalThis.localStorage.getItem(STORAGE_KEY) : null;
    if (spoken(kept)) return kept;
  } catch { /* storage refused: the browser's languages */ }
  const nav = globalThis.navigator;
  const langs = nav ? (nav.languages && nav.languages.length ? nav.languages : [nav.language]) : [];
  for (const tag of langs) {
    const primary = String(tag || "").toLowerCase().split("-")[0];
    if (spoken(primary)) return primary;
  }
  return "en";
}

/**
 * Remember the reader's language (this browser) and mark the page with it.
 * @param {string} lang
 */
export function setLocale(lang) {
  if (!spoken(lang)) return;
  try { globalThis.localStorage?.setItem(STORAGE_KEY, lang); } catch { /* not kept */ }
  if (globalThis.document) document.documentElement.lang = lang;
}

/**
 * Install a catalog (the page's loader, and the tests).
 * @param {string} lang
 * @param {Record<string, string>} words
 */
export function setCatalog(lang, words) {
  catalogs[lang] = { ...words };
}

/**
 * Fetch the English catalog and the reader's (once, before the page is drawn) and set
 * `<html lang>`. A catalog that cannot be fetched leaves English (or the keys).
 * @param {string} [base] the static files' address
 */
export async function loadCatalogs(base = new URL("./i18n/", import.meta.url).href) {
  const lang = locale();
  if (globalThis.document) document.documentElement.lang = lang;
  const wanted = lang === "en" ? ["en"] : ["en", lang];
  await Promise.all(wanted.map(async (l) => {
    try {
      const answer = await fetch(`${base}${l}.json`);
      if (answer.ok) setCatalog(l, await answer.json());
    } catch { /* the fallback */ }
  }));
}

/**
 * The plural form of `n` in `lang`: "one" or "other" (French: 0 and 1 are singular).
 * @param {string} lang
 * @param {number} n
 */
export function pluralForm(lang, n) {
  if (lang === "fr") return Math.abs(n) < 2 ? "one" : "other";
  return n === 1 ? "one" : "other";
}

/**
 * The text of `key` in the reader's language, `{name}` filled from `vars`; with a numeric
 * `vars.n`, `key_one` or `key_other` when the catalog has them; `vars.bot`, a bot level,
 * named in that language too (`botName`).
 * @param {string} key
 * @param {Record<string, string | number>} [vars]
 * @param {string} [lang] another language than the reader's
 */
export function t(key, vars = {}, lang = locale()) {
  // a `bot` variable is a bot level's name (easy, medium...): said in the reader's language
  if (typeof vars.bot === "string" && vars.bot) vars = { ...vars, bot: botName(vars.bot, lang) };
  let id = key;
  if (typeof vars.n === "number") {
    const form = `${key}_${pluralForm(lang, vars.n)}`;
    if (form in (catalogs[lang] || {}) || form in catalogs.en) id = form;
  }
  const text = (catalogs[lang] || {})[id] ?? catalogs.en[id] ?? id;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

/**
 * A bot level's name (`easy`, `medium`, `hard`...) in the reader's language: the
 * catalog's `botname.<level>`, else the level as the server names it.
 * @param {string} level
 * @param {string} [lang]
 */
export function botName(level, lang = locale()) {
  return (catalogs[lang] || {})[`botname.${level}`] ?? level;
}

/**
 * A phase's name (the state's, English) in the page's language; as given when the
 * catalog does not name it.
 * @param {string} phase
 */
export function phaseName(phase) {
  const key = `phase.${phase}`;
  const words = t(key);
  return words === key ? phase : words;
}

/**
 * The language switch (EN / FR): a choice reloads the page in that language.
 */
export function languageSwitch() {
  const current = locale();
  return h("span", { class: "lang-switch", role: "group", "aria-label": t("lang.switch"), "data-testid": "lang-switch" },
    LANGUAGES.map((lang) => h("button", {
      type: "button", class: `lang${lang === current ? " current" : ""}`, lang,
      "aria-pressed": lang === current ? "true" : "false", "data-testid": `lang-${lang}`,
      title: t(`lang.${lang}`), onclick: () => {
        if (lang === locale()) return;
        setLocale(lang);
        location.reload();
      },
    }, lang.toUpperCase())));
}
