"""Rule modules: the hook interface for everything that plugs into a ruleset.

A rule module is a subclass of :class:`RuleModule` (or :class:`Exploit`, for the 15
Exploits) registered with :func:`register`. The base rules call its hooks; every hook
has a neutral default, so a module overrides only what it changes, and the hot paths
call a hook only for the modules whose class overrides it (``Rules.hooked``).

Every hook receives the state ``s`` and ``i``, the module's index among the modules in
play (:attr:`State.modules`); the module's own data is the int list ``s.module_data[i]`` (its
tile), which it may read and write freely. Everything else in the state is changed
only through the functions of :mod:`endeavor.api`, which keep every derived counter
right and raise the events clients see.

Actions: module number ``n`` owns the verbs ``V_EXPLOIT + 8*(n-1)`` to ``+7``
(:meth:`RuleModule.code` builds its codes) and lists every action it can ever offer in
:meth:`RuleModule.catalogue`, so the global catalogue and the notation parser know them.

Observation: a module with data of its own declares its block of the RL observation
(:mod:`endeavor.encoding`): :attr:`RuleModule.observation` lists the block's fields (an
:class:`ObsBlock`, built with :meth:`ObsBlock.field`: their names, kinds, labels and
scales, hence its size and what ``describe`` shows) and :meth:`RuleModule.observe` writes
them from the state, through an :class:`ObsWriter` that turns seats to the observer's
view. Only the encoder calls it (never the engine's own loop), and only when the module's
data changed. The blocks lie in the vector by module number, so a module's block, once
published, changes only with a new observation version.

Activation of Exploits (derived, never stored): an Exploit is *active* once both its
regions are open; a player holds a *Shield* on it while it is active and the player has
presence in both regions (P13). Only Shield holders may use its abilities or score it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final, NamedTuple

from .. import actions as A
from .. import data as D
from ..messages import Message, Term, define, msg, term

if TYPE_CHECKING:
    from ..state import State

try:  # the compiled build: let interpreted code (tests, new Exploits) subclass the bases
    from mypy_extensions import mypyc_attr
except ImportError:  # pure Python (stdlib only); a compiled module never calls it
    def mypyc_attr(*attrs: str, **kwattrs: Any) -> Any:  # type: ignore[misc]
        return lambda cls: cls

Frame = tuple[int, ...]

#: site markers (``State.site_marks``), set and cleared with ``api.mark_site``
M_FORT: Final = 1  # Spanish Main fortification
M_FORT_DEIC: Final = 2  # Dutch East India Company fortification
M_FORTIFIED: Final = M_FORT | M_FORT_DEIC
M_MISSIONARY: Final = 4  # a city with a Missionary may never be Attacked
M_PIRATE: Final = 8  # the Pirate's city: counts as unoccupied, never Occupied or Attacked
M_NO_ATTACK: Final = M_MISSIONARY | M_PIRATE
#: the verb block of module number n starts at ``_VERB0 + _NVERBS * n``
_NVERBS: Final = A.EXPLOIT_VERBS
_VERB0: Final = A.V_EXPLOIT - A.EXPLOIT_VERBS
_SHIFT: Final = A.SHIFT
#: link markers (``State.link_marks``)
L_BLOCKADE: Final = 1  # a Blockaded link can't be claimed, controlled or used in any way
#: the observation's seat slots (the most players of any ruleset): a block's per-seat rows
OBS_SEATS: Final = 5
#: the labels of a row (or of the values) by relative seat
OBS_SEAT_LABELS: Final[tuple[object, ...]] = tuple(range(OBS_SEATS))
#: the relative owner of a neutral colour's disc (the Silent Fleet), after the seats
OBS_FLEET: Final = OBS_SEATS
#: the largest count a count float shows (larger ones are shown as this)
OBS_MAX_COUNT: Final = 255


class ObsField(NamedTuple):
    """One field of a module's observation block: ``rows x len(labels)`` floats from
    ``offset`` (in floats, from the block's start). ``kind`` is ``"onehot"`` (each row all
    zeros or a single 1), ``"bits"`` (each row a set of flags) or ``"count"`` (each float
    a whole number divided by ``scale``); ``rows`` are the row labels (``()``: a single
    row), ``labels`` the values, flags or items of a row; ``most``: the largest whole
    number a count shows (one for all items, or one per label; the observation space's
    bound is ``most / scale``). The vector names it ``"<module id>.<name>"``."""

    name: str
    kind: str
    labels: tuple[object, ...]
    doc: str
    rows: tuple[object, ...]
    scale: int
    offset: int
    most: int | tuple[int, ...] = OBS_MAX_COUNT


class ObsBlock:
    """A module's block of the observation: its fields in order (:meth:`field` appends
    one and returns its offset in the block, for :meth:`RuleModule.observe`)."""

    def __init__(self) -> None:
        self.fields: list[ObsField] = []
        #: the block's length, in floats
        self.size = 0

    def field(self, name: str, kind: str, labels: tuple[object, ...], doc: str,
              rows: tuple[object, ...] = (), scale: int = 1,
              most: int | tuple[int, ...] = OBS_MAX_COUNT) -> int:
        """Append a field (see :class:`ObsField`); returns its offset in the block."""
        assert kind in ("onehot", "bits", "count"), kind
        off = self.size
        self.fields.append(ObsField(name, kind, labels, doc, rows, scale, off, most))
        self.size += max(1, len(rows)) * len(labels)
        return off


class ObsWriter:
    """What :meth:`RuleModule.observe` writes through: the block ``v`` (``size`` floats,
    zeros when the hook is called; offsets are the ones :meth:`ObsBlock.field` returned)
    as seen by ``player``, a seat of an ``n``-player game. Relative seat ``k`` is the seat
    ``k`` places after the observer (0: the observer)."""

    def __init__(self, player: int, n: int) -> None:
        self.player = player
        self.n = n
        self.v: list[float] = []

    def seat(self, k: int) -> int:
        """The seat at relative seat ``k`` (``0 <= k < n``)."""
        return (self.player + k) % self.n

    def rel(self, owner: int) -> int:
        """An owner (a seat, a neutral colour, -1 none) as the observer sees it: -1 none,
        0..4 the relative seats, :data:`OBS_FLEET` a neutral colour."""
        if owner < 0:
            return -1
        n = self.n
        if owner >= n:
            return OBS_FLEET
        return (owner - self.player) % n

    def rel_mask(self, mask: int) -> int:
        """A bitmask over seats, turned to relative seats."""
        n = self.n
        p = self.player
        out = 0
        for k in range(n):
            if mask >> ((p + k) % n) & 1:
                out |= 1 << k
        return out

    def count(self, off: int, value: int, scale: int = 1) -> None:
        """A count float at ``off``: ``value`` (clipped to 0..OBS_MAX_COUNT) / ``scale``."""
        self.v[off] = (0 if value < 0 else OBS_MAX_COUNT if value > OBS_MAX_COUNT
                       else value) / scale

    def onehot(self, off: int, width: int, k: int) -> None:
        """A onehot row at ``off`` with its 1 at ``k`` (out of 0..width-1: none)."""
        if 0 <= k < width:
            self.v[off + k] = 1.0

    def flags(self, off: int, width: int, mask: int) -> None:
        """A bits row at ``off`` showing the low ``width`` bits of ``mask``."""
        v = self.v
        for k in range(width):
            if mask >> k & 1:
                v[off + k] = 1.0


@mypyc_attr(allow_interpreted_subclasses=True)
class RuleModule:
    """Base class: neutral hooks. Subclasses set the class attributes."""

    id: ClassVar[str] = ""
    #: the verb block it owns (1-15 for the Exploits, in rulebook order; 16+ others)
    number: ClassVar[int] = 0
    name: ClassVar[str] = ""
    #: local verb -> the action kind (``SHIP`` ...) that triggers it as an ability
    kinds: ClassVar[dict[int, int]] = {}
    #: an Exploit has two regions and scores only for Shield holders
    is_exploit: ClassVar[bool] = False
    regions: ClassVar[tuple[int, int]] = (0, 0)
    #: its tile puts Batavia and Cape Town (``TILE_SITES``) and their link in play
    tile_cities: ClassVar[bool] = False
    #: neutral disc colours it brings (the Silent Fleet: 1); their owners are numbered
    #: after the seats (``State.owners``), their supplies are ``State.neutral_supply``
    neutral_colours: ClassVar[int] = 0
    #: its block of the RL observation (None: it has none); see :meth:`observe`
    observation: ClassVar[ObsBlock | None] = None
    #: its block shows ``s.round`` too (:meth:`observe` is called again when it changes)
    observe_round: ClassVar[bool] = False
    #: bitmask ``1 << step`` of its own steps whose first int (``a``) is a seat: the
    #: observation shows that seat relative to the observer
    observe_seat_steps: ClassVar[int] = 0

    # ------------------------------------------------------------------ actions
    def verb(self, k: int) -> int:
        """The global verb number of this module's local verb ``k`` (0-7)."""
        assert 0 <= k < _NVERBS
        return _VERB0 + _NVERBS * self.number + k

    def code(self, k: int, arg: int = 0) -> int:
        """The action code of local verb ``k`` with argument ``arg``."""
        assert 0 <= k < _NVERBS  # self.verb(k), inlined: modules build many codes
        return ((_VERB0 + _NVERBS * self.number + k) << _SHIFT) | arg

    def local_verb(self, c: int) -> int:
        """The local verb (0-7) of one of this module's codes."""
        return (c >> _SHIFT) - _VERB0 - _NVERBS * self.number

    def owns(self, c: int) -> bool:
        """Whether action code ``c`` is one of this module's."""
        return 0 <= (c >> _SHIFT) - _VERB0 - _NVERBS * self.number < _NVERBS

    def ability_kind(self, c: int) -> int:
        """The action kind an ability code answers (for "+" sources and turn records)."""
        return self.kinds[self.local_verb(c)]

    def catalogue(self) -> list[tuple[int, str]]:
        """Every (code, notation) this module can ever offer."""
        return []

    # ------------------------------------------------------------------ setup
    def setup(self, s: State, i: int) -> list[int]:
        """Initial module data (it may also place components with the api)."""
        return []

    # ------------------------------------------------------------------ abilities
    def abilities(self, s: State, i: int, p: int, kind: int, harbor: int) -> list[int]:
        """Ability codes offered when ``p`` takes an action of ``kind`` with ``harbor``
        discs in the Harbor. For an Exploit, called only while ``p`` holds a Shield."""
        return []

    def apply(self, s: State, i: int, p: int, c: int) -> None:
        """Carry out a code chosen from :meth:`abilities` (the effect decision is already
        resolved) or from :meth:`extra_sources`."""
        raise NotImplementedError

    def extra_sources(self, s: State, i: int, p: int) -> list[int]:
        """Extra Action-phase sources for ``p`` (e.g. an Improved Cannon activation);
        offered whatever the Shield (the component is already held)."""
        return []

    # ------------------------------------------------------------------ own decision steps
    def step_codes(self, s: State, i: int, f: Frame) -> list[int]:
        """Legal codes of this module's own step ``f`` (pushed with ``api.push_step``:
        ``f[1]`` the player, ``f[EXPLOIT_STEP]`` the step, ``f[EXPLOIT_A]``/``f[EXPLOIT_B]`` its
        two ints: :class:`~endeavor.frames.ExploitFrame`)."""
        raise NotImplementedError

    def step_apply(self, s: State, i: int, f: Frame, c: int) -> None:
        """Apply code ``c`` to own step ``f`` (already popped from the stack)."""
        raise NotImplementedError

    def step_kind(self, s: State, i: int, f: Frame) -> str:
        """The public kind of own step ``f`` (``Decision.kind``)."""
        return self.id

    def step_prompt(self, s: State, i: int, f: Frame) -> str | Message:
        """The question own step ``f`` asks: a message said to the seat deciding (or
        words)."""
        return f"{self.name}: choose"

    def step_asks(self, s: State, i: int, f: Frame) -> str | Message:
        """What own step ``f`` asks, short, for the refusal of an action that does not
        answer it ("player 1 must <this> (round 3, Actions)"): a message (or words), made
        only when an action is refused."""
        return msg(ASKS, module=Term("exploit" if self.is_exploit else "module", self.name))

    def step_phase(self, s: State, i: int, f: Frame) -> str:
        """The name of the step of the round own step ``f`` belongs to when it is not
        the current phase's (``State.phase_name``); "" when it is."""
        return ""

    def describe_action(self, s: State, i: int, c: int) -> str | Message:
        """What this module's legal code ``c`` does now: a message said to the seat
        deciding (or words)."""
        return f"{self.name}: {A.BY_CODE[c].text}"

    def action_targets(self, s: State, i: int, p: int, c: int) -> list[str] | None:
        """The ids of the elements where ``p`` takes this module's code ``c``
        (:mod:`endeavor.targets`; an Exploit's tile is added to them); None: the
        elements its notation names."""
        return None

    # ------------------------------------------------------------------ persistent rules
    def attack_cost(self, s: State, i: int, p: int, site: int, cost: int) -> int:
        """Casualties ``p`` suffers attacking ``site`` (base 1, +1 if fortified). A hook
        may only lower ``cost``, never raise it: the legality tests rely on that."""
        return cost

    def on_site_attacked(self, s: State, i: int, site: int) -> None:
        """``site`` was just attacked (before the new occupant arrives)."""

    def on_abolish(self, s: State, i: int) -> None:
        """Slavery was just abolished (R17), after held Slavery cards were set aside and
        the Slavery deck left the game."""

    def draw_bonus(self, s: State, i: int, p: int) -> int:
        """Extra presence ``p`` has in every region for Draw actions only (P14)."""
        return 0

    def build_bonus(self, s: State, i: int, p: int) -> int:
        """Added to ``p``'s Build Level in the Construction phase."""
        return 0

    def unpayable(self, s: State, i: int, p: int) -> int:
        """Bitmask of ``p``'s building slots whose occupant is not a worker (never paid)."""
        return 0

    def salary(self, s: State, i: int, p: int) -> None:
        """After ``p`` paid workers in the Salary phase (may push steps)."""

    def on_turn_end(self, s: State, i: int, p: int, kinds: int) -> None:
        """``p``'s Action-phase turn just ended, every decision of it resolved; ``kinds``
        is the bitmask ``1 << kind`` of the action kinds it carried out (0 for a pass).
        May push steps (for ``p`` or anyone); the next turn waits for them."""

    def on_action(self, s: State, i: int, p: int, kind: int, c: int, source: int,
                  region: int) -> None:
        """``p`` just carried out an action of ``kind`` (a normal one or an ability, code
        ``c``) in an effect decision; ``source`` is what was activated (building index
        + 1, ``SRC_TOKEN`` + token type, 0 for a follow-up) and ``region`` where it
        happened (-1: no region, or an ability)."""

    def on_round_start(self, s: State, i: int) -> None:
        """Round ``s.round`` (1-7) begins, before its first phase (may push steps)."""

    def on_round_end(self, s: State, i: int) -> None:
        """The round's last phase is over, before the Crown passes (not after round 7's
        final scoring is due: the game then ends)."""

    # ------------------------------------------------------------------ accounting
    def tile_discs(self, s: State, i: int, p: int) -> int:
        """Discs of ``p`` on the tile (or held as tile components), for conservation."""
        return 0

    def tile_cards(self, s: State, i: int) -> list[int]:
        """Asset cards lying on the tile."""
        return []

    def tile_tokens(self, s: State, i: int) -> list[int]:
        """Trade tokens (types) lying on the tile."""
        return []

    def tile_buildings(self, s: State, i: int) -> list[int]:
        """Buildings (types, one entry per copy) the module took out of the supply and
        keeps, or put out of the game (the Silent Fleet's building shortage)."""
        return []

    def icons(self, s: State, i: int, p: int) -> tuple[int, int, int, int]:
        """Attribute icons ``p`` holds from this module's components (Freedom tokens...)."""
        return (0, 0, 0, 0)

    def check(self, s: State, i: int) -> list[str]:
        """Consistency problems of the module data (empty if fine)."""
        return []

    def migrate_v1(self, data: list[int], smark: list[int]) -> list[int]:
        """Module data of a version-1 state JSON in today's layout (default: unchanged)."""
        return data

    # ------------------------------------------------------------------ scoring, display
    def score(self, s: State, i: int, p: int) -> int:
        """End-game glory for ``p`` (an Exploit: called for Shield holders only)."""
        return 0

    def describe(self, s: State, i: int) -> Message | str:
        """A one-line summary of the module's state, in the third person: a message of
        the module's own (declared with ``define_message``, so that every language reads
        it) or, from a module that declares none, plain English text."""
        return ""

    def describe_in(self, s: State, i: int, locale: str = "en") -> str:
        """:meth:`describe` in words for ``locale``, on one line (no viewer: the third
        person)."""
        said = self.describe(s, i)
        text = said if isinstance(said, str) else said.render(locale)
        return " ".join(text.split())

    # ------------------------------------------------------------------ observation
    def observe(self, s: State, i: int, w: ObsWriter) -> None:
        """Write this module's block of the RL observation (:attr:`observation`) for the
        observer of ``w`` into ``w.v`` (all zeros on entry), from its data ``s.module_data[i]``
        (and ``s.round`` if :attr:`observe_round`). Called by the observation encoder only,
        when the data changed; it reads nothing else of the state but ``s.n`` (and
        ``s.round``), and shows seats through :meth:`ObsWriter.rel` /
        :meth:`ObsWriter.seat` (rows by relative seat). The block's layout is part of the
        observation's version: changing it needs a new ``OBSERVATION_VERSION``."""


@mypyc_attr(allow_interpreted_subclasses=True)
class Exploit(RuleModule):
    """An Exploit tile: two regions (its Keys), abilities for Shield holders, scoring."""

    is_exploit = True


REGISTRY: dict[str, RuleModule] = {}


def exploit_ids() -> tuple[str, ...]:
    """Every registered Exploit id, in tile-number order."""
    return tuple(sorted((m.id for m in REGISTRY.values() if m.is_exploit),
                        key=lambda e: REGISTRY[e].number))


def register(module: RuleModule) -> RuleModule:
    """Register a module instance under its id (once, at import) and add its actions to
    the global action catalogue."""
    assert module.id and module.id not in REGISTRY and module.number >= 1, module.id
    assert all(m.number != module.number for m in REGISTRY.values()), module.number
    A.extend(module.catalogue())
    REGISTRY[module.id] = module
    term("exploit" if module.is_exploit else "module", module.name)
    return module


#: what a module's own step asks by default (:meth:`RuleModule.step_asks`)
ASKS: Final = define("error.asks.module", "make a decision for {module}")


__all__ = ["D", "Exploit", "exploit_ids", "L_BLOCKADE", "OBS_FLEET", "OBS_MAX_COUNT",
           "OBS_SEATS", "OBS_SEAT_LABELS", "ObsBlock", "ObsField", "ObsWriter", "M_FORT",
           "M_FORTIFIED", "M_FORT_DEIC",
           "M_MISSIONARY", "M_NO_ATTACK", "M_PIRATE", "REGISTRY", "RuleModule", "register"]
