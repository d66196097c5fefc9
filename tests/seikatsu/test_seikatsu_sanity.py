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
import random
import statistics

import pytest

from sanssim.games.seikatsu import Game, GameConfig

Z = 3.29
GAMES = 3000
# players, tournament: (bird, hw), (flower, hw), (total, hw), seat 0 wins, top tied
TABLE = {
    (2, False): ((18.32, 0.04), (39.14, 0.06), (57.46, 0.07), 0.464, 0.037),
    (2, True): ((17.48, 0.04), (39.46, 0.06), (56.93, 0.07), 0.462, 0.037),
    (3, False): ((12.25, 0.03), (39.06, 0.05), (51.31, 0.05), 0.295, 0.058),
    (3, True): ((11.75, 0.03), (39.25, 0.05), (51.00, 0.05), 0.269, 0.060),
    (4, False): ((17.98, 0.04), (38.99, 0.06), (56.97, 0.07), 0.469, 0.036),
    (4, True): ((17.20, 0.04), (39.23, 0.06), (56.43, 0.07), 0.468, 0.040),
}


def close_mean(sample: list[float], reference: float, half_width: float) -> bool:
    se = statistics.stdev(sample) / math.sqrt(len(sample))
    return abs(statistics.fmean(sample) - reference) <= Z * math.hypot(se, half_width / 1.96)


def close_rate(hits: int, games: int, reference: float) -> bool:
    return abs(hits / games - reference) <= Z * math.sqrt(reference * (1 - reference) / games)


@pytest.mark.parametrize(
    "n,tournament", list(TABLE), ids=[f"{n}p-{'t' if t else 's'}" for n, t in TABLE]
)
def test_uniform_random_games_match_the_reference_figures(n, tournament):
    game = Game(GameConfig(n, tournament))
    rng = random.Random(1000 * n + tournament)
    birds, flowers, totals = [], [], []
    seat0_wins = ties = 0
    for seed in range(GAMES):
        state = game.new_state(seed)
        while state.legal:
            state.apply_action(state.legal[int(rng.random() * len(state.legal))])
        side_totals = state.side_totals()
        sides = len(side_totals)
        birds.append(sum(state.side_score) / sides)
        totals.append(sum(side_totals) / sides)
        flowers.append(totals[-1] - birds[-1])
        seat0_wins += state.ranks()[0] == 1
        ties += side_totals.count(max(side_totals)) > 1
    (bird, bird_hw), (flower, flower_hw), (total, total_hw), win0, tied = TABLE[(n, tournament)]
    assert close_mean(birds, bird, bird_hw), statistics.fmean(birds)
    assert close_mean(flowers, flower, flower_hw), statistics.fmean(flowers)
    assert close_mean(totals, total, total_hw), statistics.fmean(totals)
    assert close_rate(seat0_wins, GAMES, win0), seat0_wins / GAMES
    assert close_rate(ties, GAMES, tied), ties / GAMES
