"""The rules in the app: each Exploit's rule and Shield in plain words, and the tables of
the "How to play" page (``GET /api/guide``), built from the rulesets' own data.

The Exploit texts are written for this project from the Exploits rulebook
(``age-of-sail-exploits.en.txt``), checked against each module of
:mod:`endeavor.exploits` and citing the rulings (``R…`` shared, ``P…`` in
``docs/rulings.md``) where the project decided something. They are keyed by the Exploit
module id (:data:`endeavor.exploits.EXPLOIT_IDS`); ``tests/web/test_guide.py`` checks that
all 15 are here, that each names the action kinds its abilities answer (the module's
``kinds``) and its two regions, and that every ruling cited exists.

The buildings by level, the status-track table and the card limits are never typed here:
:func:`guide` reads them from each ruleset class (:data:`endeavor.rules.RULESETS`) and
:mod:`endeavor.data`, so the page shows what the engine plays. Pure functions, no web
framework.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from .. import data as D
from ..exploits import EXPLOIT_IDS, REGISTRY
from ..messages import Count, Term, catalog, define, msg
from ..rules import RULESETS
from ..rules.base import Rules

JSON = dict[str, Any]


class ExploitText(NamedTuple):
    #: the tile's whole rule: setup, abilities (by the action that triggers them),
    #: lasting effects and the end-game scoring; paragraphs end with a newline
    rule: str
    #: what only this Exploit's Shield changes (added to the common Shield words)
    shield_note: str = ""


#: what Shields are, in a few words (the new-game form, the How to play page)
SHIELDS: Final = (
    "Each Exploit belongs to two regions and sleeps until both are open. From then on "
    "every player with presence in both regions (a disc on a city, trade route, "
    "shipping track or open sea there) holds a Shield on it: only Shield holders may use "
    "its abilities, each in place of the usual action of the kind it names, and only "
    "they score it at the end. Gain presence in both later and you get the Shield; lose "
    "all presence in either region and it comes off until you are back (P13).")

EXPLOITS: Final[dict[str, ExploitText]] = {
    "saltpeter_stockpiles": ExploitText(
        "Attack action: make a normal Attack, but one casualty goes through this tile. "
        "With no disc of yours on the tile, that casualty is stored here instead of going "
        "back to your supply; with one here already, that stored disc is spent as the "
        "casualty, so the Attack takes one disc less from your Harbor (offered only when "
        "the Attack costs a casualty, P21).\n"
        "Draw action: spend an Industry Trade token from your mat to take one of the 6 "
        "Improved Cannons into your Harbor.\n"
        "An Improved Cannon is like a disc that can only activate a building showing an "
        "Attack (Barracks, Fortress, Memorial); the building then works exactly as with a "
        "disc, either of its actions and Exploit abilities included. A cannon is never a "
        "worker to pay: it comes back to your Harbor by itself in the Salary phase (R7).\n"
        "End of game: 1 glory per Improved Cannon you own; with at least one, 1 more per "
        "Attack symbol on your buildings and per unused blue Attack token (P22).",
        "Improved Cannons you already hold keep activating buildings without the Shield "
        "(P20); their glory needs it."),
    "republic_of_pirates": ExploitText(
        "The Pirate starts on the tile's Nassau space.\n"
        "Ship action: put a disc from your Harbor on Nassau; a disc already there "
        "(anyone's, yours too) moves into the Pirate's city (P31). Then move the Pirate to "
        "another unfortified city of North America or the Caribbean: a disc there goes "
        "back to its owner's supply and the city's Trade token is discarded (P30).\n"
        "Nobody may Occupy or Attack the city the Pirate is in.\n"
        "Attack action: discard a Governor card you hold (its symbols are lost), put a "
        "Harbor disc on Nassau (a disc already there moves into the Pirate's city), remove "
        "the Pirate from the game and put a second Harbor disc on the Nassau Governor "
        "space; there is no casualty (P32). From then on the tile can no longer be used.\n"
        "End of game: 1 glory if you hold Nassau, and 3 more if you also hold the Nassau "
        "Governor space."),
    "imperialism": ExploitText(
        "At setup a Blockade covers each of the 9 links that touch a city in India or the "
        "Far East, on top of the link's Trade token (P23). A Blockaded link can't be "
        "claimed, controlled or used in any way, even before the Exploit wakes.\n"
        "While it is active, an Attack on an India or Far East city costs no casualty "
        "if the attacker holds a city joined to the target by a link without a Blockade "
        "(P24, P29).\n"
        "Ship action: ship a disc to the open sea of India or the Far East, then you may "
        "make a normal Attack in that same region (P16).\n"
        "Attack action: take the Blockade off any link and keep it, with the Trade token "
        "it covered (P25).\n"
        "End of game: 1 glory per link you control that touches a city in India or the "
        "Far East, and 1 per Blockade you hold.",
        "The Blockades and the Attack without casualty apply to every player, Shield or "
        "not (P23, P24)."),
    "spanish_main": ExploitText(
        "Attack action: Fortify a city you control in North or South America by putting "
        "one of the tile's 8 Fortifications under your disc. Attacking a fortified city "
        "costs 2 casualties instead of 1, and its Fortification goes back to the tile.\n"
        "Ship action, at most once per round: one Payment action for each fortified city "
        "you control in North and South America (P18).\n"
        "End of game: each fortified city you control there scores its glory (1 or 2) a "
        "second time.",
        "A Fortification protects its city against every attacker, Shield or not."),
    "dutch_east_india_company": ExploitText(
        "The tile adds two cities, Batavia (Far East, 2 glory) and Cape Town (Africa, 1 "
        "glory), joined by a link worth 1 glory. They are normal cities of their regions "
        "for every purpose, but only this tile's abilities can occupy or attack them.\n"
        "Draw action: return one of your buildings that has no worker (not your start "
        "tile) to the supply and take a different building of any level up to one higher; "
        "spend an Industry Trade token to go up to two levels higher. Your Build Level "
        "does not limit it, and you may still hold only one level-5 building (P33).\n"
        "Occupy action: occupy Batavia or Cape Town if it is empty.\n"
        "Attack action: attack Batavia or Cape Town held by an opponent (a normal Attack), "
        "or Fortify the one you hold with one of the tile's 2 Fortifications: attacking it "
        "then costs 2 casualties.\n"
        "End of game: the two cities and their link score like any others; besides, "
        "fortified Cape Town gives its holder 1 glory per 4 Build Level symbols on their "
        "buildings (a building has as many as its level), and fortified Batavia 1 glory per "
        "Ship symbol on their buildings and unused blue Ship/Draw tokens (P34).",
        "Batavia, Cape Town and their link score for whoever holds them, Shield or not."),
    "jesuit_missionaries": ExploitText(
        "Ship action: spend an Influence Trade token to send one of the tile's 5 "
        "Missionaries to any unoccupied city, in any region, open or closed, with or "
        "without your presence (never the Pirate's city), and occupy it at once with a "
        "Harbor disc, taking its Trade token (P35).\n"
        "Occupy action: move any Missionary, from the tile or from any city, to a city you "
        "control; after the move, paying a Culture Trade token brings 2 discs from your "
        "supply to your Harbor (P36).\n"
        "A city holding a Missionary can never be Attacked; several may share a city.\n"
        "End of game: 1 glory per city you control that holds a Missionary.",
        "A Missionary protects its city against every attacker, Shield or not."),
    "south_sea_company": ExploitText(
        "Ship action: put a Harbor disc on the next space of the 7-space Investment Track. "
        "When that space shows a Share, the owner of the disc on the space before it takes "
        "a Share of their choice and either discards it at once for its top bonus or keeps "
        "it for its lasting bottom bonus (P40). The Shares: two of 'gain 1 disc / 1 glory "
        "at the end', two of 'one Payment now / 1 glory at the end', one of 'gain 2 discs / "
        "+1 Build Level in every Construction phase'.\n"
        "The disc that fills the last space bursts the bubble: every disc on the tile goes "
        "back to its owner's supply, every kept Share is discarded, and the tile can no "
        "longer be used.\n"
        "End of game: 2 glory per disc of yours on the tile, plus your kept glory Shares.",
        "A Share goes to the owner of the disc it points to even without a Shield, and a "
        "kept Build Level Share works without it; glory Shares score only with it (P40, "
        "P41)."),
    "manila_galleons": ExploitText(
        "At setup every player has one disc in Manila, on the tile.\n"
        "Ship action: move one of your discs from Manila, or from any open sea, to the "
        "open sea of another open region. From the Far East (or Manila) to North America: "
        "take one of the 8 Galleon tokens. Into the Far East from North America (or "
        "Manila): exchange as many as 2 Trade tokens of your mat for the same number of "
        "Trade tokens anywhere on the board, if you wish (P43).\n"
        "In every Salary phase, after your workers are paid, each Galleon you hold pays "
        "one more worker or gains you 1 disc; it is never used up (P42).\n"
        "End of game: 2 glory per Galleon you hold.",
        "Galleons you hold work in the Salary phase without the Shield; their glory needs "
        "it (P41)."),
    "underground_railroad": ExploitText(
        "Draw action: the Slavery deck's top card leaves the game, and you gain 2 discs "
        "from your supply.\n"
        "Occupy action: put a Harbor disc on the next of the Railroad's 5 spaces, if your "
        "score meets that space's mark (Industry 7, Culture 7, Wealth 7, Influence 7, "
        "Influence 10), and take a Freedom token of your choice: +1 in that attribute (it "
        "is not a Trade token: it can't be spent or taken, P52). Filling the last space "
        "abolishes Slavery (R17).\n"
        "End of game: the glory printed on your spaces, 1 per glory link between two of "
        "your spaces, and, if Slavery was abolished and you have a disc on the Railroad, 1 "
        "glory per 2 discs on your buildings and in your Harbor together (P53).",
        "Freedom tokens keep their +1 without the Shield (P41)."),
    "transit_of_venus": ExploitText(
        "Ship or Occupy action, as the symbol of the space says: put a Harbor disc on the "
        "next empty space of the South Pacific map (Cape Horn, Tuamotu, Tahiti, then on "
        "either branch, New Zealand or Australia) and take a Transit token of your choice: "
        "an attribute token is +1 in that attribute, a Glory token 1 glory at the end "
        "(P46).\n"
        "Draw action: put a Wealth Trade token from your mat on a free spot of the "
        "Financier track and take its reward: 3 discs, 2 discs, or 2 Payment actions "
        "(P44).\n"
        "End of game: the glory of your map spaces, 1 per glory link between two of your "
        "spaces, 1 per Glory Transit token, and, once Tahiti has been reached, whoever has "
        "the most discs on the map (ties included) scores 1 per Wealth token on the "
        "Financier track (P45).",
        "Attribute Transit tokens keep their +1 without the Shield (P41); the most discs "
        "on the map is counted among Shield holders only (P45)."),
    "sun_never_sets": ExploitText(
        "Ship action: put a Harbor disc on the tile, then you may Occupy in any open "
        "region (no presence needed) or Ship to any region; Europe is not a region for "
        "this (P54).\n"
        "Each of your discs on the tile counts as 1 more presence in every region for Draw "
        "actions only: the region decks, not the Europe or Slavery decks (P14).\n"
        "End of game: with a disc on the tile, glory by how many regions (not Europe) you "
        "control a city in: 2 regions 1, 3 regions 2, 4 regions 4, 5 regions 6, 6 regions 8 "
        "(P55).",
        "The extra Draw presence counts only while you hold the Shield (P50)."),
    "spice_trade": ExploitText(
        "Ship action: put a Harbor disc in the open sea of Africa, of India or of the Far "
        "East (the Far East even while it is closed), then draw the top card of that region's "
        "deck at once if your presence there meets its Draw Value (P51).\n"
        "Ship action, the other way: move any number of your discs from those three open "
        "seas to the base of your Wealth and/or Influence tracks; each is +1 there, like a "
        "token that can never be spent or taken (P56).\n"
        "End of game: for each of Africa, India and the Far East where you have a disc in "
        "the open sea, 1 glory per disc of yours on that region's shipping track.",
        "Moving your last discs out of Africa or India may cost you the Shield (P56)."),
    "globalisation": ExploitText(
        "Attack action: make a normal Attack in an open region other than Europe where you "
        "have presence, then draw the top card of that region's deck at once if your "
        "presence there meets its Draw Value (P62).\n"
        "Ship action: swap a card you hold for a card of the same or a lower Draw Value "
        "anywhere in a region deck; spend an Influence Trade token to take a card exactly "
        "one value higher instead. Your card takes the other's place in that deck and is "
        "drawn later with that region's presence; Governors are never swapped (P60, P61).\n"
        "End of game: glory by how many regions (not Europe or Slavery) the cards you hold "
        "come from, Governors included: 2 regions 1, 3 regions 2, 4 regions 4, 5 regions "
        "6, 6 regions 8 (P64)."),
    "letters_of_marque": ExploitText(
        "Attack action: push an opponent's disc off any shipping track into that region's "
        "open sea and put a Harbor disc in its place (no token; a Governor already given "
        "stays given). If that opponent has not passed this round, you may also take one "
        "of their brown Trade tokens (P26).\n"
        "Ship action: bring any number of your discs back from open seas anywhere to your "
        "Harbor (P28).\n"
        "End of game, each of the six shipping tracks on its own: alone on it 3 glory, "
        "first but not alone 2, second 1; a tie goes to the disc closest to the deck "
        "(P27).",
        "At the end only Shield holders' discs count on the tracks (P27); bringing your "
        "last discs home from a region may cost you the Shield (P28)."),
    "haitian_revolution": ExploitText(
        "Occupy action: take the top card of any deck (Europe, a region or Slavery; not "
        "the discard pile), whatever its Draw Value and your presence, and stack it on the "
        "tile; then you may make a normal Draw (P65). Stacking the Europe 5 card abolishes "
        "nothing, and a value-1 card stacked here gives no disc.\n"
        "Attack action: take any non-Slavery card from the tile; it is gained as if drawn "
        "(the Europe 5 card abolishes Slavery, R17; a region's value-1 card gives its "
        "disc).\n"
        "End of game, only once the Haitian Republic is formed (the stacked cards show 10 "
        "or more symbols, glory included, P66, or Slavery was abolished): each card you "
        "hold from a non-Slavery deck scores 1 glory per stacked card of the same deck, a "
        "Governor counting for its region (P67); each Slavery card you hold loses 1 glory "
        "per stacked Slavery card."),
}


def shield_text(exploit_id: str, locale: str = "en") -> str:
    """How this Exploit's Shields are earned and what they do (in ``locale``: see
    :mod:`.exploit_words`)."""
    if locale != "en":
        from .exploit_words import shield_text as in_locale
        return in_locale(exploit_id, locale)
    m = REGISTRY[exploit_id]
    a, b = (D.REGION_NOUNS[r] for r in m.regions)
    words = (f"Earned when {a} and {b} are both open, by every player with presence in "
             f"both; lost with all presence in either, regained with it (P13). Only Shield "
             f"holders use the abilities and score the tile.")
    note = EXPLOITS[exploit_id].shield_note
    return f"{words} {note}" if note else words


def exploit_paragraphs(exploit_id: str, locale: str = "en") -> list[str]:
    """The Exploit's rule in paragraphs: its setup, each ability, lasting effects, the
    end-game scoring (in ``locale``: see :mod:`endeavor.web.exploit_words`)."""
    if locale != "en":
        from .exploit_words import exploit_paragraphs as in_locale
        return in_locale(exploit_id, locale)
    return EXPLOITS[exploit_id].rule.split("\n")


def exploit_rule(exploit_id: str, locale: str = "en") -> str:
    """The Exploit's whole rule in plain words, one string (in ``locale``: see
    :mod:`.exploit_words`)."""
    if locale != "en":
        from .exploit_words import exploit_rule as in_locale
        return in_locale(exploit_id, locale)
    return " ".join(exploit_paragraphs(exploit_id))


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
