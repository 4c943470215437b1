"""Board mechanics shared by every rule: discs on sites, tracks and open seas, Trade
tokens, links, Governors and region openings, icons.

These functions are the only code that writes the board fields of a state and their
derived counters (``region_presence``, ``owned_sites``, ``occupied_sites``,
free cities / trade routes, filled track spaces), so the counters can never drift from
the discs. Rule areas and :mod:`endeavor.api` call them; nothing else writes those
fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .. import data as D
from ..data import REGION_STRIDE
from ..messages import Message, Seat, Term, define, msg
from .module import L_BLOCKADE
from .words import icons_message, owner_words, region_term

if TYPE_CHECKING:
    from ..state import Player, State

_SITE_REGION: Final = tuple(s.region for s in D.SITES)
_SITE_CITY: Final = tuple(s.city for s in D.SITES)
_SITE_TILE: Final = tuple(s.code in D.TILE_SITES for s in D.SITES)
_CARD_ICONS: Final = tuple(c.icons for c in D.CARDS)


# --------------------------------------------------------------------------- tokens, icons
def gain_token(s: State, pl: Player, t: int) -> None:
    """A Trade token joins a mat: brown at its track base (+1 there), blue in the Harbor."""
    pl.changed()
    if t < 4:
        pl.brown_tokens[t] += 1
        pl.attr[t] += 1
    else:
        pl.blue[t - 4] += 1


def gain_icons(pl: Player, icons: tuple[int, int, int, int], sign: int) -> None:
    """Tracks follow the icons held: ``sign`` +1 gains, -1 loses ``icons``."""
    pl.changed()
    a = pl.attr
    for k in range(4):
        if icons[k]:
            a[k] += sign * icons[k]


# --------------------------------------------------------------------------- sites
def place(s: State, p: int, x: int) -> None:
    """Put a disc of ``p`` (already taken from wherever it was) on free site ``x``: the
    site's token is gained and links are claimed (R13). A neutral disc (``p >= s.n``)
    takes no token (it leaves the game) and claims no link."""
    r = _SITE_REGION[x]
    s.site_owner[x] = p
    s.region_presence[p * REGION_STRIDE + r] += 1
    if not _SITE_TILE[x]:
        s.owned_sites[p * REGION_STRIDE + r] += 1
        s.occupied_sites[r] += 1
        if _SITE_CITY[x]:
            s.free_cities[r] -= 1
        else:
            s.free_routes[r] -= 1
    t = s.site_token[x]
    if p >= s.n:
        if t >= 0:
            s.site_token[x] = -1
            s.spent[t] += 1
        return
    pl = s.players[p]
    if t >= 0:
        s.site_token[x] = -1
        gain_token(s, pl, t)
    claim_links(s, p, pl, x)


LINK = define("event.link", "{seat} controls the link {link} first and gains its {token} token",
              you="You control the link {link} first and gain its {token} token")


def claim_links(s: State, p: int, pl: Player, x: int) -> None:
    """R13: the first player ever to control a circular link takes its token."""
    lt = s.link_token
    owner = s.site_owner
    lmark = s.link_marks
    for li, other in s.info.adj[x]:
        if lt[li] >= 0 and owner[other] == p and not lmark[li]:
            t = lt[li]
            lt[li] = -1
            gain_token(s, pl, t)
            if s.ev is not None:  # its message made when read
                a, b = s.info.board.links[li]
                s.emit_later("link", p, _link_message, p, a, b, s.rules.token_names[t])


def _link_message(p: int, a: int, b: int, token: str) -> Message:
    return msg(LINK, seat=Seat(p), link=f"{D.SITES[a].code}-{D.SITES[b].code}",
               token=Term("token", token))


def remove(s: State, x: int) -> int:
    """Take the disc off site ``x`` back to its owner's supply; returns the owner."""
    q = s.site_owner[x]
    r = _SITE_REGION[x]
    if q < s.n:
        s.players[q].supply += 1
    else:
        s.neutral_supply[q - s.n] += 1
    s.region_presence[q * REGION_STRIDE + r] -= 1
    s.site_owner[x] = -1
    if not _SITE_TILE[x]:
        s.owned_sites[q * REGION_STRIDE + r] -= 1
        s.occupied_sites[r] -= 1
        if _SITE_CITY[x]:
            s.free_cities[r] += 1
        else:
            s.free_routes[r] += 1
    return q


def controls_link(s: State, p: int, li: int) -> bool:
    """Both ends held by ``p`` and the link not Blockaded (Imperialism); a neutral
    colour never controls a link (R21)."""
    x, y = s.info.board.links[li]
    return (p < s.n and s.site_owner[x] == p and s.site_owner[y] == p
            and not s.link_marks[li] & L_BLOCKADE)


# --------------------------------------------------------------------------- tracks, seas
def ship_track(s: State, p: int, pl: Player | None, r: int) -> None:
    """R10: a Harbor disc to the free space farthest from the deck; filling the last
    space opens the region and awards its Governor (R11). A neutral disc (``pl`` None,
    taken from its supply by the caller) takes no token: it leaves the game."""
    i = s.info.trk_off[r] + s.filled[r]
    s.track_owner[i] = p
    t = s.track_token[i]
    s.track_token[i] = -1
    s.filled[r] += 1
    s.region_presence[p * REGION_STRIDE + r] += 1
    if pl is None:
        if t >= 0:
            s.spent[t] += 1
    else:
        pl.harbor -= 1
        if t >= 0:
            gain_token(s, pl, t)
    if s.filled[r] == s.info.trk_len[r]:
        open_region(s, r)


def add_sea(s: State, p: int, r: int) -> None:
    """A disc of ``p`` (already taken from wherever it was) into ``r``'s open sea."""
    s.sea[p * REGION_STRIDE + r] += 1
    s.region_presence[p * REGION_STRIDE + r] += 1


def remove_sea(s: State, p: int, r: int) -> None:
    """A disc of ``p`` leaves ``r``'s open sea (the caller puts it somewhere)."""
    s.sea[p * REGION_STRIDE + r] -= 1
    s.region_presence[p * REGION_STRIDE + r] -= 1


def replace_track_disc(s: State, r: int, k: int, p: int) -> int:
    """The disc on space ``k`` of ``r``'s track goes to ``r``'s open sea (its owner's
    presence is unchanged) and a disc of ``p`` (already taken) takes the space: no
    token, no Governor award (Letters of Marque). Returns the pushed disc's owner."""
    x = s.info.trk_off[r] + k
    q = s.track_owner[x]
    s.sea[q * REGION_STRIDE + r] += 1
    s.track_owner[x] = p
    s.region_presence[p * REGION_STRIDE + r] += 1
    return q


def governor_winner(s: State, r: int) -> int:
    """R11: most discs on the track; ties go to the tied player whose disc is closest
    to the deck. -1 if the track is empty."""
    o = s.info.trk_off[r]
    track = s.track_owner[o:o + s.info.trk_len[r]]
    counts = [0] * (s.n + s.rules.neutrals)
    for q in track:
        if q >= 0:
            counts[q] += 1
    best = max(counts)
    if best == 0:
        return -1
    for q in reversed(track):
        if q >= 0 and counts[q] == best:
            return q
    return -1  # pragma: no cover


REGION = define("event.region", "{region} opens: its track is full")
GOVERNOR = define("event.governor",
                  "{seat} wins the {region} Governor ({card}: {icons}), most discs on the "
                  "track (R11)",
                  you="You win the {region} Governor ({card}: {icons}), most discs on the "
                  "track (R11)")
GOVERNOR_LEAVES = define("event.governor.neutral",
                         "{owner} wins the {region} Governor ({card}), most discs on the "
                         "track (R11): it leaves the game (R21)")


def open_region(s: State, r: int) -> None:
    """The track of ``r`` is full: the region opens and its Governor goes to the winner
    (into the free Governor slot if it is empty, P1)."""
    if s.ev is not None:
        s.emit_later("region", None, _region_message, r)
    g = s.region_governors[r]
    if g < 0:
        return
    w = governor_winner(s, r)
    if w < 0:
        return
    s.region_governors[r] = -1
    if w >= s.n:  # a neutral colour wins it: the Governor leaves the game (R21)
        s.removed.append(g)
        if s.ev is not None:
            who = owner_words(s, w)
            s.emit("governor", None, msg(
                GOVERNOR_LEAVES, owner=Term("module", f"{who[0].upper()}{who[1:]}"),
                region=Term("region", D.REGION_NAMES[r]), card=D.CARDS[g].code))
        return
    pl = s.players[w]
    if s.rules.governor_to_free_slot(s, w):  # P1 (the 2009 game: P72)
        pl.gov = g
    else:
        pl.cards.append(g)
    gain_icons(pl, _CARD_ICONS[g], 1)  # (which counts the mat changed)
    if s.ev is not None:
        s.emit_later("governor", w, _governor_message, w, r, g, s.rules.token_names)


def _region_message(r: int) -> Message:
    return msg(REGION, region=region_term(r, True))


def _governor_message(w: int, r: int, g: int, names: tuple[str, ...]) -> Message:
    card = D.CARDS[g]
    return msg(GOVERNOR, seat=Seat(w), region=Term("region", D.REGION_NAMES[r]),
               card=card.code, icons=icons_message(card.icons, card.glory, names))
