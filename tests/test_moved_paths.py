"""The adapters moved into folders that show their layer (``terminal``, ``analysis``,
``encoding``); their old import paths keep working for one release, as the very module
they name (so that a name read or patched through either path is the same)."""

from __future__ import annotations

import importlib

import pytest

MOVED = {
    "endeavor.screen": "endeavor.terminal.screen",
    "endeavor.render": "endeavor.terminal.render",
    "endeavor.review": "endeavor.analysis.review",
    "endeavor.tournament": "endeavor.analysis.tournament",
    "endeavor.parallel": "endeavor.analysis.parallel",
    "endeavor.rl.features": "endeavor.encoding.features",
}
NUMPY = {
    "endeavor.train": "endeavor.analysis.train",
    "endeavor.rl.actions": "endeavor.encoding.actions",
    "endeavor.rl.observation": "endeavor.encoding.observation",
}


def _check(old: str, new: str) -> None:
    assert importlib.import_module(old) is importlib.import_module(new)


@pytest.mark.parametrize(("old", "new"), sorted(MOVED.items()))
def test_an_old_path_is_the_moved_module(old: str, new: str) -> None:
    _check(old, new)


@pytest.mark.parametrize(("old", "new"), sorted(NUMPY.items()))
def test_an_old_numpy_path_is_the_moved_module(old: str, new: str) -> None:
    pytest.importorskip("numpy")
    _check(old, new)


def test_names_read_through_an_old_path() -> None:
    from endeavor.bots import BotSpecError
    from endeavor.tournament import TournamentError, resolve_bots
    assert [e.label for e in resolve_bots(["random", "greedy"])] == ["random", "greedy"]
    with pytest.raises(TournamentError, match="unknown bot 'nobody'"):
        resolve_bots(["nobody"])
    assert issubclass(TournamentError, BotSpecError)


def test_the_bots_resolve_their_own_specs() -> None:
    from endeavor.bots import BotSpecError, resolve_bots

    entrants = resolve_bots(["mcts:800", "random"], budget="0.5s")
    assert [(e.label, e.name, dict(e.budget)) for e in entrants] == [
        ("mcts:800it", "mcts", {"iterations": 800}), ("random", "random", {})]
    with pytest.raises(BotSpecError, match="does not take the budget"):
        resolve_bots(["random:5"])


def test_usage_error_is_shared_by_the_commands() -> None:
    from endeavor.cli.common import UsageError as FromCli
    from endeavor.errors import UsageError

    assert FromCli is UsageError
