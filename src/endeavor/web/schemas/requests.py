"""The requests' models (their fields strict, unknown fields refused) and the
notification settings' answers."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_SEATS = 8  # more than any ruleset seats; the store checks the exact count


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ClockSpec(_Request):
    """A game's clock: each decision gets ``per_decision`` seconds of its own, and time
    beyond that comes out of the seat's ``bank``; when both are spent, ``bot`` plays for
    the player: that decision (``on_timeout: "decision"``) or the rest of the game
    (``"game"``, which the player may take back if ``reclaim``)."""

    kind: Literal["live", "turn"] = Field(default="turn", description="how it is shown")
    bank: float = Field(default=0, ge=0, description="seconds per seat for the game")
    per_decision: float = Field(default=0, ge=0, description="seconds of each decision's own")
    on_timeout: Literal["decision", "game"] = "decision"
    bot: str = Field(default="medium", description="the bot that plays when time runs out")
    reclaim: bool = Field(default=True, description="a player may take the seat back")


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
    clock: ClockSpec | None = Field(default=None, description="none: no clock")
    names: list[str | None] | None = Field(
        default=None, max_length=MAX_SEATS,
        description="one per seat: its player's name (null or empty: P<seat>, a bot's "
                    "level); 1-24 characters, unique in the game",
        examples=[["Anna", None]])
    rated: bool = Field(
        default=False,
        description="a rated game (docs/web.md, Ratings): the creator signed in with an "
                    "account; each person's seat moves only once claimed by an account")


class ImportGame(_Request):
    """``POST /api/games/import``: a record as ``GET /api/games/{id}/record`` returns."""

    record: dict[str, Any]
    seats: list[str] = Field(max_length=MAX_SEATS)
    title: str | None = Field(default=None, max_length=200)
    clock: ClockSpec | None = None
    names: list[str | None] | None = Field(default=None, max_length=MAX_SEATS)


class ActionRequest(_Request):
    """``POST /api/games/{id}/actions``: an action in notation and the seq it was chosen
    at (a stale one is 409)."""

    action: str = Field(max_length=64, examples=["act docks"])
    seq: int = Field(ge=0)


class UndoRequest(_Request):
    """``POST /api/games/{id}/undo``: ``seq`` is the version the client has seen (409 when
    stale); without it (or without a body) the undo applies to the game as it stands."""

    seq: int | None = Field(default=None, ge=0)


class SeatRequest(_Request):
    """A request about one of the token's seats (a hot-seat token says which)."""

    seat: int | None = Field(default=None, ge=0, le=MAX_SEATS - 1)


class NameRequest(_Request):
    """``PUT /api/games/{id}/name`` (the token's seat; a hot-seat token says which) and
    ``PUT /api/games/{id}/host/seats/{seat}/name`` (the host, any seat)."""

    name: str = Field(max_length=200, strict=True, examples=["Anna"],
                      description="1-24 characters, no control characters, unique in "
                                  "the game (case aside), not a seat's number")
    seat: int | None = Field(default=None, ge=0, le=MAX_SEATS - 1, strict=True)


class BotRequest(_Request):
    """``POST /api/games/{id}/host/seats/{seat}/bot``."""

    bot: str = Field(max_length=32, examples=["medium"])


class ClockRequest(_Request):
    """``POST /api/games/{id}/host/clock``: ``extend`` a seat's time (no ``seat``: every
    seat's) by that many seconds, or stop (``paused: true``) / restart the clocks."""

    extend: float | None = Field(default=None, gt=0)
    seat: int | None = Field(default=None, ge=0, le=MAX_SEATS - 1)
    paused: bool | None = None


class NotifyRequest(_Request):
    """``PUT /api/games/{id}/notify``: a field left out stays as it is; null removes."""

    seat: int | None = Field(default=None, ge=0, le=MAX_SEATS - 1)
    webhook: str | None = Field(default=None, max_length=512,
                                examples=["https://ntfy.sh/my-endeavor-topic"])
    email: str | None = Field(default=None, max_length=254, examples=["me@example.org"])
    # a seat that stays yours: every turn or a digest, per channel (seating.py)
    webhook_mode: Literal["turn", "digest"] | None = None
    email_mode: Literal["turn", "digest"] | None = None
    # the language of the seat's messages; left out: the request's (?lang=, else its
    # Accept-Language header, else English)
    lang: Literal["en", "fr"] | None = None


class NotifySeat(BaseModel):
    seat: int
    webhook: str | None
    email: str | None
    webhook_mode: Literal["turn", "digest"] = "turn"
    email_mode: Literal["turn", "digest"] = "turn"
    from_account: bool = Field(default=False, description="these are the setting of the "
                               "account that claimed the seat (the seat has none of its own)")


class NotifyView(BaseModel):
    """A token's seats' notification settings."""

    seats: list[NotifySeat]
    email_available: bool = Field(description="the server can send e-mail")
    digest_hours: float = Field(default=12.0, description="a digest's period (hours)")


class NotifyTestRequest(_Request):
    """``POST /api/games/{id}/notify/test``: a test message to one channel now."""

    model_config = ConfigDict(extra="forbid", strict=True)

    seat: int | None = Field(default=None, ge=0, le=MAX_SEATS - 1)
    channel: Literal["webhook", "email"]


class NotifyTestResult(BaseModel):
    seat: int
    channel: str
    ok: bool
    result: str = Field(description="'sent', or 'failed: ...' in words")


class PresenceRequest(_Request):
    """``POST /api/games/{id}/presence``: the seat's page is visible, or hidden."""

    model_config = ConfigDict(extra="forbid", strict=True)

    visible: bool


class PresenceView(BaseModel):
    seats: list[int]
    visible_until: datetime


class MyGame(BaseModel):
    model_config = ConfigDict(strict=True)

    id: str
    token: str = Field(max_length=128)


class MyGamesRequest(_Request):
    """``POST /api/games/mine``: the (game, token) pairs a browser keeps."""

    games: list[MyGame] = Field(max_length=200)
    status: Literal["running", "over"] | None = Field(
        default=None, description="only the games not over (running) or over; "
                                  "default: all")
