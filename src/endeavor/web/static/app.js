// The browser app's entry point: routes by location.pathname (the server serves this
// page for /, /new, /play/{id}, /game/{id} and /replay/{id}).

import { gameScreen } from "./game.js";
import { lobbyScreen } from "./lobby.js";
import { newGameScreen } from "./newgame.js";
import { replayScreen } from "./replay.js";
import { BASE, h, href, replace } from "./dom.js";

async function route() {
  const root = document.getElementById("app");
  const full = location.pathname;
  const path = (full.startsWith(BASE) ? full.slice(BASE.length) : full).replace(/\/+$/, "") || "/";
  const match = path.match(/^\/(play|game|replay)\/([^/]+)$/);
  document.body.dataset.screen = match ? match[1] : path === "/new" ? "new" : "lobby";
  if (path === "/") return lobbyScreen(root);
  if (path === "/new") return newGameScreen(root);
  if (match && match[1] === "play") return gameScreen(root, decodeURIComponent(match[2]));
  if (match && match[1] === "game") return gameScreen(root, decodeURIComponent(match[2]), { spectator: true });
  if (match && match[1] === "replay") return replayScreen(root, decodeURIComponent(match[2]));
  replace(root, h("p", {}, "Nothing here. ", h("a", { href: href("/") }, "Back to the lobby")));
  return null;
}

route().finally(() => { document.body.dataset.ready = "1"; });
