"""The words of the four action kinds' targets (Ship, Occupy, Attack, Draw) and of the
Memorial's casualty as structured messages: read in English by the seat deciding as the
engine always said them, in the third person without "your", and in French without
English left."""

from __future__ import annotations

import random

import pytest

from endeavor import GameConfig, api, new_game
from endeavor import actions as A
from endeavor import data as D
from endeavor import testing as T
from endeavor.actions import V_DONE, V_EXPLOIT
from endeavor.frames import F_CASUALTY
from endeavor.messages import Message
from endeavor.rules.attack import Attack
from endeavor.rules.draw import Draw
from endeavor.rules.kinds import VERB_KIND
from endeavor.rules.module import M_FORTIFIED
from endeavor.rules.occupy import Occupy
from endeavor.rules.ship import Ship
from endeavor.state import State

#: the kinds whose words are these messages (a ruleset may word a kind its own way)
KINDS = (Ship, Occupy, Attack, Draw)
MINE = {k.describe for k in KINDS}

CONFIGS = [
    {"players": 2, "seed": 11},
    {"players": 3, "seed": 12, "exploits": "random"},
    {"players": 4, "seed": 13},
    {"players": 5, "seed": 14, "exploits": "random"},
    {"players": 2, "seed": 15, "options": {"silent_fleet": True}},
    {"players": 4, "seed": 16, "exploits": "random"},
    {"players": 3, "seed": 17, "ruleset": "classic"},
]

FRENCH_NEVER = ("{", "Ship to", " the ", "track", "Occupy", "Attack", "Draw", " your ")


def _message(s: State, p: int, o: object) -> Message | None:
    """The message of an effect option worded by the action kinds (None otherwise)."""
    verb = o.action.verb  # type: ignore[attr-defined]
    if verb == V_DONE or verb >= V_EXPLOIT:
        return None
    kind = s.rules.kinds[VERB_KIND[verb]]
    if getattr(type(kind).describe, "__func__", type(kind).describe) not in MINE:
        return None
    m: Message | None = o.message  # type: ignore[attr-defined]
    assert m is not None and m == kind.describe_message(  # type: ignore[attr-defined]
        s, p, o.action.code)
    return m


def _check(m: Message, text: str, p: int) -> None:
    assert m.render(viewer=p) == text, (m, text)
    third = m.render()
    assert "your" not in third.lower() and "you " not in third.lower(), third
    for fr in (m.render("fr", viewer=p), m.render("fr")):
        for bad in FRENCH_NEVER:
            assert bad not in fr, (bad, fr, m)


@pytest.fixture(scope="module")
def seen() -> dict[str, int]:
    counts: dict[str, int] = {}
    for cfg in CONFIGS:
        s = new_game(GameConfig(**cfg))  # type: ignore[arg-type]
        r = random.Random(cfg["seed"])
        while not s.is_over:
            d = s.decision()
            assert d is not None
            p = d.player
            if d.kind == "effect":
                for o in d.options:
                    m = _message(s, p, o)
                    if m is None:
                        continue
                    if o.message is not None:
                        assert o.message == m
                    _check(m, o.text, p)
                    counts[m.id] = counts.get(m.id, 0) + 1
            elif d.kind == "casualty":
                assert d.message is not None
                _check(d.message, d.prompt, p)
                for o in d.options:
                    assert o.message is not None
                    _check(o.message, o.text, p)
                    counts[o.message.id] = counts.get(o.message.id, 0) + 1
            s.apply(d.options[r.randrange(len(d.options))].action)
    return counts


def test_every_target_of_the_four_kinds_reads_as_its_words(seen: dict[str, int]) -> None:
    assert {"ship.track", "ship.route", "ship.sea", "occupy.city", "attack.city",
            "draw.deck"} <= set(seen), seen


def test_the_rarer_words_a_full_track_a_link_a_fortified_city_a_neutral_disc() -> None:
    s = new_game(GameConfig(players=2, seed=1, options={"silent_fleet": True}))
    kinds = s.rules.kinds
    x = next(i for i, site in enumerate(D.SITES) if site.code == "EU3")
    li, other = next((li, o) for li, o in s.info.adj[x] if s.link_token[li] >= 0)
    T.place(s, 0, D.SITES[other].code, token=None)  # holding EU3 completes that link
    api.place_neutral_disc(s, s.n, x)  # the Silent Fleet's disc
    T.mark_site(s, "EU3", M_FORTIFIED)
    link = f"EU3-{D.SITES[other].code} ({s.rules.token_names[s.link_token[li]]} token)"
    m = kinds[D.ATTACK].describe_message(s, 0, A.code(A.V_ATTACK, x))
    assert kinds[D.ATTACK].describe(s, 0, A.code(A.V_ATTACK, x)) == m
    assert m.render(viewer=0) == (
        "Attack the EU3 (Cadiz) held by the Silent Fleet: 2 casualties + 1 disc to occupy, "
        f"1 glory at the end; completes the link {link}")
    _check(m, m.render(viewer=0), 0)
    assert "Flotte Silencieuse" in m.render("fr") and "2 pertes" in m.render("fr")
    T.remove(s, "EU3")
    T.mark_site(s, "EU3", M_FORTIFIED, on=False)
    m = kinds[D.OCCUPY].describe_message(s, 0, A.code(A.V_OCCUPY, x))
    assert m.render(viewer=0).endswith(f"; completes the link {link}")
    _check(m, m.render(viewer=0), 0)
    r = 2
    while s.filled[r] < s.info.trk_len[r] - 1:
        T.ship(s, 1, r)
    m = kinds[D.SHIP].describe_message(s, 0, A.code(A.V_SHIP, r))
    assert m.render().endswith("; fills the track and opens South America")
    assert kinds[D.SHIP].describe(s, 0, A.code(A.V_SHIP, r)) == m
    _check(m, m.render(viewer=0), 0)
    assert m.render("fr").endswith("ouvre l'Amérique du Sud")


def test_the_memorial_asks_where_a_casualty_goes_in_every_person() -> None:
    s = new_game(GameConfig(players=3, seed=1))
    s.stack.append((F_CASUALTY, 1))
    d = s.decision()
    assert d is not None and d.kind == "casualty" and d.message is not None
    _check(d.message, d.prompt, 1)
    assert d.render() == ("Memorial: P1 places a casualty in their supply or at the base of "
                          "a track, where it counts as a Trade token of that attribute")
    assert d.render("fr", viewer=1).startswith("Votre Mémorial : placez une perte")
    texts = []
    for o in d.options:
        assert o.message is not None
        _check(o.message, o.text, 1)
        texts.append((o.text, o.render(), o.render("fr", viewer=1), o.render("fr")))
    assert texts[-1] == ("Back to your supply", "Back to their supply",
                         "Retour à votre réserve", "Retour à sa réserve")
    assert texts[2][:3] == ("At the base of your Wealth track: Wealth 0 -> 1",
                            "At the base of their Wealth track: Wealth 0 -> 1",
                            "À la base de votre piste (Richesse 0 -> 1)")


def test_why_no_action_of_a_kind_is_possible_reads_as_its_words() -> None:
    seen = set()
    for cfg in CONFIGS[:3]:
        s = new_game(GameConfig(**cfg))  # type: ignore[arg-type]
        r = random.Random(cfg["seed"])
        while not s.is_over:
            d = s.decision()
            assert d is not None
            if d.kind == "action":
                for kind in s.rules.kinds:
                    if not isinstance(kind, KINDS):
                        continue
                    for harbor in range(4):
                        m = kind.unavailable_message(s, d.player, harbor)
                        assert kind.unavailable(s, d.player, harbor) == m
                        _check(m, m.render(viewer=d.player), d.player)
                        seen.add(m.id)
            s.apply(d.options[r.randrange(len(d.options))].action)
    assert seen == {"ship.unavailable", "occupy.unavailable.harbor", "occupy.unavailable.city",
                    "attack.unavailable.harbor", "attack.unavailable.target",
                    "draw.unavailable"}
