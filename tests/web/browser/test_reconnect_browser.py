"""The game page while the server is away: a server process of the test's own is stopped
under a phone's and a desktop's open game pages; both say "Reconnecting…" (never the
browser's own words, "Failed to fetch"), and once the server is started again on the
same port and database the banner goes and the pages show the game as it now stands (a
move recorded meanwhile by another process)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from tools.loadtest import ServerProcess

from endeavor.web import db
from endeavor.web.store import Store

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2}
BANNER = "[data-testid=reconnecting]"
#: the pages retry with a growing delay and poll every 3 s: back well within this (ms)
BACK_MS = 30_000


def _seq(page: Any) -> int:
    return int(page.locator("#app").get_attribute("data-seq") or -1)


def test_the_reconnect_banner_while_the_server_is_stopped(tmp_path: Path, new_page: Any,
                                                          shot: Any) -> None:
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    url = f"sqlite:///{tmp_path / 'reconnect.db'}"
    server = ServerProcess(url, log=tmp_path / "server.log",
                           extra=("--review-iterations", "0"))
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=10, trust_env=False) as client:
            r = client.post("/api/games", json={"config": {"players": 2, "seed": 5},
                                                "seats": ["human", "human"],
                                                "title": "Thursday at sea"})
            assert r.status_code == 201, r.text
            g = r.json()
            first = client.get(f"/api/games/{g['id']}").json()
        mover = first["current_player"]
        tokens = {s["seat"]: s["token"] for s in g["seats"]}
        pages = []
        for options in (PHONE, {}):
            page = new_page(**options)
            page.goto(f"{server.url}/play/{g['id']}#{tokens[1 - mover]}")
            page.wait_for_selector("[data-testid=whose-turn]")
            assert page.locator(BANNER).is_hidden()
            pages.append(page)

        server.stop()
        for page in pages:
            page.wait_for_selector(BANNER, state="visible", timeout=BACK_MS)
            assert "Reconnecting…" in page.locator(BANNER).inner_text()
        # a poll fails meanwhile (every 3 s): the banner says it, no toast in the
        # browser's words
        pages[0].wait_for_timeout(3500)
        for page in pages:
            text = page.locator("body").inner_text()
            assert "Failed to fetch" not in text and "NetworkError" not in text, text
            assert page.locator("[data-testid=toast].show").count() == 0
        shot(pages[0], "reconnecting-phone")
        shot(pages[1], "reconnecting-desktop")

        # another process records a move while this server is down
        engine = db.make_engine(url)
        try:
            store = Store(engine)
            snap = store.snapshot(g["id"])
            action = str(snap.state.legal_actions()[0])
            moved = store.append(g["id"], None, action, snap.seq, token=tokens[mover])
        finally:
            engine.dispose()
        assert moved.seq == first["seq"] + 1

        server.start()  # the same port and database
        for page in pages:
            page.wait_for_selector(BANNER, state="hidden", timeout=BACK_MS)
            page.wait_for_function(
                "seq => Number(document.getElementById('app').dataset.seq) >= seq",
                arg=moved.seq, timeout=BACK_MS)
            assert _seq(page) == moved.seq
            assert page.locator("[data-testid=toast].show").count() == 0
        # live again: a move now is announced over the WebSocket
        with httpx.Client(base_url=server.url, timeout=10, trust_env=False) as client:
            mine = client.get(f"/api/games/{g['id']}",
                              headers={"Authorization": f"Bearer {tokens[1 - mover]}"}).json()
            if mine["current_player"] == 1 - mover:
                r = client.post(f"/api/games/{g['id']}/actions",
                                headers={"Authorization": f"Bearer {tokens[1 - mover]}"},
                                json={"action": mine["legal_actions"][0], "seq": mine["seq"]})
                assert r.status_code == 200, r.text
                for page in pages:
                    page.wait_for_function(
                        "seq => Number(document.getElementById('app').dataset.seq) >= seq",
                        arg=r.json()["seq"], timeout=BACK_MS)
    finally:
        server.stop()
    log = server.log.read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
