"""Pydantic models of every request and response of the HTTP API (docs/web.md).

The engine's own JSON (a config, a record, the position drawn by ``view.position``, a
decision) is passed through as ``dict[str, Any]``: the engine validates configs and
records with specific reasons, which a schema here would only blur. Requests forbid
unknown fields, so a typo is a 422 rather than silently ignored.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_SEATS = 8  # more than any ruleset seats; the store checks the exact count


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateGame(_Request):
    """``POST /api/games``."""

    config: dict[str, Any] = Field(
        description="GameConfig fields: players, ruleset, board, exploits, seed, options",
        examples=[{"players": 2, "seed": 7}])
    seats: list[str] = Field(
        max_length=MAX_SEATS,
        description="one per player: 'human', 'hotseat' or 'bot:<name>'",
        examples=[["human", "bot:medium"]])
    title: str | None = Field(default=None, max_length=200)


class ImportGame(_Request):
    """``POST /api/games/import``: a record as ``GET /api/games/{id}/record`` returns."""

    record: dict[str, Any]
    seats: list[str] = Field(max_length=MAX_SEATS)
    title: str | None = Field(default=None, max_length=200)


class ActionRequest(_Request):
    """``POST /api/games/{id}/actions``: an action in notation and the seq it was chosen
    at (a stale one is 409)."""

    action: str = Field(max_length=64, examples=["act docks"])
    seq: int = Field(ge=0)


class UndoRequest(_Request):
    """``POST /api/games/{id}/undo``: ``seq`` is the version the client has seen (409 when
    stale); without it (or without a body) the undo applies to the game as it stands."""

    seq: int | None = Field(default=None, ge=0)


class CreatedSeat(BaseModel):
    seat: int
    kind: Literal["human", "hotseat", "bot"]
    bot: str | None
    token: str | None = Field(description="the seat's secret (null for a bot)")
    url: str | None = Field(description="/play/{id}#{token} (null for a bot)")


class Created(BaseModel):
    """201 of ``POST /api/games`` and ``POST /api/games/import``."""

    id: str
    seats: list[CreatedSeat]
    spectate_url: str


class SeatView(BaseModel):
    seat: int
    kind: Literal["human", "hotseat", "bot"]
    bot: str | None
    name: str


class EventView(BaseModel):
    seq: int
    kind: str
    player: int | None
    text: str


class ScoreView(BaseModel):
    model_config = ConfigDict(extra="allow")

    seat: int
    total: int
    rank: int
    lines: list[tuple[str, int]]


class GameView(BaseModel):
    """The game as one token (or a spectator) sees it."""

    id: str
    title: str
    seq: int
    over: bool
    current_player: int | None
    you: list[int] = Field(description="the seats this token plays ([] for a spectator)")
    seats: list[SeatView]
    config: dict[str, Any]
    actions: int = Field(description="how many effective actions lead to this position")
    legal_actions: list[str] = Field(description="only for the seat to move; else []")
    decision: dict[str, Any] | None
    events: list[EventView]
    state: dict[str, Any]
    scores: list[ScoreView] | None
    can_undo: bool


class LobbySeat(BaseModel):
    seat: int
    kind: Literal["human", "hotseat", "bot"]
    bot: str | None


class LobbyGame(BaseModel):
    id: str
    title: str
    created: datetime
    ruleset: str
    players: int
    seats: list[LobbySeat]
    seq: int
    status: Literal["open", "running", "over"]
    current_player: int | None
    spectate_url: str


class Lobby(BaseModel):
    games: list[LobbyGame]


class SeqMessage(BaseModel):
    """What the WebSocket sends."""

    seq: int


class RulesetMeta(BaseModel):
    id: str
    title: str
    players: list[int]
    boards: list[str]
    default_board: dict[str, str] = Field(description="player count -> board side")
    options: dict[str, dict[str, Any]] = Field(
        description="option name -> {'values': [...], 'default': ...}")
    phase_orders: list[str]


class ExploitMeta(BaseModel):
    id: str
    name: str


class Meta(BaseModel):
    """``GET /api/meta``: what the new-game form offers."""

    rulesets: list[RulesetMeta]
    boards: list[str]
    exploits: list[ExploitMeta]
    bots: list[str]
    quick_bots: list[str] = Field(description="bots that move before a response returns")
    phase_orders: list[str]
    seat_kinds: list[str]
    max_body: int = Field(description="the largest request body accepted, in bytes")


class Problem(BaseModel):
    """Every error body: ``detail`` says why in words (never a stack trace)."""

    detail: str
