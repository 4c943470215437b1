"""The ``endeavor`` command line: ``simulate``, ``play``, ``replay`` and ``bench``.

An adapter over the public engine API. :func:`main` parses ``argv``, runs one
subcommand and returns its exit status: 0 on success (and for ``--help``), 2 when the
input is bad (a usage error, an impossible configuration, a missing file, a corrupt
record), reported as one line on stderr without a traceback. Interactive input is
read with the builtin :func:`input`, so it can come from a terminal, a pipe or a test.
"""

from __future__ import annotations

import argparse
import json
import secrets
import statistics
import sys
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from rich import box
from rich.columns import Columns
from rich.console import Console, Group
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from . import actions as A
from . import data as D
from . import render
from .actions import Action
from .bots import RandomBot
from .config import EXPLOIT_IDS, OPTIONS, GameConfig
from .errors import EndeavorError, IllegalActionError, NotationError, RecordError
from .records import replay
from .scoring import final_scores
from .state import PHASE_NAMES, State, new_game

EXIT_OK, EXIT_USAGE, EXIT_INTERRUPTED = 0, 2, 130
PIPE_WIDTH = 110  # columns used when stdout is not a terminal
LOG_LINES = 12
_N = TypeVar("_N", int, float)


class UsageError(Exception):
    """Bad command-line input that argparse or a subcommand detected."""


class _HelpExit(Exception):
    """argparse finished early (``--help``) with this status."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises instead of exiting, so :func:`main` returns."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise _HelpExit(status)


# --------------------------------------------------------------------------- arguments
def _ranged(convert: Callable[[str], _N], valid: Callable[[_N], bool],
            rule: str) -> Callable[[str], _N]:
    """An argparse ``type``: ``convert`` the text, then require ``valid`` (``rule``
    says what is required, for the error message)."""
    def parse(text: str) -> _N:
        try:
            value = convert(text)
        except ValueError:
            message = f"invalid {convert.__name__} value: {text!r}"
            raise argparse.ArgumentTypeError(message) from None
        if not valid(value):
            raise argparse.ArgumentTypeError(f"must be {rule}, not {text}")
        return value
    return parse


_positive_int = _ranged(int, lambda v: v >= 1, "at least 1")
_positive_float = _ranged(float, lambda v: v > 0, "positive")
_fraction = _ranged(float, lambda v: 0.0 <= v <= 1.0, "between 0 and 1")
EXPLOITS_HELP = ("Exploits in play: 'none', 'random' (3 drawn for each game from its seed, "
                 "R4) or up to 3 comma-separated ids, e.g. spanish_main,imperialism "
                 f"(ids: {', '.join(EXPLOIT_IDS)})")


def _add_exploits_option(p: argparse.ArgumentParser, extra: str = "") -> None:
    p.add_argument("--exploits", default="none", metavar="random|none|a,b,c",
                   help=f"{EXPLOITS_HELP} (default: none{extra})")


def _exploits_label(spec: str) -> str:
    """The --exploits value for a summary line: ``"random"``, or the ids given."""
    return spec if spec == "random" else ", ".join(
        e.strip() for e in spec.split(",") if e.strip())


def _add_game_options(p: argparse.ArgumentParser, seed_default: int | None,
                      seed_help: str) -> None:
    p.add_argument("--players", type=int, default=4, metavar="N",
                   help="number of players, 2 to 5 (default: 4)")
    p.add_argument("--seed", type=int, default=seed_default, metavar="S", help=seed_help)
    p.add_argument("--board", type=str.upper, metavar="{A,B}",
                   help="board side (default: A for 2-3 players, B for 4-5)")
    p.add_argument("--phase-order", choices=OPTIONS["phase_order"][0],
                   help="by_phase (default): each early phase for everyone in turn; "
                        "by_player: each player does Construction, Growth and Salary "
                        "before the next")


def _config(args: argparse.Namespace, seed: int) -> GameConfig:
    """The game configuration the common options describe (raises ConfigError)."""
    options = {} if args.phase_order is None else {"phase_order": args.phase_order}
    return GameConfig(players=args.players, board=args.board, seed=seed, options=options,
                      exploits=args.exploits)


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="endeavor",
        description="Endeavor: Age of Sail - play against bots, simulate random games, "
                    "replay game records and benchmark the rules engine.",
        epilog="Run 'endeavor COMMAND --help' for the options of a command.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    sim = sub.add_parser(
        "simulate", help="play many random games and summarize the scores",
        description="Play K games between random bots. Game i uses config seed S+i and a "
                    "RandomBot seeded with S+i playing every seat, so each game can be "
                    "reproduced. Prints the mean score and wins (rank 1, ties count for "
                    "each) per seat, the spread of the totals and the mean number of "
                    "decisions per game.",
        epilog="example: endeavor simulate --players 3 --games 500 --seed 7 --json")
    _add_game_options(sim, 0, "seed of the first game (default: 0)")
    _add_exploits_option(sim)
    sim.add_argument("--games", type=_positive_int, default=100, metavar="K",
                     help="number of games (default: 100)")
    sim.add_argument("--pass-weight", type=_fraction, default=1.0, metavar="W",
                     help="chance, 0 to 1, that a bot keeps 'pass' among its choices when "
                          "it has other actions; lower values give fuller games "
                          "(default: 1)")
    sim.add_argument("--json", action="store_true",
                     help="instead of the summary, write one JSON object per game: seed, "
                          "config, exploits (the ids in play), totals, ranks, decisions")
    sim.set_defaults(run=_simulate)

    play = sub.add_parser(
        "play", help="play a game in the terminal against random bots",
        description="Play one seat against random bots. At your turn choose an action by "
                    "its menu number or type its notation (e.g. 'act docks', 'ship FE'). "
                    "Commands: help, board, save FILE, quit. End of input leaves the game. "
                    "With --exploits the board shows each Exploit in play (regions, "
                    "dormant/active, Shield holders, tile state) and its actions appear in "
                    "the menu by their notation.",
        epilog="example: endeavor play --players 3 --seat 1 --seed 42 --exploits random")
    _add_game_options(play, None, "game seed (default: a random one, shown on screen)")
    _add_exploits_option(play, "; try 'random' for 3 random Exploits")
    play.add_argument("--seat", type=int, default=0, metavar="K",
                      help="your seat, 0 to N-1 (default: 0)")
    play.add_argument("--bot-seed", type=int, metavar="B",
                      help="seed of the bots' random choices (default: the game seed)")
    play.add_argument("--pass-weight", type=_fraction, default=0.1, metavar="W",
                      help="chance, 0 to 1, that a bot keeps 'pass' among its choices when "
                           "it has other actions (default: 0.1, bots that keep playing)")
    play.add_argument("--auto", action="store_true",
                      help="bots play every seat, including yours (a demo)")
    play.set_defaults(run=_play)

    rep = sub.add_parser(
        "replay", help="replay a saved game record",
        description="Check a game record (as written by 'save' in 'endeavor play') and show "
                    "the final score breakdown, or the position reached if the game is "
                    "unfinished.",
        epilog="example: endeavor replay game.json --step")
    rep.add_argument("file", metavar="FILE", help="the record, a JSON file")
    rep.add_argument("--step", action="store_true",
                     help="list every action with its number, player, round and phase; "
                          "on a terminal, press Enter for the next one (q stops)")
    rep.set_defaults(run=_replay)

    bench = sub.add_parser(
        "bench", help="measure the speed of the rules engine",
        description="Each run spends about T seconds on random play (legal actions, "
                    "random choice, apply; new games as needed; at least one game is "
                    "finished) to measure decisions and finished games per second, then "
                    "about T seconds on copy() of a mid-game state, then measures the "
                    "mean size of a serialized state (to_json) over one random game. "
                    "Prints the median, min and max over the runs and the mean number "
                    "of decisions per game.",
        epilog="example: endeavor bench --runs 3 --seconds 2 --exploits random --json")
    bench.add_argument("--runs", type=_positive_int, default=5, metavar="R",
                       help="number of runs (default: 5)")
    bench.add_argument("--seconds", type=_positive_float, default=1.0, metavar="T",
                       help="seconds per measurement (default: 1.0)")
    bench.add_argument("--players", type=int, default=4, metavar="N",
                       help="number of players (default: 4)")
    _add_exploits_option(bench)
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.set_defaults(run=_bench)
    return parser


# --------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    """Run the command line on ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    try:
        args = _build_parser().parse_args(argv)
    except _HelpExit as e:
        return e.status
    except UsageError as e:
        return _fail(str(e))
    out = Console(markup=False, highlight=False, emoji=False,
                  width=None if sys.stdout.isatty() else PIPE_WIDTH)
    run: Callable[[argparse.Namespace, Console], int] = args.run
    try:
        return run(args, out)
    except (UsageError, EndeavorError, OSError) as e:
        return _fail(str(e))
    except KeyboardInterrupt:
        print("endeavor: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _fail(message: str) -> int:
    print(f"endeavor: error: {message}", file=sys.stderr)
    return EXIT_USAGE


# --------------------------------------------------------------------------- shared
def _winners_line(state: State) -> Text:
    scores = final_scores(state)
    best = [s for s in scores if s.rank == 1]
    out = Text("Winners (shared): " if len(best) > 1 else "Winner: ", style="bold")
    out.append_text(Text(", ").join(render.player_text(s.player) for s in best))
    out.append(f" with {best[0].total} glory")
    return out


def _events(before: State, after: State) -> list[str]:
    """Notable automatic consequences of one action, found by comparing the states:
    regions opened (and who got the Governor), Abolition, a new round or phase."""
    out = []
    for r in range(1, D.NREGIONS):
        if after.is_open(r) and not before.is_open(r):
            line = f"{D.REGION_NAMES[r]} opens"
            governor = before.gov_avail[r]  # -1 (never held) if already awarded
            holders = [p for p in range(after.n) if governor in after.held_cards(p)]
            if holders:
                line += f"; Governor {D.CARDS[governor].code} goes to P{holders[0]}"
            out.append(line)
    for i, e in enumerate(after.ex):
        if after.exploit_active(i) and not before.exploit_active(i):
            shields = " ".join(f"P{p}" for p in render.shield_holders(after, i))
            out.append(f"Exploit {e.name} is active; Shields: {shields or 'none'}")
    if after.abolished and not before.abolished:
        aside = sum(len(pl.aside) for pl in after.players)
        aside -= sum(len(pl.aside) for pl in before.players)
        out.append(f"Abolition of Slavery: {aside} Slavery card(s) set aside, "
                   "the Slavery deck leaves play")
    if after.is_over:
        out.append("Game over")
    elif after.round != before.round:
        out.append(f"Round {after.round}: {PHASE_NAMES[after.phase]}")
    elif after.phase != before.phase:
        out.append(f"{PHASE_NAMES[after.phase]} phase")
    return out


def _action_line(before: State, action: Action) -> str:
    """``"P2 act docks"``; an attack also names the player who loses the site."""
    line = f"P{before.current_player} {action}"
    if action.verb == A.V_ATTACK:
        line += f" (from P{before.site_owner[action.arg]})"
    return line


# --------------------------------------------------------------------------- simulate
def _simulate(args: argparse.Namespace, out: Console) -> int:
    first = args.seed
    board = _config(args, first).board  # a bad configuration fails before any game
    totals: list[list[int]] = []
    wins = [0] * args.players
    decisions: list[int] = []
    exploits: dict[str, list[int]] = {}  # id -> [games, active at the end, glory]
    err = Console(stderr=True)
    progress = Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(),
                        console=err, transient=True,
                        disable=args.json or not err.is_terminal)
    with progress:
        task = progress.add_task("games", total=args.games)
        for seed in range(first, first + args.games):
            config = _config(args, seed)
            state = new_game(config)
            made = RandomBot(seed, args.pass_weight).play_out(state)
            scores = final_scores(state)
            for i, e in enumerate(state.ex):
                tally = exploits.setdefault(e.id, [0, 0, 0])
                tally[0] += 1
                tally[1] += state.exploit_active(i)
                tally[2] += sum(s.lines[e.name] for s in scores)
            if args.json:
                print(json.dumps({"seed": seed, "config": config.to_dict(),
                                  "exploits": [e.id for e in state.ex],
                                  "totals": [s.total for s in scores],
                                  "ranks": [s.rank for s in scores], "decisions": made}))
            totals.append([s.total for s in scores])
            for s in scores:
                wins[s.player] += s.rank == 1
            decisions.append(made)
            progress.advance(task)
    if not args.json:
        out.print(_simulation_summary(args, board, totals, wins, decisions, exploits))
    return EXIT_OK


def _simulation_summary(args: argparse.Namespace, board: str | None,
                        totals: list[list[int]], wins: list[int],
                        decisions: list[int], exploits: dict[str, list[int]]) -> Group:
    first = args.seed
    every = [t for game in totals for t in game]
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column("Seat")
    table.add_column("Mean score", justify="right")
    table.add_column("Wins", justify="right")
    for p in range(args.players):
        table.add_row(render.player_text(p), f"{statistics.mean(g[p] for g in totals):.2f}",
                      str(wins[p]))
    head = (f"{args.games} random games · {args.players} players · board {board} · "
            f"seeds {first}-{first + args.games - 1}")
    if exploits:
        head += f" · Exploits: {_exploits_label(args.exploits)}"
    parts: list[Any] = [
        Text(head, style="bold"),
        table,
        Text(f"Totals: min {min(every)} · max {max(every)} · "
             f"std dev {statistics.pstdev(every):.2f}"),
        Text(f"Mean decisions per game: {statistics.mean(decisions):.1f}")]
    if exploits:
        ex_table = Table(box=box.SIMPLE_HEAD)
        ex_table.add_column("Exploit")
        ex_table.add_column("Games", justify="right")
        ex_table.add_column("Active at end", justify="right")
        ex_table.add_column("Glory per game", justify="right")
        for ex_id in sorted(exploits, key=EXPLOIT_IDS.index):
            games, active, glory = exploits[ex_id]
            ex_table.add_row(ex_id, str(games), str(active), f"{glory / games:.2f}")
        parts.append(ex_table)
    return Group(*parts)


# --------------------------------------------------------------------------- play
_PLAY_HELP = """\
Choose an action by its menu number, or type its notation, e.g.:
  start merchant-dock   build docks   pay market   act docks   use ship-draw   pass
  ship FE (track)   ship EUT1 (trade route)   sea FE (open sea)   occupy EU3   attack CA1
  draw EU   draw AF/1 (from the discard pile)   done   casualty culture   slot FE/G
  discard SA/1
Exploit actions are typed as shown in the menu, e.g. fortify NA1, spanish-main payments.
Commands: help · board (redraw) · save FILE (write the game record) · quit"""


class _PlaySession:
    """One game in the terminal: ``human`` (a seat, or None for all bots) answers
    prompts read with :func:`input`; every other decision is the bot's."""

    def __init__(self, state: State, out: Console, human: int | None, bot: RandomBot) -> None:
        self.state = state
        self.out = out
        self.human = human
        self.bot = bot
        first = f"New game: {state.n} players, board {state.config.board}"
        if state.ex:
            first += f", Exploits: {', '.join(e.name for e in state.ex)}"
        self.log: deque[str] = deque([first], maxlen=LOG_LINES)

    def run(self) -> int:
        """Play until the game ends, the human quits or input ends; return 0."""
        state = self.state
        while not state.is_over:
            if state.current_player == self.human:
                if not self._human_turn():
                    return EXIT_OK
            else:
                self._apply(self.bot.choose(state))
        self.out.print(render.game_view(state, self.human))
        if self.human is not None:
            self._show_log()
        self.out.print(render.score_table(state))
        self.out.print(_winners_line(state))
        return EXIT_OK

    def _apply(self, action: Action) -> None:
        """Apply a legal action and log it with its consequences."""
        before = self.state.copy()
        self.state.apply(action)
        lines = [_action_line(before, action)] + _events(before, self.state)
        self.log.extend(lines)
        if self.human is None:
            for line in lines:
                self.out.print(line)

    def _show_log(self) -> None:
        self.out.print(Rule("Recent moves", style="dim"))
        self.out.print(Columns(list(self.log), column_first=True, padding=(0, 4)))

    def _show(self) -> None:
        """Redraw the table, the log and the menu of the human's decision."""
        out = self.out
        if out.is_terminal:
            out.clear()
        out.print(render.game_view(self.state, self.human))
        self._show_log()
        out.print(Rule(f"Your decision: {render.decision_text(self.state)}", style="bold"))
        out.print(render.menu_view(self.state, self.state.legal_actions()))

    def _human_turn(self) -> bool:
        """Prompt until the human applies an action (True) or leaves (False)."""
        self._show()
        actions = self.state.legal_actions()
        while True:
            try:
                line = input(f"P{self.human} [1-{len(actions)}, notation, help]> ").strip()
            except EOFError:
                self.out.print("\nEnd of input: the game is left unfinished.")
                return False
            if not line:
                continue
            command, _, rest = line.partition(" ")
            command = command.lower()
            if command == "help":
                self.out.print(_PLAY_HELP)
                self.out.print(render.LEGEND, style="dim")
                if self.state.ex:
                    self.out.print(render.MARK_LEGEND, style="dim")
            elif command == "board":
                self._show()
            elif command == "quit":
                self.out.print("Game left unfinished.")
                return False
            elif command == "save":
                self._save(rest.strip())
            elif line.isdigit():
                if 1 <= int(line) <= len(actions):
                    self._apply(actions[int(line) - 1])
                    return True
                self.out.print(f"No menu entry {line}: choose 1 to {len(actions)}.",
                               style="red")
            else:
                try:
                    self._apply(self.state.parse_action(line))
                except (NotationError, IllegalActionError) as e:
                    self.out.print(str(e), style="red")
                else:
                    return True

    def _save(self, path: str) -> None:
        if not path:
            self.out.print("usage: save FILE", style="red")
            return
        try:
            Path(path).write_text(json.dumps(self.state.record(), indent=1) + "\n")
        except OSError as e:
            self.out.print(f"could not save: {e}", style="red")
        else:
            actions = self.state.num_actions
            self.out.print(f"Saved the record ({actions} actions) to {path}.")


def _play(args: argparse.Namespace, out: Console) -> int:
    seed = secrets.randbelow(1_000_000) if args.seed is None else args.seed
    config = _config(args, seed)
    if not 0 <= args.seat < config.players:
        raise UsageError(f"--seat must be 0 to {config.players - 1}, not {args.seat}")
    bot = RandomBot(seed if args.bot_seed is None else args.bot_seed, args.pass_weight)
    human = None if args.auto else args.seat
    return _PlaySession(new_game(config), out, human, bot).run()


# --------------------------------------------------------------------------- replay
def _replay(args: argparse.Namespace, out: Console) -> int:
    text = Path(args.file).read_text()
    try:
        final = replay(text)
    except RecordError as e:
        raise RecordError(f"{args.file}: {e}") from None
    if args.step:
        _step_through(final, out)
    if final.is_over:
        out.print(render.score_table(final))
        out.print(_winners_line(final))
    else:
        out.print(render.game_view(final))
        out.print(f"Position after {final.num_actions} actions: "
                  "the game is not finished.")
    return EXIT_OK


def _step_through(final: State, out: Console) -> None:
    """Replay ``final``'s history from the start, one numbered line per action (and its
    consequences); on a terminal wait for Enter between actions ('q' stops the list)."""
    interactive = sys.stdin.isatty()
    if interactive:
        out.print("Enter: next action · q then Enter: stop", style="dim")
    state = new_game(final.config)
    history = final.history()
    for i, action in enumerate(history, 1):
        before = state.copy()
        state.apply(action)
        rnd = "setup" if before.round == 0 else f"round {before.round}"
        out.print(f"{i:>4}  P{before.current_player}  {rnd:<8} "
                  f"{PHASE_NAMES[before.phase]:<13} {action}")
        for event in _events(before, state):
            out.print(f"{'':>6}{event}", style="bold")
        if interactive and i < len(history):
            try:
                if input("").strip().lower() == "q":
                    return
            except EOFError:
                interactive = False


# --------------------------------------------------------------------------- bench
def _bench_run(seed: int, seconds: float, players: int,
               exploits: str = "none") -> dict[str, float]:
    """One run: random play for ``seconds`` (and until a game finishes), copies of a
    mid-game state for ``seconds``, then state sizes over one random game. Every game
    uses ``exploits`` (with "random", each game draws its own from its seed)."""
    def config(seed: int) -> GameConfig:
        return GameConfig(players=players, seed=seed, exploits=exploits)

    bot = RandomBot(seed)
    state = new_game(config(seed))
    steps = games = finished_steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state.apply_code(bot.choose_code(state))
        steps += 1
        if state.is_over:
            games += 1
            finished_steps = steps
            if time.perf_counter() >= deadline:
                break
            state = new_game(config(seed + games))
        elif games and time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start

    mid = new_game(config(seed))
    while mid.round < D.ROUNDS // 2 + 1:
        mid.apply_code(bot.choose_code(mid))
    copies = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(100):
            mid.copy()
        copies += 100
    copy_elapsed = time.perf_counter() - start

    sample = new_game(config(seed))
    sizes = []
    while not sample.is_over:
        sample.apply_code(bot.choose_code(sample))
        sizes.append(len(sample.to_json()))
    return {"steps_per_s": steps / elapsed, "games_per_s": games / elapsed,
            "copies_per_s": copies / copy_elapsed, "bytes_per_state": statistics.mean(sizes),
            "games": games, "finished_steps": finished_steps}


_BENCH_METRICS = (("steps_per_s", "decisions/s (random play)"),
                  ("games_per_s", "games/s (random play)"),
                  ("copies_per_s", "copy()/s (mid-game state)"),
                  ("bytes_per_state", "bytes per state (to_json)"))


def _bench(args: argparse.Namespace, out: Console) -> int:
    # fail on a bad player count or Exploit list (or one not built) before measuring
    new_game(GameConfig(players=args.players, exploits=args.exploits))
    runs = [_bench_run(run, args.seconds, args.players, args.exploits)
            for run in range(args.runs)]
    summary: dict[str, Any] = {"runs": args.runs, "seconds": args.seconds,
                               "players": args.players, "exploits": args.exploits}
    for key, _ in _BENCH_METRICS:
        values = [r[key] for r in runs]
        summary[key] = {"median": statistics.median(values), "min": min(values),
                        "max": max(values)}
    summary["decisions_per_game"] = (sum(r["finished_steps"] for r in runs)
                                     / sum(r["games"] for r in runs))
    if args.json:
        print(json.dumps(summary))
        return EXIT_OK
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column("Measure")
    for column in ("median", "min", "max"):
        table.add_column(column, justify="right")
    for key, label in _BENCH_METRICS:
        table.add_row(label, *[f"{summary[key][c]:,.0f}" for c in ("median", "min", "max")])
    ex = "" if args.exploits == "none" else f" · Exploits: {_exploits_label(args.exploits)}"
    out.print(Text(f"endeavor bench · {args.runs} run(s) × {args.seconds:g} s · "
                   f"{args.players} players{ex}", style="bold"))
    out.print(table)
    out.print(f"Mean decisions per game: {summary['decisions_per_game']:.1f}")
    return EXIT_OK
