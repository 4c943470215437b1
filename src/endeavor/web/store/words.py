"""The store's words: the log's lines that are not engine events (an undo, a clock
running out, a host entry), and a game's title."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from ..view import plain_words

if TYPE_CHECKING:
    from endeavor import GameConfig

    from .records import Effective, Entry, SeatSpec

MAX_TITLE: Final = 200
_PLAYER_PREFIX: Final = re.compile(r"^P\d+:\s*")


def undo_words(gone: Effective) -> str:
    """``P0 took back: Build the Shipyard`` (the undone action's own words, as everyone
    reads them)."""
    event = next((ev for ev in gone.events if ev.kind == "action"), None)
    message = event.message if event is not None else None
    if message is not None:
        what = _PLAYER_PREFIX.sub("", plain_words(message.render())[0])
    else:
        what = gone.action
    return f"P{gone.seat} took back: {what}"


def timeout_words(seat: int, note: str) -> str:
    """``P2's time ran out: the medium bot played for them``."""
    bot = note.split(":", 1)[1] if ":" in note else "a"
    return f"P{seat}'s time ran out: the {bot} bot played for them"


def _duration_words(seconds: float) -> str:
    s = int(round(seconds))
    if s % 86400 == 0 and s >= 86400:
        n = s // 86400
        return f"{n} day{'s' if n != 1 else ''}"
    if s % 3600 == 0 and s >= 3600:
        n = s // 3600
        return f"{n} hour{'s' if n != 1 else ''}"
    if s % 60 == 0 and s >= 60:
        n = s // 60
        return f"{n} minute{'s' if n != 1 else ''}"
    return f"{s} second{'s' if s != 1 else ''}"


def is_rename(entry: Entry) -> bool:
    """A ``host`` entry that only gives a seat a new name (``name <seat> <name>``)."""
    return entry.kind == "host" and (entry.action or "").startswith("name ")


def host_words(entry: Entry) -> str:
    """A ``host`` entry in words (its notation: ``reissue 2``, ``bot 2 medium``,
    ``human 2`` / ``human 2 same`` (on the player's link), ``extend 2 3600`` /
    ``extend all 3600``, ``pause``, ``resume``, ``end``, ``reclaim 2``, ``takeover 2
    medium`` (a clock ran out for the rest of the game), ``left 2 medium`` (the seat's
    player deleted their account))."""
    words = (entry.action or "").split()
    op = words[0] if words else ""
    arg = words[1] if len(words) > 1 else ""
    who = f"P{arg}" if arg.isdigit() else "every seat"
    if op == "reissue":
        return f"The host issued a new link for {who} (the old one no longer works)"
    if op == "bot":
        bot = words[2] if len(words) > 2 else "a"
        return f"The host put the {bot} bot in {who}'s seat"
    if op == "human":
        if words[2:3] == ["same"]:
            return f"The host handed {who}'s seat back to its player (on their link)"
        return f"The host handed {who}'s seat back to a player (with a new link)"
    if op == "extend":
        secs = float(words[2]) if len(words) > 2 else 0.0
        return f"The host gave {who} {_duration_words(secs)} more"
    if op == "pause":
        return "The host stopped the clocks"
    if op == "resume":
        return "The host restarted the clocks"
    if op == "end":
        return "The host ended the game: the scores are counted as they stand"
    if op == "reclaim":
        return f"{who} took their seat back from the bot"
    if op == "name":
        return f"{who} has a new name: {' '.join(words[2:])}"
    if op == "left":
        bot = words[2] if len(words) > 2 else "a"
        return f"{who}'s player deleted their account: the {bot} bot plays for them"
    if op == "takeover":
        bot = words[2] if len(words) > 2 else "a"
        return (f"{who}'s time ran out: the {bot} bot plays for them for the rest of the "
                "game")
    return f"The host changed the game ({entry.action})"


def clean_title(title: str | None) -> str:
    """A title as kept: control characters and runs of white space made one space,
    at most :data:`MAX_TITLE` characters."""
    if not title:
        return ""
    cleaned = " ".join("".join(" " if ch < " " or ch == "\x7f" else ch for ch in title)
                       .split())
    return cleaned[:MAX_TITLE]


def default_title(cfg: GameConfig, specs: list[SeatSpec]) -> str:
    ruleset = "Age of Sail" if cfg.ruleset == "age_of_sail" else "2009 rules"
    bots = sum(1 for s in specs if s.kind == "bot")
    who = f", {bots} bot{'s' if bots != 1 else ''}" if bots else ""
    return f"{cfg.players} players, {ruleset}{who}"
