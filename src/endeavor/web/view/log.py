"""The scores and the log as JSON: :func:`scores_view`, the events of an action
(:func:`action_view`) and the journal's lines (:func:`line_view`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ...events import Event
from ...rules.words import word_player as player_name
from ...scoring import final_scores
from ...state import State

if TYPE_CHECKING:
    from ..store import LogLine

from . import notice  # noqa: F401  (declares a notification's words: see its module)
from .journal import journal_text
from .pieces import JSON, term_words
from .words import choice_words, plain_words


def scores_view(state: State, force: bool = False, locale: str = "en") -> list[JSON] | None:
    """The score pad when the game is over (None before; ``force``: counted as the game
    stands, for a game the host ended): per seat its total, rank and lines in pad
    order, the lines named in ``locale`` (an Exploit's line by the Exploit's name)."""
    if not state.is_over and not force:
        return None
    exploits = {m.name for m in state.modules}
    return [{"seat": s.player, "name": player_name(s.player), "total": s.total,
             "rank": s.rank,
             "lines": [[term_words("exploit" if name in exploits else "score_line", name,
                                   locale), pts] for name, pts in s.lines.items()]}
            for s in final_scores(state)]


#: a ruling's id in an engine text, e.g. `` (R16)`` or ``(R16, R21)``
def event_view(event: Event, seq: int, locale: str = "en") -> JSON:
    """One engine event for the log: the log entry ``seq`` that caused it, its kind,
    the seat concerned (None for the table), its words in ``locale`` in the third person
    (the log is everyone's), its message (id and arguments, the same in every language:
    ``Message.to_dict()``) and (``rules``, only when there are some) the rulings they
    cite."""
    words, rules = plain_words(event.render(locale))
    out: JSON = {"seq": seq, "kind": event.kind, "player": event.player, "text": words}
    if event.message is not None:
        out["message"] = event.message.to_dict()
    if rules:
        out["rules"] = rules
    return out


def action_view(seq: int, action: str, events: Iterable[Event], locale: str = "en"
                ) -> list[JSON]:
    """The log of one effective action (its entry ``seq``, its notation, its events) in
    ``locale``: :func:`event_view` of each, except that a choice made for the Silent
    Fleet is logged once (the fleet's own event, saying who chose), not twice."""
    out = [event_view(ev, seq, locale) for ev in events]
    if action.startswith("fleet ") and any(e["kind"] == "fleet" for e in out):
        chooser = next((e["player"] for e in out if e["kind"] == "action"), None)
        out = [e for e in out if e["kind"] != "action"]
        if chooser is not None:
            first = next(e for e in out if e["kind"] == "fleet")
            first["text"] = choice_words(first["text"], chooser, locale)
            first["player"] = chooser
    return out


def line_view(line: LogLine, locale: str = "en") -> JSON:
    """A log line that is not an engine event (an undo, the host's change, a clock),
    shaped as :func:`event_view`'s: its message in ``locale``'s words (a line kept
    without one: its text as it is)."""
    text = line.text if line.message is None else journal_text(line.message, locale)
    return {"seq": line.seq, "kind": line.kind, "player": line.player, "text": text}
