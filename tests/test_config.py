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


class _Strange:
    """Junk no field takes: unhashable, and its ``==`` raises."""

    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("a strange value was compared")

    def __repr__(self) -> str:
        return "<strange>"


#: junk of every kind: unhashable containers, wrong scalar types, bytes, a bool where
#: an int is meant, objects with a strange ``==``
JUNK: list[object] = [{}, {"A": 1}, [], [1], set(), frozenset(), b"A", bytearray(b"A"),
                      1.5, float("nan"), 2j, True, object(), _Strange(), ("A",), "zz"]
#: the words each field's refusal names it by
FIELD_WORDS = {"players": "players", "ruleset": "ruleset", "board": "board side",
               "exploits": "Exploit", "seed": "seed", "options": "option"}


#: more junk for each field; ``skip`` the junk values a field does take
EXTRA: dict[str, list[object]] = {
    "players": [None, 0, -1, 10**30, "3"], "ruleset": [None, 0, "", "A", "Classic"],
    "board": [0, "", "C", "a"], "exploits": [None, 0, "zz", "random,zz"],
    "seed": [None, "0"], "options": [None, 0, "phase_order", [("phase_order", "by_phase")]]}


def _takes(name: str, value: object) -> bool:
    """The junk values a field does take: ``[]`` as Exploits, ``{}`` as options."""
    return (name == "exploits" and type(value) is list and not value
            or name == "options" and type(value) is dict and not value)


@pytest.mark.parametrize("name", list(FIELD_WORDS))
@pytest.mark.parametrize("ruleset", ["age_of_sail", "classic"])
def test_junk_in_any_field_is_a_config_error(name: str, ruleset: str) -> None:
    # every bad value raises ConfigError with the reason, never a TypeError
    for value in JUNK + EXTRA[name]:
        if _takes(name, value):
            continue
        kwargs = {"players": 3, "ruleset": ruleset, name: value}
        with pytest.raises(ConfigError, match=FIELD_WORDS[name]) as err:
            GameConfig(**kwargs)  # type: ignore[arg-type]
        assert type(err.value) is ConfigError, (name, value)


@pytest.mark.parametrize("option", ["phase_order", "discard_pile_bonus", "silent_fleet"])
def test_junk_option_values_and_names_are_config_errors(option: str) -> None:
    for value in JUNK + [None, 0, 1, "by_phase " if option == "phase_order" else "yes"]:
        if value is True and option != "phase_order":
            continue  # a bool option takes True
        with pytest.raises(ConfigError, match=f"option {option}="):
            GameConfig(players=2, options={option: value})
    for name in (1, None, b"phase_order", ("phase_order",), frozenset(), 1.5):
        with pytest.raises(ConfigError, match="unknown option"):
            GameConfig(players=2, options={name: "by_phase"})


def test_junk_exploit_ids_are_config_errors() -> None:
    for value in JUNK + [None, 5]:
        if isinstance(value, str):
            continue
        with pytest.raises(ConfigError, match="Exploit"):
            GameConfig(players=2, exploits=(value,))  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="unknown Exploit 'zz'"):
        GameConfig(players=2, exploits=("zz",))


def test_junk_in_from_dict_is_a_config_error() -> None:
    for d in JUNK + [None, 5, "players=2"]:
        if type(d) is dict:
            continue
        with pytest.raises(ConfigError, match="config must be an object"):
            GameConfig.from_dict(d)
    for key in (1, None, b"players", ("players",), 1.5):
        with pytest.raises(ConfigError, match="unknown config field"):
            GameConfig.from_dict({"players": 2, key: 1})
    with pytest.raises(ConfigError, match="board side"):
        GameConfig.from_dict({"players": 2, "board": {}})


def test_equal_values_of_other_types_are_stored_plain() -> None:
    # an int or str subclass is accepted for its value and stored as the plain type
    class Seats(int):
        pass

    class Side(str):
        pass

    c = GameConfig(players=Seats(3), board=Side("B"), seed=Seats(7))
    assert type(c.players) is int and type(c.board) is str and type(c.seed) is int
    assert c == GameConfig(players=3, board="B", seed=7)
    assert new_game(c).to_json() == new_game(GameConfig(players=3, board="B", seed=7)).to_json()
