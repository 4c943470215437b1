"""What a message says, read from the game when it is sent: the seat's move, or the
final scores, with the chat's unseen messages; or why none is sent (the seat is no
longer to move, a bot plays it, its players are at the hot-seat screen...)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, select

from endeavor import final_scores

from .. import chat, db
from ..store import Snapshot, hash_token, utc, utcnow
from ..view import notice, plain_words
from .base import NotifierBase
from .message import Message


class Composer(NotifierBase):
    """Messages composed from a game's snapshot."""

    def compose(self, snap: Snapshot, seat: int, token: str,
                lang: str = "en") -> Message | str:
        """The message for ``seat`` (whose settings hold ``token``) on the game as it
        stands in ``snap``, in ``lang``'s words (the settings' language), or why none is
        sent (in words for the log): the game is over (the final scores, to
        every seat that asked), or the seat is to move and its player is not at the page
        (see the package's doc); a seat no longer to move, now played by a bot, or whose
        link was re-issued gets nothing."""
        meta = snap.meta
        if not 0 <= seat < len(meta.seats):
            return "no such seat"
        s = meta.seats[seat]
        if s.token_hash is None or s.token_hash != hash_token(token):
            return "the seat's link has changed"
        state = snap.state
        common: dict[str, Any] = {
            "game_id": meta.id, "title": notice.title_words(meta.title, meta.id, lang),
            "game_url": self.links.spectate(meta.id, absolute=True), "seat": seat,
            "round": int(state.round), "rounds": int(state.rules.rounds),
            "link": self.links.seat(meta.id, token, absolute=True),
            "names": tuple(x.name for x in meta.seats), "lang": lang}
        common.update(self._chat(snap, seat, lang))
        if snap.over:
            scores = sorted(((sc.player, int(sc.total), int(sc.rank))
                             for sc in final_scores(state)), key=lambda x: (x[2], x[0]))
            return Message("over", scores=tuple(scores), ended_by_host=snap.ended == "host",
                           **common)
        if snap.current_player != seat:
            return "the seat is not to move any more"
        if s.played_by is not None:
            return "a bot plays the seat now"
        if self._present(snap, seat):
            return "its players are at the hot-seat screen"
        decision = state.decision()
        asked = (plain_words(decision.render(lang, viewer=decision.player))[0]
                 if decision is not None else None)
        clock = snap.clock
        deadline = (clock.deadline if clock is not None and clock.running == seat
                    else None)
        return Message("turn", asked=asked, deadline=deadline, **common)

    def _chat(self, snap: Snapshot, seat: int, lang: str = "en") -> dict[str, Any]:
        """The chat's messages ``seat`` has not seen, for its message (see chat.py), in
        ``lang``'s words ("Ann wrote: ...")."""
        unseen = chat.unseen(self.store, snap, seat)
        lines = tuple(notice.say(notice.WROTE, lang, name=name, text=text)
                      for name, text in unseen.said)
        return {"chat": lines, "chat_more": unseen.more, "chat_upto": unseen.upto}

    def _present(self, snap: Snapshot, seat: int) -> bool:
        """Whether the last move made by a person (not a bot, not the host) was made
        less than ``present_seconds`` ago by another seat of ``seat``'s hot-seat link
        (the people at that screen know it is their turn)."""
        seats = snap.meta.seats
        if seats[seat].kind != "hotseat":
            return False
        last = None
        for entry in reversed(snap.log):
            if entry.seat < 0 or entry.note is not None:
                continue  # the host, or a bot playing for a player whose time ran out
            if entry.kind == "action" and seats[entry.seat].played_by is not None:
                continue  # a bot's move
            last = entry
            break
        if (last is None or last.seat == seat
                or seats[last.seat].token_hash != seats[seat].token_hash):
            return False
        m = db.moves
        query = select(m.c.created).where(and_(m.c.game_id == snap.meta.id,
                                               m.c.seq == last.seq))
        created = self.store.read(lambda conn: conn.execute(query).scalar())
        if created is None:
            return False
        age = (utcnow() - utc(created)).total_seconds()
        return bool(age < self.settings.present_seconds)
