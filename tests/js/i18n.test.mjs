// The front end's words (i18n.js, static/i18n/*.json): the catalogs agree, every key the
// modules ask for exists, the language chosen, plurals.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { afterEach, test } from "node:test";

import { MemoryStorage } from "./storage.mjs";
import { catalog } from "./catalogs.mjs";
import { STORAGE_KEY, botName, locale, pluralForm, setCatalog, setLocale, t } from "../../src/endeavor/web/static/i18n.js";

const en = catalog("en");
const fr = catalog("fr");
const STATIC = new URL("../../src/endeavor/web/static/", import.meta.url);

/** @param {string} text */
const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test("every English key has a French text with the same placeholders, and back", () => {
  assert.deepEqual(Object.keys(fr).sort(), Object.keys(en).sort());
  for (const [key, text] of Object.entries(en)) {
    assert.equal(typeof fr[key], "string", key);
    assert.deepEqual(placeholders(fr[key]), placeholders(text), key);
  }
});

test("every t(\"key\") of the static modules is in the English catalog", () => {
  const missing = [];
  for (const file of readdirSync(STATIC).filter((f) => f.endsWith(".js"))) {
    const source = readFileSync(new URL(file, STATIC), "utf8");
    for (const m of source.matchAll(/\bt\(\s*"([^"]+)"/g)) {
      const key = m[1];
      if (!(key in en) && !(`${key}_one` in en && `${key}_other` in en)) missing.push(`${file}: ${key}`);
    }
  }
  assert.deepEqual(missing, []);
});

const realNavigator = Object.getOwnPropertyDescriptor(globalThis, "navigator");
const realStorage = Object.getOwnPropertyDescriptor(globalThis, "localStorage");
afterEach(() => {
  for (const [name, real] of [["navigator", realNavigator], ["localStorage", realStorage]]) {
    if (real) Object.defineProperty(globalThis, name, real);
    else delete /** @type {any} */ (globalThis)[name];
  }
});

/** @param {string[]} languages @param {MemoryStorage} [storage] */
function browser(languages, storage = new MemoryStorage()) {
  Object.defineProperty(globalThis, "navigator", { value: { languages, language: languages[0] }, configurable: true });
  Object.defineProperty(globalThis, "localStorage", { value: storage, configurable: true });
  return storage;
}

test("locale: the browser's first language we speak, else English; a choice kept wins", () => {
  browser(["fr-CA", "en"]);
  assert.equal(locale(), "fr");
  browser(["de"]);
  assert.equal(locale(), "en");
  browser(["de-DE", "EN-gb", "fr"]);
  assert.equal(locale(), "en");
  const storage = browser(["fr-CA", "en"]);
  storage.setItem(STORAGE_KEY, "en");
  assert.equal(locale(), "en");
  setLocale("fr");
  assert.equal(storage.getItem(STORAGE_KEY), "fr");
  assert.equal(locale(), "fr");
  setLocale("xx"); // not a language we speak: nothing changes
  assert.equal(locale(), "fr");
});

test("plurals: French counts 0 and 1 as singular, English 1 only", () => {
  assert.deepEqual([0, 1, 2].map((n) => pluralForm("en", n)), ["other", "one", "other"]);
  assert.deepEqual([0, 1, 2].map((n) => pluralForm("fr", n)), ["one", "one", "other"]);
  assert.deepEqual([0, 1, 2].map((n) => t("chat.left", { n }, "en")), ["0 left", "1 left", "2 left"]);
  assert.deepEqual([0, 1, 2].map((n) => t("chat.left", { n }, "fr")),
    ["0 caractère restant", "1 caractère restant", "2 caractères restants"]);
});

test("t: placeholders filled, English when a language lacks the key, the key when none has it", () => {
  assert.equal(t("game.round", { round: 3, rounds: 7, phase: "Actions" }, "en"), "Round 3/7 · Actions");
  assert.equal(t("game.round", { round: 3, rounds: 7, phase: "Actions" }, "fr"), "Manche 3/7 · Actions");
  assert.equal(t("turn.your_move", {}, "de"), "Your move");
  assert.equal(t("no.such.key"), "no.such.key");
});

test("a bot level is named in the reader's language wherever a text names it", () => {
  setCatalog("en", { "seat.bot": "P{p} ({bot} bot)", "botname.medium": "medium" });
  setCatalog("fr", { "seat.bot": "P{p} (robot {bot})", "botname.medium": "moyen" });
  assert.equal(t("seat.bot", { p: 1, bot: "medium" }, "fr"), "P1 (robot moyen)");
  assert.equal(t("seat.bot", { p: 1, bot: "medium" }, "en"), "P1 (medium bot)");
  assert.equal(botName("medium", "fr"), "moyen");
  assert.equal(botName("future-level", "fr"), "future-level");
});
