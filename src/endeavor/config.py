"""The frozen game configuration (R1, R4, R6, R16).

A :class:`GameConfig` is separate from the changing state: it names the ruleset, the
number of players, the board side, the Exploits, the options and the seed that drives
setup randomness (R2). It is validated on construction; an impossible configuration
raises :class:`ConfigError` with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .errors import ConfigError

if TYPE_CHECKING:
    from .rules.base import Rules

    #: option name -> (allowed values, default), of the Age of Sail ruleset
    OPTIONS: dict[str, tuple[tuple[Any, ...], Any]]
    #: every Exploit id, in tile-number order (:data:`endeavor.exploits.EXPLOIT_IDS`)
    EXPLOIT_IDS: tuple[str, ...]

RULESETS = ("age_of_sail", "classic")

# What a config is checked against. Config sits at the bottom of the engine and imports
# no rules (the rulesets and the Exploits are layers above it); importing ``endeavor``
# imports them all and hands them over (:func:`use_rules`): the ruleset classes by id
# (``endeavor.rules.base.RULESETS``) and the function listing the Exploit ids, in
# tile-number order, of the registered rule modules.
_RULESET_CLASSES: Mapping[str, type[Rules]] = {}
_exploit_ids: Callable[[], tuple[str, ...]] = tuple


def use_rules(rulesets: Mapping[str, type[Rules]],
              exploit_ids: Callable[[], tuple[str, ...]]) -> None:
    """Hook, called once when ``endeavor`` is imported: the ruleset classes by id and the
    function listing the Exploit ids, which :class:`GameConfig` validates against."""
    global _RULESET_CLASSES, _exploit_ids
    _RULESET_CLASSES, _exploit_ids = rulesets, exploit_ids


def __getattr__(name: str) -> Any:
    """``OPTIONS`` and ``EXPLOIT_IDS`` (declared above), read from the rules handed over."""
    if name == "OPTIONS":
        return _RULESET_CLASSES["age_of_sail"].options
    if name == "EXPLOIT_IDS":
        return _exploit_ids()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def default_board(players: int, ruleset: str = "age_of_sail") -> str:
    """The board a ruleset recommends for the player count (R1: Age of Sail side A for
    2 and 3 players, side B for 4 (loose) and 5)."""
    return _RULESET_CLASSES[ruleset].default_board(players)


@dataclass(frozen=True)
class GameConfig:
    """Immutable, validated game settings.

    ``board=None`` picks the side R1 recommends for the player count. ``options`` takes
    a mapping; unknown names or values are rejected. ``exploits`` takes up to 3 ids (a
    tuple, or a comma-separated string), ``"random"`` (3 drawn with the game's generator
    at setup, R4) or ``()`` / ``"none"`` for a game without Exploits.
    """

    players: int = 4
    ruleset: str = "age_of_sail"
    board: str | None = None
    exploits: tuple[str, ...] | str = ()
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        # every field's type is checked before its value is compared or looked up, so
        # junk of any type (a dict, a list, an object with a strange ``==``) is refused
        # with a ConfigError naming the field, never a TypeError
        ruleset = self.ruleset
        if not isinstance(ruleset, str):
            raise ConfigError(f"ruleset must be text, one of {RULESETS}, got "
                              f"{_kind(ruleset)}")
        if ruleset not in RULESETS:
            raise ConfigError(f"unknown ruleset {ruleset!r}; choose one of {RULESETS}")
        ruleset = RULESETS[RULESETS.index(ruleset)]  # the plain str
        object.__setattr__(self, "ruleset", ruleset)
        if ruleset not in _RULESET_CLASSES:
            raise ConfigError(f"the {ruleset} ruleset is not built yet; "
                              "use ruleset='age_of_sail'")
        rules = _RULESET_CLASSES[ruleset]
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise ConfigError(f"players must be an int, got {_kind(self.players)}")
        players = int(self.players)
        object.__setattr__(self, "players", players)
        if players not in rules.player_counts:
            lo, hi = min(rules.player_counts), max(rules.player_counts)
            raise ConfigError(f"{rules.title.split(': ')[-1]} is for {lo} to {hi} players, "
                              f"not {players}")
        sides = tuple(rules.boards)
        board = self.board
        if board is None:
            board = rules.default_board(players)
        elif not isinstance(board, str):
            raise ConfigError(f"board side must be {_either(sides)} (or None for the "
                              f"recommended side), got {_kind(board)}")
        if board not in sides:
            raise ConfigError(f"board side must be {_either(sides)}, not {board!r}")
        object.__setattr__(self, "board", sides[sides.index(board)])
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise ConfigError(f"seed must be an int, got {_kind(self.seed)}")
        object.__setattr__(self, "seed", int(self.seed))
        object.__setattr__(self, "exploits", _exploits(self.exploits))
        object.__setattr__(self, "options", MappingProxyType(_options(self.options, rules)))
        problem = rules.config_problem(self)
        if problem:
            raise ConfigError(problem)

    def option(self, name: str) -> Any:
        """The value of an option (defaults filled in)."""
        return self.options[name]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready form; ``GameConfig.from_dict`` reverses it."""
        ex = self.exploits if isinstance(self.exploits, str) else list(self.exploits)
        return {"players": self.players, "ruleset": self.ruleset, "board": self.board,
                "exploits": ex, "seed": self.seed,
                "options": dict(self.options)}

    @classmethod
    def from_dict(cls, d: Any) -> GameConfig:
        if not isinstance(d, dict):
            raise ConfigError(f"config must be an object, got {type(d).__name__}")
        known = {"players", "ruleset", "board", "exploits", "seed", "options"}
        extra = [k for k in d if k not in known]
        if extra:
            raise ConfigError("unknown config field(s): "
                              f"{', '.join(sorted(repr(k) for k in extra))}; known: "
                              f"{', '.join(sorted(known))}")
        kw = dict(d)
        if "exploits" in kw and isinstance(kw["exploits"], list):
            kw["exploits"] = tuple(kw["exploits"])
        return cls(**kw)

    # pickle and copy: ``options`` is a read-only mapping, which pickle cannot take, so a
    # config travels as its plain form and is validated again on arrival; being
    # immutable, a copy is the config itself
    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        return (_config_from_plain, (self.to_dict(),))

    def __copy__(self) -> GameConfig:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> GameConfig:
        return self


def _config_from_plain(d: dict[str, Any]) -> GameConfig:
    """Unpickle a :class:`GameConfig` (its :meth:`GameConfig.to_dict` form)."""
    return GameConfig.from_dict(d)


def _kind(value: object) -> str:
    """A junk value in words: its type and its repr (shortened)."""
    return f"{type(value).__name__} {_short(value)}"


def _either(choices: tuple[str, ...]) -> str:
    return " or ".join(repr(c) for c in choices)


def _exploits(ex: object) -> tuple[str, ...] | str:
    """R4: the Exploits as a tuple of known ids, or ``"random"``; ConfigError otherwise."""
    if isinstance(ex, str):
        if ex in ("none", ""):
            return ()
        if ex == "random":  # R4: 3 drawn by the game's generator at setup
            return "random"
        ex = tuple(e.strip() for e in ex.split(",") if e.strip())
    if not isinstance(ex, (tuple, list)):
        raise ConfigError(f"exploits must be a tuple of Exploit ids, 'random' or "
                          f"'none', got {_kind(ex)}")
    known = _exploit_ids()
    out: list[str] = []
    for e in ex:
        if not isinstance(e, str):
            raise ConfigError(f"an Exploit is named by its id (text), got {_kind(e)}; "
                              f"known: {', '.join(known)}")
        if e not in known:
            raise ConfigError(f"unknown Exploit {e!r}; known: {', '.join(known)}")
        e = known[known.index(e)]
        if e in out:
            raise ConfigError(f"Exploit listed twice: {e!r} in {tuple(ex)!r}")
        out.append(e)
    if len(out) > 3:
        raise ConfigError(f"at most 3 Exploits, got {len(out)}")
    return tuple(out)


def _options(options: object, rules: type[Rules]) -> dict[str, Any]:
    """R6, R16, R22: the options given, checked by name, type and value, with the
    ruleset's defaults filled in; ConfigError otherwise."""
    if not isinstance(options, Mapping):
        raise ConfigError(f"options must be a mapping of option names to values, got "
                          f"{_kind(options)}")
    allowed_options = rules.options
    opts: dict[str, Any] = {}
    for name, value in options.items():
        if not isinstance(name, str) or name not in allowed_options:
            raise ConfigError(f"unknown option {name!r}; known: "
                              f"{', '.join(allowed_options)}")
        allowed, default = allowed_options[name]
        if type(value) is not type(default) or value not in allowed:
            raise ConfigError(f"option {name}={_short(value)} must be one of {allowed}")
        opts[name] = allowed[allowed.index(value)]
    for name, (_, default) in allowed_options.items():
        opts.setdefault(name, default)
    return opts


def _short(value: object) -> str:
    """``repr(value)``, at most 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
