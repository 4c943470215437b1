// The panels' words in French (host, notifications, invitations, clocks, times): the
// reader's language chosen as the page does it (setLocale), the same functions as in
// English, and no English left in what they say.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";

import { MemoryStorage } from "./storage.mjs";
import { catalog } from "./catalogs.mjs";
import { setLocale } from "../../src/endeavor/web/static/i18n.js";
import { amount, clockWords, duration } from "../../src/endeavor/web/static/clock.js";
import { inviteText, seatWords } from "../../src/endeavor/web/static/invite.js";
import { agoWords, durationWords } from "../../src/endeavor/web/static/when.js";

const realStorage = Object.getOwnPropertyDescriptor(globalThis, "localStorage");
before(() => {
  Object.defineProperty(globalThis, "localStorage", { value: new MemoryStorage(), configurable: true });
  setLocale("fr");
});
after(() => {
  if (realStorage) Object.defineProperty(globalThis, "localStorage", realStorage);
  else delete /** @type {any} */ (globalThis).localStorage;
});

const NOW = new Date("2026-12-02T12:00:00Z");

test("times in French: ago, durations with their plurals", () => {
  assert.equal(agoWords("2026-12-02T11:59:30Z", NOW), "à l'instant");
  assert.equal(agoWords("2026-12-02T11:55:00Z", NOW), "il y a 5 min");
  assert.equal(agoWords("2026-11-29T11:00:00Z", NOW), "il y a 3 j");
  assert.equal(durationWords(59), "moins d'une minute");
  assert.equal(durationWords(3900), "1 heure 5 minutes");
  assert.equal(durationWords(3 * 86400 + 12 * 3600), "3 jours 12 heures");
});

test("clocks in French: amounts, durations and the settings in one line", () => {
  assert.equal(amount(86400), "1 jour");
  assert.equal(amount(3 * 86400), "3 jours");
  assert.equal(duration(2 * 86400 + 5 * 3600), "2 j 5 h");
  assert.equal(duration(5 * 3600 + 12 * 60), "5 h 12 min");
  assert.equal(clockWords({ kind: "live", bank: 1200, per_decision: 20, on_timeout: "game", bot: "medium", reclaim: true }),
    "Pendule en direct : 20 min chacun + 20 s par décision ; quand le temps est écoulé, le robot moyen joue le reste de la partie (le joueur peut reprendre sa place).");
  assert.equal(clockWords({ kind: "turn", bank: 0, per_decision: 86400, on_timeout: "decision", bot: "easy", reclaim: false }),
    "Pendule au tour par tour : 1 jour par décision ; quand le temps est écoulé, le robot facile joue cette décision.");
});

test("invitations in French: the seat's colour and shape, the game's title or none", () => {
  assert.equal(seatWords(1), "P1 (carré bleu)");
  assert.equal(seatWords(1, "Bo"), "P1 (Bo, carré bleu)");
  assert.equal(inviteText("Mardi", 0, "https://e.org/play/x#t"),
    "Vous êtes invité à Mardi en tant que P0 (cercle rouge) — https://e.org/play/x#t");
  assert.equal(inviteText(null, [0, 2], "https://e.org/play/x#t"),
    "Vous êtes invité à une partie d'Endeavor en tant que les places P0 (cercle rouge), P2 (losange jaune) — https://e.org/play/x#t");
});

const STATIC = new URL("../../src/endeavor/web/static/", import.meta.url);
/** The panels whose every word goes through the catalog. */
const PANELS = ["host.js", "notifypanel.js", "invite.js", "when.js", "clock.js", "review.js", "howto.js"];

test("the panels' modules write no English sentence of their own: every word is in the catalogs", () => {
  const en = catalog("en");
  const fr = catalog("fr");
  const found = [];
  for (const file of PANELS) {
    const source = readFileSync(new URL(file, STATIC), "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "").replace(/\s\/\/ .*$/gm, "");
    // a string literal of two words or more starting with a capital letter: a sentence
    for (const m of source.matchAll(/"([A-Z][a-z]+(?: [^"]+)+)"|`([A-Z][a-z]+ [^`$]+)`/g)) found.push(`${file}: ${m[1] || m[2]}`);
    for (const m of source.matchAll(/\bt\(\s*"([^"]+)"/g)) {
      const key = m[1];
      for (const [lang, words] of [["en", en], ["fr", fr]]) {
        if (!(key in words) && !(`${key}_one` in words && `${key}_other` in words)) found.push(`${file}: ${key} not in ${lang}`);
      }
    }
  }
  assert.deepEqual(found, []);
});

test("the review's labels in French, the codes the server sends named by the catalog", async () => {
  const { labelWord, LABELS } = await import("../../src/endeavor/web/static/review.js");
  assert.deepEqual(LABELS.map(labelWord), ["meilleur", "bon", "imprécision", "erreur", "gaffe"]);
  assert.equal(labelWord("unknown"), "unknown", "a label the catalog does not name stays as sent");
});
