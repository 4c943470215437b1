"""The words of prompts and events: ruling ids taken out (:func:`plain_words`); the
web's own sentences around the engine's (:func:`choice_words`). The second and third
persons are the engine's messages' own (``render(locale, viewer)``)."""

from __future__ import annotations

import re
from typing import Final

from ...messages import Seat, define, msg, noun

#: the web's own sentences around the engine's (their French in
#: ``endeavor/locale/fr/parts/web.po``)
CHOICE: Final = define("web.choice", "{text} ({seat}'s choice)")
#: a game's title when its creator gives none, in the creator's language
TITLE: Final = define("web.title", "{players} players, {ruleset}{bots}")
TITLE_BOTS: Final = define("web.title.bots", ", {bots}")
TITLE_CLASSIC: Final = define("web.title.classic", "2009 rules")
noun("bot")


def choice_words(text: str, chooser: int, locale: str) -> str:
    """A Silent Fleet's log line with who chose its reaction: ``"... (P1's choice)"``."""
    return msg(CHOICE, text=text, seat=Seat(chooser)).render(locale)


_RULE_IDS: Final = re.compile(r"\s*\((R\d+(?:\s*,\s*R\d+)*)\)")


def plain_words(text: str) -> tuple[str, list[str]]:
    """An engine text for players: one line, without the ruling ids it cites (returned
    apart, for a tooltip): ``"... the track (R16)"`` -> ``("... the track", ["R16"])``."""
    rules: list[str] = []

    def cut(m: re.Match[str]) -> str:
        rules.extend(r.strip() for r in m.group(1).split(","))
        return ""

    return " ".join(_RULE_IDS.sub(cut, text).split()), rules
