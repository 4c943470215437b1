"""A notification's words: :class:`Message`, as an e-mail, and as the one JSON body every
webhook gets (Discord, Slack, ntfy and the structured fields)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from typing import Any, Final
from urllib.parse import quote

from ..names import seat_words
from ..store import utcnow
from ..view import notice
from ..view.notice import say

#: Discord's limit on a message's ``content`` (characters)
DISCORD_MAX: Final = 2000
#: the characters a URL keeps as they are in a header (the rest percent-encoded)
_URL_SAFE: Final = ":/?#[]@!$&'()*+,;=%-._~"


def _discord_escape(text: str) -> str:
    """``text`` shown as is in Discord's markdown."""
    return re.sub(r"([\\*_~`|>#\[\]()-])", r"\\\1", text)


def _slack_escape(text: str) -> str:
    """``text`` shown as is in Slack's mrkdwn (its three control characters)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _when(dt: datetime) -> str:
    return dt.strftime("%Y-%m-%d %H:%M UTC")


@dataclass(frozen=True)
class Message:
    """A notification as it is sent, read from the game when it is sent: ``event``
    ``turn`` (``seat`` is to move: ``asked`` is its decision's prompt, ``deadline`` when
    its clock runs out) or ``over`` (``scores``: ``(seat, total, rank)`` best first;
    ``ended_by_host``), or ``test`` (a test the seat's player asked for). ``link`` is
    the seat's own link (it carries the seat's token), or the spectator link for a
    ``shared`` channel (a webhook several seats use: the seat is named by ``name``);
    ``also``: a digest's lines about the other games waiting (see
    :mod:`endeavor.web.seating`).

    ``chat``: the chat's messages the seat has not seen ("Ann wrote: ..."), ``chat_more``
    how many more there are, ``chat_upto`` the last message they cover (see chat.py).

    ``lang``: the language of its words (``en``, ``fr``: the seat's settings'); every
    sentence is a message of :mod:`endeavor.web.view.notice` put into words in it (what
    the game asks in it too, when composed: :meth:`Composer.compose`). The machine
    fields of :meth:`webhook_body` (ids, links, numbers) read the same in every
    language."""

    event: str
    game_id: str
    title: str
    game_url: str
    seat: int
    round: int
    rounds: int
    link: str
    asked: str | None = None
    deadline: datetime | None = None
    scores: tuple[tuple[int, int, int], ...] = ()
    ended_by_host: bool = False
    chat: tuple[str, ...] = ()
    chat_more: int = 0
    chat_upto: int = 0
    name: str = ""
    shared: bool = False
    also: tuple[str, ...] = ()
    #: the seats' names, by seat (empty: P0, P1, ...); see :mod:`endeavor.web.names`
    names: tuple[str, ...] = ()
    #: the language of its words (see above)
    lang: str = "en"

    def who(self, seat: int, escape: Callable[[str], str] = str) -> str:
        """A seat in words: ``Anna (P1)``, or ``P1`` for a seat not named (the name
        through ``escape``: a player chose it)."""
        name = self.names[seat] if 0 <= seat < len(self.names) else f"P{seat}"
        return seat_words(escape(name), seat) if name != f"P{seat}" else name

    def result(self, escape: Callable[[str], str] = str) -> str:
        """Who won: ``Anna wins with 71 — Bea 67, Medium bot 62`` (names through
        ``escape``)."""
        names = tuple(escape(self.names[s]) if 0 <= s < len(self.names) else f"P{s}"
                      for s in range(max((x[0] for x in self.scores), default=-1) + 1))
        return notice.result_words(self.scores, names, self.lang)

    @property
    def review_url(self) -> str:
        """The finished game's page, opened on its Review."""
        return f"{self.game_url}#review"

    @property
    def subject(self) -> str:
        """The e-mail's subject and the notification's title."""
        if self.event == "test":
            return say(notice.SUBJECT_TEST, self.lang, title=self.title)
        if self.event == "over":
            return say(notice.SUBJECT_OVER, self.lang, title=self.title)
        return say(notice.SUBJECT_TURN, self.lang, title=self.title)

    @property
    def round_words(self) -> str:
        if self.round <= 0:
            return say(notice.SETUP, self.lang)
        return say(notice.ROUND, self.lang, round=str(self.round), rounds=str(self.rounds))

    def _lines(self, title: str, link: str,
               escape: Callable[[str], str] = str) -> list[str]:
        lang = self.lang
        who = self.who(self.seat, escape)
        seat_line = say(notice.WATCH if self.shared else notice.YOUR_SEAT, lang, link=link)
        if self.event == "test":
            return [say(notice.TEST, lang, who=who, title=title), seat_line]
        if self.event == "over":
            return [say(notice.OVER_BY_HOST if self.ended_by_host else notice.OVER, lang,
                        title=title),
                    say(notice.RESULT, lang, result=self.result(escape)) if self.scores
                    else say(notice.NO_SCORES, lang),
                    say(notice.REVIEW, lang, link=self.review_url),
                    say(notice.WATCH, lang, link=link) if self.shared
                    else say(notice.YOUR_SEAT_WHO, lang, who=who, link=link)]
        lines = [say(notice.TURN, lang, who=who, title=title, round=self.round_words)]
        if self.asked:
            lines.append(say(notice.ASKED, lang, asked=self.asked))
        if self.deadline is not None:
            lines.append(say(notice.UNTIL, lang, when=_when(self.deadline),
                             left=notice.until_words(self.deadline, utcnow(), lang)))
        lines.append(seat_line)
        lines.extend(self.also)
        return lines

    def _with_chat(self, lines: list[str], escape: Any = None) -> list[str]:
        """``lines`` and then the chat's unseen messages (``escape``d for a webhook's
        markup)."""
        if not self.chat:
            return lines
        more = (say(notice.MORE_ONE if self.chat_more == 1 else notice.MORE, self.lang,
                    n=str(self.chat_more)) if self.chat_more else None)
        said = [escape(line) if escape else line for line in self.chat]
        return [*lines, "", *said, *([more] if more else [])]

    def text(self) -> str:
        """The message in plain text (e-mail, ntfy)."""
        return "\n".join(self._with_chat(self._lines(self.title, self.link)))

    def webhook_body(self) -> dict[str, Any]:
        """The one JSON body every webhook gets (see docs/web.md, "Notifications"):
        ``content`` for Discord, ``text`` for Slack, ``title`` and ``message`` for
        ntfy's templates, and the structured fields."""
        # <link>: a link in both Discord (without a preview) and Slack
        discord = "\n".join(self._with_chat(self._lines(
            f"**{_discord_escape(self.title)}**", f"<{self.link}>", _discord_escape),
            _discord_escape))
        if len(discord) > DISCORD_MAX:
            discord = discord[:DISCORD_MAX - 1] + "…"
        return {
            "content": discord,
            "allowed_mentions": {"parse": []},
            "text": "\n".join(self._with_chat(self._lines(
                _slack_escape(self.title), f"<{self.link}>", _slack_escape), _slack_escape)),
            "title": self.subject,
            "message": self.text(),
            "event": self.event,
            "game": {"id": self.game_id, "title": self.title, "url": self.game_url},
            "seat": self.seat,
            "name": self.names[self.seat] if 0 <= self.seat < len(self.names) else None,
            "round": self.round,
            "rounds": self.rounds,
            "asked": self.asked,
            "deadline": self.deadline.isoformat() if self.deadline is not None else None,
            "link": self.link,
            "scores": ([{"seat": s, "total": total, "rank": rank,
                         "name": self.names[s] if 0 <= s < len(self.names) else None}
                        for s, total, rank in self.scores] if self.event == "over" else None),
            "chat": list(self.chat), "chat_more": self.chat_more,
            "result": self.result() if self.event == "over" else None,
        }

    def webhook_headers(self) -> dict[str, str]:
        """The headers that go with it: ntfy renders the body's ``title`` and
        ``message`` through them (``X-Template``), and opens ``link`` on a click; the
        others ignore them."""
        return {"Content-Type": "application/json", "X-Template": "yes",
                "X-Title": "{{.title}}", "X-Message": "{{.message}}",
                "X-Click": quote(self.link, safe=_URL_SAFE)}  # headers are ASCII

    def email(self, sender: str, to: str) -> EmailMessage:
        """The e-mail: plain text, from ``sender`` (``--mail-from``) to ``to``."""
        m = EmailMessage()
        m["Subject"] = self.subject
        m["From"] = sender
        m["To"] = to
        m["Date"] = format_datetime(utcnow())
        m["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or "endeavor.invalid")
        m["Auto-Submitted"] = "auto-generated"
        m.set_content(self.text() + "\n\n-- \n" + say(notice.FOOTER, self.lang) + "\n")
        return m
