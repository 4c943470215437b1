"""Events: their words cost nothing until read, and are the same words as before.

``tests/golden/events_*.txt`` hold every event (kind, player, words, data) of three
seeded games played through :meth:`State.apply`, written when every event's words were
still made at once (before they became lazy); the test plays the games again and reads
the words now. After an intended change of words, regenerate with
``ENDEAVOR_REGEN_GOLDEN=1 pytest tests/test_events.py`` and read the diff.
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import random
from pathlib import Path

import pytest

from endeavor import Action, Event, GameConfig, new_game

GOLDEN = Path(__file__).parent / "golden"
GAMES = {
    # 5 players, Exploits active with Shields gained and lost, Abolition, links, cards
    "events_age_of_sail_exploits": GameConfig(players=5, seed=138, exploits="random"),
    "events_classic": GameConfig(players=3, seed=72, ruleset="classic"),
    "events_silent_fleet": GameConfig(players=2, seed=73, exploits="random",
                                      options={"silent_fleet": True,
                                               "building_shortage": True}),
}


def choose(actions: list[Action], rng: random.Random) -> Action:
    """A random legal action, passing only 15 % of the times it may (busier games)."""
    if len(actions) > 1 and actions[-1].text == "pass" and rng.random() < 0.85:
        return actions[rng.randrange(len(actions) - 1)]
    return actions[rng.randrange(len(actions))]


def event_log(config: GameConfig) -> str:
    rng = random.Random(config.seed)
    s = new_game(config)
    lines = []
    while not s.is_over:
        for e in s.apply(choose(s.legal_actions(), rng)):
            data = "" if e.data is None else " " + json.dumps(e.data, sort_keys=True)
            lines.append(f"{s.num_actions:04d} {e.kind} {e.player} | {e.text}{data}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_event_words_are_the_golden_words(name: str) -> None:
    text = event_log(GAMES[name])
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("ENDEAVOR_REGEN_GOLDEN"):
        path.write_text(text)
    assert text == path.read_text()


def test_words_are_made_once_on_first_reading() -> None:
    made: list[tuple[int, str]] = []

    def words(n: int, what: str) -> str:
        made.append((n, what))
        return f"{n} {what}"

    e = Event("growth", 1, None, None, words, (3, "discs"))
    assert made == []
    assert e.text == "3 discs" and str(e) == "3 discs"
    assert e.text == "3 discs"
    assert made == [(3, "discs")]
    assert e == Event("growth", 1, "3 discs")
    assert hash(e) == hash(Event("growth", 1, "3 discs"))
    assert e.to_dict() == {"kind": "growth", "player": 1, "text": "3 discs"}


def test_lazy_events_pickle_and_copy_with_their_words() -> None:
    e = Event("salary", 0, None, None, "{} workers".format, (2,))
    for back in (pickle.loads(pickle.dumps(e)), copy.deepcopy(e)):
        assert back == e and back.text == "2 workers"


def test_an_event_without_words_says_so() -> None:
    with pytest.raises(TypeError, match="text or a function"):
        _ = Event("round", None, None).text


def test_events_of_an_apply_keep_their_words_after_the_game_moves_on() -> None:
    """Words are made from values captured when the event happened, not from the live
    state: read after the rest of the game, they are what they were."""
    config = GAMES["events_age_of_sail_exploits"]
    rng = random.Random(config.seed)
    s = new_game(config)
    kept = []
    while not s.is_over:
        kept.extend(s.apply(choose(s.legal_actions(), rng)))
    words = [e.text for e in kept]  # read only now, the game over
    again = []  # read at once
    rng = random.Random(config.seed)
    t = new_game(config)
    while not t.is_over:
        again.extend(e.text for e in t.apply(choose(t.legal_actions(), rng)))
    assert words == again
