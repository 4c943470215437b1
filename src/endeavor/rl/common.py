"""What the PettingZoo and Gymnasium environments share: the game settings taken as
keyword arguments, the deal seed of each episode, the terminal screen of ``render``, and
the message for a missing extra."""

from __future__ import annotations

import io
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..config import GameConfig
from ..encoding.actions import NUM_ACTIONS, index_of
from ..encoding.observation import ObservationEncoder
from ..events import Event
from ..state import State

#: what to install when Gymnasium or PettingZoo is missing
INSTALL_HINT = "pip install 'endeavor[rl]'"
#: deal seeds drawn for unseeded resets are below this
SEED_BOUND = 2**31
#: the legal actions take at most this many lines under a rendered screen
MAX_ACTION_LINES = 8


def empty_mask() -> npt.NDArray[np.int8]:
    """A new all-zero mask (nothing legal)."""
    return np.zeros(NUM_ACTIONS, np.int8)


class Observers:
    """The observations of one environment's seats: one incremental
    :class:`~endeavor.encoding.observation.ObservationEncoder` per seat, of this environment
    alone (the module's shared encoders, used by ``encode(state, seat)``, would go from
    one game to another when several environments run in one process, as in a
    ``SyncVectorEnv``, and rewrite most of the vector every time: 4 games interleaved
    cost 4x a step). Not copied or pickled: a copy starts with new encoders (the first
    observation of each seat is then encoded whole)."""

    def __init__(self) -> None:
        self.encoders: dict[int, ObservationEncoder] = {}

    def __call__(self, state: State, seat: int) -> Any:
        """The observation of ``seat``: a new ``float32`` vector."""
        encoder = self.encoders.get(seat)
        if encoder is None:
            encoder = self.encoders[seat] = ObservationEncoder(seat)
        return encoder.encode(state)

    def __reduce__(self) -> tuple[type[Observers], tuple[()]]:
        return (Observers, ())


def missing(library: str, error: ImportError) -> ImportError:
    """The ImportError raised when ``library`` (an optional dependency) is missing."""
    out = ImportError(f"endeavor.rl needs {library}: {INSTALL_HINT} ({error})")
    out.name = library
    return out


def game_config(players: int, ruleset: str, board: str | None, exploits: Any,
                options: Mapping[str, Any] | None, seed: int = 0) -> GameConfig:
    """The :class:`GameConfig` of the environment's settings (validated: an impossible
    setting raises :class:`~endeavor.ConfigError` when the environment is made)."""
    return GameConfig(players=players, ruleset=ruleset, board=board,
                      exploits=() if exploits is None else exploits, seed=seed,
                      options=dict(options or {}))


def positive_or_none(name: str, value: object) -> int | None:
    """``value`` as an int if it is a positive int, None if None; else ValueError."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise ValueError(f"{name} must be a positive int or None, not {value!r}")
    return int(value)


def with_seed(config: GameConfig, seed: int) -> GameConfig:
    """``config`` dealt from ``seed``."""
    return GameConfig(players=config.players, ruleset=config.ruleset, board=config.board,
                      exploits=config.exploits, seed=seed, options=dict(config.options))


def new_game_event(state: State) -> Event:
    """The first line of a rendered log: the game's settings (:func:`endeavor.terminal.render.
    new_game_event`; Rich, which that module needs, is imported only when rendering)."""
    from ..terminal import render as R
    return R.new_game_event(state)


def _action_lines(items: list[str], width: int) -> list[str]:
    """The legal actions wrapped to ``width``, at most :data:`MAX_ACTION_LINES` lines (the
    last saying how many more there are)."""
    head = "Legal actions (index: notation): "
    average = sum(len(i) + 3 for i in items) / max(1, len(items))
    shown = min(len(items), int(MAX_ACTION_LINES * width / average) + 1)
    while True:
        text = head + " · ".join(items[:shown])
        if shown < len(items):
            text += f" · … {len(items) - shown} more"
        lines = textwrap.wrap(text, width, subsequent_indent="  ")
        if len(lines) <= MAX_ACTION_LINES or shown == 0:
            return lines
        shown -= 1


def screen_text(state: State, log: Sequence[Event], new_from: int | None, title: str,
                names: Mapping[int, str], width: int = 100, height: int = 40) -> str:
    """The terminal screen of ``endeavor play`` for ``state`` as text with ANSI colours:
    the header, board, supply, Exploits, mats and log (``new_from``: where its new part
    starts), then the decision's prompt and its legal actions by action index (or the
    final score table)."""
    from rich.console import Console  # Rich (a dependency of the engine): only to render
    from rich.text import Text

    from ..terminal import render as R
    from ..terminal import screen as S

    decision = state.decision()
    extra: list[Text] = []
    if decision is not None:
        extra = [Text(line, style="cyan") for line in _action_lines(
            [f"{index_of(o.action)}: {o.action}" for o in decision.options], width)]
    else:
        extra = S.renderable_lines(R.score_table(state), width)
        if state.is_over:
            extra.append(R.winners_line(state))
    view = S.View(log=log, new_from=new_from, title=title, decision=decision, extra=extra,
                  names=names, log_title="Log · » since the last render")
    out = io.StringIO()
    console = Console(file=out, width=width, height=height, force_terminal=True,
                      color_system="standard", legacy_windows=False)
    console.print(S.screen(state, view, width, max(height, 10 + len(extra)), reserve=0))
    return out.getvalue()


def check_render_mode(render_mode: str | None, modes: Sequence[str]) -> None:
    """``ValueError`` unless ``render_mode`` is None or one of ``modes``."""
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode must be None or one of {list(modes)}, "
                         f"not {render_mode!r}")


class ScreenLog:
    """``render()`` for both environments: the terminal screen of ``endeavor play`` for
    the game being played, with the log of its events since the last render. The
    environment keeps ``game``, ``_log`` (the events of the episode, None before the
    first reset) and ``_rendered`` (how much of the log was shown), and says how the
    screen is titled and the seats are named."""

    render_mode: str | None
    game: State | None
    _log: list[Event] | None
    _rendered: int

    def _screen_title(self) -> str:
        raise NotImplementedError

    def _screen_names(self) -> dict[int, str]:
        raise NotImplementedError

    def render(self) -> str | None:
        """The terminal screen of ``endeavor play`` (with ANSI colours) with the log since
        the last render and the legal actions by index: returned (``render_mode="ansi"``)
        or printed (``"human"``, which also prints it after every step)."""
        if self.render_mode is None:
            import gymnasium  # both extras bring it

            gymnasium.logger.warn("render() was called without a render_mode: make the "
                                  "environment with render_mode='ansi'")
            return None
        assert self.game is not None and self._log is not None, "call reset() first"
        text = screen_text(self.game, self._log, self._rendered, self._screen_title(),
                           self._screen_names())
        self._rendered = len(self._log)
        if self.render_mode == "human":
            print(text, end="", flush=True)
            return None
        return text
