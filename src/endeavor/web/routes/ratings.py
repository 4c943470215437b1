"""The ratings' endpoints (docs/web.md, "Ratings"): the ruleset families, a family's
leaderboard and a player's public profile."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from ..ratings import board, model
from ..schemas import ratings as s
from .state import Locale, Web

router = APIRouter(tags=["ratings"])


@router.get("/api/ratings", response_model=s.Families)
def families(locale: Locale) -> dict[str, Any]:
    """The ruleset families, each with its own ratings."""
    return {"families": [{"id": f, "name": board.family_name(f, locale)}
                         for f in model.FAMILIES]}


@router.get("/api/ratings/{family}", response_model=s.Leaderboard)
def leaderboard(family: str, web: Web, locale: Locale) -> dict[str, Any]:
    """The family's leaderboard: people and bot levels by rating (404: no such
    family)."""
    return board.leaderboard(web.store, family, locale)


@router.get("/api/players/{name}", response_model=s.Profile)
def player(name: str, web: Web, locale: Locale, request: Request) -> dict[str, Any]:
    """A player's public profile: games, results, ratings with their history, recent
    games (404: no such player)."""
    return board.profile(web.store, request.app.state.accounts.seats, name, locale)
