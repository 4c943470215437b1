"""Small Rich building blocks for drawing a :class:`State`: player names in their
colours, Trade tokens, cards, buildings, the Exploits' status and the final score table.

A presentation adapter over the engine's public, read-only API (the query methods and
fields listed in docs/python.md and :mod:`endeavor.state`, and the component tables of
:mod:`endeavor.data`); it never changes a state and never decodes decision frames: what a
decision or an action means comes from :meth:`State.decision` and the events of
:meth:`State.apply`. The screen that puts these parts together is :mod:`endeavor.terminal.screen`.

Abbreviations used on screen (see :data:`LEGEND`): attribute tracks ``Ind`` Industry,
``Cul`` Culture, ``Wea`` Wealth, ``Inf`` Influence with their level ``L``; Trade tokens
by the first letters of their names (``ind`` Industry, ``s/d`` Ship/Draw, ...);
buildings by three letters when the line is short of room (:data:`BUILDING_ABBREVS`);
``●``/``○`` a staffed / free activation circle, ``·`` a building without one.
"""

from __future__ import annotations

from rich import box
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from .. import data as D
from ..events import Event
from ..messages import COMMA, Items, Term, msg
from ..rules.words import icon_letters, icons_label
from ..rules.words import word_player as player_name
from ..scoring import final_scores
from ..state import State
from . import words as W

PLAYER_COLOURS = ("red", "blue", "yellow", "green", "magenta")
TRACK_ABBREVS = ("Ind", "Cul", "Wea", "Inf")
BROWN_STYLE = "dark_orange3"
BLUE_STYLE = "cyan"
_SUPERSCRIPT = {2: "²", 3: "³"}


def new_game_event(state: State) -> Event:
    """The first line of a rendered log (terminal, replay, RL environments): the game's
    settings (its words in a locale with :meth:`Event.render`)."""
    config = state.config
    message = msg(W.NEW_GAME, players=str(config.players), board=str(config.board),
                  seed=str(config.seed))
    if state.exploits:
        names = tuple(Term("exploit", e.name) for _, e in state.exploits)
        message = msg(W.NEW_GAME_EXPLOITS, text=message, names=Items(names, COMMA))
    for e in state.modules:
        if not e.is_exploit:
            message = msg(W.NEW_GAME_WITH, text=message, name=Term("module", e.name))
    return Event("info", None, message.render(), message=message)

def _token_abbrev(name: str) -> str:
    """``"Industry"`` -> ``"ind"``, ``"Ship/Draw"`` -> ``"s/d"``."""
    if "/" in name:
        return "/".join(word[0] for word in name.split("/")).lower()
    return name[:3].lower()


TOKEN_ABBREVS = tuple(_token_abbrev(name) for name in D.TOKEN_NAMES)
_ABBREVS: dict[str, tuple[str, ...]] = {"en": TOKEN_ABBREVS}


def token_abbrevs(lang: str = "en") -> tuple[str, ...]:
    """The Trade tokens' abbreviations in ``lang`` (from their names there: ``ric``
    Richesse, ``n/p`` Navigation/Pioche)."""
    out = _ABBREVS.get(lang)
    if out is None:
        out = _ABBREVS[lang] = tuple(_token_abbrev(W.term(lang, "token", name))
                                     for name in D.TOKEN_NAMES)
    return out


def track_abbrevs(lang: str = "en") -> tuple[str, ...]:
    """The attribute tracks' abbreviations in ``lang`` (``Ind Cul Wea Inf``)."""
    return tuple(a.capitalize() for a in token_abbrevs(lang)[:4])
#: three-letter building names, for lines that are short of room
BUILDING_ABBREVS: dict[str, str] = {
    "market": "mkt", "shipyard": "shp", "workshop": "wks", "bank": "bnk",
    "barracks": "brk", "guild-hall": "gld", "docks": "dck", "fortress": "frt",
    "theater": "thr", "cartographer": "crt", "trade-office": "tro", "university": "uni",
    "exchange": "exc", "museum": "mus", "parliament": "par", "memorial": "mem",
    "town-hall": "twn", "colonial-house": "col", "merchant-dock": "mdk",
}



def legend(lang: str = "en") -> str:
    """The screen's abbreviations in words, for ``help``."""
    tokens = token_abbrevs(lang)
    return W.say(lang, W.LEGEND, tracks="/".join(track_abbrevs(lang)),
                 brown=" ".join(tokens[:4]), blue=" ".join(tokens[4:8]),
                 buildings=" ".join(f"{abbrev}={code}"
                                    for code, abbrev in BUILDING_ABBREVS.items()))


LEGEND = legend()


# --------------------------------------------------------------------------- small parts
def player_style(p: int) -> str:
    return f"bold {PLAYER_COLOURS[p % len(PLAYER_COLOURS)]}"


def player_text(p: int) -> Text:
    """The player's name in its colour."""
    return Text(player_name(p), style=player_style(p))


NEUTRAL_STYLE = "bold white on grey23"


def owner_text(state: State, p: int) -> Text:
    """A disc owner: a seat in its colour, or a neutral colour (the Silent Fleet) as
    ``SF``."""
    if p >= state.n:
        return Text("SF", style=NEUTRAL_STYLE)
    return player_text(p)


def token_style(t: int) -> str:
    return BROWN_STYLE if t < 4 else BLUE_STYLE


def token_text(t: int, lang: str = "en") -> Text:
    """A Trade token's abbreviation, brown or blue."""
    return Text(token_abbrevs(lang)[t], style=token_style(t))


def card_gives(c: int, lang: str = "en") -> str:
    """What a card gives, e.g. ``"I2 W1 N1 G1"``."""
    card = D.CARDS[c]
    return icons_label(card.icons, card.glory, icon_letters(lang))


def card_label(c: int, lang: str = "en") -> str:
    """A card's code and what it gives, e.g. ``"AF/4 I2 W1 N1 G1"``."""
    return f"{D.CARDS[c].code} {card_gives(c, lang)}".rstrip()


def building_name(b: int, short: bool = False) -> str:
    """A building's notation code (``"guild-hall"``), or its three letters."""
    code = D.BUILDINGS[b].code
    return BUILDING_ABBREVS.get(code, code[:3]) if short else code


def site_short(state: State, s: int, region: int) -> str:
    """A site's code without its region prefix, with a superscript for 2 or 3 glory:
    ``"3"``, ``"1²"``, ``"T1"`` (tile cities keep their code, e.g. ``"BAT"``)."""
    site = D.SITES[s]
    code = site.code
    prefix = D.REGION_CODES[region]
    short = code[len(prefix):] if code.startswith(prefix) else code
    return short + _SUPERSCRIPT.get(site.glory, "")


def occupant_text(state: State, s: int, lang: str = "en") -> Text:
    """The owner of site ``s``, else the token still on it, else a dot."""
    owner = state.site_owner[s]
    if owner >= 0:
        return owner_text(state, owner)
    token = state.site_token[s]
    return token_text(token, lang) if token >= 0 else Text("·", style="dim")


# --------------------------------------------------------------------------- Exploits
def exploit_state(state: State, i: int, lang: str = "en") -> str:
    """``"active"`` once both regions of Exploit ``i`` are open, else ``"dormant"``."""
    return W.say(lang, W.ACTIVE if state.exploit_active(i) else W.DORMANT)


def shield_holders(state: State, i: int) -> list[int]:
    """Players holding a Shield on Exploit ``i`` (P13), in seat order."""
    return [p for p in range(len(state.players)) if state.has_shield(p, i)]


# --------------------------------------------------------------------------- scores
def score_table(state: State, lang: str = "en") -> RenderableType:
    """The score breakdown: one column per player, one row per score line of
    :func:`final_scores` in pad order (the Exploits first), then the total and the rank
    (ties share a rank). The leaders are marked ★."""
    scores = final_scores(state)
    title = W.say(lang, W.FINAL_SCORE if state.is_over else W.SCORE_NOW)
    table = Table(title=title, box=box.SIMPLE_HEAD, show_edge=False, padding=(0, 1),
                  title_justify="left")
    table.add_column("")
    for s in scores:
        head = player_text(s.player)
        if s.rank == 1:
            head.append(" ★")
        table.add_column(head, justify="right")
    exploit_lines = len(state.exploits)  # one line per Exploit comes first (R19)
    for k, line in enumerate(scores[0].lines):
        table.add_row(_line_name(line, lang), *[str(s.lines[line]) for s in scores],
                      end_section=k == exploit_lines - 1)
    table.add_section()
    table.add_row(W.say(lang, W.TOTAL), *[str(s.total) for s in scores], style="bold")
    table.add_row(W.say(lang, W.RANK), *[str(s.rank) for s in scores])
    return table


def _line_name(line: str, lang: str) -> str:
    """A score line's name in ``lang`` (an Exploit's line is its name)."""
    if line in W.SCORE_LINES:
        return W.say(lang, W.SCORE_LINES[line])
    return W.term(lang, "exploit", line)


def winners_line(state: State, lang: str = "en") -> Text:
    """``Winner: P2 with 61 glory`` (or the shared winners)."""
    scores = final_scores(state)
    best = [s for s in scores if s.rank == 1]
    out = Text(W.say(lang, W.WINNERS if len(best) > 1 else W.WINNER), style="bold")
    out.append_text(Text(", ").join(player_text(s.player) for s in best))
    out.append(W.say(lang, W.WITH_GLORY, glory=str(best[0].total)))
    return out
