"""The ratings' words (web/ratings): the errors of rated games, the ruleset families'
and the bot levels' names, why a game was left unrated. Declared here, with no web
library imported, so the catalogs extract them (French in
``endeavor/locale/fr/parts/web.po``)."""

from __future__ import annotations

from typing import Final

from ...messages import define, msg

#: a guest's move in a rated game (403)
SIGN_IN_TO_MOVE: Final = define(
    "web.rated.sign_in", "This is a rated game: sign in and claim your seat with your "
    "account before you move")
#: a rated game asked for without an account (401)
NEEDS_ACCOUNT: Final = define(
    "web.rated.needs_account", "A rated game needs an account: sign in first")
#: a rated game with hot-seat seats (400)
NO_HOTSEAT: Final = define(
    "web.rated.no_hotseat", "A rated game has no hot-seat seats: each person plays their "
    "own seat, claimed with their account")
#: a rated game of bots alone (400)
NEEDS_PERSON: Final = define(
    "web.rated.needs_person", "A rated game needs at least one person's seat")
#: a bot that is not a level in a rated game (400)
LEVELS_ONLY: Final = define(
    "web.rated.levels_only", "The bots of a rated game are levels: easy, medium, hard "
    "or expert")
#: an unknown ruleset family (404)
NO_FAMILY: Final = define(
    "web.rated.no_family", "No ruleset family called {family}: choose from {families}")
#: an unknown player (404)
NO_PLAYER: Final = define("web.rated.no_player", "no player called '{name}'")

#: why a rated game was left unrated (the game view's ``ratings.reason``)
HOST_ENDED: Final = define(
    "web.rated.host_ended", "The host ended the game before its end: it is not rated")
UNCLAIMED: Final = define(
    "web.rated.unclaimed", "Seats not claimed by an account at the end ({seats}): the "
    "game is not rated")
TOO_FEW: Final = define(
    "web.rated.too_few", "Fewer than two players were left to rate (accounts deleted "
    "during the game): the game is not rated")

#: the ruleset families' names
FAMILY_NAMES: Final = {
    "age-of-sail": define("web.rated.family.age_of_sail", "Age of Sail"),
    "classic": define("web.rated.family.classic", "The 2009 game"),
    "silent-fleet": define("web.rated.family.silent_fleet", "The Silent Fleet"),
}
#: the bot levels' names on the leaderboard
LEVEL_NAMES: Final = {
    "easy": define("web.rated.level.easy", "Easy bot"),
    "medium": define("web.rated.level.medium", "Medium bot"),
    "hard": define("web.rated.level.hard", "Hard bot"),
    "expert": define("web.rated.level.expert", "Expert bot"),
}


def say(id: str, locale: str, **args: object) -> str:
    """Message ``id`` in ``locale``."""
    return msg(id, **args).render(locale)
