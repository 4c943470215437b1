// @ts-check
// /account/notifications: the signed-in account's e-mail address (where its sign-in and
// password-reset links go) and its notification setting, used for every seat it claimed
// unless that game's own "Notify me" setting overrides it (GET/PUT /api/account/notifications).

import { ApiError, langQuery, request } from "./api.js";
import { h, href, replace } from "./dom.js";
import { locale, t } from "./i18n.js";

/**
 * @typedef {{ email: string | null, notify_email: boolean, webhook: string | null,
 *   email_mode: string, webhook_mode: string, lang: string, seats: number,
 *   email_available: boolean, digest_hours: number }} AccountNotify
 */

const PATH = "/api/account/notifications";

/**
 * A channel's "how often" choice.
 * @param {string} testid
 * @param {string} mode
 * @param {number} hours
 */
function modeSelect(testid, mode, hours) {
  const select = h("select", { "data-testid": testid, "aria-label": t("notify.how_often") },
    h("option", { value: "turn" }, t("notify.every_turn")),
    h("option", { value: "digest" }, t("notify.digest_option", { n: hours })));
  select.value = mode;
  return select;
}

/**
 * The form of the account's setting, filled from `settings`; `save` is called with the body.
 * @param {AccountNotify} settings
 * @param {(body: Record<string, unknown>) => Promise<void>} save
 */
function settingsForm(settings, save) {
  const hours = settings.digest_hours;
  const email = h("input", { type: "email", value: settings.email || "", placeholder: t("notify.email_placeholder"),
    "data-testid": "account-email", autocomplete: "email", disabled: !settings.email_available });
  const turns = h("input", { type: "checkbox", "data-testid": "account-notify-email",
    disabled: !settings.email_available });
  turns.checked = Boolean(settings.email && settings.notify_email);
  const emailMode = modeSelect("account-email-mode", settings.email_mode, hours);
  const webhook = h("input", { type: "url", value: settings.webhook || "", placeholder: t("notify.webhook_placeholder"),
    "data-testid": "account-webhook" });
  const webhookMode = modeSelect("account-webhook-mode", settings.webhook_mode, hours);
  const button = h("button", { type: "submit", class: "btn primary", "data-testid": "account-notify-save" },
    t("notify.save"));
  // novalidate: the server checks the addresses and says why in words
  const form = h("form", { class: "account-notify-form", "data-testid": "account-notify-form", novalidate: true },
    h("label", { class: "notify-row" }, h("span", { class: "field-label" }, t("accountmail.address")), email),
    settings.email_available ? h("p", { class: "hint" }, t("accountmail.address_hint"))
      : h("p", { class: "muted", "data-testid": "no-email" }, t("notify.no_email")),
    h("label", { class: "field inline" }, turns, ` ${t("accountmail.email_turns")}`),
    h("div", { class: "row" }, h("span", { class: "hint" }, t("notify.send")), emailMode),
    h("label", { class: "notify-row" }, h("span", { class: "field-label" }, t("notify.webhook")), webhook),
    h("p", { class: "hint" }, t("notify.webhook_text")),
    h("div", { class: "row" }, h("span", { class: "hint" }, t("notify.send")), webhookMode),
    h("div", { class: "row" }, button));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    /** @type {Record<string, unknown>} */
    const body = { webhook: webhook.value.trim() || null, webhook_mode: webhookMode.value, lang: locale() };
    if (settings.email_available) {
      Object.assign(body, { email: email.value.trim() || null, email_mode: emailMode.value,
        notify_email: turns.checked });
    }
    button.disabled = true;
    try {
      await save(body);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

/**
 * The page: the setting, saved and shown again as the server keeps it.
 * @param {HTMLElement} root
 */
export async function accountNotifyScreen(root) {
  document.title = `${t("accountmail.title")} · Endeavor`;
  const message = h("p", { class: "notify-message", role: "status", "data-testid": "account-notify-message" });
  const box = h("div", {}, h("p", { class: "muted" }, t("common.loading")));
  replace(root, h("section", { class: "card-box account-notify", "data-testid": "account-notify" },
    h("h1", {}, t("accountmail.title")),
    h("p", {}, t("accountmail.intro")),
    h("p", { class: "hint", "data-testid": "account-notify-override" }, t("accountmail.override")),
    box, message));

  /** @param {AccountNotify} settings */
  const show = (settings) => replace(box,
    h("p", { class: "muted", "data-testid": "account-notify-seats" }, t("accountmail.seats", { n: settings.seats })),
    settingsForm(settings, async (body) => {
      try {
        show(await request("PUT", `${PATH}${langQuery()}`, { body }));
        message.className = "notify-message ok";
        message.textContent = t("accountmail.saved");
      } catch (err) {
        message.className = "notify-message error";
        message.textContent = t("notify.not_saved", { error: err instanceof Error ? err.message : String(err) });
      }
    }));

  try {
    show(await request("GET", `${PATH}${langQuery()}`));
  } catch (err) {
    const signedOut = err instanceof ApiError && err.status === 401;
    replace(box, h("p", { class: "error", role: "alert", "data-testid": "account-notify-error" },
      signedOut ? t("accountmail.sign_in_first") : t("notify.cannot_read", { error: err instanceof Error ? err.message : String(err) })),
    signedOut ? h("a", { class: "btn primary", href: href("/account") }, t("accountmail.to_sign_in")) : null);
  }
}
