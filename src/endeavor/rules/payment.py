"""Payment (R15): move a worker from one of your buildings back to your Harbor; in the
Action phase never from a building with the no-payment symbol (Age of Sail, fr)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .. import actions as A
from .. import data as D
from ..messages import Message, Seat, Term, define, msg
from .kinds import ActionKind
from .salary import no_worker, pay_worker, payment_codes, workers

if TYPE_CHECKING:
    from ..state import State

_B_NOPAY: Final = tuple(b.no_payment for b in D.BUILDINGS)

#: a Payment's option (a Payment action or a module's step that pays a worker)
PAY: Final = define("payment.pay", "Pay the worker on their {building}: it returns to their Harbor",
                    you="Pay the worker on your {building}: it returns to your Harbor")
UNAVAILABLE: Final = define(
    "payment.unavailable", "Payment needs a worker on a building without the no-payment symbol")


class Payment(ActionKind):
    kind = D.PAYMENT
    name = "Payment"

    def possible(self, s: State, p: int, harbor: int) -> bool:
        occ = workers(s, p)
        for i, b in enumerate(s.players[p].buildings):
            if occ >> i & 1 and not _B_NOPAY[b]:
                return True
        return False

    def codes(self, s: State, p: int, region: int, deck: int, harbor: int,
              flags: int = 0) -> list[int]:
        return payment_codes(s, p, True)

    def apply(self, s: State, p: int, c: int) -> tuple[int, int]:
        pay_worker(s, p, c & A.ARG)
        return -1, -1

    def why_not(self, s: State, p: int, c: int, harbor: int) -> Message:
        bd = D.BUILDINGS[c & A.ARG]
        if bd.no_payment and workers(s, p) and c & A.ARG in s.players[p].buildings:
            return msg(NOT_IN_ACTIONS, building=Term("building", bd.name))
        return no_worker(c & A.ARG)

    def unavailable(self, s: State, p: int, harbor: int) -> str | Message:
        return msg(UNAVAILABLE)

    def describe(self, s: State, p: int, c: int) -> str | Message:
        return msg(PAY, seat=Seat(p), building=Term("building", D.BUILDINGS[c & A.ARG].name))


# --------------------------------------------------------------------------- refusals
NOT_IN_ACTIONS: Final = define(
    "payment.refused.phase", "workers on your {building} cannot be paid in the Action phase (R15)")
