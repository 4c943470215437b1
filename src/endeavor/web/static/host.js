// @ts-check
// The host: whoever created a game keeps its host link (/host/{id}#<token>). Opening it
// stores the token and goes to the game (the host's own seat if this browser holds one)
// with the host panel open; the game page offers it from then on (its "⚑ Host" button): every seat's link again, a new link for a
// seat, a bot in a seat and the seat handed back, more time or the clocks stopped, and
// the end of an abandoned game.

import { api, ApiError, fragmentToken } from "./api.js";
import { clockChip, clockWords } from "./clock.js";
import { copyText, fullUrl, h, href, modal, problemPage, replace } from "./dom.js";
import { inviteBox, inviteText } from "./invite.js";
import { addToken, dropToken, heldTokens, hostToken, setHostFlag, setHostToken } from "./tokens.js";
import { hostPutName, nameDialog, seatTag } from "./names.js";
import { agoWords } from "./when.js";
import { t } from "./i18n.js";

/** @typedef {import("./types.js").HostPanel} HostPanel */
/** @typedef {import("./types.js").HostSeat} HostSeat */

/**
 * /host/{id}#<token>: keep the host's token, then open the game.
 * @param {HTMLElement} root
 * @param {string} id
 */
export async function hostScreen(root, id) {
  const token = fragmentToken() || hostToken(id);
  const lobby = h("a", { class: "btn", href: href("/") }, t("common.back_to_lobby"));
  const watch = h("a", { class: "btn", href: href(`/game/${encodeURIComponent(id)}`) }, t("seat.watch"));
  if (!token) {
    problemPage(root, t("host.incomplete"), t("host.incomplete_text"), [watch, lobby]);
    return;
  }
  try {
    await api.host(id, token);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      problemPage(root, t("game.no_such"), t("replay.no_game", { id }), [lobby], "no-game");
    } else if (err instanceof ApiError && (err.status === 403 || err.status === 401)) {
      problemPage(root, t("host.not_host_link"), t("host.not_host_link_text"), [watch, lobby]);
    } else {
      problemPage(root, t("game.cannot_open"), err instanceof Error ? err.message : String(err), [
        h("button", { type: "button", class: "btn primary", onclick: () => location.reload() }, t("common.try_again")), lobby]);
    }
    return;
  }
  setHostToken(id, token);
  setHostFlag(id);
  // the host's own seat, if this browser holds one that works
  for (const seat of heldTokens(id)) {
    try {
      const view = await api.view(id, seat);
      if (view.you && view.you.length) {
        location.replace(href(`/play/${encodeURIComponent(id)}#${encodeURIComponent(seat)}`));
        return;
      }
    } catch (err) {
      if (err instanceof ApiError && err.status === 403) dropToken(id, seat);
    }
  }
  location.replace(href(`/game/${encodeURIComponent(id)}`));
}

/**
 * @param {HostSeat} seat
 * @param {boolean} yours
 */
function seatState(seat, yours) {
  if (yours && !seat.played_by) return seat.kind === "hotseat" ? t("host.state_you_hotseat") : t("host.state_you");
  if (seat.replaced === "host") {
    return seat.token ? t("host.state_put_watching", { bot: String(seat.played_by) })
      : t("host.state_put", { bot: String(seat.played_by) });
  }
  if (seat.replaced === "timeout") return t("host.state_timeout", { bot: String(seat.played_by) });
  if (seat.kind === "bot") return t("host.state_bot", { bot: String(seat.played_by || seat.bot) });
  if (seat.kind === "hotseat") return t("host.state_hotseat");
  return t("host.state_person");
}

/**
 * Open the host panel of game `id` (this browser holds its host token). `onChange()` is
 * called after each change the host makes; `adopt(token)` when a re-issued link replaces
 * a seat this browser plays (so the page can go on with the new one).
 * @param {string} id
 * @param {{ bots: string[], onChange?: () => void, adopt?: (token: string) => void }} options
 */
export function openHostPanel(id, { bots, onChange, adopt }) {
  const token = hostToken(id);
  const { dialog, body } = modal(t("host.heading"), "host-panel");
  const message = h("p", { class: "host-message", role: "status", "data-testid": "host-message" });
  /** @type {HostPanel | null} */
  let panel = null;
  let fresh = new Set(); // seats whose link just changed: shown highlighted
  let confirming = false;
  // what the host has chosen in the panel's lists, kept when the panel is drawn again
  // (the game moving on redraws it: a choice made just before must not be lost)
  /** @type {{ bots: Map<number, string>, amount: string | null, who: string | null }} */
  const chosen = { bots: new Map(), amount: null, who: null };

  /**
   * @param {() => Promise<HostPanel>} call
   * @param {(before: HostPanel | null, after: HostPanel) => void} [done]
   */
  async function run(call, done) {
    message.textContent = "";
    message.className = "host-message";
    try {
      const before = panel;
      const after = await call();
      panel = after;
      draw();
      if (done) done(before, after);
      if (onChange) onChange();
    } catch (err) {
      message.className = "host-message error";
      const words = err instanceof Error ? err.message : String(err);
      message.textContent = err instanceof ApiError && err.status === 403
        ? t("host.link_gone")
        : words.charAt(0).toUpperCase() + words.slice(1);
    }
  }

  /** @param {string} text */
  function say(text) {
    message.className = "host-message ok";
    message.textContent = text;
  }

  /** After a seat got a new link: if this browser played it with the old one, go on with the new one. */
  /**
   * @param {HostPanel | null} before
   * @param {HostPanel} after
   * @param {number} seat
   */
  function relink(before, after, seat) {
    const old = before && before.seats[seat] && before.seats[seat].token;
    const now = after.seats[seat].token;
    if (old && now && old !== now && heldTokens(id).includes(old)) {
      dropToken(id, old);
      addToken(id, now); // the server has just issued it
      if (adopt) adopt(now);
    }
  }

  /**
   * @param {HostSeat} seat
   * @param {HostPanel} panel
   */
  function seatRow(seat, panel) {
    const link = seat.url ? fullUrl(seat.url) : null;
    const row = h("div", { class: `host-seat${fresh.has(seat.seat) ? " fresh" : ""}`, "data-testid": `host-seat-${seat.seat}` },
      h("div", { class: "host-seat-head" },
        seatTag(seat.seat, panel.seats),
        h("button", { type: "button", class: "btn small link-like", "data-testid": `host-name-${seat.seat}`,
          title: t("host.name_title", { p: seat.seat }),
          onclick: () => nameDialog({
            seat: seat.seat, name: seat.named ? seat.name || "" : "", heading: t("name.for", { p: seat.seat }), own: false,
            save: (name) => /** @type {Promise<HostPanel>} */ (hostPutName(id, token, seat.seat, name)),
            done: (next) => {
              currentPanel(next);
              draw();
              say(t("host.named", { p: seat.seat, name: String(next.seats[seat.seat].name) }));
              if (onChange) onChange();
            },
          }) }, "✎"),
        h("span", { class: "muted", "data-testid": `host-state-${seat.seat}` },
          seatState(seat, Boolean(seat.token) && heldTokens(id).includes(seat.token || ""))),
        panel.clock ? clockChip(seat.seat) : null),
      activityLine(seat),
      link ? h("div", { class: "link-row" },
        h("input", { type: "text", readonly: true, value: link, "data-testid": `host-link-${seat.seat}`,
          "aria-label": t("host.seat_link", { p: seat.seat }) }),
        h("button", { type: "button", class: "btn small", "data-testid": `host-copy-${seat.seat}`,
          onclick: () => copyText(link) }, t("host.copy")),
        h("a", { class: "btn small", target: "_blank", rel: "noopener", "data-testid": `host-look-${seat.seat}`,
          title: t("host.look_title"),
          href: href(`/play/${encodeURIComponent(id)}?look#${encodeURIComponent(seat.token || "")}`) }, t("host.look"))) : null,
      // an invitation ready to send, for a person's seat this browser does not play
      link && seat.url && seat.kind === "human" && !heldTokens(id).includes(seat.token || "")
        ? inviteBox(inviteText(panel.title, seat.seat, seat.url, seat.name), `host-invite-${seat.seat}`,
          { title: panel.title || undefined }) : null);
    const actions = h("div", { class: "row host-actions" });
    if (!panel.over) {
      if (seat.token) {
        actions.append(h("button", {
          type: "button", class: "btn small", "data-testid": `host-reissue-${seat.seat}`,
          title: t("host.reissue_title"),
          onclick: () => run(() => api.reissue(id, token, seat.seat), (before, after) => {
            fresh = new Set([seat.seat]);
            draw();
            say(t("host.reissued", { p: seat.seat }));
            relink(before, after, seat.seat);
          }),
        }, t("host.reissue")));
      }
      const level = h("select", { "aria-label": t("host.bot_for", { p: seat.seat }), "data-testid": `host-bot-level-${seat.seat}` },
        bots.map((b) => h("option", { value: b }, t("host.bot_option", { bot: b }))));
      level.value = chosen.bots.get(seat.seat)
        ?? (seat.played_by && bots.includes(seat.played_by) ? seat.played_by
          : bots.includes("medium") ? "medium" : bots[0]);
      level.addEventListener("change", () => chosen.bots.set(seat.seat, level.value));
      actions.append(level, h("button", {
        type: "button", class: "btn small", "data-testid": `host-bot-${seat.seat}`,
        title: t("host.bot_title"),
        onclick: () => run(() => api.putBot(id, token, seat.seat, level.value), () => {
          say(t("host.bot_put", { bot: level.value, p: seat.seat }));
        }),
      }, seat.played_by ? t("host.bot_change") : t("host.bot_in")));
      if (seat.played_by) {
        actions.append(h("button", {
          type: "button", class: "btn small", "data-testid": `host-human-${seat.seat}`,
          title: seat.token ? t("host.human_title_same") : t("host.human_title_new"),
          onclick: () => run(() => api.handBack(id, token, seat.seat), (before, after) => {
            fresh = new Set([seat.seat]);
            draw();
            const same = seat.token && after.seats[seat.seat].token === seat.token;
            say(same ? t("host.human_same", { p: seat.seat }) : t("host.human_new", { p: seat.seat }));
          }),
        }, t("host.human")));
      }
    }
    if (actions.childElementCount) row.append(actions);
    return row;
  }

  /**
   * "moved 3 h ago · opened 5 min ago" for a person's seat (a bot's: nothing).
   * @param {HostSeat} seat
   */
  function activityLine(seat) {
    if (seat.kind === "bot") return null;
    const now = panel?.now || new Date();
    const moved = seat.last_moved ? t("host.moved", { ago: agoWords(seat.last_moved, now) }) : t("host.not_moved");
    const seen = seat.last_seen ? t("host.seen", { ago: agoWords(seat.last_seen, now) }) : t("host.not_seen");
    return h("p", { class: "host-activity muted", "data-testid": `host-activity-${seat.seat}`,
      title: t("host.activity_title") },
    `${moved} · ${seen}`);
  }

  /** @param {HostPanel} panel */
  function clockBox(panel) {
    const clock = panel.clock;
    if (!clock) return null;
    const much = h("select", { "aria-label": t("host.how_much"), "data-testid": "host-extend-amount" },
      [[60, t("host.minute_1")], [300, t("host.minutes_5")], [3600, t("host.hour_1")], [86400, t("host.day_1")]]
        .map(([v, text]) => h("option", { value: v }, text)));
    much.value = String(chosen.amount ?? (clock.kind === "live" ? "300" : "86400"));
    much.addEventListener("change", () => { chosen.amount = much.value; });
    const who = h("select", { "aria-label": t("host.for_whom"), "data-testid": "host-extend-seat" },
      h("option", { value: "" }, t("host.every_seat")),
      panel.seats.map((s) => h("option", { value: s.seat }, s.name && s.name !== `P${s.seat}` ? `${s.name} (P${s.seat})` : `P${s.seat}`)));
    if (chosen.who !== null) who.value = String(chosen.who);
    who.addEventListener("change", () => { chosen.who = who.value; });
    return h("section", { class: "host-clock", "data-testid": "host-clock" },
      h("h3", {}, t("host.clock")),
      h("p", { class: "muted" }, clockWords(clock), clock.paused ? h("b", {}, ` ${t("host.clocks_stopped")}`) : null),
      panel.over ? null : h("div", { class: "row" },
        h("button", {
          type: "button", class: "btn small", "data-testid": "host-extend",
          onclick: () => {
            /** @type {{ extend: number, seat?: number }} */
            const body = { extend: Number(much.value) };
            if (who.value !== "") body.seat = Number(who.value);
            run(() => api.clock(id, token, body), () => say(who.value === ""
              ? t("host.given_all", { time: much.selectedOptions[0].text })
              : t("host.given", { p: who.value, time: much.selectedOptions[0].text })));
          },
        }, t("host.give")), much, h("span", {}, t("host.more_to")), who,
        h("button", {
          type: "button", class: "btn small", "data-testid": "host-pause",
          onclick: () => run(() => api.clock(id, token, { paused: !clock.paused }),
            () => say(clock.paused ? t("host.clocks_run") : t("host.clocks_stopped"))),
        }, clock.paused ? t("host.restart") : t("host.stop"))));
  }

  /** @param {HostPanel} panel */
  function endBox(panel) {
    if (panel.over) {
      return h("p", { class: "muted", "data-testid": "host-over" },
        panel.ended === "host" ? t("host.you_ended") : t("host.over"));
    }
    if (!confirming) {
      return h("div", { class: "row" }, h("button", {
        type: "button", class: "btn danger", "data-testid": "host-end",
        onclick: () => { confirming = true; draw(); },
      }, t("host.end_ask")), h("span", { class: "hint" }, t("host.end_hint")));
    }
    return h("div", { class: "confirm", role: "alertdialog", "aria-label": t("host.end_label") },
      h("p", {}, h("b", {}, t("host.end_now")), ` ${t("host.end_text")}`),
      h("div", { class: "row" },
        h("button", {
          type: "button", class: "btn danger", "data-testid": "host-end-confirm",
          onclick: () => { confirming = false; run(() => api.end(id, token), () => say(t("host.ended"))); },
        }, t("host.end")),
        h("button", { type: "button", class: "btn", onclick: () => { confirming = false; draw(); } }, t("host.cancel"))));
  }

  /** @param {HostPanel} next */
  function currentPanel(next) {
    panel = next;
  }

  function draw() {
    if (!panel) return;
    const shown = panel;
    const hostLink = fullUrl(panel.host_url);
    replace(body,
      h("p", { class: "muted" }, t("host.intro")),
      h("div", { class: "link-row" }, h("span", { class: "field-label" }, t("host.host_link")),
        h("input", { type: "text", readonly: true, value: hostLink, "data-testid": "host-link", "aria-label": t("host.host_link") }),
        h("button", { type: "button", class: "btn small", onclick: () => copyText(hostLink) }, t("host.copy"))),
      message,
      h("h3", {}, t("host.seats")),
      h("div", { class: "host-seats" }, shown.seats.map((seat) => seatRow(seat, shown))),
      clockBox(shown),
      h("h3", {}, t("host.the_game")),
      endBox(shown));
  }

  replace(body, h("p", { class: "muted" }, t("common.loading")));
  run(() => api.host(id, token));
  return {
    dialog,
    /** The game moved on: show the seats as they are now (unless an answer is on screen). */
    refresh: () => {
      if (!dialog.open) return;
      api.host(id, token).then((/** @type {HostPanel} */ next) => {
        // answers may come back out of order: never show an older panel over a newer one
        if (panel && next.seq < panel.seq) return;
        const same = panel && JSON.stringify({ ...panel, seq: 0, now: 0 }) === JSON.stringify({ ...next, seq: 0, now: 0 });
        panel = next;
        if (!same) draw(); // nothing on it changed: leave the panel (and the host's focus) alone
      }).catch(() => {});
    },
  };
}
