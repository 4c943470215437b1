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

/** @typedef {import("./types.js").HostPanel} HostPanel */
/** @typedef {import("./types.js").HostSeat} HostSeat */

/**
 * /host/{id}#<token>: keep the host's token, then open the game.
 * @param {HTMLElement} root
 * @param {string} id
 */
export async function hostScreen(root, id) {
  const token = fragmentToken() || hostToken(id);
  const lobby = h("a", { class: "btn", href: href("/") }, "Back to the lobby");
  const watch = h("a", { class: "btn", href: href(`/game/${encodeURIComponent(id)}`) }, "Watch this game");
  if (!token) {
    problemPage(root, "This host link is incomplete",
      "The link has no secret after the # sign: copy the whole host link from where you kept it.", [watch, lobby]);
    return;
  }
  try {
    await api.host(id, token);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      problemPage(root, "No such game", `There is no game “${id}” on this server.`, [lobby], "no-game");
    } else if (err instanceof ApiError && (err.status === 403 || err.status === 401)) {
      problemPage(root, "This is not the host link of this game",
        "It may have been copied incompletely. The game's creator has the host link.", [watch, lobby]);
    } else {
      problemPage(root, "The game cannot be opened", err instanceof Error ? err.message : String(err), [
        h("button", { type: "button", class: "btn primary", onclick: () => location.reload() }, "Try again"), lobby]);
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
  if (yours && !seat.played_by) return seat.kind === "hotseat" ? "you, on this screen (hot-seat)" : "you, in this browser";
  if (seat.replaced === "host") {
    return seat.token ? `the ${seat.played_by} bot, put there by you (the player's link watches until you hand the seat back)`
      : `the ${seat.played_by} bot, put there by you`;
  }
  if (seat.replaced === "timeout") return `the ${seat.played_by} bot (the player's time ran out)`;
  if (seat.kind === "bot") return `${seat.played_by || seat.bot} bot`;
  if (seat.kind === "hotseat") return "hot-seat (one link for these seats)";
  return "a person, with this link";
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
  const { dialog, body } = modal("Host", "host-panel");
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
        ? "This browser's host link no longer works for this game."
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
          title: `Give P${seat.seat} a name`,
          onclick: () => nameDialog({
            seat: seat.seat, name: seat.named ? seat.name || "" : "", heading: `Name for P${seat.seat}`, own: false,
            save: (name) => /** @type {Promise<HostPanel>} */ (hostPutName(id, token, seat.seat, name)),
            done: (next) => {
              currentPanel(next);
              draw();
              say(`P${seat.seat} is called ${next.seats[seat.seat].name} now.`);
              if (onChange) onChange();
            },
          }) }, "✎"),
        h("span", { class: "muted", "data-testid": `host-state-${seat.seat}` },
          seatState(seat, Boolean(seat.token) && heldTokens(id).includes(seat.token || ""))),
        panel.clock ? clockChip(seat.seat) : null),
      activityLine(seat),
      link ? h("div", { class: "link-row" },
        h("input", { type: "text", readonly: true, value: link, "data-testid": `host-link-${seat.seat}`,
          "aria-label": `P${seat.seat}'s link` }),
        h("button", { type: "button", class: "btn small", "data-testid": `host-copy-${seat.seat}`,
          onclick: () => copyText(link) }, "Copy"),
        h("a", { class: "btn small", target: "_blank", rel: "noopener", "data-testid": `host-look-${seat.seat}`,
          title: "Open this link read-only in a new tab: see that it works, without taking the seat",
          href: href(`/play/${encodeURIComponent(id)}?look#${encodeURIComponent(seat.token || "")}`) }, "Open read-only")) : null,
      // an invitation ready to send, for a person's seat this browser does not play
      link && seat.url && seat.kind === "human" && !heldTokens(id).includes(seat.token || "")
        ? inviteBox(inviteText(panel.title, seat.seat, seat.url, seat.name), `host-invite-${seat.seat}`,
          { title: panel.title || undefined }) : null);
    const actions = h("div", { class: "row host-actions" });
    if (!panel.over) {
      if (seat.token) {
        actions.append(h("button", {
          type: "button", class: "btn small", "data-testid": `host-reissue-${seat.seat}`,
          title: "A new link for this seat: the old one stops working at once",
          onclick: () => run(() => api.reissue(id, token, seat.seat), (before, after) => {
            fresh = new Set([seat.seat]);
            draw();
            say(`P${seat.seat} has a new link: send it to the player. The old link no longer works.`);
            relink(before, after, seat.seat);
          }),
        }, "New link"));
      }
      const level = h("select", { "aria-label": `Bot for P${seat.seat}`, "data-testid": `host-bot-level-${seat.seat}` },
        bots.map((b) => h("option", { value: b }, `${b} bot`)));
      level.value = chosen.bots.get(seat.seat)
        ?? (seat.played_by && bots.includes(seat.played_by) ? seat.played_by
          : bots.includes("medium") ? "medium" : bots[0]);
      level.addEventListener("change", () => chosen.bots.set(seat.seat, level.value));
      actions.append(level, h("button", {
        type: "button", class: "btn small", "data-testid": `host-bot-${seat.seat}`,
        title: "A bot plays this seat from now on; the player's link only watches until you hand the seat back",
        onclick: () => run(() => api.putBot(id, token, seat.seat, level.value), () => {
          say(`The ${level.value} bot plays P${seat.seat} now.`);
        }),
      }, seat.played_by ? "Change the bot" : "Put a bot in"));
      if (seat.played_by) {
        actions.append(h("button", {
          type: "button", class: "btn small", "data-testid": `host-human-${seat.seat}`,
          title: seat.token ? "The player plays this seat again, on the link they have"
            : "A person plays this seat, with a new link",
          onclick: () => run(() => api.handBack(id, token, seat.seat), (before, after) => {
            fresh = new Set([seat.seat]);
            draw();
            const same = seat.token && after.seats[seat.seat].token === seat.token;
            say(same ? `P${seat.seat} is the player's again: the link they have plays it again, nothing to send.`
              : `P${seat.seat} is a person's seat again: send them the new link above.`);
          }),
        }, "Hand to a person"));
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
    const moved = seat.last_moved ? `moved ${agoWords(seat.last_moved, now)}` : "not moved yet";
    const seen = seat.last_seen ? `opened the game ${agoWords(seat.last_seen, now)}` : "has not opened the game";
    return h("p", { class: "host-activity muted", "data-testid": `host-activity-${seat.seat}`,
      title: "When this seat's player last made a move, and when their link last opened the game (to the minute)" },
    `${moved} · ${seen}`);
  }

  /** @param {HostPanel} panel */
  function clockBox(panel) {
    const clock = panel.clock;
    if (!clock) return null;
    const much = h("select", { "aria-label": "How much more time", "data-testid": "host-extend-amount" },
      [[60, "1 minute"], [300, "5 minutes"], [3600, "1 hour"], [86400, "1 day"]].map(([v, t]) => h("option", { value: v }, t)));
    much.value = String(chosen.amount ?? (clock.kind === "live" ? "300" : "86400"));
    much.addEventListener("change", () => { chosen.amount = much.value; });
    const who = h("select", { "aria-label": "For whom", "data-testid": "host-extend-seat" },
      h("option", { value: "" }, "every seat"),
      panel.seats.map((s) => h("option", { value: s.seat }, s.name && s.name !== `P${s.seat}` ? `${s.name} (P${s.seat})` : `P${s.seat}`)));
    if (chosen.who !== null) who.value = String(chosen.who);
    who.addEventListener("change", () => { chosen.who = who.value; });
    return h("section", { class: "host-clock", "data-testid": "host-clock" },
      h("h3", {}, "Clock"),
      h("p", { class: "muted" }, clockWords(clock), clock.paused ? h("b", {}, " The clocks are stopped.") : null),
      panel.over ? null : h("div", { class: "row" },
        h("button", {
          type: "button", class: "btn small", "data-testid": "host-extend",
          onclick: () => {
            /** @type {{ extend: number, seat?: number }} */
            const body = { extend: Number(much.value) };
            if (who.value !== "") body.seat = Number(who.value);
            run(() => api.clock(id, token, body), () => say(`${who.value === "" ? "Every seat has" : `P${who.value} has`} ${much.selectedOptions[0].text} more.`));
          },
        }, "Give"), much, h("span", {}, "more to"), who,
        h("button", {
          type: "button", class: "btn small", "data-testid": "host-pause",
          onclick: () => run(() => api.clock(id, token, { paused: !clock.paused }),
            () => say(clock.paused ? "The clocks run again." : "The clocks are stopped.")),
        }, clock.paused ? "▶ Restart the clocks" : "‖ Stop the clocks")));
  }

  /** @param {HostPanel} panel */
  function endBox(panel) {
    if (panel.over) {
      return h("p", { class: "muted", "data-testid": "host-over" },
        panel.ended === "host" ? "You ended this game." : "This game is over.");
    }
    if (!confirming) {
      return h("div", { class: "row" }, h("button", {
        type: "button", class: "btn danger", "data-testid": "host-end",
        onclick: () => { confirming = true; draw(); },
      }, "End the game…"), h("span", { class: "hint" }, "for a game nobody will finish"));
    }
    return h("div", { class: "confirm", role: "alertdialog", "aria-label": "End the game?" },
      h("p", {}, h("b", {}, "End this game now?"), " No more moves can be made; the score pad is counted as the game stands. This cannot be undone."),
      h("div", { class: "row" },
        h("button", {
          type: "button", class: "btn danger", "data-testid": "host-end-confirm",
          onclick: () => { confirming = false; run(() => api.end(id, token), () => say("The game is over: ended by you.")); },
        }, "End the game"),
        h("button", { type: "button", class: "btn", onclick: () => { confirming = false; draw(); } }, "Cancel")));
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
      h("p", { class: "muted" }, "You created this game. Keep the host link private: it shows every seat's link and changes the seats."),
      h("div", { class: "link-row" }, h("span", { class: "field-label" }, "Host link"),
        h("input", { type: "text", readonly: true, value: hostLink, "data-testid": "host-link", "aria-label": "Host link" }),
        h("button", { type: "button", class: "btn small", onclick: () => copyText(hostLink) }, "Copy")),
      message,
      h("h3", {}, "Seats"),
      h("div", { class: "host-seats" }, shown.seats.map((seat) => seatRow(seat, shown))),
      clockBox(shown),
      h("h3", {}, "The game"),
      endBox(shown));
  }

  replace(body, h("p", { class: "muted" }, "Loading…"));
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
