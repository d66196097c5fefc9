"""The compiled Sanssouci core plays exactly the Python engine's games.

Both engines play the same seeded games (2-4 players, every variant, tile set, garden
side choice and house rule, a user's component file, mixed seatings of the compiled
strategies with non-default parameters); their results and turn frames must be equal,
column for column, dtype for dtype, row for row. The cases play 5,000+ games in all.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal
from positions import default_data, dump_toml

from sanssim.compiled import prepare
from sanssim.games import get_game
from sanssim.games.sanssouci.core import SanssouciCore
from sanssim.runner.play import game_seed, play_game
from sanssim.strategies import resolve

GAME = get_game("sanssouci")
CORE = SanssouciCore()


@pytest.fixture(autouse=True, scope="module")
def _compiled() -> None:
    """The core as a run compiles it (a stale cache dropped first)."""
    prepare(CORE)


ODD_HEURISTIC = "heuristic:option=0.4,path=1.5,decay=0.55,skip=0.1,joker=0.3,mission_move=1.2"
HOUSE = {
    "row_bonus_points": "3,9,1,0,12",
    "column_bonus_points": 7,
    "seat_bonus": 2,
    "mission_row_points": "0,1,1,5,8,13",
}

# (players, options, seats, games): each case's games on both engines.
CASES = [
    (2, {}, ["random"], 600),
    (3, {}, ["random"], 500),
    (4, {}, ["random"], 500),
    (2, {"expansion": True}, ["random"], 300),
    (4, {"expansion": True, "duplicate_reshuffle": True}, ["random"], 400),
    (3, {"duplicate_reshuffle": True, "tile_set": "II"}, ["random"], 400),
    (2, {"tile_set": "II+III+IV"}, ["random"], 200),
    (4, {"tile_set": "II"}, ["random"], 300),
    (3, {"garden_sides": "2B"}, ["random"], 200),
    (4, {"garden_sides": "1A,1A,3B,4A", "expansion": True}, ["random"], 200),
    (2, HOUSE, ["random"], 200),
    (2, {}, ["greedy", "random"], 400),
    (3, {"expansion": True}, ["random", "greedy", "greedy"], 300),
    (4, {"duplicate_reshuffle": True, "tile_set": "II"}, ["greedy"], 200),
    (2, {"expansion": True, "duplicate_reshuffle": True}, ["heuristic", "greedy"], 120),
    (3, {}, ["heuristic-tuned", "random", ODD_HEURISTIC], 120),
    (4, {"expansion": True, **HOUSE}, ["random", ODD_HEURISTIC, "greedy", "heuristic"], 100),
    (2, {"tile_set": "II", **HOUSE}, [ODD_HEURISTIC, "heuristic-tuned"], 120),
    (4, {"tile_set": "II+III", "garden_sides": "3A"}, ["heuristic", "random"] * 2, 80),
    (4, {"tiles_per_symbol": 2}, ["random", "greedy"] * 2, 150),
    (2, {"tiles_per_symbol": 20, "duplicate_reshuffle": True}, ["random"], 150),
    (3, {"tiles_per_symbol": 3}, ["heuristic", "random", "greedy"], 60),
]


def assert_same_games(
    n: int, options: dict, seats: list[str], games: int, seed: int, components=None
) -> None:
    game = GAME.new_game(n, options, components or GAME.load_components())
    specs = [resolve(s) for s in (seats if len(seats) == n else seats * n)]
    texts = [spec.text for spec in specs]
    ids = [(k, game_seed(seed, k)) for k in range(games)]
    finished = [(k, s, play_game(GAME, game, specs, s, True)) for k, s in ids]
    chunk = CORE.play_chunk(game, specs, "run", texts, ids, True)
    assert_frame_equal(chunk.results, GAME.result_frame("run", game, texts, finished))
    want = GAME.turn_frame("run", game, [(k, state) for k, _, state in finished])
    assert_frame_equal(chunk.turns, want)
    assert CORE.play_chunk(game, specs, "run", texts, ids, False).turns is None


@pytest.mark.parametrize(("n", "options", "seats", "games"), CASES)
def test_both_engines_play_the_same_games(n: int, options: dict, seats: list, games: int) -> None:
    assert_same_games(n, options, seats, games, seed=n * 1000 + games)


def test_the_cases_play_three_thousand_games() -> None:
    assert sum(case[-1] for case in CASES) + 2 * USER_GAMES >= 5000


USER_GAMES = 150


def user_components(tmp_path: Path):
    """A user's component file: few tiles (the supply runs dry, so cards offer nothing
    and players discard), a deck of repeats and jokers, a side with its columns swapped."""
    data = default_data()
    data["tiles"] = {"II": 2, "III": 1, "IV": 3}
    cards = data["deck"]["cards"]
    cards[0:4] = ["joker", "joker", "pair:white+fuchsia", "pair:white+fuchsia"]
    side = data["garden_side"][0]
    side["columns"][0], side["columns"][1] = side["columns"][1], side["columns"][0]
    path = tmp_path / "mine.toml"
    path.write_text(dump_toml(data), encoding="utf-8")
    return GAME.load_components(path)


@pytest.mark.parametrize(
    ("n", "options", "seats"),
    [
        (3, {"tile_set": "II", "expansion": True}, ["random", "greedy", "heuristic"]),
        (4, {"duplicate_reshuffle": True}, ["random"]),
    ],
)
def test_a_users_component_file(tmp_path: Path, n: int, options: dict, seats: list) -> None:
    components = user_components(tmp_path)
    assert_same_games(n, options, seats, USER_GAMES, seed=5, components=components)


def test_a_short_supply_makes_players_discard(tmp_path: Path) -> None:
    """The user's file above does reach the discard rule (so the cases test it)."""
    game = GAME.new_game(4, {"tile_set": "II"}, user_components(tmp_path))
    specs = [resolve("random")] * 4
    chunk = CORE.play_chunk(game, specs, "run", [s.text for s in specs], [(0, 3)], True)
    discards = chunk.turns.filter(pl.col("slot").is_null() & pl.col("card").is_not_null())
    assert discards.height > 0


def test_supports_only_compiled_strategies() -> None:
    assert CORE.supports([resolve("random"), resolve(ODD_HEURISTIC), resolve("greedy")])
    assert CORE.supports([resolve("lookahead:rollouts=3,width=2")])
    assert not CORE.supports([resolve("random"), resolve("tests.skill_strategy:Skilled")])


@pytest.mark.parametrize(
    ("n", "options", "seats", "games"),
    [
        (2, {}, ["lookahead:rollouts=4,width=2", "heuristic"], 30),
        (3, {"expansion": True}, ["random", "lookahead:rollouts=3,width=3", "greedy"], 12),
        (2, {"duplicate_reshuffle": True, **HOUSE}, ["lookahead:rollouts=2"], 8),
    ],
)
def test_lookahead_chooses_as_in_python(n: int, options: dict, seats: list, games: int) -> None:
    assert_same_games(n, options, seats, games, seed=17)
