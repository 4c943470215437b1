"""The Action phase's decisions (R8, R9, R23, P5, P15, P16): choosing a source,
resolving its action(s), and the rule modules' own steps.

* :class:`ActionChoice` (``F_ACTION``): activate a building (a Harbor disc onto its
  circle), spend a blue token, use a module's own source, or pass. A source is offered
  only if one of its actions can be carried out (R8, P6).
* :class:`Effect` (``F_EFFECT``): the action(s) of the chosen source: one kind, a choice
  ("/"), or a "+" pair, one or both in either order; the second half (mode ``SECOND``)
  may be declined with ``done``. Since R23 the second half may be anywhere; option
  ``plus_same_region`` keeps the classic same-region / same-deck condition. An
  Exploit ability may replace a normal action of the kind it answers (P15), and a
  module may offer a follow-up normal action (P16) with :func:`push_followup`.
* :class:`ModuleStep` (``F_EXPLOIT``): a step a rule module asked for
  (``api.push_step``); the module lists its codes and applies the choice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .. import actions as A
from .. import data as D
from ..decision import DecisionType, Frame, not_now
from ..frames import (
    EFFECT_FLAGS,
    EFFECT_KIND1,
    EFFECT_KIND2,
    EFFECT_MODE,
    EXPLOIT_MODULE,
    F_ACTION,
    F_EFFECT,
    F_EXPLOIT,
    FL_MASK,
    FL_NORMAL_ONLY,
    PH_ACTIONS,
    PH_CONSTRUCTION,
    PH_DISCARD,
    PH_GROWTH,
    PH_SALARY,
    PH_SETUP,
    SECOND,
    SRC_SHIFT,
    SRC_TOKEN,
)
from ..messages import OR, SEMICOLON, Items, Message, Seat, Term, define, msg
from .kinds import VERB_KIND
from .payment import PAY
from .words import region_term

#: an Exploit's ability offered in place of a normal action
INSTEAD: Final = define("sources.instead", "{ability} (instead of a normal {action})")

# the Action phase's choice: its options ("{what}": the source's action kinds)
KINDS_NONE: Final = define("sources.kinds.none", "no action")
KINDS_CHOICE: Final = define("sources.kinds.choice", "{a} / {b}")
KINDS_BOTH: Final = define("sources.kinds.both", "{a} + {b}")
PASS: Final = define("sources.pass", "Pass: they take no more actions this round",
                     you="Pass: you take no more actions this round")
ACTIVATE: Final = define("sources.activate",
                         "Activate their {building} with a Harbor disc: {what}",
                         you="Activate your {building} with a Harbor disc: {what}")
ACTIVATE_BOTH: Final = define(
    "sources.activate.both",
    "Activate their {building} with a Harbor disc: {what} (one or both, in either order)",
    you="Activate your {building} with a Harbor disc: {what} (one or both, in either order)")
ACTIVATE_CHOICE: Final = define(
    "sources.activate.choice",
    "Activate their {building} with a Harbor disc: {what} (one of them)",
    you="Activate your {building} with a Harbor disc: {what} (one of them)")
SPEND: Final = define("sources.spend",
                      "Spend their {token} token (it leaves the game): {what}",
                      you="Spend your {token} token (it leaves the game): {what}")
# its prompt, with the sources not offered and why
PROMPT: Final = define(
    "sources.prompt",
    "{seat}'s turn in the Action phase: activate a building (1 Harbor disc; they have "
    "{harbor}), use a token, or pass{blocked}",
    you="Your turn in the Action phase: activate a building (1 Harbor disc; you have "
    "{harbor}), use a token, or pass{blocked}")
BLOCKED: Final = define("sources.blocked", ". Not available: {reasons}")
BLOCKED_NO_DISC: Final = define(
    "sources.blocked.no_disc", "{building} (needs a disc in their Harbor to activate)",
    you="{building} (needs a disc in your Harbor to activate)")
BLOCKED_BUILDING: Final = define("sources.blocked.building", "{building} ({reasons})")
BLOCKED_TOKEN: Final = define("sources.blocked.token", "{token} token ({reasons})")
NEEDS_ONE: Final = define(
    "sources.needs.one",
    "{action} needs a Harbor disc besides the one that activates the building, and {seat} "
    "has {have}",
    you="{action} needs a Harbor disc besides the one that activates the building, and you "
    "have {have}")
NEEDS_MORE: Final = define(
    "sources.needs.more",
    "{action} needs {more} Harbor discs besides the one that activates the building, and "
    "{seat} has {have}",
    you="{action} needs {more} Harbor discs besides the one that activates the building, "
    "and you have {have}")
# the effect frames' prompts: the source ("{source}") and what it offers ("{what}")
SOURCE_BUILDING: Final = define("sources.source.building", "{building}")
SOURCE_TOKEN: Final = define("sources.source.token", "{token} token")
EFFECT: Final = define("sources.effect",
                       "{seat}'s {source}: {what}{extra} (Harbor: {harbor})",
                       you="Your {source}: {what}{extra} (Harbor: {harbor})")
EFFECT_BARE: Final = define("sources.effect.bare", "{what}{extra} (Harbor: {harbor})")
WHAT_BOTH: Final = define(
    "sources.effect.both", "{a} + {b}: {seat} chooses the first action; the other may follow",
    you="{a} + {b}: choose the first action; the other may follow")
WHAT_CHOICE: Final = define("sources.effect.choice", "{a} or {b}: {seat} chooses one action",
                            you="{a} or {b}: choose one action")
WHAT_ONE: Final = define("sources.effect.one", "{a}: {seat} chooses where",
                         you="{a}: choose where")
ABILITY: Final = define("sources.effect.ability", " (or an Exploit ability)")
WHERE_REGION: Final = define("sources.where.region", " in {region}")
WHERE_DECK: Final = define("sources.where.deck", " from the same deck")
FOLLOWUP: Final = define(
    "sources.followup",
    "{seat} may now take a normal {what} action{where}, or done (Harbor: {harbor})",
    you="You may now take a normal {what} action{where}, or done (Harbor: {harbor})")
SECOND_OF: Final = define(
    "sources.second.of",
    "The second action of {seat}'s {source}: {what}{where}, or done to decline it "
    "(Harbor: {harbor})",
    you="The second action of your {source}: {what}{where}, or done to decline it "
    "(Harbor: {harbor})")
SECOND_BARE: Final = define(
    "sources.second",
    "{seat}'s second action: {what}{where}, or done to decline it (Harbor: {harbor})",
    you="The second action: {what}{where}, or done to decline it (Harbor: {harbor})")
DONE_DECLINE: Final = define("sources.done.decline", "Done: decline this action")
_DECLINE: Final = msg(DONE_DECLINE)
DONE_STOP: Final = define("sources.done.stop", "Done: stop here")

if TYPE_CHECKING:
    from ..actions import Action
    from ..state import State
    from .module import RuleModule

_C: Final = A.code
_DONE: Final = A.code(A.V_DONE)
_PASS: Final = A.code(A.V_PASS)
_ACT: Final = A.code(A.V_ACT)
_B_SPEC: Final = tuple((b.mode, b.kind1, b.kind2) for b in D.BUILDINGS)
_BOTH: Final = D.BOTH
_B_ACT: Final = tuple(b.activatable for b in D.BUILDINGS)
#: per building type: bitmask ``1 << kind`` of the action kinds its activation offers
#: (0: it cannot be activated)
_B_KINDS: Final = tuple(((1 << b.kind1 if b.kind1 >= 0 else 0)
                         | (1 << b.kind2 if b.kind2 >= 0 else 0))
                        if b.activatable else 0 for b in D.BUILDINGS)
#: per blue token type - 4: the bitmask of its action kinds, and its ``use`` code
_T_KINDS: Final = tuple((1 << k1 if k1 >= 0 else 0) | (1 << k2 if k2 >= 0 else 0)
                        for _, k1, k2 in D.TOKEN_ACTIONS)
_USE: Final = tuple(A.code(A.V_USE, t + 4) for t in range(4))
#: per seat and building type: the effect frame its activation pushes (frames are
#: immutable, so one tuple serves every game)
_B_FRAME: Final = tuple(tuple((F_EFFECT, p, mode, k1, k2, -1, -1, (b + 1) << SRC_SHIFT)
                              for b, (mode, k1, k2) in enumerate(_B_SPEC)) for p in range(8))
_SHIFT: Final = A.SHIFT
_ARG: Final = A.ARG
_V_ACT: Final = A.V_ACT
_V_PASS: Final = A.V_PASS
_V_DONE: Final = A.V_DONE
_V_EXPLOIT: Final = A.V_EXPLOIT
#: the action kind of each normal-action verb (-1: none), by verb
_VERB_KIND: Final = tuple(VERB_KIND.get(v, -1) for v in range(A.V_EXPLOIT))
#: the action kind of a one-bit mask ``1 << kind``
_KIND_OF_BIT: Final = tuple(max(m.bit_length() - 1, 0) for m in range(1 << (D.DRAW + 1)))


# --------------------------------------------------------------------------- sources
def kind_possible(s: State, p: int, kind: int, harbor: int) -> bool:
    """R8: can ``p`` carry out an action of ``kind`` with ``harbor`` discs left, as a
    normal action or as an ability of an Exploit they hold a Shield on?"""
    if s.rules.kinds[kind].possible(s, p, harbor):
        return True
    return bool(s.ex) and ability_possible(s, p, kind, harbor)


def ability_possible(s: State, p: int, kind: int, harbor: int) -> bool:
    """Does an Exploit ``p`` holds a Shield on offer an ability answering ``kind`` with
    ``harbor`` discs left?"""
    filled = s.filled
    length = s.info.trk_len
    for i, e, r1, r2 in s.rules.exploit_keys:
        if (r1 and filled[r1] != length[r1]) or (r2 and filled[r2] != length[r2]):
            continue  # dormant (a region is closed): no Shield
        if s.has_shield(p, i) and e.abilities(s, i, p, kind, harbor):
            return True
    return False


def abilities_after_activation(s: State, p: int, slot: int, kinds: int,
                               harbor: int) -> bool:
    """R8 for an Exploit's abilities: can ``p`` answer one of ``kinds`` (a bitmask of
    ``1 << kind``) with an ability once the building in Seaside ``slot`` is activated,
    ``harbor`` discs left and that building occupied? (The Dutch East India Company's
    Draw rebuilds only an unoccupied building: activating the last free one leaves it
    nothing to rebuild.)"""
    pl = s.players[p]
    occ = pl.taken_circles
    pl.taken_circles = occ | 1 << slot
    try:
        rest = kinds
        while rest:
            low = rest & -rest
            rest ^= low
            if ability_possible(s, p, _KIND_OF_BIT[low], harbor):
                return True
        return False
    finally:
        pl.taken_circles = occ


def possible_kinds(s: State, p: int, harbor: int, wanted: int, known: int,
                   able: int) -> tuple[int, int]:
    """:func:`kind_possible` for the kinds in the bitmask ``wanted`` (``1 << kind``
    bits) not yet in ``known``, lowest first, until one is possible; returns the updated
    (``known``, ``able``) bitmasks, ``able`` holding the kinds found possible. Lets one
    decision ask each kind at most once."""
    rest = wanted & ~known
    while rest:
        low = rest & -rest
        rest ^= low
        known |= low
        if kind_possible(s, p, _KIND_OF_BIT[low], harbor):
            return known, able | low
    return known, able


def source_possible(s: State, p: int, k1: int, k2: int, harbor: int) -> bool:
    """R8, P6: can a source of these kinds do anything with ``harbor`` discs left?"""
    return kind_possible(s, p, k1, harbor) or (
        k2 >= 0 and kind_possible(s, p, k2, harbor))


def building_possible(s: State, p: int, b: int, harbor: int) -> bool:
    """Can ``p``'s building type ``b`` do anything with ``harbor`` discs left?"""
    _, k1, k2 = _B_SPEC[b]
    return source_possible(s, p, k1, k2, harbor)


def push_building(s: State, p: int, b: int) -> None:
    """Resolve the action(s) of ``p``'s building type ``b`` next (its circle is taken)."""
    mode, k1, k2 = _B_SPEC[b]
    s.stack.append((F_EFFECT, p, mode, k1, k2, -1, -1, (b + 1) << SRC_SHIFT))


def push_followup(s: State, p: int, kind: int, region: int = -1, deck: int = -1,
                  flags: int = FL_NORMAL_ONLY, kind2: int = -1) -> bool:
    """P16: offer ``p`` a declinable follow-up action of ``kind`` (or, if ``kind2`` >= 0,
    of either kind), restricted to ``region`` / ``deck`` if >= 0; skipped (False) when
    it has no possible target."""
    frame = (F_EFFECT, p, SECOND, kind, kind2, region, deck, flags)
    if effect_codes(s, frame) == [_DONE]:
        return False
    s.stack.append(frame)
    return True


def module_of(s: State, c: int) -> int:
    """Index of the module in play that owns action code ``c``."""
    n = ((c >> A.SHIFT) - A.V_EXPLOIT) // A.EXPLOIT_VERBS + 1
    for i, e in enumerate(s.ex):
        if e.number == n:
            return i
    raise AssertionError(f"no module in play owns action {c}")  # pragma: no cover


def source_words(mode: int, k1: int, k2: int) -> str:
    """``"Ship"``, ``"Ship / Draw"`` (one of), ``"Ship + Occupy"`` (one or both)."""
    if k1 < 0:
        return "no action"
    if k2 < 0:
        return D.KIND_NAMES[k1]
    sep = " / " if mode == D.CHOICE else " + "
    return D.KIND_NAMES[k1] + sep + D.KIND_NAMES[k2]


def _action(k: int) -> Term:
    return Term("action", D.KIND_NAMES[k])


def source_message(mode: int, k1: int, k2: int) -> Message | Term:
    """:func:`source_words` as a message argument."""
    if k1 < 0:
        return msg(KINDS_NONE)
    if k2 < 0:
        return _action(k1)
    return msg(KINDS_CHOICE if mode == D.CHOICE else KINDS_BOTH, a=_action(k1), b=_action(k2))


def _source_reasons(s: State, p: int, k1: int, k2: int, harbor: int,
                    activation: bool = False) -> tuple[str | Message, ...]:
    """Why a source of kinds ``k1`` / ``k2`` can do nothing with ``harbor`` discs left:
    messages (or a rule area's words) said to ``p``, one per reason; ``activation``: a
    building, whose activation took one more disc (then a kind that more discs would
    allow says how many it needs besides that one)."""
    reasons = [_kind_reason(s, p, k, harbor, activation) for k in (k1, k2) if k >= 0]
    return tuple(dict.fromkeys(reasons))


def _kind_reason(s: State, p: int, kind: int, harbor: int,
                 activation: bool) -> str | Message:
    """Why no action of ``kind`` is possible (see :func:`_source_reasons`)."""
    k = s.rules.kinds[kind]
    if not activation:
        return k.unavailable(s, p, harbor)
    more = next((h for h in range(harbor + 1, harbor + 4) if kind_possible(s, p, kind, h)),
                -1)
    if more < 0:  # not for want of discs
        return k.unavailable(s, p, harbor + 3)
    if more == 1:
        return msg(NEEDS_ONE, seat=Seat(p), action=Term("action", k.name), have=harbor + 1)
    return msg(NEEDS_MORE, seat=Seat(p), action=Term("action", k.name), more=more,
               have=harbor + 1)



def _choice_words() -> dict[int, tuple[str, dict[str, object]]]:
    """The words of the Action phase's own choices (pass, a building, a blue token):
    they depend on the action only; each as a message id and its arguments but the
    seat deciding."""
    out: dict[int, tuple[str, dict[str, object]]] = {_C(A.V_PASS, 0): (PASS, {})}
    for b, bd in enumerate(D.BUILDINGS):
        if not bd.activatable:
            continue
        how = ACTIVATE_BOTH if bd.mode == D.BOTH else \
            ACTIVATE_CHOICE if bd.mode == D.CHOICE else ACTIVATE
        out[_C(A.V_ACT, b)] = (how, {"building": Term("building", bd.name),
                                     "what": source_message(bd.mode, bd.kind1, bd.kind2)})
    for t in range(4, 8):
        mode, k1, k2 = D.TOKEN_ACTIONS[t - 4]
        out[_C(A.V_USE, t)] = (SPEND, {"token": Term("token", D.TOKEN_NAMES[t]),
                                       "what": source_message(mode, k1, k2)})
    return out


_CHOICE_WORDS: Final = _choice_words()
#: the choices' messages made so far, by seat, then code (one dict per seat: the key is
#: the code itself, no int made per lookup)
_CHOICE_MESSAGES: Final[tuple[dict[int, Message], ...]] = tuple({} for _ in range(16))

class ActionChoice(DecisionType):
    frame = F_ACTION
    kind = "action"
    phases = (PH_ACTIONS,)

    def codes(self, s: State, f: Frame) -> list[int]:
        p = f[1]
        pl = s.players[p]
        h = pl.harbor
        out = []
        kinds_of = s.rules.kinds
        ex = s.ex
        if h >= 1:
            hh = h - 1
            occ = pl.taken_circles
            seen = known = able = 0  # types seen; kinds asked / found possible (R8)
            for i, b in enumerate(pl.buildings):
                if occ >> i & 1 or seen >> b & 1:
                    continue
                seen |= 1 << b
                kinds = _B_KINDS[b]  # 0: not activatable
                if kinds and not kinds & able:
                    rest = kinds & ~known
                    while rest:  # the normal action of each kind not asked yet
                        low = rest & -rest
                        rest ^= low
                        known |= low
                        if kinds_of[_KIND_OF_BIT[low]].possible(s, p, hh):
                            able |= low
                            break
                if kinds & able or (ex and kinds and abilities_after_activation(
                        s, p, i, kinds, hh)):
                    out.append(_ACT | b)
            if len(out) > 1:
                out.sort()
        blue = pl.blue
        if blue[0] or blue[1] or blue[2] or blue[3]:
            known = able = 0  # now with h Harbor discs
            for t in range(4):
                if blue[t]:
                    kinds = _T_KINDS[t]
                    if not kinds & able and kinds & ~known:
                        known, able = possible_kinds(s, p, h, kinds, known, able)
                    if kinds & able:
                        out.append(_USE[t])
        if s.rules.h_extra_sources:
            extra = False
            for i, e in s.rules.h_extra_sources:
                more = e.extra_sources(s, i, p)
                if more:
                    out += more
                    extra = True
            if extra:
                out.sort()
        out.append(_PASS)
        return out

    def apply(self, s: State, f: Frame, c: int) -> None:
        p = f[1]
        verb = c >> _SHIFT
        arg = c & _ARG
        pl = s.players[p]
        if verb == _V_PASS:
            s.passed |= 1 << p
            s.rules.after_pass(s, p)
            return
        if verb >= _V_EXPLOIT:  # a module's own source (e.g. an Improved Cannon)
            i = module_of(s, c)
            s.ex[i].apply(s, i, p, c)
            return
        if verb == _V_ACT:
            occ = pl.taken_circles
            for i, b in enumerate(pl.buildings):
                if b == arg and not (occ >> i & 1):
                    pl.taken_circles = occ | (1 << i)
                    break
            pl.harbor -= 1
            s.stack.append(_B_FRAME[p][arg])
            return
        # V_USE
        pl.blue[arg - 4] -= 1
        pl.changed()
        s.spent[arg] += 1
        mode, k1, k2 = D.TOKEN_ACTIONS[arg - 4]
        src = SRC_TOKEN + arg
        s.stack.append((F_EFFECT, p, mode, k1, k2, -1, -1, src << SRC_SHIFT))

    def why_not(self, s: State, f: Frame, action: Action) -> Message:
        verb, arg = action.verb, action.arg
        if A.V_EXPLOIT <= verb < A.V_DONE:
            return exploit_reason(s, f, action)
        if verb not in (A.V_ACT, A.V_USE, A.V_PASS):
            return not_now(action)
        pl = s.players[f[1]]
        if verb == A.V_ACT:
            name = Term("building", D.BUILDINGS[arg].name)
            if arg not in pl.buildings:
                return msg(NO_BUILDING, building=name)
            if all(pl.taken_circles >> i & 1 for i, b in enumerate(pl.buildings) if b == arg):
                return msg(STAFFED, building=name)
            if pl.harbor < 1:
                return msg(NO_HARBOR_DISC)
            _, k1, k2 = _B_SPEC[arg]
            return msg(NOTHING_NOW, reasons=Items(
                _source_reasons(s, f[1], k1, k2, pl.harbor - 1, True), SEMICOLON))
        if verb == A.V_USE and not pl.blue[arg - 4]:
            return msg(NO_TOKEN, token=Term("token", D.TOKEN_NAMES[arg]))
        _, k1, k2 = D.TOKEN_ACTIONS[arg - 4]
        return msg(NOTHING_NOW, reasons=Items(_source_reasons(s, f[1], k1, k2, pl.harbor),
                                              SEMICOLON))

    def prompt(self, s: State, f: Frame) -> Message:
        p = f[1]
        blocked = self.unavailable(s, p)
        return msg(PROMPT, seat=Seat(p), harbor=s.players[p].harbor,
                   blocked=msg(BLOCKED, reasons=Items(tuple(blocked), SEMICOLON))
                   if blocked else "")

    @staticmethod
    def unavailable(s: State, p: int) -> list[Message]:
        """Why each of ``p``'s unstaffed buildings and held tokens is not offered."""
        pl = s.players[p]
        legal = set(s.legal_codes())
        out = []
        seen = 0
        for i, b in enumerate(pl.buildings):
            if pl.taken_circles >> i & 1 or not _B_ACT[b] or seen >> b & 1:
                continue
            seen |= 1 << b
            if _C(A.V_ACT, b) in legal:
                continue
            name = Term("building", D.BUILDINGS[b].name)
            if pl.harbor < 1:
                out.append(msg(BLOCKED_NO_DISC, seat=Seat(p), building=name))
            else:
                _, k1, k2 = _B_SPEC[b]
                reasons = _source_reasons(s, p, k1, k2, pl.harbor - 1, True)
                out.append(msg(BLOCKED_BUILDING, building=name,
                               reasons=Items(reasons, SEMICOLON)))
        for t in range(4):
            if pl.blue[t] and _C(A.V_USE, t + 4) not in legal:
                _, k1, k2 = D.TOKEN_ACTIONS[t]
                reasons = _source_reasons(s, p, k1, k2, pl.harbor)
                out.append(msg(BLOCKED_TOKEN, token=Term("token", D.TOKEN_NAMES[t + 4]),
                               reasons=Items(reasons, SEMICOLON)))
        return out

    def option(self, s: State, f: Frame, action: Action) -> str | Message:
        m = _CHOICE_MESSAGES[f[1]].get(action.code)  # never changes: made once per seat
        if m is not None:
            return m
        words = _CHOICE_WORDS.get(action.code)
        if words is not None:
            id, args = words
            m = _CHOICE_MESSAGES[f[1]][action.code] = msg(id, seat=Seat(f[1]), **args)
            return m
        i = module_of(s, action.code)
        return s.ex[i].describe_action(s, i, action.code)


# --------------------------------------------------------------------------- effects
def effect_codes(s: State, f: Frame) -> list[int]:
    """The legal codes of effect frame ``f``: normal targets of its kind(s), the
    abilities of the Exploits the player holds a Shield on, and ``done`` for a second
    half or follow-up; sorted."""
    _, p, mode, k1, k2, region, deck, flags = f
    h = s.players[p].harbor
    kinds = s.rules.kinds
    out = kinds[k1].codes(s, p, region, deck, h, flags)
    if k2 >= 0 and k2 != k1:
        out += kinds[k2].codes(s, p, region, deck, h, flags)
    if s.ex and not flags & FL_NORMAL_ONLY:
        filled = s.filled
        length = s.info.trk_len
        for i, e, r1, r2 in s.rules.exploit_keys:
            if (r1 and filled[r1] != length[r1]) or (r2 and filled[r2] != length[r2]):
                continue  # dormant (a region is closed): no Shield
            if s.has_shield(p, i):
                out += e.abilities(s, i, p, k1, h)
                if k2 >= 0 and k2 != k1:
                    out += e.abilities(s, i, p, k2, h)
    if mode == SECOND:
        out.append(_DONE)
    out.sort()
    return out


def second_half(s: State, f: Frame, p: int, kind: int, region: int, deck: int,
                base: int) -> None:
    """Queue the other half of a "+" source below any frames the first pushed; skipped
    when it has no possible target (P5). R23: anywhere, unless ``plus_same_region``."""
    rest = f[EFFECT_KIND2] if kind == f[EFFECT_KIND1] else f[EFFECT_KIND1]
    if not s.rules.plus_same_region:
        region = deck = -1
    frame = (F_EFFECT, p, SECOND, rest, -1, region, deck, f[EFFECT_FLAGS] & ~FL_MASK)
    codes = effect_codes(s, frame)
    if codes != [_DONE]:
        stack = s.stack
        if base == len(stack):  # on top: its codes are the next legal actions
            stack.append(frame)
            s._legal = codes
        else:
            stack.insert(base, frame)


def exploit_reason(s: State, f: Frame, action: Action) -> Message:
    """Why an Exploit's action is not legal now (refusals only): a message said to the
    seat deciding."""
    n = ((action.verb - A.V_EXPLOIT) // A.EXPLOIT_VERBS) + 1
    i = next((j for j, e in enumerate(s.ex) if e.number == n), -1)
    if i < 0:
        return msg(NOT_IN_GAME)
    e = s.ex[i]
    name = Term("exploit" if e.is_exploit else "module", e.name)
    if e.is_exploit and not s.exploit_active(i):
        r1, r2 = e.regions
        return msg(DORMANT, exploit=name, first=region_term(r1), second=region_term(r2))
    if e.is_exploit and f[0] == F_EFFECT and not s.has_shield(f[1], i):
        r1, r2 = e.regions
        return msg(NO_SHIELD, exploit=name, first=region_term(r1), second=region_term(r2))
    return msg(NOT_OFFERED, exploit=name)


class Effect(DecisionType):
    frame = F_EFFECT
    kind = "effect"
    length = 8
    #: mode; kinds; region and deck restrictions; flags (low bits) + source (high bits)
    ranges = ((0, 3), (0, 4), (-1, 4), (-1, D.NREGIONS - 1), (-1, D.PILE), (0, 0xFFFF))
    phases = (PH_ACTIONS,)

    def codes(self, s: State, f: Frame) -> list[int]:
        return effect_codes(s, f)

    def apply(self, s: State, f: Frame, c: int) -> None:
        verb = c >> _SHIFT
        if verb == _V_DONE:
            return
        p = f[1]
        base = len(s.stack)
        rules = s.rules
        if verb >= _V_EXPLOIT:  # an ability replaces the normal action (P15)
            i = module_of(s, c)
            e = s.ex[i]
            e.apply(s, i, p, c)
            kind = e.ability_kind(c)
            region = deck = -1
        else:
            kind = _VERB_KIND[verb]
            region, deck = rules.kinds[kind].apply(s, p, c)
        s.turn |= 1 << kind
        if rules.h_action:
            for j, m in rules.h_action:
                m.on_action(s, j, p, kind, c, f[EFFECT_FLAGS] >> SRC_SHIFT, region)
        if f[EFFECT_MODE] == _BOTH:
            second_half(s, f, p, kind, region, deck, base)

    def why_not(self, s: State, f: Frame, action: Action) -> Message:
        verb = action.verb
        if A.V_EXPLOIT <= verb < A.V_DONE:
            return exploit_reason(s, f, action)
        if verb == A.V_DONE:
            return msg(NOT_DECLINED)
        if verb not in VERB_KIND:
            return not_now(action)
        ek = VERB_KIND[verb]
        _, p, _, k1, k2, region, deck = f[:7]
        if ek not in (k1, k2):
            allowed = tuple(Term("action", D.KIND_NAMES[k]) for k in (k1, k2) if k >= 0)
            return msg(ALLOWS, allowed=Items(allowed, SLASH),
                       action=Term("action", D.KIND_NAMES[ek]))
        arg = action.arg
        if deck >= 0 and ek == D.DRAW:
            d = arg if verb == A.V_DRAW else D.PILE
            if d != deck:
                return msg(SAME_DECK)
        if region >= 0 and ek in (D.SHIP, D.OCCUPY, D.ATTACK):
            r = arg if verb in (A.V_SHIP, A.V_SEA) else D.SITES[arg].region
            if r != region:
                return msg(SAME_REGION, region=region_term(region))
        return s.rules.kinds[ek].why_not(s, p, action.code, s.players[p].harbor)

    def kind_of(self, s: State, f: Frame) -> str:
        if f[EFFECT_MODE] != SECOND:
            return "effect"
        return "follow_up" if f[EFFECT_FLAGS] & FL_MASK else "second_action"

    def prompt(self, s: State, f: Frame) -> Message:
        _, p, mode, k1, k2, region, deck, flags = f
        src = flags >> SRC_SHIFT
        source: Message | None = None
        if 0 < src <= len(D.BUILDINGS):
            source = msg(SOURCE_BUILDING, building=Term("building", D.BUILDINGS[src - 1].name))
        elif src >= SRC_TOKEN:
            source = msg(SOURCE_TOKEN, token=Term("token", D.TOKEN_NAMES[src - SRC_TOKEN]))
        h = s.players[p].harbor
        seat = Seat(p)
        if mode == SECOND:
            where: Message | str = ""
            if region >= 0:
                where = msg(WHERE_REGION, region=region_term(region))
            elif deck >= 0:
                where = msg(WHERE_DECK)
            what: Term | Items = _action(k1) if k2 < 0 else Items(
                (_action(k1), _action(k2)), OR)
            if flags & FL_MASK:
                return msg(FOLLOWUP, seat=seat, what=what, where=where, harbor=h)
            if source is not None:
                return msg(SECOND_OF, seat=seat, source=source, what=what, where=where,
                           harbor=h)
            return msg(SECOND_BARE, seat=seat, what=what, where=where, harbor=h)
        if mode == D.BOTH:
            asked = msg(WHAT_BOTH, seat=seat, a=_action(k1), b=_action(k2))
        elif mode == D.CHOICE:
            asked = msg(WHAT_CHOICE, seat=seat, a=_action(k1), b=_action(k2))
        else:
            asked = msg(WHAT_ONE, seat=seat, a=_action(k1))
        extra = msg(ABILITY) if s.ex and any(
            c >> A.SHIFT >= A.V_EXPLOIT and c != _DONE for c in s.legal_codes()) else ""
        if source is not None:
            return msg(EFFECT, seat=seat, source=source, what=asked, extra=extra, harbor=h)
        return msg(EFFECT_BARE, what=asked, extra=extra, harbor=h)

    def option(self, s: State, f: Frame, action: Action) -> str | Message:
        verb = action.verb
        if verb == A.V_DONE:
            return _DECLINE
        p = f[1]
        if verb >= A.V_EXPLOIT:
            i = module_of(s, action.code)
            e = s.ex[i]
            text = e.describe_action(s, i, action.code)
            kind = e.kinds.get(e.local_verb(action.code))
            if kind is not None and e.is_exploit:
                return msg(INSTEAD, ability=text, action=Term("action", D.KIND_NAMES[kind]))
            return text
        return s.rules.kinds[VERB_KIND[verb]].describe(s, p, action.code)


# --------------------------------------------------------------------------- module steps
class ModuleStep(DecisionType):
    frame = F_EXPLOIT
    kind = "exploit"
    length = 6
    #: module index (up to 3 Exploits and the option-driven modules; ``check`` then
    #: asks for one in play), step, its two ints
    ranges = ((0, 7), (-1, 1 << 16), (-1, 1 << 16), (-1, 1 << 16))
    phases = (PH_SETUP, PH_CONSTRUCTION, PH_GROWTH, PH_SALARY, PH_ACTIONS, PH_DISCARD)
    sort = True

    def codes(self, s: State, f: Frame) -> list[int]:
        return self.module(s, f).step_codes(s, f[EXPLOIT_MODULE], f)

    def apply(self, s: State, f: Frame, c: int) -> None:
        self.module(s, f).step_apply(s, f[EXPLOIT_MODULE], f, c)

    @staticmethod
    def module(s: State, f: Frame) -> RuleModule:
        return s.ex[f[EXPLOIT_MODULE]]

    def kind_of(self, s: State, f: Frame) -> str:
        return self.module(s, f).step_kind(s, f[EXPLOIT_MODULE], f)

    def prompt(self, s: State, f: Frame) -> str | Message:
        return self.module(s, f).step_prompt(s, f[EXPLOIT_MODULE], f)

    def asks(self, s: State, f: Frame) -> str | Message:
        return self.module(s, f).step_asks(s, f[EXPLOIT_MODULE], f)

    def option(self, s: State, f: Frame, action: Action) -> str | Message:
        if action.verb == A.V_DONE:
            return msg(DONE_STOP)
        if action.verb == A.V_PAY:
            return msg(PAY, seat=Seat(f[1]),
                       building=Term("building", D.BUILDINGS[action.arg].name))
        e = self.module(s, f)
        if e.owns(action.code):
            return e.describe_action(s, f[EXPLOIT_MODULE], action.code)
        return action.text

    def check(self, s: State, f: Frame) -> str:
        if f[EXPLOIT_MODULE] >= len(s.ex):
            return "an Exploit frame names an Exploit not in play"
        return ""


# --------------------------------------------------------------------------- refusals
NO_BUILDING: Final = define("sources.refused.building", "you have no {building}")
STAFFED: Final = define("sources.refused.staffed", "your {building} is already staffed")
NO_HARBOR_DISC: Final = define("sources.refused.harbor", "you have no disc in your Harbor")
NOTHING_NOW: Final = define("sources.refused.nothing",
                            "none of its actions can be carried out now (R8): {reasons}")
NO_TOKEN: Final = define("sources.refused.token", "you hold no {token} token")
NOT_IN_GAME: Final = define("sources.refused.exploit", "that Exploit is not in this game")
DORMANT: Final = define("sources.refused.dormant",
                        "{exploit} is dormant until {first} and {second} are both open")
NO_SHIELD: Final = define(
    "sources.refused.shield",
    "you hold no Shield on {exploit}: it needs presence in both {first} and {second} (P13)")
NOT_OFFERED: Final = define(
    "sources.refused.offered",
    "{exploit} does not offer it now (it answers another action type, or it could not do "
    "anything, R8)")
NOT_DECLINED: Final = define("sources.refused.done",
                             "only the second action of a '+' source may be declined")
ALLOWS: Final = define("sources.refused.kind", "this source allows {allowed}, not {action}")
#: joins the action kinds a source allows: ``Ship/Draw``
SLASH: Final = define("sources.refused.slash", "{a}/{b}")
SAME_DECK: Final = define("sources.refused.deck", "the second Draw must be from the same deck")
SAME_REGION: Final = define("sources.refused.region", "the second action must be in {region}")
