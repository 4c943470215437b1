// @ts-check
// The HTTP API of docs/web.md: JSON requests and live updates (tokens.js keeps the tokens).

import { BASE, href } from "./dom.js";
import { locale, t } from "./i18n.js";

/** @typedef {import("./types.js").View} View */

const game = (/** @type {string} */ id) => `/api/games/${encodeURIComponent(id)}`;

/** The query of a call that answers with a game view: its words in the page's language. */
export const langQuery = () => `?lang=${encodeURIComponent(locale())}`;

/** An API error with the HTTP status and the server's reason. */
export class ApiError extends Error {
  /**
   * @param {number} status the HTTP status; 0 when the server could not be reached
   * @param {string} detail
   */
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

/** The token in the page's fragment (#<token>), or "". */
export function fragmentToken() {
  try {
    return decodeURIComponent(location.hash.replace(/^#/, "")).trim();
  } catch {
    return "";
  }
}

/** What a network failure says (never the browser's own words, "Failed to fetch"). */
export const UNREACHABLE = "The server cannot be reached: check your connection and try again";
/** The same, in the page's language. */
const unreachable = () => t("api.unreachable");

/**
 * @param {unknown} body the answer, parsed when it was JSON
 * @param {number} status
 * @param {boolean} json
 */
function detailText(body, status, json) {
  // a proxy's or gateway's own page (HTML, plain text) is not the server's reason
  if (!json && status >= 500) return t("api.not_answering", { status });
  if (!json) return `HTTP ${status}`;
  const detail = body && typeof body === "object" && "detail" in body ? body.detail : body;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    return detail.map((d) => (d && d.msg ? `${(d.loc || []).join(".")}: ${d.msg}` : JSON.stringify(d)))
      .join("; ");
  }
  return detail ? JSON.stringify(detail) : `HTTP ${status}`;
}

/**
 * fetch() a JSON endpoint; throws ApiError with the server's reason on failure.
 * @param {string} method
 * @param {string} path
 * @param {{ body?: unknown, token?: string, keepalive?: boolean }} [options]
 * @returns {Promise<any>} the parsed JSON answer: its shape is the endpoint's (docs/web.md)
 */
export async function request(method, path, { body, token, keepalive = false } = {}) {
  // every answer's words (a refusal's detail too) in the page's language, whatever the browser's
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json", "Accept-Language": locale() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(href(path), {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body), keepalive,
    });
  } catch {
    throw new ApiError(0, unreachable());
  }
  let data = null;
  let json = true;
  let text;
  try {
    text = await response.text();
  } catch {
    throw new ApiError(0, unreachable()); // the connection broke mid-answer
  }
  if (text) {
    try { data = JSON.parse(text); } catch { data = text; json = false; }
  }
  if (!response.ok) throw new ApiError(response.status, detailText(data, response.status, json));
  return data;
}

/** @typedef {import("./types.js").HostPanel} HostPanel */
/** @typedef {import("./notifypanel.js").NotifySettings} NotifySettings */

/**
 * The API's calls (docs/web.md): each resolves to the endpoint's JSON answer, of the shape
 * the module that reads it declares.
 * @type {{
 *   meta: () => Promise<import("./newgame.js").Meta>, guide: () => Promise<import("./howto.js").Guide>,
 *   games: () => Promise<{ games: import("./lobby.js").GameSummary[] }>,
 *   mine: (games: { id: string, token: string }[], status?: "running" | "over")
 *     => Promise<{ games: Omit<import("./lobby.js").MineItem, "token">[] }>,
 *   create: (body: object) => Promise<import("./newgame.js").Created>,
 *   importRecord: (body: object) => Promise<import("./newgame.js").Created>,
 *   view: (id: string, token: string) => Promise<View>,
 *   act: (id: string, token: string, action: string, seq: number) => Promise<View>,
 *   undo: (id: string, token: string, seq: number) => Promise<View>,
 *   reclaim: (id: string, token: string, seat: number) => Promise<View>,
 *   record: (id: string) => Promise<{ actions?: string[] }>, replay: (id: string, n: number) => Promise<View>,
 *   review: (id: string) => Promise<import("./types.js").ReviewBody>,
 *   requestReview: (id: string) => Promise<import("./types.js").ReviewBody>,
 *   notify: (id: string, token: string) => Promise<NotifySettings>,
 *   setNotify: (id: string, token: string, body: object) => Promise<NotifySettings>,
 *   testNotify: (id: string, token: string, seat: number, channel: string) => Promise<{ ok: boolean, result: string }>,
 *   presence: (id: string, token: string, visible: boolean, keepalive?: boolean) => Promise<unknown>,
 *   host: (id: string, token: string) => Promise<HostPanel>,
 *   reissue: (id: string, token: string, seat: number) => Promise<HostPanel>,
 *   putBot: (id: string, token: string, seat: number, bot: string) => Promise<HostPanel>,
 *   handBack: (id: string, token: string, seat: number) => Promise<HostPanel>,
 *   clock: (id: string, token: string, body: object) => Promise<HostPanel>,
 *   end: (id: string, token: string) => Promise<HostPanel>,
 * }}
 */
export const api = {
  meta: () => request("GET", "/api/meta"),
  guide: () => request("GET", `/api/guide${langQuery()}`),
  games: () => request("GET", "/api/games"),
  mine: (games, status) => request("POST", "/api/games/mine", { body: { games, status } }),
  create: (body) => request("POST", `/api/games${langQuery()}`, { body }),
  importRecord: (body) => request("POST", `/api/games/import${langQuery()}`, { body }),
  view: (id, token) => request("GET", `${game(id)}${langQuery()}`, { token }),
  act: (id, token, action, seq) => request("POST", `${game(id)}/actions${langQuery()}`, { token, body: { action, seq } }),
  undo: (id, token, seq) => request("POST", `${game(id)}/undo${langQuery()}`, { token, body: { seq } }),
  reclaim: (id, token, seat) => request("POST", `${game(id)}/reclaim${langQuery()}`, { token, body: { seat } }),
  record: (id) => request("GET", `${game(id)}/record`),
  replay: (id, n) => request("GET", `${game(id)}/replay/${n}${langQuery()}`),
  review: (id) => request("GET", `${game(id)}/review${langQuery()}`),
  requestReview: (id) => request("POST", `${game(id)}/review${langQuery()}`),
  notify: (id, token) => request("GET", `${game(id)}/notify`, { token }),
  setNotify: (id, token, body) => request("PUT", `${game(id)}/notify${langQuery()}`, { token, body }),
  testNotify: (id, token, seat, channel) => request("POST", `${game(id)}/notify/test`, { token, body: { seat, channel } }),
  presence: (id, token, visible, keepalive = false) => request("POST", `${game(id)}/presence`, { token, body: { visible }, keepalive }),
  host: (id, token) => request("GET", `${game(id)}/host`, { token }),
  reissue: (id, token, seat) => request("POST", `${game(id)}/host/seats/${seat}/reissue`, { token }),
  putBot: (id, token, seat, bot) => request("POST", `${game(id)}/host/seats/${seat}/bot`, { token, body: { bot } }),
  handBack: (id, token, seat) => request("POST", `${game(id)}/host/seats/${seat}/human`, { token }),
  clock: (id, token, body) => request("POST", `${game(id)}/host/clock`, { token, body }),
  end: (id, token) => request("POST", `${game(id)}/host/end`, { token }),
};

/**
 * Follow game `id`: `onSeq(seq)` whenever the server announces a new seq over the WebSocket,
 * `onChat(last, deleted)` when it announces the chat's version (chat.js);
 * reconnects with a growing delay, and polls `poll()` every few seconds while the socket is
 * down (a poll that resolves true, the server answering again, retries the socket at
 * once). `onState(up)`: false when the socket drops, true when it is back (after a drop:
 * then the page should fetch the latest state, which may have changed without a new seq).
 * Returns a function that stops following.
 * @param {string} id
 * @param {(seq: number) => void} onSeq
 * @param {() => unknown} poll
 * @param {((last: number, deleted: number) => void) | null} [onChat] the chat's version: its last id, how many were deleted
 * @param {(up: boolean) => void} [onState]
 * @returns {() => void}
 */
export function follow(id, onSeq, poll, onChat = null, onState = () => {}) {
  /** @type {WebSocket | null} */
  let socket = null;
  let stopped = false;
  let delay = 500;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let pollTimer;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let retryTimer;
  let down = false;

  const retryNow = () => {
    if (stopped || !down || (socket && socket.readyState <= 1)) return;
    clearTimeout(retryTimer);
    delay = 500;
    connect();
  };
  const startPolling = () => {
    if (!pollTimer) {
      pollTimer = setInterval(() => {
        if (stopped) return;
        Promise.resolve(poll()).then((ok) => { if (ok === true) retryNow(); }, () => {});
      }, 3000);
    }
  };
  const stopPolling = () => { clearInterval(pollTimer); pollTimer = undefined; };

  const connect = () => {
    if (stopped) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    try {
      socket = new WebSocket(`${scheme}://${location.host}${BASE}${game(id)}/ws`);
    } catch {
      if (!down) {
        down = true;
        onState(false);
      }
      startPolling();
      retryTimer = setTimeout(connect, delay);
      return;
    }
    socket.onopen = () => {
      delay = 500;
      stopPolling();
      if (down) {
        down = false;
        onState(true);
      }
    };
    socket.onmessage = (event) => {
      try {
        const message = JSON.parse(event.data);
        if (typeof message.seq === "number") onSeq(message.seq);
        if (typeof message.chat === "number" && onChat) onChat(message.chat, message.deleted);
      } catch { /* not for us */ }
    };
    socket.onclose = () => {
      if (stopped) return;
      if (!down) {
        down = true;
        onState(false);
      }
      startPolling();
      delay = Math.min(delay * 2, 15000);
      retryTimer = setTimeout(connect, delay);
    };
    socket.onerror = () => { try { socket?.close(); } catch { /* already closed */ } };
  };

  connect();
  return () => {
    stopped = true;
    stopPolling();
    clearTimeout(retryTimer);
    if (socket) socket.close();
  };
}
