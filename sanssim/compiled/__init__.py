"""Compiled play: numba cores that play whole chunks of games, identical to the Python engines.

A built-in game may offer a `Core` (its `GameType.core()`): given the engine's `Game`, the
seats' `StrategySpec`s and the chunk's game ids and seeds, it plays every game in compiled
code and returns the same polars frames, column for column and row for row, that the
Python path (`GameType.result_frame` / `turn_frame` over `play_game`) gives for those
games. The Python engine stays the reference: a core that disagrees with it is wrong.

Randomness is `sanssim.compiled.rng`, Python's MT19937 replicated draw for draw, seeded
from the same derived seeds (`sanssim.seeding`) as the Python engine and strategies.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import polars as pl

    from sanssim.strategies.base import StrategySpec


@dataclass(frozen=True, slots=True)
class CoreChunk:
    """What a core played: the results frame, the turns frame (None without a turn log)."""

    results: pl.DataFrame
    turns: pl.DataFrame | None


class Core(Protocol):
    """One game's compiled fast path."""

    def supports(self, specs: Sequence[StrategySpec]) -> bool:
        """True when every seat's strategy (with its parameters) has a compiled form."""

    def compile(self) -> None:
        """Compile (or load from the on-disk cache) everything a chunk needs."""

    def play_chunk(
        self,
        game: Any,
        specs: Sequence[StrategySpec],
        run_id: str,
        strategies: Sequence[str],
        games: Sequence[tuple[int, int]],
        record: bool,
    ) -> CoreChunk:
        """Play `games` ((game_id, game_seed) pairs) and return the Python path's frames."""
