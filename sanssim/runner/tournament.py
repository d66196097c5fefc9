"""Tournament line-ups: the seatings of the strategies, all played on the same seeds.

Each seating is an ordinary arm, so a tournament is an experiment directory
that `show`, `report` and users' notebooks read like any other run. Every
seating plays the same game seeds, so deal luck is common to all of them and
seat advantage cancels over the seatings.

Two sets of seatings (`SEATINGS`):

- `all`: every assignment of the listed strategies to the seats in which at
  least two different strategies play: k strategies at n seats give k^n - k
  seatings (two strategies at four seats: 14, among them one against three).
- `rotations`: each group of n strategies (of the k, in list order) in all its
  rotations; with fewer strategies than seats a group repeats its members in
  turn (two strategies at four seats: a-b-a-b and b-a-b-a only).

Both are closed under renaming the strategies, so each strategy sits in every
seat equally often.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import combinations, product
from typing import Any

from sanssim.games import DEFAULT_GAME
from sanssim.runner.config import Arm, RunError, build_config
from sanssim.strategies import resolve

SEATINGS = ("all", "rotations")
SEATINGS_HELP = (
    "Seatings played, each on the same seeds. all: every assignment of the strategies to the "
    "seats with at least two different strategies (k strategies, n seats: k^n - k; two at "
    "four seats: 14, one against three included). rotations: each group of n strategies "
    "in all its rotations, repeated in turn when there are fewer strategies than seats "
    "(two at four seats: a-b-a-b, b-a-b-a)."
)


def lineups(
    strategies: Sequence[str], n_players: int, seatings: str = "all"
) -> list[tuple[str, ...]]:
    """The seatings to play (see the module docstring), in a fixed order."""
    if len(strategies) < 2:
        raise RunError("a tournament needs at least two strategies")
    if len(set(strategies)) != len(strategies):
        raise RunError("each strategy may appear only once in a tournament")
    if seatings == "all":
        return [seats for seats in product(strategies, repeat=n_players) if len(set(seats)) > 1]
    if seatings != "rotations":
        raise RunError(f"seatings must be one of {', '.join(SEATINGS)}, got {seatings!r}")
    size = min(n_players, len(strategies))
    found = []
    for group in combinations(strategies, size):
        seats = tuple(group[i % size] for i in range(n_players))
        rotations = {seats[k:] + seats[:k] for k in range(n_players)}
        found.extend(sorted(rotations, key=lambda s: [strategies.index(x) for x in s]))
    return found


def tournament_arms(
    strategies: Sequence[str],
    n_players: int,
    games: int,
    seed: int,
    game: str = DEFAULT_GAME,
    seatings: str = "all",
    **settings: Any,
) -> list[Arm]:
    """One arm per seating; `games` per seating, all seatings on the same seeds."""
    specs = [resolve(s, game).text for s in strategies]
    seated = lineups(specs, n_players, seatings)
    width = len(str(len(seated) - 1))
    arms = []
    for k, seats in enumerate(seated):
        config = build_config(
            game=game,
            n_players=n_players,
            games=games,
            seed=seed,
            strategies=list(seats),
            **settings,
        )
        arms.append(Arm(f"{k:0{max(width, 2)}d}-{'-'.join(_slug(s) for s in seats)}", config))
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
    """A directory-safe short name of a spec, the strategy's own name where it is safe
    (`heuristic-tuned` stays `heuristic-tuned`)."""
    name = spec.split(":", 1)[0].rsplit(".", 1)[-1]
    return re.sub(r"[^A-Za-z0-9_-]", "_", name)
