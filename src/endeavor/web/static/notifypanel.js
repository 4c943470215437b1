// @ts-check
// "Tell me when it's my move": on this device (a sound, a browser notification while the
// tab is in the background) and from the server when you are away (a webhook and/or an
// e-mail per seat: PUT /api/games/{id}/notify with the seat's token).

import { api, ApiError } from "./api.js";
import {
  disableNotifications, enableNotifications, notificationState, setSound, soundOn,
} from "./alerts.js";
import { h, modal, replace } from "./dom.js";
import { t } from "./i18n.js";

/**
 * @typedef {{ seat: number, webhook?: string | null, email?: string | null, webhook_mode?: string,
 *   email_mode?: string, from_account?: boolean }} SeatNotify a seat's channels (from_account: its
 *   account's setting, in effect while the seat has none of its own)
 * @typedef {{ seats: SeatNotify[], email_available?: boolean, digest_hours?: number | null }} NotifySettings
 *   GET/PUT .../notify
 * @typedef {{ mode?: string, hours: number, setMode: (mode: string) => void,
 *   test: (button: HTMLButtonElement) => void }} Extra what a channel with an address offers
 */


function deviceBox() {
  const sound = h("input", { type: "checkbox", "data-testid": "sound-toggle" });
  sound.checked = soundOn();
  sound.addEventListener("change", () => setSound(sound.checked));
  const state = h("span", { class: "muted", "data-testid": "browser-notify-state" });
  const button = h("button", { type: "button", class: "btn small", "data-testid": "browser-notify" });
  const show = () => {
    const now = notificationState();
    state.textContent = t(`notify.state_${now}`); // on, off, blocked, unsupported
    button.textContent = now === "on" ? t("notify.turn_off") : t("notify.allow");
    button.hidden = now === "blocked" || now === "unsupported";
  };
  button.addEventListener("click", async () => {
    if (notificationState() === "on") disableNotifications();
    else await enableNotifications();
    show();
  });
  show();
  return h("section", {},
    h("h3", {}, t("notify.device")),
    h("label", { class: "field inline" }, sound, ` ${t("notify.sound")}`),
    h("div", { class: "row" }, button, state));
}

/**
 * Once a channel has an address: every turn or a digest, and a test message now.
 * @param {Extra & { testid: string }} options
 */
function extraRow({ testid, mode, hours, setMode, test }) {
  const select = h("select", { "data-testid": `${testid}-mode`, "aria-label": t("notify.how_often") },
    h("option", { value: "turn" }, t("notify.every_turn")),
    h("option", { value: "digest" }, t("notify.digest_option", { n: hours })));
  select.value = mode || "turn";
  select.addEventListener("change", () => setMode(select.value));
  return h("div", { class: "notify-extra" },
    h("span", { class: "hint" }, t("notify.send")), select,
    h("button", { type: "button", class: "btn small", "data-testid": `${testid}-test`,
      title: t("notify.test_title"),
      onclick: (/** @type {MouseEvent} */ event) => test(/** @type {HTMLButtonElement} */ (event.currentTarget)) }, t("notify.test")));
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
        onclick: () => save(input.value.trim()) }, t("notify.save")),
      value ? h("button", { type: "button", class: "btn small", "data-testid": `${testid}-remove`,
        onclick: remove }, t("notify.remove")) : null),
    value ? h("span", { class: "hint", "data-testid": `${testid}-current` }, t("notify.now", { value })) : null,
    value && extra ? extraRow({ testid, ...extra }) : null);
}

/**
 * Open the notification settings of the seat(s) `token` plays in game `id`.
 * @param {string} id
 * @param {string} token
 */
export function openNotifyPanel(id, token) {
  const { body } = modal(t("notify.heading"), "notify-panel");
  const away = h("section", { "data-testid": "notify-server" }, h("p", { class: "muted" }, t("common.loading")));
  const message = h("p", { class: "notify-message", role: "status", "data-testid": "notify-message" });
  replace(body, deviceBox(), away);

  /** @param {NotifySettings} settings */
  function draw(settings) {
    const rows = settings.seats.map((seat) => h("div", { class: "notify-seat", "data-testid": `notify-seat-${seat.seat}` },
      settings.seats.length > 1 ? h("h4", {}, `P${seat.seat}`) : null,
      seat.from_account ? h("p", { class: "hint", "data-testid": "notify-from-account" },
        t("notify.from_account")) : null,
      fieldRow({
        label: t("notify.webhook"), type: "url", value: seat.webhook, testid: "webhook",
        placeholder: t("notify.webhook_placeholder"),
        save: (/** @type {string} */ url) => (url ? change(seat.seat, { webhook: url }, t("notify.webhook_saved"))
          : failed(t("notify.webhook_first"))),
        remove: () => change(seat.seat, { webhook: null }, t("notify.webhook_removed")),
        extra: extras(seat, "webhook", settings),
      }),
      settings.email_available ? fieldRow({
        label: t("notify.email"), type: "email", value: seat.email, testid: "email", placeholder: t("notify.email_placeholder"),
        save: (/** @type {string} */ addr) => (addr ? change(seat.seat, { email: addr }, t("notify.email_saved"))
          : failed(t("notify.email_first"))),
        remove: () => change(seat.seat, { email: null }, t("notify.email_removed")),
        extra: extras(seat, "email", settings),
      }) : null));
    replace(away,
      h("h3", {}, t("notify.away")),
      h("p", { class: "muted" }, t("notify.webhook_text")),
      settings.email_available ? null
        : h("p", { class: "muted", "data-testid": "no-email" }, t("notify.no_email")),
      message, rows);
  }

  /**
   * @param {SeatNotify} seat
   * @param {"webhook" | "email"} channel
   * @param {NotifySettings} settings
   * @returns {Extra}
   */
  function extras(seat, channel, settings) {
    return {
      mode: channel === "email" ? seat.email_mode : seat.webhook_mode,
      hours: settings.digest_hours ?? 12,
      setMode: (/** @type {string} */ mode) => change(seat.seat, { [`${channel}_mode`]: mode }, mode === "digest"
        ? t(channel === "email" ? "notify.digest_email" : "notify.digest_webhook", { n: settings.digest_hours ?? 12 })
        : t(channel === "email" ? "notify.turn_email" : "notify.turn_webhook")),
      test: async (button) => {
        button.disabled = true;
        message.className = "notify-message";
        message.textContent = t("notify.sending");
        try {
          const result = await api.testNotify(id, token, seat.seat, channel);
          message.className = `notify-message ${result.ok ? "ok" : "error"}`;
          message.textContent = result.ok
            ? t(channel === "email" ? "notify.sent_email" : "notify.sent_webhook")
            : t("notify.not_delivered", { error: result.result.replace(/^failed: /, "") });
        } catch (err) {
          failed(t("notify.no_test", { error: err instanceof Error ? err.message : String(err) }));
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
        ? t("notify.not_a_seat")
        : t("notify.not_saved", { error: err instanceof Error ? err.message : String(err) }));
    }
  }

  api.notify(id, token).then(draw).catch((/** @type {Error} */ err) => {
    replace(away, h("p", { class: "error" }, t("notify.cannot_read", { error: err.message })));
  });
}
