// @ts-check
// The game's chat (docs/web.md, "Chat"): the messages, each with its seat's colour and
// name, a box to write in for the seats (spectators only read), a delete button on each
// message for the host, and a download of the record with the chat. Beside the log on a
// desktop, in the Chat tab on a phone, whose badge counts the messages that came while
// the tab was not open. Messages are text, never markup (textContent only).

import { locale, t } from "./i18n.js";
import { ApiError, request } from "./api.js";
import { h, href, replace, toast, COLOURS } from "./dom.js";
import { seatChip } from "./names.js";

/** @typedef {{ id: number, seat: number, name?: string | null, body: string, created: string, deleted?: boolean }} Message a chat message */

const MAX_CHARS = 500;
const chatPath = (/** @type {string} */ id) => `/api/games/${encodeURIComponent(id)}/chat`;

/**
 * "14:05" (today) or "3 Dec 14:05", in the reader's time zone.
 * @param {string} iso
 */
function when(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const lang = locale() === "en" ? [] : [locale()]; // English: the browser's own format
  const time = date.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
  if (date.toDateString() === new Date().toDateString()) return time;
  return `${date.toLocaleDateString(lang, { day: "numeric", month: "short" })} ${time}`;
}

/**
 * The chat panel of game `id`. `token`: this page's seat token ("" for a spectator);
 * `view()`: the game's current view (its seats' names, `you`, whose move);
 * `hostToken()`: the host's token when this browser is the host, else "";
 * `onUnread(n)`: the number of unread messages changed (the phone's tab badge).
 * Returns {el, version(last, deleted), poll(), setShown(shown), unread()}:
 * `version()` is called with the chat's version the WebSocket announces, `poll()` while
 * it is down, `setShown()` when the panel comes into sight or leaves it.
 */
/**
 * @param {string} id
 * @param {{ token?: string, view: () => import("./types.js").View | null, hostToken?: () => string,
 *   onUnread?: (n: number) => void }} options
 */
export function chatPanel(id, { token = "", view, hostToken = () => "", onUnread = () => {} }) {
  /** @type {Map<number, Message>} id -> message, in id order */
  const messages = new Map();
  let last = 0; // the highest id fetched
  let deleted = 0; // how many of them the host deleted, as last fetched
  let wanted = [0, 0]; // the version announced
  let seen = 0; // the last message this seat has read (the server's, then this page's)
  let told = 0; // the last "seen" sent to the server
  let shown = false;
  let unread = 0;
  /** @type {Promise<void> | null} */
  let loading = null;
  let again = false;

  const list = h("ol", { class: "chat-list", "data-testid": "chat-list", role: "log", "aria-live": "polite",
    "aria-label": t("chat.messages") });
  const empty = h("p", { class: "muted chat-empty", "data-testid": "chat-empty" }, t("chat.empty"));
  const el = h("section", { class: "chat-box", "data-testid": "chat", "aria-label": t("tab.chat") },
    h("h3", {}, t("tab.chat")), empty, list);

  const you = () => view()?.you || [];
  const writer = () => {
    const current = view()?.current_player;
    const mine = you();
    if (!mine.length) return null;
    return current !== null && current !== undefined && mine.includes(current) ? current : mine[0];
  };
  /**
   * @param {number} seat
   * @param {string | null} [fallback]
   */
  const nameOf = (seat, fallback) => {
    const s = view()?.seats?.[seat];
    return (s && s.name) || fallback || `P${seat}`;
  };

  // ---------------------------------------------------------------- writing
  let form = null;
  if (token) {
    const box = h("textarea", {
      class: "chat-input", "data-testid": "chat-input", rows: 2, maxlength: MAX_CHARS,
      placeholder: t("chat.placeholder"), "aria-label": t("chat.your_message"),
    });
    const counter = h("span", { class: "muted chat-count", "aria-live": "polite" });
    const sendButton = h("button", { type: "submit", class: "btn primary small", "data-testid": "chat-send" }, t("chat.send"));
    const send = async () => {
      const body = box.value.trim();
      if (!body) return;
      sendButton.disabled = true;
      try {
        const seat = writer();
        const message = await request("POST", chatPath(id), {
          token, body: you().length > 1 && seat !== null ? { body, seat } : { body },
        });
        box.value = "";
        counter.textContent = "";
        add([message]);
        seen = Math.max(seen, message.id);
        told = Math.max(told, message.id);
        draw();
      } catch (err) {
        toast(err instanceof ApiError && err.status === 403 ? t("chat.players_only") : String(err instanceof Error ? err.message : err));
      } finally {
        sendButton.disabled = false;
        box.focus();
      }
    };
    box.addEventListener("input", () => {
      const left = MAX_CHARS - box.value.length;
      counter.textContent = left < 100 ? t("chat.left", { n: left }) : "";
    });
    box.addEventListener("keydown", (event) => {
      // Enter sends, Shift+Enter starts a new line (a phone's keyboard has the Send button)
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing && matchMedia("(pointer: fine)").matches) {
        event.preventDefault();
        send();
      }
    });
    form = h("form", { class: "chat-form", "data-testid": "chat-form",
      onsubmit: (/** @type {Event} */ event) => { event.preventDefault(); send(); } },
    box, h("div", { class: "chat-actions" }, counter, sendButton));
    el.append(form);
  } else {
    el.append(h("p", { class: "muted chat-readonly", "data-testid": "chat-readonly" }, t("chat.readonly")));
  }
  el.append(h("p", { class: "chat-foot" }, h("a", {
    href: href(`/api/games/${encodeURIComponent(id)}/record?chat=1`), class: "muted", "data-testid": "record-with-chat",
    download: `endeavor-${id}-with-chat.json`, title: t("chat.record_title"),
  }, t("chat.record"))));

  // ---------------------------------------------------------------- drawing
  /** @param {Message} message */
  function remove(message) {
    const host = hostToken();
    if (!host || !window.confirm(t("chat.delete_confirm", { name: nameOf(message.seat, message.name) }))) return;
    request("DELETE", `${chatPath(id)}/${message.id}`, { token: host })
      .then((/** @type {Message} */ gone) => { add([gone]); draw(); })
      .catch((/** @type {Error} */ err) => toast(err.message));
  }

  /** @param {Message} m */
  function item(m) {
    const colour = COLOURS[m.seat % COLOURS.length];
    const mine = you().includes(m.seat);
    const host = hostToken();
    return h("li", { class: `chat-msg${mine ? " mine" : ""}${m.deleted ? " deleted" : ""}${m.id > seen && !mine ? " new" : ""}`,
      "data-testid": "chat-message", "data-id": m.id, "data-seat": m.seat, style: `--who:${colour}` },
    h("div", { class: "chat-meta" },
      seatChip(m.seat),
      nameOf(m.seat, m.name) !== `P${m.seat}` ? h("strong", { class: "chat-name" }, nameOf(m.seat, m.name)) : null,
      h("time", { class: "muted chat-time", datetime: m.created }, when(m.created)),
      host && !m.deleted ? h("button", { type: "button", class: "chat-delete", "data-testid": "chat-delete",
        title: t("chat.delete_title"), "aria-label": t("chat.delete_label", { name: nameOf(m.seat, m.name) }),
        onclick: () => remove(m) }, "✕") : null),
    m.deleted ? h("p", { class: "chat-body muted" }, t("chat.deleted"))
      : h("p", { class: "chat-body", "data-testid": "chat-body" }, m.body));
  }

  function draw() {
    const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    replace(list, [...messages.values()].map(item));
    empty.hidden = messages.size > 0;
    countUnread();
    if (atEnd || shown) list.scrollTop = list.scrollHeight;
    if (shown) markSeen();
  }

  function countUnread() {
    const mine = you();
    let n = 0;
    for (const m of messages.values()) if (m.id > seen && !m.deleted && !mine.includes(m.seat)) n += 1;
    if (n !== unread) {
      unread = n;
      onUnread(n);
    }
  }

  function markSeen() {
    const top = Math.max(0, ...[...messages.keys()]);
    if (top > seen) seen = top;
    countUnread();
    if (!token || seen <= told || document.visibilityState !== "visible") return;
    told = seen;
    request("POST", `${chatPath(id)}/seen`, { token, body: { upto: seen } }).catch(() => { told = 0; });
  }

  /** @param {Message[]} list_ */
  function add(list_) {
    for (const m of list_) messages.set(m.id, m);
    // keep the latest 200 in id order
    const ids = [...messages.keys()].sort((a, b) => a - b);
    const keep = ids.slice(-200);
    const sorted = new Map(keep.map((k) => [k, /** @type {Message} */ (messages.get(k))]));
    messages.clear();
    for (const [k, v] of sorted) messages.set(k, v);
    last = Math.max(last, ...ids, 0);
  }

  // ---------------------------------------------------------------- fetching
  async function load() {
    if (loading) {
      again = true;
      return loading;
    }
    loading = (async () => {
      try {
        do {
          again = false;
          const all = wanted[1] > deleted; // a deletion: read every message again
          const answer = await request("GET", `${chatPath(id)}?after=${all ? 0 : last}`, { token });
          if (all) messages.clear();
          add(answer.messages);
          deleted = answer.deleted;
          last = Math.max(last, answer.last);
          if (answer.seen !== null && answer.seen !== undefined) {
            seen = Math.max(seen, answer.seen);
            told = Math.max(told, answer.seen);
          }
          draw();
        } while (again || wanted[0] > last || wanted[1] > deleted);
      } catch (err) {
        // a lost seat (403) is the game page's to say; so is a server out of reach (0)
        if (!(err instanceof ApiError) || (err.status !== 403 && err.status !== 0)) {
          toast(t("chat.error", { error: err instanceof Error ? err.message : String(err) }));
        }
      } finally {
        loading = null;
      }
    })();
    return loading;
  }

  document.addEventListener("visibilitychange", () => { if (shown) markSeen(); });
  load();

  return {
    el,
    /**
     * @param {number} chatLast
     * @param {number} [chatDeleted]
     */
    version(chatLast, chatDeleted) {
      wanted = [Math.max(wanted[0], chatLast || 0), Math.max(wanted[1], chatDeleted || 0)];
      if (wanted[0] > last || wanted[1] > deleted) load();
    },
    poll: () => load(),
    /** @param {boolean} value */
    setShown(value) {
      shown = value;
      if (shown) {
        list.scrollTop = list.scrollHeight;
        markSeen();
      }
    },
    unread: () => unread,
    redraw: () => { if (messages.size) draw(); },
  };
}
