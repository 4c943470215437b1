"""The answers' models: a new game's links, the game view, the host's panel, the lobby and
"Your games"."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class CreatedSeat(BaseModel):
    seat: int
    kind: Literal["human", "hotseat", "bot"]
    bot: str | None
    token: str | None = Field(description="the seat's secret (null for a bot)")
    url: str | None = Field(description="/play/{id}#{token} (null for a bot); absolute "
                                        "when the server has a public address")


class Created(BaseModel):
    """201 of ``POST /api/games`` and ``POST /api/games/import``."""

    id: str
    seats: list[CreatedSeat]
    spectate_url: str
    host_token: str | None = Field(description="the host's secret: re-issue links, put "
                                               "bots in seats, clocks, end the game")
    host_url: str | None = Field(description="/host/{id}#{host_token}")


class SeatView(BaseModel):
    seat: int
    kind: Literal["human", "hotseat", "bot"]
    bot: str | None
    name: str
    named: bool = Field(default=False, description="the name was chosen (not P<seat> "
                                                   "or a bot's level)")
    played_by: str | None = Field(default=None, description="the bot playing the seat "
                                                            "now (null: a person)")
    replaced: Literal["host", "timeout"] | None = Field(
        default=None, description="why a bot plays a person's seat")


class HostSeatView(SeatView):
    token: str | None = Field(description="the seat's link's token (null: no person's)")
    url: str | None
    last_moved: datetime | None = Field(
        None, description="when the seat's player last moved (not a bot for them)")
    last_seen: datetime | None = Field(
        None, description="when the seat's link last opened the game (to the minute)")


class HostPanel(BaseModel):
    """What the host sees (every host endpoint answers with it)."""

    id: str
    title: str
    seq: int
    over: bool
    ended: str | None
    current_player: int | None
    host_url: str
    spectate_url: str
    clock: dict[str, Any] | None
    seats: list[HostSeatView]
    now: datetime | None = Field(None, description="the server's time (for last_moved "
                                                   "and last_seen in relative words)")


class EventView(BaseModel):
    seq: int
    kind: str
    player: int | None
    text: str
    message: dict[str, Any] | None = Field(
        default=None, description="the words as data, the same in every language: "
        "{\"id\", \"args\"} (endeavor.messages); left out on lines the engine did not say")
    rules: list[str] | None = Field(default=None, description="the rulings behind it "
                                                              "(docs/rulings.md); left "
                                                              "out when none")


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
    ended: str | None = Field(description="'host': ended by the host; null otherwise")
    current_player: int | None
    you: list[int] = Field(description="the seats this token plays ([] for a spectator)")
    thinking: bool = Field(description="a bot is working on the next move")
    can_reclaim: list[int] = Field(description="your seats a bot took over when your "
                                               "time ran out, that you may take back")
    rated: bool = Field(default=False, description="a rated game (docs/web.md, Ratings)")
    ratings: dict[str, Any] | None = Field(
        default=None, description="a rated game's outcome: status (pending, done, "
        "unrated), reason (words), family, changes (seat, name, kind, before, after, "
        "change)")
    benched: list[dict[str, Any]] | None = Field(
        default=None, description="the link's seats the host gave to a bot (the link "
        "watches them until the host hands them back): seat, bot, since, words")
    clock: dict[str, Any] | None = Field(description="the clock: settings, banks, the "
                                                     "running decision, the server's time")
    seats: list[SeatView]
    config: dict[str, Any]
    actions: int = Field(description="how many effective actions lead to this position")
    legal_actions: list[str] = Field(description="only for the seat to move; else []")
    decision: dict[str, Any] | None
    events: list[EventView]
    state: dict[str, Any]
    scores: list[ScoreView] | None
    can_undo: bool


class ResultScore(BaseModel):
    seat: int
    name: str
    total: int
    rank: int = Field(description="1 for the winner(s); tied seats share a rank")


class GameResult(BaseModel):
    """A finished game's result: every seat's total and rank, best first."""

    scores: list[ResultScore]
    winners: list[int] = Field(description="the seats ranked first")


class LobbySeat(BaseModel):
    seat: int
    kind: Literal["human", "hotseat", "bot"]
    bot: str | None
    name: str = Field(default="", description="the seat's name")
    named: bool = Field(default=True, description="the name was chosen (else the seat's "
                        "number, or a bot's level: a client may say it in its language)")
    played_by: str | None = Field(default=None, description='"Your games" only')


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
    ended: str | None = Field(default=None, description='"Your games" only')
    spectate_url: str
    result: GameResult | None = Field(default=None, description="a finished game's "
                                      "score pad, best first (only for one over)")


class Lobby(BaseModel):
    games: list[LobbyGame]


class MyGameView(BaseModel):
    id: str
    found: bool = Field(description="the game exists")
    valid: bool = Field(description="the token is a seat of the game now")
    you: list[int]
    benched: list[int] | None = Field(default=None, description="the token's seats the "
                                      "host gave to a bot (the link watches them)")
    your_move: bool
    game: LobbyGame | None


class MyGames(BaseModel):
    """"Your games": your-move games first."""

    games: list[MyGameView]
    your_move: int = Field(description="how many of them wait for your move")


class SeqMessage(BaseModel):
    """What the WebSocket sends."""

    seq: int
