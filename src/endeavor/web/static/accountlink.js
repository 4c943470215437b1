// @ts-check
// /account/link#<token>: a sign-in link mailed to an account's address (POST
// /api/account/link-signin, then "Your games"), and the form that asks for one, or for a
// password-reset link, by the account's name (POST /api/account/email-link, email-reset:
// the server answers the same whatever the name).

import { api, fragmentToken, langQuery, request } from "./api.js";
import { h, href, replace } from "./dom.js";
import { t } from "./i18n.js";

/**
 * The form asking for a link by e-mail: the answer (the server's words) shown under it.
 */
function askForm() {
  const name = h("input", { type: "text", autocomplete: "username", "data-testid": "mail-name",
    placeholder: t("accountmail.name_placeholder") });
  const said = h("p", { class: "notify-message", role: "status", "data-testid": "mail-said" });
  /** @param {string} path */
  const ask = async (path) => {
    if (!name.value.trim()) {
      said.className = "notify-message error";
      said.textContent = t("accountmail.name_first");
      return;
    }
    try {
      const answer = await request("POST", `${path}${langQuery()}`, { body: { name: name.value.trim() } });
      said.className = "notify-message ok";
      said.textContent = answer.detail;
    } catch (err) {
      said.className = "notify-message error";
      said.textContent = err instanceof Error ? err.message : String(err);
    }
  };
  const form = h("form", { class: "mail-form", "data-testid": "mail-form" },
    h("h2", {}, t("accountmail.ask_heading")),
    h("label", { class: "notify-row" }, h("span", { class: "field-label" }, t("accountmail.name")), name),
    h("div", { class: "row" },
      h("button", { type: "submit", class: "btn primary", "data-testid": "mail-signin" }, t("accountmail.ask_signin")),
      h("button", { type: "button", class: "btn", "data-testid": "mail-reset",
        onclick: () => ask("/api/account/email-reset") }, t("accountmail.ask_reset"))),
    said);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    ask("/api/account/email-link");
  });
  return form;
}

/**
 * The page: signs in with the link's token (then "Your games"), or says why it cannot,
 * with the form to ask for a new link (on a server that can send e-mail).
 * @param {HTMLElement} root
 */
export async function accountLinkScreen(root) {
  document.title = `${t("accountmail.link_title")} · Endeavor`;
  const token = fragmentToken();
  // the token leaves the address bar (and the history) at once: it signs in once
  if (token) history.replaceState(null, "", location.pathname + location.search);
  const box = h("section", { class: "card-box account-mail-link", "data-testid": "account-mail-link" },
    h("h1", {}, t("accountmail.link_title")), h("p", { class: "muted" }, t("common.loading")));
  replace(root, box);
  /** @type {string | null} */
  let problem = null;
  if (token) {
    try {
      await request("POST", `/api/account/link-signin${langQuery()}`, { body: { token } });
      location.assign(href("/account/games"));
      return;
    } catch (err) {
      problem = err instanceof Error ? err.message : String(err);
    }
  }
  const meta = await api.meta().catch(() => null);
  const mail = Boolean(meta && /** @type {{ email_available?: boolean }} */ (meta).email_available);
  replace(box, h("h1", {}, t("accountmail.link_title")),
    problem ? h("p", { class: "error", role: "alert", "data-testid": "link-problem" }, problem)
      : h("p", {}, t("accountmail.no_token")),
    mail ? askForm() : h("p", { class: "muted", "data-testid": "no-email" }, t("notify.no_email")),
    h("p", {}, h("a", { href: href("/account"), "data-testid": "to-account" }, t("accountmail.to_sign_in"))));
}
