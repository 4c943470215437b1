"""The play screen (:mod:`endeavor.terminal.screen`): it fits a 100×40 terminal with the header on
its first line, grows with the terminal, its log lists every event since the human's
last decision in order (automatic steps included), its menu is grouped and numbered in
reading order exactly over ``decision().options``, and a long Exploit menu asks for the
ability first, then its target."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable, Iterator

import pytest
from rich.console import Console
from rich.text import Text

from endeavor import GameConfig, State, new_game
from endeavor import data as D
from endeavor import testing as T
from endeavor.bots import RandomBot
from endeavor.cli import PlaySession
from endeavor.decision import Decision
from endeavor.events import Event
from endeavor.terminal import screen as S
from scenario import feed_input

HEADER = re.compile(r"^(Setup|Round [1-7]/7 · \w+( \w+)?|Game over)"
                    r"( · ▶ P\d( \((you|random|greedy|medium|hard)\))? [\w ]+)? · Crown P\d")


def _text(state: State, view: S.View, width: int = 100, height: int = 40) -> list[str]:
    """The screen as printed on a Rich console of ``width`` columns (record=True)."""
    console = Console(width=width, record=True, file=io.StringIO(), color_system="truecolor")
    console.print(S.screen(state, view, width, height))
    return console.export_text().splitlines()


def _decisions(config: GameConfig, every: int = 5,
               seed: int = 0) -> Iterator[tuple[State, list[Event], int, Decision]]:
    """Seat 0's decisions (every ``every``-th) in a random game, with the log so far and
    where its new part starts (seat 0's previous action)."""
    state = new_game(config)
    bot = RandomBot(seed, 0.1)
    log: list[Event] = [Event("info", None, "New game")]
    new_from = 0
    k = 0
    while not state.is_over:
        if state.current_player == 0:
            decision = state.decision()
            assert decision is not None
            if k % every == 0:
                yield state, log, new_from, decision
            k += 1
            new_from = len(log)
        log += state.apply(bot.choose(state))


def _menu_spots(lines: list[str], menu: S.Menu) -> list[int]:
    """The entry numbers in the order they are read on screen (line, then column)."""
    spots = []
    for e in menu.entries:
        found = [(row, m.start()) for row, line in enumerate(lines)
                 for m in re.finditer(rf"(?<!\d){e.number} {re.escape(e.notation)}(?= |$)",
                                      line)]
        assert found, (e.number, e.notation)
        spots.append((found[0], e.number))
    return [n for _, n in sorted(spots)]


CONFIGS = [
    GameConfig(players=2, seed=1),
    GameConfig(players=3, seed=2, board="B"),
    GameConfig(players=4, seed=3),
    GameConfig(players=5, seed=4),
    GameConfig(players=5, seed=5, exploits=("spanish_main", "dutch_east_india_company",
                                            "south_sea_company")),
    GameConfig(players=4, seed=6, exploits=("transit_of_venus", "manila_galleons",
                                            "underground_railroad")),
]


# --------------------------------------------------------------------------- 100×40
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.players}p-{len(c.exploits)}ex")
def test_every_decision_screen_fits_100_by_40(config: GameConfig) -> None:
    checked = 0
    for state, log, new_from, decision in _decisions(config, every=3, seed=config.seed):
        menu = S.build_menu(decision)
        view = S.View(human=0, log=log, new_from=new_from, decision=decision, menu=menu)
        lines = _text(state, view)
        assert len(lines) <= 39, len(lines)  # and the input prompt makes 40
        assert all(len(line) <= 100 for line in lines)
        assert HEADER.match(lines[0]), lines[0]
        assert f"▶ P0 (you) {decision.kind.replace('_', ' ')}" in lines[0]
        assert any(line.startswith("▶ P0 (you) · ") for line in lines)  # the prompt
        assert _menu_spots(lines, menu) == list(range(1, len(menu) + 1))
        # every new log line is there, or a note says how many are elided
        new = [x for x in S.log_lines(log, 100, new_from) if x.new]
        shown = sum(1 for line in lines if line.startswith("» "))
        assert shown == sum(1 for x in new if x.first) or any("earlier new line" in line
                                                               for line in lines)
        checked += 1
    assert checked > 10


def test_a_bigger_terminal_shows_more() -> None:
    state, log, new_from, decision = next(
        (s, lg, n, d) for s, lg, n, d in _decisions(GameConfig(players=4, seed=3))
        if s.round >= 3)
    view = S.View(human=0, log=log, new_from=new_from, decision=decision,
                  menu=S.build_menu(decision))
    small = _text(state, view, 100, 40)
    big = _text(state, view, 160, 60)
    assert len(big) > len(small)
    assert HEADER.match(big[0])
    board_small = [line for line in small if line.startswith("NA")]
    board_big = [line for line in big if line.startswith("NA")]
    assert board_small[0].startswith("NA ") and "North America" not in board_small[0]
    assert board_big[0].startswith("NA North America")
    assert sum(1 for line in big if line.startswith(("» ", "  P"))) >= sum(
        1 for line in small if line.startswith(("» ", "  P")))


def test_the_final_screen_with_the_scores_fits() -> None:
    state = new_game(GameConfig(players=5, seed=9))
    RandomBot(9).play_out(state)
    from endeavor.cli import final_lines

    view = S.View(human=0, log=[Event("info", None, "x")], extra=final_lines(state, 100))
    lines = _text(state, view)
    assert len(lines) <= 39 and lines[0].startswith("Game over · Crown P")
    assert any(line.startswith("Winner") for line in lines)
    assert any(line.split()[:1] == ["Total"] for line in lines)


# --------------------------------------------------------------------------- the log
def test_the_log_lists_every_event_since_the_last_decision_in_order() -> None:
    kinds_seen: set[str] = set()
    for state, log, new_from, decision in _decisions(GameConfig(players=4, seed=12), 1):
        events = log[new_from:]
        lines = S.log_lines(log, 100, new_from)
        new_text = " ".join(" ".join(x.text.plain[2:].split()) for x in lines if x.new)
        old_text = " ".join(x.text.plain for x in lines if not x.new)
        position = 0
        for e in events:  # every event's words, in order (a follow-up drops "P1: ")
            words = " ".join(e.text.split())
            if e.kind == "action" and e.player is not None:
                words = words.removeprefix(f"P{e.player}: ")
            at = new_text.find(words, position)
            assert at >= 0, (words, new_text[position:position + 200])
            position = at + len(words)
            kinds_seen.add(e.kind)
        assert all(x.text.plain.startswith("  ") for x in lines if not x.new)
        assert "»" not in old_text
        if new_from:
            assert lines[0].new is False  # "New game" is older than the last decision
        # the screen shows them all when they fit: here, in a 4-player game, always
        view = S.View(human=0, log=log, new_from=new_from, decision=decision,
                      menu=S.build_menu(decision))
        screen = _text(state, view)
        shown = [line for line in screen if line.startswith("» ")]
        assert len(shown) == sum(1 for x in lines if x.new and x.first)
    # automatic steps are in the log, not only actions
    assert {"action", "growth", "salary", "phase", "round"} <= kinds_seen


def test_log_paragraphs_join_an_activation_and_its_action() -> None:
    events = [Event("action", 1, "P1: Activate your Market with a Harbor disc: Draw"),
              Event("action", 1, "P1: Draw EU/0 from the Europe deck"),
              Event("bonus", 1, "P1 gains 1 disc"),
              Event("action", 2, "P2: Pass"),
              Event("phase", None, "Discard phase"),
              Event("round", None, "Round 2 of 7 begins"),
              Event("phase", None, "Construction phase")]
    lines = [x.text.plain for x in S.log_lines(events, 100, 0)]
    assert lines == ["» P1: Activate your Market with a Harbor disc: Draw · Draw EU/0 from "
                     "the Europe deck",
                     "    P1 gains 1 disc",
                     "» P2: Pass",
                     "» Discard phase · Round 2 of 7 begins · Construction phase"]
    old = [x.text.plain for x in S.log_lines(events, 100, 3)]
    assert old[0].startswith("  P1: Activate") and old[2] == "» P2: Pass"


# --------------------------------------------------------------------------- the menu
@pytest.mark.parametrize("config", CONFIGS[2:], ids=lambda c: f"{c.players}p-{len(c.exploits)}ex")
def test_menu_groups_cover_the_options_in_order(config: GameConfig) -> None:
    for _, _, _, decision in _decisions(config, every=2, seed=config.seed):
        options = [o.action.text for o in decision.options]
        menu = S.build_menu(decision)
        entries = menu.entries
        assert [e.number for e in entries] == list(range(1, len(entries) + 1))
        covered: list[str] = []
        for label, group in menu.groups:
            texts = [e.notation for e in group]
            if label != "Or":  # one kind per group: the notation's first word
                assert len({t.split()[0] for t in texts}
                           - {"ship", "sea"}) <= 1 or label == "Ship"
            for e in group:
                if e.action is None:
                    sub = S.build_menu(decision, e.notation.removesuffix(" …"))
                    covered += [x.notation for x in sub.entries]
                else:
                    covered.append(e.notation)
            kept = [o for o in options if o in texts]
            assert [t for t in texts if t in options] == kept  # the decision's order
        assert sorted(covered) == sorted(options)
        assert len(covered) == len(set(covered))
        if len(options) <= S.COLLAPSE_AT:
            assert all(e.action is not None for e in entries)
            assert [e.action for e in entries if e.action is not None] == sorted(
                decision.actions, key=lambda a: [e.action for e in entries].index(a))
        lines = [line.plain for line in S.menu_layout(menu, 100, 12)]
        assert _menu_spots(lines, menu) == list(range(1, len(menu) + 1))


def _deic_draw() -> State:
    """Dutch East India Company active, P0 (a Shield) with a free Market and two
    unstaffed buildings to rebuild, an Industry token: about to activate the Market."""
    s = T.fresh(2, exploits=("dutch_east_india_company",))
    T.open_region(s, "FE", 0)
    T.open_region(s, "AF", 0)
    for code in ("market", "bank", "docks"):
        T.give_building(s, 0, code)
    T.give_token(s, 0, 0)
    T.give_discs(s, 0, 3)
    T.at_actions(s, 0)
    return s

def _deic_rebuild_menu() -> tuple[State, Decision, S.Menu]:
    """:func:`_deic_draw` after activating the Market: the rebuild decision and its
    menu."""
    s = _deic_draw()
    s.apply("act market")
    decision = s.decision()
    assert decision is not None
    return s, decision, S.build_menu(decision)



def _feed(monkeypatch: pytest.MonkeyPatch, answers: Iterable[str]) -> list[str]:
    """Answer ``input()`` with ``answers`` (EOF when they run out); return the prompts."""
    return feed_input(monkeypatch, answers)


def _run(state: State, answers: Iterable[str],
         monkeypatch: pytest.MonkeyPatch) -> tuple[str, list[str]]:
    prompts = _feed(monkeypatch, answers)
    out = Console(width=100, file=io.StringIO(), color_system=None)
    assert PlaySession(state, out, 0, RandomBot(0), {"seat": 0}).run() == 0
    file = out.file
    assert isinstance(file, io.StringIO)
    return file.getvalue(), prompts


def test_long_exploit_menu_asks_for_the_ability_first(monkeypatch: pytest.MonkeyPatch) -> None:
    s = _deic_draw()
    s.apply("act market")
    decision = s.decision()
    assert decision is not None and len(decision.options) > S.COLLAPSE_AT
    rebuilds = [o.action.text for o in decision.options if o.action.text.startswith(
        "deic rebuild")]
    assert len(rebuilds) > S.COLLAPSE_AT
    menu = S.build_menu(decision)
    subs = [e for e in menu.entries if e.action is None]
    assert [e.notation for e in subs] == ["deic rebuild bank …", "deic rebuild docks …"]
    assert sum(e.count for e in subs) == len(rebuilds)
    leaves = [e.notation for e in menu.entries if e.action is not None]
    assert leaves == [o.action.text for o in decision.options
                      if not o.action.text.startswith("deic rebuild")]
    # the sub-menu lists the targets of one ability, in the decision's order
    sub = S.build_menu(decision, "deic rebuild docks")
    assert [e.notation for e in sub.entries] == [t for t in rebuilds if " docks " in t]
    lines = _text(s, S.View(human=0, decision=decision, menu=sub))
    assert len(lines) <= 39 and HEADER.match(lines[0])
    assert any("deic rebuild docks … choose one · 'back'" in line for line in lines)


def test_sub_menu_choice_back_and_notation(monkeypatch: pytest.MonkeyPatch) -> None:
    s, decision, menu = _deic_rebuild_menu()
    bank = next(e for e in menu.entries if e.notation == "deic rebuild bank …")
    docks = next(e for e in menu.entries if e.notation == "deic rebuild docks …")
    third = S.build_menu(decision, "deic rebuild docks").entries[2].notation
    k = s.num_actions
    out, prompts = _run(s, [str(bank.number), "back", "back", str(docks.number), "99", "3"],
                        monkeypatch)
    assert s.history()[k].text == third
    assert prompts[1].startswith("P0 [1-") and ", back," in prompts[1]
    assert ", back," not in prompts[2]
    assert "This is the whole menu already." in out
    assert f"No menu entry 99: choose 1 to {docks.count}." in out

    # a whole notation works inside a sub-menu too
    s = _deic_draw()
    s.apply("act market")
    k = s.num_actions
    _run(s, [str(bank.number), "deic rebuild docks bank"], monkeypatch)
    assert s.history()[k].text == "deic rebuild docks bank"


@pytest.mark.parametrize("players", [2, 5])
def test_long_exploit_menus_keep_the_header_at_100_by_40(players: int) -> None:
    """Every decision of seat 0 with the menu the terminal builds at 100×40 (collapsed
    past half the height, as PlaySession does), each of its sub-menus too, with bot
    names, a message and the Silent Fleet's building shortage: the header is the first
    line and the screen leaves the last line to the input prompt."""
    options = {"silent_fleet": True, "building_shortage": True} if players == 2 else {}
    config = GameConfig(players=players, seed=7, options=options,
                        exploits=("dutch_east_india_company", "globalisation",
                                  "letters_of_marque"))
    names = {p: "random" for p in range(1, players)}
    for state, log, new_from, decision in _decisions(config, every=2, seed=7):
        menu = S.build_menu(decision, "", 20)
        menus = [menu] + [S.build_menu(decision, e.notation.rstrip(" …"), 20)
                          for e in menu.entries if e.action is None]
        for m in menus:
            view = S.View(human=0, log=log, new_from=new_from, decision=decision, menu=m,
                          names=names, messages=[Text("No menu entry 99", style="red")])
            lines = _text(state, view)
            assert len(lines) <= 39 and HEADER.match(lines[0]), lines[:2]
            assert _menu_spots(lines, m) == list(range(1, len(m) + 1))


def test_a_small_terminal_keeps_the_header_prompt_and_menu() -> None:
    config = CONFIGS[4]  # 5 players, 3 Exploits
    for state, log, new_from, decision in _decisions(config, every=7, seed=config.seed):
        menu = S.build_menu(decision)
        view = S.View(human=0, log=log, new_from=new_from, decision=decision, menu=menu)
        lines = _text(state, view, 80, 24)
        assert len(lines) <= 23 and HEADER.match(lines[0])
        assert any(line.startswith("▶ P0 (you) · ") for line in lines)
        assert _menu_spots(lines, menu) == list(range(1, len(menu) + 1))


def test_plus_same_region_house_rule_option(capsys: pytest.CaptureFixture[str]) -> None:
    from endeavor.cli import main
    assert main(["simulate", "--games", "2", "--plus-same-region", "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert all(g["config"]["options"]["plus_same_region"] is True for g in lines)
    assert main(["simulate", "--games", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["config"]["options"]["plus_same_region"] is False


def test_bots_names_on_the_mats_and_in_the_header() -> None:
    names = {1: "medium", 2: "hard", 3: "random", 4: "greedy"}
    state = new_game(GameConfig(players=5, seed=5, exploits=CONFIGS[4].exploits))
    bot = RandomBot(5, 0.1)
    checked = 0
    while not state.is_over:
        p = state.current_player
        if state.num_actions % 9 == 0 and p is not None:
            view = S.View(human=0, log=[Event("info", None, "x")], names=names,
                          decision=state.decision())
            lines = _text(state, view)
            assert len(lines) <= 39 and all(len(line) <= 100 for line in lines)
            assert HEADER.match(lines[0]), lines[0]  # a bot's decision too
            who = "(you)" if p == 0 else f"({names[p]})"
            assert f"▶ P{p} {who}" in lines[0]
            mats = {int(m.group(1)): m.group(2) for line in lines
                    if (m := re.match(r"^[▶ ] P(\d) (\w+)", line))}
            assert mats == {0: "you", **names}
            # the glory (at the end of a two-line mat's first line) is never cut
            firsts = [line for line in lines if re.match(r"^[▶ ] P\d \w", line)]
            assert len(firsts) == 5
            assert all(re.search(r"(glory|\bg)-? ?\d+", line) for line in firsts)
            checked += 1
        state.apply(bot.choose(state))
    assert checked > 20


def test_the_log_counts_what_a_build_or_draw_leaves() -> None:
    """"Build the Workshop … (then 4 left)": the count in the log is what the supply or
    the deck holds after the action (the menu said the same before it)."""
    counted = {"build": 0, "draw": 0}
    for seed in range(3):
        state = new_game(GameConfig(players=4, seed=seed))
        bot = RandomBot(seed, 0.1)
        while not state.is_over:
            action = bot.choose(state)
            decision = state.decision()
            assert decision is not None
            words = decision.option(action).text
            event = state.apply(action)[0]
            assert event.text.endswith(words)  # the menu's words, in the log
            verb, _, target = action.text.partition(" ")
            if verb == "build":
                b = next(i for i, bd in enumerate(D.BUILDINGS) if bd.code == target)
                left = state.building_supply[b]
            elif verb == "draw" and target in D.DECK_CODES:
                left = len(state.decks[D.DECK_CODES.index(target)])
            else:
                continue
            counted[verb] += 1
            said = f"(then {left or 'none'} left)"
            assert event.text.endswith(said), (event.text, said)
            lines = [x.text.plain for x in S.log_lines([event], 100)]
            assert said in " ".join(" ".join(lines).split())
    assert counted["build"] > 10 and counted["draw"] > 10


def _late_game(seed: int = 3) -> State:
    """A 4-player game played at random into its last round."""
    state = new_game(GameConfig(players=4, seed=seed))
    bot = RandomBot(seed, 0.1)
    while state.round < 7:
        state.apply(bot.choose(state))
    return state


def test_links_short_of_room_list_the_tokens_still_there() -> None:
    """The Links line short of room (level 1) names every link whose token is still
    there, by kind, and counts the links each player holds (it used to say only
    "+ 14 with a token"); at full size every link is listed with its token or holder."""
    state = _late_game()
    board = state.info.board
    held = {p: sum(state.controls_link(p, li) for li in range(len(board.links)))
            for p in range(4)}
    waiting = [(D.SITES[x].code, D.SITES[y].code) for li, (x, y) in enumerate(board.links)
               if state.link_token[li] >= 0 and not any(held) or
               state.link_token[li] >= 0 and not any(state.controls_link(p, li)
                                                     for p in range(4))]
    assert waiting and any(held.values())
    for width in (100, 120):
        lines = S.links_lines(state, width, level=1)
        short = " ".join(line.plain for line in lines)
        assert len(lines) <= 2 and "with a token" not in short
        assert short.endswith("…") == (width == 100)  # a longer list is cut visibly
        names = [f"{a}-{b[2:]}" if a[:2] == b[:2] else f"{a}-{b}" for a, b in waiting]
        shown = [n for n in names
                 if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", short)]
        assert len(shown) >= len(names) - (2 if width == 100 else 0), (names, short)
        for p, k in held.items():
            assert (f"P{p}×{k}" in short) == (k > 0)
    full = " ".join(line.plain for line in S.links_lines(state, 100))
    assert all(f"{a}-{b}:" in full for a, b in waiting)


def test_attack_and_occupy_options_show_the_links_they_complete_at_100_by_40() -> None:
    """At 100×40 an Attack's and an Occupy's menu entries show the links they would
    complete (wrapped into spare lines, the site named once), not cut before them."""
    s = T.fresh(4)
    T.give_building(s, 2, "barracks")
    T.give_discs(s, 2, 4)
    T.at_actions(s, 2)
    T.set_link_token(s, "EU8", "AF1", D.T_INFLUENCE)
    for _ in range(len(s.track(D.REGION_CODES.index("AF")))):
        T.ship(s, 1, "AF")
    T.place(s, 2, "EU8")
    T.place(s, 1, "AF1")
    T.sea(s, 2, "AF")
    s.apply("act barracks")
    decision = s.decision()
    assert decision is not None
    lines = _text(s, S.View(human=2, decision=decision, menu=S.build_menu(decision)))
    assert len(lines) <= 39 and HEADER.match(lines[0])
    menu = " ".join(" ".join(lines).split())
    assert "attack AF1 Attack Elmina held by P1" in menu
    assert "completes the link AF1-EU8 (Influence token)" in menu
    # an Occupy beside a city of yours says the same
    s = T.fresh(4)
    T.give_building(s, 0, "colonial-house")
    T.give_discs(s, 0, 2)
    T.at_actions(s, 0)
    T.place(s, 0, "EU10")
    T.set_link_token(s, "EU9", "EU10", D.T_WEALTH)
    s.apply("act colonial-house")
    decision = s.decision()
    assert decision is not None
    lines = _text(s, S.View(human=0, decision=decision, menu=S.build_menu(decision)))
    assert any("occupy EU9 Genoa: 1 glory" in line for line in lines)
    menu = " ".join(" ".join(lines).split())
    assert "link EU9-EU10 (Wealth" in menu


def test_a_sub_menu_shows_the_targets_and_what_they_gain_first() -> None:
    """A collapsed entry lists its targets first; in its sub-menu each entry shows the
    target, its city's name and what it gains, not the words every entry shares."""
    s, decision, menu = _deic_rebuild_menu()
    docks = next(e for e in menu.entries if e.notation == "deic rebuild docks …")
    targets = [o.action.text.split()[3] for o in decision.options
               if o.action.text.startswith("deic rebuild docks ")]
    assert docks.text.startswith(f"{len(targets)} choices: {' '.join(targets[:3])}")
    sub = S.build_menu(decision, "deic rebuild docks")
    assert [e.shown for e in sub.entries] == targets
    lines = _text(s, S.View(human=0, decision=decision, menu=sub))
    for e in sub.entries:
        assert re.search(rf"(?<!\d){e.number} {re.escape(e.shown)}\b", "\n".join(lines))


def test_mats_show_every_token_and_card_at_100_columns() -> None:
    """A crowded mat's second line keeps its cards and tokens whole (the buildings are
    written tighter first, then the labels go) instead of cutting the tokens."""
    from endeavor.terminal import render as R

    s = T.fresh(4)
    for code in ("market", "market", "shipyard", "bank", "guild-hall", "barracks", "docks"):
        T.give_building(s, 1, code)
    for code in ("IN/1", "SL/1", "NA/1", "CA/2", "EU/2"):
        T.give_card(s, 1, code)
    for t, k in ((D.T_INDUSTRY, 1), (D.T_CULTURE, 2), (D.T_WEALTH, 1), (D.T_INFLUENCE, 5),
                 (D.T_ATTACK, 1)):
        T.give_token(s, 1, t, k)
    T.check(s)
    pl = s.players[1]
    second = S.mat_lines(s, 100)[3].plain
    tokens = " ".join(f"{R.TOKEN_ABBREVS[t]}{k}"
                      for t, k in enumerate(list(pl.brown_tokens) + list(pl.blue)) if k)
    assert tokens.count(" ") >= 4 and tokens in second, (tokens, second)
    assert all(D.CARDS[c].code in second for c in pl.cards), second
    assert len(second) <= 100
