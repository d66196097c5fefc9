"""The rules' section 10 sanity figures: uniform random play, and the reference table.

Shared by the test that checks the engine against the reference and by
`scripts/seikatsu_sanity.py`, which prints our figures beside the reference's.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import polars as pl

from sanssim.games.seikatsu.config import GameConfig
from sanssim.games.seikatsu.engine import Game

# (players, tournament): (bird, half-width), (flower, hw), (total, hw) per side; seat 0 (team
# 0) wins; top total tied. Means over 20,000 uniform random games, 95% intervals, from the
# rules' reference engine.
REFERENCE = {
    (2, False): ((18.32, 0.04), (39.14, 0.06), (57.46, 0.07), 0.464, 0.037),
    (2, True): ((17.48, 0.04), (39.46, 0.06), (56.93, 0.07), 0.462, 0.037),
    (3, False): ((12.25, 0.03), (39.06, 0.05), (51.31, 0.05), 0.295, 0.058),
    (3, True): ((11.75, 0.03), (39.25, 0.05), (51.00, 0.05), 0.269, 0.060),
    (4, False): ((17.98, 0.04), (38.99, 0.06), (56.97, 0.07), 0.469, 0.036),
    (4, True): ((17.20, 0.04), (39.23, 0.06), (56.43, 0.07), 0.468, 0.040),
}


@dataclass(frozen=True)
class RandomPlay:
    """Per game (the average over its sides): bird, flower and total points; and counts of
    games seat 0's side won and games whose top total was tied."""

    birds: list[float]
    flowers: list[float]
    totals: list[float]
    seat0_wins: int
    ties: int


def random_play(n_players: int, tournament: bool, games: int) -> RandomPlay:
    """`games` games of uniform random choices (seeds 0 .. games - 1)."""
    game = Game(GameConfig(n_players, tournament))
    rng = random.Random(1000 * n_players + tournament)
    birds, flowers, totals = [], [], []
    seat0_wins = ties = 0
    for seed in range(games):
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
    return RandomPlay(birds, flowers, totals, seat0_wins, ties)


def figures(results: pl.DataFrame) -> RandomPlay:
    """The same figures from a results frame of uniform random games (either engine's):
    one row per side (a team's seats carry its scores) and game."""
    sides = results.with_columns(side=pl.coalesce("team", "seat")).unique(
        ["game_id", "side"], keep="first", maintain_order=True
    )
    per_game = sides.group_by("game_id", maintain_order=True).agg(
        pl.col("bird_points").mean(),
        pl.col("total").mean(),
        tied=(pl.col("total") == pl.col("total").max()).sum() > 1,
    )
    birds = per_game["bird_points"].to_list()
    totals = per_game["total"].to_list()
    return RandomPlay(
        birds,
        [t - b for t, b in zip(totals, birds, strict=True)],
        totals,
        int(results.filter(pl.col("seat") == 0)["winner"].sum()),
        int(per_game["tied"].sum()),
    )
