"""The store's words: the log's lines that are not engine events (an undo, a clock
running out, a host entry), and a game's title."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ...messages import Count, Message, Seat, msg
from ..view import journal, words

if TYPE_CHECKING:
    from endeavor import GameConfig

    from .records import Effective, Entry, SeatSpec

MAX_TITLE: Final = 200


def undo_message(gone: Effective) -> Message:
    """The undo of ``gone`` as a journal message: ``P0 took back: Build the Shipyard``
    (the undone action's own words, as everyone reads them)."""
    event = next((ev for ev in gone.events if ev.kind == "action"), None)
    message = event.message if event is not None else None
    return msg(journal.UNDO, seat=Seat(gone.seat),
               what=message if message is not None else gone.action)


def undo_words(gone: Effective) -> str:
    """``P0 took back: Build the Shipyard`` (:func:`undo_message` in English)."""
    return journal.journal_text(undo_message(gone))


def timeout_message(seat: int, note: str) -> Message:
    """``P2's time ran out: the medium bot played for them``, as a journal message."""
    bot = note.split(":", 1)[1] if ":" in note else "a"
    return msg(journal.TIMEOUT, seat=Seat(seat), bot=journal.bot_level(bot))


def timeout_words(seat: int, note: str) -> str:
    """``P2's time ran out: the medium bot played for them``."""
    return journal.journal_text(timeout_message(seat, note))


def is_rename(entry: Entry) -> bool:
    """A ``host`` entry that only gives a seat a new name (``name <seat> <name>``)."""
    return entry.kind == "host" and (entry.action or "").startswith("name ")


def host_message(entry: Entry) -> Message:
    """A ``host`` entry as a journal message (its notation: ``reissue 2``, ``bot 2
    medium``, ``human 2`` / ``human 2 same`` (on the player's link), ``extend 2 3600`` /
    ``extend all 3600``, ``pause``, ``resume``, ``end``, ``reclaim 2``, ``takeover 2
    medium`` (a clock ran out for the rest of the game), ``left 2 medium`` (the seat's
    player deleted their account))."""
    words = (entry.action or "").split()
    op = words[0] if words else ""
    arg = words[1] if len(words) > 1 else ""
    who = journal.who_message(arg)
    bot = journal.bot_level(words[2] if len(words) > 2 else "a")
    if op == "reissue":
        return msg(journal.REISSUE, who=who)
    if op == "bot":
        return msg(journal.BOT, bot=bot, who=who)
    if op == "human":
        return msg(journal.HANDED_SAME if words[2:3] == ["same"] else journal.HANDED_NEW,
                   who=who)
    if op == "extend":
        secs = float(words[2]) if len(words) > 2 else 0.0
        return msg(journal.EXTEND, who=who, time=journal.duration_message(secs))
    if op == "pause":
        return msg(journal.PAUSE)
    if op == "resume":
        return msg(journal.RESUME)
    if op == "end":
        return msg(journal.END)
    if op == "reclaim":
        return msg(journal.RECLAIM, who=who)
    if op == "name":
        return msg(journal.NAME, who=who, name=" ".join(words[2:]))
    if op == "left":
        return msg(journal.LEFT, who=who, bot=bot)
    if op == "takeover":
        return msg(journal.TAKEOVER, who=who, bot=bot)
    return msg(journal.OTHER, action=str(entry.action))


def host_words(entry: Entry) -> str:
    """A ``host`` entry in words (:func:`host_message` in English)."""
    return journal.journal_text(host_message(entry))


def clean_title(title: str | None) -> str:
    """A title as kept: control characters and runs of white space made one space,
    at most :data:`MAX_TITLE` characters."""
    if not title:
        return ""
    cleaned = " ".join("".join(" " if ch < " " or ch == "\x7f" else ch for ch in title)
                       .split())
    return cleaned[:MAX_TITLE]


def default_title(cfg: GameConfig, specs: list[SeatSpec], locale: str = "en") -> str:
    """``"4 players, Age of Sail, 3 bots"`` in ``locale``."""
    bots = sum(1 for s in specs if s.kind == "bot")
    ruleset = "Age of Sail" if cfg.ruleset == "age_of_sail" else msg(words.TITLE_CLASSIC)
    return msg(words.TITLE, players=cfg.players, ruleset=ruleset,
               bots=msg(words.TITLE_BOTS, bots=Count(bots, "bot")) if bots else "",
               ).render(locale)
