"""The start tile, Construction (the 2009 Build phase), Discard and the free Governor slot
ask in structured messages: read by the seat deciding, the engine's English words; in the
third person, no "you"; in French, no English left."""

from __future__ import annotations

import random

import pytest

import scenario as S
from endeavor import GameConfig, new_game
from endeavor import data as D
from endeavor.actions import V_DRAW, V_PASS, V_SHIP
from endeavor.decision import Decision, Option
from endeavor.messages import MESSAGES, Items, Message
from endeavor.state import State

KINDS = ("start_tile", "construction", "discard", "governor_slot")
PREFIXES = ("construction.", "discard.", "classic.")
#: words that would be English left in a French text
ENGLISH = ("{", "Build", "Discard", " your ", " the ", "card")


def _config(players: int, **more: object) -> dict[str, object]:
    return {"players": players, **more}


CONFIGS = ([_config(n, ruleset="classic") for n in (3, 4, 5)]
           + [_config(n) for n in (2, 3, 4, 5)])
GAMES = 3


def _ids(v: object, out: set[str]) -> None:
    """The ids of a message and of the messages in its arguments."""
    if isinstance(v, Message):
        out.add(v.id)
        for a in v.args.values():
            _ids(a, out)
    elif isinstance(v, Items):
        if not v.items and v.empty:
            out.add(v.empty)
        if len(v.items) > 1:
            out.add(v.sep)
        for a in v.items:
            _ids(a, out)


def _third_person(text: str) -> None:
    low = text.lower()
    assert "your" not in low and "you " not in low, text


def _french(text: str) -> None:
    for w in ENGLISH:
        assert w not in text, (w, text)


def _area_options(d: Decision) -> list[Option]:
    """The options of ``d`` this area words: all of a start tile, Construction, Discard
    or Governor slot decision; in the 2009 Action phase, Pass."""
    if d.kind in KINDS:
        return d.options
    return [o for o in d.options if o.action.verb == V_PASS and o.message is not None
            and o.message.id.startswith("classic.")]


def check(d: Decision, seen: set[str]) -> None:
    """Every prompt and option of the area as a message: the decider reads today's
    English; the third person says no "you"; the French has no English left."""
    if d.kind in KINDS:
        m = d.message
        assert m is not None and m.id.startswith(PREFIXES), d.prompt
        assert m.render(viewer=d.player) == d.prompt
        _third_person(d.render())
        _french(d.render("fr", viewer=d.player))
        _french(d.render("fr"))
        _ids(m, seen)
    for o in _area_options(d):
        om = o.message
        assert om is not None and om.id.startswith(PREFIXES), o.text
        assert om.render(viewer=d.player) == o.text
        _third_person(o.render())
        _french(o.render("fr", viewer=d.player))
        _french(o.render("fr"))
        _ids(om, seen)


def _play(cfg: dict[str, object], seed: int, seen: set[str]) -> None:
    """A seeded random game that ships and draws often (cards, Governors: discards)."""
    s = new_game(GameConfig(**cfg, seed=seed))  # type: ignore[arg-type]
    r = random.Random(seed)
    while not s.is_over:
        d = s.decision()
        assert d is not None
        check(d, seen)
        pref = [o for o in d.options if o.action.verb in (V_DRAW, V_SHIP)]
        o = r.choice(pref) if pref and r.random() < 0.8 else r.choice(d.options)
        s.apply(o.action)


#: the message ids read so far, and which of the games (by config index) and scenarios
#: were played
SEEN: set[str] = set()
PLAYED: set[object] = set()


@pytest.mark.parametrize("k", range(len(CONFIGS)), ids=[
    f"{c.get('ruleset', 'age_of_sail')}-{c['players']}" for c in CONFIGS])
def test_every_decision_and_option_of_the_area_is_a_message(k: int) -> None:
    for seed in range(GAMES):
        _play(CONFIGS[k], seed, SEEN)
    PLAYED.add(k)


def _decide(s: State, seen: set[str]) -> Decision:
    d = s.decision()
    assert d is not None
    check(d, seen)
    return d


def test_over_the_limit_with_two_governors() -> None:  # P92, both rulesets
    # Age of Sail: AF/G in the free slot, CA/G in a normal slot, 3 cards for a limit of 2
    s = S.fresh()
    p = s.crown
    S.give_card(s, p, "AF/G")
    S.slot_governor(s, p, "AF/G")
    for code in ("CA/G", "SA/1", "NA/1"):
        S.give_card(s, p, code)
    S.at_actions(s, p, passed=((1 << s.n) - 1) & ~(1 << p))
    s.apply("pass")
    assert _decide(s, SEEN).kind == "governor_slot"
    s.apply("slot CA/G")
    assert _decide(s, SEEN).kind == "discard"
    # the 2009 game: FE/G in the free slot, AF/G and EU/0 in normal slots, limit 1
    s = S.fresh(3, ruleset="classic", seed=0)
    red = 0
    for region in ("FE", "AF"):
        r = S.REGION[region]
        for k in range(s.info.trk_len[r]):
            if s.track(r)[k] < 0:
                S.set_track_token(s, region, k, -1)
        S.open_region(s, region, red)
    S.give_card(s, red, "EU/0")
    assert s.players[red].gov == D.CARD_INDEX["FE/G"]
    S.at_actions(s, red)
    s.apply("pass")
    assert _decide(s, SEEN).kind == "governor_slot"
    s.apply("slot AF/G")
    assert _decide(s, SEEN).kind == "discard"
    PLAYED.add("P92")


def test_every_message_of_the_area_is_said() -> None:
    """Run after the games and the scenarios above: each message of the area was read
    (but "no action": every building has an action or icons)."""
    for k in range(len(CONFIGS)):  # those not played yet (this test run alone)
        if k not in PLAYED:
            test_every_decision_and_option_of_the_area_is_a_message(k)
    if "P92" not in PLAYED:
        test_over_the_limit_with_two_governors()
    # the 2009 action kinds' words are the action kinds' (tests/test_messages.py)
    kinds = {"classic.ship.beside", "classic.draw.unavailable", "classic.payment.unavailable"}
    # a refusal's reasons are no decision's words (tests/test_messages_refusals.py)
    mine = {k for k in MESSAGES if k.startswith(PREFIXES) and ".refused" not in k} - {
        "construction.no_action"} - kinds
    assert mine - SEEN == set()
