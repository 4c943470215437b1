"""Names for the ints of the game (type aliases of ``int``).

The engine keeps the game in ints and lists of ints (fast to copy, to compare and to
compile); these aliases say in a signature which kind of int a parameter or a result
is. They are ``int`` to the type checker and at run time: an alias documents, it does
not convert or check.
"""

from __future__ import annotations

from typing import TypeAlias

#: a seat, ``0 .. n-1`` in turn order from the first player
PlayerId: TypeAlias = int
#: whose disc: a seat, or after the seats (``n ..``) a neutral colour of a rule module
OwnerId: TypeAlias = int
#: a region, ``data.EUROPE`` (0) .. ``data.FAR_EAST`` (6)
RegionId: TypeAlias = int
#: a site (a city or a trade route): an index of ``data.SITES``
SiteId: TypeAlias = int
#: a connection between two sites: an index of the board's ``links``
LinkId: TypeAlias = int
#: a card: an index of ``data.CARDS``
CardId: TypeAlias = int
#: a building: an index of ``data.BUILDINGS``
BuildingId: TypeAlias = int
#: a deck: ``data.EU_DECK`` (0), a region's (1-6), ``data.SLAVERY_DECK`` (7)
DeckId: TypeAlias = int
#: a trade token's type: ``data.T_INDUSTRY`` (0) .. ``data.T_ATTACK`` (7)
TokenType: TypeAlias = int
#: an attribute: ``data.INDUSTRY``, ``CULTURE``, ``WEALTH`` or ``INFLUENCE``
AttributeId: TypeAlias = int
#: an action kind: ``data.SHIP``, ``OCCUPY``, ``ATTACK``, ``PAYMENT`` or ``DRAW``
KindId: TypeAlias = int
#: a rule module (Exploit or variant module): its index in ``State.modules``
ModuleIndex: TypeAlias = int
#: an action's code (``Action.code``: verb and argument)
ActionCode: TypeAlias = int

__all__ = [
    "ActionCode", "AttributeId", "BuildingId", "CardId", "DeckId", "KindId", "LinkId",
    "ModuleIndex", "OwnerId", "PlayerId", "RegionId", "SiteId", "TokenType",
]
