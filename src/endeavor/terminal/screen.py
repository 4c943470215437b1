"""The terminal screen of ``endeavor play`` and ``endeavor replay --step``.

One screen shows the whole table in a fixed number of lines, so that it can be redrawn
in place at every decision and the header (round, phase, whose turn, the Crown) is always
its first line. For a 100-column, 40-line terminal it holds, top to bottom:

* the header (1 line);
* the board: one line per region (deck top card and cards left, who would take the
  Governor now, the shipping track far to near, cities and trade routes, open-sea discs);
* the building supply and the discard pile, the links (their tokens or controller; short
  of room: the tokens still there by kind, and how many links each player holds);
* the Exploits in play (regions, dormant / active, Shields, the module's tile state);
* every player's mat (2 lines each: who plays it, "you" or the bot's name; tracks and
  levels, Harbor, supply, glory now; buildings, cards, Governor slot, tokens);
* the log: what happened since the human's last decision (marked ``»``), in order, with
  every automatic step, built from the engine's events; older lines fill spare room;
* the decision's prompt and the menu, grouped by kind and numbered left to right, top to
  bottom; an entry's words wrap into spare lines rather than being cut, a collapsed
  entry lists its targets first, and a sub-menu shows its entries without the prefix
  they share (shown above them); an option's effect its words do not say (the score
  change of a last discard, as the web app shows it) follows its words in brackets.

:func:`compose` fits these into ``width`` × ``height``: when room is short it first
drops older log lines, then shortens sections in a fixed order (links, supply, Exploits,
the board's column titles, prompt, mats), and only as a last resort elides the oldest
new log lines (the ``log`` command shows them all). A larger terminal gets fuller lines
(region and building names, card contents, whole option texts) and more log.

Only the engine's public API is read: :meth:`State.decision` for the menu and its
words, :class:`~endeavor.events.Event` lists for the log, and the read-only queries
and fields for the board.
"""

from __future__ import annotations

import io
import re
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rich.console import Console, Group, RenderableType
from rich.text import Text

from .. import data as D
from ..actions import Action
from ..decision import Decision, Option
from ..events import Event
from ..frames import PH_ACTIONS
from ..rules.words import icon_letters
from ..state import State
from . import render as R
from . import words as W

WIDTH, HEIGHT = 100, 40  # the screen when stdout is not a terminal
#: a menu with more options than this (at 40 lines; more on taller screens) is offered
#: ability first: options sharing a notation prefix collapse into one sub-menu entry
COLLAPSE_AT = 20
_MIN_COLLAPSE = 3  # a group of fewer options stays expanded
_PLAYER_RE = re.compile(r"\bP([0-4])\b")
_ELLIPSIS = "…"
_NBSP = "\u00a0"
#: French puts a space before these marks: a line must not break there
_GLUED = re.compile(r" ([:;?!»])")


def _glue(text: str, lang: str) -> str:
    """``text`` with the spaces before ``:`` ``;`` ``?`` ``!`` made unbreakable (French
    typography), so that wrapping never starts a line with the mark; :func:`_unglue`
    turns them back into spaces once the lines are cut."""
    return text if lang == "en" else _GLUED.sub(_NBSP + r"\1", text)


def _unglue(text: str) -> str:
    return text.replace(_NBSP, " ")


# =========================================================================== text helpers
def fit(text: Text, width: int) -> Text:
    """``text`` on one line of at most ``width`` cells (cut with an ellipsis)."""
    out = text.copy()
    out.no_wrap = True
    out.overflow = "ellipsis"
    if out.cell_len > width:
        out.truncate(max(width, 1), overflow="ellipsis")
    return out


def _styled(plain: str, style: str = "") -> Text:
    """Plain text with player names in their colours."""
    out = Text(plain, style=style)
    for m in _PLAYER_RE.finditer(plain):
        out.stylize(R.player_style(int(m.group(1))), m.start(), m.end())
    return out


def _pack(chunks: Sequence[Text], width: int, first: Text, indent: int,
          sep: str = "  ") -> list[Text]:
    """Lay ``chunks`` out after ``first`` and on continuation lines indented by
    ``indent``, each line at most ``width`` cells (a chunk is never split)."""
    lines: list[Text] = []
    line = first.copy()
    empty = True
    for chunk in chunks:
        add = chunk.cell_len + (0 if empty else len(sep))
        if not empty and line.cell_len + add > width:
            lines.append(line)
            line = Text(" " * indent)
            empty = True
        if not empty:
            line.append(sep)
        line.append_text(chunk)
        empty = False
    lines.append(line)
    return lines


def renderable_lines(renderable: RenderableType, width: int) -> list[Text]:
    """A Rich renderable as styled text lines of ``width`` cells (trailing blanks cut)."""
    console = Console(width=width, file=io.StringIO(), color_system="truecolor",
                      force_terminal=True, legacy_windows=False)
    out = []
    for segments in console.render_lines(renderable, console.options.update(width=width),
                                         pad=False):
        line = Text()
        for seg in segments:
            if not seg.control:
                line.append(seg.text, seg.style)
        line.rstrip()
        out.append(line)
    while out and not out[-1].plain.strip():
        out.pop()
    return out


# =========================================================================== the log
@dataclass
class LogLine:
    """One line of the log: its text, and whether it is new (since the human's last
    decision)."""

    text: Text
    new: bool = False
    first: bool = True  # the first line of a paragraph


def _paragraphs(events: Sequence[Event], breaks: frozenset[int]) -> list[list[int]]:
    """Indices of ``events`` grouped into paragraphs: an action (with the same player's
    next action right after it, e.g. the building activated and what it did) and the
    automatic steps it caused; a run of phase and round changes; a new paragraph at
    every index in ``breaks``."""
    out: list[list[int]] = []
    for i, e in enumerate(events):
        prev = events[i - 1] if i else None
        start = prev is None or i in breaks
        if not start and prev is not None:
            if e.kind == "action":
                start = not (prev.kind == "action" and prev.player == e.player)
            elif e.kind in ("round", "phase"):
                start = prev.kind not in ("round", "phase")
            elif e.kind in ("info", "game_end"):
                start = True
        if start or not out:
            out.append([i])
        else:
            out[-1].append(i)
    return out


def _event_text(events: Sequence[Event], i: int, first: bool, lang: str = "en") -> str:
    """An event's words in ``lang`` (third person); a follow-up action drops its
    repeated ``"P1: "``."""
    e = events[i]
    text = " ".join((e.text if lang == "en" else e.render(lang)).split())
    if not first and e.kind == "action" and e.player is not None:
        for prefix in (f"P{e.player}: ", f"P{e.player} : "):
            if text.startswith(prefix):
                text = text[len(prefix):]
                break
    return text


def log_lines(events: Sequence[Event], width: int, new_from: int | None = None,
              gutter: bool = True, lang: str = "en") -> list[LogLine]:
    """The log of ``events`` in reading order, ``width`` cells wide. Events from index
    ``new_from`` on are new: marked ``»`` and bright; older lines are dim."""
    breaks = frozenset() if new_from is None else frozenset({new_from})
    text_w = max(20, width - (2 if gutter else 0))
    out: list[LogLine] = []
    for para in _paragraphs(events, breaks):
        kind = events[para[0]].kind
        new = new_from is not None and para[0] >= new_from
        texts = [_event_text(events, i, k == 0, lang) for k, i in enumerate(para)]
        plain_lines: list[str] = []
        line = ""
        for t in texts:
            if not line:
                line = t
            elif len(line) + 3 + len(t) <= text_w:
                line += " · " + t
            else:
                plain_lines.append(line)
                line = "  " + t
        plain_lines.append(line)
        wrapped: list[str] = []
        for pl in plain_lines:
            indent = "    " if not pl.startswith("  ") else "      "
            wrapped += [_unglue(w) for w in textwrap.wrap(
                _glue(pl, lang), text_w, subsequent_indent=indent,
                drop_whitespace=True)] or [pl]
        marker = kind in ("round", "phase", "info", "game_end")
        for k, pl in enumerate(wrapped):
            style = "bold" if marker else ""
            if not new and new_from is not None:
                style = (style + " dim").strip()
            body = _styled(pl, style)
            if gutter:
                head = Text("» " if new and k == 0 else "  ",
                            style="bold bright_yellow" if new else "")
                body = Text.assemble(head, body)
            out.append(LogLine(body, new, k == 0))
    return out


# =========================================================================== the menu
_VERB_GROUPS = {
    "start": "Start", "build": "Build", "pay": "Pay", "act": "Activate", "use": "Tokens",
    "ship": "Ship", "sea": "Ship", "occupy": "Occupy", "attack": "Attack", "draw": "Draw",
    "casualty": "Casualty", "slot": "Gov slot", "discard": "Discard", "pass": "Pass",
    "done": "Done",
}


@dataclass
class Entry:
    """One numbered menu entry: an action, or a sub-menu of the options whose notation
    starts with ``notation`` (then ``action`` is None and ``count`` says how many)."""

    number: int
    notation: str
    text: str
    action: Action | None = None
    count: int = 0
    #: the notation as shown: in a sub-menu, without the words it shares with its
    #: prefix (shown above the menu); otherwise the whole notation
    label: str = ""

    @property
    def is_submenu(self) -> bool:
        return self.action is None

    @property
    def shown(self) -> str:
        return self.label or self.notation


@dataclass
class Menu:
    """The menu of a decision (or of one of its sub-menus, ``prefix`` non-empty): groups
    of entries, numbered 1.. in the order they are shown."""

    prefix: str
    groups: list[tuple[str, list[Entry]]] = field(default_factory=list)
    lang: str = "en"

    @property
    def entries(self) -> list[Entry]:
        return [e for _, group in self.groups for e in group]

    def entry(self, number: int) -> Entry | None:
        for e in self.entries:
            if e.number == number:
                return e
        return None

    def __len__(self) -> int:
        return sum(len(g) for _, g in self.groups)


def _words(o: Option) -> list[str]:
    return o.action.text.split()


def _common_words(texts: Sequence[str]) -> str:
    """The longest run of whole words that every text starts with."""
    if not texts:
        return ""
    split = [t.split(" ") for t in texts]
    common: list[str] = []
    for column in zip(*split, strict=False):
        if all(w == column[0] for w in column):
            common.append(column[0])
        else:
            break
    return " ".join(common)


def _partition(options: list[Option], depth: int,
               limit: int) -> list[Option | tuple[str, list[Option]]]:
    """The entries for ``options`` whose first ``depth`` notation words are shared: every
    option when there are at most ``limit``; otherwise options sharing their first k
    words (k as large as keeps the entries within ``limit``) collapse into sub-menus."""
    if len(options) <= limit:
        return list(options)
    longest = max(len(_words(o)) for o in options)
    finer: list[Option | tuple[str, list[Option]]] | None = None
    for k in range(longest - 1, depth, -1):
        groups: dict[str, list[Option]] = {}
        for o in options:
            w = _words(o)
            key = " ".join(w[:k]) if len(w) > k else o.action.text
            groups.setdefault(key, []).append(o)
        entries: list[Option | tuple[str, list[Option]]] = []
        placed: set[str] = set()
        for o in options:
            w = _words(o)
            key = " ".join(w[:k]) if len(w) > k else o.action.text
            members = groups[key]
            if len(members) < _MIN_COLLAPSE or len(w) <= k:
                entries.append(o)
            elif key not in placed:
                placed.add(key)
                entries.append((key, members))
        if len(entries) == 1 and finer is not None:
            return finer
        if len(entries) <= limit:
            return entries
        finer = entries
    return finer if finer is not None else list(options)


def _unprefixed(notation: str, prefix: str) -> str:
    """``notation`` without the words of ``prefix`` it starts with (a sub-menu shows the
    prefix above its entries), or "" to show it whole."""
    words, head = notation.split(), prefix.split()
    if head and words[:len(head)] == head and len(words) > len(head):
        return " ".join(words[len(head):])
    return ""


_SITE_NAMED = re.compile(r"\b([A-Z]{2,3}T?\d+) \(([^)+][^)]*)\)")


def _site_named(text: str, notation: str) -> str:
    """``text`` with the site its notation names as ``EU3 (Cadiz)`` shortened to
    ``Cadiz`` (the code is in the notation beside it): room for the effect."""
    code = notation.split()[-1]
    if code not in D.SITE_INDEX:
        return text
    for m in _SITE_NAMED.finditer(text):
        if m.group(1) == code:
            head = text[:m.start()]
            if head.endswith("the ") and D.SITES[D.SITE_INDEX[code]].city:
                head = head[:-4]  # "Attack the EU3 (Cadiz)" -> "Attack Cadiz"
            return head + m.group(2) + text[m.end():]
    return text


def _group_label(notation: str) -> str:
    first = notation.split(" ", 1)[0]
    return _VERB_GROUPS.get(first, first)


def build_menu(decision: Decision, prefix: str = "", limit: int = COLLAPSE_AT,
               effects: Mapping[str, str] | None = None, lang: str = "en") -> Menu:
    """The menu of ``decision`` (its options, in their order, grouped by kind: the first
    word of the notation), or of the sub-menu of the options starting with ``prefix``.
    Long menus collapse options sharing a notation prefix into a sub-menu entry.
    ``effects``: what an option changes that its words do not say, by notation (the
    web's ``effect``: the score change of the last discards, the Harbor discs an
    activation leaves), shown after its words in brackets."""
    options = decision.options
    depth = 0
    if prefix:
        depth = len(prefix.split())
        options = [o for o in options if _words(o)[:depth] == prefix.split()]
    parts = _partition(list(options), depth, limit)
    labelled: dict[str, list[Option | tuple[str, list[Option]]]] = {}
    for part in parts:
        notation = part[0] if isinstance(part, tuple) else part.action.text
        labelled.setdefault(_group_label(notation), []).append(part)
    singles = [label for label, group in labelled.items() if len(group) == 1]
    if len(singles) >= 2 and len(labelled) > len(singles):
        merged: dict[str, list[Option | tuple[str, list[Option]]]] = {}
        for label, group in labelled.items():
            merged.setdefault("Or" if label in singles else label, []).extend(group)
        labelled = merged
    menu = Menu(prefix, lang=lang)
    number = 1

    def said(o: Option) -> str:
        return o.text if lang == "en" else o.render(lang, viewer=o.player)
    for label, group in labelled.items():
        leaves = [said(p) for p in group if not isinstance(p, tuple)]
        common = _common_words(leaves) if len(leaves) >= 2 else ""
        entries: list[Entry] = []
        for part in group:
            if isinstance(part, tuple):
                key, members = part
                depth_k = len(key.split())
                nexts = list(dict.fromkeys(" ".join(_words(m)[depth_k:depth_k + 1])
                                           for m in members))
                shared = _common_words([said(m) for m in members])
                text = W.say(lang, W.CHOICES, n=str(len(members)),
                             targets=" ".join(nexts))  # the targets first
                if shared:
                    text += f" · {shared} …"
                notation = key + " …"
                entries.append(Entry(number, notation, text, None, len(members),
                                     _unprefixed(notation, prefix)))
            else:
                text = said(part)
                if common and len(text) > len(common) + 1:
                    text = text[len(common):].lstrip(" :,")
                notation = part.action.text
                text = _site_named(text, notation)
                if effects and notation in effects:
                    text += f" [{effects[notation]}]"
                entries.append(Entry(number, notation, _glue(text, lang), part.action,
                                     label=_unprefixed(notation, prefix)))
            number += 1
        if label in W.GROUPS:
            label = W.say(lang, W.GROUPS[label])
        menu.groups.append((label, entries))
    return menu


#: shorter words for an option's effect when its cell is too narrow for them
_COMPACT = ((re.compile(r"\bgain an? ([\w/]+) token\b"), r"+\1"),
            (re.compile(r" glory at the end\b"), " glory"),
            (re.compile(r"\bcompletes the link(s?)\b"), r"link\1"),
            (re.compile(r"\b(\w+) token\)"), r"\1)"))


def _compact(text: str) -> str:
    """``"Cadiz: 1 glory at the end, gain a Culture token; completes the link EU3-EU4
    (Wealth token)"`` -> ``"Cadiz: 1 glory, +Culture; link EU3-EU4 (Wealth)"``."""
    for pattern, short in _COMPACT:
        text = pattern.sub(short, text)
    return text


def _entry_cell(e: Entry, num_w: int, cell_w: int) -> Text:
    """``12 occupy EU3 Cadiz: 1 glory …`` in ``cell_w`` cells: the number and the
    notation whole, then as much of the effect in words as fits."""
    return _entry_lines(e, num_w, cell_w, 1)[0]


def _entry_lines(e: Entry, num_w: int, cell_w: int, most: int) -> list[Text]:
    """The entry in at most ``most`` lines of ``cell_w`` cells: the number and the
    notation, then the effect in words, wrapped under the notation (in shorter words,
    :func:`_compact`, if the whole words do not fit); the last line is cut with an
    ellipsis if the words still do not fit."""
    out = Text.assemble((f"{e.number:>{num_w}} ", "bold"),
                        (e.shown, "bold cyan" if e.is_submenu else "bold"))
    style = "dim" if not e.is_submenu else ""
    if not e.text or out.cell_len + 4 > cell_w:
        return [fit(out, cell_w)]
    out.append(" ")
    room = cell_w - out.cell_len
    indent = " " * (num_w + 3)

    def wrap(text: str) -> list[str]:
        words = text.split(" ")
        first = ""
        while words and len(first) + len(words[0]) + (1 if first else 0) <= room:
            first += (" " if first else "") + words.pop(0)
        rest = " ".join(words)
        return [first] + (textwrap.wrap(rest, max(10, cell_w - len(indent))) if rest else [])

    parts = wrap(e.text)
    if len(parts) > most:
        parts = wrap(_compact(e.text))
    if len(parts) > most:  # the last line allowed holds the rest, cut
        parts = parts[:most - 1] + [" ".join(parts[most - 1:])]
    out.append(_unglue(parts[0]), style=style)
    return [fit(out, cell_w)] + [fit(Text.assemble(indent, (_unglue(w), style)), cell_w)
                                 for w in parts[1:]]


def _cut(e: Entry, num_w: int, cell_w: int) -> int:
    """How many more lines the entry's words would take wrapped (0: they fit)."""
    return len(_entry_lines(e, num_w, cell_w, 3)) - 1


def menu_layout(menu: Menu, width: int, budget: int, squeeze: bool = False) -> list[Text]:
    """The menu in at most ``budget`` lines if it can be: each group on its own lines
    after its label, entries numbered left to right then top to bottom; a group gets
    more columns (shorter option texts) only while the menu is too tall, and keeps at
    least a few words of each text unless ``squeeze`` (then only the notations). Lines
    left in the budget let the words of a one-column group's entries wrap (at most 3
    lines an entry) instead of being cut."""
    if not menu.groups:
        return []
    label_w = min(9 if menu.lang == "en" else 11,
                  max(len(label) for label, _ in menu.groups)) + 1
    num_w = len(str(len(menu)))
    avail = max(20, width - label_w)
    cols = {i: 1 for i in range(len(menu.groups))}

    def min_cell(i: int) -> int:
        longest = max(len(e.shown) for e in menu.groups[i][1])
        return num_w + 1 + longest + 6

    def rows(i: int) -> int:
        return -(-len(menu.groups[i][1]) // cols[i])

    while sum(rows(i) for i in cols) > budget:
        best, gain = -1, 0
        for i in cols:
            n = len(menu.groups[i][1])
            c = cols[i] + 1
            if c > n or avail // c < min_cell(i):
                continue
            g = rows(i) - -(-n // c)
            if g > gain or (g == gain and best >= 0 and c < cols[best] + 1):
                best, gain = i, g
        if best < 0:
            if not squeeze:
                break
            # no group can take more columns without losing the texts: use the
            # narrowest cells that still show the notation
            for i in cols:
                n = len(menu.groups[i][1])
                while cols[i] < n and avail // (cols[i] + 1) >= num_w + 2 + max(
                        len(e.shown) for e in menu.groups[i][1]):
                    cols[i] += 1
            break
        cols[best] += 1
    spare = max(0, budget - sum(rows(i) for i in cols))
    out: list[Text] = []
    for i, (label, entries) in enumerate(menu.groups):
        c = cols[i]
        cell_w = avail // c
        for r in range(0, len(entries), c):
            head = Text.assemble((f"{label[:label_w - 1]:<{label_w}}" if r == 0
                                  else " " * label_w, "bold"))
            line = head
            if c == 1:
                e = entries[r]
                more = min(spare, _cut(e, num_w, cell_w - 2))
                spare -= more
                cells = _entry_lines(e, num_w, cell_w - 2, 1 + more)
                out.append(fit(Text.assemble(head, cells[0]), width))
                out += [fit(Text.assemble(" " * label_w, t), width) for t in cells[1:]]
                continue
            for k, e in enumerate(entries[r:r + c]):
                cell = _entry_cell(e, num_w, cell_w - 2)
                line.append_text(cell)
                if k < c - 1:
                    line.append(" " * (cell_w - cell.cell_len))
            out.append(fit(line, width))
    return out


# =========================================================================== sections
def header_line(state: State, width: int, human: int | None = None,
                title: str = "", names: Mapping[int, str] | None = None,
                lang: str = "en") -> Text:
    """Round, phase, whose decision (``names``: seat -> bot name, shown after a bot's
    seat), the Crown, the Exploits and the game's settings, on one line (the settings
    are cut first when the line is too long)."""
    out = Text()
    if title:
        out.append(title + " · ", style="bold")
    if state.is_over:
        out.append(W.say(lang, W.GAME_OVER), style="bold")
    elif state.round == 0:
        out.append(W.say(lang, W.SETUP), style="bold")
    else:
        out.append(W.say(lang, W.ROUND, round=str(state.round),
                         rounds=str(state.rules.rounds),
                         phase=W.term(lang, "phase", state.phase_name)), style="bold")
    player = state.current_player
    if player is not None:
        out.append(" · ▶ ")
        out.append_text(R.player_text(player))
        if player == human:
            out.append(" " + W.say(lang, W.YOU_PAREN))
        elif names and player in names:
            out.append(f" ({names[player]})")
        decision = state.decision()
        if decision is not None:
            kind = W.KINDS.get(decision.kind)
            out.append(" " + (W.say(lang, kind) if kind
                              else decision.kind.replace('_', ' ')))
    out.append(f" · {W.say(lang, W.CROWN)} ")
    out.append_text(R.player_text(state.crown))
    if state.exploits:
        active = sum(state.exploit_active(i) for i, _ in state.exploits)
        out.append(" · " + W.say(lang, W.EXPLOITS_ACTIVE, active=str(active),
                                 total=str(len(state.exploits))))
    config = state.config
    out.append(" · " + W.say(lang, W.SETTINGS, players=str(len(state.players)),
                             board=str(config.board), seed=str(config.seed)), style="dim")
    if out.cell_len < width:
        out.append(" " * (width - out.cell_len))
    out.stylize("on grey23")
    return fit(out, width)


def _deck_text(state: State, d: int, wide: bool, lang: str = "en") -> Text:
    deck = state.decks[d]
    code = D.DECK_CODES[d]
    if not deck:
        return Text(f"{code} —", style="dim")
    top = deck[-1]
    out = Text(D.CARDS[top].code)
    if wide:
        if R.card_gives(top, lang):
            out.append(" " + R.card_gives(top, lang), style="dim")
        out.append(f" ({len(deck)})", style="dim")
    else:
        out.append(f"·{len(deck)}", style="dim")
    return out


def _pad(text: Text, width: int) -> Text:
    out = text.copy()
    if out.cell_len < width:
        out.append(" " * (width - out.cell_len))
    return out


def board_lines(state: State, width: int, titles: bool = True,
                lang: str = "en") -> list[Text]:
    """One line per region (more only if a region's sites do not fit): the region (✓
    open), its deck's top card and cards left (Europe: also Slavery), the Governor
    (``gov→P2``: who takes it if the region opened now), the track far to near (owner or
    the token still there), cities and trade routes, and open-sea discs."""
    info = state.info
    wide = width >= 130
    names = width >= 120
    region_names = [W.say(lang, W.REGIONS[n]) if n in W.REGIONS else n
                    for n in D.REGION_NAMES]
    name_w = (2 + 1 + max(len(n) for n in region_names)) if names else 2
    label_w = name_w + 2
    deck_w = 7 + (14 if wide else 0)
    gov_w = len(W.say(lang, W.COL_GOV)) + 4  # "gov→P2" and a space
    track_len = max(len(state.track(r)) for r in range(1, D.NREGIONS))
    track_w = track_len * 4
    out: list[Text] = []
    if titles:
        head = Text(" " * label_w)
        head.append(_pad(Text(W.say(lang, W.COL_DECK)), deck_w))
        head.append(_pad(Text(W.say(lang, W.COL_GOV)), gov_w))
        head.append(_pad(Text(W.say(lang, W.COL_TRACK)), track_w))
        head.append(W.say(lang, W.COL_SITES_CLASSIC if state.config.ruleset == "classic"
                          else W.COL_SITES))
        head.stylize("dim")
        out.append(fit(head, width))
    for r in range(D.NREGIONS):
        label = Text.assemble((D.REGION_CODES[r], "bold"))
        if names:
            label.append(" " + region_names[r])
        is_open = state.is_open(r)
        label.append("✓" if is_open and r != D.EUROPE else " ",
                     style="green" if is_open else "")
        if is_open and r != D.EUROPE:
            label.stylize("green", 0, 2)
        line = _pad(label, label_w)
        sites = [Text.assemble(R.site_short(state, s, r), ":",
                               R.occupant_text(state, s, lang))
                 for s in info.cities_in[r] + info.routes_in[r]]
        if r == D.EUROPE:
            decks = Text.assemble(_deck_text(state, D.EUROPE, wide, lang), " ",
                                  _deck_text(state, D.SLAVERY_DECK, wide, lang))
            if decks.cell_len >= deck_w + gov_w:
                decks.append(" ")
            line.append_text(_pad(decks, deck_w + gov_w))
            indent = line.cell_len
        else:
            line.append_text(_pad(_deck_text(state, r, wide, lang), deck_w))
            gov = Text()
            if state.region_governors[r] >= 0:
                winner = state.governor_winner(r)
                gov.append(W.say(lang, W.COL_GOV))
                if winner >= 0:
                    gov.append("→")
                    gov.append_text(R.owner_text(state, winner))
            line.append_text(_pad(gov, gov_w))
            owners = state.track(r)
            tokens = state.track_tokens(r)
            track = Text()
            for owner, token in zip(owners, tokens, strict=True):
                cell = (R.owner_text(state, owner) if owner >= 0 else
                        R.token_text(token, lang) if token >= 0 else Text("·", style="dim"))
                track.append_text(_pad(cell, 4))
            line.append_text(_pad(track, track_w))
            indent = label_w + deck_w + gov_w + track_w
            sea = [Text.assemble(R.owner_text(state, p), f"×{state.sea_discs(p, r)}")
                   for p in range(state.owners) if state.sea_discs(p, r)]
            if sea:  # the 2009 board has no open sea: discs beside a full track
                word = W.say(lang, W.BESIDE if state.config.ruleset == "classic"
                             else W.SEA) + " "
                sites.append(Text.assemble((word, "dim"), Text(" ").join(sea)))
        out += [fit(t, width) for t in _pack(sites, width, line, indent, sep=" ")]
    return out


def _link_name(a: str, b: str, short: bool) -> str:
    """``EU9-EU10``, or ``EU9-10`` (``short``) when both ends are in the same region."""
    if short and a[:2] == b[:2] and a[2:3].isdigit() and b[2:3].isdigit():
        return f"{a}-{b[2:]}"
    return f"{a}-{b}"


def _link_entries(state: State, short: bool = False) -> list[tuple[str, int, int]]:
    """Every link with its token still there or a controller, in board order (by
    region): ``(name, token or -1, controller or -1)``."""
    board = state.info.board
    out: list[tuple[tuple[int, str], str, int, int]] = []
    for li, (x, y) in enumerate(board.links):
        sx, sy = D.SITES[x], D.SITES[y]
        controller = next((p for p in range(len(state.players))
                           if state.controls_link(p, li)), -1)
        token = state.link_token[li] if controller < 0 else -1
        if controller >= 0 or token >= 0:
            out.append(((max(sx.region, sy.region), f"{sx.code}-{sy.code}"),
                        _link_name(sx.code, sy.code, short), token, controller))
    out.sort(key=lambda e: e[0])
    return [(name, token, controller) for _, name, token, controller in out]


def links_lines(state: State, width: int, level: int = 0, lang: str = "en") -> list[Text]:
    """The links: level 0 each as ``EU1-IN1:wea`` (its token still there) or ``…:P2``
    (controlled); level 1 (short of room) at most 2 lines: the tokens still there, by
    kind (``wea EU9-10 AF1-2``), then how many links each player controls."""
    first = Text.assemble((W.say(lang, W.LINKS) + "  ", "bold"))
    links = _link_entries(state, short=level >= 1)
    if not links:
        return [fit(Text.assemble(first, (W.say(lang, W.LINKS_NONE), "dim")),
                    width)]
    if level == 0:
        entries = [Text.assemble(name, ":", R.player_text(p) if p >= 0
                                 else R.token_text(t, lang))
                   for name, t, p in links]
        return [fit(t, width) for t in _pack(entries, width, first, first.cell_len)]
    chunks: list[Text] = []
    owners = [p for _, _, p in links if p >= 0]
    if owners:
        held = Text.assemble((W.say(lang, W.LINKS_HELD) + " ", "dim"))
        held.append_text(Text(" ").join(Text.assemble(R.player_text(p), f"×{owners.count(p)}")
                                        for p in sorted(set(owners))))
        chunks.append(held)
    for kind in sorted({t for _, t, _ in links if t >= 0}):
        for k, name in enumerate(n for n, t, _ in links if t == kind):
            if k:
                chunks.append(Text(name))
            else:  # the token's kind (in its colour) before its first link
                chunks.append(Text.assemble(R.token_text(kind, lang), " ", name))
    lines = _pack(chunks, width, first, 2, sep=" ")
    for extra in lines[2:]:  # the rest joins the second line, cut with an ellipsis
        lines[1].append(" ")
        lines[1].append_text(extra[2:])
    return [fit(t, width) for t in lines[:2]]


def supply_lines(state: State, width: int, level: int = 0, lang: str = "en") -> list[Text]:
    """Buildings left in the supply by level (full names, or three letters when short of
    room), and the face-up discard pile; level 2 puts both on one line."""
    short = level >= 1 or width < 120
    chunks: list[Text] = []
    for lvl in range(1, 6):
        items = [f"{R.building_name(b, short)} {state.building_supply[b]}"
                 for b, bd in enumerate(D.BUILDINGS)
                 if bd.level == lvl and state.building_supply[b]]
        if items:
            chunk = Text.assemble((f"L{lvl} ", "bold"))
            chunk.append(" ".join(items))
            chunks.append(chunk)
    first = Text.assemble((W.say(lang, W.SUPPLY_TITLE) + "  ", "bold"))
    lines = _pack(chunks, width, first, first.cell_len, sep=" │ ")
    if level >= 1:
        lines = lines[:1]
    pile = Text.assemble((W.say(lang, W.PILE) + " ", "bold"))
    if state.pile:
        full = " ".join(R.card_label(c, lang) for c in state.pile)
        codes = " ".join(D.CARDS[c].code for c in state.pile)
        pile.append(full if len(full) + pile.cell_len <= width else codes)
    else:
        pile.append(W.say(lang, W.EMPTY), style="dim")
    if level >= 2:
        lines[0].append(" │ ")
        lines[0].append_text(pile)
        return [fit(lines[0], width)]
    return [fit(t, width) for t in lines] + [fit(pile, width)]


def exploit_lines(state: State, width: int, level: int = 0, lang: str = "en") -> list[Text]:
    """Each Exploit in play: name, regions (✓ open), dormant / active, Shield holders,
    then the module's own description of its tile (level 0: wrapped under the name,
    up to 2 lines; level 1: cut on the same line)."""
    out: list[Text] = []
    for i, e in enumerate(state.modules):
        if not e.is_exploit:  # a variant (the Silent Fleet): its own one-line summary
            out.append(fit(Text.assemble((W.term(lang, "module", e.name), "bold"), "  ",
                                         (e.describe_in(state, i, lang), "dim")),
                           width))
            continue
        line = Text.assemble((W.term(lang, "exploit", e.name), "bold"))
        line.append("  ")
        for k, r in enumerate(e.regions):
            if k:
                line.append("+")
            line.append(D.REGION_CODES[r] + ("✓" if state.is_open(r) else ""),
                        style="green" if state.is_open(r) else "dim")
        active = state.exploit_active(i)
        line.append("  ")
        line.append(R.exploit_state(state, i, lang), style="green" if active else "dim")
        holders = R.shield_holders(state, i)
        line.append(f"  {W.say(lang, W.SHIELDS)} ")
        if holders:
            line.append_text(Text(" ").join(R.player_text(p) for p in holders))
        else:
            line.append("—", style="dim")
        tile = e.describe_in(state, i, lang)
        if level >= 1:
            line.append(" │ ")
            line.append(tile, style="dim")
            out.append(fit(line, width))
        else:
            out.append(fit(line, width))
            wrapped = textwrap.wrap(tile, width - 4) or [""]
            if len(wrapped) > 2:
                wrapped = [wrapped[0], wrapped[1][:max(1, width - 6)] + " " + _ELLIPSIS]
            out += [fit(Text("    " + w, style="dim"), width) for w in wrapped if w]
    return out


def _tokens(values: Sequence[int], first_type: int, lang: str = "en") -> list[Text]:
    return [Text.assemble(R.token_text(first_type + k, lang), str(v))
            for k, v in enumerate(values) if v]


def _mat_head(state: State, p: int, human: int | None,
              names: Mapping[int, str] | None = None, lang: str = "en") -> Text:
    head = Text.assemble(("▶ " if state.current_player == p else "  ", "bold"))
    head.append_text(R.player_text(p))
    if p == human:
        head.append(" " + W.say(lang, W.YOU), style="bold")
    elif names and p in names:
        head.append(f" {names[p]}", style="dim")
    if p == state.crown:
        head.append(" ♛", style="bold yellow")
    if state.phase == PH_ACTIONS and state.has_passed(p):
        head.append(" " + W.say(lang, W.PASSED), style="dim")
    return head


def _mat_parts(state: State, p: int, width: int, short: bool,
               tight: int = 0, lang: str = "en") -> list[Text]:
    """The second half of a mat: buildings (``●`` staffed, ``○`` free circle, ``·`` no
    circle), cards and the Governor slot, tokens, discs on the track bases, set-aside
    cards. ``tight`` saves room: 1 the buildings' marks are their separators
    (``●mkt○shp·wks``), 2 also no ``cards``/``tokens`` labels."""
    pl = state.players[p]
    bld = []
    for i, b in enumerate(pl.buildings):
        if not D.BUILDINGS[b].activatable:
            mark = Text("·", style="dim")
        elif pl.taken_circles >> i & 1:
            mark = Text("●", style=R.PLAYER_COLOURS[p])
        else:
            mark = Text("○")
        bld.append(Text.assemble(mark, R.building_name(b, short)))
    items: list[Text] = [Text("" if tight else " ").join(bld)] if bld else []
    cards = [Text(f"{D.CARDS[c].code}({R.card_gives(c, lang)})"
                  if not short and width >= 130 and R.card_gives(c) else D.CARDS[c].code)
             for c in pl.cards]
    cards_text = Text.assemble(("" if tight >= 2 else W.say(lang, W.CARDS) + " ", "dim"))
    cards_text.append_text(Text(" ").join(cards) if cards else Text("—", style="dim"))
    if pl.gov >= 0:
        cards_text.append(f" {W.say(lang, W.GOV)} ", style="dim")
        cards_text.append(D.CARDS[pl.gov].code)
    items.append(cards_text)
    toks = _tokens(pl.brown_tokens, 0, lang) + _tokens(pl.blue, 4, lang)
    if toks:
        items.append(Text.assemble(("" if tight >= 2 else W.say(lang, W.TOKENS) + " ",
                                    "dim"),
                                   Text(" ").join(toks)))
    if any(pl.base_discs):
        items.append(Text.assemble((W.say(lang, W.ON_TRACKS) + " ", "dim"),
                                   Text(" ").join(_tokens(pl.base_discs, 0, lang))))
    if pl.aside:
        items.append(Text.assemble((W.say(lang, W.ASIDE) + " ", "dim"),
                                   " ".join(D.CARDS[c].code for c in pl.aside)))
    return items


def mat_lines(state: State, width: int, human: int | None = None,
              level: int = 0, names: Mapping[int, str] | None = None,
              lang: str = "en") -> list[Text]:
    """Every player's mat: level 0 two lines each (the tracks with their levels, Harbor,
    supply and glory if the game ended now; buildings, cards, Governor slot, tokens,
    set-aside cards), level 1 one line each. ``names`` (seat -> bot name) labels the
    bots' mats, as "you" labels the human's."""
    from ..scoring import final_scores

    glory = {s.player: s.total for s in final_scores(state)}
    heads = [_mat_head(state, p, human, names, lang) for p in range(len(state.players))]
    tracks_abbrevs = R.track_abbrevs(lang)
    letters = icon_letters(lang)
    head_w = max([17] + [h.cell_len + 1 for h in heads])
    out: list[Text] = []
    for p, pl in enumerate(state.players):
        head = _pad(heads[p], head_w)
        if level == 0:
            tracks = Text("  ").join(
                Text.assemble((state.rules.token_names[k][:3] if lang == "en"
                               else tracks_abbrevs[k], "bold"),
                              f" {state.marker(p, k)} ",
                              (f"L{pl.level(k)}", "dim")) for k in range(4))
        else:
            tracks = Text(" ").join(
                Text(f"{letters[k]}{state.marker(p, k)}/{pl.level(k)}")
                for k in range(4))
        line1 = Text.assemble(head, tracks)
        discs = W.say(lang, W.HARBOR if level == 0 else W.HARBOR_SHORT,
                      harbor=str(pl.harbor), supply=str(pl.supply))
        line1.append(("  " if level == 0 else " ") + discs)
        line1.append(("  " if level == 0 else " ")
                     + W.say(lang, W.GLORY if level == 0 else W.GLORY_SHORT,
                             glory=str(glory[p])), style="bold")

        if level == 0:
            out.append(fit(line1, width))
            line2 = Text(" " * 4).join(_mat_parts(state, p, width, False, 0, lang))
            tight = 0
            while line2.cell_len + 4 > width and tight <= 2:  # tokens and cards whole
                line2 = Text("  ").join(_mat_parts(state, p, width, True, tight, lang))
                tight += 1
            out.append(fit(Text.assemble("    ", line2), width))
        else:
            line1.append("  ")
            for tight in range(3):  # as on line 2 at level 0: the tokens before the labels
                parts = Text("  ").join(_mat_parts(state, p, width, True, tight, lang))
                if line1.cell_len + parts.cell_len <= width:
                    break
            line1.append_text(parts)
            out.append(fit(line1, width))
    return out


def prompt_lines(decision: Decision, width: int, human: int | None,
                 level: int = 0, lang: str = "en") -> list[Text]:
    """The decision's prompt, after who decides: up to 2 lines, or 1 at level 1."""
    who = f"▶ P{decision.player}" + (" " + W.say(lang, W.YOU_PAREN)
                                     if decision.player == human else "")
    prompt = decision.prompt if lang == "en" else decision.render(lang, viewer=human)
    plain = f"{who} · {prompt}"
    if level >= 1:
        return [fit(_styled(plain, "bold"), width)]
    wrapped = [_unglue(w) for w in textwrap.wrap(_glue(plain, lang), width,
                                                 subsequent_indent="  ")] or [plain]
    if len(wrapped) > 2:
        wrapped = wrapped[:1] + [wrapped[1][:width - 2] + " " + _ELLIPSIS]
    return [fit(_styled(w, "bold"), width) for w in wrapped]


# =========================================================================== compose
@dataclass
class View:
    """What one screen shows besides the state: the human's seat, the log (events of
    the whole game) and where its new part starts, a title for the header, the
    decision's menu, lines shown instead of the menu (e.g. the score table),
    messages (an error, a confirmation, a hint) above the input line and the bots'
    names."""

    human: int | None = None
    log: Sequence[Event] = ()
    new_from: int | None = None
    title: str = ""
    decision: Decision | None = None
    menu: Menu | None = None
    extra: Sequence[Text] = ()
    messages: Sequence[Text] = ()
    log_title: str = ("Log · » new since your last decision · 'log' shows the whole game")
    #: the bots' names by seat (e.g. {1: "hard"}), shown on their mats and in the header
    names: Mapping[int, str] = field(default_factory=dict)
    #: the language of the screen's words and the engine's (``"en"``, ``"fr"``)
    lang: str = "en"


#: the log's titles, by their English words
_LOG_TITLES = {
    "Log · » new since your last decision · 'log' shows the whole game": W.LOG_TITLE,
    "Log · the last moves": W.LOG_LAST,
    "Log · » this step": W.LOG_STEP,
    "Log · » since the last render": W.LOG_RENDER,
}

_DEGRADE = (("supply", 1), ("exploits", 1), ("links", 1), ("logrule", 1),
            ("board", 1), ("supply", 2), ("mats", 1))
_CHEAP = (("supply", 1), ("links", 1))


def compose(state: State, view: View, width: int = WIDTH, height: int = HEIGHT,
            reserve: int = 1) -> list[Text]:
    """The screen's lines (at most ``height - reserve``, each at most ``width`` cells;
    ``reserve`` lines stay free for the input prompt). The header is the first line."""
    avail = max(10, height - reserve)
    levels = {"board": 0, "supply": 0, "links": 0, "exploits": 0, "mats": 0,
              "logrule": 0, "prompt": 0}
    decision = view.decision
    lang = view.lang

    def sections() -> dict[str, list[Text]]:
        s: dict[str, list[Text]] = {
            "board": board_lines(state, width, levels["board"] == 0, lang),
            "supply": supply_lines(state, width, levels["supply"], lang),
            "links": links_lines(state, width, levels["links"], lang),
            "exploits": exploit_lines(state, width, levels["exploits"], lang),
            "mats": mat_lines(state, width, view.human, levels["mats"], view.names, lang),
            "prompt": [],
        }
        if decision is not None:
            s["prompt"] = prompt_lines(decision, width, view.human, levels["prompt"], lang)
            if view.menu is not None and view.menu.prefix:
                s["prompt"].append(fit(Text.assemble(
                    ("  " + view.menu.prefix + " … ", "bold cyan"),
                    (W.say(lang, W.SUBMENU), "dim")), width))
        return s

    log = log_lines(view.log, width, view.new_from, lang=lang)
    new_count = sum(1 for line in log if line.new)
    menu_min = menu_ideal = 0
    if view.menu is not None:
        menu_min = len(menu_layout(view.menu, width, 0))
        menu_ideal = len(menu_layout(view.menu, width, 10_000))
    extra = [fit(t, width) for t in view.extra]
    messages: list[Text] = []
    for m in view.messages:  # each wrapped to the width, at most 3 lines
        style = m.style if isinstance(m.style, str) else ""
        wrapped = [_unglue(w) for w in textwrap.wrap(_glue(m.plain, lang), width,
                                                     subsequent_indent="  ")] or [""]
        messages += [fit(Text(w, style=style), width) for w in wrapped[:3]]
    fixed_extra = 1 + len(extra) + len(messages)  # header, extra, messages

    def used(s: dict[str, list[Text]]) -> int:
        rule = 1 if levels["logrule"] == 0 and view.log else 0
        return fixed_extra + sum(len(v) for v in s.values()) + rule

    parts = sections()
    log_need = min(new_count, max(0, len(log))) or min(len(log), 3)
    for name, level in _DEGRADE:
        if used(parts) + menu_min + log_need <= avail:
            break
        levels[name] = level
        parts = sections()
    for name, level in _CHEAP:  # whole option texts are worth more than these details
        if used(parts) + menu_ideal + log_need <= avail:
            break
        if levels[name] < level:
            levels[name] = level
            parts = sections()
    spare = avail - used(parts) - menu_min - log_need
    menu_lines: list[Text] = []
    if view.menu is not None:
        grow = max(0, min(spare, menu_ideal - menu_min))
        menu_lines = menu_layout(view.menu, width, menu_min + grow)
        spare -= len(menu_lines) - menu_min
    log_budget = max(0, log_need + spare) if view.log else 0
    if not view.log:
        log_budget = 0
    shown: list[Text]
    if log_budget <= 0:
        shown = []
    elif len(log) <= log_budget:
        shown = [line.text for line in log]
    else:
        tail = log[-log_budget:]
        hidden_new = new_count - sum(1 for line in tail if line.new)
        if hidden_new > 0:
            tail = log[-(log_budget - 1):] if log_budget > 1 else []
            hidden_new = new_count - sum(1 for line in tail if line.new)
            note = Text("  " + W.say(lang, W.EARLIER, n=str(hidden_new)),
                        style="bold bright_yellow")
            shown = [note] + [line.text for line in tail]
        else:
            while tail and not tail[0].first:  # no paragraph cut in the middle
                tail = tail[1:]
            shown = [line.text for line in tail]
    top: list[Text] = [header_line(state, width, view.human, view.title, view.names, lang)]
    top += parts["board"] + parts["supply"] + parts["links"] + parts["exploits"]
    top += parts["mats"]
    middle: list[Text] = []
    if shown:
        if levels["logrule"] == 0:
            title = view.log_title
            if lang != "en" and title in _LOG_TITLES:
                title = W.say(lang, _LOG_TITLES[title])
            rule = Text(f"── {title} ", style="dim")
            rule.append("─" * max(0, width - rule.cell_len), style="dim")
            middle.append(fit(rule, width))
        middle += [fit(t, width) for t in shown]
    bottom = parts["prompt"] + menu_lines + extra + messages
    # never cut the header, the prompt or the menu: if all else failed, the log goes
    # first, then the sections above it from the bottom up
    while len(top) + len(middle) + len(bottom) > avail and (middle or len(top) > 1):
        if middle:
            middle.pop(0)
        else:
            top.pop()
    return (top + middle + bottom)[:avail]


def screen(state: State, view: View, width: int = WIDTH, height: int = HEIGHT,
           reserve: int = 1) -> Group:
    """:func:`compose` as one Rich renderable (one Text per line, never wrapped)."""
    return Group(*compose(state, view, width, height, reserve))
