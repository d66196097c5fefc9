"""`random`: uniform over the legal choices; the baseline of the strength ladder."""

from __future__ import annotations

from typing import Any

from sanssim.strategies.base import Strategy


class RandomStrategy(Strategy):
    name = "random"
    summary = "picks uniformly among the legal choices at every decision"

    def choose(self, view: Any, legal: list[int]) -> int:
        return legal[int(self.rng.random() * len(legal))]
