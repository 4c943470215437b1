"""The post-game review of a finished game (``/api/games/{game_id}/review``)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from .. import reviews, schemas
from .state import AppState, GameId, Locale, Web

router = APIRouter()


def _answer(web: AppState, game_id: str, locale: str = "en") -> Response:
    return Response(reviews.status_json(web.store, game_id, web.review.enabled, locale),
                    media_type="application/json")


@router.get("/api/games/{game_id}/review", response_model=schemas.ReviewView,
            tags=["games"])
def get_review(game_id: GameId, web: Web, locale: Locale) -> Response:
    """The post-game review of a finished game (for everyone, as its replay): its
    status (``none``, ``queued``, ``running``, ``done``, ``failed``), its progress
    (decisions done of the total) and, once done, the review and each decision's
    moves in words (in the reader's language: ``?lang=`` or Accept-Language). 409
    for a game not over."""
    return _answer(web, game_id, locale)


@router.post("/api/games/{game_id}/review", response_model=schemas.ReviewView,
             tags=["games"])
def request_review(game_id: GameId, web: Web, locale: Locale) -> Response:
    """Ask for the review of a finished game that has none (one that ended before
    reviews, or whose review failed): queued, then as ``GET``. A game that has one
    (queued, running or done) keeps it. 409 for a game not over, or a server that
    does not review games."""
    reviews.request(web.store, game_id, web.review.iterations)
    if web.reviewer is not None:
        web.reviewer.wake()
    return _answer(web, game_id, locale)
