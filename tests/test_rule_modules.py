"""The rule-module API: Exploit modules use only ``endeavor.api``; the hooks a module can
override (turn end, round end, setup, scoring...) are called where the contract says.
A module written here, in a test, plugs in exactly as an Exploit does."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import pytest

from endeavor import GameConfig, api, new_game, replay
from endeavor import testing as T
from endeavor.exploits import EXPLOIT_IDS
from endeavor.rules import AgeOfSail
from endeavor.rules.module import REGISTRY, RuleModule

if TYPE_CHECKING:
    from endeavor.state import State

EXPLOITS = Path(__file__).parent.parent / "src" / "endeavor" / "exploits"
MODULE_FILES = sorted(p for p in EXPLOITS.glob("*.py") if p.name not in ("__init__.py", "base.py"))
#: the option-driven rule modules (the Silent Fleet): the same API rules as the Exploits
VARIANTS = EXPLOITS.parent / "variants"
VARIANT_FILES = sorted(p for p in VARIANTS.glob("*.py") if p.name != "__init__.py")
RULE_MODULE_FILES = MODULE_FILES + VARIANT_FILES
ALLOWED_IMPORTS = {"__future__", "typing", "collections.abc", "dataclasses", "itertools",
                   "functools"}


def test_every_exploit_has_a_module_and_a_test_file() -> None:
    assert [p.stem for p in MODULE_FILES] == sorted(EXPLOIT_IDS)
    assert len(EXPLOIT_IDS) == 15
    tests = Path(__file__).parent
    for e in EXPLOIT_IDS:
        assert (tests / f"test_exploit_{e}.py").exists(), e


def test_every_variant_is_a_registered_rule_module_with_tests() -> None:
    assert [p.stem for p in VARIANT_FILES] == ["silent_fleet"]
    tests = Path(__file__).parent
    for path in VARIANT_FILES:
        m = REGISTRY[path.stem]
        assert not m.is_exploit and m.number >= 16, path.stem
        assert list(tests.glob(f"test_{path.stem}*.py")), path.stem


@pytest.mark.parametrize("path", RULE_MODULE_FILES, ids=lambda p: p.stem)
def test_exploit_modules_import_only_the_public_api(path: Path) -> None:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:  # relative: only "from .. import api" / "from ..state import State"
                names = [a.name for a in node.names]
                ok = (node.level == 2 and node.module is None and names == ["api"]) or (
                    node.level == 2 and node.module == "state" and names == ["State"])
                assert ok, f"{path.name}:{node.lineno} imports {names} from " \
                           f"{'.' * node.level}{node.module or ''}"
            else:
                assert node.module in ALLOWED_IMPORTS, f"{path.name}: {node.module}"
        elif isinstance(node, ast.Import):
            for a in node.names:
                assert a.name in ALLOWED_IMPORTS, f"{path.name}: import {a.name}"


@pytest.mark.parametrize("path", RULE_MODULE_FILES, ids=lambda p: p.stem)
def test_exploit_modules_touch_no_private_member_and_write_only_their_data(
        path: Path) -> None:
    tree = ast.parse(path.read_text())
    assert not _private_uses(tree), f"{path.name} uses {_private_uses(tree)}"
    writes = _state_writes(tree, skip=set(), own={"module_data"})
    assert not writes, f"{path.name} writes {writes}"


#: private names of other libraries a test may read, each with the reason
THIRD_PARTY_PRIVATE = {
    "_max_overflow": "SQLAlchemy's QueuePool has no public reader of its max_overflow",
}
#: calls that name an attribute in a string: ``setattr(obj, "_x", ...)``,
#: ``monkeypatch.setattr(obj, "_x", ...)``, ``monkeypatch.setattr("pkg.mod._x", ...)``
_BY_NAME = {"setattr", "getattr", "hasattr", "delattr"}


def _is_private(name: str) -> bool:
    return (name.startswith("_") and not name.startswith("__")
            and name not in THIRD_PARTY_PRIVATE)


def _private_uses(tree: ast.AST) -> list[str]:
    """Attributes (of anything but the module's own ``self`` / ``cls``), attributes
    named in a string to ``setattr`` / ``getattr`` / ``monkeypatch.setattr`` ..., and
    engine imports whose names start with one underscore."""
    out = [f"line {n.lineno}: .{n.attr}" for n in ast.walk(tree)
           if isinstance(n, ast.Attribute) and _is_private(n.attr)
           and not (isinstance(n.value, ast.Name) and n.value.id in ("self", "cls"))]
    for n in ast.walk(tree):
        if isinstance(n, ast.ImportFrom) and ((n.module or "").startswith("endeavor")
                                              or n.level):
            out += [f"line {n.lineno}: import {a.name}" for a in n.names
                    if a.name.startswith("_")]
        if isinstance(n, ast.Call):
            f = n.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(
                f, ast.Attribute) else ""
            if name not in _BY_NAME:
                continue
            for arg in n.args[:2]:
                if (isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                        and _is_private(arg.value.rsplit(".", 1)[-1])
                        and not (isinstance(n.args[0], ast.Name)
                                 and n.args[0].id in ("self", "cls"))):
                    out.append(f"line {n.lineno}: {name}(..., {arg.value!r})")
    return out


def _state_writes(tree: ast.AST, skip: set[int], own: set[str]) -> list[str]:
    """Assignments (outside the lines ``skip``) to a State or Player field other than
    the ``own`` ones."""
    out = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for t in targets:
            if t.lineno in skip:
                continue
            fields = {leaf.attr for leaf in ast.walk(t) if isinstance(leaf, ast.Attribute)}
            if fields & STATE_FIELDS and not fields & own:
                out.append(f"line {t.lineno}: {ast.unparse(t)}")
    return out


# --------------------------------------------------------------------------- a test module
class Recorder(RuleModule):
    """Records every turn end (player, kinds) and round end in its own data."""

    id = "test_recorder"
    number = 18  # 16 is the Silent Fleet's, 17 CONTRIBUTING.md's example Exploit
    name = "Recorder"
    turns: ClassVar[list[tuple[int, int, int]]] = []
    rounds: ClassVar[list[int]] = []

    def setup(self, s: State, i: int) -> list[int]:
        return [0, 0]

    def on_turn_end(self, s: State, i: int, p: int, kinds: int) -> None:
        s.module_data[i][0] += 1
        Recorder.turns.append((s.round, p, kinds))

    def on_round_end(self, s: State, i: int) -> None:
        s.module_data[i][1] += 1
        Recorder.rounds.append(s.round)


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> type[Recorder]:
    if "test_recorder" not in REGISTRY:
        api.register(Recorder())
    Recorder.turns.clear()
    Recorder.rounds.clear()
    monkeypatch.setattr(AgeOfSail, "module_ids",
                        classmethod(lambda cls, config, ids: (*ids, "test_recorder")))
    return Recorder


def test_turn_end_and_round_end_hooks(recorder: type[Recorder]) -> None:
    s = T.fresh(3, seed=2)
    i = T.exploit(s, "test_recorder")
    T.play_random(s, seed=5)
    turns, rounds = recorder.turns, recorder.rounds
    assert rounds == [1, 2, 3, 4, 5, 6, 7]
    assert s.module_data[i] == [len(turns), 7]
    # one turn end per Action-phase decision, passes included (kinds 0)
    passes = [a for a in s.history() if a.text == "pass"]
    assert sum(1 for _, _, k in turns if k == 0) == len(passes)
    assert all(0 <= k < 1 << 5 for _, _, k in turns)
    assert any(k & 1 << api.SHIP for _, _, k in turns)


def test_turn_end_reports_both_halves_of_a_plus_building(recorder: type[Recorder]) -> None:
    s = T.fresh(4, seed=1)
    T.give_building(s, 0, "docks")
    T.ready_to_act(s, 0, 3, "docks")
    s.apply("act docks")
    s.apply("ship EUT1")
    s.apply("occupy EU2")
    assert recorder.turns[-1] == (1, 0, 1 << api.SHIP | 1 << api.OCCUPY)


def test_a_module_in_play_survives_json_and_replay(recorder: type[Recorder]) -> None:
    s = new_game(GameConfig(players=2, seed=3))
    assert [m.id for m in s.modules] == ["test_recorder"]
    T.play_random(s, seed=1)
    assert replay(s.record()).to_json() == s.to_json()
    from endeavor import State
    assert State.from_json(s.to_json()).to_json() == s.to_json()


# --------------------------------------------------------------------------- the tests
#: fields of a State or a Player: a test never assigns to them (it builds positions with
#: endeavor.testing or plays legal actions)
STATE_FIELDS = {
    "players", "site_owner", "site_token", "link_token", "track_owner", "track_token",
    "filled", "sea", "region_presence", "owned_sites", "occupied_sites", "free_cities",
    "free_routes", "decks", "pile", "removed", "region_governors", "building_supply", "level5",
    "spent", "abolished", "round", "step", "crown", "act_player", "passed", "phase", "turn",
    "stack", "hist", "nhist", "module_data", "site_marks", "link_marks", "ev", "origin", "rules",
    "info", "ex", "config", "supply", "harbor", "attr", "brown_tokens", "base_discs", "blue",
    "buildings", "taken_circles", "cards", "gov", "aside"}
TEST_FILES = sorted(Path(__file__).parent.glob("*.py"))


def _allowed_lines(tree: ast.AST) -> set[int]:
    """Lines where a write is the point: inside ``with pytest.raises(...)`` (a frozen
    object refuses it) or inside a class (a rule module written in a test owns its
    data)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        body: list[ast.stmt] = []
        if isinstance(node, ast.With) and any(
                "raises" in ast.unparse(item.context_expr) for item in node.items):
            body = node.body
        elif isinstance(node, ast.ClassDef):
            body = node.body
        for stmt in body:
            lines.update(range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1))
    return lines


#: every test file, the web server's and the browser tests' included
ALL_TEST_FILES = sorted(p for p in Path(__file__).parent.rglob("*.py")
                        if "__pycache__" not in p.parts)


@pytest.mark.parametrize("path", ALL_TEST_FILES,
                         ids=lambda p: str(p.relative_to(Path(__file__).parent)))
def test_no_test_reads_a_private_member(path: Path) -> None:
    """Tests speak through the public API: no ``obj._x`` (but their own ``self._x``),
    no ``setattr(obj, "_x")`` / ``monkeypatch.setattr(obj, "_x")``, no ``from endeavor...
    import _x``, in any test file (the web's and the browser tests' too)."""
    name = str(path.relative_to(Path(__file__).parent))
    found = sorted(_private_uses(ast.parse(path.read_text())))
    assert not found, f"{name} uses {found}"


def test_the_private_access_checker_sees_every_form() -> None:
    code = """
s._legal = None
x = store._write(1)
monkeypatch.setattr(store, "_insert", full)
monkeypatch.setattr("endeavor.web.store._now", now)
getattr(state, "_shields")()
from endeavor.web.loadtest import _retrieve
self._own = 1
engine.pool._max_overflow
monkeypatch.setattr(cli.play, "DEFAULT_OPPONENT", "random")
"""
    found = sorted(_private_uses(ast.parse(code)))
    assert [f.split(":")[0] for f in found] == [
        "line 2", "line 3", "line 4", "line 5", "line 6", "line 7"], found


@pytest.mark.parametrize("path", TEST_FILES, ids=lambda p: p.stem)
def test_tests_touch_no_private_member_of_the_engine(path: Path) -> None:
    tree = ast.parse(path.read_text())
    assert not _private_uses(tree), f"{path.name} uses {_private_uses(tree)}"
    writes = _state_writes(tree, skip=_allowed_lines(tree), own=set())
    assert not writes, f"{path.name} writes {writes}"
