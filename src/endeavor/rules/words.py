"""Shared wording for decisions and events: players, tokens, cards, sites, icons."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .. import data as D
from ..frames import PHASE_NAMES
from ..messages import COMMA, Count, Items, Message, Seat, Term, define, msg, noun, term

if TYPE_CHECKING:
    from ..state import State


def word_player(p: int) -> str:
    """``"P2"``."""
    return f"P{p}"


#: the attribute icons' letters: Industry, Culture, Wealth, Influence (2009: Finance as W,
#: Politics as N)
ICON_LETTERS: Final = ("I", "C", "W", "N")


#: the icons' letters in another language: Industry, Culture, Wealth, Influence, Glory
LETTERS: Final = define("words.letters", "I C W N G")


def icon_letters(locale: str = "en") -> tuple[str, ...]:
    """The letters of the icons Industry, Culture, Wealth, Influence and Glory in
    ``locale`` (French: ``R`` Richesse)."""
    if locale != "en":
        letters = tuple(msg(LETTERS).render(locale).split())
        if len(letters) == 5:
            return letters
    return (*ICON_LETTERS, "G")


def icons_label(icons: tuple[int, int, int, int], glory: int = 0,
                letters: tuple[str, ...] = (*ICON_LETTERS, "G")) -> str:
    """``(0, 2, 0, 1)``, glory 1 -> ``"C2 N1 G1"`` (empty when there is nothing): the
    short form the terminal screen and the web view draw on cards and buildings, with
    the icons' ``letters`` (:func:`icon_letters` of a language)."""
    parts = [f"{letters[k]}{icons[k]}" for k in range(4) if icons[k]]
    if glory:
        parts.append(f"{letters[4]}{glory}")
    return " ".join(parts)


def owner_words(s: State, q: int) -> str:
    """A disc owner mid-sentence: a seat ``"P2"``, or a neutral colour by the module
    that brings it (``"the Silent Fleet"``)."""
    if q < s.n:
        return word_player(q)
    k = q - s.n
    for m in s.rules.modules:
        if k < m.neutral_colours:
            name = m.name
            return "the " + name[4:] if name.startswith("The ") else name
        k -= m.neutral_colours
    return f"neutral colour {q}"  # pragma: no cover


def icons_words(icons: tuple[int, int, int, int], glory: int = 0,
                names: tuple[str, ...] = D.TOKEN_NAMES) -> str:
    """``(0, 2, 0, 1)``, glory 1 -> ``"+2 Culture, +1 Influence, 1 glory"``; ``names``
    are the ruleset's token names (``rules.token_names``: the first four name the
    attributes)."""
    parts = [f"+{icons[k]} {names[k]}" for k in range(4) if icons[k]]
    if glory:
        parts.append(f"{glory} glory")
    return ", ".join(parts) or "nothing"


def _token_words(name: str) -> str:
    return f"{'an' if name[0] in 'AEIOU' else 'a'} {name} token"


#: token_words of the Age of Sail names, by token
_TOKEN_WORDS: Final = tuple(_token_words(name) for name in D.TOKEN_NAMES)


def token_words(t: int, names: tuple[str, ...] = D.TOKEN_NAMES) -> str:
    """``"a Culture token"``, ``"an Influence token"``, ``"a Ship/Draw token"``."""
    if names is D.TOKEN_NAMES:
        return _TOKEN_WORDS[t]
    return _token_words(names[t])


#: card_words already made, by (card, names): the words of a card never change
_CARD_WORDS: Final[dict[tuple[int, tuple[str, ...]], str]] = {}


def card_words(c: int, names: tuple[str, ...] = D.TOKEN_NAMES) -> str:
    """``"AF/3 (+2 Wealth, +2 Influence)"``."""
    key = (c, names)
    words = _CARD_WORDS.get(key)
    if words is None:
        card = D.CARDS[c]
        words = _CARD_WORDS[key] = f"{card.code} ({icons_words(card.icons, card.glory, names)})"
    return words


#: region_words at a sentence's start, by region
_REGION_STARTS: Final = tuple(n[0].upper() + n[1:] for n in D.REGION_NOUNS)


def region_words(r: int, start: bool = False) -> str:
    """A region standing alone in a sentence: ``"Africa"``, ``"the Caribbean"``
    (``"The Caribbean"`` with ``start``); before a noun the bare name serves
    (``D.REGION_NAMES``: ``"the Caribbean track"``)."""
    return _REGION_STARTS[r] if start else D.REGION_NOUNS[r]


#: site_words of every site
_SITE_WORDS: Final = tuple(f"{site.code} ({site.name})" for site in D.SITES)


def site_words(x: int) -> str:
    """``"EU3 (Cadiz)"``."""
    return _SITE_WORDS[x]


def links_completed(s: State, p: int, x: int) -> list[str]:
    """The links ``p`` would control by holding ``x`` (with the token taken, if any):
    ``["EU3-EU4 (Wealth token)", "EU3-EU2"]``."""
    out = []
    for li, other in s.info.adj[x]:
        if s.site_owner[other] == p and not s.link_marks[li]:
            t = s.link_token[li]
            name = f"{D.SITES[x].code}-{D.SITES[other].code}"
            out.append(f"{name} ({s.rules.token_names[t]} token)" if t >= 0 else name)
    return out


def links_words(s: State, p: int, x: int) -> str:
    """``"; completes the link EU3-EU4 (Wealth token)"`` (see :func:`links_completed`),
    or nothing when holding ``x`` completes no link."""
    links = links_completed(s, p, x)
    if not links:
        return ""
    return f"; completes the link{'s' if len(links) > 1 else ''} {', '.join(links)}"


def left_after(k: int) -> str:
    """What a supply or deck holding ``k`` keeps once one is taken: ``"then 4 left"``,
    ``"then none left"`` (the same words in a menu and, after the action, in the log)."""
    return f"then {k - 1} left" if k > 1 else "then none left"


def plural(k: int, word: str) -> str:
    """``plural(1, "disc")`` -> ``"1 disc"``, ``plural(2, "disc")`` -> ``"2 discs"``,
    ``plural(2, "casualty")`` -> ``"2 casualties"``."""
    if k == 1:
        return f"{k} {word}"
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "o", "u"):
        return f"{k} {word[:-1]}ies"
    return f"{k} {word}s"


# ---------------------------------------------------------------------- as messages
term("token", *D.TOKEN_NAMES, *D.CLASSIC_TOKEN_NAMES)
term("region", *D.REGION_NAMES)
term("region_noun", *D.REGION_NOUNS)
term("region_start", *_REGION_STARTS)
term("deck", *D.DECK_NAMES)
term("phase", *PHASE_NAMES)
term("action", *D.KIND_NAMES)
term("building", *(b.name for b in D.BUILDINGS))
noun("disc")
noun("glory", "glory")
noun("card")
noun("worker")

ICON = define("words.icon", "+{n} {token}")
NOTHING = define("words.nothing", "nothing")
CARD = define("words.card", "{code} ({icons})")


def icons_message(icons: tuple[int, int, int, int], glory: int = 0,
                  names: tuple[str, ...] = D.TOKEN_NAMES) -> Items:
    """:func:`icons_words` as a message argument."""
    parts: list[object] = [msg(ICON, n=icons[k], token=Term("token", names[k]))
                           for k in range(4) if icons[k]]
    if glory:
        parts.append(Count(glory, "glory"))
    return Items(tuple(parts), COMMA, NOTHING)


#: the Age of Sail's token names, read once: the options' message caches hold the messages
#: made with these names. Compare with ``names is AOS_NAMES or names == AOS_NAMES``: in
#: the compiled build ``D.TOKEN_NAMES`` read in another module can be another tuple of
#: the same names, never identical to the ruleset's
AOS_NAMES: tuple[str, ...] = D.TOKEN_NAMES

#: card_message already made, by (card, names): a card's message never changes
_CARD_MESSAGES: Final[dict[tuple[int, tuple[str, ...]], Message]] = {}
#: the same with the Age of Sail's token names, by card
_AOS_CARD_MESSAGES: Final[dict[int, Message]] = {}


def card_message(c: int, names: tuple[str, ...] = D.TOKEN_NAMES) -> Message:
    """:func:`card_words` as a message: ``AF/3 (+2 Wealth, +2 Influence)``."""
    if names is AOS_NAMES or names == AOS_NAMES:  # the Age of Sail's: by the card alone
        m = _AOS_CARD_MESSAGES.get(c)
        if m is None:
            m = _AOS_CARD_MESSAGES[c] = _card_message(c, names)
        return m
    key = (c, names)
    m = _CARD_MESSAGES.get(key)
    if m is None:
        m = _CARD_MESSAGES[key] = _card_message(c, names)
    return m


def _card_message(c: int, names: tuple[str, ...]) -> Message:
    card = D.CARDS[c]
    return msg(CARD, code=card.code, icons=icons_message(card.icons, card.glory, names))


def region_term(r: int, start: bool = False) -> Term:
    """:func:`region_words` as a message argument."""
    return Term("region_start", _REGION_STARTS[r]) if start else \
        Term("region_noun", D.REGION_NOUNS[r])


term("token_indefinite", *(_token_words(n) for n in D.TOKEN_NAMES),
     *(_token_words(n) for n in D.CLASSIC_TOKEN_NAMES))
term("module_noun", "the Silent Fleet")
LINKS_ONE = define("words.links.one", "; completes the link {links}")
LINKS_MANY = define("words.links.many", "; completes the links {links}")
LINK_TOKEN = define("words.links.token", "{link} ({token} token)")
LEFT = define("words.left", "then {n} left")
NONE_LEFT = define("words.left.none", "then none left")


#: token_term already made, by (token, names)
_TOKEN_TERMS: Final[dict[tuple[int, tuple[str, ...]], Term]] = {}


def token_term(t: int, names: tuple[str, ...] = D.TOKEN_NAMES) -> Term:
    """:func:`token_words` as a message argument (``"a Culture token"``)."""
    key = (t, names)
    term_ = _TOKEN_TERMS.get(key)
    if term_ is None:
        term_ = _TOKEN_TERMS[key] = Term("token_indefinite", token_words(t, names))
    return term_


def owner_arg(s: State, q: int) -> Seat | Term:
    """:func:`owner_words` as a message argument: the seat, or the neutral colour's
    module (``Term("module_noun", "the Silent Fleet")``)."""
    if q < s.n:
        return Seat(q)
    return Term("module_noun", owner_words(s, q))


def links_message(s: State, p: int, x: int) -> Message | str:
    """:func:`links_words` as a message argument ("" when no link is completed)."""
    parts: list[object] = []
    for li, other in s.info.adj[x]:
        if s.site_owner[other] == p and not s.link_marks[li]:
            t = s.link_token[li]
            name = f"{D.SITES[x].code}-{D.SITES[other].code}"
            parts.append(msg(LINK_TOKEN, link=name, token=Term("token", s.rules.token_names[t]))
                         if t >= 0 else name)
    if not parts:
        return ""
    return msg(LINKS_MANY if len(parts) > 1 else LINKS_ONE, links=Items(tuple(parts), COMMA))


def links_key(s: State, p: int, x: int, key: int) -> int:
    """``key`` followed by what :func:`links_message` says of ``p`` holding ``x``, as
    bytes of one int: each link completed, its other end and its token (for the
    options' message caches; ``key`` starts with a nonzero byte so that no two
    read alike)."""
    owner = s.site_owner
    marks = s.link_marks
    tokens = s.link_token
    for li, other in s.info.adj[x]:
        if owner[other] == p and not marks[li]:
            key = (key << 8 | other) << 8 | (tokens[li] + 1)
    return key


def left_message(k: int) -> Message:
    """:func:`left_after` as a message: ``"then 4 left"``, ``"then none left"``."""
    return msg(LEFT, n=k - 1) if k > 1 else msg(NONE_LEFT)
