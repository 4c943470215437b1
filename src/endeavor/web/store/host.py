"""The host panel: a ``host`` entry of the log (made by the host, by a seat about
itself, or by the server's clock keeper) and the host's view of the seats' links, and
the end of a game by the host."""

from __future__ import annotations

import hmac
from collections.abc import Callable
from typing import Any

from ..view import refusals
from .errors import Forbidden, Unauthorized
from .gamelog import KEEP, GameLog, check_seq, not_over
from .records import HOST_SEAT, Entry, HostSeat, Meta, Snapshot
from .repository import CachedGame
from .values import hash_token, seat_token


def check_host(meta: Meta, token: str | None) -> None:
    if not token:
        raise Unauthorized.said(refusals.HOST_TOKEN)
    if meta.host_hash is None:
        raise Forbidden.said(refusals.NO_HOST_LINK)
    if not meta.is_host(token):
        raise Forbidden.said(refusals.NOT_HOST)


class HostPanel(GameLog):
    """``host`` entries, and the host panel's own requests."""

    def _host_entry(self, game_id: str, host_token: str | None, notation: str,
                    change: Callable[[CachedGame], tuple[Meta | None, Any, str | None, list[
                        tuple[Any, dict[str, Any]]]]],
                    seat: int = HOST_SEAT, seq: int | None = None,
                    check: Callable[[CachedGame], None] | None = None,
                    trusted: bool = False) -> Snapshot:
        """Append a ``host`` entry: ``change(cached)`` (under the lock, after the host
        check and ``check``) returns the new meta (or None), the new clock (or
        :data:`KEEP`), an ending (or None) and the statements that go with it.
        ``host_token`` None: made by ``seat`` itself (checked by the caller), or by the
        server itself when ``trusted`` (a clock)."""
        with self._locked(game_id) as cached:
            if seat == HOST_SEAT and not trusted:
                check_host(cached.meta, host_token)
            if seq is not None:
                check_seq(cached, seq)
            if check is not None:
                check(cached)
            meta, clock, ended, extra = change(cached)
            entry = Entry(cached.seq + 1, seat, "host", notation)
            self._commit(cached, entry, None, meta=meta, restart=False, clock=clock,
                         ended=ended, extra=extra)
            snap = cached.snapshot()
        self._notify(game_id, snap.seq)
        return snap

    def _system_entry(self, game_id: str, notation: str,
                      change: Callable[[CachedGame], tuple[Meta | None, Any, str | None,
                                                           list[Any]]],
                      seq: int) -> Snapshot:
        """A ``host`` entry made by the server itself (a clock), at version ``seq``."""
        return self._host_entry(game_id, None, notation, change, seq=seq, trusted=True)

    def host_panel(self, game_id: str, host_token: str | None,
                   ) -> tuple[Snapshot, list[HostSeat]]:
        """The game and each seat with its link's token, for the host (401 without a
        token, 403 for a token that is not the host's)."""
        snap = self.snapshot(game_id)
        check_host(snap.meta, host_token)
        assert host_token is not None
        out = []
        for s in snap.meta.seats:
            token = None
            if s.token_hash is not None:
                t = seat_token(host_token, game_id, s.token_key, s.token_gen)
                if hmac.compare_digest(hash_token(t), s.token_hash):
                    token = t
            out.append(HostSeat(s, token))
        return snap, out

    def end(self, game_id: str, host_token: str | None) -> Snapshot:
        """The host ends the game: no more moves; the score pad is counted as the game
        stands."""

        def change(cached: CachedGame) -> tuple[None, Any, str, list[Any]]:
            not_over(cached)
            return None, KEEP, "host", []

        return self._host_entry(game_id, host_token, "end", change)
