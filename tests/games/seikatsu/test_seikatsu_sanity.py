"""Section 10's sanity figures: uniform random games land where the reference engine's did.

The rules give means over 20,000 games with 95% intervals. We play fewer
games, so each check uses a 99.9% interval (z = 3.29) built from our own
sample's standard error combined with the reference's (its half-width / 1.96).
The unit of a mean is one game (the average over its sides), so the games are
independent. Rates (seat 0 wins, top total tied) use the binomial standard
error at the reference rate. The compiled engine's games (its results frames, other
seeds) must land there too.
"""

from __future__ import annotations

import math
import statistics

import pytest

from sanssim.games.seikatsu.config import GameConfig
from sanssim.games.seikatsu.core import SeikatsuCore
from sanssim.games.seikatsu.engine import Game
from sanssim.games.seikatsu.sanity import REFERENCE, RandomPlay, figures, random_play
from sanssim.runner.play import game_seed
from sanssim.strategies import resolve

Z = 3.29
GAMES = 3000


def close_mean(sample: list[float], reference: float, half_width: float) -> bool:
    se = statistics.stdev(sample) / math.sqrt(len(sample))
    return abs(statistics.fmean(sample) - reference) <= Z * math.hypot(se, half_width / 1.96)


def close_rate(hits: int, games: int, reference: float) -> bool:
    return abs(hits / games - reference) <= Z * math.sqrt(reference * (1 - reference) / games)


def compiled_random_play(n: int, tournament: bool, games: int) -> RandomPlay:
    """`games` uniform random games on the compiled engine, figures from its results frame."""
    master = 1000 * n + tournament
    chunk = [(i, game_seed(master, i)) for i in range(games)]
    specs = [resolve("random", "seikatsu")] * n
    core = SeikatsuCore().play_chunk(
        Game(GameConfig(n, tournament)), specs, "sanity", ["random"] * n, chunk, False
    )
    return figures(core.results)


@pytest.mark.parametrize("engine", [random_play, compiled_random_play], ids=["python", "compiled"])
@pytest.mark.parametrize(
    "n,tournament", list(REFERENCE), ids=[f"{n}p-{'t' if t else 's'}" for n, t in REFERENCE]
)
def test_uniform_random_games_match_the_reference_figures(engine, n, tournament):
    played = engine(n, tournament, GAMES)
    birds, flowers, totals = played.birds, played.flowers, played.totals
    seat0_wins, ties = played.seat0_wins, played.ties
    (bird, bird_hw), (flower, flower_hw), (total, total_hw), win0, tied = REFERENCE[(n, tournament)]
    assert close_mean(birds, bird, bird_hw), statistics.fmean(birds)
    assert close_mean(flowers, flower, flower_hw), statistics.fmean(flowers)
    assert close_mean(totals, total, total_hw), statistics.fmean(totals)
    assert close_rate(seat0_wins, GAMES, win0), seat0_wins / GAMES
    assert close_rate(ties, GAMES, tied), ties / GAMES
