"""The compiled Seikatsu core plays the Python engine's games: equal results and turn frames.

Every game is played twice from one game seed, by `play_game` with the Python
strategies and by `SeikatsuCore.play_chunk`, and the two frames must be equal, names,
dtypes, values and row order. The mix covers 2, 3 and 4 players (4 as teams), the
standard and tournament games, both house rules, users' component files (cells in
another order, other tiles and koi, a smaller garden), mixed seatings with non-default
parameters, and `lookahead`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from polars.testing import assert_frame_equal

from sanssim.games.seikatsu import Components, load_components
from sanssim.games.seikatsu.core import SeikatsuCore
from sanssim.games.seikatsu.plugin import GAME
from sanssim.runner.play import game_seed, play_game
from sanssim.strategies import resolve
from sanssim.strategies.base import StrategyError

CORE = SeikatsuCore()
RANDOM_GAMES = 300


def both_engines(
    n: int,
    seats: Sequence[str],
    games: int,
    master: int,
    options: dict[str, Any] | None = None,
    components: Components | None = None,
) -> int:
    """Play `games` seeded games on both engines; assert equal frames; return `games`."""
    game = GAME.new_game(n, options or {}, components or load_components())
    specs = [resolve(text, "seikatsu") for text in seats]
    names = [spec.text for spec in specs]
    assert CORE.supports(specs)
    chunk = [(100 + i, game_seed(master, i)) for i in range(games)]
    finished = [(gid, seed, play_game(GAME, game, specs, seed, True)) for gid, seed in chunk]
    results = GAME.result_frame("run", game, names, finished)
    turns = GAME.turn_frame("run", game, [(gid, state) for gid, _, state in finished])
    core = CORE.play_chunk(game, specs, "run", names, chunk, True)
    assert_frame_equal(core.results, results)
    assert core.turns is not None
    assert_frame_equal(core.turns, turns)
    unlogged = CORE.play_chunk(game, specs, "run", names, chunk, False)
    assert unlogged.turns is None
    assert_frame_equal(unlogged.results, results)
    return games


def user_components(tmp_path: Path, name: str, change: Any) -> Components:
    """A user's component file: the packaged data, changed, written as JSON and loaded."""
    data = load_components().to_dict()
    change(data)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data))
    return load_components(path)


def other_tiles(data: dict[str, Any]) -> None:
    """Cells listed in another order, 6 koi for 30 garden tiles, other start spaces,
    seat pagodas and set points, and the other tie break."""
    random.Random(3).shuffle(data["board"]["cells"])
    garden = [t for t in data["tiles"] if t != "koi"]
    data["tiles"] = garden[1:16] + garden[17:32] + ["koi"] * 6
    data["start_spaces"]["2"] = [[1, 0], [0, -1], [-1, 1], [2, -1]]
    data["seat_pagodas"]["2"] = ["green", "pink"]
    data["tournament_koi"] = {"2": [3, 3], "3": [2, 2, 2], "4": [1, 1, 2, 2]}
    data["set_points"] = [0, 2, 3, 7, 9, 16, 20]
    data["tie_break"] = "earlier_in_turn_order"


def small_garden(data: dict[str, Any]) -> None:
    """A garden of radius 2 (18 spaces): pagoda corners moved in, 14 garden tiles and
    4 koi, six start spaces in 4 players, rows of at most 4 tiles."""
    data["board"] = {
        "radius": 2,
        "pond": [0, 0],
        "cells": [
            [q, r]
            for q in range(-2, 3)
            for r in range(-2, 3)
            if abs(q + r) <= 2 and (q, r) != (0, 0)
        ],
    }
    for pagoda, corner in {"pink": [2, 0], "blue": [0, -2], "green": [-2, 2]}.items():
        data["pagodas"][pagoda]["corner"] = corner
    data["tiles"] = [t for t in data["tiles"] if t != "koi"][::2][:14] + ["koi"] * 4
    data["start_spaces"]["4"] = [[1, 0], [0, -1], [-1, 0], [0, 1], [-1, 1], [1, -1]]
    data["set_points"] = [0, 1, 3, 6, 10]


@pytest.mark.parametrize("tournament", [False, True], ids=["standard", "tournament"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_games_are_the_python_engines(n: int, tournament: bool) -> None:
    options = {"tournament": tournament}
    assert both_engines(n, ["random"] * n, RANDOM_GAMES, 11 * n + tournament, options)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_house_rules(n: int) -> None:
    options = {"set_points": "0,2,5,6,12,14,30", "tie_break": "earlier_in_turn_order"}
    assert both_engines(n, ["random"] * n, 150, 50 + n, options)
    options |= {"tournament": True, "tie_break": "later_in_turn_order"}
    assert both_engines(n, ["greedy"] + ["heuristic:fill=0.35"] * (n - 1), 40, 60 + n, options)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_users_component_file(tmp_path: Path, n: int) -> None:
    comps = user_components(tmp_path, "tiles", other_tiles)
    assert both_engines(n, ["random"] * n, 120, 70 + n, {}, comps)
    assert both_engines(n, ["random"] * n, 60, 80 + n, {"tournament": True}, comps)
    seats = ["heuristic:koi=0.2", "greedy", "heuristic:team=0.5", "random"][:n]
    assert both_engines(n, seats, 30, 90 + n, {"tournament": n == 3}, comps)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_smaller_garden(tmp_path: Path, n: int) -> None:
    comps = user_components(tmp_path, "small", small_garden)
    assert both_engines(n, ["random"] * n, 100, 20 + n, {"tournament": n == 2}, comps)
    seats = ["greedy", "heuristic:fill=0.5", "heuristic", "random"][:n]
    assert both_engines(n, seats, 40, 25 + n, {"tournament": n != 2}, comps)


MIXED = [
    (2, False, ["heuristic", "greedy"]),
    (2, True, ["greedy", "heuristic:birds=2.0,rows=0.5,spoil=0.0,fill=0.4,koi=0.5"]),
    (2, False, ["heuristic:rows=1.7,spoil=1.1,fill=0.05", "random"]),
    (3, False, ["greedy", "heuristic:spoil=1.2", "random"]),
    (3, True, ["heuristic:fill=0.6,koi=4.0", "heuristic", "greedy"]),
    (4, False, ["heuristic:team=0.5,fill=0.3", "greedy", "heuristic", "random"]),
    (4, True, ["heuristic", "heuristic:team=2.0,birds=0.9", "greedy", "greedy"]),
]


@pytest.mark.parametrize("n,tournament,seats", MIXED)
def test_mixed_seatings_with_parameters(n: int, tournament: bool, seats: list[str]) -> None:
    assert both_engines(n, seats, 100, 30 + len(seats[0]), {"tournament": tournament})


LOOKAHEAD = [
    (2, False, ["lookahead:rollouts=8,width=2", "heuristic"], 24),
    (2, True, ["greedy", "lookahead:rollouts=6,width=3"], 12),
    (3, False, ["lookahead:rollouts=4,width=4", "random", "heuristic"], 6),
    (4, True, ["lookahead:rollouts=3,width=3", "greedy", "random", "heuristic"], 5),
    (2, False, ["lookahead", "heuristic"], 3),
]


@pytest.mark.parametrize("n,tournament,seats,games", LOOKAHEAD)
def test_lookahead(n: int, tournament: bool, seats: list[str], games: int) -> None:
    assert both_engines(n, seats, games, 40 + games, {"tournament": tournament})


def test_supports_only_what_is_compiled() -> None:
    def supported(*texts: str) -> bool:
        return CORE.supports([resolve(text, "seikatsu") for text in texts])

    assert supported("random", "greedy", "heuristic:koi=-1.0,birds=-2.0", "lookahead:width=9")
    assert not supported("random", "heuristic:fill=-0.1")  # a negative set size
    assert not supported("heuristic:team=-1.0")
    for infinite in ("heuristic:birds=nan", "heuristic:rows=inf"):  # refused before a core
        with pytest.raises(StrategyError, match="must be finite"):
            supported(infinite)
    assert not supported("heuristic:birds=1e300,rows=1e300")  # inf - inf: a NaN score
    assert not supported("random", "lookahead:rollouts=10000000000000000")
