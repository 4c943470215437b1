"""The pieces of a position: cards, buildings, sites, decks, tokens, governors (the
parts :mod:`.board` assembles), and the caches of what depends only on the rules (and the
locale of the words) or the board.

The words in the pieces (a building's ``does``, a card's ``gives``, deck, token and
building names) are the engine's terms and the board's own messages (ids ``board.``,
their French in ``endeavor/locale/fr/parts/board.po``), put into words for the locale
asked."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ... import data as D
from ...exploits.jesuit_missionaries import JesuitMissionaries
from ...messages import COMMA, SEMICOLON, Count, Items, Term, catalog, define, msg
from ...rules.module import M_FORTIFIED, M_MISSIONARY, M_NO_ATTACK, M_PIRATE
from ...rules.words import icon_letters, icons_label
from ...state import State

if TYPE_CHECKING:
    pass


JSON = dict[str, Any]


_KIND_WORDS: Final = ("Ship", "Occupy", "Attack", "Payment", "Draw")

#: the board's own words (their French in ``endeavor/locale/fr/parts/board.po``)
ICON: Final = define("board.icon", "{name} {n}")
NOTHING: Final = define("board.nothing", "nothing")
DOES_ONE: Final = define("board.does.one", "{kind} action")
DOES_OR: Final = define("board.does.or", "{a} or {b}")
DOES_BOTH: Final = define("board.does.both", "{a} + {b}")
DOES_NONE: Final = define("board.does.none", "no action")


def short_icons(icons: tuple[int, int, int, int], glory: int, locale: str = "en") -> str:
    """``(0, 2, 0, 1)``, glory 1 -> ``"C2 N1 G1"``, with the icons' letters of ``locale``
    (French: ``R`` for Richesse)."""
    return icons_label(icons, glory, icon_letters(locale))


def term_words(kind: str, words: str, locale: str = "en") -> str:
    """A term of the game (``kind``: ``building``, ``token``, ``deck``...) in ``locale``:
    its English ``words`` as they are, else the catalog's."""
    if locale == "en":
        return words
    return catalog(locale).pgettext(kind, words)


def _owner(state: State, p: int) -> int | None:
    """A disc owner as JSON: the seat, a neutral colour's owner number, or None."""
    return p if p >= 0 else None


def _attribute_names(state: State, locale: str = "en") -> tuple[str, ...]:
    """The four attribute names of the ruleset (2009: Finance, Politics) in ``locale``."""
    return tuple(term_words("token", n, locale) for n in state.rules.token_names[:4])


def _token(state: State, t: int, locale: str = "en") -> JSON | None:
    """A Trade token type as JSON (None for -1): code, name in the ruleset's words (in
    ``locale``), and whether it is a brown (attribute) or blue (action) token."""
    if t < 0:
        return None
    cache = _per_rules(state, locale)
    entry: JSON | None = cache.get(("token", t))
    if entry is None:
        entry = cache.setdefault(("token", t), {
            "kind": D.TOKEN_CODES[t],
            "name": term_words("token", state.rules.token_names[t], locale),
            "colour": "brown" if t < 4 else "blue"})
    return dict(entry)  # a fresh copy: callers add to it


def _icons_words(state: State, icons: tuple[int, int, int, int], glory: int,
                 locale: str = "en") -> str:
    """``(0, 2, 0, 1)``, glory 1 -> ``"Culture 2, Influence 1, 1 glory"`` (in
    ``locale``; empty for nothing)."""
    names = state.rules.token_names
    parts: list[Any] = [msg(ICON, name=Term("token", names[k]), n=str(icons[k]))
                        for k in range(4) if icons[k]]
    if glory:
        parts.append(Count(glory, "glory"))
    if not parts:
        return ""
    return msg(ICON_LIST, items=Items(tuple(parts), COMMA)).render(locale)


#: a list of icons said as one message
ICON_LIST: Final = define("board.icons", "{items}")


def _per_rules(state: State, locale: str = "en") -> dict[Any, Any]:
    """A cache of what depends only on the ruleset's tables (``state.rules``: one object
    shared by every game of a ruleset) and the locale of the words: cards and buildings
    in JSON, each built once per (ruleset, locale), so that languages never mix."""
    key = (state.rules, locale)
    cache = _RULES_CACHE.get(key)
    if cache is None:
        cache = _RULES_CACHE.setdefault(key, {})
    return cache


#: (``state.rules``, locale) -> its cache (a handful of rulesets and two locales: kept
#: for the process's life)
_RULES_CACHE: dict[Any, dict[Any, Any]] = {}


def _per_board(state: State) -> dict[Any, Any]:
    """A cache of what depends only on the board side's tables (``state.info``, shared
    by every game on that side): the cities of each region, the links' ends."""
    cache = _BOARD_CACHE.get(state.info)
    if cache is None:
        cache = _BOARD_CACHE.setdefault(state.info, {})
    return cache


#: ``state.info`` -> its cache (a handful of board sides: kept for the process's life)
_BOARD_CACHE: dict[Any, dict[Any, Any]] = {}


def clear_caches() -> None:
    """Forget the per-ruleset and per-board caches (the next view builds them afresh)."""
    _RULES_CACHE.clear()
    _BOARD_CACHE.clear()


def card_json(state: State, c: int, locale: str = "en") -> JSON:
    """An Asset card (or Governor): code, deck, value, icons, glory, what it gives (its
    words in ``locale``)."""
    cache = _per_rules(state, locale)
    entry: JSON | None = cache.get(("card", c))
    if entry is None:
        entry = cache.setdefault(("card", c), _card_json(state, c, locale))
    # a fresh copy: callers add to it (an ``id``), and nobody shares the icons
    out = dict(entry)
    out["icons"] = dict(entry["icons"])
    return out


def _card_json(state: State, c: int, locale: str = "en") -> JSON:
    card = state.rules.cards[c]
    names = _attribute_names(state)  # the icons' keys: English whatever the locale
    return {
        "code": card.code, "deck": D.DECK_CODES[card.deck],
        "deck_name": term_words("deck", D.DECK_NAMES[card.deck], locale),
        "value": None if card.governor else card.value,
        "governor": card.governor, "slavery": card.deck == D.SLAVERY_DECK,
        "abolition": card.abolition,
        "icons": {names[k].lower(): card.icons[k] for k in range(4)},
        "glory": card.glory, "short": short_icons(card.icons, card.glory, locale),
        "gives": _icons_words(state, card.icons, card.glory, locale)
        or msg(NOTHING).render(locale),
        "bonus_disc": bool(state.rules.card_bonus[c]),
    }


def building_does(state: State, b: int, locale: str = "en") -> str:
    """What a building does, in words (in ``locale``): its action(s) and the icons and
    glory it gives."""
    bd = state.rules.buildings[b]
    parts: list[Any] = []
    if bd.kind1 >= 0:
        k1 = Term("action", _KIND_WORDS[bd.kind1])
        if bd.kind2 < 0:
            parts.append(msg(DOES_ONE, kind=k1))
        else:
            k2 = Term("action", _KIND_WORDS[bd.kind2])
            parts.append(msg(DOES_OR if bd.mode == D.CHOICE else DOES_BOTH, a=k1, b=k2))
    gives = _icons_words(state, bd.icons, bd.glory, locale)
    if gives:
        parts.append(gives)
    if not parts:
        return msg(DOES_NONE).render(locale)
    return msg(ICON_LIST, items=Items(tuple(parts), SEMICOLON)).render(locale)


def _building(state: State, b: int, locale: str = "en") -> JSON:
    cache = _per_rules(state, locale)
    entry: JSON | None = cache.get(("building", b))
    if entry is None:
        bd = state.rules.buildings[b]
        entry = cache.setdefault(("building", b), {
            "code": bd.code, "name": term_words("building", bd.name, locale),
            "level": bd.level, "activatable": bd.activatable,
            "does": building_does(state, b, locale),
            "icons": short_icons(bd.icons, bd.glory, locale)})
    return dict(entry)  # a fresh copy: callers add to it


def _next_level_at(score: int) -> int | None:
    """The track score at which the level next goes up (None at level 5)."""
    try:
        return _NEXT_LEVEL[score]
    except KeyError:
        pass
    return _NEXT_LEVEL.setdefault(score, _find_next_level(score))


#: score -> :func:`_next_level_at` (a pure function of the score)
_NEXT_LEVEL: dict[int, int | None] = {}


def _find_next_level(score: int) -> int | None:
    level = D.track_level(score)
    for s in range(score + 1, len(D.TRACK_LEVEL)):
        if D.TRACK_LEVEL[s] > level:
            return s
    return None


def _next_glory_at(state: State, score: int) -> int | None:
    """The next track score with more end-game glory than ``score`` (None at the top of
    a capped track)."""
    cap = state.rules.track_cap
    try:
        return _NEXT_GLORY[cap, score]
    except KeyError:
        pass
    return _NEXT_GLORY.setdefault((cap, score), _find_next_glory(cap, score))


#: (track cap, score) -> :func:`_next_glory_at` (a pure function of them)
_NEXT_GLORY: dict[tuple[int, int], int | None] = {}


def _find_next_glory(cap: int, score: int) -> int | None:
    here = D.track_glory(min(score, cap))
    s = score + 1
    while s <= min(cap, 40):
        if D.track_glory(s) > here:
            return s
        s += 1
    return None


# =========================================================================== the board
def missionary_counts(state: State) -> dict[int, int]:
    """Site -> how many Missionaries (Jesuit Missionaries) are in that city (P35)."""
    out: dict[int, int] = {}
    for i, m in enumerate(state.modules):
        if isinstance(m, JesuitMissionaries):
            for x in m.placed(state, i):
                out[x] = out.get(x, 0) + 1
    return out


def _attack_discs(state: State, s: int, owner: int, mark: int) -> list[int | None] | None:
    """Per seat, the Harbor discs an Attack on site ``s`` takes (its casualties, 2 on a
    fortified city and fewer under Imperialism, plus the disc that takes the place; None
    for the holder); None when nobody holds it or it may never be Attacked (a Missionary,
    the Pirate)."""
    if owner < 0 or mark & M_NO_ATTACK:
        return None
    if not mark and not state.rules.h_attack_cost:  # the usual 1 casualty + 1 disc
        return [None if p == owner else 2 for p in range(state.n)]
    return [None if p == owner else 1 + state.attack_cost(p, s) for p in range(state.n)]


def _site(state: State, s: int, missionaries: dict[int, int] | None = None,
          locale: str = "en") -> JSON:
    """A city or trade route: who holds it, its token, the Exploits' pieces on it
    (a Fortification, Missionaries, the Pirate) and what an Attack on it takes."""
    static = _SITE_STATIC.get(s)
    if static is None:
        site = D.SITES[s]
        kind = "city" if site.city else "route"
        static = _SITE_STATIC.setdefault(s, (f"{kind}:{site.code}", site.code, site.name,
                                             kind, site.glory, site.code in D.TILE_SITES))
    owner = state.site_owner[s]
    mark = state.site_marks[s]
    if missionaries is None:
        missionaries = missionary_counts(state) if mark & M_MISSIONARY else {}
    return {"id": static[0], "code": static[1], "name": static[2], "kind": static[3],
            "glory": static[4], "tile": static[5], "owner": owner if owner >= 0 else None,
            "token": _token(state, state.site_token[s], locale),
            "fortified": bool(mark & M_FORTIFIED), "missionaries": missionaries.get(s, 0),
            "pirate": bool(mark & M_PIRATE),
            "attack_discs": _attack_discs(state, s, owner, mark)}


#: site -> what its JSON always holds (id, code, name, kind, glory, tile)
_SITE_STATIC: dict[int, tuple[str, str, str, str, int, bool]] = {}


def _deck(state: State, d: int, locale: str = "en") -> JSON:
    deck = state.decks[d]
    return {"id": f"deck:{D.DECK_CODES[d]}", "code": D.DECK_CODES[d],
            "name": term_words("deck", D.DECK_NAMES[d], locale), "size": len(deck),
            "top": card_json(state, deck[-1], locale) if deck else None}


def _governor(state: State, r: int, held: list[list[int]] | None = None,
              locale: str = "en") -> JSON | None:
    """The region's Governor card: beside its deck (and who would win it now), held by a
    player, or out of the game."""
    g = state.rules.governors[r]
    if g < 0:
        return None
    holder: int | None = None
    if held is None:
        held = [state.held_cards(p) for p in range(state.n)]
    for p in range(state.n):
        if g in held[p]:
            holder = p
    if state.region_governors[r] >= 0:
        where = "board"
    elif holder is not None:
        where = "player"
    else:
        where = "gone"
    winner = state.governor_winner(r) if where == "board" else -1
    return {"card": card_json(state, g, locale), "where": where, "holder": holder,
            "winner": winner if winner >= 0 else None}
