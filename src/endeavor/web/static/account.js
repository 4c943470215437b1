// @ts-check
// The account pages (docs/browser.md "Accounts"): /account (signed out: sign in, sign up,
// and when the server can send e-mail a sign-in link or a password reset by e-mail;
// signed in: the account's links, its data, sign out here or everywhere, delete it) and
// /account/reset (a new password from a reset link's #token).

import { api, fragmentToken, request } from "./api.js";
import { h, href, problemPage, replace, toast } from "./dom.js";
import { locale, t } from "./i18n.js";
import { post, signedInHere, whoami } from "./session.js";

/**
 * A labelled input.
 * @param {string} id
 * @param {string} label
 * @param {Record<string, string | number | boolean>} attrs
 */
function field(id, label, attrs) {
  const input = h("input", { id, name: id, required: true, "data-testid": id, ...attrs });
  return { input, el: h("label", { class: "field", for: id }, h("span", { class: "field-label" }, label), input) };
}

/** A name field (a seat name's length). @param {string} id @param {string} autocomplete */
const nameField = (id, autocomplete) => field(id, t("account.name"), { type: "text", maxlength: 24, autocomplete, autocapitalize: "none", spellcheck: "false" });

/** A password field. @param {string} id @param {string} label @param {string} autocomplete */
const passwordField = (id, label, autocomplete) => field(id, label, { type: "password", minlength: 8, maxlength: 256, autocomplete });

/**
 * Where to go once signed in: the page's ?next= when it is one of this app's paths,
 * else the account page.
 */
function nextPage() {
  const next = new URLSearchParams(location.search).get("next") || "";
  return /^\/[A-Za-z0-9/_-]*$/.test(next) && !next.startsWith("//") ? href(next) : href("/account");
}

/**
 * Run `act` for a form: the button busy meanwhile, the server's words in `error` on failure.
 * @param {HTMLFormElement} form
 * @param {HTMLElement} error
 * @param {() => Promise<void>} act
 */
async function submitting(form, error, act) {
  const buttons = /** @type {NodeListOf<HTMLButtonElement>} */ (form.querySelectorAll("button"));
  buttons.forEach((b) => { b.disabled = true; });
  error.hidden = true;
  try {
    await act();
  } catch (err) {
    error.hidden = false;
    error.textContent = err instanceof Error ? err.message : String(err);
  } finally {
    buttons.forEach((b) => { b.disabled = false; });
  }
}

/** @param {string} testid */
const errorLine = (testid) => h("p", { class: "error", role: "alert", "data-testid": testid, hidden: true });

/**
 * A form whose submission runs `act` (`submitting`: the server's words in `error`).
 * @param {string} testid
 * @param {HTMLElement} error
 * @param {() => Promise<void>} act
 * @param {import("./types.js").Child[]} children
 */
function accountForm(testid, error, act, ...children) {
  /** @type {HTMLFormElement} */
  const form = h("form", { class: "account-form", "data-testid": testid, onsubmit: (/** @type {Event} */ e) => {
    e.preventDefault();
    submitting(form, error, act);
  } }, ...children);
  return form;
}

/**
 * Sign in or up (`path`) with a name and a password, then on to the next page.
 * @param {string} path
 * @param {HTMLInputElement} name
 * @param {HTMLInputElement} password
 */
async function enter(path, name, password) {
  await post(path, { name: name.value.trim(), password: password.value });
  signedInHere();
  location.href = nextPage();
}

/**
 * A form's submit button.
 * @param {string} text
 * @param {string} testid
 * @param {string} [kind]
 */
const submit = (text, testid, kind = "primary") =>
  h("div", { class: "row" }, h("button", { type: "submit", class: `btn ${kind}`, "data-testid": testid }, text));

/** The sign-in form (with the e-mail buttons when the server can send e-mail). @param {boolean} email */
function signInForm(email) {
  const name = nameField("signin-name", "username");
  const password = passwordField("signin-password", t("account.password"), "current-password");
  const error = errorLine("signin-error");
  const said = h("p", { class: "info", role: "status", "data-testid": "email-answer", hidden: true });
  const form = accountForm("signin-form", error, () => enter("/api/account/signin", name.input, password.input),
    h("h2", {}, t("account.sign_in")), name.el, password.el, error, submit(t("account.sign_in"), "signin"));
  if (email) {
    const ask = (/** @type {string} */ path) => submitting(form, error, async () => {
      if (!name.input.value.trim()) throw new Error(t("account.name_first"));
      const answer = await post(path, { name: name.input.value.trim() });
      said.hidden = false;
      said.textContent = answer && (answer.detail || answer.message) ? String(answer.detail || answer.message) : t("account.email_sent");
    });
    form.append(h("div", { class: "row email-row" },
      h("button", { type: "button", class: "btn small", "data-testid": "email-link", onclick: () => ask("/api/account/email-link") }, t("account.email_link")),
      h("button", { type: "button", class: "btn small", "data-testid": "email-reset", onclick: () => ask("/api/account/email-reset") }, t("account.forgot"))), said);
  }
  return form;
}

/** The sign-up form. */
function signUpForm() {
  const name = nameField("signup-name", "username");
  const password = passwordField("signup-password", t("account.new_password"), "new-password");
  const error = errorLine("signup-error");
  return accountForm("signup-form", error, () => enter("/api/account/signup", name.input, password.input),
    h("h2", {}, t("account.sign_up")), h("p", { class: "muted" }, t("account.sign_up_text")), name.el, password.el,
    h("p", { class: "hint" }, t("account.password_rule")), error, submit(t("account.sign_up"), "signup"));
}

/** @param {HTMLElement} root */
async function signedOut(root) {
  document.title = `${t("account.sign_in")} · Endeavor`;
  const reset = new URLSearchParams(location.search).get("reset") === "done";
  let email = false; // the server can e-mail a sign-in link or a reset link
  try {
    email = Boolean(/** @type {{ email_available?: boolean }} */ (/** @type {unknown} */ (await api.meta())).email_available);
  } catch { /* no e-mail buttons */ }
  replace(root, h("section", { class: "account", "data-testid": "account-signed-out" },
    h("h1", {}, t("account.heading")),
    h("p", { class: "muted" }, t("account.why")),
    reset ? h("p", { class: "info", role: "status", "data-testid": "reset-done" }, t("reset.done")) : null,
    h("div", { class: "account-forms" },
      h("div", { class: "card-box" }, signInForm(email)),
      h("div", { class: "card-box" }, signUpForm()))));
}

/** The delete-account form: the password asked again, what happens to the seats said first. */
function deleteForm() {
  const password = passwordField("delete-password", t("account.password"), "current-password");
  const error = errorLine("delete-error");
  return accountForm("delete-form", error, async () => {
    await request("DELETE", "/api/account", { body: { password: password.input.value } });
    signedInHere(false);
    location.href = href("/account");
  }, h("h2", {}, t("account.delete")),
  h("p", {}, t("account.delete_finished")), h("p", {}, t("account.delete_running")),
  password.el, error, submit(t("account.delete"), "delete-account", "danger"));
}

/**
 * A button that posts to `path` and then goes to the account page (signed out).
 * @param {string} path
 * @param {string} text
 * @param {string} testid
 */
function signOutButton(path, text, testid) {
  return h("button", { type: "button", class: "btn", "data-testid": testid, onclick: async () => {
    try {
      await post(path);
      signedInHere(false);
      location.href = href("/account");
    } catch (err) {
      toast(err instanceof Error ? err.message : String(err));
    }
  } }, text);
}

/**
 * @param {HTMLElement} root
 * @param {import("./session.js").Me} me
 */
function signedIn(root, me) {
  document.title = `${me.name} · Endeavor`;
  const since = new Date(me.created).toLocaleDateString(locale() === "en" ? undefined : locale());
  const link = (/** @type {string} */ path, /** @type {string} */ text, /** @type {string} */ testid) =>
    h("a", { class: "btn", href: href(path), "data-testid": testid }, text);
  replace(root, h("section", { class: "account", "data-testid": "account-signed-in" },
    h("h1", {}, h("span", { translate: "no", "data-testid": "account-name" }, me.name)),
    h("p", { class: "muted" }, t("account.since", { date: since })),
    h("div", { class: "card-box" },
      h("div", { class: "row" },
        link("/account/games", t("account.your_games"), "to-account-games"),
        link(`/players/${encodeURIComponent(me.name)}`, t("account.profile"), "to-profile"),
        link("/account/notifications", t("account.notifications"), "to-notifications"),
        h("a", { class: "btn", href: href("/api/account/export"), download: "endeavor-account.json", "data-testid": "export" },
          t("account.export")))),
    h("div", { class: "card-box" },
      h("h2", {}, t("account.sessions")),
      h("p", { class: "muted" }, t("account.everywhere_text")),
      h("div", { class: "row" },
        signOutButton("/api/account/signout", t("account.sign_out"), "signout"),
        signOutButton("/api/account/signout-everywhere", t("account.sign_out_everywhere"), "signout-everywhere"))),
    h("div", { class: "card-box danger-box" }, deleteForm())));
}

/** /account: the forms when signed out, the account when signed in. @param {HTMLElement} root */
export async function accountScreen(root) {
  const me = await whoami();
  if (me) signedIn(root, me);
  else await signedOut(root);
}

/** /account/reset#<token>: a new password, typed twice. @param {HTMLElement} root */
export function resetScreen(root) {
  const token = fragmentToken();
  if (!token) {
    problemPage(root, t("reset.no_token"), t("reset.no_token_text"), [
      h("a", { class: "btn primary", href: href("/account") }, t("account.sign_in"))], "reset-no-token");
    return;
  }
  document.title = `${t("reset.heading")} · Endeavor`;
  const first = passwordField("reset-password", t("account.new_password"), "new-password");
  const second = passwordField("reset-again", t("reset.again"), "new-password");
  const error = errorLine("reset-error");
  const form = accountForm("reset-form", error, async () => {
    if (first.input.value !== second.input.value) throw new Error(t("reset.differ"));
    await post("/api/account/reset", { token, password: first.input.value });
    signedInHere(false); // every session of the account ended
    location.href = `${href("/account")}?reset=done`;
  }, h("h1", {}, t("reset.heading")), h("p", { class: "hint" }, t("account.password_rule")),
  first.el, second.el, error, submit(t("reset.save"), "reset"));
  replace(root, h("section", { class: "account" }, h("div", { class: "card-box" }, form)));
}
