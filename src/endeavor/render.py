"""Rich renderables for a :class:`State`: the board, the discard pile, the player mats,
the action menu and the final score breakdown.

This is a presentation adapter: it reads the state and the component tables and never
changes anything. Every function returns a fresh Rich renderable (or plain text) sized
for a 100-120 column terminal; narrower consoles wrap the cells. Players are named
"P0".."P4" in the colours of :data:`PLAYER_COLOURS`.

Abbreviations used on screen (see :data:`LEGEND`): attribute icons ``I`` Industry,
``C`` Culture, ``W`` Wealth, ``N`` Influence and ``G`` glory; Trade tokens by the first
letters of their names (``ind`` Industry, ``s/d`` Ship/Draw, ...); city glory as a
superscript on the city code (``SA1²``); ``●``/``○`` a staffed / free activation circle.
With Exploits in play, :func:`exploits_view` lists them (regions, dormant / active, the
Shield holders and the tile state) and the board marks Exploit markers on sites and links
(see :data:`MARK_LEGEND`).
"""

from __future__ import annotations

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from . import actions as A
from . import data as D
from .actions import Action
from .exploits.base import L_BLOCKADE, M_FORTIFIED, M_MISSIONARY, M_PIRATE
from .scoring import final_scores
from .state import (
    F_EFFECT,
    F_EXPLOIT,
    F_SALARY,
    FRAME_NAMES,
    PH_ACTIONS,
    PHASE_NAMES,
    SECOND,
    State,
)

PLAYER_COLOURS = ("red", "blue", "yellow", "green", "magenta")
ICON_LETTERS = ("I", "C", "W", "N")
BROWN_STYLE = "dark_orange3"
BLUE_STYLE = "cyan"
LEGEND = ("I/C/W/N Industry/Culture/Wealth/Influence · L level · G glory · ¹² city glory · "
          "(n) cards left in a deck · ● staffed, ○ free circle, · no circle · ♛ Crown · "
          "tokens: brown ind cul wea inf, blue s/d o/d pay att "
          "(Ship/Draw, Occupy/Draw, Payment, Attack)")
MARK_LEGEND = ("Exploit markers: [F] fortified city · [M] Missionary · [P] the Pirate · "
               "[B] Blockaded link")
_SUPERSCRIPT = {1: "¹", 2: "²"}


def _token_abbrev(name: str) -> str:
    """``"Industry"`` -> ``"ind"``, ``"Ship/Draw"`` -> ``"s/d"``."""
    if "/" in name:
        return "/".join(word[0] for word in name.split("/")).lower()
    return name[:3].lower()


TOKEN_ABBREVS = tuple(_token_abbrev(name) for name in D.TOKEN_NAMES)


# --------------------------------------------------------------------------- small parts
def player_name(p: int) -> str:
    return f"P{p}"


def player_text(p: int) -> Text:
    """The player's name in its colour."""
    return Text(player_name(p), style=f"bold {PLAYER_COLOURS[p]}")


def token_text(t: int) -> Text:
    """A Trade token's abbreviation, brown or blue."""
    return Text(TOKEN_ABBREVS[t], style=BROWN_STYLE if t < 4 else BLUE_STYLE)


def icons_label(icons: tuple[int, int, int, int], glory: int = 0) -> str:
    """``(0, 2, 0, 1)``, glory 1 -> ``"C2 N1 G1"`` (empty when there is nothing)."""
    parts = [f"{ICON_LETTERS[k]}{icons[k]}" for k in range(4) if icons[k]]
    if glory:
        parts.append(f"G{glory}")
    return " ".join(parts)


def card_gives(c: int) -> str:
    """What a card gives, e.g. ``"I2 W1 N1 G1"``."""
    card = D.CARDS[c]
    return icons_label(card.icons, card.glory)


def card_label(c: int) -> str:
    """A card's code and what it gives, e.g. ``"AF/4 I2 W1 N1 G1"``."""
    return f"{D.CARDS[c].code} {card_gives(c)}".rstrip()


def source_label(mode: int, kind1: int, kind2: int) -> str:
    """The action(s) of a building or token: ``"Ship"``, ``"Ship / Draw"``, ``"Ship + Occupy"``."""
    if kind1 < 0:
        return ""
    if kind2 < 0:
        return D.KIND_NAMES[kind1]
    sep = " / " if mode == D.CHOICE else " + "
    return D.KIND_NAMES[kind1] + sep + D.KIND_NAMES[kind2]


def building_label(b: int) -> str:
    """A building's level (none for start tiles), action, icons and glory, e.g.
    ``"L3 Ship + Occupy"``."""
    bd = D.BUILDINGS[b]
    parts = [f"L{bd.level}" if bd.level else "", source_label(bd.mode, bd.kind1, bd.kind2),
             icons_label(bd.icons, bd.glory)]
    return " ".join(part for part in parts if part)


def _site_code(s: int) -> str:
    site = D.SITES[s]
    return site.code + _SUPERSCRIPT.get(site.glory, "")


def _occupant(state: State, s: int) -> Text:
    """The owner of site ``s``, else its token, else a dot."""
    owner = state.site_owner[s]
    if owner >= 0:
        return player_text(owner)
    token = state.site_token[s]
    return token_text(token) if token >= 0 else Text("·", style="dim")


def _join(parts: list[Text], sep: str = "  ") -> Text:
    return Text(sep).join(parts)


# --------------------------------------------------------------------------- board
def decision_text(state: State) -> str:
    """What the decision on top of the stack is about, e.g. ``"effect: Ship + Occupy"``,
    ``"second half: Occupy (or done)"``, ``"salary: 2 payment(s) left"``."""
    frame = state.frame
    if frame is None:
        return "none, the game is over"
    kind = frame[0]
    if kind == F_EFFECT:
        mode, kind1, kind2 = frame[2:5]
        if mode == SECOND:
            what = "follow-up" if frame[7] else "second half"  # P16 follow-ups carry flags
            return f"{what}: {D.KIND_NAMES[kind1]} (or done)"
        return f"effect: {source_label(mode, kind1, kind2)}"
    if kind == F_SALARY:
        return f"salary: {frame[2]} payment(s) left"
    if kind == F_EXPLOIT:
        return f"exploit: {state.ex[frame[2]].name}"
    return FRAME_NAMES[kind]


def status_line(state: State) -> Text:
    """Round, phase, Crown holder and whose decision it is."""
    when = PHASE_NAMES[state.phase]
    if state.round:
        when = f"Round {state.round}/{D.ROUNDS} · {when}"
    out = Text.assemble((when, "bold"), " · Crown ", player_text(state.crown),
                        f" · seed {state.config.seed}")
    frame = state.frame
    if frame is not None:
        out.append(" · ")
        out.append_text(player_text(frame[1]))
        out.append(f" to decide ({decision_text(state)})")
    return out


def _track_cell(state: State, r: int) -> Text:
    off = state.info.trk_off[r]
    return _join([player_text(owner) if owner >= 0 else token_text(state.trk_tok[off + i])
                  for i, owner in enumerate(state.track(r))], " ")


def _link_region(state: State, link: int) -> int:
    """The row a link is listed in: the higher-numbered region of its two ends, so a
    link between Europe and a region overseas is listed with the overseas region."""
    x, y = state.info.board.links[link]
    return max(D.SITES[x].region, D.SITES[y].region)


def _link_text(state: State, link: int) -> Text:
    x, y = state.info.board.links[link]
    name = f"{D.SITES[x].code}-{D.SITES[y].code}"
    token = state.link_token[link]
    owner = state.site_owner[x]
    if state.lmark[link] & L_BLOCKADE:
        return Text.assemble((name, "dim"), ("[B]", "bold"))
    if token >= 0:
        return Text.assemble(name, ":", token_text(token))
    if owner >= 0 and state.site_owner[y] == owner:
        return Text.assemble(name, ":", player_text(owner))
    return Text(name, style="dim")


def _site_marks(state: State, s: int) -> str:
    """Exploit markers on site ``s`` (see :data:`MARK_LEGEND`), e.g. ``"[F]"``."""
    m = state.smark[s]
    if not m:
        return ""
    return "".join(tag for bit, tag in ((M_FORTIFIED, "[F]"), (M_MISSIONARY, "[M]"),
                                        (M_PIRATE, "[P]")) if m & bit)


def _sites_cell(state: State, r: int) -> Text:
    info = state.info
    parts = [Text.assemble(_site_code(s), ":", _occupant(state, s),
                           (_site_marks(state, s), "bold"))
             for s in info.cities_in[r] + info.routes_in[r]]
    out = _join(parts)
    links = [_link_text(state, li) for li in range(info.nlinks) if _link_region(state, li) == r]
    if links:
        out.append("\n")
        out.append("links ", style="dim")
        out.append_text(_join(links))
    return out


def _sea_line(state: State, r: int) -> Text:
    parts = [Text.assemble(player_text(p), f"×{state.sea_discs(p, r)}")
             for p in range(state.n) if state.sea_discs(p, r)]
    return Text.assemble(("sea ", "dim"), _join(parts, " ")) if parts else Text("")


def _deck_line(state: State, d: int) -> Text:
    deck = state.decks[d]
    if not deck:
        gone = d == D.SLAVERY_DECK and state.abolished
        return Text(f"{D.DECK_CODES[d]} {'abolished' if gone else 'empty'}", style="dim")
    return Text.assemble(card_label(deck[-1]), (f" ({len(deck)})", "dim"))


def _region_cell(state: State, r: int) -> Text:
    out = Text()
    out.append(D.REGION_NAMES[r], style="bold")
    out.append("\nopen" if state.is_open(r) else "\nclosed",
               style="green" if state.is_open(r) else "dim")
    governor = state.gov_avail[r]
    if governor >= 0:
        out.append(f" Gov {D.CARDS[governor].code}")
    elif r != D.EUROPE:
        out.append(" Gov taken", style="dim")
    for d in (r, D.SLAVERY_DECK) if r == D.EUROPE else (r,):
        out.append("\n")
        out.append_text(_deck_line(state, d))
    return out


def board_view(state: State) -> RenderableType:
    """The map as a table, one row per region. Left: the name, open/closed, the Governor
    if still available and the top card of the region's deck (Europe: also Slavery) with
    the cards left. Middle: the shipping track, farthest space first, each space an owner
    or the token still on it, then open-sea discs per player. Right: cities and trade
    routes (owner or token), then the links, each listed under the region of its
    non-European end (token until claimed, then the controller if any)."""
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), show_edge=False)
    table.add_column("Region · deck", no_wrap=True)
    table.add_column("Track → deck · sea", no_wrap=True)
    table.add_column("Cities & trade routes · links")
    for r in range(D.NREGIONS):
        track = Text("\n").join([_track_cell(state, r), _sea_line(state, r)])
        table.add_row(_region_cell(state, r), track, _sites_cell(state, r),
                      end_section=r < D.NREGIONS - 1)
    return table


def supply_view(state: State) -> Text:
    """Buildings left in the supply, by level."""
    out = Text("Buildings ", style="bold")
    for level in range(1, 6):
        items = [f"{bd.code}×{state.bsupply[b]}" for b, bd in enumerate(D.BUILDINGS)
                 if bd.level == level and state.bsupply[b]]
        if items:
            out.append(f" L{level} ", style="bold")
            out.append(" ".join(items))
    return out


def discard_view(state: State) -> Text:
    """The face-up discard pile, oldest first."""
    out = Text("Discard pile ", style="bold")
    out.append(" · ".join(card_label(c) for c in state.pile) if state.pile else "empty")
    return out


# --------------------------------------------------------------------------- Exploits
def exploit_state(state: State, i: int) -> str:
    """``"active"`` once both regions of Exploit ``i`` are open, else ``"dormant"``."""
    return "active" if state.exploit_active(i) else "dormant"


def shield_holders(state: State, i: int) -> list[int]:
    """Players holding a Shield on Exploit ``i`` (P13), in seat order."""
    return [p for p in range(state.n) if state.has_shield(p, i)]


def exploits_view(state: State) -> RenderableType:
    """The Exploits in play, one row each: name, its two regions (``✓`` open),
    dormant / active, the Shield holders and the tile state (the module's
    :meth:`~endeavor.exploits.base.Exploit.describe`)."""
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), show_edge=False)
    table.add_column("Exploit", no_wrap=True)
    table.add_column("Regions", no_wrap=True)
    table.add_column("State")
    table.add_column("Shields")
    table.add_column("Tile")
    for i, e in enumerate(state.ex):
        regions = Text(" + ").join(
            Text(D.REGION_NAMES[r] + (" ✓" if state.is_open(r) else ""),
                 style="green" if state.is_open(r) else "dim") for r in e.regions)
        active = state.exploit_active(i)
        holders = shield_holders(state, i)
        shields = (_join([player_text(p) for p in holders], " ") if holders
                   else Text("—", style="dim"))
        table.add_row(Text(e.name, style="bold"), regions,
                      Text(exploit_state(state, i), style="green" if active else "dim"),
                      shields, e.describe(state, i))
    return table


# --------------------------------------------------------------------------- player mats
def _building_line(state: State, p: int, i: int) -> Text:
    pl = state.players[p]
    b = pl.blds[i]
    if not D.BUILDINGS[b].activatable:
        mark = Text("·", style="dim")
    elif pl.occ >> i & 1:
        mark = Text("●", style=PLAYER_COLOURS[p])
    else:
        mark = Text("○")
    return Text.assemble(mark, D.BUILDINGS[b].code)


def _counts(values: list[int], first_type: int) -> Text:
    parts = [Text.assemble(token_text(first_type + k), f"×{v}")
             for k, v in enumerate(values) if v]
    return _join(parts, " ") if parts else Text("—", style="dim")


def players_view(state: State, human: int | None = None) -> RenderableType:
    """The player mats side by side, one column per player: the four tracks (score and
    level), buildings (``●`` staffed, ``○`` free circle, ``·`` none), cards in slots, the
    free Governor slot, set-aside Slavery cards, brown and blue tokens (and discs at the
    track bases: Memorial casualties, Spice Trade stock), Harbor and supply, and the
    glory the position would score now. The header marks the player to decide (▶), the
    Crown (♛), who passed (in the Action phase) and the ``human`` seat "(you)"."""
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), collapse_padding=True,
                  show_edge=False)
    table.add_column("")
    frame = state.frame
    for p in range(state.n):
        head = player_text(p)
        if p == human:
            head.append(" (you)")
        if p == state.crown:
            head.append(" ♛")
        if state.phase == PH_ACTIONS and state.has_passed(p):
            head.append(" passed", style="dim")
        if frame is not None and frame[1] == p:
            head = Text.assemble(("▶ ", "bold"), head)
        table.add_column(head, min_width=14)
    players = state.players
    for k, name in enumerate(D.ATTRIBUTES):
        table.add_row(name.capitalize(),
                      *[f"{pl.attr[k]} · L{pl.level(k)}" for pl in players])
    table.add_row("Buildings", *[
        _join([_building_line(state, p, i) for i in range(len(pl.blds))], " ")
        for p, pl in enumerate(players)])
    table.add_row("Cards", *[
        "\n".join(card_label(c) for c in pl.cards) or Text("—", style="dim")
        for pl in players])
    table.add_row("Gov slot", *[
        card_label(pl.gov) if pl.gov >= 0 else Text("empty", style="dim") for pl in players])
    if any(pl.aside for pl in players):
        table.add_row("Set aside", *[" ".join(D.CARDS[c].code for c in pl.aside)
                                     for pl in players])
    table.add_row("Brown", *[_counts(pl.btok, 0) for pl in players])
    if any(any(pl.mem) for pl in players):
        # Memorial casualties, and discs stocked by The Spice Trade (P56)
        table.add_row("Track discs", *[_counts(pl.mem, 0) for pl in players])
    table.add_row("Blue", *[_counts(pl.blue, 4) for pl in players])
    table.add_row("Harbor/sup", *[f"{pl.harbor} / {pl.supply}" for pl in players])
    table.add_row("Glory now", *[str(s.total) for s in final_scores(state)],
                  style="bold")
    return table


# --------------------------------------------------------------------------- actions
def _track_hint(state: State, r: int) -> str:
    filled = state.filled[r]
    length = state.info.trk_len[r]
    token = TOKEN_ABBREVS[state.trk_tok[state.info.trk_off[r] + filled]]
    opens = ", opens the region" if filled + 1 == length else ""
    return f"track {filled + 1}/{length}, {token}{opens}"


def _site_hint(state: State, s: int) -> str:
    site = D.SITES[s]
    token = state.site_token[s]
    parts = [site.name]
    if site.glory:
        parts.append(f"G{site.glory}")
    if token >= 0:
        parts.append(TOKEN_ABBREVS[token])
    return ", ".join(parts)


def action_hint(state: State, action: Action) -> str:
    """A short explanation of what ``action`` does in ``state`` (which must list it as
    legal): the building's action, the track space's token, the card drawn, ..."""
    verb, arg = action.verb, action.arg
    if verb in (A.V_START, A.V_BUILD):
        return building_label(arg)
    if verb == A.V_ACT:
        bd = D.BUILDINGS[arg]
        return source_label(bd.mode, bd.kind1, bd.kind2)
    if verb == A.V_USE:
        return source_label(*D.TOKEN_ACTIONS[arg - 4])
    if verb == A.V_PAY:
        return "worker back to Harbor"
    if verb == A.V_SHIP:
        return _track_hint(state, arg)
    if verb in (A.V_ROUTE, A.V_OCCUPY):
        return _site_hint(state, arg)
    if verb == A.V_SEA:
        return "open sea"
    if verb >= A.V_EXPLOIT and verb < A.V_DONE:
        return _exploit_hint(state, action)
    if verb == A.V_ATTACK:
        owner = state.site_owner[arg]
        held = f", held by {player_name(owner)}" if owner >= 0 else ""
        return f"{D.SITES[arg].name}{held}"
    if verb == A.V_DRAW:
        deck = state.decks[arg]
        return card_label(deck[-1]) if deck else ""
    if verb in (A.V_DRAWP, A.V_DISCARD):
        return card_gives(arg)
    if verb == A.V_SLOT:
        return "keep the slot empty" if arg == A.NONE_ARG else card_gives(arg)
    if verb == A.V_CASUALTY:
        return "disc to supply" if arg == A.SUPPLY_ARG else f"{D.ATTRIBUTES[arg]} +1"
    if verb == A.V_DONE:
        frame = state.frame
        if frame is not None and frame[0] == F_EXPLOIT:
            return "finish"
        return "skip this action"
    return "out for this round"  # V_PASS


def _exploit_hint(state: State, action: Action) -> str:
    """The Exploit an action belongs to, and for an ability the action kind it replaces
    (the notation itself says what it does)."""
    number = (action.verb - A.V_EXPLOIT) // A.EXPLOIT_VERBS + 1
    for e in state.ex:
        if e.number == number:
            frame = state.frame
            local = action.verb - e.verb(0)
            if frame is not None and frame[0] == F_EFFECT and local in e.kinds:
                return f"{e.name}: instead of {D.KIND_NAMES[e.kinds[local]]}"
            return e.name
    return ""


def menu_view(state: State, actions: list[Action]) -> RenderableType:
    """The numbered menu (1-based) of ``actions`` with their hints, in columns."""
    items = [Text.assemble((f"{i:>2} ", "bold"), (a.text, "bold"), " ",
                           (action_hint(state, a), "dim"))
             for i, a in enumerate(actions, 1)]
    return Columns(items, padding=(0, 3), column_first=True)


# --------------------------------------------------------------------------- scores
def score_table(state: State) -> RenderableType:
    """The final score breakdown: one column per player, one row per score line of
    :func:`final_scores` in pad order, then the total and the rank (ties share a rank).
    The winners are marked ★."""
    scores = final_scores(state)
    table = Table(title="Final score", box=box.SIMPLE_HEAD, show_edge=False)
    table.add_column("")
    for s in scores:
        head = player_text(s.player)
        if s.rank == 1:
            head.append(" ★")
        table.add_column(head, justify="right")
    exploit_lines = len(state.ex)  # one line per Exploit comes first (R19)
    for k, line in enumerate(scores[0].lines):
        table.add_row(line, *[str(s.lines[line]) for s in scores],
                      end_section=k == exploit_lines - 1)
    table.add_section()
    table.add_row("Total", *[str(s.total) for s in scores], style="bold")
    table.add_row("Rank", *[str(s.rank) for s in scores])
    return table


def game_view(state: State, human: int | None = None) -> RenderableType:
    """Everything on the table: status line, board, the Exploits in play (if any),
    building supply, discard pile and player mats (the :data:`LEGEND` is left to the
    caller)."""
    parts: list[RenderableType] = [status_line(state), board_view(state)]
    if state.ex:
        parts.append(exploits_view(state))
    parts += [supply_view(state), discard_view(state), players_view(state, human)]
    return Group(*parts)
