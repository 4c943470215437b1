// @ts-check
// "Reconnecting…": a banner over the top of the game screen while the page cannot reach
// the server (its WebSocket is down, or a fetch of the game failed for want of a
// connection), gone once the server answers again and the page has the latest state.

import { t } from "./i18n.js";
import { h } from "./dom.js";

/**
 * The banner of one page: `socket(up)` and `fetched(ok)` report the two ways of knowing;
 * it shows while either says the server is away. `remove()` takes it off the page.
 */
export function connectionBanner() {
  let socketDown = false;
  let fetchFailed = false;
  const el = h("div", {
    class: "reconnecting", role: "status", "aria-live": "polite", "data-testid": "reconnecting", hidden: true,
  }, h("span", { class: "reconnecting-spin", "aria-hidden": "true" }),
  h("strong", {}, t("conn.reconnecting")), " ",
  h("span", { class: "reconnecting-more" }, t("conn.retrying")));
  document.body.append(el);

  function draw() {
    const away = socketDown || fetchFailed;
    el.hidden = !away;
    document.body.classList.toggle("offline", away);
  }

  return {
    el,
    /** @param {boolean} up */
    socket(up) {
      socketDown = !up;
      draw();
    },
    /** @param {boolean} ok */
    fetched(ok) {
      fetchFailed = !ok;
      draw();
    },
    get away() { return socketDown || fetchFailed; },
    remove() {
      el.remove();
      document.body.classList.remove("offline");
    },
  };
}
