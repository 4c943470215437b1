"""``endeavor play --lang fr``: a whole terminal game in French through the command line
(scripted input, as in ``tests/test_cli.py``), ``--lang`` refused for a language the
engine does not speak, and English unchanged by default."""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path

import pytest

from endeavor.cli import main
from endeavor.terminal import words as W
from scenario import feed_input

GAME = ["play", "--players", "2", "--seed", "11", "--bot-seed", "3", "--opponents", "random"]
#: the screen's English words that a French screen must not show
ENGLISH = ("Round ", "Harbor", "harbor ", "Supply", " your ", "Score", "Discard pile",
           "Links ", "Crown", "glory ", "Winner", "(you)", "New game", "notation, hint")


@pytest.fixture(autouse=True)
def _in_a_scratch_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scripted answers may save the finished game: into a scratch folder."""
    monkeypatch.chdir(tmp_path)


def _play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
          argv: list[str], script: list[str]) -> tuple[str, list[str]]:
    monkeypatch.chdir(tempfile.mkdtemp(dir="."))  # each game saves into a folder of its own
    prompts = feed_input(monkeypatch, itertools.chain(script, ["1"] * 600))
    assert main(argv) == 0
    return capsys.readouterr().out, prompts


def test_a_whole_game_in_french(monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    out, prompts = _play(monkeypatch, capsys, [*GAME, "--lang", "fr"],
                         ["99", "back", "xyz"])
    for word in ("Manche", "Phase", "port ", "réserve", "Couronne", "Journal", "Décompte final",
                 "Vainqueur", "Gloire", "(vous)", "Nouvelle partie", "Mise en place",
                 "Pile de défausse", "Liaisons"):
        assert word in out, word
    assert "Pas d'entrée 99 dans le menu : choisissez de 1 à 2." in out
    assert "C'est déjà le menu entier." in out
    for word in ENGLISH:
        assert word not in out, word
    # the prompt of the input line: the commands are typed the same in every language
    assert prompts[0].startswith("P0 [1-") and "notation, hint, help]> " in prompts[0]
    assert not any("Save it?" in p for p in prompts)
    assert any("La partie est finie. L'enregistrer ?" in p for p in prompts)


def test_the_notation_is_the_same_in_french(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = _play(monkeypatch, capsys, [*GAME, "--lang", "fr", "--players", "3",
                                         "--seat", "1", "--seed", "5", "--bot-seed", "9"],
                   ["START  Merchant-Dock", "quit", ""])
    assert "P1 : Commencer avec le bâtiment Quai marchand" in out
    assert "Partie laissée inachevée." in out


def test_an_unknown_language_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*GAME, "--lang", "de"]) == 2
    err = capsys.readouterr().err
    assert "--lang: invalid choice: 'de'" in err and "'en', 'fr'" in err
    assert "Traceback" not in err


def test_english_by_default(monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    default, _ = _play(monkeypatch, capsys, GAME, ["99"])
    english, _ = _play(monkeypatch, capsys, [*GAME, "--lang", "en"], ["99"])
    assert default == english
    for word in ("Round ", "harbor ", "Supply", "Crown", "Final score", "Winner",
                 "No menu entry 99: choose 1 to 2."):
        assert word in default, word
    assert "Manche" not in default


def test_the_replay_speaks_french_too(tmp_path: object, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path
    path = Path(str(tmp_path)) / "game.json"
    _play(monkeypatch, capsys, GAME, [f"save {path}", "quit", ""])
    assert main(["replay", str(path), "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert "Position après" in out and "Journal · les derniers coups" in out


def test_every_screen_word_is_in_french() -> None:
    for id in W.GROUPS.values():
        assert W.say("fr", id)
    assert W.say("fr", W.ROUND, round="2", rounds="7", phase="Actions") == (
        "Manche 2/7 · Phase Actions")
    assert W.say("en", W.ROUND, round="2", rounds="7", phase="Actions") == (
        "Round 2/7 · Actions")


def test_a_hint_in_french_says_the_glory_expected() -> None:
    import io

    from rich.console import Console

    from endeavor import GameConfig, new_game
    from endeavor.bots import RandomBot, Rated
    from endeavor.cli import PlaySession

    state = new_game(GameConfig(players=2, seed=1))
    out = Console(file=io.StringIO())
    action = state.legal_actions()[0]
    rated = Rated(action, 0.4, 120, "about 40 glory at the end, 3 behind P1", 40.2, -3.1)
    fr = PlaySession(state, out, 0, RandomBot(0), {"seat": 0}, lang="fr")
    assert fr.outlook(rated) == ("environ 40 Gloire en fin de partie, 3 de retard sur le "
                                  "premier (120 visites)")
    en = PlaySession(state, out, 0, RandomBot(0), {"seat": 0})
    assert en.outlook(rated) == rated.text
    assert fr.outlook(Rated(action, 0.0, 0, "random choice")) == "random choice"
