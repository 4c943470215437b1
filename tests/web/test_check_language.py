"""The refusals of what a form or an API client sends, in the reader's language: a new
game's seats, names and clock, a host's extension, a seat's webhook and e-mail address,
and why a test message failed. A French request (``Accept-Language: fr``) reads French
with the message's id; without it the English words are those the server always said."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Thread
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pg import auth, tokens

from endeavor.web.notify import NotifySettings
from endeavor.web.store import BadRequest
from endeavor.web.store.clockstate import MAX_CLOCK_SECONDS

FR = {"Accept-Language": "fr-FR,fr;q=0.9"}
NB = "\u00a0"  # the no-break space of French typography, before a colon


def said(r: Any, status: int, id: str) -> str:
    """The ``detail`` of refusal ``r``, checked to be ``status`` with message ``id``."""
    assert r.status_code == status, r.text
    assert r.json()["message"]["id"] == id, r.json()
    detail: str = r.json()["detail"]
    return detail


def create(client: TestClient, headers: dict[str, str] | None = None,
           **body: Any) -> Any:
    return client.post("/api/games", headers=headers or {},
                       json={"config": {"players": 2, "seed": 1}, "seats": ["human", "human"],
                             **body})


def test_a_new_games_seats_names_and_clock_in_both_languages(client: TestClient) -> None:
    r = create(client, FR, seats=["human", "human", "human"])
    assert said(r, 400, "web.check.seats.count") == (
        "la partie se joue à 2 joueurs, mais la demande donne 3 places")
    r = create(client, seats=["human", "human", "human"])
    assert said(r, 400, "web.check.seats.count") == (
        "the game is for 2 players but 3 seats were given")
    r = create(client, FR, seats=["human", "robot"])
    assert said(r, 400, "web.check.seat.kind") == (
        f"type de place inconnu 'robot'{NB}: 'human', 'hotseat' ou 'bot:<nom>' "
        f"(robots{NB}: random, greedy, mcts, easy, medium, hard, expert)")
    r = create(client, seats=["human", "bot:nobody"])
    assert said(r, 400, "web.check.seat.bot").startswith(
        "unknown bot 'nobody' in seat 'bot:nobody': choose from random, greedy")
    r = create(client, FR, names=["Ann", "x" * 30])
    assert said(r, 400, "web.check.names.seat") == (
        f"nom de P1{NB}: un nom a au plus 24 caractères (30 donnés)")
    assert r.json()["message"]["args"]["reason"]["id"] == "web.name.long"
    r = create(client, names=["Ann", "x" * 30])
    assert r.json()["detail"] == "P1's name: a name has at most 24 characters (30 given)"
    r = create(client, FR, names=["Ann"])
    assert said(r, 400, "web.check.names.list") == (
        f"names doit être une liste d'un nom (ou null) par place{NB}: 2 en tout")
    r = create(client, FR, names=["Ann", "ann"])
    assert said(r, 400, "web.name.used") == (
        "P0 s'appelle déjà « Ann » : choisissez un autre nom")
    r = create(client, FR, clock={"bank": 0, "per_decision": 0})
    assert said(r, 400, "web.check.clock.empty") == (
        f"une pendule demande au moins 1 seconde{NB}: indiquez per_decision et/ou bank "
        "(en secondes)")
    r = create(client, FR, clock={"per_decision": 60, "bot": "nobody"})
    assert said(r, 400, "web.check.clock.bot").startswith(
        f"robot de la pendule 'nobody'{NB}: choisissez parmi random, greedy")
    r = create(client, FR, clock={"bank": 1e9})
    assert said(r, 400, "web.check.clock.range") == (
        f"le champ bank de la pendule va de 0 à 5{NB}184{NB}000 secondes (60 jours)")
    r = create(client, clock={"bank": 1e9})
    assert said(r, 400, "web.check.clock.range") == (
        f"clock bank must be from 0 to {int(MAX_CLOCK_SECONDS):,} seconds (60 days)")
    assert MAX_CLOCK_SECONDS == 60 * 24 * 3600
    assert client.get("/api/games").status_code == 200  # nothing was created meanwhile
    assert client.get("/api/games").json()["games"] == []


def test_an_extension_out_of_range(client: TestClient) -> None:
    r = create(client, clock={"per_decision": 3600})
    assert r.status_code == 201, r.text
    g = r.json()
    url = f"/api/games/{g['id']}/host/clock"
    r = client.post(url, headers={**auth(g["host_token"]), **FR}, json={"extend": 1e9})
    assert said(r, 400, "web.check.extend.range") == (
        f"extend va de 0 à 5{NB}184{NB}000 secondes (60 jours)")
    r = client.post(url, headers=auth(g["host_token"]), json={"extend": 1e9})
    assert r.json()["detail"] == "extend must be from 0 to 5,184,000 seconds (60 days)"


def test_an_engine_config_refusal_stays_the_engines(client: TestClient) -> None:
    """The engine's reason for an impossible config has no message: it stays English."""
    r = create(client, FR, config={"players": 9})
    assert r.status_code == 400 and "message" not in r.json()
    assert "players" in r.json()["detail"]


def _game(client: TestClient) -> tuple[str, dict[int, str]]:
    r = create(client)
    assert r.status_code == 201, r.text
    return r.json()["id"], tokens(r.json())


def test_a_webhook_refused_in_both_languages(client: TestClient) -> None:
    """The server does not allow private addresses here (the default)."""
    gid, toks = _game(client)
    url = f"/api/games/{gid}/notify"

    def put(webhook: str, headers: dict[str, str] | None = None) -> Any:
        return client.put(url, headers={**auth(toks[0]), **(headers or {})},
                          json={"webhook": webhook})

    r = put("http://127.0.0.1:8/hook", FR)
    assert said(r, 400, "web.check.webhook.private") == (
        "ce serveur n'envoie rien aux webhooks sur une adresse de bouclage ou de réseau "
        "privé")
    assert put("http://127.0.0.1:8/hook").json()["detail"] == (
        "this server does not send to webhooks on loopback or private network addresses")
    r = put("ftp://example.org/x", FR)
    assert said(r, 400, "web.check.webhook.usage").startswith(
        "un webhook est une adresse http:// ou https://, par exemple")
    r = put("http://[::1/x", FR)
    assert said(r, 400, "web.check.webhook.unreadable").startswith(
        f"cette adresse de webhook est illisible{NB}: un webhook est une adresse")
    assert put("http://[::1/x").json()["detail"] == (
        "this webhook URL cannot be read: a webhook is an http:// or https:// URL, e.g. "
        "https://ntfy.sh/your-topic or a Discord or Slack webhook")
    r = put("http://example.org:99999/x", FR)
    assert said(r, 400, "web.check.webhook.port") == (
        "le port du webhook n'est pas un nombre de 1 à 65535")
    r = put("http://exa mple.org/x", FR)
    assert said(r, 400, "web.check.webhook.spaces") == (
        "l'adresse d'un webhook ne contient ni espace ni caractère de contrôle")
    assert client.get(url, headers=auth(toks[0])).json()["seats"][0]["webhook"] is None


def test_an_email_refused_in_both_languages(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:  # no --smtp
        gid, toks = _game(client)
        r = client.put(f"/api/games/{gid}/notify", headers={**auth(toks[0]), **FR},
                       json={"email": "me@example.org"})
        assert said(r, 400, "web.check.email.unavailable") == (
            "ce serveur ne peut pas envoyer d'e-mails (il a été démarré sans --smtp ni "
            "--mail-from)")
    mail = NotifySettings(smtp="smtp://127.0.0.1:9", mail_from="endeavor@example.org")
    with TestClient(make_app(notify=mail)) as client:
        gid, toks = _game(client)
        url = f"/api/games/{gid}/notify"
        r = client.put(url, headers={**auth(toks[0]), **FR},
                       json={"email": "=?utf-8?q?x?=@example.org"})
        assert said(r, 400, "web.check.email.encoded") == (
            f"«{NB}=?utf-8?q?x?=@example.org{NB}» n'est pas une adresse e-mail{NB}: les mots "
            "encodés (=?...?=) ne sont pas acceptés")
        r = client.put(url, headers=auth(toks[0]), json={"email": "=?utf-8?q?x?=@example.org"})
        assert r.json()["detail"] == ("'=?utf-8?q?x?=@example.org' is not an e-mail "
                                      "address: encoded words (=?...?=) are not taken")
        r = client.put(url, headers={**auth(toks[0]), **FR}, json={"email": "nobody"})
        # the address checker's reason is its own (English): the words around it French
        assert said(r, 400, "web.check.email.invalid").startswith(
            f"«{NB}nobody{NB}» n'est pas une adresse e-mail{NB}: ")
        r = client.put(url, headers={**auth(toks[0]), **FR}, json={"email": "a\x01@b.org"})
        assert said(r, 400, "web.check.email.control") == (
            "une adresse e-mail ne contient aucun caractère de contrôle")
        assert client.get(url, headers=auth(toks[0])).json()["seats"][0]["email"] is None


class _Answers:
    """A local webhook that answers 404 (``/missing``) or a redirect (``/moved``)."""

    def __init__(self) -> None:
        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.path == "/moved":
                    self.send_response(302)
                    self.send_header("Location", "http://127.0.0.1:1/")
                else:
                    self.send_response(404, "Not Found")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def answers() -> Iterator[_Answers]:
    a = _Answers()
    yield a
    a.close()


def test_why_a_test_message_failed_in_both_languages(make_app: Callable[..., FastAPI],
                                                     answers: _Answers) -> None:
    with TestClient(make_app(notify=NotifySettings(allow_private=True))) as client:
        gid, toks = _game(client)
        for seat, path in ((0, "/missing"), (1, "/moved")):
            r = client.put(f"/api/games/{gid}/notify", headers=auth(toks[seat]),
                           json={"webhook": answers.url + path})
            assert r.status_code == 200, r.text
        test = f"/api/games/{gid}/notify/test"
        r = client.post(test, headers={**auth(toks[0]), **FR}, json={"channel": "webhook"})
        assert r.status_code == 200 and r.json()["ok"] is False
        assert r.json()["result"] == "failed: le webhook a répondu 404 Not Found"
        r = client.post(test, headers={**auth(toks[1]), **FR}, json={"channel": "webhook"})
        assert r.json()["result"] == (
            f"failed: le webhook a répondu 302 (une redirection{NB}: elle n'est pas suivie)")
    with TestClient(make_app(notify=NotifySettings(allow_private=True))) as client:
        gid, toks = _game(client)  # a new server: no test sent too recently
        r = client.put(f"/api/games/{gid}/notify", headers=auth(toks[0]),
                       json={"webhook": answers.url + "/missing"})
        r = client.post(f"/api/games/{gid}/notify/test", headers=auth(toks[0]),
                        json={"channel": "webhook"})
        assert r.json()["result"] == "failed: the webhook answered 404 Not Found"


def test_a_stores_own_checks_in_french(client: TestClient) -> None:
    """What no request of the API's forms can send (their schemas refuse it first), the
    store refuses in words too."""
    store = client.app.state.web.store  # type: ignore[attr-defined]
    gid, _ = _game(client)
    with pytest.raises(BadRequest) as e:
        store.set_notify_lang(gid, 0, "de")
    assert str(e.value) == "unknown language 'de': en, fr"
    assert e.value.words is not None
    assert e.value.words.render("fr") == f"langue inconnue 'de'{NB}: en, fr"
    with pytest.raises(BadRequest) as e:
        store.set_notification(gid, 0, "sms", "x", "token")
    assert str(e.value) == "unknown channel 'sms': webhook, email"
    assert e.value.words is not None and e.value.words.id == "web.check.channel"
    with pytest.raises(BadRequest) as e:
        store.leave_seat(gid, 0, "nobody")
    assert e.value.words is not None
    assert e.value.words.render("fr").startswith(
        "robot inconnu « nobody » : choisissez parmi random")
