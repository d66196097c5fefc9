"""The compiled `ismcts` of every built-in game chooses exactly what the Python one chooses.

Whole games (2-4 players, ismcts seats with several parameter sets beside the other
strategies, small budgets to keep the Python side quick) must give equal results and
turn frames on both engines; at a few positions the default search must give every
option the same visits and the same mean reward, leave the player's random stream in
the same state and choose the same option.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from polars.testing import assert_frame_equal

from sanssim.compiled import prepare, rng
from sanssim.games import get_game
from sanssim.runner.play import game_seed, play_game, strategy_rng
from sanssim.strategies import resolve

# (players, options, seats, games) per game: at least 30 games each.
SANS_4P = [
    "ismcts:iterations=3",
    "greedy",
    "ismcts:width=0,iterations=2,rollout=random,depth=2",
    "random",
]
CASES = {
    "sanssouci": [
        (2, {}, ["ismcts:iterations=4", "heuristic"], 6),
        (2, {}, ["heuristic", "ismcts:iterations=5,depth=3"], 4),
        (2, {"expansion": True}, ["random", "ismcts:iterations=3,reward=margin,c=0.2"], 6),
        (
            3,
            {"duplicate_reshuffle": True},
            ["ismcts:iterations=3,width=2", "heuristic", "random"],
            6,
        ),
        (4, {}, SANS_4P, 5),
        (4, {"expansion": True}, ["ismcts:iterations=2,c=1.5", "heuristic"] * 2, 4),
    ],
    "splendor": [
        (2, {}, ["ismcts:iterations=4", "heuristic"], 6),
        (2, {}, ["heuristic", "ismcts:iterations=5,depth=3"], 4),
        (2, {"target_points": 8}, ["greedy", "ismcts:iterations=3,reward=margin,c=0.2"], 6),
        (
            3,
            {"ties_to_later_seat": True},
            ["ismcts:iterations=3,width=2", "heuristic", "random"],
            6,
        ),
        (4, {}, ["ismcts:iterations=3", "greedy", "ismcts:width=0,iterations=2", "random"], 5),
        (
            4,
            {"target_points": 10},
            ["ismcts:iterations=2,c=1.5,rollout=random", "heuristic"] * 2,
            4,
        ),
    ],
    "seikatsu": [
        (2, {}, ["ismcts:iterations=4", "heuristic"], 6),
        (2, {}, ["heuristic", "ismcts:iterations=5,depth=3"], 4),
        (2, {"tournament": True}, ["greedy", "ismcts:iterations=3,reward=margin,c=0.2"], 6),
        (3, {}, ["ismcts:iterations=3,width=2", "heuristic", "random"], 6),
        (4, {}, ["ismcts:iterations=3", "greedy", "ismcts:width=0,iterations=2", "random"], 5),
        (4, {"tournament": True}, ["ismcts:iterations=2,c=1.5,rollout=random", "heuristic"] * 2, 4),
    ],
}
GAMES = list(CASES)


def core_of(name: str):  # type: ignore[no-untyped-def]
    core = get_game(name).core()
    prepare(core)
    return core


@pytest.mark.parametrize(
    ("name", "n", "options", "seats", "games"),
    [(name, *case) for name, cases in CASES.items() for case in cases],
)
def test_whole_games_agree(name: str, n: int, options: dict, seats: list, games: int) -> None:
    game_type = get_game(name)
    core = core_of(name)
    game = game_type.new_game(n, options, game_type.load_components())
    specs = [resolve(s, name) for s in seats]
    assert core.supports(specs)
    texts = [spec.text for spec in specs]
    ids = [(k, game_seed(23, k)) for k in range(games)]
    finished = [(k, s, play_game(game_type, game, specs, s, True)) for k, s in ids]
    chunk = core.play_chunk(game, specs, "run", texts, ids, True)
    assert_frame_equal(chunk.results, game_type.result_frame("run", game, texts, finished))
    want = game_type.turn_frame("run", game, [(k, state) for k, _, state in finished])
    assert_frame_equal(chunk.turns, want)


@pytest.mark.parametrize("name", GAMES)
def test_the_cases_play_thirty_games(name: str) -> None:
    assert sum(case[-1] for case in CASES[name]) >= 30
    assert {case[0] for case in CASES[name]} >= {2, 4}


def positions(name: str, n: int, seed: int, count: int):  # type: ignore[no-untyped-def]
    """`count` decisions of a game played on by heuristic, a few turns apart."""
    game_type = get_game(name)
    game = game_type.new_game(n, {}, game_type.load_components())
    state = game.new_state(seed)
    players = [resolve("heuristic", name).make(random.Random(p)) for p in range(n)]
    found = decisions = 0
    while state.legal and found < count:
        decisions += 1
        if decisions % 7 == 3:
            found += 1
            yield state.clone()
        p = state.current
        state.apply_action(players[p].choose(game_type.view(state, p), list(state.legal)))


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("n", [2, 4])
def test_the_default_search_scores_every_option_alike(name: str, n: int) -> None:
    game_type = get_game(name)
    core = core_of(name)
    spec = resolve("ismcts", name)
    for k, state in enumerate(positions(name, n, seed=n, count=2)):
        player = spec.make(strategy_rng(k, state.current))
        stream = rng.from_python(strategy_rng(k, state.current))
        terms = player.terms(game_type.view(state, state.current), list(state.legal))
        compiled = core.search_terms(state, spec, stream)
        assert np.array_equal(stream, rng.from_python(player.rng))
        want = {a: (t["visits"], t["mean reward"]) for a, t in terms}
        assert {a: (v, m) for a, v, m in compiled} == want
        assert sum(v for _, v, _ in compiled) == 100
        best = max(compiled, key=lambda item: item[1] + item[2])
        assert best[0] == terms[0][0]
