"""Section 10's sanity figures: uniform random games land where the reference engine's did.

The rules give means over 20,000 games with 95% intervals. We play fewer
games, so each check uses a 99.9% interval (z = 3.29) built from our own
sample's standard error combined with the reference's (its half-width / 1.96).
The unit of a mean is one game (the average over its sides), so the games are
independent. Rates (seat 0 wins, top total tied) use the binomial standard
error at the reference rate.
"""

from __future__ import annotations

import math
import statistics

import pytest

from sanssim.games.seikatsu.sanity import REFERENCE, random_play

Z = 3.29
GAMES = 3000


def close_mean(sample: list[float], reference: float, half_width: float) -> bool:
    se = statistics.stdev(sample) / math.sqrt(len(sample))
    return abs(statistics.fmean(sample) - reference) <= Z * math.hypot(se, half_width / 1.96)


def close_rate(hits: int, games: int, reference: float) -> bool:
    return abs(hits / games - reference) <= Z * math.sqrt(reference * (1 - reference) / games)


@pytest.mark.parametrize(
    "n,tournament", list(REFERENCE), ids=[f"{n}p-{'t' if t else 's'}" for n, t in REFERENCE]
)
def test_uniform_random_games_match_the_reference_figures(n, tournament):
    played = random_play(n, tournament, GAMES)
    birds, flowers, totals = played.birds, played.flowers, played.totals
    seat0_wins, ties = played.seat0_wins, played.ties
    (bird, bird_hw), (flower, flower_hw), (total, total_hw), win0, tied = REFERENCE[(n, tournament)]
    assert close_mean(birds, bird, bird_hw), statistics.fmean(birds)
    assert close_mean(flowers, flower, flower_hw), statistics.fmean(flowers)
    assert close_mean(totals, total, total_hw), statistics.fmean(totals)
    assert close_rate(seat0_wins, GAMES, win0), seat0_wins / GAMES
    assert close_rate(ties, GAMES, tied), ties / GAMES
