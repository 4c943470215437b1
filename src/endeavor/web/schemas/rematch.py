"""The rematch endpoints' models."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from .requests import _Request
from .views import Created


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
