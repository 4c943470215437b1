"""The public API every client uses: ``decision()``, the events ``apply()`` returns,
``undo()``, through seeded random games and scenario positions."""

from __future__ import annotations

import json
import random

import pytest

from endeavor import (
    GameConfig,
    IllegalActionError,
    RecordError,
    State,
    UndoError,
    final_scores,
    new_game,
    replay,
)
from endeavor import data as D
from endeavor import testing as T
from endeavor.decision import Decision
from endeavor.events import KINDS, Event

BASE_KINDS = {"start_tile", "construction", "salary", "action", "effect", "second_action",
              "follow_up", "casualty", "governor_slot", "discard"}


def _play(config: GameConfig, seed: int, pass_p: float = 0.1):  # type: ignore[no-untyped-def]
    """Yield (state before, decision, action, events) for a whole seeded game."""
    s = new_game(config)
    rng = random.Random(seed)
    while not s.is_over:
        d = s.decision()
        assert d is not None
        actions = d.actions
        if len(actions) > 1 and actions[-1].text == "pass" and rng.random() > pass_p:
            actions = actions[:-1]
        a = rng.choice(actions)
        before = s.to_json()
        events = s.apply(a)
        yield before, d, a, events, s


@pytest.mark.parametrize("seed", range(6))
def test_decision_describes_exactly_the_legal_actions(seed: int) -> None:
    exploits = "random" if seed % 2 else ()
    config = GameConfig(players=2 + seed % 4, seed=seed, exploits=exploits)
    s = new_game(config)
    rng = random.Random(seed)
    seen = set()
    while not s.is_over:
        d = s.decision()
        assert isinstance(d, Decision)
        assert d.player == s.current_player
        assert d.actions == s.legal_actions()
        assert d.prompt and d.kind
        assert all(o.text and o.text != o.action.text or o.action.text in ("pass", "done")
                   for o in d.options), [(o.action.text, o.text) for o in d.options]
        if d.kind not in BASE_KINDS:
            assert s.modules, d.kind  # a module's own step
        seen.add(d.kind)
        s.apply(rng.choice(d.actions))
    assert s.decision() is None
    assert {"start_tile", "construction", "action", "effect"} <= seen


def test_option_lookup() -> None:
    s = T.fresh(3)
    d = s.decision()
    assert d is not None
    o = d.option("build market")
    assert o.action.text == "build market" and "Market" in o.text
    with pytest.raises(KeyError):
        d.option("build university")


@pytest.mark.parametrize("seed", range(4))
def test_events_start_with_the_action_then_automatic_steps(seed: int) -> None:
    config = GameConfig(players=3 + seed % 3, seed=seed, exploits="random" if seed % 2 else ())
    kinds: set[str] = set()
    last: list[Event] = []
    for before, d, a, events, s in _play(config, seed):
        assert events[0].kind == "action" and events[0].player == d.player
        assert events[0].text == f"P{d.player}: {d.option(a).text}"
        assert all(e.kind in KINDS for e in events)
        assert all(e.kind != "action" for e in events[1:])
        kinds.update(e.kind for e in events)
        last = events
        old = State.from_json(before)
        for e in events:
            if e.kind == "growth":  # Culture level + 1 discs, as the supply allows
                assert e.player is not None
                pl = s.players[e.player]
                full = D.growth_level(pl.attr[D.CULTURE])
                assert f"gains {full} disc" in e.text or pl.supply == 0
                assert f"Culture {pl.attr[D.CULTURE]})" in e.text
            if e.kind == "region":
                r = next(r for r in range(1, 7) if D.REGION_NAMES[r] in e.text)
                assert s.is_open(r) and not old.is_open(r)
    assert last[-1].kind == "game_end"
    scores = final_scores(s)
    assert last[-1].data is not None
    assert [x["total"] for x in last[-1].data["scores"]] == [x.total for x in scores]
    assert {"action", "growth", "phase", "round", "game_end"} <= kinds


def test_events_name_governor_and_region() -> None:
    s = T.fresh(4, board="B")
    for _ in range(5):
        T.ship(s, 0, "AF")
    T.give_building(s, 1, "shipyard")
    T.give_discs(s, 1, 2)
    T.at_actions(s, 1)
    s.apply("act shipyard")
    events = s.apply("ship AF")
    kinds = [e.kind for e in events]
    assert kinds[:3] == ["action", "region", "governor"], events
    assert events[2].player == 0 and "Africa Governor" in events[2].text


def test_apply_code_and_apply_give_the_same_game() -> None:
    config = GameConfig(players=4, seed=9, exploits="random")
    a, b = new_game(config), new_game(config)
    rng = random.Random(3)
    while not a.is_over:
        c = rng.choice(a.legal_codes())
        assert a.apply_code(c) is None
        b.apply(a.history()[-1])
        assert a.to_json() == b.to_json()


@pytest.mark.parametrize("seed", range(3))
def test_undo_restores_every_position_exactly(seed: int) -> None:
    config = GameConfig(players=2 + seed, seed=seed, exploits="random" if seed else ())
    jsons = []
    for before, _, _, _, s in _play(config, seed):
        jsons.append(before)
        if len(jsons) % 17 == 0:  # undo, then redo the same action
            after = s.to_json()
            last = s.history()[-1]
            s.undo()
            assert s.to_json() == before
            s.apply(last)
            assert s.to_json() == after
    final = s
    for before in reversed(jsons):  # all the way back to setup
        final.undo()
        assert final.to_json() == before
    assert final.to_json() == new_game(config).to_json()
    with pytest.raises(UndoError, match="nothing to undo"):
        final.undo()
    assert final.to_json() == new_game(config).to_json()


def test_undo_after_loading_json_and_on_copies() -> None:
    config = GameConfig(players=3, seed=4)
    s = new_game(config)
    rng = random.Random(4)
    for _ in range(40):
        s.apply(rng.choice(s.legal_actions()))
    before = s.to_json()
    s.apply(s.legal_actions()[0])
    loaded = State.from_json(s.to_json())
    loaded.undo()
    assert loaded.to_json() == before
    c = s.copy()
    c.undo()
    assert c.to_json() == before and s.to_json() != before
    for _ in range(40):
        loaded.undo()
    assert loaded.to_json() == new_game(config).to_json()


def _walk(s: State, rng: random.Random, steps: int, seen: dict[int, str]) -> None:
    """Play ``steps`` random actions, noting the JSON after each number of actions."""
    for _ in range(steps):
        if s.is_over:
            return
        s.apply(rng.choice(s.legal_actions()))
        seen[s.num_actions] = s.to_json()


@pytest.mark.parametrize("seed", range(4))
def test_undo_across_lines_of_play_copies_and_redone_actions(seed: int) -> None:
    """undo() keeps checkpoints of the history it replays: a position reached by another
    line of play, on a copy, or after undoing and playing on must still be restored
    exactly, each step back to setup."""
    config = GameConfig(players=2 + seed % 4, seed=40 + seed,
                        exploits="random" if seed % 2 else ())
    rng = random.Random(seed)
    s = new_game(config)
    seen = {0: s.to_json()}
    _walk(s, rng, 70, seen)
    for _ in range(27):  # back into line A's checkpoints
        s.undo()
        assert s.to_json() == seen[s.num_actions]
    branch = s.num_actions
    line_a = dict(seen)
    _walk(s, random.Random(seed + 100), 45, seen)  # line B from there
    assert any(line_a[k] != seen[k] for k in seen if branch < k <= 70), "same line again"
    c = s.copy()
    for _ in range(9):
        c.undo()
        assert c.to_json() == seen[c.num_actions]
    while s.num_actions > 0:  # all of line B, then the shared start
        if s.num_actions % 13 == 0:  # undo, redo the same action, undo again
            last = s.history()[-1]
            s.undo()
            s.apply(last)
            assert s.to_json() == seen[s.num_actions]
        s.undo()
        assert s.to_json() == seen[s.num_actions]
    assert s.to_json() == new_game(config).to_json()
    assert c.to_json() == seen[c.num_actions]  # the copy kept its own position


@pytest.mark.parametrize("seed", range(3))
def test_trusted_from_json_is_the_same_state(seed: int) -> None:
    """A state read with ``trusted=True`` (no replay of its history) is the one the
    checked read gives: same JSON, legal actions, decision, and the same game after."""
    config = GameConfig(players=3 + seed, seed=60 + seed, exploits="random")
    rng = random.Random(seed)
    s = new_game(config)
    while not s.is_over:
        if s.num_actions % 23 == 5:
            text = s.to_json()
            fast, checked = State.from_json(text, trusted=True), State.from_json(text)
            assert fast.to_json() == checked.to_json() == text
            assert fast.legal_actions() == checked.legal_actions() == s.legal_actions()
            assert fast.decision() == checked.decision()
            a = rng.choice(s.legal_actions())
            assert fast.apply(a) == checked.apply(a)
            assert fast.to_json() == checked.to_json()
            fast.undo()
            assert fast.to_json() == text
        s.apply(rng.choice(s.legal_actions()))


def test_only_a_trusted_read_skips_the_replay_check() -> None:
    s = new_game(GameConfig(players=3, seed=8))
    rng = random.Random(8)
    for _ in range(30):
        s.apply(rng.choice(s.legal_actions()))
    d = json.loads(s.to_json())
    d["history"] = d["history"][:-1]  # a history that does not lead to this position
    text = json.dumps(d)
    with pytest.raises(RecordError, match="does not follow from its history"):
        State.from_json(text)
    assert State.from_json(text, trusted=True).num_actions == 29


def test_undo_stops_at_a_hand_built_position() -> None:
    s = T.fresh(3)
    T.ready_to_act(s, 0, 3, "colonial-house")
    built = s.to_json()
    assert json.loads(built)["built"] is True
    s.apply("act colonial-house")
    s.apply("occupy EU1")
    s.undo()
    s.undo()
    assert s.to_json() == built
    with pytest.raises(UndoError, match="built by hand"):
        s.undo()
    assert State.from_json(built).to_json() == built


def test_discard_prompt_says_the_limit() -> None:
    s = T.fresh(4)
    for code in ("EU/0", "EU/1", "EU/2", "EU/3", "SA/1", "AF/1"):
        T.give_card(s, 0, code)
    T.take_token(s, 0, D.T_INFLUENCE, 0)
    d = _discard_decision(s, 0)
    pl = s.players[0]
    limit = pl.level(D.INFLUENCE)
    keep = min(limit, 5)
    assert d.kind == "discard"
    marker = s.marker(0, D.INFLUENCE)
    assert marker != limit  # the track value and the limit its level gives: both shown
    assert d.prompt.startswith(f"Discard {6 - keep} of 6 cards (Influence {marker}: "
                               f"limit {limit}")
    assert "face-up discard pile" in d.option("discard EU/0").text


def _discard_decision(s: State, p: int) -> Decision:
    """Play on (everyone passing) until ``p`` is asked to discard."""
    T.at_actions(s, s.crown)
    while True:
        d = s.decision()
        assert d is not None
        if d.kind == "discard" and d.player == p:
            return d
        s.apply("pass" if "pass" in [a.text for a in d.actions] else d.actions[0])


def test_governor_slot_option_says_what_an_empty_slot_is_worth() -> None:
    s = T.fresh(3)
    T.set_round(s, 7)
    T.open_region(s, "AF", 0)
    T.open_region(s, "SA", 0)
    T.at_actions(s, s.crown)
    while s.decision() is not None and s.decision().kind != "governor_slot":  # type: ignore[union-attr]
        s.apply("pass")
    d = s.decision()
    assert d is not None and d.player == 0
    assert "Leave the Governor slot empty: +3 glory at the end" in d.option("slot none").text
    assert "AF/G" in d.option("slot AF/G").text


def test_unavailable_sources_are_explained_in_words() -> None:
    s = T.fresh(4)
    T.give_building(s, 0, "barracks")
    T.place(s, 1, "EU1")
    T.ready_to_act(s, 0, 1, "barracks")
    d = s.decision()
    assert d is not None and d.kind == "action"
    assert "act barracks" not in [a.text for a in d.actions]
    assert "Barracks (Attack needs 2 Harbor discs" in d.prompt
    assert "(R" not in d.prompt  # words, not ruling ids


def test_unavailable_building_counts_the_disc_that_activates_it() -> None:
    # one Harbor disc: the Shipyard's activation would take it and leave none to ship
    s = T.fresh(4)
    T.ready_to_act(s, 0, 1, "shipyard")
    d = s.decision()
    assert d is not None and "act shipyard" not in [a.text for a in d.actions]
    assert "you have 1)" in d.prompt
    assert ("Shipyard (Ship needs a Harbor disc besides the one that activates the "
            "building, and you have 1)") in d.prompt
    assert "Ship needs a disc in the Harbor" not in d.prompt
    with pytest.raises(IllegalActionError, match="besides the one that activates"):
        s.apply("act shipyard")
    # two discs and an opponent to attack: the Barracks needs three
    T.give_building(s, 0, "barracks")
    T.place(s, 1, "EU1")
    T.ready_to_act(s, 0, 2, "barracks")
    d = s.decision()
    assert d is not None and "act barracks" not in [a.text for a in d.actions]
    assert ("Barracks (Attack needs 2 Harbor discs besides the one that activates the "
            "building, and you have 2)") in d.prompt


def test_effect_prompt_names_the_source() -> None:
    s = T.fresh(4)
    T.give_building(s, 0, "docks")
    T.ready_to_act(s, 0, 3, "docks")
    s.apply("act docks")
    d = s.decision()
    assert d is not None and d.kind == "effect"
    assert d.prompt.startswith("Your Docks: Ship + Occupy")
    assert "Ship to the" in d.option("ship AF").text


def test_replay_upto_and_decision_after_replay() -> None:
    config = GameConfig(players=2, seed=8)
    s = new_game(config)
    for _ in range(12):
        s.apply(s.legal_actions()[0])
    r = replay(s.record())
    assert r.decision() is not None
    assert r.decision().actions == s.decision().actions  # type: ignore[union-attr]
