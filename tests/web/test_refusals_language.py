"""The server's refusals during play and at the table in the request's language: a move
or an undo refused, the host's panel (links, bots, clocks, the end), a seat's name, the
chat, the review, a seat's notifications, a rematch and a claim with a link of no seat.
Asked in French (``Accept-Language: fr``, or ``?lang=fr``), the ``detail`` is the French
text and ``message`` its id; asked without, the English is word for word what it always
was (clients match on it)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from webapi import Api, auth

from endeavor.web.store import BadRequest

FR = {"Accept-Language": "fr"}
NBSP = "\u00a0"


def refused(client: TestClient, method: str, url: str, status: int, id: str,
            english: str, french: str, token: str | None = None,
            json: Any = None) -> None:
    """``method url`` is refused with ``status``: in English without a language, in
    French with ``Accept-Language: fr``, the same message id both times."""
    for headers, words in (({}, english), (FR, french.replace(" :", NBSP + ":")
                                          .replace(" ;", NBSP + ";"))):
        r = client.request(method, url, headers={**auth(token), **headers}, json=json)
        assert r.status_code == status, r.text
        body = r.json()
        assert body["detail"] == words, body
        assert body["message"]["id"] == id, body


def test_a_move_and_an_undo_refused(api: Api, client: TestClient) -> None:
    game = api.create(["human", "human"])
    gid, toks = game["id"], api.tokens(game)
    view = api.view(gid)
    cur = view["current_player"]
    other = toks[1 - cur]
    move = {"action": "pass", "seq": 0}
    refused(client, "POST", f"/api/games/{gid}/actions", 403, "web.refuse.not_your_move",
            f"P{cur} is to move, not you", f"c'est à P{cur} de jouer, pas à vous",
            token=other, json=move)
    refused(client, "POST", f"/api/games/{gid}/actions", 409, "web.refuse.moved_on",
            "the game has moved on since this page was drawn (it is at move 0, you saw "
            "move 5): look again",
            "la partie a avancé depuis l'affichage de cette page (elle en est au coup 0, "
            "vous avez vu le coup 5) : regardez de nouveau",
            token=toks[cur], json={"action": "pass", "seq": 5})
    refused(client, "POST", f"/api/games/{gid}/undo", 409, "web.refuse.undo_none",
            "nothing to undo: no action has been played yet",
            "rien à annuler : aucune action n'a encore été jouée",
            token=toks[cur], json={"seq": 0})
    refused(client, "GET", f"/api/games/{gid}", 403, "web.refuse.not_a_seat",
            "this link is not a seat of this game (any more)",
            "ce lien n'est pas (ou plus) celui d'une place de cette partie", token="nope")
    refused(client, "GET", f"/api/games/{gid}/replay/3", 404, "web.refuse.no_position",
            f"game {gid} has 0 actions: ask for a position from 0 to 0",
            f"la partie {gid} compte 0 actions : demandez une position de 0 à 0")
    refused(client, "GET", "/api/games/nosuchgame", 404, "web.refuse.no_game",
            "no game 'nosuchgame'", "aucune partie 'nosuchgame'")
    # ?lang= says it too (the page's language, whatever the browser's)
    r = client.post(f"/api/games/{gid}/actions?lang=fr", headers=auth(other), json=move)
    assert r.json()["detail"] == f"c'est à P{cur} de jouer, pas à vous"
    assert api.view(gid)["seq"] == 0  # nothing was written


def test_the_host_panel_and_the_seats_refused(api: Api, client: TestClient) -> None:
    game = api.create(["human", "human", "bot:medium"])
    gid, toks, host = game["id"], api.tokens(game), game["host_token"]
    base = f"/api/games/{gid}/host"
    refused(client, "GET", base, 403, "web.refuse.not_host",
            "this is not the host's link of this game",
            "ce lien n'est pas celui de l'hôte de cette partie", token=toks[0])
    refused(client, "POST", f"{base}/seats/2/bot", 409, "web.refuse.bot_plays",
            "the medium bot already plays P2", "le robot moyen joue déjà P2",
            token=host, json={"bot": "medium"})
    refused(client, "POST", f"{base}/seats/2/reissue", 409, "web.refuse.no_link_bot",
            "P2 has no link to re-issue: a bot plays it; hand it back to a player instead",
            "la place P2 n'a pas de lien à renouveler : un robot la joue ; rendez-la plutôt "
            "à un joueur", token=host)
    refused(client, "POST", f"{base}/seats/0/human", 409, "web.refuse.person_plays",
            "P0 is already played by a person: re-issue its link if it was lost",
            "la place P0 est déjà jouée par une personne : donnez-lui un nouveau lien s'il "
            "a été perdu", token=host)
    refused(client, "POST", f"{base}/clock", 409, "web.refuse.no_clock",
            "this game has no clock", "cette partie n'a pas de pendule",
            token=host, json={"paused": True})
    refused(client, "PUT", f"/api/games/{gid}/name", 403, "web.refuse.not_yours",
            "this link is not P1's", "ce lien n'est pas celui de P1",
            token=toks[0], json={"name": "Ann", "seat": 1})
    r = client.post(f"{base}/end", headers=auth(host))
    assert r.status_code == 200, r.text
    seq = api.view(gid)["seq"]
    refused(client, "POST", f"/api/games/{gid}/actions", 409, "web.refuse.ended_by_host",
            "the game was ended by the host", "l'hôte a mis fin à la partie",
            token=toks[0], json={"action": "pass", "seq": seq})
    refused(client, "POST", f"{base}/seats/1/bot", 409, "web.refuse.ended_by_host",
            "the game was ended by the host", "l'hôte a mis fin à la partie",
            token=host, json={"bot": "easy"})


def test_a_benched_seat_is_told_why_in_its_language(api: Api, client: TestClient) -> None:
    game = api.create(["human", "human"])
    gid, toks = game["id"], api.tokens(game)
    r = client.post(f"/api/games/{gid}/host/seats/1/bot", headers=auth(game["host_token"]),
                    json={"bot": "easy"})
    assert r.status_code == 200, r.text
    watched = client.get(f"/api/games/{gid}?lang=fr", headers=auth(toks[1])).json()
    since = watched["benched"][0]["since"]
    day, hour = since[:10], since[11:16]
    french = (f"L'hôte a donné votre place (P1) au robot facile le {day} à {hour} UTC ; "
              "demandez-lui de vous la rendre")
    assert watched["benched"][0]["words"] == french.replace(" ;", NBSP + ";")
    english = api.view(gid, toks[1])["benched"][0]["words"]
    assert english == (f"The host gave your seat (P1) to the easy bot on {day} at {hour} "
                       "UTC; ask them to hand it back")
    refused(client, "POST", f"/api/games/{gid}/actions", 403, "web.refuse.benched_on",
            english, french, token=toks[1], json={"action": "pass", "seq": 1})


def test_the_chat_refused(api: Api, client: TestClient) -> None:
    game = api.create(["human", "human"])
    gid, toks = game["id"], api.tokens(game)
    chat = f"/api/games/{gid}/chat"
    refused(client, "POST", chat, 403, "web.refuse.chat_host",
            "the host's link cannot write in the chat: write from a seat's link",
            "le lien de l'hôte ne peut pas écrire dans la discussion : écrivez depuis le "
            "lien d'une place", token=game["host_token"], json={"body": "hello"})
    refused(client, "POST", chat, 400, "web.refuse.chat_empty",
            "the message is empty: write something",
            "le message est vide : écrivez quelque chose", token=toks[0], json={"body": "  "})
    refused(client, "POST", chat, 400, "web.refuse.chat_lines",
            "the message has 13 lines: at most 12", "le message a 13 lignes : au plus 12",
            token=toks[0], json={"body": "\n".join("a" * 13)})
    refused(client, "GET", chat, 403, "web.refuse.not_a_seat",
            "this link is not a seat of this game (any more)",
            "ce lien n'est pas (ou plus) celui d'une place de cette partie", token="nope")
    refused(client, "DELETE", f"{chat}/1", 403, "web.refuse.delete_host",
            "only the host can delete a chat message",
            "seul l'hôte peut supprimer un message de la discussion", token=toks[0])
    assert client.get(chat).json()["messages"] == []


def test_the_review_and_the_notifications_refused(api: Api, client: TestClient) -> None:
    game = api.create(["human", "human"])
    gid, toks = game["id"], api.tokens(game)
    refused(client, "GET", f"/api/games/{gid}/review", 409, "web.refuse.review_not_over",
            "the game is not over: its review is made once it has ended",
            "la partie n'est pas terminée : son analyse se fait une fois qu'elle a pris fin")
    refused(client, "PUT", f"/api/games/{gid}/notify", 409, "web.refuse.no_email",
            "P0 has no email set: set its address first",
            "P0 n'a pas d'e-mail : indiquez d'abord son adresse",
            token=toks[0], json={"email_mode": "digest"})
    refused(client, "POST", f"/api/games/{gid}/notify/test", 409,
            "web.refuse.no_webhook_test", "P1 has no webhook set: save an address first",
            "P1 n'a pas de webhook : enregistrez d'abord une adresse",
            token=toks[1], json={"channel": "webhook"})


def test_a_link_of_no_seat_asks_for_a_rematch_or_a_claim(api: Api,
                                                         client: TestClient) -> None:
    game = api.create(["human", "human"])
    gid = game["id"]
    english = "this link is not a seat of this game (any more)"
    french = "ce lien n'est pas (ou plus) celui d'une place de cette partie"
    refused(client, "POST", f"/api/games/{gid}/rematch/join", 403, "web.refuse.not_a_seat",
            english, french, token="nope")
    r = client.post("/api/account/signup",
                    json={"name": "Jo", "password": "correct horse battery"})
    assert r.status_code == 201, r.text
    refused(client, "POST", "/api/account/claim", 403, "web.refuse.not_a_seat",
            english, french, json={"game_id": gid, "token": "nope"})


def test_the_lobby_refuses_an_unknown_status_in_words(client: TestClient) -> None:
    store = client.app.state.store  # type: ignore[attr-defined]
    with pytest.raises(BadRequest) as refusal:
        store.lobby("bogus")
    assert str(refusal.value) == "unknown status 'bogus': open, running, over"
    assert refusal.value.words is not None
    assert refusal.value.words.render("fr") == (
        f"statut inconnu 'bogus'{NBSP}: open, running, over")


def test_play_again_refused_in_the_pages_language(api: Api, client: TestClient) -> None:
    """Play again and Join the rematch before the game has ended, and a request in a
    language the server does not speak, and the host's clock asked for nothing."""
    game = api.create(["human", "human"])
    gid, toks = game["id"], api.tokens(game)
    refused(client, "POST", f"/api/games/{gid}/rematch", 409, "web.refuse.rematch_not_over",
            "the game is not over yet: Play again is offered once it has ended",
            "la partie n'est pas encore finie : Rejouer est proposé une fois qu'elle est "
            "terminée", token=toks[0])
    refused(client, "POST", f"/api/games/{gid}/rematch", 401, "web.refuse.rematch_token",
            "a seat's or the host's token is needed: Authorization: Bearer <token>",
            "il faut le jeton d'accès d'une place ou de l'hôte : Authorization: Bearer "
            "<token>")
    refused(client, "POST", f"/api/games/{gid}/rematch", 403, "web.refuse.rematch_not_seat",
            "this link is neither a seat nor the host of this game",
            "ce lien n'est ni une place ni l'hôte de cette partie", token="nope")
    refused(client, "POST", f"/api/games/{gid}/rematch/join", 404, "web.refuse.rematch_none",
            "there is no rematch of this game yet: propose one with Play again",
            "cette partie n'a pas encore de revanche : proposez-en une avec Rejouer",
            token=toks[1])
    refused(client, "POST", f"/api/games/{gid}/host/clock", 400,
            "web.refuse.extend_or_pause",
            "give either extend (seconds, with an optional seat) or paused (true or false)",
            "indiquez soit extend (des secondes, avec une place si vous le souhaitez), soit "
            "paused (true ou false)", token=game["host_token"], json={})
    r = client.get(f"/api/games/{gid}?lang=xx")
    assert r.status_code == 400, r.text
    assert r.json()["detail"] == "unknown language 'xx': the server speaks en, fr"
    assert r.json()["message"]["id"] == "web.refuse.language"
