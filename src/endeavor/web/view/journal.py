"""The journal's words: the log's lines that are not engine events (an undo, a clock
running out, a change made by the host or a seat) as structured messages
(:mod:`endeavor.messages`), put into words in the reader's locale when the log is served
(:func:`journal_text`). Their French is in ``endeavor/locale/fr/parts/journal.po``.

The messages are built from the log's entries (:mod:`endeavor.web.store.words`); a
line kept without a message (an older form) is shown with its text as it is."""

from __future__ import annotations

import re
from typing import Final

from ...messages import DEFAULT_LOCALE, Message, Seat, Term, define, msg, term
from .words import plain_words

#: the bot levels by their names, said in the reader's language (terms.po)
BOT_LEVELS: Final = ("random", "greedy", "easy", "medium", "mcts", "hard", "expert")
term("bot_level", *BOT_LEVELS)


def bot_level(name: str) -> Term | str:
    """A bot level's name as a term (said in the reader's language), another word as
    it is."""
    return Term("bot_level", name) if name in BOT_LEVELS else name


UNDO: Final = define("journal.undo", "{seat} took back: {what}")
TIMEOUT: Final = define("journal.timeout",
                        "{seat}'s time ran out: the {bot} bot played for them")
EVERY_SEAT: Final = define("journal.every_seat", "every seat")
REISSUE: Final = define("journal.reissue",
                        "The host issued a new link for {who} (the old one no longer works)")
BOT: Final = define("journal.bot", "The host put the {bot} bot in {who}'s seat")
HANDED_SAME: Final = define("journal.handed_same",
                            "The host handed {who}'s seat back to its player (on their link)")
HANDED_NEW: Final = define("journal.handed_new",
                           "The host handed {who}'s seat back to a player (with a new link)")
EXTEND: Final = define("journal.extend", "The host gave {who} {time} more")
PAUSE: Final = define("journal.pause", "The host stopped the clocks")
RESUME: Final = define("journal.resume", "The host restarted the clocks")
END: Final = define("journal.end",
                    "The host ended the game: the scores are counted as they stand")
RECLAIM: Final = define("journal.reclaim", "{who} took their seat back from the bot")
NAME: Final = define("journal.name", "{who} has a new name: {name}")
TAKEOVER: Final = define("journal.takeover", "{who}'s time ran out: the {bot} bot plays "
                         "for them for the rest of the game")
LEFT: Final = define("journal.left", "{who}'s player deleted their account: the {bot} bot "
                     "plays for them")
OTHER: Final = define("journal.other", "The host changed the game ({action})")
#: a time the host gave, in one unit: ``(singular, plural)`` message ids
UNITS: Final = (
    (86400, define("journal.day", "{n} day"), define("journal.days", "{n} days")),
    (3600, define("journal.hour", "{n} hour"), define("journal.hours", "{n} hours")),
    (60, define("journal.minute", "{n} minute"), define("journal.minutes", "{n} minutes")),
)
SECOND: Final = define("journal.second", "{n} second")
SECONDS: Final = define("journal.seconds", "{n} seconds")

#: the "P1: " an action's own words may start with (French: "P1 : ")
_PLAYER_PREFIX: Final = re.compile(r"^P\d+\s?:\s*")


def duration_message(seconds: float) -> Message:
    """A time the host gave, in its largest whole unit: ``3 days``, ``90 seconds``."""
    s = int(round(seconds))
    for size, one, many in UNITS:
        if s % size == 0 and s >= size:
            n = s // size
            return msg(one if n == 1 else many, n=n)
    return msg(SECOND if s == 1 else SECONDS, n=s)


def who_message(arg: str) -> Seat | Message:
    """A seat named in a host entry's notation (``2``), or every seat."""
    return Seat(int(arg)) if arg.isdigit() else msg(EVERY_SEAT)


def journal_text(message: Message, locale: str = DEFAULT_LOCALE) -> str:
    """A journal line's message in ``locale``'s words (the third person: the log is
    everyone's). An undo's ``what`` (the undone action's own event) is said without
    the ruling ids it cites and the player it starts with."""
    what = message.args.get("what")
    if message.id == UNDO and isinstance(what, Message):
        said = _PLAYER_PREFIX.sub("", plain_words(what.render(locale))[0])
        message = Message(message.id, {**message.args, "what": said})
    return message.render(locale)
