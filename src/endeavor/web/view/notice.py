"""The words of a notification (an e-mail, a webhook's message): every sentence a
structured message (:mod:`endeavor.messages`), put into words in the language of the
seat's settings (``notify.lang``) by :class:`endeavor.web.notify.Message`. Their French
is in ``endeavor/locale/fr/parts/notify.po``.

The values a sentence carries (a game's title, a seat's name, a link) are put in as
they are, already escaped for the channel's markup when it has one."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Final

from ...messages import AND, COMMA, DEFAULT_LOCALE, define, msg

SUBJECT_TEST: Final = define("notify.subject_test", "Endeavor: a test from {title}")
SUBJECT_OVER: Final = define("notify.subject_over", "Endeavor: {title} is over")
SUBJECT_TURN: Final = define("notify.subject_turn", "Endeavor: your move in {title}")
GAME: Final = define("notify.game", "game {game}")
SETUP: Final = define("notify.setup", "setup")
ROUND: Final = define("notify.round", "round {round} of {rounds}")
WATCH: Final = define("notify.watch", "Watch the game: {link}")
YOUR_SEAT: Final = define("notify.your_seat", "Your seat: {link}")
YOUR_SEAT_WHO: Final = define("notify.your_seat_who", "Your seat ({who}): {link}")
TEST: Final = define("notify.test", "A test message for {who} in {title}: this channel works.")
OVER: Final = define("notify.over", "{title} is over.")
OVER_BY_HOST: Final = define("notify.over_by_host", "{title} is over (ended by the host: the "
                             "scores are counted as they stood).")
RESULT: Final = define("notify.result", "{result}.")
NO_SCORES: Final = define("notify.no_scores", "No scores.")
REVIEW: Final = define("notify.review", "The review: {link}")
TURN: Final = define("notify.turn", "{who}, it is your move in {title} ({round}).")
ASKED: Final = define("notify.asked", "Asked: {asked}")
UNTIL: Final = define("notify.until", "You have until {when} ({left}).")
NOW: Final = define("notify.now", "now")
IN: Final = define("notify.in", "in {time}")
LESS_THAN_A_MINUTE: Final = define("notify.less_than_a_minute", "less than a minute")
#: a duration's two largest units, said one after the other ("3 days 12 hours")
TIME: Final = define("notify.time", "{a} {b}")
UNITS: Final = (
    (86_400, define("notify.day", "{n} day"), define("notify.days", "{n} days")),
    (3_600, define("notify.hour", "{n} hour"), define("notify.hours", "{n} hours")),
    (60, define("notify.minute", "{n} minute"), define("notify.minutes", "{n} minutes")),
)
WROTE: Final = define("notify.wrote", "{name} wrote: {text}")
MORE_ONE: Final = define("notify.more_one", "… and {n} more message in the chat")
MORE: Final = define("notify.more", "… and {n} more messages in the chat")
ALSO: Final = define("notify.also", "Also your move: {title} ({seat}): {link}")
FOOTER: Final = define("notify.footer", "You get this because this seat asked for it on the "
                       "game's page, where you can change or remove it.")
WINS: Final = define("notify.wins", "{who} wins with {total}")
SHARE: Final = define("notify.share", "{who} share the win with {total}")
#: the winner(s), then the others: ``Anna wins with 71 — Bea 67, Cy 51``
RANKED: Final = define("notify.ranked", "{head} — {rest}")
SCORE: Final = define("notify.score", "{name} {total}")


def say(id: str, locale: str = DEFAULT_LOCALE, **args: Any) -> str:
    """Message ``id`` with ``args`` in ``locale``'s words (the third person; strings are
    put in as they are)."""
    return msg(id, **args).render(locale)


def title_words(title: str | None, game_id: str, locale: str = DEFAULT_LOCALE) -> str:
    """A game's title, or ``game <id>`` when it has none."""
    return title or say(GAME, locale, game=game_id)


def result_words(scores: Sequence[tuple[int, int, int]], names: Sequence[str],
                 locale: str = DEFAULT_LOCALE) -> str:
    """Who won, in one line: ``Anna wins with 71 — Bea 67, Medium bot 62, Cy 51``
    (``scores``: ``(seat, total, rank)``, equal ranks sharing the win; ``names``: by
    seat, ``P<n>`` beyond them); ``No scores.`` without any."""
    ordered = sorted(scores, key=lambda x: (x[2], -x[1], x[0]))
    if not ordered:
        return say(NO_SCORES, locale)

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"P{seat}"

    best = ordered[0][2]
    winners = [s for s in ordered if s[2] == best]
    rest = [s for s in ordered if s[2] != best]
    total = str(winners[0][1])
    if len(winners) == 1:
        head = say(WINS, locale, who=name(winners[0][0]), total=total)
    else:
        who = [name(s[0]) for s in winners]
        head = say(SHARE, locale, who=_commas(who[:-1], locale, who[-1]), total=total)
    if not rest:
        return head
    others = [say(SCORE, locale, name=name(s), total=str(t)) for s, t, _rank in rest]
    return say(RANKED, locale, head=head, rest=_commas(others, locale))


def _commas(items: Sequence[str], locale: str, last: str | None = None) -> str:
    """``items`` joined by commas (then ``and last``, when given)."""
    out = items[0] if items else ""
    for x in items[1:]:
        out = say(COMMA, locale, a=out, b=x)
    return say(AND, locale, a=out, b=last) if last is not None and items else (
        last if last is not None else out)


def duration_words(seconds: float, locale: str = DEFAULT_LOCALE, parts: int = 2) -> str:
    """``seconds`` in words: ``3 days 12 hours``, ``1 hour 5 minutes``, ``4 minutes``,
    ``less than a minute`` (the ``parts`` largest non-zero units, from the largest one
    present, stopping at the first gap; seconds are not said)."""
    left = int(max(0.0, seconds))
    if left < 60:
        return say(LESS_THAN_A_MINUTE, locale)
    out: list[str] = []
    for size, one, many in UNITS:
        n, left = divmod(left, size)
        if n and len(out) < parts:
            out.append(say(one if n == 1 else many, locale, n=str(n)))
        elif out:
            break
    words = out[0]
    for x in out[1:]:
        words = say(TIME, locale, a=words, b=x)
    return words


def until_words(deadline: datetime, now: datetime, locale: str = DEFAULT_LOCALE) -> str:
    """How long until ``deadline``: ``in 3 days 12 hours``, or ``now`` once passed."""
    seconds = (deadline - now).total_seconds()
    if seconds <= 0:
        return say(NOW, locale)
    return say(IN, locale, time=duration_words(seconds, locale))
