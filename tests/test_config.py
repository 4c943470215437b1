"""GameConfig: defaults, board side per player count (R1), immutability, validation of
options (R6, R16) and the to_dict / from_dict round trip."""

from __future__ import annotations

import dataclasses
import json

import pytest

from endeavor import ConfigError, GameConfig, new_game

#: the Silent Fleet's options, all off by default (R21, R22)
FLEET_OFF = {"silent_fleet": False, "limited_occupation": False, "no_token_reaction": False,
             "building_shortage": False}


def test_defaults() -> None:
    c = GameConfig()
    assert c.players == 4
    assert c.ruleset == "age_of_sail"  # R1: the default ruleset
    assert c.board == "B"  # R1: default for 4 players is side B
    assert c.exploits == ()
    assert c.seed == 0
    assert dict(c.options) == {"phase_order": "by_phase", "discard_pile_bonus": True,
                              "plus_same_region": False, **FLEET_OFF}
    assert c.option("phase_order") == "by_phase"  # R6 default
    assert c.option("discard_pile_bonus") is True  # R16 default (fr text)


@pytest.mark.parametrize("players, side", [(2, "A"), (3, "A"), (4, "B"), (5, "B")])
def test_default_board_side_by_player_count(players: int, side: str) -> None:
    # R1: side A suits 2 and 3 players, side B loose 4 and 5; default for 4 is B
    assert GameConfig(players=players).board == side


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("side", ["A", "B"])
def test_explicit_board_side_is_kept(players: int, side: str) -> None:
    # R1: any player count may choose either side
    c = GameConfig(players=players, board=side)
    assert c.board == side
    assert new_game(c).config.board == side


def test_partial_options_are_filled_with_defaults() -> None:
    c = GameConfig(options={"phase_order": "by_player"})
    assert dict(c.options) == {"phase_order": "by_player", "discard_pile_bonus": True,
                              "plus_same_region": False, **FLEET_OFF}
    c = GameConfig(options={"discard_pile_bonus": False})
    assert dict(c.options) == {"phase_order": "by_phase", "discard_pile_bonus": False,
                              "plus_same_region": False, **FLEET_OFF}


def test_config_is_frozen() -> None:
    c = GameConfig()
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.players = 3  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.seed = 7  # type: ignore[misc]
    with pytest.raises(TypeError):
        c.options["phase_order"] = "by_player"  # type: ignore[index]
    assert c.players == 4 and c.option("phase_order") == "by_phase"


def test_options_are_copied_not_shared() -> None:
    opts = {"phase_order": "by_player"}
    c = GameConfig(options=opts)
    opts["phase_order"] = "by_phase"
    assert c.option("phase_order") == "by_player"


@pytest.mark.parametrize("options", [
    {"no_such_option": 1},
    {"phase_order": "random"},
    {"phase_order": True},
    {"discard_pile_bonus": "yes"},
    {"discard_pile_bonus": 1},  # an int is not a bool, even though 1 == True
    {"discard_pile_bonus": None},
])
def test_bad_options_are_rejected(options: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        GameConfig(options=options)


@pytest.mark.parametrize("kwargs", [
    {"players": 1}, {"players": 6}, {"players": "4"}, {"players": True},
    {"board": "C"}, {"board": "a"}, {"ruleset": "chess"}, {"seed": "0"}, {"seed": 1.5},
    {"exploits": ("no_such_exploit",)}, {"options": ["phase_order"]},
])
def test_bad_fields_are_rejected(kwargs: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        GameConfig(**kwargs)  # type: ignore[arg-type]


def test_config_errors_are_value_errors_with_a_reason() -> None:
    with pytest.raises(ValueError, match="phase_order"):
        GameConfig(options={"phase_order": "sideways"})


@pytest.mark.parametrize("config", [
    GameConfig(),
    GameConfig(players=2, seed=99),
    GameConfig(players=3, board="B", seed=-5),
    GameConfig(players=5, options={"phase_order": "by_player", "discard_pile_bonus": False}),
])
def test_to_dict_from_dict_round_trip(config: GameConfig) -> None:
    d = config.to_dict()
    assert json.loads(json.dumps(d)) == d  # plain JSON data
    back = GameConfig.from_dict(json.loads(json.dumps(d)))
    assert back == config
    assert back.to_dict() == d
    assert dict(back.options) == dict(config.options)
    assert back.board == config.board  # the resolved side is stored, not None


def test_to_dict_content() -> None:
    d = GameConfig(players=3, seed=11).to_dict()
    assert d == {"players": 3, "ruleset": "age_of_sail", "board": "A", "exploits": [],
                 "seed": 11,
                 "options": {"phase_order": "by_phase", "discard_pile_bonus": True,
                             "plus_same_region": False, **FLEET_OFF}}


def test_from_dict_rejects_garbage() -> None:
    with pytest.raises(ConfigError):
        GameConfig.from_dict({"players": 4, "colour": "red"})
    with pytest.raises(ConfigError):
        GameConfig.from_dict([("players", 4)])
    with pytest.raises(ConfigError):
        GameConfig.from_dict({"options": {"phase_order": "nope"}})


def test_from_dict_fills_missing_fields_with_defaults() -> None:
    assert GameConfig.from_dict({}) == GameConfig()
    assert GameConfig.from_dict({"players": 2}).board == "A"


def test_equal_configs_give_equal_games() -> None:
    a = new_game(GameConfig(seed=5))
    b = new_game(GameConfig.from_dict(GameConfig(seed=5).to_dict()))
    assert a.to_json() == b.to_json()
