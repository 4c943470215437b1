"""The ratings as the API gives them: a rated game's outcome (the game view's
``ratings``), the leaderboard of a ruleset family and a player's profile."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, and_, select

from endeavor import bots

from ...messages import msg
from .. import db, rematch
from ..accounts import SeatClaims
from ..accounts import tables as accounts_tables
from ..store import NotFound, Snapshot, Store
from ..view import ratings as words
from . import model
from .tables import game_ratings, rating_history, ratings


def family_name(family: str, locale: str) -> str:
    return words.say(words.FAMILY_NAMES[family], locale)


def check_family(family: str, locale: str) -> None:
    """:class:`NotFound` in words for a family that is not one."""
    if family not in model.FAMILIES:
        m = msg(words.NO_FAMILY, family=repr(family), families=", ".join(model.FAMILIES))
        raise NotFound(m.render("en"), words=m)


def reason_words(reason: str | None, locale: str) -> str | None:
    """Why a game is unrated, in words (its stored code: see the tables)."""
    if reason is None:
        return None
    if reason.startswith("unclaimed:"):
        seats = [f"P{p}" for p in reason.split(":", 1)[1].split(",") if p.isdigit()]
        return words.say(words.UNCLAIMED, locale, seats=", ".join(seats))
    known = {"host_ended": words.HOST_ENDED, "too_few": words.TOO_FEW}
    return words.say(known.get(reason, words.HOST_ENDED), locale)


def game_ratings_view(store: Store, snap: Snapshot, locale: str) -> dict[str, Any] | None:
    """A rated game's ``ratings`` (None for a game that is not rated)."""
    if not snap.meta.rated:
        return None
    key = ("ratings", locale)
    done: dict[str, Any] | None = snap.memo.get(key)
    if done is not None:  # settled: kept with the game's version
        return done
    g, h = game_ratings, rating_history

    def read(conn: Connection) -> tuple[Any, list[Any]]:
        row = conn.execute(select(g).where(g.c.game_id == snap.meta.id)).first()
        changes = conn.execute(select(h).where(h.c.game_id == snap.meta.id)
                               .order_by(h.c.seat)).all()
        return row, list(changes)

    row, changes = store.read(read)
    if row is None:
        return None
    status = {"playing": "pending", "pending": "pending"}.get(row.status, row.status)
    seats = snap.meta.seats
    view = {"status": status, "reason": reason_words(row.reason, locale),
            "family": row.family,
            "changes": [{
                "seat": int(c.seat),
                "name": seats[c.seat].name if c.seat < len(seats) else f"P{c.seat}",
                "kind": "bot" if c.bot else "account",
                "before": model.shown(c.mu_before, c.sigma_before),
                "after": model.shown(c.mu_after, c.sigma_after),
                "change": round(model.shown(c.mu_after, c.sigma_after)
                                - model.shown(c.mu_before, c.sigma_before), 1) + 0.0}
                for c in changes]}
    if status != "pending":
        snap.memo[key] = view
    return view


def _levels() -> list[str]:
    """The rated bot levels that play on this server (``expert`` where it can)."""
    return [lv for lv in model.LEVELS if lv in bots.NAMES]


def bot_ratings(store: Store, family: str) -> dict[str, tuple[float, float, int]]:
    """Each bot level's ``(mu, sigma, games)`` in ``family`` (its seed until it plays)."""
    r = ratings
    rows = store.read(lambda conn: conn.execute(
        select(r.c.bot, r.c.mu, r.c.sigma, r.c.games)
        .where(and_(r.c.family == family, r.c.bot.is_not(None)))).all())
    found = {row.bot: (float(row.mu), float(row.sigma), int(row.games)) for row in rows}
    return {lv: found.get(lv, (*model.seed(lv, family), 0)) for lv in _levels()}


def leaderboard(store: Store, family: str, locale: str) -> dict[str, Any]:
    """The family's leaderboard: people and bot levels by rating (ties share a rank)."""
    check_family(family, locale)
    r, a = ratings, accounts_tables.accounts
    people = store.read(lambda conn: conn.execute(
        select(a.c.name, r.c.mu, r.c.sigma, r.c.games)
        .select_from(r.join(a, a.c.id == r.c.account_id))
        .where(and_(r.c.family == family, a.c.disabled.is_(False)))).all())
    players: list[dict[str, Any]] = [
        {"kind": "account", "name": p.name, "level": None, "mu": float(p.mu),
         "sigma": float(p.sigma), "games": int(p.games)} for p in people]
    for level, (mu, sigma, games) in bot_ratings(store, family).items():
        players.append({"kind": "bot", "name": words.say(words.LEVEL_NAMES[level], locale),
                        "level": level, "mu": mu, "sigma": sigma, "games": games})
    for p in players:
        p["rating"] = model.shown(p["mu"], p["sigma"])
        p["mu"], p["sigma"] = round(p["mu"], 2), round(p["sigma"], 2)
    players.sort(key=lambda p: (-p["rating"], -p["mu"], p["name"].casefold()))
    for i, p in enumerate(players):
        same = i > 0 and players[i - 1]["rating"] == p["rating"]
        p["rank"] = players[i - 1]["rank"] if same else i + 1
    return {"family": family, "name": family_name(family, locale), "players": players}


def plays_like(store: Store, family: str, rating: float) -> str | None:
    """The bot level whose rating in ``family`` is nearest ``rating``."""
    levels = bot_ratings(store, family)
    if not levels:
        return None
    return min(levels, key=lambda lv: (abs(model.shown(*levels[lv][:2]) - rating),
                                       model.LEVELS.index(lv)))


def _rating_rows(conn: Connection, account_id: int) -> tuple[list[Any], list[Any]]:
    r, h = ratings, rating_history
    rows = conn.execute(select(r).where(r.c.account_id == account_id)
                        .order_by(r.c.family)).all()
    history = conn.execute(select(h.c.family, h.c.game_id, h.c.at, h.c.mu_after,
                                  h.c.sigma_after).where(h.c.account_id == account_id)
                           .order_by(h.c.at, h.c.game_id)).all()
    return list(rows), list(history)


def _ratings_of(store: Store, account_id: int) -> list[dict[str, Any]]:
    rows, history = store.read(lambda conn: _rating_rows(conn, account_id))
    out = []
    for row in sorted(rows, key=lambda x: model.FAMILIES.index(x.family)
                      if x.family in model.FAMILIES else 9):
        shown = model.shown(row.mu, row.sigma)
        points: list[dict[str, Any]] = []
        for x in history:
            if x.family == row.family and (not points or points[-1]["game_id"] != x.game_id):
                points.append({"at": x.at.isoformat(), "game_id": x.game_id,
                               "rating": model.shown(x.mu_after, x.sigma_after)})
        out.append({"family": row.family, "rating": shown, "mu": round(row.mu, 2),
                    "sigma": round(row.sigma, 2), "games": int(row.games),
                    "plays_like": plays_like(store, row.family, shown), "history": points})
    return out


def _reviewed(store: Store, game_ids: Sequence[str]) -> set[str]:
    rv = db.reviews
    if not game_ids:
        return set()
    return store.read(lambda conn: {r.game_id for r in conn.execute(
        select(rv.c.game_id).where(and_(rv.c.game_id.in_(list(game_ids)),
                                        rv.c.status == "done")))})


def profile(store: Store, claims: SeatClaims, name: str, locale: str,
            recent: int = 10) -> dict[str, Any]:
    """A player's public profile (:class:`NotFound` in words for no such player)."""
    try:
        account = claims.accounts.find(name)
    except NotFound:
        m = msg(words.NO_PLAYER, name=name)
        raise NotFound(m.render("en"), words=m) from None
    held = [h for h in claims.games(account.id) if h.valid and h.mine.row is not None]
    seen: set[str] = set()
    games = []
    for h in held:
        if h.claim.game_id not in seen:
            seen.add(h.claim.game_id)
            games.append(h)
    results = {"first": 0, "second": 0, "third": 0, "other": 0}
    rows = []
    finished = 0
    for h in games:
        row = h.mine.row
        assert row is not None
        result = rematch.result_of(store, row) if row.status == "over" else None
        mine = next((s for s in (result or {}).get("scores", [])
                     if s["seat"] == h.claim.seat), None)
        done = row.status == "over" and row.ended is None
        if done and mine is not None:
            finished += 1
            results[("first", "second", "third")[mine["rank"] - 1]
                    if mine["rank"] <= 3 else "other"] += 1
        rows.append((h, row, mine if done else None, done))
    reviewed = _reviewed(store, [h.claim.game_id for h, *_ in rows[:recent]])
    return {"name": account.name, "created": account.created.isoformat(),
            "games_played": len(games), "games_finished": finished, "results": results,
            "ratings": _ratings_of(store, account.id),
            "recent": [{"game_id": row.id, "title": row.title, "status": row.status,
                        "finished": h.last_activity.isoformat() if row.status == "over"
                        else None,
                        "place": mine["rank"] if mine else None,
                        "score": mine["total"] if mine else None,
                        "players": len(row.seats), "replay": f"/replay/{row.id}",
                        "review": f"/game/{row.id}#review" if row.id in reviewed else None}
                       for h, row, mine, _ in rows[:recent]]}
