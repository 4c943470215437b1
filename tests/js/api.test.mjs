// The API client (api.js): what a request sends, and the words of each failure (never
// the browser's own "Failed to fetch"). fetch is replaced by a stand-in per test.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import "./catalogs.mjs";
import { MemoryStorage } from "./storage.mjs";
import { ApiError, UNREACHABLE, api, request } from "../../src/endeavor/web/static/api.js";
import { STORAGE_KEY } from "../../src/endeavor/web/static/i18n.js";

const realFetch = globalThis.fetch;
afterEach(() => { globalThis.fetch = realFetch; });

/**
 * Answer every fetch with `status` and `body` (text); record the requests.
 * @param {number} status
 * @param {string} body
 */
function answer(status, body) {
  /** @type {{ url: string, init: RequestInit }[]} */
  const seen = [];
  globalThis.fetch = /** @type {typeof fetch} */ (async (url, init) => {
    seen.push({ url: String(url), init: init || {} });
    return new Response(body, { status });
  });
  return seen;
}

/** @param {Promise<unknown>} promise */
async function failure(promise) {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof ApiError, String(err));
    return err;
  }
  assert.fail("no error");
}

test("a request sends JSON with the token, and parses the answer", async () => {
  const seen = answer(200, JSON.stringify({ seq: 4 }));
  assert.deepEqual(await api.act("g 1", "tok", "pass", 3), { seq: 4 });
  const { url, init } = seen[0];
  assert.equal(url, "/api/games/g%201/actions?lang=en"); // the view in the page's language
  assert.equal(init.method, "POST");
  assert.equal(init.body, JSON.stringify({ action: "pass", seq: 3 }));
  const headers = /** @type {Record<string, string>} */ (init.headers);
  assert.equal(headers.Authorization, "Bearer tok");
  assert.equal(headers["Content-Type"], "application/json");
});

test("a GET without a token sends neither body nor Authorization", async () => {
  const seen = answer(200, "");
  assert.equal(await request("GET", "/api/meta"), null, "an empty answer is null");
  const headers = /** @type {Record<string, string>} */ (seen[0].init.headers);
  assert.equal(seen[0].init.body, undefined);
  assert.ok(!("Authorization" in headers) && !("Content-Type" in headers));
});

test("every request asks for the page's language: a refusal's reason comes in it", async () => {
  const seen = answer(403, JSON.stringify({ detail: "ce lien n'est pas celui de l'hôte de cette partie" }));
  const kept = globalThis.localStorage;
  const storage = new MemoryStorage();
  storage.setItem(STORAGE_KEY, "fr"); // the reader chose French, whatever the browser says
  globalThis.localStorage = storage;
  try {
    const err = await failure(api.host("g", "tok"));
    assert.equal(err.message, "ce lien n'est pas celui de l'hôte de cette partie"); // as given
  } finally {
    globalThis.localStorage = kept;
  }
  const headers = /** @type {Record<string, string>} */ (seen[0].init.headers);
  assert.equal(headers["Accept-Language"], "fr");
  await failure(request("POST", "/api/games/g/chat", { body: { body: "" } }));
  assert.equal(/** @type {Record<string, string>} */ (seen[1].init.headers)["Accept-Language"], "en");
});

test("the server's reason, as a string or a list of field errors", async () => {
  answer(409, JSON.stringify({ detail: "stale seq" }));
  let err = await failure(request("GET", "/x"));
  assert.equal(err.status, 409);
  assert.equal(err.message, "stale seq");
  answer(422, JSON.stringify({ detail: [{ loc: ["body", "seats"], msg: "too many" }, { odd: 1 }] }));
  err = await failure(request("GET", "/x"));
  assert.equal(err.message, 'body.seats: too many; {"odd":1}');
});

test("a proxy's page is not the server's reason", async () => {
  answer(502, "<html>Bad Gateway</html>");
  let err = await failure(request("GET", "/x"));
  assert.equal(err.message, "The server is not answering (HTTP 502): try again in a moment");
  answer(404, "Not Found");
  err = await failure(request("GET", "/x"));
  assert.equal(err.message, "HTTP 404");
});

test("a network failure is status 0 with words of its own", async () => {
  globalThis.fetch = async () => { throw new TypeError("Failed to fetch"); };
  const err = await failure(request("GET", "/x"));
  assert.equal(err.status, 0);
  assert.equal(err.message, UNREACHABLE);
});
