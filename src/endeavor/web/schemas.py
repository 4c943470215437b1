"""Pydantic models of every request and response of the HTTP API (docs/web.md).

The engine's own JSON (a config, a record, the position drawn by ``view.position``, a
decision) is passed through as ``dict[str, Any]``: the engine validates configs and
records with specific reasons, which a schema here would only blur. Requests forbid
unknown fields, so a typo is a 422 rather than silently ignored, and their fields are
strict: a number is a JSON number, a yes/no a JSON ``true``/``false`` (``"paused": "yes"``,
``"seat": true`` or ``"seq": "3"`` are a 422, never read as something else).
"""

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


class NotifySeat(BaseModel):
    seat: int
    webhook: str | None
    email: str | None
    webhook_mode: Literal["turn", "digest"] = "turn"
    email_mode: Literal["turn", "digest"] = "turn"


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
    number: int = Field(default=0, description="the tile's number (1-15)")
    regions: list[str] = Field(default_factory=list, description="its two regions' names")
    rule: str = Field(default="", description="the whole rule in plain words (guide.py)")
    paragraphs: list[str] = Field(default_factory=list, description="the same rule in "
                                  "paragraphs: setup, each ability, scoring")
    shield: str = Field(default="", description="how its Shields are earned and what "
                                                "they do")


class GuideBuilding(BaseModel):
    code: str
    name: str
    level: int = Field(description="0 for a start tile")
    copies: int
    does: str = Field(description="its action(s): 'Ship', 'Ship or Draw', "
                                  "'Ship + Occupy (one or both)', 'no action'")
    gives: str = Field(description="the attributes and glory it gives, in words")
    note: str = Field(description="a power or restriction its symbols do not say")


class GuideLevel(BaseModel):
    level: int
    buildings: list[GuideBuilding]


class GuideRuleset(BaseModel):
    id: str
    title: str
    players: list[int]
    rounds: int
    discs: int = Field(description="discs per player")
    max_cards: int = Field(description="card slots on a mat (the most cards kept)")
    attributes: list[str] = Field(description="the four attributes' names")
    track_cap: int | None = Field(description="the highest track score that counts "
                                              "(null: no cap)")
    start: list[GuideBuilding]
    levels: list[GuideLevel]
    level5_pool: int = Field(description="level-5 types in the box")
    level5_available: int = Field(description="level-5 types in play in a game")


class GuideTrack(BaseModel):
    score: int
    level: int = Field(description="Build Level, Salary (payments) and Card Limit")
    growth: int = Field(description="discs gained in the Growth phase")
    glory: int = Field(description="end-game glory of a marker on this score")


class Guide(BaseModel):
    """``GET /api/guide``: what the How to play page draws from the engine's data."""

    rulesets: list[GuideRuleset]
    tracks: list[GuideTrack]
    shields: str = Field(description="what Shields are, in words")
    exploits: list[ExploitMeta]


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
    clock_kinds: list[str] = Field(default_factory=list)
    on_timeout: list[str] = Field(default_factory=list)
    default_timeout_bot: str = "medium"
    email_notifications: bool = Field(default=False, description="the server can send "
                                                                 "e-mail")


class ReviewMoves(BaseModel):
    played: str = Field(description="the move played, in words")
    best: str = Field(description="the strongest bot's move, in words")
    played_targets: list[str] = Field(description="where the move played is clicked on "
                                                  "(data-target ids of the board and mats)")
    best_targets: list[str] = Field(description="where the best move is clicked on")


class ReviewView(BaseModel):
    """``GET /api/games/{id}/review``: a finished game's post-game review."""

    id: str
    enabled: bool = Field(description="this server reviews finished games")
    actions: int = Field(description="the game's effective actions")
    status: Literal["none", "queued", "running", "done", "failed"]
    iterations: int | None = Field(description="the hard bot's search budget per decision")
    done: int = Field(description="decisions reviewed so far")
    total: int | None = Field(description="decisions to review (null until it starts)")
    error: str | None = Field(description="why it failed, in words")
    queued: str | None
    started: str | None
    finished: str | None
    eta_seconds: float | None = Field(
        None, description="while it runs: the estimated time left (seconds; null until "
                          "a first decision is reviewed)")
    review: dict[str, Any] | None = Field(
        description="once done: the review, as endeavor.analysis.review.Review.to_json writes it "
                    "(decisions, players' summaries, the curve of expected final glory, "
                    "the thresholds)")
    moves: dict[str, ReviewMoves] | None = Field(
        description="once done: each reviewed decision's moves in words, by step")


class Problem(BaseModel):
    """Every error body: ``detail`` says why in words (never a stack trace)."""

    detail: str


# --------------------------------------------------------------------------- rematch
class RematchRequest(_Request):
    """Play again: ``rotate`` gives each person (and bot) the next seat (the last the
    first), ``keep`` the same seat."""

    seats: Literal["rotate", "keep"] = "rotate"


class RematchCreated(Created):
    """A rematch just made: the new game as a create returns it (you are its host),
    with your seats in it."""

    of: str = Field(description="the finished game it is the rematch of")
    you: list[int] = Field(description="your seats in the rematch ([]: you held only "
                                       "the host's link)")
    token: str | None = Field(description="your seats' token in the rematch")
    url: str | None = Field(description="your seat's link in the rematch")


class RematchView(BaseModel):
    """A game's rematch links (anyone may read them)."""

    id: str
    rematch_of: str | None = Field(description="the game this one is a rematch of")
    rematch_id: str | None = Field(description="this game's rematch (null: none yet)")
    rematch_spectate_url: str | None


class RematchJoined(BaseModel):
    """Your seat in the rematch, exchanged for your seat's token of the old game."""

    id: str = Field(description="the rematch's game id")
    rematch_of: str
    token: str
    url: str
    you: list[int]
