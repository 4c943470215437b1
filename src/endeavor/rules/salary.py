"""Salary (R7) and paying workers: the one place a worker is paid.

In the Salary phase a player pays up to their Salary Level (Wealth level) workers back
to the Harbor. With no more workers than payments, everyone is paid automatically (P2);
otherwise the player chooses whom, one at a time (the :class:`Salary` decision). Then
the rule modules' Salary effects run (Improved Cannons return, Galleons).

Components on circles that are not workers (an Improved Cannon: the ``unpayable``
hook) are never paid and never counted as workers. A Payment action (:mod:`.payment`)
pays one worker through :func:`pay_worker` too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .. import actions as A
from .. import data as D
from ..decision import DecisionType, Frame, not_now
from ..events import Event
from ..frames import F_SALARY, PH_SALARY, SALARY_LEFT
from ..messages import Count, Message, Seat, Term, define, msg, noun

if TYPE_CHECKING:
    from ..actions import Action
    from ..state import State

_C: Final = A.code
_B_NOPAY: Final = tuple(b.no_payment for b in D.BUILDINGS)
_LEVEL: Final = D.TRACK_LEVEL
_PAY: Final = A.code(A.V_PAY)


def unpayable(s: State, p: int) -> int:
    """Bitmask of ``p``'s building slots whose occupant is not a worker."""
    m = 0
    for i, e in s.rules.h_unpayable:
        m |= e.unpayable(s, i, p)
    return m


def workers(s: State, p: int) -> int:
    """Bitmask of ``p``'s building slots holding a worker (a disc)."""
    occ = s.players[p].taken_circles
    if s.rules.h_unpayable:
        occ &= ~unpayable(s, p)
    return occ


def payment_codes(s: State, p: int, action_phase: bool) -> list[int]:
    """``pay <building>`` codes for ``p``'s payable workers, sorted; in the Action phase
    never a worker on a no-payment building (R15)."""
    pl = s.players[p]
    occ = workers(s, p)
    seen = 0
    out = []
    for i, b in enumerate(pl.buildings):
        if occ >> i & 1 and not (seen >> b & 1):
            if action_phase and _B_NOPAY[b]:  # R15
                continue
            seen |= 1 << b
            out.append(_PAY | b)
    out.sort()
    return out


def pay_worker(s: State, p: int, b: int) -> None:
    """Pay the worker on ``p``'s leftmost staffed building of type ``b`` (P4)."""
    pl = s.players[p]
    occ = workers(s, p)
    for i, x in enumerate(pl.buildings):
        if x == b and occ >> i & 1:
            pl.taken_circles &= ~(1 << i)
            pl.harbor += 1
            return
    raise AssertionError("no worker to pay")  # pragma: no cover


def pay_all(s: State, p: int) -> int:
    """Pay every worker of ``p``; returns how many."""
    pl = s.players[p]
    w = workers(s, p)
    k = w.bit_count()
    pl.harbor += k
    pl.taken_circles &= ~w
    return k


def done(s: State, p: int) -> None:
    """After ``p``'s workers are paid: the rule modules' Salary effects (R7)."""
    for i, e in s.rules.h_salary:
        e.salary(s, i, p)


SALARY = define("salary.paid", "{seat} pays {workers} back to the Harbor (Salary Level {level})",
                you="You pay {workers} back to the Harbor (Salary Level {level})")


PROMPT = define(
    "salary.prompt",
    "Salary: {seat} pays {workers} back to their Harbor ({working} working, Salary Level "
    "{level}); the others stay on their buildings",
    you="Salary: pay {workers} back to your Harbor ({working} working, Salary Level {level}); "
    "the others stay on their buildings")
PROMPT_MORE = define(
    "salary.prompt.more",
    "Salary: {seat} pays {workers} back to their Harbor ({paid} of their Salary Level "
    "{level} paid; {working} still working); the others stay on their buildings",
    you="Salary: pay {workers} back to your Harbor ({paid} of your Salary Level {level} "
    "paid; {working} still working); the others stay on their buildings")
PAY = define("salary.pay", "Pay the worker on their {building}: it returns to their Harbor",
             you="Pay the worker on your {building}: it returns to your Harbor")
noun("more worker")
#: the payment options' messages made so far, by seat, then building
_PAY_MESSAGES: tuple[dict[int, Message], ...] = tuple({} for _ in range(16))


def _salary_message(p: int, count: int, level: int) -> Message:
    return msg(SALARY, seat=Seat(p), workers=Count(count, "worker"), level=level)


def begin(s: State, p: int) -> None:
    """``p``'s Salary step: pay everyone if possible (P2), else ask."""
    a = s.players[p].attr[D.WEALTH]
    level = _LEVEL[a] if a < 16 else 5  # Player.level(WEALTH), inlined
    w = workers(s, p)
    count = w.bit_count()
    if count <= level:  # R7: everyone can be paid (P2)
        pay_all(s, p)
        if s.ev is not None and count:
            s.ev.append(Event("salary", p, None, None, _salary_message, (p, count, level)))
        done(s, p)
    else:
        s.stack.append((F_SALARY, p, level))


class Salary(DecisionType):
    """More workers than payments: ``p`` chooses whom to pay, one at a time (R7)."""

    frame = F_SALARY
    kind = "salary"
    length = 3
    ranges = ((1, 5),)
    phases = (PH_SALARY,)

    def codes(self, s: State, f: Frame) -> list[int]:
        return payment_codes(s, f[1], False)

    def apply(self, s: State, f: Frame, c: int) -> None:
        p = f[1]
        pay_worker(s, p, c & A.ARG)
        left = f[SALARY_LEFT] - 1
        count = workers(s, p).bit_count()
        if 0 < left < count:
            s.stack.append((F_SALARY, p, left))
        else:
            if left >= count:
                pay_all(s, p)
            done(s, p)

    def why_not(self, s: State, f: Frame, action: Action) -> Message:
        if action.verb != A.V_PAY:
            return not_now(action)
        return no_worker(action.arg)

    def prompt(self, s: State, f: Frame) -> Message:
        p = f[1]
        count = workers(s, p).bit_count()
        level = s.players[p].level(D.WEALTH)
        left = f[SALARY_LEFT]
        if left < level:  # some paid already: the words count what is left to pay
            return msg(PROMPT_MORE, seat=Seat(p), workers=Count(left, "more worker"),
                       paid=level - left, level=level, working=count)
        return msg(PROMPT, seat=Seat(p), workers=Count(left, "worker"), working=count,
                   level=level)

    def option(self, s: State, f: Frame, action: Action) -> Message:
        made = _PAY_MESSAGES[f[1]]
        m = made.get(action.arg)  # made once per (seat, building)
        if m is None:
            m = made[action.arg] = msg(PAY, seat=Seat(f[1]), building=Term(
                "building", D.BUILDINGS[action.arg].name))
        return m


# --------------------------------------------------------------------------- refusals
NO_WORKER: Final = define("salary.refused.worker", "you have no worker on a {building}")


def no_worker(b: int) -> Message:
    """The refusal of a payment for building ``b``, where the seat deciding has no worker."""
    return msg(NO_WORKER, building=Term("building", D.BUILDINGS[b].name))
