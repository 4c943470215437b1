"""The CPU of the web app's two hot requests (a view's GET, a move's POST) with the fast
routes and without them (the FastAPI routes alone), in one process: the two kinds are
interleaved request by request, so that the machine's load hits both alike.

usage: PYTHONPATH=src python tools/hot_path_cpu.py [GAMES] [SEED]   (prints one JSON line)
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import tempfile
import time
from typing import Any

from endeavor.web.app import create_app
from endeavor.web.fastroute import FastRoute


def _scope(method: str, path: str, token: str | None, query: bytes = b"") -> dict[str, Any]:
    headers = [(b"host", b"t")]
    if token is not None:
        headers.append((b"authorization", b"Bearer " + token.encode()))
    if method == "POST":
        headers.append((b"content-type", b"application/json"))
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
            "query_string": query, "root_path": "", "headers": headers,
            "client": ("127.0.0.1", 1), "server": ("t", 80)}


async def _call(app: Any, scope: dict[str, Any], body: bytes = b"") -> tuple[int, bytes]:
    sent = False
    status = 0
    chunks: list[bytes] = []

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, b"".join(chunks)


async def measure(games: int, seed: int) -> dict[str, Any]:
    app = create_app(f"sqlite:///{tempfile.mkdtemp()}/cpu.db")
    routes = app.router.routes
    fast = [r for r in routes if isinstance(r, FastRoute)]

    def use(variant: str) -> None:
        routes[:] = [r for r in routes if not isinstance(r, FastRoute)]
        if variant == "fast":
            routes[:0] = fast

    cpu: dict[str, list[float]] = {k: [] for k in ("GET fast", "GET fastapi", "POST fast",
                                                  "POST fastapi")}
    rng = random.Random(seed)
    async with app.router.lifespan_context(app):
        for n in range(games):
            new = {"config": {"players": 2, "seed": n}, "seats": ["human", "human"]}
            _, body = await _call(app, _scope("POST", "/api/games", None),
                                  json.dumps(new).encode())
            game = json.loads(body)
            path = f"/api/games/{game['id']}"
            tokens = {s["seat"]: s["token"] for s in game["seats"]}
            for step in range(60):
                use("fast")
                view = json.loads((await _call(app, _scope("GET", path, tokens[0])))[1])
                if view["over"]:
                    break
                seat = view["current_player"]
                for variant in rng.sample(["fast", "fastapi"], 2):
                    use(variant)
                    start = time.process_time()
                    for _ in range(4):
                        _, body = await _call(app, _scope("GET", path, tokens[seat], b"since=0"))
                    cpu[f"GET {variant}"].append((time.process_time() - start) / 4)
                view = json.loads(body)
                move = {"action": rng.choice(sorted(view["legal_actions"])), "seq": view["seq"]}
                variant = "fast" if step % 2 == 0 else "fastapi"
                use(variant)
                start = time.process_time()
                status, body = await _call(app, _scope("POST", f"{path}/actions", tokens[seat]),
                                           json.dumps(move).encode())
                cpu[f"POST {variant}"].append(time.process_time() - start)
                assert status == 200, body
    return {f"{k} ms": round(sum(v) / len(v) * 1e3, 3) for k, v in cpu.items()} | {
        "requests": {k: len(v) for k, v in cpu.items()}}


if __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    print(json.dumps(asyncio.run(measure(games, seed))))
