"""The ratings' answers (docs/web.md, "Ratings"): the families, a leaderboard, a
player's profile and the game view's ``ratings``."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class Family(BaseModel):
    id: str = Field(description="age-of-sail, classic or silent-fleet")
    name: str = Field(description="in the request's language")


class Families(BaseModel):
    """``GET /api/ratings``."""

    families: list[Family]


class RatedPlayer(BaseModel):
    rank: int = Field(description="1 = best; equal ratings share a rank")
    kind: Literal["account", "bot"]
    name: str = Field(description="the account's name, or the bot level's name")
    level: str | None = Field(description="a bot's level id: easy, medium, hard, expert")
    rating: float = Field(description="mu - 3 sigma, one decimal (a newcomer: 0.0)")
    mu: float
    sigma: float = Field(description="the rating's uncertainty (shown as ±sigma)")
    games: int = Field(description="rated games played on this server")


class Leaderboard(BaseModel):
    """``GET /api/ratings/{family}``."""

    family: str
    name: str
    players: list[RatedPlayer]


class RatingChange(BaseModel):
    seat: int
    name: str
    kind: Literal["account", "bot"]
    before: float
    after: float
    change: float


class GameRatings(BaseModel):
    """The game view's ``ratings`` (a rated game's)."""

    status: Literal["pending", "done", "unrated"]
    reason: str | None = Field(description="why the game is unrated, in words")
    family: str
    changes: list[RatingChange] = Field(description="empty until done")


class HistoryPoint(BaseModel):
    at: str
    game_id: str
    rating: float


class FamilyRating(BaseModel):
    family: str
    rating: float
    mu: float
    sigma: float
    games: int
    plays_like: str | None = Field(description="the bot level with the nearest rating")
    history: list[HistoryPoint]


class Results(BaseModel):
    first: int
    second: int
    third: int
    other: int


class RecentGame(BaseModel):
    game_id: str
    title: str
    status: str
    finished: str | None
    place: int | None
    score: int | None
    players: int
    replay: str
    review: str | None


class Profile(BaseModel):
    """``GET /api/players/{name}``."""

    name: str
    created: str
    games_played: int
    games_finished: int
    results: Results
    ratings: list[FamilyRating]
    recent: list[RecentGame]
