"""Pydantic models of every request and response of the HTTP API (docs/web.md).

The engine's own JSON (a config, a record, the position drawn by ``view.position``, a
decision) is passed through as ``dict[str, Any]``: the engine validates configs and
records with specific reasons, which a schema here would only blur. Requests forbid
unknown fields, so a typo is a 422 rather than silently ignored, and their fields are
strict: a number is a JSON number, a yes/no a JSON ``true``/``false`` (``"paused": "yes"``,
``"seat": true`` or ``"seq": "3"`` are a 422, never read as something else).
"""

from __future__ import annotations

from .meta import (
    EngineView,
    ExploitMeta,
    Guide,
    GuideBuilding,
    GuideLevel,
    GuideRuleset,
    GuideTrack,
    Meta,
    Problem,
    ReviewMoves,
    ReviewView,
    RulesetMeta,
    Status,
)
from .rematch import (
    RematchCreated,
    RematchJoined,
    RematchRequest,
    RematchView,
)
from .requests import (
    MAX_SEATS,
    ActionRequest,
    BotRequest,
    ClockRequest,
    ClockSpec,
    CreateGame,
    ImportGame,
    MyGame,
    MyGamesRequest,
    NameRequest,
    NotifyRequest,
    NotifySeat,
    NotifyTestRequest,
    NotifyTestResult,
    NotifyView,
    PresenceRequest,
    PresenceView,
    SeatRequest,
    UndoRequest,
)
from .views import (
    Created,
    CreatedSeat,
    EventView,
    GameResult,
    GameView,
    HostPanel,
    HostSeatView,
    Lobby,
    LobbyGame,
    LobbySeat,
    MyGames,
    MyGameView,
    ResultScore,
    ScoreView,
    SeatView,
    SeqMessage,
)

__all__ = ["ActionRequest", "BotRequest", "ClockRequest", "ClockSpec", "CreateGame",
           "Created", "CreatedSeat", "EngineView", "EventView", "ExploitMeta", "GameResult",
           "GameView", "Guide", "GuideBuilding", "GuideLevel", "GuideRuleset",
           "GuideTrack", "HostPanel", "HostSeatView", "ImportGame", "Lobby",
           "LobbyGame", "LobbySeat", "MAX_SEATS", "Meta", "MyGame", "MyGameView",
           "MyGames", "MyGamesRequest", "NameRequest", "NotifyRequest", "NotifySeat",
           "NotifyTestRequest", "NotifyTestResult", "NotifyView", "PresenceRequest",
           "PresenceView", "Problem", "RematchCreated", "RematchJoined",
           "RematchRequest", "RematchView", "ResultScore", "ReviewMoves", "ReviewView",
           "RulesetMeta", "ScoreView", "SeatRequest", "SeatView", "SeqMessage", "Status",
           "UndoRequest"]
