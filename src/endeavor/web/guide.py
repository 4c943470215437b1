"""The rules in the app: each Exploit's rule and Shield in plain words (their texts are
in :mod:`.exploit_texts`, and kept here under the same names), and the tables of the
"How to play" page (``GET /api/guide``), built from the rulesets' own data.

The buildings by level, the status-track table and the card limits are never typed here:
:func:`guide` reads them from each ruleset class (:data:`endeavor.rules.RULESETS`) and
:mod:`endeavor.data`, so the page shows what the engine plays. Pure functions, no web
framework.
"""

from __future__ import annotations

from typing import Any, Final

from .. import data as D
from ..exploits import EXPLOIT_IDS, REGISTRY
from ..messages import Count, Term, catalog, define, msg
from ..rules import RULESETS
from ..rules.base import Rules
from .exploit_texts import EXPLOITS, ExploitText, exploit_paragraphs, exploit_rule, shield_text

__all__ = ["EXPLOITS", "SHIELDS", "BUILDING_NOTES", "ExploitText", "exploit_paragraphs",
           "exploit_rule", "exploits", "guide", "ruleset_guide", "shield_text", "tracks"]

JSON = dict[str, Any]


#: what Shields are, in a few words (the new-game form, the How to play page)
SHIELDS: Final = (
    "Each Exploit belongs to two regions and sleeps until both are open. From then on "
    "every player with presence in both regions (a disc on a city, trade route, "
    "shipping track or open sea there) holds a Shield on it: only Shield holders may use "
    "its abilities, each in place of the usual action of the kind it names, and only "
    "they score it at the end. Gain presence in both later and you get the Shield; lose "
    "all presence in either region and it comes off until you are back (P13).")

# --------------------------------------------------------------------------- the tables
_KIND_WORDS: Final = D.KIND_NAMES

#: the How to play page's words for a building's actions and what it gives (a reader's
#: language: :mod:`endeavor.messages`, the French in ``locale/fr/parts/guide.po``)
_NO_ACTION: Final = define("guide.no_action", "no action")
_EITHER: Final = define("guide.either", "{first} or {second}")
_BOTH: Final = define("guide.both", "{first} + {second} (one or both)")
_PLUS: Final = define("guide.plus", "+{n} {token}")
#: what Shields are (:data:`SHIELDS`) as a message, for a reader's language
_SHIELDS: Final = define("guide.shields", SHIELDS)
_GLORY: Final = define("guide.glory", "{glory}")

#: rule words a building's icons and actions do not say, per ruleset id (the level-5
#: powers, the Payment restrictions): message ids, declared below
BUILDING_NOTES: Final[dict[str, dict[str, str]]] = {
    rid: {code: define(f"guide.note.{rid}.{code.replace('-', '_')}", text)
          for code, text in notes.items()}
    for rid, notes in {
        "age_of_sail": {
            "memorial": "From the moment you build it, each casualty you suffer, attacking or "
                        "attacked, may go to the base of any attribute track as a token of "
                        "that attribute (P7).",
            "town-hall": "End of game: 1 glory per Draw symbol on your buildings, its own "
                         "included (P10).",
            "exchange": "No-payment symbol: its worker is paid only in the Salary phase "
                        "(R15).",
            "museum": "No-payment symbol: its worker is paid only in the Salary phase (R15).",
            "parliament": "No-payment symbol: its worker is paid only in the Salary phase "
                          "(R15).",
            "merchant-dock": "Start tile (the other side of the Colonial House).",
            "colonial-house": "Start tile: recommended for a first game.",
        },
        "classic": {
            "exchange": "Its Payment may not free its own worker (P74).",
            "museum": "Its Payment may not free its own worker (P74).",
            "parliament": "Its Payment may not free its own worker (P74).",
            "colonial-house": "Printed on every player's mat.",
        },
    }.items()
}


def _term(kind: str, words: str, locale: str) -> str:
    """A word of the game (a building, an action, a token, a region) in ``locale``."""
    return catalog(locale).pgettext(kind, words)


def _region(r: int, locale: str) -> str:
    """A region's name standing alone in a list: ``"Caribbean"``; ``"Les Caraïbes"``."""
    if locale == "en":
        return D.REGION_NAMES[r]
    noun = D.REGION_NOUNS[r]
    return _term("region_start", noun[0].upper() + noun[1:], locale)


def _does(rules: type[Rules], bd: D.Building, locale: str = "en") -> str:
    if bd.kind1 < 0:
        return msg(_NO_ACTION).render(locale)
    k1 = Term("action", _KIND_WORDS[bd.kind1])
    if bd.kind2 < 0:
        return _term("action", _KIND_WORDS[bd.kind1], locale)
    k2 = Term("action", _KIND_WORDS[bd.kind2])
    return msg(_EITHER if bd.mode == D.CHOICE else _BOTH, first=k1, second=k2).render(locale)


def _gives(rules: type[Rules], bd: D.Building, locale: str = "en") -> str:
    names = rules.token_names
    parts = [msg(_PLUS, n=bd.icons[k], token=Term("token", names[k])).render(locale)
             for k in range(4) if bd.icons[k]]
    if bd.glory:
        parts.append(msg(_GLORY, glory=Count(bd.glory, "glory")).render(locale))
    return ", ".join(parts)



def _building(rid: str, rules: type[Rules], b: int, locale: str = "en") -> JSON:
    bd = rules.buildings[b]
    note = BUILDING_NOTES.get(rid, {}).get(bd.code)
    return {"code": bd.code, "name": _term("building", bd.name, locale), "level": bd.level,
            "copies": bd.copies, "does": _does(rules, bd, locale),
            "gives": _gives(rules, bd, locale),
            "note": msg(note).render(locale) if note else ""}


def _start_buildings(rules: type[Rules]) -> tuple[int, ...]:
    if rules.start_buildings:
        return rules.start_buildings
    return (D.CLASSIC_START_BUILDING,)  # R3: printed on the 2009 mat


def ruleset_guide(rid: str, locale: str = "en") -> JSON:
    """One ruleset's numbers for the How to play page: buildings by level (the start
    tiles as level 0), the level-5 pool, player counts, rounds, discs, attribute names
    (the words in ``locale``)."""
    rules = RULESETS[rid]
    levels: dict[int, list[JSON]] = {}
    for b in rules.base_supply + rules.level5_pool:
        entry = _building(rid, rules, b, locale)
        levels.setdefault(entry["level"], []).append(entry)
    return {
        "id": rid, "title": rules.title, "players": list(rules.player_counts),
        "rounds": rules.rounds, "discs": rules.discs, "max_cards": rules.max_cards,
        "attributes": [_term("token", name, locale) for name in rules.token_names[:4]],
        "track_cap": rules.track_cap if rules.track_cap < 100 else None,
        "start": [_building(rid, rules, b, locale) for b in _start_buildings(rules)],
        "levels": [{"level": lv, "buildings": levels[lv]} for lv in sorted(levels)],
        "level5_pool": len(rules.level5_pool),
        "level5_available": rules.level5_available,
    }


def tracks() -> list[JSON]:
    """The status tracks, score 0-15: the level (Build Level, Salary, Card Limit), the
    discs of the Growth phase and the end-game glory of a marker there."""
    return [{"score": s, "level": D.track_level(s), "growth": D.growth_level(s),
             "glory": D.track_glory(s)} for s in range(len(D.TRACK_LEVEL))]


def exploits(locale: str = "en") -> list[JSON]:
    """The 15 Exploits in tile order with their regions, rule and Shield (the names and
    regions in ``locale``)."""
    return [{"id": e, "number": REGISTRY[e].number,
             "name": _term("exploit", REGISTRY[e].name, locale),
             "regions": [_region(r, locale) for r in REGISTRY[e].regions],
             "rule": exploit_rule(e, locale), "paragraphs": exploit_paragraphs(e, locale),
             "shield": shield_text(e, locale)} for e in EXPLOIT_IDS]


def guide(locale: str = "en") -> JSON:
    """``GET /api/guide``: what the How to play page draws from the engine's data, its
    words in ``locale``."""
    return {"rulesets": [ruleset_guide(rid, locale) for rid in RULESETS],
            "tracks": tracks(), "shields": msg(_SHIELDS).render(locale),
            "exploits": exploits(locale)}
