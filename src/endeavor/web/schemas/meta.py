"""The models of the new-game form's choices, the rules guide, a post-game review and an
error's answer."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field


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
    email_available: bool = Field(default=False, description="the same: the server can "
                                 "e-mail what accounts ask for (sign-in and reset links)")


class EngineView(BaseModel):
    """Which build of the engine computes the search bots' moves and the reviews."""

    build: Literal["compiled", "pure"] = Field(description="the build doing the engine "
                                                           "work now")
    compiled_build: Literal["ready", "here", "building", "failed", "stale", "missing",
                            "off"] = Field(
        description="the compiled build: its worker processes in use (ready), this server "
                    "process itself (here), being built, its build failed, a build of "
                    "other sources (stale), none (missing), not wanted (off)")
    text: str = Field(description="the same in words, as the page shows it")


class Status(BaseModel):
    """``GET /api/status``: the server's version and engine build."""

    version: str
    engine: EngineView


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
    bot: str = Field(description="the bot this server reviews with, the strongest it has "
                                 "(hard, or expert once it is measured stronger)")
    policy: str = Field(description="how the budget is spent: contested (the whole budget "
                                    "only where the choice is contested) or fixed")
    status: Literal["none", "queued", "running", "done", "failed"]
    iterations: int | None = Field(description="the bot's search budget per decision")
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
