"""Endeavor (2009), the classic ruleset (R1): 3-5 players, its own board, 30 discs.

A second ruleset beside :class:`~endeavor.rules.age_of_sail.AgeOfSail`, over its own
tables (``data.CLASSIC_*``) and its own rule-area classes where a rule differs; the
shared rule code asks the rules object (``token_names``, ``phase_names``,
``after_pass``, ``to_discards``, ``governor_to_free_slot``, ``score_lines``,
``problems``), never the ruleset's name. What differs from Age of Sail, with the
rulings (``docs/rulings.md``, "Classic 2009"):

* setup: the Colonial House is printed on every mat, with no disc on it; nobody
  chooses a start tile and round 1 starts at once (R3, P70); all three level-5
  buildings (Exchange, Museum, Parliament) are in play, 1 copy each; no Exploits;
* four phases, Build, Growth, Salary, Actions (R5; ``phase_order="by_player"`` as R6);
  a player discards down to the card limit when passing (R18, P71, P72);
* Ship: to a region's track, or beside it when it is full (presence, no token); no
  trade routes, no open sea; Europe cannot be shipped to (R10, P73);
* Draw: only from an open region (Europe always is); Europe's count is its cities
  (the board has nothing else there) (R14);
* Attack: cities only (the board has nothing else to attack) (R13);
* a ``+`` building's two actions in the same region, Draw + Draw from the same deck
  (R23: always, not an option);
* Payment: a building may not use its own Payment on itself; no no-payment symbol
  (R15, P74);
* discarded cards go back into their own deck in value order, lowest on top; Slavery
  set aside, Governors out (R18, P76); no value-1 bonus disc (R16 is Age of Sail's);
* status tracks stop at 15: a score is the icons held, every effect reads at most 15
  (P75); the score pad A-K, the University's 3 glory on line I (R19, P77);
* the attributes are Industry, Culture, Finance and Politics.
"""

from __future__ import annotations

from itertools import islice
from typing import TYPE_CHECKING, Any, Final

from .. import actions as A
from .. import data as D
from ..data import REGION_STRIDE
from ..decision import DecisionType, Frame
from ..frames import (
    EFFECT_FLAGS,
    F_ACTION,
    F_BUILD,
    F_CASUALTY,
    F_DISCARD,
    F_EFFECT,
    F_EXPLOIT,
    F_GOVSLOT,
    F_SALARY,
    F_START,
    NFRAMES,
    PH_ACTIONS,
    PH_CONSTRUCTION,
    PH_GROWTH,
    PH_SALARY,
    SRC_SHIFT,
)
from ..messages import Message, Seat, Term, define, msg, term
from . import construction, discard, growth, salary, ship
from .attack import Attack
from .base import BoardInfo, Rules, Step, register_ruleset
from .board import add_sea, controls_link, ship_track
from .construction import Build, build_level
from .discard import (
    Discard,
    GovernorSlot,
    held_cards,
    limit_message,
    limit_words,
    over_limit_slot_prompt,
)
from .draw import Draw
from .kinds import NO_HARBOR_DISC, NOT_ALLOWED, target_regions
from .occupy import Occupy
from .payment import Payment
from .salary import Salary, no_worker, payment_codes, workers
from .ship import Ship
from .sources import ActionChoice, Effect
from .words import card_message, region_term, token_term

if TYPE_CHECKING:
    from ..actions import Action
    from ..config import GameConfig
    from ..state import State

_C: Final = A.code
_NB: Final = len(D.BUILDINGS)
_CARD_VALUE: Final = tuple(c.value for c in D.CARDS)
_CARD_DECK: Final = tuple(c.deck for c in D.CARDS)
_EU: Final = D.EU_DECK
_SL: Final = D.SLAVERY_DECK
_SHIP: Final = A.code(A.V_SHIP)
_DRAW: Final = A.code(A.V_DRAW)
NAMES: Final = D.CLASSIC_TOKEN_NAMES
CAP: Final = D.CLASSIC_TRACK_CAP
#: the phases as the 2009 rulebook names them (by index, as ``frames.PHASE_NAMES``)
PHASE_NAMES: Final = ("Setup", "Build", "Growth", "Salary", "Actions", "Discard", "Game over")
term("phase", *PHASE_NAMES)
#: the 2009 score pad (RB classic, "Game end and victory"): line letter -> line name, in
#: the order of ``final_scores(...).lines``
SCORE_PAD: Final = (("A", "Cities"), ("B", "Connections"), ("C", "Industry"), ("D", "Culture"),
                    ("E", "Finance"), ("F", "Politics"), ("G", "Cards"), ("H", "Governor space"),
                    ("I", "Universities"), ("J", "Extra population"), ("K", "Slavery"))
LINE_NAMES: Final = tuple(name for _, name in SCORE_PAD)
term("score_line", *LINE_NAMES)

BOARD_INFO: Final = BoardInfo(D.CLASSIC_BOARD)


def marker(s: State, p: int, attribute: int) -> int:
    """Where ``p``'s status marker stands: the icons held, at most 15 (P75)."""
    return s.marker(p, attribute)


# --------------------------------------------------------------------------- action kinds
SHIP_BESIDE = define("classic.ship.beside",
                     "Ship beside the full {region} track (presence, no token)")
NO_CARD = define(
    "classic.draw.unavailable",
    "no card within their presence in Europe or an open region (Draw Value above their "
    "discs there)",
    you="no card within your presence in Europe or an open region (Draw Value above your "
    "discs there)")
NO_WORKER = define("classic.payment.unavailable",
                   "Payment needs a worker on another of their buildings",
                   you="Payment needs a worker on another of your buildings")


class ClassicShip(Ship):
    """R10 (2009), P73: a Harbor disc to the farthest free space of a region's track
    (gain its token; the disc that fills it opens the region, R11), or, when the track
    is full, beside it: presence there, no token. Europe cannot be shipped to. The
    notation is ``ship FE`` either way; the board has no trade routes and no open sea,
    and a disc beside a track is kept in the open-sea counters (``State.sea_discs``)."""

    def possible(self, s: State, p: int, harbor: int) -> bool:
        return harbor >= 1  # six regions, each with a track or room beside it

    def codes(self, s: State, p: int, region: int, deck: int, harbor: int,
              flags: int = 0) -> list[int]:
        if harbor < 1:
            return []
        return [_SHIP | r for r in target_regions(region, flags) if r]

    def apply(self, s: State, p: int, c: int) -> tuple[int, int]:
        r = c & A.ARG
        pl = s.players[p]
        if s.filled[r] == s.info.trk_len[r]:  # P73: beside the full track
            pl.harbor -= 1
            add_sea(s, p, r)
        else:
            ship_track(s, p, pl, r)
        return r, -1

    def why_not(self, s: State, p: int, c: int, harbor: int) -> Message:
        verb, arg = c >> A.SHIFT, c & A.ARG
        if verb == A.V_ROUTE:
            return msg(NO_ROUTES)
        if verb == A.V_SEA:
            return msg(NO_SEA, region=D.REGION_CODES[arg])
        if harbor < 1:
            return msg(NO_HARBOR_DISC)
        return msg(NOT_ALLOWED)

    def unavailable(self, s: State, p: int, harbor: int) -> Message:
        return msg(ship.NO_DISC)

    def describe(self, s: State, p: int, c: int) -> Message:
        r = c & A.ARG
        region = Term("region", D.REGION_NAMES[r])
        k = s.filled[r]
        length = s.info.trk_len[r]
        if k == length:
            return msg(SHIP_BESIDE, region=region)
        t = s.track_token[s.info.trk_off[r] + k]
        gain: Message | str = msg(ship.GAIN, token=token_term(t, NAMES)) if t >= 0 else ""
        opens: Message | str = msg(ship.OPENS, region=region_term(r)) \
            if k + 1 == length else ""
        return msg(ship.TRACK, region=region, space=k + 1, length=length, gain=gain,
                   opens=opens)


class ClassicDraw(Draw):
    """R14 (2009): the top card of the Europe or Slavery deck, or of an open region's
    deck, when your discs there reach its value; Europe counts its cities (the only
    places a disc can be in Europe). No discard pile (P76), no bonus disc (R16)."""

    def possible(self, s: State, p: int, harbor: int) -> bool:
        return bool(self.codes(s, p, -1, -1, harbor))

    def codes(self, s: State, p: int, region: int, deck: int, harbor: int,
              flags: int = 0) -> list[int]:
        out = []
        pres = s.region_presence
        base = p * REGION_STRIDE
        filled = s.filled
        length = s.info.trk_len
        for d, dk in enumerate(s.decks):
            if dk and (deck < 0 or deck == d):
                # is_open(d) and presence(s, p, d, 0), inlined
                if d == _EU or d == _SL:
                    have = pres[base]
                elif filled[d] == length[d]:
                    have = pres[base + d]
                else:
                    continue
                if _CARD_VALUE[dk[-1]] <= have:
                    out.append(_DRAW | d)
        return out

    def why_not(self, s: State, p: int, c: int, harbor: int) -> Message:
        arg = c & A.ARG
        if c >> A.SHIFT == A.V_DRAWP:
            return msg(NO_PILE)
        if arg not in (_EU, _SL) and s.decks[arg] and not s.is_open(arg):
            return msg(DRAW_CLOSED, region=region_term(arg, True))
        return super().why_not(s, p, c, harbor)

    def unavailable(self, s: State, p: int, harbor: int) -> Message:
        return msg(NO_CARD, seat=Seat(p))


class ClassicPayment(Payment):
    """R15 (2009), P74: pay a worker on any of your buildings back to your Harbor,
    except the building whose own Payment this is; the 2009 buildings have no
    no-payment symbol."""

    def possible(self, s: State, p: int, harbor: int) -> bool:
        # asked before the source is staffed: any worker is one of another building
        return bool(workers(s, p))

    def codes(self, s: State, p: int, region: int, deck: int, harbor: int,
              flags: int = 0) -> list[int]:
        out = payment_codes(s, p, False)
        src = flags >> SRC_SHIFT
        if 0 < src <= _NB:  # P74: not on itself (one copy of each Payment building)
            own = _C(A.V_PAY, src - 1)
            if own in out:
                out.remove(own)
        return out

    def why_not(self, s: State, p: int, c: int, harbor: int) -> Message:
        b = c & A.ARG
        f = s.stack[-1] if s.stack else ()
        if f and f[0] == F_EFFECT and f[EFFECT_FLAGS] >> SRC_SHIFT == b + 1:
            return msg(OWN_PAYMENT, building=Term("building", D.BUILDINGS[b].name))
        return no_worker(b)

    def unavailable(self, s: State, p: int, harbor: int) -> Message:
        return msg(NO_WORKER, seat=Seat(p))


# --------------------------------------------------------------------------- decisions
BUILD_PROMPT = define(
    "classic.build.prompt",
    "Build phase: {seat} builds one building of level {level} (their Build Level, Industry "
    "{industry}) or lower",
    you="Build phase: build one building of level {level} (your Build Level, Industry "
    "{industry}) or lower")
PASS = define(
    "classic.pass",
    "Pass: they take no more actions this round, then keep at most their card limit "
    "({limit}) in normal slots",
    you="Pass: you take no more actions this round, then keep at most your card limit "
    "({limit}) in normal slots")
DISCARD_PROMPT = define(
    "classic.discard.prompt",
    "{seat} passed: they discard {k} of {n} cards down to their card limit ({limit})",
    you="You passed: discard {k} of {n} cards down to your card limit ({limit})")
DISCARD = define("classic.discard", "Discard {card}: {where}")
TO_ASIDE_DOWN = define("classic.to.aside", "set aside face down: -1 glory at the end (R18)")
TO_OUT = define("classic.to.out", "out of the game (R18)")
TO_DECK = define("classic.to.deck",
                 "back into the {deck} deck in value order, lowest on top (P76)")
SLOT_PROMPT = define(
    "classic.slot.prompt",
    "{seat} passed over their card limit: they first choose which of their Governors sits "
    "in the free Governor slot, outside the limit; the others count against it and can be "
    "discarded ({limit})",
    you="You passed over your card limit: first choose which of your Governors sits in "
    "the free Governor slot, outside the limit; the others count against it and can be "
    "discarded ({limit})")
SLOT_PROMPT_LAST = define(
    "classic.slot.prompt.last",
    "{seat} passed in the last round: they choose the Governor for the free Governor slot, "
    "outside their card limit, or leave it empty for 3 glory ({limit})",
    you="You passed in the last round: choose the Governor for the free Governor slot, "
    "outside your card limit, or leave it empty for 3 glory ({limit})")


class ClassicBuild(Build):
    """The Build phase (RB classic; as Construction)."""

    def prompt(self, s: State, f: Frame) -> Message:
        p = f[1]
        return msg(BUILD_PROMPT, seat=Seat(p), level=build_level(s, p),
                   industry=marker(s, p, D.INDUSTRY))


class ClassicActionChoice(ActionChoice):
    """The Action phase's choice; passing leads to the card limit (R18, P71)."""

    def option(self, s: State, f: Frame, action: Action) -> str | Message:
        if action.verb == A.V_PASS:
            p = f[1]
            return msg(PASS, seat=Seat(p), limit=s.players[p].level(D.INFLUENCE))
        return super().option(s, f, action)


class ClassicDiscard(Discard):
    """R18, P71: after passing, discard one card at a time down to the limits."""

    phases = (PH_ACTIONS,)

    def prompt(self, s: State, f: Frame) -> Message:
        p = f[1]
        pl = s.players[p]
        n = len(pl.cards)
        slavery = any(_CARD_DECK[c] == _SL for c in pl.cards)
        keep = min(pl.level(D.INFLUENCE) + slavery, D.MAX_CARDS)
        return msg(DISCARD_PROMPT, seat=Seat(p), k=n - keep, n=n, limit=limit_message(s, p))

    def option(self, s: State, f: Frame, action: Action) -> Message:
        c = action.arg
        card = D.CARDS[c]
        if card.deck == _SL:
            where = msg(TO_ASIDE_DOWN)
        elif card.governor:
            where = msg(TO_OUT)
        else:
            where = msg(TO_DECK, deck=Term("deck", D.DECK_NAMES[card.deck]))
        return msg(DISCARD, card=card_message(c, NAMES), where=where)


class ClassicGovernorSlot(GovernorSlot):
    """P1, P71: passing in round 7, which Governor (or none) sits in the free slot;
    P92: passing over the card limit in rounds 1-6 with Governors in both kinds of
    slot, which of them sits there ("Players may reposition their cards into whatever
    slots they wish during the Discard process")."""

    phases = (PH_ACTIONS,)

    def prompt(self, s: State, f: Frame) -> Message:
        if s.round < s.rules.rounds:
            return over_limit_slot_prompt(s, f[1], SLOT_PROMPT)
        return msg(SLOT_PROMPT_LAST, seat=Seat(f[1]), limit=limit_message(s, f[1]))


class NotInThisRuleset(DecisionType):
    """A decision the 2009 game never asks (start tiles, Memorial casualties, rule
    modules): it can occur in no phase, so a state holding one is rejected."""

    kind = "none"
    phases = ()

    def codes(self, s: State, f: Frame) -> list[int]:
        return []

    def apply(self, s: State, f: Frame, c: int) -> None:
        raise AssertionError("not a decision of the 2009 game")  # pragma: no cover


# --------------------------------------------------------------------------- the ruleset
def _schedule(n: int, order: str) -> tuple[tuple[int, int], ...]:
    """R5 (2009): Build, Growth and Salary (phase by phase, or each player in turn with
    ``by_player``, R6), then the Action phase; no Discard phase (P71)."""
    early = (PH_CONSTRUCTION, PH_GROWTH, PH_SALARY)
    if order == "by_player":
        steps = [(ph, i) for i in range(n) for ph in early]
    else:
        steps = [(ph, i) for ph in early for i in range(n)]
    steps.append((PH_ACTIONS, 0))
    return tuple(steps)


class Classic(Rules):
    name = "classic"
    title = "Endeavor (2009)"
    player_counts = (3, 4, 5)  # RB classic: "3-5 Players"
    discs = D.CLASSIC_DISCS
    boards = D.CLASSIC_BOARDS
    start_buildings = ()  # R3: the Colonial House is printed on the mat
    level5_pool = D.CLASSIC_LEVEL5
    level5_available = len(D.CLASSIC_LEVEL5)
    card_bonus = D.CLASSIC_CARD_BONUS
    token_names = NAMES
    phase_names = PHASE_NAMES
    phase_events = tuple(f"{name} phase" for name in PHASE_NAMES)
    track_cap = CAP  # P75
    options = {"phase_order": (("by_phase", "by_player"), "by_phase")}  # R6
    plus_same_region = True  # R23: the 2009 "+" rule, always
    discard_pile_bonus = False

    def __init__(self, config: GameConfig, module_ids: tuple[str, ...]) -> None:
        super().__init__(config, module_ids)
        self.board = BOARD_INFO
        self.phase_order = config.options["phase_order"]
        self.kinds = (ClassicShip(), Occupy(), Attack(), ClassicPayment(), ClassicDraw())
        never = NotInThisRuleset()
        decisions: list[DecisionType] = [never] * NFRAMES
        for frame, t in ((F_BUILD, ClassicBuild()), (F_SALARY, Salary()),
                         (F_ACTION, ClassicActionChoice()), (F_EFFECT, Effect()),
                         (F_GOVSLOT, ClassicGovernorSlot()), (F_DISCARD, ClassicDiscard())):
            decisions[frame] = t
        assert all(decisions[k] is never for k in (F_START, F_CASUALTY, F_EXPLOIT))
        self.decisions = tuple(decisions)
        steps: list[Step | None] = [None] * 7
        steps[PH_CONSTRUCTION] = construction.begin
        steps[PH_GROWTH] = growth.grow
        steps[PH_SALARY] = salary.begin
        self.phase_steps = tuple(steps)
        self._rounds = _schedule(config.players, self.phase_order)

    @classmethod
    def default_board(cls, players: int) -> str:
        return "classic"

    @classmethod
    def config_problem(cls, config: GameConfig) -> str:
        """R1, R4: the Exploits are an Age of Sail expansion."""
        if config.exploits:
            return ("Exploits are an Age of Sail expansion (R1, R4): the 2009 ruleset "
                    "plays without them (exploits=())")
        return ""

    def schedule(self, rnd: int) -> tuple[tuple[int, int], ...]:
        """Round 0 has no step (no start tile to choose, P70): round 1 starts at once."""
        return self._rounds if rnd else ()

    @classmethod
    def deal(cls, s: State, config: GameConfig, rng: Any) -> None:
        """R2: deal the 95 tokens onto the 2009 board (tracks, cities, links), stack the
        decks, put the building supply (all three level-5 types) out and pick the first
        player; every mat has the Colonial House printed on it, with no disc (P70)."""
        info = BOARD_INFO
        tokens: list[int] = []
        for t, k in enumerate(cls.token_counts):
            tokens += [t] * k
        rng.shuffle(tokens)
        it = iter(tokens)
        s.track_owner = [-1] * info.ntrack
        s.track_token = list(islice(it, info.ntrack))
        s.site_token = [-1] * D.NSITES
        for site in info.token_sites:
            s.site_token[site] = next(it)
        s.link_token = [next(it) for _ in range(info.nlinks)]
        s.decks = [list(d) for d in cls.initial_decks]
        s.region_governors = list(cls.governors)  # the Governor on top of each deck (R11)
        s.building_supply = [0] * len(cls.buildings)
        for b in cls.base_supply:
            s.building_supply[b] = cls.buildings[b].copies
        s.level5 = tuple(sorted(cls.level5_pool))
        for b in s.level5:
            s.building_supply[b] = 1
        s.crown = rng.randrange(config.players)
        for pl in s.players:
            pl.buildings.append(D.CLASSIC_START_BUILDING)
            pl.changed()

    # ------------------------------------------------------------------ rule seams
    def after_pass(self, s: State, p: int) -> None:
        """R18, P71: passing, ``p`` discards down to the card limit (P1: the free
        Governor slot; round 7: which Governor sits there)."""
        discard.begin(s, p)

    def to_discards(self, s: State, c: int) -> None:
        """R18, P76: a discarded card goes back into its own deck, which stays in value
        order with the lowest value on top."""
        deck = s.decks[_CARD_DECK[c]]
        deck.append(c)
        deck.sort(key=lambda x: -_CARD_VALUE[x])

    def governor_to_free_slot(self, s: State, p: int) -> bool:
        """P1; P72: in round 7 a player who has passed made the last placement, so a
        Governor won afterwards goes into a normal slot."""
        return s.players[p].gov < 0 and not (
            s.round == self.rounds and s.passed >> p & 1)

    def score_lines(self, s: State, p: int) -> dict[str, int]:
        """R19, P77: the 2009 score pad, lines A to K (:data:`SCORE_PAD`); each track
        scores its marker, at most 15 (P75)."""
        pl = s.players[p]
        owner = s.site_owner
        info = s.info
        lines = {
            "Cities": sum(D.SITES[x].glory for x in info.sites if owner[x] == p),
            "Connections": sum(1 for li in range(info.nlinks) if controls_link(s, p, li)),
        }
        for k in range(4):
            lines[NAMES[k]] = D.track_glory(marker(s, p, k))
        lines["Cards"] = sum(D.CARDS[c].glory for c in held_cards(s, p))
        lines["Governor space"] = 3 if pl.gov < 0 else 0
        lines["Universities"] = sum(D.BUILDINGS[b].glory for b in pl.buildings)
        lines["Extra population"] = pl.harbor // 3
        lines["Slavery"] = -len(pl.aside)
        return lines

    def problems(self, s: State) -> list[str]:
        """The 2009 facts: no discard pile; discs beside a track only once it is full,
        never in Europe; the Colonial House first on every mat, no other start tile,
        no Memorial casualty; all three level-5 buildings in play."""
        out = []
        if s.pile:
            out.append("the 2009 game has no discard pile")
        for r in range(D.NREGIONS):
            for q in range(s.owners):
                if s.sea[q * REGION_STRIDE + r] and (r == D.EUROPE or not s.is_open(r)):
                    out.append(f"player {q}: discs beside the {D.REGION_NAMES[r]} track "
                               "before it is full")
        for p, pl in enumerate(s.players):
            if pl.buildings[:1] != [D.CLASSIC_START_BUILDING] or any(
                    D.BUILDINGS[b].level == 0 for b in pl.buildings[1:]):
                out.append(f"player {p}: the Colonial House is not the first building "
                           "of the mat, or a start tile was added")
            if any(pl.base_discs):
                out.append(f"player {p}: discs at a track base (no Memorial in 2009)")
        if s.level5 != tuple(sorted(D.CLASSIC_LEVEL5)):
            out.append("the 2009 game has Exchange, Museum and Parliament at level 5")
        return out


# registered by a call: with a class decorator (other than a dataclass), mypyc would not
# compile the class to a native class
register_ruleset(Classic)


__all__ = ["LINE_NAMES", "PHASE_NAMES", "SCORE_PAD", "Classic", "ClassicActionChoice",
           "ClassicBuild", "ClassicDiscard", "ClassicDraw", "ClassicGovernorSlot",
           "ClassicPayment", "ClassicShip", "NotInThisRuleset", "limit_words", "marker"]


# --------------------------------------------------------------------------- refusals
NO_ROUTES: Final = define("classic.refused.route", "the 2009 board has no trade routes (R10)")
NO_SEA: Final = define(
    "classic.refused.sea",
    "the 2009 board has no open sea: 'ship {region}' puts a disc beside the track once it is "
    "full (P73)")
NO_PILE: Final = define(
    "classic.refused.pile",
    "the 2009 game has no discard pile: a discarded card goes back into its deck (P76)")
DRAW_CLOSED: Final = define("classic.refused.closed",
                            "{region} is not open: Draw needs an open region (R14)")
OWN_PAYMENT: Final = define("classic.refused.own_payment",
                            "your {building} may not use its own Payment on itself (R15)")
