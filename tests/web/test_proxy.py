"""The app behind a reverse proxy, as docs/deploy.md sets it up: Debian's nginx with the
doc's site (HTTPS, the path-prefix variant) on loopback in front of ``endeavor serve``
started with the doc's systemd command line (``--workers 2``, ``--public-url
https://127.0.0.1:<nginx>/endeavor``, ``--forwarded-allow-ips 127.0.0.1``).

Through the proxy: the page at ``/endeavor/`` and every script and style it loads, the
API, ``/docs``, the WebSocket, and every link in the answers on the public address.
Straight to the app from another loopback address (127.0.0.2), forged ``X-Forwarded-*``
headers are not believed: neither the scheme (seen in the redirect a trailing slash
gets) nor the client's address (seen in the server's access log).

Skipped without nginx or openssl (``tools/ci_services.sh`` installs them), except under
CI, where that is a failure."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import deploydoc
import httpx
import pytest
from deploydoc import Proxied

pytest.importorskip("fastapi", reason="the web extra is not installed")

from fastapi import FastAPI  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from tools.loadtest import free_port  # noqa: E402

from endeavor.web.links import Links  # noqa: E402


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxied]:
    tmp = tmp_path_factory.mktemp("proxy")
    # --log-level info: Uvicorn's access log, where the client's address shows
    with deploydoc.proxied(tmp, f"sqlite:///{tmp / 'games.db'}",
                           extra=("--log-level", "info")) as p:
        yield p


def through(p: Proxied, local: str = "127.0.0.1") -> httpx.Client:
    """A client of the public address (nginx), its connections from ``local``."""
    return httpx.Client(base_url=p.public_url, timeout=30, trust_env=False,
                        transport=httpx.HTTPTransport(verify=p.ssl_context(),
                                                      local_address=local))


def direct(p: Proxied, local: str) -> httpx.Client:
    """A client of the app itself (no proxy), its connections from ``local``."""
    return httpx.Client(base_url=p.app.url, timeout=30, trust_env=False,
                        transport=httpx.HTTPTransport(local_address=local))


def create(c: httpx.Client, seats: list[str], **headers: str) -> dict[str, Any]:
    r = c.post("/api/games", json={"config": {"players": len(seats), "seed": 5},
                                   "seats": seats}, headers=headers)
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def move(c: httpx.Client, created: dict[str, Any]) -> int:
    """The seat to move of a game of people plays its first legal action; the new seq."""
    gid = created["id"]
    seat = c.get(f"/api/games/{gid}").json()["current_player"]
    auth = {"Authorization": f"Bearer {created['seats'][seat]['token']}"}
    view = c.get(f"/api/games/{gid}", headers=auth).json()
    r = c.post(f"/api/games/{gid}/actions", headers=auth,
               json={"action": view["legal_actions"][0], "seq": view["seq"]})
    assert r.status_code == 200, r.text
    seq: int = r.json()["seq"]
    assert seq == view["seq"] + 1
    return seq


def wait_for(find: Callable[[], Any], what: str, timeout: float = 10) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = find()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout} s")
        time.sleep(0.05)


# --------------------------------------------------------------------------- nginx
def test_page_api_and_links_through_the_prefix(proxy: Proxied) -> None:
    public = proxy.public_url
    with through(proxy) as c:
        page = c.get("/")
        assert page.status_code == 200 and '<base href="/endeavor/">' in page.text
        # every script, style and module the page loads, resolved as the browser does
        base = public + "/"
        refs = re.findall(r'(?:src|href)="(static/[^"]+)"', page.text)
        assert {"static/app.js", "static/style.css"} <= set(refs), refs
        modules = [r for r in refs if r.endswith(".js")]
        seen: set[str] = set()
        while modules:
            ref = modules.pop()
            if ref in seen:
                continue
            seen.add(ref)
            r = c.get(urljoin(base, ref))
            assert r.status_code == 200, (ref, r.status_code)
            assert "javascript" in r.headers["content-type"], ref
            modules += [urljoin(ref, m) for m in re.findall(r'from "(\./[^"]+)"', r.text)]
        assert len(seen) >= 5, seen  # app.js and the modules it imports
        for ref in refs:
            assert c.get(urljoin(base, ref)).status_code == 200, ref
        # nginx sends the bare prefix to the page
        r = c.get(public, follow_redirects=False)
        assert r.status_code == 301 and r.headers["location"] == public + "/"

        created = create(c, ["human", "human"])
        gid = created["id"]
        assert created["spectate_url"] == f"{public}/game/{gid}"
        assert created["host_url"].startswith(f"{public}/host/{gid}#")
        urls = [s["url"] for s in created["seats"]]
        assert all(u.startswith(f"{public}/play/{gid}#") for u in urls), urls
        # the links open pages through the proxy
        for url in (urls[0], created["host_url"], created["spectate_url"]):
            r = c.get(url.split("#")[0])
            assert r.status_code == 200 and '<base href="/endeavor/">' in r.text, url
        lobby = c.get("/api/games").json()["games"]
        assert [g["spectate_url"] for g in lobby if g["id"] == gid] == [f"{public}/game/{gid}"]
        host = {"Authorization": f"Bearer {created['host_token']}"}
        panel = c.get(f"/api/games/{gid}/host", headers=host).json()
        assert panel["host_url"] == created["host_url"]
        assert [s["url"] for s in panel["seats"]] == urls
        # a move through the proxy
        seq = move(c, created)
        assert c.get(f"/api/games/{gid}").json()["seq"] == seq
        reissued = c.post(f"/api/games/{gid}/host/seats/1/reissue", headers=host).json()
        new = reissued["seats"][1]["url"]
        assert new.startswith(f"{public}/play/{gid}#") and new != urls[1]

        # the API's own documentation finds its schema under the prefix
        docs = c.get("/docs")
        assert docs.status_code == 200 and "/endeavor/openapi.json" in docs.text
        assert c.get("/openapi.json").json()["servers"] == [{"url": "/endeavor"}]
        # errors in words, with the public path; the app's 1 MiB limit, not nginx's
        r = c.get("/api/nothing")
        assert r.status_code == 404
        assert r.json() == {"detail": "no such address: GET /endeavor/api/nothing"}
        # (the app reads what nginx sends of a body it refuses: no reset, no 502)
        for size in (3 << 19, (2 << 20) - 100) * 3:
            r = c.post("/api/games", content=b"x" * size,
                       headers={"Content-Type": "application/json"})
            assert r.status_code == 413 and "too large" in r.json()["detail"], r.text
    # plain HTTP is sent to HTTPS
    with httpx.Client(timeout=10, trust_env=False) as plain:
        r = plain.get(f"http://127.0.0.1:{proxy.http_port}/endeavor/", follow_redirects=False)
        assert r.status_code == 301 and r.headers["location"].startswith("https://")


def _client_logged(proxy: Proxied, probe: str) -> str:
    """The client address Uvicorn's access log shows for the request with ``probe``."""
    def find() -> str | None:
        m = re.search(rf'(\S+) - "GET \S*probe={probe} HTTP', proxy.log())
        return m.group(1) if m else None
    found: str = wait_for(find, f"the access log line of {probe}")
    return found


def test_forwarded_headers_are_believed_from_the_proxy_only(proxy: Proxied) -> None:
    """X-Forwarded-For/-Proto count from nginx (127.0.0.1) only: a client that reaches
    the app directly from 127.0.0.2 cannot pass itself off as another address or as
    HTTPS, and X-Forwarded-Host/-Prefix change nothing from anyone."""
    forged = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https",
              "X-Forwarded-Host": "evil.example", "X-Forwarded-Prefix": "/evil"}
    app_base = f"127.0.0.1:{proxy.app.port}"
    # through nginx, from 127.0.0.3: nginx sets the scheme, adds the real address
    with through(proxy, "127.0.0.3") as c:
        r = c.get("/api/games/?probe=proxied", headers={**forged, "X-Forwarded-Proto": "http"},
                  follow_redirects=False)
        assert r.status_code == 307, r.text
        assert r.headers["location"] == f"{proxy.public_url}/api/games?probe=proxied"
        assert _client_logged(proxy, "proxied").startswith("127.0.0.3:")
        # the same forgeries in a game's creation leave its links alone
        links = create(c, ["human", "bot:random"], **forged)
        assert links["spectate_url"].startswith(proxy.public_url + "/game/")
    # straight to the app from 127.0.0.2: nothing forwarded is believed
    with direct(proxy, "127.0.0.2") as c:
        r = c.get("/api/games/?probe=forged", headers=forged, follow_redirects=False)
        assert r.status_code == 307
        assert r.headers["location"] == f"http://{app_base}/endeavor/api/games?probe=forged"
        assert _client_logged(proxy, "forged").startswith("127.0.0.2:")
        links = create(c, ["human", "bot:random"], **forged)
        assert links["spectate_url"].startswith(proxy.public_url + "/game/")
        assert all(s["url"] is None or s["url"].startswith(proxy.public_url + "/play/")
                   for s in links["seats"])
    # ... while from the trusted address the same headers do count (what the proxy uses)
    with direct(proxy, "127.0.0.1") as c:
        r = c.get("/api/games/?probe=trusted", headers=forged, follow_redirects=False)
        assert r.headers["location"] == f"https://{app_base}/endeavor/api/games?probe=trusted"
        assert _client_logged(proxy, "trusted").startswith("203.0.113.9:")
    assert "evil" not in proxy.log()


def test_websocket_through_the_proxy_announces_a_move(proxy: Proxied) -> None:
    from websockets.sync.client import connect

    with through(proxy) as c:
        created = create(c, ["human", "human"])
        gid = created["id"]
        uri = f"wss://127.0.0.1:{proxy.https_port}/endeavor/api/games/{gid}/ws"
        with connect(uri, ssl=proxy.ssl_context(), open_timeout=15) as ws:
            assert json.loads(ws.recv(timeout=15)) == {"seq": 0}
            assert move(c, created) == 1
            assert json.loads(ws.recv(timeout=15)) == {"seq": 1}


def test_the_doc_site_at_the_root_is_valid_for_nginx(tmp_path: Path) -> None:
    """The doc's site as written (``location /``, no prefix): ``nginx -t`` accepts it."""
    cert, key = deploydoc.self_signed(tmp_path)
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets" / "endeavor-proxy.conf").write_text(deploydoc.block("nginx-proxy"))
    site = tmp_path / "endeavor.site"
    site.write_text(deploydoc.site(8000, 1080, 1443, cert, key, tmp_path, prefix=False))
    assert "location / {\n        proxy_pass http://127.0.0.1:8000;" in site.read_text()
    conf = tmp_path / "nginx.conf"
    conf.write_text(deploydoc.nginx_conf(tmp_path, site))
    deploydoc.nginx_test(tmp_path, conf)


# --------------------------------------------------------------------------- in process
@pytest.fixture
def prefixed(make_app: Callable[..., FastAPI]) -> Callable[[str], TestClient]:
    def make(public: str) -> TestClient:
        return TestClient(make_app(links=Links(public)), base_url="http://127.0.0.1:9")
    return make


def test_prefix_stripped_or_passed_on(prefixed: Callable[[str], TestClient]) -> None:
    """Under /endeavor the app answers a path with or without the prefix (a proxy may
    strip it or not); what it builds from the request carries it."""
    with prefixed("https://games.example.org/endeavor") as c:
        for path in ("/api/meta", "/endeavor/api/meta", "/static/app.js",
                     "/endeavor/static/app.js"):
            assert c.get(path).status_code == 200, path
        for path in ("/", "/endeavor/", "/endeavor", "/new", "/endeavor/new"):
            r = c.get(path)
            assert r.status_code == 200 and '<base href="/endeavor/">' in r.text, path
        for path in ("/api/games/", "/endeavor/api/games/"):
            r = c.get(path, follow_redirects=False)
            assert r.headers["location"] == "http://127.0.0.1:9/endeavor/api/games", path
        r = c.get("/api/nothing")
        assert r.json() == {"detail": "no such address: GET /endeavor/api/nothing"}
        r = c.get("/nothing")
        assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
        gid = c.post("/api/games", json={"config": {"players": 2, "seed": 1},
                                         "seats": ["human", "human"]}).json()["id"]
        with c.websocket_connect(f"/endeavor/api/games/{gid}/ws") as ws:
            assert ws.receive_json() == {"seq": 0}
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            assert ws.receive_json() == {"seq": 0}


def test_a_prefix_like_the_apps_own_paths_must_be_stripped(
        prefixed: Callable[[str], TestClient]) -> None:
    """``--public-url https://example.org/play``: ``/play/<id>`` is the app's own game
    page (a stripped path), never ``/<id>`` under the prefix."""
    with prefixed("https://example.org/play") as c:
        gid = c.post("/api/games", json={"config": {"players": 2, "seed": 1},
                                         "seats": ["human", "human"]}).json()["id"]
        r = c.get(f"/play/{gid}")
        assert r.status_code == 200 and '<base href="/play/">' in r.text
        assert c.get("/api/meta").status_code == 200
        assert c.get("/play/api/meta").status_code == 404
        r = c.get("/api/games/", follow_redirects=False)
        assert r.headers["location"] == "http://127.0.0.1:9/play/api/games"


def test_serve_passes_the_trusted_proxies_to_uvicorn(tmp_path: Path, monkeypatch: Any,
                                                      capsys: Any) -> None:
    """No ``--forwarded-allow-ips``: Uvicorn (under ``supervisor.run``) reads no
    forwarded header from anyone;
    with it, from those addresses only; a value that is not an address or a network is
    refused in one line."""
    from endeavor.cli import main
    from endeavor.web import supervisor

    calls: list[dict[str, Any]] = []

    def run(*a: Any, **kw: Any) -> bool:
        calls.append(kw)
        return True

    monkeypatch.setattr(supervisor, "run", run)
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "*")  # Uvicorn's own default: not used
    for var in ("ENDEAVOR_DB", "ENDEAVOR_PUBLIC_URL", "ENDEAVOR_FALLBACK_URL"):
        monkeypatch.delenv(var, raising=False)  # serve sets them for its workers
    base = ["serve", "--port", str(free_port()), "--db", f"sqlite:///{tmp_path}/s.db"]
    assert main(base) == 0
    assert calls[-1]["proxy_headers"] is False
    assert main([*base, "--forwarded-allow-ips", "127.0.0.1, ::1,10.0.0.0/8"]) == 0
    assert calls[-1]["proxy_headers"] is True
    assert calls[-1]["forwarded_allow_ips"] == ["127.0.0.1", "::1", "10.0.0.0/8"]
    capsys.readouterr()
    for bad in ("nginx", "10.0.0.1/8", "127.0.0.300"):
        assert main([*base, "--forwarded-allow-ips", bad]) == 2
        err = capsys.readouterr().err
        assert err.startswith("endeavor: error: --forwarded-allow-ips") and bad in err, err
        assert err.count("\n") == 1
    assert len(calls) == 2
