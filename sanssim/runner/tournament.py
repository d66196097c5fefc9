"""Tournament line-ups: every meeting of the strategies, seats rotated over the same seeds.

Each line-up is an ordinary arm, so a tournament is an experiment directory
that `show`, `report` and users' notebooks read like any other run. Every
rotation of a line-up plays the same game seeds, so seat advantage and deal
luck cancel between the strategies that meet.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from sanssim.games import DEFAULT_GAME
from sanssim.runner.config import Arm, RunError, build_config
from sanssim.strategies import resolve


def lineups(strategies: Sequence[str], n_players: int) -> list[tuple[str, ...]]:
    """Seatings to play: each group of `n_players` strategies in all its rotations.

    With fewer strategies than seats, a group repeats its members in turn
    (two strategies at four seats: a, b, a, b), so each meets the others.
    """
    if len(strategies) < 2:
        raise RunError("a tournament needs at least two strategies")
    if len(set(strategies)) != len(strategies):
        raise RunError("each strategy may appear only once in a tournament")
    size = min(n_players, len(strategies))
    seatings = []
    for group in combinations(strategies, size):
        seats = tuple(group[i % size] for i in range(n_players))
        rotations = {seats[k:] + seats[:k] for k in range(n_players)}
        seatings.extend(sorted(rotations, key=lambda s: [strategies.index(x) for x in s]))
    return seatings


def tournament_arms(
    strategies: Sequence[str],
    n_players: int,
    games: int,
    seed: int,
    game: str = DEFAULT_GAME,
    **settings: Any,
) -> list[Arm]:
    """One arm per seating; `games` per seating, all seatings on the same seeds."""
    specs = [resolve(s, game).text for s in strategies]
    arms = []
    for k, seats in enumerate(lineups(specs, n_players)):
        config = build_config(
            game=game,
            n_players=n_players,
            games=games,
            seed=seed,
            strategies=list(seats),
            **settings,
        )
        arms.append(Arm(f"{k:02d}-{'-'.join(_slug(s) for s in seats)}", config))
    return arms


def split_specs(text: str) -> list[str]:
    """`random,heuristic:path=3,row=1,greedy` -> three specs: a `key=value` item
    without its own `name:` continues the spec before it."""
    specs: list[str] = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        if "=" in item and ":" not in item and specs:
            specs[-1] += "," + item
        else:
            specs.append(item)
    return specs


def _slug(spec: str) -> str:
    """A directory-safe short name of a spec."""
    name = spec.split(":", 1)[0].rsplit(".", 1)[-1]
    return re.sub(r"[^A-Za-z0-9_]", "_", name)
