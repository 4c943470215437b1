// @ts-check
// "Tell me when it's my move": on this device (a sound, a browser notification while the
// tab is in the background) and from the server when you are away (a webhook and/or an
// e-mail per seat: PUT /api/games/{id}/notify with the seat's token).

import { api, ApiError } from "./api.js";
import {
  disableNotifications, enableNotifications, notificationState, setSound, soundOn,
} from "./alerts.js";
import { h, modal, replace } from "./dom.js";

/**
 * @typedef {{ seat: number, webhook?: string | null, email?: string | null, webhook_mode?: string,
 *   email_mode?: string }} SeatNotify a seat's channels
 * @typedef {{ seats: SeatNotify[], email_available?: boolean, digest_hours?: number | null }} NotifySettings
 *   GET/PUT .../notify
 * @typedef {{ mode?: string, hours: number, setMode: (mode: string) => void,
 *   test: (button: HTMLButtonElement) => void }} Extra what a channel with an address offers
 */

/** @type {Record<string, string>} */
const NOTIFY_WORDS = {
  on: "On: a notification when the game reaches you while this tab is in the background.",
  off: "Off.",
  blocked: "Blocked by the browser: allow notifications for this site in its settings.",
  unsupported: "This browser cannot show notifications.",
};

function deviceBox() {
  const sound = h("input", { type: "checkbox", "data-testid": "sound-toggle" });
  sound.checked = soundOn();
  sound.addEventListener("change", () => setSound(sound.checked));
  const state = h("span", { class: "muted", "data-testid": "browser-notify-state" });
  const button = h("button", { type: "button", class: "btn small", "data-testid": "browser-notify" });
  const show = () => {
    const now = notificationState();
    state.textContent = NOTIFY_WORDS[now];
    button.textContent = now === "on" ? "Turn off" : "Allow browser notifications";
    button.hidden = now === "blocked" || now === "unsupported";
  };
  button.addEventListener("click", async () => {
    if (notificationState() === "on") disableNotifications();
    else await enableNotifications();
    show();
  });
  show();
  return h("section", {},
    h("h3", {}, "On this device"),
    h("label", { class: "field inline" }, sound, " Play a sound when it's your move"),
    h("div", { class: "row" }, button, state));
}

/**
 * Once a channel has an address: every turn or a digest, and a test message now.
 * @param {Extra & { testid: string }} options
 */
function extraRow({ testid, mode, hours, setMode, test }) {
  const select = h("select", { "data-testid": `${testid}-mode`, "aria-label": "How often" },
    h("option", { value: "turn" }, "every turn"),
    h("option", { value: "digest" }, `a digest (at most one message every ${hours} hours)`));
  select.value = mode || "turn";
  select.addEventListener("change", () => setMode(select.value));
  return h("div", { class: "notify-extra" },
    h("span", { class: "hint" }, "Send"), select,
    h("button", { type: "button", class: "btn small", "data-testid": `${testid}-test`,
      title: "Send a test message to this address now",
      onclick: (/** @type {MouseEvent} */ event) => test(/** @type {HTMLButtonElement} */ (event.currentTarget)) }, "Send a test"));
}

/**
 * @param {{ label: string, type: string, value?: string | null, placeholder: string, testid: string,
 *   save: (value: string) => void, remove: () => void, extra?: Extra | null }} options
 */
function fieldRow({ label, type, value, placeholder, testid, save, remove, extra }) {
  const input = h("input", { type, value: value || "", placeholder, "data-testid": `${testid}-input`,
    "aria-label": label, maxlength: type === "email" ? 254 : 512 });
  return h("div", { class: "notify-row" },
    h("span", { class: "field-label" }, label),
    h("div", { class: "row" }, input,
      h("button", { type: "button", class: "btn small primary", "data-testid": `${testid}-save`,
        onclick: () => save(input.value.trim()) }, "Save"),
      value ? h("button", { type: "button", class: "btn small", "data-testid": `${testid}-remove`,
        onclick: remove }, "Remove") : null),
    value ? h("span", { class: "hint", "data-testid": `${testid}-current` }, `Now: ${value}`) : null,
    value && extra ? extraRow({ testid, ...extra }) : null);
}

/**
 * Open the notification settings of the seat(s) `token` plays in game `id`.
 * @param {string} id
 * @param {string} token
 */
export function openNotifyPanel(id, token) {
  const { body } = modal("Tell me when it's my move", "notify-panel");
  const away = h("section", { "data-testid": "notify-server" }, h("p", { class: "muted" }, "Loading…"));
  const message = h("p", { class: "notify-message", role: "status", "data-testid": "notify-message" });
  replace(body, deviceBox(), away);

  /** @param {NotifySettings} settings */
  function draw(settings) {
    const rows = settings.seats.map((seat) => h("div", { class: "notify-seat", "data-testid": `notify-seat-${seat.seat}` },
      settings.seats.length > 1 ? h("h4", {}, `P${seat.seat}`) : null,
      fieldRow({
        label: "Webhook", type: "url", value: seat.webhook, testid: "webhook",
        placeholder: "https://ntfy.sh/your-topic, or a Discord or Slack webhook",
        save: (/** @type {string} */ url) => (url ? change(seat.seat, { webhook: url }, "The webhook is saved.")
          : failed("Paste a webhook address first (https://…).")),
        remove: () => change(seat.seat, { webhook: null }, "The webhook is removed."),
        extra: extras(seat, "webhook", settings),
      }),
      settings.email_available ? fieldRow({
        label: "E-mail", type: "email", value: seat.email, testid: "email", placeholder: "you@example.org",
        save: (/** @type {string} */ addr) => (addr ? change(seat.seat, { email: addr }, "The e-mail address is saved.")
          : failed("Type an e-mail address first.")),
        remove: () => change(seat.seat, { email: null }, "The e-mail address is removed."),
        extra: extras(seat, "email", settings),
      }) : null));
    replace(away,
      h("h3", {}, "When you are away"),
      h("p", { class: "muted" }, "A webhook is a web address the server calls when it's your move: a Discord or Slack channel's webhook posts there, an ntfy.sh topic buzzes your phone."),
      settings.email_available ? null
        : h("p", { class: "muted", "data-testid": "no-email" }, "This server cannot send e-mail."),
      message, rows);
  }

  /**
   * @param {SeatNotify} seat
   * @param {"webhook" | "email"} channel
   * @param {NotifySettings} settings
   * @returns {Extra}
   */
  function extras(seat, channel, settings) {
    const words = channel === "email" ? "e-mails" : "webhook messages";
    return {
      mode: channel === "email" ? seat.email_mode : seat.webhook_mode,
      hours: settings.digest_hours ?? 12,
      setMode: (/** @type {string} */ mode) => change(seat.seat, { [`${channel}_mode`]: mode }, mode === "digest"
        ? `A digest: at most one of the ${words} every ${settings.digest_hours ?? 12} hours.`
        : `The ${words} come every turn.`),
      test: async (button) => {
        button.disabled = true;
        message.className = "notify-message";
        message.textContent = "Sending a test…";
        try {
          const result = await api.testNotify(id, token, seat.seat, channel);
          message.className = `notify-message ${result.ok ? "ok" : "error"}`;
          message.textContent = result.ok
            ? `A test was sent to your ${channel === "email" ? "e-mail address" : "webhook"}: look for it.`
            : `The test was not delivered: ${result.result.replace(/^failed: /, "")}.`;
        } catch (err) {
          failed(`No test sent: ${err instanceof Error ? err.message : String(err)}.`);
        } finally {
          button.disabled = false;
        }
      },
    };
  }

  /** @param {string} text */
  function failed(text) {
    message.className = "notify-message error";
    message.textContent = text;
  }

  /**
   * @param {number} seat
   * @param {Record<string, string | null>} fields
   * @param {string} done what to say once saved
   */
  async function change(seat, fields, done) {
    try {
      const settings = await api.setNotify(id, token, { seat, ...fields });
      draw(settings);
      message.className = "notify-message ok";
      message.textContent = done;
    } catch (err) {
      failed(err instanceof ApiError && err.status === 403
        ? "This link is not a seat of this game any more."
        : `Not saved: ${err instanceof Error ? err.message : String(err)}.`);
    }
  }

  api.notify(id, token).then(draw).catch((/** @type {Error} */ err) => {
    replace(away, h("p", { class: "error" }, `The settings cannot be read: ${err.message}`));
  });
}
