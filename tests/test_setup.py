"""Setup (RB fr "Mise en place" A-H; R1, R2, R3): the token deal, the decks, the
Governors, the building supply, the Crown and the start tiles."""

from __future__ import annotations

from collections import Counter

import pytest

from endeavor import GameConfig, IllegalActionError, new_game
from endeavor import data as D
from scenario import check, deciding, fresh, texts

CONFIGS = [(2, "A"), (3, "A"), (4, "A"), (4, "B"), (5, "B"), (2, "B")]


def _track_tokens(s) -> list[int]:  # type: ignore[no-untyped-def]
    """The tokens on every track space, region by region."""
    return [t for r in range(D.NREGIONS) for t in s.track_tokens(r)]


def _deal(s) -> Counter[int]:  # type: ignore[no-untyped-def]
    c: Counter[int] = Counter()
    c.update(_track_tokens(s))
    c.update(s.site_token[x] for x in D.BOARDS[s.config.board].sites)
    c.update(t for t in s.link_token if t >= 0)
    return c


@pytest.mark.parametrize("players, side", CONFIGS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_95_tokens_one_per_circular_space(players: int, side: str,
                                          seed: int) -> None:  # R1, R2
    s = new_game(GameConfig(players=players, board=side, seed=seed))
    b = D.BOARDS[side]
    # every shipping track space holds a token
    assert len(_track_tokens(s)) == sum(b.track_lengths)
    assert all(t >= 0 for t in _track_tokens(s))
    # every city and trade route of this side holds one; sites of the other side none
    for x in range(D.NSITES):
        if x in b.sites:
            assert s.site_token[x] >= 0, D.SITES[x].code
        else:
            assert s.site_token[x] == -1, D.SITES[x].code
    # circular links hold one, square links none
    for li, circular in enumerate(b.link_circular):
        assert (s.link_token[li] >= 0) == circular, b.links[li]
    assert any(not c for c in b.link_circular)  # both sides do have square links
    # the counts per type: 17/20/17/25/6/6/2/2 (the component listing's tokens), 95 in all
    deal = _deal(s)
    assert [deal[t] for t in range(8)] == [17, 20, 17, 25, 6, 6, 2, 2]
    assert sum(deal.values()) == 95
    check(s)


def test_track_lengths_per_side() -> None:
    # the component listing's boards: side A AF 5, SA/CA/NA/IN 6, FE 7; side B 6 everywhere
    a, b = new_game(GameConfig(players=3)), new_game(GameConfig(players=4))
    assert [len(a.track(r)) for r in range(7)] == [0, 5, 6, 6, 6, 6, 7]
    assert [len(b.track(r)) for r in range(7)] == [0, 6, 6, 6, 6, 6, 6]


def test_deal_is_random_by_seed_and_reproducible() -> None:  # R2
    deals = set()
    for seed in range(5):
        a = new_game(GameConfig(seed=seed))
        b = new_game(GameConfig(seed=seed))
        assert (_track_tokens(a), a.site_token, a.link_token) == (_track_tokens(b),
                                                                  b.site_token, b.link_token)
        deals.add((tuple(_track_tokens(a)), tuple(a.site_token), tuple(a.link_token)))
    assert len(deals) == 5


def test_decks_ordered() -> None:
    s = new_game(GameConfig())
    # top of a deck is the last element; read from the top down
    for d in range(8):
        top_down = [D.CARDS[c].value for c in reversed(s.decks[d])]
        if d in (D.EU_DECK, D.SLAVERY_DECK):
            assert top_down == [0, 1, 2, 3, 4, 5], D.DECK_NAMES[d]
        else:
            assert top_down == [1, 2, 3, 4, 5], D.DECK_NAMES[d]
        assert all(D.CARDS[c].deck == d and not D.CARDS[c].governor for c in s.decks[d])
    assert sum(len(d) for d in s.decks) == 42  # 42 Asset cards
    assert s.pile == [] and s.removed == []


def test_governors_beside_their_decks() -> None:
    s = new_game(GameConfig())
    assert s.gov_avail[D.EUROPE] == -1  # Europe has no Governor
    for r in range(1, 7):
        g = s.gov_avail[r]
        assert D.CARDS[g].governor and D.CARDS[g].deck == r
        assert D.CARDS[g].code == f"{D.REGION_CODES[r]}/G"
        assert all(g not in d for d in s.decks)  # never in a deck: not drawable


def test_building_supply() -> None:
    s = new_game(GameConfig())
    copies = {1: 5, 2: 4, 3: 3, 4: 2}
    for b, bd in enumerate(D.BUILDINGS):
        if 1 <= bd.level <= 4:
            assert s.bsupply[b] == copies[bd.level], bd.name
        elif bd.level == 0:
            assert s.bsupply[b] == 0, bd.name  # start tiles are not in the supply
    per_level = Counter(D.BUILDINGS[b].level for b in range(len(D.BUILDINGS))
                        if 1 <= D.BUILDINGS[b].level <= 4)
    assert per_level == {1: 3, 2: 3, 3: 3, 4: 3}


@pytest.mark.parametrize("seed", range(12))
def test_three_level5_buildings_from_the_known_five(seed: int) -> None:  # R2
    s = new_game(GameConfig(seed=seed))
    known = {"exchange", "museum", "parliament", "memorial", "town-hall"}
    five = [b for b, bd in enumerate(D.BUILDINGS) if bd.level == 5]
    assert {D.BUILDINGS[b].code for b in five} == known
    assert len(s.level5) == 3 and len(set(s.level5)) == 3
    for b in five:
        assert s.bsupply[b] == (1 if b in s.level5 else 0)


def test_level5_pool_varies_with_seed() -> None:  # R2
    pools = {new_game(GameConfig(seed=seed)).level5 for seed in range(30)}
    assert len(pools) > 3
    assert new_game(GameConfig(seed=8)).level5 == new_game(GameConfig(seed=8)).level5


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_first_player_random_by_seed(players: int) -> None:  # R2, RB "G La Couronne"
    crowns = []
    for seed in range(40):
        s = new_game(GameConfig(players=players, seed=seed))
        assert 0 <= s.crown < players
        assert deciding(s) == ("start_tile", s.crown)  # the Crown holder chooses first (R3)
        assert new_game(GameConfig(players=players, seed=seed)).crown == s.crown
        crowns.append(s.crown)
    assert set(crowns) == set(range(players))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_start_tile_chosen_in_turn_order_from_the_crown(players: int) -> None:  # R3
    s = new_game(GameConfig(players=players, seed=3))
    crown = s.crown
    choices = ["merchant-dock", "colonial-house", "merchant-dock", "colonial-house",
               "colonial-house"]
    for i in range(players):
        p = (crown + i) % players
        assert s.current_player == p
        assert texts(s) == ["start colonial-house", "start merchant-dock"]
        s.apply(f"start {choices[i]}")
    for i in range(players):
        p = (crown + i) % players
        pl = s.players[p]
        assert pl.blds == [D.BUILDING_INDEX[choices[i]]]  # leftmost Seaside space
        assert pl.occ == 1  # a disc on its activation circle...
        assert pl.supply == 34 and pl.harbor == 0  # ...taken from the supply
        check(s)
    # then round 1 begins with the Crown holder's Construction
    assert s.round == 1 and s.phase_name == "Construction"
    assert deciding(s) == ("construction", crown)


def test_merchant_dock_gives_one_wealth() -> None:  # R3
    s = fresh(players=2, starts=("merchant-dock", "colonial-house"))
    crown = s.crown
    dock, house = s.players[crown], s.players[1 - crown]
    assert dock.attr == [0, 0, 1, 0]  # RB fr: Wealth 0 -> 1
    assert house.attr == [0, 0, 0, 0]
    check(s)


def test_start_tiles_are_not_buildable_and_choices_are_free() -> None:  # R3
    s = new_game(GameConfig(players=3))
    with pytest.raises(IllegalActionError):
        s.apply("build market")  # nobody builds before choosing a start tile
    s.apply("start colonial-house")
    s.apply("start colonial-house")  # both choices are open to every player
    s.apply("start colonial-house")
    assert "build colonial-house" not in texts(s)


def test_players_start_with_35_discs_and_zero_tracks() -> None:
    s = new_game(GameConfig(players=5))
    for pl in s.players:
        assert pl.supply == 35 and pl.harbor == 0
        assert pl.attr == [0, 0, 0, 0]
        assert pl.blds == [] and pl.cards == [] and pl.gov == -1
    assert all(o == -1 for r in range(7) for o in s.track(r))  # every track starts empty
    assert [s.is_open(r) for r in range(7)] == [True] + [False] * 6  # Europe is open
