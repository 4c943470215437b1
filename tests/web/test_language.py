"""The game view's words in the language asked: ``?lang=`` or the ``Accept-Language``
header (through the fast route and through FastAPI), English by default; the record and
the notation stay language-neutral; an unknown language is refused with the reason."""

from __future__ import annotations

import random
from typing import Any

from webapi import auth


def _played(api: Any) -> tuple[str, dict[int, str]]:
    g = api.create(["human", "human"], seed=4)
    toks = api.tokens(g)
    api.play_random(g["id"], toks, random.Random(3), moves=40)
    return g["id"], toks


def _texts(view: dict[str, Any]) -> list[str]:
    return [e["text"] for e in view["events"]]


def test_the_log_and_the_decision_in_french(api: Any) -> None:
    gid, toks = _played(api)
    english = api.client.get(f"/api/games/{gid}")
    assert english.headers["content-language"] == "en"
    french = api.client.get(f"/api/games/{gid}?lang=fr")
    assert french.status_code == 200 and french.headers["content-language"] == "fr"
    en, fr = english.json(), french.json()
    assert len(en["events"]) == len(fr["events"]) and en["seq"] == fr["seq"]
    assert any(t.startswith("La manche 1 sur 7 commence") for t in _texts(fr))
    assert any(t.startswith("Round 1 of 7 begins") for t in _texts(en))
    assert "Phase : Construction" in _texts(fr) and "Construction phase" in _texts(en)
    # the growth of a seat, in the third person: the log is everyone's
    assert any(t.startswith("P0 gagne ") and "réserve" in t for t in _texts(fr))
    # the same game, the same notation and record whatever the language
    # (the board's words are in the language asked: tests/web/test_board_language.py)
    assert en["legal_actions"] == fr["legal_actions"]
    assert en["state"]["round"] == fr["state"]["round"]
    mover = toks[en["current_player"]]
    by_header = api.client.get(f"/api/games/{gid}",
                               headers={**auth(mover), "Accept-Language": "fr-CA,fr;q=0.9"})
    assert by_header.headers["content-language"] == "fr"
    assert _texts(by_header.json()) == _texts(fr)
    assert [o["action"] for o in by_header.json()["decision"]["options"]] == \
        by_header.json()["legal_actions"]
    record = api.client.get(f"/api/games/{gid}/record", headers={"Accept-Language": "fr"})
    assert record.json() == api.client.get(f"/api/games/{gid}/record").json()


def test_a_move_answers_in_the_language_asked(api: Any) -> None:
    g = api.create(["human", "human"], seed=5)
    toks = api.tokens(g)
    v = api.view(g["id"])
    tok = toks[v["current_player"]]
    mine = api.view(g["id"], tok)
    r = api.client.post(f"/api/games/{g['id']}/actions", headers={
        **auth(tok), "Accept-Language": "fr"},
        json={"action": mine["legal_actions"][0], "seq": mine["seq"]})
    assert r.status_code == 200 and r.headers["content-language"] == "fr"
    seat = v["current_player"]
    # the action's own line: the seat, then French punctuation (a space before the colon)
    assert any(e["text"].startswith(f"P{seat} : ") for e in r.json()["events"])


def test_an_unknown_language_is_refused_with_the_reason(api: Any) -> None:
    g = api.create(["human", "human"])
    r = api.client.get(f"/api/games/{g['id']}?lang=de")
    assert r.status_code == 400
    assert "unknown language 'de': the server speaks en, fr" in r.text
    assert "Traceback" not in r.text
    # a header the server cannot serve falls back to English
    r = api.client.get(f"/api/games/{g['id']}", headers={"Accept-Language": "de-DE,de"})
    assert r.status_code == 200 and r.headers["content-language"] == "en"


def test_the_words_come_with_their_messages_the_same_in_every_language(api: Any) -> None:
    """The decision, each option and each engine event carry their message (id and
    arguments, language-neutral): the same in English and in French, and the engine
    renders them into the very words the view gives."""
    from endeavor.messages import from_dict

    gid, toks = _played(api)
    mover = api.view(gid)["current_player"]
    en = api.client.get(f"/api/games/{gid}", headers=auth(toks[mover])).json()
    fr = api.client.get(f"/api/games/{gid}?lang=fr", headers=auth(toks[mover])).json()
    assert en["decision"]["message"] == fr["decision"]["message"]
    assert [o["message"] for o in en["decision"]["options"]] == \
        [o["message"] for o in fr["decision"]["options"]]
    engine = [e for e in en["events"] if "message" in e]
    assert len(engine) > 20
    assert [e.get("message") for e in en["events"]] == [e.get("message") for e in fr["events"]]
    for view, lang in ((en, "en"), (fr, "fr")):
        for option in view["decision"]["options"]:
            words = from_dict(option["message"]).render(lang, viewer=mover)
            assert " ".join(words.split()).startswith(option["text"][:20]), (words, option)
        for event in view["events"]:
            if "message" in event:
                words = from_dict(event["message"]).render(lang)
                assert event["text"][:20] in " ".join(words.split()), (words, event)


def test_an_illegal_move_is_refused_in_the_language_asked(api: Any) -> None:
    """The engine's reason for refusing a move, said to the seat that tried it, in the
    request's language, with its message; the game unchanged."""
    from endeavor import GameConfig, IllegalActionError, new_game

    g = api.create(["human", "human"], seed=6)
    toks = api.tokens(g)
    mover = api.view(g["id"])["current_player"]
    before = api.view(g["id"])
    state = new_game(GameConfig(players=2, seed=6))
    try:
        state.apply("pass")
        raise AssertionError("pass should be illegal at the start")
    except IllegalActionError as e:
        english, message = str(e), e.message
    assert message is not None
    answers = {}
    for lang in ("en", "fr"):
        r = api.client.post(f"/api/games/{g['id']}/actions?lang={lang}",
                            headers=auth(toks[mover]), json={"action": "pass", "seq": 0})
        assert r.status_code == 400, r.text
        answers[lang] = r.json()
    assert answers["en"]["detail"] == english
    assert answers["fr"]["detail"] == message.render("fr", viewer=mover)
    assert answers["fr"]["detail"] != english
    assert answers["en"]["message"] == answers["fr"]["message"] == message.to_dict()
    by_header = api.client.post(f"/api/games/{g['id']}/actions", json={
        "action": "pass", "seq": 0}, headers={**auth(toks[mover]), "Accept-Language": "fr"})
    assert by_header.json()["detail"] == answers["fr"]["detail"]
    assert api.view(g["id"]) == before


def test_the_option_groups_and_the_score_pad_in_the_language_asked(api: Any) -> None:
    """The options' group labels (a menu's headings) and the score pad's lines (an
    Exploit's by its name) are words too: French for a French reader, English as before."""
    g = api.create(["human", "human"], seed=8, exploits=["spanish_main"])
    toks = api.tokens(g)
    groups: dict[str, set[str]] = {"en": set(), "fr": set()}
    rng = random.Random(2)
    v = api.view(g["id"])
    while not v["over"]:
        token = toks[v["current_player"]]
        for lang in ("en", "fr"):
            mine = api.client.get(f"/api/games/{g['id']}?lang={lang}", headers=auth(token))
            groups[lang] |= {o["group"] for o in mine.json()["decision"]["options"]}
        r = api.move(g["id"], token, rng.choice(mine.json()["legal_actions"]), mine.json()["seq"])
        v = r.json()
    assert {"Build", "Ship", "Pass", "Activate"} <= groups["en"]
    assert {"Construire", "Navigation", "Passer", "Activer"} <= groups["fr"]
    assert not groups["fr"] & {"Build", "Pass", "Activate", "Use token", "Start tile"}
    en = api.client.get(f"/api/games/{g['id']}?lang=en").json()["scores"]
    fr = api.client.get(f"/api/games/{g['id']}?lang=fr").json()["scores"]
    en_lines = [name for name, _ in en[0]["lines"]]
    fr_lines = [name for name, _ in fr[0]["lines"]]
    assert en_lines[0] == "The Spanish Main" and "Buildings & cards" in en_lines
    assert fr_lines[0] != en_lines[0] and "Bâtiments et cartes" in fr_lines
    assert "Villes et liaisons" in fr_lines and "Richesse" in fr_lines
    assert [[pts for _, pts in s["lines"]] for s in en] == \
        [[pts for _, pts in s["lines"]] for s in fr]
