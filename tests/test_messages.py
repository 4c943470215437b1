"""Structured messages: every event says what happened as a message id and arguments,
read in English as the engine always said it, or in French, in the second person by the
seat it is about, with the client's seat names; the catalogs are complete."""

from __future__ import annotations

import pickle
import random
import sys
from pathlib import Path

import pytest

from endeavor import GameConfig, new_game
from endeavor import actions as A
from endeavor import data as D
from endeavor import testing as T
from endeavor.errors import IllegalActionError
from endeavor.events import Event
from endeavor.messages import (
    MESSAGES,
    Count,
    Items,
    Message,
    Seat,
    Term,
    define,
    fields_of,
    from_dict,
    locale_of,
    msg,
    render,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

NAMES = ("Ana", "Bob", "Chloé", "Dan", "Eve")

CONFIGS = [
    {"players": 2, "seed": 3, "options": {"silent_fleet": True, "limited_occupation": True,
                                          "building_shortage": True}},
    {"players": 2, "seed": 8, "options": {"silent_fleet": True, "no_token_reaction": True}},
    {"players": 3, "seed": 4, "exploits": ("letters_of_marque", "imperialism",
                                           "dutch_east_india_company")},
    {"players": 4, "seed": 5, "ruleset": "classic"},
    {"players": 5, "seed": 6},
]


def _events(cfg: dict[str, object]) -> list[Event]:
    s = new_game(GameConfig(**cfg))  # type: ignore[arg-type]
    r = random.Random(1)
    out: list[Event] = []
    while not s.is_over:
        d = s.decision()
        assert d is not None
        out.extend(s.apply(d.options[r.randrange(len(d.options))].action))
    return out


@pytest.fixture(scope="module")
def events() -> list[Event]:
    return [e for cfg in CONFIGS for e in _events(cfg)]


def test_every_event_carries_a_message_that_reads_as_its_text(events: list[Event]) -> None:
    kinds = set()
    for e in events:
        m = e.message
        assert m is not None and m.id in MESSAGES, e
        kinds.add(m.id)
        # the English words as the engine always said them; a few old texts speak to the
        # seat the message is about ("your Ship")
        assert e.text in (m.render(), m.render(viewer=m.subject)), (e.text, m)
        assert e.render() == m.render()
    assert {"event.action", "event.round", "event.phase", "event.growth", "salary.paid",
            "silent_fleet.ship"} <= kinds
    assert kinds & {"event.game_end.win", "event.game_end.shared"}


def test_the_seat_concerned_reads_the_second_person_and_the_others_the_third(
        events: list[Event]) -> None:
    growth = next(e for e in events if e.message and e.message.id == "event.growth")
    p = growth.player
    assert p is not None
    other = (p + 1) % 2
    mine = growth.render(viewer=p, seats=NAMES.__getitem__)
    theirs = growth.render(viewer=other, seats=NAMES.__getitem__)
    assert mine.startswith("You gain ") and NAMES[p] not in mine
    assert theirs.startswith(f"{NAMES[p]} gains ")
    assert growth.render() == growth.text and growth.text.startswith(f"P{p} gains ")
    assert growth.render("fr", viewer=p).startswith("Vous gagnez ")
    assert growth.render("fr", viewer=other, seats=NAMES.__getitem__).startswith(
        f"{NAMES[p]} gagne ")


def test_french_words_for_every_event(events: list[Event]) -> None:
    seen: dict[str, str] = {}
    for e in events:
        m = e.message
        assert m is not None
        if m.id == "event.action":  # the options' words are not messages yet
            continue
        fr = e.render("fr", seats=NAMES.__getitem__)
        assert "{" not in fr and "}" not in fr, fr
        seen.setdefault(m.id, fr)
    assert seen["event.phase"].startswith("Phase : ")
    assert seen["event.round"].startswith("La manche 1 sur ")
    for id, fr in seen.items():
        english = MESSAGES[id].text
        words = [w for w in english.replace("{", " {").split() if w.isalpha() and len(w) > 4]
        assert not any(f" {w} " in f" {fr} " for w in words if w not in (
            "Culture", "Influence", "Europe", "Finance")), (id, fr)


def test_counts_terms_and_lists_follow_the_locale() -> None:
    m = msg("event.growth", seat=Seat(1), discs=Count(2, "disc"), culture=3)
    assert m.render() == "P1 gains 2 discs from the supply (Growth, Culture 3)"
    assert render(m, "fr", viewer=1) == ("Vous gagnez 2 disques de votre réserve "
                                         "(Croissance, Culture 3)")
    one = msg("event.growth", seat=Seat(0), discs=Count(1, "disc"), culture=0)
    assert "1 disque " in one.render("fr") and "1 disc " in one.render()
    assert Message("event.region", {"region": Term("region_start", "The Caribbean")}).render(
        "fr").startswith("Les Caraïbes")
    holders = Items((Seat(0), Seat(2)), "list.comma", "event.exploit.nobody")
    active = msg("event.exploit", exploit=Term("exploit", "Imperialism"),
                 first=Term("region_start", "Africa"), second=Term("region_noun", "India"),
                 holders=holders)
    assert active.render(seats=NAMES.__getitem__).endswith("Shields: Ana, Chloé")
    assert "L'Impérialisme" in active.render("fr")
    nobody = msg("event.exploit", exploit=Term("exploit", "Imperialism"),
                 first=Term("region_start", "Africa"), second=Term("region_noun", "India"),
                 holders=Items((), "list.comma", "event.exploit.nobody"))
    assert nobody.render().endswith("Shields: nobody yet")
    assert nobody.render("fr").endswith("Boucliers : personne pour le moment")


def test_a_message_travels_as_json_and_pickles(events: list[Event]) -> None:
    for e in events[:400] + events[-40:]:
        m = e.message
        assert m is not None
        back = from_dict(m.to_dict())
        assert back == m and back.render("fr") == m.render("fr")
        copy = pickle.loads(pickle.dumps(e))
        assert copy == e and copy.message == m and copy.to_dict() == e.to_dict()
        assert e.to_dict()["message"] == m.to_dict()


@pytest.mark.parametrize(("bad", "words"), [
    ({"id": "no.such.message"}, "unknown message id"),
    ({"id": "event.phase", "args": []}, "its args must be an object"),
    ({"id": "event.phase", "args": {"phase": {"what": 1}}}, "malformed message argument"),
    ({"id": "event.phase", "args": {"phase": 1.5}}, "malformed message argument"),
])
def test_a_malformed_message_is_refused_with_the_reason(bad: dict[str, object],
                                                        words: str) -> None:
    with pytest.raises(ValueError, match=words):
        from_dict(bad)


def test_an_unknown_locale_is_refused_and_languages_are_negotiated() -> None:
    m = msg("event.phase", phase=Term("phase", "Growth"))
    with pytest.raises(ValueError, match="unknown locale 'de': the engine speaks en, fr"):
        m.render("de")
    assert locale_of("fr-CA,fr;q=0.9,en;q=0.8") == "fr"
    assert locale_of("de-DE,de;q=0.9,fr;q=0.5") == "fr"
    assert locale_of("en-GB,fr;q=0.4") == "en"
    assert locale_of("de") == "en" and locale_of(None) == "en" and locale_of("") == "en"
    assert locale_of("fr;q=bad, en") == "en"


def test_one_id_one_meaning() -> None:
    assert define("event.phase", "{phase} phase") == "event.phase"
    with pytest.raises(ValueError, match="already declared with other words"):
        define("event.phase", "The {phase} phase")
    with pytest.raises(ValueError, match="second person names a field"):
        define("test.bad_you", "{seat} wins", you="You win {glory}")
    assert fields_of("{seat} gains {discs}") == {"seat", "discs"}


def test_every_message_has_a_french_text_with_the_same_placeholders() -> None:
    """The catalog check of ``tools/catalog.py check``: every message, term and counted
    noun the engine declares is translated in every shipped locale, with the English
    placeholders, and the compiled catalog the engine reads is the .po as it is."""
    pytest.importorskip("babel")
    import catalog

    assert catalog.locales() == ["fr"]
    assert {ctx for ctx, _ in catalog.entries()} >= set(MESSAGES)
    for locale in catalog.locales():
        assert catalog.problems(locale) == []


def test_a_refusal_says_why_in_every_language() -> None:
    s = new_game(GameConfig(players=3, seed=1))
    before = s.to_json()
    with pytest.raises(IllegalActionError) as caught:
        s.apply("pass")
    err = caught.value
    assert s.to_json() == before
    assert str(err).startswith("pass is illegal: ") and "player 0 must" in str(err)
    assert err.message is not None and err.message.render() == str(err)
    fr = err.message.render("fr")
    assert fr.startswith("pass est illégal : ") and "Mise en place" in fr
    back = pickle.loads(pickle.dumps(err))
    assert str(back) == str(err) and back.message == err.message


def test_the_2009_action_kinds_words() -> None:
    s = new_game(GameConfig(players=3, seed=2, ruleset="classic"))
    ship, draw, payment = (s.rules.kinds[k] for k in (D.SHIP, D.DRAW, D.PAYMENT))
    assert ship.unavailable(s, 1, 0).render(viewer=1) == "Ship needs a disc in the Harbor"
    no_card = draw.unavailable(s, 1, 3)
    assert no_card.render(viewer=1) == ("no card within your presence in Europe or an open "
                                        "region (Draw Value above your discs there)")
    assert "your" not in no_card.render() and "votre présence" in no_card.render("fr", 1)
    assert payment.unavailable(s, 2, 3).render(viewer=2) == (
        "Payment needs a worker on another of your buildings")
    r = D.REGION_CODES.index("AF")
    first = ship.describe(s, 0, A.code(A.V_SHIP, r)).render()
    assert first.startswith("Ship to the Africa track, space 1 of ")
    while s.filled[r] < s.info.trk_len[r]:  # a full track: a disc beside it (P73)
        T.ship(s, 1, r)
    beside = ship.describe(s, 0, A.code(A.V_SHIP, r))
    assert beside.render() == "Ship beside the full Africa track (presence, no token)"
    assert beside.render("fr") == ("Naviguer à côté de la piste de navigation de l'Afrique "
                                   "complète (présence, sans jeton)")


def test_a_message_names_the_messages_it_is_made_of() -> None:
    card = msg("words.card", code="AF/3", icons=Items(
        (msg("words.icon", n=2, token=Term("token", "Wealth")),), "list.comma"))
    gained = msg("event.card", seat=Seat(1), card=card)
    assert gained.ids() == {"event.card", "words.card", "words.icon"}
    assert msg("event.phase", phase=Term("phase", "Growth")).ids() == {"event.phase"}
