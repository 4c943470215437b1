"""The terminal's own words (``endeavor play`` and ``endeavor replay``): headings, labels,
the input line's prompt, the session's messages, as messages of :mod:`endeavor.messages`
(ids ``terminal.*``, translated in ``locale/<locale>/parts/terminal.po``), so that the
screen speaks the player's language (``--lang``). This module does not import Rich:
``tools/catalog.py`` imports it to see the words.

:func:`say` puts one into words: ``say("fr", HARBOR, n=3)``. The English texts are the
screen's words as they have always been. What the player types (the notation and the
commands) is the same in every language.
"""

from __future__ import annotations

from typing import Any, Final

from ..messages import DEFAULT_LOCALE, Term, catalog, define, msg, render


def say(lang: str, id: str, **args: Any) -> str:
    """Message ``id`` with ``args`` in ``lang``'s words (third person: a screen speaks
    to no seat in particular)."""
    return render(msg(id, **args), lang)


def term(lang: str, kind: str, words: str) -> str:
    """One of the engine's terms (``"region"``, ``"token"``, ``"phase"``...) in ``lang``
    (its English words if the catalog does not know them)."""
    if lang == DEFAULT_LOCALE:
        return words
    return catalog(lang).pgettext(kind, words)


def term_of(t: Term, lang: str) -> str:
    """A :class:`Term` in ``lang``."""
    return term(lang, t.kind, t.words)


# ------------------------------------------------------------------ the header
GAME_OVER: Final = define("terminal.header.game_over", "Game over")
SETUP: Final = define("terminal.header.setup", "Setup")
ROUND: Final = define("terminal.header.round", "Round {round}/{rounds} · {phase}")
YOU_PAREN: Final = define("terminal.you_paren", "(you)")
CROWN: Final = define("terminal.header.crown", "Crown")
EXPLOITS_ACTIVE: Final = define("terminal.header.exploits",
                                "Exploits {active}/{total} active")
SETTINGS: Final = define("terminal.header.settings", "{players} players, board {board}, "
                                                     "seed {seed}")
#: the decision kinds shown in the header, by kind
KINDS: Final = {
    "construction": define("terminal.kind.construction", "construction"),
    "action": define("terminal.kind.action", "action"),
    "effect": define("terminal.kind.effect", "effect"),
    "discard": define("terminal.kind.discard", "discard"),
    "setup": define("terminal.kind.setup", "setup"),
    "payment": define("terminal.kind.payment", "payment"),
    "casualty": define("terminal.kind.casualty", "casualty"),
    "slot": define("terminal.kind.slot", "slot"),
    "start_tile": define("terminal.kind.start_tile", "start tile"),
    "governor_slot": define("terminal.kind.governor_slot", "governor slot"),
    "salary": define("terminal.kind.salary", "salary"),
    "exploit": define("terminal.kind.exploit", "exploit"),
    "turn": define("terminal.kind.turn", "turn"),
}
#: the regions' names on the board, by their English names (the engine's ``region``
#: terms are phrases: "de l'Europe")
REGIONS: Final = {
    name: define(f"terminal.region.{key}", name) for key, name in (
        ("europe", "Europe"), ("africa", "Africa"), ("south_america", "South America"),
        ("caribbean", "Caribbean"), ("north_america", "North America"), ("india", "India"),
        ("far_east", "Far East"))
}

# ------------------------------------------------------------------ the board
COL_DECK: Final = define("terminal.board.deck", "deck")
COL_GOV: Final = define("terminal.board.gov", "gov")
COL_TRACK: Final = define("terminal.board.track", "track: far → near")
COL_SITES: Final = define("terminal.board.sites", "cities · trade routes · sea")
COL_SITES_CLASSIC: Final = define("terminal.board.sites_classic", "cities · beside the track")
SEA: Final = define("terminal.board.sea", "sea")
BESIDE: Final = define("terminal.board.beside", "beside")
SUPPLY_TITLE: Final = define("terminal.supply.title", "Supply")
PILE: Final = define("terminal.supply.pile", "Discard pile")
EMPTY: Final = define("terminal.supply.empty", "empty")
LINKS: Final = define("terminal.links.title", "Links")
LINKS_NONE: Final = define("terminal.links.none", "none with a token or a controller")
LINKS_HELD: Final = define("terminal.links.held", "held")
SHIELDS: Final = define("terminal.exploit.shields", "Shields")
ACTIVE: Final = define("terminal.exploit.active", "active")
DORMANT: Final = define("terminal.exploit.dormant", "dormant")

# ------------------------------------------------------------------ the mats
#: the letters of a card's icons: Industry, Culture, Wealth, Influence, Glory ("AF/4 I2 W1
#: N1 G1"), five letters separated by spaces
YOU: Final = define("terminal.mat.you", "you")
PASSED: Final = define("terminal.mat.passed", "passed")
HARBOR: Final = define("terminal.mat.harbor", "harbor {harbor} · supply {supply}")
HARBOR_SHORT: Final = define("terminal.mat.harbor_short", "h{harbor} s{supply}")
GLORY: Final = define("terminal.mat.glory", "glory {glory}")
GLORY_SHORT: Final = define("terminal.mat.glory_short", "g{glory}")
CARDS: Final = define("terminal.mat.cards", "cards")
GOV: Final = define("terminal.mat.gov", "gov")
TOKENS: Final = define("terminal.mat.tokens", "tokens")
ON_TRACKS: Final = define("terminal.mat.on_tracks", "on tracks")
ASIDE: Final = define("terminal.mat.aside", "aside")

# ------------------------------------------------------------------ the log and the menu
LOG_TITLE: Final = define("terminal.log.title",
                          "Log · » new since your last decision · 'log' shows the whole game")
LOG_LAST: Final = define("terminal.log.last", "Log · the last moves")
EARLIER: Final = define("terminal.log.earlier",
                        "⋯ {n} earlier new line(s) · type 'log' to read them")
SUBMENU: Final = define("terminal.menu.submenu",
                        "choose one · 'back' returns to the whole menu · or type any notation")
CHOICES: Final = define("terminal.menu.choices", "{n} choices: {targets}")
#: the menu's groups, by their English label
GROUPS: Final = {
    label: define(f"terminal.group.{key}", label) for key, label in (
        ("start", "Start"), ("build", "Build"), ("pay", "Pay"), ("activate", "Activate"),
        ("tokens", "Tokens"), ("ship", "Ship"), ("occupy", "Occupy"), ("attack", "Attack"),
        ("draw", "Draw"), ("casualty", "Casualty"), ("slot", "Gov slot"),
        ("discard", "Discard"), ("pass", "Pass"), ("done", "Done"), ("or", "Or"))
}

# ------------------------------------------------------------------ scores
FINAL_SCORE: Final = define("terminal.score.final", "Final score")
SCORE_NOW: Final = define("terminal.score.now", "Score if the game ended now")
TOTAL: Final = define("terminal.score.total", "Total")
RANK: Final = define("terminal.score.rank", "Rank")
#: the score lines, by their English name (the Exploits' lines are their names)
SCORE_LINES: Final = {
    name: define(f"terminal.score.{key}", name) for key, name in (
        ("industry", "Industry"), ("culture", "Culture"), ("wealth", "Wealth"),
        ("influence", "Influence"), ("cities", "Cities & links"),
        ("buildings", "Buildings & cards"), ("governor", "Governor slot"),
        ("population", "Extra population"), ("slavery", "Slavery"))
}
WINNER: Final = define("terminal.score.winner", "Winner: ")
WINNERS: Final = define("terminal.score.winners", "Winners (shared): ")
WITH_GLORY: Final = define("terminal.score.with", " with {glory} glory")

# ------------------------------------------------------------------ the log's first line
NEW_GAME: Final = define("terminal.new_game", "New game: {players} players, board {board}, "
                                              "seed {seed}")
NEW_GAME_EXPLOITS: Final = define("terminal.new_game.exploits", "{text}; Exploits: {names}")
NEW_GAME_WITH: Final = define("terminal.new_game.with", "{text}; with {name}")
FINAL_POSITION: Final = define("terminal.final_position", "Final position")
STEP: Final = define("terminal.step", "Step {i}/{n}")

# ------------------------------------------------------------------ the session
INPUT: Final = define("terminal.input", "P{seat} [1-{n}{back}, notation, hint, help]> ")
INPUT_BACK: Final = define("terminal.input.back", ", back")
THINKING: Final = define("terminal.thinking", "{who} is thinking…")
HELP_TITLE: Final = define("terminal.help.title", "Help")
LOG_PAGE: Final = define("terminal.log.page", "The whole game's log")
PAGER_LEAVE: Final = define("terminal.pager.leave", "q returns to the game")
WHOLE_MENU: Final = define("terminal.menu.whole", "This is the whole menu already.")
NO_ENTRY: Final = define("terminal.menu.no_entry", "No menu entry {line}: choose 1 to {n}.")
END_OF_INPUT: Final = define("terminal.end_of_input",
                             "End of input: the game is left unfinished.")
LEFT: Final = define("terminal.left", "Game left unfinished.")
SAVE_BEFORE: Final = define("terminal.save.before", "Save the game before leaving?")
SAVE_OVER: Final = define("terminal.save.over", "The game is over. Save it?")
SAVE_FILE: Final = define("terminal.save.file", "{question} File name (empty: don't save): ")
SAVE_USAGE: Final = define("terminal.save.usage", "usage: save FILE")
SAVE_FAILED: Final = define("terminal.save.failed", "could not save: {error}")
SAVE_EXISTS: Final = define("terminal.save.exists", "{path} exists: overwrite it? [y/N] ")
SAVE_KEPT: Final = define("terminal.save.kept", "Not saved: {path} is left as it was.")
SAVED: Final = define("terminal.save.done",
                      "Saved the game ({n} actions) to {path}; resume it with: "
                      "endeavor play --load {path}")
UNDO_NOTHING: Final = define("terminal.undo.nothing",
                             "Nothing to undo: this is your first decision of the game.")
UNDO_FAILED: Final = define("terminal.undo.failed", "Cannot undo: {error}")
UNDONE: Final = define("terminal.undo.done",
                       "Undone: your move and {bots} later move(s) of the bots: {detail}. "
                       "You decide again.")
UNDO_MORE: Final = define("terminal.undo.more", "{detail}; … {n} more")
HINT_ASKING: Final = define("terminal.hint.asking", "Asking the {name} bot for a hint…")
HINT_FAILED: Final = define("terminal.hint.failed", "No hint: the {name} bot failed ({error}).")
HINT_NONE: Final = define("terminal.hint.none",
                          "No hint: the {name} bot has no suggestion here.")
HINT_HEAD: Final = define("terminal.hint.head",
                          "Hint from the {name} bot{budget}, its best actions for you first "
                          "(type the menu number or the notation):")

#: a hint's estimate, from the glory and margin the bot expects (English: the bot's words)
HINT_AHEAD: Final = define("terminal.hint.ahead",
                           "about {glory} glory at the end, {gap} ahead of the next player")
HINT_BEHIND: Final = define("terminal.hint.behind",
                            "about {glory} glory at the end, {gap} behind the leader")
HINT_LEVEL: Final = define("terminal.hint.level",
                           "about {glory} glory at the end, level with the leader")
HINT_VISITS: Final = define("terminal.hint.visits", "{text} ({visits} visits)")

HELP: Final = define("terminal.help", """\
Choose an action by its menu number, or type its notation, e.g.:
  start merchant-dock   build docks   pay market   act docks   use ship-draw   pass
  ship FE (track)   ship EUT1 (trade route)   sea FE (open sea)   occupy EU3   attack CA1
  draw EU   draw AF/1 (from the discard pile)   done   casualty culture   slot FE/G
  discard SA/1
Exploit actions are typed as shown in the menu, e.g. fortify NA1, spanish-main payments.
A long menu offers the ability first: an entry ending in '…' opens its targets; 'back'
returns. Typing a whole notation works at any level.
Commands: help · board (redraw) · log (the whole game's log) · undo (back to your
previous decision, with the bots' moves after it) · save FILE · back · quit ·
hint (what the strongest bot would play here: its top actions with their menu numbers
and its evaluation in words; the game is not changed).
Help and the log open in a pager on a terminal: q returns to the game.""")

LEGEND: Final = define("terminal.legend", (
    "Board: ✓ open region · deck top card·cards left · gov→P2: who would take the "
    "Governor now · track spaces far → near (a player or the token still there) · "
    "cities 1:P0 (² two glory) and trade routes T1 · sea P0×2 discs in the open sea.\n"
    "Mats: ▶ to decide · ♛ Crown · {tracks} track score and Level · ● staffed, "
    "○ free circle, · no circle · tokens: brown {brown}, blue {blue} "
    "(Ship/Draw, Occupy/Draw, Payment, Attack).\n"
    "Buildings when short of room: {buildings}"))
LOG_STEP: Final = define("terminal.log.step", "Log · » this step")
LOG_RENDER: Final = define("terminal.log.render", "Log · » since the last render")
POSITION_AFTER: Final = define("terminal.position_after", "Position after {n} actions")
UNFINISHED: Final = define("terminal.unfinished",
                           "Position after {n} actions: the game is not finished.")
NEXT_STEP: Final = define("terminal.next_step", "Enter: next action · q then Enter: stop ")
