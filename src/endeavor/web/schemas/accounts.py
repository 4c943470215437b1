"""The accounts' requests and answers (``/api/account...``, docs/web.md "Accounts")."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .views import LobbyGame


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SignUp(_Request):
    """``POST /api/account/signup`` and ``POST /api/account/signin``."""

    name: str = Field(max_length=200, examples=["Anna"],
                      description="the display name: 1-24 characters, no control "
                                  "characters, unique on the server (case aside)")
    password: str = Field(max_length=1024, description="at least 8 characters")
    bearer: bool = Field(default=False, description="also give the session's token in the "
                                                    "answer (an API client's bearer token)")


class Password(_Request):
    """``DELETE /api/account``: the account's password, asked again."""

    password: str = Field(max_length=1024)


class ResetRequest(_Request):
    """``POST /api/account/reset``: a reset link's token and the new password."""

    token: str = Field(max_length=128, description="the fragment of the reset link")
    password: str = Field(max_length=1024, description="at least 8 characters")


class ClaimRequest(_Request):
    """``POST /api/account/claim``: a seat's link (its game and token)."""

    game_id: str = Field(min_length=1, max_length=32)
    token: str = Field(min_length=1, max_length=128, description="the seat's token (the "
                                                                 "fragment of its link)")


class AccountView(BaseModel):
    """Who is signed in."""

    name: str
    created: datetime
    token: str | None = Field(default=None, description="the session's token (only when "
                                                        "the sign-in asked: bearer)")


class Claimed(BaseModel):
    """A seat claimed: now the account's, under its name."""

    game_id: str
    seat: int
    name: str
    link: str = Field(description="the seat's play link")


class AccountGame(BaseModel):
    """A game of "Your games" (the account's)."""

    id: str
    seat: int = Field(description="the account's seat in it")
    valid: bool = Field(description="the claimed link still plays the seat (false: the "
                                    "host issued a new one)")
    benched: bool = Field(description="the host gave the seat to a bot (the link watches)")
    your_move: bool
    to_move: int | None = Field(description="whose move it is (a seat), none when over")
    to_move_name: str | None
    link: str | None = Field(description="the seat's play link (none when not valid)")
    last_activity: datetime
    game: LobbyGame | None = Field(description="none: the game no longer exists")


class AccountGames(BaseModel):
    """"Your games" of an account: the latest activity first."""

    games: list[AccountGame]
    your_move: int


class AccountExport(BaseModel):
    """The account's own data."""

    account: dict[str, Any]
    sessions: list[dict[str, Any]]
    games: list[dict[str, Any]]
