"""Strategies that misbehave on purpose, loaded as `tests.faulty_strategy:Class`."""

from __future__ import annotations

import time

from sanssim.games.sanssouci.view import PlayerView
from sanssim.strategies import Strategy

FAIL_EVERY = 3  # one player in this many is doomed to raise


class Raising(Strategy):
    """Raises on its fifth decision in about one game in three."""

    name = "raising"

    def __init__(self, rng, **params) -> None:  # noqa: ANN001, ANN003
        super().__init__(rng, **params)
        self.decisions = 0
        self.doomed = rng.randrange(FAIL_EVERY) == 0

    def choose(self, view: PlayerView, legal: list[int]) -> int:
        self.decisions += 1
        if self.doomed and self.decisions == 5:
            raise RuntimeError("deliberate failure")
        return legal[0]


class Illegal(Strategy):
    """Always answers with a choice that is never legal."""

    name = "illegal"

    def choose(self, view: PlayerView, legal: list[int]) -> int:
        return -7


class Slow(Strategy):
    """Plays the first legal choice after a pause, so a run lasts long enough to be killed."""

    name = "slow"

    def choose(self, view: PlayerView, legal: list[int]) -> int:
        time.sleep(0.0005)
        return legal[0]
