"""Accounts by e-mail: the account's notification setting, the mailed links
(``/api/account/notifications``, ``/api/account/email-link``, ``email-reset``,
``link-signin``; docs/web.md, "Accounts by e-mail")."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class AccountNotifyRequest(_Request):
    """``PUT /api/account/notifications``: a field left out stays; null removes."""

    email: str | None = Field(default=None, max_length=254, examples=["me@example.org"],
                              description="the account's address: its sign-in and reset "
                                          "links, and turns when notify_email")
    notify_email: bool | None = Field(default=None, description="e-mail the account's "
                                                                "turns to the address")
    webhook: str | None = Field(default=None, max_length=512,
                                examples=["https://ntfy.sh/my-endeavor-topic"])
    email_mode: Literal["turn", "digest"] | None = None
    webhook_mode: Literal["turn", "digest"] | None = None
    lang: Literal["en", "fr"] | None = Field(default=None, description="the messages' "
                                             "language; left out: the request's")


class AccountNotifyView(BaseModel):
    """An account's address and notification setting."""

    email: str | None
    notify_email: bool
    webhook: str | None
    email_mode: Literal["turn", "digest"]
    webhook_mode: Literal["turn", "digest"]
    lang: str
    seats: int = Field(description="the claimed seats it notifies for now (a game's own "
                                   "setting overrides it)")
    email_available: bool = Field(description="the server can send e-mail")
    digest_hours: float = Field(description="a digest's period (hours)")


class MailRequest(_Request):
    """``POST /api/account/email-link`` and ``email-reset``: the account's name."""

    name: str = Field(max_length=200, examples=["Anna"])


class LinkSignIn(_Request):
    """``POST /api/account/link-signin``: the fragment of a mailed sign-in link."""

    token: str = Field(max_length=128)
    bearer: bool = Field(default=False, description="also give the session's token")


class Mailed(BaseModel):
    """The one answer of the mailing endpoints, whatever the name."""

    detail: str

