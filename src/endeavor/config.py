"""The frozen game configuration (R1, R4, R6, R16).

A :class:`GameConfig` is separate from the changing state: it names the ruleset, the
number of players, the board side, the Exploits, the options and the seed that drives
setup randomness (R2). It is validated on construction; an impossible configuration
raises :class:`ConfigError` with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .errors import ConfigError
from .exploits import EXPLOIT_IDS  # noqa: F401  (registers the Exploits; re-exported)
from .rules import RULESETS as _RULESET_CLASSES
from .rules import AgeOfSail
from .rules.module import exploit_ids

RULESETS = ("age_of_sail", "classic")
#: option name -> (allowed values, default), of the Age of Sail ruleset
OPTIONS: dict[str, tuple[tuple[Any, ...], Any]] = AgeOfSail.options


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
        if self.ruleset not in RULESETS:
            raise ConfigError(f"unknown ruleset {self.ruleset!r}; choose one of {RULESETS}")
        if self.ruleset not in _RULESET_CLASSES:
            raise ConfigError(f"the {self.ruleset} ruleset is not built yet; "
                              "use ruleset='age_of_sail'")
        rules = _RULESET_CLASSES[self.ruleset]
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise ConfigError(f"players must be an int, got {self.players!r}")
        if self.players not in rules.player_counts:
            lo, hi = min(rules.player_counts), max(rules.player_counts)
            raise ConfigError(f"{rules.title.split(': ')[-1]} is for {lo} to {hi} players, "
                              f"not {self.players}")
        board = self.board if self.board is not None else rules.default_board(self.players)
        if board not in rules.boards:
            sides = " or ".join(repr(b) for b in rules.boards)
            raise ConfigError(f"board side must be {sides}, not {board!r}")
        object.__setattr__(self, "board", board)
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise ConfigError(f"seed must be an int, got {self.seed!r}")
        ex = self.exploits
        if isinstance(ex, str):
            if ex in ("none", ""):
                ex = ()
            elif ex == "random":  # R4: 3 drawn by the game's generator at setup
                ex = "random"
            else:
                ex = tuple(e.strip() for e in ex.split(",") if e.strip())
        if ex != "random":
            if not isinstance(ex, (tuple, list)):
                raise ConfigError(f"exploits must be a tuple of Exploit ids, 'random' or "
                                  f"'none', got {ex!r}")
            ex = tuple(ex)
            known = exploit_ids()
            for e in ex:
                if e not in known:
                    raise ConfigError(f"unknown Exploit {e!r}; known: "
                                      f"{', '.join(known)}")
            if len(set(ex)) != len(ex):
                raise ConfigError(f"Exploit listed twice in {ex}")
            if len(ex) > 3:
                raise ConfigError(f"at most 3 Exploits, got {len(ex)}")
        object.__setattr__(self, "exploits", ex)
        if not isinstance(self.options, Mapping):
            raise ConfigError(f"options must be a mapping, got {self.options!r}")
        allowed_options = rules.options
        opts = {}
        for name, value in self.options.items():
            if name not in allowed_options:
                raise ConfigError(f"unknown option {name!r}; known: "
                                  f"{', '.join(allowed_options)}")
            allowed = allowed_options[name][0]
            if value not in allowed or type(value) is not type(allowed_options[name][1]):
                raise ConfigError(f"option {name}={value!r} must be one of {allowed}")
            opts[name] = value
        for name, (_, default) in allowed_options.items():
            opts.setdefault(name, default)
        object.__setattr__(self, "options", MappingProxyType(opts))
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
        extra = set(d) - known
        if extra:
            raise ConfigError(f"unknown config field(s): {', '.join(sorted(extra))}")
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
