"""The app's links: seat, host and spectator links, as clients and messages show them.

With ``endeavor serve --public-url https://games.example.org/endeavor`` every link is
absolute on that address (what a reverse proxy serves; its path is the app's prefix).
Without it, links in API responses stay paths (``/play/<id>#<token>``: the browser
resolves them against the page), and messages sent by the server in the background
(notifications, e-mails), which have no request to go by, use ``fallback``: the address
``endeavor serve`` listens on.

Tokens go in the fragment (``#``), which a browser never sends to a server, so they never
appear in a server's or a proxy's logs.
"""

from __future__ import annotations

import os
from typing import Final
from urllib.parse import quote, urlsplit

#: the environment variable through which ``endeavor serve`` gives the app's workers its
#: public address (``--public-url``)
PUBLIC_URL_VAR: Final = "ENDEAVOR_PUBLIC_URL"
#: ... and the address it listens on, for background messages without a public address
FALLBACK_URL_VAR: Final = "ENDEAVOR_FALLBACK_URL"


class LinkError(ValueError):
    """A public URL that cannot be used (the message says why)."""


def check_public_url(url: str) -> str:
    """``url`` as a public address: http(s), a host, no query or fragment; its path
    (the prefix) without a trailing ``/``. :class:`LinkError` says what is wrong."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise LinkError(f"--public-url {url!r}: an http:// or https:// address with a "
                        "host, e.g. https://games.example.org or "
                        "https://example.org/endeavor")
    if parts.query or parts.fragment:
        raise LinkError(f"--public-url {url!r}: no query string or fragment")
    path = parts.path.rstrip("/")
    return f"{parts.scheme}://{parts.netloc}{path}"


class Links:
    """Builds the app's links on ``public_url`` (None: paths; ``fallback`` for the
    messages the server sends by itself)."""

    def __init__(self, public_url: str | None = None, fallback: str | None = None) -> None:
        self.public_url = check_public_url(public_url) if public_url else None
        self.fallback = (check_public_url(fallback) if fallback else
                         "http://127.0.0.1:8000")

    @classmethod
    def from_env(cls) -> Links:
        return cls(os.environ.get(PUBLIC_URL_VAR) or None,
                   os.environ.get(FALLBACK_URL_VAR) or None)

    @property
    def prefix(self) -> str:
        """The path the app is served under behind a proxy ('' at the root)."""
        return urlsplit(self.public_url).path if self.public_url else ""

    def _base(self, absolute: bool) -> str:
        if self.public_url:
            return self.public_url
        return self.fallback if absolute else ""

    def seat(self, game_id: str, token: str, absolute: bool = False) -> str:
        return f"{self._base(absolute)}/play/{quote(game_id)}#{token}"

    def host(self, game_id: str, token: str, absolute: bool = False) -> str:
        return f"{self._base(absolute)}/host/{quote(game_id)}#{token}"

    def spectate(self, game_id: str, absolute: bool = False) -> str:
        return f"{self._base(absolute)}/game/{quote(game_id)}"

    def page(self, path: str, absolute: bool = False) -> str:
        return f"{self._base(absolute)}{path}"
