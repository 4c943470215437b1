// The front end's catalogs (static/i18n/*.json) installed for Node's tests, as the page's
// loadCatalogs() fetches them: import it before modules whose words a test reads.
import { readFileSync } from "node:fs";

import { setCatalog } from "../../src/endeavor/web/static/i18n.js";

/** @param {string} lang @returns {Record<string, string>} */
export function catalog(lang) {
  return JSON.parse(readFileSync(new URL(`../../src/endeavor/web/static/i18n/${lang}.json`, import.meta.url), "utf8"));
}

for (const lang of ["en", "fr"]) setCatalog(lang, catalog(lang));
